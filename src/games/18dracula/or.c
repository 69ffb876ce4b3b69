/* or.c — 18Dracula's operating rounds (spec 8) and the castle auction (6):
 * OR sets and their order (8.1, 8.2, R45-R47), LL and BT as minors (8.4,
 * R48), an operating turn's steps (8.3: build, office, rampage, dividend,
 * buy), buying monsters (8.11.1, R74-R76), the forced purchase with
 * presidential contributions and emergency sales (8.11.6, R80-R82, R111),
 * bankruptcy with the final sales (8.11.7, R83, R113), limit discards
 * (8.11.4, R79, R115), and the game's end (10, R93, R121).
 *
 * Flow.  After every action `settle` moves the game on to its next
 * decision: pending discards first, then the operating entity's step, then
 * the next entity, the next OR, the next stock round.  Steps without a
 * choice are passed over (a build step with nothing buildable, an office
 * step with no office possible, a dividend of 0, LL's end); the rampage is
 * always an explicit action so that the record shows it.
 */
#include <string.h>

#include "games/18dracula/d18_internal.h"

static int next_seat(const d18_state *s, int p) { return s->seat_at[(s->pos_of[p] + 1) % s->np]; }

int d18_owner_of(const d18_state *s, int e)
{
    if (e < D18_NFRONTS) return s->pres[e];
    int o = s->assoc_owner[e == D18_ENT_LL ? D18_LL : D18_BT];
    return o >= 0 && o < D18_MAXP ? o : -1;
}

static int minor_runs(const d18_state *s, int e)
{
    int a = e == D18_ENT_LL ? D18_LL : D18_BT;
    return !(s->assoc_closed >> a & 1) && d18_owner_of(s, e) >= 0;
}

/* ---- the forced purchase (8.11.6) ---- */

/* R80: a completed route space, not under the castle, touches a city with
 * a face-up office of f. */
static int legal_route(const cr_game *g, const d18_state *s, int f)
{
    const d18_board *b = d18_brd(g);
    for (int l = 0; l < b->n_locations; l++) {
        if (b->loc[l].kind != D18_CITY || !d18_has_office(g, s, f, l)) continue;
        for (int i = 0; i < b->loc[l].n_adj; i++) {
            int r = b->loc[l].adj[i];
            if (s->cube[r] != D18_CUBE_NONE && r != s->castle) return 1;
        }
    }
    return 0;
}

static int must_buy(const cr_game *g, const d18_state *s, int f)
{
    return f < D18_NFRONTS && d18_owned(g, s, f, 0) == 0 && legal_route(g, s, f);
}

static int can_buy_bank(const cr_game *g, const d18_state *s, int e, int t)
{
    const d18_board *b = d18_brd(g);
    if (t < 0 || t >= b->n_monsters || !d18_bank_offers(g, s, e, t)) return 0;
    return b->monster[t].price <= d18_ent_cash_of(s, e) && d18_may_acquire(g, s, e, t);
}

static int can_buy_market(const cr_game *g, const d18_state *s, int f, int t)
{
    const d18_board *b = d18_brd(g);
    if (f >= D18_NFRONTS || t < 0 || t >= b->n_monsters) return 0;
    if ((b->monster[t].flags & D18_F_NURSE) || d18_copy_at(g, s, t, D18_AT_MARKET) < 0) return 0;
    return b->monster[t].price <= s->treasury[f] && d18_may_acquire(g, s, f, t);
}

static int any_market_buy(const cr_game *g, const d18_state *s, int f)
{
    for (int t = 0; t < d18_brd(g)->n_monsters; t++)
        if (can_buy_market(g, s, f, t)) return 1;
    return 0;
}

/* Whether f's president is short: treasury + cash < b (item 4). */
static int short_of(const d18_state *s, int f, int b)
{
    return b >= 0 && s->treasury[f] + s->cash[s->pres[f]] < b;
}

static int can_em_sell(const cr_game *g, const d18_state *s, int f, int g2, int k, int need_check);

/* M(X) of 8.11.7 (R112): the most f's president could still raise by
 * emergency sales, one sale of the largest legal number of shares per
 * front at today's price ("no larger than needed" ignored). */
static int32_t raisable(const cr_game *g, const d18_state *s, int f)
{
    int32_t m = 0;
    for (int g2 = 0; g2 < D18_NFRONTS; g2++)
        for (int k = D18_MARKET_LIMIT; k >= 1; k--)
            if (can_em_sell(g, s, f, g2, k, 0)) {
                m += (int32_t)k * d18_price(g, s, g2);
                break;
            }
    return m;
}

