/* croupier/match.h — one game being played: the game, its state, its
 * record, its seats and what each seat has been told.  Every client uses
 * it: the line-mode `play`, `replay`, `analyse`, the full-screen client
 * (src/tui) and the server (src/server); none writes the game loop again.
 * Beside it in the match layer: a screen's session (session.h), the replay
 * cursor (replay.h) and the coach (analysis.h).
 *
 * Chance.  The match owns a secret seed.  The k-th chance node of the game
 * (counting chance nodes only, from 0) is drawn with a generator seeded from
 * (seed, k), so saving and resuming, or undoing and playing again, draws
 * exactly the same dice and cards: the moves between two chance nodes, and
 * how many there were (a card taken back and added again inside a
 * Declaration is two more actions), never change what the next one draws.
 * A bot seat's k-th decision is seeded from (seed, seat, k) the same way
 * (cr_match_bot_seed), so taking moves back cannot fish for another bot
 * choice either.  The seed is never shown to a seat while the game runs: it
 * is in the owner's saved record (cr_match_save) and cr_match_seed() gives
 * it out only once the match is over.
 *
 * Events.  Every event any apply produced is kept in one log with sequence
 * numbers 0, 1, 2, ...; a seat asks "what happened since N" and renders each
 * event as it sees it (cr_match_event_text).  All seats see the same number
 * of events (only the cards inside are hidden), so counting messages tells
 * nothing.  Loading a record rebuilds the log exactly.
 *
 * Seats.  Each seat is "human", a bot spec or a tier's name (bot.h).  cr_match_run plays
 * chance nodes and bot seats until a human must decide.  cr_match_submit
 * takes a human's text: it refuses input from a seat that is not to act
 * before parsing anything, and builds every message from that seat's view.
 *
 * Undo takes the match back to a seat's previous decision; resignation and
 * timeouts are recorded as marks, and either a bot takes the seat over or
 * the match ends with the result marked (the seat that left ranks last, the
 * others share the win).
 */
#ifndef CROUPIER_MATCH_H
#define CROUPIER_MATCH_H

#include <stdint.h>
#include <stdio.h>

#include "croupier/game.h"
#include "croupier/record.h"

#ifdef __cplusplus
extern "C" {
#endif
/* The library exports what this header declares (CMakeLists.txt builds it
 * with every other symbol hidden). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

typedef struct cr_match cr_match;

typedef struct cr_match_event {
    uint32_t seq;         /* its number in the match's log */
    int32_t action_index; /* the record action whose apply produced it */
    cr_event ev;
} cr_match_event;

/* A new match at its start.  seats[num_players] are "human" or bot specs
 * (NULL: every seat human).  NULL with err on bad parameters or seats. */
cr_match *cr_match_new(const cr_game_def *def, const cr_params *p, const char *const *seats,
                       uint64_t seed, char *err, size_t errcap);
/* A match from a saved record (resumes where it stopped, with its seats
 * and seed; a record without a seed gets `seed_if_none`).  overrides: see
 * cr_record_load.  NULL with err naming the line on any problem. */
cr_match *cr_match_load(const char *text, size_t len, const cr_params *overrides,
                        uint64_t seed_if_none, char *err, size_t errcap);
void cr_match_free(cr_match *m);

const cr_game *cr_match_game(const cr_match *m);
/* The true state: for the owner of the match (logs, the lab), never for a seat. */
const void *cr_match_state(const cr_match *m);
const cr_record *cr_match_record(const cr_match *m);
/* Seat to act, CR_CHANCE, or CR_TERMINAL (also when the match was ended by
 * a resignation or a timeout). */
int cr_match_to_act(const cr_match *m);
int cr_match_over(const cr_match *m);
/* Who chose action `index` of the record: a seat or CR_CHANCE (public:
 * every seat knows whose decision it was); CR_TERMINAL for an index out of
 * range.  Clients group the log by it (a bot's turn, "since your last turn"). */
int cr_match_actor(const cr_match *m, int index);
/* The seed, once the match is over; 0 (and *seed untouched) before. */
int cr_match_seed(const cr_match *m, uint64_t *seed);

/* The seed of `seat`'s bot for the seat's next decision: a function of the
 * match's seed, the seat and how many decisions the seat has made (the
 * server's bot workers seed their bots with it too). */
uint64_t cr_match_bot_seed(const cr_match *m, int seat);
/* The seed of the substitute that plays `seat`'s next decision when its
 * bot cannot (the server plays the uniform random policy when a bot
 * overruns its deadline): derived from cr_match_bot_seed, so a replay of
 * the record needs neither. */
