/* router.h — 18Dracula's exact auto-router (spec §13, R62): the rampage of
 * highest revenue, with the canonical tie-break of §13.6 (R117).
 *
 * A pure function over its own flat input, independent of the game's state
 * struct: the rules engine fills a d18_route_input from the position (each
 * location's value now, which cities are blocked for the operating entity,
 * where its offices are, the completed route spaces, the castle's space K,
 * the runnable monsters grouped by type in roster order) and reads back the
 * revenue; the routes chosen are written out canonically for records, logs
 * and tests.  Same input, same answer, on every machine.
 *
 * Method (§13.7).
 *  1. Every legal route of each path monster type is enumerated by
 *     depth-first search from every location, neighbours in ascending
 *     location order, keeping a path only when its first location is smaller
 *     than its last (a path and its reverse are one route).  Preorder
 *     emission with sorted neighbours yields each type's routes in the
 *     order of their canonical tuples (a prefix is smaller than its
 *     extensions, and "-1" sorts before any location); only parallel route
 *     spaces need a sort.  A route keeps its revenue with its best linger
 *     set (the L highest-valued cities the stops allow, the smaller location
 *     first among equal values, plus cities worth 0 below the largest of
 *     them while stops remain, since they make the tuple smaller for
 *     nothing), its route spaces as a 192-bit bitset, and its best `fd`
 *     off-board.  Routes that earn nothing are dropped: an unused slot () is
 *     smaller than any route, so a route earning 0 is never in the answer.
 *  2. `home` monsters are a separate problem (no route spaces, only the
 *     stacking cap per city, R69), `howl` monsters earn a fixed amount
 *     (§8.9.8, R127).  Home and path parts are independent, so the maximum
 *     and the smallest description of the whole are those of each part.
 *  3. One branch and bound per part: each type (searched best-first) picks
 *     up to its slot count of distinct routes in decreasing revenue,
 *     rejecting overlapping bitsets.  A subtree is cut only when its bound
 *     is BELOW the best total found, so every rampage that could tie is
 *     reached; at a leaf the §13.6 description (per type in roster order:
 *     fewer routes first since () pads at the front, then the tuples by
 *     rank; then the Flying Dutchman's (i, v)) decides among equal totals.
 *     Exact: no heuristic cut-off anywhere.
 *  4. Bounds (each an upper bound on what the routes still to pick earn):
 *     per type, the best routes not overlapping the spaces used, branching
 *     once on whether the best one is taken (routes of one type must also
 *     avoid each other), capped by what that many routes of the type earn
 *     alone (a small search made first, given up after 20,000 units of
 *     work, a node or a route looked at each, for a weaker cap); plus the
 *     best Flying Dutchman bonus still possible.
 *     When the plain search passes 4,000 nodes or 100,000 candidate
 *     routes looked at (a node of a dense position may look at thousands,
 *     and the restart is cheaper than going on) it restarts (from the total
 *     it had found) with a Lagrangian bound, the one that decides the hard
 *     positions: prices fitted by 50 subgradient steps on the relaxation
 *     "each type takes its best routes, disjointness dropped" (on a part
 *     of more than 2,048 routes only 12 steps read every route, the
 *     others each type's fit set: the best routes the full steps met,
 *     column generation; a full step reads a type's routes by
 *     descending revenue and stops at the first whose revenue cannot
 *     reach the routes it keeps, and skips unpriced a route whose reduced
 *     revenue at the step that last priced it, plus how much the prices
 *     fell since, cannot; the prices only steer, the bound is computed
 *     from every route once the fit ends) for
 *       - each route space (used at most once);
 *       - each location of odd degree d >= 3 (a route passing through it
 *         uses two of its d spaces, so at most d / 2 rounded down pass
 *         through: a cut the space prices alone miss; on the benchmark's
 *         worst position it lowers the root bound from 1,295 to 1,226 for
 *         a maximum of 1,200);
 *       - the Flying Dutchman (at most one route adds its fd off-board:
 *         priced while no route taken holds one).
 *     A route's reduced revenue (revenue less the prices it pays) bounds
 *     each child before it is entered, and a type's last route is tried
 *     by descending reduced revenue, so one comparison ends the loop
 *     (with at most 64 route spaces, each route's spaces as one word in
 *     that order, in the pool's room after the tuples, so most
 *     overlapping candidates are dropped without reading their record).
 *     (Searching the maximum first and the description after, in §13.6
 *     order, was measured slower: the ties are not what costs, proving
 *     the maximum is.)
 *  5. After the restart the searches are aimed, from the fitted bound
 *     down: a search from aim (best = aim - 1) cuts far more than one from
 *     the plain search's total; if it finds a rampage that high, every
 *     rampage reaching aim, ties included, was seen and that is the
 *     answer; if it finds none, the maximum is below aim and the next aim
 *     is lower by 1, 2, 4, ... times the revenues' common divisor (totals
 *     are multiples of it; the first aim is the bound rounded down to one).
 *     Once an aim would be at or below the plain total, the last search
 *     runs from there.  A search from a higher best visits a subset of the
 *     nodes of one from a lower best, so no aimed search costs more than
 *     that last one.  On seed 2's position 183 this took 148,286 nodes
 *     (one aim halfway, given up at 60,000 nodes, then the full search) to
 *     32,320; on seed 1's position 664 (three aims, the third at the
 *     maximum, 1,480) from 4,814 to 5,574.
 *
 * Memory.  d18_route_solve allocates nothing: the caller passes a workspace
 * (d18_route_ws_size / d18_route_ws_init, e.g. in the cr_ctx scratch).  Its
 * fixed part (about 56 KB) holds the graph and the search state; the rest
 * holds the routes, 148 bytes each on x86-64 (d18_route_ws_size is exact).  If
 * the routes of the input do not fit but number at most 8 × the capacity,
 * the router keeps only those that may be in the answer: a route whose
 * revenue plus the best the other slots could earn (each type's best
 * revenues, the Dutchman's largest bonus) is below a threshold, chosen
 * from a histogram as low as lets the rest fit, is left out, and the
 * answer on the rest is exact when its total reaches the threshold (no
 * rampage holding a route left out earns that much, ties included).  It
 * costs two more enumerations.  The rampage of 214,300 routes met in a
 * conformance game keeps 46,507 of them (the game's scratch holds
 * 131,072).  Otherwise the solve stops with CR_ERR_NOMEM, says so in err,
 * leaves the result empty (total 0, no routes) and reports in *need_routes
 * a capacity to retry with: the exact count when it is at most 8 × the
 * capacity, else 8 × the capacity.  It never returns a non-optimal answer.
 * D18_ROUTE_DEFAULT_ROUTES suits the bundled board.
 *
 * Worst cases.  Locations ≤ D18_ROUTE_MAX_LOCS, route spaces ≤
 * D18_ROUTE_MAX_SPACES (K included), monster types ≤ D18_ROUTE_MAX_TYPES,
 * routes in one rampage (copies × 1, or × 3 for `triple`, howl included)
 * ≤ D18_ROUTE_MAX_SLOTS.  Recursion: the path length (≤ 128) while
 * enumerating, the slots plus the types (≤ 48) while searching.  The number
 * of routes of a type is the number of simple paths the stop count allows;
 * on 1,000 late-game positions of the bundled board (each of seeds 1-4)
 * at most 47,965 for all types together.  The search is exponential in
 * the worst case (the problem is NP-hard, §13.7); d18_router_bench
 * measures the late game: on 1,000
 * late-game positions of the bundled board (bench_18d_router 1000 1 0,
 * Release, one core of a shared 2-core machine under a load of about 4)
 * median 0.19-0.20 ms, 90% 1.0 ms, 99% 3.3 ms, worst 8.4-8.6 ms (seed 1,
 * position 968: 10,664 routes, 119 million instructions, most of them the
 * search's last-route loops; 664: 43,585 routes, 97 million, most of them
 * the enumeration and the price fit's full steps; seed 2: 8.6-8.9 ms,
 * 338, 47,965 routes, 83 million; seed 3: 0.16-0.17 s, 788, 534,354
 * search nodes; seed 4: 28-30 ms, 94; docs/18dracula-board.md). */
