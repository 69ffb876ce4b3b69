/* d18_internal.h — 18Dracula: Medieval Edition, the rules engine's flat
 * state, its read-only tables and the action encoding, shared by the files
 * of this room (spec: docs/rules/18dracula.md, "the spec" below).
 *
 * Board.  Everything the spec takes from a board file (board.h) is in
 * g->data; the state holds indexes into it, never pointers.  Rules the seed
 * states in its text (limits, the associates' powers) are constants here
 * (spec 14.1); the bank, the starting money and the associates' prices too
 * are rules, but a board file may change them for a designer's experiment,
 * so they are read from the board (its defaults are the constants below).
 *
 * State.  One flat struct, all public (R7): clone is memcpy.  Players are
 * indexed by seat; the seating shuffle (R6, the game's only chance event)
 * fixes the clockwise order `seat_at[pos]`, and "the player to the left of
 * X" is the next position.  Money is conserved exactly: bank + players'
 * cash + fronts' treasuries + LL's and BT's treasuries is always
 * d18_money_total() (D18_MONEY_TOTAL on a board that keeps the rules'
 * money).  The bank may go below 0: the spec's reserve is unlimited
 * (R4), and a bank at or below 0 after a payment is broken (R93).
 *
 * Actions.  An action id is base[kind] + (o1 * d2 + o2) * amt + amount:
 * kinds are the spec's 12 action types, o1/o2 their object operands and
 * amount a whole number of pts (auction bids in units of 5).  Bounds are
 * constants, so an id means the same thing on every board.
 */
#ifndef CROUPIER_D18_INTERNAL_H
#define CROUPIER_D18_INTERNAL_H

#include <stdint.h>

#include "croupier/game.h"
#include "games/18dracula/board.h"

#if defined(__GNUC__)
#define D18_HIDDEN __attribute__((visibility("hidden")))
#else
#define D18_HIDDEN
#endif

enum {
    D18_MAXP = 6,
    D18_NFRONTS = 8,
    D18_NASSOC = 7,
    D18_SHARES = 10,         /* per front: the President's certificate is 2 */
    D18_MARKET_LIMIT = 5,    /* R19 */
    D18_FRONT_CERT_MAX = 5,  /* per-front limit outside the orange zone */
    D18_BANK_START = 12000,  /* R4: a board's bank unless it gives one */
    D18_PLAYER_MONEY = 2400, /* R5: shared by the players, unless the board says */
    D18_MONEY_TOTAL = D18_BANK_START + D18_PLAYER_MONEY,
    D18_BT_START_CASH = 30, /* R14 */
    D18_BID_UNITS = 4096,   /* auction amounts: multiples of 5 up to 5 * 4095 */
    D18_AMT = 65536,        /* other amounts: 0..65535 pts */
    /* The longest legal list: a stock-round turn has at most 8 x 5 sales,
     * 8 x 16 starts, 8 + 8 buys, 7 x 6 offers and one pass or end (258);
     * an operating turn at most one build per route space (192) plus its
     * other choices; a front adds its associate actions in any step
     * (assoc.c): 7 x 4 offers, Jekyl & Hyde uses (a route space is empty,
     * for a build or an add, or holds a cube, for a remove: 2 x 192) and
     * Church and Molemen uses (2 x 128 locations), 668.  The buy step is
     * the longest: 32 bank + 32 market + 8 x 32 x 4 front offers + 1 +
     * 8 x 5 emergency sales + 32 emergency buys (1161) + 668 = 1829, so
     * 2048 holds every list (the core's ceiling is 4096). */
    D18_MAX_LEGAL = 2048,
};

/* Associates in price order (spec 4.1, 9).  Their prices are the board's
 * (d18_board.assoc_price); d18_rule_assoc_price is the rules' list, a
 * board's default. */
