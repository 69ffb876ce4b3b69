/* croupier/record.h — game records: the game, its parameters and every
 * action in order (chance outcomes included), as text (docs/records.md).
 *
 *   # croupier record
 *   game dml
 *   variant full
 *   players 4
 *   first-roller 0
 *   seed 42            (information only: replay uses the recorded outcomes)
 *   actions
 *   roll 3 4
 *   ...
 *
 * A record may be unfinished; loading it resumes the game where it stopped. */
#ifndef CROUPIER_RECORD_H
#define CROUPIER_RECORD_H

#include <stdio.h>

#include "croupier/game.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cr_record {
    char game[32];
    char variant[32];
    int num_players;
    int first_roller;
    uint64_t seed;
    int has_seed;
    cr_action *actions; /* owned */
    int n_actions, cap_actions;
} cr_record;

void cr_record_init(cr_record *r);
void cr_record_fini(cr_record *r);
cr_status cr_record_push(cr_record *r, cr_action a) CR_MUST_CHECK;

/* Writes the record: the header, then each action's text in the state it was
 * applied to (the game is replayed to produce the text). */
cr_status cr_record_write(const cr_record *r, FILE *f, char *err, size_t errcap) CR_MUST_CHECK;

/* Reads and replays a record: on success *g_out is the game (caller frees)
 * and st_out (allocated with cr_alloc, caller frees) the state after the last
 * action; r gets the actions.  On error err names the line and the problem. */
cr_status cr_record_load(const char *text, size_t len, cr_record *r, cr_game **g_out, void **st_out,
                         char *err, size_t errcap) CR_MUST_CHECK;

#ifdef __cplusplus
}
#endif
#endif
