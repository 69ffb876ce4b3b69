/* controls.c — one 18Dracula action as JSON for clients that build
 * controls (docs/clients.md, "Action JSON"): id, the notation, a label in
 * words with what the action costs, a group, the objects it names (fronts,
 * associates, monsters by id, route spaces "A-B", locations, seats "P2")
 * and, for the actions that choose an amount (bids, raises, offers), the
 * range any amount may be submitted in (is_legal accepts every amount of
 * the range; the legal list offers a few of them).
 *
 * Not on the hot path: the range is read from the legal list (the menu
 * holds its minimum and maximum), in a list on this call's stack.
 */
#include <stdio.h>
#include <string.h>

#include "croupier/text.h"
#include "games/18dracula/d18_internal.h"

static const char *ent(const cr_game *g, int e)
{
    if (e >= 0 && e < D18_NFRONTS) return d18_brd(g)->front[e].id;
    return e == D18_ENT_LL ? "LL" : e == D18_ENT_BT ? "BT" : "?";
}

/* The amount in points of an amount action, and its step; 0 if none. */
static int amount_step(int kind)
{
    switch (kind) {
    case D18_K_AU_BID:
    case D18_K_CT_RAISE: return 5;
    case D18_K_OFFER_AS:
    case D18_K_CASTLE_BID:
    case D18_K_OFFER_MON:
    case D18_K_OFFER_AF: return 1;
    default: return 0;
    }
}

/* "a" or "an" before a name. */
static const char *article(const char *name)
{
    return name[0] && strchr("AEIOUaeiou", name[0]) ? "an" : "a";
}

/* A monster type's card in a few words (explain.c), into buf. */
static void monster_short(const cr_game *g, int type, char *buf, size_t cap)
{
    cr_tbuf t;
    cr_tb_init(&t, buf, cap);
    d18_monster_short(g, type, &t);
}

static int points(const d18_act *x) { return x->amt * (amount_step(x->kind) == 5 ? 5 : 1); }

