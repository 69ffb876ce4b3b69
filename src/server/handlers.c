/* server/handlers.c — the server's message handlers (docs/protocol.md):
 * sv_dispatch parses one client message (proto.c) and calls the handler
 * of its type on the connection's own thread.  Also the tokens that open
 * a seat, the server's limits on bot specs, and following a game (a
 * connection attached to a game as a seat or a spectator).
 *
 * Lock order: a handler locks at most one game (g->mu), and under it at
 * most one leaf (table_mu for the server's counts); it never holds a game
 * while it looks another up (sv_detach lets go of the old game first).
 *
 * Durability: a handler that changes a game (create, act, resign, bot)
 * has the new entries stored (sv_flush, in sv_commit_seat) before it sends
 * `ack` or `created` and before any follower is updated; when the store
 * refuses, the client gets `store` and the game is rebuilt from the store.
 * A token is stored before it is given to the client.
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
#include "croupier/alloc.h"
#include "croupier/bot.h"
#include "croupier/match.h"
#include "croupier/parts.h"
#include "server/accept_cap.h"
#include "server/server_internal.h"

/* ---- tokens ---- */

static void sv_token_hash(const char *token, uint8_t out[CR_STORE_HASH_LEN])
{
    crypto_generichash(out, CR_STORE_HASH_LEN, (const unsigned char *)token, strlen(token), NULL,
                       0);
}

