/* rules.c — 18Dracula's rules engine: setup (spec 2), the associate auction
 * (spec 4), stock rounds (spec 5) and scoring (spec 10), over the flat state
 * of d18_internal.h.
 *
 * Shape.  `legal` lists the decisions of the seat to act in the current
 * stage; `d18_is_legal` answers for any action id, so an amount anywhere in
 * its legal range is accepted while the list offers a menu (spec 12: the
 * ranges are the rules, the menu is ours).  Every legality question is
 * answered by one predicate (can_*), used by both, so the two never
 * disagree.  apply() trusts its caller; untrusted input goes through the
 * core's checked apply, which calls is_legal.
 *
 * Money moves only through pay()/take() (bank <-> an account), so the
 * total is conserved by construction; the bank's break (R93) is noticed
 * there.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "croupier/alloc.h"
#include "games/18dracula/d18_internal.h"

/* The rules' list prices (spec 9): a board's unless it gives others. */
const int16_t d18_rule_assoc_price[D18_NASSOC] = {30, 50, 60, 80, 100, 115, 180};
/* Revenue paid to a player owner: LL and BT operate instead (spec 9). */
const int16_t d18_assoc_revenue[D18_NASSOC] = {5, 10, 20, 0, 0, 20, 0};
const char *const d18_assoc_id[D18_NASSOC] = {"IL", "JH", "CV", "LL", "BT", "MI", "FD"};
const char *const d18_assoc_name[D18_NASSOC] = {
    "Innsmouth Library", "Jekyl & Hyde",          "Church of the endless void",
    "Lupin's Lipids",    "Blundell Transfusions", "Molemen Inc.",
    "Flying Dutchman",
};

/* ---- action encoding ---- */

typedef struct kind_dims {
    const char *name;
    int32_t d1, d2, amt;
} kind_dims;

_Static_assert(D18_NKINDS <= 64, "d18_decode halves from 32");

static const kind_dims dims[D18_NKINDS] = {
    [D18_K_SEAT] = {"seating", 720, 1, 1},
    [D18_K_AU_BUY] = {"auction_buy", 1, 1, 1},
    [D18_K_AU_BID] = {"auction_bid", D18_NASSOC, 1, D18_BID_UNITS},
    [D18_K_AU_PASS] = {"auction_pass", 1, 1, 1},
    [D18_K_CT_RAISE] = {"contest_raise", 1, 1, D18_BID_UNITS},
    [D18_K_CT_DROP] = {"contest_drop", 1, 1, 1},
    [D18_K_SELL] = {"sell", D18_NFRONTS, D18_MARKET_LIMIT, 1},
    [D18_K_START] = {"start_front", D18_NFRONTS, D18_MAX_PAR, 1},
    [D18_K_BUY_IPO] = {"buy_ipo", D18_NFRONTS, 1, 1},
    [D18_K_BUY_POOL] = {"buy_market", D18_NFRONTS, 1, 1},
    [D18_K_OFFER_AS] = {"offer_associate", D18_NASSOC, 1, D18_AMT},
    [D18_K_ACCEPT] = {"accept", 1, 1, 1},
    [D18_K_DECLINE] = {"decline", 1, 1, 1},
    [D18_K_PASS] = {"pass", 1, 1, 1},
    [D18_K_END_TURN] = {"end_turn", 1, 1, 1},
    [D18_K_CASTLE_BID] = {"castle_bid", 1, 1, D18_AMT},
    [D18_K_CASTLE_PASS] = {"castle_pass", 1, 1, 1},
    [D18_K_CASTLE_PLACE] = {"castle_place", D18_MAX_ROUTES, 1, 1},
    [D18_K_BUILD] = {"build", D18_MAX_ROUTES, 1, 1},
    [D18_K_BUILD_DONE] = {"build_done", 1, 1, 1},
    [D18_K_OFFICE] = {"place_office", D18_MAX_LOCATIONS, 1, 1},
    [D18_K_OFFICE_SKIP] = {"office_skip", 1, 1, 1},
    [D18_K_RAMPAGE] = {"rampage", 1, 1, 1},
    [D18_K_PAY] = {"pay", 1, 1, 1},
    [D18_K_RETAIN] = {"retain", 1, 1, 1},
    [D18_K_BUY_BANK] = {"buy_bank", D18_MAX_MONSTER_TYPES, 1, 1},
    [D18_K_BUY_MKT] = {"buy_market_monster", D18_MAX_MONSTER_TYPES, 1, 1},
    [D18_K_OFFER_MON] = {"offer_monster", D18_NFRONTS, D18_MAX_MONSTER_TYPES, D18_AMT},
    [D18_K_BUY_DONE] = {"buy_done", 1, 1, 1},
    [D18_K_EM_SELL] = {"emergency_sell", D18_NFRONTS, D18_MARKET_LIMIT, 1},
    [D18_K_EM_BUY] = {"emergency_buy", D18_MAX_MONSTER_TYPES, 1, 1},
    [D18_K_DISCARD] = {"discard", D18_MAX_MONSTER_TYPES, 1, 1},
    [D18_K_OFFER_AF] = {"offer_assoc_to_front", D18_NASSOC, 1, D18_AMT},
    [D18_K_MERGE_KEEP] = {"merge_office_keep", 1, 1, 1},
    [D18_K_MERGE_REMOVE] = {"merge_office_remove", 1, 1, 1},
    [D18_K_JH_REMOVE] = {"jh_remove", D18_MAX_ROUTES, 1, 1},
    [D18_K_JH_ADD] = {"jh_add", D18_MAX_ROUTES, 1, 1},
    [D18_K_CHURCH] = {"church_reserve", D18_MAX_LOCATIONS, 1, 1},
    [D18_K_MOLEMEN] = {"molemen_office", D18_MAX_LOCATIONS, 1, 1},
};

static int32_t kind_size(int k) { return dims[k].d1 * dims[k].d2 * dims[k].amt; }

/* base[k]: the first action number of kind k (base[D18_NKINDS]: the count),
 * summed once: encoding and decoding are in every legal_actions and apply. */
