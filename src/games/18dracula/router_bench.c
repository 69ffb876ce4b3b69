/* router_bench.c — late-game positions of a board for the auto-router, and
 * its benchmark (`croupier bench 18dracula` prints it; bench/bench_18d_router
 * runs it alone).
 *
 * A late-game position: phase 5; starting from the pre-existing spaces,
 * cubes are placed on randomly chosen route spaces for as long as the
 * colour rule (§8.6.3, the slot model) and the supply (every cube of the
 * board, the tracker's yellow cube excepted) allow, so the map is as dense
 * as the rules let it get; the castle sits on its start space.  City levels
 * and values follow from the cubes (§8.5).  The operating front holds 3 to
 * 4 offices; each other city's available spaces are taken by other fronts
 * at random, blocking it when all are (R60, R120).  Its monsters are drawn
 * from the types still running in phase 5 up to the phase's monster limit,
 * plus limit-exempt ones, and it owns the Flying Dutchman half the time.
 * Connection (§8.6.2) is not simulated: fronts together reach everywhere. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "croupier/rng.h"
#include "games/18dracula/router.h"

enum { SLOTS = 16 };

/* The colour of slot i: Y, Y, G, B, then R (§8.6.3). */
static int slot_colour(int i)
{
    return i < 2 ? D18_YELLOW : i == 2 ? D18_GREEN : i == 3 ? D18_BLUE : D18_RED;
}

static int demand(const uint8_t *filled)
{
    for (int i = 0; i < SLOTS; i++)
        if (!filled[i]) return slot_colour(i);
    return D18_RED;
}

static void fill(uint8_t *filled, int colour)
{
    for (int i = 0; i < SLOTS; i++)
        if (!filled[i] && slot_colour(i) >= colour) {
            filled[i] = 1;
            return;
        }
}

