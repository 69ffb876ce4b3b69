/* notation.c — 18Dracula's action text (docs/18dracula-notation.md), the
 * prompt of the decision to take, and the views: every part of the state
 * is public (R7), so an observation is the state itself and the line-mode
 * text shows the part of it a player needs (the phase and the round, every
 * player's holdings, the fronts' charters, LL and BT, the market grid and
 * the built part of the map).
 *
 * Text never quotes anything a client sent: a refused text is named by the
 * caller, and the parser reads at most a few short tokens into fixed
 * buffers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "croupier/text.h"
#include "games/18dracula/d18_internal.h"

static const char *front_id(const cr_game *g, int f) { return d18_brd(g)->front[f].id; }

static int par_price(const cr_game *g, int par)
{
    const d18_board *b = d18_brd(g);
    return b->cell[b->par_row[par]][b->par_col[par]].price;
}

static void route_name(const cr_game *g, int r, cr_tbuf *t)
{
    const d18_board *b = d18_brd(g);
    cr_tb_printf(t, "%s-%s", b->loc[b->route[r].a].id, b->loc[b->route[r].b].id);
}

size_t d18_action_to_str(const cr_game *g, const void *st, cr_action a, char *buf, size_t cap)
{
    (void)st;
    const d18_board *b = d18_brd(g);
    cr_tbuf t;
    cr_tb_init(&t, buf, cap);
    d18_act x;
    if (!d18_decode(a, &x)) {
        cr_tb_printf(&t, "?");
        return t.len;
    }
    switch (x.kind) {
    case D18_K_SEAT: cr_tb_printf(&t, "seating %d", x.o1); break;
    case D18_K_AU_BUY: cr_tb_printf(&t, "buy"); break;
    case D18_K_AU_BID: cr_tb_printf(&t, "bid %s %d", d18_assoc_id[x.o1], x.amt * 5); break;
    case D18_K_AU_PASS:
    case D18_K_PASS: cr_tb_printf(&t, "pass"); break;
    case D18_K_CT_RAISE: cr_tb_printf(&t, "raise %d", x.amt * 5); break;
    case D18_K_CT_DROP: cr_tb_printf(&t, "drop"); break;
    case D18_K_SELL: cr_tb_printf(&t, "sell %s %d", front_id(g, x.o1), x.o2 + 1); break;
    case D18_K_START:
        if (x.o2 < b->n_par)
            cr_tb_printf(&t, "start %s %d", front_id(g, x.o1), par_price(g, x.o2));
        else
            cr_tb_printf(&t, "start %s ?", front_id(g, x.o1));
        break;
    case D18_K_BUY_IPO: cr_tb_printf(&t, "ipo %s", front_id(g, x.o1)); break;
    case D18_K_BUY_POOL: cr_tb_printf(&t, "market %s", front_id(g, x.o1)); break;
    case D18_K_OFFER_AS: cr_tb_printf(&t, "offer %s %d", d18_assoc_id[x.o1], x.amt); break;
    case D18_K_ACCEPT: cr_tb_printf(&t, "accept"); break;
    case D18_K_DECLINE: cr_tb_printf(&t, "decline"); break;
    case D18_K_END_TURN: cr_tb_printf(&t, "end"); break;
    case D18_K_CASTLE_BID: cr_tb_printf(&t, "castle-bid %d", x.amt); break;
    case D18_K_CASTLE_PASS: cr_tb_printf(&t, "castle-pass"); break;
    case D18_K_CASTLE_PLACE:
    case D18_K_BUILD:
        cr_tb_printf(&t, x.kind == D18_K_BUILD ? "build " : "castle ");
        if (x.o1 < b->n_routes)
            route_name(g, x.o1, &t);
        else
            cr_tb_printf(&t, "?");
        break;
    case D18_K_BUILD_DONE: cr_tb_printf(&t, "build-done"); break;
    case D18_K_OFFICE:
        cr_tb_printf(&t, "office %s", x.o1 < b->n_locations ? b->loc[x.o1].id : "?");
        break;
    case D18_K_OFFICE_SKIP: cr_tb_printf(&t, "office-skip"); break;
    case D18_K_RAMPAGE: cr_tb_printf(&t, "rampage"); break;
    case D18_K_PAY: cr_tb_printf(&t, "pay"); break;
    case D18_K_RETAIN: cr_tb_printf(&t, "retain"); break;
    case D18_K_BUY_DONE: cr_tb_printf(&t, "buy-done"); break;
    case D18_K_BUY_BANK:
    case D18_K_BUY_MKT:
    case D18_K_EM_BUY:
    case D18_K_DISCARD: {
        static const char *const w[] = {[D18_K_BUY_BANK] = "buy",
                                        [D18_K_BUY_MKT] = "buy-market",
                                        [D18_K_EM_BUY] = "emergency-buy",
                                        [D18_K_DISCARD] = "discard"};
        cr_tb_printf(&t, "%s %s", w[x.kind], x.o1 < b->n_monsters ? b->monster[x.o1].id : "?");
        break;
    }
    case D18_K_OFFER_MON:
        cr_tb_printf(&t, "offer-monster %s %s %d", front_id(g, x.o1),
                     x.o2 < b->n_monsters ? b->monster[x.o2].id : "?", x.amt);
        break;
    case D18_K_EM_SELL:
        cr_tb_printf(&t, "emergency-sell %s %d", front_id(g, x.o1), x.o2 + 1);
        break;
    case D18_K_OFFER_AF: cr_tb_printf(&t, "front-offer %s %d", d18_assoc_id[x.o1], x.amt); break;
    case D18_K_MERGE_KEEP: cr_tb_printf(&t, "merge-keep"); break;
    case D18_K_MERGE_REMOVE: cr_tb_printf(&t, "merge-remove"); break;
    case D18_K_JH_REMOVE:
    case D18_K_JH_ADD:
        cr_tb_printf(&t, x.kind == D18_K_JH_ADD ? "jh-add " : "jh-remove ");
        if (x.o1 < b->n_routes)
            route_name(g, x.o1, &t);
        else
            cr_tb_printf(&t, "?");
        break;
    case D18_K_CHURCH:
    case D18_K_MOLEMEN:
        cr_tb_printf(&t, "%s %s", x.kind == D18_K_CHURCH ? "church" : "molemen",
                     x.o1 < b->n_locations ? b->loc[x.o1].id : "?");
        break;
    default: cr_tb_printf(&t, "?"); break;
    }
    return t.len;
}

/* ---- parsing ---- */

