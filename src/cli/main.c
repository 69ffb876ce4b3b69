/* main.c — the `croupier` program: a table of commands (gnubg's
 * `struct command`), a dispatcher and the help texts.  Each command is a
 * function in cmd_<name>.c that uses only the public API in include/.
 *
 *   croupier --help | --version | help [COMMAND]
 *   croupier COMMAND [ARGS...]          (COMMAND --help: its usage) */
#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "commands.h"

#define CR_VERSION "0.1.0"

static const cli_command commands[] = {
    {"games", cmd_games, "list the games and their variants",
     "usage: croupier games\n"
     "\n"
     "Lists every game croupier knows, with its variants and their player counts.\n"},
    {"play", cmd_play, "play a game at the terminal against bots",
     "usage: croupier play GAME [options]\n"
     "       croupier play --load FILE [options]\n"
     "\n"
     "In a terminal the game opens in the full-screen client: the table from your seat,\n"
     "the log since your last turn and a menu of the legal actions (keys below).  With\n"
     "--plain, or when stdin or stdout is not a terminal, it is a line-oriented game: for\n"
     "each decision of a human seat it prints that seat's view, the decision and the legal\n"
     "actions, numbered; answer with a number or the action's notation.  'list' shows them\n"
     "again, 'help' explains the decision, 'guide' shows the player's guide, 'undo' takes\n"
     "back your previous decision (the bots' moves since included; the dice after stay the\n"
     "same), 'quit' (or end of input) stops the game, which is saved first.  Before each\n"
     "decision, 'since your last turn' sums up the others' moves, grouped by seat.  With\n"
     "two or more humans the screen is cleared and handed over before each one's turn,\n"
     "and each sees only what their seat may know.\n"
     "\n"
     "options:\n"
     "  --seats KINDS        comma-separated, one per seat: human or a bot: random,\n"
     "                       heuristic, ismcts:iters=N[,threads=T] (docs/bots.md)\n"
     "                       (default human,random,random,random; the count sets the players)\n"
     "  --variant V          the game's variant (default: the first that seats the players)\n"
     "  --seed N             seed of the dice, draws and bots (default: from the clock,\n"
     "                       printed)\n"
     "  --option KEY=VALUE   a table option ('croupier games' lists each game's, with the\n"
     "                       variant an option belongs to, and those also given as\n"
     "                       --KEY VALUE)\n"
     "  --save FILE          write the game record to FILE as the game starts (a path that\n"
     "                       cannot be written fails at once), after every human decision\n"
     "                       and at the end (also when the game is stopped)\n"
     "  --load FILE          resume the game recorded in FILE, with its seats; it keeps\n"
     "                       saving to FILE unless --save names another file\n"
     "  --hints              with two or more humans: every player agrees to hints ('hint',\n"
     "                       key h), which such a table otherwise refuses; kept in the record\n"
     "                       (a table of one human always has them)\n"
     "  --verbose            line mode: every event on its own line instead of the summaries\n"
     "  --plain              line mode even in a terminal\n"
     "  --ascii              full-screen client: ASCII only (also when the locale is not\n"
     "                       UTF-8)\n"
     "  --pace MS            full-screen client: pause after each bot's move (default 400;\n"
     "                       + and - change it while playing; 0: no pause)\n"
     "\n"
     "keys of the full-screen client:\n"
     "  Up/Down, PgUp/PgDn, Home/End  move in the menu;  Enter  play the highlighted action\n"
     "  1..9 (digits)  highlight action N;  a letter shown in the menu: next action of that kind\n"
     "  ?  explain the decision;  u  undo;  s  save;  l  the whole log;  t  the whole table\n"
     "  + / -  bots slower / faster;  q  quit (asks)\n"},
    {"run", cmd_run, "apply actions to a position and print the result",
     "usage: croupier run GAME --position P.json [--actions A.txt] [--json] [options]\n"
     "\n"
     "Loads a position, applies the actions listed in A.txt (one per line in the game's\n"
     "notation, chance outcomes included, e.g. 'roll 6 6' or 'draw 7S'; blank lines and\n"
     "lines starting with '#' are ignored) and prints the event log, the resulting position\n"
     "(JSON) and, when the game is over, the scores.\n"
     "\n"
     "options:\n"
     "  --position FILE      the position (JSON, see docs/); '-' reads stdin\n"
     "  --actions FILE       the actions to apply (default: none)\n"
     "  --json               print only the resulting position, as JSON\n"
     "  --variant V          the variant (default: the position's \"variant\" key, if any)\n"
     "  --players N          the player count (default: the position's \"players\" key)\n"
     "  --option KEY=VALUE   a table option ('croupier games' lists them; some also as\n"
     "                       --KEY VALUE)\n"},
    {"replay", cmd_replay, "replay a game record: step through it, or print it as a log",
     "usage: croupier replay FILE [--log | --step | --json] [--as SEAT|public|open] [--plain]\n"
     "                      [--analyse SEAT] [--analyse-iters N]\n"
     "\n"
     "Reads a game record (docs/records.md) and checks every action against the rules.\n"
     "In a terminal it opens a viewer that steps through the game move by move:\n"
     "Right/n forwards, Left/p backwards, PgUp/PgDn ten moves, Home/End, v switches\n"
     "between the public view, each seat's view and the open view (all cards), l the\n"
     "whole log, c the coach (a seat's every decision judged by search, as 'croupier\n"
     "analyse' does, with a progress bar Esc stops; then each move of that seat shows its\n"
     "win chance and the best alternative's, ] and [ jump to the next and previous\n"
     "doubtful move or blunder, c again the summary), q quits.\n"
     "--step (or --plain in a terminal) steps in line mode: n (or\n"
     "Enter) next move, p previous, g N go to move N, e the end, q quit.  Otherwise it\n"
     "prints a summary, the final position and the scores.\n"
     "\n"
     "options:\n"
     "  --log                the whole game in words: numbered moves, who did what, the\n"
     "                       chance results, the end\n"
     "  --step               the stepper even when stdin is not a terminal\n"
     "  --as VIEW            the view: public (what every seat knows; the default but\n"
     "                       for --json), a seat (0, P1...: what it saw), or open (every\n"
     "                       card face up; the default of --json)\n"
     "  --plain              no full-screen viewer: the summary (or, in a terminal, --step)\n"
     "  --ascii              full-screen viewer: ASCII only\n"
     "  --analyse SEAT       with --log (and --as SEAT or open): under each of SEAT's\n"
     "                       decisions the coach's line (the move's win chance, the best\n"
     "                       one's, ? or ?\?) and a summary\n"
     "  --analyse-iters N    the coach (c, --analyse): search iterations a decision\n"
     "                       (default 300; the analysis's seed is 1, as 'croupier analyse')\n"
     "  --json               print one JSON object: game, variant, players, options,\n"
     "                       seats, seed (a string: the record's unsigned decimal; null\n"
     "                       before the end), actions, over, to_act, scores, ranks,\n"
     "                       winners, returns, view, and the position (the whole state:\n"
     "                       the default, or --as open) or, with --as SEAT|public, that\n"
     "                       view's observation (the scores then only once it is over)\n"},
    {"guide", cmd_guide, "show a game's player's guide (rules in short, glossary)",
     cmd_guide_usage},
    {"analyse", cmd_analyse, "a coach: evaluate a seat's every decision in a game record",
     cmd_analyse_usage},
#ifdef CR_HAVE_CMD_SIM
    {"sim", cmd_sim, "simulate many games between bots", cmd_sim_usage},
#endif
#ifdef CR_HAVE_CMD_BENCH
    {"bench", cmd_bench, "measure the engine's speed", cmd_bench_usage},
#endif
#ifdef CR_HAVE_CMD_SERVE
    {"serve", cmd_serve, "host games for browsers over HTTP and WebSocket", cmd_serve_usage},
#endif
};
enum { N_COMMANDS = sizeof commands / sizeof commands[0] };

