/* registry.c — the table of games croupier knows (cf. Redis redisTests[]).
 * Adding a game is its folder, src/games/NAME/ (its sources, and its
 * game.cmake if it needs build rules of its own), web/games/NAME.* for the
 * browser, and its definition's name on the one line below.  The table is
 * constant: it is safe to read from any thread. */
#include <string.h>

#include "croupier/game.h"

/* The games' definitions (each in its folder's rules.c), in the order
 * `croupier games` lists them. */
#define CR_GAMES(X) X(dml_def) X(d18_def)

#define CR_GAME_EXTERN(def) extern const cr_game_def def;
CR_GAMES(CR_GAME_EXTERN)

#define CR_GAME_ENTRY(def) &def,
static const cr_game_def *const games[] = {CR_GAMES(CR_GAME_ENTRY)};

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
