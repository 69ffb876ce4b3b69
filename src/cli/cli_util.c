/* cli_util.c — helpers shared by the commands (see cli_util.h).  Errors go
 * to stderr as one line; everything else to the FILE the caller names. */
#include "cli_util.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* "croupier: error: <message>" without the line end */
static void error_head(const char *fmt, va_list ap)
{
    fflush(stdout);
    fputs("croupier: error: ", stderr);
    vfprintf(stderr, fmt, ap);
}

int cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_head(fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 1;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_head(fmt, ap);
    va_end(ap);
    if (cmd != NULL)
        fprintf(stderr, " (try 'croupier %s --help')\n", cmd);
    else
        fputs(" (try 'croupier --help')\n", stderr);
    return 2;
}

int cli_table_opt(int argc, char **argv, int *i, cr_params *p)
{
    const char *v;
    int m;
    if ((m = cli_opt(argc, argv, i, "--board", &v)) != 0) {
        if (m < 0) return -1;
        if (cr_params_set(p, "board", v) != CR_OK) {
            cli_usage_error(argv[0], "too many options");
            return -1;
        }
        return 1;
    }
    if ((m = cli_opt(argc, argv, i, "--option", &v)) == 0) return 0;
    if (m < 0) return -1;
    char *kv = (char *)v; /* argv's strings are the program's to modify */
    if (cr_params_set_text(p, kv) != CR_OK) {
        cli_usage_error(argv[0], "bad --option '%s': expected KEY=VALUE (at most %d options)", v,
                        CR_MAX_OPTIONS);
        return -1;
    }
    return 1;
}

int cli_opt(int argc, char **argv, int *i, const char *name, const char **value)
{
    const char *arg = argv[*i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0) return 0;
    if (arg[n] == '=') {
        *value = arg + n + 1;
        return 1;
    }
    if (arg[n] != '\0') return 0;
    if (*i + 1 >= argc) {
        cli_usage_error(argv[0], "option %s needs a value", name);
        return -1;
    }
    *value = argv[++*i];
    return 1;
}

int cli_parse_int(const char *s, long lo, long hi, long *out)
{
    if (s == NULL ||
        !(isdigit((unsigned char)s[0]) || (s[0] == '-' && isdigit((unsigned char)s[1]))))
        return 0;
    errno = 0;
    char *end;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi) return 0;
    *out = v;
    return 1;
}

int cli_parse_u64(const char *s, uint64_t *out)
{
    if (s == NULL || !isdigit((unsigned char)s[0])) return 0;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end) return 0;
    *out = (uint64_t)v;
    return 1;
}

char *cli_read_file(const char *path, size_t *len, char *err, size_t errcap)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (f == NULL) {
        snprintf(err, errcap, "%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf != NULL) {
        n += fread(buf + n, 1, cap - 1 - n, f);
        if (n < cap - 1) break;
        char *p = cap > ((size_t)1 << 30) ? NULL : realloc(buf, cap * 2);
        if (p == NULL) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = p;
        cap *= 2;
    }
    int failed = buf == NULL || ferror(f);
    if (f != stdin) fclose(f);
    if (failed) {
        snprintf(err, errcap, "%s: %s", path, buf ? "read error" : "file too large");
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

void cli_buf_fini(cli_buf *b)
{
    free(b->p);
    b->p = NULL;
    b->cap = 0;
}

static void buf_reserve(cli_buf *b, size_t need)
{
    if (b->cap >= need && b->p != NULL) return;
    size_t cap = b->cap ? b->cap : 1024;
    while (cap < need) cap *= 2;
    char *p = realloc(b->p, cap);
    if (p == NULL) {
        fputs("croupier: error: out of memory\n", stderr);
        exit(1); /* the program's policy: the CLI stops on OOM */
    }
    b->p = p;
    b->cap = cap;
}

/* Renders with snprintf semantics: a result >= cap means "grow and redo". */
#define RENDER(b, call)                                                                            \
    do {                                                                                           \
        buf_reserve((b), 1024);                                                                    \
        (b)->p[0] = '\0';                                                                          \
        size_t need_ = (call);                                                                     \
        if (need_ >= (b)->cap) {                                                                   \
            buf_reserve((b), need_ + 1);                                                           \
            (void)(call);                                                                          \
        }                                                                                          \
    } while (0)

const char *cli_serialize(const cr_game *g, const void *st, cli_buf *b)
{
    RENDER(b, g->def->serialize(g, st, b->p, b->cap));
    return b->p;
}

const char *cli_obs_text(const cr_game *g, const void *obs, cli_buf *b)
{
    RENDER(b, g->def->obs_to_text(g, obs, b->p, b->cap));
    return b->p;
}

const char *cli_event_text(const cr_game *g, const cr_event *e, int seat, cli_buf *b)
{
    RENDER(b, g->def->event_to_str(g, e, seat, b->p, b->cap));
    return b->p;
}

const char *cli_action_text(const cr_game *g, const void *st, cr_action a, cli_buf *b)
{
    RENDER(b, g->def->action_to_str(g, st, a, b->p, b->cap));
    return b->p;
}

const char *cli_prompt_text(const cr_game *g, const void *st, cli_buf *b)
{
    if (g->def->prompt == NULL) {
        buf_reserve(b, 1);
        b->p[0] = '\0';
        return b->p;
    }
    RENDER(b, g->def->prompt(g, st, b->p, b->cap));
    return b->p;
}

void cli_print_json(FILE *f, const char *json, size_t len)
{
    json_error_t jerr;
    json_t *j = json_loadb(json, len, 0, &jerr);
    if (j == NULL || json_dumpf(j, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0) {
        fwrite(json, 1, len, f);
    }
    if (len == 0 || j != NULL || json[len - 1] != '\n') fputc('\n', f);
    json_decref(j);
}

void cli_print_events(FILE *f, const cr_game *g, cr_events *ev, int seat, const char *prefix,
                      cli_buf *b)
{
    for (int i = 0; i < ev->len; i++) {
        const char *text = cli_event_text(g, &ev->buf[i], seat, b);
        if (text[0] != '\0') fprintf(f, "%s%s\n", prefix, text);
    }
    if (ev->dropped > 0) fprintf(f, "%s(%d more events not shown)\n", prefix, ev->dropped);
    ev->len = 0;
    ev->dropped = 0;
}

void cli_print_result(FILE *f, const cr_game *g, const void *st)
{
    cr_result res;
    g->def->result(g, st, &res);
    fprintf(f, "scores: ");
    for (int s = 0; s < g->num_players; s++)
        fprintf(f, "%sP%d %d", s ? "  " : "", s, (int)res.score[s]);
    fprintf(f, "\nranks: ");
    for (int s = 0; s < g->num_players; s++)
        fprintf(f, "%sP%d %d", s ? "  " : "", s, (int)res.rank[s]);
    if (res.winners) {
        fprintf(f, "\nwon:   ");
        for (int s = 0, k = 0; s < g->num_players; s++)
            if (res.winners >> s & 1) fprintf(f, "%sP%d", k++ ? ", " : "", s);
    } else {
        fprintf(f, "\nnobody won");
    }
    fputc('\n', f);
}

const cr_game_def *cli_find_game(const char *name)
{
    const cr_game_def *def = cr_registry_find(name);
    if (def == NULL) {
        char names[256] = "";
        size_t len = 0;
        for (int i = 0; i < cr_registry_count() && len < sizeof names; i++)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "",
                                    cr_registry_get(i)->name);
        cli_error("unknown game '%s' (games: %s)", name, names);
    }
    return def;
}
