/* cmd_guide.c — `croupier guide GAME`: the game's player's guide
 * (cr_game_parts.guide, docs/play-GAME.md compiled in), and the pager that
 * `play` uses for its `guide` word.
 *
 * Paging never goes through a shell.  When stdout is a terminal and $PAGER
 * names a program, the guide is piped into that program, started with
 * execvp: $PAGER is split at blanks into the program and its arguments
 * ("less -R"), and nothing in it is interpreted (no quotes, no $, no ;).
 * Without $PAGER at a terminal it tries `pager` (Debian's alternative),
 * `less` and `more`.  If no pager can be started, the guide is printed
 * instead; off a terminal or with --plain it is printed as is.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_util.h"
#include "commands.h"
#include "croupier/parts.h"

enum { PAGER_MAX_ARGS = 16, PAGER_MAX_LEN = 512 };

/* Writes all of text to fd; 0, or -1 when the reader went away. */
static int write_all(int fd, const char *text, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, text, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        text += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Pipes text into $PAGER; 0 when the pager ran, -1 when it could not start
 * (the caller prints instead). */
static int page(const char *pager, const char *text)
{
    char words[PAGER_MAX_LEN];
    char *argv[PAGER_MAX_ARGS + 1];
    int argc = 0;
    if (strlen(pager) >= sizeof words) return -1;
    memcpy(words, pager, strlen(pager) + 1);
    for (char *p = words; *p && argc < PAGER_MAX_ARGS;) {
        while (*p == ' ' || *p == '\t') *p++ = '\0';
        if (!*p) break;
        argv[argc++] = p;
        while (*p && *p != ' ' && *p != '\t') p++;
    }
    argv[argc] = NULL;
    if (argc == 0) return -1;

    int fds[2];
    if (pipe(fds) != 0) return -1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[1]);
        if (dup2(fds[0], STDIN_FILENO) < 0) _exit(127);
        close(fds[0]);
        execvp(argv[0], argv);
        _exit(127); /* not found: the parent prints the guide instead */
    }
    close(fds[0]);
    /* The reader may quit early (q in less): a write then fails with EPIPE
     * instead of killing the program. */
    struct sigaction ign = {.sa_handler = SIG_IGN}, old;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, &old);
    write_all(fds[1], text, strlen(text));
    close(fds[1]);
    sigaction(SIGPIPE, &old, NULL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) return -1;
    return 0;
}

int cli_show_guide(const cr_game_def *def, int plain)
{
    const char *guide = def->parts ? def->parts->guide : NULL;
    if (guide == NULL) return cli_error("%s has no player's guide yet", def->name);
    const char *pager = getenv("PAGER");
    if (!plain && isatty(STDOUT_FILENO)) {
        if (pager && *pager) {
            if (page(pager, guide) == 0) return 0;
        } else { /* no $PAGER (root on a fresh Debian): the system's pager, less, more */
            static const char *const pagers[] = {"pager", "less", "more"};
            for (size_t k = 0; k < sizeof pagers / sizeof pagers[0]; k++)
                if (page(pagers[k], guide) == 0) return 0;
        }
    }
    fputs(guide, stdout);
    fflush(stdout);
    return 0;
}

const char cmd_guide_usage[] =
    "usage: croupier guide GAME [--plain]\n"
    "\n"
    "Shows the player's guide of GAME: the goal, the cards, a turn step\n"
    "by step, worked examples and a glossary of every term the game's\n"
    "prompts use.  At a terminal it is shown through $PAGER (a program\n"
    "and its arguments, started without a shell), or without $PAGER\n"
    "through pager, less or more, the first that starts.\n"
    "\n"
    "options:\n"
    "  --plain              print the guide, never through $PAGER\n";

int cmd_guide(int argc, char **argv)
{
    const char *name = NULL;
    int plain = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--plain") == 0)
            plain = 1;
        else if (argv[i][0] == '-')
            return cli_usage_error(argv[0], "unknown option '%s'", argv[i]);
        else if (name == NULL)
            name = argv[i];
        else
            return cli_usage_error(argv[0], "unexpected argument '%s'", argv[i]);
    }
    if (name == NULL) return cli_usage_error(argv[0], "which game? (croupier games lists them)");
    const cr_game_def *def = cli_find_game(name);
    if (def == NULL) return 1;
    return cli_show_guide(def, plain);
}
