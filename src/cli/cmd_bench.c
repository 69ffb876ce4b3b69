/* cmd_bench.c — `croupier bench <game>`: prints the machine, the build and
 * the engine's speed (src/sim/bench.c does the measuring). */
#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "commands.h"
#include "croupier/sim.h"

const char cmd_bench_usage[] =
    "usage: croupier bench GAME [options]\n"
    "\n"
    "Measures random playouts per second (1 thread and all threads), ns per\n"
    "legal-actions / apply / clone call, the state size and ISMCTS iterations per\n"
    "second (1 thread).  An action is one apply call, chance outcomes included.\n"
    "Each figure is the median of 5 runs with its spread; one-thread figures\n"
    "count CPU time (docs/lab.md says how each is measured).\n"
    "\n"
    "options:\n"
    "  --seconds X     time per measurement (default 2)\n"
    "  --threads T     threads for the all-threads playouts (default: every CPU)\n"
    "  --games N       also time exactly N random games on all threads (e.g. 1000000)\n"
    "  --iters N       ISMCTS iterations per search (default 2000)\n"
    "  --players N     player count (default: the variant's maximum)\n"
    "  --variant V     game variant\n"
    "  --option K=V    a table option (croupier games lists them); repeatable\n"
    "  --board FILE    the game's board file, for games that have one\n"
    "  --seed S        (default 1)\n";

int cmd_bench(int argc, char **argv)
{
    cr_bench_config cfg;
    memset(&cfg, 0, sizeof cfg);
    const char *val, *game = NULL;
    cr_params table = {0};
    for (int i = 1; i < argc; i++) {
        int r;
        long x;
        if ((r = cli_table_opt(argc, argv, &i, &table))) {
            if (r < 0) return 2;
        } else if ((r = cli_opt(argc, argv, &i, "--seconds", &val))) {
            if (r < 0 || !cli_parse_int(val, 1, 3600, &x))
                return cli_usage_error("bench", "--seconds needs whole seconds in 1..3600");
            cfg.seconds = (double)x;
        } else if ((r = cli_opt(argc, argv, &i, "--threads", &val))) {
            if (r < 0 || !cli_parse_int(val, 1, 256, &x))
                return cli_usage_error("bench", "--threads needs a number in 1..256");
            cfg.threads = (int)x;
        } else if ((r = cli_opt(argc, argv, &i, "--games", &val))) {
            if (r < 0 || !cli_parse_int(val, 1, 1000000000L, &x))
                return cli_usage_error("bench", "--games needs a number");
            cfg.games = x;
        } else if ((r = cli_opt(argc, argv, &i, "--iters", &val))) {
            if (r < 0 || !cli_parse_int(val, 1, 100000000L, &x))
                return cli_usage_error("bench", "--iters needs a number");
            cfg.ismcts_iters = x;
        } else if ((r = cli_opt(argc, argv, &i, "--players", &val))) {
            if (r < 0 || !cli_parse_int(val, 1, 8, &x))
                return cli_usage_error("bench", "--players needs a player count");
            cfg.num_players = (int)x;
        } else if ((r = cli_opt(argc, argv, &i, "--variant", &val))) {
            if (r < 0) return 2;
            cfg.variant = val;
        } else if ((r = cli_opt(argc, argv, &i, "--seed", &val))) {
            if (r < 0 || !cli_parse_u64(val, &cfg.seed))
                return cli_usage_error("bench", "--seed needs a number");
        } else if (argv[i][0] == '-') {
            return cli_usage_error("bench", "unknown option '%s'", argv[i]);
        } else if (!game) {
            game = argv[i];
        } else {
            return cli_usage_error("bench", "unexpected argument '%s'", argv[i]);
        }
    }
    if (!game) return cli_usage_error("bench", "which game? (croupier games)");
    if (!cli_find_game(game)) return 1;
    cfg.game = game;
    cfg.n_options = table.n_options;
    for (int k = 0; k < table.n_options; k++) cfg.options[k] = table.options[k];
    char err[256];
    if (cr_bench_run(&cfg, stdout, err, sizeof err) != CR_OK) return cli_error("%s", err);
    return 0;
}
