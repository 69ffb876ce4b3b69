/* record.c — game records as text (docs/records.md): a header of
 * `key value` lines (game, rules, variant, players, option, data-hash,
 * seed, seat), the line `actions`, then one action per line in the game's
 * notation, chance outcomes included, with the match's marks (`! resign 2`)
 * in place.  `#` comment lines and blank lines are ignored.
 *
 * Loading replays the record: every action is parsed in the state it
 * applies to and checked with the legal list (or the chance outcomes), so
 * a record that loads is a game that happened.  Input is untrusted: every
 * failure becomes "line N: problem", never a crash, and the partial game
 * is freed.  Writing replays too: an action's text depends on its state.
 * A record made under another rules version, or with other game data
 * (a different hash), is refused: it would replay as a different game. */
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
    cr_free(r->marks);
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

cr_status cr_record_mark(cr_record *r, cr_mark_kind kind, int seat, const char *spec)
{
    if (spec != NULL && strlen(spec) >= CR_RECORD_SPEC_MAX) return CR_ERR_INVALID;
    if (r->n_marks == r->cap_marks) {
        int cap = r->cap_marks ? r->cap_marks * 2 : 8;
        cr_mark *p = cr_realloc(r->marks, (size_t)cap * sizeof *p);
        if (p == NULL) return CR_ERR_NOMEM;
        r->marks = p;
        r->cap_marks = cap;
    }
    cr_mark *m = &r->marks[r->n_marks++];
    memset(m, 0, sizeof *m);
    m->at = r->n_actions;
    m->kind = kind;
    m->seat = seat;
    if (spec) strcpy(m->spec, spec);
    return CR_OK;
}

void cr_record_truncate(cr_record *r, int n)
{
    if (n < 0) n = 0;
    if (n < r->n_actions) r->n_actions = n;
    /* A mark at n was made in the state the actions now end in: it stays;
     * marks made after a dropped action go with it. */
    while (r->n_marks > 0 && r->marks[r->n_marks - 1].at > r->n_actions) r->n_marks--;
}

void cr_record_set_game(cr_record *r, const cr_game *g)
{
    snprintf(r->game, sizeof r->game, "%s", g->def->name);
    snprintf(r->variant, sizeof r->variant, "%s", g->variant->name);
    r->num_players = g->num_players;
    r->rules_version = g->def->rules_version;
    r->n_options = 0;
    r->has_data_hash = 0;
    for (int i = 0; i < g->def->n_options && r->n_options < CR_MAX_OPTIONS; i++) {
        if (!cr_option_applies(g->def, i, g->variant->name)) continue; /* another variant's */
        snprintf(r->opt_key[r->n_options], sizeof r->opt_key[0], "%s", g->def->options[i].key);
        cr_option_to_str(g, i, r->opt_val[r->n_options], sizeof r->opt_val[0]);
        r->n_options++;
        if (g->def->options[i].type == CR_OPT_FILE && g->opt[i]) {
            r->data_hash = g->data_hash;
            r->has_data_hash = 1;
        }
    }
}

void cr_record_params(const cr_record *r, const cr_params *overrides, cr_params *out)
{
    memset(out, 0, sizeof *out);
    out->num_players = r->num_players;
    out->variant = r->variant[0] ? r->variant : NULL;
    for (int i = 0; i < r->n_options; i++) (void)cr_params_set(out, r->opt_key[i], r->opt_val[i]);
    if (overrides != NULL)
        for (int i = 0; i < overrides->n_options; i++)
            (void)cr_params_set(out, overrides->options[i].key, overrides->options[i].value);
}

/* ---- writing ---- */

static cr_game *game_for(const cr_record *r, const cr_params *overrides, char *err, size_t errcap)
{
    const cr_game_def *def = cr_registry_find(r->game);
    if (def == NULL) {
        cr_errf(err, errcap, "unknown game '%s'", r->game);
        return NULL;
    }
    cr_params p;
    cr_record_params(r, overrides, &p);
    return cr_game_new(def, &p, err, errcap);
}

