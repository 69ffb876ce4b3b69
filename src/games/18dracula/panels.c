/* panels.c — 18Dracula laid out for the full-screen client: the `panels`
 * part (croupier/parts.h, "Panels").  From one observation (everything in
 * 18Dracula is public, R7) it writes titled panels, most important first:
 *
 *   Now          the round, who acts and the decision with its numbers
 *   Players      each seat's cash, certificates, shares and associates
 *   Market       the rows of the share market that hold a front, a few
 *                cells either side of it (the whole grid is the last panel)
 *   Fronts       each started front's charter: president, price and par,
 *                treasury, shares left, offices, monsters, associates
 *   Map near X   the region around the current decision: the operating
 *                entity's offices (else the castle) and the places one
 *                route space away, the cubes on those spaces, the cities'
 *                levels, values and office spaces
 *   Bank         phase, tracker, bank, cubes, monsters for sale
 *   Associates   owners; LL's and BT's treasuries and monsters
 *   Map          every built route space by colour, every city with offices
 *   Market grid  the whole grid with the fronts' places
 *
 * At 80x24 the first panels fit and the client offers `t` for the rest.
 * Cube colours use the four accent styles ('1' yellow, '2' green, '3' blue,
 * '4' red).  The text is ASCII whatever the flags.  Not on the hot path.
 */
#include <string.h>

#include "croupier/text.h"
#include "croupier/parts.h"
#include "games/18dracula/d18_internal.h"

typedef struct pctx {
    cr_tbuf *t;
    const cr_game *g;
    const d18_board *b;
    const d18_state *s;
    int actor; /* the seat to act, or -1 */
} pctx;

static void style(pctx *p, char c) { cr_tb_printf(p->t, "%c%c", CR_PANEL_STYLE, c); }

static void title(pctx *p, const char *text) { cr_tb_printf(p->t, "%c%s\n", CR_PANEL_TITLE, text); }

static const char *ent_id(const pctx *p, int e)
{
    if (e >= 0 && e < D18_NFRONTS) return p->b->front[e].id;
    return e == D18_ENT_LL ? "LL" : e == D18_ENT_BT ? "BT" : "?";
}

static const char *colour_word(int c)
{
    static const char *const w[] = {"yellow", "green", "blue", "red"};
    return c >= 0 && c < 4 ? w[c] : "?";
}

/* A cube on route space r, in its colour. */
static void cube(pctx *p, int r)
{
    int c = p->s->cube[r];
    if (c == D18_CUBE_PRE) {
        cr_tb_printf(p->t, "pre-built");
        return;
    }
    style(p, (char)('1' + (c - 1)));
    cr_tb_printf(p->t, "%s", colour_word(c - 1));
    style(p, '0');
}

static void route_ids(pctx *p, int r)
{
    cr_tb_printf(p->t, "%s-%s", p->b->loc[p->b->route[r].a].id, p->b->loc[p->b->route[r].b].id);
}

/* A city: id, level, value now and its office spaces ("-" empty, "v" a
 * face-down Church token). */
static void city(pctx *p, int l)
{
    const d18_location *lo = &p->b->loc[l];
    int lv = d18_level(p->g, p->s, l);
    cr_tb_printf(p->t, "%s ", lo->id);
    style(p, (char)('1' + lv));
    cr_tb_printf(p->t, "%s", d18_colour_name(lv));
    style(p, '0');
    cr_tb_printf(p->t, " %d [", d18_city_value(p->b, l, lv));
    for (int i = 0; i < lo->n_spaces; i++) {
        int o = p->s->space_occ[l][i];
        cr_tb_printf(p->t, "%s%s", i ? " " : "",
                     o == D18_OCC_EMPTY  ? "-"
                     : o >= D18_OCC_DOWN ? "v"
                                         : ent_id(p, o));
    }
    cr_tb_printf(p->t, "]");
}

static int32_t ent_cash(const pctx *p, int e) { return d18_ent_cash_of(p->s, e); }

static void monsters_of(pctx *p, int e)
{
    int any = 0;
    for (int c = 0; c < p->b->n_copies; c++)
        if (p->s->mon_at[c] == D18_AT_ENTITY + e)
            cr_tb_printf(p->t, "%s%s", any++ ? " " : "", p->b->monster[d18_copy_type(p->b, c)].id);
    if (!any) cr_tb_printf(p->t, "no monsters");
}

/* ---- Now ---- */

