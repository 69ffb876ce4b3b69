/* server/games.c — the live games table.  A game (sv_game) is a match
 * (cr_match) with what the server keeps beside it: its store metadata, the
 * record entries not stored yet, its bots' scratch, its clock, its webhook
 * and its followers.  This room builds a game from the store (its record
 * replayed through the match layer), keeps the table of running games
 * (with references: the last sv_game_put frees a game), takes running
 * games over from a shared store, stores a game's new entries, renders the
 * update a follower gets, and runs the clocks.
 *
 * The table holds the running games (and running games that cannot be
 * played, outdated).  A game leaves it once it is finished and its last
 * update went out; a finished game asked for later is loaded from the
 * store for that request or that follower only.
 *
 * Lock order: g->mu, then table_mu (a leaf).  Lookups take table_mu alone
 * and hand out a reference; the clock thread lets go of table_mu before it
 * locks a game.
 *
 * Durability: sv_collect turns the match's new record entries into
 * pending entries, sv_flush appends them (with the clock, in one
 * transaction) and only then may anyone be told; sv_sync flushes before
 * any view is built, so no client sees an entry the store does not hold.
 * A failed append rebuilds the match from the store.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "civetweb.h"
#include "croupier/bot.h"
#include "croupier/match.h"
#include "croupier/parts.h"
#include "server/accept_cap.h"
#include "server/server_internal.h"

/* ---- building a match from the store ---- */

const cr_game_def *sv_def(const char *name) { return cr_registry_find(name); }

/* The table parameters of meta; key/value strings live in keys/vals. */
static int sv_params(const cr_store_game *meta, cr_params *p, char keys[][SV_OPT_MAX],
                     char vals[][SV_OPT_MAX], char *err, size_t errcap)
{
    memset(p, 0, sizeof *p);
    p->num_players = meta->players;
    p->variant = meta->variant[0] ? meta->variant : NULL;
    json_error_t je;
    json_t *o = json_loads(meta->options_json[0] ? meta->options_json : "{}", 0, &je);
    if (!json_is_object(o)) {
        json_decref(o);
        snprintf(err, errcap, "bad options in the store");
        return 0;
    }
    const char *k;
    json_t *v;
    int n = 0;
    json_object_foreach(o, k, v)
    {
        if (n >= CR_MAX_OPTIONS || !json_is_string(v)) continue;
        snprintf(keys[n], SV_OPT_MAX, "%s", k);
        snprintf(vals[n], SV_OPT_MAX, "%s", json_string_value(v));
        if (cr_params_set(p, keys[n], vals[n]) != CR_OK) continue;
        n++;
    }
    json_decref(o);
    return 1;
}

static const char *sv_match_spec(const char *seat)
{
    return strcmp(seat, "invite") == 0 ? "human" : seat;
}

int sv_config_hints(const char *config_json)
{
    json_t *o = config_json[0] ? json_loads(config_json, 0, NULL) : NULL;
    int hints = json_is_true(json_object_get(o, "hints"));
    json_decref(o);
    return hints;
}

/* Builds the match of meta + entries (a record replayed through
 * cr_match_load, which checks every action). */
static cr_match *sv_build_here(const cr_store_game *meta, const cr_store_entry *e, int n, char *err,
                               size_t errcap)
{
    const cr_game_def *def = sv_def(meta->game);
    if (!def) {
        snprintf(err, errcap, "unknown game '%s'", meta->game);
        return NULL;
    }
    char keys[CR_MAX_OPTIONS][SV_OPT_MAX], vals[CR_MAX_OPTIONS][SV_OPT_MAX];
    cr_params p;
    if (!sv_params(meta, &p, keys, vals, err, errcap)) return NULL;
    cr_game *g = cr_game_new(def, &p, err, errcap);
    if (!g) return NULL;
    if (g->num_players != meta->players) {
        snprintf(err, errcap, "%s %s seats %d players, not %d", def->name, g->variant->name,
                 g->num_players, meta->players);
        cr_game_free(g);
        return NULL;
    }
    cr_record r;
    cr_record_init(&r);
    cr_record_set_game(&r, g);
    r.rules_version = meta->rules_version;
    r.seed = meta->seed;
    r.has_seed = 1;
    r.n_seats = meta->players;
    r.hints =
        sv_config_hints(meta->config_json); /* agreed at the creation (cr_match_allow_hints) */
    for (int s = 0; s < meta->players; s++)
        snprintf(r.seats[s], sizeof r.seats[s], "%s", sv_match_spec(meta->seats[s]));
    cr_game_free(g);
    cr_status rc = CR_OK;
    for (int i = 0; i < n && rc == CR_OK; i++) {
        switch (e[i].kind) {
        case CR_STORE_ACTION: rc = cr_record_push(&r, e[i].value); break;
        case CR_STORE_RESIGN: rc = cr_record_mark(&r, CR_MARK_RESIGN, e[i].seat, NULL); break;
        case CR_STORE_TIMEOUT: rc = cr_record_mark(&r, CR_MARK_TIMEOUT, e[i].seat, NULL); break;
        case CR_STORE_SEAT: rc = cr_record_mark(&r, CR_MARK_SEAT, e[i].seat, e[i].spec); break;
        case CR_STORE_END: rc = cr_record_mark(&r, CR_MARK_END, -1, NULL); break;
        default: rc = CR_ERR_INVALID;
        }
    }
    cr_match *m = NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *f = rc == CR_OK ? open_memstream(&text, &len) : NULL;
    if (!f) {
        snprintf(err, errcap, "cannot rebuild the record");
    } else {
        rc = cr_record_write(&r, f, err, errcap);
        if (fclose(f) != 0 && rc == CR_OK) rc = CR_ERR_IO;
        if (rc == CR_OK) m = cr_match_load(text, len, NULL, meta->seed, err, errcap);
    }
    free(text);
    cr_record_fini(&r);
    return m;
}

/* sv_build runs sv_build_here on a thread of its own with a full-size
 * stack (SV_REPLAY_STACK): replaying a record (cr_match_load, the game's
 * parser) needs more stack than a civetweb worker has (about 100 KiB), and
 * a game is rebuilt on whichever thread first asks for it (a client's sit
 * after a failover, a record request, a reload after a refused append). */
typedef struct sv_build_job {
    const cr_store_game *meta;
    const cr_store_entry *e;
    int n;
    char *err;
    size_t errcap;
    cr_match *m;
} sv_build_job;

static void *sv_build_main(void *arg)
{
    sv_build_job *j = arg;
    j->m = sv_build_here(j->meta, j->e, j->n, j->err, j->errcap);
    return NULL;
}

cr_match *sv_build(const cr_store_game *meta, const cr_store_entry *e, int n, char *err,
                   size_t errcap)
{
    sv_build_job j = {meta, e, n, err, errcap, NULL};
    if (!sv_run_on_stack(SV_REPLAY_STACK, sv_build_main, &j)) {
        snprintf(err, errcap, "cannot start a thread to rebuild the game");
        return NULL;
    }
    return j.m;
}

/* The clock as stored (a restart resumes it: the seat to act's move kept
 * running while the server was down). */
static void sv_clock_restore(sv_game *g, const cr_store_game *meta)
{
    g->clock_saved_seat = -2;
    if (!meta->has_clock) return;
    for (int s = 0; s < CR_MAX_PLAYERS; s++) g->remaining[s] = meta->clock.remaining_ms[s];
    g->clock_seat = meta->clock.seat;
    g->clock_started = meta->clock.started_ms;
    g->clock_saved_seat = g->clock_seat;
    g->clock_saved_started = g->clock_started;
}

sv_game *sv_game_alloc(sv_server *sv, const cr_store_game *meta)
{
    sv_game *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->srv = sv;
    pthread_mutex_init(&g->mu, NULL);
    g->refs = 1; /* the caller's */
    g->meta = *meta;
    g->clock_seat = -1;
    for (int s = 0; s < CR_MAX_PLAYERS; s++) g->hooked[s] = -1;
    /* config: clock and webhook */
    json_error_t je;
    json_t *o = json_loads(meta->config_json[0] ? meta->config_json : "{}", 0, &je);
    if (json_is_object(o)) {
        json_t *c = json_object_get(o, "clock");
        if (json_is_object(c)) {
            const char *mode = json_string_value(json_object_get(c, "mode"));
            g->clock_mode = mode && strcmp(mode, "total") == 0  ? SV_CLOCK_TOTAL
                            : mode && strcmp(mode, "move") == 0 ? SV_CLOCK_MOVE
                                                                : SV_CLOCK_NONE;
            g->clock_initial = json_integer_value(json_object_get(c, "initial_ms"));
            g->clock_inc = json_integer_value(json_object_get(c, "increment_ms"));
            const char *ot = json_string_value(json_object_get(c, "on_timeout"));
            snprintf(g->on_timeout, sizeof g->on_timeout, "%s", ot ? ot : "end");
            for (int s = 0; s < CR_MAX_PLAYERS; s++) g->remaining[s] = g->clock_initial;
            sv_clock_restore(g, meta);
        }
        const char *hook = json_string_value(json_object_get(o, "webhook"));
        if (hook) snprintf(g->webhook, sizeof g->webhook, "%s", hook);
    }
    json_decref(o);
    return g;
}

