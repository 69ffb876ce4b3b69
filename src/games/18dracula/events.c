/* events.c — what one apply() did, as events (cr_event), their text and
 * JSON, and the lab's counters.  Everything in 18Dracula is public (R7):
 * every event is seen by every seat and names everything it is about.
 *
 * How they are made.  apply() keeps a copy of the state it starts from
 * (only when somebody listens: cx->ev set) and, once the action and its
 * cascade (chain sales, the end of a round, automatic steps, a phase
 * change, the game's end) are done, d18_events compares the two states:
 * one event says what the seat did (the action in notation), then one
 * event for each part of the state that changed, in a fixed order.  A
 * cascade of any length is reported completely, because every event
 * stands for a part of the state, not for a step of the code.
 *
 * The bound (g->max_events).  Each part below yields at most one event a
 * call, so one apply writes at most:
 *   1  the action                          D18_E_ACTION
 *   1  the seating                         D18_E_SEATING
 *   7  associates changing owner           D18_E_ASSOC_OWNER (one each)
 *   7  associates' price drops             D18_E_ASSOC_PRICE
 *   7  associates closing                  D18_E_ASSOC_CLOSED
 *   6  associate revenue, one per seat     D18_E_ASSOC_REVENUE
 *   8  fronts started                      D18_E_START
 *  48  shares changing hands, 8 x 6 seats  D18_E_SHARES
 *   8  presidencies changing               D18_E_PRESIDENT
 *   8  floats                              D18_E_FLOAT
 *   8  market moves                        D18_E_MARKET
 * 192  route spaces gaining or losing a cube (D18_MAX_ROUTES)  D18_E_CUBE
 *   1  the castle placed                   D18_E_CASTLE
 * 768  office spaces changing, 128 x 6     D18_E_OFFICE
 *   1  the rampage's revenue               D18_E_REVENUE
 *  97  its routes (D18_ROUTE_EVENTS, "Routes" below)  D18_E_ROUTE
 *   1  the dividend                        D18_E_DIVIDEND
 *  96  monster copies moving (D18_MAX_MONSTER_COPIES)  D18_E_MONSTER
 *   1  the phase                           D18_E_PHASE
 *   1  the bank broken                     D18_E_BANK_BROKE
 *   1  a bankruptcy                        D18_E_BANKRUPT
 *   1  a stock round begun                 D18_E_SR
 *   1  an operating round begun            D18_E_OR
 *   1  an entity starting its turn         D18_E_OPERATES
 *   1  the game's end                      D18_E_END
 * = D18_MAX_EVENTS (1280 below; the core's ceiling is 4096).  A real
 * apply writes a handful; the bound is what the parts allow.
 *
 * The hot path.  Search and rollouts pass no event sink: apply then makes
 * no copy and calls nothing here.  With a sink the copy is on the stack
 * (sizeof(d18_state), a few KB): nothing is allocated.
 */
#include <string.h>

#include "croupier/text.h"
#include "croupier/parts.h"
#include "games/18dracula/annals.h"
#include "games/18dracula/d18_internal.h"
#include "games/18dracula/router.h"

/* ---- Routes ----
 * A rampage's D18_E_REVENUE is followed by the routes the auto-router chose
 * (router.h's canonical result: monster types in roster order, each type's
 * routes as the tie-break sorts them), so that the table can read how the
 * revenue was made.  An event's text is made from the event alone (the
 * match layer renders stored events later), so the stops travel in the
 * events: D18_STOPS stops an event, a longer route going on in the next
 * ones.  A stop is 10 bits: its location (bits 0-6), its level (7-8: a
 * city pays its revenue at that level) and a mark (9: a lingering city
 * counted twice, or the off-board the Flying Dutchman doubles).
 *   seat  the seat deciding for the entity; card: the monster type
 *   a, b  stops 0-2 and 3-5
 *   from  stop 6 (bits 0-9), the stops in this event (10-12)
 *   to    entity (bits 0-3), part of the route (4-8), last part (9),
 *         howl (10), phase (11-13: an off-board pays the phase's value),
 *         total (14: a is the route's revenue instead of stops 0-2; the
 *         first part of a route longer than D18_STOPS says it)
 * A `howl` type runs no path: one event for its copies, a its revenue and
 * b its copies.
 * Bound: the routes are edge-disjoint paths (router.h), so all of them
 * together have at most D18_MAX_ROUTES + D18_ROUTE_MAX_SLOTS stops, and a
 * route of k stops takes at most k / D18_STOPS + 2 events (its first part
 * holds 3 stops fewer); a howl type takes one event for slots that hold no
 * route. */
enum {
    D18_STOPS = 7,
    D18_ROUTE_EVENTS =
        2 * D18_ROUTE_MAX_SLOTS + (D18_MAX_ROUTES + D18_ROUTE_MAX_SLOTS) / D18_STOPS + 1,
};
_Static_assert(D18_MAX_LOCATIONS <= 128 && D18_NENT <= 16 && D18_NUM_PHASES < 8,
               "a stop's and a route event's fields");
