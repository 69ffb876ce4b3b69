/* load_server.c — load on a real `croupier serve` over loopback.
 *
 *   bench_load_server CROUPIER [--games N] [--seconds S] [--bots SPEC] [--db PATH]
 *                     [--pg URL]
 *
 * Starts CROUPIER serve on a free loopback port with a fresh SQLite file,
 * then N clients, each playing the human seat of its own game against
 * three SPEC bots (default random), choosing a random legal action as soon
 * as it is its turn and starting a new game when one ends.  Reports, over
 * S seconds (default 20): acknowledged human actions per second with the
 * p50/p99/max latency of an acknowledgement (from sending `act` to
 * receiving `ack`, i.e. until the action is durably stored), and every
 * record action stored per second (chance, bots and humans: the rows the
 * store wrote), counted in the database after the server stopped.
 * --pg URL: the server's store is that PostgreSQL database instead, in a
 * schema of the run's own (search_path in the server's URL), dropped at
 * the end: every run starts from empty tables, as the SQLite run does, and
 * leaves no running games behind for the next run's server to take over.
 * --port N: the server listens on 127.0.0.1:N instead of a free port;
 * --via HOST:PORT: the clients connect there (plain ws://), to a proxy in
 * front of that server, instead of to the server itself
 * (bench/load_via_haproxy.sh runs it through deploy/haproxy.cfg). */
#include <jansson.h>
#include <libpq-fe.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "civetweb.h"
#include "croupier/rng.h"

typedef struct lc {
    struct mg_connection *mc;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    char **q;
    int n, cap, head;
    int closed;
    double *lat;
    int n_lat, cap_lat;
    long games;
    int index;
} lc;

static int port;
static char host[256] = "127.0.0.1";
static const char *bots = "random";
static volatile int stop_flag;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int on_data(struct mg_connection *mc, int bits, char *data, size_t len, void *arg)
{
    (void)mc;
    lc *c = arg;
    if ((bits & 0x0f) != MG_WEBSOCKET_OPCODE_TEXT) return 1;
    char *m = malloc(len + 1);
    memcpy(m, data, len);
    m[len] = 0;
    pthread_mutex_lock(&c->mu);
    if (c->n - c->head == c->cap || c->n == c->cap) {
        /* compact, then grow */
        memmove(c->q, c->q + c->head, sizeof *c->q * (size_t)(c->n - c->head));
        c->n -= c->head;
        c->head = 0;
        if (c->n == c->cap) {
            c->cap = c->cap ? c->cap * 2 : 64;
            c->q = realloc(c->q, sizeof *c->q * (size_t)c->cap);
        }
    }
    c->q[c->n++] = m;
    pthread_cond_signal(&c->cv);
    pthread_mutex_unlock(&c->mu);
    return 1;
}

static void on_close(const struct mg_connection *mc, void *arg)
{
    (void)mc;
    lc *c = arg;
    pthread_mutex_lock(&c->mu);
    c->closed = 1;
    pthread_cond_signal(&c->cv);
    pthread_mutex_unlock(&c->mu);
}

static json_t *next_msg(lc *c)
{
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    dl.tv_sec += 30;
    pthread_mutex_lock(&c->mu);
    while (c->head == c->n && !c->closed)
        if (pthread_cond_timedwait(&c->cv, &c->mu, &dl) != 0) break;
    char *m = c->head < c->n ? c->q[c->head++] : NULL;
    pthread_mutex_unlock(&c->mu);
    if (!m) return NULL;
    json_t *o = json_loads(m, 0, NULL);
    free(m);
    return o;
}

/* One frame in one write (see tests/server/test_server.c: Nagle). */
static void send_text(lc *c, const char *text)
{
    size_t len = strlen(text), h = 0;
    unsigned char *f = malloc(len + 14);
    f[h++] = 0x81;
    if (len < 126) {
        f[h++] = (unsigned char)(0x80 | len);
    } else {
        f[h++] = 0x80 | 126;
        f[h++] = (unsigned char)(len >> 8);
        f[h++] = (unsigned char)len;
    }
    memset(f + h, 0, 4);
    h += 4;
    memcpy(f + h, text, len);
    mg_write(c->mc, f, h + len);
    free(f);
}

