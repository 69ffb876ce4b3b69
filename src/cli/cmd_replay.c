/* cmd_replay.c — `croupier replay`: load a game record (every action checked
 * against the rules, see record.c) through the match layer, then
 *   --log     print the whole game in words, move by move (replay_text.h);
 *   a terminal (or --step): step through it, n(ext), p(rev), g(oto) N, q(uit);
 *   --json    print where it ends as one JSON object;
 *   otherwise print where it ends: a summary, the final position, the result.
 * --as SEAT|public|open picks the view of --log, the stepper and --json
 * (--log and the stepper default to public, as the full-screen viewer: what
 * every seat knows; `open` turns every card face up, only when asked, so a
 * glance at a hot-seat game's record does not show the Hands; --json
 * defaults to open, the whole position, as it printed before it took --as).
 * The record's seed is shown only for a finished match (match.h: the seed is
 * a secret while a game runs), as the unsigned decimal the record holds (in
 * JSON a string, as the server's `record` message has it).  No
 * game is named here: any game's record replays through the match layer.
 * In a terminal (no --json, --plain, --log or --step) it opens the
 * full-screen viewer instead (tui_replay: move by move, forwards and
 * backwards, the public view, one seat's or the open view; default public). */
#include <ctype.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_util.h"
#include "commands.h"
#include "croupier/alloc.h"
#include "croupier/analysis.h"
#include "croupier/match.h"
#include "croupier/replay.h"
#include "replay_text.h"
#include "tui/tui.h"

static json_t *options_json(const cr_record *r)
{
    json_t *o = json_object();
    for (int i = 0; i < r->n_options; i++)
        json_object_set_new(o, r->opt_key[i], json_string(r->opt_val[i]));
    return o;
}

/* The seed as the record writes it: an unsigned 64-bit decimal.  In JSON it
 * is a string, as in the server's `record` message (docs/protocol.md): a
 * JSON number above 2^53 is rounded by most readers, and jansson's integers
 * are signed, so a seed of 2^63 or more would print as a negative number. */
static json_t *seed_json(const cr_match *m)
{
    uint64_t seed;
    if (!cr_match_seed(m, &seed)) return json_null();
    char s[24];
    snprintf(s, sizeof s, "%" PRIu64, seed);
    return json_string(s);
}

/* What `view` sees of the match now, as JSON: the position (the whole
 * state) for the open view, else the match layer's observation of that seat
 * (CR_SEAT_PUBLIC: what every seat knows).  NULL when out of memory. */
static json_t *view_json(const cr_match *m, int view, cr_text *b)
{
    const cr_game *g = cr_match_game(m);
    if (view == CR_SEAT_OMNISCIENT) {
        cli_serialize(g, cr_match_state(m), b);
        json_t *pos = json_loads(cr_text_str(b), 0, NULL);
        return pos != NULL ? pos : json_string(cr_text_str(b)); /* not JSON: keep the text */
    }
    void *obs = cr_alloc(g->obs_size ? g->obs_size : 1);
    if (obs == NULL) return NULL;
    cr_match_observe(m, view, obs);
    size_t need = g->def->obs_to_json(g, obs, NULL, 0) + 1;
    char *text = malloc(need);
    json_t *o = NULL;
    if (text != NULL) {
        g->def->obs_to_json(g, obs, text, need);
        o = json_loads(text, 0, NULL);
        if (o == NULL) o = json_string(text);
        free(text);
    }
    cr_free(obs);
    return o;
}

/* Where the record ends, as one JSON object, from `view`.  The open view
 * (the default) carries the whole position; a seat's view or the public one
 * carries that view's observation instead, and the scores, ranks, winners
 * and returns only once the match is over (mid-game they could follow from
 * cards the view does not see). */
