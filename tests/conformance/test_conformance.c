/* test_conformance.c — the suite every registered game must pass (issue 2,
 * point 9; docs/conformance.md).
 *
 * Every game of the registry, every variant, every allowed player count,
 * plays random games to the end with legal random actions, chance drawn with
 * cr_sample_chance from a PCG32 seeded per game.  At every step:
 *
 *   - legal lists ascending, unique, in range, within max_legal, non-empty at
 *     a decision, empty at chance and terminal nodes; chance outcomes
 *     ascending, unique, within max_chance_outcomes, probabilities > 0
 *     summing to 1; the sampled outcome is one of them;
 *   - clone (memcpy of state_size) equals the original, and applying the same
 *     action to both (one with an event buffer, one without) gives equal bytes;
 *   - every apply writes at most g->max_events events (the game's proven
 *     bound) into a buffer larger than that bound, and drops none; the
 *     largest count seen is reported per table;
 *   - no allocation in legal_actions, chance_outcomes, apply and clone,
 *     counted both with cr_alloc_count() and by wrapping malloc/calloc/realloc
 *     at link time (-Wl,--wrap, see CMakeLists.txt);
 *   - every 17th step of every 3rd game, and at its end: serialize ->
 *     deserialize succeeds and gives the same bytes;
 *   - every 7th step and at the end, for each seat: observe -> sample ->
 *     observe gives the same observation bytes (the step phases rotate from
 *     game to game, so every step residue is covered);
 *   - the game's invariants (cr_game_parts.check_invariants) after every
 *     apply;
 *   - the game's own checks (cr_game_parts.conformance, parts.h), where the
 *     game has them: of every state before each step and of every sampled
 *     state (a card game: the cards over all zones are exactly the deck), of
 *     every observation checked above against a watcher that follows the
 *     events (what a seat may know of the cards it does not see), and of the
 *     end; each game's file says what its own checks are.
 *
 * At the end: returns in {0, 1} with at most one 1, scores finite; and a
 * second run with the same seed gives the same actions and final state.
 *
 * CR_CONFORMANCE_GAMES=N overrides the number of random games (soaks).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "support/ctx.h"

#include "croupier/alloc.h"
#include "croupier/game.h"
#include "croupier/parts.h"
#include "croupier/rng.h"

/* Default number of random games over all (game, variant, player count)
 * tables: about 45 s in a Release build on 2 cores, about 2 min 10 s under
 * ASan+UBSan (docs/conformance.md).  CR_CONFORMANCE_GAMES overrides it. */
#ifndef CR_CONFORMANCE_DEFAULT_GAMES
#define CR_CONFORMANCE_DEFAULT_GAMES 10000
#endif

enum {
    SERIALIZE_EVERY = 17, /* in one game of SERIALIZE_GAMES (JSON is 3/4 of the time) */
    SERIALIZE_GAMES = 3,
    OBSERVE_EVERY = 7,
    MAX_STEPS = 200000, /* a game longer than this is reported as not ending */
    EVENT_CAP = 8192,
    TEXT_CAP = 1 << 20,
    MAX_FAILURE_LINES = 40,
};

/* ------------------------------------------------- allocation counting */

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);

static volatile int counting;        /* set around the hot-path calls */
static volatile uint64_t raw_allocs; /* malloc/calloc/realloc calls while counting */

void *__wrap_malloc(size_t n)
{
    if (counting) raw_allocs++;
    return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
    if (counting) raw_allocs++;
    return __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
    if (counting) raw_allocs++;
    return __real_realloc(p, n);
}

/* ------------------------------------------------------------ failures */

typedef struct table {
    const cr_game *g;
    const char *game, *variant;
    int np;
    const cr_conformance *conf; /* the game's own checks, or NULL */
    char label[96];             /* the variant, and the switch a table turns on */
} table;

static long n_failures;

static void failf(const table *t, uint64_t seed, long step, const char *fmt, ...)
{
    n_failures++;
    if (n_failures > MAX_FAILURE_LINES) return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "conformance FAIL: game %s variant %s players %d seed %llu step %ld: %s\n",
            t->game, t->variant, t->np, (unsigned long long)seed, step, msg);
}