static const char *const mark_names[] = {[CR_MARK_RESIGN] = "resign",
                                         [CR_MARK_TIMEOUT] = "timeout",
                                         [CR_MARK_SEAT] = "seat",
                                         [CR_MARK_END] = "end"};

static void write_marks(const cr_record *r, int at, int *next, FILE *f)
{
    while (*next < r->n_marks && r->marks[*next].at == at) {
        const cr_mark *m = &r->marks[(*next)++];
        if (m->kind == CR_MARK_END)
            fprintf(f, "! end\n");
        else if (m->kind == CR_MARK_SEAT)
            fprintf(f, "! seat %d %s\n", m->seat, m->spec);
        else
            fprintf(f, "! %s %d\n", mark_names[m->kind], m->seat);
    }
}

cr_status cr_record_write(const cr_record *r, FILE *f, char *err, size_t errcap)
{
    cr_game *g = game_for(r, NULL, err, errcap);
    if (g == NULL) return CR_ERR_INVALID;
    void *st = cr_alloc(g->state_size);
    cr_ctx *cx = cr_ctx_new(g);
    if (st == NULL || cx == NULL) {
        cr_free(st);
        cr_ctx_free(cx);
        cr_game_free(g);
        cr_errf(err, errcap, "out of memory");
        return CR_ERR_NOMEM;
    }
    g->def->init(g, st);

    cr_status rc = CR_OK;
    fprintf(f, "# croupier record: %s\n", g->def->title ? g->def->title : g->def->name);
    fprintf(f, "game %s\nrules %d\nvariant %s\nplayers %d\n", g->def->name, g->def->rules_version,
            g->variant->name, g->num_players);
    for (int i = 0; i < g->def->n_options; i++) {
        char val[CR_RECORD_OPT_MAX];
        cr_option_to_str(g, i, val, sizeof val);
        if (g->def->options[i].type == CR_OPT_FILE && !g->opt[i]) continue; /* built-in data */
        if (!cr_option_applies(g->def, i, g->variant->name)) continue;      /* another variant's */
        fprintf(f, "option %s %s\n", g->def->options[i].key, val);
    }
    if (r->has_data_hash) fprintf(f, "data-hash %016" PRIx64 "\n", r->data_hash);
    if (r->has_seed) fprintf(f, "seed %" PRIu64 "\n", r->seed);
    for (int s = 0; s < r->n_seats; s++) fprintf(f, "seat %d %s\n", s, r->seats[s]);
    if (r->hints) fprintf(f, "hints allowed\n");
    fprintf(f, "actions\n");

    char text[CR_CORE_MAX_ACTION_TEXT];
    int next_mark = 0;
    for (int i = 0; i < r->n_actions; i++) {
        write_marks(r, i, &next_mark, f);
        cr_action a = r->actions[i], back = -1;
        if (!cr_core_is_legal(g, st, a, cx)) {
            cr_errf(err, errcap, "action %d (id %d) is not legal in its position", i + 1, (int)a);
            rc = CR_ERR_INVALID;
            break;
        }
        size_t len = g->def->action_to_str(g, st, a, text, sizeof text);
        /* The line must read back as the same action, or the record is useless. */
        if (len == 0 || len >= sizeof text || strchr(text, '\n') || text[0] == '!' ||
            text[0] == '#' || g->def->str_to_action(g, st, text, &back) != CR_OK || back != a) {
            cr_errf(err, errcap, "action %d (id %d): notation '%s' does not read back", i + 1,
                    (int)a, len < sizeof text ? text : "(too long)");
            rc = CR_ERR_INVALID;
            break;
        }
        fprintf(f, "%s\n", text);
        g->def->apply(g, st, a, cx);
    }
    if (rc == CR_OK) write_marks(r, r->n_actions, &next_mark, f);
    if (rc == CR_OK) {
        int who = g->def->current_player(g, st);
        if (who == CR_TERMINAL) {
            cr_result res;
            g->def->result(g, st, &res);
            fprintf(f, "# game over. scores:");
            for (int s = 0; s < g->num_players; s++) fprintf(f, " %d", (int)res.score[s]);
            fprintf(f, "; ranks:");
            for (int s = 0; s < g->num_players; s++) fprintf(f, " %d", (int)res.rank[s]);
            fprintf(f, "\n");
        } else if (r->n_marks > 0 && r->marks[r->n_marks - 1].kind == CR_MARK_END) {
            fprintf(f, "# the match ended before the game did\n");
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
    cr_ctx_free(cx);
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

static int parse_hex64(const char *s, uint64_t *out)
{
    if (strlen(s) != 16 || strspn(s, "0123456789abcdef") != 16) return 0;
    *out = (uint64_t)strtoull(s, NULL, 16);
    return 1;
}

/* Keys that may appear once; `option` and `seat` may repeat.  K_BARE is
 * an option spelled as a key of its own (`KEY VALUE`, as records made
 * before table options wrote it), for the options whose game allows it
 * (CR_OPTF_RECORD_KEY); each such key may appear once. */
enum {
    K_GAME,
    K_RULES,
    K_VARIANT,
    K_PLAYERS,
    K_BARE,
    K_SEED,
    K_HASH,
    K_OPTION,
    K_SEAT,
    K_HINTS,
    K_COUNT
};
static const char *const keys[K_COUNT] = {"game", "rules",     "variant", "players", "",
                                          "seed", "data-hash", "option",  "seat",    "hints"};

/* The option of `game` a record may spell as the header key `key`
 * (CR_OPTF_RECORD_KEY): its index, or -1. */
static int bare_option(const char *game, const char *key)
{
    const cr_game_def *def = cr_registry_find(game);
    for (int i = 0; def && i < def->n_options; i++)
        if ((def->options[i].flags & CR_OPTF_RECORD_KEY) && strcmp(def->options[i].key, key) == 0)
            return i;
    return -1;
}

/* A header line whose key is not in keys[] before the game is known: kept
 * until the `actions` line, then read as an option of the game (or refused
 * as an unknown key), so the header's keys may come in any order. */
enum { MAX_PENDING = 4 };
typedef struct pending_key {
    int line;
    char key[48], val[CR_RECORD_OPT_MAX + 1]; /* truncated: then too long */
} pending_key;

/* Splits "word rest" in place: returns rest (blanks skipped), "" if none. */
static char *split_word(char *line)
{
    char *val = line;
    while (*val && !isspace((unsigned char)*val)) val++;
    if (*val) *val++ = '\0';
    while (isspace((unsigned char)*val)) val++;
    return val;
}

static int printable(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f) return 0;
    return 1;
}

static int add_option(cr_record *r, const char *key, const char *val)
{
    for (int i = 0; i < r->n_options; i++)
        if (strcmp(r->opt_key[i], key) == 0) return -1;
    if (r->n_options >= CR_MAX_OPTIONS || strlen(key) >= sizeof r->opt_key[0] ||
        strlen(val) >= sizeof r->opt_val[0] || !printable(val))
        return 0;
    strcpy(r->opt_key[r->n_options], key);
    strcpy(r->opt_val[r->n_options], val);
    r->n_options++;
    return 1;
}

static cr_status unknown_key(int line, const char *key, char *err, size_t errcap)
{
    cr_errf(err, errcap,
            "line %d: unknown header key '%.40s' (expected game, rules, variant, players, "
            "option, data-hash, seed, seat, hints or actions)",
            line, key);
    return CR_ERR_PARSE;
}

/* `KEY VALUE` on line `at` for the game's option `o` (bare_option). */
static cr_status read_bare(cr_record *r, int o, const char *key, const char *val, int at,
                           int key_line[K_COUNT], int bare_line[CR_MAX_OPTIONS], char *err,
                           size_t errcap)
{
    if (bare_line[o]) {
        cr_errf(err, errcap, "line %d: '%s' given twice (first on line %d)", at, key, bare_line[o]);
        return CR_ERR_PARSE;
    }
    bare_line[o] = at;
    if (!key_line[K_BARE]) key_line[K_BARE] = at;
    if (val[0] == '\0') {
        cr_errf(err, errcap, "line %d: '%s' needs a value", at, key);
        return CR_ERR_PARSE;
    }
    /* given as `option KEY VALUE` too: the first one stands */
    if (!add_option(r, key, val)) {
        cr_errf(err, errcap, "line %d: bad %s '%.40s': expected a value of the option %s", at, key,
                val, key);
        return CR_ERR_PARSE;
    }
    return CR_OK;
}

/* Reads the header up to and including the `actions` line into r. */
static cr_status read_header(reader *rd, cr_record *r, int key_line[K_COUNT], char *err,
                             size_t errcap)
{
    int got, bare_line[CR_MAX_OPTIONS] = {0}, n_pending = 0;
    pending_key pending[MAX_PENDING];
    while ((got = next_line(rd, err, errcap)) == 1) {
        char *line = rd->buf;
        if (line[0] == '\0' || line[0] == '#') continue;
        if (strcmp(line, "actions") == 0) {
            if (!key_line[K_GAME]) {
                cr_errf(err, errcap, "line %d: 'actions' before the 'game' line", rd->line);
                return CR_ERR_PARSE;
            }
            for (int i = 0; i < n_pending; i++) {
                pending_key *pk = &pending[i];
                int o = bare_option(r->game, pk->key);
                if (o < 0) return unknown_key(pk->line, pk->key, err, errcap);
                cr_status rc =
                    read_bare(r, o, pk->key, pk->val, pk->line, key_line, bare_line, err, errcap);
                if (rc != CR_OK) return rc;
            }
            return CR_OK;
        }
        char *val = split_word(line);
        int k = 0;
        while (k < K_COUNT && (k == K_BARE || strcmp(line, keys[k]) != 0)) k++;
        if (k == K_COUNT) {
            if (key_line[K_GAME]) { /* an option of the game's, or unknown */
                int o = bare_option(r->game, line);
                if (o < 0) return unknown_key(rd->line, line, err, errcap);
                cr_status rc =
                    read_bare(r, o, line, val, rd->line, key_line, bare_line, err, errcap);
                if (rc != CR_OK) return rc;
                continue;
            }
            if (n_pending == MAX_PENDING || strlen(line) >= sizeof pending[0].key)
                return unknown_key(rd->line, line, err, errcap);
            pending_key *pk = &pending[n_pending++];
            pk->line = rd->line;
            strcpy(pk->key, line);
            snprintf(pk->val, sizeof pk->val, "%s", val);
            continue;
        }
        if (key_line[k] && k != K_OPTION && k != K_SEAT) {
            cr_errf(err, errcap, "line %d: '%s' given twice (first on line %d)", rd->line, keys[k],
                    key_line[k]);
            return CR_ERR_PARSE;
        }
        key_line[k] = rd->line;
        if (val[0] == '\0' && k != K_OPTION) {
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
        case K_RULES: ok = parse_int(val, 1, 1000000, &r->rules_version); break;
        case K_VARIANT:
            ok = valid_name(val, sizeof r->variant);
            if (ok) strcpy(r->variant, val);
            break;
        case K_PLAYERS: ok = parse_int(val, 1, CR_MAX_PLAYERS, &r->num_players); break;
        case K_BARE: break; /* read_bare() */
        case K_SEED:
            ok = parse_u64(val, &r->seed);
            r->has_seed = ok;
            break;
        case K_HASH:
            ok = parse_hex64(val, &r->data_hash);
            r->has_data_hash = ok;
            break;
        case K_OPTION: {
            char *ov = split_word(val);
            ok = valid_name(val, sizeof r->opt_key[0]);
            if (ok) ok = add_option(r, val, ov);
            if (ok < 0) {
                cr_errf(err, errcap, "line %d: option '%s' given twice", rd->line, val);
                return CR_ERR_PARSE;
            }
            break;
        }
        case K_HINTS:
            ok = strcmp(val, "allowed") == 0;
            r->hints = ok;
            break;
        case K_SEAT: {
            char *spec = split_word(val);
            int seat = -1;
            ok = parse_int(val, 0, CR_MAX_PLAYERS - 1, &seat) && seat == r->n_seats &&
                 spec[0] != '\0' && strlen(spec) < CR_RECORD_SPEC_MAX && printable(spec);
            if (ok) strcpy(r->seats[r->n_seats++], spec);
            break;
        }
        }
        if (!ok) {
            static const char *const want[K_COUNT] = {
                "a game name",
                "a rules version (a positive integer)",
                "a variant name",
                "a player count from 1 to 8",
                "",
                "an unsigned 64-bit integer",
                "16 lowercase hexadecimal digits",
                "'option KEY VALUE' with a new key",
                "'seat N SPEC', seats numbered from 0 in order",
                "'allowed'"};
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

/* A mark line ("! resign 2"); the game fixes the seat range. */
static cr_status read_mark(cr_record *r, const cr_game *g, char *line, char *err, size_t errcap)
{
    char *what = line + 1;
    while (isspace((unsigned char)*what)) what++;
    char *rest = split_word(what);
    int k = 0;
    for (k = CR_MARK_RESIGN; k <= CR_MARK_END; k++)
        if (strcmp(what, mark_names[k]) == 0) break;
    if (k > CR_MARK_END) {
        cr_errf(err, errcap, "unknown mark '! %.40s' (resign, timeout, seat or end)", what);
        return CR_ERR_PARSE;
    }
    if (r->n_marks > 0 && r->marks[r->n_marks - 1].kind == CR_MARK_END) {
        cr_errf(err, errcap, "nothing may follow '! end'");
        return CR_ERR_INVALID;
    }
    int seat = -1;
    char *spec = "";
    if (k == CR_MARK_END) {
        if (rest[0] != '\0') {
            cr_errf(err, errcap, "'! end' takes nothing after it");
            return CR_ERR_PARSE;
        }
    } else {
        spec = split_word(rest);
        if (!parse_int(rest, 0, g->num_players - 1, &seat)) {
            cr_errf(err, errcap, "bad seat '%.40s' in '! %s' (0 to %d)", rest, what,
                    g->num_players - 1);
            return CR_ERR_PARSE;
        }
        if ((k == CR_MARK_SEAT) != (spec[0] != '\0') || strlen(spec) >= CR_RECORD_SPEC_MAX ||
            !printable(spec)) {
            cr_errf(err, errcap,
                    k == CR_MARK_SEAT ? "'! seat N SPEC' needs a seat and a spec"
                                      : "'! %s N' takes only a seat",
                    what);
            return CR_ERR_PARSE;
        }
    }
    cr_status rc = cr_record_mark(r, (cr_mark_kind)k, seat, spec);
    if (rc != CR_OK) cr_errf(err, errcap, "out of memory");
    return rc;
}

cr_status cr_record_load(const char *text, size_t len, const cr_params *overrides, cr_record *r,
                         cr_game **g_out, void **st_out, char *err, size_t errcap)
{
    return cr_core_record_load(text, len, overrides, NULL, r, g_out, st_out, err, errcap);
}

cr_status cr_core_record_load(const char *text, size_t len, const cr_params *overrides,
                              const cr_record_sink *sink, cr_record *r, cr_game **g_out,
                              void **st_out, char *err, size_t errcap)
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
    /* Records written before rules versions existed play version 1. */
    if (r->rules_version == 0) r->rules_version = 1;
    if (r->rules_version != def->rules_version) {
        cr_errf(err, errcap,
                "line %d: this record was made under %s rules version %d; this croupier plays "
                "version %d, so it would not replay the same game",
                key_line[K_RULES] ? key_line[K_RULES] : key_line[K_GAME], def->name,
                r->rules_version, def->rules_version);
        cr_record_fini(r);
        return CR_ERR_INVALID;
    }
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
    cr_game *g = game_for(r, overrides, why, sizeof why);
    if (g == NULL) {
        int at = key_line[K_PLAYERS]   ? key_line[K_PLAYERS]
                 : key_line[K_OPTION]  ? key_line[K_OPTION]
                 : key_line[K_BARE]    ? key_line[K_BARE]
                 : key_line[K_VARIANT] ? key_line[K_VARIANT]
                                       : actions_line;
        cr_errf(err, errcap, "line %d: %s", at, why);
        cr_record_fini(r);
        return CR_ERR_INVALID;
    }
    if (r->n_seats != 0 && r->n_seats != g->num_players) {
        cr_errf(err, errcap, "line %d: %d seats recorded for a game of %d players",
                key_line[K_SEAT], r->n_seats, g->num_players);
        cr_game_free(g);
        cr_record_fini(r);
        return CR_ERR_INVALID;
    }
    /* Game data must be the data the game was played with. */
    {
        cr_record saved = *r;
        cr_record_set_game(r, g); /* what the game settled (defaults, canonical values) */
        r->seed = saved.seed;
        r->has_seed = saved.has_seed;
        r->hints = saved.hints;
        if (saved.has_data_hash != r->has_data_hash ||
            (saved.has_data_hash && saved.data_hash != r->data_hash)) {
            if (saved.has_data_hash && r->has_data_hash)
                cr_errf(err, errcap,
                        "line %d: the record was played with game data of hash %016" PRIx64
                        ", but %s has hash %016" PRIx64,
                        key_line[K_HASH], saved.data_hash, g->data_path, r->data_hash);
            else if (saved.has_data_hash)
                cr_errf(err, errcap,
                        "line %d: the record was played with a game data file (hash %016" PRIx64
                        "), but none is given",
                        key_line[K_HASH], saved.data_hash);
            else
                cr_errf(err, errcap,
                        "line %d: the record names a game data file but not its hash (data-hash)",
                        key_line[K_OPTION] ? key_line[K_OPTION] : actions_line);
            cr_game_free(g);
            cr_record_fini(r);
            return CR_ERR_INVALID;
        }
    }

    /* the state the actions are read on: ours, or the sink's */
    void *st = sink ? sink->begin(sink->ud, g, r) : cr_alloc(g->state_size);
    cr_ctx *cx = cr_ctx_new(g);
    if (st == NULL || cx == NULL) {
        cr_errf(err, errcap, "out of memory");
        if (!sink) cr_free(st);
        cr_ctx_free(cx);
        cr_game_free(g);
        cr_record_fini(r);
        return CR_ERR_NOMEM;
    }
    if (!sink) g->def->init(g, st);

    int got;
    while ((got = next_line(&rd, err, errcap)) == 1) {
        if (rd.buf[0] == '\0' || rd.buf[0] == '#') continue;
        if (rd.buf[0] == '!') {
            rc = read_mark(r, g, rd.buf, why, sizeof why);
            if (rc != CR_OK) {
                cr_errf(err, errcap, "line %d: %s", rd.line, why);
                break;
            }
            continue;
        }
        if (r->n_marks > 0 && r->marks[r->n_marks - 1].kind == CR_MARK_END) {
            cr_errf(err, errcap, "line %d: an action after '! end'", rd.line);
            rc = CR_ERR_INVALID;
            break;
        }
        cr_action a;
        rc = cr_core_parse_action(g, st, rd.buf, &a, cx, why, sizeof why);
        if (rc == CR_OK) rc = cr_record_push(r, a);
        if (rc != CR_OK) {
            cr_errf(err, errcap, "line %d: %s", rd.line,
                    rc == CR_ERR_NOMEM ? "out of memory" : why);
            break;
        }
        if (sink) {
            rc = sink->apply(sink->ud, r->n_actions - 1, a);
            if (rc != CR_OK) {
                cr_errf(err, errcap, "line %d: %s", rd.line,
                        rc == CR_ERR_NOMEM ? "out of memory" : "the action does not apply");
                break;
            }
        } else {
            g->def->apply(g, st, a, cx);
        }
    }
    cr_ctx_free(cx);
    if (got < 0) rc = CR_ERR_PARSE;
    if (rc != CR_OK) {
        if (!sink) cr_free(st);
        cr_game_free(g);
        cr_record_fini(r);
        return rc;
    }
    *g_out = g;
    *st_out = sink ? NULL : st;
    return CR_OK;
}
