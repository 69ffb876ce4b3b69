/* lab.c — the board parameters a designer's sweep may vary
 * (`croupier sim 18dracula --vary board.phase.2.limit=4,5`, docs/lab.md).
 *
 * A parameter is a number in one record of the board file, named
 * RECORD.ID.FIELD, RECORD.FIELD or RECORD: the record's first word, its id
 * (the second word, for records that have one) and the word after which
 * the number stands, e.g. `phase 2 sales 10 limit 5 ors 2` holds
 * phase.2.sales, phase.2.limit and phase.2.ors, `cash 4 600` holds cash.4
 * and `bank 12000` holds bank.  The override rewrites that one number in
 * the board's text (the table's board file, or the bundled one); the
 * optional records (bank, cash, assoc), which a board may leave out to
 * keep the rules' numbers, are added when the text has no such number.
 * The result is an ordinary board file, parsed and checked by board.c like
 * any other, so a value the rules cannot play with (a phase no monster
 * reaches, associates' prices that fall along the auction's order) is
 * refused with the parser's reason.  Only the keys of `params` below may
 * be set, each within its range.
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
    const char *record;
    int has_id;        /* RECORD.ID.FIELD; else RECORD.FIELD or RECORD */
    const char *field; /* the word before the number; "N": a number of players (cash);
                          NULL: the number follows the record's keyword */
    int optional;      /* a record the board may leave out: added when absent */
    int32_t min, max;
} board_param;

/* What a sweep may vary: the phase chart (sales, monster limit, operating
 * rounds per set, §7.1), each monster's price and number of copies, the
 * bank, the starting money for each number of players and each
 * associate's price (R4, R5, §9). */
static const board_param params[] = {
    {"phase", 1, "sales", 0, 1, 99},
    {"phase", 1, "limit", 0, 1, 9},
    {"phase", 1, "ors", 0, 1, 9},
    {"monster", 1, "price", 0, 0, 9999},
    {"monster", 1, "copies", 0, 1, 20},
    {"bank", 0, NULL, 1, D18_MIN_BANK, D18_MAX_BANK},
    {"cash", 0, "N", 1, 1, D18_MAX_START_CASH},
    {"assoc", 1, "price", 1, 5, D18_MAX_PRICE},
};

const char d18_lab_board_keys[] =
    "phase.N.sales (1..99), phase.N.limit (1..9), phase.N.ors (1..9) for a phase N of the "
    "board (1..5; phase 5 has no sales), monster.ID.price (0..9999), monster.ID.copies (1..20) "
    "for a monster ID of the board (NUR, GHL, ...), bank (1000..1000000, the bank at the start), "
    "cash.N (1..50000, each player's starting money at a table of N = 2..6 players), "
    "assoc.ID.price (5..5000, a multiple of 5) for an associate ID (IL, JH, CV, LL, BT, MI, FD)";

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

/* out = text[0, at) + ins + text[at + cut, len): the length, or 0 with err
 * when it does not fit. */
static size_t splice(const char *text, size_t len, size_t at, size_t cut, const char *ins,
                     char *out, size_t cap, const char *key, char *err, size_t errcap)
{
    int w = snprintf(out, cap, "%.*s%s%.*s", (int)at, text, ins, (int)(len - at - cut),
                     text + at + cut);
    if (w < 0 || (size_t)w >= cap) {
        snprintf(err, errcap, "board.%s: the board text does not fit", key);
        return 0;
    }
    return (size_t)w;
}

