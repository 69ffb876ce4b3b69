/* vary.c — the data files of a designer's sweep over a game's data
 * (`croupier sim --vary board.KEY=V1,V2,...`, docs/lab.md).
 *
 * For each value the game's lab profile rewrites its data file's text
 * (cr_lab_profile.board_set: the lab knows no game's format) and the lab
 * writes it to a temporary file, which the table then names through the
 * game's data-file option, as `--board FILE` would: every process and
 * thread loads it as any board file, with the game's own checks, and the
 * records carry its content hash.  The file is loaded once here, so a value
 * the game refuses fails before any game is played, naming the parameter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "croupier/alloc.h"
#include "croupier/parts.h"
#include "croupier/sim.h"

enum { VARY_MAX_FILE = 1 << 20 };

/* The table of cfg, as cr_sim_run_part builds it. */
static cr_game *table_game(const cr_sim_config *cfg, const cr_game_def *def, char *err,
                           size_t errcap)
{
    cr_params p = {.num_players = cfg->num_players ? cfg->num_players : 0, .variant = cfg->variant};
    if (!p.num_players && cfg->n_seats > 1) p.num_players = cfg->n_seats;
    for (int i = 0; i < cfg->n_options; i++)
        if (cr_params_set(&p, cfg->options[i].key, cfg->options[i].value) != CR_OK) {
            snprintf(err, errcap, "too many options");
            return NULL;
        }
    return cr_game_new(def, &p, err, errcap);
}

cr_status cr_sim_board_file(const cr_sim_config *cfg, const char *key, const char *value,
                            char *path, size_t pathcap, const char **opt_key, char *err,
                            size_t errcap)
{
    path[0] = '\0';
    const cr_game_def *def = cfg->def ? cfg->def : cr_registry_find(cfg->game);
    if (!def) {
        snprintf(err, errcap, "unknown game: %s", cfg->game ? cfg->game : "(none)");
        return CR_ERR_INVALID;
    }
    const char *file_opt = NULL;
    for (int i = 0; i < def->n_options; i++)
        if (def->options[i].type == CR_OPT_FILE) file_opt = def->options[i].key;
    char gerr[512];
    cr_game *g = table_game(cfg, def, gerr, sizeof gerr);
    if (!g) {
        snprintf(err, errcap, "%s", gerr);
        return CR_ERR_INVALID;
    }
    const cr_lab_profile *prof = cr_parts(g)->lab;
    if (prof && prof->for_table && prof->for_table(g)) prof = prof->for_table(g);
    if (!file_opt || !prof || !prof->board_set) {
        snprintf(err, errcap, "board.%s: %s has no board parameters to vary", key, def->name);
        cr_game_free(g);
        return CR_ERR_INVALID;
    }
    char *text = cr_alloc(VARY_MAX_FILE);
    if (!text) {
        cr_game_free(g);
        snprintf(err, errcap, "out of memory");
        return CR_ERR_NOMEM;
    }
    size_t len = prof->board_set(g, key, value, text, VARY_MAX_FILE, gerr, sizeof gerr);
    cr_game_free(g);
    if (len == 0) {
        snprintf(err, errcap, "%s", gerr);
        cr_free(text);
        return CR_ERR_INVALID;
    }
    const char *dir = getenv("TMPDIR");
    snprintf(path, pathcap, "%s/croupier-board-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    int ok = f && fwrite(text, 1, len, f) == len;
    if (f && fclose(f) != 0) ok = 0;
    if (!f && fd >= 0) close(fd);
    cr_free(text);
    if (!ok) {
        snprintf(err, errcap, "board.%s: cannot write a temporary board file in %s", key,
                 dir && *dir ? dir : "/tmp");
        if (fd >= 0) unlink(path);
        path[0] = '\0';
        return CR_ERR_IO;
    }
    /* the table with this file: the game's own checks, now */
    cr_sim_config c = *cfg;
    int k;
    for (k = 0; k < c.n_options && strcmp(c.options[k].key, file_opt) != 0; k++) continue;
    if (k == c.n_options && c.n_options < CR_MAX_OPTIONS) c.n_options++;
    c.options[k].key = file_opt;
    c.options[k].value = path;
    g = table_game(&c, def, gerr, sizeof gerr);
    if (!g) {
        snprintf(err, errcap, "board.%s=%s: %s", key, value, gerr);
        unlink(path);
        path[0] = '\0';
        return CR_ERR_INVALID;
    }
    cr_game_free(g);
    *opt_key = file_opt;
    return CR_OK;
}
