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

#include "croupier/analysis.h"
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
    int sec; /* its section in a grouped menu (tui.c, "the menu"), or -1 */
} item;

/* A section of a grouped menu: the game's title and rank (parts.h,
 * menu_section) and how many of the decision's actions it holds. */
typedef struct section {
    char title[64];
    int rank;
    int n;
} section;

typedef struct tui {
    cr_match *m;
    const cr_game *g;
    void *obs;
    cr_action *legal;
    item *items;
    int n_items;
    /* The menu's rows at the level shown: an item's index (>= 0) or a
     * section's as -1 - index.  A flat menu's rows are its items; a grouped
     * one's top level its sections (a section of one item: the item) and
     * the actions of no section, one level down the items of section
     * `open`.  sel: the highlighted row. */
    int *rows;
    int n_rows, sel;
    section *secs;
    int n_secs;
    int grouped;                         /* this decision's menu is grouped */
    int open;                            /* the section open, or -1: the top level */
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

/* The replay viewer's coach (coach.c): one seat's analysis and the texts
 * of each analysed decision's played and best moves. */
typedef struct tui_coach {
    int seat; /* -1: none analysed */
    long iters;
    cr_analysis_entry *e; /* in record order */
    int n;
    cr_analysis_summary sum;
    struct {
        char played[64], best[64];
    } * text;
} tui_coach;
TUI_HIDDEN void tui_coach_clear(tui_coach *c);
/* Analyses `seat` with a progress bar (Esc stops); 1 when done, else 0
 * with msg saying why.  The last row's message either way. */
TUI_HIDDEN int tui_coach_run(tui *t, tui_coach *c, int seat, long iters, char *msg, size_t cap);
/* The entry of the decision at record step `step`, or -1. */
TUI_HIDDEN int tui_coach_at(const tui_coach *c, int step);
/* The coach's line at move k (after step k - 1), into buf. */
TUI_HIDDEN int tui_coach_line(const tui_coach *c, int k, char *buf, size_t cap);
/* The move of the next (dir 1) or previous (dir -1) marked decision from
 * move k, or -1. */
TUI_HIDDEN int tui_coach_jump(const tui_coach *c, int k, int dir);
/* The summary screen; returns the move to go to (a digit), or -1. */
TUI_HIDDEN int tui_coach_summary(tui *t, const tui_coach *c);

#endif
