/* tests/server/test_store_pg.c — what only the PostgreSQL store does
 * (src/server/store_pg.c): game ownership through session advisory locks
 * (exclusive, released by release, by closing, and by the death of the
 * process: kill -9), a lost connection that gives its games up when another
 * process took them, the schema made on first start and a newer one
 * refused, and errors that never quote the URL's password.
 *
 * Needs a database: CROUPIER_TEST_PG=postgres://... (scripts/pg-test-db.sh
 * makes one).  Unset, every test is skipped with a message — unless
 * CROUPIER_REQUIRE_PG=1 (CI sets both), when that is a failure.
 *
 * Each test runs in a schema of its own (search_path), made and dropped
 * here, so it sees an empty database and leaves nothing behind. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <libpq-fe.h>

#include "server/store.h"

static const char *base_url; /* CROUPIER_TEST_PG */
static char schema[64];      /* this run's schema */
static PGconn *admin;        /* the test's own connection */
static unsigned id_counter;

/* base_url plus libpq parameters (the URL may have a '?' already). */
static void url_with(char *out, size_t cap, const char *params)
{
    snprintf(out, cap, "%s%s%s", base_url, strchr(base_url, '?') ? "&" : "?", params);
}

/* The URL of this run's schema, with an application_name (app-schema) to
 * find the session by. */
static void schema_url(char *out, size_t cap, const char *app)
{
    char params[256];
    snprintf(params, sizeof params, "options=-csearch_path%%3D%s&application_name=%s-%s", schema,
             app, schema);
    url_with(out, cap, params);
}

static void admin_exec(const char *sql)
{
    PGresult *r = PQexec(admin, sql);
    if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK)
        fprintf(stderr, "admin: %s", PQerrorMessage(admin));
    assert_true(PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK);
    PQclear(r);
}

static int setup(void **state)
{
    (void)state;
    if (!base_url) return 0;
    snprintf(schema, sizeof schema, "croupier_t_%u_%u", (unsigned)getpid(), ++id_counter);
    char sql[160];
    snprintf(sql, sizeof sql, "CREATE SCHEMA %s", schema); /* our own name, digits only */
    admin_exec(sql);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    if (!base_url) return 0;
    char sql[160];
    snprintf(sql, sizeof sql, "DROP SCHEMA %s CASCADE", schema);
    admin_exec(sql);
    return 0;
}

static void need_pg(void)
{
    if (!base_url) skip();
}

static cr_store *open_as(const char *app)
{
    char url[1024], err[512] = "";
    schema_url(url, sizeof url, app);
    cr_store *s = cr_store_open(url, err, sizeof err);
    if (!s) fprintf(stderr, "open: %s\n", err);
    assert_non_null(s);
    return s;
}

static void new_game(cr_store *s, char *id)
{
    snprintf(id, CR_STORE_ID_LEN + 1, "%08x%08x%016x", (unsigned)getpid(), (unsigned)time(NULL),
             ++id_counter);
    cr_store_game g;
    memset(&g, 0, sizeof g);
    snprintf(g.id, sizeof g.id, "%s", id);
    snprintf(g.game, sizeof g.game, "dml");
    snprintf(g.variant, sizeof g.variant, "full");
    g.players = 2;
    g.rules_version = 1;
    g.seed = 42;
    snprintf(g.seats[0], sizeof g.seats[0], "human");
    snprintf(g.seats[1], sizeof g.seats[1], "ismcts:iters=100,ms=50");
    snprintf(g.options_json, sizeof g.options_json, "{}");
    snprintf(g.config_json, sizeof g.config_json, "{}");
    char err[256];
    assert_int_equal(s->ops->create_game(s, &g, err, sizeof err), CR_OK);
}

/* A claim that waits (up to 5 s) for PostgreSQL to end a closed or killed
 * session: a session ends asynchronously after its socket closes. */
static cr_status claim_soon(cr_store *s, const char *id)
{
    char err[256];
    cr_status rc = CR_ERR_ILLEGAL;
    for (int i = 0; i < 100 && rc == CR_ERR_ILLEGAL; i++) {
        rc = s->ops->claim(s, id, err, sizeof err);
        struct timespec ts = {0, 50 * 1000 * 1000};
        if (rc == CR_ERR_ILLEGAL) nanosleep(&ts, NULL);
    }
    return rc;
}

/* Ends sessions of this run from outside: those whose application_name is
 * `pattern` (LIKE) after the schema's suffix is added. */
static void terminate(const char *app, const char *suffix)
{
    char sql[300];
    snprintf(sql, sizeof sql,
             "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
             " WHERE application_name = '%s-%s%s'",
             app, schema, suffix);
    admin_exec(sql);
}

