/* assoc.c — associates in 18Dracula's operating rounds: fronts buying
 * associates from players (8.12, R85, R97, R118), Lupin's Lipids and
 * Blundell Transfusions merging into the buying front (8.4, R49, R70, R77,
 * R101, R114, R119, R125), and the powers a front uses in its own turn
 * (9, R86-R89, R109, R110): Jekyl & Hyde, the Church of the endless void
 * and Molemen Inc.  (The Flying Dutchman is part of the rampage: the
 * router is told when the operating front owns it, rampage.c.)
 *
 * When.  Every action here belongs to the operating front's own turn
 * (stage D18_S_OR, op_ent a front), in any of its steps, before its
 * buy_done; never in LL's or BT's turn, a discard, an offer or a stock
 * round (R86, R118).  An offer hands the decision to the associate's owner
 * (D18_S_OR_AOFFER); a merger hands the office choices to the front's
 * president (D18_S_MERGE) and then, as its last step, the discards down
 * to the limit follow (or.c's settle, R125).
 *
 * A declined offer is remembered in declined_af for the rest of the turn
 * (R97): an associate's owner cannot change within the front's turn except
 * by selling it to that front, so "the same associate to the same
 * counterpart" is the associate alone.
 *
 * Everything here reads the state and the board; nothing allocates.
 */
#include "games/18dracula/d18_internal.h"

int d18_front_owns(const d18_state *s, int f, int a)
{
    return f >= 0 && f < D18_NFRONTS && s->assoc_owner[a] == D18_OWN_FRONT + f &&
           !(s->assoc_closed >> a & 1);
}

static int minor_ent(int a) { return a == D18_LL ? D18_ENT_LL : D18_ENT_BT; }

/* The operating front, when its turn is in progress (stage OR), or -1. */
static int turn_front(const d18_state *s)
{
    if (s->stage != D18_S_OR || s->op_front < 0 || s->op_ent != s->op_front) return -1;
    return s->op_front;
}

/* Whether f has an office in loc, face up or face down (R110). */
static int any_office_of(const cr_game *g, const d18_state *s, int f, int loc)
{
    const d18_location *l = &d18_brd(g)->loc[loc];
    for (int i = 0; i < l->n_spaces; i++)
        if (s->space_occ[loc][i] == f || s->space_occ[loc][i] == D18_OCC_DOWN + f) return 1;
    return 0;
}

static int is_city(const cr_game *g, int loc)
{
    return loc >= 0 && loc < d18_brd(g)->n_locations && d18_brd(g)->loc[loc].kind == D18_CITY;
}

/* f's next office can be paid for now (8.7). */
static int office_affordable(const cr_game *g, const d18_state *s, int f)
{
    int cost = d18_office_cost(g, s, f);
    return cost >= 0 && cost <= s->treasury[f];
}

/* ---- buying an associate (8.12) ---- */

/* R77, R119: after buying LL or BT the front would not own both a claw and
 * a fang, counting what it owns before any removal. */
static int merge_cf_ok(const cr_game *g, const d18_state *s, int f, int a)
{
    if (a != D18_LL && a != D18_BT) return 1;
    int e = minor_ent(a);
    int claw = d18_owns_cf(g, s, f, D18_CF_CLAW) || d18_owns_cf(g, s, e, D18_CF_CLAW);
    int fang = d18_owns_cf(g, s, f, D18_CF_FANG) || d18_owns_cf(g, s, e, D18_CF_FANG);
    return !(claw && fang);
}

static int can_offer(const cr_game *g, const d18_state *s, int a, int price)
{
    int f = turn_front(s);
    if (f < 0 || s->phase < 2 || a < 0 || a >= D18_NASSOC) return 0; /* R85: phase 2 on */
    int o = s->assoc_owner[a];
    if (o < 0 || o >= s->np || (s->assoc_closed >> a & 1) || (s->declined_af >> a & 1)) return 0;
    if (price < 1 || price > 2 * d18_brd(g)->assoc_price[a] || price > s->treasury[f]) return 0;
    return merge_cf_ok(g, s, f, a); /* the monster limit does not forbid it (R101) */
}

/* ---- LL and BT merging (8.4) ---- */

/* The location of minor e's office number k in placement order (0: its
 * start office; 1: BT's second office), its space in *space; -1 if none. */
static int minor_office(const cr_game *g, const d18_state *s, int e, int k, int *space)
{
    const d18_board *b = d18_brd(g);
    int city = e == D18_ENT_LL ? b->ll.city : b->bt.city;
    int start = e == D18_ENT_LL ? b->ll.space : b->bt.space;
    if (k == 0) {
        *space = start;
        return s->space_occ[city][start] == e ? city : -1;
    }
    for (int l = 0; l < b->n_locations; l++)
        for (int i = 0; i < b->loc[l].n_spaces; i++)
            if (s->space_occ[l][i] == e && !(l == city && i == start)) {
                *space = i;
                return l;
            }
    return -1;
}

/* The office a merger asks about now (stage MERGE), or -1. */
static int merging_office(const cr_game *g, const d18_state *s, int *sp)
{
    if (s->stage != D18_S_MERGE || s->op_front < 0 || s->op_front >= D18_NFRONTS) return -1;
    if (s->merge_ent != D18_ENT_LL && s->merge_ent != D18_ENT_BT) return -1;
    return minor_office(g, s, s->merge_ent, s->merge_next, sp);
}

/* Keeping the office being merged: the front has an unused office and no
 * office in that city, face up or face down (8.4, R110). */
static int can_keep(const cr_game *g, const d18_state *s)
{
    int sp, loc = merging_office(g, s, &sp), f = s->op_front;
    return loc >= 0 && d18_office_cost(g, s, f) >= 0 && !any_office_of(g, s, f, loc);
}

/* An offer to the operating front waits for the owner's answer. */
static int offer_pending(const cr_game *g, const d18_state *s)
{
    int f = s->op_front, a = s->offer_assoc;
    if (s->stage != D18_S_OR_AOFFER || f < 0 || f >= D18_NFRONTS || a < 0 || a >= D18_NASSOC)
        return 0;
    int o = s->assoc_owner[a];
    return o >= 0 && o < s->np && s->offer_price >= 1 && s->offer_price <= s->treasury[f] &&
           s->offer_price <= 2 * d18_brd(g)->assoc_price[a];
}

/* The next office choice, if any: an office that cannot be kept is
 * removed without asking (there is no choice to make); after the last,
 * the turn goes on and or.c's settle makes the limit discards (R125). */
static void merge_next(const cr_game *g, d18_state *s)
{
    for (; s->merge_next < 2; s->merge_next++) {
        int sp, loc = minor_office(g, s, s->merge_ent, s->merge_next, &sp);
        if (loc < 0) continue;
        s->stage = D18_S_MERGE;
        if (can_keep(g, s)) return;
        s->space_occ[loc][sp] = D18_OCC_EMPTY;
    }
    s->merge_ent = -1;
    s->merge_next = 0;
    s->stage = D18_S_OR;
}

/* Front f has bought LL or BT: the treasury and the monsters pass, a claw
 * among them removes f's killed_by_claw monsters (8.9.8, checked before,
 * R119), the received monsters do not run this OR (R70), the minor counts
 * as closed, and its offices are handled in placement order (R101). */
static void merge(const cr_game *g, d18_state *s, int f, int a)
{
    const d18_board *b = d18_brd(g);
    int e = minor_ent(a);
    int32_t *mc = &s->minor_cash[e - D18_NFRONTS];
    s->treasury[f] += *mc;
    *mc = 0;
    if (d18_owns_cf(g, s, e, D18_CF_CLAW))
        for (int c = 0; c < b->n_copies; c++)
            if (s->mon_at[c] == D18_AT_ENTITY + f &&
                (b->monster[d18_copy_type(b, c)].flags & D18_F_KILLED_BY_CLAW))
                s->mon_at[c] = D18_AT_GONE;
    for (int c = 0; c < b->n_copies; c++)
        if (s->mon_at[c] == D18_AT_ENTITY + e) {
            s->mon_at[c] = (uint8_t)(D18_AT_ENTITY + f);
            s->mon_fresh[c >> 3] |= (uint8_t)(1u << (c & 7));
        }
    s->assoc_closed |= (uint8_t)(1u << a);
    s->merge_ent = (int8_t)e;
    s->merge_next = 0;
    merge_next(g, s);
}

/* ---- powers (9) ---- */

static int can_jh_remove(const cr_game *g, const d18_state *s, int r)
{
    int f = turn_front(s);
    if (f < 0 || !d18_front_owns(s, f, D18_JH) || r < 0 || r >= d18_brd(g)->n_routes) return 0;
    /* R87, R36: a placed yellow cube, not a pre-existing connection, not
     * the space under the castle. */
    return s->cube[r] == D18_YELLOW + 1 && r != s->castle;
}

static int can_jh_add(const cr_game *g, const d18_state *s, int r)
{
    const d18_board *b = d18_brd(g);
    int f = turn_front(s);
    if (f < 0 || !d18_front_owns(s, f, D18_JH) || r < 0 || r >= b->n_routes) return 0;
    /* R87: an empty space needing yellow, a cube in the supply, its cost
     * paid; no connection needed, the build allowance untouched. */
    if (s->cube[r] != D18_CUBE_NONE || d18_required_colour(g, s, r) != D18_YELLOW) return 0;
    return s->supply[D18_YELLOW] > 0 && b->route[r].cost <= s->treasury[f];
}

