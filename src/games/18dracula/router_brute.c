/* router_brute.c — the reference for the auto-router: §13 read literally,
 * with no cleverness, to check d18_route_solve on small maps.
 *
 *  - A route is any sequence of distinct locations joined by usable route
 *    spaces (every choice of parallel space), checked by one function that
 *    states the rules of §13.3 one after another; each legal path is taken
 *    with EVERY linger subset the stops allow (not only the best), and
 *    routes earning 0 are kept too.  `home` routes are every office city.
 *  - A rampage is every assignment of one route or nothing to each slot
 *    (copies of a type choose a non-decreasing list of route numbers, which
 *    covers every multiset), pairwise disjoint in route spaces, within the
 *    home caps; with every Flying Dutchman choice (none, or any fd
 *    off-board on any chosen route).
 *  - The answer is the greatest total, then the smallest description,
 *    compared as §13.6 writes it (tuples of integers, () padding first).
 * It shares nothing with router.c but the input check and the result type. */
#include <stdlib.h>
#include <string.h>

#include "games/18dracula/router.h"

enum { BR_MAXT = D18_ROUTE_MAX_LOCS + 1 + D18_ROUTE_MAX_LINGER };

typedef struct br_route {
    int tup[BR_MAXT]; /* canonical tuple */
    int tn;
    int n_path, n_linger, is_path;
    int rev;
    uint64_t e[D18_ROUTE_WORDS];
    int home; /* city or -1 */
    int fd[2];
    int n_fd; /* fd off-boards on it (Dutchman owned) */
} br_route;

typedef struct br_list {
    br_route *v;
    int n, cap;
} br_list;

typedef struct br {
    const d18_route_input *in;
    int n_edges;
    int ea[D18_ROUTE_MAX_SPACES], eb[D18_ROUTE_MAX_SPACES], is_k[D18_ROUTE_MAX_SPACES];
    br_list list[D18_ROUTE_MAX_TYPES];
    int oom;
    int too_big; /* more routes than max_leaves, or paths with too many cities */
    /* search */
    int slot_type[D18_ROUTE_MAX_SLOTS], n_slots;
    int pick[D18_ROUTE_MAX_SLOTS];
    uint64_t leaves, max_leaves;
    int have_best;
    int best_total;
} br;

static void br_push(br *b, int t, const br_route *r)
{
    br_list *l = &b->list[t];
    if (b->max_leaves && (uint64_t)l->n >= b->max_leaves) {
        b->too_big = 1;
        return;
    }
    if (l->n == l->cap) {
        int nc = l->cap ? 2 * l->cap : 64;
        br_route *nv = realloc(l->v, (size_t)nc * sizeof *nv);
        if (!nv) {
            b->oom = 1;
            return;
        }
        l->v = nv;
        l->cap = nc;
    }
    l->v[l->n++] = *r;
}

/* §13.3 for path types, rule by rule.  path: locations; edges: spaces. */
static int br_legal_path(const br *b, const d18_route_monster *m, const int *path, const int *edges,
                         int len, int n_linger)
{
    const d18_route_input *in = b->in;
    if (len < 2) return 0;
    for (int i = 0; i < len; i++)
        for (int j = i + 1; j < len; j++)
            if (path[i] == path[j]) return 0; /* simple */
    for (int i = 1; i < len; i++) {
        int e = edges[i];
        int joins = (b->ea[e] == path[i - 1] && b->eb[e] == path[i]) ||
                    (b->eb[e] == path[i - 1] && b->ea[e] == path[i]);
        if (!joins) return 0;
        if (b->is_k[e] && !(m->flags & D18_RF_CASTLE)) return 0; /* §13.2 */
    }
    for (int i = 1; i + 1 < len; i++) { /* 1. interior */
        const d18_route_loc *l = &in->loc[path[i]];
        if (l->kind == D18_LOC_OFF) return 0;
        if (l->kind == D18_LOC_CITY && l->blocked && !(m->flags & D18_RF_NOT_BLOCKED)) return 0;
    }
    int C = 0, T = 0, F = 0;
    for (int i = 0; i < len; i++) {
        int k = in->loc[path[i]].kind;
        if (k == D18_LOC_OFF) { /* 2. off-boards */
            if (!m->export_ || m->move == D18_MOVE_CITY) return 0;
            if (i != 0 && i != len - 1) return 0;
            F++;
        } else if (k == D18_LOC_TOWN) {
            T++;
        } else {
            C++;
        }
    }
    if (!(m->flags & D18_RF_NO_OFFICE)) { /* 3. office */
        int ok = 0;
        for (int i = 0; i < len; i++) {
            if (in->loc[path[i]].office) ok = 1;
            if ((m->flags & D18_RF_CASTLE) && in->has_castle &&
                (path[i] == in->castle.a || path[i] == in->castle.b))
                ok = 1;
        }
        if (!ok) return 0;
    }
    switch (m->move) { /* 4. length */
    case D18_MOVE_DIT: return C + T + F + n_linger <= m->n;
    case D18_MOVE_CITY: return F == 0 && C + n_linger <= m->n;
    case D18_MOVE_MAJOR: return C + F + n_linger <= m->n;
    case D18_MOVE_INF: return 1;
    default: return 0;
    }
}

