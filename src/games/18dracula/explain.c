/* explain.c — 18Dracula explains itself: a monster's card and an
 * associate's power in words, and the help (`?`) for the decision of the
 * seat to act, with the numbers that matter now: what starting and floating
 * a front cost and whether the seat can pay, what a purchase does to its
 * certificate count, a build's or an office's cost and the best rampage
 * revenue with and without it (the router's own answer), what paying out
 * or retaining does to the price and to the seat's money, and the forced
 * purchase with its risk of bankruptcy.
 *
 * Everything in 18Dracula is public (R7): the observation is the state.
 * Not the hot path: the help applies each build and office choice to a
 * copy and runs the router on it, in a context of its own (one scratch
 * allocation per call), and reads the choices from the legal list, so what
 * it offers is exactly what the engine accepts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "croupier/text.h"
#include "games/18dracula/d18_internal.h"

static const char *ent(const cr_game *g, int e)
{
    if (e >= 0 && e < D18_NFRONTS) return d18_brd(g)->front[e].id;
    return e == D18_ENT_LL ? "LL" : e == D18_ENT_BT ? "BT" : "?";
}

static const char *colour_word(int c)
{
    static const char *const w[] = {"yellow", "green", "blue", "red"};
    return c >= 0 && c < 4 ? w[c] : "?";
}

static const char *zone_word(int z)
{
    return z == D18_WHITE ? "white" : z == D18_ZONE_YELLOW ? "yellow" : "orange";
}

/* ---- cards ---- */

void d18_monster_card(const cr_game *g, int type, cr_tbuf *t)
{
    const d18_board *b = d18_brd(g);
    if (type < 0 || type >= b->n_monsters) return;
    const d18_monster *m = &b->monster[type];
    cr_tb_printf(t, "%s (%s): price %d", m->name, m->id, m->price);
    if (m->phase)
        cr_tb_printf(t, ", sold from phase %d", m->phase);
    else
        cr_tb_printf(t, ", a nurse: only BT buys it, from the bank");
    cr_tb_printf(t, "; %d cop%s. ", m->copies, m->copies == 1 ? "y" : "ies");
    switch (m->move) {
    case D18_MOVE_HOME:
        cr_tb_printf(t, "Moves: home - stays in one city with its owner's office and earns that "
                        "city's revenue, using no route space.");
        break;
    case D18_MOVE_HOWL:
        cr_tb_printf(t, "Moves: howl - runs no route; earns every city with its owner's office "
                        "plus each city and town joined to one by a built space (each place "
                        "once; never off-boards).");
        break;
    case D18_MOVE_DIT:
        cr_tb_printf(t,
                     "Moves: dit %d - a route of up to %d stops; cities, towns and "
                     "off-boards all count.",
                     m->n, m->n);
        break;
    case D18_MOVE_CITY:
        cr_tb_printf(t,
                     "Moves: city %d - a route counting up to %d cities; towns are free; "
                     "never an off-board.",
                     m->n, m->n);
        break;
    case D18_MOVE_MAJOR:
        cr_tb_printf(t,
                     "Moves: major %d - a route counting up to %d cities and off-boards; "
                     "towns are free.",
                     m->n, m->n);
        break;
    case D18_MOVE_INF: cr_tb_printf(t, "Moves: inf - a route of any length."); break;
    default: break;
    }
    if (m->move != D18_MOVE_HOME) cr_tb_printf(t, " Each town on its way pays %d.", m->town_rev);
    if (m->exports) cr_tb_printf(t, " Export: may start or end at off-boards.");
    if (m->linger)
        cr_tb_printf(t, " Linger %d: up to %d cit%s of its route pay%s twice.", m->linger,
                     m->linger, m->linger == 1 ? "y" : "ies", m->linger == 1 ? "s" : "");
    if (m->cf == D18_CF_CLAW) cr_tb_printf(t, " Claw: a front with a fang cannot own it.");
    if (m->cf == D18_CF_FANG) cr_tb_printf(t, " Fang: a front with a claw cannot own it.");
    if (m->flags & D18_F_NOT_BLOCKED) cr_tb_printf(t, " Passes through blocked cities.");
    if (m->flags & D18_F_NO_OFFICE) cr_tb_printf(t, " Needs no office of its owner on the route.");
    if (m->flags & D18_F_CASTLE)
        cr_tb_printf(t, " May use the castle's space, whose ends count as its owner's offices.");
    if (m->flags & D18_F_TRIPLE) cr_tb_printf(t, " Runs three routes, counted as one monster.");
    if (m->flags & D18_F_LIMIT_EXEMPT) cr_tb_printf(t, " Not counted against the monster limit.");
    if (m->flags & D18_F_KILLED_BY_CLAW)
        cr_tb_printf(t, " Leaves the game when its owner gains a claw monster.");
    if (m->eaten)
        cr_tb_printf(t, " Eaten (out of the game) when phase %d begins.", m->eaten);
    else
        cr_tb_printf(t, " Permanent: never eaten.");
}