/* Sets g->m (and the scratch) from the store's entries; 0 on failure. */
int sv_game_attach_match(sv_game *g, cr_match *m)
{
    const cr_game *gm = cr_match_game(m);
    cr_view_fini(&g->view);
    if (!cr_view_init(&g->view, gm)) return 0;
    if (!g->think_obs) g->think_obs = malloc(gm->obs_size);
    if (!g->think_legal) g->think_legal = malloc(sizeof(cr_action) * (size_t)gm->max_legal);
    if (!g->think_obs || !g->think_legal) return 0;
    if (!g->bot_game) {
        char keys[CR_MAX_OPTIONS][SV_OPT_MAX], vals[CR_MAX_OPTIONS][SV_OPT_MAX], err[256];
        cr_params p;
        if (!sv_params(&g->meta, &p, keys, vals, err, sizeof err)) return 0;
        g->bot_game = cr_game_new(gm->def, &p, err, sizeof err);
        if (!g->bot_game) return 0;
    }
    if (g->m) cr_match_free(g->m);
    g->m = m;
    const cr_record *r = cr_match_record(m); /* the store holds all of it */
    g->stored.actions = r->n_actions;
    g->stored.marks = r->n_marks;
    g->version++;
    return 1;
}

/* Rebuilds g's match from the store (after a failed append). */
static int sv_game_reload(sv_game *g, char *err, size_t errcap)
{
    sv_server *sv = g->srv;
    cr_store_game meta;
    cr_store_entry *e = NULL;
    if (sv->store->ops->load(sv->store, g->meta.id, &meta, &e, err, errcap) != CR_OK) return 0;
    cr_match *m = sv_build(&meta, e, meta.n_entries, err, errcap);
    if (m && sv_game_attach_match(g, m)) {
        if (g->clock_mode != SV_CLOCK_NONE) {
            for (int s = 0; s < CR_MAX_PLAYERS; s++) g->remaining[s] = g->clock_initial;
            g->clock_seat = -1;
            sv_clock_restore(g, &meta);
        }
        g->n_stored = meta.n_entries;
        g->meta.taken = meta.taken;
        g->n_pend = 0;
        free(e);
        return 1;
    }
    if (m) cr_match_free(m);
    free(e);
    return 0;
}

void sv_game_free(sv_game *g)
{
    if (!g) return;
    if (g->m) cr_match_free(g->m);
    for (int s = 0; s < CR_MAX_PLAYERS; s++) cr_bot_free(g->bots[s]);
    cr_bot_free(g->rnd);
    cr_game_free(g->bot_game);
    free(g->think_obs);
    free(g->think_legal);
    cr_view_fini(&g->view);
    free(g->pend);
    free(g->conns);
    pthread_mutex_destroy(&g->mu);
    free(g);
}

/* ---- the table of games ----
 * The table holds the running games (and running games that cannot be
 * played, outdated).  A game leaves it once it is finished and its last
 * update went out; a finished game asked for later is loaded from the
 * store for that request or that follower only (sv_find_game_where). */

void sv_game_hold(sv_game *g)
{
    sv_server *sv = g->srv;
    pthread_mutex_lock(&sv->table_mu);
    g->refs++;
    pthread_mutex_unlock(&sv->table_mu);
}

/* Gives back a reference; never called under g->mu by the last holder. */
void sv_game_put(sv_game *g)
{
    if (!g) return;
    sv_server *sv = g->srv;
    pthread_mutex_lock(&sv->table_mu);
    int last = --g->refs == 0;
    pthread_mutex_unlock(&sv->table_mu);
    if (last) sv_game_free(g);
}