_Static_assert(D18_ROUTE_MAX_LOCS / D18_STOPS < 32, "a route's parts fit in 5 bits");

enum {
    D18_MAX_EVENTS = 1 + 1 + 3 * D18_NASSOC + D18_MAXP + 4 * D18_NFRONTS + D18_NFRONTS * D18_MAXP +
                     D18_MAX_ROUTES + 1 + D18_MAX_LOCATIONS * D18_MAX_OFFICE_SPACES + 2 +
                     D18_MAX_MONSTER_COPIES + 1 + 1 + 1 + 1 + 1 + 1 + 1 + D18_ROUTE_EVENTS
};

int d18_max_events(void) { return D18_MAX_EVENTS; }

_Static_assert((int)D18_ROUTE_EVENTS <= (int)D18_ANNALS_ROUTE_EVENTS,
               "the annals keep a rampage's routes");

/* The stops of a D18_E_ROUTE event that is not a howl, as the 10-bit words
 * it packs (location, level << 7, linger or Flying Dutchman mark << 9),
 * into w[D18_STOPS]; returns how many.  The one unpacking of the words, for
 * the log's text and for d18_route_event_stops. */
static int route_event_words(const cr_event *e, uint32_t *w)
{
    unsigned to = (uint16_t)e->to, from = (uint16_t)e->from;
    uint32_t all[D18_STOPS] = {(uint32_t)e->a & 1023,
                               (uint32_t)e->a >> 10 & 1023,
                               (uint32_t)e->a >> 20 & 1023,
                               (uint32_t)e->b & 1023,
                               (uint32_t)e->b >> 10 & 1023,
                               (uint32_t)e->b >> 20 & 1023,
                               from & 1023};
    int first = (to >> 14 & 1) ? 3 : 0, n = (int)(from >> 10 & 7);
    if (n > D18_STOPS - first) n = D18_STOPS - first;
    for (int i = 0; i < n; i++) w[i] = all[first + i];
    return n;
}

int d18_route_event_stops(const cr_event *e, int *ent, int *part, int *howl, int *loc)
{
    unsigned to = (uint16_t)e->to;
    *ent = (int)(to & 15);
    *part = (int)(to >> 4 & 31);
    *howl = (int)(to >> 10 & 1);
    if (*howl) return 0;
    uint32_t w[D18_STOPS];
    int n = route_event_words(e, w);
    for (int i = 0; i < n; i++) loc[i] = (int)(w[i] & 127);
    return n;
}

static void emit(cr_events *ev, int kind, int seat, int other, int card, int from, int to,
                 int32_t a, int32_t b)
{
    cr_events_push(ev, kind, seat, other, card, from, to, a, b, CR_SEEN_ALL); /* R7: all public */
}

static int price_of(const cr_game *g, const d18_state *s, int f)
{
    return s->pres[f] >= 0 && s->mrow[f] >= 0 ? d18_price(g, s, f) : 0;
}

/* What stop w earns a monster of type m in a phase (doubled when marked). */
static int stop_value(const d18_board *b, const d18_monster *m, uint32_t w, int phase)
{
    int l = (int)(w & 127), level = (int)(w >> 7 & 3), mark = (int)(w >> 9 & 1);
    if (l >= b->n_locations) return 0;
    if (b->loc[l].kind == D18_CITY) return d18_city_value(b, l, level) * (1 + mark);
    if (b->loc[l].kind == D18_OFF) return d18_off_value(b, l, phase) * (1 + mark);
    return m->town_rev;
}

/* One route's stops as events: up to D18_STOPS in one; a longer route
 * opens with its total in a and D18_STOPS - 3 stops in b and from. */
static void emit_stops(const cr_game *g, cr_events *ev, int seat, int type, int ent, int phase,
                       const uint32_t *stop, int n)
{
    const d18_board *b = d18_brd(g);
    int32_t total = 0;
    for (int i = 0; i < n; i++) total += stop_value(b, &b->monster[type], stop[i], phase);
    for (int p = 0, at = 0; at < n; p++) {
        uint32_t w[D18_STOPS] = {0};
        int has_total = p == 0 && n > D18_STOPS, room = has_total ? D18_STOPS - 3 : D18_STOPS;
        int k = n - at < room ? n - at : room;
        for (int i = 0; i < k; i++) w[(has_total ? 3 : 0) + i] = stop[at + i];
        at += k;
        int32_t a = has_total ? total : (int32_t)(w[0] | w[1] << 10 | w[2] << 20);
        int32_t bb = (int32_t)(w[3] | w[4] << 10 | w[5] << 20);
        int from = (int)(w[6] | (uint32_t)k << 10);
        int to = ent | p << 4 | (at == n) << 9 | phase << 11 | has_total << 14;
        emit(ev, D18_E_ROUTE, seat, -1, type, from, to, a, bb);
    }
}