enum { TOK = 24, NTOK = 4 };

static int split(const char *s, char tok[NTOK][TOK])
{
    int n = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t') s++;
        if (!*s) break;
        if (n == NTOK) return -1;
        int len = 0;
        while (*s && *s != ' ' && *s != '\t') {
            if (len == TOK - 1) return -1;
            tok[n][len++] = *s++;
        }
        tok[n][len] = 0;
        n++;
    }
    return n;
}

static int number(const char *s, int lo, int hi, int *out)
{
    if (!*s || strlen(s) > 9) return 0;
    for (const char *p = s; *p; p++)
        if (*p < '0' || *p > '9') return 0;
    long v = strtol(s, NULL, 10);
    if (v < lo || v > hi) return 0;
    *out = (int)v;
    return 1;
}

static int find_front(const cr_game *g, const char *id)
{
    return d18_board_find_front(d18_brd(g), id);
}

static int find_assoc(const char *id)
{
    for (int a = 0; a < D18_NASSOC; a++)
        if (strcmp(d18_assoc_id[a], id) == 0) return a;
    return -1;
}

static int find_route(const cr_game *g, const char *s)
{
    char a[TOK];
    const char *dash = strchr(s, '-');
    if (!dash || (size_t)(dash - s) >= sizeof a) return -1;
    memcpy(a, s, (size_t)(dash - s));
    a[dash - s] = 0;
    const d18_board *b = d18_brd(g);
    int la = d18_board_find_location(b, a), lb = d18_board_find_location(b, dash + 1);
    if (la < 0 || lb < 0) return -1;
    return d18_board_find_route(b, la, lb);
}

