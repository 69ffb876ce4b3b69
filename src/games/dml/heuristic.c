/* heuristic.c — a hand-written player of Dragon's Money Laundering: the
 * game's cr_game_parts.heuristic (the `heuristic` bot, guided ISMCTS).
 *
 * It reads a dml_state-shaped *view*: the seat's observation when it plays
 * (the bot is never given the true state), or a state imagined by a search
 * when it serves as the ISMCTS rollout policy.  In both cases it reads only
 * what the seat may know: its own Hand and King, public zones (Stocks,
 * Fronts, the buying area, the Stack, the event), the zone masks as the
 * observation leaves them, and the public counts in zone_count[].
 *
 * How it plays (docs/bots.md has the reasoning):
 *   - every choice is scored with hand_value(): the Victory Points a Hand and
 *     Front are worth (Desired Commodity doubled, guild bonus, eggs), plus a
 *     bonus that grows steeply as a suit approaches Monopoly (2..9 of a
 *     suit) or the Hand approaches Father of Dragons (four eggs), plus a
 *     small worth for Characters that can still be played;
 *   - dice: p_check(T) is the probability that a check against T succeeds
 *     when the roller re-rolls every failing Dabo! (2d6, Woot! always
 *     succeeds, Wyvern Eyes always fails); it prices every Buy, commit and
 *     seize;
 *   - a Declaration is chosen by enumerating targets (subsets of a Stock, an
 *     opponent's Emblem, the Grand Opening Ten) and adding Primary commits in
 *     order of cheapness while the expected gain grows;
 *   - compositions (one card per action, closed by Done) are planned whole
 *     and emitted card by card.  The bot keeps no memory between calls: the
 *     plan is recomputed from the view, with the cards already chosen forced
 *     into it, so it is the same plan each time and works as a rollout policy.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "croupier/parts.h"
#include "games/dml/dml_internal.h"

typedef struct heur_view {
    const cr_game *g;
    const dml_state *s;
    int me;
    int desired;        /* suit of the seat's King, -1 if unknown */
    uint64_t hand;      /* own Hand */
    uint64_t front;     /* own Front (Emblems) */
    int shields;        /* Spade Emblems in own Front */
    double base;        /* hand_value of the Hand as it is */
    int lane[4];        /* lane_points of each suit for the Hand as it is */
    const int8_t *prim; /* each suit's Primary now (dml_prim_row): read once, used per plan */
} heur_view;

static int popc(uint64_t m) { return __builtin_popcountll(m); }

#define COMMODITY_RANKS_MASK(s) ((uint64_t)0x1ff << ((s)*13)) /* 2..T of a suit */
#define MONO_MASK(s)            ((uint64_t)0xff << ((s)*13))  /* 2..9 of a suit */

static uint64_t egg_mask(void)
{
    return dml_bit(dml_card(0, DML_A)) | dml_bit(dml_card(1, DML_A)) | dml_bit(dml_card(2, DML_A)) |
           dml_bit(dml_card(3, DML_A));
}

static uint64_t rank_set(int rank)
{
    uint64_t m = 0;
    for (int s = 0; s < 4; s++) m |= dml_bit(dml_card(s, rank));
    return m;
}

/* ---- dice ---------------------------------------------------------------- */

/* Probability that a check against t succeeds when the roller re-rolls
 * every failing Dabo! roll.  With s = P(non-Dabo success), d_ok = P(Dabo
 * roll that succeeds), d_fail = P(Dabo roll that fails):
 *   p = s + d_ok + d_fail * p   =>   p = (s + d_ok) / (1 - d_fail). */
static double p_check(int t)
{
    double s = 0, d_ok = 0, d_fail = 0;
    for (int a = 1; a <= 6; a++)
        for (int b = 1; b <= 6; b++) {
            int ok = (a == 6 && b == 6) ? 1 : (a == 1 && b == 1) ? 0 : (a + b >= t);
            int dabo = (a == b && a >= 2 && a <= 5);
            if (dabo)
                *(ok ? &d_ok : &d_fail) += 1.0 / 36;
            else if (ok)
                s += 1.0 / 36;
        }
    return (s + d_ok) / (1 - d_fail);
}

/* p_check for t = -20..43, filled once per process.  The bot runs on many
 * threads at once (the lab's workers, ISMCTS's rollouts), so the
 * filling goes through pthread_once: every reader sees the whole table. */
static double p_table[64];
static pthread_once_t p_table_once = PTHREAD_ONCE_INIT;
static atomic_int p_table_ready; /* 1 once filled: read with acquire, no call */

static void p_table_fill(void)
{
    for (int i = 0; i < 64; i++) p_table[i] = p_check(i - 20);
    atomic_store_explicit(&p_table_ready, 1, memory_order_release);
}

static double p_succ(int t)
{
    if (!atomic_load_explicit(&p_table_ready, memory_order_acquire))
        pthread_once(&p_table_once, p_table_fill);
    int i = t + 20;
    if (i < 0) i = 0;
    if (i > 63) i = 63;
    return p_table[i];
}

/* ---- valuation ----------------------------------------------------------- */

/* Sum of the printed values of the Commodities in a 9-bit mask of one suit
 * (bit i is the card of value i + 2): the bit positions weighed by their
 * binary digits, plus 2 per card.  Branch-free: hand_value is the rollout
 * policy's hottest function. */
static int commodity_sum(uint32_t m)
{
    return popc(m & 0xaa) + 2 * popc(m & 0xcc) + 4 * popc(m & 0xf0) + 8 * popc(m & 0x100) +
           2 * popc(m);
}

/* Suit s's integer points in hand_value: its Commodities in Hand and Front
 * (`both`), doubled for the Desired one, and the bonuses of its 2..9 in
 * Hand.  One suit per 13-bit lane: 2..9 in bits 0-7, T in 8. */
static int lane_points(uint64_t both, uint64_t hand, int s, int desired)
{
    static const int mono_bonus[9] = {0, 0, 0, 0, 0, 7, 28, 63, 1000};
    uint32_t lane = (uint32_t)(both >> (s * 13));
    int sum = commodity_sum(lane & 0x1ff);
    int v = s == desired ? 2 * sum : sum;
    int k = popc((hand >> (s * 13)) & 0xff); /* 2..9 in Hand */
    if (lane & 0x100)                        /* the suit's Ten: +2 per Commodity in Hand */
        v += 2 * k;
    return v + mono_bonus[k];
}

/* hand_value's points apart from the suits' lanes: the Hand's `eggs` and
 * its Characters and Jokers. */
static int hand_extras(uint64_t hand, int eggs)
{
    int v = 20 * eggs + (eggs == 4 ? 1000 : eggs == 3 ? 25 : 0);
    /* Characters in Hand are worth what playing them may bring. */
    v += 5 * popc(hand & (rank_set(DML_J) | rank_set(DML_Q)));
    v += 4 * popc(hand & (dml_bit(DML_X1) | dml_bit(DML_X2)));
    return v;
}

/* What a Hand (with the seat's Front) is worth to the seat: the four
 * suits' lanes and the extras, integer points, less 3 for each egg its Shields do not cover
 * (a Siege would cost the eggs and half the Hand).  The lanes of the suits
 * whose 2..T the Hand has as the seat's own has them are the seat's, worked
 * out once in view_init (h->lane): most Hands weighed differ from it in a
 * card or a suit.  Every term is an integer, so the sum is exact. */