size_t d18_action_to_json(const cr_game *g, const void *st, cr_action a, char *buf, size_t cap)
{
    const d18_state *s = st;
    const d18_board *b = d18_brd(g);
    cr_tbuf t;
    cr_tb_init(&t, buf, cap);
    d18_act x;
    char text[96], label[192], obj[3][48];
    int nobj = 0;
    const char *group = "other";
    label[0] = '\0';
    if (!d18_decode(a, &x)) {
        cr_tb_printf(&t, "null");
        return t.len;
    }
    d18_action_to_str(g, st, a, text, sizeof text);
    int e = s->op_ent, p = g->def->current_player(g, s);
    int32_t cash = e >= 0 && s->stage >= D18_S_OR && s->stage != D18_S_OVER
                       ? d18_ent_cash_of(s, e)
                       : (p >= 0 && p < D18_MAXP ? s->cash[p] : 0);
#define OBJ(...)   (nobj < 3 ? (void)snprintf(obj[nobj++], sizeof obj[0], __VA_ARGS__) : (void)0)
#define LABEL(...) snprintf(label, sizeof label, __VA_ARGS__)
    switch (x.kind) {
    case D18_K_AU_BUY: {
        int cur = -1;
        for (int i = D18_NASSOC - 1; i >= 0; i--)
            if (s->assoc_owner[i] == D18_UNSOLD) cur = i;
        group = "buy";
        if (cur >= 0) {
            OBJ("%s", d18_assoc_id[cur]);
            LABEL("Buy %s for %d (you have %d)", d18_assoc_name[cur], s->assoc_price_now[cur],
                  cash);
        }
        break;
    }
    case D18_K_AU_BID:
        group = "bid";
        OBJ("%s", d18_assoc_id[x.o1]);
        LABEL("Bid %d on %s (listed at %d)", points(&x), d18_assoc_name[x.o1],
              s->assoc_price_now[x.o1]);
        break;
    case D18_K_CT_RAISE:
        group = "raise";
        OBJ("%s", d18_assoc_id[s->ct_assoc]);
        LABEL("Raise to %d for %s", points(&x), d18_assoc_name[s->ct_assoc]);
        break;
    case D18_K_CT_DROP:
        group = "drop";
        OBJ("%s", d18_assoc_id[s->ct_assoc]);
        LABEL("Drop out of the contest for %s", d18_assoc_name[s->ct_assoc]);
        break;
    case D18_K_AU_PASS:
    case D18_K_PASS:
    case D18_K_CASTLE_PASS:
        group = "pass";
        LABEL("%s",
              x.kind == D18_K_CASTLE_PASS ? "Pass: out of the castle auction for good" : "Pass");
        break;
    case D18_K_SELL:
    case D18_K_EM_SELL:
        group = x.kind == D18_K_SELL ? "sell" : "emergency-sell";
        OBJ("%s", ent(g, x.o1));
        LABEL("Sell %d %s share%s at %d each", x.o2 + 1, ent(g, x.o1), x.o2 ? "s" : "",
              s->pres[x.o1] >= 0 ? d18_price(g, s, x.o1) : 0);
        break;
    case D18_K_START: {
        group = "start";
        OBJ("%s", ent(g, x.o1));
        int par = x.o2 < b->n_par ? b->cell[b->par_row[x.o2]][b->par_col[x.o2]].price : 0;
        LABEL("Start %s at par %d: the President's certificate costs %d (you have %d)",
              ent(g, x.o1), par, 2 * par, cash);
        break;
    }
    case D18_K_BUY_IPO:
    case D18_K_BUY_POOL: {
        group = "buy-share";
        OBJ("%s", ent(g, x.o1));
        int pr =
            x.kind == D18_K_BUY_IPO
                ? (s->par_idx[x.o1] >= 0
                       ? b->cell[b->par_row[s->par_idx[x.o1]]][b->par_col[s->par_idx[x.o1]]].price
                       : 0)
                : d18_price(g, s, x.o1);
        LABEL("Buy a %s share from the %s for %d", ent(g, x.o1),
              x.kind == D18_K_BUY_IPO ? "IPO" : "market", pr);
        break;
    }
    case D18_K_OFFER_AS:
    case D18_K_OFFER_AF:
        group = "offer";
        OBJ("%s", d18_assoc_id[x.o1]);
        if (s->assoc_owner[x.o1] >= 0 && s->assoc_owner[x.o1] < D18_MAXP)
            OBJ("P%d", s->assoc_owner[x.o1]);
        LABEL("Offer %d for %s", x.amt, d18_assoc_name[x.o1]);
        break;
    case D18_K_ACCEPT:
    case D18_K_DECLINE:
        group = x.kind == D18_K_ACCEPT ? "accept" : "decline";
        LABEL("%s the offer of %d", x.kind == D18_K_ACCEPT ? "Accept" : "Decline", s->offer_price);
        break;
    case D18_K_END_TURN:
        group = "end";
        LABEL("End your turn");
        break;
    case D18_K_CASTLE_BID:
        group = "castle-bid";
        LABEL("Bid %d for the castle (top bid %d)", x.amt, s->castle_top);
        break;
    case D18_K_CASTLE_PLACE:
    case D18_K_BUILD:
    case D18_K_JH_REMOVE:
    case D18_K_JH_ADD: {
        /* the objects by id (the map's keys), the label by the places' names */
        const char *A = x.o1 < b->n_routes ? b->loc[b->route[x.o1].a].id : "?";
        const char *B = x.o1 < b->n_routes ? b->loc[b->route[x.o1].b].id : "?";
        const char *An = x.o1 < b->n_routes ? b->loc[b->route[x.o1].a].name : "?";
        const char *Bn = x.o1 < b->n_routes ? b->loc[b->route[x.o1].b].name : "?";
        OBJ("%s-%s", A, B);
        if (x.kind == D18_K_BUILD) {
            static const char *const colour[] = {"yellow", "green", "blue", "red"};
            int c = d18_required_colour(g, s, x.o1);
            group = "build";
            LABEL("Build a %s cube between %s and %s for %d (treasury %d)",
                  c >= 0 && c < 4 ? colour[c] : "?", An, Bn, b->route[x.o1].cost, cash);
        } else if (x.kind == D18_K_CASTLE_PLACE) {
            group = "castle-place";
            LABEL("Place the castle between %s and %s", An, Bn);
        } else {
            group = "power";
            LABEL("Jekyl & Hyde: %s a cube %s between %s and %s",
                  x.kind == D18_K_JH_ADD ? "add" : "remove",
                  x.kind == D18_K_JH_ADD ? "on the space" : "from the space", An, Bn);
        }
        break;
    }
    case D18_K_OFFICE:
    case D18_K_CHURCH:
    case D18_K_MOLEMEN: {
        const char *id = x.o1 < b->n_locations ? b->loc[x.o1].id : "?";
        OBJ("%s", id);
        id = x.o1 < b->n_locations ? b->loc[x.o1].name : "?"; /* the label names the place */
        if (x.kind == D18_K_OFFICE) {
            group = "office";
            LABEL("Place an office in %s for %d (treasury %d)", id,
                  e >= 0 ? d18_office_cost(g, s, e) : 0, cash);
        } else {
            group = "power";
            LABEL("%s: %s in %s", x.kind == D18_K_CHURCH ? "Church" : "Molemen",
                  x.kind == D18_K_CHURCH ? "reserve a space" : "place an office", id);
        }
        break;
    }
    case D18_K_BUILD_DONE:
    case D18_K_OFFICE_SKIP:
    case D18_K_BUY_DONE:
        group = "done";
        LABEL("%s", x.kind == D18_K_BUILD_DONE    ? "Stop building"
                    : x.kind == D18_K_OFFICE_SKIP ? "Place no office"
                                                  : "Buy no more monsters");
        break;
    case D18_K_RAMPAGE:
        group = "rampage";
        LABEL("Rampage: the best routes are found for %s", ent(g, e));
        break;
    case D18_K_PAY:
        group = "pay";
        LABEL("Pay out %d: %d a share", s->revenue, s->revenue / 10);
        break;
    case D18_K_RETAIN:
        group = "retain";
        LABEL("Retain %d in the treasury", s->revenue);
        break;
    case D18_K_BUY_BANK:
    case D18_K_BUY_MKT:
    case D18_K_EM_BUY:
    case D18_K_DISCARD:
        group = x.kind == D18_K_DISCARD ? "discard" : "buy-monster";
        if (x.o1 < b->n_monsters) {
            /* a purchase names the card in a few words: what it buys */
            const d18_monster *m = &b->monster[x.o1];
            char card[96];
            monster_short(g, x.o1, card, sizeof card);
            OBJ("%s", m->id);
            if (x.kind == D18_K_DISCARD)
                LABEL("Discard %s", m->name);
            else if (x.kind == D18_K_EM_BUY)
                LABEL("Forced purchase: %s %s for %d, treasury %d (%s)", article(m->name), m->name,
                      m->price, cash, card);
            else
                LABEL("Buy %s %s%s for %d (%s)", article(m->name), m->name,
                      x.kind == D18_K_BUY_MKT ? " from the open market" : "", m->price, card);
        }
        break;
    case D18_K_OFFER_MON:
        group = "offer";
        OBJ("%s", ent(g, x.o1));
        if (x.o2 < b->n_monsters) {
            char card[96];
            monster_short(g, x.o2, card, sizeof card);
            OBJ("%s", b->monster[x.o2].id);
            LABEL("Offer %d to %s for its %s (%s)", x.amt, ent(g, x.o1), b->monster[x.o2].name,
                  card);
        }
        break;
    case D18_K_MERGE_KEEP:
    case D18_K_MERGE_REMOVE:
        group = x.kind == D18_K_MERGE_KEEP ? "merge-keep" : "merge-remove";
        LABEL("%s the merged office", x.kind == D18_K_MERGE_KEEP ? "Keep" : "Remove");
        break;
    default: break;
    }
#undef OBJ
#undef LABEL
    if (!label[0]) snprintf(label, sizeof label, "%s", text);
    cr_tb_printf(&t, "{\"id\":%ld,\"text\":", (long)a);
    cr_tb_json_str(&t, text);
    cr_tb_printf(&t, ",\"label\":");
    cr_tb_json_str(&t, label);
    cr_tb_printf(&t, ",\"group\":\"%s\",\"objects\":[", group);
    for (int i = 0; i < nobj; i++) {
        if (i) cr_tb_printf(&t, ",");
        cr_tb_json_str(&t, obj[i]);
    }
    cr_tb_printf(&t, "]");
    int step = amount_step(x.kind);
    if (step) { /* the range of this choice: the smallest and largest on the menu */
        cr_action list[D18_MAX_LEGAL];
        int n = g->def->legal_actions(g, s, list, NULL), lo = -1, hi = -1;
        for (int i = 0; i < n; i++) {
            d18_act y;
            if (!d18_decode(list[i], &y) || y.kind != x.kind || y.o1 != x.o1 || y.o2 != x.o2)
                continue;
            int v = points(&y);
            if (lo < 0 || v < lo) lo = v;
            if (v > hi) hi = v;
        }
        if (lo >= 0)
            cr_tb_printf(&t, ",\"amount\":{\"min\":%d,\"max\":%d,\"step\":%d}", lo, hi, step);
    }
    cr_tb_printf(&t, "}");
    return t.len;
}

