/* game.c — the lifecycle of a cr_game (variant and player-count checks,
 * then the game's own create) and the generic helpers every client uses at
 * its edge: sampling a chance node, applying an action after checking it is
 * legal, and applying an action given as text.
 *
 * Invariant: a cr_game returned by cr_game_new has a variant whose player
 * range holds num_players, and list bounds (max_legal, max_chance_outcomes)
 * within CR_CORE_MAX_LIST, so the checks here can use stack buffers; and a
 * bound on the events of one apply (max_events) in 1..CR_CORE_MAX_LIST, so
 * every caller can size its event buffer from it. */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core_internal.h"
#include "croupier/alloc.h"
#include "croupier/game.h"

void cr_errf(char *err, size_t cap, const char *fmt, ...)
{
    if (err == NULL || cap == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
}

static int find_variant(const cr_game_def *def, const char *name)
{
    for (int i = 0; i < def->n_variants; i++)
        if (strcmp(def->variants[i].name, name) == 0) return i;
    return -1;
}

static void list_variants(const cr_game_def *def, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < def->n_variants && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? ", " : "", def->variants[i].name);
}

/* ---- table options ---- */

cr_status cr_params_set(cr_params *p, const char *key, const char *value)
{
    if (p == NULL || key == NULL || value == NULL) return CR_ERR_INVALID;
    for (int i = 0; i < p->n_options; i++)
        if (strcmp(p->options[i].key, key) == 0) {
            p->options[i].value = value;
            return CR_OK;
        }
    if (p->n_options >= CR_MAX_OPTIONS) return CR_ERR_INVALID;
    p->options[p->n_options].key = key;
    p->options[p->n_options].value = value;
    p->n_options++;
    return CR_OK;
}

cr_status cr_params_set_text(cr_params *p, char *key_eq_value)
{
    char *eq = key_eq_value ? strchr(key_eq_value, '=') : NULL;
    if (eq == NULL || eq == key_eq_value) return CR_ERR_INVALID;
    *eq = '\0';
    return cr_params_set(p, key_eq_value, eq + 1);
}

int cr_option_index(const cr_game_def *def, const char *key)
{
    for (int i = 0; i < def->n_options; i++)
        if (strcmp(def->options[i].key, key) == 0) return i;
    return -1;
}

int32_t cr_game_option(const cr_game *g, const char *key)
{
    int i = cr_option_index(g->def, key);
    assert(i >= 0);
    return i >= 0 ? g->opt[i] : 0;
}

int cr_option_applies(const cr_game_def *def, int i, const char *variant)
{
    const char *v = def->options[i].variant;
    return v == NULL || (variant != NULL && strcmp(v, variant) == 0);
}

size_t cr_option_to_str(const cr_game *g, int i, char *buf, size_t cap)
{
    const cr_option_def *o = &g->def->options[i];
    int len;
    switch (o->type) {
    case CR_OPT_BOOL: len = snprintf(buf, cap, "%s", g->opt[i] ? "yes" : "no"); break;
    case CR_OPT_CHOICE: len = snprintf(buf, cap, "%s", o->choices[g->opt[i]]); break;
    case CR_OPT_FILE: len = snprintf(buf, cap, "%s", g->opt[i] ? g->data_path : ""); break;
    default: len = snprintf(buf, cap, "%d", (int)g->opt[i]); break;
    }
    return len < 0 ? 0 : (size_t)len;
}

static int parse_i32(const char *s, long lo, long hi, int32_t *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi) return 0;
    *out = (int32_t)v;
    return 1;
}