static void panel_now(pctx *p)
{
    const d18_state *s = p->s;
    char head[96];
    switch (s->stage) {
    case D18_S_SEATING: snprintf(head, sizeof head, "Now: seating"); break;
    case D18_S_AUCTION:
    case D18_S_CONTEST: snprintf(head, sizeof head, "Now: associate auction"); break;
    case D18_S_SR:
    case D18_S_SR_OFFER: snprintf(head, sizeof head, "Now: stock round %d", s->sr_no); break;
    case D18_S_CASTLE:
    case D18_S_CASTLE_PLACE: snprintf(head, sizeof head, "Now: castle auction"); break;
    case D18_S_OVER: snprintf(head, sizeof head, "Game over"); break;
    default:
        snprintf(head, sizeof head, "Now: operating round %d (%d of %d), phase %d", s->ors_played,
                 s->or_no + 1, s->ors_in_set ? s->ors_in_set : 1, s->phase);
        break;
    }
    title(p, head);
    if (s->stage == D18_S_OVER) {
        cr_result r;
        p->g->def->result(p->g, s, &r);
        for (int q = 0; q < s->np; q++) {
            if (r.winners >> q & 1) style(p, '+');
            cr_tb_printf(p->t, "P%d: %d (rank %d)%s", q, r.score[q], r.rank[q],
                         r.winners >> q & 1 ? ", wins" : "");
            style(p, '0');
            cr_tb_printf(p->t, "\n");
        }
        return;
    }
    char prompt[256];
    d18_prompt(p->g, s, prompt, sizeof prompt);
    if (p->actor >= 0) {
        style(p, 'e');
        cr_tb_printf(p->t, "P%d to act", p->actor);
        style(p, '0');
        cr_tb_printf(p->t, " (cash %d): ", s->cash[p->actor]);
    }
    style(p, '!');
    cr_tb_printf(p->t, "%s", prompt);
    style(p, '0');
    cr_tb_printf(p->t, "\n");
    int e = s->op_ent;
    switch (s->stage) {
    case D18_S_AUCTION:
    case D18_S_CONTEST:
        for (int a = 0; a < D18_NASSOC; a++) {
            if (s->assoc_owner[a] != D18_UNSOLD) continue;
            cr_tb_printf(p->t, "%s %d", d18_assoc_id[a], s->assoc_price_now[a]);
            for (int q = 0; q < s->np; q++)
                if (s->bid[a][q]) cr_tb_printf(p->t, " (P%d bids %d)", q, s->bid[a][q]);
            cr_tb_printf(p->t, "  ");
        }
        cr_tb_printf(p->t, "\n");
        break;
    case D18_S_SR:
    case D18_S_SR_OFFER:
        if (p->actor >= 0)
            cr_tb_printf(p->t, "P%d holds %d of %d certificates\n", p->actor,
                         d18_certs(p->g, s, p->actor), d18_cert_limit(s->np));
        break;
    case D18_S_CASTLE:
        cr_tb_printf(p->t, "Highest bid %d", s->castle_top);
        if (s->castle_top > 0) cr_tb_printf(p->t, " by P%d", s->castle_who);
        cr_tb_printf(p->t, "; the castle is on ");
        route_ids(p, s->castle);
        cr_tb_printf(p->t, "\n");
        break;
    default:
        if (e >= 0 && e < D18_NENT) {
            cr_tb_printf(p->t, "%s: treasury %d, ", ent_id(p, e), ent_cash(p, e));
            monsters_of(p, e);
            if (s->or_step == D18_OS_BUILD)
                cr_tb_printf(p->t, "; cubes yellow %d, green %d, blue %d, red %d", s->supply[0],
                             s->supply[1], s->supply[2], s->supply[3]);
            if (s->or_step == D18_OS_OFFICE && e < D18_NFRONTS)
                cr_tb_printf(p->t, "; next office costs %d", d18_office_cost(p->g, s, e));
            if (s->or_step >= D18_OS_DIVIDEND) cr_tb_printf(p->t, "; revenue %d", s->revenue);
            if (s->or_step == D18_OS_DIVIDEND && e < D18_NFRONTS)
                cr_tb_printf(p->t, " (%d a share if paid out)", s->revenue / 10);
            cr_tb_printf(p->t, "\n");
        }
        break;
    }
}

/* ---- Players ---- */

static void panel_players(pctx *p)
{
    const d18_state *s = p->s;
    title(p, "Players: cash, certificates, shares");
    for (int q = 0; q < s->np; q++) {
        if (q == p->actor) style(p, 'e');
        cr_tb_printf(p->t, "%sP%d %d, %d/%d", q == p->actor ? ">" : " ", q, s->cash[q],
                     d18_certs(p->g, s, q), d18_cert_limit(s->np));
        for (int f = 0; f < D18_NFRONTS; f++)
            if (s->held[f][q])
                cr_tb_printf(p->t, " %s %d%%%s", ent_id(p, f), s->held[f][q] * 10,
                             s->pres[f] == q ? "P" : "");
        for (int a = 0; a < D18_NASSOC; a++)
            if (s->assoc_owner[a] == q)
                cr_tb_printf(p->t, " %s%s", d18_assoc_id[a],
                             s->assoc_closed >> a & 1 ? "(closed)" : "");
        if (q == s->priority && s->stage <= D18_S_SR_OFFER) cr_tb_printf(p->t, " (priority)");
        style(p, '0');
        cr_tb_printf(p->t, "\n");
    }
}

/* ---- Market ---- */

static void market_cell(pctx *p, int r, int c)
{
    const d18_cell *cell = d18_market_cell(p->b, r, c);
    if (!cell) return;
    int any = 0;
    for (int f = 0; f < D18_NFRONTS; f++)
        if (p->s->pres[f] >= 0 && p->s->mrow[f] == r && p->s->mcol[f] == c) {
            if (!any++) {
                style(p, 'e');
                cr_tb_printf(p->t, " [%d", cell->price);
            }
            cr_tb_printf(p->t, " %s", ent_id(p, f));
        }
    if (any) {
        cr_tb_printf(p->t, "]");
        style(p, '0');
        return;
    }
    if (cell->zone != D18_WHITE) style(p, 'd');
    cr_tb_printf(p->t, " %d%s", cell->price, cell->par ? "p" : "");
    if (cell->zone != D18_WHITE) style(p, '0');
}

static void panel_market(pctx *p)
{
    const d18_state *s = p->s;
    title(p, "Market: [price fronts]");
    int rows = 0;
    for (int r = 0; r < p->b->market_rows; r++) {
        int lo = D18_MAX_MARKET_COLS, hi = -1;
        for (int f = 0; f < D18_NFRONTS; f++)
            if (s->pres[f] >= 0 && s->mrow[f] == r) {
                if (s->mcol[f] < lo) lo = s->mcol[f];
                if (s->mcol[f] > hi) hi = s->mcol[f];
            }
        if (hi < 0) continue;
        rows++;
        cr_tb_printf(p->t, "row %d:%s", r, lo - 2 > 0 ? " .." : "");
        for (int c = lo - 2 < 0 ? 0 : lo - 2; c <= hi + 2 && c < p->b->market_cols; c++)
            market_cell(p, r, c);
        cr_tb_printf(p->t, "%s\n", hi + 3 < p->b->market_cols ? " .." : "");
    }
    if (!rows) cr_tb_printf(p->t, "no front started yet\n");
}

/* ---- Fronts ---- */

static void panel_fronts(pctx *p)
{
    const d18_state *s = p->s;
    int any = 0;
    for (int f = 0; f < D18_NFRONTS; f++) {
        if (s->pres[f] < 0) continue;
        if (!any++) title(p, "Fronts");
        if (f == s->op_ent) style(p, 'e');
        cr_tb_printf(p->t, "%s P%d %d (par %d %s) treasury %d%s, IPO %d market %d, offices %d/%d, ",
                     ent_id(p, f), s->pres[f], d18_price(p->g, s, f),
                     p->b->cell[p->b->par_row[s->par_idx[f]]][p->b->par_col[s->par_idx[f]]].price,
                     d18_zone_of(p->g, s, f) == D18_WHITE         ? "white"
                     : d18_zone_of(p->g, s, f) == D18_ZONE_YELLOW ? "yellow"
                                                                  : "orange",
                     s->treasury[f], s->floated >> f & 1 ? "" : " (not floated)", s->ipo[f],
                     s->pool[f], s->offices_used[f], p->b->front[f].n_offices);
        monsters_of(p, f);
        for (int a = 0, n = 0; a < D18_NASSOC; a++)
            if (s->assoc_owner[a] == D18_OWN_FRONT + f)
                cr_tb_printf(p->t, "%s%s%s", n++ ? " " : "; ", d18_assoc_id[a],
                             s->assoc_closed >> a & 1 ? "(closed)" : "");
        if (f == s->op_ent) style(p, '0');
        cr_tb_printf(p->t, "\n");
    }
}

