/* tests/server/test_store.c — the store interface (src/server/store.h)
 * against a real backend: SQLite in a temporary file, or the URL in
 * CR_TEST_STORE_URL (e.g. a PostgreSQL database) when it is set.
 * Each test uses fresh game ids, so a shared database may hold older rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "server/store.h"

static char url[600];
static char tmpdir[256];
static unsigned id_counter;

static void make_id(char *id)
{
    snprintf(id, CR_STORE_ID_LEN + 1, "%08x%08x%08x%08x", (unsigned)getpid(), (unsigned)time(NULL),
             0x5eedu, ++id_counter);
}

static cr_store *open_store(void)
{
    char err[256] = "";
    cr_store *s = cr_store_open(url, err, sizeof err);
    if (!s) fprintf(stderr, "open %s: %s\n", url, err);
    assert_non_null(s);
    return s;
}

static void fill_game(cr_store_game *g, const char *id)
{
    memset(g, 0, sizeof *g);
    snprintf(g->id, sizeof g->id, "%s", id);
    snprintf(g->game, sizeof g->game, "dml");
    snprintf(g->variant, sizeof g->variant, "full");
    g->players = 4;
    g->rules_version = 1;
    g->seed = 0xfedcba9876543210ull; /* above 2^63: must survive a signed column */
    snprintf(g->seats[0], sizeof g->seats[0], "human");
    snprintf(g->seats[1], sizeof g->seats[1], "invite");
    snprintf(g->seats[2], sizeof g->seats[2], "heuristic");
    snprintf(g->seats[3], sizeof g->seats[3], "ismcts:iters=100");
    snprintf(g->options_json, sizeof g->options_json, "{\"first-roller\":\"2\"}");
    snprintf(g->config_json, sizeof g->config_json, "{}");
}

static void test_create_append_load(void **state)
{
    (void)state;
    char err[256], id[40];
    make_id(id);
    cr_store *s = open_store();
    cr_store_game g, back;
    fill_game(&g, id);
    assert_int_equal(s->ops->create_game(s, &g, err, sizeof err), CR_OK);
    assert_int_equal(s->ops->create_game(s, &g, err, sizeof err), CR_ERR_ILLEGAL);
    /* a process appends only to games it holds (store.h) */
    assert_int_equal(s->ops->claim(s, id, err, sizeof err), CR_OK);
    cr_store_entry e[3] = {{CR_STORE_ACTION, 17, -1, ""},
                           {CR_STORE_ACTION, 400, 2, ""},
                           {CR_STORE_SEAT, 0, 1, "heuristic"}};
    assert_int_equal(s->ops->append(s, id, 0, e, 2, err, sizeof err), CR_OK);
    /* the wrong index is a conflict and writes nothing */
    assert_int_equal(s->ops->append(s, id, 0, e + 2, 1, err, sizeof err), CR_ERR_ILLEGAL);
    assert_int_equal(s->ops->append(s, id, 3, e + 2, 1, err, sizeof err), CR_ERR_ILLEGAL);
    assert_int_equal(s->ops->append(s, id, 2, e + 2, 1, err, sizeof err), CR_OK);
    assert_int_equal(s->ops->append(s, "nosuchgame", 0, e, 1, err, sizeof err), CR_ERR_INVALID);
    cr_store_close(s);

    /* reopened: everything is there */
    s = open_store();
    cr_store_entry *got = NULL;
    assert_int_equal(s->ops->load(s, id, &back, &got, err, sizeof err), CR_OK);
    assert_string_equal(back.game, "dml");
    assert_string_equal(back.variant, "full");
    assert_int_equal(back.players, 4);
    assert_true(back.seed == g.seed);
    assert_string_equal(back.seats[3], "ismcts:iters=100");
    assert_string_equal(back.options_json, g.options_json);
    assert_int_equal(back.status, CR_STORE_RUNNING);
    assert_int_equal(back.n_entries, 3);
    assert_int_equal(got[0].value, 17);
    assert_int_equal(got[0].seat, -1);
    assert_int_equal(got[1].value, 400);
    assert_int_equal(got[1].seat, 2);
    assert_int_equal(got[2].kind, CR_STORE_SEAT);
    assert_string_equal(got[2].spec, "heuristic");
    free(got);
    assert_int_equal(s->ops->load(s, "nosuchgame", &back, &got, err, sizeof err), CR_ERR_INVALID);
    cr_store_close(s);
}

static void test_tokens(void **state)
{
    (void)state;
    char err[256], id[40], id2[40];
    make_id(id);
    make_id(id2);
    cr_store *s = open_store();
    cr_store_game g;
    fill_game(&g, id);
    assert_int_equal(s->ops->create_game(s, &g, err, sizeof err), CR_OK);
    fill_game(&g, id2);
    assert_int_equal(s->ops->create_game(s, &g, err, sizeof err), CR_OK);
    uint8_t h0[CR_STORE_HASH_LEN], h1[CR_STORE_HASH_LEN], bad[CR_STORE_HASH_LEN];
    memset(h0, 0xa0, sizeof h0);
    memset(h1, 0xb1, sizeof h1);
    memset(bad, 0xa0, sizeof bad);
    bad[31] ^= 1;
    assert_int_equal(s->ops->add_token(s, id, 0, h0, err, sizeof err), CR_OK);
    assert_int_equal(s->ops->add_token(s, id, 0, h1, err, sizeof err), CR_ERR_ILLEGAL);
    assert_int_equal(s->ops->add_token(s, id, 1, h1, err, sizeof err), CR_OK);
    int seat = -9;
    assert_int_equal(s->ops->find_token(s, id, h0, &seat, err, sizeof err), CR_OK);
    assert_int_equal(seat, 0);
    assert_int_equal(s->ops->find_token(s, id, h1, &seat, err, sizeof err), CR_OK);
    assert_int_equal(seat, 1);
    seat = -9;
    assert_int_equal(s->ops->find_token(s, id, bad, &seat, err, sizeof err), CR_ERR_INVALID);
    /* a token of one game opens nothing in another */
    assert_int_equal(s->ops->find_token(s, id2, h0, &seat, err, sizeof err), CR_ERR_INVALID);
    assert_int_equal(seat, -9);
    cr_store_game back;
    cr_store_entry *got = NULL;
    assert_int_equal(s->ops->load(s, id, &back, &got, err, sizeof err), CR_OK);
    assert_int_equal(back.taken, 3u);
    free(got);
    cr_store_close(s);
}

typedef struct {
    const char *want;
    int seen;
    int64_t finished;
    int64_t wins[CR_MAX_PLAYERS];
} stats_probe;

static int stats_fn(void *arg, const cr_store_stats *st)
{
    stats_probe *p = arg;
    if (strcmp(st->game, p->want) == 0) {
        p->seen = 1;
        p->finished = st->finished;
        memcpy(p->wins, st->seat_wins, sizeof p->wins);
    }
    return 0;
}

typedef struct {
    const char *id;
    int found, status;
} list_probe;

static int list_fn(void *arg, const cr_store_game *g)
{
    list_probe *p = arg;
    if (strcmp(g->id, p->id) == 0) {
        p->found = 1;
        p->status = g->status;
    }
    return 0;
}

static void test_finish_list_stats(void **state)
{
    (void)state;
    char err[256], id[40];
    make_id(id);
    cr_store *s = open_store();
    stats_probe before = {"dml", 0, 0, {0}}, after = {"dml", 0, 0, {0}};
    assert_int_equal(s->ops->stats(s, stats_fn, &before, err, sizeof err), CR_OK);
    cr_store_game g;
    fill_game(&g, id);
    assert_int_equal(s->ops->create_game(s, &g, err, sizeof err), CR_OK);
    list_probe lp = {id, 0, 0};
    assert_int_equal(s->ops->list(s, CR_STORE_RUNNING, 1000, list_fn, &lp, err, sizeof err), CR_OK);
    assert_true(lp.found);
    assert_int_equal(s->ops->finish(s, id, "{\"winners\":[1,3]}", 0xau, err, sizeof err), CR_OK);
    lp.found = 0;
    assert_int_equal(s->ops->list(s, CR_STORE_RUNNING, 1000, list_fn, &lp, err, sizeof err), CR_OK);
    assert_false(lp.found);
    assert_int_equal(s->ops->list(s, CR_STORE_FINISHED, 1000, list_fn, &lp, err, sizeof err),
                     CR_OK);
    assert_true(lp.found);
    assert_int_equal(s->ops->stats(s, stats_fn, &after, err, sizeof err), CR_OK);
    assert_true(after.seen);
    assert_int_equal(after.finished, before.finished + 1);
    assert_int_equal(after.wins[1], before.wins[1] + 1);
    assert_int_equal(after.wins[3], before.wins[3] + 1);
    assert_int_equal(after.wins[0], before.wins[0]);
    assert_int_equal(s->ops->set_status(s, id, CR_STORE_OUTDATED, err, sizeof err), CR_OK);
    assert_int_equal(s->ops->finish(s, "nosuchgame", "{}", 0, err, sizeof err), CR_ERR_INVALID);
    assert_int_equal(s->ops->claim(s, id, err, sizeof err), CR_OK);
    s->ops->release(s, id);
    cr_store_close(s);
}

/* The clock is stored with the entries that moved the turn, in the same
 * transaction (append_clock), and comes back with load; NULL leaves it. */
