/* croupier/replay.h — one cursor over a match's record: the state after
 * any number K of its actions, reached quickly in either direction, with
 * the log entries the K-th action produced.  Every client that replays a
 * game uses it: `croupier replay` (its --log and its line stepper), the
 * full-screen client's viewer, and the server's `replay` message.
 *
 * Cost.  The cursor keeps a checkpoint, a copy of the state, every
 * `interval` actions (interval = max(CR_REPLAY_MIN_INTERVAL, n /
 * CR_REPLAY_CHECKPOINTS rounded up), so at most CR_REPLAY_CHECKPOINTS + 1
 * copies), each made the first time a move reaches past it.  Moving to K
 * then costs at most `interval` applies from the nearest checkpoint at or
 * before K, and one apply when K is the next step.  The actions are
 * applied without checking them again: the match checked each one when it
 * loaded or played it.
 *
 * The match is borrowed: it must outlive the cursor, and its record must
 * not change meanwhile (a finished or loaded match).  Not on the hot path:
 * the cursor allocates its checkpoints. */
#ifndef CROUPIER_REPLAY_H
#define CROUPIER_REPLAY_H

#include <stdint.h>

#include "croupier/match.h"

#ifdef __cplusplus
extern "C" {
#endif
/* The library exports what this header declares (CMakeLists.txt builds it
 * with every other symbol hidden). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

enum { CR_REPLAY_CHECKPOINTS = 256, CR_REPLAY_MIN_INTERVAL = 16 };

typedef struct cr_replay cr_replay;

/* A cursor at step 0 (the state the record starts from) of m's record;
 * NULL when out of memory.  Free it with cr_replay_free. */
cr_replay *cr_replay_new(const cr_match *m);
void cr_replay_free(cr_replay *r);

/* The match it replays, and its number of actions n: the steps are 0 .. n. */
const cr_match *cr_replay_match(const cr_replay *r);
int cr_replay_steps(const cr_replay *r);
/* The step the cursor is at. */
int cr_replay_at(const cr_replay *r);

/* Moves the cursor to step k, clamped to [0, n]. */
void cr_replay_seek(cr_replay *r, int k);
/* The state after the first cr_replay_at() actions (borrowed: valid until
 * the next seek). */
const void *cr_replay_state(const cr_replay *r);
/* The state before the cursor's last action, the one action at-1 was
 * chosen in (for its notation); NULL at step 0.  Borrowed like the state;
 * right after a seek one step forwards it costs nothing, else at most
 * `interval` applies. */
const void *cr_replay_state_before(cr_replay *r);

/* Where action i's entries start in the match's log (cr_match_events_since
 * numbering): the first entry produced by action i or a later one, for i
 * in [0, n] (at n: the log's length).  The entries of action i are
 * [event_at(i), event_at(i + 1)).  O(log of the log's length). */
uint32_t cr_replay_event_at(const cr_replay *r, int i);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif
