/* session.h — what each seat at a shared terminal is shown, for every
 * terminal client (the line-mode `play`, the full-screen client, `replay`):
 * readable summaries of the event log, per-seat "since your last turn"
 * bookkeeping, the privacy hand-over between humans on one screen, and an
 * undo that never takes back another human's decision.  Game-agnostic: it
 * knows the match layer (match.h) and the events' text, never a game.
 *
 * Summaries.  cli_summarize is croupier/log_summary.h's summary (grouped
 * by who acted, like lines merged, items packed "; "-separated) packed up to
 * CLI_SUMMARY_WIDTH bytes a line, the width line mode has always used.
 * Verbose mode keeps one line per event.  Every line is the event's text as
 * the viewing seat may know it, so a summary never names a card the view
 * cannot see. */
#ifndef CROUPIER_CLI_SESSION_H
#define CROUPIER_CLI_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "croupier/match.h"
#include "croupier/text.h"

enum { CLI_SUMMARY_WIDTH = 96 };

/* The texts below are appended to a cr_text (croupier/text.h): lines
 * ending in '\n', its oom flag set when memory ran out (the text is cut). */

/* Appends to out the summary of events [from, to) of m's log as `view`
 * (a seat, CR_SEAT_PUBLIC or CR_SEAT_OMNISCIENT) may know them, each line
 * starting with indent; verbose: one line per event.  Nothing for an empty
 * range.  Returns the number of events rendered (non-empty texts). */
int cli_summarize(const cr_match *m, uint32_t from, uint32_t to, int view, int verbose,
                  const char *indent, cr_text *out);

/* One terminal shared by the seats of a match. */
typedef struct cli_session {
    cr_match *m;
    int verbose;
    int n_humans;
    int owner;                     /* the human whose view is on the screen, -1: nobody's */
    uint32_t seen[CR_MAX_PLAYERS]; /* per seat: events [0, seen) already shown to it */
    uint32_t table_seen;           /* events shown to the whole table */
} cli_session;

/* Starts a session on m: everything already in the log counts as shown
 * (a resumed game starts from where it was loaded). */
void cli_session_init(cli_session *s, cr_match *m, int verbose);
/* The view of lines meant for the whole table: the omniscient log when no
 * human plays, the human's own with one human, the public view with two or
 * more (nobody's private cards on a shared screen). */
int cli_session_table_view(const cli_session *s);
/* Whether a privacy hand-over must come before `seat` sees the screen:
 * two or more humans and the screen shows someone else's view. */
int cli_session_needs_handover(const cli_session *s, int seat);
/* The hand-over's text (no newline): "Pass the screen to P1 and press Enter". */
void cli_session_handover_text(const cli_session *s, int seat, char *buf, size_t cap);
/* `seat` now owns the screen. */
void cli_session_take_screen(cli_session *s, int seat);
/* Appends what `seat` has not been shown yet, in its view, headed
 * "since your last turn:" (nothing when there is nothing new), and marks it
 * shown to that seat. */
void cli_session_catch_up(cli_session *s, int seat, cr_text *out);
/* Appends the events of the table since the table last saw them, in the
 * table's view, and marks them shown to the table (and to every seat when
 * that view is a seat's own). */
void cli_session_table_lines(cli_session *s, cr_text *out);
/* Takes back seat's previous decision (cr_match_undo), unless another
 * human seat decided since (undoing would take back their decision too):
 * then CR_ERR_INVALID with the reason.  Keeps the seen counters inside the
 * shortened log. */
cr_status cli_session_undo(cli_session *s, int seat, char *err, size_t errcap);

#endif
