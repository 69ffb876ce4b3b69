/* data.c — 18Dracula's read-only data as JSON (cr_game_parts.data_json),
 * for clients that draw the table (the browser's map, web/games/18dracula.js).
 *
 * The observation JSON (position.c) is the state: indexes into the board.
 * This object is what those indexes mean: the board the game was created
 * with (its locations at their drawing coordinates, route spaces, fronts,
 * LL and BT, cubes, phase chart, market, monster roster), the associates'
 * names and prices, and the names of the state's encodings (stages, the
 * steps of an operating turn, where a monster copy is, office occupants),
 * so a client reads the state without copying this room's enums.  Only the
 * game's own data is written, in file order; the same board gives the same
 * bytes.  Allocates nothing (snprintf semantics).
 */
#include <stdio.h>

#include "croupier/text.h"
#include "croupier/parts.h"
#include "games/18dracula/d18_internal.h"

static const char *const kind_name[] = {"city", "town", "off"};
static const char *const zone_name[] = {"white", "yellow", "orange"};
static const char *const cf_name[] = {"", "claw", "fang"};

static void colour(cr_tbuf *t, int c)
{
    if (c < 0 || c >= D18_NUM_COLOURS)
        cr_tb_printf(t, "null");
    else
        cr_tb_printf(t, "\"%s\"", d18_colour_name(c));
}

static void ints(cr_tbuf *t, const int16_t *v, int n)
{
    cr_tb_printf(t, "[");
    for (int i = 0; i < n; i++) cr_tb_printf(t, "%s%d", i ? "," : "", v[i]);
    cr_tb_printf(t, "]");
}

static void u8s(cr_tbuf *t, const uint8_t *v, int n)
{
    cr_tb_printf(t, "[");
    for (int i = 0; i < n; i++) cr_tb_printf(t, "%s%d", i ? "," : "", v[i]);
    cr_tb_printf(t, "]");
}

static void locations(cr_tbuf *t, const d18_board *b)
{
    cr_tb_printf(t, ",\n\"locations\":[");
    for (int i = 0; i < b->n_locations && i < D18_MAX_LOCATIONS; i++) {
        const d18_location *l = &b->loc[i];
        cr_tb_printf(t, "%s\n{\"id\":", i ? "," : "");
        cr_tb_json_str(t, l->id);
        cr_tb_printf(t, ",\"name\":");
        cr_tb_json_str(t, l->name);
        cr_tb_printf(t, ",\"kind\":\"%s\",\"x\":%d,\"y\":%d", kind_name[l->kind % 3], l->x, l->y);
        if (l->kind == D18_CITY) {
            cr_tb_printf(t, ",\"spaces\":[");
            for (int k = 0; k < l->n_spaces && k < D18_MAX_OFFICE_SPACES; k++) {
                if (k) cr_tb_printf(t, ",");
                colour(t, l->space_band[k]);
            }
            cr_tb_printf(t, "],\"revenue\":[");
            for (int c = 0; c < D18_NUM_COLOURS; c++)
                cr_tb_printf(t, c ? ",%d" : "%d", l->city_val[c]);
            cr_tb_printf(t, "],\"printed\":[");
            for (int c = 0; c < D18_NUM_COLOURS; c++) {
                if (c) cr_tb_printf(t, ",");
                if (l->city_rev[c] == D18_ABSENT)
                    cr_tb_printf(t, "null");
                else
                    cr_tb_printf(t, "%d", l->city_rev[c]);
            }
            cr_tb_printf(t, "]");
        } else if (l->kind == D18_OFF) {
            cr_tb_printf(t, ",\"revenue\":");
            ints(t, l->off_rev, D18_NUM_PHASES);
            cr_tb_printf(t, ",\"fd\":%s", l->fd ? "true" : "false");
        }
        cr_tb_printf(t, "}");
    }
    cr_tb_printf(t, "]");
}

static void routes(cr_tbuf *t, const d18_board *b)
{
    cr_tb_printf(t, ",\n\"routes\":[");
    for (int r = 0; r < b->n_routes && r < D18_MAX_ROUTES; r++) {
        const d18_route *rt = &b->route[r];
        cr_tb_printf(t, "%s\n{\"a\":%d,\"b\":%d,\"colour\":", r ? "," : "", rt->a, rt->b);
        colour(t, rt->colour);
        cr_tb_printf(t, ",\"cost\":%d,\"pre\":%s,\"castle_start\":%s}", rt->cost,
                     rt->pre_existing ? "true" : "false", rt->castle_start ? "true" : "false");
    }
    cr_tb_printf(t, "]");
}

static void fronts(cr_tbuf *t, const d18_board *b)
{
    cr_tb_printf(t, ",\n\"fronts\":[");
    for (int f = 0; f < D18_NUM_FRONTS; f++) {
        const d18_front *fr = &b->front[f];
        cr_tb_printf(t, "%s\n{\"id\":", f ? "," : "");
        cr_tb_json_str(t, fr->id);
        cr_tb_printf(t, ",\"name\":");
        cr_tb_json_str(t, fr->name);
        cr_tb_printf(t, ",\"home\":%d,\"home_space\":%d,\"office_cost\":", fr->home,
                     fr->home_space);
        int n = fr->n_offices <= D18_MAX_FRONT_OFFICES ? fr->n_offices : D18_MAX_FRONT_OFFICES;
        ints(t, fr->office_cost, n);
        cr_tb_printf(t, "}");
    }
    cr_tb_printf(t, "]");
    cr_tb_printf(t,
                 ",\n\"ll\":{\"city\":%d,\"space\":%d,\"monster\":%d},"
                 "\"bt\":{\"city\":%d,\"space\":%d,\"monster\":%d}",
                 b->ll.city, b->ll.space, b->ll.monster, b->bt.city, b->bt.space, b->bt.monster);
}

static void market(cr_tbuf *t, const d18_board *b)
{
    int rows = b->market_rows <= D18_MAX_MARKET_ROWS ? b->market_rows : D18_MAX_MARKET_ROWS;
    int cols = b->market_cols <= D18_MAX_MARKET_COLS ? b->market_cols : D18_MAX_MARKET_COLS;
    cr_tb_printf(t, ",\n\"market\":{\"rows\":%d,\"cols\":%d,\"cells\":[", rows, cols);
    for (int r = 0; r < rows; r++) {
        cr_tb_printf(t, "%s\n[", r ? "," : "");
        for (int c = 0; c < cols; c++) {
            const d18_cell *x = &b->cell[r][c];
            if (x->price <= 0)
                cr_tb_printf(t, "%snull", c ? "," : "");
            else
                cr_tb_printf(t, "%s{\"price\":%d,\"zone\":\"%s\",\"par\":%s}", c ? "," : "",
                             x->price, zone_name[x->zone % 3], x->par ? "true" : "false");
        }
        cr_tb_printf(t, "]");
    }
    cr_tb_printf(t, "],\"par\":[");
    for (int i = 0; i < b->n_par && i < D18_MAX_PAR; i++)
        cr_tb_printf(t, "%s[%d,%d]", i ? "," : "", b->par_row[i], b->par_col[i]);
    cr_tb_printf(t, "]}");
}

static void monsters(cr_tbuf *t, const d18_board *b)
{
    cr_tb_printf(t, ",\n\"monsters\":[");
    for (int m = 0; m < b->n_monsters && m < D18_MAX_MONSTER_TYPES; m++) {
        const d18_monster *x = &b->monster[m];
        cr_tb_printf(t, "%s\n{\"id\":", m ? "," : "");
        cr_tb_json_str(t, x->id);
        cr_tb_printf(t, ",\"name\":");
        cr_tb_json_str(t, x->name);
        cr_tb_printf(t,
                     ",\"copies\":%d,\"first_copy\":%d,\"phase\":%d,\"price\":%d,\"eaten\":%d,"
                     "\"move\":\"%s\",\"n\":%d,\"town_rev\":%d,\"exports\":%s,\"linger\":%d,"
                     "\"cf\":\"%s\",\"nurse\":%s}",
                     x->copies, x->first_copy, x->phase, x->price, x->eaten, d18_move_name(x->move),
                     x->n, x->town_rev, x->exports ? "true" : "false", x->linger,
                     cf_name[x->cf % 3], (x->flags & D18_F_NURSE) ? "true" : "false");
    }
    cr_tb_printf(t, "]");
}

