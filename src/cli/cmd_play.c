/* cmd_play.c — `croupier play`: a line-oriented game at the terminal.
 *
 * The loop asks the game who acts.  Chance nodes are sampled with a PCG32
 * seeded from --seed (stream 0); a bot seat (any spec of croupier/bot.h:
 * random, heuristic, ismcts:...) chooses from its own observation with a
 * generator seeded from --seed and the seat; a human seat gets its
 * observation, the decision and the numbered legal actions, and answers
 * with a number or the notation.
 * Every applied action is pushed onto a cr_record, which --save writes
 * as the game starts (so a path that cannot be written fails before any
 * action), after each human decision and at the end, so a stopped game can
 * be resumed with --load.
 *
 * Typed answers are user text: a line holding a NUL byte is refused (C
 * strings would cut it there), and every message that echoes an answer goes
 * through cli_say(), which shows control characters escaped.
 *
 * Hidden information: the text of an action is printed only to the seat
 * that chose it (a random seat's face-down offer must not show); everything
 * else reaches a human through the events, rendered as that seat may know
 * them.  With no human at the table the log is omniscient.
 *
 * Seats: seats_parse() reads the seat list with the simulator's grammar
 * (cr_sim_split_specs: "human,heuristic,ismcts:iters=500,threads=2,random"),
 * seats_make_bots() turns each spec into a bot, seat_choose() asks it. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_util.h"
#include "commands.h"
#include "croupier/alloc.h"
#include "croupier/bot.h"
#include "croupier/record.h"
#include "croupier/sim.h"

enum { EVENT_CAP = 4096 };

typedef struct seat {
    int human;
    char spec[128]; /* "human" or a bot spec */
    cr_bot *bot;    /* bot seats, once the game exists */
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
        seats[i].bot = NULL;
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

/* Creates the bots of the non-human seats; each bot's generator is seeded
 * from the game's seed and its seat, so a seed replays the bots too. */
static int seats_make_bots(seat *seats, const cr_game *g, uint64_t seed)
{
    char err[256];
    for (int s = 0; s < g->num_players; s++) {
        if (seats[s].human) continue;
        uint64_t bot_seed = seed * 0x9E3779B97F4A7C15ull + 1 + (uint64_t)s;
        seats[s].bot = cr_bot_new(g, seats[s].spec, s, bot_seed, err, sizeof err);
        if (seats[s].bot == NULL) return cli_error("seat P%d (%s): %s", s, seats[s].spec, err);
    }
    return 0;
}

/* A bot seat's choice among legal[0..n), from its seat's observation only. */
static cr_action seat_choose(seat *s, const cr_game *g, const void *st, void *obs, int who,
                             const cr_action *legal, int n)
{
    if (cr_bot_wants_obs(s->bot)) {
        g->def->observe(g, st, who, obs);
        return cr_bot_act(s->bot, obs, legal, n);
    }
    return cr_bot_act(s->bot, NULL, legal, n);
}

typedef struct table {
    cr_game *g;
    void *st, *obs;
    seat seats[CR_MAX_PLAYERS];
    int n_humans, the_human; /* the_human: the only human seat, if n_humans == 1 */
    cr_rng chance;
    cr_record rec;
    cr_events ev;
    cr_action *legal;
    const char *save_path;
    cli_buf text, aux;
} table;

static int save(table *t, int quiet)
{
    if (t->save_path == NULL) return 0;
    char tmp[4200], err[256];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", t->save_path) >= (int)sizeof tmp)
        return cli_error("save file name too long");
    FILE *f = fopen(tmp, "w");
    if (f == NULL) return cli_error("cannot save to %s: cannot create %s", t->save_path, tmp);
    cr_status rc = cr_record_write(&t->rec, f, err, sizeof err);
    if (fclose(f) != 0 && rc == CR_OK) {
        rc = CR_ERR_IO;
        snprintf(err, sizeof err, "write failed");
    }
    if (rc != CR_OK) {
        remove(tmp);
        return cli_error("cannot save to %s: %s", t->save_path, err);
    }
    if (rename(tmp, t->save_path) != 0) {
        remove(tmp);
        return cli_error("cannot save to %s: rename failed", t->save_path);
    }
    if (!quiet) cli_say(stdout, "game saved to %s (%d actions)", t->save_path, t->rec.n_actions);
    return 0;
}

