/* dml_internal.h — Dragon's Money Laundering: the flat state and the pieces
 * shared by rules.c (legal/apply), notation.c (action text), observe.c
 * (observations, sampler) and position.c (JSON positions).
 *
 * Cards.  54 cards with ids in canonical order (spec 0.2, R76): suit Iron S,
 * Wood C, Slaves H, Spice D; within a suit 2..9, T, J, Q, K, A; then X1, X2.
 * id = suit * 13 + (rank - 2) for rank 2..14 (A = 14); X1 = 52, X2 = 53.
 * So "move in canonical order" is "move in ascending id", and a set of cards
 * is a uint64_t mask.
 *
 * Zones.  Every card is in exactly one zone: loc[card] names it and the
 * zone's mask zone[z] holds its bit.  Unordered zones (the Deck, R78; Black
 * Markets; Hands; Fronts) need nothing more.  Ordered piles keep their order
 * beside the mask: the Discard Pile's top card (R73: the order below the top
 * has no effect), the Stack's order, and the Nest's known top part.
 *
 * Procedures.  The rules are nested procedures (a Buy inside a Market Phase
 * inside a Turn, a Siege inside a Power inside a Stack episode...) that stop
 * for player decisions and chance events.  The state keeps them as a small
 * stack of frames {proc, step, a, b, x}; apply() hands the action to the top
 * frame and runs frames until the next decision or chance node.  Frames hold
 * only small integers, so the state stays flat.
 *
 * Knowledge.  For each seat, pin[s][z] holds the cards the seat knows to be
 * in zone z and may[s][z] cards that might be there (perfect memory, spec 2
 * and R70).  A move seen by the seat pins the card; a move it does not see
 * ("a card went from A to B") widens may[s][B] by what could be in A.
 * Observations and the sampler are built from these two masks.
 */
#ifndef CROUPIER_DML_INTERNAL_H
#define CROUPIER_DML_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "croupier/game.h"

#if defined(__GNUC__)
#define DML_HIDDEN __attribute__((visibility("hidden")))
#else
#define DML_HIDDEN
#endif

/* ---- cards ---- */
enum { DML_SUIT_S = 0, DML_SUIT_C, DML_SUIT_H, DML_SUIT_D, DML_NSUITS };
enum { DML_NCARDS = 54, DML_X1 = 52, DML_X2 = 53 };
enum { DML_T = 10, DML_J = 11, DML_Q = 12, DML_K = 13, DML_A = 14 };

extern DML_HIDDEN const int8_t dml_rank_of[DML_NCARDS], dml_suit_of[DML_NCARDS];
static inline int dml_card(int suit, int rank) { return suit * 13 + rank - 2; }
static inline int dml_suit(int c) { return dml_suit_of[c]; } /* -1 for a Joker */
static inline int dml_rank(int c) { return dml_rank_of[c]; } /* 0 = Joker */
static inline uint64_t dml_bit(int c) { return (uint64_t)1 << c; }
static inline int dml_is_joker(int c) { return c >= 52; }
static inline int dml_is_commodity(int c)
{
    int r = dml_rank(c);
    return r >= 2 && r <= 10;
}
static inline int dml_is_egg(int c) { return dml_rank(c) == DML_A; }
static inline int dml_is_king(int c) { return dml_rank(c) == DML_K; }
/* printed value of a Commodity (2..10) */
static inline int dml_value(int c) { return dml_rank(c); }

#define DML_SUIT_MASK(s) ((uint64_t)0x1fff << ((s)*13))
#define DML_ALL_CARDS    (((uint64_t)1 << 54) - 1)
extern DML_HIDDEN const uint64_t
    dml_rank_mask[15]; /* [rank]: the 4 cards of that rank; [0] jokers */
#define DML_COMMODITIES (dml_commodity_mask())
uint64_t dml_commodity_mask(void);

/* Wheel of Profit (1.3) */
static inline int dml_prim(int suit)
{
    static const int p[4] = {3, 0, 1, 2};
    return p[suit];
}
static inline int dml_sec(int suit) { return dml_prim(dml_prim(suit)); }

/* ---- zones ---- */
enum {
    DML_Z_DECK = 0,
    DML_Z_EVENT, /* Current Event */
    DML_Z_DISCARD,
    DML_Z_NEST,
    DML_Z_STOCK, /* the four Stocks: one mask, the suit is the card's */
    DML_Z_EXILE, /* face-up-on-entry exile */
    DML_Z_XKING, /* face-down Kings in Exile (Hidden, 3-Player Smackdown / I See Fire) */
    DML_Z_STACK,
    DML_Z_TARGET,                  /* buying area: declared targets */
    DML_Z_COMMIT,                  /* buying area: committed cards */
    DML_Z_POOL,                    /* setup only: Kings/2s/3s not yet dealt */
    DML_Z_HAND,                    /* + seat */
    DML_Z_FRONT = DML_Z_HAND + 4,  /* Emblems, + seat */
    DML_Z_KING = DML_Z_FRONT + 4,  /* Merchant King, + seat */
    DML_Z_OFFER = DML_Z_KING + 4,  /* face-down Seize offer, + seat */
    DML_Z_PILES = DML_Z_OFFER + 4, /* DML-2015 Setup: the face-down piles (15.2, V8);
                                    * dml_state.pile says which card is in which */
    DML_Z_BM,                      /* Black Market slots */
};
/* Black Markets at once: each holds >= 1 card and no King ever enters one,
 * so at most 54 - 4 = 50 exist together. */
enum { DML_MAX_BM = 50, DML_NZONES = DML_Z_BM + DML_MAX_BM };

/* ---- variants ---- */
enum { DML_V_FULL = 0, DML_V_SMACKDOWN, DML_V_MAYHEM, DML_V_FIRE, DML_V_2015, DML_NVARIANTS };

/* The historic switches of DML-2015 (15.9): dml_state.sw bits, one per
 * table option of the dml-2015 variant (dml_options). */
