/* server/proto.c — parsing a client frame (proto.h).  jansson reads the
 * JSON (duplicate keys refused); each message type then takes only its own
 * fields, each checked for type, length and range, into the fixed sv_msg.
 * Unknown keys are ignored (a newer client may send more), unknown types
 * are refused. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "server/proto.h"

static const struct {
    const char *name;
    sv_type type;
} sv_types[] = {
    {"hello", SV_HELLO},   {"create", SV_CREATE},   {"list", SV_LIST},
    {"join", SV_JOIN},     {"sit", SV_SIT},         {"spectate", SV_SPECTATE},
    {"act", SV_ACT},       {"history", SV_HISTORY}, {"resign", SV_RESIGN},
    {"bot", SV_BOT},       {"record", SV_RECORD},   {"stats", SV_STATS},
    {"replay", SV_REPLAY},
};

/* A printable ASCII / UTF-8 string without control characters. */
static int sv_clean_text(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f) return 0;
    return 1;
}

/* Copies string field `key` into dst[cap]; 0 absent (dst ""), 1 ok, -1 bad. */
static int sv_get_str(json_t *o, const char *key, char *dst, size_t cap, char *err, size_t errcap)
{
    dst[0] = '\0';
    json_t *v = json_object_get(o, key);
    if (!v) return 0;
    if (!json_is_string(v)) {
        snprintf(err, errcap, "'%s' must be a string", key);
        return -1;
    }
    size_t n = json_string_length(v);
    const char *s = json_string_value(v);
    if (n >= cap || strlen(s) != n || !sv_clean_text(s)) {
        snprintf(err, errcap, "'%s' is too long or holds control characters", key);
        return -1;
    }
    memcpy(dst, s, n + 1);
    return 1;
}

/* Integer field in [lo, hi]: 0 absent, 1 ok, -1 bad. */
static int sv_get_int(json_t *o, const char *key, int64_t lo, int64_t hi, int64_t *out, char *err,
                      size_t errcap)
{
    json_t *v = json_object_get(o, key);
    if (!v) return 0;
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
        snprintf(err, errcap, "'%s' must be an integer from %lld to %lld", key, (long long)lo,
                 (long long)hi);
        return -1;
    }
    *out = json_integer_value(v);
    return 1;
}

static int sv_need_game_id(json_t *o, sv_msg *m, char *err, size_t errcap)
{
    int r = sv_get_str(o, "game_id", m->game_id, sizeof m->game_id, err, errcap);
    if (r < 0) return -1;
    if (r == 0 || !sv_is_game_id(m->game_id)) {
        snprintf(err, errcap, "'game_id' must be 32 hex digits");
        return -1;
    }
    return 0;
}

int sv_is_game_id(const char *s)
{
    size_t n = 0;
    for (; s[n]; n++)
        if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f'))) return 0;
    return n == 32;
}

int sv_parse_http_url(const char *url, char *host, size_t hostcap, int *port, char *path,
                      size_t pathcap)
{
    if (strncmp(url, "http://", 7) != 0) return 0;
    const char *p = url + 7;
    size_t h = 0;
    while (p[h] && p[h] != ':' && p[h] != '/') {
        char c = p[h];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '-'))
            return 0;
        h++;
    }
    if (h == 0 || h >= hostcap) return 0;
    memcpy(host, p, h);
    host[h] = '\0';
    p += h;
    *port = 80;
    if (*p == ':') {
        p++;
        int v = 0, digits = 0;
        while (*p >= '0' && *p <= '9' && digits < 6) v = v * 10 + (*p++ - '0'), digits++;
        if (digits == 0 || v < 1 || v > 65535) return 0;
        *port = v;
    }
    if (*p == '\0') p = "/";
    if (*p != '/' || strlen(p) >= pathcap) return 0;
    for (const char *q = p; *q; q++)
        if ((unsigned char)*q <= 0x20 || (unsigned char)*q >= 0x7f) return 0;
    snprintf(path, pathcap, "%s", p);
    return 1;
}

