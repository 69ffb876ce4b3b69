/* cmd_play.c — `croupier play`: a line-oriented game at the terminal.
 *
 * The game is a match (croupier/match.h): it owns the state, the record,
 * the seats and the dice.  Chance node k is drawn from (seed, k) and a bot
 * seat's decisions from (seed, seat, k), so a game is its seed and its
 * seats' choices, and --load resumes it exactly.  play_loop() lets the
 * match step the bots and chance (cr_match_step); for a human seat it
 * prints that seat's observation, the decision and the numbered legal
 * actions (show_choices) and reads an answer (ask): a number, the
 * notation, or a command (list, help, guide, hint, undo, resign, quit).
 * --save writes the record when the game starts (so a path that cannot be
 * written fails before any action), after each human decision and at the
 * end; a resumed game (--load FILE) saves back to FILE unless --save names
 * another file.
 *
 * Typed answers are user text: a line holding a NUL byte is refused (C
 * strings would cut it there), and every message that echoes an answer goes
 * through cli_say(), which shows control characters escaped.
 *
 * Hidden information: the text of an action is printed only to the seat
 * that chose it (a random seat's face-down offer must not show); everything
 * else reaches a human through the events, rendered as that seat may know
 * them and summarised by the screen's session (croupier/session.h): before
 * each decision "since your last turn" in that seat's view, after it the
 * decision's own events.  With two or more humans the screen is cleared and
 * handed over before each one's view (hand_over).  With no human at the
 * table the log is omniscient, one summary per seat's run of moves.  Undo
 * follows the match's one rule (cr_session_undo).
 *
 * In a terminal (stdin and stdout both ttys, no --plain) the game is
 * played in the full-screen client instead (src/tui, tui_play); the table,
 * seats, record and the end are the same.
 *
 * Seats: seats_parse() reads the seat list with the lab's grammar
 * (cr_sim_split_specs: "human,club,ismcts:iters=500,threads=2,random"); a
 * seat is "human", a bot spec or a tier's name (croupier/bot.h), and the
 * match makes the bots. */
#include <ctype.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_util.h"
#include "commands.h"
#include "croupier/session.h"
#include "croupier/alloc.h"
#include "croupier/analysis.h"
#include "croupier/bot.h"
#include "croupier/match.h"
#include "croupier/parts.h"
#include "croupier/record.h"
#include "croupier/sim.h"
#include "tui/tui.h"

typedef struct seat {
    int human;
    char spec[128]; /* "human" or a bot spec */
} seat;

/* Parses the seat list into seats[]; returns the count or -1 (error printed). */
static int seats_parse(const char *list, seat *seats, int max)
{
    char buf[1024], err[256];
    char *spec[CR_MAX_PLAYERS + 1];
    int n = cr_sim_split_specs(list, buf, sizeof buf, spec, max + 1);
    if (n < 0 || n > max) {
        cli_usage_error("play", "too many seats in '%s' (at most %d)", list, max);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        seats[i].human = strcmp(spec[i], "human") == 0;
        if (!seats[i].human && !cr_bot_spec_valid(spec[i], err, sizeof err)) {
            cli_usage_error("play",
                            "seat P%d: %s (seats are human or a bot: random, heuristic, "
                            "ismcts:iters=N)",
                            i, err);
            return -1;
        }
        snprintf(seats[i].spec, sizeof seats[i].spec, "%s", spec[i]);
    }
    return n;
}

typedef struct table {
    cr_match *m;
    const cr_game *g;
    void *obs;
    cr_session ses; /* what each seat has been shown; the hand-over between humans */
    cr_action *legal;
    const char *save_path;
    cr_text text, aux;
    cr_text out;
} table;

/* Prints and empties t->out. */
static void flush_out(table *t)
{
    if (t->out.len > 0) fputs(t->out.p, stdout);
    if (t->out.oom) printf("(out of memory: some lines are missing)\n");
    cr_text_free(&t->out);
}