enum {
    DML_SW_BM_WAGER = 1u << 0,    /* bm-wager: the Black Market wager (V-PD6, V14) */
    DML_SW_TURN_0615 = 1u << 1,   /* turn-2015-06: two CPPs in each Turn (V11) */
    DML_SW_EVENTS_0615 = 1u << 2, /* events-2015-06: the older event texts (V13) */
    DML_SW_FRENZY = 1u << 3,      /* buying-frenzy: Buying Frenzy (V12) */
    DML_SW_CARDS_0615 = 1u << 4,  /* cards-2015-06: the older card Powers (V17, V18) */
};

/* ---- event types (1.4) ---- */
enum {
    DML_EV_NONE = 0,
    DML_EV_FCCC,     /* S 4-9 */
    DML_EV_HATED,    /* C 4-9 */
    DML_EV_CUSTOMS,  /* H 4-9 */
    DML_EV_UNION,    /* D 4-9 */
    DML_EV_CARNIVAL, /* J Q X1 X2 */
    DML_EV_OPENING,  /* T */
    DML_EV_ALLBETS,  /* DML-2015 events-2015-06: All Bets Are Off (V13) */
    DML_EV_FRENZY,   /* DML-2015 buying-frenzy: Buying Frenzy (V12) */
};

/* ---- actions ----
 * Ranges (each a dense block; see notation.c for the text of each). */
enum {
    DML_A_CARD = 0,                             /* select a card (meaning set by the decision) */
    DML_A_POWER = DML_A_CARD + DML_NCARDS,      /* Stack play: card as Power */
    DML_A_EMBLEM = DML_A_POWER + DML_NCARDS,    /* Stack play: card as Emblem */
    DML_A_CALLBACK = DML_A_EMBLEM + DML_NCARDS, /* Market: Callback that own Emblem */
    DML_A_VISIT = DML_A_CALLBACK + DML_NCARDS,  /* Market: Visit Black Market slot k */
    DML_A_BMPICK = DML_A_VISIT + DML_MAX_BM,    /* Prime Counsellor: search slot k */
    DML_A_PLAYER = DML_A_BMPICK + DML_MAX_BM,   /* choose seat p */
    DML_A_STOCK = DML_A_PLAYER + 4,             /* Archduchess: Stock of suit s */
    DML_A_BUY = DML_A_STOCK + 4,
    DML_A_PLAY,
    DML_A_SUBSTITUTE,
    DML_A_NOTHING,
    DML_A_END,
    DML_A_DONE,   /* close a composed choice; with nothing chosen it is "pass" */
    DML_A_UNDO,   /* withdraw the last card of a composed choice (or the option) */
    DML_A_REROLL, /* Dabo! */
    DML_A_KEEP,
    DML_A_GIVE, /* Thief modes */
    DML_A_TAKE,
    DML_A_ROLL,                   /* chance: dice (a <= b): 21 outcomes */
    DML_A_DRAW = DML_A_ROLL + 21, /* chance: the card a draw or random pick produces */
    /* DML-2015 only (appended: the ids above are those of older records) */
    DML_A_PILE = DML_A_DRAW + DML_NCARDS, /* V-PD1: face-down pile A..D */
    DML_A_WAGER = DML_A_PILE + 4,         /* V-PD6 (bm-wager): wager M = 0..50 */
    DML_A_SUIT = DML_A_WAGER + 51,        /* V18 (cards-2015-06): name suit s */
    DML_NUM_ACTIONS = DML_A_SUIT + 4,
};
/* Bound on one legal list.  Market (PD2): Buy, Play, Substitute, Nothing,
 * End + at most 12 Callbacks (4 T + 4 J + 4 Q Emblems) + at most 50 Visits
 * = 67.  A card composition: at most 54 cards + Done + Undo = 56.  A Stack
 * play: 10 J/Q/Joker as Power + 12 J/Q/T as Emblem + Done + Undo = 24.
 * Chance: at most 54 cards (the Deck holds at most 38 + 2 Jokers) or 21 rolls. */
enum { DML_MAX_LEGAL = 67, DML_MAX_CHANCE = 54 };

