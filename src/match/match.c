/* match.c — a game being played (croupier/match.h): the state, the record,
 * the seats and the event log, above the core, the games and the bots.
 *
 * Invariants: `st` is the state after record.actions[0..n); who[i] is the
 * player that acted at action i (a seat or CR_CHANCE); log[] holds every
 * event of those applies in order, numbered by their index.  Everything
 * after action i is a function of (params, seed, actions[0..i)): the k-th
 * chance node is drawn from (seed, k) and a seat's k-th decision by a bot
 * is seeded from (seed, seat, k), so rebuilding (undo, load) reproduces it
 * exactly, and no sequence of take-backs moves a die or a card to come.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "croupier/alloc.h"
#include "croupier/bot.h"
#include "croupier/match.h"
#include "croupier/parts.h"
#include "core/core_internal.h"

enum { MATCH_TEXT = 256 };

struct cr_match {
    cr_game *g;
    void *st, *obs;
    void *prev; /* the state before the last action (for its text) */
    cr_record rec;
    uint64_t seed;
    uint64_t seed_mix; /* mix(seed): chance node i draws from (seed_mix, i) */
    int8_t *who;       /* per action: the seat that chose it, or CR_CHANCE */
    int who_cap;
    /* in actions[0..n): the chance nodes, and each seat's decisions */
    int n_chance;
    int n_decided[CR_MAX_PLAYERS];
    cr_bot *bot[CR_MAX_PLAYERS];
    int wants_obs[CR_MAX_PLAYERS]; /* cr_bot_wants_obs of each bot seat */
    char spec[CR_MAX_PLAYERS][CR_RECORD_SPEC_MAX];
    int left[CR_MAX_PLAYERS]; /* CR_MARK_RESIGN / CR_MARK_TIMEOUT, 0 */
    int ended;                /* a `! end` mark */
    cr_match_event *log;
    uint32_t n_log, cap_log;
    cr_events ev;
    cr_ctx *cx; /* the match's context: scratch, and ev as the event sink */
    cr_action *legal;
    unsigned flags; /* CR_MATCH_LEAN, CR_MATCH_NO_EVENTS */
};

static void set_err(char *err, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t cap, const char *fmt, ...)
{
    if (err == NULL || cap == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* ---- building ---- */

static cr_match *match_alloc(cr_game *g, uint64_t seed)
{
    cr_match *m = cr_calloc(1, sizeof *m);
    if (m == NULL) return NULL;
    m->g = g;
    m->seed = seed;
    m->seed_mix = mix(seed);
    cr_record_init(&m->rec);
    m->st = cr_alloc(g->state_size);
    m->obs = cr_alloc(g->obs_size ? g->obs_size : 1);
    m->prev = cr_alloc(g->state_size);
    m->ev.buf = cr_alloc((size_t)g->max_events * sizeof *m->ev.buf); /* one apply's events */
    m->ev.cap = g->max_events;
    m->cx = cr_ctx_new(g);
    if (m->cx) m->cx->ev = &m->ev;
    m->legal = cr_alloc((size_t)g->max_legal * sizeof *m->legal);
    if (!m->st || !m->obs || !m->prev || !m->ev.buf || !m->legal || !m->cx) {
        m->g = NULL; /* the caller frees g */
        cr_match_free(m);
        return NULL;
    }
    g->def->init(g, m->st);
    return m;
}

void cr_match_free(cr_match *m)
{
    if (m == NULL) return;
    for (int s = 0; s < CR_MAX_PLAYERS; s++) cr_bot_free(m->bot[s]);
    cr_free(m->st);
    cr_free(m->obs);
    cr_free(m->prev);
    cr_free(m->ev.buf);
    cr_ctx_free(m->cx);
    cr_free(m->legal);
    cr_free(m->log);
    cr_free(m->who);
    cr_record_fini(&m->rec);
    cr_game_free(m->g);
    cr_free(m);
}

/* Seats a spec: "human" or a bot that the match creates now. */
static cr_status seat_spec(cr_match *m, int seat, const char *spec, char *err, size_t errcap)
{
    if (spec == NULL || spec[0] == '\0') spec = "human";
    if (strlen(spec) >= CR_RECORD_SPEC_MAX) {
        set_err(err, errcap, "seat P%d: spec too long", seat);
        return CR_ERR_INVALID;
    }
    cr_bot *b = NULL;
    if (strcmp(spec, "human") != 0) {
        char why[256];
        b = cr_bot_new(m->g, spec, seat, m->seed, why, sizeof why);
        if (b == NULL) {
            set_err(err, errcap, "seat P%d: %s", seat, why);
            return CR_ERR_INVALID;
        }
    }
    cr_bot_free(m->bot[seat]);
    m->bot[seat] = b;
    m->wants_obs[seat] = b != NULL && cr_bot_wants_obs(b);
    strcpy(m->spec[seat], spec);
    return CR_OK;
}

static cr_status log_events(cr_match *m, int32_t index)
{
    if (m->ev.dropped > 0) return CR_ERR_INVALID; /* max_events is a proven bound */
    if (m->n_log + (uint32_t)m->ev.len > m->cap_log) {
        uint32_t cap = m->cap_log ? m->cap_log : 1024;
        while (cap < m->n_log + (uint32_t)m->ev.len) cap *= 2;
        cr_match_event *p = cr_realloc(m->log, (size_t)cap * sizeof *p);
        if (p == NULL) return CR_ERR_NOMEM;
        m->log = p;
        m->cap_log = cap;
    }
    for (int i = 0; i < m->ev.len; i++) {
        cr_match_event *e = &m->log[m->n_log];
        e->seq = m->n_log++;
        e->action_index = index;
        e->ev = m->ev.buf[i];
    }
    return CR_OK; /* ev keeps the last apply's events (cr_match_last_events) */
}

static cr_status push_who(cr_match *m, int i, int who)
{
    if (i >= m->who_cap) {
        int cap = m->who_cap ? m->who_cap * 2 : 256;
        while (cap <= i) cap *= 2;
        int8_t *p = cr_realloc(m->who, (size_t)cap);
        if (p == NULL) return CR_ERR_NOMEM;
        m->who = p;
        m->who_cap = cap;
    }
    m->who[i] = (int8_t)who;
    return CR_OK;
}

/* Applies action i (a checked action of the player `who`, already in the
 * record) to the state: who[i], the counts the seeds come from, the log. */
static cr_status apply_at(cr_match *m, int i, int who, cr_action a)
{
    cr_status rc = push_who(m, i, who);
    if (rc != CR_OK) return rc;
    if (who == CR_CHANCE)
        m->n_chance++;
    else if (who >= 0 && who < CR_MAX_PLAYERS)
        m->n_decided[who]++;
    m->ev.len = m->ev.dropped = 0;
    if (m->flags & CR_MATCH_LEAN) {
        /* the lab's mode: no copy for the last action's text, no log */
        m->g->def->apply(m->g, m->st, a, m->cx);
        return m->ev.dropped > 0 ? CR_ERR_INVALID : CR_OK;
    }
    memcpy(m->prev, m->st, m->g->state_size);
    m->g->def->apply(m->g, m->st, a, m->cx);
    return log_events(m, i);
}

/* Applies a (checked) action of the player `who`, recording and logging it. */
static cr_status do_apply(cr_match *m, int who, cr_action a)
{
    cr_status rc = cr_record_push(&m->rec, a);
    if (rc != CR_OK) return rc;
    return apply_at(m, m->rec.n_actions - 1, who, a);
}

/* Replays actions[0..n) from the start: state, who[] and the log. */
static cr_status rebuild(cr_match *m, int n)
{
    const cr_game *g = m->g;
    cr_record_truncate(&m->rec, n);
    g->def->init(g, m->st);
    m->n_log = 0;
    m->rec.n_actions = 0;
    m->n_chance = 0;
    memset(m->n_decided, 0, sizeof m->n_decided);
    for (int i = 0; i < n; i++) {
        cr_action a = m->rec.actions[i];
        int who = g->def->current_player(g, m->st);
        if (who == CR_TERMINAL || !cr_is_legal(g, m->st, a, m->cx)) return CR_ERR_INVALID;
        m->rec.n_actions = i; /* do_apply pushes it back */
        cr_status rc = do_apply(m, who, a);
        if (rc != CR_OK) return rc;
    }
    return CR_OK;
}

/* Seats and `left` as the marks up to the current end say. */
static void replay_marks(cr_match *m, char (*header_spec)[CR_RECORD_SPEC_MAX])
{
    for (int s = 0; s < m->g->num_players; s++) {
        strcpy(m->spec[s], header_spec[s]);
        m->left[s] = 0;
    }
    m->ended = 0;
    for (int i = 0; i < m->rec.n_marks; i++) {
        const cr_mark *k = &m->rec.marks[i];
        if (k->kind == CR_MARK_SEAT)
            strcpy(m->spec[k->seat], k->spec);
        else if (k->kind == CR_MARK_END)
            m->ended = 1;
        else
            m->left[k->seat] = k->kind;
    }
}

cr_match *cr_match_new(const cr_game_def *def, const cr_params *p, const char *const *seats,
                       uint64_t seed, char *err, size_t errcap)
{
    cr_game *g = cr_game_new(def, p, err, errcap);
    if (g == NULL) return NULL;
    cr_match *m = match_alloc(g, seed);
    if (m == NULL) {
        cr_game_free(g);
        set_err(err, errcap, "out of memory");
        return NULL;
    }
    cr_record_set_game(&m->rec, g);
    m->rec.seed = seed;
    m->rec.has_seed = 1;
    m->rec.n_seats = g->num_players;
    for (int s = 0; s < g->num_players; s++) {
        if (seat_spec(m, s, seats ? seats[s] : NULL, err, errcap) != CR_OK) {
            cr_match_free(m);
            return NULL;
        }
        strcpy(m->rec.seats[s], m->spec[s]);
    }
    /* init may already have produced events: start the log */
    return m;
}

/* Loading reads each action into the match as the record is parsed
 * (cr_core_record_load's sink): the state, who[], the counts and the log
 * are built as the actions are read, each applied once. */
typedef struct match_loader {
    cr_match *m;
    uint64_t seed_if_none;
} match_loader;

static void *loader_begin(void *ud, cr_game *g, const cr_record *r)
{
    match_loader *L = ud;
    L->m = match_alloc(g, r->has_seed ? r->seed : L->seed_if_none); /* runs init */
    return L->m ? L->m->st : NULL;
}

static cr_status loader_apply(void *ud, int i, cr_action a)
{
    cr_match *m = ((match_loader *)ud)->m;
    int who = m->g->def->current_player(m->g, m->st); /* the text was read as legal here */
    if (who == CR_TERMINAL) return CR_ERR_INVALID;
    return apply_at(m, i, who, a);
}

cr_match *cr_match_load(const char *text, size_t len, const cr_params *overrides,
                        uint64_t seed_if_none, char *err, size_t errcap)
{
    cr_record rec;
    cr_game *g = NULL;
    void *st = NULL;
    match_loader L = {NULL, seed_if_none};
    cr_record_sink sink = {&L, loader_begin, loader_apply};
    if (cr_core_record_load(text, len, overrides, &sink, &rec, &g, &st, err, errcap) != CR_OK) {
        if (L.m) { /* the loader freed the game */
            L.m->g = NULL;
            cr_match_free(L.m);
        }
        return NULL;
    }
    cr_match *m = L.m;
    m->rec = rec; /* its actions are the ones applied */
    m->rec.seed = m->seed;
    m->rec.has_seed = 1;
    if (m->rec.n_seats == 0) { /* an old record: every seat human */
        m->rec.n_seats = g->num_players;
        for (int s = 0; s < g->num_players; s++) strcpy(m->rec.seats[s], "human");
    }
    replay_marks(m, m->rec.seats);
    for (int s = 0; s < g->num_players; s++) {
        char spec[CR_RECORD_SPEC_MAX];
        strcpy(spec, m->spec[s]);
        if (seat_spec(m, s, spec, err, errcap) != CR_OK) {
            cr_match_free(m);
            return NULL;
        }
    }
    return m;
}

void cr_match_configure(cr_match *m, unsigned flags)
{
    m->flags = flags;
    m->cx->ev = (flags & CR_MATCH_NO_EVENTS) ? NULL : &m->ev;
    m->ev.len = m->ev.dropped = 0;
}

cr_status cr_match_reset(cr_match *m, uint64_t seed)
{
    const cr_game *g = m->g;
    g->def->init(g, m->st);
    m->seed = seed;
    m->seed_mix = mix(seed);
    m->rec.seed = seed;
    m->rec.has_seed = 1;
    m->rec.n_actions = 0;
    m->rec.n_marks = 0;
    m->n_log = 0;
    m->n_chance = 0;
    memset(m->n_decided, 0, sizeof m->n_decided);
    m->ev.len = m->ev.dropped = 0;
    m->ended = 0;
    for (int s = 0; s < g->num_players; s++) {
        m->left[s] = 0;
        strcpy(m->rec.seats[s], m->spec[s]);
    }
    return CR_OK;
}

int cr_match_last_events(const cr_match *m, const cr_event **out)
{
    *out = m->ev.buf;
    return m->ev.len;
}

/* ---- reading ---- */

const cr_game *cr_match_game(const cr_match *m) { return m->g; }
const void *cr_match_state(const cr_match *m) { return m->st; }
const cr_record *cr_match_record(const cr_match *m) { return &m->rec; }

int cr_match_to_act(const cr_match *m)
{
    if (m->ended) return CR_TERMINAL;
    return m->g->def->current_player(m->g, m->st);
}

int cr_match_over(const cr_match *m) { return cr_match_to_act(m) == CR_TERMINAL; }

int cr_match_actor(const cr_match *m, int index)
{
    if (index < 0 || index >= m->rec.n_actions) return CR_TERMINAL;
    return m->who[index];
}

int cr_match_seed(const cr_match *m, uint64_t *seed)
{
    if (!cr_match_over(m)) return 0;
    *seed = m->seed;
    return 1;
}

const char *cr_match_seat_spec(const cr_match *m, int seat)
{
    return seat >= 0 && seat < m->g->num_players ? m->spec[seat] : "";
}

uint64_t cr_match_bot_seed(const cr_match *m, int seat)
{
    int k = seat >= 0 && seat < CR_MAX_PLAYERS ? m->n_decided[seat] : 0;
    return mix(m->seed ^ mix(((uint64_t)(unsigned)seat << 32 | (uint32_t)k) + 0x626f74ull));
}

uint64_t cr_match_substitute_seed(const cr_match *m, int seat)
{
    return cr_match_bot_seed(m, seat) ^ (uint64_t)seat;
}

cr_bot *cr_match_bot_new(const cr_match *m, cr_game *g, const char *spec, int seat, char *err,
                         size_t errcap)
{
    return cr_bot_new(g, spec, seat, m->seed, err, errcap);
}

int cr_match_decision(const cr_match *m, int seat)
{
    if (seat < 0 || seat >= m->g->num_players) return 0;
    return m->n_decided[seat] + (cr_match_to_act(m) == seat ? 1 : 0);
}

int cr_match_record_next(const cr_match *m, cr_match_cursor *cur, cr_match_entry *out)
{
    const cr_record *r = &m->rec;
    if (cur->marks < r->n_marks && r->marks[cur->marks].at <= cur->actions) {
        out->mark = &r->marks[cur->marks++];
        out->action = 0;
        out->actor = out->mark->seat;
        return 1;
    }
    if (cur->actions < r->n_actions) {
        out->mark = NULL;
        out->action = r->actions[cur->actions];
        out->actor = m->who[cur->actions++];
        return 1;
    }
    return 0;
}

int cr_match_is_human(const cr_match *m, int seat)
{
    return seat >= 0 && seat < m->g->num_players && m->bot[seat] == NULL;
}

int cr_match_left(const cr_match *m, int seat)
{
    return seat >= 0 && seat < m->g->num_players ? m->left[seat] : 0;
}

cr_status cr_match_set_seat(cr_match *m, int seat, const char *spec, char *err, size_t errcap)
{
    if (seat < 0 || seat >= m->g->num_players) {
        set_err(err, errcap, "no seat %d", seat);
        return CR_ERR_INVALID;
    }
    cr_status rc = seat_spec(m, seat, spec, err, errcap);
    if (rc != CR_OK) return rc;
    if (m->rec.n_actions == 0 && m->rec.n_marks == 0) {
        strcpy(m->rec.seats[seat], m->spec[seat]);
        return CR_OK;
    }
    rc = cr_record_mark(&m->rec, CR_MARK_SEAT, seat, m->spec[seat]);
    if (rc != CR_OK) set_err(err, errcap, "out of memory");
    return rc;
}

cr_status cr_match_allow_hints(cr_match *m, char *err, size_t errcap)
{
    if (m->rec.n_actions > 0) {
        set_err(err, errcap, "hints are agreed when the table is made, before the first move");
        return CR_ERR_ILLEGAL;
    }
    m->rec.hints = 1;
    return CR_OK;
}

int cr_match_hints_agreed(const cr_match *m) { return m->rec.hints; }

int cr_match_hints_allowed(const cr_match *m)
{
    int humans = 0;
    for (int s = 0; s < m->g->num_players; s++) humans += cr_match_is_human(m, s);
    return humans <= 1 || m->rec.hints;
}

/* ---- playing ---- */

cr_status cr_match_step(cr_match *m)
{
    const cr_game *g = m->g;
    int who = cr_match_to_act(m);
    cr_action a;
    if (who == CR_CHANCE) {
        cr_rng r;
        cr_rng_seed(&r, m->seed_mix, (uint64_t)m->n_chance);
        a = cr_sample_chance(g, m->st, &r);
    } else if (who >= 0 && who < g->num_players && m->bot[who] != NULL) {
        int n = g->def->legal_actions(g, m->st, m->legal, m->cx);
        if (n <= 0) return CR_ERR_INVALID;
        if (n == 1) return do_apply(m, who, m->legal[0]); /* nothing to choose */
        cr_bot *b = m->bot[who];
        cr_bot_reseed(b, cr_match_bot_seed(m, who));
        const void *obs = NULL;
        if (m->wants_obs[who]) {
            g->def->observe(g, m->st, who, m->obs);
            obs = m->obs;
        }
        a = cr_bot_act(b, obs, m->legal, n);
    } else {
        return CR_ERR_ILLEGAL;
    }
    return do_apply(m, who, a);
}

int cr_match_run(cr_match *m, long max_steps)
{
    for (long k = 0; max_steps <= 0 || k < max_steps; k++) {
        int who = cr_match_to_act(m);
        if (who == CR_TERMINAL || (who >= 0 && m->bot[who] == NULL)) return who;
        if (cr_match_step(m) != CR_OK) break;
    }
    return cr_match_to_act(m);
}

/* Why `seat` may not move now, from what every seat knows; 0 if it may. */
static int refuse_seat(const cr_match *m, int seat, char *err, size_t errcap)
{
    if (m->ended && seat >= 0 && seat < m->g->num_players) { /* the state may not know it */
        set_err(err, errcap, "the game is over");
        return 1;
    }
    if (cr_seat_may_act(m->g, m->st, seat, err, errcap) != CR_OK) return 1;
    if (m->bot[seat] != NULL) {
        set_err(err, errcap, "seat P%d is played by a bot", seat);
        return 1;
    }
    return 0;
}

cr_status cr_match_submit_action(cr_match *m, int seat, cr_action a, char *err, size_t errcap)
{
    if (refuse_seat(m, seat, err, errcap)) return CR_ERR_ILLEGAL;
    if (!cr_is_legal(m->g, m->st, a, m->cx)) {
        set_err(err, errcap, "action %d is not legal now", (int)a);
        return CR_ERR_ILLEGAL;
    }
    return do_apply(m, seat, a);
}

cr_status cr_match_submit_bot(cr_match *m, int seat, cr_action a, char *err, size_t errcap)
{
    if (seat < 0 || seat >= m->g->num_players || m->bot[seat] == NULL ||
        cr_match_to_act(m) != seat) {
        set_err(err, errcap, "seat P%d is not a bot to act", seat);
        return CR_ERR_ILLEGAL;
    }
    if (!cr_is_legal(m->g, m->st, a, m->cx)) {
        set_err(err, errcap, "action %d is not legal now", (int)a);
        return CR_ERR_ILLEGAL;
    }
    return do_apply(m, seat, a);
}

cr_status cr_match_submit(cr_match *m, int seat, const char *text, char *err, size_t errcap)
{
    if (refuse_seat(m, seat, err, errcap)) return CR_ERR_ILLEGAL;
    cr_action a;
    cr_status rc = cr_seat_parse(m->g, m->st, seat, text, &a, m->cx, err, errcap);
    if (rc != CR_OK) return rc;
    return do_apply(m, seat, a);
}

/* ---- views ---- */

void cr_match_observe(const cr_match *m, int seat, void *obs)
{
    m->g->def->observe(m->g, m->st, seat, obs);
}

int cr_match_legal(const cr_match *m, int seat, cr_action *out)
{
    if (seat < 0 || cr_match_to_act(m) != seat) return 0;
    return m->g->def->legal_actions(m->g, m->st, out, m->cx);
}

size_t cr_match_prompt(const cr_match *m, int seat, char *buf, size_t cap)
{
    if (cap) buf[0] = '\0';
    if (seat < 0 || cr_match_to_act(m) != seat || m->g->def->prompt == NULL) return 0;
    return m->g->def->prompt(m->g, m->st, buf, cap);
}

size_t cr_match_action_text(const cr_match *m, int seat, cr_action a, char *buf, size_t cap)
{
    if (cap) buf[0] = '\0';
    if (seat < 0 || cr_match_to_act(m) != seat) return 0;
    return m->g->def->action_to_str(m->g, m->st, a, buf, cap);
}

size_t cr_match_action_json(const cr_match *m, int seat, cr_action a, char *buf, size_t cap)
{
    if (cap) buf[0] = '\0';
    if (seat < 0 || cr_match_to_act(m) != seat) return 0;
    if (m->g->def->action_to_json) return m->g->def->action_to_json(m->g, m->st, a, buf, cap);
    char text[MATCH_TEXT];
    m->g->def->action_to_str(m->g, m->st, a, text, sizeof text);
    for (char *c = text; *c; c++)
        if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20) *c = '?';
    int n =
        snprintf(buf, cap, "{\"id\": %d, \"text\": \"%s\", \"label\": \"%s\"}", (int)a, text, text);
    return n < 0 ? 0 : (size_t)n;
}

size_t cr_match_last_action_text(const cr_match *m, int view, char *buf, size_t cap)
{
    if (cap) buf[0] = '\0';
    int n = m->rec.n_actions;
    if (n == 0 || (view != CR_SEAT_OMNISCIENT && (view < 0 || m->who[n - 1] != view))) return 0;
    return m->g->def->action_to_str(m->g, m->prev, m->rec.actions[n - 1], buf, cap);
}

size_t cr_match_help(const cr_match *m, int seat, char *buf, size_t cap)
{
    if (cap) buf[0] = '\0';
    const cr_game_parts *parts = cr_parts(m->g);
    if (parts->help == NULL || seat < 0 || seat >= m->g->num_players) return 0;
    void *obs = cr_alloc(m->g->obs_size);
    if (obs == NULL) return 0;
    m->g->def->observe(m->g, m->st, seat, obs);
    size_t n = parts->help(m->g, obs, buf, cap);
    cr_free(obs);
    return n;
}

uint32_t cr_match_event_count(const cr_match *m) { return m->n_log; }

int cr_match_events_since(const cr_match *m, uint32_t since, const cr_match_event **out)
{
    if (since >= m->n_log) {
        *out = NULL;
        return 0;
    }
    *out = &m->log[since];
    return (int)(m->n_log - since);
}

size_t cr_match_event_text(const cr_match *m, const cr_match_event *e, int seat, char *buf,
                           size_t cap)
{
    return m->g->def->event_to_str(m->g, &e->ev, seat, buf, cap);
}

size_t cr_match_event_json(const cr_match *m, const cr_match_event *e, int seat, char *buf,
                           size_t cap)
{
    return m->g->def->event_to_json(m->g, &e->ev, seat, buf, cap);
}

void *cr_match_annals(const cr_match *m, uint32_t upto)
{
    const cr_game_parts *parts = cr_parts(m->g);
    if (parts->annals_size == 0 || parts->annals_fold == NULL || (m->flags & CR_MATCH_LEAN))
        return NULL;
    void *a = cr_calloc(1, parts->annals_size);
    if (a == NULL) return NULL;
    if (upto > m->n_log) upto = m->n_log;
    for (uint32_t i = 0; i < upto; i++) parts->annals_fold(m->g, a, &m->log[i].ev);
    return a;
}

/* ---- undo, resignation, timeouts ---- */

cr_status cr_match_undo(cr_match *m, int seat, char *err, size_t errcap)
{
    if (seat < 0 || seat >= m->g->num_players) {
        set_err(err, errcap, "no seat %d", seat);
        return CR_ERR_INVALID;
    }
    if (m->ended) {
        set_err(err, errcap, "the match has ended");
        return CR_ERR_INVALID;
    }
    int k = m->rec.n_actions - 1;
    while (k >= 0 && m->who[k] != seat) k--;
    if (k < 0) {
        set_err(err, errcap, "P%d has no decision to take back", seat);
        return CR_ERR_INVALID;
    }
    cr_status rc = rebuild(m, k);
    if (rc != CR_OK) {
        set_err(err, errcap, "internal: the record does not replay (%s)", cr_status_str(rc));
        return rc;
    }
    char header[CR_MAX_PLAYERS][CR_RECORD_SPEC_MAX];
    memcpy(header, m->rec.seats, sizeof header);
    replay_marks(m, header);
    for (int s = 0; s < m->g->num_players; s++) {
        char spec[CR_RECORD_SPEC_MAX];
        strcpy(spec, m->spec[s]);
        if ((m->bot[s] != NULL) != (strcmp(spec, "human") != 0) ||
            (m->bot[s] && strcmp(cr_bot_spec(m->bot[s]), spec) != 0))
            if (seat_spec(m, s, spec, err, errcap) != CR_OK) return CR_ERR_INVALID;
    }
    return CR_OK;
}

int cr_match_undo_blocker(const cr_match *m, int seat)
{
    int k = m->rec.n_actions - 1;
    while (k >= 0 && m->who[k] != seat) k--;
    for (int j = k + 1; k >= 0 && j < m->rec.n_actions; j++) {
        int who = m->who[j];
        if (who >= 0 && who != seat && cr_match_is_human(m, who)) return who;
    }
    return -1;
}

static cr_status leave(cr_match *m, int seat, cr_mark_kind kind, const char *bot_spec, char *err,
                       size_t errcap)
{
    if (seat < 0 || seat >= m->g->num_players) {
        set_err(err, errcap, "no seat %d", seat);
        return CR_ERR_INVALID;
    }
    if (cr_match_over(m)) {
        set_err(err, errcap, "the game is over");
        return CR_ERR_INVALID;
    }
    if (m->left[seat]) {
        set_err(err, errcap, "P%d has already left the game", seat);
        return CR_ERR_INVALID;
    }
    if (bot_spec != NULL) { /* check the bot before recording anything */
        char why[256];
        cr_bot *b = cr_bot_new(m->g, bot_spec, seat, m->seed, why, sizeof why);
        if (b == NULL) {
            set_err(err, errcap, "%s", why);
            return CR_ERR_INVALID;
        }
        cr_bot_free(b);
    }
    cr_status rc = cr_record_mark(&m->rec, kind, seat, NULL);
    if (rc != CR_OK) return rc;
    m->left[seat] = kind;
    if (bot_spec != NULL) return cr_match_set_seat(m, seat, bot_spec, err, errcap);
    rc = cr_record_mark(&m->rec, CR_MARK_END, -1, NULL);
    if (rc == CR_OK) m->ended = 1;
    return rc;
}

cr_status cr_match_resign(cr_match *m, int seat, const char *bot_spec, char *err, size_t errcap)
{
    return leave(m, seat, CR_MARK_RESIGN, bot_spec, err, errcap);
}

cr_status cr_match_timeout(cr_match *m, int seat, const char *bot_spec, char *err, size_t errcap)
{
    return leave(m, seat, CR_MARK_TIMEOUT, bot_spec, err, errcap);
}

void cr_match_result(const cr_match *m, cr_result *out)
{
    const cr_game *g = m->g;
    g->def->result(g, m->st, out);
    if (!m->ended) return;
    /* Ended by the match: who left ranks last, the others share the win. */
    int n_left = 0;
    for (int s = 0; s < g->num_players; s++) n_left += m->left[s] != 0;
    out->winners = 0;
    for (int s = 0; s < g->num_players; s++) {
        if (m->left[s]) {
            out->rank[s] = (int8_t)(g->num_players - n_left + 1);
        } else {
            out->rank[s] = 1;
            out->winners |= 1u << s;
        }
    }
}

cr_status cr_match_save(const cr_match *m, FILE *f, char *err, size_t errcap)
{
    return cr_record_write(&m->rec, f, err, errcap);
}

cr_status cr_match_save_file(const cr_match *m, const char *path, char *err, size_t errcap)
{
    char tmp[4200];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        set_err(err, errcap, "file name too long");
        return CR_ERR_INVALID;
    }
    FILE *f = fopen(tmp, "w");
    if (f == NULL) {
        set_err(err, errcap, "cannot create %s", tmp);
        return CR_ERR_IO;
    }
    cr_status rc = cr_match_save(m, f, err, errcap);
    if (fclose(f) != 0 && rc == CR_OK) {
        rc = CR_ERR_IO;
        set_err(err, errcap, "write failed");
    }
    if (rc == CR_OK && rename(tmp, path) != 0) {
        rc = CR_ERR_IO;
        set_err(err, errcap, "cannot rename %s", tmp);
    }
    if (rc != CR_OK) remove(tmp);
    return rc;
}
