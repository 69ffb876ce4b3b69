/* replay_text.h — a recorded game in the line mode's words, move by move,
 * as one view sees it: what `croupier replay` prints (--log and the line
 * stepper) at the step of a replay cursor (croupier/replay.h).
 * Game-agnostic: the record, the match's event log and the game's
 * renderers only.
 *
 * Views.  CR_SEAT_OMNISCIENT is the open view: every card face up, each
 * move with its notation (the record holds every card anyway; it is the
 * owner's file).  A seat's view, or CR_SEAT_PUBLIC, shows each move only
 * through its events rendered for that view, plus the notation of the
 * seat's own decisions, so a hidden card stays hidden. */
#ifndef CROUPIER_CLI_REPLAY_TEXT_H
#define CROUPIER_CLI_REPLAY_TEXT_H

#include "croupier/replay.h"
#include "croupier/text.h"

/* Appends the move the cursor just passed (move at-1), numbered from 1:
 * "  12. P3 (heuristic): buy", its events one per line, and the marks
 * recorded before it (a resignation, a new player).  Nothing at 0. */
void cli_replay_move(cr_replay *r, int view, cr_text *out);
/* Appends the marks recorded after the last move (at the last step only). */
void cli_replay_tail_marks(const cr_replay *r, cr_text *out);
/* Appends the view of the position at the cursor (the game's obs_to_text). */
void cli_replay_position(const cr_replay *r, int view, cr_text *out);

#endif
