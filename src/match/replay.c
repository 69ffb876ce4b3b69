/* replay.c — one cursor over a match's record (croupier/replay.h).
 *
 * The cursor holds `cur`, the state after `at` actions; `ck`, the
 * checkpoints made so far (ck[i] is the state after i * interval actions,
 * i < n_ck); and `before`, the state after before_at actions, kept for the
 * notation of action at-1.  A move to k starts from `cur` when at is
 * between k's checkpoint and k, else from that checkpoint, so stepping
 * forwards costs one apply and any move at most `interval`.  Invariants:
 * cur is the state after `at` actions; before, when before_at >= 0, the
 * state after before_at actions; ck[0..n_ck) are exact. */
#include "croupier/replay.h"

#include <string.h>

#include "croupier/alloc.h"

struct cr_replay {
    const cr_match *m;
    const cr_game *g;
    const cr_record *rec;
    cr_ctx *cx;
    int n;        /* actions in the record */
    int interval; /* actions between checkpoints */
    int max_ck;   /* room in ck: n / interval + 1 states */
    int n_ck;     /* checkpoints made */
    char *ck;
    int at;
    char *cur;
    int before_at; /* the step `before` holds, -1: none */
    char *before;
};

void cr_replay_free(cr_replay *r)
{
    if (!r) return;
    cr_ctx_free(r->cx);
    cr_free(r->ck);
    cr_free(r->cur);
    cr_free(r->before);
    cr_free(r);
}

cr_replay *cr_replay_new(const cr_match *m)
{
    cr_replay *r = cr_calloc(1, sizeof *r);
    if (!r) return NULL;
    r->m = m;
    r->g = cr_match_game(m);
    r->rec = cr_match_record(m);
    r->n = r->rec->n_actions;
    r->interval = (r->n + CR_REPLAY_CHECKPOINTS - 1) / CR_REPLAY_CHECKPOINTS;
    if (r->interval < CR_REPLAY_MIN_INTERVAL) r->interval = CR_REPLAY_MIN_INTERVAL;
    r->max_ck = r->n / r->interval + 1;
    size_t sz = r->g->state_size;
    r->cx = cr_ctx_new(r->g);
    r->ck = cr_alloc(sz * (size_t)r->max_ck);
    r->cur = cr_alloc(sz);
    r->before = cr_alloc(sz);
    if (!r->cx || !r->ck || !r->cur || !r->before) {
        cr_replay_free(r);
        return NULL;
    }
    /* checkpoint 0: the state the record starts from */
    r->g->def->init(r->g, r->ck);
    r->n_ck = 1;
    memcpy(r->cur, r->ck, sz);
    r->at = 0;
    r->before_at = -1;
    return r;
}

const cr_match *cr_replay_match(const cr_replay *r) { return r->m; }
int cr_replay_steps(const cr_replay *r) { return r->n; }
int cr_replay_at(const cr_replay *r) { return r->at; }
const void *cr_replay_state(const cr_replay *r) { return r->cur; }

static void apply_one(cr_replay *r, void *st, int i)
{
    r->g->def->apply(r->g, st, r->rec->actions[i], r->cx);
}

/* Brings st, the state after *st_at actions, to the state after k: from
 * st itself when it is at or before k and no further back than k's
 * checkpoint, else from that checkpoint (made first when missing).  With
 * keep_before, the state before the last action applied goes into
 * r->before. */
static void bring_to(cr_replay *r, char *st, int *st_at, int k, int keep_before)
{
    size_t sz = r->g->state_size;
    int c = k / r->interval;
    while (r->n_ck <= c) { /* each checkpoint from the one before */
        char *dst = r->ck + sz * (size_t)r->n_ck;
        memcpy(dst, dst - sz, sz);
        int from = (r->n_ck - 1) * r->interval;
        for (int i = from; i < from + r->interval; i++) apply_one(r, dst, i);
        r->n_ck++;
    }
    if (!(*st_at >= c * r->interval && *st_at <= k)) {
        memcpy(st, r->ck + sz * (size_t)c, sz);
        *st_at = c * r->interval;
    }
    for (; *st_at < k; (*st_at)++) {
        if (keep_before && *st_at == k - 1) {
            memcpy(r->before, st, sz);
            r->before_at = k - 1;
        }
        apply_one(r, st, *st_at);
    }
}

void cr_replay_seek(cr_replay *r, int k)
{
    if (k < 0) k = 0;
    if (k > r->n) k = r->n;
    bring_to(r, r->cur, &r->at, k, 1);
}

const void *cr_replay_state_before(cr_replay *r)
{
    if (r->at == 0) return NULL;
    if (r->before_at != r->at - 1) bring_to(r, r->before, &r->before_at, r->at - 1, 0);
    return r->before;
}

uint32_t cr_replay_event_at(const cr_replay *r, int i)
{
    const cr_match_event *ev = NULL;
    int lo = 0, hi = cr_match_events_since(r->m, 0, &ev);
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (ev[mid].action_index < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (uint32_t)lo;
}
