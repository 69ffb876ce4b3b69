/* tests/server/test_proto_schema.c — the server's parser follows the one
 * description of the protocol, docs/protocol.schema.json (issue 17, point 6):
 *
 *   table_is_schema      the parser's table (proto.h, sv_fields: every field
 *                        it reads, with the bounds it enforces), its message
 *                        types and its error codes are those of the schema,
 *                        in both directions: kind, bounds, required, null,
 *                        enum values, the items of an array, the keys of an
 *                        object
 *   parser_at_bounds     the parser itself, probed from the schema: each
 *                        message with its required fields is taken; without
 *                        one it is refused; every field at its bounds is
 *                        taken and just past them refused (bad_request,
 *                        naming the field); every enum value is taken
 *   drift_fails          the comparison above finds a drift made on purpose:
 *                        a field added to a message of the schema only, a
 *                        bound changed, a message or an error code added or
 *                        removed, a row dropped from the table */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "server/proto.h"

#define SCHEMA CR_DOCS_DIR "/protocol.schema.json"

static json_t *load_schema(void)
{
    json_error_t je;
    json_t *s = json_load_file(SCHEMA, 0, &je);
    if (!s) fail_msg("%s: %s (line %d)", SCHEMA, je.text, je.line);
    return s;
}

/* ---- the comparison ---- */

typedef struct cmp {
    const sv_field *rows;
    size_t n;
    int used[128];
    int mismatches;
    int quiet; /* the drift tests expect mismatches: do not print them */
} cmp;

static void mismatch(cmp *c, const char *fmt, ...)
{
    va_list ap;
    c->mismatches++;
    if (c->quiet) return;
    va_start(ap, fmt);
    fprintf(stderr, "drift between docs/protocol.schema.json and proto.c: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
}

static const sv_field *row_of(cmp *c, const char *msg, const char *key)
{
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->rows[i].msg, msg) == 0 && strcmp(c->rows[i].key, key) == 0) {
            c->used[i]++;
            return &c->rows[i];
        }
    return NULL;
}

static int64_t num(json_t *o, const char *key, int64_t dflt)
{
    json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : dflt;
}

static int is_required(json_t *parent, const char *key)
{
    json_t *req = json_object_get(parent, "required");
    for (size_t i = 0; i < json_array_size(req); i++)
        if (strcmp(json_string_value(json_array_get(req, i)), key) == 0) return 1;
    return 0;
}

static void compare_field(cmp *c, const char *msg, const char *key, json_t *prop, int required);

/* The keys of object schema `obj` against the rows of message `msg`. */
static void compare_object(cmp *c, const char *msg, json_t *obj, int skip_envelope)
{
    const char *key;
    json_t *prop;
    json_object_foreach(json_object_get(obj, "properties"), key, prop)
    {
        if (skip_envelope &&
            (strcmp(key, "v") == 0 || strcmp(key, "type") == 0 || strcmp(key, "id") == 0))
            continue;
        compare_field(c, msg, key, prop, is_required(obj, key));
    }
}

static void compare_field(cmp *c, const char *msg, const char *key, json_t *prop, int required)
{
    const sv_field *r = row_of(c, msg, key);
    if (!r) {
        mismatch(c, "%s.%s is in the schema, not in sv_fields", msg, key);
        return;
    }
    if (!!(r->flags & SV_F_REQUIRED) != required)
        mismatch(c, "%s.%s: required %d in the schema, %d in sv_fields", msg, key, required,
                 !!(r->flags & SV_F_REQUIRED));
    /* {"oneOf": [{"type": "null"}, S]}: null is taken as absent */
    int nullable = 0;
    json_t *one = json_object_get(prop, "oneOf");
    const char *first = json_string_value(json_object_get(json_array_get(one, 0), "type"));
    if (json_array_size(one) == 2 && first && strcmp(first, "null") == 0) {
        nullable = 1;
        prop = json_array_get(one, 1);
    }
    if (nullable != !!(r->flags & SV_F_NULL))
        mismatch(c, "%s.%s: nullable %d in the schema, %d in sv_fields", msg, key, nullable,
                 !!(r->flags & SV_F_NULL));
    const char *ref = json_string_value(json_object_get(prop, "$ref"));
    const char *type = json_string_value(json_object_get(prop, "type"));
    json_t *en = json_object_get(prop, "enum");
    char sub[96];
    snprintf(sub, sizeof sub, "%s.%s", msg, key);
    if (ref && strcmp(ref, "#/$defs/game_id") == 0) {
        if (r->kind != SV_K_GAME_ID) mismatch(c, "%s: a game id in the schema only", sub);
    } else if (en) {
        char vals[256] = "";
        for (size_t i = 0; i < json_array_size(en); i++) {
            size_t at = strlen(vals);
            snprintf(vals + at, sizeof vals - at, "%s%s", i ? "|" : "",
                     json_string_value(json_array_get(en, i)));
        }
        if (r->kind != SV_K_ENUM || !r->values || strcmp(vals, r->values) != 0)
            mismatch(c, "%s: values %s in the schema, %s in sv_fields", sub, vals,
                     r->values ? r->values : "(none)");
    } else if (type && strcmp(type, "integer") == 0) {
        if (r->kind != SV_K_INT || num(prop, "minimum", INT64_MIN) != r->min ||
            num(prop, "maximum", INT64_MAX) != r->max)
            mismatch(c, "%s: integer %lld..%lld in the schema, kind %d %lld..%lld in sv_fields",
                     sub, (long long)num(prop, "minimum", INT64_MIN),
                     (long long)num(prop, "maximum", INT64_MAX), r->kind, (long long)r->min,
                     (long long)r->max);
    } else if (type && strcmp(type, "string") == 0) {
        const char *pat = json_string_value(json_object_get(prop, "pattern"));
        sv_kind want = pat && strcmp(pat, "^http://") == 0 ? SV_K_URL : SV_K_STR;
        if (r->kind != want || num(prop, "minLength", 0) != r->min ||
            num(prop, "maxLength", -1) != r->max)
            mismatch(c, "%s: string of %lld..%lld bytes in the schema, kind %d %lld..%lld", sub,
                     (long long)num(prop, "minLength", 0), (long long)num(prop, "maxLength", -1),
                     r->kind, (long long)r->min, (long long)r->max);
    } else if (type && strcmp(type, "array") == 0) {
        if (r->kind != SV_K_ARR || num(prop, "minItems", 0) != r->min ||
            num(prop, "maxItems", -1) != r->max)
            mismatch(c, "%s: array bounds differ", sub);
        compare_field(c, sub, "[]", json_object_get(prop, "items"), 0);
    } else if (type && strcmp(type, "object") == 0) {
        if (r->kind != SV_K_OBJ || num(prop, "maxProperties", 0) != r->max)
            mismatch(c, "%s: object bounds differ", sub);
        json_t *any = json_object_get(prop, "additionalProperties");
        if (json_is_object(any)) {
            compare_field(c, sub, "*", any, 0);
            const sv_field *k = row_of(c, sub, "*");
            if (k) c->used[k - c->rows]--;
            if (!k || num(json_object_get(prop, "propertyNames"), "maxLength", -1) != k->max)
                mismatch(c, "%s: the length of its keys differs", sub);
        }
        compare_object(c, sub, prop, 0);
    } else {
        mismatch(c, "%s: a kind of field sv_fields does not know", sub);
    }
}

/* Every mismatch between the schema and the table `rows` (and the
 * parser's message types and error codes). */