/* The card in a few words, for a purchase's label in a menu: how it moves
 * ("dit 2", "city 3", "major 5", "any length", "home", "howl"), what a
 * town pays it (when something), "export", "linger N", "claw" or "fang",
 * and when it is eaten ("eaten in phase 4", or "permanent").  The rest of
 * the card (the flags, the copies) is in the help. */
void d18_monster_short(const cr_game *g, int type, cr_tbuf *t)
{
    const d18_board *b = d18_brd(g);
    if (type < 0 || type >= b->n_monsters) return;
    const d18_monster *m = &b->monster[type];
    switch (m->move) {
    case D18_MOVE_DIT:
    case D18_MOVE_CITY:
    case D18_MOVE_MAJOR: cr_tb_printf(t, "%s %d", d18_move_name(m->move), m->n); break;
    case D18_MOVE_INF: cr_tb_printf(t, "any length"); break;
    default: cr_tb_printf(t, "%s", d18_move_name(m->move)); break;
    }
    if (m->move != D18_MOVE_HOME && m->town_rev > 0) cr_tb_printf(t, ", town %d", m->town_rev);
    if (m->exports) cr_tb_printf(t, ", export");
    if (m->linger) cr_tb_printf(t, ", linger %d", m->linger);
    if (m->cf == D18_CF_CLAW) cr_tb_printf(t, ", claw");
    if (m->cf == D18_CF_FANG) cr_tb_printf(t, ", fang");
    if (m->eaten)
        cr_tb_printf(t, ", eaten in phase %d", m->eaten);
    else
        cr_tb_printf(t, ", permanent");
}

void d18_assoc_card(const cr_game *g, int a, cr_tbuf *t)
{
    static const char *const power[D18_NASSOC] = {
        "its buyer has priority in stock round 1",
        "a front owning it may once remove a yellow cube or add one anywhere yellow is required",
        "a front owning it may once reserve the next office space to open in a city it reaches",
        "operates as a minor with its own monster, treasury and office; a front may buy it",
        "operates as a minor that buys nurses; a front may buy it",
        "a front owning it may once place an office without a connection",
        "its front may once double one of the four marked off-boards in a rampage",
    };
    if (a < 0 || a >= D18_NASSOC) return;
    cr_tb_printf(t, "%s (%s): list price %d", d18_assoc_name[a], d18_assoc_id[a],
                 d18_brd(g)->assoc_price[a]);
    if (d18_assoc_revenue[a] > 0)
        cr_tb_printf(t, ", pays its owner %d each operating round", d18_assoc_revenue[a]);
    cr_tb_printf(t, "; %s.", power[a]);
}

/* ---- previews ---- */

/* Location pair of route space r in words: "Yewcross-Knell (YEW-KNL)". */
static void tb_space(const cr_game *g, cr_tbuf *t, int r)
{
    const d18_board *b = d18_brd(g);
    if (r < 0 || r >= b->n_routes) return;
    const d18_location *A = &b->loc[b->route[r].a], *B = &b->loc[b->route[r].b];
    cr_tb_printf(t, "%s-%s (%s-%s)", A->name, B->name, A->id, B->id);
}

