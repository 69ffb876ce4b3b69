/* invariants.c — DML: the structural invariants of a state that play reaches.
 *
 * dml_check_invariants() is the one definition of "a sound state": the
 * position loader calls it on every state it builds (so a position is one
 * that play can reach, or it is refused with the key that is wrong), and the
 * conformance suite calls it after every apply of its random games.  It
 * checks, in this order:
 *
 *   - the table: player count and variant, seats, the alive mask;
 *   - the zones: every card of the variant in exactly one zone, loc[] and the
 *     zone[] masks agreeing, zone_count[] the masks' sizes, the kinds of card
 *     each zone can hold (section 1.2 and 2), the live Black Markets;
 *   - the ordered piles: the Discard top in the Discard Pile (and present
 *     whenever the Pile is not empty), the Stack's order equal to the Stack's
 *     mask but for the card resolving, the Nest's known top in the Nest;
 *   - counts and canonical zero bytes past every count;
 *   - the result: over/winner/end_reason/vp as the end of play sets them;
 *   - knowledge (when tracked): every pinned card really there, every card a
 *     seat has not pinned in its `may` of the card's zone;
 *   - the frames: each frame a real step of its procedure, nested as the
 *     rules push them, and the top frame waiting for exactly the state's
 *     need, kind and seat (or chance argument).
 *
 * It reads only the state and allocates nothing; it costs a few hundred
 * word operations (about one apply), so the conformance suite can call it
 * on every step.  The message names the broken invariant with the position
 * key that holds it ("procedure[3]: ...", "discard_top: ...").
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "games/dml/dml_internal.h"

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int
bad(char *err, size_t errcap, const char *fmt, ...)
{
    if (err && errcap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errcap, fmt, ap);
        va_end(ap);
    }
    return 1;
}
#define BAD(...) return bad(err, errcap, __VA_ARGS__)

static int popc(uint64_t m) { return __builtin_popcountll(m); }
static int lowest(uint64_t m) { return __builtin_ctzll(m); }
static int is_seat(const dml_state *s, int p) { return p >= 0 && p < s->n; }
static int is_card(int c) { return c >= 0 && c < DML_NCARDS; }

/* The cards of the variant (Market Mayhem plays without J, Q, A, Jokers). */
static uint64_t variant_cards(const dml_state *s)
{
    uint64_t m = DML_ALL_CARDS;
    if (s->variant == DML_V_MAYHEM)
        m &= ~(dml_rank_mask[DML_J] | dml_rank_mask[DML_Q] | dml_rank_mask[DML_A] |
               dml_rank_mask[0]);
    return m;
}

/* Whether n bytes at p are zero (n at most sizeof zeros: a Stack's or a
 * selection's 54 bytes, the frames' 144, a seat's knowledge masks). */
static int all_zero(const void *p, size_t n)
{
    static const uint8_t zeros[sizeof(uint64_t) * DML_NZONES];
    return memcmp(p, zeros, n) == 0;
}

/* ---------------------------------------------------------------- table */

static int check_table(const cr_game *g, const dml_state *s, char *err, size_t errcap)
{
    if (s->n < 3 || s->n > 4) BAD("players: %d is not 3 or 4", s->n);
    if (s->variant >= DML_NVARIANTS) BAD("variant: unknown variant %d", s->variant);
    if (g && (s->n != g->num_players || s->variant != g->variant_index))
        BAD("players: the state is for %d players of variant %d, the game for %d of %d", s->n,
            s->variant, g->num_players, g->variant_index);
    if (s->first_roller >= s->n) BAD("first_roller: seat %d out of range", s->first_roller);
    if (s->dealer >= s->n) BAD("dealer: seat %d out of range", s->dealer);
    if (s->active >= s->n) BAD("active: seat %d out of range", s->active);
    unsigned seats = (1u << s->n) - 1;
    if (s->alive & ~seats) BAD("alive: a seat beyond the players");
    if (s->variant != DML_V_FIRE && s->alive != seats)
        BAD("alive: only I See Fire eliminates players");
    if (s->knowledge > 1) BAD("knowledge_tracking: %d is not 0 or 1", s->knowledge);
    if (s->obs_seat != 0xff)
        BAD("obs_seat: %d in a state (0xff outside observations)", s->obs_seat);
    if (s->event_type > DML_EV_FRENZY) BAD("event.type: unknown type %d", s->event_type);
    if (s->event_type == DML_EV_FRENZY && !(s->sw & DML_SW_FRENZY))
        BAD("event.type: Buying Frenzy needs the buying-frenzy switch");
    if (s->event_type == DML_EV_ALLBETS &&
        (s->sw & (DML_SW_EVENTS_0615 | DML_SW_FRENZY)) != DML_SW_EVENTS_0615)
        BAD("event.type: All Bets Are Off needs events-2015-06 without buying-frenzy");
    if (s->sw && s->variant != DML_V_2015) BAD("options: the switches belong to dml-2015");
    if (s->sw & ~0x1f) BAD("options: unknown switch bits %#x", s->sw);
    if (s->wheel_rev > 1 || (s->wheel_rev && !(s->sw & DML_SW_CARDS_0615)))
        BAD("wheel_reversed: only cards-2015-06's Greed Vizier reverses the Wheel");
    if (s->affected & ~seats) BAD("event.affected: a seat beyond the players");
    return 0;
}

/* ---------------------------------------------------------------- zones */

