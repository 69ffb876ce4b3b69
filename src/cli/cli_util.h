/* cli_util.h — small helpers shared by the commands of the `croupier`
 * program: one-line errors, option parsing, reading files, growing text
 * the game's snprintf-style renderers into a growing text, pretty JSON. */
#ifndef CROUPIER_CLI_UTIL_H
#define CROUPIER_CLI_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "croupier/game.h"
#include "croupier/text.h"

#if defined(__GNUC__)
#define CLI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CLI_PRINTF(f, a)
#endif

/* Every message below that may quote user-supplied text is written through
 * cli_escape(): control characters, invalid UTF-8 and bidirectional
 * overrides show as \x1b, \u202e...; a backslash shows as \\. */

/* Prints "croupier: error: <message>" on stderr (escaped); returns 1 (the
 * exit status). */
int cli_error(const char *fmt, ...) CLI_PRINTF(1, 2);
/* Same, plus "try 'croupier CMD --help'" (cmd NULL: 'croupier --help'); returns 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...) CLI_PRINTF(2, 3);
/* Prints one line, escaped as cli_error does, then '\n', on f: for messages
 * that echo what a user typed or a file held. */
void cli_say(FILE *f, const char *fmt, ...) CLI_PRINTF(2, 3);
/* Copies in[0..len) into out (cap bytes, NUL-terminated, cut between whole
 * escapes) with every byte a terminal could act on made visible: ASCII
 * controls and DEL as \xNN (\n, \r, \t by name), a backslash as \\,
 * invalid UTF-8 byte by byte as \xNN, C1 controls as their bytes (\xc2\x9b),
 * line separators and bidirectional marks as \uNNNN; printable UTF-8 is kept
 * as is.  Returns the escaped length (snprintf semantics: >= cap means cut). */
size_t cli_escape(const char *in, size_t len, char *out, size_t cap);

/* Option parsing.  At argv[*i]: if it is `name` followed by a value, or
 * `name=value`, stores the value, advances *i past it and returns 1; returns
 * 0 if argv[*i] is another option, -1 (error printed) if the value is missing. */
int cli_opt(int argc, char **argv, int *i, const char *name, const char **value);
/* Table options, in every command that makes a game: `--option KEY=VALUE`
 * (repeatable) and `--KEY VALUE` for the options a game lets the command
 * line spell so (CR_OPTF_SWITCH, shown by `croupier games`) into p.  Returns 1 if argv[*i] was one
 * (consumed), 0 if not, -1 on error (printed). */
/* The one positional argument of a command taking a file (replay,
 * analyse): the first into *path (0); an unknown option or a second
 * argument prints the usage error (2). */
int cli_positional(const char *cmd, const char *arg, const char **path);
int cli_table_opt(int argc, char **argv, int *i, cr_params *p);
/* Parses a whole decimal string into [lo, hi]; 0 on failure. */
int cli_parse_int(const char *s, long lo, long hi, long *out);
int cli_parse_u64(const char *s, uint64_t *out);

/* The most cli_read_file() accepts: 16 MiB.  A card game's record takes
 * about 6 bytes per action (a 360-action game: 2.3 KiB) and a pretty-printed
 * position about 17 KiB, so this leaves some three orders of magnitude for
 * longer games and bigger boards while bounding what a hostile input
 * (`replay /dev/zero`) can make the program read and hold. */
#define CLI_MAX_INPUT ((size_t)16 << 20)

/* Reads a whole file, or stdin for "-" (NUL-terminated, length in *len).
 * Caller frees with free().  NULL with err filled ("P.json: No such file or
 * directory") for an unreadable file, a directory, an input larger than
 * CLI_MAX_INPUT (a regular file is refused from its size before reading; a
 * pipe or device is read only until the limit is passed) or one holding a
 * NUL byte ("P.json: NUL byte at offset 12"; reading stops there). */
char *cli_read_file(const char *path, size_t *len, char *err, size_t errcap);
/* A game record file (docs/records.md) loaded as a match, the recorded
 * options replaced by overrides' (may be NULL): NULL after printing the
 * reason ("croupier: error: FILE: ..."), the command then exits 1. */
struct cr_match *cli_load_record(const char *path, const cr_params *overrides);

/* Output files checked before the work that fills them (sim's reports,
 * play's --save): cli_out_check() opens path for writing, creating it if
 * absent (*created = 1) and never truncating it; 0, or -1 with err filled
 * ("cannot write out/x.json: No such file or directory").  After a failure,
 * cli_out_discard() removes the file again if this run created it and it is
 * still empty, so a failed command leaves no empty file behind. */
int cli_out_check(const char *path, int *created, char *err, size_t errcap);
void cli_out_discard(const char *path, int created);

/* Each renders into b (a cr_text, croupier/text.h: emptied, then grown as
 * needed) and returns its text.  Out of memory stops the program (the
 * CLI's policy: "croupier: error: out of memory", exit status 1). */
const char *cli_serialize(const cr_game *g, const void *st, cr_text *b);
const char *cli_obs_text(const cr_game *g, const void *obs, cr_text *b);
const char *cli_event_text(const cr_game *g, const cr_event *e, int seat, cr_text *b);
const char *cli_action_text(const cr_game *g, const void *st, cr_action a, cr_text *b);
const char *cli_prompt_text(const cr_game *g, const void *st, cr_text *b);

/* Prints JSON text indented by two spaces (as is if it does not parse). */
void cli_print_json(FILE *f, const char *json, size_t len);

/* Prints each event of ev as `seat` may know it (-1: omniscient), each line
 * preceded by prefix; resets ev->len and ev->dropped. */
void cli_print_events(FILE *f, const cr_game *g, cr_events *ev, int seat, const char *prefix,
                      cr_text *b);

/* Prints "P0 12  P1 7 ..." lines for scores and returns. */
void cli_print_result(FILE *f, const cr_game *g, const void *st);

/* The game named `name` or NULL after printing an error naming the known games. */
const cr_game_def *cli_find_game(const char *name);

#endif
