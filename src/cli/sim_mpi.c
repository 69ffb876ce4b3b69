/* sim_mpi.c — `croupier sim` spread over the processes of an MPI job
 * (sim_mpi.h; compiled only when CMake finds MPI, e.g. Debian's
 * libopenmpi-dev).
 *
 * Each configuration's games are cut into one contiguous block per
 * process: of G games, process q of P plays G/P of them (the first G%P
 * processes one more), games first .. first+count-1, through
 * cr_sim_run_part, which seeds each game by its own index.  Then,
 * configuration by configuration, rank 0 gathers the parts' per-game
 * results into the games' places (MPI_Gatherv), adds up the integer
 * counters and actions (MPI_Reduce), and runs cr_sim_summarize on the
 * whole array, the code a one-process run ends with: every figure,
 * floating point included, is computed from the same values in the same
 * order, hence the same report.  Every process computes every block from
 * (G, P) alone, so nothing but results travels.
 *
 * A sweep (--vary) is spread the same way, every configuration over every
 * process, rather than whole configurations handed to processes: its
 * configurations can differ in cost by orders of magnitude (random seats
 * against ismcts:iters=1000), and a process given the cheap ones would sit
 * idle while another plays the dear ones.  A configuration's games all
 * cost alike, so equal blocks keep every process busy to the end.
 *
 * A cr_sim_game is plain data (no pointers) and travels as bytes: the
 * processes run the same program on machines of one architecture, as an
 * MPI job does.  Rank 0 holds the whole per-game array of each
 * configuration, as a one-process run does, plus its own share.
 *
 * Failures: every process plays its parts, then all agree (MPI_Allreduce)
 * on the first failing rank, whose message goes to rank 0; so a failure
 * anywhere stops every process at the same point and none waits forever.
 * MPI's own errors abort the job (its default handler, MPI_ERRORS_ARE_FATAL).
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include "cli/sim_mpi.h"
#include "croupier/alloc.h"

static int mpi_joined, mpi_rank, mpi_size = 1;

/* Whether an MPI launcher started this process: mpirun (Open MPI sets
 * OMPI_COMM_WORLD_SIZE), or a PMI/PMIx launcher such as srun --mpi=pmix or
 * MPICH's hydra.  A plain `croupier sim` does not start MPI at all. */
static int launched_by_mpi(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}

int sim_mpi_start(void)
{
    if (!launched_by_mpi()) return 1;
    /* FUNNELED: the games run on threads, but only this one calls MPI */
    int provided;
    MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
    mpi_joined = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mpi_size);
    if (mpi_rank != 0) {
        fflush(NULL);
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) {
            dup2(fd, STDOUT_FILENO);
            dup2(fd, STDERR_FILENO);
            close(fd);
        }
    }
    return mpi_size;
}

int sim_mpi_rank(void) { return mpi_rank; }

int sim_mpi_all(int ok)
{
    if (!mpi_joined) return ok != 0;
    int mine = ok != 0, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return all;
}

void sim_mpi_stop(void)
{
    if (mpi_joined) MPI_Finalize();
    mpi_joined = 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The CPUs this process may run on: mpirun binds each process to cores
 * (Open MPI: one core each for 2 processes or fewer), and threads beyond
 * them would only take turns. */
static int cpus_of_this_process(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set) < 256 ? CPU_COUNT(&set) : 256;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n < 256 ? (int)n : 256;
}

/* Process q's block of a configuration's games: games first ..
 * first+count-1 of them, G/P games, the first G%P processes one more. */
static void block_of(long games, int q, long *first, long *count)
{
    long base = games / mpi_size, rest = games % mpi_size;
    *first = base * q + (q < rest ? q : rest);
    *count = base + (q < rest ? 1 : 0);
}

/* All agree on the first process that failed (size when none); its reason
 * is sent to rank 0's err. */
