/* server/proto.c — parsing a client frame (proto.h).  jansson reads the
 * JSON (duplicate keys refused); each message type then takes only its own
 * fields, each checked for type, length and range, into the fixed sv_msg.
 * Unknown keys are ignored (a newer client may send more), unknown types
 * are refused.  The types and the fields with their bounds are the tables
 * sv_types and sv_fields, which docs/protocol.schema.json describes
 * (tests/server/test_proto_schema.c holds them to it). */
#include <jansson.h>
#include <stdlib.h>
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
    {"replay", SV_REPLAY}, {"analyse", SV_ANALYSE}, {"hint", SV_HINT},
};

#define SV_YEAR_MS (366ll * 24 * 3600 * 1000)

/* Every field a client message may carry (proto.h, sv_field). */
static const sv_field sv_fields[] = {
    {"", "v", SV_K_INT, SV_F_REQUIRED, SV_PROTO_VERSION, SV_PROTO_VERSION, NULL},
    {"", "type", SV_K_STR, SV_F_REQUIRED, 0, 15, NULL},
    {"", "id", SV_K_INT, 0, 0, (int64_t)1 << 53, NULL},
    {"create", "game", SV_K_STR, SV_F_REQUIRED, 0, 31, NULL},
    {"create", "variant", SV_K_STR, 0, 0, 31, NULL},
    {"create", "players", SV_K_INT, 0, 1, CR_MAX_PLAYERS, NULL},
    {"create", "options", SV_K_OBJ, 0, 0, CR_MAX_OPTIONS, NULL},
    {"create.options", "*", SV_K_STR, 0, 0, SV_OPT_MAX - 1, NULL},
    {"create", "seats", SV_K_ARR, SV_F_REQUIRED, 1, CR_MAX_PLAYERS, NULL},
    {"create.seats", "[]", SV_K_STR, 0, 1, SV_SPEC_MAX - 1, NULL},
    {"create", "sit", SV_K_INT, 0, 0, CR_MAX_PLAYERS - 1, NULL}, /* and below the seats */
    {"create", "clock", SV_K_OBJ, SV_F_NULL, 0, 0, NULL},        /* max 0: no bound */
    {"create.clock", "mode", SV_K_ENUM, SV_F_REQUIRED, 0, 0, "move|total"},
    {"create.clock", "initial_ms", SV_K_INT, SV_F_REQUIRED, 1000, SV_YEAR_MS, NULL},
    {"create.clock", "increment_ms", SV_K_INT, 0, 0, SV_YEAR_MS, NULL},
    {"create.clock", "on_timeout", SV_K_STR, 0, 0, SV_SPEC_MAX - 1, NULL},
    {"create", "webhook", SV_K_URL, 0, 0, SV_URL_MAX, NULL},
    {"list", "status", SV_K_ENUM, 0, 0, 0, "all|open|running|finished"},
    {"join", "game_id", SV_K_GAME_ID, SV_F_REQUIRED, 32, 32, NULL},
    {"join", "seat", SV_K_INT, 0, 0, CR_MAX_PLAYERS - 1, NULL},
    {"sit", "game_id", SV_K_GAME_ID, SV_F_REQUIRED, 32, 32, NULL},
    {"sit", "token", SV_K_STR, 0, 0, SV_TOKEN_LEN, NULL},
    {"sit", "since", SV_K_INT, 0, 0, INT32_MAX, NULL},
    {"spectate", "game_id", SV_K_GAME_ID, SV_F_REQUIRED, 32, 32, NULL},
    {"spectate", "since", SV_K_INT, 0, 0, INT32_MAX, NULL},
    {"act", "decision", SV_K_INT, SV_F_REQUIRED, 0, INT32_MAX, NULL},
    {"act", "action", SV_K_INT, 0, 0, INT32_MAX, NULL}, /* exactly one of action and text */
    {"act", "text", SV_K_STR, 0, 0, SV_TEXT_MAX - 1, NULL},
    {"history", "since", SV_K_INT, 0, 0, INT32_MAX, NULL},
    {"bot", "spec", SV_K_STR, SV_F_REQUIRED, 0, SV_SPEC_MAX - 1, NULL},
    {"record", "game_id", SV_K_GAME_ID, SV_F_REQUIRED, 32, 32, NULL},
    {"replay", "game_id", SV_K_GAME_ID, SV_F_REQUIRED, 32, 32, NULL},
    {"replay", "step", SV_K_INT, SV_F_REQUIRED, 0, INT32_MAX, NULL},
    {"replay", "seat", SV_K_INT, SV_F_NULL, 0, CR_MAX_PLAYERS - 1, NULL},
    {"create", "hints", SV_K_ENUM, 0, 0, 0, "off|allowed"},
    {"analyse", "game_id", SV_K_GAME_ID, SV_F_REQUIRED, 32, 32, NULL},
    {"analyse", "seat", SV_K_INT, SV_F_REQUIRED, 0, CR_MAX_PLAYERS - 1, NULL},
    {"analyse", "iters", SV_K_INT, 0, 10, SV_ANALYSE_ITERS_MAX, NULL},
    {"hint", "tier", SV_K_STR, 0, 0, SV_TIER_MAX - 1, NULL},
};