static int check_zones(const dml_state *s, char *err, size_t errcap)
{
    char zb[32];
    uint64_t present = variant_cards(s), all = 0;
    for (int z = 0; z < DML_NZONES; z++) {
        uint64_t m = s->zone[z];
        if (m & ~DML_ALL_CARDS) BAD("zone %s: bits beyond the 54 cards", dml_zone_name(z, zb, 32));
        if (m & all)
            BAD("card %s: in two zones (one is %s)", dml_card_code(lowest(m & all)),
                dml_zone_name(z, zb, 32));
        all |= m;
        if (s->zone_count[z] != popc(m))
            BAD("zone %s: zone_count %d but it holds %d cards", dml_zone_name(z, zb, 32),
                s->zone_count[z], popc(m));
    }
    if (present & ~all)
        BAD("card %s: in no zone (every card of the variant lies in one)",
            dml_card_code(lowest(present & ~all)));
    if (all & ~present)
        BAD("card %s: is not part of the variant", dml_card_code(lowest(all & ~present)));
    for (int c = 0; c < DML_NCARDS; c++) {
        if (!(present & dml_bit(c))) {
            if (s->loc[c] != 0xff) BAD("loc[%s]: an absent card has a location", dml_card_code(c));
        } else if (s->loc[c] >= DML_NZONES || !(s->zone[s->loc[c]] & dml_bit(c))) {
            BAD("loc[%s]: says zone %d, the masks disagree", dml_card_code(c), s->loc[c]);
        }
    }
    for (int q = s->n; q < 4; q++)
        if (s->zone[DML_Z_HAND + q] | s->zone[DML_Z_FRONT + q] | s->zone[DML_Z_KING + q] |
            s->zone[DML_Z_OFFER + q])
            BAD("seats: cards at seat P%d of a %d-player game", q, s->n);

    /* what each zone can hold (section 1.2, 2) */
    uint64_t kings = dml_rank_mask[DML_K], eggs = dml_rank_mask[DML_A];
    uint64_t com = dml_commodity_mask(), jokers = dml_rank_mask[0];
    uint64_t emblems = dml_rank_mask[DML_T] | dml_rank_mask[DML_J] | dml_rank_mask[DML_Q];
    uint64_t king_zones = s->zone[DML_Z_XKING] | s->zone[DML_Z_POOL],
             egg_zones = s->zone[DML_Z_NEST] | s->zone[DML_Z_POOL];
    for (int q = 0; q < 4; q++) {
        king_zones |= s->zone[DML_Z_KING + q];
        egg_zones |= s->zone[DML_Z_HAND + q] | s->zone[DML_Z_OFFER + q];
        if (s->zone[DML_Z_KING + q] & ~kings) BAD("seats[%d].king: only a King can be there", q);
        if (popc(s->zone[DML_Z_KING + q]) > 1) BAD("seats[%d].king: more than one King", q);
        if (s->zone[DML_Z_FRONT + q] & ~emblems)
            BAD("seats[%d].front: a Front holds only Emblems (T, J, Q)", q);
        if (s->variant == DML_V_MAYHEM && s->zone[DML_Z_FRONT + q])
            BAD("seats[%d].front: there are no Emblems in Market Mayhem", q);
    }
    for (uint64_t m = s->bm_live; m; m &= m - 1) egg_zones |= s->zone[DML_Z_BM + lowest(m)];
    if (kings & present & ~king_zones)
        BAD("card %s: a King lies only in a King slot, exiled_kings or the pool",
            dml_card_code(lowest(kings & present & ~king_zones)));
    if (s->zone[DML_Z_XKING] & ~kings) BAD("exiled_kings: only Kings");
    if (eggs & present & ~egg_zones)
        BAD("card %s: a Dragon Egg lies only in a Hand, an offer, the Nest or a Black Market",
            dml_card_code(lowest(eggs & present & ~egg_zones)));
    if (s->zone[DML_Z_NEST] & ~eggs) BAD("nest: the Nest holds only Dragon Eggs");
    if (s->zone[DML_Z_STOCK] & ~com) BAD("stocks: a Stock holds only Commodities");
    if (s->zone[DML_Z_DECK] & (kings | eggs)) BAD("deck: Kings and Eggs never enter the Deck");
    if (popc(s->zone[DML_Z_EVENT]) > 1) BAD("event.card: at most one Current Event card");
    if (s->zone[DML_Z_EVENT] & (kings | eggs)) BAD("event.card: Kings and Eggs are no Events");
    if (s->zone[DML_Z_DISCARD] & jokers) BAD("discard: a Joker never stays there (R4)");
    if (s->zone[DML_Z_COMMIT] & ~com) BAD("buying.commits: only Commodities are committed");
    if (s->zone[DML_Z_TARGET] & ~(com | dml_rank_mask[DML_J] | dml_rank_mask[DML_Q]))
        BAD("buying.targets: a target is a Commodity or an Emblem");
    if (s->zone[DML_Z_POOL] & ~(kings | dml_rank_mask[2] | dml_rank_mask[3]))
        BAD("pool: the pool holds only the Kings, 2s and 3s of the Setup deal");
    /* DML-2015's piles: pile k lists its 2, then its 3, and they are the
     * cards of the piles' zone */
    uint64_t in_piles = 0;
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 2; i++) {
            int v = s->pile[k][i];
            if (!v) continue;
            if (v > DML_NCARDS || dml_rank(v - 1) != 2 + i || (in_piles & dml_bit(v - 1)))
                BAD("piles[%d]: a pile is a 2 and a 3, each card once (15.2)", k);
            if (i == 1 && !s->pile[k][0]) BAD("piles[%d]: a pile's 3 comes with its 2", k);
            in_piles |= dml_bit(v - 1);
        }
    if (in_piles != s->zone[DML_Z_PILES]) BAD("piles: the piles and their zone disagree");
    if (in_piles && s->variant != DML_V_2015) BAD("piles: only DML-2015's Setup has piles");
    if (s->variant == DML_V_MAYHEM && (s->zone[DML_Z_DISCARD] | s->zone[DML_Z_STACK]))
        BAD("discard: Market Mayhem has no Discard Pile and no Stack");

    /* Black Markets: live slots, labels unique and issued */
    uint64_t live = 0;
    for (int k = 0; k < DML_MAX_BM; k++)
        if (s->zone[DML_Z_BM + k]) live |= (uint64_t)1 << k;
    if (live != s->bm_live) BAD("black_markets: bm_live disagrees with the slots' cards");
    for (uint64_t m = live; m; m &= m - 1) {
        int k = lowest(m);
        if (!s->bm_label[k] || s->bm_label[k] > s->bm_next_label)
            BAD("black_markets: slot %d has label %d (labels are 1..bm_next_label %d)", k,
                s->bm_label[k], s->bm_next_label);
        for (uint64_t r = m & (m - 1); r; r &= r - 1)
            if (s->bm_label[lowest(r)] == s->bm_label[k])
                BAD("black_markets: label %d used twice", s->bm_label[k]);
    }
    return 0;
}

