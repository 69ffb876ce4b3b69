/* tensor.c — an observation of 18Dracula as a fixed-size vector of floats,
 * for learning code (cr_game_parts.obs_tensor; the Python package's
 * State.observation_tensor).
 *
 * 18Dracula hides nothing (R7): an observation is the whole state, so every
 * seat's tensor is the same one, and the only chance event, the seating,
 * is public once drawn.  Seats are therefore absolute (block s is seat s;
 * a learner knows which seat it plays), and the board's maxima fix the
 * size whatever the board file: D18_MAX_ROUTES route spaces,
 * D18_MAX_LOCATIONS locations, D18_MAX_MONSTER_COPIES monster copies,
 * D18_MAXP seats, entries past the board's own counts are 0.  Money is in
 * thousands of pts, counts are divided by a typical maximum, so values lie
 * near [0, 1].  The layout, block by block with its offsets, is in
 * docs/python.md ("18Dracula's observation tensor"); a change to it
 * changes D18_TENSOR_SIZE and that table together.
 */
#include <string.h>

#include "croupier/parts.h"
#include "games/18dracula/board.h"
#include "games/18dracula/d18_internal.h"

enum {
    T_STAGE = 0,                      /* 13: D18_S_*, one-hot */
    T_PHASE = T_STAGE + 13,           /* 6: phase 0..5, one-hot */
    T_END = T_PHASE + 6,              /* 5: D18_END_*, one-hot */
    T_BROKE = T_END + 5,              /* 4: D18_BRK_*, one-hot */
    T_OR_STEP = T_BROKE + 4,          /* 5: D18_OS_*, one-hot */
    T_OP_ENT = T_OR_STEP + 5,         /* 11: entity operating (fronts, LL, BT), [10] none */
    T_SCALARS = T_OP_ENT + 11,        /* 20: see below */
    T_SEATS = T_SCALARS + 20,         /* D18_MAXP x T_SEAT_W */
    T_SEAT_W = 42,                    /* per seat, see below */
    T_ASSOC = T_SEATS + 6 * T_SEAT_W, /* D18_NASSOC x T_ASSOC_W */
    T_ASSOC_W = 18,                   /* owner one-hot (6 seats, 8 fronts, unsold), closed, price */
    T_FRONTS = T_ASSOC + 7 * T_ASSOC_W, /* D18_NFRONTS x T_FRONT_W */
    T_FRONT_W = 18,
    T_ROUTES = T_FRONTS + 8 * T_FRONT_W,      /* D18_MAX_ROUTES x 7 */
    T_LOCS = T_ROUTES + D18_MAX_ROUTES * 7,   /* D18_MAX_LOCATIONS x 12 */
    T_MONS = T_LOCS + D18_MAX_LOCATIONS * 12, /* D18_MAX_MONSTER_COPIES x 14 */
    D18_TENSOR_SIZE = T_MONS + D18_MAX_MONSTER_COPIES * 14,
};
_Static_assert(D18_MAXP == 6 && D18_NASSOC == 7 && D18_NFRONTS == 8 && D18_NENT == 10 &&
                   D18_S_OVER == 12 && D18_END_TECH_BANKRUPTCY == 4 && D18_NUM_COLOURS == 4,
               "the layout's one-hot widths follow these counts");
_Static_assert(D18_TENSOR_SIZE == 4810, "docs/python.md gives the layout: change both together");

static void onehot(float *v, int width, int k)
{
    if (k >= 0 && k < width) v[k] = 1;
}

static float thousands(int32_t pts) { return (float)pts / 1000.0f; }

size_t d18_obs_tensor(const cr_game *g, const void *obs, float *out, size_t cap);

