/* server/store_pg.c — the PostgreSQL backend of the store (store.h), through
 * libpq.  URL: "postgres://USER:PASSWORD@HOST:PORT/DB?..." (libpq's own URI
 * syntax; every libpq parameter may follow the '?').
 *
 * Several server processes may share one database (docs/server.md, "Past one
 * machine").  Each game is played by one process at a time: the process that
 * holds the game's session advisory lock.  The lock lives as long as the
 * session (this store's locks' session), so when the process exits or dies
 * (kill -9, a crash, a lost machine once TCP keepalives give up) PostgreSQL
 * drops it and another process may claim the game.  A claim is
 * pg_try_advisory_lock on a 64-bit key, BLAKE2b of "croupier game " + id, so
 * it never waits and never collides with another application's locks on
 * other keys.  The store remembers what it holds (`held`): append and finish
 * refuse a game this process does not hold, and if the locks' session is
 * lost and remade, the locks are taken again where still free and forgotten
 * where another process took them meanwhile.  A lost locks' session is
 * noticed before every claim and append (its socket turns readable).
 *
 * Every statement is parameterised (PQexecParams): no text from a client is
 * ever part of the SQL.  Results come back in text form and are parsed;
 * token hashes travel in binary (bytea).
 *
 * Appends are group-committed (pg_append_clock), as in the SQLite store:
 * concurrent appends of many games go to PostgreSQL as one statement (one
 * round trip, one transaction, one commit), prepared once per session.
 * For each game the statement bumps games.n_entries from `at` to `at + n`
 * and inserts the entries; the requests come as one JSON parameter
 * (jansson escapes them).  The UPDATE's WHERE n_entries = at makes a
 * second writer at the same index find no row (it waits for the first
 * one's row lock, then sees the new count), so entries are never written
 * twice or out of order; a request that writes nothing (no such game,
 * another count) fails alone, the others of its batch are stored.  A
 * batch holds one append per game, so one game's appends keep their
 * order.  Every caller returns once PostgreSQL has committed its batch —
 * durably, with the server's default synchronous_commit=on — and only
 * then does the server acknowledge the action.
 *
 * Tables (mirroring store_sqlite.c):
 *   games   (id, header..., status, n_entries, result_json, winners)
 *   seats   (game_id, seat, spec, token_hash)      token_hash: bytea or NULL
 *   entries (game_id, idx, kind, value, seat, spec)
 *   croupier_schema (version)                       one row: the schema's version
 * They are created on first start, under a transaction-scoped advisory lock
 * so that two servers starting at once do not race.
 *
 * Sessions: one for the locks (claim, release; under lk_mu) and a pool of
 * PG_POOL for the statements, each used by one thread at a time (a batch
 * of appends takes one; loads, lists and token look-ups run beside it).
 *
 * Errors name the step that failed and PostgreSQL's primary message and
 * SQLSTATE only (never the URL, which may carry a password, nor a detail
 * line, which may quote a row).
 */
#include <jansson.h>
#include <libpq-fe.h>
#include <poll.h>
#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/store.h"

enum { PG_SCHEMA_VERSION = 1 };

typedef struct pg_held {
    char id[CR_STORE_ID_LEN + 1];
    long long key;
} pg_held;

enum { PG_POOL = 8 }; /* sessions for statements */

typedef struct pg_store {
    cr_store base;
    /* The locks' session: claim and release, nothing else. */
    PGconn *lk;
    pthread_mutex_t lk_mu; /* lk, held */
    pg_held *held;         /* the games this process owns (claim) */
    int n_held, cap_held;
    /* The statements' sessions: each used by one thread at a time. */
    PGconn *pool[PG_POOL];
    int free_[PG_POOL], n_free;
    int prepared_pid[PG_POOL]; /* the backend that has the batch statement (pg_prepare_batch) */
    pthread_mutex_t pool_mu;
    pthread_cond_t pool_cv;
    cr_store_gc gc; /* group commit: appends waiting for the next batch */
} pg_store;

/* Constant SQL only: nothing here is built from input. */
static const char pg_schema[] =
    "CREATE TABLE IF NOT EXISTS croupier_schema (version integer NOT NULL);"
    "CREATE TABLE IF NOT EXISTS games ("
    " id text PRIMARY KEY, game text NOT NULL, variant text NOT NULL, players integer NOT NULL,"
    " rules integer NOT NULL, data_hash bigint NOT NULL, has_data_hash integer NOT NULL,"
    " seed bigint NOT NULL, options_json text NOT NULL, config_json text NOT NULL,"
    " status integer NOT NULL, created_ms bigint NOT NULL, updated_ms bigint NOT NULL,"
    " n_entries integer NOT NULL DEFAULT 0, result_json text NOT NULL DEFAULT '',"
    " winners bigint NOT NULL DEFAULT 0);"
    "CREATE INDEX IF NOT EXISTS games_status ON games (status, created_ms);"
    "CREATE TABLE IF NOT EXISTS seats ("
    " game_id text NOT NULL REFERENCES games (id) ON DELETE CASCADE, seat integer NOT NULL,"
    " spec text NOT NULL, token_hash bytea, PRIMARY KEY (game_id, seat));"
    "CREATE TABLE IF NOT EXISTS entries ("
    " game_id text NOT NULL REFERENCES games (id) ON DELETE CASCADE, idx integer NOT NULL,"
    " kind integer NOT NULL, value integer NOT NULL, seat integer NOT NULL, spec text NOT NULL,"
    " PRIMARY KEY (game_id, idx));"
    /* added later (kept at schema version 1: older servers ignore it) */
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS clock text NOT NULL DEFAULT '';";

/* The schema lock's key: any constant no game key is likely to take. */
static const char pg_schema_lock[] = "SELECT pg_advisory_xact_lock(7301885770562401377)";

