/* server/server_internal.h — what the server's rooms share (server.c,
 * transport.c, handlers.c, games.c, bots.c): the server, its games and
 * connections, and the functions one room calls in another.  Nothing
 * outside src/server includes it.
 *
 * The server (sv_server) is passed explicitly: each game and connection
 * points at its server (srv), civetweb's handlers get it as their cbdata
 * (sv_log_message as the context's user data), and each thread the server
 * starts as its pthread argument.  The server keeps no process-global.
 *
 * Lock order: a game's mutex (g->mu) first; then at most one of the
 * server's table_mu, job_mu and hook_mu, or a connection's q_mu.  Those
 * four are leaves: each is held briefly and nothing else is locked while
 * one is held (the clock thread and the claim sweep let go of table_mu
 * before they lock a game).  The store's own locks (store.c, store_pg.c)
 * are taken inside its calls, under a game's mutex or none, never under a
 * leaf.
 *
 * Durability: the match is changed in memory under g->mu, its new record
 * entries are appended to the store (which returns once they are durable),
 * and only then is the submitter acknowledged and any follower shown the
 * change (sv_flush before sv_ack and sv_after_change; sv_sync stores a bot
 * worker's entries before any view is built).  If the store refuses, the
 * match is rebuilt from it: memory never runs ahead of what is stored.
 */
#ifndef CR_SERVER_SERVER_INTERNAL_H
#define CR_SERVER_SERVER_INTERNAL_H

#include <jansson.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "croupier/bot.h"
#include "croupier/match.h"
#include "croupier/replay.h"
#include "match/view.h"
#include "server/proto.h"
#include "server/server.h"
#include "server/store.h"
#include "server/ws.h"

struct mg_connection;

enum { SV_MAX_EVENTS_PER_UPDATE = 200, SV_MAX_HISTORY = 500, SV_LIST_MAX = 200 };
/* A connection's thread (sv_conn_main) runs the message handlers on a
 * stack of SV_CONN_STACK bytes (server.h): parsing (bounded: proto.c
 * refuses nesting past SV_MAX_DEPTH before jansson recurses), the match
 * layer and the game's rules (an action may run a long search)
 * and the store.  civetweb's workers, whose stack its build chose (about
 * 100 KiB in Debian's), only wait for it; the fuzz target runs the handler
 * on a thread of that size too (fuzz/fuzz_protocol.c). */
/* `replay` requests a connection may make per second (a burst of twice
 * that): each may replay up to a checkpoint interval of actions.  A request
 * that takes up another game than the connection's last costs
 * SV_REPLAY_TAKE_COST of them: it loads the game (its whole record
 * replayed) and rebuilds its checkpoints, thousands of actions; such
 * requests are also capped server-wide (SV_REPLAY_TAKES a second, a burst
 * of twice that), whatever the number of connections. */
enum { SV_REPLAY_RATE = 20, SV_REPLAY_TAKE_COST = 10, SV_REPLAY_TAKES = 20 };
/* Finished games out of memory are loaded again on demand (spectate,
 * history, record, replay), each by replaying its whole record: a long
 * game is thousands of actions, some of which may run a long search.  Such loads are paid for
 * server-wide from one allowance of SV_LOAD_ACTIONS record actions a second (a burst of twice
 * that), so no number of connections asking for old games can keep the server busy; past it a
 * request gets `limit` and asks again. */
enum { SV_LOAD_ACTIONS = 10000 };
/* The coach (coach.c): `analyse` (a finished game's seat, every decision
 * searched) and `hint` (what a tier would play for the seat to act) run on
 * the asking connection's thread, never under a game's lock.  At most
 * SV_ANALYSES analyses and SV_HINTS hints run at once on the server, and a
 * client address has at most one of each running; an analysis stops after
 * SV_ANALYSE_SECONDS (or when the server stops).  The last SV_ANALYSIS_CACHE
 * analyses are kept (game, seat, iterations): asking again costs nothing. */
enum { SV_ANALYSES = 2, SV_HINTS = 4, SV_ANALYSE_SECONDS = 120, SV_ANALYSIS_CACHE = 16 };

/* Why sv_take_over / sv_find_game_where found no game. */
enum { SV_HERE = 0, SV_ELSEWHERE = 1, SV_FULL = 2 };

