/* croupier/game.h — the one interface through which bots, the lab, the
 * command-line program and (later) the server touch a game.
 *
 * A game is a `cr_game`: a const table of functions (`cr_game_def`) plus the
 * parameters of one table (player count, variant) and any read-only data the
 * game loaded at creation (a board file).  Game states are flat,
 * pointer-free blobs of `g->state_size` bytes owned by the caller: clone is
 * memcpy, and every function receives the game and the state, so a state
 * never points at the data it uses.
 *
 * Chance is explicit.  When `current_player` returns CR_CHANCE the caller
 * asks `chance_outcomes` for the outcomes and their probabilities, picks one
 * with its own seeded generator (cr_rng) and applies it like any action.
 * A state therefore holds no generator, and a game is fully described by its
 * parameters and the list of actions applied, chance outcomes included.
 *
 * Hot path: legal_actions, chance_outcomes, apply and clone allocate nothing.
 * apply() trusts its caller (an illegal action is a programming error,
 * asserted in debug builds); untrusted input goes through cr_apply_checked().
 */
#ifndef CROUPIER_GAME_H
#define CROUPIER_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "croupier/rng.h"
#include "croupier/status.h"

#ifdef __cplusplus
extern "C" {
#endif
/* The library exports what this header declares (CMakeLists.txt builds it
 * with every other symbol hidden). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

enum {
    CR_CHANCE = -1,   /* nature acts next: a die roll, a card draw, a random pick */
    CR_TERMINAL = -2, /* the game is over: read returns() and scores() */
};

enum { CR_MAX_PLAYERS = 8 };

/* Whose view a rendering or an observation is for, besides a seat 0..n-1.
 * PUBLIC: what a spectator may know (what every seat knows); OMNISCIENT:
 * everything (logs, the lab, debugging).  Distinct from CR_CHANCE and
 * CR_TERMINAL so that a current_player() result is never taken for one. */
enum { CR_SEAT_PUBLIC = -3, CR_SEAT_OMNISCIENT = -4 };

typedef int32_t cr_action; /* dense, stable id in [0, g->num_actions) */

/* A variant of a game: a named rule set with its allowed player counts. */
typedef struct cr_variant {
    const char *name;    /* stable key: "full", "smackdown", ... */
    const char *summary; /* one line for `croupier games` */
    int min_players, max_players;
} cr_variant;

/* --- Table options ---------------------------------------------------------
 * A game declares the options a table may set (cr_game_def.options): a key,
 * a type, a range and a default.  cr_params carries them as text, as a user
 * typed them (`--option first-roller=2`); cr_game_new checks every one and
 * stores the values in g->opt[i], i being the option's index in the game's
 * table.  A CR_OPT_FILE option names game data (a board file): the core
 * reads the file, keeps its bytes for the game's create() and identifies
 * it by a content hash, which records and positions carry. */
typedef enum cr_option_type {
    CR_OPT_INT = 1, /* an integer in [min, max] */
    CR_OPT_BOOL,    /* 0 or 1; "yes"/"no", "true"/"false", "on"/"off", "1"/"0" */
    CR_OPT_CHOICE,  /* one of choices[0..max]; the value is the index */
    CR_OPT_SEAT,    /* a seat 0..num_players-1 */
    CR_OPT_FILE,    /* a path to game data; value 1 when given, 0 = built-in */
} cr_option_type;

typedef struct cr_option_def {
    const char *key; /* stable: "first-roller", "board" */
    cr_option_type type;
    int32_t min, max, def;      /* INT: the range and default; CHOICE: default index */
    const char *const *choices; /* CHOICE: max + 1 names */
    const char *help;           /* one line for `croupier games` and --help */
    /* The one variant the option belongs to (its name), NULL for every
     * variant.  Giving it to a table of another variant is an error that
     * names this variant; records and positions write only the options of
     * their own variant (cr_option_applies). */
    const char *variant;
    /* CR_OPTF_*: other spellings of the option the clients accept. */
    unsigned flags;
} cr_option_def;

enum {
    /* The command line takes `--KEY VALUE` for `--option KEY=VALUE`. */
    CR_OPTF_SWITCH = 1u,
    /* A record's header may give it as `KEY VALUE`, without `option`: its
     * spelling in records made before table options existed. */
    CR_OPTF_RECORD_KEY = 2u,
};

enum { CR_MAX_OPTIONS = 16 };

typedef struct cr_option_kv {
    const char *key, *value; /* borrowed text */
} cr_option_kv;

/* What a table chooses before the game starts. */
typedef struct cr_params {
    int num_players;     /* within the variant's bounds; 0 = the variant's largest */
    const char *variant; /* NULL = the game's default for num_players */
    int n_options;
    cr_option_kv options[CR_MAX_OPTIONS]; /* unset options take their default */
} cr_params;

/* Sets (or replaces) an option of p; "KEY=VALUE" text is split by
 * cr_params_set_text.  The strings are borrowed: they must outlive p's use.
 * CR_ERR_INVALID when p is full or the text has no '='. */
cr_status cr_params_set(cr_params *p, const char *key, const char *value);
cr_status cr_params_set_text(cr_params *p, char *key_eq_value);

/* --- Results ---------------------------------------------------------------
 * How a finished game ended for each seat: the game's own score and a rank
 * (1 = first; seats that share a place share the rank, so several seats may
 * win together).  `winners` has bit s set for each seat that won; 0 when
 * nobody did (e.g. every seat eliminated). */
typedef struct cr_result {
    int32_t score[CR_MAX_PLAYERS];
    int8_t rank[CR_MAX_PLAYERS];
    uint32_t winners;
} cr_result;

/* --- Events --------------------------------------------------------------
 * apply() reports what happened into a caller-owned buffer, without
 * allocating.  Each event says which seats may see its `card`; the other
 * seats see the same event with the card hidden.  The caller drains the
 * buffer after each apply (or passes NULL when nobody listens: search). */
typedef struct cr_event {
    uint16_t kind;    /* game-specific event code */
    int8_t seat;      /* acting or affected seat, -1 none */
    int8_t other;     /* second seat (giver/receiver), -1 none */
    int16_t card;     /* game-specific object id, -1 none */
    int16_t from, to; /* game-specific zones, -1 none */
    int32_t a, b;     /* game-specific numbers (dice, values, labels) */
    uint32_t seen_by; /* bit s set: seat s sees `card`; CR_SEEN_ALL = public */
} cr_event;

#define CR_SEEN_ALL 0xffffffffu

typedef struct cr_events {
    cr_event *buf; /* caller-owned, cap entries */
    int cap;
    int len;     /* events written since the caller last reset len to 0 */
    int dropped; /* events that did not fit (the caller's buffer was too small) */
} cr_events;

/* Appends one event to ev, or counts it in ev->dropped when the buffer is
 * full; the games' apply writes every event through it. */
static inline void cr_events_push(cr_events *ev, int kind, int seat, int other, int card, int from,
                                  int to, int32_t a, int32_t b, uint32_t seen_by)
{
    if (ev->len >= ev->cap) {
        ev->dropped++;
        return;
    }
    cr_event *e = &ev->buf[ev->len++];
    e->kind = (uint16_t)kind;
    e->seat = (int8_t)seat;
    e->other = (int8_t)other;
    e->card = (int16_t)card;
    e->from = (int16_t)from;
    e->to = (int16_t)to;
    e->a = a;
    e->b = b;
    e->seen_by = seen_by;
}

/* --- The per-thread context ------------------------------------------------
 * apply, legal_actions and sample receive a caller-owned context: the event
 * sink apply reports into, and scratch memory of g->scratch_size bytes the
 * game may use during the call (a sampler's matching, a route search's
 * tables).  A game
 * keeps no memory of its own between calls (no globals, no thread-locals),
 * so one context per thread is all threads need to share nothing.
 * cr_ctx_new makes one for a game, the first g->scratch_zeroed bytes of
 * its scratch zeroed; a caller may also fill one itself (zeroing those).
 * A game says which of its calls need the scratch (say, sample only); a
 * caller that knows nothing of the game passes a full context always.
 * NULL is a context with no event sink and no scratch. */