static int32_t base[D18_NKINDS + 1];
/* log2 of dims[k].amt and .d2 where they are powers of two (a shift then
 * does the division: 65,536 amounts, 32 monster types), else -1. */
static int8_t amt_shift[D18_NKINDS], d2_shift[D18_NKINDS];
static pthread_once_t base_once = PTHREAD_ONCE_INIT;
/* Set once the tables are filled: after it, kind_base reads them without
 * calling pthread_once (a call on every encode and decode). */
static atomic_int base_ready;

static int8_t log2_exact(int32_t v)
{
    for (int8_t i = 0; i < 31; i++)
        if (v == (int32_t)1 << i) return i;
    return -1;
}

static void base_init(void)
{
    for (int k = 0; k < D18_NKINDS; k++) {
        base[k + 1] = base[k] + kind_size(k);
        amt_shift[k] = log2_exact(dims[k].amt);
        d2_shift[k] = log2_exact(dims[k].d2);
    }
    atomic_store_explicit(&base_ready, 1, memory_order_release);
}

static int32_t kind_base(int k)
{
    if (!atomic_load_explicit(&base_ready, memory_order_acquire))
        pthread_once(&base_once, base_init);
    return base[k < 0 ? 0 : k > D18_NKINDS ? D18_NKINDS : k];
}

int d18_num_actions(void) { return (int)kind_base(D18_NKINDS); }

const char *d18_kind_name(int kind)
{
    return kind >= 0 && kind < D18_NKINDS ? dims[kind].name : "?";
}

cr_action d18_encode(int kind, int o1, int o2, int amt)
{
    assert(kind >= 0 && kind < D18_NKINDS);
    assert(o1 >= 0 && o1 < dims[kind].d1 && o2 >= 0 && o2 < dims[kind].d2);
    assert(amt >= 0 && amt < dims[kind].amt);
    return kind_base(kind) + ((int32_t)o1 * dims[kind].d2 + o2) * dims[kind].amt + amt;
}

int d18_decode(cr_action a, d18_act *out)
{
    if (a < 0 || a >= kind_base(D18_NKINDS)) return 0;
    /* The last k with base[k] <= a, by halving steps without branches (the
     * heuristic decodes every legal action of every rollout step). */
    int k = 0;
    for (int step = 32; step > 0; step >>= 1)
        if (k + step < D18_NKINDS && base[k + step] <= a) k += step;
    a -= base[k];
    out->kind = k;
    /* No division where a dimension is a power of two (1 included). */
    int32_t amt = dims[k].amt, d2 = dims[k].d2, o;
    if (amt_shift[k] >= 0) {
        out->amt = (int)(a & (amt - 1));
        o = a >> amt_shift[k];
    } else {
        out->amt = (int)(a % amt);
        o = a / amt;
    }
    if (d2_shift[k] >= 0) {
        out->o2 = (int)(o & (d2 - 1));
        out->o1 = (int)(o >> d2_shift[k]);
    } else {
        out->o2 = (int)(o % d2);
        out->o1 = (int)(o / d2);
    }
    return 1;
}

/* ---- seats ---- */

static int next_seat(const d18_state *s, int p) { return s->seat_at[(s->pos_of[p] + 1) % s->np]; }

static int factorial(int n)
{
    int f = 1;
    for (int i = 2; i <= n && i <= D18_MAXP; i++) f *= i;
    return f;
}

/* Permutation `perm` in [0, np!) (Lehmer code) fixes the clockwise order. */
void d18_seat(d18_state *s, int perm)
{
    int pool[D18_MAXP], n = s->np;
    for (int i = 0; i < n; i++) pool[i] = i;
    for (int pos = 0; pos < n; pos++) {
        int f = factorial(n - 1 - pos);
        int k = perm / f;
        perm %= f;
        s->seat_at[pos] = (int8_t)pool[k];
        for (int j = k; j + 1 < n - pos; j++) pool[j] = pool[j + 1];
    }
    for (int pos = 0; pos < n; pos++) s->pos_of[s->seat_at[pos]] = (int8_t)pos;
}

/* ---- money ---- */

static void note_break(d18_state *s)
{
    if (s->broke_when != D18_BRK_NONE || s->bank > 0) return;
    int in_or = s->stage == D18_S_OR || s->stage == D18_S_OR_OFFER || s->stage == D18_S_DISCARD ||
                s->stage == D18_S_OR_AOFFER || s->stage == D18_S_MERGE;
    if (s->au_minors || s->stage == D18_S_AUCTION || s->stage == D18_S_CONTEST)
        s->broke_when = D18_BRK_IN_AUCTION;
    else
        s->broke_when = in_or ? D18_BRK_IN_OR : D18_BRK_OUTSIDE_OR;
    /* 10, R103: an OR set in progress is finished; otherwise the next one
     * is played; the game ends at the start of the stock round after it. */
    s->end_after_set = (uint16_t)(s->or_sets_begun + (in_or && !s->au_minors ? 0 : 1));
}

/* The bank pays amt into an account (R93: breaking when it cannot pay in
 * full or is left at 0; the reserve pays on, R4). */
static void pay(d18_state *s, int32_t *to, int32_t amt)
{
    if (amt <= 0) return;
    s->bank -= amt;
    *to += amt;
    note_break(s);
}

static void take(d18_state *s, int32_t *from, int32_t amt)
{
    *from -= amt;
    s->bank += amt;
}

void d18_bank_pay(d18_state *s, int32_t *to, int32_t amt) { pay(s, to, amt); }
void d18_bank_take(d18_state *s, int32_t *from, int32_t amt) { take(s, from, amt); }

/* ---- the market ---- */

static int par_price(const cr_game *g, int par)
{
    const d18_board *b = d18_brd(g);
    return b->cell[b->par_row[par]][b->par_col[par]].price;
}

int d18_price(const cr_game *g, const d18_state *s, int f)
{
    if (s->pres[f] < 0) return 0;
    return d18_brd(g)->cell[s->mrow[f]][s->mcol[f]].price;
}

int d18_zone_of(const cr_game *g, const d18_state *s, int f)
{
    if (s->pres[f] < 0) return -1;
    return d18_brd(g)->cell[s->mrow[f]][s->mcol[f]].zone;
}