/* Bound on the events of one apply (cr_game.max_events).  apply() answers
 * the top frame and runs frames until the next open decision or chance node
 * (run() in rules.c); call that the run R.  Facts the terms use:
 *  F1 A roll has 21 outcomes and is never taken by run(): R holds at most
 *     one roll, the apply's own action.  So at most one ROLL or DABO, one
 *     CHECK, one check consequence (a Buy's Outcome, a Callback, a Visit's
 *     draws or Hustled!, a Thief's own move) and one follow-up (Woot!'s
 *     Foreign Merchant or Wyvern Eyes' Siege) per R.
 *  F2 A Market of a remaining player always offers End plus Nothing or
 *     Substitute, and a composition with a card to choose always has two
 *     options: R closes at most one composition (the apply's own answer) and
 *     starts at most one Turn, hence at most one Round, Event Phase and
 *     Power Phase, each stopping at the next Market.
 *  F3 Cards are played only by an answer, so R resolves at most the cards
 *     of one Stack: at most 14 (J, Q, T, Jokers), each once; each J/Q Power
 *     takes effect at most once; a Thief ends with a roll (F1).
 *  F4 Sieges: at most 2 (Wyvern Eyes by F1, the Dragon Empress by F3).
 *  F5 A draw from the Deck is forced only when the Deck holds one card, and
 *     only Jokers enter the Deck (R4, Thief).  A Joker drawn brings the
 *     Foreign Merchant, which puts it in a Black Market; it can leave one
 *     again in R only by the Grand Inquisitor or the Prime Counsellor (a
 *     Visit's draws come first in R, F1), each once (F3).  So at most
 *     2 + 2 = 4 Joker draws, at most 5 Foreign Merchants (with Woot!), and
 *     at most 1 + 1 + 4 = 6 draws (the answer, one forced, the Jokers').
 *  F6 The Discard Pile holds only the 44 Commodities and J/Q (Eggs go to the
 *     Nest, Jokers to the Deck, Kings never); a Foreign Merchant empties it.
 *     A gathered card is gathered again only after leaving its Black Market
 *     (F5: the Grand Inquisitor, all cards once; the Counsellor, one card).
 * An R that begins with a Declaration's or an Offer's Done stops at the
 * next open Offer, the exchange or the roll (F1, F2); it holds at most 50
 * moves of the answer (a whole Hand; 50 = the non-King cards) + 50 Seize
 * reveals + 50 moves back or to the commits + 3 forced OFFERs + OFFER +
 * SEIZE + DECISION + DECLARE = 157 events.  Any other R holds no Seize:
 *   MOVE <= 37   the answer (a Commit, 18; a Stack play, 14) or a Buy's
 *                Outcome (targets, commits: Commodities + 1 Emblem, 36 + 1)
 *        +  14   Stack entries to a Front or to Exile (F3)
 *        +  50   Grand Inquisitor: the Stocks and Black Markets, each card once
 *        +  18   other Powers: Vice 1, Counsellor 1, Tithes 3, Harlot 1,
 *                Heiress 1, Archduchess 9 (one Stock), Thief 1 + its Joker 1
 *        + 108   2 Sieges (F4), each moving every card at most once: 54
 *        +   6   Event Phase (F2): the old Event, the new one, 4 Hated picks
 *        +   4   check consequence other than a Buy's: a Visit's 1 + 3
 *                Permission draws (F1)
 *        +   6   draws (F5), one move each
 *        +  99   Foreign Merchants: 5 Jokers and 5 Eggs (F5), the Discard
 *                Pile: 44 + 44 + 1 cards in all (F6)
 *        +   6   Setup: the deal's 3 forced last picks, 3 leftovers
 *        = 348
 *   BM_GONE <= 55: one per emptied Black Market, at most 50 (each holds a
 *                non-King card) + 5 created in R
 *   REVEAL  <= 204: 2 Sieges of every Hand (2 x 50), the end (50 + 4 Kings;
 *                Monopoly or the VP end, once), a Counsellor's look (50)
 *   others  <= 101: ROUND, EVENT, TURN, BUDGET, POWER_PHASE, SETUP, END,
 *                ROLL or DABO, CHECK, VALUE (1 each: F1, F2) + VP 4 + VP_SUIT 16
 *                (the VP end: one per seat and suit) + SIEGE 2 +
 *                SIEGE_SEAT 8 (2 Sieges, one per seat holding eggs) +
 *                ELIMINATED 4 + FOREIGN 5 + BM_NEW 5 + RESOLVE 14 +
 *                DECISION 33 (a play: 14 cards + Play; 2 episodes of 4
 *                forced passes; 8 Power choices; the Market or exchange
 *                answer 2)
 * = 348 + 55 + 204 + 101 = 708 >= 157.  DML-2015 adds at most: the
 * Setup's 8 pile moves + 4 choices' 8 (not in a Round's R); bm-wager's 50
 * cards left or lost + 1 DECISION; cards-2015-06's Blabbermouth (F3: once
 * per R) drawing at most the Deck's 40 cards + 1 DECISION + the new Event
 * (EVENT 1, the old card 1, 4 Marauders' picks) + 2 more Foreign Merchants
 * (FOREIGN, BM_NEW, their Joker) gathering at most its 40 draws again: at
 * most 8 + 8 + 51 + 41 + 6 + 6 + 40 = 160 more, so 868.  Loose: random
 * games stay under 120 (the conformance suite prints the largest per
 * table). */
enum { DML_MAX_EVENTS = 868 };

static inline int dml_roll_index(int a, int b) /* 1 <= a <= b <= 6 */
{
    int i = 0;
    for (int x = 1; x < a; x++) i += 7 - x;
    return i + (b - a);
}

/* ---- dice rules (3.1): the one place they are written ----
 * Dabo! (R21): the roller of (2,2) .. (5,5) may re-roll.  A check's final
 * roll: Woot! (6,6) succeeds and Wyvern Eyes (1,1) fails whatever the
 * target; otherwise it succeeds iff the total reaches the target.
 * *special gets 'W', 'E' or 0.  rules.c (p_dice, p_check) and display.c
 * (the roll probabilities) both use these. */
static inline int dml_dabo_roll(int a, int b) { return a == b && a >= 2 && a <= 5; }
static inline int dml_check_eval(int a, int b, int target, int *special)
{
    if (a == 6 && b == 6) {
        *special = 'W';
        return 1;
    }
    if (a == 1 && b == 1) {
        *special = 'E';
        return 0;
    }
    *special = 0;
    return a + b >= target;
}

/* ---- procedures (frames) ---- */
enum {
    DML_P_GAME = 1, /* setup, then rounds until the end */
    DML_P_ROLLOFF,
    DML_P_DICE,  /* one roll with Dabo! re-rolls: result in st->die[] */
    DML_P_CHECK, /* DICE + evaluation against x: result in st->check_ok/check_special */
    DML_P_ROUND,
    DML_P_EVENT,
    DML_P_TURN,
    DML_P_RESTOCK,
    DML_P_SUPPLY,
    DML_P_MARKET,
    DML_P_BUY,
    DML_P_STACK,
    DML_P_POWER,
    DML_P_FM, /* Foreign Merchant */
    DML_P_SIEGE,
    DML_P_VISIT,
    DML_P_CALLBACK,
    DML_P_COUNT
};

typedef struct dml_frame {
    uint8_t proc, step;
    int8_t a, b;
    int16_t x;
} dml_frame;

enum { DML_MAX_FRAMES = 24 };

/* What the state waits for. */
enum { DML_NEED_RUN = 0, DML_NEED_DECISION, DML_NEED_CHANCE, DML_NEED_OVER };

/* Decisions (section 14): the PD number. */
enum {
    DML_D_DABO = 1,     /* PD1 */
    DML_D_MARKET,       /* PD2 */
    DML_D_DECLARE,      /* PD3 composition */
    DML_D_OFFER,        /* PD4 composition */
    DML_D_COMMIT_ACT,   /* PD5 composition */
    DML_D_COMMIT_PAS,   /* PD6 composition */
    DML_D_STACK,        /* PD7 composition */
    DML_D_VICE,         /* PD8 */
    DML_D_COUNSEL_BM,   /* PD9a: which Black Market */
    DML_D_COUNSEL_CARD, /* PD9b: which card of it */
    DML_D_TITHE,        /* PD10 */
    DML_D_HARLOT,       /* PD11 */
    DML_D_ARCHDUCHESS,  /* PD12 */
    DML_D_THIEF_MODE,   /* PD13a */
    DML_D_THIEF_CARD,   /* PD13b: the card to give */
    DML_D_THIEF_PLAYER, /* PD13c: the other player */
    DML_D_PILE,         /* V-PD1: DML-2015's blind choice of a starting pile */
    DML_D_WAGER,        /* V-PD6 (bm-wager): the wager M of a Black Market attempt */
    DML_D_LEAVE,        /* V-PD6 (bm-wager): composition, the M cards left behind */
    DML_D_NAME_SUIT,    /* V18 (cards-2015-06): the Troublesome Blabbermouth's suit */
};

/* Chance kinds: the candidates of a uniform pick, or the dice. */
enum {
    DML_C_ROLL = 1,
    DML_C_DECK, /* draw from the Deck */
    DML_C_POOL, /* setup deal: karg = rank */
    DML_C_HAND, /* random card of a Hand: karg = seat */
    DML_C_BM,   /* random card of a Black Market: karg = slot */
    DML_C_NEST, /* egg from the unordered bottom of the Nest */
    DML_C_PILE, /* DML-2015 Setup: a 2 or a 3 into pile karg & 3 (karg >> 2: 0 a 2, 1 a 3) */
};

/* End reasons */
enum {
    DML_END_NONE = 0,
    DML_END_VP, /* Deck exhausted at the Event Phase */
    DML_END_MONOPOLY,
    DML_END_FATHER, /* Father of Dragons */
    DML_END_LAST,   /* I See Fire: last merchant standing / nobody left */
};

/* The Stack holds only J, Q, T and Jokers: 14 cards. */
enum { DML_MAX_STACK = 16 };
enum { DML_HIDDEN_PILE_CARD = 0xff };

/* Stack entry flags */
enum { DML_SF_EMBLEM = 0x10, DML_SF_SEAT = 0x0f };

typedef struct dml_state {
    /* zones */
    uint64_t zone[DML_NZONES];
    uint8_t loc[DML_NCARDS];
    int8_t discard_top;              /* -1 when empty */
    uint8_t nest_top[4], nest_top_n; /* eggs put on the Nest, bottom..top, above the base */
    uint8_t stack_card[DML_MAX_STACK], stack_flag[DML_MAX_STACK], stack_n;
    int8_t resolving; /* card whose Power is resolving, -1 none */
    int8_t resolving_seat;
    uint16_t bm_label[DML_MAX_BM]; /* label of a live slot (zone non-empty) */
    /* what each seat did that the final state no longer shows, for the
     * achievements (parts.c): DML_FEAT_* bits, set as the rules apply (one
     * OR each, nothing on paths that do not earn one).  Placed here, with
     * bm_next_label moved to the end, it fills padding: the state keeps its
     * size (6224 bytes, a multiple of 16) and clone its speed. */
    uint16_t feat[4];
    uint64_t bm_live;    /* bit k: slot k holds a market (derived from zone_count, kept by move) */
    uint64_t sel_emblem; /* bit i: sel[i] is a Stack play as an Emblem (dml_sel_flag) */

    /* table */
    uint8_t n, variant, first_roller;
    uint8_t dealer, active;
    uint8_t alive;     /* bitmask of seats still in the game */
    uint8_t knowledge; /* 1: maintain pin/may (observations); 0: rollouts */
    /* Seats whose pin/may are not kept although knowledge is 1 (bit q; the
     * lab's states, where no bot reads seat q's observation: lab.c).  Their
     * masks stay zero and observe() shows them what they see now.  0 in
     * every other state.  Fills the padding before `round`. */
    uint8_t know_off;
    uint16_t round;

    /* event in force */
    uint8_t event_type, ev; /* type and event value (0 for special events) */
    uint8_t affected;       /* seats affected by the Player Effect this Round */

    /* market budget */
    uint8_t actions, minors;

    /* buying */
    int8_t buy_suit, seizer, target_owner; /* target_owner: Front seat of an Emblem target, -1 */
    int8_t target_from;                    /* origin zone of the targets */
    int16_t D, P;
    uint8_t xchg_turn;      /* resolution exchange: 0 active, 1 passive */
    uint8_t offer_count[4]; /* cards placed, public */

    /* composition in progress */
    uint8_t sel[DML_NCARDS]; /* cards chosen so far, in order */
    uint8_t sel_n;
    uint8_t sel_targets; /* Declaration: how many of sel[] are targets */

    /* dice */
    uint8_t die[2];
    uint8_t check_ok, check_special; /* special: 0, 'W' Woot!, 'E' Wyvern Eyes */
    int8_t rolloff_total[4];
    uint8_t rolloff_mask;

    /* waiting for */
    uint8_t need; /* DML_NEED_* */
    int8_t actor; /* deciding seat */
    uint8_t kind; /* decision (DML_D_*) or chance (DML_C_*) kind */
    int8_t karg;

    /* procedures */
    dml_frame fr[DML_MAX_FRAMES];
    uint8_t nfr;

    /* result */
    uint8_t over, end_reason;
    int8_t winner;      /* -1 none */
    int16_t vp[4];      /* filled at the end (and by dml_score) */
    uint32_t n_applied; /* actions applied so far (for logs) */

    /* knowledge, per seat: see the file comment */
    uint64_t pin[4][DML_NZONES];
    uint64_t may[4][DML_NZONES];
    uint8_t zone_count[DML_NZONES]; /* kept in observations where masks are erased */
    uint8_t obs_seat;               /* 0xff in a real state; the seat in an observation */
    uint16_t bm_next_label;         /* last Black Market label used (here: padding, see feat) */

    /* DML-2015 (spec 15), at the end, where the 2016 edition's hot fields
     * keep their places: the switches (DML_SW_*, 0 otherwise), the Wheel
     * reversed by cards-2015-06's Greed Vizier this Round, the cards a
     * bm-wager attempt just took (V14), and the Setup piles A-D: [k][0] its
     * 2, [k][1] its 3, each as card + 1, 0 when absent (DML_Z_PILES holds
     * them; an observation shows DML_HIDDEN_PILE_CARD for a card the seat
     * cannot name) */
    uint8_t sw, wheel_rev;
    uint8_t pile[4][2];
    uint64_t bm_taken;
} dml_state;

/* The flag of selection i (DML_SF_EMBLEM or 0): a Stack play's form, kept
 * as one bit a selection in sel_emblem (a bitmask, not a byte array: the
 * state copies faster by its 46 bytes). */
static inline int dml_sel_flag(const dml_state *s, int i)
{
    return (int)(s->sel_emblem >> i & 1) * DML_SF_EMBLEM;
}

/* The Wheel of Profit in force: the Primary suit of `suit`, reversed for
 * the Round by cards-2015-06's Greed Vizier (15.9); the Secondary suit,
 * opposite on the Wheel, is the same either way. */
/* The Wheel now: each suit's Primary (dml_prim, or reversed while
 * cards-2015-06's Greed Vizier reverses it), as a row of 4. */
static inline const int8_t *dml_prim_row(const dml_state *s)
{
    static const int8_t prim[2][4] = {{3, 0, 1, 2}, {1, 2, 3, 0}}; /* dml_prim, reversed */
    /* the variant first: a 2016 state never reads the state's last line */
    return prim[s->variant == DML_V_2015 && (s->wheel_rev & 1)];
}
static inline int dml_prim_of(const dml_state *s, int suit) { return dml_prim_row(s)[suit]; }

/* Seats still in the game (I See Fire eliminates).  R69: "next" is the next
 * remaining seat strictly after p, counter-clockwise; an anchor is p itself
 * if it remains, else the next remaining seat. */
static inline int dml_is_alive(const dml_state *s, int p) { return (s->alive >> p) & 1; }
static inline int dml_next_alive(const dml_state *s, int p)
{
    for (int i = 1; i <= s->n; i++) {
        int q = (p + i) % s->n;
        if (dml_is_alive(s, q)) return q;
    }
    return p;
}
static inline int dml_anchor(const dml_state *s, int p)
{
    return dml_is_alive(s, p) ? p : dml_next_alive(s, p);
}

/* ---- events (cr_event.kind) ----
 * Every card movement is one DML_E_MOVE: card, from, to, seen_by (seats that
 * see which card it is; the others see "a card").  The rest: */
enum {
    DML_E_MOVE = 1, /* card from -> to; a = label of the Black Market it leaves or enters */
    DML_E_ROUND,    /* a = round number, seat = Dealer */
    DML_E_EVENT,    /* card = Event card, a = event type, b = EV, other = affected mask;
                     * to = 1 in Market Mayhem (no Player Effects), else 0 */
    DML_E_TURN,     /* seat = Active Player */
    DML_E_BUDGET,   /* seat, a = Actions, b = Minor Actions */
    DML_E_POWER_PHASE,
    DML_E_ROLL,       /* seat rolled a,b */
    DML_E_DABO,       /* seat, a = 1 re-roll, 0 keep; b = the check's target (DML_NO_TARGET:
                       * the roll-off); other = the double, 10 * die + die; from, to,
                       * card: the check's cause, as for DML_E_CHECK (0, 0, -1 in the
                       * roll-off) */
    DML_E_CHECK,      /* seat, a = target, b = 1 success / 0 failure, other = 'W' / 'E' / 0;
                       * from = 100 * purpose (DML_CHECK_*) + 10 * die + die (the final
                       * roll); to = what it is for (DML_CHECK_* below); card = the
                       * Emblem called back or the Thief's Joker, else -1 */
    DML_E_DECISION,   /* seat took action a (the public part, R70); card = its card or -1;
                       * b = the label of a visited or searched Black Market; for
                       * DML_A_DONE, where: DML_DONE_EXCHANGE / DML_DONE_STACK, with
                       * DML_DONE_FORCED when the engine took it (R78); for the
                       * Thief's player (DML_A_PLAYER + other), its mode DML_A_GIVE or
                       * DML_A_TAKE */
    DML_E_DECLARE,    /* seat declared suit b with value a (after commits) */
    DML_E_OFFER,      /* seat placed a cards face-down (0 = pass; b = DML_PASS_* if forced) */
    DML_E_SEIZE,      /* seat won the Seize with counted total a (seat -1: no seize);
                       * b = the suit that counted; other = cards placed in all */
    DML_E_VALUE,      /* a = D, b = P during the exchange, after seat's commit: from =
                       * the printed values of its Primary cards, to = of its Secondary
                       * ones; other = 1 when seat is the seizing Passive Player */
    DML_E_BM_NEW,     /* a = label, b = cards */
    DML_E_BM_GONE,    /* a = label (it is gone when its last card left it) */
    DML_E_SIEGE,      /* a Dragon Siege begins; a = its cause (DML_SIEGE_*, 0 unknown) */
    DML_E_REVEAL,     /* seat's card is shown to everyone (Siege, end, instant win), or to
                       * seat alone (from a Black Market: a = its label) */
    DML_E_ELIMINATED, /* seat is out (I See Fire) */
    DML_E_FOREIGN,    /* the Foreign Merchant arrives; card = the Joker drawn that brought
                       * it, -1: a Woot! did */
    DML_E_RESOLVE,    /* card (played by seat) resolves; a = 1 as Emblem, 0 as Power */
    DML_E_VP,         /* seat scores a Victory Points; b = its Dragon Eggs (20 each) */
    DML_E_END,        /* a = end reason, seat = winner or -1 */
    DML_E_SETUP,      /* seat is the Dealer after the roll-off: a = its total, b = 1 if a
                       * Woot! won it at once */
    DML_E_SIEGE_SEAT, /* a Siege finds seat's a eggs against b & 0xff Shields; other = the
                       * other cards of the Hand; b & DML_SIEGE_FIRE: I See Fire */
    DML_E_VP_SUIT,    /* before seat's DML_E_VP, one per suit it scores (11.2): a = suit,
                       * b = the suit's subtotal, from = the ranks counted (bit r - 2 for
                       * rank r, 2..10), to = the Guild bonus, card = the Merchant King
                       * when it doubles the suit, else -1 */
};

