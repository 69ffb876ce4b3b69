/* croupier/session.h — what each seat at a shared screen is shown, for
 * every terminal client (the line-mode `play`, the full-screen client):
 * readable summaries of the event log, per-seat "since your last turn"
 * bookkeeping, the privacy hand-over between humans on one screen, and an
 * undo that never takes back another human's decision.  Game-agnostic: it
 * knows the match layer (match.h) and the events' text, never a game.
 *
 * Summaries.  cr_session_summarize is croupier/log_summary.h's summary (grouped
 * by who acted, like lines merged, items packed "; "-separated) packed up to
 * CR_SESSION_SUMMARY_WIDTH bytes a line, the width line mode has always used.
 * Verbose mode keeps one line per event.  Every line is the event's text as
 * the viewing seat may know it, so a summary never names a card the view
 * cannot see.
 *
 * The screen.  `owner` is the human whose view is on the screen; with two
 * or more humans a hand-over (a privacy screen) comes before another human
 * sees it.  The line mode uses all of this; the full-screen client draws
 * its own log pane and uses the views, the owner and the hand-over.
 *
 * Not on the hot path: summaries allocate their working text. */
#ifndef CROUPIER_SESSION_H
#define CROUPIER_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "croupier/match.h"
#include "croupier/text.h"

#ifdef __cplusplus
extern "C" {
#endif
/* The library exports what this header declares (CMakeLists.txt builds it
 * with every other symbol hidden). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

enum { CR_SESSION_SUMMARY_WIDTH = 96 };

/* The texts below are appended to a cr_text (croupier/text.h): lines
 * ending in '\n', its oom flag set when memory ran out (the text is cut). */

/* Appends to out the summary of events [from, to) of m's log as `view`
 * (a seat, CR_SEAT_PUBLIC or CR_SEAT_OMNISCIENT) may know them, each line
 * starting with indent; verbose: one line per event.  Nothing for an empty
 * range.  Returns the number of events rendered (non-empty texts). */
int cr_session_summarize(const cr_match *m, uint32_t from, uint32_t to, int view, int verbose,
                         const char *indent, cr_text *out);

/* One terminal shared by the seats of a match. */
typedef struct cr_session {
    cr_match *m;
    int verbose;
    int n_humans;
    int owner;                     /* the human whose view is on the screen, -1: nobody's */
    uint32_t seen[CR_MAX_PLAYERS]; /* per seat: events [0, seen) already shown to it */
    uint32_t table_seen;           /* events shown to the whole table */
} cr_session;

/* Starts a session on m: everything already in the log counts as shown
 * (a resumed game starts from where it was loaded). */
void cr_session_init(cr_session *s, cr_match *m, int verbose);
/* The view of lines meant for the whole table: the omniscient log when no
 * human plays, the human's own with one human, the public view with two or
 * more (nobody's private cards on a shared screen). */
int cr_session_table_view(const cr_session *s);
/* Whether a privacy hand-over must come before `seat` sees the screen:
 * two or more humans and the screen shows someone else's view. */
int cr_session_needs_handover(const cr_session *s, int seat);
/* The hand-over's text (no newline): "Pass the screen to P1 and press Enter". */
void cr_session_handover_text(const cr_session *s, int seat, char *buf, size_t cap);
/* `seat` now owns the screen (-1: nobody does; the next human to see it
 * gets a hand-over first). */
void cr_session_take_screen(cr_session *s, int seat);
/* Appends what `seat` has not been shown yet, in its view, headed
 * "since your last turn:" (nothing when there is nothing new), and marks it
 * shown to that seat. */
void cr_session_catch_up(cr_session *s, int seat, cr_text *out);
/* Appends the events of the table since the table last saw them, in the
 * table's view, and marks them shown to the table (and to every seat when
 * that view is a seat's own). */
void cr_session_table_lines(cr_session *s, cr_text *out);
/* Takes back seat's previous decision (cr_match_undo), unless another
 * human seat decided since (cr_match_undo_blocker, the one undo rule:
 * undoing would take back their decision too): then CR_ERR_INVALID naming
 * that seat.  Keeps the seen counters inside the
 * shortened log. */
cr_status cr_session_undo(cr_session *s, int seat, char *err, size_t errcap);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif
