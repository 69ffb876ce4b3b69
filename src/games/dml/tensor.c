/* tensor.c — an observation of DML as a fixed-size vector of floats, for
 * learning code (cr_game_parts.obs_tensor; the Python package's
 * State.observation_tensor).
 *
 * It is computed from an observation blob (dml_observe's output) and from
 * nothing else, so a seat's tensor holds exactly what the seat's
 * observation holds: a card the seat cannot place is "unknown" in it.
 * Seats are numbered from the observer's point of view (relative seat r is
 * seat (observer + r) mod n; the public and omniscient views use the seats
 * as they are), so "my Hand" is always the same block.  Every value is in
 * [0, 1] or a small count scaled to about that range.  The layout, with
 * offsets, is in docs/clients.md ("Observation tensors"); changing it
 * changes DML_TENSOR_SIZE and that table together.
 */
#include <string.h>

#include "croupier/parts.h"
#include "games/dml/dml_internal.h"

/* Where a card is, as the observer sees it: one of DML_TC_N categories. */
enum {
    TC_UNKNOWN = 0,
    TC_DECK,
    TC_EVENT,
    TC_DISCARD,
    TC_NEST,
    TC_STOCK,
    TC_EXILE,
    TC_XKING,
    TC_STACK,
    TC_TARGET,
    TC_COMMIT,
    TC_POOL,
    TC_HAND,                /* + relative seat */
    TC_FRONT = TC_HAND + 4, /* + relative seat */
    TC_KING = TC_FRONT + 4, /* + relative seat */
    TC_OFFER = TC_KING + 4, /* + relative seat */
    TC_BM = TC_OFFER + 4,   /* any Black Market */
    TC_PILE,                /* a face-down pile of DML-2015's Setup */
    DML_TC_N,               /* 30 */
};
_Static_assert(DML_Z_DECK == 0 && DML_Z_POOL == 10 && TC_POOL == 11, "zones 0..10 map to 1..11");

enum {
    T_CARDS = 0,                                  /* 54 x 30: each card's place, one-hot */
    T_SELECTED = T_CARDS + DML_NCARDS * DML_TC_N, /* 54: in the observer's choice in progress */
    T_DISCARD_TOP = T_SELECTED + DML_NCARDS,      /* 54: the Discard Pile's top card */
    T_SEATS = T_DISCARD_TOP + DML_NCARDS,         /* 4 x 10 per relative seat */
    T_SEAT_W = 10,
    T_TABLE = T_SEATS + 4 * T_SEAT_W, /* the table's scalars */
    T_EVENT_TYPE = T_TABLE + 12,      /* 9: one-hot DML_EV_* */
    T_NEED = T_EVENT_TYPE + 9,        /* 4: one-hot DML_NEED_* */
    T_KIND = T_NEED + 4,              /* 21: decision kind, one-hot (0: not a decision) */
    T_BUY_SUIT = T_KIND + 21,         /* 5: the Buy's suit, one-hot, [4] none */
    T_END = T_BUY_SUIT + 5,           /* 5: end reason, one-hot DML_END_* */
    T_VARIANT = T_END + 5,            /* 5: one-hot DML_V_* */
    T_SWITCH = T_VARIANT + 5,         /* 6: DML-2015's switches (DML_SW_* bits), Wheel reversed */
    DML_TENSOR_SIZE = T_SWITCH + 6,
};
_Static_assert(DML_TENSOR_SIZE == 1835, "docs/clients.md gives the layout: change both together");
_Static_assert(DML_D_NAME_SUIT < 21 && DML_EV_FRENZY < 9 && DML_END_LAST < 5 &&
                   DML_NVARIANTS == 5 && DML_SW_CARDS_0615 == 1 << 4,
               "the one-hot blocks hold every value");

static int rel_seat(const dml_state *o, int q)
{
    if (o->obs_seat >= o->n) return q; /* public or omniscient view */
    return (q - o->obs_seat + o->n) % o->n;
}