uint64_t cr_match_substitute_seed(const cr_match *m, int seat);
/* A bot of `spec` for `seat`, made as the match makes its own (seeded from
 * the match's secret seed), on g: a game the caller owns and keeps alive
 * while the bot lives (a server's worker thinks on its own game, without
 * the lock that guards the match).  Reseed it with cr_match_bot_seed before
 * each decision.  NULL with err on a bad spec.  Caller frees: cr_bot_free. */
struct cr_bot *cr_match_bot_new(const cr_match *m, cr_game *g, const char *spec, int seat,
                                char *err, size_t errcap);

/* `seat`'s decision number: how many decisions it has made, plus one while
 * it is to act (so it names the decision it faces; a client's move says
 * which decision it answers, and a stale one is refused).  0 for no seat. */
int cr_match_decision(const cr_match *m, int seat);

/* --- The record since a cursor ---------------------------------------------
 * A client that keeps the record elsewhere (the server's store) takes the
 * entries the match added since it last looked.  A cursor counts the
 * record's actions and marks taken so far ({0, 0}: the start). */
typedef struct cr_match_cursor {
    int actions, marks;
} cr_match_cursor;
/* One entry: an action with the seat (or CR_CHANCE) that chose it, or a
 * mark (resignation, timeout, seat change, end). */
typedef struct cr_match_entry {
    const cr_mark *mark; /* NULL for an action; else points into the record (valid
                            until the next change) */
    cr_action action;    /* an action's id */
    int actor;           /* an action's chooser: a seat or CR_CHANCE */
} cr_match_entry;
/* The entry after *cur, in record order (a mark made before action k comes
 * before it), into *out, advancing *cur; 0 when there is none. */
int cr_match_record_next(const cr_match *m, cr_match_cursor *cur, cr_match_entry *out);

const char *cr_match_seat_spec(const cr_match *m, int seat);
int cr_match_is_human(const cr_match *m, int seat);
/* Seats `seat` with "human" or a bot spec, now (recorded as a mark once
 * the game has begun). */
cr_status cr_match_set_seat(cr_match *m, int seat, const char *spec, char *err, size_t errcap);

/* Hints (analysis.h, cr_match_hint): a table of one human (the others
 * bots) always allows them; a table of several humans only when every seat
 * agreed at its creation.  cr_match_allow_hints records that agreement
 * (`hints allowed` in the saved record, so a loaded match keeps it); it is
 * refused (CR_ERR_ILLEGAL, err says why) once the first action was played:
 * agreement after the fact would be one player's second opinion the others
 * did not sit down to. */
cr_status cr_match_allow_hints(cr_match *m, char *err, size_t errcap) CR_MUST_CHECK;
/* 1 when the table agreed to hints at its creation. */
int cr_match_hints_agreed(const cr_match *m);
/* 1 when cr_match_hint may answer at this table: one human seat or none,
 * or agreement. */
int cr_match_hints_allowed(const cr_match *m);

/* Plays chance nodes and bot seats until a human must decide, the game
 * ends, or max_steps actions were applied (0: no limit).  Returns
 * cr_match_to_act(). */
int cr_match_run(cr_match *m, long max_steps);
/* Applies one action of the chance node or bot seat to act; CR_ERR_ILLEGAL
 * when a human is to act or the match is over. */
cr_status cr_match_step(cr_match *m);
/* Applies action `a` for the bot seat to act, chosen outside the match (a
 * server's bot thinks on a copy of the seat's observation without holding
 * the game; docs/server.md).  CR_ERR_ILLEGAL (err set) when `seat` is not
 * a bot seat to act or `a` is not legal now; nothing changes then. */
cr_status cr_match_submit_bot(cr_match *m, int seat, cr_action a, char *err, size_t errcap);

/* A human seat's move as text (notation) or as an action id.  Refuses,
 * before parsing, a seat that is not to act; err never tells anything the
 * seat may not see. */
cr_status cr_match_submit(cr_match *m, int seat, const char *text, char *err, size_t errcap);
cr_status cr_match_submit_action(cr_match *m, int seat, cr_action a, char *err, size_t errcap);