static const char *type_of(json_t *o)
{
    const char *t = json_string_value(json_object_get(o, "type"));
    return t ? t : "";
}

static void *client_main(void *arg)
{
    lc *c = arg;
    char err[256], msg[512];
    c->mc = mg_connect_websocket_client(host, port, 0, err, sizeof err, "/ws", NULL, on_data,
                                        on_close, c);
    if (!c->mc) {
        fprintf(stderr, "client %d: %s\n", c->index, err);
        return NULL;
    }
    cr_rng rng;
    cr_rng_seed(&rng, 1234, (uint64_t)c->index);
    while (!stop_flag) {
        snprintf(msg, sizeof msg,
                 "{\"v\":1,\"type\":\"create\",\"game\":\"dml\",\"seats\":[\"human\",\"%s\",\"%s\","
                 "\"%s\"],\"sit\":0}",
                 bots, bots, bots);
        send_text(c, msg);
        int over = 0;
        while (!over && !stop_flag) {
            json_t *o = next_msg(c);
            if (!o) return NULL;
            if (strcmp(type_of(o), "error") == 0) {
                fprintf(stderr, "client %d: %s\n", c->index,
                        json_string_value(json_object_get(o, "message")));
                json_decref(o);
                return NULL;
            }
            if (strcmp(type_of(o), "update") != 0) {
                json_decref(o);
                continue;
            }
            if (json_is_true(json_object_get(o, "over"))) {
                over = 1;
                c->games++;
            } else if (json_is_true(json_object_get(o, "your_turn"))) {
                json_t *acts = json_object_get(o, "actions");
                size_t n = json_array_size(acts);
                json_t *a = json_array_get(acts, cr_rng_below(&rng, (uint32_t)n));
                snprintf(msg, sizeof msg,
                         "{\"v\":1,\"type\":\"act\",\"id\":1,\"decision\":%lld,\"action\":%lld}",
                         (long long)json_integer_value(json_object_get(o, "decision")),
                         (long long)json_integer_value(json_object_get(a, "id")));
                double t0 = now_s();
                send_text(c, msg);
                for (;;) {
                    json_t *r = next_msg(c);
                    if (!r) {
                        json_decref(o);
                        return NULL;
                    }
                    const char *t = type_of(r);
                    int done = strcmp(t, "ack") == 0 || strcmp(t, "error") == 0;
                    if (strcmp(t, "ack") == 0) {
                        if (c->n_lat == c->cap_lat) {
                            c->cap_lat = c->cap_lat ? c->cap_lat * 2 : 1024;
                            c->lat = realloc(c->lat, sizeof *c->lat * (size_t)c->cap_lat);
                        }
                        c->lat[c->n_lat++] = (now_s() - t0) * 1000;
                    }
                    json_decref(r);
                    if (done) break;
                }
            }
            json_decref(o);
        }
    }
    return NULL;
}

/* Waits (up to 10 s) until GET /api/server through host:port answers 200:
 * a proxy's health checks must first find the server just started. */
