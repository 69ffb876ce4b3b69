/* cli_util.c — helpers shared by the commands (see cli_util.h).  Errors go
 * to stderr as one line; everything else to the FILE the caller names.
 *
 * Hostile input: every message that may quote user-supplied text (a path,
 * a typed answer, a line of a record) goes out through cli_escape(), so a
 * control character, an invalid UTF-8 byte or a bidirectional override
 * reaches the terminal as visible text (\x1b, \u202e) and never as a
 * command to it.  cli_read_file() refuses NUL bytes and inputs larger than
 * CLI_MAX_INPUT, and stops reading as soon as it knows. */
#include "cli_util.h"
#include "croupier/alloc.h"
#include "croupier/match.h"
#include "croupier/parts.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- escaping ------------------------------------------------------------ */

/* Length of the valid UTF-8 sequence at s (2..4), or 0 if s[0] does not
 * start one (overlong forms, surrogates and code points past U+10FFFF are
 * invalid); *cp gets the code point. */
static size_t utf8_seq(const unsigned char *s, size_t len, unsigned long *cp)
{
    unsigned char c = s[0];
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        *cp = c & 0x1Fu;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        *cp = c & 0x0Fu;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        *cp = c & 0x07u;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    if (len < n || s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0u) != 0x80u) return 0;
        *cp = (*cp << 6) | (s[i] & 0x3Fu);
    }
    return n;
}

/* Code points a terminal may act on, or that reorder the text around them:
 * C1 controls, line/paragraph separators, bidirectional marks and overrides. */