/* ---- the menu's sections (cr_game_parts.menu_section) ----
 * One section a kind of action, so that a long menu's top level is a few
 * rows: a stock round's 49 actions are at most six sections (start a
 * front, buy from the IPO, buy from the market, sell, offer for an
 * associate, pass).  Sections by front ("Sell NBC") would make one row a
 * front held and no longer fit the screen; the items inside a section name
 * their front.  The rank is the kind's place in this table, which lists
 * the kinds in the order a player weighs them. */
static const struct {
    int kind;
    const char *title;
} d18_sections[] = {
    {D18_K_AU_BUY, "Buy the associate on sale"},
    {D18_K_AU_BID, "Bid on a later associate"},
    {D18_K_CT_RAISE, "Raise your bid"},
    {D18_K_CT_DROP, "Drop out"},
    {D18_K_START, "Start a front"},
    {D18_K_BUY_IPO, "Buy from the IPO"},
    {D18_K_BUY_POOL, "Buy from the market"},
    {D18_K_SELL, "Sell shares"},
    {D18_K_OFFER_AS, "Offer for an associate"},
    {D18_K_ACCEPT, "Accept the offer"},
    {D18_K_DECLINE, "Decline the offer"},
    {D18_K_CASTLE_BID, "Bid for the castle"},
    {D18_K_CASTLE_PLACE, "Place the castle"},
    {D18_K_MERGE_KEEP, "Keep the merged office"},
    {D18_K_MERGE_REMOVE, "Remove the merged office"},
    {D18_K_BUILD, "Build a cube"},
    {D18_K_BUILD_DONE, "Stop building"},
    {D18_K_OFFICE, "Place an office"},
    {D18_K_OFFICE_SKIP, "Place no office"},
    {D18_K_JH_REMOVE, "Use a power"},
    {D18_K_JH_ADD, "Use a power"},
    {D18_K_CHURCH, "Use a power"},
    {D18_K_MOLEMEN, "Use a power"},
    {D18_K_RAMPAGE, "Rampage"},
    {D18_K_PAY, "Pay out"},
    {D18_K_RETAIN, "Retain"},
    {D18_K_OFFER_AF, "Buy an associate for the front"},
    {D18_K_BUY_BANK, "Buy from the bank"},
    {D18_K_BUY_MKT, "Buy from the open market"},
    {D18_K_OFFER_MON, "Buy from another front"},
    {D18_K_BUY_DONE, "Buy no more monsters"},
    {D18_K_EM_SELL, "Sell shares to pay"},
    {D18_K_EM_BUY, "Forced purchase"},
    {D18_K_DISCARD, "Discard a monster"},
    {D18_K_PASS, "Pass"},
    {D18_K_AU_PASS, "Pass"},
    {D18_K_CASTLE_PASS, "Pass"},
    {D18_K_END_TURN, "End your turn"},
};

int d18_menu_section(const cr_game *g, const void *obs, cr_action a, char *title, size_t cap)
{
    (void)g;
    (void)obs; /* a section depends on the kind of action alone */
    d18_act x;
    if (cap) title[0] = '\0';
    if (!d18_decode(a, &x)) return -1;
    int n = (int)(sizeof d18_sections / sizeof d18_sections[0]);
    for (int i = 0; i < n; i++) {
        if (d18_sections[i].kind != x.kind) continue;
        /* kinds that share a title share the rank of its first entry */
        int rank = i;
        for (int k = 0; k < i; k++)
            if (strcmp(d18_sections[k].title, d18_sections[i].title) == 0) {
                rank = k;
                break;
            }
        snprintf(title, cap, "%s", d18_sections[i].title);
        return rank;
    }
    return -1;
}
