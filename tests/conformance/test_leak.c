/* test_leak.c — nothing produced for a seat names what is hidden from it.
 *
 * The oracle needs no knowledge of the game: whatever is produced for seat
 * s must be a function of what s may know.  So at every step of random
 * games, for the seat to act and one other seat in turn (so every seat is
 * checked at about every n-th step), the test draws a full state st2 consistent with
 * s's observation (the game's own sampler, which conformance checks keeps
 * s's observation unchanged) and renders everything s would be shown in
 * both the true state st and st2:
 *   - the observation as JSON and as text;
 *   - when s is to act: the prompt, the help, the legal list, every legal
 *     action's text and JSON;
 *   - error messages for texts s might submit (cr_seat_parse, and
 *     cr_apply_text, which a careless server could forward), with the
 *     outcome (accepted or refused, and which action);
 * Any difference means the output depends on something s does not know: a
 * leak.  (A seat-less cr_apply_text cannot pass this: whether a text is
 * legal tells a seat about the acting seat's hand.  That is why clients
 * take untrusted text through cr_seat_parse / cr_match_submit, which
 * refuse a seat that is not to act before parsing.)  Events are checked directly: an event whose
 * card a view may not see must render the same whatever that card is.
 *
 * The same checker runs on deliberately leaking renderers and must catch
 * them (an event renderer that ignores seen_by; the error message that
 * cr_apply_text built before issue 7, quoting the true state's prompt).
 *
 * CR_LEAK_GAMES=N overrides the number of games (default 2,000 over all
 * tables of every game); CR_LEAK_TABLES=TEXT plays only the tables whose
 * name ("GAME/VARIANT+SWITCH/NUMp", as it prints them) holds TEXT, the games
 * spread over them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/ctx.h"

#include "croupier/alloc.h"
#include "croupier/game.h"
#include "croupier/parts.h"
#include "croupier/rng.h"

enum { TEXT = 1 << 16, EVENTS = 4096, PROBES = 4, MAX_REPORTS = 5 };

/* How a seat's submitted text is answered: the checker compares these. */
typedef cr_status (*answer_fn)(const cr_game *g, const void *st, int seat, const char *text,
                               cr_action *out, char *err, size_t cap);

static cr_status answer_seat_parse(const cr_game *g, const void *st, int seat, const char *text,
                                   cr_action *out, char *err, size_t cap)
{
    return cr_seat_parse(g, st, seat, text, out, NULL, err, cap);
}

typedef struct checker {
    const cr_game *g;
    answer_fn answer;
    long leaks, checks;
    char *a, *b; /* TEXT each */
    void *obs, *obs2, *st2;
    cr_action *legal, *legal2;
} checker;

static void report(checker *c, int seat, const char *what, const char *x, const char *y)
{
    if (c->leaks++ < MAX_REPORTS)
        fprintf(stderr, "leak: seat %d, %s:\n  true state:   %.300s\n  sampled state: %.300s\n",
                seat, what, x, y);
}

static void same(checker *c, int seat, const char *what)
{
    c->checks++;
    if (strcmp(c->a, c->b) != 0) report(c, seat, what, c->a, c->b);
}

/* Renders for `seat` in st (into c->a) and st2 (into c->b) and compares. */
static void compare_views(checker *c, const void *st, const void *st2, int seat, cr_rng *rng)
{
    const cr_game *g = c->g;
    const cr_game_def *d = g->def;
    d->observe(g, st, seat, c->obs);
    d->observe(g, st2, seat, c->obs2);
    d->obs_to_json(g, c->obs, c->a, TEXT);
    d->obs_to_json(g, c->obs2, c->b, TEXT);
    same(c, seat, "observation JSON");
    d->obs_to_text(g, c->obs, c->a, TEXT);
    d->obs_to_text(g, c->obs2, c->b, TEXT);
    same(c, seat, "observation text");

    int who = d->current_player(g, st);
    if (who == seat) {
        d->prompt(g, st, c->a, TEXT);
        d->prompt(g, st2, c->b, TEXT);
        same(c, seat, "prompt");
        const cr_game_parts *parts = cr_parts(g);
        if (parts->help) { /* read from the observation: equal by construction, kept so */
            parts->help(g, c->obs, c->a, TEXT);
            parts->help(g, c->obs2, c->b, TEXT);
            same(c, seat, "help");
        }
        int n = d->legal_actions(g, st, c->legal, NULL),
            n2 = d->legal_actions(g, st2, c->legal2, NULL);
        snprintf(c->a, TEXT, "%d legal", n);
        snprintf(c->b, TEXT, "%d legal", n2);
        same(c, seat, "legal count");
        for (int i = 0; i < n && i < n2; i++) {
            snprintf(c->a, TEXT, "%d", (int)c->legal[i]);
            snprintf(c->b, TEXT, "%d", (int)c->legal2[i]);
            same(c, seat, "legal list");
            d->action_to_str(g, st, c->legal[i], c->a, TEXT);
            d->action_to_str(g, st2, c->legal[i], c->b, TEXT);
            same(c, seat, "action label");
            if (d->action_to_json) {
                d->action_to_json(g, st, c->legal[i], c->a, TEXT);
                d->action_to_json(g, st2, c->legal[i], c->b, TEXT);
                same(c, seat, "action JSON");
            }
        }
    }
    /* Texts the seat might submit: notation of random actions in either
     * state, and of the legal ones. */
    for (int k = 0; k < PROBES; k++) {
        char text[256];
        cr_action probe = (cr_action)cr_rng_below(rng, (uint32_t)g->num_actions);
        d->action_to_str(g, (k & 1) ? st2 : st, probe, text, sizeof text);
        if (who == seat && k == 0) {
            int n = d->legal_actions(g, st, c->legal, NULL);
            if (n > 0)
                d->action_to_str(g, st, c->legal[cr_rng_below(rng, (uint32_t)n)], text,
                                 sizeof text);
        }
        cr_action x = -1, y = -1;
        char ea[512] = "", eb[512] = "";
        cr_status ra = c->answer(g, st, seat, text, &x, ea, sizeof ea);
        cr_status rb = c->answer(g, st2, seat, text, &y, eb, sizeof eb);
        snprintf(c->a, TEXT, "%d %d %s", (int)ra, ra == CR_OK ? (int)x : -1, ea);
        snprintf(c->b, TEXT, "%d %d %s", (int)rb, rb == CR_OK ? (int)y : -1, eb);
        same(c, seat, "answer to a submitted text");
    }
}

/* An event whose card `view` may not see renders the same whatever the card. */
static void check_event(checker *c, const cr_event *e, int view)
{
    const cr_game *g = c->g;
    if (e->card < 0 || cr_event_visible(g, e, view)) return;
    cr_event other = *e;
    other.card = (int16_t)(e->card == 0 ? 1 : 0);
    g->def->event_to_str(g, e, view, c->a, TEXT);
    g->def->event_to_str(g, &other, view, c->b, TEXT);
    same(c, view, "event text");
    g->def->event_to_json(g, e, view, c->a, TEXT);
    g->def->event_to_json(g, &other, view, c->b, TEXT);
    same(c, view, "event JSON");
}

/* Whether option o of def is a switch of variant v, off by default. */
static int switch_of(const cr_game_def *def, int o, int v)
{
    const cr_option_def *od = &def->options[o];
    return od->type == CR_OPT_BOOL && od->variant && !od->def &&
           strcmp(od->variant, def->variants[v].name) == 0;
}

/* A table's name, "GAME/VARIANT/NUMp" or "GAME/VARIANT+SWITCH/NUMp", for
 * CR_LEAK_TABLES. */
static void table_label(const cr_game_def *def, int v, int o, int np, char *out, size_t cap)
{
    snprintf(out, cap, "%s/%s%s%s/%dp", def->name, def->variants[v].name, o >= 0 ? "+" : "",
             o >= 0 ? def->options[o].key : "", np);
}

/* Whether the table is one to play: every table, or, with
 * CR_LEAK_TABLES=TEXT, the tables whose name holds TEXT (a long run on a
 * few tables, e.g. one variant's name). */
static int table_wanted(const cr_game_def *def, int v, int o, int np)
{
    const char *want = getenv("CR_LEAK_TABLES");
    if (!want || !*want) return 1;
    char label[160];
    table_label(def, v, o, np, label, sizeof label);
    return strstr(label, want) != NULL;
}