/* Moves f's marker by (dr, dc) if that cell exists; a marker that moves
 * goes to the bottom of its new cell's stack, one that cannot keeps its
 * place (R106, R107).  Returns 1 if it moved. */
int d18_market_move(const cr_game *g, d18_state *s, int f, int dr, int dc)
{
    int r = s->mrow[f] + dr, c = s->mcol[f] + dc;
    if (!d18_market_cell(d18_brd(g), r, c)) return 0;
    s->mrow[f] = (int8_t)r;
    s->mcol[f] = (int8_t)c;
    s->mseq[f] = ++s->seq;
    return 1;
}

/* Operating order (R46, R107): higher price, then higher column, then the
 * lower row number, then higher in the stack. */
int d18_op_before(const cr_game *g, const d18_state *s, int f, int h)
{
    int pf = d18_price(g, s, f), ph = d18_price(g, s, h);
    if (pf != ph) return pf > ph;
    if (s->mcol[f] != s->mcol[h]) return s->mcol[f] > s->mcol[h];
    if (s->mrow[f] != s->mrow[h]) return s->mrow[f] < s->mrow[h];
    return s->mseq[f] < s->mseq[h];
}

/* ---- certificates ---- */

int d18_cert_limit(int np)
{
    static const int lim[D18_MAXP + 1] = {0, 0, 31, 23, 19, 15, 12};
    return np >= 2 && np <= D18_MAXP ? lim[np] : 0;
}

/* Certificates of front f held by p: the President's certificate is one. */
int d18_front_certs(const d18_state *s, int f, int p)
{
    return s->held[f][p] - (s->pres[f] == p ? 1 : 0);
}

/* Certificates counted against p's overall limit (spec 5.9, R28). */
int d18_certs(const cr_game *g, const d18_state *s, int p)
{
    int n = 0;
    for (int a = 0; a < D18_NASSOC; a++)
        if (s->assoc_owner[a] == p && !(s->assoc_closed >> a & 1)) n++;
    for (int f = 0; f < D18_NFRONTS; f++)
        if (s->pres[f] >= 0 && d18_zone_of(g, s, f) == D18_WHITE) n += d18_front_certs(s, f, p);
    return n;
}

static int over_front(const cr_game *g, const d18_state *s, int p, int f)
{
    return s->pres[f] >= 0 && d18_zone_of(g, s, f) != D18_ORANGE &&
           d18_front_certs(s, f, p) > D18_FRONT_CERT_MAX;
}

static int over_overall(const cr_game *g, const d18_state *s, int p)
{
    return d18_certs(g, s, p) > d18_cert_limit(s->np);
}

int d18_over_limit(const cr_game *g, const d18_state *s, int p)
{
    if (over_overall(g, s, p)) return 1;
    for (int f = 0; f < D18_NFRONTS; f++)
        if (over_front(g, s, p, f)) return 1;
    return 0;
}

/* ---- selling (5.2, 5.3) ---- */

/* The most shares any player other than p holds of f, and who of them
 * comes first clockwise from p (R22). */
static int top_other(const d18_state *s, int f, int p, int *who)
{
    int m = 0, w = -1;
    for (int q = next_seat(s, p), i = 0; i < s->np - 1; q = next_seat(s, q), i++)
        if (s->held[f][q] > m) m = s->held[f][q], w = q;
    if (who) *who = w;
    return m;
}

/* Whether selling k shares of f by p is legal under the market limit and
 * the presidency rule (R19, R20); the stock-round-only rules are checked
 * by the caller. */
int d18_sell_ok(const cr_game *g, const d18_state *s, int p, int f, int k)
{
    (void)g;
    if (k < 1 || k > D18_MARKET_LIMIT || s->pres[f] < 0) return 0;
    if (s->pool[f] + k > D18_MARKET_LIMIT || k > s->held[f][p]) return 0;
    if (s->pres[f] != p) return 1;
    int h = s->held[f][p] - k, m = top_other(s, f, p, NULL);
    if (h >= m && h >= 2) return 1;
    return h < m && m >= 2;
}

static int sr_sell_ok(const cr_game *g, const d18_state *s, int p, int f, int k)
{
    return s->sr_no > 1 && d18_sell_ok(g, s, p, f, k);
}

/* A relieving sale (5.9): a legal sale of a front whose certificates count
 * toward a limit p exceeds. */
static int relieving(const cr_game *g, const d18_state *s, int p, int f)
{
    if (!sr_sell_ok(g, s, p, f, 1)) return 0;
    if (over_front(g, s, p, f)) return 1;
    return over_overall(g, s, p) && d18_zone_of(g, s, f) == D18_WHITE;
}

int d18_relief_required(const cr_game *g, const d18_state *s, int p)
{
    if (!d18_over_limit(g, s, p)) return 0;
    for (int f = 0; f < D18_NFRONTS; f++)
        if (relieving(g, s, p, f)) return 1;
    return 0;
}

static void do_sell(const cr_game *g, d18_state *s, int p, int f, int k)
{
    int price = d18_price(g, s, f);
    if (s->pres[f] == p) {
        int who, m = top_other(s, f, p, &who);
        if (s->held[f][p] - k < m) s->pres[f] = (int8_t)who; /* R20: the swap, once */
    }
    s->held[f][p] = (uint8_t)(s->held[f][p] - k);
    s->pool[f] = (uint8_t)(s->pool[f] + k);
    pay(s, &s->cash[p], (int32_t)k * price); /* R18: all at the price before */
    for (int i = 0; i < k; i++)
        if (!d18_market_move(g, s, f, 1, 0)) break;
}

/* ---- buying (5.4 - 5.7) ---- */

static int may_buy_now(const cr_game *g, const d18_state *s, int p)
{
    return !s->turn_bought && !d18_over_limit(g, s, p);
}

/* The buying rules below come in two parts: what holds for the player as a
 * whole (may_buy_now, and whether one more certificate fits the limit:
 * `room`), asked once per legal list, and what each choice adds. */
static int cert_room(const cr_game *g, const d18_state *s, int p)
{
    return d18_certs(g, s, p) + 1 <= d18_cert_limit(s->np);
}

static int fits_after_buy(const cr_game *g, const d18_state *s, int p, int f, int room)
{
    int z = d18_zone_of(g, s, f);
    if (z == D18_WHITE && !room) return 0;
    if (z != D18_ORANGE && d18_front_certs(s, f, p) + 1 > D18_FRONT_CERT_MAX) return 0;
    return 1;
}

/* Given may_buy_now and room (par cells are white). */
static int start_ok(const cr_game *g, const d18_state *s, int p, int f, int par, int room)
{
    if (par < 0 || par >= d18_brd(g)->n_par || s->pres[f] >= 0 || !room) return 0;
    return s->cash[p] >= 2 * par_price(g, par);
}

static int can_start(const cr_game *g, const d18_state *s, int p, int f, int par)
{
    return may_buy_now(g, s, p) && start_ok(g, s, p, f, par, cert_room(g, s, p));
}

static int buy_ipo_ok(const cr_game *g, const d18_state *s, int p, int f, int room)
{
    if (s->pres[f] < 0 || s->ipo[f] == 0 || (s->sold_this_sr[p] >> f & 1)) return 0;
    if (s->cash[p] < par_price(g, s->par_idx[f])) return 0;
    return fits_after_buy(g, s, p, f, room);
}

static int can_buy_ipo(const cr_game *g, const d18_state *s, int p, int f)
{
    return may_buy_now(g, s, p) && buy_ipo_ok(g, s, p, f, cert_room(g, s, p));
}

static int buy_pool_ok(const cr_game *g, const d18_state *s, int p, int f, int room)
{
    if (s->pres[f] < 0 || s->pool[f] == 0 || (s->sold_this_sr[p] >> f & 1)) return 0;
    if (s->cash[p] < d18_price(g, s, f)) return 0;
    return fits_after_buy(g, s, p, f, room);
}

static int can_buy_pool(const cr_game *g, const d18_state *s, int p, int f)
{
    return may_buy_now(g, s, p) && buy_pool_ok(g, s, p, f, cert_room(g, s, p));
}

/* Given may_buy_now and room (R105). */
static int offer_assoc_ok(const d18_state *s, int p, int a, int price, int room)
{
    int o = s->assoc_owner[a];
    if (s->sr_no <= 1 || o < 0 || o >= D18_MAXP || o == p) return 0; /* R29: not in SR1 */
    if ((s->assoc_closed >> a & 1) || (s->declined >> a & 1)) return 0;
    return room && price >= 1 && price <= s->cash[p];
}

static int can_offer_assoc(const cr_game *g, const d18_state *s, int p, int a, int price)
{
    return may_buy_now(g, s, p) && offer_assoc_ok(s, p, a, price, cert_room(g, s, p));
}

/* After p gained shares of f: the presidency passes on strictly more (R21),
 * and the front floats once 6 shares have left the IPO (R25). */
static void after_gain(const cr_game *g, d18_state *s, int p, int f)
{
    if (s->pres[f] != p && s->held[f][p] > s->held[f][s->pres[f]]) s->pres[f] = (int8_t)p;
    if (!(s->floated >> f & 1) && s->ipo[f] <= D18_SHARES - 6) {
        const d18_front *fr = &d18_brd(g)->front[f];
        s->floated |= (uint8_t)(1u << f);
        pay(s, &s->treasury[f], 10 * par_price(g, s->par_idx[f]));
        s->space_occ[fr->home][fr->home_space] = (int8_t)f; /* 5.6, R61 */
        s->offices_used[f] = 1;
    }
}

/* ---- the auction (4) ---- */

static int current_assoc(const d18_state *s)
{
    for (int a = 0; a < D18_NASSOC; a++)
        if (s->assoc_owner[a] == D18_UNSOLD) return a;
    return -1;
}

/* p's bids on unsold associates other than `except` (R9). */
static int committed(const d18_state *s, int p, int except)
{
    int n = 0;
    for (int a = 0; a < D18_NASSOC; a++)
        if (a != except && s->assoc_owner[a] == D18_UNSOLD) n += s->bid[a][p];
    return n;
}

static int top_bid(const d18_state *s, int a, int *who)
{
    int t = 0, w = -1;
    for (int p = 0; p < s->np; p++)
        if (s->bid[a][p] > t) t = s->bid[a][p], w = p;
    if (who) *who = w;
    return t;
}

static int can_au_buy(const d18_state *s, int p)
{
    int a = current_assoc(s);
    return a >= 0 && s->cash[p] - committed(s, p, -1) >= s->assoc_price_now[a];
}

static int can_au_bid(const d18_state *s, int p, int a, int amt)
{
    int cur = current_assoc(s);
    if (cur < 0 || s->assoc_price_now[cur] == 0) return 0; /* R102 */
    if (a <= cur || a >= D18_NASSOC || s->assoc_owner[a] != D18_UNSOLD) return 0;
    if (amt % 5 != 0 || amt <= s->assoc_price_now[a] || amt <= top_bid(s, a, NULL)) return 0;
    return amt <= s->cash[p] - committed(s, p, a);
}

static int can_ct_raise(const d18_state *s, int p, int amt)
{
    int a = s->ct_assoc, top_who, top = top_bid(s, a, &top_who);
    if (!(s->ct_in >> p & 1) || p == top_who) return 0;
    return amt % 5 == 0 && amt > top && amt <= s->cash[p] - committed(s, p, a);
}

static void start_sr(const cr_game *g, d18_state *s);

static void sell_assoc(d18_state *s, int a, int p, int price)
{
    take(s, &s->cash[p], price);
    s->assoc_owner[a] = (int8_t)p;
    for (int q = 0; q < D18_MAXP; q++) s->bid[a][q] = 0;
}