static const char *const sv_codes[] = {
    "bad_json",   "version",    "bad_request",   "no_game",   "elsewhere", "bad_token",
    "not_seated", "seat_taken", "not_your_turn", "stale",     "illegal",   "not_finished",
    "limit",      "store",      "outdated",      "too_large", "flood",
};

const sv_field *sv_proto_fields(size_t *n)
{
    *n = sizeof sv_fields / sizeof sv_fields[0];
    return sv_fields;
}

const char *const *sv_error_codes(size_t *n)
{
    *n = sizeof sv_codes / sizeof sv_codes[0];
    return sv_codes;
}

const char *sv_type_name(sv_type t)
{
    for (size_t i = 0; i < sizeof sv_types / sizeof sv_types[0]; i++)
        if (sv_types[i].type == t) return sv_types[i].name;
    return NULL;
}

/* The row of `key` in message `msg`: a parser that reads a field without
 * one is a programming error, stopped here before it reaches a client. */
static const sv_field *sv_f(const char *msg, const char *key)
{
    for (size_t i = 0; i < sizeof sv_fields / sizeof sv_fields[0]; i++)
        if (strcmp(sv_fields[i].msg, msg) == 0 && strcmp(sv_fields[i].key, key) == 0)
            return &sv_fields[i];
    fprintf(stderr, "proto.c: the field %s.%s has no row in sv_fields\n", msg, key);
    abort();
}

/* The index of s among f's '|'-separated values, or -1. */
static int sv_enum_index(const sv_field *f, const char *s)
{
    const char *p = f->values;
    size_t n = strlen(s);
    for (int i = 0; p && *p; i++) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && strncmp(p, s, n) == 0) return i;
        if (!bar) break;
        p = bar + 1;
    }
    return -1;
}

/* A printable ASCII / UTF-8 string without control characters. */
static int sv_clean_text(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f) return 0;
    return 1;
}

/* Copies string field f of o into dst[cap], at most f->max bytes; 0 absent
 * (dst ""), 1 ok, -1 bad. */
static int sv_get_str(json_t *o, const sv_field *f, char *dst, size_t cap, char *err, size_t errcap)
{
    const char *key = f->key;
    /* an enum's value is checked against its values afterwards */
    size_t most = f->kind != SV_K_ENUM && (size_t)f->max < cap ? (size_t)f->max : cap - 1;
    dst[0] = '\0';
    json_t *v = json_object_get(o, key);
    if (!v) return 0;
    if (!json_is_string(v)) {
        snprintf(err, errcap, "'%s' must be a string", key);
        return -1;
    }
    size_t n = json_string_length(v);
    const char *s = json_string_value(v);
    if (n > most || strlen(s) != n || !sv_clean_text(s)) {
        snprintf(err, errcap, "'%s' is too long or holds control characters", key);
        return -1;
    }
    memcpy(dst, s, n + 1);
    return 1;
}

/* Integer field f of o in [f->min, hi] (hi: f->max or a bound the message
 * itself sets below it): 0 absent, 1 ok, -1 bad. */