static double hand_value(const heur_view *h, uint64_t hand)
{
    int eggs = popc(hand & egg_mask());
    int v = hand_extras(hand, eggs);
    uint64_t diff = hand ^ h->hand, both = hand | h->front;
    for (int s = 0; s < 4; s++)
        v += diff & COMMODITY_RANKS_MASK(s) ? lane_points(both, hand, s, h->desired) : h->lane[s];
    if (eggs > h->shields) v -= 3 * (eggs - h->shields);
    return v;
}

static double gain_of(const heur_view *h, uint64_t cards)
{
    return hand_value(h, h->hand | cards) - h->base;
}

static double cost_of(const heur_view *h, uint64_t cards)
{
    return h->base - hand_value(h, h->hand & ~cards);
}

static void view_init(heur_view *h, const cr_game *g, const dml_state *s, int me)
{
    h->g = g;
    h->s = s;
    h->me = me;
    h->hand = s->zone[DML_Z_HAND + me];
    h->front = s->zone[DML_Z_FRONT + me];
    h->prim = dml_prim_row(s);
    uint64_t king = s->zone[DML_Z_KING + me];
    h->desired = king ? dml_suit(__builtin_ctzll(king)) : -1;
    h->shields = popc(h->front & DML_SUIT_MASK(DML_SUIT_S));
    for (int suit = 0; suit < 4; suit++)
        h->lane[suit] = lane_points(h->hand | h->front, h->hand, suit, h->desired);
    h->base = hand_value(h, h->hand);
}

/* ---- rules knowledge ----------------------------------------------------- */

static int is_2015(const dml_state *s) { return s->variant == DML_V_2015; }

static int commit_ok(const dml_state *s, int c)
{
    if (!dml_is_commodity(c)) return 0;
    int v = dml_value(c);
    if (s->sw & DML_SW_EVENTS_0615) /* 2015-06: Decadence bars >= EV; the Crackdown bars none */
        return !(s->event_type == DML_EV_CUSTOMS && v >= s->ev);
    if (s->event_type == DML_EV_FCCC && v > s->ev) return 0;
    if (s->event_type == DML_EV_CUSTOMS && v < s->ev) return 0;
    return 1;
}

static uint64_t commit_cards(const dml_state *s, uint64_t hand, int suit)
{
    uint64_t out = 0;
    for (uint64_t m = hand & COMMODITY_RANKS_MASK(suit); m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        if (commit_ok(s, c)) out |= dml_bit(c);
    }
    return out;
}

static int stock_value(const dml_state *s, int c)
{
    int v = dml_value(c);
    /* Hated People (2016) raise the values at or below EV, Marauders (2015)
     * those at or above it */
    if (s->event_type == DML_EV_HATED && (is_2015(s) ? v >= s->ev : v <= s->ev)) v += 2;
    if (s->event_type == DML_EV_UNION && v >= s->ev) v -= 2;
    return v;
}

static int buying_bonus(int c)
{
    int r = dml_rank(c);
    return r == DML_Q ? 2 : (r == DML_J || r == DML_T) ? 1 : 0;
}

static int emblem_reduction(const heur_view *h, int suit)
{
    int e = 0;
    for (uint64_t m = h->front & DML_SUIT_MASK(suit); m; m &= m - 1)
        e += buying_bonus(__builtin_ctzll(m));
    return e;
}

static int card_sum(uint64_t m)
{
    int v = 0;
    for (; m; m &= m - 1) v += dml_value(__builtin_ctzll(m));
    return v;
}

/* Sorts the cards of m by increasing cost per point of value; out[] gets
 * them, returns the count. */
static int sort_by_cheapness(const heur_view *h, uint64_t m, int *out)
{
    int n = 0;
    double key[DML_NCARDS];
    for (; m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        double k = cost_of(h, dml_bit(c)) / dml_value(c);
        int i = n++;
        while (i > 0 && (key[i - 1] > k || (key[i - 1] == k && out[i - 1] > c))) {
            key[i] = key[i - 1];
            out[i] = out[i - 1];
            i--;
        }
        key[i] = k;
        out[i] = c;
    }
    return n;
}

/* Could another seat seize?  Any Passive Player not barred by FCCC with a
 * non-empty Hand may hold Primary cards. */
static double seize_discount(const heur_view *h)
{
    const dml_state *s = h->s;
    int threats = 0;
    for (int p = 0; p < s->n; p++) {
        if (p == h->me || !(s->alive & (1u << p))) continue;
        if (s->event_type == DML_EV_FCCC && (s->affected & (1u << p))) continue;
        if (s->zone_count[DML_Z_HAND + p] > 0) threats++;
    }
    return threats ? 0.85 : 1.0;
}

/* ---- Declaration planning ------------------------------------------------ */

typedef struct decl_plan {
    uint64_t targets, commits;
    double ev;
    int found;
} decl_plan;

/* The cards a Declaration may still commit for each Primary suit, cheapest
 * first: computed once per plan, shared by every target set it weighs; and
 * what committing each prefix of that order costs the Hand (cost[suit][i]:
 * the forced commits and the first i cards; bit i of costed[suit] says it
 * is filled), the same for every target set of the suit, so worked out
 * once per plan too (the planner weighs up to 63 sets a suit, and this
 * was most of the rollout policy's time). */
typedef struct commit_orders {
    uint64_t forced;
    unsigned done; /* bit suit: order[suit] is filled */
    int n[4];
    int order[4][DML_NCARDS];
    uint64_t costed[4];
    double cost[4][DML_NCARDS + 1];
} commit_orders;

static const int *commit_order(const heur_view *h, commit_orders *co, int prim, int *n)
{
    if (!(co->done & (1u << prim))) {
        uint64_t avail = commit_cards(h->s, h->hand | co->forced, prim) & ~co->forced;
        co->n[prim] = sort_by_cheapness(h, avail, co->order[prim]);
        co->done |= 1u << prim;
    }
    *n = co->n[prim];
    return co->order[prim];
}

/* Best commits for targets worth `gain`, starting at D = d0 and forced to
 * include `forced`; updates best. */
static void plan_commits(const heur_view *h, commit_orders *co, uint64_t targets, int suit, int d0,
                         double gain, uint64_t forced_commits, double discount, decl_plan *best)
{
    int n, prim = h->prim[suit];
    const int *order = commit_order(h, co, prim, &n);
    uint64_t commits = forced_commits;
    int d = d0 - card_sum(forced_commits);
    for (int i = 0; i <= n; i++) {
        if (d <= 12) {
            if (!(co->costed[prim] >> i & 1)) {
                co->cost[prim][i] = cost_of(h, commits & h->hand);
                co->costed[prim] |= (uint64_t)1 << i;
            }
            double ev = discount * p_succ(d) * gain - co->cost[prim][i];
            if (!best->found || ev > best->ev + 1e-9) {
                best->found = 1;
                best->ev = ev;
                best->targets = targets;
                best->commits = commits;
            }
            if (p_succ(d) > 0.97) break;
        }
        if (i < n) {
            commits |= dml_bit(order[i]);
            d -= dml_value(order[i]);
        }
    }
}

static uint64_t opponent_emblems(const heur_view *h)
{
    uint64_t m = 0;
    for (int p = 0; p < h->s->n; p++)
        if (p != h->me) m |= h->s->zone[DML_Z_FRONT + p];
    return m;
}

/* The best Declaration the seat can make, containing the forced targets and
 * commits (the cards of a Declaration already under way). */
