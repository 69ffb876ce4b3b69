/* tbuf.h — a bounded text writer with snprintf semantics, for the library's
 * text and JSON renderers: it writes at most cap bytes (NUL-terminated when
 * cap > 0) and counts the full length, so a caller can size a buffer by
 * calling once with cap 0.  Allocates nothing. */
#ifndef CROUPIER_TBUF_H
#define CROUPIER_TBUF_H

#include <stddef.h>

#if defined(__GNUC__)
#define CR_TB_HIDDEN __attribute__((visibility("hidden")))
#define CR_TB_PRINTF __attribute__((format(printf, 2, 3)))
#else
#define CR_TB_HIDDEN
#define CR_TB_PRINTF
#endif

typedef struct cr_tbuf {
    char *buf;
    size_t cap, len; /* len: what was asked to be written, even past cap */
} cr_tbuf;

CR_TB_HIDDEN void cr_tb_init(cr_tbuf *t, char *buf, size_t cap);
CR_TB_HIDDEN void cr_tb_printf(cr_tbuf *t, const char *fmt, ...) CR_TB_PRINTF;
/* s as a JSON string literal, quotes and escapes included */
CR_TB_HIDDEN void cr_tb_json_str(cr_tbuf *t, const char *s);

#endif