/* After a purchase in a normal turn: resolve the next associates (4.3). */
static void resolve_chain(const cr_game *g, d18_state *s)
{
    for (int guard = 0; guard < D18_NASSOC; guard++) {
        int a = current_assoc(s);
        if (a < 0) {
            /* 4.6: the auction ends; IL's owner has priority (R15). */
            s->priority = s->assoc_owner[D18_IL];
            s->sr_no = 0;
            start_sr(g, s);
            return;
        }
        int nb = 0, who = -1;
        for (int p = 0; p < s->np; p++)
            if (s->bid[a][p] > 0) nb++, who = p;
        if (nb == 0) break;
        if (nb == 1) {
            sell_assoc(s, a, who, s->bid[a][who]);
            continue;
        }
        /* A contest (4.4, R11): it opens left of the top bidder. */
        int top_who;
        top_bid(s, a, &top_who);
        s->ct_assoc = (int8_t)a;
        s->ct_in = 0;
        for (int p = 0; p < s->np; p++)
            if (s->bid[a][p] > 0) s->ct_in |= (uint8_t)(1u << p);
        int q = next_seat(s, top_who);
        while (!(s->ct_in >> q & 1)) q = next_seat(s, q);
        s->actor = (int8_t)q;
        s->stage = D18_S_CONTEST;
        return;
    }
    s->stage = D18_S_AUCTION;
    s->au_passes = 0;
    s->actor = (int8_t)next_seat(s, s->chain_start); /* R10 */
}

/* The next contest participant after p who is not the top bidder. */
static int contest_next(const d18_state *s, int p)
{
    int top_who;
    top_bid(s, s->ct_assoc, &top_who);
    int q = p;
    for (int i = 0; i < s->np; i++) {
        q = next_seat(s, q);
        if ((s->ct_in >> q & 1) && q != top_who) return q;
    }
    return -1;
}

static void all_passed(const cr_game *g, d18_state *s)
{
    int a = current_assoc(s);
    s->assoc_price_now[a] = (int16_t)(s->assoc_price_now[a] - 5); /* R12 */
    for (int b = 0; b < D18_NASSOC; b++) {
        int o = s->assoc_owner[b];
        if (o >= 0 && o < D18_MAXP && !(s->assoc_closed >> b & 1))
            pay(s, &s->cash[o], d18_assoc_revenue[b]);
    }
    s->au_passes = 0;
    s->au_cycles++;
    /* 4.5 item 3: LL, then BT, run a complete operating turn if bought. */
    if (s->assoc_owner[D18_LL] >= 0 || s->assoc_owner[D18_BT] >= 0) {
        s->au_minors = 1;
        s->minors_done = 0;
        s->op_ent = s->op_front = -1;
        s->stage = D18_S_OR;
        d18_settle(g, s);
    }
}

/* ---- stock rounds (5) ---- */

static void start_turn(d18_state *s, int p)
{
    s->actor = (int8_t)p;
    s->turn_bought = s->turn_acted = 0;
    s->declined = 0;
}

static void start_sr(const cr_game *g, d18_state *s)
{
    (void)g;
    s->stage = D18_S_SR;
    s->sr_no++;
    s->sr_passes = 0;
    s->last_actor = -1;
    s->assoc_bought_sr = 0;
    memset(s->sold_this_sr, 0, sizeof s->sold_this_sr);
    start_turn(s, s->priority);
}

static void end_sr(const cr_game *g, d18_state *s)
{
    /* R31, R106: sold-out fronts rise one row, in operating order as it
     * stands before the first moves. */
    int order[D18_NFRONTS], n = 0;
    for (int f = 0; f < D18_NFRONTS; f++) {
        if (!(s->floated >> f & 1) || s->ipo[f] || s->pool[f]) continue;
        int i = n++;
        while (i > 0 && d18_op_before(g, s, f, order[i - 1])) order[i] = order[i - 1], i--;
        order[i] = f;
    }
    for (int i = 0; i < n; i++) d18_market_move(g, s, order[i], -1, 0);
    if (s->last_actor >= 0) s->priority = (int8_t)next_seat(s, s->last_actor); /* R17 */
    d18_after_sr(g, s);
}

static void sr_next_turn(const cr_game *g, d18_state *s, int passed)
{
    s->sr_passes = passed ? (uint8_t)(s->sr_passes + 1) : 0;
    if (s->sr_passes >= s->np) {
        end_sr(g, s);
        return;
    }
    start_turn(s, next_seat(s, s->actor));
}

/* ---- legality ---- */

static int sr_can_end(const cr_game *g, const d18_state *s, int p)
{
    return !d18_relief_required(g, s, p);
}

int d18_is_legal(const cr_game *g, const void *st, cr_action a)
{
    const d18_state *s = st;
    d18_act x;
    if (!d18_decode(a, &x)) return 0;
    int p = s->actor;
    switch (s->stage) {
    case D18_S_SEATING: return x.kind == D18_K_SEAT && x.o1 < factorial(s->np);
    case D18_S_AUCTION: {
        int cur = current_assoc(s);
        switch (x.kind) {
        case D18_K_AU_BUY: return can_au_buy(s, p);
        case D18_K_AU_BID: return can_au_bid(s, p, x.o1, x.amt * 5);
        case D18_K_AU_PASS: return cur >= 0 && s->assoc_price_now[cur] > 0;
        default: return 0;
        }
    }
    case D18_S_CONTEST:
        if (x.kind == D18_K_CT_RAISE) return can_ct_raise(s, p, x.amt * 5);
        return x.kind == D18_K_CT_DROP;
    case D18_S_SR: {
        int relief = d18_relief_required(g, s, p);
        switch (x.kind) {
        case D18_K_SELL: return sr_sell_ok(g, s, p, x.o1, x.o2 + 1);
        case D18_K_START: return !relief && can_start(g, s, p, x.o1, x.o2);
        case D18_K_BUY_IPO: return !relief && can_buy_ipo(g, s, p, x.o1);
        case D18_K_BUY_POOL: return !relief && can_buy_pool(g, s, p, x.o1);
        case D18_K_OFFER_AS: return !relief && can_offer_assoc(g, s, p, x.o1, x.amt);
        case D18_K_PASS: return !s->turn_acted && sr_can_end(g, s, p);
        case D18_K_END_TURN: return s->turn_acted && sr_can_end(g, s, p);
        default: return 0;
        }
    }
    case D18_S_SR_OFFER: return x.kind == D18_K_ACCEPT || x.kind == D18_K_DECLINE;
    default: return d18_or_is_legal(g, s, &x);
    }
}

