/* rampage.c — the rampage step (8.9, R62): fills the auto-router's input
 * (router.h, spec 13.1-13.2) from the state for the operating entity and
 * returns the maximum revenue it finds.
 *
 * What the router is told: every location's value now (a city at its
 * level, an off-board in the phase, a town 0), which cities are blocked for
 * the entity (R60, R120) and where its face-up offices are (a face-down
 * Church token is not one, R110), the number of completed route spaces at
 * each location with the castle's (home stacking, R69), the completed route
 * spaces other than the castle's, the castle's space K, and the entity's
 * runnable monsters by type in roster order: every copy it owns except
 * those received with LL or BT in this OR (R70).  The Flying Dutchman
 * counts only for a front that owns it (8.9.9).
 *
 * Workspace: the router's routes live in the context's scratch
 * (g->scratch_size, set by create()), sized for D18_ROUTE_CAP routes.  The
 * answer is always exact: a position with more routes than that is solved
 * on the routes that may be in its answer (router.h, "Memory"), and only
 * when even those do not fit (never met) gets a larger workspace of its
 * own for that one rampage.  A caller that passes no
 * context or no scratch (allowed by game.h) gets a workspace allocated for
 * that one rampage: only such callers pay an allocation; with the game's
 * context (cr_ctx_new) the hot path allocates nothing.  The scratch also
 * keeps a memo of recent rampages' totals (below, "The memo"): a search
 * meets the same rampage again and again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "croupier/alloc.h"

#include "games/18dracula/router.h"

#include "games/18dracula/d18_internal.h"

_Static_assert((int)D18_RF_NOT_BLOCKED == (int)D18_F_NOT_BLOCKED &&
                   (int)D18_RF_NO_OFFICE == (int)D18_F_NO_OFFICE &&
                   (int)D18_RF_CASTLE == (int)D18_F_CASTLE &&
                   (int)D18_RF_TRIPLE == (int)D18_F_TRIPLE,
               "the router's path flags are the board's");

static void fill(const cr_game *g, const d18_state *s, int e, d18_route_input *in)
{
    const d18_board *b = d18_brd(g);
    /* Padding included: d18_rampage_routes compares inputs with memcmp. */
    memset(in, 0, sizeof *in);
    in->n_locs = b->n_locations;
    for (int l = 0; l < b->n_locations; l++) {
        const d18_location *lo = &b->loc[l];
        d18_route_loc *x = &in->loc[l];
        x->kind = lo->kind;
        x->fd = lo->kind == D18_OFF && lo->fd;
        x->blocked = lo->kind == D18_CITY && d18_blocked(g, s, e, l);
        x->office = lo->kind == D18_CITY && d18_has_office(g, s, e, l);
        int n = 0;
        for (int i = 0; i < lo->n_adj; i++)
            if (s->cube[lo->adj[i]] != D18_CUBE_NONE) n++;
        x->home_stack = (uint8_t)n;
        x->value = lo->kind == D18_CITY  ? d18_city_value(b, l, d18_level(g, s, l))
                   : lo->kind == D18_OFF ? d18_off_value(b, l, s->phase)
                                         : 0;
    }
    in->n_spaces = 0;
    for (int r = 0; r < b->n_routes; r++) {
        if (s->cube[r] == D18_CUBE_NONE || r == s->castle) continue;
        d18_route_space *sp = &in->sp[in->n_spaces++];
        sp->a = b->route[r].a, sp->b = b->route[r].b, sp->space = (uint16_t)r;
    }
    in->has_castle = s->cube[s->castle] != D18_CUBE_NONE;
    in->castle.a = b->route[s->castle].a;
    in->castle.b = b->route[s->castle].b;
    in->castle.space = s->castle;
    in->n_types = 0;
    for (int t = 0; t < b->n_monsters; t++) {
        const d18_monster *m = &b->monster[t];
        int copies = 0;
        for (int i = 0; i < m->copies; i++) {
            int c = m->first_copy + i;
            if (s->mon_at[c] == D18_AT_ENTITY + e && !(s->mon_fresh[c >> 3] >> (c & 7) & 1))
                copies++;
        }
        if (!copies) continue;
        d18_route_monster *x = &in->type[in->n_types++];
        x->move = m->move;
        x->n = m->n;
        x->linger = m->linger;
        x->export_ = m->exports;
        x->flags = (uint8_t)(m->flags & D18_F_PATH_FLAGS); /* the same bits */
        x->copies = (uint8_t)copies;
        x->roster = (uint16_t)t;
        x->town = m->town_rev;
    }
    in->owns_fd = e < D18_NFRONTS && s->assoc_owner[D18_FD] == D18_OWN_FRONT + e &&
                  !(s->assoc_closed >> D18_FD & 1);
}

