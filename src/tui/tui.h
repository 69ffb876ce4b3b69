/* tui.h — the full-screen client (ncursesw): `croupier play` and `croupier
 * replay` open it when stdin and stdout are terminals (the CLI keeps line
 * mode with --plain or when either is not a terminal).
 *
 * It is a client of include/croupier/ only and names no game: the table is
 * the game's `panels` part (parts.h) of the viewing seat's observation (a
 * game without it gets its obs_to_text), the menu is the legal actions'
 * cr_match_action_json labels and groups, the log is cr_match_event_text
 * for the viewing seat (at a decision summarised by cr_log_summary,
 * log_summary.h), `?` shows cr_match_help.  Every screen is built from
 * one seat's view: with two or more human seats a privacy screen hides the
 * table between seats and each human's log holds only what that seat may
 * see; bots' moves are shown in the public view then.
 *
 * Keys: see tui_keys_text (also in README.md and docs/clients.md).
 */
#ifndef CROUPIER_TUI_H
#define CROUPIER_TUI_H

#include <stddef.h>

#include "croupier/match.h"

typedef struct tui_options {
    int ascii;             /* 1: ASCII only (also chosen when the locale is not UTF-8) */
    int pace_ms;           /* pause after each bot's move (0: none); keys + and - change it */
    const char *save_path; /* --save: written after each human decision, on `s` and on quit */
    /* Out (may be NULL): the file holding the game when tui_play returns
     * (--save or a path given to `s`), "" when it is saved nowhere (never
     * saved, or its last save failed). */
    char *saved_to;
    size_t saved_cap;
    long analyse_iters; /* the replay viewer's coach: search iterations a decision (0: 300) */
} tui_options;

enum {
    TUI_OVER = 0,     /* the match ended (the final screen was shown) */
    TUI_STOPPED = 1,  /* the user quit; the match goes on from its record */
    TUI_FAILED = -1,  /* err says why (a save failed, the game could not go on) */
    TUI_NO_TERM = -2, /* the terminal cannot be driven (err says why); nothing was done */
};

/* Plays m at the terminal until it ends or the user quits.  Owns the
 * terminal for the duration (initscr .. endwin).  m stays the caller's. */
int tui_play(cr_match *m, const tui_options *opt, char *err, size_t errcap);

/* Steps through the finished or unfinished match m (loaded from a record)
 * move by move, forwards and backwards, in `view`'s eyes (a seat or
 * CR_SEAT_PUBLIC; `v` switches).  TUI_OVER, or TUI_FAILED with err. */
int tui_replay(cr_match *m, int view, const tui_options *opt, char *err, size_t errcap);

/* The keys of tui_play, one per line (for --help and the help window). */
extern const char tui_keys_text[];

#endif
