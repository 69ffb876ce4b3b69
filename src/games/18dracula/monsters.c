/* monsters.c — 18Dracula's monsters and phases: what the bank offers (7.2,
 * R39, R114), the monster limit and claws/fangs (8.11.2-3, R77-R79, R119,
 * R124), acquiring monsters (killed_by_claw), bank purchases and the phase
 * tracker (7.1, R38), phase changes (7.3, R41-R43, R50), the order of limit
 * discards (R115), and dividends with stock movement (8.10, R71-R73, R126).
 *
 * A monster copy is always in exactly one place (mon_at): the bank, the
 * market, gone, or with an entity; copies of one type are interchangeable,
 * so an action names a type and the lowest-numbered copy there moves.
 */
#include "games/18dracula/d18_internal.h"

int d18_copy_type(const d18_board *b, int copy)
{
    return copy >= 0 && copy < b->n_copies ? b->copy_type[copy] : 0;
}

/* The lowest copy of `type` at place `at`, or -1. */
int d18_copy_at(const cr_game *g, const d18_state *s, int type, int at)
{
    const d18_monster *m = &d18_brd(g)->monster[type];
    for (int i = 0; i < m->copies; i++)
        if (s->mon_at[m->first_copy + i] == at) return m->first_copy + i;
    return -1;
}

int d18_bank_copy(const cr_game *g, const d18_state *s, int type)
{
    return d18_copy_at(g, s, type, D18_AT_BANK);
}

/* The phase whose monsters the bank offers fronts now (7.2, R39). */
int d18_offered_phase(const cr_game *g, const d18_state *s)
{
    const d18_board *b = d18_brd(g);
    int p = s->phase;
    if (p >= 5) return 5;
    if (s->tracker >= b->sales[p - 1]) return p + 1;
    for (int c = 0; c < b->n_copies; c++)
        if (s->mon_at[c] == D18_AT_BANK && b->monster[b->copy_type[c]].phase == p) return p;
    return p + 1; /* the phase's monsters ran out early */
}

/* Whether the bank offers `type` to entity e (7.2; BT: Nurses only, any
 * phase, R114; LL: nothing). */
int d18_bank_offers(const cr_game *g, const d18_state *s, int e, int type)
{
    const d18_monster *m = &d18_brd(g)->monster[type];
    if (e == D18_ENT_LL || d18_bank_copy(g, s, type) < 0) return 0;
    if (e == D18_ENT_BT) return (m->flags & D18_F_NURSE) != 0;
    return !(m->flags & D18_F_NURSE) && m->phase == d18_offered_phase(g, s);
}

/* b of 8.11.6: the price of the cheapest monster the bank offers e.  The
 * same answer as asking d18_bank_offers of every type, in one pass over
 * the copies with the offered phase worked out once (the rules engine and
 * the heuristic ask this many times per decision). */
int d18_cheapest_offer(const cr_game *g, const d18_state *s, int e)
{
    const d18_board *b = d18_brd(g);
    if (e == D18_ENT_LL) return -1;
    int phase = e == D18_ENT_BT ? -1 : d18_offered_phase(g, s), best = -1;
    for (int c = 0; c < b->n_copies; c++) {
        if (s->mon_at[c] != D18_AT_BANK) continue;
        const d18_monster *m = &b->monster[b->copy_type[c]];
        int offered = e == D18_ENT_BT ? (m->flags & D18_F_NURSE) != 0
                                      : !(m->flags & D18_F_NURSE) && m->phase == phase;
        if (offered && (best < 0 || m->price < best)) best = m->price;
    }
    return best;
}

/* Monsters e owns (counted_only: those that count against the limit, R78). */
int d18_owned(const cr_game *g, const d18_state *s, int e, int counted_only)
{
    const d18_board *b = d18_brd(g);
    int n = 0;
    for (int c = 0; c < b->n_copies; c++)
        if (s->mon_at[c] == D18_AT_ENTITY + e &&
            !(counted_only && (b->monster[b->copy_type[c]].flags & D18_F_LIMIT_EXEMPT)))
            n++;
    return n;
}

int d18_owns_cf(const cr_game *g, const d18_state *s, int e, int cf)
{
    const d18_board *b = d18_brd(g);
    for (int c = 0; c < b->n_copies; c++)
        if (s->mon_at[c] == D18_AT_ENTITY + e && b->monster[b->copy_type[c]].cf == cf) return 1;
    return 0;
}

/* The limit and claw/fang checks of acquiring one monster of `type`, made
 * on what e owns before the acquisition (R119, R124). */
int d18_may_acquire(const cr_game *g, const d18_state *s, int e, int type)
{
    const d18_board *b = d18_brd(g);
    const d18_monster *m = &b->monster[type];
    if (m->cf == D18_CF_CLAW && d18_owns_cf(g, s, e, D18_CF_FANG)) return 0;
    if (m->cf == D18_CF_FANG && d18_owns_cf(g, s, e, D18_CF_CLAW)) return 0;
    if (m->flags & D18_F_LIMIT_EXEMPT) return 1;
    return d18_owned(g, s, e, 1) < b->limit[s->phase - 1];
}

int d18_over_monster_limit(const cr_game *g, const d18_state *s, int e)
{
    return d18_owned(g, s, e, 1) > d18_brd(g)->limit[s->phase - 1];
}

