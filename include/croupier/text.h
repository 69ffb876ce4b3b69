/* croupier/text.h — the one text kit: a bounded writer for renderers that
 * write into a caller's buffer, and a growing buffer for the clients that
 * assemble a reply, a log pane or a summary (as Lua has one luaL_Buffer and
 * SQLite one sqlite3_str).
 *
 * The bounded writer (cr_tbuf) has snprintf semantics: it writes at most
 * cap bytes (NUL-terminated when cap > 0) and counts the full length, so a
 * caller sizes a buffer by calling once with cap 0.  It allocates nothing:
 * the games' renderers use it.
 *
 * The growing buffer (cr_text) allocates through cr_realloc (alloc.h), so it
 * is for renderers and clients, never the hot path (legal actions, apply,
 * clone allocate nothing).  Zero-initialised it is empty and ready
 * (CR_TEXT_INIT).  Its text is NUL-terminated once anything was added; p is
 * NULL while nothing was (cr_text_str gives "" then).  An append that cannot
 * get memory, or would make the text longer than CR_TEXT_MAX, sets the
 * sticky `oom` flag and does nothing; every later append does nothing
 * either, so a caller checks once, at the end, even across resets:
 * cr_text_reset empties the text and keeps the flag; cr_text_free releases
 * the memory and clears it. */
#ifndef CROUPIER_TEXT_H
#define CROUPIER_TEXT_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif
/* The library exports what this header declares (CMakeLists.txt builds it
 * with every other symbol hidden). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#define CR_TEXT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CR_TEXT_PRINTF(f, a)
#endif

/* ---- the bounded writer ---- */

typedef struct cr_tbuf {
    char *buf;
    size_t cap, len; /* len: what was asked to be written, even past cap */
} cr_tbuf;

/* Starts writing at buf[0] (buf may be NULL with cap 0: counting only). */
void cr_tb_init(cr_tbuf *t, char *buf, size_t cap);
/* Appends as snprintf would; the length counts even what did not fit. */
void cr_tb_printf(cr_tbuf *t, const char *fmt, ...) CR_TEXT_PRINTF(2, 3);
/* Appends s as a JSON string literal, quotes included: '"' and '\\'
 * escaped, control characters as \u00XX, every other byte as it is. */
void cr_tb_json_str(cr_tbuf *t, const char *s);

/* ---- the growing buffer ---- */

/* The longest text a cr_text holds: 1 GiB.  The clients' texts are a few
 * KB to a few MB (a long record's reply); a request past this is a bug,
 * refused like a failed allocation. */
#define CR_TEXT_MAX ((size_t)1 << 30)

typedef struct cr_text {
    char *p;    /* the text, NUL-terminated (NULL while nothing was added) */
    size_t len; /* its length, the NUL not counted */
    size_t cap; /* bytes allocated at p */
    int oom;    /* sticky: an append failed, the text is cut */
} cr_text;

#define CR_TEXT_INIT                                                                               \
    {                                                                                              \
        NULL, 0, 0, 0                                                                              \
    }

/* Makes room for `more` bytes after the text and its NUL: 1, or 0 (the
 * flag set) when memory ran out or the text would pass CR_TEXT_MAX. */
int cr_text_reserve(cr_text *t, size_t more);
/* Appends s[0..n) (may hold NUL bytes; the text stays NUL-terminated). */
void cr_text_add(cr_text *t, const char *s, size_t n);
/* Appends the NUL-terminated s. */
void cr_text_puts(cr_text *t, const char *s);
/* Appends as printf would. */
void cr_text_printf(cr_text *t, const char *fmt, ...) CR_TEXT_PRINTF(2, 3);
void cr_text_vprintf(cr_text *t, const char *fmt, va_list ap) CR_TEXT_PRINTF(2, 0);
/* Appends s as a JSON string literal, escaped as cr_tb_json_str does. */
void cr_text_json_str(cr_text *t, const char *s);
/* Appends s as a JSON string literal that is valid UTF-8 whatever s holds
 * (for text that may hold a client's bytes): escaped as cr_text_json_str,
 * DEL too (\u007f), and each byte that does not start a whole UTF-8
 * sequence written as \ufffd. */
void cr_text_json_utf8(cr_text *t, const char *s);

/* The length (1 to 4) of the well-formed UTF-8 sequence at s[0..n), or 0:
 * none (n == 0, a stray continuation byte, an overlong form, a surrogate,
 * past U+10FFFF, or cut short by n). */
size_t cr_utf8_seq(const char *s, size_t n);
/* The text, "" while it is empty (never NULL; valid until the next append). */
const char *cr_text_str(const cr_text *t);
/* Empties the text, keeping the memory for reuse and the flag as it is. */
void cr_text_reset(cr_text *t);
/* Hands the text over: a NUL-terminated string the caller frees with
 * cr_free (NULL when out of memory: the flag was set, or an empty text
 * could not get its one byte); t is empty and flag-free afterwards. */
char *cr_text_take(cr_text *t);
/* Releases the memory; t is empty and flag-free afterwards (reusable). */
void cr_text_free(cr_text *t);

/* Appends what an snprintf-style renderer writes: `call` is an expression
 * that writes into the variables `buf` and `cap` (room at the end of the
 * text) and returns the full length it needs (size_t), as the games'
 * renderers do (serialize, obs_to_json, event_to_str...).  When the room
 * was too small the text grows and `call` runs a second time, so `call`
 * must have no other side effect.  Out of memory: nothing is appended and
 * the flag is set.  For example, a state's JSON after a reset:
 *     cr_text_reset(&t);
 *     CR_TEXT_RENDER(&t, g->def->serialize(g, st, buf, cap));
 */
#define CR_TEXT_RENDER(t, call)                                                                    \
    do {                                                                                           \
        cr_text *tr_ = (t);                                                                        \
        if (!cr_text_reserve(tr_, 255)) break;                                                     \
        for (int try_ = 0; try_ < 2; try_++) {                                                     \
            char *buf = tr_->p + tr_->len;                                                         \
            size_t cap = tr_->cap - tr_->len;                                                      \
            size_t need_ = (call);                                                                 \
            if (cr_text_rendered(tr_, need_, cap, try_)) break;                                    \
        }                                                                                          \
    } while (0)
/* The half of CR_TEXT_RENDER that is a function: after try number `try_`
 * (0, then 1) of a renderer asked for `need` bytes with `cap` of room,
 * keeps them and returns 1; else restores the text's end, makes room for
 * the second try and returns 0 (the flag set when that failed).  A second
 * try that still does not fit (a renderer that changed its mind) keeps
 * what fit and sets the flag: the text is cut. */
int cr_text_rendered(cr_text *t, size_t need, size_t cap, int try_);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif
