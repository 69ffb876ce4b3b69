/* tests/server/test_store.c — the store interface (src/server/store.h)
 * against a real backend: SQLite in a temporary file, or the URL in
 * CR_TEST_STORE_URL (e.g. a PostgreSQL database) when it is set.
 * Each test uses fresh game ids, so a shared database may hold older rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <pthread.h>
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

/* Concurrent appends (both backends group-commit them: one transaction for
 * the appends of many games).  Each of the own-game threads appends to its
 * own game, with clocks, and between times makes an append that must fail
 * (a missing game, a wrong index): its failure must not touch the others
 * in its batch.  Two more threads race on one game, both appending at every
 * index in turn: each index is written once, by whichever got there first,
 * and never out of order. */
enum { CA_OWN = 10, CA_ROUNDS = 30, CA_RACE_ROUNDS = 40 };

typedef struct ca_arg {
    cr_store *s;
    char id[40];
    int tag;
    int ok, bad_refused;
    int won[CA_RACE_ROUNDS]; /* race: 1 where this thread's append at k succeeded */
    int race;
} ca_arg;

static void *ca_main(void *p)
{
    ca_arg *a = p;
    char err[256];
    if (a->race) {
        for (int k = 0; k < CA_RACE_ROUNDS; k++) {
            cr_store_entry e = {CR_STORE_ACTION, a->tag * 1000 + k, a->tag, ""};
            cr_status rc = a->s->ops->append(a->s, a->id, k, &e, 1, err, sizeof err);
            if (rc == CR_OK)
                a->won[k] = 1, a->ok++;
            else if (rc != CR_ERR_ILLEGAL)
                fprintf(stderr, "race append: %s\n", err), a->ok = -1000;
        }
        return NULL;
    }
    int at = 0;
    for (int k = 0; k < CA_ROUNDS; k++) {
        cr_store_entry e[2] = {{CR_STORE_ACTION, a->tag * 1000 + k, k % 4, ""},
                               {CR_STORE_SEAT, 0, k % 4, "random"}};
        int n = 1 + k % 2;
        cr_store_clock ck = {.seat = k % 4, .started_ms = 1000 + k};
        for (int s = 0; s < CR_MAX_PLAYERS; s++) ck.remaining_ms[s] = a->tag * 100 + k;
        if (a->s->ops->append_clock(a->s, a->id, at, e, n, k % 3 ? &ck : NULL, err, sizeof err) ==
            CR_OK) {
            at += n;
            a->ok++;
        } else {
            fprintf(stderr, "append: %s\n", err);
        }
        if (k % 5 == 0) {
            char missing[40];
            snprintf(missing, sizeof missing, "%.28sfff%d", a->id, a->tag % 10);
            a->bad_refused +=
                a->s->ops->append(a->s, missing, 0, e, 1, err, sizeof err) == CR_ERR_INVALID;
            a->bad_refused +=
                a->s->ops->append(a->s, a->id, at + 1, e, 1, err, sizeof err) == CR_ERR_ILLEGAL;
        }
    }
    return NULL;
}

static void test_concurrent_appends(void **state)
{
    (void)state;
    char err[256];
    cr_store *s = open_store();
    ca_arg args[CA_OWN + 2];
    memset(args, 0, sizeof args);
    cr_store_game g;
    char race_id[40];
    make_id(race_id);
    fill_game(&g, race_id);
    assert_int_equal(s->ops->create_game(s, &g, err, sizeof err), CR_OK);
    assert_int_equal(s->ops->claim(s, race_id, err, sizeof err), CR_OK);
    for (int t = 0; t < CA_OWN + 2; t++) {
        args[t].s = s;
        args[t].tag = t + 1;
        args[t].race = t >= CA_OWN;
        if (args[t].race) {
            snprintf(args[t].id, sizeof args[t].id, "%s", race_id);
            continue;
        }
        make_id(args[t].id);
        fill_game(&g, args[t].id);
        assert_int_equal(s->ops->create_game(s, &g, err, sizeof err), CR_OK);
        assert_int_equal(s->ops->claim(s, args[t].id, err, sizeof err), CR_OK);
    }
    pthread_t th[CA_OWN + 2];
    for (int t = 0; t < CA_OWN + 2; t++)
        assert_int_equal(pthread_create(&th[t], NULL, ca_main, &args[t]), 0);
    for (int t = 0; t < CA_OWN + 2; t++) pthread_join(th[t], NULL);
    for (int t = 0; t < CA_OWN; t++) {
        assert_int_equal(args[t].ok, CA_ROUNDS);
        assert_int_equal(args[t].bad_refused, 2 * ((CA_ROUNDS + 4) / 5));
        cr_store_game back;
        cr_store_entry *e = NULL;
        assert_int_equal(s->ops->load(s, args[t].id, &back, &e, err, sizeof err), CR_OK);
        int at = 0;
        for (int k = 0; k < CA_ROUNDS; k++) {
            assert_int_equal(e[at].value, args[t].tag * 1000 + k);
            assert_int_equal(e[at].seat, k % 4);
            at += 1 + k % 2;
            if (k % 2) assert_string_equal(e[at - 1].spec, "random");
        }
        assert_int_equal(back.n_entries, at);
        /* the clock of the last round that stored one (k % 3 != 0) */
        int last = CA_ROUNDS - 1;
        while (last % 3 == 0) last--;
        assert_true(back.has_clock);
        assert_int_equal(back.clock.seat, last % 4);
        assert_true(back.clock.started_ms == 1000 + last);
        assert_true(back.clock.remaining_ms[1] == args[t].tag * 100 + last);
        free(e);
    }
    /* the race: every index written exactly once, by the thread that won it */
    cr_store_game back;
    cr_store_entry *e = NULL;
    assert_int_equal(s->ops->load(s, race_id, &back, &e, err, sizeof err), CR_OK);
    ca_arg *r0 = &args[CA_OWN], *r1 = &args[CA_OWN + 1];
    assert_true(r0->ok >= 0 && r1->ok >= 0);
    assert_int_equal(back.n_entries, r0->ok + r1->ok);
    for (int i = 0; i < back.n_entries; i++) {
        int k = e[i].value % 1000, tag = e[i].value / 1000;
        assert_true(tag == r0->tag || tag == r1->tag);
        assert_true((tag == r0->tag ? r0 : r1)->won[k]);
        assert_int_equal(k, i); /* round k appends at index k */
    }
    free(e);
    cr_store_close(s);
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
        cmocka_unit_test(test_concurrent_appends),
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
