/* router.c — the exact auto-router of spec §13 (the design is in router.h).
 *
 * Invariants the search relies on:
 *  - ws->r[b..e) holds the routes of one type, each earning > 0, in the
 *    order they were found (canonical tuple order unless spaces are
 *    parallel); ws->rank[r] is r's position in tuple order (equal tuples
 *    share one; index_type sorts them in ws->lex, free afterwards);
 *  - ws->ord[b..e) lists them in descending revenue (ties: ascending index),
 *    and ws->pre[b + i] is the sum of the revenues of ord[b..b+i];
 *  - ws->opos[r] is r's position in its type's ord;
 *  - ws->bm[s * ws->bm_w + j / 64] bit j % 64 says whether the route at
 *    ord position j uses route space s (the bitsets transposed): the scans
 *    in revenue order skip the routes overlapping a set of spaces 64 at a
 *    time (next_free; the revenue at ord position j is pre[j] - pre[j - 1]);
 *  - with the Lagrangian bound on, ws->red[r] = rev(r) - lam_of(r) (the
 *    prices of r's spaces and interior locations) and ws->rord[b..e) lists
 *    the type's routes by descending red; ws->redf[r] = red(r) +
 *    max(0, fdval(r) - mu), ws->rordf[b..e) by descending redf; and
 *    ws->red_o / ws->opos_o (the memory of lex and tmp, whose tuple order
 *    is no longer needed once the ranks are set) hold red and opos in
 *    rord order.
 * Nothing here allocates. */
#include "games/18dracula/router.h"

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

enum {
    SCAN_LIMIT = 24,
    PLAIN_NODES = 4000,  /* nodes before the search restarts with the Lagrangian bound */
    PLAIN_WORK = 100000, /* ... or candidates looked at (search's main loop), if fewer */
    LAM_ITERS = 50,
    FIT_FULL_EVERY = 8,   /* every so many steps of the price fit read all routes (lam_fit) */
    FIT_EXTRA = 8,        /* routes beyond a type's slot count a full step adds to its fit set */
    FIT_SUB = 512,        /* routes of one type's fit set */
    FIT_HEAD = 5,         /* the first steps read all routes, ... */
    FIT_TAIL = 1,         /* ... and the last ones */
    FIT_SMALL = 2048,     /* a part with at most so many routes: every step reads all */
    DEC_MAX = 1000000000, /* the price decrease past which lam_fit keeps no ubx */
    BOUND_DEPTH = 1,      /* levels of branching in pick_bound */
    DENS_ONE = 1 << 16,
    /* fixed point of the route-space density bound */ /* routes a bound scan looks at before it
                                                          extrapolates */
    POOL_PER_ROUTE = 16,
    ALONE_WORK = 20000, /* nodes + routes looked at by one alone_search before it gives up */
    COUNT_FACTOR = 8,   /* on overflow, keep counting up to this × capacity */
    HIST = 1024,        /* buckets of the potential histogram (restrict_routes) */
    /* bytes of bm beyond D18_ROUTE_WORDS words a route: a row per space
     * holds cap / 64 + 1 words */
    BM_SLACK = D18_ROUTE_MAX_SPACES * 8,
};

typedef struct rt {
    uint64_t e[D18_ROUTE_WORDS]; /* route spaces used */
    int32_t rev;
    int32_t fdval; /* best fd off-board's value on the route (0: none) */
    uint32_t tup;  /* offset of loc[] then linger[] in the pool */
    uint16_t fdloc;
    int16_t home; /* home city, or -1 for a path route */
    uint8_t len, nl;
} rt;

typedef struct tinfo {
    uint32_t b, e; /* route range */
    int slots;
    int32_t fdmax;
} tinfo;

struct d18_route_ws {
    uint32_t cap, pool_cap;
    rt *r;
    uint32_t *ord, *lex, *rank;
    uint32_t *rord; /* per type: routes by descending reduced revenue */
    /* reduced revenue: rev - lam over the route's spaces (before the fit:
     * each route's revenue while index_type sorts, then the fit sets) */
    int32_t *red;
    /* the same with the Flying Dutchman: redf = red + max(0, fdval - mu)
     * (see mu), rordf lists by descending redf (during the fit: fit_scan's
     * ubx) */
    uint32_t *rordf;
    int32_t *redf;
    uint32_t *opos; /* opos[r]: r's position in its type's ord */
    uint32_t *tmp;  /* the radix sort's second buffer */
    /* Once the prices are fitted (lam_fit) and until the solve ends, lex
     * and tmp hold red_o[o] = red[rord[o]] and opos_o[o] = opos[rord[o]]
     * (OPOS_POS bits) | OPOS_FD if that route holds an fd off-board (the
     * same memory, named for what it holds then). */
    int32_t *red_o;
    uint32_t *opos_o;
    /* ... and, when the graph has at most 64 route spaces and the pool has
     * room after its tuples (8 bytes a route), e_o[o] = r[rord[o]].e[0]
     * (else NULL) */
    uint64_t *e_o;
    uint64_t *bm; /* per route space, a bit per ord position (bm_w words) */
    uint32_t bm_w;
    int64_t *pre;
    uint16_t *pool;
    /* per solve */
    const d18_route_input *in;
    uint32_t n_routes, pool_len;
    uint64_t counted; /* routes found, stored or not */
    int overflow;
    int n_edges; /* input spaces + K */
    int adj_start[D18_ROUTE_MAX_LOCS + 1];
    uint16_t adj_to[2 * D18_ROUTE_MAX_SPACES];
    uint16_t adj_e[2 * D18_ROUTE_MAX_SPACES];
    int parallel; /* two spaces join the same pair of locations */
    int castle_e; /* edge index of K, or -1 */
    tinfo ti[D18_ROUTE_MAX_TYPES];
    /* path enumeration */
    int cur_type;
    uint16_t path[D18_ROUTE_MAX_LOCS];
    uint16_t pedge[D18_ROUTE_MAX_LOCS];
    uint8_t onpath[D18_ROUTE_MAX_LOCS];
    int n_city, n_town, n_off, n_office;
    /* search */
    int comp[D18_ROUTE_MAX_TYPES], n_comp; /* the part's types, in search order */
    int rorder[D18_ROUTE_MAX_TYPES];       /* comp positions in roster order */
    int first[D18_ROUTE_MAX_TYPES];        /* first slot of each type in the description */
    int64_t rest_static[D18_ROUTE_MAX_TYPES + 1];
    int32_t fdpot[D18_ROUTE_MAX_TYPES + 1];
    /* alone[t][k]: the most k disjoint routes of type t earn, other types
     * ignored (an upper bound for k more routes of t in any state) */
    int64_t alone[D18_ROUTE_MAX_TYPES][D18_ROUTE_MAX_SLOTS + 1];
    /* Lagrangian bound: a price lam[e] >= 0 on each route space.  Disjoint
     * routes pay each free space at most once, so k more routes earn at
     * most  sum of lam over free spaces + the best k reduced revenues
     * (rev - lam of its spaces, if positive) of each type.  The prices
     * come from a subgradient descent when the plain search runs long. */
    int use_lam;
    int32_t lam[D18_ROUTE_MAX_SPACES];
    /* ... and a price pi[v] >= 0 on each location v of odd degree d >= 3:
     * a route passing through v uses two of its d spaces, so at most
     * d / 2 (rounded down) disjoint routes pass through it (vcap[v]; -1
     * where there is no such price).  Prices enter the bound the same
     * way: vcap[v] * pi[v] in the total, pi[v] off each route through v. */
    int32_t pi[D18_ROUTE_MAX_LOCS];
    int8_t vcap[D18_ROUTE_MAX_LOCS];
    int64_t lam_total; /* sum of lam plus sum of vcap * pi */
    /* ... and a price mu >= 0 on "one route doubles an off-board": a route
     * may earn its fdval too if it pays mu (redf), mu enters the total.
     * Bounds with it hold while no route taken holds an fd off-board. */
    int32_t mu;
    int fd_any; /* some route of the part holds an fd off-board */
    /* 2 lam[e] + pi of both ends of e: a route pays half the sum of these
     * over its spaces less half the pi of its two ends (set_w) */
    int32_t w[D18_ROUTE_MAX_SPACES];
    /* wbyte[j][b]: the sum of w over the spaces 8j + i for the bits i set
     * in b, so a route's sum of w is 24 look-ups (lam_of) */
    int32_t wbyte[D18_ROUTE_MAX_SPACES / 8][256];
    /* The price fit's sets (lam_fit): fit_sub[ti[t].b + 0 .. n_fit_sub[t])
     * the ord positions of the routes of type t its steps between full
     * ones read (fit_sub is the
     * memory of red, which the fit writes only once its steps are done);
     * fit_all[t]: the set reached FIT_SUB, read all of t's routes. */
    uint32_t *fit_sub;
    int n_fit_sub[D18_ROUTE_MAX_TYPES];
    uint8_t fit_all[D18_ROUTE_MAX_TYPES];
    /* When the routes do not fit (restrict_routes), written before read:
     * top[t][0..n_top[t]) the best revenues of type t over all its routes,
     * descending, at most its slot count; hist_n[b] / hist_pool[b] the
     * routes (and their pool entries) whose potential falls in bucket b. */
    int32_t top[D18_ROUTE_MAX_TYPES][D18_ROUTE_MAX_SLOTS];
    uint32_t hist_n[HIST];
    uint64_t hist_pool[HIST];
    /* The path being enumerated, summed as it grows (extend): psum[k] the
     * revenue of path[0..k] without lingers, pfd[k] / pfdloc[k] its best
     * fd off-board (value, location; 0 / -1: none), pe[k] its spaces. */
    int64_t psum[D18_ROUTE_MAX_LOCS];
    int32_t pfd[D18_ROUTE_MAX_LOCS];
    int16_t pfdloc[D18_ROUTE_MAX_LOCS];
    /* ... and plg[k][0..n_plg[k]) its best cities to linger on: those
     * worth more than 0, by value descending, the smaller location first
     * among equal values, at most the type's L (the linger choice of R67
     * takes the first ones its stops allow) */
    uint16_t plg[D18_ROUTE_MAX_LOCS][D18_ROUTE_MAX_LINGER];
    uint8_t n_plg[D18_ROUTE_MAX_LOCS];
    uint64_t pe[D18_ROUTE_MAX_LOCS][D18_ROUTE_WORDS];
    /* (the members above, from wbyte on, are not cleared by ws_init) */
    int n_top[D18_ROUTE_MAX_TYPES];
    int32_t fdmax_all; /* the largest fdval of any route */
    /* 0: store every route; 1: only count potentials into hist_*; 2: store
     * only routes of potential >= theta.  A route's potential is its
     * revenue plus p_off[its type]: no rampage holding it earns more. */
    int filter;
    int64_t p_off[D18_ROUTE_MAX_TYPES];
    int64_t p_lo, p_width, theta;
    uint8_t hcap[D18_ROUTE_MAX_LOCS], hused[D18_ROUTE_MAX_LOCS];
    uint64_t nodes, nodes_start;
    uint64_t work, work_cap; /* candidates search looked at this round, and its cap */
    uint64_t node_cap;       /* nodes a search may take before it gives up (the plain one) */
    int gave_up;             /* the last search passed node_cap */
    int64_t grain;           /* every total is a multiple of it (grain_of) */
    int64_t alone_budget;
    uint32_t restarts;
    uint32_t cur[D18_ROUTE_MAX_SLOTS]; /* routes on the search stack */
    int n_cur;
    int cur_start[D18_ROUTE_MAX_TYPES + 1]; /* where each comp type's routes start in cur */
    uint32_t cand[D18_ROUTE_MAX_SLOTS];     /* cur, sorted by rank within each type */
    int cand_fd_slot, cand_fd_loc;
    int64_t best;
    int64_t seen; /* the largest total of a rampage the search reached (leaf) */
    uint32_t best_r[D18_ROUTE_MAX_SLOTS];
    int best_start[D18_ROUTE_MAX_TYPES + 1];
    int best_fd_slot, best_fd_loc;
};

/* opos_o's fields (rev-positions are below 2^28: cap <= UINT32_MAX / 16) */
#define OPOS_FD  0x80000000u
#define OPOS_POS 0x7fffffffu

#define ALIGN8(x) (((x) + 7u) & ~(size_t)7u)

static size_t per_route_bytes(void)
{
    return sizeof(rt) + D18_ROUTE_WORDS * sizeof(uint64_t) + 7 * sizeof(uint32_t) +
           2 * sizeof(int32_t) + sizeof(int64_t) + POOL_PER_ROUTE * sizeof(uint16_t);
}

size_t d18_route_ws_size(uint32_t max_routes)
{
    if (max_routes < 1) max_routes = 1;
    return ALIGN8(sizeof(struct d18_route_ws)) + (size_t)max_routes * per_route_bytes() + BM_SLACK +
           64;
}

size_t d18_route_ws_fixed_size(void) { return sizeof(struct d18_route_ws); }

