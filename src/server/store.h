/* server/store.h — where the server keeps its games: every game is its record
 * (game, variant, options, data hash, rules version, secret seed, seats and
 * the list of actions and marks), plus its seat tokens (hashed) and, once it
 * ends, its result.  Backends: SQLite (store_sqlite.c, "sqlite:PATH") and
 * PostgreSQL ("postgres://..." or "postgresql://...", store_pg.c).
 *
 * A store is a table of functions (Redis connection.h) behind an opaque
 * handle.  Every function is safe to call from several threads at once
 * (the backend serializes what it must).  Text fields are borrowed by the
 * calls that take them and copied by the calls that return them.
 *
 * Durability: ops->append (and append_clock) returns CR_OK only once the
 * entries are committed (SQLite: WAL with synchronous=FULL; PostgreSQL: a
 * committed transaction), so an acknowledged action survives kill -9.
 *
 * Ownership across processes: claim/release.  A game is played by one
 * server process at a time.  ops->claim takes the game for this
 * process (PostgreSQL: a session advisory lock on the game's key, dropped
 * by the database when the process dies; SQLite: one process owns the
 * file, so a claim always succeeds).  A process appends only to games it
 * holds.  Appends also carry the index they expect to write at, so two
 * writers can never interleave one game's actions.
 */
#ifndef CR_SERVER_STORE_H
#define CR_SERVER_STORE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "croupier/game.h"
#include "croupier/status.h"

enum {
    CR_STORE_ID_LEN = 32,    /* a game id: 32 lowercase hex digits (128 bits) */
    CR_STORE_HASH_LEN = 32,  /* a token's hash: BLAKE2b-256 */
    CR_STORE_SPEC_MAX = 128, /* a seat spec, as in records */
    CR_STORE_TEXT_MAX = 2048 /* options_json, config_json, result_json */
};

/* Status of a stored game. */
typedef enum cr_store_status {
    CR_STORE_RUNNING = 1,  /* being played (some seats may still be free) */
    CR_STORE_FINISHED = 2, /* over: result_json is set */
    CR_STORE_OUTDATED = 3  /* made under another rules version: kept, never resumed */
} cr_store_status;

/* A game's clock as the server last stored it: the seat whose clock runs
 * (-1: none), when that seat's move started (Unix ms), and each seat's
 * time left at the start of its move (ms).  Stored in the same transaction
 * as the entries that changed the turn (append_clock), so a restart resumes
 * every clock where it was. */
typedef struct cr_store_clock {
    int seat;
    int64_t started_ms;
    int64_t remaining_ms[CR_MAX_PLAYERS];
} cr_store_clock;

/* The clock as text ("SEAT STARTED R0 R1 ..."; n seats), as both backends
 * keep it; and back (0 on malformed text or "": no clock stored). */
size_t cr_store_clock_format(const cr_store_clock *c, int n, char *buf, size_t cap);
int cr_store_clock_parse(const char *text, int n, cr_store_clock *c);

/* One game's header.  options_json: {"key": "value", ...} as the table
 * set them; seats[i]: "human", "invite" or a bot spec as created (the
 * current spec of each seat follows from the SEAT marks); config_json: the
 * server's per-game settings (clock, webhook), opaque to the store. */
typedef struct cr_store_game {
    char id[CR_STORE_ID_LEN + 1];
    char game[32];
    char variant[32];
    int players;
    int rules_version;
    uint64_t data_hash;
    int has_data_hash;
    uint64_t seed;
    char seats[CR_MAX_PLAYERS][CR_STORE_SPEC_MAX];
    char options_json[CR_STORE_TEXT_MAX];
    char config_json[CR_STORE_TEXT_MAX];
    cr_store_status status;
    int64_t created_ms, updated_ms; /* Unix time in milliseconds */
    int n_entries;                  /* entries stored (filled by list and load) */
    uint32_t taken;                 /* bit s: seat s has a token (filled by list and load) */
    /* Once finished: the result (the server's JSON) and the winners' bits. */
    char result_json[CR_STORE_TEXT_MAX];
    uint32_t winners;
    /* The clock last stored with append_clock (filled by load). */
    int has_clock;
    cr_store_clock clock;
} cr_store_game;

/* One entry of a game's record, in order: an action, or a mark. */
typedef enum cr_store_kind {
    CR_STORE_ACTION = 0, /* value: the action id; seat: who chose it (CR_CHANCE for chance) */
    CR_STORE_RESIGN = 1, /* seat resigned (value unused) */
    CR_STORE_TIMEOUT = 2,
    CR_STORE_SEAT = 3, /* seat is now played by spec */
    CR_STORE_END = 4   /* the match ended here (seat -1) */
} cr_store_kind;

typedef struct cr_store_entry {
    cr_store_kind kind;
    int32_t value;
    int32_t seat;
    char spec[CR_STORE_SPEC_MAX]; /* CR_STORE_SEAT only; "" otherwise */
} cr_store_entry;

/* ---- for the backends: a games row, decoded in one place (store.c) ----
 * Both backends select CR_STORE_GAME_COLS from their games table and hand
 * the columns over as text (an integer column as its decimal text; NULL
 * reads as "").  cr_store_row_game fills g (clearing it first), checks the
 * player count and reads the clock; each seat row then goes through
 * cr_store_row_seat. */
#define CR_STORE_GAME_COLS                                                                         \
    "id, game, variant, players, rules, data_hash, has_data_hash, seed, options_json,"             \
    " config_json, status, created_ms, updated_ms, n_entries, result_json, winners, clock"
enum { CR_STORE_GAME_NCOLS = 17 };
cr_status cr_store_row_game(cr_store_game *g, const char *const col[CR_STORE_GAME_NCOLS], char *err,
                            size_t errcap);