/* ---------------------------------------------------------------- piles */

/* R31: J/Q as Power or Emblem, T only as Emblem, a Joker only as Power. */
static int designation_ok(int c, int emblem)
{
    int r = dml_rank(c);
    if (r == DML_J || r == DML_Q) return 1;
    if (r == DML_T) return emblem;
    if (r == 0) return !emblem;
    return 0;
}

static int check_piles(const dml_state *s, char *err, size_t errcap)
{
    char zb[32];
    uint64_t disc = s->zone[DML_Z_DISCARD];
    if (s->discard_top != -1 && !(is_card(s->discard_top) && (disc & dml_bit(s->discard_top)))) {
        if (is_card(s->discard_top))
            BAD("discard_top: card %s is not in the Discard Pile (it lies in %s)",
                dml_card_code(s->discard_top), dml_zone_name(s->loc[s->discard_top], zb, 32));
        BAD("discard_top: %d is not a card", s->discard_top);
    }
    if (disc && s->discard_top == -1) BAD("discard_top: none, but the Discard Pile is not empty");

    if (s->nest_top_n > 4) BAD("nest.top: %d eggs, at most 4", s->nest_top_n);
    uint64_t seen = 0;
    for (int i = 0; i < s->nest_top_n; i++) {
        int c = s->nest_top[i];
        if (!is_card(c) || !(s->zone[DML_Z_NEST] & dml_bit(c)) || (seen & dml_bit(c)))
            BAD("nest.top[%d]: not a distinct egg of the Nest", i);
        seen |= dml_bit(c);
    }
    if (!all_zero(s->nest_top + s->nest_top_n, 4 - (size_t)s->nest_top_n))
        BAD("nest.top: bytes past its count are not zero");

    if (s->stack_n > DML_MAX_STACK) BAD("stack: %d entries", s->stack_n);
    uint64_t listed = 0;
    for (int i = 0; i < s->stack_n; i++) {
        int c = s->stack_card[i], f = s->stack_flag[i];
        if (!is_card(c) || !(s->zone[DML_Z_STACK] & dml_bit(c)) || (listed & dml_bit(c)))
            BAD("stack[%d]: not a distinct card of the Stack", i);
        if ((f & ~(DML_SF_SEAT | DML_SF_EMBLEM)) || !is_seat(s, f & DML_SF_SEAT))
            BAD("stack[%d].seat: bad flag %#x", i, f);
        if (!designation_ok(c, (f & DML_SF_EMBLEM) != 0))
            BAD("stack[%d]: %s cannot be on the Stack as %s (R31)", i, dml_card_code(c),
                (f & DML_SF_EMBLEM) ? "an Emblem" : "a Power");
        listed |= dml_bit(c);
    }
    size_t past = DML_MAX_STACK - (size_t)s->stack_n;
    if (!all_zero(s->stack_card + s->stack_n, past) || !all_zero(s->stack_flag + s->stack_n, past))
        BAD("stack: bytes past its count are not zero");
    if ((s->resolving == -1) != (s->resolving_seat == -1))
        BAD("resolving: card and seat must be given together");
    if (s->resolving != -1 && (!is_card(s->resolving) || !is_seat(s, s->resolving_seat)))
        BAD("resolving: bad card %d or seat %d", s->resolving, s->resolving_seat);
    uint64_t loose = s->zone[DML_Z_STACK] & ~listed;
    if (loose && (s->resolving < 0 || loose != dml_bit(s->resolving)))
        BAD("resolving: %s lies in the Stack outside its order, but the card resolving is %s",
            dml_card_code(lowest(loose)), s->resolving >= 0 ? dml_card_code(s->resolving) : "none");
    return 0;
}

/* ------------------------------------------------------------- counters */

static int check_counts(const dml_state *s, char *err, size_t errcap)
{
    if (s->sel_n > DML_NCARDS || s->sel_targets > s->sel_n) BAD("sel: bad counts");
    uint64_t seen = 0;
    for (int i = 0; i < s->sel_n; i++) {
        if (!is_card(s->sel[i]) || (seen & dml_bit(s->sel[i])))
            BAD("sel[%d]: not a distinct card", i);
        seen |= dml_bit(s->sel[i]);
    }
    size_t past = DML_NCARDS - (size_t)s->sel_n;
    if (!all_zero(s->sel + s->sel_n, past) || (s->sel_n < 64 && s->sel_emblem >> s->sel_n))
        BAD("sel: bytes past its count are not zero");
    for (int q = 0; q < 4; q++) {
        int placed = q < s->n ? s->zone_count[DML_Z_OFFER + q] : 0;
        if (!s->over && s->offer_count[q] != placed)
            BAD("seats[%d].offer_count: %d, but the offer holds %d cards", q, s->offer_count[q],
                placed);
        if (q >= s->n && (s->rolloff_total[q] || s->vp[q] || s->offer_count[q]))
            BAD("seats: values at seat P%d of a %d-player game", q, s->n);
    }
    if (s->die[0] > 6 || s->die[1] > 6) BAD("dice: %d, %d", s->die[0], s->die[1]);
    if (s->check_ok > 1 || (s->check_special && s->check_special != 'W' && s->check_special != 'E'))
        BAD("check: bad result");
    if (s->rolloff_mask & ~((1u << s->n) - 1)) BAD("rolloff.mask: a seat beyond the players");
    if (s->xchg_turn > 1) BAD("buying.exchange_turn: %d", s->xchg_turn);
    if (s->buy_suit < -1 || s->buy_suit > 3) BAD("buying.suit: %d", s->buy_suit);
    if (s->seizer != -1 && !is_seat(s, s->seizer)) BAD("buying.seizer: %d", s->seizer);
    if (s->target_owner != -1 && !is_seat(s, s->target_owner))
        BAD("buying.target_owner: %d", s->target_owner);
    if (s->target_from < -1) BAD("buying.target_from: %d", s->target_from);
    if (s->nfr < 1 || s->nfr > DML_MAX_FRAMES)
        BAD("procedure: %d frames (1 to %d)", s->nfr, DML_MAX_FRAMES);
    if (!all_zero(s->fr + s->nfr, sizeof s->fr[0] * (size_t)(DML_MAX_FRAMES - s->nfr)))
        BAD("procedure: bytes past the last frame are not zero");
    return 0;
}