/* Events of the last apply, to whoever may read them. */
static void show_events(table *t)
{
    if (t->n_humans == 0) {
        cli_print_events(stdout, t->g, &t->ev, -1, "  ", &t->text);
    } else if (t->n_humans == 1) {
        cli_print_events(stdout, t->g, &t->ev, t->the_human, "  ", &t->text);
    } else {
        /* Hot seat: each human's view, labelled. */
        int len = t->ev.len, dropped = t->ev.dropped;
        for (int s = 0; s < t->g->num_players; s++) {
            if (!t->seats[s].human) continue;
            char prefix[24];
            snprintf(prefix, sizeof prefix, "  P%d| ", s);
            t->ev.len = len;
            t->ev.dropped = dropped;
            cli_print_events(stdout, t->g, &t->ev, s, prefix, &t->text);
        }
    }
    t->ev.len = t->ev.dropped = 0;
}

static int apply(table *t, cr_action a)
{
    if (cr_apply_checked(t->g, t->st, a, &t->ev) != CR_OK)
        return cli_error("internal: action %d is not legal", (int)a);
    if (cr_record_push(&t->rec, a) != CR_OK) return cli_error("out of memory");
    show_events(t);
    return 0;
}

static void show_choices(table *t, int who, int n)
{
    const cr_game *g = t->g;
    const char *view = "";
    if (t->obs != NULL && g->def->observe && g->def->obs_to_text) {
        g->def->observe(g, t->st, who, t->obs);
        view = cli_obs_text(g, t->obs, &t->text);
        printf("%s", view);
        if (view[0] && view[strlen(view) - 1] != '\n') putchar('\n');
    }
    /* The decision, unless the view already ends with it. */
    const char *prompt = cli_prompt_text(g, t->st, &t->aux);
    if (prompt[0] && strstr(view, prompt) == NULL) printf("%s\n", prompt);
    int col = 0;
    for (int i = 0; i < n; i++) {
        char item[160];
        int len = snprintf(item, sizeof item, "%3d. %s", i + 1,
                           cli_action_text(g, t->st, t->legal[i], &t->aux));
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

/* Asks human seat `who` for an action: 1 chosen (*out), 0 stop (quit or end
 * of input). */
static int ask(table *t, int who, int n, cr_action *out, char **line, size_t *cap)
{
    const cr_game *g = t->g;
    show_choices(t, who, n);
    for (;;) {
        printf("P%d> ", who);
        fflush(stdout);
        int got = read_line(line, cap);
        if (got == 0) {
            printf("\nend of input: the game stops here.\n");
            return 0;
        }
        if (got < 0) continue;
        char *s = *line;
        if (!isatty(fileno(stdin))) /* piped answers: show them in the transcript */
            cli_say(stdout, "%s", s);
        if (s[0] == '\0') continue;
        if (strcmp(s, "quit") == 0 || strcmp(s, "q") == 0 || strcmp(s, "exit") == 0) {
            printf("the game stops here.\n");
            return 0;
        }
        if (strcmp(s, "list") == 0 || strcmp(s, "?") == 0 || strcmp(s, "help") == 0) {
            show_choices(t, who, n);
            printf("(answer with a number from 1 to %d or an action's notation; 'quit' stops)\n",
                   n);
            continue;
        }
        long k;
        if (isdigit((unsigned char)s[0]) && strspn(s, "0123456789") == strlen(s)) {
            if (!cli_parse_int(s, 1, n, &k)) {
                cli_say(stdout,
                        "no choice %s: answer with a number from 1 to %d or an action's "
                        "notation",
                        s, n);
                continue;
            }
            *out = t->legal[k - 1];
            return 1;
        }
        cr_action a = -1;
        if (g->def->str_to_action(g, t->st, s, &a) != CR_OK) {
            cli_say(stdout,
                    "unknown action '%s': answer with a number from 1 to %d or an action's "
                    "notation ('list' shows them)",
                    s, n);
            continue;
        }
        int legal = 0;
        for (int i = 0; i < n && !legal; i++) legal = t->legal[i] == a;
        if (!legal) {
            cli_say(stdout, "'%s' is not legal now: %s ('list' shows the legal actions)", s,
                    cli_prompt_text(g, t->st, &t->text));
            continue;
        }
        *out = a;
        return 1;
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

static int play_loop(table *t)
{
    const cr_game *g = t->g;
    char *line = NULL;
    size_t cap = 0;
    int rc = 0, stopped = 0;
    for (;;) {
        int who = cr_current_player(g, t->st);
        if (who == CR_TERMINAL) break;
        cr_action a;
        if (who == CR_CHANCE) {
            a = cr_sample_chance(g, t->st, &t->chance);
        } else if (who < 0 || who >= g->num_players) {
            rc = cli_error("internal: the game named seat %d to act", who);
            break;
        } else {
            int n = g->def->legal_actions(g, t->st, t->legal);
            if (n <= 0) {
                rc = cli_error("internal: seat P%d has no legal action", who);
                break;
            }
            seat *s = &t->seats[who];
            if (s->human) {
                if ((rc = save(t, 1)) != 0) break;
                if (!ask(t, who, n, &a, &line, &cap)) {
                    stopped = 1;
                    break;
                }
                printf("P%d: %s\n", who, cli_action_text(g, t->st, a, &t->aux));
            } else {
                a = seat_choose(s, g, t->st, t->obs, who, t->legal, n);
                if (t->n_humans == 0)
                    printf("P%d (%s): %s\n", who, s->spec, cli_action_text(g, t->st, a, &t->aux));
            }
        }
        if ((rc = apply(t, a)) != 0) break;
    }
    free(line);
    if (rc != 0) {
        save(t, 0);
        return rc;
    }
    if (!stopped) {
        printf("\ngame over after %d actions.\n", t->rec.n_actions);
        cli_print_result(stdout, g, t->st);
    } else if (t->save_path != NULL) {
        cli_say(stdout, "resume with: croupier play --load %s", t->save_path);
    }
    return save(t, 0);
}

int cmd_play(int argc, char **argv)
{
    const char *game = NULL, *seats_spec = NULL, *variant = NULL, *seed_s = NULL;
    const char *first_s = NULL, *save_path = NULL, *load_path = NULL;
    for (int i = 1; i < argc; i++) {
        const char *v;
        int m;
        if ((m = cli_opt(argc, argv, &i, "--seats", &v)) != 0)
            seats_spec = v;
        else if ((m = cli_opt(argc, argv, &i, "--variant", &v)) != 0)
            variant = v;
        else if ((m = cli_opt(argc, argv, &i, "--seed", &v)) != 0)
            seed_s = v;
        else if ((m = cli_opt(argc, argv, &i, "--first-roller", &v)) != 0)
            first_s = v;
        else if ((m = cli_opt(argc, argv, &i, "--save", &v)) != 0)
            save_path = v;
        else if ((m = cli_opt(argc, argv, &i, "--load", &v)) != 0)
            load_path = v;
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

    table t;
    memset(&t, 0, sizeof t);
    t.save_path = save_path;
    uint64_t seed;
    if (seed_s != NULL) {
        if (!cli_parse_u64(seed_s, &seed))
            return cli_usage_error(argv[0], "bad --seed '%s': expected an unsigned integer",
                                   seed_s);
    } else {
        seed = clock_seed();
    }
    long first = 0;
    if (first_s != NULL && !cli_parse_int(first_s, 0, CR_MAX_PLAYERS - 1, &first))
        return cli_usage_error(argv[0], "bad --first-roller '%s': expected a seat number", first_s);

    int n_seats = 0;
    if (seats_spec != NULL && (n_seats = seats_parse(seats_spec, t.seats, CR_MAX_PLAYERS)) < 0)
        return 2;

    char err[512];
    cr_record_init(&t.rec);
    if (load_path != NULL) {
        if (variant != NULL || first_s != NULL)
            return cli_usage_error(argv[0], "--variant and --first-roller come from the record "
                                            "with --load");
        size_t len;
        char *text = cli_read_file(load_path, &len, err, sizeof err);
        if (text == NULL) return cli_error("%s", err);
        cr_status s = cr_record_load(text, len, &t.rec, &t.g, &t.st, err, sizeof err);
        free(text);
        if (s != CR_OK) return cli_error("%s: %s", load_path, err);
        if (game != NULL && strcmp(game, t.rec.game) != 0) {
            int rc = cli_error("%s records a game of %s, not %s", load_path, t.rec.game, game);
            cr_free(t.st);
            cr_game_free(t.g);
            cr_record_fini(&t.rec);
            return rc;
        }
        if (!t.rec.has_seed) {
            t.rec.seed = seed;
            t.rec.has_seed = 1;
        }
        cli_say(stdout, "resuming %s: %s %s, %d players, %d actions so far", load_path, t.rec.game,
                t.rec.variant, t.g->num_players, t.rec.n_actions);
    } else {
        const cr_game_def *def = cli_find_game(game);
        if (def == NULL) return 1;
        if (n_seats == 0)
            n_seats = seats_parse("human,random,random,random", t.seats, CR_MAX_PLAYERS);
        cr_params p = {.num_players = n_seats, .variant = variant, .first_roller = (int)first};
        t.g = cr_game_new(def, &p, err, sizeof err);
        if (t.g == NULL) return cli_error("%s", err);
        t.st = cr_alloc(t.g->state_size);
        if (t.st == NULL) {
            cr_game_free(t.g);
            return cli_error("out of memory");
        }
        t.g->def->init(t.g, t.st);
        snprintf(t.rec.game, sizeof t.rec.game, "%s", def->name);
        snprintf(t.rec.variant, sizeof t.rec.variant, "%s", t.g->variant->name);
        t.rec.num_players = t.g->num_players;
        t.rec.first_roller = t.g->params.first_roller;
        t.rec.seed = seed;
        t.rec.has_seed = 1;
    }

    int rc = 0;
    const cr_game *g = t.g;
    if (n_seats == 0) { /* --load without --seats: seat 0 human, the rest random */
        for (int s = 0; s < g->num_players; s++) {
            t.seats[s].human = s == 0;
            snprintf(t.seats[s].spec, sizeof t.seats[s].spec, "%s", s == 0 ? "human" : "random");
        }
        n_seats = g->num_players;
    }
    if (n_seats != g->num_players) {
        rc = cli_usage_error(argv[0], "%d seats given for a game of %d players", n_seats,
                             g->num_players);
        goto out;
    }
    cr_rng_seed(&t.chance, seed, 0);
    if ((rc = seats_make_bots(t.seats, g, seed)) != 0) goto out;
    for (int s = 0; s < g->num_players; s++) {
        if (t.seats[s].human) {
            t.n_humans++;
            t.the_human = s;
        }
    }
    t.legal = cr_alloc((size_t)g->max_legal * sizeof *t.legal);
    t.ev.buf = cr_alloc(EVENT_CAP * sizeof *t.ev.buf);
    t.ev.cap = EVENT_CAP;
    t.obs = g->obs_size ? cr_alloc(g->obs_size) : NULL;
    if (t.legal == NULL || t.ev.buf == NULL || (g->obs_size && t.obs == NULL)) {
        rc = cli_error("out of memory");
        goto out;
    }

    printf("%s (%s), %d players:", g->def->title ? g->def->title : g->def->name, g->variant->name,
           g->num_players);
    for (int s = 0; s < g->num_players; s++)
        printf(" P%d %s%s", s, t.seats[s].spec, s + 1 < g->num_players ? "," : "");
    printf("\nseed %" PRIu64 " (the same seed replays the same dice, draws and bots)\n", seed);
    /* --save is written now, before any action, so a path that cannot be
     * written fails at once instead of after a whole game. */
    if ((rc = save(&t, 1)) != 0) goto out;
    rc = play_loop(&t);

out:
    for (int s = 0; s < CR_MAX_PLAYERS; s++) cr_bot_free(t.seats[s].bot);
    cli_buf_fini(&t.text);
    cli_buf_fini(&t.aux);
    cr_free(t.legal);
    cr_free(t.ev.buf);
    cr_free(t.obs);
    cr_free(t.st);
    cr_game_free(t.g);
    cr_record_fini(&t.rec);
    return rc;
}