/* ---- Map near the decision ---- */

static void panel_near(pctx *p)
{
    const d18_state *s = p->s;
    const d18_board *b = p->b;
    d18_locset focus, near;
    memset(&focus, 0, sizeof focus);
    memset(&near, 0, sizeof near);
    int e = s->op_ent, n_focus = 0;
    char head[96];
    if (e >= 0 && e < D18_NENT && s->stage >= D18_S_OR && s->stage != D18_S_OVER) {
        for (int l = 0; l < b->n_locations; l++)
            if (b->loc[l].kind == D18_CITY && d18_has_office(p->g, s, e, l))
                d18_add(&focus, l), n_focus++;
        if (!n_focus && e < D18_NFRONTS) d18_add(&focus, b->front[e].home), n_focus++;
        snprintf(head, sizeof head, "Map near %s's offices", ent_id(p, e));
    }
    if (!n_focus) {
        d18_add(&focus, b->route[s->castle].a);
        d18_add(&focus, b->route[s->castle].b);
        snprintf(head, sizeof head, "Map near the castle");
    }
    near = focus;
    for (int r = 0; r < b->n_routes; r++) {
        if (d18_in(&focus, b->route[r].a)) d18_add(&near, b->route[r].b);
        if (d18_in(&focus, b->route[r].b)) d18_add(&near, b->route[r].a);
    }
    title(p, head);
    cr_tb_printf(p->t, "Built:");
    int built = 0;
    for (int r = 0; r < b->n_routes; r++) {
        if (s->cube[r] == D18_CUBE_NONE) continue;
        if (!d18_in(&near, b->route[r].a) || !d18_in(&near, b->route[r].b)) continue;
        cr_tb_printf(p->t, "%s", built++ ? ", " : " ");
        route_ids(p, r);
        cr_tb_printf(p->t, " ");
        cube(p, r);
        if (r == s->castle) cr_tb_printf(p->t, " castle");
    }
    cr_tb_printf(p->t, "%s\n", built ? "" : " nothing yet");
    cr_tb_printf(p->t, "Cities:");
    int n = 0;
    for (int l = 0; l < b->n_locations; l++) {
        if (!d18_in(&near, l)) continue;
        cr_tb_printf(p->t, "%s", n++ ? ", " : " ");
        if (b->loc[l].kind == D18_CITY) {
            if (d18_in(&focus, l)) style(p, 'e');
            city(p, l);
            if (d18_in(&focus, l)) style(p, '0');
        } else if (b->loc[l].kind == D18_OFF) {
            cr_tb_printf(p->t, "%s off-board %d", b->loc[l].id,
                         d18_off_value(b, l, s->phase ? s->phase : 1));
        } else {
            cr_tb_printf(p->t, "%s town", b->loc[l].id);
        }
    }
    cr_tb_printf(p->t, "\n");
}

/* ---- Bank ---- */

static void panel_bank(pctx *p)
{
    const d18_state *s = p->s;
    const d18_board *b = p->b;
    int ph = s->phase >= 1 && s->phase <= D18_NUM_PHASES ? s->phase : 1;
    title(p, "Bank");
    cr_tb_printf(p->t, "Phase %d, tracker %d/%d, monster limit %d, %d ORs a set\n", ph, s->tracker,
                 b->sales[ph - 1], b->limit[ph - 1], b->ors[ph - 1]);
    cr_tb_printf(p->t, "Bank %d%s; cubes in the supply ", s->bank,
                 s->broke_when ? " (broken: the game ends)" : "");
    for (int c = 0; c < D18_NUM_COLOURS; c++) {
        style(p, (char)('1' + c));
        cr_tb_printf(p->t, "%s%s %d", c ? " " : "", colour_word(c), s->supply[c]);
    }
    style(p, '0');
    cr_tb_printf(p->t, "\n");
    int offered = d18_offered_phase(p->g, s);
    cr_tb_printf(p->t, "For sale:");
    int any = 0;
    for (int t = 0; t < b->n_monsters; t++) {
        const d18_monster *m = &b->monster[t];
        int bank = 0, mkt = 0;
        for (int i = 0; i < m->copies; i++) {
            bank += s->mon_at[m->first_copy + i] == D18_AT_BANK;
            mkt += s->mon_at[m->first_copy + i] == D18_AT_MARKET;
        }
        if (bank && m->phase <= offered)
            cr_tb_printf(p->t, "%s %s %d (%d left)", any++ ? "," : "", m->id, m->price, bank);
        if (mkt)
            cr_tb_printf(p->t, "%s %s %d (%d in the open market)", any++ ? "," : "", m->id,
                         m->price, mkt);
    }
    cr_tb_printf(p->t, "%s\n", any ? "" : " nothing");
}