int d18_must_buy(const cr_game *g, const d18_state *s, int f) { return must_buy(g, s, f); }

int32_t d18_raisable(const cr_game *g, const d18_state *s, int f) { return raisable(g, s, f); }

/* 8.11.7, R84, R112, R128, R129: the technical-bankruptcy restriction
 * applies to front f in its forced purchase. */
static int tech_restricted(const cr_game *g, const d18_state *s, int f)
{
    const d18_board *b = d18_brd(g);
    if (!must_buy(g, s, f)) return 0; /* first: the cheap question, usually no */
    int bb = d18_cheapest_offer(g, s, f), x = s->pres[f];
    if (bb < 0) return 0;
    int fronts = 0, permanent = 0;
    int64_t money = s->cash[x];
    for (int h = 0; h < D18_NFRONTS; h++) {
        if (s->pres[h] != x) continue;
        fronts++; /* a started, unfloated front counts (R129) */
        money += s->treasury[h];
    }
    if (fronts < 2 || money >= bb) return 0;
    for (int c = 0; c < b->n_copies; c++) {
        int at = s->mon_at[c];
        if (at < D18_AT_ENTITY || at - D18_AT_ENTITY >= D18_NFRONTS) continue;
        if (s->pres[at - D18_AT_ENTITY] == x && b->monster[d18_copy_type(b, c)].eaten == 0)
            permanent++;
    }
    if (permanent != 1) return 0;
    /* X would otherwise be bankrupt: no market monster f may take and pay
     * for (R128), and not even every possible sale would cover b. */
    if (any_market_buy(g, s, f)) return 0;
    return (int64_t)s->treasury[f] + s->cash[x] + raisable(g, s, f) < bb;
}

/* can_offer_monster with tech_restricted(g, s, f) given: the loops over
 * fronts and types ask it once. */
static int offer_ok(const cr_game *g, const d18_state *s, int f, int f2, int t, int price,
                    int restricted)
{
    const d18_board *b = d18_brd(g);
    if (f >= D18_NFRONTS || f2 == f || f2 < 0 || f2 >= D18_NFRONTS || t < 0 || t >= b->n_monsters)
        return 0;
    if ((b->monster[t].flags & D18_F_NURSE) || (s->declined_mon[f2] >> t & 1)) return 0;
    if (d18_copy_at(g, s, t, D18_AT_ENTITY + f2) < 0) return 0;
    if (price < 1 || price > s->treasury[f] || !d18_may_acquire(g, s, f, t)) return 0;
    /* Under the restriction: a permanent monster for the whole treasury. */
    if (restricted && (b->monster[t].eaten != 0 || price != s->treasury[f])) return 0;
    return 1;
}

static int can_offer_monster(const cr_game *g, const d18_state *s, int f, int f2, int t, int price)
{
    return offer_ok(g, s, f, f2, t, price, tech_restricted(g, s, f));
}

static int any_offer(const cr_game *g, const d18_state *s, int f)
{
    int restricted = tech_restricted(g, s, f), price = restricted ? s->treasury[f] : 1;
    for (int f2 = 0; f2 < D18_NFRONTS; f2++)
        for (int t = 0; t < d18_brd(g)->n_monsters; t++)
            if (offer_ok(g, s, f, f2, t, price, restricted)) return 1;
    return 0;
}

/* An emergency sale of k shares of g2 by f's president (items 4-5): normal
 * sale rules, not changing f's presidency, no larger than needed. */
static int em_sell_ok(const cr_game *g, const d18_state *s, int f, int g2, int k, int need_check,
                      int b);

static int can_em_sell(const cr_game *g, const d18_state *s, int f, int g2, int k, int need_check)
{
    if (!must_buy(g, s, f)) return 0;
    return em_sell_ok(g, s, f, g2, k, need_check, d18_cheapest_offer(g, s, f));
}

/* can_em_sell once must_buy(g, s, f) holds and b = d18_cheapest_offer(g,
 * s, f): the menu's loop over fronts and share counts asks those once. */
static int em_sell_ok(const cr_game *g, const d18_state *s, int f, int g2, int k, int need_check,
                      int b)
{
    int p = s->pres[f];
    if (!short_of(s, f, b)) return 0;
    if (g2 < 0 || g2 >= D18_NFRONTS || !d18_sell_ok(g, s, p, g2, k)) return 0;
    if (g2 == f) { /* the helped front keeps its president */
        int h = s->held[f][p] - k, m = 0;
        for (int q = 0; q < s->np; q++)
            if (q != p && s->held[f][q] > m) m = s->held[f][q];
        if (h < m) return 0;
    }
    if (need_check && s->treasury[f] + s->cash[p] + (k - 1) * d18_price(g, s, g2) >= b) return 0;
    return 1;
}