static int print_json(const cr_match *m, int view, cr_text *b)
{
    const cr_game *g = cr_match_game(m);
    const void *st = cr_match_state(m);
    const cr_record *r = cr_match_record(m);
    cr_result res;
    cr_match_result(m, &res);
    int who = cr_match_to_act(m);
    double ret[CR_MAX_PLAYERS] = {0};
    if (cr_is_terminal(g, st)) g->def->returns(g, st, ret);
    json_t *shown = view_json(m, view, b);
    if (shown == NULL) return cli_error("out of memory");
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
    if (view != CR_SEAT_OMNISCIENT && who != CR_TERMINAL) {
        json_decref(scores);
        json_decref(ranks);
        json_decref(returns);
        json_decref(winners);
        scores = json_null();
        ranks = json_null();
        returns = json_null();
        winners = json_null();
    }
    json_object_set_new(o, "game", json_string(r->game));
    json_object_set_new(o, "rules", json_integer(r->rules_version));
    json_object_set_new(o, "variant", json_string(r->variant));
    json_object_set_new(o, "players", json_integer(g->num_players));
    json_object_set_new(o, "options", options_json(r));
    json_object_set_new(o, "seats", seats);
    json_object_set_new(o, "seed", seed_json(m));
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
    json_object_set_new(o, "view",
                        view == CR_SEAT_OMNISCIENT ? json_string("open")
                        : view == CR_SEAT_PUBLIC   ? json_string("public")
                                                   : json_integer(view));
    json_object_set_new(o, view == CR_SEAT_OMNISCIENT ? "position" : "observation", shown);
    int rc = json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    putchar('\n');
    json_decref(o);
    return rc == 0 ? 0 : cli_error("cannot write JSON");
}

static int parse_view(const char *s, int *view)
{
    long k;
    if (strcmp(s, "open") == 0 || strcmp(s, "all") == 0)
        *view = CR_SEAT_OMNISCIENT;
    else if (strcmp(s, "public") == 0)
        *view = CR_SEAT_PUBLIC;
    else if ((s[0] == 'P' && cli_parse_int(s + 1, 0, CR_MAX_PLAYERS - 1, &k)) ||
             cli_parse_int(s, 0, CR_MAX_PLAYERS - 1, &k))
        *view = (int)k;
    else
        return 0;
    return 1;
}

static void print_text(cr_text *t)
{
    if (t->len > 0) fputs(t->p, stdout);
    if (t->oom) printf("(out of memory: some lines are missing)\n");
    cr_text_reset(t);
    t->oom = 0;
}

static const char *view_name(int view, char *buf, size_t cap)
{
    if (view == CR_SEAT_OMNISCIENT) return "open view (every card face up)";
    if (view == CR_SEAT_PUBLIC) return "public view (what every seat knows)";
    snprintf(buf, cap, "P%d's view", view);
    return buf;
}

static void print_header(const cr_match *m, int view)
{
    const cr_game *g = cr_match_game(m);
    const cr_record *r = cr_match_record(m);
    char vb[32];
    printf("%s (%s), %d players, %d moves; %s\n", g->def->title ? g->def->title : r->game,
           r->variant, g->num_players, r->n_actions, view_name(view, vb, sizeof vb));
    char line[CR_MAX_PLAYERS * (CR_RECORD_SPEC_MAX + 8)];
    size_t len = 0;
    for (int s = 0; s < g->num_players && len < sizeof line; s++)
        len += (size_t)snprintf(line + len, sizeof line - len, " P%d %s%s", s,
                                r->n_seats > s ? r->seats[s] : "human",
                                s + 1 < g->num_players ? "," : "");
    cli_say(stdout, "seats:%s", line); /* a record's text: escaped */
}

