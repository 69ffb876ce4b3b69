/* board.h — 18Dracula's board: everything the rulebook shows only in images
 * (spec §14.1, R98), read from a board file and validated once.
 *
 * The board is read-only data the game loads at creation (g->data); game
 * states never point into it, they hold indexes.  It is flat and
 * pointer-free: fixed arrays sized by the maxima below, so it can be copied
 * with memcpy, and a hostile file can never make it grow.  Every index in it
 * is the position of a record in the file (locations, route spaces, fronts
 * and monster types keep file order: spec §13.6 numbers locations and
 * monster types this way, and the tie-break of the auto-router depends on
 * it).
 *
 * The file format is documented in docs/18dracula-board.md; parsing and
 * every check of §14.1 are in board.c.  d18_board_parse() either fills the
 * whole board and returns CR_OK, or returns an error with a one-line message
 * "FILE:LINE: what is wrong" (or "FILE: what is wrong" for a check about the
 * whole file) and leaves *out zeroed.
 *
 * Conventions used throughout:
 *   colours / levels / bands:  D18_YELLOW < D18_GREEN < D18_BLUE < D18_RED
 *   phases:                    1..5; arrays "by phase" are indexed [phase-1]
 *   a missing value:           D18_ABSENT (revenue), D18_NO_COLOUR (colour)
 *   locations, route spaces, monster types and fronts: uint8_t indexes
 */
#ifndef CROUPIER_D18_BOARD_H
#define CROUPIER_D18_BOARD_H

#include <stddef.h>
#include <stdint.h>

#include "croupier/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- Maxima (a file exceeding one is refused with a message) ------------ */
enum {
    D18_MAX_LOCATIONS = 128,     /* cities + towns + off-boards */
    D18_MAX_ROUTES = 192,        /* route spaces */
    D18_MAX_DEGREE = 12,         /* route spaces touching one location */
    D18_MAX_OFFICE_SPACES = 6,   /* office spaces of one city */
    D18_NUM_FRONTS = 8,          /* exactly 8 (spec §1.3) */
    D18_MAX_FRONT_OFFICES = 8,   /* offices of one front, the home office included */
    D18_MAX_MONSTER_TYPES = 32,  /* roster entries */
    D18_MAX_COPIES = 16,         /* copies of one monster type */
    D18_MAX_MONSTER_COPIES = 96, /* copies of all types together */
    D18_MAX_MARKET_ROWS = 16,
    D18_MAX_MARKET_COLS = 32,
    D18_MAX_PAR = 16, /* par cells */
    D18_NUM_PHASES = 5,
    D18_NUM_COLOURS = 4,
    D18_ID_CAP = 8,      /* ids: 1..7 characters [A-Za-z0-9_], + NUL */
    D18_NAME_CAP = 40,   /* names: 1..39 printable ASCII characters, + NUL */
    D18_MAX_COORD = 1000 /* drawing coordinates x, y in 0..D18_MAX_COORD */
};

/* Limits on numbers in a file (a larger value is refused). */
enum {
    D18_MAX_REVENUE = 1000, /* a city's or off-board's revenue */
    D18_MAX_PRICE = 5000,   /* a monster's price, a market cell's price */
    D18_MAX_COST = 1000,    /* a route space's cost, an office's cost */
    D18_MAX_CUBES = 64,     /* cubes of one colour */
    D18_MAX_SALES = 64,     /* S(P) */
    D18_MAX_TOWN_REVENUE = 500,
    D18_MAX_N = 20, /* N of a dit/city/major monster */
    D18_MAX_LINGER = 5,
    D18_MAX_BANK = 1000000, /* the bank at the start (at least D18_MIN_BANK) */
    D18_MIN_BANK = 1000,
    D18_MAX_START_CASH = 50000, /* one player's starting money */
    D18_MAX_FILE = 256 * 1024,  /* bytes of a board file */
    D18_MAX_LINE = 1024         /* bytes of one line, newline excluded */
};