static int entries_of(cr_store *s, const char *id)
{
    char err[256];
    cr_store_game g;
    cr_store_entry *e = NULL;
    assert_int_equal(s->ops->load(s, id, &g, &e, err, sizeof err), CR_OK);
    free(e);
    return g.n_entries;
}

/* The schema is made on first start: its tables exist, with version 1. */
static void test_schema_made_on_first_start(void **state)
{
    (void)state;
    need_pg();
    cr_store *s = open_as("croupier-test");
    char sql[200];
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM information_schema.tables WHERE table_schema = '%s'", schema);
    PGresult *r = PQexec(admin, sql);
    assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
    assert_string_equal(PQgetvalue(r, 0, 0), "4"); /* croupier_schema, games, seats, entries */
    PQclear(r);
    cr_store_close(s);
    /* a second start keeps what is there */
    s = open_as("croupier-test");
    char id[CR_STORE_ID_LEN + 1];
    new_game(s, id);
    cr_store_close(s);
    s = open_as("croupier-test");
    assert_int_equal(entries_of(s, id), 0);
    cr_store_close(s);
}

/* A database made by a newer croupier is refused, and named. */
static void test_newer_schema_refused(void **state)
{
    (void)state;
    need_pg();
    cr_store *s = open_as("croupier-test");
    cr_store_close(s);
    char sql[200], url[1024], err[512] = "";
    snprintf(sql, sizeof sql, "UPDATE %s.croupier_schema SET version = 99", schema);
    admin_exec(sql);
    schema_url(url, sizeof url, "croupier-test");
    assert_null(cr_store_open(url, err, sizeof err));
    assert_non_null(strstr(err, "schema version 99"));
}

/* One process at a time: a claim is exclusive until release or close. */
static void test_claim_is_exclusive(void **state)
{
    (void)state;
    need_pg();
    char err[256], id[CR_STORE_ID_LEN + 1], id2[CR_STORE_ID_LEN + 1];
    cr_store *a = open_as("croupier-test-a");
    cr_store *b = open_as("croupier-test-b");
    new_game(a, id);
    new_game(a, id2);
    assert_int_equal(a->ops->claim(a, id, err, sizeof err), CR_OK);
    assert_int_equal(a->ops->claim(a, id, err, sizeof err), CR_OK); /* again: still one lock */
    assert_int_equal(b->ops->claim(b, id, err, sizeof err), CR_ERR_ILLEGAL);
    assert_non_null(strstr(err, "held by another server"));
    assert_int_equal(b->ops->claim(b, id2, err, sizeof err), CR_OK); /* other games are free */
    /* only the holder appends */
    cr_store_entry e = {CR_STORE_ACTION, 7, 0, ""};
    assert_int_equal(b->ops->append(b, id, 0, &e, 1, err, sizeof err), CR_ERR_ILLEGAL);
    assert_non_null(strstr(err, "not held"));
    assert_int_equal(a->ops->append(a, id, 0, &e, 1, err, sizeof err), CR_OK);
    /* release (once, although claimed twice) hands it over */
    a->ops->release(a, id);
    assert_int_equal(b->ops->claim(b, id, err, sizeof err), CR_OK);
    assert_int_equal(a->ops->claim(a, id, err, sizeof err), CR_ERR_ILLEGAL);
    assert_int_equal(a->ops->append(a, id, 1, &e, 1, err, sizeof err), CR_ERR_ILLEGAL);
    assert_int_equal(b->ops->append(b, id, 1, &e, 1, err, sizeof err), CR_OK);
    /* closing the store ends the session: everything it held is free */
    cr_store_close(b);
    assert_int_equal(claim_soon(a, id), CR_OK);
    assert_int_equal(claim_soon(a, id2), CR_OK);
    assert_int_equal(entries_of(a, id), 2);
    cr_store_close(a);
}

/* kill -9 of the holding process frees its games (PostgreSQL ends the
 * session when the socket closes). */
static void test_claim_dies_with_the_process(void **state)
{
    (void)state;
    need_pg();
    char err[256], id[CR_STORE_ID_LEN + 1];
    cr_store *a = open_as("croupier-test-a");
    new_game(a, id);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        cr_store *c = open_as("croupier-test-child");
        char ok = c->ops->claim(c, id, err, sizeof err) == CR_OK ? 'y' : 'n';
        if (write(fds[1], &ok, 1) != 1) _exit(2);
        for (;;) pause(); /* holds the claim until killed */
    }
    close(fds[1]);
    char got = 0;
    assert_int_equal(read(fds[0], &got, 1), 1);
    close(fds[0]);
    assert_int_equal(got, 'y');
    assert_int_equal(a->ops->claim(a, id, err, sizeof err), CR_ERR_ILLEGAL);
    kill(pid, SIGKILL);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    /* the server notices the closed socket at once on loopback; allow 5 s */
    assert_int_equal(claim_soon(a, id), CR_OK);
    cr_store_close(a);
}

