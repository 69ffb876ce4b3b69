/* cmd_replay.c — `croupier replay`: load a game record (every action checked
 * against the rules, see record.c) through the match layer and print where
 * it ends: a summary, the final position and the result, or all of it as
 * one JSON object.  In a terminal (no --json, no --plain) it opens the
 * full-screen viewer instead (tui_replay: move by move, forwards and
 * backwards, the open view or one seat's, --as).  The record's seed is shown only for a finished
 * match (match.h: the seed is a secret while a game runs). */
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_util.h"
#include "commands.h"
#include "croupier/alloc.h"
#include "croupier/match.h"
#include "tui/tui.h"

static json_t *options_json(const cr_record *r)
{
    json_t *o = json_object();
    for (int i = 0; i < r->n_options; i++)
        json_object_set_new(o, r->opt_key[i], json_string(r->opt_val[i]));
    return o;
}

static int print_json(const cr_match *m, cli_buf *b)
{
    const cr_game *g = cr_match_game(m);
    const void *st = cr_match_state(m);
    const cr_record *r = cr_match_record(m);
    cr_result res;
    cr_match_result(m, &res);
    int who = cr_match_to_act(m);
    double ret[CR_MAX_PLAYERS] = {0};
    if (cr_is_terminal(g, st)) g->def->returns(g, st, ret);
    json_t *o = json_object();
    json_t *scores = json_array(), *ranks = json_array(), *returns = json_array(),
           *seats = json_array(), *winners = json_array();
    for (int s = 0; s < g->num_players; s++) {
        json_array_append_new(scores, json_integer(res.score[s]));
        json_array_append_new(ranks, json_integer(res.rank[s]));
        json_array_append_new(returns, json_real(ret[s]));
        json_array_append_new(seats, json_string(cr_match_seat_spec(m, s)));
        if (res.winners >> s & 1) json_array_append_new(winners, json_integer(s));
    }
    cli_serialize(g, st, b);
    json_t *pos = json_loads(b->p, 0, NULL);
    if (pos == NULL) pos = json_string(b->p); /* not JSON: keep the text */
    uint64_t seed;
    json_object_set_new(o, "game", json_string(r->game));
    json_object_set_new(o, "rules", json_integer(r->rules_version));
    json_object_set_new(o, "variant", json_string(r->variant));
    json_object_set_new(o, "players", json_integer(g->num_players));
    json_object_set_new(o, "options", options_json(r));
    json_object_set_new(o, "seats", seats);
    json_object_set_new(o, "seed",
                        cr_match_seed(m, &seed) ? json_integer((json_int_t)seed) : json_null());
    json_object_set_new(o, "actions", json_integer(r->n_actions));
    json_object_set_new(o, "over", json_boolean(who == CR_TERMINAL));
    json_object_set_new(o, "to_act",
                        who == CR_TERMINAL ? json_null()
                        : who == CR_CHANCE ? json_string("chance")
                                           : json_integer(who));
    json_object_set_new(o, "scores", scores);
    json_object_set_new(o, "ranks", ranks);
    json_object_set_new(o, "winners", winners);
    json_object_set_new(o, "returns", returns);
    json_object_set_new(o, "position", pos);
    int rc = json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    putchar('\n');
    json_decref(o);
    return rc == 0 ? 0 : cli_error("cannot write JSON");
}