/* --------------------------------------------------------------- result */

/* The winner vp_end() finds: most VP, then most eggs; -1 on a tie. */
static int vp_winner(const dml_state *s)
{
    int vp[4] = {0};
    for (int p = 0; p < s->n && p < 4; p++) vp[p] = s->vp[p];
    return dml_vp_winner(s, vp);
}

static int check_result(const dml_state *s, char *err, size_t errcap)
{
    if (s->over > 1) BAD("over: %d", s->over);
    if (s->end_reason > DML_END_LAST) BAD("end_reason: unknown reason %d", s->end_reason);
    if (!s->over) {
        if (s->end_reason != DML_END_NONE) BAD("end_reason: set, but the game is not over");
        if (s->winner != -1) BAD("winner: set, but the game is not over");
        for (int p = 0; p < 4; p++)
            if (s->vp[p]) BAD("vp: set, but the game is not over");
        if (s->need != DML_NEED_DECISION && s->need != DML_NEED_CHANCE)
            BAD("need: the game is not over, so it waits for a decision or chance");
        return 0;
    }
    if (s->need != DML_NEED_OVER) BAD("need: the game is over, so need is \"over\"");
    if (s->end_reason == DML_END_NONE) BAD("end_reason: the game is over, but for no reason");
    if (s->winner != -1 && (!is_seat(s, s->winner) || !dml_is_alive(s, s->winner)))
        BAD("winner: P%d is not a seat in the game", s->winner);
    for (int p = 0; p < s->n; p++)
        if (s->vp[p] != (dml_is_alive(s, p) ? dml_vp(s, p) : 0))
            BAD("vp[%d]: %d, but P%d's cards score %d", p, s->vp[p], p,
                dml_is_alive(s, p) ? dml_vp(s, p) : 0);
    uint64_t h = s->winner >= 0 ? s->zone[DML_Z_HAND + s->winner] : 0;
    switch (s->end_reason) {
    case DML_END_MONOPOLY: {
        int mono = 0;
        for (int su = 0; su < 4; su++) {
            uint64_t need = (uint64_t)0xff << (su * 13);
            mono |= (h & need) == need;
        }
        if (s->winner < 0 || !mono)
            BAD("winner: a monopoly end needs a winner holding 2-9 of a suit");
        break;
    }
    case DML_END_FATHER:
        if (s->winner < 0 || (h & dml_rank_mask[DML_A]) != dml_rank_mask[DML_A])
            BAD("winner: a Father of Dragons end needs a winner holding the four eggs");
        break;
    case DML_END_LAST:
        if (s->variant != DML_V_FIRE || popc(s->alive) > 1)
            BAD("end_reason: \"last\" needs I See Fire and at most one player left");
        if (s->winner != (s->alive ? lowest(s->alive) : -1))
            BAD("winner: the last merchant standing wins");
        break;
    case DML_END_VP:
        if (s->zone[DML_Z_DECK]) BAD("end_reason: a VP end needs an empty Deck");
        if (s->winner != vp_winner(s))
            BAD("winner: P%d, but the Victory Points make %d the winner", s->winner, vp_winner(s));
        break;
    }
    return 0;
}

/* ------------------------------------------------------------ knowledge */

static int check_knowledge(const dml_state *s, char *err, size_t errcap)
{
    char zb[32];
    for (int q = s->n; q < 4; q++)
        if (!all_zero(s->pin[q], sizeof s->pin[q]) || !all_zero(s->may[q], sizeof s->may[q]))
            BAD("knowledge: seat P%d of a %d-player game knows something", q, s->n);
    if (!s->knowledge) return 0; /* search states keep no knowledge */
    for (int q = 0; q < s->n; q++) {
        if (s->know_off >> q & 1) continue; /* the lab keeps no memory for q */
        /* branch-free passes (this runs after every apply of the conformance
         * suite); the slow path finds the zone for the message */
        const uint64_t *pin = s->pin[q], *may = s->may[q];
        uint64_t pinned = 0, wrong = 0, unsure = 0;
        for (int z = 0; z < DML_NZONES; z++) {
            wrong |= pin[z] & ~s->zone[z];
            pinned |= pin[z];
        }
        for (int z = 0; z < DML_NZONES; z++) unsure |= s->zone[z] & ~pinned & ~may[z];
        if (wrong) {
            int c = lowest(wrong), z = 0;
            while (!(pin[z] & ~s->zone[z] & dml_bit(c))) z++;
            BAD("knowledge.P%d.pin.%s: card %s is not there", q, dml_zone_name(z, zb, 32),
                dml_card_code(c));
        }
        if (unsure) {
            int c = lowest(unsure);
            BAD("knowledge.P%d: card %s lies in %s, but neither its pin nor its may puts it "
                "there",
                q, dml_card_code(c), dml_zone_name(s->loc[c], zb, 32));
        }
    }
    return 0;
}

