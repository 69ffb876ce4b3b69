/* game.c — the lifecycle of a cr_game (variant and player-count checks,
 * then the game's own create) and the generic helpers every client uses at
 * its edge: sampling a chance node, applying an action after checking it is
 * legal, and applying an action given as text.
 *
 * Invariant: a cr_game returned by cr_game_new has a variant whose player
 * range holds num_players, and list bounds (max_legal, max_chance_outcomes)
 * within CR_CORE_MAX_LIST, so the checks here can use stack buffers. */
#include <assert.h>
#include <ctype.h>
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
    if (p->first_roller < 0 || p->first_roller >= n) {
        cr_errf(err, errcap, "first roller %d is not a seat (0 to %d)", p->first_roller, n - 1);
        return NULL;
    }
    if (strlen(v->name) >= sizeof((cr_game *)0)->variant_buf ||
        (p->data_path && strlen(p->data_path) >= sizeof((cr_game *)0)->data_path_buf)) {
        cr_errf(err, errcap, "variant name or data path too long");
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
    if (p->data_path != NULL) {
        strcpy(g->data_path_buf, p->data_path);
        g->params.data_path = g->data_path_buf;
    }

    char why[256] = "";
    cr_status s = def->create(g, why, sizeof why);
    if (s != CR_OK) {
        cr_errf(err, errcap, "%s", why[0] ? why : cr_status_str(s));
        if (def->destroy) def->destroy(g);
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
    return g;
}

void cr_game_free(cr_game *g)
{
    if (g == NULL) return;
    if (g->def->destroy) g->def->destroy(g);
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

int cr_core_is_legal(const cr_game *g, const void *st, cr_action a)
{
    cr_action list[CR_CORE_MAX_LIST];
    int who = g->def->current_player(g, st), n;
    if (a < 0 || a >= g->num_actions || who == CR_TERMINAL) return 0;
    if (who == CR_CHANCE) {
        double prob[CR_CORE_MAX_LIST];
        assert(g->max_chance_outcomes <= CR_CORE_MAX_LIST);
        n = g->def->chance_outcomes(g, st, list, prob);
        for (int i = 0; i < n; i++)
            if (list[i] == a) return prob[i] > 0.0;
        return 0;
    }
    assert(g->max_legal <= CR_CORE_MAX_LIST);
    n = g->def->legal_actions(g, st, list);
    for (int i = 0; i < n; i++)
        if (list[i] == a) return 1;
    return 0;
}

cr_status cr_apply_checked(const cr_game *g, void *st, cr_action a, cr_events *ev)
{
    if (!cr_core_is_legal(g, st, a)) return CR_ERR_ILLEGAL;
    g->def->apply(g, st, a, ev);
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

cr_status cr_core_parse_action(const cr_game *g, const void *st, const char *text, cr_action *out,
                               char *err, size_t errcap)
{
    char s[CR_CORE_MAX_ACTION_TEXT];
    if (text == NULL || !trim_copy(text, s, sizeof s)) {
        cr_errf(err, errcap, "action text too long");
        return CR_ERR_PARSE;
    }
    if (s[0] == '\0') {
        cr_errf(err, errcap, "empty action");
        return CR_ERR_PARSE;
    }
    if (g->def->current_player(g, st) == CR_TERMINAL) {
        cr_errf(err, errcap, "the game is over; no action '%s' can follow", s);
        return CR_ERR_ILLEGAL;
    }
    cr_action a = -1;
    cr_status rc = g->def->str_to_action(g, st, s, &a);
    if (rc == CR_OK && !cr_core_is_legal(g, st, a)) rc = CR_ERR_ILLEGAL;
    if (rc != CR_OK) {
        char what[200] = "";
        if (g->def->prompt != NULL && g->def->current_player(g, st) != CR_CHANCE)
            g->def->prompt(g, st, what, sizeof what);
        else if (g->def->current_player(g, st) == CR_CHANCE)
            snprintf(what, sizeof what, "a chance outcome is expected");
        if (rc == CR_ERR_PARSE)
            cr_errf(err, errcap, "unknown action '%s'%s%s%s", s, what[0] ? " (" : "", what,
                    what[0] ? ")" : "");
        else
            cr_errf(err, errcap, "'%s' is not legal now%s%s%s", s, what[0] ? " (" : "", what,
                    what[0] ? ")" : "");
        return rc == CR_ERR_PARSE ? CR_ERR_PARSE : CR_ERR_ILLEGAL;
    }
    *out = a;
    return CR_OK;
}

cr_status cr_apply_text(const cr_game *g, void *st, const char *text, cr_events *ev, char *err,
                        size_t errcap)
{
    cr_action a;
    cr_status rc = cr_core_parse_action(g, st, text, &a, err, errcap);
    if (rc != CR_OK) return rc;
    g->def->apply(g, st, a, ev);
    return CR_OK;
}