static void associates(cr_tbuf *t, const d18_board *b)
{
    cr_tb_printf(t, ",\n\"associates\":[");
    for (int a = 0; a < D18_NASSOC; a++) {
        cr_tb_printf(t, "%s{\"id\":", a ? "," : "");
        cr_tb_json_str(t, d18_assoc_id[a]);
        cr_tb_printf(t, ",\"name\":");
        cr_tb_json_str(t, d18_assoc_name[a]);
        cr_tb_printf(t, ",\"price\":%d,\"revenue\":%d}", b->assoc_price[a], d18_assoc_revenue[a]);
    }
    cr_tb_printf(t, "]");
}

/* The state's encodings a client needs to read the observation. */
static void encodings(cr_tbuf *t)
{
    cr_tb_printf(t,
                 ",\n\"encoding\":{\"stages\":[\"seating\",\"auction\",\"contest\",\"stock round\","
                 "\"associate offer\",\"castle auction\",\"castle placement\",\"operating round\","
                 "\"monster offer\",\"monster discard\",\"associate offer to a front\","
                 "\"office merge\",\"over\"],"
                 "\"or_steps\":[\"build\",\"office\",\"rampage\",\"dividend\",\"buy\"],"
                 "\"stage_or\":%d,\"stage_over\":%d,\"own_front\":%d,\"unsold\":%d,"
                 "\"occ_empty\":%d,\"occ_down\":%d,\"ent_ll\":%d,\"ent_bt\":%d,"
                 "\"cube_pre\":%d,\"at_bank\":%d,\"at_market\":%d,\"at_gone\":%d,"
                 "\"at_entity\":%d,\"shares\":%d,\"max_players\":%d,"
                 "\"ends\":[\"\",\"the bank broke\",\"no progress\",\"a bankruptcy\","
                 "\"a bankruptcy\"]}",
                 D18_S_OR, D18_S_OVER, D18_OWN_FRONT, D18_UNSOLD, D18_OCC_EMPTY, D18_OCC_DOWN,
                 D18_ENT_LL, D18_ENT_BT, D18_CUBE_PRE, D18_AT_BANK, D18_AT_MARKET, D18_AT_GONE,
                 D18_AT_ENTITY, D18_SHARES, D18_MAXP);
}

size_t d18_data_json(const cr_game *g, char *buf, size_t cap)
{
    const d18_board *b = d18_brd(g);
    cr_tbuf t;
    cr_tb_init(&t, buf, cap);
    cr_tb_printf(&t, "{\"game\":\"18dracula\",\"data_hash\":\"%016llx\",\"title\":",
                 (unsigned long long)g->data_hash);
    cr_tb_json_str(&t, b->title);
    locations(&t, b);
    routes(&t, b);
    cr_tb_printf(&t, ",\n\"castle_start\":%d", b->castle_start);
    fronts(&t, b);
    cr_tb_printf(&t, ",\n\"cubes\":");
    ints(&t, b->cubes, D18_NUM_COLOURS);
    cr_tb_printf(&t, ",\"release\":[");
    for (int p = 0; p < D18_NUM_PHASES; p++) {
        if (p) cr_tb_printf(&t, ",");
        ints(&t, b->release[p], D18_NUM_COLOURS);
    }
    cr_tb_printf(&t, "],\"sales\":");
    ints(&t, b->sales, D18_NUM_PHASES);
    cr_tb_printf(&t, ",\"limit\":");
    u8s(&t, b->limit, D18_NUM_PHASES);
    cr_tb_printf(&t, ",\"ors\":");
    u8s(&t, b->ors, D18_NUM_PHASES);
    market(&t, b);
    monsters(&t, b);
    associates(&t, b);
    encodings(&t);
    cr_tb_printf(&t, "}\n");
    return t.len;
}

/* The observation JSON (def.obs_to_json): the position (position.c: the
 * whole state, R7) and a "display" object of what a client shows but would
 * otherwise have to work out by the rules: each front's share price, zone
 * and par, each player's certificates (and the limit) and worth, each
 * city's level and revenue now, and where the monsters of each type are. */