static int sv_parse_create(json_t *o, sv_msg *m, char *err, size_t errcap)
{
    int64_t v;
    if (sv_get_str(o, "game", m->game, sizeof m->game, err, errcap) <= 0) {
        if (!err[0]) snprintf(err, errcap, "create needs 'game'");
        return -1;
    }
    if (sv_get_str(o, "variant", m->variant, sizeof m->variant, err, errcap) < 0) return -1;
    v = 0;
    if (sv_get_int(o, "players", 1, CR_MAX_PLAYERS, &v, err, errcap) < 0) return -1;
    m->players = (int)v;
    json_t *opts = json_object_get(o, "options");
    if (opts) {
        if (!json_is_object(opts) || json_object_size(opts) > CR_MAX_OPTIONS) {
            snprintf(err, errcap, "'options' must be an object of at most %d strings",
                     CR_MAX_OPTIONS);
            return -1;
        }
        const char *k;
        json_t *val;
        json_object_foreach(opts, k, val)
        {
            if (!json_is_string(val) || strlen(k) >= SV_OPT_MAX || !sv_clean_text(k) ||
                json_string_length(val) >= SV_OPT_MAX ||
                strlen(json_string_value(val)) != json_string_length(val) ||
                !sv_clean_text(json_string_value(val))) {
                snprintf(err, errcap, "option values must be short strings");
                return -1;
            }
            snprintf(m->opt_key[m->n_options], SV_OPT_MAX, "%s", k);
            snprintf(m->opt_val[m->n_options], SV_OPT_MAX, "%s", json_string_value(val));
            m->n_options++;
        }
    }
    json_t *seats = json_object_get(o, "seats");
    if (!json_is_array(seats) || json_array_size(seats) < 1 ||
        json_array_size(seats) > CR_MAX_PLAYERS) {
        snprintf(err, errcap, "'seats' must be an array of 1 to %d specs", CR_MAX_PLAYERS);
        return -1;
    }
    for (size_t i = 0; i < json_array_size(seats); i++) {
        json_t *s = json_array_get(seats, i);
        if (!json_is_string(s) || json_string_length(s) == 0 ||
            json_string_length(s) >= SV_SPEC_MAX ||
            strlen(json_string_value(s)) != json_string_length(s) ||
            !sv_clean_text(json_string_value(s))) {
            snprintf(err, errcap, "seat %zu: a spec must be a short string", i);
            return -1;
        }
        snprintf(m->seats[i], SV_SPEC_MAX, "%s", json_string_value(s));
        m->n_seats++;
    }
    if (m->players && m->players != m->n_seats) {
        snprintf(err, errcap, "'players' is %d but 'seats' has %d entries", m->players, m->n_seats);
        return -1;
    }
    v = -1;
    if (sv_get_int(o, "sit", 0, m->n_seats - 1, &v, err, errcap) < 0) return -1;
    m->sit = (int)v;
    json_t *clock = json_object_get(o, "clock");
    if (clock && !json_is_null(clock)) {
        char mode[16];
        if (!json_is_object(clock) ||
            sv_get_str(clock, "mode", mode, sizeof mode, err, errcap) <= 0 ||
            (strcmp(mode, "move") != 0 && strcmp(mode, "total") != 0)) {
            snprintf(err, errcap, "'clock' needs 'mode': \"move\" or \"total\"");
            return -1;
        }
        m->clock_mode = strcmp(mode, "move") == 0 ? SV_CLOCK_MOVE : SV_CLOCK_TOTAL;
        const int64_t year = 366ll * 24 * 3600 * 1000;
        if (sv_get_int(clock, "initial_ms", 1000, year, &m->clock_initial_ms, err, errcap) <= 0) {
            if (!err[0]) snprintf(err, errcap, "'clock' needs 'initial_ms'");
            return -1;
        }
        if (sv_get_int(clock, "increment_ms", 0, year, &m->clock_increment_ms, err, errcap) < 0)
            return -1;
        if (sv_get_str(clock, "on_timeout", m->clock_on_timeout, sizeof m->clock_on_timeout, err,
                       errcap) < 0)
            return -1;
        if (!m->clock_on_timeout[0]) snprintf(m->clock_on_timeout, SV_SPEC_MAX, "end");
    }
    int r = sv_get_str(o, "webhook", m->webhook, sizeof m->webhook, err, errcap);
    if (r < 0) return -1;
    if (r > 0) {
        char host[256], path[SV_URL_MAX + 1];
        int port;
        if (!sv_parse_http_url(m->webhook, host, sizeof host, &port, path, sizeof path)) {
            snprintf(err, errcap, "'webhook' must be an http:// URL (host, optional port, path)");
            return -1;
        }
    }
    return 0;
}

