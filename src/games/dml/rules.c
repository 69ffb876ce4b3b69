/* rules.c — Dragon's Money Laundering: legal actions, apply, and the
 * procedures of the canonical rules (docs/rules/dml.md, "the spec").
 *
 * The rules are nested procedures that stop for decisions and chance
 * events.  The state keeps them as a stack of small frames (dml_internal.h);
 * run() steps the top frame until some frame asks for input (ask() for a
 * decision, ask_chance() for a random act) or the game is over.  apply()
 * hands the action to the top frame and runs again.  A frame resumes with
 * `ans` = the action that answered it, or -1 when it is just continued
 * after a child frame returned.
 *
 * Invariants: every card is in exactly one zone (zone[] masks and loc[]
 * agree; zone_count[] is each mask's size); every card movement goes through
 * move(), which keeps the ordered piles, the seats' knowledge and the events,
 * and runs the instant-win check (R24) on the receiving Hand; once `over`
 * is set nothing moves and no frame runs (R77).
 *
 * Forced choices (R73, R78): a decision with one legal option or a chance
 * event with one outcome is taken by run() itself and never recorded.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "games/dml/dml_internal.h"

/* The procedures are kept out of line: step() is then a small dispatcher
 * whose every call is cheap, and each procedure saves only the registers
 * it uses (measured: fewer instructions per apply). */
#if defined(__GNUC__)
#define DML_NOINLINE      __attribute__((noinline))
#define DML_ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define DML_NOINLINE
#define DML_ALWAYS_INLINE static inline
#endif

typedef struct ctx {
    const cr_game *g;
    dml_state *s;
    cr_events *ev;
} ctx;

#define ALL_SEEN CR_SEEN_ALL
#define SEEN(p)  (1u << (p))

static int popc(uint64_t m) { return __builtin_popcountll(m); }
static int lowest(uint64_t m) { return __builtin_ctzll(m); }

static int is_mayhem(const dml_state *s) { return s->variant == DML_V_MAYHEM; }
static int is_fire(const dml_state *s) { return s->variant == DML_V_FIRE; }
/* DML-2015 (spec 15) and its switches (15.9): the rules below branch on
 * these where the editions differ. */
static int is_2015(const dml_state *s) { return s->variant == DML_V_2015; }
/* (the switches lie at the end of the state: a 2016 state never reads that
 * line, the variant, beside the hot fields, answers first) */
static int sw(const dml_state *s, unsigned bit) { return is_2015(s) && (s->sw & bit) != 0; }
static int n_alive(const dml_state *s) { return popc(s->alive); }

static uint64_t hand(const dml_state *s, int p) { return s->zone[DML_Z_HAND + p]; }
static uint64_t front(const dml_state *s, int p) { return s->zone[DML_Z_FRONT + p]; }

/* ---------------------------------------------------------------- events */

static void emit(ctx *c, int kind, int seat, int other, int card, int from, int to, int a, int b,
                 uint32_t seen)
{
    if (c->ev) cr_events_push(c->ev, kind, seat, other, card, from, to, a, b, seen);
}

/* ------------------------------------------------------------- knowledge */

/* Per seat q the masks hold, for every card, either one pin (q knows the
 * zone; no may bit anywhere) or no pin and a may bit in exactly the zones
 * where the card could be.  Zone sizes are public (R47), so a zone whose
 * cards q has all pinned (an empty one too) holds nothing else: its may is
 * dropped, and a card left with one possible zone is pinned there, which
 * may fill that zone in turn.  Called for the zones a move or a reveal
 * touched; cheap unless a zone has just become fully known. */
static void know_settle(dml_state *s, int q, int z)
{
    uint64_t *pin = s->pin[q], *may = s->may[q];
    if (!may[z] || popc(pin[z]) != s->zone_count[z]) return;
    int todo[DML_NZONES + 1], n = 0; /* each zone is queued at most once per freed card set */
    todo[n++] = z;
    while (n) {
        z = todo[--n];
        uint64_t freed = may[z];
        if (!freed || popc(pin[z]) != s->zone_count[z]) continue;
        may[z] = 0;
        /* The freed cards left with one possible zone are known there: one
         * pass finds the cards that appear in exactly one "maybe" (once and
         * not twice), a second pins them.  Empty zones hold no "maybe"
         * (know_forget), so only the fixed zones and the live Black Market
         * slots are scanned. */
        uint64_t once = 0, twice = 0;
        for (int y = 0; y < DML_Z_PILES; y++) {
            uint64_t m = may[y] & freed;
            twice |= once & m;
            once |= m;
        }
        if (s->variant == DML_V_2015) { /* the Setup's piles (the 2016 edition has none) */
            uint64_t m = may[DML_Z_PILES] & freed;
            twice |= once & m;
            once |= m;
        }
        for (uint64_t live = s->bm_live; live; live &= live - 1) {
            uint64_t m = may[DML_Z_BM + __builtin_ctzll(live)] & freed;
            twice |= once & m;
            once |= m;
        }
        uint64_t single = once & ~twice;
        for (int y = 0; single && y < DML_NZONES; y++) {
            uint64_t m = may[y] & single;
            if (!m) continue;
            may[y] &= ~m;
            pin[y] |= m;
            single &= ~m;
            if (n < DML_NZONES) todo[n++] = y;
        }
    }
}

/* Clears the bits b from every zone of one seat's mask set: the fixed zones
 * and the live Black Market slots (an empty zone holds neither pins, which
 * are sound, nor "maybe", which settles when it empties). */
static void know_forget(const dml_state *s, uint64_t *mask, uint64_t b)
{
    for (int y = 0; y < DML_Z_PILES; y++) mask[y] &= ~b;
    if (s->variant == DML_V_2015) mask[DML_Z_PILES] &= ~b;
    for (uint64_t live = s->bm_live; live; live &= live - 1)
        mask[DML_Z_BM + __builtin_ctzll(live)] &= ~b;
}

/* q learns that card c lies in zone z. */
static void know_pin(dml_state *s, int q, int c, int z)
{
    uint64_t b = dml_bit(c);
    if (s->pin[q][z] & b) return;
    know_forget(s, s->pin[q], b);
    know_forget(s, s->may[q], b);
    s->pin[q][z] |= b;
    know_settle(s, q, z);
}

/* Seat q watches card c move from `from` to `to`.  seen: q learns which card
 * it was.  hint: what q knows of the moved card's identity when unseen (a
 * dealt King is a King).  A card q knows in `from` stays known there unless
 * it could be the one that moved. */
static void know_move(dml_state *s, int q, int c, int from, int to, int seen, uint64_t hint)
{
    uint64_t b = dml_bit(c);
    uint64_t *pin = s->pin[q], *may = s->may[q];
    if (!seen) {
        /* q saw "a card" go from `from` to `to`: any card that could be in
         * `from` (and fits the hint) may now be in `to` */
        uint64_t p = pin[from] & hint, m = may[from] & hint;
        if (popc(p | m) != 1) {
            pin[from] &= ~p;
            may[from] |= p;
            may[to] |= p | m;
            know_settle(s, q, from);
            return;
        }
        b = p | m; /* only one candidate: q knows it anyway */
    }
    if (!(pin[from] & b)) /* it was not pinned: forget where it might have been */
        know_forget(s, may, b);
    pin[from] &= ~b;
    pin[to] |= b;
    know_settle(s, q, from);
    know_settle(s, q, to);
}

/* Everyone learns that c is where it is (a reveal, R70). */
static void know_reveal(dml_state *s, int c)
{
    for (int q = 0; q < s->n; q++)
        if (!(s->know_off >> q & 1)) know_pin(s, q, c, s->loc[c]);
}

static int zone_public(int z)
{
    return z == DML_Z_EVENT || z == DML_Z_DISCARD || z == DML_Z_STOCK || z == DML_Z_EXILE ||
           z == DML_Z_STACK || z == DML_Z_TARGET || z == DML_Z_COMMIT ||
           (z >= DML_Z_FRONT && z < DML_Z_FRONT + 4);
}

/* The cards a hidden zone can ever hold: Kings only in King slots and the
 * face-down exile; eggs never in the Deck (R5 sends them to the Nest); the
 * Nest holds only eggs; the Setup pool anything. */
static uint64_t zone_can_hold(int z)
{
    uint64_t kings = dml_rank_mask[DML_K], eggs = dml_rank_mask[DML_A];
    if (z == DML_Z_DECK) return ~(kings | eggs);
    if (z == DML_Z_NEST) return eggs;
    if (z == DML_Z_XKING || (z >= DML_Z_KING && z < DML_Z_KING + 4)) return kings;
    if (z == DML_Z_POOL) return DML_ALL_CARDS;
    if (z == DML_Z_PILES) return dml_rank_mask[2] | dml_rank_mask[3];
    return ~kings; /* Hands, offers, Black Markets */
}

/* Knowledge of a seat that knows only what is public and its own cards: a
 * card it cannot see may be in any non-empty hidden zone that can hold it. */
void dml_reset_knowledge(dml_state *s, int q)
{
    memset(s->pin[q], 0, sizeof s->pin[q]);
    memset(s->may[q], 0, sizeof s->may[q]);
    uint64_t unknown = 0;
    for (int z = 0; z < DML_NZONES; z++) {
        if (!s->zone_count[z]) continue;
        int own = z == DML_Z_HAND + q || z == DML_Z_KING + q || z == DML_Z_OFFER + q;
        if (zone_public(z) || own)
            s->pin[q][z] = s->zone[z];
        else
            unknown |= s->zone[z];
    }
    if (!unknown) return;
    for (int z = 0; z < DML_NZONES; z++) {
        int own = z == DML_Z_HAND + q || z == DML_Z_KING + q || z == DML_Z_OFFER + q;
        if (s->zone_count[z] && !zone_public(z) && !own) s->may[q][z] = unknown & zone_can_hold(z);
    }
}

/* ------------------------------------------------------------ end checks */

static void reveal_hand(ctx *c, int p)
{
    dml_state *s = c->s;
    for (uint64_t m = hand(s, p); m; m &= m - 1) {
        int card = lowest(m);
        if (s->knowledge) know_reveal(s, card);
        emit(c, DML_E_REVEAL, p, -1, card, DML_Z_HAND + p, DML_Z_HAND + p, 0, 0, ALL_SEEN);
    }
}

static void end_game(ctx *c, int reason, int winner)
{
    dml_state *s = c->s;
    s->over = 1;
    s->need = DML_NEED_OVER;
    s->end_reason = (uint8_t)reason;
    s->winner = (int8_t)winner;
    for (int p = 0; p < s->n; p++) s->vp[p] = dml_is_alive(s, p) ? (int16_t)dml_vp(s, p) : 0;
    emit(c, DML_E_END, winner, -1, -1, -1, -1, reason, 0, ALL_SEEN);
}

/* Monopoly (2-9 of one suit) or Father of Dragons (all four Aces), checked
 * when `card` has entered p's Hand: only that card can have completed one. */
static void instant_win_check(ctx *c, int p, int card)
{
    dml_state *s = c->s;
    uint64_t h = hand(s, p);
    int reason = 0, r = dml_rank(card);
    if (r == DML_A) {
        if ((h & dml_rank_mask[DML_A]) == dml_rank_mask[DML_A]) reason = DML_END_FATHER;
    } else if (r >= 2 && r <= 9) {
        uint64_t need = (uint64_t)0xff << (dml_suit(card) * 13); /* the 2..9 of the suit */
        if ((h & need) == need) reason = DML_END_MONOPOLY;
    }
    if (!reason) return;
    reveal_hand(c, p);
    end_game(c, reason, p);
}

/* ------------------------------------------------------------------ move */

static void stack_remove(dml_state *s, int card)
{
    for (int i = 0; i < s->stack_n; i++) {
        if (s->stack_card[i] == card) {
            memmove(&s->stack_card[i], &s->stack_card[i + 1], (size_t)(s->stack_n - i - 1));
            memmove(&s->stack_flag[i], &s->stack_flag[i + 1], (size_t)(s->stack_n - i - 1));
            s->stack_n--;
            s->stack_card[s->stack_n] = s->stack_flag[s->stack_n] = 0;
            return;
        }
    }
}

static void nest_remove(dml_state *s, int card)
{
    for (int i = 0; i < s->nest_top_n; i++) {
        if (s->nest_top[i] == card) {
            memmove(&s->nest_top[i], &s->nest_top[i + 1], (size_t)(s->nest_top_n - i - 1));
            s->nest_top_n--;
            s->nest_top[s->nest_top_n] = 0;
            return;
        }
    }
}

/* The ordered piles' bookkeeping of a move (the Discard Pile's top, the
 * Nest's known top part, the Stack's order). */
DML_NOINLINE static void move_ordered(dml_state *s, int card, int from, int to)
{
    if (from == DML_Z_DISCARD && s->discard_top == card) s->discard_top = -1;
    if (to == DML_Z_DISCARD) s->discard_top = (int8_t)card;
    if (from == DML_Z_NEST) nest_remove(s, card);
    if (to == DML_Z_NEST && s->nest_top_n < 4) s->nest_top[s->nest_top_n++] = (uint8_t)card;
    if (from == DML_Z_STACK) stack_remove(s, card);
}

/* What the seats learn of a move, and its events (none in search states). */
DML_NOINLINE static void move_notify(ctx *c, int card, int from, int to, uint32_t seen,
                                     uint64_t hint)
{
    dml_state *s = c->s;
    if (s->knowledge) /* the seats whose memory is kept: all but in the lab's states */
        for (unsigned m = ((1u << s->n) - 1) & ~(unsigned)s->know_off; m; m &= m - 1) {
            int q = __builtin_ctz(m);
            know_move(s, q, card, from, to, (seen >> q) & 1, hint);
        }
    /* a: the label of the Black Market the card leaves or enters (0: none),
     * so the log names it as the menus do ("BM3") */
    int bm = from >= DML_Z_BM ? from : to >= DML_Z_BM ? to : -1;
    emit(c, DML_E_MOVE, -1, -1, card, from, to, bm >= 0 ? s->bm_label[bm - DML_Z_BM] : 0, 0, seen);
    if (from >= DML_Z_BM && s->zone_count[from] == 0)
        emit(c, DML_E_BM_GONE, -1, -1, -1, from, -1, s->bm_label[from - DML_Z_BM], 0, ALL_SEEN);
}

/* Moves one card.  seen: the seats that learn which card moved (the others
 * learn only that a card moved, and that it is in `hint`). */
static void move_hint(ctx *c, int card, int to, uint32_t seen, uint64_t hint)
{
    dml_state *s = c->s;
    if (s->over) return; /* R77: nothing moves once the game has ended */
    int from = s->loc[card];
    uint64_t b = dml_bit(card);
    assert(from < DML_NZONES && (s->zone[from] & b));
    s->zone[from] &= ~b;
    s->zone_count[from]--;
    s->zone[to] |= b;
    s->zone_count[to]++;
    s->loc[card] = (uint8_t)to;
    if (to >= DML_Z_BM) s->bm_live |= (uint64_t)1 << (to - DML_Z_BM);
    if (from >= DML_Z_BM && !s->zone_count[from]) s->bm_live &= ~((uint64_t)1 << (from - DML_Z_BM));
    /* the ordered piles: from the Discard Pile, the Nest or the Stack, or to
     * the Discard Pile or the Nest */
    enum { ORDERED = 1 << DML_Z_DISCARD | 1 << DML_Z_NEST | 1 << DML_Z_STACK };
    if ((from <= DML_Z_STACK && (ORDERED >> from & 1)) || (unsigned)(to - DML_Z_DISCARD) < 2)
        move_ordered(s, card, from, to);
    if (s->knowledge || c->ev) move_notify(c, card, from, to, seen, hint);
    if ((unsigned)(to - DML_Z_HAND) < 4) instant_win_check(c, to - DML_Z_HAND, card);
}

static void move(ctx *c, int card, int to, uint32_t seen)
{
    move_hint(c, card, to, seen, DML_ALL_CARDS);
}

/* "goes to the Discard Pile", with the redirects of spec 2: an egg goes on
 * top of the Nest (R5), a Joker into the Deck (R4), and in Market Mayhem
 * everything goes out of the game to Exile (R51). */
DML_ALWAYS_INLINE void discard(ctx *c, int card)
{
    dml_state *s = c->s;
    int to = DML_Z_DISCARD;
    if (dml_is_egg(card))
        to = DML_Z_NEST;
    else if (dml_is_joker(card))
        to = DML_Z_DECK;
    else if (is_mayhem(s))
        to = DML_Z_EXILE;
    move(c, card, to, ALL_SEEN);
}

/* ---------------------------------------------------------------- frames */

static dml_frame *top(dml_state *s) { return &s->fr[s->nfr - 1]; }

static void push(dml_state *s, int proc, int a, int b, int x)
{
    assert(s->nfr < DML_MAX_FRAMES);
    dml_frame *f = &s->fr[s->nfr++];
    f->proc = (uint8_t)proc;
    f->step = 0;
    f->a = (int8_t)a;
    f->b = (int8_t)b;
    f->x = (int16_t)x;
}

/* Entries past a count are kept zero, so equal states are equal bytes. */
static void pop(dml_state *s) { memset(&s->fr[--s->nfr], 0, sizeof s->fr[0]); }

static void ask(dml_state *s, int seat, int kind)
{
    s->need = DML_NEED_DECISION;
    s->actor = (int8_t)seat;
    s->kind = (uint8_t)kind;
}

static void ask_chance(dml_state *s, int kind, int karg)
{
    s->need = DML_NEED_CHANCE;
    s->actor = -1;
    s->kind = (uint8_t)kind;
    s->karg = (int8_t)karg;
}

/* ------------------------------------------------------- rule quantities */

static int suit_events(const dml_state *s)
{
    return s->event_type >= DML_EV_FCCC && s->event_type <= DML_EV_UNION;
}

/* Affected by this Round's Player Effect (R10); none in Market Mayhem. */
static int affected(const dml_state *s, int p, int type)
{
    return s->event_type == type && ((s->affected >> p) & 1);
}

/* Commit filter (7.5) under an event that filters: the Commodities of
 * `suit` that pass FCCC/Customs (their 2015 texts, V13's too). */
static inline uint64_t commit_filter_event(const dml_state *s, int suit)
{
    /* a suit's Commodities 2..10 are bits 0..8 of its 13-bit lane; the event
     * value is bounded here, since a loaded position may give any 0..255 */
    uint32_t ok = 0x1ff;
    int ev = s->ev;
    uint32_t below_eq = ev >= 10 ? 0x1ffu : ev < 2 ? 0u : (1u << (ev - 1)) - 1;    /* <= EV */
    uint32_t above_eq = ev <= 2 ? 0x1ffu : ev > 10 ? 0u : ~((1u << (ev - 2)) - 1); /* >= EV */
    if (!sw(s, DML_SW_EVENTS_0615)) {
        if (s->event_type == DML_EV_FCCC) ok &= below_eq;
        if (s->event_type == DML_EV_CUSTOMS) ok &= above_eq;
    } else if (s->event_type == DML_EV_CUSTOMS) { /* 2015-06 Decadence: not >= EV (15.9) */
        ok &= ~above_eq;
    } /* 2015-06 Contraband Crackdown filters nothing: its bids go to the Hoard */
    return (uint64_t)(ok & 0x1ff) << (suit * 13);
}

/* Commit filter (7.5): the Commodities of `suit` that pass the event. */
DML_ALWAYS_INLINE uint64_t commit_filter(const dml_state *s, int suit)
{
    if (s->event_type != DML_EV_FCCC && s->event_type != DML_EV_CUSTOMS)
        return (uint64_t)0x1ff << (suit * 13); /* no event filters (the usual case) */
    return commit_filter_event(s, suit);
}

/* The cards of p's Hand that pass the commit filter for `suit`. */
DML_ALWAYS_INLINE uint64_t commit_set(const dml_state *s, int p, int suit)
{
    return hand(s, p) & commit_filter(s, suit);
}

static int sum_values(uint64_t m)
{
    int t = 0;
    for (; m; m &= m - 1) t += dml_value(lowest(m));
    return t;
}

/* Value of a declared target card taken from zone `from` (7.1.2, R9, R14,
 * R53). */
static int target_value_from(const dml_state *s, int card, int from)
{
    if (from != DML_Z_STOCK) return 10; /* an Emblem or the Grand Opening Ten */
    int v = dml_value(card);
    if (s->event_type == DML_EV_HATED && (is_2015(s) ? v >= s->ev : v <= s->ev))
        v += 2; /* Marauders (15.8) raise the values at or above EV */
    if (s->event_type == DML_EV_UNION && v >= s->ev) v -= 2;
    return v;
}

static int target_value(const dml_state *s, int card)
{
    return target_value_from(s, card, s->loc[card]);
}

/* Buying Bonus of p's Emblems of `suit` (R13): Q 2, J 1, T 1. */
static int emblem_reduction(const dml_state *s, int p, int suit)
{
    int e = 0;
    for (uint64_t m = front(s, p) & DML_SUIT_MASK(suit); m; m &= m - 1)
        e += dml_rank(lowest(m)) == DML_Q ? 2 : 1;
    return e;
}

static int count_vantage(const dml_state *s, int p, int suit)
{
    return popc(front(s, p) & DML_SUIT_MASK(suit));
}

/* Cards p may play on the Stack (R31), ignoring the ones already chosen. */
/* The cards p may play as Powers: Characters of its Hand; in DML-2015 the
 * Decadence it is affected by stops them (Emblems still allowed, 15.8), and
 * cards-2015-06 lets it play the J and Q of its Court too (15.9). */
DML_NOINLINE static uint64_t playable_powers(const dml_state *s, int p)
{
    if (is_mayhem(s) || affected(s, p, DML_EV_CUSTOMS)) return 0;
    uint64_t m = hand(s, p) & (dml_rank_mask[DML_J] | dml_rank_mask[DML_Q] | dml_rank_mask[0]);
    if (sw(s, DML_SW_CARDS_0615)) m |= front(s, p) & (dml_rank_mask[DML_J] | dml_rank_mask[DML_Q]);
    return m;
}

DML_NOINLINE static uint64_t playable_emblems(const dml_state *s, int p)
{
    if (is_mayhem(s) || (affected(s, p, DML_EV_CUSTOMS) && !is_2015(s))) return 0;
    return hand(s, p) & (dml_rank_mask[DML_J] | dml_rank_mask[DML_Q] | dml_rank_mask[DML_T]);
}

DML_ALWAYS_INLINE uint64_t playable(const dml_state *s, int p)
{
    /* the usual case first: every Character and Ten of the Hand */
    if (!sw(s, DML_SW_CARDS_0615) && !is_mayhem(s) && !affected(s, p, DML_EV_CUSTOMS))
        return hand(s, p) & (dml_rank_mask[DML_J] | dml_rank_mask[DML_Q] | dml_rank_mask[DML_T] |
                             dml_rank_mask[0]);
    return playable_powers(s, p) | playable_emblems(s, p);
}

static uint64_t sel_mask(const dml_state *s, int from, int to)
{
    uint64_t m = 0;
    for (int i = from; i < to; i++) m |= dml_bit(s->sel[i]);
    return m;
}

/* Declaration in progress: suit, and D with the chosen targets and commits */
static int decl_suit(const dml_state *s) { return s->sel_targets ? dml_suit(s->sel[0]) : -1; }

static int decl_value(const dml_state *s)
{
    int d = 0;
    for (int i = 0; i < s->sel_targets; i++) d += target_value(s, s->sel[i]);
    d -= emblem_reduction(s, s->active, decl_suit(s));
    for (int i = s->sel_targets; i < s->sel_n; i++) d -= dml_value(s->sel[i]);
    return d;
}

int dml_declaration_value(const dml_state *s) { return decl_value(s); }
int dml_target_value(const dml_state *s, int card)
{
    /* a target already in the buying area keeps the Value it was bought at */
    if (s->loc[card] == DML_Z_TARGET) return target_value_from(s, card, s->target_from);
    return target_value(s, card);
}
uint64_t dml_commit_filter(const dml_state *s, int suit) { return commit_filter(s, suit); }

static uint64_t opponent_emblems(const dml_state *s, int p)
{
    if (is_mayhem(s)) return 0;
    uint64_t m = 0;
    for (int q = 0; q < s->n; q++)
        if (q != p && dml_is_alive(s, q)) m |= front(s, q);
    return m;
}

static uint64_t opening_ten(const dml_state *s)
{
    if (is_mayhem(s) || s->event_type != DML_EV_OPENING) return 0;
    return s->zone[DML_Z_EVENT] & dml_rank_mask[DML_T];
}

static int can_buy(const dml_state *s)
{
    return s->zone[DML_Z_STOCK] || opponent_emblems(s, s->active) || opening_ten(s);
}

static int live_bm(const dml_state *s, int k) { return (int)((s->bm_live >> k) & 1); }

void dml_derive(dml_state *s)
{
    s->bm_live = 0;
    for (int k = 0; k < DML_MAX_BM; k++)
        if (s->zone_count[DML_Z_BM + k]) s->bm_live |= (uint64_t)1 << k;
}

static int sum_above(uint64_t m, int card) /* values of the cards of m with id > card */
{
    uint64_t above = card >= 63 ? 0 : m & ~((dml_bit(card) << 1) - 1);
    return sum_values(above);
}

/* --------------------------------------------------------- legal actions */

/* The frame of the Stack episode in progress (for the opener's must-play). */
static const dml_frame *find_frame(const dml_state *s, int proc)
{
    for (int i = s->nfr - 1; i >= 0; i--)
        if (s->fr[i].proc == proc) return &s->fr[i];
    return NULL;
}

enum { STK_PASSES = 0xff, STK_PLAYED = 0x100, STK_MUST = 0x200 };

static int legal_declare(const dml_state *s, cr_action *out)
{
    int n = 0, p = s->active;
    if (s->sel_n == 0) {
        /* first target: any Stock card, an opponent's Emblem, the Opening Ten;
         * a single target is always completable (value <= 12). */
        uint64_t t = s->zone[DML_Z_STOCK] | opponent_emblems(s, p) | opening_ten(s);
        for (; t; t &= t - 1) out[n++] = DML_A_CARD + lowest(t);
        out[n++] = DML_A_UNDO;
        return n;
    }
    int suit = decl_suit(s), d = decl_value(s);
    uint64_t chosen = sel_mask(s, 0, s->sel_n);
    uint64_t commits = commit_set(s, p, dml_prim_of(s, suit)) & ~chosen;
    uint64_t cand = 0;
    int last = s->sel[s->sel_n - 1];
    if (s->sel_targets == s->sel_n && s->loc[s->sel[0]] == DML_Z_STOCK) {
        /* more targets from the same Stock, ascending, if still completable */
        int capacity = sum_values(commits);
        for (uint64_t m = s->zone[DML_Z_STOCK] & DML_SUIT_MASK(suit) & ~chosen; m; m &= m - 1) {
            int c = lowest(m);
            if (c > last && d + target_value(s, c) - capacity <= 12) cand |= dml_bit(c);
        }
    }
    /* commits, ascending, each leaving a completable declaration */
    int first_commit = s->sel_targets < s->sel_n;
    for (uint64_t m = commits; m; m &= m - 1) {
        int c = lowest(m);
        if (first_commit && c <= last) continue;
        if (d - dml_value(c) - sum_above(commits, c) <= 12) cand |= dml_bit(c);
    }
    for (; cand; cand &= cand - 1) out[n++] = DML_A_CARD + lowest(cand);
    if (d <= 12) out[n++] = DML_A_DONE;
    out[n++] = DML_A_UNDO;
    return n;
}

/* An unordered choice among `pool`, built in ascending order. */
static int legal_ascending(const dml_state *s, uint64_t pool, cr_action *out)
{
    int n = 0;
    int last = s->sel_n ? s->sel[s->sel_n - 1] : -1;
    for (uint64_t m = pool; m; m &= m - 1)
        if (lowest(m) > last) out[n++] = DML_A_CARD + lowest(m);
    out[n++] = DML_A_DONE;
    if (s->sel_n) out[n++] = DML_A_UNDO;
    return n;
}

DML_NOINLINE static void stack_options_2015(const dml_state *s, int p, uint64_t chosen,
                                            uint64_t *powers, uint64_t *emblems)
{
    *powers = playable_powers(s, p) & ~chosen;
    *emblems = playable_emblems(s, p) & ~chosen;
}

/* A Stack play's options: these Powers and Emblems, then Done and Undo. */
DML_ALWAYS_INLINE int legal_stack_lists(const dml_state *s, uint64_t powers, uint64_t emblems,
                                        cr_action *out)
{
    int n = 0;
    for (uint64_t m = powers; m; m &= m - 1) out[n++] = DML_A_POWER + lowest(m);
    for (uint64_t m = emblems; m; m &= m - 1) out[n++] = DML_A_EMBLEM + lowest(m);
    const dml_frame *f = find_frame(s, DML_P_STACK);
    int must = f && (f->x & STK_MUST);
    if (s->sel_n || !must) out[n++] = DML_A_DONE;
    if (s->sel_n || must) out[n++] = DML_A_UNDO;
    return n;
}

static int legal_stack(const dml_state *s, cr_action *out)
{
    uint64_t avail = playable(s, s->actor) & ~sel_mask(s, 0, s->sel_n);
    return legal_stack_lists(
        s, avail & (dml_rank_mask[DML_J] | dml_rank_mask[DML_Q] | dml_rank_mask[0]),
        avail & (dml_rank_mask[DML_J] | dml_rank_mask[DML_Q] | dml_rank_mask[DML_T]), out);
}

/* events-2015-06's All Bets Are Off (15.9): on a Dabo! the roller may
 * trigger the Power of the Jack or Queen lying in the Event zone, once per
 * Dabo! roll (the DICE frame's x marks it; docs/rulings.md C17).  The card,
 * or -1 when there is none to trigger now. */
static int allbets_trigger(const dml_state *s)
{
    if (s->event_type != DML_EV_ALLBETS || !s->nfr || s->fr[s->nfr - 1].proc != DML_P_DICE ||
        s->fr[s->nfr - 1].x)
        return -1;
    uint64_t chars = s->zone[DML_Z_EVENT] & (dml_rank_mask[DML_J] | dml_rank_mask[DML_Q]);
    return chars ? lowest(chars) : -1;
}

/* DML-2015's Market Phase (15.4.2, V-PD2, V-PD3): each Market Action is a
 * Buy or an attempt on a Black Market, then the Black Market Action is an
 * attempt; any may be forfeited (Nothing), or all that remain (End). */
DML_NOINLINE static int legal_market_2015(const dml_state *s, cr_action *out)
{
    int n = 0;
    for (uint64_t m = s->bm_live; m; m &= m - 1) out[n++] = DML_A_VISIT + lowest(m);
    if (s->actions && can_buy(s)) out[n++] = DML_A_BUY;
    out[n++] = DML_A_NOTHING;
    if (s->actions + s->minors > 1) out[n++] = DML_A_END;
    return n;
}

static int legal_market(const dml_state *s, cr_action *out)
{
    int n = 0, p = s->active;
    if (s->actions) {
        for (uint64_t m = front(s, p); m; m &= m - 1) out[n++] = DML_A_CALLBACK + lowest(m);
    }
    if (s->minors && !is_mayhem(s) && !affected(s, p, DML_EV_UNION)) {
        for (uint64_t m = s->bm_live; m; m &= m - 1) out[n++] = DML_A_VISIT + lowest(m);
    }
    if (s->actions) {
        if (can_buy(s)) out[n++] = DML_A_BUY;
        if (playable(s, p)) out[n++] = DML_A_PLAY;
        out[n++] = DML_A_SUBSTITUTE;
    }
    if (s->minors) out[n++] = DML_A_NOTHING;
    out[n++] = DML_A_END;
    return n;
}

static int legal_cards(uint64_t m, int base, cr_action *out)
{
    int n = 0;
    for (; m; m &= m - 1) out[n++] = base + lowest(m);
    return n;
}

/* The decisions DML-2015 and its switches ask, or ask differently: 1 with
 * the list in out and its length in *count, 0 for a decision asked as in
 * 2016 (V-PD1 .. V-PD6, V18, events-2015-06's Dabo! trigger). */
DML_NOINLINE static int legal_2015(const dml_state *s, cr_action *out, int *count)
{
    int n = 0, p = s->actor;
    switch (s->kind) {
    case DML_D_DABO:
        if (allbets_trigger(s) >= 0) out[n++] = DML_A_PLAY; /* events-2015-06 (15.9) */
        out[n++] = DML_A_REROLL;
        out[n++] = DML_A_KEEP;
        break;
    case DML_D_MARKET: n = legal_market_2015(s, out); break;
    case DML_D_OFFER:
        if (!s->sel_n) return 0;
        out[n++] = DML_A_DONE; /* one card at most (15.5.2, V-PD4) */
        out[n++] = DML_A_UNDO;
        break;
    case DML_D_STACK: {
        uint64_t chosen = sel_mask(s, 0, s->sel_n), powers, emblems;
        stack_options_2015(s, p, chosen, &powers, &emblems);
        n = legal_stack_lists(s, powers, emblems, out);
        break;
    }
    case DML_D_PILE:
        for (int k = 0; k < 4; k++)
            if (s->pile[k][0]) out[n++] = DML_A_PILE + k;
        break;
    case DML_D_WAGER: {
        int most = s->zone_count[DML_Z_HAND + p] < 50 ? s->zone_count[DML_Z_HAND + p] : 50;
        for (int m = 0; m <= most; m++) out[n++] = DML_A_WAGER + m;
        break;
    }
    case DML_D_LEAVE: { /* exactly karg cards, none of those just taken (V14) */
        if (s->sel_n >= s->karg) {
            out[n++] = DML_A_DONE;
        } else {
            /* ascending (C3), and only a card that leaves enough cards above
             * it to reach exactly karg: every choice offered can be completed */
            int last = s->sel_n ? s->sel[s->sel_n - 1] : -1, more = s->karg - s->sel_n - 1;
            uint64_t pool = hand(s, p) & ~s->bm_taken;
            for (uint64_t m = pool; m; m &= m - 1) {
                int c = lowest(m);
                if (c > last && popc(pool & ~((dml_bit(c) << 1) - 1)) >= more)
                    out[n++] = DML_A_CARD + c;
            }
        }
        if (s->sel_n) out[n++] = DML_A_UNDO;
        break;
    }
    case DML_D_NAME_SUIT:
        for (int su = 0; su < 4; su++) out[n++] = DML_A_SUIT + su;
        break;
    default: return 0;
    }
    *count = n;
    return 1;
}

