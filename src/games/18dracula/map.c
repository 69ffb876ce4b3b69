/* map.c — 18Dracula's map in play: cubes and the slot model of the colour
 * rule (8.6.3, R53-R56), city levels and office spaces (8.5, R57, R58),
 * blocking (R60, R61, R120), connection (8.6.2, R52), building (8.6.1,
 * R51) and office placement (8.7, R59, R109).
 *
 * Slots.  Each location has the slots Y, Y, G, B, R, R, R, ... (slot i has
 * colour d18_slot_colour(i)); `slots[loc]` has bit i set when slot i is
 * filled.  A cube of colour C fills, at each end, the lowest open slot of
 * colour C or higher and remembers it (slot_at), so removing it reopens
 * exactly that slot.  The demand of a location is the colour of its lowest
 * open slot.  A location has at most D18_MAX_DEGREE route spaces, so at
 * most 12 slots are ever filled and slot numbers stay below 4 + 12 < 32.
 *
 * Everything here reads the state and the board; nothing allocates.
 */
#include <string.h>

#include "games/18dracula/d18_internal.h"

int d18_slot_colour(int slot)
{
    return slot < 2 ? D18_YELLOW : slot == 2 ? D18_GREEN : slot == 3 ? D18_BLUE : D18_RED;
}

/* The lowest open slot of colour min_colour or higher: slots of colour C
 * and higher start at slot 0, 2, 3, 4 for yellow, green, blue, red. */
static int lowest_open(uint32_t filled, int min_colour)
{
    if (min_colour > D18_RED) return 31; /* no such slot (not asked) */
    int first = min_colour <= D18_YELLOW ? 0 : min_colour + 1;
    uint32_t open = ~filled & (0xffffffffu << first);
    return open ? __builtin_ctz(open) : 31; /* 31 unreachable: at most 12 slots are filled */
}

int d18_demand(const d18_state *s, int loc)
{
    return d18_slot_colour(lowest_open(s->slots[loc], D18_YELLOW));
}

/* The colour a cube on r must have (8.6.3): the fixed colour, or the
 * higher of the two ends' demands. */
int d18_required_colour(const cr_game *g, const d18_state *s, int r)
{
    const d18_route *rt = &d18_brd(g)->route[r];
    if (rt->colour != D18_NO_COLOUR) return rt->colour;
    int da = d18_demand(s, rt->a), db = d18_demand(s, rt->b);
    return da > db ? da : db;
}

static void fill(const cr_game *g, d18_state *s, int r, int colour, uint8_t cube)
{
    const d18_route *rt = &d18_brd(g)->route[r];
    int ends[2] = {rt->a, rt->b};
    for (int i = 0; i < 2; i++) {
        int slot = lowest_open(s->slots[ends[i]], colour);
        s->slots[ends[i]] |= 1u << slot;
        s->slot_at[r][i] = (uint8_t)slot;
    }
    s->cube[r] = cube;
}

/* Places a cube of `colour` from the supply on r (the caller checked). */
void d18_place_cube(const cr_game *g, d18_state *s, int r, int colour)
{
    s->supply[colour]--;
    fill(g, s, r, colour, (uint8_t)(colour + 1));
    d18_church_flip(g, s, d18_brd(g)->route[r].a); /* R110: in anyone's turn */
    d18_church_flip(g, s, d18_brd(g)->route[r].b);
}

/* Takes r's cube back to the supply and reopens its slots (JH, R87). */
void d18_remove_cube(const cr_game *g, d18_state *s, int r)
{
    const d18_route *rt = &d18_brd(g)->route[r];
    s->supply[d18_cube_colour(s->cube[r])]++;
    s->slots[rt->a] &= ~(1u << s->slot_at[r][0]);
    s->slots[rt->b] &= ~(1u << s->slot_at[r][1]);
    s->slot_at[r][0] = s->slot_at[r][1] = 0;
    s->cube[r] = D18_CUBE_NONE;
}

/* The map at setup (2.3 - 2.7): cubes in the supply (one yellow is the
 * tracker, R44), pre-existing connections filled as yellow (R56), every
 * office space empty, LL's and BT's start offices, the castle. */
void d18_map_setup(const cr_game *g, d18_state *s)
{
    const d18_board *b = d18_brd(g);
    s->supply[D18_YELLOW] = (int16_t)(b->cubes[D18_YELLOW] - 1);
    for (int l = 0; l < D18_MAX_LOCATIONS; l++)
        for (int i = 0; i < D18_MAX_OFFICE_SPACES; i++) s->space_occ[l][i] = D18_OCC_EMPTY;
    for (int r = 0; r < b->n_routes; r++)
        if (b->route[r].pre_existing) fill(g, s, r, D18_YELLOW, D18_CUBE_PRE);
    s->space_occ[b->ll.city][b->ll.space] = D18_ENT_LL;
    s->space_occ[b->bt.city][b->bt.space] = D18_ENT_BT;
    s->bt_offices = 1;
    s->castle = b->castle_start;
}

/* A city's level (8.5, R57): the highest colour among the completed route
 * spaces touching it, the castle's included; yellow with none. */
int d18_level(const cr_game *g, const d18_state *s, int loc)
{
    const d18_location *l = &d18_brd(g)->loc[loc];
    int lv = D18_YELLOW;
    for (int i = 0; i < l->n_adj; i++) {
        int c = s->cube[l->adj[i]];
        if (c != D18_CUBE_NONE && d18_cube_colour(c) > lv) lv = d18_cube_colour(c);
    }
    return lv;
}

int d18_has_office(const cr_game *g, const d18_state *s, int e, int loc)
{
    const d18_location *l = &d18_brd(g)->loc[loc];
    for (int i = 0; i < l->n_spaces; i++)
        if (s->space_occ[loc][i] == e) return 1;
    return 0;
}

/* Blocked for entity e (8.5, R60, R61, R120): a city where e has no face-up
 * office and no available space is empty (an empty reserved home space is
 * empty; a face-down Church token is not an office but fills its space). */
int d18_blocked(const cr_game *g, const d18_state *s, int e, int loc)
{
    const d18_location *l = &d18_brd(g)->loc[loc];
    if (l->kind != D18_CITY || d18_has_office(g, s, e, loc)) return 0;
    int lv = d18_level(g, s, loc);
    for (int i = 0; i < l->n_spaces; i++)
        if (l->space_band[i] <= lv && s->space_occ[loc][i] == D18_OCC_EMPTY) return 0;
    return 1;
}

/* X(E) and R(E) (8.6.2): traced over completed route spaces other than the
 * castle's, onward only through towns and cities not blocked for E. */
void d18_reach(const cr_game *g, const d18_state *s, int e, d18_locset *x, d18_locset *rr)
{
    const d18_board *b = d18_brd(g);
    uint8_t queue[D18_MAX_LOCATIONS];
    int head = 0, tail = 0;
    memset(x, 0, sizeof *x);
    memset(rr, 0, sizeof *rr);
    for (int l = 0; l < b->n_locations; l++)
        if (b->loc[l].kind == D18_CITY && d18_has_office(g, s, e, l)) {
            d18_add(x, l);
            d18_add(rr, l);
            queue[tail++] = (uint8_t)l;
        }
    while (head < tail) {
        int v = queue[head++];
        const d18_location *lv = &b->loc[v];
        for (int i = 0; i < lv->n_adj; i++) {
            int r = lv->adj[i];
            if (s->cube[r] == D18_CUBE_NONE || r == s->castle) continue;
            int o = d18_route_other(b, r, v);
            d18_add(rr, o);
            if (d18_in(x, o)) continue;
            int k = b->loc[o].kind;
            if (k == D18_OFF || (k == D18_CITY && d18_blocked(g, s, e, o))) continue;
            d18_add(x, o);
            queue[tail++] = (uint8_t)o;
        }
    }
}

int32_t *d18_ent_cash(d18_state *s, int e)
{
    return e < D18_NFRONTS ? &s->treasury[e] : &s->minor_cash[e - D18_NFRONTS];
}

int32_t d18_ent_cash_of(const d18_state *s, int e)
{
    return e < D18_NFRONTS ? s->treasury[e] : s->minor_cash[e - D18_NFRONTS];
}

/* Everything d18_can_build asks but the connection. */
static int build_allowed(const cr_game *g, const d18_state *s, int e, int r, int used)
{
    const d18_board *b = d18_brd(g);
    if (r < 0 || r >= b->n_routes || used >= 2 || s->cube[r] != D18_CUBE_NONE) return 0;
    if (b->route[r].cost > d18_ent_cash_of(s, e)) return 0;
    int c = d18_required_colour(g, s, r);
    return !(used == 1 && c != D18_YELLOW) && s->supply[c] > 0;
}

/* e's reach worked out once for a loop over cities (d18_can_place_office_rc):
 * rc starts zeroed and is filled on first need (the reach depends on the
 * state and e only, which a loop of questions does not change). */