static int wait_ready(void)
{
    for (int i = 0; i < 100; i++) {
        char err[256];
        struct mg_connection *mc = mg_download(host, port, 0, err, sizeof err,
                                               "GET /api/server HTTP/1.1\r\nHost: %s\r\n"
                                               "Connection: close\r\n\r\n",
                                               host);
        int status = 0;
        if (mc) {
            const struct mg_response_info *ri = mg_get_response_info(mc);
            status = ri ? ri->status_code : 0;
            mg_close_connection(mc);
        }
        if (status == 200) return 1;
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return 0;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static long count_rows(const char *db)
{
    sqlite3 *h;
    long n = -1;
    if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(h, "SELECT count(*) FROM entries", -1, &st, NULL) == SQLITE_OK) {
            if (sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int64(st, 0);
            sqlite3_finalize(st);
        }
    }
    sqlite3_close(h);
    return n;
}

/* Rows of entries in a PostgreSQL store (-1: unreadable; 0 when the server
 * made no tables). */
static long count_pg_rows(const char *url)
{
    PGconn *c = PQconnectdb(url);
    long n = -1;
    if (PQstatus(c) == CONNECTION_OK) {
        PGresult *r = PQexec(c, "SELECT count(*) FROM entries");
        n = PQresultStatus(r) == PGRES_TUPLES_OK ? atol(PQgetvalue(r, 0, 0)) : 0;
        PQclear(r);
    }
    PQfinish(c);
    return n;
}

/* Whether `croupier serve --help` names flag (a server from before the flag
 * existed is benchmarked too, for before/after figures in one run). */
static int serve_knows(const char *croupier, const char *flag)
{
    int fds[2];
    if (pipe(fds) != 0) return 0;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        execl(croupier, croupier, "serve", "--help", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    FILE *f = fdopen(fds[0], "r");
    char line[512];
    int found = 0;
    while (f && fgets(line, sizeof line, f))
        if (strstr(line, flag)) found = 1;
    if (f) fclose(f);
    waitpid(pid, NULL, 0);
    return found;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_load_server CROUPIER [--games N] [--seconds S] [--bots SPEC]"
                        " [--db PATH] [--pg URL] [--port N] [--via HOST:PORT]\n");
        return 2;
    }
    const char *croupier = argv[1];
    int games = 64;
    double seconds = 20;
    char db[512];
    const char *pg = NULL, *via = NULL;
    int listen_port = 0;
    snprintf(db, sizeof db, "/tmp/croupier-load-%d.db", (int)getpid());
    for (int i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--games") == 0)
            games = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--seconds") == 0)
            seconds = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--bots") == 0)
            bots = argv[i + 1];
        else if (strcmp(argv[i], "--db") == 0)
            snprintf(db, sizeof db, "%s", argv[i + 1]);
        else if (strcmp(argv[i], "--pg") == 0)
            pg = argv[i + 1];
        else if (strcmp(argv[i], "--port") == 0)
            listen_port = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--via") == 0)
            via = argv[i + 1];
    }
    const char *via_colon = via ? strrchr(via, ':') : NULL;
    if (via && (!via_colon || via_colon == via || (size_t)(via_colon - via) >= sizeof host ||
                atoi(via_colon + 1) <= 0)) {
        fprintf(stderr, "bench_load_server: --via needs HOST:PORT\n");
        return 2;
    }
    if (listen_port < 0 || listen_port > 65535) {
        fprintf(stderr, "bench_load_server: --port 0..65535\n");
        return 2;
    }
    if (games < 1 || games > 240 || seconds <= 0) {
        fprintf(stderr, "bench_load_server: --games 1..240, --seconds > 0\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    PGconn *admin = NULL;
    char schema[64], pg_url[2048];
    if (pg) {
        snprintf(schema, sizeof schema, "croupier_bench_%d", (int)getpid());
        admin = PQconnectdb(pg);
        char sql[128];
        snprintf(sql, sizeof sql, "CREATE SCHEMA %s", schema);
        PGresult *r = PQstatus(admin) == CONNECTION_OK ? PQexec(admin, sql) : NULL;
        if (PQresultStatus(r) != PGRES_COMMAND_OK) {
            fprintf(stderr, "bench_load_server: --pg: cannot make schema %s: %s", schema,
                    PQerrorMessage(admin));
            return 1;
        }
        PQclear(r);
        if (snprintf(pg_url, sizeof pg_url, "%s%soptions=-csearch_path%%3D%s", pg,
                     strchr(pg, '?') ? "&" : "?", schema) >= (int)sizeof pg_url) {
            fprintf(stderr, "bench_load_server: --pg: URL too long\n");
            return 1;
        }
        pg = pg_url;
    }
    int per_addr = serve_knows(croupier, "--max-conns-per-addr");
    int fds[2];
    if (pipe(fds) != 0) return 1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        char dbarg[2100];
        snprintf(dbarg, sizeof dbarg, "sqlite:%s", db);
        if (pg) snprintf(dbarg, sizeof dbarg, "%s", pg);
        char addr[32];
        snprintf(addr, sizeof addr, "127.0.0.1:%d", listen_port);
        /* every client is on loopback: one address, past the default cap */
        if (per_addr)
            execl(croupier, croupier, "serve", "--listen", addr, "--db", dbarg, "--quiet",
                  "--max-bots", "100000", "--max-msg-rate", "100000", /* scripted clients */
                  "--max-conns-per-addr", "100000", (char *)NULL);
        else
            execl(croupier, croupier, "serve", "--listen", addr, "--db", dbarg, "--quiet",
                  "--max-bots", "100000", "--max-msg-rate", "100000", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    FILE *out = fdopen(fds[0], "r");
    char line[256] = "";
    if (!fgets(line, sizeof line, out) || !strstr(line, "127.0.0.1:")) {
        fprintf(stderr, "bench_load_server: the server did not start\n");
        return 1;
    }
    port = atoi(strstr(line, "127.0.0.1:") + 10);
    if (via) {
        snprintf(host, sizeof host, "%.*s", (int)(via_colon - via), via);
        port = atoi(via_colon + 1);
    }
    mg_init_library(0);
    if (via && !wait_ready()) {
        fprintf(stderr, "bench_load_server: %s does not answer GET /api/server\n", via);
        kill(pid, SIGTERM);
        waitpid(pid, NULL, 0);
        return 1;
    }
    lc *cl = calloc((size_t)games, sizeof *cl);
    pthread_t *th = calloc((size_t)games, sizeof *th);
    double t0 = now_s();
    for (int i = 0; i < games; i++) {
        cl[i].index = i;
        pthread_mutex_init(&cl[i].mu, NULL);
        pthread_cond_init(&cl[i].cv, NULL);
        pthread_create(&th[i], NULL, client_main, &cl[i]);
    }
    struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    nanosleep(&ts, NULL);
    stop_flag = 1;
    double elapsed = now_s() - t0;
    kill(pid, SIGTERM); /* clients blocked on a reply see the close */
    int st;
    waitpid(pid, &st, 0);
    for (int i = 0; i < games; i++) pthread_join(th[i], NULL);
    long n = 0, finished = 0;
    for (int i = 0; i < games; i++) n += cl[i].n_lat, finished += cl[i].games;
    double *all = malloc(sizeof *all * (size_t)(n ? n : 1));
    long k = 0;
    for (int i = 0; i < games; i++) {
        memcpy(all + k, cl[i].lat, sizeof *all * (size_t)cl[i].n_lat);
        k += cl[i].n_lat;
    }
    qsort(all, (size_t)n, sizeof *all, cmp_d);
    long rows = pg ? count_pg_rows(pg) : count_rows(db);
    printf("load: %d concurrent games (1 human client + 3 %s bots each), %.1f s, %s %s%s%s\n",
           games, bots, elapsed, pg ? "PostgreSQL" : "SQLite", pg ? "(--pg)" : db,
           via ? ", clients through " : "", via ? via : "");
    printf("  acknowledged human actions: %ld (%.0f/s); latency ms p50 %.2f p99 %.2f max %.2f\n", n,
           n / elapsed, n ? all[n / 2] : 0.0, n ? all[(long)(n * 0.99)] : 0.0,
           n ? all[n - 1] : 0.0);
    printf("  record actions stored (chance, bots, humans): %ld (%.0f/s); games finished: %ld\n",
           rows, rows / elapsed, finished);
    for (int i = 0; i < games; i++) {
        if (cl[i].mc) mg_close_connection(cl[i].mc);
        for (int j = cl[i].head; j < cl[i].n; j++) free(cl[i].q[j]);
        free(cl[i].q);
        free(cl[i].lat);
    }
    free(all);
    free(cl);
    free(th);
    mg_exit_library();
    if (admin) {
        char sql[128];
        snprintf(sql, sizeof sql, "DROP SCHEMA %s CASCADE", schema);
        PQclear(PQexec(admin, sql));
        PQfinish(admin);
    }
    char p[600];
    const char *sfx[] = {"", "-wal", "-shm", ".lock"};
    for (int i = 0; i < 4; i++) {
        snprintf(p, sizeof p, "%s%s", db, sfx[i]);
        unlink(p);
    }
    return 0;
}
