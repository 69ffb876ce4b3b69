/* cmd_sim.c — `croupier sim <game>`: the designers' lab on the command
 * line.  Parses the options into a cr_sim_config, runs one configuration
 * (or one per value of --vary), prints the summary or the sweep table, and
 * writes the JSON, CSV and plots asked for.  Everything it computes comes
 * from the library (include/croupier/sim.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_util.h"
#include "commands.h"
#include "sim_mpi.h"
#include "croupier/alloc.h"
#include "croupier/sim.h"

const char cmd_sim_usage[] =
    "usage: croupier sim GAME [options]\n"
    "\n"
    "Plays many games between bots and reports win rates with 95% intervals, win rates\n"
    "by Merchant King, how games end, game length and rule-level counts (docs/lab.md).\n"
    "Built with Open MPI, `mpirun -n N croupier sim ...` shares the games among N\n"
    "processes and prints the same report (docs/lab.md, \"The lab on MPI\").\n"
    "\n"
    "options:\n"
    "  --games N            games to play (default 1000)\n"
    "  --seats A,B,...      one bot spec per seat, or one for all (default random);\n"
    "                       specs: random, heuristic, ismcts:iters=N, ismcts:ms=N,threads=T,\n"
    "                       rollout=random|heuristic,c=X (see docs/bots.md)\n"
    "  --players N          player count (default: the number of seats given)\n"
    "  --variant V          game variant (default: the game's own)\n"
    "  --option KEY=VALUE   a table option (croupier games lists them); repeatable\n"
    "  --board FILE         the game's board file, for games that have one\n"
    "  --threads T          worker threads (default: every CPU; under MPI, per process,\n"
    "                       the CPUs it is bound to); results do not depend on T\n"
    "  --seed S             game i uses (S, i); the bot of seat s uses (S, i, s) (default 1)\n"
    "  --vary KEY=A,B,...   one run per value, side by side: seatK=BOT,... (seat K's bot),\n"
    "                       variant=V,..., option.KEY=V,... (a table option), or\n"
    "                       board.KEY=V,... (a number of the game's board file, e.g.\n"
    "                       board.phase.2.limit=4,5; the keys: docs/lab.md)\n"
    "  --rate A,B,...       rate bots or tiers: --games games per seating of each pair,\n"
    "                       a Bradley-Terry fit on the Elo scale with 95% intervals\n"
    "  --rotate             with --rate: every game seats all the bots, one seating per\n"
    "                       bot in a cyclic order, so a game counts for every pair at it\n"
    "  --part K/M           with --rate: play only the K-th of M slices of every seating's\n"
    "                       games (with --csv, to fit them all later with --from)\n"
    "  --from FILE          with --rate: play nothing, fit the games of the CSV files\n"
    "                       (repeat --from) that runs of the same rating wrote with --csv\n"
    "  --json FILE          every summary figure as JSON\n"
    "  --csv FILE           one row per game (with --rate: its table in the config column)\n"
    "  --plots DIR          PNG charts via gnuplot: winrates.png, length.png (DIR is created\n"
    "                       if needed; every output path is checked before the games run)\n"
    "  --progress / --no-progress  force the progress bar (default: only on a terminal)\n"
    "  --max-actions N      cut a game after N actions (reported as aborted)\n";

enum { MAX_VARY = 64 };

/* The command, once sim_mpi_start has joined the MPI job if there is one
 * (ranks processes; 1 without).  Every process parses the same arguments
 * and so takes the same way until the games; then rank 0 alone checks the
 * output paths (all stop if it fails), prints and writes. */
/* --rate A,B,...: the bots' ratings (cr_sim_ratings), in one process;
 * or, with --from, from the CSV files of runs of it (cr_sim_ratings_read). */
typedef struct rate_opts {
    const char *list, *csv, *part;
    const char **from; /* room for one per argument (cmd_sim's); n_from given */
    int n_from, rotate;
} rate_opts;

