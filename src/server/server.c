/* server/server.c — `croupier serve` (server.h, docs/server.md): the
 * server's start and stop, and the small tools every room of it uses (the
 * clocks, the log; replies are built in the text kit's cr_text,
 * croupier/text.h).
 *
 * The server is split by what it does (server_internal.h names the rooms):
 * transport.c (HTTP, WebSocket, webhooks), handlers.c (one function per
 * message), games.c (the live games table, building games from the store,
 * storing their entries, views, clocks) and bots.c (the bot workers).
 *
 * Threads: civetweb's workers (one per WebSocket connection, each handing
 * it to a thread of its own) run the message handlers; a small pool plays
 * bot seats; one thread runs the clocks; one posts webhooks.  sv_start
 * makes the server and its threads, each given the server as its argument;
 * sv_finish stops them and frees it.  The server keeps no process-global;
 * the one process-wide state of src/server is accept_cap.c's, which must
 * be: it defines accept() for civetweb, a call with no user pointer.
 *
 * Lock order: as server_internal.h says (a game's mutex, then one leaf).
 * sv_finish frees the games only once every thread of the server has been
 * joined (civetweb's stopped first, in sv_run).
 *
 * Durability: sv_start resumes the store's running games from their
 * records before the listener opens; nothing is told to a client that the
 * store does not hold (server_internal.h).
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
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
#include "server/server_internal.h"

/* ---- clocks of the process ---- */

int64_t sv_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

double sv_mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int sv_run_on_stack(size_t stack, void *(*fn)(void *), void *arg)
{
    pthread_attr_t attr;
    pthread_t t;
    int ok = pthread_attr_init(&attr) == 0;
    if (ok) {
        ok =
            pthread_attr_setstacksize(&attr, stack) == 0 && pthread_create(&t, &attr, fn, arg) == 0;
        pthread_attr_destroy(&attr);
    }
    if (ok) pthread_join(t, NULL);
    return ok;
}

void sv_log(const sv_server *sv, const char *fmt, ...)
{
    if (sv && sv->cfg.quiet) return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "croupier serve: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
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
    sv_coach_free(S);
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
    sv_conn_init(c, sv);
    c->sink = sink;
    c->sink_arg = arg;
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
    cr_text_free(&c->out);
    free(l);
}