cr_status d18_str_to_action(const cr_game *g, const void *st, const char *s, cr_action *out)
{
    const d18_state *S = st;
    const d18_board *b = d18_brd(g);
    char tok[NTOK][TOK];
    int n = split(s, tok), v = 0, o = -1, o2 = -1;
    if (n < 1) return CR_ERR_PARSE;
    const char *w = tok[0];
#define NARGS(k)                                                                                   \
    do {                                                                                           \
        if (n != (k) + 1) return CR_ERR_PARSE;                                                     \
    } while (0)
    if (!strcmp(w, "seating")) {
        NARGS(1);
        if (!number(tok[1], 0, 719, &v)) return CR_ERR_PARSE;
        *out = d18_encode(D18_K_SEAT, v, 0, 0);
    } else if (!strcmp(w, "pass")) {
        NARGS(0);
        *out = d18_encode(S->stage == D18_S_AUCTION ? D18_K_AU_PASS : D18_K_PASS, 0, 0, 0);
    } else if (!strcmp(w, "buy") && n == 1) {
        *out = d18_encode(D18_K_AU_BUY, 0, 0, 0);
    } else if (!strcmp(w, "bid")) {
        NARGS(2);
        if ((o = find_assoc(tok[1])) < 0 || !number(tok[2], 0, 5 * (D18_BID_UNITS - 1), &v) ||
            v % 5)
            return CR_ERR_PARSE;
        *out = d18_encode(D18_K_AU_BID, o, 0, v / 5);
    } else if (!strcmp(w, "raise")) {
        NARGS(1);
        if (!number(tok[1], 0, 5 * (D18_BID_UNITS - 1), &v) || v % 5) return CR_ERR_PARSE;
        *out = d18_encode(D18_K_CT_RAISE, 0, 0, v / 5);
    } else if (!strcmp(w, "drop")) {
        NARGS(0);
        *out = d18_encode(D18_K_CT_DROP, 0, 0, 0);
    } else if (!strcmp(w, "sell") || !strcmp(w, "emergency-sell")) {
        NARGS(2);
        if ((o = find_front(g, tok[1])) < 0 || !number(tok[2], 1, D18_MARKET_LIMIT, &v))
            return CR_ERR_PARSE;
        *out = d18_encode(w[0] == 's' ? D18_K_SELL : D18_K_EM_SELL, o, v - 1, 0);
    } else if (!strcmp(w, "start")) {
        NARGS(2);
        if ((o = find_front(g, tok[1])) < 0 || !number(tok[2], 1, D18_MAX_PRICE, &v))
            return CR_ERR_PARSE;
        for (int p = 0; p < b->n_par; p++)
            if (par_price(g, p) == v) o2 = p;
        if (o2 < 0) return CR_ERR_PARSE;
        *out = d18_encode(D18_K_START, o, o2, 0);
    } else if (!strcmp(w, "ipo") || !strcmp(w, "market")) {
        NARGS(1);
        if ((o = find_front(g, tok[1])) < 0) return CR_ERR_PARSE;
        *out = d18_encode(w[0] == 'i' ? D18_K_BUY_IPO : D18_K_BUY_POOL, o, 0, 0);
    } else if (!strcmp(w, "offer")) {
        NARGS(2);
        if ((o = find_assoc(tok[1])) < 0 || !number(tok[2], 0, D18_AMT - 1, &v))
            return CR_ERR_PARSE;
        *out = d18_encode(D18_K_OFFER_AS, o, 0, v);
    } else if (!strcmp(w, "accept") || !strcmp(w, "decline")) {
        NARGS(0);
        *out = d18_encode(w[0] == 'a' ? D18_K_ACCEPT : D18_K_DECLINE, 0, 0, 0);
    } else if (!strcmp(w, "end")) {
        NARGS(0);
        *out = d18_encode(D18_K_END_TURN, 0, 0, 0);
    } else if (!strcmp(w, "castle-bid")) {
        NARGS(1);
        if (!number(tok[1], 0, D18_AMT - 1, &v)) return CR_ERR_PARSE;
        *out = d18_encode(D18_K_CASTLE_BID, 0, 0, v);
    } else if (!strcmp(w, "castle-pass")) {
        NARGS(0);
        *out = d18_encode(D18_K_CASTLE_PASS, 0, 0, 0);
    } else if (!strcmp(w, "castle") || !strcmp(w, "build")) {
        NARGS(1);
        if ((o = find_route(g, tok[1])) < 0) return CR_ERR_PARSE;
        *out = d18_encode(w[0] == 'b' ? D18_K_BUILD : D18_K_CASTLE_PLACE, o, 0, 0);
    } else if (!strcmp(w, "office")) {
        NARGS(1);
        if ((o = d18_board_find_location(b, tok[1])) < 0) return CR_ERR_PARSE;
        *out = d18_encode(D18_K_OFFICE, o, 0, 0);
    } else if (!strcmp(w, "front-offer")) {
        NARGS(2);
        if ((o = find_assoc(tok[1])) < 0 || !number(tok[2], 0, D18_AMT - 1, &v))
            return CR_ERR_PARSE;
        *out = d18_encode(D18_K_OFFER_AF, o, 0, v);
    } else if (!strcmp(w, "jh-remove") || !strcmp(w, "jh-add")) {
        NARGS(1);
        if ((o = find_route(g, tok[1])) < 0) return CR_ERR_PARSE;
        *out = d18_encode(w[3] == 'a' ? D18_K_JH_ADD : D18_K_JH_REMOVE, o, 0, 0);
    } else if (!strcmp(w, "church") || !strcmp(w, "molemen")) {
        NARGS(1);
        if ((o = d18_board_find_location(b, tok[1])) < 0) return CR_ERR_PARSE;
        *out = d18_encode(w[0] == 'c' ? D18_K_CHURCH : D18_K_MOLEMEN, o, 0, 0);
    } else if (!strcmp(w, "offer-monster")) {
        NARGS(3);
        if ((o = find_front(g, tok[1])) < 0 || (o2 = d18_board_find_monster(b, tok[2])) < 0 ||
            !number(tok[3], 0, D18_AMT - 1, &v))
            return CR_ERR_PARSE;
        *out = d18_encode(D18_K_OFFER_MON, o, o2, v);
    } else {
        static const struct {
            const char *w;
            int kind, monster;
        } plain[] = {
            {"build-done", D18_K_BUILD_DONE, 0}, {"office-skip", D18_K_OFFICE_SKIP, 0},
            {"rampage", D18_K_RAMPAGE, 0},       {"pay", D18_K_PAY, 0},
            {"retain", D18_K_RETAIN, 0},         {"buy-done", D18_K_BUY_DONE, 0},
            {"buy", D18_K_BUY_BANK, 1},          {"buy-market", D18_K_BUY_MKT, 1},
            {"emergency-buy", D18_K_EM_BUY, 1},  {"discard", D18_K_DISCARD, 1},
            {"merge-keep", D18_K_MERGE_KEEP, 0}, {"merge-remove", D18_K_MERGE_REMOVE, 0},
        };
        for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
            if (strcmp(w, plain[i].w)) continue;
            NARGS(plain[i].monster);
            if (plain[i].monster && (o = d18_board_find_monster(b, tok[1])) < 0)
                return CR_ERR_PARSE;
            *out = d18_encode(plain[i].kind, plain[i].monster ? o : 0, 0, 0);
            return CR_OK;
        }
        return CR_ERR_PARSE;
    }
#undef NARGS
    return CR_OK;
}

/* ---- the prompt ---- */

static const char *ent_name(const cr_game *g, int e)
{
    return e < D18_NFRONTS ? front_id(g, e) : e == D18_ENT_LL ? "LL" : "BT";
}

size_t d18_prompt(const cr_game *g, const void *st, char *buf, size_t cap)
{
    const d18_state *s = st;
    cr_tbuf t;
    cr_tb_init(&t, buf, cap);
    int e = s->op_ent;
    switch (s->stage) {
    case D18_S_AUCTION: {
        int cur = -1;
        for (int a = D18_NASSOC - 1; a >= 0; a--)
            if (s->assoc_owner[a] == D18_UNSOLD) cur = a;
        cr_tb_printf(&t, "associate auction: buy %s for %d, bid on another, or pass",
                     cur >= 0 ? d18_assoc_id[cur] : "?", cur >= 0 ? s->assoc_price_now[cur] : 0);
        break;
    }
    case D18_S_CONTEST:
        cr_tb_printf(&t, "contest for %s: raise or drop", d18_assoc_id[s->ct_assoc]);
        break;
    case D18_S_SR:
        cr_tb_printf(&t, "stock round %d: sell, buy one certificate, sell; or pass", s->sr_no);
        break;
    case D18_S_SR_OFFER:
        cr_tb_printf(&t, "P%d offers %d for your %s: accept or decline", s->offer_from,
                     s->offer_price, d18_assoc_id[s->offer_assoc]);
        break;
    case D18_S_CASTLE:
        cr_tb_printf(&t, "castle auction: bid above %d or pass", s->castle_top);
        break;
    case D18_S_CASTLE_PLACE: cr_tb_printf(&t, "place the castle on a completed route"); break;
    case D18_S_OR_OFFER:
        cr_tb_printf(&t, "%s offers %d for your %s's %s: accept or decline", ent_name(g, e),
                     s->offer_price, front_id(g, s->offer_to),
                     d18_brd(g)->monster[s->offer_type].id);
        break;
    case D18_S_OR_AOFFER:
        cr_tb_printf(&t, "%s offers %d for your %s: accept or decline", ent_name(g, e),
                     s->offer_price, s->offer_assoc >= 0 ? d18_assoc_id[s->offer_assoc] : "?");
        break;
    case D18_S_MERGE:
        cr_tb_printf(&t, "%s takes over %s's office: keep it as one of %s's, or remove it",
                     ent_name(g, e), s->merge_ent == D18_ENT_LL ? "LL" : "BT", ent_name(g, e));
        break;
    case D18_S_DISCARD:
        cr_tb_printf(&t, "%s is over the monster limit: discard one",
                     ent_name(g, d18_next_discarder(g, s)));
        break;
    case D18_S_OR: {
        static const char *const step[] = {"build", "place an office", "rampage", "pay or retain",
                                           "buy monsters"};
        cr_tb_printf(&t, "%s operates: %s", ent_name(g, e), step[s->or_step]);
        if (s->or_step == D18_OS_DIVIDEND) cr_tb_printf(&t, " (revenue %d)", s->revenue);
        break;
    }
    default: cr_tb_printf(&t, "the game is over"); break;
    }
    return t.len;
}

/* ---- views ---- */

void d18_observe(const cr_game *g, const void *st, int seat, void *obs)
{
    (void)seat; /* R7: nothing is hidden */
    memcpy(obs, st, g->state_size);
}

cr_status d18_sample(const cr_game *g, const void *obs, cr_rng *rng, void *st, cr_ctx *cx)
{
    (void)rng;
    (void)cx;
    memcpy(st, obs, g->state_size);
    return CR_OK;
}

static const char *zone_name(int z)
{
    return z == D18_WHITE ? "white" : z == D18_ZONE_YELLOW ? "yellow" : "orange";
}

size_t d18_obs_to_text(const cr_game *g, const void *obs, char *buf, size_t cap)
{
    const d18_state *s = obs;
    const d18_board *b = d18_brd(g);
    cr_tbuf t;
    cr_tb_init(&t, buf, cap);
    cr_tb_printf(&t, "Phase %d (tracker %d/%d), bank %d%s, cubes Y%d G%d B%d R%d\n", s->phase,
                 s->tracker, s->phase < 5 ? b->sales[s->phase - 1] : 0, s->bank,
                 s->broke_when ? " (broken)" : "", s->supply[0], s->supply[1], s->supply[2],
                 s->supply[3]);
    /* players */
    for (int p = 0; p < s->np; p++) {
        cr_tb_printf(&t, "P%d: %d pts, %d/%d certificates;", p, s->cash[p], d18_certs(g, s, p),
                     d18_cert_limit(s->np));
        for (int a = 0; a < D18_NASSOC; a++)
            if (s->assoc_owner[a] == p)
                cr_tb_printf(&t, " %s%s", d18_assoc_id[a],
                             s->assoc_closed >> a & 1 ? "(closed)" : "");
        for (int f = 0; f < D18_NFRONTS; f++)
            if (s->held[f][p])
                cr_tb_printf(&t, " %s:%d%s", front_id(g, f), s->held[f][p] * 10,
                             s->pres[f] == p ? "%P" : "%");
        cr_tb_printf(&t, "%s\n", p == s->priority ? " [priority]" : "");
    }
    /* associates in the auction */
    if (s->stage == D18_S_AUCTION || s->stage == D18_S_CONTEST) {
        cr_tb_printf(&t, "Associates:");
        for (int a = 0; a < D18_NASSOC; a++) {
            cr_tb_printf(&t, " %s ", d18_assoc_id[a]);
            if (s->assoc_owner[a] >= 0)
                cr_tb_printf(&t, "P%d", s->assoc_owner[a]);
            else
                cr_tb_printf(&t, "%d", s->assoc_price_now[a]);
            for (int p = 0; p < s->np; p++)
                if (s->bid[a][p]) cr_tb_printf(&t, " (P%d bids %d)", p, s->bid[a][p]);
        }
        cr_tb_printf(&t, "\n");
    }
    /* charters */
    for (int f = 0; f < D18_NFRONTS; f++) {
        if (s->pres[f] < 0) continue;
        cr_tb_printf(&t,
                     "%s (P%d) par %d, price %d %s, IPO %d, market %d, %s%d pts, offices %d/%d,"
                     " monsters",
                     front_id(g, f), s->pres[f], par_price(g, s->par_idx[f]), d18_price(g, s, f),
                     zone_name(d18_zone_of(g, s, f)), s->ipo[f], s->pool[f],
                     s->floated >> f & 1 ? "" : "not floated, ", s->treasury[f], s->offices_used[f],
                     b->front[f].n_offices);
        for (int c = 0; c < b->n_copies; c++)
            if (s->mon_at[c] == D18_AT_ENTITY + f)
                cr_tb_printf(&t, " %s", b->monster[d18_copy_type(b, c)].id);
        for (int a = 0, any = 0; a < D18_NASSOC; a++)
            if (s->assoc_owner[a] == D18_OWN_FRONT + f)
                cr_tb_printf(&t, "%s%s%s", any++ ? " " : ", associates ", d18_assoc_id[a],
                             s->assoc_closed >> a & 1 ? "(closed)" : "");
        cr_tb_printf(&t, "\n");
    }
    for (int e = D18_ENT_LL; e <= D18_ENT_BT; e++) {
        int a = e == D18_ENT_LL ? D18_LL : D18_BT;
        if (s->assoc_closed >> a & 1) continue;
        cr_tb_printf(&t, "%s: %d pts, monsters", e == D18_ENT_LL ? "LL" : "BT",
                     s->minor_cash[e - D18_NFRONTS]);
        for (int c = 0; c < b->n_copies; c++)
            if (s->mon_at[c] == D18_AT_ENTITY + e)
                cr_tb_printf(&t, " %s", b->monster[d18_copy_type(b, c)].id);
        cr_tb_printf(&t, "\n");
    }
    /* the market grid: price, then the fronts on the cell */
    cr_tb_printf(&t, "Market:\n");
    for (int r = 0; r < b->market_rows; r++) {
        for (int c = 0; c < b->market_cols; c++) {
            const d18_cell *cell = d18_market_cell(b, r, c);
            if (!cell) {
                cr_tb_printf(&t, "     .");
                continue;
            }
            char mark = ' ';
            for (int f = 0; f < D18_NFRONTS; f++)
                if (s->pres[f] >= 0 && s->mrow[f] == r && s->mcol[f] == c) mark = '*';
            cr_tb_printf(&t, " %4d%c", cell->price, mark);
        }
        for (int f = 0; f < D18_NFRONTS; f++)
            if (s->pres[f] >= 0 && s->mrow[f] == r)
                cr_tb_printf(&t, " %s@%d", front_id(g, f), s->mcol[f]);
        cr_tb_printf(&t, "\n");
    }
    /* the map: cities with offices or built routes, and the built routes */
    cr_tb_printf(&t, "Built:");
    for (int r = 0; r < b->n_routes; r++) {
        if (s->cube[r] == D18_CUBE_NONE) continue;
        cr_tb_printf(&t, " ");
        route_name(g, r, &t);
        cr_tb_printf(&t, "(%s%s)",
                     s->cube[r] == D18_CUBE_PRE ? "pre" : d18_colour_name(s->cube[r] - 1),
                     r == s->castle ? ",castle" : "");
    }
    cr_tb_printf(&t, "\nCities:");
    for (int l = 0; l < b->n_locations; l++) {
        const d18_location *lo = &b->loc[l];
        if (lo->kind != D18_CITY) continue;
        int any = 0;
        for (int i = 0; i < lo->n_spaces; i++) any |= s->space_occ[l][i] != D18_OCC_EMPTY;
        if (!any && !s->slots[l]) continue;
        int lv = d18_level(g, s, l);
        cr_tb_printf(&t, " %s[%s %d:", lo->id, d18_colour_name(lv), d18_city_value(b, l, lv));
        for (int i = 0; i < lo->n_spaces; i++) {
            int o = s->space_occ[l][i];
            cr_tb_printf(&t, " %s",
                         o == D18_OCC_EMPTY  ? "-"
                         : o >= D18_OCC_DOWN ? "v"
                                             : ent_name(g, o));
        }
        cr_tb_printf(&t, "]");
    }
    cr_tb_printf(&t, "\n");
    return t.len;
}
