/* test_table.c — DML's table for the full-screen client (panels.c, the
 * `panels` part of croupier/parts.h).
 *
 * Random games of every variant; at many decisions, for every seat and the
 * public view, the panels of that view's observation are checked:
 *  - the format: panels start with a title, markup bytes only where the
 *    format allows them, styles from the documented set, ASCII only without
 *    CR_PANEL_UTF8;
 *  - seat safety: every card the text names (outside a Black Market's "may
 *    hold" list, which is the seat's own reasoning) is a card the view
 *    places, i.e. in one of its observation's zones;
 *  - content: a seat's Hand line lists exactly its Hand; every Stock card
 *    is shown with the Value the engine gives it now (dml_target_value);
 *    the Event line is there; the public view shows nobody's Hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "croupier/alloc.h"
#include "croupier/game.h"
#include "croupier/parts.h"
#include "croupier/rng.h"
#include "games/dml/dml_internal.h"
#include "games/dml/dml_test.h"

static char text[1 << 16], plain[1 << 16];

/* Checks the markup of panel text and copies it to plain[] without it. */
static void check_format(const char *t, size_t len, int ascii)
{
    assert_true(len > 0);
    assert_int_equal(t[0], CR_PANEL_TITLE);
    assert_int_equal(t[len - 1], '\n');
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)t[i];
        if (c == CR_PANEL_TITLE) {
            if (i > 0 && t[i - 1] != '\n') fail_msg("a title byte inside a line at %zu", i);
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
        if (ascii && c >= 0x80) fail_msg("non-ASCII byte 0x%02x without CR_PANEL_UTF8", c);
        plain[o++] = (char)c;
    }
    plain[o] = '\0';
}

/* The card whose code (upper case, as the panels write it) starts s, or -1. */
static int card_at(const char *s)
{
    if (!strchr("23456789TJQKAX", s[0]) || s[0] == '\0' || !strchr("SCHD12", s[1]) || s[1] == '\0')
        return -1;
    char code[3] = {s[0], s[1], 0};
    return dml_parse_card(code);
}

static int is_word(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* Every card named in plain[] is placed by the view (may-hold lists aside). */
static void check_cards_known(const dml_state *obs, const char *p)
{
    uint64_t known = 0;
    for (int z = 0; z < DML_NZONES; z++) known |= obs->zone[z];
    for (const char *line = p; *line;) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        char buf[2048];
        if (n >= sizeof buf) n = sizeof buf - 1;
        memcpy(buf, line, n);
        buf[n] = '\0';
        char *may = strstr(buf, "may hold");
        if (may) *may = '\0';
        for (size_t i = 0; buf[i] && buf[i + 1]; i++) {
            if (i > 0 && is_word(buf[i - 1])) continue;
            if (is_word(buf[i + 2])) continue;
            int c = card_at(buf + i);
            if (c < 0) continue;
            if (!(known & dml_bit(c)))
                fail_msg("the view %d names %s, which it does not place: %s", obs->obs_seat,
                         dml_card_code(c), buf);
        }
        line = nl ? nl + 1 : line + n;
    }
}

/* The cards listed on the line starting with `prefix` (up to a double space). */
static uint64_t cards_on_line(const char *p, const char *prefix, int *found)
{
    const char *l = strstr(p, prefix);
    *found = l != NULL && (l == p || l[-1] == '\n');
    if (!*found) return 0;
    uint64_t m = 0;
    for (const char *q = l + strlen(prefix); *q && *q != '\n' && !(q[0] == ' ' && q[1] == ' ');
         q++) {
        if (q > l && is_word(q[-1])) continue;
        int c = card_at(q);
        if (c >= 0 && !is_word(q[2])) m |= dml_bit(c);
    }
    return m;
}

static void check_stock_values(const dml_state *obs, const char *p)
{
    for (uint64_t m = obs->zone[DML_Z_STOCK]; m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        char want[16];
        snprintf(want, sizeof want, " %s=%d", dml_card_code(c), dml_target_value(obs, c));
        const char *stocks = strstr(p, "Stocks");
        assert_non_null(stocks);
        if (!strstr(stocks, want))
            fail_msg("Stock card %s: expected '%s' in\n%s", dml_card_code(c), want, p);
    }
    /* a target in the buying area shows the Value it was bought at, as D
     * counts it (it showed its printed number under The Hated People) */
    for (uint64_t m = obs->zone[DML_Z_TARGET]; m; m &= m - 1) {
        int c = __builtin_ctzll(m), v = obs->target_from == DML_Z_STOCK ? -1 : 10;
        if (v < 0) {
            v = dml_value(c);
            /* The Hated People: at most EV; DML-2015's Marauders: at least */
            if (obs->event_type == DML_EV_HATED &&
                (obs->variant == DML_V_2015 ? v >= obs->ev : v <= obs->ev))
                v += 2;
            if (obs->event_type == DML_EV_UNION && v >= obs->ev) v -= 2;
        }
        char want[32];
        snprintf(want, sizeof want, "targets %s=%d", dml_card_code(c), v);
        const char *line = strstr(p, " targets ");
        if (line == NULL || strstr(line, want + strlen("targets ")) == NULL)
            fail_msg("target %s: expected '%s' in\n%s", dml_card_code(c), want, p);
    }
}

static void check_view(const cr_game *g, const dml_state *s, int view, dml_state *obs)
{
    g->def->observe(g, s, view, obs);
    const cr_game_parts *parts = cr_parts(g);
    assert_non_null(parts->panels);
    size_t n = parts->panels(g, obs, 0, text, sizeof text);
    assert_true(n < sizeof text);
    check_format(text, n, 1);
    check_cards_known(obs, plain);
    assert_non_null(strstr(plain, "Event: "));
    check_stock_values(obs, plain);
    /* the budget is the active player's: never beside another seat's
     * decision, where it read as the decider's */
    if (obs->need == DML_NEED_DECISION && obs->actor >= 0 && obs->actor != obs->active &&
        strstr(plain, " left\n") != NULL && strstr(plain, "Action") != NULL) {
        const char *d = strstr(plain, " decides: ");
        char line[256] = "";
        if (d) snprintf(line, sizeof line, "%.*s", (int)strcspn(d, "\n"), d);
        if (strstr(line, " left") != NULL)
            fail_msg("the active P%d's budget shows beside P%d's decision:\n%s", obs->active,
                     obs->actor, plain);
    }
    /* an Event's Player effect says when it affects nobody */
    if (obs->event_type == DML_EV_CUSTOMS && obs->affected == 0 && obs->variant != DML_V_MAYHEM &&
        strstr(plain, "  Players: nobody is affected\n") == NULL)
        fail_msg("Customs Crackdown does not say it affects nobody:\n%s", plain);
    int found;
    uint64_t hand = cards_on_line(plain, "Hand: ", &found);
    if (view >= 0) {
        assert_true(found);
        if (hand != obs->zone[DML_Z_HAND + view])
            fail_msg("P%d's Hand line shows other cards than its Hand:\n%s", view, plain);
    } else {
        assert_false(found);
        assert_null(strstr(plain, "You ("));
    }
    /* the UTF-8 rendering has the same structure */
    size_t u = parts->panels(g, obs, CR_PANEL_UTF8, text, sizeof text);
    assert_true(u < sizeof text);
    check_format(text, u, 0);
    /* snprintf semantics: a short buffer gets a prefix and the full length */
    char small[64];
    assert_int_equal(parts->panels(g, obs, 0, small, sizeof small), n);
    assert_int_equal(strlen(small), sizeof small - 1);
}

static int random_games(const char *variant, int players, int games, uint64_t seed)
{
    cr_game *g = dml_test_game(variant, players);
    dml_state *s = cr_alloc(sizeof *s), *obs = cr_alloc(sizeof *obs);
    cr_action legal[DML_MAX_LEGAL];
    cr_rng rng;
    cr_rng_seed(&rng, seed, 11);
    int checked = 0;
    for (int game = 0; game < games; game++) {
        g->def->init(g, s);
        for (int step = 0; step < 4000; step++) {
            int p = g->def->current_player(g, s);
            if (p != CR_CHANCE && step % 5 == 0) {
                for (int v = 0; v < players; v++) check_view(g, s, v, obs);
                check_view(g, s, CR_SEAT_PUBLIC, obs);
                checked++;
            }
            if (p == CR_TERMINAL) break;
            if (p == CR_CHANCE) {
                g->def->apply(g, s, cr_sample_chance(g, s, &rng), NULL);
                continue;
            }
            int k = g->def->legal_actions(g, s, legal, NULL);
            assert_true(k > 0);
            g->def->apply(g, s, legal[cr_rng_below(&rng, (uint32_t)k)], NULL);
        }
        /* the end: the result panel comes first */
        assert_true(s->over);
        g->def->observe(g, s, 0, obs);
        size_t n = cr_parts(g)->panels(g, obs, 0, text, sizeof text);
        check_format(text, n, 1);
        assert_int_equal(strncmp(plain, "Game over\n", 10), 0);
        /* nobody has a turn once the game is over */
        assert_null(strstr(plain, "'s turn"));
        assert_non_null(strstr(plain, "the game is over"));
    }
    cr_free(s);
    cr_free(obs);
    cr_game_free(g);
    return checked;
}