enum { D18_IL, D18_JH, D18_CV, D18_LL, D18_BT, D18_MI, D18_FD };
extern D18_HIDDEN const int16_t d18_rule_assoc_price[D18_NASSOC];
extern D18_HIDDEN const int16_t d18_assoc_revenue[D18_NASSOC];
extern D18_HIDDEN const char *const d18_assoc_id[D18_NASSOC];
extern D18_HIDDEN const char *const d18_assoc_name[D18_NASSOC];

/* Owner of an associate: -1 unsold, 0..5 a seat, D18_OWN_FRONT + f a front. */
enum { D18_UNSOLD = -1, D18_OWN_FRONT = 16 };

/* The game's read-only data (g->data): its board, parsed and validated. */
static inline const d18_board *d18_brd(const cr_game *g) { return (const d18_board *)g->data; }

_Static_assert((int)D18_NASSOC == (int)D18_BOARD_ASSOCS &&
                   (int)D18_MAXP == (int)D18_BOARD_MAX_PLAYERS,
               "board.h's associates and players are the rules'");

/* The money in a game of np players on board b, conserved (spec 1). */
static inline long d18_money_total(const d18_board *b, int np)
{
    return (long)b->bank + (long)np * b->start_cash[np];
}

/* Stages: what the next decision is. */
enum {
    D18_S_SEATING, /* chance: the seating permutation */
    D18_S_AUCTION, /* a normal auction turn */
    D18_S_CONTEST, /* a contest for one associate (4.4) */
    D18_S_SR,      /* a stock-round turn */
    D18_S_SR_OFFER,
    D18_S_CASTLE, /* the castle auction (6) */
    D18_S_CASTLE_PLACE,
    D18_S_OR,        /* an entity's operating turn (8.3) */
    D18_S_OR_OFFER,  /* another front's president answers a monster offer */
    D18_S_DISCARD,   /* limit discards (8.11.4) */
    D18_S_OR_AOFFER, /* a player answers a front's offer for an associate (8.12) */
    D18_S_MERGE,     /* the buying front's president keeps or removes LL's/BT's offices (8.4) */
    D18_S_OVER,
};

/* How the game ended (10); a technical bankruptcy (8.11.7, R84) ends it
 * exactly as a bankruptcy and is told apart only for the lab. */
enum {
    D18_END_NONE,
    D18_END_BANK,
    D18_END_NO_PROGRESS,
    D18_END_BANKRUPTCY,
    D18_END_TECH_BANKRUPTCY
};

/* When the bank broke (spec 10): the game ends at the start of a later SR. */
enum { D18_BRK_NONE, D18_BRK_IN_OR, D18_BRK_OUTSIDE_OR, D18_BRK_IN_AUCTION };

typedef struct d18_state {
    uint8_t np, stage, phase, end_reason;
    int8_t seat_at[D18_MAXP], pos_of[D18_MAXP];
    int32_t bank;
    int32_t cash[D18_MAXP];
    uint8_t broke_when; /* D18_BRK_* */
    int8_t bankrupt;    /* seat, or -1 */

    /* associates */
    int8_t assoc_owner[D18_NASSOC];
    uint8_t assoc_closed; /* bit a */
    int16_t assoc_price_now[D18_NASSOC];
    int16_t bid[D18_NASSOC][D18_MAXP]; /* open auction bids, 0 = none */
    int32_t minor_cash[2];             /* LL, BT treasuries */

    /* the auction */
    int8_t actor;       /* seat to act in the auction, SR or a response */
    uint8_t au_passes;  /* consecutive passes in normal turns */
    int8_t chain_start; /* the seat whose purchase set off the chain */
    int8_t ct_assoc;    /* the associate contested */
    uint8_t ct_in;      /* seats still in the contest */
    uint32_t au_cycles; /* all-pass cycles so far */

    /* fronts */
    int8_t pres[D18_NFRONTS]; /* -1: not started */
    uint8_t held[D18_NFRONTS][D18_MAXP];
    uint8_t ipo[D18_NFRONTS], pool[D18_NFRONTS];
    int8_t par_idx[D18_NFRONTS];
    int8_t mrow[D18_NFRONTS], mcol[D18_NFRONTS];
    uint32_t mseq[D18_NFRONTS]; /* stack order in a cell: lower is higher */
    uint32_t seq;               /* the last stack number given */
    uint8_t floated;            /* bit f */
    int32_t treasury[D18_NFRONTS];

    /* stock rounds */
    uint16_t sr_no;
    int8_t priority;
    int8_t last_actor; /* the last seat to buy or sell this SR, -1 */
    uint8_t sr_passes;
    uint8_t turn_bought, turn_acted;
    uint8_t sold_this_sr[D18_MAXP]; /* bit f */
    uint8_t declined;               /* associates declined to this player this turn (R97) */
    int8_t offer_assoc, offer_from; /* an associate offered, by whom */
    uint8_t assoc_bought_sr;        /* seats that bought an associate from a player this SR */
    int32_t offer_price;

    /* the map (8.5, 8.6) */
    uint8_t cube[D18_MAX_ROUTES];       /* D18_CUBE_* */
    uint8_t slot_at[D18_MAX_ROUTES][2]; /* the slot the cube filled at end a, end b */
    uint32_t slots[D18_MAX_LOCATIONS];  /* filled slots of each location (bit i) */
    int16_t supply[D18_NUM_COLOURS];    /* cubes in the supply */
    uint8_t castle;                     /* route space under the castle */
    int8_t space_occ[D18_MAX_LOCATIONS][D18_MAX_OFFICE_SPACES]; /* D18_OCC_* or an entity */
    uint8_t offices_used[D18_NFRONTS]; /* charter offices placed, the home office included */
    uint8_t bt_offices;                /* BT's offices: 1, or 2 after its second */

    /* monsters (7, 8.11): where each copy is */
    uint8_t mon_at[D18_MAX_MONSTER_COPIES];        /* D18_AT_* or D18_AT_ENTITY + entity */
    uint8_t tracker;                               /* counted purchases in this phase (7.1) */
    uint8_t mon_fresh[D18_MAX_MONSTER_COPIES / 8]; /* received with LL/BT this OR (R70) */
    int8_t op_front;                               /* the front operating, or -1 */

    /* operating rounds (8) */
    int8_t op_ent;       /* the entity operating, or -1 */
    uint8_t or_step;     /* D18_OS_* */
    uint8_t operated;    /* fronts that operated in this OR (bit f) */
    uint8_t minors_done; /* bit 0 LL, bit 1 BT: their slot in this OR is past */
    uint8_t or_no, ors_in_set;
    uint16_t or_sets_begun, or_sets_done, end_after_set;
    uint8_t build_used;                 /* 0, 1 (one yellow), 2 (all) */
    uint8_t set_earned, idle_sets;      /* R121 */
    uint16_t ors_played;                /* operating rounds begun (the lab's length) */
    uint8_t au_minors;                  /* LL and BT operating inside the auction (4.5) */
    int32_t revenue;                    /* the operating entity's rampage revenue */
    uint32_t declined_mon[D18_NFRONTS]; /* monster types declined by front f this turn (R97) */
    int8_t offer_to;                    /* the front offered to */
    int8_t offer_type;

    /* the castle auction (6) */
    uint8_t castle_in;
    int8_t castle_who;
    int32_t castle_top;

    /* associates in operating rounds (assoc.c) */
    uint8_t declined_af; /* associates declined to the operating front this turn (R97) */
    int8_t merge_ent;    /* LL or BT whose offices are being merged, or -1 (8.4) */
    uint8_t merge_next;  /* its next office in placement order: 0 the start office */

    uint32_t actions; /* actions applied (the lab's length) */
} d18_state;

/* Steps of an operating turn (8.3). */
enum { D18_OS_BUILD, D18_OS_OFFICE, D18_OS_RAMPAGE, D18_OS_DIVIDEND, D18_OS_BUY };

/* Entities that operate: fronts 0..7, then LL and BT (8.4). */
enum { D18_ENT_LL = D18_NFRONTS, D18_ENT_BT, D18_NENT };

/* A route space's cube: none, a colour + 1, or a pre-existing connection
 * (a yellow at both ends, 8.6.4). */
enum { D18_CUBE_NONE = 0, D18_CUBE_PRE = 5 };
static inline int d18_cube_colour(int c) { return c == D18_CUBE_PRE ? D18_YELLOW : c - 1; }

/* An office space: empty, or an entity's office (face up), or a front's
 * face-down Church token (D18_OCC_DOWN + f, R110). */
enum { D18_OCC_EMPTY = -1, D18_OCC_DOWN = 32 };

/* Where a monster copy is. */
enum { D18_AT_BANK = 0, D18_AT_MARKET, D18_AT_GONE, D18_AT_ENTITY = 8 };

/* ---- action encoding ---- */
enum d18_akind {
    D18_K_SEAT,         /* chance: permutation index */
    D18_K_AU_BUY,       /* auction_buy */
    D18_K_AU_BID,       /* auction_bid(assoc, amount/5) */
    D18_K_AU_PASS,      /* auction_pass */
    D18_K_CT_RAISE,     /* contest_raise(amount/5) */
    D18_K_CT_DROP,      /* contest_drop */
    D18_K_SELL,         /* sell(front, k-1) */
    D18_K_START,        /* start_front(front, par index) */
    D18_K_BUY_IPO,      /* buy_ipo(front) */
    D18_K_BUY_POOL,     /* buy_market(front) */
    D18_K_OFFER_AS,     /* offer_associate(assoc, price) */
    D18_K_ACCEPT,       /* respond_offer accept */
    D18_K_DECLINE,      /* respond_offer decline */
    D18_K_PASS,         /* pass */
    D18_K_END_TURN,     /* end_turn */
    D18_K_CASTLE_BID,   /* castle_bid(amount) */
    D18_K_CASTLE_PASS,  /* castle_pass */
    D18_K_CASTLE_PLACE, /* castle_place(space) */
    D18_K_BUILD,        /* build(space) */
    D18_K_BUILD_DONE,
    D18_K_OFFICE, /* place_office(city) */
    D18_K_OFFICE_SKIP,
    D18_K_RAMPAGE,
    D18_K_PAY,
    D18_K_RETAIN,
    D18_K_BUY_BANK,  /* buy_bank(type) */
    D18_K_BUY_MKT,   /* buy_market(type) */
    D18_K_OFFER_MON, /* offer_monster(front2, type, price) */
    D18_K_BUY_DONE,
    D18_K_EM_SELL,      /* emergency_sell(front, k-1) */
    D18_K_EM_BUY,       /* emergency_buy(type) */
    D18_K_DISCARD,      /* discard(type) */
    D18_K_OFFER_AF,     /* offer_assoc_to_front(assoc, price) (8.12) */
    D18_K_MERGE_KEEP,   /* merge_office(keep) (8.4) */
    D18_K_MERGE_REMOVE, /* merge_office(remove) */
    D18_K_JH_REMOVE,    /* jh_remove(space) (9, R87) */
    D18_K_JH_ADD,       /* jh_add(space) */
    D18_K_CHURCH,       /* church_reserve(city) (9, R88, R110) */
    D18_K_MOLEMEN,      /* molemen_office(city) (9, R89, R109) */
    D18_NKINDS
};

typedef struct d18_act {
    int kind, o1, o2, amt;
} d18_act;

D18_HIDDEN int d18_num_actions(void);
D18_HIDDEN cr_action d18_encode(int kind, int o1, int o2, int amt);
D18_HIDDEN int d18_decode(cr_action a, d18_act *out); /* 0 if out of range */
D18_HIDDEN const char *d18_kind_name(int kind);

