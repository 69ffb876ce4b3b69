/* server/coach.c — the coach's messages (docs/protocol.md): `analyse`, a
 * finished game's seat's every decision evaluated by search
 * (croupier/analysis.h, cr_analyse_record), and `hint`, what a tier would
 * play for the asking seat now (cr_hint_think).
 *
 * Both run on the asking connection's thread (which answers nothing else
 * of that client meanwhile) and never under a game's lock: under g->mu an
 * analysis copies the record's actions, a hint the seat's observation and
 * legal actions; the search runs on that copy, with the game's bot_game
 * (which lives as long as g, of which the handler holds a reference).  A
 * hint is worded under the lock again, and only if the game has not moved
 * on.  What bounds them (server_internal.h): SV_ANALYSES analyses and
 * SV_HINTS hints at once server-wide, one of each per client address, at
 * most SV_ANALYSE_ITERS_MAX iterations a decision, an analysis stopped after
 * SV_ANALYSE_SECONDS or when the server stops, a hint's tier within the
 * server's bot limits.  The last SV_ANALYSIS_CACHE analyses are kept.
 *
 * Nothing leaks: an analysis is given only for a finished game, whose
 * record is public then (`record`), and it reads only what the seat
 * observed; a hint is given only to the seat's own connection, reads only
 * its observation, and only at a table that allows hints
 * (cr_match_hints_allowed: one human, or every player agreed at the
 * creation). */
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "croupier/alloc.h"
#include "croupier/analysis.h"
#include "croupier/parts.h"
#include "server/server_internal.h"

/* ---- the caps: a slot per running job, named by the client's address ---- */

/* Takes a free slot of `slots` (n of them) for addr under table_mu: its
 * index, -1 when addr already has one, -2 when all are taken. */
static int sv_slot_take(sv_server *sv, char (*slots)[48], int n, const char *addr)
{
    int got = -2;
    pthread_mutex_lock(&sv->table_mu);
    for (int i = 0; i < n; i++)
        if (slots[i][0] && strcmp(slots[i], addr) == 0) {
            pthread_mutex_unlock(&sv->table_mu);
            return -1;
        }
    for (int i = 0; i < n && got < 0; i++)
        if (!slots[i][0]) {
            snprintf(slots[i], sizeof slots[i], "%s", addr[0] ? addr : "?");
            got = i;
        }
    pthread_mutex_unlock(&sv->table_mu);
    return got;
}

static void sv_slot_give(sv_server *sv, char (*slots)[48], int i)
{
    pthread_mutex_lock(&sv->table_mu);
    slots[i][0] = '\0';
    pthread_mutex_unlock(&sv->table_mu);
}

void sv_coach_free(sv_server *sv)
{
    for (int i = 0; i < SV_ANALYSIS_CACHE; i++) free(sv->analyses[i].json);
}

/* ---- analyse ---- */

static const char *sv_mark_word(cr_move_mark m)
{
    return m == CR_MOVE_BLUNDER ? "blunder" : m == CR_MOVE_DOUBTFUL ? "doubtful" : "fine";
}

typedef struct sv_analyse_job {
    sv_server *sv;
    const cr_game *g;
    cr_record r; /* the actions only */
    int seat;
    long iters;
    double deadline;
    int timed_out;
    cr_status rc;
    char err[256];
    char *json; /* the members, malloc'ed */
} sv_analyse_job;

static int sv_analyse_tick(void *ctx, int done, int total)
{
    (void)done;
    (void)total;
    sv_analyse_job *j = ctx;
    if (__atomic_load_n(&j->sv->conns_stop, __ATOMIC_ACQUIRE)) return 1;
    if (sv_mono() > j->deadline) {
        j->timed_out = 1;
        return 1;
    }
    return 0;
}

/* The reply's members, as `croupier analyse --json` prints its object
 * (each move in the game's notation), from the entries. */
static char *sv_analysis_json(const sv_analyse_job *j, const char *id, const cr_analysis_entry *e,
                              int n, const cr_analysis_summary *sum)
{
    const cr_game *g = j->g;
    void *st = cr_alloc(g->state_size);
    cr_ctx *cx = cr_ctx_new(g);
    cr_text b = CR_TEXT_INIT;
    int ok = st && cx;
    if (ok) {
        g->def->init(g, st);
        cr_text_printf(&b, "\"game_id\":\"%s\",\"game\":", id);
        cr_text_json_utf8(&b, g->def->name);
        cr_text_printf(&b, ",\"seat\":%d,\"iters\":%ld,\"seed\":1,\"decisions\":[", j->seat,
                       j->iters);
        int at = 0;
        for (int i = 0; i < n && ok; i++) {
            while (ok && at < e[i].step)
                ok = cr_apply_checked(g, st, j->r.actions[at++], cx) == CR_OK;
            char played[128], best[128];
            g->def->action_to_str(g, st, e[i].played, played, sizeof played);
            g->def->action_to_str(g, st, e[i].best, best, sizeof best);
            cr_text_printf(&b, "%s{\"step\":%d,\"decision\":%d,\"choices\":%d,\"played\":",
                           i ? "," : "", e[i].step + 1, e[i].decision + 1, e[i].n_choices);
            cr_text_json_utf8(&b, played);
            cr_text_printf(&b, ",\"played_win\":%.6g,\"best\":", e[i].played_win);
            cr_text_json_utf8(&b, best);
            cr_text_printf(&b, ",\"best_win\":%.6g,\"loss\":%.6g,\"stderr\":%.6g,\"mark\":\"%s\"}",
                           e[i].best_win, e[i].loss, e[i].stderr_loss, sv_mark_word(e[i].mark));
        }
        cr_text_printf(&b,
                       "],\"summary\":{\"analysed\":%d,\"doubtful\":%d,\"blunders\":%d,"
                       "\"total_loss\":%.6g,\"error_rate\":%.6g}",
                       sum->decisions, sum->doubtful, sum->blunders, sum->total_loss,
                       sum->error_rate);
    }
    cr_ctx_free(cx);
    cr_free(st);
    char *out = NULL;
    if (ok && !b.oom) {
        char *t = cr_text_take(&b);
        out = t ? strdup(t) : NULL;
        cr_free(t);
    }
    cr_text_free(&b);
    return out;
}

typedef struct sv_analyse_run {
    sv_analyse_job *j;
    const char *id;
} sv_analyse_run;

static void *sv_analyse_thread(void *arg)
{
    sv_analyse_run *run = arg;
    sv_analyse_job *j = run->j;
    cr_analysis_opts o = {.iters = j->iters, .threads = 1, .seed = 1};
    cr_analysis_entry *e = NULL;
    int n = 0;
    cr_analysis_summary sum;
    j->rc = cr_analyse_record(j->g, &j->r, j->seat, &o, &e, &n, &sum, sv_analyse_tick, j, j->err,
                              sizeof j->err);
    if (j->rc == CR_OK) {
        j->json = sv_analysis_json(j, run->id, e, n, &sum);
        if (!j->json) {
            j->rc = CR_ERR_NOMEM;
            snprintf(j->err, sizeof j->err, "out of memory");
        }
    }
    cr_free(e);
    return NULL;
}

static void sv_send_analysis(sv_conn *c, const sv_msg *m, const char *members)
{
    cr_text b = CR_TEXT_INIT;
    sv_frame_begin(&b, "analysis", m);
    cr_text_puts(&b, ",");
    cr_text_puts(&b, members);
    sv_frame_send(c, m, &b);
    cr_text_free(&b);
}

/* The cached analysis of (id, seat, iters), copied; NULL if none. */
static char *sv_cached(sv_server *sv, const char *id, int seat, long iters)
{
    char *out = NULL;
    pthread_mutex_lock(&sv->table_mu);
    for (int i = 0; i < SV_ANALYSIS_CACHE && !out; i++) {
        struct sv_analysis_cached *a = &sv->analyses[i];
        if (a->json && a->seat == seat && a->iters == iters && strcmp(a->id, id) == 0)
            out = strdup(a->json);
    }
    pthread_mutex_unlock(&sv->table_mu);
    return out;
}

static void sv_cache(sv_server *sv, const char *id, int seat, long iters, const char *json)
{
    char *copy = strdup(json);
    if (!copy) return;
    pthread_mutex_lock(&sv->table_mu);
    struct sv_analysis_cached *a = &sv->analyses[sv->analyses_next];
    sv->analyses_next = (sv->analyses_next + 1) % SV_ANALYSIS_CACHE;
    free(a->json);
    snprintf(a->id, sizeof a->id, "%s", id);
    a->seat = seat;
    a->iters = iters;
    a->json = copy;
    pthread_mutex_unlock(&sv->table_mu);
}

