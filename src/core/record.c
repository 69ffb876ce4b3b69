/* record.c — game records as text (docs/records.md): a header of
 * `key value` lines (game, variant, players, first-roller, seed), the line
 * `actions`, then one action per line in the game's notation, chance
 * outcomes included.  `#` comment lines and blank lines are ignored.
 *
 * Loading replays the record: every action is parsed in the state it
 * applies to and checked with the legal list (or the chance outcomes), so
 * a record that loads is a game that happened.  Input is untrusted: every
 * failure becomes "line N: problem", never a crash, and the partial game
 * is freed.  Writing replays too: an action's text depends on its state. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"
#include "croupier/alloc.h"
#include "croupier/record.h"

enum { MAX_LINE = 1024 };

void cr_record_init(cr_record *r) { memset(r, 0, sizeof *r); }

void cr_record_fini(cr_record *r)
{
    cr_free(r->actions);
    cr_record_init(r);
}

cr_status cr_record_push(cr_record *r, cr_action a)
{
    if (r->n_actions == r->cap_actions) {
        int cap = r->cap_actions ? r->cap_actions * 2 : 256;
        if (cap < r->cap_actions) /* overflow */
            return CR_ERR_NOMEM;
        cr_action *p = cr_realloc(r->actions, (size_t)cap * sizeof *p);
        if (p == NULL) return CR_ERR_NOMEM;
        r->actions = p;
        r->cap_actions = cap;
    }
    r->actions[r->n_actions++] = a;
    return CR_OK;
}

/* ---- writing ---- */

static cr_game *game_for(const cr_record *r, char *err, size_t errcap)
{
    const cr_game_def *def = cr_registry_find(r->game);
    if (def == NULL) {
        cr_errf(err, errcap, "unknown game '%s'", r->game);
        return NULL;
    }
    cr_params p = {.num_players = r->num_players,
                   .variant = r->variant[0] ? r->variant : NULL,
                   .first_roller = r->first_roller};
    return cr_game_new(def, &p, err, errcap);
}

cr_status cr_record_write(const cr_record *r, FILE *f, char *err, size_t errcap)
{
    cr_game *g = game_for(r, err, errcap);
    if (g == NULL) return CR_ERR_INVALID;
    void *st = cr_alloc(g->state_size);
    if (st == NULL) {
        cr_game_free(g);
        cr_errf(err, errcap, "out of memory");
        return CR_ERR_NOMEM;
    }
    g->def->init(g, st);

    cr_status rc = CR_OK;
    fprintf(f, "# croupier record: %s\n", g->def->title ? g->def->title : g->def->name);
    fprintf(f, "game %s\nvariant %s\nplayers %d\nfirst-roller %d\n", g->def->name, g->variant->name,
            g->num_players, g->params.first_roller);
    if (r->has_seed) fprintf(f, "seed %" PRIu64 "\n", r->seed);
    fprintf(f, "actions\n");

    char text[CR_CORE_MAX_ACTION_TEXT];
    for (int i = 0; i < r->n_actions; i++) {
        cr_action a = r->actions[i], back = -1;
        if (!cr_core_is_legal(g, st, a)) {
            cr_errf(err, errcap, "action %d (id %d) is not legal in its position", i + 1, (int)a);
            rc = CR_ERR_INVALID;
            break;
        }
        size_t len = g->def->action_to_str(g, st, a, text, sizeof text);
        /* The line must read back as the same action, or the record is useless. */
        if (len == 0 || len >= sizeof text || strchr(text, '\n') ||
            g->def->str_to_action(g, st, text, &back) != CR_OK || back != a) {
            cr_errf(err, errcap, "action %d (id %d): notation '%s' does not read back", i + 1,
                    (int)a, len < sizeof text ? text : "(too long)");
            rc = CR_ERR_INVALID;
            break;
        }
        fprintf(f, "%s\n", text);
        g->def->apply(g, st, a, NULL);
    }
    if (rc == CR_OK) {
        int who = g->def->current_player(g, st);
        if (who == CR_TERMINAL) {
            double sc[CR_MAX_PLAYERS], ret[CR_MAX_PLAYERS];
            g->def->scores(g, st, sc);
            g->def->returns(g, st, ret);
            fprintf(f, "# game over. scores:");
            for (int s = 0; s < g->num_players; s++) fprintf(f, " %g", sc[s]);
            fprintf(f, "; returns:");
            for (int s = 0; s < g->num_players; s++) fprintf(f, " %g", ret[s]);
            fprintf(f, "\n");
        } else if (who == CR_CHANCE) {
            fprintf(f, "# unfinished: chance to act\n");
        } else {
            fprintf(f, "# unfinished: P%d to act\n", who);
        }
    }
    if (fflush(f) != 0 || ferror(f)) {
        if (rc == CR_OK) {
            cr_errf(err, errcap, "write failed: %s", strerror(errno));
            rc = CR_ERR_IO;
        }
    }
    cr_free(st);
    cr_game_free(g);
    return rc;
}