int dml_legal(const cr_game *g, const void *st, cr_action *out, cr_ctx *cx)
{
    (void)g;
    (void)cx; /* legal lists need no scratch */
    int n2015;
    const dml_state *s = st;
    if (s->need != DML_NEED_DECISION) return 0;
    /* the decisions DML-2015 asks differently go out of line, so the 2016
     * edition's stay as compact as they were */
    if (is_2015(s) && legal_2015(s, out, &n2015)) return n2015;
    int p = s->actor, n = 0;
    switch (s->kind) {
    case DML_D_DABO:
        out[0] = DML_A_REROLL;
        out[1] = DML_A_KEEP;
        return 2;
    case DML_D_MARKET: return legal_market(s, out);
    case DML_D_DECLARE: return legal_declare(s, out);
    case DML_D_OFFER: return legal_ascending(s, hand(s, p), out);
    case DML_D_COMMIT_ACT:
        return legal_ascending(s,
                               commit_set(s, p, dml_prim_of(s, s->buy_suit)) |
                                   commit_set(s, p, dml_sec(s->buy_suit)),
                               out);
    case DML_D_COMMIT_PAS:
        return legal_ascending(s, commit_set(s, p, dml_prim_of(s, s->buy_suit)), out);
    case DML_D_STACK: return legal_stack(s, out);
    case DML_D_VICE: {
        uint64_t m = 0;
        for (int q = 0; q < s->n; q++)
            if (dml_is_alive(s, q)) m |= front(s, q);
        return legal_cards(m, DML_A_CARD, out);
    }
    case DML_D_COUNSEL_BM:
        for (uint64_t m = s->bm_live; m; m &= m - 1) out[n++] = DML_A_BMPICK + lowest(m);
        return n;
    case DML_D_COUNSEL_CARD: return legal_cards(s->zone[DML_Z_BM + s->karg], DML_A_CARD, out);
    case DML_D_TITHE:
    case DML_D_THIEF_CARD: return legal_cards(hand(s, p), DML_A_CARD, out);
    case DML_D_HARLOT: {
        uint64_t m = 0;
        for (int i = 0; i < s->stack_n; i++) m |= dml_bit(s->stack_card[i]);
        return legal_cards(m, DML_A_CARD, out);
    }
    case DML_D_ARCHDUCHESS:
        for (int su = 0; su < 4; su++)
            if (s->zone[DML_Z_STOCK] & DML_SUIT_MASK(su)) out[n++] = DML_A_STOCK + su;
        return n;
    case DML_D_THIEF_MODE:
        if (hand(s, p)) out[n++] = DML_A_GIVE;
        out[n++] = DML_A_TAKE;
        return n;
    case DML_D_THIEF_PLAYER:
        for (int q = 0; q < s->n; q++)
            if (q != p && dml_is_alive(s, q)) out[n++] = DML_A_PLAYER + q;
        return n;
    }
    return 0;
}

DML_ALWAYS_INLINE uint64_t chance_pool(const dml_state *s)
{
    switch (s->kind) {
    case DML_C_DECK: return s->zone[DML_Z_DECK];
    case DML_C_POOL: return s->zone[DML_Z_POOL] & dml_rank_mask[s->karg];
    case DML_C_HAND: return hand(s, s->karg);
    case DML_C_BM: return s->zone[DML_Z_BM + s->karg];
    case DML_C_PILE: return s->zone[DML_Z_POOL] & dml_rank_mask[2 + (s->karg >> 2)];
    case DML_C_NEST: {
        uint64_t m = s->zone[DML_Z_NEST];
        for (int i = 0; i < s->nest_top_n; i++) m &= ~dml_bit(s->nest_top[i]);
        return m;
    }
    }
    return 0;
}

int dml_chance(const cr_game *g, const void *st, cr_action *out, double *prob)
{
    (void)g;
    const dml_state *s = st;
    if (s->need != DML_NEED_CHANCE) return 0;
    int n = 0;
    if (s->kind == DML_C_ROLL) { /* the 21 unordered rolls, ascending */
        static const double roll_prob[21] = {
            1 / 36.0, 2 / 36.0, 2 / 36.0, 2 / 36.0, 2 / 36.0, 2 / 36.0, 1 / 36.0,
            2 / 36.0, 2 / 36.0, 2 / 36.0, 2 / 36.0, 1 / 36.0, 2 / 36.0, 2 / 36.0,
            2 / 36.0, 1 / 36.0, 2 / 36.0, 2 / 36.0, 1 / 36.0, 2 / 36.0, 1 / 36.0,
        };
        for (n = 0; n < 21; n++) out[n] = DML_A_ROLL + n;
        if (prob) memcpy(prob, roll_prob, sizeof roll_prob);
        return n;
    }
    uint64_t m = chance_pool(s);
    double p = 1.0 / popc(m);
    for (; m; m &= m - 1) {
        out[n] = DML_A_DRAW + lowest(m);
        if (prob) prob[n] = p;
        n++;
    }
    return n;
}

/* chance_outcomes' distribution drawn directly: two dice, or one uniform
 * pick among the candidates (the k-th set bit of the pool). */
static cr_action dml_sample_chance(const cr_game *g, const void *st, cr_rng *rng)
{
    (void)g;
    const dml_state *s = st;
    assert(s->need == DML_NEED_CHANCE);
    if (s->kind == DML_C_ROLL) { /* one of the 36 ordered rolls, as its unordered index */
        static const uint8_t roll_of[36] = {0, 1, 2,  3,  4,  5,  1, 6,  7,  8,  9,  10,
                                            2, 7, 11, 12, 13, 14, 3, 8,  12, 15, 16, 17,
                                            4, 9, 13, 16, 18, 19, 5, 10, 14, 17, 19, 20};
        return DML_A_ROLL + roll_of[cr_rng_below(rng, 36)];
    }
    uint64_t m = chance_pool(s);
    assert(m); /* every chance node of a valid state has an outcome */
    int k = (int)cr_rng_below(rng, (uint32_t)popc(m));
    /* the k-th candidate: halve the range while it holds (invariant: the
     * answer is among the lowest 2*width bits of m, shifted by base) */
    int base = 0;
    for (int width = 32; width >= 8; width /= 2) {
        int low = popc(m & (((uint64_t)1 << width) - 1));
        if (k >= low) {
            k -= low;
            m >>= width;
            base += width;
        }
    }
    while (k--) m &= m - 1;
    return DML_A_DRAW + base + lowest(m);
}

int dml_current_player(const cr_game *g, const void *st)
{
    (void)g;
    const dml_state *s = st;
    if (s->over) return CR_TERMINAL;
    if (s->need == DML_NEED_CHANCE) return CR_CHANCE;
    return s->actor;
}

/* ------------------------------------------------------------ procedures */

static int roll_total(const dml_state *s) { return s->die[0] + s->die[1]; }

static void take_roll(dml_state *s, cr_action ans)
{
    /* roll index (dml_roll_index order) -> the two dice */
    static const uint8_t first[21] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2,
                                      3, 3, 3, 3, 4, 4, 4, 5, 5, 6};
    static const uint8_t second[21] = {1, 2, 3, 4, 5, 6, 2, 3, 4, 5, 6,
                                       3, 4, 5, 6, 4, 5, 6, 5, 6, 6};
    int i = ans - DML_A_ROLL;
    assert(dml_roll_index(first[i], second[i]) == i);
    s->die[0] = first[i];
    s->die[1] = second[i];
}

/* The cause of the check in frame ci, read from the frame that asked for
 * it: DML_E_CHECK's and DML_E_DABO's from, to and card (dml_internal.h).
 * Called only when someone listens for events (search pays nothing). */
static void check_cause(const dml_state *s, int ci, int *from, int *to, int *card)
{
    *from = 10 * s->die[0] + s->die[1];
    *to = is_mayhem(s) ? DML_CHECK_NO_FOLLOW : 0;
    *card = -1;
    if (ci < 1 || ci >= s->nfr || s->fr[ci].proc != DML_P_CHECK) return;
    const dml_frame *up = &s->fr[ci - 1];
    switch (up->proc) {
    case DML_P_BUY:
        *from += 100 * DML_CHECK_BUY;
        *to |= (s->buy_suit & 3) + 4 * (s->seizer + 1);
        break;
    case DML_P_VISIT: {
        int label = up->a >= 0 && up->a < DML_MAX_BM ? s->bm_label[up->a] : 0;
        *from += 100 * DML_CHECK_VISIT;
        *to |= label <= DML_CHECK_DETAIL ? label : 0;
        if (is_fire(s) && hand(s, s->active)) *to |= DML_CHECK_HUSTLE;
        break;
    }
    case DML_P_CALLBACK:
        *from += 100 * DML_CHECK_CALLBACK;
        *card = up->a;
        break;
    case DML_P_POWER:
        *from += 100 * DML_CHECK_THIEF;
        *card = up->a;
        break;
    default: break;
    }
}

/* The roll is final: the check below keeps the count of its Dabo! re-rolls
 * (the DICE frame's b) in its own b, for the re-roll curse (A3). */
static void dice_done(dml_state *s, const dml_frame *f)
{
    if (s->nfr >= 2 && s->fr[s->nfr - 2].proc == DML_P_CHECK) s->fr[s->nfr - 2].b = f->b;
    pop(s);
}

/* DICE (seat = a): one roll with Dabo! re-rolls (3.1 steps 1-2, R21).
 * b: the re-rolls so far; x: 1 once this roll triggered All Bets Are Off's
 * Event Power (events-2015-06). */
DML_NOINLINE static void p_dice(ctx *c, dml_frame *f, cr_action ans)
{
    dml_state *s = c->s;
    switch (f->step) {
    case 0:
        f->step = 1;
        ask_chance(s, DML_C_ROLL, 0);
        return;
    case 1:
        take_roll(s, ans);
        f->x = 0; /* a new roll: All Bets Are Off may trigger again on a Dabo! */
        emit(c, DML_E_ROLL, f->a, -1, -1, -1, -1, s->die[0], s->die[1], ALL_SEEN);
        if (dml_dabo_roll(s->die[0], s->die[1])) {
            f->step = 2;
            ask(s, f->a, DML_D_DABO);
            return;
        }
        dice_done(s, f);
        return;
    case 2: {
        if (ans == DML_A_PLAY) { /* All Bets Are Off: the Event's Power, then the Dabo! again */
            int card = allbets_trigger(s);
            emit(c, DML_E_DECISION, f->a, -1, card, -1, -1, ans, 0, ALL_SEEN);
            f->x = 1;
            push(s, DML_P_POWER, card, f->a, 0);
            return;
        }
        if (ans < 0) { /* back from the triggered Power */
            ask(s, f->a, DML_D_DABO);
            return;
        }
        /* b: the target of the check the roll is for (DML_NO_TARGET in the
         * Dealer roll-off); other: the double, 10 * die + die */
        if (c->ev) {
            int target = DML_NO_TARGET, from, to, card;
            if (s->nfr >= 2 && s->fr[s->nfr - 2].proc == DML_P_CHECK) target = s->fr[s->nfr - 2].x;
            check_cause(s, s->nfr - 2, &from, &to, &card);
            emit(c, DML_E_DABO, f->a, 10 * s->die[0] + s->die[1], card, from, to,
                 ans == DML_A_REROLL, target, ALL_SEEN);
        }
        if (ans == DML_A_REROLL) {
            f->b++; /* b: the Dabo! re-rolls of this roll */
            f->step = 1;
            ask_chance(s, DML_C_ROLL, 0);
            return;
        }
        dice_done(s, f);
        return;
    }
    }
}

/* CHECK (roller a, target x): 3.1 steps 3 (the caller does 4 and 5). */
DML_NOINLINE static void p_check(ctx *c, dml_frame *f)
{
    dml_state *s = c->s;
    if (f->step == 0) {
        f->step = 1;
        push(s, DML_P_DICE, f->a, 0, 0);
        return;
    }
    int special;
    int ok = dml_check_eval(s->die[0], s->die[1], f->x, &special);
    s->check_ok = (uint8_t)ok;
    s->check_special = (uint8_t)special;
    /* the re-roll curse (A3): two Dabo! re-rolls or more in a Buying roll
     * (in DML-2015 a Black Market attempt too) that still fails; b: the
     * re-rolls (p_dice) */
    if (!ok && f->b >= 2 && f > s->fr &&
        (f[-1].proc == DML_P_BUY || (is_2015(s) && f[-1].proc == DML_P_VISIT)))
        s->feat[f->a] |= DML_FEAT_REROLL_CURSE;
    if (c->ev) {
        int from, to, card;
        check_cause(s, (int)(f - s->fr), &from, &to, &card);
        emit(c, DML_E_CHECK, f->a, special, card, from, to, f->x, ok, ALL_SEEN);
    }
    pop(s);
}

/* After a check's consequence: Woot! brings the Foreign Merchant, Wyvern
 * Eyes a Dragon Siege (3.1 step 5, 9.3); nothing in Market Mayhem (R22). */
static void push_followup(dml_state *s, int roller)
{
    if (is_mayhem(s) || !s->check_special) return;
    if (s->check_special == 'W')
        push(s, DML_P_FM, -1, 0, 0);
    else
        push(s, DML_P_SIEGE, roller, DML_SIEGE_WYVERN, 0);
}

/* ROLLOFF (3.2, R46). a: next offset to examine, b: seat that last rolled */
DML_NOINLINE static void p_rolloff(ctx *c, dml_frame *f)
{
    dml_state *s = c->s;
    for (;;) {
        switch (f->step) {
        case 0:
            f->a = 0;
            f->step = 1;
            break;
        case 1:
            while (f->a < s->n) {
                int seat = (s->first_roller + f->a) % s->n;
                f->a++;
                if ((s->rolloff_mask >> seat) & 1) {
                    f->b = (int8_t)seat;
                    f->step = 2;
                    push(s, DML_P_DICE, seat, 0, 0);
                    return;
                }
            }
            f->step = 3;
            break;
        case 2:
            if (s->die[0] == 6 && s->die[1] == 6) { /* Woot! wins the token at once */
                s->dealer = (uint8_t)f->b;
                s->feat[f->b] |= DML_FEAT_WOOT_ROLLOFF;
                pop(s);
                return;
            }
            s->rolloff_total[f->b] = (int8_t)roll_total(s);
            f->step = 1;
            break;
        case 3: {
            int best = -1, wyverns = 0;
            uint8_t tied = 0;
            for (int p = 0; p < s->n; p++) {
                if (!((s->rolloff_mask >> p) & 1)) continue;
                if (s->rolloff_total[p] > best) {
                    best = s->rolloff_total[p];
                    tied = 0;
                }
                if (s->rolloff_total[p] == best) tied |= (uint8_t)(1u << p);
                wyverns += s->rolloff_total[p] == 2; /* only (1,1) makes 2 */
            }
            /* A5: a pass in which every seat rolled, all Wyvern Eyes */
            if (s->rolloff_mask == s->alive && wyverns == s->n)
                for (int p = 0; p < s->n; p++) s->feat[p] |= DML_FEAT_ALL_WYVERN;
            if (popc(tied) == 1) {
                s->dealer = (uint8_t)lowest(tied);
                pop(s);
                return;
            }
            s->rolloff_mask = tied;
            f->step = 0;
            break;
        }
        }
    }
}

static int free_bm_slot(const dml_state *s)
{
    uint64_t free_slots = ~s->bm_live & (((uint64_t)1 << DML_MAX_BM) - 1);
    return free_slots ? lowest(free_slots) : -1;
}

/* FM: the Foreign Merchant (9.1, R2, R3).  a = the triggering Joker or -1;
 * x = the new slot once created. */
DML_NOINLINE static void p_fm(ctx *c, dml_frame *f, cr_action ans)
{
    dml_state *s = c->s;
    if (f->step == 0) {
        uint64_t nest = s->zone[DML_Z_NEST];
        if (f->a < 0 && !s->zone[DML_Z_DISCARD] && !nest) { /* nothing gathered */
            pop(s);
            return;
        }
        int k = free_bm_slot(s);
        assert(k >= 0);
        emit(c, DML_E_FOREIGN, -1, -1, f->a, -1, -1, 0, 0, ALL_SEEN);
        s->bm_label[k] = ++s->bm_next_label;
        f->x = (int16_t)k;
        if (f->a >= 0) move(c, f->a, DML_Z_BM + k, ALL_SEEN);
        for (uint64_t m = s->zone[DML_Z_DISCARD]; m; m &= m - 1)
            move(c, lowest(m), DML_Z_BM + k, ALL_SEEN);
        f->step = 2;
        if (nest) {
            if (s->nest_top_n) {
                move(c, s->nest_top[s->nest_top_n - 1], DML_Z_BM + k, ALL_SEEN);
            } else {
                f->step = 1;
                ask_chance(s, DML_C_NEST, 0);
                return;
            }
        }
    } else if (f->step == 1) {
        move(c, ans - DML_A_DRAW, DML_Z_BM + f->x, ALL_SEEN);
        f->step = 2;
    }
    if (s->over) return;
    int k = f->x;
    emit(c, DML_E_BM_NEW, -1, -1, -1, -1, DML_Z_BM + k, s->bm_label[k], s->zone_count[DML_Z_BM + k],
         ALL_SEEN);
    pop(s);
}