/* The routes of entity e's rampage in state o (the state it ran in). */
static void emit_routes(const cr_game *g, const d18_state *o, int e, cr_ctx *cx)
{
    d18_route_input in;
    d18_route_result r;
    /* Out of memory (no scratch, no workspace): the revenue stands alone. */
    if (d18_rampage_routes(g, o, e, cx, &in, &r) != 0) return;
    const d18_board *b = d18_brd(g);
    int seat = d18_owner_of(o, e);
    for (int t = 0; t < in.n_types && t < D18_ROUTE_MAX_TYPES; t++) {
        const d18_route_monster *m = &in.type[t];
        if (m->move == D18_MOVE_HOWL) {
            if (r.type_revenue[t] > 0)
                emit(cx->ev, D18_E_ROUTE, seat, -1, m->roster, 0,
                     e | 1 << 9 | 1 << 10 | o->phase << 11, (int32_t)r.type_revenue[t], m->copies);
            continue;
        }
        int end = t + 1 < in.n_types ? r.type_first[t + 1] : r.n_slots;
        for (int j = r.type_first[t]; j < end && j < D18_ROUTE_MAX_SLOTS; j++) {
            const d18_route_entry *x = &r.slot[j];
            uint32_t stop[D18_ROUTE_MAX_LOCS];
            int n = 0;
            for (int i = 0; i < x->n_locs && i < D18_ROUTE_MAX_LOCS; i++) {
                int l = x->loc[i], level = 0, mark = 0;
                if (b->loc[l].kind == D18_CITY) {
                    level = d18_level(g, o, l);
                    for (int k = 0; k < x->n_linger && k < D18_ROUTE_MAX_LINGER; k++)
                        mark |= x->linger[k] == l;
                } else if (b->loc[l].kind == D18_OFF) {
                    mark = j == r.fd_slot && l == r.fd_loc;
                }
                stop[n++] = (uint32_t)(l | level << 7 | mark << 9);
            }
            if (n) emit_stops(g, cx->ev, seat, m->roster, e, o->phase, stop, n);
        }
    }
}

void d18_events(const cr_game *g, const d18_state *o, const d18_state *s, cr_action a, int actor,
                cr_ctx *cx)
{
    cr_events *ev = cx->ev;
    const d18_board *b = d18_brd(g);
    d18_act x;
    d18_decode(a, &x);
    if (x.kind == D18_K_SEAT) {
        int32_t order = 0;
        for (int i = 0; i < s->np; i++) order |= (int32_t)s->seat_at[i] << (4 * i);
        emit(ev, D18_E_SEATING, -1, -1, -1, -1, -1, order, s->np);
    } else {
        /* The entity the seat acted for (-1: the seat itself). */
        int ent = o->stage >= D18_S_OR && o->stage != D18_S_OVER ? o->op_ent : -1;
        if (o->stage == D18_S_DISCARD) ent = d18_next_discarder(g, o);
        emit(ev, D18_E_ACTION, actor, -1, ent, -1, -1, (int32_t)a, 0);
    }
    /* associates */
    for (int i = 0; i < D18_NASSOC; i++) {
        if (o->assoc_owner[i] != s->assoc_owner[i]) {
            int to = s->assoc_owner[i], price = 0;
            if (o->assoc_owner[i] == D18_UNSOLD && to >= 0 && to < D18_MAXP)
                price = o->bid[i][to] > 0 ? o->bid[i][to] : o->assoc_price_now[i];
            else if (x.kind == D18_K_ACCEPT || x.kind == D18_K_OFFER_AF)
                price = o->offer_price;
            emit(ev, D18_E_ASSOC_OWNER, -1, -1, i, o->assoc_owner[i], to, price, 0);
        }
        if (s->assoc_price_now[i] < o->assoc_price_now[i])
            emit(ev, D18_E_ASSOC_PRICE, -1, -1, i, -1, -1, s->assoc_price_now[i],
                 o->assoc_price_now[i]);
        if ((s->assoc_closed & ~o->assoc_closed) >> i & 1)
            emit(ev, D18_E_ASSOC_CLOSED, -1, -1, i, -1, -1, 0, 0);
    }
    if (s->au_cycles != o->au_cycles) /* all passed: the associates paid (4.5) */
        for (int p = 0; p < s->np; p++) {
            int32_t got = 0;
            for (int i = 0; i < D18_NASSOC; i++)
                if (o->assoc_owner[i] == p && !(o->assoc_closed >> i & 1))
                    got += d18_assoc_revenue[i];
            if (got > 0) emit(ev, D18_E_ASSOC_REVENUE, p, -1, -1, -1, -1, got, 0);
        }
    /* fronts */
    for (int f = 0; f < D18_NFRONTS; f++) {
        if (o->pres[f] < 0 && s->pres[f] >= 0)
            emit(ev, D18_E_START, s->pres[f], -1, f, -1, -1, price_of(g, s, f), 0);
        for (int p = 0; p < s->np; p++)
            if (o->held[f][p] != s->held[f][p])
                emit(ev, D18_E_SHARES, p, -1, f, o->held[f][p], s->held[f][p],
                     s->held[f][p] - o->held[f][p], s->pool[f]);
        if (o->pres[f] >= 0 && o->pres[f] != s->pres[f])
            emit(ev, D18_E_PRESIDENT, s->pres[f], o->pres[f], f, -1, -1, 0, 0);
        if ((s->floated & ~o->floated) >> f & 1)
            emit(ev, D18_E_FLOAT, s->pres[f], -1, f, -1, -1, s->treasury[f], 0);
        if (o->pres[f] >= 0 && s->pres[f] >= 0 &&
            (o->mrow[f] != s->mrow[f] || o->mcol[f] != s->mcol[f]))
            emit(ev, D18_E_MARKET, -1, -1, f, o->mrow[f] * 64 + o->mcol[f],
                 s->mrow[f] * 64 + s->mcol[f], price_of(g, o, f), price_of(g, s, f));
    }
    /* the map */
    for (int r = 0; r < b->n_routes && r < D18_MAX_ROUTES; r++)
        if (o->cube[r] != s->cube[r]) {
            int32_t cost = 0;
            if (x.kind == D18_K_BUILD && x.o1 == r) cost = b->route[r].cost;
            emit(ev, D18_E_CUBE, -1, -1, r, o->cube[r], s->cube[r], cost, 0);
        }
    if (x.kind == D18_K_CASTLE_PLACE)
        emit(ev, D18_E_CASTLE, actor, -1, s->castle, -1, -1, o->castle_top, 0);
    for (int l = 0; l < b->n_locations && l < D18_MAX_LOCATIONS; l++)
        for (int k = 0; k < D18_MAX_OFFICE_SPACES; k++)
            if (o->space_occ[l][k] != s->space_occ[l][k]) {
                int32_t cost = 0;
                if (x.kind == D18_K_OFFICE && x.o1 == l && o->op_ent >= 0)
                    cost = d18_office_cost(g, o, o->op_ent);
                emit(ev, D18_E_OFFICE, -1, -1, l, o->space_occ[l][k], s->space_occ[l][k], cost, k);
            }
    /* the operating turn's money */
    if (x.kind == D18_K_RAMPAGE) {
        /* A front's revenue waits in s->revenue for its dividend; an
         * associate's turn ends with the split (R118), and the next turn
         * has already reset s->revenue, so its revenue is the router's
         * answer on the state the rampage ran in. */
        int e = o->op_ent;
        int32_t rev = e < D18_NFRONTS ? s->revenue : d18_rampage(g, o, e, cx);
        emit(ev, D18_E_REVENUE, d18_owner_of(o, e), -1, e, -1, -1, rev, 0);
        if (rev > 0) emit_routes(g, o, e, cx);
    }
    if (x.kind == D18_K_PAY || x.kind == D18_K_RETAIN) {
        int pay = x.kind == D18_K_PAY && o->revenue > 0;
        emit(ev, D18_E_DIVIDEND, d18_owner_of(o, o->op_ent), pay, o->op_ent, -1, -1, o->revenue,
             pay ? o->revenue / 10 : 0); /* R72 */
    }
    /* monsters: where each copy went (bought, traded, eaten, discarded) */
    for (int c = 0; c < b->n_copies && c < D18_MAX_MONSTER_COPIES; c++)
        if (o->mon_at[c] != s->mon_at[c]) {
            int32_t price = 0;
            if ((x.kind == D18_K_BUY_BANK || x.kind == D18_K_BUY_MKT || x.kind == D18_K_EM_BUY) &&
                s->mon_at[c] >= D18_AT_ENTITY)
                price = b->monster[d18_copy_type(b, c)].price;
            else if (x.kind == D18_K_ACCEPT && o->stage == D18_S_OR_OFFER)
                price = o->offer_price;
            emit(ev, D18_E_MONSTER, -1, -1, d18_copy_type(b, c), o->mon_at[c], s->mon_at[c], price,
                 c);
        }
    if (s->phase != o->phase) emit(ev, D18_E_PHASE, -1, -1, -1, -1, -1, s->phase, o->phase);
    if (s->broke_when != D18_BRK_NONE && o->broke_when == D18_BRK_NONE)
        emit(ev, D18_E_BANK_BROKE, -1, -1, -1, -1, -1, 0, 0);
    if (s->bankrupt >= 0 && o->bankrupt < 0)
        emit(ev, D18_E_BANKRUPT, s->bankrupt, -1, -1, -1, -1, s->cash[s->bankrupt], 0);
    if (s->sr_no != o->sr_no && s->stage == D18_S_SR)
        emit(ev, D18_E_SR, s->priority, -1, -1, -1, -1, s->sr_no, 0);
    if (s->ors_played != o->ors_played)
        emit(ev, D18_E_OR, -1, -1, -1, -1, -1, s->ors_played, s->or_no);
    if (s->op_ent >= 0 && s->op_ent != o->op_ent && s->stage != D18_S_OVER)
        emit(ev, D18_E_OPERATES, d18_owner_of(s, s->op_ent), -1, s->op_ent, -1, -1, 0, 0);
    if (s->stage == D18_S_OVER && o->stage != D18_S_OVER) {
        cr_result r;
        g->def->result(g, s, &r);
        emit(ev, D18_E_END, -1, -1, -1, -1, -1, s->end_reason, (int32_t)r.winners);
    }
}

