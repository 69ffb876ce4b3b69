/* tests/server/test_server.c — `croupier serve` as users start it, on
 * loopback (a free port) with a temporary SQLite file, driven through the
 * protocol (docs/protocol.md) with civetweb's WebSocket client.
 *
 *   full_game_four_humans  four seats played by the test; every message a
 *                          seat receives is checked against the finished
 *                          record replayed step by step: each update's
 *                          observation and events are exactly that seat's
 *                          view, and the updates a seat gets are exactly the
 *                          changes of its view (no message for another
 *                          seat's private steps)
 *   private_steps_draw_nothing  after every action, a barrier request of
 *                          each other seat and a spectator: one whose view
 *                          the action did not change received nothing
 *   bots_game              a human against three bots, to the end; stats
 *   bad_input              bad token, malformed frame, out-of-turn, stale,
 *                          illegal, unknown type, oversized frame, flood:
 *                          each an error, the game unchanged, the server up
 *   kill9_resume           kill -9 at 20 random points, restart, nothing
 *                          acknowledged is lost
 */
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <sqlite3.h>

#include "civetweb.h"
#include "croupier/alloc.h"
#include "croupier/analysis.h"
#include "croupier/match.h"
#include "croupier/parts.h"
#include "croupier/record.h"
#include "croupier/rng.h"

#ifndef CR_CLI_PATH
#error "CR_CLI_PATH: the croupier program"
#endif

static char tmpdir[256];

/* ---- the server process ---- */

typedef struct server {
    pid_t pid;
    int port;
    FILE *out;
} server;

/* Servers still running when a test fails are killed by the teardown. */
static pid_t live[8];

static void live_set(pid_t old, pid_t now)
{
    for (int i = 0; i < 8; i++)
        if (live[i] == old) {
            live[i] = now;
            return;
        }
}

static int kill_live(void **state)
{
    (void)state;
    for (int i = 0; i < 8; i++)
        if (live[i] > 0) {
            kill(live[i], SIGKILL);
            waitpid(live[i], NULL, 0);
            live[i] = 0;
        }
    return 0;
}

static void server_start(server *s, const char *db, const char *extra)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        char dbarg[512];
        snprintf(dbarg, sizeof dbarg, "sqlite:%s", db);
        const char *argv[24] = {CR_CLI_PATH, "serve", "--listen", "127.0.0.1:0",
                                "--db",      dbarg,   "--quiet"};
        int k = 7;
        /* The test's clients are scripts that answer in microseconds, far
         * faster than the per-connection rate limit allows a person (50
         * messages a second); only the flood test runs at that default. */
        if (!extra || !strstr(extra, "--max-msg-rate")) {
            argv[k++] = "--max-msg-rate";
            argv[k++] = "100000";
        }
        char words[256]; /* extra: flags separated by spaces */
        snprintf(words, sizeof words, "%s", extra ? extra : "");
        for (char *t = strtok(words, " "); t && k < 22; t = strtok(NULL, " ")) argv[k++] = t;
        argv[k] = NULL;
        execv(CR_CLI_PATH, (char *const *)argv);
        _exit(127);
    }
    close(fds[1]);
    s->pid = pid;
    live_set(0, pid);
    s->out = fdopen(fds[0], "r");
    char line[256] = "";
    assert_non_null(fgets(line, sizeof line, s->out));
    const char *p = strstr(line, "127.0.0.1:");
    assert_non_null(p);
    s->port = atoi(p + 10);
    assert_true(s->port > 0);
}

static void server_kill(server *s, int sig)
{
    kill(s->pid, sig);
    int st;
    waitpid(s->pid, &st, 0);
    live_set(s->pid, 0);
    if (sig == SIGTERM) {
        assert_true(WIFEXITED(st));
        assert_int_equal(WEXITSTATUS(st), 0);
    }
    fclose(s->out);
    s->pid = 0;
}

/* ---- a WebSocket client: every message is kept, in order ---- */

typedef struct client {
    struct mg_connection *mc;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    char **msgs;
    int n, cap, next;
    int closed;
    int64_t next_id;
} client;

static int cl_data(struct mg_connection *mc, int bits, char *data, size_t len, void *arg)
{
    (void)mc;
    client *c = arg;
    if ((bits & 0x0f) != MG_WEBSOCKET_OPCODE_TEXT) return 1;
    char *copy = malloc(len + 1);
    memcpy(copy, data, len);
    copy[len] = '\0';
    pthread_mutex_lock(&c->mu);
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 64;
        c->msgs = realloc(c->msgs, sizeof *c->msgs * (size_t)c->cap);
    }
    c->msgs[c->n++] = copy;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
    return 1;
}

static void cl_close(const struct mg_connection *mc, void *arg)
{
    (void)mc;
    client *c = arg;
    pthread_mutex_lock(&c->mu);
    c->closed = 1;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
}

static client *cl_open(int port)
{
    client *c = calloc(1, sizeof *c);
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->cv, NULL);
    char err[256];
    c->mc = mg_connect_websocket_client("127.0.0.1", port, 0, err, sizeof err, "/ws", NULL, cl_data,
                                        cl_close, c);
    if (!c->mc) fprintf(stderr, "connect: %s\n", err);
    assert_non_null(c->mc);
    return c;
}

static void cl_free(client *c)
{
    if (!c) return;
    if (c->mc) mg_close_connection(c->mc);
    for (int i = 0; i < c->n; i++) free(c->msgs[i]);
    free(c->msgs);
    free(c);
}

/* One text frame in one write: civetweb's client writes the header and the
 * payload separately, and Nagle's algorithm then holds the payload until the
 * server's delayed ACK (40 ms a message).  The mask key is 0 (any key is
 * valid; the server unmasks). */
static void cl_send_raw(client *c, const char *text, size_t len)
{
    unsigned char *f = malloc(len + 14);
    size_t h = 0;
    f[h++] = 0x81;
    if (len < 126) {
        f[h++] = (unsigned char)(0x80 | len);
    } else if (len < 65536) {
        f[h++] = 0x80 | 126;
        f[h++] = (unsigned char)(len >> 8);
        f[h++] = (unsigned char)len;
    } else {
        f[h++] = 0x80 | 127;
        for (int i = 7; i >= 0; i--) f[h++] = (unsigned char)((uint64_t)len >> (8 * i));
    }
    memset(f + h, 0, 4);
    h += 4;
    memcpy(f + h, text, len);
    mg_write(c->mc, f, h + len);
    free(f);
}

/* Sends o (stolen) with a fresh id; returns the id. */
static int64_t cl_send(client *c, json_t *o)
{
    int64_t id = ++c->next_id;
    json_object_set_new(o, "v", json_integer(1));
    json_object_set_new(o, "id", json_integer(id));
    char *s = json_dumps(o, JSON_COMPACT);
    cl_send_raw(c, s, strlen(s));
    free(s);
    json_decref(o);
    return id;
}

/* The next message not read yet; NULL if the server closed the
 * connection.  A server silent for 30 s fails the test with that reason
 * (a loaded CI machine is slow, never that slow), instead of handing the
 * caller a NULL it would read as a closed connection. */
static json_t *cl_next(client *c)
{
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    dl.tv_sec += 30;
    pthread_mutex_lock(&c->mu);
    int timed_out = 0;
    while (c->next >= c->n && !c->closed)
        if (pthread_cond_timedwait(&c->cv, &c->mu, &dl) != 0) {
            timed_out = c->next >= c->n && !c->closed;
            break;
        }
    char *m = c->next < c->n ? c->msgs[c->next++] : NULL;
    pthread_mutex_unlock(&c->mu);
    if (timed_out) fail_msg("the server sent nothing for 30 s (and did not close the connection)");
    if (!m) return NULL;
    json_error_t je;
    json_t *o = json_loads(m, 0, &je);
    assert_non_null(o);
    return o;
}

static const char *jtype(json_t *o)
{
    const char *t = json_string_value(json_object_get(o, "type"));
    return t ? t : ""; /* a message without a type (or none) is no update */
}

/* Reads until a reply to `id` (ack, error or the answer); messages before
 * it are skipped (they stay in c->msgs for the checks). */
static json_t *cl_reply(client *c, int64_t id)
{
    for (;;) {
        json_t *o = cl_next(c);
        if (!o) return NULL;
        json_t *re = json_object_get(o, "re");
        if (!re && strcmp(jtype(o), "error") == 0) { /* the connection's own error: say which */
            char *d = json_dumps(o, 0);
            fail_msg("waiting for the reply to %lld, the server sent %s", (long long)id, d);
        }
        if (re && json_integer_value(re) == id) return o;
        json_decref(o);
    }
}

/* Waits for the next update of this client. */
static json_t *cl_update(client *c)
{
    for (;;) {
        json_t *o = cl_next(c);
        if (!o) return NULL;
        if (strcmp(jtype(o), "update") == 0) return o;
        json_decref(o);
    }
}

/* Drains what has arrived: the latest update, if any (caller decrefs). */
static json_t *cl_latest_update(client *c, json_t *prev)
{
    for (;;) {
        pthread_mutex_lock(&c->mu);
        int more = c->next < c->n;
        pthread_mutex_unlock(&c->mu);
        if (!more) return prev;
        json_t *o = cl_next(c);
        if (strcmp(jtype(o), "update") == 0) {
            json_decref(prev);
            prev = o;
        } else {
            json_decref(o);
        }
    }
}

static json_t *create_msg(const char *seats_csv, int sit)
{
    json_t *seats = json_array();
    char buf[512];
    snprintf(buf, sizeof buf, "%s", seats_csv);
    for (char *t = strtok(buf, ";"); t; t = strtok(NULL, ";"))
        json_array_append_new(seats, json_string(t));
    json_t *o = json_pack("{s:s,s:s,s:o}", "type", "create", "game", "dml", "seats", seats);
    if (sit >= 0) json_object_set_new(o, "sit", json_integer(sit));
    return o;
}

static void db_path(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", tmpdir, name);
}

/* ---- checking what seats received against the replayed record ---- */

/* The game's record and seed from the server (the game is over). */
static cr_match *fetch_record(client *c, const char *game_id)
{
    int64_t id = cl_send(c, json_pack("{s:s,s:s}", "type", "record", "game_id", game_id));
    json_t *r = cl_reply(c, id);
    assert_non_null(r);
    assert_string_equal(jtype(r), "record");
    const char *text = json_string_value(json_object_get(r, "record"));
    assert_non_null(text);
    char err[256];
    cr_match *m = cr_match_load(text, strlen(text), NULL, 0, err, sizeof err);
    if (!m) fprintf(stderr, "record: %s\n", err);
    assert_non_null(m);
    json_decref(r);
    return m;
}

/* Seat `seat`'s views at rest (a seat to decide, or the end), in order,
 * consecutive repeats dropped: the observation as JSON and the event count.
 * Rebuilt by replaying the finished record m step by step. */
typedef struct view_list {
    json_t **obs;
    uint32_t *seq;
    int n;
} view_list;

static void expected_views(const cr_match *done, int seat, view_list *out)
{
    const cr_record *r = cr_match_record(done);
    const cr_game *g = cr_match_game(done);
    cr_params p;
    cr_record_params(r, NULL, &p);
    char err[256];
    uint64_t seed = 0;
    assert_true(cr_match_seed(done, &seed));
    cr_match *m = cr_match_new(g->def, &p, NULL, seed, err, sizeof err);
    assert_non_null(m);
    void *obs = malloc(g->obs_size);
    size_t cap = 1 << 20;
    char *buf = malloc(cap);
    memset(out, 0, sizeof *out);
    out->obs = calloc((size_t)r->n_actions + 2, sizeof *out->obs);
    out->seq = calloc((size_t)r->n_actions + 2, sizeof *out->seq);
    for (int i = 0;; i++) {
        int who = cr_match_to_act(m);
        if (who != CR_CHANCE) {
            cr_match_observe(m, seat, obs);
            g->def->obs_to_json(g, obs, buf, cap);
            json_error_t je;
            json_t *o = json_loads(buf, 0, &je);
            assert_non_null(o);
            uint32_t seq = cr_match_event_count(m);
            if (out->n > 0 && json_equal(out->obs[out->n - 1], o) && out->seq[out->n - 1] == seq &&
                !(who == seat)) {
                json_decref(o);
            } else {
                out->obs[out->n] = o;
                out->seq[out->n] = seq;
                out->n++;
            }
        }
        if (i >= r->n_actions) break;
        cr_action a = r->actions[i];
        if (who == CR_CHANCE) {
            assert_int_equal(cr_match_step(m), CR_OK);
            assert_int_equal(cr_match_record(m)->actions[i], a);
        } else {
            assert_int_equal(cr_match_submit_action(m, who, a, err, sizeof err), CR_OK);
        }
    }
    free(obs);
    free(buf);
    cr_match_free(m);
}

static void view_list_free(view_list *v)
{
    for (int i = 0; i < v->n; i++) json_decref(v->obs[i]);
    free(v->obs);
    free(v->seq);
}

