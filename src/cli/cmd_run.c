/* cmd_run.c — `croupier run`: load a position, apply scripted actions
 * (chance outcomes included), print the omniscient event log and the
 * resulting position.  The tool behind rules fixtures and bug reports:
 * every failure names the file, the line and the problem.
 *
 * The table (variant, player count) must be known before the position is
 * parsed; it comes from --variant/--players, else from the position's
 * top-level "variant", "players" (a count, or an array with one entry per
 * seat) and "first_roller" keys when present, else the game's defaults. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "commands.h"
#include "croupier/alloc.h"

/* Reads "variant", "players" and "first_roller" from the top of a JSON
 * position, where the caller has no value yet (players 0, first -1). */
static void peek_table(const char *text, size_t len, char *variant, size_t vcap, long *players,
                       long *first)
{
    json_t *root = json_loadb(text, len, 0, NULL);
    if (root == NULL || !json_is_object(root)) {
        json_decref(root);
        return;
    }
    json_t *v = json_object_get(root, "variant");
    if (variant[0] == '\0' && json_is_string(v))
        snprintf(variant, vcap, "%s", json_string_value(v));
    json_t *p = json_object_get(root, "players");
    if (*players == 0 && json_is_integer(p))
        *players = (long)json_integer_value(p);
    else if (*players == 0 && json_is_array(p))
        *players = (long)json_array_size(p);
    json_t *f = json_object_get(root, "first_roller");
    if (*first < 0 && json_is_integer(f) && json_integer_value(f) >= 0 &&
        json_integer_value(f) < CR_MAX_PLAYERS)
        *first = (long)json_integer_value(f);
    json_decref(root);
}

static int apply_actions(const cr_game *g, void *st, const char *path, const char *text,
                         int print_log, cr_events *ev, cli_buf *b)
{
    const char *p = text;
    int line_no = 0;
    char line[1024], err[512];
    while (*p != '\0') {
        line_no++;
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len >= sizeof line) return cli_error("%s line %d: line too long", path, line_no);
        memcpy(line, p, len);
        line[len] = '\0';
        p = nl ? nl + 1 : p + len;
        size_t skip = strspn(line, " \t\r");
        if (line[skip] == '\0' || line[skip] == '#') continue;
        if (cr_apply_text(g, st, line, ev, err, sizeof err) != CR_OK)
            return cli_error("%s line %d: %s", path, line_no, err);
        if (print_log) cli_print_events(stdout, g, ev, -1, "", b);
        ev->len = ev->dropped = 0;
    }
    return 0;
}

int cmd_run(int argc, char **argv)
{
    const char *game = NULL, *pos_path = NULL, *act_path = NULL, *variant_s = NULL;
    const char *players_s = NULL, *first_s = NULL;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        const char *v;
        int m;
        if ((m = cli_opt(argc, argv, &i, "--position", &v)) != 0)
            pos_path = v;
        else if ((m = cli_opt(argc, argv, &i, "--actions", &v)) != 0)
            act_path = v;
        else if ((m = cli_opt(argc, argv, &i, "--variant", &v)) != 0)
            variant_s = v;
        else if ((m = cli_opt(argc, argv, &i, "--players", &v)) != 0)
            players_s = v;
        else if ((m = cli_opt(argc, argv, &i, "--first-roller", &v)) != 0)
            first_s = v;
        else if (strcmp(argv[i], "--json") == 0)
            json = 1;
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_usage_error(argv[0], "unknown option '%s'", argv[i]);
        else if (game == NULL)
            game = argv[i];
        else
            return cli_usage_error(argv[0], "unexpected argument '%s'", argv[i]);
        if (m < 0) return 2;
    }
    if (game == NULL) return cli_usage_error(argv[0], "which game? (croupier games lists them)");
    if (pos_path == NULL) return cli_usage_error(argv[0], "--position is required");
    long players = 0, first = -1;
    if (players_s && !cli_parse_int(players_s, 1, CR_MAX_PLAYERS, &players))
        return cli_usage_error(argv[0], "bad --players '%s'", players_s);
    if (first_s && !cli_parse_int(first_s, 0, CR_MAX_PLAYERS - 1, &first))
        return cli_usage_error(argv[0], "bad --first-roller '%s'", first_s);
    const cr_game_def *def = cli_find_game(game);
    if (def == NULL) return 1;

    char err[512], variant[64] = "";
    if (variant_s) snprintf(variant, sizeof variant, "%s", variant_s);
    size_t pos_len = 0;
    char *pos = cli_read_file(pos_path, &pos_len, err, sizeof err);
    if (pos == NULL) return cli_error("%s", err);
    char *acts = NULL;
    if (act_path != NULL) {
        size_t act_len; /* cli_read_file refuses NUL bytes: the text ends at act_len */
        if (strcmp(act_path, "-") == 0 && strcmp(pos_path, "-") == 0) {
            free(pos);
            return cli_usage_error(argv[0], "only one of --position and --actions can be '-'");
        }
        acts = cli_read_file(act_path, &act_len, err, sizeof err);
        if (acts == NULL) {
            free(pos);
            return cli_error("%s", err);
        }
    }
    peek_table(pos, pos_len, variant, sizeof variant, &players, &first);
    if (first < 0) first = 0;

    int rc = 0;
    cr_params p = {.num_players = (int)players,
                   .variant = variant[0] ? variant : NULL,
                   .first_roller = (int)first};
    cr_game *g = cr_game_new(def, &p, err, sizeof err);
    void *st = NULL;
    cli_buf b = {0};
    cr_events ev = {0};
    if (g == NULL) {
        rc = cli_error("%s: %s", pos_path, err);
        goto out;
    }
    st = cr_alloc(g->state_size);
    ev.cap = 4096;
    ev.buf = cr_alloc((size_t)ev.cap * sizeof *ev.buf);
    if (st == NULL || ev.buf == NULL) {
        rc = cli_error("out of memory");
        goto out;
    }
    err[0] = '\0';
    if (g->def->deserialize(g, st, pos, pos_len, err, sizeof err) != CR_OK) {
        rc = cli_error("%s: %s", pos_path, err[0] ? err : "not a valid position");
        goto out;
    }
    if (!json) printf("== log ==\n");
    if (acts != NULL && (rc = apply_actions(g, st, act_path, acts, !json, &ev, &b)) != 0) goto out;
    if (!json) printf("== position ==\n");
    cli_serialize(g, st, &b);
    cli_print_json(stdout, b.p, strlen(b.p));
    if (!json) {
        int who = cr_current_player(g, st);
        if (who == CR_TERMINAL) {
            printf("== game over ==\n");
            cli_print_result(stdout, g, st);
        } else if (who == CR_CHANCE) {
            printf("== next: chance ==\n");
        } else {
            printf("== next: P%d, %s ==\n", who, cli_prompt_text(g, st, &b));
        }
    }

out:
    cli_buf_fini(&b);
    cr_free(ev.buf);
    cr_free(st);
    cr_game_free(g);
    free(pos);
    free(acts);
    return rc;
}
