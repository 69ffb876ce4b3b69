/* fuzz_common.c — tables, random walks and checks shared by the fuzz
 * targets (see fuzz_common.h).  Nothing here is on a target's hot path
 * except fuzz_is_legal, which uses stack buffers bounded by FUZZ_MAX_LIST. */
#include "fuzz_common.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fuzz_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "fuzz check failed (%s:%d): ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

typedef struct table {
    const cr_game_def *def;
    int variant, players;
    int option;    /* a yes/no switch of the variant turned on, -1 none */
    cr_game *game; /* created on first use */
} table;

enum { MAX_TABLES = 256 };
static table tables[MAX_TABLES];
static int n_tables = -1;

static void list_tables(void)
{
    if (n_tables >= 0) return;
    n_tables = 0;
    for (int gi = 0; gi < cr_registry_count(); gi++) {
        const cr_game_def *def = cr_registry_get(gi);
        for (int v = 0; v < def->n_variants; v++)
            for (int n = def->variants[v].min_players;
                 n <= def->variants[v].max_players && n_tables < MAX_TABLES; n++)
                tables[n_tables++] = (table){def, v, n, -1, NULL};
    }
    /* then each variant's own yes/no switches, one at a time (DML-2015's),
     * after every plain table so that the plain tables keep their numbers */
    for (int gi = 0; gi < cr_registry_count(); gi++) {
        const cr_game_def *def = cr_registry_get(gi);
        for (int o = 0; o < def->n_options; o++) {
            const cr_option_def *od = &def->options[o];
            if (od->type != CR_OPT_BOOL || od->variant == NULL || od->def) continue;
            for (int v = 0; v < def->n_variants; v++) {
                if (strcmp(def->variants[v].name, od->variant) != 0) continue;
                for (int n = def->variants[v].min_players;
                     n <= def->variants[v].max_players && n_tables < MAX_TABLES; n++)
                    tables[n_tables++] = (table){def, v, n, o, NULL};
            }
        }
    }
}

int fuzz_table_count(void)
{
    list_tables();
    return n_tables;
}

const cr_game *fuzz_table(int i)
{
    list_tables();
    FUZZ_CHECK(i >= 0 && i < n_tables, "table %d of %d", i, n_tables);
    table *t = &tables[i];
    if (t->game == NULL) {
        char err[256] = "";
        cr_params p = {.num_players = t->players, .variant = t->def->variants[t->variant].name};
        if (t->option >= 0) cr_params_set(&p, t->def->options[t->option].key, "yes");
        t->game = cr_game_new(t->def, &p, err, sizeof err);
        FUZZ_CHECK(t->game != NULL, "%s %s %d players: %s", t->def->name, p.variant, t->players,
                   err);
    }
    return t->game;
}

cr_game *fuzz_game_for_position(const uint8_t *data, size_t size)
{
    list_tables();
    if (n_tables == 0) return NULL;
    const cr_game_def *def = tables[0].def;
    char variant[64] = "";
    int players = 0;
    /* the header's options that name a yes/no value (DML-2015's switches) */
    char opt_key[CR_MAX_OPTIONS][48];
    int n_opt = 0;
    const char *opt_val[CR_MAX_OPTIONS];

    json_t *root = json_loadb((const char *)data, size, 0, NULL);
    if (json_is_object(root)) {
        json_t *v = json_object_get(root, "game");
        const cr_game_def *named = json_is_string(v) ? cr_registry_find(json_string_value(v)) : 0;
        if (named != NULL) def = named;
        v = json_object_get(root, "variant");
        if (json_is_string(v)) snprintf(variant, sizeof variant, "%s", json_string_value(v));
        v = json_object_get(root, "players");
        if (json_is_integer(v) && json_integer_value(v) > 0 &&
            json_integer_value(v) <= CR_MAX_PLAYERS)
            players = (int)json_integer_value(v);
        else if (json_is_array(v) && json_array_size(v) <= CR_MAX_PLAYERS)
            players = (int)json_array_size(v);
        json_t *opts = json_object_get(root, "options"), *ov;
        const char *key;
        if (json_is_object(opts)) json_object_foreach(opts, key, ov)
            {
                if (n_opt >= CR_MAX_OPTIONS || !json_is_boolean(ov)) continue;
                snprintf(opt_key[n_opt], sizeof opt_key[0], "%s", key);
                opt_val[n_opt++] = json_is_true(ov) ? "yes" : "no";
            }
    }
    json_decref(root);

    /* The header may name a table that does not exist: the position then
     * goes to the loader of the closest table, which must refuse it. */
    cr_params p = {.num_players = players, .variant = variant[0] ? variant : NULL};
    for (int i = 0; i < n_opt; i++) cr_params_set(&p, opt_key[i], opt_val[i]);
    cr_game *g = cr_game_new(def, &p, NULL, 0);
    if (g == NULL) {
        p.n_options = 0;
        g = cr_game_new(def, &p, NULL, 0);
    }
    if (g == NULL) {
        p.variant = NULL;
        g = cr_game_new(def, &p, NULL, 0);
    }
    if (g == NULL) {
        p.num_players = 0;
        g = cr_game_new(def, &p, NULL, 0);
    }
    return g;
}

int fuzz_is_legal(const cr_game *g, const void *st, cr_action a)
{
    cr_action list[FUZZ_MAX_LIST];
    double prob[FUZZ_MAX_LIST];
    int who = g->def->current_player(g, st);
    if (who == CR_TERMINAL) return 0;
    if (who == CR_CHANCE) {
        int n = g->def->chance_outcomes(g, st, list, prob);
        for (int i = 0; i < n; i++)
            if (list[i] == a) return prob[i] > 0.0;
        return 0;
    }
    int n = g->def->legal_actions(g, st, list, NULL);
    for (int i = 0; i < n; i++)
        if (list[i] == a) return 1;
    return 0;
}

int fuzz_random_walk(const cr_game *g, void *st, cr_rng *rng, int steps)
{
    cr_action list[FUZZ_MAX_LIST];
    int done = 0;
    for (; done < steps; done++) {
        int who = g->def->current_player(g, st);
        if (who == CR_TERMINAL) break;
        cr_action a;
        if (who == CR_CHANCE) {
            a = cr_sample_chance(g, st, rng);
        } else {
            int n = g->def->legal_actions(g, st, list, NULL);
            FUZZ_CHECK(n > 0 && n <= g->max_legal, "seat %d has %d legal actions", who, n);
            a = list[cr_rng_below(rng, (uint32_t)n)];
        }
        g->def->apply(g, st, a, NULL);
    }
    return done;
}
