/* observe.c — what one seat knows, and full states consistent with it.
 *
 * An observation is a dml_state in which everything the seat does not know
 * is erased: each zone mask keeps only the cards the seat has pinned there
 * (pin[seat][z], see dml_internal.h), loc[] says 0xfe for a card it cannot
 * place, the other seats' knowledge is zeroed, other seats' half-built
 * choices are cleared, the Nest's order is erased, the other seats' Victory
 * Points are erased after an end that revealed no Hands (Monopoly, Father of
 * Dragons, last merchant standing), and zone_count[] keeps the true (public)
 * counts.
 *
 * The sampler (determinization) refills the erased cards: every card the
 * seat cannot place goes to a zone whose count has room and that the seat
 * thinks possible for it (may[seat][z]).  Such an assignment is a bipartite
 * b-matching, found with augmenting paths (Kuhn) in a random order, then
 * mixed by random swaps that keep every constraint (a symmetric chain whose
 * stationary law is uniform over the consistent assignments).  The true
 * state is one of them, so a consistent assignment always exists.
 */
#include <string.h>

#include "games/dml/dml_internal.h"

enum { UNKNOWN_LOC = 0xfe };

static int popc(uint64_t m) { return __builtin_popcountll(m); }

/* DML-2015's piles are face down to everyone: which card lies in which
 * pile is erased (their counts stay). */
static void hide_piles(dml_state *o)
{
    for (int p = 0; p < 4; p++)
        for (int i = 0; i < 2; i++)
            if (o->pile[p][i]) o->pile[p][i] = DML_HIDDEN_PILE_CARD;
}

/* The public view (CR_SEAT_PUBLIC): what every seat knows, i.e. each zone
 * keeps the cards all seats have pinned there; nobody's memory, choice in
 * progress or hidden Victory Points. */
static void observe_public(const dml_state *s, dml_state *o)
{
    memcpy(o, s, sizeof *o);
    uint64_t known[DML_NZONES];
    for (int z = 0; z < DML_NZONES; z++) known[z] = DML_ALL_CARDS;
    for (int q = 0; q < s->n && q < 4; q++) {
        if (!s->knowledge || (s->know_off >> q & 1)) /* no memory kept: what q sees now */
            dml_reset_knowledge(o, q);
        for (int z = 0; z < DML_NZONES; z++) known[z] &= o->pin[q][z];
    }
    for (int z = 0; z < DML_NZONES; z++) o->zone[z] &= known[z];
    for (int c = 0; c < DML_NCARDS; c++)
        if (o->loc[c] < DML_NZONES && !(o->zone[o->loc[c]] & dml_bit(c))) o->loc[c] = UNKNOWN_LOC;
    memset(o->pin, 0, sizeof o->pin);
    memset(o->may, 0, sizeof o->may);
    for (int i = 0; i < o->nest_top_n; i++) o->nest_top[i] = UNKNOWN_LOC;
    hide_piles(o);
    o->n_applied = 0;
    /* which card a Thief took is seen by its two players only */
    for (int q = 0; q < 4; q++) o->feat[q] &= (uint16_t)~DML_FEAT_JOKER_THIEF;
    if (o->over && o->end_reason != DML_END_VP) memset(o->vp, 0, sizeof o->vp);
    if (o->need == DML_NEED_DECISION) {
        memset(o->sel, 0, sizeof o->sel);
        o->sel_emblem = 0;
        o->sel_n = o->sel_targets = 0;
    }
    o->knowledge = 1;
    o->know_off = 0;
    o->obs_seat = DML_OBS_PUBLIC;
}

