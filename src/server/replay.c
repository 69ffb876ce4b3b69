/* server/replay.c — a finished game's table at any step (replay.h). */
#include "server/replay.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "croupier/parts.h"
#include "croupier/text.h"

struct sv_replay {
    const cr_match *m; /* the match the cache was made for */
    const cr_game *g;
    cr_ctx *cx;
    int interval;
    int n_ck;    /* checkpoints made: ck[i] is the state after i * interval actions */
    char *ck;    /* SV_REPLAY_CHECKPOINTS states */
    int at;      /* the step `cur` holds, -1: none */
    char *cur;   /* the state of the last step served */
    void *obs;   /* g->obs_size bytes */
    cr_text tmp; /* renderings */
};

int sv_replay_steps(const cr_match *m) { return cr_match_record(m)->n_actions; }

void sv_replay_free(sv_replay *r)
{
    if (!r) return;
    cr_ctx_free(r->cx);
    free(r->ck);
    free(r->cur);
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
    int n = sv_replay_steps(m);
    r->interval = (n + SV_REPLAY_CHECKPOINTS - 1) / SV_REPLAY_CHECKPOINTS;
    if (r->interval < SV_REPLAY_MIN_INTERVAL) r->interval = SV_REPLAY_MIN_INTERVAL;
    r->cx = cr_ctx_new(r->g);
    r->ck = malloc(r->g->state_size * SV_REPLAY_CHECKPOINTS);
    r->cur = malloc(r->g->state_size);
    r->obs = malloc(r->g->obs_size);
    r->at = -1;
    if (!r->cx || !r->ck || !r->cur || !r->obs) {
        sv_replay_free(r);
        return NULL;
    }
    /* checkpoint 0: the state the record starts from */
    r->g->def->init(r->g, r->ck);
    r->n_ck = 1;
    return r;
}

/* Puts the state after `step` actions into r->cur. */
static void replay_seek(sv_replay *r, int step)
{
    const cr_record *rec = cr_match_record(r->m);
    size_t sz = r->g->state_size;
    int k = step / r->interval;
    if (k >= SV_REPLAY_CHECKPOINTS) k = SV_REPLAY_CHECKPOINTS - 1;
    /* make the checkpoints up to k, each from the one before */
    while (r->n_ck <= k) {
        char *dst = r->ck + sz * (size_t)r->n_ck;
        memcpy(dst, r->ck + sz * (size_t)(r->n_ck - 1), sz);
        int from = (r->n_ck - 1) * r->interval;
        for (int i = from; i < from + r->interval; i++)
            r->g->def->apply(r->g, dst, rec->actions[i], r->cx);
        r->n_ck++;
    }
    int base = k * r->interval;
    if (!(r->at >= base && r->at <= step)) {
        memcpy(r->cur, r->ck + sz * (size_t)k, sz);
        r->at = base;
    }
    for (; r->at < step; r->at++) r->g->def->apply(r->g, r->cur, rec->actions[r->at], r->cx);
}

/* Renders with an snprintf-style call into r->tmp, replacing its text. */
#define RENDER(r, call_with_buf_cap)                                                               \
    do {                                                                                           \
        cr_text_reset(&(r)->tmp);                                                                  \
        CR_TEXT_RENDER(&(r)->tmp, call_with_buf_cap);                                              \
    } while (0)

/* The first event of ev[0..n) produced by action `index` or a later one. */
static int first_event(const cr_match_event *ev, int n, int index)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (ev[mid].action_index < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* s as a JSON string (the game's static words: escapes the quote, the
 * backslash and control characters). */
static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* ,"achievements":[[{key, title, words}, ...] per seat] of the state st
 * (empty lists for a game that did not end by its rules: a resignation). */
static void write_achievements(FILE *f, const cr_game *g, const void *st)
{
    const cr_game_parts *parts = cr_parts(g);
    fprintf(f, ",\"achievements\":[");
    for (int s = 0; s < g->num_players; s++) {
        const char *keys[64];
        int n = parts->achievements ? parts->achievements(g, st, s, keys, 64) : 0;
        fprintf(f, "%s[", s ? "," : "");
        for (int i = 0; i < n; i++) {
            const cr_achievement *a =
                cr_achievement_find(parts->achievement_list, parts->n_achievements, keys[i]);
            fprintf(f, "%s{\"key\":", i ? "," : "");
            json_str(f, keys[i]);
            fprintf(f, ",\"title\":");
            json_str(f, a ? a->title : keys[i]);
            fprintf(f, ",\"words\":");
            json_str(f, a ? a->words : "");
            fputc('}', f);
        }
        fputc(']', f);
    }
    fputc(']', f);
}

static char *replay_render(sv_replay *r, int step, int seat)
{
    const cr_game *g = r->g;
    const cr_match *m = r->m;
    int n = sv_replay_steps(m);
    replay_seek(r, step);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (!f) return NULL;
    fprintf(f, "\"step\":%d,\"steps\":%d,\"players\":%d", step, n, g->num_players);
    int actor = step > 0 ? cr_match_actor(m, step - 1) : CR_TERMINAL;
    if (actor >= 0)
        fprintf(f, ",\"actor\":%d", actor);
    else
        fprintf(f, ",\"actor\":null");
    int to_act = g->def->current_player(g, r->cur);
    if (to_act >= 0 && step < n)
        fprintf(f, ",\"to_act\":%d", to_act);
    else
        fprintf(f, ",\"to_act\":null");
    g->def->observe(g, r->cur, seat, r->obs);
    RENDER(r, g->def->obs_to_json(g, r->obs, buf, cap));
    fprintf(f, ",\"observation\":%s", r->tmp.len ? r->tmp.p : "null");
    /* the events of action step-1: the log is ordered by action index, and
     * its events are numbered from 0 */
    const cr_match_event *ev = NULL;
    int ne = cr_match_events_since(m, 0, &ev);
    int first = step > 0 ? first_event(ev, ne, step - 1) : 0;
    int end = first_event(ev, ne, step);
    if (step == 0) first = end;
    fprintf(f, ",\"events\":[");
    for (int i = first; i < end; i++) {
        RENDER(r, cr_match_event_json(m, &ev[i], seat, buf, cap));
        const char *j = cr_text_str(&r->tmp)[0] == '{' ? r->tmp.p : NULL;
        fprintf(f, "%s{\"seq\":%u", i > first ? "," : "", ev[i].seq);
        if (j && j[1] != '}')
            fprintf(f, ",%s", j + 1);
        else
            fprintf(f, "}");
    }
    /* the event count after this step */
    fprintf(f, "],\"seq\":%u", end < ne ? ev[end].seq : cr_match_event_count(m));
    /* the last step of a game ended by its rules: what each seat earned, as
     * in the update's result (docs/protocol.md) */
    if (step == n) write_achievements(f, g, r->cur);
    if (fclose(f) != 0) {
        free(out);
        return NULL;
    }
    return out;
}

/* Replaying may apply thousands of actions (18Dracula's rampages search
 * routes): it runs on a thread with a full-size stack, as the server
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
