/* sheet.c — 18Dracula's annals and its spreadsheet (croupier/parts.h,
 * "Annals"; annals.h): the fold that keeps the operating history and the
 * last rampage from the match's events, the spreadsheet the full-screen
 * client shows with `S` (and line mode with `sheet`), and the annals as
 * JSON for the browser's Spreadsheet tab.
 *
 * The fold.  It follows the events an apply writes (events.c), in order:
 *   D18_E_SR, D18_E_OR     a new round (the rows' labels: "SR.n" of the OR)
 *   D18_E_START, _MARKET   each front's share price
 *   D18_E_REVENUE          a row for the entity (and the last rampage
 *                          starts over); an associate's LL or BT splits its
 *                          revenue at once, a front that earned nothing
 *                          withholds at once (its market move came earlier in
 *                          the same apply), a front that earned something waits
 *                          for its dividend
 *   D18_E_ROUTE            the last rampage's routes: their events, route
 *                          spaces and stops
 *   D18_E_DIVIDEND         the front's waiting row: paid out or withheld,
 *                          with the share price after (that apply's market
 *                          move came before it)
 * A second rampage of LL or BT in one round (the auction's all-pass
 * cycles, 4.5) opens a new round, so no row is merged into another.
 *
 * The spreadsheet (the model is the "Spreadsheet" of 18XX sites): players
 * against fronts (shares held, '*' the President), each player's cash,
 * certificates against the limit and worth, then the fronts' IPO, market,
 * par, price, treasury and monsters; the operating rounds, one line each,
 * every entity's revenue, its fate and the price after; the last rampage's
 * routes in words.  Built from the observation (the whole state: R7) and
 * the annals; ASCII; tables at most 78 columns wide.  Not the hot path.
 */
#include <string.h>

#include "croupier/parts.h"
#include "croupier/text.h"
#include "games/18dracula/annals.h"
#include "games/18dracula/d18_internal.h"

enum { SHEET_COLS = 78 };

/* ---- the fold ---- */

static void mark_spaces(const d18_board *b, d18_annals *a, int l1, int l2)
{
    for (int r = 0; r < b->n_routes && r < D18_MAX_ROUTES; r++)
        if ((b->route[r].a == l1 && b->route[r].b == l2) ||
            (b->route[r].a == l2 && b->route[r].b == l1))
            a->last_space[r >> 6] |= (uint64_t)1 << (r & 63);
}

void d18_annals_fold(const cr_game *g, void *annals, const cr_event *e)
{
    d18_annals *a = annals;
    const d18_board *b = d18_brd(g);
    switch (e->kind) {
    case D18_E_SR:
        a->sr_no = (uint16_t)e->a;
        a->in_or = 0;
        a->or_in_set = 0;
        a->round++;
        break;
    case D18_E_OR:
        a->or_in_set = (uint8_t)(e->b + 1);
        a->in_or = 1;
        a->round++;
        break;
    case D18_E_START:
        if (e->card >= 0 && e->card < D18_NFRONTS) a->price[e->card] = e->a;
        break;
    case D18_E_MARKET:
        if (e->card >= 0 && e->card < D18_NFRONTS) a->price[e->card] = e->b;
        break;
    case D18_E_REVENUE: {
        int ent = e->card;
        if (ent < 0 || ent >= D18_NENT) break;
        uint32_t n = a->n_rows[ent];
        if (n > 0 && a->row[ent][(n - 1) % D18_ANNALS_ROWS].round == a->round) a->round++;
        d18_or_row r = {.round = a->round,
                        .sr_no = a->sr_no,
                        .or_in_set = a->in_or ? a->or_in_set : 0,
                        .revenue = e->a};
        if (ent >= D18_NFRONTS) {
            r.fate = D18_ROW_SPLIT;
        } else if (e->a <= 0) {
            r.fate = D18_ROW_WITHHELD;
            r.price = a->price[ent];
        } else {
            r.fate = D18_ROW_PENDING;
        }
        a->row[ent][n % D18_ANNALS_ROWS] = r;
        a->n_rows[ent] = n + 1;
        a->has_last = 1;
        a->last_ent = (int8_t)ent;
        a->last_revenue = e->a;
        a->last_at = r;
        memset(a->last_space, 0, sizeof a->last_space);
        memset(a->last_stop, 0, sizeof a->last_stop);
        a->route_prev = -1;
        a->n_route_ev = 0;
        break;
    }
    case D18_E_ROUTE: {
        if (!a->has_last) break;
        if (a->n_route_ev < D18_ANNALS_ROUTE_EVENTS) {
            /* field by field: the same events make the same bytes (no padding) */
            cr_event c;
            memset(&c, 0, sizeof c);
            c.kind = e->kind;
            c.seat = e->seat;
            c.other = e->other;
            c.card = e->card;
            c.from = e->from;
            c.to = e->to;
            c.a = e->a;
            c.b = e->b;
            c.seen_by = e->seen_by;
            memcpy(&a->route_ev[a->n_route_ev++], &c, sizeof c);
        }
        int ent, part, howl, loc[8];
        int n = d18_route_event_stops(e, &ent, &part, &howl, loc);
        if (part == 0) a->route_prev = -1;
        for (int i = 0; i < n; i++) {
            int l = loc[i];
            if (l >= b->n_locations) continue;
            a->last_stop[l >> 6] |= (uint64_t)1 << (l & 63);
            if (a->route_prev >= 0) mark_spaces(b, a, a->route_prev, l);
            a->route_prev = l;
        }
        break;
    }
    case D18_E_DIVIDEND: {
        int ent = e->card;
        if (ent < 0 || ent >= D18_NFRONTS || a->n_rows[ent] == 0) break;
        d18_or_row *r = &a->row[ent][(a->n_rows[ent] - 1) % D18_ANNALS_ROWS];
        if (r->fate != D18_ROW_PENDING) break;
        r->fate = e->other ? D18_ROW_PAID : D18_ROW_WITHHELD;
        r->per_share = e->other ? e->b : 0;
        r->price = a->price[ent];
        if (a->has_last && a->last_ent == ent) a->last_at = *r;
        break;
    }
    default: break;
    }
}

/* ---- words ---- */

static const char *ent_id(const d18_board *b, int e)
{
    if (e >= 0 && e < D18_NFRONTS) return b->front[e].id;
    return e == D18_ENT_LL ? "LL" : e == D18_ENT_BT ? "BT" : "?";
}

/* "2.1" (stock round 2's first OR), or "auct" for the opening auction. */
static void row_label(const d18_or_row *r, char *buf, size_t cap)
{
    if (r->or_in_set)
        snprintf(buf, cap, "%u.%u", (unsigned)r->sr_no, (unsigned)r->or_in_set);
    else
        snprintf(buf, cap, "%s", r->sr_no ? "SR" : "auct");
}

static const char *fate_word(int fate)
{
    switch (fate) {
    case D18_ROW_PAID: return "paid";
    case D18_ROW_WITHHELD: return "withheld";
    case D18_ROW_SPLIT: return "split";
    default: return "pending";
    }
}

static void style(cr_tbuf *t, char c) { cr_tb_printf(t, "%c%c", CR_PANEL_STYLE, c); }

static int digits(long v)
{
    char tmp[24];
    return snprintf(tmp, sizeof tmp, "%ld", v);
}

/* ---- the players and fronts ---- */

