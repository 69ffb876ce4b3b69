/* analysis.c — the coach of croupier/analysis.h: one seat's decisions in a
 * recorded game, each evaluated by an even-root ISMCTS from that seat's
 * observation.
 *
 * The analyser owns one search bot for the seat, made once
 * ("ismcts:iters=N,threads=T,root=even,reward=win"), and reseeds it before
 * each decision from (seed, step), so that a decision's evaluation depends
 * only on the options, the step and what the seat observed.  The record is
 * replayed with the core's checked apply on a state the analyser owns; the
 * bot is handed observe(state, seat), never the state.
 */
#include "croupier/analysis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "croupier/alloc.h"
#include "croupier/bot.h"
#include "croupier/rng.h"

struct cr_analyser {
    const cr_game *g;
    int seat;
    cr_analysis_opts o;
    cr_bot *bot;
    void *obs;
    cr_action *legal;
    cr_bot_choice *choices;
};

static void defaults(cr_analysis_opts *o, const cr_analysis_opts *in)
{
    memset(o, 0, sizeof *o);
    if (in) *o = *in;
    if (o->iters <= 0) o->iters = 1000;
    if (o->threads <= 0) o->threads = 1;
    if (o->doubtful <= 0) o->doubtful = 0.04;
    if (o->blunder <= 0) o->blunder = 0.10;
}

cr_analyser *cr_analyser_new(const cr_game *g, int seat, const cr_analysis_opts *opts, char *err,
                             size_t errcap)
{
    if (seat < 0 || seat >= g->num_players) {
        if (err && errcap)
            snprintf(err, errcap, "no seat %d in a %d-player game", seat, g->num_players);
        return NULL;
    }
    cr_analyser *a = cr_calloc(1, sizeof *a);
    if (!a) goto nomem;
    a->g = g;
    a->seat = seat;
    defaults(&a->o, opts);
    char spec[128];
    snprintf(spec, sizeof spec, "ismcts:iters=%ld,threads=%d,root=even,reward=win", a->o.iters,
             a->o.threads);
    a->bot = cr_bot_new(g, spec, seat, a->o.seed, err, errcap);
    if (!a->bot) {
        cr_free(a);
        return NULL;
    }
    size_t ml = (size_t)(g->max_legal > 0 ? g->max_legal : 1);
    a->obs = cr_alloc(g->obs_size ? g->obs_size : 1);
    a->legal = cr_alloc(ml * sizeof *a->legal);
    a->choices = cr_alloc(ml * sizeof *a->choices);
    if (!a->obs || !a->legal || !a->choices) {
        cr_analyser_free(a);
        goto nomem;
    }
    return a;
nomem:
    if (err && errcap) snprintf(err, errcap, "out of memory");
    return NULL;
}

void cr_analyser_free(cr_analyser *a)
{
    if (!a) return;
    cr_bot_free(a->bot);
    cr_free(a->obs);
    cr_free(a->legal);
    cr_free(a->choices);
    cr_free(a);
}

/* The seed of the search at `step`: the analysis's seed and the step,
 * mixed (splitmix64's finaliser). */
static uint64_t step_seed(uint64_t seed, int step)
{
    uint64_t z = seed + 0x9e3779b97f4a7c15ull * (uint64_t)(step + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Standard error of a mean return in [0, 1] over n samples, bounded by the
 * Bernoulli variance of that mean (returns in [0,1] vary at most that much). */
static double mean_se(double p, uint64_t n)
{
    if (n == 0) return 0.5;
    if (p < 0) p = 0;
    if (p > 1) p = 1;
    return sqrt(p * (1 - p) / (double)n);
}

int cr_analyser_decision(cr_analyser *a, const void *st, cr_action played, int step,
                         cr_analysis_entry *out)
{
    const cr_game *g = a->g;
    if (g->def->current_player(g, st) != a->seat) return 0;
    int n = g->def->legal_actions(g, st, a->legal, NULL);
    if (n < 2) return 0;
    g->def->observe(g, st, a->seat, a->obs);
    cr_bot_reseed(a->bot, step_seed(a->o.seed, step));
    cr_bot_act(a->bot, a->obs, a->legal, n);
    int k = cr_bot_last_choices(a->bot, a->choices, g->max_legal);
    if (k < 2) return 0;
    int pi = -1, bi = -1;
    for (int i = 0; i < k; i++) {
        if (a->choices[i].action == played) pi = i;
        if (a->choices[i].visits == 0) continue;
        if (bi < 0 || a->choices[i].value > a->choices[bi].value) bi = i;
    }
    if (pi < 0 || bi < 0) return 0; /* a take-back: not among the choices */
    const cr_bot_choice *p = &a->choices[pi], *b = &a->choices[bi];
    memset(out, 0, sizeof *out);
    out->step = step;
    out->n_choices = k;
    out->played = played;
    out->best = b->action;
    out->played_win = p->value;
    out->best_win = b->value;
    out->loss = pi == bi ? 0 : b->value - p->value;
    double sp = mean_se(p->value, p->visits), sb = mean_se(b->value, b->visits);
    out->stderr_loss = pi == bi ? 0 : sqrt(sp * sp + sb * sb);
    int clear = out->loss > 2 * out->stderr_loss;
    out->mark = clear && out->loss >= a->o.blunder    ? CR_MOVE_BLUNDER
                : clear && out->loss >= a->o.doubtful ? CR_MOVE_DOUBTFUL
                                                      : CR_MOVE_FINE;
    return 1;
}

cr_status cr_analyse_record(const cr_game *g, const cr_record *r, int seat,
                            const cr_analysis_opts *opts, cr_analysis_entry **out, int *n_out,
                            cr_analysis_summary *sum, cr_analysis_progress progress, void *ctx,
                            char *err, size_t errcap)
{
    *out = NULL;
    *n_out = 0;
    memset(sum, 0, sizeof *sum);
    cr_analyser *a = cr_analyser_new(g, seat, opts, err, errcap);
    if (!a) return seat < 0 || seat >= g->num_players ? CR_ERR_INVALID : CR_ERR_NOMEM;
    void *st = cr_alloc(g->state_size);
    cr_ctx *cx = cr_ctx_new(g);
    cr_analysis_entry *list =
        cr_alloc((size_t)(r->n_actions > 0 ? r->n_actions : 1) * sizeof *list);
    cr_status rc = CR_OK;
    if (!st || !cx || !list) {
        rc = CR_ERR_NOMEM;
        if (err && errcap) snprintf(err, errcap, "out of memory");
        goto done;
    }
    g->def->init(g, st);
    int n = 0, decision = 0;
    for (int i = 0; i < r->n_actions; i++) {
        if (g->def->current_player(g, st) == seat) {
            cr_analysis_entry e;
            if (cr_analyser_decision(a, st, r->actions[i], i, &e)) {
                e.decision = decision;
                list[n++] = e;
                sum->decisions++;
                if (e.loss > 2 * e.stderr_loss) sum->total_loss += e.loss; /* noise is no error */
                sum->doubtful += e.mark == CR_MOVE_DOUBTFUL;
                sum->blunders += e.mark == CR_MOVE_BLUNDER;
            }
            decision++;
        }
        if (cr_apply_checked(g, st, r->actions[i], cx) != CR_OK) {
            rc = CR_ERR_ILLEGAL;
            if (err && errcap) snprintf(err, errcap, "action %d of the record is illegal", i + 1);
            goto done;
        }
        if (progress && progress(ctx, i + 1, r->n_actions)) {
            rc = CR_ERR_ILLEGAL;
            if (err && errcap) snprintf(err, errcap, "stopped");
            goto done;
        }
    }
    sum->error_rate = sum->decisions ? 1000.0 * sum->total_loss / sum->decisions : 0;
    *out = list;
    *n_out = n;
    list = NULL;
done:
    cr_free(list);
    cr_ctx_free(cx);
    cr_free(st);
    cr_analyser_free(a);
    return rc;
}
