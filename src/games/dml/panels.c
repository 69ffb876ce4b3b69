/* panels.c — Dragon's Money Laundering laid out for the full-screen client:
 * the `panels` part (croupier/parts.h, "Panels").  From one observation it
 * writes titled panels of styled lines, most important first: the result
 * once the game is over, the table's state (Round, Dealer, whose turn, the
 * step, the Event and its effects), the seat's own cards, the purchase under
 * way with its running target and the chance to roll it (or the choice the
 * seat is composing), the Stack, the Stocks with each card's current Value,
 * the other players and the Black Markets.  The piles (Deck, Discard top,
 * Nest, Exile) are one line of the table's panel.
 *
 * Nothing here states a rule: the Values, the Event's effects in words and
 * the roll chances are those of the observation's JSON "display" object
 * (display.c, docs/clients.md), read back with jansson, so the panels and the
 * browser always say the same thing; the rest is the observation's zones.
 * Built from the observation only, the panels cannot show a card the seat
 * does not know.
 *
 * Cards are written as their code with the suit as a symbol (7♠) under
 * CR_PANEL_UTF8, as letters (7S) without it, each in its suit's accent
 * style: '1' Iron/S, '2' Wood/C, '3' Slaves/H, '4' Spice/D.  Not on the
 * hot path: it allocates the JSON it reads.
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "croupier/text.h"
#include "croupier/alloc.h"
#include "croupier/parts.h"
#include "games/dml/dml_internal.h"

typedef struct pctx {
    cr_tbuf *t;
    const dml_state *o;
    int utf8, me;    /* me: the viewing seat, -1 for the public and omniscient views */
    json_t *display; /* the observation's "display" object (borrowed from root), or NULL */
    const char *dot; /* separator between items */
} pctx;

static int lowest(uint64_t m) { return m ? __builtin_ctzll(m) : -1; }

static void style(pctx *p, char s) { cr_tb_printf(p->t, "%c%c", CR_PANEL_STYLE, s); }

static void title(pctx *p, const char *fmt, const char *arg)
{
    cr_tb_printf(p->t, "%c", CR_PANEL_TITLE);
    cr_tb_printf(p->t, fmt, arg);
    cr_tb_printf(p->t, "\n");
}

/* One card: its rank and suit in the suit's colour, then plain again. */
static void card(pctx *p, int c)
{
    static const char *const sym[4] = {"\xe2\x99\xa0", "\xe2\x99\xa3", "\xe2\x99\xa5",
                                       "\xe2\x99\xa6"};
    const char *code = dml_card_code(c);
    int su = dml_suit(c);
    if (su < 0) { /* a Joker */
        style(p, 'e');
        cr_tb_printf(p->t, "%s", code);
        style(p, '0');
        return;
    }
    style(p, (char)('1' + su));
    if (p->utf8)
        cr_tb_printf(p->t, "%.*s%s", (int)strlen(code) - 1, code, sym[su]);
    else
        cr_tb_printf(p->t, "%s", code);
    style(p, '0');
}

/* The current Value of card c as the display object gives it, or -1. */
static int value_of(const pctx *p, int c)
{
    json_t *v = json_object_get(json_object_get(p->display, "values"), dml_card_code(c));
    json_t *val = json_object_get(v, "value");
    return json_is_integer(val) ? (int)json_integer_value(val) : -1;
}

/* The cards of mask in canonical order, "—" (or "-") when none; with_values:
 * each followed by "=Value" when it has one. */
static void cards(pctx *p, uint64_t mask, int with_values)
{
    if (mask == 0) {
        style(p, 'd');
        cr_tb_printf(p->t, "%s", p->utf8 ? "\xe2\x80\x94" : "-");
        style(p, '0');
        return;
    }
    for (int first = 1; mask; mask &= mask - 1, first = 0) {
        int c = lowest(mask);
        if (!first) cr_tb_printf(p->t, " ");
        card(p, c);
        int v = with_values ? value_of(p, c) : -1;
        if (v >= 0) cr_tb_printf(p->t, "=%d", v);
    }
}

static void seats_of(pctx *p, unsigned mask)
{
    int any = 0;
    for (int s = 0; s < p->o->n && s < 4; s++)
        if (mask >> s & 1u) cr_tb_printf(p->t, "%sP%d", any++ ? " " : "", s);
    if (!any) cr_tb_printf(p->t, "nobody");
}