/* ---- text ---- */

static const char *ent_name(const cr_game *g, int e)
{
    const d18_board *b = d18_brd(g);
    if (e >= 0 && e < D18_NFRONTS) return b->front[e].id;
    if (e == D18_ENT_LL) return "LL";
    if (e == D18_ENT_BT) return "BT";
    return "?";
}

static const char *assoc_name(int a) { return a >= 0 && a < D18_NASSOC ? d18_assoc_name[a] : "?"; }

static void tb_owner(const cr_game *g, cr_tbuf *t, int owner)
{
    if (owner == D18_UNSOLD)
        cr_tb_printf(t, "the auction");
    else if (owner >= 0 && owner < D18_MAXP)
        cr_tb_printf(t, "P%d", owner);
    else if (owner >= D18_OWN_FRONT && owner < D18_OWN_FRONT + D18_NFRONTS)
        cr_tb_printf(t, "%s", ent_name(g, owner - D18_OWN_FRONT));
    else
        cr_tb_printf(t, "?");
}

static void tb_where(const cr_game *g, cr_tbuf *t, int at)
{
    if (at == D18_AT_BANK)
        cr_tb_printf(t, "the bank");
    else if (at == D18_AT_MARKET)
        cr_tb_printf(t, "the open market");
    else if (at == D18_AT_GONE)
        cr_tb_printf(t, "out of the game");
    else if (at >= D18_AT_ENTITY && at < D18_AT_ENTITY + D18_NENT)
        cr_tb_printf(t, "%s", ent_name(g, at - D18_AT_ENTITY));
    else
        cr_tb_printf(t, "?");
}

static void tb_occupant(const cr_game *g, cr_tbuf *t, int occ)
{
    if (occ == D18_OCC_EMPTY)
        cr_tb_printf(t, "empty");
    else if (occ >= D18_OCC_DOWN && occ < D18_OCC_DOWN + D18_NFRONTS)
        cr_tb_printf(t, "%s's face-down Church token", ent_name(g, occ - D18_OCC_DOWN));
    else
        cr_tb_printf(t, "%s's office", ent_name(g, occ));
}

static void tb_route(const cr_game *g, cr_tbuf *t, int r)
{
    const d18_board *b = d18_brd(g);
    if (r >= 0 && r < b->n_routes)
        cr_tb_printf(t, "%s-%s", b->loc[b->route[r].a].id, b->loc[b->route[r].b].id);
    else
        cr_tb_printf(t, "?");
}

static const char *cube_name(int c)
{
    static const char *const w[] = {"yellow", "green", "brown", "red"};
    if (c == D18_CUBE_PRE) return "pre-existing";
    return c >= 1 && c <= 4 ? w[c - 1] : "?";
}

/* One D18_E_ROUTE event in words ("Routes" above), e.g.
 * "NBC's Gargoyle (major 5): Ravenspire-Thornhallow-Helifax (30x2+20+50) =
 * 130; Ravenspire lingers". */