/* What the lexical scan of a frame found before jansson reads it. */
typedef struct sv_scan {
    int too_deep;          /* arrays/objects nested deeper than SV_MAX_DEPTH */
    int has_id;            /* the top-level "id" was a plain integer in 0..2^53 */
    int64_t id;            /* it */
    char big[SV_SCAN_KEY]; /* the key holding the first integer beyond int64 ("" none) */
    int has_big;
} sv_scan;

/* One pass over the bytes, no allocation, no recursion: the depth of
 * nesting (jansson itself recurses once per level, up to 2,048 levels: far
 * beyond a connection thread's stack budget), the top-level "id" when it is
 * readable (so even a frame that is not JSON gets its `re`), and the first
 * integer too large for 64 bits with the key it belongs to (jansson only
 * says "too big integer", which names no field).  Strings are skipped with
 * their escapes; everything else about the syntax is left to jansson. */
static void sv_scan_frame(const char *data, size_t len, sv_scan *sc)
{
    memset(sc, 0, sizeof *sc);
    /* key[d]: the key most recently read in the object at depth d+1, "" in
     * an array; the key of a value is that of its innermost object. */
    char key[SV_MAX_DEPTH + 1][SV_SCAN_KEY];
    int is_obj[SV_MAX_DEPTH + 1];
    int depth = 0, expect_key = 0;
    size_t i = 0;
    while (i < len) {
        unsigned char ch = (unsigned char)data[i];
        if (ch == '"') {
            size_t start = ++i;
            while (i < len && data[i] != '"') i += data[i] == '\\' ? 2 : 1;
            if (i >= len) return;
            size_t n = i - start;
            i++;
            if (expect_key && depth >= 1) {
                /* the key, if it is a plain name (letters, digits, '_',
                 * '-'): it is quoted in an error, and any other key reads
                 * as '?' there (no byte of it is echoed) */
                size_t k = n < SV_SCAN_KEY - 1 ? n : SV_SCAN_KEY - 1;
                int plain = n > 0;
                for (size_t j = 0; j < k && plain; j++) {
                    char kc = data[start + j];
                    plain = (kc >= 'a' && kc <= 'z') || (kc >= 'A' && kc <= 'Z') ||
                            (kc >= '0' && kc <= '9') || kc == '_' || kc == '-';
                }
                if (plain) {
                    memcpy(key[depth - 1], data + start, k);
                    key[depth - 1][k] = '\0';
                } else {
                    snprintf(key[depth - 1], SV_SCAN_KEY, "?");
                }
                expect_key = 0;
            }
            continue;
        }
        if (ch == '{' || ch == '[') {
            if (depth == SV_MAX_DEPTH) {
                sc->too_deep = 1;
                return;
            }
            is_obj[depth] = ch == '{';
            key[depth][0] = '\0';
            depth++;
            expect_key = ch == '{';
            i++;
            continue;
        }
        if (ch == '}' || ch == ']') {
            if (depth > 0) depth--;
            expect_key = 0;
            i++;
            continue;
        }
        if (ch == ',') {
            expect_key = depth >= 1 && is_obj[depth - 1];
            i++;
            continue;
        }
        if (ch == '-' || (ch >= '0' && ch <= '9')) {
            size_t start = i;
            int neg = ch == '-';
            if (neg) i++;
            uint64_t v = 0;
            int over = 0, digits = 0;
            while (i < len && data[i] >= '0' && data[i] <= '9') {
                unsigned d = (unsigned)(data[i] - '0');
                if (v > (UINT64_MAX - d) / 10)
                    over = 1;
                else
                    v = v * 10 + d;
                digits++;
                i++;
            }
            int frac = i < len && (data[i] == '.' || data[i] == 'e' || data[i] == 'E');
            if (digits == 0 || frac) {
                if (i == start) i++;
                continue;
            }
            if (over || v > (uint64_t)INT64_MAX + (uint64_t)neg) {
                if (!sc->has_big) {
                    sc->has_big = 1;
                    /* the path of keys from the top: "clock.initial_ms" */
                    size_t at = 0;
                    for (int d = 0; d < depth; d++) {
                        if (!is_obj[d] || !key[d][0]) continue;
                        int w = snprintf(sc->big + at, sizeof sc->big - at, "%s%s", at ? "." : "",
                                         key[d]);
                        if (w < 0 || (size_t)w >= sizeof sc->big - at) break;
                        at += (size_t)w;
                    }
                }
            } else if (depth == 1 && is_obj[0] && !neg && strcmp(key[0], "id") == 0 &&
                       !sc->has_id && v <= (uint64_t)1 << 53) {
                sc->has_id = 1;
                sc->id = (int64_t)v;
            }
            continue;
        }
        i++;
    }
}