/* Seat `seat` (ignored outside 0..CR_MAX_PLAYERS-1) was created as spec
 * and has a token bound when has_token. */
void cr_store_row_seat(cr_store_game *g, long long seat, const char *spec, int has_token);

/* ---- for the backends: group commit (store.c) ----
 * Appends join a queue; the first caller to find no committer becomes it,
 * takes a batch of the queued requests (the first of each game, at most
 * CR_STORE_GC_MAX; a later append of a game already in the batch waits for
 * the next one, so one game's appends keep their order), commits the batch
 * without the queue's mutex and wakes the callers.  Each caller returns
 * from cr_store_gc_run only once the batch holding its request was
 * committed (or failed).  A backend's request embeds cr_store_gc_req as its
 * first member. */
enum { CR_STORE_GC_MAX = 256 };
typedef struct cr_store_gc_req {
    const char *id; /* the game */
    int done;
    struct cr_store_gc_req *next;
} cr_store_gc_req;
typedef struct cr_store_gc {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    cr_store_gc_req *head, *tail;
    int leader; /* a caller is committing a batch */
} cr_store_gc;
void cr_store_gc_init(cr_store_gc *q);
void cr_store_gc_destroy(cr_store_gc *q);
/* Queues r and returns once commit(arg, batch, n) has run on a batch
 * holding it (called by whichever caller leads, outside q's mutex). */
void cr_store_gc_run(cr_store_gc *q, cr_store_gc_req *r,
                     void (*commit)(void *arg, cr_store_gc_req **batch, int n), void *arg);

/* Per-title statistics over finished games. */
typedef struct cr_store_stats {
    char game[32];
    int64_t finished;
    double avg_entries;
    int players_max; /* the largest seat count seen */
    int64_t seat_games[CR_MAX_PLAYERS];
    int64_t seat_wins[CR_MAX_PLAYERS];
} cr_store_stats;

typedef struct cr_store cr_store;

/* The backend's table.  err/errcap: a one-line reason on failure (never
 * quoting a token).  Every function returns CR_OK, or:
 *   CR_ERR_INVALID  no such game / bad argument
 *   CR_ERR_ILLEGAL  a conflict (append at the wrong index, a seat already
 *                   holding a token, a claim held by another process)
 *   CR_ERR_IO       the database failed (nothing was written) */
typedef struct cr_store_ops {
    const char *name; /* "sqlite", "postgres" */
    void (*close)(cr_store *s);
    /* Stores a new game (status, n_entries, taken, result are ignored). */
    cr_status (*create_game)(cr_store *s, const cr_store_game *g, char *err, size_t errcap);
    /* Appends n entries at index `at` (= the game's entry count now), in one
     * transaction, durably; CR_ERR_ILLEGAL if the game holds another count. */
    cr_status (*append)(cr_store *s, const char *id, int at, const cr_store_entry *e, int n,
                        char *err, size_t errcap);
    /* Marks the game finished with its result. */
    cr_status (*finish)(cr_store *s, const char *id, const char *result_json, uint32_t winners,
                        char *err, size_t errcap);
    /* Sets the status (e.g. CR_STORE_OUTDATED). */
    cr_status (*set_status)(cr_store *s, const char *id, cr_store_status st, char *err,
                            size_t errcap);
    /* Loads one game's header and entries; *entries (malloc'd, caller frees)
     * gets g->n_entries entries. */
    cr_status (*load)(cr_store *s, const char *id, cr_store_game *g, cr_store_entry **entries,
                      char *err, size_t errcap);
    /* Calls fn for each game with this status (0: any), newest first, at most
     * `limit`; fn returns non-zero to stop. */
    cr_status (*list)(cr_store *s, int status, int limit,
                      int (*fn)(void *arg, const cr_store_game *g), void *arg, char *err,
                      size_t errcap);
    /* Binds a token hash to a seat; CR_ERR_ILLEGAL when the seat already has one. */
    cr_status (*add_token)(cr_store *s, const char *id, int seat,
                           const uint8_t hash[CR_STORE_HASH_LEN], char *err, size_t errcap);
    /* The seat a token hash opens in game id: *seat, or CR_ERR_INVALID. */
    cr_status (*find_token)(cr_store *s, const char *id, const uint8_t hash[CR_STORE_HASH_LEN],
                            int *seat, char *err, size_t errcap);
    /* Per-title statistics: fn once per title. */
    cr_status (*stats)(cr_store *s, int (*fn)(void *arg, const cr_store_stats *st), void *arg,
                       char *err, size_t errcap);
    /* Takes / gives back this process's ownership of a game (see above). */
    cr_status (*claim)(cr_store *s, const char *id, char *err, size_t errcap);
    void (*release)(cr_store *s, const char *id);
    /* append, and in the same transaction sets the game's clock (clock
     * NULL: left as it is); n may be 0 (only the clock, with the index
     * checked as append does). */
    cr_status (*append_clock)(cr_store *s, const char *id, int at, const cr_store_entry *e, int n,
                              const cr_store_clock *clock, char *err, size_t errcap);
} cr_store_ops;

/* Every backend's handle starts with its table. */
struct cr_store {
    const cr_store_ops *ops;
};

/* Opens a store by URL: "sqlite:PATH" (the file is created on first use)
 * or "postgres://..." / "postgresql://..." (when built with libpq).  NULL
 * with a reason in err. */
cr_store *cr_store_open(const char *url, char *err, size_t errcap);
/* The backends' own openers (url without the "sqlite:" prefix for SQLite). */
cr_store *cr_store_sqlite_open(const char *path, char *err, size_t errcap);
cr_store *cr_store_pg_open(const char *url, char *err, size_t errcap);

static inline void cr_store_close(cr_store *s)
{
    if (s) s->ops->close(s);
}

#endif