const cli_command *cli_find_command(const char *name)
{
    for (int i = 0; i < N_COMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0) return &commands[i];
    return NULL;
}

static void print_help(FILE *f)
{
    fprintf(f, "usage: croupier COMMAND [ARGS...]\n"
               "\n"
               "croupier is an engine for tabletop games.  Commands:\n");
    for (int i = 0; i < N_COMMANDS; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n"
               "'croupier COMMAND --help' describes a command.  Exit status: 0 on success,\n"
               "1 on failure, 2 on bad usage.\n");
}

static int print_command_help(const cli_command *c)
{
    if (c->usage != NULL)
        fputs(c->usage, stdout);
    else
        printf("usage: croupier %s [ARGS...]\n\n%s.\n", c->name, c->summary);
    return 0;
}

static int is_help(const char *arg) { return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0; }

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_help(stderr);
        return 2;
    }
    const char *name = argv[1];
    if (is_help(name)) {
        print_help(stdout);
        return 0;
    }
    if (strcmp(name, "--version") == 0) {
        printf("croupier %s\n", CR_VERSION);
        return 0;
    }
    if (strcmp(name, "help") == 0) {
        if (argc < 3) {
            print_help(stdout);
            return 0;
        }
        const cli_command *c = cli_find_command(argv[2]);
        if (c == NULL) return cli_usage_error(NULL, "unknown command '%s'", argv[2]);
        return print_command_help(c);
    }
    const cli_command *c = cli_find_command(name);
    if (c == NULL) {
        if (name[0] == '-') return cli_usage_error(NULL, "unknown option '%s'", name);
        return cli_usage_error(NULL, "unknown command '%s'", name);
    }
    for (int i = 2; i < argc; i++)
        if (is_help(argv[i])) return print_command_help(c);
    return c->handler(argc - 1, argv + 1);
}