/* Every message c received as seat `seat`: updates are exactly the seat's
 * views at rest, each once, in order; events are exactly its events. */
static void check_seat_messages(client *c, const cr_match *done, int seat)
{
    view_list v;
    expected_views(done, seat, &v);
    size_t cap = 1 << 16;
    char *buf = malloc(cap);
    const cr_match_event *ev = NULL;
    int n_ev = cr_match_events_since(done, 0, &ev);
    int k = 0, updates = 0;
    json_t *prev_obs = NULL;
    uint32_t prev_seq = 0;
    for (int i = 0; i < c->n; i++) {
        json_error_t je;
        json_t *o = json_loads(c->msgs[i], 0, &je);
        assert_non_null(o);
        if (strcmp(jtype(o), "update") != 0) {
            json_decref(o);
            continue;
        }
        updates++;
        assert_int_equal(json_integer_value(json_object_get(o, "seat")), seat);
        json_t *obs = json_object_get(o, "observation");
        uint32_t seq = (uint32_t)json_integer_value(json_object_get(o, "seq"));
        /* a view of the seat at rest, at or after the last one */
        while (k < v.n && !(json_equal(v.obs[k], obs) && v.seq[k] == seq)) k++;
        if (k == v.n)
            fprintf(stderr, "seat %d: update %d (seq %u) is no view of the seat\n", seat, updates,
                    seq);
        assert_true(k < v.n);
        /* the events it carries are the seat's own renderings */
        json_t *evs = json_object_get(o, "events");
        for (size_t e = 0; e < json_array_size(evs); e++) {
            json_t *got = json_array_get(evs, e);
            uint32_t s = (uint32_t)json_integer_value(json_object_get(got, "seq"));
            assert_true((int)s < n_ev);
            cr_match_event_json(done, &ev[s], seat, buf, cap);
            json_t *want = json_loads(buf, 0, &je);
            json_object_set_new(want, "seq", json_integer(s));
            assert_true(json_equal(want, got));
            json_decref(want);
        }
        /* never the same view twice in a row, except the first update after sitting */
        if (prev_obs && json_equal(prev_obs, obs) && prev_seq == seq) {
            assert_true(json_is_true(json_object_get(o, "your_turn")));
        }
        json_decref(prev_obs);
        prev_obs = json_incref(obs);
        prev_seq = seq;
        json_decref(o);
    }
    json_decref(prev_obs);
    free(buf);
    view_list_free(&v);
}

/* ---- playing through the protocol ---- */

typedef struct seat_state {
    client *c;
    json_t *up; /* latest update */
    char token[64];
} seat_state;

/* Picks an action of the update (seeded) and submits it; returns the ack. */
static json_t *play_one(seat_state *s, cr_rng *rng, int64_t *decision_out, int32_t *action_out)
{
    json_t *acts = json_object_get(s->up, "actions");
    size_t n = json_array_size(acts);
    assert_true(n > 0);
    json_t *a = json_array_get(acts, cr_rng_below(rng, (uint32_t)n));
    int64_t d = json_integer_value(json_object_get(s->up, "decision"));
    int32_t id = (int32_t)json_integer_value(json_object_get(a, "id"));
    int64_t rid = cl_send(
        s->c, json_pack("{s:s,s:I,s:i}", "type", "act", "decision", (json_int_t)d, "action", id));
    json_t *r = cl_reply(s->c, rid);
    if (decision_out) *decision_out = d;
    if (action_out) *action_out = id;
    return r;
}

static int your_turn(json_t *up) { return up && json_is_true(json_object_get(up, "your_turn")); }

static void test_full_game_four_humans(void **state)
{
    (void)state;
    char db[512];
    db_path(db, sizeof db, "four.db");
    server srv;
    server_start(&srv, db, NULL);
    client *lobby = cl_open(srv.port);
    int64_t id = cl_send(lobby, create_msg("invite;invite;invite;invite", -1));
    json_t *r = cl_reply(lobby, id);
    assert_string_equal(jtype(r), "created");
    const char *gid = json_string_value(json_object_get(r, "game_id"));
    char game_id[40];
    snprintf(game_id, sizeof game_id, "%s", gid);
    seat_state seats[4];
    memset(seats, 0, sizeof seats);
    json_t *toks = json_object_get(r, "seats");
    assert_int_equal(json_array_size(toks), 4);
    for (int s = 0; s < 4; s++) {
        json_t *t = json_array_get(toks, (size_t)s);
        assert_int_equal(json_integer_value(json_object_get(t, "seat")), s);
        snprintf(seats[s].token, sizeof seats[s].token, "%s",
                 json_string_value(json_object_get(t, "token")));
        assert_int_equal(strlen(seats[s].token), 43);
    }
    json_decref(r);
    for (int s = 0; s < 4; s++) {
        seats[s].c = cl_open(srv.port);
        cl_send(seats[s].c, json_pack("{s:s,s:s,s:s,s:i}", "type", "sit", "game_id", game_id,
                                      "token", seats[s].token, "since", 0));
        seats[s].up = cl_update(seats[s].c);
        assert_non_null(seats[s].up);
    }
    cr_rng rng;
    cr_rng_seed(&rng, 2026, 9);
    int actions = 0, over = 0;
    for (int guard = 0; guard < 20000 && !over; guard++) {
        int who = -1;
        for (int s = 0; s < 4; s++) {
            seats[s].up = cl_latest_update(seats[s].c, seats[s].up);
            if (json_is_true(json_object_get(seats[s].up, "over"))) over = 1;
            if (your_turn(seats[s].up)) who = s;
        }
        if (over) break;
        if (who < 0) { /* the mover's update is on its way */
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
            continue;
        }
        json_t *ack = play_one(&seats[who], &rng, NULL, NULL);
        assert_non_null(ack);
        assert_string_equal(jtype(ack), "ack");
        json_decref(ack);
        json_decref(seats[who].up);
        seats[who].up = cl_update(seats[who].c);
        actions++;
    }
    assert_true(over);
    /* let every last update arrive, then check every seat's messages */
    for (int s = 0; s < 4; s++) {
        while (!json_is_true(json_object_get(seats[s].up, "over"))) {
            json_decref(seats[s].up);
            seats[s].up = cl_update(seats[s].c);
            assert_non_null(seats[s].up);
        }
    }
    cr_match *done = fetch_record(lobby, game_id);
    assert_true(cr_match_over(done));
    for (int s = 0; s < 4; s++) check_seat_messages(seats[s].c, done, s);
    cr_match_free(done);
    for (int s = 0; s < 4; s++) {
        json_decref(seats[s].up);
        cl_free(seats[s].c);
    }
    cl_free(lobby);
    server_kill(&srv, SIGTERM);
    printf("four humans: %d actions through the protocol\n", actions);
}

/* ---- private steps draw nothing (docs/server.md, "What a seat can learn") ---- */

enum { PS_CLIENTS = 5, PS_MAX_STEPS = 4096 }; /* four seats and a spectator */

/* A barrier on c: a `history` for no event (sent by ps_barrier_send),
 * answered under the game's mutex after every message the server sent c
 * before it.  ps_barrier waits for the answer and returns how many
 * messages c received since the previous barrier (the reply not counted),
 * and the latest update among them in *up (replaced; caller decrefs). */
static int64_t ps_barrier_send(client *c)
{
    return cl_send(c, json_pack("{s:s,s:i}", "type", "history", "since", 1 << 30));
}

static int ps_barrier(client *c, int64_t id, int *from, json_t **up)
{
    json_t *r = cl_reply(c, id);
    assert_non_null(r);
    assert_string_equal(jtype(r), "history");
    json_decref(r);
    int reply = c->next - 1; /* cl_reply read up to the reply */
    int got = 0;
    for (int i = *from; i < reply; i++) {
        pthread_mutex_lock(&c->mu);
        json_error_t je;
        json_t *o = json_loads(c->msgs[i], 0, &je);
        pthread_mutex_unlock(&c->mu);
        assert_non_null(o);
        const char *t = jtype(o);
        if (strcmp(t, "ack") == 0) { /* the mover's own reply, not a reaction */
            json_decref(o);
            continue;
        }
        got++;
        if (strcmp(t, "update") == 0) {
            json_decref(*up);
            *up = o;
        } else {
            json_decref(o);
        }
    }
    *from = reply + 1;
    return got;
}

/* What the server's update hashes for `seat` (sv_build_update): who is to
 * act, the event count, over, the observation and, when it is the seat's
 * turn, its legal actions.  Malloc'd text. */
static char *ps_view(const cr_match *m, int seat)
{
    const cr_game *g = cr_match_game(m);
    size_t cap = 1 << 20;
    char *buf = malloc(cap);
    void *obs = malloc(g->obs_size);
    cr_action *legal = malloc(sizeof *legal * (size_t)g->max_legal);
    int to_act = cr_match_to_act(m);
    int n = snprintf(buf, cap, "%d|%u|%d|", to_act, cr_match_event_count(m), cr_match_over(m));
    cr_match_observe(m, seat, obs);
    n += (int)g->def->obs_to_json(g, obs, buf + n, cap - (size_t)n);
    if (seat >= 0 && to_act == seat) {
        int k = cr_match_legal(m, seat, legal);
        for (int i = 0; i < k && (size_t)n < cap - 16; i++)
            n += snprintf(buf + n, cap - (size_t)n, "|%d", (int)legal[i]);
    }
    free(obs);
    free(legal);
    return buf;
}

/* Another seat's private step (a card chosen for a Declaration that nobody
 * else sees yet) sends nothing to anybody else: after every action, each
 * other seat and a spectator make a barrier request, and whatever reached
 * them since their last barrier is the server's reaction to that action.
 * Replaying the finished record then tells, for each action, whose view it
 * changed: a seat (or the spectator) whose view stayed the same must have
 * received no message at all (no update, no your_turn, nothing), so neither
 * the count nor the timing of its messages can follow the private step. */
static void test_private_steps_draw_nothing(void **state)
{
    (void)state;
    char db[512];
    db_path(db, sizeof db, "private.db");
    server srv;
    server_start(&srv, db, NULL);
    client *lobby = cl_open(srv.port);
    int64_t id = cl_send(lobby, create_msg("invite;invite;invite;invite", -1));
    json_t *r = cl_reply(lobby, id);
    assert_string_equal(jtype(r), "created");
    char game_id[40];
    snprintf(game_id, sizeof game_id, "%s", json_string_value(json_object_get(r, "game_id")));
    seat_state seats[PS_CLIENTS];
    memset(seats, 0, sizeof seats);
    int from[PS_CLIENTS] = {0};
    for (int s = 0; s < PS_CLIENTS; s++) {
        seats[s].c = cl_open(srv.port);
        if (s < 4) {
            json_t *t = json_array_get(json_object_get(r, "seats"), (size_t)s);
            snprintf(seats[s].token, sizeof seats[s].token, "%s",
                     json_string_value(json_object_get(t, "token")));
            cl_send(seats[s].c, json_pack("{s:s,s:s,s:s}", "type", "sit", "game_id", game_id,
                                          "token", seats[s].token));
        } else {
            cl_send(seats[s].c, json_pack("{s:s,s:s}", "type", "spectate", "game_id", game_id));
        }
        json_decref(cl_update(seats[s].c));
    }
    json_decref(r);
    int64_t bid[PS_CLIENTS];
    for (int s = 0; s < PS_CLIENTS; s++) bid[s] = ps_barrier_send(seats[s].c);
    for (int s = 0; s < PS_CLIENTS; s++) ps_barrier(seats[s].c, bid[s], &from[s], &seats[s].up);
    /* play: got[k][j] = what client j received in reaction to step k */
    static int who_of[PS_MAX_STEPS], got[PS_MAX_STEPS][PS_CLIENTS];
    int steps = 0, over = 0;
    cr_rng rng;
    cr_rng_seed(&rng, 2026, 11);
    while (!over && steps < PS_MAX_STEPS) {
        int who = -1;
        for (int s = 0; s < 4; s++)
            if (your_turn(seats[s].up)) who = s;
        assert_true(who >= 0); /* after the barriers, the mover knows it is its turn */
        json_t *ack = play_one(&seats[who], &rng, NULL, NULL);
        assert_string_equal(jtype(ack), "ack");
        json_decref(ack);
        who_of[steps] = who;
        for (int j = 0; j < PS_CLIENTS; j++) bid[j] = ps_barrier_send(seats[j].c);
        for (int j = 0; j < PS_CLIENTS; j++) {
            got[steps][j] = ps_barrier(seats[j].c, bid[j], &from[j], &seats[j].up);
            over |= json_is_true(json_object_get(seats[j].up, "over"));
        }
        steps++;
    }
    assert_true(over);
    /* replay: the views at rest before each step and after the last */
    cr_match *done = fetch_record(lobby, game_id);
    const cr_record *rec = cr_match_record(done);
    const cr_game *g = cr_match_game(done);
    cr_params p;
    cr_record_params(rec, NULL, &p);
    uint64_t seed = 0;
    assert_true(cr_match_seed(done, &seed));
    char err[256];
    cr_match *m = cr_match_new(g->def, &p, NULL, seed, err, sizeof err);
    assert_non_null(m);
    const int seat_of[PS_CLIENTS] = {0, 1, 2, 3, CR_SEAT_PUBLIC};
    char *before[PS_CLIENTS];
    int k = 0, private_steps = 0, quiet = 0;
    for (int i = 0; i <= rec->n_actions; i++) {
        int to_act = i < rec->n_actions ? cr_match_to_act(m) : CR_TERMINAL;
        if (to_act == CR_CHANCE) {
            assert_int_equal(cr_match_step(m), CR_OK);
            continue;
        }
        if (k > 0) { /* at rest after step k-1 */
            int all_same = 1;
            for (int j = 0; j < PS_CLIENTS; j++) {
                char *after = ps_view(m, seat_of[j]);
                int same = strcmp(before[j], after) == 0;
                free(before[j]);
                before[j] = after;
                if (seat_of[j] == who_of[k - 1]) continue;
                all_same &= same;
                if (same) {
                    quiet++;
                    if (got[k - 1][j] != 0)
                        fprintf(stderr,
                                "step %d of P%d: client %d's view did not change, yet it"
                                " received %d message(s)\n",
                                k - 1, who_of[k - 1], j, got[k - 1][j]);
                    assert_int_equal(got[k - 1][j], 0);
                } else {
                    assert_true(got[k - 1][j] >= 1);
                }
            }
            private_steps += all_same;
        } else {
            for (int j = 0; j < PS_CLIENTS; j++) before[j] = ps_view(m, seat_of[j]);
        }
        if (i == rec->n_actions) break;
        assert_true(k < steps);
        assert_int_equal(to_act, who_of[k]);
        assert_int_equal(cr_match_submit_action(m, to_act, rec->actions[i], err, sizeof err),
                         CR_OK);
        k++;
    }
    assert_int_equal(k, steps);
    for (int j = 0; j < PS_CLIENTS; j++) free(before[j]);
    printf("private steps: %d of %d actions changed no other seat's view; %d quiet (seat, step)"
           " pairs drew no message\n",
           private_steps, steps, quiet);
    assert_true(private_steps > 0); /* the game had some: the check above was exercised */
    cr_match_free(m);
    cr_match_free(done);
    for (int s = 0; s < PS_CLIENTS; s++) {
        json_decref(seats[s].up);
        cl_free(seats[s].c);
    }
    cl_free(lobby);
    server_kill(&srv, SIGTERM);
}

