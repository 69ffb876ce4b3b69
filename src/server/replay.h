/* server/replay.h — the table of a finished game at any step, for the
 * `replay` message (docs/protocol.md): the observation JSON of one view
 * (a seat's or the public one) after the first K actions of the record,
 * with the events those actions produced.  Only for a finished match: its
 * record and seed are public then, so every view is too.
 *
 * A step is rebuilt by the match layer's replay cursor (croupier/replay.h:
 * checkpoints every few actions, made as far as requests reach, and the
 * last step served when that is nearer, so stepping forwards costs one
 * apply).  Nothing here knows games or connections. */
#ifndef CR_SERVER_REPLAY_H
#define CR_SERVER_REPLAY_H

#include <stddef.h>

#include "croupier/match.h"
#include "croupier/text.h"

typedef struct sv_replay sv_replay;

/* The record actions of m: the steps are 0 .. sv_replay_steps(m). */
int sv_replay_steps(const cr_match *m);

/* The JSON members (no braces) describing step `step` of finished match m
 * for view `seat` (a seat or CR_SEAT_PUBLIC):
 *   "step":K,"steps":N,"players":P,"actor":A|null,"to_act":S|null,"observation":{...},
 *   "events":[{"seq":..,...}],"seq":E
 * (actor: who chose action K-1; events: those it produced, as the view sees
 * them; seq: the event count after it).  *cache is the caller's (made on
 * first use, for this m only: sv_replay_free it when m goes).  Returns a
 * malloc'd string, or NULL with err (m not over, step or seat out of
 * range, out of memory). */
char *sv_replay_step(sv_replay **cache, const cr_match *m, int step, int seat, char *err,
                     size_t errcap);

void sv_replay_free(sv_replay *r);

#endif