typedef struct cr_ctx {
    cr_events *ev; /* where apply reports; NULL: nobody listens (search, rollouts) */
    void *scratch; /* scratch_size bytes, or NULL */
    size_t scratch_size;
} cr_ctx;

typedef struct cr_game cr_game;

/* The function table of one game.  Every function receives the game
 * instance and a state of g->state_size bytes. */
typedef struct cr_game_def {
    const char *name;  /* stable key: the folder src/games/NAME/ */
    const char *title; /* the game's title, as its box has it */
    const cr_variant *variants;
    int n_variants;
    /* Bumped whenever a rule change could change what a recorded game
     * means; records and positions carry it, and a mismatch is an error. */
    int rules_version;
    const cr_option_def *options; /* the table options (may be NULL) */
    int n_options;
    /* What counts as a clear score margin (say, 10 Victory Points): a search
     * bot rewarding margins divides them by it.  0 = no meaningful score. */
    int32_t score_scale;

    /* Fills g's sizes and loads read-only data; err gets a one-line reason. */
    cr_status (*create)(cr_game *g, char *err, size_t errcap);
    void (*destroy)(cr_game *g); /* frees what create loaded; may be NULL */

    /* A new game at its first decision or chance node. */
    void (*init)(const cr_game *g, void *st);

    /* Seat to act, CR_CHANCE or CR_TERMINAL. */
    int (*current_player)(const cr_game *g, const void *st);
    /* Legal actions of the seat to act, ascending and unique, into
     * out[g->max_legal]; returns the count (0 at chance and terminal nodes). */
    int (*legal_actions)(const cr_game *g, const void *st, cr_action *out, cr_ctx *cx);
    /* At a chance node: outcomes ascending into out[g->max_chance_outcomes],
     * probabilities (summing to 1) into prob; returns the count. */
    int (*chance_outcomes)(const cr_game *g, const void *st, cr_action *out, double *prob);
    /* Optional fast path: draws one chance outcome with rng, with exactly
     * the distribution chance_outcomes gives, without listing them.
     * cr_sample_chance uses it when present.  May be NULL. */
    cr_action (*sample_chance)(const cr_game *g, const void *st, cr_rng *rng);
    /* Applies a legal action or chance outcome, reporting events into
     * cx->ev (none when cx or cx->ev is NULL). */
    void (*apply)(const cr_game *g, void *st, cr_action a, cr_ctx *cx);

    /* At a terminal state: the utility of each seat for bots, out[num_players]:
     * 1 to a sole winner, 1/k to each of k shared winners, 0 to the others. */
    void (*returns)(const cr_game *g, const void *st, double *out);
    /* The game's own score of each seat, now (say, Victory Points) and, at
     * a terminal state, the ranks and winners. */
    void (*result)(const cr_game *g, const void *st, cr_result *out);

    /* Observation: what `seat` knows now, including what it has witnessed
     * (seat may be CR_SEAT_PUBLIC: what every seat knows; or
     * CR_SEAT_OMNISCIENT: the whole state, as an observation).
     * Writes g->obs_size bytes into obs.  The observation is itself a
     * state-shaped blob in which everything hidden from the seat is erased,
     * so it can be rendered, compared and handed to the sampler. */
    void (*observe)(const cr_game *g, const void *st, int seat, void *obs);
    size_t (*obs_to_json)(const cr_game *g, const void *obs, char *buf, size_t cap);
    size_t (*obs_to_text)(const cr_game *g, const void *obs, char *buf, size_t cap);
    /* Determinization: a full state consistent with the observation, drawn
     * with rng.  The sampled state's observation for that seat equals obs. */
    cr_status (*sample)(const cr_game *g, const void *obs, cr_rng *rng, void *st_out, cr_ctx *cx);
    /* Marks a state as one that search and rollouts will play on and nobody
     * will observe: the game may stop keeping what only observations need
     * (say, every seat's memory of cards it no longer sees).  observe() on
     * such a state shows what a seat sees now, without what it remembers.
     * Cheap; may be NULL (nothing to drop).  Not undone by apply. */
    void (*for_search)(const cr_game *g, void *st);

    /* Whole-state text (the position format); snprintf semantics. */
    size_t (*serialize)(const cr_game *g, const void *st, char *buf, size_t cap);
    /* Parses serialize's output or a hand-written position file.  On error
     * st is unspecified and err names the key and the problem. */
    cr_status (*deserialize)(const cr_game *g, void *st, const char *buf, size_t len, char *err,
                             size_t errcap);

    /* Action notation, in the context of the state it applies to. */
    size_t (*action_to_str)(const cr_game *g, const void *st, cr_action a, char *buf, size_t cap);
    cr_status (*str_to_action)(const cr_game *g, const void *st, const char *s, cr_action *out);
    /* One event in words / JSON, as `seat` may know it (a seat, CR_SEAT_PUBLIC
     * or CR_SEAT_OMNISCIENT); a card the view may not see is never named. */
    size_t (*event_to_str)(const cr_game *g, const cr_event *e, int seat, char *buf, size_t cap);
    size_t (*event_to_json)(const cr_game *g, const cr_event *e, int seat, char *buf, size_t cap);
    /* A short description of the decision the seat to act faces. */
    size_t (*prompt)(const cr_game *g, const void *st, char *buf, size_t cap);
    /* Actions that only withdraw a half-built choice: search may skip them.
     * Returns 1 if a is such an action. */
    int (*is_withdraw)(const cr_game *g, const void *st, cr_action a);

    /* Optional: whether `a` is legal for the seat to act, for decisions
     * whose legal_actions list offers a menu (amounts: a few meaningful bids)
     * while any amount in range may be submitted.  NULL: legal means "in
     * legal_actions".  Must agree with legal_actions on every listed action. */
    int (*is_legal)(const cr_game *g, const void *st, cr_action a);
    /* Optional: one action as JSON for clients that build controls:
     * {"id", "text", "label", "group", "objects": [...], "amount": {...}}
     * (docs/clients.md).  NULL: the core writes id, text and label. */
    size_t (*action_to_json)(const cr_game *g, const void *st, cr_action a, char *buf, size_t cap);

    /* Game-owned parts (each optional). */
    const struct cr_game_parts *parts;
} cr_game_def;

