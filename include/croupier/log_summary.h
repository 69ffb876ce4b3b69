/* croupier/log_summary.h — the event log in words for people: what
 * happened in a range of a match's log, grouped by who acted and packed
 * into lines of a given width.  Every terminal client uses it (the
 * line-mode "since your last turn", the full-screen client's log pane), so
 * a summary reads the same everywhere and is written once.  Game-agnostic:
 * it knows the match layer and the events' text, never a game.
 *
 * Groups.  The events are grouped by who acted (cr_match_actor): a seat's
 * decisions and the chance results that follow them form one group,
 * headed "P3 (heuristic):" ("P0 (you):" for the viewing seat, "Chance:" for
 * chance before any seat acted).  Inside a group, identical lines are
 * counted ("a card dealt to P1's Hand ×2"), lines that differ only in
 * their first word or two are merged ("2S, 3C dealt to P0's Hand"), and
 * the resulting items are packed "; "-separated into lines of
 * at most `width` columns (an item wider than that gets a line of its own).
 * With `wrap` (a narrow screen pane), a group's items flow as one
 * paragraph, "; "-separated, broken at spaces into lines of `width`, so no
 * line is wider (only a single word wider than a line is cut) and no row
 * is left half empty; `inline_headers` starts the paragraph with the
 * group's header ("P1 (heuristic): P1: buy; ...") to save a row a group.
 * `drop_actor` leaves out the seat's name where a line of its own group
 * echoes its decision ("P1: buy" reads "buy" after "P1 (heuristic):"); a
 * line with the seat as its subject keeps it ("P1 scores 34 VP": a group
 * may hold other seats' lines too), for a pane with no room to spare.  Verbose: one item per event,
 * no merging; with wrap each event its own paragraph (and headers on their own lines).
 *
 * Privacy.  Every line is the event's text as the viewing seat may know it
 * (cr_match_event_text), so a summary never names a card the view cannot
 * see.
 *
 * Output.  Lines, each ending in '\n', go to emit(ctx, text, len) in order.
 * A group's header is `indent` then the header; its lines are `indent`
 * plus two spaces (an inline header's line is `indent` then the header and
 * the first items).  Not on the hot path: it allocates its working buffers. */
#ifndef CROUPIER_LOG_SUMMARY_H
#define CROUPIER_LOG_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include "croupier/match.h"

#ifdef __cplusplus
extern "C" {
#endif
/* The library exports what this header declares (CMakeLists.txt builds it
 * with every other symbol hidden). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

typedef void (*cr_log_emit)(void *ctx, const char *text, size_t len);

typedef struct cr_log_summary_opts {
    int width;          /* columns of a line, indent included (< 1: no packing limit) */
    int utf8_columns;   /* 0: a column is a byte; 1: a UTF-8 character (a screen's cell) */
    int wrap;           /* 1: a group flows as a paragraph broken at spaces (see above) */
    int verbose;        /* 1: one line per event */
    int inline_headers; /* with wrap: a group's paragraph starts with its header */
    int drop_actor;     /* "P1: buy" reads "buy" in P1's group (see above) */
    const char *indent; /* before every line (NULL: none) */
} cr_log_summary_opts;

/* Emits the summary of events [from, to) of m's log as `view` (a seat,
 * CR_SEAT_PUBLIC or CR_SEAT_OMNISCIENT) may know them.  Nothing for an
 * empty range.  Returns the number of events summarised (those with a
 * non-empty text); *oom (when not NULL) is set to 1 if memory ran out and
 * the summary is incomplete. */
int cr_log_summary(const cr_match *m, uint32_t from, uint32_t to, int view,
                   const cr_log_summary_opts *opts, cr_log_emit emit, void *ctx, int *oom);

/* The columns of s[0..len) as opts counts them (bytes, or UTF-8 characters). */
size_t cr_log_columns(const cr_log_summary_opts *opts, const char *s, size_t len);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif
