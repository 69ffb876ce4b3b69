/* test_table.c — 18Dracula's table for the full-screen client (panels.c,
 * the `panels` part of croupier/parts.h).
 *
 * Seeded games of heuristic seats on the bundled board; at every decision
 * (one in five in the long middle of the game) the panels are checked:
 *  - the format: panels start with a title, markup bytes only where the
 *    format allows them, styles from the documented set, ASCII only (with
 *    or without CR_PANEL_UTF8);
 *  - content: the acting seat and its cash, the decision (the prompt),
 *    every seat's cash and certificates, every started front on the market
 *    at its price and in the Fronts panel with its treasury, the phase,
 *    tracker and bank; in an operating turn the map near the entity's
 *    offices lists every built route space between two places of that
 *    region with its cube's colour; at the end the scores. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "croupier/game.h"
#include "croupier/parts.h"
#include "croupier/rng.h"
#include "games/18dracula/d18_internal.h"

static char text[1 << 16], plain[1 << 16];

static void check_format(const char *t, size_t len)
{
    assert_true(len > 0);
    assert_int_equal(t[0], CR_PANEL_TITLE);
    assert_int_equal(t[len - 1], '\n');
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)t[i];
        if (c == CR_PANEL_TITLE) {
            if (i > 0 && t[i - 1] != '\n')
                fail_msg("a title byte inside a line at %zu: %.*s", i, (int)i, t);
            continue;
        }
        if (c == CR_PANEL_STYLE) {
            assert_true(i + 1 < len);
            if (!strchr("0ed+-!1234", t[i + 1]) || t[i + 1] == '\0')
                fail_msg("unknown style byte 0x%02x", (unsigned char)t[i + 1]);
            i++;
            continue;
        }
        if (c < 0x20 && c != '\n') fail_msg("control byte 0x%02x at %zu", c, i);
        if (c >= 0x80) fail_msg("non-ASCII byte 0x%02x", c);
        plain[o++] = (char)c;
    }
    plain[o] = '\0';
}

static void has(const char *want)
{
    if (!strstr(plain, want)) fail_msg("the table lacks \"%s\":\n%s", want, plain);
}

/* The panel whose title starts with `name`, as a string in buf. */
static const char *panel(const char *name, char *buf, size_t cap)
{
    const char *p = text;
    size_t n = strlen(name);
    for (;;) {
        p = strchr(p, CR_PANEL_TITLE);
        if (!p) return NULL;
        p++;
        if (strncmp(p, name, n) == 0) break;
    }
    const char *end = strchr(p, CR_PANEL_TITLE);
    size_t len = end ? (size_t)(end - p) : strlen(p);
    size_t o = 0;
    for (size_t i = 0; i < len && o + 1 < cap; i++) {
        if (p[i] == CR_PANEL_STYLE) {
            i++;
            continue;
        }
        buf[o++] = p[i];
    }
    buf[o] = '\0';
    return buf;
}

