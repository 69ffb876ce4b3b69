/* glossary.c — the shared part of the games' glossary tests (glossary.h). */
#include "support/glossary.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

void gl_lower(char *out, const char *in, size_t len)
{
    if (len >= GL_WORD_LEN) len = GL_WORD_LEN - 1;
    for (size_t i = 0; i < len; i++) out[i] = (char)tolower((unsigned char)in[i]);
    out[len] = '\0';
}

int gl_has(const gl_words *s, const char *w)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->w[i], w)) return 1;
    return 0;
}

void gl_add(gl_words *s, const char *w)
{
    if (gl_has(s, w)) return;
    assert_true(s->n < GL_MAX_WORDS);
    snprintf(s->w[s->n++], GL_WORD_LEN, "%s", w);
}

/* A word's characters: letters, digits, UTF-8 bytes (Smårgon), '!' (Dabo!)
 * and the apostrophe (Dragon's).  A hyphen splits ("3-Player": 3, Player). */
static int gl_word_char(unsigned char c)
{
    return isalnum(c) || c >= 0x80 || c == '!' || c == '\'';
}

/* Calls fn on each word of text (a pointer and a length). */
void gl_each_word(const char *text, gl_word_fn fn, void *arg)
{
    const char *p = text;
    while (*p) {
        while (*p && !gl_word_char((unsigned char)*p)) p++;
        const char *start = p;
        while (*p && gl_word_char((unsigned char)*p)) p++;
        size_t len = (size_t)(p - start);
        /* a closing quote or a possessive is not part of the word */
        while (len > 0 && start[len - 1] == '\'') len--;
        if (len >= 2 && start[len - 2] == '\'' && start[len - 1] == 's') len -= 2;
        if (len > 0) fn(start, len, arg);
    }
}

/* ---- the glossary ---- */

static void gl_add_word(const char *w, size_t len, void *arg)
{
    char low[GL_WORD_LEN];
    gl_lower(low, w, len);
    gl_add(arg, low);
}

/* The words of every **bold term** on the lines of the "## Glossary"
 * section of the guide. */
void gl_read_glossary(const char *path, gl_words *out)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) fail_msg("cannot open %s", path);
    char line[1024];
    int in = 0, terms = 0;
    out->n = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "## ", 3)) in = !strncmp(line, "## Glossary", 11);
        if (!in || strncmp(line, "- **", 4)) continue;
        /* the bold terms of the entry: before the first ':' outside them */
        for (char *p = line; (p = strstr(p, "**")) != NULL;) {
            char *end = strstr(p + 2, "**");
            if (end == NULL) break;
            *end = '\0';
            gl_each_word(p + 2, gl_add_word, out);
            terms++;
            p = end + 2;
            if (*p == ':') break;
        }
    }
    fclose(f);
    if (terms == 0) fail_msg("%s: no \"## Glossary\" section with **terms**", path);
}

int gl_defined(const gl_words *g, const char *low)
{
    if (gl_has(g, low)) return 1;
    size_t n = strlen(low);
    char stem[GL_WORD_LEN];
    snprintf(stem, sizeof stem, "%s", low);
    if (n > 2 && low[n - 1] == 's') { /* plurals: Emblems, Actions, Eggs */
        stem[n - 1] = '\0';
        if (gl_has(g, stem)) return 1;
        if (n > 3 && low[n - 2] == 'e') {
            stem[n - 2] = '\0';
            if (gl_has(g, stem)) return 1;
        }
    }
    /* Committed, Committing: the verb, its last consonant undoubled */
    size_t cut = n > 4 && !strcmp(low + n - 2, "ed")    ? 2
                 : n > 5 && !strcmp(low + n - 3, "ing") ? 3
                                                        : 0;
    if (cut) {
        snprintf(stem, sizeof stem, "%.*s", (int)(n - cut), low);
        if (gl_has(g, stem)) return 1;
        size_t m = n - cut;
        if (m > 2 && stem[m - 1] == stem[m - 2]) {
            stem[m - 1] = '\0';
            if (gl_has(g, stem)) return 1;
        }
    }
    /* Siege!: an exclamation on a defined word */
    if (n > 1 && low[n - 1] == '!') {
        snprintf(stem, sizeof stem, "%.*s", (int)(n - 1), low);
        if (gl_has(g, stem)) return 1;
    }
    return 0;
}

void gl_add_words(gl_words *s, const char *text) { gl_each_word(text, gl_add_word, s); }
