/* test_explain.c — the help and the events say why, with the right numbers.
 *
 * Rule fixtures (the positions of tests/fixtures/dml/) are played to
 * a Seize offer, a won and a failed Seize, a Dragon Siege and a Dabo!, and
 * the texts a seat reads there must carry the cause and the numbers:
 * which of its cards count in a Seize offer and the Value they make, the
 * chance of the buyer's roll, why nobody seized, what started a Siege and
 * what each seat's eggs and Shields cost it, what a Dabo! double was rolled
 * against and the chance of a re-roll.  Chances are computed here from the
 * dice rules as the guide states them (two dice, total at least the
 * target; (6,6) always succeeds, (1,1) always fails; (2,2)..(5,5) may be
 * re-rolled), independently of the engine's dml_roll_odds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "games/dml/dml_test.h"

#include "croupier/alloc.h"
#include "croupier/parts.h"

enum { LOG = 1 << 15, EVENTS = 4096 };

/* The position of a rule fixture: the JSON between "position" and "end". */
static void load_fixture(const cr_game *g, dml_state *s, const char *name)
{
    char path[512], err[512];
    size_t len;
    snprintf(path, sizeof path, "%s/dml/%s", CR_TEST_FIXTURES_DIR, name);
    char *text = dml_test_read(path, &len);
    char *start = strstr(text, "\nposition\n"), *end = start ? strstr(start, "\nend\n") : NULL;
    if (start == NULL || end == NULL) fail_msg("%s: no position ... end", name);
    start += strlen("\nposition\n");
    if (g->def->deserialize(g, s, start, (size_t)(end - start), err, sizeof err) != CR_OK)
        fail_msg("%s: %s", name, err);
}

/* Applies text and appends the events, as `seat` sees them, to log. */
static void play(const cr_game *g, dml_state *s, const char *text, int seat, char *log)
{
    static cr_event buf[EVENTS];
    cr_events ev = {.buf = buf, .cap = EVENTS};
    cr_ctx cx = {.ev = &ev};
    char err[256];
    if (cr_apply_text(g, s, text, &cx, err, sizeof err) != CR_OK) fail_msg("'%s': %s", text, err);
    assert_int_equal(ev.dropped, 0);
    for (int i = 0; i < ev.len; i++) {
        size_t n = strlen(log);
        g->def->event_to_str(g, &buf[i], seat, log + n, LOG - n - 1);
        n = strlen(log);
        log[n] = '\n';
        log[n + 1] = '\0';
    }
}

static void has(const char *text, const char *want)
{
    if (strstr(text, want) == NULL) fail_msg("\"%s\" not in:\n%s", want, text);
}

/* The help of seat's decision, from its observation. */
static void help_of(const cr_game *g, const dml_state *s, int seat, char *buf, size_t cap)
{
    dml_state *obs = cr_calloc(1, g->obs_size);
    g->def->observe(g, s, seat, obs);
    cr_parts(g)->help(g, obs, buf, cap);
    cr_free(obs);
}

/* The chance of a check against target, from the dice rules: one roll, and
 * with every failing Dabo! double re-rolled, as "NN.N%". */
static void chances(int target, char *single, char *reroll, size_t cap)
{
    int succ = 0, dabo_fail = 0;
    for (int a = 1; a <= 6; a++)
        for (int b = 1; b <= 6; b++) {
            int ok = (a == 6 && b == 6) || (!(a == 1 && b == 1) && a + b >= target);
            succ += ok;
            dabo_fail += !ok && a == b && a >= 2 && a <= 5;
        }
    snprintf(single, cap, "%.1f%% of the time (%d of 36)", 100.0 * succ / 36, succ);
    snprintf(reroll, cap, "%.1f%%", 100.0 * succ / (36 - dabo_fail));
}

/* r70: P0 buys 6S (Iron, Value 6; Spice counts).  P1, offering, is told
 * that its 3D counts and makes the Value 9, and the chance of P0's roll
 * against 6 if nobody seizes.  P2 wins with 5D; its 9S counted nothing. */
static void seize_offer_help_and_winner(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_calloc(1, g->state_size);
    static char log[LOG], help[4096];
    char single[64], reroll[64];
    log[0] = '\0';
    load_fixture(g, s, "r70_public_offers.txt");
    play(g, s, "buy", CR_SEAT_PUBLIC, log);
    play(g, s, "6S", CR_SEAT_PUBLIC, log);
    play(g, s, "done", CR_SEAT_PUBLIC, log);
    help_of(g, s, 1, help, sizeof help);
    has(help, "P0 is buying Iron at Value 6");
    has(help, "only Spice Commodities");
    has(help, "Your cards that would count: 3D (3), 3 in all");
    has(help, "makes the Value 6 + 3 = 9");
    chances(6, single, reroll, sizeof single);
    has(help, "If nobody seizes, P0 rolls against 6");
    has(help, single);
    has(help, reroll);
    /* the roll is P0's, not the reader's: the re-roll chance is said of P0 */
    has(help, "if P0 re-rolls every failing Dabo! double");
    assert_null(strstr(help, "if you re-roll"));
    /* and the number that matters most to the offerer: P0's chance at the
     * Value its offer would make, which is the chance to lose the targets */
    chances(9, single, reroll, sizeof single);
    has(help, "If your offer wins, P0's buying roll is against 9: ");
    has(help, single);
    /* P2 holds 9S and 5D: only 5D would count */
    play(g, s, "3D", CR_SEAT_PUBLIC, log);
    play(g, s, "done", CR_SEAT_PUBLIC, log);
    help_of(g, s, 2, help, sizeof help);
    has(help, "Your cards that would count: 5D (5), 5 in all");
    has(help, "6 + 5 = 11");
    play(g, s, "9S", CR_SEAT_PUBLIC, log);
    play(g, s, "5D", CR_SEAT_PUBLIC, log);
    play(g, s, "done", CR_SEAT_PUBLIC, log);
    play(g, s, "pass", CR_SEAT_PUBLIC, log);
    has(log, "P2 wins the Seize with 5 (the Spice Commodities offered that may be committed)");
    cr_free(s);
    cr_game_free(g);
}

/* r70 again: P1 offers 2C and P2 9S, no Spice among them: nobody seizes,
 * and the log says why; when everyone passes, it says that instead. */
static void failed_seize_says_why(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_calloc(1, g->state_size);
    static char log[LOG];
    for (int all_pass = 0; all_pass < 2; all_pass++) {
        log[0] = '\0';
        load_fixture(g, s, "r70_public_offers.txt");
        play(g, s, "buy", CR_SEAT_PUBLIC, log);
        play(g, s, "6S", CR_SEAT_PUBLIC, log);
        play(g, s, "done", CR_SEAT_PUBLIC, log);
        if (!all_pass) play(g, s, "2C", CR_SEAT_PUBLIC, log);
        play(g, s, "done", CR_SEAT_PUBLIC, log);
        if (!all_pass) play(g, s, "9S", CR_SEAT_PUBLIC, log);
        play(g, s, "done", CR_SEAT_PUBLIC, log);
        play(g, s, "pass", CR_SEAT_PUBLIC, log);
        if (all_pass)
            has(log, "Nobody seizes: every other player passed");
        else
            has(log, "Nobody seizes: of the 2 cards offered, none is a Spice Commodity that may "
                     "be committed, so none counts");
    }
    cr_free(s);
    cr_game_free(g);
}

/* r42: Wyvern Eyes on P3's Visit.  The log names the cause and, for each
 * seat holding eggs, its eggs, its Shields and what it loses: P2 two eggs,
 * no Shield, 2 of its 3 other cards; P3 one egg under one Shield, nothing;
 * P0 one egg, its 1 other card.  Every seat reads the same lines. */
static void siege_says_what_and_why(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_calloc(1, g->state_size);
    static char log[LOG];
    for (int seat = 0; seat < 4; seat++) {
        log[0] = '\0';
        load_fixture(g, s, "r42_siege_details.txt");
        play(g, s, "visit BM1", seat, log);
        play(g, s, "roll 1 1", seat, log);
        has(log, "Dragon Siege! (Wyvern Eyes were rolled)");
        has(log, "P2 holds 2 Dragon Eggs and has 0 Shields (Iron Emblems in the Front): too few "
                 "Shields, so the Eggs go to the Nest and 2 of the 3 other cards (half, rounded "
                 "up) go to the Discard Pile");
        has(log, "P3 holds 1 Dragon Egg and has 1 Shield (Iron Emblems in the Front): enough "
                 "Shields, the Siege takes nothing");
        has(log, "P0 holds 1 Dragon Egg and has 0 Shields (Iron Emblems in the Front): too few "
                 "Shields, so the Egg goes to the Nest and 1 of the 1 other card");
        assert_null(strstr(log, "P1 holds")); /* no egg, no line */
    }
    cr_free(s);
    cr_game_free(g);
}