/* One table's game: definition, parameters, sizes and read-only data. */
struct cr_game {
    const cr_game_def *def;
    const cr_variant *variant;
    int variant_index;
    cr_params params; /* params.variant/data_path point at storage owned below */
    int num_players;
    int num_actions; /* action ids are in [0, num_actions) */
    int max_legal;   /* proven bound on one legal list */
    int max_chance_outcomes;
    /* Proven bound on the events one apply() writes (its cascade included):
     * a buffer of max_events entries never drops one.  Every event buffer
     * is sized from it (sim, bench, match, run), and the conformance suite
     * asserts it after every apply.  cr_game_new refuses 0 or less and more
     * than the core's list ceiling (4096). */
    int max_events;
    size_t state_size;
    size_t obs_size;
    size_t scratch_size; /* bytes of cr_ctx.scratch the game's calls may use */
    /* Bytes at the start of the scratch that a fresh context holds zeroed
     * (at most scratch_size; 0: none): what the game reads before its
     * calls write it (a memo's empty slots).  cr_ctx_new zeroes them; a
     * caller that fills a context itself zeroes them too. */
    size_t scratch_zeroed;
    void *data;                  /* read-only data loaded by create (owned) */
    int32_t opt[CR_MAX_OPTIONS]; /* option values, by index in def->options */
    /* The CR_OPT_FILE option's file, read by the core before create(): its
     * bytes (NUL-terminated, owned by the core), length and content hash.
     * data_text is NULL when the built-in data is used. */
    const char *data_text;
    size_t data_len;
    uint64_t data_hash; /* FNV-1a 64 of the bytes; the game's built-in data: its own */
    char variant_buf[32];
    char data_path[512];
};

/* --- Registry and lifecycle (src/core) ----------------------------------- */

int cr_registry_count(void);
const cr_game_def *cr_registry_get(int i);
const cr_game_def *cr_registry_find(const char *name); /* NULL if unknown */