/* The space a Church token takes in loc (R88): among the empty spaces not
 * yet available, the lowest band, the first in board-file order; -1. */
static int church_space(const cr_game *g, const d18_state *s, int loc)
{
    const d18_location *l = &d18_brd(g)->loc[loc];
    int lv = d18_level(g, s, loc), best = -1;
    for (int i = 0; i < l->n_spaces; i++)
        if (l->space_band[i] > lv && s->space_occ[loc][i] == D18_OCC_EMPTY &&
            (best < 0 || l->space_band[i] < l->space_band[best]))
            best = i;
    return best;
}

static int can_church(const cr_game *g, const d18_state *s, int loc)
{
    int f = turn_front(s);
    if (f < 0 || !d18_front_owns(s, f, D18_CV) || !is_city(g, loc)) return 0;
    if (!office_affordable(g, s, f) || any_office_of(g, s, f, loc)) return 0;
    if (church_space(g, s, loc) < 0) return 0;
    d18_locset x, rr; /* a city F reaches (8.6.2) */
    d18_reach(g, s, f, &x, &rr);
    return d18_in(&rr, loc);
}

static int can_molemen(const cr_game *g, const d18_state *s, int loc)
{
    int f = turn_front(s);
    if (f < 0 || !d18_front_owns(s, f, D18_MI) || !is_city(g, loc)) return 0;
    /* R89, R109: unconnected, its usual cost, a space as 8.7 picks it. */
    if (!office_affordable(g, s, f) || any_office_of(g, s, f, loc)) return 0;
    return d18_office_space(g, s, f, loc) >= 0;
}

void d18_church_flip(const cr_game *g, d18_state *s, int loc)
{
    const d18_location *l = &d18_brd(g)->loc[loc];
    if (l->kind != D18_CITY) return;
    int lv = d18_level(g, s, loc);
    for (int i = 0; i < l->n_spaces; i++) {
        int o = s->space_occ[loc][i];
        if (o >= D18_OCC_DOWN && o < D18_OCC_DOWN + D18_NFRONTS && l->space_band[i] <= lv)
            s->space_occ[loc][i] = (int8_t)(o - D18_OCC_DOWN); /* R110: at once */
    }
}

/* ---- the interface for or.c ---- */

int d18_assoc_actor(const d18_state *s)
{
    if (s->stage == D18_S_OR_AOFFER)
        return s->offer_assoc >= 0 ? s->assoc_owner[s->offer_assoc] : -1;
    if (s->stage == D18_S_MERGE) return s->op_front >= 0 ? s->pres[s->op_front] : -1;
    return -1;
}

int d18_assoc_is_legal(const cr_game *g, const d18_state *s, const d18_act *x)
{
    switch (x->kind) {
    case D18_K_OFFER_AF: return x->o2 == 0 && can_offer(g, s, x->o1, x->amt);
    case D18_K_MERGE_KEEP: return can_keep(g, s);
    case D18_K_MERGE_REMOVE: {
        int sp;
        return merging_office(g, s, &sp) >= 0;
    }
    case D18_K_JH_REMOVE: return can_jh_remove(g, s, x->o1);
    case D18_K_JH_ADD: return can_jh_add(g, s, x->o1);
    case D18_K_CHURCH: return can_church(g, s, x->o1);
    case D18_K_MOLEMEN: return can_molemen(g, s, x->o1);
    case D18_K_ACCEPT:
    case D18_K_DECLINE: return offer_pending(g, s);
    default: return 0;
    }
}

/* The prices offered for associate a: 1, its printed price, twice that and
 * the whole treasury, within [1, min(2 x printed, treasury)] (point 4 of
 * issue 8: a menu; any amount in range is legal). */
static int offer_menu(const d18_board *b, int a, int treasury, int *out)
{
    int hi = 2 * b->assoc_price[a] < treasury ? 2 * b->assoc_price[a] : treasury;
    int c[4] = {1, b->assoc_price[a], 2 * b->assoc_price[a], treasury}, n = 0;
    for (int i = 0; i < 4; i++) {
        int v = c[i] < hi ? c[i] : hi, j = n;
        if (v < 1) continue;
        while (j > 0 && out[j - 1] > v) j--;
        if (j > 0 && out[j - 1] == v) continue;
        for (int k = n; k > j; k--) out[k] = out[k - 1];
        out[j] = v;
        n++;
    }
    return n;
}

int d18_assoc_legal(const cr_game *g, const d18_state *s, cr_action *out)
{
    const d18_board *b = d18_brd(g);
    int n = 0;
    if (s->stage == D18_S_OR_AOFFER) {
        if (!offer_pending(g, s)) return 0;
        out[n++] = d18_encode(D18_K_ACCEPT, 0, 0, 0);
        out[n++] = d18_encode(D18_K_DECLINE, 0, 0, 0);
        return n;
    }
    if (s->stage == D18_S_MERGE) {
        int sp;
        if (merging_office(g, s, &sp) < 0) return 0;
        if (can_keep(g, s)) out[n++] = d18_encode(D18_K_MERGE_KEEP, 0, 0, 0);
        out[n++] = d18_encode(D18_K_MERGE_REMOVE, 0, 0, 0);
        return n;
    }
    int f = turn_front(s);
    if (f < 0) return 0;
    int menu[4];
    for (int a = 0; a < D18_NASSOC; a++) {
        if (!can_offer(g, s, a, 1)) continue;
        int m = offer_menu(d18_brd(g), a, s->treasury[f], menu);
        for (int i = 0; i < m; i++) out[n++] = d18_encode(D18_K_OFFER_AF, a, 0, menu[i]);
    }
    if (d18_front_owns(s, f, D18_JH)) {
        for (int r = 0; r < b->n_routes; r++)
            if (can_jh_remove(g, s, r)) out[n++] = d18_encode(D18_K_JH_REMOVE, r, 0, 0);
        for (int r = 0; r < b->n_routes; r++)
            if (can_jh_add(g, s, r)) out[n++] = d18_encode(D18_K_JH_ADD, r, 0, 0);
    }
    if (d18_front_owns(s, f, D18_CV))
        for (int l = 0; l < b->n_locations; l++)
            if (can_church(g, s, l)) out[n++] = d18_encode(D18_K_CHURCH, l, 0, 0);
    if (d18_front_owns(s, f, D18_MI))
        for (int l = 0; l < b->n_locations; l++)
            if (can_molemen(g, s, l)) out[n++] = d18_encode(D18_K_MOLEMEN, l, 0, 0);
    return n;
}

/* Places f's next office (paid) in loc's space sp, face up or down. */
static void put_office(const cr_game *g, d18_state *s, int f, int loc, int sp, int down)
{
    d18_bank_take(s, &s->treasury[f], d18_office_cost(g, s, f));
    s->space_occ[loc][sp] = (int8_t)(down ? D18_OCC_DOWN + f : f);
    s->offices_used[f]++;
}

void d18_assoc_apply(const cr_game *g, d18_state *s, const d18_act *x)
{
    int f = s->op_front;
    switch (x->kind) {
    case D18_K_OFFER_AF:
        s->offer_assoc = (int8_t)x->o1;
        s->offer_price = x->amt;
        s->stage = D18_S_OR_AOFFER;
        return;
    case D18_K_ACCEPT:
    case D18_K_DECLINE: {
        int a = s->offer_assoc, o = s->assoc_owner[a];
        s->offer_assoc = -1;
        s->stage = D18_S_OR;
        if (x->kind == D18_K_DECLINE) {
            s->declined_af |= (uint8_t)(1u << a); /* R97 */
            s->offer_price = 0;
            return;
        }
        s->treasury[f] -= s->offer_price; /* 8.12: the treasury pays the seller */
        s->cash[o] += s->offer_price;
        s->offer_price = 0;
        s->assoc_owner[a] = (int8_t)(D18_OWN_FRONT + f);
        if (a == D18_LL || a == D18_BT) merge(g, s, f, a);
        return;
    }
    case D18_K_MERGE_KEEP:
    case D18_K_MERGE_REMOVE: {
        int sp, loc = merging_office(g, s, &sp);
        if (x->kind == D18_K_MERGE_KEEP) { /* free of charge */
            s->space_occ[loc][sp] = (int8_t)f;
            s->offices_used[f]++;
        } else {
            s->space_occ[loc][sp] = D18_OCC_EMPTY;
        }
        s->merge_next++;
        merge_next(g, s);
        return;
    }
    case D18_K_JH_REMOVE:
        d18_remove_cube(g, s, x->o1);
        s->assoc_closed |= (uint8_t)(1u << D18_JH);
        return;
    case D18_K_JH_ADD:
        d18_bank_take(s, &s->treasury[f], d18_brd(g)->route[x->o1].cost);
        d18_place_cube(g, s, x->o1, D18_YELLOW);
        s->assoc_closed |= (uint8_t)(1u << D18_JH);
        return;
    case D18_K_CHURCH:
        put_office(g, s, f, x->o1, church_space(g, s, x->o1), 1);
        s->assoc_closed |= (uint8_t)(1u << D18_CV); /* the token outlives CV (R88) */
        return;
    case D18_K_MOLEMEN:
        put_office(g, s, f, x->o1, d18_office_space(g, s, f, x->o1), 0);
        s->assoc_closed |= (uint8_t)(1u << D18_MI);
        return;
    default: return;
    }
}
