/* croupier/sim.h — the simulation lab: many games between bots, in
 * parallel, with the figures designers ask for; and the benchmarks.
 *
 * Reproducibility.  Each game is a match (match.h) of its own seed,
 * cr_sim_game_seed(seed, i): its chance node k is drawn from (game seed, k)
 * and a bot's choice at action k from (game seed, k, seat), exactly as
 * `croupier play` draws them.  Games are independent, results are stored by game index
 * and every summary is computed from them in index order, so the figures
 * do not depend on the number of threads (timed bots, `ismcts:ms=...`,
 * excepted: they do less work on a busy machine).
 *
 * The lab is omniscient: after each game it reads the final state (e.g.
 * each seat's Merchant King) and it counts rule-level events from the
 * omniscient event stream.  Game-specific knowledge (which events to count,
 * what a seat's "label" is) lives in a per-game profile (src/sim/lab_*.c);
 * a game without one still gets win rates, end scores and lengths.
 */
#ifndef CROUPIER_SIM_H
#define CROUPIER_SIM_H

#include <stdint.h>
#include <stdio.h>

#include "croupier/game.h"

#ifdef __cplusplus
extern "C" {
#endif
/* The library exports what this header declares (CMakeLists.txt builds it
 * with every other symbol hidden). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

enum { CR_SIM_PROGRESS_OFF = 0, CR_SIM_PROGRESS_ON = 1, CR_SIM_PROGRESS_AUTO = -1 };
enum { CR_SIM_MAX_COUNTERS = 32, CR_SIM_MAX_LABELS = 8, CR_SIM_MAX_ENDS = 8 };
/* Achievements the lab counts (the game's list, parts.h): bit k of
 * cr_sim_game.achieved is the list's entry k. */
enum { CR_SIM_MAX_ACHIEVEMENTS = 64 };

typedef struct cr_sim_config {
    const char *game; /* the game's registry name (cr_game_def.name) */
    /* NULL: the registry's game named `game`.  Else this definition is
     * played (a game not in the registry: one being written, a test
     * double); `game` is then only a label. */
    const cr_game_def *def;
    const char *variant;               /* NULL: the game's default */
    int num_players;                   /* 0: the number of seats given */
    const char *seats[CR_MAX_PLAYERS]; /* bot specs (bot.h), borrowed */
    int n_seats;                       /* 1 spec = every seat plays it */
    long games;
    int threads; /* 0: every online CPU */
    uint64_t seed;
    int progress;     /* CR_SIM_PROGRESS_*: AUTO = on iff stderr is a terminal */
    long max_actions; /* per game; 0: the game's lab default, else 10,000,000. A game cut
                         there is "aborted" */
    int n_options;    /* table options (game.h), borrowed text */
    cr_option_kv options[CR_MAX_OPTIONS];
    /* 1: keep no result per game (per_game stays NULL; the figures are
     * the same, added up as the games end), so memory does not grow with
     * the number of games.  Only the CSV (and cr_sim_summarize) needs
     * per_game: 0; the plots and runs in parts reduced with
     * cr_sim_tally_pack/unpack do not. */
    int no_per_game;
} cr_sim_config;

/* One game's result (the lab keeps one per game, by index). */
typedef struct cr_sim_game {
    float returns[CR_MAX_PLAYERS];
    int32_t score[CR_MAX_PLAYERS];     /* the game's scores (e.g. Victory Points) */
    int8_t rank[CR_MAX_PLAYERS];       /* 1 = first; shared places share a rank; 0 if aborted */
    uint32_t winners;                  /* bit s: seat s won (several for a shared win) */
    int8_t label[CR_MAX_PLAYERS];      /* per-seat label index (the lab profile's), -1 none */
    int8_t winner;                     /* the seat with return 1 when exactly one, else -1 */
    uint8_t end;                       /* index into cr_sim_result.end_names */
    uint32_t rounds;                   /* 0 when the game has no rounds */
    uint32_t actions;                  /* apply calls, chance outcomes included */
    uint64_t achieved[CR_MAX_PLAYERS]; /* bit k: the seat earned achievement k (0 if aborted) */
} cr_sim_game;

typedef struct cr_sim_rate {
    long wins, games;
    double rate, lo, hi; /* 95% Wilson score interval */
    double mean_score;
} cr_sim_rate;

typedef struct cr_sim_dist {
    double mean, p10, p50, p90;
    uint32_t min, max;
} cr_sim_dist;

typedef struct cr_sim_result {
    /* configuration, as run */
    char game[32], variant[32];
    int num_players, threads;
    long games;      /* games in per_game[] (a part's count: cr_sim_run_part) */
    long first_game; /* per_game[k] is game first_game + k of the run; 0 for a whole run */
    uint64_t seed;
    char seat_spec[CR_MAX_PLAYERS][128];

    cr_sim_game *per_game; /* owned: games entries; NULL if cfg->no_per_game */

    /* summary */
    cr_sim_rate seat[CR_MAX_PLAYERS];
    int n_bots; /* distinct specs */
    char bot_spec[CR_MAX_PLAYERS][128];
    cr_sim_rate bot[CR_MAX_PLAYERS]; /* per spec, over all its seats */
    const char *label_title;         /* "Merchant King", or NULL */
    int n_labels;
    const char *label_names[CR_SIM_MAX_LABELS];
    cr_sim_rate label[CR_SIM_MAX_LABELS]; /* wins of the seat holding each label */
    long no_winner; /* games with all returns 0 (ties, nobody left, aborted) */
    int n_ends;
    const char *end_names[CR_SIM_MAX_ENDS];
    long ends[CR_SIM_MAX_ENDS];
    cr_sim_dist rounds, actions;
    int n_counters;
    const char *counter_names[CR_SIM_MAX_COUNTERS];
    uint64_t counters[CR_SIM_MAX_COUNTERS]; /* totals over all games */
    /* Achievements: the game's list (keys and titles borrowed from it),
     * how many times each seat earned each one, and in how many games
     * anyone did (a shared one, earned by several seats at once, counts once
     * there and once for every seat). */
    int n_achievements;
    const char *achievement_keys[CR_SIM_MAX_ACHIEVEMENTS];
    const char *achievement_titles[CR_SIM_MAX_ACHIEVEMENTS];
    long achievement_seat[CR_SIM_MAX_ACHIEVEMENTS][CR_MAX_PLAYERS];
    long achievement_total[CR_SIM_MAX_ACHIEVEMENTS]; /* over the seats */
    long achievement_games[CR_SIM_MAX_ACHIEVEMENTS];
    double seconds; /* wall time */
    uint64_t total_actions;
    /* The integer sums and length histograms every figure above comes
     * from (owned, opaque; kept by every run, with or without per_game):
     * what runs in parts add up (cr_sim_tally_pack, below). */
    struct cr_sim_tally *tally;
} cr_sim_result;

/* The seed of game i's match: every die and bot choice of that game follows
 * from it (match.h), so `croupier play GAME --seed X --seats ...` with the
 * same seats plays game i of the lab again, move for move. */
uint64_t cr_sim_game_seed(uint64_t seed, long i);

/* Runs the games.  On success *out is filled (free it with
 * cr_sim_result_fini); on error err gets a one-line reason (unknown game,
 * bad bot spec, seat count, out of memory). */
cr_status cr_sim_run(const cr_sim_config *cfg, cr_sim_result *out, char *err,
                     size_t errcap) CR_MUST_CHECK;
void cr_sim_result_fini(cr_sim_result *r);

/* Plays only games first .. first+count-1 of the run cfg describes (of
 * cfg->games games, each seeded by its index in that run, as cr_sim_run
 * plays it); 0 <= first, 0 <= count, first + count <= cfg->games.  *out
 * then holds those games alone: games = count, first_game = first,
 * per_game[k] is game first+k, and its figures are theirs.  count = 0
 * checks the configuration and fills in everything but the games
 * (threads = 0).  This is how a run is spread over processes (croupier sim
 * under mpirun, docs/lab.md): put the parts' per_game back together in
 * index order into one cr_alloc'd array (in a result set up like a part:
 * a copy of a part's struct, its per_game and tally set to NULL, since
 * the part owns them), add up their counters and
 * total_actions, set games and first_game, and cr_sim_summarize() gives
 * exactly the figures cr_sim_run gives.  Errors as cr_sim_run; free *out
 * with cr_sim_result_fini. */
cr_status cr_sim_run_part(const cr_sim_config *cfg, long first, long count, cr_sim_result *out,
                          char *err, size_t errcap) CR_MUST_CHECK;

/* (Re)computes every summary figure of r (seat, bot, label rates and
 * intervals, ends, no_winner, rounds and actions, achievements) from
 * r->per_game[0 .. r->games-1] in index order, as cr_sim_run does at its
 * end; counters, total_actions, threads and seconds are left as they are.
 * CR_ERR_NOMEM when the length histograms cannot be allocated (r is then
 * left as it was); CR_ERR_INVALID for a result kept without per_game. */
cr_status cr_sim_summarize(cr_sim_result *r) CR_MUST_CHECK;

/* Runs in parts without a result per game.  Every figure is a function of
 * integer sums over the games and of two length histograms (the result's
 * tally), and sums do not depend on the order of the games: the parts'
 * tallies, written as int64 words and added word by word (MPI_Reduce with
 * MPI_SUM, say), are the whole run's, and unpacking them gives exactly the
 * figures cr_sim_run gives, without gathering a game.  The words' shape
 * depends on the histograms' sizes: take the largest caps over the parts
 * (cr_sim_tally_caps), pack each part to them (cr_sim_tally_pack writes
 * cr_sim_tally_words(caps) words; CR_ERR_INVALID for caps below the
 * part's own), add, and cr_sim_tally_unpack() the sum into a result set
 * up like the parts (counters, total_actions, threads, seconds and games
 * are set by the caller, as for cr_sim_summarize).  CR_ERR_NOMEM when the
 * histograms cannot be allocated. */
void cr_sim_tally_caps(const cr_sim_result *r, uint32_t *rounds_cap, uint32_t *actions_cap);
size_t cr_sim_tally_words(uint32_t rounds_cap, uint32_t actions_cap);
cr_status cr_sim_tally_pack(const cr_sim_result *r, uint32_t rounds_cap, uint32_t actions_cap,
                            int64_t *out) CR_MUST_CHECK;
cr_status cr_sim_tally_unpack(cr_sim_result *r, const int64_t *words, uint32_t rounds_cap,
                              uint32_t actions_cap) CR_MUST_CHECK;

/* A sweep over a game's data (`croupier sim --vary board.KEY=V1,V2,...`):
 * writes the data file of cfg's table (its board option's file, or the
 * built-in one) with parameter key set to value (the game's lab profile,
 * cr_lab_profile.board_set) to a new temporary file, loads it once as the
 * game would, and gives its path in path[pathcap] and the key of the
 * game's data-file option in *opt_key (static).  The caller sets that
 * option to path for the run and unlinks path when the runs are over.
 * CR_ERR_INVALID with err naming the parameter: a game without board
 * parameters, an unknown key (the message lists the game's keys), a value
 * out of range, or a board the game refuses (with its reason); CR_ERR_IO
 * when the file cannot be written. */
cr_status cr_sim_board_file(const cr_sim_config *cfg, const char *key, const char *value,
                            char *path, size_t pathcap, const char **opt_key, char *err,
                            size_t errcap) CR_MUST_CHECK;

/* --- Ratings (croupier sim GAME --rate A,B,...) -------------------------------
 * Bots or tiers (bot.h) rated by a round-robin of seat mixtures: for each
 * pair, base.games games with the seats alternating the two and base.games
 * with them swapped; a Bradley-Terry fit of the pairwise results within each
 * game, on the Elo scale (mean 1500), with 95% bootstrap intervals over the
 * games (src/sim/rating.c says how exactly).  base.seats is not used;
 * base.num_players must be set. */
enum { CR_RATE_MAX = 8 };
typedef struct cr_rate_config {
    cr_sim_config base;
    const char *bots[CR_RATE_MAX]; /* specs or tier names, borrowed */
    int n_bots;
    int bootstrap; /* resamples; 0: 200 */
    /* The seatings: 0, two per pair (a, b, a, b, ... and b, a, b, a, ...);
     * 1 (rotate), one per bot, every bot at one table in a cyclic order,
     * bot (s + k) mod n in seat s of seating k, so each game counts for
     * every pair of bots at its table. */
    int rotate;
    /* part in 1..parts: play only that slice of every seating's games
     * (games [(part-1) * games / parts, part * games / parts) of each, the
     * same games the whole rating plays), to spread a long rating over
     * processes, machines or days; 0: every game. */
    int part, parts;
    /* Not NULL: one CSV row per game played (cr_sim_csv_rows, the header
     * first), each seating's rows written and flushed as it ends; the
     * config column names the table: "GAME VARIANT[ (KEY=VALUE,...)]:
     * SPEC;SPEC;..." with the seats' bots in seat order.
     * cr_sim_ratings_read fits the ratings from such files. */
    FILE *csv;
} cr_rate_config;
typedef struct cr_rate_entry {
    char spec[128];
    double elo, lo, hi;
    long pairs;   /* pairwise results counted */
    double score; /* share of them won (draws half) */
} cr_rate_entry;
typedef struct cr_rate_result {
    int n;
    cr_rate_entry e[CR_RATE_MAX]; /* in the order of cfg->bots */
    long games;                   /* games fitted (played, or read) */
    long games_planned;           /* the whole rating's: seatings x base.games */
    long pair_games_min;          /* the fewest games (with a result) any two bots met in */
    double seconds;               /* playing them; 0 when read */
    int files;                    /* files read (cr_sim_ratings_read); 0 when played */
} cr_rate_result;
cr_status cr_sim_ratings(const cr_rate_config *cfg, cr_rate_result *out, char *err,
                         size_t errcap) CR_MUST_CHECK;
/* The same fit from the CSV files rating runs wrote (cfg->csv), played
 * nothing: the rating cfg describes (game, variant, options, players,
 * bots, rotate, seed, games a seating) must be the one that wrote them.
 * Every row is checked against it (its table among the seatings, its game
 * index below base.games, its game seed that game's of --seed), no game
 * may come twice, and the games found are fitted: with every game of the
 * rating the figures are those cr_sim_ratings gives in one run.  A file
 * that is not such a CSV, or belongs to another rating, is CR_ERR_INVALID
 * with "PATH:LINE: reason"; nothing is fitted then. */
cr_status cr_sim_ratings_read(const cr_rate_config *cfg, const char *const *paths, int n_paths,
                              cr_rate_result *out, char *err, size_t errcap) CR_MUST_CHECK;
/* The rating table, strongest first. */
void cr_sim_print_rating(const cr_rate_config *cfg, const cr_rate_result *r, FILE *f);

/* Whether a progress mode draws the bar: AUTO draws iff stderr is a terminal. */
int cr_sim_progress_enabled(int mode);

/* 95% Wilson score interval of wins out of n. */
void cr_sim_wilson(long wins, long n, double *lo, double *hi);

/* Splits a list of bot specs separated by ',' (or ';'), keeping the
 * parameters of a spec together: "heuristic,ismcts:iters=9,threads=2,random"
 * gives 3 specs, since a piece "k=v" without ':' continues the spec before
 * it.  Writes at most max pointers into out[] (into buf, of bufcap bytes);
 * returns the count, or -1 if it does not fit. */
int cr_sim_split_specs(const char *list, char *buf, size_t bufcap, char **out, int max);

/* Reports. */
void cr_sim_print(const cr_sim_result *r, FILE *f);
cr_status cr_sim_write_json(const cr_sim_result *r, int n, const char *vary_key,
                            const char *const *vary_values, const char *path, char *err,
                            size_t errcap) CR_MUST_CHECK;
/* One row per game (of every result given; the config column tells them apart). */
/* The CSV in pieces, as cr_sim_write_csv writes it whole: the header line
 * for results like r, then the rows of n games of result r (games[k] is
 * game first_game + k of its run; config: the sweep's value, or
 * "default").  A run in parts streams its parts' rows this way. */
void cr_sim_csv_header(const cr_sim_result *r, FILE *f);
void cr_sim_csv_rows(const cr_sim_result *r, const char *config, const cr_sim_game *games,
                     long first_game, long n, FILE *f);
cr_status cr_sim_write_csv(const cr_sim_result *r, int n, const char *const *vary_values,
                           const char *path, char *err, size_t errcap) CR_MUST_CHECK;
/* PNG charts via gnuplot (win rates with error bars, length histogram; for a
 * sweep, the varied seat's win rate per value).  CR_ERR_UNSUPPORTED when
 * gnuplot is not installed (the caller warns and goes on). */
cr_status cr_sim_plot(const cr_sim_result *r, int n, const char *vary_key,
                      const char *const *vary_values, const char *dir, char *err,
                      size_t errcap) CR_MUST_CHECK;
/* Checks, before any game runs, that cr_sim_plot() can draw into dir:
 * CR_ERR_UNSUPPORTED without gnuplot; else creates dir if absent (*created
 * = 1, so a caller that fails later may rmdir it) and CR_ERR_IO with err
 * filled if it is not a directory it may write into.  cr_sim_plot() writes
 * only fixed names there (plots.gp, winrates.dat, length.dat, winrates.png,
 * length.png) and never puts dir or any other user text into the script. */
cr_status cr_sim_plot_prepare(const char *dir, int *created, char *err,
                              size_t errcap) CR_MUST_CHECK;
/* The sweep table: one line per configuration. */
void cr_sim_print_sweep(const cr_sim_result *r, int n, const char *vary_key,
                        const char *const *vary_values, int seat, FILE *f);
/* For a sweep over the rules (a variant, a table option, a board
 * parameter): every seat's win rate and every end's share, one column per
 * configuration, each with its 95% interval (at most 64 configurations).
 * The configurations must be of one game and player count. */
void cr_sim_print_sweep_rules(const cr_sim_result *r, int n, const char *vary_key,
                              const char *const *vary_values, FILE *f);

/* --- Benchmarks ----------------------------------------------------------- */

typedef struct cr_bench_config {
    const char *game;
    const char *variant; /* NULL: default */
    int num_players;     /* 0: the variant's maximum */
    double seconds;      /* per timed measurement; 0: 2 */
    int threads;         /* for the all-threads playouts; 0: every online CPU */
    long games;          /* > 0: also time exactly this many random games on all threads */
    long ismcts_iters;   /* per move in the ISMCTS measurement; 0: 2000 */
    uint64_t seed;
    int n_options; /* table options (game.h), borrowed text */
    cr_option_kv options[CR_MAX_OPTIONS];
} cr_bench_config;

/* Runs the benchmarks and prints the machine, the build and the figures. */
cr_status cr_bench_run(const cr_bench_config *cfg, FILE *out, char *err,
                       size_t errcap) CR_MUST_CHECK;

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