/* Creates a game for these parameters; NULL with err filled on bad
 * parameters (unknown variant, player count out of range, bad data file).
 * Caller owns the result: cr_game_free. */
cr_game *cr_game_new(const cr_game_def *def, const cr_params *p, char *err, size_t errcap);
void cr_game_free(cr_game *g);

/* The identity of game data: FNV-1a 64 of its bytes.  g->data_hash is this
 * hash of a data file's bytes (a game's built-in data hashes its own text
 * the same way), which records, positions and the server's data endpoint
 * carry as 16 lowercase hexadecimal digits.  Cost: one pass over len bytes. */
uint64_t cr_data_hash(const void *data, size_t len);

/* --- Convenience over the table ------------------------------------------ */

static inline int cr_current_player(const cr_game *g, const void *st)
{
    return g->def->current_player(g, st);
}
static inline int cr_is_terminal(const cr_game *g, const void *st)
{
    return g->def->current_player(g, st) == CR_TERMINAL;
}

static inline void cr_for_search(const cr_game *g, void *st)
{
    if (g->def->for_search) g->def->for_search(g, st);
}

/* A context for g on one thread: scratch of g->scratch_size bytes, no event
 * sink (set cx->ev to listen).  NULL when out of memory. */
cr_ctx *cr_ctx_new(const cr_game *g);
void cr_ctx_free(cr_ctx *cx);

/* Index of option `key` in g's game, or -1. */
int cr_option_index(const cr_game_def *def, const char *key);
/* The value of option `key` (its default if unset); asserts the key exists. */
int32_t cr_game_option(const cr_game *g, const char *key);
/* Canonical text of option i's value in g (what records write). */
size_t cr_option_to_str(const cr_game *g, int i, char *buf, size_t cap);
/* 1 if option i of def belongs to variant `variant` (cr_option_def.variant
 * is NULL or names it). */
int cr_option_applies(const cr_game_def *def, int i, const char *variant);

/* 1 if bit s of e->seen_by, or a public/omniscient view, lets `seat` see e's card. */
int cr_event_visible(const cr_game *g, const cr_event *e, int seat);

/* Draws a chance outcome with rng from the state's distribution. */
cr_action cr_sample_chance(const cr_game *g, const void *st, cr_rng *rng);

/* Validates `a` against the legal list (or the chance outcomes) and applies
 * it; CR_ERR_ILLEGAL leaves st untouched. */
cr_status cr_apply_checked(const cr_game *g, void *st, cr_action a, cr_ctx *cx);

/* CR_OK when `seat` is the seat to act in st; else CR_ERR_ILLEGAL with the
 * reason in err ("no seat 9", "the game is over", "not your turn: P2 is to
 * act"), which says only what every seat knows. */
cr_status cr_seat_may_act(const cr_game *g, const void *st, int seat, char *err, size_t errcap);

/* Parses text submitted by `seat` as its action in st.  Refuses a seat that
 * is not to act before looking at the text ("not your turn: P2 is to act");
 * a failure names only the text and the seat's own decision (its prompt),
 * so nothing in err depends on what `seat` may not see.  cr_match_submit
 * is built on it; the conformance suite's leak test checks it. */
cr_status cr_seat_parse(const cr_game *g, const void *st, int seat, const char *text,
                        cr_action *out, cr_ctx *cx, char *err, size_t errcap);

/* 1 if a is legal for the seat to act (or a possible chance outcome). */
int cr_is_legal(const cr_game *g, const void *st, cr_action a, cr_ctx *cx);

/* Parses `text` as an action of the current state and applies it if legal.
 * err gets the reason (unknown notation, not legal now) and never describes
 * the state.  For trusted callers (files, tests): whether a text is legal
 * tells about the acting seat's hidden cards, so text from a seat goes
 * through cr_seat_parse or cr_match_submit, which refuse a seat that is not
 * to act before parsing and explain from that seat's view. */
cr_status cr_apply_text(const cr_game *g, void *st, const char *text, cr_ctx *cx, char *err,
                        size_t errcap);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