/* A game of the table, with a reference for the caller (sv_game_put). */
sv_game *sv_find_loaded(sv_server *sv, const char *id)
{
    sv_game *g = NULL;
    pthread_mutex_lock(&sv->table_mu);
    for (int i = 0; i < sv->n_games && !g; i++)
        if (strcmp(sv->games[i]->meta.id, id) == 0) g = sv->games[i];
    if (g) g->refs++;
    pthread_mutex_unlock(&sv->table_mu);
    return g;
}

/* Takes g out of the table (a finished game); the caller still holds a
 * reference, so g is freed by the last sv_game_put. */
void sv_table_drop(sv_game *g)
{
    sv_server *sv = g->srv;
    pthread_mutex_lock(&sv->table_mu);
    for (int i = 0; g->in_table && i < sv->n_games; i++)
        if (sv->games[i] == g) {
            sv->games[i] = sv->games[--sv->n_games];
            g->in_table = 0;
            g->refs--;
        }
    pthread_mutex_unlock(&sv->table_mu);
}

int sv_table_add(sv_game *g)
{
    sv_server *sv = g->srv;
    pthread_mutex_lock(&sv->table_mu);
    if (sv->n_games == sv->cap_games) {
        int cap = sv->cap_games ? sv->cap_games * 2 : 64;
        sv_game **p = realloc(sv->games, sizeof *p * (size_t)cap);
        if (!p) {
            pthread_mutex_unlock(&sv->table_mu);
            return 0;
        }
        sv->games = p;
        sv->cap_games = cap;
    }
    sv->games[sv->n_games++] = g;
    g->in_table = 1;
    g->refs++;
    pthread_mutex_unlock(&sv->table_mu);
    return 1;
}

/* Loads a game from the store into the table (built from its record, or
 * marked outdated); *added: this call put it there (another thread may have
 * loaded it meanwhile).  NULL if there is none. */
static sv_game *sv_load_game(sv_server *sv, const char *id, int *added)
{
    *added = 0;
    sv_game *g = sv_find_loaded(sv, id);
    if (g) return g;
    char err[256];
    cr_store_game meta;
    cr_store_entry *e = NULL;
    if (sv->store->ops->load(sv->store, id, &meta, &e, err, sizeof err) != CR_OK) return NULL;
    g = sv_game_alloc(sv, &meta);
    if (!g) {
        free(e);
        return NULL;
    }
    if (meta.status == CR_STORE_RUNNING &&
        sv->store->ops->claim(sv->store, meta.id, err, sizeof err) != CR_OK) {
        free(e); /* another server process plays it (store.h, claim) */
        sv_game_free(g);
        return NULL;
    }
    const cr_game_def *def = sv_def(meta.game);
    if (!def || meta.rules_version != def->rules_version || meta.status == CR_STORE_OUTDATED) {
        g->outdated = 1;
    } else {
        cr_match *m = sv_build(&meta, e, meta.n_entries, err, sizeof err);
        if (!m || !sv_game_attach_match(g, m)) {
            if (m) cr_match_free(m);
            sv_log(sv, "game %s cannot be rebuilt: %s", meta.id, err);
            g->outdated = 1;
        }
    }
    g->n_stored = meta.n_entries;
    g->finished = meta.status == CR_STORE_FINISHED;
    free(e);
    if (meta.status != CR_STORE_RUNNING) return g; /* for this caller only */
    /* another thread may have loaded it meanwhile */
    sv_game *again = sv_find_loaded(sv, id);
    if (again) {
        sv_game_free(g);
        return again;
    }
    if (!sv_table_add(g)) {
        sv_game_free(g);
        return NULL;
    }
    *added = 1;
    return g; /* the caller's reference and the table's */
}

/* ---- record entries: the match's new actions and marks, in order ---- */

