/* match/view.h — a seat's view of a match as JSON, for any client that
 * speaks JSON (the server's `update`, `history` and stored result; another
 * client could send the same), written into the text kit's growing buffer
 * (croupier/text.h).  Internal to the project for now: the server is its
 * one client.
 *
 * A view shows one seat (or CR_SEAT_PUBLIC) only what the match layer lets
 * that seat see: its observation (the game's obs_to_json), and, when it is
 * the seat to act, its prompt, help and legal actions; events as that seat
 * sees them.  Nothing here reads the true state but cr_match_result's and
 * the achievements' (shown once the game is over).
 */
#ifndef CR_MATCH_VIEW_H
#define CR_MATCH_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "croupier/match.h"
#include "croupier/replay.h"
#include "croupier/text.h"

#if defined(__GNUC__)
#define CR_VIEW_HIDDEN __attribute__((visibility("hidden")))
#else
#define CR_VIEW_HIDDEN
#endif

/* ---- views ---- */

/* Scratch for the views of one game's matches (the observation, the legal
 * list, one rendered piece); reused call after call, never shared between
 * threads.  cr_view_init: 0 when out of memory (fini it anyway). */
typedef struct cr_view {
    void *obs;
    cr_action *legal;
    cr_text tmp; /* one rendered piece */
    /* The help last written, for seat help_seat (-1: none) and the
     * observation help_obs (obs_size bytes).  A game's help is a function
     * of the seat's observation alone (parts.h), so while the observation
     * stays the same the text is reused: a client that asks for its view
     * again and again (the server's `sit`) costs a comparison, not the
     * game's help, which may run route searches (milliseconds). */
    void *help_obs;
    size_t obs_size;
    int help_seat;
    cr_text help;
} cr_view;
CR_VIEW_HIDDEN int cr_view_init(cr_view *v, const cr_game *g);
CR_VIEW_HIDDEN void cr_view_fini(cr_view *v);

/* The view of `seat` (a seat or CR_SEAT_PUBLIC) as members of a JSON
 * object, appended to b: "game", "seat" (with "decision"), "to_act",
 * "your_turn", "over", "observation", "annals" (only a game that keeps
 * them: parts.h), "prompt", "help", "actions", "seq"
 * (the event count), "seats" and, once over, "result".  A human seat is
 * shown "taken" when its bit is set in `taken` (the server: a client holds
 * its token). */
CR_VIEW_HIDDEN void cr_view_json(cr_view *v, const cr_match *m, int seat, uint32_t taken,
                                 cr_text *b);
/* The result as a JSON object: scores, ranks, winners, ended_by (rules,
 * resign, timeout) and each seat's achievements. */
CR_VIEW_HIDDEN void cr_view_result_json(const cr_match *m, cr_text *b);
/* Appends ,"achievements":[[{"key":..,"title":..,"words":..}, ...] per
 * seat] for the state st of a game g that is over (empty lists for a game
 * that did not end by its rules: a resignation): the list a result and a
 * replay's last step both carry (docs/protocol.md). */
CR_VIEW_HIDDEN void cr_view_achievements_json(cr_text *b, const cr_game *g, const void *st);
/* Step `step` of the finished match that the replay cursor cur was made
 * over (croupier/replay.h), for view `seat` (a seat or CR_SEAT_PUBLIC), as
 * members of a JSON object appended to b (the server's `replay`):
 *   "step":K,"steps":N,"players":P,"actor":A|null,"to_act":S|null,
 *   "observation":{...},"annals":{...},"events":[{"seq":..,...}],"seq":E
 * (actor: who chose action K-1; annals: the game's, up to step K, for a
 * game that keeps them; events: those it produced, as the view sees them;
 * seq: the event count after it) and, at the last step, the
 * achievements.  Moves the cursor to the step (cheap from its checkpoints
 * or the last step shown; may apply up to a checkpoint interval of
 * actions, so call it on a full-size stack). */
CR_VIEW_HIDDEN void cr_view_step_json(cr_view *v, cr_replay *cur, int step, int seat, cr_text *b);
/* Events since..since+max (fewer when the log ends) as `seat` sees them:
 * JSON array items {"seq":N,...} separated by commas, appended to b. */
CR_VIEW_HIDDEN void cr_view_events_json(cr_view *v, const cr_match *m, int seat, uint32_t since,
                                        int max, cr_text *b);

#endif