/* Every linger subset of the path's cities (size ≤ L), each a route. */
static void br_add_path(br *b, int t, const int *path, const int *edges, int len)
{
    const d18_route_input *in = b->in;
    const d18_route_monster *m = &in->type[t];
    int cities[D18_ROUTE_MAX_LOCS], nc = 0;
    for (int i = 0; i < len; i++)
        if (in->loc[path[i]].kind == D18_LOC_CITY) cities[nc++] = path[i];
    /* orientation: v0 < vk */
    int fwd = path[0] < path[len - 1];
    if (nc > 16) { /* 2^nc linger subsets: past what a brute force finishes */
        b->too_big = 1;
        return;
    }
    for (uint32_t mask = 0; mask < (1u << nc); mask++) {
        int nl = __builtin_popcount(mask);
        if (nl > m->linger) continue;
        if (!br_legal_path(b, m, path, edges, len, nl)) continue;
        br_route r;
        memset(&r, 0, sizeof r);
        r.is_path = 1;
        r.home = -1;
        r.n_path = len;
        r.n_linger = nl;
        for (int i = 0; i < len; i++) r.tup[i] = fwd ? path[i] : path[len - 1 - i];
        r.tup[len] = -1;
        int lc[D18_ROUTE_MAX_LINGER + 1], k = 0;
        for (int i = 0; i < nc; i++)
            if (mask & (1u << i)) lc[k++] = cities[i];
        for (int i = 0; i < k; i++) /* ascending */
            for (int j = i + 1; j < k; j++)
                if (lc[j] < lc[i]) {
                    int x = lc[i];
                    lc[i] = lc[j];
                    lc[j] = x;
                }
        for (int i = 0; i < k; i++) r.tup[len + 1 + i] = lc[i];
        r.tn = len + 1 + k;
        /* 5. revenue */
        int rev = 0;
        for (int i = 0; i < len; i++) {
            const d18_route_loc *l = &in->loc[path[i]];
            rev += l->kind == D18_LOC_TOWN ? m->town : l->value;
            if (l->kind == D18_LOC_OFF && l->fd && in->owns_fd) r.fd[r.n_fd++] = path[i];
        }
        for (int i = 0; i < k; i++) rev += in->loc[lc[i]].value;
        r.rev = rev;
        for (int i = 1; i < len; i++) r.e[edges[i] / 64] |= 1ull << (edges[i] % 64);
        br_push(b, t, &r);
    }
}

/* Grows walks edge by edge from every start; br_legal_path judges them. */
static void br_walk(br *b, int t, int *path, int *edges, int len)
{
    if (b->oom || b->too_big) return;
    if (len >= 2 && path[0] < path[len - 1]) br_add_path(b, t, path, edges, len);
    int v = path[len - 1];
    for (int e = 0; e < b->n_edges; e++) {
        int w = b->ea[e] == v ? b->eb[e] : b->eb[e] == v ? b->ea[e] : -1;
        if (w < 0) continue;
        int seen = 0;
        for (int i = 0; i < len; i++) seen |= path[i] == w;
        if (seen) continue;
        path[len] = w;
        edges[len] = e;
        br_walk(b, t, path, edges, len + 1);
    }
}

static int br_howl(const br *b, const d18_route_monster *m)
{
    const d18_route_input *in = b->in;
    int total = 0;
    for (int v = 0; v < in->n_locs; v++) { /* does v count? */
        const d18_route_loc *l = &in->loc[v];
        if (l->kind == D18_LOC_OFF) continue;
        int counts = l->office;
        for (int e = 0; e < b->n_edges && !counts; e++) {
            if (b->is_k[e]) continue;
            int o = b->ea[e] == v ? b->eb[e] : b->eb[e] == v ? b->ea[e] : -1;
            if (o >= 0 && in->loc[o].office) counts = 1;
        }
        if (counts) total += l->kind == D18_LOC_TOWN ? m->town : l->value;
    }
    return total;
}