static void players_table(const cr_game *g, const d18_state *s, cr_tbuf *t)
{
    const d18_board *b = d18_brd(g);
    int fr[D18_NFRONTS], nf = 0;
    for (int f = 0; f < D18_NFRONTS; f++)
        if (s->pres[f] >= 0) fr[nf++] = f;
    cr_tb_printf(t, "%cPlayers and fronts: shares held (* the President)\n", CR_PANEL_TITLE);
    int lim = d18_cert_limit(s->np);
    int cw = 6; /* cash, worth: the widest figure */
    for (int p = 0; p < s->np; p++) {
        int w = digits(d18_value(g, s, p)) + 1;
        if (digits(s->cash[p]) + 1 > w) w = digits(s->cash[p]) + 1;
        if (w > cw) cw = w;
    }
    int lead = 8 + cw + 6 + cw; /* label, cash, certs, worth */
    /* the fronts' columns, in blocks that fit the width */
    int col[D18_NFRONTS];
    for (int i = 0; i < nf; i++) {
        int f = fr[i], w = (int)strlen(b->front[f].id) + 1;
        int v = s->treasury[f] > d18_price(g, s, f) ? s->treasury[f] : d18_price(g, s, f);
        if (digits(v) + 1 > w) w = digits(v) + 1;
        col[i] = (w < 4 ? 4 : w) + 1; /* a gap on each side */
    }
    if (nf == 0) cr_tb_printf(t, "No front has started yet.\n");
    for (int i0 = 0; i0 < nf || (nf == 0 && i0 == 0);) {
        int i1 = i0, width = lead;
        while (i1 < nf && width + col[i1] <= SHEET_COLS) width += col[i1++];
        if (i1 == i0 && i0 < nf) i1 = i0 + 1;
        /* the header */
        style(t, 'e');
        cr_tb_printf(t, "%-8s%*s%6s%*s", "", cw, "Cash", "Certs", cw, "Worth");
        for (int i = i0; i < i1; i++) cr_tb_printf(t, "%*s ", col[i] - 1, b->front[fr[i]].id);
        style(t, '0');
        cr_tb_printf(t, "\n");
        for (int p = 0; p < s->np; p++) {
            int certs = d18_certs(g, s, p);
            cr_tb_printf(t, "P%-7d%*d", p, cw, (int)s->cash[p]);
            char cb[16];
            snprintf(cb, sizeof cb, "%d/%d", certs, lim);
            if (certs > lim) style(t, '-'); /* over the limit: must sell */
            cr_tb_printf(t, "%6s", cb);
            if (certs > lim) style(t, '0');
            cr_tb_printf(t, "%*d", cw, d18_value(g, s, p));
            for (int i = i0; i < i1; i++) {
                int f = fr[i], h = s->held[f][p];
                if (h == 0) {
                    style(t, 'd');
                    cr_tb_printf(t, "%*s ", col[i] - 1, ".");
                    style(t, '0');
                } else {
                    cr_tb_printf(t, "%*d%c", col[i] - 1, h, s->pres[f] == p ? '*' : ' ');
                }
            }
            cr_tb_printf(t, "\n");
        }
        static const char *const what[] = {"IPO", "Market", "Par", "Price", "Treasury", "Monsters"};
        for (int k = 0; k < 6 && nf > 0; k++) {
            cr_tb_printf(t, "%-8s%*s", what[k], cw + 6 + cw, "");
            for (int i = i0; i < i1; i++) {
                int f = fr[i], v = 0, p = s->par_idx[f];
                switch (k) {
                case 0: v = s->ipo[f]; break;
                case 1: v = s->pool[f]; break;
                case 2:
                    v = p >= 0 && p < b->n_par ? b->cell[b->par_row[p]][b->par_col[p]].price : 0;
                    break;
                case 3: v = d18_price(g, s, f); break;
                case 4: v = s->treasury[f]; break;
                default: v = d18_owned(g, s, f, 0); break;
                }
                cr_tb_printf(t, "%*d ", col[i] - 1, v);
            }
            cr_tb_printf(t, "\n");
        }
        if (nf == 0) break;
        i0 = i1;
    }
    /* the bank and the associates' entities */
    cr_tb_printf(t, "Bank %d\n", (int)s->bank);
    for (int e = D18_ENT_LL; e < D18_NENT; e++) {
        int a = e == D18_ENT_LL ? D18_LL : D18_BT, o = s->assoc_owner[a];
        if (o < 0 || (s->assoc_closed >> a & 1)) continue;
        cr_tb_printf(t, "%s (", ent_id(b, e));
        if (o < D18_MAXP)
            cr_tb_printf(t, "P%d", o);
        else if (o >= D18_OWN_FRONT && o < D18_OWN_FRONT + D18_NFRONTS)
            cr_tb_printf(t, "%s", b->front[o - D18_OWN_FRONT].id);
        int k = d18_owned(g, s, e, 0);
        cr_tb_printf(t, "): treasury %d, %d monster%s\n", (int)d18_ent_cash_of(s, e), k,
                     k == 1 ? "" : "s");
    }
}

/* ---- the operating rounds ---- */