static int first_failure(cr_status rc, const char *why, char *err, size_t errcap)
{
    int mine = rc != CR_OK ? mpi_rank : mpi_size, first = mpi_size;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == mpi_size || first == 0) {
        if (first == 0 && mpi_rank == 0) snprintf(err, errcap, "%s", why);
        return first;
    }
    char msg[512] = "";
    if (mpi_rank == first) {
        snprintf(msg, sizeof msg, "%s", why);
        MPI_Send(msg, (int)sizeof msg, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
    } else if (mpi_rank == 0) {
        MPI_Recv(msg, (int)sizeof msg, MPI_CHAR, first, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        msg[sizeof msg - 1] = '\0';
        snprintf(err, errcap, "%s", msg);
    }
    return first;
}

cr_status sim_mpi_run(const cr_sim_config *cfgs, int n, cr_sim_result *res, char *err,
                      size_t errcap)
{
    int threads = cpus_of_this_process();

    /* 1. each process plays its parts; rank 0 also sets up every
     * configuration (an empty part) and the arrays it gathers into */
    char why[512] = "";
    cr_status rc = CR_OK;
    cr_sim_result *part = cr_calloc((size_t)n, sizeof *part);
    cr_sim_game **whole = mpi_rank == 0 ? cr_calloc((size_t)n, sizeof *whole) : NULL;
    int *counts = mpi_rank == 0 ? cr_calloc((size_t)mpi_size, sizeof *counts) : NULL;
    int *displs = mpi_rank == 0 ? cr_calloc((size_t)mpi_size, sizeof *displs) : NULL;
    if (!part || (mpi_rank == 0 && (!whole || !counts || !displs))) {
        rc = CR_ERR_NOMEM;
        snprintf(why, sizeof why, "out of memory");
    }
    for (int i = 0; rc == CR_OK && i < n; i++) {
        long first, count;
        block_of(cfgs[i].games, mpi_rank, &first, &count);
        if (count == 0 && mpi_rank != 0) continue;
        cr_sim_config c = cfgs[i];
        if (c.threads == 0) c.threads = threads;
        rc = cr_sim_run_part(&c, first, count, &part[i], why, sizeof why);
        if (rc == CR_OK && mpi_rank == 0) {
            whole[i] = cr_calloc((size_t)cfgs[i].games, sizeof *whole[i]);
            if (!whole[i]) {
                rc = CR_ERR_NOMEM;
                snprintf(why, sizeof why, "out of memory for %ld games", cfgs[i].games);
            }
        }
    }
    if (first_failure(rc, why, err, errcap) < mpi_size) {
        for (int i = 0; part && i < n; i++) cr_sim_result_fini(&part[i]);
        for (int i = 0; whole && i < n; i++) cr_free(whole[i]);
        cr_free(part);
        cr_free(whole);
        cr_free(counts);
        cr_free(displs);
        return rc != CR_OK ? rc : CR_ERR_INVALID;
    }

    /* 2. configuration by configuration, rank 0 gathers and summarizes */
    MPI_Datatype game_type;
    MPI_Type_contiguous((int)sizeof(cr_sim_game), MPI_BYTE, &game_type);
    MPI_Type_commit(&game_type);
    for (int i = 0; i < n; i++) {
        double t0 = now();
        if (mpi_rank == 0)
            for (int q = 0; q < mpi_size; q++) {
                long first, count;
                block_of(cfgs[i].games, q, &first, &count);
                counts[q] = (int)count; /* --games is at most 10^9 */
                displs[q] = (int)first;
            }
        MPI_Gatherv(part[i].per_game, (int)part[i].games, game_type,
                    mpi_rank == 0 ? whole[i] : NULL, counts, displs, game_type, 0, MPI_COMM_WORLD);
        uint64_t sums[CR_SIM_MAX_COUNTERS + 1], sum[CR_SIM_MAX_COUNTERS + 1];
        memcpy(sums, part[i].counters, sizeof part[i].counters);
        sums[CR_SIM_MAX_COUNTERS] = part[i].total_actions;
        MPI_Reduce(sums, sum, CR_SIM_MAX_COUNTERS + 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
        double secs = part[i].seconds, slowest = 0;
        MPI_Reduce(&secs, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        int used = part[i].threads, most = 0;
        MPI_Reduce(&used, &most, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
        cr_sim_result_fini(&part[i]);
        if (mpi_rank != 0) continue;
        /* the configuration as rank 0's part filled it in, with every game */
        res[i] = part[i];
        res[i].per_game = whole[i];
        whole[i] = NULL;
        res[i].games = cfgs[i].games;
        res[i].first_game = 0;
        memcpy(res[i].counters, sum, sizeof res[i].counters);
        res[i].total_actions = sum[CR_SIM_MAX_COUNTERS];
        res[i].threads = most;
        if (cr_sim_summarize(&res[i]) != CR_OK && rc == CR_OK) {
            rc = CR_ERR_NOMEM; /* the others are gathered still, then all is freed */
            snprintf(err, errcap, "out of memory for %ld games", cfgs[i].games);
        }
        res[i].seconds = slowest + (now() - t0);
    }
    MPI_Type_free(&game_type);
    cr_free(part);
    cr_free(whole);
    cr_free(counts);
    cr_free(displs);
    /* only rank 0 summarizes: its failure is everyone's */
    int ok = sim_mpi_all(mpi_rank != 0 || rc == CR_OK);
    if (!ok && mpi_rank == 0)
        for (int i = 0; i < n; i++) cr_sim_result_fini(&res[i]);
    return ok ? CR_OK : CR_ERR_NOMEM;
}