/* ach (a result's or a replay's achievements) holds, per seat, the keys the
 * game gives the match's final state, with their title and words. */
static void check_achievements(json_t *ach, const cr_match *m)
{
    const cr_game *g = cr_match_game(m);
    const cr_game_parts *parts = cr_parts(g);
    assert_int_equal(json_array_size(ach), g->num_players);
    for (int s = 0; s < g->num_players; s++) {
        const char *keys[64];
        int n = parts->achievements(g, cr_match_state(m), s, keys, 64);
        json_t *mine = json_array_get(ach, (size_t)s);
        assert_int_equal(json_array_size(mine), n);
        for (int i = 0; i < n; i++) {
            json_t *a = json_array_get(mine, (size_t)i);
            assert_string_equal(json_string_value(json_object_get(a, "key")), keys[i]);
            const cr_achievement *d =
                cr_achievement_find(parts->achievement_list, parts->n_achievements, keys[i]);
            assert_non_null(d);
            assert_string_equal(json_string_value(json_object_get(a, "title")), d->title);
            assert_string_equal(json_string_value(json_object_get(a, "words")), d->words);
        }
    }
}

static void test_bots_game(void **state)
{
    (void)state;
    char db[512];
    db_path(db, sizeof db, "bots.db");
    server srv;
    server_start(&srv, db, NULL);
    seat_state me = {0};
    me.c = cl_open(srv.port);
    int64_t id = cl_send(me.c, create_msg("human;heuristic;random;ismcts:iters=30", 0));
    json_t *r = cl_reply(me.c, id);
    assert_string_equal(jtype(r), "created");
    char game_id[40];
    snprintf(game_id, sizeof game_id, "%s", json_string_value(json_object_get(r, "game_id")));
    json_decref(r);
    cr_rng rng;
    cr_rng_seed(&rng, 7, 7);
    me.up = cl_update(me.c);
    for (int guard = 0; guard < 20000; guard++) {
        assert_non_null(me.up);
        if (json_is_true(json_object_get(me.up, "over"))) break;
        if (your_turn(me.up)) {
            json_t *ack = play_one(&me, &rng, NULL, NULL);
            assert_string_equal(jtype(ack), "ack");
            json_decref(ack);
        }
        json_decref(me.up);
        me.up = cl_update(me.c);
    }
    assert_true(json_is_true(json_object_get(me.up, "over")));
    json_t *res = json_object_get(me.up, "result");
    assert_non_null(res);
    assert_int_equal(json_array_size(json_object_get(res, "ranks")), 4);
    /* the seat's messages are its views; the stats count the game */
    cr_match *done = fetch_record(me.c, game_id);
    /* result.achievements: per seat, the game's keys for the final state */
    check_achievements(json_object_get(res, "achievements"), done);
    json_decref(me.up);
    check_seat_messages(me.c, done, 0);
    cr_match_free(done);
    id = cl_send(me.c, json_pack("{s:s}", "type", "stats"));
    r = cl_reply(me.c, id);
    json_t *t = json_array_get(json_object_get(r, "titles"), 0);
    assert_string_equal(json_string_value(json_object_get(t, "game")), "dml");
    assert_int_equal(json_integer_value(json_object_get(t, "finished")), 1);
    json_decref(r);
    id = cl_send(me.c, json_pack("{s:s,s:s}", "type", "list", "status", "finished"));
    r = cl_reply(me.c, id);
    assert_int_equal(json_array_size(json_object_get(r, "games")), 1);
    json_decref(r);
    cl_free(me.c);
    server_kill(&srv, SIGTERM);
}

/* r is an error of this code (r is released). */
static void expect_code(json_t *r, const char *code)
{
    assert_non_null(r);
    if (strcmp(jtype(r), "error") != 0 ||
        strcmp(json_string_value(json_object_get(r, "code")), code) != 0)
        fprintf(stderr, "expected error %s, got %s\n", code, json_dumps(r, 0));
    assert_string_equal(jtype(r), "error");
    assert_string_equal(json_string_value(json_object_get(r, "code")), code);
    json_decref(r);
}

/* The error code of the reply to id. */
static void expect_error(client *c, int64_t id, const char *code)
{
    expect_code(cl_reply(c, id), code);
}

/* The next error (a reply without id). */
static void expect_error_any(client *c, const char *code)
{
    for (;;) {
        json_t *r = cl_next(c);
        assert_non_null(r);
        if (strcmp(jtype(r), "error") == 0) {
            assert_string_equal(json_string_value(json_object_get(r, "code")), code);
            json_decref(r);
            return;
        }
        json_decref(r);
    }
}

static int wait_closed(client *c)
{
    for (int i = 0; i < 500; i++) {
        pthread_mutex_lock(&c->mu);
        int closed = c->closed;
        pthread_mutex_unlock(&c->mu);
        if (closed) return 1;
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    return 0;
}

static void test_bad_input(void **state)
{
    (void)state;
    char db[512];
    db_path(db, sizeof db, "bad.db");
    server srv;
    server_start(&srv, db, "--max-msg-rate 50"); /* the default, which the flood meets */
    seat_state a = {0}, b = {0};
    a.c = cl_open(srv.port);
    int64_t id = cl_send(a.c, create_msg("invite;invite;invite;invite", 0));
    json_t *r = cl_reply(a.c, id);
    char game_id[40];
    snprintf(game_id, sizeof game_id, "%s", json_string_value(json_object_get(r, "game_id")));
    json_t *toks = json_object_get(r, "seats");
    char tok[4][64];
    for (int s = 0; s < 4; s++)
        snprintf(tok[s], sizeof tok[s], "%s",
                 json_string_value(json_object_get(json_array_get(toks, (size_t)s), "token")));
    json_decref(r);
    a.up = cl_update(a.c);
    int to_act = (int)json_integer_value(json_object_get(a.up, "to_act"));
    /* a connection of the seat to act, and one of another seat */
    seat_state mover = {0}, other = {0};
    mover.c = cl_open(srv.port);
    other.c = cl_open(srv.port);
    cl_send(mover.c,
            json_pack("{s:s,s:s,s:s}", "type", "sit", "game_id", game_id, "token", tok[to_act]));
    mover.up = cl_update(mover.c);
    assert_true(your_turn(mover.up));
    int other_seat = (to_act + 1) % 4;
    cl_send(other.c, json_pack("{s:s,s:s,s:s}", "type", "sit", "game_id", game_id, "token",
                               tok[other_seat]));
    other.up = cl_update(other.c);
    assert_false(your_turn(other.up));
    int64_t d = json_integer_value(json_object_get(mover.up, "decision"));
    uint32_t seq0 = (uint32_t)json_integer_value(json_object_get(mover.up, "seq"));

    /* a bad token: one answer for every wrong token */
    b.c = cl_open(srv.port);
    char bad[64];
    snprintf(bad, sizeof bad, "%s", tok[0]);
    bad[5] = bad[5] == 'A' ? 'B' : 'A';
    id = cl_send(b.c, json_pack("{s:s,s:s,s:s}", "type", "sit", "game_id", game_id, "token", bad));
    expect_error(b.c, id, "bad_token");
    id = cl_send(b.c, json_pack("{s:s,s:s,s:s}", "type", "sit", "game_id", game_id, "token", "x"));
    expect_error(b.c, id, "bad_token");
    /* a token of this game opens nothing in another game */
    int64_t id2 = cl_send(b.c, create_msg("invite;random;random", 0));
    r = cl_reply(b.c, id2);
    char other_game[40];
    snprintf(other_game, sizeof other_game, "%s", json_string_value(json_object_get(r, "game_id")));
    json_decref(r);
    id = cl_send(b.c,
                 json_pack("{s:s,s:s,s:s}", "type", "sit", "game_id", other_game, "token", tok[0]));
    expect_error(b.c, id, "bad_token");
    /* not seated */
    cl_free(b.c);
    b.c = cl_open(srv.port);
    id = cl_send(b.c,
                 json_pack("{s:s,s:I,s:i}", "type", "act", "decision", (json_int_t)d, "action", 0));
    expect_error(b.c, id, "not_seated");
    /* malformed frames and unknown types */
    cl_send_raw(b.c, "{\"v\":1,\"type\":", 14);
    expect_error_any(b.c, "bad_json");
    cl_send_raw(b.c, "[1,2]", 5);
    expect_error_any(b.c, "bad_json");
    id = cl_send(b.c, json_pack("{s:s}", "type", "frobnicate"));
    expect_error(b.c, id, "bad_request");
    cl_send_raw(b.c, "{\"v\":2,\"type\":\"hello\",\"id\":5}", 29);
    expect_error(b.c, 5, "version");
    /* out of turn: the other seat, with a good-looking decision */
    json_t *acts = json_object_get(mover.up, "actions");
    int32_t legal_id = (int32_t)json_integer_value(json_object_get(json_array_get(acts, 0), "id"));
    id = cl_send(other.c, json_pack("{s:s,s:I,s:i}", "type", "act", "decision",
                                    json_integer_value(json_object_get(other.up, "decision")),
                                    "action", legal_id));
    expect_error(other.c, id, "not_your_turn");
    /* stale decision */
    id = cl_send(mover.c, json_pack("{s:s,s:I,s:i}", "type", "act", "decision", (json_int_t)(d - 1),
                                    "action", legal_id));
    expect_error(mover.c, id, "stale");
    /* an illegal action id and nonsense notation */
    id = cl_send(mover.c, json_pack("{s:s,s:I,s:i}", "type", "act", "decision", (json_int_t)d,
                                    "action", 99999));
    expect_error(mover.c, id, "illegal");
    id = cl_send(mover.c, json_pack("{s:s,s:I,s:s}", "type", "act", "decision", (json_int_t)d,
                                    "text", "frobnicate 7Z"));
    expect_error(mover.c, id, "illegal");
    /* the record before the end */
    id = cl_send(mover.c, json_pack("{s:s,s:s}", "type", "record", "game_id", game_id));
    expect_error(mover.c, id, "not_finished");
    /* nothing changed: same seq; the right action is still accepted once */
    id = cl_send(mover.c, json_pack("{s:s,s:i}", "type", "history", "since", 0));
    r = cl_reply(mover.c, id);
    assert_int_equal(json_integer_value(json_object_get(r, "count")), seq0);
    json_decref(r);
    id = cl_send(mover.c, json_pack("{s:s,s:I,s:i}", "type", "act", "decision", (json_int_t)d,
                                    "action", legal_id));
    r = cl_reply(mover.c, id);
    assert_string_equal(jtype(r), "ack");
    json_decref(r);
    /* the same submission again is refused: stale while the seat still acts,
     * not_your_turn once the turn has passed (the turn is checked first) */
    id = cl_send(mover.c, json_pack("{s:s,s:I,s:i}", "type", "act", "decision", (json_int_t)d,
                                    "action", legal_id));
    r = cl_reply(mover.c, id);
    assert_string_equal(jtype(r), "error");
    const char *code = json_string_value(json_object_get(r, "code"));
    assert_true(strcmp(code, "stale") == 0 || strcmp(code, "not_your_turn") == 0);
    json_decref(r);
    /* an oversized frame closes that connection only */
    size_t big = 20000;
    char *huge = malloc(big);
    memset(huge, ' ', big);
    huge[0] = '{';
    huge[big - 1] = '}';
    cl_send_raw(b.c, huge, big);
    free(huge);
    expect_error_any(b.c, "too_large");
    assert_true(wait_closed(b.c));
    /* a flood closes that connection only */
    client *fl = cl_open(srv.port);
    for (int i = 0; i < 400; i++) cl_send_raw(fl, "{\"v\":1,\"type\":\"hello\"}", 22);
    /* the last error may be lost: the server closes a socket the client is
     * still writing to, and TCP then resets it, dropping unread data */
    for (json_t *o; (o = cl_next(fl)) != NULL; json_decref(o))
        if (strcmp(jtype(o), "error") == 0)
            assert_string_equal(json_string_value(json_object_get(o, "code")), "flood");
    assert_true(wait_closed(fl));
    cl_free(fl);
    /* everyone else is still served */
    id = cl_send(other.c, json_pack("{s:s}", "type", "hello"));
    r = cl_reply(other.c, id);
    assert_string_equal(jtype(r), "welcome");
    json_decref(r);
    json_decref(a.up);
    json_decref(mover.up);
    json_decref(other.up);
    cl_free(a.c);
    cl_free(b.c);
    cl_free(mover.c);
    cl_free(other.c);
    server_kill(&srv, SIGTERM);
}

/* kill -9 at 20 random points; after each restart every seat reconnects
 * with its token and the game goes on; every acknowledged action is in the
 * final record, in order. */
typedef struct acked {
    int seat;
    int32_t action;
} acked;

static void test_kill9_resume(void **state)
{
    (void)state;
    char db[512];
    db_path(db, sizeof db, "kill.db");
    server srv;
    server_start(&srv, db, NULL);
    client *lobby = cl_open(srv.port);
    int64_t id = cl_send(lobby, create_msg("invite;random;invite;heuristic", -1));
    json_t *r = cl_reply(lobby, id);
    char game_id[40], tok[4][64];
    snprintf(game_id, sizeof game_id, "%s", json_string_value(json_object_get(r, "game_id")));
    json_t *toks = json_object_get(r, "seats");
    int human[2];
    for (int k = 0; k < 2; k++) {
        json_t *t = json_array_get(toks, (size_t)k);
        human[k] = (int)json_integer_value(json_object_get(t, "seat"));
        snprintf(tok[k], sizeof tok[k], "%s", json_string_value(json_object_get(t, "token")));
    }
    json_decref(r);
    cl_free(lobby);
    acked *log = calloc(100000, sizeof *log);
    int n_log = 0, crashes = 0, over = 0;
    cr_rng rng;
    cr_rng_seed(&rng, 99, 1);
    for (int round = 0; round <= 20 && !over; round++) {
        seat_state ss[2] = {{0}};
        for (int k = 0; k < 2; k++) {
            ss[k].c = cl_open(srv.port);
            cl_send(ss[k].c,
                    json_pack("{s:s,s:s,s:s}", "type", "sit", "game_id", game_id, "token", tok[k]));
            ss[k].up = cl_update(ss[k].c);
            assert_non_null(ss[k].up);
            /* the seat's decision number holds every acknowledged action of it */
            int mine = 0;
            for (int i = 0; i < n_log; i++) mine += log[i].seat == human[k];
            int64_t dec = json_integer_value(json_object_get(ss[k].up, "decision"));
            int64_t done = dec - (your_turn(ss[k].up) ? 1 : 0);
            assert_true(done >= mine && done <= mine + crashes);
        }
        int steps = round == 20 ? 1 << 30 : 1 + (int)cr_rng_below(&rng, 5);
        int waits = 0;
        for (int st = 0; st < steps && !over;) {
            int who = -1;
            for (int k = 0; k < 2; k++) {
                ss[k].up = cl_latest_update(ss[k].c, ss[k].up);
                if (json_is_true(json_object_get(ss[k].up, "over"))) over = 1;
                if (your_turn(ss[k].up)) who = k;
            }
            if (over) break;
            if (who < 0) {
                /* the next update may come to either seat */
                if (++waits > 10000) {
                    fprintf(stderr, "stuck: to_act %lld / %lld, decisions %lld %lld\n",
                            json_integer_value(json_object_get(ss[0].up, "to_act")),
                            json_integer_value(json_object_get(ss[1].up, "to_act")),
                            json_integer_value(json_object_get(ss[0].up, "decision")),
                            json_integer_value(json_object_get(ss[1].up, "decision")));
                    fail();
                }
                struct timespec ts = {0, 1000000};
                nanosleep(&ts, NULL);
                continue;
            }
            waits = 0;
            int32_t a;
            json_t *ack = play_one(&ss[who], &rng, NULL, &a);
            assert_non_null(ack);
            if (strcmp(jtype(ack), "ack") == 0) {
                log[n_log].seat = human[who];
                log[n_log].action = a;
                n_log++;
                st++;
            }
            json_decref(ack);
            json_decref(ss[who].up);
            ss[who].up = cl_update(ss[who].c);
        }
        if (!over) {
            /* a submission in flight when the server dies: acked or not */
            if (your_turn(ss[0].up) || your_turn(ss[1].up)) {
                int k = your_turn(ss[0].up) ? 0 : 1;
                json_t *acts = json_object_get(ss[k].up, "actions");
                json_t *a = json_array_get(acts, 0);
                cl_send(ss[k].c,
                        json_pack("{s:s,s:I,s:I}", "type", "act", "decision",
                                  json_integer_value(json_object_get(ss[k].up, "decision")),
                                  "action", json_integer_value(json_object_get(a, "id"))));
            }
            server_kill(&srv, SIGKILL);
            crashes++;
            server_start(&srv, db, NULL);
        }
        for (int k = 0; k < 2; k++) {
            json_decref(ss[k].up);
            cl_free(ss[k].c);
        }
    }
    assert_true(over);
    client *c = cl_open(srv.port);
    cr_match *done = fetch_record(c, game_id);
    /* per seat: the acknowledged actions are in the record, in order, with
     * at most one unacknowledged one per crash */
    const cr_record *rec = cr_match_record(done);
    const cr_game *g = cr_match_game(done);
    char err[256];
    cr_params p;
    cr_record_params(rec, NULL, &p);
    uint64_t seed;
    cr_match_seed(done, &seed);
    cr_match *m = cr_match_new(g->def, &p, NULL, seed, err, sizeof err);
    int pos[2] = {0, 0}, extra = 0;
    for (int i = 0; i < rec->n_actions; i++) {
        int who = cr_match_to_act(m);
        cr_action a = rec->actions[i];
        for (int k = 0; k < 2; k++) {
            if (who != human[k]) continue;
            int j = pos[k];
            while (j < n_log && log[j].seat != human[k]) j++;
            if (j < n_log && log[j].action == a) {
                pos[k] = j + 1;
            } else {
                extra++;
            }
        }
        if (who == CR_CHANCE)
            assert_int_equal(cr_match_step(m), CR_OK);
        else
            assert_int_equal(cr_match_submit_action(m, who, a, err, sizeof err), CR_OK);
    }
    for (int k = 0; k < 2; k++) {
        for (int j = pos[k]; j < n_log; j++) assert_true(log[j].seat != human[k]);
    }
    assert_true(extra <= crashes);
    assert_int_equal(crashes, 20);
    printf("kill -9: %d crashes, %d acknowledged actions, all in the record (%d unacked kept)\n",
           crashes, n_log, extra);
    cr_match_free(m);
    cr_match_free(done);
    cl_free(c);
    free(log);
    server_kill(&srv, SIGTERM);
}

/* Open seats, spectators, handing a seat to a bot, a clock that runs out,
 * resignation. */
static void test_seats_clock_resign(void **state)
{
    (void)state;
    char db[512];
    db_path(db, sizeof db, "seats.db");
    server srv;
    server_start(&srv, db, NULL);
    client *a = cl_open(srv.port), *spec = cl_open(srv.port);
    json_t *cm = create_msg("human;invite;random;random", -1);
    json_object_set_new(
        cm, "clock",
        json_pack("{s:s,s:i,s:s}", "mode", "move", "initial_ms", 1000, "on_timeout", "random"));
    int64_t id = cl_send(a, cm);
    json_t *r = cl_reply(a, id);
    assert_string_equal(jtype(r), "created");
    char game_id[40];
    snprintf(game_id, sizeof game_id, "%s", json_string_value(json_object_get(r, "game_id")));
    json_decref(r);
    /* the open seat is listed as open, then joined */
    id = cl_send(a, json_pack("{s:s,s:s}", "type", "list", "status", "open"));
    r = cl_reply(a, id);
    assert_int_equal(json_array_size(json_object_get(r, "games")), 1);
    json_decref(r);
    id = cl_send(a, json_pack("{s:s,s:s,s:i}", "type", "join", "game_id", game_id, "seat", 1));
    expect_error(a, id, "seat_taken"); /* an invite seat is not open */
    id = cl_send(a, json_pack("{s:s,s:s}", "type", "join", "game_id", game_id));
    r = cl_reply(a, id);
    assert_string_equal(jtype(r), "joined");
    assert_int_equal(json_integer_value(json_object_get(r, "seat")), 0);
    json_decref(r);
    json_t *up = cl_update(a);
    id = cl_send(spec, json_pack("{s:s,s:s}", "type", "join", "game_id", game_id));
    expect_error(spec, id, "seat_taken");
    /* a spectator: the public view, no controls */
    cl_send(spec, json_pack("{s:s,s:s}", "type", "spectate", "game_id", game_id));
    json_t *su = cl_update(spec);
    assert_true(json_is_null(json_object_get(su, "seat")));
    assert_int_equal(json_array_size(json_object_get(su, "actions")), 0);
    assert_false(your_turn(su));
    json_decref(su);
    id = cl_send(spec,
                 json_pack("{s:s,s:I,s:i}", "type", "act", "decision", (json_int_t)1, "action", 0));
    expect_error(spec, id, "not_seated");
    /* seat 0 goes to a bot; seat 1 never plays: its clock hands it to random */
    id = cl_send(a, json_pack("{s:s,s:s}", "type", "bot", "spec", "ismcts:iters=999999999"));
    expect_error(a, id, "limit");
    id = cl_send(a, json_pack("{s:s,s:s}", "type", "bot", "spec", "random"));
    r = cl_reply(a, id);
    assert_string_equal(jtype(r), "ack");
    json_decref(r);
    for (int guard = 0; guard < 100000; guard++) {
        if (json_is_true(json_object_get(up, "over"))) break;
        json_decref(up);
        up = cl_update(a);
        assert_non_null(up);
    }
    assert_true(json_is_true(json_object_get(up, "over")));
    json_t *seats = json_object_get(up, "seats");
    assert_string_equal(json_string_value(json_object_get(json_array_get(seats, 1), "left")),
                        "timeout");
    assert_string_equal(json_string_value(json_object_get(json_array_get(seats, 0), "kind")),
                        "bot");
    json_decref(up);
    /* resignation ends a game */
    id = cl_send(a, create_msg("invite;random;random", 0));
    r = cl_reply(a, id);
    json_decref(r);
    up = cl_update(a);
    id = cl_send(a, json_pack("{s:s}", "type", "resign"));
    r = cl_reply(a, id);
    assert_string_equal(jtype(r), "ack");
    json_decref(r);
    json_decref(up);
    up = cl_update(a);
    assert_true(json_is_true(json_object_get(up, "over")));
    json_t *res = json_object_get(up, "result");
    assert_string_equal(json_string_value(json_object_get(res, "ended_by")), "resign");
    /* a game not ended by its rules earns nothing */
    json_t *ach = json_object_get(res, "achievements");
    assert_true(json_array_size(ach) > 0);
    for (size_t s = 0; s < json_array_size(ach); s++)
        assert_int_equal(json_array_size(json_array_get(ach, s)), 0);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(res, "ranks"), 0)), 3);
    json_decref(up);
    cl_free(a);
    cl_free(spec);
    server_kill(&srv, SIGTERM);
}

/* A game stored under another rules version is kept and marked, never
 * replayed under the new rules. */
static void test_outdated_rules(void **state)
{
    (void)state;
    char db[512];
    db_path(db, sizeof db, "old.db");
    server srv;
    server_start(&srv, db, NULL);
    client *a = cl_open(srv.port);
    int64_t id = cl_send(a, create_msg("invite;random;random;random", 0));
    json_t *r = cl_reply(a, id);
    char game_id[40], tok[64];
    snprintf(game_id, sizeof game_id, "%s", json_string_value(json_object_get(r, "game_id")));
    snprintf(tok, sizeof tok, "%s",
             json_string_value(
                 json_object_get(json_array_get(json_object_get(r, "seats"), 0), "token")));
    json_decref(r);
    cl_free(a);
    server_kill(&srv, SIGTERM);
    sqlite3 *h;
    assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
    assert_int_equal(sqlite3_exec(h, "UPDATE games SET rules = rules + 100", NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(h);
    server_start(&srv, db, NULL);
    a = cl_open(srv.port);
    id = cl_send(a, json_pack("{s:s}", "type", "list"));
    r = cl_reply(a, id);
    json_t *g0 = json_array_get(json_object_get(r, "games"), 0);
    assert_string_equal(json_string_value(json_object_get(g0, "status")), "outdated");
    assert_true(json_is_true(json_object_get(g0, "rules_outdated")));
    json_decref(r);
    id = cl_send(a, json_pack("{s:s,s:s,s:s}", "type", "sit", "game_id", game_id, "token", tok));
    expect_error(a, id, "outdated");
    cl_free(a);
    server_kill(&srv, SIGTERM);
}

/* The webhook: a human seat to act with no connection following it gets
 * one POST of a small JSON at the creator's URL (a listener of the test). */
static void test_webhook(void **state)
{
    (void)state;
    int ls = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(ls, (struct sockaddr *)&sa, sizeof sa), 0);
    socklen_t sl = sizeof sa;
    getsockname(ls, (struct sockaddr *)&sa, &sl);
    assert_int_equal(listen(ls, 4), 0);
    char db[512];
    db_path(db, sizeof db, "hook.db");
    server srv;
    server_start(&srv, db, NULL);
    client *a = cl_open(srv.port);
    json_t *cm = create_msg("invite;random;random;random", -1);
    char url[128];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/hook/x", ntohs(sa.sin_port));
    json_object_set_new(cm, "webhook", json_string(url));
    int64_t id = cl_send(a, cm);
    json_t *r = cl_reply(a, id);
    assert_string_equal(jtype(r), "created");
    char game_id[40];
    snprintf(game_id, sizeof game_id, "%s", json_string_value(json_object_get(r, "game_id")));
    json_decref(r);
    /* an https URL is refused */
    cm = create_msg("invite;random;random;random", -1);
    json_object_set_new(cm, "webhook", json_string("https://example.org/"));
    id = cl_send(a, cm);
    expect_error(a, id, "bad_request");
    struct timeval tv = {10, 0};
    setsockopt(ls, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    int fd = accept(ls, NULL, NULL);
    assert_true(fd >= 0);
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char req[2048];
    size_t n = 0;
    for (;;) {
        ssize_t k = recv(fd, req + n, sizeof req - 1 - n, 0);
        if (k <= 0) break;
        n += (size_t)k;
        req[n] = '\0';
        const char *body = strstr(req, "\r\n\r\n");
        if (body && strstr(body, "}")) break;
    }
    req[n] = '\0';
    assert_true(strncmp(req, "POST /hook/x HTTP/1.0\r\n", 23) == 0);
    const char *body = strstr(req, "\r\n\r\n");
    assert_non_null(body);
    json_t *o = json_loads(body + 4, 0, NULL);
    assert_non_null(o);
    assert_string_equal(json_string_value(json_object_get(o, "game")), game_id);
    assert_int_equal(json_integer_value(json_object_get(o, "seat")), 0);
    assert_string_equal(json_string_value(json_object_get(o, "event")), "your_turn");
    json_decref(o);
    const char *ok = "HTTP/1.0 204 No Content\r\n\r\n";
    send(fd, ok, strlen(ok), MSG_NOSIGNAL);
    close(fd);
    close(ls);
    cl_free(a);
    server_kill(&srv, SIGTERM);
}

/* ---- bots in seats: thinking outside the game's mutex, deadline, memory ---- */

/* GET /api/server as JSON. */
static json_t *server_status(int port)
{
    char err[256];
    struct mg_connection *mc = mg_download("127.0.0.1", port, 0, err, sizeof err, "%s",
                                           "GET /api/server HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
    assert_non_null(mc);
    char body[4096];
    size_t n = 0;
    for (int r; n + 1 < sizeof body && (r = mg_read(mc, body + n, sizeof body - 1 - n)) > 0;)
        n += (size_t)r;
    body[n] = '\0';
    mg_close_connection(mc);
    json_error_t je;
    json_t *o = json_loads(body, 0, &je);
    assert_non_null(o);
    return o;
}

static json_int_t bot_counter(int port, const char *name)
{
    json_t *o = server_status(port);
    json_int_t v = json_integer_value(json_object_get(json_object_get(o, "bots"), name));
    json_decref(o);
    return v;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* While an ISMCTS bot searches for 1.5 s, a spectator of the same game is
 * served at once; a resignation during the search ends the game at once,
 * and the bot's move, stale now, is dropped. */
static void test_bot_thinks_unlocked(void **state)
{
    (void)state;
    char db[512];
    db_path(db, sizeof db, "think.db");
    server srv;
    server_start(&srv, db, "--bot-deadline-ms 3000");
    client *a = cl_open(srv.port), *spec = cl_open(srv.port);
    int64_t id = cl_send(a, create_msg("ismcts:ms=1500;human;ismcts:ms=1500;ismcts:ms=1500", 1));
    json_t *r = cl_reply(a, id);
    assert_string_equal(jtype(r), "created");
    char game_id[40];
    snprintf(game_id, sizeof game_id, "%s", json_string_value(json_object_get(r, "game_id")));
    json_decref(r);
    /* the roll-off decides who starts: seat 1 plays until a bot is to act */
    seat_state me = {.c = a};
    cr_rng rng;
    cr_rng_seed(&rng, 3, 3);
    me.up = cl_update(a);
    for (int guard = 0; guard < 100 && your_turn(me.up); guard++) {
        json_t *ack = play_one(&me, &rng, NULL, NULL);
        assert_string_equal(jtype(ack), "ack");
        json_decref(ack);
        json_decref(me.up);
        me.up = cl_update(a);
        assert_non_null(me.up);
    }
    int bot = (int)json_integer_value(json_object_get(me.up, "to_act"));
    assert_true(bot == 0 || bot == 2 || bot == 3);
    json_decref(me.up);
    /* wait until a worker thinks for the bot: on a loaded machine the
     * resignation below could otherwise come before the search starts, and
     * no move would be stale (it failed so once in CI) */
    for (int i = 0; i < 100 && bot_counter(srv.port, "thinking") == 0; i++) {
        struct timespec ts = {0, 10000000L};
        nanosleep(&ts, NULL);
    }
    assert_int_equal(bot_counter(srv.port, "thinking"), 1);
    double t0 = now_s();
    cl_send(spec, json_pack("{s:s,s:s}", "type", "spectate", "game_id", game_id));
    json_t *su = cl_update(spec);
    assert_non_null(su);
    double waited = now_s() - t0;
    assert_int_equal(json_integer_value(json_object_get(su, "to_act")), bot); /* still thinking */
    json_decref(su);
    assert_true(waited < 0.8);
    id = cl_send(spec, json_pack("{s:s,s:s}", "type", "history", "game_id", game_id));
    r = cl_reply(spec, id);
    assert_non_null(r);
    assert_true(now_s() - t0 < 0.8);
    json_decref(r);
    /* seat 1 resigns while P0's bot still thinks: the game ends now */
    id = cl_send(a, json_pack("{s:s}", "type", "resign"));
    r = cl_reply(a, id);
    assert_string_equal(jtype(r), "ack");
    json_decref(r);
    assert_true(now_s() - t0 < 1.2);
    json_t *up = NULL;
    for (int guard = 0; guard < 100; guard++) {
        up = cl_update(a);
        assert_non_null(up);
        if (json_is_true(json_object_get(up, "over"))) break;
        json_decref(up);
        up = NULL;
    }
    assert_non_null(up);
    json_decref(up);
    /* the search ends; its move is stale and dropped: no bot move was played */
    for (int i = 0; i < 60 && bot_counter(srv.port, "stale") == 0; i++) {
        struct timespec ts = {0, 100000000L};
        nanosleep(&ts, NULL);
    }
    assert_int_equal(bot_counter(srv.port, "stale"), 1);
    assert_int_equal(bot_counter(srv.port, "moves"), 0);
    cr_match *done = fetch_record(a, game_id);
    assert_int_equal(cr_match_record(done)->n_marks >= 1, 1);
    for (int i = 0; i < cr_match_record(done)->n_actions; i++) /* seat 1 and chance only */
        assert_true(cr_match_actor(done, i) == 1 || cr_match_actor(done, i) == CR_CHANCE);
    cr_match_free(done);
    cl_free(a);
    cl_free(spec);
    server_kill(&srv, SIGTERM);
}

/* Plays seat `seat` of game_id (token or the creating connection) to the
 * end with random choices; returns the last update. */
static json_t *play_to_end(seat_state *me, cr_rng *rng)
{
    for (int guard = 0; guard < 20000; guard++) {
        assert_non_null(me->up);
        if (json_is_true(json_object_get(me->up, "over"))) return me->up;
        if (your_turn(me->up)) {
            json_t *ack = play_one(me, rng, NULL, NULL);
            assert_string_equal(jtype(ack), "ack");
            json_decref(ack);
        }
        json_decref(me->up);
        me->up = cl_update(me->c);
    }
    fail_msg("the game did not end");
    return NULL;
}

/* A bot that overruns the per-move deadline has the random policy's move
 * played instead; the record replays exactly (it holds what was played). */
static void test_bot_deadline(void **state)
{
    (void)state;
    char db[512];
    db_path(db, sizeof db, "deadline.db");
    server srv;
    server_start(&srv, db, "--bot-deadline-ms 1");
    seat_state me = {0};
    me.c = cl_open(srv.port);
    int64_t id = cl_send(me.c, create_msg("human;ismcts:iters=5000;ismcts:iters=5000;random", 0));
    json_t *r = cl_reply(me.c, id);
    assert_string_equal(jtype(r), "created");
    char game_id[40];
    snprintf(game_id, sizeof game_id, "%s", json_string_value(json_object_get(r, "game_id")));
    json_decref(r);
    cr_rng rng;
    cr_rng_seed(&rng, 5, 5);
    me.up = cl_update(me.c);
    json_decref(play_to_end(&me, &rng));
    assert_true(bot_counter(srv.port, "late") > 0);
    assert_true(bot_counter(srv.port, "moves") >= bot_counter(srv.port, "late"));
    assert_int_equal(bot_counter(srv.port, "stale"), 0);
    cr_match *done = fetch_record(me.c, game_id); /* every stored action replays as legal */
    assert_true(cr_match_over(done));
    cr_match_free(done);
    cl_free(me.c);
    server_kill(&srv, SIGTERM);
}

/* The memory cap holds at run time: a game resumed by a server with a
 * smaller --bot-memory-mb has its too-large bot's moves played by the
 * random policy (the tree is never allocated beyond the cap). */
static void test_bot_memory_cap(void **state)
{
    (void)state;
    char db[512];
    db_path(db, sizeof db, "memory.db");
    server srv;
    server_start(&srv, db, NULL);
    client *lobby = cl_open(srv.port);
    int64_t id =
        cl_send(lobby, create_msg("invite;ismcts:iters=50,nodes=200000;random;random", -1));
    json_t *r = cl_reply(lobby, id);
    assert_string_equal(jtype(r), "created");
    char game_id[40];
    seat_state me = {0};
    snprintf(game_id, sizeof game_id, "%s", json_string_value(json_object_get(r, "game_id")));
    snprintf(me.token, sizeof me.token, "%s",
             json_string_value(
                 json_object_get(json_array_get(json_object_get(r, "seats"), 0), "token")));
    json_decref(r);
    cl_free(lobby);
    server_kill(&srv, SIGTERM);
    server_start(&srv, db, "--bot-memory-mb 2"); /* 200,000 nodes take ~7 MB */
    me.c = cl_open(srv.port);
    cl_send(me.c, json_pack("{s:s,s:s,s:s}", "type", "sit", "game_id", game_id, "token", me.token));
    me.up = cl_update(me.c);
    cr_rng rng;
    cr_rng_seed(&rng, 6, 6);
    json_decref(play_to_end(&me, &rng));
    assert_int_equal(bot_counter(srv.port, "over_memory"), 1);
    assert_true(bot_counter(srv.port, "moves") > 0);
    cl_free(me.c);
    server_kill(&srv, SIGTERM);
}

/* Sleeps ms milliseconds. */
static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* The `record` reply of game_id once its game is over (asked every 20 ms,
 * for at most 10 s; a running game's record is refused as not_finished):
 * the caller owns it. */
static json_t *wait_finished_record(client *c, const char *game_id)
{
    for (int guard = 0;; guard++) {
        assert_true(guard < 500);
        json_t *r =
            cl_reply(c, cl_send(c, json_pack("{s:s,s:s}", "type", "record", "game_id", game_id)));
        if (strcmp(jtype(r), "record") == 0) {
            assert_non_null(strstr(json_string_value(json_object_get(r, "record")), "# game over"));
            return r;
        }
        assert_string_equal(json_string_value(json_object_get(r, "code")), "not_finished");
        json_decref(r);
        sleep_ms(20);
    }
}

/* Reads updates until it is the seat's turn. */
static json_t *until_my_turn(client *c, json_t *up)
{
    for (int guard = 0; guard < 10000 && !your_turn(up); guard++) {
        assert_false(up && json_is_true(json_object_get(up, "over")));
        json_decref(up);
        up = cl_update(c);
        assert_non_null(up);
    }
    return up;
}

/* A total-time clock survives kill -9: the time a seat spent before the
 * crash (and while the server was down, its move still running) is not
 * given back by the restart. */
static void test_clock_survives_restart(void **state)
{
    (void)state;
    char db[512];
    db_path(db, sizeof db, "clock.db");
    server srv;
    server_start(&srv, db, NULL);
    client *a = cl_open(srv.port);
    json_t *cm = create_msg("invite;random;random;random", -1);
    json_object_set_new(cm, "clock",
                        json_pack("{s:s,s:i,s:i,s:s}", "mode", "total", "initial_ms", 60000,
                                  "increment_ms", 0, "on_timeout", "end"));
    int64_t id = cl_send(a, cm);
    json_t *r = cl_reply(a, id);
    assert_string_equal(jtype(r), "created");
    char game_id[40];
    seat_state me = {0};
    snprintf(game_id, sizeof game_id, "%s", json_string_value(json_object_get(r, "game_id")));
    snprintf(me.token, sizeof me.token, "%s",
             json_string_value(
                 json_object_get(json_array_get(json_object_get(r, "seats"), 0), "token")));
    json_decref(r);
    me.c = a;
    cl_send(a, json_pack("{s:s,s:s,s:s}", "type", "sit", "game_id", game_id, "token", me.token));
    me.up = until_my_turn(a, cl_update(a));
    sleep_ms(1500); /* thinking: 1.5 s of seat 0's budget */
    cr_rng rng;
    cr_rng_seed(&rng, 8, 8);
    json_t *ack = play_one(&me, &rng, NULL, NULL);
    assert_string_equal(jtype(ack), "ack");
    json_decref(ack);
    json_decref(me.up);
    me.up = until_my_turn(a, cl_update(a));
    sleep_ms(1000); /* 1 s more, then the crash */
    json_decref(me.up);
    cl_free(a);
    server_kill(&srv, SIGKILL);
    server_start(&srv, db, NULL);
    sleep_ms(300);
    me.c = cl_open(srv.port);
    cl_send(me.c, json_pack("{s:s,s:s,s:s}", "type", "sit", "game_id", game_id, "token", me.token));
    me.up = cl_update(me.c);
    assert_non_null(me.up);
    assert_true(your_turn(me.up));
    json_t *clock = json_object_get(me.up, "clock");
    assert_non_null(clock);
    assert_int_equal(json_integer_value(json_object_get(clock, "running")), 0);
    json_int_t left = json_integer_value(json_array_get(json_object_get(clock, "remaining_ms"), 0));
    if (left > 57400 || left < 40000) fprintf(stderr, "remaining after restart: %lld ms\n", left);
    assert_true(left <= 57400); /* 60 s - 1.5 s - 1 s - 0.3 s (+ slack) */
    assert_true(left >= 40000);
    json_decref(me.up);
    cl_free(me.c);
    server_kill(&srv, SIGTERM);
}

static json_int_t server_field(int port, const char *name)
{
    json_t *o = server_status(port);
    json_int_t v = json_integer_value(json_object_get(o, name));
    json_decref(o);
    return v;
}

/* The server's figure once it reaches want, waiting up to 10 s: a game
 * leaves the table just after its last updates are written, so a client
 * that has read them can ask a moment before the server has dropped it. */
static json_int_t server_field_reaches(int port, const char *name, json_int_t want)
{
    json_int_t v = server_field(port, name);
    for (int i = 0; i < 1000 && v != want; i++) {
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
        v = server_field(port, name);
    }
    return v;
}

/* A finished game leaves memory once its last update is sent; history,
 * record and spectating load it from the store on demand, and it does not
 * count against --max-games (which counts running games). */
static void test_finished_evicted(void **state)
{
    (void)state;
    char db[512];
    db_path(db, sizeof db, "evict.db");
    server srv;
    server_start(&srv, db, "--max-games 1");
    seat_state me = {0};
    me.c = cl_open(srv.port);
    int64_t id = cl_send(me.c, create_msg("human;random;random;random", 0));
    json_t *r = cl_reply(me.c, id);
    assert_string_equal(jtype(r), "created");
    char game_id[40];
    snprintf(game_id, sizeof game_id, "%s", json_string_value(json_object_get(r, "game_id")));
    json_decref(r);
    assert_int_equal(server_field(srv.port, "games_loaded"), 1);
    me.up = cl_update(me.c);
    /* full: a second game is refused while the first runs */
    client *other = cl_open(srv.port);
    id = cl_send(other, create_msg("random;random", -1));
    expect_error(other, id, "limit");
    cr_rng rng;
    cr_rng_seed(&rng, 9, 9);
    json_decref(play_to_end(&me, &rng));
    /* over: out of the table (its follower still reads its history) */
    assert_int_equal(server_field_reaches(srv.port, "games_loaded", 0), 0);
    assert_int_equal(server_field_reaches(srv.port, "games_running", 0), 0);
    id = cl_send(me.c, json_pack("{s:s}", "type", "history"));
    r = cl_reply(me.c, id);
    assert_string_equal(jtype(r), "history");
    json_decref(r);
    /* another connection: spectate, history and record come from the store */
    cl_send(other, json_pack("{s:s,s:s}", "type", "spectate", "game_id", game_id));
    json_t *up = cl_update(other);
    assert_non_null(up);
    assert_true(json_is_true(json_object_get(up, "over")));
    json_decref(up);
    cr_match *done = fetch_record(other, game_id);
    assert_true(cr_match_over(done));
    cr_match_free(done);
    assert_int_equal(server_field(srv.port, "games_loaded"), 0);
    /* the finished game counts no more: a new one fits under --max-games 1 */
    id = cl_send(other, create_msg("random;random;random", -1));
    r = cl_reply(other, id);
    assert_string_equal(jtype(r), "created");
    json_decref(r);
    cl_free(other);
    cl_free(me.c);
    server_kill(&srv, SIGTERM);
}

/* ---- replay: a finished game's table at any step ---- */

/* The observation JSON and event count of `seat` (or CR_SEAT_PUBLIC) after
 * the first k actions of done's record, by loading the record cut there. */
static json_t *view_at(const cr_match *done, int k, int seat, uint32_t *events)
{
    char *text = NULL, err[256];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_int_equal(cr_match_save(done, f, err, sizeof err), CR_OK);
    fclose(f);
    cr_record r;
    cr_record_init(&r);
    cr_game *rg = NULL;
    void *rst = NULL;
    assert_int_equal(cr_record_load(text, len, NULL, &r, &rg, &rst, err, sizeof err), CR_OK);
    cr_free(rst);
    cr_game_free(rg);
    free(text);
    cr_record_truncate(&r, k);
    r.n_marks = 0; /* the game as played up to k, seats as created */
    text = NULL;
    f = open_memstream(&text, &len);
    assert_int_equal(cr_record_write(&r, f, err, sizeof err), CR_OK);
    fclose(f);
    cr_record_fini(&r);
    cr_match *m = cr_match_load(text, len, NULL, 0, err, sizeof err);
    if (!m) fprintf(stderr, "cut record: %s\n", err);
    assert_non_null(m);
    free(text);
    const cr_game *g = cr_match_game(m);
    void *obs = malloc(g->obs_size);
    cr_match_observe(m, seat, obs);
    size_t need = g->def->obs_to_json(g, obs, NULL, 0);
    char *js = malloc(need + 1);
    g->def->obs_to_json(g, obs, js, need + 1);
    json_error_t je;
    json_t *o = json_loads(js, 0, &je);
    assert_non_null(o);
    *events = cr_match_event_count(m);
    free(js);
    free(obs);
    cr_match_free(m);
    return o;
}

static json_t *replay_req(client *c, const char *game_id, json_int_t step, int seat)
{
    json_t *o = json_pack("{s:s,s:s,s:I}", "type", "replay", "game_id", game_id, "step", step);
    if (seat >= 0) json_object_set_new(o, "seat", json_integer(seat));
    return cl_reply(c, cl_send(c, o));
}

/* GET path on the server: the status code, the body into body[cap]. */
static int http_get(int port, const char *path, char *body, size_t cap)
{
    char err[256];
    struct mg_connection *mc = mg_download("127.0.0.1", port, 0, err, sizeof err,
                                           "GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n", path);
    assert_non_null(mc);
    size_t n = 0;
    for (int r; n + 1 < cap && (r = mg_read(mc, body + n, cap - 1 - n)) > 0;) n += (size_t)r;
    body[n] = '\0';
    int status = mg_get_response_info(mc)->status_code;
    mg_close_connection(mc);
    return status;
}

/* DML-2015 (issue 16): `create` takes the 2015 variant and its switches,
 * which the record carries; a switch given to the 2016 edition is refused
 * with the variant it belongs to, and makes no game. */
static void test_create_dml_2015(void **state)
{
    (void)state;
    char db[512];
    db_path(db, sizeof db, "dml2015.db");
    server srv;
    server_start(&srv, db, NULL);
    client *c = cl_open(srv.port);
    json_t *o = json_pack("{s:s,s:s,s:s,s:[s,s,s,s],s:{s:s}}", "type", "create", "game", "dml",
                          "variant", "dml-2015", "seats", "random", "random", "random", "random",
                          "options", "bm-wager", "yes");
    json_t *r = cl_reply(c, cl_send(c, o));
    assert_string_equal(jtype(r), "created");
    char game_id[40];
    snprintf(game_id, sizeof game_id, "%s", json_string_value(json_object_get(r, "game_id")));
    json_decref(r);
    /* four bots play it to the end; its record names the variant and switch */
    json_t *rec = wait_finished_record(c, game_id);
    const char *text = json_string_value(json_object_get(rec, "record"));
    assert_non_null(strstr(text, "\nvariant dml-2015\n"));
    assert_non_null(strstr(text, "\noption bm-wager yes\n"));
    json_decref(rec);
    o = json_pack("{s:s,s:s,s:s,s:[s,s,s,s],s:{s:s}}", "type", "create", "game", "dml", "variant",
                  "full", "seats", "random", "random", "random", "random", "options", "bm-wager",
                  "yes");
    r = cl_reply(c, cl_send(c, o));
    assert_string_equal(jtype(r), "error");
    assert_non_null(strstr(json_string_value(json_object_get(r, "message")), "dml-2015"));
    json_decref(r);
    cl_free(c);
    server_kill(&srv, SIGTERM);
}

/* Tiers (issue 19.3): the welcome lists each game's tiers; a seat named by a
 * tier plays (its record keeps the name), a tier checked against the
 * server's limits as the spec it stands for, and an unknown name refused. */
static void test_tiers(void **state)
{
    (void)state;
    char db[512];
    db_path(db, sizeof db, "tiers.db");
    server srv;
    server_start(&srv, db, NULL);
    client *c = cl_open(srv.port);
    json_t *w = cl_reply(c, cl_send(c, json_pack("{s:s}", "type", "hello")));
    assert_string_equal(jtype(w), "welcome");
    json_t *games = json_object_get(w, "games"), *dml = NULL;
    for (size_t i = 0; i < json_array_size(games); i++)
        if (!strcmp(json_string_value(json_object_get(json_array_get(games, i), "name")), "dml"))
            dml = json_array_get(games, i);
    assert_non_null(dml);
    json_t *tiers = json_object_get(dml, "tiers");
    assert_true(json_array_size(tiers) >= 3);
    assert_string_equal(json_string_value(json_object_get(json_array_get(tiers, 0), "name")),
                        "beginner");
    json_decref(w);
    json_t *o = json_pack("{s:s,s:s,s:[s,s,s,s]}", "type", "create", "game", "dml", "seats",
                          "beginner", "casual", "club", "beginner");
    json_t *r = cl_reply(c, cl_send(c, o));
    assert_string_equal(jtype(r), "created");
    char game_id[40];
    snprintf(game_id, sizeof game_id, "%s", json_string_value(json_object_get(r, "game_id")));
    json_decref(r);
    json_t *rec = wait_finished_record(c, game_id);
    assert_non_null(strstr(json_string_value(json_object_get(rec, "record")), "\nseat 2 club\n"));
    json_decref(rec);
    o = json_pack("{s:s,s:s,s:[s,s,s,s]}", "type", "create", "game", "dml", "seats", "human",
                  "grandmaster", "random", "random");
    r = cl_reply(c, cl_send(c, o));
    assert_string_equal(jtype(r), "error");
    assert_non_null(strstr(json_string_value(json_object_get(r, "message")), "grandmaster"));
    json_decref(r);
    cl_free(c);
    server_kill(&srv, SIGTERM);
}

/* A file option (18Dracula's `board`) names a path on the server's disk:
 * a client can never make the server open one.  The answer is the same
 * whether the file exists, is a board or is missing, and names no path. */
static void test_file_option_refused(void **state)
{
    (void)state;
    char db[512], board[512];
    db_path(db, sizeof db, "fileopt.db");
    db_path(board, sizeof board, "mine.board");
    FILE *f = fopen(board, "w");
    assert_non_null(f);
    fputs("croupier-board 18dracula 1\ntitle \"x\"\n", f);
    fclose(f);
    server srv;
    server_start(&srv, db, NULL);
    client *c = cl_open(srv.port);
    /* the lobby is not offered the option */
    json_t *w = cl_reply(c, cl_send(c, json_pack("{s:s}", "type", "hello")));
    assert_string_equal(jtype(w), "welcome");
    size_t gi;
    json_t *gm;
    int seen = 0;
    json_array_foreach(json_object_get(w, "games"), gi, gm)
    {
        size_t oi;
        json_t *op;
        json_array_foreach(json_object_get(gm, "options"), oi, op)
        {
            assert_string_not_equal(json_string_value(json_object_get(op, "type")), "file");
            seen++;
        }
    }
    assert_true(seen > 0); /* the other options are listed */
    json_decref(w);
    const char *paths[] = {"/etc/passwd", board, "/nonexistent/dir/x.board", "../../x"};
    char first[400] = "";
    for (int i = 0; i < 4; i++) {
        json_t *o = json_pack("{s:s,s:s,s:[s,s,s],s:{s:s}}", "type", "create", "game", "18dracula",
                              "seats", "invite", "random", "random", "options", "board", paths[i]);
        json_t *r = cl_reply(c, cl_send(c, o));
        assert_string_equal(jtype(r), "error");
        assert_string_equal(json_string_value(json_object_get(r, "code")), "bad_request");
        const char *msg = json_string_value(json_object_get(r, "message"));
        assert_non_null(msg);
        assert_null(strstr(msg, "passwd"));
        assert_null(strstr(msg, "/"));
        if (i == 0)
            snprintf(first, sizeof first, "%s", msg);
        else
            assert_string_equal(msg, first); /* nothing told about the file */
        json_decref(r);
    }
    /* no game was made */
    json_t *r =
        cl_reply(c, cl_send(c, json_pack("{s:s,s:s}", "type", "list", "status", "running")));
    assert_int_equal(json_array_size(json_object_get(r, "games")), 0);
    json_decref(r);
    cl_free(c);
    server_kill(&srv, SIGTERM);
}

static void test_replay(void **state)
{
    (void)state;
    char db[512];
    db_path(db, sizeof db, "replay.db");
    server srv;
    server_start(&srv, db, NULL);
    seat_state me = {0};
    me.c = cl_open(srv.port);
    int64_t id = cl_send(me.c, create_msg("human;random;random;random", 0));
    json_t *r = cl_reply(me.c, id);
    assert_string_equal(jtype(r), "created");
    char game_id[40], token[64];
    snprintf(game_id, sizeof game_id, "%s", json_string_value(json_object_get(r, "game_id")));
    snprintf(token, sizeof token, "%s",
             json_string_value(
                 json_object_get(json_array_get(json_object_get(r, "seats"), 0), "token")));
    json_decref(r);
    /* a running game: refused, and nothing of it is told */
    expect_error(
        me.c,
        cl_send(me.c, json_pack("{s:s,s:s,s:i}", "type", "replay", "game_id", game_id, "step", 0)),
        "not_finished");
    /* a second connection, not seated, is refused the same way */
    client *other = cl_open(srv.port);
    expect_error(other,
                 cl_send(other, json_pack("{s:s,s:s,s:i,s:i}", "type", "replay", "game_id", game_id,
                                          "step", 1, "seat", 1)),
                 "not_finished");
    /* the wait for that reply passed over the seat's updates: sitting again
     * sends the seat's view now (an update older than it is answered as
     * stale below, and the next one read) */
    cl_send(me.c, json_pack("{s:s,s:s,s:s}", "type", "sit", "game_id", game_id, "token", token));
    me.up = cl_update(me.c);
    cr_rng rng;
    cr_rng_seed(&rng, 11, 11);
    for (int guard = 0; guard < 20000; guard++) {
        assert_non_null(me.up);
        if (json_is_true(json_object_get(me.up, "over"))) break;
        if (your_turn(me.up)) json_decref(play_one(&me, &rng, NULL, NULL));
        json_decref(me.up);
        me.up = cl_update(me.c);
    }
    assert_true(json_is_true(json_object_get(me.up, "over")));
    json_decref(me.up);
    cr_match *done = fetch_record(me.c, game_id);
    int n = cr_match_record(done)->n_actions;
    assert_true(n > 10);
    /* each step, for a seat and for the public, is the view replayed from the record */
    int steps[] = {0, 1, n / 3, n / 2, n - 1, n, n / 3 - 1};
    int seats[] = {0, 2, -1};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        for (size_t j = 0; j < sizeof seats / sizeof seats[0]; j++) {
            int seat = seats[j];
            client *c = (i + j) % 2 ? other : me.c;
            json_t *rep = replay_req(c, game_id, steps[i], seat);
            assert_string_equal(jtype(rep), "replay");
            assert_int_equal(json_integer_value(json_object_get(rep, "step")), steps[i]);
            assert_int_equal(json_integer_value(json_object_get(rep, "steps")), n);
            assert_string_equal(json_string_value(json_object_get(rep, "game")), "dml");
            uint32_t count;
            json_t *want = view_at(done, steps[i], seat >= 0 ? seat : CR_SEAT_PUBLIC, &count);
            assert_true(json_equal(want, json_object_get(rep, "observation")));
            assert_int_equal(json_integer_value(json_object_get(rep, "seq")), count);
            /* the step's events end where the count after it begins */
            json_t *evs = json_object_get(rep, "events");
            size_t ne = json_array_size(evs);
            if (steps[i] == 0) assert_int_equal(ne, 0);
            if (ne)
                assert_int_equal(
                    json_integer_value(json_object_get(json_array_get(evs, ne - 1), "seq")) + 1,
                    count);
            if (seat >= 0)
                assert_int_equal(json_integer_value(json_object_get(rep, "seat")), seat);
            else
                assert_true(json_is_null(json_object_get(rep, "seat")));
            /* the last step says what each seat earned, as the result does */
            if (steps[i] == n)
                check_achievements(json_object_get(rep, "achievements"), done);
            else
                assert_null(json_object_get(rep, "achievements"));
            json_decref(want);
            json_decref(rep);
        }
    /* different steps show different tables */
    json_t *a = replay_req(me.c, game_id, 1, 0), *b = replay_req(me.c, game_id, n, 0);
    assert_false(json_equal(json_object_get(a, "observation"), json_object_get(b, "observation")));
    json_decref(a);
    json_decref(b);
    /* out of range, a bad seat, an unknown game, a missing step */
    expect_error(me.c,
                 cl_send(me.c, json_pack("{s:s,s:s,s:i}", "type", "replay", "game_id", game_id,
                                         "step", n + 1)),
                 "bad_request");
    expect_error(me.c,
                 cl_send(me.c, json_pack("{s:s,s:s,s:i,s:i}", "type", "replay", "game_id", game_id,
                                         "step", 0, "seat", 5)),
                 "bad_request");
    /* another game costs 10 of the 20 replay steps a second: let the
     * connection's allowance refill after the steps above (0.6 s > 10/20 s) */
    struct timespec refill = {0, 600000000};
    nanosleep(&refill, NULL);
    expect_error(me.c,
                 cl_send(me.c, json_pack("{s:s,s:s,s:i}", "type", "replay", "game_id",
                                         "0123456789abcdef0123456789abcdef", "step", 0)),
                 "no_game");
    expect_error(me.c, cl_send(me.c, json_pack("{s:s,s:s}", "type", "replay", "game_id", game_id)),
                 "bad_request");
    /* the rate limit: a burst far past it is refused with `limit`, the
     * connection stays open */
    int limited = 0;
    for (int i = 0; i < 60; i++) {
        json_t *x = replay_req(other, game_id, i % n, -1);
        if (strcmp(jtype(x), "error") == 0) {
            assert_string_equal(json_string_value(json_object_get(x, "code")), "limit");
            limited++;
        }
        json_decref(x);
    }
    assert_true(limited > 0);
    cr_match_free(done);
    cl_free(other);
    cl_free(me.c);
    /* the game data endpoint: DML has none, 18Dracula its board */
    static char body[1 << 17];
    /* the guide endpoint: each game's player's guide, with its glossary */
    assert_int_equal(http_get(srv.port, "/api/games/dml/guide", body, sizeof body), 200);
    assert_non_null(strstr(body, "## Glossary"));
    assert_int_equal(http_get(srv.port, "/api/games/18dracula/guide", body, sizeof body), 200);
    assert_non_null(strstr(body, "## Glossary"));
    assert_int_equal(http_get(srv.port, "/api/games/nosuch/guide", body, sizeof body), 404);
    assert_int_equal(http_get(srv.port, "/api/games/dml/data", body, sizeof body), 404);
    assert_int_equal(http_get(srv.port, "/api/games/nosuch/data", body, sizeof body), 404);
    assert_int_equal(http_get(srv.port, "/api/games/18dracula/data", body, sizeof body), 200);
    json_error_t je;
    json_t *d = json_loads(body, 0, &je);
    assert_non_null(d);
    assert_true(json_array_size(json_object_get(d, "locations")) > 0);
    char path[128];
    snprintf(path, sizeof path, "/api/games/18dracula/data?hash=%s",
             json_string_value(json_object_get(d, "data_hash")));
    assert_int_equal(http_get(srv.port, path, body, sizeof body), 200);
    assert_int_equal(
        http_get(srv.port, "/api/games/18dracula/data?hash=0000000000000000", body, sizeof body),
        404);
    json_decref(d);
    server_kill(&srv, SIGTERM);
}

/* A finished game of bots (created on c, waited for through `record`). */
static void finished_bots_game(client *c, char *game_id, size_t cap)
{
    int64_t id = cl_send(c, create_msg("random;random;random", -1));
    json_t *r = cl_reply(c, id);
    assert_string_equal(jtype(r), "created");
    snprintf(game_id, cap, "%s", json_string_value(json_object_get(r, "game_id")));
    json_decref(r);
    json_decref(wait_finished_record(c, game_id));
}

/* Counts the `limit` refusals of `rounds` replays alternating between games
 * a and b on c (each one takes up another game). */
static int alternate_replays(client *c, const char *a, const char *b, int rounds, int *server_wide)
{
    int limited = 0;
    for (int i = 0; i < rounds; i++) {
        json_t *x = replay_req(c, i % 2 ? b : a, 0, -1);
        if (strcmp(jtype(x), "error") == 0) {
            assert_string_equal(json_string_value(json_object_get(x, "code")), "limit");
            if (server_wide && strstr(json_string_value(json_object_get(x, "message")), "server"))
                (*server_wide)++;
            limited++;
        } else {
            assert_string_equal(jtype(x), "replay");
        }
        json_decref(x);
    }
    return limited;
}

/* A replay of another game than the connection's last loads that game and
 * rebuilds its checkpoints (its whole record replayed): it costs
 * SV_REPLAY_TAKE_COST steps of the connection's rate, and such takes are
 * capped server-wide, so neither alternating games on one connection nor
 * many connections make the server replay whole records at will. */
static void test_replay_take_limited(void **state)
{
    (void)state;
    char db[512];
    db_path(db, sizeof db, "replay_take.db");
    server srv;
    server_start(&srv, db, NULL);
    client *c = cl_open(srv.port);
    char a[40], b[40];
    finished_bots_game(c, a, sizeof a);
    finished_bots_game(c, b, sizeof b);
    /* one connection: 12 alternations are 12 takes, past a burst of 40 steps */
    assert_true(alternate_replays(c, a, b, 12, NULL) > 0);
    cl_free(c);
    /* stepping through one game stays at 20 a second (a burst of 40, less
     * the take) */
    sleep_ms(2100);
    c = cl_open(srv.port);
    int ok = 0;
    for (int i = 0; i < 25; i++) {
        json_t *x = replay_req(c, a, i, -1);
        ok += strcmp(jtype(x), "replay") == 0;
        json_decref(x);
    }
    assert_int_equal(ok, 25);
    cl_free(c);
    /* many connections: each within its own rate, the server's cap refuses */
    sleep_ms(2100);
    enum { NC = 16 };
    client *cs[NC];
    for (int i = 0; i < NC; i++) cs[i] = cl_open(srv.port);
    int server_wide = 0;
    for (int i = 0; i < NC; i++) alternate_replays(cs[i], a, b, 4, &server_wide);
    assert_true(server_wide > 0);
    for (int i = 0; i < NC; i++) cl_free(cs[i]);
    server_kill(&srv, SIGTERM);
}

/* A finished game out of memory is loaded again, its whole record
 * replayed, for each `record` (or spectate, join, replay) that names it:
 * such loads are paid from one server-wide allowance of record actions a
 * second, so a client asking for old games in a loop meets `limit`, and
 * the allowance comes back with time. */
static void test_finished_loads_limited(void **state)
{
    (void)state;
    char db[512];
    db_path(db, sizeof db, "loads.db");
    server srv;
    server_start(&srv, db, NULL);
    client *c = cl_open(srv.port);
    char a[40];
    finished_bots_game(c, a, sizeof a);
    enum { N = 300 };
    int64_t ids[N];
    for (int i = 0; i < N; i++)
        ids[i] = cl_send(c, json_pack("{s:s,s:s}", "type", "record", "game_id", a));
    int records = 0, limited = 0;
    for (int i = 0; i < N; i++) {
        json_t *r = cl_reply(c, ids[i]);
        assert_non_null(r);
        if (strcmp(jtype(r), "record") == 0) {
            records++;
        } else {
            assert_string_equal(jtype(r), "error");
            assert_string_equal(json_string_value(json_object_get(r, "code")), "limit");
            limited++;
        }
        json_decref(r);
    }
    /* a DML game is about 300 actions: the burst of 20,000 serves tens */
    assert_true(records > 0);
    assert_true(limited > 0);
    /* the allowance comes back */
    sleep_ms(2100);
    json_t *r = cl_reply(c, cl_send(c, json_pack("{s:s,s:s}", "type", "record", "game_id", a)));
    assert_string_equal(jtype(r), "record");
    json_decref(r);
    cl_free(c);
    server_kill(&srv, SIGTERM);
}

/* ---- the coach: analyse and hint (issue 19) ---- */

static json_t *analyse_req(client *c, const char *game_id, int seat, int iters)
{
    json_t *o = json_pack("{s:s,s:s,s:i}", "type", "analyse", "game_id", game_id, "seat", seat);
    if (iters > 0) json_object_set_new(o, "iters", json_integer(iters));
    return cl_reply(c, cl_send(c, o));
}

static json_t *hint_req(client *c, const char *tier)
{
    json_t *o = json_pack("{s:s}", "type", "hint");
    if (tier) json_object_set_new(o, "tier", json_string(tier));
    return cl_reply(c, cl_send(c, o));
}

/* The lobby's `hints` of a game. */
static int listed_hints(client *c, const char *game_id)
{
    json_t *r = cl_reply(c, cl_send(c, json_pack("{s:s}", "type", "list")));
    json_t *games = json_object_get(r, "games");
    int hints = -1;
    for (size_t i = 0; i < json_array_size(games); i++) {
        json_t *g = json_array_get(games, i);
        if (strcmp(json_string_value(json_object_get(g, "game_id")), game_id) == 0)
            hints = json_is_true(json_object_get(g, "hints"));
    }
    json_decref(r);
    return hints;
}

/* The next update of game game_id on c (those of a game c left are skipped). */
static json_t *update_of(client *c, const char *game_id)
{
    for (;;) {
        json_t *up = cl_update(c);
        assert_non_null(up);
        const char *id = json_string_value(json_object_get(up, "game_id"));
        if (id && strcmp(id, game_id) == 0) return up;
        json_decref(up);
    }
}

/* A game created on c (sit at seat 0), its id in game_id. */
static void create_sat(client *c, json_t *msg, char *game_id, size_t cap)
{
    json_t *r = cl_reply(c, cl_send(c, msg));
    assert_string_equal(jtype(r), "created");
    snprintf(game_id, cap, "%s", json_string_value(json_object_get(r, "game_id")));
    json_decref(r);
}

/* `analyse`: refused for a running game and a seat the game does not have;
 * for a finished game, the analysis cr_analyse_record gives on its record
 * (same iterations, seed 1), the same again from the cache; a second
 * analysis from the same address while one runs is `limit`.  `hint`: at a
 * table of one human, what the strongest tier would play; a tier the game
 * does not have is refused; at a table of two humans refused unless the
 * creator said "hints": "allowed", which the lobby shows, and which
 * survives a restart (the match is rebuilt from the store). */
static void test_coach(void **state)
{
    (void)state;
    char db[512];
    db_path(db, sizeof db, "coach.db");
    server srv;
    server_start(&srv, db, NULL);
    client *c = cl_open(srv.port);

    /* a running game: no analysis */
    char running[40];
    create_sat(c, create_msg("human;club;club", 0), running, sizeof running);
    json_t *up = until_my_turn(c, update_of(c, running));
    assert_true(json_is_true(json_object_get(up, "hints"))); /* the update says so */
    json_decref(up);
    expect_code(analyse_req(c, running, 0, 50), "not_finished");
    /* hints at one human against bots */
    json_t *h = hint_req(c, NULL);
    assert_string_equal(jtype(h), "hint");
    assert_int_equal(json_integer_value(json_object_get(h, "seat")), 0);
    assert_string_equal(json_string_value(json_object_get(h, "tier")), "master");
    assert_non_null(strstr(json_string_value(json_object_get(h, "text")), "master would play: "));
    json_t *again = hint_req(c, NULL); /* the same position: the same hint */
    assert_string_equal(json_string_value(json_object_get(again, "text")),
                        json_string_value(json_object_get(h, "text")));
    json_decref(again);
    json_decref(h);
    h = hint_req(c, "club");
    assert_non_null(strstr(json_string_value(json_object_get(h, "text")), "club would play: "));
    json_decref(h);
    expect_code(hint_req(c, "grandmaster"), "bad_request");
    assert_int_equal(listed_hints(c, running), 0);

    /* two humans: refused without agreement, given with it */
    char two[40], agreed[40];
    create_sat(c, create_msg("human;human;club", 0), two, sizeof two);
    up = update_of(c, two);
    assert_true(json_is_false(json_object_get(up, "hints")));
    json_decref(up);
    expect_code(hint_req(c, NULL), "illegal");
    assert_int_equal(listed_hints(c, two), 0);
    json_t *o = create_msg("human;human;club", 0);
    json_object_set_new(o, "hints", json_string("allowed"));
    create_sat(c, o, agreed, sizeof agreed);
    up = update_of(c, agreed);
    assert_true(json_is_true(json_object_get(up, "hints")));
    json_decref(up);
    assert_int_equal(listed_hints(c, agreed), 1);
    /* allowed now: a hint when P0 is to act, else not_your_turn, never illegal */
    h = hint_req(c, "club");
    if (strcmp(jtype(h), "hint") == 0) {
        assert_non_null(strstr(json_string_value(json_object_get(h, "text")), "club would play: "));
        json_decref(h);
    } else {
        expect_code(h, "not_your_turn");
    }
    o = create_msg("human;human;club", 0);
    json_object_set_new(o, "hints", json_string("maybe"));
    expect_code(cl_reply(c, cl_send(c, o)), "bad_request");
    /* not seated: no hint */
    client *d = cl_open(srv.port);
    expect_code(hint_req(d, NULL), "not_seated");

    /* a finished game: the analysis of cr_analyse_record */
    char done[40];
    finished_bots_game(c, done, sizeof done);
    expect_code(analyse_req(c, done, 3, 50), "bad_request"); /* 3 seats: 0..2 */
    json_t *a = analyse_req(c, done, 1, 50);
    assert_string_equal(jtype(a), "analysis");
    cr_match *m = fetch_record(c, done);
    cr_analysis_opts ao = {.iters = 50, .threads = 1, .seed = 1};
    cr_analysis_entry *e = NULL;
    int n = 0;
    cr_analysis_summary sum;
    char err[256];
    assert_int_equal(cr_analyse_record(cr_match_game(m), cr_match_record(m), 1, &ao, &e, &n, &sum,
                                       NULL, NULL, err, sizeof err),
                     CR_OK);
    json_t *decs = json_object_get(a, "decisions"), *js = json_object_get(a, "summary");
    assert_int_equal(json_array_size(decs), n);
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        json_t *x = json_array_get(decs, (size_t)i);
        assert_int_equal(json_integer_value(json_object_get(x, "step")), e[i].step + 1);
        assert_int_equal(json_integer_value(json_object_get(x, "decision")), e[i].decision + 1);
        assert_true(fabs(json_number_value(json_object_get(x, "played_win")) - e[i].played_win) <
                    1e-5);
        assert_true(fabs(json_number_value(json_object_get(x, "best_win")) - e[i].best_win) < 1e-5);
        static const char *const marks[] = {"fine", "doubtful", "blunder"};
        assert_string_equal(json_string_value(json_object_get(x, "mark")), marks[e[i].mark]);
    }
    assert_int_equal(json_integer_value(json_object_get(js, "analysed")), sum.decisions);
    assert_int_equal(json_integer_value(json_object_get(js, "doubtful")), sum.doubtful);
    assert_int_equal(json_integer_value(json_object_get(js, "blunders")), sum.blunders);
    assert_true(fabs(json_number_value(json_object_get(js, "error_rate")) - sum.error_rate) < 1e-3);
    cr_free(e);
    cr_match_free(m);
    /* the cache: the same answer */
    json_t *b = analyse_req(d, done, 1, 50);
    json_object_del(a, "re");
    json_object_del(b, "re");
    assert_true(json_equal(a, b));
    json_decref(a);
    json_decref(b);

    /* the cap: one analysis at a time from one address */
    int64_t slow = cl_send(c, json_pack("{s:s,s:s,s:i,s:i}", "type", "analyse", "game_id", done,
                                        "seat", 0, "iters", 2000));
    sleep_ms(300);
    json_t *busy = analyse_req(d, done, 2, 60);
    assert_string_equal(jtype(busy), "error");
    assert_string_equal(json_string_value(json_object_get(busy, "code")), "limit");
    assert_non_null(strstr(json_string_value(json_object_get(busy, "message")), "one analysis"));
    json_decref(busy);
    a = cl_reply(c, slow);
    assert_string_equal(jtype(a), "analysis");
    json_decref(a);
    cl_free(d);
    cl_free(c);
    server_kill(&srv, SIGTERM);

    /* the agreement survives a restart: the match is rebuilt from the store */
    server_start(&srv, db, NULL);
    c = cl_open(srv.port);
    assert_int_equal(listed_hints(c, agreed), 1);
    assert_int_equal(listed_hints(c, two), 0);
    cl_free(c);
    server_kill(&srv, SIGTERM);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cr-server-XXXXXX");
    if (!mkdtemp(tmpdir)) return 1;
    signal(SIGPIPE, SIG_IGN);
    mg_init_library(0);
    /* CR_TEST_FILTER=test_name (a cmocka pattern): only the tests it names */
    if (getenv("CR_TEST_FILTER")) cmocka_set_test_filter(getenv("CR_TEST_FILTER"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_bad_input, kill_live),
        cmocka_unit_test_teardown(test_full_game_four_humans, kill_live),
        cmocka_unit_test_teardown(test_private_steps_draw_nothing, kill_live),
        cmocka_unit_test_teardown(test_bots_game, kill_live),
        cmocka_unit_test_teardown(test_replay, kill_live),
        cmocka_unit_test_teardown(test_replay_take_limited, kill_live),
        cmocka_unit_test_teardown(test_coach, kill_live),
        cmocka_unit_test_teardown(test_file_option_refused, kill_live),
        cmocka_unit_test_teardown(test_create_dml_2015, kill_live),
        cmocka_unit_test_teardown(test_tiers, kill_live),
        cmocka_unit_test_teardown(test_finished_loads_limited, kill_live),
        cmocka_unit_test_teardown(test_bot_thinks_unlocked, kill_live),
        cmocka_unit_test_teardown(test_bot_deadline, kill_live),
        cmocka_unit_test_teardown(test_bot_memory_cap, kill_live),
        cmocka_unit_test_teardown(test_clock_survives_restart, kill_live),
        cmocka_unit_test_teardown(test_finished_evicted, kill_live),
        cmocka_unit_test_teardown(test_seats_clock_resign, kill_live),
        cmocka_unit_test_teardown(test_outdated_rules, kill_live),
        cmocka_unit_test_teardown(test_webhook, kill_live),
        cmocka_unit_test_teardown(test_kill9_resume, kill_live),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    mg_exit_library();
    char cmd[400];
    snprintf(cmd, sizeof cmd, "%s", tmpdir);
    /* remove the databases */
    const char *names[] = {"four.db",  "bots.db", "bad.db", "kill.db",
                           "seats.db", "old.db",  "hook.db"};
    const char *sfx[] = {"", "-wal", "-shm", ".lock"};
    for (int i = 0; i < 7; i++)
        for (int j = 0; j < 4; j++) {
            snprintf(cmd, sizeof cmd, "%s/%s%s", tmpdir, names[i], sfx[j]);
            unlink(cmd);
        }
    rmdir(tmpdir);
    return rc;
}