static void test_clock(void **state)
{
    (void)state;
    char err[256], id[40];
    make_id(id);
    cr_store *s = open_store();
    cr_store_game g, back;
    fill_game(&g, id);
    assert_int_equal(s->ops->create_game(s, &g, err, sizeof err), CR_OK);
    assert_int_equal(s->ops->claim(s, id, err, sizeof err), CR_OK);
    cr_store_entry *got = NULL;
    assert_int_equal(s->ops->load(s, id, &back, &got, err, sizeof err), CR_OK);
    free(got);
    assert_int_equal(back.has_clock, 0); /* none stored yet */
    cr_store_clock ck = {.seat = 2, .started_ms = 1790000000123LL};
    for (int i = 0; i < CR_MAX_PLAYERS; i++) ck.remaining_ms[i] = 60000 - 1000 * i;
    ck.remaining_ms[1] = -5; /* overrun: kept as it is */
    cr_store_entry e[2] = {{CR_STORE_ACTION, 17, -1, ""}, {CR_STORE_ACTION, 40, 1, ""}};
    assert_int_equal(s->ops->append_clock(s, id, 0, e, 1, &ck, err, sizeof err), CR_OK);
    /* a conflict writes neither entries nor clock */
    cr_store_clock other = ck;
    other.seat = 0;
    assert_int_equal(s->ops->append_clock(s, id, 0, e + 1, 1, &other, err, sizeof err),
                     CR_ERR_ILLEGAL);
    assert_int_equal(s->ops->append_clock(s, id, 5, NULL, 0, &other, err, sizeof err),
                     CR_ERR_ILLEGAL);
    /* entries without a clock leave it */
    assert_int_equal(s->ops->append(s, id, 1, e + 1, 1, err, sizeof err), CR_OK);
    cr_store_close(s);
    s = open_store();
    assert_int_equal(s->ops->load(s, id, &back, &got, err, sizeof err), CR_OK);
    free(got);
    assert_int_equal(back.n_entries, 2);
    assert_int_equal(back.has_clock, 1);
    assert_int_equal(back.clock.seat, 2);
    assert_true(back.clock.started_ms == ck.started_ms);
    for (int i = 0; i < 4; i++) assert_true(back.clock.remaining_ms[i] == ck.remaining_ms[i]);
    /* only the clock (n = 0), at the right index */
    assert_int_equal(s->ops->claim(s, id, err, sizeof err), CR_OK);
    other.seat = -1;
    assert_int_equal(s->ops->append_clock(s, id, 2, NULL, 0, &other, err, sizeof err), CR_OK);
    assert_int_equal(s->ops->load(s, id, &back, &got, err, sizeof err), CR_OK);
    free(got);
    assert_int_equal(back.has_clock, 1);
    assert_int_equal(back.clock.seat, -1);
    assert_int_equal(back.n_entries, 2);
    cr_store_close(s);
}

/* The clock's text form refuses what it did not write. */
static void test_clock_text(void **state)
{
    (void)state;
    cr_store_clock c = {.seat = 1, .started_ms = 42}, back;
    c.remaining_ms[0] = 7;
    c.remaining_ms[1] = -3;
    char buf[64];
    cr_store_clock_format(&c, 2, buf, sizeof buf);
    assert_string_equal(buf, "1 42 7 -3");
    assert_true(cr_store_clock_parse(buf, 2, &back));
    assert_int_equal(back.seat, 1);
    assert_true(back.remaining_ms[1] == -3);
    assert_false(cr_store_clock_parse("", 2, &back));
    assert_false(cr_store_clock_parse("1 42 7", 2, &back));
    assert_false(cr_store_clock_parse("1 42 7 3 x", 2, &back));
    assert_false(cr_store_clock_parse("2 42 7 3", 2, &back)); /* no seat 2 of 2 */
    assert_false(cr_store_clock_parse("-2 42 7 3", 2, &back));
    char small[4];
    assert_true(cr_store_clock_format(&c, 2, small, sizeof small) == strlen("1 42 7 -3"));
}

static void test_bad_urls(void **state)
{
    (void)state;
    char err[256] = "";
    assert_null(cr_store_open("mysql://x", err, sizeof err));
    assert_non_null(strstr(err, "unknown store URL"));
    assert_null(cr_store_open("sqlite:", err, sizeof err));
    assert_null(cr_store_open("sqlite:/nonexistent-dir/x/y.db", err, sizeof err));
    if (strncmp(url, "sqlite:", 7) == 0) {
        /* a second server on the same file is refused */
        cr_store *s = open_store();
        assert_null(cr_store_open(url, err, sizeof err));
        assert_non_null(strstr(err, "in use"));
        cr_store_close(s);
    }
}

int main(void)
{
    const char *env = getenv("CR_TEST_STORE_URL");
    if (env && *env) {
        snprintf(url, sizeof url, "%s", env);
    } else {
        snprintf(tmpdir, sizeof tmpdir, "/tmp/cr-store-XXXXXX");
        if (!mkdtemp(tmpdir)) return 1;
        snprintf(url, sizeof url, "sqlite:%s/test.db", tmpdir);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_append_load), cmocka_unit_test(test_tokens),
        cmocka_unit_test(test_finish_list_stats),  cmocka_unit_test(test_clock),
        cmocka_unit_test(test_clock_text),         cmocka_unit_test(test_bad_urls),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (!env || !*env) {
        char cmd[320];
        const char *names[] = {"test.db", "test.db-wal", "test.db-shm", "test.db.lock"};
        for (int i = 0; i < 4; i++) {
            snprintf(cmd, sizeof cmd, "%s/%s", tmpdir, names[i]);
            unlink(cmd);
        }
        rmdir(tmpdir);
    }
    return rc;
}
