/* match/view.h — a seat's view of a match as JSON, for any client that
 * speaks JSON (the server's `update`, `history` and stored result; another
 * client could send the same).  Internal to the project for now: the text
 * it writes into is the growing buffer below, which the text kit of issue
 * 17 (include/croupier/text.h) replaces; the view goes public with it.
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

#if defined(__GNUC__)
#define CR_VIEW_HIDDEN __attribute__((visibility("hidden")))
#define CR_VIEW_PRINTF __attribute__((format(printf, 2, 3)))
#else
#define CR_VIEW_HIDDEN
#define CR_VIEW_PRINTF
#endif

/* ---- a growing text buffer (moved from the server, where replies were
 * built by hand: the game's JSON pieces are spliced in as they come).
 * Zero-initialize it; oom: an allocation failed and the text is incomplete
 * (send nothing).  The caller frees it (cr_jb_free). */
typedef struct cr_jbuf {
    char *p;
    size_t len, cap;
    int oom;
} cr_jbuf;

CR_VIEW_HIDDEN void cr_jb_reserve(cr_jbuf *b, size_t extra);
CR_VIEW_HIDDEN void cr_jb_add(cr_jbuf *b, const char *s, size_t n);
CR_VIEW_HIDDEN void cr_jb_puts(cr_jbuf *b, const char *s);
CR_VIEW_HIDDEN void cr_jb_printf(cr_jbuf *b, const char *fmt, ...) CR_VIEW_PRINTF;
/* s as a JSON string; a byte that does not start a whole UTF-8 sequence is
 * written as U+FFFD (a quoted client text may cut a character, and every
 * frame a server sends must be UTF-8). */
CR_VIEW_HIDDEN void cr_jb_json_str(cr_jbuf *b, const char *s);
CR_VIEW_HIDDEN void cr_jb_reset(cr_jbuf *b);
CR_VIEW_HIDDEN void cr_jb_free(cr_jbuf *b);
/* Whether s[0..n) is well-formed UTF-8 (no overlong form, no surrogate,
 * nothing past U+10FFFF). */
CR_VIEW_HIDDEN int cr_utf8_valid(const char *s, size_t n);

/* ---- views ---- */

/* Scratch for the views of one game's matches (the observation, the legal
 * list, one rendered piece); reused call after call, never shared between
 * threads.  cr_view_init: 0 when out of memory (fini it anyway). */
typedef struct cr_view {
    void *obs;
    cr_action *legal;
    char *tmp;
    size_t tmp_cap;
} cr_view;
CR_VIEW_HIDDEN int cr_view_init(cr_view *v, const cr_game *g);
CR_VIEW_HIDDEN void cr_view_fini(cr_view *v);

/* The view of `seat` (a seat or CR_SEAT_PUBLIC) as members of a JSON
 * object, appended to b: "game", "seat" (with "decision"), "to_act",
 * "your_turn", "over", "observation", "prompt", "help", "actions", "seq"
 * (the event count), "seats" and, once over, "result".  A human seat is
 * shown "taken" when its bit is set in `taken` (the server: a client holds
 * its token). */
CR_VIEW_HIDDEN void cr_view_json(cr_view *v, const cr_match *m, int seat, uint32_t taken,
                                 cr_jbuf *b);
/* The result as a JSON object: scores, ranks, winners, ended_by (rules,
 * resign, timeout) and each seat's achievements. */
CR_VIEW_HIDDEN void cr_view_result_json(const cr_match *m, cr_jbuf *b);
/* Events since..since+max (fewer when the log ends) as `seat` sees them:
 * JSON array items {"seq":N,...} separated by commas, appended to b. */
CR_VIEW_HIDDEN void cr_view_events_json(cr_view *v, const cr_match *m, int seat, uint32_t since,
                                        int max, cr_jbuf *b);

#endif
