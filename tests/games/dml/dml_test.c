/* dml_test.c — see dml_test.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "games/dml/dml_test.h"

cr_game *dml_test_game(const char *variant, int players)
{
    cr_params p = {.num_players = players, .variant = variant};
    char err[256];
    cr_game *g = cr_game_new(cr_registry_find("dml"), &p, err, sizeof err);
    if (g == NULL) fail_msg("dml %s, %d players: %s", variant, players, err);
    return g;
}

char *dml_test_read(const char *path, size_t *len)
{
    static char buf[1 << 17];
    FILE *f = fopen(path, "rb");
    if (f == NULL) fail_msg("cannot open %s", path);
    *len = fread(buf, 1, sizeof buf - 1, f);
    buf[*len] = '\0';
    fclose(f);
    return buf;
}

void dml_test_load(const cr_game *g, dml_state *s, const char *name)
{
    char path[512], err[512];
    size_t len;
    snprintf(path, sizeof path, "%s/dml-positions/%s", CR_TEST_FIXTURES_DIR, name);
    const char *json = dml_test_read(path, &len);
    if (g->def->deserialize(g, s, json, len, err, sizeof err) != CR_OK)
        fail_msg("%s: %s", name, err);
}

void dml_test_play(const cr_game *g, dml_state *s, const char *text)
{
    char err[256];
    if (cr_apply_text(g, s, text, NULL, err, sizeof err) != CR_OK) fail_msg("'%s': %s", text, err);
}