/* ---- reading ---- */

typedef struct reader {
    const char *p, *end;
    int line;           /* number of the line last returned */
    char buf[MAX_LINE]; /* the line, without surrounding blanks */
} reader;

/* Next line into rd->buf: 1 = got one, 0 = end of text, -1 = error (err set). */
static int next_line(reader *rd, char *err, size_t errcap)
{
    if (rd->p >= rd->end) return 0;
    rd->line++;
    const char *start = rd->p;
    const char *nl = memchr(start, '\n', (size_t)(rd->end - start));
    const char *stop = nl ? nl : rd->end;
    rd->p = nl ? nl + 1 : rd->end;
    if (memchr(start, '\0', (size_t)(stop - start)) != NULL) {
        cr_errf(err, errcap, "line %d: NUL byte in text", rd->line);
        return -1;
    }
    while (start < stop && isspace((unsigned char)*start)) start++;
    while (stop > start && isspace((unsigned char)stop[-1])) /* also drops a '\r' */
        stop--;
    size_t len = (size_t)(stop - start);
    if (len >= sizeof rd->buf) {
        cr_errf(err, errcap, "line %d: line too long (limit %d characters)", rd->line,
                MAX_LINE - 1);
        return -1;
    }
    memcpy(rd->buf, start, len);
    rd->buf[len] = '\0';
    return 1;
}

/* Parses a decimal integer that fills the whole of s. */
static int parse_u64(const char *s, uint64_t *out)
{
    if (!isdigit((unsigned char)s[0])) return 0;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0') return 0;
    *out = (uint64_t)v;
    return 1;
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
    uint64_t v;
    if (!parse_u64(s, &v) || v < (uint64_t)lo || v > (uint64_t)hi) return 0;
    *out = (int)v;
    return 1;
}

static int valid_name(const char *s, size_t cap)
{
    size_t n = strlen(s);
    if (n == 0 || n >= cap) return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.') return 0;
    return 1;
}

enum { K_GAME, K_VARIANT, K_PLAYERS, K_FIRST, K_SEED, K_COUNT };
static const char *const keys[K_COUNT] = {"game", "variant", "players", "first-roller", "seed"};

/* Reads the header up to and including the `actions` line into r. */
static cr_status read_header(reader *rd, cr_record *r, int key_line[K_COUNT], char *err,
                             size_t errcap)
{
    int got;
    while ((got = next_line(rd, err, errcap)) == 1) {
        char *line = rd->buf;
        if (line[0] == '\0' || line[0] == '#') continue;
        if (strcmp(line, "actions") == 0) {
            if (!key_line[K_GAME]) {
                cr_errf(err, errcap, "line %d: 'actions' before the 'game' line", rd->line);
                return CR_ERR_PARSE;
            }
            return CR_OK;
        }
        char *val = line;
        while (*val && !isspace((unsigned char)*val)) val++;
        if (*val) *val++ = '\0';
        while (isspace((unsigned char)*val)) val++;
        int k = 0;
        while (k < K_COUNT && strcmp(line, keys[k]) != 0) k++;
        if (k == K_COUNT) {
            cr_errf(err, errcap,
                    "line %d: unknown header key '%.40s' (expected game, variant, players, "
                    "first-roller, seed or actions)",
                    rd->line, line);
            return CR_ERR_PARSE;
        }
        if (key_line[k]) {
            cr_errf(err, errcap, "line %d: '%s' given twice (first on line %d)", rd->line, keys[k],
                    key_line[k]);
            return CR_ERR_PARSE;
        }
        key_line[k] = rd->line;
        if (val[0] == '\0') {
            cr_errf(err, errcap, "line %d: '%s' needs a value", rd->line, keys[k]);
            return CR_ERR_PARSE;
        }
        int ok = 1;
        switch (k) {
        case K_GAME:
            ok = valid_name(val, sizeof r->game);
            if (ok) {
                strcpy(r->game, val);
                if (cr_registry_find(val) == NULL) {
                    cr_errf(err, errcap, "line %d: unknown game '%s'", rd->line, val);
                    return CR_ERR_INVALID;
                }
            }
            break;
        case K_VARIANT:
            ok = valid_name(val, sizeof r->variant);
            if (ok) strcpy(r->variant, val);
            break;
        case K_PLAYERS: ok = parse_int(val, 1, CR_MAX_PLAYERS, &r->num_players); break;
        case K_FIRST: ok = parse_int(val, 0, CR_MAX_PLAYERS - 1, &r->first_roller); break;
        case K_SEED:
            ok = parse_u64(val, &r->seed);
            r->has_seed = ok;
            break;
        }
        if (!ok) {
            static const char *const want[K_COUNT] = {
                "a game name", "a variant name", "a player count from 1 to 8",
                "a seat number from 0 to 7", "an unsigned 64-bit integer"};
            cr_errf(err, errcap, "line %d: bad %s '%.40s': expected %s", rd->line, keys[k], val,
                    want[k]);
            return CR_ERR_PARSE;
        }
    }
    if (got < 0) return CR_ERR_PARSE;
    cr_errf(err, errcap, "line %d: end of text before the 'actions' line%s", rd->line + !rd->line,
            key_line[K_GAME] ? "" : " (and no 'game' line)");
    return CR_ERR_PARSE;
}

