/* cards.c — the DML card model's tables (spec 1.2), shared by every file of
 * the game: rank masks, the Commodity mask and the event type of a card. */
#include "games/dml/dml_internal.h"

static uint64_t rank_bits(int rank)
{
    uint64_t m = 0;
    for (int s = 0; s < DML_NSUITS; s++) m |= dml_bit(dml_card(s, rank));
    return m;
}

#define RB(r)                                                                                  \
    ((uint64_t)1 << ((r) - 2) | (uint64_t)1 << (13 + (r) - 2) | (uint64_t)1 << (26 + (r) - 2) |  \
     (uint64_t)1 << (39 + (r) - 2))

const uint64_t dml_rank_mask[15] = {
    ((uint64_t)1 << DML_X1) | ((uint64_t)1 << DML_X2), 0, RB(2), RB(3), RB(4), RB(5), RB(6),
    RB(7), RB(8), RB(9), RB(10), RB(11), RB(12), RB(13), RB(14),
};

uint64_t dml_commodity_mask(void)
{
    uint64_t m = 0;
    for (int r = 2; r <= 10; r++) m |= rank_bits(r);
    return m;
}

int dml_event_type_of(int card)
{
    if (dml_is_joker(card)) return DML_EV_CARNIVAL;
    int r = dml_rank(card);
    if (r == DML_J || r == DML_Q) return DML_EV_CARNIVAL;
    if (r == DML_T) return DML_EV_OPENING;
    if (r < 2 || r > 9) return DML_EV_NONE; /* Kings and Aces are never drawn */
    static const int by_suit[4] = {DML_EV_FCCC, DML_EV_HATED, DML_EV_CUSTOMS, DML_EV_UNION};
    return by_suit[dml_suit(card)];
}