/* Inside a game loop: report and abandon this game. */
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            failf(t, seed, step, __VA_ARGS__);                                                     \
            goto out;                                                                              \
        }                                                                                          \
    } while (0)

/* ------------------------------------------------------------- buffers */

typedef struct bufs {
    unsigned char *st, *clone, *tmp, *samp;
    unsigned char *obs, *obs2;
    cr_action *legal, *outs;
    double *prob;
    cr_event *evbuf;
    char *text;
    void *watch;        /* the game's conformance watcher (parts.h) */
    cr_action *actions; /* the game's action list */
    size_t actions_cap;
} bufs;

static void bufs_init(bufs *b, const cr_game *g)
{
    memset(b, 0, sizeof *b);
    b->st = calloc(1, g->state_size);
    b->clone = calloc(1, g->state_size);
    b->tmp = calloc(1, g->state_size);
    b->samp = calloc(1, g->state_size);
    b->obs = calloc(1, g->obs_size ? g->obs_size : 1);
    b->obs2 = calloc(1, g->obs_size ? g->obs_size : 1);
    b->legal = calloc((size_t)g->max_legal + 1, sizeof *b->legal);
    b->outs = calloc((size_t)g->max_chance_outcomes + 1, sizeof *b->outs);
    b->prob = calloc((size_t)g->max_chance_outcomes + 1, sizeof *b->prob);
    b->evbuf = calloc(EVENT_CAP, sizeof *b->evbuf);
    b->text = malloc(TEXT_CAP);
    const cr_conformance *conf = cr_parts(g)->conformance;
    b->watch = calloc(1, conf && conf->watch_size ? conf->watch_size : 1);
    b->actions_cap = 4096;
    b->actions = malloc(b->actions_cap * sizeof *b->actions);
    assert_non_null(b->st);
    assert_non_null(b->text);
    assert_non_null(b->actions);
}

static void bufs_free(bufs *b)
{
    free(b->st), free(b->clone), free(b->tmp), free(b->samp), free(b->obs), free(b->obs2);
    free(b->legal), free(b->outs), free(b->prob), free(b->evbuf), free(b->text), free(b->watch);
    free(b->actions);
}

static void push_action(bufs *b, size_t n, cr_action a)
{
    if (n == b->actions_cap) {
        b->actions_cap *= 2;
        b->actions = realloc(b->actions, b->actions_cap * sizeof *b->actions);
        assert_non_null(b->actions);
    }
    b->actions[n] = a;
}

/* ------------------------------------------------------------ one game */

typedef struct game_result {
    size_t n_actions;
    long steps;
    int ok;
    int max_events;  /* the most events one apply wrote */
    int max_counted; /* the most events one apply made of those the game counts (conf->counted) */
} game_result;

static uint64_t actions_total;

static void count_on(uint64_t *a0)
{
    *a0 = cr_alloc_count();
    counting = 1;
}

/* Returns the allocations since count_on (both counters), 0 if none. */
static uint64_t count_off(uint64_t a0)
{
    counting = 0;
    uint64_t n = raw_allocs + (cr_alloc_count() - a0);
    raw_allocs = 0;
    return n;
}

/* Plays one game with every check; leaves the final state in b->st and the
 * actions in b->actions. */
static game_result play_checked(const table *t, uint64_t seed, long k, bufs *b)
{
    const cr_game *g = t->g;
    const cr_game_def *d = g->def;
    game_result r = {0, 0, 0, 0, 0};
    long step = 0;
    cr_rng rng, srng;
    cr_rng_seed(&rng, seed, 1);
    cr_rng_seed(&srng, seed, 2); /* the sampler's own generator */
    cr_events ev = {b->evbuf, EVENT_CAP, 0, 0};
    char err[256];
    const cr_conformance *conf = t->conf;
    uint64_t a0;

    d->init(g, b->st);
    if (conf && conf->start) {
        char why[256];
        CHECK(!conf->start(g, b->watch, b->st, why, sizeof why), "start: %s", why);
    }
    for (;;) {
        int who = d->current_player(g, b->st);
        CHECK(who == CR_TERMINAL || who == CR_CHANCE || (who >= 0 && who < g->num_players),
              "current_player returned %d", who);

        if (conf && conf->check_state) {
            char why[256];
            CHECK(!conf->check_state(g, b->st, why, sizeof why), "cards: %s", why);
        }

        /* serialize -> deserialize */
        /* in every SERIALIZE_GAMES-th game, with the phase rotating so that
         * every step residue gets its turn */
        if (k % SERIALIZE_GAMES == 0 &&
            ((step + k / SERIALIZE_GAMES) % SERIALIZE_EVERY == 0 || who == CR_TERMINAL)) {
            size_t len = d->serialize(g, b->st, b->text, TEXT_CAP);
            CHECK(len > 0 && len < TEXT_CAP, "serialize returned %zu", len);
            memset(b->tmp, 0xa5, g->state_size);
            cr_status rc = d->deserialize(g, b->tmp, b->text, len, err, sizeof err);
            CHECK(rc == CR_OK, "deserialize of serialize's output failed: %s", err);
            CHECK(memcmp(b->tmp, b->st, g->state_size) == 0,
                  "serialize -> deserialize does not give the same state bytes");
        }

        /* observations and the sampler */
        if (d->observe && ((step + k) % OBSERVE_EVERY == 0 || who == CR_TERMINAL)) {
            for (int seat = 0; seat < g->num_players; seat++) {
                d->observe(g, b->st, seat, b->obs);
                if (d->sample) {
                    cr_status rc = d->sample(g, b->obs, &srng, b->samp, test_ctx(g));
                    CHECK(rc == CR_OK, "sample failed for seat %d (status %d)", seat, (int)rc);
                    d->observe(g, b->samp, seat, b->obs2);
                    CHECK(memcmp(b->obs, b->obs2, g->obs_size) == 0,
                          "seat %d: observe -> sample -> observe differs", seat);
                    if (conf && conf->check_state) {
                        char why[256];
                        CHECK(!conf->check_state(g, b->samp, why, sizeof why),
                              "seat %d: sampled state: %s", seat, why);
                    }
                }
                if (conf && conf->check_observation) {
                    char why[512];
                    CHECK(
                        !conf->check_observation(g, b->watch, b->st, seat, b->obs, why, sizeof why),
                        "%s", why);
                }
            }
        }

        if (who == CR_TERMINAL) break;
        CHECK(step < MAX_STEPS, "no end after %d steps", MAX_STEPS);

        cr_action a;
        count_on(&a0);
        int n = d->legal_actions(g, b->st, b->legal, NULL);
        uint64_t na = count_off(a0);
        CHECK(na == 0, "legal_actions allocated %llu times", (unsigned long long)na);
        if (who == CR_CHANCE) {
            CHECK(n == 0, "legal_actions returned %d at a chance node", n);
            count_on(&a0);
            int m = d->chance_outcomes(g, b->st, b->outs, b->prob);
            na = count_off(a0);
            CHECK(na == 0, "chance_outcomes allocated %llu times", (unsigned long long)na);
            CHECK(m >= 1 && m <= g->max_chance_outcomes, "%d chance outcomes (max %d)", m,
                  g->max_chance_outcomes);
            double sum = 0.0;
            for (int i = 0; i < m; i++) {
                CHECK(b->outs[i] >= 0 && b->outs[i] < g->num_actions,
                      "chance outcome %d out of range", b->outs[i]);
                CHECK(i == 0 || b->outs[i] > b->outs[i - 1],
                      "chance outcomes not ascending and unique at %d", i);
                CHECK(b->prob[i] > 0.0 && b->prob[i] <= 1.0 && isfinite(b->prob[i]),
                      "chance outcome %d has probability %g", b->outs[i], b->prob[i]);
                sum += b->prob[i];
            }
            CHECK(fabs(sum - 1.0) < 1e-9, "chance probabilities sum to %.17g", sum);
            a = cr_sample_chance(g, b->st, &rng);
            int found = 0;
            for (int i = 0; i < m && !found; i++) found = b->outs[i] == a;
            CHECK(found, "cr_sample_chance returned %d, not an outcome", a);
        } else {
            CHECK(n >= 1 && n <= g->max_legal, "%d legal actions (max %d) for seat %d", n,
                  g->max_legal, who);
            for (int i = 0; i < n; i++) {
                CHECK(b->legal[i] >= 0 && b->legal[i] < g->num_actions,
                      "legal action %d out of range", b->legal[i]);
                CHECK(i == 0 || b->legal[i] > b->legal[i - 1],
                      "legal actions not ascending and unique at %d", i);
            }
            a = b->legal[cr_rng_below(&rng, (uint32_t)n)];
        }

        /* clone, then the same action on both */
        count_on(&a0);
        memcpy(b->clone, b->st, g->state_size);
        na = count_off(a0);
        CHECK(na == 0, "clone allocated");
        CHECK(memcmp(b->clone, b->st, g->state_size) == 0, "clone differs from the original");
        ev.len = 0;
        ev.dropped = 0;
        cr_ctx *cx = test_ctx(g); /* a full context: a game's apply may use the scratch */
        count_on(&a0);
        cx->ev = &ev;
        d->apply(g, b->st, a, cx);
        cx->ev = NULL;
        d->apply(g, b->clone, a, cx);
        na = count_off(a0);
        CHECK(na == 0, "apply of action %d allocated %llu times", a, (unsigned long long)na);
        CHECK(ev.dropped == 0, "apply dropped %d events (buffer of %d)", ev.dropped, EVENT_CAP);
        /* max_events is a proven bound (game.h): every apply stays within it */
        CHECK(ev.len <= g->max_events, "action %d wrote %d events, more than max_events = %d", a,
              ev.len, g->max_events);
        if (ev.len > r.max_events) r.max_events = ev.len;
        CHECK(memcmp(b->clone, b->st, g->state_size) == 0,
              "action %d applied to a clone (without events) gives a different state", a);
        if (conf && conf->events) { /* the watcher follows the events */
            int counted = conf->events(g, b->watch, &ev);
            if (counted > r.max_counted) r.max_counted = counted;
        }
        if (cr_parts(g)->check_invariants) { /* the game's invariants, every step */
            char why[256];
            CHECK(!cr_parts(g)->check_invariants(g, b->st, why, sizeof why),
                  "after action %d: invariant broken: %s", a, why);
        }
        push_action(b, r.n_actions++, a);
        step++;
    }

    /* the end */
    {
        double ret[CR_MAX_PLAYERS], sum = 0.0;
        cr_result res;
        int n = d->legal_actions(g, b->st, b->legal, NULL);
        CHECK(n == 0, "legal_actions returned %d at the end", n);
        d->returns(g, b->st, ret);
        d->result(g, b->st, &res);
        int n_win = __builtin_popcount(res.winners);
        for (int p = 0; p < g->num_players; p++) {
            /* returns share 1 among the winners; ranks agree with the winners */
            double want = (res.winners >> p & 1) ? 1.0 / n_win : 0.0;
            CHECK(fabs(ret[p] - want) < 1e-12, "returns[%d] = %g, winners mask %#x", p, ret[p],
                  res.winners);
            sum += ret[p];
            CHECK(res.rank[p] >= 1 && res.rank[p] <= g->num_players, "rank[%d] = %d", p,
                  res.rank[p]);
            if (res.winners >> p & 1)
                CHECK(res.rank[p] == 1, "winner %d has rank %d", p, res.rank[p]);
        }
        CHECK(res.winners == 0 || fabs(sum - 1.0) < 1e-12, "returns sum to %g", sum);
        CHECK(res.winners < (1u << g->num_players), "winners mask %#x", res.winners);
        if (conf && conf->check_end) {
            char why[256];
            CHECK(!conf->check_end(g, b->st, ret, why, sizeof why), "%s", why);
        }
    }
    r.ok = 1;
out:
    r.steps = step;
    return r;
}

