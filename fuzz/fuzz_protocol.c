/* fuzz_protocol.c — libFuzzer target: what a client can send the server
 * after the WebSocket handshake.  An input is the client's byte stream
 * (RFC 6455 frames, masked; the seeds mask with 0 so their JSON reads as
 * is): it is fed to the server's real connection code (src/server/transport.c:
 * frame decoder, rate limit, parser, every message handler, the store) on
 * a thread with the stack of a connection's thread (SV_CONN_STACK), as a
 * socket would feed it.  The server is one for the process (SQLite in a
 * temporary directory, no bots, no webhooks), so games created by one
 * input may be met by the next, as on a live server.
 *
 * Promises checked: nothing crashes or leaks, whatever the nesting, the
 * numbers, the lengths or the fragmentation; every frame the server sends
 * is a JSON object of protocol version 1 with a type, and an error names a
 * documented code; every request whose id could be read gets at least one
 * message carrying it as `re` (unless the server closed the connection
 * before it); and, for each message the frames carry, the parser's own
 * promises (proto.h): a refused message names a documented error code and
 * a reason, an accepted one has a known type and fields within their
 * bounds. */
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "server/proto.h"
#include "server/server.h"
#include "server/ws.h"

static int bounded(const char *s, size_t cap) { return memchr(s, '\0', cap) != NULL; }

/* The parser's promises for one message (as the target checked them before
 * it fed the server). */
static void check_parse(const char *data, size_t size, sv_msg *m)
{
    const char *code = NULL;
    char err[256];
    int rc = sv_proto_parse(data, size, m, &code, err, sizeof err);
    FUZZ_CHECK(!m->has_id || (m->id >= 0 && m->id <= ((int64_t)1 << 53)), "id out of range");
    if (rc != 0) {
        FUZZ_CHECK(code && (strcmp(code, "bad_json") == 0 || strcmp(code, "bad_request") == 0 ||
                            strcmp(code, "version") == 0),
                   "unknown error code");
        FUZZ_CHECK(bounded(err, sizeof err) && err[0] != '\0', "an error without a reason");
        return;
    }
    FUZZ_CHECK(m->type >= SV_HELLO && m->type <= SV_HINT, "unknown type accepted");
    FUZZ_CHECK(bounded(m->game_id, sizeof m->game_id) && bounded(m->token, sizeof m->token) &&
                   bounded(m->text, sizeof m->text) && bounded(m->spec, sizeof m->spec) &&
                   bounded(m->game, sizeof m->game) && bounded(m->variant, sizeof m->variant) &&
                   bounded(m->webhook, sizeof m->webhook) &&
                   bounded(m->clock_on_timeout, sizeof m->clock_on_timeout) &&
                   bounded(m->tier, sizeof m->tier),
               "unterminated field");
    if (m->type == SV_JOIN || m->type == SV_SIT || m->type == SV_SPECTATE || m->type == SV_RECORD ||
        m->type == SV_REPLAY || m->type == SV_ANALYSE)
        FUZZ_CHECK(sv_is_game_id(m->game_id), "a game id that is not 32 hex digits");
    if (m->type == SV_ANALYSE)
        FUZZ_CHECK(m->seat >= 0 && m->seat < CR_MAX_PLAYERS && m->iters >= 10 &&
                       m->iters <= SV_ANALYSE_ITERS_MAX,
                   "analyse seat or iterations out of range");
    if (m->type == SV_CREATE) FUZZ_CHECK(m->hints == 0 || m->hints == 1, "create hints");
    if (m->type == SV_REPLAY)
        FUZZ_CHECK(m->step >= 0 && m->step <= INT32_MAX && m->seat >= -1 &&
                       m->seat < CR_MAX_PLAYERS,
                   "replay step or seat out of range");
    if (m->type == SV_ACT) {
        FUZZ_CHECK(m->decision >= 0, "act without a decision");
        FUZZ_CHECK(m->has_action != (m->text[0] != '\0'), "act with both or neither");
    }
    if (m->type == SV_CREATE) {
        FUZZ_CHECK(m->n_seats >= 1 && m->n_seats <= CR_MAX_PLAYERS, "seat count");
        FUZZ_CHECK(m->n_options >= 0 && m->n_options <= CR_MAX_OPTIONS, "option count");
        FUZZ_CHECK(m->sit >= -1 && m->sit < m->n_seats, "sit out of range");
        for (int i = 0; i < m->n_seats; i++)
            FUZZ_CHECK(bounded(m->seats[i], sizeof m->seats[i]) && m->seats[i][0], "seat spec");
        if (m->webhook[0]) {
            char host[256], path[SV_URL_MAX + 1];
            int port;
            FUZZ_CHECK(sv_parse_http_url(m->webhook, host, sizeof host, &port, path, sizeof path) &&
                           port >= 1 && port <= 65535,
                       "a webhook the server would not accept");
        }
    }
    if (m->type == SV_LIST) FUZZ_CHECK(m->status >= 0 && m->status <= 3, "list status");
}

enum { MAX_IDS = 256 };

