/* registry.c — the table of games croupier knows (cf. Redis redisTests[]).
 * Adding a game is one line here plus its sources under src/games/<name>/.
 * The table is constant: it is safe to read from any thread. */
#include <string.h>

#include "croupier/game.h"

extern const cr_game_def dml_def; /* src/games/dml/rules.c */
extern const cr_game_def d18_def; /* src/games/18dracula/rules.c */

static const cr_game_def *const games[] = {
    &dml_def,
    &d18_def,
};

int cr_registry_count(void) { return (int)(sizeof games / sizeof games[0]); }

const cr_game_def *cr_registry_get(int i)
{
    if (i < 0 || i >= cr_registry_count()) return NULL;
    return games[i];
}

const cr_game_def *cr_registry_find(const char *name)
{
    if (name == NULL) return NULL;
    for (int i = 0; i < cr_registry_count(); i++)
        if (strcmp(games[i]->name, name) == 0) return games[i];
    return NULL;
}
