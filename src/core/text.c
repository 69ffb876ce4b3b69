/* text.c — the text kit of croupier/text.h: the bounded writer (cr_tbuf)
 * and the growing buffer (cr_text).
 *
 * Invariant of a cr_text: len < cap whenever p is not NULL, and p[len] is
 * the NUL; once oom is set no append changes the text until a free.
 * The capacity doubles from 256 bytes, so n appends cost O(n) copies. */
#include "croupier/text.h"

#include <stdio.h>
#include <string.h>

#include "croupier/alloc.h"

/* ---- the bounded writer ---- */

void cr_tb_init(cr_tbuf *t, char *buf, size_t cap)
{
    t->buf = buf;
    t->cap = buf ? cap : 0;
    t->len = 0;
    if (t->cap > 0) t->buf[0] = '\0';
}

void cr_tb_printf(cr_tbuf *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *dst = t->len < t->cap ? t->buf + t->len : NULL;
    size_t room = t->len < t->cap ? t->cap - t->len : 0;
    int n = vsnprintf(dst, room, fmt, ap);
    va_end(ap);
    if (n > 0) t->len += (size_t)n;
}

/* ---- the growing buffer ---- */

int cr_text_reserve(cr_text *t, size_t more)
{
    if (t->oom) return 0;
    /* the bound also keeps len + more + 1 from wrapping */
    if (more >= CR_TEXT_MAX || t->len + more >= CR_TEXT_MAX) {
        t->oom = 1;
        return 0;
    }
    if (t->p != NULL && t->len + more + 1 <= t->cap) return 1;
    size_t cap = t->cap ? t->cap : 256;
    while (cap < t->len + more + 1) cap *= 2;
    char *p = cr_realloc(t->p, cap);
    if (p == NULL) {
        t->oom = 1;
        return 0;
    }
    if (t->p == NULL) p[0] = '\0';
    t->p = p;
    t->cap = cap;
    return 1;
}

void cr_text_add(cr_text *t, const char *s, size_t n)
{
    if (!cr_text_reserve(t, n)) return;
    if (n > 0) memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = '\0';
}

void cr_text_puts(cr_text *t, const char *s) { cr_text_add(t, s, strlen(s)); }

void cr_text_vprintf(cr_text *t, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (n >= 0 && cr_text_reserve(t, (size_t)n)) {
        vsnprintf(t->p + t->len, (size_t)n + 1, fmt, again);
        t->len += (size_t)n;
    }
    va_end(again);
}

void cr_text_printf(cr_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cr_text_vprintf(t, fmt, ap);
    va_end(ap);
}

/* ---- JSON strings (both writers escape alike) ---- */

/* The JSON escape of byte ch, or NULL when it stands for itself; `del`
 * escapes DEL too.  esc holds the escape (7 bytes). */
static const char *json_escape(unsigned char ch, int del, char esc[8])
{
    if (ch == '"' || ch == '\\') {
        esc[0] = '\\';
        esc[1] = (char)ch;
        esc[2] = '\0';
        return esc;
    }
    if (ch < 0x20 || (del && ch == 0x7f)) {
        snprintf(esc, 8, "\\u%04x", ch);
        return esc;
    }
    return NULL;
}

void cr_tb_json_str(cr_tbuf *t, const char *s)
{
    char esc[8];
    cr_tb_printf(t, "\"");
    for (; *s; s++) {
        const char *e = json_escape((unsigned char)*s, 0, esc);
        if (e != NULL)
            cr_tb_printf(t, "%s", e);
        else
            cr_tb_printf(t, "%c", *s);
    }
    cr_tb_printf(t, "\"");
}

void cr_text_json_str(cr_text *t, const char *s)
{
    char esc[8];
    cr_text_add(t, "\"", 1);
    while (*s) {
        size_t run = 0; /* bytes that stand for themselves */
        while (s[run] && json_escape((unsigned char)s[run], 0, esc) == NULL) run++;
        cr_text_add(t, s, run);
        s += run;
        if (*s) cr_text_puts(t, json_escape((unsigned char)*s++, 0, esc));
    }
    cr_text_add(t, "\"", 1);
}

void cr_text_json_utf8(cr_text *t, const char *s)
{
    char esc[8];
    cr_text_add(t, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        const char *e = json_escape(*p, 1, esc);
        if (e != NULL) {
            cr_text_puts(t, e);
            p++;
        } else if (*p < 0x80) {
            cr_text_add(t, (const char *)p, 1);
            p++;
        } else {
            const char *c = (const char *)p;
            size_t k = cr_utf8_seq(c, strnlen(c, 4));
            if (k > 0)
                cr_text_add(t, c, k);
            else
                cr_text_puts(t, "\\ufffd");
            p += k > 0 ? k : 1;
        }
    }
    cr_text_add(t, "\"", 1);
}

size_t cr_utf8_seq(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    if (n == 0) return 0;
    unsigned c = p[0];
    if (c < 0x80) return 1;
    size_t k;                      /* continuation bytes */
    unsigned lo = 0x80, hi = 0xbf; /* the second byte's range */
    if (c >= 0xc2 && c <= 0xdf) {
        k = 1;
    } else if (c >= 0xe0 && c <= 0xef) {
        k = 2;
        if (c == 0xe0) lo = 0xa0; /* overlong */
        if (c == 0xed) hi = 0x9f; /* surrogates */
    } else if (c >= 0xf0 && c <= 0xf4) {
        k = 3;
        if (c == 0xf0) lo = 0x90; /* overlong */
        if (c == 0xf4) hi = 0x8f; /* past U+10FFFF */
    } else {
        return 0;
    }
    if (n <= k) return 0;
    if (p[1] < lo || p[1] > hi) return 0;
    for (size_t j = 2; j <= k; j++)
        if (p[j] < 0x80 || p[j] > 0xbf) return 0;
    return k + 1;
}

const char *cr_text_str(const cr_text *t) { return t->p ? t->p : ""; }

void cr_text_reset(cr_text *t)
{
    t->len = 0;
    if (t->p) t->p[0] = '\0';
}

char *cr_text_take(cr_text *t)
{
    char *s = NULL;
    if (!t->oom && cr_text_reserve(t, 0)) {
        s = t->p;
        t->p = NULL;
    }
    cr_text_free(t);
    return s;
}

void cr_text_free(cr_text *t)
{
    cr_free(t->p);
    t->p = NULL;
    t->len = t->cap = 0;
    t->oom = 0;
}

int cr_text_rendered(cr_text *t, size_t need, size_t cap, int try_)
{
    if (need < cap) {
        t->len += need;
        return 1;
    }
    if (try_ > 0) { /* a renderer that asks for more the second time */
        t->len += cap - 1;
        t->p[t->len] = '\0';
        t->oom = 1;
        return 1;
    }
    t->p[t->len] = '\0';
    return !cr_text_reserve(t, need); /* no memory: stop, the flag is set */
}