/* --------------------------------------------------------------- frames */

/* Largest step of each procedure (a top frame of a finished game may rest
 * at any of them: the end stops a procedure where it is). */
static const uint8_t max_step[DML_P_COUNT] = {
    [DML_P_GAME] = 8,     [DML_P_ROLLOFF] = 3, [DML_P_DICE] = 2,  [DML_P_CHECK] = 1,
    [DML_P_ROUND] = 3,    [DML_P_EVENT] = 6,   [DML_P_TURN] = 15, [DML_P_RESTOCK] = 0,
    [DML_P_SUPPLY] = 2,   [DML_P_MARKET] = 2,  [DML_P_BUY] = 9,   [DML_P_STACK] = 4,
    [DML_P_POWER] = 8,    [DML_P_FM] = 2,      [DML_P_SIEGE] = 2, [DML_P_VISIT] = 13,
    [DML_P_CALLBACK] = 2,
};

static int is_2015(const dml_state *s) { return s->variant == DML_V_2015; }

static int is_power_card(int c)
{
    return is_card(c) && (dml_is_joker(c) || dml_rank(c) == DML_J || dml_rank(c) == DML_Q);
}

/* The arguments of one frame, wherever it lies. */
static int frame_args(const dml_state *s, int i, char *err, size_t errcap)
{
    const dml_frame *f = &s->fr[i];
    int n = s->n;
    switch (f->proc) {
    case DML_P_GAME:
        if (f->a < 0 || f->a > (f->step == 7 ? 3 : n) || f->x)
            BAD("procedure[%d]: seat offset %d out of range", i, f->a);
        if (f->b != 0 && f->b != 1) BAD("procedure[%d]: deal half %d is not 0 or 1", i, f->b);
        if (!is_2015(s) && f->step >= 7)
            BAD("procedure[%d]: step %d is DML-2015's Setup", i, f->step);
        break;
    case DML_P_ROLLOFF: /* rolls among the seats of rolloff.mask (none: no end) */
        if (f->a < 0 || f->a > n || !is_seat(s, f->b))
            BAD("procedure[%d]: roll-off arguments out of range", i);
        if (!s->rolloff_mask || (s->rolloff_mask & ~s->alive) ||
            (f->step == 2 && !((s->rolloff_mask >> f->b) & 1)))
            BAD("rolloff.mask: the roll-off needs the seats still rolling (P%d among them)", f->b);
        for (int p = 0; p < n; p++)
            if (s->rolloff_total[p] < 0 || s->rolloff_total[p] > 12)
                BAD("rolloff.totals[%d]: %d is no total of two dice", p, s->rolloff_total[p]);
        break;
    case DML_P_DICE:
    case DML_P_CHECK:
        if (!is_seat(s, f->a)) BAD("procedure[%d]: seat %d out of range", i, f->a);
        if (f->proc == DML_P_DICE &&
            (f->x < 0 || f->x > 1 || (f->x && !(s->sw & DML_SW_EVENTS_0615))))
            BAD("procedure[%d]: the All Bets Are Off mark %d", i, f->x);
        break;
    case DML_P_ROUND:
    case DML_P_EVENT:
        if (f->a < 0 || f->a > n) BAD("procedure[%d]: seat offset %d out of range", i, f->a);
        if (f->proc == DML_P_ROUND && (f->b < 0 || f->b > is_2015(s)))
            BAD("procedure[%d]: CPP mark %d out of range", i, f->b);
        if (f->proc == DML_P_EVENT && is_2015(s) && f->b != -1 && f->b != 0 &&
            !(is_card(f->b) && dml_is_joker(f->b)))
            BAD("procedure[%d]: the Joker drawn (%d) is no Joker", i, f->b);
        break;
    case DML_P_TURN:
        if (!is_seat(s, f->a) || f->a != s->active)
            BAD("procedure[%d]: the Turn is P%d's but the active player is P%d", i, f->a,
                s->active);
        if ((f->step >= 4) != is_2015(s) && f->step != 0)
            BAD("procedure[%d]: step %d is not a step of this edition's Turn", i, f->step);
        break;
    case DML_P_BUY:
        if (f->a < 0 || f->a > n || !is_seat(s, f->b))
            BAD("procedure[%d]: Buy arguments out of range", i);
        if (f->step >= 2 && f->step <= 8 && s->buy_suit < 0)
            BAD("procedure[%d]: a Buy past its Declaration needs a declared suit", i);
        break;
    case DML_P_STACK:
        if (f->a < 0 || f->a > (is_2015(s) ? 2 : 1) || !is_seat(s, f->b))
            BAD("procedure[%d]: Stack arguments out of range", i);
        break;
    case DML_P_POWER:
        if (!is_power_card(f->a) || !is_seat(s, f->b))
            BAD("procedure[%d]: bad Power card %d or seat %d", i, f->a, f->b);
        break;
    case DML_P_FM:
        if ((f->a != -1 && !(is_card(f->a) && dml_is_joker(f->a))) || f->x < 0 ||
            f->x >= DML_MAX_BM)
            BAD("procedure[%d]: Foreign Merchant arguments out of range", i);
        /* past its first step it has made its market: the newest label */
        if (f->step >= 1 && s->bm_label[f->x] != s->bm_next_label)
            BAD("procedure[%d]: the Foreign Merchant's market (slot %d) has label %d, not the "
                "newest (%d)",
                i, f->x, s->bm_label[f->x], s->bm_next_label);
        break;
    case DML_P_SIEGE:
        if (f->a < 0 || f->a > n || !is_seat(s, f->b) || f->x < 0 || ((f->x >> 4) & 3) >= n)
            BAD("procedure[%d]: Siege arguments out of range", i);
        break;
    case DML_P_VISIT:
        if (f->a < 0 || f->a >= DML_MAX_BM) BAD("procedure[%d]: no slot %d", i, f->a);
        if (!s->bm_label[f->a]) /* a market visited has a label, kept once it is gone */
            BAD("procedure[%d]: slot %d was never a Black Market", i, f->a);
        /* (a Power triggered on a Dabo! of its roll may sweep it away: 15.9) */
        if ((f->step == 0 || f->step == 10 || (f->step < 3 && !(s->sw & DML_SW_EVENTS_0615))) &&
            !((s->bm_live >> f->a) & 1))
            BAD("procedure[%d]: no Black Market in slot %d", i, f->a);
        if (f->b < 0 || f->b > 50 || (f->b && !(s->sw & DML_SW_BM_WAGER)))
            BAD("procedure[%d]: wager %d out of range", i, f->b);
        break;
    case DML_P_CALLBACK:
        if (!is_card(f->a) ||
            !(dml_rank(f->a) == DML_T || dml_rank(f->a) == DML_J || dml_rank(f->a) == DML_Q))
            BAD("procedure[%d]: bad Emblem %d", i, f->a);
        break;
    }
    return 0;
}