/* What started a Dragon Siege (DML_E_SIEGE's a), the I See Fire flag of
 * DML_E_SIEGE_SEAT's b, and the target of a roll that is no check (the
 * Dealer roll-off; a check's target is never this low: 12 minus all 54
 * cards' values is above -400). */
enum { DML_SIEGE_WYVERN = 1, DML_SIEGE_EMPRESS = 2, DML_SIEGE_FIRE = 0x100 };
enum { DML_NO_TARGET = -1000 };

/* What a check is for (3.1: every kind of check the rules have), in the
 * hundreds of DML_E_CHECK's and DML_E_DABO's from.  Their `to`: for a Buy
 * the declared suit + 4 * (seizing seat + 1); for a Visit the Black
 * Market's label (DML_CHECK_DETAIL bits; 0 if it does not fit), with
 * DML_CHECK_HUSTLE when a failure costs the visitor a card (I See Fire,
 * Hand not empty); DML_CHECK_NO_FOLLOW in Market Mayhem, where Woot! and
 * Wyvern Eyes bring nothing (R22). */
enum { DML_CHECK_BUY = 1, DML_CHECK_VISIT, DML_CHECK_CALLBACK, DML_CHECK_THIEF };
enum { DML_CHECK_DETAIL = 0xfff, DML_CHECK_HUSTLE = 0x1000, DML_CHECK_NO_FOLLOW = 0x2000 };
/* Why a Passive Player passed the Seize (DML_E_OFFER's b when a = 0):
 * the engine passes for it (R78) when it holds no card or is affected by
 * FCCC Regulations; 0 when it chose to. */
enum { DML_PASS_EMPTY = 1, DML_PASS_FCCC = 2 };
/* Where a DML_A_DONE decision was taken (DML_E_DECISION's b): a pass in
 * the Resolution exchange (7.3) or of Stack priority (8.1); FORCED when the
 * seat had nothing it could commit or play. 0: not said. */
enum { DML_DONE_EXCHANGE = 1, DML_DONE_STACK = 2, DML_DONE_FORCED = 4 };

/* ---- shared functions ---- */
DML_HIDDEN extern const cr_game_def dml_def;
DML_HIDDEN extern const cr_variant dml_variants[DML_NVARIANTS];

DML_HIDDEN int dml_current_player(const cr_game *g, const void *st);
DML_HIDDEN int dml_legal(const cr_game *g, const void *st, cr_action *out, cr_ctx *cx);
DML_HIDDEN int dml_chance(const cr_game *g, const void *st, cr_action *out, double *prob);
DML_HIDDEN void dml_apply(const cr_game *g, void *st, cr_action a, cr_ctx *cx);
DML_HIDDEN void dml_init(const cr_game *g, void *st);
DML_HIDDEN void dml_returns(const cr_game *g, const void *st, double *out);
/* The winner of a VP ending (11.2): the most VP among the remaining seats,
 * ties broken by the eggs in Hand; -1 when still tied.  vp[seat]. */
DML_HIDDEN int dml_vp_winner(const dml_state *s, const int *vp);
DML_HIDDEN void dml_result(const cr_game *g, const void *st, cr_result *out);

/* The rules version (cr_game_def.rules_version): bump it when a change to
 * the rules could change what a recorded game means, and say why in
 * docs/rulings.md.  1: the 2016 rules with rulings R1-R78 and C1-C13. */
enum { DML_RULES_VERSION = 1 };

/* Game-owned parts (parts.c, heuristic.c, lab.c, conformance.c). */
struct cr_game_parts;
struct cr_lab_profile;
extern DML_HIDDEN const struct cr_game_parts dml_parts;
extern DML_HIDDEN const struct cr_lab_profile dml_lab;
/* conformance.c: the conformance suite's checks of DML (cr_game_parts.conformance) */
struct cr_conformance;
extern DML_HIDDEN const struct cr_conformance dml_conformance;
DML_HIDDEN void dml_bench(const cr_game *g, FILE *out, double seconds, uint64_t seed);
DML_HIDDEN size_t dml_obs_tensor(const cr_game *g, const void *obs, float *out, size_t cap);
DML_HIDDEN cr_action dml_heuristic(const cr_game *g, const void *view, int seat,
                                   const cr_action *legal, int n, cr_rng *rng);

/* Feats (dml_state.feat): the history half of the achievements (Appendix A).
 * The other half is read from the final state by parts.c. */