/* ---- Associates ---- */

static void panel_assoc(pctx *p)
{
    const d18_state *s = p->s;
    title(p, "Associates");
    for (int a = 0; a < D18_NASSOC; a++) {
        int o = s->assoc_owner[a];
        cr_tb_printf(p->t, "%s %s: ", d18_assoc_id[a], d18_assoc_name[a]);
        if (s->assoc_closed >> a & 1)
            cr_tb_printf(p->t, "closed");
        else if (o == D18_UNSOLD)
            cr_tb_printf(p->t, "unsold, %d", s->assoc_price_now[a]);
        else if (o >= 0 && o < D18_MAXP)
            cr_tb_printf(p->t, "P%d", o);
        else
            cr_tb_printf(p->t, "%s", ent_id(p, o - D18_OWN_FRONT));
        cr_tb_printf(p->t, "\n");
    }
    for (int e = D18_ENT_LL; e <= D18_ENT_BT; e++) {
        int a = e == D18_ENT_LL ? D18_LL : D18_BT;
        if (s->assoc_closed >> a & 1 || s->assoc_owner[a] >= D18_OWN_FRONT) continue;
        cr_tb_printf(p->t, "%s: treasury %d, ", ent_id(p, e), ent_cash(p, e));
        monsters_of(p, e);
        cr_tb_printf(p->t, "\n");
    }
}

/* ---- the whole map and the whole grid ---- */

static void panel_map(pctx *p)
{
    const d18_state *s = p->s;
    const d18_board *b = p->b;
    title(p, "Map: all built routes, cities with offices");
    for (int c = D18_YELLOW; c <= D18_RED + 1; c++) {
        int any = 0;
        for (int r = 0; r < b->n_routes; r++) {
            int k = s->cube[r];
            if (k == D18_CUBE_NONE || (c <= D18_RED ? k != c + 1 : k != D18_CUBE_PRE)) continue;
            if (!any++) {
                if (c <= D18_RED) {
                    style(p, (char)('1' + c));
                    cr_tb_printf(p->t, "%s:", colour_word(c));
                    style(p, '0');
                } else {
                    cr_tb_printf(p->t, "pre-built:");
                }
            }
            cr_tb_printf(p->t, " ");
            route_ids(p, r);
            if (r == s->castle) cr_tb_printf(p->t, " (castle)");
        }
        if (any) cr_tb_printf(p->t, "\n");
    }
    int n = 0;
    for (int l = 0; l < b->n_locations; l++) {
        if (b->loc[l].kind != D18_CITY) continue;
        int occupied = 0;
        for (int i = 0; i < b->loc[l].n_spaces; i++)
            occupied |= s->space_occ[l][i] != D18_OCC_EMPTY;
        if (!occupied) continue;
        cr_tb_printf(p->t, "%s", n++ ? ", " : "Cities: ");
        city(p, l);
    }
    if (n) cr_tb_printf(p->t, "\n");
}

static void panel_grid(pctx *p)
{
    title(p, "Market grid (dim: yellow/orange zone, p: par)");
    for (int r = 0; r < p->b->market_rows; r++) {
        cr_tb_printf(p->t, "row %d:", r);
        for (int c = 0; c < p->b->market_cols; c++) market_cell(p, r, c);
        cr_tb_printf(p->t, "\n");
    }
}

size_t d18_panels(const cr_game *g, const void *obs, unsigned flags, char *buf, size_t cap)
{
    (void)flags; /* ASCII either way */
    cr_tbuf tb;
    cr_tb_init(&tb, buf, cap);
    const d18_state *s = obs;
    int cur = g->def->current_player(g, s);
    pctx p = {.t = &tb, .g = g, .b = d18_brd(g), .s = s, .actor = cur >= 0 ? cur : -1};
    panel_now(&p);
    panel_players(&p);
    panel_market(&p);
    panel_fronts(&p);
    if (s->stage != D18_S_SEATING) panel_near(&p);
    panel_bank(&p);
    panel_assoc(&p);
    panel_map(&p);
    panel_grid(&p);
    return tb.len;
}