static int sv_pend(sv_game *g, cr_store_kind kind, int32_t value, int32_t seat, const char *spec)
{
    if (g->n_pend == g->cap_pend) {
        int cap = g->cap_pend ? g->cap_pend * 2 : 16;
        cr_store_entry *p = realloc(g->pend, sizeof *p * (size_t)cap);
        if (!p) return 0;
        g->pend = p;
        g->cap_pend = cap;
    }
    cr_store_entry *e = &g->pend[g->n_pend++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->value = value;
    e->seat = seat;
    if (spec) snprintf(e->spec, sizeof e->spec, "%s", spec);
    return 1;
}

/* Turns what the last match calls added to its record into pending
 * entries (each action with the seat or CR_CHANCE that chose it). */
int sv_collect(sv_game *g)
{
    const cr_record *r = cr_match_record(g->m);
    int ok = 1;
    if (g->stored.marks < r->n_marks || g->stored.actions < r->n_actions)
        g->version++; /* the match moved: a bot's move thought out before is stale */
    cr_match_entry e;
    while (cr_match_record_next(g->m, &g->stored, &e)) {
        if (e.mark) {
            const cr_mark *mk = e.mark;
            cr_store_kind k = mk->kind == CR_MARK_RESIGN    ? CR_STORE_RESIGN
                              : mk->kind == CR_MARK_TIMEOUT ? CR_STORE_TIMEOUT
                              : mk->kind == CR_MARK_SEAT    ? CR_STORE_SEAT
                                                            : CR_STORE_END;
            ok &= sv_pend(g, k, 0, mk->seat, mk->kind == CR_MARK_SEAT ? mk->spec : NULL);
        } else {
            ok &= sv_pend(g, CR_STORE_ACTION, e.action, e.actor, NULL);
        }
    }
    return ok;
}

/* Plays chance nodes (they are instant) until a seat must act. */
void sv_run_chance(sv_game *g)
{
    for (int guard = 0; guard < 100000; guard++) {
        if (cr_match_to_act(g->m) != CR_CHANCE) return;
        if (cr_match_step(g->m) != CR_OK) return;
        sv_collect(g);
    }
}

static void sv_clock_turn(sv_game *g);

/* Appends the pending entries, with the clock when it changed (the turn
 * moved: it is stored in the same transaction); on failure rebuilds the
 * match (and the clock) from the store. */
int sv_flush(sv_game *g, char *err, size_t errcap)
{
    sv_server *sv = g->srv;
    cr_store_clock ck, *clock = NULL;
    if (g->clock_mode != SV_CLOCK_NONE && g->m) {
        sv_clock_turn(g);
        if (g->clock_seat != g->clock_saved_seat || g->clock_started != g->clock_saved_started) {
            ck.seat = g->clock_seat;
            ck.started_ms = g->clock_started;
            for (int s = 0; s < CR_MAX_PLAYERS; s++) ck.remaining_ms[s] = g->remaining[s];
            clock = &ck;
        }
    }
    if (g->n_pend == 0 && !clock) return 1;
    if (sv->store->ops->append_clock(sv->store, g->meta.id, g->n_stored, g->pend, g->n_pend, clock,
                                     err, errcap) == CR_OK) {
        g->n_stored += g->n_pend;
        g->n_pend = 0;
        if (clock) {
            g->clock_saved_seat = ck.seat;
            g->clock_saved_started = ck.started_ms;
        }
        return 1;
    }
    sv_log(sv, "game %s: append failed: %s", g->meta.id, err);
    char why[256];
    if (!sv_game_reload(g, why, sizeof why)) {
        sv_log(sv, "game %s: reload failed: %s; the game stops", g->meta.id, why);
        g->outdated = 1; /* unplayable until the store answers again */
    }
    return 0;
}

/* ---- taking running games over (docs/server.md, "Past one machine") ----
 * With a store shared by several server processes (PostgreSQL), each
 * running game is played by the one process that holds its claim.  A
 * process takes over a running game it does not have in memory only after
 * claiming it: at start, every sweep (--claim-interval-ms), and when a
 * client asks for it.  The game is then rebuilt from its record, exactly as
 * after a restart. */

/* Counts a freshly loaded running game, plays its chance and lets its bots
 * go on; marks an outdated one in the store.  1: resumed. */
static int sv_resume_game(sv_game *g)
{
    sv_server *sv = g->srv;
    char err[256];
    int resumed = 0;
    pthread_mutex_lock(&g->mu);
    if (g->outdated) {
        sv->store->ops->set_status(sv->store, g->meta.id, CR_STORE_OUTDATED, err, sizeof err);
    } else if (!g->finished) {
        int bots = 0;
        for (int s = 0; s < g->meta.players; s++) bots += !cr_match_is_human(g->m, s);
        g->bot_seats = bots;
        pthread_mutex_lock(&sv->table_mu);
        sv->n_running++;
        sv->n_bots += bots;
        pthread_mutex_unlock(&sv->table_mu);
        sv_run_chance(g);
        sv_flush(g, err, sizeof err);
        sv_after_change(g);
        resumed = 1;
    }
    pthread_mutex_unlock(&g->mu);
    return resumed;
}

/* Claims the running game id (not in memory) and resumes it.  NULL when
 * another process holds it (*elsewhere = SV_ELSEWHERE), the server is full
 * (SV_FULL), or it cannot be loaded (the claim is given back then). */
sv_game *sv_take_over(sv_server *sv, const char *id, int *elsewhere)
{
    char err[256];
    *elsewhere = SV_HERE;
    pthread_mutex_lock(&sv->table_mu);
    int full = sv->n_running >= sv->cfg.max_games;
    pthread_mutex_unlock(&sv->table_mu);
    if (full) {
        *elsewhere = SV_FULL;
        return NULL;
    }
    cr_status rc = sv->store->ops->claim(sv->store, id, err, sizeof err);
    if (rc != CR_OK) {
        *elsewhere = rc == CR_ERR_ILLEGAL ? SV_ELSEWHERE : SV_HERE;
        if (rc != CR_ERR_ILLEGAL) sv_log(sv, "game %.40s: cannot claim: %s", id, err);
        return NULL;
    }
    int added = 0;
    sv_game *g = sv_load_game(sv, id, &added);
    if (!g) sv->store->ops->release(sv->store, id); /* another process may manage */
    if (g && added) sv_resume_game(g);
    return g;
}

/* A game from memory; or a finished or outdated one loaded from the store;
 * or a running one this process claims and takes over.  NULL if there is
 * none, another server process plays it or this one is full (*elsewhere:
 * SV_ELSEWHERE, SV_FULL; may be NULL). */
/* Takes n record actions from the server-wide allowance of finished
 * loads; 0 when it is spent (the caller answers `limit`). */
static int sv_load_allowed(sv_server *sv, int n)
{
    double now = sv_mono();
    pthread_mutex_lock(&sv->table_mu);
    if (sv->loads_t == 0) sv->loads = 2.0 * SV_LOAD_ACTIONS;
    sv->loads += (now - sv->loads_t) * SV_LOAD_ACTIONS;
    if (sv->loads > 2.0 * SV_LOAD_ACTIONS) sv->loads = 2.0 * SV_LOAD_ACTIONS;
    sv->loads_t = now;
    int ok = sv->loads >= (double)n;
    if (ok) sv->loads -= (double)n;
    pthread_mutex_unlock(&sv->table_mu);
    return ok;
}

/* The game, loaded from the store if need be; NULL with *elsewhere set
 * when another process plays it, *busy set when loading a finished game
 * would pass the server's load allowance (either out parameter may be
 * NULL). */
sv_game *sv_find_game_where(sv_server *sv, const char *id, int *elsewhere, int *busy)
{
    int other = 0, spent = 0;
    sv_game *g = sv_find_loaded(sv, id);
    if (!g) {
        char err[256];
        cr_store_game meta;
        cr_store_entry *e = NULL;
        if (sv->store->ops->load(sv->store, id, &meta, &e, err, sizeof err) == CR_OK) {
            free(e);
            int added = 0;
            if (meta.status == CR_STORE_RUNNING)
                g = sv_take_over(sv, meta.id, &other);
            else if (sv_load_allowed(sv, meta.n_entries > 0 ? meta.n_entries : 1))
                g = sv_load_game(sv, meta.id, &added);
            else
                spent = 1;
        }
    }
    if (elsewhere) *elsewhere = other;
    if (busy) *busy = spent;
    return g;
}

sv_game *sv_find_game(sv_server *sv, const char *id, int *busy)
{
    return sv_find_game_where(sv, id, NULL, busy);
}

void sv_send_busy(sv_conn *c, const sv_msg *m)
{
    sv_send_error(c, m, "limit",
                  "the server is loading many finished games just now; ask again shortly");
}

/* ---- views ---- */

/* The view of `seat` (a seat or CR_SEAT_PUBLIC) as an update message into b,
 * events from *since on; hash gets the BLAKE2b of the view-relevant part
 * (everything but the events list and the clock). */
static void sv_build_update(sv_game *g, int seat, uint32_t since, cr_text *b, uint8_t hash[32])
{
    crypto_generichash_state hs;
    crypto_generichash_init(&hs, NULL, 0, 32);
    cr_match *m = g->m;
    const cr_game *gm = cr_match_game(m);
    size_t mark = b->len;
    cr_text_printf(b, "{\"v\":1,\"type\":\"update\",\"game_id\":\"%s\",", g->meta.id);
    cr_view_json(&g->view, m, seat, g->meta.taken, b); /* match/view.h */
    if (!b->oom) crypto_generichash_update(&hs, (const unsigned char *)b->p + mark, b->len - mark);
    crypto_generichash_final(&hs, hash, 32);
    /* not part of the view's identity: the clock and the new events */
    if (g->clock_mode != SV_CLOCK_NONE) {
        int64_t now = sv_now_ms();
        cr_text_printf(b, ",\"clock\":{\"mode\":\"%s\",\"remaining_ms\":[",
                       g->clock_mode == SV_CLOCK_MOVE ? "move" : "total");
        for (int s = 0; s < gm->num_players; s++) {
            int64_t r = g->remaining[s];
            if (s == g->clock_seat) r -= now - g->clock_started;
            if (cr_match_is_human(m, s))
                cr_text_printf(b, "%s%lld", s ? "," : "", (long long)(r > 0 ? r : 0));
            else
                cr_text_printf(b, "%snull", s ? "," : "");
        }
        if (g->clock_seat >= 0)
            cr_text_printf(b, "],\"running\":%d}", g->clock_seat);
        else
            cr_text_puts(b, "],\"running\":null}");
    }
    cr_text_puts(b, ",\"events\":[");
    uint32_t count = cr_match_event_count(m);
    if (count > SV_MAX_EVENTS_PER_UPDATE && since + SV_MAX_EVENTS_PER_UPDATE < count)
        since = count - SV_MAX_EVENTS_PER_UPDATE;
    cr_view_events_json(&g->view, m, seat, since, SV_MAX_EVENTS_PER_UPDATE, b);
    cr_text_puts(b, "]}");
}

/* Stores the entries a bot worker played and has not stored yet (it is
 * thinking about the next move): nothing is shown to a client before it is
 * stored.  Under g->mu. */
void sv_sync(sv_game *g)
{
    char err[256];
    if (g->n_pend > 0) sv_flush(g, err, sizeof err);
}

/* Sends c its update if its view changed (or `force`), and a your_turn
 * notice when it became c's turn; an update that answers a request (`join`,
 * `sit`, `spectate`) carries its id as `re` (re >= 0; -1: a pushed update).
 * Under g->mu. */
void sv_update_conn(sv_game *g, sv_conn *c, int force, int64_t re)
{
    sv_sync(g);
    if (!g->m) return;
    uint8_t hash[32];
    cr_text_reset(&c->out);
    sv_build_update(g, c->seat, c->sent_seq, &c->out, hash);
    if (c->out.oom) {
        cr_text_free(&c->out);
        return;
    }
    if (!force && c->has_view && memcmp(hash, c->view, 32) == 0) return;
    if (re >= 0) { /* after the opening brace: the hash covers the view, not the reply */
        char r[32];
        int n = snprintf(r, sizeof r, "\"re\":%lld,", (long long)re);
        if (!cr_text_reserve(&c->out, (size_t)n)) {
            cr_text_free(&c->out);
            return;
        }
        memmove(c->out.p + 1 + n, c->out.p + 1, c->out.len); /* with its NUL */
        memcpy(c->out.p + 1, r, (size_t)n);
        c->out.len += (size_t)n;
    }
    memcpy(c->view, hash, 32);
    c->has_view = 1;
    c->sent_seq = cr_match_event_count(g->m);
    sv_send(c, c->out.p, c->out.len);
    int seat = c->seat;
    if (seat >= 0 && cr_match_to_act(g->m) == seat && cr_match_is_human(g->m, seat)) {
        int64_t d = cr_match_decision(g->m, seat);
        if (d != c->turn_sent) {
            c->turn_sent = d;
            char msg[160];
            int len = snprintf(msg, sizeof msg,
                               "{\"v\":1,\"type\":\"your_turn\",\"game_id\":\"%s\",\"seat\":%d,"
                               "\"decision\":%lld}",
                               g->meta.id, seat, (long long)d);
            sv_send(c, msg, (size_t)len);
        }
    }
}

/* ---- after every change of a game (under g->mu) ---- */

static void sv_clock_turn(sv_game *g)
{
    if (g->clock_mode == SV_CLOCK_NONE) return;
    int to_act = cr_match_to_act(g->m);
    int seat = to_act >= 0 && cr_match_is_human(g->m, to_act) && !cr_match_over(g->m) ? to_act : -1;
    int64_t now = sv_now_ms();
    if (seat == g->clock_seat) return; /* the same seat goes on deciding */
    if (g->clock_seat >= 0) {
        int s = g->clock_seat;
        if (g->clock_mode == SV_CLOCK_TOTAL)
            g->remaining[s] -= now - g->clock_started - g->clock_inc;
        else
            g->remaining[s] = g->clock_initial;
    }
    g->clock_seat = seat;
    g->clock_started = now;
    if (seat >= 0 && g->clock_mode == SV_CLOCK_MOVE) g->remaining[seat] = g->clock_initial;
}

void sv_after_change(sv_game *g)
{
    sv_server *sv = g->srv;
    if (!g->m) return;
    if (cr_match_over(g->m) && !g->finished) {
        cr_text b = CR_TEXT_INIT;
        cr_view_result_json(g->m, &b);
        cr_result res;
        cr_match_result(g->m, &res);
        char err[256];
        if (!b.oom && sv->store->ops->finish(sv->store, g->meta.id, b.p, res.winners, err,
                                             sizeof err) == CR_OK) {
            g->finished = 1;
            pthread_mutex_lock(&sv->table_mu);
            sv->n_running--;
            sv->n_bots -= g->bot_seats;
            g->bot_seats = 0;
            pthread_mutex_unlock(&sv->table_mu);
        } else {
            sv_log(sv, "game %s: cannot store its result: %s", g->meta.id, err);
        }
        cr_text_free(&b);
    }
    sv_clock_turn(g);
    int to_act = cr_match_to_act(g->m);
    if (to_act >= 0 && !cr_match_is_human(g->m, to_act) && !g->outdated) sv_enqueue_bot(g);
    for (int i = 0; i < g->n_conns; i++) sv_update_conn(g, g->conns[i], 0, -1);
    if (to_act >= 0 && cr_match_is_human(g->m, to_act) && g->webhook[0]) {
        int followed = 0;
        for (int i = 0; i < g->n_conns; i++) followed |= g->conns[i]->seat == to_act;
        int64_t d = cr_match_decision(g->m, to_act);
        if (!followed && g->hooked[to_act] != d) {
            g->hooked[to_act] = d;
            sv_enqueue_hook(g, to_act, d);
        }
    }
    if (g->finished && !g->evicted) {
        /* the last updates went out: the game leaves memory (its followers
         * keep it until they leave; later requests load it from the store) */
        g->evicted = 1;
        sv_table_drop(g);
        sv->store->ops->release(sv->store, g->meta.id);
    }
}

/* ---- clocks ---- */

static void sv_clock_check(sv_game *g)
{
    sv_server *sv = g->srv;
    pthread_mutex_lock(&g->mu);
    if (g->m && !g->outdated && g->clock_mode != SV_CLOCK_NONE && g->clock_seat >= 0 &&
        !cr_match_over(g->m)) {
        int s = g->clock_seat;
        int64_t left = g->remaining[s] - (sv_now_ms() - g->clock_started);
        if (left <= 0) {
            const char *spec = strcmp(g->on_timeout, "end") == 0 ? NULL : g->on_timeout;
            char err[256];
            if (cr_match_timeout(g->m, s, spec, err, sizeof err) == CR_OK) {
                sv_collect(g);
                sv_run_chance(g);
                g->remaining[s] = 0;
                g->clock_seat = -1; /* the next seat's clock starts in sv_flush */
                sv_flush(g, err, sizeof err);
                sv_after_change(g);
            } else {
                sv_log(sv, "game %s: timeout of P%d: %s", g->meta.id, s, err);
                g->clock_seat = -1;
            }
        }
    }
    pthread_mutex_unlock(&g->mu);
}

void *sv_clock_main(void *arg)
{
    sv_server *sv = arg;
    for (;;) {
        pthread_mutex_lock(&sv->job_mu);
        int stop = sv->stopping;
        pthread_mutex_unlock(&sv->job_mu);
        if (stop) return NULL;
        struct timespec ts = {0, 100 * 1000000L};
        nanosleep(&ts, NULL);
        for (int i = 0;; i++) {
            pthread_mutex_lock(&sv->table_mu);
            sv_game *g = i < sv->n_games ? sv->games[i] : NULL;
            if (g) g->refs++;
            pthread_mutex_unlock(&sv->table_mu);
            if (!g) break;
            if (g->clock_mode != SV_CLOCK_NONE) sv_clock_check(g);
            sv_game_put(g);
        }
    }
}