static int save(table *t, int quiet)
{
    if (t->save_path == NULL) return 0;
    char err[256];
    if (cr_match_save_file(t->m, t->save_path, err, sizeof err) != CR_OK)
        return cli_error("cannot save to %s: %s", t->save_path, err);
    if (!quiet)
        cli_say(stdout, "game saved to %s (%d actions)", t->save_path,
                cr_match_record(t->m)->n_actions);
    return 0;
}

/* The words the prompt takes as commands before any action's notation. */
static int is_command(const char *s)
{
    static const char *const words[] = {"quit",  "q",      "exit", "list", "?",    "help",
                                        "guide", "resign", "undo", "hint", "sheet"};
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (strcmp(s, words[k]) == 0) return 1;
    return 0;
}

/* The game's spreadsheet (parts.h, "Annals") as `who` sees the table now,
 * in plain text: panel titles as "== TITLE", styles dropped. */
static void show_sheet(table *t, int who)
{
    const cr_game_parts *parts = cr_parts(t->g);
    void *annals = parts->sheet ? cr_match_annals(t->m, cr_match_event_count(t->m)) : NULL;
    void *obs = annals ? cr_alloc(t->g->obs_size ? t->g->obs_size : 1) : NULL;
    size_t len = 0;
    char *text = NULL;
    if (obs) {
        cr_match_observe(t->m, who, obs);
        len = parts->sheet(t->g, obs, annals, 0, NULL, 0);
        text = cr_alloc(len + 1);
    }
    if (text == NULL) {
        printf("%s\n", parts->sheet ? "out of memory" : "this game has no spreadsheet");
    } else {
        parts->sheet(t->g, obs, annals, 0, text, len + 1);
        int line_start = 1;
        for (size_t i = 0; i < len; i++) {
            if (text[i] == CR_PANEL_STYLE) {
                i++;
                continue;
            }
            if (text[i] == CR_PANEL_TITLE && line_start) {
                fputs("== ", stdout);
                continue;
            }
            putchar(text[i]);
            line_start = text[i] == '\n';
        }
    }
    cr_free(text);
    cr_free(obs);
    cr_free(annals);
}

/* An action's label in words (its JSON "label") with "(type N)": for an
 * action whose notation is a command word, which typed would be the
 * command (a game's Withdraw may be written `undo`).  Left as it was without a label. */
static void action_label(table *t, int who, int i, char *out, size_t cap)
{
    char buf[1024];
    size_t len = cr_match_action_json(t->m, who, t->legal[i], buf, sizeof buf);
    json_t *o = len > 0 && len < sizeof buf ? json_loadb(buf, len, 0, NULL) : NULL;
    const char *label = json_string_value(json_object_get(o, "label"));
    if (label) snprintf(out, cap, "%s (type %d)", label, i + 1);
    json_decref(o);
}

static void show_choices(table *t, int who, int n)
{
    const cr_game *g = t->g;
    const char *view = "";
    if (t->obs != NULL && g->def->obs_to_text) {
        cr_match_observe(t->m, who, t->obs);
        view = cli_obs_text(g, t->obs, &t->text);
        printf("%s", view);
        if (view[0] && view[strlen(view) - 1] != '\n') putchar('\n');
    }
    /* The decision, unless the view already ends with it. */
    char prompt[512];
    cr_match_prompt(t->m, who, prompt, sizeof prompt);
    if (prompt[0] && strstr(view, prompt) == NULL) printf("%s\n", prompt);
    int col = 0;
    for (int i = 0; i < n; i++) {
        char item[300], label[200];
        cr_match_action_text(t->m, who, t->legal[i], label, sizeof label);
        if (is_command(label)) /* typed, it would be the command: name it in words */
            action_label(t, who, i, label, sizeof label);
        int len = snprintf(item, sizeof item, "%3d. %s", i + 1, label);
        if (len < 0) len = 0;
        int width = len < 24 ? 24 : len + 2;
        if (col > 0 && col + width > 96) {
            putchar('\n');
            col = 0;
        }
        printf("%-*s", width, item);
        col += width;
    }
    putchar('\n');
}