/* The memo: the totals of recent rampages, each with the router input it
 * answers, in MEMO_SLOTS slots of the scratch chosen by a hash of the
 * input.  A search replays the same position's rampages over and over
 * (every rollout of an ISMCTS decision starts from one position, and
 * everything in 18Dracula is public), and the router's answer is a
 * function of its input alone: a slot whose input equals the one filled
 * now byte for byte gives that input's exact total without searching.
 *
 * A slot keeps the input packed (memo_pack): its counts, then only the
 * locations, spaces and types it has (fill zeroes the rest, padding
 * included, so the packed bytes determine the input); an input whose
 * packed form exceeds MEMO_BYTES (a board far larger than the bundled
 * one's 62 locations, about 1,200 bytes) is not kept.  The slots' heads
 * (key, length, total) lie together at the start of the scratch, which a
 * fresh context has zeroed (g->scratch_zeroed, d18_rampage_scratch_zeroed):
 * a head of length 0 is an empty slot, since no packed input is empty,
 * and a slot's packed bytes are read only once its head says memo_put
 * wrote them.  Nothing of the scratch is read before it is written. */
enum { MEMO_SLOTS = 4096, MEMO_BYTES = 1536 };

typedef struct rampage_memo {
    uint64_t key; /* memo_hash of the packed input */
    int64_t total;
    uint32_t len; /* bytes of packed; 0: an empty slot */
} rampage_memo;

static size_t put_bytes(unsigned char *out, size_t at, const void *p, size_t n)
{
    if (at + n <= MEMO_BYTES) memcpy(out + at, p, n);
    return at + n;
}

/* The input without its unused tails, into out[MEMO_BYTES]; its length,
 * or 0 if it does not fit. */
static size_t memo_pack(const d18_route_input *in, unsigned char *out)
{
    size_t n = 0;
    n = put_bytes(out, n, &in->n_locs, sizeof in->n_locs);
    n = put_bytes(out, n, &in->n_spaces, sizeof in->n_spaces);
    n = put_bytes(out, n, &in->has_castle, sizeof in->has_castle);
    n = put_bytes(out, n, &in->castle, sizeof in->castle);
    n = put_bytes(out, n, &in->n_types, sizeof in->n_types);
    n = put_bytes(out, n, &in->owns_fd, sizeof in->owns_fd);
    n = put_bytes(out, n, in->loc, (size_t)in->n_locs * sizeof in->loc[0]);
    n = put_bytes(out, n, in->sp, (size_t)in->n_spaces * sizeof in->sp[0]);
    n = put_bytes(out, n, in->type, (size_t)in->n_types * sizeof in->type[0]);
    return n <= MEMO_BYTES ? n : 0;
}

static uint64_t memo_hash(const unsigned char *p, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15u ^ n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, sizeof w);
        h = (h ^ w) * 0xff51afd7ed558ccdu;
        h ^= h >> 32;
    }
    for (; i < n; i++) h = (h ^ p[i]) * 0x100000001b3u;
    return h;
}

/* The scratch: the memo's slot heads, the router's input and result, the
 * slots' packed inputs, then the router's workspace, each at a multiple of
 * 64 bytes (the result holds 8-byte members).  A fresh context zeroes the
 * heads and the input (d18_rampage_scratch_zeroed): the memo reads a head,
 * and d18_rampage_routes compares the input, before a rampage writes them. */
static size_t input_at(void) { return (MEMO_SLOTS * sizeof(rampage_memo) + 63) & ~(size_t)63; }

static size_t result_at(void) { return (input_at() + sizeof(d18_route_input) + 63) & ~(size_t)63; }

static size_t packed_at(void)
{
    return (result_at() + sizeof(d18_route_result) + 63) & ~(size_t)63;
}

static size_t head_bytes(void) { return packed_at() + (size_t)MEMO_SLOTS * MEMO_BYTES; }

size_t d18_rampage_scratch(void) { return head_bytes() + d18_route_ws_size(D18_ROUTE_CAP); }

size_t d18_rampage_scratch_zeroed(void) { return input_at() + sizeof(d18_route_input); }

/* The route search on the input in a scratch of size bytes (at least
 * g->scratch_size); the result stays there too. */