/* ---- rules (rules.c) ---- */
D18_HIDDEN int d18_cert_limit(int np);
D18_HIDDEN int d18_price(const cr_game *g, const d18_state *s, int f);
D18_HIDDEN int d18_zone_of(const cr_game *g, const d18_state *s, int f);
D18_HIDDEN int d18_certs(const cr_game *g, const d18_state *s, int p);
D18_HIDDEN int d18_front_certs(const d18_state *s, int f, int p);
D18_HIDDEN int d18_over_limit(const cr_game *g, const d18_state *s, int p);
D18_HIDDEN int d18_sell_ok(const cr_game *g, const d18_state *s, int p, int f, int k);
D18_HIDDEN int d18_relief_required(const cr_game *g, const d18_state *s, int p);
D18_HIDDEN int d18_op_before(const cr_game *g, const d18_state *s, int f, int h);
D18_HIDDEN int d18_value(const cr_game *g, const d18_state *s, int p);
D18_HIDDEN int d18_is_legal(const cr_game *g, const void *st, cr_action a);
D18_HIDDEN void d18_seat(d18_state *s, int perm);

/* ---- the map (map.c) ---- */
D18_HIDDEN void d18_map_setup(const cr_game *g, d18_state *s);
D18_HIDDEN int d18_slot_colour(int slot);
D18_HIDDEN int d18_demand(const d18_state *s, int loc);
D18_HIDDEN int d18_required_colour(const cr_game *g, const d18_state *s, int r);
D18_HIDDEN void d18_place_cube(const cr_game *g, d18_state *s, int r, int colour);
D18_HIDDEN void d18_remove_cube(const cr_game *g, d18_state *s, int r);
D18_HIDDEN int d18_level(const cr_game *g, const d18_state *s, int loc);
D18_HIDDEN int d18_has_office(const cr_game *g, const d18_state *s, int e, int loc);
D18_HIDDEN int d18_blocked(const cr_game *g, const d18_state *s, int e, int loc);
/* X(E) and R(E) of 8.6.2 as location bitsets of D18_MAX_LOCATIONS bits. */
typedef struct d18_locset {
    uint64_t w[D18_MAX_LOCATIONS / 64];
} d18_locset;
static inline int d18_in(const d18_locset *x, int l) { return (int)(x->w[l >> 6] >> (l & 63) & 1); }
static inline void d18_add(d18_locset *x, int l) { x->w[l >> 6] |= (uint64_t)1 << (l & 63); }
D18_HIDDEN void d18_reach(const cr_game *g, const d18_state *s, int e, d18_locset *x,
                          d18_locset *r);
D18_HIDDEN int d18_can_build(const cr_game *g, const d18_state *s, int e, int r, int used);
D18_HIDDEN int d18_office_space(const cr_game *g, const d18_state *s, int e, int loc);
D18_HIDDEN int d18_office_cost(const cr_game *g, const d18_state *s, int e);
D18_HIDDEN int d18_can_place_office(const cr_game *g, const d18_state *s, int e, int loc);
/* d18_can_place_office asked in a loop over cities for one entity and one
 * state: rc starts zeroed ({0}) and keeps e's reach once worked out, so
 * the loop traces the map once instead of once per candidate. */
typedef struct d18_reach_cache {
    int done;
    d18_locset x, rr;
} d18_reach_cache;
D18_HIDDEN int d18_can_place_office_rc(const cr_game *g, const d18_state *s, int e, int loc,
                                       d18_reach_cache *rc);
/* A set of route spaces, D18_MAX_ROUTES bits. */
typedef struct d18_routeset {
    uint64_t w[D18_MAX_ROUTES / 64];
} d18_routeset;
/* Every route space r with d18_can_build(g, s, e, r, used), at once. */
D18_HIDDEN int d18_buildable(const cr_game *g, const d18_state *s, int e, int used,
                             d18_routeset *out);
D18_HIDDEN int32_t *d18_ent_cash(d18_state *s, int e);
D18_HIDDEN int32_t d18_ent_cash_of(const d18_state *s, int e);

/* ---- operating rounds and the castle auction (or.c) ---- */
D18_HIDDEN int d18_or_is_legal(const cr_game *g, const d18_state *s, const d18_act *x);
D18_HIDDEN int d18_or_legal(const cr_game *g, const d18_state *s, cr_action *out);
D18_HIDDEN void d18_or_apply(const cr_game *g, d18_state *s, const d18_act *x, cr_ctx *cx);
D18_HIDDEN void d18_after_sr(const cr_game *g, d18_state *s);
D18_HIDDEN void d18_settle(const cr_game *g, d18_state *s);
D18_HIDDEN int d18_or_actor(const cr_game *g, const d18_state *s);
D18_HIDDEN int d18_owner_of(const d18_state *s, int e); /* the seat deciding for e */
/* Rampage revenue of entity e now (8.9, 13): the auto-router. */
D18_HIDDEN int d18_rampage(const cr_game *g, const d18_state *s, int e, cr_ctx *cx);
/* Scratch bytes the rampage needs: the router's workspace for
 * D18_ROUTE_CAP routes (rampage.c; about 26 MB, 6 MB of it the memo of rampage totals).  Random
 * games on the bundled board have needed up to about 80,000 routes in one rampage, and one
 * game of 46,000 214,300 (tests/conformance, test_known_games): the router then keeps only
 * the routes that may be in the answer, and those fit (router.h, "Memory"). */
enum { D18_ROUTE_CAP = 1 << 17 };
D18_HIDDEN size_t d18_rampage_scratch(void);
/* Bytes at the start of that scratch a fresh context zeroes (the memo's heads). */
D18_HIDDEN size_t d18_rampage_scratch_zeroed(void);
/* The routes of that rampage (for the events): the router's input and its
 * canonical result for entity e in state s.  Reuses the answer the last
 * rampage left in cx's scratch when it is for the same input, else runs the
 * router again.  Returns 0, or -1 when out of memory (no context scratch
 * and no memory for a workspace). */
struct d18_route_input;
struct d18_route_result;
D18_HIDDEN int d18_rampage_routes(const cr_game *g, const d18_state *s, int e, cr_ctx *cx,
                                  struct d18_route_input *in, struct d18_route_result *res);

/* ---- associates in operating rounds (assoc.c) ---- */
/* Kinds from D18_K_OFFER_AF on are assoc.c's. */
static inline int d18_assoc_kind(int kind) { return kind >= D18_K_OFFER_AF && kind < D18_NKINDS; }
D18_HIDDEN int d18_assoc_is_legal(const cr_game *g, const d18_state *s, const d18_act *x);
/* Appends the operating front's associate actions (stage OR), or the
 * decision of D18_S_OR_AOFFER / D18_S_MERGE; ascending after any kind
 * below D18_K_OFFER_AF. */
D18_HIDDEN int d18_assoc_legal(const cr_game *g, const d18_state *s, cr_action *out);
D18_HIDDEN void d18_assoc_apply(const cr_game *g, d18_state *s, const d18_act *x);
D18_HIDDEN int d18_assoc_actor(const d18_state *s);
/* After a cube raised loc's level: face-down Church tokens whose band it
 * reached turn face up (R110). */
D18_HIDDEN void d18_church_flip(const cr_game *g, d18_state *s, int loc);
/* Whether front f owns associate a and it is open. */
D18_HIDDEN int d18_front_owns(const d18_state *s, int f, int a);

/* ---- events (events.c): kinds, made by comparing the states before and
 * after one apply; every event is public (R7). ---- */
enum d18_ekind {
    D18_E_ACTION,      /* seat did action a (notation), card: the entity it acted for or -1 */
    D18_E_SEATING,     /* a: the clockwise order, 4 bits a seat; b: players */
    D18_E_ASSOC_OWNER, /* card: associate, from/to: owners (D18_UNSOLD, seat, OWN_FRONT+f), a: price
                        */
    D18_E_ASSOC_PRICE, /* card: associate, a: new price, b: old */
    D18_E_ASSOC_CLOSED,  /* card: associate */
    D18_E_ASSOC_REVENUE, /* seat earned a from its associates (all passed, 4.5) */
    D18_E_START,         /* seat started front card at par a */
    D18_E_SHARES,     /* seat's shares of front card: from -> to (a = to - from), b: market pool */
    D18_E_PRESIDENT,  /* seat became President of card, other: the previous one */
    D18_E_FLOAT,      /* front card floated with a in its treasury */
    D18_E_MARKET,     /* front card's price a -> b; from/to: row * 64 + column */
    D18_E_CUBE,       /* route card: cube from -> to (D18_CUBE_*), a: build cost */
    D18_E_CASTLE,     /* seat placed the castle on route card, a: the winning bid */
    D18_E_OFFICE,     /* location card, space b: occupant from -> to (D18_OCC_*), a: cost */
    D18_E_REVENUE,    /* entity card's rampage earned a; seat: its owner */
    D18_E_DIVIDEND,   /* entity card: revenue a, other 1 paid out (b a share) or 0 retained */
    D18_E_MONSTER,    /* type card, copy b: from -> to (D18_AT_*), a: price paid */
    D18_E_PHASE,      /* phase a begins, b: the previous one */
    D18_E_BANK_BROKE, /* the bank broke (10) */
    D18_E_BANKRUPT,   /* seat went bankrupt with a left */
    D18_E_SR,         /* stock round a begins; seat has priority */
    D18_E_OR,         /* operating round a begins (b: its number in the set) */
    D18_E_OPERATES,   /* entity card starts its operating turn; seat decides */
    D18_E_END,        /* the game ended: a D18_END_*, b winners (bit per seat) */
    D18_E_ROUTE,      /* a route of the rampage just reported (events.c, "Routes") */
    D18_NEV
};
/* The events one apply wrote, from the state before (o) and after (s);
 * actor: the seat that acted (-1 at the chance node). */
D18_HIDDEN void d18_events(const cr_game *g, const d18_state *o, const d18_state *s, cr_action a,
                           int actor, cr_ctx *cx);
D18_HIDDEN int d18_max_events(void);
D18_HIDDEN size_t d18_event_to_str(const cr_game *g, const cr_event *e, int seat, char *buf,
                                   size_t cap);
D18_HIDDEN size_t d18_event_to_json(const cr_game *g, const cr_event *e, int seat, char *buf,
                                    size_t cap);
/* The lab's counters over these events (the rest of the profile: parts.c). */
enum { D18_LAB_COUNTERS = 16 };
extern D18_HIDDEN const char *const d18_lab_counter_names[D18_LAB_COUNTERS];
D18_HIDDEN void d18_lab_count(const cr_event *e, uint64_t *counters);

/* The board and the state's encodings as JSON (data.c): cr_game_parts.data_json. */
D18_HIDDEN size_t d18_data_json(const cr_game *g, char *buf, size_t cap);
/* The observation JSON: the position and a "display" object (data.c). */
D18_HIDDEN size_t d18_obs_json(const cr_game *g, const void *obs, char *buf, size_t cap);
D18_HIDDEN int d18_check_invariants(const cr_game *g, const void *st, char *err, size_t errcap);
extern const struct cr_game_parts d18_parts;
/* The hand-written player (heuristic.c): cr_game_parts.heuristic. */
D18_HIDDEN cr_action d18_heuristic(const cr_game *g, const void *view, int seat,
                                   const cr_action *legal, int n, cr_rng *rng);

/* ---- text and views (notation.c) ---- */
D18_HIDDEN size_t d18_action_to_str(const cr_game *g, const void *st, cr_action a, char *buf,
                                    size_t cap);
D18_HIDDEN cr_status d18_str_to_action(const cr_game *g, const void *st, const char *s,
                                       cr_action *out);
D18_HIDDEN size_t d18_action_to_json(const cr_game *g, const void *st, cr_action a, char *buf,
                                     size_t cap); /* controls.c */
/* controls.c: the section of an action in a long menu (cr_game_parts.menu_section) */
D18_HIDDEN int d18_menu_section(const cr_game *g, const void *obs, cr_action a, char *title,
                                size_t cap);
D18_HIDDEN size_t d18_help(const cr_game *g, const void *obs, char *buf, size_t cap);
/* mapgrid.c: the map as a picture in text (the `map` part) */
D18_HIDDEN size_t d18_map_text(const cr_game *g, const void *obs, unsigned flags, char *buf,
                               size_t cap);