/* A menu of amounts in [lo, hi] (step: 5 for bids, 1 for prices): the
 * minimum, a few steps, the printed value where it falls in range, and the
 * maximum; ascending, without repeats (spec 12, point 4 of issue 8). */
static int amount_menu(int lo, int hi, int step, int face, int *out)
{
    int c[6] = {lo, lo + step, lo + 2 * step, lo + 4 * step, face, hi}, n = 0;
    for (int i = 0; i < 6; i++) {
        int v = c[i];
        if (v < lo || v > hi || v % step) continue;
        int j = n;
        while (j > 0 && out[j - 1] > v) out[j] = out[j - 1], j--;
        if (j > 0 && out[j - 1] == v) {
            for (; j < n; j++) out[j] = out[j + 1];
            continue;
        }
        out[j] = v;
        n++;
    }
    return n;
}

static int legal(const cr_game *g, const void *st, cr_action *out, cr_ctx *cx)
{
    (void)cx;
    const d18_state *s = st;
    int n = 0, p = s->actor, menu[6];
    switch (s->stage) {
    case D18_S_AUCTION: {
        int cur = current_assoc(s);
        if (can_au_buy(s, p)) out[n++] = d18_encode(D18_K_AU_BUY, 0, 0, 0);
        for (int a = cur + 1; a < D18_NASSOC; a++) {
            if (s->assoc_owner[a] != D18_UNSOLD || s->assoc_price_now[cur] == 0) continue;
            int top = top_bid(s, a, NULL);
            int lo = (top > s->assoc_price_now[a] ? top : s->assoc_price_now[a]) / 5 * 5 + 5;
            int hi = (s->cash[p] - committed(s, p, a)) / 5 * 5;
            if (hi > 5 * (D18_BID_UNITS - 1)) hi = 5 * (D18_BID_UNITS - 1);
            int m = amount_menu(lo, hi, 5, -1, menu);
            for (int i = 0; i < m; i++) out[n++] = d18_encode(D18_K_AU_BID, a, 0, menu[i] / 5);
        }
        if (cur >= 0 && s->assoc_price_now[cur] > 0) out[n++] = d18_encode(D18_K_AU_PASS, 0, 0, 0);
        return n;
    }
    case D18_S_CONTEST: {
        int a = s->ct_assoc, lo = top_bid(s, a, NULL) + 5;
        int hi = (s->cash[p] - committed(s, p, a)) / 5 * 5;
        if (hi > 5 * (D18_BID_UNITS - 1)) hi = 5 * (D18_BID_UNITS - 1);
        int m = amount_menu(lo, hi, 5, -1, menu);
        for (int i = 0; i < m; i++) out[n++] = d18_encode(D18_K_CT_RAISE, 0, 0, menu[i] / 5);
        out[n++] = d18_encode(D18_K_CT_DROP, 0, 0, 0);
        return n;
    }
    case D18_S_SR: {
        int relief = d18_relief_required(g, s, p);
        for (int f = 0; f < D18_NFRONTS; f++)
            for (int k = 1; k <= D18_MARKET_LIMIT; k++)
                if (sr_sell_ok(g, s, p, f, k)) out[n++] = d18_encode(D18_K_SELL, f, k - 1, 0);
        /* What holds for the player as a whole (may_buy_now, room for one
         * more certificate) is asked once here, not for each choice. */
        int may_buy = !relief && may_buy_now(g, s, p), room = may_buy && cert_room(g, s, p);
        if (may_buy) {
            for (int f = 0; f < D18_NFRONTS; f++)
                for (int par = 0; par < d18_brd(g)->n_par && s->pres[f] < 0; par++)
                    if (start_ok(g, s, p, f, par, room))
                        out[n++] = d18_encode(D18_K_START, f, par, 0);
            for (int f = 0; f < D18_NFRONTS; f++)
                if (buy_ipo_ok(g, s, p, f, room)) out[n++] = d18_encode(D18_K_BUY_IPO, f, 0, 0);
            for (int f = 0; f < D18_NFRONTS; f++)
                if (buy_pool_ok(g, s, p, f, room)) out[n++] = d18_encode(D18_K_BUY_POOL, f, 0, 0);
        }
        if (!relief) {
            /* The menu offers associates of other players only to a player
             * who has not bought one from a player in this round: the rules
             * allow endless trades (only a declined offer is limited, R97),
             * which random bots would make forever; any offer stays legal. */
            for (int a = 0; a < D18_NASSOC && !(s->assoc_bought_sr >> p & 1) && may_buy; a++) {
                if (!offer_assoc_ok(s, p, a, 1, room)) continue;
                /* Up to twice the printed price (or the purse, if lower):
                 * a whole purse for a cheap associate is no meaningful
                 * offer; any amount up to the purse stays legal. */
                int hi = s->cash[p] < D18_AMT - 1 ? s->cash[p] : D18_AMT - 1;
                int face = d18_brd(g)->assoc_price[a];
                if (hi > 2 * face) hi = 2 * face;
                int m = amount_menu(1, hi, 1, face, menu);
                for (int i = 0; i < m; i++) out[n++] = d18_encode(D18_K_OFFER_AS, a, 0, menu[i]);
            }
            if (!s->turn_acted) out[n++] = d18_encode(D18_K_PASS, 0, 0, 0);
            if (s->turn_acted) out[n++] = d18_encode(D18_K_END_TURN, 0, 0, 0);
        }
        return n;
    }
    case D18_S_SR_OFFER:
        out[n++] = d18_encode(D18_K_ACCEPT, 0, 0, 0);
        out[n++] = d18_encode(D18_K_DECLINE, 0, 0, 0);
        return n;
    default: return d18_or_legal(g, s, out);
    }
}

/* ---- apply ---- */

static int current_player(const cr_game *g, const void *st);
static void apply_rules(const cr_game *g, d18_state *s, const d18_act *x, int p, cr_ctx *cx);