#ifndef CROUPIER_D18_ROUTER_H
#define CROUPIER_D18_ROUTER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "croupier/rng.h"
#include "croupier/status.h"
#include "games/18dracula/board.h"

enum {
    D18_ROUTE_MAX_LOCS = 128,   /* locations of the map */
    D18_ROUTE_MAX_SPACES = 192, /* completed route spaces, the castle's K included */
    D18_ROUTE_MAX_TYPES = 16,   /* monster types the entity may run */
    D18_ROUTE_MAX_SLOTS = 32,   /* routes in one rampage description */
    D18_ROUTE_MAX_LINGER = 8,   /* linger L of a card */
    D18_ROUTE_MAX_N = 64,       /* stop count N of a card */
    D18_ROUTE_MAX_VALUE = 100000,
    D18_ROUTE_WORDS = 3, /* 64-bit words of a route-space bitset */
};

/* Location kinds and movement types are the board's (board.h: D18_CITY,
 * D18_TOWN, D18_OFF; D18_MOVE_HOME .. D18_MOVE_INF, R99). */
enum { D18_LOC_CITY = D18_CITY, D18_LOC_TOWN = D18_TOWN, D18_LOC_OFF = D18_OFF };

/* Path flags, §8.9.8 (not for home and howl): the board's bits. */
enum {
    D18_RF_NOT_BLOCKED = D18_F_NOT_BLOCKED,
    D18_RF_NO_OFFICE = D18_F_NO_OFFICE,
    D18_RF_CASTLE = D18_F_CASTLE,
    D18_RF_TRIPLE = D18_F_TRIPLE,
};

typedef struct d18_route_loc {
    uint8_t kind;       /* D18_LOC_* */
    uint8_t blocked;    /* city blocked for this entity (§8.5, R60, R120); cities only */
    uint8_t office;     /* the entity has an office here (face up); cities only */
    uint8_t fd;         /* off-board the Flying Dutchman may double (R116); off only */
    uint8_t home_stack; /* completed route spaces touching it, K included (R69) */
    int32_t value;      /* city revenue at its level, off-board at the phase; 0 for a town */
} d18_route_loc;

typedef struct d18_route_space {
    uint16_t a, b;  /* the two locations it joins */
    uint16_t space; /* its index in the board file (for the caller; must be unique) */
} d18_route_space;

typedef struct d18_route_monster {
    uint8_t move;    /* D18_MOVE_* (board.h) */
    uint8_t n;       /* stops, for dit/city/major (1..D18_ROUTE_MAX_N); 0 otherwise */
    uint8_t linger;  /* L (0..D18_ROUTE_MAX_LINGER); 0 for home/howl */
    uint8_t export_; /* may end at off-boards (not home/howl/city) */
    uint8_t flags;   /* D18_RF_* */
    uint8_t copies;  /* runnable copies of this type (≥ 1) */
    uint16_t roster; /* the type's roster index (for text only) */
    int32_t town;    /* town revenue τ */
} d18_route_monster;

typedef struct d18_route_input {
    int n_locs;
    d18_route_loc loc[D18_ROUTE_MAX_LOCS];
    int n_spaces; /* completed route spaces other than K */
    d18_route_space sp[D18_ROUTE_MAX_SPACES];
    int has_castle; /* K is completed and given in `castle` */
    d18_route_space castle;
    int n_types; /* in roster order */
    d18_route_monster type[D18_ROUTE_MAX_TYPES];
    int owns_fd; /* the entity owns the Flying Dutchman (§8.9.9) */
} d18_route_input;

/* One entry of the canonical description (§13.6).  n_locs == 0 is (). */
typedef struct d18_route_entry {
    uint8_t n_locs;   /* path locations, or 1 for a home route */
    uint8_t n_linger; /* linger cities (path routes only) */
    uint8_t is_path;  /* written with "-1" and lingers */
    int32_t revenue;  /* what this route earns (without the FD bonus) */
    uint16_t loc[D18_ROUTE_MAX_LOCS];
    uint16_t linger[D18_ROUTE_MAX_LINGER];
} d18_route_entry;

