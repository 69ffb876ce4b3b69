/* tests/server/test_soak_kill9.c — the kill -9 soak (issue 15, point 5):
 * `croupier serve` as a real process, on loopback, on SQLite (a temporary
 * file) or on PostgreSQL (CR_TEST_STORE_URL, set by tests/server/on_pg.sh
 * from CROUPIER_TEST_PG; a schema of its own, dropped at the end), killed
 * with SIGKILL again and again while games are played.
 *
 * Three games run at once, each with two human seats played here (random
 * legal actions, submitted as soon as the seat is to act) and two bots, a
 * `heuristic` and an `ismcts:iters=1000` (tens of milliseconds a move on
 * the test machine, while the humans answer in microseconds), so a kill often lands while a bot is
 * searching, or while a submission is in flight.  Each round re-sits every seat (the `sit` of a
 * reconnecting client), plays for a delay drawn from a seeded generator (0 to 500 ms), sometimes
 * sends one more action, and kills the server (kill -9); it is started again on the same store.  A
 * game that ends is replaced by a new one.
 *
 * What the client counts:
 *   acknowledged  every `ack` it received (an `ack` that reached the socket
 *                 before the server died counts: the server sent it);
 *   lost          acknowledged actions the server no longer has: after each
 *                 restart the seat's decision number must count all of the
 *                 seat's acknowledged actions, and at the end (every game
 *                 over: played out, or resigned) the seat's d-th decision in
 *                 the stored record must be the action acknowledged for
 *                 decision d;
 *   changed       events that differ from what the seat saw before: after
 *                 each restart `history` from 0 must give every event seen
 *                 before, byte for byte (keys sorted), and at the end every
 *                 event seen must be the seat's rendering of the finished
 *                 record's event (cr_match_event_json);
 * and prints them with the kills, the kills that found a bot thinking
 * (/api/server bots.thinking just before the kill), the submissions in
 * flight at a kill and how many of those the record holds (stored, but the
 * ack died with the server: docs/server.md allows either).  lost and
 * changed must be 0.
 *
 * Parameters (environment): CROUPIER_SOAK_KILLS (default 20: the short
 * form CTest runs), CROUPIER_SOAK_SEED (default 1).  The long form:
 *   CROUPIER_SOAK_KILLS=100 build/tests/server_test_soak_kill9
 *   CROUPIER_SOAK_KILLS=100 CROUPIER_TEST_PG=postgres://... \
 *       bash tests/server/on_pg.sh build/tests/server_test_soak_kill9
 * The server's stderr goes to /tmp/cr-soak-PID.log (removed when the soak
 * passes). */
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
#ifdef CR_HAVE_PG
#include <libpq-fe.h>
#endif

#include "civetweb.h"
#include "croupier/match.h"
#include "croupier/record.h"
#include "croupier/rng.h"

#ifndef CR_CLI_PATH
#error "CR_CLI_PATH: the croupier program"
#endif

enum { WAIT_MS = 30000, LIVE_GAMES = 3, MAX_GAMES = 400, HUMANS = 2 };

static char db_url[1200]; /* --db */
static int on_pg;
static char log_path[256]; /* the servers' stderr, all runs appended */
static pid_t server_pid;   /* the running server, killed by the teardown */

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

/* ---- the server process ---- */

/* Starts `croupier serve` on a free loopback port; returns the port. */
static int server_start(void)
{
    int out[2];
    assert_int_equal(pipe(out), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int logfd = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0600);
        dup2(out[1], 1);
        if (logfd >= 0) dup2(logfd, 2);
        close(out[0]);
        close(out[1]);
        /* scripted clients answer in microseconds: no rate limit; on
         * PostgreSQL the claim sweep takes the games back quickly once the
         * dead server's session (and its advisory locks) is gone */
        execl(CR_CLI_PATH, "croupier", "serve", "--listen", "127.0.0.1:0", "--db", db_url,
              "--max-msg-rate", "100000", "--claim-interval-ms", "100", (char *)NULL);
        _exit(127);
    }
    close(out[1]);
    server_pid = pid;
    FILE *f = fdopen(out[0], "r");
    assert_non_null(f);
    char line[512];
    int port = 0;
    const char *tag = "listening on http://127.0.0.1:";
    while (!port && fgets(line, sizeof line, f)) {
        const char *p = strstr(line, tag);
        if (p) port = atoi(p + strlen(tag));
    }
    fclose(f); /* later stdout lines go nowhere (the server ignores SIGPIPE) */
    if (!port) fprintf(stderr, "the server did not start; see %s\n", log_path);
    assert_true(port > 0);
    return port;
}

static void server_kill(int sig)
{
    int st = 0;
    kill(server_pid, sig);
    assert_int_equal(waitpid(server_pid, &st, 0), server_pid);
    server_pid = 0;
    if (sig == SIGTERM) assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    if (sig == SIGKILL) assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
}

static int kill_server(void **state)
{
    (void)state;
    if (access(log_path, F_OK) == 0) /* removed when the soak passed */
        fprintf(stderr, "the servers' stderr: %s\n", log_path);
    if (server_pid > 0) {
        kill(server_pid, SIGKILL);
        waitpid(server_pid, NULL, 0);
        server_pid = 0;
    }
    return 0;
}

/* /api/server's bots.thinking: games whose bot move a worker thinks out now. */
static long bots_thinking(int port)
{
    char err[256];
    struct mg_connection *mc = mg_download("127.0.0.1", port, 0, err, sizeof err, "%s",
                                           "GET /api/server HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
    if (!mc) return -1;
    static char body[1 << 16];
    size_t n = 0;
    for (int r; n + 1 < sizeof body && (r = mg_read(mc, body + n, sizeof body - 1 - n)) > 0;)
        n += (size_t)r;
    body[n] = '\0';
    mg_close_connection(mc);
    json_t *o = json_loads(body, 0, NULL);
    long v =
        o ? (long)json_integer_value(json_object_get(json_object_get(o, "bots"), "thinking")) : -1;
    json_decref(o);
    return v;
}

/* ---- a WebSocket client: messages queued in order by civetweb's thread ---- */

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

static int wsc_wait_closed(wsc *w, int ms);

/* Closes w.  An open connection is closed by the protocol first (a close
 * frame, then the server's close): civetweb's client alone waits for its
 * reading thread, which sits in a read with a timeout of seconds. */
static void wsc_close(wsc *w)
{
    if (!w) return;
    pthread_mutex_lock(&w->mu);
    int closed = w->closed;
    pthread_mutex_unlock(&w->mu);
    if (!closed) {
        static const unsigned char bye[] = {0x88, 0x80, 0, 0, 0, 0}; /* masked, no payload */
        mg_write(w->mc, bye, sizeof bye);
        wsc_wait_closed(w, 5000);
    }
    mg_close_connection(w->mc);
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

/* One masked text frame in one write (as test_server.c's cl_send_raw):
 * civetweb's client writes a frame's header and payload separately, and
 * Nagle's algorithm then holds the payload until the server's delayed ACK,
 * 40 ms a message.  The mask key is 0 (any key is valid). */
static void wsc_write(wsc *w, const char *text, size_t len)
{
    unsigned char *f = malloc(len + 14);
    assert_non_null(f);
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
    mg_write(w->mc, f, h + len);
    free(f);
}

/* Sends o (stolen) with v:1 and a fresh id; returns the id.  A write to a
 * server that just died may fail: the caller learns it from the close. */
static long long wsc_send(wsc *w, json_t *o)
{
    long long id = ++w->next_id;
    json_object_set_new(o, "v", json_integer(1));
    json_object_set_new(o, "id", json_integer(id));
    char *text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    assert_non_null(text);
    wsc_write(w, text, strlen(text));
    free(text);
    return id;
}

/* The next message (new reference): waits up to wait_ms (0: only what has
 * arrived); NULL when none came or the connection is closed and drained. */
static json_t *wsc_next(wsc *w, int wait_ms)
{
    struct timespec end;
    clock_gettime(CLOCK_REALTIME, &end);
    end.tv_sec += wait_ms / 1000;
    end.tv_nsec += (wait_ms % 1000) * 1000000L;
    if (end.tv_nsec >= 1000000000L) {
        end.tv_sec++;
        end.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&w->mu);
    int rc = 0;
    while (wait_ms > 0 && !w->head && !w->closed && rc == 0)
        rc = pthread_cond_timedwait(&w->cv, &w->mu, &end);
    wsc_msg *m = w->head;
    if (m) {
        w->head = m->next;
        if (!w->head) w->tail = NULL;
    }
    pthread_mutex_unlock(&w->mu);
    if (!m) return NULL;
    json_t *o = json_loads(m->text, 0, NULL);
    if (!o) fprintf(stderr, "not JSON from the server: %.200s\n", m->text);
    free(m->text);
    free(m);
    assert_non_null(o);
    return o;
}

/* Waits until the server's end of w is closed (it was killed). */
static int wsc_wait_closed(wsc *w, int ms)
{
    struct timespec end;
    clock_gettime(CLOCK_REALTIME, &end);
    end.tv_sec += ms / 1000;
    pthread_mutex_lock(&w->mu);
    int rc = 0;
    while (!w->closed && rc == 0) rc = pthread_cond_timedwait(&w->cv, &w->mu, &end);
    int closed = w->closed;
    pthread_mutex_unlock(&w->mu);
    return closed;
}

static const char *type_of(json_t *o)
{
    const char *t = json_string_value(json_object_get(o, "type"));
    return t ? t : "";
}

/* ---- the soak's books ---- */

typedef struct figures {
    int kills, kills_thinking, kills_in_flight, games, games_over_in_play;
    long acked, lost, events_checked, changed, unacked, unacked_stored, rejected;
} figures;

static figures fig;

typedef struct acked_act {
    long long decision; /* the seat's decision number the action answered */
    int action;
    int lost; /* counted lost already */
} acked_act;

typedef struct seat {
    int seat;
    char token[64];
    wsc *c;
    json_t *up;                 /* the latest update */
    long long pending;          /* id of the act in flight, 0 if none */
    long long pending_decision; /* ... and what it answers */
    int pending_action;
    long long acted; /* the last decision number we answered */
    acked_act *acks;
    int n_acks, cap_acks;
    char **events; /* each event's JSON (keys sorted), by seq */
    int n_events, cap_events;
} seat;

typedef struct game {
    char id[64];
    seat s[HUMANS];
    int over;
} game;

static game *games;
static int n_games;

static void seat_event(seat *s, json_t *e)
{
    json_int_t seq = json_integer_value(json_object_get(e, "seq"));
    assert_true(seq >= 0 && seq < (1 << 24));
    char *text = json_dumps(e, JSON_COMPACT | JSON_SORT_KEYS);
    assert_non_null(text);
    if (seq >= s->cap_events) {
        int cap = s->cap_events ? s->cap_events : 1024;
        while (cap <= seq) cap *= 2;
        s->events = realloc(s->events, sizeof *s->events * (size_t)cap);
        assert_non_null(s->events);
        memset(s->events + s->cap_events, 0, sizeof *s->events * (size_t)(cap - s->cap_events));
        s->cap_events = cap;
    }
    if (s->events[seq]) {
        fig.events_checked++;
        if (strcmp(s->events[seq], text) != 0) {
            if (fig.changed++ < 5)
                fprintf(stderr, "event %lld of seat %d changed:\n  was %s\n  now %s\n",
                        (long long)seq, s->seat, s->events[seq], text);
            free(s->events[seq]); /* each change counted once */
            s->events[seq] = text;
        } else {
            free(text);
        }
    } else {
        s->events[seq] = text;
    }
    if (seq + 1 > s->n_events) s->n_events = (int)seq + 1;
}

static void seat_events(seat *s, json_t *events)
{
    size_t i;
    json_t *e;
    json_array_foreach(events, i, e) seat_event(s, e);
}

/* Takes in one pushed message or a reply to our act: updates and acks. */
static void seat_take(seat *s, json_t *o)
{
    const char *t = type_of(o);
    long long re = json_integer_value(json_object_get(o, "re"));
    if (strcmp(t, "update") == 0) {
        seat_events(s, json_object_get(o, "events"));
        json_decref(s->up);
        s->up = json_incref(o);
    } else if (strcmp(t, "ack") == 0 && s->pending && re == s->pending) {
        assert_int_equal(json_integer_value(json_object_get(o, "decision")), s->pending_decision);
        if (s->n_acks == s->cap_acks) {
            s->cap_acks = s->cap_acks ? 2 * s->cap_acks : 256;
            s->acks = realloc(s->acks, sizeof *s->acks * (size_t)s->cap_acks);
            assert_non_null(s->acks);
        }
        s->acks[s->n_acks++] = (acked_act){s->pending_decision, s->pending_action, 0};
        fig.acked++;
        s->pending = 0;
    } else if (strcmp(t, "error") == 0 && s->pending && re == s->pending) {
        /* refused (never expected: we answer only the latest decision) */
        fprintf(stderr, "act refused: %s\n", json_string_value(json_object_get(o, "message")));
        fig.rejected++;
        s->acted = s->pending_decision - 1; /* answer that decision again */
        s->pending = 0;
    } else if (strcmp(t, "error") == 0) {
        fail_msg("error from the server: %s (%s)", json_string_value(json_object_get(o, "message")),
                 json_string_value(json_object_get(o, "code")));
    }
}

/* Waits for the reply to `id`, taking in what comes before it. */
static json_t *seat_reply(seat *s, long long id)
{
    for (;;) {
        json_t *o = wsc_next(s->c, WAIT_MS);
        if (!o) fail_msg("no reply to request %lld within %d ms", id, WAIT_MS);
        if (json_integer_value(json_object_get(o, "re")) == id) return o;
        seat_take(s, o);
        json_decref(o);
    }
}

static int your_turn(json_t *up) { return up && json_is_true(json_object_get(up, "your_turn")); }

/* Submits a random legal action if the seat is to act and has not answered
 * this decision yet; returns whether it did. */
static int seat_act(seat *s, cr_rng *rng)
{
    if (s->pending || !your_turn(s->up) || json_is_true(json_object_get(s->up, "over"))) return 0;
    long long d = json_integer_value(json_object_get(s->up, "decision"));
    if (d <= s->acted) return 0;
    json_t *acts = json_object_get(s->up, "actions");
    size_t n = json_array_size(acts);
    if (n == 0) return 0;
    int a = (int)json_integer_value(
        json_object_get(json_array_get(acts, cr_rng_below(rng, (uint32_t)n)), "id"));
    s->pending_decision = d;
    s->pending_action = a;
    s->acted = d;
    s->pending = wsc_send(
        s->c, json_pack("{s:s,s:I,s:i}", "type", "act", "decision", (json_int_t)d, "action", a));
    return 1;
}

/* The seat's acknowledged actions with a decision number above `done`:
 * actions the server acknowledged and no longer has. */
static int acks_after(seat *s, long long done)
{
    int n = 0;
    for (int i = 0; i < s->n_acks; i++)
        if (s->acks[i].decision > done && !s->acks[i].lost) {
            s->acks[i].lost = 1; /* counted once */
            n++;
        }
    return n;
}

/* Sits the seat again (a reconnecting client: its token and `since`), checks
 * that its decision number counts every acknowledged action, and reads
 * `history` from 0: every event seen before must come back unchanged. */
static void seat_sit(seat *s, const char *game_id, int port)
{
    s->c = wsc_open(port);
    json_t *u = NULL;
    for (double end = now_s() + 20; !u;) {
        long long id = wsc_send(s->c, json_pack("{s:s,s:s,s:s,s:i}", "type", "sit", "game_id",
                                                game_id, "token", s->token, "since", s->n_events));
        /* the reply is the seat's update (updates carry no `re`) or an error */
        json_t *o = wsc_next(s->c, WAIT_MS);
        if (!o) fail_msg("no answer to sit within %d ms", WAIT_MS);
        if (strcmp(type_of(o), "update") == 0) {
            u = o;
            break;
        }
        assert_string_equal(type_of(o), "error");
        assert_int_equal(json_integer_value(json_object_get(o, "re")), id);
        /* PostgreSQL: the dead server's session (and the game's lock) not
         * gone yet, or no claim made yet */
        const char *code = json_string_value(json_object_get(o, "code"));
        if (!code || strcmp(code, "elsewhere") != 0 || now_s() > end)
            fail_msg("sit: %s", json_string_value(json_object_get(o, "message")));
        json_decref(o);
        nap_ms(20);
    }
    seat_take(s, u);
    long long d = json_integer_value(json_object_get(u, "decision"));
    long long done = d - (your_turn(u) ? 1 : 0);
    int lost = acks_after(s, done);
    if (lost) {
        fprintf(stderr, "game %s seat %d: decision %lld after the restart, %d acknowledged lost\n",
                game_id, s->seat, d, lost);
        fig.lost += lost;
    }
    json_decref(u);
    /* every event since 0, in pages */
    int count = -1, since = 0;
    for (int guard = 0; guard < 10000; guard++) {
        long long id = wsc_send(s->c, json_pack("{s:s,s:i}", "type", "history", "since", since));
        json_t *h = seat_reply(s, id);
        assert_string_equal(type_of(h), "history");
        json_t *events = json_object_get(h, "events");
        seat_events(s, events);
        count = (int)json_integer_value(json_object_get(h, "count"));
        size_t n = json_array_size(events);
        if (n > 0)
            since =
                (int)json_integer_value(json_object_get(json_array_get(events, n - 1), "seq")) + 1;
        json_decref(h);
        if (n == 0 || since >= count) break;
    }
    /* events seen before that the server no longer has */
    for (int q = count; q < s->n_events; q++)
        if (s->events[q]) {
            if (fig.changed++ < 5)
                fprintf(stderr, "event %d of seat %d is gone (the game has %d)\n", q, s->seat,
                        count);
            free(s->events[q]); /* counted once */
            s->events[q] = NULL;
        }
}

/* A new game: our seats 0 and 2 (invite links), bots in 1 and 3, the
 * heuristic and the ISMCTS bot swapping places from one game to the next. */
static void game_new(int port)
{
    assert_true(n_games < MAX_GAMES);
    game *g = &games[n_games];
    memset(g, 0, sizeof *g);
    const char *b1 = n_games % 2 ? "ismcts:iters=1000" : "heuristic";
    const char *b3 = n_games % 2 ? "heuristic" : "ismcts:iters=1000";
    wsc *lobby = wsc_open(port);
    long long id =
        wsc_send(lobby, json_pack("{s:s,s:s,s:i,s:[ssss]}", "type", "create", "game", "dml",
                                  "players", 4, "seats", "invite", b1, "invite", b3));
    json_t *o;
    while ((o = wsc_next(lobby, WAIT_MS)) != NULL &&
           json_integer_value(json_object_get(o, "re")) != id)
        json_decref(o);
    assert_non_null(o);
    if (strcmp(type_of(o), "created") != 0)
        fail_msg("create: %s", json_string_value(json_object_get(o, "message")));
    snprintf(g->id, sizeof g->id, "%s", json_string_value(json_object_get(o, "game_id")));
    json_t *seats = json_object_get(o, "seats");
    assert_int_equal(json_array_size(seats), HUMANS);
    for (int k = 0; k < HUMANS; k++) {
        json_t *t = json_array_get(seats, (size_t)k);
        g->s[k].seat = (int)json_integer_value(json_object_get(t, "seat"));
        snprintf(g->s[k].token, sizeof g->s[k].token, "%s",
                 json_string_value(json_object_get(t, "token")));
    }
    json_decref(o);
    wsc_close(lobby);
    n_games++;
    fig.games++;
    for (int k = 0; k < HUMANS; k++) seat_sit(&g->s[k], g->id, port);
}

static int live_games(void)
{
    int n = 0;
    for (int i = 0; i < n_games; i++) n += !games[i].over;
    return n;
}

/* Takes in what every connection has received; marks games over. */
static int drain_all(void)
{
    int got = 0;
    for (int i = 0; i < n_games; i++) {
        game *g = &games[i];
        for (int k = 0; k < HUMANS; k++) {
            if (!g->s[k].c) continue;
            json_t *o;
            while ((o = wsc_next(g->s[k].c, 0)) != NULL) {
                seat_take(&g->s[k], o);
                json_decref(o);
                got++;
            }
            if (json_is_true(json_object_get(g->s[k].up, "over"))) g->over = 1;
        }
    }
    return got;
}

/* Plays every live game for `ms` milliseconds; a game that ends is
 * replaced by a new one. */
static void play_for(int port, cr_rng *rng, int ms)
{
    for (double end = now_s() + ms / 1000.0; now_s() < end;) {
        int busy = drain_all();
        for (int i = 0; i < n_games; i++) {
            if (games[i].over) continue;
            for (int k = 0; k < HUMANS; k++) busy += seat_act(&games[i].s[k], rng);
        }
        while (live_games() < LIVE_GAMES) {
            fig.games_over_in_play++;
            game_new(port);
            busy = 1;
        }
        if (!busy) nap_ms(1);
    }
}

static void close_all(void)
{
    for (int i = 0; i < n_games; i++)
        for (int k = 0; k < HUMANS; k++) {
            wsc_close(games[i].s[k].c);
            games[i].s[k].c = NULL;
        }
}

/* The kill: maybe one more action in flight, then SIGKILL; then every
 * message that reached us before the sockets closed is taken in (an ack
 * among them counts as acknowledged). */
static void kill_now(cr_rng *rng, int port)
{
    long thinking = bots_thinking(port);
    if (thinking > 0) fig.kills_thinking++;
    int in_flight = 0;
    for (int i = 0; i < n_games; i++)
        for (int k = 0; k < HUMANS; k++) in_flight += games[i].s[k].pending != 0;
    if (cr_rng_below(rng, 2) == 0)
        for (int i = 0; i < n_games && !in_flight; i++)
            for (int k = 0; k < HUMANS && !in_flight; k++)
                if (!games[i].over) in_flight += seat_act(&games[i].s[k], rng);
    if (in_flight) fig.kills_in_flight++;
    server_kill(SIGKILL);
    fig.kills++;
    for (int i = 0; i < n_games; i++)
        for (int k = 0; k < HUMANS; k++)
            if (games[i].s[k].c) assert_true(wsc_wait_closed(games[i].s[k].c, WAIT_MS));
    drain_all();
    for (int i = 0; i < n_games; i++)
        for (int k = 0; k < HUMANS; k++)
            if (games[i].s[k].pending) {
                /* in flight: stored or not, the seat's next update tells */
                fig.unacked++;
                games[i].s[k].acted = games[i].s[k].pending_decision - 1;
                games[i].s[k].pending = 0;
            }
    close_all();
}

/* Ends a game still running: our first seat resigns. */
static void game_resign(game *g, int port)
{
    seat *s = &g->s[0];
    seat_sit(s, g->id, port);
    json_t *o = NULL;
    if (json_is_true(json_object_get(s->up, "over"))) goto out; /* it ended meanwhile */
    long long id = wsc_send(s->c, json_pack("{s:s}", "type", "resign"));
    o = seat_reply(s, id);
    if (strcmp(type_of(o), "ack") != 0) {
        /* the bots may have ended the game meanwhile: then the update
         * saying so comes (refused as `illegal`: "the game is over") */
        const char *code = json_string_value(json_object_get(o, "code"));
        if (!code || strcmp(code, "illegal") != 0)
            fail_msg("resign: %s", json_string_value(json_object_get(o, "message")));
        json_t *u;
        while (!json_is_true(json_object_get(s->up, "over")) &&
               (u = wsc_next(s->c, WAIT_MS)) != NULL) {
            seat_take(s, u);
            json_decref(u);
        }
        assert_true(json_is_true(json_object_get(s->up, "over")));
    }
out:
    json_decref(o);
    wsc_close(s->c);
    s->c = NULL;
    g->over = 1;
}

/* The finished game's record from the server: each acknowledged action is
 * the seat's decision it answered, and each event the seats saw is the
 * seat's rendering of the record's event. */
static void game_check(game *g, wsc *w)
{
    json_t *r = NULL;
    for (int tries = 0; tries < 200 && !r; tries++) {
        long long id = wsc_send(w, json_pack("{s:s,s:s}", "type", "record", "game_id", g->id));
        json_t *o;
        while ((o = wsc_next(w, WAIT_MS)) != NULL &&
               json_integer_value(json_object_get(o, "re")) != id)
            json_decref(o);
        assert_non_null(o);
        if (strcmp(type_of(o), "record") == 0) {
            r = o;
            break;
        }
        /* `limit`: finished games loaded back are paid from an allowance */
        const char *code = json_string_value(json_object_get(o, "code"));
        if (!code || strcmp(code, "limit") != 0)
            fail_msg("record of %s: %s", g->id, json_string_value(json_object_get(o, "message")));
        json_decref(o);
        nap_ms(100);
    }
    assert_non_null(r);
    const char *text = json_string_value(json_object_get(r, "record"));
    char err[256];
    cr_match *done = cr_match_load(text, strlen(text), NULL, 0, err, sizeof err);
    if (!done) fail_msg("record of %s: %s", g->id, err);
    json_decref(r);

    /* each seat's decisions, in order, by replaying the record */
    const cr_record *rec = cr_match_record(done);
    const cr_game *cg = cr_match_game(done);
    cr_params p;
    cr_record_params(rec, NULL, &p);
    uint64_t seed = 0;
    assert_true(cr_match_seed(done, &seed));
    cr_match *m = cr_match_new(cg->def, &p, NULL, seed, err, sizeof err);
    assert_non_null(m);
    int *mine[HUMANS], n_mine[HUMANS] = {0};
    for (int k = 0; k < HUMANS; k++) {
        mine[k] = calloc((size_t)rec->n_actions + 1, sizeof *mine[k]);
        assert_non_null(mine[k]);
    }
    for (int i = 0; i < rec->n_actions; i++) {
        int who = cr_match_to_act(m);
        for (int k = 0; k < HUMANS; k++)
            if (who == g->s[k].seat) mine[k][n_mine[k]++] = rec->actions[i];
        if (who == CR_CHANCE)
            assert_int_equal(cr_match_step(m), CR_OK);
        else
            assert_int_equal(cr_match_submit_action(m, who, rec->actions[i], err, sizeof err),
                             CR_OK);
    }
    cr_match_free(m);
    for (int k = 0; k < HUMANS; k++) {
        seat *s = &g->s[k];
        for (int i = 0; i < s->n_acks; i++) {
            long long d = s->acks[i].decision;
            if (s->acks[i].lost) continue; /* counted when it went */
            if (d < 1 || d > n_mine[k] || mine[k][d - 1] != s->acks[i].action) {
                if (fig.lost++ < 5)
                    fprintf(stderr,
                            "game %s seat %d: decision %lld acknowledged as action %d, the "
                            "record has %d\n",
                            g->id, s->seat, d, s->acks[i].action,
                            d >= 1 && d <= n_mine[k] ? mine[k][d - 1] : -1);
            }
        }
        /* the seat's other decisions in the record: actions in flight at a
         * kill, stored though their ack never came */
        int kept = 0;
        for (int i = 0; i < s->n_acks; i++) kept += !s->acks[i].lost;
        fig.unacked_stored += n_mine[k] - kept;
        free(mine[k]);
        /* the events */
        const cr_match_event *ev = NULL;
        int n_ev = cr_match_events_since(done, 0, &ev);
        static char buf[1 << 16];
        for (int q = 0; q < s->n_events; q++) {
            if (!s->events[q]) continue;
            fig.events_checked++;
            if (q >= n_ev) {
                if (fig.changed++ < 5)
                    fprintf(stderr, "game %s: event %d is not in the record\n", g->id, q);
                continue;
            }
            cr_match_event_json(done, &ev[q], s->seat, buf, sizeof buf);
            json_t *want = json_loads(buf, 0, NULL);
            assert_non_null(want);
            json_object_set_new(want, "seq", json_integer(q));
            char *wt = json_dumps(want, JSON_COMPACT | JSON_SORT_KEYS);
            if (strcmp(wt, s->events[q]) != 0 && fig.changed++ < 5)
                fprintf(stderr, "game %s seat %d event %d:\n  seen   %s\n  record %s\n", g->id,
                        s->seat, q, s->events[q], wt);
            free(wt);
            json_decref(want);
        }
    }
    cr_match_free(done);
}

/* Lines of the servers' stderr that contain `what`. */
static int log_lines(const char *what)
{
    FILE *f = fopen(log_path, "r");
    if (!f) return 0;
    char line[1024];
    int n = 0;
    while (fgets(line, sizeof line, f)) n += strstr(line, what) != NULL;
    fclose(f);
    return n;
}

static long env_long(const char *name, long dflt, long lo, long hi)
{
    const char *v = getenv(name);
    if (!v || !*v) return dflt;
    char *end;
    long x = strtol(v, &end, 10);
    if (*end || x < lo || x > hi) {
        fprintf(stderr, "%s: expected a number from %ld to %ld\n", name, lo, hi);
        exit(2);
    }
    return x;
}

static void test_soak(void **state)
{
    (void)state;
    int kills = (int)env_long("CROUPIER_SOAK_KILLS", 20, 1, 100000);
    long seed = env_long("CROUPIER_SOAK_SEED", 1, 0, 1L << 30);
    cr_rng rng;
    cr_rng_seed(&rng, (uint64_t)seed, 15);
    games = calloc(MAX_GAMES, sizeof *games);
    assert_non_null(games);
    double t0 = now_s();
    mg_init_library(0);
    int port = server_start();
    while (n_games < LIVE_GAMES) game_new(port);
    for (int round = 0; round < kills; round++) {
        play_for(port, &rng, (int)cr_rng_below(&rng, 501));
        kill_now(&rng, port);
        port = server_start();
        for (int i = 0; i < n_games; i++)
            if (!games[i].over)
                for (int k = 0; k < HUMANS; k++) seat_sit(&games[i].s[k], games[i].id, port);
        drain_all();
    }
    /* the end: the games still running resign; every game's record checked */
    close_all();
    for (int i = 0; i < n_games; i++)
        if (!games[i].over) game_resign(&games[i], port);
    wsc *w = wsc_open(port);
    for (int i = 0; i < n_games; i++) game_check(&games[i], w);
    wsc_close(w);
    server_kill(SIGTERM);
    mg_exit_library();
    double secs = now_s() - t0;
    /* Appends the store refused (its compare-and-set: another copy of the
     * game wrote first).  With one server there is one copy of each game:
     * none may happen.  (This soak found a second copy on PostgreSQL: the
     * claim sweep took over a game this server was still creating, before
     * sv_h_create put it in the table; the game now enters the table
     * before it is claimed and stored.) */
    int refused_appends = log_lines("append failed");
    printf("kill -9 soak (%s, seed %ld): %d kills (%d with a bot thinking, %d with an action in "
           "flight), %d games (%d played out), %ld acknowledged actions, %ld lost, %ld in flight "
           "unacknowledged (%ld of them stored), %ld refused, %ld event checks, %ld changed, %d "
           "appends refused by the store, %.1f s\n",
           on_pg ? "postgresql" : "sqlite", seed, fig.kills, fig.kills_thinking,
           fig.kills_in_flight, fig.games, fig.games_over_in_play, fig.acked, fig.lost, fig.unacked,
           fig.unacked_stored, fig.rejected, fig.events_checked, fig.changed, refused_appends,
           secs);
    fflush(stdout);
    assert_int_equal(fig.kills, kills);
    assert_true(fig.acked > 0);
    assert_int_equal(fig.lost, 0);
    assert_int_equal(fig.changed, 0);
    if (refused_appends) fprintf(stderr, "the servers' stderr, kept: %s\n", log_path);
    assert_int_equal(refused_appends, 0);
    for (int i = 0; i < n_games; i++)
        for (int k = 0; k < HUMANS; k++) {
            seat *s = &games[i].s[k];
            for (int q = 0; q < s->cap_events; q++) free(s->events[q]);
            free(s->events);
            free(s->acks);
            json_decref(s->up);
        }
    free(games);
    unlink(log_path);
}

int main(void)
{
    snprintf(log_path, sizeof log_path, "/tmp/cr-soak-%d.log", (int)getpid());
    const char *url = getenv("CR_TEST_STORE_URL");
    char dir[] = "/tmp/cr-soak-XXXXXX";
#ifdef CR_HAVE_PG
    PGconn *admin = NULL;
    char schema[64] = "";
#endif
    if (url && *url) {
#ifdef CR_HAVE_PG
        on_pg = 1;
        admin = PQconnectdb(url);
        if (PQstatus(admin) != CONNECTION_OK) {
            fprintf(stderr, "test_soak_kill9: cannot connect to the database: %s",
                    PQerrorMessage(admin));
            return 1;
        }
        PQclear(PQexec(admin, "SET client_min_messages = warning"));
        snprintf(schema, sizeof schema, "croupier_soak_%d", (int)getpid());
        char sql[128];
        snprintf(sql, sizeof sql, "CREATE SCHEMA %s", schema);
        PGresult *r = PQexec(admin, sql);
        int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        PQclear(r);
        if (!ok) {
            fprintf(stderr, "test_soak_kill9: %s", PQerrorMessage(admin));
            return 1;
        }
        snprintf(db_url, sizeof db_url, "%s%soptions=-csearch_path%%3D%s", url,
                 strchr(url, '?') ? "&" : "?", schema);
#else
        fprintf(stderr, "test_soak_kill9: built without PostgreSQL\n");
        return 1;
#endif
    } else {
        if (!mkdtemp(dir)) {
            perror("mkdtemp");
            return 1;
        }
        snprintf(db_url, sizeof db_url, "sqlite:%s/soak.db", dir);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_soak, kill_server),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (!on_pg) { /* the store's files (store_sqlite.c: WAL mode, a lock file) */
        const char *files[] = {"soak.db", "soak.db-wal", "soak.db-shm", "soak.db.lock"};
        char path[300];
        for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
            snprintf(path, sizeof path, "%s/%s", dir, files[i]);
            unlink(path);
        }
        if (rmdir(dir) != 0) fprintf(stderr, "could not remove %s\n", dir);
    }
#ifdef CR_HAVE_PG
    if (admin) {
        char sql[128];
        snprintf(sql, sizeof sql, "DROP SCHEMA %s CASCADE", schema);
        PQclear(PQexec(admin, sql));
        PQfinish(admin);
    }
#endif
    return rc;
}