static void apply(const cr_game *g, void *st, cr_action a, cr_ctx *cx)
{
    d18_state *s = st;
    d18_act x;
    int ok = d18_decode(a, &x);
    assert(ok && d18_is_legal(g, s, a));
    (void)ok;
    int p = s->actor;
    if (cx && cx->ev) { /* somebody listens: report what changed (events.c) */
        d18_state before = *s;
        int actor = x.kind == D18_K_SEAT ? -1 : current_player(g, s);
        apply_rules(g, s, &x, p, cx);
        d18_events(g, &before, s, a, actor, cx);
        return;
    }
    apply_rules(g, s, &x, p, cx);
}

static void apply_rules(const cr_game *g, d18_state *s, const d18_act *xp, int p, cr_ctx *cx)
{
    d18_act x = *xp;
    s->actions++;
    switch (x.kind) {
    case D18_K_SEAT:
        d18_seat(s, x.o1);
        s->stage = D18_S_AUCTION;
        s->actor = s->seat_at[0]; /* R6 */
        break;
    case D18_K_AU_BUY: {
        int cur = current_assoc(s);
        sell_assoc(s, cur, p, s->assoc_price_now[cur]);
        s->chain_start = (int8_t)p;
        s->au_passes = 0;
        resolve_chain(g, s);
        break;
    }
    case D18_K_AU_BID:
        s->bid[x.o1][p] = (int16_t)(x.amt * 5);
        s->au_passes = 0;
        s->actor = (int8_t)next_seat(s, p);
        break;
    case D18_K_AU_PASS:
        s->actor = (int8_t)next_seat(s, p);
        if (++s->au_passes >= s->np) all_passed(g, s);
        break;
    case D18_K_CT_RAISE:
        s->bid[s->ct_assoc][p] = (int16_t)(x.amt * 5);
        s->actor = (int8_t)contest_next(s, p);
        break;
    case D18_K_CT_DROP: {
        int ca = s->ct_assoc;
        s->bid[ca][p] = 0;
        s->ct_in &= (uint8_t) ~(1u << p);
        if (__builtin_popcount(s->ct_in) == 1) {
            int w = __builtin_ctz(s->ct_in);
            sell_assoc(s, ca, w, s->bid[ca][w]);
            s->ct_assoc = -1;
            s->ct_in = 0;
            resolve_chain(g, s);
        } else {
            s->actor = (int8_t)contest_next(s, p);
        }
        break;
    }
    case D18_K_SELL:
        do_sell(g, s, p, x.o1, x.o2 + 1);
        s->sold_this_sr[p] |= (uint8_t)(1u << x.o1);
        s->turn_acted = 1;
        s->last_actor = (int8_t)p;
        break;
    case D18_K_START: {
        const d18_board *b = d18_brd(g);
        int f = x.o1;
        take(s, &s->cash[p], 2 * par_price(g, x.o2));
        s->pres[f] = (int8_t)p;
        s->held[f][p] = 2;
        s->ipo[f] = D18_SHARES - 2;
        s->par_idx[f] = (int8_t)x.o2;
        s->mrow[f] = (int8_t)b->par_row[x.o2];
        s->mcol[f] = (int8_t)b->par_col[x.o2];
        s->mseq[f] = ++s->seq; /* R24: below markers already there */
        s->turn_bought = s->turn_acted = 1;
        s->last_actor = (int8_t)p;
        break;
    }
    case D18_K_BUY_IPO:
    case D18_K_BUY_POOL: {
        int f = x.o1;
        if (x.kind == D18_K_BUY_IPO) {
            take(s, &s->cash[p], par_price(g, s->par_idx[f]));
            s->ipo[f]--;
        } else {
            take(s, &s->cash[p], d18_price(g, s, f));
            s->pool[f]--;
        }
        s->held[f][p]++;
        after_gain(g, s, p, f);
        s->turn_bought = s->turn_acted = 1;
        s->last_actor = (int8_t)p;
        break;
    }
    case D18_K_OFFER_AS:
        s->offer_assoc = (int8_t)x.o1;
        s->offer_price = x.amt;
        s->stage = D18_S_SR_OFFER;
        s->actor = s->assoc_owner[x.o1];
        s->offer_from = (int8_t)p;
        break;
    case D18_K_ACCEPT:
    case D18_K_DECLINE: {
        if (s->stage != D18_S_SR_OFFER) { /* a monster offer in an OR */
            d18_or_apply(g, s, &x, cx);
            break;
        }
        int buyer = s->offer_from, as = s->offer_assoc;
        if (x.kind == D18_K_ACCEPT) {
            s->cash[buyer] -= s->offer_price;
            s->cash[p] += s->offer_price;
            s->assoc_owner[as] = (int8_t)buyer;
            s->turn_bought = s->turn_acted = 1;
            s->last_actor = (int8_t)buyer; /* R105 */
            s->assoc_bought_sr |= (uint8_t)(1u << buyer);
        } else {
            s->declined |= (uint8_t)(1u << as); /* R97 */
        }
        s->offer_assoc = s->offer_from = -1;
        s->offer_price = 0;
        s->stage = D18_S_SR;
        s->actor = (int8_t)buyer;
        break;
    }
    case D18_K_PASS: sr_next_turn(g, s, 1); break;
    case D18_K_END_TURN: sr_next_turn(g, s, 0); break;
    default: d18_or_apply(g, s, &x, cx); break;
    }
}

/* ---- lifecycle ---- */