uint64_t cr_data_hash(const void *data, size_t len)
{
    const unsigned char *b = data;
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64 */
    for (size_t i = 0; i < len; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* Reads a game-data file (bounded, no NUL bytes) into g->data_text. */
static cr_status read_data_file(cr_game *g, const char *key, const char *path, char *err,
                                size_t errcap)
{
    if (strlen(path) >= sizeof g->data_path) {
        cr_errf(err, errcap, "option %s: path too long", key);
        return CR_ERR_INVALID;
    }
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        cr_errf(err, errcap, "option %s: cannot open %s: %s", key, path, strerror(errno));
        return CR_ERR_IO;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = cr_alloc(cap);
    cr_status rc = buf ? CR_OK : CR_ERR_NOMEM;
    while (rc == CR_OK) {
        if (len + 1 >= cap) {
            if (cap >= CR_MAX_DATA_FILE) {
                cr_errf(err, errcap, "option %s: %s is larger than %d MiB", key, path,
                        CR_MAX_DATA_FILE >> 20);
                rc = CR_ERR_INVALID;
                break;
            }
            char *nb = cr_realloc(buf, cap * 2);
            if (nb == NULL) {
                rc = CR_ERR_NOMEM;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - 1 - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f)) {
                cr_errf(err, errcap, "option %s: cannot read %s", key, path);
                rc = CR_ERR_IO;
            }
            break;
        }
    }
    fclose(f);
    if (rc == CR_ERR_NOMEM) cr_errf(err, errcap, "out of memory");
    if (rc == CR_OK && memchr(buf, '\0', len) != NULL) {
        cr_errf(err, errcap, "option %s: %s: NUL byte at offset %zu", key, path,
                (size_t)((char *)memchr(buf, '\0', len) - buf));
        rc = CR_ERR_INVALID;
    }
    if (rc != CR_OK) {
        cr_free(buf);
        return rc;
    }
    buf[len] = '\0';
    strcpy(g->data_path, path);
    g->data_text = buf;
    g->data_len = len;
    g->data_hash = cr_data_hash(buf, len);
    return CR_OK;
}

/* Checks p's options against the game's table and stores their values. */
static cr_status set_options(cr_game *g, const cr_params *p, char *err, size_t errcap)
{
    const cr_game_def *def = g->def;
    if (def->n_options > CR_MAX_OPTIONS) {
        cr_errf(err, errcap, "%s declares too many options", def->name);
        return CR_ERR_INVALID;
    }
    for (int i = 0; i < def->n_options; i++) g->opt[i] = def->options[i].def;
    if (p->n_options < 0 || p->n_options > CR_MAX_OPTIONS) {
        cr_errf(err, errcap, "too many options");
        return CR_ERR_INVALID;
    }
    for (int k = 0; k < p->n_options; k++) {
        const char *key = p->options[k].key, *val = p->options[k].value;
        if (key == NULL || val == NULL) {
            cr_errf(err, errcap, "option %d has no key or value", k);
            return CR_ERR_INVALID;
        }
        for (int j = 0; j < k; j++)
            if (strcmp(p->options[j].key, key) == 0) {
                cr_errf(err, errcap, "option %.40s given twice", key);
                return CR_ERR_INVALID;
            }
        int i = cr_option_index(def, key);
        if (i < 0) {
            char names[256] = "";
            size_t len = 0;
            for (int j = 0; j < def->n_options && len < sizeof names; j++)
                len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", j ? ", " : "",
                                        def->options[j].key);
            cr_errf(err, errcap, "%s has no option '%.40s' (%s%s)", def->name, key,
                    def->n_options ? "options: " : "it has no options", names);
            return CR_ERR_INVALID;
        }
        const cr_option_def *o = &def->options[i];
        if (!cr_option_applies(def, i, g->variant->name)) {
            cr_errf(err, errcap, "option %s belongs to variant %s, not %s", key, o->variant,
                    g->variant->name);
            return CR_ERR_INVALID;
        }
        int ok = 0;
        switch (o->type) {
        case CR_OPT_INT: ok = parse_i32(val, o->min, o->max, &g->opt[i]); break;
        case CR_OPT_SEAT: ok = parse_i32(val, 0, g->num_players - 1, &g->opt[i]); break;
        case CR_OPT_BOOL:
            if (!strcmp(val, "yes") || !strcmp(val, "true") || !strcmp(val, "on") ||
                !strcmp(val, "1"))
                g->opt[i] = 1, ok = 1;
            else if (!strcmp(val, "no") || !strcmp(val, "false") || !strcmp(val, "off") ||
                     !strcmp(val, "0"))
                g->opt[i] = 0, ok = 1;
            break;
        case CR_OPT_CHOICE:
            for (int c = 0; c <= o->max && !ok; c++)
                if (strcmp(o->choices[c], val) == 0) g->opt[i] = c, ok = 1;
            break;
        case CR_OPT_FILE:
            if (val[0] == '\0') {
                g->opt[i] = 0; /* the built-in data */
                ok = 1;
                break;
            }
            {
                cr_status rc = read_data_file(g, key, val, err, errcap);
                if (rc != CR_OK) return rc;
            }
            g->opt[i] = 1;
            ok = 1;
            break;
        }
        if (!ok) {
            char want[128];
            switch (o->type) {
            case CR_OPT_INT:
                snprintf(want, sizeof want, "an integer from %d to %d", (int)o->min, (int)o->max);
                break;
            case CR_OPT_SEAT:
                snprintf(want, sizeof want, "a seat from 0 to %d", g->num_players - 1);
                break;
            case CR_OPT_BOOL: snprintf(want, sizeof want, "yes or no"); break;
            default: snprintf(want, sizeof want, "one of the option's choices"); break;
            }
            cr_errf(err, errcap, "option %s: bad value '%.40s' (expected %s)", key, val, want);
            return CR_ERR_INVALID;
        }
    }
    return CR_OK;
}