typedef struct sv_game {
    sv_server *srv; /* the server holding it (set once, never changes) */
    pthread_mutex_t mu;
    cr_store_game meta; /* as created (seats: "human", "invite" or a bot spec) */
    cr_match *m;        /* NULL when outdated (kept in the store, never played) */
    int outdated;
    int finished;           /* the store has the result */
    int n_stored;           /* entries in the store */
    cr_match_cursor stored; /* the match record's entries taken into pend or the store */
    int bot_seats;          /* bot seats counted against max_bots */
    int bot_queued;
    /* The server's own bots: one per bot seat, made on first use; a worker
     * thinks with them outside mu on a copy of the seat's observation
     * (think_obs, think_legal), then submits under mu if the game has not
     * moved on (version, the seat's decision number). */
    cr_game *bot_game; /* the game the bots borrow: lives as long as g */
    cr_bot *bots[CR_MAX_PLAYERS];
    char bot_made[CR_MAX_PLAYERS][CR_STORE_SPEC_MAX]; /* the spec bots[s] was made for */
    cr_bot *rnd;      /* the random policy, substituted at the deadline */
    int thinking;     /* a worker thinks for this game (bots, think_* in use) */
    uint64_t version; /* bumped by every change of the match */
    void *think_obs;
    cr_action *think_legal;
    /* the clock */
    sv_clock_mode clock_mode;
    int64_t clock_initial, clock_inc;
    char on_timeout[SV_SPEC_MAX];
    int64_t remaining[CR_MAX_PLAYERS];
    int clock_seat;        /* the seat whose clock runs, -1 */
    int64_t clock_started; /* when it started (ms) */
    int clock_saved_seat;  /* clock_seat/clock_started as last stored (-2: never) */
    int64_t clock_saved_started;
    char webhook[SV_URL_MAX + 1];
    int64_t hooked[CR_MAX_PLAYERS]; /* the decision a webhook was sent for */
    /* followers */
    sv_conn **conns;
    int n_conns, cap_conns;
    /* scratch, used under mu */
    cr_view view; /* the views sent to followers */
    cr_store_entry *pend;
    int n_pend, cap_pend;
    struct sv_game *next_job;
    /* References, under the table's mutex: the table's (while in_table),
     * each follower's (c->game), each queued bot job's, and each lookup's
     * until its caller is done (sv_game_put).  The last one frees g. */
    int refs;
    int in_table;
    int evicted; /* under mu: finished and out of the table */
} sv_game;

struct sv_conn {
    sv_server *srv; /* the server it is connected to */
    struct mg_connection *mc;
    /* After the handshake the connection's own thread (sv_conn_main) owns
     * the socket: it reads and decodes the client's frames, and writes the
     * frames other threads queue here (sv_send never blocks on a client). */
    int fd;        /* the socket; -1 before the thread has it */
    int wake;      /* an eventfd: a frame was queued */
    char addr[48]; /* the client's address, for the log */
    pthread_mutex_t q_mu;
    uint8_t *q; /* frames to write, q_off already written */
    size_t q_len, q_off, q_cap;
    int q_over;  /* the queue passed --max-outbox: the client does not read */
    int closing; /* no more frames are queued */
    void (*sink)(void *arg, int op, const void *data, size_t len); /* instead of a socket */
    void *sink_arg;
    sv_game *game;
    int seat; /* a seat, or CR_SEAT_PUBLIC */
    uint8_t view[32];
    int has_view;
    uint32_t sent_seq;
    int64_t turn_sent; /* the decision a your_turn was sent for */
    double bucket, bucket_t;
    cr_text out;
    /* `replay`: the finished game this connection replays (a reference),
     * its checkpoints, and the replay rate's bucket */
    struct sv_game *rp_game;
    struct sv_replay *rp; /* handlers.c */
    double rp_bucket, rp_t;
};

typedef struct sv_hook {
    char url[SV_URL_MAX + 1];
    char body[256];
    struct sv_hook *next;
} sv_hook;

struct sv_server {
    sv_config cfg;
    int conns_stop; /* connection threads end (mg_stop is under way) */
    cr_store *store;
    struct mg_context *ctx;
    pthread_mutex_t table_mu;
    sv_game **games;
    int n_games, cap_games;
    int n_running, n_bots;
    double rp_takes, rp_takes_t; /* under table_mu: the server-wide bucket of replay takes */
    double loads, loads_t;       /* under table_mu: record actions finished loads may replay */
    /* bot counters (under job_mu), GET /api/server */
    int64_t bot_moves, bot_late, bot_heavy, bot_stale;
    int bot_thinking; /* games whose bot move a worker is thinking out now */
    /* bot jobs */
    pthread_mutex_t job_mu;
    pthread_cond_t job_cv;
    sv_game *job_head, *job_tail;
    pthread_t *workers;
    int n_workers;
    int stopping;
    pthread_t clock_thread;
    /* webhooks */
    pthread_mutex_t hook_mu;
    pthread_cond_t hook_cv;
    sv_hook *hook_head;
    int n_hooks;
    int hook_stop; /* under hook_mu */
    pthread_t hook_thread;
    /* the coach (coach.c), under table_mu: the addresses running an
     * analysis or a hint ("" free), and the cached analyses */
    char analysing[SV_ANALYSES][48], hinting[SV_HINTS][48];
    struct sv_analysis_cached {
        char id[CR_STORE_ID_LEN + 1];
        int seat;
        long iters;
        char *json; /* the reply's members after "re" (malloc'ed), NULL: free */
    } analyses[SV_ANALYSIS_CACHE];
    int analyses_next;
};