static int card_category(const dml_state *o, int c)
{
    int z = o->loc[c];
    if (z >= DML_NZONES || !(o->zone[z] & dml_bit(c))) return TC_UNKNOWN;
    if (z >= DML_Z_BM) return TC_BM;
    if (z == DML_Z_PILES) return TC_PILE;
    if (z >= DML_Z_OFFER) return TC_OFFER + rel_seat(o, z - DML_Z_OFFER);
    if (z >= DML_Z_KING) return TC_KING + rel_seat(o, z - DML_Z_KING);
    if (z >= DML_Z_FRONT) return TC_FRONT + rel_seat(o, z - DML_Z_FRONT);
    if (z >= DML_Z_HAND) return TC_HAND + rel_seat(o, z - DML_Z_HAND);
    return z + 1; /* DML_Z_DECK .. DML_Z_POOL (0 .. 10) are TC_DECK .. TC_POOL */
}

static void one_hot(float *out, int base, int n, int i)
{
    if (i >= 0 && i < n) out[base + i] = 1.0f;
}

size_t dml_obs_tensor(const cr_game *g, const void *obs, float *out, size_t cap)
{
    (void)g;
    if (out == NULL || cap < DML_TENSOR_SIZE) return DML_TENSOR_SIZE;
    const dml_state *o = obs;
    memset(out, 0, DML_TENSOR_SIZE * sizeof *out);
    for (int c = 0; c < DML_NCARDS; c++) out[T_CARDS + c * DML_TC_N + card_category(o, c)] = 1.0f;
    int mine = o->need == DML_NEED_DECISION && o->actor == o->obs_seat;
    for (int i = 0; mine && i < o->sel_n; i++) out[T_SELECTED + o->sel[i]] = 1.0f;
    if (o->discard_top >= 0 && o->discard_top < DML_NCARDS &&
        (o->zone[DML_Z_DISCARD] & dml_bit(o->discard_top)))
        out[T_DISCARD_TOP + o->discard_top] = 1.0f;
    for (int q = 0; q < o->n && q < 4; q++) {
        float *s = &out[T_SEATS + rel_seat(o, q) * T_SEAT_W];
        s[0] = 1.0f; /* the seat exists */
        s[1] = (float)dml_is_alive(o, q);
        s[2] = o->dealer == q;
        s[3] = o->active == q;
        s[4] = o->need == DML_NEED_DECISION && o->actor == q;
        s[5] = (float)o->zone_count[DML_Z_HAND + q] / 16.0f;
        s[6] = (float)o->zone_count[DML_Z_FRONT + q] / 16.0f;
        s[7] = (float)o->offer_count[q] / 16.0f;
        s[8] = (float)o->vp[q] / 100.0f;
        s[9] = o->seizer == q;
    }
    float *t = &out[T_TABLE];
    t[0] = (float)o->round / 50.0f;
    t[1] = (float)o->actions / 4.0f;
    t[2] = (float)o->minors / 4.0f;
    t[3] = (float)o->ev / 10.0f;
    t[4] = (float)o->die[0] / 6.0f;
    t[5] = (float)o->die[1] / 6.0f;
    t[6] = (float)o->D / 20.0f;
    t[7] = (float)o->P / 20.0f;
    t[8] = (float)o->zone_count[DML_Z_DECK] / 54.0f;
    t[9] = (float)o->zone_count[DML_Z_DISCARD] / 54.0f;
    t[10] = (float)o->zone_count[DML_Z_NEST] / 8.0f;
    t[11] = (float)o->over;
    one_hot(out, T_EVENT_TYPE, 9, o->event_type);
    one_hot(out, T_NEED, 4, o->need);
    if (o->need == DML_NEED_DECISION) one_hot(out, T_KIND, 21, o->kind);
    one_hot(out, T_BUY_SUIT, 5, o->buy_suit >= 0 && o->buy_suit < 4 ? o->buy_suit : 4);
    one_hot(out, T_END, 5, o->end_reason);
    one_hot(out, T_VARIANT, 5, o->variant);
    for (int b = 0; b < 5; b++) out[T_SWITCH + b] = (float)((o->sw >> b) & 1);
    out[T_SWITCH + 5] = (float)(o->wheel_rev != 0);
    return DML_TENSOR_SIZE;
}
