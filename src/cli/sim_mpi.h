/* sim_mpi.h — `croupier sim` spread over MPI processes (docs/lab.md, "The
 * lab on MPI").
 *
 * Built with MPI (CMake found it and defines CR_HAVE_MPI; the code is
 * sim_mpi.c), a `croupier sim` that an MPI launcher started (mpirun, or
 * srun with PMI) joins its job: the games of each configuration are cut
 * into one contiguous block per process, each process plays its block
 * (on its own threads) through cr_sim_run_part, and rank 0 adds up the
 * parts' tallies (integer sums and length histograms, cr_sim_tally_pack)
 * and gives every figure from them, as a one-process run does, so its
 * report is the one-process report byte for byte but for the timing; with
 * --csv the games' rows travel to rank 0 in order, in chunks.  Only rank 0
 * prints and writes files.
 *
 * Built without MPI, the functions below are their one-process versions: a
 * job of one process, rank 0.  cmd_sim.c calls them the same way in both
 * builds. */
#ifndef CROUPIER_CLI_SIM_MPI_H
#define CROUPIER_CLI_SIM_MPI_H

#include <stddef.h>

#include "croupier/sim.h"

#ifdef CR_HAVE_MPI

/* Joins the MPI job this process was started in, if a launcher started it
 * (its environment says so); returns the number of processes, 1 when
 * there is no job (or it has one process).  On every rank but 0, stdout
 * and stderr then go to /dev/null: rank 0 prints the report and the
 * errors, the others' errors reach it through sim_mpi_run.  MPI errors
 * abort the job (MPI's default handler). */
int sim_mpi_start(void);
/* This process's rank: 0 .. processes-1 (0 without a job). */
int sim_mpi_rank(void);
/* Collective: 1 if ok is nonzero on every process.  A step only rank 0
 * takes (checking the output paths) passes its status through this, the
 * others pass 1, so that every process goes on, or stops, together. */
int sim_mpi_all(int ok);
/* Collective: plays the n configurations cfgs[] spread over the processes
 * (each configuration's games cut into one block per process, so a sweep
 * of cheap and dear configurations keeps them all busy to the end).
 * cfg.threads = 0 means every CPU
 * this process may run on (mpirun binds a process to cores).  On rank 0,
 * res[i] is then what cr_sim_run(&cfgs[i]) gives but for threads (the
 * most any process used) and seconds (the slowest process's share plus
 * the adding up), without per_game: rank 0 never holds the run's games;
 * elsewhere res[] is left zeroed.  The configurations that keep per_game
 * (no_per_game = 0, for --csv) have their rows written, in game order, to
 * csv (rank 0's path; NULL elsewhere), as cr_sim_write_csv(res, n, values,
 * csv) writes them in one process, each process sending its block to rank
 * 0 in chunks; rank 0 holds its own block and one chunk.  Every process
 * returns the same success or failure; on failure rank 0's err holds the
 * first failing process's reason.  Free res[] with cr_sim_result_fini. */
cr_status sim_mpi_run(const cr_sim_config *cfgs, int n, cr_sim_result *res, const char *csv,
                      const char *const *values, char *err, size_t errcap);
/* Leaves the job (MPI_Finalize), if sim_mpi_start joined one. */
void sim_mpi_stop(void);

#else /* one process */

static inline int sim_mpi_start(void) { return 1; }
static inline int sim_mpi_rank(void) { return 0; }
static inline int sim_mpi_all(int ok) { return ok != 0; }
static inline cr_status sim_mpi_run(const cr_sim_config *cfgs, int n, cr_sim_result *res,
                                    const char *csv, const char *const *values, char *err,
                                    size_t errcap)
{ /* the caller writes the CSV from res[] */
    (void)csv;
    (void)values;
    for (int i = 0; i < n; i++) {
        cr_status rc = cr_sim_run(&cfgs[i], &res[i], err, errcap);
        if (rc != CR_OK) {
            while (i-- > 0) cr_sim_result_fini(&res[i]);
            return rc;
        }
    }
    return CR_OK;
}
static inline void sim_mpi_stop(void) {}

#endif
#endif