/* Money and the associates' prices are rules (spec §1, §9), not board data;
 * a board file may still change them, for a designer's experiment (optional
 * records `bank`, `cash`, `assoc`; docs/18dracula-board.md).  A file that
 * leaves them out gets the rules' numbers.  The associates are those of the
 * rules, in their order (d18_internal.h: IL JH CV LL BT MI FD). */
enum { D18_BOARD_MAX_PLAYERS = 6, D18_BOARD_ASSOCS = 7 };

/* Colours of cubes, city levels and office bands (spec §8.5, §8.6.3). */
enum { D18_YELLOW = 0, D18_GREEN = 1, D18_BLUE = 2, D18_RED = 3 };
enum { D18_NO_COLOUR = -1 };
enum { D18_ABSENT = -1 }; /* a city revenue the file does not give */

typedef enum d18_kind { D18_CITY = 0, D18_TOWN = 1, D18_OFF = 2 } d18_kind;

/* Market zones (R28). */
typedef enum d18_zone { D18_WHITE = 0, D18_ZONE_YELLOW = 1, D18_ORANGE = 2 } d18_zone;

/* Movement types (§8.9.3, R99), in the board file: home howl dit city major inf. */
typedef enum d18_move {
    D18_MOVE_HOME = 0,
    D18_MOVE_HOWL,
    D18_MOVE_DIT,
    D18_MOVE_CITY,
    D18_MOVE_MAJOR,
    D18_MOVE_INF
} d18_move;

/* Claw / fang (§8.11.2): never both. */
enum { D18_CF_NONE = 0, D18_CF_CLAW = 1, D18_CF_FANG = 2 };

/* Flags of §8.9.8 (howl is a movement type, R99). */
enum {
    D18_F_NOT_BLOCKED = 1u << 0,
    D18_F_NO_OFFICE = 1u << 1,
    D18_F_CASTLE = 1u << 2,
    D18_F_TRIPLE = 1u << 3,
    D18_F_LIMIT_EXEMPT = 1u << 4,
    D18_F_KILLED_BY_CLAW = 1u << 5,
    D18_F_NURSE = 1u << 6,
    D18_F_PATH_FLAGS = D18_F_NOT_BLOCKED | D18_F_NO_OFFICE | D18_F_CASTLE | D18_F_TRIPLE,
    D18_F_ALL = (1u << 7) - 1
};

typedef struct d18_location {
    char id[D18_ID_CAP];
    char name[D18_NAME_CAP];
    uint8_t kind;     /* d18_kind */
    uint8_t fd;       /* off-board only: the Flying Dutchman may double it (R116) */
    uint8_t n_spaces; /* city only: office spaces, 0..D18_MAX_OFFICE_SPACES (R120) */
    int8_t space_band[D18_MAX_OFFICE_SPACES]; /* in file order (R109): the level it opens at */
    /* City only: revenue by level as the file gives it ([D18_YELLOW] always
     * present, the others may be D18_ABSENT), and city_val, the revenue that
     * applies at each level (§8.5: an absent level pays the highest lower
     * level's value). */
    int16_t city_rev[D18_NUM_COLOURS];
    int16_t city_val[D18_NUM_COLOURS];
    int16_t off_rev[D18_NUM_PHASES]; /* off-board only: revenue in phases 1..5 at [0..4] */
    int16_t x, y;                    /* drawing position, 0..D18_MAX_COORD, y downwards */
    /* Derived: the route spaces touching it, ascending route index. */
    uint8_t n_adj;
    uint8_t adj[D18_MAX_DEGREE];
    int line; /* its line in the file */
} d18_location;

typedef struct d18_route {
    uint8_t a, b;         /* the locations it joins, in file order of the line, a != b */
    int8_t colour;        /* fixed colour, or D18_NO_COLOUR */
    uint8_t pre_existing; /* completed from the start; then no colour, no cost (§8.6.4) */
    uint8_t castle_start; /* the castle's start space (exactly one; pre-existing, R36) */
    int16_t cost;         /* pts paid when its cube is placed; 0 = free */
    int line;
} d18_route;