/* Plays `games` random games spread over the tables of def (those
 * CR_LEAK_TABLES names); returns the leaks, and the tables in *n_tables. */
static long check_game(const cr_game_def *def, long games, answer_fn answer, long *checks,
                       int *n_tables)
{
    long leaks = 0;
    int tables = 0;
    /* each variant, then once with each yes/no switch of its own on */
    for (int v = 0; v < def->n_variants; v++)
        for (int o = -1; o < def->n_options; o++)
            for (int np = def->variants[v].min_players; np <= def->variants[v].max_players; np++)
                tables += (o < 0 || switch_of(def, o, v)) && table_wanted(def, v, o, np);
    *n_tables = tables;
    if (tables == 0) return 0;
    long per_table = (games + tables - 1) / tables;
    uint64_t seed = 1;
    for (int v = 0; v < def->n_variants; v++)
        for (int o = -1; o < def->n_options; o++)
            for (int np = def->variants[v].min_players; np <= def->variants[v].max_players; np++) {
                if (o >= 0 && !switch_of(def, o, v)) continue;
                if (!table_wanted(def, v, o, np)) continue;
                if (getenv("CR_LEAK_TABLES")) {
                    char label[160];
                    table_label(def, v, o, np, label, sizeof label);
                    fprintf(stderr, "leak: %s, %ld games\n", label, per_table);
                }
                char err[256];
                cr_params p = {.num_players = np, .variant = def->variants[v].name};
                if (o >= 0) cr_params_set(&p, def->options[o].key, "yes");
                cr_game *g = cr_game_new(def, &p, err, sizeof err);
                assert_non_null(g);
                checker c = {.g = g, .answer = answer};
                c.a = malloc(TEXT);
                c.b = malloc(TEXT);
                c.obs = malloc(g->obs_size);
                c.obs2 = malloc(g->obs_size);
                c.st2 = malloc(g->state_size);
                c.legal = malloc((size_t)g->max_legal * sizeof *c.legal);
                c.legal2 = malloc((size_t)g->max_legal * sizeof *c.legal2);
                void *st = malloc(g->state_size);
                cr_event *evbuf = malloc(EVENTS * sizeof *evbuf);
                cr_action *legal = malloc((size_t)g->max_legal * sizeof *legal);
                for (long k = 0; k < per_table; k++, seed++) {
                    cr_rng rng;
                    cr_rng_seed(&rng, seed, 7);
                    g->def->init(g, st);
                    for (int steps = 0; steps < 100000; steps++) {
                        int who = g->def->current_player(g, st);
                        if (who == CR_TERMINAL) break;
                        /* the seat to act, and one other seat in turn */
                        int other = (steps + (int)k) % g->num_players;
                        for (int s = 0; s < g->num_players; s++) {
                            if (s != who && s != other) continue;
                            g->def->observe(g, st, s, c.obs);
                            if (g->def->sample(g, c.obs, &rng, c.st2, test_ctx(g)) != CR_OK) {
                                fail_msg("%s: sample failed for seat %d", def->name, s);
                            }
                            compare_views(&c, st, c.st2, s, &rng);
                        }
                        cr_action a;
                        if (who == CR_CHANCE) {
                            a = cr_sample_chance(g, st, &rng);
                        } else {
                            int n = g->def->legal_actions(g, st, legal, NULL);
                            a = legal[cr_rng_below(&rng, (uint32_t)n)];
                        }
                        cr_events ev = {.buf = evbuf, .cap = EVENTS};
                        cr_ctx *cx = test_ctx(g); /* the scratch too (a game's apply may use it) */
                        cx->ev = &ev;
                        g->def->apply(g, st, a, cx);
                        cx->ev = NULL;
                        for (int i = 0; i < ev.len; i++) {
                            for (int s = 0; s < g->num_players; s++) check_event(&c, &ev.buf[i], s);
                            check_event(&c, &ev.buf[i], CR_SEAT_PUBLIC);
                        }
                    }
                }
                leaks += c.leaks;
                *checks += c.checks;
                free(c.a);
                free(c.b);
                free(c.obs);
                free(c.obs2);
                free(c.st2);
                free(c.legal);
                free(c.legal2);
                free(st);
                free(evbuf);
                free(legal);
                cr_game_free(g);
            }
    return leaks;
}

