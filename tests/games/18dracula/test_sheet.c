/* test_sheet.c — 18Dracula's annals and spreadsheet (sheet.c, annals.h;
 * croupier/parts.h, "Annals"), against the engine:
 *   - every operating-history row against the game: its revenue is the
 *     rampage's, and once its dividend is settled, the fate is the
 *     President's choice and the price is the front's share price in the
 *     state after that action; the last rampage's route spaces are built
 *     and join its stops;
 *   - the spreadsheet's player lines (cash, certificates, worth) against
 *     the state;
 *   - the annals are the same bytes after saving and loading the record,
 *     when the replay cursor rebuilds them at any step (forwards and
 *     backwards), and after an undo;
 *   - a game without annals (DML) gets none.
 * Games are played by the heuristic bot, which floats fronts and runs
 * them, so operating rounds come early. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "croupier/alloc.h"
#include "croupier/match.h"
#include "croupier/parts.h"
#include "croupier/replay.h"
#include "games/18dracula/annals.h"
#include "games/18dracula/d18_internal.h"

static const char *const bots4[] = {"heuristic", "heuristic", "heuristic", "heuristic"};

static cr_match *new_match(const char *const *seats, uint64_t seed)
{
    cr_params p = {.num_players = 4};
    char err[256];
    cr_match *m = cr_match_new(cr_registry_find("18dracula"), &p, seats, seed, err, sizeof err);
    if (m == NULL) fail_msg("%s", err);
    return m;
}

static uint64_t hash(const void *p, size_t n)
{
    const unsigned char *c = p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 1099511628211ull;
    return h;
}

static uint64_t annals_hash(const cr_match *m, uint32_t upto)
{
    void *a = cr_match_annals(m, upto);
    assert_non_null(a);
    uint64_t h = hash(a, sizeof(d18_annals));
    cr_free(a);
    return h;
}

/* Checks the spreadsheet's line of each player against the state. */
static void check_sheet_players(const cr_game *g, const d18_state *s, const d18_annals *a)
{
    size_t n = cr_parts(g)->sheet(g, s, a, 0, NULL, 0);
    char *text = malloc(n + 1);
    assert_non_null(text);
    cr_parts(g)->sheet(g, s, a, 0, text, n + 1);
    assert_int_equal(strlen(text), n);
    /* without the markup: style pairs and title bytes */
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        if (text[i] == CR_PANEL_STYLE) {
            i++;
            continue;
        }
        if (text[i] != CR_PANEL_TITLE) text[j++] = text[i];
    }
    text[j] = '\0';
    for (int p = 0; p < s->np; p++) {
        char head[16];
        snprintf(head, sizeof head, "P%d", p);
        const char *line = text;
        int found = 0;
        while ((line = strstr(line, head)) != NULL) {
            if (line == text || line[-1] == '\n') {
                int cash, certs, lim, worth;
                assert_int_equal(sscanf(line + 2, "%d %d/%d %d", &cash, &certs, &lim, &worth), 4);
                assert_int_equal(cash, s->cash[p]);
                assert_int_equal(certs, d18_certs(g, s, p));
                assert_int_equal(lim, d18_cert_limit(s->np));
                assert_int_equal(worth, d18_value(g, s, p));
                found++;
            }
            line += 2;
        }
        assert_true(found >= 1); /* once a block of fronts */
    }
    /* every line but the routes' words (indented; the client wraps them)
     * fits 78 columns */
    for (const char *l = text; *l;) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        if (l[0] != ' ' && len > 78) fail_msg("a line of %zu columns: %.*s", len, (int)len, l);
        l += len + (nl ? 1 : 0);
    }
    free(text);
}