static decl_plan plan_declaration(const heur_view *h, uint64_t forced_t, uint64_t forced_c)
{
    const dml_state *s = h->s;
    decl_plan best = {0, 0, 0, 0};
    commit_orders co; /* its tables are filled as they are read: only the marks start at 0 */
    co.forced = forced_c;
    co.done = 0;
    memset(co.costed, 0, sizeof co.costed);
    double disc = seize_discount(h);
    uint64_t stocks = s->zone[DML_Z_STOCK] | (forced_t & DML_COMMODITIES);
    uint64_t emblems = opponent_emblems(h);
    int forced_suit = forced_t ? dml_suit(__builtin_ctzll(forced_t)) : -1;
    int forced_emblem =
        forced_t && ((forced_t & emblems) || (forced_t & ~DML_COMMODITIES) ||
                     (s->target_from >= DML_Z_FRONT && s->target_from < DML_Z_FRONT + 4));
    int forced_event = forced_t && s->target_from == DML_Z_EVENT;

    if (!forced_emblem && !forced_event) {
        for (int suit = 0; suit < 4; suit++) {
            if (forced_suit >= 0 && suit != forced_suit) continue;
            uint64_t pool = stocks & DML_SUIT_MASK(suit) & ~forced_t;
            /* At most 6 free cards enumerated: keep the most valuable. */
            int cards[13], nc = 0;
            for (uint64_t m = pool; m; m &= m - 1) cards[nc++] = __builtin_ctzll(m);
            while (nc > 6) { /* drop the lowest values (ascending id = ascending value) */
                for (int i = 0; i + 1 < nc; i++) cards[i] = cards[i + 1];
                nc--;
            }
            int e = emblem_reduction(h, suit);
            /* Gaining Commodities of one suit changes only that suit's
             * points (no egg, Character or Shield among them): the gain is
             * the lane's difference, the integer hand_value's difference is. */
            uint64_t both = h->hand | h->front;
            int lane0 = lane_points(both, h->hand, suit, h->desired);
            /* each subset's targets and their Stock value, from the subset
             * without its lowest card (sub & (sub - 1) < sub: already made) */
            uint64_t sub_t[64];
            int sub_sum[64];
            sub_t[0] = forced_t;
            sub_sum[0] = 0;
            for (uint64_t m = forced_t; m; m &= m - 1)
                sub_sum[0] += stock_value(s, __builtin_ctzll(m));
            for (uint32_t sub = forced_t ? 0 : 1; sub < (1u << nc); sub++) {
                if (sub) {
                    int low = __builtin_ctz(sub);
                    sub_t[sub] = sub_t[sub & (sub - 1)] | dml_bit(cards[low]);
                    sub_sum[sub] = sub_sum[sub & (sub - 1)] + stock_value(s, cards[low]);
                }
                uint64_t t = sub_t[sub];
                int sum = sub_sum[sub];
                if (!t) continue;
                double gain = (t & ~COMMODITY_RANKS_MASK(suit))
                                  ? gain_of(h, t)
                                  : lane_points(both | t, h->hand | t, suit, h->desired) - lane0;
                plan_commits(h, &co, t, suit, sum - e, gain, forced_c, disc, &best);
            }
        }
    }
    if (!forced_event) {
        for (uint64_t m = forced_emblem ? forced_t : emblems; m; m &= m - 1) {
            int c = __builtin_ctzll(m);
            int suit = dml_suit(c);
            if (suit < 0) continue;
            uint64_t t = dml_bit(c);
            double g = gain_of(h, t) + 2; /* and the owner loses its bonus */
            plan_commits(h, &co, t, suit, 10 - emblem_reduction(h, suit), g, forced_c, disc, &best);
        }
    }
    if (!forced_emblem && s->event_type == DML_EV_OPENING) {
        uint64_t ev_tens = s->zone[DML_Z_EVENT] & rank_set(DML_T);
        if (forced_event) ev_tens = forced_t;
        for (uint64_t m = ev_tens; m; m &= m - 1) {
            int c = __builtin_ctzll(m);
            int suit = dml_suit(c);
            plan_commits(h, &co, dml_bit(c), suit, 10 - emblem_reduction(h, suit),
                         gain_of(h, dml_bit(c)), forced_c, disc, &best);
        }
    }
    return best;
}

/* ---- the buying area ----------------------------------------------------- */

static int count_suit(const dml_state *s)
{
    if (s->buy_suit >= 0 && s->buy_suit < 4) return s->buy_suit;
    uint64_t t = s->zone[DML_Z_TARGET];
    return t ? dml_suit(__builtin_ctzll(t)) : -1;
}

static uint64_t selected_mask(const dml_state *s)
{
    uint64_t m = 0;
    for (int i = 0; i < s->sel_n && i < DML_NCARDS; i++)
        if (s->sel[i] < DML_NCARDS) m |= dml_bit(s->sel[i]);
    return m;
}

/* Emits the next card of a planned set, or Done. */
static int legal_has(const cr_action *legal, int n, cr_action a)
{
    for (int i = 0; i < n; i++)
        if (legal[i] == a) return 1;
    return 0;
}

static cr_action fallback(const heur_view *h, const cr_action *legal, int n, cr_rng *rng)
{
    if (legal_has(legal, n, DML_A_DONE)) return DML_A_DONE;
    if (legal_has(legal, n, DML_A_END)) return DML_A_END;
    return cr_policy_random(h->g, h->s, h->me, legal, n, rng);
}

static cr_action emit_set(const heur_view *h, uint64_t plan, const cr_action *legal, int n,
                          cr_rng *rng)
{
    uint64_t chosen = selected_mask(h->s);
    for (uint64_t m = plan & ~chosen; m; m &= m - 1) {
        cr_action a = DML_A_CARD + __builtin_ctzll(m);
        if (legal_has(legal, n, a)) return a;
    }
    if (legal_has(legal, n, DML_A_DONE)) return DML_A_DONE;
    /* The plan cannot be completed as the engine sees it: take any card
     * that keeps the choice alive, cheapest first. */
    double best = 1e18;
    cr_action pick = -1;
    for (int i = 0; i < n; i++) {
        if (legal[i] < DML_A_CARD || legal[i] >= DML_A_CARD + DML_NCARDS) continue;
        double c = cost_of(h, dml_bit(legal[i] - DML_A_CARD));
        if (c < best) {
            best = c;
            pick = legal[i];
        }
    }
    return pick >= 0 ? pick : fallback(h, legal, n, rng);
}

/* Target cards under Declaration, and what they are worth to this seat. */
static uint64_t buy_targets(const dml_state *s) { return s->zone[DML_Z_TARGET]; }

static cr_action decide_declare(const heur_view *h, const cr_action *legal, int n, cr_rng *rng)
{
    const dml_state *s = h->s;
    uint64_t chosen = selected_mask(s);
    uint64_t forced_t = 0, forced_c = 0;
    for (int i = 0; i < s->sel_n; i++) {
        if (i < s->sel_targets)
            forced_t |= dml_bit(s->sel[i]);
        else
            forced_c |= dml_bit(s->sel[i]);
    }
    (void)chosen;
    decl_plan p = plan_declaration(h, forced_t, forced_c);
    if (!p.found) return fallback(h, legal, n, rng);
    /* Targets first, then commits. */
    uint64_t next_t = p.targets & ~forced_t;
    for (uint64_t m = next_t; m; m &= m - 1) {
        cr_action a = DML_A_CARD + __builtin_ctzll(m);
        if (legal_has(legal, n, a)) return a;
    }
    return emit_set(h, p.targets | p.commits, legal, n, rng);
}

/* Seize offer (PD4) and the seizer's commits (PD6): raise V so the Active
 * Player likely fails, when the target is worth it. */