static void panels_of_random_games(void **unused)
{
    (void)unused;
    int checked = random_games("full", 4, 12, 1) + random_games("smackdown", 3, 6, 2) +
                  random_games("mayhem", 4, 6, 3) + random_games("fire", 4, 6, 4) +
                  random_games("dml-2015", 4, 8, 5) + random_games("dml-2015", 3, 4, 6);
    print_message("panels checked at %d decisions, every view\n", checked);
    assert_true(checked > 500);
}

/* DML-2015: a Character Power Phase with the Rogue Jester (played as a
 * Power) on top of at least one more card, found in seeded random games.
 * The acting seat's table names the step a CPP, lists the Stack top first
 * with the 2015 names, and the help says which card the Jester will bring
 * to the top; the 2016 names appear nowhere. */
static void jester_on_the_stack_2015(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("dml-2015", 4);
    dml_state *s = cr_alloc(sizeof *s), *obs = cr_alloc(sizeof *obs);
    cr_action legal[DML_MAX_LEGAL];
    cr_rng rng;
    cr_rng_seed(&rng, 2015, 11);
    int jc = dml_card(DML_SUIT_C, DML_J), found = 0;
    for (int game = 0; game < 400 && !found; game++) {
        g->def->init(g, s);
        for (int step = 0; step < 4000 && !found; step++) {
            int p = g->def->current_player(g, s);
            if (p == CR_TERMINAL) break;
            if (p == CR_CHANCE) {
                g->def->apply(g, s, cr_sample_chance(g, s, &rng), NULL);
                continue;
            }
            int top = s->stack_n - 1;
            if (s->kind == DML_D_STACK && top >= 1 && s->stack_card[top] == jc &&
                !(s->stack_flag[top] & DML_SF_EMBLEM)) {
                found = 1;
                break;
            }
            int k = g->def->legal_actions(g, s, legal, NULL);
            g->def->apply(g, s, legal[cr_rng_below(&rng, (uint32_t)k)], NULL);
        }
    }
    assert_true(found);
    int me = s->actor, bottom = s->stack_card[0];
    g->def->observe(g, s, me, obs);
    size_t n = cr_parts(g)->panels(g, obs, 0, text, sizeof text);
    check_format(text, n, 1);
    char want[64];
    snprintf(want, sizeof want, "P%d decides: stack, Character Power Phase", me);
    assert_non_null(strstr(plain, want));
    assert_non_null(strstr(plain, "Stack (top resolves first)\ntop JC P"));
    assert_non_null(strstr(plain, "Power: Rogue Jester\n"));
    assert_null(strstr(plain, "Vice Minister"));
    char help[4096];
    cr_parts(g)->help(g, obs, help, sizeof help);
    assert_non_null(strstr(help, "Character Power Phase (DML-2015)"));
    snprintf(want, sizeof want, "turns the rest over: %s, at the bottom now",
             dml_card_code(bottom));
    assert_non_null(strstr(help, want));
    /* the 2016 table of the same cards says Power Phase words, not these */
    s->variant = DML_V_FULL;
    g->def->observe(g, s, me, obs);
    n = cr_parts(g)->panels(g, obs, 0, text, sizeof text);
    check_format(text, n, 1);
    assert_null(strstr(plain, "Rogue Jester"));
    assert_null(strstr(plain, "Character Power Phase"));
    cr_free(s);
    cr_free(obs);
    cr_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(panels_of_random_games),
        cmocka_unit_test(jester_on_the_stack_2015),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