typedef struct run {
    const uint8_t *data;
    size_t size;
    int status; /* the close status the server chose, 0 none */
    /* the ids of the requests sent, and whether a reply carried each */
    int64_t ids[MAX_IDS];
    int answered[MAX_IDS];
    int n_ids;
} run;

/* Every frame the server writes for the connection. */
static void sink(void *arg, int op, const void *data, size_t len)
{
    run *r = arg;
    if (op == SV_WS_PONG || op == SV_WS_PING) return;
    if (op == SV_WS_CLOSE) {
        FUZZ_CHECK(len >= 2, "a close frame without a status");
        return;
    }
    FUZZ_CHECK(op == SV_WS_TEXT, "a server frame of opcode %d", op);
    json_error_t je;
    json_t *o = json_loadb(data, len, 0, &je);
    FUZZ_CHECK(o && json_is_object(o), "the server sent no JSON object: %.*s", (int)len,
               (const char *)data);
    FUZZ_CHECK(json_integer_value(json_object_get(o, "v")) == 1, "a message without v 1");
    const char *type = json_string_value(json_object_get(o, "type"));
    FUZZ_CHECK(type != NULL, "a message without a type");
    if (strcmp(type, "error") == 0) {
        const char *code = json_string_value(json_object_get(o, "code"));
        int known = 0;
        size_t n_codes; /* the protocol's codes (docs/protocol.schema.json, proto.h) */
        const char *const *codes = sv_error_codes(&n_codes);
        for (size_t i = 0; code && i < n_codes; i++)
            if (strcmp(code, codes[i]) == 0) known = 1;
        FUZZ_CHECK(known, "an error with an undocumented code: %s", code ? code : "(none)");
    }
    json_t *re = json_object_get(o, "re");
    if (json_is_integer(re))
        for (int i = 0; i < r->n_ids; i++)
            if (r->ids[i] == json_integer_value(re)) r->answered[i] = 1;
    json_decref(o);
}

/* The connection's thread: the whole input, then the checks of what was
 * answered. */
/* The target's one server, made once (start_server); the fuzzer's own, not
 * the server's: the server keeps no global. */
static sv_server *server;

static void *conn_main(void *arg)
{
    run *r = arg;
    /* the messages the frames carry, decoded apart, for the parser's
     * promises and the ids a reply must carry */
    sv_ws_dec d;
    if (sv_ws_init(&d, 16384) != 0) return NULL;
    size_t off = 0;
    sv_msg *m = malloc(sizeof *m);
    while (m && off < r->size) {
        size_t used = 0, len = 0;
        const char *data = NULL, *why = NULL;
        int op = 0, st = 0;
        sv_ws_event ev =
            sv_ws_feed(&d, r->data + off, r->size - off, &used, &data, &len, &op, &st, &why);
        off += used;
        if (ev == SV_WS_FAIL || ev == SV_WS_GOT_CLOSE) break;
        if (ev != SV_WS_MESSAGE || op != SV_WS_TEXT) continue;
        check_parse(data, len, m);
        if (m->has_id && r->n_ids < MAX_IDS) r->ids[r->n_ids++] = m->id;
    }
    free(m);
    sv_ws_free(&d);

    sv_conn *c = sv_local_conn(server, sink, r);
    if (!c) return NULL;
    r->status = sv_local_feed(c, r->data, r->size);
    sv_local_conn_free(c);
    if (r->status == 0) /* the server read every request: each was answered */
        for (int i = 0; i < r->n_ids; i++)
            FUZZ_CHECK(r->answered[i], "request id %lld got no reply carrying it",
                       (long long)r->ids[i]);
    return NULL;
}

static char dir[64];

static void stop_server(void)
{
    sv_local_close(server);
    char path[128];
    const char *files[] = {"/games.db", "/games.db-wal", "/games.db-shm", "/games.db.lock"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s%s", dir, files[i]);
        unlink(path);
    }
    rmdir(dir);
}

static void start_server(void)
{
    snprintf(dir, sizeof dir, "/tmp/croupier-fuzz-XXXXXX");
    FUZZ_CHECK(mkdtemp(dir) != NULL, "no temporary directory");
    static char db[128];
    snprintf(db, sizeof db, "sqlite:%s/games.db", dir);
    sv_config cfg;
    sv_config_defaults(&cfg);
    cfg.db = db;
    cfg.quiet = 1;
    cfg.bot_threads = 1;
    cfg.max_bots = 0;          /* no game plays itself between inputs */
    cfg.max_games = 64;        /* what a long run creates stays bounded */
    cfg.max_msg_rate = 100000; /* every message of an input is handled */
    cfg.webhooks = 0;
    server = sv_local_open(&cfg);
    FUZZ_CHECK(server != NULL, "the server does not start");
    atexit(stop_server);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, start_server);
    run *r = calloc(1, sizeof *r);
    if (!r) return 0;
    r->data = data;
    r->size = size;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setstacksize(&at, SV_CONN_STACK);
    pthread_t th;
    FUZZ_CHECK(pthread_create(&th, &at, conn_main, r) == 0, "no thread");
    pthread_attr_destroy(&at);
    pthread_join(th, NULL);
    free(r);
    return 0;
}