/* Views for one seat (or CR_SEAT_PUBLIC / CR_SEAT_OMNISCIENT). */
void cr_match_observe(const cr_match *m, int seat, void *obs);
/* The legal actions of `seat` into out[g->max_legal]; 0 unless it is to act. */
int cr_match_legal(const cr_match *m, int seat, cr_action *out);
/* The decision `seat` faces, in words; "" unless it is to act. */
size_t cr_match_prompt(const cr_match *m, int seat, char *buf, size_t cap);
/* An action's text / JSON as the seat to act sees it ("" for another seat). */
size_t cr_match_action_text(const cr_match *m, int seat, cr_action a, char *buf, size_t cap);
size_t cr_match_action_json(const cr_match *m, int seat, cr_action a, char *buf, size_t cap);
/* The text of the last action applied, for `view`: the seat that chose it
 * or CR_SEAT_OMNISCIENT ("" for any other view: an action's text may name
 * a hidden card, e.g. a face-down offer). */
size_t cr_match_last_action_text(const cr_match *m, int view, char *buf, size_t cap);
/* The game's help for `seat`'s current decision, from its observation. */
size_t cr_match_help(const cr_match *m, int seat, char *buf, size_t cap);

/* The log: the number of events so far, and the events from `since` on
 * (*out points into the match; valid until the next change). */
uint32_t cr_match_event_count(const cr_match *m);
int cr_match_events_since(const cr_match *m, uint32_t since, const cr_match_event **out);
size_t cr_match_event_text(const cr_match *m, const cr_match_event *e, int seat, char *buf,
                           size_t cap);
size_t cr_match_event_json(const cr_match *m, const cr_match_event *e, int seat, char *buf,
                           size_t cap);

/* The game's annals (parts.h, "Annals": the history a table shows beyond
 * the state, e.g. 18Dracula's operating rounds) folded from events
 * [0, upto) of the log: upto = cr_match_event_count(m) for now, a replay
 * cursor's cr_replay_event_at(r, k) for step k.  A new buffer of the
 * game's annals_size bytes that the caller frees with cr_free; NULL for a
 * game that keeps none, a lean match (no log) or out of memory.  Costs
 * one pass over the log; nothing in the match keeps it. */
void *cr_match_annals(const cr_match *m, uint32_t upto);

/* Takes back to the last decision `seat` made (the state before it), with
 * everything after it; CR_ERR_INVALID (err set) when it has made none. */
cr_status cr_match_undo(cr_match *m, int seat, char *err, size_t errcap);
/* The undo rule of a shared table: a seat may take back only its own
 * moves.  Returns the first human seat other than `seat` that decided
 * after `seat`'s last decision (an undo would take that decision back too), or
 * -1 when there is none (or `seat` has made no decision: cr_match_undo
 * then says so).  Seats are human or bot as they are now. */
int cr_match_undo_blocker(const cr_match *m, int seat);
/* The seat resigns / ran out of time: with bot_spec, that bot plays the
 * seat from now on; with NULL the match ends here. */
cr_status cr_match_resign(cr_match *m, int seat, const char *bot_spec, char *err, size_t errcap);
cr_status cr_match_timeout(cr_match *m, int seat, const char *bot_spec, char *err, size_t errcap);
/* Whether the seat resigned or timed out (and how: CR_MARK_RESIGN/TIMEOUT), 0 if not. */
int cr_match_left(const cr_match *m, int seat);

/* The result: the game's at a terminal state; for a match ended by
 * resignations or timeouts, the seats that left rank last and the others
 * share first place and the win. */
void cr_match_result(const cr_match *m, cr_result *out);

/* --- The lab's mode ---------------------------------------------------------
 * `croupier sim` plays millions of matches: CR_MATCH_LEAN keeps no event log
 * and no copy for the last action's text (cr_match_events_since and
 * cr_match_last_action_text then answer nothing); the events of the last
 * apply are still at hand (cr_match_last_events) unless CR_MATCH_NO_EVENTS.
 * cr_match_reset starts the same table and seats over with another seed,
 * keeping every buffer and bot, so a match can be reused game after game. */
enum { CR_MATCH_LEAN = 1u, CR_MATCH_NO_EVENTS = 2u };
void cr_match_configure(cr_match *m, unsigned flags);
cr_status cr_match_reset(cr_match *m, uint64_t seed);
/* The events of the last apply (valid until the next change). */
int cr_match_last_events(const cr_match *m, const cr_event **out);

/* Writes the record (with seats and seed: the owner's copy) to f. */
cr_status cr_match_save(const cr_match *m, FILE *f, char *err, size_t errcap) CR_MUST_CHECK;
/* Same, atomically to a file (written to PATH.tmp, then renamed). */
cr_status cr_match_save_file(const cr_match *m, const char *path, char *err,
                             size_t errcap) CR_MUST_CHECK;

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