typedef struct preview {
    cr_action a;
    int rev;
} preview;

static int by_revenue(const void *x, const void *y)
{
    const preview *p = x, *q = y;
    if (p->rev != q->rev) return p->rev < q->rev ? 1 : -1;
    return p->a < q->a ? -1 : p->a > q->a;
}

/* The most lines of build or office choices the help lists. */
enum { D18_HELP_CHOICES = 12 };

/* For each legal action of `kind`, the best rampage revenue of e after it
 * (the router on a copy with the action applied), best first. */
static void tb_previews(const cr_game *g, const d18_state *s, int e, int kind, cr_ctx *cx,
                        cr_tbuf *t)
{
    const d18_board *b = d18_brd(g);
    cr_action list[D18_MAX_LEGAL];
    preview pv[D18_MAX_LEGAL];
    int n = g->def->legal_actions(g, s, list, NULL), k = 0;
    for (int i = 0; i < n; i++) {
        d18_act x;
        if (!d18_decode(list[i], &x) || x.kind != kind) continue;
        d18_state c = *s;
        g->def->apply(g, &c, list[i], cx);
        pv[k].a = list[i];
        pv[k].rev = d18_rampage(g, &c, e, cx);
        k++;
    }
    if (k == 0) return;
    qsort(pv, (size_t)k, sizeof pv[0], by_revenue);
    int now = d18_rampage(g, s, e, cx);
    for (int i = 0; i < k && i < D18_HELP_CHOICES; i++) {
        d18_act x;
        d18_decode(pv[i].a, &x);
        cr_tb_printf(t, "\n  ");
        if (kind == D18_K_BUILD) {
            tb_space(g, t, x.o1);
            cr_tb_printf(t, ": %s cube, cost %d", colour_word(d18_required_colour(g, s, x.o1)),
                         b->route[x.o1].cost);
        } else {
            cr_tb_printf(t, "%s (%s): cost %d", b->loc[x.o1].name, b->loc[x.o1].id,
                         d18_office_cost(g, s, e));
        }
        cr_tb_printf(t, "; rampage %d (%+d)", pv[i].rev, pv[i].rev - now);
    }
    if (k > D18_HELP_CHOICES)
        cr_tb_printf(t, "\n  ... and %d more, none earning more than %d.", k - D18_HELP_CHOICES,
                     pv[D18_HELP_CHOICES - 1].rev);
}

/* What paying out and retaining revenue `rev` do for front f: the price
 * each way (d18_dividend on a copy) and what the seat p receives. */
static void tb_dividend(const cr_game *g, const d18_state *s, int f, int rev, int p, cr_tbuf *t)
{
    d18_state pay = *s, keep = *s;
    d18_dividend(g, &pay, f, rev, 1);
    d18_dividend(g, &keep, f, rev, 0);
    int held = p >= 0 && p < s->np ? s->held[f][p] : 0;
    cr_tb_printf(t,
                 "\nPay out: %d a share to the holders (you hold %d share%s: %d), the price goes "
                 "%d -> %d.\nRetain: the treasury gets %d, the price goes %d -> %d.",
                 rev / 10, held, held == 1 ? "" : "s", held * (rev / 10), d18_price(g, s, f),
                 d18_price(g, &pay, f), rev, d18_price(g, s, f), d18_price(g, &keep, f));
}

/* ---- the stock round ---- */

static int par_price(const d18_board *b, int i)
{
    return i >= 0 && i < b->n_par ? b->cell[b->par_row[i]][b->par_col[i]].price : 0;
}

static void help_sr(const cr_game *g, const d18_state *s, int p, cr_tbuf *t)
{
    const d18_board *b = d18_brd(g);
    int certs = d18_certs(g, s, p), limit = d18_cert_limit(s->np);
    cr_tb_printf(t,
                 "Stock round %d. P%d has %d and %d of %d certificates (a certificate of a "
                 "front in the white zone counts, one in the yellow or orange zone does not; "
                 "an associate counts). In one turn: sell any shares, buy at most one "
                 "certificate, sell again. Buying never moves a price; each share sold moves "
                 "it down a row.",
                 s->sr_no, p, s->cash[p], certs, limit);
    if (d18_relief_required(g, s, p))
        cr_tb_printf(t, "\nYou are over a certificate limit: you must sell first.");
    /* starting a front: the pars the legal list offers */
    cr_action list[D18_MAX_LEGAL];
    int n = g->def->legal_actions(g, s, list, NULL), hi = 0, any_start = 0;
    for (int i = 0; i < n; i++) {
        d18_act x;
        if (d18_decode(list[i], &x) && x.kind == D18_K_START) {
            any_start = 1;
            if (par_price(b, x.o2) > hi) hi = par_price(b, x.o2);
        }
    }
    int lowest = 0;
    for (int i = 0; i < b->n_par; i++)
        if (lowest == 0 || par_price(b, i) < lowest) lowest = par_price(b, i);
    int unstarted = 0;
    for (int f = 0; f < D18_NFRONTS; f++) unstarted += s->pres[f] < 0;
    if (unstarted > 0) {
        cr_tb_printf(t, "\nStarting a front: the President's certificate (2 of its 10 shares) "
                        "costs twice the par you choose. It floats once 6 shares have left the "
                        "IPO: 6 x par in all, its treasury then gets 10 x par. ");
        if (any_start)
            cr_tb_printf(t,
                         "You can start one now at a par up to %d (%d); floating it alone "
                         "would take %d in all.",
                         hi, 2 * hi, 6 * hi);
        else if (2 * lowest > s->cash[p])
            cr_tb_printf(t, "You cannot start one now: the lowest par, %d, needs %d.", lowest,
                         2 * lowest);
        else
            cr_tb_printf(t, "You cannot start one now (a certificate limit, or not your turn "
                            "to buy).");
    }
    for (int f = 0; f < D18_NFRONTS; f++) {
        if (s->pres[f] < 0) continue;
        int par = par_price(b, s->par_idx[f]), out = D18_SHARES - s->ipo[f];
        cr_tb_printf(t, "\n%s (%s): price %d (%s zone), par %d; IPO %d, market %d; you hold %d",
                     ent(g, f), b->front[f].name, d18_price(g, s, f),
                     zone_word(d18_zone_of(g, s, f)), par, s->ipo[f], s->pool[f], s->held[f][p]);
        if (s->pres[f] == p) cr_tb_printf(t, " (President)");
        if (!(s->floated >> f & 1))
            cr_tb_printf(t, "; not floated: %d more share%s from the IPO float%s it (%d at par)",
                         6 - out, 6 - out == 1 ? "" : "s", 6 - out == 1 ? "s" : "",
                         (6 - out) * par);
        cr_tb_printf(t, ".");
    }
}

/* ---- an operating turn ---- */