/* How the record ends, for --log and the stepper's last move. */
static void print_end(const cr_match *m)
{
    const cr_game *g = cr_match_game(m);
    const void *st = cr_match_state(m);
    int who = cr_match_to_act(m);
    if (who == CR_TERMINAL && !cr_is_terminal(g, st)) {
        cr_result res;
        cr_match_result(m, &res);
        printf("the match ended (a seat left); ranks:");
        for (int s = 0; s < g->num_players; s++)
            printf(" P%d %d%s", s, (int)res.rank[s], cr_match_left(m, s) ? " (left)" : "");
        printf("\n");
    } else if (who == CR_TERMINAL) {
        printf("game over.\n");
        cli_print_result(stdout, g, st);
    } else if (who == CR_CHANCE) {
        printf("the record stops here, unfinished: chance to act\n");
    } else {
        printf("the record stops here, unfinished: P%d to act\n", who);
    }
    uint64_t seed;
    if (cr_match_seed(m, &seed)) printf("seed %" PRIu64 "\n", seed);
}

/* The coach's line under move k of --log --analyse: the analysed seat's
 * decision at step k - 1 (entries in order, *at the next to look at). */
static void print_coach(const cr_game *g, const void *before, const cr_analysis_entry *e, int n,
                        int *at, int k)
{
    while (*at < n && e[*at].step < k - 1) (*at)++;
    if (*at >= n || e[*at].step != k - 1) return;
    const cr_analysis_entry *x = &e[*at];
    char played[128], best[128];
    g->def->action_to_str(g, before, x->played, played, sizeof played);
    g->def->action_to_str(g, before, x->best, best, sizeof best);
    const char *mark = x->mark == CR_MOVE_BLUNDER    ? " ?\?"
                       : x->mark == CR_MOVE_DOUBTFUL ? " ?"
                                                     : "";
    if (x->played == x->best)
        cli_say(stdout, "        coach: %s, %.0f%% to win: the best of %d", played,
                100 * x->played_win, x->n_choices);
    else
        cli_say(stdout, "        coach: %s, %.0f%% to win%s; best %s, %.0f%%", played,
                100 * x->played_win, mark, best, 100 * x->best_win);
}

static int print_log(const cr_match *m, int view, int coach_seat, long iters)
{
    const cr_game *g = cr_match_game(m);
    cr_analysis_entry *e = NULL;
    int n_e = 0, at = 0;
    cr_analysis_summary sum;
    if (coach_seat >= 0) {
        char err[256];
        cr_analysis_opts o = {.iters = iters, .threads = 1, .seed = 1};
        if (cr_analyse_record(g, cr_match_record(m), coach_seat, &o, &e, &n_e, &sum, NULL, NULL,
                              err, sizeof err) != CR_OK)
            return cli_error("the analysis: %s", err);
    }
    cr_replay *rp = cr_replay_new(m);
    if (rp == NULL) {
        cr_free(e);
        return cli_error("out of memory");
    }
    print_header(m, view);
    if (coach_seat >= 0)
        printf("coach: P%d's decisions judged by search (%ld iterations each, seed 1)\n",
               coach_seat, iters);
    cr_text t = {0};
    int n = cr_replay_steps(rp);
    for (int k = 1; k <= n; k++) {
        cr_replay_seek(rp, k);
        cli_replay_move(rp, view, &t);
        print_text(&t);
        if (coach_seat >= 0) print_coach(g, cr_replay_state_before(rp), e, n_e, &at, k);
    }
    if (coach_seat >= 0)
        printf("coach: P%d: %d decisions analysed, %d doubtful (?), %d blunder%s (?\?); error "
               "rate %.1f\n",
               coach_seat, sum.decisions, sum.doubtful, sum.blunders, sum.blunders == 1 ? "" : "s",
               sum.error_rate);
    cr_free(e);
    cli_replay_tail_marks(rp, &t);
    print_text(&t);
    print_end(m);
    cr_text_free(&t);
    cr_replay_free(rp);
    return 0;
}

static void show_step(cr_replay *rp, int view, cr_text *t)
{
    int at = cr_replay_at(rp), n = cr_replay_steps(rp);
    printf("\n== move %d of %d ==\n", at, n);
    if (at == 0) printf("(the start: no move yet)\n");
    cli_replay_move(rp, view, t);
    cli_replay_tail_marks(rp, t);
    cli_replay_position(rp, view, t);
    print_text(t);
    if (at == n) print_end(cr_replay_match(rp));
}