size_t d18_obs_json(const cr_game *g, const void *obs, char *buf, size_t cap)
{
    const d18_state *s = obs;
    const d18_board *b = d18_brd(g);
    size_t head = d18_serialize(g, obs, NULL, 0);
    cr_tbuf t;
    cr_tb_init(&t, buf, cap);
    /* the position without its closing "}\n" (a short buffer gets its prefix) */
    if (cap > 0) d18_serialize(g, obs, buf, cap);
    t.len = head >= 2 ? head - 2 : 0;
    if (t.len < cap) buf[t.len] = '\0';
    cr_tb_printf(&t, ",\n\"display\":{\"price\":[");
    for (int f = 0; f < D18_NFRONTS; f++)
        cr_tb_printf(&t, "%s%d", f ? "," : "", d18_price(g, s, f));
    cr_tb_printf(&t, "],\"zone\":[");
    for (int f = 0; f < D18_NFRONTS; f++) {
        int z = d18_zone_of(g, s, f);
        if (z < 0 || z > 2)
            cr_tb_printf(&t, "%snull", f ? "," : "");
        else
            cr_tb_printf(&t, "%s\"%s\"", f ? "," : "", zone_name[z]);
    }
    cr_tb_printf(&t, "],\"par\":[");
    for (int f = 0; f < D18_NFRONTS; f++) {
        int p = s->par_idx[f];
        int v = s->pres[f] >= 0 && p >= 0 && p < b->n_par
                    ? b->cell[b->par_row[p]][b->par_col[p]].price
                    : 0;
        cr_tb_printf(&t, "%s%d", f ? "," : "", v);
    }
    cr_tb_printf(&t, "],\"certs\":[");
    for (int p = 0; p < s->np && p < D18_MAXP; p++)
        cr_tb_printf(&t, "%s%d", p ? "," : "", d18_certs(g, s, p));
    cr_tb_printf(&t, "],\"cert_limit\":%d,\"worth\":[", d18_cert_limit(s->np));
    for (int p = 0; p < s->np && p < D18_MAXP; p++)
        cr_tb_printf(&t, "%s%d", p ? "," : "", d18_value(g, s, p));
    cr_tb_printf(&t, "],\"level\":[");
    for (int l = 0; l < b->n_locations && l < D18_MAX_LOCATIONS; l++) {
        if (b->loc[l].kind != D18_CITY) {
            cr_tb_printf(&t, "%snull", l ? "," : "");
            continue;
        }
        cr_tb_printf(&t, "%s\"%s\"", l ? "," : "", d18_colour_name(d18_level(g, s, l)));
    }
    cr_tb_printf(&t, "],\"city_revenue\":[");
    for (int l = 0; l < b->n_locations && l < D18_MAX_LOCATIONS; l++) {
        int v = b->loc[l].kind == D18_CITY  ? d18_city_value(b, l, d18_level(g, s, l))
                : b->loc[l].kind == D18_OFF ? d18_off_value(b, l, s->phase)
                                            : 0;
        cr_tb_printf(&t, "%s%d", l ? "," : "", v);
    }
    cr_tb_printf(&t, "],\"offered_phase\":%d,\"monsters\":[", d18_offered_phase(g, s));
    for (int m = 0; m < b->n_monsters && m < D18_MAX_MONSTER_TYPES; m++) {
        int bank = 0, market = 0, gone = 0;
        for (int c = b->monster[m].first_copy;
             c < b->monster[m].first_copy + b->monster[m].copies && c < D18_MAX_MONSTER_COPIES;
             c++) {
            if (s->mon_at[c] == D18_AT_BANK) bank++;
            if (s->mon_at[c] == D18_AT_MARKET) market++;
            if (s->mon_at[c] == D18_AT_GONE) gone++;
        }
        cr_tb_printf(&t, "%s{\"bank\":%d,\"market\":%d,\"gone\":%d}", m ? "," : "", bank, market,
                     gone);
    }
    int owner = s->op_ent >= 0 && s->op_ent < D18_NENT ? d18_owner_of(s, s->op_ent) : -1;
    cr_tb_printf(&t, "],\"op_owner\":%d}}\n", owner);
    return t.len;
}
