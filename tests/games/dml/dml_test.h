/* dml_test.h — what the DML tests share: a table, a file, a fixture
 * position.  Each fails the calling test (cmocka) on error. */
#ifndef CROUPIER_TESTS_DML_TEST_H
#define CROUPIER_TESTS_DML_TEST_H

#include <stddef.h>

#include "croupier/game.h"
#include "games/dml/dml_internal.h"

/* A DML table of `players` seats of `variant`. */
cr_game *dml_test_game(const char *variant, int players);
/* The whole file (NUL bytes included) in a static buffer (128 KiB at most,
 * overwritten by the next call); its length in *len. */
char *dml_test_read(const char *path, size_t *len);
/* Applies an action given in notation; the test fails if it is refused. */
void dml_test_play(const cr_game *g, dml_state *s, const char *text);
/* Loads tests/fixtures/dml-positions/NAME into s. */
void dml_test_load(const cr_game *g, dml_state *s, const char *name);

#endif