static int compare(json_t *schema, const sv_field *rows, size_t n, int quiet)
{
    cmp c = {rows, n, {0}, 0, quiet};
    assert_true(n <= sizeof c.used / sizeof c.used[0]);
    json_t *defs = json_object_get(schema, "$defs");
    /* the message types, both ways */
    json_t *client = json_object_get(schema, "x-client");
    int types = 0;
    for (sv_type t = SV_HELLO; sv_type_name(t); t++) types++;
    if ((int)json_array_size(client) != types)
        mismatch(&c, "%d client messages in the schema, %d in proto.c",
                 (int)json_array_size(client), types);
    for (size_t i = 0; i < json_array_size(client); i++) {
        const char *name = json_string_value(json_array_get(client, i));
        int known = 0;
        for (sv_type t = SV_HELLO; sv_type_name(t); t++)
            known |= strcmp(sv_type_name(t), name) == 0;
        if (!known) mismatch(&c, "the message '%s' is in the schema, not in proto.c", name);
        char def[64];
        snprintf(def, sizeof def, "client.%s", name);
        json_t *d = json_object_get(defs, def);
        if (!d) {
            mismatch(&c, "x-client names '%s', which $defs lacks", name);
            continue;
        }
        compare_object(&c, name, d, 1);
    }
    /* the envelope */
    const sv_field *v = row_of(&c, "", "v"), *id = row_of(&c, "", "id");
    row_of(&c, "", "type");
    json_t *ver = json_object_get(defs, "version"), *jid = json_object_get(defs, "id");
    if (!v || num(ver, "const", -1) != v->min || v->min != v->max)
        mismatch(&c, "the version differs");
    if (!id || num(jid, "minimum", -1) != id->min || num(jid, "maximum", -1) != id->max)
        mismatch(&c, "the id's range differs");
    /* every row was met once */
    for (size_t i = 0; i < n; i++)
        if (c.used[i] != 1)
            mismatch(&c, "sv_fields' row %s.%s is %s in the schema", rows[i].msg, rows[i].key,
                     c.used[i] ? "more than once" : "not");
    /* the error codes, both ways */
    size_t nc;
    const char *const *codes = sv_error_codes(&nc);
    json_t *one = json_object_get(json_object_get(defs, "error_code"), "oneOf");
    if (json_array_size(one) != nc)
        mismatch(&c, "%zu error codes in the schema, %zu in proto.c", json_array_size(one), nc);
    for (size_t i = 0; i < json_array_size(one); i++) {
        const char *code = json_string_value(json_object_get(json_array_get(one, i), "const"));
        int known = 0;
        for (size_t k = 0; code && k < nc; k++) known |= strcmp(codes[k], code) == 0;
        if (!known) mismatch(&c, "the error code '%s' is not proto.c's", code ? code : "?");
    }
    return c.mismatches;
}

static void table_is_schema(void **state)
{
    (void)state;
    json_t *s = load_schema();
    size_t n;
    const sv_field *rows = sv_proto_fields(&n);
    assert_int_equal(compare(s, rows, n, 0), 0);
    json_decref(s);
}

/* ---- the parser probed at the schema's bounds ---- */

static int probes;

/* Parses msg; 0 taken (with its type), else the error in err. */
static int parse(json_t *msg, const char **code, char err[256])
{
    char *text = json_dumps(msg, JSON_COMPACT);
    sv_msg *m = malloc(sizeof *m);
    assert_non_null(text);
    assert_non_null(m);
    int rc = sv_proto_parse(text, strlen(text), m, code, err, 256);
    if (rc == 0) {
        const char *want = json_string_value(json_object_get(msg, "type"));
        if (strcmp(sv_type_name(m->type), want) != 0) fail_msg("%s parsed as another type", text);
    }
    probes++;
    free(m);
    free(text);
    return rc;
}

static void expect_ok(json_t *msg, const char *why)
{
    const char *code;
    char err[256];
    if (parse(msg, &code, err) != 0) {
        char *t = json_dumps(msg, JSON_COMPACT);
        fail_msg("%s: %s refused (%s: %s)", why, t, code, err);
    }
    json_decref(msg);
}