size_t d18_obs_tensor(const cr_game *g, const void *obs, float *out, size_t cap)
{
    if (!out || cap < D18_TENSOR_SIZE) return D18_TENSOR_SIZE;
    const d18_state *s = obs;
    const d18_board *b = d18_brd(g);
    memset(out, 0, D18_TENSOR_SIZE * sizeof *out);
    onehot(out + T_STAGE, 13, s->stage);
    onehot(out + T_PHASE, 6, s->phase);
    onehot(out + T_END, 5, s->end_reason);
    onehot(out + T_BROKE, 4, s->broke_when);
    onehot(out + T_OR_STEP, 5, s->or_step);
    onehot(out + T_OP_ENT, 11, s->op_ent >= 0 ? s->op_ent : 10);

    float *x = out + T_SCALARS;
    x[0] = thousands(s->bank);
    x[1] = thousands(s->minor_cash[0]); /* LL */
    x[2] = thousands(s->minor_cash[1]); /* BT */
    x[3] = (float)s->tracker / 10.0f;
    x[4] = (float)s->or_no / 3.0f;
    x[5] = (float)s->ors_in_set / 3.0f;
    x[6] = (float)s->ors_played / 30.0f;
    x[7] = (float)s->sr_no / 20.0f;
    x[8] = thousands(s->revenue);
    x[9] = (float)s->build_used / 2.0f;
    x[10] = thousands(s->castle_top);
    x[11] = thousands(s->offer_price);
    for (int c = 0; c < D18_NUM_COLOURS; c++) x[12 + c] = (float)s->supply[c] / 30.0f;
    x[16] = (float)s->np / 6.0f;
    x[17] = (float)(s->bt_offices) / 2.0f;
    x[18] = s->minors_done & 1 ? 1.0f : 0.0f;
    x[19] = s->minors_done & 2 ? 1.0f : 0.0f;

    int to_act = g->def->current_player(g, s);
    for (int p = 0; p < s->np && p < D18_MAXP; p++) {
        float *v = out + T_SEATS + p * T_SEAT_W;
        v[0] = 1; /* at the table */
        v[1] = thousands(s->cash[p]);
        v[2] = to_act == p;
        v[3] = s->priority == p;
        v[4] = s->bankrupt == p;
        v[5] = s->castle_in >> p & 1;
        onehot(v + 6, 6, s->pos_of[p]); /* its place in the seating */
        for (int f = 0; f < D18_NFRONTS; f++) {
            v[12 + f] = (float)s->held[f][p] / 10.0f; /* shares held (president: 2) */
            v[20 + f] = s->sold_this_sr[p] >> f & 1;  /* sold in this stock round */
        }
        for (int a = 0; a < D18_NASSOC; a++) {
            v[28 + a] = s->assoc_owner[a] == p;       /* associates it owns */
            v[35 + a] = (float)s->bid[a][p] / 100.0f; /* its open bids */
        }
    }
    for (int a = 0; a < D18_NASSOC; a++) {
        float *v = out + T_ASSOC + a * T_ASSOC_W;
        int o = s->assoc_owner[a];
        onehot(v, 15, o == D18_UNSOLD ? 14 : o >= D18_OWN_FRONT ? 6 + o - D18_OWN_FRONT : o);
        v[15] = s->assoc_closed >> a & 1;
        v[16] = (float)s->assoc_price_now[a] / 100.0f;
        v[17] = s->offer_assoc == a;
    }
    for (int f = 0; f < D18_NFRONTS; f++) {
        float *v = out + T_FRONTS + f * T_FRONT_W;
        onehot(v, 7, s->pres[f] >= 0 ? s->pres[f] : 6); /* president, [6] not started */
        v[7] = (float)s->ipo[f] / 10.0f;
        v[8] = (float)s->pool[f] / 10.0f;
        v[9] = s->par_idx[f] >= 0 ? (float)(s->par_idx[f] + 1) / 8.0f : 0.0f;
        v[10] = s->mrow[f] >= 0 ? (float)(s->mrow[f] + 1) / 11.0f : 0.0f;
        v[11] = s->mcol[f] >= 0 ? (float)(s->mcol[f] + 1) / 22.0f : 0.0f;
        v[12] = thousands(s->treasury[f]);
        v[13] = s->floated >> f & 1;
        v[14] = (float)s->offices_used[f] / 8.0f;
        v[15] = s->operated >> f & 1;
        v[16] = s->op_front == f;
        v[17] = s->offer_to == f;
    }
    for (int r = 0; r < b->n_routes && r < D18_MAX_ROUTES; r++) {
        float *v = out + T_ROUTES + r * 7;
        onehot(v, 6, s->cube[r]); /* none, yellow, green, brown, red, pre-existing */
        v[6] = s->castle == r;
    }
    for (int l = 0; l < b->n_locations && l < D18_MAX_LOCATIONS; l++) {
        float *v = out + T_LOCS + l * 12;
        int spaces = b->loc[l].n_spaces;
        for (int k = 0; k < spaces && k < D18_MAX_OFFICE_SPACES; k++) {
            int occ = s->space_occ[l][k];
            if (occ == D18_OCC_EMPTY)
                v[11] += 1.0f / D18_MAX_OFFICE_SPACES;
            else if (occ >= D18_OCC_DOWN)
                v[10] += 1.0f; /* a face-down Church token */
            else if (occ < D18_NENT)
                v[occ] += 1.0f; /* an entity's office: fronts 0..7, LL, BT */
        }
    }
    for (int m = 0; m < b->n_copies && m < D18_MAX_MONSTER_COPIES; m++) {
        float *v = out + T_MONS + m * 14;
        int at = s->mon_at[m];
        onehot(v, 13, at >= D18_AT_ENTITY ? 3 + at - D18_AT_ENTITY : at); /* bank, market, gone */
        v[13] = s->mon_fresh[m / 8] >> (m % 8) & 1;
    }
    return D18_TENSOR_SIZE;
}
