/* sim_mpi.c — `croupier sim` spread over the processes of an MPI job
 * (sim_mpi.h; compiled only when CMake finds MPI, e.g. Debian's
 * libopenmpi-dev).
 *
 * Each configuration's games are cut into one contiguous block per
 * process: of G games, process q of P plays G/P of them (the first G%P
 * processes one more), games first .. first+count-1, through
 * cr_sim_run_part, which seeds each game by its own index and keeps no
 * result per game, only the part's tally: the integer sums and length
 * histograms every figure comes from.  Then, configuration by
 * configuration, the processes agree on the largest histograms
 * (MPI_Allreduce), rank 0 adds up every part's tally word by word and the
 * integer counters and actions (MPI_Reduce), and computes every figure
 * from the sum with the code a one-process run ends with: integer sums do
 * not depend on the order of the games, so every figure, floating point
 * included, is the one-process figure, hence the same report.  Every
 * process computes every block from (G, P) alone, so nothing but sums
 * travels.
 *
 * With --csv the configurations keep per_game; after the sums, each
 * process sends its block's results to rank 0 in game order, in messages
 * of CSV_CHUNK games, which rank 0 writes as rows as they come
 * (stream_csv): it holds its own block and one message, never the run.
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
 * MPI job does.
 *
 * Failures: every process plays its parts, then all agree (MPI_Allreduce)
 * on the first failing rank, whose message goes to rank 0; so a failure
 * anywhere stops every process at the same point and none waits forever.
 * MPI's own errors abort the job (its default handler, MPI_ERRORS_ARE_FATAL).
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <errno.h>
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

/* Games per message when the CSV's rows travel to rank 0 (160 bytes each:
 * 640 KB a message). */
enum { CSV_CHUNK = 4096 };

/* Step 3: the per-game rows of every configuration that kept them, in game
 * order, into rank 0's CSV (csv: its path on rank 0, else NULL).  Rank 0
 * writes its own block, then receives each other process's block in
 * chunks of CSV_CHUNK games and writes them as they come; the others send
 * theirs when rank 0 asks (the order is fixed, so nobody waits on anybody
 * but rank 0).  Rank 0 holds its own block and one chunk, never the run.
 * On a write error rank 0 still takes every chunk, then fails. */