static int64_t pg_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The first line of a libpq message (they end in '\n' and may have more). */
static void pg_first_line(char *dst, size_t cap, const char *msg)
{
    if (!msg) msg = "";
    size_t n = strcspn(msg, "\n");
    if (n >= cap) n = cap - 1;
    memcpy(dst, msg, n);
    dst[n] = '\0';
}

/* "postgres: WHAT: primary message (SQLSTATE)" into err; CR_ERR_IO. */
static cr_status pg_fail(PGconn *c, const PGresult *r, const char *what, char *err, size_t errcap)
{
    if (!err || !errcap) return CR_ERR_IO;
    char msg[256];
    const char *primary = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    if (primary) {
        pg_first_line(msg, sizeof msg, primary);
        snprintf(err, errcap, "postgres: %s: %s (%s)", what, msg, state ? state : "?");
    } else {
        pg_first_line(msg, sizeof msg, PQerrorMessage(c));
        snprintf(err, errcap, "postgres: %s: %s", what, msg[0] ? msg : "no answer");
    }
    return CR_ERR_IO;
}

static int pg_is_state(const PGresult *r, const char *state)
{
    const char *st = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    return st && strcmp(st, state) == 0;
}

/* A game's lock key: 64 bits of BLAKE2b("croupier game " id). */
static long long pg_key(const char *id)
{
    unsigned char h[8];
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, sizeof h);
    crypto_generichash_update(&st, (const unsigned char *)"croupier game ", 14);
    crypto_generichash_update(&st, (const unsigned char *)id, strlen(id));
    crypto_generichash_final(&st, h, sizeof h);
    uint64_t k = 0;
    for (int i = 0; i < 8; i++) k = k << 8 | h[i];
    return (long long)k;
}

static int pg_held_index(const pg_store *s, const char *id)
{
    for (int i = 0; i < s->n_held; i++)
        if (strcmp(s->held[i].id, id) == 0) return i;
    return -1;
}

static int pg_try_lock(pg_store *s, long long key)
{
    char kbuf[24];
    snprintf(kbuf, sizeof kbuf, "%lld", key);
    const char *pv[1] = {kbuf};
    PGresult *r =
        PQexecParams(s->lk, "SELECT pg_try_advisory_lock($1::bigint)", 1, NULL, pv, NULL, NULL, 0);
    int ok = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 &&
             strcmp(PQgetvalue(r, 0, 0), "t") == 0;
    int answered = PQresultStatus(r) == PGRES_TUPLES_OK;
    PQclear(r);
    return answered ? ok : -1;
}

/* The locks' session, under lk_mu: if it is gone (PostgreSQL ended it, the
 * network cut it), makes it again and takes back the locks it held where no
 * other process took them since; the others are given up.  Called before
 * every use of the locks and every append, so a lost session is noticed
 * without waiting for a statement on it: a closed socket is readable. */
static void pg_lk_check(pg_store *s)
{
    if (PQstatus(s->lk) == CONNECTION_OK) {
        struct pollfd pf = {PQsocket(s->lk), POLLIN, 0};
        if (pf.fd < 0 || poll(&pf, 1, 0) == 0) return;
        /* Something came on an idle session: a notice, or its end (a FATAL
         * message, then EOF).  One round trip tells which. */
        PQconsumeInput(s->lk);
        for (PGnotify *n; (n = PQnotifies(s->lk)) != NULL;) PQfreemem(n);
        PGresult *r = PQexec(s->lk, "SELECT 1");
        int alive = PQresultStatus(r) == PGRES_TUPLES_OK;
        PQclear(r);
        if (alive && PQstatus(s->lk) == CONNECTION_OK) return;
    }
    PQreset(s->lk);
    if (PQstatus(s->lk) != CONNECTION_OK) {
        s->n_held = 0; /* no session, no locks: nothing is ours until claimed again */
        return;
    }
    int kept = 0;
    for (int i = 0; i < s->n_held; i++)
        if (pg_try_lock(s, s->held[i].key) == 1) s->held[kept++] = s->held[i];
    s->n_held = kept;
}

/* A statement session from the pool (waits while all are busy). */
static PGconn *pg_get(pg_store *s)
{
    pthread_mutex_lock(&s->pool_mu);
    while (s->n_free == 0) pthread_cond_wait(&s->pool_cv, &s->pool_mu);
    PGconn *c = s->pool[s->free_[--s->n_free]];
    pthread_mutex_unlock(&s->pool_mu);
    return c;
}

static void pg_put(pg_store *s, PGconn *c)
{
    pthread_mutex_lock(&s->pool_mu);
    for (int i = 0; i < PG_POOL; i++) {
        if (s->pool[i] == c) {
            s->free_[s->n_free++] = i;
            break;
        }
    }
    pthread_cond_signal(&s->pool_cv);
    pthread_mutex_unlock(&s->pool_mu);
}

/* After a statement failed: if its session is gone, makes it again (the
 * statement is not retried: the caller reports the failure). */
static void pg_reset(PGconn *c)
{
    if (PQstatus(c) != CONNECTION_OK) PQreset(c);
}

/* Runs one parameterised statement (text parameters, text results). */
static PGresult *pg_exec(PGconn *c, const char *sql, int n, const char *const *values)
{
    return PQexecParams(c, sql, n, NULL, values, NULL, NULL, 0);
}

static void pg_close(cr_store *base)
{
    pg_store *s = (pg_store *)base;
    if (s->lk) PQfinish(s->lk); /* ends the session: its advisory locks go with it */
    for (int i = 0; i < PG_POOL; i++)
        if (s->pool[i]) PQfinish(s->pool[i]);
    free(s->held);
    pthread_mutex_destroy(&s->lk_mu);
    pthread_mutex_destroy(&s->pool_mu);
    pthread_cond_destroy(&s->pool_cv);
    cr_store_gc_destroy(&s->gc);
    free(s);
}

