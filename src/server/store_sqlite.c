/* server/store_sqlite.c — the SQLite backend of the store (store.h).
 *
 * One database file, one connection, one mutex: SQLite serializes writers
 * anyway.  Appends are group-committed (sq_append_clock): concurrent appends of
 * many games share one transaction and one fsync.
 * The file is opened in WAL mode with synchronous=FULL, so a COMMIT has
 * reached the disk (fsync of the WAL) before append returns: an action the
 * server acknowledged survives kill -9 and a power cut.
 *
 * Tables:
 *   games   (id, header..., status, n_entries, result_json, winners)
 *   seats   (game_id, seat, spec, token_hash)   token_hash: BLAKE2b of the token, or NULL
 *   entries (game_id, idx, kind, value, seat, spec)   the record, in order
 * games.n_entries is kept equal to the number of entries rows of the game;
 * append checks it inside its transaction, so entries are never written at
 * the wrong index.
 *
 * Ownership (claim/release): a SQLite file is served by one process, which
 * holds an exclusive lock on PATH.lock for its lifetime (another server on
 * the same file fails to open it), so claims always succeed.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "server/store.h"

typedef struct sq_store {
    cr_store base;
    sqlite3 *db;
    pthread_mutex_t mu;
    int lock_fd;
    sqlite3_stmt *st_append, *st_count, *st_bump, *st_clock;
    cr_store_gc gc; /* group commit: appends waiting for the next transaction */
} sq_store;

/* One append waiting in the group-commit queue (on its caller's stack). */
typedef struct sq_req {
    cr_store_gc_req q; /* q.id: the game */
    int at, n;
    const cr_store_entry *e;
    const char *clock; /* the clock's text, or NULL: unchanged */
    cr_status rc;
    char err[256];
} sq_req;

static const char sq_schema[] =
    "CREATE TABLE IF NOT EXISTS games ("
    " id TEXT PRIMARY KEY, game TEXT NOT NULL, variant TEXT NOT NULL, players INTEGER NOT NULL,"
    " rules INTEGER NOT NULL, data_hash INTEGER NOT NULL, has_data_hash INTEGER NOT NULL,"
    " seed INTEGER NOT NULL, options_json TEXT NOT NULL, config_json TEXT NOT NULL,"
    " status INTEGER NOT NULL, created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL,"
    " n_entries INTEGER NOT NULL DEFAULT 0, result_json TEXT NOT NULL DEFAULT '',"
    " winners INTEGER NOT NULL DEFAULT 0);"
    "CREATE INDEX IF NOT EXISTS games_status ON games(status, created_ms);"
    "CREATE TABLE IF NOT EXISTS seats ("
    " game_id TEXT NOT NULL, seat INTEGER NOT NULL, spec TEXT NOT NULL, token_hash BLOB,"
    " PRIMARY KEY (game_id, seat)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS entries ("
    " game_id TEXT NOT NULL, idx INTEGER NOT NULL, kind INTEGER NOT NULL, value INTEGER NOT NULL,"
    " seat INTEGER NOT NULL, spec TEXT NOT NULL, PRIMARY KEY (game_id, idx)) WITHOUT ROWID;";

static int64_t sq_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static cr_status sq_fail(sq_store *s, const char *what, char *err, size_t errcap)
{
    if (err && errcap) snprintf(err, errcap, "sqlite: %s: %s", what, sqlite3_errmsg(s->db));
    return CR_ERR_IO;
}

static void sq_copy(char *dst, size_t cap, const unsigned char *src)
{
    snprintf(dst, cap, "%s", src ? (const char *)src : "");
}

static int sq_exec(sq_store *s, const char *sql)
{
    return sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK;
}

