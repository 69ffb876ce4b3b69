/* croupier/parts.h — what a game may plug into the game-agnostic layers.
 *
 * The bots, the lab, the benchmarks, the conformance suite and the clients
 * never name a game: each game hands them its own parts through
 * cr_game_def.parts.  Every member is optional (NULL: the layer does
 * without).  See docs/INTERNALS.md, "Adding a game".
 */
#ifndef CROUPIER_PARTS_H
#define CROUPIER_PARTS_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "croupier/game.h"

#ifdef __cplusplus
extern "C" {
#endif
/* The library exports what this header declares (CMakeLists.txt builds it
 * with every other symbol hidden). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* A playing policy: chooses among legal[0..n) for `seat` in state st
 * (a search bot's imagined state, or a determinization).  rng is the
 * caller's.  The heuristic bot and ISMCTS's guided rollouts use it. */
typedef cr_action (*cr_policy_fn)(const cr_game *g, const void *st, int seat,
                                  const cr_action *legal, int n, cr_rng *rng);

/* Uniform over legal[0..n), skipping withdraw actions (is_withdraw) when
 * others exist. */
cr_action cr_policy_random(const cr_game *g, const void *st, int seat, const cr_action *legal,
                           int n, cr_rng *rng);

enum { CR_LAB_MAX_COUNTERS = 32, CR_LAB_MAX_LABELS = 8, CR_LAB_MAX_ENDS = 7 };

/* The lab's profile of a game (croupier sim): its rule-level counters,
 * counted from the omniscient event stream, its end reasons, a per-seat
 * label read from the final state (say, the suit of a seat's King) and the
 * default cap on a game's length. */
typedef struct cr_lab_profile {
    int n_counters; /* <= CR_LAB_MAX_COUNTERS */
    const char *const *counter_names;
    /* Adds one event to counters[n_counters]. */
    void (*count)(const cr_event *e, uint64_t *counters);
    /* Rounds played, read from a terminal state. */
    uint32_t (*rounds)(const cr_game *g, const void *st);
    int n_ends; /* <= CR_LAB_MAX_ENDS: the lab adds "aborted" */
    const char *const *end_names;
    /* Index of the end reason of a terminal state. */
    int (*end)(const cr_game *g, const void *st);
    const char *label_title;
    int n_labels; /* <= CR_LAB_MAX_LABELS */
    const char *const *label_names;
    /* The label of a seat in a terminal state, or -1. */
    int (*label)(const cr_game *g, const void *st, int seat);
    /* Default cap on applied actions per game (0: the lab's own). */
    long max_actions;
    /* Optional: the profile of one table when its variant or options count
     * other things or name them otherwise (an older edition: its own names
     * and counts), or NULL to keep this one.  The lab asks
     * once per run, before the games. */
    const struct cr_lab_profile *(*for_table)(const cr_game *g);
    /* Optional: the lab calls it on every game's state right after init,
     * with the seats whose observation some bot reads (bit s: seat s; a
     * random seat never reads it).  The game may stop keeping what only
     * the other seats' observations need (DML: their memory of cards they
     * no longer see), for speed; the game plays the same, and the seats in
     * `observed` see exactly what they would.  WARNING: such a state is
     * the lab's alone: observing another seat shows what it sees now, and
     * its position text is not one the loader accepts. */
    void (*observed_seats)(const cr_game *g, void *st, uint32_t observed);
    /* Optional, for games with a data file (a CR_OPT_FILE option, e.g.
     * 18Dracula's board): the numbers of that file a designer's sweep may
     * vary (`croupier sim --vary board.KEY=V1,V2,...`, docs/lab.md).
     * board_set writes into out (cap bytes, NUL-terminated) the text of
     * g's data file (the table's, or the built-in one) with parameter key
     * set to value, and returns its length; 0 with err naming the key and
     * the allowed keys or values when key is not one of board_keys (the
     * keys and their ranges in words) or value is out of range.  The text
     * is then loaded as any data file, with the game's own checks. */
    const char *board_keys;
    size_t (*board_set)(const cr_game *g, const char *key, const char *value, char *out, size_t cap,
                        char *err, size_t errcap);
} cr_lab_profile;

/* --- Panels: the table as a full-screen client lays it out ------------------
 * A game's `panels` part writes what the observing seat sees as titled
 * panels of styled lines, most important first; the client (src/tui) places
 * them on the screen, wraps long lines and drops what does not fit (a game
 * without the part gets its obs_to_text in one panel).  The text is built
 * from the observation only, so it shows nothing the seat may not see.
 *
 * Format (bytes below 0x20 are markup; game text never holds them):
 *   CR_PANEL_TITLE title '\n'     starts a panel
 *   line '\n'                     one line of the panel
 * Inside a line, CR_PANEL_STYLE followed by one style byte sets the style
 * of what follows, until the next style or the end of the line:
 *   '0' plain   'e' emphasis   'd' dim   '+' good   '-' bad   '!' attention
 *   '1' '2' '3' '4'  the game's four accent colours (a card game: its suits)
 * flags: CR_PANEL_UTF8 allows non-ASCII symbols (suit symbols); without it
 * the game writes them as ASCII (the client also replaces any other
 * non-ASCII character in that mode). */
enum { CR_PANEL_TITLE = 0x01, CR_PANEL_STYLE = 0x02 };
enum { CR_PANEL_UTF8 = 1u };
typedef size_t (*cr_panels_fn)(const cr_game *g, const void *obs, unsigned flags, char *buf,
                               size_t cap);

/* One achievement a game can award: a stable key (statistics, the server's
 * result, the lab's columns are kept by it; never renamed), a short title
 * and one line saying what it takes.  Static strings. */
typedef struct cr_achievement {
    const char *key;   /* kebab-case, e.g. "seize-the-initiative" */
    const char *title; /* e.g. "Seize the initiative" */
    const char *words; /* what it takes, one line */
} cr_achievement;

/* The achievement with this key in parts' list, or NULL. */
static inline const cr_achievement *cr_achievement_find(const cr_achievement *list, int n,
                                                        const char *key)
{
    for (int i = 0; key && i < n; i++)
        if (!strcmp(list[i].key, key)) return &list[i];
    return 0;
}

/* The achievements every seat earned in the finished game st (the whole
 * state), in words: one line a seat and achievement,
 *   "P2 Seize the initiative: Take the Dealer Token in the roll-off ..."
 * seats in order, each seat's in the game's list order.  snprintf
 * semantics; "" when nobody earned one or the game awards none.  Line mode,
 * the full-screen client and the replay viewer show this text. */
size_t cr_achievements_text(const cr_game *g, const void *st, char *buf, size_t cap);

/* --- The game's own conformance checks ------------------------------------
 * What the conformance suite (tests/conformance/test_conformance.c,
 * docs/conformance.md) checks of a game beyond the checks every game gets:
 * what only the game's rules can say (every card of the deck in exactly one
 * zone, what a seat may know of the cards it does not see).  The suite
 * follows each random game with a watcher: watch_size bytes it allocates
 * and the game fills in at start and keeps up from the events.  Every check
 * returns 0, or non-zero with err saying what is wrong (the suite prints
 * it).  Every member is optional. */
typedef struct cr_conformance {
    size_t watch_size; /* bytes of the watcher (0: none) */
    /* A new game from its first state st: sets up the watcher. */
    int (*start)(const cr_game *g, void *watch, const void *st, char *err, size_t errcap);
    /* A whole state: the game's, before every step, and every state
     * sample() draws. */
    int (*check_state)(const cr_game *g, const void *st, char *err, size_t errcap);
    /* The events of one apply (after it): the watcher follows them.
     * Returns how many of them are `counted` (the suite reports the most
     * in one apply), 0 when the game counts none. */
    int (*events)(const cr_game *g, void *watch, const cr_events *ev);
    const char *counted; /* what events() counts, plural ("moves"), or NULL */
    /* The observation obs of seat in state st, against what the watcher
     * says the seat may know. */
    int (*check_observation)(const cr_game *g, const void *watch, const void *st, int seat,
                             const void *obs, char *err, size_t errcap);
    /* A terminal state st and its returns ret[num_players]. */
    int (*check_end)(const cr_game *g, const void *st, const double *ret, char *err, size_t errcap);
} cr_conformance;

/* A named level of play (bot.h, "Tiers"): a short name any client takes
 * in place of a bot spec, the spec it stands for in this game, and one line
 * saying what it plays like.  Static strings. */
typedef struct cr_tier {
    const char *name;  /* "beginner", "casual", "club", "expert", "master" */
    const char *spec;  /* a bot spec (bot.h), e.g. "ismcts:iters=1000" */
    const char *words; /* e.g. "searches 1,000 imagined games a move" */
} cr_tier;

/* --- Annals: what a match's history shows beyond its state ----------------
 * Some tables want the game's past, which the state does not keep (a bot
 * clones states millions of times a second, so the state holds only what
 * the rules need): an 18XX game's operating-round history, the routes of
 * the last rampage.  A game that wants them keeps "annals": annals_size
 * bytes that start zeroed and that annals_fold updates with each event of
 * the match's log, in order.  The annals are never in a state and nothing
 * on the hot path makes them: the match layer folds them from its event
 * log when a client asks (cr_match_annals, match.h), so they are the same
 * after loading a saved game, after an undo (the log is rebuilt), at any
 * step of a replay (the log up to that step) and on a server that rebuilt
 * the match from its store; the lab and the bots never ask.
 *
 * Hidden information: the fold sees every event whole, whatever its
 * seen_by, and the clients show the annals to any seat.  So a game with
 * hidden information must fold only what every seat sees (an event's
 * public part; a card named only when seen_by is CR_SEEN_ALL).  18Dracula
 * has no hidden information.
 *
 * The renderers read an observation (obs: g->obs_size bytes of the view
 * shown, built by observe) with the annals:
 *   sheet        the game's spreadsheet (an 18XX table of players x
 *                companies and each company's history), as `panels` text
 *                whose tables fit 78 columns (a line of words may be
 *                longer: the client wraps it); the full-screen client
 *                scrolls it (`S`), line mode prints it (`sheet`);
 *   map_annals   the map (as `map` draws it) with what the annals add,
 *                e.g. the last rampage's routes emphasised; clients use it
 *                in place of `map` when the game provides it;
 *   annals_json  the annals alone as one JSON object, for clients that
 *                build their own table from it and the observation (the
 *                browser; the server sends it with each view,
 *                docs/protocol.md).
 * snprintf semantics throughout. */
typedef size_t (*cr_annals_panels_fn)(const cr_game *g, const void *obs, const void *annals,
                                      unsigned flags, char *buf, size_t cap);

typedef struct cr_game_parts {
    /* The game's hand-written player (the `heuristic` bot, guided ISMCTS). */
    cr_policy_fn heuristic;
    /* The lab's profile. */
    const cr_lab_profile *lab;
    /* Structural invariants of a state (say, every card in exactly one
     * zone).  Returns 0 when st is sound, else non-zero with err naming
     * what is broken.  The conformance suite calls it after every step,
     * and the position loader before accepting a position. */
    int (*check_invariants)(const cr_game *g, const void *st, char *err, size_t errcap);
    /* Extra benchmarks, printed after the generic ones (`croupier bench`). */
    void (*bench)(const cr_game *g, FILE *out, double seconds, uint64_t seed);
    /* Achievements a seat earned in a finished game (st: the whole state,
     * not an observation): writes at most max keys of achievement_list
     * into out, in the list's order; returns the count (0 while the game
     * goes on, and in a table that awards none). */
    int (*achievements)(const cr_game *g, const void *st, int seat, const char **out, int max);
    /* Every achievement the game can award, in a fixed order (the lab's
     * columns, the clients' words); n_achievements of them. */
    const cr_achievement *achievement_list;
    int n_achievements;
    /* The current decision of the observing seat explained in words, from
     * its observation (obs: g->obs_size bytes), for the clients' help. */
    size_t (*help)(const cr_game *g, const void *obs, char *buf, size_t cap);
    /* The player's guide: how to play, in Markdown, NUL-terminated, static
     * (never freed).  Its "## Glossary" defines every term the game's
     * prompts, labels, help and events use.  By convention the text of
     * docs/play-GAME.md, compiled in by CMakeLists.txt as cr_guide_GAME;
     * `croupier guide GAME` and the clients' `guide` show it. */
    const char *guide;
    /* The table for full-screen clients, from an observation (obs:
     * g->obs_size bytes; a seat's, CR_SEAT_PUBLIC's or the omniscient one):
     * see "Panels" above.  snprintf semantics. */
    cr_panels_fn panels;
    /* How much a random game of this game costs the test suites, in units
     * of a typical game (one of thousands of actions with a route search in
     * some): the conformance and leak suites play that many
     * times fewer of its games, at least one a table (the leak test ten
     * times fewer again); `croupier bench` sizes its measurements by it,
     * capped at 100.  0 or 1: as many. */
    int test_cost;
    /* The game's read-only data (say, its board) as one JSON object,
     * for clients that draw it (the browser's map): what g was created
     * with, never a state.  Deterministic (the same data, the same bytes);
     * the server serves it at GET /api/games/NAME/data with the data hash
     * (docs/protocol.md).  snprintf semantics. */
    size_t (*data_json)(const cr_game *g, char *buf, size_t cap);
    /* An observation (obs: g->obs_size bytes, a seat's, CR_SEAT_PUBLIC's or
     * the omniscient one) as a vector of floats of a fixed size, for
     * learning code (the Python package's State.observation_tensor).  Built
     * from the observation only, so a seat's vector holds nothing the seat
     * may not see.  Returns the size; writes only when out is not NULL and
     * cap is at least that size (call with NULL, 0 to ask the size).  The
     * game documents its layout (docs/clients.md, "Observation tensors"). */
    size_t (*obs_tensor)(const cr_game *g, const void *obs, float *out, size_t cap);
    /* The game's own checks for the conformance suite (above). */
    const cr_conformance *conformance;
    /* The game's board as a picture for full-screen clients, from an
     * observation: titled panels as `panels` writes them, lines at most 78
     * columns wide, which the client scrolls (`m`); NULL for a game without
     * a board. */
    cr_panels_fn map;
    /* Its levels of play, weakest first (bot.h, "Tiers"); n_tiers of them. */
    const cr_tier *tiers;
    int n_tiers;
    /* Menu sections, for clients whose menu is too long for the screen
     * (the full-screen client, docs/clients.md "Grouped menus"): the
     * section of legal action a of the seat to act, from that seat's
     * observation (obs: g->obs_size bytes).  Writes the section's title
     * into title (cap bytes, NUL-terminated; a few words, "Buy from the
     * IPO") and returns its rank: the client shows the sections in
     * ascending rank, and within a decision one title always has one rank
     * and one rank one title.  Returns -1 when the action belongs to no
     * section (the client lists it on its own, after the sections).  The
     * title is built from the observation only, so it shows nothing the
     * seat may not see. */
    int (*menu_section)(const cr_game *g, const void *obs, cr_action a, char *title, size_t cap);
    /* The annals and what reads them ("Annals" above); all NULL / 0 in a
     * game that keeps none. */
    size_t annals_size;
    void (*annals_fold)(const cr_game *g, void *annals, const cr_event *e);
    cr_annals_panels_fn sheet;
    cr_annals_panels_fn map_annals;
    size_t (*annals_json)(const cr_game *g, const void *annals, char *buf, size_t cap);
} cr_game_parts;

static inline const cr_game_parts *cr_parts(const cr_game *g)
{
    /* Zero-initialised, every part absent.  Not const: C++ refuses a const
     * object without an initialiser, and warns that `= {0}` misses fields. */
    static cr_game_parts none;
    return g->def->parts ? g->def->parts : &none;
}

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