d18_route_ws *d18_route_ws_init(void *mem, size_t bytes)
{
    size_t head = ALIGN8(sizeof(struct d18_route_ws));
    if (!mem || bytes < d18_route_ws_size(1)) return NULL;
    d18_route_ws *ws = mem;
    /* Zeroed but for the byte tables of the Lagrangian prices (24 KB of the
     * fixed part, cleared on every rampage for nothing): set_w writes every
     * entry lam_of reads before any is read; likewise the tables of
     * restrict_routes (12 KB), written there before they are read. */
    size_t wb = offsetof(struct d18_route_ws, wbyte), we = offsetof(struct d18_route_ws, n_top);
    memset(ws, 0, wb);
    memset((unsigned char *)ws + we, 0, sizeof *ws - we);
    size_t cap = (bytes - head - BM_SLACK - 64) / per_route_bytes();
    if (cap > UINT32_MAX / POOL_PER_ROUTE) cap = UINT32_MAX / POOL_PER_ROUTE;
    unsigned char *p = (unsigned char *)mem + head;
    ws->cap = (uint32_t)cap;
    ws->r = (rt *)p;
    p += ALIGN8(cap * sizeof(rt));
    ws->bm = (uint64_t *)p; /* D18_ROUTE_MAX_SPACES rows of cap / 64 + 1 words at most */
    p += cap * D18_ROUTE_WORDS * sizeof(uint64_t) + BM_SLACK;
    ws->pre = (int64_t *)p;
    p += cap * sizeof(int64_t);
    ws->rank = (uint32_t *)p;
    p += cap * sizeof(uint32_t);
    ws->rord = (uint32_t *)p;
    p += cap * sizeof(uint32_t);
    ws->red = (int32_t *)p;
    p += cap * sizeof(int32_t);
    ws->rordf = (uint32_t *)p;
    p += cap * sizeof(uint32_t);
    ws->redf = (int32_t *)p;
    p += cap * sizeof(int32_t);
    ws->opos = (uint32_t *)p;
    p += cap * sizeof(uint32_t);
    ws->ord = (uint32_t *)p;
    p += cap * sizeof(uint32_t);
    ws->lex = (uint32_t *)p;
    p += cap * sizeof(uint32_t);
    ws->tmp = (uint32_t *)p;
    ws->red_o = (int32_t *)(void *)ws->lex;
    ws->fit_sub = (uint32_t *)(void *)ws->red;
    ws->opos_o = ws->tmp;
    p += cap * sizeof(uint32_t);
    ws->pool = (uint16_t *)p;
    ws->pool_cap = (uint32_t)(cap * POOL_PER_ROUTE);
    return ws;
}

uint32_t d18_route_ws_capacity(const d18_route_ws *ws) { return ws ? ws->cap : 0; }

/* ---- input check ---- */

static cr_status fail(char *err, size_t cap, const char *fmt, ...)
{
    if (err && cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, cap, fmt, ap);
        va_end(ap);
    }
    return CR_ERR_INVALID;
}

static int slots_of(const d18_route_monster *m)
{
    return m->copies * ((m->flags & D18_RF_TRIPLE) ? 3 : 1);
}

static int check_space(const d18_route_input *in, const d18_route_space *s, const char *what, int i,
                       char *err, size_t cap)
{
    if (s->a >= in->n_locs || s->b >= in->n_locs || s->a == s->b) {
        fail(err, cap, "route input: %s %d joins locations %u and %u (need two different of 0..%d)",
             what, i, s->a, s->b, in->n_locs - 1);
        return 0;
    }
    return 1;
}

cr_status d18_route_check(const d18_route_input *in, char *err, size_t cap)
{
    if (!in) return fail(err, cap, "route input: none");
    if (in->n_locs < 0 || in->n_locs > D18_ROUTE_MAX_LOCS)
        return fail(err, cap, "route input: %d locations (0..%d)", in->n_locs, D18_ROUTE_MAX_LOCS);
    int max_sp = D18_ROUTE_MAX_SPACES - (in->has_castle ? 1 : 0);
    if (in->n_spaces < 0 || in->n_spaces > max_sp)
        return fail(err, cap, "route input: %d route spaces (0..%d)", in->n_spaces, max_sp);
    if (in->n_types < 0 || in->n_types > D18_ROUTE_MAX_TYPES)
        return fail(err, cap, "route input: %d monster types (0..%d)", in->n_types,
                    D18_ROUTE_MAX_TYPES);
    for (int v = 0; v < in->n_locs; v++) {
        const d18_route_loc *l = &in->loc[v];
        if (l->kind > D18_LOC_OFF)
            return fail(err, cap, "route input: location %d has kind %u", v, l->kind);
        if (l->value < 0 || l->value > D18_ROUTE_MAX_VALUE)
            return fail(err, cap, "route input: location %d has value %d (0..%d)", v, (int)l->value,
                        D18_ROUTE_MAX_VALUE);
        if (l->kind == D18_LOC_TOWN && l->value != 0)
            return fail(err, cap,
                        "route input: town %d has value %d (towns pay the monster's, R66)", v,
                        (int)l->value);
        if (l->kind != D18_LOC_CITY && (l->blocked || l->office))
            return fail(err, cap, "route input: location %d is not a city but blocked or an office",
                        v);
        if (l->kind != D18_LOC_OFF && l->fd)
            return fail(err, cap, "route input: location %d is not an off-board but flagged fd", v);
        if (l->blocked && l->office)
            return fail(err, cap, "route input: city %d holds an office yet is blocked (R60)", v);
        if (l->blocked > 1 || l->office > 1 || l->fd > 1)
            return fail(err, cap, "route input: location %d has a flag other than 0/1", v);
    }
    for (int i = 0; i < in->n_spaces; i++)
        if (!check_space(in, &in->sp[i], "route space", i, err, cap)) return CR_ERR_INVALID;
    if (in->has_castle && !check_space(in, &in->castle, "castle space", 0, err, cap))
        return CR_ERR_INVALID;
    for (int i = 0; i < in->n_spaces + (in->has_castle != 0); i++) {
        const d18_route_space *s = i < in->n_spaces ? &in->sp[i] : &in->castle;
        for (int j = 0; j < i; j++)
            if (in->sp[j].space == s->space)
                return fail(err, cap, "route input: board route space %u given twice", s->space);
    }
    if (in->has_castle > 1 || in->owns_fd > 1 || in->has_castle < 0 || in->owns_fd < 0)
        return fail(err, cap, "route input: has_castle/owns_fd must be 0 or 1");
    int slots = 0;
    for (int t = 0; t < in->n_types; t++) {
        const d18_route_monster *m = &in->type[t];
        if (m->move > D18_MOVE_INF)
            return fail(err, cap, "route input: type %d has movement %u", t, m->move);
        if (m->copies < 1) return fail(err, cap, "route input: type %d has no copies", t);
        if (m->flags &
            ~(unsigned)(D18_RF_NOT_BLOCKED | D18_RF_NO_OFFICE | D18_RF_CASTLE | D18_RF_TRIPLE))
            return fail(err, cap, "route input: type %d has unknown flags 0x%x", t, m->flags);
        if (m->town < 0 || m->town > D18_ROUTE_MAX_VALUE)
            return fail(err, cap, "route input: type %d has town revenue %d", t, (int)m->town);
        int pathy = m->move >= D18_MOVE_DIT;
        if (!pathy && (m->n || m->linger || m->export_ || m->flags))
            return fail(err, cap,
                        "route input: type %d (home/howl) has N, linger, export or a path flag "
                        "(§8.9.3, R99)",
                        t);
        if (m->move == D18_MOVE_HOME && m->town)
            return fail(err, cap, "route input: type %d (home) has a town revenue", t);
        if ((m->move == D18_MOVE_DIT || m->move == D18_MOVE_CITY || m->move == D18_MOVE_MAJOR) &&
            (m->n < 1 || m->n > D18_ROUTE_MAX_N))
            return fail(err, cap, "route input: type %d has N = %u (1..%d)", t, m->n,
                        D18_ROUTE_MAX_N);
        if (m->move == D18_MOVE_INF && m->n)
            return fail(err, cap, "route input: type %d (inf) has an N", t);
        if (m->move == D18_MOVE_CITY && m->export_)
            return fail(err, cap, "route input: type %d (city) has export (§8.9.3)", t);
        if (m->linger > D18_ROUTE_MAX_LINGER || m->export_ > 1)
            return fail(err, cap, "route input: type %d has linger %u / export %u", t, m->linger,
                        m->export_);
        slots += slots_of(m);
    }
    if (slots > D18_ROUTE_MAX_SLOTS)
        return fail(err, cap, "route input: %d routes in one rampage (at most %d)", slots,
                    D18_ROUTE_MAX_SLOTS);
    return CR_OK;
}

/* ---- sorting without allocation: heap sort of indices ---- */

typedef int (*idx_less)(const d18_route_ws *ws, uint32_t a, uint32_t b);

static void sift(const d18_route_ws *ws, uint32_t *v, size_t n, size_t i, idx_less less)
{
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) return;
        if (c + 1 < n && less(ws, v[c], v[c + 1])) c++;
        if (!less(ws, v[i], v[c])) return;
        uint32_t t = v[i];
        v[i] = v[c];
        v[c] = t;
        i = c;
    }
}

static void heap_sort(const d18_route_ws *ws, uint32_t *v, size_t n, idx_less less)
{
    if (n < 2) return;
    for (size_t i = n / 2; i-- > 0;) sift(ws, v, n, i, less);
    for (size_t end = n - 1; end > 0; end--) {
        uint32_t t = v[0];
        v[0] = v[end];
        v[end] = t;
        sift(ws, v, end, 0, less);
    }
}

/* Sorts route indices v[0..n), given in ascending index order, by
 * descending key (key of route i: the int32 at base + i × stride), equal
 * keys in ascending index (a total order, so the result is the one any
 * correct sort gives): a stable LSD radix sort on bytes (a byte shared by
 * every key is skipped) with tmp as the other buffer.  It replaced
 * heap_sort's indirect comparisons for the orders by revenue and by
 * reduced revenue, a tenth of a slow position's time. */
static void radix_desc(uint32_t *v, uint32_t *tmp, uint32_t n, const void *base, size_t stride)
{
    if (n < 2) return;
    uint32_t cnt[4][256] = {{0}};
    const unsigned char *kb = base;
    for (uint32_t i = 0; i < n; i++) {
        int32_t k;
        memcpy(&k, kb + (size_t)v[i] * stride, sizeof k);
        uint32_t d = (uint32_t)((int64_t)INT32_MAX - k); /* ascending d: descending k */
        for (int j = 0; j < 4; j++) cnt[j][(d >> (8 * j)) & 255]++;
    }
    uint32_t *src = v, *dst = tmp;
    for (int j = 0; j < 4; j++) {
        uint32_t pos[256], s = 0;
        int one = 0;
        for (int b = 0; b < 256; b++) {
            if (cnt[j][b] == n) one = 1;
            pos[b] = s;
            s += cnt[j][b];
        }
        if (one) continue; /* every key has this byte: the order stays */
        for (uint32_t i = 0; i < n; i++) {
            int32_t k;
            memcpy(&k, kb + (size_t)src[i] * stride, sizeof k);
            uint32_t d = (uint32_t)((int64_t)INT32_MAX - k);
            dst[pos[(d >> (8 * j)) & 255]++] = src[i];
        }
        uint32_t *x = src;
        src = dst;
        dst = x;
    }
    if (src != v) memcpy(v, src, n * sizeof *v);
}

/* Canonical tuple order of two routes of one type (then index, for a total order). */
static int tuple_cmp(const d18_route_ws *ws, uint32_t a, uint32_t b)
{
    const rt *x = &ws->r[a], *y = &ws->r[b];
    const uint16_t *px = ws->pool + x->tup, *py = ws->pool + y->tup;
    int lx = x->len + (x->home < 0 ? 1 + x->nl : 0), ly = y->len + (y->home < 0 ? 1 + y->nl : 0);
    for (int i = 0; i < lx && i < ly; i++) {
        int vx = i < x->len ? px[i] : (i == x->len ? -1 : px[i - 1]);
        int vy = i < y->len ? py[i] : (i == y->len ? -1 : py[i - 1]);
        if (vx != vy) return vx < vy ? -1 : 1;
    }
    return (lx > ly) - (lx < ly);
}

static int lex_first(const d18_route_ws *ws, uint32_t a, uint32_t b)
{
    int c = tuple_cmp(ws, a, b);
    return c ? c < 0 : a < b;
}

/* For heap_sort (which builds ascending order of `less`): */
static int lex_less(const d18_route_ws *ws, uint32_t a, uint32_t b) { return lex_first(ws, a, b); }

/* ---- route enumeration ---- */

static int stops_bounded(const d18_route_monster *m)
{
    return m->move == D18_MOVE_DIT || m->move == D18_MOVE_CITY || m->move == D18_MOVE_MAJOR;
}

static int stops_now(const d18_route_ws *ws, const d18_route_monster *m)
{
    switch (m->move) {
    case D18_MOVE_DIT: return ws->n_city + ws->n_town + ws->n_off;
    case D18_MOVE_CITY: return ws->n_city;
    case D18_MOVE_MAJOR: return ws->n_city + ws->n_off;
    default: return 0;
    }
}

