/* annals.h — 18Dracula's annals (croupier/parts.h, "Annals"): what the
 * spreadsheet and the map show of the game's past, which the state does not
 * keep.  Folded from the match's event log (sheet.c, d18_annals_fold), so
 * never on the hot path and never in a state.
 *
 * What they hold:
 *   - each entity's operating history, one row per rampage: the operating
 *     round it ran in, its revenue, what was done with it (paid out,
 *     withheld, split for an associate's LL or BT, or still to be decided)
 *     and the front's share price once the dividend was settled; the last
 *     D18_ANNALS_ROWS rows of each entity (a ring: n_rows counts them all);
 *   - the last rampage: who ran it, its revenue, its routes' events as they
 *     were logged, and the route spaces and places those routes ran over.
 * Every event of 18Dracula is public (R7), so the annals are too.
 */
#ifndef CROUPIER_D18_ANNALS_H
#define CROUPIER_D18_ANNALS_H

#include <stdint.h>

#include "croupier/game.h"
#include "games/18dracula/d18_internal.h"

enum {
    D18_ANNALS_ROWS = 128,         /* rows kept per entity (a long game plays fewer ORs) */
    D18_ANNALS_ROUTE_EVENTS = 128, /* >= events.c's D18_ROUTE_EVENTS (checked there) */
};

/* What became of a row's revenue. */
enum { D18_ROW_PENDING, D18_ROW_PAID, D18_ROW_WITHHELD, D18_ROW_SPLIT };

typedef struct d18_or_row {
    uint32_t round;    /* annals' round number: a new one at each OR and SR (sheet.c) */
    uint16_t sr_no;    /* the stock round before it (0: the opening auction) */
    uint8_t or_in_set; /* the operating round's number in its set (0: not in an OR) */
    uint8_t fate;      /* D18_ROW_* */
    int32_t revenue;
    int32_t per_share; /* paid out: a share's dividend */
    int32_t price;     /* a front's share price after its dividend (0: not settled, or LL/BT) */
} d18_or_row;

typedef struct d18_annals {
    int32_t price[D18_NFRONTS]; /* each front's share price as the events told it */
    uint32_t round;             /* bumped at each OR and SR event */
    uint16_t sr_no;
    uint8_t or_in_set, in_or;
    uint32_t n_rows[D18_NENT]; /* rows so far; row[e][i % D18_ANNALS_ROWS] */
    d18_or_row row[D18_NENT][D18_ANNALS_ROWS];
    /* the last rampage */
    uint8_t has_last;
    int8_t last_ent;
    int32_t last_revenue;
    d18_or_row last_at;                         /* its round and labels */
    uint64_t last_space[D18_MAX_ROUTES / 64];   /* route spaces its routes ran over */
    uint64_t last_stop[D18_MAX_LOCATIONS / 64]; /* places they stopped at */
    int32_t route_prev;                         /* the route's last stop so far, -1 */
    int n_route_ev;
    cr_event route_ev[D18_ANNALS_ROUTE_EVENTS];
} d18_annals;

_Static_assert(D18_MAX_ROUTES % 64 == 0 && D18_MAX_LOCATIONS % 64 == 0, "bitsets");

/* The row i (0 = the oldest kept) of entity e, or NULL. */
static inline const d18_or_row *d18_annals_row(const d18_annals *a, int e, uint32_t i)
{
    uint32_t n = a->n_rows[e], first = n > D18_ANNALS_ROWS ? n - D18_ANNALS_ROWS : 0;
    if (first + i >= n) return 0;
    return &a->row[e][(first + i) % D18_ANNALS_ROWS];
}
/* Rows of entity e kept. */
static inline uint32_t d18_annals_rows(const d18_annals *a, int e)
{
    return a->n_rows[e] > D18_ANNALS_ROWS ? D18_ANNALS_ROWS : a->n_rows[e];
}

/* events.c: the stops of one D18_E_ROUTE event: the entity, whether it is
 * a howl (no path: returns 0), the part of its route (0: a route begins)
 * and the locations in loc[0..return) (at most 7). */
D18_HIDDEN int d18_route_event_stops(const cr_event *e, int *ent, int *part, int *howl, int *loc);

/* sheet.c: the parts (croupier/parts.h) */
D18_HIDDEN void d18_annals_fold(const cr_game *g, void *annals, const cr_event *e);
D18_HIDDEN size_t d18_sheet(const cr_game *g, const void *obs, const void *annals, unsigned flags,
                            char *buf, size_t cap);
D18_HIDDEN size_t d18_annals_json(const cr_game *g, const void *annals, char *buf, size_t cap);
/* mapgrid.c: the map with the last rampage's routes emphasised */
D18_HIDDEN size_t d18_map_annals(const cr_game *g, const void *obs, const void *annals,
                                 unsigned flags, char *buf, size_t cap);

#endif