/* Copy `copy` joins e; a claw removes e's killed_by_claw monsters (8.9.8). */
void d18_acquire(const cr_game *g, d18_state *s, int e, int copy)
{
    const d18_board *b = d18_brd(g);
    s->mon_at[copy] = (uint8_t)(D18_AT_ENTITY + e);
    if (b->monster[d18_copy_type(b, copy)].cf != D18_CF_CLAW) return;
    for (int c = 0; c < b->n_copies; c++)
        if (s->mon_at[c] == D18_AT_ENTITY + e &&
            (b->monster[d18_copy_type(b, c)].flags & D18_F_KILLED_BY_CLAW))
            s->mon_at[c] = D18_AT_GONE;
}

/* e buys a `type` from the bank with its own treasury (the caller checked
 * that the bank offers it and e may acquire it).  A front's purchase of a
 * non-Nurse moves the tracker (R38) unless it starts a phase (R37). */
void d18_buy_bank(const cr_game *g, d18_state *s, int e, int type)
{
    const d18_monster *m = &d18_brd(g)->monster[type];
    int copy = d18_bank_copy(g, s, type);
    if (copy < 0) return; /* not offered: the caller's check makes this unreachable */
    d18_bank_take(s, d18_ent_cash(s, e), m->price);
    d18_acquire(g, s, e, copy);
    if (m->flags & D18_F_NURSE) return;
    if (m->phase > s->phase)
        d18_new_phase(g, s, m->phase);
    else if (s->phase < 5)
        s->tracker++;
}

static void close_minor(const cr_game *g, d18_state *s, int e)
{
    const d18_board *b = d18_brd(g);
    for (int l = 0; l < b->n_locations; l++)
        for (int i = 0; i < b->loc[l].n_spaces; i++)
            if (s->space_occ[l][i] == e) s->space_occ[l][i] = D18_OCC_EMPTY;
    int32_t *cash = d18_ent_cash(s, e);
    d18_bank_take(s, cash, *cash);
    for (int c = 0; c < b->n_copies; c++)
        if (s->mon_at[c] == D18_AT_ENTITY + e) s->mon_at[c] = D18_AT_GONE;
}

/* A phase change (7.3, R41): cubes, eating, closing; the limit discards
 * follow as decisions (d18_next_discarder). */
void d18_new_phase(const cr_game *g, d18_state *s, int phase)
{
    const d18_board *b = d18_brd(g);
    s->phase = (uint8_t)phase;
    s->tracker = 0;
    for (int c = 0; c < D18_NUM_COLOURS; c++) s->supply[c] += b->release[phase - 1][c]; /* R43 */
    for (int c = 0; c < b->n_copies; c++) /* R42: wherever it is */
        if (b->monster[d18_copy_type(b, c)].eaten == phase) s->mon_at[c] = D18_AT_GONE;
    if (phase == 4) {
        for (int a = 0; a < D18_NASSOC; a++) {
            if (a == D18_FD || (s->assoc_closed >> a & 1)) continue;
            s->assoc_closed |= (uint8_t)(1u << a);
            int o = s->assoc_owner[a];
            if ((a == D18_LL || a == D18_BT) && o >= 0 && o < D18_MAXP)
                close_minor(g, s, a == D18_LL ? D18_ENT_LL : D18_ENT_BT); /* R50 */
        }
    }
}

static int minor_open(const d18_state *s, int e)
{
    int a = e == D18_ENT_LL ? D18_LL : D18_BT;
    return !(s->assoc_closed >> a & 1);
}

/* Who discards next after a phase change or a merger (R79, R115): the
 * operating front, then the floated fronts in operating order, then LL,
 * then BT; -1 when nobody is over the limit. */
int d18_next_discarder(const cr_game *g, const d18_state *s)
{
    /* The counted monsters of every entity in one pass over the copies
     * (what d18_over_monster_limit counts for one): settle asks this after
     * every action. */
    const d18_board *b = d18_brd(g);
    int counted[D18_NENT] = {0}, limit = b->limit[s->phase - 1];
    for (int c = 0; c < b->n_copies; c++) {
        int at = s->mon_at[c] - D18_AT_ENTITY;
        if (at >= 0 && at < D18_NENT && !(b->monster[b->copy_type[c]].flags & D18_F_LIMIT_EXEMPT))
            counted[at]++;
    }
    if (s->op_front >= 0 && counted[s->op_front] > limit) return s->op_front;
    int best = -1;
    for (int f = 0; f < D18_NFRONTS; f++) {
        if (!(s->floated >> f & 1) || f == s->op_front || counted[f] <= limit) continue;
        if (best < 0 || d18_op_before(g, s, f, best)) best = f;
    }
    if (best >= 0) return best;
    for (int e = D18_ENT_LL; e <= D18_ENT_BT; e++)
        if (minor_open(s, e) && counted[e] > limit) return e;
    return -1;
}

/* Pay or retain (8.10). */
void d18_dividend(const cr_game *g, d18_state *s, int f, int revenue, int pay_out)
{
    if (revenue <= 0 || !pay_out) { /* R71: nothing earned retains */
        d18_bank_pay(s, &s->treasury[f], revenue);
        d18_market_move(g, s, f, 0, -1); /* R73: no cell to the left: stays */
        return;
    }
    int per = revenue / 10; /* R72, R126 */
    for (int p = 0; p < s->np; p++) d18_bank_pay(s, &s->cash[p], per * s->held[f][p]);
    d18_bank_pay(s, &s->treasury[f], per * s->pool[f]); /* R33: IPO shares earn nothing */
    if (!d18_market_move(g, s, f, 0, 1)) d18_market_move(g, s, f, -1, 0);
}