static int may_end(const d18_route_input *in, const d18_route_monster *m, int v)
{
    if (in->loc[v].kind != D18_LOC_OFF) return 1;
    return m->export_ && m->move != D18_MOVE_CITY; /* R65 */
}

static int may_pass(const d18_route_input *in, const d18_route_monster *m, int v)
{
    const d18_route_loc *l = &in->loc[v];
    if (l->kind == D18_LOC_OFF) return 0; /* R52, R65 */
    if (l->kind == D18_LOC_CITY && l->blocked)
        return (m->flags & D18_RF_NOT_BLOCKED) != 0; /* R60 */
    return 1;
}

static void count_loc(d18_route_ws *ws, int v, int d)
{
    const d18_route_loc *l = &ws->in->loc[v];
    if (l->kind == D18_LOC_CITY)
        ws->n_city += d;
    else if (l->kind == D18_LOC_TOWN)
        ws->n_town += d;
    else
        ws->n_off += d;
    if (l->office) ws->n_office += d;
}

/* Stores one route (or only counts it when the workspace is full); with
 * ws->filter set, counts or stores by potential instead (restrict_routes). */
static void store(d18_route_ws *ws, const uint64_t e[D18_ROUTE_WORDS], int32_t rev, int32_t fdval,
                  int fdloc, int home, const uint16_t *locs, int len, const uint16_t *lng, int nl)
{
    int t = ws->cur_type;
    if (ws->filter) {
        int64_t pot = rev + ws->p_off[t];
        if (ws->filter == 1) {
            if (pot < ws->p_lo) return;
            int64_t b = (pot - ws->p_lo) / ws->p_width;
            b = b < HIST ? b : HIST - 1;
            ws->hist_n[b]++;
            ws->hist_pool[b] += (uint64_t)(len + nl);
            return;
        }
        if (pot < ws->theta) return;
    } else {
        /* the type's best revenues over all its routes, stored or not */
        int k = ws->ti[t].slots, n = ws->n_top[t];
        if (n < k || rev > ws->top[t][k - 1]) {
            int j = n < k ? n++ : k - 1;
            for (; j > 0 && ws->top[t][j - 1] < rev; j--) ws->top[t][j] = ws->top[t][j - 1];
            ws->top[t][j] = rev;
            ws->n_top[t] = n;
        }
        if (fdval > ws->fdmax_all) ws->fdmax_all = fdval;
    }
    ws->counted++;
    if (ws->overflow || ws->n_routes >= ws->cap ||
        ws->pool_len + (uint32_t)(len + nl) > ws->pool_cap) {
        ws->overflow = 1;
        return;
    }
    rt *r = &ws->r[ws->n_routes++];
    memcpy(r->e, e, sizeof r->e);
    r->rev = rev;
    r->fdval = fdval;
    r->fdloc = (uint16_t)(fdloc < 0 ? 0 : fdloc);
    r->home = (int16_t)home;
    r->len = (uint8_t)len;
    r->nl = (uint8_t)nl;
    r->tup = ws->pool_len;
    memcpy(ws->pool + ws->pool_len, locs, (size_t)len * sizeof *locs);
    if (nl) memcpy(ws->pool + ws->pool_len + len, lng, (size_t)nl * sizeof *lng);
    ws->pool_len += (uint32_t)(len + nl);
}

/* The path on ws->path[0..k] is a candidate route: check rule 3 (§13.3),
 * choose the linger set, and store it if it earns anything. */
static void emit(d18_route_ws *ws, const d18_route_monster *m, int k)
{
    const d18_route_input *in = ws->in;
    int len = k + 1;
    if (!(m->flags & D18_RF_NO_OFFICE) && ws->n_office == 0) {
        int ok = 0;
        if ((m->flags & D18_RF_CASTLE) && in->has_castle) /* R100: K's ends count for rule 3 */
            for (int i = 0; i < len && !ok; i++)
                ok = ws->path[i] == in->castle.a || ws->path[i] == in->castle.b;
        if (!ok) return;
    }
    int room = m->linger;
    if (stops_bounded(m)) {
        int left = m->n - stops_now(ws, m);
        if (left < room) room = left;
    }
    uint16_t lng[D18_ROUTE_MAX_LINGER];
    int nl = 0;
    int64_t rev = ws->psum[k];
    int32_t fdval = ws->pfd[k];
    int fdloc = ws->pfdloc[k];
    /* R67: the best `room` cities count twice; equal values: smaller location
     * first (the smaller tuple, R117): the first of the path's list (push_sums) */
    int max_pos = -1;
    for (; nl < room && nl < ws->n_plg[k]; nl++) {
        lng[nl] = ws->plg[k][nl];
        rev += in->loc[lng[nl]].value;
        if (lng[nl] > max_pos) max_pos = lng[nl];
    }
    /* Stops left over: a city worth 0 lingers for nothing, but the tuple
     * (..., -1, z, x) is smaller than (..., -1, x) when z < x, so the
     * smallest such cities below the largest linger join (R117). */
    if (nl < room && max_pos > 0) {
        uint8_t taken[D18_ROUTE_MAX_LOCS];
        memset(taken, 0, (size_t)len);
        for (int pick = nl; pick < room && pick < D18_ROUTE_MAX_LINGER; pick++) {
            int bi = -1;
            for (int i = 0; i < len; i++) {
                const d18_route_loc *l = &in->loc[ws->path[i]];
                if (taken[i] || l->kind != D18_LOC_CITY || l->value != 0 || ws->path[i] > max_pos)
                    continue;
                if (bi < 0 || ws->path[i] < ws->path[bi]) bi = i;
            }
            if (bi < 0) break;
            taken[bi] = 1;
            lng[nl++] = ws->path[bi];
        }
    }
    if (rev <= 0) return;
    for (int i = 1; i < nl; i++) /* ascending */
        for (int j = i; j > 0 && lng[j - 1] > lng[j]; j--) {
            uint16_t t = lng[j];
            lng[j] = lng[j - 1];
            lng[j - 1] = t;
        }
    store(ws, ws->pe[k], (int32_t)rev, fdval, fdloc, -1, ws->path, len, lng, nl);
}

/* psum, pfd, pfdloc and pe at k from those at k - 1 (k = 0: the start) and
 * path[k], pedge[k]. */
static void push_sums(d18_route_ws *ws, const d18_route_monster *m, int k)
{
    const d18_route_input *in = ws->in;
    int v = ws->path[k];
    const d18_route_loc *l = &in->loc[v];
    int64_t rev = k ? ws->psum[k - 1] : 0;
    int32_t fdval = k ? ws->pfd[k - 1] : 0;
    int fdloc = k ? ws->pfdloc[k - 1] : -1;
    ws->psum[k] = rev + (l->kind == D18_LOC_TOWN ? m->town : l->value);
    if (l->kind == D18_LOC_OFF && l->fd && in->owns_fd && l->value > 0 &&
        (l->value > fdval || (l->value == fdval && v < fdloc))) {
        fdval = l->value;
        fdloc = v;
    }
    ws->pfd[k] = fdval;
    ws->pfdloc[k] = (int16_t)fdloc;
    int n = k ? ws->n_plg[k - 1] : 0;
    if (k) memcpy(ws->plg[k], ws->plg[k - 1], (size_t)n * sizeof ws->plg[k][0]);
    if (l->kind == D18_LOC_CITY && l->value > 0 && m->linger > 0 &&
        (n < m->linger || l->value > in->loc[ws->plg[k][n - 1]].value ||
         (l->value == in->loc[ws->plg[k][n - 1]].value && v < ws->plg[k][n - 1]))) {
        int j = n < m->linger ? n++ : n - 1; /* in, before the worse; the last drops out if full */
        for (; j > 0; j--) {
            const d18_route_loc *x = &in->loc[ws->plg[k][j - 1]];
            if (x->value > l->value || (x->value == l->value && ws->plg[k][j - 1] < v)) break;
            ws->plg[k][j] = ws->plg[k][j - 1];
        }
        ws->plg[k][j] = (uint16_t)v;
    }
    ws->n_plg[k] = (uint8_t)n;
    for (int w = 0; w < D18_ROUTE_WORDS; w++) ws->pe[k][w] = k ? ws->pe[k - 1][w] : 0;
    if (k) ws->pe[k][ws->pedge[k] >> 6] |= 1ull << (ws->pedge[k] & 63);
}

static void extend(d18_route_ws *ws, const d18_route_monster *m, int k)
{
    const d18_route_input *in = ws->in;
    int v = ws->path[k];
    if (k >= 1 && ws->path[0] < v) emit(ws, m, k);
    if (ws->overflow && ws->counted >= (uint64_t)ws->cap * COUNT_FACTOR) return;
    if (k >= 1 && !may_pass(in, m, v)) return;
    for (int j = ws->adj_start[v]; j < ws->adj_start[v + 1]; j++) {
        int w = ws->adj_to[j], e = ws->adj_e[j];
        if (ws->onpath[w]) continue;
        if (e == ws->castle_e && !(m->flags & D18_RF_CASTLE)) continue;
        if (!may_end(in, m, w)) continue;
        count_loc(ws, w, +1);
        if (!stops_bounded(m) || stops_now(ws, m) <= m->n) {
            ws->onpath[w] = 1;
            ws->path[k + 1] = (uint16_t)w;
            ws->pedge[k + 1] = (uint16_t)e;
            push_sums(ws, m, k + 1);
            extend(ws, m, k + 1);
            ws->onpath[w] = 0;
        }
        count_loc(ws, w, -1);
    }
}

static void enum_paths(d18_route_ws *ws, const d18_route_monster *m)
{
    const d18_route_input *in = ws->in;
    for (int v0 = 0; v0 < in->n_locs; v0++) {
        if (!may_end(in, m, v0)) continue;
        ws->n_city = ws->n_town = ws->n_off = ws->n_office = 0;
        count_loc(ws, v0, +1);
        if (stops_bounded(m) && stops_now(ws, m) > m->n) continue;
        ws->onpath[v0] = 1;
        ws->path[0] = (uint16_t)v0;
        push_sums(ws, m, 0);
        extend(ws, m, 0);
        ws->onpath[v0] = 0;
    }
}

static void enum_home(d18_route_ws *ws, const d18_route_monster *m)
{
    const d18_route_input *in = ws->in;
    const uint64_t none[D18_ROUTE_WORDS] = {0};
    for (int c = 0; c < in->n_locs; c++) {
        const d18_route_loc *l = &in->loc[c];
        if (l->kind != D18_LOC_CITY || !l->office || l->value <= 0) continue;
        int cap = l->home_stack > 0 ? l->home_stack : 1; /* R69 */
        if (cap > m->copies) cap = m->copies;
        uint16_t loc = (uint16_t)c;
        for (int i = 0; i < cap; i++) store(ws, none, l->value, 0, -1, c, &loc, 1, NULL, 0);
    }
}

/* §8.9.8, R127: offices and every city and town joined to one, once each. */
static int64_t howl_revenue(const d18_route_ws *ws, const d18_route_monster *m)
{
    const d18_route_input *in = ws->in;
    uint8_t seen[D18_ROUTE_MAX_LOCS] = {0};
    int64_t rev = 0;
    for (int o = 0; o < in->n_locs; o++) {
        if (!in->loc[o].office) continue;
        if (!seen[o]) {
            seen[o] = 1;
            rev += in->loc[o].value;
        }
        for (int j = ws->adj_start[o]; j < ws->adj_start[o + 1]; j++) {
            int w = ws->adj_to[j];
            if (ws->adj_e[j] == ws->castle_e || seen[w] || in->loc[w].kind == D18_LOC_OFF) continue;
            seen[w] = 1;
            rev += in->loc[w].kind == D18_LOC_TOWN ? m->town : in->loc[w].value;
        }
    }
    return rev;
}

static void build_graph(d18_route_ws *ws)
{
    const d18_route_input *in = ws->in;
    int n = in->n_locs;
    ws->n_edges = in->n_spaces + (in->has_castle ? 1 : 0);
    ws->castle_e = in->has_castle ? in->n_spaces : -1;
    int deg[D18_ROUTE_MAX_LOCS + 1] = {0};
    for (int i = 0; i < ws->n_edges; i++) {
        const d18_route_space *s = i < in->n_spaces ? &in->sp[i] : &in->castle;
        deg[s->a]++;
        deg[s->b]++;
    }
    ws->adj_start[0] = 0;
    for (int v = 0; v < n; v++) ws->adj_start[v + 1] = ws->adj_start[v] + deg[v];
    int fill[D18_ROUTE_MAX_LOCS];
    for (int v = 0; v < n; v++) fill[v] = ws->adj_start[v];
    for (int i = 0; i < ws->n_edges; i++) {
        const d18_route_space *s = i < in->n_spaces ? &in->sp[i] : &in->castle;
        ws->adj_to[fill[s->a]] = s->b;
        ws->adj_e[fill[s->a]++] = (uint16_t)i;
        ws->adj_to[fill[s->b]] = s->a;
        ws->adj_e[fill[s->b]++] = (uint16_t)i;
    }
    ws->parallel = 0;
    for (int v = 0; v < n; v++) { /* neighbours ascending, then edge index */
        for (int i = ws->adj_start[v] + 1; i < ws->adj_start[v + 1]; i++)
            for (int j = i; j > ws->adj_start[v]; j--) {
                int a = ws->adj_to[j - 1], b = ws->adj_to[j];
                if (a < b || (a == b && ws->adj_e[j - 1] < ws->adj_e[j])) break;
                uint16_t t = ws->adj_to[j];
                ws->adj_to[j] = ws->adj_to[j - 1];
                ws->adj_to[j - 1] = t;
                t = ws->adj_e[j];
                ws->adj_e[j] = ws->adj_e[j - 1];
                ws->adj_e[j - 1] = t;
            }
        for (int i = ws->adj_start[v] + 1; i < ws->adj_start[v + 1]; i++)
            if (ws->adj_to[i] == ws->adj_to[i - 1]) ws->parallel = 1;
        int d = ws->adj_start[v + 1] - ws->adj_start[v];
        ws->vcap[v] = (int8_t)(d >= 3 && d % 2 == 1 && d <= 2 * INT8_MAX ? d / 2 : -1);
    }
}

/* Every route of every type into ws->r (or counted, by ws->filter). */
static void enumerate(d18_route_ws *ws)
{
    const d18_route_input *in = ws->in;
    ws->n_routes = ws->pool_len = 0;
    ws->counted = 0;
    ws->overflow = 0;
    for (int t = 0; t < in->n_types; t++) {
        const d18_route_monster *m = &in->type[t];
        ws->ti[t].b = ws->n_routes;
        ws->ti[t].slots = slots_of(m);
        ws->cur_type = t;
        if (m->move == D18_MOVE_HOME)
            enum_home(ws, m);
        else if (m->move != D18_MOVE_HOWL)
            enum_paths(ws, m);
        ws->ti[t].e = ws->n_routes;
    }
}

/* The routes did not fit, but all were counted (the best revenues of each
 * type in ws->top): keeps only the routes that may be in the answer, when
 * they fit.  A rampage holding route R of type t earns at most R's
 * potential: rev(R) + U - top[t][slots - 1] + the largest Dutchman bonus,
 * where U is every type's best `slots` revenues summed (the other routes
 * of t earn at most t's best slots - 1).  The best single route is a
 * rampage, so a route of potential below its revenue p_lo is never in the
 * answer.  A histogram of the potentials (one enumeration) gives the
 * lowest threshold theta whose routes fit, and a third enumeration stores
 * those.  Returns 0 if even the top bucket does not fit.  The search on
 * them then answers exactly when its total is at least theta: every route
 * left out has a potential below theta, so no rampage holding one earns
 * that much, ties included (d18_route_solve checks). */
static int restrict_routes(d18_route_ws *ws)
{
    const d18_route_input *in = ws->in;
    int64_t u = 0, lo = 0, hi = 0;
    for (int t = 0; t < in->n_types; t++) {
        for (int j = 0; j < ws->n_top[t]; j++) u += ws->top[t][j];
        if (ws->n_top[t] && ws->top[t][0] > lo) lo = ws->top[t][0];
    }
    for (int t = 0; t < in->n_types; t++) {
        int k = ws->ti[t].slots;
        ws->p_off[t] = u - (ws->n_top[t] == k ? ws->top[t][k - 1] : 0) + ws->fdmax_all;
        if (ws->n_top[t] && ws->top[t][0] + ws->p_off[t] > hi) hi = ws->top[t][0] + ws->p_off[t];
    }
    ws->p_lo = lo;
    ws->p_width = (hi - lo) / HIST + 1;
    memset(ws->hist_n, 0, sizeof ws->hist_n);
    memset(ws->hist_pool, 0, sizeof ws->hist_pool);
    ws->filter = 1;
    enumerate(ws);
    int b = HIST;
    uint64_t n = 0, pool = 0;
    while (b > 0 && n + ws->hist_n[b - 1] <= ws->cap &&
           pool + ws->hist_pool[b - 1] <= ws->pool_cap) {
        b--;
        n += ws->hist_n[b];
        pool += ws->hist_pool[b];
    }
    if (b == HIST) return 0;
    ws->theta = lo + (int64_t)b * ws->p_width;
    ws->filter = 2;
    enumerate(ws);
    return !ws->overflow;
}

/* Orders, ranks and bound tables of type t's routes. */
static void index_type(d18_route_ws *ws, int t)
{
    tinfo *ti = &ws->ti[t];
    uint32_t b = ti->b, n = ti->e - ti->b;
    /* The records (48 bytes each, megabytes on a dense position) are read
     * in index order only: the revenues are copied to red (free until the
     * price fit) for the sort, and each route's bits go to its ord
     * position through opos. */
    for (uint32_t i = 0; i < n; i++) {
        ws->ord[b + i] = ws->lex[b + i] = b + i;
        ws->red[b + i] = ws->r[b + i].rev;
    }
    radix_desc(ws->ord + b, ws->tmp, n, ws->red, sizeof(int32_t)); /* rev desc, index asc */
    for (uint32_t i = 0; i < n; i++) ws->opos[ws->ord[b + i]] = i;
    for (uint32_t i = b; i < b + n; i++) {
        uint32_t j = b + ws->opos[i];
        const uint64_t *e = ws->r[i].e;
        for (int w = 0; w < D18_ROUTE_WORDS; w++)
            for (uint64_t m = e[w]; m; m &= m - 1)
                ws->bm[(size_t)(64 * w + __builtin_ctzll(m)) * ws->bm_w + (j >> 6)] |= 1ull
                                                                                       << (j & 63);
    }
    if (ws->parallel) heap_sort(ws, ws->lex + b, n, lex_less);
    /* equal tuples (home copies, parallel spaces) share a rank; a path type
     * without parallel spaces has none (each path is stored once) */
    int may_tie = ws->parallel || (n > 0 && ws->r[b].home >= 0);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = ws->lex[b + i];
        if (i > 0 && may_tie && tuple_cmp(ws, ws->lex[b + i - 1], r) == 0)
            ws->rank[r] = ws->rank[ws->lex[b + i - 1]];
        else
            ws->rank[r] = b + i;
    }
    int64_t s = 0;
    ti->fdmax = 0;
    for (uint32_t i = 0; i < n; i++) {
        s += ws->red[ws->ord[b + i]];
        ws->pre[b + i] = s;
        if (ws->r[b + i].fdval > ti->fdmax) ti->fdmax = ws->r[b + i].fdval;
    }
}

/* ---- search ---- */

static int overlaps(const uint64_t *a, const uint64_t *b)
{
    return ((a[0] & b[0]) | (a[1] & b[1]) | (a[2] & b[2])) != 0;
}

/* The route spaces of a set, listed (for next_free). */
typedef struct uset {
    int n;
    uint8_t s[D18_ROUTE_MAX_SPACES];
} uset;

static void uset_add(uset *u, const uint64_t *e)
{
    for (int w = 0; w < D18_ROUTE_WORDS; w++)
        for (uint64_t m = e[w]; m; m &= m - 1)
            u->s[u->n++] = (uint8_t)(64 * w + __builtin_ctzll(m));
}

static void uset_of(const uint64_t *used, uset *u)
{
    u->n = 0;
    uset_add(u, used);
}

/* The routes of word w (ord positions 64 w .. 64 w + 63) among the bits
 * of m that use none of the spaces of u. */
static uint64_t free_mask(const d18_route_ws *ws, uint32_t w, uint64_t m, const uset *u)
{
    for (int k = 0; k < u->n && m; k++) m &= ~ws->bm[(size_t)u->s[k] * ws->bm_w + w];
    return m;
}

/* The first ord position in [i, end) whose route uses none of the spaces
 * of u, or end, 64 routes at a time on the transposed bitsets.  The free
 * routes of the last word looked at are kept in *cw (its index; UINT32_MAX
 * at first) and *cm, so a loop asking again with the same u masks each
 * word once, not once a candidate. */
static uint32_t next_free(const d18_route_ws *ws, uint32_t i, uint32_t end, const uset *u,
                          uint32_t *cw, uint64_t *cm)
{
    while (i < end) {
        uint32_t w = i >> 6;
        if (w != *cw) {
            *cw = w;
            *cm = free_mask(ws, w, ~0ull, u);
        }
        uint64_t m = *cm & (~0ull << (i & 63));
        if (m) {
            uint32_t j = (w << 6) + (uint32_t)__builtin_ctzll(m);
            return j < end ? j : end;
        }
        i = (w + 1) << 6;
    }
    return end;
}

/* The route spaces of the route at ord position j (absolute). */
static const uint64_t *oe_at(const d18_route_ws *ws, uint32_t j) { return ws->r[ws->ord[j]].e; }

static int32_t orev_at(const d18_route_ws *ws, const tinfo *ti, uint32_t j)
{
    return (int32_t)(ws->pre[j] - (j > ti->b ? ws->pre[j - 1] : 0));
}

/* Best `k` revenues of type t from rev-position p on, among routes not
 * overlapping `used`: exact if found within SCAN_LIMIT routes, else the
 * found ones plus the next revenue for each missing one (an upper bound). */
static int64_t scan_bound_kept(const d18_route_ws *ws, int t, uint32_t p, int k, const uset *u,
                               const uset *extra, uint32_t cw, uint64_t cm)
{
    const tinfo *ti = &ws->ti[t];
    int64_t s = 0;
    int found = 0;
    uint32_t i0 = ti->b + p;
    uint32_t lim = ti->e - i0 > SCAN_LIMIT ? i0 + SCAN_LIMIT : ti->e;
    for (uint32_t w = i0 >> 6; w << 6 < lim && found < k; w++) {
        uint64_t m = w << 6 < i0 ? ~0ull << (i0 & 63) : ~0ull;
        if (lim - (w << 6) < 64) m &= (1ull << (lim - (w << 6))) - 1;
        m = w == cw ? m & cm : free_mask(ws, w, m, u);
        if (extra) m = free_mask(ws, w, m, extra);
        for (; m && found < k; m &= m - 1) {
            s += orev_at(ws, ti, (w << 6) + (uint32_t)__builtin_ctzll(m));
            found++;
        }
    }
    if (found < k && lim < ti->e) s += (int64_t)(k - found) * orev_at(ws, ti, lim);
    return s;
}

static int64_t scan_bound(const d18_route_ws *ws, int t, uint32_t p, int k, const uset *u)
{
    return scan_bound_kept(ws, t, p, k, u, NULL, UINT32_MAX, 0);
}

/* The same for k routes that must also be disjoint from each other: the
 * best compatible route a either is among them (then the others avoid its
 * spaces) or is not; each case is bounded again, `depth` levels deep, then
 * by scan_bound.  The top routes of one type are mostly variants of one
 * path, so this is far tighter than scan_bound when k > 1. */
static int64_t pick_bound(const d18_route_ws *ws, int t, uint32_t p, int k, const uset *u,
                          int depth)
{
    if (k <= 1 || depth <= 0) return scan_bound(ws, t, p, k, u);
    const tinfo *ti = &ws->ti[t];
    uint32_t cw = UINT32_MAX;
    uint64_t cm = 0;
    uint32_t i = next_free(ws, ti->b + p, ti->e, u, &cw, &cm);
    if (i == ti->e) return 0;
    if (depth == 1) {
        /* both cases are scans: the routes free beside u in i's word are
         * known, and those beside u and i's spaces are among them */
        uset own;
        own.n = 0;
        uset_add(&own, oe_at(ws, i));
        uint32_t next = i + 1 - ti->b;
        int64_t with = orev_at(ws, ti, i) + scan_bound_kept(ws, t, next, k - 1, u, &own, cw, cm);
        int64_t without = scan_bound_kept(ws, t, next, k, u, NULL, cw, cm);
        return with > without ? with : without;
    }
    uset with_i;
    with_i.n = u->n;
    memcpy(with_i.s, u->s, (size_t)u->n);
    uset_add(&with_i, oe_at(ws, i));
    uint32_t next = i + 1 - ti->b;
    int64_t with = orev_at(ws, ti, i) + pick_bound(ws, t, next, k - 1, &with_i, depth - 1);
    int64_t without = pick_bound(ws, t, next, k, u, depth - 1);
    return with > without ? with : without;
}

/* k more routes of type t from rev-position p on, beside the spaces of u. */
static int64_t type_bound(const d18_route_ws *ws, int t, uint32_t p, int k, const uset *u)
{
    int64_t b = pick_bound(ws, t, p, k, u, BOUND_DEPTH);
    return b < ws->alone[t][k] ? b : ws->alone[t][k];
}

static int64_t rest_bound(const d18_route_ws *ws, int ci, const uset *u)
{
    int64_t s = 0;
    for (int c = ci; c < ws->n_comp; c++)
        s += type_bound(ws, ws->comp[c], 0, ws->ti[ws->comp[c]].slots, u);
    return s;
}