/* Refused as bad_request; the reason names `name` unless it is NULL. */
static void expect_refused(json_t *msg, const char *name, const char *why)
{
    const char *code;
    char err[256], quoted[80];
    char *t = json_dumps(msg, JSON_COMPACT);
    if (parse(msg, &code, err) == 0) fail_msg("%s: %s taken", why, t);
    if (strcmp(code, "bad_request") != 0) fail_msg("%s: %s is %s, not bad_request", why, t, code);
    snprintf(quoted, sizeof quoted, "'%s'", name ? name : "");
    if (name && !strstr(err, quoted))
        fail_msg("%s: %s refused without naming %s: %s", why, t, quoted, err);
    free(t);
    json_decref(msg);
}

static json_t *str_of(int64_t len, char ch)
{
    char *s = malloc((size_t)len + 1);
    memset(s, ch, (size_t)len);
    s[len] = '\0';
    json_t *j = json_string(s);
    free(s);
    return j;
}

/* A value of row r of length / size / value `at`. */
static json_t *value_at(const sv_field *r, int64_t at)
{
    switch (r->kind) {
    case SV_K_INT: return json_integer((json_int_t)at);
    case SV_K_URL: {
        json_t *tail = str_of(at > 9 ? at - 9 : 0, 'x');
        char *url = malloc((size_t)at + 16);
        snprintf(url, (size_t)at + 16, "http://a/%s", json_string_value(tail));
        json_t *j = json_string(url);
        free(url);
        json_decref(tail);
        return j;
    }
    case SV_K_GAME_ID: return str_of(at, 'a');
    default: return str_of(at, 'x');
    }
}

/* The smallest message of type `type` the parser takes: its required
 * fields at their smallest. */
static json_t *base(const char *type)
{
    json_t *m = json_pack("{s:i,s:s}", "v", SV_PROTO_VERSION, "type", type);
    size_t n;
    const sv_field *rows = sv_proto_fields(&n);
    for (size_t i = 0; i < n; i++) {
        const sv_field *r = &rows[i];
        if (strcmp(r->msg, type) != 0 || !(r->flags & SV_F_REQUIRED)) continue;
        if (r->kind == SV_K_ARR)
            json_object_set_new(m, r->key, json_pack("[s]", "human"));
        else if (r->kind == SV_K_GAME_ID)
            json_object_set_new(m, r->key, json_string("0123456789abcdef0123456789abcdef"));
        else
            json_object_set_new(m, r->key, value_at(r, r->min));
    }
    if (strcmp(type, "act") == 0) json_object_set_new(m, "action", json_integer(0));
    return m;
}

/* msg with obj[key] = v (obj: msg, or the object inside it); for `create`,
 * the seats follow `players` and `sit`, which they bound. */
static json_t *with(const char *type, const char *parent, const char *key, json_t *v)
{
    json_t *m = base(type);
    json_t *obj = m;
    if (parent) {
        obj = json_pack("{s:s,s:i}", "mode", "move", "initial_ms", 1000);
        json_object_set_new(m, parent, obj);
    }
    if (v)
        json_object_set_new(obj, key, v);
    else
        json_object_del(obj, key);
    if (strcmp(type, "act") == 0 && strcmp(key, "text") == 0) json_object_del(m, "action");
    json_t *seats = json_object_get(m, "seats");
    int64_t want = 0;
    if (!parent && strcmp(key, "players") == 0 && json_is_integer(v)) want = json_integer_value(v);
    if (!parent && strcmp(key, "sit") == 0 && json_is_integer(v)) want = json_integer_value(v) + 1;
    for (int64_t i = 1; seats && i < want && i < CR_MAX_PLAYERS; i++)
        json_array_append_new(seats, json_string("human"));
    return m;
}