static void sq_close(cr_store *base)
{
    sq_store *s = (sq_store *)base;
    sqlite3_finalize(s->st_append);
    sqlite3_finalize(s->st_count);
    sqlite3_finalize(s->st_bump);
    sqlite3_finalize(s->st_clock);
    sqlite3_close(s->db);
    if (s->lock_fd >= 0) close(s->lock_fd);
    pthread_mutex_destroy(&s->mu);
    cr_store_gc_destroy(&s->gc);
    free(s);
}

static cr_status sq_create_game(cr_store *base, const cr_store_game *g, char *err, size_t errcap)
{
    sq_store *s = (sq_store *)base;
    cr_status rc = CR_OK;
    sqlite3_stmt *st = NULL, *ss = NULL;
    if (g->players < 1 || g->players > CR_MAX_PLAYERS) {
        snprintf(err, errcap, "bad player count %d", g->players);
        return CR_ERR_INVALID;
    }
    pthread_mutex_lock(&s->mu);
    int64_t now = sq_now_ms();
    if (!sq_exec(s, "BEGIN IMMEDIATE")) {
        rc = sq_fail(s, "begin", err, errcap);
        goto out;
    }
    if (sqlite3_prepare_v2(s->db,
                           "INSERT INTO games (id, game, variant, players, rules, data_hash,"
                           " has_data_hash, seed, options_json, config_json, status, created_ms,"
                           " updated_ms) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                           -1, &st, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db, "INSERT INTO seats (game_id, seat, spec) VALUES (?,?,?)", -1, &ss,
                           NULL) != SQLITE_OK) {
        rc = sq_fail(s, "prepare", err, errcap);
        goto rollback;
    }
    sqlite3_bind_text(st, 1, g->id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, g->game, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, g->variant, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 4, g->players);
    sqlite3_bind_int(st, 5, g->rules_version);
    sqlite3_bind_int64(st, 6, (sqlite3_int64)g->data_hash);
    sqlite3_bind_int(st, 7, g->has_data_hash);
    sqlite3_bind_int64(st, 8, (sqlite3_int64)g->seed);
    sqlite3_bind_text(st, 9, g->options_json, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 10, g->config_json, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 11, CR_STORE_RUNNING);
    sqlite3_bind_int64(st, 12, g->created_ms ? g->created_ms : now);
    sqlite3_bind_int64(st, 13, now);
    if (sqlite3_step(st) != SQLITE_DONE) {
        rc = sqlite3_extended_errcode(s->db) == SQLITE_CONSTRAINT_PRIMARYKEY
                 ? (snprintf(err, errcap, "game %s exists already", g->id), CR_ERR_ILLEGAL)
                 : sq_fail(s, "insert game", err, errcap);
        goto rollback;
    }
    for (int i = 0; i < g->players; i++) {
        sqlite3_reset(ss);
        sqlite3_bind_text(ss, 1, g->id, -1, SQLITE_STATIC);
        sqlite3_bind_int(ss, 2, i);
        sqlite3_bind_text(ss, 3, g->seats[i], -1, SQLITE_STATIC);
        if (sqlite3_step(ss) != SQLITE_DONE) {
            rc = sq_fail(s, "insert seat", err, errcap);
            goto rollback;
        }
    }
    if (!sq_exec(s, "COMMIT")) {
        rc = sq_fail(s, "commit", err, errcap);
        goto rollback;
    }
    goto out;
rollback:
    sq_exec(s, "ROLLBACK");
out:
    sqlite3_finalize(st);
    sqlite3_finalize(ss);
    pthread_mutex_unlock(&s->mu);
    return rc;
}

/* Writes one request inside the open transaction, under a savepoint so that
 * a refused request leaves the batch's others alone. */
static void sq_write_req(sq_store *s, sq_req *r)
{
    r->rc = CR_OK;
    if (!sq_exec(s, "SAVEPOINT req")) {
        r->rc = sq_fail(s, "savepoint", r->err, sizeof r->err);
        return;
    }
    sqlite3_reset(s->st_count);
    sqlite3_bind_text(s->st_count, 1, r->q.id, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(s->st_count) != SQLITE_ROW) {
        snprintf(r->err, sizeof r->err, "no game %.40s", r->q.id);
        r->rc = CR_ERR_INVALID;
        goto rollback;
    }
    int have = sqlite3_column_int(s->st_count, 0);
    sqlite3_reset(s->st_count);
    if (have != r->at) {
        snprintf(r->err, sizeof r->err, "append at %d but the game holds %d entries", r->at, have);
        r->rc = CR_ERR_ILLEGAL;
        goto rollback;
    }
    for (int i = 0; i < r->n; i++) {
        sqlite3_stmt *st = s->st_append;
        sqlite3_reset(st);
        sqlite3_bind_text(st, 1, r->q.id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 2, r->at + i);
        sqlite3_bind_int(st, 3, (int)r->e[i].kind);
        sqlite3_bind_int(st, 4, r->e[i].value);
        sqlite3_bind_int(st, 5, r->e[i].seat);
        sqlite3_bind_text(st, 6, r->e[i].spec, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(st) != SQLITE_DONE) {
            r->rc = sq_fail(s, "insert entry", r->err, sizeof r->err);
            goto rollback;
        }
    }
    sqlite3_reset(s->st_bump);
    sqlite3_bind_int(s->st_bump, 1, r->at + r->n);
    sqlite3_bind_int64(s->st_bump, 2, sq_now_ms());
    sqlite3_bind_text(s->st_bump, 3, r->q.id, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(s->st_bump) != SQLITE_DONE) {
        r->rc = sq_fail(s, "update game", r->err, sizeof r->err);
        goto rollback;
    }
    if (r->clock) {
        sqlite3_reset(s->st_clock);
        sqlite3_bind_text(s->st_clock, 1, r->clock, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(s->st_clock, 2, r->q.id, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(s->st_clock) != SQLITE_DONE) {
            r->rc = sq_fail(s, "update clock", r->err, sizeof r->err);
            goto rollback;
        }
    }
    sq_exec(s, "RELEASE req");
    return;
rollback:
    sq_exec(s, "ROLLBACK TO req");
    sq_exec(s, "RELEASE req");
}

/* The group commit's batch (cr_store_gc_run): every request in one
 * transaction and one fsync, each under its own savepoint. */
static void sq_commit_batch(void *arg, cr_store_gc_req **batch, int n)
{
    sq_store *s = arg;
    pthread_mutex_lock(&s->mu);
    cr_status rc = CR_OK;
    char berr[256] = "";
    if (!sq_exec(s, "BEGIN IMMEDIATE")) rc = sq_fail(s, "begin", berr, sizeof berr);
    for (int i = 0; i < n && rc == CR_OK; i++) sq_write_req(s, (sq_req *)batch[i]);
    if (rc == CR_OK && !sq_exec(s, "COMMIT")) {
        rc = sq_fail(s, "commit", berr, sizeof berr);
        sq_exec(s, "ROLLBACK");
    }
    pthread_mutex_unlock(&s->mu);
    for (int i = 0; rc != CR_OK && i < n; i++) { /* then nothing of the batch was written */
        sq_req *r = (sq_req *)batch[i];
        r->rc = rc;
        snprintf(r->err, sizeof r->err, "%s", berr);
    }
}

/* Group commit (store.h, cr_store_gc_run): the appends waiting at once, of
 * many games, share one transaction and one fsync.  Each caller returns only
 * once the transaction holding its entries has committed (or failed: then
 * nothing of the batch was written).  Under load, many games share one
 * fsync; alone, an append costs what it did. */
static cr_status sq_append_clock(cr_store *base, const char *id, int at, const cr_store_entry *e,
                                 int n, const cr_store_clock *clock, char *err, size_t errcap)
{
    sq_store *s = (sq_store *)base;
    if (n < 0 || at < 0 || (n > 0 && !e) || !id) {
        snprintf(err, errcap, "bad append");
        return CR_ERR_INVALID;
    }
    char ctext[32 * (CR_MAX_PLAYERS + 2)];
    if (clock) cr_store_clock_format(clock, CR_MAX_PLAYERS, ctext, sizeof ctext);
    sq_req req = {.q.id = id, .at = at, .n = n, .e = e, .clock = clock ? ctext : NULL};
    cr_store_gc_run(&s->gc, &req.q, sq_commit_batch, s);
    if (req.rc != CR_OK) snprintf(err, errcap, "%s", req.err);
    return req.rc;
}

static cr_status sq_append(cr_store *base, const char *id, int at, const cr_store_entry *e, int n,
                           char *err, size_t errcap)
{
    return sq_append_clock(base, id, at, e, n, NULL, err, errcap);
}

/* One UPDATE of games by id, under the mutex; CR_ERR_INVALID if no row. */
static cr_status sq_update(sq_store *s, const char *sql, const char *id, const char *text,
                           int64_t num, char *err, size_t errcap)
{
    sqlite3_stmt *st = NULL;
    cr_status rc = CR_OK;
    pthread_mutex_lock(&s->mu);
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
        rc = sq_fail(s, "prepare", err, errcap);
        goto out;
    }
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, num);
    sqlite3_bind_int64(st, 3, sq_now_ms());
    if (text) sqlite3_bind_text(st, 4, text, -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_DONE) {
        rc = sq_fail(s, "update", err, errcap);
    } else if (sqlite3_changes(s->db) == 0) {
        snprintf(err, errcap, "no game %.40s", id);
        rc = CR_ERR_INVALID;
    }
out:
    sqlite3_finalize(st);
    pthread_mutex_unlock(&s->mu);
    return rc;
}

static cr_status sq_finish(cr_store *base, const char *id, const char *result_json,
                           uint32_t winners, char *err, size_t errcap)
{
    return sq_update((sq_store *)base,
                     "UPDATE games SET status = 2, winners = ?2, updated_ms = ?3,"
                     " result_json = ?4 WHERE id = ?1",
                     id, result_json, (int64_t)winners, err, errcap);
}

static cr_status sq_set_status(cr_store *base, const char *id, cr_store_status stt, char *err,
                               size_t errcap)
{
    return sq_update((sq_store *)base,
                     "UPDATE games SET status = ?2, updated_ms = ?3 WHERE id = ?1", id, NULL,
                     (int64_t)stt, err, errcap);
}

/* Reads a games row (CR_STORE_GAME_COLS) and its seats. */
static cr_status sq_read_game(sq_store *s, sqlite3_stmt *st, cr_store_game *g, char *err,
                              size_t errcap)
{
    const char *col[CR_STORE_GAME_NCOLS];
    for (int i = 0; i < CR_STORE_GAME_NCOLS; i++) col[i] = (const char *)sqlite3_column_text(st, i);
    cr_status rc = cr_store_row_game(g, col, err, errcap);
    if (rc != CR_OK) return rc;
    sqlite3_stmt *ss = NULL;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT seat, spec, token_hash IS NOT NULL FROM seats"
                           " WHERE game_id = ? ORDER BY seat",
                           -1, &ss, NULL) != SQLITE_OK)
        return sq_fail(s, "prepare", err, errcap);
    sqlite3_bind_text(ss, 1, g->id, -1, SQLITE_STATIC);
    while (sqlite3_step(ss) == SQLITE_ROW)
        cr_store_row_seat(g, sqlite3_column_int64(ss, 0), (const char *)sqlite3_column_text(ss, 1),
                          sqlite3_column_int(ss, 2));
    sqlite3_finalize(ss);
    return CR_OK;
}

static cr_status sq_load(cr_store *base, const char *id, cr_store_game *g, cr_store_entry **entries,
                         char *err, size_t errcap)
{
    sq_store *s = (sq_store *)base;
    sqlite3_stmt *st = NULL;
    cr_status rc = CR_OK;
    *entries = NULL;
    pthread_mutex_lock(&s->mu);
    if (sqlite3_prepare_v2(s->db, "SELECT " CR_STORE_GAME_COLS " FROM games WHERE id = ?", -1, &st,
                           NULL) != SQLITE_OK) {
        rc = sq_fail(s, "prepare", err, errcap);
        goto out;
    }
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_ROW) {
        snprintf(err, errcap, "no game %.40s", id);
        rc = CR_ERR_INVALID;
        goto out;
    }
    rc = sq_read_game(s, st, g, err, errcap);
    sqlite3_finalize(st);
    st = NULL;
    if (rc != CR_OK) goto out;
    cr_store_entry *e = calloc((size_t)g->n_entries + 1, sizeof *e);
    if (!e) {
        rc = CR_ERR_NOMEM;
        goto out;
    }
    if (sqlite3_prepare_v2(s->db,
                           "SELECT idx, kind, value, seat, spec FROM entries WHERE game_id = ?"
                           " ORDER BY idx",
                           -1, &st, NULL) != SQLITE_OK) {
        free(e);
        rc = sq_fail(s, "prepare", err, errcap);
        goto out;
    }
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    int n = 0;
    while (n <= g->n_entries && sqlite3_step(st) == SQLITE_ROW) {
        if (n == g->n_entries || sqlite3_column_int(st, 0) != n) {
            n = -1;
            break;
        }
        e[n].kind = (cr_store_kind)sqlite3_column_int(st, 1);
        e[n].value = sqlite3_column_int(st, 2);
        e[n].seat = sqlite3_column_int(st, 3);
        sq_copy(e[n].spec, sizeof e[n].spec, sqlite3_column_text(st, 4));
        n++;
    }
    if (n != g->n_entries) {
        free(e);
        snprintf(err, errcap, "game %s: its entries do not match its count", g->id);
        rc = CR_ERR_IO;
        goto out;
    }
    *entries = e;
out:
    sqlite3_finalize(st);
    pthread_mutex_unlock(&s->mu);
    return rc;
}

static cr_status sq_list(cr_store *base, int status, int limit,
                         int (*fn)(void *arg, const cr_store_game *g), void *arg, char *err,
                         size_t errcap)
{
    sq_store *s = (sq_store *)base;
    sqlite3_stmt *st = NULL;
    cr_status rc = CR_OK;
    cr_store_game *g = malloc(sizeof *g);
    if (!g) return CR_ERR_NOMEM;
    pthread_mutex_lock(&s->mu);
    if (sqlite3_prepare_v2(s->db,
                           "SELECT " CR_STORE_GAME_COLS " FROM games WHERE (?1 = 0 OR status = ?1)"
                           " ORDER BY created_ms DESC, id LIMIT ?2",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = sq_fail(s, "prepare", err, errcap);
        goto out;
    }
    sqlite3_bind_int(st, 1, status);
    sqlite3_bind_int(st, 2, limit);
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (sq_read_game(s, st, g, err, errcap) != CR_OK) continue;
        if (fn(arg, g)) break;
    }
out:
    sqlite3_finalize(st);
    pthread_mutex_unlock(&s->mu);
    free(g);
    return rc;
}

static cr_status sq_add_token(cr_store *base, const char *id, int seat,
                              const uint8_t hash[CR_STORE_HASH_LEN], char *err, size_t errcap)
{
    sq_store *s = (sq_store *)base;
    sqlite3_stmt *st = NULL;
    cr_status rc = CR_OK;
    pthread_mutex_lock(&s->mu);
    if (sqlite3_prepare_v2(s->db,
                           "UPDATE seats SET token_hash = ? WHERE game_id = ? AND seat = ?"
                           " AND token_hash IS NULL",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = sq_fail(s, "prepare", err, errcap);
        goto out;
    }
    sqlite3_bind_blob(st, 1, hash, CR_STORE_HASH_LEN, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, seat);
    if (sqlite3_step(st) != SQLITE_DONE) {
        rc = sq_fail(s, "update seat", err, errcap);
    } else if (sqlite3_changes(s->db) == 0) {
        snprintf(err, errcap, "seat P%d is taken", seat);
        rc = CR_ERR_ILLEGAL;
    }
out:
    sqlite3_finalize(st);
    pthread_mutex_unlock(&s->mu);
    return rc;
}

static cr_status sq_find_token(cr_store *base, const char *id,
                               const uint8_t hash[CR_STORE_HASH_LEN], int *seat, char *err,
                               size_t errcap)
{
    sq_store *s = (sq_store *)base;
    sqlite3_stmt *st = NULL;
    cr_status rc = CR_ERR_INVALID;
    pthread_mutex_lock(&s->mu);
    if (sqlite3_prepare_v2(s->db,
                           "SELECT seat, token_hash FROM seats WHERE game_id = ?"
                           " AND token_hash IS NOT NULL",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = sq_fail(s, "prepare", err, errcap);
        goto out;
    }
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    /* Every seat's hash is compared, each in constant time: the time taken
     * does not depend on which seat (if any) matched. */
    int found = -1;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const uint8_t *h = sqlite3_column_blob(st, 1);
        if (sqlite3_column_bytes(st, 1) != CR_STORE_HASH_LEN || !h) continue;
        unsigned diff = 0;
        for (int i = 0; i < CR_STORE_HASH_LEN; i++) diff |= (unsigned)(h[i] ^ hash[i]);
        int seat_i = sqlite3_column_int(st, 0);
        found = diff == 0 ? seat_i : found;
    }
    if (found >= 0) {
        *seat = found;
        rc = CR_OK;
    } else {
        snprintf(err, errcap, "bad token");
    }
out:
    sqlite3_finalize(st);
    pthread_mutex_unlock(&s->mu);
    return rc;
}

static cr_status sq_stats(cr_store *base, int (*fn)(void *arg, const cr_store_stats *st), void *arg,
                          char *err, size_t errcap)
{
    sq_store *s = (sq_store *)base;
    sqlite3_stmt *st = NULL;
    cr_status rc = CR_OK;
    cr_store_stats cur;
    int have = 0;
    double sum = 0;
    pthread_mutex_lock(&s->mu);
    if (sqlite3_prepare_v2(s->db,
                           "SELECT game, players, n_entries, winners FROM games WHERE status = 2"
                           " ORDER BY game",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = sq_fail(s, "prepare", err, errcap);
        goto out;
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *game = (const char *)sqlite3_column_text(st, 0);
        if (!game) continue;
        if (have && strcmp(cur.game, game) != 0) {
            cur.avg_entries = cur.finished ? sum / (double)cur.finished : 0;
            if (fn(arg, &cur)) goto out;
            have = 0;
        }
        if (!have) {
            memset(&cur, 0, sizeof cur);
            snprintf(cur.game, sizeof cur.game, "%s", game);
            sum = 0;
            have = 1;
        }
        int players = sqlite3_column_int(st, 1);
        if (players < 1 || players > CR_MAX_PLAYERS) continue;
        uint32_t winners = (uint32_t)sqlite3_column_int64(st, 3);
        cur.finished++;
        sum += sqlite3_column_int(st, 2);
        if (players > cur.players_max) cur.players_max = players;
        for (int i = 0; i < players; i++) {
            cur.seat_games[i]++;
            if (winners & (1u << i)) cur.seat_wins[i]++;
        }
    }
    if (have) {
        cur.avg_entries = cur.finished ? sum / (double)cur.finished : 0;
        fn(arg, &cur);
    }
out:
    sqlite3_finalize(st);
    pthread_mutex_unlock(&s->mu);
    return rc;
}

static cr_status sq_claim(cr_store *base, const char *id, char *err, size_t errcap)
{
    (void)base, (void)id, (void)err, (void)errcap;
    return CR_OK; /* the process holds PATH.lock: every game of the file is its own */
}

static void sq_release(cr_store *base, const char *id) { (void)base, (void)id; }

/* The clock column came after the first files were made: a file without
 * it gets it (older rows: '' = no clock stored). */
static int sq_add_clock_column(sq_store *s, char **msg)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, "SELECT clock FROM games LIMIT 0", -1, &st, NULL) == SQLITE_OK) {
        sqlite3_finalize(st);
        return 1;
    }
    return sqlite3_exec(s->db, "ALTER TABLE games ADD COLUMN clock TEXT NOT NULL DEFAULT ''", NULL,
                        NULL, msg) == SQLITE_OK;
}

static const cr_store_ops sq_ops = {
    .name = "sqlite",
    .close = sq_close,
    .create_game = sq_create_game,
    .append = sq_append,
    .finish = sq_finish,
    .set_status = sq_set_status,
    .load = sq_load,
    .list = sq_list,
    .add_token = sq_add_token,
    .find_token = sq_find_token,
    .stats = sq_stats,
    .claim = sq_claim,
    .release = sq_release,
    .append_clock = sq_append_clock,
};

cr_store *cr_store_sqlite_open(const char *path, char *err, size_t errcap)
{
    if (!path || !*path) {
        snprintf(err, errcap, "sqlite: no file name (expected sqlite:PATH)");
        return NULL;
    }
    sq_store *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    s->base.ops = &sq_ops;
    s->lock_fd = -1;
    pthread_mutex_init(&s->mu, NULL);
    cr_store_gc_init(&s->gc);
    char lock_path[4096];
    if (snprintf(lock_path, sizeof lock_path, "%s.lock", path) >= (int)sizeof lock_path) {
        snprintf(err, errcap, "sqlite: path too long");
        goto fail;
    }
    s->lock_fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (s->lock_fd < 0 || flock(s->lock_fd, LOCK_EX | LOCK_NB) != 0) {
        snprintf(err, errcap, "sqlite: %s is in use by another server (or cannot be created)",
                 lock_path);
        goto fail;
    }
    if (sqlite3_open_v2(path, &s->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        NULL) != SQLITE_OK) {
        snprintf(err, errcap, "sqlite: cannot open %s: %s", path,
                 s->db ? sqlite3_errmsg(s->db) : "out of memory");
        goto fail;
    }
    sqlite3_busy_timeout(s->db, 5000);
    char *msg = NULL;
    if (sqlite3_exec(s->db,
                     "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;",
                     NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_exec(s->db, sq_schema, NULL, NULL, &msg) != SQLITE_OK ||
        !sq_add_clock_column(s, &msg)) {
        snprintf(err, errcap, "sqlite: %s: %s", path, msg ? msg : "setup failed");
        sqlite3_free(msg);
        goto fail;
    }
    if (sqlite3_prepare_v2(s->db,
                           "INSERT INTO entries (game_id, idx, kind, value, seat, spec)"
                           " VALUES (?,?,?,?,?,?)",
                           -1, &s->st_append, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db, "SELECT n_entries FROM games WHERE id = ?", -1, &s->st_count,
                           NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db, "UPDATE games SET n_entries = ?1, updated_ms = ?2 WHERE id = ?3",
                           -1, &s->st_bump, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db, "UPDATE games SET clock = ?1 WHERE id = ?2", -1, &s->st_clock,
                           NULL) != SQLITE_OK) {
        snprintf(err, errcap, "sqlite: %s: %s", path, sqlite3_errmsg(s->db));
        goto fail;
    }
    return &s->base;
fail:
    sq_close(&s->base);
    return NULL;
}
