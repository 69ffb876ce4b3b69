/* ismcts.c — single-observer information-set Monte Carlo tree search
 * (Cowling, Powley & Whitehouse 2012, "SO-ISMCTS").
 *
 * The tree is built over the searching seat's information set: its nodes
 * are keyed by the action that leads to them and the seat that took it, not
 * by states.  By default the tree is "open loop" over chance: a die roll or a
 * draw is sampled and applied without a node of its own, so the statistics
 * of a decision gather over every outcome that precedes it instead of being
 * split among them (chance=tree restores a node per outcome).  Each
 * iteration:
 *   1. determinize: draw a full state consistent with the seat's observation
 *      (g->def->sample);
 *   2. select: walk down while every action legal in this determinization
 *      has a child, choosing by UCB1 with availability counts (a child's
 *      exploration term uses the number of times it was *available*, not
 *      its parent's visits);
 *   3. expand: add one child for an untried legal action (none once the
 *      arena is full);
 *   4. roll out with the random or heuristic policy, apply(..., NULL) (no
 *      events), to the end or for `cutoff` actions, after which the game's
 *      scores stand in for the result (1 shared by the leaders);
 *   5. back up each node's mover's return.
 * Withdraw actions (is_withdraw) are skipped in the tree and in rollouts
 * whenever another action exists.
 *
 * Threads: root parallelization.  Each worker owns a tree arena, a state
 * buffer and a generator, all allocated at bot creation; the root visit
 * counts are summed over workers and the most visited legal action wins.
 * A counted search of one thread stops as soon as the iterations left
 * could no longer change that winner (stop=early, the default; settled()):
 * the same move, sooner.
 * With `iters`, the workers split the iterations and the result is
 * reproducible for a given seed and thread count; with `ms` it depends on
 * the machine's speed.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/bot_internal.h"
#include "bots/mcts/tree.h"
#include "croupier/alloc.h"

enum { ISMCTS_MAX_THREADS = 64, ROLLOUT_CAP = 1000000 };

typedef struct ismcts_worker {
    mcts_tree tree;
    cr_rng rng;
    void *st;         /* g->state_size bytes */
    cr_action *legal; /* g->max_legal */
    cr_ctx *cx;       /* this worker's context: the game's scratch, no events */
    uint32_t *path;   /* tree.cap + 1 node indices */
    /* per search */
    const void *obs;
    const cr_action *root_legal;
    int n_root;
    long iters; /* budget, or -1 for time */
    double deadline;
    double hard;           /* the time cap (cr_bot_set_time_cap) as a deadline; 0: none */
    int capped;            /* this search stopped at `hard` */
    int early;             /* stop=early applies to this search (see worker_main) */
    cr_action policy_pick; /* with prior=N, the rollout policy's move at the root; else -1 */
    uint64_t done, rollout_actions, sample_fail;
    struct ismcts_bot *owner;
} ismcts_worker;

typedef struct ismcts_bot {
    const cr_game *g;
    int seat;
    long iters; /* total per move; 0 when timed */
    double ms;  /* per move; 0 when counted */
    int threads;
    int chance_nodes; /* 1: the tree branches on chance outcomes (closed loop) */
    long cutoff;      /* rollout length before scoring; 0 = to the end */
    int opp_policy;   /* 1: the other seats play the rollout policy, not the tree */
    int margin;       /* 1: reward=margin */
    double c;
    uint32_t nodes; /* arena per worker */
    cr_policy_fn rollout;
    int root_even; /* root=even: every root action gets the same share of iterations */
    /* prior=N: the move played is the root action with the most visits,
     * the rollout policy's own choice counted with N visits more: the
     * search departs from the policy only where it has seen better by that
     * margin (0: none; needs a guided search) */
    long prior;
    /* stop=early (the default): a counted search of one thread stops once
     * the remaining iterations cannot change the move it plays (worker_main) */
    int stop_early;
    /* The root of the last search (cr_bot_last_choices): g->max_legal
     * entries allocated at creation, n_choices of them filled. */
    cr_bot_choice *choices;
    int n_choices;
    ismcts_worker w[ISMCTS_MAX_THREADS];
} ismcts_bot;

static int parse_long(const char *v, long lo, long hi, long *out)
{
    char *end;
    long x = strtol(v, &end, 10);
    if (*v == '\0' || *end != '\0' || x < lo || x > hi) return 0;
    *out = x;
    return 1;
}