/* A card drawn by Restock or Supply (5.3, 5.4): a Commodity to its Stock,
 * a Jack or Queen to the Discard Pile, a Joker to the Foreign Merchant. */
static void place_drawn(ctx *c, int card)
{
    if (dml_is_joker(card))
        push(c->s, DML_P_FM, card, 0, 0);
    else if (dml_is_commodity(card))
        move(c, card, DML_Z_STOCK, ALL_SEEN);
    else
        discard(c, card);
}

DML_NOINLINE static void p_restock(ctx *c, dml_frame *f, cr_action ans)
{
    dml_state *s = c->s;
    if (ans >= 0) {
        place_drawn(c, ans - DML_A_DRAW);
        if (s->nfr && top(s) != f) return; /* the Foreign Merchant runs first */
    }
    if (s->zone_count[DML_Z_STOCK] >= 3 || !s->zone[DML_Z_DECK]) {
        pop(s);
        return;
    }
    ask_chance(s, DML_C_DECK, 0);
}

DML_NOINLINE static void p_supply(ctx *c, dml_frame *f, cr_action ans)
{
    dml_state *s = c->s;
    if (f->step == 0) {
        if (!s->zone[DML_Z_DECK]) {
            pop(s);
            return;
        }
        f->step = 1;
        ask_chance(s, DML_C_DECK, 0);
        return;
    }
    if (f->step == 1) {
        f->step = 2;
        place_drawn(c, ans - DML_A_DRAW);
        return;
    }
    pop(s);
}

/* Victory Points (11.2, R49), with what makes them: dml_vp keeps only the
 * total (the unused parts cost nothing once inlined). */
DML_ALWAYS_INLINE int vp_parts(const dml_state *s, int p, dml_vp_parts *v)
{
    uint64_t h = hand(s, p), all = h | front(s, p);
    int total = 0;
    uint64_t king = s->zone[DML_Z_KING + p];
    v->king = (int8_t)(king ? lowest(king) : -1);
    v->desired = (int8_t)(king ? dml_suit(lowest(king)) : -1);
    for (int su = 0; su < 4; su++) {
        uint64_t com = all & DML_SUIT_MASK(su) & dml_commodity_mask();
        int sum = sum_values(com), sub = su == v->desired ? 2 * sum : sum, guild = 0;
        if (all & dml_bit(dml_card(su, DML_T))) /* 2 per card; cards-2015-06: 1 (15.9) */
            guild = (sw(s, DML_SW_CARDS_0615) ? 1 : 2) *
                    popc(h & DML_SUIT_MASK(su) & dml_commodity_mask() & ~dml_rank_mask[DML_T]);
        v->counted[su] = com;
        v->sum[su] = (int16_t)sum;
        v->guild[su] = (int16_t)guild;
        v->subtotal[su] = (int16_t)(sub + guild);
        total += sub + guild;
    }
    v->eggs = (int8_t)popc(h & dml_rank_mask[DML_A]);
    total += 20 * v->eggs;
    v->total = (int16_t)total;
    return total;
}

int dml_vp(const dml_state *s, int p)
{
    dml_vp_parts v;
    return vp_parts(s, p, &v);
}

int dml_vp_breakdown(const dml_state *s, int p, dml_vp_parts *out) { return vp_parts(s, p, out); }

/* The Victory Point sequence (11.2, R48) after the Event Phase found the
 * Deck empty. */
static void vp_end(ctx *c)
{
    dml_state *s = c->s;
    for (int p = 0; p < s->n; p++) {
        if (!dml_is_alive(s, p)) continue;
        reveal_hand(c, p);
        int k = s->zone[DML_Z_KING + p] ? lowest(s->zone[DML_Z_KING + p]) : -1;
        if (k >= 0) {
            if (s->knowledge) know_reveal(s, k);
            emit(c, DML_E_REVEAL, p, -1, k, DML_Z_KING + p, DML_Z_KING + p, 0, 0, ALL_SEEN);
        }
    }
    int vp[4] = {0};
    for (int p = 0; p < s->n; p++) {
        if (!dml_is_alive(s, p)) continue;
        dml_vp_parts v;
        vp[p] = vp_parts(s, p, &v);
        for (int su = 0; su < 4 && c->ev; su++) { /* what makes the total, suit by suit */
            if (!v.counted[su]) continue;
            int ranks = 0;
            for (uint64_t m = v.counted[su]; m; m &= m - 1) ranks |= 1 << (dml_rank(lowest(m)) - 2);
            emit(c, DML_E_VP_SUIT, p, -1, su == v.desired ? v.king : -1, ranks, v.guild[su], su,
                 v.subtotal[su], ALL_SEEN);
        }
        emit(c, DML_E_VP, p, -1, -1, -1, -1, vp[p], v.eggs, ALL_SEEN);
    }
    end_game(c, DML_END_VP, dml_vp_winner(s, vp));
}

int dml_vp_winner(const dml_state *s, const int *vp)
{
    int best = -1, best_eggs = -1, winner = -1, tie = 0;
    for (int p = 0; p < s->n; p++)
        if (dml_is_alive(s, p) && vp[p] > best) best = vp[p];
    for (int p = 0; p < s->n; p++) {
        if (!dml_is_alive(s, p) || vp[p] != best) continue;
        /* DML-2015 breaks no tie (V4): every seat counts alike */
        int eggs = is_2015(s) ? 0 : popc(hand(s, p) & dml_rank_mask[DML_A]);
        if (eggs > best_eggs) {
            best_eggs = eggs;
            winner = p;
            tie = 0;
        } else if (eggs == best_eggs) {
            tie = 1;
        }
    }
    return tie ? -1 : winner;
}

/* DML-2015's Event drawing (15.3.1, V1; the switches' V12, V13): a 2-9 or
 * a Ten enters the Event zone; a Jack or Queen goes to the Hoard and a
 * Joker brings the Foreign Merchant (f->b: the Joker, for EVENT's step 4),
 * both making the Round a Carnival of Coin.  events-2015-06 keeps every
 * drawn J, Q and T in the Event zone as All Bets Are Off; buying-frenzy
 * makes every special event Buying Frenzy. */
DML_NOINLINE static void event_2015(ctx *c, dml_frame *f, int card)
{
    dml_state *s = c->s;
    int r = dml_rank(card), type;
    int keep = !dml_is_joker(card) && ((r >= 2 && r <= DML_T) ||
                                       (sw(s, DML_SW_EVENTS_0615) && (r == DML_J || r == DML_Q)));
    if (r >= 2 && r <= 9)
        type = dml_event_type_of(card);
    else if (sw(s, DML_SW_FRENZY))
        type = DML_EV_FRENZY;
    else if (sw(s, DML_SW_EVENTS_0615) && !dml_is_joker(card))
        type = DML_EV_ALLBETS;
    else
        type = r == DML_T ? DML_EV_OPENING : DML_EV_CARNIVAL;
    if (keep)
        move(c, card, DML_Z_EVENT, ALL_SEEN);
    else if (dml_is_joker(card))
        f->b = (int8_t)card; /* it waits in the Deck's place until step 4 */
    else
        discard(c, card);
    s->event_type = (uint8_t)type;
}

/* EVENT (5.1).  a: offset of the next player for The Hated People;
 * b: DML-2015's Joker drawn, -1 none. */
DML_NOINLINE static void p_event(ctx *c, dml_frame *f, cr_action ans)
{
    dml_state *s = c->s;
    for (;;) {
        switch (f->step) {
        case 0: {
            uint64_t cur = s->zone[DML_Z_EVENT];
            if (cur) discard(c, lowest(cur));
            if (!s->zone[DML_Z_DECK]) {
                vp_end(c);
                return;
            }
            f->step = 1;
            ask_chance(s, DML_C_DECK, 0);
            return;
        }
        case 1: {
            int card = ans - DML_A_DRAW;
            if (is_2015(s)) {
                f->b = -1;
                event_2015(c, f, card);
                if (s->over) return;
            } else {
                move(c, card, DML_Z_EVENT, ALL_SEEN);
                s->event_type = (uint8_t)dml_event_type_of(card);
            }
            /* EV (table 1.2): the printed rank for the suit events and
             * Grand Opening (10); none (0) for Carnival of Coin */
            s->ev = suit_events(s) || s->event_type == DML_EV_OPENING ? (uint8_t)dml_rank(card) : 0;
            s->affected = 0;
            if (!is_mayhem(s)) {
                for (int p = 0; p < s->n; p++) {
                    if (!dml_is_alive(s, p)) continue;
                    if (!suit_events(s) || s->zone_count[DML_Z_HAND + p] >= s->ev)
                        s->affected |= (uint8_t)(1u << p);
                }
            }
            emit(c, DML_E_EVENT, -1, s->affected, card, -1, is_mayhem(s), s->event_type, s->ev,
                 ALL_SEEN);
            f->a = 0;
            f->step = (s->event_type == DML_EV_HATED && !is_mayhem(s)) ? 2 : 4;
            ans = -1;
            break;
        }
        case 2: /* The Hated People: each affected player discards a random card */
        case 3:
            if (f->step == 3) {
                int card = ans - DML_A_DRAW, owner = s->loc[card] - DML_Z_HAND;
                if (dml_is_egg(
                        card)) /* R5: to the face-down Nest; only the owner knows which egg (C13) */
                    move_hint(c, card, DML_Z_NEST, SEEN(owner), dml_rank_mask[DML_A]);
                else
                    discard(c, card);
                if (s->over) return;
                ans = -1;
            }
            f->step = 2;
            while (f->a < s->n) {
                int p = (dml_anchor(s, s->dealer) + f->a) % s->n;
                f->a++;
                if (dml_is_alive(s, p) && ((s->affected >> p) & 1) && hand(s, p)) {
                    f->step = 3;
                    ask_chance(s, DML_C_HAND, p);
                    return;
                }
            }
            f->step = 4;
            break;
        case 4: {
            uint64_t cur = s->zone[DML_Z_EVENT];
            f->step = 5;
            if (cur && dml_is_joker(lowest(cur))) { /* R54 */
                push(s, DML_P_FM, lowest(cur), 0, 0);
                return;
            }
            if (is_2015(s) &&
                f->b >= 0) { /* DML-2015: the Joker drawn brings the Foreign Merchant (V1) */
                push(s, DML_P_FM, f->b, 0, 0);
                return;
            }
            break;
        }
        case 6: /* entered by the Blabbermouth (V18) with its stop card in x */
            ans = DML_A_DRAW + f->x;
            f->x = 0;
            f->step = 1;
            break;
        default: pop(s); return;
        }
    }
}

/* MARKET (6): a = 0 until the budget is fixed */
DML_NOINLINE static void p_market(ctx *c, dml_frame *f, cr_action ans)
{
    dml_state *s = c->s;
    int p = s->active;
    if (f->step == 0) {
        int extra =
            !is_mayhem(s) && (s->event_type == DML_EV_CARNIVAL || s->event_type == DML_EV_OPENING ||
                              s->event_type == DML_EV_FRENZY);
        s->actions = (uint8_t)(1 + extra + count_vantage(s, p, DML_SUIT_D)); /* R56, R11 */
        s->minors = 1;
        if (is_2015(s) && s->event_type == DML_EV_UNION) {
            /* Tax Relief (15.8): no Black Market Action for the affected;
             * 2015-06 (V13): +1 Market Action below the threshold instead */
            if (!sw(s, DML_SW_EVENTS_0615))
                s->minors = !affected(s, p, DML_EV_UNION);
            else if (!((s->affected >> p) & 1))
                s->actions++;
        }
        emit(c, DML_E_BUDGET, p, -1, -1, -1, -1, s->actions, s->minors, ALL_SEEN);
        f->step = 1;
    }
    if (f->step == 2) {
        f->step = 1;
        if (ans >= 0) {
            int card = -1;
            if (ans >= DML_A_CALLBACK && ans < DML_A_CALLBACK + DML_NCARDS)
                card = ans - DML_A_CALLBACK;
            /* b: the label of a visited Black Market, for the log ("visit BM3") */
            int bm = ans >= DML_A_VISIT && ans < DML_A_VISIT + DML_MAX_BM
                         ? s->bm_label[ans - DML_A_VISIT]
                         : 0;
            if (ans != DML_A_BUY && ans != DML_A_PLAY) /* those announce themselves when made */
                emit(c, DML_E_DECISION, p, -1, card, -1, -1, ans, bm, ALL_SEEN);
            if (ans == DML_A_END) {
                pop(s);
                return;
            } else if (ans == DML_A_BUY) {
                push(s, DML_P_BUY, 0, 0, 0);
                return;
            } else if (ans == DML_A_PLAY) {
                push(s, DML_P_STACK, 1, p, 0);
                return;
            } else if (ans == DML_A_SUBSTITUTE) {
                s->actions--;
                s->minors++;
            } else if (ans == DML_A_NOTHING) {
                if (is_2015(s) && s->actions) /* forfeits the next action in the order */
                    s->actions--;
                else
                    s->minors--;
            } else if (ans >= DML_A_VISIT && ans < DML_A_VISIT + DML_MAX_BM) {
                if (is_2015(s) && s->actions) /* a Market Action substituted (15.4.2) */
                    s->actions--;
                else
                    s->minors--;
                push(s, DML_P_VISIT, ans - DML_A_VISIT, 0, 0);
                return;
            } else if (card >= 0) {
                s->actions--;
                push(s, DML_P_CALLBACK, card, 0, 0);
                return;
            }
        }
    }
    /* step 1: the next option, unless the phase has ended by itself */
    if (!dml_is_alive(s, p) || (!s->actions && !s->minors)) { /* R65, R66, R68 */
        pop(s);
        return;
    }
    f->step = 2;
    ask(s, p, DML_D_MARKET);
}

static void sel_clear(dml_state *s)
{
    memset(s->sel, 0, s->sel_n);
    s->sel_emblem = 0;
    s->sel_n = s->sel_targets = 0;
}

static void sel_undo(dml_state *s)
{
    s->sel_n--;
    s->sel[s->sel_n] = 0;
    s->sel_emblem &= ~(1ull << s->sel_n);
    if (s->sel_targets > s->sel_n) s->sel_targets = s->sel_n;
}

static void add_sel(dml_state *s, int card, int flag)
{
    if (flag & DML_SF_EMBLEM) s->sel_emblem |= 1ull << s->sel_n;
    s->sel[s->sel_n++] = (uint8_t)card;
}

/* A card chosen for the Declaration: a target while only targets were
 * chosen and the card is not from the Hand, else a commit (7.1). */
static void declare_add(dml_state *s, int card)
{
    if (s->sel_targets == s->sel_n && s->loc[card] != DML_Z_HAND + s->active) s->sel_targets++;
    add_sel(s, card, 0);
}

/* Whether a bid card goes to the Hoard instead of its Stock after the
 * Outcome: events-2015-06's Contraband Crackdown takes those of value >=
 * EV, and its All Bets Are Off every Resource bid on an Emblem (V13). */
static int bid_to_hoard(const dml_state *s, int card)
{
    if (!sw(s, DML_SW_EVENTS_0615)) return 0;
    if (s->event_type == DML_EV_FCCC) return dml_value(card) >= s->ev;
    return s->event_type == DML_EV_ALLBETS && s->target_owner >= 0;
}

