/* fuzz_rating_csv.c — libFuzzer target: bytes -> the CSV a rating's part
 * wrote (croupier sim --rate --part K/M --csv), read back by the fit
 * (cr_sim_ratings_read, here through sim_ratings_read_streams on memory).
 *
 * The rating: DML, beginner and club at four seats, two seatings, 8 games
 * each, seed 1.  A refused file must come with "NAME:LINE: reason" and
 * nothing fitted; an accepted one must fit no more games than the rating
 * has, every rating inside its interval, and the same file given twice
 * must be refused as holding its games twice (when it held any).  ASan and
 * UBSan watch the reader. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "croupier/sim.h"
#include "fuzz_common.h"
#include "sim/sim_internal.h"

static const cr_rate_config *rating(void)
{
    static cr_rate_config rc = {.base = {.game = "dml",
                                         .num_players = 4,
                                         .games = 8,
                                         .threads = 1,
                                         .seed = 1,
                                         .progress = CR_SIM_PROGRESS_OFF},
                                .bots = {"beginner", "club"},
                                .n_bots = 2};
    return &rc;
}

/* Reads the input n times over (n streams on the same bytes). */
static cr_status read_n(const uint8_t *data, size_t size, int n, cr_rate_result *r, char *err,
                        size_t errcap)
{
    FILE *f[2] = {NULL, NULL};
    const char *names[2] = {"input", "input"};
    static const char empty[1] = "";
    for (int i = 0; i < n; i++) {
        /* fmemopen of 0 bytes is refused on some libcs: an empty input is
         * a stream with nothing in it */
        f[i] = size ? fmemopen((void *)data, size, "r") : fmemopen((void *)empty, 1, "r");
        FUZZ_CHECK(f[i] != NULL, "fmemopen failed");
        if (!size) (void)fgetc(f[i]);
    }
    cr_status rc = sim_ratings_read_streams(rating(), f, names, n, r, err, errcap);
    for (int i = 0; i < n; i++) fclose(f[i]);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cr_rate_result r;
    char err[512];
    memset(err, 'x', sizeof err);
    err[sizeof err - 1] = '\0';
    cr_status rc = read_n(data, size, 1, &r, err, sizeof err);
    if (rc != CR_OK) {
        FUZZ_CHECK(rc == CR_ERR_INVALID, "a refused file gave %s: %s", cr_status_str(rc), err);
        FUZZ_CHECK(strncmp(err, "input:", 6) == 0, "a refused file's message names no line: %s",
                   err);
        FUZZ_CHECK(r.games == 0 && r.n == 0, "a refused file fitted games");
        return 0;
    }
    FUZZ_CHECK(r.n == 2 && r.files == 1, "an accepted file fitted %d bots from %d files", r.n,
               r.files);
    FUZZ_CHECK(r.games >= 0 && r.games <= r.games_planned && r.games_planned == 16,
               "%ld games fitted of a rating of %ld", r.games, r.games_planned);
    for (int i = 0; i < 2; i++)
        FUZZ_CHECK(isfinite(r.e[i].elo) && r.e[i].lo <= r.e[i].elo + 1e-9 &&
                       r.e[i].elo <= r.e[i].hi + 1e-9,
                   "bot %d: rating %g outside [%g, %g]", i, r.e[i].elo, r.e[i].lo, r.e[i].hi);
    if (r.games > 0) {
        cr_rate_result twice;
        rc = read_n(data, size, 2, &twice, err, sizeof err);
        FUZZ_CHECK(rc == CR_ERR_INVALID && strstr(err, "the game comes twice") != NULL,
                   "the same %ld games read twice were not refused: %s", r.games,
                   rc == CR_OK ? "accepted" : err);
    }
    return 0;
}