static int rate_command(const cr_sim_config *cfg, const rate_opts *o, int vary, int ranks)
{
    if (vary) return cli_usage_error("sim", "--rate and --vary exclude each other");
    if (ranks > 1) return cli_usage_error("sim", "--rate runs in one process, not under mpirun");
    cr_rate_config rc;
    memset(&rc, 0, sizeof rc);
    rc.base = *cfg;
    char buf[1024], *bots[CR_RATE_MAX + 1];
    int n = cr_sim_split_specs(o->list, buf, sizeof buf, bots, CR_RATE_MAX + 1);
    if (n < 2 || n > CR_RATE_MAX)
        return cli_usage_error("sim", "--rate: give 2 to %d bots or tiers", CR_RATE_MAX);
    for (int i = 0; i < n; i++) rc.bots[i] = bots[i];
    rc.n_bots = n;
    rc.rotate = o->rotate;
    if (o->n_from && (o->part || o->csv))
        return cli_usage_error("sim", "--from fits games already played: no --part or --csv");
    if (o->part) {
        long k, m;
        char a[24], b[24];
        const char *slash = strchr(o->part, '/');
        if (!slash || (size_t)(slash - o->part) >= sizeof a || strlen(slash + 1) >= sizeof b)
            return cli_usage_error("sim", "--part needs K/M, e.g. 2/4");
        memcpy(a, o->part, (size_t)(slash - o->part));
        a[slash - o->part] = '\0';
        snprintf(b, sizeof b, "%s", slash + 1);
        if (!cli_parse_int(b, 1, cfg->games, &m) || !cli_parse_int(a, 1, m, &k))
            return cli_usage_error("sim", "--part K/M needs 1 <= K <= M <= --games (%ld)",
                                   cfg->games);
        rc.part = (int)k;
        rc.parts = (int)m;
    }
    if (rc.base.num_players == 0) { /* the variant's largest table */
        const cr_game_def *def = cli_find_game(cfg->game);
        for (int v = 0; def && v < def->n_variants; v++)
            if (!cfg->variant ? v == 0 : strcmp(def->variants[v].name, cfg->variant) == 0)
                rc.base.num_players = def->variants[v].max_players;
    }
    char err[512];
    cr_rate_result res;
    if (o->n_from) {
        if (cr_sim_ratings_read(&rc, o->from, o->n_from, &res, err, sizeof err) != CR_OK)
            return cli_error("%s", err);
    } else {
        /* Each bot is checked against the game (as its seating's lab run
         * will check it) before --csv opens its file: a mistyped spec leaves
         * an existing part file as it was. */
        for (int b = 0; o->csv && b < n; b++) {
            cr_sim_config c = rc.base;
            c.n_seats = rc.base.num_players;
            for (int s = 0; s < c.n_seats; s++) c.seats[s] = rc.bots[b];
            cr_sim_result none;
            if (cr_sim_run_part(&c, 0, 0, &none, err, sizeof err) != CR_OK)
                return cli_error("%s", err);
            cr_sim_result_fini(&none);
        }
        FILE *csv = NULL;
        if (o->csv && !(csv = fopen(o->csv, "w")))
            return cli_error("%s: %s", o->csv, strerror(errno));
        rc.csv = csv;
        cr_status st = cr_sim_ratings(&rc, &res, err, sizeof err);
        if (st != CR_OK) {
            if (csv) fclose(csv);
            return cli_error("%s%s%s", st == CR_ERR_IO ? o->csv : "", st == CR_ERR_IO ? ": " : "",
                             err);
        }
        if (csv && (ferror(csv) | fclose(csv)) != 0)
            return cli_error("%s: %s", o->csv, strerror(errno));
    }
    cr_sim_print_rating(&rc, &res, stdout);
    return 0;
}