/* BUY (7).  a: offset of the next Seize offer; b: the seat offering. */
DML_NOINLINE static void p_buy(ctx *c, dml_frame *f, cr_action ans)
{
    dml_state *s = c->s;
    int p = s->active;
    for (;;) {
        switch (f->step) {
        case 0:
            sel_clear(s);
            f->step = 1;
            ask(s, p, DML_D_DECLARE);
            return;
        case 1: /* PD3: the Declaration, card by card */
            if (ans >= DML_A_CARD && ans < DML_A_CARD + DML_NCARDS) {
                declare_add(s, ans - DML_A_CARD);
                ask(s, p, DML_D_DECLARE);
                return;
            }
            if (ans == DML_A_UNDO) {
                if (!s->sel_n) { /* withdraw the Buy: it costs nothing (R65) */
                    pop(s);
                    return;
                }
                sel_undo(s);
                ask(s, p, DML_D_DECLARE);
                return;
            }
            { /* DONE: the Declaration is made; the Action is spent (7.1.7) */
                int first = s->sel[0];
                s->buy_suit = (int8_t)dml_suit(first);
                s->D = (int16_t)decl_value(s);
                s->P = 0;
                s->seizer = -1;
                s->target_from = (int8_t)s->loc[first];
                s->target_owner = -1;
                if (s->target_from >= DML_Z_FRONT && s->target_from < DML_Z_FRONT + 4)
                    s->target_owner = (int8_t)(s->target_from - DML_Z_FRONT);
                s->actions--;
                emit(c, DML_E_DECISION, p, -1, -1, -1, -1, DML_A_BUY, 0, ALL_SEEN);
                uint64_t targets = sel_mask(s, 0, s->sel_targets);
                uint64_t commits = sel_mask(s, s->sel_targets, s->sel_n);
                sel_clear(s);
                for (; targets; targets &= targets - 1)
                    move(c, lowest(targets), DML_Z_TARGET, ALL_SEEN);
                for (; commits; commits &= commits - 1)
                    move(c, lowest(commits), DML_Z_COMMIT, ALL_SEEN);
                if (s->over) return;
                emit(c, DML_E_DECLARE, p, -1, -1, -1, -1, s->D, s->buy_suit, ALL_SEEN);
                f->a = 1;
                /* DML-2015 (V9): an attempt on an Emblem has no Seize and no
                 * Bidding; it goes to the roll */
                f->step = is_2015(s) && s->target_owner >= 0 ? 7 : 2;
                ans = -1;
            }
            break;
        case 2: /* Seize offers, ccw after the Active Player (7.2.1, R55) */
            while (f->a < s->n) {
                int q = (p + f->a) % s->n;
                if (!dml_is_alive(s, q) || q == p) {
                    f->a++;
                    continue;
                }
                if (affected(s, q, DML_EV_FCCC) || !hand(s, q)) { /* forced pass (R78) */
                    emit(c, DML_E_OFFER, q, -1, -1, -1, -1, 0,
                         affected(s, q, DML_EV_FCCC) ? DML_PASS_FCCC : DML_PASS_EMPTY, ALL_SEEN);
                    f->a++;
                    continue;
                }
                f->b = (int8_t)q;
                sel_clear(s);
                f->step = 3;
                ask(s, q, DML_D_OFFER);
                return;
            }
            f->step = 4;
            break;
        case 3: /* PD4 */
            if (ans >= DML_A_CARD && ans < DML_A_CARD + DML_NCARDS) {
                add_sel(s, ans - DML_A_CARD, 0);
                ask(s, f->b, DML_D_OFFER);
                return;
            }
            if (ans == DML_A_UNDO) {
                sel_undo(s);
                ask(s, f->b, DML_D_OFFER);
                return;
            }
            for (int i = 0; i < s->sel_n; i++) /* face-down: only the placer sees them */
                move(c, s->sel[i], DML_Z_OFFER + f->b, SEEN(f->b));
            s->offer_count[f->b] = s->sel_n;
            emit(c, DML_E_OFFER, f->b, -1, -1, -1, -1, s->sel_n, 0, ALL_SEEN);
            sel_clear(s);
            f->a++;
            f->step = 2;
            break;
        case 4: { /* reveal and award the Seize (7.2.2-7.2.6, R16, R63) */
            int prim = dml_prim_of(s, s->buy_suit), best = 0, winner = -1, placed = 0;
            uint64_t win_cards = 0;
            for (int i = 1; i < s->n; i++) {
                int q = (p + i) % s->n;
                uint64_t off = s->zone[DML_Z_OFFER + q];
                placed += popc(off);
                for (uint64_t m = off; m; m &= m - 1) {
                    if (s->knowledge) know_reveal(s, lowest(m));
                    emit(c, DML_E_REVEAL, q, -1, lowest(m), DML_Z_OFFER + q, DML_Z_OFFER + q, 0, 0,
                         ALL_SEEN);
                }
                uint64_t counting = off & commit_filter(s, prim);
                int total = sum_values(counting);
                if (total > best) {
                    best = total;
                    winner = q;
                    win_cards = counting;
                }
            }
            for (uint64_t m = win_cards; m; m &= m - 1) move(c, lowest(m), DML_Z_COMMIT, ALL_SEEN);
            for (int i = 1; i < s->n; i++) {
                int q = (p + i) % s->n;
                for (uint64_t m = s->zone[DML_Z_OFFER + q]; m; m &= m - 1)
                    move(c, lowest(m), DML_Z_HAND + q, ALL_SEEN);
                s->offer_count[q] = 0;
            }
            if (s->over) return;
            s->seizer = (int8_t)winner;
            s->P = (int16_t)best;
            /* b: the suit that counts (Primary), other: cards placed in all,
             * so the log can say why nobody seized */
            emit(c, DML_E_SEIZE, winner, placed, -1, -1, -1, best, prim, ALL_SEEN);
            s->xchg_turn = 0;
            sel_clear(s);
            if (winner < 0) {
                f->step = 7;
                break;
            }
            f->step = 5;
            ask(s, p, DML_D_COMMIT_ACT);
            return;
        }
        case 5: /* PD5 / PD6: the Resolution exchange (7.3, R17, R18) */
        {
            int who = s->xchg_turn ? s->seizer : p;
            int kind = s->xchg_turn ? DML_D_COMMIT_PAS : DML_D_COMMIT_ACT;
            if (ans >= DML_A_CARD && ans < DML_A_CARD + DML_NCARDS) {
                add_sel(s, ans - DML_A_CARD, 0);
                ask(s, who, kind);
                return;
            }
            if (ans == DML_A_UNDO) {
                sel_undo(s);
                ask(s, who, kind);
                return;
            }
            if (!s->sel_n) { /* a pass ends the exchange */
                if (c->ev) { /* forced when nothing could be committed (R78) */
                    int forced = !commit_set(s, who, dml_prim_of(s, s->buy_suit)) &&
                                 (s->xchg_turn || !commit_set(s, who, dml_sec(s->buy_suit)));
                    emit(c, DML_E_DECISION, who, -1, -1, -1, -1, DML_A_DONE,
                         DML_DONE_EXCHANGE | (forced ? DML_DONE_FORCED : 0), ALL_SEEN);
                }
                f->step = 7;
                break;
            }
            int prim = dml_prim_of(s, s->buy_suit), dp = 0, ds = 0;
            for (int i = 0; i < s->sel_n; i++) {
                int card = s->sel[i];
                if (dml_suit(card) == prim)
                    dp += dml_value(card);
                else
                    ds += dml_value(card);
            }
            uint64_t m = sel_mask(s, 0, s->sel_n);
            sel_clear(s);
            for (; m; m &= m - 1) move(c, lowest(m), DML_Z_COMMIT, ALL_SEEN);
            if (s->over) return;
            if (s->xchg_turn) {
                s->P = (int16_t)(s->P + dp);
            } else {
                s->D = (int16_t)(s->D - dp);
                s->P = (int16_t)(s->P - ds < 0 ? 0 : s->P - ds);
            }
            emit(c, DML_E_VALUE, who, s->xchg_turn, -1, dp, ds, s->D, s->P, ALL_SEEN);
            s->xchg_turn ^= 1;
            ask(s, s->xchg_turn ? s->seizer : p,
                s->xchg_turn ? DML_D_COMMIT_PAS : DML_D_COMMIT_ACT);
            return;
        }
        case 7: /* the Roll (7.4) */
            f->step = 8;
            push(s, DML_P_CHECK, p, 0, s->D + s->P);
            return;
        case 8: { /* the Outcome (7.6, R19, R61) */
            int dest = s->check_ok      ? DML_Z_HAND + p
                       : s->seizer >= 0 ? DML_Z_HAND + s->seizer
                                        : s->target_from;
            for (uint64_t m = s->zone[DML_Z_TARGET]; m; m &= m - 1) {
                int card = lowest(m);
                if (s->loc[card] == DML_Z_TARGET && dml_rank(card) == DML_T &&
                    s->target_from == DML_Z_EVENT && dest != DML_Z_EVENT) {
                    s->event_type = DML_EV_CARNIVAL; /* R53: the Round goes on as Carnival */
                    s->ev = 0;
                }
                /* Hostile takeover: another's Ten Emblem bought or seized */
                if (dml_rank(card) == DML_T && s->target_owner >= 0 && dest >= DML_Z_HAND &&
                    dest < DML_Z_HAND + 4 && dest - DML_Z_HAND != s->target_owner)
                    s->feat[dest - DML_Z_HAND] |= DML_FEAT_TEN_TAKEOVER;
                move(c, card, dest, ALL_SEEN);
            }
            for (uint64_t m = s->zone[DML_Z_COMMIT]; m; m &= m - 1) {
                if (bid_to_hoard(s, lowest(m)))
                    discard(c, lowest(m));
                else
                    move(c, lowest(m), DML_Z_STOCK, ALL_SEEN);
            }
            if (s->over) return;
            s->buy_suit = -1;
            s->seizer = -1;
            s->target_owner = -1;
            s->target_from = 0;
            s->D = s->P = 0;
            f->step = 9;
            push_followup(s, p);
            return;
        }
        default: pop(s); return;
        }
    }
}

/* The Emblem feats, when an Emblem has entered seat's Front (the only way
 * one gets there): Buying Bonus 4 in the Desired suit (its Q, J and T) and
 * 5 or more in all. */
static void emblem_feats(dml_state *s, int seat)
{
    uint64_t fr = front(s, seat), king = s->zone[DML_Z_KING + seat];
    int total = 0;
    for (uint64_t m = fr; m; m &= m - 1) total += dml_rank(lowest(m)) == DML_Q ? 2 : 1;
    if (total >= 5) s->feat[seat] |= DML_FEAT_FULL_HOUSE;
    if (king) {
        int d = dml_suit(lowest(king));
        uint64_t court =
            dml_bit(dml_card(d, DML_Q)) | dml_bit(dml_card(d, DML_J)) | dml_bit(dml_card(d, DML_T));
        if ((fr & court) == court) s->feat[seat] |= DML_FEAT_FULL_COURT;
    }
}

/* STACK episode (8.1, R29-R31, R71).  a: 1 for a Play Action (opened by the
 * Active Player, who must play), 0 for the Power Phase or a DML-2015
 * Character Power Phase (opened by the Dealer), 2 for a CPP of
 * turn-2015-06 (opened by the Active Player, V11); b: seat holding
 * priority; x: passes in a row | STK_PLAYED | STK_MUST. */
static void stack_next_holder(dml_state *s, dml_frame *f)
{
    f->b = (int8_t)dml_next_alive(s, f->b);
}

DML_NOINLINE static void p_stack(ctx *c, dml_frame *f, cr_action ans)
{
    dml_state *s = c->s;
    for (;;) {
        switch (f->step) {
        case 0:
            if (f->a == 1) {
                f->b = (int8_t)s->active;
                f->x = STK_MUST;
            } else { /* a Power Phase or a CPP; a = 2: turn-2015-06's, opened by the Active Player
                      */
                f->b = (int8_t)(f->a == 2 ? s->active : dml_anchor(s, s->dealer));
                f->x = 0;
                emit(c, DML_E_POWER_PHASE, f->b, -1, -1, -1, -1, 0, 0, ALL_SEEN);
            }
            f->step = 1;
            break;
        case 1: /* priority */
            if (!dml_is_alive(s, f->b)) {
                stack_next_holder(s, f);
                break;
            }
            if (!playable(s, f->b) && !(f->x & STK_MUST)) { /* forced pass (R71, R78) */
                ans = DML_A_DONE;
                sel_clear(s);
                f->step = 2;
                break;
            }
            sel_clear(s);
            f->step = 2;
            ask(s, f->b, DML_D_STACK);
            return;
        case 2:
            if (ans >= DML_A_POWER && ans < DML_A_EMBLEM + DML_NCARDS) {
                int emblem = ans >= DML_A_EMBLEM;
                add_sel(s, ans - (emblem ? DML_A_EMBLEM : DML_A_POWER), emblem ? DML_SF_EMBLEM : 0);
                ask(s, f->b, DML_D_STACK);
                return;
            }
            if (ans == DML_A_UNDO) {
                if (!s->sel_n) { /* the opener withdraws the Play Action: no cost (R65) */
                    pop(s);
                    return;
                }
                sel_undo(s);
                ask(s, f->b, DML_D_STACK);
                return;
            }
            if (s->sel_n) { /* a play, in the order listed (R71) */
                if (f->x & STK_MUST) {
                    s->actions--; /* the Play Action is paid when the opening play is made */
                    emit(c, DML_E_DECISION, f->b, -1, -1, -1, -1, DML_A_PLAY, 0, ALL_SEEN);
                }
                int n = s->sel_n;
                uint8_t cards[DML_NCARDS], flags[DML_NCARDS];
                memcpy(cards, s->sel, (size_t)n);
                for (int i = 0; i < n; i++) flags[i] = (uint8_t)dml_sel_flag(s, i);
                sel_clear(s);
                for (int i = 0; i < n; i++) {
                    int card = cards[i];
                    s->stack_card[s->stack_n] = (uint8_t)card;
                    s->stack_flag[s->stack_n] = (uint8_t)(flags[i] | f->b);
                    s->stack_n++;
                    emit(c, DML_E_DECISION, f->b, -1, card, -1, -1,
                         (flags[i] ? DML_A_EMBLEM : DML_A_POWER) + card, 0, ALL_SEEN);
                    move(c, card, DML_Z_STACK, ALL_SEEN);
                }
                f->x = STK_PLAYED;
            } else {
                if (c->ev)
                    emit(c, DML_E_DECISION, f->b, -1, -1, -1, -1, DML_A_DONE,
                         DML_DONE_STACK | (playable(s, f->b) ? 0 : DML_DONE_FORCED), ALL_SEEN);
                f->x = (int16_t)((f->x & ~STK_PASSES) | ((f->x & STK_PASSES) + 1));
                int passes = f->x & STK_PASSES;
                int need = (f->x & STK_PLAYED) ? n_alive(s) - 1 : n_alive(s);
                if (passes >= need) {
                    f->step = 3;
                    break;
                }
            }
            stack_next_holder(s, f);
            f->step = 1;
            break;
        case 3: { /* resolution, top down */
            if (!s->stack_n) {
                pop(s);
                return;
            }
            int i = s->stack_n - 1;
            int card = s->stack_card[i], flag = s->stack_flag[i], seat = flag & DML_SF_SEAT;
            s->stack_n--; /* off the Stack's order; the card stays in the zone while resolving */
            s->stack_card[i] = s->stack_flag[i] = 0;
            emit(c, DML_E_RESOLVE, seat, -1, card, -1, -1, (flag & DML_SF_EMBLEM) != 0, 0,
                 ALL_SEEN);
            if (flag & DML_SF_EMBLEM) {
                move(c, card, DML_Z_FRONT + seat, ALL_SEEN);
                if (s->over) return;
                emblem_feats(s, seat);
                break;
            }
            s->resolving = (int8_t)card;
            s->resolving_seat = (int8_t)seat;
            f->step = 4;
            push(s, DML_P_POWER, card, seat, 0);
            return;
        }
        case 4: { /* the resolved Character goes to Exile (the Thief moved itself) */
            int card = s->resolving;
            s->resolving = -1;
            s->resolving_seat = -1;
            if (card >= 0 && s->loc[card] == DML_Z_STACK) move(c, card, DML_Z_EXILE, ALL_SEEN);
            if (s->over) return;
            f->step = 3;
            break;
        }
        }
    }
}

/* SIEGE (9.2, 12.4, R42, R67, R68).  a: the seat that started it (the
 * Wyvern Eyes' roller, the Empress's player) until step 1, then the offset
 * of the next player from the Dealer; b: what started it (DML_SIEGE_*) until
 * step 1, then the seat losing cards; x: the seats that lose (computed at
 * the start from the revealed Hands and the Fronts). */
static void eliminate(ctx *c, int p)
{
    dml_state *s = c->s;
    for (uint64_t m = hand(s, p) & dml_rank_mask[DML_A]; m; m &= m - 1)
        move(c, lowest(m), DML_Z_NEST, ALL_SEEN);
    uint64_t king = s->zone[DML_Z_KING + p];
    if (king) move_hint(c, lowest(king), DML_Z_XKING, SEEN(p), dml_rank_mask[DML_K]);
    uint64_t rest = hand(s, p) | front(s, p);
    for (int i = 0; i < s->stack_n; i++)
        if ((s->stack_flag[i] & DML_SF_SEAT) == p) rest |= dml_bit(s->stack_card[i]);
    for (; rest; rest &= rest - 1) discard(c, lowest(rest));
    s->alive &= (uint8_t) ~(1u << p);
    emit(c, DML_E_ELIMINATED, p, -1, -1, -1, -1, 0, 0, ALL_SEEN);
}

