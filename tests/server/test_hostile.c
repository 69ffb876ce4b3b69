/* tests/server/test_hostile.c — a hostile client of `croupier serve`: the
 * regression suite for issue 15's findings.  It is written from
 * docs/protocol.md and RFC 6455 alone, on raw sockets: the HTTP upgrade is
 * done by hand (GET /ws with the RFC's sample Sec-WebSocket-Key, whose
 * Sec-WebSocket-Accept is known), and every frame is built byte by byte, so
 * it can send what no WebSocket library would (unmasked frames, lengths it
 * never sends, control frames too long, fragments).
 *
 * Each test starts its own server (a real process on a free loopback port,
 * with a temporary SQLite file), does its damage, and ends with the same
 * check: the process is alive, and a second, well-behaved client (masked
 * frames, answers pings) says hello, creates a game with a human seat
 * against two bots, and acts; the time to its first reply (the welcome) is
 * printed.  One test per finding, so a failure names it:
 *
 *   well_behaved           the control: the well-behaved client alone plays
 *                          100 actions (it passes today: the failures below
 *                          are the server's, not the client's)
 *   deep_arrays, deep_objects  finding 1: nesting 1,000 deep is bad_json
 *                          (with re), never a crash; the connection stays
 *   big_integers           finding 2: integers past 64 bits are bad_request
 *                          naming the field, not bad_json
 *   re_everywhere          finding 3: the updates answering sit and spectate,
 *                          and bad_json when the id was readable, carry re
 *   frame_*                finding 4 (RFC 6455): huge declared lengths close
 *                          with 1009 at once, a long ping and an unmasked
 *                          frame close with 1002, fragments are joined,
 *                          pings are answered
 *   fair_share             finding 5: per-address connection limit, a
 *                          handshake deadline and an idle timeout
 *                          (--max-conns-per-addr, --handshake-timeout-ms,
 *                          --idle-timeout-ms): an attacker on 127.0.0.2 with
 *                          slowloris sockets and idle WebSockets does not
 *                          keep a client on 127.0.0.1 from playing
 *
 * Every wait is a poll with a deadline (no fixed sleeps).  Replies are
 * parsed with jansson.  CR_TEST_FILTER=name runs only the tests it names;
 * CR_HOSTILE_WITHOUT_NEW_FLAGS=1 starts fair_share's server without the
 * three new flags, to watch a server that lacks them under the attack
 * (today's: the client on 127.0.0.1 gets no answer to its upgrade). */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
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
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#ifndef CR_CLI_PATH
#error "CR_CLI_PATH: the croupier program"
#endif

/* How long a reply may take on a loaded CI machine (ASan+UBSan, two
 * cores shared): a server silent that long has failed. */
#define REPLY_MS 10000

static char tmpdir[256];

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ---- the server process ---- */

typedef struct server {
    pid_t pid;
    int port;
    FILE *out;
    int dead;   /* the process was reaped */
    int status; /* its wait status, once dead */
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

static const char *db_names[16];
static int n_db_names;

/* Starts `croupier serve` on 127.0.0.1:0 with the database tmpdir/name.db
 * and extra flags (separated by spaces); fails the test if it does not
 * print its port (an unknown flag, say: the exit status is shown). */
static void server_start(server *s, const char *name, const char *extra)
{
    memset(s, 0, sizeof *s);
    if (n_db_names < 16) db_names[n_db_names++] = name;
    char db[600];
    snprintf(db, sizeof db, "sqlite:%s/%s.db", tmpdir, name);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        const char *argv[32] = {CR_CLI_PATH, "serve",          "--listen", "127.0.0.1:0", "--db",
                                db,          "--max-msg-rate", "100000",   "--quiet"};
        int k = 9;
        char words[512];
        snprintf(words, sizeof words, "%s", extra ? extra : "");
        for (char *t = strtok(words, " "); t && k < 30; t = strtok(NULL, " ")) argv[k++] = t;
        argv[k] = NULL;
        execv(CR_CLI_PATH, (char *const *)argv);
        _exit(127);
    }
    close(fds[1]);
    s->pid = pid;
    live_set(0, pid);
    s->out = fdopen(fds[0], "r");
    char line[256] = "";
    if (!fgets(line, sizeof line, s->out)) {
        int st = 0;
        waitpid(pid, &st, 0);
        live_set(pid, 0);
        s->pid = 0;
        fail_msg("croupier serve %s did not start: exit status %d", extra ? extra : "",
                 WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
    }
    const char *p = strstr(line, "127.0.0.1:");
    assert_non_null(p);
    s->port = atoi(p + 10);
    assert_true(s->port > 0);
}

/* Reaps the server if it ended; 1 while it runs. */
static int server_alive(server *s)
{
    if (s->dead) return 0;
    int st;
    if (waitpid(s->pid, &st, WNOHANG) == s->pid) {
        s->dead = 1;
        s->status = st;
        live_set(s->pid, 0);
        return 0;
    }
    return 1;
}

/* How the server is, in words ("running", "killed by signal 11 (status
 * 139)"); a server that just closed our socket may take a moment to be
 * reaped, so a death is waited for up to wait_ms. */
static const char *server_state(server *s, int wait_ms)
{
    static char buf[128];
    double until = now_ms() + wait_ms;
    while (server_alive(s) && now_ms() < until) {
        struct timespec ts = {0, 20000000};
        nanosleep(&ts, NULL);
    }
    if (!s->dead) return "the server is running";
    if (WIFSIGNALED(s->status))
        snprintf(buf, sizeof buf, "the server was killed by signal %d (status %d)",
                 WTERMSIG(s->status), 128 + WTERMSIG(s->status));
    else
        snprintf(buf, sizeof buf, "the server exited with status %d", WEXITSTATUS(s->status));
    return buf;
}

/* SIGTERM; the server must stop cleanly (status 0) within 20 s. */
static void server_stop(server *s)
{
    assert_true(server_alive(s));
    kill(s->pid, SIGTERM);
    double until = now_ms() + 20000;
    while (server_alive(s) && now_ms() < until) {
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    if (!s->dead) {
        kill(s->pid, SIGKILL);
        waitpid(s->pid, NULL, 0);
        live_set(s->pid, 0);
        fail_msg("the server did not stop within 20 s of SIGTERM");
    }
    fclose(s->out);
    assert_true(WIFEXITED(s->status));
    assert_int_equal(WEXITSTATUS(s->status), 0);
}

/* ---- a raw WebSocket connection ---- */

typedef struct ws {
    int fd;
    unsigned char *buf; /* bytes received and not consumed yet */
    size_t len, cap;
    int eof;        /* 1: the peer closed (EOF), 2: reset or error */
    int close_code; /* from the server's close frame: -1 none yet, 0 no code */
    int64_t next_id;
    int pongs_sent;
} ws;

/* A TCP connection to 127.0.0.1:port, from source address src (NULL: the
 * kernel's choice, 127.0.0.1); -1 with errno if it fails.  The connect has
 * a 3 s deadline (ETIMEDOUT): a server whose accept queue is full makes
 * the kernel drop SYNs, and a blocking connect would then wait minutes. */
static int tcp_connect(int port, const char *src)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in a;
    if (src) {
        memset(&a, 0, sizeof a);
        a.sin_family = AF_INET;
        inet_pton(AF_INET, src, &a.sin_addr);
        if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0) {
            int e = errno;
            close(fd);
            errno = e;
            return -1;
        }
    }
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    int fl = fcntl(fd, F_GETFL);
    fcntl(fd, F_SETFL, fl | O_NONBLOCK);
    int e = 0;
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        e = errno;
        if (e == EINPROGRESS) {
            struct pollfd p = {.fd = fd, .events = POLLOUT};
            if (poll(&p, 1, 3000) == 1) {
                socklen_t el = sizeof e;
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &el);
            } else {
                e = ETIMEDOUT;
            }
        }
    }
    if (e) {
        close(fd);
        errno = e;
        return -1;
    }
    fcntl(fd, F_SETFL, fl);
    return fd;
}