/* A parameter with two named values: *out = 0 for no, 1 for yes. */
static int parse_pair(const char *v, const char *no, const char *yes, int *out)
{
    if (strcmp(v, no) != 0 && strcmp(v, yes) != 0) return 0;
    *out = strcmp(v, yes) == 0;
    return 1;
}

static void bad(char *err, size_t cap, const char *key, const char *val)
{
    if (err && cap)
        snprintf(err, cap,
                 "ismcts: bad parameter %s=%s (iters=N, ms=N, threads=N, "
                 "rollout=random|heuristic, opponents=tree|policy, reward=win|margin, cutoff=N, "
                 "chance=open|tree, c=X, nodes=N, prior=N, stop=early|full)",
                 key, val);
}

static int is_withdraw(const cr_game *g, const void *st, cr_action a)
{
    return g->def->is_withdraw && g->def->is_withdraw(g, st, a);
}

/* Copies legal into out without withdraw actions, unless nothing else is left. */
static int drop_withdraw(const cr_game *g, const void *st, const cr_action *legal, int n,
                         cr_action *out)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!is_withdraw(g, st, legal[i])) out[k++] = legal[i];
    if (k == 0) {
        memmove(out, legal, (size_t)n * sizeof *out);
        k = n;
    }
    return k;
}

static int in_sorted(const cr_action *a, int n, cr_action x)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (a[mid] == x) return 1;
        if (a[mid] < x)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return 0;
}

/* The value of a rollout cut off before the end: the game's scores now
 * (a card game's Victory Points), 1 shared among the seats with the highest. */
static void score_leaders(const cr_game *g, const void *st, double *ret)
{
    cr_result res;
    g->def->result(g, st, &res);
    double sc[CR_MAX_PLAYERS];
    for (int p = 0; p < g->num_players; p++) sc[p] = res.score[p];
    double best = sc[0];
    for (int p = 1; p < g->num_players; p++)
        if (sc[p] > best) best = sc[p];
    int k = 0;
    for (int p = 0; p < g->num_players; p++) k += sc[p] == best;
    for (int p = 0; p < g->num_players; p++) ret[p] = sc[p] == best ? 1.0 / k : 0.0;
}

/* reward=margin: half the result, half how far each seat's score stands
 * above the best of the others (a logistic of the margin, as wide as the
 * game's score_scale), so that near wins and near losses are told apart. */
static void add_margin(const cr_game *g, const void *st, double *ret)
{
    cr_result res;
    g->def->result(g, st, &res);
    double sc[CR_MAX_PLAYERS], width = g->def->score_scale > 0 ? g->def->score_scale : 1;
    for (int p = 0; p < g->num_players; p++) sc[p] = res.score[p];
    for (int p = 0; p < g->num_players; p++) {
        double best_other = -1e300;
        for (int q = 0; q < g->num_players; q++)
            if (q != p && sc[q] > best_other) best_other = sc[q];
        ret[p] = 0.5 * ret[p] + 0.5 / (1.0 + exp(-(sc[p] - best_other) / width));
    }
}