static int pg_valid_id(const char *id)
{
    size_t n = id ? strlen(id) : 0;
    return n >= 1 && n <= CR_STORE_ID_LEN;
}

static cr_status pg_create_game(cr_store *base, const cr_store_game *g, char *err, size_t errcap)
{
    pg_store *s = (pg_store *)base;
    if (g->players < 1 || g->players > CR_MAX_PLAYERS) {
        snprintf(err, errcap, "bad player count %d", g->players);
        return CR_ERR_INVALID;
    }
    if (!pg_valid_id(g->id)) {
        snprintf(err, errcap, "bad game id");
        return CR_ERR_INVALID;
    }
    /* The game and its seats in one statement (one transaction). */
    json_t *seats = json_array();
    for (int i = 0; i < g->players && seats; i++) {
        if (json_array_append_new(seats, json_pack("{s:i,s:s}", "seat", i, "spec", g->seats[i]))) {
            json_decref(seats);
            seats = NULL;
        }
    }
    char *seats_json = seats ? json_dumps(seats, JSON_COMPACT) : NULL;
    json_decref(seats);
    if (!seats_json) {
        snprintf(err, errcap, "cannot encode the seats (out of memory, or a spec not in UTF-8)");
        return CR_ERR_INVALID;
    }
    char players[16], rules[16], dh[24], has[8], seed[24], status[8], created[24], now[24];
    int64_t t = pg_now_ms();
    snprintf(players, sizeof players, "%d", g->players);
    snprintf(rules, sizeof rules, "%d", g->rules_version);
    snprintf(dh, sizeof dh, "%lld", (long long)(int64_t)g->data_hash);
    snprintf(has, sizeof has, "%d", g->has_data_hash);
    snprintf(seed, sizeof seed, "%lld", (long long)(int64_t)g->seed);
    snprintf(status, sizeof status, "%d", (int)CR_STORE_RUNNING);
    snprintf(created, sizeof created, "%lld", (long long)(g->created_ms ? g->created_ms : t));
    snprintf(now, sizeof now, "%lld", (long long)t);
    const char *pv[14] = {g->id,  g->game, g->variant, players,         rules,
                          dh,     has,     seed,       g->options_json, g->config_json,
                          status, created, now,        seats_json};
    cr_status rc = CR_OK;
    PGconn *c = pg_get(s);
    PGresult *r = pg_exec(
        c,
        "WITH g AS (INSERT INTO games (id, game, variant, players, rules, data_hash,"
        " has_data_hash, seed, options_json, config_json, status, created_ms, updated_ms)"
        " VALUES ($1, $2, $3, $4::integer, $5::integer, $6::bigint, $7::integer, $8::bigint, $9,"
        " $10, $11::integer, $12::bigint, $13::bigint) RETURNING id)"
        " INSERT INTO seats (game_id, seat, spec)"
        " SELECT g.id, x.seat, x.spec FROM g, jsonb_to_recordset($14::jsonb) AS x(seat integer,"
        " spec text)",
        14, pv);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) {
        if (pg_is_state(r, "23505")) { /* unique_violation */
            snprintf(err, errcap, "game %s exists already", g->id);
            rc = CR_ERR_ILLEGAL;
        } else {
            rc = pg_fail(c, r, "store a new game", err, errcap);
            pg_reset(c);
        }
    }
    PQclear(r);
    pg_put(s, c);
    free(seats_json);
    return rc;
}

/* The reason an append wrote nothing: no such game (CR_ERR_INVALID), or
 * another count than `at` (CR_ERR_ILLEGAL; at = -1 never matches). */
static cr_status pg_append_conflict(PGconn *c, const char *id, int at, char *err, size_t errcap)
{
    const char *pv[1] = {id};
    PGresult *r = pg_exec(c, "SELECT n_entries FROM games WHERE id = $1", 1, pv);
    cr_status rc;
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        rc = pg_fail(c, r, "read a game's entry count", err, errcap);
        pg_reset(c);
    } else if (PQntuples(r) == 0) {
        snprintf(err, errcap, "no game %.40s", id);
        rc = CR_ERR_INVALID;
    } else {
        int have = atoi(PQgetvalue(r, 0, 0));
        if (have == at) {
            rc = CR_OK; /* n == 0: nothing to write, and the count is right */
        } else {
            snprintf(err, errcap, "append at %d but the game holds %d entries", at, have);
            rc = CR_ERR_ILLEGAL;
        }
    }
    PQclear(r);
    return rc;
}

/* One append waiting for the next batch (pg_append_clock), on its caller's
 * stack. */
typedef struct pg_req {
    cr_store_gc_req q; /* q.id: the game */
    int at;
    char *json; /* {"id":..,"at":..,"clock":..|null,"e":[entries]} */
    cr_status rc;
    char err[256];
} pg_req;

/* A batch of appends, each to another game, as one statement (so one
 * transaction and one commit): $1 is a JSON array of requests.  Each
 * request bumps its game's entry count from exactly `at` (the compare-and-
 * set of a single append) and inserts its entries; its clock, when not
 * null, is set.  The games written come back: a request whose game is
 * missing or holds another count wrote nothing, and the others are not
 * affected by it. */
static const char pg_batch_sql[] =
    "WITH req AS (SELECT * FROM jsonb_to_recordset($1::jsonb)"
    " AS r(id text, at integer, clock text, e jsonb)),"
    " g AS (UPDATE games SET n_entries = games.n_entries + jsonb_array_length(req.e),"
    " updated_ms = $2::bigint, clock = coalesce(req.clock, games.clock)"
    " FROM req WHERE games.id = ANY (ARRAY(SELECT id FROM req)) /* by the primary key */"
    " AND games.id = req.id AND games.n_entries = req.at"
    " RETURNING games.id, req.at, req.e),"
    " ins AS (INSERT INTO entries (game_id, idx, kind, value, seat, spec)"
    " SELECT g.id, g.at + x.i, x.kind, x.value, x.seat, x.spec"
    " FROM g, jsonb_to_recordset(g.e) AS x(i integer, kind integer, value integer,"
    " seat integer, spec text))"
    " SELECT id FROM g";

/* The batch statement is prepared once per session (planning it costs
 * about as much as running it): 1 when c has it.  A session made again
 * (PQreset) is another backend, which has not. */
static int pg_prepare_batch(pg_store *s, PGconn *c)
{
    int i = 0;
    while (i < PG_POOL && s->pool[i] != c) i++;
    if (i == PG_POOL) return 0;
    int pid = PQbackendPID(c);
    if (pid != 0 && s->prepared_pid[i] == pid) return 1;
    PGresult *r = PQprepare(c, "cr_batch", pg_batch_sql, 2, NULL);
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    s->prepared_pid[i] = ok ? pid : 0;
    return ok;
}

/* Runs requests b[0..n) as one statement on c; sets each one's rc/err. */
static void pg_run_batch(pg_store *s, PGconn *c, pg_req **b, int n)
{
    size_t len = 2;
    for (int i = 0; i < n; i++) len += strlen(b[i]->json) + 1;
    char *text = malloc(len + 1);
    if (!text) {
        for (int i = 0; i < n; i++) {
            b[i]->rc = CR_ERR_NOMEM;
            snprintf(b[i]->err, sizeof b[i]->err, "out of memory");
        }
        return;
    }
    size_t at = 0;
    text[at++] = '[';
    for (int i = 0; i < n; i++) {
        if (i) text[at++] = ',';
        size_t k = strlen(b[i]->json);
        memcpy(text + at, b[i]->json, k);
        at += k;
    }
    text[at++] = ']';
    text[at] = '\0';
    char now[24];
    snprintf(now, sizeof now, "%lld", (long long)pg_now_ms());
    const char *pv[2] = {text, now};
    PGresult *r = NULL;
    if (pg_prepare_batch(s, c)) r = PQexecPrepared(c, "cr_batch", 2, pv, NULL, NULL, 0);
    free(text);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        /* Nothing of the batch was written (one statement).  A lost
         * session fails them all; otherwise (a request the statement
         * refused) each runs alone, so only the faulty one fails. */
        if (n > 1 && PQstatus(c) == CONNECTION_OK) {
            PQclear(r);
            for (int i = 0; i < n; i++) pg_run_batch(s, c, &b[i], 1);
            return;
        }
        for (int i = 0; i < n; i++) {
            b[i]->rc = pg_is_state(r, "23505")
                           ? (snprintf(b[i]->err, sizeof b[i]->err,
                                       "append at %d: another writer got there first", b[i]->at),
                              CR_ERR_ILLEGAL)
                           : pg_fail(c, r, "append entries", b[i]->err, sizeof b[i]->err);
        }
        PQclear(r);
        pg_reset(c);
        return;
    }
    for (int i = 0; i < n; i++) {
        int wrote = 0;
        for (int row = 0; row < PQntuples(r) && !wrote; row++)
            wrote = strcmp(PQgetvalue(r, row, 0), b[i]->q.id) == 0;
        if (wrote) {
            b[i]->rc = CR_OK;
            continue;
        }
        b[i]->rc = pg_append_conflict(c, b[i]->q.id, b[i]->at, b[i]->err, sizeof b[i]->err);
        /* the count was right yet nothing was written: never claim success */
        if (b[i]->rc == CR_OK) {
            snprintf(b[i]->err, sizeof b[i]->err, "append at %d wrote nothing", b[i]->at);
            b[i]->rc = CR_ERR_IO;
        }
    }
    PQclear(r);
}

/* The group commit's batch (cr_store_gc_run): on one session. */
static void pg_commit_batch(void *arg, cr_store_gc_req **batch, int n)
{
    pg_store *s = arg;
    PGconn *c = pg_get(s);
    pg_run_batch(s, c, (pg_req **)batch, n);
    pg_put(s, c);
}

/* Group commit (store.h, cr_store_gc_run), as in the SQLite store: the
 * appends waiting at once, of many games, go as one statement and one
 * commit.  Each caller returns only once the commit holding its entries is
 * durable (or failed).  Under load, many games share one commit and one
 * round trip; alone, an append costs what it did. */
static cr_status pg_append_clock(cr_store *base, const char *id, int at, const cr_store_entry *e,
                                 int n, const cr_store_clock *clock, char *err, size_t errcap)
{
    pg_store *s = (pg_store *)base;
    if (n < 0 || at < 0 || !pg_valid_id(id) || (n > 0 && !e)) {
        snprintf(err, errcap, "bad append");
        return CR_ERR_INVALID;
    }
    pthread_mutex_lock(&s->lk_mu);
    pg_lk_check(s); /* a lost locks' session gives up what others took since */
    int held = pg_held_index(s, id) >= 0;
    pthread_mutex_unlock(&s->lk_mu);
    if (!held || (n == 0 && !clock)) {
        PGconn *c = pg_get(s);
        /* "no such game" first (the clearer reason), then "not yours";
         * with nothing to write, only the index is checked */
        cr_status rc = pg_append_conflict(c, id, held ? at : -1, err, errcap);
        if (!held && rc == CR_ERR_ILLEGAL)
            snprintf(err, errcap, "game %.40s is not held by this server (claim it first)", id);
        pg_put(s, c);
        return rc;
    }
    char ctext[32 * (CR_MAX_PLAYERS + 2)];
    if (clock) cr_store_clock_format(clock, CR_MAX_PLAYERS, ctext, sizeof ctext);
    json_t *arr = json_array();
    for (int i = 0; i < n && arr; i++) {
        json_t *o = json_pack("{s:i,s:i,s:i,s:i,s:s}", "i", i, "kind", (int)e[i].kind, "value",
                              (int)e[i].value, "seat", (int)e[i].seat, "spec", e[i].spec);
        if (json_array_append_new(arr, o)) {
            json_decref(arr);
            arr = NULL;
        }
    }
    json_t *o = arr ? json_pack("{s:s,s:i,s:s?,s:o}", "id", id, "at", at, "clock",
                                clock ? ctext : NULL, "e", arr)
                    : NULL;
    pg_req req = {.q.id = id, .at = at, .json = o ? json_dumps(o, JSON_COMPACT) : NULL};
    json_decref(o);
    if (!req.json) {
        snprintf(err, errcap, "cannot encode the entries (out of memory, or a spec not in UTF-8)");
        return CR_ERR_INVALID;
    }
    cr_store_gc_run(&s->gc, &req.q, pg_commit_batch, s);
    free(req.json);
    if (req.rc != CR_OK) snprintf(err, errcap, "%s", req.err);
    return req.rc;
}

/* One UPDATE of games by id ($1); CR_ERR_INVALID if no row. */
static cr_status pg_update(pg_store *s, const char *sql, int n, const char *const *pv,
                           const char *what, char *err, size_t errcap)
{
    cr_status rc = CR_OK;
    PGconn *c = pg_get(s);
    PGresult *r = pg_exec(c, sql, n, pv);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) {
        rc = pg_fail(c, r, what, err, errcap);
        PQclear(r);
        pg_reset(c);
    } else {
        if (atoi(PQcmdTuples(r)) == 0) {
            snprintf(err, errcap, "no game %.40s", pv[0]);
            rc = CR_ERR_INVALID;
        }
        PQclear(r);
    }
    pg_put(s, c);
    return rc;
}

static cr_status pg_finish(cr_store *base, const char *id, const char *result_json,
                           uint32_t winners, char *err, size_t errcap)
{
    pg_store *s = (pg_store *)base;
    char w[16], now[24];
    snprintf(w, sizeof w, "%u", (unsigned)winners);
    snprintf(now, sizeof now, "%lld", (long long)pg_now_ms());
    const char *pv[4] = {id, w, now, result_json ? result_json : ""};
    return pg_update(s,
                     "UPDATE games SET status = 2, winners = $2::bigint, updated_ms = $3::bigint,"
                     " result_json = $4 WHERE id = $1",
                     4, pv, "finish a game", err, errcap);
}

static cr_status pg_set_status(cr_store *base, const char *id, cr_store_status st, char *err,
                               size_t errcap)
{
    pg_store *s = (pg_store *)base;
    char v[16], now[24];
    snprintf(v, sizeof v, "%d", (int)st);
    snprintf(now, sizeof now, "%lld", (long long)pg_now_ms());
    const char *pv[3] = {id, v, now};
    return pg_update(s,
                     "UPDATE games SET status = $2::integer, updated_ms = $3::bigint WHERE id = $1",
                     3, pv, "set a game's status", err, errcap);
}

/* The shared columns, then the seats as one JSON array of [seat, spec,
 * has_token]. */
#define PG_GAME_COLS                                                                               \
    CR_STORE_GAME_COLS ", (SELECT coalesce(json_agg(json_build_array(seat, spec,"                  \
                       " token_hash IS NOT NULL) ORDER BY seat), '[]') FROM seats"                 \
                       " WHERE seats.game_id = games.id)::text"

static cr_status pg_append(cr_store *base, const char *id, int at, const cr_store_entry *e, int n,
                           char *err, size_t errcap)
{
    return pg_append_clock(base, id, at, e, n, NULL, err, errcap);
}

/* Reads row `row` (PG_GAME_COLS) into g. */
static cr_status pg_read_game(const PGresult *r, int row, cr_store_game *g, char *err,
                              size_t errcap)
{
    const char *col[CR_STORE_GAME_NCOLS];
    for (int i = 0; i < CR_STORE_GAME_NCOLS; i++) col[i] = PQgetvalue(r, row, i);
    cr_status rc = cr_store_row_game(g, col, err, errcap);
    if (rc != CR_OK) return rc;
    json_error_t je;
    json_t *seats = json_loads(PQgetvalue(r, row, CR_STORE_GAME_NCOLS), 0, &je);
    size_t i;
    json_t *seat;
    json_array_foreach(seats, i, seat)
    {
        cr_store_row_seat(g, json_integer_value(json_array_get(seat, 0)),
                          json_string_value(json_array_get(seat, 1)),
                          json_is_true(json_array_get(seat, 2)));
    }
    json_decref(seats);
    return CR_OK;
}

static cr_status pg_load(cr_store *base, const char *id, cr_store_game *g, cr_store_entry **entries,
                         char *err, size_t errcap)
{
    pg_store *s = (pg_store *)base;
    *entries = NULL;
    const char *pv[1] = {id ? id : ""};
    cr_status rc = CR_OK;
    PGconn *c = pg_get(s);
    /* One snapshot for the header and the entries. */
    PGresult *r = PQexec(c, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    if (PQresultStatus(r) != PGRES_COMMAND_OK) {
        rc = pg_fail(c, r, "begin a read", err, errcap);
        PQclear(r);
        pg_reset(c);
        goto out;
    }
    PQclear(r);
    r = pg_exec(c, "SELECT " PG_GAME_COLS " FROM games WHERE id = $1", 1, pv);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        rc = pg_fail(c, r, "load a game", err, errcap);
    } else if (PQntuples(r) == 0) {
        snprintf(err, errcap, "no game %.40s", pv[0]);
        rc = CR_ERR_INVALID;
    } else {
        rc = pg_read_game(r, 0, g, err, errcap);
    }
    PQclear(r);
    if (rc != CR_OK) goto end;
    r = pg_exec(c,
                "SELECT idx, kind, value, seat, spec FROM entries WHERE game_id = $1 ORDER BY idx",
                1, pv);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        rc = pg_fail(c, r, "load a game's entries", err, errcap);
        PQclear(r);
        goto end;
    }
    int rows = PQntuples(r);
    cr_store_entry *e = rows == g->n_entries ? calloc((size_t)rows + 1, sizeof *e) : NULL;
    for (int i = 0; e && i < rows; i++) {
        if (atoi(PQgetvalue(r, i, 0)) != i) {
            free(e);
            e = NULL;
            break;
        }
        e[i].kind = (cr_store_kind)atoi(PQgetvalue(r, i, 1));
        e[i].value = (int32_t)atoi(PQgetvalue(r, i, 2));
        e[i].seat = (int32_t)atoi(PQgetvalue(r, i, 3));
        snprintf(e[i].spec, sizeof e[i].spec, "%s", PQgetvalue(r, i, 4));
    }
    PQclear(r);
    if (!e) {
        snprintf(err, errcap, "game %s: its entries do not match its count", g->id);
        rc = CR_ERR_IO;
        goto end;
    }
    *entries = e;
end:
    r = PQexec(c, "COMMIT");
    PQclear(r);
    if (rc != CR_OK) pg_reset(c);
out:
    pg_put(s, c);
    return rc;
}

static cr_status pg_list(cr_store *base, int status, int limit,
                         int (*fn)(void *arg, const cr_store_game *g), void *arg, char *err,
                         size_t errcap)
{
    pg_store *s = (pg_store *)base;
    char st[16], lim[16];
    snprintf(st, sizeof st, "%d", status);
    snprintf(lim, sizeof lim, "%d", limit < 0 ? 0 : limit);
    const char *pv[2] = {st, lim};
    cr_store_game *g = malloc(sizeof *g);
    if (!g) return CR_ERR_NOMEM;
    cr_status rc = CR_OK;
    PGconn *c = pg_get(s);
    PGresult *r = pg_exec(c,
                          "SELECT " PG_GAME_COLS " FROM games WHERE ($1::integer = 0 OR status ="
                          " $1::integer) ORDER BY created_ms DESC, id LIMIT $2::integer",
                          2, pv);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        rc = pg_fail(c, r, "list games", err, errcap);
        PQclear(r);
        pg_reset(c);
        pg_put(s, c);
        free(g);
        return rc;
    }
    pg_put(s, c);
    /* The callback runs without the mutex: it may call the store again. */
    char skip[256];
    for (int i = 0; i < PQntuples(r); i++) {
        if (pg_read_game(r, i, g, skip, sizeof skip) != CR_OK) continue;
        if (fn(arg, g)) break;
    }
    PQclear(r);
    free(g);
    return rc;
}

static cr_status pg_add_token(cr_store *base, const char *id, int seat,
                              const uint8_t hash[CR_STORE_HASH_LEN], char *err, size_t errcap)
{
    pg_store *s = (pg_store *)base;
    char seat_s[16];
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    const char *pv[3] = {(const char *)hash, id, seat_s};
    const int lens[3] = {CR_STORE_HASH_LEN, 0, 0};
    const int fmts[3] = {1, 0, 0}; /* the hash in binary */
    cr_status rc = CR_OK;
    PGconn *c = pg_get(s);
    PGresult *r = PQexecParams(c,
                               "UPDATE seats SET token_hash = $1::bytea WHERE game_id = $2 AND"
                               " seat = $3::integer AND token_hash IS NULL",
                               3, NULL, pv, lens, fmts, 0);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) {
        rc = pg_fail(c, r, "bind a seat token", err, errcap);
        PQclear(r);
        pg_reset(c);
    } else {
        if (atoi(PQcmdTuples(r)) == 0) {
            snprintf(err, errcap, "seat P%d is taken", seat);
            rc = CR_ERR_ILLEGAL;
        }
        PQclear(r);
    }
    pg_put(s, c);
    return rc;
}

static cr_status pg_find_token(cr_store *base, const char *id,
                               const uint8_t hash[CR_STORE_HASH_LEN], int *seat, char *err,
                               size_t errcap)
{
    pg_store *s = (pg_store *)base;
    const char *pv[1] = {id ? id : ""};
    cr_status rc = CR_ERR_INVALID;
    PGconn *c = pg_get(s);
    /* Every hash of the game comes back (binary results) and is compared here
     * in constant time: the database never sees the hash being looked for,
     * and the time taken does not depend on which seat matched. */
    PGresult *r = PQexecParams(c,
                               "SELECT seat, token_hash FROM seats WHERE game_id = $1 AND"
                               " token_hash IS NOT NULL ORDER BY seat",
                               1, NULL, pv, NULL, NULL, 1);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        rc = pg_fail(c, r, "look up a seat token", err, errcap);
        PQclear(r);
        pg_reset(c);
        pg_put(s, c);
        return rc;
    }
    int found = -1;
    for (int i = 0; i < PQntuples(r); i++) {
        if (PQgetlength(r, i, 0) != 4 || PQgetlength(r, i, 1) != CR_STORE_HASH_LEN) continue;
        const unsigned char *sp = (const unsigned char *)PQgetvalue(r, i, 0);
        int seat_i = (int)((uint32_t)sp[0] << 24 | (uint32_t)sp[1] << 16 | (uint32_t)sp[2] << 8 |
                           (uint32_t)sp[3]);
        const unsigned char *h = (const unsigned char *)PQgetvalue(r, i, 1);
        unsigned diff = 0;
        for (int k = 0; k < CR_STORE_HASH_LEN; k++) diff |= (unsigned)(h[k] ^ hash[k]);
        found = diff == 0 ? seat_i : found;
    }
    PQclear(r);
    pg_put(s, c);
    if (found >= 0) {
        *seat = found;
        rc = CR_OK;
    } else {
        snprintf(err, errcap, "bad token");
    }
    return rc;
}

static cr_status pg_stats(cr_store *base, int (*fn)(void *arg, const cr_store_stats *st), void *arg,
                          char *err, size_t errcap)
{
    pg_store *s = (pg_store *)base;
    cr_status rc = CR_OK;
    PGconn *c = pg_get(s);
    PGresult *r = PQexec(c, "SELECT game, players, n_entries, winners FROM games"
                            " WHERE status = 2 ORDER BY game");
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        rc = pg_fail(c, r, "read statistics", err, errcap);
        PQclear(r);
        pg_reset(c);
        pg_put(s, c);
        return rc;
    }
    pg_put(s, c);
    cr_store_stats cur;
    int have = 0;
    double sum = 0;
    for (int i = 0; i < PQntuples(r); i++) {
        const char *game = PQgetvalue(r, i, 0);
        if (have && strcmp(cur.game, game) != 0) {
            cur.avg_entries = cur.finished ? sum / (double)cur.finished : 0;
            if (fn(arg, &cur)) {
                have = 0;
                break;
            }
            have = 0;
        }
        if (!have) {
            memset(&cur, 0, sizeof cur);
            snprintf(cur.game, sizeof cur.game, "%s", game);
            sum = 0;
            have = 1;
        }
        int players = atoi(PQgetvalue(r, i, 1));
        if (players < 1 || players > CR_MAX_PLAYERS) continue;
        uint32_t winners = (uint32_t)strtoll(PQgetvalue(r, i, 3), NULL, 10);
        cur.finished++;
        sum += atoi(PQgetvalue(r, i, 2));
        if (players > cur.players_max) cur.players_max = players;
        for (int k = 0; k < players; k++) {
            cur.seat_games[k]++;
            if (winners & (1u << k)) cur.seat_wins[k]++;
        }
    }
    if (have) {
        cur.avg_entries = cur.finished ? sum / (double)cur.finished : 0;
        fn(arg, &cur);
    }
    PQclear(r);
    return rc;
}

static cr_status pg_claim(cr_store *base, const char *id, char *err, size_t errcap)
{
    pg_store *s = (pg_store *)base;
    if (!pg_valid_id(id)) {
        snprintf(err, errcap, "bad game id");
        return CR_ERR_INVALID;
    }
    cr_status rc = CR_OK;
    pthread_mutex_lock(&s->lk_mu);
    pg_lk_check(s);
    if (pg_held_index(s, id) >= 0) goto out; /* held already: one lock, not two */
    if (s->n_held == s->cap_held) {
        int cap = s->cap_held ? s->cap_held * 2 : 64;
        pg_held *p = realloc(s->held, sizeof *p * (size_t)cap);
        if (!p) {
            snprintf(err, errcap, "out of memory");
            rc = CR_ERR_NOMEM;
            goto out;
        }
        s->held = p;
        s->cap_held = cap;
    }
    long long key = pg_key(id);
    int got = pg_try_lock(s, key);
    if (got < 0) {
        rc = pg_fail(s->lk, NULL, "claim a game", err, errcap);
    } else if (got == 0) {
        snprintf(err, errcap, "game %.40s is held by another server process", id);
        rc = CR_ERR_ILLEGAL;
    } else {
        pg_held *h = &s->held[s->n_held++];
        snprintf(h->id, sizeof h->id, "%s", id);
        h->key = key;
    }
out:
    pthread_mutex_unlock(&s->lk_mu);
    return rc;
}

static void pg_release(cr_store *base, const char *id)
{
    pg_store *s = (pg_store *)base;
    pthread_mutex_lock(&s->lk_mu);
    pg_lk_check(s);
    int i = id ? pg_held_index(s, id) : -1;
    if (i >= 0) {
        char kbuf[24];
        snprintf(kbuf, sizeof kbuf, "%lld", s->held[i].key);
        const char *pv[1] = {kbuf};
        PQclear(pg_exec(s->lk, "SELECT pg_advisory_unlock($1::bigint)", 1, pv));
        s->held[i] = s->held[--s->n_held];
    }
    pthread_mutex_unlock(&s->lk_mu);
}

static const cr_store_ops pg_ops = {
    .name = "postgres",
    .close = pg_close,
    .create_game = pg_create_game,
    .append = pg_append,
    .finish = pg_finish,
    .set_status = pg_set_status,
    .load = pg_load,
    .list = pg_list,
    .add_token = pg_add_token,
    .find_token = pg_find_token,
    .stats = pg_stats,
    .claim = pg_claim,
    .release = pg_release,
    .append_clock = pg_append_clock,
};

/* Creates the tables if they are missing; refuses a newer schema. */
static int pg_setup(pg_store *s, char *err, size_t errcap)
{
    PGresult *r = PQexec(s->lk, "BEGIN");
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    if (ok) {
        r = PQexec(s->lk, "SET LOCAL client_min_messages = warning"); /* no "exists" notices */
        PQclear(r);
        r = PQexec(s->lk, pg_schema_lock);
        ok = PQresultStatus(r) == PGRES_TUPLES_OK;
        if (ok) {
            PQclear(r);
            r = PQexec(s->lk, pg_schema);
            ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        }
        if (!ok) pg_fail(s->lk, r, "create the tables", err, errcap);
        PQclear(r);
    } else {
        pg_fail(s->lk, NULL, "begin", err, errcap);
    }
    int version = 0;
    if (ok) {
        r = PQexec(s->lk, "SELECT max(version) FROM croupier_schema");
        ok = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1;
        if (!ok)
            pg_fail(s->lk, r, "read the schema version", err, errcap);
        else
            version = PQgetisnull(r, 0, 0) ? 0 : atoi(PQgetvalue(r, 0, 0));
        PQclear(r);
    }
    if (ok && version > PG_SCHEMA_VERSION) {
        snprintf(err, errcap,
                 "postgres: the database holds schema version %d; this croupier knows %d"
                 " (upgrade croupier)",
                 version, PG_SCHEMA_VERSION);
        ok = 0;
    }
    if (ok && version == 0) {
        r = PQexec(s->lk, "INSERT INTO croupier_schema (version) VALUES (1)");
        ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        if (!ok) pg_fail(s->lk, r, "record the schema version", err, errcap);
        PQclear(r);
    }
    r = PQexec(s->lk, ok ? "COMMIT" : "ROLLBACK");
    if (ok && PQresultStatus(r) != PGRES_COMMAND_OK) {
        pg_fail(s->lk, r, "commit the tables", err, errcap);
        ok = 0;
    }
    PQclear(r);
    return ok;
}

/* libpq's notices (a session's end, "relation exists") are not printed: a
 * failure reaches the caller as an error of the statement it breaks. */
static void pg_quiet(void *arg, const char *message) { (void)arg, (void)message; }

/* 1 if c is connected; else the reason, naming where without the password
 * (libpq's parsed host, port, database and user). */
static int pg_connected(PGconn *c, char *err, size_t errcap)
{
    if (c && PQstatus(c) == CONNECTION_OK) return 1;
    char msg[256];
    pg_first_line(msg, sizeof msg, c ? PQerrorMessage(c) : "out of memory");
    const char *host = c ? PQhost(c) : NULL;
    const char *port = c ? PQport(c) : NULL;
    const char *db = c ? PQdb(c) : NULL;
    const char *user = c ? PQuser(c) : NULL;
    snprintf(err, errcap, "postgres: cannot connect to database \"%s\" on %s:%s as \"%s\": %s",
             db ? db : "?", host && *host ? host : "local socket", port ? port : "?",
             user ? user : "?", msg[0] ? msg : "no answer");
    return 0;
}

cr_store *cr_store_pg_open(const char *url, char *err, size_t errcap)
{
    if (!url || !*url) {
        snprintf(err, errcap, "postgres: no URL (expected postgres://USER@HOST/DB)");
        return NULL;
    }
    if (sodium_init() < 0) {
        snprintf(err, errcap, "postgres: libsodium cannot start");
        return NULL;
    }
    pg_store *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    s->base.ops = &pg_ops;
    pthread_mutex_init(&s->lk_mu, NULL);
    pthread_mutex_init(&s->pool_mu, NULL);
    pthread_cond_init(&s->pool_cv, NULL);
    cr_store_gc_init(&s->gc);
    /* Defaults first, then the URL (which may override them): keepalives
     * so that PostgreSQL notices a vanished client (and drops its locks),
     * and a bounded connect. */
    const char *keys[] = {
        "application_name",    "connect_timeout",  "keepalives", "keepalives_idle",
        "keepalives_interval", "keepalives_count", "dbname",     NULL};
    const char *vals[] = {"croupier", "10", "1", "10", "5", "3", url, NULL};
    /* The locks' session is named "<application_name> locks" in
     * pg_stat_activity (the entry after dbname overrides the URL's). */
    char lk_name[64];
    /* A URL libpq cannot parse is refused without quoting libpq's message,
     * which may quote the piece that holds the password. */
    char *perr = NULL;
    PQconninfoOption *parsed = PQconninfoParse(url, &perr);
    if (!parsed) {
        PQfreemem(perr);
        snprintf(err, errcap,
                 "postgres: the URL cannot be read (expected"
                 " postgres://USER:PASSWORD@HOST:PORT/DB?param=value)");
        pg_close(&s->base);
        return NULL;
    }
    const char *app = "croupier";
    for (PQconninfoOption *o = parsed; o->keyword; o++)
        if (strcmp(o->keyword, "application_name") == 0 && o->val && *o->val) app = o->val;
    snprintf(lk_name, sizeof lk_name, "%.57s locks", app);
    PQconninfoFree(parsed);
    const char *lk_keys[] = {"application_name", "connect_timeout",     "keepalives",
                             "keepalives_idle",  "keepalives_interval", "keepalives_count",
                             "dbname",           "application_name",    NULL};
    const char *lk_vals[] = {"croupier", "10", "1", "10", "5", "3", url, lk_name, NULL};
    s->lk = PQconnectdbParams(lk_keys, lk_vals, 1);
    if (s->lk) PQsetNoticeProcessor(s->lk, pg_quiet, NULL);
    if (!pg_connected(s->lk, err, errcap) || !pg_setup(s, err, errcap)) {
        pg_close(&s->base);
        return NULL;
    }
    for (int i = 0; i < PG_POOL; i++) {
        s->pool[i] = PQconnectdbParams(keys, vals, 1);
        if (s->pool[i]) PQsetNoticeProcessor(s->pool[i], pg_quiet, NULL);
        if (!pg_connected(s->pool[i], err, errcap)) {
            pg_close(&s->base);
            return NULL;
        }
        s->free_[s->n_free++] = i;
    }
    return &s->base;
}