/* The line-mode stepper: commands from stdin until q or end of input. */
static int step_through(const cr_match *m, int view)
{
    cr_replay *rp = cr_replay_new(m);
    if (rp == NULL) return cli_error("out of memory");
    int n = cr_replay_steps(rp);
    print_header(m, view);
    printf("n (or Enter): next move, p: previous, g N: go to move N, e: the end, q: quit\n");
    cr_text t = {0};
    show_step(rp, view, &t);
    char *line = NULL;
    size_t cap = 0;
    int echo = !isatty(fileno(stdin));
    for (;;) {
        printf("replay %d/%d> ", cr_replay_at(rp), n);
        fflush(stdout);
        ssize_t got = getline(&line, &cap, stdin);
        if (got < 0) {
            putchar('\n');
            break;
        }
        if (memchr(line, '\0', (size_t)got) != NULL) {
            printf("that line holds a NUL byte: ignored\n");
            continue;
        }
        char *s = line, *e = line + got;
        while (e > s && isspace((unsigned char)e[-1])) *--e = '\0';
        while (*s == ' ' || *s == '\t') s++;
        if (echo) cli_say(stdout, "%s", s);
        long k;
        if (s[0] == '\0' || strcmp(s, "n") == 0 || strcmp(s, "next") == 0) {
            if (cr_replay_at(rp) == n) {
                printf("(this is the last move)\n");
                continue;
            }
            cr_replay_seek(rp, cr_replay_at(rp) + 1);
        } else if (strcmp(s, "p") == 0 || strcmp(s, "prev") == 0) {
            if (cr_replay_at(rp) == 0) {
                printf("(this is the start)\n");
                continue;
            }
            cr_replay_seek(rp, cr_replay_at(rp) - 1);
        } else if (strcmp(s, "e") == 0 || strcmp(s, "end") == 0) {
            cr_replay_seek(rp, n);
        } else if ((s[0] == 'g' && (s[1] == ' ' || isdigit((unsigned char)s[1])))) {
            const char *num = s + 1;
            while (*num == ' ') num++;
            if (!cli_parse_int(num, 0, n, &k)) {
                cli_say(stdout, "no move '%s': go to a move from 0 to %d", num, n);
                continue;
            }
            cr_replay_seek(rp, (int)k);
        } else if (strcmp(s, "q") == 0 || strcmp(s, "quit") == 0) {
            break;
        } else {
            cli_say(stdout,
                    "unknown command '%s': n (or Enter) next, p previous, g N go to move N, "
                    "e the end, q quit",
                    s);
            continue;
        }
        show_step(rp, view, &t);
    }
    free(line);
    cr_text_free(&t);
    cr_replay_free(rp);
    return 0;
}