/* r42 again: P3 visits BM1 (a roll against 7) and rolls (3,3).  The prompt
 * gives the target, that the double fails, and the chance of a re-roll; the
 * log says what each Dabo! was against. */
static void dabo_says_target_and_chance(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_calloc(1, g->state_size);
    static char log[LOG], help[4096];
    char prompt[512], single[64], reroll[64];
    log[0] = '\0';
    load_fixture(g, s, "r42_siege_details.txt");
    /* the Market's help names the Visit roll and what P3 knows of BM1 */
    help_of(g, s, 3, help, sizeof help);
    has(help, "Now a Visit or Callback roll: a roll against 7 succeeds");
    has(help, "BM1 holds ");
    play(g, s, "visit BM1", CR_SEAT_PUBLIC, log);
    play(g, s, "roll 3 3", CR_SEAT_PUBLIC, log);
    g->def->prompt(g, s, prompt, sizeof prompt);
    chances(7, single, reroll, sizeof single);
    has(prompt, "P3: Dabo!");
    has(prompt, "(3,3): against 7 it fails");
    has(prompt, reroll); /* 21 of 34: 61.8% */
    assert_string_equal(reroll, "61.8%");
    help_of(g, s, 3, help, sizeof help);
    has(help, "This is a visit against 7: keeping (3,3) fails.");
    has(help, single);
    play(g, s, "reroll", CR_SEAT_PUBLIC, log);
    has(log, "P3 re-rolls the Dabo! double (3,3): against 7 it fails");
    play(g, s, "roll 4 4", CR_SEAT_PUBLIC, log);
    g->def->prompt(g, s, prompt, sizeof prompt);
    has(prompt, "(4,4): against 7 it succeeds");
    play(g, s, "keep", CR_SEAT_PUBLIC, log);
    has(log, "P3 keeps the Dabo! double (4,4): against 7 it succeeds");
    cr_free(s);
    cr_game_free(g);
}

/* r35: the Prime Counsellor searches BM1.  Menus, objects and the log all
 * call it BM1; the others read the look as private, without the cards. */
static void black_markets_are_bm_everywhere(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_calloc(1, g->state_size);
    static char own[LOG], other[LOG];
    char json[512];
    own[0] = other[0] = '\0';
    load_fixture(g, s, "r35_prime_counsellor.txt");
    play(g, s, "power JH", 0, own);
    play(g, s, "done", 0, own);
    cr_action search;
    assert_int_equal(g->def->str_to_action(g, s, "search BM1", &search), CR_OK);
    g->def->action_to_json(g, s, search, json, sizeof json);
    has(json, "\"label\":\"Search BM1 (3 cards) and take one card\"");
    has(json, "\"objects\":[\"BM1\"]");
    dml_state *s1 = cr_alloc(g->state_size);
    memcpy(s1, s, g->state_size);
    play(g, s, "search BM1", 0, own);
    play(g, s1, "search BM1", 1, other);
    has(own, "P0 looks privately at AD in BM1");
    has(other, "P0: search BM1\n");
    has(other, "P0 looks privately at a card in BM1");
    assert_null(strstr(other, "AD"));
    assert_null(strstr(other, "reveals"));
    play(g, s, "AD", 0, own);
    play(g, s1, "AD", 1, other);
    has(own, "AD moves from BM1 to hand P0");
    has(other, "a card moves from BM1 to hand P0");
    cr_free(s1);
    cr_free(s);
    cr_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seize_offer_help_and_winner),
        cmocka_unit_test(failed_seize_says_why),
        cmocka_unit_test(siege_says_what_and_why),
        cmocka_unit_test(dabo_says_target_and_chance),
        cmocka_unit_test(black_markets_are_bm_everywhere),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