/* §13.6: element by element; a proper prefix is smaller. */
static int br_tuple_cmp(const int *a, int an, const int *b, int bn)
{
    for (int i = 0; i < an && i < bn; i++)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return (an > bn) - (an < bn);
}

typedef struct br_desc {
    const br_route *slot[D18_ROUTE_MAX_SLOTS]; /* NULL: () */
    int n;
    int fd_slot, fd_loc;
} br_desc;

static void br_describe(const br *b, br_desc *d)
{
    d->n = 0;
    int s = 0;
    while (s < b->n_slots) {
        int t = b->slot_type[s], e = s;
        while (e < b->n_slots && b->slot_type[e] == t) e++;
        int k = 0;
        const br_route *tmp[D18_ROUTE_MAX_SLOTS];
        for (int i = s; i < e; i++) tmp[k++] = b->pick[i] < 0 ? NULL : &b->list[t].v[b->pick[i]];
        for (int i = 0; i < k; i++) /* sort ascending, () first */
            for (int j = i + 1; j < k; j++) {
                int c;
                if (!tmp[i])
                    c = tmp[j] ? -1 : 0;
                else if (!tmp[j])
                    c = 1;
                else
                    c = br_tuple_cmp(tmp[i]->tup, tmp[i]->tn, tmp[j]->tup, tmp[j]->tn);
                if (c > 0) {
                    const br_route *x = tmp[i];
                    tmp[i] = tmp[j];
                    tmp[j] = x;
                }
            }
        for (int i = 0; i < k; i++) d->slot[d->n++] = tmp[i];
        s = e;
    }
}

static int br_desc_cmp(const br_desc *a, const br_desc *b)
{
    for (int i = 0; i < a->n; i++) {
        const br_route *x = a->slot[i], *y = b->slot[i];
        int c;
        if (!x)
            c = y ? -1 : 0;
        else if (!y)
            c = 1;
        else
            c = br_tuple_cmp(x->tup, x->tn, y->tup, y->tn);
        if (c) return c;
    }
    int xa[2] = {a->fd_slot, a->fd_loc}, xb[2] = {b->fd_slot, b->fd_loc};
    return br_tuple_cmp(xa, a->fd_slot < 0 ? 0 : 2, xb, b->fd_slot < 0 ? 0 : 2);
}

static void br_leaf(br *b, br_desc *scratch, br_desc *best)
{
    b->leaves++;
    int sum = 0;
    for (int s = 0; s < b->n_slots; s++)
        if (b->pick[s] >= 0) sum += b->list[b->slot_type[s]].v[b->pick[s]].rev;
    br_describe(b, scratch);
    /* FD choices: none, or (i, v) for each fd off-board on the route at i */
    for (int i = -1; i < scratch->n; i++) {
        int nv = i < 0 ? 1 : scratch->slot[i] ? scratch->slot[i]->n_fd : 0;
        for (int j = 0; j < nv; j++) {
            int total = sum, loc = -1;
            if (i >= 0) {
                loc = scratch->slot[i]->fd[j];
                total += b->in->loc[loc].value;
            }
            scratch->fd_slot = i;
            scratch->fd_loc = loc;
            if (!b->have_best || total > b->best_total ||
                (total == b->best_total && br_desc_cmp(scratch, best) < 0)) {
                b->have_best = 1;
                b->best_total = total;
                *best = *scratch;
            }
        }
    }
}

static void br_search(br *b, int s, const uint64_t *used, br_desc *scratch, br_desc *best)
{
    if (b->max_leaves && b->leaves >= b->max_leaves) return;
    if (s == b->n_slots) {
        br_leaf(b, scratch, best);
        return;
    }
    int t = b->slot_type[s];
    int lo = (s > 0 && b->slot_type[s - 1] == t) ? b->pick[s - 1] : -1;
    for (int i = lo; i < b->list[t].n; i++) {
        if (i < 0) {
            b->pick[s] = -1;
            br_search(b, s + 1, used, scratch, best);
            continue;
        }
        const br_route *r = &b->list[t].v[i];
        if ((r->e[0] & used[0]) | (r->e[1] & used[1]) | (r->e[2] & used[2])) continue;
        if (r->home >= 0) { /* home cap, counted over every slot so far */
            int n = 1;
            for (int q = 0; q < s; q++)
                if (b->pick[q] >= 0 && b->list[b->slot_type[q]].v[b->pick[q]].home == r->home) n++;
            int cap = b->in->loc[r->home].home_stack;
            if (cap < 1) cap = 1;
            if (n > cap) continue;
        }
        uint64_t u[D18_ROUTE_WORDS] = {used[0] | r->e[0], used[1] | r->e[1], used[2] | r->e[2]};
        b->pick[s] = i;
        br_search(b, s + 1, u, scratch, best);
    }
}