static void probe_row(const char *type, const char *parent, const sv_field *r)
{
    char why[96];
    snprintf(why, sizeof why, "%s%s%s.%s", type, parent ? "." : "", parent ? parent : "", r->key);
    /* the name an error gives: the field, or for a clock's mode, the clock */
    const char *name = parent && strcmp(r->key, "mode") == 0 ? parent : r->key;
    if (r->flags & SV_F_REQUIRED) expect_refused(with(type, parent, r->key, NULL), NULL, why);
    if (r->flags & SV_F_NULL) expect_ok(with(type, parent, r->key, json_null()), why);
    switch (r->kind) {
    case SV_K_INT:
        expect_ok(with(type, parent, r->key, value_at(r, r->min)), why);
        expect_ok(with(type, parent, r->key, value_at(r, r->max)), why);
        expect_refused(with(type, parent, r->key, value_at(r, r->min - 1)), name, why);
        expect_refused(with(type, parent, r->key, value_at(r, r->max + 1)), name, why);
        expect_refused(with(type, parent, r->key, json_string("1")), name, why);
        break;
    case SV_K_STR:
    case SV_K_URL:
        expect_ok(with(type, parent, r->key, value_at(r, r->max)), why);
        expect_refused(with(type, parent, r->key, value_at(r, r->max + 1)), name, why);
        expect_refused(with(type, parent, r->key, json_integer(5)), name, why);
        break;
    case SV_K_GAME_ID:
        expect_refused(with(type, parent, r->key, value_at(r, 31)), name, why);
        expect_refused(with(type, parent, r->key, str_of(32, 'A')), name, why);
        break;
    case SV_K_ENUM: {
        char vals[256];
        snprintf(vals, sizeof vals, "%s", r->values);
        for (char *save = NULL, *v = strtok_r(vals, "|", &save); v; v = strtok_r(NULL, "|", &save))
            expect_ok(with(type, parent, r->key, json_string(v)), why);
        expect_refused(with(type, parent, r->key, json_string("nope")), name, why);
        break;
    }
    case SV_K_ARR: { /* create.seats: min..max specs of min..max bytes */
        char sub[64];
        snprintf(sub, sizeof sub, "%s.%s", type, r->key);
        size_t n;
        const sv_field *rows = sv_proto_fields(&n), *item = NULL;
        for (size_t i = 0; i < n; i++)
            if (strcmp(rows[i].msg, sub) == 0) item = &rows[i];
        assert_non_null(item);
        json_t *most = json_array(), *over = json_array();
        for (int64_t i = 0; i <= r->max; i++) {
            if (i < r->max) json_array_append_new(most, json_string("human"));
            json_array_append_new(over, json_string("human"));
        }
        expect_ok(with(type, parent, r->key, most), why);
        expect_refused(with(type, parent, r->key, over), r->key, why);
        expect_refused(with(type, parent, r->key, json_array()), r->key, why);
        expect_ok(with(type, parent, r->key, json_pack("[o]", value_at(item, item->max))), why);
        expect_refused(with(type, parent, r->key, json_pack("[o]", value_at(item, item->max + 1))),
                       NULL, why);
        if (item->min > 0)
            expect_refused(
                with(type, parent, r->key, json_pack("[o]", value_at(item, item->min - 1))), NULL,
                why);
        break;
    }
    case SV_K_OBJ: {
        char sub[64];
        snprintf(sub, sizeof sub, "%s.%s", type, r->key);
        size_t n;
        const sv_field *rows = sv_proto_fields(&n);
        for (size_t i = 0; i < n; i++) {
            if (strcmp(rows[i].msg, sub) != 0) continue;
            if (strcmp(rows[i].key, "*") == 0) { /* any key, a string value each */
                json_t *most = json_object(), *over = json_object();
                for (int64_t k = 0; k <= r->max; k++) {
                    char key[24];
                    snprintf(key, sizeof key, "k%lld", (long long)k);
                    if (k < r->max) json_object_set_new(most, key, json_string("v"));
                    json_object_set_new(over, key, json_string("v"));
                }
                expect_ok(with(type, parent, r->key, most), why);
                expect_refused(with(type, parent, r->key, over), r->key, why);
                const sv_field *v = &rows[i];
                expect_ok(with(type, parent, r->key, json_pack("{s:o}", "k", value_at(v, v->max))),
                          why);
                expect_refused(
                    with(type, parent, r->key, json_pack("{s:o}", "k", value_at(v, v->max + 1))),
                    NULL, why);
                json_t *long_key = str_of(v->max + 1, 'k');
                expect_refused(with(type, parent, r->key,
                                    json_pack("{s:s}", json_string_value(long_key), "v")),
                               NULL, why);
                json_decref(long_key);
            } else {
                probe_row(type, r->key, &rows[i]); /* the clock's own keys */
            }
        }
        break;
    }
    }
}

