/* server/server.h — `croupier serve`: the HTTP + WebSocket server
 * (docs/server.md, docs/protocol.md).  Game-agnostic: it hosts every game
 * of the registry through the match layer (match.h) and sends each
 * connection only its seat's view. */
#ifndef CR_SERVER_SERVER_H
#define CR_SERVER_SERVER_H

#include <signal.h>
#include <stddef.h>

typedef struct sv_config {
    const char *listen;  /* "127.0.0.1:8080"; port 0 picks a free port */
    const char *db;      /* "sqlite:PATH" or "postgres://..." */
    const char *web;     /* static client directory, or NULL */
    size_t max_frame;    /* bytes of one client frame */
    int max_msg_rate;    /* messages per second per connection (burst: twice) */
    int max_conns;       /* open connections (civetweb threads) */
    int max_games;       /* running games held by the server */
    int max_bots;        /* bot seats in running games */
    int bot_threads;     /* worker threads that play bot seats */
    int bot_max_iters;   /* the largest ismcts iters a seat may ask for */
    int bot_deadline_ms; /* per-move deadline of a bot (random move when overrun); max ismcts ms */
    int bot_memory_mb;   /* what one bot may allocate (checked when it is made) */
    int webhooks;        /* 0: refuse webhook URLs */
    int claim_ms;        /* a shared store (PostgreSQL): every claim_ms, take over the running
                            games no server holds (one whose server died); 0: only at start */
    int max_conns_per_addr; /* open connections from one client address, in any phase */
    int handshake_ms;       /* the whole HTTP request head (and WebSocket upgrade) within it */
    int idle_ms;            /* a WebSocket silent this long is closed; pinged at half of it */
    int frame_ms;           /* a frame's bytes, once its header began, within it */
    size_t max_outbox;      /* bytes queued for a client that does not read; past it: closed */
    int quiet;
} sv_config;

/* The stack size of a connection's thread, which runs the message
 * handlers (server_internal.h says why). */
enum { SV_CONN_STACK = 1 << 20 };

/* The defaults of every flag (docs/server.md). */
void sv_config_defaults(sv_config *c);

/* Runs the server until *stop becomes non-zero (SIGTERM/SIGINT); prints
 * "croupier serve: listening on http://HOST:PORT/" once ready.  Returns 0
 * after a clean shutdown, 1 (after one line on stderr) when it cannot start. */
int sv_run(const sv_config *cfg, volatile sig_atomic_t *stop);

/* ---- for the fuzz target (fuzz/fuzz_protocol.c): the server's real
 * handlers without a listener or sockets ---- */
typedef struct sv_conn sv_conn;
typedef struct sv_server sv_server;

/* Makes a server (store, bot workers, clock) as sv_run does, but listens
 * nowhere; NULL after a line on stderr.  sv_local_close stops and frees it
 * (every connection of it freed first). */
sv_server *sv_local_open(const sv_config *cfg);
void sv_local_close(sv_server *sv);
/* A connection to sv with no socket: every frame the server would write to
 * it goes to sink (op: SV_WS_TEXT, SV_WS_PONG, ...; data without a header). */
sv_conn *sv_local_conn(sv_server *sv, void (*sink)(void *arg, int op, const void *data, size_t len),
                       void *arg);
/* The bytes a client sends after the handshake (masked frames), decoded and
 * handled exactly as from a socket; returns 0, or the status the server
 * would close the connection with.  Call it on a thread of SV_CONN_STACK. */
int sv_local_feed(sv_conn *c, const uint8_t *bytes, size_t n);
void sv_local_conn_free(sv_conn *c);

#endif