cr_status d18_route_brute(const d18_route_input *in, uint64_t max_leaves, d18_route_result *out)
{
    if (d18_route_check(in, NULL, 0) != CR_OK) return CR_ERR_INVALID;
    br *b = calloc(1, sizeof *b);
    br_desc *scratch = calloc(2, sizeof *scratch);
    br_desc *best = scratch ? scratch + 1 : NULL;
    if (!b || !scratch) {
        free(b);
        free(scratch);
        return CR_ERR_NOMEM;
    }
    b->in = in;
    b->max_leaves = max_leaves;
    for (int i = 0; i < in->n_spaces; i++) {
        b->ea[b->n_edges] = in->sp[i].a;
        b->eb[b->n_edges++] = in->sp[i].b;
    }
    if (in->has_castle) {
        b->ea[b->n_edges] = in->castle.a;
        b->is_k[b->n_edges] = 1;
        b->eb[b->n_edges++] = in->castle.b;
    }
    int path[D18_ROUTE_MAX_LOCS], edges[D18_ROUTE_MAX_LOCS];
    int howl[D18_ROUTE_MAX_TYPES] = {0};
    for (int t = 0; t < in->n_types; t++) {
        const d18_route_monster *m = &in->type[t];
        if (m->move == D18_MOVE_HOWL) {
            howl[t] = br_howl(b, m) * m->copies;
        } else if (m->move == D18_MOVE_HOME) {
            for (int c = 0; c < in->n_locs; c++) {
                if (!in->loc[c].office) continue;
                br_route r;
                memset(&r, 0, sizeof r);
                r.tup[0] = c;
                r.tn = 1;
                r.n_path = 1;
                r.home = c;
                r.rev = in->loc[c].value;
                br_push(b, t, &r);
            }
        } else {
            for (int v = 0; v < in->n_locs; v++) {
                path[0] = v;
                br_walk(b, t, path, edges, 1);
            }
        }
        int k = m->copies * ((m->flags & D18_RF_TRIPLE) ? 3 : 1);
        /* a howl type has no routes: its slots stay () */
        for (int i = 0; i < k; i++) b->slot_type[b->n_slots++] = t;
    }
    cr_status st = CR_OK;
    if (b->oom) {
        st = CR_ERR_NOMEM;
    } else if (b->too_big) {
        st = CR_ERR_UNSUPPORTED;
    } else {
        uint64_t none[D18_ROUTE_WORDS] = {0};
        br_search(b, 0, none, scratch, best);
        if (max_leaves && b->leaves >= max_leaves) st = CR_ERR_UNSUPPORTED;
    }
    if (st == CR_OK) {
        memset(out, 0, sizeof *out);
        out->n_slots = b->n_slots;
        int s = 0;
        for (int t = 0; t < in->n_types; t++) {
            out->type_first[t] = s;
            int k = in->type[t].copies * ((in->type[t].flags & D18_RF_TRIPLE) ? 3 : 1);
            out->type_revenue[t] = howl[t];
            for (int i = s; i < s + k; i++) {
                const br_route *r = best->slot[i];
                if (!r) continue;
                d18_route_entry *o = &out->slot[i];
                o->n_locs = (uint8_t)r->n_path;
                o->n_linger = (uint8_t)r->n_linger;
                o->is_path = (uint8_t)r->is_path;
                o->revenue = r->rev;
                for (int j = 0; j < r->n_path; j++) o->loc[j] = (uint16_t)r->tup[j];
                for (int j = 0; j < r->n_linger; j++)
                    o->linger[j] = (uint16_t)r->tup[r->n_path + 1 + j];
                out->type_revenue[t] += r->rev;
            }
            s += k;
        }
        out->total = b->best_total;
        for (int t = 0; t < in->n_types; t++) out->total += howl[t];
        out->fd_slot = best->fd_slot;
        out->fd_loc = best->fd_loc;
        out->fd_bonus = best->fd_slot >= 0 ? in->loc[best->fd_loc].value : 0;
    }
    for (int t = 0; t < D18_ROUTE_MAX_TYPES; t++) free(b->list[t].v);
    free(b);
    free(scratch);
    return st;
}
