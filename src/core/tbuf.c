/* tbuf.c — the bounded text writer of tbuf.h. */
#include "core/tbuf.h"

#include <stdarg.h>
#include <stdio.h>

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

void cr_tb_json_str(cr_tbuf *t, const char *s)
{
    cr_tb_printf(t, "\"");
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            cr_tb_printf(t, "\\%c", ch);
        else if (ch < 0x20)
            cr_tb_printf(t, "\\u%04x", ch);
        else
            cr_tb_printf(t, "%c", ch);
    }
    cr_tb_printf(t, "\"");
}
