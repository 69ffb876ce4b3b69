/* server/server.c — `croupier serve` (server.h, docs/server.md).
 *
 * Threads: civetweb's workers (one per WebSocket connection) run the
 * message handlers; a small pool plays bot seats; one thread runs the
 * clocks; one posts webhooks.  Every game (sv_game) has its own mutex:
 * everything that reads or changes a game, or writes to a connection that
 * follows it, holds that mutex, so submissions to one game are serialized
 * while other games go on.  Lock order: the game table, then a game.
 *
 * A game's life: the match (cr_match) is changed in memory, the new record
 * entries are appended to the store (which returns once they are durable),
 * and only then is the submitter acknowledged and every follower updated.
 * If the store refuses, the match is rebuilt from the store: memory never
 * runs ahead of what is stored.
 *
 * What a connection receives is built from its seat's view only
 * (cr_match_observe for the seat or CR_SEAT_PUBLIC, the seat's prompt,
 * legal actions, help and events); an update goes out only when the BLAKE2b
 * hash of that view differs from the last one the connection got.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <dirent.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "civetweb.h"
#include "croupier/bot.h"
#include "croupier/match.h"
#include "croupier/parts.h"
#include "server/accept_cap.h"
#include "server/proto.h"
#include "server/replay.h"
#include "server/server.h"
#include "server/store.h"
#include "server/ws.h"

enum { SV_MAX_EVENTS_PER_UPDATE = 200, SV_MAX_HISTORY = 500, SV_LIST_MAX = 200 };
/* A connection's thread (sv_conn_main) runs the message handlers on a
 * stack of SV_CONN_STACK bytes (server.h): parsing (bounded: proto.c
 * refuses nesting past SV_MAX_DEPTH before jansson recurses), the match
 * layer and the game's rules (an 18Dracula rampage runs the auto-router)
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
 * history, record, replay), each by replaying its whole record: an
 * 18Dracula game is thousands of actions with a route search in each
 * rampage.  Such loads are paid for server-wide from one allowance of
 * SV_LOAD_ACTIONS record actions a second (a burst of twice that), so no
 * number of connections asking for old games can keep the server busy;
 * past it a request gets `limit` and asks again. */
enum { SV_LOAD_ACTIONS = 10000 };

/* ---- a growing text buffer (replies are built by hand: the game's JSON
 * pieces are spliced in as they come) ---- */
typedef struct sv_buf {
    char *p;
    size_t len, cap;
    int oom;
} sv_buf;

static void sb_reserve(sv_buf *b, size_t extra)
{
    if (b->oom || b->len + extra + 1 <= b->cap) return;
    size_t cap = b->cap ? b->cap : 1024;
    while (cap < b->len + extra + 1) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) {
        b->oom = 1;
        return;
    }
    b->p = p;
    b->cap = cap;
}

static void sb_add(sv_buf *b, const char *s, size_t n)
{
    sb_reserve(b, n);
    if (b->oom) return;
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void sb_puts(sv_buf *b, const char *s) { sb_add(b, s, strlen(s)); }

static void sb_printf(sv_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sv_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    sb_reserve(b, (size_t)n);
    if (b->oom) return;
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* A JSON string literal of s (escaping quotes, backslashes and controls). */
/* A JSON string of s.  A byte that does not start a whole UTF-8 sequence
 * is written as U+FFFD: the texts quoted here may hold client bytes (a
 * parser's "near '...'" can cut a character), and every frame the server
 * sends must be UTF-8. */
static void sb_json_str(sv_buf *b, const char *s)
{
    sb_add(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            char e[2] = {'\\', (char)*p};
            sb_add(b, e, 2);
        } else if (*p < 0x20 || *p == 0x7f) {
            sb_printf(b, "\\u%04x", *p);
        } else if (*p < 0x80) {
            sb_add(b, (const char *)p, 1);
        } else {
            size_t k = *p >= 0xf0 ? 4 : *p >= 0xe0 ? 3 : 2;
            if (strnlen((const char *)p, k) == k && sv_ws_utf8((const char *)p, k)) {
                sb_add(b, (const char *)p, k);
                p += k - 1;
            } else {
                sb_puts(b, "\\ufffd");
            }
        }
    }
    sb_add(b, "\"", 1);
}

static void sb_reset(sv_buf *b)
{
    b->len = 0;
    if (b->p) b->p[0] = '\0';
}

static void sb_free(sv_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

static int64_t sv_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static double sv_mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- games and connections ---- */

typedef struct sv_conn sv_conn;

typedef struct sv_server sv_server;

typedef struct sv_game {
    sv_server *srv; /* the server holding it (set once, never changes) */
    pthread_mutex_t mu;
    cr_store_game meta; /* as created (seats: "human", "invite" or a bot spec) */
    cr_match *m;        /* NULL when outdated (kept in the store, never played) */
    int outdated;
    int finished;               /* the store has the result */
    int n_stored;               /* entries in the store */
    int rec_actions, rec_marks; /* the match record's actions/marks the entries cover */
    int32_t acted[CR_MAX_PLAYERS];
    int bot_seats; /* bot seats counted against max_bots */
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
    void *obs;
    cr_action *legal;
    char *tmp;
    size_t tmp_cap;
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
    sv_buf out;
    /* `replay`: the finished game this connection replays (a reference),
     * its checkpoints, and the replay rate's bucket */
    struct sv_game *rp_game;
    sv_replay *rp;
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
};

static void sv_log(const sv_server *sv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sv_log(const sv_server *sv, const char *fmt, ...)
{
    if (sv && sv->cfg.quiet) return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "croupier serve: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* ---- sending ---- */

/* Queues one frame for c's thread to write (any thread may call it, with
 * or without a game's mutex: it never waits for the client).  A client
 * whose queue passes --max-outbox is too slow to follow its game: the
 * frame is dropped and its thread closes the connection (1008). */
static void sv_queue(sv_conn *c, int op, const void *data, size_t len)
{
    sv_server *sv = c->srv;
    if (c->sink) { /* a connection with no socket (the fuzz target) */
        c->sink(c->sink_arg, op, data, len);
        return;
    }
    if (c->wake < 0) return;
    uint8_t h[10];
    size_t hl = sv_ws_header(h, op, len);
    pthread_mutex_lock(&c->q_mu);
    if (c->closing || c->q_over) {
        pthread_mutex_unlock(&c->q_mu);
        return;
    }
    size_t need = c->q_len - c->q_off + hl + len;
    if (need > sv->cfg.max_outbox) {
        c->q_over = 1;
    } else {
        if (c->q_off > 0) { /* compact: the written part goes */
            memmove(c->q, c->q + c->q_off, c->q_len - c->q_off);
            c->q_len -= c->q_off;
            c->q_off = 0;
        }
        if (c->q_len + hl + len > c->q_cap) {
            size_t cap = c->q_cap ? c->q_cap : 4096;
            while (cap < c->q_len + hl + len) cap *= 2;
            uint8_t *p = realloc(c->q, cap);
            if (!p) {
                c->q_over = 1;
                goto out;
            }
            c->q = p;
            c->q_cap = cap;
        }
        memcpy(c->q + c->q_len, h, hl);
        memcpy(c->q + c->q_len + hl, data, len);
        c->q_len += hl + len;
    }
out:
    pthread_mutex_unlock(&c->q_mu);
    uint64_t one = 1;
    if (c->wake >= 0 && write(c->wake, &one, sizeof one) < 0) {
        /* the counter is already non-zero: the thread wakes anyway */
    }
}

static void sv_send(sv_conn *c, const char *text, size_t len)
{
    sv_queue(c, SV_WS_TEXT, text, len);
}

static void sv_send_error(sv_conn *c, const sv_msg *m, const char *code, const char *msg)
{
    sv_buf b = {0};
    sb_puts(&b, "{\"v\":1,\"type\":\"error\"");
    if (m && m->has_id) sb_printf(&b, ",\"re\":%lld", (long long)m->id);
    sb_puts(&b, ",\"code\":");
    sb_json_str(&b, code);
    sb_puts(&b, ",\"message\":");
    sb_json_str(&b, msg);
    sb_puts(&b, "}");
    if (!b.oom) sv_send(c, b.p, b.len);
    sb_free(&b);
}

/* ---- tokens ---- */

static void sv_token_hash(const char *token, uint8_t out[CR_STORE_HASH_LEN])
{
    crypto_generichash(out, CR_STORE_HASH_LEN, (const unsigned char *)token, strlen(token), NULL,
                       0);
}

static void sv_new_token(char out[SV_TOKEN_LEN + 1])
{
    unsigned char raw[32];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2base64(out, SV_TOKEN_LEN + 1, raw, sizeof raw,
                      sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    sodium_memzero(raw, sizeof raw);
}

/* ---- bots allowed on this server ---- */

/* Checks a seat spec against the server's limits: random, heuristic, or
 * ismcts with iters <= bot_max_iters, ms <= bot_deadline_ms, threads=1 and
 * nodes within the memory cap. */
static int sv_bot_allowed(sv_server *sv, const char *spec, char *err, size_t errcap)
{
    if (!cr_bot_spec_valid(spec, err, errcap)) return 0;
    const char *colon = strchr(spec, ':');
    size_t nlen = colon ? (size_t)(colon - spec) : strlen(spec);
    if (nlen == 6 && strncmp(spec, "random", 6) == 0) return 1;
    if (nlen == 9 && strncmp(spec, "heuristic", 9) == 0) return !colon;
    if (!(nlen == 6 && strncmp(spec, "ismcts", 6) == 0)) {
        snprintf(err, errcap, "this server hosts random, heuristic and ismcts bots");
        return 0;
    }
    long long iters = 1000, ms = 0, nodes = 0;
    for (const char *p = colon ? colon + 1 : ""; *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char kv[64];
        if (n >= sizeof kv) {
            snprintf(err, errcap, "bot parameter too long");
            return 0;
        }
        memcpy(kv, p, n);
        kv[n] = '\0';
        char *eq = strchr(kv, '=');
        long long v = eq ? strtoll(eq + 1, NULL, 10) : 0;
        if (eq) *eq = '\0';
        if (strcmp(kv, "iters") == 0) iters = v;
        if (strcmp(kv, "ms") == 0) ms = v;
        if (strcmp(kv, "nodes") == 0) nodes = v;
        if (strcmp(kv, "threads") == 0 && v != 1) {
            snprintf(err, errcap, "server bots search on one thread (threads=1)");
            return 0;
        }
        p += n;
        if (*p == ',') p++;
    }
    if (ms > 0) {
        if (ms > sv->cfg.bot_deadline_ms) {
            snprintf(err, errcap, "ismcts ms=%lld is over this server's %d ms per move", ms,
                     sv->cfg.bot_deadline_ms);
            return 0;
        }
        if (nodes <= 0) nodes = 262144;
    } else if (iters > sv->cfg.bot_max_iters) {
        snprintf(err, errcap, "ismcts iters=%lld is over this server's limit of %d", iters,
                 sv->cfg.bot_max_iters);
        return 0;
    }
    /* A tree node costs well under 256 bytes (docs/server.md). */
    if (nodes > (long long)sv->cfg.bot_memory_mb * 1024 * 1024 / 256) {
        snprintf(err, errcap, "ismcts nodes=%lld is over this server's %d MB per bot", nodes,
                 sv->cfg.bot_memory_mb);
        return 0;
    }
    return 1;
}

/* ---- building a match from the store ---- */

static const cr_game_def *sv_def(const char *name) { return cr_registry_find(name); }

/* The table parameters of meta; key/value strings live in keys/vals. */
static int sv_params(const cr_store_game *meta, cr_params *p, char keys[][SV_OPT_MAX],
                     char vals[][SV_OPT_MAX], char *err, size_t errcap)
{
    memset(p, 0, sizeof *p);
    p->num_players = meta->players;
    p->variant = meta->variant[0] ? meta->variant : NULL;
    json_error_t je;
    json_t *o = json_loads(meta->options_json[0] ? meta->options_json : "{}", 0, &je);
    if (!json_is_object(o)) {
        json_decref(o);
        snprintf(err, errcap, "bad options in the store");
        return 0;
    }
    const char *k;
    json_t *v;
    int n = 0;
    json_object_foreach(o, k, v)
    {
        if (n >= CR_MAX_OPTIONS || !json_is_string(v)) continue;
        snprintf(keys[n], SV_OPT_MAX, "%s", k);
        snprintf(vals[n], SV_OPT_MAX, "%s", json_string_value(v));
        if (cr_params_set(p, keys[n], vals[n]) != CR_OK) continue;
        n++;
    }
    json_decref(o);
    return 1;
}

static const char *sv_match_spec(const char *seat)
{
    return strcmp(seat, "invite") == 0 ? "human" : seat;
}

/* Builds the match of meta + entries (a record replayed through
 * cr_match_load, which checks every action); acted[] counts each seat's
 * actions. */
static cr_match *sv_build_here(const cr_store_game *meta, const cr_store_entry *e, int n,
                               int32_t *acted, int *rec_actions, int *rec_marks, char *err,
                               size_t errcap)
{
    const cr_game_def *def = sv_def(meta->game);
    if (!def) {
        snprintf(err, errcap, "unknown game '%s'", meta->game);
        return NULL;
    }
    char keys[CR_MAX_OPTIONS][SV_OPT_MAX], vals[CR_MAX_OPTIONS][SV_OPT_MAX];
    cr_params p;
    if (!sv_params(meta, &p, keys, vals, err, errcap)) return NULL;
    cr_game *g = cr_game_new(def, &p, err, errcap);
    if (!g) return NULL;
    if (g->num_players != meta->players) {
        snprintf(err, errcap, "%s %s seats %d players, not %d", def->name, g->variant->name,
                 g->num_players, meta->players);
        cr_game_free(g);
        return NULL;
    }
    cr_record r;
    cr_record_init(&r);
    cr_record_set_game(&r, g);
    r.rules_version = meta->rules_version;
    r.seed = meta->seed;
    r.has_seed = 1;
    r.n_seats = meta->players;
    for (int s = 0; s < meta->players; s++)
        snprintf(r.seats[s], sizeof r.seats[s], "%s", sv_match_spec(meta->seats[s]));
    cr_game_free(g);
    memset(acted, 0, sizeof(int32_t) * CR_MAX_PLAYERS);
    cr_status rc = CR_OK;
    for (int i = 0; i < n && rc == CR_OK; i++) {
        switch (e[i].kind) {
        case CR_STORE_ACTION:
            rc = cr_record_push(&r, e[i].value);
            if (e[i].seat >= 0 && e[i].seat < CR_MAX_PLAYERS) acted[e[i].seat]++;
            break;
        case CR_STORE_RESIGN: rc = cr_record_mark(&r, CR_MARK_RESIGN, e[i].seat, NULL); break;
        case CR_STORE_TIMEOUT: rc = cr_record_mark(&r, CR_MARK_TIMEOUT, e[i].seat, NULL); break;
        case CR_STORE_SEAT: rc = cr_record_mark(&r, CR_MARK_SEAT, e[i].seat, e[i].spec); break;
        case CR_STORE_END: rc = cr_record_mark(&r, CR_MARK_END, -1, NULL); break;
        default: rc = CR_ERR_INVALID;
        }
    }
    cr_match *m = NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *f = rc == CR_OK ? open_memstream(&text, &len) : NULL;
    if (!f) {
        snprintf(err, errcap, "cannot rebuild the record");
    } else {
        rc = cr_record_write(&r, f, err, errcap);
        if (fclose(f) != 0 && rc == CR_OK) rc = CR_ERR_IO;
        if (rc == CR_OK) m = cr_match_load(text, len, NULL, meta->seed, err, errcap);
    }
    free(text);
    if (m) {
        *rec_actions = r.n_actions;
        *rec_marks = r.n_marks;
    }
    cr_record_fini(&r);
    return m;
}

/* sv_build runs sv_build_here on a thread of its own with a full-size
 * stack: replaying a record (cr_match_load, the game's parser) needs more
 * stack than a civetweb worker has (about 100 KiB), and a game is rebuilt
 * on whichever thread first asks for it (a client's sit after a failover,
 * a record request, a reload after a refused append). */
enum { SV_BUILD_STACK = 8 << 20 };

typedef struct sv_build_job {
    const cr_store_game *meta;
    const cr_store_entry *e;
    int n;
    int32_t *acted;
    int *rec_actions, *rec_marks;
    char *err;
    size_t errcap;
    cr_match *m;
} sv_build_job;

static void *sv_build_main(void *arg)
{
    sv_build_job *j = arg;
    j->m = sv_build_here(j->meta, j->e, j->n, j->acted, j->rec_actions, j->rec_marks, j->err,
                         j->errcap);
    return NULL;
}

static cr_match *sv_build(const cr_store_game *meta, const cr_store_entry *e, int n, int32_t *acted,
                          int *rec_actions, int *rec_marks, char *err, size_t errcap)
{
    sv_build_job j = {meta, e, n, acted, rec_actions, rec_marks, err, errcap, NULL};
    pthread_attr_t attr;
    pthread_t t;
    int ok = pthread_attr_init(&attr) == 0;
    if (ok) {
        ok = pthread_attr_setstacksize(&attr, SV_BUILD_STACK) == 0 &&
             pthread_create(&t, &attr, sv_build_main, &j) == 0;
        pthread_attr_destroy(&attr);
    }
    if (!ok) {
        snprintf(err, errcap, "cannot start a thread to rebuild the game");
        return NULL;
    }
    pthread_join(t, NULL);
    return j.m;
}

/* The clock as stored (a restart resumes it: the seat to act's move kept
 * running while the server was down). */
static void sv_clock_restore(sv_game *g, const cr_store_game *meta)
{
    g->clock_saved_seat = -2;
    if (!meta->has_clock) return;
    for (int s = 0; s < CR_MAX_PLAYERS; s++) g->remaining[s] = meta->clock.remaining_ms[s];
    g->clock_seat = meta->clock.seat;
    g->clock_started = meta->clock.started_ms;
    g->clock_saved_seat = g->clock_seat;
    g->clock_saved_started = g->clock_started;
}

static sv_game *sv_game_alloc(sv_server *sv, const cr_store_game *meta)
{
    sv_game *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->srv = sv;
    pthread_mutex_init(&g->mu, NULL);
    g->refs = 1; /* the caller's */
    g->meta = *meta;
    g->clock_seat = -1;
    for (int s = 0; s < CR_MAX_PLAYERS; s++) g->hooked[s] = -1;
    /* config: clock and webhook */
    json_error_t je;
    json_t *o = json_loads(meta->config_json[0] ? meta->config_json : "{}", 0, &je);
    if (json_is_object(o)) {
        json_t *c = json_object_get(o, "clock");
        if (json_is_object(c)) {
            const char *mode = json_string_value(json_object_get(c, "mode"));
            g->clock_mode = mode && strcmp(mode, "total") == 0  ? SV_CLOCK_TOTAL
                            : mode && strcmp(mode, "move") == 0 ? SV_CLOCK_MOVE
                                                                : SV_CLOCK_NONE;
            g->clock_initial = json_integer_value(json_object_get(c, "initial_ms"));
            g->clock_inc = json_integer_value(json_object_get(c, "increment_ms"));
            const char *ot = json_string_value(json_object_get(c, "on_timeout"));
            snprintf(g->on_timeout, sizeof g->on_timeout, "%s", ot ? ot : "end");
            for (int s = 0; s < CR_MAX_PLAYERS; s++) g->remaining[s] = g->clock_initial;
            sv_clock_restore(g, meta);
        }
        const char *hook = json_string_value(json_object_get(o, "webhook"));
        if (hook) snprintf(g->webhook, sizeof g->webhook, "%s", hook);
    }
    json_decref(o);
    return g;
}

/* Sets g->m (and the scratch) from the store's entries; 0 on failure. */
static int sv_game_attach_match(sv_game *g, cr_match *m)
{
    const cr_game *gm = cr_match_game(m);
    void *obs = realloc(g->obs, gm->obs_size);
    cr_action *legal = realloc(g->legal, sizeof(cr_action) * (size_t)gm->max_legal);
    if (!obs || !legal) {
        free(obs);
        free(legal);
        g->obs = NULL;
        g->legal = NULL;
        return 0;
    }
    g->obs = obs;
    g->legal = legal;
    if (!g->think_obs) g->think_obs = malloc(gm->obs_size);
    if (!g->think_legal) g->think_legal = malloc(sizeof(cr_action) * (size_t)gm->max_legal);
    if (!g->think_obs || !g->think_legal) return 0;
    if (!g->bot_game) {
        char keys[CR_MAX_OPTIONS][SV_OPT_MAX], vals[CR_MAX_OPTIONS][SV_OPT_MAX], err[256];
        cr_params p;
        if (!sv_params(&g->meta, &p, keys, vals, err, sizeof err)) return 0;
        g->bot_game = cr_game_new(gm->def, &p, err, sizeof err);
        if (!g->bot_game) return 0;
    }
    if (g->m) cr_match_free(g->m);
    g->m = m;
    g->version++;
    return 1;
}

/* Rebuilds g's match from the store (after a failed append). */
static int sv_game_reload(sv_game *g, char *err, size_t errcap)
{
    sv_server *sv = g->srv;
    cr_store_game meta;
    cr_store_entry *e = NULL;
    if (sv->store->ops->load(sv->store, g->meta.id, &meta, &e, err, errcap) != CR_OK) return 0;
    cr_match *m =
        sv_build(&meta, e, meta.n_entries, g->acted, &g->rec_actions, &g->rec_marks, err, errcap);
    if (m && sv_game_attach_match(g, m)) {
        if (g->clock_mode != SV_CLOCK_NONE) {
            for (int s = 0; s < CR_MAX_PLAYERS; s++) g->remaining[s] = g->clock_initial;
            g->clock_seat = -1;
            sv_clock_restore(g, &meta);
        }
        g->n_stored = meta.n_entries;
        g->meta.taken = meta.taken;
        g->n_pend = 0;
        free(e);
        return 1;
    }
    if (m) cr_match_free(m);
    free(e);
    return 0;
}

static void sv_game_free(sv_game *g)
{
    if (!g) return;
    if (g->m) cr_match_free(g->m);
    for (int s = 0; s < CR_MAX_PLAYERS; s++) cr_bot_free(g->bots[s]);
    cr_bot_free(g->rnd);
    cr_game_free(g->bot_game);
    free(g->think_obs);
    free(g->think_legal);
    free(g->obs);
    free(g->legal);
    free(g->tmp);
    free(g->pend);
    free(g->conns);
    pthread_mutex_destroy(&g->mu);
    free(g);
}

/* ---- the table of games ----
 * The table holds the running games (and running games that cannot be
 * played, outdated).  A game leaves it once it is finished and its last
 * update went out; a finished game asked for later is loaded from the
 * store for that request or that follower only (sv_find_game_where). */

static void sv_game_hold(sv_game *g)
{
    sv_server *sv = g->srv;
    pthread_mutex_lock(&sv->table_mu);
    g->refs++;
    pthread_mutex_unlock(&sv->table_mu);
}

/* Gives back a reference; never called under g->mu by the last holder. */
static void sv_game_put(sv_game *g)
{
    if (!g) return;
    sv_server *sv = g->srv;
    pthread_mutex_lock(&sv->table_mu);
    int last = --g->refs == 0;
    pthread_mutex_unlock(&sv->table_mu);
    if (last) sv_game_free(g);
}

/* A game of the table, with a reference for the caller (sv_game_put). */
static sv_game *sv_find_loaded(sv_server *sv, const char *id)
{
    sv_game *g = NULL;
    pthread_mutex_lock(&sv->table_mu);
    for (int i = 0; i < sv->n_games && !g; i++)
        if (strcmp(sv->games[i]->meta.id, id) == 0) g = sv->games[i];
    if (g) g->refs++;
    pthread_mutex_unlock(&sv->table_mu);
    return g;
}

/* Takes g out of the table (a finished game); the caller still holds a
 * reference, so g is freed by the last sv_game_put. */
static void sv_table_drop(sv_game *g)
{
    sv_server *sv = g->srv;
    pthread_mutex_lock(&sv->table_mu);
    for (int i = 0; g->in_table && i < sv->n_games; i++)
        if (sv->games[i] == g) {
            sv->games[i] = sv->games[--sv->n_games];
            g->in_table = 0;
            g->refs--;
        }
    pthread_mutex_unlock(&sv->table_mu);
}

static int sv_table_add(sv_game *g)
{
    sv_server *sv = g->srv;
    pthread_mutex_lock(&sv->table_mu);
    if (sv->n_games == sv->cap_games) {
        int cap = sv->cap_games ? sv->cap_games * 2 : 64;
        sv_game **p = realloc(sv->games, sizeof *p * (size_t)cap);
        if (!p) {
            pthread_mutex_unlock(&sv->table_mu);
            return 0;
        }
        sv->games = p;
        sv->cap_games = cap;
    }
    sv->games[sv->n_games++] = g;
    g->in_table = 1;
    g->refs++;
    pthread_mutex_unlock(&sv->table_mu);
    return 1;
}

/* Loads a game from the store into the table (built from its record, or
 * marked outdated); *added: this call put it there (another thread may have
 * loaded it meanwhile).  NULL if there is none. */
static sv_game *sv_load_game(sv_server *sv, const char *id, int *added)
{
    *added = 0;
    sv_game *g = sv_find_loaded(sv, id);
    if (g) return g;
    char err[256];
    cr_store_game meta;
    cr_store_entry *e = NULL;
    if (sv->store->ops->load(sv->store, id, &meta, &e, err, sizeof err) != CR_OK) return NULL;
    g = sv_game_alloc(sv, &meta);
    if (!g) {
        free(e);
        return NULL;
    }
    if (meta.status == CR_STORE_RUNNING &&
        sv->store->ops->claim(sv->store, meta.id, err, sizeof err) != CR_OK) {
        free(e); /* another server process plays it (store.h, claim) */
        sv_game_free(g);
        return NULL;
    }
    const cr_game_def *def = sv_def(meta.game);
    if (!def || meta.rules_version != def->rules_version || meta.status == CR_STORE_OUTDATED) {
        g->outdated = 1;
    } else {
        cr_match *m = sv_build(&meta, e, meta.n_entries, g->acted, &g->rec_actions, &g->rec_marks,
                               err, sizeof err);
        if (!m || !sv_game_attach_match(g, m)) {
            if (m) cr_match_free(m);
            sv_log(sv, "game %s cannot be rebuilt: %s", meta.id, err);
            g->outdated = 1;
        }
    }
    g->n_stored = meta.n_entries;
    g->finished = meta.status == CR_STORE_FINISHED;
    free(e);
    if (meta.status != CR_STORE_RUNNING) return g; /* for this caller only */
    /* another thread may have loaded it meanwhile */
    sv_game *again = sv_find_loaded(sv, id);
    if (again) {
        sv_game_free(g);
        return again;
    }
    if (!sv_table_add(g)) {
        sv_game_free(g);
        return NULL;
    }
    *added = 1;
    return g; /* the caller's reference and the table's */
}

/* ---- record entries: the match's new actions and marks, in order ---- */

static int sv_pend(sv_game *g, cr_store_kind kind, int32_t value, int32_t seat, const char *spec)
{
    if (g->n_pend == g->cap_pend) {
        int cap = g->cap_pend ? g->cap_pend * 2 : 16;
        cr_store_entry *p = realloc(g->pend, sizeof *p * (size_t)cap);
        if (!p) return 0;
        g->pend = p;
        g->cap_pend = cap;
    }
    cr_store_entry *e = &g->pend[g->n_pend++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->value = value;
    e->seat = seat;
    if (spec) snprintf(e->spec, sizeof e->spec, "%s", spec);
    return 1;
}

/* Turns what the last match call added to its record into pending entries;
 * `actor` chose the new action (CR_CHANCE for chance). */
static int sv_collect(sv_game *g, int actor)
{
    const cr_record *r = cr_match_record(g->m);
    int ok = 1;
    if (g->rec_marks < r->n_marks || g->rec_actions < r->n_actions)
        g->version++; /* the match moved: a bot's move thought out before is stale */
    for (int guard = 0; guard < 1 << 20; guard++) {
        if (g->rec_marks < r->n_marks && r->marks[g->rec_marks].at <= g->rec_actions) {
            const cr_mark *mk = &r->marks[g->rec_marks++];
            cr_store_kind k = mk->kind == CR_MARK_RESIGN    ? CR_STORE_RESIGN
                              : mk->kind == CR_MARK_TIMEOUT ? CR_STORE_TIMEOUT
                              : mk->kind == CR_MARK_SEAT    ? CR_STORE_SEAT
                                                            : CR_STORE_END;
            ok &= sv_pend(g, k, 0, mk->seat, mk->kind == CR_MARK_SEAT ? mk->spec : NULL);
        } else if (g->rec_actions < r->n_actions) {
            ok &= sv_pend(g, CR_STORE_ACTION, r->actions[g->rec_actions++], actor, NULL);
            if (actor >= 0 && actor < CR_MAX_PLAYERS) g->acted[actor]++;
        } else {
            break;
        }
    }
    return ok;
}

/* Plays chance nodes (they are instant) until a seat must act. */
static void sv_run_chance(sv_game *g)
{
    for (int guard = 0; guard < 100000; guard++) {
        if (cr_match_to_act(g->m) != CR_CHANCE) return;
        if (cr_match_step(g->m) != CR_OK) return;
        sv_collect(g, CR_CHANCE);
    }
}

static void sv_clock_turn(sv_game *g);

/* Appends the pending entries, with the clock when it changed (the turn
 * moved: it is stored in the same transaction); on failure rebuilds the
 * match (and the clock) from the store. */
static int sv_flush(sv_game *g, char *err, size_t errcap)
{
    sv_server *sv = g->srv;
    cr_store_clock ck, *clock = NULL;
    if (g->clock_mode != SV_CLOCK_NONE && g->m) {
        sv_clock_turn(g);
        if (g->clock_seat != g->clock_saved_seat || g->clock_started != g->clock_saved_started) {
            ck.seat = g->clock_seat;
            ck.started_ms = g->clock_started;
            for (int s = 0; s < CR_MAX_PLAYERS; s++) ck.remaining_ms[s] = g->remaining[s];
            clock = &ck;
        }
    }
    if (g->n_pend == 0 && !clock) return 1;
    if (sv->store->ops->append_clock(sv->store, g->meta.id, g->n_stored, g->pend, g->n_pend, clock,
                                     err, errcap) == CR_OK) {
        g->n_stored += g->n_pend;
        g->n_pend = 0;
        if (clock) {
            g->clock_saved_seat = ck.seat;
            g->clock_saved_started = ck.started_ms;
        }
        return 1;
    }
    sv_log(sv, "game %s: append failed: %s", g->meta.id, err);
    char why[256];
    if (!sv_game_reload(g, why, sizeof why)) {
        sv_log(sv, "game %s: reload failed: %s; the game stops", g->meta.id, why);
        g->outdated = 1; /* unplayable until the store answers again */
    }
    return 0;
}

/* ---- taking running games over (docs/server.md, "Past one machine") ----
 * With a store shared by several server processes (PostgreSQL), each
 * running game is played by the one process that holds its claim.  A
 * process takes over a running game it does not have in memory only after
 * claiming it: at start, every sweep (--claim-interval-ms), and when a
 * client asks for it.  The game is then rebuilt from its record, exactly as
 * after a restart. */

static void sv_after_change(sv_game *g);

/* Counts a freshly loaded running game, plays its chance and lets its bots
 * go on; marks an outdated one in the store.  1: resumed. */
static int sv_resume_game(sv_game *g)
{
    sv_server *sv = g->srv;
    char err[256];
    int resumed = 0;
    pthread_mutex_lock(&g->mu);
    if (g->outdated) {
        sv->store->ops->set_status(sv->store, g->meta.id, CR_STORE_OUTDATED, err, sizeof err);
    } else if (!g->finished) {
        int bots = 0;
        for (int s = 0; s < g->meta.players; s++) bots += !cr_match_is_human(g->m, s);
        g->bot_seats = bots;
        pthread_mutex_lock(&sv->table_mu);
        sv->n_running++;
        sv->n_bots += bots;
        pthread_mutex_unlock(&sv->table_mu);
        sv_run_chance(g);
        sv_flush(g, err, sizeof err);
        sv_after_change(g);
        resumed = 1;
    }
    pthread_mutex_unlock(&g->mu);
    return resumed;
}

/* Why sv_take_over / sv_find_game_where found no game. */
enum { SV_HERE = 0, SV_ELSEWHERE = 1, SV_FULL = 2 };

/* Claims the running game id (not in memory) and resumes it.  NULL when
 * another process holds it (*elsewhere = SV_ELSEWHERE), the server is full
 * (SV_FULL), or it cannot be loaded (the claim is given back then). */
static sv_game *sv_take_over(sv_server *sv, const char *id, int *elsewhere)
{
    char err[256];
    *elsewhere = SV_HERE;
    pthread_mutex_lock(&sv->table_mu);
    int full = sv->n_running >= sv->cfg.max_games;
    pthread_mutex_unlock(&sv->table_mu);
    if (full) {
        *elsewhere = SV_FULL;
        return NULL;
    }
    cr_status rc = sv->store->ops->claim(sv->store, id, err, sizeof err);
    if (rc != CR_OK) {
        *elsewhere = rc == CR_ERR_ILLEGAL ? SV_ELSEWHERE : SV_HERE;
        if (rc != CR_ERR_ILLEGAL) sv_log(sv, "game %.40s: cannot claim: %s", id, err);
        return NULL;
    }
    int added = 0;
    sv_game *g = sv_load_game(sv, id, &added);
    if (!g) sv->store->ops->release(sv->store, id); /* another process may manage */
    if (g && added) sv_resume_game(g);
    return g;
}

/* A game from memory; or a finished or outdated one loaded from the store;
 * or a running one this process claims and takes over.  NULL if there is
 * none, another server process plays it or this one is full (*elsewhere:
 * SV_ELSEWHERE, SV_FULL; may be NULL). */
/* Takes n record actions from the server-wide allowance of finished
 * loads; 0 when it is spent (the caller answers `limit`). */
static int sv_load_allowed(sv_server *sv, int n)
{
    double now = sv_mono();
    pthread_mutex_lock(&sv->table_mu);
    if (sv->loads_t == 0) sv->loads = 2.0 * SV_LOAD_ACTIONS;
    sv->loads += (now - sv->loads_t) * SV_LOAD_ACTIONS;
    if (sv->loads > 2.0 * SV_LOAD_ACTIONS) sv->loads = 2.0 * SV_LOAD_ACTIONS;
    sv->loads_t = now;
    int ok = sv->loads >= (double)n;
    if (ok) sv->loads -= (double)n;
    pthread_mutex_unlock(&sv->table_mu);
    return ok;
}

/* The game, loaded from the store if need be; NULL with *elsewhere set
 * when another process plays it, *busy set when loading a finished game
 * would pass the server's load allowance (either out parameter may be
 * NULL). */
static sv_game *sv_find_game_where(sv_server *sv, const char *id, int *elsewhere, int *busy)
{
    int other = 0, spent = 0;
    sv_game *g = sv_find_loaded(sv, id);
    if (!g) {
        char err[256];
        cr_store_game meta;
        cr_store_entry *e = NULL;
        if (sv->store->ops->load(sv->store, id, &meta, &e, err, sizeof err) == CR_OK) {
            free(e);
            int added = 0;
            if (meta.status == CR_STORE_RUNNING)
                g = sv_take_over(sv, meta.id, &other);
            else if (sv_load_allowed(sv, meta.n_entries > 0 ? meta.n_entries : 1))
                g = sv_load_game(sv, meta.id, &added);
            else
                spent = 1;
        }
    }
    if (elsewhere) *elsewhere = other;
    if (busy) *busy = spent;
    return g;
}

static sv_game *sv_find_game(sv_server *sv, const char *id, int *busy)
{
    return sv_find_game_where(sv, id, NULL, busy);
}

static void sv_send_busy(sv_conn *c, const sv_msg *m)
{
    sv_send_error(c, m, "limit",
                  "the server is loading many finished games just now; ask again shortly");
}

/* ---- views ---- */

static int sv_decision(const sv_game *g, int seat)
{
    if (seat < 0 || seat >= CR_MAX_PLAYERS) return 0;
    return g->acted[seat] + (g->m && cr_match_to_act(g->m) == seat ? 1 : 0);
}

/* Renders into g->tmp (grown as needed) with a snprintf-style function. */
#define SV_RENDER(g, call_with_buf_cap)                                                            \
    do {                                                                                           \
        for (int try_ = 0; try_ < 2; try_++) {                                                     \
            char *buf = (g)->tmp;                                                                  \
            size_t cap = (g)->tmp_cap;                                                             \
            size_t need = (call_with_buf_cap);                                                     \
            if (need < cap) break;                                                                 \
            char *p = realloc((g)->tmp, need + 1);                                                 \
            if (!p) {                                                                              \
                if ((g)->tmp) (g)->tmp[0] = '\0';                                                  \
                break;                                                                             \
            }                                                                                      \
            (g)->tmp = p;                                                                          \
            (g)->tmp_cap = need + 1;                                                               \
        }                                                                                          \
    } while (0)

static void sv_result_json(sv_game *g, sv_buf *b)
{
    const cr_game *gm = cr_match_game(g->m);
    cr_result res;
    cr_match_result(g->m, &res);
    sb_puts(b, "{\"scores\":[");
    for (int s = 0; s < gm->num_players; s++) sb_printf(b, "%s%d", s ? "," : "", res.score[s]);
    sb_puts(b, "],\"ranks\":[");
    for (int s = 0; s < gm->num_players; s++) sb_printf(b, "%s%d", s ? "," : "", res.rank[s]);
    sb_puts(b, "],\"winners\":[");
    int first = 1;
    for (int s = 0; s < gm->num_players; s++)
        if (res.winners & (1u << s)) {
            sb_printf(b, "%s%d", first ? "" : ",", s);
            first = 0;
        }
    const char *by = "rules";
    for (int s = 0; s < gm->num_players; s++) {
        int left = cr_match_left(g->m, s);
        if (left == CR_MARK_RESIGN && strcmp(by, "rules") == 0) by = "resign";
        if (left == CR_MARK_TIMEOUT && strcmp(by, "rules") == 0) by = "timeout";
    }
    sb_printf(b, "],\"ended_by\":\"%s\"", by);
    /* per seat, what it earned (a game over by the rules only): key + words */
    const cr_game_parts *parts = cr_parts(gm);
    const void *st = cr_match_state(g->m);
    sb_puts(b, ",\"achievements\":[");
    for (int s = 0; s < gm->num_players; s++) {
        const char *keys[64];
        int n = parts->achievements ? parts->achievements(gm, st, s, keys, 64) : 0;
        sb_puts(b, s ? ",[" : "[");
        for (int i = 0; i < n; i++) {
            const cr_achievement *a =
                cr_achievement_find(parts->achievement_list, parts->n_achievements, keys[i]);
            sb_puts(b, i ? ",{\"key\":" : "{\"key\":");
            sb_json_str(b, keys[i]);
            sb_puts(b, ",\"title\":");
            sb_json_str(b, a ? a->title : keys[i]);
            sb_puts(b, ",\"words\":");
            sb_json_str(b, a ? a->words : "");
            sb_puts(b, "}");
        }
        sb_puts(b, "]");
    }
    sb_puts(b, "]}");
}

/* The view of `seat` (a seat or CR_SEAT_PUBLIC) as an update message into b,
 * events from *since on; hash gets the BLAKE2b of the view-relevant part
 * (everything but the events list and the clock). */
static void sv_build_update(sv_game *g, int seat, uint32_t since, sv_buf *b, uint8_t hash[32])
{
    crypto_generichash_state hs;
    crypto_generichash_init(&hs, NULL, 0, 32);
    cr_match *m = g->m;
    const cr_game *gm = cr_match_game(m);
    int to_act = cr_match_to_act(m);
    int over = cr_match_over(m);
    int mine = seat >= 0 && to_act == seat && cr_match_is_human(m, seat);
    size_t mark = b->len;
    sb_printf(b, "{\"v\":1,\"type\":\"update\",\"game_id\":\"%s\",\"game\":", g->meta.id);
    sb_json_str(b, gm->def->name);
    if (seat >= 0)
        sb_printf(b, ",\"seat\":%d,\"decision\":%d", seat, sv_decision(g, seat));
    else
        sb_puts(b, ",\"seat\":null");
    if (to_act >= 0)
        sb_printf(b, ",\"to_act\":%d", to_act);
    else
        sb_puts(b, ",\"to_act\":null");
    sb_printf(b, ",\"your_turn\":%s,\"over\":%s", mine ? "true" : "false", over ? "true" : "false");
    cr_match_observe(m, seat, g->obs);
    SV_RENDER(g, gm->def->obs_to_json(gm, g->obs, buf, cap));
    sb_puts(b, ",\"observation\":");
    sb_puts(b, g->tmp && g->tmp[0] ? g->tmp : "null");
    SV_RENDER(g, mine ? cr_match_prompt(m, seat, buf, cap) : (buf && cap ? (buf[0] = 0) : 0));
    sb_puts(b, ",\"prompt\":");
    sb_json_str(b, mine && g->tmp ? g->tmp : "");
    SV_RENDER(g, mine ? cr_match_help(m, seat, buf, cap) : (buf && cap ? (buf[0] = 0) : 0));
    sb_puts(b, ",\"help\":");
    sb_json_str(b, mine && g->tmp ? g->tmp : "");
    sb_puts(b, ",\"actions\":[");
    int n = mine ? cr_match_legal(m, seat, g->legal) : 0;
    for (int i = 0; i < n; i++) {
        SV_RENDER(g, cr_match_action_json(m, seat, g->legal[i], buf, cap));
        if (i) sb_puts(b, ",");
        sb_puts(b, g->tmp && g->tmp[0] ? g->tmp : "null");
    }
    uint32_t count = cr_match_event_count(m);
    sb_printf(b, "],\"seq\":%u,\"seats\":[", count);
    for (int s = 0; s < gm->num_players; s++) {
        int human = cr_match_is_human(m, s);
        int left = cr_match_left(m, s);
        sb_printf(b, "%s{\"seat\":%d,\"kind\":\"%s\",\"spec\":", s ? "," : "", s,
                  human ? "human" : "bot");
        sb_json_str(b, cr_match_seat_spec(m, s));
        sb_printf(b, ",\"taken\":%s,\"left\":%s}",
                  human && !((g->meta.taken >> s) & 1) ? "false" : "true",
                  left == CR_MARK_RESIGN    ? "\"resign\""
                  : left == CR_MARK_TIMEOUT ? "\"timeout\""
                                            : "false");
    }
    sb_puts(b, "]");
    if (over) {
        sb_puts(b, ",\"result\":");
        sv_result_json(g, b);
    }
    if (!b->oom) crypto_generichash_update(&hs, (const unsigned char *)b->p + mark, b->len - mark);
    crypto_generichash_final(&hs, hash, 32);
    /* not part of the view's identity: the clock and the new events */
    if (g->clock_mode != SV_CLOCK_NONE) {
        int64_t now = sv_now_ms();
        sb_printf(b, ",\"clock\":{\"mode\":\"%s\",\"remaining_ms\":[",
                  g->clock_mode == SV_CLOCK_MOVE ? "move" : "total");
        for (int s = 0; s < gm->num_players; s++) {
            int64_t r = g->remaining[s];
            if (s == g->clock_seat) r -= now - g->clock_started;
            if (cr_match_is_human(m, s))
                sb_printf(b, "%s%lld", s ? "," : "", (long long)(r > 0 ? r : 0));
            else
                sb_printf(b, "%snull", s ? "," : "");
        }
        if (g->clock_seat >= 0)
            sb_printf(b, "],\"running\":%d}", g->clock_seat);
        else
            sb_puts(b, "],\"running\":null}");
    }
    sb_puts(b, ",\"events\":[");
    const cr_match_event *ev = NULL;
    if (count > SV_MAX_EVENTS_PER_UPDATE && since + SV_MAX_EVENTS_PER_UPDATE < count)
        since = count - SV_MAX_EVENTS_PER_UPDATE;
    int ne = since < count ? cr_match_events_since(m, since, &ev) : 0;
    for (int i = 0; i < ne; i++) {
        SV_RENDER(g, cr_match_event_json(m, &ev[i], seat, buf, cap));
        const char *j = g->tmp && g->tmp[0] == '{' ? g->tmp : NULL;
        sb_printf(b, "%s{\"seq\":%u", i ? "," : "", ev[i].seq);
        if (j && j[1] != '}') {
            sb_puts(b, ",");
            sb_puts(b, j + 1);
        } else {
            sb_puts(b, "}");
        }
    }
    sb_puts(b, "]}");
}

/* Stores the entries a bot worker played and has not stored yet (it is
 * thinking about the next move): nothing is shown to a client before it is
 * stored.  Under g->mu. */
static void sv_sync(sv_game *g)
{
    char err[256];
    if (g->n_pend > 0) sv_flush(g, err, sizeof err);
}

/* Sends c its update if its view changed (or `force`), and a your_turn
 * notice when it became c's turn; an update that answers a request (`join`,
 * `sit`, `spectate`) carries its id as `re` (re >= 0; -1: a pushed update).
 * Under g->mu. */
static void sv_update_conn(sv_game *g, sv_conn *c, int force, int64_t re)
{
    sv_sync(g);
    if (!g->m) return;
    uint8_t hash[32];
    sb_reset(&c->out);
    sv_build_update(g, c->seat, c->sent_seq, &c->out, hash);
    if (c->out.oom) {
        sb_free(&c->out);
        return;
    }
    if (!force && c->has_view && memcmp(hash, c->view, 32) == 0) return;
    if (re >= 0) { /* after the opening brace: the hash covers the view, not the reply */
        char r[32];
        int n = snprintf(r, sizeof r, "\"re\":%lld,", (long long)re);
        sb_reserve(&c->out, (size_t)n);
        if (c->out.oom) {
            sb_free(&c->out);
            return;
        }
        memmove(c->out.p + 1 + n, c->out.p + 1, c->out.len); /* with its NUL */
        memcpy(c->out.p + 1, r, (size_t)n);
        c->out.len += (size_t)n;
    }
    memcpy(c->view, hash, 32);
    c->has_view = 1;
    c->sent_seq = cr_match_event_count(g->m);
    sv_send(c, c->out.p, c->out.len);
    int seat = c->seat;
    if (seat >= 0 && cr_match_to_act(g->m) == seat && cr_match_is_human(g->m, seat)) {
        int64_t d = sv_decision(g, seat);
        if (d != c->turn_sent) {
            c->turn_sent = d;
            char msg[160];
            int len = snprintf(msg, sizeof msg,
                               "{\"v\":1,\"type\":\"your_turn\",\"game_id\":\"%s\",\"seat\":%d,"
                               "\"decision\":%lld}",
                               g->meta.id, seat, (long long)d);
            sv_send(c, msg, (size_t)len);
        }
    }
}

/* ---- after every change of a game (under g->mu) ---- */

static void sv_enqueue_bot(sv_game *g);
static void sv_enqueue_hook(sv_game *g, int seat, int64_t decision);

static void sv_clock_turn(sv_game *g)
{
    if (g->clock_mode == SV_CLOCK_NONE) return;
    int to_act = cr_match_to_act(g->m);
    int seat = to_act >= 0 && cr_match_is_human(g->m, to_act) && !cr_match_over(g->m) ? to_act : -1;
    int64_t now = sv_now_ms();
    if (seat == g->clock_seat) return; /* the same seat goes on deciding */
    if (g->clock_seat >= 0) {
        int s = g->clock_seat;
        if (g->clock_mode == SV_CLOCK_TOTAL)
            g->remaining[s] -= now - g->clock_started - g->clock_inc;
        else
            g->remaining[s] = g->clock_initial;
    }
    g->clock_seat = seat;
    g->clock_started = now;
    if (seat >= 0 && g->clock_mode == SV_CLOCK_MOVE) g->remaining[seat] = g->clock_initial;
}

static void sv_after_change(sv_game *g)
{
    sv_server *sv = g->srv;
    if (!g->m) return;
    if (cr_match_over(g->m) && !g->finished) {
        sv_buf b = {0};
        sv_result_json(g, &b);
        cr_result res;
        cr_match_result(g->m, &res);
        char err[256];
        if (!b.oom && sv->store->ops->finish(sv->store, g->meta.id, b.p, res.winners, err,
                                             sizeof err) == CR_OK) {
            g->finished = 1;
            pthread_mutex_lock(&sv->table_mu);
            sv->n_running--;
            sv->n_bots -= g->bot_seats;
            g->bot_seats = 0;
            pthread_mutex_unlock(&sv->table_mu);
        } else {
            sv_log(sv, "game %s: cannot store its result: %s", g->meta.id, err);
        }
        sb_free(&b);
    }
    sv_clock_turn(g);
    int to_act = cr_match_to_act(g->m);
    if (to_act >= 0 && !cr_match_is_human(g->m, to_act) && !g->outdated) sv_enqueue_bot(g);
    for (int i = 0; i < g->n_conns; i++) sv_update_conn(g, g->conns[i], 0, -1);
    if (to_act >= 0 && cr_match_is_human(g->m, to_act) && g->webhook[0]) {
        int followed = 0;
        for (int i = 0; i < g->n_conns; i++) followed |= g->conns[i]->seat == to_act;
        int64_t d = sv_decision(g, to_act);
        if (!followed && g->hooked[to_act] != d) {
            g->hooked[to_act] = d;
            sv_enqueue_hook(g, to_act, d);
        }
    }
    if (g->finished && !g->evicted) {
        /* the last updates went out: the game leaves memory (its followers
         * keep it until they leave; later requests load it from the store) */
        g->evicted = 1;
        sv_table_drop(g);
        sv->store->ops->release(sv->store, g->meta.id);
    }
}

/* ---- bot workers ---- */

static void sv_enqueue_bot(sv_game *g)
{
    sv_server *sv = g->srv;
    if (g->bot_queued) return;
    g->bot_queued = 1;
    sv_game_hold(g); /* the job's reference */
    pthread_mutex_lock(&sv->job_mu);
    g->next_job = NULL;
    if (sv->job_tail)
        sv->job_tail->next_job = g;
    else
        sv->job_head = g;
    sv->job_tail = g;
    pthread_cond_signal(&sv->job_cv);
    pthread_mutex_unlock(&sv->job_mu);
}

/* The server's bot for seat s of g, made (or remade after a hand-over)
 * from the seat's spec; NULL when it cannot be made or its memory is over
 * --bot-memory-mb (the random policy plays the seat's moves then).  Under
 * g->mu, with no worker thinking for g. */
static cr_bot *sv_seat_bot(sv_game *g, int s)
{
    sv_server *sv = g->srv;
    const char *spec = cr_match_seat_spec(g->m, s);
    if (strcmp(g->bot_made[s], spec) == 0) return g->bots[s]; /* NULL: refused before */
    cr_bot_free(g->bots[s]);
    g->bots[s] = NULL;
    snprintf(g->bot_made[s], sizeof g->bot_made[s], "%s", spec);
    char err[256];
    cr_bot *b = cr_bot_new(g->bot_game, spec, s, g->meta.seed, err, sizeof err);
    if (!b) {
        sv_log(sv, "game %s: bot %s of P%d: %s; the random policy plays", g->meta.id, spec, s, err);
        return NULL;
    }
    size_t cap = (size_t)sv->cfg.bot_memory_mb * 1024 * 1024;
    if (cr_bot_memory(b) > cap) {
        sv_log(sv,
               "game %s: bot %s of P%d needs %zu KB, over --bot-memory-mb %d; the random "
               "policy plays",
               g->meta.id, spec, s, cr_bot_memory(b) / 1024, sv->cfg.bot_memory_mb);
        cr_bot_free(b);
        pthread_mutex_lock(&sv->job_mu);
        sv->bot_heavy++;
        pthread_mutex_unlock(&sv->job_mu);
        return NULL;
    }
    cr_bot_set_time_cap(b, sv->cfg.bot_deadline_ms);
    g->bots[s] = b;
    return b;
}

/* Bot moves of g.  For each: under g->mu the seat's observation and legal
 * actions are copied, with the game's version and the seat's decision
 * number; the worker thinks without the mutex (every other connection of
 * the game is served meanwhile) and submits under it only if the game has
 * not moved on (a timeout, a resignation, a hand-over, a reload): a stale
 * move is dropped.  A bot that overruns the per-move deadline
 * (--bot-deadline-ms) has its choice replaced by the random policy's,
 * seeded as the match seeds its bots (cr_match_bot_seed); the record holds the
 * action played, so replays are exact.
 *
 * Consecutive bot moves (with the chance that follows) are stored in one
 * append, as long as bots are to act and for up to 5 ms (then the game is
 * queued again, so games take turns).  Entries not stored yet are never
 * shown: whoever renders the game for a client meanwhile stores them first
 * (sv_sync). */
static void sv_bot_move(sv_game *g)
{
    sv_server *sv = g->srv;
    pthread_mutex_lock(&g->mu);
    g->bot_queued = 0;
    double start = sv_mono();
    int moved = 0, stale = 0, late_n = 0;
    for (int k = 0; k < 256 && !g->thinking; k++) {
        int who = g->m && !g->outdated ? cr_match_to_act(g->m) : CR_TERMINAL;
        if (who < 0 || cr_match_is_human(g->m, who)) break;
        if (k > 0 && sv_mono() - start > 0.005) break;
        cr_bot *bot = sv_seat_bot(g, who);
        if (!g->rnd) {
            char err[256];
            g->rnd = cr_bot_new(g->bot_game, "random", 0, g->meta.seed, err, sizeof err);
            if (!g->rnd) {
                sv_log(sv, "game %s: %s", g->meta.id, err);
                break;
            }
        }
        int n = cr_match_legal(g->m, who, g->think_legal);
        if (n <= 0) break;
        int wants = bot && cr_bot_wants_obs(bot);
        if (wants) cr_match_observe(g->m, who, g->think_obs);
        uint64_t version = g->version;
        int decision = sv_decision(g, who);
        uint64_t seed = cr_match_bot_seed(g->m, who); /* as the match seeds its own bots */
        g->thinking = 1;
        pthread_mutex_lock(&sv->job_mu);
        sv->bot_thinking++;
        pthread_mutex_unlock(&sv->job_mu);
        pthread_mutex_unlock(&g->mu);

        cr_action a = g->think_legal[0];
        int late = 0;
        if (n > 1 && bot) {
            cr_bot_reseed(bot, seed);
            double t0 = sv_mono();
            a = cr_bot_act(bot, wants ? g->think_obs : NULL, g->think_legal, n);
            double ms = (sv_mono() - t0) * 1000;
            late = ms > sv->cfg.bot_deadline_ms;
            if (late)
                sv_log(sv,
                       "game %s: bot %s of P%d took %.0f ms (deadline %d ms): the random "
                       "policy's move is played",
                       g->meta.id, cr_bot_spec(bot), who, ms, sv->cfg.bot_deadline_ms);
        }
        if (n > 1 && (late || !bot)) {
            cr_bot_reseed(g->rnd, seed ^ (uint64_t)who);
            a = cr_bot_act(g->rnd, NULL, g->think_legal, n);
        }

        pthread_mutex_lock(&g->mu);
        g->thinking = 0;
        pthread_mutex_lock(&sv->job_mu);
        sv->bot_thinking--;
        pthread_mutex_unlock(&sv->job_mu);
        late_n += late;
        char err[256];
        if (!g->m || g->outdated || g->version != version || cr_match_to_act(g->m) != who ||
            cr_match_is_human(g->m, who) || sv_decision(g, who) != decision) {
            stale = 1;
            break;
        }
        if (cr_match_submit_bot(g->m, who, a, err, sizeof err) != CR_OK) {
            sv_log(sv, "game %s: bot move of P%d refused: %s", g->meta.id, who, err);
            stale = 1;
            break;
        }
        sv_collect(g, who);
        sv_run_chance(g);
        moved++;
    }
    pthread_mutex_lock(&sv->job_mu);
    sv->bot_moves += moved;
    sv->bot_late += late_n;
    sv->bot_stale += stale;
    pthread_mutex_unlock(&sv->job_mu);
    char err[256];
    if (moved || g->n_pend) sv_flush(g, err, sizeof err);
    if ((moved || stale) && g->m && !g->outdated)
        sv_after_change(g); /* queues the next bot move, if any */
    pthread_mutex_unlock(&g->mu);
}

static void *sv_worker(void *arg)
{
    sv_server *sv = arg;
    for (;;) {
        pthread_mutex_lock(&sv->job_mu);
        while (!sv->stopping && !sv->job_head) pthread_cond_wait(&sv->job_cv, &sv->job_mu);
        if (sv->stopping) {
            pthread_mutex_unlock(&sv->job_mu);
            return NULL;
        }
        sv_game *g = sv->job_head;
        sv->job_head = g->next_job;
        if (!sv->job_head) sv->job_tail = NULL;
        pthread_mutex_unlock(&sv->job_mu);
        sv_bot_move(g);
        sv_game_put(g);
    }
}

/* ---- clocks ---- */

static void sv_clock_check(sv_game *g)
{
    sv_server *sv = g->srv;
    pthread_mutex_lock(&g->mu);
    if (g->m && !g->outdated && g->clock_mode != SV_CLOCK_NONE && g->clock_seat >= 0 &&
        !cr_match_over(g->m)) {
        int s = g->clock_seat;
        int64_t left = g->remaining[s] - (sv_now_ms() - g->clock_started);
        if (left <= 0) {
            const char *spec = strcmp(g->on_timeout, "end") == 0 ? NULL : g->on_timeout;
            char err[256];
            if (cr_match_timeout(g->m, s, spec, err, sizeof err) == CR_OK) {
                sv_collect(g, s);
                sv_run_chance(g);
                g->remaining[s] = 0;
                g->clock_seat = -1; /* the next seat's clock starts in sv_flush */
                sv_flush(g, err, sizeof err);
                sv_after_change(g);
            } else {
                sv_log(sv, "game %s: timeout of P%d: %s", g->meta.id, s, err);
                g->clock_seat = -1;
            }
        }
    }
    pthread_mutex_unlock(&g->mu);
}

static void *sv_clock_main(void *arg)
{
    sv_server *sv = arg;
    for (;;) {
        pthread_mutex_lock(&sv->job_mu);
        int stop = sv->stopping;
        pthread_mutex_unlock(&sv->job_mu);
        if (stop) return NULL;
        struct timespec ts = {0, 100 * 1000000L};
        nanosleep(&ts, NULL);
        for (int i = 0;; i++) {
            pthread_mutex_lock(&sv->table_mu);
            sv_game *g = i < sv->n_games ? sv->games[i] : NULL;
            if (g) g->refs++;
            pthread_mutex_unlock(&sv->table_mu);
            if (!g) break;
            if (g->clock_mode != SV_CLOCK_NONE) sv_clock_check(g);
            sv_game_put(g);
        }
    }
}

/* ---- webhooks: a plain HTTP/1.0 POST, from one thread, 3 s timeouts ---- */

static void sv_enqueue_hook(sv_game *g, int seat, int64_t decision)
{
    sv_server *sv = g->srv;
    sv_hook *h = calloc(1, sizeof *h);
    if (!h) return;
    snprintf(h->url, sizeof h->url, "%s", g->webhook);
    snprintf(h->body, sizeof h->body,
             "{\"game\":\"%s\",\"seat\":%d,\"decision\":%lld,\"event\":\"your_turn\"}", g->meta.id,
             seat, (long long)decision);
    pthread_mutex_lock(&sv->hook_mu);
    if (sv->n_hooks >= 1000) { /* a dead endpoint must not eat the memory */
        pthread_mutex_unlock(&sv->hook_mu);
        free(h);
        return;
    }
    h->next = sv->hook_head;
    sv->hook_head = h;
    sv->n_hooks++;
    pthread_cond_signal(&sv->hook_cv);
    pthread_mutex_unlock(&sv->hook_mu);
}

static void sv_post(const sv_hook *h)
{
    char host[256], path[SV_URL_MAX + 1], port_s[8];
    int port;
    if (!sv_parse_http_url(h->url, host, sizeof host, &port, path, sizeof path)) return;
    snprintf(port_s, sizeof port_s, "%d", port);
    struct addrinfo hints = {0}, *ai = NULL;
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(host, port_s, &hints, &ai) != 0 || !ai) return;
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd >= 0) {
        struct timeval tv = {3, 0};
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
            char req[1536];
            int n = snprintf(req, sizeof req,
                             "POST %s HTTP/1.0\r\nHost: %s\r\nContent-Type: application/json\r\n"
                             "Content-Length: %zu\r\nUser-Agent: croupier\r\n\r\n%s",
                             path, host, strlen(h->body), h->body);
            if (n > 0 && n < (int)sizeof req && send(fd, req, (size_t)n, MSG_NOSIGNAL) == n) {
                char resp[64];
                (void)!recv(fd, resp, sizeof resp, 0);
            }
        }
        close(fd);
    }
    freeaddrinfo(ai);
}

static void *sv_hook_main(void *arg)
{
    sv_server *sv = arg;
    for (;;) {
        pthread_mutex_lock(&sv->hook_mu);
        while (!sv->hook_stop && !sv->hook_head) pthread_cond_wait(&sv->hook_cv, &sv->hook_mu);
        if (sv->hook_stop) {
            pthread_mutex_unlock(&sv->hook_mu);
            return NULL;
        }
        sv_hook *h = sv->hook_head;
        sv->hook_head = h->next;
        sv->n_hooks--;
        pthread_mutex_unlock(&sv->hook_mu);
        sv_post(h);
        free(h);
    }
}

/* ---- following a game ---- */

static void sv_detach(sv_conn *c)
{
    sv_game *g = c->game;
    if (!g) return;
    pthread_mutex_lock(&g->mu);
    for (int i = 0; i < g->n_conns; i++)
        if (g->conns[i] == c) {
            g->conns[i] = g->conns[--g->n_conns];
            break;
        }
    pthread_mutex_unlock(&g->mu);
    c->game = NULL;
    sv_game_put(g); /* the follower's reference */
}

/* Makes c follow g as `seat` (under g->mu); events from `since` (-1: the
 * last ones). */
static int sv_attach_locked(sv_conn *c, sv_game *g, int seat, int64_t since)
{
    if (g->n_conns == g->cap_conns) {
        int cap = g->cap_conns ? g->cap_conns * 2 : 8;
        sv_conn **p = realloc(g->conns, sizeof *p * (size_t)cap);
        if (!p) return 0;
        g->conns = p;
        g->cap_conns = cap;
    }
    g->conns[g->n_conns++] = c;
    sv_game_hold(g); /* the follower's reference */
    c->game = g;
    c->seat = seat;
    c->has_view = 0;
    c->turn_sent = -1;
    uint32_t count = g->m ? cr_match_event_count(g->m) : 0;
    c->sent_seq = since >= 0 && since <= count       ? (uint32_t)since
                  : count > SV_MAX_EVENTS_PER_UPDATE ? count - SV_MAX_EVENTS_PER_UPDATE
                                                     : 0;
    return 1;
}

/* ---- message handlers (a connection's own civetweb thread) ---- */

static void sv_reply_json(sv_conn *c, const sv_msg *m, json_t *o)
{
    if (m->has_id) json_object_set_new(o, "re", json_integer(m->id));
    char *s = json_dumps(o, JSON_COMPACT);
    if (s) {
        sv_send(c, s, strlen(s));
        free(s);
    }
    json_decref(o);
}

static json_t *sv_welcome(const sv_server *sv)
{
    json_t *o = json_pack("{s:i,s:s,s:i,s:s}", "v", 1, "type", "welcome", "protocol",
                          SV_PROTO_VERSION, "server", "croupier 0.1.0");
    json_t *games = json_array();
    for (int i = 0; i < cr_registry_count(); i++) {
        const cr_game_def *d = cr_registry_get(i);
        json_t *vs = json_array();
        for (int v = 0; v < d->n_variants; v++)
            json_array_append_new(
                vs,
                json_pack("{s:s,s:s,s:i,s:i}", "name", d->variants[v].name, "summary",
                          d->variants[v].summary ? d->variants[v].summary : "", "min_players",
                          d->variants[v].min_players, "max_players", d->variants[v].max_players));
        json_t *os = json_array();
        for (int k = 0; k < d->n_options; k++) {
            const cr_option_def *od = &d->options[k];
            if (od->type == CR_OPT_FILE) continue; /* a client cannot choose files (create) */
            const char *types[] = {"", "int", "bool", "choice", "seat", "file"};
            json_t *oj =
                json_pack("{s:s,s:s,s:i,s:i,s:i,s:s}", "key", od->key, "type",
                          od->type >= 1 && od->type <= 5 ? types[od->type] : "", "min", od->min,
                          "max", od->max, "default", od->def, "help", od->help ? od->help : "");
            /* the one variant the option belongs to (null: every variant);
             * create refuses it with another variant */
            json_object_set_new(oj, "variant",
                                od->variant ? json_string(od->variant) : json_null());
            if (od->type == CR_OPT_CHOICE && od->choices) {
                json_t *cs = json_array();
                for (int c = 0; c <= od->max; c++)
                    json_array_append_new(cs, json_string(od->choices[c]));
                json_object_set_new(oj, "choices", cs);
            }
            json_array_append_new(os, oj);
        }
        json_array_append_new(games,
                              json_pack("{s:s,s:s,s:i,s:o,s:o}", "name", d->name, "title", d->title,
                                        "rules", d->rules_version, "variants", vs, "options", os));
    }
    json_object_set_new(o, "games", games);
    json_object_set_new(o, "bots", json_pack("[s,s,s]", "random", "heuristic", "ismcts:iters=N"));
    json_object_set_new(o, "limits",
                        json_pack("{s:I,s:i,s:i,s:i}", "max_frame", (json_int_t)sv->cfg.max_frame,
                                  "max_msg_rate", sv->cfg.max_msg_rate, "bot_max_iters",
                                  sv->cfg.bot_max_iters, "bot_deadline_ms",
                                  sv->cfg.bot_deadline_ms));
    return o;
}

static void sv_invite(char *out, size_t cap, const char *id, int seat, const char *token)
{
    snprintf(out, cap, "#game=%s&seat=%d&token=%s", id, seat, token);
}

static void sv_h_create(sv_conn *c, const sv_msg *m)
{
    sv_server *sv = c->srv;
    char err[256];
    const cr_game_def *def = sv_def(m->game);
    if (!def) {
        sv_send_error(c, m, "bad_request", "unknown game (see welcome.games)");
        return;
    }
    /* A file option names a path on the server's disk: a client may never
     * make the server open one (what it would answer tells whether the file
     * exists and what it holds).  Online games use the game's built-in data;
     * refused before anything looks at the value. */
    for (int i = 0; i < m->n_options; i++)
        for (int k = 0; k < def->n_options; k++)
            if (def->options[k].type == CR_OPT_FILE &&
                strcmp(def->options[k].key, m->opt_key[i]) == 0) {
                char msg[160];
                snprintf(msg, sizeof msg,
                         "option '%s' names a file, which this server never opens for a "
                         "client; games here use the built-in data",
                         def->options[k].key);
                sv_send_error(c, m, "bad_request", msg);
                return;
            }
    int bots = 0;
    for (int s = 0; s < m->n_seats; s++) {
        if (strcmp(m->seats[s], "human") == 0 || strcmp(m->seats[s], "invite") == 0) continue;
        if (!sv_bot_allowed(sv, m->seats[s], err, sizeof err)) {
            char msg[320];
            snprintf(msg, sizeof msg, "seat %d: %s", s, err);
            sv_send_error(c, m, "limit", msg);
            return;
        }
        bots++;
    }
    if (m->sit >= 0 && strcmp(m->seats[m->sit], "human") != 0 &&
        strcmp(m->seats[m->sit], "invite") != 0) {
        sv_send_error(c, m, "bad_request", "'sit' must name a human seat");
        return;
    }
    if (m->clock_mode != SV_CLOCK_NONE && strcmp(m->clock_on_timeout, "end") != 0 &&
        !sv_bot_allowed(sv, m->clock_on_timeout, err, sizeof err)) {
        sv_send_error(c, m, "limit", err);
        return;
    }
    if (m->webhook[0] && !sv->cfg.webhooks) {
        sv_send_error(c, m, "limit", "this server sends no webhooks (--webhooks off)");
        return;
    }
    pthread_mutex_lock(&sv->table_mu);
    int over = sv->n_running >= sv->cfg.max_games || sv->n_bots + bots > sv->cfg.max_bots;
    if (!over) {
        sv->n_running++;
        sv->n_bots += bots;
    }
    pthread_mutex_unlock(&sv->table_mu);
    if (over) {
        sv_send_error(c, m, "limit", "the server is full (games or bots); try again later");
        return;
    }
    cr_store_game meta;
    memset(&meta, 0, sizeof meta);
    unsigned char raw[16];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2hex(meta.id, sizeof meta.id, raw, sizeof raw);
    snprintf(meta.game, sizeof meta.game, "%s", def->name);
    snprintf(meta.variant, sizeof meta.variant, "%s", m->variant);
    meta.players = m->n_seats;
    meta.rules_version = def->rules_version;
    randombytes_buf(&meta.seed, sizeof meta.seed);
    for (int s = 0; s < m->n_seats; s++)
        snprintf(meta.seats[s], sizeof meta.seats[s], "%s", m->seats[s]);
    json_t *opts = json_object();
    for (int i = 0; i < m->n_options; i++)
        json_object_set_new(opts, m->opt_key[i], json_string(m->opt_val[i]));
    char *os = json_dumps(opts, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(opts);
    json_t *conf = json_object();
    if (m->clock_mode != SV_CLOCK_NONE)
        json_object_set_new(conf, "clock",
                            json_pack("{s:s,s:I,s:I,s:s}", "mode",
                                      m->clock_mode == SV_CLOCK_MOVE ? "move" : "total",
                                      "initial_ms", (json_int_t)m->clock_initial_ms, "increment_ms",
                                      (json_int_t)m->clock_increment_ms, "on_timeout",
                                      m->clock_on_timeout));
    if (m->webhook[0]) json_object_set_new(conf, "webhook", json_string(m->webhook));
    char *cs = json_dumps(conf, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(conf);
    int fits =
        os && cs && strlen(os) < sizeof meta.options_json && strlen(cs) < sizeof meta.config_json;
    if (fits) {
        snprintf(meta.options_json, sizeof meta.options_json, "%s", os);
        snprintf(meta.config_json, sizeof meta.config_json, "%s", cs);
    }
    free(os);
    free(cs);
    sv_game *g = NULL;
    cr_match *mt = NULL;
    int32_t acted[CR_MAX_PLAYERS];
    int ra = 0, rm = 0;
    if (!fits) {
        sv_send_error(c, m, "bad_request", "options too long");
        goto undo;
    }
    /* the match first: it checks the variant, the player count and the options */
    mt = sv_build(&meta, NULL, 0, acted, &ra, &rm, err, sizeof err);
    if (!mt) {
        sv_send_error(c, m, "bad_request", err);
        goto undo;
    }
    snprintf(meta.variant, sizeof meta.variant, "%s", cr_match_game(mt)->variant->name);
    g = sv_game_alloc(sv, &meta);
    if (!g || !sv_game_attach_match(g, mt)) {
        if (!g) cr_match_free(mt);
        sv_send_error(c, m, "store", "out of memory");
        goto undo;
    }
    g->bot_seats = bots;
    /* In the table before it is claimed, and claimed before it is stored:
     * once stored as running, another process's claim sweep would take a
     * game nobody holds yet, and this process's own sweep, finding it
     * running and held by this process but in no table, would load a
     * second copy (found by tests/server/test_soak_kill9.c). */
    if (!sv_table_add(g)) {
        sv_send_error(c, m, "store", "out of memory");
        goto undo;
    }
    int claimed = sv->store->ops->claim(sv->store, meta.id, err, sizeof err) == CR_OK;
    if (!claimed || sv->store->ops->create_game(sv->store, &meta, err, sizeof err) != CR_OK) {
        if (claimed) sv->store->ops->release(sv->store, meta.id);
        sv_send_error(c, m, "store", "the store refused the game");
        sv_log(sv, "create: %s", err);
        goto undo;
    }
    /* tokens for the creator's seat and the invite seats */
    json_t *seats = json_array();
    for (int s = 0; s < m->n_seats; s++) {
        if (s != m->sit && strcmp(m->seats[s], "invite") != 0) continue;
        char tok[SV_TOKEN_LEN + 1], inv[160];
        uint8_t h[CR_STORE_HASH_LEN];
        sv_new_token(tok);
        sv_token_hash(tok, h);
        if (sv->store->ops->add_token(sv->store, meta.id, s, h, err, sizeof err) != CR_OK) {
            json_decref(seats);
            sv_send_error(c, m, "store", "the store refused a token");
            goto undo_stored;
        }
        g->meta.taken |= 1u << s;
        sv_invite(inv, sizeof inv, meta.id, s, tok);
        json_array_append_new(seats,
                              json_pack("{s:i,s:s,s:s}", "seat", s, "token", tok, "invite", inv));
        sodium_memzero(tok, sizeof tok);
    }
    sv_detach(c);
    pthread_mutex_lock(&g->mu);
    sv_run_chance(g);
    sv_flush(g, err, sizeof err);
    sv_reply_json(c, m,
                  json_pack("{s:i,s:s,s:s,s:o}", "v", 1, "type", "created", "game_id", meta.id,
                            "seats", seats));
    if (m->sit >= 0) sv_attach_locked(c, g, m->sit, 0);
    sv_after_change(g);
    pthread_mutex_unlock(&g->mu);
    sv_game_put(g); /* the table (and a follower) hold it */
    sv_log(sv, "game %s created: %s, %d seats", meta.id, def->name, m->n_seats);
    return;
undo_stored:
    sv->store->ops->finish(sv->store, meta.id, "{\"aborted\":true}", 0, err, sizeof err);
undo:
    if (g) sv_table_drop(g);
    sv_game_put(g); /* the creator's reference: the last, unless a sweep or the clock holds one */
    pthread_mutex_lock(&sv->table_mu);
    sv->n_running--;
    sv->n_bots -= bots;
    pthread_mutex_unlock(&sv->table_mu);
}

typedef struct {
    json_t *arr;
    int status; /* 0 all, 1 open */
} sv_list_ctx;

static int sv_list_fn(void *arg, const cr_store_game *g)
{
    sv_list_ctx *lc = arg;
    json_t *seats = json_array();
    int open = 0;
    for (int s = 0; s < g->players; s++) {
        int human = strcmp(g->seats[s], "human") == 0 || strcmp(g->seats[s], "invite") == 0;
        int taken = (g->taken >> s) & 1;
        if (strcmp(g->seats[s], "human") == 0 && !taken) open = 1;
        json_t *o = json_pack("{s:i,s:s}", "seat", s, "kind", human ? "human" : "bot");
        if (human)
            json_object_set_new(o, "taken", json_boolean(taken));
        else
            json_object_set_new(o, "spec", json_string(g->seats[s]));
        json_array_append_new(seats, o);
    }
    if (lc->status == 1 && (!open || g->status != CR_STORE_RUNNING)) {
        json_decref(seats);
        return 0;
    }
    const cr_game_def *def = sv_def(g->game);
    int outdated = g->status == CR_STORE_OUTDATED || !def || def->rules_version != g->rules_version;
    const char *st = outdated                         ? "outdated"
                     : g->status == CR_STORE_FINISHED ? "finished"
                     : open                           ? "open"
                                                      : "running";
    json_array_append_new(
        lc->arr, json_pack("{s:s,s:s,s:s,s:i,s:s,s:o,s:i,s:I,s:b}", "game_id", g->id, "game",
                           g->game, "variant", g->variant, "players", g->players, "status", st,
                           "seats", seats, "actions", g->n_entries, "created",
                           (json_int_t)g->created_ms, "rules_outdated", outdated));
    return json_array_size(lc->arr) >= SV_LIST_MAX;
}

static json_t *sv_games_json(sv_server *sv, int status)
{
    char err[256];
    sv_list_ctx lc = {json_array(), status == 1};
    int st = status == 2 ? CR_STORE_RUNNING : status == 3 ? CR_STORE_FINISHED : 0;
    if (status == 1) st = CR_STORE_RUNNING;
    sv->store->ops->list(sv->store, st, status == 1 ? 5000 : SV_LIST_MAX, sv_list_fn, &lc, err,
                         sizeof err);
    return json_pack("{s:i,s:s,s:o}", "v", 1, "type", "games", "games", lc.arr);
}

static int sv_stats_fn(void *arg, const cr_store_stats *st)
{
    json_t *arr = arg;
    const cr_game_def *def = sv_def(st->game);
    json_t *by = json_array();
    for (int s = 0; s < st->players_max && s < CR_MAX_PLAYERS; s++)
        json_array_append_new(
            by, json_pack("{s:i,s:I,s:I,s:f}", "seat", s, "games", (json_int_t)st->seat_games[s],
                          "wins", (json_int_t)st->seat_wins[s], "win_rate",
                          st->seat_games[s] ? (double)st->seat_wins[s] / (double)st->seat_games[s]
                                            : 0.0));
    json_array_append_new(arr, json_pack("{s:s,s:s,s:I,s:f,s:o}", "game", st->game, "title",
                                         def ? def->title : st->game, "finished",
                                         (json_int_t)st->finished, "avg_actions", st->avg_entries,
                                         "by_seat", by));
    return 0;
}

static json_t *sv_stats_json(sv_server *sv)
{
    char err[256];
    json_t *arr = json_array();
    sv->store->ops->stats(sv->store, sv_stats_fn, arr, err, sizeof err);
    return json_pack("{s:i,s:s,s:o}", "v", 1, "type", "stats", "titles", arr);
}

/* The game is running on another server process (a shared store). */
static void sv_send_elsewhere(sv_conn *c, const sv_msg *m, int why)
{
    if (why == SV_FULL)
        sv_send_error(c, m, "limit", "this server holds as many running games as it may");
    else
        sv_send_error(c, m, "elsewhere",
                      "another server process plays this game; connect to that one"
                      " (docs/server.md)");
}

static void sv_h_join(sv_conn *c, const sv_msg *m)
{
    sv_server *sv = c->srv;
    int elsewhere = 0, busy = 0;
    sv_game *g = sv_find_game_where(sv, m->game_id, &elsewhere, &busy);
    if (!g) {
        if (elsewhere)
            sv_send_elsewhere(c, m, elsewhere);
        else if (busy)
            sv_send_busy(c, m);
        else
            sv_send_error(c, m, "no_game", "no such game");
        return;
    }
    sv_detach(c);
    pthread_mutex_lock(&g->mu);
    int seat = -1;
    const char *why = "no free seat in this game";
    if (g->outdated || !g->m) {
        why = "this game was stored under another rules version; it is read-only";
    } else if (cr_match_over(g->m)) {
        why = "the game is over";
    } else {
        for (int s = 0; s < g->meta.players; s++) {
            if (m->seat >= 0 && s != m->seat) continue;
            if (strcmp(g->meta.seats[s], "human") == 0 && !((g->meta.taken >> s) & 1) &&
                cr_match_is_human(g->m, s)) {
                seat = s;
                break;
            }
        }
    }
    char tok[SV_TOKEN_LEN + 1], err[256];
    if (seat >= 0) {
        uint8_t h[CR_STORE_HASH_LEN];
        sv_new_token(tok);
        sv_token_hash(tok, h);
        if (sv->store->ops->add_token(sv->store, g->meta.id, seat, h, err, sizeof err) != CR_OK)
            seat = -1;
    }
    if (seat < 0) {
        pthread_mutex_unlock(&g->mu);
        sv_game_put(g);
        sv_send_error(c, m, "seat_taken", why);
        return;
    }
    g->meta.taken |= 1u << seat;
    char inv[160];
    sv_invite(inv, sizeof inv, g->meta.id, seat, tok);
    sv_reply_json(c, m,
                  json_pack("{s:i,s:s,s:s,s:i,s:s,s:s}", "v", 1, "type", "joined", "game_id",
                            g->meta.id, "seat", seat, "token", tok, "invite", inv));
    sodium_memzero(tok, sizeof tok);
    sv_attach_locked(c, g, seat, 0);
    sv_after_change(g);          /* the others see the seat taken */
    sv_update_conn(g, c, 1, -1); /* `joined` answered the request */
    pthread_mutex_unlock(&g->mu);
    sv_game_put(g);
}

static void sv_h_sit(sv_conn *c, const sv_msg *m, int spectate)
{
    sv_server *sv = c->srv;
    int elsewhere = 0, busy = 0;
    sv_game *g = sv_find_game_where(sv, m->game_id, &elsewhere, &busy);
    int seat = CR_SEAT_PUBLIC;
    char err[256];
    if (elsewhere) {
        sv_game_put(g);
        sv_send_elsewhere(c, m, elsewhere);
        return;
    }
    if (busy) {
        sv_send_busy(c, m);
        return;
    }
    if (!spectate) {
        uint8_t h[CR_STORE_HASH_LEN];
        sv_token_hash(m->token, h);
        if (!g || strlen(m->token) != SV_TOKEN_LEN ||
            sv->store->ops->find_token(sv->store, m->game_id, h, &seat, err, sizeof err) != CR_OK) {
            sv_game_put(g);
            sv_send_error(c, m, "bad_token", "this token opens no seat of that game");
            return;
        }
    } else if (!g) {
        sv_send_error(c, m, "no_game", "no such game");
        return;
    }
    sv_detach(c);
    pthread_mutex_lock(&g->mu);
    if (!g->m) {
        pthread_mutex_unlock(&g->mu);
        sv_game_put(g);
        sv_send_error(c, m, "outdated",
                      "this game was stored under another rules version; it is kept as stored");
        return;
    }
    sv_attach_locked(c, g, seat, m->since);
    sv_update_conn(g, c, 1, m->has_id ? m->id : -1);
    pthread_mutex_unlock(&g->mu);
    sv_game_put(g); /* the follower holds its own */
}

/* Checks c is seated at a playable game and locks it; NULL after an error. */
static sv_game *sv_seated(sv_conn *c, const sv_msg *m)
{
    sv_game *g = c->game;
    if (!g || c->seat < 0) {
        sv_send_error(c, m, "not_seated", "sit at a seat first (join or sit)");
        return NULL;
    }
    pthread_mutex_lock(&g->mu);
    sv_sync(g);
    if (g->outdated || !g->m) {
        pthread_mutex_unlock(&g->mu);
        sv_send_error(c, m, "outdated", "this game cannot be played on");
        return NULL;
    }
    return g;
}

static void sv_ack(sv_conn *c, const sv_msg *m, sv_game *g, int64_t decision)
{
    char msg[160];
    int n = snprintf(msg, sizeof msg, "{\"v\":1,\"type\":\"ack\"");
    if (m->has_id) n += snprintf(msg + n, sizeof msg - (size_t)n, ",\"re\":%lld", (long long)m->id);
    n += snprintf(msg + n, sizeof msg - (size_t)n, ",\"decision\":%lld,\"seq\":%u}",
                  (long long)decision, cr_match_event_count(g->m));
    sv_send(c, msg, (size_t)n);
}

/* The end of a seat's accepted request (act, resign, hand-over): the
 * match's new entries (chosen by `seat`) and the chance that follows are
 * stored; only then is the request acknowledged (`decision`: the seat's
 * decision number before it) and the followers updated.  If the store
 * fails the game is rebuilt from it and the client gets `store` with
 * `store_msg`.  Called under g->mu; releases it. */
static void sv_commit_seat(sv_conn *c, const sv_msg *m, sv_game *g, int seat, int64_t decision,
                           const char *store_msg)
{
    char err[256];
    sv_collect(g, seat);
    sv_run_chance(g);
    if (!sv_flush(g, err, sizeof err)) {
        pthread_mutex_unlock(&g->mu);
        sv_send_error(c, m, "store", store_msg);
        return;
    }
    sv_ack(c, m, g, decision);
    sv_after_change(g);
    pthread_mutex_unlock(&g->mu);
}

static void sv_h_act(sv_conn *c, const sv_msg *m)
{
    sv_game *g = sv_seated(c, m);
    if (!g) return;
    int seat = c->seat;
    char err[256];
    /* the turn, from what every seat knows; then the decision number; then the action */
    if (cr_match_over(g->m)) {
        snprintf(err, sizeof err, "the game is over");
        goto refuse_turn;
    }
    if (cr_seat_may_act(cr_match_game(g->m), cr_match_state(g->m), seat, err, sizeof err) != CR_OK)
        goto refuse_turn;
    if (!cr_match_is_human(g->m, seat)) {
        snprintf(err, sizeof err, "seat P%d is played by a bot", seat);
        goto refuse_turn;
    }
    int64_t d = sv_decision(g, seat);
    if (m->decision != d) {
        snprintf(err, sizeof err, "stale: this is decision %lld, not %lld", (long long)d,
                 (long long)m->decision);
        pthread_mutex_unlock(&g->mu);
        sv_send_error(c, m, "stale", err);
        return;
    }
    cr_status rc = m->has_action ? cr_match_submit_action(g->m, seat, m->action, err, sizeof err)
                                 : cr_match_submit(g->m, seat, m->text, err, sizeof err);
    if (rc != CR_OK) {
        pthread_mutex_unlock(&g->mu);
        sv_send_error(c, m, "illegal", err);
        return;
    }
    sv_commit_seat(c, m, g, seat, d, "the store failed; the action was not taken");
    return;
refuse_turn:
    pthread_mutex_unlock(&g->mu);
    sv_send_error(c, m, "not_your_turn", err);
}

static void sv_h_leave(sv_conn *c, const sv_msg *m, int to_bot)
{
    sv_server *sv = c->srv;
    char err[256];
    if (to_bot && !sv_bot_allowed(sv, m->spec, err, sizeof err)) {
        sv_send_error(c, m, "limit", err);
        return;
    }
    sv_game *g = sv_seated(c, m);
    if (!g) return;
    int seat = c->seat;
    int64_t d = sv_decision(g, seat);
    cr_status rc;
    if (to_bot) {
        pthread_mutex_lock(&sv->table_mu);
        int full = sv->n_bots + 1 > sv->cfg.max_bots;
        if (!full) sv->n_bots++;
        pthread_mutex_unlock(&sv->table_mu);
        if (full) {
            pthread_mutex_unlock(&g->mu);
            sv_send_error(c, m, "limit", "the server runs as many bots as it may");
            return;
        }
        rc = cr_match_over(g->m) ? CR_ERR_INVALID
             : cr_match_is_human(g->m, seat)
                 ? cr_match_set_seat(g->m, seat, m->spec, err, sizeof err)
                 : (snprintf(err, sizeof err, "seat P%d is played by a bot already", seat),
                    CR_ERR_INVALID);
        if (rc == CR_OK)
            g->bot_seats++;
        else {
            if (cr_match_over(g->m)) snprintf(err, sizeof err, "the game is over");
            pthread_mutex_lock(&sv->table_mu);
            sv->n_bots--;
            pthread_mutex_unlock(&sv->table_mu);
        }
    } else {
        rc = cr_match_resign(g->m, seat, NULL, err, sizeof err);
    }
    if (rc != CR_OK) {
        pthread_mutex_unlock(&g->mu);
        sv_send_error(c, m, "illegal", err);
        return;
    }
    sv_commit_seat(c, m, g, seat, d, "the store failed; nothing was changed");
}

static void sv_h_history(sv_conn *c, const sv_msg *m)
{
    sv_game *g = c->game;
    if (!g) {
        sv_send_error(c, m, "not_seated", "sit, join or spectate first");
        return;
    }
    pthread_mutex_lock(&g->mu);
    sv_sync(g);
    if (!g->m) {
        pthread_mutex_unlock(&g->mu);
        sv_send_error(c, m, "outdated", "this game cannot be replayed");
        return;
    }
    sv_buf *b = &c->out; /* c->out is written under the game's mutex only */
    sb_reset(b);
    sb_puts(b, "{\"v\":1,\"type\":\"history\"");
    if (m->has_id) sb_printf(b, ",\"re\":%lld", (long long)m->id);
    uint32_t count = cr_match_event_count(g->m);
    sb_printf(b, ",\"game_id\":\"%s\",\"count\":%u,\"events\":[", g->meta.id, count);
    const cr_match_event *ev = NULL;
    int ne = m->since < count ? cr_match_events_since(g->m, (uint32_t)m->since, &ev) : 0;
    if (ne > SV_MAX_HISTORY) ne = SV_MAX_HISTORY;
    for (int i = 0; i < ne; i++) {
        SV_RENDER(g, cr_match_event_json(g->m, &ev[i], c->seat, buf, cap));
        const char *j = g->tmp && g->tmp[0] == '{' ? g->tmp : NULL;
        sb_printf(b, "%s{\"seq\":%u", i ? "," : "", ev[i].seq);
        if (j && j[1] != '}') {
            sb_puts(b, ",");
            sb_puts(b, j + 1);
        } else {
            sb_puts(b, "}");
        }
    }
    sb_puts(b, "]}");
    if (!b->oom) sv_send(c, b->p, b->len);
    pthread_mutex_unlock(&g->mu);
}

static void sv_h_record(sv_conn *c, const sv_msg *m)
{
    sv_server *sv = c->srv;
    int busy = 0;
    sv_game *g = sv_find_game(sv, m->game_id, &busy);
    if (busy) {
        sv_send_busy(c, m);
        return;
    }
    if (!g || !g->m) {
        sv_game_put(g);
        sv_send_error(c, m, g ? "outdated" : "no_game", g ? "no record to give" : "no such game");
        return;
    }
    pthread_mutex_lock(&g->mu);
    uint64_t seed;
    if (!cr_match_seed(g->m, &seed)) {
        pthread_mutex_unlock(&g->mu);
        sv_game_put(g);
        sv_send_error(c, m, "not_finished",
                      "the record and the seed are given out once the game is over");
        return;
    }
    char *text = NULL, err[256];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_status rc = f ? cr_match_save(g->m, f, err, sizeof err) : CR_ERR_NOMEM;
    if (f) fclose(f);
    pthread_mutex_unlock(&g->mu);
    char id[CR_STORE_ID_LEN + 1];
    snprintf(id, sizeof id, "%s", g->meta.id);
    sv_game_put(g);
    if (rc != CR_OK || !text) {
        free(text);
        sv_send_error(c, m, "store", "cannot write the record");
        return;
    }
    char seed_s[24];
    snprintf(seed_s, sizeof seed_s, "%llu", (unsigned long long)seed);
    sv_reply_json(c, m,
                  json_pack("{s:i,s:s,s:s,s:s,s:s}", "v", 1, "type", "record", "game_id", id,
                            "seed", seed_s, "record", text));
    free(text);
}

/* Lets go of the game c replays (its reference and checkpoints). */
static void sv_replay_drop(sv_conn *c)
{
    sv_replay_free(c->rp);
    c->rp = NULL;
    sv_game_put(c->rp_game);
    c->rp_game = NULL;
}

/* replay: a finished game's table at one step, for one view (docs/protocol.md).
 * The connection keeps that game and its checkpoints until it replays
 * another one or closes, so stepping through it rebuilds nothing. */
static void sv_h_replay(sv_conn *c, const sv_msg *m)
{
    sv_server *sv = c->srv;
    double now = sv_mono();
    c->rp_bucket += (now - c->rp_t) * SV_REPLAY_RATE;
    if (c->rp_bucket > 2.0 * SV_REPLAY_RATE) c->rp_bucket = 2.0 * SV_REPLAY_RATE;
    c->rp_t = now;
    sv_game *g = c->rp_game;
    int take = !g || strcmp(g->meta.id, m->game_id) != 0;
    double cost = take ? SV_REPLAY_TAKE_COST : 1.0;
    int server_full = 0;
    if (take && c->rp_bucket >= cost) {
        pthread_mutex_lock(&sv->table_mu);
        sv->rp_takes += (now - sv->rp_takes_t) * SV_REPLAY_TAKES;
        if (sv->rp_takes > 2.0 * SV_REPLAY_TAKES) sv->rp_takes = 2.0 * SV_REPLAY_TAKES;
        sv->rp_takes_t = now;
        server_full = sv->rp_takes < 1.0;
        if (!server_full) sv->rp_takes -= 1.0;
        pthread_mutex_unlock(&sv->table_mu);
    }
    if (c->rp_bucket < cost || server_full) {
        char msg[160];
        if (server_full)
            snprintf(msg, sizeof msg,
                     "the server replays at most %d new games a second; ask again shortly",
                     SV_REPLAY_TAKES);
        else
            snprintf(msg, sizeof msg,
                     "at most %d replay steps a second (another game counts as %d); ask again "
                     "shortly",
                     SV_REPLAY_RATE, SV_REPLAY_TAKE_COST);
        sv_send_error(c, m, "limit", msg);
        return;
    }
    c->rp_bucket -= cost;
    if (take) {
        int busy = 0;
        g = sv_find_game(sv, m->game_id, &busy);
        if (busy) {
            sv_send_busy(c, m);
            return;
        }
        if (!g || !g->m) {
            sv_game_put(g);
            sv_send_error(c, m, g ? "outdated" : "no_game",
                          g ? "no record to replay" : "no such game");
            return;
        }
        pthread_mutex_lock(&g->mu);
        int over = cr_match_over(g->m);
        pthread_mutex_unlock(&g->mu);
        if (!over) {
            sv_game_put(g);
            sv_send_error(c, m, "not_finished",
                          "a game is replayed once it is over (its record is secret until then)");
            return;
        }
        sv_replay_drop(c);
        c->rp_game = g; /* the lookup's reference */
    }
    char err[256];
    pthread_mutex_lock(&g->mu);
    char *body = sv_replay_step(&c->rp, g->m, (int)(m->step < INT32_MAX ? m->step : INT32_MAX),
                                m->seat >= 0 ? m->seat : CR_SEAT_PUBLIC, err, sizeof err);
    const char *name = cr_match_game(g->m)->def->name;
    pthread_mutex_unlock(&g->mu);
    if (!body) {
        sv_send_error(c, m, strcmp(err, "out of memory") == 0 ? "limit" : "bad_request", err);
        return;
    }
    sv_buf b = {0};
    sb_puts(&b, "{\"v\":1,\"type\":\"replay\"");
    if (m->has_id) sb_printf(&b, ",\"re\":%lld", (long long)m->id);
    sb_printf(&b, ",\"game_id\":\"%s\",\"game\":", g->meta.id);
    sb_json_str(&b, name);
    if (m->seat >= 0)
        sb_printf(&b, ",\"seat\":%d,", m->seat);
    else
        sb_puts(&b, ",\"seat\":null,");
    sb_puts(&b, body);
    sb_puts(&b, "}");
    free(body);
    if (!b.oom)
        sv_send(c, b.p, b.len);
    else
        sv_send_error(c, m, "limit", "out of memory");
    sb_free(&b);
}

static void sv_dispatch(sv_conn *c, const char *data, size_t len)
{
    sv_server *sv = c->srv;
    sv_msg *m = malloc(sizeof *m);
    if (!m) return;
    const char *code;
    char err[256];
    if (sv_proto_parse(data, len, m, &code, err, sizeof err) != 0) {
        sv_send_error(c, m, code, err);
        free(m);
        return;
    }
    switch (m->type) {
    case SV_HELLO: sv_reply_json(c, m, sv_welcome(sv)); break;
    case SV_CREATE: sv_h_create(c, m); break;
    case SV_LIST: sv_reply_json(c, m, sv_games_json(sv, m->status)); break;
    case SV_JOIN: sv_h_join(c, m); break;
    case SV_SIT: sv_h_sit(c, m, 0); break;
    case SV_SPECTATE: sv_h_sit(c, m, 1); break;
    case SV_ACT: sv_h_act(c, m); break;
    case SV_HISTORY: sv_h_history(c, m); break;
    case SV_RESIGN: sv_h_leave(c, m, 0); break;
    case SV_BOT: sv_h_leave(c, m, 1); break;
    case SV_RECORD: sv_h_record(c, m); break;
    case SV_STATS: sv_reply_json(c, m, sv_stats_json(sv)); break;
    case SV_REPLAY: sv_h_replay(c, m); break;
    }
    free(m);
}

/* ---- connections: the per-address cap, the socket, the frames ---- */

/* The numeric text of a socket address, as civetweb writes remote_addr. */
static int sv_addr_text(const struct sockaddr_storage *sa, char *out, size_t cap, int *port)
{
    if (sa->ss_family == AF_INET) {
        const struct sockaddr_in *a = (const struct sockaddr_in *)sa;
        *port = ntohs(a->sin_port);
        return inet_ntop(AF_INET, &a->sin_addr, out, (socklen_t)cap) != NULL;
    }
    if (sa->ss_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)sa;
        *port = ntohs(a->sin6_port);
        return inet_ntop(AF_INET6, &a->sin6_addr, out, (socklen_t)cap) != NULL;
    }
    return 0;
}

/* The socket of civetweb's connection mc.  civetweb 1.15 does not give it
 * out; it is the one open TCP socket of the process whose peer is the
 * request's remote address and port and whose own port is the server's
 * (a connected TCP socket is unique by those).  Found among the process's
 * descriptors (/proc/self/fd); -1 when none or more than one matches. */
static int sv_conn_socket(const struct mg_connection *mc)
{
    const struct mg_request_info *ri = mg_get_request_info(mc);
    if (!ri) return -1;
    DIR *dir = opendir("/proc/self/fd");
    if (!dir) return -1;
    int found = -1, n = 0;
    struct dirent *de;
    while ((de = readdir(dir)) != NULL) {
        char *end;
        long fd = strtol(de->d_name, &end, 10);
        if (*end || end == de->d_name || fd < 0 || fd == dirfd(dir)) continue;
        struct sockaddr_storage peer, self;
        socklen_t pl = sizeof peer, sl = sizeof self;
        if (getpeername((int)fd, (struct sockaddr *)&peer, &pl) != 0) continue;
        if (getsockname((int)fd, (struct sockaddr *)&self, &sl) != 0) continue;
        char text[64];
        int pport, sport;
        char stext[64];
        if (!sv_addr_text(&peer, text, sizeof text, &pport)) continue;
        if (!sv_addr_text(&self, stext, sizeof stext, &sport)) continue;
        if (pport == ri->remote_port && sport == ri->server_port &&
            strcmp(text, ri->remote_addr) == 0) {
            found = (int)fd;
            n++;
        }
    }
    closedir(dir);
    return n == 1 ? found : -1;
}

/* Writes what c's queue holds, as far as the socket takes it (never
 * waits).  Returns -1 when the socket failed. */
static int sv_conn_flush(sv_conn *c)
{
    pthread_mutex_lock(&c->q_mu);
    int rc = 0;
    while (c->q_off < c->q_len) {
        ssize_t w = send(c->fd, c->q + c->q_off, c->q_len - c->q_off, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w > 0) {
            c->q_off += (size_t)w;
            continue;
        }
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) break;
        rc = -1;
        break;
    }
    if (c->q_off == c->q_len) c->q_off = c->q_len = 0;
    pthread_mutex_unlock(&c->q_mu);
    return rc;
}

static int sv_conn_pending(sv_conn *c)
{
    pthread_mutex_lock(&c->q_mu);
    int p = c->q_off < c->q_len;
    pthread_mutex_unlock(&c->q_mu);
    return p;
}

/* Queues the close frame (status, reason) and queues nothing after it. */
static void sv_conn_close_frame(sv_conn *c, int status, const char *reason)
{
    uint8_t body[2 + 100];
    size_t rl = strlen(reason);
    if (rl > 100) rl = 100;
    body[0] = (uint8_t)(status >> 8);
    body[1] = (uint8_t)status;
    memcpy(body + 2, reason, rl);
    sv_queue(c, SV_WS_CLOSE, body, 2 + rl);
    pthread_mutex_lock(&c->q_mu);
    c->closing = 1;
    pthread_mutex_unlock(&c->q_mu);
}

/* One whole message from the client: the rate limit, then the handler.
 * Returns 0 to go on, or the close status to end the connection with. */
static int sv_conn_message(sv_conn *c, int op, const char *data, size_t len)
{
    sv_server *sv = c->srv;
    if (op != SV_WS_TEXT) {
        sv_send_error(c, NULL, "bad_request", "only text frames holding JSON are understood");
        return SV_WS_UNSUPPORTED;
    }
    double now = sv_mono();
    c->bucket += (now - c->bucket_t) * sv->cfg.max_msg_rate;
    if (c->bucket > 2.0 * sv->cfg.max_msg_rate) c->bucket = 2.0 * sv->cfg.max_msg_rate;
    c->bucket_t = now;
    if (c->bucket < 1.0) {
        sv_send_error(c, NULL, "flood", "too many messages; closing");
        return SV_WS_POLICY;
    }
    c->bucket -= 1.0;
    sv_dispatch(c, data, len);
    return 0;
}

/* Feeds the bytes the client sent to c's decoder and acts on each frame
 * and message they complete.  Returns 0 to go on, or the status to close
 * the connection with (*why its reason). */
static int sv_conn_bytes(sv_conn *c, sv_ws_dec *d, const uint8_t *buf, size_t n, const char **why)
{
    size_t off = 0;
    int status = 0;
    while (off < n && !status) {
        size_t used = 0, len = 0;
        const char *data = NULL;
        int op = 0, st = 0;
        sv_ws_event ev = sv_ws_feed(d, buf + off, n - off, &used, &data, &len, &op, &st, why);
        off += used;
        switch (ev) {
        case SV_WS_NONE: break;
        case SV_WS_MESSAGE: status = sv_conn_message(c, op, data, len); break;
        case SV_WS_GOT_PING: sv_queue(c, SV_WS_PONG, data, len); break;
        case SV_WS_GOT_PONG: break;
        case SV_WS_GOT_CLOSE:
            /* echo a valid status (RFC 6455 5.5.1), else a plain close */
            status = st >= 1000 && st < 5000 && st != 1005 && st != 1006 && st != 1015
                         ? st
                         : SV_WS_NORMAL;
            *why = "";
            break;
        case SV_WS_FAIL:
            status = st;
            if (st == SV_WS_TOO_BIG)
                sv_send_error(c, NULL, "too_large", "frame over the server's size limit");
            break;
        }
    }
    return status;
}

/* The connection's thread: reads the socket, decodes frames, answers
 * pings, pings an idle client and closes one that stays silent, enforces
 * the frame deadline, and writes what other threads queue. */
static void *sv_conn_main(void *arg)
{
    sv_conn *c = arg;
    sv_server *sv = c->srv;
    const sv_config *cfg = &sv->cfg;
    sv_ws_dec d;
    int status = 0;
    const char *why = "";
    if (sv_ws_init(&d, cfg->max_frame) != 0) {
        status = SV_WS_INTERNAL;
        why = "out of memory";
    }
    double last_rx = sv_mono(), frame_t = 0.0;
    int pinged = 0;
    uint8_t buf[4096];
    while (!status) {
        if (__atomic_load_n(&sv->conns_stop, __ATOMIC_ACQUIRE)) {
            status = SV_WS_GOING_AWAY;
            why = "the server is stopping";
            break;
        }
        pthread_mutex_lock(&c->q_mu);
        int over = c->q_over, pending = c->q_off < c->q_len;
        pthread_mutex_unlock(&c->q_mu);
        if (over) {
            status = SV_WS_POLICY;
            why = "the client does not read its messages";
            break;
        }
        double now = sv_mono();
        double until = last_rx + cfg->idle_ms / (pinged ? 1000.0 : 2000.0);
        if (frame_t > 0 && frame_t + cfg->frame_ms / 1000.0 < until)
            until = frame_t + cfg->frame_ms / 1000.0;
        int wait = (int)((until - now) * 1000.0) + 1;
        if (wait > 500) wait = 500; /* to see conns_stop */
        if (wait < 0) wait = 0;
        struct pollfd pf[2] = {{.fd = c->fd, .events = (short)(POLLIN | (pending ? POLLOUT : 0))},
                               {.fd = c->wake, .events = POLLIN}};
        int pr = poll(pf, 2, wait);
        if (pr < 0 && errno != EINTR) break;
        if (pr > 0 && (pf[1].revents & POLLIN)) {
            uint64_t v;
            if (read(c->wake, &v, sizeof v) < 0) { /* nothing to drain */
            }
        }
        if (pr > 0 && (pf[0].revents & POLLOUT) && sv_conn_flush(c) != 0) break;
        if (pr > 0 && (pf[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            ssize_t n = recv(c->fd, buf, sizeof buf, 0);
            if (n == 0) break; /* the client went away */
            if (n < 0) {
                if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) continue;
                break;
            }
            last_rx = sv_mono();
            pinged = 0;
            status = sv_conn_bytes(c, &d, buf, (size_t)n, &why);
            frame_t = sv_ws_mid_frame(&d) ? (frame_t > 0 ? frame_t : last_rx) : 0.0;
            if (status) break;
        }
        now = sv_mono();
        if (frame_t > 0 && now - frame_t > cfg->frame_ms / 1000.0) {
            status = SV_WS_POLICY;
            why = "a frame arrived too slowly";
        } else if (now - last_rx > cfg->idle_ms / 1000.0) {
            status = SV_WS_GOING_AWAY;
            why = "idle: no answer to ping";
        } else if (!pinged && now - last_rx > cfg->idle_ms / 2000.0) {
            sv_queue(c, SV_WS_PING, "croupier", 8);
            pinged = 1;
        }
    }
    if (status) sv_conn_close_frame(c, status, why);
    pthread_mutex_lock(&c->q_mu);
    c->closing = 1;
    pthread_mutex_unlock(&c->q_mu);
    /* what is queued (the close frame last) gets a second to leave */
    double end = sv_mono() + 1.0;
    while (sv_conn_pending(c) && sv_mono() < end) {
        struct pollfd pf = {.fd = c->fd, .events = POLLOUT};
        if (poll(&pf, 1, 100) < 0 && errno != EINTR) break;
        if (sv_conn_flush(c) != 0) break;
    }
    sv_ws_free(&d);
    /* civetweb reads this socket once the ready handler returns: make
     * its first read see the end, so it closes the connection at once */
    shutdown(c->fd, SHUT_RD);
    return NULL;
}

/* ---- civetweb callbacks ---- */

/* Routing by game id (docs/server.md, "Routing clients"): a client on a
 * game's page opens its WebSocket as /ws?game=ID.  When another server
 * process plays that running game, the upgrade is refused: civetweb then
 * closes the connection without an answer, and the proxy in front retries
 * the request on another process (deploy/haproxy.cfg), so the client never
 * meets `elsewhere`.  A running game nobody holds is claimed here, as a
 * `sit` would claim it.  Plain /ws, a malformed id, an unknown, finished or
 * outdated game, or a full server (SV_FULL) are let through: the messages
 * on the connection answer those. */
static int sv_route_refuses(sv_server *sv, const struct mg_connection *mc)
{
    const struct mg_request_info *ri = mg_get_request_info(mc);
    char id[40];
    if (!ri || !ri->query_string) return 0;
    if (mg_get_var(ri->query_string, strlen(ri->query_string), "game", id, sizeof id) < 0) return 0;
    if (!sv_is_game_id(id)) return 0;
    int where = SV_HERE;
    sv_game *g = sv_find_game_where(sv, id, &where, NULL);
    if (g) sv_game_put(g);
    return !g && where == SV_ELSEWHERE;
}

static int sv_ws_connect(const struct mg_connection *mc, void *cb)
{
    sv_server *sv = cb;
    return sv_route_refuses(sv, mc); /* 0 accepts the upgrade */
}

static void sv_ws_ready(struct mg_connection *mc, void *cb)
{
    sv_server *sv = cb;
    sv_conn *c = calloc(1, sizeof *c);
    if (!c) return;
    c->srv = sv;
    c->mc = mc;
    c->fd = -1;
    c->wake = -1;
    c->seat = CR_SEAT_PUBLIC;
    c->bucket = 2.0 * sv->cfg.max_msg_rate;
    c->bucket_t = sv_mono();
    c->rp_bucket = 2.0 * SV_REPLAY_RATE;
    c->rp_t = c->bucket_t;
    pthread_mutex_init(&c->q_mu, NULL);
    const struct mg_request_info *ri = mg_get_request_info(mc);
    snprintf(c->addr, sizeof c->addr, "%s", ri ? ri->remote_addr : "");
    mg_set_user_connection_data(mc, c);
    c->fd = sv_conn_socket(mc);
    c->wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    pthread_attr_t at;
    pthread_t th;
    int ok = c->fd >= 0 && c->wake >= 0 && pthread_attr_init(&at) == 0;
    if (ok) {
        pthread_attr_setstacksize(&at, SV_CONN_STACK);
        ok = pthread_create(&th, &at, sv_conn_main, c) == 0;
        pthread_attr_destroy(&at);
    }
    if (!ok) {
        sv_log(sv, "cannot serve a WebSocket from %s (%s)", c->addr,
               c->fd < 0 ? "its socket was not found" : "no thread");
        mg_websocket_write(mc, MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE, "\x03\xf3", 2); /* 1011 */
        if (c->fd >= 0) shutdown(c->fd, SHUT_RD);
        return;
    }
    pthread_join(th, NULL); /* civetweb's worker waits: it holds the connection's slot */
}

/* Every frame is read by the connection's thread (sv_conn_main); civetweb
 * reads only the end of the socket once that thread is done. */
static int sv_ws_data(struct mg_connection *mc, int bits, char *data, size_t len, void *cb)
{
    (void)mc, (void)bits, (void)data, (void)len, (void)cb;
    return 0;
}

static void sv_ws_close(const struct mg_connection *mc, void *cb)
{
    (void)cb;
    sv_conn *c = mg_get_user_connection_data(mc);
    if (!c) return;
    sv_detach(c);
    sv_replay_drop(c);
    if (c->wake >= 0) close(c->wake);
    pthread_mutex_destroy(&c->q_mu);
    free(c->q);
    sb_free(&c->out);
    free(c);
}

/* GET /api/server: what the server holds and how its bots did (counters
 * since start; no game is named). */
static json_t *sv_server_json(sv_server *sv)
{
    pthread_mutex_lock(&sv->table_mu);
    int loaded = sv->n_games, running = sv->n_running, bots = sv->n_bots;
    pthread_mutex_unlock(&sv->table_mu);
    pthread_mutex_lock(&sv->job_mu);
    json_t *b = json_pack("{s:I,s:I,s:I,s:I,s:i}", "moves", (json_int_t)sv->bot_moves, "late",
                          (json_int_t)sv->bot_late, "over_memory", (json_int_t)sv->bot_heavy,
                          "stale", (json_int_t)sv->bot_stale, "thinking", sv->bot_thinking);
    pthread_mutex_unlock(&sv->job_mu);
    return json_pack("{s:i,s:i,s:i,s:i,s:o,s:I}", "v", 1, "games_loaded", loaded, "games_running",
                     running, "bot_seats", bots, "bots", b, "refused_per_addr",
                     (json_int_t)sv_accept_cap_refused());
}

static int sv_http_json(struct mg_connection *mc, json_t *o)
{
    char *s = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    if (!s) return 500;
    mg_printf(mc,
              "HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\n"
              "Cache-Control: no-store\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n",
              strlen(s));
    mg_write(mc, s, strlen(s));
    free(s);
    return 200;
}

/* GET /api/games/NAME/data[?hash=H]: the game's read-only data as its
 * data_json part writes it (18Dracula: the board the browser draws), for
 * the default table.  The answer carries the data hash as its ETag; asked
 * with ?hash= of that hash it is immutable (a client takes the hash from an
 * observation), with another hash it is 404. */
static int sv_http_data(struct mg_connection *mc, const struct mg_request_info *ri,
                        const char *rest)
{
    char name[32];
    size_t n = 0;
    while (n < sizeof name - 1 && ((rest[n] >= 'a' && rest[n] <= 'z') ||
                                   (rest[n] >= '0' && rest[n] <= '9') || rest[n] == '-'))
        n++;
    memcpy(name, rest, n);
    name[n] = '\0';
    const cr_game_def *def = n && strcmp(rest + n, "/data") == 0 ? sv_def(name) : NULL;
    if (!def || !def->parts || !def->parts->data_json) {
        mg_send_http_error(mc, 404, "%s", "no such game, or it has no data for clients");
        return 404;
    }
    cr_params p;
    memset(&p, 0, sizeof p);
    char err[256];
    cr_game *g = cr_game_new(def, &p, err, sizeof err);
    if (!g) {
        mg_send_http_error(mc, 500, "%s", "cannot make the game");
        return 500;
    }
    char hash[20];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)g->data_hash);
    char want[32] = "";
    if (ri->query_string)
        mg_get_var(ri->query_string, strlen(ri->query_string), "hash", want, sizeof want);
    if (want[0] && strcmp(want, hash) != 0) {
        cr_game_free(g);
        mg_send_http_error(mc, 404, "%s", "this server has other data for that game");
        return 404;
    }
    size_t len = def->parts->data_json(g, NULL, 0);
    char *body = malloc(len + 1);
    if (body) def->parts->data_json(g, body, len + 1);
    cr_game_free(g);
    if (!body) {
        mg_send_http_error(mc, 500, "%s", "out of memory");
        return 500;
    }
    const char *inm = mg_get_header(mc, "If-None-Match");
    char etag[24];
    snprintf(etag, sizeof etag, "\"%s\"", hash);
    int same = inm && strcmp(inm, etag) == 0;
    mg_printf(mc,
              "HTTP/1.1 %s\r\nContent-Type: application/json; charset=utf-8\r\n"
              "Cache-Control: %s\r\nETag: %s\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n",
              same ? "304 Not Modified" : "200 OK",
              want[0] ? "public, max-age=31536000, immutable" : "no-cache", etag, same ? 0 : len);
    if (!same) mg_write(mc, body, len);
    free(body);
    return same ? 304 : 200;
}

static int sv_http_api(struct mg_connection *mc, void *cb)
{
    sv_server *sv = cb;
    const struct mg_request_info *ri = mg_get_request_info(mc);
    const char *uri = ri->local_uri ? ri->local_uri : "";
    if (strcmp(ri->request_method, "GET") != 0) {
        mg_send_http_error(mc, 405, "%s", "GET only");
        return 405;
    }
    if (strcmp(uri, "/api/info") == 0) return sv_http_json(mc, sv_welcome(sv));
    if (strcmp(uri, "/api/stats") == 0) return sv_http_json(mc, sv_stats_json(sv));
    if (strcmp(uri, "/api/server") == 0) return sv_http_json(mc, sv_server_json(sv));
    if (strncmp(uri, "/api/games/", 11) == 0) return sv_http_data(mc, ri, uri + 11);
    if (strcmp(uri, "/api/games") == 0) {
        int status = 0;
        char st[16] = "";
        if (ri->query_string)
            mg_get_var(ri->query_string, strlen(ri->query_string), "status", st, sizeof st);
        if (strcmp(st, "open") == 0) status = 1;
        if (strcmp(st, "running") == 0) status = 2;
        if (strcmp(st, "finished") == 0) status = 3;
        return sv_http_json(mc, sv_games_json(sv, status));
    }
    mg_send_http_error(mc, 404, "%s", "no such endpoint");
    return 404;
}

static int sv_log_message(const struct mg_connection *mc, const char *msg)
{
    const sv_server *sv = mg_get_user_data(mg_get_context(mc));
    sv_log(sv, "civetweb: %s", msg);
    return 1;
}

/* ---- start and stop ---- */

void sv_config_defaults(sv_config *c)
{
    memset(c, 0, sizeof *c);
    c->listen = "127.0.0.1:8080";
    c->db = "sqlite:croupier.db";
    c->web = NULL;
    c->max_frame = 16384;
    c->max_msg_rate = 50;
    c->max_conns = 256;
    c->max_games = 1000;
    c->max_bots = 2000;
    c->bot_threads = 2;
    c->bot_max_iters = 5000;
    c->bot_deadline_ms = 2000;
    c->bot_memory_mb = 64;
    c->webhooks = 1;
    c->claim_ms = 1000;
    c->max_conns_per_addr = 32;
    c->handshake_ms = 10000;
    c->idle_ms = 60000;
    c->frame_ms = 10000;
    c->max_outbox = (size_t)4 << 20;
}

typedef struct sv_idlist {
    char (*ids)[CR_STORE_ID_LEN + 1];
    int n, cap;
} sv_idlist;

static int sv_collect_id(void *arg, const cr_store_game *g)
{
    sv_idlist *l = arg;
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 64;
        char(*p)[CR_STORE_ID_LEN + 1] = realloc(l->ids, sizeof *p * (size_t)cap);
        if (!p) return 1;
        l->ids = p;
        l->cap = cap;
    }
    snprintf(l->ids[l->n++], CR_STORE_ID_LEN + 1, "%s", g->id);
    return 0;
}

/* Takes over every running game of the store that no process holds
 * (replaying its record); a game stored under another rules version is
 * marked outdated, never replayed.  At start this resumes the server's own
 * games after a restart; later sweeps (a shared store only) take the games
 * of a server process that stopped or died. */
static void sv_claim_sweep(sv_server *sv, int at_start)
{
    sv_idlist l = {0};
    char err[256];
    sv->store->ops->list(sv->store, CR_STORE_RUNNING, 1 << 30, sv_collect_id, &l, err, sizeof err);
    int resumed = 0, outdated = 0;
    for (int i = 0; i < l.n; i++) {
        sv_game *held = sv_find_loaded(sv, l.ids[i]);
        if (held) {
            sv_game_put(held);
            continue;
        }
        int elsewhere = 0;
        sv_game *g = sv_take_over(sv, l.ids[i], &elsewhere);
        if (!g) continue;
        pthread_mutex_lock(&g->mu);
        int out = g->outdated;
        pthread_mutex_unlock(&g->mu);
        sv_game_put(g);
        if (out)
            outdated++;
        else
            resumed++;
    }
    free(l.ids);
    if (at_start && l.n)
        sv_log(sv, "resumed %d games (%d outdated, kept as stored)", resumed, outdated);
    else if (resumed + outdated)
        sv_log(sv, "took over %d running games no server held (%d outdated)", resumed + outdated,
               outdated);
}

/* Makes the process's server (the store, the bot workers, the clock and
 * webhook threads) and resumes its running games; no listener.  Returns
 * the server, or NULL after one line on stderr. */
static sv_server *sv_start(const sv_config *cfg)
{
    if (sodium_init() < 0) {
        fprintf(stderr, "croupier: error: libsodium cannot start\n");
        return NULL;
    }
    sv_server *S = calloc(1, sizeof *S);
    if (!S) return NULL;
    S->cfg = *cfg;
    pthread_mutex_init(&S->table_mu, NULL);
    pthread_mutex_init(&S->job_mu, NULL);
    pthread_cond_init(&S->job_cv, NULL);
    pthread_mutex_init(&S->hook_mu, NULL);
    pthread_cond_init(&S->hook_cv, NULL);
    char err[512];
    S->store = cr_store_open(cfg->db, err, sizeof err);
    if (!S->store) {
        fprintf(stderr, "croupier: error: %s\n", err);
        free(S);
        return NULL;
    }
    S->n_workers = cfg->bot_threads;
    S->workers = calloc((size_t)S->n_workers, sizeof *S->workers);
    for (int i = 0; i < S->n_workers; i++) pthread_create(&S->workers[i], NULL, sv_worker, S);
    pthread_create(&S->clock_thread, NULL, sv_clock_main, S);
    pthread_create(&S->hook_thread, NULL, sv_hook_main, S);
    sv_claim_sweep(S, 1);
    return S;
}

/* Stops the threads sv_start made and frees the server (no connection is
 * left). */
static void sv_finish(sv_server *S)
{
    pthread_mutex_lock(&S->job_mu);
    S->stopping = 1;
    pthread_cond_broadcast(&S->job_cv);
    pthread_mutex_unlock(&S->job_mu);
    pthread_mutex_lock(&S->hook_mu);
    S->hook_stop = 1;
    pthread_cond_broadcast(&S->hook_cv);
    pthread_mutex_unlock(&S->hook_mu);
    for (int i = 0; i < S->n_workers; i++) pthread_join(S->workers[i], NULL);
    pthread_join(S->clock_thread, NULL);
    pthread_join(S->hook_thread, NULL);
    free(S->workers);
    while (S->hook_head) {
        sv_hook *h = S->hook_head;
        S->hook_head = h->next;
        free(h);
    }
    /* bot jobs never run hold references: give them back */
    while (S->job_head) {
        sv_game *g = S->job_head;
        S->job_head = g->next_job;
        sv_game_put(g);
    }
    for (int i = 0; i < S->n_games; i++) sv_game_free(S->games[i]); /* every thread is gone */
    free(S->games);
    cr_store_close(S->store);
    free(S);
}

int sv_run(const sv_config *cfg, volatile sig_atomic_t *stop)
{
    sv_server *S = sv_start(cfg);
    if (!S) return 1;
    int rc = 1;

    char threads[16];
    snprintf(threads, sizeof threads, "%d", cfg->max_conns + 4);
    const char *opts[32];
    int k = 0;
    opts[k++] = "listening_ports";
    opts[k++] = cfg->listen;
    opts[k++] = "num_threads";
    opts[k++] = threads;
    opts[k++] = "enable_directory_listing";
    opts[k++] = "no";
    opts[k++] = "enable_keep_alive";
    opts[k++] = "no";
    opts[k++] = "tcp_nodelay"; /* an update is one small frame: never wait for Nagle */
    opts[k++] = "1";
    /* the whole HTTP request head, a WebSocket's upgrade included, must
     * arrive within the handshake deadline (civetweb measures it from the
     * first byte; after the upgrade the connection's thread keeps its own
     * deadlines) */
    char handshake[16];
    snprintf(handshake, sizeof handshake, "%d", cfg->handshake_ms);
    opts[k++] = "request_timeout_ms";
    opts[k++] = handshake;
    if (cfg->web) {
        opts[k++] = "document_root";
        opts[k++] = cfg->web;
    }
    opts[k] = NULL;
    struct mg_callbacks cbs;
    memset(&cbs, 0, sizeof cbs);
    cbs.log_message = sv_log_message;
    sv_accept_cap_set(cfg->max_conns_per_addr);
    mg_init_library(0);
    S->ctx = mg_start(&cbs, S, opts); /* the context's user data: sv_log_message's server */
    if (!S->ctx) {
        fprintf(stderr, "croupier: error: cannot listen on %s\n", cfg->listen);
        goto out;
    }
    mg_set_websocket_handler(S->ctx, "/ws", sv_ws_connect, sv_ws_ready, sv_ws_data, sv_ws_close, S);
    mg_set_request_handler(S->ctx, "/api/", sv_http_api, S);
    struct mg_server_port ports[4];
    int np = mg_get_server_ports(S->ctx, 4, ports);
    char host[64];
    snprintf(host, sizeof host, "%s", cfg->listen);
    char *colon = strrchr(host, ':');
    if (colon) *colon = '\0';
    printf("croupier serve: listening on http://%s:%d/ (store: %s)\n", colon ? host : "0.0.0.0",
           np > 0 ? ports[0].port : 0, S->store->ops->name);
    fflush(stdout);
    /* A shared store: look for games no server holds every claim_ms
     * (a SQLite file has one server, which resumed them all at start). */
    int sweep = cfg->claim_ms > 0 && strcmp(S->store->ops->name, "sqlite") != 0;
    double next_sweep = sv_mono() + cfg->claim_ms / 1000.0;
    while (!*stop) {
        struct timespec ts = {0, 50 * 1000000L};
        nanosleep(&ts, NULL);
        if (sweep && sv_mono() >= next_sweep) {
            sv_claim_sweep(S, 0);
            next_sweep = sv_mono() + cfg->claim_ms / 1000.0;
        }
    }
    sv_log(S, "stopping");
    __atomic_store_n(&S->conns_stop, 1, __ATOMIC_RELEASE); /* each connection's thread ends */
    mg_stop(S->ctx);
    mg_exit_library();
    sv_accept_cap_set(0);
    rc = 0;
out:
    sv_finish(S);
    return rc;
}

/* ---- a server without a listener, for the fuzz target (server.h) ---- */

sv_server *sv_local_open(const sv_config *cfg) { return sv_start(cfg); }

void sv_local_close(sv_server *sv)
{
    if (sv) sv_finish(sv);
}

struct sv_local_conn {
    sv_conn c;
    sv_ws_dec d;
};

sv_conn *sv_local_conn(sv_server *sv, void (*sink)(void *arg, int op, const void *data, size_t len),
                       void *arg)
{
    struct sv_local_conn *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    if (sv_ws_init(&l->d, sv->cfg.max_frame) != 0) {
        free(l);
        return NULL;
    }
    sv_conn *c = &l->c;
    c->srv = sv;
    c->fd = -1;
    c->wake = -1;
    c->seat = CR_SEAT_PUBLIC;
    c->bucket = 2.0 * sv->cfg.max_msg_rate;
    c->bucket_t = sv_mono();
    c->rp_bucket = 2.0 * SV_REPLAY_RATE;
    c->rp_t = c->bucket_t;
    c->sink = sink;
    c->sink_arg = arg;
    pthread_mutex_init(&c->q_mu, NULL);
    return c;
}

int sv_local_feed(sv_conn *c, const uint8_t *bytes, size_t n)
{
    struct sv_local_conn *l = (struct sv_local_conn *)c;
    const char *why = "";
    return sv_conn_bytes(c, &l->d, bytes, n, &why);
}

void sv_local_conn_free(sv_conn *c)
{
    struct sv_local_conn *l = (struct sv_local_conn *)c;
    sv_detach(c);
    sv_replay_drop(c);
    sv_ws_free(&l->d);
    pthread_mutex_destroy(&c->q_mu);
    sb_free(&c->out);
    free(l);
}