static uint64_t plan_raise(const heur_view *h, int v0, double gain)
{
    int suit = count_suit(h->s);
    if (suit < 0) return 0;
    uint64_t avail = commit_cards(h->s, h->hand | selected_mask(h->s), h->prim[suit]);
    int order[DML_NCARDS];
    int n = sort_by_cheapness(h, avail, order);
    uint64_t best = 0, cur = 0;
    double best_ev = (1 - p_succ(v0)) * gain;
    int v = v0;
    for (int i = 0; i < n; i++) {
        cur |= dml_bit(order[i]);
        v += dml_value(order[i]);
        double ev = (1 - p_succ(v)) * gain * 0.8 - cost_of(h, cur);
        if (ev > best_ev + 0.5) {
            best_ev = ev;
            best = cur;
        }
    }
    return best;
}

/* DML-2015's Seize offer (15.5.2, V-PD4): one face-down card or a pass; of
 * the cards revealed, the highest single Primary card wins and is bid at
 * once, every other card goes back.  So only the Primary card that is
 * worth it alone is offered: if it wins, it is lost whatever the roll (a
 * success sends it to the Stock, a failure too); if a higher one wins, it
 * comes back.  A bluff (any other card) would change nothing: pass. */
static cr_action decide_offer_2015(const heur_view *h, const cr_action *legal, int n, cr_rng *rng)
{
    const dml_state *s = h->s;
    if (s->sel_n) return fallback(h, legal, n, rng); /* the card is placed: Done */
    int suit = count_suit(s);
    if (suit < 0) return fallback(h, legal, n, rng);
    double gain = gain_of(h, buy_targets(s));
    uint64_t avail = commit_cards(s, h->hand, h->prim[suit]);
    double best_ev = 0.5;
    int best = -1;
    for (uint64_t m = avail; m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        double ev = (1 - p_succ(s->D + dml_value(c))) * gain * 0.8 - cost_of(h, dml_bit(c));
        if (ev > best_ev + 1e-9) {
            best_ev = ev;
            best = c;
        }
    }
    if (best >= 0 && legal_has(legal, n, DML_A_CARD + best)) return DML_A_CARD + best;
    return fallback(h, legal, n, rng);
}

static cr_action decide_offer(const heur_view *h, const cr_action *legal, int n, cr_rng *rng)
{
    const dml_state *s = h->s;
    if (is_2015(s)) return decide_offer_2015(h, legal, n, rng);
    double gain = gain_of(h, buy_targets(s));
    uint64_t plan = plan_raise(h, s->D, gain);
    return emit_set(h, plan, legal, n, rng);
}

static cr_action decide_commit_passive(const heur_view *h, const cr_action *legal, int n,
                                       cr_rng *rng)
{
    const dml_state *s = h->s;
    double gain = gain_of(h, buy_targets(s));
    uint64_t plan = plan_raise(h, s->D + s->P, gain);
    return emit_set(h, plan, legal, n, rng);
}

/* Active commits (PD5): Primary cards lower D, Secondary cards cancel P. */
static cr_action decide_commit_active(const heur_view *h, const cr_action *legal, int n,
                                      cr_rng *rng)
{
    const dml_state *s = h->s;
    int suit = count_suit(s);
    if (suit < 0) return fallback(h, legal, n, rng);
    uint64_t pool = h->hand | selected_mask(s);
    uint64_t prim = commit_cards(s, pool, h->prim[suit]);
    uint64_t sec = commit_cards(s, pool, dml_sec(suit));
    double gain = gain_of(h, buy_targets(s));
    int order[DML_NCARDS];
    int nc = sort_by_cheapness(h, prim | sec, order);
    uint64_t cur = 0, best = 0;
    int d = s->D, p = s->P;
    double best_ev = p_succ(d + p) * gain;
    for (int i = 0; i < nc; i++) {
        int c = order[i];
        int v = dml_value(c);
        if (sec & dml_bit(c)) {
            if (p == 0) continue;
            p = p > v ? p - v : 0;
        } else {
            d -= v;
        }
        cur |= dml_bit(c);
        double ev = p_succ(d + p) * gain - cost_of(h, cur);
        if (ev > best_ev + 0.25) {
            best_ev = ev;
            best = cur;
        }
    }
    return emit_set(h, best, legal, n, rng);
}

/* ---- Stack plays ---------------------------------------------------------- */

static int eggs_of(const heur_view *h) { return popc(h->hand & egg_mask()); }

/* Eggs held by opponents, as far as the seat can tell. */
static int opponent_eggs_guess(const heur_view *h)
{
    const dml_state *s = h->s;
    int known_elsewhere = s->zone_count[DML_Z_NEST] + eggs_of(h);
    for (int k = 0; k < DML_MAX_BM; k++)
        known_elsewhere += popc(s->zone[DML_Z_BM + k] & egg_mask());
    int e = 4 - known_elsewhere;
    return e > 0 ? e : 0;
}

static double best_stock_gain(const heur_view *h, int *suit_out)
{
    double best = 0;
    int bs = -1;
    for (int s = 0; s < 4; s++) {
        uint64_t st = h->s->zone[DML_Z_STOCK] & DML_SUIT_MASK(s);
        if (!st) continue;
        double g = gain_of(h, st);
        if (bs < 0 || g > best) {
            best = g;
            bs = s;
        }
    }
    if (suit_out) *suit_out = bs;
    return best;
}

static int bm_count(const dml_state *s)
{
    int n = 0;
    for (int k = 0; k < DML_MAX_BM; k++)
        if (s->zone_count[DML_Z_BM + k]) n++;
    return n;
}

static int deck_left(const dml_state *s) { return s->zone_count[DML_Z_DECK]; }

static double power_value_2015(const heur_view *h, int c);

static double power_value(const heur_view *h, int c)
{
    const dml_state *s = h->s;
    if (is_2015(s)) return power_value_2015(h, c);
    if (dml_is_joker(c)) return 4;
    int r = dml_rank(c), suit = dml_suit(c);
    if (r == DML_Q) {
        switch (suit) {
        case DML_SUIT_S: { /* Dragon Siege */
            int mine = eggs_of(h) > h->shields ? eggs_of(h) - h->shields : 0;
            return 10.0 * opponent_eggs_guess(h) - 25.0 * mine - 2;
        }
        case DML_SUIT_C: return 0; /* Harlot: only as a response */
        case DML_SUIT_H:
            return s->zone_count[DML_Z_NEST] ? 20 - (eggs_of(h) >= h->shields ? 4 : 0) : 0;
        case DML_SUIT_D: return best_stock_gain(h, NULL) - 2;
        }
    }
    if (r == DML_J) {
        switch (suit) {
        case DML_SUIT_S: return 0; /* Inquisitor: rarely pays */
        case DML_SUIT_C: return opponent_emblems(h) ? 3 : 0;
        case DML_SUIT_H: return bm_count(s) ? 7 : 0;
        case DML_SUIT_D: return 2.0 * (s->n - 1);
        }
    }
    return -1;
}

static double emblem_value(const heur_view *h, int c)
{
    int r = dml_rank(c), suit = dml_suit(c);
    if (dml_is_joker(c) || (r != DML_T && r != DML_J && r != DML_Q)) return -1;
    double v = 0;
    if (suit == DML_SUIT_S && eggs_of(h) > h->shields) v += 15;
    if (suit == DML_SUIT_D) v += deck_left(h->s) > 12 ? 5 : 2;
    if (suit == DML_SUIT_H && bm_count(h->s)) v += 1.5;
    v += buying_bonus(c) * (suit == h->desired ? 1.5 : 0.7);
    if (r == DML_T) /* a Ten keeps its VP in a Front but becomes a target */
        v -= 4;
    return v;
}

enum { PLAY_MAX = 16 };
typedef struct play_plan {
    int card[PLAY_MAX];
    int emblem[PLAY_MAX];
    int n;
    double value;
} play_plan;