/* A store whose session was ended (a restarted or failed-over database, or
 * a cut connection) reconnects, and gives up the games another process
 * claimed meanwhile: it never appends to them again. */
static void test_lost_session_gives_games_up(void **state)
{
    (void)state;
    need_pg();
    char err[256], id[CR_STORE_ID_LEN + 1], id2[CR_STORE_ID_LEN + 1];
    cr_store *a = open_as("croupier-test-a");
    new_game(a, id);
    new_game(a, id2);
    assert_int_equal(a->ops->claim(a, id, err, sizeof err), CR_OK);
    assert_int_equal(a->ops->claim(a, id2, err, sizeof err), CR_OK);
    cr_store_entry e = {CR_STORE_ACTION, 3, 1, ""};
    assert_int_equal(a->ops->append(a, id, 0, &e, 1, err, sizeof err), CR_OK);
    /* end every session of a from outside (its statements' and its locks') */
    terminate("croupier-test-a", "");
    terminate("croupier-test-a", " locks");
    cr_store *b = open_as("croupier-test-b");
    assert_int_equal(claim_soon(b, id), CR_OK);
    /* a's next statement finds the session gone: it fails, and nothing is written */
    cr_status rc = a->ops->append(a, id, 1, &e, 1, err, sizeof err);
    assert_int_not_equal(rc, CR_OK);
    assert_non_null(strstr(err, "postgres"));
    /* reconnected: id is b's now, id2 was taken back */
    assert_int_equal(a->ops->append(a, id, 1, &e, 1, err, sizeof err), CR_ERR_ILLEGAL);
    assert_non_null(strstr(err, "not held"));
    assert_int_equal(a->ops->append(a, id2, 0, &e, 1, err, sizeof err), CR_OK);
    assert_int_equal(b->ops->claim(b, id2, err, sizeof err), CR_ERR_ILLEGAL);
    assert_int_equal(b->ops->append(b, id, 1, &e, 1, err, sizeof err), CR_OK);
    assert_int_equal(entries_of(a, id), 2);
    cr_store_close(b);
    cr_store_close(a);
}

/* Only the locks' session ends (its statements' sessions live on): the
 * store notices it before its next append and never writes to a game
 * another process claimed meanwhile, though its statements would work. */
static void test_lost_locks_session_is_noticed(void **state)
{
    (void)state;
    need_pg();
    char err[256], id[CR_STORE_ID_LEN + 1], id2[CR_STORE_ID_LEN + 1];
    cr_store *a = open_as("croupier-test-a");
    new_game(a, id);
    new_game(a, id2);
    assert_int_equal(a->ops->claim(a, id, err, sizeof err), CR_OK);
    assert_int_equal(a->ops->claim(a, id2, err, sizeof err), CR_OK);
    terminate("croupier-test-a", " locks");
    cr_store *b = open_as("croupier-test-b");
    assert_int_equal(claim_soon(b, id), CR_OK);
    cr_store_entry e = {CR_STORE_ACTION, 9, 0, ""};
    assert_int_equal(a->ops->append(a, id, 0, &e, 1, err, sizeof err), CR_ERR_ILLEGAL);
    assert_non_null(strstr(err, "not held"));
    assert_int_equal(entries_of(b, id), 0);
    assert_int_equal(a->ops->append(a, id2, 0, &e, 1, err, sizeof err), CR_OK);
    assert_int_equal(b->ops->claim(b, id2, err, sizeof err), CR_ERR_ILLEGAL);
    cr_store_close(b);
    cr_store_close(a);
}

/* Text from clients travels as parameters: quotes and SQL in a seat spec
 * or a result come back byte for byte and change nothing else. */
static void test_text_is_never_sql(void **state)
{
    (void)state;
    need_pg();
    char err[256], id[CR_STORE_ID_LEN + 1];
    cr_store *a = open_as("croupier-test-a");
    new_game(a, id);
    assert_int_equal(a->ops->claim(a, id, err, sizeof err), CR_OK);
    const char *nasty = "x'); DROP TABLE games; --\"\\\n\t\xc3\xa9";
    cr_store_entry e = {CR_STORE_SEAT, 0, 1, ""};
    snprintf(e.spec, sizeof e.spec, "%s", nasty);
    assert_int_equal(a->ops->append(a, id, 0, &e, 1, err, sizeof err), CR_OK);
    assert_int_equal(a->ops->finish(a, id, nasty, 2u, err, sizeof err), CR_OK);
    cr_store_game g;
    cr_store_entry *got = NULL;
    assert_int_equal(a->ops->load(a, id, &g, &got, err, sizeof err), CR_OK);
    assert_string_equal(got[0].spec, nasty);
    assert_string_equal(g.result_json, nasty);
    assert_string_equal(g.seats[1], "ismcts:iters=100,ms=50");
    free(got);
    /* text PostgreSQL cannot hold (not UTF-8) is refused whole, with a reason */
    cr_store_entry bad = {CR_STORE_SEAT, 0, 2, "heuristic\xff"};
    assert_int_equal(a->ops->append(a, id, 1, &bad, 1, err, sizeof err), CR_ERR_INVALID);
    assert_non_null(strstr(err, "UTF-8"));
    cr_store_game g2;
    memset(&g2, 0, sizeof g2);
    snprintf(g2.id, sizeof g2.id, "badutf8%08x", (unsigned)getpid());
    snprintf(g2.game, sizeof g2.game, "dml");
    g2.players = 2;
    snprintf(g2.seats[0], sizeof g2.seats[0], "human");
    snprintf(g2.seats[1], sizeof g2.seats[1], "random\xc3");
    assert_int_equal(a->ops->create_game(a, &g2, err, sizeof err), CR_ERR_INVALID);
    assert_int_equal(a->ops->load(a, g2.id, &g, &got, err, sizeof err), CR_ERR_INVALID);
    assert_int_equal(entries_of(a, id), 1);
    /* an id is a parameter too */
    assert_int_equal(a->ops->load(a, "' OR '1'='1", &g, &got, err, sizeof err), CR_ERR_INVALID);
    cr_store_close(a);
}

/* Connection errors say what failed and where, never the password. */
static void test_errors_keep_the_password(void **state)
{
    (void)state;
    need_pg();
    char err[512] = "";
    /* a port nobody listens on */
    assert_null(cr_store_open("postgres://someone:Secr3tPw@127.0.0.1:1/nodb", err, sizeof err));
    assert_non_null(strstr(err, "cannot connect"));
    assert_non_null(strstr(err, "nodb"));
    assert_null(strstr(err, "Secr3tPw"));
    /* a URL libpq cannot parse, the password next to the bad part */
    assert_null(cr_store_open("postgres://someone:Secr3t%zzPw@127.0.0.1/db", err, sizeof err));
    assert_non_null(strstr(err, "cannot be read"));
    assert_null(strstr(err, "Secr3t"));
    /* the real server, a wrong password */
    char url[1024];
    const char *at = strchr(base_url + 11, '@');
    const char *colon = strchr(base_url + 11, ':');
    if (at && colon && colon < at) {
        snprintf(url, sizeof url, "%.*sWrongPw9%s", (int)(colon + 1 - base_url), base_url, at);
        assert_null(cr_store_open(url, err, sizeof err));
        assert_non_null(strstr(err, "password authentication failed"));
        assert_null(strstr(err, "WrongPw9"));
    }
}

int main(void)
{
    const char *env = getenv("CROUPIER_TEST_PG");
    const char *req = getenv("CROUPIER_REQUIRE_PG");
    if (env && *env) {
        base_url = env;
        admin = PQconnectdb(base_url);
        if (PQstatus(admin) != CONNECTION_OK) {
            fprintf(stderr, "test_store_pg: cannot connect to CROUPIER_TEST_PG: %s",
                    PQerrorMessage(admin));
            return 1;
        }
        PQclear(PQexec(admin, "SET client_min_messages = warning"));
    } else if (req && strcmp(req, "1") == 0) {
        fprintf(stderr, "test_store_pg: CROUPIER_REQUIRE_PG=1 but CROUPIER_TEST_PG is unset\n");
        return 1;
    } else {
        fprintf(stderr, "test_store_pg: SKIPPED: set CROUPIER_TEST_PG=postgres://... to run the"
                        " PostgreSQL store tests (scripts/pg-test-db.sh makes a database)\n");
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_schema_made_on_first_start, setup, teardown),
        cmocka_unit_test_setup_teardown(test_newer_schema_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_claim_is_exclusive, setup, teardown),
        cmocka_unit_test_setup_teardown(test_claim_dies_with_the_process, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lost_session_gives_games_up, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lost_locks_session_is_noticed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_text_is_never_sql, setup, teardown),
        cmocka_unit_test_setup_teardown(test_errors_keep_the_password, setup, teardown),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (admin) PQfinish(admin);
    return rc;
}