static void ws_init(ws *w, int fd)
{
    memset(w, 0, sizeof *w);
    w->fd = fd;
    w->close_code = -1;
}

static void ws_close(ws *w)
{
    if (w->fd >= 0) close(w->fd);
    w->fd = -1;
    free(w->buf);
    w->buf = NULL;
    w->len = w->cap = 0;
}

/* Writes all of p; -1 if the connection is gone. */
static int send_all(int fd, const void *p, size_t n)
{
    const unsigned char *b = p;
    while (n > 0) {
        ssize_t k = send(fd, b, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        b += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Waits up to timeout_ms for bytes; >0 read, 0 timeout, -1 closed. */
static int ws_fill(ws *w, int timeout_ms)
{
    if (w->eof) return -1;
    struct pollfd p = {.fd = w->fd, .events = POLLIN};
    int r = poll(&p, 1, timeout_ms < 0 ? 0 : timeout_ms);
    if (r <= 0) return 0;
    if (w->cap - w->len < 65536) {
        w->cap = w->cap ? w->cap * 2 : 131072;
        w->buf = realloc(w->buf, w->cap);
        assert_non_null(w->buf);
    }
    ssize_t k = recv(w->fd, w->buf + w->len, w->cap - w->len, 0);
    if (k == 0) {
        w->eof = 1;
        return -1;
    }
    if (k < 0) {
        if (errno == EINTR || errno == EAGAIN) return 0;
        w->eof = 2;
        return -1;
    }
    w->len += (size_t)k;
    return (int)k;
}

static void ws_consume(ws *w, size_t n)
{
    memmove(w->buf, w->buf + n, w->len - n);
    w->len -= n;
}

/* RFC 6455 section 1.3's sample key and the accept value it must produce. */
#define WS_KEY    "dGhlIHNhbXBsZSBub25jZQ=="
#define WS_ACCEPT "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="

static const char upgrade_request[] = "GET /ws HTTP/1.1\r\n"
                                      "Host: 127.0.0.1\r\n"
                                      "Upgrade: websocket\r\n"
                                      "Connection: Upgrade\r\n"
                                      "Sec-WebSocket-Key: " WS_KEY "\r\n"
                                      "Sec-WebSocket-Version: 13\r\n"
                                      "\r\n";

/* Reads an HTTP response head (the request was sent); returns its status
 * (101 for the upgrade, with the accept value checked), 0 on timeout, -1
 * if the connection closed first.  The head is consumed; frames after it
 * stay in the buffer. */
static int http_response(ws *w, int timeout_ms)
{
    double until = now_ms() + timeout_ms;
    for (;;) {
        for (size_t i = 0; i + 3 < w->len; i++)
            if (memcmp(w->buf + i, "\r\n\r\n", 4) == 0) {
                char *head = malloc(i + 1);
                memcpy(head, w->buf, i);
                head[i] = '\0';
                ws_consume(w, i + 4);
                int status = 0;
                if (sscanf(head, "HTTP/1.%*d %d", &status) != 1) status = 0;
                if (status == 101 && !strstr(head, WS_ACCEPT)) {
                    fprintf(stderr, "101 without the right Sec-WebSocket-Accept:\n%s\n", head);
                    status = 0;
                }
                free(head);
                return status;
            }
        double left = until - now_ms();
        int r = ws_fill(w, left > 0 ? (int)left + 1 : 0);
        if (r < 0) return -1;
        if (r == 0 && now_ms() >= until) return 0;
    }
}

/* Connects from src (NULL: 127.0.0.1) and upgrades; fails the test if the
 * server does not answer 101. */
static void ws_open(ws *w, server *s, const char *src)
{
    int fd = tcp_connect(s->port, src);
    if (fd < 0) fail_msg("connect: %s; %s", strerror(errno), server_state(s, 2000));
    ws_init(w, fd);
    assert_int_equal(send_all(fd, upgrade_request, sizeof upgrade_request - 1), 0);
    int st = http_response(w, REPLY_MS);
    if (st != 101)
        fail_msg("the upgrade got %s; %s",
                 st < 0    ? "the connection closed"
                 : st == 0 ? "no answer"
                           : "another status",
                 server_state(s, 2000));
}

/* Frame opcodes (RFC 6455 section 5.2). */
enum {
    OP_CONT = 0x0,
    OP_TEXT = 0x1,
    OP_BINARY = 0x2,
    OP_CLOSE = 0x8,
    OP_PING = 0x9,
    OP_PONG = 0xa
};

static const unsigned char mask_key[4] = {0x37, 0xfa, 0x21, 0x3d};

/* A frame header for a payload of `declared` bytes (the 7-bit, 16-bit or
 * 64-bit length form as RFC 6455 prescribes, or the 16-bit form when
 * force16 asks for it), with the mask key when masked.  Returns its size. */
static size_t frame_header(unsigned char *h, int fin, int op, int masked, uint64_t declared,
                           int force16)
{
    size_t n = 0;
    h[n++] = (unsigned char)((fin ? 0x80 : 0) | op);
    unsigned char m = masked ? 0x80 : 0;
    if (declared < 126 && !force16) {
        h[n++] = (unsigned char)(m | declared);
    } else if (declared < 65536) {
        h[n++] = m | 126;
        h[n++] = (unsigned char)(declared >> 8);
        h[n++] = (unsigned char)declared;
    } else {
        h[n++] = m | 127;
        for (int i = 7; i >= 0; i--) h[n++] = (unsigned char)(declared >> (8 * i));
    }
    if (masked) {
        memcpy(h + n, mask_key, 4);
        n += 4;
    }
    return n;
}

/* One frame in one write; -1 if the connection is gone. */
static int ws_send_frame(ws *w, int fin, int op, int masked, const void *payload, size_t len)
{
    unsigned char *f = malloc(len + 14);
    size_t h = frame_header(f, fin, op, masked, len, 0);
    const unsigned char *p = payload;
    for (size_t i = 0; i < len; i++)
        f[h + i] = masked ? (unsigned char)(p[i] ^ mask_key[i % 4]) : p[i];
    int r = send_all(w->fd, f, h + len);
    free(f);
    return r;
}

static int ws_send_text(ws *w, const char *text)
{
    return ws_send_frame(w, 1, OP_TEXT, 1, text, strlen(text));
}

typedef struct frame {
    int fin, op;
    unsigned char *data; /* NUL-terminated; caller frees */
    size_t len;
} frame;

/* The next frame from the server: 1 a frame, 0 timeout, -1 the connection
 * closed.  A server frame must not be masked, but a masked one is read. */
static int ws_read_frame(ws *w, int timeout_ms, frame *f)
{
    double until = now_ms() + timeout_ms;
    for (;;) {
        if (w->len >= 2) {
            uint64_t plen = w->buf[1] & 0x7f;
            size_t h = 2;
            if (plen == 126 && w->len >= 4) {
                plen = (uint64_t)w->buf[2] << 8 | w->buf[3];
                h = 4;
            } else if (plen == 127 && w->len >= 10) {
                plen = 0;
                for (int i = 0; i < 8; i++) plen = plen << 8 | w->buf[2 + i];
                h = 10;
            } else if (plen >= 126) {
                h = 0; /* the length is not all here yet */
            }
            if (plen > (64u << 20))
                fail_msg("the server sent a frame of %llu bytes", (unsigned long long)plen);
            int masked = (w->buf[1] & 0x80) != 0;
            if (h && w->len >= h + (masked ? 4 : 0) + plen) {
                const unsigned char *key = w->buf + h;
                if (masked) h += 4;
                f->fin = (w->buf[0] & 0x80) != 0;
                f->op = w->buf[0] & 0x0f;
                f->len = (size_t)plen;
                f->data = malloc(f->len + 1);
                for (size_t i = 0; i < f->len; i++)
                    f->data[i] =
                        masked ? (unsigned char)(w->buf[h + i] ^ key[i % 4]) : w->buf[h + i];
                f->data[f->len] = '\0';
                ws_consume(w, h + f->len);
                if (f->op == OP_CLOSE)
                    w->close_code = f->len >= 2 ? (f->data[0] << 8 | f->data[1]) : 0;
                return 1;
            }
        }
        double left = until - now_ms();
        int r = ws_fill(w, left > 0 ? (int)left + 1 : 0);
        if (r < 0) return -1;
        if (r == 0 && now_ms() >= until) return 0;
    }
}

/* The next text message as JSON, answering pings (when pong) and skipping
 * other control frames; NULL on a close, EOF or timeout, with *why saying
 * which (and what came instead). */
static json_t *ws_next_json(ws *w, int timeout_ms, int pong, char *why, size_t cap)
{
    double until = now_ms() + timeout_ms;
    for (;;) {
        frame f;
        double left = until - now_ms();
        int r = left > 0 ? ws_read_frame(w, (int)left, &f) : 0;
        if (r == 0) {
            snprintf(why, cap, "nothing within %d ms", timeout_ms);
            return NULL;
        }
        if (r < 0) {
            snprintf(why, cap, "the connection closed (%s)", w->eof == 1 ? "EOF" : "reset");
            return NULL;
        }
        if (f.op == OP_PING && pong) {
            ws_send_frame(w, 1, OP_PONG, 1, f.data, f.len);
            w->pongs_sent++;
        }
        if (f.op == OP_CLOSE) {
            snprintf(why, cap, "a close frame with status %d", w->close_code);
            free(f.data);
            return NULL;
        }
        if (f.op == OP_TEXT) {
            json_error_t je;
            json_t *o = json_loads((const char *)f.data, 0, &je);
            if (!o) fail_msg("the server sent a text frame that is not JSON: %s", f.data);
            free(f.data);
            return o;
        }
        free(f.data);
    }
}

static const char *jtype(json_t *o)
{
    const char *t = json_string_value(json_object_get(o, "type"));
    return t ? t : "";
}

/* A message as text for failure reports (a static buffer). */
static const char *jshow(json_t *o)
{
    static char buf[600];
    char *s = o ? json_dumps(o, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
    snprintf(buf, sizeof buf, "%s", s ? s : "(nothing)");
    free(s);
    return buf;
}

/* Waits for the message answering `re` (re == id); others are skipped.
 * Fails with what happened instead. */
static json_t *ws_reply(ws *w, server *s, int64_t id)
{
    double until = now_ms() + REPLY_MS;
    for (;;) {
        char why[200];
        double left = until - now_ms();
        json_t *o = ws_next_json(w, left > 0 ? (int)left : 0, 1, why, sizeof why);
        if (!o) fail_msg("no reply to id %lld: %s; %s", (long long)id, why, server_state(s, 2000));
        json_t *re = json_object_get(o, "re");
        if (json_is_integer(re) && json_integer_value(re) == id) return o;
        json_decref(o);
    }
}

/* Sends o (stolen) with v and a fresh id; returns the id. */
static int64_t ws_send_json(ws *w, json_t *o)
{
    int64_t id = ++w->next_id;
    json_object_set_new(o, "v", json_integer(1));
    json_object_set_new(o, "id", json_integer(id));
    char *t = json_dumps(o, JSON_COMPACT);
    ws_send_text(w, t);
    free(t);
    json_decref(o);
    return id;
}

/* True if text names `field` as a word ("'id' must be..."; not "invalid"). */
static int names_field(const char *text, const char *field)
{
    size_t n = strlen(field);
    for (const char *p = text; (p = strstr(p, field)) != NULL; p++) {
        int before = p == text ? ' ' : (unsigned char)p[-1];
        int after = (unsigned char)p[n];
        int word = before == '_' || (before >= '0' && before <= '9') ||
                   ((before | 0x20) >= 'a' && (before | 0x20) <= 'z');
        int word_after = after == '_' || (after >= '0' && after <= '9') ||
                         ((after | 0x20) >= 'a' && (after | 0x20) <= 'z');
        if (!word && !word_after) return 1;
    }
    return 0;
}

/* ---- the well-behaved client ---- */

/* A 3-seat DML table: this client's human seat 0 against two random bots. */
static int64_t create_game(ws *w)
{
    return ws_send_json(w, json_pack("{s:s,s:s,s:[s,s,s],s:i}", "type", "create", "game", "dml",
                                     "seats", "human", "random", "random", "sit", 0));
}

/* Plays: creates a game first if asked, waits for its turn and submits
 * the first legal action, n_acts times (a new game when one ends); returns
 * the slowest ack in ms. */
static double play(ws *w, server *s, int create, int n_acts, int *games)
{
    double slowest = 0;
    int64_t cid;
    json_t *r;
    if (create) {
        cid = create_game(w);
        r = ws_reply(w, s, cid);
        if (strcmp(jtype(r), "created") != 0) fail_msg("create got %s", jshow(r));
        json_decref(r);
        (*games)++;
    }
    for (int done = 0; done < n_acts;) {
        char why[200];
        json_t *o = ws_next_json(w, REPLY_MS, 1, why, sizeof why);
        if (!o) fail_msg("playing, waiting for an update: %s; %s", why, server_state(s, 2000));
        if (strcmp(jtype(o), "update") != 0) {
            json_decref(o);
            continue;
        }
        if (json_is_true(json_object_get(o, "over"))) {
            json_decref(o);
            cid = create_game(w);
            r = ws_reply(w, s, cid);
            if (strcmp(jtype(r), "created") != 0) fail_msg("create got %s", jshow(r));
            json_decref(r);
            (*games)++;
            continue;
        }
        if (!json_is_true(json_object_get(o, "your_turn"))) {
            json_decref(o);
            continue;
        }
        json_int_t decision = json_integer_value(json_object_get(o, "decision"));
        json_t *a0 = json_array_get(json_object_get(o, "actions"), 0);
        json_int_t action = json_integer_value(json_object_get(a0, "id"));
        json_decref(o);
        double t0 = now_ms();
        int64_t aid = ws_send_json(
            w, json_pack("{s:s,s:I,s:I}", "type", "act", "decision", decision, "action", action));
        r = ws_reply(w, s, aid);
        if (strcmp(jtype(r), "ack") != 0) fail_msg("act got %s", jshow(r));
        json_decref(r);
        double dt = now_ms() - t0;
        if (dt > slowest) slowest = dt;
        done++;
    }
    return slowest;
}

/* Opens the well-behaved client from 127.0.0.1 and says hello; returns
 * the time from the hello to its welcome, in ms. */
static double good_hello(ws *w, server *s)
{
    ws_open(w, s, NULL);
    double t0 = now_ms();
    int64_t id = ws_send_json(w, json_pack("{s:s}", "type", "hello"));
    json_t *r = ws_reply(w, s, id);
    double dt = now_ms() - t0;
    if (strcmp(jtype(r), "welcome") != 0) fail_msg("hello got %s", jshow(r));
    json_decref(r);
    return dt;
}

/* The check every test ends with: the server is alive, and a second,
 * well-behaved client can say hello and play. */
static void check_second_client(server *s, const char *test)
{
    if (!server_alive(s)) fail_msg("[%s] after the attack: %s", test, server_state(s, 0));
    ws g;
    double hello_ms = good_hello(&g, s);
    int games = 0;
    double ack_ms = play(&g, s, 1, 3, &games);
    printf("[%s] second client: welcome after %.1f ms; 3 actions acked (slowest %.1f ms)\n", test,
           hello_ms, ack_ms);
    fflush(stdout);
    ws_close(&g);
    assert_true(server_alive(s));
}

/* The control: the well-behaved client alone, 100 actions.  It passes
 * today, so the other tests' failures are the server's, not the client's. */
static void test_well_behaved(void **state)
{
    (void)state;
    server s;
    server_start(&s, "well_behaved", NULL);
    ws g;
    double hello_ms = good_hello(&g, &s);
    int games = 0;
    double slowest = play(&g, &s, 1, 100, &games);
    printf(
        "[well_behaved] welcome after %.1f ms; 100 actions acked in %d games (slowest %.1f ms)\n",
        hello_ms, games, slowest);
    ws_close(&g);
    check_second_client(&s, "well_behaved");
    server_stop(&s);
}

/* ---- finding 1: deep nesting ---- */

/* Sends a hello with id 1 whose field "x" nests `depth` levels (open
 * repeated, then `inner`, then close repeated), and checks: a bad_json
 * error with re 1, then a hello on the same connection is welcomed. */
static void deep_nesting(const char *test, const char *open, const char *inner, const char *close_)
{
    server s;
    server_start(&s, test, NULL);
    ws w;
    ws_open(&w, &s, NULL);
    const int depth = 1000;
    size_t cap = 64 + depth * (strlen(open) + strlen(close_)) + strlen(inner);
    char *msg = malloc(cap);
    size_t n = (size_t)snprintf(msg, cap, "{\"v\":1,\"type\":\"hello\",\"id\":1,\"x\":");
    for (int i = 0; i < depth; i++) n += (size_t)snprintf(msg + n, cap - n, "%s", open);
    n += (size_t)snprintf(msg + n, cap - n, "%s", inner);
    for (int i = 0; i < depth; i++) n += (size_t)snprintf(msg + n, cap - n, "%s", close_);
    snprintf(msg + n, cap - n, "}");
    assert_int_equal(ws_send_text(&w, msg), 0);
    free(msg);
    char why[200];
    json_t *r = ws_next_json(&w, REPLY_MS, 1, why, sizeof why);
    if (!r)
        fail_msg("[%s] no reply to the nested hello: %s; %s", test, why, server_state(&s, 3000));
    printf("[%s] nested 1000 deep: %s\n", test, jshow(r));
    assert_string_equal(jtype(r), "error");
    assert_string_equal(json_string_value(json_object_get(r, "code")), "bad_json");
    assert_true(json_is_integer(json_object_get(r, "re")));
    assert_int_equal(json_integer_value(json_object_get(r, "re")), 1);
    json_decref(r);
    /* the connection stays usable */
    assert_int_equal(ws_send_text(&w, "{\"v\":1,\"type\":\"hello\",\"id\":2}"), 0);
    r = ws_reply(&w, &s, 2);
    assert_string_equal(jtype(r), "welcome");
    json_decref(r);
    ws_close(&w);
    check_second_client(&s, test);
    server_stop(&s);
}

/* Finding 1: arrays nested 1,000 deep crashed the server (SIGSEGV). */
static void test_deep_arrays(void **state)
{
    (void)state;
    deep_nesting("deep_arrays", "[", "", "]");
}

/* Finding 1: the same with objects {"a":{"a":...{"a":0}...}}. */
static void test_deep_objects(void **state)
{
    (void)state;
    deep_nesting("deep_objects", "{\"a\":", "0", "}");
}

/* ---- finding 2: integers past 64 bits ---- */

/* Sends text and checks that the reply is an error with code, whose
 * message names field (unless NULL), with re (unless re < 0: not
 * checked).  Returns 1 if so; else prints what is wrong and returns 0
 * (the caller fails once every case has been tried). */
static int check_error_raw(ws *w, server *s, const char *test, const char *text, const char *code,
                           const char *field, int64_t re)
{
    assert_int_equal(ws_send_text(w, text), 0);
    char why[200];
    json_t *r = ws_next_json(w, REPLY_MS, 1, why, sizeof why);
    if (!r) fail_msg("[%s] no reply to %s: %s; %s", test, text, why, server_state(s, 3000));
    printf("[%s] %s\n    -> %s\n", test, text, jshow(r));
    fflush(stdout);
    const char *got = json_string_value(json_object_get(r, "code"));
    const char *message = json_string_value(json_object_get(r, "message"));
    json_t *jre = json_object_get(r, "re");
    int ok = 1;
    if (strcmp(jtype(r), "error") != 0 || !got || strcmp(got, code) != 0) {
        printf("[%s]    WRONG: expected error %s\n", test, code);
        ok = 0;
    }
    if (field && (!message || !names_field(message, field))) {
        printf("[%s]    WRONG: the message does not name '%s'\n", test, field);
        ok = 0;
    }
    if (re >= 0 && (!json_is_integer(jre) || json_integer_value(jre) != re)) {
        printf("[%s]    WRONG: expected re %lld\n", test, (long long)re);
        ok = 0;
    }
    fflush(stdout);
    json_decref(r);
    return ok;
}

/* Finding 2: an integer jansson cannot hold was bad_json; it is a
 * well-formed message with a field out of range: bad_request naming it. */
static void test_big_integers(void **state)
{
    (void)state;
    server s;
    server_start(&s, "big_integers", NULL);
    ws w;
    ws_open(&w, &s, NULL);
    int ok_id = check_error_raw(&w, &s, "big_integers",
                                "{\"v\":1,\"type\":\"hello\",\"id\":18446744073709551616}",
                                "bad_request", "id", -1);
    int ok_decision = check_error_raw(
        &w, &s, "big_integers",
        "{\"v\":1,\"type\":\"act\",\"id\":5,\"decision\":99999999999999999999,\"action\":1}",
        "bad_request", "decision", 5);
    if (!ok_id || !ok_decision)
        fail_msg("[big_integers] wrong reply to the big %s (see above)", !ok_id && !ok_decision
                                                                             ? "id and decision"
                                                                         : !ok_id ? "id"
                                                                                  : "decision");
    ws_close(&w);
    check_second_client(&s, "big_integers");
    server_stop(&s);
}

/* ---- finding 3: re everywhere ---- */

/* Sends a sit or spectate on a fresh connection and returns its first
 * update (or error). */
static json_t *first_update(server *s, const char *test, json_t *req, int64_t *id)
{
    ws w;
    ws_open(&w, s, NULL);
    *id = ws_send_json(&w, req);
    for (;;) {
        char why[200];
        json_t *o = ws_next_json(&w, REPLY_MS, 1, why, sizeof why);
        if (!o) fail_msg("[%s] no update: %s; %s", test, why, server_state(s, 2000));
        if (strcmp(jtype(o), "update") == 0 || strcmp(jtype(o), "error") == 0) {
            ws_close(&w);
            return o;
        }
        json_decref(o);
    }
}

/* Finding 3: the update answering sit and spectate had no re, nor did
 * bad_json when the id could be read. */
static void test_re_everywhere(void **state)
{
    (void)state;
    const char *test = "re_everywhere";
    server s;
    server_start(&s, test, NULL);
    ws w;
    ws_open(&w, &s, NULL);
    /* a game with an invite seat: its token to sit with */
    int64_t cid = ws_send_json(&w, json_pack("{s:s,s:s,s:[s,s,s]}", "type", "create", "game", "dml",
                                             "seats", "invite", "random", "random"));
    json_t *r = ws_reply(&w, &s, cid);
    assert_string_equal(jtype(r), "created");
    char game_id[64], token[64];
    snprintf(game_id, sizeof game_id, "%s", json_string_value(json_object_get(r, "game_id")));
    snprintf(token, sizeof token, "%s",
             json_string_value(
                 json_object_get(json_array_get(json_object_get(r, "seats"), 0), "token")));
    json_decref(r);
    /* a truncated message whose id was readable */
    int bad_json_ok =
        check_error_raw(&w, &s, test, "{\"v\":1,\"type\":\"hello\",\"id\":7,", "bad_json", NULL, 7);
    ws_close(&w);

    int64_t id;
    json_t *up = first_update(
        &s, test, json_pack("{s:s,s:s,s:s}", "type", "sit", "game_id", game_id, "token", token),
        &id);
    printf("[%s] sit id %lld -> %s ... re=%s\n", test, (long long)id, jtype(up),
           json_object_get(up, "re") ? jshow(json_object_get(up, "re")) : "(none)");
    int sit_ok = strcmp(jtype(up), "update") == 0 && json_is_integer(json_object_get(up, "re")) &&
                 json_integer_value(json_object_get(up, "re")) == id;
    json_decref(up);
    up =
        first_update(&s, test, json_pack("{s:s,s:s}", "type", "spectate", "game_id", game_id), &id);
    printf("[%s] spectate id %lld -> %s ... re=%s\n", test, (long long)id, jtype(up),
           json_object_get(up, "re") ? jshow(json_object_get(up, "re")) : "(none)");
    int spectate_ok = strcmp(jtype(up), "update") == 0 &&
                      json_is_integer(json_object_get(up, "re")) &&
                      json_integer_value(json_object_get(up, "re")) == id;
    json_decref(up);
    fflush(stdout);
    if (!bad_json_ok || !sit_ok || !spectate_ok)
        fail_msg("[%s] re missing or wrong in:%s%s%s", test, bad_json_ok ? "" : " [bad_json, id 7]",
                 sit_ok ? "" : " [the update answering sit]",
                 spectate_ok ? "" : " [the update answering spectate]");
    check_second_client(&s, test);
    server_stop(&s);
}

/* ---- finding 4: frames (RFC 6455) ---- */

/* Reads until the server's close frame (text and other frames before it
 * are printed, and welcomes counted); returns its status code (0: a close frame without one),
 * -1 if the connection ended without a close frame, -2 if nothing closed
 * within timeout_ms.  *elapsed: ms until then; *pong_seen: a pong came. */
static int await_close(ws *w, const char *test, int timeout_ms, double *elapsed, int *pong_seen,
                       int *welcomes)
{
    double t0 = now_ms();
    *pong_seen = 0;
    *welcomes = 0;
    for (;;) {
        frame f;
        double left = t0 + timeout_ms - now_ms();
        int r = left > 0 ? ws_read_frame(w, (int)left, &f) : 0;
        *elapsed = now_ms() - t0;
        if (r == 0) return -2;
        if (r < 0) return -1;
        if (f.op == OP_CLOSE) {
            free(f.data);
            return w->close_code;
        }
        if (f.op == OP_PONG) *pong_seen = 1;
        if (f.op == OP_TEXT && strstr((const char *)f.data, "\"welcome\"")) (*welcomes)++;
        printf("[%s] before the close: opcode %d, %zu bytes%s%.*s\n", test, f.op, f.len,
               f.op == OP_TEXT ? ": " : "", f.op == OP_TEXT ? (int)(f.len < 160 ? f.len : 160) : 0,
               (const char *)f.data);
        free(f.data);
    }
}

static const char *close_words(int code, char *buf, size_t cap)
{
    if (code == -2) return "nothing (the connection is still open)";
    if (code == -1) return "the connection ended without a close frame";
    snprintf(buf, cap, "a close frame with status %d", code);
    return buf;
}

/* Sends `bytes` after the upgrade and expects a close frame with status
 * `want` within limit_ms, and neither a pong nor a welcome before it. */
static void frame_case(const char *test, const unsigned char *bytes, size_t n, int want,
                       int limit_ms)
{
    server s;
    server_start(&s, test, NULL);
    ws w;
    ws_open(&w, &s, NULL);
    assert_int_equal(send_all(w.fd, bytes, n), 0);
    double elapsed;
    int pong, welcomes;
    int code = await_close(&w, test, limit_ms, &elapsed, &pong, &welcomes);
    char words[64];
    printf("[%s] got %s after %.0f ms%s\n", test, close_words(code, words, sizeof words), elapsed,
           pong ? " (and a pong)" : "");
    fflush(stdout);
    ws_close(&w);
    if (code != want || pong || welcomes)
        fail_msg("[%s] expected a close frame with status %d within %d ms, got %s%s%s; %s", test,
                 want, limit_ms, close_words(code, words, sizeof words),
                 pong ? ", after a pong to a malformed ping" : "",
                 welcomes ? ", after a welcome: the frame it must refuse was acted on" : "",
                 server_state(&s, 1000));
    check_second_client(&s, test);
    server_stop(&s);
}

/* Finding 4: a header declaring 100,000,000 bytes, then nothing: the
 * server waited for them, holding the connection; it must close with
 * 1009 (too big) at once, since the frame is over --max-frame. */
static void test_frame_huge_length(void **state)
{
    (void)state;
    unsigned char h[14];
    size_t n = frame_header(h, 1, OP_TEXT, 1, 100000000u, 0);
    frame_case("frame_huge_length", h, n, 1009, 2000);
}

/* Finding 4: a header declaring 2^63-1 bytes: close 1009. */
static void test_frame_max_length(void **state)
{
    (void)state;
    unsigned char h[14];
    size_t n = frame_header(h, 1, OP_TEXT, 1, INT64_MAX, 0);
    frame_case("frame_max_length", h, n, 1009, 2000);
}

/* Finding 4: a control frame may carry at most 125 bytes (RFC 6455 5.5);
 * a ping of 126 in the extended-length form is a protocol error: 1002. */
static void test_frame_long_ping(void **state)
{
    (void)state;
    unsigned char f[14 + 126];
    size_t n = frame_header(f, 1, OP_PING, 1, 126, 1);
    for (size_t i = 0; i < 126; i++) f[n + i] = (unsigned char)('p' ^ mask_key[i % 4]);
    frame_case("frame_long_ping", f, n + 126, 1002, 2000);
}

/* Finding 4: a client frame must be masked (RFC 6455 5.1): an unmasked
 * hello is a protocol error, 1002, and gets no welcome. */
static void test_frame_unmasked(void **state)
{
    (void)state;
    const char *hello = "{\"v\":1,\"type\":\"hello\",\"id\":1}";
    unsigned char f[128];
    size_t n = frame_header(f, 1, OP_TEXT, 0, strlen(hello), 0);
    memcpy(f + n, hello, strlen(hello));
    frame_case("frame_unmasked", f, n + strlen(hello), 1002, 2000);
}

/* Finding 4: a message may come in fragments (RFC 6455 5.4): a text frame
 * with FIN=0 and a continuation with FIN=1 are one hello, welcomed. */
static void test_frame_fragmented(void **state)
{
    (void)state;
    const char *test = "frame_fragmented";
    server s;
    server_start(&s, test, NULL);
    ws w;
    ws_open(&w, &s, NULL);
    const char *a = "{\"v\":1,\"type\":\"he", *b = "llo\",\"id\":3}";
    assert_int_equal(ws_send_frame(&w, 0, OP_TEXT, 1, a, strlen(a)), 0);
    assert_int_equal(ws_send_frame(&w, 1, OP_CONT, 1, b, strlen(b)), 0);
    char why[200];
    json_t *r = ws_next_json(&w, REPLY_MS, 1, why, sizeof why);
    if (!r)
        fail_msg("[%s] no reply to the fragmented hello: %s; %s", test, why,
                 server_state(&s, 2000));
    printf("[%s] fragmented hello -> %.200s\n", test, jshow(r));
    fflush(stdout);
    if (strcmp(jtype(r), "welcome") != 0 || json_integer_value(json_object_get(r, "re")) != 3)
        fail_msg("[%s] expected the welcome with re 3, got %s", test, jshow(r));
    json_decref(r);
    /* and the connection goes on */
    assert_int_equal(ws_send_text(&w, "{\"v\":1,\"type\":\"hello\",\"id\":4}"), 0);
    r = ws_reply(&w, &s, 4);
    assert_string_equal(jtype(r), "welcome");
    json_decref(r);
    ws_close(&w);
    check_second_client(&s, test);
    server_stop(&s);
}

/* Finding 4: a ping of at most 125 bytes gets a pong with the same
 * payload (RFC 6455 5.5.2-3); 0, 17 and 125 bytes. */
static void test_frame_ping_pong(void **state)
{
    (void)state;
    const char *test = "frame_ping_pong";
    server s;
    server_start(&s, test, NULL);
    ws w;
    ws_open(&w, &s, NULL);
    const size_t sizes[] = {0, 17, 125};
    for (int k = 0; k < 3; k++) {
        unsigned char payload[125];
        for (size_t i = 0; i < sizes[k]; i++)
            payload[i] = (unsigned char)('a' + (i * 7 + (size_t)k) % 26);
        assert_int_equal(ws_send_frame(&w, 1, OP_PING, 1, payload, sizes[k]), 0);
        double t0 = now_ms();
        for (;;) {
            frame f;
            double left = t0 + REPLY_MS - now_ms();
            int r = left > 0 ? ws_read_frame(&w, (int)left, &f) : 0;
            if (r <= 0)
                fail_msg("[%s] no pong for a ping of %zu bytes: %s; %s", test, sizes[k],
                         r == 0 ? "nothing" : "the connection closed", server_state(&s, 1000));
            if (f.op == OP_CLOSE)
                fail_msg("[%s] a ping of %zu bytes was answered with close %d", test, sizes[k],
                         w.close_code);
            if (f.op != OP_PONG) {
                free(f.data);
                continue;
            }
            printf("[%s] ping of %zu bytes -> pong of %zu bytes after %.1f ms\n", test, sizes[k],
                   f.len, now_ms() - t0);
            assert_int_equal(f.len, sizes[k]);
            assert_memory_equal(f.data, payload, sizes[k]);
            free(f.data);
            break;
        }
    }
    fflush(stdout);
    /* pings change nothing: a hello is still welcomed */
    assert_int_equal(ws_send_text(&w, "{\"v\":1,\"type\":\"hello\",\"id\":9}"), 0);
    json_t *r = ws_reply(&w, &s, 9);
    assert_string_equal(jtype(r), "welcome");
    json_decref(r);
    ws_close(&w);
    check_second_client(&s, test);
    server_stop(&s);
}

/* ---- finding 5: fair share ---- */

/* The limits the fair-share server runs with, and the attack. */
#define FS_PER_ADDR     4
#define FS_HANDSHAKE_MS 1000
#define FS_IDLE_MS      1500
#define FS_MAX_CONNS    8 /* civetweb holds max-conns + 4 threads: fewer than the attack's sockets */
#define FS_SLOW         16 /* slowloris sockets */
#define FS_IDLE         16 /* idle WebSockets */
#define FS_ATTACKER     "127.0.0.2"

typedef struct att_sock {
    ws w;
    int connect_errno; /* the connect failed: refused at once */
    double t_open, t_closed, t_next_byte;
    size_t sent;
    int upgraded;    /* idle WebSocket: got its 101 */
    int http_status; /* a response other than 101, if any */
    int pings;       /* pings received (never answered) */
} att_sock;

typedef struct attack {
    int port;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int phase; /* 0 starting, 1 slowloris open, 2 idle WebSockets open, 3 done */
    int stop;  /* the test gave up: end the attack now */
    att_sock slow[FS_SLOW], idle[FS_IDLE];
    /* the first moment an attacker held at most FS_PER_ADDR open sockets
     * (ms after the phase began), -1 if not within its limit; and how
     * many it held then */
    double slow_settle_ms, idle_settle_ms;
    int slow_held, idle_held;
    double slow_phase_ms, idle_phase_ms; /* how long each phase took */
} attack;

static void att_set_phase(attack *a, int phase)
{
    pthread_mutex_lock(&a->mu);
    a->phase = phase;
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
}

/* A slowloris request: one byte a second, never finished in a test. */
static const char slow_request[] =
    "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
    "Connection: Upgrade\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

static int att_stopping(attack *a)
{
    pthread_mutex_lock(&a->mu);
    int stop = a->stop;
    pthread_mutex_unlock(&a->mu);
    return stop;
}

static int att_open_count(const att_sock *v, int n)
{
    int open = 0;
    for (int i = 0; i < n; i++)
        if (v[i].w.fd >= 0 && !v[i].t_closed) open++;
    return open;
}

/* Marks a socket closed by the server now. */
static void att_closed(att_sock *k)
{
    k->t_closed = now_ms();
    ws_close(&k->w);
}

/* Phase 1: FS_SLOW slowloris sockets, until all are closed or the
 * handshake deadline has long passed. */
static void att_slowloris(attack *a)
{
    double t0 = now_ms();
    for (int i = 0; i < FS_SLOW; i++) {
        att_sock *k = &a->slow[i];
        int fd = tcp_connect(a->port, FS_ATTACKER);
        ws_init(&k->w, fd);
        k->t_open = now_ms();
        if (fd < 0) {
            k->connect_errno = errno ? errno : -1;
            k->t_closed = k->t_open;
            continue;
        }
        if (send_all(fd, slow_request, 1) == 0)
            k->sent = 1;
        else
            att_closed(k);
        k->t_next_byte = k->t_open + 1000;
    }
    att_set_phase(a, 1);
    a->slow_settle_ms = -1;
    double until = t0 + FS_HANDSHAKE_MS + 3000;
    while (att_open_count(a->slow, FS_SLOW) > 0 && now_ms() < until && !att_stopping(a)) {
        int open = att_open_count(a->slow, FS_SLOW);
        if (a->slow_settle_ms < 0 && open <= FS_PER_ADDR && now_ms() - t0 <= FS_HANDSHAKE_MS / 2) {
            a->slow_settle_ms = now_ms() - t0;
            a->slow_held = open;
        }
        struct pollfd p[FS_SLOW];
        int idx[FS_SLOW], np = 0;
        for (int i = 0; i < FS_SLOW; i++)
            if (a->slow[i].w.fd >= 0) {
                p[np] = (struct pollfd){.fd = a->slow[i].w.fd, .events = POLLIN};
                idx[np++] = i;
            }
        poll(p, (nfds_t)np, 50);
        for (int j = 0; j < np; j++) {
            att_sock *k = &a->slow[idx[j]];
            if (p[j].revents & (POLLIN | POLLHUP | POLLERR)) {
                /* a response (a 4xx, say) or the end: read to the end */
                while (ws_fill(&k->w, 0) > 0) {
                }
                if (k->w.eof) {
                    if (k->w.len > 12 && memcmp(k->w.buf, "HTTP/1.", 7) == 0)
                        k->http_status = atoi((const char *)k->w.buf + 9);
                    att_closed(k);
                    continue;
                }
            }
            if (now_ms() >= k->t_next_byte && k->sent < sizeof slow_request - 1) {
                if (send_all(k->w.fd, slow_request + k->sent, 1) != 0) {
                    att_closed(k);
                    continue;
                }
                k->sent++;
                k->t_next_byte += 1000;
            }
        }
    }
    a->slow_phase_ms = now_ms() - t0;
}

/* Phase 2: FS_IDLE WebSockets that upgrade and then say nothing, nor
 * answer pings; until all are closed or the idle timeout has long passed.
 * They are opened one after the other, each waiting (up to 500 ms) for its
 * answer, so the first FS_PER_ADDR are the ones a fair server upgrades
 * (the slowloris sockets have all been closed by then). */
static void att_idle(attack *a)
{
    double start = now_ms();
    for (int i = 0; i < FS_IDLE && !att_stopping(a); i++) {
        att_sock *k = &a->idle[i];
        int fd = tcp_connect(a->port, FS_ATTACKER);
        ws_init(&k->w, fd);
        k->t_open = now_ms();
        if (fd < 0) {
            k->connect_errno = errno ? errno : -1;
            k->t_closed = k->t_open;
            continue;
        }
        if (send_all(fd, upgrade_request, sizeof upgrade_request - 1) != 0) {
            att_closed(k);
            continue;
        }
        int st = http_response(&k->w, 500);
        if (st == 101)
            k->upgraded = 1;
        else if (st > 0)
            k->http_status = st; /* refused with a status: the end follows */
        else if (st < 0)
            att_closed(k);
        /* st == 0: no answer yet; the loop below reads it */
    }
    att_set_phase(a, 2);
    double t0 = now_ms();
    a->idle_settle_ms = -1;
    double until = t0 + 2 * FS_IDLE_MS + 3000;
    while (att_open_count(a->idle, FS_IDLE) > 0 && now_ms() < until && !att_stopping(a)) {
        int open = att_open_count(a->idle, FS_IDLE);
        if (a->idle_settle_ms < 0 && open <= FS_PER_ADDR && now_ms() - t0 <= FS_IDLE_MS / 2) {
            a->idle_settle_ms = now_ms() - t0;
            a->idle_held = open;
        }
        struct pollfd p[FS_IDLE];
        int idx[FS_IDLE], np = 0;
        for (int i = 0; i < FS_IDLE; i++)
            if (a->idle[i].w.fd >= 0) {
                p[np] = (struct pollfd){.fd = a->idle[i].w.fd, .events = POLLIN};
                idx[np++] = i;
            }
        poll(p, (nfds_t)np, 50);
        for (int j = 0; j < np; j++) {
            att_sock *k = &a->idle[idx[j]];
            if (!(p[j].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            if (!k->upgraded && !k->http_status) {
                int st = http_response(&k->w, 0);
                if (st == 101) {
                    k->upgraded = 1;
                } else if (st > 0) {
                    k->http_status = st; /* refused with a status: wait for the end */
                } else if (st < 0) {
                    att_closed(k);
                    continue;
                }
            }
            if (k->upgraded) {
                frame f;
                int r;
                while ((r = ws_read_frame(&k->w, 0, &f)) == 1) {
                    if (f.op == OP_PING) k->pings++;
                    free(f.data);
                    if (f.op == OP_CLOSE) break;
                }
                if (r < 0 || k->w.close_code >= 0) {
                    att_closed(k);
                    continue;
                }
            } else if (k->http_status) {
                while (ws_fill(&k->w, 0) > 0) {
                }
                if (k->w.eof) att_closed(k);
            }
        }
    }
    a->idle_phase_ms = now_ms() - start;
}

static void *att_main(void *arg)
{
    attack *a = arg;
    att_slowloris(a);
    if (!att_stopping(a)) att_idle(a);
    att_set_phase(a, 3);
    return NULL;
}

/* Waits up to ms for the attack to end; 1 if it has. */
static int att_over_within(attack *a, int ms)
{
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    dl.tv_nsec += (long)ms * 1000000L;
    dl.tv_sec += dl.tv_nsec / 1000000000L;
    dl.tv_nsec %= 1000000000L;
    pthread_mutex_lock(&a->mu);
    while (a->phase < 3)
        if (pthread_cond_timedwait(&a->cv, &a->mu, &dl) != 0) break;
    int over = a->phase >= 3;
    pthread_mutex_unlock(&a->mu);
    return over;
}

/* Prints what happened to one kind of attacker socket; returns how many
 * were still open at the end (the attacker then closed them). */
static int att_report(const char *what, att_sock *v, int n, int limit_ms)
{
    int opened = 0, refused = 0, quick = 0, late = 0, still = 0, upgraded = 0, pings = 0;
    int with_status = 0;
    double min_life = 1e9, max_life = 0;
    for (int i = 0; i < n; i++) {
        att_sock *k = &v[i];
        if (!k->t_open) continue; /* the attack ended before this one */
        opened++;
        upgraded += k->upgraded;
        pings += k->pings;
        with_status += k->http_status != 0;
        if (k->connect_errno) {
            refused++;
        } else if (!k->t_closed) {
            still++;
            ws_close(&k->w);
        } else {
            double life = k->t_closed - k->t_open;
            if (life <= limit_ms / 2)
                quick++;
            else
                late++;
            if (life > max_life) max_life = life;
            if (life < min_life) min_life = life;
        }
    }
    printf("[fair_share] %d %s from %s: %d refused at connect, %d closed within %d ms, %d closed "
           "later, %d still open at the end; %d upgraded, %d answered with another HTTP status, "
           "%d pings received (not answered); lifetimes %.0f-%.0f ms\n",
           opened, what, FS_ATTACKER, refused, quick, limit_ms / 2, late, still, upgraded,
           with_status, pings, min_life < 1e9 ? min_life : 0, max_life);
    return still;
}

/* Finding 5: one address could take every connection the server has
 * (slowloris sockets that never finish their request, WebSockets that
 * never speak), starving everyone else.  With a per-address limit, a
 * handshake deadline and an idle timeout the well-behaved client on
 * 127.0.0.1 plays all along; the attacker holds at most FS_PER_ADDR
 * sockets, its slowloris sockets end at the handshake deadline, and its
 * WebSockets that do not answer pings end after the idle timeout.  A
 * client that answers pings stays, idle or not. */
static void test_fair_share(void **state)
{
    (void)state;
    const char *test = "fair_share";
    char flags[256];
    if (getenv("CR_HOSTILE_WITHOUT_NEW_FLAGS")) /* today's server, under the same attack */
        snprintf(flags, sizeof flags, "--max-conns %d", FS_MAX_CONNS);
    else
        snprintf(flags, sizeof flags,
                 "--max-conns %d --max-conns-per-addr %d --handshake-timeout-ms %d "
                 "--idle-timeout-ms %d",
                 FS_MAX_CONNS, FS_PER_ADDR, FS_HANDSHAKE_MS, FS_IDLE_MS);
    server s;
    server_start(&s, test, flags);
    attack *a = calloc(1, sizeof *a);
    a->port = s.port;
    for (int i = 0; i < FS_SLOW; i++) a->slow[i].w.fd = -1;
    for (int i = 0; i < FS_IDLE; i++) a->idle[i].w.fd = -1;
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->cv, NULL);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, att_main, a), 0);
    pthread_mutex_lock(&a->mu);
    while (a->phase < 1) pthread_cond_wait(&a->cv, &a->mu);
    pthread_mutex_unlock(&a->mu);

    /* the well-behaved client arrives in the middle of the slowloris
     * attack; if it is not served, the attack is ended and reported */
    ws g;
    char why[800] = "";
    double t0 = now_ms();
    ws_init(&g, tcp_connect(s.port, NULL));
    int st = 0;
    json_t *r = NULL;
    if (g.fd < 0)
        snprintf(why, sizeof why, "connect: %s", strerror(errno));
    else if (send_all(g.fd, upgrade_request, sizeof upgrade_request - 1) != 0)
        snprintf(why, sizeof why, "the upgrade request could not be sent");
    else if ((st = http_response(&g, REPLY_MS)) != 101)
        snprintf(why, sizeof why, "the upgrade got %s",
                 st < 0    ? "the connection closed"
                 : st == 0 ? "no answer"
                           : "another status");
    else if (ws_send_text(&g, "{\"v\":1,\"type\":\"hello\",\"id\":1}") != 0 ||
             !(r = ws_next_json(&g, REPLY_MS, 1, why, sizeof why)))
        ;
    else if (strcmp(jtype(r), "welcome") != 0)
        snprintf(why, sizeof why, "hello got %s", jshow(r));
    json_decref(r);
    double hello_ms = now_ms() - t0;
    if (why[0]) {
        pthread_mutex_lock(&a->mu);
        a->stop = 1;
        pthread_mutex_unlock(&a->mu);
        pthread_join(th, NULL);
        att_report("slowloris sockets", a->slow, FS_SLOW, FS_HANDSHAKE_MS);
        att_report("idle WebSockets", a->idle, FS_IDLE, FS_IDLE_MS);
        free(a);
        ws_close(&g);
        fail_msg("[%s] during the attack the client on 127.0.0.1 was not served: %s (after %.0f "
                 "ms); %s",
                 test, why, hello_ms, server_state(&s, 1000));
    }
    g.next_id = 1;
    printf(
        "[%s] the client on 127.0.0.1, during the attack: connected and welcomed after %.1f ms\n",
        test, hello_ms);
    fflush(stdout);
    int acts = 0, games = 0;
    double slowest = 0;
    /* at a person's pace (an action every 100 ms at most): a script as
     * fast as the bots would spend the test on commits */
    do {
        double t = play(&g, &s, acts == 0, 1, &games);
        if (t > slowest) slowest = t;
        acts++;
    } while (!att_over_within(a, 100));
    pthread_join(th, NULL);
    printf("[%s] the client played on during the attack: %d actions acked in %d games, slowest ack "
           "%.1f ms\n",
           test, acts, games, slowest);
    /* idle now, but answering pings: it must stay */
    double idle_from = now_ms();
    for (json_t *o;
         (o = ws_next_json(&g, (int)(idle_from + 2 * FS_IDLE_MS - now_ms()), 1, why, sizeof why));)
        json_decref(o);
    if (g.eof || g.close_code >= 0)
        fail_msg("[%s] the client answering pings was closed while idle: %s", test, why);
    int64_t id = ws_send_json(&g, json_pack("{s:s}", "type", "hello"));
    r = ws_reply(&g, &s, id);
    assert_string_equal(jtype(r), "welcome");
    json_decref(r);
    printf("[%s] the client stayed %d ms idle answering %d pings, and is still served\n", test,
           2 * FS_IDLE_MS, g.pongs_sent);
    ws_close(&g);

    int slow_left = att_report("slowloris sockets", a->slow, FS_SLOW, FS_HANDSHAKE_MS);
    int idle_left = att_report("idle WebSockets", a->idle, FS_IDLE, FS_IDLE_MS);
    int upgraded = 0;
    for (int i = 0; i < FS_IDLE; i++) upgraded += a->idle[i].upgraded;
    if (a->slow_settle_ms >= 0)
        printf("[%s] slowloris: %d held %.0f ms after opening them", test, a->slow_held,
               a->slow_settle_ms);
    else
        printf("[%s] slowloris: more than %d held %d ms after opening them", test, FS_PER_ADDR,
               FS_HANDSHAKE_MS / 2);
    if (a->idle_settle_ms >= 0)
        printf("; idle WebSockets: %d held %.0f ms after opening them", a->idle_held,
               a->idle_settle_ms);
    else
        printf("; idle WebSockets: more than %d held %d ms after opening them", FS_PER_ADDR,
               FS_IDLE_MS / 2);
    printf(" (phases over after %.0f and %.0f ms)\n", a->slow_phase_ms, a->idle_phase_ms);
    fflush(stdout);
    /* every broken promise, then one failure */
    char bad[1024] = "";
    size_t nb = 0;
#define FS_BAD(...)                                                                                \
    nb += (size_t)snprintf(bad + nb, nb < sizeof bad ? sizeof bad - nb : 0, __VA_ARGS__)
    if (a->slow_settle_ms < 0)
        FS_BAD("; more than %d slowloris sockets held %d ms after opening them", FS_PER_ADDR,
               FS_HANDSHAKE_MS / 2);
    if (slow_left)
        FS_BAD("; %d slowloris sockets outlived the %d ms handshake deadline by 3 s", slow_left,
               FS_HANDSHAKE_MS);
    if (upgraded > FS_PER_ADDR)
        FS_BAD("; %d WebSockets from one address upgraded (limit %d)", upgraded, FS_PER_ADDR);
    if (upgraded == 0)
        FS_BAD("; no idle WebSocket was upgraded, so the idle timeout went untested");
    if (a->idle_settle_ms < 0)
        FS_BAD("; more than %d WebSockets held %d ms after opening them", FS_PER_ADDR,
               FS_IDLE_MS / 2);
    if (idle_left)
        FS_BAD("; %d idle WebSockets that answer no ping outlived the %d ms idle timeout (waited "
               "%d ms)",
               idle_left, FS_IDLE_MS, 2 * FS_IDLE_MS + 3000);
#undef FS_BAD
    pthread_mutex_destroy(&a->mu);
    pthread_cond_destroy(&a->cv);
    free(a);
    if (bad[0]) fail_msg("[%s] the attacker was not held to its share%s", test, bad);
    check_second_client(&s, test);
    server_stop(&s);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cr-hostile-XXXXXX");
    if (!mkdtemp(tmpdir)) return 1;
    signal(SIGPIPE, SIG_IGN);
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* CR_TEST_FILTER=test_name (a cmocka pattern): only the tests it names */
    if (getenv("CR_TEST_FILTER")) cmocka_set_test_filter(getenv("CR_TEST_FILTER"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_well_behaved, kill_live),
        cmocka_unit_test_teardown(test_deep_arrays, kill_live),
        cmocka_unit_test_teardown(test_deep_objects, kill_live),
        cmocka_unit_test_teardown(test_big_integers, kill_live),
        cmocka_unit_test_teardown(test_re_everywhere, kill_live),
        cmocka_unit_test_teardown(test_frame_huge_length, kill_live),
        cmocka_unit_test_teardown(test_frame_max_length, kill_live),
        cmocka_unit_test_teardown(test_frame_long_ping, kill_live),
        cmocka_unit_test_teardown(test_frame_unmasked, kill_live),
        cmocka_unit_test_teardown(test_frame_fragmented, kill_live),
        cmocka_unit_test_teardown(test_frame_ping_pong, kill_live),
        cmocka_unit_test_teardown(test_fair_share, kill_live),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    const char *sfx[] = {".db", ".db-wal", ".db-shm", ".db.lock"};
    for (int i = 0; i < n_db_names; i++)
        for (int j = 0; j < 4; j++) {
            char path[600];
            snprintf(path, sizeof path, "%s/%s%s", tmpdir, db_names[i], sfx[j]);
            unlink(path);
        }
    rmdir(tmpdir);
    return rc;
}