static void parser_at_bounds(void **state)
{
    (void)state;
    size_t n;
    const sv_field *rows = sv_proto_fields(&n);
    for (sv_type t = SV_HELLO; sv_type_name(t); t++) {
        const char *type = sv_type_name(t);
        expect_ok(base(type), type);
        for (size_t i = 0; i < n; i++)
            if (strcmp(rows[i].msg, type) == 0) probe_row(type, NULL, &rows[i]);
    }
    expect_refused(json_pack("{s:i,s:s}", "v", 1, "type", "nope"), "nope", "an unknown type");
    if (probes < 120) fail_msg("only %d probes", probes);
    printf("# %d probes of the parser\n", probes);
}

/* ---- drift made on purpose is found ---- */

static void drift_fails(void **state)
{
    (void)state;
    size_t n;
    const sv_field *rows = sv_proto_fields(&n);
    json_t *s = load_schema();
    json_t *defs = json_object_get(s, "$defs");
    json_t *props = json_object_get(json_object_get(defs, "client.act"), "properties");

    /* a field added to the schema only */
    json_object_set_new(props, "comment", json_pack("{s:s,s:i}", "type", "string", "maxLength", 9));
    assert_true(compare(s, rows, n, 1) > 0);
    json_object_del(props, "comment");
    assert_int_equal(compare(s, rows, n, 1), 0);

    /* a bound changed in the schema only */
    json_t *dec = json_object_get(props, "decision");
    json_object_set_new(dec, "maximum", json_integer(1000));
    assert_true(compare(s, rows, n, 1) > 0);
    json_object_set_new(dec, "maximum", json_integer(INT32_MAX));
    assert_int_equal(compare(s, rows, n, 1), 0);

    /* a field made required in the schema only */
    json_t *req = json_object_get(json_object_get(defs, "client.join"), "required");
    json_array_append_new(req, json_string("seat"));
    assert_true(compare(s, rows, n, 1) > 0);
    json_array_remove(req, json_array_size(req) - 1);

    /* a message added to the schema only */
    json_array_append_new(json_object_get(s, "x-client"), json_string("chat"));
    assert_true(compare(s, rows, n, 1) > 0);
    json_array_remove(json_object_get(s, "x-client"),
                      json_array_size(json_object_get(s, "x-client")) - 1);

    /* an error code added to the schema only */
    json_t *codes = json_object_get(json_object_get(defs, "error_code"), "oneOf");
    json_array_append_new(codes, json_pack("{s:s}", "const", "busy"));
    assert_true(compare(s, rows, n, 1) > 0);
    json_array_remove(codes, json_array_size(codes) - 1);
    assert_int_equal(compare(s, rows, n, 1), 0);

    /* a field the parser reads (a row of its table) that the schema lacks,
     * and one whose bound differs */
    sv_field *copy = malloc((n + 1) * sizeof *copy);
    memcpy(copy, rows, n * sizeof *copy);
    copy[n] = (sv_field){"act", "comment", SV_K_STR, 0, 0, 9, NULL};
    assert_true(compare(s, copy, n + 1, 1) > 0);
    for (size_t i = 0; i < n; i++)
        if (strcmp(copy[i].msg, "create") == 0 && strcmp(copy[i].key, "players") == 0)
            copy[i].max = CR_MAX_PLAYERS + 1;
    assert_true(compare(s, copy, n, 1) > 0);
    /* a row dropped */
    assert_true(compare(s, rows + 1, n - 1, 1) > 0);
    free(copy);
    json_decref(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_is_schema),
        cmocka_unit_test(parser_at_bounds),
        cmocka_unit_test(drift_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