/* The Woot!/Wyvern Eyes follow-up a parent pushed after its check. */
static int is_followup(const dml_state *s, const dml_frame *c)
{
    if (s->variant == DML_V_MAYHEM) return 0;
    if (c->proc == DML_P_FM) return c->a == -1 && s->check_special == 'W';
    return c->proc == DML_P_SIEGE && s->check_special == 'E';
}

static int is_check7(const dml_frame *c, int seat)
{
    return c->proc == DML_P_CHECK && c->a == seat && c->x == 7;
}

static int is_drawn_fm(const dml_frame *c)
{
    return c->proc == DML_P_FM && c->a >= 0 && dml_is_joker(c->a);
}

/* Whether frame p, at its step, is one that waits for child c (the pushes
 * of rules.c: each sets the parent's step, then pushes). */
static int holds(const dml_state *s, const dml_frame *p, const dml_frame *c)
{
    int st = p->step, act = s->active;
    switch (p->proc) {
    case DML_P_GAME:
        return (st == 1 && c->proc == DML_P_ROLLOFF) || (st == 5 && c->proc == DML_P_RESTOCK) ||
               (st == 6 && c->proc == DML_P_ROUND);
    case DML_P_ROLLOFF: return st == 2 && c->proc == DML_P_DICE && c->a == p->b;
    case DML_P_CHECK: return st == 1 && c->proc == DML_P_DICE && c->a == p->a;
    case DML_P_DICE: /* events-2015-06: the Event card's Power, triggered on a Dabo! */
        /* its card lies in the Event zone, or in the Hoard once a
         * Blabbermouth has replaced the Event */
        return st == 2 && p->x == 1 && c->proc == DML_P_POWER && c->b == p->a && is_card(c->a) &&
               s->loc[c->a] != DML_Z_STACK;
    case DML_P_ROUND:
        if (st == 1 && c->proc == DML_P_EVENT) return p->a == 0;
        if (st == 1 && c->proc == DML_P_TURN)
            return p->a >= 1 && c->a == (s->dealer + p->a - 1) % s->n && p->b == 0;
        if (st == 1 && c->proc == DML_P_STACK) /* DML-2015's CPP before a Turn */
            return is_2015(s) && c->a == 0 && p->b == 1 && !(s->sw & DML_SW_TURN_0615);
        return st == 3 && c->proc == DML_P_STACK && c->a == 0 && s->variant != DML_V_MAYHEM &&
               !is_2015(s);
    case DML_P_EVENT: return st == 5 && is_drawn_fm(c);
    case DML_P_TURN:
        if (is_2015(s)) { /* steps 10-14 (rules.c, turn_2015) */
            int cpp = c->proc == DML_P_STACK && c->a == 2 && (s->sw & DML_SW_TURN_0615);
            return ((st == 11 || st == 15) && cpp) || (st == 12 && c->proc == DML_P_SUPPLY) ||
                   (st == 13 && c->proc == DML_P_MARKET) || (st == 14 && c->proc == DML_P_RESTOCK);
        }
        return (st == 1 && c->proc == DML_P_RESTOCK) || (st == 2 && c->proc == DML_P_SUPPLY) ||
               (st == 3 && c->proc == DML_P_MARKET);
    case DML_P_RESTOCK: return is_drawn_fm(c);
    case DML_P_SUPPLY: return st == 2 && is_drawn_fm(c);
    case DML_P_MARKET:
        if (is_2015(s)) return st == 1 && (c->proc == DML_P_BUY || c->proc == DML_P_VISIT);
        return st == 1 && (c->proc == DML_P_BUY || (c->proc == DML_P_STACK && c->a == 1) ||
                           c->proc == DML_P_VISIT || c->proc == DML_P_CALLBACK);
    case DML_P_BUY:
        return (st == 8 && c->proc == DML_P_CHECK && c->a == act && c->x == s->D + s->P) ||
               (st == 9 && is_followup(s, c));
    case DML_P_STACK:
        return st == 4 && c->proc == DML_P_POWER && c->a == s->resolving &&
               c->b == s->resolving_seat;
    case DML_P_POWER: {
        int card = p->a, r = dml_rank(card), su = dml_suit(card);
        if (dml_is_joker(card))
            return (st == 7 && is_check7(c, p->b)) || (st == 8 && is_followup(s, c));
        if (r == DML_J && su == DML_SUIT_S) return st == 1 && c->proc == DML_P_RESTOCK;
        if (r == DML_Q && su == DML_SUIT_S) return st == 1 && c->proc == DML_P_SIEGE;
        if (r == DML_J && su == DML_SUIT_H && (s->sw & DML_SW_CARDS_0615)) /* Blabbermouth */
            return (st == 2 && is_drawn_fm(c)) || (st == 4 && c->proc == DML_P_EVENT);
        return 0;
    }
    case DML_P_VISIT:
        return (st == 1 && c->proc == DML_P_CHECK && c->a == act && c->x == 7 - p->b) ||
               (st == 6 && is_followup(s, c));
    case DML_P_CALLBACK: return (st == 1 && is_check7(c, act)) || (st == 2 && is_followup(s, c));
    }
    return 0;
}