static void tb_route_event(const cr_game *g, cr_tbuf *t, const cr_event *e)
{
    const d18_board *b = d18_brd(g);
    unsigned to = (uint16_t)e->to;
    int ent = (int)(to & 15), part = (int)(to >> 4 & 31), last = (int)(to >> 9 & 1);
    int howl = (int)(to >> 10 & 1), phase = (int)(to >> 11 & 7), has_total = (int)(to >> 14 & 1);
    int type = e->card;
    if (type < 0 || type >= b->n_monsters || phase < 1 || phase > D18_NUM_PHASES) {
        cr_tb_printf(t, "?");
        return;
    }
    const d18_monster *m = &b->monster[type];
    if (howl) {
        cr_tb_printf(t, "%s's %s", ent_name(g, ent), m->name);
        if (e->b > 1) cr_tb_printf(t, " x%d", e->b);
        cr_tb_printf(t, " (howl): %d from the cities and towns next to its offices", e->a);
        return;
    }
    uint32_t st[D18_STOPS];
    int n = route_event_words(e, st);
    if (part == 0) {
        cr_tb_printf(t, "%s's %s (%s", ent_name(g, ent), m->name, d18_move_name(m->move));
        if (m->move == D18_MOVE_DIT || m->move == D18_MOVE_CITY || m->move == D18_MOVE_MAJOR)
            cr_tb_printf(t, " %d", m->n);
        cr_tb_printf(t, ")");
        if (has_total) cr_tb_printf(t, ", %d in all", e->a);
        cr_tb_printf(t, ": ");
    } else {
        cr_tb_printf(t, "%s's %s, route continued: -", ent_name(g, ent), m->name);
    }
    for (int i = 0; i < n; i++) {
        int l = (int)(st[i] & 127);
        cr_tb_printf(t, "%s%s", i ? "-" : "", l < b->n_locations ? b->loc[l].name : "?");
    }
    if (!last) cr_tb_printf(t, "-");
    cr_tb_printf(t, " (");
    int sum = 0, marks = 0;
    for (int i = 0; i < n; i++) {
        int l = (int)(st[i] & 127), mark = (int)(st[i] >> 9 & 1);
        if (l >= b->n_locations || b->loc[l].kind == D18_TOWN) mark = 0;
        int v = stop_value(b, m, st[i] & 511, phase); /* once; the mark is written x2 */
        cr_tb_printf(t, "%s%d%s", i ? "+" : "", v, mark ? "x2" : "");
        sum += v * (1 + mark);
        marks += mark;
    }
    cr_tb_printf(t, ")");
    if (part == 0 && last) cr_tb_printf(t, " = %d", sum);
    if (!last) cr_tb_printf(t, " and on");
    for (int i = 0, said = 0; i < n && marks; i++) {
        int l = (int)(st[i] & 127);
        if (!(st[i] >> 9 & 1) || l >= b->n_locations || b->loc[l].kind == D18_TOWN) continue;
        cr_tb_printf(t, "%s", said++ ? ", " : "; ");
        if (b->loc[l].kind == D18_CITY)
            cr_tb_printf(t, "%s lingers (counted twice)", b->loc[l].name);
        else
            cr_tb_printf(t, "the Flying Dutchman doubles %s", b->loc[l].name);
    }
}

/* Player-facing: no spec references (the rulings are R121 and R84). */
static const char *const end_words[] = {"", "the bank broke", "no progress was made",
                                        "a player went bankrupt", "a technical bankruptcy"};