size_t d18_lab_board_set(const cr_game *g, const char *key, const char *value, char *out,
                         size_t cap, char *err, size_t errcap)
{
    size_t len;
    const char *text = g->data_text ? g->data_text : d18_board_builtin_text(&len);
    if (g->data_text) len = g->data_len;
    /* KEY = RECORD[.ID][.FIELD]: up to three parts */
    const char *part[3] = {key, NULL, NULL};
    size_t plen[3] = {0, 0, 0};
    int nparts = 1;
    for (const char *c = key;; c++) {
        if (*c == '.' || *c == '\0') {
            plen[nparts - 1] = (size_t)(c - part[nparts - 1]);
            if (*c == '\0') break;
            if (nparts == 3) {
                nparts = 4; /* too many */
                break;
            }
            part[nparts++] = c + 1;
        }
    }
    const board_param *bp = NULL;
    for (size_t i = 0; nparts <= 3 && i < sizeof params / sizeof params[0]; i++) {
        const board_param *q = &params[i];
        int want = 1 + q->has_id + (q->field != NULL);
        if (nparts != want || !word_is(part[0], plen[0], q->record, strlen(q->record))) continue;
        int ok = 1;
        for (int k = 1; k < nparts; k++) ok &= plen[k] > 0;
        if (!ok) continue;
        const char *f = q->field ? part[nparts - 1] : NULL;
        size_t fn = q->field ? plen[nparts - 1] : 0;
        if (q->field && strcmp(q->field, "N") == 0) {
            if (fn != 1 || f[0] < '2' || f[0] > '0' + D18_BOARD_MAX_PLAYERS) continue;
        } else if (q->field && !word_is(f, fn, q->field, strlen(q->field))) {
            continue;
        }
        bp = q;
    }
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
    const char *id = bp->has_id ? part[1] : NULL;
    size_t id_n = bp->has_id ? plen[1] : 0;
    const char *field = bp->field ? part[nparts - 1] : NULL;
    size_t field_n = bp->field ? plen[nparts - 1] : 0;
    int pairs = bp->field && strcmp(bp->field, "N") == 0; /* cash: N C pairs */
    char num[32];
    snprintf(num, sizeof num, "%ld", v);
    /* find the record's line, then the field's number in it */
    for (const char *line = text; line < text + len;) {
        const char *eol = memchr(line, '\n', (size_t)(text + len - line));
        if (!eol) eol = text + len;
        const char *p = line;
        size_t n = next_word(&p, eol);
        if (word_is(p, n, bp->record, strlen(bp->record))) {
            p += n;
            if (bp->has_id) {
                n = next_word(&p, eol);
                if (!word_is(p, n, id, id_n)) {
                    line = eol + 1;
                    continue;
                }
                p += n;
            }
            const char *after_head = p; /* where a missing field is added */
            if (!field) {               /* bank B */
                n = next_word(&p, eol);
                return splice(text, len, (size_t)(p - text), n, num, out, cap, key, err, errcap);
            }
            for (int k = 0; (n = next_word(&p, eol)) > 0 && *p != '#'; p += n, k++) {
                if (pairs && k % 2) continue; /* a value, not a number of players */
                if (!word_is(p, n, field, field_n)) continue;
                p += n;
                n = next_word(&p, eol);
                if (!n) break;
                return splice(text, len, (size_t)(p - text), n, num, out, cap, key, err, errcap);
            }
            if (bp->optional) { /* RECORD[ ID] FIELD V ... */
                char ins[64];
                snprintf(ins, sizeof ins, " %.*s %s", (int)field_n, field, num);
                return splice(text, len, (size_t)(after_head - text), 0, ins, out, cap, key, err,
                              errcap);
            }
            snprintf(err, errcap, "board.%s: %s %.*s of this board has no %.*s", key, bp->record,
                     (int)id_n, id, (int)field_n, field);
            return 0;
        }
        line = eol + 1;
    }
    if (bp->optional) { /* a new line at the end: RECORD[ ID][ FIELD] V */
        char ins[96];
        snprintf(ins, sizeof ins, "%s%s%s%.*s%s%.*s %s\n",
                 len > 0 && text[len - 1] != '\n' ? "\n" : "", bp->record, id ? " " : "", (int)id_n,
                 id ? id : "", field ? " " : "", (int)field_n, field ? field : "", num);
        return splice(text, len, len, 0, ins, out, cap, key, err, errcap);
    }
    snprintf(err, errcap, "board.%s: this board has no %s %.*s", key, bp->record, (int)id_n,
             id ? id : "");
    return 0;
}