/* explain.c: a monster type's card and an associate's power, in words */
struct cr_tbuf;
D18_HIDDEN void d18_monster_card(const cr_game *g, int type, struct cr_tbuf *t);
/* the card in a few words for a purchase's label: "city 3, claw, eaten in phase 4" */
D18_HIDDEN void d18_monster_short(const cr_game *g, int type, struct cr_tbuf *t);
D18_HIDDEN void d18_assoc_card(const cr_game *g, int a, struct cr_tbuf *t);
D18_HIDDEN size_t d18_prompt(const cr_game *g, const void *st, char *buf, size_t cap);
D18_HIDDEN void d18_observe(const cr_game *g, const void *st, int seat, void *obs);
D18_HIDDEN cr_status d18_sample(const cr_game *g, const void *obs, cr_rng *rng, void *st,
                                cr_ctx *cx);
D18_HIDDEN size_t d18_obs_to_text(const cr_game *g, const void *obs, char *buf, size_t cap);
/* The player's guide, docs/play-18dracula.md compiled in (CMakeLists.txt). */
extern const char cr_guide_18dracula[];
/* The table for full-screen clients (panels.c): cr_game_parts.panels. */
D18_HIDDEN size_t d18_panels(const cr_game *g, const void *obs, unsigned flags, char *buf,
                             size_t cap);

/* ---- positions (position.c) ---- */
D18_HIDDEN size_t d18_serialize(const cr_game *g, const void *st, char *buf, size_t cap);
D18_HIDDEN cr_status d18_deserialize(const cr_game *g, void *st, const char *buf, size_t len,
                                     char *err, size_t errcap);

/* ---- monsters, phases, dividends (monsters.c) ---- */
D18_HIDDEN int d18_copy_type(const d18_board *b, int copy);
D18_HIDDEN int d18_copy_at(const cr_game *g, const d18_state *s, int type, int at);
D18_HIDDEN int d18_offered_phase(const cr_game *g, const d18_state *s);
D18_HIDDEN int d18_bank_copy(const cr_game *g, const d18_state *s, int type); /* -1: none */
D18_HIDDEN int d18_bank_offers(const cr_game *g, const d18_state *s, int e, int type);
D18_HIDDEN int d18_cheapest_offer(const cr_game *g, const d18_state *s, int e); /* b, or -1 */
/* 8.11.6: front f must own a monster at the end of its buy step */
D18_HIDDEN int d18_must_buy(const cr_game *g, const d18_state *s, int f);
/* M(X) of 8.11.7: the most f's President could raise by emergency sales */
D18_HIDDEN int32_t d18_raisable(const cr_game *g, const d18_state *s, int f);
D18_HIDDEN int d18_owned(const cr_game *g, const d18_state *s, int e, int counted_only);
D18_HIDDEN int d18_owns_cf(const cr_game *g, const d18_state *s, int e, int cf);
D18_HIDDEN int d18_may_acquire(const cr_game *g, const d18_state *s, int e, int type);
D18_HIDDEN int d18_over_monster_limit(const cr_game *g, const d18_state *s, int e);
D18_HIDDEN void d18_acquire(const cr_game *g, d18_state *s, int e, int copy);
D18_HIDDEN void d18_buy_bank(const cr_game *g, d18_state *s, int e, int type);
D18_HIDDEN void d18_new_phase(const cr_game *g, d18_state *s, int phase);
D18_HIDDEN int d18_next_discarder(const cr_game *g, const d18_state *s);
D18_HIDDEN void d18_dividend(const cr_game *g, d18_state *s, int f, int revenue, int pay_out);
D18_HIDDEN void d18_bank_pay(d18_state *s, int32_t *to, int32_t amt);
D18_HIDDEN void d18_bank_take(d18_state *s, int32_t *from, int32_t amt);
D18_HIDDEN int d18_market_move(const cr_game *g, d18_state *s, int f, int dr, int dc);

extern const cr_game_def d18_def;

#endif