void dml_observe(const cr_game *g, const void *st, int seat, void *obs)
{
    (void)g;
    const dml_state *s = st;
    dml_state *o = obs;
    if (seat == CR_SEAT_PUBLIC) {
        observe_public(s, o);
        return;
    }
    memcpy(o, s, sizeof *o);
    if (seat == CR_SEAT_OMNISCIENT || seat < 0 || seat >= s->n) {
        /* everything (an invalid seat gets nothing: the public view) */
        if (seat != CR_SEAT_OMNISCIENT) {
            observe_public(s, o);
            return;
        }
        o->obs_seat = DML_OBS_ALL;
        return;
    }
    /* rollout states, and the lab's seats whose memory is not kept: what
     * the seat sees now */
    if (!s->knowledge || (s->know_off >> seat & 1)) dml_reset_knowledge(o, seat);
    for (int z = 0; z < DML_NZONES; z++) o->zone[z] &= o->pin[seat][z];
    for (int c = 0; c < DML_NCARDS; c++)
        if (o->loc[c] < DML_NZONES && !(o->zone[o->loc[c]] & dml_bit(c))) o->loc[c] = UNKNOWN_LOC;
    for (int q = 0; q < 4; q++) {
        if (q == seat) continue;
        memset(o->pin[q], 0, sizeof o->pin[q]);
        memset(o->may[q], 0, sizeof o->may[q]);
    }
    /* The Nest is face-down: its count is open, its order is not shown
     * (every egg plays alike; docs/rulings.md C7). */
    for (int i = 0; i < o->nest_top_n; i++) o->nest_top[i] = UNKNOWN_LOC;
    hide_piles(o);
    /* The count of applied actions includes the other seats' one-card steps
     * and withdrawals while composing (C8): not part of what a seat sees. */
    o->n_applied = 0;
    /* which card a Thief took is seen by its two players only: the seat
     * keeps its own feat, and forgets the others' */
    for (int q = 0; q < 4; q++)
        if (q != seat) o->feat[q] &= (uint16_t)~DML_FEAT_JOKER_THIEF;
    /* Victory Points are public only when the VP sequence revealed every
     * Hand and King (11.2); after Monopoly, Father of Dragons or the last
     * merchant standing, the others' totals would tell their hidden cards. */
    if (o->over && o->end_reason != DML_END_VP)
        for (int q = 0; q < 4; q++)
            if (q != seat) o->vp[q] = 0;
    if (o->need == DML_NEED_DECISION && o->actor != seat) { /* a choice still in its head */
        memset(o->sel, 0, sizeof o->sel);
        o->sel_emblem = 0;
        o->sel_n = o->sel_targets = 0;
    }
    o->knowledge = 1;
    o->know_off = 0;
    o->obs_seat = (uint8_t)seat;
}

/* Cards in play in this variant (Market Mayhem has no J, Q, A, Jokers). */
static uint64_t cards_in_play(const dml_state *s)
{
    if (s->variant != DML_V_MAYHEM) return DML_ALL_CARDS;
    return dml_commodity_mask() | dml_rank_mask[DML_K];
}

typedef struct matcher {
    uint64_t may[DML_NZONES];
    int cap[DML_NZONES], used[DML_NZONES];
    uint8_t held[DML_NZONES][DML_NCARDS];
    int8_t assign[DML_NCARDS];
    uint8_t visited[DML_NZONES];
    int zorder[DML_NZONES], nz;
} matcher;

static int augment(matcher *m, int card)
{
    for (int i = 0; i < m->nz; i++) {
        int z = m->zorder[i];
        if (m->visited[z] || !(m->may[z] & dml_bit(card))) continue;
        m->visited[z] = 1;
        if (m->used[z] < m->cap[z]) {
            m->held[z][m->used[z]++] = (uint8_t)card;
            m->assign[card] = (int8_t)z;
            return 1;
        }
        for (int j = 0; j < m->used[z]; j++) {
            int other = m->held[z][j];
            if (augment(m, other)) {
                m->held[z][j] = (uint8_t)card;
                m->assign[card] = (int8_t)z;
                return 1;
            }
        }
    }
    return 0;
}

static void shuffle_ints(int *v, int n, cr_rng *rng)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)cr_rng_below(rng, (uint32_t)i + 1);
        int t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