size_t d18_event_to_str(const cr_game *g, const cr_event *e, int seat, char *buf, size_t cap)
{
    (void)seat; /* R7: every seat sees the same text */
    const d18_board *b = d18_brd(g);
    cr_tbuf t;
    cr_tb_init(&t, buf, cap);
    switch (e->kind) {
    case D18_E_ACTION: {
        char act[96];
        d18_action_to_str(g, NULL, (cr_action)e->a, act, sizeof act);
        if (e->card >= 0)
            cr_tb_printf(&t, "P%d for %s: %s", e->seat, ent_name(g, e->card), act);
        else
            cr_tb_printf(&t, "P%d: %s", e->seat, act);
        break;
    }
    case D18_E_SEATING:
        cr_tb_printf(&t, "Seating, clockwise:");
        for (int i = 0; i < e->b && i < D18_MAXP; i++)
            cr_tb_printf(&t, " P%d", e->a >> (4 * i) & 15);
        break;
    case D18_E_ASSOC_OWNER:
        cr_tb_printf(&t, "%s passes from ", assoc_name(e->card));
        tb_owner(g, &t, e->from);
        cr_tb_printf(&t, " to ");
        tb_owner(g, &t, e->to);
        if (e->a > 0) cr_tb_printf(&t, " for %d", e->a);
        break;
    case D18_E_ASSOC_PRICE:
        cr_tb_printf(&t, "Nobody bought: %s's price drops from %d to %d", assoc_name(e->card), e->b,
                     e->a);
        break;
    case D18_E_ASSOC_CLOSED: cr_tb_printf(&t, "%s closes", assoc_name(e->card)); break;
    case D18_E_ASSOC_REVENUE: cr_tb_printf(&t, "P%d's associates earn %d", e->seat, e->a); break;
    case D18_E_START:
        cr_tb_printf(&t, "P%d starts %s at par %d (President's certificate, 2 shares)", e->seat,
                     ent_name(g, e->card), e->a);
        break;
    case D18_E_SHARES:
        if (e->a > 0)
            cr_tb_printf(&t, "P%d now holds %d %s share%s (+%d)", e->seat, e->to,
                         ent_name(g, e->card), e->to == 1 ? "" : "s", e->a);
        else
            cr_tb_printf(&t, "P%d sells %d %s share%s to the market (now %d; %d in the market)",
                         e->seat, -e->a, ent_name(g, e->card), e->a == -1 ? "" : "s", e->to, e->b);
        break;
    case D18_E_PRESIDENT:
        cr_tb_printf(&t, "P%d becomes President of %s (was P%d)", e->seat, ent_name(g, e->card),
                     e->other);
        break;
    case D18_E_FLOAT:
        cr_tb_printf(&t, "%s floats with %d in its treasury", ent_name(g, e->card), e->a);
        break;
    case D18_E_MARKET:
        cr_tb_printf(&t, "%s's share price moves from %d to %d", ent_name(g, e->card), e->a, e->b);
        break;
    case D18_E_CUBE:
        if (e->to != D18_CUBE_NONE) {
            cr_tb_printf(&t, "A %s cube goes on ", cube_name(e->to));
            tb_route(g, &t, e->card);
            if (e->a > 0) cr_tb_printf(&t, " (cost %d)", e->a);
        } else {
            cr_tb_printf(&t, "The %s cube leaves ", cube_name(e->from));
            tb_route(g, &t, e->card);
        }
        break;
    case D18_E_CASTLE:
        cr_tb_printf(&t, "P%d places the castle on ", e->seat);
        tb_route(g, &t, e->card);
        if (e->a > 0) cr_tb_printf(&t, " (won for %d)", e->a);
        break;
    case D18_E_OFFICE: {
        const char *id = e->card >= 0 && e->card < b->n_locations ? b->loc[e->card].id : "?";
        cr_tb_printf(&t, "%s space %d: ", id, e->b + 1);
        tb_occupant(g, &t, e->from);
        cr_tb_printf(&t, " -> ");
        tb_occupant(g, &t, e->to);
        if (e->a > 0) cr_tb_printf(&t, " (cost %d)", e->a);
        break;
    }
    case D18_E_REVENUE:
        cr_tb_printf(&t, "%s's rampage earns %d", ent_name(g, e->card), e->a);
        if (e->card >= D18_NFRONTS)
            cr_tb_printf(&t, " (%d to P%d, %d to its treasury)", e->a / 2, e->seat,
                         e->a - e->a / 2);
        break;
    case D18_E_DIVIDEND:
        if (e->other)
            cr_tb_printf(&t, "%s pays out %d: %d a share", ent_name(g, e->card), e->a, e->b);
        else
            cr_tb_printf(&t, "%s retains %d", ent_name(g, e->card), e->a);
        break;
    case D18_E_MONSTER: {
        const char *id = e->card >= 0 && e->card < b->n_monsters ? b->monster[e->card].id : "?";
        if (e->to == D18_AT_GONE)
            cr_tb_printf(&t, "%s (from ", id);
        else
            cr_tb_printf(&t, "%s moves from ", id);
        tb_where(g, &t, e->from);
        if (e->to == D18_AT_GONE) {
            cr_tb_printf(&t, ") leaves the game");
        } else {
            cr_tb_printf(&t, " to ");
            tb_where(g, &t, e->to);
        }
        if (e->a > 0) cr_tb_printf(&t, " for %d", e->a);
        break;
    }
    case D18_E_PHASE: cr_tb_printf(&t, "Phase %d begins (was %d)", e->a, e->b); break;
    case D18_E_BANK_BROKE: cr_tb_printf(&t, "The bank is broken: the game will end"); break;
    case D18_E_BANKRUPT: cr_tb_printf(&t, "P%d goes bankrupt (%d left)", e->seat, e->a); break;
    case D18_E_SR:
        cr_tb_printf(&t, "Stock round %d begins; P%d has priority", e->a, e->seat);
        break;
    case D18_E_OR: cr_tb_printf(&t, "Operating round %d begins", e->a); break;
    case D18_E_OPERATES:
        cr_tb_printf(&t, "%s operates (P%d decides)", ent_name(g, e->card), e->seat);
        break;
    case D18_E_END:
        cr_tb_printf(&t, "Game over: %s. Winner%s:", e->a >= 1 && e->a <= 4 ? end_words[e->a] : "?",
                     __builtin_popcount((unsigned)e->b) > 1 ? "s" : "");
        for (int p = 0; p < D18_MAXP; p++)
            if ((unsigned)e->b >> p & 1) cr_tb_printf(&t, " P%d", p);
        break;
    case D18_E_ROUTE: tb_route_event(g, &t, e); break;
    default: cr_tb_printf(&t, "?"); break;
    }
    return t.len;
}