int d18_router_late_position(const d18_board *b, cr_rng *rng, d18_route_input *in)
{
    memset(in, 0, sizeof *in);
    if (b->n_locations > D18_ROUTE_MAX_LOCS || b->n_routes > D18_ROUTE_MAX_SPACES) return 0;
    uint8_t filled[D18_MAX_LOCATIONS][SLOTS];
    uint8_t done[D18_MAX_ROUTES];
    int8_t colour[D18_MAX_ROUTES];
    memset(filled, 0, sizeof filled);
    memset(done, 0, sizeof done);
    int supply[D18_NUM_COLOURS];
    for (int c = 0; c < D18_NUM_COLOURS; c++) supply[c] = b->cubes[c];
    supply[D18_YELLOW]--; /* the tracker's cube */
    for (int r = 0; r < b->n_routes; r++) {
        colour[r] = D18_NO_COLOUR;
        if (b->route[r].pre_existing) {
            done[r] = 1;
            colour[r] = D18_YELLOW;
            fill(filled[b->route[r].a], D18_YELLOW);
            fill(filled[b->route[r].b], D18_YELLOW);
        }
    }
    uint8_t order[D18_MAX_ROUTES];
    for (int r = 0; r < b->n_routes; r++) order[r] = (uint8_t)r;
    for (int r = b->n_routes - 1; r > 0; r--) {
        int j = (int)cr_rng_below(rng, (uint32_t)r + 1);
        uint8_t t = order[r];
        order[r] = order[j];
        order[j] = t;
    }
    for (int placed = 1; placed;) {
        placed = 0;
        for (int k = 0; k < b->n_routes; k++) {
            int r = order[k];
            if (done[r]) continue;
            const d18_route *sp = &b->route[r];
            int c = sp->colour != D18_NO_COLOUR ? sp->colour : demand(filled[sp->a]);
            if (sp->colour == D18_NO_COLOUR && demand(filled[sp->b]) > c) c = demand(filled[sp->b]);
            if (supply[c] <= 0) continue;
            supply[c]--;
            done[r] = 1;
            colour[r] = (int8_t)c;
            fill(filled[sp->a], c);
            fill(filled[sp->b], c);
            placed = 1;
        }
    }
    /* locations */
    in->n_locs = b->n_locations;
    int level[D18_MAX_LOCATIONS] = {0};
    for (int r = 0; r < b->n_routes; r++) {
        if (!done[r]) continue;
        for (int e = 0; e < 2; e++) {
            int v = e ? b->route[r].b : b->route[r].a;
            if (colour[r] > level[v]) level[v] = colour[r];
            in->loc[v].home_stack++;
        }
    }
    int cities[D18_MAX_LOCATIONS], n_cities = 0;
    for (int v = 0; v < b->n_locations; v++) {
        const d18_location *l = &b->loc[v];
        d18_route_loc *o = &in->loc[v];
        o->kind = l->kind;
        if (l->kind == D18_CITY) {
            o->value = l->city_val[level[v]];
            if (l->n_spaces) cities[n_cities++] = v;
        } else if (l->kind == D18_OFF) {
            o->value = l->off_rev[D18_NUM_PHASES - 1];
            o->fd = l->fd;
        }
    }
    int n_off = 3 + (int)cr_rng_below(rng, 2);
    for (int i = 0; i < n_off && n_cities > 0; i++) {
        int k = (int)cr_rng_below(rng, (uint32_t)n_cities);
        in->loc[cities[k]].office = 1;
        cities[k] = cities[--n_cities];
    }
    for (int v = 0; v < b->n_locations; v++) {
        const d18_location *l = &b->loc[v];
        if (l->kind != D18_CITY || in->loc[v].office) continue;
        int empty = 0;
        for (int s = 0; s < l->n_spaces; s++)
            if (l->space_band[s] <= level[v] && cr_rng_below(rng, 10) < 4) empty++;
        in->loc[v].blocked = empty == 0; /* R60, R120 */
    }
    /* route spaces: the castle on its start space (K) */
    for (int r = 0; r < b->n_routes; r++) {
        if (!done[r]) continue;
        d18_route_space s = {b->route[r].a, b->route[r].b, (uint16_t)r};
        if (r == b->castle_start) {
            in->has_castle = 1;
            in->castle = s;
        } else {
            in->sp[in->n_spaces++] = s;
        }
    }
    /* monsters of phase 5: up to the limit, plus limit-exempt ones */
    int count[D18_MAX_MONSTER_TYPES] = {0};
    int limited[D18_MAX_MONSTER_TYPES], n_limited = 0, exempt[D18_MAX_MONSTER_TYPES], n_exempt = 0;
    for (int t = 0; t < b->n_monsters; t++) {
        const d18_monster *m = &b->monster[t];
        if (m->phase == 0 || (m->flags & D18_F_NURSE) || m->eaten != 0) continue;
        if (m->flags & D18_F_LIMIT_EXEMPT)
            exempt[n_exempt++] = t;
        else
            limited[n_limited++] = t;
    }
    int limit = b->limit[D18_NUM_PHASES - 1];
    for (int i = 0; i < limit && n_limited; i++) {
        int t = limited[cr_rng_below(rng, (uint32_t)n_limited)];
        if (count[t] < b->monster[t].copies) count[t]++;
    }
    int extra = n_exempt ? (int)cr_rng_below(rng, 3) : 0;
    for (int i = 0; i < extra; i++) {
        int t = exempt[cr_rng_below(rng, (uint32_t)n_exempt)];
        if (count[t] < b->monster[t].copies) count[t]++;
    }
    for (int t = 0; t < b->n_monsters && in->n_types < D18_ROUTE_MAX_TYPES; t++) {
        if (!count[t]) continue;
        const d18_monster *m = &b->monster[t];
        d18_route_monster *o = &in->type[in->n_types++];
        o->move = m->move;
        o->n = m->n;
        o->linger = m->linger;
        o->export_ = m->exports;
        o->flags = (uint8_t)(m->flags & D18_F_PATH_FLAGS);
        o->copies = (uint8_t)count[t];
        o->roster = (uint16_t)t;
        o->town = m->town_rev;
    }
    in->owns_fd = cr_rng_below(rng, 2) == 0;
    return 1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: the machine is shared */
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void d18_router_bench(FILE *out, const d18_board *b, int n_positions, uint64_t seed,
                      uint64_t brute_leaves)
{
    if (n_positions < 1) n_positions = 1;
    d18_route_input *in = malloc(sizeof *in);
    d18_route_result *res = malloc(sizeof *res), *br = malloc(sizeof *br);
    double *t = malloc((size_t)n_positions * sizeof *t);
    double *tb = malloc((size_t)n_positions * sizeof *tb);
    uint32_t cap = D18_ROUTE_DEFAULT_ROUTES;
    size_t bytes = d18_route_ws_size(cap);
    void *mem = malloc(bytes);
    d18_route_ws *ws = mem ? d18_route_ws_init(mem, bytes) : NULL;
    if (!in || !res || !br || !t || !tb || !ws) {
        fprintf(out, "router bench: out of memory\n");
        goto done;
    }
    cr_rng rng;
    cr_rng_seed(&rng, seed, 18);
    int worst = -1, n_brute = 0, brute_differs = 0, spaces_min = 1 << 30, spaces_max = 0;
    uint64_t routes_max = 0, nodes_max = 0, regrows = 0, restarts = 0;
    double worst_t = 0;
    char err[256];
    for (int i = 0; i < n_positions; i++) {
        d18_router_late_position(b, &rng, in);
        int ns = in->n_spaces + in->has_castle;
        if (ns < spaces_min) spaces_min = ns;
        if (ns > spaces_max) spaces_max = ns;
        d18_route_stats st;
        uint32_t need = 0;
        double t0 = now_s();
        cr_status s = d18_route_solve(in, ws, res, &st, &need, err, sizeof err);
        while (s == CR_ERR_NOMEM) { /* grow as asked, outside the timing */
            regrows++;
            free(mem);
            bytes = d18_route_ws_size(need);
            mem = malloc(bytes);
            ws = mem ? d18_route_ws_init(mem, bytes) : NULL;
            if (!ws) {
                fprintf(out, "router bench: out of memory for %u routes\n", need);
                goto done;
            }
            t0 = now_s();
            s = d18_route_solve(in, ws, res, &st, &need, err, sizeof err);
        }
        t[i] = now_s() - t0;
        if (s != CR_OK) {
            fprintf(out, "router bench: position %d: %s\n", i, err);
            goto done;
        }
        if (st.routes > routes_max) routes_max = st.routes;
        restarts += st.restarts > 0;
        if (st.nodes > nodes_max) nodes_max = st.nodes;
        if (t[i] > worst_t) {
            worst_t = t[i];
            worst = i;
        }
        tb[i] = -1;
        if (brute_leaves) {
            double b0 = now_s();
            if (d18_route_brute(in, brute_leaves, br) == CR_OK) {
                tb[i] = now_s() - b0;
                n_brute++;
                if (br->total != res->total || d18_route_result_cmp(br, res) != 0) brute_differs++;
            }
        }
    }
    double worst_brute = 0, sum_brute = 0, sum_router_same = 0;
    for (int i = 0; i < n_positions; i++)
        if (tb[i] >= 0) {
            sum_brute += tb[i];
            sum_router_same += t[i];
            if (tb[i] > worst_brute) worst_brute = tb[i];
        }
    qsort(t, (size_t)n_positions, sizeof *t, cmp_double);
    fprintf(out,
            "router: %d late-game positions (phase 5, %d-%d completed route spaces): "
            "median %.1f us, 90%% %.1f us, 99%% %.1f us, worst %.1f us (position %d); "
            "at most %llu routes and %llu search nodes; %llu needed the Lagrangian bound; "
            "workspace %u routes (%llu regrows)\n",
            n_positions, spaces_min, spaces_max, t[n_positions / 2] * 1e6,
            t[(n_positions * 9) / 10] * 1e6, t[(n_positions * 99) / 100] * 1e6, worst_t * 1e6,
            worst, (unsigned long long)routes_max, (unsigned long long)nodes_max,
            (unsigned long long)restarts, d18_route_ws_capacity(ws), (unsigned long long)regrows);
    if (brute_leaves)
        fprintf(out,
                "router brute force (every route with every linger set, every assignment): "
                "finished %d of %d within %llu assignments, mean %.1f ms, worst %.1f ms "
                "(the router on the same positions: mean %.1f us); %d answers differ\n",
                n_brute, n_positions, (unsigned long long)brute_leaves,
                n_brute ? sum_brute / n_brute * 1e3 : 0.0, worst_brute * 1e3,
                n_brute ? sum_router_same / n_brute * 1e6 : 0.0, brute_differs);
done:
    free(mem);
    free(in);
    free(res);
    free(br);
    free(t);
    free(tb);
}