static int sim_command(int argc, char **argv, int ranks, const char **from)
{
    cr_sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.games = 1000;
    cfg.seed = 1;
    cfg.progress = CR_SIM_PROGRESS_AUTO;
    const char *game = NULL, *seats = "random", *json = NULL, *csv = NULL, *plots = NULL;
    const char *vary = NULL, *val;
    rate_opts ro = {.from = from};
    char seat_buf[1024], vary_buf[2048];
    char *seat_list[CR_MAX_PLAYERS], *vary_list[MAX_VARY];
    cr_params table = {0};
    for (int i = 1; i < argc; i++) {
        int r;
        long x;
        if ((r = cli_table_opt(argc, argv, &i, &table))) {
            if (r < 0) return 2;
        } else if ((r = cli_opt(argc, argv, &i, "--games", &val))) {
            if (r < 0 || !cli_parse_int(val, 1, 1000000000L, &x))
                return cli_usage_error("sim", "--games needs a number >= 1");
            cfg.games = x;
        } else if ((r = cli_opt(argc, argv, &i, "--seats", &val))) {
            if (r < 0) return 2;
            seats = val;
        } else if ((r = cli_opt(argc, argv, &i, "--players", &val))) {
            if (r < 0 || !cli_parse_int(val, 1, CR_MAX_PLAYERS, &x))
                return cli_usage_error("sim", "--players needs a player count");
            cfg.num_players = (int)x;
        } else if ((r = cli_opt(argc, argv, &i, "--variant", &val))) {
            if (r < 0) return 2;
            cfg.variant = val;
        } else if ((r = cli_opt(argc, argv, &i, "--threads", &val))) {
            if (r < 0 || !cli_parse_int(val, 1, 256, &x))
                return cli_usage_error("sim", "--threads needs a number in 1..256");
            cfg.threads = (int)x;
        } else if ((r = cli_opt(argc, argv, &i, "--seed", &val))) {
            if (r < 0 || !cli_parse_u64(val, &cfg.seed))
                return cli_usage_error("sim", "--seed needs a number");
        } else if ((r = cli_opt(argc, argv, &i, "--max-actions", &val))) {
            if (r < 0 || !cli_parse_int(val, 1, 2000000000L, &x))
                return cli_usage_error("sim", "--max-actions needs a number");
            cfg.max_actions = x;
        } else if ((r = cli_opt(argc, argv, &i, "--json", &val))) {
            if (r < 0) return 2;
            json = val;
        } else if ((r = cli_opt(argc, argv, &i, "--csv", &val))) {
            if (r < 0) return 2;
            csv = val;
        } else if ((r = cli_opt(argc, argv, &i, "--plots", &val))) {
            if (r < 0) return 2;
            plots = val;
        } else if ((r = cli_opt(argc, argv, &i, "--rate", &val))) {
            if (r < 0) return 2;
            ro.list = val;
        } else if ((r = cli_opt(argc, argv, &i, "--part", &val))) {
            if (r < 0) return 2;
            ro.part = val;
        } else if ((r = cli_opt(argc, argv, &i, "--from", &val))) {
            if (r < 0) return 2;
            ro.from[ro.n_from++] = val; /* at most one an argument */
        } else if ((r = cli_opt(argc, argv, &i, "--vary", &val))) {
            if (r < 0) return 2;
            vary = val;
        } else if (strcmp(argv[i], "--rotate") == 0) {
            ro.rotate = 1;
        } else if (strcmp(argv[i], "--progress") == 0) {
            cfg.progress = CR_SIM_PROGRESS_ON;
        } else if (strcmp(argv[i], "--no-progress") == 0) {
            cfg.progress = CR_SIM_PROGRESS_OFF;
        } else if (argv[i][0] == '-') {
            return cli_usage_error("sim", "unknown option '%s'", argv[i]);
        } else if (!game) {
            game = argv[i];
        } else {
            return cli_usage_error("sim", "unexpected argument '%s'", argv[i]);
        }
    }
    if (!game) return cli_usage_error("sim", "which game? (croupier games)");
    if (!cli_find_game(game)) return 1;
    cfg.game = game;
    cfg.n_options = table.n_options;
    for (int k = 0; k < table.n_options; k++) cfg.options[k] = table.options[k];
    int n_seats = cr_sim_split_specs(seats, seat_buf, sizeof seat_buf, seat_list, CR_MAX_PLAYERS);
    if (n_seats < 1)
        return cli_usage_error("sim", "--seats: give 1 to %d bot specs", CR_MAX_PLAYERS);
    cfg.n_seats = n_seats;
    for (int s = 0; s < n_seats; s++) cfg.seats[s] = seat_list[s];

    if ((ro.rotate || ro.part || ro.n_from) && !ro.list)
        return cli_usage_error("sim", "--rotate, --part and --from go with --rate");
    if (ro.list && (json || plots))
        return cli_usage_error("sim", "--rate prints its table; --json and --plots are not for it");
    ro.csv = csv;
    if (ro.list) return rate_command(&cfg, &ro, vary != NULL, ranks);

    /* --vary KEY=V1,V2,...: KEY is seatK, variant, option.NAME or board.PARAM */
    char vary_key[128] = "";
    int n_vary = 0, vary_seat = -1;
    const char *vary_option = NULL, *vary_board = NULL; /* after "option." / "board." */
    if (vary) {
        const char *eq = strchr(vary, '=');
        if (!eq || eq == vary || (size_t)(eq - vary) >= sizeof vary_key)
            return cli_usage_error("sim", "--vary needs KEY=V1,V2,... (KEY: seatK, variant, "
                                          "option.NAME or board.PARAM)");
        memcpy(vary_key, vary, (size_t)(eq - vary));
        long k;
        if (strncmp(vary_key, "seat", 4) == 0 &&
            cli_parse_int(vary_key + 4, 0, CR_MAX_PLAYERS - 1, &k))
            vary_seat = (int)k;
        else if (strncmp(vary_key, "option.", 7) == 0 && vary_key[7])
            vary_option = vary_key + 7;
        else if (strncmp(vary_key, "board.", 6) == 0 && vary_key[6])
            vary_board = vary_key + 6;
        else if (strcmp(vary_key, "variant") != 0)
            return cli_usage_error("sim",
                                   "--vary: unknown key '%s' (seatK, variant, option.NAME or "
                                   "board.PARAM)",
                                   vary_key);
        if (vary_seat >= 0) {
            n_vary = cr_sim_split_specs(eq + 1, vary_buf, sizeof vary_buf, vary_list, MAX_VARY);
        } else { /* variant names and option or board values: plain comma split */
            n_vary = 0;
            snprintf(vary_buf, sizeof vary_buf, "%s", eq + 1);
            for (char *p = strtok(vary_buf, ","); p && n_vary < MAX_VARY; p = strtok(NULL, ","))
                vary_list[n_vary++] = p;
        }
        if (n_vary < 1) return cli_usage_error("sim", "--vary: no values");
        if (vary_seat >= 0) {
            int np = cfg.num_players ? cfg.num_players : n_seats;
            if (n_seats == 1 && !cfg.num_players) { /* the variant's largest table */
                const cr_game_def *def = cli_find_game(game);
                const cr_variant *v = &def->variants[0];
                for (int vi = 0; cfg.variant && vi < def->n_variants; vi++)
                    if (strcmp(def->variants[vi].name, cfg.variant) == 0) v = &def->variants[vi];
                np = v->max_players;
            }
            if (vary_seat >= np)
                return cli_usage_error("sim", "--vary: seat %d out of range", vary_seat);
            if (n_seats == 1 && np > 1) { /* spell out every seat so one can vary */
                for (int s = 1; s < np; s++) cfg.seats[s] = cfg.seats[0];
                cfg.n_seats = np;
                cfg.num_players = np;
            }
        }
    }

    /* The output paths are checked (and created) before any game runs, so a
     * typo fails at once; on failure, what this run created is removed. */
    char err[512];
    int json_new = 0, csv_new = 0, plots_new = 0, status = 0, done = 0;
    int rank0 = sim_mpi_rank() == 0;
    /* only --csv needs a result per game; decided alike on every process */
    int keep_games = csv != NULL;
    if (!rank0) json = csv = plots = NULL;
    if (plots) { /* first: --json and --csv may name files inside it */
        cr_status ps = cr_sim_plot_prepare(plots, &plots_new, err, sizeof err);
        if (ps == CR_ERR_UNSUPPORTED) {
            fprintf(stderr, "croupier: warning: %s\n", err);
            plots = NULL;
        } else if (ps != CR_OK) {
            status = cli_error("%s", err);
        }
    }
    if (status == 0 && json && cli_out_check(json, &json_new, err, sizeof err) != 0)
        status = cli_error("%s", err);
    if (status == 0 && csv && cli_out_check(csv, &csv_new, err, sizeof err) != 0)
        status = cli_error("%s", err);
    if (!sim_mpi_all(status == 0) && status == 0) status = 1; /* rank 0 said why */

    int n_runs = vary ? n_vary : 1;
    /* --vary board.PARAM: one board file per value, written by the game's
     * lab profile and checked now (every process writes its own copy) */
    char board_path[MAX_VARY][256];
    int n_board = 0;
    const char *board_opt = NULL;
    for (int i = 0; status == 0 && vary_board && i < n_vary; i++) {
        if (cr_sim_board_file(&cfg, vary_board, vary_list[i], board_path[i], sizeof board_path[i],
                              &board_opt, err, sizeof err) != CR_OK) {
            status = rank0 ? cli_error("%s", err) : 1;
            break;
        }
        n_board++;
    }
    cr_sim_config *runs = status == 0 ? cr_calloc((size_t)n_runs, sizeof *runs) : NULL;
    cr_sim_result *res = status == 0 ? cr_calloc((size_t)n_runs, sizeof *res) : NULL;
    if (!sim_mpi_all(status != 0 || (runs && res)) && status == 0)
        status = cli_error("out of memory");
    for (int i = 0; status == 0 && i < n_runs; i++) {
        runs[i] = cfg;
        /* without --csv no result per game is kept (the plots read the
         * length histograms): memory stays flat however many games are
         * played, in one process or on MPI ranks */
        runs[i].no_per_game = !keep_games;
        const char *opt = vary_option ? vary_option : vary_board ? board_opt : NULL;
        if (vary_seat >= 0) {
            runs[i].seats[vary_seat] = vary_list[i];
        } else if (opt) { /* set (or replace) the table option */
            int k = 0;
            while (k < runs[i].n_options && strcmp(runs[i].options[k].key, opt) != 0) k++;
            if (k == CR_MAX_OPTIONS) {
                status = cli_error("too many table options");
                break;
            }
            if (k == runs[i].n_options) runs[i].n_options++;
            runs[i].options[k].key = opt;
            runs[i].options[k].value = vary_board ? board_path[i] : vary_list[i];
        } else if (vary) {
            runs[i].variant = vary_list[i];
        }
        /* a value the table refuses fails now, naming the parameter */
        cr_sim_result probe;
        if (vary_option && cr_sim_run_part(&runs[i], 0, 0, &probe, err, sizeof err) != CR_OK) {
            status = rank0 ? cli_error("--vary %s=%s: %s", vary_key, vary_list[i], err) : 1;
            break;
        }
        if (vary_option) cr_sim_result_fini(&probe);
    }
    if (status == 0 && ranks > 1) { /* every configuration at once, over the processes */
        if (sim_mpi_run(runs, n_runs, res, csv, vary ? (const char *const *)vary_list : NULL, err,
                        sizeof err) == CR_OK)
            done = n_runs;
        else
            status = rank0 ? cli_error("%s", err) : 1;
    }
    for (int i = 0; status == 0 && ranks == 1 && i < n_runs; i++) {
        if (vary) cli_say(stderr, "%s=%s", vary_key, vary_list[i]);
        if (cr_sim_run(&runs[i], &res[i], err, sizeof err) != CR_OK) {
            status = cli_error("%s", err);
            break;
        }
        done++;
    }
    for (int i = 0; i < n_board; i++) unlink(board_path[i]); /* loaded by every game */
    if (!rank0) {                                            /* the report is rank 0's */
        for (int i = 0; i < done; i++) cr_sim_result_fini(&res[i]);
        cr_free(res);
        cr_free(runs);
        return status;
    }
    if (status == 0 && !vary) cr_sim_print(&res[0], stdout);
    if (status == 0 && vary) {
        for (int i = 0; i < n_runs; i++) {
            putchar('\n');
            cli_say(stdout, "== %s=%s ==", vary_key, vary_list[i]);
            cr_sim_print(&res[i], stdout);
        }
        printf("\n");
        cr_sim_print_sweep(res, n_runs, vary_key, (const char *const *)vary_list,
                           vary_seat >= 0 ? vary_seat : 0, stdout);
        if (vary_seat < 0) /* a sweep over the rules: every seat and every end */
            cr_sim_print_sweep_rules(res, n_runs, vary_key, (const char *const *)vary_list, stdout);
    }
    const char *const *values = vary ? (const char *const *)vary_list : NULL;
    const char *key = vary ? vary_key : NULL;
    if (status == 0 && json && cr_sim_write_json(res, n_runs, key, values, json, err, sizeof err))
        status = cli_error("%s", err);
    /* (on MPI ranks sim_mpi_run has written the CSV, streaming the rows) */
    if (status == 0 && csv && ranks == 1 &&
        cr_sim_write_csv(res, n_runs, values, csv, err, sizeof err))
        status = cli_error("%s", err);
    if (status == 0 && plots) {
        cr_status ps = cr_sim_plot(res, n_runs, key, values, plots, err, sizeof err);
        if (ps == CR_ERR_UNSUPPORTED)
            fprintf(stderr, "croupier: warning: %s\n", err);
        else if (ps != CR_OK)
            status = cli_error("%s", err);
    }
    if (status != 0) { /* no empty file or directory left behind */
        if (csv) cli_out_discard(csv, csv_new);
        if (json) cli_out_discard(json, json_new);
        if (plots_new) rmdir(plots); /* only if still empty */
    }
    for (int i = 0; i < done; i++) cr_sim_result_fini(&res[i]);
    cr_free(res);
    cr_free(runs);
    return status;
}

int cmd_sim(int argc, char **argv)
{
    int ranks = sim_mpi_start();
    /* --from FILE may come as often as there are arguments */
    const char **from = cr_calloc((size_t)argc + 1, sizeof *from);
    int status = from ? sim_command(argc, argv, ranks, from) : cli_error("out of memory");
    cr_free(from);
    sim_mpi_stop();
    return status;
}