/* During Setup the deal is known: each seat dealt so far holds one King,
 * then one 2 and one 3, the pool the rest.  The zone masks cannot carry
 * "exactly one 2" (C7), so the cards of those ranks that the seat cannot
 * place are dealt again here: each other seat gets as many of each rank as
 * the deal gave it, uniformly among the unknown cards of that rank. */
static void setup_redeal(const dml_state *o, matcher *m, const int *cards, int nc, cr_rng *rng)
{
    static const int ranks[3] = {DML_K, 2, 3};
    for (int ri = 0; ri < 3; ri++) {
        int r = ranks[ri], base = r == DML_K ? DML_Z_KING : DML_Z_HAND;
        int pick[DML_NCARDS], np = 0, k = 0;
        for (int i = 0; i < nc; i++)
            if (dml_rank(cards[i]) == r) pick[np++] = cards[i];
        shuffle_ints(pick, np, rng);
        for (int p = 0; p < o->n; p++) {
            int need = dml_setup_dealt(o, p, r) - popc(o->zone[base + p] & dml_rank_mask[r]);
            for (; need > 0 && k < np; need--) m->assign[pick[k++]] = (int8_t)(base + p);
        }
        while (k < np) m->assign[pick[k++]] = DML_Z_POOL;
    }
}

/* DML-2015's Setup (15.2): the unknown Kings, 2s and 3s dealt again so
 * that every King slot, pile and chosen Hand holds what its public count
 * says (a pile of one card: its 2; of two: a 2 and a 3; a Hand of two: a 2
 * and a 3), the rest staying in the pool. */
static void setup_redeal_2015(const dml_state *o, matcher *m, const int *cards, int nc, cr_rng *rng)
{
    static const int ranks[3] = {DML_K, 2, 3};
    for (int ri = 0; ri < 3; ri++) {
        int r = ranks[ri];
        int pick[DML_NCARDS], np = 0, k = 0;
        for (int i = 0; i < nc; i++)
            if (dml_rank(cards[i]) == r) pick[np++] = cards[i];
        shuffle_ints(pick, np, rng);
        for (int z = 0; z < DML_NZONES; z++) {
            int holds = 0;
            if (z >= DML_Z_KING && z < DML_Z_KING + 4)
                holds = r == DML_K ? o->zone_count[z] : 0;
            else if (z >= DML_Z_HAND && z < DML_Z_HAND + 4)
                holds = r != DML_K && o->zone_count[z] == 2;
            else if (z == DML_Z_PILES) /* as many as the piles list (their cards are hidden) */
                for (int p = 0; p < 4; p++) holds += r != DML_K && o->pile[p][r - 2] != 0;
            else
                continue;
            int need = holds - popc(o->zone[z] & dml_rank_mask[r]);
            for (; need > 0 && k < np; need--) m->assign[pick[k++]] = (int8_t)z;
        }
        while (k < np) m->assign[pick[k++]] = DML_Z_POOL;
    }
}

size_t dml_sample_scratch(void) { return sizeof(matcher); }

/* The matching lives in the caller's context (cr_ctx.scratch, one per
 * thread): 9 KB off the stack, and no memory of the game's own. */
cr_status dml_sample(const cr_game *g, const void *obs, cr_rng *rng, void *st_out, cr_ctx *cx)
{
    (void)g;
    const dml_state *o = obs;
    dml_state *s = st_out;
    if (o->obs_seat >= o->n) return CR_ERR_INVALID;
    if (cx == NULL || cx->scratch == NULL || cx->scratch_size < sizeof(matcher))
        return CR_ERR_INVALID; /* a caller bug: sample needs the context's scratch */
    int q = o->obs_seat;
    memcpy(s, o, sizeof *s);

    matcher *m = cx->scratch;
    memset(m, 0, sizeof *m);
    uint64_t known = 0;
    for (int z = 0; z < DML_NZONES; z++) known |= o->zone[z];
    uint64_t unknown = cards_in_play(o) & ~known;
    int cards[DML_NCARDS], nc = 0;
    for (uint64_t u = unknown; u; u &= u - 1) cards[nc++] = __builtin_ctzll(u);
    for (int z = 0; z < DML_NZONES; z++) {
        m->cap[z] = o->zone_count[z] - popc(o->zone[z]);
        if (m->cap[z] < 0) return CR_ERR_INVALID;
        m->may[z] = o->may[q][z] & unknown;
        if (m->cap[z] > 0) m->zorder[m->nz++] = z;
    }
    for (int c = 0; c < DML_NCARDS; c++) m->assign[c] = -1;
    shuffle_ints(cards, nc, rng);
    shuffle_ints(m->zorder, m->nz, rng);
    for (int i = 0; i < nc; i++) {
        memset(m->visited, 0, sizeof m->visited);
        if (!augment(m, cards[i])) return CR_ERR_INVALID;
    }
    /* mix: swap two cards between zones where both fit */
    for (int it = 0; nc > 1 && it < 16 * nc; it++) {
        int a = cards[cr_rng_below(rng, (uint32_t)nc)], b = cards[cr_rng_below(rng, (uint32_t)nc)];
        int za = m->assign[a], zb = m->assign[b];
        if (za == zb || !(m->may[zb] & dml_bit(a)) || !(m->may[za] & dml_bit(b))) continue;
        m->assign[a] = (int8_t)zb;
        m->assign[b] = (int8_t)za;
    }
    if (o->nfr && o->fr[0].proc == DML_P_GAME && o->variant == DML_V_2015 &&
        (o->fr[0].step <= 2 || o->fr[0].step >= 7))
        setup_redeal_2015(o, m, cards, nc, rng);
    else if (o->nfr && o->fr[0].proc == DML_P_GAME && o->fr[0].step <= 3)
        setup_redeal(o, m, cards, nc, rng);
    for (int i = 0; i < nc; i++) {
        int c = cards[i], z = m->assign[c];
        s->zone[z] |= dml_bit(c);
        s->loc[c] = (uint8_t)z;
    }
    for (int z = 0; z < DML_NZONES; z++)
        if (popc(s->zone[z]) != s->zone_count[z]) return CR_ERR_INVALID;
    /* DML-2015's piles: the hidden 2s and 3s of the piles' zone, in a random
     * order, into the piles that list one (every order is equally likely) */
    for (int r = 0; r < 2; r++) {
        int pick[4], np = 0;
        for (uint64_t left = s->zone[DML_Z_PILES] & dml_rank_mask[2 + r]; left && np < 4;
             left &= left - 1)
            pick[np++] = __builtin_ctzll(left);
        shuffle_ints(pick, np, rng);
        for (int p = 0, k = 0; p < 4; p++)
            if (s->pile[p][r]) {
                if (k >= np) return CR_ERR_INVALID;
                s->pile[p][r] = (uint8_t)(pick[k++] + 1);
            }
    }
    /* During Setup the pool must still serve every deal to come.  The
     * seats' masks cannot say "P0 holds exactly one 2 and one 3", and an
     * observation of a search state has no memory at all, so a draw may
     * break that; it is refused rather than played (docs/rulings.md C7). */
    if (!dml_setup_pool_ok(s)) return CR_ERR_INVALID;
    /* the Nest's top part: its positions get eggs of the Nest in a random order */
    uint64_t spare = s->zone[DML_Z_NEST];
    for (int i = 0; i < s->nest_top_n; i++) {
        int k = (int)cr_rng_below(rng, (uint32_t)popc(spare));
        uint64_t t = spare;
        while (k--) t &= t - 1;
        s->nest_top[i] = (uint8_t)__builtin_ctzll(t);
        spare &= ~(t & -t);
    }
    for (int p = 0; p < s->n; p++)
        if (p != q) dml_reset_knowledge(s, p);
    s->obs_seat = 0xff;
    return CR_OK;
}