/* ---- server.c: clocks of the process, the log, start and stop ---- */
int64_t sv_now_ms(void);
double sv_mono(void);
void sv_log(const sv_server *sv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Runs fn(arg) on a thread of its own with a stack of `stack` bytes and
 * waits for it: 1, or 0 when no such thread could be started (fn did not
 * run).  Replaying a record (a rebuild, a replay step) and the message
 * handlers need more stack than a civetweb worker has (about 100 KiB). */
int sv_run_on_stack(size_t stack, void *(*fn)(void *), void *arg);
/* The stack of a thread that replays a record: thousands of actions, some
 * of which may run a long search (sv_build, a replay step). */
enum { SV_REPLAY_STACK = 8 << 20 };

/* ---- transport.c: sending, connections, civetweb callbacks, the HTTP API, webhooks ---- */
/* A connection of sv with no socket yet, following no game (the caller
 * owns c's storage; sv_ws_close or sv_local_conn_free undo it). */
void sv_conn_init(sv_conn *c, sv_server *sv);
void sv_send(sv_conn *c, const char *text, size_t len);
void sv_send_error(sv_conn *c, const sv_msg *m, const char *code, const char *msg);
/* A reply built in a cr_text: sv_frame_begin writes its head,
 * {"v":1,"type":TYPE and "re" when m has an id (m may be NULL); the caller
 * appends its members, each after a comma; sv_frame_send closes the object
 * and sends it, or, when b ran out of memory, sends m the error "limit".
 * b stays the caller's to free or reuse. */
void sv_frame_begin(cr_text *b, const char *type, const sv_msg *m);
void sv_frame_send(sv_conn *c, const sv_msg *m, cr_text *b);
int sv_conn_bytes(sv_conn *c, sv_ws_dec *d, const uint8_t *buf, size_t n, const char **why);
int sv_ws_connect(const struct mg_connection *mc, void *cb);
void sv_ws_ready(struct mg_connection *mc, void *cb);
int sv_ws_data(struct mg_connection *mc, int bits, char *data, size_t len, void *cb);
void sv_ws_close(const struct mg_connection *mc, void *cb);
int sv_http_api(struct mg_connection *mc, void *cb);
int sv_log_message(const struct mg_connection *mc, const char *msg);
void sv_enqueue_hook(sv_game *g, int seat, int64_t decision);
void *sv_hook_main(void *arg);

/* ---- handlers.c: the messages of docs/protocol.md ---- */
void sv_detach(sv_conn *c);
json_t *sv_welcome(const sv_server *sv);
json_t *sv_games_json(sv_server *sv, int status);
json_t *sv_stats_json(sv_server *sv);
void sv_replay_drop(sv_conn *c);
void sv_dispatch(sv_conn *c, const char *data, size_t len);

/* ---- games.c: the live games table, building, storing, views, clocks ---- */
const cr_game_def *sv_def(const char *name);
/* 1 when a game's config_json says its players agreed to hints at its
 * creation (create's "hints": "allowed"). */
int sv_config_hints(const char *config_json);
cr_match *sv_build(const cr_store_game *meta, const cr_store_entry *e, int n, char *err,
                   size_t errcap);
sv_game *sv_game_alloc(sv_server *sv, const cr_store_game *meta);
int sv_game_attach_match(sv_game *g, cr_match *m);
void sv_game_free(sv_game *g);
void sv_game_hold(sv_game *g);
void sv_game_put(sv_game *g);
sv_game *sv_find_loaded(sv_server *sv, const char *id);
void sv_table_drop(sv_game *g);
int sv_table_add(sv_game *g);
int sv_collect(sv_game *g);
void sv_run_chance(sv_game *g);
int sv_flush(sv_game *g, char *err, size_t errcap);
sv_game *sv_take_over(sv_server *sv, const char *id, int *elsewhere);
sv_game *sv_find_game_where(sv_server *sv, const char *id, int *elsewhere, int *busy);
sv_game *sv_find_game(sv_server *sv, const char *id, int *busy);
void sv_send_busy(sv_conn *c, const sv_msg *m);
void sv_sync(sv_game *g);
void sv_update_conn(sv_game *g, sv_conn *c, int force, int64_t re);
void sv_after_change(sv_game *g);
void *sv_clock_main(void *arg);

/* ---- coach.c: analyse and hint ---- */
void sv_h_analyse(sv_conn *c, const sv_msg *m);
void sv_h_hint(sv_conn *c, const sv_msg *m);
void sv_coach_free(sv_server *sv);
/* handlers.c: a seat spec (or tier name) within the server's bot limits */
int sv_bot_allowed(sv_server *sv, const cr_game_def *def, const char *spec, char *err,
                   size_t errcap);

/* ---- bots.c: the bot workers ---- */
void sv_enqueue_bot(sv_game *g);
void *sv_worker(void *arg);

#endif
