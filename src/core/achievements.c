/* achievements.c — a finished game's achievements in words, for the C
 * clients (line mode, the full-screen client, the replay viewer): the keys
 * come from the game's achievements part, the words from its list
 * (croupier/parts.h).  No state of its own. */
#include "croupier/parts.h"

size_t cr_achievements_text(const cr_game *g, const void *st, char *buf, size_t cap)
{
    const cr_game_parts *parts = cr_parts(g);
    size_t len = 0;
    if (cap) buf[0] = '\0';
    if (parts->achievements == NULL) return 0;
    for (int seat = 0; seat < g->num_players; seat++) {
        const char *keys[64];
        int n = parts->achievements(g, st, seat, keys, 64);
        for (int i = 0; i < n; i++) {
            const cr_achievement *a =
                cr_achievement_find(parts->achievement_list, parts->n_achievements, keys[i]);
            int k = a ? snprintf(len < cap ? buf + len : NULL, len < cap ? cap - len : 0,
                                 "P%d %s: %s\n", seat, a->title, a->words)
                      : snprintf(len < cap ? buf + len : NULL, len < cap ? cap - len : 0,
                                 "P%d %s\n", seat, keys[i]);
            if (k > 0) len += (size_t)k;
        }
    }
    return len;
}