static void plan_plays(const heur_view *h, int opener, play_plan *out)
{
    out->n = 0;
    out->value = 0;
    int ecards[PLAY_MAX], ne = 0;
    uint64_t chosen = selected_mask(h->s);
    uint64_t playable = (h->hand | chosen) & (rank_set(DML_T) | rank_set(DML_J) | rank_set(DML_Q) |
                                              dml_bit(DML_X1) | dml_bit(DML_X2));
    double best_single = -1e9;
    int best_card = -1, best_emb = 0;
    for (uint64_t m = playable; m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        double pv = power_value(h, c), ev = emblem_value(h, c);
        int as_emblem = ev > pv;
        double v = as_emblem ? ev : pv;
        if (v > best_single) {
            best_single = v;
            best_card = c;
            best_emb = as_emblem;
        }
        if (v <= 0.5 || out->n >= PLAY_MAX) continue;
        if (as_emblem) {
            ecards[ne++] = c;
        } else {
            out->card[out->n] = c;
            out->emblem[out->n++] = 0;
        }
        out->value += v;
    }
    /* Emblems listed last: they lie on top and resolve first, so Shields
     * are in place before a Siege of ours resolves. */
    for (int i = 0; i < ne && out->n < PLAY_MAX; i++) {
        out->card[out->n] = ecards[i];
        out->emblem[out->n++] = 1;
    }
    if (opener && out->n == 0 && best_card >= 0) {
        out->card[0] = best_card;
        out->emblem[0] = best_emb;
        out->n = 1;
        out->value = best_single;
    }
}

/* Harlot Queen as a response: exile the opponent card that hurts most. */
static double stack_threat(const heur_view *h, int *card_out)
{
    const dml_state *s = h->s;
    double worst = 0;
    int wc = -1;
    for (int i = 0; i < s->stack_n; i++) {
        int c = s->stack_card[i];
        int seat = s->stack_flag[i] & DML_SF_SEAT;
        if (seat == h->me || (s->stack_flag[i] & DML_SF_EMBLEM)) continue;
        double t = 0;
        if (c == dml_card(DML_SUIT_S, DML_Q))
            t = eggs_of(h) > h->shields ? 25 : 3;
        else if (dml_rank(c) == DML_Q)
            t = 8;
        else if (dml_is_joker(c) || dml_rank(c) == DML_J)
            t = 3;
        if (t > worst) {
            worst = t;
            wc = c;
        }
    }
    if (card_out) *card_out = wc;
    return worst;
}

static cr_action decide_stack_2015(const heur_view *h, const cr_action *legal, int n, cr_rng *rng);

static cr_action decide_stack(const heur_view *h, const cr_action *legal, int n, cr_rng *rng)
{
    if (is_2015(h->s)) return decide_stack_2015(h, legal, n, rng);
    int opener = !legal_has(legal, n, DML_A_DONE) && h->s->sel_n == 0;
    play_plan p;
    plan_plays(h, opener, &p);
    int harlot = dml_card(DML_SUIT_C, DML_Q);
    if ((h->hand & dml_bit(harlot)) && stack_threat(h, NULL) >= 5 && p.n < PLAY_MAX) {
        /* Harlot on top so it resolves before the threat. */
        p.card[p.n] = harlot;
        p.emblem[p.n++] = 0;
    }
    uint64_t chosen = selected_mask(h->s);
    for (int i = 0; i < p.n; i++) {
        if (chosen & dml_bit(p.card[i])) continue;
        cr_action a = (p.emblem[i] ? DML_A_EMBLEM : DML_A_POWER) + p.card[i];
        if (legal_has(legal, n, a)) return a;
        a = (p.emblem[i] ? DML_A_POWER : DML_A_EMBLEM) + p.card[i];
        if (legal_has(legal, n, a)) return a;
    }
    if (legal_has(legal, n, DML_A_DONE)) return DML_A_DONE;
    for (int i = 0; i < n; i++)
        if (legal[i] >= DML_A_POWER && legal[i] < DML_A_CALLBACK) return legal[i];
    return fallback(h, legal, n, rng);
}

/* ---- Market ----------------------------------------------------------------- */

static double visit_value(const heur_view *h, int slot)
{
    const dml_state *s = h->s;
    int count = s->zone_count[DML_Z_BM + slot];
    if (count == 0) return 0;
    uint64_t known = s->zone[DML_Z_BM + slot];
    double per_card = 0;
    int nk = 0;
    for (uint64_t m = known; m; m &= m - 1) {
        per_card += gain_of(h, dml_bit(__builtin_ctzll(m)));
        nk++;
    }
    double unknown = count > nk ? count - nk : 0;
    per_card = (per_card + 4.0 * unknown) / (nk + unknown > 0 ? nk + unknown : 1);
    int take = 1 + popc(h->front & DML_SUIT_MASK(DML_SUIT_H));
    if (take > count) take = count;
    double v = p_succ(7) * take * per_card;
    if (s->variant == DML_V_FIRE) /* Hustled!: a failed visit loses a card */
        v -= (1 - p_succ(7)) * 6;
    if (eggs_of(h) > h->shields) /* Wyvern Eyes starts a Siege */
        v -= (1.0 / 36) * 25 * (eggs_of(h) - h->shields);
    return v;
}

static cr_action decide_market_2015(const heur_view *h, const cr_action *legal, int n, cr_rng *rng);

static cr_action decide_market(const heur_view *h, const cr_action *legal, int n, cr_rng *rng)
{
    const dml_state *s = h->s;
    if (is_2015(s)) return decide_market_2015(h, legal, n, rng);
    if (legal_has(legal, n, DML_A_BUY)) {
        decl_plan p = plan_declaration(h, 0, 0);
        if (p.found && p.ev >= 1.5) return DML_A_BUY;
    }
    if (legal_has(legal, n, DML_A_PLAY)) {
        play_plan p;
        plan_plays(h, 1, &p);
        if (p.n > 0 && p.value >= 2) return DML_A_PLAY;
    }
    double best_visit = 0;
    cr_action visit = -1;
    for (int i = 0; i < n; i++) {
        if (legal[i] >= DML_A_VISIT && legal[i] < DML_A_VISIT + DML_MAX_BM) {
            double v = visit_value(h, legal[i] - DML_A_VISIT);
            if (v > best_visit + 0.5) {
                best_visit = v;
                visit = legal[i];
            }
        }
    }
    if (visit >= 0) return visit;
    /* No Minor Action left for a good visit: trade an Action for one. */
    if (legal_has(legal, n, DML_A_SUBSTITUTE) && s->minors == 0 && bm_count(s)) {
        for (int k = 0; k < DML_MAX_BM; k++)
            if (s->zone_count[DML_Z_BM + k] && visit_value(h, k) > 1.0) return DML_A_SUBSTITUTE;
    }
    if (legal_has(legal, n, DML_A_END)) return DML_A_END;
    if (legal_has(legal, n, DML_A_NOTHING)) return DML_A_NOTHING;
    return fallback(h, legal, n, rng);
}

/* ---- small decisions ------------------------------------------------------------ */

static int check_target(const dml_state *s)
{
    for (int i = s->nfr - 1; i >= 0; i--)
        if (s->fr[i].proc == DML_P_CHECK) return s->fr[i].x;
    return -100; /* not a check: the roll-off */
}

static cr_action decide_dabo(const heur_view *h, const cr_action *legal, int n)
{
    const dml_state *s = h->s;
    int total = s->die[0] + s->die[1];
    int t = check_target(s);
    int reroll = (t == -100) ? total < 8 : total < t;
    cr_action a = reroll ? DML_A_REROLL : DML_A_KEEP;
    return legal_has(legal, n, a) ? a : legal[0];
}

/* Card choices: maximize (take) or minimize (give) the seat's keep value. */
static cr_action pick_card(const heur_view *h, const cr_action *legal, int n, int take)
{
    double best = take ? -1e18 : 1e18;
    cr_action pick = legal[0];
    for (int i = 0; i < n; i++) {
        if (legal[i] < DML_A_CARD || legal[i] >= DML_A_CARD + DML_NCARDS) continue;
        uint64_t c = dml_bit(legal[i] - DML_A_CARD);
        double v = take ? gain_of(h, c) : cost_of(h, c);
        if (take ? v > best : v < best) {
            best = v;
            pick = legal[i];
        }
    }
    return pick;
}

static cr_action decide_player(const heur_view *h, const cr_action *legal, int n, int most)
{
    int best = -1;
    cr_action pick = legal[0];
    for (int i = 0; i < n; i++) {
        if (legal[i] < DML_A_PLAYER || legal[i] >= DML_A_PLAYER + 4) continue;
        int p = legal[i] - DML_A_PLAYER;
        int k = h->s->zone_count[DML_Z_HAND + p];
        int score = most ? k : 100 - k;
        if (score > best) {
            best = score;
            pick = legal[i];
        }
    }
    return pick;
}

static int owner_of_front(const dml_state *s, int c)
{
    for (int p = 0; p < s->n; p++)
        if (s->zone[DML_Z_FRONT + p] & dml_bit(c)) return p;
    return -1;
}

static cr_action decide_vice(const heur_view *h, const cr_action *legal, int n)
{
    double best = -1e9;
    cr_action pick = legal[0];
    for (int i = 0; i < n; i++) {
        if (legal[i] < DML_A_CARD || legal[i] >= DML_A_CARD + DML_NCARDS) continue;
        int c = legal[i] - DML_A_CARD;
        int owner = owner_of_front(h->s, c);
        double v = owner == h->me ? -5
                                  : 1 + (dml_suit(c) == DML_SUIT_S ? 3 : 0) +
                                        (dml_suit(c) == DML_SUIT_D ? 2 : 0);
        if (v > best) {
            best = v;
            pick = legal[i];
        }
    }
    return pick;
}

static cr_action decide_counsel_bm(const heur_view *h, const cr_action *legal, int n)
{
    double best = -1e9;
    cr_action pick = legal[0];
    for (int i = 0; i < n; i++) {
        if (legal[i] < DML_A_BMPICK || legal[i] >= DML_A_BMPICK + DML_MAX_BM) continue;
        int k = legal[i] - DML_A_BMPICK;
        double v = h->s->zone_count[DML_Z_BM + k];
        for (uint64_t m = h->s->zone[DML_Z_BM + k]; m; m &= m - 1)
            v = fmax(v, gain_of(h, dml_bit(__builtin_ctzll(m))));
        if (v > best) {
            best = v;
            pick = legal[i];
        }
    }
    return pick;
}

static cr_action decide_harlot(const heur_view *h, const cr_action *legal, int n)
{
    int target = -1;
    stack_threat(h, &target);
    if (target >= 0 && legal_has(legal, n, DML_A_CARD + target)) return DML_A_CARD + target;
    /* Otherwise exile a card that is not ours. */
    const dml_state *s = h->s;
    for (int i = 0; i < n; i++) {
        int c = legal[i] - DML_A_CARD;
        for (int j = 0; j < s->stack_n; j++)
            if (s->stack_card[j] == c && (s->stack_flag[j] & DML_SF_SEAT) != h->me) return legal[i];
    }
    return legal[0];
}

static cr_action decide_stock(const heur_view *h, const cr_action *legal, int n)
{
    double best = -1e9;
    cr_action pick = legal[0];
    for (int i = 0; i < n; i++) {
        if (legal[i] < DML_A_STOCK || legal[i] >= DML_A_STOCK + 4) continue;
        int suit = legal[i] - DML_A_STOCK;
        double g = gain_of(h, h->s->zone[DML_Z_STOCK] & DML_SUIT_MASK(suit));
        if (g > best) {
            best = g;
            pick = legal[i];
        }
    }
    return pick;
}

/* ---- DML-2015 (spec 15) ------------------------------------------------------------ */

/* A 2015 Power as the seat's own play (15.6, 15.9's cards-2015-06).  The
 * Harlot Queen and the Rogue Jester act on what lies below them on the
 * Stack, so they are weighed as responses (decide_stack_2015), never here. */
static double power_value_2015(const heur_view *h, int c)
{
    const dml_state *s = h->s;
    int old = (s->sw & DML_SW_CARDS_0615) != 0;
    if (dml_is_joker(c)) return 4; /* the Thief */
    int r = dml_rank(c), suit = dml_suit(c);
    if (r == DML_Q) {
        switch (suit) {
        case DML_SUIT_S: { /* Dragon Siege (V3): the unshielded lose their eggs only */
            int mine = eggs_of(h) > h->shields ? eggs_of(h) - h->shields : 0;
            return 10.0 * opponent_eggs_guess(h) - 25.0 * mine - 2;
        }
        case DML_SUIT_C: return 0; /* Harlot Queen: a response */
        case DML_SUIT_H:           /* Pampered Heiress / Mother of Dragons */
            return s->zone_count[DML_Z_NEST] ? 20 - (eggs_of(h) >= h->shields ? 4 : 0) : 0;
        case DML_SUIT_D: return best_stock_gain(h, NULL) - 2; /* Archduchess */
        }
    }
    if (r == DML_J) {
        switch (suit) {
        case DML_SUIT_S: return 0; /* Grand Inquisitor: rarely pays */
        case DML_SUIT_C: return 0; /* Rogue Jester (a response) / Greed Vizier */
        case DML_SUIT_H:           /* Supreme Confisfactor; the Blabbermouth: a gamble */
            return old ? 0 : bm_count(s) ? 7 : 0;
        case DML_SUIT_D: /* Tithe Embezzeler; the Goods Swindler searches a Black Market */
            return old ? (bm_count(s) ? 7 : 0) : 2.0 * (s->n - 1);
        }
    }
    return -1;
}

enum { SIM_STACK = DML_MAX_STACK + PLAY_MAX + 2 };

static int is_harlot(int c) { return c == dml_card(DML_SUIT_C, DML_Q); }
static int is_jester(const dml_state *s, int c)
{
    return c == dml_card(DML_SUIT_C, DML_J) && !(s->sw & DML_SW_CARDS_0615);
}

/* What a Stack entry brings this seat when it resolves: its own play at
 * its worth, another's at the harm it may do. */
static double entry_worth(const heur_view *h, int c, int seat, int emblem)
{
    if (seat == h->me) return emblem ? emblem_value(h, c) : power_value_2015(h, c);
    if (emblem) return -1;
    if (c == dml_card(DML_SUIT_S, DML_Q)) return eggs_of(h) > h->shields ? -25 : -2;
    if (dml_rank(c) == DML_Q) return -4;
    return -2;
}

/* The worth to this seat of a Stack resolving top down (15.6): the Rogue
 * Jester reverses what lies below it; the Harlot Queen nullifies what lies
 * below her (cards-2015-06: the Characters only, a Guild House resolves). */
static double stack_outcome(const heur_view *h, const uint8_t *card0, const uint8_t *flag0, int n)
{
    uint8_t card[SIM_STACK], flag[SIM_STACK];
    if (n > SIM_STACK) n = SIM_STACK;
    memcpy(card, card0, (size_t)n);
    memcpy(flag, flag0, (size_t)n);
    int old = (h->s->sw & DML_SW_CARDS_0615) != 0;
    double v = 0;
    for (int i = n - 1; i >= 0; i--) {
        int c = card[i], seat = flag[i] & DML_SF_SEAT, emb = (flag[i] & DML_SF_EMBLEM) != 0;
        v += entry_worth(h, c, seat, emb);
        if (emb) continue;
        if (is_harlot(c)) {
            if (old)
                for (int j = 0; j < i; j++)
                    if (dml_rank(card[j]) == DML_T)
                        v += entry_worth(h, card[j], flag[j] & DML_SF_SEAT, 1);
            break;
        }
        if (is_jester(h->s, c))
            for (int a = 0, b = i - 1; a < b; a++, b--) {
                uint8_t tc = card[a], tf = flag[a];
                card[a] = card[b];
                flag[a] = flag[b];
                card[b] = tc;
                flag[b] = tf;
            }
    }
    return v;
}

/* The seat's own plays in a Character Power Phase (plays cost nothing,
 * 15.3.2): every card worth more than 0.5, Powers first and Emblems last
 * (they lie on top and resolve first).  The Harlot Queen and the Rogue
 * Jester are kept as responses unless their Emblem is worth more than that
 * (4).  Decadence bars the Powers of the seats it affects (15.8). */
static void plan_plays_2015(const heur_view *h, int powers_ok, play_plan *out)
{
    const dml_state *s = h->s;
    out->n = 0;
    out->value = 0;
    int ecards[PLAY_MAX], ne = 0;
    uint64_t playable =
        (h->hand | selected_mask(s)) &
        (rank_set(DML_T) | rank_set(DML_J) | rank_set(DML_Q) | dml_bit(DML_X1) | dml_bit(DML_X2));
    for (uint64_t m = playable; m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        double reserve = is_harlot(c) || is_jester(s, c) ? 4 : 0;
        double pv = powers_ok ? power_value_2015(h, c) : -1;
        double ev = emblem_value(h, c) - reserve;
        int as_emblem = ev > pv;
        double v = as_emblem ? ev : pv;
        if (v <= 0.5 || out->n + ne >= PLAY_MAX) continue;
        if (as_emblem) {
            ecards[ne++] = c;
        } else {
            out->card[out->n] = c;
            out->emblem[out->n++] = 0;
        }
        out->value += v;
    }
    for (int i = 0; i < ne && out->n < PLAY_MAX; i++) {
        out->card[out->n] = ecards[i];
        out->emblem[out->n++] = 1;
    }
}

/* The worth of the Stack with `add` played on top (in order) by this seat. */
static double outcome_with(const heur_view *h, const play_plan *add)
{
    const dml_state *s = h->s;
    uint8_t card[SIM_STACK], flag[SIM_STACK];
    int n = 0;
    for (int i = 0; i < s->stack_n && n < SIM_STACK; i++, n++) {
        card[n] = s->stack_card[i];
        flag[n] = s->stack_flag[i];
    }
    for (int i = 0; add && i < add->n && n < SIM_STACK; i++, n++) {
        card[n] = (uint8_t)add->card[i];
        flag[n] = (uint8_t)(h->me | (add->emblem[i] ? DML_SF_EMBLEM : 0));
    }
    return stack_outcome(h, card, flag, n);
}

/* Stack priority in a Character Power Phase (V-PD5).  Candidates: the own
 * plays alone; the Harlot Queen below them (they resolve, then she
 * nullifies whatever lay below: a response to others' plays); the Rogue
 * Jester alone or on top of them (it reverses the Stack: a response to a
 * Harlot Queen above our cards).  Each Harlot or Jester spent costs its
 * reserve (4); the best candidate is played when it beats passing by 0.5.
 * The plan depends only on the Hand with the chosen cards and the Stack, so
 * it is the same at every step of the composition. */
static cr_action decide_stack_2015(const heur_view *h, const cr_action *legal, int n, cr_rng *rng)
{
    const dml_state *s = h->s;
    int powers_ok = !(s->event_type == DML_EV_CUSTOMS && ((s->affected >> h->me) & 1));
    uint64_t have = h->hand | selected_mask(s);
    play_plan base, cand, best;
    plan_plays_2015(h, powers_ok, &base);
    double pass = outcome_with(h, NULL);
    double best_v = outcome_with(h, &base);
    best = base;
    int harlot = dml_card(DML_SUIT_C, DML_Q), jester = dml_card(DML_SUIT_C, DML_J);
    if (powers_ok && (have & dml_bit(harlot)) && s->stack_n && base.n < PLAY_MAX) {
        cand.n = 0;
        cand.card[cand.n] = harlot;
        cand.emblem[cand.n++] = 0;
        for (int i = 0; i < base.n; i++)
            if (base.card[i] != harlot) {
                cand.card[cand.n] = base.card[i];
                cand.emblem[cand.n++] = base.emblem[i];
            }
        double v = outcome_with(h, &cand) - 4;
        if (v > best_v + 1e-9) {
            best_v = v;
            best = cand;
        }
    }
    if (powers_ok && is_jester(s, jester) && (have & dml_bit(jester)) && s->stack_n) {
        cand.n = 1;
        cand.card[0] = jester;
        cand.emblem[0] = 0;
        double v = outcome_with(h, &cand) - 4;
        if (v > best_v + 1e-9) {
            best_v = v;
            best = cand;
        }
        cand.n = 0;
        for (int i = 0; i < base.n && cand.n < PLAY_MAX - 1; i++)
            if (base.card[i] != jester) {
                cand.card[cand.n] = base.card[i];
                cand.emblem[cand.n++] = base.emblem[i];
            }
        cand.card[cand.n] = jester;
        cand.emblem[cand.n++] = 0;
        v = outcome_with(h, &cand) - 4;
        if (v > best_v + 1e-9) {
            best_v = v;
            best = cand;
        }
    }
    if (best.n && best_v > pass + 0.5) {
        uint64_t chosen = selected_mask(s);
        for (int i = 0; i < best.n; i++) {
            if (chosen & dml_bit(best.card[i])) continue;
            cr_action a = (best.emblem[i] ? DML_A_EMBLEM : DML_A_POWER) + best.card[i];
            if (legal_has(legal, n, a)) return a;
        }
    }
    return fallback(h, legal, n, rng);
}

/* The k cards of pool whose loss costs least, chosen one by one. */
static uint64_t cheapest_set(const heur_view *h, uint64_t pool, int k)
{
    uint64_t set = 0;
    for (int i = 0; i < k; i++) {
        double best = 1e18;
        int pick = -1;
        for (uint64_t m = pool & ~set; m; m &= m - 1) {
            int c = __builtin_ctzll(m);
            double v = h->base - hand_value(h, h->hand & ~(set | dml_bit(c)));
            if (v < best - 1e-9) {
                best = v;
                pick = c;
            }
        }
        if (pick < 0) break;
        set |= dml_bit(pick);
    }
    return set;
}

/* A 2015 Black Market attempt (15.5.5): TV 7, no Seize; a success takes
 * one random card (+1 per Hearts Emblem), Wyvern Eyes starts a Siege that
 * takes only unshielded eggs (V3).  With bm-wager (15.9, V14) a wager M
 * makes the target 7 - M: a success then leaves M chosen cards behind, a
 * failure loses M random ones.  Returns the expected gain; *wager gets the
 * best M. */