static const char *json_str(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static void panel_result(pctx *p)
{
    const dml_state *o = p->o;
    title(p, "%s", "Game over");
    static const char *const how[] = {"", "on Victory Points (the Deck ran out)", "by Monopoly",
                                      "as Father of Dragons", "as the last merchant standing"};
    style(p, 'e');
    if (o->winner >= 0 && o->winner < 4)
        cr_tb_printf(p->t, "P%d wins %s\n", o->winner, o->end_reason < 5 ? how[o->end_reason] : "");
    else
        cr_tb_printf(p->t, "nobody wins\n");
    if (o->end_reason == DML_END_VP) {
        cr_tb_printf(p->t, "Victory Points:");
        for (int s = 0; s < o->n && s < 4; s++) cr_tb_printf(p->t, "  P%d %d", s, o->vp[s]);
        cr_tb_printf(p->t, "\n");
    }
}

/* One line: the Deck, the Discard Pile and its top, the Nest, Exile (when
 * it holds cards). */
static void piles(pctx *p)
{
    const dml_state *o = p->o;
    cr_tb_printf(p->t, "Deck %d %s Discard %d", o->zone_count[DML_Z_DECK], p->dot,
                 o->zone_count[DML_Z_DISCARD]);
    if (o->discard_top >= 0 && o->discard_top < DML_NCARDS) {
        cr_tb_printf(p->t, " (top ");
        card(p, o->discard_top);
        cr_tb_printf(p->t, ")");
    }
    cr_tb_printf(p->t, " %s Nest %d", p->dot, o->zone_count[DML_Z_NEST]);
    int exiled = o->zone_count[DML_Z_EXILE] + o->zone_count[DML_Z_XKING];
    if (exiled) cr_tb_printf(p->t, " %s Exile %d", p->dot, exiled); /* rare: said when it happens */
    if (o->zone_count[DML_Z_PILES]) { /* DML-2015's Setup: the piles left to choose (V-PD1) */
        cr_tb_printf(p->t, " %s Piles", p->dot);
        for (int k = 0; k < 4; k++)
            if (o->pile[k][0]) cr_tb_printf(p->t, " %c", 'A' + k);
        cr_tb_printf(p->t, " (face down, a 2 and a 3 each)");
    }
    cr_tb_printf(p->t, "\n");
}

static void panel_table(pctx *p)
{
    const dml_state *o = p->o;
    char head[96];
    if (o->over) /* nobody has a turn any more */
        snprintf(head, sizeof head, "Round %d %s Dealer P%d %s the game is over", o->round, p->dot,
                 o->dealer, p->dot);
    else
        snprintf(head, sizeof head, "Round %d %s Dealer P%d %s P%d's turn", o->round, p->dot,
                 o->dealer, p->dot, o->active);
    title(p, "%s", head);
    if (!o->over) {
        style(p, 'e');
        int deciding = o->need == DML_NEED_DECISION && o->actor >= 0;
        if (deciding && o->variant == DML_V_2015 && o->kind == DML_D_STACK)
            cr_tb_printf(p->t, "P%d decides: stack, Character Power Phase", o->actor);
        else if (deciding)
            cr_tb_printf(p->t, "P%d decides: %s", o->actor, dml_kind_name(o->need, o->kind));
        else
            cr_tb_printf(p->t, "Step: %s", dml_kind_name(o->need, o->kind));
        style(p, '0');
        /* the budget is the active player's: shown while it is theirs to
         * spend, not beside another seat's decision */
        if ((!deciding || o->actor == o->active) && o->variant == DML_V_2015)
            cr_tb_printf(p->t, " %s %d Market, %d Black Market %s left", p->dot, o->actions,
                         o->minors, o->actions + o->minors == 1 ? "Action" : "Actions");
        else if (!deciding || o->actor == o->active)
            cr_tb_printf(p->t, " %s %d %s, %d %s left", p->dot, o->actions,
                         o->actions == 1 ? "Action" : "Actions", o->minors,
                         o->minors == 1 ? "Minor Action" : "Minor Actions");
        cr_tb_printf(p->t, "\n");
    }
    piles(p);
    /* the Event and its effects in words (display.c) */
    json_t *ev = json_object_get(p->display, "event");
    cr_tb_printf(p->t, "Event: ");
    int ec = lowest(o->zone[DML_Z_EVENT]);
    if (ec >= 0) {
        card(p, ec);
        cr_tb_printf(p->t, " ");
    }
    style(p, 'e');
    cr_tb_printf(p->t, "%s",
                 o->event_type ? dml_event_type_name_ed(dml_edition(o), o->event_type) : "none");
    style(p, '0');
    if (o->ev) cr_tb_printf(p->t, " (value %d)", o->ev);
    if (o->event_type && o->affected) {
        cr_tb_printf(p->t, " %s affects ", p->dot);
        seats_of(p, o->affected);
    }
    cr_tb_printf(p->t, "\n");
    const char *pe = json_str(ev, "player_effect"), *me = json_str(ev, "market_effect");
    /* a Player effect nobody is under is said in two words, not described:
     * rows are few at 80x24 (the guide and `?` describe every Event) */
    if (pe && o->affected) cr_tb_printf(p->t, "  Players: %s\n", pe);
    if (pe && !o->affected) cr_tb_printf(p->t, "  Players: nobody is affected\n");
    if (me) cr_tb_printf(p->t, "  Market: %s\n", me);
}

static void panel_you(pctx *p)
{
    const dml_state *o = p->o;
    int me = p->me;
    char head[48];
    snprintf(head, sizeof head, "You (P%d)%s", me, dml_is_alive(o, me) ? "" : " - out");
    title(p, "%s", head);
    cr_tb_printf(p->t, "Hand: ");
    cards(p, o->zone[DML_Z_HAND + me], 0);
    cr_tb_printf(p->t, "\nKing: ");
    cards(p, o->zone[DML_Z_KING + me], 0);
    cr_tb_printf(p->t, "  Front: ");
    cards(p, o->zone[DML_Z_FRONT + me], 0);
    if (o->zone[DML_Z_OFFER + me]) {
        cr_tb_printf(p->t, "  Offer: ");
        cards(p, o->zone[DML_Z_OFFER + me], 0);
    }
    cr_tb_printf(p->t, "\n");
}

/* The roll chances of the display object: "Roll vs 9 (buying roll): 27.8%". */
static void rolls(pctx *p)
{
    json_t *r = json_object_get(p->display, "rolls");
    size_t i;
    json_t *x;
    json_array_foreach(r, i, x)
    {
        json_t *tg = json_object_get(x, "target");
        json_t *single = json_object_get(json_object_get(x, "single"), "p");
        json_t *best = json_object_get(json_object_get(x, "best_reroll"), "p");
        const char *what = json_str(x, "what");
        if (!json_is_integer(tg) || !json_is_real(single)) continue;
        cr_tb_printf(p->t, "%s against %d: ", what ? what : "roll", (int)json_integer_value(tg));
        style(p, '!');
        cr_tb_printf(p->t, "%.1f%%", 100.0 * json_real_value(single));
        style(p, '0');
        if (json_is_true(json_object_get(x, "reroll_matters")) && json_is_real(best))
            cr_tb_printf(p->t, " (Dabo! %.1f%%)", /* re-rolling every failing double: one row */
                         100.0 * json_real_value(best));
        cr_tb_printf(p->t, "\n");
    }
}

/* The purchase under way, or the choice the seat is composing. */
static int panel_buying(pctx *p)
{
    const dml_state *o = p->o;
    int composing = p->me >= 0 && o->need == DML_NEED_DECISION && o->actor == p->me &&
                    o->sel_n > 0 && o->sel_n <= DML_NCARDS;
    int buying = o->zone_count[DML_Z_TARGET] || o->zone_count[DML_Z_COMMIT];
    json_t *r = json_object_get(p->display, "rolls");
    if (!composing && !buying && json_array_size(r) == 0) return 0;
    title(p, "%s", buying ? "Buying" : composing ? "Your choice" : "Rolls");
    if (buying) {
        if (o->buy_suit >= 0 && o->buy_suit < 4)
            cr_tb_printf(p->t, "%s ", dml_suit_name(o->buy_suit));
        cr_tb_printf(p->t, "targets ");
        cards(p, o->zone[DML_Z_TARGET], 1);
        if (o->zone_count[DML_Z_TARGET] > __builtin_popcountll(o->zone[DML_Z_TARGET]))
            cr_tb_printf(p->t, " (%d cards)", o->zone_count[DML_Z_TARGET]);
        cr_tb_printf(p->t, " %s committed ", p->dot);
        cards(p, o->zone[DML_Z_COMMIT], 0);
        cr_tb_printf(p->t, "\nD %d + P %d = ", o->D, o->P);
        style(p, 'e');
        cr_tb_printf(p->t, "Value %d", o->D + o->P);
        style(p, '0');
        if (o->seizer >= 0 && o->seizer < 4)
            cr_tb_printf(p->t, " %s seized by P%d", p->dot, o->seizer);
        cr_tb_printf(p->t, "\n");
    }
    if (composing) {
        cr_tb_printf(p->t, "Chosen so far: ");
        for (int i = 0; i < o->sel_n; i++) {
            if (i) cr_tb_printf(p->t, " ");
            card(p, o->sel[i]);
            if (o->kind == DML_D_STACK)
                cr_tb_printf(p->t, "(%s)", dml_sel_flag(o, i) & DML_SF_EMBLEM ? "Emblem" : "Power");
        }
        if (o->kind == DML_D_OFFER && o->buy_suit >= 0 && o->buy_suit < 4) {
            /* What the offer would count: the buyer's Primary's cards the
             * Event lets one commit (display.c's help says why). */
            int prim = dml_prim_of(o, o->buy_suit), total = 0;
            uint64_t ok = dml_commit_filter(o, prim);
            for (int i = 0; i < o->sel_n && i < DML_NCARDS; i++)
                if (dml_suit(o->sel[i]) == prim && (ok >> o->sel[i] & 1))
                    total += dml_value(o->sel[i]);
            cr_tb_printf(p->t, " %s counts ", p->dot);
            style(p, 'e');
            cr_tb_printf(p->t, "%d", total);
            style(p, '0');
            if (total > 0) cr_tb_printf(p->t, ": Value %d + %d = %d", o->D, total, o->D + total);
        }
        if (o->kind == DML_D_DECLARE && o->sel_targets > 0) {
            cr_tb_printf(p->t, " %s Value ", p->dot);
            style(p, 'e');
            cr_tb_printf(p->t, "%d", dml_declaration_value(o));
            style(p, '0');
        }
        cr_tb_printf(p->t, "\n");
    }
    rolls(p);
    return 1;
}

static void panel_stocks(pctx *p)
{
    const dml_state *o = p->o;
    title(p, "%s", "Stocks (card=Value now)");
    for (int su = 0; su < 4; su++) {
        style(p, (char)('1' + su));
        cr_tb_printf(p->t, "%-6s", dml_suit_name(su));
        style(p, '0');
        cr_tb_printf(p->t, " ");
        cards(p, o->zone[DML_Z_STOCK] & DML_SUIT_MASK(su), 1);
        cr_tb_printf(p->t, "\n");
    }
}

static void panel_players(pctx *p)
{
    const dml_state *o = p->o;
    title(p, "%s", p->me >= 0 ? "Opponents" : "Players");
    for (int s = 0; s < o->n && s < 4; s++) {
        if (s == p->me) continue;
        int hc = o->zone_count[DML_Z_HAND + s];
        style(p, 'e');
        cr_tb_printf(p->t, "P%d", s);
        style(p, '0');
        if (!dml_is_alive(o, s)) cr_tb_printf(p->t, " (out)");
        cr_tb_printf(p->t, " %d %s %s Front ", hc, hc == 1 ? "card" : "cards", p->dot);
        cards(p, o->zone[DML_Z_FRONT + s], 0);
        if (o->zone[DML_Z_HAND + s]) {
            cr_tb_printf(p->t, " %s known: ", p->dot);
            cards(p, o->zone[DML_Z_HAND + s], 0);
        }
        if (o->zone[DML_Z_KING + s]) {
            cr_tb_printf(p->t, " %s King ", p->dot);
            cards(p, o->zone[DML_Z_KING + s], 0);
        }
        if (o->zone_count[DML_Z_OFFER + s])
            cr_tb_printf(p->t, " %s offer of %d", p->dot, o->zone_count[DML_Z_OFFER + s]);
        cr_tb_printf(p->t, "\n");
    }
}

/* DML-2015: one entry a line, the top first (it resolves first), with the
 * Power's name in the game's edition: the Rogue Jester and the Harlot Queen
 * act on what lies below them. */
static void panel_stack_2015(pctx *p)
{
    const dml_state *o = p->o;
    title(p, "%s", "Stack (top resolves first)");
    for (int i = o->stack_n - 1; i >= 0 && i < DML_MAX_STACK; i--) {
        int c = o->stack_card[i], emblem = o->stack_flag[i] & DML_SF_EMBLEM;
        cr_tb_printf(p->t, "%s ", i == o->stack_n - 1 ? "top" : "   ");
        card(p, c);
        cr_tb_printf(p->t, " P%d %s", o->stack_flag[i] & DML_SF_SEAT, emblem ? "Emblem" : "Power");
        if (!emblem) cr_tb_printf(p->t, ": %s", dml_is_joker(c) ? "Thief" : dml_card_name_in(o, c));
        cr_tb_printf(p->t, "\n");
    }
}

static void panel_stack(pctx *p)
{
    const dml_state *o = p->o;
    if (o->stack_n == 0) return;
    if (o->variant == DML_V_2015) {
        panel_stack_2015(p);
        return;
    }
    title(p, "%s", "Stack (bottom to top)");
    for (int i = 0; i < o->stack_n && i < DML_MAX_STACK; i++) {
        if (i) cr_tb_printf(p->t, " %s ", p->dot);
        card(p, o->stack_card[i]);
        cr_tb_printf(p->t, " P%d %s", o->stack_flag[i] & DML_SF_SEAT,
                     o->stack_flag[i] & DML_SF_EMBLEM ? "Emblem" : "Power");
    }
    cr_tb_printf(p->t, "\n");
}

static void panel_markets(pctx *p)
{
    const dml_state *o = p->o;
    uint64_t known = 0;
    for (int z = 0; z < DML_NZONES; z++) known |= o->zone[z];
    int any = 0;
    for (int k = 0; k < DML_MAX_BM; k++) {
        int z = DML_Z_BM + k, cnt = o->zone_count[z];
        if (o->zone[z] == 0 && cnt == 0) continue;
        if (!any++) title(p, "%s", "Black Markets");
        style(p, 'e');
        cr_tb_printf(p->t, "BM%d", o->bm_label[k]);
        style(p, '0');
        cr_tb_printf(p->t, " %d %s", cnt, cnt == 1 ? "card" : "cards");
        if (o->zone[z]) {
            cr_tb_printf(p->t, " %s known: ", p->dot);
            cards(p, o->zone[z], 0);
        }
        uint64_t may = p->me >= 0 ? o->may[p->me][z] & ~known : 0;
        int nm = __builtin_popcountll(may);
        if (nm > 0 && nm <= 8) {
            cr_tb_printf(p->t, " %s may hold ", p->dot);
            cards(p, may, 0);
        } else if (nm > 8) {
            cr_tb_printf(p->t, " %s may hold any of %d cards", p->dot, nm);
        }
        cr_tb_printf(p->t, "\n");
    }
}

/* The observation's "display" object, parsed; NULL when it cannot be had. */
static json_t *display_json(const cr_game *g, const dml_state *o)
{
    size_t cap = 16384;
    for (int tries = 0; tries < 4; tries++, cap *= 4) {
        char *buf = cr_alloc(cap);
        if (buf == NULL) return NULL;
        size_t n = dml_obs_to_json(g, o, buf, cap);
        if (n < cap) {
            json_t *root = json_loadb(buf, n, 0, NULL);
            cr_free(buf);
            return root;
        }
        cr_free(buf);
    }
    return NULL;
}

size_t dml_panels(const cr_game *g, const void *obs, unsigned flags, char *buf, size_t cap)
{
    const dml_state *o = obs;
    cr_tbuf tb;
    cr_tb_init(&tb, buf, cap);
    json_t *root = display_json(g, o);
    pctx p = {
        .t = &tb,
        .o = o,
        .utf8 = (flags & CR_PANEL_UTF8) != 0,
        .me = o->obs_seat < 4 && o->obs_seat < o->n ? o->obs_seat : -1,
        .display = json_object_get(root, "display"),
    };
    p.dot = p.utf8 ? "\xc2\xb7" : "|";
    if (o->over) panel_result(&p);
    panel_table(&p);
    if (p.me >= 0) panel_you(&p);
    panel_buying(&p);
    panel_stack(&p);
    panel_stocks(&p);
    panel_players(&p);
    panel_markets(&p);
    json_decref(root);
    return tb.len;
}