static void help_buy(const cr_game *g, const d18_state *s, int e, int p, cr_tbuf *t)
{
    const d18_board *b = d18_brd(g);
    int cheap = d18_cheapest_offer(g, s, e), own = d18_owned(g, s, e, 0);
    int32_t treasury = d18_ent_cash_of(s, e);
    cr_tb_printf(t, "Buy monsters: %d owned, %d counted against the limit of %d in phase %d.", own,
                 d18_owned(g, s, e, 1), b->limit[s->phase - 1], s->phase);
    if (cheap >= 0) cr_tb_printf(t, " The cheapest in the bank costs %d.", cheap);
    if (e < D18_NFRONTS && d18_must_buy(g, s, e)) {
        cr_tb_printf(t, "\nForced purchase: a front with a route must own a monster.");
        if (cheap >= 0 && cheap > treasury) {
            int32_t pres = s->cash[p], more = d18_raisable(g, s, e);
            cr_tb_printf(t,
                         " The treasury (%d) cannot pay %d: the President pays the rest (%d of "
                         "P%d's %d).",
                         treasury, cheap, cheap - treasury, p, pres);
            if (treasury + pres < cheap)
                cr_tb_printf(t,
                             " That is %d short: P%d must sell shares first (at most %d can be "
                             "raised by selling now).",
                             cheap - treasury - pres, p, more);
            if (treasury + pres + more < cheap)
                cr_tb_printf(t,
                             " Even that is not enough: unless another front sells %s a "
                             "monster, P%d goes bankrupt and the game ends.",
                             ent(g, e), p);
        }
    }
    /* the monsters on offer, each once, with its card */
    cr_action list[D18_MAX_LEGAL];
    int n = g->def->legal_actions(g, s, list, NULL);
    uint64_t shown = 0;
    for (int i = 0; i < n; i++) {
        d18_act x;
        if (!d18_decode(list[i], &x) ||
            (x.kind != D18_K_BUY_BANK && x.kind != D18_K_BUY_MKT && x.kind != D18_K_EM_BUY))
            continue;
        if (x.o1 < 0 || x.o1 >= b->n_monsters || x.o1 >= 64 || (shown >> x.o1 & 1)) continue;
        shown |= 1ull << x.o1;
        cr_tb_printf(t, "\n  ");
        d18_monster_card(g, x.o1, t);
    }
}

static void help_or(const cr_game *g, const d18_state *s, int p, cr_tbuf *t)
{
    const d18_board *b = d18_brd(g);
    int e = s->op_ent;
    cr_tb_printf(t, "%s operates (treasury %d, phase %d). ", ent(g, e), d18_ent_cash_of(s, e),
                 s->phase);
    cr_ctx *cx = NULL;
    if (s->or_step == D18_OS_BUILD || s->or_step == D18_OS_OFFICE || s->or_step == D18_OS_RAMPAGE) {
        cx = cr_ctx_new(g);
        if (cx == NULL) {
            cr_tb_printf(t, "(out of memory for the route search)");
            return;
        }
    }
    switch (s->or_step) {
    case D18_OS_BUILD:
        cr_tb_printf(t, "Build: %s. Each cube costs its space's cost from the treasury.",
                     s->build_used == 0   ? "up to two yellow cubes, or one green, blue or red cube"
                     : s->build_used == 1 ? "one more yellow cube, or stop"
                                          : "no more cubes");
        cr_tb_printf(t, "\nRampage now: %d. With one build:", d18_rampage(g, s, e, cx));
        tb_previews(g, s, e, D18_K_BUILD, cx, t);
        break;
    case D18_OS_OFFICE:
        cr_tb_printf(t,
                     "Office: place one for %d, or skip. An office lets routes start there "
                     "and can block other fronts.",
                     d18_office_cost(g, s, e));
        cr_tb_printf(t, "\nRampage now: %d. With an office in:", d18_rampage(g, s, e, cx));
        tb_previews(g, s, e, D18_K_OFFICE, cx, t);
        break;
    case D18_OS_RAMPAGE: {
        int rev = d18_rampage(g, s, e, cx);
        cr_tb_printf(t, "Rampage: the routes that earn the most are found for you: %d.", rev);
        if (e < D18_NFRONTS && rev > 0)
            tb_dividend(g, s, e, rev, p, t);
        else if (e >= D18_NFRONTS)
            cr_tb_printf(t, " %s is a minor: %d to P%d, %d to its treasury.", ent(g, e), rev / 2, p,
                         rev - rev / 2);
        break;
    }
    case D18_OS_DIVIDEND:
        cr_tb_printf(t, "Revenue %d.", s->revenue);
        tb_dividend(g, s, e, s->revenue, p, t);
        break;
    case D18_OS_BUY: help_buy(g, s, e, p, t); break;
    default: break;
    }
    (void)b;
    cr_ctx_free(cx);
}

size_t d18_help(const cr_game *g, const void *obs, char *buf, size_t cap)
{
    const d18_state *s = obs;
    const d18_board *b = d18_brd(g);
    cr_tbuf t;
    cr_tb_init(&t, buf, cap);
    int p = g->def->current_player(g, s), e = s->op_ent;
    if (p < 0 || p >= D18_MAXP) return t.len; /* nobody decides: no help */
    switch (s->stage) {
    case D18_S_AUCTION: {
        int cur = -1;
        for (int i = D18_NASSOC - 1; i >= 0; i--)
            if (s->assoc_owner[i] == D18_UNSOLD) cur = i;
        if (cur < 0) break;
        cr_tb_printf(&t,
                     "Associate auction. P%d has %d. Buy %s outright for %d, bid on a later "
                     "associate (a bid is money you promise: it is paid only when that associate "
                     "comes up), or pass. If every player passes in a row, %s's price drops by 5 "
                     "and every open associate pays its owner its revenue.",
                     p, s->cash[p], d18_assoc_name[cur], s->assoc_price_now[cur],
                     d18_assoc_name[cur]);
        for (int a = 0; a < D18_NASSOC; a++)
            if (s->assoc_owner[a] == D18_UNSOLD) {
                cr_tb_printf(&t, "\n  ");
                d18_assoc_card(g, a, &t);
            }
        break;
    }
    case D18_S_CONTEST: {
        int top = 0;
        for (int q = 0; q < s->np; q++)
            if (s->bid[s->ct_assoc][q] > top) top = s->bid[s->ct_assoc][q];
        cr_tb_printf(&t,
                     "Contest for %s: the top bid is %d; raise by at least 5 (P%d has %d) or "
                     "drop out. The last bidder in buys it at the bid.\n  ",
                     d18_assoc_name[s->ct_assoc], top, p, s->cash[p]);
        d18_assoc_card(g, s->ct_assoc, &t);
        break;
    }
    case D18_S_SR: help_sr(g, s, p, &t); break;
    case D18_S_SR_OFFER:
        cr_tb_printf(&t,
                     "P%d offers %d for your %s: accept to take the money and hand it over.\n  ",
                     s->offer_from, s->offer_price, d18_assoc_name[s->offer_assoc]);
        d18_assoc_card(g, s->offer_assoc, &t);
        break;
    case D18_S_CASTLE:
        cr_tb_printf(&t,
                     "Castle auction: the top bid is %d; bid more (P%d has %d) or pass for "
                     "good. The winner pays and places the castle on a built route space; the "
                     "space under it carries no route (but for monsters that may use it).",
                     s->castle_top, p, s->cash[p]);
        break;
    case D18_S_CASTLE_PLACE:
        cr_tb_printf(&t, "Choose the built route space the castle goes on: no route may use it "
                         "but a monster's that may use the castle's space.");
        break;
    case D18_S_OR:
        if (e < 0) break;
        help_or(g, s, p, &t);
        break;
    case D18_S_OR_OFFER:
        cr_tb_printf(&t, "%s offers %d for a %s of your front %s: accept or decline.", ent(g, e),
                     s->offer_price,
                     s->offer_type >= 0 && s->offer_type < b->n_monsters
                         ? b->monster[s->offer_type].name
                         : "?",
                     ent(g, s->offer_to));
        if (s->offer_type >= 0 && s->offer_type < b->n_monsters) {
            cr_tb_printf(&t, "\n  ");
            d18_monster_card(g, s->offer_type, &t);
        }
        break;
    case D18_S_DISCARD:
        cr_tb_printf(&t,
                     "%s is over its monster limit (%d in phase %d): choose a monster to "
                     "discard to the market.",
                     ent(g, d18_next_discarder(g, s)), b->limit[s->phase - 1], s->phase);
        break;
    default: return g->def->prompt(g, s, buf, cap); /* mergers, associate offers */
    }
    return t.len;
}
