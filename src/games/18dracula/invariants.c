/* invariants.c — every structural invariant a played 18Dracula state keeps
 * (cr_game_parts.check_invariants): the conformance suite checks it after
 * every step, and the position loader before accepting a position.
 *
 *  - money: bank + players + treasuries + LL/BT = 14,400 (the bank may be
 *    below 0: the reserve, R4), and nobody but the bank holds less than 0;
 *  - certificates: each front's 10 shares are in the IPO, the market or
 *    players' hands; a started front's president holds the most (at least
 *    2, the President's certificate); at most 5 in the market; a front is
 *    floated exactly when 6 or more shares have left the IPO;
 *  - the market: every started front's marker is on a cell;
 *  - cubes: each colour's supply plus the cubes on the map is what the
 *    phases so far released (yellow: all but the tracker cube);
 *  - slots: each location has one filled slot per completed route space;
 *  - offices: a front has as many offices (face up or down) on the map as
 *    its charter says it placed, and an unfloated front none;
 *  - monsters: every copy is somewhere valid;
 *  - LL and BT once closed (by phase 4 or by merging into a front) hold
 *    no money, no monster and no office, except the offices of the one
 *    being merged while its buyer chooses (stage D18_S_MERGE, 8.4).
 */
#include <stdio.h>

#include "games/18dracula/d18_internal.h"

#define BAD(...)                                                                                   \
    do {                                                                                           \
        snprintf(err, errcap, __VA_ARGS__);                                                        \
        return 1;                                                                                  \
    } while (0)