static int em_buy_ok(const cr_game *g, const d18_state *s, int f, int t, int bb);

static int can_em_buy(const cr_game *g, const d18_state *s, int f, int t)
{
    if (!must_buy(g, s, f)) return 0;
    return em_buy_ok(g, s, f, t, d18_cheapest_offer(g, s, f));
}

/* can_em_buy once must_buy(g, s, f) holds, bb = d18_cheapest_offer(g, s, f). */
static int em_buy_ok(const cr_game *g, const d18_state *s, int f, int t, int bb)
{
    const d18_board *b = d18_brd(g);
    if (bb < 0 || s->treasury[f] >= bb) return 0;
    if (t < 0 || t >= b->n_monsters || !d18_bank_offers(g, s, f, t)) return 0;
    return b->monster[t].price <= s->treasury[f] + s->cash[s->pres[f]];
}

static int can_buy_done(const cr_game *g, const d18_state *s, int e)
{
    if (e >= D18_NFRONTS || !must_buy(g, s, e)) return 1;
    /* 8.11.6 item 6: with nothing in the bank the requirement lapses
     * unless a market monster can be paid for. */
    return d18_cheapest_offer(g, s, e) < 0 && !any_market_buy(g, s, e);
}

/* 8.11.7: the president is bankrupt (D18_END_BANKRUPTCY), or declares
 * technical bankruptcy (D18_END_TECH_BANKRUPTCY: the restriction applies
 * and no permitted front-to-front purchase is left, R84), or neither (0).
 * Under the restriction emergency sales stay legal but cannot reach b. */
static int bankrupt_now(const cr_game *g, const d18_state *s, int f)
{
    if (!must_buy(g, s, f)) return 0;
    int b = d18_cheapest_offer(g, s, f);
    if (!short_of(s, f, b)) return 0;
    if (tech_restricted(g, s, f)) return any_offer(g, s, f) ? 0 : D18_END_TECH_BANKRUPTCY;
    if (any_market_buy(g, s, f) || any_offer(g, s, f)) return 0;
    for (int g2 = 0; g2 < D18_NFRONTS; g2++)
        for (int k = 1; k <= D18_MARKET_LIMIT; k++)
            if (can_em_sell(g, s, f, g2, k, 1)) return 0;
    return D18_END_BANKRUPTCY;
}

/* ---- turn order ---- */

static void start_or(const cr_game *g, d18_state *s);
static void settle(const cr_game *g, d18_state *s);

static void begin_turn(d18_state *s, int e)
{
    s->op_ent = (int8_t)e;
    s->op_front = (int8_t)(e < D18_NFRONTS ? e : -1);
    if (e < D18_NFRONTS) s->operated |= (uint8_t)(1u << e);
    s->or_step = D18_OS_BUILD;
    s->build_used = 0;
    s->revenue = 0;
    memset(s->declined_mon, 0, sizeof s->declined_mon);
    s->declined_af = 0;
    s->stage = D18_S_OR;
}

static void game_over(d18_state *s, int reason)
{
    s->stage = D18_S_OVER;
    s->end_reason = (uint8_t)reason;
    s->op_ent = s->op_front = -1;
}

/* The start of a stock round after an OR set: the game may end (10). */
static void next_sr(const cr_game *g, d18_state *s)
{
    if (s->broke_when != D18_BRK_NONE && s->or_sets_done >= s->end_after_set) {
        game_over(s, D18_END_BANK);
        return;
    }
    if (s->idle_sets >= 2) { /* R121 */
        game_over(s, D18_END_NO_PROGRESS);
        return;
    }
    s->stage = D18_S_SR;
    s->sr_no++;
    s->sr_passes = 0;
    s->last_actor = -1;
    s->assoc_bought_sr = 0;
    memset(s->sold_this_sr, 0, sizeof s->sold_this_sr);
    s->actor = s->priority;
    s->turn_bought = s->turn_acted = 0;
    s->declined = 0;
    (void)g;
}

static void start_set(const cr_game *g, d18_state *s)
{
    s->ors_in_set = d18_brd(g)->ors[s->phase - 1]; /* 8.1: fixed when the set starts */
    s->or_no = 0;
    s->or_sets_begun++;
    s->set_earned = 0;
    start_or(g, s);
}

static void end_set(const cr_game *g, d18_state *s)
{
    s->or_sets_done++;
    s->idle_sets = s->set_earned ? 0 : (uint8_t)(s->idle_sets + 1);
    next_sr(g, s);
}