static void or_cell(const d18_or_row *r, char *buf, size_t cap)
{
    char fate = r->fate == D18_ROW_PAID       ? 'p'
                : r->fate == D18_ROW_WITHHELD ? 'w'
                : r->fate == D18_ROW_SPLIT    ? 's'
                                              : '?';
    if (r->price > 0)
        snprintf(buf, cap, "%d%c%d", (int)r->revenue, fate, (int)r->price);
    else
        snprintf(buf, cap, "%d%c", (int)r->revenue, fate);
}

static char fate_style(int fate)
{
    return fate == D18_ROW_PAID       ? '+'
           : fate == D18_ROW_WITHHELD ? '-'
           : fate == D18_ROW_SPLIT    ? '0'
                                      : '!';
}

static void or_table(const cr_game *g, const d18_annals *a, cr_tbuf *t)
{
    const d18_board *b = d18_brd(g);
    cr_tb_printf(t, "%cOperating rounds: revenue, p paid/w withheld/s split/? undecided, price\n",
                 CR_PANEL_TITLE);
    int ents[D18_NENT], ne = 0, col[D18_NENT];
    for (int e = 0; e < D18_NENT; e++) {
        uint32_t n = d18_annals_rows(a, e);
        if (n == 0) continue;
        int w = (int)strlen(ent_id(b, e)) + 1;
        for (uint32_t i = 0; i < n; i++) {
            char cell[32];
            or_cell(d18_annals_row(a, e, i), cell, sizeof cell);
            if ((int)strlen(cell) + 1 > w) w = (int)strlen(cell) + 1;
        }
        col[ne] = w;
        ents[ne++] = e;
    }
    if (ne == 0) {
        cr_tb_printf(t, "Nobody has operated yet.\n");
        return;
    }
    for (int i0 = 0; i0 < ne;) {
        int i1 = i0, width = 6;
        while (i1 < ne && width + col[i1] <= SHEET_COLS) width += col[i1++];
        if (i1 == i0) i1 = i0 + 1;
        style(t, 'e');
        cr_tb_printf(t, "%-6s", "OR");
        for (int i = i0; i < i1; i++) cr_tb_printf(t, "%*s", col[i], ent_id(b, ents[i]));
        style(t, '0');
        cr_tb_printf(t, "\n");
        /* the rounds in order: merge the entities' rows by round */
        uint32_t at[D18_NENT] = {0};
        for (;;) {
            uint32_t round = UINT32_MAX;
            const d18_or_row *any = NULL;
            for (int i = i0; i < i1; i++) {
                const d18_or_row *r = d18_annals_row(a, ents[i], at[i]);
                if (r && r->round < round) round = r->round, any = r;
            }
            if (any == NULL) break;
            char label[16];
            row_label(any, label, sizeof label);
            cr_tb_printf(t, "%-6s", label);
            for (int i = i0; i < i1; i++) {
                const d18_or_row *r = d18_annals_row(a, ents[i], at[i]);
                if (r == NULL || r->round != round) {
                    cr_tb_printf(t, "%*s", col[i], "");
                    continue;
                }
                char cell[32];
                or_cell(r, cell, sizeof cell);
                cr_tb_printf(t, "%*s", col[i] - (int)strlen(cell), "");
                style(t, fate_style(r->fate));
                cr_tb_printf(t, "%s", cell);
                style(t, '0');
                at[i]++;
            }
            cr_tb_printf(t, "\n");
        }
        i0 = i1;
    }
}

static void last_rampage(const cr_game *g, const d18_annals *a, cr_tbuf *t)
{
    const d18_board *b = d18_brd(g);
    cr_tb_printf(t, "%cThe last rampage\n", CR_PANEL_TITLE);
    if (!a->has_last) {
        cr_tb_printf(t, "None yet.\n");
        return;
    }
    char label[16];
    row_label(&a->last_at, label, sizeof label);
    cr_tb_printf(t, "%s earned %d (%s %s)", ent_id(b, a->last_ent), (int)a->last_revenue,
                 a->last_at.or_in_set ? "OR" : "in the", label);
    if (a->last_ent < D18_NFRONTS)
        cr_tb_printf(t, ", %s",
                     a->last_at.fate == D18_ROW_PENDING ? "to pay out or withhold"
                                                        : fate_word(a->last_at.fate));
    cr_tb_printf(t, "\n%s", a->n_route_ev ? "Its routes (the map draws them *):\n" : "");
    for (int i = 0; i < a->n_route_ev; i++) {
        char line[1024];
        d18_event_to_str(g, &a->route_ev[i], -1, line, sizeof line);
        cr_tb_printf(t, "  %s\n", line);
    }
}