cr_ctx *cr_ctx_new(const cr_game *g)
{
    cr_ctx *cx = cr_calloc(1, sizeof *cx);
    if (cx == NULL) return NULL;
    if (g->scratch_size > 0) {
        cx->scratch = cr_alloc(g->scratch_size);
        if (cx->scratch == NULL) {
            cr_free(cx);
            return NULL;
        }
        cx->scratch_size = g->scratch_size;
        memset(cx->scratch, 0,
               g->scratch_zeroed < g->scratch_size ? g->scratch_zeroed : g->scratch_size);
    }
    return cx;
}

void cr_ctx_free(cr_ctx *cx)
{
    if (cx == NULL) return;
    cr_free(cx->scratch);
    cr_free(cx);
}

int cr_event_visible(const cr_game *g, const cr_event *e, int seat)
{
    if (seat == CR_SEAT_OMNISCIENT) return 1;
    uint32_t all = g->num_players >= 32 ? 0xffffffffu : (1u << g->num_players) - 1;
    if (seat == CR_SEAT_PUBLIC) return (e->seen_by & all) == all;
    if (seat < 0 || seat >= g->num_players) return 0;
    return (e->seen_by >> seat) & 1u;
}

cr_game *cr_game_new(const cr_game_def *def, const cr_params *p, char *err, size_t errcap)
{
    cr_params none = {0};
    if (p == NULL) p = &none;
    if (def == NULL || def->n_variants < 1 || def->create == NULL) {
        cr_errf(err, errcap, "no such game");
        return NULL;
    }

    /* Variant: by name, else the first that seats num_players. */
    int vi = -1, n = p->num_players;
    if (p->variant != NULL && p->variant[0] != '\0') {
        vi = find_variant(def, p->variant);
        if (vi < 0) {
            char names[256];
            list_variants(def, names, sizeof names);
            cr_errf(err, errcap, "%s has no variant '%s' (variants: %s)", def->name, p->variant,
                    names);
            return NULL;
        }
    } else if (n <= 0) {
        vi = 0;
    } else {
        for (int i = 0; i < def->n_variants && vi < 0; i++)
            if (n >= def->variants[i].min_players && n <= def->variants[i].max_players) vi = i;
        if (vi < 0) {
            cr_errf(err, errcap, "%s has no variant for %d players", def->name, n);
            return NULL;
        }
    }
    const cr_variant *v = &def->variants[vi];
    if (n <= 0) n = v->max_players; /* unspecified: the largest table of the variant */
    if (n < v->min_players || n > v->max_players || n > CR_MAX_PLAYERS) {
        if (v->min_players == v->max_players)
            cr_errf(err, errcap, "%s %s is for %d players, not %d", def->name, v->name,
                    v->min_players, n);
        else
            cr_errf(err, errcap, "%s %s is for %d to %d players, not %d", def->name, v->name,
                    v->min_players, v->max_players, n);
        return NULL;
    }
    if (strlen(v->name) >= sizeof((cr_game *)0)->variant_buf) {
        cr_errf(err, errcap, "variant name too long");
        return NULL;
    }

    cr_game *g = cr_calloc(1, sizeof *g);
    if (g == NULL) {
        cr_errf(err, errcap, "out of memory");
        return NULL;
    }
    g->def = def;
    g->variant = v;
    g->variant_index = vi;
    g->num_players = n;
    g->params = *p;
    g->params.num_players = n;
    strcpy(g->variant_buf, v->name);
    g->params.variant = g->variant_buf;
    g->params.n_options = 0; /* the borrowed text is not kept: g->opt holds the values */
    memset(g->params.options, 0, sizeof g->params.options);
    if (set_options(g, p, err, errcap) != CR_OK) {
        cr_free((void *)g->data_text);
        cr_free(g);
        return NULL;
    }

    char why[256] = "";
    cr_status s = def->create(g, why, sizeof why);
    if (s != CR_OK) {
        cr_errf(err, errcap, "%s", why[0] ? why : cr_status_str(s));
        if (def->destroy) def->destroy(g);
        cr_free((void *)g->data_text);
        cr_free(g);
        return NULL;
    }
    if (g->state_size == 0 || g->num_actions <= 0 || g->max_legal <= 0 ||
        g->max_legal > CR_CORE_MAX_LIST || g->max_chance_outcomes < 0 ||
        g->max_chance_outcomes > CR_CORE_MAX_LIST) {
        cr_errf(err, errcap, "%s: create() reported impossible sizes", def->name);
        cr_game_free(g);
        return NULL;
    }
    if (g->max_events <= 0 || g->max_events > CR_CORE_MAX_LIST) {
        cr_errf(err, errcap, "%s: create() reported max_events = %d (1 to %d expected)", def->name,
                g->max_events, (int)CR_CORE_MAX_LIST);
        cr_game_free(g);
        return NULL;
    }
    return g;
}