static void start_or(const cr_game *g, d18_state *s)
{
    (void)g;
    /* R47: open associates other than LL and BT pay their owners. */
    for (int a = 0; a < D18_NASSOC; a++) {
        int o = s->assoc_owner[a], rev = d18_assoc_revenue[a];
        if (a == D18_LL || a == D18_BT || o < 0 || (s->assoc_closed >> a & 1) || rev == 0) continue;
        d18_bank_pay(s, o < D18_MAXP ? &s->cash[o] : &s->treasury[o - D18_OWN_FRONT], rev);
        s->set_earned = 1;
    }
    s->operated = 0;
    s->minors_done = 0;
    s->ors_played++;
    memset(s->mon_fresh, 0, sizeof s->mon_fresh);
    s->op_ent = -1;
    s->stage = D18_S_OR;
}

/* The next entity to operate (8.2, R46), or the end of the OR. */
static void next_entity(const cr_game *g, d18_state *s)
{
    for (int i = 0; i < 2; i++) {
        int e = D18_ENT_LL + i;
        if (s->minors_done >> i & 1) continue;
        s->minors_done |= (uint8_t)(1u << i);
        if (minor_runs(s, e)) {
            begin_turn(s, e);
            return;
        }
    }
    if (s->au_minors) { /* back to the auction (4.5 item 4) */
        s->au_minors = 0;
        s->op_ent = s->op_front = -1;
        s->stage = D18_S_AUCTION;
        return;
    }
    int best = -1;
    for (int f = 0; f < D18_NFRONTS; f++)
        if ((s->floated >> f & 1) && !(s->operated >> f & 1) &&
            (best < 0 || d18_op_before(g, s, f, best)))
            best = f;
    if (best >= 0) {
        begin_turn(s, best);
        return;
    }
    s->op_ent = s->op_front = -1;
    if (++s->or_no < s->ors_in_set)
        start_or(g, s);
    else
        end_set(g, s);
}

/* After the stock round (5.10 has run): the castle auction in phase 3 and
 * later (R34), then an OR set. */
void d18_after_sr(const cr_game *g, d18_state *s)
{
    if (s->phase >= 3) {
        s->stage = D18_S_CASTLE;
        s->castle_in = (uint8_t)((1u << s->np) - 1);
        s->castle_who = -1;
        s->castle_top = 0;
        s->actor = s->priority;
        return;
    }
    start_set(g, s);
    settle(g, s);
}

/* ---- what is possible in a step ---- */

static int any_build(const cr_game *g, const d18_state *s)
{
    d18_routeset ok;
    return d18_buildable(g, s, s->op_ent, s->build_used, &ok) > 0;
}

static int any_office(const cr_game *g, const d18_state *s)
{
    if (d18_office_cost(g, s, s->op_ent) < 0) return 0;
    d18_reach_cache rc = {0};
    for (int l = 0; l < d18_brd(g)->n_locations; l++)
        if (d18_can_place_office_rc(g, s, s->op_ent, l, &rc)) return 1;
    return 0;
}

/* Final sales (R113) and the end of the game. */
static void declare_bankrupt(const cr_game *g, d18_state *s, int f, int reason)
{
    int p = s->pres[f];
    for (int g2 = 0; g2 < D18_NFRONTS; g2++) {
        for (int k = D18_MARKET_LIMIT; k >= 1; k--) {
            if (!can_em_sell(g, s, f, g2, k, 0)) continue;
            int price = d18_price(g, s, g2);
            s->held[g2][p] = (uint8_t)(s->held[g2][p] - k);
            s->pool[g2] = (uint8_t)(s->pool[g2] + k);
            d18_bank_pay(s, &s->cash[p], k * price);
            for (int i = 0; i < k; i++)
                if (!d18_market_move(g, s, g2, 1, 0)) break;
            break;
        }
    }
    s->bankrupt = (int8_t)p;
    game_over(s, reason);
}

void d18_settle(const cr_game *g, d18_state *s) { settle(g, s); }

