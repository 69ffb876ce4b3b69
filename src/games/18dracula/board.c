/* board.c — 18Dracula board files: parsing, validation, lookups.
 * (First skeleton: lookups; the parser follows.) */
#include "games/18dracula/board.h"

#include <stdio.h>
#include <string.h>

static const char *const colour_names[D18_NUM_COLOURS] = {"Y", "G", "B", "R"};
static const char *const move_names[] = {"home", "howl", "dit", "city", "major", "inf"};

const char *d18_colour_name(int colour)
{
    return colour >= 0 && colour < D18_NUM_COLOURS ? colour_names[colour] : "-";
}

const char *d18_move_name(int move)
{
    return move >= 0 && move <= D18_MOVE_INF ? move_names[move] : "?";
}

cr_status d18_board_parse(const char *text, size_t len, const char *file_name, d18_board *out,
                          char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    (void)text;
    (void)len;
    if (err && errcap)
        snprintf(err, errcap, "%s: the board parser is not written yet",
                 file_name ? file_name : "board");
    return CR_ERR_UNSUPPORTED;
}

int d18_board_find_location(const d18_board *b, const char *id)
{
    int lo = 0, hi = b->n_locations - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        int c = strcmp(b->loc[b->loc_by_id[mid]].id, id);
        if (c == 0) return b->loc_by_id[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

int d18_board_find_monster(const d18_board *b, const char *id)
{
    for (int i = 0; i < b->n_monsters; i++)
        if (strcmp(b->monster[i].id, id) == 0) return i;
    return -1;
}

int d18_board_find_front(const d18_board *b, const char *id)
{
    for (int i = 0; i < D18_NUM_FRONTS; i++)
        if (strcmp(b->front[i].id, id) == 0) return i;
    return -1;
}

int d18_board_find_route(const d18_board *b, int a, int b2)
{
    if (a < 0 || a >= b->n_locations) return -1;
    const d18_location *l = &b->loc[a];
    for (int i = 0; i < l->n_adj; i++)
        if (d18_route_other(b, l->adj[i], a) == b2) return l->adj[i];
    return -1;
}
