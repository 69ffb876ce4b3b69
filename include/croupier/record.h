/* croupier/record.h — game records: the game, its table (variant, players,
 * options, data hash, rules version), the seats, the secret seed and every
 * action in order (chance outcomes included), as text (docs/records.md).
 *
 *   # croupier record: TITLE
 *   game NAME
 *   rules 1
 *   variant VARIANT
 *   players 4
 *   option KEY VALUE
 *   seed 42
 *   seat 0 human
 *   seat 1 ismcts:iters=1000
 *   hints allowed   (only when the table agreed to hints at its creation)
 *   actions
 *   ACTION (in the game's notation, one a line)
 *   ! resign 2
 *   ...
 *
 * A record may be unfinished; loading it resumes the game where it stopped.
 * Lines starting with '!' are marks: what the match did besides game
 * actions (a resignation, a timeout, a bot taking a seat, the end). */
#ifndef CROUPIER_RECORD_H
#define CROUPIER_RECORD_H

#include <stdio.h>

#include "croupier/game.h"

#ifdef __cplusplus
extern "C" {
#endif
/* The library exports what this header declares (CMakeLists.txt builds it
 * with every other symbol hidden). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

enum { CR_RECORD_SPEC_MAX = 128, CR_RECORD_OPT_MAX = 512 };

/* Marks: what the match records between actions. */
typedef enum cr_mark_kind {
    CR_MARK_RESIGN = 1, /* `! resign 2`: seat 2 resigned */
    CR_MARK_TIMEOUT,    /* `! timeout 2`: seat 2's clock ran out */
    CR_MARK_SEAT,       /* `! seat 2 heuristic`: seat 2 is now played by that spec */
    CR_MARK_END,        /* `! end`: the match ended here (after resignations or timeouts) */
} cr_mark_kind;

typedef struct cr_mark {
    int at; /* the mark comes before actions[at] (at == n_actions: after the last) */
    cr_mark_kind kind;
    int seat; /* -1 for CR_MARK_END */
    char spec[CR_RECORD_SPEC_MAX];
} cr_mark;

typedef struct cr_record {
    char game[32];
    char variant[32];
    int num_players;
    int rules_version; /* the game's rules version the record was made under */
    int n_options;
    char opt_key[CR_MAX_OPTIONS][32];
    char opt_val[CR_MAX_OPTIONS][CR_RECORD_OPT_MAX];
    uint64_t data_hash; /* the game data's content hash, when has_data_hash */
    int has_data_hash;
    uint64_t seed; /* the match's secret seed (chance node i is drawn from (seed, i)) */
    int has_seed;
    int n_seats;                                    /* 0: no seats recorded */
    char seats[CR_MAX_PLAYERS][CR_RECORD_SPEC_MAX]; /* "human" or a bot spec */
    cr_action *actions;                             /* owned */
    int n_actions, cap_actions;
    cr_mark *marks; /* owned, in order */
    int n_marks, cap_marks;
    int hints; /* `hints allowed`: every seat agreed to hints at the table's creation
                  (analysis.h, cr_match_hint) */
} cr_record;

void cr_record_init(cr_record *r);
void cr_record_fini(cr_record *r);
cr_status cr_record_push(cr_record *r, cr_action a) CR_MUST_CHECK;
cr_status cr_record_mark(cr_record *r, cr_mark_kind kind, int seat, const char *spec) CR_MUST_CHECK;
/* Drops the actions from index n on, and the marks after them. */
void cr_record_truncate(cr_record *r, int n);

/* Fills r's header (game, rules, variant, players, options, data hash)
 * from a game; actions, marks, seats and seed are left alone. */
void cr_record_set_game(cr_record *r, const cr_game *g);

/* The parameters r describes; the strings point into r.  `overrides`
 * (may be NULL) replaces recorded options, e.g. a board file's new path. */
void cr_record_params(const cr_record *r, const cr_params *overrides, cr_params *out);

/* Writes the record: the header, then each action's text in the state it was
 * applied to (the game is replayed to produce the text), marks in place. */
cr_status cr_record_write(const cr_record *r, FILE *f, char *err, size_t errcap) CR_MUST_CHECK;

/* Reads and replays a record: on success *g_out is the game (caller frees)
 * and st_out (allocated with cr_alloc, caller frees) the state after the last
 * action; r gets the actions.  `overrides` (may be NULL) replaces recorded
 * options (a data file's path).  The recorded rules version must be the
 * game's (a record without one is version 1), and recorded game data must
 * have the same hash.  On error err names the line and the problem. */
cr_status cr_record_load(const char *text, size_t len, const cr_params *overrides, cr_record *r,
                         cr_game **g_out, void **st_out, char *err, size_t errcap) CR_MUST_CHECK;

/* --- Positions --------------------------------------------------------------
 * A position file is one JSON object: a generic header ("game", "variant",
 * "players", "options", "rules", "data_hash") and the game's own keys
 * (docs/positions.md).  cr_position_load creates the game from the header,
 * then hands the whole text to the game's deserialize, which checks every
 * key (and the game's invariants).  On error err names the key. */
cr_status cr_position_load(const char *text, size_t len, const char *game,
                           const cr_params *overrides, cr_game **g_out, void **st_out, char *err,
                           size_t errcap) CR_MUST_CHECK;
/* `game` (may be NULL) is the game the caller expects: the header's
 * "game" must agree, or name it when the header has none.  Header keys:
 * "rules" (when present, the game's rules version), "variant", "players"
 * (a count, or an array with one entry per seat), "options" (an object of
 * option values; overrides replace them), "data_hash" (16 hex digits: the
 * game data must have this hash). */

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