int cmd_replay(int argc, char **argv)
{
    const char *path = NULL, *as = NULL;
    int json = 0, plain = 0, ascii = 0;
    cr_params overrides = {0};
    for (int i = 1; i < argc; i++) {
        int m;
        if ((m = cli_table_opt(argc, argv, &i, &overrides)) != 0) {
            if (m < 0) return 2;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[i], "--plain") == 0) {
            plain = 1;
        } else if (strcmp(argv[i], "--ascii") == 0) {
            ascii = 1;
        } else if ((m = cli_opt(argc, argv, &i, "--as", &as)) != 0) {
            if (m < 0) return 2;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_usage_error(argv[0], "unknown option '%s'", argv[i]);
        } else if (path == NULL) {
            path = argv[i];
        } else {
            return cli_usage_error(argv[0], "unexpected argument '%s'", argv[i]);
        }
    }
    if (path == NULL) return cli_usage_error(argv[0], "which record file?");

    char err[512];
    size_t len;
    char *text = cli_read_file(path, &len, err, sizeof err);
    if (text == NULL) return cli_error("%s", err);
    cr_match *m = cr_match_load(text, len, &overrides, 0, err, sizeof err);
    free(text);
    if (m == NULL) return cli_error("%s: %s", path, err);

    int view = CR_SEAT_PUBLIC;
    if (as != NULL && (strcmp(as, "open") == 0 || strcmp(as, "all") == 0)) {
        view = CR_SEAT_OMNISCIENT;
    } else if (as != NULL && strcmp(as, "public") != 0) {
        long seat;
        int last = cr_match_game(m)->num_players - 1;
        if (!cli_parse_int(as[0] == 'P' ? as + 1 : as, 0, last, &seat)) {
            cr_match_free(m);
            return cli_usage_error(argv[0], "bad --as '%s': a seat from 0 to %d, public or open",
                                   as, last);
        }
        view = (int)seat;
    }
    /* In a terminal: the step-by-step viewer (src/tui); else the summary. */
    if (!json && !plain && isatty(fileno(stdin)) && isatty(fileno(stdout))) {
        tui_options o = {.ascii = ascii};
        int r = tui_replay(m, view, &o, err, sizeof err);
        if (r != TUI_NO_TERM) {
            cr_match_free(m);
            return r == TUI_FAILED ? cli_error("%s", err) : 0;
        }
        cli_say(stderr, "croupier: %s: printing the summary", err); /* and go on below */
    }

    int rc = 0;
    cli_buf b = {0};
    const cr_game *g = cr_match_game(m);
    const void *st = cr_match_state(m);
    const cr_record *r = cr_match_record(m);
    if (json) {
        rc = print_json(m, &b);
    } else {
        printf("game: %s (%s), rules version %d, variant %s, %d players", r->game,
               g->def->title ? g->def->title : r->game, r->rules_version, r->variant,
               g->num_players);
        for (int i = 0; i < r->n_options; i++)
            printf(", %s %s", r->opt_key[i], r->opt_val[i][0] ? r->opt_val[i] : "(built-in)");
        uint64_t seed;
        if (cr_match_seed(m, &seed)) printf(", seed %" PRIu64, seed);
        printf("\nseats:");
        for (int s = 0; s < g->num_players; s++)
            printf(" P%d %s%s", s, cr_match_seat_spec(m, s), s + 1 < g->num_players ? "," : "");
        printf("\nactions: %d\n", r->n_actions);
        int who = cr_match_to_act(m);
        if (who == CR_TERMINAL && !cr_is_terminal(g, st))
            printf("status: the match ended (a seat resigned or ran out of time)\n");
        else if (who == CR_TERMINAL)
            printf("status: over\n");
        else if (who == CR_CHANCE)
            printf("status: unfinished, chance to act\n");
        else
            printf("status: unfinished, P%d to act: %s\n", who, cli_prompt_text(g, st, &b));
        printf("position:\n");
        cli_serialize(g, st, &b);
        cli_print_json(stdout, b.p, strlen(b.p));
        if (who == CR_TERMINAL) {
            cr_result res;
            cr_match_result(m, &res);
            printf("ranks:");
            for (int s = 0; s < g->num_players; s++)
                printf(" P%d %d%s", s, (int)res.rank[s], cr_match_left(m, s) ? " (left)" : "");
            printf("\n");
        }
        cli_print_result(stdout, g, st);
    }
    cli_buf_fini(&b);
    cr_match_free(m);
    return rc;
}