static void check(const cr_game *g, const d18_state *s, unsigned flags, int *near_checked)
{
    const d18_board *b = d18_brd(g);
    size_t len = cr_parts(g)->panels(g, s, flags, text, sizeof text);
    assert_true(len < sizeof text);
    check_format(text, len);
    char want[512], prompt[256], buf[1 << 14];
    int cur = g->def->current_player(g, s);
    if (cur >= 0) {
        snprintf(want, sizeof want, "P%d to act (cash %d)", cur, s->cash[cur]);
        has(want);
        d18_prompt(g, s, prompt, sizeof prompt);
        has(prompt);
    }
    for (int p = 0; p < s->np; p++) {
        snprintf(want, sizeof want, "P%d %d, %d/%d", p, s->cash[p], d18_certs(g, s, p),
                 d18_cert_limit(s->np));
        has(want);
    }
    const char *market = panel("Market:", buf, sizeof buf);
    assert_non_null(market);
    for (int f = 0; f < D18_NFRONTS; f++) {
        if (s->pres[f] < 0) continue;
        /* on the market, inside the bracket of its price: "[67 SAN CKG]" */
        snprintf(want, sizeof want, " %s", b->front[f].id);
        int found = 0;
        for (const char *q = strstr(market, want); q && !found; q = strstr(q + 1, want)) {
            const char *open = q;
            while (open > market && *open != '[' && *open != ']') open--;
            found = *open == '[' && atoi(open + 1) == d18_price(g, s, f);
        }
        assert_true(found);
        snprintf(want, sizeof want, "%s P%d %d (par ", b->front[f].id, s->pres[f],
                 d18_price(g, s, f));
        has(want);
        snprintf(want, sizeof want, "treasury %d", s->treasury[f]);
        has(want);
    }
    int ph = s->phase;
    snprintf(want, sizeof want, "Phase %d, tracker %d/%d", ph, s->tracker, b->sales[ph - 1]);
    has(want);
    snprintf(want, sizeof want, "Bank %d", s->bank);
    has(want);
    if (s->stage == D18_S_OR && s->op_ent >= 0) {
        const char *id = s->op_ent < D18_NFRONTS   ? b->front[s->op_ent].id
                         : s->op_ent == D18_ENT_LL ? "LL"
                                                   : "BT";
        snprintf(want, sizeof want, "Map near %s's offices", id);
        const char *near = panel(want, buf, sizeof buf);
        assert_non_null(near);
        /* every built space with an end at an office city is listed */
        for (int r = 0; r < b->n_routes; r++) {
            if (s->cube[r] == D18_CUBE_NONE) continue;
            int a = b->route[r].a, c = b->route[r].b;
            if (!(b->loc[a].kind == D18_CITY && d18_has_office(g, s, s->op_ent, a)) &&
                !(b->loc[c].kind == D18_CITY && d18_has_office(g, s, s->op_ent, c)))
                continue;
            static const char *const w[] = {"yellow", "green", "blue", "red"};
            snprintf(want, sizeof want, "%s-%s %s", b->loc[a].id, b->loc[c].id,
                     s->cube[r] == D18_CUBE_PRE ? "pre-built" : w[s->cube[r] - 1]);
            if (!strstr(near, want)) fail_msg("\"%s\" not in the map near:\n%s", want, near);
            (*near_checked)++;
        }
    }
    if (s->stage == D18_S_OVER) {
        cr_result r;
        g->def->result(g, s, &r);
        has("Game over");
        for (int p = 0; p < s->np; p++) {
            snprintf(want, sizeof want, "P%d: %d (rank %d)", p, r.score[p], r.rank[p]);
            has(want);
        }
    }
}

static void test_table(void **unused)
{
    (void)unused;
    int checked = 0, near = 0;
    for (int np = 3; np <= 4; np++) {
        cr_params prm = {.num_players = np};
        char err[256];
        cr_game *g = cr_game_new(&d18_def, &prm, err, sizeof err);
        if (!g) fail_msg("%s", err);
        cr_ctx *cx = cr_ctx_new(g);
        cr_action *legal = malloc((size_t)g->max_legal * sizeof *legal);
        cr_rng rng;
        cr_rng_seed(&rng, 0x7ab1e, (uint64_t)np);
        d18_state s;
        g->def->init(g, &s);
        for (long n = 0; n < 200000 && !cr_is_terminal(g, &s); n++) {
            int p = cr_current_player(g, &s);
            cr_action a;
            if (p == CR_CHANCE) {
                a = cr_sample_chance(g, &s, &rng);
            } else {
                if (n % 5 == 0 || s.stage == D18_S_OR) {
                    check(g, &s, n & 1 ? CR_PANEL_UTF8 : 0, &near);
                    checked++;
                }
                int k = g->def->legal_actions(g, &s, legal, cx);
                a = d18_parts.heuristic(g, &s, p, legal, k, &rng);
            }
            g->def->apply(g, &s, a, cx);
        }
        assert_true(cr_is_terminal(g, &s));
        check(g, &s, 0, &near);
        free(legal);
        cr_ctx_free(cx);
        cr_game_free(g);
    }
    printf("%d tables checked, %d built spaces near offices\n", checked, near);
    assert_true(checked > 500 && near > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