static const d18_route_result *solve_head(unsigned char *mem, size_t size)
{
    /* The input and the result are large: they live in the scratch, before
     * the router's workspace. */
    size_t head = head_bytes();
    const d18_route_input *in = (const d18_route_input *)(mem + input_at());
    d18_route_result *res = (d18_route_result *)(mem + result_at());
    d18_route_ws *ws = d18_route_ws_init(mem + head, size - head);
    char err[160];
    uint32_t need = 0;
    cr_status st = d18_route_solve(in, ws, res, NULL, &need, err, sizeof err);
    /* The router solves a position with more routes than the scratch holds
     * on those that may be in its answer; if even those do not fit (met in
     * no game yet, see D18_ROUTE_CAP) it gets a workspace of its own: the
     * answer is always the exact maximum. */
    for (int tries = 0; st == CR_ERR_NOMEM && tries < 8; tries++) {
        size_t bytes = d18_route_ws_size(need);
        void *big = cr_alloc(bytes);
        if (!big) break;
        st = d18_route_solve(in, d18_route_ws_init(big, bytes), res, NULL, &need, err, sizeof err);
        cr_free(big);
    }
    if (st != CR_OK) {
        fprintf(stderr, "18dracula: rampage: %s\n", err);
        abort();
    }
    return res;
}

/* The rampage on a scratch of size bytes (at least g->scratch_size); the
 * input and the result stay at the head of the scratch. */
static const d18_route_result *rampage_in(const cr_game *g, const d18_state *s, int e,
                                          unsigned char *mem, size_t size)
{
    fill(g, s, e, (d18_route_input *)(mem + input_at()));
    return solve_head(mem, size);
}

/* The rampage's total through the memo of a context's scratch. */
static int64_t rampage_memo_total(const cr_game *g, const d18_state *s, int e, unsigned char *mem,
                                  size_t size)
{
    d18_route_input *in = (d18_route_input *)(mem + input_at());
    fill(g, s, e, in);
    unsigned char packed[MEMO_BYTES];
    size_t len = memo_pack(in, packed);
    if (!len) return solve_head(mem, size)->total; /* too large to keep */
    uint64_t key = memo_hash(packed, len);
    size_t k = key % MEMO_SLOTS;
    rampage_memo *slot = (rampage_memo *)mem + k;
    unsigned char *kept = mem + packed_at() + k * MEMO_BYTES;
    if (slot->len == len && slot->key == key && memcmp(kept, packed, len) == 0) {
        /* The result in the scratch is not this input's: d18_rampage_routes
         * must not take it for one (no input has n_locs < 0). */
        in->n_locs = -1;
        return slot->total;
    }
    int64_t total = solve_head(mem, size)->total;
    slot->key = key;
    slot->len = (uint32_t)len;
    slot->total = total;
    memcpy(kept, packed, len);
    return total;
}

/* With the game's context (cr_ctx_new: scratch of g->scratch_size bytes)
 * the rampage allocates nothing.  A caller that passes no context, or one
 * without scratch (game.h allows it: search, tests, fuzzers), pays one
 * allocation of g->scratch_size bytes for this call, freed before return. */
int d18_rampage(const cr_game *g, const d18_state *s, int e, cr_ctx *cx)
{
    if (cx && cx->scratch && cx->scratch_size >= g->scratch_size)
        return (int)rampage_memo_total(g, s, e, cx->scratch, cx->scratch_size);
    unsigned char *own = cr_alloc(g->scratch_size);
    if (!own) {
        /* apply has no way to fail: out of memory here is fatal, as it is
         * for any allocation the caller did not provide for. */
        fprintf(stderr, "18dracula: rampage: out of memory for its workspace (%zu bytes)\n",
                g->scratch_size);
        abort();
    }
    int total = (int)rampage_in(g, s, e, own, g->scratch_size)->total;
    cr_free(own);
    return total;
}

/* The routes behind the revenue, for the events (not the hot path).  The
 * rampage just applied left its input and result in the context's
 * scratch: when the input filled now is byte for byte the one
 * stored there, the stored result is that position's answer (the router is
 * deterministic) and is copied without searching again.  Otherwise (no
 * scratch, or the scratch was used since) the router runs again. */
int d18_rampage_routes(const cr_game *g, const d18_state *s, int e, cr_ctx *cx, d18_route_input *in,
                       d18_route_result *res)
{
    fill(g, s, e, in);
    if (cx && cx->scratch && cx->scratch_size >= g->scratch_size) {
        unsigned char *mem = cx->scratch;
        if (memcmp(mem + input_at(), in, sizeof *in) != 0)
            rampage_in(g, s, e, mem, cx->scratch_size);
        memcpy(res, mem + result_at(), sizeof *res);
        return 0;
    }
    unsigned char *own = cr_alloc(g->scratch_size);
    if (!own) return -1;
    memcpy(res, rampage_in(g, s, e, own, g->scratch_size), sizeof *res);
    cr_free(own);
    return 0;
}