static void sv_new_token(char out[SV_TOKEN_LEN + 1])
{
    unsigned char raw[32];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2base64(out, SV_TOKEN_LEN + 1, raw, sizeof raw,
                      sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    sodium_memzero(raw, sizeof raw);
}

/* ---- bots allowed on this server ---- */

/* Checks a seat spec against the server's limits: random, heuristic (its
 * noise parameter only), or ismcts with iters <= bot_max_iters, ms <=
 * bot_deadline_ms, threads=1 and nodes within the memory cap.  A tier's
 * name (bot.h) is checked as the spec it stands for in def's games. */
int sv_bot_allowed(sv_server *sv, const cr_game_def *def, const char *spec, char *err,
                   size_t errcap)
{
    const char *tier = def ? cr_bot_tier_spec(def, spec) : NULL;
    if (tier) spec = tier;
    if (!cr_bot_spec_valid(spec, err, errcap)) return 0;
    const char *colon = strchr(spec, ':');
    size_t nlen = colon ? (size_t)(colon - spec) : strlen(spec);
    if (nlen == 6 && strncmp(spec, "random", 6) == 0) return 1;
    if (nlen == 9 && strncmp(spec, "heuristic", 9) == 0) {
        if (!colon || strncmp(colon + 1, "noise=", 6) == 0) return 1;
        snprintf(err, errcap, "a heuristic bot here takes only noise=X");
        return 0;
    }
    if (!(nlen == 6 && strncmp(spec, "ismcts", 6) == 0)) {
        snprintf(err, errcap, "this server hosts random, heuristic and ismcts bots");
        return 0;
    }
    long long iters = 1000, ms = 0, nodes = 0;
    for (const char *p = colon ? colon + 1 : ""; *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char kv[64];
        if (n >= sizeof kv) {
            snprintf(err, errcap, "bot parameter too long");
            return 0;
        }
        memcpy(kv, p, n);
        kv[n] = '\0';
        char *eq = strchr(kv, '=');
        long long v = eq ? strtoll(eq + 1, NULL, 10) : 0;
        if (eq) *eq = '\0';
        if (strcmp(kv, "iters") == 0) iters = v;
        if (strcmp(kv, "ms") == 0) ms = v;
        if (strcmp(kv, "nodes") == 0) nodes = v;
        if (strcmp(kv, "threads") == 0 && v != 1) {
            snprintf(err, errcap, "server bots search on one thread (threads=1)");
            return 0;
        }
        p += n;
        if (*p == ',') p++;
    }
    if (ms > 0) {
        if (ms > sv->cfg.bot_deadline_ms) {
            snprintf(err, errcap, "ismcts ms=%lld is over this server's %d ms per move", ms,
                     sv->cfg.bot_deadline_ms);
            return 0;
        }
        if (nodes <= 0) nodes = 262144;
    } else if (iters > sv->cfg.bot_max_iters) {
        snprintf(err, errcap, "ismcts iters=%lld is over this server's limit of %d", iters,
                 sv->cfg.bot_max_iters);
        return 0;
    }
    /* A tree node costs well under 256 bytes (docs/server.md). */
    if (nodes > (long long)sv->cfg.bot_memory_mb * 1024 * 1024 / 256) {
        snprintf(err, errcap, "ismcts nodes=%lld is over this server's %d MB per bot", nodes,
                 sv->cfg.bot_memory_mb);
        return 0;
    }
    return 1;
}

/* ---- following a game ---- */

void sv_detach(sv_conn *c)
{
    sv_game *g = c->game;
    if (!g) return;
    pthread_mutex_lock(&g->mu);
    for (int i = 0; i < g->n_conns; i++)
        if (g->conns[i] == c) {
            g->conns[i] = g->conns[--g->n_conns];
            break;
        }
    pthread_mutex_unlock(&g->mu);
    c->game = NULL;
    sv_game_put(g); /* the follower's reference */
}

/* Makes c follow g as `seat` (under g->mu); events from `since` (-1: the
 * last ones). */
static int sv_attach_locked(sv_conn *c, sv_game *g, int seat, int64_t since)
{
    if (g->n_conns == g->cap_conns) {
        int cap = g->cap_conns ? g->cap_conns * 2 : 8;
        sv_conn **p = realloc(g->conns, sizeof *p * (size_t)cap);
        if (!p) return 0;
        g->conns = p;
        g->cap_conns = cap;
    }
    g->conns[g->n_conns++] = c;
    sv_game_hold(g); /* the follower's reference */
    c->game = g;
    c->seat = seat;
    c->has_view = 0;
    c->turn_sent = -1;
    uint32_t count = g->m ? cr_match_event_count(g->m) : 0;
    c->sent_seq = since >= 0 && since <= count       ? (uint32_t)since
                  : count > SV_MAX_EVENTS_PER_UPDATE ? count - SV_MAX_EVENTS_PER_UPDATE
                                                     : 0;
    return 1;
}

/* ---- message handlers (a connection's own civetweb thread) ---- */

static void sv_reply_json(sv_conn *c, const sv_msg *m, json_t *o)
{
    if (m->has_id) json_object_set_new(o, "re", json_integer(m->id));
    char *s = json_dumps(o, JSON_COMPACT);
    if (s) {
        sv_send(c, s, strlen(s));
        free(s);
    }
    json_decref(o);
}

json_t *sv_welcome(const sv_server *sv)
{
    json_t *o = json_pack("{s:i,s:s,s:i,s:s}", "v", 1, "type", "welcome", "protocol",
                          SV_PROTO_VERSION, "server", "croupier 0.1.0");
    json_t *games = json_array();
    for (int i = 0; i < cr_registry_count(); i++) {
        const cr_game_def *d = cr_registry_get(i);
        json_t *vs = json_array();
        for (int v = 0; v < d->n_variants; v++)
            json_array_append_new(
                vs,
                json_pack("{s:s,s:s,s:i,s:i}", "name", d->variants[v].name, "summary",
                          d->variants[v].summary ? d->variants[v].summary : "", "min_players",
                          d->variants[v].min_players, "max_players", d->variants[v].max_players));
        json_t *os = json_array();
        for (int k = 0; k < d->n_options; k++) {
            const cr_option_def *od = &d->options[k];
            if (od->type == CR_OPT_FILE) continue; /* a client cannot choose files (create) */
            const char *types[] = {"", "int", "bool", "choice", "seat", "file"};
            json_t *oj =
                json_pack("{s:s,s:s,s:i,s:i,s:i,s:s}", "key", od->key, "type",
                          od->type >= 1 && od->type <= 5 ? types[od->type] : "", "min", od->min,
                          "max", od->max, "default", od->def, "help", od->help ? od->help : "");
            /* the one variant the option belongs to (null: every variant);
             * create refuses it with another variant */
            json_object_set_new(oj, "variant",
                                od->variant ? json_string(od->variant) : json_null());
            if (od->type == CR_OPT_CHOICE && od->choices) {
                json_t *cs = json_array();
                for (int c = 0; c <= od->max; c++)
                    json_array_append_new(cs, json_string(od->choices[c]));
                json_object_set_new(oj, "choices", cs);
            }
            json_array_append_new(os, oj);
        }
        /* the game's levels of play, weakest first: a tier's name is a seat spec */
        json_t *ts = json_array();
        const cr_game_parts *parts = d->parts;
        for (int t = 0; parts && t < parts->n_tiers; t++)
            json_array_append_new(ts,
                                  json_pack("{s:s,s:s,s:s}", "name", parts->tiers[t].name, "spec",
                                            parts->tiers[t].spec, "words", parts->tiers[t].words));
        json_array_append_new(games, json_pack("{s:s,s:s,s:i,s:o,s:o,s:o}", "name", d->name,
                                               "title", d->title, "rules", d->rules_version,
                                               "variants", vs, "options", os, "tiers", ts));
    }
    json_object_set_new(o, "games", games);
    json_object_set_new(o, "bots", json_pack("[s,s,s]", "random", "heuristic", "ismcts:iters=N"));
    json_object_set_new(o, "limits",
                        json_pack("{s:I,s:i,s:i,s:i}", "max_frame", (json_int_t)sv->cfg.max_frame,
                                  "max_msg_rate", sv->cfg.max_msg_rate, "bot_max_iters",
                                  sv->cfg.bot_max_iters, "bot_deadline_ms",
                                  sv->cfg.bot_deadline_ms));
    return o;
}

static void sv_invite(char *out, size_t cap, const char *id, int seat, const char *token)
{
    snprintf(out, cap, "#game=%s&seat=%d&token=%s", id, seat, token);
}

static void sv_h_create(sv_conn *c, const sv_msg *m)
{
    sv_server *sv = c->srv;
    char err[256];
    const cr_game_def *def = sv_def(m->game);
    if (!def) {
        sv_send_error(c, m, "bad_request", "unknown game (see welcome.games)");
        return;
    }
    /* A file option names a path on the server's disk: a client may never
     * make the server open one (what it would answer tells whether the file
     * exists and what it holds).  Online games use the game's built-in data;
     * refused before anything looks at the value. */
    for (int i = 0; i < m->n_options; i++)
        for (int k = 0; k < def->n_options; k++)
            if (def->options[k].type == CR_OPT_FILE &&
                strcmp(def->options[k].key, m->opt_key[i]) == 0) {
                char msg[160];
                snprintf(msg, sizeof msg,
                         "option '%s' names a file, which this server never opens for a "
                         "client; games here use the built-in data",
                         def->options[k].key);
                sv_send_error(c, m, "bad_request", msg);
                return;
            }
    int bots = 0;
    for (int s = 0; s < m->n_seats; s++) {
        if (strcmp(m->seats[s], "human") == 0 || strcmp(m->seats[s], "invite") == 0) continue;
        if (!sv_bot_allowed(sv, def, m->seats[s], err, sizeof err)) {
            char msg[320];
            snprintf(msg, sizeof msg, "seat %d: %s", s, err);
            sv_send_error(c, m, "limit", msg);
            return;
        }
        bots++;
    }
    if (m->sit >= 0 && strcmp(m->seats[m->sit], "human") != 0 &&
        strcmp(m->seats[m->sit], "invite") != 0) {
        sv_send_error(c, m, "bad_request", "'sit' must name a human seat");
        return;
    }
    if (m->clock_mode != SV_CLOCK_NONE && strcmp(m->clock_on_timeout, "end") != 0 &&
        !sv_bot_allowed(sv, def, m->clock_on_timeout, err, sizeof err)) {
        sv_send_error(c, m, "limit", err);
        return;
    }
    if (m->webhook[0] && !sv->cfg.webhooks) {
        sv_send_error(c, m, "limit", "this server sends no webhooks (--webhooks off)");
        return;
    }
    pthread_mutex_lock(&sv->table_mu);
    int over = sv->n_running >= sv->cfg.max_games || sv->n_bots + bots > sv->cfg.max_bots;
    if (!over) {
        sv->n_running++;
        sv->n_bots += bots;
    }
    pthread_mutex_unlock(&sv->table_mu);
    if (over) {
        sv_send_error(c, m, "limit", "the server is full (games or bots); try again later");
        return;
    }
    cr_store_game meta;
    memset(&meta, 0, sizeof meta);
    unsigned char raw[16];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2hex(meta.id, sizeof meta.id, raw, sizeof raw);
    snprintf(meta.game, sizeof meta.game, "%s", def->name);
    snprintf(meta.variant, sizeof meta.variant, "%s", m->variant);
    meta.players = m->n_seats;
    meta.rules_version = def->rules_version;
    randombytes_buf(&meta.seed, sizeof meta.seed);
    for (int s = 0; s < m->n_seats; s++)
        snprintf(meta.seats[s], sizeof meta.seats[s], "%s", m->seats[s]);
    json_t *opts = json_object();
    for (int i = 0; i < m->n_options; i++)
        json_object_set_new(opts, m->opt_key[i], json_string(m->opt_val[i]));
    char *os = json_dumps(opts, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(opts);
    json_t *conf = json_object();
    if (m->clock_mode != SV_CLOCK_NONE)
        json_object_set_new(conf, "clock",
                            json_pack("{s:s,s:I,s:I,s:s}", "mode",
                                      m->clock_mode == SV_CLOCK_MOVE ? "move" : "total",
                                      "initial_ms", (json_int_t)m->clock_initial_ms, "increment_ms",
                                      (json_int_t)m->clock_increment_ms, "on_timeout",
                                      m->clock_on_timeout));
    if (m->webhook[0]) json_object_set_new(conf, "webhook", json_string(m->webhook));
    if (m->hints) json_object_set_new(conf, "hints", json_true()); /* the match: sv_build */
    char *cs = json_dumps(conf, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(conf);
    int fits =
        os && cs && strlen(os) < sizeof meta.options_json && strlen(cs) < sizeof meta.config_json;
    if (fits) {
        snprintf(meta.options_json, sizeof meta.options_json, "%s", os);
        snprintf(meta.config_json, sizeof meta.config_json, "%s", cs);
    }
    free(os);
    free(cs);
    sv_game *g = NULL;
    cr_match *mt = NULL;
    if (!fits) {
        sv_send_error(c, m, "bad_request", "options too long");
        goto undo;
    }
    /* the match first: it checks the variant, the player count and the options */
    mt = sv_build(&meta, NULL, 0, err, sizeof err);
    if (!mt) {
        sv_send_error(c, m, "bad_request", err);
        goto undo;
    }
    snprintf(meta.variant, sizeof meta.variant, "%s", cr_match_game(mt)->variant->name);
    g = sv_game_alloc(sv, &meta);
    if (!g || !sv_game_attach_match(g, mt)) {
        if (!g) cr_match_free(mt);
        sv_send_error(c, m, "store", "out of memory");
        goto undo;
    }
    g->bot_seats = bots;
    /* In the table before it is claimed, and claimed before it is stored:
     * once stored as running, another process's claim sweep would take a
     * game nobody holds yet, and this process's own sweep, finding it
     * running and held by this process but in no table, would load a
     * second copy (found by tests/server/test_soak_kill9.c). */
    if (!sv_table_add(g)) {
        sv_send_error(c, m, "store", "out of memory");
        goto undo;
    }
    int claimed = sv->store->ops->claim(sv->store, meta.id, err, sizeof err) == CR_OK;
    if (!claimed || sv->store->ops->create_game(sv->store, &meta, err, sizeof err) != CR_OK) {
        if (claimed) sv->store->ops->release(sv->store, meta.id);
        sv_send_error(c, m, "store", "the store refused the game");
        sv_log(sv, "create: %s", err);
        goto undo;
    }
    /* tokens for the creator's seat and the invite seats */
    json_t *seats = json_array();
    for (int s = 0; s < m->n_seats; s++) {
        if (s != m->sit && strcmp(m->seats[s], "invite") != 0) continue;
        char tok[SV_TOKEN_LEN + 1], inv[160];
        uint8_t h[CR_STORE_HASH_LEN];
        sv_new_token(tok);
        sv_token_hash(tok, h);
        if (sv->store->ops->add_token(sv->store, meta.id, s, h, err, sizeof err) != CR_OK) {
            json_decref(seats);
            sv_send_error(c, m, "store", "the store refused a token");
            goto undo_stored;
        }
        g->meta.taken |= 1u << s;
        sv_invite(inv, sizeof inv, meta.id, s, tok);
        json_array_append_new(seats,
                              json_pack("{s:i,s:s,s:s}", "seat", s, "token", tok, "invite", inv));
        sodium_memzero(tok, sizeof tok);
    }
    sv_detach(c);
    pthread_mutex_lock(&g->mu);
    sv_run_chance(g);
    sv_flush(g, err, sizeof err);
    sv_reply_json(c, m,
                  json_pack("{s:i,s:s,s:s,s:o}", "v", 1, "type", "created", "game_id", meta.id,
                            "seats", seats));
    if (m->sit >= 0) sv_attach_locked(c, g, m->sit, 0);
    sv_after_change(g);
    pthread_mutex_unlock(&g->mu);
    sv_game_put(g); /* the table (and a follower) hold it */
    sv_log(sv, "game %s created: %s, %d seats", meta.id, def->name, m->n_seats);
    return;
undo_stored:
    sv->store->ops->finish(sv->store, meta.id, "{\"aborted\":true}", 0, err, sizeof err);
undo:
    if (g) sv_table_drop(g);
    sv_game_put(g); /* the creator's reference: the last, unless a sweep or the clock holds one */
    pthread_mutex_lock(&sv->table_mu);
    sv->n_running--;
    sv->n_bots -= bots;
    pthread_mutex_unlock(&sv->table_mu);
}

typedef struct {
    json_t *arr;
    int status; /* 0 all, 1 open */
} sv_list_ctx;

static int sv_list_fn(void *arg, const cr_store_game *g)
{
    sv_list_ctx *lc = arg;
    json_t *seats = json_array();
    int open = 0;
    for (int s = 0; s < g->players; s++) {
        int human = strcmp(g->seats[s], "human") == 0 || strcmp(g->seats[s], "invite") == 0;
        int taken = (g->taken >> s) & 1;
        if (strcmp(g->seats[s], "human") == 0 && !taken) open = 1;
        json_t *o = json_pack("{s:i,s:s}", "seat", s, "kind", human ? "human" : "bot");
        if (human)
            json_object_set_new(o, "taken", json_boolean(taken));
        else
            json_object_set_new(o, "spec", json_string(g->seats[s]));
        json_array_append_new(seats, o);
    }
    if (lc->status == 1 && (!open || g->status != CR_STORE_RUNNING)) {
        json_decref(seats);
        return 0;
    }
    const cr_game_def *def = sv_def(g->game);
    int outdated = g->status == CR_STORE_OUTDATED || !def || def->rules_version != g->rules_version;
    const char *st = outdated                         ? "outdated"
                     : g->status == CR_STORE_FINISHED ? "finished"
                     : open                           ? "open"
                                                      : "running";
    json_array_append_new(
        lc->arr, json_pack("{s:s,s:s,s:s,s:i,s:s,s:o,s:i,s:I,s:b}", "game_id", g->id, "game",
                           g->game, "variant", g->variant, "players", g->players, "status", st,
                           "seats", seats, "actions", g->n_entries, "created",
                           (json_int_t)g->created_ms, "rules_outdated", outdated));
    /* the players agreed to hints at the creation: whoever joins agrees too */
    json_object_set_new(json_array_get(lc->arr, json_array_size(lc->arr) - 1), "hints",
                        json_boolean(sv_config_hints(g->config_json)));
    return json_array_size(lc->arr) >= SV_LIST_MAX;
}

json_t *sv_games_json(sv_server *sv, int status)
{
    char err[256];
    sv_list_ctx lc = {json_array(), status == 1};
    int st = status == 2 ? CR_STORE_RUNNING : status == 3 ? CR_STORE_FINISHED : 0;
    if (status == 1) st = CR_STORE_RUNNING;
    sv->store->ops->list(sv->store, st, status == 1 ? 5000 : SV_LIST_MAX, sv_list_fn, &lc, err,
                         sizeof err);
    return json_pack("{s:i,s:s,s:o}", "v", 1, "type", "games", "games", lc.arr);
}

static int sv_stats_fn(void *arg, const cr_store_stats *st)
{
    json_t *arr = arg;
    const cr_game_def *def = sv_def(st->game);
    json_t *by = json_array();
    for (int s = 0; s < st->players_max && s < CR_MAX_PLAYERS; s++)
        json_array_append_new(
            by, json_pack("{s:i,s:I,s:I,s:f}", "seat", s, "games", (json_int_t)st->seat_games[s],
                          "wins", (json_int_t)st->seat_wins[s], "win_rate",
                          st->seat_games[s] ? (double)st->seat_wins[s] / (double)st->seat_games[s]
                                            : 0.0));
    json_array_append_new(arr, json_pack("{s:s,s:s,s:I,s:f,s:o}", "game", st->game, "title",
                                         def ? def->title : st->game, "finished",
                                         (json_int_t)st->finished, "avg_actions", st->avg_entries,
                                         "by_seat", by));
    return 0;
}

json_t *sv_stats_json(sv_server *sv)
{
    char err[256];
    json_t *arr = json_array();
    sv->store->ops->stats(sv->store, sv_stats_fn, arr, err, sizeof err);
    return json_pack("{s:i,s:s,s:o}", "v", 1, "type", "stats", "titles", arr);
}

/* The game is running on another server process (a shared store). */
static void sv_send_elsewhere(sv_conn *c, const sv_msg *m, int why)
{
    if (why == SV_FULL)
        sv_send_error(c, m, "limit", "this server holds as many running games as it may");
    else
        sv_send_error(c, m, "elsewhere",
                      "another server process plays this game; connect to that one"
                      " (docs/server.md)");
}

static void sv_h_join(sv_conn *c, const sv_msg *m)
{
    sv_server *sv = c->srv;
    int elsewhere = 0, busy = 0;
    sv_game *g = sv_find_game_where(sv, m->game_id, &elsewhere, &busy);
    if (!g) {
        if (elsewhere)
            sv_send_elsewhere(c, m, elsewhere);
        else if (busy)
            sv_send_busy(c, m);
        else
            sv_send_error(c, m, "no_game", "no such game");
        return;
    }
    sv_detach(c);
    pthread_mutex_lock(&g->mu);
    int seat = -1;
    const char *why = "no free seat in this game";
    if (g->outdated || !g->m) {
        why = "this game was stored under another rules version; it is read-only";
    } else if (cr_match_over(g->m)) {
        why = "the game is over";
    } else {
        for (int s = 0; s < g->meta.players; s++) {
            if (m->seat >= 0 && s != m->seat) continue;
            if (strcmp(g->meta.seats[s], "human") == 0 && !((g->meta.taken >> s) & 1) &&
                cr_match_is_human(g->m, s)) {
                seat = s;
                break;
            }
        }
    }
    char tok[SV_TOKEN_LEN + 1], err[256];
    if (seat >= 0) {
        uint8_t h[CR_STORE_HASH_LEN];
        sv_new_token(tok);
        sv_token_hash(tok, h);
        if (sv->store->ops->add_token(sv->store, g->meta.id, seat, h, err, sizeof err) != CR_OK)
            seat = -1;
    }
    if (seat < 0) {
        pthread_mutex_unlock(&g->mu);
        sv_game_put(g);
        sv_send_error(c, m, "seat_taken", why);
        return;
    }
    g->meta.taken |= 1u << seat;
    char inv[160];
    sv_invite(inv, sizeof inv, g->meta.id, seat, tok);
    sv_reply_json(c, m,
                  json_pack("{s:i,s:s,s:s,s:i,s:s,s:s}", "v", 1, "type", "joined", "game_id",
                            g->meta.id, "seat", seat, "token", tok, "invite", inv));
    sodium_memzero(tok, sizeof tok);
    sv_attach_locked(c, g, seat, 0);
    sv_after_change(g);          /* the others see the seat taken */
    sv_update_conn(g, c, 1, -1); /* `joined` answered the request */
    pthread_mutex_unlock(&g->mu);
    sv_game_put(g);
}

static void sv_h_sit(sv_conn *c, const sv_msg *m, int spectate)
{
    sv_server *sv = c->srv;
    int elsewhere = 0, busy = 0;
    sv_game *g = sv_find_game_where(sv, m->game_id, &elsewhere, &busy);
    int seat = CR_SEAT_PUBLIC;
    char err[256];
    if (elsewhere) {
        sv_game_put(g);
        sv_send_elsewhere(c, m, elsewhere);
        return;
    }
    if (busy) {
        sv_send_busy(c, m);
        return;
    }
    if (!spectate) {
        uint8_t h[CR_STORE_HASH_LEN];
        sv_token_hash(m->token, h);
        if (!g || strlen(m->token) != SV_TOKEN_LEN ||
            sv->store->ops->find_token(sv->store, m->game_id, h, &seat, err, sizeof err) != CR_OK) {
            sv_game_put(g);
            sv_send_error(c, m, "bad_token", "this token opens no seat of that game");
            return;
        }
    } else if (!g) {
        sv_send_error(c, m, "no_game", "no such game");
        return;
    }
    sv_detach(c);
    pthread_mutex_lock(&g->mu);
    if (!g->m) {
        pthread_mutex_unlock(&g->mu);
        sv_game_put(g);
        sv_send_error(c, m, "outdated",
                      "this game was stored under another rules version; it is kept as stored");
        return;
    }
    sv_attach_locked(c, g, seat, m->since);
    sv_update_conn(g, c, 1, m->has_id ? m->id : -1);
    pthread_mutex_unlock(&g->mu);
    sv_game_put(g); /* the follower holds its own */
}

/* Checks c is seated at a playable game and locks it; NULL after an error. */
static sv_game *sv_seated(sv_conn *c, const sv_msg *m)
{
    sv_game *g = c->game;
    if (!g || c->seat < 0) {
        sv_send_error(c, m, "not_seated", "sit at a seat first (join or sit)");
        return NULL;
    }
    pthread_mutex_lock(&g->mu);
    sv_sync(g);
    if (g->outdated || !g->m) {
        pthread_mutex_unlock(&g->mu);
        sv_send_error(c, m, "outdated", "this game cannot be played on");
        return NULL;
    }
    return g;
}

static void sv_ack(sv_conn *c, const sv_msg *m, sv_game *g, int64_t decision)
{
    char msg[160];
    int n = snprintf(msg, sizeof msg, "{\"v\":1,\"type\":\"ack\"");
    if (m->has_id) n += snprintf(msg + n, sizeof msg - (size_t)n, ",\"re\":%lld", (long long)m->id);
    n += snprintf(msg + n, sizeof msg - (size_t)n, ",\"decision\":%lld,\"seq\":%u}",
                  (long long)decision, cr_match_event_count(g->m));
    sv_send(c, msg, (size_t)n);
}

/* The end of a seat's accepted request (act, resign, hand-over): the
 * match's new entries and the chance that follows are stored; only then
 * is the request acknowledged (`decision`: the seat's decision number
 * before it) and the followers updated.  If the store fails the game is
 * rebuilt from it and the client gets `store` with `store_msg`.  Called
 * under g->mu; releases it. */
static void sv_commit_seat(sv_conn *c, const sv_msg *m, sv_game *g, int64_t decision,
                           const char *store_msg)
{
    char err[256];
    sv_collect(g);
    sv_run_chance(g);
    if (!sv_flush(g, err, sizeof err)) {
        pthread_mutex_unlock(&g->mu);
        sv_send_error(c, m, "store", store_msg);
        return;
    }
    sv_ack(c, m, g, decision);
    sv_after_change(g);
    pthread_mutex_unlock(&g->mu);
}

static void sv_h_act(sv_conn *c, const sv_msg *m)
{
    sv_game *g = sv_seated(c, m);
    if (!g) return;
    int seat = c->seat;
    char err[256];
    /* the turn, from what every seat knows; then the decision number; then the action */
    if (cr_match_over(g->m)) {
        snprintf(err, sizeof err, "the game is over");
        goto refuse_turn;
    }
    if (cr_seat_may_act(cr_match_game(g->m), cr_match_state(g->m), seat, err, sizeof err) != CR_OK)
        goto refuse_turn;
    if (!cr_match_is_human(g->m, seat)) {
        snprintf(err, sizeof err, "seat P%d is played by a bot", seat);
        goto refuse_turn;
    }
    int64_t d = cr_match_decision(g->m, seat);
    if (m->decision != d) {
        snprintf(err, sizeof err, "stale: this is decision %lld, not %lld", (long long)d,
                 (long long)m->decision);
        pthread_mutex_unlock(&g->mu);
        sv_send_error(c, m, "stale", err);
        return;
    }
    cr_status rc = m->has_action ? cr_match_submit_action(g->m, seat, m->action, err, sizeof err)
                                 : cr_match_submit(g->m, seat, m->text, err, sizeof err);
    if (rc != CR_OK) {
        pthread_mutex_unlock(&g->mu);
        sv_send_error(c, m, "illegal", err);
        return;
    }
    sv_commit_seat(c, m, g, d, "the store failed; the action was not taken");
    return;
refuse_turn:
    pthread_mutex_unlock(&g->mu);
    sv_send_error(c, m, "not_your_turn", err);
}

static void sv_h_leave(sv_conn *c, const sv_msg *m, int to_bot)
{
    sv_server *sv = c->srv;
    char err[256];
    /* the game's name is fixed at creation: read without its lock */
    const cr_game_def *def = c->game ? cr_registry_find(c->game->meta.game) : NULL;
    if (to_bot && !sv_bot_allowed(sv, def, m->spec, err, sizeof err)) {
        sv_send_error(c, m, "limit", err);
        return;
    }
    sv_game *g = sv_seated(c, m);
    if (!g) return;
    int seat = c->seat;
    int64_t d = cr_match_decision(g->m, seat);
    cr_status rc;
    if (to_bot) {
        pthread_mutex_lock(&sv->table_mu);
        int full = sv->n_bots + 1 > sv->cfg.max_bots;
        if (!full) sv->n_bots++;
        pthread_mutex_unlock(&sv->table_mu);
        if (full) {
            pthread_mutex_unlock(&g->mu);
            sv_send_error(c, m, "limit", "the server runs as many bots as it may");
            return;
        }
        rc = cr_match_over(g->m) ? CR_ERR_INVALID
             : cr_match_is_human(g->m, seat)
                 ? cr_match_set_seat(g->m, seat, m->spec, err, sizeof err)
                 : (snprintf(err, sizeof err, "seat P%d is played by a bot already", seat),
                    CR_ERR_INVALID);
        if (rc == CR_OK)
            g->bot_seats++;
        else {
            if (cr_match_over(g->m)) snprintf(err, sizeof err, "the game is over");
            pthread_mutex_lock(&sv->table_mu);
            sv->n_bots--;
            pthread_mutex_unlock(&sv->table_mu);
        }
    } else {
        rc = cr_match_resign(g->m, seat, NULL, err, sizeof err);
    }
    if (rc != CR_OK) {
        pthread_mutex_unlock(&g->mu);
        sv_send_error(c, m, "illegal", err);
        return;
    }
    sv_commit_seat(c, m, g, d, "the store failed; nothing was changed");
}

static void sv_h_history(sv_conn *c, const sv_msg *m)
{
    sv_game *g = c->game;
    if (!g) {
        sv_send_error(c, m, "not_seated", "sit, join or spectate first");
        return;
    }
    pthread_mutex_lock(&g->mu);
    sv_sync(g);
    if (!g->m) {
        pthread_mutex_unlock(&g->mu);
        sv_send_error(c, m, "outdated", "this game cannot be replayed");
        return;
    }
    cr_text *b = &c->out; /* c->out is written under the game's mutex only */
    cr_text_reset(b);
    sv_frame_begin(b, "history", m);
    uint32_t count = cr_match_event_count(g->m);
    cr_text_printf(b, ",\"game_id\":\"%s\",\"count\":%u,\"events\":[", g->meta.id, count);
    if (m->since < count)
        cr_view_events_json(&g->view, g->m, c->seat, (uint32_t)m->since, SV_MAX_HISTORY, b);
    cr_text_puts(b, "]}");
    if (!b->oom) sv_send(c, b->p, b->len);
    pthread_mutex_unlock(&g->mu);
}

static void sv_h_record(sv_conn *c, const sv_msg *m)
{
    sv_server *sv = c->srv;
    int busy = 0;
    sv_game *g = sv_find_game(sv, m->game_id, &busy);
    if (busy) {
        sv_send_busy(c, m);
        return;
    }
    if (!g || !g->m) {
        sv_game_put(g);
        sv_send_error(c, m, g ? "outdated" : "no_game", g ? "no record to give" : "no such game");
        return;
    }
    pthread_mutex_lock(&g->mu);
    uint64_t seed;
    if (!cr_match_seed(g->m, &seed)) {
        pthread_mutex_unlock(&g->mu);
        sv_game_put(g);
        sv_send_error(c, m, "not_finished",
                      "the record and the seed are given out once the game is over");
        return;
    }
    char *text = NULL, err[256];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_status rc = f ? cr_match_save(g->m, f, err, sizeof err) : CR_ERR_NOMEM;
    if (f) fclose(f);
    pthread_mutex_unlock(&g->mu);
    char id[CR_STORE_ID_LEN + 1];
    snprintf(id, sizeof id, "%s", g->meta.id);
    sv_game_put(g);
    if (rc != CR_OK || !text) {
        free(text);
        sv_send_error(c, m, "store", "cannot write the record");
        return;
    }
    char seed_s[24];
    snprintf(seed_s, sizeof seed_s, "%llu", (unsigned long long)seed);
    sv_reply_json(c, m,
                  json_pack("{s:i,s:s,s:s,s:s,s:s}", "v", 1, "type", "record", "game_id", id,
                            "seed", seed_s, "record", text));
    free(text);
}

/* ---- replay: a finished game's table at any step ---- */

/* A connection's replay of one finished match: the match layer's cursor
 * over it (croupier/replay.h: checkpoints every few actions, made as far
 * as requests reach, and the last step served when that is nearer, so
 * stepping forwards costs one apply) and the view's scratch (match/view.h
 * renders the step).  Only for a finished match: its record and seed are
 * public then, so every view is too. */
typedef struct sv_replay {
    const cr_match *m; /* the match the cursor was made for */
    cr_replay *cur;
    cr_view view;
} sv_replay;

static void sv_replay_free(sv_replay *r)
{
    if (!r) return;
    cr_replay_free(r->cur);
    cr_view_fini(&r->view);
    free(r);
}

static sv_replay *sv_replay_new(const cr_match *m)
{
    sv_replay *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->m = m;
    r->cur = cr_replay_new(m);
    int ok = cr_view_init(&r->view, cr_match_game(m));
    if (!r->cur || !ok) {
        sv_replay_free(r);
        return NULL;
    }
    return r;
}

typedef struct sv_replay_job {
    sv_replay *r;
    int step, seat;
    char *out;
} sv_replay_job;

static void *sv_replay_main(void *arg)
{
    sv_replay_job *j = arg;
    cr_text t = CR_TEXT_INIT;
    cr_view_step_json(&j->r->view, j->r->cur, j->step, j->seat, &t);
    j->out = cr_text_take(&t); /* NULL when out of memory */
    return NULL;
}

/* The JSON members (no braces) of step `step` of finished match m for view
 * `seat` (cr_view_step_json).  *cache is the connection's (made on first
 * use, for this m only).  Returns a string to cr_free, or NULL with err (m
 * not over, step or seat out of range, out of memory).  Under g->mu. */
static char *sv_replay_step(sv_replay **cache, const cr_match *m, int step, int seat, char *err,
                            size_t errcap)
{
    if (!cr_match_over(m)) {
        snprintf(err, errcap, "a game's steps are shown once it is over");
        return NULL;
    }
    const cr_game *g = cr_match_game(m);
    int n = cr_match_record(m)->n_actions;
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
    if (!*cache) *cache = sv_replay_new(m);
    if (!*cache) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    sv_replay_job j = {*cache, step, seat, NULL};
    if (!sv_run_on_stack(SV_REPLAY_STACK, sv_replay_main, &j)) { /* replaying: a full-size stack */
        snprintf(err, errcap, "cannot start a thread to replay the game");
        return NULL;
    }
    if (!j.out) snprintf(err, errcap, "out of memory");
    return j.out;
}

/* Lets go of the game c replays (its reference and checkpoints). */
void sv_replay_drop(sv_conn *c)
{
    sv_replay_free(c->rp);
    c->rp = NULL;
    sv_game_put(c->rp_game);
    c->rp_game = NULL;
}

/* replay: a finished game's table at one step, for one view (docs/protocol.md).
 * The connection keeps that game and its checkpoints until it replays
 * another one or closes, so stepping through it rebuilds nothing. */
static void sv_h_replay(sv_conn *c, const sv_msg *m)
{
    sv_server *sv = c->srv;
    double now = sv_mono();
    c->rp_bucket += (now - c->rp_t) * SV_REPLAY_RATE;
    if (c->rp_bucket > 2.0 * SV_REPLAY_RATE) c->rp_bucket = 2.0 * SV_REPLAY_RATE;
    c->rp_t = now;
    sv_game *g = c->rp_game;
    int take = !g || strcmp(g->meta.id, m->game_id) != 0;
    double cost = take ? SV_REPLAY_TAKE_COST : 1.0;
    int server_full = 0;
    if (take && c->rp_bucket >= cost) {
        pthread_mutex_lock(&sv->table_mu);
        sv->rp_takes += (now - sv->rp_takes_t) * SV_REPLAY_TAKES;
        if (sv->rp_takes > 2.0 * SV_REPLAY_TAKES) sv->rp_takes = 2.0 * SV_REPLAY_TAKES;
        sv->rp_takes_t = now;
        server_full = sv->rp_takes < 1.0;
        if (!server_full) sv->rp_takes -= 1.0;
        pthread_mutex_unlock(&sv->table_mu);
    }
    if (c->rp_bucket < cost || server_full) {
        char msg[160];
        if (server_full)
            snprintf(msg, sizeof msg,
                     "the server replays at most %d new games a second; ask again shortly",
                     SV_REPLAY_TAKES);
        else
            snprintf(msg, sizeof msg,
                     "at most %d replay steps a second (another game counts as %d); ask again "
                     "shortly",
                     SV_REPLAY_RATE, SV_REPLAY_TAKE_COST);
        sv_send_error(c, m, "limit", msg);
        return;
    }
    c->rp_bucket -= cost;
    if (take) {
        int busy = 0;
        g = sv_find_game(sv, m->game_id, &busy);
        if (busy) {
            sv_send_busy(c, m);
            return;
        }
        if (!g || !g->m) {
            sv_game_put(g);
            sv_send_error(c, m, g ? "outdated" : "no_game",
                          g ? "no record to replay" : "no such game");
            return;
        }
        pthread_mutex_lock(&g->mu);
        int over = cr_match_over(g->m);
        pthread_mutex_unlock(&g->mu);
        if (!over) {
            sv_game_put(g);
            sv_send_error(c, m, "not_finished",
                          "a game is replayed once it is over (its record is secret until then)");
            return;
        }
        sv_replay_drop(c);
        c->rp_game = g; /* the lookup's reference */
    }
    char err[256];
    pthread_mutex_lock(&g->mu);
    char *body = sv_replay_step(&c->rp, g->m, (int)(m->step < INT32_MAX ? m->step : INT32_MAX),
                                m->seat >= 0 ? m->seat : CR_SEAT_PUBLIC, err, sizeof err);
    const char *name = cr_match_game(g->m)->def->name;
    pthread_mutex_unlock(&g->mu);
    if (!body) {
        sv_send_error(c, m, strcmp(err, "out of memory") == 0 ? "limit" : "bad_request", err);
        return;
    }
    cr_text b = CR_TEXT_INIT;
    sv_frame_begin(&b, "replay", m);
    cr_text_printf(&b, ",\"game_id\":\"%s\",\"game\":", g->meta.id);
    cr_text_json_utf8(&b, name);
    if (m->seat >= 0)
        cr_text_printf(&b, ",\"seat\":%d,", m->seat);
    else
        cr_text_puts(&b, ",\"seat\":null,");
    cr_text_puts(&b, body);
    cr_free(body);
    sv_frame_send(c, m, &b);
    cr_text_free(&b);
}

void sv_dispatch(sv_conn *c, const char *data, size_t len)
{
    sv_server *sv = c->srv;
    sv_msg *m = malloc(sizeof *m);
    if (!m) return;
    const char *code;
    char err[256];
    if (sv_proto_parse(data, len, m, &code, err, sizeof err) != 0) {
        sv_send_error(c, m, code, err);
        free(m);
        return;
    }
    switch (m->type) {
    case SV_HELLO: sv_reply_json(c, m, sv_welcome(sv)); break;
    case SV_CREATE: sv_h_create(c, m); break;
    case SV_LIST: sv_reply_json(c, m, sv_games_json(sv, m->status)); break;
    case SV_JOIN: sv_h_join(c, m); break;
    case SV_SIT: sv_h_sit(c, m, 0); break;
    case SV_SPECTATE: sv_h_sit(c, m, 1); break;
    case SV_ACT: sv_h_act(c, m); break;
    case SV_HISTORY: sv_h_history(c, m); break;
    case SV_RESIGN: sv_h_leave(c, m, 0); break;
    case SV_BOT: sv_h_leave(c, m, 1); break;
    case SV_RECORD: sv_h_record(c, m); break;
    case SV_STATS: sv_reply_json(c, m, sv_stats_json(sv)); break;
    case SV_REPLAY: sv_h_replay(c, m); break;
    case SV_ANALYSE: sv_h_analyse(c, m); break;
    case SV_HINT: sv_h_hint(c, m); break;
    }
    free(m);
}
