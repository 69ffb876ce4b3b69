/* parts.c — what 18Dracula plugs into the game-agnostic layers
 * (croupier/parts.h): its lab profile (how games ended, their length in
 * operating rounds, the game's length cap) and its invariants. */
#include "croupier/parts.h"
#include "games/18dracula/annals.h"
#include "games/18dracula/d18_internal.h"
#include "games/18dracula/router.h"

static uint32_t d18_rounds(const cr_game *g, const void *st)
{
    (void)g;
    return ((const d18_state *)st)->ors_played;
}

enum { E_BANK, E_NO_PROGRESS, E_BANKRUPTCY, E_TECH_BANKRUPTCY, E_N };
static const char *const d18_end_names[E_N] = {"bank broke", "no progress (R121)", "bankruptcy",
                                               "technical bankruptcy (R84)"};

static int d18_end(const cr_game *g, const void *st)
{
    (void)g;
    switch (((const d18_state *)st)->end_reason) {
    case D18_END_BANKRUPTCY: return E_BANKRUPTCY;
    case D18_END_TECH_BANKRUPTCY: return E_TECH_BANKRUPTCY;
    case D18_END_NO_PROGRESS: return E_NO_PROGRESS;
    default: return E_BANK;
    }
}

/* tensor.c: the observation as floats (docs/python.md) */
size_t d18_obs_tensor(const cr_game *g, const void *obs, float *out, size_t cap);
/* lab.c: the board parameters a sweep may vary */
extern const char d18_lab_board_keys[];
size_t d18_lab_board_set(const cr_game *g, const char *key, const char *value, char *out,
                         size_t cap, char *err, size_t errcap);

static const cr_lab_profile d18_lab = {
    .n_counters = D18_LAB_COUNTERS, /* counted from the events (events.c) */
    .counter_names = d18_lab_counter_names,
    .count = d18_lab_count,
    .rounds = d18_rounds,
    .n_ends = E_N,
    .end_names = d18_end_names,
    .end = d18_end,
    /* A random game is cut here and reported as stalled ("aborted"). */
    .max_actions = 200000,
    .board_keys = d18_lab_board_keys,
    .board_set = d18_lab_board_set,
};

/* `croupier bench 18dracula`, after the generic figures: the auto-router
 * on late-game positions of the game's board (router_bench.c), timed
 * against the brute-force reference on the same positions.  The number of
 * positions follows --seconds (200 at the default 2 s); the brute force is
 * cut at 200,000 assignments a position. */
static void d18_bench(const cr_game *g, FILE *out, double seconds, uint64_t seed)
{
    int n = seconds > 0 ? (int)(seconds * 100) : 200;
    if (n < 20) n = 20;
    if (n > 5000) n = 5000;
    d18_router_bench(out, d18_brd(g), n, seed, 200000);
}

/* The levels of play, weakest first (bot.h, "Tiers"); their ratings and
 * the command that measured them: docs/bots.md. */
static const cr_tier d18_tiers[] = {
    {"beginner", "random", "plays any legal move"},
    {"casual", "heuristic:noise=0.5", "the club player's ideas, half of the time"},
    {"club", "heuristic", "a hand-written player: floats fronts, builds, buys monsters"},
    {"expert", "ismcts:iters=100,prior=30,c=0.2",
     "100 imagined games a move; keeps the club player's move unless one is clearly better"},
};

const cr_game_parts d18_parts = {
    .bench = d18_bench,
    .lab = &d18_lab,
    .check_invariants = d18_check_invariants,
    .help = d18_help,
    .panels = d18_panels,
    .guide = cr_guide_18dracula, /* docs/play-18dracula.md, compiled in */
    .heuristic = d18_heuristic,
    /* A random game is about 2,800 actions against DML's 300, with a route
     * search in each rampage: measured, one costs the conformance suite
     * about 100 DML games (0.2 s against 1.9 ms in RelWithDebInfo).  The
     * router's worst case on the benchmark's late-game positions
     * (bench_18d_router 1000 SEED 0) is 20-31 ms for seeds 1 and 2, 49 ms
     * for seed 4 and 0.24 s for seed 3 (docs/18dracula-board.md), and a
     * rampage with more routes than the scratch holds (met once in a
     * 46,000-game conformance run; tests/conformance, test_known_games)
     * about 90 ms: a long search is rare, not impossible. */
    .test_cost = 100,
    .data_json = d18_data_json, /* the browser draws the map from it (data.c) */
    .obs_tensor = d18_obs_tensor,
    .map = d18_map_text, /* mapgrid.c */
    .tiers = d18_tiers,
    .n_tiers = (int)(sizeof d18_tiers / sizeof d18_tiers[0]),
    .menu_section = d18_menu_section, /* controls.c: a long menu's sections */
    /* the operating history and the last rampage, folded from the match's
     * events (annals.h, sheet.c) */
    .annals_size = sizeof(d18_annals),
    .annals_fold = d18_annals_fold,
    .sheet = d18_sheet,
    .map_annals = d18_map_annals,
    .annals_json = d18_annals_json,
};