static int sv_get_int(json_t *o, const sv_field *f, int64_t hi, int64_t *out, char *err,
                      size_t errcap)
{
    const char *key = f->key;
    int64_t lo = f->min;
    if (hi > f->max) hi = f->max;
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

static int sv_need_game_id(json_t *o, const char *msg, sv_msg *m, char *err, size_t errcap)
{
    int r = sv_get_str(o, sv_f(msg, "game_id"), m->game_id, sizeof m->game_id, err, errcap);
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
    if (sv_get_str(o, sv_f("create", "game"), m->game, sizeof m->game, err, errcap) <= 0) {
        if (!err[0]) snprintf(err, errcap, "create needs 'game'");
        return -1;
    }
    if (sv_get_str(o, sv_f("create", "variant"), m->variant, sizeof m->variant, err, errcap) < 0)
        return -1;
    v = 0;
    if (sv_get_int(o, sv_f("create", "players"), INT64_MAX, &v, err, errcap) < 0) return -1;
    m->players = (int)v;
    const sv_field *fo = sv_f("create", "options"), *fov = sv_f("create.options", "*");
    json_t *opts = json_object_get(o, "options");
    if (opts) {
        if (!json_is_object(opts) || json_object_size(opts) > (size_t)fo->max) {
            snprintf(err, errcap, "'options' must be an object of at most %d strings",
                     (int)fo->max);
            return -1;
        }
        const char *k;
        json_t *val;
        json_object_foreach(opts, k, val)
        {
            if (!json_is_string(val) || strlen(k) > (size_t)fov->max || !sv_clean_text(k) ||
                json_string_length(val) > (size_t)fov->max ||
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
    const sv_field *fs = sv_f("create", "seats"), *fsi = sv_f("create.seats", "[]");
    json_t *seats = json_object_get(o, "seats");
    if (!json_is_array(seats) || json_array_size(seats) < (size_t)fs->min ||
        json_array_size(seats) > (size_t)fs->max) {
        snprintf(err, errcap, "'seats' must be an array of %d to %d specs", (int)fs->min,
                 (int)fs->max);
        return -1;
    }
    for (size_t i = 0; i < json_array_size(seats); i++) {
        json_t *s = json_array_get(seats, i);
        if (!json_is_string(s) || json_string_length(s) < (size_t)fsi->min ||
            json_string_length(s) > (size_t)fsi->max ||
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
    if (sv_get_int(o, sv_f("create", "sit"), m->n_seats - 1, &v, err, errcap) < 0) return -1;
    m->sit = (int)v;
    (void)sv_f("create", "clock"); /* its keys: the rows of "create.clock" */
    json_t *clock = json_object_get(o, "clock");
    if (clock && !json_is_null(clock)) {
        char mode[16];
        const sv_field *fm = sv_f("create.clock", "mode");
        int mi = -1;
        if (json_is_object(clock) && sv_get_str(clock, fm, mode, sizeof mode, err, errcap) > 0)
            mi = sv_enum_index(fm, mode);
        if (mi < 0) {
            snprintf(err, errcap, "'clock' needs 'mode': \"move\" or \"total\"");
            return -1;
        }
        m->clock_mode = mi == 0 ? SV_CLOCK_MOVE : SV_CLOCK_TOTAL;
        if (sv_get_int(clock, sv_f("create.clock", "initial_ms"), INT64_MAX, &m->clock_initial_ms,
                       err, errcap) <= 0) {
            if (!err[0]) snprintf(err, errcap, "'clock' needs 'initial_ms'");
            return -1;
        }
        if (sv_get_int(clock, sv_f("create.clock", "increment_ms"), INT64_MAX,
                       &m->clock_increment_ms, err, errcap) < 0)
            return -1;
        if (sv_get_str(clock, sv_f("create.clock", "on_timeout"), m->clock_on_timeout,
                       sizeof m->clock_on_timeout, err, errcap) < 0)
            return -1;
        if (!m->clock_on_timeout[0]) snprintf(m->clock_on_timeout, SV_SPEC_MAX, "end");
    }
    char hints[16];
    const sv_field *fh = sv_f("create", "hints");
    if (sv_get_str(o, fh, hints, sizeof hints, err, errcap) < 0) return -1;
    m->hints = hints[0] ? sv_enum_index(fh, hints) : 0; /* off, allowed */
    if (m->hints < 0) {
        snprintf(err, errcap, "'hints' must be off or allowed");
        return -1;
    }
    int r = sv_get_str(o, sv_f("create", "webhook"), m->webhook, sizeof m->webhook, err, errcap);
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
    if (sv_get_int(o, sv_f("", "id"), INT64_MAX, &m->id, err, errcap) > 0) m->has_id = 1;
    err[0] = '\0';
    *code = "version";
    v = 0;
    if (sv_get_int(o, sv_f("", "v"), INT64_MAX, &v, err, errcap) <= 0) {
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
    if (sv_get_str(o, sv_f("", "type"), type, sizeof type, err, errcap) <= 0) {
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
        const sv_field *f = sv_f("list", "status");
        if (sv_get_str(o, f, st, sizeof st, err, errcap) < 0) goto out;
        m->status = st[0] ? sv_enum_index(f, st) : 0; /* all, open, running, finished */
        if (m->status < 0) {
            snprintf(err, errcap, "'status' must be all, open, running or finished");
            goto out;
        }
        break;
    }
    case SV_JOIN:
        if (sv_need_game_id(o, "join", m, err, errcap)) goto out;
        v = -1;
        if (sv_get_int(o, sv_f("join", "seat"), INT64_MAX, &v, err, errcap) < 0) goto out;
        m->seat = (int)v;
        break;
    case SV_SIT:
    case SV_SPECTATE: {
        const char *name = sv_type_name(m->type);
        if (sv_need_game_id(o, name, m, err, errcap)) goto out;
        if (m->type == SV_SIT &&
            sv_get_str(o, sv_f("sit", "token"), m->token, sizeof m->token, err, errcap) < 0) {
            snprintf(err, errcap, "'token' must be a seat token");
            goto out;
        }
        if (sv_get_int(o, sv_f(name, "since"), INT64_MAX, &m->since, err, errcap) < 0) goto out;
        break;
    }
    case SV_ACT:
        if (sv_get_int(o, sv_f("act", "decision"), INT64_MAX, &m->decision, err, errcap) <= 0) {
            if (!err[0]) snprintf(err, errcap, "act needs 'decision'");
            goto out;
        }
        v = 0;
        int ra = sv_get_int(o, sv_f("act", "action"), INT64_MAX, &v, err, errcap);
        if (ra < 0) goto out;
        m->has_action = ra > 0;
        m->action = (int32_t)v;
        int rt = sv_get_str(o, sv_f("act", "text"), m->text, sizeof m->text, err, errcap);
        if (rt < 0) goto out;
        if ((ra > 0) == (rt > 0)) {
            snprintf(err, errcap, "act needs exactly one of 'action' (an id) and 'text'");
            goto out;
        }
        break;
    case SV_HISTORY:
        m->since = 0;
        if (sv_get_int(o, sv_f("history", "since"), INT64_MAX, &m->since, err, errcap) < 0)
            goto out;
        break;
    case SV_BOT:
        if (sv_get_str(o, sv_f("bot", "spec"), m->spec, sizeof m->spec, err, errcap) <= 0) {
            if (!err[0]) snprintf(err, errcap, "bot needs 'spec'");
            goto out;
        }
        break;
    case SV_RECORD:
        if (sv_need_game_id(o, "record", m, err, errcap)) goto out;
        break;
    case SV_REPLAY:
        if (sv_need_game_id(o, "replay", m, err, errcap)) goto out;
        if (sv_get_int(o, sv_f("replay", "step"), INT64_MAX, &m->step, err, errcap) <= 0) {
            if (!err[0]) snprintf(err, errcap, "replay needs 'step'");
            goto out;
        }
        v = -1; /* absent or null: the public view */
        if (!json_is_null(json_object_get(o, "seat")) &&
            sv_get_int(o, sv_f("replay", "seat"), INT64_MAX, &v, err, errcap) < 0)
            goto out;
        m->seat = (int)v;
        break;
    case SV_ANALYSE:
        if (sv_need_game_id(o, "analyse", m, err, errcap)) goto out;
        v = -1;
        if (sv_get_int(o, sv_f("analyse", "seat"), INT64_MAX, &v, err, errcap) <= 0) {
            if (!err[0]) snprintf(err, errcap, "analyse needs 'seat'");
            goto out;
        }
        m->seat = (int)v;
        m->iters = SV_ANALYSE_ITERS;
        if (sv_get_int(o, sv_f("analyse", "iters"), INT64_MAX, &m->iters, err, errcap) < 0)
            goto out;
        break;
    case SV_HINT:
        if (sv_get_str(o, sv_f("hint", "tier"), m->tier, sizeof m->tier, err, errcap) < 0) goto out;
        break;
    }
    rc = 0;
out:
    json_decref(o);
    return rc;
}
