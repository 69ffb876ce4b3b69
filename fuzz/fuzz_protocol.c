/* fuzz_protocol.c — libFuzzer target: the server's message parser
 * (src/server/proto.c), fed any bytes as one WebSocket text frame.
 *
 * Promises checked: nothing crashes or leaks; a refused frame names one of
 * the documented error codes (docs/protocol.md) and a non-empty reason; an
 * accepted frame yields a known type and fields within their bounds
 * (NUL-terminated strings shorter than their buffers, ids and numbers in
 * range, a replay's step and seat, a game id of 32 hex digits where one is required, a webhook only
 * as an http:// URL the server accepts). */
#include <string.h>

#include "fuzz_common.h"
#include "server/proto.h"

static int bounded(const char *s, size_t cap) { return memchr(s, '\0', cap) != NULL; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sv_msg m;
    const char *code = NULL;
    char err[256];
    int rc = sv_proto_parse((const char *)data, size, &m, &code, err, sizeof err);
    if (rc != 0) {
        FUZZ_CHECK(code && (strcmp(code, "bad_json") == 0 || strcmp(code, "bad_request") == 0 ||
                            strcmp(code, "version") == 0),
                   "unknown error code");
        FUZZ_CHECK(bounded(err, sizeof err) && err[0] != '\0', "an error without a reason");
        FUZZ_CHECK(!m.has_id || (m.id >= 0 && m.id <= ((int64_t)1 << 53)), "id out of range");
        return 0;
    }
    FUZZ_CHECK(m.type >= SV_HELLO && m.type <= SV_REPLAY, "unknown type accepted");
    FUZZ_CHECK(!m.has_id || (m.id >= 0 && m.id <= ((int64_t)1 << 53)), "id out of range");
    FUZZ_CHECK(bounded(m.game_id, sizeof m.game_id) && bounded(m.token, sizeof m.token) &&
                   bounded(m.text, sizeof m.text) && bounded(m.spec, sizeof m.spec) &&
                   bounded(m.game, sizeof m.game) && bounded(m.variant, sizeof m.variant) &&
                   bounded(m.webhook, sizeof m.webhook) &&
                   bounded(m.clock_on_timeout, sizeof m.clock_on_timeout),
               "unterminated field");
    if (m.type == SV_JOIN || m.type == SV_SIT || m.type == SV_SPECTATE || m.type == SV_RECORD ||
        m.type == SV_REPLAY)
        FUZZ_CHECK(sv_is_game_id(m.game_id), "a game id that is not 32 hex digits");
    if (m.type == SV_REPLAY)
        FUZZ_CHECK(m.step >= 0 && m.step <= INT32_MAX && m.seat >= -1 && m.seat < CR_MAX_PLAYERS,
                   "replay step or seat out of range");
    if (m.type == SV_ACT) {
        FUZZ_CHECK(m.decision >= 0, "act without a decision");
        FUZZ_CHECK(m.has_action != (m.text[0] != '\0'), "act with both or neither");
    }
    if (m.type == SV_CREATE) {
        FUZZ_CHECK(m.n_seats >= 1 && m.n_seats <= CR_MAX_PLAYERS, "seat count");
        FUZZ_CHECK(m.n_options >= 0 && m.n_options <= CR_MAX_OPTIONS, "option count");
        FUZZ_CHECK(m.sit >= -1 && m.sit < m.n_seats, "sit out of range");
        for (int i = 0; i < m.n_seats; i++)
            FUZZ_CHECK(bounded(m.seats[i], sizeof m.seats[i]) && m.seats[i][0], "seat spec");
        if (m.webhook[0]) {
            char host[256], path[SV_URL_MAX + 1];
            int port;
            FUZZ_CHECK(sv_parse_http_url(m.webhook, host, sizeof host, &port, path, sizeof path) &&
                           port >= 1 && port <= 65535,
                       "a webhook the server would not accept");
        }
    }
    if (m.type == SV_LIST) FUZZ_CHECK(m.status >= 0 && m.status <= 3, "list status");
    return 0;
}