static int invisible_code_point(unsigned long cp)
{
    return (cp >= 0x80 && cp <= 0x9F) || cp == 0x200E || cp == 0x200F ||
           (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* The escaped form of the character at s: a pointer to it (into s itself
 * or into tmp), its length in *plen and the input bytes it stands for in
 * *used. */
static const char *escape_unit(const unsigned char *s, size_t len, char tmp[16], size_t *plen,
                               size_t *used)
{
    unsigned long cp = 0;
    size_t seq = s[0] >= 0x80 ? utf8_seq(s, len, &cp) : 0;
    *used = 1;
    if (s[0] == '\\' || s[0] == '\n' || s[0] == '\r' || s[0] == '\t') {
        tmp[0] = '\\';
        tmp[1] = s[0] == '\n' ? 'n' : s[0] == '\r' ? 'r' : s[0] == '\t' ? 't' : '\\';
        *plen = 2;
        return tmp;
    }
    if (s[0] >= 0x20 && s[0] < 0x7F) {
        *plen = 1;
        return (const char *)s;
    }
    if (seq > 0 && !invisible_code_point(cp)) { /* printable UTF-8 stays as is */
        *plen = *used = seq;
        return (const char *)s;
    }
    if (seq > 0 && cp >= 0x100) {
        *plen = (size_t)snprintf(tmp, 16, "\\u%04lx", cp);
        *used = seq;
        return tmp;
    }
    /* ASCII control, DEL, a byte that is not UTF-8, or one of a C1 control */
    *plen = (size_t)snprintf(tmp, 16, "\\x%02x", s[0]);
    return tmp;
}

size_t cli_escape(const char *in, size_t len, char *out, size_t cap)
{
    const unsigned char *s = (const unsigned char *)in;
    size_t need = 0, kept = 0, i = 0;
    while (i < len) {
        char tmp[16];
        size_t plen, used;
        const char *piece = escape_unit(s + i, len - i, tmp, &plen, &used);
        if (kept == need && need + plen < cap) { /* whole pieces only, in order */
            memcpy(out + need, piece, plen);
            kept += plen;
        }
        need += plen;
        i += used;
    }
    if (cap > 0) out[kept] = '\0';
    return need;
}

/* Writes text escaped as cli_escape() does, without allocating. */
static void write_escaped(FILE *f, const char *text, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (i < len) {
        char tmp[16];
        size_t plen, used;
        const char *piece = escape_unit(s + i, len - i, tmp, &plen, &used);
        fwrite(piece, 1, plen, f);
        i += used;
    }
}

/* Formats fmt into buf (or a heap block when it does not fit) and writes it
 * escaped. */
static void vprint_escaped(FILE *f, const char *fmt, va_list ap)
{
    char buf[1024], *text = buf;
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    if (n >= (int)sizeof buf) {
        text = malloc((size_t)n + 1);
        if (text != NULL)
            vsnprintf(text, (size_t)n + 1, fmt, ap2);
        else
            text = buf; /* out of memory: the message, cut */
    }
    va_end(ap2);
    if (n > 0)
        write_escaped(f, text, text == buf && n >= (int)sizeof buf ? sizeof buf - 1 : (size_t)n);
    if (text != buf) free(text);
}

void cli_say(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprint_escaped(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
}

/* "croupier: error: <message>" without the line end */
static void error_head(const char *fmt, va_list ap)
{
    fflush(stdout);
    fputs("croupier: error: ", stderr);
    vprint_escaped(stderr, fmt, ap);
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
    if (cmd != NULL) {
        fputs(" (try 'croupier ", stderr);
        write_escaped(stderr, cmd, strlen(cmd));
        fputs(" --help')\n", stderr);
    } else {
        fputs(" (try 'croupier --help')\n", stderr);
    }
    return 2;
}

int cli_table_opt(int argc, char **argv, int *i, cr_params *p)
{
    const char *v;
    int m;
    /* --KEY VALUE: an option some game lets the command line spell so
     * (CR_OPTF_SWITCH); the game made with p checks it as any other. */
    if (strncmp(argv[*i], "--", 2) == 0)
        for (int gi = 0; gi < cr_registry_count(); gi++) {
            const cr_game_def *def = cr_registry_get(gi);
            for (int k = 0; k < def->n_options; k++) {
                const cr_option_def *o = &def->options[k];
                char name[64];
                if (!(o->flags & CR_OPTF_SWITCH) ||
                    (size_t)snprintf(name, sizeof name, "--%s", o->key) >= sizeof name)
                    continue;
                if ((m = cli_opt(argc, argv, i, name, &v)) == 0) continue;
                if (m < 0) return -1;
                if (cr_params_set(p, o->key, v) != CR_OK) {
                    cli_usage_error(argv[0], "too many options");
                    return -1;
                }
                return 1;
            }
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

/* cli_read_file()'s failure: err gets "PATH: reason" (the path is escaped
 * later, by cli_error, like any other text); closes f, frees buf. */
static char *read_fail(FILE *f, char *buf, const char *path, const char *reason, char *err,
                       size_t errcap)
{
    snprintf(err, errcap, "%s: %s", path, reason);
    if (f != stdin) fclose(f);
    free(buf); /* a cr_text's memory (cr_free is free) */
    return NULL;
}

char *cli_read_file(const char *path, size_t *len, char *err, size_t errcap)
{
    const size_t limit = CLI_MAX_INPUT;
    char reason[128];
    snprintf(reason, sizeof reason,
             "larger than %zu MiB, the limit for records, positions and action lists", limit >> 20);
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (f == NULL) {
        snprintf(err, errcap, "%s: %s", path, strerror(errno));
        return NULL;
    }
    /* A regular file says its size: refuse it before reading a byte. */
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0) {
        if (S_ISDIR(sb.st_mode)) return read_fail(f, NULL, path, strerror(EISDIR), err, errcap);
        if (S_ISREG(sb.st_mode) && (uintmax_t)sb.st_size > limit)
            return read_fail(f, NULL, path, reason, err, errcap);
    }
    /* Anything else (a pipe, a device, a file that grows) is read only until
     * the limit is passed or a NUL byte shows. */
    cr_text t = CR_TEXT_INIT; /* grows from 64 KiB, by doubling, to a little past the limit */
    for (;;) {
        if (!cr_text_reserve(&t, 65536))
            return read_fail(f, t.p, path, "out of memory", err, errcap);
        size_t room = t.cap - 1 - t.len;
        if (room > limit + 1 - t.len) room = limit + 1 - t.len;
        size_t got = fread(t.p + t.len, 1, room, f);
        const char *nul = memchr(t.p + t.len, '\0', got);
        if (nul != NULL) {
            char where[64];
            snprintf(where, sizeof where, "NUL byte at offset %zu", (size_t)(nul - t.p));
            return read_fail(f, t.p, path, where, err, errcap);
        }
        t.len += got;
        t.p[t.len] = '\0';
        if (t.len > limit) return read_fail(f, t.p, path, reason, err, errcap);
        if (got == 0 || ferror(f) || feof(f)) break;
    }
    if (ferror(f)) return read_fail(f, t.p, path, "read error", err, errcap);
    if (f != stdin) fclose(f);
    *len = t.len;
    return cr_text_take(&t); /* cannot fail: the room is there */
}

int cli_positional(const char *cmd, const char *arg, const char **path)
{
    if (arg[0] == '-' && arg[1] != '\0') return cli_usage_error(cmd, "unknown option '%s'", arg);
    if (*path != NULL) return cli_usage_error(cmd, "unexpected argument '%s'", arg);
    *path = arg;
    return 0;
}

struct cr_match *cli_load_record(const char *path, const cr_params *overrides)
{
    char err[512];
    size_t len;
    char *text = cli_read_file(path, &len, err, sizeof err);
    if (text == NULL) {
        cli_error("%s", err);
        return NULL;
    }
    cr_match *m = cr_match_load(text, len, overrides, 0, err, sizeof err);
    free(text);
    if (m == NULL) cli_error("%s: %s", path, err);
    return m;
}

int cli_out_check(const char *path, int *created, char *err, size_t errcap)
{
    /* O_EXCL tells whether this call made the file; no O_TRUNC, so an
     * existing file keeps its contents until the real write; O_NONBLOCK so a
     * FIFO without a reader fails (ENXIO) instead of hanging. */
    *created = 0;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NONBLOCK, 0666);
    if (fd >= 0) {
        *created = 1;
    } else if (errno == EEXIST) {
        fd = open(path, O_WRONLY | O_NONBLOCK);
    }
    if (fd < 0) {
        snprintf(err, errcap, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    close(fd);
    return 0;
}

void cli_out_discard(const char *path, int created)
{
    struct stat sb;
    /* Only a file this run created, and only while it is still empty. */
    if (created && stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size == 0) remove(path);
}

/* Renders an snprintf-style call into b, replacing its text (the CLI
 * stops on out of memory rather than print a cut text). */
#define RENDER(b, call)                                                                            \
    do {                                                                                           \
        cr_text_reset(b);                                                                          \
        CR_TEXT_RENDER((b), (call));                                                               \
        if ((b)->oom) cli_oom();                                                                   \
    } while (0)

static void cli_oom(void)
{
    fputs("croupier: error: out of memory\n", stderr);
    exit(1); /* the program's policy: the CLI stops on OOM */
}

const char *cli_serialize(const cr_game *g, const void *st, cr_text *b)
{
    RENDER(b, g->def->serialize(g, st, buf, cap));
    return cr_text_str(b);
}

const char *cli_obs_text(const cr_game *g, const void *obs, cr_text *b)
{
    RENDER(b, g->def->obs_to_text(g, obs, buf, cap));
    return cr_text_str(b);
}

const char *cli_event_text(const cr_game *g, const cr_event *e, int seat, cr_text *b)
{
    RENDER(b, g->def->event_to_str(g, e, seat, buf, cap));
    return cr_text_str(b);
}

const char *cli_action_text(const cr_game *g, const void *st, cr_action a, cr_text *b)
{
    RENDER(b, g->def->action_to_str(g, st, a, buf, cap));
    return cr_text_str(b);
}

const char *cli_prompt_text(const cr_game *g, const void *st, cr_text *b)
{
    if (g->def->prompt == NULL) {
        cr_text_reset(b);
        return cr_text_str(b);
    }
    RENDER(b, g->def->prompt(g, st, buf, cap));
    return cr_text_str(b);
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
                      cr_text *b)
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
    /* what each seat earned, in words (nothing when nobody earned one) */
    size_t len = cr_achievements_text(g, st, NULL, 0);
    char *text = len ? cr_alloc(len + 1) : NULL;
    if (text != NULL) {
        cr_achievements_text(g, st, text, len + 1);
        fprintf(f, "achievements:\n");
        for (char *line = text, *nl; (nl = strchr(line, '\n')) != NULL; line = nl + 1)
            fprintf(f, "  %.*s\n", (int)(nl - line), line);
        cr_free(text);
    }
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