/* What a top frame at its step waits for: need, kind and the deciding seat
 * (a decision) or the chance argument (karg).  0 when play never rests
 * there. */
typedef struct wait {
    int need, kind, who;
} wait;

static int rests(const dml_state *s, const dml_frame *f, wait *w)
{
    int st = f->step, n = s->n, act = s->active;
#define DECIDE(k, seat) return (*w = (wait){DML_NEED_DECISION, (k), (seat)}, 1)
#define CHANCE(k, arg)  return (*w = (wait){DML_NEED_CHANCE, (k), (arg)}, 1)
    switch (f->proc) {
    case DML_P_GAME:
        if (st == 2 && f->a < n) CHANCE(DML_C_POOL, DML_K);
        if (st == 3 && f->a < n) CHANCE(DML_C_POOL, 2 + f->b);
        if (st == 7 && f->a < 4) CHANCE(DML_C_PILE, f->a | f->b << 2);
        if (st == 8 && f->a < n) DECIDE(DML_D_PILE, (s->dealer + f->a) % n);
        return 0;
    case DML_P_DICE:
        if (st == 1) CHANCE(DML_C_ROLL, 0);
        if (st == 2 && s->die[0] == s->die[1] && s->die[0] >= 2 && s->die[0] <= 5)
            DECIDE(DML_D_DABO, f->a);
        return 0;
    case DML_P_EVENT:
        if (st == 1) CHANCE(DML_C_DECK, 0);
        if (st == 3 && f->a >= 1) CHANCE(DML_C_HAND, (dml_anchor(s, s->dealer) + f->a - 1) % n);
        return 0;
    case DML_P_RESTOCK: CHANCE(DML_C_DECK, 0);
    case DML_P_SUPPLY:
        if (st == 1) CHANCE(DML_C_DECK, 0);
        return 0;
    case DML_P_MARKET:
        if (st == 2) DECIDE(DML_D_MARKET, act);
        return 0;
    case DML_P_BUY:
        if (st == 1) DECIDE(DML_D_DECLARE, act);
        if (st == 3 && f->a >= 1 && f->b == (act + f->a) % n && f->b != act)
            DECIDE(DML_D_OFFER, f->b);
        if (st == 5 && s->seizer >= 0)
            DECIDE(s->xchg_turn ? DML_D_COMMIT_PAS : DML_D_COMMIT_ACT,
                   s->xchg_turn ? s->seizer : act);
        return 0;
    case DML_P_STACK:
        if (st == 2) DECIDE(DML_D_STACK, f->b);
        return 0;
    case DML_P_POWER: {
        int card = f->a, p = f->b, r = dml_rank(card), su = dml_suit(card);
        if (dml_is_joker(card)) {
            if (st == 1) DECIDE(DML_D_THIEF_MODE, p);
            if (st == 2 || st == 4) DECIDE(DML_D_THIEF_PLAYER, p);
            if (st == 3 && is_seat(s, f->x)) DECIDE(DML_D_THIEF_CARD, p);
            if (st == 5 && is_seat(s, f->x)) CHANCE(DML_C_HAND, f->x);
            return 0;
        }
        int old = (s->sw & DML_SW_CARDS_0615) != 0;
        int searcher = (r == DML_J && su == DML_SUIT_H && !old) || /* Counsellor, Swindler */
                       (r == DML_J && su == DML_SUIT_D && old);
        if (old && r == DML_J && su == DML_SUIT_H) { /* the Blabbermouth */
            if (st == 1) DECIDE(DML_D_NAME_SUIT, p);
            if (st == 3) CHANCE(DML_C_DECK, 0);
            return 0;
        }
        if (st == 1 && r == DML_J && su == DML_SUIT_C && !is_2015(s)) DECIDE(DML_D_VICE, p);
        if (st == 1 && searcher) DECIDE(DML_D_COUNSEL_BM, p);
        if (st == 2 && searcher && f->x >= 0 && f->x < DML_MAX_BM && s->karg == f->x)
            DECIDE(DML_D_COUNSEL_CARD, p);
        if (st == 1 && r == DML_J && su == DML_SUIT_D && !old && f->x >= 1 && f->x < n)
            DECIDE(DML_D_TITHE, (p + f->x) % n);
        if (st == 1 && r == DML_Q && su == DML_SUIT_C && !is_2015(s)) DECIDE(DML_D_HARLOT, p);
        if (st == 1 && r == DML_Q && su == DML_SUIT_H) CHANCE(DML_C_NEST, 0);
        if (st == 1 && r == DML_Q && su == DML_SUIT_D) DECIDE(DML_D_ARCHDUCHESS, p);
        return 0;
    }
    case DML_P_FM:
        if (st == 1) CHANCE(DML_C_NEST, 0);
        return 0;
    case DML_P_SIEGE:
        if (st == 2) CHANCE(DML_C_HAND, f->b);
        return 0;
    case DML_P_VISIT:
        if (st == 3) CHANCE(DML_C_BM, f->a);
        if (st == 4 || st == 13) CHANCE(DML_C_HAND, act);
        if (st == 10) DECIDE(DML_D_WAGER, act);
        if (st == 12 && s->karg == f->b) DECIDE(DML_D_LEAVE, act);
        return 0;
    }
    return 0;
#undef DECIDE
#undef CHANCE
}

