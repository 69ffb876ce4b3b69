/* heuristic.c — a hand-written player of 18Dracula: the game's
 * cr_game_parts.heuristic (the `heuristic` bot, ISMCTS's guided rollouts).
 *
 * Everything is public in 18Dracula (R7), so the view it reads is the full
 * state.  Each legal action gets a score from a few cheap rules and the bot
 * plays the best; among equal scores it draws with the caller's rng, so it
 * is deterministic given that rng.  It keeps no memory between calls and
 * allocates nothing.
 *
 * The rules, in short:
 *   - auction: buy an associate at its current price when that leaves
 *     two thirds of the seat's cash; never open a bid above the least;
 *     in a contest raise by the least step while the amount stays within
 *     the associate's face price;
 *   - stock rounds: start a front only at a par the seat can float alone
 *     (six shares), the highest such par; buy shares of its own fronts until
 *     they float and beyond, then shares of floated fronts of others while
 *     it keeps some cash; never sell unless the rules force it (relief);
 *     never offer its associates; accept an associate offered at no more
 *     than its face price;
 *   - operating: build while the treasury keeps enough for the cheapest
 *     monster it could need, place offices in the richest city, pay
 *     dividends unless the front has no monster and cannot yet buy one,
 *     buy the cheapest monster (the bank first), offer for another front's
 *     monster only at its face price, never a whole treasury above it;
 *     accept an offer only at face price or more (or between two fronts of
 *     the same president); discard the cheapest monster.
 */
#include <string.h>

#include "croupier/parts.h"
#include "games/18dracula/d18_internal.h"

enum { NEVER = -1000000 };

static int presides(const d18_state *s, int p)
{
    int n = 0;
    for (int f = 0; f < D18_NFRONTS; f++) n += s->pres[f] == p;
    return n;
}

/* The front the seat acts for in an operating decision, or -1. */
static int acting_entity(const cr_game *g, const d18_state *s)
{
    switch (s->stage) {
    case D18_S_OR: return s->op_ent;
    case D18_S_DISCARD: return d18_next_discarder(g, s);
    default: return -1;
    }
}

/* The price of the cheapest monster entity e can buy from the bank now, or
 * 0 if none. */
static int cheapest_bank(const cr_game *g, const d18_state *s, int e)
{
    int best = d18_cheapest_offer(g, s, e); /* prices are >= 1 */
    return best > 0 ? best : 0;
}

/* What the rules below ask of the decision as a whole, worked out at most
 * once per decision (a build step scores every buildable space, a stock
 * round every sale) rather than once per action: -1 until first asked. */
typedef struct facts {
    int e; /* acting_entity */
    int relief, owned, bank;
} facts;

static int relief_of(const cr_game *g, const d18_state *s, int me, facts *fx)
{
    if (fx->relief < 0) fx->relief = d18_relief_required(g, s, me);
    return fx->relief;
}

static int owned_of(const cr_game *g, const d18_state *s, facts *fx)
{
    if (fx->owned < 0) fx->owned = d18_owned(g, s, fx->e, 0);
    return fx->owned;
}

static int bank_of(const cr_game *g, const d18_state *s, facts *fx)
{
    if (fx->bank < 0) fx->bank = cheapest_bank(g, s, fx->e);
    return fx->bank;
}

