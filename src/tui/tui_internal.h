/* tui_internal.h — what the full-screen client's files share (src/tui):
 * the client's state, the menu's items, and the drawing and window
 * functions.  tui.c holds the screen, the menu and the play loop;
 * windows.c the full-screen windows (log, table, map, spreadsheet, guide,
 * help, achievements); replay.c the replay viewer. */
#ifndef CROUPIER_TUI_INTERNAL_H
#define CROUPIER_TUI_INTERNAL_H

#include <ncurses.h>
#include <stddef.h>
#include <stdint.h>

#include "croupier/session.h"
#include "croupier/text.h"
#include "tui/tui.h"

#if defined(__GNUC__)
#define TUI_HIDDEN __attribute__((visibility("hidden")))
#else
#define TUI_HIDDEN
#endif

enum {
    MIN_LEFT = 44,
    MIN_RIGHT = 24,
    LOG_MIN_ROWS = 4,
    MENU_MIN_ROWS = 10,
    LABEL_MAX = 200,
    GROUP_MAX = 24
};

typedef struct item {
    char label[LABEL_MAX];
    char group[GROUP_MAX];
    char key;    /* the game's suggested letter for the group, or 0 */
    char letter; /* the letter given to the group, on its first item; or 0 */
    /* an action that chooses an amount (its JSON "amount"): the range any
     * amount may be typed in, and the notation, whose amount is last */
    int amount, amin, amax, astep;
    char text[96];
} item;

typedef struct tui {
    cr_match *m;
    const cr_game *g;
    void *obs;
    cr_action *legal;
    item *items;
    int n_items, sel;
    char letter_of_group[64][GROUP_MAX]; /* letter -> group, by index below */
    char letters[64];                    /* letters assigned, in menu order */
    int n_letters;
    cr_text text; /* the table's panel text */
    int utf8, color, pace_ms;
    cr_session ses; /* the views of a shared screen, whose it is, the hand-over */
    char save_path[1024];
    uint32_t anchor[CR_MAX_PLAYERS];   /* a seat's log starts here */
    uint32_t last_sub[CR_MAX_PLAYERS]; /* event count after the seat's last decision */
    int prev_actor;                    /* who made the last move (seat, CR_CHANCE, -99 none) */
    char msg[512];                     /* one-shot message for the last row */
    int footer_rows;                   /* rows under the body: 1, or 2 on the final screen */
    int replay;                        /* replay mode: no menu */
    int bot;                           /* the bot seat whose move is shown */
    int log_summary;                   /* the log pane summarises (a decision, the end) */
} tui;

enum { ST_PLAIN = 0, ST_EMPH, ST_DIM, ST_GOOD, ST_BAD, ST_ATTN, ST_A1, ST_A2, ST_A3, ST_A4 };

TUI_HIDDEN int draw_text(const tui *t, int y, int x, int width, int max_rows, const char *s,
                         size_t len, int markup, attr_t base, int indent);
TUI_HIDDEN void fill_row(int y, int x, int w, attr_t a);
TUI_HIDDEN void draw_str(const tui *t, int y, int x, int w, const char *s, attr_t a);
TUI_HIDDEN size_t table_text(tui *t, const void *obs);
TUI_HIDDEN int draw_table(tui *t, size_t len, int left, int cols, int rx, int rw, int body,
                          int right_max);
TUI_HIDDEN int table_width(int W, int *cols);
TUI_HIDDEN void draw_header(tui *t, int view, const char *extra);
TUI_HIDDEN const char *view_name(int view, char *buf, size_t cap);
TUI_HIDDEN void text_window(tui *t, const char *title, const char *text, size_t len, int markup,
                            int start_at_end);
TUI_HIDDEN void log_window(tui *t, int view);
TUI_HIDDEN void map_window(tui *t, const void *obs, uint32_t upto);
TUI_HIDDEN void sheet_window(tui *t, const void *obs, uint32_t upto);
TUI_HIDDEN void table_window(tui *t, int view);
TUI_HIDDEN void achievements_window(tui *t, const void *st);
TUI_HIDDEN void guide_window(tui *t);
TUI_HIDDEN void help_window(tui *t, int seat);
TUI_HIDDEN int term_start(tui *t, const tui_options *opt, char *err, size_t errcap);
TUI_HIDDEN int tui_init(tui *t, cr_match *m, const tui_options *opt, char *err, size_t errcap);
TUI_HIDDEN void tui_fini(tui *t);
TUI_HIDDEN void draw_log(tui *t, int view, uint32_t from, const char *title, int y, int x, int w,
                         int h);
TUI_HIDDEN attr_t style_attr(const tui *t, int st);

#endif