void sv_h_analyse(sv_conn *c, const sv_msg *m)
{
    sv_server *sv = c->srv;
    long iters = (long)m->iters;
    char *hit = sv_cached(sv, m->game_id, m->seat, iters);
    if (hit) {
        sv_send_analysis(c, m, hit);
        free(hit);
        return;
    }
    int slot = sv_slot_take(sv, sv->analysing, SV_ANALYSES, c->addr);
    if (slot < 0) {
        char msg[160];
        if (slot == -1)
            snprintf(msg, sizeof msg,
                     "one analysis at a time from one address; ask again when "
                     "it is done");
        else
            snprintf(msg, sizeof msg,
                     "the server runs at most %d analyses at once; ask again "
                     "shortly",
                     SV_ANALYSES);
        sv_send_error(c, m, "limit", msg);
        return;
    }
    int busy = 0;
    sv_game *g = sv_find_game(sv, m->game_id, &busy);
    if (busy) {
        sv_slot_give(sv, sv->analysing, slot);
        sv_send_busy(c, m);
        return;
    }
    if (!g || !g->m) {
        sv_game_put(g);
        sv_slot_give(sv, sv->analysing, slot);
        sv_send_error(c, m, g ? "outdated" : "no_game",
                      g ? "this game cannot be replayed" : "no such game");
        return;
    }
    sv_analyse_job j;
    memset(&j, 0, sizeof j);
    j.sv = sv;
    j.g = g->bot_game;
    j.seat = m->seat;
    j.iters = iters;
    const char *code = NULL;
    char why[320] = "";
    pthread_mutex_lock(&g->mu);
    int over = cr_match_over(g->m), np = cr_match_game(g->m)->num_players;
    if (!over) {
        code = "not_finished";
        snprintf(why, sizeof why, "a game is analysed once it is over");
    } else if (m->seat >= np) {
        code = "bad_request";
        snprintf(why, sizeof why, "'seat' must be from 0 to %d", np - 1);
    } else {
        const cr_record *r = cr_match_record(g->m);
        cr_record_init(&j.r);
        for (int i = 0; i < r->n_actions && !code; i++)
            if (cr_record_push(&j.r, r->actions[i]) != CR_OK) {
                code = "limit";
                snprintf(why, sizeof why, "out of memory");
            }
    }
    pthread_mutex_unlock(&g->mu);
    if (!code) {
        j.deadline = sv_mono() + SV_ANALYSE_SECONDS;
        sv_analyse_run run = {&j, g->meta.id};
        if (!sv_run_on_stack(SV_REPLAY_STACK, sv_analyse_thread, &run)) {
            code = "limit";
            snprintf(why, sizeof why, "cannot start a thread to analyse the game");
        } else if (j.rc != CR_OK) {
            code = "limit";
            if (j.timed_out)
                snprintf(why, sizeof why,
                         "the analysis took over %d s: ask for fewer iterations ('iters')",
                         SV_ANALYSE_SECONDS);
            else
                snprintf(why, sizeof why, "%s", j.err);
        }
    }
    cr_record_fini(&j.r);
    sv_slot_give(sv, sv->analysing, slot);
    if (code) {
        sv_send_error(c, m, code, why);
    } else {
        sv_cache(sv, g->meta.id, m->seat, iters, j.json);
        sv_send_analysis(c, m, j.json);
        sv_log(sv, "game %s: P%d analysed (%ld iterations a decision)", g->meta.id, m->seat, iters);
    }
    free(j.json);
    sv_game_put(g);
}

/* ---- hint ---- */

typedef struct sv_hint_job {
    const cr_game *g;
    int seat;
    const char *tier;
    uint64_t seed;
    const void *obs;
    const cr_action *legal;
    int n;
    cr_hint h;
    cr_status rc;
    char err[256];
} sv_hint_job;

static void *sv_hint_thread(void *arg)
{
    sv_hint_job *j = arg;
    j->rc = cr_hint_think(j->g, j->seat, j->tier, j->seed, j->obs, j->legal, j->n, &j->h, j->err,
                          sizeof j->err);
    return NULL;
}