enum {
    DML_FEAT_WOOT_ROLLOFF = 1u << 0,  /* won the roll-off with Woot! (3.2) */
    DML_FEAT_ALL_WYVERN = 1u << 1,    /* a roll-off pass of all seats: all Wyvern Eyes (A5) */
    DML_FEAT_ASHES = 1u << 2,         /* its Empress's Siege took eggs from two others (A6) */
    DML_FEAT_CHICKENS = 1u << 3,      /* its Harlot Queen exiled another's Archduchess Power */
    DML_FEAT_TITHES = 1u << 4,        /* resolved the Supreme Secretary of Tithes' Power */
    DML_FEAT_JOKER_THIEF = 1u << 5,   /* its Thief took a Joker from another's Hand */
    DML_FEAT_EGG_SIEGE = 1u << 6,     /* started a Siege with an egg in Hand */
    DML_FEAT_FULL_COURT = 1u << 7,    /* Q + J + T Emblems of its Desired suit in its Front */
    DML_FEAT_FULL_HOUSE = 1u << 8,    /* Buying Bonus 5 or more in its Front */
    DML_FEAT_TEN_TAKEOVER = 1u << 9,  /* bought or seized another's Ten Emblem */
    DML_FEAT_REROLL_CURSE = 1u << 10, /* two Dabo! re-rolls in a Buying roll that failed (A3) */
    DML_FEAT_END_THIEVING = 1u << 11, /* its Harlot Queen exiled two Thieves (DML-2015) */
    DML_FEAT_JOKES_ON_YOU = 1u << 12, /* its Rogue Jester foiled another's Power (A1) */
    DML_NFEATS = 13
};

/* The name of feat bit `bit` in positions (a seat's "feats"), "" if none. */
DML_HIDDEN const char *dml_feat_name(int bit);

/* obs_seat of the public and omniscient views (a seat's view: the seat). */
enum { DML_OBS_PUBLIC = 0xfe, DML_OBS_ALL = 0xfd };

/* Table options, by index in dml_options. */
enum {
    DML_OPT_FIRST_ROLLER = 0,
    DML_OPT_BM_WAGER, /* the DML-2015 switches, in DML_SW_* bit order */
    DML_OPT_TURN_0615,
    DML_OPT_EVENTS_0615,
    DML_OPT_FRENZY,
    DML_OPT_CARDS_0615,
    DML_NOPTIONS
};
extern DML_HIDDEN const cr_option_def dml_options[DML_NOPTIONS];
/* Victory Points of a seat from its Hand and Front (11.2). */
DML_HIDDEN int dml_vp(const dml_state *s, int seat);
/* What makes seat's Victory Points (11.2), suit by suit: the computation
 * dml_vp makes (one function does both).  Returns the total. */
typedef struct dml_vp_parts {
    uint64_t counted[4]; /* the suit's Commodities in Hand and Front */
    int16_t sum[4];      /* their printed values summed */
    int16_t guild[4];    /* the Guild bonus: 2 per non-Ten Commodity in Hand, with the Ten */
    int16_t subtotal[4]; /* sum, doubled for the desired suit, plus the Guild bonus */
    int8_t desired;      /* the suit of the Merchant King, -1 without one */
    int8_t king;         /* the Merchant King, -1 */
    int8_t eggs;         /* Dragon Eggs in Hand, 20 each */
    int16_t total;
} dml_vp_parts;
DML_HIDDEN int dml_vp_breakdown(const dml_state *s, int seat, dml_vp_parts *out);
/* Recomputes the fields derived from the zones (bm_live) after a load. */
DML_HIDDEN void dml_derive(dml_state *s);
/* Resumes the procedures after a state was loaded (runs to the next decision). */
DML_HIDDEN void dml_run(const cr_game *g, dml_state *s, cr_events *ev);

/* Card and zone names */
DML_HIDDEN const char *dml_card_code(int c);  /* "7S", "X1" */
DML_HIDDEN int dml_parse_card(const char *s); /* -1 if not a card code */
DML_HIDDEN const char *dml_card_name(int c);  /* "Iron 7", "Harlot Queen of Port Smårgon" */
/* Whose words name the cards and Powers: the 2016 edition, DML-2015 (15.6),
 * or DML-2015 with cards-2015-06 (15.9).  From a state (an observation
 * too; NULL: 2016) or from the game's variant and options (g NULL: 2016). */
enum { DML_ED_2016 = 0, DML_ED_2015, DML_ED_2015_06 };
DML_HIDDEN int dml_edition(const dml_state *s);
DML_HIDDEN int dml_edition_of_game(const cr_game *g);
/* A card's name in edition ed: "Rogue Jester", "Iron Guild House" in
 * DML-2015; dml_card_name's otherwise.  dml_card_name_in: in s's edition. */
DML_HIDDEN const char *dml_card_name_ed(int ed, int c);
DML_HIDDEN const char *dml_card_name_in(const dml_state *s, int c);
DML_HIDDEN const char *dml_zone_name(int z, char *buf, size_t cap); /* "hand P1", "BM3" */
DML_HIDDEN const char *dml_event_type_name(int t);
/* An event type's name in edition ed: DML-2015 names the suit events
 * Contraband Crackdown, Marauders, Decadence and Tax Relief (15.8). */
DML_HIDDEN const char *dml_event_type_name_ed(int ed, int t);
DML_HIDDEN int dml_event_type_of(int card);
DML_HIDDEN const char *dml_suit_name(int s); /* Iron Wood Slaves Spice */

/* D of the Declaration being composed (7.1.4-5), from sel[] */
DML_HIDDEN int dml_declaration_value(const dml_state *s);
/* Value of `card` declared as a Buying target now (7.1.2, R9, R14, R53):
 * a Stock Commodity's printed value with The Hated People / Merchant Union
 * applied; 10 for an Emblem or the Grand Opening Ten (any card not in a
 * Stock). */
DML_HIDDEN int dml_target_value(const dml_state *s, int card);
/* The Commodities of `suit` that pass the commit filter in force (7.5). */
DML_HIDDEN uint64_t dml_commit_filter(const dml_state *s, int suit);