/* Reads one line; 0 on end of input, -1 (after a message) for a line that
 * holds a NUL byte, which C strings would silently cut there (`1\0junk`
 * read as `1`).  Surrounding blanks removed. */
static int read_line(char **line, size_t *cap)
{
    ssize_t got = getline(line, cap, stdin);
    if (got < 0) return 0;
    char *s = *line, *e = s + got;
    const char *nul = memchr(s, '\0', (size_t)got);
    if (nul != NULL) {
        printf("\nthat line holds a NUL byte (at column %zu): ignored, type the answer again\n",
               (size_t)(nul - s) + 1);
        return -1;
    }
    while (e > s && isspace((unsigned char)e[-1])) *--e = '\0';
    size_t skip = strspn(s, " \t");
    memmove(s, s + skip, strlen(s + skip) + 1);
    return 1;
}

enum { ASK_MOVED = 1, ASK_STOP = 0, ASK_UNDONE = 2 };

/* Asks human seat `who` for an action and submits it: ASK_MOVED, ASK_UNDONE
 * (the seat took back its previous decision) or ASK_STOP (quit, end of input). */
static int ask(table *t, int who, int n, char **line, size_t *cap)
{
    show_choices(t, who, n);
    for (;;) {
        printf("P%d> ", who);
        fflush(stdout);
        int got = read_line(line, cap);
        if (got == 0) {
            printf("\nend of input: the game stops here.\n");
            return ASK_STOP;
        }
        if (got < 0) continue;
        char *s = *line, err[512];
        if (!isatty(fileno(stdin))) /* piped answers: show them in the transcript */
            cli_say(stdout, "%s", s);
        if (s[0] == '\0') continue;
        if (strcmp(s, "quit") == 0 || strcmp(s, "q") == 0 || strcmp(s, "exit") == 0) {
            printf("the game stops here.\n");
            return ASK_STOP;
        }
        if (strcmp(s, "list") == 0 || strcmp(s, "?") == 0) {
            show_choices(t, who, n);
            printf(
                "(answer with a number from 1 to %d or an action's notation; 'undo' takes back "
                "your last decision, 'help' explains this one, 'hint' shows what a bot would play, "
                "'sheet' the spreadsheet (18XX games), 'resign' gives up, 'quit' stops)\n",
                n);
            continue;
        }
        if (strcmp(s, "help") == 0) {
            char help[4096];
            if (cr_match_help(t->m, who, help, sizeof help) > 0) printf("%s\n", help);
            printf("(answer with a number from 1 to %d or an action's notation; 'list' shows the "
                   "choices, 'guide' the player's guide, 'undo' takes back your last decision, "
                   "'quit' stops)\n",
                   n);
            continue;
        }
        if (strcmp(s, "hint") == 0 || strncmp(s, "hint ", 5) == 0) {
            /* what a tier would play here (croupier/analysis.h) */
            const char *tier = s[4] ? s + 5 : NULL;
            char hint[512];
            if (cr_match_hint(t->m, who, tier, hint, sizeof hint, err, sizeof err) == CR_OK)
                printf("%s\n", hint);
            else
                cli_say(stdout, "no hint: %s", err);
            continue;
        }
        if (strcmp(s, "sheet") == 0) { /* 18XX games: shares, cash, the operating rounds */
            show_sheet(t, who);
            continue;
        }
        if (strcmp(s, "guide") == 0) { /* the rules in short and the glossary (cmd_guide.c) */
            cli_show_guide(t->g->def, 0);
            continue;
        }
        if (strcmp(s, "resign") == 0) {
            if (cr_match_resign(t->m, who, NULL, err, sizeof err) != CR_OK) {
                cli_say(stdout, "cannot resign: %s", err);
                continue;
            }
            printf("P%d resigns.\n", who);
            return ASK_MOVED;
        }
        if (strcmp(s, "undo") == 0) {
            int before = cr_match_record(t->m)->n_actions;
            if (cr_session_undo(&t->ses, who, err, sizeof err) != CR_OK) {
                cli_say(stdout, "cannot undo: %s", err);
                continue;
            }
            int after = cr_match_record(t->m)->n_actions;
            printf("P%d takes back the last decision (%d action%s taken back, the moves since "
                   "included): %d actions remain.\n",
                   who, before - after, before - after == 1 ? "" : "s", after);
            return ASK_UNDONE;
        }
        long k;
        cr_action a;
        if (isdigit((unsigned char)s[0]) && strspn(s, "0123456789") == strlen(s)) {
            if (!cli_parse_int(s, 1, n, &k)) {
                cli_say(stdout,
                        "no choice %s: answer with a number from 1 to %d or an action's "
                        "notation",
                        s, n);
                continue;
            }
            a = t->legal[k - 1];
            printf("P%d: %s\n", who, cli_action_text(t->g, cr_match_state(t->m), a, &t->aux));
            if (cr_match_submit_action(t->m, who, a, err, sizeof err) != CR_OK) {
                cli_say(stdout, "%s", err);
                continue;
            }
            return ASK_MOVED;
        }
        if (cr_match_submit(t->m, who, s, err, sizeof err) != CR_OK) {
            cli_say(stdout, "%s ('list' shows the legal actions)", err);
            continue;
        }
        cli_say(stdout, "P%d: %s", who, s);
        return ASK_MOVED;
    }
}

static uint64_t clock_seed(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec;
    /* splitmix64 finaliser, trimmed to 9 digits so it is easy to retype */
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    return x % 1000000000u;
}

/* Clears the screen between two humans' views: blank lines enough to push
 * the last view out of a terminal's window, and on a terminal the escape
 * sequences that clear the window and its scrollback too. */
static void clear_screen(void)
{
    for (int i = 0; i < 60; i++) putchar('\n');
    if (isatty(fileno(stdout))) printf("\033[H\033[2J\033[3J");
}

/* The privacy hand-over before human `who` sees the screen (hot seat):
 * 1 to go on, 0 when the players stop (end of input, quit). */
static int hand_over(table *t, int who, char **line, size_t *cap)
{
    char text[160];
    clear_screen();
    cr_session_handover_text(&t->ses, who, text, sizeof text);
    printf("==== %s ====\n", text);
    fflush(stdout);
    for (;;) {
        int got = read_line(line, cap);
        if (got == 0) {
            printf("\nend of input: the game stops here.\n");
            return 0;
        }
        if (got > 0 && (strcmp(*line, "quit") == 0 || strcmp(*line, "q") == 0)) {
            printf("the game stops here.\n");
            return 0;
        }
        if (got > 0) break;
    }
    clear_screen();
    cr_session_take_screen(&t->ses, who);
    return 1;
}
static int play_end(table *t, int stopped);