typedef struct d18_route_result {
    int64_t total;                       /* §13.5: all routes, howls included, plus fd_bonus */
    int32_t fd_bonus;                    /* 0 if the Dutchman doubles nothing */
    int fd_slot;                         /* i of the FD choice (position in slot[]), or -1: () */
    int fd_loc;                          /* v of the FD choice, or -1 */
    int n_slots;                         /* Σ copies × (3 if triple else 1) */
    int type_first[D18_ROUTE_MAX_TYPES]; /* first slot of each type */
    int64_t type_revenue[D18_ROUTE_MAX_TYPES];
    d18_route_entry slot[D18_ROUTE_MAX_SLOTS];
} d18_route_result;

/* Search statistics of the last solve (for the benchmark and tests). */
typedef struct d18_route_stats {
    uint64_t routes;   /* routes enumerated (all types) */
    uint64_t nodes;    /* branch-and-bound nodes */
    uint32_t restarts; /* searches redone with the Lagrangian bound */
} d18_route_stats;

typedef struct d18_route_ws d18_route_ws;

/* Routes a workspace should hold for the bundled board: the late-game
 * maximum measured by d18_router_bench (43,585 over 1,000 positions) with
 * room to spare; about 10 MB. */
enum { D18_ROUTE_DEFAULT_ROUTES = 1 << 16 };

/* Bytes a workspace holding `max_routes` routes needs. */
size_t d18_route_ws_size(uint32_t max_routes);
/* Lays a workspace out in mem (bytes long, aligned for uint64_t).  Returns
 * NULL if bytes is below d18_route_ws_size(1). */
d18_route_ws *d18_route_ws_init(void *mem, size_t bytes);
/* Bytes of a workspace's fixed part (graph and search state). */
size_t d18_route_ws_fixed_size(void);
/* Routes the workspace can hold. */
uint32_t d18_route_ws_capacity(const d18_route_ws *ws);

/* Checks the input: every count in range, every index valid, flags only
 * where §8.9 and R99 allow them.  On error writes a message to err. */
cr_status d18_route_check(const d18_route_input *in, char *err, size_t errcap);

/* The rampage of §13.5 with the tie-break of §13.6.  CR_ERR_INVALID: bad
 * input (err says what); CR_ERR_NOMEM: the workspace holds too few routes
 * (err says so, *need_routes if not NULL gets the capacity to retry with).
 * On error *out is the empty rampage.  stats may be NULL. */
cr_status d18_route_solve(const d18_route_input *in, d18_route_ws *ws, d18_route_result *out,
                          d18_route_stats *stats, uint32_t *need_routes, char *err, size_t errcap);

/* The description as text, e.g. "t0 [(), (2,5,7,-1,5)] t3 [(4)] fd (1,7) = 230":
 * each type by roster index, then the Flying Dutchman choice, then the
 * total.  Returns the length it needed (as snprintf). */
int d18_route_result_str(const d18_route_input *in, const d18_route_result *r, char *buf,
                         size_t cap);

/* Compares two descriptions as §13.6 orders them (routes, then FD):
 * negative, 0 or positive.  Both must describe the same input. */
int d18_route_result_cmp(const d18_route_result *a, const d18_route_result *b);

/* Reference solver for tests and the benchmark (router_brute.c): every
 * legal route (every linger subset, not only the best), every assignment
 * of routes to slots, every FD choice; the best (revenue, description).
 * Written apart from d18_route_solve and sharing nothing with it but the
 * input check.  Allocates with malloc.  Gives up with CR_ERR_UNSUPPORTED
 * after `max_leaves` complete assignments or routes of one type (0: no
 * limit), or on a path with more than 16 cities (2^16 linger subsets). */
cr_status d18_route_brute(const d18_route_input *in, uint64_t max_leaves, d18_route_result *out);

/* A late-game position of board b for the benchmark (router_bench.c: the
 * map as dense as the colour rule and the cubes allow, phase 5, an entity
 * with offices and a phase-5 roster).  Returns 0 if b is too large. */
int d18_router_late_position(const d18_board *b, cr_rng *rng, d18_route_input *in);

/* Times d18_route_solve on n_positions late-game positions of b (seeded)
 * and prints median, 90th and 99th percentiles and worst; with brute_leaves > 0 also
 * times d18_route_brute on the same positions (each cut at that many
 * assignments) and counts differing answers. */
void d18_router_bench(FILE *out, const d18_board *b, int n_positions, uint64_t seed,
                      uint64_t brute_leaves);

#endif
