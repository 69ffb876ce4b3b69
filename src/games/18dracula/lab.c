/* lab.c — the board parameters a designer's sweep may vary
 * (`croupier sim 18dracula --vary board.phase.2.limit=4,5`, docs/lab.md).
 *
 * A parameter is a number in one record of the board file, named
 * RECORD.ID.FIELD: the record's first word, its id (the second word) and
 * the word after which the number stands, e.g. `phase 2 sales 10 limit 5
 * ors 2` holds phase.2.sales, phase.2.limit and phase.2.ors.  The override
 * rewrites that one number in the board's text (the table's board file, or
 * the bundled one); the result is an ordinary board file, parsed and
 * checked by board.c like any other, so a value the rules cannot play with
 * (a phase no monster reaches, say) is refused with the parser's reason.
 * Only the keys of `params` below may be set, each within its range.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "croupier/parts.h"
#include "games/18dracula/board.h"
#include "games/18dracula/d18_internal.h"

/* Used by parts.c's lab profile (d18_lab). */
extern const char d18_lab_board_keys[];
size_t d18_lab_board_set(const cr_game *g, const char *key, const char *value, char *out,
                         size_t cap, char *err, size_t errcap);

typedef struct board_param {
    const char *record, *field;
    int32_t min, max;
} board_param;

/* What a sweep may vary: the phase chart (sales, monster limit, operating
 * rounds per set, §7.1) and each monster's price and number of copies. */
static const board_param params[] = {
    {"phase", "sales", 1, 99},     {"phase", "limit", 1, 9},     {"phase", "ors", 1, 9},
    {"monster", "price", 0, 9999}, {"monster", "copies", 1, 20},
};

const char d18_lab_board_keys[] =
    "phase.N.sales (1..99), phase.N.limit (1..9), phase.N.ors (1..9) for a phase N of the "
    "board (1..5; phase 5 has no sales), monster.ID.price (0..9999), monster.ID.copies (1..20) "
    "for a monster ID of the board (NUR, GHL, ...)";

/* The span of the next word of line [p, end): spaces skipped; 0 at the end. */
static size_t next_word(const char **p, const char *end)
{
    while (*p < end && (**p == ' ' || **p == '\t')) (*p)++;
    size_t n = 0;
    while (*p + n < end && (*p)[n] != ' ' && (*p)[n] != '\t' && (*p)[n] != '\r') n++;
    return n;
}

static int word_is(const char *w, size_t n, const char *s, size_t sn)
{
    return n == sn && memcmp(w, s, n) == 0;
}

size_t d18_lab_board_set(const cr_game *g, const char *key, const char *value, char *out,
                         size_t cap, char *err, size_t errcap)
{
    size_t len;
    const char *text = g->data_text ? g->data_text : d18_board_builtin_text(&len);
    if (g->data_text) len = g->data_len;
    /* KEY = RECORD.ID.FIELD */
    const char *d1 = strchr(key, '.'), *d2 = d1 ? strrchr(key, '.') : NULL;
    const board_param *bp = NULL;
    for (size_t i = 0; d1 && d2 > d1 + 1 && i < sizeof params / sizeof params[0]; i++)
        if (word_is(key, (size_t)(d1 - key), params[i].record, strlen(params[i].record)) &&
            strcmp(d2 + 1, params[i].field) == 0)
            bp = &params[i];
    if (!bp) {
        snprintf(err, errcap, "board.%s: not a board parameter; the parameters are %s", key,
                 d18_lab_board_keys);
        return 0;
    }
    char *endp;
    long v = strtol(value, &endp, 10);
    if (!*value || *endp || v < bp->min || v > bp->max) {
        snprintf(err, errcap, "board.%s=%s: expected a whole number in %d..%d", key, value,
                 (int)bp->min, (int)bp->max);
        return 0;
    }
    const char *id = d1 + 1;
    size_t id_n = (size_t)(d2 - id);
    /* find the record's line, then the field's number in it */
    for (const char *line = text; line < text + len;) {
        const char *eol = memchr(line, '\n', (size_t)(text + len - line));
        if (!eol) eol = text + len;
        const char *p = line;
        size_t n = next_word(&p, eol);
        if (word_is(p, n, bp->record, strlen(bp->record))) {
            p += n;
            n = next_word(&p, eol);
            if (word_is(p, n, id, id_n)) {
                for (p += n; (n = next_word(&p, eol)) > 0; p += n) {
                    if (!word_is(p, n, bp->field, strlen(bp->field))) continue;
                    p += n;
                    n = next_word(&p, eol);
                    if (!n) break;
                    /* text before the number, the value, the rest */
                    int w = snprintf(out, cap, "%.*s%ld%.*s", (int)(p - text), text, v,
                                     (int)(text + len - (p + n)), p + n);
                    if (w < 0 || (size_t)w >= cap) {
                        snprintf(err, errcap, "board.%s: the board text does not fit", key);
                        return 0;
                    }
                    return (size_t)w;
                }
                snprintf(err, errcap, "board.%s: %s %.*s of this board has no %s", key, bp->record,
                         (int)id_n, id, bp->field);
                return 0;
            }
        }
        line = eol + 1;
    }
    snprintf(err, errcap, "board.%s: this board has no %s %.*s", key, bp->record, (int)id_n, id);
    return 0;
}
