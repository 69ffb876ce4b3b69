/* server/transport.c — the server's transport: frames queued for a
 * connection and written by its own thread, the WebSocket connection's
 * life (socket, decoder, rate limit, idle and frame deadlines), civetweb's
 * callbacks (routing an upgrade by game id, the HTTP API under /api/), and
 * webhooks (a plain HTTP/1.0 POST from one thread).
 *
 * A connection (sv_conn) is owned by the civetweb worker that accepted it:
 * sv_ws_ready makes it and waits for its thread (sv_conn_main), sv_ws_close
 * frees it.  Any thread may queue a frame for it (sv_queue never waits for
 * the client); only its thread writes to the socket.
 *
 * Lock order: a connection's q_mu and the server's hook_mu are leaves,
 * taken with or without a game's mutex held (server_internal.h).
 *
 * Durability: this room stores nothing; it sends what the handlers and
 * games.c hand it, and those send only what the store already holds
 * (server_internal.h).  A webhook is sent after the change it announces
 * was stored.
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

void sv_send(sv_conn *c, const char *text, size_t len) { sv_queue(c, SV_WS_TEXT, text, len); }

void sv_frame_begin(cr_text *b, const char *type, const sv_msg *m)
{
    cr_text_printf(b, "{\"v\":1,\"type\":\"%s\"", type);
    if (m && m->has_id) cr_text_printf(b, ",\"re\":%lld", (long long)m->id);
}

void sv_frame_send(sv_conn *c, const sv_msg *m, cr_text *b)
{
    cr_text_puts(b, "}");
    if (!b->oom)
        sv_send(c, b->p, b->len);
    else
        sv_send_error(c, m, "limit", "out of memory");
}

void sv_send_error(sv_conn *c, const sv_msg *m, const char *code, const char *msg)
{
    cr_text b = CR_TEXT_INIT;
    sv_frame_begin(&b, "error", m);
    cr_text_puts(&b, ",\"code\":");
    cr_text_json_utf8(&b, code);
    cr_text_puts(&b, ",\"message\":");
    cr_text_json_utf8(&b, msg);
    cr_text_puts(&b, "}");
    if (!b.oom) sv_send(c, b.p, b.len); /* no error about an error */
    cr_text_free(&b);
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
int sv_conn_bytes(sv_conn *c, sv_ws_dec *d, const uint8_t *buf, size_t n, const char **why)
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

int sv_ws_connect(const struct mg_connection *mc, void *cb)
{
    sv_server *sv = cb;
    return sv_route_refuses(sv, mc); /* 0 accepts the upgrade */
}

void sv_conn_init(sv_conn *c, sv_server *sv)
{
    memset(c, 0, sizeof *c);
    c->srv = sv;
    c->fd = -1;
    c->wake = -1;
    c->seat = CR_SEAT_PUBLIC;
    c->bucket = 2.0 * sv->cfg.max_msg_rate;
    c->bucket_t = sv_mono();
    c->rp_bucket = 2.0 * SV_REPLAY_RATE;
    c->rp_t = c->bucket_t;
    pthread_mutex_init(&c->q_mu, NULL);
}

void sv_ws_ready(struct mg_connection *mc, void *cb)
{
    sv_server *sv = cb;
    sv_conn *c = malloc(sizeof *c);
    if (!c) return;
    sv_conn_init(c, sv);
    c->mc = mc;
    const struct mg_request_info *ri = mg_get_request_info(mc);
    snprintf(c->addr, sizeof c->addr, "%s", ri ? ri->remote_addr : "");
    mg_set_user_connection_data(mc, c);
    c->fd = sv_conn_socket(mc);
    c->wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    /* civetweb's worker waits while the connection's thread serves it: it
     * holds the connection's slot */
    int ok = c->fd >= 0 && c->wake >= 0 && sv_run_on_stack(SV_CONN_STACK, sv_conn_main, c);
    if (!ok) {
        sv_log(sv, "cannot serve a WebSocket from %s (%s)", c->addr,
               c->fd < 0 ? "its socket was not found" : "no thread");
        mg_websocket_write(mc, MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE, "\x03\xf3", 2); /* 1011 */
        if (c->fd >= 0) shutdown(c->fd, SHUT_RD);
        return;
    }
}

/* Every frame is read by the connection's thread (sv_conn_main); civetweb
 * reads only the end of the socket once that thread is done. */
int sv_ws_data(struct mg_connection *mc, int bits, char *data, size_t len, void *cb)
{
    (void)mc, (void)bits, (void)data, (void)len, (void)cb;
    return 0;
}

void sv_ws_close(const struct mg_connection *mc, void *cb)
{
    (void)cb;
    sv_conn *c = mg_get_user_connection_data(mc);
    if (!c) return;
    sv_detach(c);
    sv_replay_drop(c);
    if (c->wake >= 0) close(c->wake);
    pthread_mutex_destroy(&c->q_mu);
    free(c->q);
    cr_text_free(&c->out);
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
 * data_json part writes it (a board the browser draws, say), for
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

/* GET /api/games/NAME/guide: the game's player's guide (its `guide`
 * part: the rules in short and the glossary, in Markdown), for the
 * browser's Guide link.  The same text for every client: cached. */
static int sv_http_guide(struct mg_connection *mc, const char *name)
{
    const cr_game_def *def = sv_def(name);
    const char *guide = def && def->parts ? def->parts->guide : NULL;
    if (!guide) {
        mg_send_http_error(mc, 404, "%s", "no such game, or it has no guide");
        return 404;
    }
    size_t len = strlen(guide);
    mg_printf(mc,
              "HTTP/1.1 200 OK\r\nContent-Type: text/markdown; charset=utf-8\r\n"
              "Cache-Control: no-cache\r\nX-Content-Type-Options: nosniff\r\n"
              "Content-Length: %zu\r\nConnection: close\r\n\r\n",
              len);
    mg_write(mc, guide, len);
    return 200;
}

int sv_http_api(struct mg_connection *mc, void *cb)
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
    if (strncmp(uri, "/api/games/", 11) == 0) {
        char name[32];
        size_t n = 0;
        const char *rest = uri + 11;
        while (n < sizeof name - 1 && rest[n] && rest[n] != '/') name[n] = rest[n], n++;
        name[n] = '\0';
        if (strcmp(rest + n, "/guide") == 0) return sv_http_guide(mc, name);
        return sv_http_data(mc, ri, uri + 11);
    }
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

int sv_log_message(const struct mg_connection *mc, const char *msg)
{
    const sv_server *sv = mg_get_user_data(mg_get_context(mc));
    sv_log(sv, "civetweb: %s", msg);
    return 1;
}

/* ---- webhooks: a plain HTTP/1.0 POST, from one thread, 3 s timeouts ---- */

void sv_enqueue_hook(sv_game *g, int seat, int64_t decision)
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

void *sv_hook_main(void *arg)
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