static int check_frames(const dml_state *s, char *err, size_t errcap)
{
    int n = s->nfr, buy = 0, stack4 = -1;
    if (s->fr[0].proc != DML_P_GAME) BAD("procedure[0]: the bottom frame is the game");
    for (int i = 0; i < n; i++) {
        const dml_frame *f = &s->fr[i];
        if (f->proc < 1 || f->proc >= DML_P_COUNT)
            BAD("procedure[%d]: unknown procedure %d", i, f->proc);
        if (i > 0 && f->proc == DML_P_GAME) BAD("procedure[%d]: a second game frame", i);
        if (f->step > max_step[f->proc])
            BAD("procedure[%d]: step %d is not a step of this procedure", i, f->step);
        if (i > 0 && !holds(s, &s->fr[i - 1], f))
            BAD("procedure[%d]: %s cannot run inside frame %d (%s at step %d): play never "
                "nests them so",
                i, dml_proc_name(f->proc), i - 1, dml_proc_name(s->fr[i - 1].proc),
                s->fr[i - 1].step);
        if (frame_args(s, i, err, errcap)) return 1;
        if (f->proc == DML_P_BUY && f->step >= 2 && f->step <= 8) buy = 1;
        if (f->proc == DML_P_STACK && f->step == 4) stack4 = i;
    }
    /* the top frame waits for exactly what the state says (the end stops
     * it wherever it was) */
    const dml_frame *top = &s->fr[n - 1];
    static const char *const needs[] = {"run", "decision", "chance", "over"};
    wait w;
    if (!s->over) {
        if (!rests(s, top, &w))
            BAD("procedure[%d]: play never waits at step %d of %s", n - 1, top->step,
                dml_proc_name(top->proc));
        if (s->need != w.need || s->kind != w.kind)
            BAD("need/kind: %s \"%s\", but the top frame (procedure[%d], %s at step %d) waits "
                "for %s \"%s\"",
                s->need < 4 ? needs[s->need] : "?", dml_kind_name(s->need, s->kind), n - 1,
                dml_proc_name(top->proc), top->step, needs[w.need], dml_kind_name(w.need, w.kind));
        if (w.need == DML_NEED_DECISION) {
            if (s->actor != w.who)
                BAD("actor: P%d, but the top frame (procedure[%d]) waits for P%d", s->actor, n - 1,
                    w.who);
            if (!is_seat(s, s->actor) || !dml_is_alive(s, s->actor))
                BAD("actor: P%d is not in the game", s->actor);
        } else {
            if (s->actor != -1) BAD("actor: a chance event has no actor");
            if (s->karg != w.who)
                BAD("karg: %d, but the top frame (procedure[%d]) waits for %d", s->karg, n - 1,
                    w.who);
        }
        if (s->sel_n &&
            !(w.kind == DML_D_DECLARE || w.kind == DML_D_OFFER || w.kind == DML_D_COMMIT_ACT ||
              w.kind == DML_D_COMMIT_PAS || w.kind == DML_D_STACK || w.kind == DML_D_LEAVE) &&
            w.need == DML_NEED_DECISION)
            BAD("sel: this decision chooses no cards");
        if (s->sel_n && w.need != DML_NEED_DECISION)
            BAD("sel: cards chosen with no decision waiting");
    }
    /* zones and fields that only some frames use */
    if ((s->zone[DML_Z_TARGET] | s->zone[DML_Z_COMMIT]) && !buy)
        BAD("buying: cards in the buying area, but no Buy is between Declaration and Outcome");
    if (s->fr[0].step >= 5 && s->fr[0].step <= 6 && s->zone[DML_Z_POOL])
        BAD("pool: cards left in the pool after the Setup deal");
    if (s->fr[0].step >= 5 && s->fr[0].step <= 6 && s->zone[DML_Z_PILES])
        BAD("piles: a pile left after the Setup");
    if (s->bm_taken && (s->bm_taken & ~s->zone[DML_Z_HAND + s->active]))
        BAD("bm_taken: the cards a visit took are in the Active Player's Hand");
    if (s->bm_taken) { /* from the first card a wagered visit takes to its cards left */
        int visit = 0;
        for (int i = 0; i < n; i++)
            visit |= s->fr[i].proc == DML_P_VISIT && s->fr[i].b > 0 &&
                     (s->fr[i].step == 2 || s->fr[i].step == 3 || s->fr[i].step == 12);
        if (!visit) BAD("bm_taken: kept only while a wagered visit takes and leaves cards (V14)");
    }
    if ((s->resolving >= 0) != (stack4 >= 0))
        BAD("resolving: %s, but %s", s->resolving >= 0 ? "a card resolves" : "none",
            stack4 >= 0 ? "a Stack episode resolves a Power" : "no Stack episode resolves one");
    if (s->resolving >= 0 && s->loc[s->resolving] != DML_Z_STACK) {
        /* only the Thief leaves the Stack by itself (8.3), at its step 7 */
        const dml_frame *pw = stack4 + 1 < n ? &s->fr[stack4 + 1] : NULL;
        if (!(dml_is_joker(s->resolving) && ((pw && pw->step >= 7) || (!pw && s->over))))
            BAD("resolving: %s is not on the Stack", dml_card_code(s->resolving));
    }
    return 0;
}

int dml_check_state(const cr_game *g, const void *st, char *err, size_t errcap)
{
    const dml_state *s = st;
    return check_table(g, s, err, errcap) || check_zones(s, err, errcap) ||
           check_piles(s, err, errcap) || check_knowledge(s, err, errcap);
}

int dml_check_invariants(const cr_game *g, const void *st, char *err, size_t errcap)
{
    const dml_state *s = st;
    return dml_check_state(g, s, err, errcap) || check_counts(s, err, errcap) ||
           check_result(s, err, errcap) || check_frames(s, err, errcap);
}
