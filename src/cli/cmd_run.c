/* cmd_run.c — `croupier run`: load a position, apply scripted actions
 * (chance outcomes included), print the omniscient event log and the
 * resulting position.  The tool behind rules fixtures and bug reports:
 * every failure names the file, the line and the problem.
 *
 * The table (variant, player count) must be known before the position is
 * parsed; it comes from --variant/--players, else from the position's
 * top-level "variant", "players" (a count, or an array with one entry per
 * seat) and "options" keys when present, else the game's defaults. */
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "commands.h"
#include "croupier/alloc.h"
#include "croupier/record.h"

static int apply_actions(const cr_game *g, void *st, const char *path, const char *text,
                         int print_log, int view, cr_events *ev, cr_text *b)
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
        if (cr_apply_text(g, st, line, &(cr_ctx){.ev = ev}, err, sizeof err) != CR_OK)
            return cli_error("%s line %d: %s", path, line_no, err);
        if (ev->dropped > 0) /* the buffer holds max_events, the game's proven bound */
            return cli_error("%s line %d: the action wrote %d events, more than the game's "
                             "max_events (%d)",
                             path, line_no, ev->len + ev->dropped, g->max_events);
        if (print_log) cli_print_events(stdout, g, ev, view, "", b);
        ev->len = ev->dropped = 0;
    }
    return 0;
}

/* --as: a seat number, "public" or "all" (the omniscient default). */
static int parse_view(const char *s, int *view)
{
    long k;
    if (strcmp(s, "all") == 0 || strcmp(s, "omniscient") == 0)
        *view = CR_SEAT_OMNISCIENT;
    else if (strcmp(s, "public") == 0)
        *view = CR_SEAT_PUBLIC;
    else if (s[0] == 'P' && cli_parse_int(s + 1, 0, CR_MAX_PLAYERS - 1, &k))
        *view = (int)k;
    else if (cli_parse_int(s, 0, CR_MAX_PLAYERS - 1, &k))
        *view = (int)k;
    else
        return 0;
    return 1;
}

int cmd_run(int argc, char **argv)
{
    const char *game = NULL, *pos_path = NULL, *act_path = NULL, *variant_s = NULL;
    const char *players_s = NULL, *as_s = NULL;
    int json = 0, view = CR_SEAT_OMNISCIENT;
    cr_params over = {0};
    for (int i = 1; i < argc; i++) {
        const char *v;
        int m;
        if ((m = cli_table_opt(argc, argv, &i, &over)) != 0)
            ;
        else if ((m = cli_opt(argc, argv, &i, "--position", &v)) != 0)
            pos_path = v;
        else if ((m = cli_opt(argc, argv, &i, "--actions", &v)) != 0)
            act_path = v;
        else if ((m = cli_opt(argc, argv, &i, "--variant", &v)) != 0)
            variant_s = v;
        else if ((m = cli_opt(argc, argv, &i, "--players", &v)) != 0)
            players_s = v;
        else if ((m = cli_opt(argc, argv, &i, "--as", &v)) != 0)
            as_s = v;
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
    long players = 0;
    if (players_s && !cli_parse_int(players_s, 1, CR_MAX_PLAYERS, &players))
        return cli_usage_error(argv[0], "bad --players '%s'", players_s);
    if (as_s && !parse_view(as_s, &view))
        return cli_usage_error(argv[0], "bad --as '%s': expected a seat (0, P1...), public or all",
                               as_s);
    over.variant = variant_s;
    over.num_players = (int)players;
    const cr_game_def *def = cli_find_game(game);
    if (def == NULL) return 1;

    char err[512];
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

    int rc = 0;
    cr_game *g = NULL;
    void *st = NULL, *obs = NULL;
    cr_text b = {0};
    cr_events ev = {0};
    if (cr_position_load(pos, pos_len, def->name, &over, &g, &st, err, sizeof err) != CR_OK) {
        rc = cli_error("%s: %s", pos_path, err);
        goto out;
    }
    if (view >= g->num_players) {
        rc = cli_usage_error(argv[0], "--as %s: the game has seats 0 to %d", as_s,
                             g->num_players - 1);
        goto out;
    }
    ev.cap = g->max_events; /* one apply's events: the game's proven bound */
    ev.buf = cr_alloc((size_t)ev.cap * sizeof *ev.buf);
    obs = cr_alloc(g->obs_size ? g->obs_size : 1);
    if (ev.buf == NULL || obs == NULL) {
        rc = cli_error("out of memory");
        goto out;
    }
    if (!json) printf("== log ==\n");
    if (acts != NULL && (rc = apply_actions(g, st, act_path, acts, !json, view, &ev, &b)) != 0)
        goto out;
    if (!json) printf(view == CR_SEAT_OMNISCIENT ? "== position ==\n" : "== view ==\n");
    if (view == CR_SEAT_OMNISCIENT) {
        cli_serialize(g, st, &b);
        cli_print_json(stdout, cr_text_str(&b), strlen(cr_text_str(&b)));
    } else {
        /* a seat's (or the public) view: its observation, never the state */
        g->def->observe(g, st, view, obs);
        size_t need = g->def->obs_to_json(g, obs, NULL, 0) + 1;
        char *text = malloc(need);
        if (text == NULL) {
            rc = cli_error("out of memory");
            goto out;
        }
        g->def->obs_to_json(g, obs, text, need);
        cli_print_json(stdout, text, strlen(text));
        free(text);
    }
    if (!json) {
        int who = cr_current_player(g, st);
        if (who == CR_TERMINAL) {
            printf("== game over ==\n");
            cli_print_result(stdout, g, st);
        } else if (who == CR_CHANCE) {
            printf("== next: chance ==\n");
        } else if (view == CR_SEAT_OMNISCIENT || view == who) {
            printf("== next: P%d, %s ==\n", who, cli_prompt_text(g, st, &b));
        } else {
            printf("== next: P%d ==\n", who);
        }
    }

out:
    cr_text_free(&b);
    cr_free(ev.buf);
    cr_free(obs);
    cr_free(st);
    cr_game_free(g);
    free(pos);
    free(acts);
    return rc;
}
