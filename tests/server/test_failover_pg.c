/* tests/server/test_failover_pg.c — issue 9's scale test: two `croupier
 * serve` processes on one PostgreSQL database.  A game is created and
 * partly played through the first; the second refuses it while the first
 * holds it (`elsewhere`, and no upgrade of /ws?game=ID: the routing check a
 * proxy relies on); the first is killed (kill -9); the second takes the
 * game over on its own (its claim sweep) and the game goes on there with
 * every acknowledged action: the seat's decision number counts them all, the
 * events seen through the first are the same events through the second, and
 * the game is played to its end on the second.  A game with a clock moves
 * with its clock: the time its seat spent on the first server stays spent.
 *
 * Real processes, started as users start them (the `croupier` program), on
 * loopback; a WebSocket client made with civetweb's client API.  Needs
 * CROUPIER_TEST_PG (scripts/pg-test-db.sh); skipped with a message when
 * unset, failed when CROUPIER_REQUIRE_PG=1 (CI).  The run uses a schema of
 * its own (search_path in the URL), dropped at the end. */
#include <fcntl.h>
#include <jansson.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <libpq-fe.h>

#include "civetweb.h"

enum { WAIT_MS = 15000, MAX_SEQ = 1 << 16 };

static const char *base_url;
static char schema[64];
static char db_url[1200];
static PGconn *admin;
static pid_t started[8]; /* killed at the end if a failed test left them running */
static int n_started;

/* ---- a server process ---- */

typedef struct server {
    pid_t pid;
    int port;
    char log[256]; /* its stderr */
} server;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Starts `croupier serve` on a free loopback port and reads the port from
 * its "listening on" line. */
static void server_start(server *sv, const char *name, const char *claim_ms)
{
    snprintf(sv->log, sizeof sv->log, "/tmp/cr-failover-%d-%s.log", (int)getpid(), name);
    int out[2];
    assert_int_equal(pipe(out), 0);
    fflush(NULL);
    sv->pid = fork();
    assert_true(sv->pid >= 0);
    if (sv->pid > 0 && n_started < 8) started[n_started++] = sv->pid;
    if (sv->pid == 0) {
        int logfd = open(sv->log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(out[1], 1);
        if (logfd >= 0) dup2(logfd, 2);
        close(out[0]);
        execl(CR_CLI_PATH, "croupier", "serve", "--listen", "127.0.0.1:0", "--db", db_url,
              "--claim-interval-ms", claim_ms, "--max-msg-rate", "100000", /* scripted clients */
              (char *)NULL);
        _exit(127);
    }
    close(out[1]);
    FILE *f = fdopen(out[0], "r");
    assert_non_null(f);
    char line[512] = "";
    sv->port = 0;
    while (fgets(line, sizeof line, f)) {
        const char *p = strstr(line, "listening on http://127.0.0.1:");
        if (p) {
            sv->port = atoi(p + strlen("listening on http://127.0.0.1:"));
            break;
        }
    }
    fclose(f); /* the server's later stdout lines go nowhere (it ignores SIGPIPE) */
    if (!sv->port) fprintf(stderr, "server %s did not start; see %s\n", name, sv->log);
    assert_true(sv->port > 0);
}

/* Whether the server's log has a line containing `what`, looking again
 * every 50 ms for up to `ms` (at least once). */
static int server_logged(const server *sv, const char *what, int ms)
{
    for (double end = now_s() + ms / 1000.0;; nap_ms(50)) {
        FILE *f = fopen(sv->log, "r");
        char line[512];
        int found = 0;
        while (f && !found && fgets(line, sizeof line, f)) found = strstr(line, what) != NULL;
        if (f) fclose(f);
        if (found) return 1;
        if (now_s() >= end) return 0;
    }
}

/* ---- a WebSocket client ---- */

typedef struct wsc_msg {
    char *text;
    struct wsc_msg *next;
} wsc_msg;

typedef struct wsc {
    struct mg_connection *mc;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    wsc_msg *head, *tail;
    int closed;
    long long next_id;
} wsc;

static int wsc_data(struct mg_connection *mc, int bits, char *data, size_t len, void *arg)
{
    (void)mc;
    wsc *w = arg;
    if ((bits & 0x0f) != MG_WEBSOCKET_OPCODE_TEXT) return 1;
    wsc_msg *m = calloc(1, sizeof *m);
    if (!m || !(m->text = malloc(len + 1))) {
        free(m);
        return 1;
    }
    memcpy(m->text, data, len);
    m->text[len] = '\0';
    pthread_mutex_lock(&w->mu);
    if (w->tail)
        w->tail->next = m;
    else
        w->head = m;
    w->tail = m;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    return 1;
}

static void wsc_closed(const struct mg_connection *mc, void *arg)
{
    (void)mc;
    wsc *w = arg;
    pthread_mutex_lock(&w->mu);
    w->closed = 1;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

static wsc *wsc_open(int port)
{
    wsc *w = calloc(1, sizeof *w);
    assert_non_null(w);
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    char err[256] = "";
    w->mc = mg_connect_websocket_client("127.0.0.1", port, 0, err, sizeof err, "/ws", NULL,
                                        wsc_data, wsc_closed, w);
    if (!w->mc) fprintf(stderr, "websocket to port %d: %s\n", port, err);
    assert_non_null(w->mc);
    return w;
}

static void wsc_close(wsc *w)
{
    if (w->mc) mg_close_connection(w->mc);
    while (w->head) {
        wsc_msg *m = w->head;
        w->head = m->next;
        free(m->text);
        free(m);
    }
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    free(w);
}

/* Whether the server on port upgrades a WebSocket opened at path: a
 * refusal is a connection closed without a 101, which a proxy in front
 * retries on another process (deploy/haproxy.cfg). */
static int upgrade_accepted(int port, const char *path)
{
    wsc *w = calloc(1, sizeof *w);
    assert_non_null(w);
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    char err[256] = "";
    w->mc = mg_connect_websocket_client("127.0.0.1", port, 0, err, sizeof err, path, NULL, wsc_data,
                                        wsc_closed, w);
    int accepted = w->mc != NULL;
    wsc_close(w);
    return accepted;
}

/* Sends o (stolen) with v:1 and a fresh id; returns the id. */
static long long wsc_send(wsc *w, json_t *o)
{
    long long id = ++w->next_id;
    json_object_set_new(o, "v", json_integer(1));
    json_object_set_new(o, "id", json_integer(id));
    char *text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    assert_non_null(text);
    assert_true(mg_websocket_client_write(w->mc, MG_WEBSOCKET_OPCODE_TEXT, text, strlen(text)) > 0);
    free(text);
    return id;
}

/* The next message (new reference), or NULL after WAIT_MS or a close. */
static json_t *wsc_next(wsc *w)
{
    struct timespec end;
    clock_gettime(CLOCK_REALTIME, &end);
    end.tv_sec += WAIT_MS / 1000;
    pthread_mutex_lock(&w->mu);
    int rc = 0;
    while (!w->head && !w->closed && rc == 0) rc = pthread_cond_timedwait(&w->cv, &w->mu, &end);
    wsc_msg *m = w->head;
    if (m) {
        w->head = m->next;
        if (!w->head) w->tail = NULL;
    }
    pthread_mutex_unlock(&w->mu);
    if (!m) return NULL;
    json_error_t je;
    json_t *o = json_loads(m->text, 0, &je);
    free(m->text);
    free(m);
    assert_non_null(o);
    return o;
}

static const char *type_of(json_t *o) { return json_string_value(json_object_get(o, "type")); }

/* The next message of `type` (others are skipped; an error fails). */
static json_t *wsc_expect(wsc *w, const char *type)
{
    for (;;) {
        json_t *o = wsc_next(w);
        if (!o) fail_msg("no '%s' message within %d ms", type, WAIT_MS);
        const char *t = type_of(o);
        if (t && strcmp(t, type) == 0) return o;
        if (t && strcmp(t, "error") == 0 && strcmp(type, "error") != 0)
            fail_msg("error while waiting for '%s': %s", type,
                     json_string_value(json_object_get(o, "message")));
        json_decref(o);
    }
}

/* ---- the game as one seat sees it ---- */

typedef struct seat_view {
    char *events[MAX_SEQ]; /* each event's JSON (sorted keys), by seq */
    int max_seq;           /* events seen: 0..max_seq-1 may be set */
    int acked;             /* actions of ours the server acknowledged */
    int decision;          /* the last update's decision number */
    int over;
    unsigned rng;
} seat_view;

static void view_events(seat_view *v, json_t *events)
{
    size_t i;
    json_t *e;
    json_array_foreach(events, i, e)
    {
        json_int_t seq = json_integer_value(json_object_get(e, "seq"));
        assert_true(seq >= 0 && seq < MAX_SEQ);
        char *text = json_dumps(e, JSON_COMPACT | JSON_SORT_KEYS);
        assert_non_null(text);
        if (v->events[seq]) {
            assert_string_equal(v->events[seq], text); /* the same event every time */
            free(text);
        } else {
            v->events[seq] = text;
        }
        if (seq + 1 > v->max_seq) v->max_seq = (int)seq + 1;
    }
}

/* Plays our seat through w until `target` more actions are acknowledged or
 * the game is over: each update on our turn gets one action (a pseudo-random
 * pick of its controls), the next only after the ack. */
static void play(wsc *w, seat_view *v, int target)
{
    int goal = v->acked + target, waiting = 0;
    for (int guard = 0; guard < 100000 && v->acked < goal && !v->over; guard++) {
        json_t *o = wsc_next(w);
        if (!o) fail_msg("the server went quiet (acked %d)", v->acked);
        const char *t = type_of(o);
        if (t && strcmp(t, "update") == 0) {
            view_events(v, json_object_get(o, "events"));
            v->decision = (int)json_integer_value(json_object_get(o, "decision"));
            v->over = json_is_true(json_object_get(o, "over"));
            json_t *acts = json_object_get(o, "actions");
            if (!waiting && json_is_true(json_object_get(o, "your_turn")) &&
                json_array_size(acts)) {
                v->rng = v->rng * 1103515245u + 12345u;
                json_t *a = json_array_get(acts, (v->rng >> 16) % json_array_size(acts));
                wsc_send(w, json_pack("{s:s,s:i,s:O}", "type", "act", "decision", v->decision,
                                      "action", json_object_get(a, "id")));
                waiting = 1;
            }
        } else if (t && strcmp(t, "ack") == 0) {
            v->acked++;
            waiting = 0;
        } else if (t && strcmp(t, "error") == 0) {
            fail_msg("error: %s", json_string_value(json_object_get(o, "message")));
        }
        json_decref(o);
    }
}

/* Every event from seq 0, through `history` (pages of at most 500). */
static void history(wsc *w, seat_view *v)
{
    for (int since = 0, guard = 0; guard < 1000; guard++) {
        wsc_send(w, json_pack("{s:s,s:i}", "type", "history", "since", since));
        json_t *h = wsc_expect(w, "history");
        json_t *events = json_object_get(h, "events");
        view_events(v, events);
        size_t n = json_array_size(events);
        json_decref(h);
        if (n == 0) break;
        since = v->max_seq;
    }
}

static void view_free(seat_view *v)
{
    for (int i = 0; i < MAX_SEQ; i++) free(v->events[i]);
    free(v);
}

/* ---- the test ---- */

static void admin_exec(const char *sql)
{
    PGresult *r = PQexec(admin, sql);
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
    if (!ok) fprintf(stderr, "admin: %s", PQerrorMessage(admin));
    PQclear(r);
    assert_true(ok);
}

/* Creates a game on w (our seat 0 against three bots; with `clock`, stolen,
 * as its clock when not NULL): its id and token. */
static void create_game(wsc *w, json_t *clock, char *game_id, size_t idcap, char *token,
                        size_t tokcap)
{
    json_t *o = json_pack("{s:s,s:s,s:i,s:[ssss],s:i}", "type", "create", "game", "dml", "players",
                          4, "seats", "human", "heuristic", "random", "heuristic", "sit", 0);
    if (clock) json_object_set_new(o, "clock", clock);
    wsc_send(w, o);
    json_t *created = wsc_expect(w, "created");
    snprintf(game_id, idcap, "%s", json_string_value(json_object_get(created, "game_id")));
    json_t *seat0 = json_array_get(json_object_get(created, "seats"), 0);
    snprintf(token, tokcap, "%s", json_string_value(json_object_get(seat0, "token")));
    json_decref(created);
}

/* Sits at the game through w once its server has taken it over: `sit`
 * again every 50 ms while the answer is `elsewhere` (the dead server's lock
 * not dropped yet, or no claim made yet), for up to 10 s.  The update. */
static json_t *sit_once_taken_over(wsc *w, const char *game_id, const char *token)
{
    for (double end = now_s() + 10; now_s() < end;) {
        wsc_send(w, json_pack("{s:s,s:s,s:s}", "type", "sit", "game_id", game_id, "token", token));
        json_t *o = wsc_next(w);
        assert_non_null(o);
        const char *t = type_of(o);
        if (t && strcmp(t, "update") == 0) return o;
        assert_string_equal(t, "error");
        assert_string_equal(json_string_value(json_object_get(o, "code")), "elsewhere");
        json_decref(o);
        nap_ms(50);
    }
    fail_msg("game %s was not taken over within 10 s", game_id);
    return NULL;
}

/* The same without the sweep (--claim-interval-ms 0 on B): the first client
 * that asks B for the game makes B claim it, once PostgreSQL has dropped the
 * dead server's lock (until then: `elsewhere`). */
static void test_a_request_takes_the_game_over(void **state)
{
    (void)state;
    if (!base_url) skip();
    mg_init_library(0);
    server a, b;
    server_start(&a, "a2", "200");
    server_start(&b, "b2", "0");
    wsc *wa = wsc_open(a.port);
    char game_id[64], token[128];
    create_game(wa, NULL, game_id, sizeof game_id, token, sizeof token);
    seat_view *va = calloc(1, sizeof *va);
    assert_non_null(va);
    va->rng = 777;
    play(wa, va, 10);
    assert_int_equal(va->acked, 10);
    kill(a.pid, SIGKILL);
    int status = 0;
    assert_int_equal(waitpid(a.pid, &status, 0), a.pid);
    wsc *wb = wsc_open(b.port);
    json_t *u = sit_once_taken_over(wb, game_id, token);
    int decision = (int)json_integer_value(json_object_get(u, "decision"));
    int your_turn = json_is_true(json_object_get(u, "your_turn"));
    assert_int_equal(decision, va->acked + your_turn);
    seat_view *vb = calloc(1, sizeof *vb);
    assert_non_null(vb);
    vb->rng = va->rng;
    vb->acked = va->acked;
    vb->decision = decision;
    view_events(vb, json_object_get(u, "events"));
    /* the update answering sit is the one play() would act on: act on it */
    if (your_turn) {
        json_t *acts = json_object_get(u, "actions");
        wsc_send(wb, json_pack("{s:s,s:i,s:O}", "type", "act", "decision", decision, "action",
                               json_object_get(json_array_get(acts, 0), "id")));
        json_decref(wsc_expect(wb, "ack"));
        vb->acked++;
    }
    json_decref(u);
    play(wb, vb, 10);
    assert_true(vb->acked >= va->acked + 10 || vb->over);
    assert_false(server_logged(&b, "took over", 0)); /* no sweep ran: the request did it */
    wsc_close(wb);
    wsc_close(wa);
    view_free(va);
    view_free(vb);
    kill(b.pid, SIGTERM);
    assert_int_equal(waitpid(b.pid, &status, 0), b.pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    unlink(a.log);
    unlink(b.log);
    mg_exit_library();
}

static void test_game_moves_to_the_second_server(void **state)
{
    (void)state;
    if (!base_url) skip();
    mg_init_library(0);
    server a, b;
    server_start(&a, "a", "200");
    server_start(&b, "b", "200");

    /* a game on A: our seat 0 against three bots */
    wsc *wa = wsc_open(a.port);
    char game_id[64], token[128];
    create_game(wa, NULL, game_id, sizeof game_id, token, sizeof token);
    seat_view *va = calloc(1, sizeof *va);
    assert_non_null(va);
    va->rng = 12345;
    play(wa, va, 25);
    assert_int_equal(va->acked, 25);
    assert_false(va->over);

    /* while A holds the game, B sends the seat elsewhere */
    wsc *wb = wsc_open(b.port);
    wsc_send(wb, json_pack("{s:s,s:s,s:s}", "type", "sit", "game_id", game_id, "token", token));
    json_t *err = wsc_expect(wb, "error");
    assert_string_equal(json_string_value(json_object_get(err, "code")), "elsewhere");
    json_decref(err);
    /* ... and B refuses a socket opened for the game (/ws?game=ID), which
     * A, the game's owner, accepts; plain /ws B accepts too */
    char path[96];
    snprintf(path, sizeof path, "/ws?game=%s", game_id);
    assert_false(upgrade_accepted(b.port, path));
    assert_true(upgrade_accepted(a.port, path));
    assert_true(upgrade_accepted(b.port, "/ws"));

    /* kill -9 of A: PostgreSQL ends its session, the claim goes with it */
    kill(a.pid, SIGKILL);
    int status = 0;
    assert_int_equal(waitpid(a.pid, &status, 0), a.pid);
    assert_true(WIFSIGNALED(status));
    double t0 = now_s();
    assert_true(server_logged(&b, "took over 1 running games", 10000)); /* B's sweep */
    double took = now_s() - t0;
    print_message("failover: B took the game over %.0f ms after A was killed\n", took * 1000);

    /* the same seat on B: every acknowledged action is there */
    wsc_send(wb, json_pack("{s:s,s:s,s:s}", "type", "sit", "game_id", game_id, "token", token));
    json_t *u = wsc_expect(wb, "update");
    int decision = (int)json_integer_value(json_object_get(u, "decision"));
    int your_turn = json_is_true(json_object_get(u, "your_turn"));
    json_decref(u);
    assert_int_equal(decision, va->acked + your_turn);
    seat_view *vb = calloc(1, sizeof *vb);
    assert_non_null(vb);
    vb->rng = va->rng;
    vb->acked = va->acked;
    vb->decision = decision;
    history(wb, vb);
    assert_true(vb->max_seq >= va->max_seq);
    for (int s = 0; s < va->max_seq; s++) {
        if (!va->events[s]) continue;
        assert_non_null(vb->events[s]);
        assert_string_equal(vb->events[s], va->events[s]);
    }

    /* and the game goes on there, to its end */
    wsc_close(wb);
    wb = wsc_open(b.port);
    wsc_send(wb, json_pack("{s:s,s:s,s:s}", "type", "sit", "game_id", game_id, "token", token));
    play(wb, vb, 100000);
    assert_true(vb->over);
    assert_true(vb->acked > va->acked);
    print_message("failover: %d actions on A, %d on B, %d events\n", va->acked,
                  vb->acked - va->acked, vb->max_seq);
    wsc_send(wb, json_pack("{s:s,s:s}", "type", "record", "game_id", game_id));
    json_t *rec = wsc_expect(wb, "record");
    assert_non_null(strstr(json_string_value(json_object_get(rec, "record")), "dml"));
    json_decref(rec);

    wsc_close(wb);
    wsc_close(wa);
    view_free(va);
    view_free(vb);
    kill(b.pid, SIGTERM);
    assert_int_equal(waitpid(b.pid, &status, 0), b.pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    unlink(a.log);
    unlink(b.log);
    mg_exit_library();
}

/* The next update that is our turn (others skipped); NULL if none comes. */
static json_t *wsc_my_turn(wsc *w)
{
    for (int guard = 0; guard < 10000; guard++) {
        json_t *o = wsc_next(w);
        if (!o) return NULL;
        const char *t = type_of(o);
        if (t && strcmp(t, "error") == 0)
            fail_msg("error: %s", json_string_value(json_object_get(o, "message")));
        if (t && strcmp(t, "update") == 0 && json_is_true(json_object_get(o, "your_turn")))
            return o;
        json_decref(o);
    }
    return NULL;
}

/* A clock moves with its game, as it survives a restart
 * (test_server.c, test_clock_survives_restart): seat 0 has a total budget of
 * 60 s, spends 1.5 s on a move on A and 1 s into the next, A dies (kill -9),
 * B takes the game over; on B seat 0's clock runs on from what was left
 * (not from a fresh 60 s), the time while no server played the game
 * counted too. */
static void test_clock_moves_with_the_game(void **state)
{
    (void)state;
    if (!base_url) skip();
    mg_init_library(0);
    server a, b;
    server_start(&a, "a3", "200");
    server_start(&b, "b3", "200");
    wsc *wa = wsc_open(a.port);
    char game_id[64], token[128];
    create_game(wa,
                json_pack("{s:s,s:i,s:i,s:s}", "mode", "total", "initial_ms", 60000, "increment_ms",
                          0, "on_timeout", "end"),
                game_id, sizeof game_id, token, sizeof token);
    json_t *u = wsc_my_turn(wa);
    assert_non_null(u);
    nap_ms(1500); /* thinking: 1.5 s of seat 0's budget */
    json_t *acts = json_object_get(u, "actions");
    wsc_send(wa, json_pack("{s:s,s:I,s:O}", "type", "act", "decision",
                           json_integer_value(json_object_get(u, "decision")), "action",
                           json_object_get(json_array_get(acts, 0), "id")));
    json_decref(u);
    json_decref(wsc_expect(wa, "ack"));
    u = wsc_my_turn(wa);
    assert_non_null(u);
    json_decref(u);
    nap_ms(1000); /* 1 s into the next move, then A dies */
    double t_kill = now_s();
    kill(a.pid, SIGKILL);
    int status = 0;
    assert_int_equal(waitpid(a.pid, &status, 0), a.pid);
    /* B's sweep takes it over (until then B answers `elsewhere`) */
    wsc *wb = wsc_open(b.port);
    u = sit_once_taken_over(wb, game_id, token);
    double away = now_s() - t_kill;
    assert_true(json_is_true(json_object_get(u, "your_turn")));
    json_t *clock = json_object_get(u, "clock");
    assert_non_null(clock);
    assert_int_equal(json_integer_value(json_object_get(clock, "running")), 0);
    json_int_t left = json_integer_value(json_array_get(json_object_get(clock, "remaining_ms"), 0));
    print_message("clock after the move: %lld ms left (%.0f ms without a server)\n",
                  (long long)left, away * 1000);
    /* 60 s - 1.5 s - 1 s - the time without a server (+ slack for the
     * scheduling of a loaded machine) */
    assert_true(left <= 60000 - 2400 - (json_int_t)(away * 1000) + 200);
    assert_true(left >= 40000);
    json_decref(u);
    wsc_close(wb);
    wsc_close(wa);
    kill(b.pid, SIGTERM);
    assert_int_equal(waitpid(b.pid, &status, 0), b.pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    unlink(a.log);
    unlink(b.log);
    mg_exit_library();
}

int main(void)
{
    const char *env = getenv("CROUPIER_TEST_PG");
    const char *req = getenv("CROUPIER_REQUIRE_PG");
    int rc;
    if (env && *env) {
        base_url = env;
        admin = PQconnectdb(base_url);
        if (PQstatus(admin) != CONNECTION_OK) {
            fprintf(stderr, "test_failover_pg: cannot connect to CROUPIER_TEST_PG: %s",
                    PQerrorMessage(admin));
            return 1;
        }
        PQclear(PQexec(admin, "SET client_min_messages = warning"));
        snprintf(schema, sizeof schema, "croupier_failover_%d", (int)getpid());
        char sql[128];
        snprintf(sql, sizeof sql, "CREATE SCHEMA %s", schema);
        admin_exec(sql);
        snprintf(db_url, sizeof db_url, "%s%soptions=-csearch_path%%3D%s", base_url,
                 strchr(base_url, '?') ? "&" : "?", schema);
    } else if (req && strcmp(req, "1") == 0) {
        fprintf(stderr, "test_failover_pg: CROUPIER_REQUIRE_PG=1 but CROUPIER_TEST_PG is unset\n");
        return 1;
    } else {
        fprintf(stderr, "test_failover_pg: SKIPPED: set CROUPIER_TEST_PG=postgres://... to run"
                        " the failover test (scripts/pg-test-db.sh makes a database)\n");
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_game_moves_to_the_second_server),
        cmocka_unit_test(test_a_request_takes_the_game_over),
        cmocka_unit_test(test_clock_moves_with_the_game),
    };
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    for (int i = 0; i < n_started; i++) {
        if (waitpid(started[i], NULL, WNOHANG) == 0) {
            kill(started[i], SIGKILL);
            waitpid(started[i], NULL, 0);
        }
    }
    if (admin) {
        char sql[128];
        snprintf(sql, sizeof sql, "DROP SCHEMA %s CASCADE", schema);
        PQclear(PQexec(admin, sql));
        PQfinish(admin);
    }
    return rc;
}