static int play_loop(table *t)
{
    char *line = NULL;
    size_t cap = 0;
    int rc = 0, stopped = 0;
    int last = CR_TERMINAL; /* with no human: the seat whose moves are being gathered */
    for (;;) {
        int who = cr_match_to_act(t->m);
        if (who == CR_TERMINAL) break;
        if (who == CR_CHANCE || !cr_match_is_human(t->m, who)) {
            /* A table of bots only: one summary per seat's run of moves. */
            if (t->ses.n_humans == 0 && who >= 0 && who != last) {
                cr_session_table_lines(&t->ses, &t->out);
                flush_out(t);
                last = who;
            }
            int i = cr_match_record(t->m)->n_actions;
            if (cr_match_step(t->m) != CR_OK) {
                rc = cli_error("internal: the game cannot go on at action %d", i + 1);
                break;
            }
            continue;
        }
        int n = cr_match_legal(t->m, who, t->legal);
        if (n <= 0) {
            rc = cli_error("internal: seat P%d has no legal action", who);
            break;
        }
        if ((rc = save(t, 1)) != 0) break;
        if (cr_session_needs_handover(&t->ses, who) && !hand_over(t, who, &line, &cap)) {
            stopped = 1;
            break;
        }
        cr_session_take_screen(&t->ses, who);
        cr_session_catch_up(&t->ses, who, &t->out);
        flush_out(t);
        int got = ask(t, who, n, &line, &cap);
        if (got == ASK_STOP) {
            stopped = 1;
            break;
        }
        /* What the decision did, to the seat that made it (it has the screen). */
        uint32_t now = cr_match_event_count(t->m);
        if (got == ASK_MOVED && t->ses.seen[who] < now) {
            cr_session_summarize(t->m, t->ses.seen[who], now, who, t->ses.verbose, "", &t->out);
            t->ses.seen[who] = now;
            flush_out(t);
        }
    }
    /* The rest (the last moves, the end) to the whole table. */
    if (!stopped) {
        cr_session_table_lines(&t->ses, &t->out);
        flush_out(t);
    }
    free(line);
    if (rc != 0) {
        save(t, 0);
        return rc;
    }
    return play_end(t, stopped);
}

/* What line mode prints when a game ends or stops (also after the
 * full-screen client): the result, the seed, how to resume; saves. */
static int play_end(table *t, int stopped)
{
    const cr_game *g = t->g;
    if (!stopped && !cr_is_terminal(g, cr_match_state(t->m))) {
        /* ended by the match: a resignation */
        cr_result res;
        cr_match_result(t->m, &res);
        printf("\nthe game ends after %d actions: ", cr_match_record(t->m)->n_actions);
        for (int s = 0, k = 0; s < g->num_players; s++)
            if (res.winners >> s & 1) printf("%sP%d", k++ ? ", " : "", s);
        printf(" share the win.\nranks:");
        for (int s = 0; s < g->num_players; s++) printf(" P%d %d", s, (int)res.rank[s]);
        printf("\n");
    } else if (!stopped) {
        printf("\ngame over after %d actions.\n", cr_match_record(t->m)->n_actions);
        cli_print_result(stdout, g, cr_match_state(t->m));
    }
    uint64_t seed;
    if (!stopped && cr_match_seed(t->m, &seed) && t->ses.n_humans > 0)
        printf("seed %" PRIu64 " (croupier play --seed %" PRIu64 " deals this game again)\n", seed,
               seed);
    if (stopped && t->save_path != NULL)
        cli_say(stdout, "resume with: croupier play --load %s", t->save_path);
    else if (stopped) /* its seed stays secret: the game did not end */
        printf("the game is not saved.\n");
    return save(t, 0);
}