/* One ISMCTS iteration (see the file comment). */
static void iterate(ismcts_worker *w)
{
    ismcts_bot *ib = w->owner;
    const cr_game *g = ib->g;
    mcts_tree *t = &w->tree;
    void *st = w->st;
    if (g->def->sample(g, w->obs, &w->rng, st, w->cx) != CR_OK) {
        w->sample_fail++;
        return;
    }
    cr_for_search(g, st); /* the determinization is played, never observed */
    uint32_t node = 0;
    int depth = 0;
    w->path[depth++] = 0;
    int expanded = 0;

    while (!expanded) {
        int p = g->def->current_player(g, st);
        if (p == CR_TERMINAL) break;
        if (p == CR_CHANCE) {
            cr_action a = cr_sample_chance(g, st, &w->rng);
            g->def->apply(g, st, a, w->cx);
            if (!ib->chance_nodes) /* open loop: the tree does not branch on chance */
                continue;
            uint32_t child = mcts_tree_find(t, node, a, CR_CHANCE);
            if (!child) {
                child = mcts_tree_add(t, node, a, CR_CHANCE);
                expanded = 1;
            }
            if (!child) break;
            node = child;
            w->path[depth++] = node;
            continue;
        }
        if (ib->opp_policy && p != ib->seat) { /* the others play the rollout policy */
            int n = g->def->legal_actions(g, st, w->legal, w->cx);
            g->def->apply(g, st, ib->rollout(g, st, p, w->legal, n, &w->rng), w->cx);
            continue;
        }
        int n;
        const cr_action *legal;
        if (depth == 1) { /* the root: the legal list the bot was given */
            legal = w->root_legal;
            n = w->n_root;
        } else {
            int raw = g->def->legal_actions(g, st, w->legal, w->cx);
            n = drop_withdraw(g, st, w->legal, raw, w->legal);
            legal = w->legal;
        }
        /* Availability, and whether an untried action exists. */
        int present = 0;
        for (uint32_t c = t->nodes[node].child; c; c = t->nodes[c].sibling)
            if (t->nodes[c].player == p && in_sorted(legal, n, t->nodes[c].action)) {
                t->nodes[c].avail++;
                present++;
            }
        if (present < n && !t->full) {
            int untried = n - present;
            int k = (int)cr_rng_below(&w->rng, (uint32_t)untried);
            cr_action a = legal[0];
            for (int i = 0; i < n; i++)
                if (!mcts_tree_find(t, node, legal[i], p) && k-- == 0) {
                    a = legal[i];
                    break;
                }
            uint32_t child = mcts_tree_add(t, node, a, p);
            g->def->apply(g, st, a, w->cx);
            if (child) w->path[depth++] = child;
            expanded = 1;
            break;
        }
        if (present == 0) /* the arena is full and nothing was tried here */
            break;
        /* UCB1 with availability counts; at the root with root=even, the
         * least visited action (an evaluation of every choice alike, as an
         * analysis wants, rather than a search for the best one). */
        double best = -1e300;
        uint32_t pick = 0;
        int even = depth == 1 && ib->root_even;
        for (uint32_t c = t->nodes[node].child; c; c = t->nodes[c].sibling) {
            mcts_node *cn = &t->nodes[c];
            if (cn->player != p || !in_sorted(legal, n, cn->action)) continue;
            double score =
                even ? -(double)cn->visits
                : cn->visits == 0
                    ? 1e200
                    : cn->value / cn->visits + ib->c * sqrt(log((double)cn->avail) / cn->visits);
            if (score > best) {
                best = score;
                pick = c;
            }
        }
        g->def->apply(g, st, t->nodes[pick].action, w->cx);
        node = pick;
        w->path[depth++] = node;
    }

    /* Rollout: to the end, or to the cutoff. */
    long steps = 0, cap = ib->cutoff > 0 ? ib->cutoff : ROLLOUT_CAP;
    for (;;) {
        int p = g->def->current_player(g, st);
        if (p == CR_TERMINAL || steps >= cap) break;
        cr_action a;
        if (p == CR_CHANCE) {
            a = cr_sample_chance(g, st, &w->rng);
        } else {
            int n = g->def->legal_actions(g, st, w->legal, w->cx);
            a = ib->rollout(g, st, p, w->legal, n, &w->rng);
        }
        g->def->apply(g, st, a, w->cx);
        steps++;
    }
    w->rollout_actions += (uint64_t)steps;

    double ret[CR_MAX_PLAYERS] = {0};
    if (g->def->current_player(g, st) == CR_TERMINAL)
        g->def->returns(g, st, ret);
    else if (ib->cutoff > 0 && g->def->result)
        score_leaders(g, st, ret);
    if (ib->margin && g->def->result) add_margin(g, st, ret);
    for (int i = 0; i < depth; i++) {
        mcts_node *nd = &t->nodes[w->path[i]];
        nd->visits++;
        if (nd->player >= 0 && nd->player < CR_MAX_PLAYERS) nd->value += ret[nd->player];
    }
    w->done++;
}

/* stop=early: whether `remaining` more iterations could change the move
 * ismcts_act plays, the root action of most visits counted (the policy's
 * move with `prior` more; among equals the first in the legal list).  Each
 * iteration adds one visit to at most one root action, so once the leader
 * is ahead of every other action by more than `remaining`, it stays the
 * move played: the search stops with the same move, and since the workers'
 * generators are reseeded for every search and the bot's own generator is
 * not touched by them, the games that follow are the same as well.  Only
 * the root statistics (cr_bot_last_choices, cr_bot_stats) then describe the
 * iterations run rather than the budget. */