size_t d18_sheet(const cr_game *g, const void *obs, const void *annals, unsigned flags, char *buf,
                 size_t cap)
{
    (void)flags; /* ASCII whatever the flags */
    const d18_state *s = obs;
    const d18_annals *a = annals;
    cr_tbuf t;
    cr_tb_init(&t, buf, cap);
    players_table(g, s, &t);
    if (a) {
        or_table(g, a, &t);
        last_rampage(g, a, &t);
    }
    return t.len;
}

/* ---- JSON ---- */

static void row_json(cr_tbuf *t, const d18_or_row *r)
{
    char label[16];
    row_label(r, label, sizeof label);
    cr_tb_printf(t,
                 "{\"round\":%u,\"or\":\"%s\",\"sr\":%u,\"or_in_set\":%u,\"revenue\":%d,"
                 "\"fate\":\"%s\"",
                 (unsigned)r->round, label, (unsigned)r->sr_no, (unsigned)r->or_in_set,
                 (int)r->revenue, fate_word(r->fate));
    cr_tb_printf(t, ",\"per_share\":%d,\"price\":%d}", (int)r->per_share, (int)r->price);
}

size_t d18_annals_json(const cr_game *g, const void *annals, char *buf, size_t cap)
{
    const d18_annals *a = annals;
    const d18_board *b = d18_brd(g);
    cr_tbuf t;
    cr_tb_init(&t, buf, cap);
    cr_tb_printf(&t, "{\"history\":[");
    int first = 1;
    for (int e = 0; e < D18_NENT; e++) {
        uint32_t n = d18_annals_rows(a, e);
        if (n == 0) continue;
        cr_tb_printf(&t, "%s{\"entity\":%d,\"id\":", first ? "" : ",", e);
        cr_tb_json_str(&t, ent_id(b, e));
        cr_tb_printf(&t, ",\"rows\":[");
        for (uint32_t i = 0; i < n; i++) {
            if (i) cr_tb_printf(&t, ",");
            row_json(&t, d18_annals_row(a, e, i));
        }
        cr_tb_printf(&t, "]}");
        first = 0;
    }
    cr_tb_printf(&t, "],\"last_rampage\":");
    if (!a->has_last) {
        cr_tb_printf(&t, "null}");
        return t.len;
    }
    cr_tb_printf(&t, "{\"entity\":%d,\"id\":", a->last_ent);
    cr_tb_json_str(&t, ent_id(b, a->last_ent));
    cr_tb_printf(&t, ",\"revenue\":%d,\"at\":", (int)a->last_revenue);
    row_json(&t, &a->last_at);
    cr_tb_printf(&t, ",\"spaces\":[");
    first = 1;
    for (int r = 0; r < b->n_routes && r < D18_MAX_ROUTES; r++)
        if (a->last_space[r >> 6] >> (r & 63) & 1) {
            cr_tb_printf(&t, "%s%d", first ? "" : ",", r);
            first = 0;
        }
    cr_tb_printf(&t, "],\"stops\":[");
    first = 1;
    for (int l = 0; l < b->n_locations && l < D18_MAX_LOCATIONS; l++)
        if (a->last_stop[l >> 6] >> (l & 63) & 1) {
            cr_tb_printf(&t, "%s%d", first ? "" : ",", l);
            first = 0;
        }
    cr_tb_printf(&t, "],\"routes\":[");
    for (int i = 0; i < a->n_route_ev; i++) {
        char line[1024];
        d18_event_to_str(g, &a->route_ev[i], -1, line, sizeof line);
        if (i) cr_tb_printf(&t, ",");
        cr_tb_json_str(&t, line);
    }
    cr_tb_printf(&t, "]}}");
    return t.len;
}