cr_status cr_record_load(const char *text, size_t len, cr_record *r, cr_game **g_out, void **st_out,
                         char *err, size_t errcap)
{
    *g_out = NULL;
    *st_out = NULL;
    cr_record_init(r);
    if (err && errcap) err[0] = '\0';

    reader rd = {.p = text, .end = text + len, .line = 0};
    int key_line[K_COUNT] = {0};
    cr_status rc = read_header(&rd, r, key_line, err, errcap);
    if (rc != CR_OK) {
        cr_record_fini(r);
        return rc;
    }
    int actions_line = rd.line;

    const cr_game_def *def = cr_registry_find(r->game);
    if (r->variant[0]) {
        int found = 0;
        for (int i = 0; i < def->n_variants; i++)
            found |= strcmp(def->variants[i].name, r->variant) == 0;
        if (!found) {
            cr_errf(err, errcap, "line %d: %s has no variant '%s'", key_line[K_VARIANT], def->name,
                    r->variant);
            cr_record_fini(r);
            return CR_ERR_INVALID;
        }
    }
    char why[256];
    cr_game *g = game_for(r, why, sizeof why);
    if (g == NULL) {
        int at = key_line[K_PLAYERS]   ? key_line[K_PLAYERS]
                 : key_line[K_FIRST]   ? key_line[K_FIRST]
                 : key_line[K_VARIANT] ? key_line[K_VARIANT]
                                       : actions_line;
        cr_errf(err, errcap, "line %d: %s", at, why);
        cr_record_fini(r);
        return CR_ERR_INVALID;
    }
    /* Write back what the game settled (defaults), so writing reproduces it. */
    r->num_players = g->num_players;
    strcpy(r->variant, g->variant->name);

    void *st = cr_alloc(g->state_size);
    if (st == NULL) {
        cr_errf(err, errcap, "out of memory");
        cr_game_free(g);
        cr_record_fini(r);
        return CR_ERR_NOMEM;
    }
    g->def->init(g, st);

    int got;
    while ((got = next_line(&rd, err, errcap)) == 1) {
        if (rd.buf[0] == '\0' || rd.buf[0] == '#') continue;
        cr_action a;
        rc = cr_core_parse_action(g, st, rd.buf, &a, why, sizeof why);
        if (rc == CR_OK) rc = cr_record_push(r, a);
        if (rc != CR_OK) {
            cr_errf(err, errcap, "line %d: %s", rd.line,
                    rc == CR_ERR_NOMEM ? "out of memory" : why);
            break;
        }
        g->def->apply(g, st, a, NULL);
    }
    if (got < 0) rc = CR_ERR_PARSE;
    if (rc != CR_OK) {
        cr_free(st);
        cr_game_free(g);
        cr_record_fini(r);
        return rc;
    }
    *g_out = g;
    *st_out = st;
    return CR_OK;
}