int cmd_play(int argc, char **argv)
{
    const char *game = NULL, *seats_spec = NULL, *variant = NULL, *seed_s = NULL;
    const char *save_path = NULL, *load_path = NULL, *pace_s = NULL;
    int verbose = 0, plain = 0, ascii = 0, hints = 0;
    cr_params params = {0};
    for (int i = 1; i < argc; i++) {
        const char *v;
        int m;
        if ((m = cli_table_opt(argc, argv, &i, &params)) != 0)
            ;
        else if ((m = cli_opt(argc, argv, &i, "--seats", &v)) != 0)
            seats_spec = v;
        else if ((m = cli_opt(argc, argv, &i, "--variant", &v)) != 0)
            variant = v;
        else if ((m = cli_opt(argc, argv, &i, "--seed", &v)) != 0)
            seed_s = v;
        else if ((m = cli_opt(argc, argv, &i, "--save", &v)) != 0)
            save_path = v;
        else if ((m = cli_opt(argc, argv, &i, "--load", &v)) != 0)
            load_path = v;
        else if (strcmp(argv[i], "--verbose") == 0)
            verbose = 1;
        else if ((m = cli_opt(argc, argv, &i, "--pace", &v)) != 0)
            pace_s = v;
        else if (strcmp(argv[i], "--plain") == 0)
            plain = 1;
        else if (strcmp(argv[i], "--ascii") == 0)
            ascii = 1;
        else if (strcmp(argv[i], "--hints") == 0)
            hints = 1;
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_usage_error(argv[0], "unknown option '%s'", argv[i]);
        else if (game == NULL)
            game = argv[i];
        else
            return cli_usage_error(argv[0], "unexpected argument '%s'", argv[i]);
        if (m < 0) return 2;
    }
    if (game == NULL && load_path == NULL)
        return cli_usage_error(argv[0], "which game? (croupier games lists them)");

    long pace = 400;
    if (pace_s != NULL && !cli_parse_int(pace_s, 0, 10000, &pace))
        return cli_usage_error(argv[0], "bad --pace '%s': milliseconds from 0 to 10000", pace_s);
    /* The full-screen client when both ends are a terminal; line mode for
     * pipes, files and --plain (every scripted use). */
    int full_screen = !plain && isatty(fileno(stdin)) && isatty(fileno(stdout));

    table t;
    memset(&t, 0, sizeof t);
    /* A resumed game saves back to the file it came from unless --save
     * names another: stopping and resuming never loses the moves since. */
    if (save_path == NULL) save_path = load_path;
    t.save_path = save_path;
    uint64_t seed;
    if (seed_s != NULL) {
        if (!cli_parse_u64(seed_s, &seed))
            return cli_usage_error(argv[0], "bad --seed '%s': expected an unsigned integer",
                                   seed_s);
    } else {
        seed = clock_seed();
    }

    seat seats[CR_MAX_PLAYERS];
    memset(seats, 0, sizeof seats);
    int n_seats = 0;
    if (seats_spec != NULL && (n_seats = seats_parse(seats_spec, seats, CR_MAX_PLAYERS)) < 0)
        return 2;

    char err[512];
    if (load_path != NULL) {
        if (variant != NULL || seed_s != NULL)
            return cli_usage_error(argv[0], "--variant and --seed come from the record with "
                                            "--load");
        size_t len;
        char *text = cli_read_file(load_path, &len, err, sizeof err);
        if (text == NULL) return cli_error("%s", err);
        /* Options given with --load replace recorded ones (a board file's new path). */
        t.m = cr_match_load(text, len, &params, seed, err, sizeof err);
        free(text);
        if (t.m == NULL) return cli_error("%s: %s", load_path, err);
        t.g = cr_match_game(t.m);
        if (game != NULL && strcmp(game, t.g->def->name) != 0) {
            int rc = cli_error("%s records a game of %s, not %s", load_path, t.g->def->name, game);
            cr_match_free(t.m);
            return rc;
        }
        if (n_seats != 0 && n_seats != t.g->num_players) {
            int rc = cli_usage_error(argv[0], "%d seats given for a game of %d players", n_seats,
                                     t.g->num_players);
            cr_match_free(t.m);
            return rc;
        }
        /* hints are agreed when the table is made (match.h): --hints may
         * repeat a record's agreement, never add one to a game under way */
        if (hints && !cr_match_hints_agreed(t.m)) {
            int rc = cli_usage_error(argv[0],
                                     "%s was made without --hints: hints are agreed when the "
                                     "table is made, by everyone at it",
                                     load_path);
            cr_match_free(t.m);
            return rc;
        }
        for (int s = 0; s < n_seats; s++) /* --seats with --load: new players take the seats */
            if (strcmp(seats[s].spec, cr_match_seat_spec(t.m, s)) != 0 &&
                cr_match_set_seat(t.m, s, seats[s].spec, err, sizeof err) != CR_OK) {
                cr_match_free(t.m);
                return cli_error("%s", err);
            }
        cli_say(stdout, "resuming %s: %s %s, %d players, %d actions so far; saving to %s",
                load_path, t.g->def->name, t.g->variant->name, t.g->num_players,
                cr_match_record(t.m)->n_actions, save_path);
    } else {
        const cr_game_def *def = cli_find_game(game);
        if (def == NULL) return 1;
        if (n_seats == 0)
            n_seats = seats_parse("human,random,random,random", seats, CR_MAX_PLAYERS);
        params.num_players = n_seats;
        params.variant = variant;
        const char *specs[CR_MAX_PLAYERS];
        for (int s = 0; s < n_seats; s++) specs[s] = seats[s].spec;
        cr_game *probe = cr_game_new(def, &params, err, sizeof err);
        if (probe == NULL) return cli_error("%s", err);
        int np = probe->num_players;
        cr_game_free(probe);
        if (n_seats != np)
            return cli_usage_error(argv[0], "%d seats given for a game of %d players", n_seats, np);
        t.m = cr_match_new(def, &params, specs, seed, err, sizeof err);
        if (t.m == NULL) return cli_error("%s", err);
        t.g = cr_match_game(t.m);
        /* at a hot seat every player is at the creation: --hints is their
         * agreement (before the first action, as cr_match_allow_hints asks) */
        if (hints && cr_match_allow_hints(t.m, err, sizeof err) != CR_OK) {
            cr_match_free(t.m);
            return cli_error("%s", err);
        }
    }

    int rc = 0;
    const cr_game *g = t.g;
    cr_session_init(&t.ses, t.m, verbose);
    t.legal = cr_alloc((size_t)g->max_legal * sizeof *t.legal);
    t.obs = g->obs_size ? cr_alloc(g->obs_size) : NULL;
    if (t.legal == NULL || (g->obs_size && t.obs == NULL)) {
        rc = cli_error("out of memory");
        goto out;
    }

    char line[1400];
    size_t len = (size_t)snprintf(
        line, sizeof line, "%s (%s), %d players:", g->def->title ? g->def->title : g->def->name,
        g->variant->name, g->num_players);
    for (int s = 0; s < g->num_players && len < sizeof line; s++)
        len += (size_t)snprintf(line + len, sizeof line - len, " P%d %s%s", s,
                                cr_match_seat_spec(t.m, s), s + 1 < g->num_players ? "," : "");
    cli_say(stdout, "%s", line); /* seat specs may come from a record: escaped */
    if (t.ses.n_humans > 1)
        printf("%s\n", cr_match_hints_agreed(t.m)
                           ? "hints allowed: every player agreed (--hints)"
                           : "no hints: several humans play and did not agree to them (--hints)");
    /* The seed decides every future die: a secret while humans play (it
     * is shown when the game ends).  A table of bots only may see it. */
    if (load_path == NULL && t.ses.n_humans == 0)
        printf("seed %" PRIu64 " (the same seed replays the same dice, draws and bots)\n", seed);
    /* --save is written now, before any action, so a path that cannot be
     * written fails at once instead of after a whole game. */
    if ((rc = save(&t, 1)) != 0) goto out;
    char saved_to[1024] = ""; /* lives as long as t.save_path may point to it */
    if (full_screen) {
        tui_options o = {.ascii = ascii,
                         .pace_ms = (int)pace,
                         .save_path = save_path,
                         .saved_to = saved_to,
                         .saved_cap = sizeof saved_to};
        char terr[512];
        int r = tui_play(t.m, &o, terr, sizeof terr);
        /* the file the client left the game in (a path given to `s`, or
         * none when its last save failed) is the one to name and resume */
        if (r != TUI_NO_TERM) t.save_path = saved_to[0] ? saved_to : NULL;
        if (r == TUI_NO_TERM) { /* e.g. TERM names no known terminal: line mode */
            cli_say(stderr, "croupier: %s: line mode", terr);
            full_screen = 0;
        } else {
            rc = r == TUI_FAILED ? cli_error("%s", terr) : play_end(&t, r == TUI_STOPPED);
        }
    }
    if (!full_screen) rc = play_loop(&t);

out:
    cr_text_free(&t.text);
    cr_text_free(&t.aux);
    cr_free(t.legal);
    cr_free(t.obs);
    cr_match_free(t.m);
    return rc;
}
