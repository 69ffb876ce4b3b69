/* bot.c — bot creation from a spec, and the dispatch of cr_bot_act to the
 * bot kind's function table.  The kinds are listed in bot_kinds[]; a spec is
 * "kind" or "kind:key=value,key=value" (docs/bots.md). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bots/bot_internal.h"
#include "croupier/alloc.h"

static const bot_vtable *const bot_kinds[] = {&bot_random_vt, &bot_heuristic_vt, &bot_ismcts_vt};
enum { BOT_NKINDS = (int)(sizeof bot_kinds / sizeof bot_kinds[0]) };

static void set_err(char *err, size_t cap, const char *msg, const char *arg)
{
    if (err && cap) snprintf(err, cap, "%s%s%s", msg, arg ? ": " : "", arg ? arg : "");
}

int bot_spec_parse(const char *text, bot_spec *out, char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    if (!text || !*text) {
        set_err(err, errcap, "empty bot spec", NULL);
        return 0;
    }
    if (strlen(text) >= BOT_SPEC_MAX) {
        set_err(err, errcap, "bot spec too long", text);
        return 0;
    }
    const char *colon = strchr(text, ':');
    size_t klen = colon ? (size_t)(colon - text) : strlen(text);
    if (klen == 0 || klen >= sizeof out->kind) {
        set_err(err, errcap, "bad bot name", text);
        return 0;
    }
    memcpy(out->kind, text, klen);
    if (!colon) return 1;
    const char *p = colon + 1;
    if (!*p) {
        set_err(err, errcap, "no parameters after ':'", text);
        return 0;
    }
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        if (!eq || eq == p) {
            set_err(err, errcap, "bot parameter is not key=value", text);
            return 0;
        }
        if (out->n_params == BOT_MAX_PARAMS) {
            set_err(err, errcap, "too many bot parameters", text);
            return 0;
        }
        bot_param *bp = &out->params[out->n_params++];
        size_t kl = (size_t)(eq - p), vl = len - kl - 1;
        if (kl >= sizeof bp->key || vl >= sizeof bp->value || vl == 0) {
            set_err(err, errcap, "bad bot parameter", text);
            return 0;
        }
        memcpy(bp->key, p, kl);
        memcpy(bp->value, eq + 1, vl);
        p = end ? end + 1 : p + len;
    }
    return 1;
}

static const bot_vtable *find_kind(const char *kind)
{
    for (int i = 0; i < BOT_NKINDS; i++)
        if (strcmp(bot_kinds[i]->kind, kind) == 0) return bot_kinds[i];
    return NULL;
}

const char *cr_bot_tier_spec(const cr_game_def *def, const char *name)
{
    const cr_game_parts *parts = def && def->parts ? def->parts : NULL;
    for (int i = 0; parts && name && i < parts->n_tiers; i++)
        if (strcmp(parts->tiers[i].name, name) == 0) return parts->tiers[i].spec;
    return NULL;
}

/* Whether name is a tier of some game in the registry. */
static int any_tier(const char *name)
{
    for (int i = 0; i < cr_registry_count(); i++)
        if (cr_bot_tier_spec(cr_registry_get(i), name)) return 1;
    return 0;
}

int cr_bot_spec_valid(const char *spec, char *err, size_t errcap)
{
    if (spec && any_tier(spec)) return 1;
    bot_spec s;
    if (!bot_spec_parse(spec, &s, err, errcap)) return 0;
    if (!find_kind(s.kind)) {
        set_err(err, errcap, "unknown bot (random, heuristic, ismcts, or a game's tier)", s.kind);
        return 0;
    }
    return 1;
}

void bot_seed_rng(cr_rng *r, uint64_t seed, int seat)
{
    cr_rng_seed(r, seed, 0x62u + (uint64_t)seat);
}

double bot_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

cr_bot *cr_bot_new(const cr_game *g, const char *spec, int seat, uint64_t seed, char *err,
                   size_t errcap)
{
    bot_spec s;
    if (!g) {
        set_err(err, errcap, "no game", NULL);
        return NULL;
    }
    if (seat < 0 || seat >= g->num_players) {
        set_err(err, errcap, "seat out of range", spec);
        return NULL;
    }
    /* a tier's name: the game's spec for it (the bot keeps the name) */
    const char *tier = cr_bot_tier_spec(g->def, spec);
    if (!bot_spec_parse(tier ? tier : spec, &s, err, errcap)) return NULL;
    const bot_vtable *vt = find_kind(s.kind);
    if (!vt) { /* name the game's tiers too */
        char known[160] = "unknown bot (random, heuristic, ismcts";
        const cr_game_parts *parts = g->def->parts;
        for (int t = 0; parts && t < parts->n_tiers; t++) {
            size_t n = strlen(known);
            snprintf(known + n, sizeof known - n, "%s%s",
                     t ? ", " : "; tiers: ", parts->tiers[t].name);
        }
        size_t n = strlen(known);
        snprintf(known + n, sizeof known - n, ")");
        set_err(err, errcap, known, s.kind);
        return NULL;
    }
    cr_bot *b = cr_calloc(1, sizeof *b);
    if (!b) {
        set_err(err, errcap, "out of memory", NULL);
        return NULL;
    }
    b->vt = vt;
    b->game = g;
    b->seat = seat;
    snprintf(b->spec, sizeof b->spec, "%s", spec);
    bot_seed_rng(&b->rng, seed, seat);
    b->memory = sizeof *b;
    if (vt->create && !vt->create(b, &s, err, errcap)) {
        cr_free(b);
        return NULL;
    }
    return b;
}

void cr_bot_free(cr_bot *b)
{
    if (!b) return;
    if (b->vt->destroy) b->vt->destroy(b);
    cr_free(b);
}

cr_action cr_bot_act(cr_bot *b, const void *obs, const cr_action *legal, int n_legal)
{
    if (n_legal == 1) return legal[0];
    return b->vt->act(b, obs, legal, n_legal);
}

int cr_bot_wants_obs(const cr_bot *b) { return b->vt->wants_obs; }
void cr_bot_reseed(cr_bot *b, uint64_t seed) { bot_seed_rng(&b->rng, seed, b->seat); }
int cr_bot_seat(const cr_bot *b) { return b->seat; }
const char *cr_bot_spec(const cr_bot *b) { return b->spec; }
const char *cr_bot_kind(const cr_bot *b) { return b->vt->kind; }

void cr_bot_last_stats(const cr_bot *b, cr_bot_stats *out) { *out = b->stats; }
void cr_bot_set_time_cap(cr_bot *b, double ms) { b->time_cap_ms = ms > 0 ? ms : 0; }
size_t cr_bot_memory(const cr_bot *b) { return b->memory; }

int cr_bot_last_choices(const cr_bot *b, cr_bot_choice *out, int cap)
{
    return b->vt->choices ? b->vt->choices(b, out, cap) : 0;
}
