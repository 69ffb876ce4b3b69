/* bench_dml.c — the DML benchmarks as a standalone program (the same code
 * as `croupier bench dml`, src/sim/bench.c).  Usage:
 *   bench_dml [seconds per measurement] [games to time on all threads] */
#include <stdio.h>
#include <stdlib.h>

#include "croupier/sim.h"

int main(int argc, char **argv)
{
    cr_bench_config cfg = {.game = "dml", .seconds = 2};
    if (argc > 1) cfg.seconds = atof(argv[1]);
    if (argc > 2) cfg.games = atol(argv[2]);
    char err[256];
    if (cr_bench_run(&cfg, stdout, err, sizeof err) != CR_OK) {
        fprintf(stderr, "bench_dml: %s\n", err);
        return 1;
    }
    return 0;
}