int sv_proto_parse(const char *data, size_t len, sv_msg *m, const char **code, char *err,
                   size_t errcap)
{
    memset(m, 0, sizeof *m);
    m->seat = -1;
    m->since = -1;
    m->decision = -1;
    m->sit = -1;
    err[0] = '\0';
    *code = "bad_json";
    sv_scan sc;
    sv_scan_frame(data, len, &sc);
    /* An id the scan could read answers even a frame that is refused
     * before or by the parser. */
    m->has_id = sc.has_id;
    m->id = sc.id;
    if (sc.too_deep) {
        snprintf(err, errcap, "not JSON this server reads: nested deeper than %d levels",
                 SV_MAX_DEPTH);
        return -1;
    }
    if (sc.has_big) {
        *code = "bad_request";
        if (strcmp(sc.big, "id") == 0) {
            m->has_id = 0;
            snprintf(err, errcap, "'id' must be an integer from 0 to 2^53");
        } else if (sc.big[0]) {
            snprintf(err, errcap, "'%s' holds an integer out of range", sc.big);
        } else {
            snprintf(err, errcap, "the message holds an integer out of range");
        }
        return -1;
    }
    json_error_t je;
    json_t *o = json_loadb(data, len, JSON_REJECT_DUPLICATES, &je);
    if (!o) {
        snprintf(err, errcap, "not JSON: %s (line %d, column %d)", je.text, je.line, je.column);
        return -1;
    }
    m->has_id = 0;
    int rc = -1;
    if (!json_is_object(o)) {
        snprintf(err, errcap, "a message must be a JSON object");
        goto out;
    }
    *code = "bad_request";
    int64_t v;
    if (sv_get_int(o, "id", 0, (int64_t)1 << 53, &m->id, err, errcap) > 0) m->has_id = 1;
    err[0] = '\0';
    *code = "version";
    v = 0;
    if (sv_get_int(o, "v", SV_PROTO_VERSION, SV_PROTO_VERSION, &v, err, errcap) <= 0) {
        snprintf(err, errcap, "this server speaks protocol version %d ('v': %d)", SV_PROTO_VERSION,
                 SV_PROTO_VERSION);
        goto out;
    }
    *code = "bad_request";
    if (json_object_get(o, "id") && !m->has_id) {
        snprintf(err, errcap, "'id' must be an integer from 0 to 2^53");
        goto out;
    }
    char type[16];
    if (sv_get_str(o, "type", type, sizeof type, err, errcap) <= 0) {
        snprintf(err, errcap, "'type' must be a message type");
        goto out;
    }
    m->type = 0;
    for (size_t i = 0; i < sizeof sv_types / sizeof sv_types[0]; i++)
        if (strcmp(type, sv_types[i].name) == 0) m->type = sv_types[i].type;
    if (m->type == 0) {
        snprintf(err, errcap, "unknown message type '%s'", type);
        goto out;
    }
    switch (m->type) {
    case SV_HELLO:
    case SV_STATS:
    case SV_RESIGN: break;
    case SV_CREATE:
        if (sv_parse_create(o, m, err, errcap)) goto out;
        break;
    case SV_LIST: {
        char st[16];
        if (sv_get_str(o, "status", st, sizeof st, err, errcap) < 0) goto out;
        const char *names[] = {"all", "open", "running", "finished"};
        m->status = -1;
        for (int i = 0; i < 4; i++)
            if (strcmp(st, names[i]) == 0) m->status = i;
        if (!st[0]) m->status = 0;
        if (m->status < 0) {
            snprintf(err, errcap, "'status' must be all, open, running or finished");
            goto out;
        }
        break;
    }
    case SV_JOIN:
        if (sv_need_game_id(o, m, err, errcap)) goto out;
        v = -1;
        if (sv_get_int(o, "seat", 0, CR_MAX_PLAYERS - 1, &v, err, errcap) < 0) goto out;
        m->seat = (int)v;
        break;
    case SV_SIT:
    case SV_SPECTATE:
        if (sv_need_game_id(o, m, err, errcap)) goto out;
        if (m->type == SV_SIT &&
            sv_get_str(o, "token", m->token, sizeof m->token, err, errcap) < 0) {
            snprintf(err, errcap, "'token' must be a seat token");
            goto out;
        }
        if (sv_get_int(o, "since", 0, INT32_MAX, &m->since, err, errcap) < 0) goto out;
        break;
    case SV_ACT:
        if (sv_get_int(o, "decision", 0, INT32_MAX, &m->decision, err, errcap) <= 0) {
            if (!err[0]) snprintf(err, errcap, "act needs 'decision'");
            goto out;
        }
        v = 0;
        int ra = sv_get_int(o, "action", 0, INT32_MAX, &v, err, errcap);
        if (ra < 0) goto out;
        m->has_action = ra > 0;
        m->action = (int32_t)v;
        int rt = sv_get_str(o, "text", m->text, sizeof m->text, err, errcap);
        if (rt < 0) goto out;
        if ((ra > 0) == (rt > 0)) {
            snprintf(err, errcap, "act needs exactly one of 'action' (an id) and 'text'");
            goto out;
        }
        break;
    case SV_HISTORY:
        m->since = 0;
        if (sv_get_int(o, "since", 0, INT32_MAX, &m->since, err, errcap) < 0) goto out;
        break;
    case SV_BOT:
        if (sv_get_str(o, "spec", m->spec, sizeof m->spec, err, errcap) <= 0) {
            if (!err[0]) snprintf(err, errcap, "bot needs 'spec'");
            goto out;
        }
        break;
    case SV_RECORD:
        if (sv_need_game_id(o, m, err, errcap)) goto out;
        break;
    case SV_REPLAY:
        if (sv_need_game_id(o, m, err, errcap)) goto out;
        if (sv_get_int(o, "step", 0, INT32_MAX, &m->step, err, errcap) <= 0) {
            if (!err[0]) snprintf(err, errcap, "replay needs 'step'");
            goto out;
        }
        v = -1; /* absent or null: the public view */
        if (!json_is_null(json_object_get(o, "seat")) &&
            sv_get_int(o, "seat", 0, CR_MAX_PLAYERS - 1, &v, err, errcap) < 0)
            goto out;
        m->seat = (int)v;
        break;
    }
    rc = 0;
out:
    json_decref(o);
    return rc;
}