/* Sum of the k best revenues of type t from rev-position p on. */
static int64_t static_topk(const d18_route_ws *ws, int t, uint32_t p, int k)
{
    const tinfo *ti = &ws->ti[t];
    uint32_t n = ti->e - ti->b;
    if (p >= n || k <= 0) return 0;
    uint32_t last = p + (uint32_t)k - 1;
    if (last >= n) last = n - 1;
    return ws->pre[ti->b + last] - (p ? ws->pre[ti->b + p - 1] : 0);
}

/* The first rev-position i >= p of type t (its route count if none) whose
 * k best revenues from i on sum below need: static_topk(t, i, k) does not
 * grow with i, so bisection finds it. */
static uint32_t topk_end(const d18_route_ws *ws, int t, uint32_t p, int k, int64_t need)
{
    const tinfo *ti = &ws->ti[t];
    uint32_t lo = p, hi = ti->e - ti->b;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (static_topk(ws, t, mid, k) < need)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static int home_ok(const d18_route_ws *ws, const rt *r)
{
    return r->home < 0 || ws->hused[r->home] < ws->hcap[r->home];
}

/* The canonical description of the routes on the stack (per type sorted by
 * rank) and its FD choice, into ws->cand*. */
static void describe(d18_route_ws *ws, int32_t fd)
{
    ws->cand_fd_slot = ws->cand_fd_loc = -1;
    for (int c = 0; c < ws->n_comp; c++) {
        int b = ws->cur_start[c], e = ws->cur_start[c + 1];
        for (int i = b; i < e; i++) {
            uint32_t x = ws->cur[i];
            int j = i;
            for (; j > b && ws->rank[ws->cand[j - 1]] > ws->rank[x]; j--)
                ws->cand[j] = ws->cand[j - 1];
            ws->cand[j] = x;
        }
    }
    for (int k = 0; fd > 0 && k < ws->n_comp && ws->cand_fd_slot < 0; k++) {
        /* the smallest (i, v) earning the bonus: types in roster order */
        int c = ws->rorder[k], b = ws->cur_start[c], e = ws->cur_start[c + 1];
        {
            int t = ws->comp[c];
            for (int i = b; i < e; i++) {
                const rt *r = &ws->r[ws->cand[i]];
                if (r->fdval == fd) {
                    ws->cand_fd_slot = ws->first[t] + ws->ti[t].slots - (e - b) + (i - b);
                    ws->cand_fd_loc = r->fdloc;
                    break;
                }
            }
        }
    }
}

/* §13.6 between the candidate and the best: per type, fewer routes first
 * (() pads at the front), then the routes' tuples; then the FD choice. */
static int cand_cmp(const d18_route_ws *ws)
{
    for (int k = 0; k < ws->n_comp; k++) {
        int c = ws->rorder[k];
        int na = ws->cur_start[c + 1] - ws->cur_start[c];
        int nb = ws->best_start[c + 1] - ws->best_start[c];
        if (na != nb) return na < nb ? -1 : 1;
        for (int i = 0; i < na; i++) {
            uint32_t ra = ws->rank[ws->cand[ws->cur_start[c] + i]];
            uint32_t rb = ws->rank[ws->best_r[ws->best_start[c] + i]];
            if (ra != rb) return ra < rb ? -1 : 1;
        }
    }
    if (ws->cand_fd_slot != ws->best_fd_slot) return ws->cand_fd_slot < ws->best_fd_slot ? -1 : 1;
    return (ws->cand_fd_loc > ws->best_fd_loc) - (ws->cand_fd_loc < ws->best_fd_loc);
}

static void leaf(d18_route_ws *ws, int64_t sum, int32_t fd)
{
    int64_t total = sum + fd;
    if (total > ws->seen) ws->seen = total;
    if (total < ws->best) return;
    ws->cur_start[ws->n_comp] = ws->n_cur;
    describe(ws, fd);
    if (total == ws->best && cand_cmp(ws) >= 0) return;
    ws->best = total;
    memcpy(ws->best_r, ws->cand, (size_t)ws->n_cur * sizeof ws->cand[0]);
    memcpy(ws->best_start, ws->cur_start, (size_t)(ws->n_comp + 1) * sizeof ws->cur_start[0]);
    ws->best_fd_slot = ws->cand_fd_slot;
    ws->best_fd_loc = ws->cand_fd_loc;
}

/* Best k positive reduced revenues of type t among routes not overlapping
 * `used` (scan in reduced order; extrapolated past SCAN_LIMIT). */
static int64_t red_scan_of(const d18_route_ws *ws, const int32_t *red, const uint32_t *rord, int t,
                           int k, const uint64_t *used)
{
    const tinfo *ti = &ws->ti[t];
    int64_t s = 0;
    int found = 0, scanned = 0;
    for (uint32_t i = ti->b; i < ti->e && found < k; i++) {
        uint32_t ri = rord[i];
        if (red[ri] <= 0) break;
        if (scanned++ == SCAN_LIMIT) return s + (int64_t)(k - found) * red[ri];
        if (!overlaps(ws->r[ri].e, used)) {
            s += red[ri];
            found++;
        }
    }
    return s;
}

static int64_t red_scan(const d18_route_ws *ws, int t, int k, const uint64_t *used)
{
    if (!ws->e_o) return red_scan_of(ws, ws->red, ws->rord, t, k, used);
    /* the same from the copies in rord order (red_o, e_o) */
    const tinfo *ti = &ws->ti[t];
    int64_t s = 0;
    int found = 0, scanned = 0;
    for (uint32_t i = ti->b; i < ti->e && found < k; i++) {
        int32_t rd = ws->red_o[i];
        if (rd <= 0) break;
        if (scanned++ == SCAN_LIMIT) return s + (int64_t)(k - found) * rd;
        if (!(ws->e_o[i] & used[0])) {
            s += rd;
            found++;
        }
    }
    return s;
}

/* The same over redf (the Flying Dutchman priced in). */
static int64_t redf_scan(const d18_route_ws *ws, int t, int k, const uint64_t *used)
{
    return red_scan_of(ws, ws->redf, ws->rordf, t, k, used);
}

/* The prices route r pays: its spaces' and its interior locations'.  A
 * path's interior location touches two of its spaces, an end one. */
static int32_t lam_of(const d18_route_ws *ws, const rt *r)
{
    if (r->home >= 0) return 0;
    const uint16_t *loc = ws->pool + r->tup;
    int64_t s = -(int64_t)ws->pi[loc[0]] - ws->pi[loc[r->len - 1]];
    for (int w = 0; w < D18_ROUTE_WORDS; w++) {
        uint64_t m = r->e[w];
        if (!m) continue;
        const int32_t(*bt)[256] = ws->wbyte + 8 * w;
        s += (int64_t)bt[0][m & 255] + bt[1][(m >> 8) & 255] + bt[2][(m >> 16) & 255] +
             bt[3][(m >> 24) & 255] + bt[4][(m >> 32) & 255] + bt[5][(m >> 40) & 255] +
             bt[6][(m >> 48) & 255] + bt[7][m >> 56];
    }
    s /= 2;
    return (int32_t)(s > INT32_MAX ? INT32_MAX : s);
}

_Static_assert(D18_ROUTE_MAX_LOCS <= 128 && D18_ROUTE_MAX_VALUE < (1 << 17),
               "lam_fit packs a route's ends in 7 bits each and its fd value in 17");

/* lam_of for a route of a graph of at most 64 spaces, packed as lam_fit
 * keeps it: e its spaces, pk its ends, fd value and home bit. */
static int32_t lam_of_packed(const d18_route_ws *ws, uint64_t m, uint32_t pk)
{
    if (pk >> 31) return 0;
    /* The same sum as lam_of's in 32 bits: with at most 64 spaces and 128
     * locations, prices at most 100,000 each, it stays below 2 x 64 x
     * 100,000 + 2 x 128 x 100,000 = 38.4 million; and it is even and not
     * negative (twice the route's space prices and interior location
     * prices), so halving is a shift and needs no clamp. */
    const int32_t(*bt)[256] = ws->wbyte;
    int32_t s = bt[0][m & 255] + bt[1][(m >> 8) & 255] + bt[2][(m >> 16) & 255] +
                bt[3][(m >> 24) & 255] + bt[4][(m >> 32) & 255] + bt[5][(m >> 40) & 255] +
                bt[6][(m >> 48) & 255] + bt[7][m >> 56] - ws->pi[pk & 127] - ws->pi[pk >> 7 & 127];
    return s >> 1;
}

/* ws->w from lam and pi (pi is 0 where vcap < 0), and its byte tables. */
static void set_w(d18_route_ws *ws)
{
    const d18_route_input *in = ws->in;
    for (int e = 0; e < D18_ROUTE_MAX_SPACES; e++) {
        if (e >= ws->n_edges) {
            ws->w[e] = 0;
            continue;
        }
        const d18_route_space *sp = e < in->n_spaces ? &in->sp[e] : &in->castle;
        ws->w[e] = 2 * ws->lam[e] + ws->pi[sp->a] + ws->pi[sp->b];
    }
    for (int j = 0; j < D18_ROUTE_MAX_SPACES / 8; j++) {
        int32_t *t = ws->wbyte[j];
        t[0] = 0;
        if (8 * j >= ws->n_edges) continue; /* routes have no bits here: only t[0] is read */
        for (int b = 1; b < 256; b++) t[b] = t[b & (b - 1)] + ws->w[8 * j + __builtin_ctz(b)];
    }
}

/* A type's best routes by redf during the fit (then by the order they
 * were read), at most `keep` of them: their indices, redf and red. */
typedef struct fit_top {
    int n;
    uint32_t idx[D18_ROUTE_MAX_SLOTS + FIT_EXTRA]; /* the route */
    uint32_t pos[D18_ROUTE_MAX_SLOTS + FIT_EXTRA]; /* its position in ord */
    int32_t v[D18_ROUTE_MAX_SLOTS + FIT_EXTRA], red[D18_ROUTE_MAX_SLOTS + FIT_EXTRA];
} fit_top;

/* The best `keep` routes of type ti by redf at the current prices (equal
 * ones by ascending index): among the routes at ord positions list[j] for
 * j in [b, e) (there equal ones in the order read), or at ord positions
 * b..e-1 when list is NULL.  red <= rev (lam_of is a sum of prices >= 0),
 * so once top is full, a route whose revenue plus the most the Dutchman
 * adds is below the last one kept cannot enter: its prices are not summed,
 * and when reading ord in order (revenue descending) none after it can
 * enter either, so the scan stops there.  Reading ord in order, the scan
 * also keeps, at each route's position o below *known (routes b..*known-1
 * were read at some step), ubx[o] = red - dec, red at the step that read
 * it last and dec the fit's total price decrease then (lam_fit): since a
 * route's prices fell by at most dec_now - dec since, ubx[o] + dec_now
 * bounds its red now, and a route it shows cannot enter is skipped
 * unpriced. */
static void fit_scan(const d18_route_ws *ws, const tinfo *ti, const uint32_t *list, uint32_t b,
                     uint32_t e, int packed, int keep, fit_top *top, int32_t *ubx, int64_t dec,
                     uint32_t *known)
{
    int nt = 0;
    int32_t fd_add = ws->fd_any && ti->fdmax > ws->mu ? ti->fdmax - ws->mu : 0;
    /* once top is full: a route enters only if its redf beats vmin =
     * top->v[keep - 1] (or ties it with a smaller index, in ord order), so
     * only if its revenue reaches cut = vmin - fd_add; before, any
     * positive redf enters */
    int64_t cut = INT64_MIN;
    int32_t vmin = 0;
    uint32_t imin = 0; /* the index of the last route kept, once top is full */
    /* with ubx: a route at o < *known enters only if ubx[o] >= ucut */
    int64_t ucut = INT64_MIN;
    if (list) ubx = NULL;
    for (uint32_t j = b; j < e; j++) {
        uint32_t o = list ? list[j] : j;
        int32_t rev, fdval, red;
        if (ubx && o < *known && ubx[o] < ucut) continue;
        if (packed) { /* the same values from the packed copy */
            uint32_t pk = ws->rordf[o];
            rev = (int32_t)ws->rord[o];
            fdval = (int32_t)(pk >> 14 & 0x1ffff);
            if (rev < cut) {
                if (list) continue;
                break;
            }
            red = rev - lam_of_packed(ws, (uint64_t)ws->lex[o] | (uint64_t)ws->tmp[o] << 32, pk);
        } else {
            const rt *r = &ws->r[ws->ord[o]];
            rev = r->rev;
            fdval = r->fdval;
            if (rev < cut) {
                if (list) continue;
                break;
            }
            red = rev - lam_of(ws, r);
        }
        if (ubx) {
            ubx[o] = (int32_t)(red - dec);
            if (o >= *known) *known = o + 1;
        }
        int32_t v = red;
        if (ws->fd_any && fdval > ws->mu) v += fdval - ws->mu;
        if (v < vmin || (v == vmin && (list || nt < keep || ws->ord[o] > imin))) continue;
        uint32_t i = ws->ord[o];
        /* in, before the smaller ones; the last drops out if full */
        int k = nt < keep ? nt++ : keep - 1;
        for (; k > 0 && (top->v[k - 1] < v || (!list && top->v[k - 1] == v && top->idx[k - 1] > i));
             k--) {
            top->idx[k] = top->idx[k - 1];
            top->pos[k] = top->pos[k - 1];
            top->v[k] = top->v[k - 1];
            top->red[k] = top->red[k - 1];
        }
        top->idx[k] = i;
        top->pos[k] = o;
        top->v[k] = v;
        top->red[k] = red;
        if (nt == keep) {
            vmin = top->v[keep - 1];
            imin = top->idx[keep - 1];
            cut = (int64_t)vmin - fd_add;
            ucut = cut - dec;
        }
    }
    top->n = nt;
}

/* Adds the routes of top to type t's fit set (those not in it yet); if
 * the set is full, the type's steps read all its routes from now on. */
static void fit_keep(d18_route_ws *ws, int t, const fit_top *top)
{
    for (int j = 0; j < top->n && !ws->fit_all[t]; j++) {
        int k = 0, n = ws->n_fit_sub[t];
        const uint32_t *set = ws->fit_sub + ws->ti[t].b;
        while (k < n && set[k] != top->pos[j]) k++;
        if (k < n) continue;
        if (n == FIT_SUB)
            ws->fit_all[t] = 1;
        else
            ws->fit_sub[ws->ti[t].b + (uint32_t)ws->n_fit_sub[t]++] = top->pos[j];
    }
}

/* Prices by subgradient descent on the relaxation (Polyak steps towards
 * the best total known, lb): the k best reduced routes of each type,
 * disjointness dropped; a space used by several is priced up, an unused
 * one down.  Keeps the prices of the smallest bound seen.  Any prices give
 * a valid bound, so this only decides how fast the search is.
 *
 * Not every step reads every route (column generation): a full step reads
 * all of a type's routes and adds its best FIT_EXTRA + slots routes to the
 * type's fit set (fit_sub); the steps between full ones read only the fit
 * set, a few hundred routes instead of tens of thousands.  The first
 * FIT_HEAD steps (the prices move most then), every FIT_FULL_EVERY-th and
 * the last are full, and so is the step after one whose fit-set bound
 * would have stopped the descent.  A bound counts (best_b, the prices
 * kept, the stop at lb) only from a step that read every route of every
 * type: a fit-set step's bound may be too low.  A type whose fit set
 * fills up (FIT_SUB) reads all its routes from then on, and a part of at
 * most FIT_SMALL routes at every step: there the search, not the fit, is
 * what costs, and fit-set prices were measured to cost it more nodes than
 * they save (seed 1's position 249: 1,813 routes, 94,431 nodes with every
 * step full, 1.5 million with fit sets).  On seed 1's position 664 (43,585
 * routes) the fit, its last pricing and sorts included, went from 132 to
 * 40 million instructions.  (The search's nodes depend on the prices chaotically:
 * the constants were chosen on the slowest positions of seeds 1-4.) */
static int64_t lam_fit(d18_route_ws *ws, int64_t lb)
{
    int32_t best_lam[D18_ROUTE_MAX_SPACES], best_pi[D18_ROUTE_MAX_LOCS];
    int64_t best_b = INT64_MAX, best_step = INT64_MAX;
    int damp = 64, stall = 0; /* Polyak step × damp / 64 */
    int n_locs = ws->in->n_locs;
    memset(ws->lam, 0, sizeof ws->lam);
    memset(ws->pi, 0, sizeof ws->pi);
    memset(best_pi, 0, sizeof best_pi);
    ws->fd_any = 0;
    for (int c = 0; c < ws->n_comp; c++)
        if (ws->ti[ws->comp[c]].fdmax > 0) ws->fd_any = 1;
    ws->mu = ws->fdpot[0];
    int32_t best_mu = ws->mu;
    int64_t norm_mu;
    /* Each step reads every route's spaces, revenue, ends and fd value: on
     * a dense position tens of thousands of 48-byte records and their
     * pool entries, 50 times.  With at most 64 route spaces (the bundled
     * board has 55) those fit 16 bytes a route, in arrays free until the
     * fit ends, at the route's ord position (revenue descending, so a
     * full step stops early, fit_scan): the spaces in lex (low word) and
     * tmp (high word), the revenue in rord, and in rordf the ends (7 bits
     * each), the fd value (17 bits) and bit 31 for a home route. */
    int packed = ws->n_edges <= 64;
    for (int c = 0; packed && c < ws->n_comp; c++) {
        const tinfo *ti = &ws->ti[ws->comp[c]];
        for (uint32_t ri = ti->b; ri < ti->e; ri++) { /* records in index order */
            const rt *r = &ws->r[ri];
            uint32_t i = ti->b + ws->opos[ri];
            ws->lex[i] = (uint32_t)r->e[0];
            ws->tmp[i] = (uint32_t)(r->e[0] >> 32);
            ws->rord[i] = (uint32_t)r->rev;
            ws->rordf[i] = r->home >= 0 ? 1u << 31
                                        : (uint32_t)ws->pool[r->tup] |
                                              (uint32_t)ws->pool[r->tup + r->len - 1] << 7 |
                                              (uint32_t)r->fdval << 14;
        }
    }
    memset(ws->n_fit_sub, 0, sizeof ws->n_fit_sub);
    memset(ws->fit_all, 0, sizeof ws->fit_all);
    uint32_t n_part = 0;
    for (int c = 0; c < ws->n_comp; c++) n_part += ws->ti[ws->comp[c]].e - ws->ti[ws->comp[c]].b;
    if (n_part <= FIT_SMALL) memset(ws->fit_all, 1, sizeof ws->fit_all);
    /* dec: the sum over the steps so far of how much the prices (lam and
     * pi) fell, an upper bound on how much any route's fell (it pays each
     * space and each interior location once); known[t]: routes
     * ti[t].b .. known[t]-1 have their ubx in redf (fit_scan), which the
     * fit does not use otherwise.  Past DEC_MAX, ubx would leave int32_t:
     * the full steps then read every route the revenue cut leaves. */
    int64_t dec = 0;
    uint32_t known[D18_ROUTE_MAX_TYPES];
    for (int c = 0; c < ws->n_comp; c++) known[ws->comp[c]] = ws->ti[ws->comp[c]].b;
    int want_full = 1;
    for (int it = 0; it < LAM_ITERS; it++) {
        int g[D18_ROUTE_MAX_SPACES] = {0}, gv[D18_ROUTE_MAX_LOCS] = {0}, gmu = 0;
        int full =
            want_full || it < FIT_HEAD || it % FIT_FULL_EVERY == 0 || it >= LAM_ITERS - FIT_TAIL;
        want_full = 0;
        int exact = 1; /* every type read all its routes: bound is a bound */
        set_w(ws);
        int64_t bound = ws->fd_any ? ws->mu : 0;
        for (int e = 0; e < ws->n_edges; e++) bound += ws->lam[e];
        for (int v = 0; v < n_locs; v++)
            if (ws->vcap[v] >= 0) bound += (int64_t)ws->vcap[v] * ws->pi[v];
        for (int c = 0; c < ws->n_comp; c++) {
            const tinfo *ti = &ws->ti[ws->comp[c]];
            int t = ws->comp[c], slots = ti->slots, nt;
            fit_top top;
            if (full || ws->fit_all[t]) {
                fit_scan(ws, ti, NULL, ti->b, ti->e, packed, full ? slots + FIT_EXTRA : slots, &top,
                         dec < DEC_MAX ? ws->redf : NULL, dec, &known[t]);
                if (full && !ws->fit_all[t]) fit_keep(ws, t, &top);
            } else {
                fit_scan(ws, ti, ws->fit_sub + ti->b, 0, (uint32_t)ws->n_fit_sub[t], packed, slots,
                         &top, NULL, 0, NULL);
                exact = 0;
            }
            nt = top.n < slots ? top.n : slots;
            for (int j = 0; j < nt; j++) {
                const rt *r = &ws->r[top.idx[j]];
                bound += top.v[j];
                gmu += top.v[j] > top.red[j];
                for (int w = 0; w < D18_ROUTE_WORDS; w++)
                    for (uint64_t m = r->e[w]; m; m &= m - 1) g[w * 64 + __builtin_ctzll(m)]++;
                if (r->home < 0)
                    for (int k = 1; k + 1 < r->len; k++) gv[ws->pool[r->tup + k]]++;
            }
        }
        if (bound < best_step) {
            best_step = bound;
            stall = 0;
        } else if (++stall == 4 && damp > 1) { /* halve the step when it stops helping */
            damp /= 2;
            stall = 0;
        }
        if (exact && bound <= best_b) {
            best_b = bound;
            memcpy(best_lam, ws->lam, sizeof best_lam);
            memcpy(best_pi, ws->pi, sizeof best_pi);
            best_mu = ws->mu;
        }
        if (ws->fd_any && gmu != 1 && !(gmu == 0 && ws->mu == 0))
            norm_mu = (int64_t)(gmu - 1) * (gmu - 1);
        else
            norm_mu = 0;
        int64_t norm = norm_mu;
        for (int e = 0; e < ws->n_edges; e++)
            if (g[e] != 1 && !(g[e] == 0 && ws->lam[e] == 0))
                norm += (int64_t)(g[e] - 1) * (g[e] - 1);
        for (int v = 0; v < n_locs; v++) {
            int d = ws->vcap[v] >= 0 ? gv[v] - ws->vcap[v] : 0;
            if (d != 0 && !(d < 0 && ws->pi[v] == 0)) norm += (int64_t)d * d;
        }
        if (norm == 0 || bound <= lb) {
            if (exact) break;
            want_full = 1; /* the fit set alone is settled: check on all routes */
            continue;
        }
        int64_t step = (bound - lb) * damp / (norm * 64);
        if (step < 1) step = 1;
        for (int e = 0; e < ws->n_edges; e++) {
            int64_t x = ws->lam[e] + step * (g[e] - 1);
            x = x < 0 ? 0 : x > 100000 ? 100000 : x;
            if (x < ws->lam[e]) dec += ws->lam[e] - x;
            ws->lam[e] = (int32_t)x;
        }
        for (int v = 0; v < n_locs; v++) {
            if (ws->vcap[v] < 0) continue;
            int64_t x = ws->pi[v] + step * (gv[v] - ws->vcap[v]);
            x = x < 0 ? 0 : x > 100000 ? 100000 : x;
            if (x < ws->pi[v]) dec += ws->pi[v] - x;
            ws->pi[v] = (int32_t)x;
        }
        if (ws->fd_any) {
            int64_t x = ws->mu + step * (gmu - 1);
            ws->mu = (int32_t)(x < 0 ? 0 : x > 100000 ? 100000 : x);
        }
    }
    memcpy(ws->lam, best_lam, sizeof ws->lam);
    memcpy(ws->pi, best_pi, sizeof ws->pi);
    ws->mu = best_mu;
    set_w(ws);
    ws->lam_total = 0;
    for (int e = 0; e < ws->n_edges; e++) ws->lam_total += ws->lam[e];
    for (int v = 0; v < n_locs; v++)
        if (ws->vcap[v] >= 0) ws->lam_total += (int64_t)ws->vcap[v] * ws->pi[v];
    /* e_o (search's last-route loops, red_scan): each route's spaces in
     * rord order, in the pool's room after the tuples if it has enough;
     * with room for twice as many words and at most 63 spaces, stage[i]
     * holds route i's spaces and bit 63 if it holds an fd off-board,
     * written in index order below, so filling e_o and opos_o in rord
     * order reads no record at random */
    ws->e_o = NULL;
    uint64_t *stage = NULL;
    if (ws->n_edges <= 64) {
        uintptr_t a = ((uintptr_t)(ws->pool + ws->pool_len) + 7) & ~(uintptr_t)7;
        uintptr_t end = (uintptr_t)(ws->pool + ws->pool_cap), n = ws->n_routes;
        if (a + n * sizeof(uint64_t) <= end) ws->e_o = (uint64_t *)a;
        if (ws->n_edges < 64 && a + 2 * n * sizeof(uint64_t) <= end) stage = ws->e_o + n;
    }
    for (int c = 0; c < ws->n_comp; c++) {
        const tinfo *ti = &ws->ti[ws->comp[c]];
        for (uint32_t i = ti->b; i < ti->e; i++) {
            if (stage) stage[i] = ws->r[i].e[0] | (ws->r[i].fdval > 0 ? 1ull << 63 : 0);
            ws->red[i] = ws->r[i].rev - lam_of(ws, &ws->r[i]);
            ws->redf[i] = ws->red[i];
            if (ws->fd_any && ws->r[i].fdval > ws->mu) ws->redf[i] += ws->r[i].fdval - ws->mu;
            ws->rord[i] = ws->rordf[i] = i;
        }
        /* by descending red (redf), equal ones in ascending index */
        radix_desc(ws->rord + ti->b, ws->tmp, ti->e - ti->b, ws->red, sizeof(int32_t));
        if (ws->fd_any)
            radix_desc(ws->rordf + ti->b, ws->tmp, ti->e - ti->b, ws->redf, sizeof(int32_t));
    }
    /* for search's loop over a type's last route, in rord order: the red
     * and the rev-position of each (in lex and tmp, free once the sorts
     * above are done), and its spaces if they fit a word (e_o, above) */
    for (int c = 0; c < ws->n_comp; c++) {
        const tinfo *ti = &ws->ti[ws->comp[c]];
        for (uint32_t o = ti->b; o < ti->e; o++) {
            uint32_t ri = ws->rord[o];
            ws->red_o[o] = ws->red[ri];
            if (stage) { /* the staged word: no record read at random */
                uint64_t x = stage[ri];
                ws->opos_o[o] = ws->opos[ri] | (x >> 63 ? OPOS_FD : 0);
                ws->e_o[o] = x & ~(1ull << 63);
            } else {
                ws->opos_o[o] = ws->opos[ri] | (ws->r[ri].fdval > 0 ? OPOS_FD : 0);
                if (ws->e_o) ws->e_o[o] = ws->r[ri].e[0];
            }
        }
    }
    return best_b;
}

/* Branch and bound: type ci picks further routes from rev-position p on
 * (at most `left` more), or passes to the next type.  A subtree is cut only
 * when its bound is below the best total: subtrees that could tie are
 * searched, so the smallest description among the maxima is found. */
static void search(d18_route_ws *ws, int ci, uint32_t p, int left, const uint64_t *used,
                   int64_t sum, int32_t fd, int64_t lam_free)
{
    ws->nodes++;
    if (ws->nodes - ws->nodes_start > ws->node_cap || ws->work > ws->work_cap) { /* given up */
        ws->gave_up = 1;
        return;
    }
    if (ci == ws->n_comp) {
        leaf(ws, sum, fd);
        return;
    }
    int t = ws->comp[ci];
    const tinfo *ti = &ws->ti[t];
    int32_t fdp = fd > ws->fdpot[ci] ? fd : ws->fdpot[ci];
    if (sum + static_topk(ws, t, p, left) + ws->rest_static[ci + 1] + fdp < ws->best) return;
    /* with the Lagrangian bound: `child` bounds each child without its
     * route's reduced revenue (the bound only falls as spaces get used) */
    int64_t child = 0, child_fd = INT64_MIN; /* the latter for routes with an fd off-board */
    int with_mu = ws->use_lam && ws->fd_any && fd == 0;
    if (with_mu) { /* no Dutchman bonus yet: the bound with mu */
        int64_t rest_red = 0;
        for (int c = ci + 1; c < ws->n_comp; c++)
            rest_red += redf_scan(ws, ws->comp[c], ws->ti[ws->comp[c]].slots, used);
        if (sum + lam_free + ws->mu + redf_scan(ws, t, left, used) + rest_red < ws->best) return;
        child = lam_free + ws->mu + redf_scan(ws, t, left - 1, used) + rest_red;
    } else if (ws->use_lam) {
        int64_t rest_red = 0;
        for (int c = ci + 1; c < ws->n_comp; c++)
            rest_red += red_scan(ws, ws->comp[c], ws->ti[ws->comp[c]].slots, used);
        if (sum + lam_free + red_scan(ws, t, left, used) + rest_red + fdp < ws->best) return;
        child = child_fd = lam_free + red_scan(ws, t, left - 1, used) + rest_red + fdp;
    }
    uset us;
    uset_of(used, &us);
    int64_t rest_b = rest_bound(ws, ci + 1, &us);
    if (sum + type_bound(ws, t, p, left, &us) + rest_b + fdp < ws->best) return;
    if (ws->use_lam && left == 1) {
        /* The last route of the type: tried by descending reduced revenue
         * (those from rev-position p on), so the first one whose child
         * bound falls below the best ends the loop. */
        if (with_mu && child_fd == INT64_MIN) {
            child_fd = lam_free + red_scan(ws, t, 0, used) + ws->fdpot[ci];
            for (int c = ci + 1; c < ws->n_comp; c++)
                child_fd += red_scan(ws, ws->comp[c], ws->ti[ws->comp[c]].slots, used);
        }
        int64_t cmax = child > child_fd ? child : child_fd;
        /* a route earns too little (sum + rev + rest_b + fdp < best) iff
         * its rev-position is rend or more (ord is by descending revenue) */
        int64_t seen_best = ws->best;
        uint32_t rend = topk_end(ws, t, p, 1, ws->best - sum - rest_b - fdp);
        const uint64_t *e_o = ws->e_o;
        for (uint32_t o = ti->b; o < ti->e; o++) {
            /* red, rev-position and fd flag read in rord order (red_o, opos_o) */
            int32_t rd = ws->red_o[o];
            if (sum + rd + cmax < ws->best) break;
            uint32_t pos = ws->opos_o[o] & OPOS_POS;
            if (pos < p || pos >= rend) continue;
            int has_fd = (ws->opos_o[o] & OPOS_FD) != 0;
            if (sum + rd + (with_mu && has_fd ? child_fd : child) < ws->best) continue;
            /* most overlap: tested without reading rord and the record */
            if (e_o && (e_o[o] & used[0])) continue;
            uint32_t ri = ws->rord[o];
            const rt *r = &ws->r[ri];
            if ((!e_o && overlaps(r->e, used)) || !home_ok(ws, r)) continue;
            uint64_t u[D18_ROUTE_WORDS] = {used[0] | r->e[0], used[1] | r->e[1], used[2] | r->e[2]};
            if (r->home >= 0) ws->hused[r->home]++;
            ws->cur[ws->n_cur++] = ri;
            search(ws, ci, ws->opos[ri] + 1, 0, u, sum + r->rev, fd > r->fdval ? fd : r->fdval,
                   lam_free - lam_of(ws, r));
            ws->n_cur--;
            if (r->home >= 0) ws->hused[r->home]--;
            if (ws->gave_up) return; /* see below */
            if (ws->best != seen_best) {
                seen_best = ws->best;
                rend = topk_end(ws, t, p, 1, ws->best - sum - rest_b - fdp);
            }
        }
        left = 0;
    }
    /* later types can only lose routes to what this node's children add,
     * so rest_b bounds them for every child: the loop ends at the first
     * rev-position i whose `left` best revenues from i on fall below
     * best - sum - rest_b - fdp (they only fall as i grows; found by
     * bisection, again each time a child raises best) */
    int64_t seen_best = ws->best;
    uint32_t end = left > 0 ? topk_end(ws, t, p, left, ws->best - sum - rest_b - fdp) : p;
    uint32_t kept_w = UINT32_MAX;
    uint64_t kept_m = 0;
    for (uint32_t i = p; i < end; i++) {
        /* the next route avoiding used (most do not); every route passed
         * over counts as work, as the one taken */
        uint32_t j = next_free(ws, ti->b + i, ti->b + end, &us, &kept_w, &kept_m) - ti->b;
        ws->work += j - i + (j < end);
        if ((i = j) >= end) break;
        uint32_t ri = ws->ord[ti->b + i];
        const rt *r = &ws->r[ri];
        if (ws->use_lam) {
            if (with_mu && r->fdval > 0) { /* the child bounds without mu */
                if (child_fd == INT64_MIN) {
                    child_fd = lam_free + red_scan(ws, t, left - 1, used) + ws->fdpot[ci];
                    for (int c = ci + 1; c < ws->n_comp; c++)
                        child_fd += red_scan(ws, ws->comp[c], ws->ti[ws->comp[c]].slots, used);
                }
                if (sum + ws->red[ri] + child_fd < ws->best) continue;
            } else if (sum + ws->red[ri] + child < ws->best) {
                continue;
            }
        }
        if (!home_ok(ws, r)) continue;
        uint64_t u[D18_ROUTE_WORDS] = {used[0] | r->e[0], used[1] | r->e[1], used[2] | r->e[2]};
        if (r->home >= 0) ws->hused[r->home]++;
        ws->cur[ws->n_cur++] = ri;
        search(ws, ci, i + 1, left - 1, u, sum + r->rev, fd > r->fdval ? fd : r->fdval,
               ws->use_lam ? lam_free - lam_of(ws, r) : 0);
        ws->n_cur--;
        if (r->home >= 0) ws->hused[r->home]--;
        /* Given up: every node from here on would return at once without
         * reaching a leaf, so best can no longer change; unwind now (the
         * loops used to run on, bounding children that were then dropped:
         * most of the plain search's time on the slow positions). */
        if (ws->gave_up) return;
        if (ws->best != seen_best) {
            seen_best = ws->best;
            end = topk_end(ws, t, i + 1, left, ws->best - sum - rest_b - fdp);
        }
    }
    if (ws->gave_up) return;
    int nt = ci + 1 < ws->n_comp ? ws->ti[ws->comp[ci + 1]].slots : 0;
    ws->cur_start[ci + 1] = ws->n_cur;
    search(ws, ci + 1, 0, nt, used, sum, fd, lam_free);
}

/* The most k disjoint routes of path type t earn alone (no home caps:
 * used for path types only), within ws->alone_budget units of work, a
 * node or a route looked at each (a node may look at tens of thousands of
 * routes); when it runs out, the answer is left unknown:
 * ws->alone_budget < 0. */
static void alone_search(d18_route_ws *ws, int t, uint32_t p, int k, const uint64_t *used,
                         int64_t sum, int64_t *best)
{
    ws->nodes++;
    if (--ws->alone_budget < 0) return;
    if (sum > *best) *best = sum;
    if (k == 0) return;
    uset us;
    uset_of(used, &us);
    if (sum + pick_bound(ws, t, p, k, &us, BOUND_DEPTH) <= *best) return;
    const tinfo *ti = &ws->ti[t];
    for (uint32_t i = p; i < ti->e - ti->b && ws->alone_budget >= 0; i++) {
        if (sum + static_topk(ws, t, i, k) <= *best) break;
        if (--ws->alone_budget < 0) break; /* each route looked at is work too */
        const uint64_t *e = oe_at(ws, ti->b + i);
        if (overlaps(e, used)) continue;
        uint64_t u[D18_ROUTE_WORDS] = {used[0] | e[0], used[1] | e[1], used[2] | e[2]};
        alone_search(ws, t, i + 1, k - 1, u, sum + orev_at(ws, ti, ti->b + i), best);
    }
}

/* The greatest common divisor of every revenue a route can earn (location
 * values, town revenues; the Dutchman's bonus is a location value): every
 * total is a multiple of it.  1 when all are 0. */
static int64_t grain_of(const d18_route_input *in)
{
    int64_t g = 0;
    for (int i = 0; i < in->n_locs + in->n_types; i++) {
        int64_t a = i < in->n_locs ? in->loc[i].value : in->type[i - in->n_locs].town, b = g;
        while (b) {
            int64_t t = a % b;
            a = b;
            b = t;
        }
        g = a;
    }
    return g > 0 ? g : 1;
}

/* One search of the part from best = best0 (the Lagrangian bound on if
 * use_lam), given up past node_cap nodes or work_cap candidates. */
static void run_search(d18_route_ws *ws, int use_lam, int64_t best0, uint64_t node_cap,
                       uint64_t work_cap)
{
    const uint64_t none[D18_ROUTE_WORDS] = {0};
    ws->use_lam = use_lam;
    ws->nodes_start = ws->nodes;
    ws->gave_up = 0;
    ws->work = 0;
    ws->work_cap = work_cap;
    ws->node_cap = node_cap;
    ws->best = best0;
    ws->seen = -1;
    ws->n_cur = 0;
    memset(ws->hused, 0, sizeof ws->hused);
    memset(ws->cur_start, 0, sizeof ws->cur_start);
    memset(ws->best_start, 0, sizeof ws->best_start);
    ws->best_fd_slot = ws->best_fd_loc = -1;
    search(ws, 0, 0, ws->ti[ws->comp[0]].slots, none, 0, 0, ws->lam_total);
}

/* Solves one independent part (the types listed in comp, roster order);
 * leaves the answer in ws->best_r / best_start / best_fd_*. */
static void solve_part(d18_route_ws *ws)
{
    /* Search the types with the best routes first (their choice constrains
     * the rest most); descriptions are compared in roster order anyway. */
    int roster[D18_ROUTE_MAX_TYPES];
    memcpy(roster, ws->comp, sizeof roster);
    for (int i = 1; i < ws->n_comp; i++)
        for (int j = i; j > 0; j--) {
            const tinfo *x = &ws->ti[ws->comp[j - 1]], *y = &ws->ti[ws->comp[j]];
            int32_t bx = x->e > x->b ? ws->r[ws->ord[x->b]].rev : 0;
            int32_t by = y->e > y->b ? ws->r[ws->ord[y->b]].rev : 0;
            if (bx >= by) break;
            int tmp = ws->comp[j];
            ws->comp[j] = ws->comp[j - 1];
            ws->comp[j - 1] = tmp;
        }
    for (int k = 0; k < ws->n_comp; k++)
        for (int c = 0; c < ws->n_comp; c++)
            if (ws->comp[c] == roster[k]) ws->rorder[k] = c;
    ws->rest_static[ws->n_comp] = 0;
    ws->fdpot[ws->n_comp] = 0;
    for (int c = ws->n_comp; c-- > 0;) {
        const tinfo *ti = &ws->ti[ws->comp[c]];
        ws->rest_static[c] = ws->rest_static[c + 1] + static_topk(ws, ws->comp[c], 0, ti->slots);
        ws->fdpot[c] = ws->fdpot[c + 1] > ti->fdmax ? ws->fdpot[c + 1] : ti->fdmax;
    }
    const uint64_t none[D18_ROUTE_WORDS] = {0};
    for (int c = 0; c < ws->n_comp; c++) {
        int t = ws->comp[c], slots = ws->ti[t].slots;
        ws->alone[t][0] = 0;
        for (int k = 1; k <= slots; k++) {
            ws->alone[t][k] = static_topk(ws, t, 0, k);
            if (k >= 2 && ws->ti[t].e > ws->ti[t].b && ws->r[ws->ti[t].b].home < 0) {
                /* k routes earn at least what k - 1 do (a slot may stay
                 * empty) and at most that plus the best one */
                int64_t b = ws->alone[t][k - 1], cap = b + ws->alone[t][1];
                ws->alone_budget = ALONE_WORK;
                alone_search(ws, t, 0, k, none, 0, &b);
                if (ws->alone_budget >= 0)
                    ws->alone[t][k] = b;
                else if (cap < ws->alone[t][k])
                    ws->alone[t][k] = cap;
            }
        }
    }
    /* A plain search first; if it runs past PLAIN_NODES nodes or looks at
     * PLAIN_WORK candidates (a node of a dense position may look at
     * thousands, most of them overlapping what is taken), fit the prices
     * (its best total lb is a lower bound to aim at) and search again with
     * the Lagrangian bound too.  The search cuts what cannot reach its best
     * total, so it is fastest when that starts near the maximum.  Aimed
     * searches come down from the prices' bound ub: an aimed search from
     * aim (best = aim - 1) sees every rampage earning aim or more, ties
     * included, so if it finds one, that is the answer; if it finds none,
     * the maximum is below aim, and the next aim is lower by twice the last
     * step (one grain, then 2, 4, ... grains: totals are multiples of
     * ws->grain, so the first aim is ub rounded down to one).  Once the aim
     * is at or below lb, the last search runs from lb - 1 (lb is reached).
     * A search from a higher best visits a subset of the nodes of one from
     * a lower best (at every node they share, its best is at least the
     * other's), so each aimed search costs at most what the search from
     * lb - 1 costs, and the aims come down in steps that double: a search
     * proving there is nothing above an aim far above the maximum is cheap.
     * (On the 1,283 restarts of seeds 1-4 the maximum was lb on 597; of the
     * 686 others, 493 lay in the upper half of [lb, ub].)  Before, one aim
     * halfway between lb and ub, given up after 60,000 nodes, then the
     * search from lb - 1: on seed 2's position 183 148,286 nodes; now
     * 32,320 (11,108 with prices fitted on every route at every step). */
    if (!ws->n_comp) {
        ws->best = 0; /* nothing to run: the empty rampage */
        memset(ws->best_start, 0, sizeof ws->best_start);
        ws->best_fd_slot = ws->best_fd_loc = -1;
        return;
    }
    run_search(ws, 0, -1, PLAIN_NODES, PLAIN_WORK);
    if (!ws->gave_up) return;
    int64_t lb = ws->best;
    ws->restarts++;
    int64_t ub = lam_fit(ws, lb);
    int64_t aim = ub - ub % ws->grain, step = ws->grain;
    while (aim > lb) {
        run_search(ws, 1, aim - 1, UINT64_MAX, UINT64_MAX);
        if (ws->best >= aim) return;
        /* none found: the maximum is below aim; and at least any total
         * the search met on the way (a leaf below its best) */
        if (ws->seen > lb) lb = ws->seen;
        aim -= step;
        step *= 2;
    }
    run_search(ws, 1, lb - 1, UINT64_MAX, UINT64_MAX);
}

static void put_route(const d18_route_ws *ws, const rt *r, d18_route_entry *out)
{
    memset(out, 0, sizeof *out);
    out->n_locs = r->len;
    out->n_linger = r->nl;
    out->is_path = r->home < 0;
    out->revenue = r->rev;
    memcpy(out->loc, ws->pool + r->tup, r->len * sizeof(uint16_t));
    memcpy(out->linger, ws->pool + r->tup + r->len, r->nl * sizeof(uint16_t));
}

static void empty_result(const d18_route_input *in, d18_route_result *out)
{
    memset(out, 0, sizeof *out);
    out->fd_slot = out->fd_loc = -1;
    int s = 0;
    for (int t = 0; in && t < in->n_types && t < D18_ROUTE_MAX_TYPES; t++) {
        out->type_first[t] = s;
        int k = slots_of(&in->type[t]);
        if (s + k > D18_ROUTE_MAX_SLOTS) break;
        s += k;
    }
    out->n_slots = s;
}

/* CR_ERR_NOMEM with the empty rampage, and the capacity to retry with. */
static cr_status too_many(const d18_route_ws *ws, const d18_route_input *in, d18_route_result *out,
                          uint64_t counted, uint64_t need, uint32_t *need_routes, char *err,
                          size_t errcap)
{
    empty_result(in, out);
    if (need_routes) *need_routes = (uint32_t)need;
    if (err && errcap)
        snprintf(err, errcap,
                 "route solve: the workspace holds %u routes, the position has %s%llu: "
                 "grow it and retry",
                 ws->cap, counted >= (uint64_t)ws->cap * COUNT_FACTOR ? "more than " : "",
                 (unsigned long long)counted);
    return CR_ERR_NOMEM;
}

cr_status d18_route_solve(const d18_route_input *in, d18_route_ws *ws, d18_route_result *out,
                          d18_route_stats *stats, uint32_t *need_routes, char *err, size_t errcap)
{
    if (!out) return fail(err, errcap, "route solve: no result");
    cr_status st = d18_route_check(in, err, errcap);
    if (st != CR_OK) {
        empty_result(NULL, out);
        return st;
    }
    empty_result(in, out);
    if (!ws) return fail(err, errcap, "route solve: no workspace");
    ws->in = in;
    ws->nodes = 0;
    ws->restarts = 0;
    ws->filter = 0;
    ws->fdmax_all = 0;
    memset(ws->n_top, 0, sizeof ws->n_top);
    build_graph(ws);
    ws->grain = grain_of(in);
    enumerate(ws);
    if (stats) {
        stats->routes = ws->counted;
        stats->nodes = 0;
        stats->restarts = 0;
    }
    uint64_t counted = ws->counted;
    uint64_t need = counted >= (uint64_t)ws->cap * COUNT_FACTOR ? (uint64_t)ws->cap * COUNT_FACTOR
                                                                : counted + 1;
    /* the pool may be what ran out: ask for room for its share too */
    uint64_t by_pool = ((uint64_t)ws->pool_len + 1) / POOL_PER_ROUTE * 2;
    if (by_pool > need) need = by_pool;
    if (need > UINT32_MAX) need = UINT32_MAX;
    /* Too many routes: those that may be in the answer, if all were counted
     * and those fit (restrict_routes). */
    if (ws->overflow && (counted >= (uint64_t)ws->cap * COUNT_FACTOR || !restrict_routes(ws)))
        return too_many(ws, in, out, counted, need, need_routes, err, errcap);
    ws->bm_w = ws->n_routes / 64 + 1;
    memset(ws->bm, 0, (size_t)ws->n_edges * ws->bm_w * sizeof *ws->bm);
    ws->e_o = NULL; /* set by lam_fit */
    for (int t = 0; t < in->n_types; t++) index_type(ws, t);
    for (int c = 0; c < in->n_locs; c++) /* R69 */
        ws->hcap[c] = (uint8_t)(in->loc[c].home_stack > 0 ? in->loc[c].home_stack : 1);

    for (int t = 0, f = 0; t < in->n_types; t++) {
        ws->first[t] = f;
        f += ws->ti[t].slots;
    }

    /* Two independent parts (router.h): home types, then path types. */
    int64_t part_total = 0;
    for (int part = 0; part < 2; part++) {
        ws->n_comp = 0;
        for (int t = 0; t < in->n_types; t++) {
            int mv = in->type[t].move;
            if (mv == D18_MOVE_HOWL) continue;
            if ((mv == D18_MOVE_HOME) == (part == 0)) ws->comp[ws->n_comp++] = t;
        }
        solve_part(ws);
        part_total += ws->best;
        /* write the description: per type, () first, then routes ascending */
        for (int c = 0; c < ws->n_comp; c++) {
            int t = ws->comp[c], k = ws->ti[t].slots;
            int b = ws->best_start[c], j = ws->best_start[c + 1] - b;
            for (int i = 0; i < j; i++) {
                const rt *r = &ws->r[ws->best_r[b + i]];
                put_route(ws, r, &out->slot[ws->first[t] + k - j + i]);
                out->type_revenue[t] += r->rev;
            }
        }
        if (ws->best_fd_slot >= 0) {
            out->fd_slot = ws->best_fd_slot;
            out->fd_loc = ws->best_fd_loc;
            out->fd_bonus = in->loc[ws->best_fd_loc].value;
        }
    }
    /* Restricted to the routes of potential >= theta: exact only if the
     * answer reaches theta (restrict_routes). */
    if (ws->filter && part_total < ws->theta)
        return too_many(ws, in, out, counted, need, need_routes, err, errcap);
    out->total = part_total;
    for (int t = 0; t < in->n_types; t++) {
        const d18_route_monster *m = &in->type[t];
        if (m->move != D18_MOVE_HOWL) continue;
        out->type_revenue[t] = howl_revenue(ws, m) * m->copies;
        out->total += out->type_revenue[t];
    }
    if (stats) {
        stats->nodes = ws->nodes;
        stats->restarts = ws->restarts;
    }
    return CR_OK;
}

/* ---- text and comparison ---- */

static int route_cmp(const d18_route_entry *a, const d18_route_entry *b)
{
    int la = a->n_locs ? a->n_locs + (a->is_path ? 1 + a->n_linger : 0) : 0;
    int lb = b->n_locs ? b->n_locs + (b->is_path ? 1 + b->n_linger : 0) : 0;
    for (int i = 0; i < la && i < lb; i++) {
        int x = i < a->n_locs ? a->loc[i] : (i == a->n_locs ? -1 : a->linger[i - a->n_locs - 1]);
        int y = i < b->n_locs ? b->loc[i] : (i == b->n_locs ? -1 : b->linger[i - b->n_locs - 1]);
        if (x != y) return x < y ? -1 : 1;
    }
    return (la > lb) - (la < lb);
}

int d18_route_result_cmp(const d18_route_result *a, const d18_route_result *b)
{
    int n = a->n_slots < b->n_slots ? a->n_slots : b->n_slots;
    for (int i = 0; i < n; i++) {
        int c = route_cmp(&a->slot[i], &b->slot[i]);
        if (c) return c;
    }
    if (a->n_slots != b->n_slots) return a->n_slots < b->n_slots ? -1 : 1;
    if ((a->fd_slot < 0) != (b->fd_slot < 0)) return a->fd_slot < 0 ? -1 : 1;
    if (a->fd_slot != b->fd_slot) return a->fd_slot < b->fd_slot ? -1 : 1;
    return (a->fd_loc > b->fd_loc) - (a->fd_loc < b->fd_loc);
}

typedef struct sbuf {
    char *p;
    size_t cap, len;
} sbuf;

static void sput(sbuf *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = s->len < s->cap ? s->cap - s->len : 0;
    int n = vsnprintf(room ? s->p + s->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0) s->len += (size_t)n;
}

int d18_route_result_str(const d18_route_input *in, const d18_route_result *r, char *buf,
                         size_t cap)
{
    sbuf s = {buf, cap, 0};
    if (buf && cap) buf[0] = 0;
    for (int t = 0; t < in->n_types && t < D18_ROUTE_MAX_TYPES; t++) {
        int first = r->type_first[t], k = slots_of(&in->type[t]);
        sput(&s, "%st%u [", t ? " " : "", in->type[t].roster);
        for (int j = 0; j < k && first + j < r->n_slots; j++) {
            const d18_route_entry *x = &r->slot[first + j];
            sput(&s, "%s(", j ? ", " : "");
            for (int i = 0; i < x->n_locs; i++) sput(&s, "%s%u", i ? "," : "", x->loc[i]);
            if (x->n_locs && x->is_path) {
                sput(&s, ",-1");
                for (int i = 0; i < x->n_linger; i++) sput(&s, ",%u", x->linger[i]);
            }
            sput(&s, ")");
        }
        sput(&s, "]");
    }
    if (r->fd_slot >= 0)
        sput(&s, " fd (%d,%d)", r->fd_slot, r->fd_loc);
    else
        sput(&s, " fd ()");
    sput(&s, " = %lld", (long long)r->total);
    return (int)s.len;
}
