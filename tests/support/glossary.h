/* glossary.h — what the games' glossary tests share (tests/games/GAME/
 * test_glossary.c): a set of lower-case words, the words of a text, the
 * words of the bold terms of a guide's "## Glossary" section, and whether
 * a word is defined there (plurals, -ed/-ing and a trailing '!' tried off).
 * Each game's test keeps what is its own: its plain words, its notation,
 * and the games it plays to collect what a player reads. */
#ifndef CROUPIER_TESTS_SUPPORT_GLOSSARY_H
#define CROUPIER_TESTS_SUPPORT_GLOSSARY_H

#include <stddef.h>

enum { GL_MAX_WORDS = 1024, GL_WORD_LEN = 48 };

typedef struct gl_words {
    char w[GL_MAX_WORDS][GL_WORD_LEN];
    int n;
} gl_words;

/* in[0..len) in lower case into out (GL_WORD_LEN bytes; cut to fit). */
void gl_lower(char *out, const char *in, size_t len);
int gl_has(const gl_words *s, const char *w);
/* Adds w unless present (a full set fails the calling test). */
void gl_add(gl_words *s, const char *w);
/* Calls fn on each word of text: letters, digits, UTF-8 bytes, '!' and
 * the apostrophe; a closing quote or a possessive 's is not part of it. */
typedef void (*gl_word_fn)(const char *w, size_t len, void *arg);
void gl_each_word(const char *text, gl_word_fn fn, void *arg);
/* Adds every word of text, in lower case. */
void gl_add_words(gl_words *s, const char *text);
/* The words of every **bold term** of the guide's "## Glossary" section
 * (fails the calling test when the file or the section is missing). */
void gl_read_glossary(const char *path, gl_words *out);
/* Whether low (lower case) is a glossary word, or one with a plural
 * ending, -ed/-ing (last consonant undoubled) or a '!' taken off. */
int gl_defined(const gl_words *g, const char *low);

#endif