DML_NOINLINE static void p_siege(ctx *c, dml_frame *f, cr_action ans)
{
    dml_state *s = c->s;
    for (;;) {
        switch (f->step) {
        case 0: {
            /* b: what started the Siege (DML_SIEGE_*), until step 1 reuses it */
            emit(c, DML_E_SIEGE, -1, -1, -1, -1, -1, f->b, is_fire(s), ALL_SEEN);
            int losers = 0, any_egg = 0;
            for (int p = 0; p < s->n; p++)
                if (dml_is_alive(s, p)) reveal_hand(c, p);
            /* then, every Hand shown, why the Siege takes what it takes:
             * eggs, Shields, and the other cards of the Hand (half of them
             * go, rounded up); a Siege that finds no egg says so */
            for (int p = 0; p < s->n; p++) {
                if (!dml_is_alive(s, p)) continue;
                int eggs = popc(hand(s, p) & dml_rank_mask[DML_A]);
                int shields = count_vantage(s, p, DML_SUIT_S);
                if (eggs > shields) losers |= 1 << p; /* R12 */
                any_egg |= eggs;
                if (eggs)
                    emit(c, DML_E_SIEGE_SEAT, p, s->zone_count[DML_Z_HAND + p] - eggs, -1, -1, -1,
                         eggs, shields | (is_fire(s) ? DML_SIEGE_FIRE : 0), ALL_SEEN);
            }
            if (!any_egg) emit(c, DML_E_SIEGE_SEAT, -1, 0, -1, -1, -1, 0, 0, ALL_SEEN);
            /* a: who started it (the Wyvern Eyes' roller or the Empress's
             * player).  Every loser's eggs will leave its Hand: nothing in a
             * Siege moves a card into a Hand, so no instant win stops it. */
            if (dml_is_alive(s, f->a) && (hand(s, f->a) & dml_rank_mask[DML_A]))
                s->feat[f->a] |= DML_FEAT_EGG_SIEGE;
            if (f->b == DML_SIEGE_EMPRESS && popc((uint64_t)(losers & ~(1 << f->a))) >= 2)
                s->feat[f->a] |= DML_FEAT_ASHES;
            /* x: losers (bits 0-3), the first seat of the order (bits 4-5,
             * fixed now: R67 removes losers one by one from the Dealer's
             * anchor, even when the Dealer is eliminated), cards to lose << 8 */
            f->x = (int16_t)(losers | dml_anchor(s, s->dealer) << 4);
            f->a = 0;
            f->step = 1;
            break;
        }
        case 1:
            while (f->a < s->n) {
                int p = (((f->x >> 4) & 3) + f->a) % s->n;
                f->a++;
                if (!((f->x >> p) & 1) || !dml_is_alive(s, p)) continue;
                if (is_fire(s)) {
                    eliminate(c, p);
                    if (s->over) return;
                    continue;
                }
                for (uint64_t m = hand(s, p) & dml_rank_mask[DML_A]; m; m &= m - 1)
                    move(c, lowest(m), DML_Z_NEST, ALL_SEEN);
                if (s->over) return;
                /* half the rest, rounded up, by random picks (R42, R73);
                 * the count rides in x's upper byte */
                int k = is_2015(s) ? 0 : (s->zone_count[DML_Z_HAND + p] + 1) / 2; /* V3 */
                f->b = (int8_t)p;
                f->x = (int16_t)((f->x & 0xff) | (k << 8));
                f->step = 2;
                ans = -1;
                goto losses; /* out of the while: on to this player's losses */
            }
            if (is_fire(s) && n_alive(s) <= 1) { /* last merchant standing (R50, R67) */
                end_game(c, DML_END_LAST, n_alive(s) == 1 ? lowest(s->alive) : -1);
                return;
            }
            pop(s);
            return;
        case 2:
        losses:
            if (ans >= 0) {
                discard(c, ans - DML_A_DRAW);
                if (s->over) return;
                ans = -1;
                f->x = (int16_t)(f->x - (1 << 8));
            }
            if ((f->x >> 8) > 0 && hand(s, f->b)) {
                ask_chance(s, DML_C_HAND, f->b);
                return;
            }
            f->x &= 0xff;
            f->step = 1;
            break;
        default: pop(s); return;
        }
    }
}

/* cards-2015-06's Troublesome Blabbermouth (V18): its player names a suit
 * (x); cards are drawn until a Resource of it appears, the others going to
 * the Hoard (a Joker to the Foreign Merchant at once); the old Event goes
 * to the Hoard and the stop card becomes the Event at once (an EVENT frame
 * entered at its step 6).  An empty Deck leaves the old Event in force. */
DML_NOINLINE static int blabbermouth(ctx *c, dml_frame *f, cr_action ans)
{
    dml_state *s = c->s;
    for (;;) {
        switch (f->step) {
        case 0:
            f->step = 1;
            ask(s, f->b, DML_D_NAME_SUIT);
            return 1;
        case 1:
            emit(c, DML_E_DECISION, f->b, -1, -1, -1, -1, ans, 0, ALL_SEEN);
            f->x = (int16_t)(ans - DML_A_SUIT);
            f->step = 2;
            break;
        case 2:
            if (!s->zone[DML_Z_DECK]) {
                pop(s);
                return 1;
            }
            f->step = 3;
            ask_chance(s, DML_C_DECK, 0);
            return 1;
        case 3: {
            int card = ans - DML_A_DRAW;
            if (dml_is_commodity(card) && dml_suit(card) == f->x) {
                if (s->zone[DML_Z_EVENT]) discard(c, lowest(s->zone[DML_Z_EVENT]));
                if (s->over) return 1;
                f->step = 4;
                push(s, DML_P_EVENT, 0, 0, card);
                top(s)->step = 6;
                return 1;
            }
            f->step = 2;
            if (dml_is_joker(card)) {
                push(s, DML_P_FM, card, 0, 0);
                return 1;
            }
            discard(c, card);
            if (s->over) return 1;
            break;
        }
        default: pop(s); return 1;
        }
    }
}

/* The Powers DML-2015 words differently (15.6, 15.9); 0 for a card whose
 * Power is the 2016 one (the Inquisitor, Confisfactor, Embezzeler, Empress,
 * Heiress, Archduchess and Thief). */
DML_NOINLINE static int power_2015(ctx *c, dml_frame *f, cr_action ans)
{
    dml_state *s = c->s;
    int card = f->a, p = f->b, rank = dml_rank(card), suit = dml_suit(card);
    int old = sw(s, DML_SW_CARDS_0615);
    if (rank == DML_J && suit == DML_SUIT_C && !old) { /* Rogue Jester: reverse the Stack */
        int n = s->stack_n;
        /* Joke's on you (A1): another's Harlot Queen, Grand Inquisitor or
         * Dragon Empress, played as Power, with a card below it */
        for (int i = 1; i < n; i++) {
            int k = s->stack_card[i], fl = s->stack_flag[i];
            if (!(fl & DML_SF_EMBLEM) && (fl & DML_SF_SEAT) != p &&
                (k == dml_card(DML_SUIT_C, DML_Q) || k == dml_card(DML_SUIT_S, DML_J) ||
                 k == dml_card(DML_SUIT_S, DML_Q)))
                s->feat[p] |= DML_FEAT_JOKES_ON_YOU;
        }
        for (int i = 0; i < n / 2; i++) {
            uint8_t tc = s->stack_card[i], tf = s->stack_flag[i];
            s->stack_card[i] = s->stack_card[n - 1 - i];
            s->stack_flag[i] = s->stack_flag[n - 1 - i];
            s->stack_card[n - 1 - i] = tc;
            s->stack_flag[n - 1 - i] = tf;
        }
        pop(s);
        return 1;
    }
    if (rank == DML_J && suit == DML_SUIT_C) { /* Greed Vizier: the Wheel reversed (15.9) */
        s->wheel_rev = 1;
        pop(s);
        return 1;
    }
    if (rank == DML_Q && suit == DML_SUIT_C) {
        /* the Harlot Queen nullifies what lies below her, which is all the
         * Stack still holds: Characters to Exile, Guild Houses to the Hoard
         * (15.6); in 2015-06 the Characters only (V17).  Triggered from the
         * Event zone (All Bets Are Off), she is on no Stack: nothing lies
         * below her (C17). */
        if (s->loc[card] != DML_Z_STACK) {
            pop(s);
            return 1;
        }
        uint64_t chars = 0, guilds = 0;
        int thieves = 0;
        for (int i = 0; i < s->stack_n; i++) {
            int k = s->stack_card[i], fl = s->stack_flag[i];
            if (dml_rank(k) == DML_T) {
                guilds |= dml_bit(k);
                continue;
            }
            chars |= dml_bit(k);
            thieves += dml_is_joker(k);
            if (k == dml_card(DML_SUIT_D, DML_Q) && !(fl & DML_SF_EMBLEM) &&
                (fl & DML_SF_SEAT) != p)
                s->feat[p] |= DML_FEAT_CHICKENS;
        }
        if (thieves >= 2) s->feat[p] |= DML_FEAT_END_THIEVING;
        for (uint64_t m = chars; m; m &= m - 1) move(c, lowest(m), DML_Z_EXILE, ALL_SEEN);
        if (!old)
            for (uint64_t m = guilds; m; m &= m - 1) discard(c, lowest(m));
        pop(s);
        return 1;
    }
    if (rank == DML_J && suit == DML_SUIT_H && old) return blabbermouth(c, f, ans);
    return 0;
}

/* POWER (8.2, R32-R39, R74): a = card, b = its player; x: chosen things */
DML_NOINLINE static void p_power(ctx *c, dml_frame *f, cr_action ans)
{
    dml_state *s = c->s;
    int card = f->a, p = f->b;
    int rank = dml_rank(card), suit = dml_suit(card);
    if (dml_is_joker(card)) { /* the Thief */
        switch (f->step) {
        case 0:
            f->step = 1;
            ask(s, p, DML_D_THIEF_MODE);
            return;
        case 1:
            /* "give" asks the other player first and the card last, so the
             * private choice is applied the moment it is made and never
             * waits in the state (docs/rulings.md C5) */
            emit(c, DML_E_DECISION, p, -1, -1, -1, -1, ans, 0, ALL_SEEN);
            f->step = ans == DML_A_GIVE ? 2 : 4;
            ask(s, p, DML_D_THIEF_PLAYER);
            return;
        case 2: {
            int q = ans - DML_A_PLAYER;
            emit(c, DML_E_DECISION, p, q, -1, -1, -1, ans, DML_A_GIVE, ALL_SEEN);
            f->x = (int16_t)q;
            f->step = 3;
            ask(s, p, DML_D_THIEF_CARD);
            return;
        }
        case 3:
            move(c, ans - DML_A_CARD, DML_Z_HAND + f->x, SEEN(p) | SEEN(f->x));
            if (s->over) return;
            f->step = 6;
            break;
        case 4: {
            int q = ans - DML_A_PLAYER;
            emit(c, DML_E_DECISION, p, q, -1, -1, -1, ans, DML_A_TAKE, ALL_SEEN);
            if (!hand(s, q)) {
                f->step = 6;
                break;
            }
            f->x = (int16_t)q;
            f->step = 5;
            ask_chance(s, DML_C_HAND, q);
            return;
        }
        case 5:
            if (dml_is_joker(ans - DML_A_DRAW)) s->feat[p] |= DML_FEAT_JOKER_THIEF;
            move(c, ans - DML_A_DRAW, DML_Z_HAND + p, SEEN(p) | SEEN(f->x));
            if (s->over) return;
            f->step = 6;
            break;
        case 7:
            /* 8.3: success shuffles the Joker into the Deck, failure exiles it */
            move(c, card, s->check_ok ? DML_Z_DECK : DML_Z_EXILE, ALL_SEEN);
            if (s->over) return;
            f->step = 8;
            push_followup(s, p);
            return;
        default: pop(s); return;
        }
        /* step 6: the check vs 7 (R74: even when nothing moved); the
         * cards-2015-06 Thief goes back to the Deck with no roll (15.9) */
        if (sw(s, DML_SW_CARDS_0615)) {
            move(c, card, DML_Z_DECK, ALL_SEEN);
            f->step = 8;
            return;
        }
        f->step = 7;
        push(s, DML_P_CHECK, p, 0, 7);
        return;
    }
    if (rank == DML_J && suit == DML_SUIT_S) { /* Grand Inquisitor (R34) */
        if (f->step == 0) {
            uint64_t all = s->zone[DML_Z_STOCK];
            for (uint64_t m = s->bm_live; m; m &= m - 1) all |= s->zone[DML_Z_BM + lowest(m)];
            for (; all; all &= all - 1) discard(c, lowest(all));
            if (s->over) return;
            f->step = 1;
            push(s, DML_P_RESTOCK, 0, 0, 0);
            return;
        }
        pop(s);
        return;
    }
    if (is_2015(s) && power_2015(c, f, ans)) return;
    if (rank == DML_J && suit == DML_SUIT_C) { /* Vice Minister */
        if (f->step == 0) {
            uint64_t m = 0;
            for (int q = 0; q < s->n; q++)
                if (dml_is_alive(s, q)) m |= front(s, q);
            if (!m) {
                pop(s);
                return;
            }
            f->step = 1;
            ask(s, p, DML_D_VICE);
            return;
        }
        int e = ans - DML_A_CARD;
        emit(c, DML_E_DECISION, p, -1, e, -1, -1, ans, 0, ALL_SEEN);
        move(c, e, DML_Z_HAND + (s->loc[e] - DML_Z_FRONT), ALL_SEEN);
        pop(s);
        return;
    }
    /* the Prime Counsellor (R35), DML-2015's Supreme Confisfactor and the
     * 2015-06 Goods Swindler (a Jack of Spice) search alike */
    if ((rank == DML_J && suit == DML_SUIT_H) ||
        (rank == DML_J && suit == DML_SUIT_D && sw(s, DML_SW_CARDS_0615))) {
        switch (f->step) {
        case 0: {
            if (!s->bm_live) {
                pop(s);
                return;
            }
            f->step = 1;
            ask(s, p, DML_D_COUNSEL_BM);
            return;
        }
        case 1: {
            int k = ans - DML_A_BMPICK;
            emit(c, DML_E_DECISION, p, -1, -1, -1, -1, ans, s->bm_label[k], ALL_SEEN);
            for (uint64_t m = s->zone[DML_Z_BM + k]; m; m &= m - 1) { /* a private look */
                int x = lowest(m);
                if (s->knowledge && !(s->know_off >> p & 1)) know_pin(s, p, x, DML_Z_BM + k);
                emit(c, DML_E_REVEAL, p, -1, x, DML_Z_BM + k, DML_Z_BM + k, s->bm_label[k], 0,
                     SEEN(p));
            }
            f->x = (int16_t)k;
            s->karg = (int8_t)k;
            f->step = 2;
            ask(s, p, DML_D_COUNSEL_CARD);
            return;
        }
        default:
            move(c, ans - DML_A_CARD, DML_Z_HAND + p, SEEN(p));
            pop(s);
            return;
        }
    }
    if (rank == DML_J && suit == DML_SUIT_D) { /* Supreme Secretary of Tithes (R36) */
        /* x: offset of the giver from p; givers act ccw after p (R69) */
        if (f->step == 1) {
            int giver = (p + f->x) % s->n;
            move(c, ans - DML_A_CARD, DML_Z_HAND + p, SEEN(p) | SEEN(giver));
            if (s->over) return;
            f->x++;
        } else {
            s->feat[p] |= DML_FEAT_TITHES;
            f->x = 1;
            f->step = 1;
        }
        for (; f->x < s->n; f->x++) {
            int q = (p + f->x) % s->n;
            if (dml_is_alive(s, q) && hand(s, q)) {
                ask(s, q, DML_D_TITHE);
                return;
            }
        }
        pop(s);
        return;
    }
    if (rank == DML_Q && suit == DML_SUIT_S) { /* Dragon Empress */
        if (f->step == 0) {
            f->step = 1;
            push(s, DML_P_SIEGE, p, DML_SIEGE_EMPRESS, 0);
            return;
        }
        pop(s);
        return;
    }
    if (rank == DML_Q && suit == DML_SUIT_C) { /* Harlot Queen (R33) */
        if (f->step == 0) {
            if (!s->stack_n) {
                pop(s);
                return;
            }
            f->step = 1;
            ask(s, p, DML_D_HARLOT);
            return;
        }
        int t = ans - DML_A_CARD;
        emit(c, DML_E_DECISION, p, -1, t, -1, -1, ans, 0, ALL_SEEN);
        /* Don't count your chickens: another's Archduchess, played as Power */
        for (int i = 0; i < s->stack_n; i++)
            if (s->stack_card[i] == t && t == dml_card(DML_SUIT_D, DML_Q) &&
                !(s->stack_flag[i] & DML_SF_EMBLEM) && (s->stack_flag[i] & DML_SF_SEAT) != p)
                s->feat[p] |= DML_FEAT_CHICKENS;
        if (dml_rank(t) == DML_T)
            discard(c, t);
        else
            move(c, t, DML_Z_EXILE, ALL_SEEN);
        pop(s);
        return;
    }
    if (rank == DML_Q && suit == DML_SUIT_H) { /* Pampered Heiress (R38) */
        if (f->step == 0) {
            if (!s->zone[DML_Z_NEST]) {
                pop(s);
                return;
            }
            if (s->nest_top_n) {
                move_hint(c, s->nest_top[s->nest_top_n - 1], DML_Z_HAND + p, SEEN(p),
                          dml_rank_mask[DML_A]);
                pop(s);
                return;
            }
            f->step = 1;
            ask_chance(s, DML_C_NEST, 0);
            return;
        }
        move_hint(c, ans - DML_A_DRAW, DML_Z_HAND + p, SEEN(p), dml_rank_mask[DML_A]);
        pop(s);
        return;
    }
    if (rank == DML_Q && suit == DML_SUIT_D) { /* Archduchess (R37) */
        if (f->step == 0) {
            if (!s->zone[DML_Z_STOCK]) {
                pop(s);
                return;
            }
            f->step = 1;
            ask(s, p, DML_D_ARCHDUCHESS);
            return;
        }
        emit(c, DML_E_DECISION, p, -1, -1, -1, -1, ans, 0, ALL_SEEN);
        int su = ans - DML_A_STOCK;
        for (uint64_t m = s->zone[DML_Z_STOCK] & DML_SUIT_MASK(su); m; m &= m - 1)
            move(c, lowest(m), DML_Z_HAND + p, ALL_SEEN);
        pop(s);
        return;
    }
    pop(s); /* Tens are never Powers (R31); unreachable */
}

/* VISIT a Black Market (6, R41, R64, R75; DML-2015 15.5.5): a = slot;
 * b = bm-wager's wager M (V-PD6, V14; 0 without it); x = the market's label
 * until the check, then the cards still to take, or to lose.  Steps 10-13
 * are bm-wager's. */
DML_NOINLINE static void p_visit(ctx *c, dml_frame *f, cr_action ans)
{
    dml_state *s = c->s;
    int p = s->active, k = f->a;
    for (;;) {
        switch (f->step) {
        case 0:
            if (sw(s, DML_SW_BM_WAGER)) {
                f->step = 10;
                ask(s, p, DML_D_WAGER);
                return;
            }
            f->step = 1;
            f->x = (int16_t)s->bm_label[k];
            push(s, DML_P_CHECK, p, 0, 7);
            return;
        case 10: /* the wager: the target is 7 - M (15.9) */
            f->b = (int8_t)(ans - DML_A_WAGER);
            emit(c, DML_E_DECISION, p, -1, -1, -1, -1, ans, s->bm_label[k], ALL_SEEN);
            f->step = 1;
            f->x = (int16_t)s->bm_label[k];
            push(s, DML_P_CHECK, p, 0, 7 - f->b);
            return;
        case 1:
            /* a Power triggered on a Dabo! of this roll (events-2015-06's All
             * Bets Are Off) may have swept this Black Market away, and a new
             * one may sit in its slot: the attempt then takes, leaves and
             * loses nothing (docs/rulings.md C17) */
            if (!live_bm(s, k) || s->bm_label[k] != (uint16_t)f->x) {
                f->b = 0;
                if (s->check_ok) {
                    f->step = 5;
                    break;
                }
            }
            if (s->check_ok) {
                f->x = (int16_t)(1 + count_vantage(s, p, DML_SUIT_H));
                f->step = 2;
                break;
            }
            if (is_fire(s) && hand(s, p)) { /* Hustled! */
                f->step = 4;
                ask_chance(s, DML_C_HAND, p);
                return;
            }
            f->x = f->b; /* bm-wager: M random Treasury cards go into it */
            f->step = 11;
            break;
        case 2:
            if (f->x > 0 && live_bm(s, k)) {
                f->step = 3;
                ask_chance(s, DML_C_BM, k);
                return;
            }
            f->step = f->b > 0 ? 12 : 5;
            break;
        case 3:
            if (f->b > 0) s->bm_taken |= dml_bit(ans - DML_A_DRAW);
            move(c, ans - DML_A_DRAW, DML_Z_HAND + p, SEEN(p));
            if (s->over) return;
            f->x--;
            ans = -1;
            f->step = 2;
            break;
        case 4: {
            int card = ans - DML_A_DRAW;
            if (dml_is_egg(card))
                move_hint(c, card, DML_Z_NEST, SEEN(p), dml_rank_mask[DML_A]);
            else
                move_hint(c, card, DML_Z_BM + k, SEEN(p), DML_ALL_CARDS & ~dml_rank_mask[DML_A]);
            if (s->over) return;
            f->step = 5;
            break;
        }
        case 11: /* bm-wager's failure: x random cards of the Treasury into it */
        case 13:
            if (f->step == 13) {
                move_hint(c, ans - DML_A_DRAW, DML_Z_BM + k, SEEN(p),
                          DML_ALL_CARDS & ~dml_rank_mask[DML_K]);
                f->x--;
                ans = -1;
            }
            if (f->x > 0 && hand(s, p)) {
                f->step = 13;
                ask_chance(s, DML_C_HAND, p);
                return;
            }
            f->step = 5;
            break;
        case 12: /* bm-wager's success: the M cards left behind (V14) */
            if (ans < 0) {
                sel_clear(s);
                s->karg = f->b;
                ask(s, p, DML_D_LEAVE);
                return;
            }
            if (ans >= DML_A_CARD && ans < DML_A_CARD + DML_NCARDS) {
                add_sel(s, ans - DML_A_CARD, 0);
                ask(s, p, DML_D_LEAVE);
                return;
            }
            if (ans == DML_A_UNDO) {
                sel_undo(s);
                ask(s, p, DML_D_LEAVE);
                return;
            }
            {
                uint64_t m = sel_mask(s, 0, s->sel_n);
                sel_clear(s);
                s->bm_taken = 0;
                for (; m; m &= m - 1)
                    move_hint(c, lowest(m), DML_Z_BM + k, SEEN(p),
                              DML_ALL_CARDS & ~dml_rank_mask[DML_K]);
                if (s->over) return;
            }
            f->step = 5;
            break;
        case 5:
            f->step = 6;
            push_followup(s, p);
            return;
        default: pop(s); return;
        }
    }
}

/* CALLBACK (6, R40): a = the Emblem */
DML_NOINLINE static void p_callback(ctx *c, dml_frame *f)
{
    dml_state *s = c->s;
    switch (f->step) {
    case 0:
        f->step = 1;
        push(s, DML_P_CHECK, s->active, 0, 7);
        return;
    case 1:
        if (s->check_ok && s->loc[f->a] == DML_Z_FRONT + s->active)
            move(c, f->a, DML_Z_HAND + s->active, ALL_SEEN);
        if (s->over) return;
        f->step = 2;
        push_followup(s, s->active);
        return;
    default: pop(s); return;
    }
}

/* DML-2015's Turn (15.4): Supply, the Market Phase, Restock at the end;
 * turn-2015-06 opens and closes it with a CPP of its own (V11).  Steps
 * 10-14 (0 leads there). */
DML_NOINLINE static void turn_2015(ctx *c, dml_frame *f)
{
    dml_state *s = c->s;
    int cpp = sw(s, DML_SW_TURN_0615);
    switch (f->step) {
    case 10:
        f->step = 11;
        if (cpp) push(s, DML_P_STACK, 2, 0, 0);
        return;
    case 11:
        f->step = 12;
        push(s, DML_P_SUPPLY, 0, 0, 0);
        return;
    case 12:
        f->step = 13;
        if (dml_is_alive(s, f->a)) push(s, DML_P_MARKET, 0, 0, 0);
        return;
    case 13:
        f->step = 14;
        push(s, DML_P_RESTOCK, 0, 0, 0);
        return;
    case 14:
        f->step = 15;
        if (cpp) push(s, DML_P_STACK, 2, 0, 0);
        return;
    default: pop(s); return;
    }
}

/* TURN (5.2): a = the Active Player */
DML_NOINLINE static void p_turn(ctx *c, dml_frame *f)
{
    dml_state *s = c->s;
    if (f->step >= 10) {
        turn_2015(c, f);
        return;
    }
    switch (f->step) {
    case 0:
        s->active = (uint8_t)f->a;
        emit(c, DML_E_TURN, f->a, -1, -1, -1, -1, 0, 0, ALL_SEEN);
        if (is_2015(s)) {
            f->step = 10;
            turn_2015(c, f);
            return;
        }
        f->step = 1;
        push(s, DML_P_RESTOCK, 0, 0, 0);
        return;
    case 1:
        f->step = 2;
        push(s, DML_P_SUPPLY, 0, 0, 0);
        return;
    case 2:
        f->step = 3;
        if (dml_is_alive(s, f->a)) push(s, DML_P_MARKET, 0, 0, 0);
        return;
    default: pop(s); return;
    }
}

/* ROUND (5): a = offset of the next Turn from the Dealer.  DML-2015
 * (15.3): a Character Power Phase before the first Turn and after every
 * Turn (b = 1 once the CPP before the next Turn has been held), none of its
 * own with turn-2015-06 (V11); the End Phase puts the Event card in the
 * Hoard and ends the Greed Vizier's reversal. */
DML_NOINLINE static void p_round(ctx *c, dml_frame *f)
{
    dml_state *s = c->s;
    switch (f->step) {
    case 0:
        emit(c, DML_E_ROUND, s->dealer, -1, -1, -1, -1, s->round, 0, ALL_SEEN);
        f->a = 0;
        f->step = 1;
        push(s, DML_P_EVENT, 0, 0, 0);
        return;
    case 1:
        if (is_2015(s) && !f->b && !sw(s, DML_SW_TURN_0615)) {
            f->b = 1;
            push(s, DML_P_STACK, 0, 0, 0); /* a CPP (15.3.2) */
            return;
        }
        while (f->a < s->n) { /* R69: the seats once each, ccw from the Dealer's seat */
            int p = (s->dealer + f->a) % s->n;
            f->a++;
            if (dml_is_alive(s, p)) {
                f->b = 0;
                push(s, DML_P_TURN, p, 0, 0);
                return;
            }
        }
        f->step = 2;
        return;
    case 2:
        f->step = 3;
        if (!is_mayhem(s) && !is_2015(s)) push(s, DML_P_STACK, 0, 0, 0); /* the Power Phase (5.5) */
        return;
    default:
        if (is_2015(s)) { /* the End Phase (15.3.3) */
            if (s->zone[DML_Z_EVENT]) discard(c, lowest(s->zone[DML_Z_EVENT]));
            if (s->over) return;
            s->wheel_rev = 0;
        }
        s->dealer = (uint8_t)dml_next_alive(s, s->dealer); /* Cleanup */
        pop(s);
        return;
    }
}

/* GAME: setup (4), then Rounds until the end.  a: seat offset while dealing,
 * b: 0 dealing a 2, 1 dealing a 3.  DML-2015 (15.2) goes 0, 1, 7 (the piles:
 * a = pile, b = 0 for the 2s, 1 for the 3s), 2 (Kings), 8 (the choices:
 * a = seat offset), then 4 on. */
static void deal_to(ctx *c, int card, int seat, int zone)
{
    move_hint(c, card, zone + seat, SEEN(seat), dml_rank_mask[dml_rank(card)]);
}

DML_NOINLINE static void p_game(ctx *c, dml_frame *f, cr_action ans)
{
    dml_state *s = c->s;
    for (;;) {
        switch (f->step) {
        case 0:
            s->rolloff_mask = s->alive;
            f->step = 1;
            push(s, DML_P_ROLLOFF, 0, 0, 0);
            return;
        case 1:
            /* a: the Dealer's winning total; b: 1 when a Woot! won at once */
            emit(c, DML_E_SETUP, s->dealer, -1, -1, -1, -1,
                 s->die[0] == 6 && s->die[1] == 6 ? 12 : s->rolloff_total[s->dealer],
                 s->die[0] == 6 && s->die[1] == 6, ALL_SEEN);
            f->a = 0;
            f->b = 0;
            f->step = is_2015(s) ? 7 : 2;
            ans = -1;
            break;
        case 7: /* DML-2015: the piles, a 2 then a 3 into each (15.2, V8) */
            if (ans >= 0) {
                s->pile[f->a][f->b] = (uint8_t)(ans - DML_A_DRAW + 1);
                move_hint(c, ans - DML_A_DRAW, DML_Z_PILES, 0,
                          dml_rank_mask[dml_rank(ans - DML_A_DRAW)]);
                if (++f->a == 4) f->a = 0, f->b++;
                ans = -1;
            }
            if (f->b < 2) {
                ask_chance(s, DML_C_PILE, f->a | f->b << 2);
                return;
            }
            f->a = 0;
            f->b = 0;
            f->step = 2;
            break;
        case 8: /* DML-2015: each chooses a pile, from the Dealer, ccw (V-PD1) */
            if (ans >= 0) {
                int seat = (s->dealer + f->a) % s->n, k = ans - DML_A_PILE;
                emit(c, DML_E_DECISION, seat, -1, -1, -1, -1, ans, 0, ALL_SEEN);
                for (int i = 0; i < 2; i++) { /* its 2, then its 3 */
                    int card = s->pile[k][i] - 1;
                    s->pile[k][i] = 0;
                    move_hint(c, card, DML_Z_HAND + seat, SEEN(seat),
                              dml_rank_mask[dml_rank(card)]);
                }
                f->a++;
                ans = -1;
            }
            if (f->a < s->n) {
                ask(s, (s->dealer + f->a) % s->n, DML_D_PILE);
                return;
            }
            f->step = 4;
            break;
        case 2: /* Kings, one each from the Dealer, ccw */
            if (ans >= 0) {
                deal_to(c, ans - DML_A_DRAW, (s->dealer + f->a) % s->n, DML_Z_KING);
                f->a++;
                ans = -1;
            }
            if (f->a < s->n) {
                ask_chance(s, DML_C_POOL, DML_K);
                return;
            }
            f->a = 0;
            f->b = 0;
            f->step = is_2015(s) ? 8 : 3;
            break;
        case 3: /* a 2 and a 3 each, from the Dealer, ccw (R45) */
            if (ans >= 0) {
                deal_to(c, ans - DML_A_DRAW, (s->dealer + f->a) % s->n, DML_Z_HAND);
                if (f->b) f->a++;
                f->b ^= 1;
                ans = -1;
            }
            if (f->a < s->n) {
                ask_chance(s, DML_C_POOL, 2 + f->b);
                return;
            }
            f->step = 4;
            break;
        case 4: { /* 3 players: the leftovers (12.2, R52; Mayhem R51) */
            uint64_t kings = s->zone[DML_Z_POOL] & dml_rank_mask[DML_K];
            for (; kings; kings &= kings - 1)
                move_hint(c, lowest(kings), DML_Z_XKING, 0, dml_rank_mask[DML_K]);
            for (uint64_t m = s->zone[DML_Z_POOL]; m; m &= m - 1) discard(c, lowest(m));
            /* DML-2015 with 3 players: the pile nobody chose, face up (V19) */
            memset(s->pile, 0, sizeof s->pile);
            for (uint64_t m = s->zone[DML_Z_PILES]; m; m &= m - 1) discard(c, lowest(m));
            f->step = 5;
            push(s, DML_P_RESTOCK, 0, 0, 0);
            return;
        }
        case 5: f->step = 6; break;
        case 6:
        default: /* 6: the Rounds */
            s->round++;
            push(s, DML_P_ROUND, 0, 0, 0);
            return;
        }
    }
}

/* ------------------------------------------------------------------ run */

DML_ALWAYS_INLINE void step(ctx *c, cr_action ans)
{
    dml_state *s = c->s;
    dml_frame *f = top(s);
    switch (f->proc) {
    case DML_P_GAME: p_game(c, f, ans); break;
    case DML_P_ROLLOFF: p_rolloff(c, f); break;
    case DML_P_DICE: p_dice(c, f, ans); break;
    case DML_P_CHECK: p_check(c, f); break;
    case DML_P_ROUND: p_round(c, f); break;
    case DML_P_EVENT: p_event(c, f, ans); break;
    case DML_P_TURN: p_turn(c, f); break;
    case DML_P_RESTOCK: p_restock(c, f, ans); break;
    case DML_P_SUPPLY: p_supply(c, f, ans); break;
    case DML_P_MARKET: p_market(c, f, ans); break;
    case DML_P_BUY: p_buy(c, f, ans); break;
    case DML_P_STACK: p_stack(c, f, ans); break;
    case DML_P_POWER: p_power(c, f, ans); break;
    case DML_P_FM: p_fm(c, f, ans); break;
    case DML_P_SIEGE: p_siege(c, f, ans); break;
    case DML_P_VISIT: p_visit(c, f, ans); break;
    case DML_P_CALLBACK: p_callback(c, f); break;
    default: pop(s); break; /* unknown frame: dropped (validated at load) */
    }
}

/* Decisions known to have two or more options need no legal list to know
 * they are not forced: Dabo! (re-roll/keep), the Market (End plus Nothing or
 * Substitute), a composition with a card chosen (Undo plus Done or a card:
 * only completable choices are offered), and a composition not yet begun
 * with a card to offer (the card plus Done or Undo; see the dml_legal
 * cases).  Anything else asks dml_legal. */
static int surely_open(const dml_state *s)
{
    int p = s->actor;
    switch (s->kind) {
    case DML_D_DABO:
    case DML_D_MARKET: return 1;
    case DML_D_DECLARE: return s->sel_n > 0 || can_buy(s); /* a target and Undo */
    case DML_D_OFFER: return s->sel_n > 0 || hand(s, p);   /* a card and Done */
    case DML_D_COMMIT_ACT:
        return s->sel_n > 0 || commit_set(s, p, dml_prim_of(s, s->buy_suit)) ||
               commit_set(s, p, dml_sec(s->buy_suit));
    case DML_D_COMMIT_PAS: return s->sel_n > 0 || commit_set(s, p, dml_prim_of(s, s->buy_suit));
    case DML_D_STACK: return s->sel_n > 0 || playable(s, p); /* a card and Done or Undo */
    default: return 0;
    }
}

/* Runs frames until a decision with two or more options, a chance event
 * with two or more outcomes, or the end.  Forced ones are taken here. */
static void run(ctx *c)
{
    dml_state *s = c->s;
    cr_action buf[DML_MAX_LEGAL];
    while (!s->over && s->nfr) {
        cr_action ans = -1;
        if (s->need == DML_NEED_DECISION) {
            if (surely_open(s) || dml_legal(c->g, s, buf, NULL) != 1) return;
            ans = buf[0];
        } else if (s->need == DML_NEED_CHANCE) {
            uint64_t pool = s->kind == DML_C_ROLL ? 0 : chance_pool(s);
            if (popc(pool) != 1) return; /* dice, or a pick among two or more */
            ans = DML_A_DRAW + lowest(pool);
        }
        s->need = DML_NEED_RUN;
        step(c, ans);
    }
    if (s->over) s->need = DML_NEED_OVER;
}

void dml_run(const cr_game *g, dml_state *s, cr_events *ev)
{
    ctx c = {g, s, ev};
    run(&c);
}

void dml_apply(const cr_game *g, void *st, cr_action a, cr_ctx *cx)
{
    dml_state *s = st;
    ctx c = {g, s, cx ? cx->ev : NULL};
    assert(s->need == DML_NEED_DECISION || s->need == DML_NEED_CHANCE);
    s->need = DML_NEED_RUN;
    s->n_applied++;
    step(&c, a);
    run(&c);
}

/* ------------------------------------------------------------ lifecycle */

static void place(dml_state *s, int card, int zone)
{
    s->zone[zone] |= dml_bit(card);
    s->zone_count[zone]++;
    s->loc[card] = (uint8_t)zone;
}

void dml_init(const cr_game *g, void *st)
{
    dml_state *s = st;
    memset(s, 0, sizeof *s);
    memset(s->loc, 0xff, sizeof s->loc);
    s->n = (uint8_t)g->num_players;
    s->variant = (uint8_t)g->variant_index;
    s->first_roller = (uint8_t)(g->opt[DML_OPT_FIRST_ROLLER] % g->num_players);
    for (int i = 0; i < 5; i++)
        if (g->opt[DML_OPT_BM_WAGER + i]) s->sw |= (uint8_t)(1u << i);
    s->alive = (uint8_t)((1u << s->n) - 1);
    s->knowledge = 1;
    s->discard_top = -1;
    s->resolving = -1;
    s->resolving_seat = -1;
    s->buy_suit = -1;
    s->seizer = -1;
    s->target_owner = -1;
    s->winner = -1;
    s->obs_seat = 0xff;
    for (int card = 0; card < DML_NCARDS; card++) {
        int r = dml_rank(card);
        if (r == DML_K || r == 2 || r == 3)
            place(s, card, DML_Z_POOL);
        else if (is_mayhem(s) && (r == 0 || r == DML_J || r == DML_Q || r == DML_A))
            continue; /* Market Mayhem plays without them (R51) */
        else if (r == DML_A)
            place(s, card, DML_Z_NEST);
        else
            place(s, card, DML_Z_DECK);
    }
    /* Setup is public: everyone knows the Deck's cards (as a set), that the
     * Nest holds the four eggs and what waits in the pool to be dealt. */
    for (int q = 0; q < s->n; q++) {
        s->pin[q][DML_Z_DECK] = s->zone[DML_Z_DECK];
        s->pin[q][DML_Z_NEST] = s->zone[DML_Z_NEST];
        s->pin[q][DML_Z_POOL] = s->zone[DML_Z_POOL];
    }
    push(s, DML_P_GAME, 0, 0, 0);
    ctx c = {g, s, NULL};
    run(&c);
}

void dml_returns(const cr_game *g, const void *st, double *out)
{
    const dml_state *s = st;
    for (int p = 0; p < g->num_players; p++) out[p] = (s->over && s->winner == p) ? 1.0 : 0.0;
}

/* Scores are Victory Points.  Ranks: the winner first; after a VP ending
 * (every Hand revealed) the others by their VP, equal VP sharing a place;
 * after an instant win the others share second place, since their VP were
 * never revealed; with no winner every seat shares first place. */
void dml_result(const cr_game *g, const void *st, cr_result *out)
{
    const dml_state *s = st;
    memset(out, 0, sizeof *out);
    for (int p = 0; p < g->num_players; p++) {
        out->score[p] = s->over ? s->vp[p] : (dml_is_alive(s, p) ? dml_vp(s, p) : 0);
        out->rank[p] = 1;
    }
    if (!s->over || s->winner < 0) return;
    out->winners = 1u << s->winner;
    for (int p = 0; p < g->num_players; p++) {
        if (p == s->winner) continue;
        int above = 1; /* the winner */
        if (s->end_reason == DML_END_VP)
            for (int q = 0; q < g->num_players; q++)
                if (q != p && q != s->winner && out->score[q] > out->score[p]) above++;
        out->rank[p] = (int8_t)(above + 1);
    }
}

/* ------------------------------------------------------ positions' frames */

int dml_setup_dealt(const dml_state *s, int seat, int rank)
{
    const dml_frame *f = &s->fr[0];
    if (!s->nfr || f->proc != DML_P_GAME || f->step > 3) return 1; /* the deal is over */
    int off = (seat - s->dealer + s->n) % s->n; /* the deal goes from the Dealer, ccw */
    if (rank == DML_K) return f->step == 3 || (f->step == 2 && off < f->a);
    return f->step == 3 && (off < f->a || (rank == 2 && off == f->a && f->b == 1));
}

/* DML-2015's Setup (steps 0, 1, 7, 2, 8 of the game frame): the pool
 * holds a King for every seat still without one, each pile holds its 2 and
 * then its 3 (its public count says which), and each seat that chose holds
 * one of each. */
static int setup_ok_2015(const dml_state *s)
{
    const dml_frame *f = &s->fr[0];
    if (!s->nfr || f->proc != DML_P_GAME || (f->step > 2 && f->step < 7)) return 1;
    int kings = 0;
    for (int p = 0; p < s->n; p++) {
        kings += !s->zone[DML_Z_KING + p];
        uint64_t h = hand(s, p);
        if (popc(h & dml_rank_mask[2]) != popc(h & dml_rank_mask[3])) return 0;
    }
    if (popc(s->zone[DML_Z_POOL] & dml_rank_mask[DML_K]) < kings) return 0;
    uint64_t in_piles = 0;
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 2; i++) {
            int v = s->pile[k][i];
            if (!v) continue;
            if (v > DML_NCARDS || dml_rank(v - 1) != 2 + i || (in_piles & dml_bit(v - 1))) return 0;
            in_piles |= dml_bit(v - 1);
        }
    return in_piles == s->zone[DML_Z_PILES];
}

int dml_setup_pool_ok(const dml_state *s)
{
    static const int ranks[3] = {DML_K, 2, 3};
    if (is_2015(s)) return setup_ok_2015(s);
    for (int i = 0; i < 3; i++) {
        int need = 0;
        for (int p = 0; p < s->n; p++) need += 1 - dml_setup_dealt(s, p, ranks[i]);
        if (popc(s->zone[DML_Z_POOL] & dml_rank_mask[ranks[i]]) < need) return 0;
    }
    return 1;
}

cr_status dml_validate_procedure(const dml_state *s, char *err, size_t errcap)
{
#define FAIL(...)                                                                                  \
    do {                                                                                           \
        snprintf(err, errcap, __VA_ARGS__);                                                        \
        return CR_ERR_INVALID;                                                                     \
    } while (0)
    /* the frames' structure (steps, nesting, arguments, the top frame
     * waiting for need/kind) is dml_check_invariants' (invariants.c), which
     * the loader runs first; here: what the rules need of the waiting state */
    if (s->over) return CR_OK;
    if (s->nfr < 1 || s->nfr > DML_MAX_FRAMES)
        FAIL("procedure: 1 to %d frames expected", DML_MAX_FRAMES);
    if (s->fr[0].proc == DML_P_GAME && (s->fr[0].step <= 3 || s->fr[0].step >= 7) &&
        !dml_setup_pool_ok(s))
        FAIL("procedure: frame 0: the pool lacks cards for the rest of the Setup deal");
    if (s->need != DML_NEED_DECISION && s->sel_n)
        FAIL("selection: cards chosen with no decision waiting");
    if (s->need == DML_NEED_DECISION) {
        if (s->actor < 0 || s->actor >= s->n || !dml_is_alive(s, s->actor))
            FAIL("need: the deciding seat %d is not in the game", s->actor);
        if (s->kind < DML_D_DABO || s->kind > DML_D_NAME_SUIT)
            FAIL("need: unknown decision %d", s->kind);
        if (s->sel_n > DML_NCARDS || s->sel_targets > s->sel_n) FAIL("selection: bad counts");
        for (int i = 0; i < s->sel_n; i++)
            if (s->sel[i] >= DML_NCARDS) FAIL("selection: bad card");
        if ((s->kind == DML_D_COMMIT_ACT || s->kind == DML_D_COMMIT_PAS) &&
            (s->buy_suit < 0 || s->buy_suit > 3 || s->seizer < 0 || s->seizer >= s->n))
            FAIL("buying: an exchange needs a declared suit and a seizer");
        if (s->kind == DML_D_COUNSEL_CARD &&
            (s->karg < 0 || s->karg >= DML_MAX_BM || !live_bm(s, s->karg)))
            FAIL("need: the searched Black Market does not exist");
        cr_action buf[DML_MAX_LEGAL];
        if (s->sel_n) { /* the composition must be one the decision builds, card by card (C3) */
            int k = s->kind;
            if (k != DML_D_DECLARE && k != DML_D_OFFER && k != DML_D_COMMIT_ACT &&
                k != DML_D_COMMIT_PAS && k != DML_D_STACK && k != DML_D_LEAVE)
                FAIL("selection: this decision chooses no cards");
            dml_state t = *s;
            sel_clear(&t);
            for (int i = 0; i < s->sel_n; i++) {
                int card = s->sel[i], flag = dml_sel_flag(s, i);
                if (flag && k != DML_D_STACK) FAIL("selection: bad sel_flag[%d]", i);
                cr_action want = k != DML_D_STACK         ? DML_A_CARD + card
                                 : (flag & DML_SF_EMBLEM) ? DML_A_EMBLEM + card
                                                          : DML_A_POWER + card;
                int n = dml_legal(NULL, &t, buf, NULL), ok = 0;
                for (int j = 0; j < n; j++) ok |= buf[j] == want;
                if (!ok)
                    FAIL("selection: sel[%d] (%s) cannot be chosen there", i, dml_card_code(card));
                if (k == DML_D_DECLARE)
                    declare_add(&t, card);
                else
                    add_sel(&t, card, flag);
            }
            if (t.sel_targets != s->sel_targets)
                FAIL("selection: sel_targets is %d, the chosen cards make %d", s->sel_targets,
                     t.sel_targets);
        }
        if (dml_legal(NULL, s, buf, NULL) < 1) FAIL("need: the decision has no legal option");
    } else if (s->need == DML_NEED_CHANCE) {
        if (s->kind < DML_C_ROLL || s->kind > DML_C_PILE)
            FAIL("need: unknown chance kind %d", s->kind);
        if ((s->kind == DML_C_HAND && (s->karg < 0 || s->karg >= s->n)) ||
            (s->kind == DML_C_BM && (s->karg < 0 || s->karg >= DML_MAX_BM)) ||
            (s->kind == DML_C_POOL && (s->karg < 0 || s->karg > 14)) ||
            (s->kind == DML_C_PILE && (s->karg < 0 || s->karg > 7)))
            FAIL("need: chance argument %d out of range", s->karg);
        cr_action buf[DML_MAX_CHANCE];
        if (s->kind != DML_C_ROLL && dml_chance(NULL, s, buf, NULL) < 1)
            FAIL("need: the chance event has no outcome");
    } else if (s->need != DML_NEED_RUN) {
        FAIL("need: unknown value %d", s->need);
    }
    return CR_OK;
#undef FAIL
}

cr_status dml_enter_phase(const cr_game *g, dml_state *s, const char *phase)
{
    s->nfr = 0;
    s->need = DML_NEED_RUN;
    sel_clear(s);
    memset(s->fr, 0, sizeof s->fr);
    push(s, DML_P_GAME, 0, 0, 0);
    s->fr[0].step = 6;
    int turn_offset = (s->active - s->dealer + s->n) % s->n;
    if (!strcmp(phase, "event")) {
        push(s, DML_P_ROUND, 0, 0, 0);
    } else if (!strcmp(phase, "turn") || !strcmp(phase, "market")) {
        if (!dml_is_alive(s, s->active)) return CR_ERR_INVALID;
        push(s, DML_P_ROUND, turn_offset + 1, 0, 0);
        s->fr[1].step = 1;
        push(s, DML_P_TURN, s->active, 0, 0);
        if (!strcmp(phase, "market")) {
            s->fr[2].step = is_2015(s) ? 13 : 3; /* waiting for its Market Phase */
            push(s, DML_P_MARKET, 0, 0, 0);
            s->fr[3].step = 1;
        }
    } else if (!strcmp(phase, "power") && is_2015(s)) {
        /* DML-2015: the CPP after the Active Player's Turn (15.3.2), or
         * turn-2015-06's closing one inside it (V11) */
        if (!dml_is_alive(s, s->active)) return CR_ERR_INVALID;
        push(s, DML_P_ROUND, turn_offset + 1, 0, 0);
        s->fr[1].step = 1;
        if (sw(s, DML_SW_TURN_0615)) {
            push(s, DML_P_TURN, s->active, 0, 0);
            s->fr[2].step = 15;
            push(s, DML_P_STACK, 2, 0, 0);
        } else {
            s->fr[1].b = 1;
            push(s, DML_P_STACK, 0, 0, 0);
        }
    } else if (!strcmp(phase, "power")) {
        push(s, DML_P_ROUND, s->n, 0, 0);
        s->fr[1].step = 3;
        push(s, DML_P_STACK, 0, 0, 0);
    } else {
        return CR_ERR_INVALID;
    }
    if (!strcmp(phase, "power") && is_mayhem(s)) pop(s); /* no Power Phase in Mayhem */
    dml_run(g, s, NULL);
    return CR_OK;
}

/* ------------------------------------------------------------ the table */

/* Player-facing words (croupier games, the lobby): no spec references;
 * spec 12.1-12.4 and 15 define the variants, 15.9 the switches. */
const cr_variant dml_variants[DML_NVARIANTS] = {
    [DML_V_FULL] = {"full", "Full Game: 4 players, every rule", 4, 4},
    [DML_V_SMACKDOWN] = {"smackdown", "3-Player Smackdown", 3, 3},
    [DML_V_MAYHEM] = {"mayhem", "Market Mayhem quickstart: Commodities only", 3, 4},
    [DML_V_FIRE] = {"fire", "I See Fire: Hustled! and elimination by Siege", 3, 4},
    [DML_V_2015] = {"dml-2015", "the 2015 website edition, its own rule set", 3, 4},
};

const cr_option_def dml_options[DML_NOPTIONS] = {
    [DML_OPT_FIRST_ROLLER] = {.key = "first-roller",
                              .type = CR_OPT_SEAT,
                              .def = 0,
                              .help = "the seat that rolls first in the setup roll-off",
                              /* --first-roller N, and the records' old header key */
                              .flags = CR_OPTF_SWITCH | CR_OPTF_RECORD_KEY},
    [DML_OPT_BM_WAGER] = {.key = "bm-wager",
                          .type = CR_OPT_BOOL,
                          .help = "2015-06: a Black Market attempt wagers M cards and needs 7 - M",
                          .variant = "dml-2015"},
    [DML_OPT_TURN_0615] =
        {.key = "turn-2015-06",
         .type = CR_OPT_BOOL,
         .help = "2015-06: a Character Power Phase opens and closes each Turn, none per Round",
         .variant = "dml-2015"},
    [DML_OPT_EVENTS_0615] = {.key = "events-2015-06",
                             .type = CR_OPT_BOOL,
                             .help = "2015-06 events: All Bets Are Off and the older event texts",
                             .variant = "dml-2015"},
    [DML_OPT_FRENZY] = {.key = "buying-frenzy",
                        .type = CR_OPT_BOOL,
                        .help = "2015-08: every special event is Buying Frenzy",
                        .variant = "dml-2015"},
    [DML_OPT_CARDS_0615] =
        {.key = "cards-2015-06",
         .type = CR_OPT_BOOL,
         .help = "2015-06 cards: the Blabbermouth, the Greed Vizier and the older Powers",
         .variant = "dml-2015"},
};

static cr_status dml_create(cr_game *g, char *err, size_t errcap)
{
    (void)err;
    (void)errcap;
    g->num_actions = DML_NUM_ACTIONS;
    g->max_legal = DML_MAX_LEGAL;
    g->max_chance_outcomes = DML_MAX_CHANCE;
    g->max_events = DML_MAX_EVENTS;
    g->state_size = sizeof(dml_state);
    g->obs_size = sizeof(dml_state);
    g->scratch_size = dml_sample_scratch(); /* the sampler's matching; apply and legal need none */
    return CR_OK;
}

/* Search states keep no memory: know_move() is skipped on every move. */
static void dml_for_search(const cr_game *g, void *st)
{
    (void)g;
    ((dml_state *)st)->knowledge = 0;
}

static int dml_is_withdraw(const cr_game *g, const void *st, cr_action a)
{
    (void)g;
    (void)st;
    return a == DML_A_UNDO;
}

const cr_game_def dml_def = {
    .name = "dml",
    .title = "Dragon's Money Laundering",
    .variants = dml_variants,
    .n_variants = DML_NVARIANTS,
    .rules_version = DML_RULES_VERSION,
    .options = dml_options,
    .n_options = DML_NOPTIONS,
    .score_scale = 10,
    .create = dml_create,
    .destroy = NULL,
    .init = dml_init,
    .current_player = dml_current_player,
    .legal_actions = dml_legal,
    .chance_outcomes = dml_chance,
    .sample_chance = dml_sample_chance,
    .apply = dml_apply,
    .returns = dml_returns,
    .result = dml_result,
    .observe = dml_observe,
    .obs_to_json = dml_obs_to_json,
    .obs_to_text = dml_obs_to_text,
    .sample = dml_sample,
    .for_search = dml_for_search,
    .serialize = dml_serialize,
    .deserialize = dml_deserialize,
    .action_to_str = dml_action_to_str,
    .str_to_action = dml_str_to_action,
    .event_to_str = dml_event_to_str,
    .event_to_json = dml_event_to_json,
    .prompt = dml_prompt,
    .is_withdraw = dml_is_withdraw,
    .action_to_json = dml_action_to_json,
    .parts = &dml_parts,
};