static const char *const kind_names[D18_NEV] = {
    [D18_E_ACTION] = "action",
    [D18_E_SEATING] = "seating",
    [D18_E_ASSOC_OWNER] = "associate_owner",
    [D18_E_ASSOC_PRICE] = "associate_price",
    [D18_E_ASSOC_CLOSED] = "associate_closed",
    [D18_E_ASSOC_REVENUE] = "associate_revenue",
    [D18_E_START] = "start",
    [D18_E_SHARES] = "shares",
    [D18_E_PRESIDENT] = "president",
    [D18_E_FLOAT] = "float",
    [D18_E_MARKET] = "market",
    [D18_E_CUBE] = "cube",
    [D18_E_CASTLE] = "castle",
    [D18_E_OFFICE] = "office",
    [D18_E_REVENUE] = "revenue",
    [D18_E_DIVIDEND] = "dividend",
    [D18_E_MONSTER] = "monster",
    [D18_E_PHASE] = "phase",
    [D18_E_BANK_BROKE] = "bank_broke",
    [D18_E_BANKRUPT] = "bankrupt",
    [D18_E_SR] = "stock_round",
    [D18_E_OR] = "operating_round",
    [D18_E_OPERATES] = "operates",
    [D18_E_END] = "end",
    [D18_E_ROUTE] = "route",
};

size_t d18_event_to_json(const cr_game *g, const cr_event *e, int seat, char *buf, size_t cap)
{
    cr_tbuf t;
    cr_tb_init(&t, buf, cap);
    const char *k = e->kind < D18_NEV ? kind_names[e->kind] : "unknown";
    cr_tb_printf(&t, "{\"kind\":\"%s\"", k);
    if (e->seat >= 0) cr_tb_printf(&t, ",\"seat\":%d", e->seat);
    if (e->other >= 0) cr_tb_printf(&t, ",\"other\":%d", e->other);
    if (e->card >= 0) cr_tb_printf(&t, ",\"object\":%d", e->card);
    cr_tb_printf(&t, ",\"from\":%d,\"to\":%d,\"a\":%ld,\"b\":%ld", e->from, e->to, (long)e->a,
                 (long)e->b);
    char text[1024]; /* a route of 7 long names with its notes: under 700 */
    d18_event_to_str(g, e, seat, text, sizeof text);
    cr_tb_printf(&t, ",\"text\":");
    cr_tb_json_str(&t, text);
    cr_tb_printf(&t, "}");
    return t.len;
}

/* ---- the lab's counters ---- */

const char *const d18_lab_counter_names[D18_LAB_COUNTERS] = {
    "associates sold",    "associate price drops",
    "fronts started",     "floats",
    "shares bought",      "shares sold",
    "presidency changes", "cubes placed",
    "offices placed",     "rampages",
    "dividends paid",     "earnings retained",
    "monsters bought",    "monsters leaving the game",
    "phase changes",      "bankruptcies",
};
enum {
    C_ASOLD,
    C_DROP,
    C_START,
    C_FLOAT,
    C_BUY,
    C_SELL,
    C_PRES,
    C_CUBE,
    C_OFFICE,
    C_RAMPAGE,
    C_PAID,
    C_RETAINED,
    C_MON_BUY,
    C_MON_EATEN,
    C_PHASE,
    C_BANKRUPT,
    C_N
};

static void count(const cr_event *e, uint64_t *c)
{
    switch (e->kind) {
    case D18_E_ASSOC_OWNER:
        if (e->from == D18_UNSOLD) c[C_ASOLD]++;
        break;
    case D18_E_ASSOC_PRICE: c[C_DROP]++; break;
    case D18_E_START: c[C_START]++; break;
    case D18_E_FLOAT: c[C_FLOAT]++; break;
    case D18_E_SHARES: c[e->a > 0 ? C_BUY : C_SELL] += (uint64_t)(e->a > 0 ? e->a : -e->a); break;
    case D18_E_PRESIDENT: c[C_PRES]++; break;
    case D18_E_CUBE:
        if (e->to != D18_CUBE_NONE) c[C_CUBE]++;
        break;
    case D18_E_OFFICE:
        if (e->to >= 0 && e->to < D18_NENT && e->from == D18_OCC_EMPTY) c[C_OFFICE]++;
        break;
    case D18_E_REVENUE: c[C_RAMPAGE]++; break;
    case D18_E_DIVIDEND: c[e->other ? C_PAID : C_RETAINED]++; break;
    case D18_E_MONSTER:
        if (e->to >= D18_AT_ENTITY && (e->from == D18_AT_BANK || e->from == D18_AT_MARKET))
            c[C_MON_BUY]++;
        else if (e->to == D18_AT_GONE)
            c[C_MON_EATEN]++;
        break;
    case D18_E_PHASE: c[C_PHASE]++; break;
    case D18_E_BANKRUPT: c[C_BANKRUPT]++; break;
    default: break;
    }
}

_Static_assert((int)C_N <= (int)CR_LAB_MAX_COUNTERS, "the lab's limit");

_Static_assert((int)C_N == (int)D18_LAB_COUNTERS, "d18_internal.h's count");

void d18_lab_count(const cr_event *e, uint64_t *counters) { count(e, counters); }