static const d18_reach_cache *reach_of(const cr_game *g, const d18_state *s, int e,
                                       d18_reach_cache *rc)
{
    if (!rc->done) {
        d18_reach(g, s, e, &rc->x, &rc->rr);
        rc->done = 1;
    }
    return rc;
}

/* Whether e may build on r now (8.6, R51, R55): `used` is the allowance
 * spent this turn (0 nothing, 1 one yellow cube, 2 all).  A loop over the
 * routes asks d18_buildable instead. */
int d18_can_build(const cr_game *g, const d18_state *s, int e, int r, int used)
{
    if (!build_allowed(g, s, e, r, used)) return 0;
    const d18_route *rt = &d18_brd(g)->route[r];
    d18_locset x, rr;
    d18_reach(g, s, e, &x, &rr);
    return d18_in(&x, rt->a) || d18_in(&x, rt->b);
}

/* The routes e may build on now (d18_can_build on each), as a bitset: only
 * the route spaces with an end in X(E) are asked the rest, which early in
 * the game are a few of the board's.  Returns how many. */
int d18_buildable(const cr_game *g, const d18_state *s, int e, int used, d18_routeset *out)
{
    const d18_board *b = d18_brd(g);
    memset(out, 0, sizeof *out);
    if (used >= 2) return 0;
    d18_locset x, rr;
    d18_reach(g, s, e, &x, &rr);
    d18_routeset at = {{0}};
    for (int w = 0; w < D18_MAX_LOCATIONS / 64; w++)
        for (uint64_t bits = x.w[w]; bits; bits &= bits - 1) {
            const d18_location *l = &b->loc[w * 64 + __builtin_ctzll(bits)];
            for (int i = 0; i < l->n_adj; i++)
                at.w[l->adj[i] >> 6] |= (uint64_t)1 << (l->adj[i] & 63);
        }
    int n = 0;
    for (int w = 0; w < D18_MAX_ROUTES / 64; w++)
        for (uint64_t bits = at.w[w]; bits; bits &= bits - 1) {
            int r = w * 64 + __builtin_ctzll(bits);
            if (build_allowed(g, s, e, r, used)) {
                out->w[w] |= (uint64_t)1 << (r & 63);
                n++;
            }
        }
    return n;
}

/* A space of loc that e's office would take (R109): the first empty,
 * available one not reserved for another front's home; -1 if none. */
int d18_office_space(const cr_game *g, const d18_state *s, int e, int loc)
{
    const d18_board *b = d18_brd(g);
    const d18_location *l = &b->loc[loc];
    int lv = d18_level(g, s, loc);
    for (int i = 0; i < l->n_spaces; i++) {
        if (l->space_band[i] > lv || s->space_occ[loc][i] != D18_OCC_EMPTY) continue;
        int reserved = 0;
        for (int f = 0; f < D18_NFRONTS; f++)
            if (f != e && b->front[f].home == loc && b->front[f].home_space == i) reserved = 1;
        if (!reserved) return i;
    }
    return -1;
}

/* The cost of e's next office, or -1 when it has none left (8.7, 8.4). */
int d18_office_cost(const cr_game *g, const d18_state *s, int e)
{
    if (e == D18_ENT_LL) return -1;
    if (e == D18_ENT_BT) return s->bt_offices < 2 ? 40 : -1;
    const d18_front *fr = &d18_brd(g)->front[e];
    return s->offices_used[e] < fr->n_offices ? fr->office_cost[s->offices_used[e]] : -1;
}

/* Whether e may place its next office in city loc (8.7, R59, R110). */
int d18_can_place_office(const cr_game *g, const d18_state *s, int e, int loc)
{
    d18_reach_cache rc = {0};
    return d18_can_place_office_rc(g, s, e, loc, &rc);
}

int d18_can_place_office_rc(const cr_game *g, const d18_state *s, int e, int loc,
                            d18_reach_cache *rc)
{
    const d18_board *b = d18_brd(g);
    if (loc < 0 || loc >= b->n_locations || b->loc[loc].kind != D18_CITY) return 0;
    int cost = d18_office_cost(g, s, e);
    if (cost < 0 || cost > d18_ent_cash_of(s, e)) return 0;
    const d18_location *l = &b->loc[loc];
    for (int i = 0; i < l->n_spaces; i++)
        if (s->space_occ[loc][i] == e || s->space_occ[loc][i] == D18_OCC_DOWN + e) return 0;
    if (d18_office_space(g, s, e, loc) < 0) return 0;
    return d18_in(&reach_of(g, s, e, rc)->rr, loc);
}