/* rules.c: building states from position files */
/* Checks what the rules need of a loaded state's waiting decision or chance
 * event (a Setup deal the pool can finish, a composition the decision
 * builds, at least one option); CR_OK or err filled.  Call it on a state
 * that passed dml_check_invariants (the frames' structure). */
DML_HIDDEN cr_status dml_validate_procedure(const dml_state *s, char *err, size_t errcap);
/* The Setup deal: how many cards of `rank` (King, 2 or 3) it has given
 * `seat` so far (0 or 1; 1 once the deal is over), and whether the pool still
 * holds the Kings, 2s and 3s the rest of the deal needs (1 outside Setup). */
DML_HIDDEN int dml_setup_dealt(const dml_state *s, int seat, int rank);
DML_HIDDEN int dml_setup_pool_ok(const dml_state *s);
/* Sets the frame stack for a position that starts at a named phase:
 * "event" (start of a Round), "turn" (start of the Active Player's Turn),
 * "market" (the Active Player's Market options, budget as in the state),
 * "power" (start of the Power Phase; in DML-2015 the Character Power Phase
 * after the Active Player's Turn).  CR_ERR_INVALID for other names. */
DML_HIDDEN cr_status dml_enter_phase(const cr_game *g, dml_state *s, const char *phase);

/* invariants.c: every structural invariant a state reached by play keeps
 * (zones and loc[] agree, ordered piles, counts and zero bytes past them,
 * frames nested as play nests them and the top one waiting for exactly
 * need/kind/actor, the result, sound knowledge).  0 when sound, else
 * nonzero with a message naming the broken invariant (by its position key)
 * in err.  Allocates nothing; costs about one apply.  g may be NULL. */
DML_HIDDEN int dml_check_invariants(const cr_game *g, const void *st, char *err, size_t errcap);
/* The part of it that needs no frames (table, zones, piles, knowledge): the
 * loader checks it before the rules run on a position given by "phase". */
DML_HIDDEN int dml_check_state(const cr_game *g, const void *st, char *err, size_t errcap);

/* notation.c */
DML_HIDDEN size_t dml_action_to_str(const cr_game *g, const void *st, cr_action a, char *buf,
                                    size_t cap);
DML_HIDDEN cr_status dml_str_to_action(const cr_game *g, const void *st, const char *s,
                                       cr_action *out);
/* What card does as a Power in edition ed (DML_ED_*), in the help's words,
 * said to the seat that plays it (seat -1: "you") or of seat (the log):
 * display.c.  Returns 0,
 * writing nothing, for a card without a Power; t may be NULL. */
struct cr_tbuf;
DML_HIDDEN int dml_power_words(struct cr_tbuf *t, int ed, int card, int seat);
DML_HIDDEN size_t dml_event_to_str(const cr_game *g, const cr_event *e, int seat, char *buf,
                                   size_t cap);
DML_HIDDEN size_t dml_event_to_json(const cr_game *g, const cr_event *e, int seat, char *buf,
                                    size_t cap);
DML_HIDDEN size_t dml_prompt(const cr_game *g, const void *st, char *buf, size_t cap);

/* position.c: JSON positions (docs/positions.md) and observation renderings */
DML_HIDDEN size_t dml_serialize(const cr_game *g, const void *st, char *buf, size_t cap);
DML_HIDDEN cr_status dml_deserialize(const cr_game *g, void *st, const char *buf, size_t len,
                                     char *err, size_t errcap);
/* The position format's names: "buy", and "offer" (a decision) or "roll" (a
 * chance kind); "?" when out of range. */
DML_HIDDEN const char *dml_proc_name(int proc);
DML_HIDDEN const char *dml_kind_name(int need, int kind);
DML_HIDDEN size_t dml_obs_to_json(const cr_game *g, const void *obs, char *buf, size_t cap);
DML_HIDDEN size_t dml_obs_to_text(const cr_game *g, const void *obs, char *buf, size_t cap);

/* rules.c: knowledge of a seat that knows only what is public and its own
 * cards (positions without knowledge, sampled states) */
DML_HIDDEN void dml_reset_knowledge(dml_state *s, int seat);

/* display.c: presentation for clients (docs/clients.md) */
DML_HIDDEN size_t dml_action_to_json(const cr_game *g, const void *st, cr_action a, char *buf,
                                     size_t cap);
/* Appends ,"display":{...} (the derived fields) to an observation's JSON. */
struct cr_tbuf;
DML_HIDDEN void dml_display_json(const cr_game *g, struct cr_tbuf *t, const dml_state *obs);
/* cr_game_parts.help: the decision of the observing seat, in words ("" when
 * it is not to act, and for the public view). */
DML_HIDDEN size_t dml_help(const cr_game *g, const void *obs, char *buf, size_t cap);
/* Of the 36 ordered rolls of 2d6: *succ make a check against target succeed,
 * *dabo_fail are Dabo! doubles that fail it (from dml_check_eval). */
DML_HIDDEN void dml_roll_odds(int target, int *succ, int *dabo_fail);
/* The player's guide: docs/play-dml.md, compiled in by CMakeLists.txt
 * (cmake/embed_text.cmake), NUL-terminated. */
extern const char cr_guide_dml[];
/* panels.c: cr_game_parts.panels, the table for the full-screen client */
DML_HIDDEN size_t dml_panels(const cr_game *g, const void *obs, unsigned flags, char *buf,
                             size_t cap);
/* parts.c */
DML_HIDDEN extern const struct cr_game_parts dml_parts;

/* observe.c */
DML_HIDDEN void dml_observe(const cr_game *g, const void *st, int seat, void *obs);
/* The sampler's scratch (cr_ctx.scratch): its b-matching, about 9 KB. */
DML_HIDDEN size_t dml_sample_scratch(void);
DML_HIDDEN cr_status dml_sample(const cr_game *g, const void *obs, cr_rng *rng, void *st_out,
                                cr_ctx *cx);

#endif
