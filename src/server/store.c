/* server/store.c — cr_store_open (picks the backend from the URL's scheme)
 * and what both backends share: the clock's text, a games row's decoding and
 * the group commit of appends. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/store.h"

size_t cr_store_clock_format(const cr_store_clock *c, int n, char *buf, size_t cap)
{
    size_t len = 0;
    int w = snprintf(buf, cap, "%d %" PRId64, c->seat, c->started_ms);
    for (int s = 0; w >= 0 && s < n && s < CR_MAX_PLAYERS; s++) {
        len += (size_t)w;
        w = snprintf(len < cap ? buf + len : NULL, len < cap ? cap - len : 0, " %" PRId64,
                     c->remaining_ms[s]);
    }
    return w >= 0 ? len + (size_t)w : len;
}

int cr_store_clock_parse(const char *text, int n, cr_store_clock *c)
{
    memset(c, 0, sizeof *c);
    if (!text || !*text || n < 1 || n > CR_MAX_PLAYERS) return 0;
    char *end;
    long long v = strtoll(text, &end, 10);
    if (end == text || v < -1 || v >= n) return 0;
    c->seat = (int)v;
    const char *p = end;
    c->started_ms = strtoll(p, &end, 10);
    if (end == p) return 0;
    for (int s = 0; s < n; s++) {
        p = end;
        c->remaining_ms[s] = strtoll(p, &end, 10);
        if (end == p) return 0;
    }
    return *end == '\0';
}

static long long sr_num(const char *text) { return text ? strtoll(text, NULL, 10) : 0; }

static void sr_copy(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
}

cr_status cr_store_row_game(cr_store_game *g, const char *const col[CR_STORE_GAME_NCOLS], char *err,
                            size_t errcap)
{
    memset(g, 0, sizeof *g);
    sr_copy(g->id, sizeof g->id, col[0]);
    sr_copy(g->game, sizeof g->game, col[1]);
    sr_copy(g->variant, sizeof g->variant, col[2]);
    g->players = (int)sr_num(col[3]);
    g->rules_version = (int)sr_num(col[4]);
    g->data_hash = (uint64_t)sr_num(col[5]);
    g->has_data_hash = (int)sr_num(col[6]);
    g->seed = (uint64_t)sr_num(col[7]);
    sr_copy(g->options_json, sizeof g->options_json, col[8]);
    sr_copy(g->config_json, sizeof g->config_json, col[9]);
    g->status = (cr_store_status)sr_num(col[10]);
    g->created_ms = sr_num(col[11]);
    g->updated_ms = sr_num(col[12]);
    g->n_entries = (int)sr_num(col[13]);
    sr_copy(g->result_json, sizeof g->result_json, col[14]);
    g->winners = (uint32_t)sr_num(col[15]);
    if (g->players < 1 || g->players > CR_MAX_PLAYERS) {
        snprintf(err, errcap, "game %s: bad player count %d in the store", g->id, g->players);
        return CR_ERR_IO;
    }
    /* the clock is stored for CR_MAX_PLAYERS seats; the game's are read */
    g->has_clock =
        cr_store_clock_parse(col[16], CR_MAX_PLAYERS, &g->clock) && g->clock.seat < g->players;
    return CR_OK;
}

void cr_store_row_seat(cr_store_game *g, long long seat, const char *spec, int has_token)
{
    if (seat < 0 || seat >= CR_MAX_PLAYERS || !spec) return;
    sr_copy(g->seats[seat], sizeof g->seats[seat], spec);
    if (has_token) g->taken |= 1u << seat;
}

void cr_store_gc_init(cr_store_gc *q)
{
    memset(q, 0, sizeof *q);
    pthread_mutex_init(&q->mu, NULL);
    pthread_cond_init(&q->cv, NULL);
}

void cr_store_gc_destroy(cr_store_gc *q)
{
    pthread_mutex_destroy(&q->mu);
    pthread_cond_destroy(&q->cv);
}

void cr_store_gc_run(cr_store_gc *q, cr_store_gc_req *r,
                     void (*commit)(void *arg, cr_store_gc_req **batch, int n), void *arg)
{
    r->done = 0;
    r->next = NULL;
    pthread_mutex_lock(&q->mu);
    if (q->tail)
        q->tail->next = r;
    else
        q->head = r;
    q->tail = r;
    while (!r->done) {
        if (q->leader) {
            pthread_cond_wait(&q->cv, &q->mu);
            continue;
        }
        q->leader = 1;
        /* the batch: the first request of each game, in queue order */
        cr_store_gc_req *batch[CR_STORE_GC_MAX];
        int n = 0;
        cr_store_gc_req **link = &q->head;
        q->tail = NULL;
        while (*link) {
            cr_store_gc_req *x = *link;
            int dup = 0;
            for (int k = 0; k < n && !dup; k++) dup = strcmp(batch[k]->id, x->id) == 0;
            if (!dup && n < CR_STORE_GC_MAX) {
                batch[n++] = x;
                *link = x->next;
                x->next = NULL;
            } else {
                q->tail = x;
                link = &x->next;
            }
        }
        pthread_mutex_unlock(&q->mu);
        commit(arg, batch, n);
        pthread_mutex_lock(&q->mu);
        for (int k = 0; k < n; k++) batch[k]->done = 1;
        q->leader = 0;
        pthread_cond_broadcast(&q->cv);
    }
    pthread_mutex_unlock(&q->mu);
}

cr_store *cr_store_open(const char *url, char *err, size_t errcap)
{
    if (!url) url = "";
    if (strncmp(url, "sqlite:", 7) == 0) return cr_store_sqlite_open(url + 7, err, errcap);
    if (strncmp(url, "postgres://", 11) == 0 || strncmp(url, "postgresql://", 13) == 0) {
#ifdef CR_HAVE_PG
        return cr_store_pg_open(url, err, errcap);
#else
        snprintf(err, errcap, "this croupier was built without PostgreSQL (libpq)");
        return NULL;
#endif
    }
    snprintf(err, errcap, "unknown store URL (expected sqlite:PATH or postgres://...)");
    return NULL;
}