int d18_check_invariants(const cr_game *g, const void *st, char *err, size_t errcap)
{
    const d18_state *s = st;
    const d18_board *b = d18_brd(g);
    if (s->np != g->num_players) BAD("np %d, the table has %d", s->np, g->num_players);
    long money = s->bank + (long)s->minor_cash[0] + s->minor_cash[1];
    for (int p = 0; p < s->np; p++) {
        if (s->cash[p] < 0) BAD("P%d has %d pts", p, s->cash[p]);
        money += s->cash[p];
    }
    for (int f = 0; f < D18_NFRONTS; f++) {
        if (s->treasury[f] < 0) BAD("front %d's treasury is %d", f, s->treasury[f]);
        money += s->treasury[f];
    }
    if (s->minor_cash[0] < 0 || s->minor_cash[1] < 0) BAD("a minor's treasury is below 0");
    long all = s->np >= 2 && s->np <= D18_MAXP ? d18_money_total(b, s->np) : D18_MONEY_TOTAL;
    if (money != all) BAD("money is %ld, not %ld", money, all);

    for (int f = 0; f < D18_NFRONTS; f++) {
        int total = s->ipo[f] + s->pool[f];
        for (int p = 0; p < s->np; p++) total += s->held[f][p];
        if (total != D18_SHARES) BAD("front %d has %d shares", f, total);
        if (s->pool[f] > D18_MARKET_LIMIT)
            BAD("front %d has %d shares in the market", f, s->pool[f]);
        int started = s->pres[f] >= 0, floated = s->floated >> f & 1;
        if (!started) {
            if (s->ipo[f] != D18_SHARES || floated || s->treasury[f])
                BAD("front %d is not started but has shares out or money", f);
            continue;
        }
        if (s->pres[f] >= s->np) BAD("front %d's president is P%d", f, s->pres[f]);
        int h = s->held[f][s->pres[f]];
        if (h < 2) BAD("front %d's president holds %d shares", f, h);
        for (int p = 0; p < s->np; p++)
            if (s->held[f][p] > h) BAD("P%d holds more of front %d than its president", p, f);
        if (floated != (s->ipo[f] <= D18_SHARES - 6))
            BAD("front %d: floated %d, IPO %d", f, floated, s->ipo[f]);
        if (!d18_market_cell(b, s->mrow[f], s->mcol[f]))
            BAD("front %d's marker is off the market", f);
        if (s->par_idx[f] < 0 || s->par_idx[f] >= b->n_par) BAD("front %d has no par", f);
    }

    int placed[D18_NUM_COLOURS] = {0};
    for (int r = 0; r < b->n_routes; r++) {
        int c = s->cube[r];
        if (c > D18_CUBE_PRE || (c == D18_CUBE_PRE) != (b->route[r].pre_existing != 0))
            BAD("route space %d holds %d", r, c);
        if (c != D18_CUBE_NONE && c != D18_CUBE_PRE) placed[c - 1]++;
    }
    for (int c = 0; c < D18_NUM_COLOURS; c++) {
        int released = c == D18_YELLOW ? b->cubes[c] - 1 : 0;
        for (int p = 1; p < s->phase; p++) released += b->release[p][c];
        if (s->supply[c] < 0 || s->supply[c] + placed[c] != released)
            BAD("%s cubes: %d in the supply, %d on the map, %d released", d18_colour_name(c),
                s->supply[c], placed[c], released);
    }
    for (int l = 0; l < b->n_locations; l++) {
        int n = 0;
        for (int i = 0; i < b->loc[l].n_adj; i++) n += s->cube[b->loc[l].adj[i]] != D18_CUBE_NONE;
        if (__builtin_popcount(s->slots[l]) != n)
            BAD("location %s: %d slots for %d routes", b->loc[l].id,
                __builtin_popcount(s->slots[l]), n);
    }
    if (s->castle >= b->n_routes || s->cube[s->castle] == D18_CUBE_NONE)
        BAD("the castle is not on a completed route space");

    int offices[D18_NFRONTS] = {0};
    for (int l = 0; l < b->n_locations; l++)
        for (int i = 0; i < b->loc[l].n_spaces; i++) {
            int o = s->space_occ[l][i];
            if (o == D18_OCC_EMPTY || o == D18_ENT_LL || o == D18_ENT_BT) continue;
            if (o >= D18_OCC_DOWN && o < D18_OCC_DOWN + D18_NFRONTS)
                offices[o - D18_OCC_DOWN]++;
            else if (o >= 0 && o < D18_NFRONTS)
                offices[o]++;
            else
                BAD("office space %d of %s holds %d", i, b->loc[l].id, o);
        }
    for (int f = 0; f < D18_NFRONTS; f++)
        if (offices[f] != s->offices_used[f])
            BAD("front %d has %d offices on the map, %d on its charter used", f, offices[f],
                s->offices_used[f]);

    for (int c = 0; c < b->n_copies; c++) {
        int at = s->mon_at[c];
        if (at > D18_AT_GONE && (at < D18_AT_ENTITY || at >= D18_AT_ENTITY + D18_NENT))
            BAD("monster copy %d is at %d", c, at);
    }
    for (int e = D18_ENT_LL; e <= D18_ENT_BT; e++) {
        int a = e == D18_ENT_LL ? D18_LL : D18_BT;
        if (!(s->assoc_closed >> a & 1)) continue;
        if (s->minor_cash[e - D18_NFRONTS]) BAD("closed %s holds money", d18_assoc_id[a]);
        for (int c = 0; c < b->n_copies; c++)
            if (s->mon_at[c] == D18_AT_ENTITY + e)
                BAD("closed %s holds a monster", d18_assoc_id[a]);
        if (s->stage == D18_S_MERGE && s->merge_ent == e) continue;
        for (int l = 0; l < b->n_locations; l++)
            for (int i = 0; i < b->loc[l].n_spaces; i++)
                if (s->space_occ[l][i] == e) BAD("closed %s has an office", d18_assoc_id[a]);
    }
    for (int a = 0; a < D18_NASSOC; a++) {
        int o = s->assoc_owner[a];
        if (o != D18_UNSOLD && !(o >= 0 && o < s->np) &&
            !(o >= D18_OWN_FRONT && o < D18_OWN_FRONT + D18_NFRONTS))
            BAD("associate %s has owner %d", d18_assoc_id[a], o);
    }
    return 0;
}