void sv_h_hint(sv_conn *c, const sv_msg *m)
{
    sv_server *sv = c->srv;
    sv_game *g = c->game;
    if (!g || c->seat < 0) {
        sv_send_error(c, m, "not_seated", "a hint is for a seat: sit at one first");
        return;
    }
    int slot = sv_slot_take(sv, sv->hinting, SV_HINTS, c->addr);
    if (slot < 0) {
        sv_send_error(c, m, "limit",
                      slot == -1 ? "one hint at a time from one address"
                                 : "the server is busy with other hints; ask again shortly");
        return;
    }
    sv_game_hold(g);
    int seat = c->seat;
    const char *code = NULL;
    char why[320] = "", tier[SV_TIER_MAX] = "", line[512];
    void *obs = NULL;
    cr_action *legal = NULL;
    uint64_t version = 0;
    int n = 0;
    sv_hint_job j;
    memset(&j, 0, sizeof j);
    pthread_mutex_lock(&g->mu);
    sv_sync(g);
    if (g->outdated || !g->m) {
        code = "outdated";
        snprintf(why, sizeof why, "this game cannot be played on");
    } else if (!cr_match_hints_allowed(g->m)) {
        code = "illegal";
        snprintf(why, sizeof why,
                 "no hints in a game with other human players, unless all agreed when the table "
                 "was made");
    } else if (cr_match_to_act(g->m) != seat) {
        code = "not_your_turn";
        snprintf(why, sizeof why, "a hint is for the seat to act");
    } else {
        const cr_game *gm = cr_match_game(g->m);
        const cr_game_parts *parts = cr_parts(gm);
        const char *t = cr_hint_tier(gm, m->tier);
        int known = 0;
        for (int i = 0; t && i < parts->n_tiers; i++) known |= strcmp(parts->tiers[i].name, t) == 0;
        char err[200];
        if (!t || !known) {
            code = "bad_request";
            size_t len =
                (size_t)snprintf(why, sizeof why, "'tier' must be one of this game's tiers:");
            for (int i = 0; i < parts->n_tiers && len < sizeof why; i++)
                len += (size_t)snprintf(why + len, sizeof why - len, " %s", parts->tiers[i].name);
        } else if (!sv_bot_allowed(sv, gm->def, t, err, sizeof err)) {
            code = "limit";
            snprintf(why, sizeof why, "tier %s: %s", t, err);
        } else {
            snprintf(tier, sizeof tier, "%s", t);
            size_t ml = (size_t)(gm->max_legal > 0 ? gm->max_legal : 1);
            obs = cr_alloc(gm->obs_size ? gm->obs_size : 1);
            legal = cr_alloc(ml * sizeof *legal);
            if (!obs || !legal) {
                code = "limit";
                snprintf(why, sizeof why, "out of memory");
            } else {
                cr_match_observe(g->m, seat, obs);
                n = cr_match_legal(g->m, seat, legal);
                version = g->version;
                j.g = g->bot_game;
                j.seat = seat;
                j.tier = tier;
                j.seed = (uint64_t)cr_match_record(g->m)->n_actions;
                j.obs = obs;
                j.legal = legal;
                j.n = n;
            }
        }
    }
    pthread_mutex_unlock(&g->mu);
    if (!code) {
        if (!sv_run_on_stack(SV_REPLAY_STACK, sv_hint_thread, &j)) {
            code = "limit";
            snprintf(why, sizeof why, "cannot start a thread for the hint");
        } else if (j.rc != CR_OK) {
            code = "limit";
            snprintf(why, sizeof why, "%s", j.err);
        }
    }
    if (!code) {
        pthread_mutex_lock(&g->mu);
        if (!g->m || g->outdated || g->version != version || cr_match_to_act(g->m) != seat) {
            code = "stale";
            snprintf(why, sizeof why, "the game moved on while the hint was thought out");
        } else {
            cr_hint_text(g->m, seat, tier, &j.h, line, sizeof line);
        }
        pthread_mutex_unlock(&g->mu);
    }
    cr_free(obs);
    cr_free(legal);
    sv_slot_give(sv, sv->hinting, slot);
    sv_game_put(g);
    if (code) {
        sv_send_error(c, m, code, why);
        return;
    }
    cr_text b = CR_TEXT_INIT;
    sv_frame_begin(&b, "hint", m);
    cr_text_printf(&b, ",\"seat\":%d,\"tier\":", seat);
    cr_text_json_utf8(&b, tier);
    cr_text_puts(&b, ",\"text\":");
    cr_text_json_utf8(&b, line);
    sv_frame_send(c, m, &b);
    cr_text_free(&b);
}
