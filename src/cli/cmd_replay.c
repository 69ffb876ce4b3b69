/* cmd_replay.c — `croupier replay`: load a game record (every action checked
 * against the rules, see record.c) and print where it ends: a summary, the
 * final position and the scores, or all of it as one JSON object. */
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "commands.h"
#include "croupier/alloc.h"
#include "croupier/record.h"

/* Integral values print as integers (12, not 12.0). */
static json_t *number(double x)
{
    if (x == (double)(json_int_t)x) return json_integer((json_int_t)x);
    return json_real(x);
}

static int print_json(const cr_game *g, const void *st, const cr_record *r, cli_buf *b)
{
    double sc[CR_MAX_PLAYERS], ret[CR_MAX_PLAYERS];
    int who = cr_current_player(g, st);
    g->def->scores(g, st, sc);
    g->def->returns(g, st, ret);
    json_t *o = json_object();
    json_t *scores = json_array(), *returns = json_array();
    for (int s = 0; s < g->num_players; s++) {
        json_array_append_new(scores, number(sc[s]));
        json_array_append_new(returns, number(ret[s]));
    }
    cli_serialize(g, st, b);
    json_t *pos = json_loads(b->p, 0, NULL);
    if (pos == NULL) pos = json_string(b->p); /* not JSON: keep the text */
    json_object_set_new(o, "game", json_string(r->game));
    json_object_set_new(o, "variant", json_string(r->variant));
    json_object_set_new(o, "players", json_integer(g->num_players));
    json_object_set_new(o, "first_roller", json_integer(r->first_roller));
    json_object_set_new(o, "seed", r->has_seed ? json_integer((json_int_t)r->seed) : json_null());
    json_object_set_new(o, "actions", json_integer(r->n_actions));
    json_object_set_new(o, "over", json_boolean(who == CR_TERMINAL));
    json_object_set_new(o, "to_act",
                        who == CR_TERMINAL ? json_null()
                        : who == CR_CHANCE ? json_string("chance")
                                           : json_integer(who));
    json_object_set_new(o, "scores", scores);
    json_object_set_new(o, "returns", returns);
    json_object_set_new(o, "position", pos);
    int rc = json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    putchar('\n');
    json_decref(o);
    return rc == 0 ? 0 : cli_error("cannot write JSON");
}

int cmd_replay(int argc, char **argv)
{
    const char *path = NULL;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = 1;
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_usage_error(argv[0], "unknown option '%s'", argv[i]);
        else if (path == NULL)
            path = argv[i];
        else
            return cli_usage_error(argv[0], "unexpected argument '%s'", argv[i]);
    }
    if (path == NULL) return cli_usage_error(argv[0], "which record file?");

    char err[512];
    size_t len;
    char *text = cli_read_file(path, &len, err, sizeof err);
    if (text == NULL) return cli_error("%s", err);
    cr_record r;
    cr_game *g;
    void *st;
    cr_status s = cr_record_load(text, len, &r, &g, &st, err, sizeof err);
    free(text);
    if (s != CR_OK) return cli_error("%s: %s", path, err);

    int rc = 0;
    cli_buf b = {0};
    if (json) {
        rc = print_json(g, st, &r, &b);
    } else {
        printf("game: %s (%s), variant %s, %d players, first roller P%d", r.game,
               g->def->title ? g->def->title : r.game, r.variant, g->num_players, r.first_roller);
        if (r.has_seed) printf(", seed %" PRIu64, r.seed);
        printf("\nactions: %d\n", r.n_actions);
        int who = cr_current_player(g, st);
        if (who == CR_TERMINAL)
            printf("status: over\n");
        else if (who == CR_CHANCE)
            printf("status: unfinished, chance to act\n");
        else
            printf("status: unfinished, P%d to act: %s\n", who, cli_prompt_text(g, st, &b));
        printf("position:\n");
        cli_serialize(g, st, &b);
        cli_print_json(stdout, b.p, strlen(b.p));
        cli_print_result(stdout, g, st);
    }
    cli_buf_fini(&b);
    cr_free(st);
    cr_game_free(g);
    cr_record_fini(&r);
    return rc;
}