static void settle(const cr_game *g, d18_state *s)
{
    for (int guard = 0; guard < 64; guard++) {
        if (s->stage == D18_S_OVER || s->stage == D18_S_SR || s->stage == D18_S_AUCTION ||
            s->stage == D18_S_CASTLE || s->stage == D18_S_CASTLE_PLACE ||
            s->stage == D18_S_OR_OFFER || s->stage == D18_S_OR_AOFFER || s->stage == D18_S_MERGE)
            return;
        if (d18_next_discarder(g, s) >= 0) {
            s->stage = D18_S_DISCARD;
            return;
        }
        s->stage = D18_S_OR;
        int e = s->op_ent;
        if (e < 0) {
            next_entity(g, s);
            continue;
        }
        switch (s->or_step) {
        case D18_OS_BUILD:
            if (any_build(g, s)) return;
            s->or_step = D18_OS_OFFICE;
            continue;
        case D18_OS_OFFICE:
            if (any_office(g, s)) return;
            s->or_step = D18_OS_RAMPAGE;
            continue;
        case D18_OS_RAMPAGE: return;
        case D18_OS_DIVIDEND:
            if (s->revenue > 0) return;
            d18_dividend(g, s, e, 0, 0);
            s->or_step = D18_OS_BUY;
            continue;
        case D18_OS_BUY:
            if (e == D18_ENT_LL) { /* R118: LL's turn ends with its revenue */
                s->op_ent = -1;
                continue;
            }
            if (e < D18_NFRONTS) {
                int why = bankrupt_now(g, s, e);
                if (why) declare_bankrupt(g, s, e, why);
            }
            return;
        default: return;
        }
    }
}

/* ---- legality ---- */

int d18_or_actor(const cr_game *g, const d18_state *s)
{
    switch (s->stage) {
    case D18_S_CASTLE: return s->actor;
    case D18_S_CASTLE_PLACE: return s->castle_who;
    case D18_S_OR: return d18_owner_of(s, s->op_ent);
    case D18_S_OR_OFFER: return s->pres[s->offer_to];
    case D18_S_DISCARD: return d18_owner_of(s, d18_next_discarder(g, s));
    case D18_S_OR_AOFFER:
    case D18_S_MERGE: return d18_assoc_actor(s);
    default: return -1;
    }
}

static int discard_ok(const cr_game *g, const d18_state *s, int t)
{
    const d18_board *b = d18_brd(g);
    int e = d18_next_discarder(g, s);
    if (e < 0 || t < 0 || t >= b->n_monsters || (b->monster[t].flags & D18_F_LIMIT_EXEMPT))
        return 0;
    return d18_copy_at(g, s, t, D18_AT_ENTITY + e) >= 0;
}

int d18_or_is_legal(const cr_game *g, const d18_state *s, const d18_act *x)
{
    const d18_board *b = d18_brd(g);
    int e = s->op_ent;
    switch (s->stage) {
    case D18_S_CASTLE: {
        int p = s->actor;
        if (x->kind == D18_K_CASTLE_PASS) return 1;
        return x->kind == D18_K_CASTLE_BID && x->amt >= 1 && x->amt > s->castle_top &&
               x->amt <= s->cash[p];
    }
    case D18_S_CASTLE_PLACE: /* R36: any completed route space */
        return x->kind == D18_K_CASTLE_PLACE && x->o1 < b->n_routes &&
               s->cube[x->o1] != D18_CUBE_NONE;
    case D18_S_OR_OFFER: return x->kind == D18_K_ACCEPT || x->kind == D18_K_DECLINE;
    case D18_S_DISCARD: return x->kind == D18_K_DISCARD && discard_ok(g, s, x->o1);
    case D18_S_OR_AOFFER:
    case D18_S_MERGE: return d18_assoc_is_legal(g, s, x);
    case D18_S_OR: break;
    default: return 0;
    }
    if (d18_assoc_kind(x->kind)) return d18_assoc_is_legal(g, s, x); /* any step (R86) */
    switch (s->or_step) {
    case D18_OS_BUILD:
        if (x->kind == D18_K_BUILD_DONE) return 1;
        return x->kind == D18_K_BUILD && d18_can_build(g, s, e, x->o1, s->build_used);
    case D18_OS_OFFICE:
        if (x->kind == D18_K_OFFICE_SKIP) return 1;
        return x->kind == D18_K_OFFICE && d18_can_place_office(g, s, e, x->o1);
    case D18_OS_RAMPAGE: return x->kind == D18_K_RAMPAGE;
    case D18_OS_DIVIDEND: return x->kind == D18_K_PAY || x->kind == D18_K_RETAIN;
    case D18_OS_BUY:
        switch (x->kind) {
        case D18_K_BUY_BANK: return can_buy_bank(g, s, e, x->o1);
        case D18_K_BUY_MKT: return can_buy_market(g, s, e, x->o1);
        case D18_K_OFFER_MON: return can_offer_monster(g, s, e, x->o1, x->o2, x->amt);
        case D18_K_EM_SELL: return e < D18_NFRONTS && can_em_sell(g, s, e, x->o1, x->o2 + 1, 1);
        case D18_K_EM_BUY: return e < D18_NFRONTS && can_em_buy(g, s, e, x->o1);
        case D18_K_BUY_DONE: return can_buy_done(g, s, e);
        default: return 0;
        }
    default: return 0;
    }
}

/* The amounts offered for a monster of `type`: 1, half its price, its
 * price and twice its price, within [1, treasury] (the whole treasury when
 * it is below twice the price).  A treasury far above the monster's price
 * is not a meaningful offer: random presidents drained their fronts with it
 * (docs/18dracula-board.md, "Balance evidence"); it stays legal when
 * submitted (is_legal). */
static int price_menu(int price, int treasury, int *out)
{
    if (treasury > D18_AMT - 1) treasury = D18_AMT - 1;
    int c[4] = {1, price / 2, price, 2 * price < treasury ? 2 * price : treasury}, n = 0;
    for (int i = 0; i < 4; i++) {
        int v = c[i], j;
        if (v < 1 || v > treasury) continue;
        for (j = 0; j < n && out[j] < v; j++) {
        }
        if (j < n && out[j] == v) continue;
        for (int k = n; k > j; k--) out[k] = out[k - 1];
        out[j] = v;
        n++;
    }
    return n;
}

static int step_legal(const cr_game *g, const d18_state *s, cr_action *out);

int d18_or_legal(const cr_game *g, const d18_state *s, cr_action *out)
{
    const d18_board *b = d18_brd(g);
    int n = 0;
    switch (s->stage) {
    case D18_S_CASTLE: {
        int p = s->actor, lo = s->castle_top + 1, hi = s->cash[p];
        if (hi > D18_AMT - 1) hi = D18_AMT - 1;
        int c[4] = {lo, lo + 10, lo + 50, hi};
        for (int i = 0, last = 0; i < 4; i++)
            if (c[i] >= lo && c[i] <= hi && c[i] > last)
                out[n++] = d18_encode(D18_K_CASTLE_BID, 0, 0, c[i]), last = c[i];
        out[n++] = d18_encode(D18_K_CASTLE_PASS, 0, 0, 0);
        return n;
    }
    case D18_S_CASTLE_PLACE:
        for (int r = 0; r < b->n_routes; r++)
            if (s->cube[r] != D18_CUBE_NONE) out[n++] = d18_encode(D18_K_CASTLE_PLACE, r, 0, 0);
        return n;
    case D18_S_OR_OFFER:
        out[n++] = d18_encode(D18_K_ACCEPT, 0, 0, 0);
        out[n++] = d18_encode(D18_K_DECLINE, 0, 0, 0);
        return n;
    case D18_S_DISCARD:
        for (int t = 0; t < b->n_monsters; t++)
            if (discard_ok(g, s, t)) out[n++] = d18_encode(D18_K_DISCARD, t, 0, 0);
        return n;
    case D18_S_OR_AOFFER:
    case D18_S_MERGE: return d18_assoc_legal(g, s, out);
    case D18_S_OR: break;
    default: return 0;
    }
    /* The step's own choices, then the front's associate actions, whose
     * kinds come last (R86, 8.12). */
    n = step_legal(g, s, out);
    return n + d18_assoc_legal(g, s, out + n);
}

static int step_legal(const cr_game *g, const d18_state *s, cr_action *out)
{
    const d18_board *b = d18_brd(g);
    int n = 0, e = s->op_ent;
    d18_act x = {0, 0, 0, 0};
    d18_reach_cache rc = {0};
    switch (s->or_step) {
    case D18_OS_BUILD: {
        d18_routeset ok; /* in ascending route order, as the list's */
        d18_buildable(g, s, e, s->build_used, &ok);
        for (int w = 0; w < D18_MAX_ROUTES / 64; w++)
            for (uint64_t bits = ok.w[w]; bits; bits &= bits - 1)
                out[n++] = d18_encode(D18_K_BUILD, w * 64 + __builtin_ctzll(bits), 0, 0);
        out[n++] = d18_encode(D18_K_BUILD_DONE, 0, 0, 0);
        return n;
    }
    case D18_OS_OFFICE:
        for (int l = 0; l < b->n_locations; l++)
            if (d18_can_place_office_rc(g, s, e, l, &rc))
                out[n++] = d18_encode(D18_K_OFFICE, l, 0, 0);
        out[n++] = d18_encode(D18_K_OFFICE_SKIP, 0, 0, 0);
        return n;
    case D18_OS_RAMPAGE: out[n++] = d18_encode(D18_K_RAMPAGE, 0, 0, 0); return n;
    case D18_OS_DIVIDEND:
        out[n++] = d18_encode(D18_K_PAY, 0, 0, 0);
        out[n++] = d18_encode(D18_K_RETAIN, 0, 0, 0);
        return n;
    case D18_OS_BUY: break;
    default: return 0;
    }
    for (int t = 0; t < b->n_monsters; t++)
        if (can_buy_bank(g, s, e, t)) out[n++] = d18_encode(D18_K_BUY_BANK, t, 0, 0);
    for (int t = 0; t < b->n_monsters; t++)
        if (can_buy_market(g, s, e, t)) out[n++] = d18_encode(D18_K_BUY_MKT, t, 0, 0);
    if (e < D18_NFRONTS) {
        int menu[4], restricted = tech_restricted(g, s, e);
        /* The types each front holds, in one pass over the copies: only
         * those pairs can be offered for (offer_ok asks the rest). */
        uint32_t held[D18_NFRONTS] = {0};
        _Static_assert(D18_MAX_MONSTER_TYPES <= 32, "a type per bit");
        for (int c = 0; c < b->n_copies; c++) {
            int at = s->mon_at[c] - D18_AT_ENTITY;
            if (at >= 0 && at < D18_NFRONTS) held[at] |= (uint32_t)1 << b->copy_type[c];
        }
        for (int f2 = 0; f2 < D18_NFRONTS; f2++)
            for (int t = 0; t < b->n_monsters; t++) {
                if (!(held[f2] >> t & 1)) continue;
                int m;
                if (restricted) { /* 8.11.7: the whole treasury only */
                    if (!offer_ok(g, s, e, f2, t, s->treasury[e], restricted)) continue;
                    menu[0] = s->treasury[e], m = 1;
                } else {
                    if (!offer_ok(g, s, e, f2, t, 1, restricted)) continue;
                    m = price_menu(b->monster[t].price, s->treasury[e], menu);
                }
                for (int i = 0; i < m; i++) out[n++] = d18_encode(D18_K_OFFER_MON, f2, t, menu[i]);
            }
    }
    x.kind = D18_K_BUY_DONE;
    if (d18_or_is_legal(g, s, &x)) out[n++] = d18_encode(D18_K_BUY_DONE, 0, 0, 0);
    if (e < D18_NFRONTS && must_buy(g, s, e)) { /* emergency money (8.11.7) */
        int bb = d18_cheapest_offer(g, s, e);
        for (int g2 = 0; g2 < D18_NFRONTS; g2++)
            for (int k = 1; k <= D18_MARKET_LIMIT; k++)
                if (em_sell_ok(g, s, e, g2, k, 1, bb))
                    out[n++] = d18_encode(D18_K_EM_SELL, g2, k - 1, 0);
        for (int t = 0; t < b->n_monsters; t++)
            if (em_buy_ok(g, s, e, t, bb)) out[n++] = d18_encode(D18_K_EM_BUY, t, 0, 0);
    }
    return n;
}

/* ---- apply ---- */

static void castle_next(const cr_game *g, d18_state *s, int p)
{
    int in = s->castle_in;
    if (s->castle_who >= 0) in &= ~(1 << s->castle_who);
    if (in == 0) { /* every other player has passed */
        if (s->castle_who >= 0) {
            d18_bank_take(s, &s->cash[s->castle_who], s->castle_top);
            s->stage = D18_S_CASTLE_PLACE;
            return;
        }
        start_set(g, s); /* 6.5: no bids, the castle stays */
        settle(g, s);
        return;
    }
    int q = p;
    for (int i = 0; i < s->np; i++) {
        q = next_seat(s, q);
        if ((in >> q & 1)) break;
    }
    s->actor = (int8_t)q;
}

static void split_minor(d18_state *s, int e)
{
    int owner = d18_owner_of(s, e), half = s->revenue / 2; /* R48: rounded down */
    d18_bank_pay(s, &s->cash[owner], half);
    d18_bank_pay(s, d18_ent_cash(s, e), s->revenue - half);
}

void d18_or_apply(const cr_game *g, d18_state *s, const d18_act *x, cr_ctx *cx)
{
    const d18_board *b = d18_brd(g);
    int e = s->op_ent;
    switch (x->kind) {
    case D18_K_CASTLE_BID:
        s->castle_top = x->amt;
        s->castle_who = s->actor;
        castle_next(g, s, s->actor);
        return;
    case D18_K_CASTLE_PASS: {
        int p = s->actor;
        s->castle_in &= (uint8_t) ~(1u << p); /* R35: out for good */
        castle_next(g, s, p);
        return;
    }
    case D18_K_CASTLE_PLACE:
        s->castle = (uint8_t)x->o1;
        start_set(g, s);
        break;
    case D18_K_BUILD: {
        int c = d18_required_colour(g, s, x->o1);
        d18_bank_take(s, d18_ent_cash(s, e), b->route[x->o1].cost);
        d18_place_cube(g, s, x->o1, c);
        s->build_used = c == D18_YELLOW && s->build_used == 0 ? 1 : 2;
        break;
    }
    case D18_K_BUILD_DONE: s->or_step = D18_OS_OFFICE; break;
    case D18_K_OFFICE: {
        int sp = d18_office_space(g, s, e, x->o1);
        d18_bank_take(s, d18_ent_cash(s, e), d18_office_cost(g, s, e));
        s->space_occ[x->o1][sp] = (int8_t)e;
        if (e < D18_NFRONTS)
            s->offices_used[e]++;
        else
            s->bt_offices++;
        s->or_step = D18_OS_RAMPAGE;
        break;
    }
    case D18_K_OFFICE_SKIP: s->or_step = D18_OS_RAMPAGE; break;
    case D18_K_RAMPAGE:
        s->revenue = d18_rampage(g, s, e, cx);
        if (s->revenue > 0) s->set_earned = 1;
        if (e < D18_NFRONTS) {
            s->or_step = D18_OS_DIVIDEND;
        } else {
            split_minor(s, e);
            s->or_step = D18_OS_BUY;
        }
        break;
    case D18_K_PAY:
    case D18_K_RETAIN:
        d18_dividend(g, s, e, s->revenue, x->kind == D18_K_PAY);
        s->or_step = D18_OS_BUY;
        break;
    case D18_K_BUY_BANK: d18_buy_bank(g, s, e, x->o1); break;
    case D18_K_BUY_MKT:
        d18_bank_take(s, &s->treasury[e], b->monster[x->o1].price); /* R76 */
        d18_acquire(g, s, e, d18_copy_at(g, s, x->o1, D18_AT_MARKET));
        break;
    case D18_K_OFFER_MON:
        s->offer_to = (int8_t)x->o1;
        s->offer_type = (int8_t)x->o2;
        s->offer_price = x->amt;
        s->stage = D18_S_OR_OFFER;
        return;
    case D18_K_ACCEPT:
    case D18_K_DECLINE: {
        if (s->stage == D18_S_OR_AOFFER) {
            d18_assoc_apply(g, s, x);
            break;
        }
        int f2 = s->offer_to, t = s->offer_type;
        if (x->kind == D18_K_ACCEPT) { /* R75: the money goes to the selling front */
            s->treasury[e] -= s->offer_price;
            s->treasury[f2] += s->offer_price;
            d18_acquire(g, s, e, d18_copy_at(g, s, t, D18_AT_ENTITY + f2));
        } else {
            s->declined_mon[f2] |= 1u << t; /* R97 */
        }
        s->offer_to = s->offer_type = -1;
        s->offer_price = 0;
        s->stage = D18_S_OR;
        break;
    }
    case D18_K_EM_SELL: {
        int p = s->pres[e], g2 = x->o1, k = x->o2 + 1, price = d18_price(g, s, g2);
        if (s->pres[g2] == p) { /* another front's presidency may pass (item 5) */
            int m = 0, who = -1;
            for (int i = 0, q = next_seat(s, p); i < s->np - 1; i++, q = next_seat(s, q))
                if (s->held[g2][q] > m) m = s->held[g2][q], who = q;
            if (s->held[g2][p] - k < m) s->pres[g2] = (int8_t)who;
        }
        s->held[g2][p] = (uint8_t)(s->held[g2][p] - k);
        s->pool[g2] = (uint8_t)(s->pool[g2] + k);
        d18_bank_pay(s, &s->cash[p], k * price);
        for (int i = 0; i < k; i++)
            if (!d18_market_move(g, s, g2, 1, 0)) break;
        break;
    }
    case D18_K_EM_BUY: {
        int p = s->pres[e], price = b->monster[x->o1].price, from_t = s->treasury[e];
        /* Item 3: the treasury pays all it has, the president the rest. */
        s->treasury[e] = 0;
        s->cash[p] -= price - from_t;
        s->treasury[e] = price;
        d18_buy_bank(g, s, e, x->o1);
        break;
    }
    case D18_K_BUY_DONE: s->op_ent = s->op_front = -1; break;
    case D18_K_DISCARD: {
        int who = d18_next_discarder(g, s);
        s->mon_at[d18_copy_at(g, s, x->o1, D18_AT_ENTITY + who)] = D18_AT_MARKET;
        break;
    }
    default:
        if (!d18_assoc_kind(x->kind)) return;
        d18_assoc_apply(g, s, x);
        if (s->stage == D18_S_OR_AOFFER) return;
        break;
    }
    settle(g, s);
}
