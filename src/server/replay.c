/* server/replay.c — a finished game's table at any step (replay.h): the
 * `replay` message's JSON, read off the match layer's replay cursor
 * (croupier/replay.h), on a thread with a full-size stack. */
#include "server/replay.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "croupier/replay.h"
#include "croupier/text.h"
#include "match/view.h"

struct sv_replay {
    const cr_match *m; /* the match the cache was made for */
    const cr_game *g;
    cr_replay *cur; /* the cursor: its checkpoints make any step cheap */
    void *obs;      /* g->obs_size bytes */
    cr_text tmp;    /* renderings */
};

int sv_replay_steps(const cr_match *m) { return cr_match_record(m)->n_actions; }

void sv_replay_free(sv_replay *r)
{
    if (!r) return;
    cr_replay_free(r->cur);
    free(r->obs);
    cr_text_free(&r->tmp);
    free(r);
}

static sv_replay *replay_new(const cr_match *m)
{
    sv_replay *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->m = m;
    r->g = cr_match_game(m);
    r->cur = cr_replay_new(m);
    r->obs = malloc(r->g->obs_size);
    if (!r->cur || !r->obs) {
        sv_replay_free(r);
        return NULL;
    }
    return r;
}

/* Renders with an snprintf-style call into r->tmp, replacing its text;
 * out of memory leaves it empty (and the next rendering tries afresh). */
#define RENDER(r, call_with_buf_cap)                                                               \
    do {                                                                                           \
        cr_text_reset(&(r)->tmp);                                                                  \
        CR_TEXT_RENDER(&(r)->tmp, call_with_buf_cap);                                              \
        if ((r)->tmp.oom) cr_text_free(&(r)->tmp);                                                 \
    } while (0)

static char *replay_render(sv_replay *r, int step, int seat)
{
    const cr_game *g = r->g;
    const cr_match *m = r->m;
    int n = sv_replay_steps(m);
    cr_replay_seek(r->cur, step);
    const void *st = cr_replay_state(r->cur);
    cr_text f = CR_TEXT_INIT;
    cr_text_printf(&f, "\"step\":%d,\"steps\":%d,\"players\":%d", step, n, g->num_players);
    int actor = step > 0 ? cr_match_actor(m, step - 1) : CR_TERMINAL;
    if (actor >= 0)
        cr_text_printf(&f, ",\"actor\":%d", actor);
    else
        cr_text_puts(&f, ",\"actor\":null");
    int to_act = g->def->current_player(g, st);
    if (to_act >= 0 && step < n)
        cr_text_printf(&f, ",\"to_act\":%d", to_act);
    else
        cr_text_puts(&f, ",\"to_act\":null");
    g->def->observe(g, st, seat, r->obs);
    RENDER(r, g->def->obs_to_json(g, r->obs, buf, cap));
    cr_text_printf(&f, ",\"observation\":%s", r->tmp.len ? r->tmp.p : "null");
    /* the events of action step-1, numbered from 0 in the log */
    const cr_match_event *ev = NULL;
    int ne = cr_match_events_since(m, 0, &ev);
    int end = (int)cr_replay_event_at(r->cur, step);
    int first = step > 0 ? (int)cr_replay_event_at(r->cur, step - 1) : end;
    cr_text_puts(&f, ",\"events\":[");
    for (int i = first; i < end; i++) {
        RENDER(r, cr_match_event_json(m, &ev[i], seat, buf, cap));
        const char *j = cr_text_str(&r->tmp)[0] == '{' ? r->tmp.p : NULL;
        cr_text_printf(&f, "%s{\"seq\":%u", i > first ? "," : "", ev[i].seq);
        if (j && j[1] != '}')
            cr_text_printf(&f, ",%s", j + 1);
        else
            cr_text_puts(&f, "}");
    }
    /* the event count after this step */
    cr_text_printf(&f, "],\"seq\":%u", end < ne ? ev[end].seq : cr_match_event_count(m));
    /* the last step of a game ended by its rules: what each seat earned, as
     * in the update's result (docs/protocol.md) */
    if (step == n) cr_view_achievements_json(&f, g, st);
    return cr_text_take(&f); /* NULL when out of memory (cr_free is free) */
}

/* Replaying may apply thousands of actions (a game whose actions run a
 * long search): it runs on a thread with a full-size stack, as the server
 * rebuilds records (civetweb's workers have about 100 KiB). */
enum { SV_REPLAY_STACK = 8 << 20 };

typedef struct job {
    sv_replay *r;
    int step, seat;
    char *out;
} job;

static void *job_main(void *arg)
{
    job *j = arg;
    j->out = replay_render(j->r, j->step, j->seat);
    return NULL;
}

char *sv_replay_step(sv_replay **cache, const cr_match *m, int step, int seat, char *err,
                     size_t errcap)
{
    if (!cr_match_over(m)) {
        snprintf(err, errcap, "a game's steps are shown once it is over");
        return NULL;
    }
    const cr_game *g = cr_match_game(m);
    int n = sv_replay_steps(m);
    if (step < 0 || step > n) {
        snprintf(err, errcap, "'step' must be from 0 to %d", n);
        return NULL;
    }
    if (seat != CR_SEAT_PUBLIC && (seat < 0 || seat >= g->num_players)) {
        snprintf(err, errcap, "'seat' must be from 0 to %d, or absent for the public view",
                 g->num_players - 1);
        return NULL;
    }
    if (*cache && (*cache)->m != m) {
        sv_replay_free(*cache);
        *cache = NULL;
    }
    if (!*cache) *cache = replay_new(m);
    if (!*cache) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    job j = {*cache, step, seat, NULL};
    pthread_attr_t attr;
    pthread_t t;
    int ok = pthread_attr_init(&attr) == 0;
    if (ok) {
        ok = pthread_attr_setstacksize(&attr, SV_REPLAY_STACK) == 0 &&
             pthread_create(&t, &attr, job_main, &j) == 0;
        pthread_attr_destroy(&attr);
    }
    if (!ok) {
        snprintf(err, errcap, "cannot start a thread to replay the game");
        return NULL;
    }
    pthread_join(t, NULL);
    if (!j.out) snprintf(err, errcap, "out of memory");
    return j.out;
}