static int score(const cr_game *g, const d18_state *s, int me, const d18_act *x, facts *fx)
{
    const d18_board *b = d18_brd(g);
    int cash = s->cash[me];
    int e = fx->e;
    int32_t tre = e >= 0 ? d18_ent_cash_of(s, e) : 0;
    switch (x->kind) {
    /* ---- the auction ---- */
    case D18_K_AU_BUY: {
        int a = x->o1 >= 0 && x->o1 < D18_NASSOC ? x->o1 : 0;
        int price = s->assoc_price_now[a];
        return 3 * price <= cash ? 10 : NEVER / 2;
    }
    case D18_K_AU_BID: return NEVER / 4; /* the price drops on passes (4.3) */
    case D18_K_AU_PASS: return 0;
    case D18_K_CT_RAISE: {
        int a = s->ct_assoc >= 0 && s->ct_assoc < D18_NASSOC ? s->ct_assoc : 0;
        int amount = x->amt * 5;
        return amount <= b->assoc_price[a] && 2 * amount <= cash ? 5 - amount / 100 : NEVER / 4;
    }
    case D18_K_CT_DROP: return 0;
    /* ---- stock rounds ---- */
    case D18_K_START: {
        if (x->o2 < 0 || x->o2 >= b->n_par) return NEVER;
        int par = b->cell[b->par_row[x->o2]][b->par_col[x->o2]].price;
        if (presides(s, me) >= 2 || 6 * par > cash) return NEVER / 4;
        return 30 + par / 10;
    }
    case D18_K_BUY_IPO:
    case D18_K_BUY_POOL: {
        int f = x->o1, mine = s->pres[f] == me;
        int price = (s->floated >> f & 1) || x->kind == D18_K_BUY_POOL ? d18_price(g, s, f) : 0;
        if (price <= 0 && s->par_idx[f] >= 0 && s->par_idx[f] < b->n_par)
            price = b->cell[b->par_row[s->par_idx[f]]][b->par_col[s->par_idx[f]]].price;
        int bonus = x->kind == D18_K_BUY_IPO ? 1 : 0;
        if (mine && !(s->floated >> f & 1)) return 25 + bonus;
        if (mine) return price * 3 <= cash ? 15 + bonus : 2 + bonus;
        if (s->floated >> f & 1) return price * 4 <= cash ? 10 + bonus : NEVER / 4;
        return NEVER / 4;
    }
    case D18_K_SELL: return relief_of(g, s, me, fx) ? 5 : NEVER / 2;
    case D18_K_OFFER_AS: return NEVER / 2;
    case D18_K_ACCEPT:
        if (s->stage == D18_S_SR_OFFER) {
            int a = s->offer_assoc >= 0 && s->offer_assoc < D18_NASSOC ? s->offer_assoc : 0;
            return s->offer_price <= b->assoc_price[a] && 2 * s->offer_price <= cash ? 5 : -5;
        }
        if (s->stage == D18_S_OR_OFFER) {
            int t = s->offer_type >= 0 && s->offer_type < b->n_monsters ? s->offer_type : 0;
            int buyer = s->op_ent;
            if (buyer >= 0 && buyer < D18_NFRONTS && s->pres[buyer] == me) return 5;
            return s->offer_price >= b->monster[t].price ? 5 : -5;
        }
        if (s->stage == D18_S_OR_AOFFER) {
            int a = s->offer_assoc >= 0 && s->offer_assoc < D18_NASSOC ? s->offer_assoc : 0;
            return s->offer_price >= b->assoc_price[a] ? 5 : -5;
        }
        return 0;
    case D18_K_DECLINE: return 0;
    case D18_K_PASS:
    case D18_K_END_TURN: return 0;
    /* ---- the castle ---- */
    case D18_K_CASTLE_BID: return x->amt <= 20 && 10 * x->amt <= cash ? 1 : NEVER / 4;
    case D18_K_CASTLE_PASS: return 0;
    case D18_K_CASTLE_PLACE: return 0;
    /* ---- operating ---- */
    case D18_K_BUILD: {
        int cost = x->o1 >= 0 && x->o1 < b->n_routes ? b->route[x->o1].cost : 0;
        int keep = owned_of(g, s, fx) ? 0 : bank_of(g, s, fx);
        return tre - cost >= keep ? 6 - cost / 50 : NEVER / 4;
    }
    case D18_K_BUILD_DONE: return 0;
    case D18_K_OFFICE: {
        if (x->o1 < 0 || x->o1 >= b->n_locations) return NEVER;
        const d18_location *l = &b->loc[x->o1];
        int v = l->kind == D18_CITY ? l->city_val[d18_level(g, s, x->o1)] : 0;
        int keep = owned_of(g, s, fx) ? 0 : bank_of(g, s, fx);
        return tre - d18_office_cost(g, s, e) >= keep ? 5 + v / 10 : NEVER / 4;
    }
    case D18_K_OFFICE_SKIP: return 0;
    case D18_K_RAMPAGE: return 0;
    case D18_K_PAY: return 1;
    case D18_K_RETAIN: {
        /* Keep the revenue when the front has no monster and cannot buy the
         * cheapest one with what it holds. */
        int need = bank_of(g, s, fx);
        return !owned_of(g, s, fx) && tre < need ? 2 : 0;
    }
    case D18_K_BUY_BANK:
    case D18_K_BUY_MKT:
    case D18_K_EM_BUY: {
        if (x->o1 < 0 || x->o1 >= b->n_monsters) return NEVER;
        int price = b->monster[x->o1].price, owned = owned_of(g, s, fx);
        int base = owned == 0 ? 20 : owned == 1 ? 8 : 3;
        if (x->kind == D18_K_EM_BUY) base = 20;
        /* A permanent monster is worth a little more than one the next
         * phase eats. */
        int perm = b->monster[x->o1].eaten == 0 ? 2 : 0;
        if (owned && 2 * price > tre) return NEVER / 4;
        return base + perm - price / 100;
    }
    case D18_K_OFFER_MON: {
        if (x->o2 < 0 || x->o2 >= b->n_monsters) return NEVER;
        int face = b->monster[x->o2].price;
        if (x->amt > face) return NEVER / 2;
        if (owned_of(g, s, fx)) return NEVER / 4;
        /* A monsterless front: a fair offer when the bank has none it can
         * afford. */
        int bank = bank_of(g, s, fx);
        if (bank > 0 && bank <= tre) return NEVER / 4;
        return x->amt == face ? 4 : 2;
    }
    case D18_K_BUY_DONE: return 0;
    case D18_K_EM_SELL: return 1 - x->o2;
    case D18_K_DISCARD: {
        if (x->o1 < 0 || x->o1 >= b->n_monsters) return NEVER;
        return -b->monster[x->o1].price;
    }
    case D18_K_OFFER_AF: return NEVER / 2;
    case D18_K_MERGE_KEEP: return 1;
    case D18_K_MERGE_REMOVE: return 0;
    case D18_K_JH_REMOVE:
    case D18_K_JH_ADD:
    case D18_K_CHURCH:
    case D18_K_MOLEMEN: return -1;
    default: return NEVER;
    }
}

cr_action d18_heuristic(const cr_game *g, const void *view, int seat, const cr_action *legal, int n,
                        cr_rng *rng)
{
    if (n <= 1) return legal[0];
    const d18_state *s = view;
    int best = 0, best_score = NEVER - 1, ties = 0;
    facts fx = {.e = acting_entity(g, s), .relief = -1, .owned = -1, .bank = -1};
    for (int i = 0; i < n && i < D18_MAX_LEGAL; i++) {
        d18_act x;
        if (!d18_decode(legal[i], &x)) continue;
        int v = score(g, s, seat, &x, &fx);
        if (v > best_score) {
            best = i, best_score = v, ties = 1;
        } else if (v == best_score) {
            /* reservoir draw among the best */
            ties++;
            if (cr_rng_below(rng, (uint32_t)ties) == 0) best = i;
        }
    }
    return legal[best];
}