int cmd_replay(int argc, char **argv)
{
    const char *path = NULL;
    int json = 0, log = 0, step = 0, plain = 0, ascii = 0, view = CR_SEAT_PUBLIC;
    const char *as_s = NULL, *iters_s = NULL, *coach_s = NULL;
    cr_params overrides = {0};
    for (int i = 1; i < argc; i++) {
        int m;
        if ((m = cli_table_opt(argc, argv, &i, &overrides)) != 0) {
            if (m < 0) return 2;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[i], "--log") == 0) {
            log = 1;
        } else if (strcmp(argv[i], "--step") == 0) {
            step = 1;
        } else if (strcmp(argv[i], "--plain") == 0) {
            plain = 1;
        } else if (strcmp(argv[i], "--ascii") == 0) {
            ascii = 1;
        } else if ((m = cli_opt(argc, argv, &i, "--as", &as_s)) != 0 ||
                   (m = cli_opt(argc, argv, &i, "--analyse-iters", &iters_s)) != 0 ||
                   (m = cli_opt(argc, argv, &i, "--analyse", &coach_s)) != 0) {
            if (m < 0) return 2;
        } else if ((m = cli_positional(argv[0], argv[i], &path)) != 0) {
            return m;
        }
    }
    if (path == NULL) return cli_usage_error(argv[0], "which record file?");
    if (json + log + step > 1)
        return cli_usage_error(argv[0], "--json, --log and --step exclude each other");
    if (as_s != NULL && !parse_view(as_s, &view))
        return cli_usage_error(argv[0], "bad --as '%s': expected a seat (0, P1...), public or open",
                               as_s);
    /* --json without --as: the open view, the whole position, as it always
     * printed (a record file holds every card anyway); --log and the stepper
     * default to the public view. */
    if (json && as_s == NULL) view = CR_SEAT_OMNISCIENT;
    long analyse_iters = 300;
    if (iters_s && !cli_parse_int(iters_s, 10, 10000000, &analyse_iters))
        return cli_usage_error(argv[0], "bad --analyse-iters '%s': expected 10 to 10000000",
                               iters_s);
    long coach_seat = -1;
    if (coach_s != NULL) {
        const char *sp = (coach_s[0] == 'P' || coach_s[0] == 'p') ? coach_s + 1 : coach_s;
        if (!log)
            return cli_usage_error(argv[0], "--analyse SEAT goes with --log (the full-screen "
                                            "viewer's coach is the key c)");
        if (!cli_parse_int(sp, 0, CR_MAX_PLAYERS - 1, &coach_seat))
            return cli_usage_error(argv[0], "bad --analyse '%s': expected a seat (0, P1, ...)",
                                   coach_s);
        /* the coach names the seat's moves and its best alternatives, which
         * may be cards of its hand: only in its view or the open one */
        if (view != coach_seat && view != CR_SEAT_OMNISCIENT)
            return cli_usage_error(argv[0],
                                   "--analyse P%ld shows P%ld's moves and options: with --as %ld "
                                   "or --as open",
                                   coach_seat, coach_seat, coach_seat);
    }
    /* On a terminal with --plain, replay steps through the game in line mode. */
    if (plain && !json && !log && isatty(fileno(stdin)) && isatty(fileno(stdout))) step = 1;

    char err[512];
    cr_match *m = cli_load_record(path, &overrides);
    if (m == NULL) return 1;

    /* In a terminal: the full-screen step-by-step viewer (src/tui), in the
     * public view unless --as says otherwise; the line stepper when ncurses
     * cannot drive the terminal. */
    if (!json && !log && !step && !plain && isatty(fileno(stdin)) && isatty(fileno(stdout))) {
        int tview = as_s != NULL ? view : CR_SEAT_PUBLIC;
        if (tview >= cr_match_game(m)->num_players) {
            int np = cr_match_game(m)->num_players;
            cr_match_free(m);
            return cli_usage_error(argv[0], "no seat P%d in a game of %d players", tview, np);
        }
        tui_options o = {.ascii = ascii, .analyse_iters = analyse_iters};
        int r = tui_replay(m, tview, &o, err, sizeof err);
        if (r != TUI_NO_TERM) {
            cr_match_free(m);
            return r == TUI_FAILED ? cli_error("%s", err) : 0;
        }
        cli_say(stderr, "croupier: %s: line mode", err);
        step = 1;
    }

    int rc = 0;
    cr_text b = {0};
    const cr_game *g = cr_match_game(m);
    const void *st = cr_match_state(m);
    const cr_record *r = cr_match_record(m);
    if (view >= g->num_players) {
        rc = cli_usage_error(argv[0], "no seat P%d in a game of %d players", view, g->num_players);
    } else if (json) {
        rc = print_json(m, view, &b);
    } else if (log) {
        if (coach_seat >= g->num_players)
            rc = cli_usage_error(argv[0], "no seat P%ld in a game of %d players", coach_seat,
                                 g->num_players);
        else
            rc = print_log(m, view, (int)coach_seat, analyse_iters);
    } else if (step) {
        rc = step_through(m, view);
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
        cli_print_json(stdout, cr_text_str(&b), strlen(cr_text_str(&b)));
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
    cr_text_free(&b);
    cr_match_free(m);
    return rc;
}