/* The same game without checks: the actions and the final state only. */
static int replay_same_seed(const table *t, uint64_t seed, bufs *b, size_t n_actions)
{
    const cr_game *g = t->g;
    const cr_game_def *d = g->def;
    cr_rng rng;
    cr_rng_seed(&rng, seed, 1);
    long step = 0;
    int ok = 0;
    d->init(g, b->tmp);
    for (;;) {
        int who = d->current_player(g, b->tmp);
        if (who == CR_TERMINAL) break;
        CHECK(step < (long)n_actions, "the second run with the same seed goes on past %zu actions",
              n_actions);
        cr_action a;
        if (who == CR_CHANCE) {
            a = cr_sample_chance(g, b->tmp, &rng);
        } else {
            int n = d->legal_actions(g, b->tmp, b->legal, NULL);
            CHECK(n >= 1, "no legal action in the second run");
            a = b->legal[cr_rng_below(&rng, (uint32_t)n)];
        }
        CHECK(a == b->actions[step], "the second run with the same seed chose %d, the first %d", a,
              b->actions[step]);
        d->apply(g, b->tmp, a, test_ctx(g));
        step++;
    }
    CHECK((size_t)step == n_actions,
          "the second run with the same seed ended after %ld actions, the first after %zu", step,
          n_actions);
    CHECK(memcmp(b->tmp, b->st, g->state_size) == 0,
          "the second run with the same seed ends in a different state");
    ok = 1;
out:
    return ok;
}

/* ------------------------------------------------------------- the test */

static long games_wanted(void)
{
    const char *e = getenv("CR_CONFORMANCE_GAMES");
    if (e && *e) {
        char *end;
        long v = strtol(e, &end, 10);
        if (*end == '\0' && v > 0) return v;
        fprintf(stderr, "conformance: ignoring CR_CONFORMANCE_GAMES=%s\n", e);
    }
    return CR_CONFORMANCE_DEFAULT_GAMES;
}

static void test_every_game(void **unused)
{
    (void)unused;
    enum { MAX_TABLES = 256 };
    table tables[MAX_TABLES];
    int nt = 0;
    char err[256];

    for (int gi = 0; gi < cr_registry_count(); gi++) {
        const cr_game_def *def = cr_registry_get(gi);
        assert_non_null(def);
        assert_true(def->n_variants >= 1);
        for (int v = 0; v < def->n_variants; v++) {
            const cr_variant *var = &def->variants[v];
            assert_true(var->min_players >= 1 && var->min_players <= var->max_players &&
                        var->max_players <= CR_MAX_PLAYERS);
            /* the variant as it is, then once with each yes/no switch of its
             * own turned on (a variant's historic switches) */
            for (int o = -1; o < def->n_options; o++) {
                const cr_option_def *od = o >= 0 ? &def->options[o] : NULL;
                if (od && (od->type != CR_OPT_BOOL || od->variant == NULL ||
                           strcmp(od->variant, var->name) != 0 || od->def))
                    continue;
                for (int np = var->min_players; np <= var->max_players; np++) {
                    cr_params p = {.num_players = np, .variant = var->name};
                    if (od) cr_params_set(&p, od->key, "yes");
                    cr_game *g = cr_game_new(def, &p, err, sizeof err);
                    if (g == NULL) {
                        fprintf(stderr,
                                "conformance FAIL: game %s variant %s players %d: cr_game_new: "
                                "%s\n",
                                def->name, var->name, np, err);
                        n_failures++;
                        continue;
                    }
                    assert_true(nt < MAX_TABLES);
                    table *t = &tables[nt++];
                    *t = (table){g, def->name, t->label, np, cr_parts(g)->conformance, ""};
                    snprintf(t->label, sizeof t->label, "%s%s%s", var->name, od ? "+" : "",
                             od ? od->key : "");
                    /* the buffer must outsize the bound, so an apply beyond it is seen */
                    assert_true(g->max_events > 0 && g->max_events < EVENT_CAP);
                }
            }
        }
    }
    assert_true(nt > 0);

    long want = games_wanted();
    long games = 0, games_failed = 0;
    uint64_t steps = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    /* Games spread evenly over the tables of ordinary cost, the first ones
     * taking the rest; a costly game's tables play `test_cost` times fewer
     * (parts.h), so adding one leaves the others' counts as they were. */
    int n_plain = 0;
    for (int ti = 0; ti < nt; ti++) n_plain += cr_parts(tables[ti].g)->test_cost <= 1;
    if (n_plain == 0) n_plain = nt;
    /* CR_CONFORMANCE_REPLAY=TABLE:SEED:K plays just the failing game a
     * failure line names (TABLE as printed, "GAME/VARIANT/NUMp";
     * K its number in the table's run), to debug it alone */
    char replay_table[96] = "";
    unsigned long long replay_seed = 0;
    long replay_k = 0;
    const char *rep = getenv("CR_CONFORMANCE_REPLAY");
    if (rep && sscanf(rep, "%95[^:]:%llu:%ld", replay_table, &replay_seed, &replay_k) != 3) {
        fprintf(stderr, "conformance: ignoring CR_CONFORMANCE_REPLAY=%s (TABLE:SEED:K)\n", rep);
        replay_table[0] = '\0';
    }
    for (int ti = 0; ti < nt; ti++) {
        const table *t = &tables[ti];
        if (replay_table[0]) {
            char label[160];
            snprintf(label, sizeof label, "%s/%s/%dp", t->game, t->variant, t->np);
            if (strcmp(label, replay_table) != 0) continue;
            bufs b;
            bufs_init(&b, t->g);
            game_result r = play_checked(t, replay_seed, replay_k, &b);
            printf("conformance: replayed %s seed %llu k %ld: %s, %ld actions\n", label,
                   replay_seed, replay_k, r.ok ? "ok" : "FAILED", (long)r.steps);
            games++;
            bufs_free(&b);
            continue;
        }
        long share = want / n_plain + (ti < want % n_plain ? 1 : 0);
        int cost = cr_parts(t->g)->test_cost;
        if (cost > 1) share = share / cost > 0 ? share / cost : 1;
        bufs b;
        bufs_init(&b, t->g);
        long before = n_failures, tsteps = 0;
        int max_events = 0, max_counted = 0;
        for (long k = 0; k < share; k++) {
            uint64_t seed = ((uint64_t)ti << 32) ^ (uint64_t)(k * 2654435761u + 1);
            game_result r = play_checked(t, seed, k, &b);
            games++;
            steps += (uint64_t)r.steps;
            tsteps += r.steps;
            if (r.max_events > max_events) max_events = r.max_events;
            if (r.max_counted > max_counted) max_counted = r.max_counted;
            if (r.ok && !replay_same_seed(t, seed, &b, r.n_actions)) r.ok = 0;
            if (!r.ok) games_failed++;
        }
        printf("conformance: %s/%s/%dp: %ld games, %ld actions, at most %d events in one apply "
               "(max_events %d)",
               t->game, t->variant, t->np, share, tsteps, max_events, t->g->max_events);
        if (t->conf && t->conf->counted)
            printf(", of them at most %d %s", max_counted, t->conf->counted);
        printf("%s\n", n_failures > before ? " (FAILURES)" : "");
        bufs_free(&b);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    actions_total = steps;
    printf("conformance: %ld games, %llu actions, %ld failures (%ld failing games, %d tables, %.1f "
           "s)\n",
           games, (unsigned long long)steps, n_failures, games_failed, nt, secs);
    fflush(stdout);
    for (int ti = 0; ti < nt; ti++) cr_game_free((cr_game *)tables[ti].g);
    assert_int_equal(n_failures, 0);
}

/* Games that once failed, replayed by name every run (the default run of
 * test_every_game does not meet them):
 *  - 18dracula/medieval/4p seed 131024753858: at step 3136 a rampage has
 *    214,300 routes, more than the context's scratch holds; the router
 *    used to allocate a workspace of its own there. */
static void test_known_games(void **unused)
{
    (void)unused;
    static const struct {
        const char *game, *variant;
        int np;
        uint64_t seed;
        long k;
    } known[] = {{"18dracula", "medieval", 4, 131024753858ull, 0}};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        const cr_game_def *def = cr_registry_find(known[i].game);
        assert_non_null(def);
        cr_params p = {.num_players = known[i].np, .variant = known[i].variant};
        char err[256];
        cr_game *g = cr_game_new(def, &p, err, sizeof err);
        assert_non_null(g);
        table t = {g, known[i].game, known[i].variant, known[i].np, 0, ""};
        snprintf(t.label, sizeof t.label, "%s", known[i].variant);
        bufs b;
        bufs_init(&b, g);
        long before = n_failures;
        game_result r = play_checked(&t, known[i].seed, known[i].k, &b);
        printf("conformance: known game %s/%s/%dp seed %llu: %s, %ld actions\n", known[i].game,
               known[i].variant, known[i].np, (unsigned long long)known[i].seed,
               r.ok ? "ok" : "FAILED", (long)r.steps);
        bufs_free(&b);
        cr_game_free(g);
        assert_true(r.ok);
        assert_int_equal(n_failures, before);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_games),
        cmocka_unit_test(test_every_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