static void init(const cr_game *g, void *st)
{
    d18_state *s = st;
    memset(s, 0, sizeof *s);
    s->np = (uint8_t)g->num_players;
    s->stage = D18_S_SEATING;
    s->phase = 1;
    const d18_board *b = d18_brd(g);
    s->bank = b->bank; /* R4, R5: the rules' 12,000 and 2,400 / N unless the board says */
    for (int p = 0; p < s->np; p++) s->cash[p] = b->start_cash[s->np];
    for (int a = 0; a < D18_NASSOC; a++) {
        s->assoc_owner[a] = D18_UNSOLD;
        s->assoc_price_now[a] = b->assoc_price[a];
    }
    pay(s, &s->minor_cash[1], D18_BT_START_CASH); /* R14: BT's 30 from the bank */
    s->bankrupt = -1;
    s->ct_assoc = -1;
    s->chain_start = -1;
    s->offer_assoc = s->offer_from = -1;
    s->priority = -1;
    s->op_front = s->op_ent = -1;
    s->offer_to = s->offer_type = -1;
    s->castle_who = -1;
    s->last_actor = -1;
    s->merge_ent = -1;
    d18_map_setup(g, s);
    for (int c = 0; c < b->n_copies; c++) s->mon_at[c] = D18_AT_BANK;
    if (b->n_monsters > 0) { /* 2.6: LL's starting monster, BT's Nurse (R114) */
        s->mon_at[b->monster[b->ll.monster].first_copy] = D18_AT_ENTITY + D18_ENT_LL;
        s->mon_at[b->monster[b->bt.monster].first_copy] = D18_AT_ENTITY + D18_ENT_BT;
    }
    for (int f = 0; f < D18_NFRONTS; f++) {
        s->pres[f] = -1;
        s->ipo[f] = D18_SHARES;
        s->par_idx[f] = -1;
        s->mrow[f] = s->mcol[f] = -1;
    }
}

static int current_player(const cr_game *g, const void *st)
{
    (void)g;
    const d18_state *s = st;
    switch (s->stage) {
    case D18_S_SEATING: return CR_CHANCE;
    case D18_S_AUCTION:
    case D18_S_CONTEST:
    case D18_S_SR:
    case D18_S_SR_OFFER: return s->actor;
    case D18_S_OVER: return CR_TERMINAL;
    default: return d18_or_actor(g, s);
    }
}

static int chance(const cr_game *g, const void *st, cr_action *out, double *prob)
{
    (void)g;
    const d18_state *s = st;
    if (s->stage != D18_S_SEATING) return 0;
    int n = factorial(s->np);
    for (int i = 0; i < n; i++) {
        out[i] = d18_encode(D18_K_SEAT, i, 0, 0);
        prob[i] = 1.0 / n;
    }
    return n;
}

/* ---- scoring (10) ---- */

int d18_value(const cr_game *g, const d18_state *s, int p)
{
    int v = s->cash[p];
    for (int f = 0; f < D18_NFRONTS; f++)
        if (s->pres[f] >= 0) v += s->held[f][p] * d18_price(g, s, f);
    return v;
}

static void result(const cr_game *g, const void *st, cr_result *out)
{
    const d18_state *s = st;
    memset(out, 0, sizeof *out);
    for (int p = 0; p < s->np; p++) out->score[p] = d18_value(g, s, p);
    for (int p = 0; p < s->np; p++) {
        int r = 1;
        if (p == s->bankrupt) {
            r = s->np; /* R83: last whatever the value */
        } else {
            for (int q = 0; q < s->np; q++)
                if (q != p && q != s->bankrupt && out->score[q] > out->score[p]) r++;
        }
        out->rank[p] = (int8_t)r;
    }
    if (s->stage == D18_S_OVER)
        for (int p = 0; p < s->np; p++)
            if (out->rank[p] == 1) out->winners |= 1u << p;
}

static void returns(const cr_game *g, const void *st, double *out)
{
    cr_result r;
    result(g, st, &r);
    int k = __builtin_popcount(r.winners);
    for (int p = 0; p < g->num_players; p++) out[p] = (r.winners >> p & 1) ? 1.0 / k : 0.0;
}

static const cr_variant variants[] = {
    {"medieval", "18Dracula: Medieval Edition, 2-6 players", 2, 6},
};

/* The table option `board` (a board file, spec 14.1): the core reads the
 * file; without it the bundled board is used. */
static const cr_option_def options[] = {
    {.key = "board",
     .type = CR_OPT_FILE,
     .help = "a board file (docs/18dracula-board.md); default: the bundled board",
     .flags = CR_OPTF_SWITCH}, /* --board FILE */
};

static cr_status create(cr_game *g, char *err, size_t errcap)
{
    d18_board *b = cr_alloc(sizeof *b);
    if (!b) {
        snprintf(err, errcap, "out of memory");
        return CR_ERR_NOMEM;
    }
    if (g->data_text) {
        cr_status st = d18_board_parse(g->data_text, g->data_len, g->data_path, b, err, errcap);
        if (st != CR_OK) {
            cr_free(b);
            return st;
        }
    } else {
        *b = *d18_board_builtin();
        g->data_hash = d18_board_builtin_hash(); /* game.h: the built-in data's own */
    }
    g->data = b;
    g->num_actions = d18_num_actions();
    g->max_legal = D18_MAX_LEGAL;
    g->max_chance_outcomes = 720;     /* 6! seatings */
    g->max_events = d18_max_events(); /* derived in events.c */
    g->state_size = sizeof(d18_state);
    g->obs_size = sizeof(d18_state);         /* everything is public (R7) */
    g->scratch_size = d18_rampage_scratch(); /* apply's rampage step needs it */
    g->scratch_zeroed = d18_rampage_scratch_zeroed();
    return CR_OK;
}

static void destroy(cr_game *g)
{
    cr_free(g->data);
    g->data = NULL;
}

const cr_game_def d18_def = {
    .name = "18dracula",
    .title = "18Dracula: Medieval Edition",
    .variants = variants,
    .n_variants = 1,
    .rules_version = 1,
    .score_scale = 100,
    .options = options,
    .n_options = 1,
    .create = create,
    .destroy = destroy,
    .init = init,
    .current_player = current_player,
    .legal_actions = legal,
    .chance_outcomes = chance,
    .apply = apply,
    .returns = returns,
    .result = result,
    .is_legal = d18_is_legal,
    .observe = d18_observe,
    .obs_to_text = d18_obs_to_text,
    .obs_to_json = d18_obs_json, /* the whole state (R7) and derived figures (data.c) */
    .sample = d18_sample,
    .action_to_str = d18_action_to_str,
    .str_to_action = d18_str_to_action,
    .prompt = d18_prompt,
    .event_to_str = d18_event_to_str,
    .event_to_json = d18_event_to_json,
    .action_to_json = d18_action_to_json,
    .serialize = d18_serialize,
    .deserialize = d18_deserialize,
    .parts = &d18_parts,
};
