/* core_internal.h — helpers shared by the files of src/core (game.c,
 * record.c).  Not part of the public API; hidden from shared objects. */
#ifndef CROUPIER_CORE_INTERNAL_H
#define CROUPIER_CORE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "croupier/game.h"
#include "croupier/record.h"

#if defined(__GNUC__)
#define CR_INTERNAL     __attribute__((visibility("hidden")))
#define CR_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CR_INTERNAL
#define CR_PRINTF(f, a)
#endif

/* Upper bound on any list the core builds on its stack (legal actions,
 * chance outcomes): 4096 entries = 16 KiB of actions + 32 KiB of
 * probabilities.  cr_game_new refuses a game whose bounds exceed it. */
enum { CR_CORE_MAX_LIST = 4096 };

/* Longest action text the core reads or writes (record lines, cr_apply_text). */
enum { CR_CORE_MAX_ACTION_TEXT = 256 };

/* Largest game-data file (a board) the core reads: 8 MiB. */
enum { CR_MAX_DATA_FILE = 8 << 20 };

/* snprintf into err (if err && cap), never overflowing. */
CR_INTERNAL void cr_errf(char *err, size_t cap, const char *fmt, ...) CR_PRINTF(3, 4);

/* Parses `text` (surrounding blanks ignored) as an action of the current
 * state and checks it is legal now.  On failure err gets a one-line reason:
 * "unknown action 'x'", "'x' is not legal now (...)", "the game is over". */
CR_INTERNAL cr_status cr_core_parse_action(const cr_game *g, const void *st, const char *text,
                                           cr_action *out, cr_ctx *cx, char *err, size_t errcap);

/* Where cr_core_record_load reads the actions into: begin() gets the game
 * made from the header (and the header read into r) and returns the state
 * to read on, which it owns, its init done (NULL: out of memory); apply()
 * applies action i, already pushed to r, to that state.  A loader that
 * keeps more than the state (the match's log) builds it as the actions are
 * read, so each action is applied once. */
typedef struct cr_record_sink {
    void *ud;
    void *(*begin)(void *ud, cr_game *g, const cr_record *r);
    cr_status (*apply)(void *ud, int i, cr_action a);
} cr_record_sink;

/* cr_record_load, reading the actions into `sink` (NULL: its own state,
 * returned in *st_out).  With a sink *st_out is NULL, and on failure g is
 * freed here even after begin() (the sink must forget it). */
CR_INTERNAL cr_status cr_core_record_load(const char *text, size_t len, const cr_params *overrides,
                                          const cr_record_sink *sink, cr_record *r, cr_game **g_out,
                                          void **st_out, char *err, size_t errcap);

/* 1 if a is a legal action (or a possible chance outcome) of st now. */
CR_INTERNAL int cr_core_is_legal(const cr_game *g, const void *st, cr_action a, cr_ctx *cx);

#endif
