/* fuzz_action_text.c — libFuzzer target: action text in a reachable state.
 *
 * Input: a first line of up to three numbers, `TABLE SEED STEPS` (anything
 * that is not a digit separates them; a missing number is 0), then lines of
 * action text (each cut to 255 characters).  TABLE picks a table
 * (fuzz_table, modulo their count); SEED and STEPS (at most MAX_STEPS) play
 * that many random actions from the start to reach a state.  Each following line is then offered to
 * g->def->str_to_action and to cr_apply_text, in turn, on the state the
 * previous lines left.
 *
 * Promises checked: nothing crashes; str_to_action gives an id in range or
 * an error; cr_apply_text accepts a text only if the action it names is
 * legal now (its state equals apply() of that action on a copy), and
 * refuses it otherwise, with a message and the state untouched. */
#include <stdlib.h>
#include <string.h>

#include "croupier/alloc.h"
#include "croupier/parts.h"
#include "fuzz_common.h"

/* LINE_CAP: cr_apply_text refuses a text of 256 characters or more after
 * trimming ("action text too long", src/core/game.c), even one that
 * str_to_action would read (words may be separated by any number of
 * blanks); lines are cut to 255 characters so that limit is never taken
 * for a disagreement between the two. */
enum { MAX_STEPS = 1000, MAX_LINES = 64, LINE_CAP = 256 };

/* Reads up to three numbers from the first line; returns where it ends. */
static size_t read_header(const uint8_t *data, size_t size, uint64_t num[3])
{
    size_t i = 0;
    int k = -1, in_num = 0;
    num[0] = num[1] = num[2] = 0;
    for (; i < size && data[i] != '\n'; i++) {
        if (data[i] >= '0' && data[i] <= '9') {
            if (!in_num) k++;
            in_num = 1;
            if (k < 3) num[k] = num[k] * 10 + (uint64_t)(data[i] - '0');
        } else {
            in_num = 0;
        }
    }
    return i < size ? i + 1 : i;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int n_tables = fuzz_table_count();
    if (n_tables == 0) return 0;
    uint64_t num[3];
    size_t pos = read_header(data, size, num);
    const cr_game *g = fuzz_table((int)(num[0] % (uint64_t)n_tables));

    void *st = cr_calloc(1, g->state_size);
    void *before = cr_calloc(1, g->state_size);
    void *expect = cr_calloc(1, g->state_size);
    FUZZ_CHECK(st && before && expect, "out of memory");
    g->def->init(g, st);
    cr_rng rng;
    cr_rng_seed(&rng, num[1], 0x66757a7aULL);
    fuzz_random_walk(g, st, &rng, (int)(num[2] % (MAX_STEPS + 1)));

    static char line[LINE_CAP];
    static cr_event evbuf[FUZZ_MAX_EVENTS];
    char err[512];
    for (int n_lines = 0; pos < size && n_lines < MAX_LINES; n_lines++) {
        /* One line, as a C string: a NUL byte ends the text early, the way
         * every caller holding a C string would see it. */
        const uint8_t *nl = memchr(data + pos, '\n', size - pos);
        size_t end = nl ? (size_t)(nl - data) : size, len = end - pos;
        if (len >= LINE_CAP) len = LINE_CAP - 1;
        memcpy(line, data + pos, len);
        line[len] = '\0';
        pos = nl ? end + 1 : size;

        cr_action parsed = -1;
        cr_status prc = g->def->str_to_action(g, st, line, &parsed);
        if (prc == CR_OK)
            FUZZ_CHECK(parsed >= 0 && parsed < g->num_actions,
                       "str_to_action('%s') gave id %d, outside [0, %d)", line, (int)parsed,
                       g->num_actions);
        else
            FUZZ_CHECK(prc == CR_ERR_PARSE || prc == CR_ERR_ILLEGAL || prc == CR_ERR_INVALID,
                       "str_to_action('%s') returned %s", line, cr_status_str(prc));
        int legal = prc == CR_OK && fuzz_is_legal(g, st, parsed);

        memcpy(before, st, g->state_size);
        memset(err, 'x', sizeof err);
        err[sizeof err - 1] = '\0';
        cr_events ev = {.buf = evbuf, .cap = FUZZ_MAX_EVENTS};
        cr_status rc = cr_apply_text(g, st, line, &(cr_ctx){.ev = &ev}, err, sizeof err);
        if (rc == CR_OK) {
            /* Accepted: the text names an action that is legal now, and the
             * state is what applying that action gives.  cr_apply_text trims
             * blanks first, so read the trimmed text for the action id. */
            const char *s = line;
            while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\v' || *s == '\f') s++;
            char trimmed[LINE_CAP];
            strcpy(trimmed, s);
            size_t tl = strlen(trimmed);
            while (tl > 0 && strchr(" \t\r\v\f", trimmed[tl - 1])) trimmed[--tl] = '\0';
            cr_action a = -1;
            FUZZ_CHECK(g->def->str_to_action(g, before, trimmed, &a) == CR_OK,
                       "cr_apply_text accepted '%s', which str_to_action refuses", line);
            FUZZ_CHECK(fuzz_is_legal(g, before, a),
                       "cr_apply_text accepted '%s' (action %d), "
                       "which is not legal",
                       line, (int)a);
            memcpy(expect, before, g->state_size);
            g->def->apply(g, expect, a, NULL);
            FUZZ_CHECK(memcmp(expect, st, g->state_size) == 0,
                       "cr_apply_text('%s') left a state other than apply(%d)", line, (int)a);
            if (cr_parts(g)->check_invariants) {
                char why[256];
                FUZZ_CHECK(!cr_parts(g)->check_invariants(g, st, why, sizeof why),
                           "after '%s': invariant broken: %s", line, why);
            }
            FUZZ_CHECK(ev.dropped == 0, "apply dropped %d events", ev.dropped);
        } else {
            FUZZ_CHECK(!legal, "'%s' names legal action %d, but cr_apply_text refused it: %s", line,
                       (int)parsed, err);
            FUZZ_CHECK(memcmp(before, st, g->state_size) == 0,
                       "cr_apply_text refused '%s' but changed the state", line);
            FUZZ_CHECK(err[0] != '\0' && memchr(err, '\0', sizeof err - 1) != NULL,
                       "cr_apply_text refused '%s' (%s) "
                       "without a message",
                       line, cr_status_str(rc));
        }
    }
    cr_free(expect);
    cr_free(before);
    cr_free(st);
    return 0;
}