static int settled(const ismcts_worker *w, long remaining)
{
    const mcts_tree *t = &w->tree;
    uint64_t first = 0, second = 0;
    int policy_seen = 0;
    for (uint32_t c = t->nodes[0].child; c; c = t->nodes[c].sibling) {
        const mcts_node *cn = &t->nodes[c];
        uint64_t v = cn->visits;
        if (cn->action == w->policy_pick) {
            v += (uint64_t)w->owner->prior;
            policy_seen = 1;
        }
        if (v > first) {
            second = first;
            first = v;
        } else if (v > second) {
            second = v;
        }
    }
    if (!policy_seen && w->policy_pick >= 0) { /* not tried yet: its prior alone */
        uint64_t v = (uint64_t)w->owner->prior;
        if (v > first) {
            second = first;
            first = v;
        } else if (v > second) {
            second = v;
        }
    }
    return first - second > (uint64_t)remaining;
}

static void *worker_main(void *arg)
{
    ismcts_worker *w = arg;
    mcts_tree_reset(&w->tree);
    w->done = w->rollout_actions = w->sample_fail = 0;
    w->capped = 0;
    if (w->iters >= 0) {
        for (long i = 0; i < w->iters; i++) {
            iterate(w);
            if (w->hard > 0 && (i & 7) == 7 && bot_now_seconds() >= w->hard) {
                w->capped = 1;
                break;
            }
            if (w->early && settled(w, w->iters - 1 - i)) break;
        }
    } else {
        for (;;) {
            for (int i = 0; i < 8; i++) iterate(w);
            double now = bot_now_seconds();
            if (w->hard > 0 && now >= w->hard) w->capped = now < w->deadline;
            if (now >= w->deadline || w->capped) break;
        }
    }
    return NULL;
}

static cr_action ismcts_act(cr_bot *b, const void *obs, const cr_action *legal, int n_legal)
{
    ismcts_bot *ib = b->data;
    const cr_game *g = b->game;
    double t0 = bot_now_seconds();
    /* The statistics describe this call: a call that does not search (one
     * option left once withdraws are dropped) reports zero iterations
     * instead of the previous search's figures. */
    cr_bot_stats *s = &b->stats;
    memset(s, 0, sizeof *s);
    ib->n_choices = 0;
    cr_action root[256];
    cr_action *root_legal = root;
    cr_action *heap = NULL;
    if (n_legal > 256) {
        heap = cr_alloc((size_t)n_legal * sizeof *heap);
        if (!heap) return legal[0];
        root_legal = heap;
    }
    /* Withdraw actions are judged on the observation: it is state-shaped. */
    int n = drop_withdraw(g, obs, legal, n_legal, root_legal);
    if (n == 1) {
        cr_action a = root_legal[0];
        cr_free(heap);
        return a;
    }
    uint64_t base = ((uint64_t)cr_rng_u32(&b->rng) << 32) | cr_rng_u32(&b->rng);
    /* With prior=N, the policy's own choice here, drawn from the bot's
     * generator as the policy draws among equal moves.  The workers draw
     * only from their own generators, so drawing it before the search
     * gives what drawing it after would. */
    cr_action policy_pick = -1;
    if (ib->prior > 0) policy_pick = ib->rollout(g, obs, b->seat, root_legal, n, &b->rng);
    /* The early stop needs every visit of the root in one tree. */
    int early = ib->stop_early && ib->iters > 0 && ib->threads == 1 && !ib->root_even;
    double hard = b->time_cap_ms > 0 ? t0 + b->time_cap_ms / 1000.0 : 0;
    for (int i = 0; i < ib->threads; i++) {
        ismcts_worker *w = &ib->w[i];
        cr_rng_seed(&w->rng, base, (uint64_t)i);
        w->hard = hard;
        w->obs = obs;
        w->root_legal = root_legal;
        w->n_root = n;
        w->early = early;
        w->policy_pick = policy_pick;
        if (ib->iters > 0)
            w->iters = ib->iters / ib->threads + (i < ib->iters % ib->threads ? 1 : 0);
        else {
            w->iters = -1;
            w->deadline = t0 + ib->ms / 1000.0;
        }
    }
    pthread_t tid[ISMCTS_MAX_THREADS];
    int started[ISMCTS_MAX_THREADS] = {0};
    for (int i = 1; i < ib->threads; i++)
        started[i] = pthread_create(&tid[i], NULL, worker_main, &ib->w[i]) == 0;
    worker_main(&ib->w[0]);
    for (int i = 1; i < ib->threads; i++) {
        if (started[i])
            pthread_join(tid[i], NULL);
        else
            worker_main(&ib->w[i]);
    }

    /* Merge: sum the root children's visits and returns by action. */
    uint64_t best_visits = 0;
    cr_action best = -1;
    for (int k = 0; k < n; k++) {
        uint64_t v = 0;
        double value = 0;
        for (int i = 0; i < ib->threads; i++) {
            uint32_t c = mcts_tree_find(&ib->w[i].tree, 0, root_legal[k], ib->seat);
            if (c) {
                v += ib->w[i].tree.nodes[c].visits;
                value += ib->w[i].tree.nodes[c].value;
            }
        }
        if (ib->n_choices < ib->g->max_legal)
            ib->choices[ib->n_choices++] =
                (cr_bot_choice){.action = root_legal[k], .visits = v, .value = v ? value / v : 0};
        uint64_t counted = root_legal[k] == policy_pick ? v + (uint64_t)ib->prior : v;
        if (counted > best_visits) {
            best_visits = counted;
            best = root_legal[k];
        }
    }
    for (int i = 0; i < ib->threads; i++) {
        s->iterations += ib->w[i].done;
        s->nodes += ib->w[i].tree.used;
        s->rollout_actions += ib->w[i].rollout_actions;
        s->arena_full |= ib->w[i].tree.full;
        s->capped |= ib->w[i].capped;
    }
    if (best < 0) /* no iteration finished (the sampler failed): play the policy */
        best = ib->rollout == bot_policy_random
                   ? root_legal[cr_rng_below(&b->rng, (uint32_t)n)]
                   : ib->rollout(g, obs, b->seat, root_legal, n, &b->rng);
    cr_free(heap);
    s->seconds = bot_now_seconds() - t0;
    return best;
}

static void ismcts_destroy(cr_bot *b)
{
    ismcts_bot *ib = b->data;
    if (!ib) return;
    for (int i = 0; i < ib->threads; i++) {
        mcts_tree_fini(&ib->w[i].tree);
        cr_free(ib->w[i].st);
        cr_free(ib->w[i].legal);
        cr_ctx_free(ib->w[i].cx);
        cr_free(ib->w[i].path);
    }
    cr_free(ib->choices);
    cr_free(ib);
    b->data = NULL;
}

static int ismcts_create(cr_bot *b, const bot_spec *spec, char *err, size_t errcap)
{
    const cr_game *g = b->game;
    if (!g->def->sample) {
        if (err && errcap) snprintf(err, errcap, "ismcts: game %s has no sampler", g->def->name);
        return 0;
    }
    long iters = 0, ms = 0, threads = 1, nodes = 0, cutoff = -1, prior = 0; /* -1: not given */
    int chance_nodes = 0, opp_policy = -1, margin = -1, root_even = 0, stop_full = 0;
    double c = 0.7;
    cr_policy_fn rollout = NULL; /* not given */
    for (int i = 0; i < spec->n_params; i++) {
        const char *k = spec->params[i].key, *v = spec->params[i].value;
        int ok = 1;
        if (strcmp(k, "iters") == 0)
            ok = parse_long(v, 1, 1000000000L, &iters);
        else if (strcmp(k, "ms") == 0)
            ok = parse_long(v, 1, 3600000L, &ms);
        else if (strcmp(k, "threads") == 0)
            ok = parse_long(v, 1, ISMCTS_MAX_THREADS, &threads);
        else if (strcmp(k, "cutoff") == 0)
            ok = parse_long(v, 0, ROLLOUT_CAP, &cutoff);
        else if (strcmp(k, "nodes") == 0)
            ok = parse_long(v, 16, 1L << 30, &nodes);
        else if (strcmp(k, "prior") == 0)
            ok = parse_long(v, 0, 1000000000L, &prior);
        else if (strcmp(k, "c") == 0) {
            char *end;
            c = strtod(v, &end);
            ok = *end == '\0' && c >= 0 && c < 100;
        } else if (strcmp(k, "opponents") == 0) {
            ok = parse_pair(v, "tree", "policy", &opp_policy);
        } else if (strcmp(k, "reward") == 0) {
            ok = parse_pair(v, "win", "margin", &margin);
        } else if (strcmp(k, "chance") == 0) {
            ok = parse_pair(v, "open", "tree", &chance_nodes);
        } else if (strcmp(k, "stop") == 0) {
            ok = parse_pair(v, "early", "full", &stop_full);
        } else if (strcmp(k, "root") == 0) {
            ok = parse_pair(v, "best", "even", &root_even);
        } else if (strcmp(k, "rollout") == 0) {
            if (strcmp(v, "random") == 0)
                rollout = bot_policy_random;
            else if (strcmp(v, "heuristic") == 0) {
                rollout = bot_heuristic_policy(g);
                if (!rollout) {
                    if (err && errcap)
                        snprintf(err, errcap, "ismcts: no heuristic rollout for game %s",
                                 g->def->name);
                    return 0;
                }
            } else
                ok = 0;
        } else
            ok = 0;
        if (!ok) {
            bad(err, errcap, k, v);
            return 0;
        }
    }
    /* Defaults.  With a heuristic policy (the game's parts) the search is "guided": the
     * policy rolls out, plays the other seats, and a rollout stops after 100
     * actions with the score margin as its value: the strongest profile the
     * lab found (docs/bots.md).  Without one: random rollouts to the end,
     * every seat in the tree, 1 to the winner. */
    if (!rollout) {
        rollout = bot_heuristic_policy(g);
        if (!rollout) rollout = bot_policy_random;
    }
    int guided = rollout != bot_policy_random;
    if (opp_policy < 0) opp_policy = guided;
    if (margin < 0) margin = guided && g->def->result != NULL && g->def->score_scale > 0;
    if (cutoff < 0) cutoff = guided ? 100 : 0;
    if (prior > 0 && !guided) {
        if (err && errcap)
            snprintf(err, errcap, "ismcts: prior=N needs a guided search (rollout=heuristic)");
        return 0;
    }
    if (iters && ms) {
        if (err && errcap) snprintf(err, errcap, "ismcts: give iters or ms, not both");
        return 0;
    }
    if (!iters && !ms) iters = 1000;
    if (!nodes) nodes = iters ? iters / threads + 2 : 1L << 18;
    ismcts_bot *ib = cr_calloc(1, sizeof *ib);
    if (!ib) goto nomem;
    b->data = ib;
    ib->g = g;
    ib->seat = b->seat;
    ib->iters = iters;
    ib->ms = (double)ms;
    ib->threads = (int)threads;
    ib->c = c;
    ib->chance_nodes = chance_nodes;
    ib->cutoff = cutoff;
    ib->opp_policy = opp_policy;
    ib->margin = margin;
    ib->nodes = (uint32_t)nodes;
    ib->rollout = rollout;
    ib->root_even = root_even;
    ib->prior = prior;
    ib->stop_early = !stop_full;
    ib->choices = cr_alloc((size_t)(g->max_legal > 0 ? g->max_legal : 1) * sizeof *ib->choices);
    if (!ib->choices) goto nomem;
    b->memory += (size_t)(g->max_legal > 0 ? g->max_legal : 1) * sizeof *ib->choices;
    for (int i = 0; i < ib->threads; i++) {
        ismcts_worker *w = &ib->w[i];
        w->owner = ib;
        w->st = cr_alloc(g->state_size);
        w->legal = cr_alloc((size_t)(g->max_legal > 0 ? g->max_legal : 1) * sizeof(cr_action));
        w->path = cr_alloc(((size_t)ib->nodes + 2) * sizeof(uint32_t));
        w->cx = cr_ctx_new(g);
        if (!w->st || !w->legal || !w->path || !w->cx || !mcts_tree_init(&w->tree, ib->nodes))
            goto nomem;
        b->memory +=
            g->state_size + (size_t)(g->max_legal > 0 ? g->max_legal : 1) * sizeof(cr_action) +
            ((size_t)ib->nodes + 2) * sizeof(uint32_t) + (size_t)ib->nodes * sizeof(mcts_node);
    }
    b->memory += sizeof *ib;
    return 1;
nomem:
    ismcts_destroy(b);
    if (err && errcap) snprintf(err, errcap, "ismcts: out of memory");
    return 0;
}

static int ismcts_choices(const cr_bot *b, cr_bot_choice *out, int cap)
{
    const ismcts_bot *ib = b->data;
    for (int i = 0; i < ib->n_choices && i < cap; i++) out[i] = ib->choices[i];
    return ib->n_choices;
}

const bot_vtable bot_ismcts_vt = {
    .kind = "ismcts",
    .wants_obs = 1,
    .create = ismcts_create,
    .act = ismcts_act,
    .destroy = ismcts_destroy,
    .choices = ismcts_choices,
};
