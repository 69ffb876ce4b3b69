/* commands.h — the command table of the `croupier` program (after gnubg's
 * `struct command` + commands.inc).  main.c holds the table and dispatches;
 * each command lives in cmd_<name>.c and is a client of include/croupier/
 * only.
 *
 * A handler receives the command's arguments with argv[0] = the command
 * name, and returns the process exit status: 0 success, 1 failure (after
 * printing one line "croupier: error: ..." on stderr, see cli_error), 2 bad
 * usage.  `--help`/`-h` anywhere on the line is handled by main.c before the
 * handler runs, so handlers never see it. */
#ifndef CROUPIER_CLI_COMMANDS_H
#define CROUPIER_CLI_COMMANDS_H

#include "croupier/game.h"

typedef struct cli_command {
    const char *name;                      /* what the user types */
    int (*handler)(int argc, char **argv); /* argv[0] is the command name */
    const char *summary;                   /* one line for `croupier --help` */
    const char *usage;                     /* synopsis and options for `croupier NAME --help` */
} cli_command;

int cmd_games(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_sim(int argc, char **argv);     /* cmd_sim.c: joins the table when the file exists */
int cmd_bench(int argc, char **argv);   /* cmd_bench.c: likewise */
int cmd_guide(int argc, char **argv);   /* cmd_guide.c */
int cmd_analyse(int argc, char **argv); /* cmd_analyse.c: the coach */
extern const char cmd_analyse_usage[];
extern const char cmd_guide_usage[];
/* Shows def's player's guide (cr_game_parts.guide) on stdout, through
 * $PAGER at a terminal unless plain (cmd_guide.c); 0, or 1 after an error
 * when the game has none. */
int cli_show_guide(const cr_game_def *def, int plain);
extern const char cmd_sim_usage[]; /* --help texts of sim and bench */
extern const char cmd_bench_usage[];
int cmd_serve(int argc, char **argv); /* cmd_serve.c: the server (src/server/) */
extern const char cmd_serve_usage[];

/* The table, for the help texts (main.c). */
const cli_command *cli_find_command(const char *name);

#endif
