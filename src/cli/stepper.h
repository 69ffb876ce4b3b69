/* stepper.h — a cursor over a recorded game, move by move, forwards and
 * backwards, as one view sees it: what `croupier replay` prints (--log, the
 * line-mode stepper) and what the full-screen client's replay shows.
 * Game-agnostic: the record, the match's event log and the game's
 * renderers only.
 *
 * Views.  CR_SEAT_OMNISCIENT is the open view: every card face up, each
 * move with its notation (the record holds every card anyway; it is the
 * owner's file).  A seat's view, or CR_SEAT_PUBLIC, shows each move only
 * through its events rendered for that view, plus the notation of the
 * seat's own decisions, so a hidden card stays hidden. */
#ifndef CROUPIER_CLI_STEPPER_H
#define CROUPIER_CLI_STEPPER_H

#include "croupier/match.h"
#include "croupier/session.h"

typedef struct cli_stepper {
    const cr_match *m; /* the loaded record (borrowed): its log and actors */
    const cr_game *g;
    int view;
    int n;           /* moves in the record */
    int at;          /* the cursor: st is the state after moves [0, at) */
    void *st, *prev; /* prev: the state before move at-1 (at > 0) */
    void *obs;
    cr_ctx *cx;
    uint32_t *ev_start; /* ev_start[i]: the first log event of move i; [n]: the log's length */
} cli_stepper;

/* A cursor at the start of m's record (m must outlive it).  CR_ERR_NOMEM. */
cr_status cli_stepper_init(cli_stepper *sp, const cr_match *m, int view) CR_MUST_CHECK;
void cli_stepper_fini(cli_stepper *sp);
/* Moves the cursor to k, clamped to [0, n] (forwards one move at a time,
 * backwards by replaying from the start). */
void cli_stepper_goto(cli_stepper *sp, int k);
/* Appends the move the cursor just passed (move at-1), numbered from 1:
 * "  12. P3 (heuristic): buy", its events one per line, and the marks
 * recorded before it (a resignation, a new player).  Nothing at 0. */
void cli_stepper_move(const cli_stepper *sp, cr_text *out);
/* Appends the marks recorded after the last move (at == n only). */
void cli_stepper_tail_marks(const cli_stepper *sp, cr_text *out);
/* Appends the view of the position at the cursor (the game's obs_to_text). */
void cli_stepper_position(cli_stepper *sp, cr_text *out);

#endif