static cr_status stream_csv(const cr_sim_config *cfgs, int n, cr_sim_result *res,
                            cr_sim_result *part, const char *csv, const char *const *values,
                            MPI_Datatype game_type, char *err, size_t errcap)
{
    FILE *f = NULL;
    cr_status rc = CR_OK;
    cr_sim_game *chunk = NULL;
    if (mpi_rank == 0) {
        chunk = cr_calloc(CSV_CHUNK, sizeof *chunk);
        f = csv ? fopen(csv, "w") : NULL;
        if (csv && !f) {
            rc = CR_ERR_IO;
            snprintf(err, errcap, "%s: %s", csv, strerror(errno));
        }
        if (f) cr_sim_csv_header(&res[0], f);
    }
    /* every process must go through the same messages: a failed
     * allocation on rank 0 is everyone's, before the first one */
    if (!sim_mpi_all(mpi_rank != 0 || chunk)) {
        if (f) fclose(f);
        cr_free(chunk);
        snprintf(err, errcap, "out of memory");
        return CR_ERR_NOMEM;
    }
    for (int i = 0; i < n; i++) {
        if (cfgs[i].no_per_game) continue;
        const char *config = values ? values[i] : "default";
        for (int q = 0; q < mpi_size; q++) {
            long first, count;
            block_of(cfgs[i].games, q, &first, &count);
            if (q == 0) {
                if (f) cr_sim_csv_rows(&res[i], config, part[i].per_game, first, count, f);
                continue;
            }
            for (long off = 0; off < count; off += CSV_CHUNK) {
                int k = (int)(count - off < CSV_CHUNK ? count - off : CSV_CHUNK);
                if (mpi_rank == q) {
                    MPI_Send(part[i].per_game + off, k, game_type, 0, i, MPI_COMM_WORLD);
                } else if (mpi_rank == 0) {
                    MPI_Recv(chunk, k, game_type, q, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    if (f) cr_sim_csv_rows(&res[i], config, chunk, first + off, k, f);
                }
            }
        }
    }
    if (f && (ferror(f) | (fclose(f) != 0)) && rc == CR_OK) {
        rc = CR_ERR_IO;
        snprintf(err, errcap, "%s: %s", csv, strerror(errno));
    }
    cr_free(chunk);
    return rc;
}

cr_status sim_mpi_run(const cr_sim_config *cfgs, int n, cr_sim_result *res, const char *csv,
                      const char *const *values, char *err, size_t errcap)
{
    int threads = cpus_of_this_process();

    /* 1. each process plays its parts; rank 0 also sets up every
     * configuration (an empty part when it has no game of it) */
    char why[512] = "";
    cr_status rc = CR_OK;
    cr_sim_result *part = cr_calloc((size_t)n, sizeof *part);
    if (!part) {
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
    }
    if (first_failure(rc, why, err, errcap) < mpi_size) {
        for (int i = 0; part && i < n; i++) cr_sim_result_fini(&part[i]);
        cr_free(part);
        return rc != CR_OK ? rc : CR_ERR_INVALID;
    }

    /* 2. configuration by configuration, the parts' tallies (integer sums
     * and length histograms, padded to the largest histograms) are added
     * into rank 0's, which gives every figure from them */
    for (int i = 0; i < n; i++) { /* every process takes every step */
        double t0 = now();
        uint32_t caps[2], most[2];
        cr_sim_tally_caps(&part[i], &caps[0], &caps[1]);
        MPI_Allreduce(caps, most, 2, MPI_UINT32_T, MPI_MAX, MPI_COMM_WORLD);
        size_t words = cr_sim_tally_words(most[0], most[1]);
        int64_t *mine = cr_alloc(words * sizeof *mine);
        int64_t *sum = mpi_rank == 0 ? cr_alloc(words * sizeof *sum) : NULL;
        int ok = mine && (mpi_rank != 0 || sum) &&
                 cr_sim_tally_pack(&part[i], most[0], most[1], mine) == CR_OK;
        if (!sim_mpi_all(ok)) { /* everyone stops here */
            cr_free(mine);
            cr_free(sum);
            rc = CR_ERR_NOMEM;
            snprintf(err, errcap, "out of memory for the tallies of %ld games", cfgs[i].games);
            break;
        }
        MPI_Reduce(mine, sum, (int)words, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
        cr_free(mine);
        uint64_t sums[CR_SIM_MAX_COUNTERS + 1], total[CR_SIM_MAX_COUNTERS + 1];
        memcpy(sums, part[i].counters, sizeof part[i].counters);
        sums[CR_SIM_MAX_COUNTERS] = part[i].total_actions;
        MPI_Reduce(sums, total, CR_SIM_MAX_COUNTERS + 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
        double secs = part[i].seconds, slowest = 0;
        MPI_Reduce(&secs, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        int used = part[i].threads, most_threads = 0;
        MPI_Reduce(&used, &most_threads, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
        if (mpi_rank != 0) continue;
        /* the configuration as rank 0's part set it up, with every game's
         * sums (its own games stay in part[i] for the CSV) */
        res[i] = part[i];
        res[i].per_game = NULL;
        res[i].tally = NULL;
        res[i].games = cfgs[i].games;
        res[i].first_game = 0;
        memcpy(res[i].counters, total, sizeof res[i].counters);
        res[i].total_actions = total[CR_SIM_MAX_COUNTERS];
        res[i].threads = most_threads;
        if (cr_sim_tally_unpack(&res[i], sum, most[0], most[1]) != CR_OK && rc == CR_OK) {
            rc = CR_ERR_NOMEM; /* the others are added still, then all is freed */
            snprintf(err, errcap, "out of memory for %ld games", cfgs[i].games);
        }
        cr_free(sum);
        res[i].seconds = slowest + (now() - t0);
    }

    /* 3. the CSV's rows, if asked (the configurations kept per_game) */
    int rows = 0;
    for (int i = 0; i < n; i++) rows |= !cfgs[i].no_per_game;
    int all_ok = sim_mpi_all(rc == CR_OK);
    if (all_ok && rows) {
        MPI_Datatype game_type;
        MPI_Type_contiguous((int)sizeof(cr_sim_game), MPI_BYTE, &game_type);
        MPI_Type_commit(&game_type);
        rc = stream_csv(cfgs, n, res, part, mpi_rank == 0 ? csv : NULL, values, game_type, err,
                        errcap);
        MPI_Type_free(&game_type);
    } else if (!all_ok && rc == CR_OK) {
        rc = CR_ERR_NOMEM; /* another process ran out of memory above */
    }
    for (int i = 0; i < n; i++) cr_sim_result_fini(&part[i]);
    cr_free(part);
    /* only rank 0 summarizes and writes: its failure is everyone's */
    int ok = sim_mpi_all(mpi_rank != 0 || rc == CR_OK);
    if (!ok && mpi_rank == 0)
        for (int i = 0; i < n; i++) cr_sim_result_fini(&res[i]);
    if (!ok && mpi_rank == 0 && rc == CR_OK) snprintf(err, errcap, "out of memory");
    return ok ? CR_OK : rc != CR_OK ? rc : CR_ERR_NOMEM;
}