static double visit_value_2015(const heur_view *h, int slot, int *wager)
{
    const dml_state *s = h->s;
    if (wager) *wager = 0;
    int count = s->zone_count[DML_Z_BM + slot];
    if (count == 0) return 0;
    double per_card = 0;
    int nk = 0;
    for (uint64_t m = s->zone[DML_Z_BM + slot]; m; m &= m - 1) {
        per_card += gain_of(h, dml_bit(__builtin_ctzll(m)));
        nk++;
    }
    double unknown = count > nk ? count - nk : 0;
    per_card = (per_card + 4.0 * unknown) / (nk + unknown > 0 ? nk + unknown : 1);
    int take = 1 + popc(h->front & DML_SUIT_MASK(DML_SUIT_H));
    if (take > count) take = count;
    double risk = eggs_of(h) > h->shields ? (1.0 / 36) * 20 * (eggs_of(h) - h->shields) : 0;
    double best = p_succ(7) * take * per_card - risk;
    if (s->sw & DML_SW_BM_WAGER) {
        int hand_n = popc(h->hand);
        double avg_cost = 0;
        for (uint64_t m = h->hand; m; m &= m - 1) avg_cost += cost_of(h, m & -m);
        if (hand_n) avg_cost /= hand_n;
        uint64_t left = 0;
        for (int k = 1; k <= hand_n && k <= 4; k++) {
            left |= cheapest_set(h, h->hand & ~left, 1);
            double p = p_succ(7 - k);
            double ev = p * (take * per_card - cost_of(h, left)) - (1 - p) * k * avg_cost - risk;
            if (ev > best + 1e-9) {
                best = ev;
                if (wager) *wager = k;
            }
        }
    }
    return best;
}

/* The 2015 Market Phase (15.4.2, V-PD2, V-PD3): a Buy when it is worth
 * 1.5 and at least the best Black Market attempt (an Action spent on a
 * Buy is an attempt not made); else an attempt on the best Black Market
 * (a Market Action substituted, or the Black Market Action); else forfeit
 * the rest (End), or the one action left (Nothing). */
static cr_action decide_market_2015(const heur_view *h, const cr_action *legal, int n, cr_rng *rng)
{
    double best_visit = 0.5;
    cr_action visit = -1;
    for (int i = 0; i < n; i++) {
        if (legal[i] >= DML_A_VISIT && legal[i] < DML_A_VISIT + DML_MAX_BM) {
            double v = visit_value_2015(h, legal[i] - DML_A_VISIT, NULL);
            if (v > best_visit + 1e-9) {
                best_visit = v;
                visit = legal[i];
            }
        }
    }
    if (legal_has(legal, n, DML_A_BUY)) {
        decl_plan p = plan_declaration(h, 0, 0);
        if (p.found && p.ev >= 1.5 && (visit < 0 || p.ev >= best_visit)) return DML_A_BUY;
    }
    if (visit >= 0) return visit;
    if (legal_has(legal, n, DML_A_END)) return DML_A_END;
    if (legal_has(legal, n, DML_A_NOTHING)) return DML_A_NOTHING;
    return fallback(h, legal, n, rng);
}

/* bm-wager's M (V-PD6) for the Black Market being visited. */
static cr_action decide_wager(const heur_view *h, const cr_action *legal, int n)
{
    const dml_state *s = h->s;
    int m = 0;
    for (int i = s->nfr - 1; i >= 0; i--)
        if (s->fr[i].proc == DML_P_VISIT) {
            visit_value_2015(h, s->fr[i].a, &m);
            break;
        }
    if (legal_has(legal, n, DML_A_WAGER + m)) return DML_A_WAGER + m;
    return legal_has(legal, n, DML_A_WAGER) ? DML_A_WAGER : legal[0];
}

/* bm-wager's cards left behind (V14): the karg the seat misses least,
 * none of those just taken; emitted in ascending order. */
static cr_action decide_leave(const heur_view *h, const cr_action *legal, int n, cr_rng *rng)
{
    const dml_state *s = h->s;
    uint64_t plan = cheapest_set(h, h->hand & ~s->bm_taken, s->karg);
    return emit_set(h, plan, legal, n, rng);
}

/* cards-2015-06's Troublesome Blabbermouth (V18): the named suit's event
 * starts at once.  Marauders (Clubs) make the seats holding at least EV
 * cards discard one at random: named when the seat holds fewer cards than
 * the others on average; else Tax Relief (Diamonds), whose -2 on Stock
 * values helps the Buys still to come. */
static cr_action decide_name_suit(const heur_view *h, const cr_action *legal, int n)
{
    const dml_state *s = h->s;
    int others = 0, k = 0;
    for (int p = 0; p < s->n; p++)
        if (p != h->me && dml_is_alive(s, p)) {
            others += s->zone_count[DML_Z_HAND + p];
            k++;
        }
    int mine = s->zone_count[DML_Z_HAND + h->me];
    cr_action a = DML_A_SUIT + (k && mine * k < others ? DML_SUIT_C : DML_SUIT_D);
    return legal_has(legal, n, a) ? a : legal[0];
}

/* ---- entry points ------------------------------------------------------------------- */

cr_action dml_heuristic(const cr_game *g, const void *view, int seat, const cr_action *legal, int n,
                        cr_rng *rng)
{
    if (n == 1) return legal[0];
    heur_view h;
    const dml_state *s = view;
    view_init(&h, g, s, seat);
    switch (s->kind) {
    case DML_D_DABO: return decide_dabo(&h, legal, n);
    case DML_D_MARKET: return decide_market(&h, legal, n, rng);
    case DML_D_DECLARE: return decide_declare(&h, legal, n, rng);
    case DML_D_OFFER: return decide_offer(&h, legal, n, rng);
    case DML_D_COMMIT_ACT: return decide_commit_active(&h, legal, n, rng);
    case DML_D_COMMIT_PAS: return decide_commit_passive(&h, legal, n, rng);
    case DML_D_STACK: return decide_stack(&h, legal, n, rng);
    case DML_D_VICE: return decide_vice(&h, legal, n);
    case DML_D_COUNSEL_BM: return decide_counsel_bm(&h, legal, n);
    case DML_D_COUNSEL_CARD: return pick_card(&h, legal, n, 1);
    case DML_D_TITHE: return pick_card(&h, legal, n, 0);
    case DML_D_HARLOT: return decide_harlot(&h, legal, n);
    case DML_D_ARCHDUCHESS: return decide_stock(&h, legal, n);
    case DML_D_THIEF_MODE: return legal_has(legal, n, DML_A_TAKE) ? DML_A_TAKE : legal[0];
    case DML_D_THIEF_CARD: return pick_card(&h, legal, n, 0);
    case DML_D_THIEF_PLAYER: {
        /* Taking: the fullest Hand; giving: the emptiest.  The Thief's
         * frame waits at step 2 for the receiver of a gift, 4 for a take. */
        int giving = 0;
        for (int i = s->nfr - 1; i >= 0; i--)
            if (s->fr[i].proc == DML_P_POWER) {
                giving = s->fr[i].step == 2;
                break;
            }
        return decide_player(&h, legal, n, !giving);
    }
    case DML_D_PILE: return legal[0]; /* V-PD1: the piles look alike */
    case DML_D_WAGER: return decide_wager(&h, legal, n);
    case DML_D_LEAVE: return decide_leave(&h, legal, n, rng);
    case DML_D_NAME_SUIT: return decide_name_suit(&h, legal, n);
    default: break;
    }
    /* Unknown decision: recognize it from the legal list. */
    if (legal_has(legal, n, DML_A_REROLL)) return decide_dabo(&h, legal, n);
    if (legal_has(legal, n, DML_A_END)) return decide_market(&h, legal, n, rng);
    return cr_policy_random(g, view, seat, legal, n, rng);
}