void cr_game_free(cr_game *g)
{
    if (g == NULL) return;
    if (g->def->destroy) g->def->destroy(g);
    cr_free((void *)g->data_text);
    cr_free(g);
}

cr_action cr_sample_chance(const cr_game *g, const void *st, cr_rng *rng)
{
    if (g->def->sample_chance) return g->def->sample_chance(g, st, rng);
    cr_action out[CR_CORE_MAX_LIST];
    double prob[CR_CORE_MAX_LIST];
    assert(g->max_chance_outcomes <= CR_CORE_MAX_LIST);
    int n = g->def->chance_outcomes(g, st, out, prob);
    assert(n > 0);
    double x = cr_rng_double(rng), acc = 0.0;
    for (int i = 0; i < n; i++) {
        acc += prob[i];
        if (x < acc) return out[i];
    }
    /* Rounding left x above the last partial sum: the last possible outcome. */
    for (int i = n - 1; i > 0; i--)
        if (prob[i] > 0.0) return out[i];
    return out[0];
}

int cr_is_legal(const cr_game *g, const void *st, cr_action a, cr_ctx *cx)
{
    return cr_core_is_legal(g, st, a, cx);
}

int cr_core_is_legal(const cr_game *g, const void *st, cr_action a, cr_ctx *cx)
{
    cr_action list[CR_CORE_MAX_LIST];
    int who = g->def->current_player(g, st), n;
    if (a < 0 || a >= g->num_actions || who == CR_TERMINAL) return 0;
    if (who >= 0 && g->def->is_legal != NULL) return g->def->is_legal(g, st, a);
    if (who == CR_CHANCE) {
        double prob[CR_CORE_MAX_LIST];
        assert(g->max_chance_outcomes <= CR_CORE_MAX_LIST);
        n = g->def->chance_outcomes(g, st, list, prob);
        for (int i = 0; i < n; i++)
            if (list[i] == a) return prob[i] > 0.0;
        return 0;
    }
    assert(g->max_legal <= CR_CORE_MAX_LIST);
    n = g->def->legal_actions(g, st, list, cx);
    for (int i = 0; i < n; i++)
        if (list[i] == a) return 1;
    return 0;
}

cr_status cr_apply_checked(const cr_game *g, void *st, cr_action a, cr_ctx *cx)
{
    if (!cr_core_is_legal(g, st, a, cx)) return CR_ERR_ILLEGAL;
    g->def->apply(g, st, a, cx);
    return CR_OK;
}

/* Copies text without surrounding blanks into buf; 0 if it does not fit. */
static int trim_copy(const char *text, char *buf, size_t cap)
{
    while (isspace((unsigned char)*text)) text++;
    size_t len = strlen(text);
    while (len > 0 && isspace((unsigned char)text[len - 1])) len--;
    if (len >= cap) return 0;
    memcpy(buf, text, len);
    buf[len] = '\0';
    return 1;
}

/* Trims text into s (CR_CORE_MAX_ACTION_TEXT bytes) and reads it as an
 * action legal in st.  CR_OK: *out is the action.  A text too long or empty
 * is refused here, err set and *told = 1; an unknown or illegal action
 * (CR_ERR_PARSE, CR_ERR_ILLEGAL) is left for the caller to explain from its
 * own view (*told = 0). */
