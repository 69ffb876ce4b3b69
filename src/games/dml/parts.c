/* parts.c — what DML plugs into the game-agnostic layers (croupier/parts.h):
 * its hand-written player, its lab profile, its achievements, the clients'
 * help, the player's guide and the full-screen client's table (table.c). */
#include "croupier/parts.h"
#include "games/dml/dml_internal.h"

/* Achievements of a finished game: how the seat won, and surviving an I See
 * Fire game.  Stable keys (statistics are kept by them). */
static int dml_achievements(const cr_game *g, const void *st, int seat, const char **out, int max)
{
    const dml_state *s = st;
    int n = 0;
    if (!s->over || seat < 0 || seat >= g->num_players || max <= 0) return 0;
    if (s->winner == seat) {
        static const char *const how[] = {
            [DML_END_VP] = "won-on-victory-points",
            [DML_END_MONOPOLY] = "won-by-monopoly",
            [DML_END_FATHER] = "father-of-dragons",
            [DML_END_LAST] = "last-merchant-standing",
        };
        if (s->end_reason < sizeof how / sizeof how[0] && how[s->end_reason])
            out[n++] = how[s->end_reason];
    }
    if (n < max && s->variant == DML_V_FIRE && (s->alive >> seat & 1u))
        out[n++] = "survived-the-fire";
    return n;
}

const cr_game_parts dml_parts = {
    .heuristic = dml_heuristic,
    .lab = &dml_lab,
    .check_invariants = dml_check_invariants, /* invariants.c */
    .achievements = dml_achievements,
    .help = dml_help,      /* display.c */
    .bench = dml_bench,    /* bench.c */
    .guide = cr_guide_dml, /* docs/play-dml.md, compiled in */
    .panels = dml_panels,  /* table.c */
    .obs_tensor = dml_obs_tensor,
};