static void test_history_matches_engine(void **unused)
{
    (void)unused;
    for (uint64_t seed = 1; seed <= 2; seed++) {
        cr_match *m = new_match(bots4, seed);
        const cr_game *g = cr_match_game(m);
        const d18_board *b = d18_brd(g);
        int rows = 0, paid = 0, withheld = 0, routes = 0;
        for (int step = 0; step < 20000 && !cr_match_over(m); step++) {
            d18_state before;
            memcpy(&before, cr_match_state(m), sizeof before);
            assert_int_equal(cr_match_step(m), CR_OK);
            const d18_state *s = cr_match_state(m);
            const cr_event *ev;
            int n = cr_match_last_events(m, &ev), rev_ent = -1, div_ent = -1;
            int32_t rev = 0;
            for (int i = 0; i < n; i++) {
                if (ev[i].kind == D18_E_REVENUE) rev_ent = ev[i].card, rev = ev[i].a;
                if (ev[i].kind == D18_E_DIVIDEND) div_ent = ev[i].card;
            }
            if (rev_ent < 0 && div_ent < 0) continue;
            d18_annals *a = cr_match_annals(m, cr_match_event_count(m));
            assert_non_null(a);
            if (rev_ent >= 0) {
                const d18_or_row *r = d18_annals_row(a, rev_ent, d18_annals_rows(a, rev_ent) - 1);
                assert_non_null(r);
                assert_int_equal(r->revenue, rev);
                assert_true(a->has_last);
                assert_int_equal(a->last_ent, rev_ent);
                assert_int_equal(a->last_revenue, rev);
                if (rev_ent >= D18_NFRONTS) {
                    assert_int_equal(r->fate, D18_ROW_SPLIT);
                } else if (rev <= 0) { /* withheld at once */
                    assert_int_equal(r->fate, D18_ROW_WITHHELD);
                    assert_int_equal(r->price, d18_price(g, s, rev_ent));
                } else {
                    assert_int_equal(r->fate, D18_ROW_PENDING);
                }
                /* the routes ran over built route spaces (the state they ran in) */
                for (int rr = 0; rr < b->n_routes; rr++)
                    if (a->last_space[rr >> 6] >> (rr & 63) & 1) {
                        assert_true(before.cube[rr] != D18_CUBE_NONE || before.castle == rr);
                        assert_true(a->last_stop[b->route[rr].a >> 6] >> (b->route[rr].a & 63) & 1);
                        assert_true(a->last_stop[b->route[rr].b >> 6] >> (b->route[rr].b & 63) & 1);
                        routes++;
                    }
                if (rev > 0 && rev_ent < D18_NFRONTS) assert_true(a->n_route_ev > 0);
                rows++;
            }
            if (div_ent >= 0) {
                const d18_or_row *r = d18_annals_row(a, div_ent, d18_annals_rows(a, div_ent) - 1);
                assert_non_null(r);
                d18_act x;
                d18_decode(cr_match_record(m)->actions[cr_match_record(m)->n_actions - 1], &x);
                assert_int_equal(r->fate, x.kind == D18_K_PAY ? D18_ROW_PAID : D18_ROW_WITHHELD);
                assert_int_equal(r->revenue, before.revenue);
                assert_int_equal(r->price, d18_price(g, s, div_ent));
                if (x.kind == D18_K_PAY) {
                    assert_int_equal(r->per_share, before.revenue / 10);
                    paid++;
                } else {
                    withheld++;
                }
            }
            check_sheet_players(g, s, a);
            cr_free(a);
        }
        /* the heuristic runs its fronts: the game has a history to check */
        assert_true(rows >= 10);
        assert_true(paid + withheld >= 5);
        assert_true(routes >= 5);
        cr_match_free(m);
    }
}

static void test_same_after_load_replay_undo(void **unused)
{
    (void)unused;
    /* P0 is human, driven by a seeded choice, so it can undo */
    const char *const seats[] = {"human", "heuristic", "heuristic", "heuristic"};
    cr_match *m = new_match(seats, 7);
    const cr_game *g = cr_match_game(m);
    enum { STEPS = 3000 };
    static uint64_t at[STEPS + 1];
    cr_action *legal = malloc(sizeof(cr_action) * (size_t)g->max_legal);
    assert_non_null(legal);
    cr_rng rng;
    cr_rng_seed(&rng, 99, 0);
    at[0] = annals_hash(m, cr_match_event_count(m));
    int k = 0;
    while (k < STEPS && !cr_match_over(m)) {
        int who = cr_match_to_act(m);
        if (who == 0) {
            int n = cr_match_legal(m, 0, legal);
            assert_true(n > 0);
            /* the heuristic's choice for P0 too, so the game goes on */
            cr_action a = d18_heuristic(g, cr_match_state(m), 0, legal, n, &rng);
            char err[256];
            assert_int_equal(cr_match_submit_action(m, 0, a, err, sizeof err), CR_OK);
        } else {
            assert_int_equal(cr_match_step(m), CR_OK);
        }
        k = cr_match_record(m)->n_actions;
        at[k] = annals_hash(m, cr_match_event_count(m));
    }
    assert_true(k > 300);
    /* the annals have an OR history by then */
    d18_annals *a = cr_match_annals(m, cr_match_event_count(m));
    int have = 0;
    for (int e = 0; e < D18_NENT; e++) have += (int)d18_annals_rows(a, e);
    assert_true(have > 0);
    cr_free(a);

    /* save and load: the same annals */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    char err[256];
    assert_int_equal(cr_match_save(m, f, err, sizeof err), CR_OK);
    fclose(f);
    cr_match *m2 = cr_match_load(text, len, NULL, 0, err, sizeof err);
    assert_non_null(m2);
    assert_int_equal(annals_hash(m2, cr_match_event_count(m2)), at[k]);

    /* the replay cursor at any step, backwards and forwards */
    cr_replay *rp = cr_replay_new(m2);
    assert_non_null(rp);
    for (int i = k; i >= 0; i -= 37) {
        cr_replay_seek(rp, i);
        assert_int_equal(annals_hash(m2, cr_replay_event_at(rp, i)), at[i]);
    }
    for (int i = 0; i <= k; i += 41) {
        cr_replay_seek(rp, i);
        assert_int_equal(annals_hash(m2, cr_replay_event_at(rp, i)), at[i]);
        /* and the spreadsheet renders at that step */
        check_sheet_players(g, cr_replay_state(rp), NULL);
    }
    cr_replay_free(rp);
    cr_match_free(m2);
    free(text);

    /* undo: back to P0's last decision, the annals as they were then */
    assert_int_equal(cr_match_undo(m, 0, err, sizeof err), CR_OK);
    int back = cr_match_record(m)->n_actions;
    assert_true(back < k);
    assert_int_equal(annals_hash(m, cr_match_event_count(m)), at[back]);
    free(legal);
    cr_match_free(m);
}

static void test_sheet_text_and_map(void **unused)
{
    (void)unused;
    cr_match *m = new_match(bots4, 3);
    const cr_game *g = cr_match_game(m);
    /* play to the end of the second operating round */
    while (!cr_match_over(m) && ((const d18_state *)cr_match_state(m))->ors_played < 3)
        assert_int_equal(cr_match_step(m), CR_OK);
    d18_annals *a = cr_match_annals(m, cr_match_event_count(m));
    assert_non_null(a);
    const void *st = cr_match_state(m);
    char *buf = malloc(1 << 16);
    assert_non_null(buf);
    size_t n = cr_parts(g)->sheet(g, st, a, 0, buf, 1 << 16);
    assert_true(n < (1 << 16));
    assert_non_null(strstr(buf, "Players and fronts"));
    assert_non_null(strstr(buf, "Operating rounds"));
    assert_non_null(strstr(buf, "\n1.1 "));
    assert_non_null(strstr(buf, "\n2.1 ")); /* one OR a set in phase 1 */
    assert_non_null(strstr(buf, "The last rampage"));
    /* the map marks the last rampage's routes with '*' */
    assert_true(a->has_last);
    n = cr_parts(g)->map_annals(g, st, a, 0, buf, 1 << 16);
    assert_true(n < (1 << 16));
    assert_non_null(strstr(buf, "the last rampage"));
    int stars = 0;
    for (size_t i = 0; i < n; i++) stars += buf[i] == '*';
    int spaces = 0;
    for (int r = 0; r < d18_brd(g)->n_routes; r++)
        spaces += (int)(a->last_space[r >> 6] >> (r & 63) & 1);
    if (spaces > 0) assert_true(stars > 1);
    /* the plain map has none of it */
    n = cr_parts(g)->map(g, st, 0, buf, 1 << 16);
    assert_null(strstr(buf, "the last rampage"));
    /* the JSON */
    n = cr_parts(g)->annals_json(g, a, buf, 1 << 16);
    assert_true(n < (1 << 16));
    assert_non_null(strstr(buf, "{\"history\":[{\"entity\":"));
    assert_non_null(strstr(buf, "\"last_rampage\":{\"entity\":"));
    free(buf);
    cr_free(a);
    cr_match_free(m);
}

static void test_no_annals_elsewhere(void **unused)
{
    (void)unused;
    cr_params p = {.num_players = 4};
    char err[256];
    cr_match *m = cr_match_new(cr_registry_find("dml"), &p, NULL, 1, err, sizeof err);
    assert_non_null(m);
    assert_null(cr_match_annals(m, cr_match_event_count(m)));
    assert_null(cr_parts(cr_match_game(m))->sheet);
    cr_match_free(m);
    /* the lab's lean matches keep no log, so no annals either */
    m = new_match(bots4, 1);
    cr_match_configure(m, CR_MATCH_LEAN);
    assert_null(cr_match_annals(m, 0));
    cr_match_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_history_matches_engine),
        cmocka_unit_test(test_same_after_load_replay_undo),
        cmocka_unit_test(test_sheet_text_and_map),
        cmocka_unit_test(test_no_annals_elsewhere),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