static cr_status read_legal(const cr_game *g, const void *st, const char *text, char *s,
                            cr_action *out, cr_ctx *cx, char *err, size_t errcap, int *told)
{
    *told = 1;
    if (text == NULL || !trim_copy(text, s, CR_CORE_MAX_ACTION_TEXT)) {
        cr_errf(err, errcap, "action text too long");
        return CR_ERR_PARSE;
    }
    if (s[0] == '\0') {
        cr_errf(err, errcap, "empty action");
        return CR_ERR_PARSE;
    }
    *told = 0;
    cr_action a = -1;
    cr_status rc = g->def->str_to_action(g, st, s, &a);
    if (rc == CR_OK && !cr_core_is_legal(g, st, a, cx)) rc = CR_ERR_ILLEGAL;
    if (rc == CR_OK) *out = a;
    return rc == CR_OK || rc == CR_ERR_PARSE ? rc : CR_ERR_ILLEGAL;
}

cr_status cr_core_parse_action(const cr_game *g, const void *st, const char *text, cr_action *out,
                               cr_ctx *cx, char *err, size_t errcap)
{
    char s[CR_CORE_MAX_ACTION_TEXT];
    int who = g->def->current_player(g, st), told;
    if (who == CR_TERMINAL && text != NULL && trim_copy(text, s, sizeof s) && s[0] != '\0') {
        cr_errf(err, errcap, "the game is over; no action '%s' can follow", s);
        return CR_ERR_ILLEGAL;
    }
    cr_status rc = read_legal(g, st, text, s, out, cx, err, errcap, &told);
    if (rc == CR_OK || told) return rc;
    /* Nothing of the state goes into the message: whoever typed the text
     * may not be the seat to act (cr_seat_parse explains from the
     * submitting seat's view). */
    if (rc == CR_ERR_PARSE)
        cr_errf(err, errcap, "unknown action '%s'", s);
    else if (who == CR_CHANCE)
        cr_errf(err, errcap, "'%s' is not legal now (a chance outcome is expected)", s);
    else
        cr_errf(err, errcap, "'%s' is not legal now", s);
    return rc;
}

cr_status cr_apply_text(const cr_game *g, void *st, const char *text, cr_ctx *cx, char *err,
                        size_t errcap)
{
    cr_action a;
    cr_status rc = cr_core_parse_action(g, st, text, &a, cx, err, errcap);
    if (rc != CR_OK) return rc;
    g->def->apply(g, st, a, cx);
    return CR_OK;
}

cr_status cr_seat_may_act(const cr_game *g, const void *st, int seat, char *err, size_t errcap)
{
    int who = g->def->current_player(g, st);
    if (seat < 0 || seat >= g->num_players) {
        cr_errf(err, errcap, "no seat %d", seat);
        return CR_ERR_ILLEGAL;
    }
    if (who == CR_TERMINAL) {
        cr_errf(err, errcap, "the game is over");
        return CR_ERR_ILLEGAL;
    }
    if (who != seat) {
        if (who == CR_CHANCE)
            cr_errf(err, errcap, "not your turn: chance acts next");
        else
            cr_errf(err, errcap, "not your turn: P%d is to act", who);
        return CR_ERR_ILLEGAL;
    }
    return CR_OK;
}

cr_status cr_seat_parse(const cr_game *g, const void *st, int seat, const char *text,
                        cr_action *out, cr_ctx *cx, char *err, size_t errcap)
{
    if (cr_seat_may_act(g, st, seat, err, errcap) != CR_OK) return CR_ERR_ILLEGAL;
    char s[CR_CORE_MAX_ACTION_TEXT];
    int told;
    cr_status rc = read_legal(g, st, text, s, out, cx, err, errcap, &told);
    if (rc == CR_OK || told) return rc;
    /* The seat's own decision, as it faces it: nothing of another seat.
     * The text is quoted as typed: escaping it for a terminal or a protocol
     * is the client's job at its output. */
    char prompt[200] = "";
    if (g->def->prompt != NULL) g->def->prompt(g, st, prompt, sizeof prompt);
    cr_errf(err, errcap,
            rc == CR_ERR_PARSE ? "unknown action '%.60s'%s%s%s" : "'%.60s' is not legal now%s%s%s",
            s, prompt[0] ? " (" : "", prompt, prompt[0] ? ")" : "");
    return rc;
}