static long env_games(long def)
{
    const char *s = getenv("CR_LEAK_GAMES");
    return s && atol(s) > 0 ? atol(s) : def;
}

/* Every registered game: no leak over 2,000 random games and every seat. */
static void test_no_leaks(void **state)
{
    (void)state;
    for (int i = 0; i < cr_registry_count(); i++) {
        const cr_game_def *def = cr_registry_get(i);
        long checks = 0, games = env_games(2000);
        /* A costly game plays fewer (parts.h), and ten times fewer here:
         * every step renders the whole legal list twice per seat, and a
         * costly game may be thousands of steps with lists of hundreds of
         * actions (one of 2,500 steps: 2 games, ~300,000 comparisons). */
        if (def->parts && def->parts->test_cost > 1) {
            long div = 10L * def->parts->test_cost;
            games = games / div > 0 ? games / div : 1;
        }
        int tables = 0;
        long leaks = check_game(def, games, answer_seat_parse, &checks, &tables);
        if (tables == 0) continue; /* CR_LEAK_TABLES names none of this game's */
        fprintf(stderr, "%s: %ld games, %ld comparisons, %ld leaks\n", def->name, games, checks,
                leaks);
        assert_true(checks > 100000);
        assert_int_equal(leaks, 0);
    }
}

/* A deliberately leaking event renderer (it ignores who may see the card)
 * is caught. */
static size_t leaky_event_to_str(const cr_game *g, const cr_event *e, int seat, char *buf,
                                 size_t cap)
{
    (void)seat;
    return cr_registry_find(g->def->name)->event_to_str(g, e, CR_SEAT_OMNISCIENT, buf, cap);
}

/* The leaking variants of the games below are tried on the registry's
 * games in order, up to the first where the leak shows in 12 games (one
 * with cards some seat does not see: a game without hidden information
 * cannot leak).  Returns that game, or NULL when none shows it. */
static const cr_game_def *first_game_caught(const cr_game_def *(*leaky)(const cr_game_def *def,
                                                                        cr_game_def *copy),
                                            answer_fn answer)
{
    for (int i = 0; i < cr_registry_count(); i++) {
        cr_game_def copy;
        const cr_game_def *def = leaky(cr_registry_get(i), &copy);
        long checks = 0;
        int tables;
        if (check_game(def, 12, answer, &checks, &tables) > 0) return cr_registry_get(i);
    }
    return NULL;
}

static const cr_game_def *with_leaky_renderer(const cr_game_def *def, cr_game_def *copy)
{
    *copy = *def;
    copy->event_to_str = leaky_event_to_str;
    return copy;
}

static void test_catches_leaky_event_renderer(void **state)
{
    (void)state;
    assert_non_null(first_game_caught(with_leaky_renderer, answer_seat_parse));
}

/* The error cr_apply_text gave before issue 7: the true state's prompt,
 * whoever typed the text (it read back a face-down Seize offer). */
static cr_status old_apply_text_answer(const cr_game *g, const void *st, int seat, const char *text,
                                       cr_action *out, char *err, size_t cap)
{
    (void)seat;
    cr_action a = -1;
    cr_status rc = g->def->str_to_action(g, st, text, &a);
    if (rc == CR_OK && !cr_is_legal(g, st, a, NULL)) rc = CR_ERR_ILLEGAL;
    if (rc == CR_OK) {
        *out = a;
        return CR_OK;
    }
    char what[200] = "";
    if (g->def->current_player(g, st) >= 0) g->def->prompt(g, st, what, sizeof what);
    snprintf(err, cap, "'%s' is not legal now (%s)", text, what);
    return rc;
}

static const cr_game_def *as_it_is(const cr_game_def *def, cr_game_def *copy)
{
    (void)copy;
    return def;
}

static void test_catches_old_apply_text_leak(void **state)
{
    (void)state;
    assert_non_null(first_game_caught(as_it_is, old_apply_text_answer));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_catches_leaky_event_renderer),
        cmocka_unit_test(test_catches_old_apply_text_leak),
        cmocka_unit_test(test_no_leaks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