typedef struct d18_front {
    char id[D18_ID_CAP];
    char name[D18_NAME_CAP];
    uint8_t home;       /* a city (location index) */
    uint8_t home_space; /* index in home's office spaces; yellow band (R58) */
    /* Offices on the charter, the home office included: office_cost[0] = 0
     * (the home office is free), then the bought ones cheapest first (R59). */
    uint8_t n_offices; /* 1..D18_MAX_FRONT_OFFICES */
    int16_t office_cost[D18_MAX_FRONT_OFFICES];
    int line;
} d18_front;

/* Lupin's Lipids / Blundell Transfusions: start city and office space
 * (yellow band, not a home space), and the monster type of the copy each
 * receives at setup (LL: not a nurse type; BT: a nurse type; R114). */
typedef struct d18_minor {
    uint8_t city;
    uint8_t space;
    uint8_t monster;
    int line;
} d18_minor;

typedef struct d18_monster {
    char id[D18_ID_CAP];
    char name[D18_NAME_CAP];
    uint8_t copies;   /* 1..D18_MAX_COPIES */
    uint8_t phase;    /* 1..5, or 0 for a nurse type */
    int16_t price;    /* >= 1 */
    uint8_t eaten;    /* phase 2..5 in which it is eaten (> phase), or 0 = permanent */
    uint8_t move;     /* d18_move */
    uint8_t n;        /* N for dit/city/major; 0 otherwise */
    int16_t town_rev; /* pts per town on its route (R66), >= 0 */
    uint8_t exports;  /* may end at off-boards (not home/howl/city) */
    uint8_t linger;   /* L >= 0 (0 for home/howl) */
    uint8_t cf;       /* D18_CF_* */
    uint16_t flags;   /* D18_F_* */
    /* Derived: copies are numbered 0..n_copies-1 over the whole roster, the
     * copies of type t being first_copy .. first_copy + copies - 1. */
    uint8_t first_copy;
    int line;
} d18_monster;

typedef struct d18_cell {
    int16_t price; /* 0: no cell here */
    uint8_t zone;  /* d18_zone */
    uint8_t par;   /* a par cell (white, R24) */
} d18_cell;

typedef struct d18_board {
    char title[D18_NAME_CAP]; /* the file's `title` */

    uint8_t n_locations, n_cities, n_towns, n_offs;
    d18_location loc[D18_MAX_LOCATIONS];

    uint8_t n_routes;
    d18_route route[D18_MAX_ROUTES];
    uint8_t castle_start; /* route index of the castle's start space */

    d18_front front[D18_NUM_FRONTS];
    d18_minor ll, bt;

    /* Cubes (R43, R44): count of each colour (yellow includes the tracker
     * cube), and the cubes of each colour entering the supply when phase
     * p+1 starts, at release[p][colour] (release[0] and every yellow entry
     * are 0: the yellow cubes are in the supply from the start). */
    int16_t cubes[D18_NUM_COLOURS];
    int16_t release[D18_NUM_PHASES][D18_NUM_COLOURS];

    /* Phase chart (§7.1, R37): S(P) for phases 1..4 at sales[0..3]
     * (sales[4] = 0: the tracker stops in phase 5), monster limit and ORs
     * per set for phases 1..5. */
    int16_t sales[D18_NUM_PHASES];
    uint8_t limit[D18_NUM_PHASES];
    uint8_t ors[D18_NUM_PHASES];

    /* Market (R107): cell[row][col], row 0 at the top; price 0 = no cell.
     * market_rows/market_cols bound the rows and columns that hold cells.
     * The par cells, by ascending price (pairwise different, R24). */
    uint8_t market_rows, market_cols;
    d18_cell cell[D18_MAX_MARKET_ROWS][D18_MAX_MARKET_COLS];
    uint8_t n_par;
    uint8_t par_row[D18_MAX_PAR], par_col[D18_MAX_PAR];

    /* Money (R4, R5) and the associates' list prices (§9): the rules'
     * numbers unless the file gives others.  bank: the bank at the start
     * (12,000); start_cash[N]: each player's starting money at a table of
     * N = 2..6 players (2,400 / N); assoc_price[a]: associate a's price in
     * the rules' order (30, 50, 60, 80, 100, 115, 180), never falling along
     * that order, since the auction sells them in it (§4.1). */
    int32_t bank;
    int32_t start_cash[D18_BOARD_MAX_PLAYERS + 1];
    int16_t assoc_price[D18_BOARD_ASSOCS];

    /* Monster roster in file order (§13.6). */
    uint8_t n_monsters;
    uint8_t n_copies; /* copies of all types, <= D18_MAX_MONSTER_COPIES */
    d18_monster monster[D18_MAX_MONSTER_TYPES];
    /* Derived: the type of each copy (the inverse of first_copy). */
    uint8_t copy_type[D18_MAX_MONSTER_COPIES];

    /* Derived: location indexes sorted by id (for d18_board_find_location). */
    uint8_t loc_by_id[D18_MAX_LOCATIONS];
} d18_board;

/* Parses and validates a board file.  `text` need not be NUL-terminated;
 * `file_name` is used in messages only (NULL: "board").  On success fills
 * *out and returns CR_OK; otherwise returns CR_ERR_PARSE (malformed text) or
 * CR_ERR_INVALID (well-formed, breaks a rule of §14.1), zeroes *out and
 * writes "FILE:LINE: what is wrong" into err.  Allocates nothing; uses about
 * 4 KiB of stack besides *out. */
CR_MUST_CHECK cr_status d18_board_parse(const char *text, size_t len, const char *file_name,
                                        d18_board *out, char *err, size_t errcap);

/* Sets b's bank, starting money and associates' prices to the rules'
 * (R4: 12,000; R5: 2,400 / N; §9's list prices), what a file that leaves
 * them out gets. */
void d18_board_rule_money(d18_board *b);

/* The bundled board (src/games/18dracula/boards/medieval.board, compiled
 * in), parsed once on first use (thread-safe, pthread_once).  Never NULL:
 * the bundled board is checked by the tests, and a build whose bundled
 * board does not parse aborts with the message on first use. */
const d18_board *d18_board_builtin(void);
/* Its bytes (NUL-terminated; len without the NUL) and their FNV-1a 64 hash,
 * the same hash the core gives a board file (g->data_hash). */
const char *d18_board_builtin_text(size_t *len);
uint64_t d18_board_builtin_hash(void);

/* Lookups by id (exact, case-sensitive); -1 when there is none. */
int d18_board_find_location(const d18_board *b, const char *id);
int d18_board_find_monster(const d18_board *b, const char *id);
int d18_board_find_front(const d18_board *b, const char *id);
/* The route space joining locations a and b (either order), or -1. */
int d18_board_find_route(const d18_board *b, int a, int b2);

/* Revenue of city `loc` at `level` (§8.5). */
static inline int d18_city_value(const d18_board *b, int loc, int level)
{
    return b->loc[loc].city_val[level];
}
/* Revenue of off-board `loc` in `phase` 1..5 (§8.9.4). */
static inline int d18_off_value(const d18_board *b, int loc, int phase)
{
    return b->loc[loc].off_rev[phase - 1];
}
/* The other end of route space r seen from location `from`. */
static inline int d18_route_other(const d18_board *b, int r, int from)
{
    return b->route[r].a == from ? b->route[r].b : b->route[r].a;
}
/* The market cell at (row, col), or NULL where there is none (R107: a move
 * to a missing cell does not happen). */
static inline const d18_cell *d18_market_cell(const d18_board *b, int row, int col)
{
    if (row < 0 || row >= D18_MAX_MARKET_ROWS || col < 0 || col >= D18_MAX_MARKET_COLS) return NULL;
    return b->cell[row][col].price > 0 ? &b->cell[row][col] : NULL;
}

/* Names of the enum values as the board file spells them. */
const char *d18_colour_name(int colour); /* "Y" "G" "B" "R" */
const char *d18_move_name(int move);     /* "home" "howl" "dit" "city" "major" "inf" */

/* Writes an SVG picture of the board into buf (snprintf semantics: returns
 * the length the whole picture needs; writes at most cap - 1 bytes and a
 * NUL).  Deterministic: the same board gives the same bytes. */
size_t d18_board_svg(const d18_board *b, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
