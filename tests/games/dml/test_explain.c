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
    /* the Declaration's help names what buys the target and P0's commits */
    help_of(g, s, 0, help, sizeof help);
    has(help, "So far: Iron, Value 6.");
    has(help, "Iron is bought with Spice: the others may try to seize it with their Spice "
              "Commodities.");
    has(help, "You hold no Spice Commodity you may commit.");
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
        /* every Hand is shown before the first verdict */
        const char *siege = strstr(log, "Dragon Siege!");
        assert_non_null(siege);
        const char *verdict = strstr(siege, " and has "); /* "P2 holds 2 ... and has 0 Shields" */
        const char *last_reveal = siege;
        for (const char *r = strstr(siege, " reveals "); r; r = strstr(r + 1, " reveals "))
            last_reveal = r;
        assert_true(verdict != NULL && last_reveal < verdict);
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
    has(log, "P3 re-rolls the Dabo! double (3,3) of the roll to visit BM1: against 7 it fails");
    play(g, s, "roll 4 4", CR_SEAT_PUBLIC, log);
    g->def->prompt(g, s, prompt, sizeof prompt);
    has(prompt, "(4,4): against 7 it succeeds");
    play(g, s, "keep", CR_SEAT_PUBLIC, log);
    has(log, "P3 keeps the Dabo! double (4,4) of the roll to visit BM1: against 7 it succeeds");
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
    has(own, "AD from BM1 to P0's Hand");
    has(other, "a card from BM1 to P0's Hand");
    cr_free(s1);
    cr_free(s);
    cr_game_free(g);
}

/* The position of fixture `name` with each pairs[i][0] replaced by
 * pairs[i][1] in turn (each must occur): a variant of a rule fixture. */
static void load_fixture_edits(const cr_game *g, dml_state *s, const char *name,
                               const char *const (*pairs)[2], int n_pairs)
{
    static char edited[1 << 16];
    char path[512], err[512];
    size_t len;
    snprintf(path, sizeof path, "%s/dml/%s", CR_TEST_FIXTURES_DIR, name);
    const char *text = dml_test_read(path, &len);
    const char *start = strstr(text, "\nposition\n"),
               *end = start ? strstr(start, "\nend\n") : NULL;
    if (start == NULL || end == NULL) fail_msg("%s: no position ... end", name);
    start += strlen("\nposition\n");
    size_t n = (size_t)(end - start);
    assert_true(n < sizeof edited / 2);
    memcpy(edited, start, n);
    edited[n] = '\0';
    for (int i = 0; i < n_pairs; i++) {
        char *at = strstr(edited, pairs[i][0]);
        if (at == NULL) fail_msg("%s: no '%s'", name, pairs[i][0]);
        size_t a = strlen(pairs[i][0]), b = strlen(pairs[i][1]);
        assert_true(strlen(edited) - a + b < sizeof edited);
        memmove(at + b, at + a, strlen(at + a) + 1);
        memcpy(at, pairs[i][1], b);
    }
    if (g->def->deserialize(g, s, edited, strlen(edited), err, sizeof err) != CR_OK)
        fail_msg("%s (edited): %s", name, err);
}

/* load_fixture_edits with two edits. */
static void load_fixture_edited(const cr_game *g, dml_state *s, const char *name, const char *from,
                                const char *to, const char *from2, const char *to2)
{
    const char *const pairs[2][2] = {{from, to}, {from2, to2}};
    load_fixture_edits(g, s, name, pairs, 2);
}

/* r42 with every Dragon Egg moved from the Hands to the Nest: the Siege
 * shows every Hand first, then says it takes nothing because nobody holds an
 * egg (it ended after the reveals without a word, found by review); the
 * opening line says what a loser loses. */
static void siege_without_eggs_says_so(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_calloc(1, g->state_size);
    static char log[LOG];
    log[0] = '\0';
    const char *const edits[][2] = {
        {"\"nest\": []", "\"nest\": [\"AD\", \"AS\", \"AH\", \"AC\"]"},
        {"\"hand\": [\"AD\", \"4H\"]", "\"hand\": [\"4H\"]"},
        {"\"hand\": [\"5C\", \"6C\", \"7C\", \"AS\", \"AH\"]",
         "\"hand\": [\"5C\", \"6C\", \"7C\"]"},
        {"\"hand\": [\"2D\", \"3D\", \"AC\"]", "\"hand\": [\"2D\", \"3D\"]"},
    };
    load_fixture_edits(g, s, "r42_siege_details.txt", edits, 4);
    play(g, s, "visit BM1", CR_SEAT_PUBLIC, log);
    play(g, s, "roll 1 1", CR_SEAT_PUBLIC, log);
    has(log, "Dragon Siege! (Wyvern Eyes were rolled): every Hand is shown; whoever holds more "
             "Dragon Eggs than Shields loses the Eggs to the Nest and half the other cards of the "
             "Hand, rounded up, to the Discard Pile");
    has(log, "Nobody holds a Dragon Egg: the Siege takes nothing");
    cr_free(s);
    cr_game_free(g);
}

/* The JSON of the last event of `kind` applying `text` produces, as the
 * public sees it. */
static void play_json(const cr_game *g, dml_state *s, const char *text, int kind, char *json,
                      size_t cap)
{
    static cr_event buf[EVENTS];
    cr_events ev = {.buf = buf, .cap = EVENTS};
    cr_ctx cx = {.ev = &ev};
    char err[256];
    json[0] = '\0';
    if (cr_apply_text(g, s, text, &cx, err, sizeof err) != CR_OK) fail_msg("'%s': %s", text, err);
    for (int i = 0; i < ev.len; i++)
        if (buf[i].kind == kind) g->def->event_to_json(g, &buf[i], CR_SEAT_PUBLIC, json, cap);
    if (json[0] == '\0') fail_msg("'%s' wrote no event of kind %d", text, kind);
}

/* r70: P0's buying roll names the Declaration's suit, the dice total and
 * the target, and who gets the targets: P0 when it succeeds; P2, who won
 * the Seize, when it fails.  The JSON carries the same cause. */
static void buying_roll_says_cause(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_calloc(1, g->state_size);
    static char log[LOG];
    char json[1024];
    for (int seized = 0; seized < 2; seized++) {
        log[0] = '\0';
        load_fixture(g, s, "r70_public_offers.txt");
        play(g, s, "buy", CR_SEAT_PUBLIC, log);
        play(g, s, "6S", CR_SEAT_PUBLIC, log);
        play(g, s, "done", CR_SEAT_PUBLIC, log);
        play(g, s, "done", CR_SEAT_PUBLIC, log); /* P1 passes */
        if (seized) play(g, s, "5D", CR_SEAT_PUBLIC, log);
        play(g, s, "done", CR_SEAT_PUBLIC, log); /* P2 passes or offers 5D */
        play(g, s, "done", CR_SEAT_PUBLIC, log); /* P3 passes */
        if (seized) {
            /* P0 holds no Spice or Slaves: its exchange pass is forced */
            play_json(g, s, "roll 2 3", DML_E_CHECK, json, sizeof json);
            has(json, "\"purpose\":\"buy\",\"suit\":\"S\",\"seizer\":\"P2\"");
            has(json, "\"dice\":[2,3],\"total\":5");
            has(json, "P0's buying roll for Iron (5 against 11) fails: P2, who won the Seize, "
                      "takes the targets");
        } else {
            play(g, s, "roll 3 4", CR_SEAT_PUBLIC, log);
            has(log, "P1 passes the Seize\n"); /* a pass by choice says no more */
            has(log, "P0's buying roll for Iron (7 against 6) succeeds: P0 takes the targets; "
                     "every committed card goes to its Stock\n");
        }
    }
    cr_free(s);
    cr_game_free(g);
}

/* r42: P3's roll to visit BM1 says so, with its total and what it brings:
 * cards from BM1 on a success, nothing on a failure (no I See Fire), and a
 * Dabo! double names the roll it belongs to. */
static void visit_roll_says_cause(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_calloc(1, g->state_size);
    static char log[LOG];
    char json[1024];
    log[0] = '\0';
    load_fixture(g, s, "r42_siege_details.txt");
    play(g, s, "visit BM1", CR_SEAT_PUBLIC, log);
    play(g, s, "roll 4 4", CR_SEAT_PUBLIC, log);
    play(g, s, "keep", CR_SEAT_PUBLIC, log);
    has(log, "P3 keeps the Dabo! double (4,4) of the roll to visit BM1: against 7 it succeeds");
    has(log, "P3's roll to visit BM1 (8 against 7) succeeds: P3 takes 1 card at random from it, "
             "and 1 more per Permission");
    load_fixture(g, s, "r42_siege_details.txt");
    play(g, s, "visit BM1", CR_SEAT_PUBLIC, log);
    play_json(g, s, "roll 2 3", DML_E_CHECK, json, sizeof json);
    has(json, "\"purpose\":\"visit\",\"label\":1,\"hustle\":false");
    has(json, "P3's roll to visit BM1 (5 against 7) fails: P3 takes nothing\"");
    cr_free(s);
    cr_game_free(g);
}

/* A Seize pass the engine makes for a seat says why (R78): s07's P2 is
 * affected by FCCC Regulations; r70 with P3's Hand emptied has nothing to
 * offer.  The JSON says "forced". */
static void forced_seize_pass_says_why(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_calloc(1, g->state_size);
    static char log[LOG];
    char json[1024];
    log[0] = '\0';
    load_fixture(g, s, "s07_fccc_cap_filter.txt");
    play(g, s, "buy", CR_SEAT_PUBLIC, log);
    play(g, s, "8C", CR_SEAT_PUBLIC, log);
    play(g, s, "2S", CR_SEAT_PUBLIC, log);
    play(g, s, "done", CR_SEAT_PUBLIC, log);
    play(g, s, "4S", CR_SEAT_PUBLIC, log);
    play(g, s, "8S", CR_SEAT_PUBLIC, log);
    play(g, s, "done", CR_SEAT_PUBLIC, log);
    has(log, "P2 passes the Seize (FCCC Regulations: an affected player may not make a Seize "
             "offer)");
    log[0] = '\0';
    load_fixture_edited(g, s, "r70_public_offers.txt", "\"hand\": [\"2H\", \"3H\"]", "\"hand\": []",
                        "\"4H\", \"5H\"", "\"2H\", \"3H\", \"4H\", \"5H\"");
    play(g, s, "buy", CR_SEAT_PUBLIC, log);
    play(g, s, "6S", CR_SEAT_PUBLIC, log);
    play(g, s, "done", CR_SEAT_PUBLIC, log);
    play(g, s, "done", CR_SEAT_PUBLIC, log);                 /* P1 passes */
    play_json(g, s, "done", DML_E_OFFER, json, sizeof json); /* P2 passes; P3 must */
    has(json, "\"seat\":\"P3\",\"count\":0,\"forced\":\"empty hand\"");
    has(json, "P3 passes the Seize (no cards in Hand, so nothing to offer)");
    cr_free(s);
    cr_game_free(g);
}

/* The Thief's and a Callback's check name their card and what the result
 * does to it, and the Woot!/Wyvern Eyes follow-up (r22 fixtures). */
static void thief_and_callback_rolls_say_cause(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_calloc(1, g->state_size);
    static char log[LOG];
    log[0] = '\0';
    load_fixture(g, s, "r22_thief_woot.txt");
    play(g, s, "power X1", CR_SEAT_PUBLIC, log);
    play(g, s, "done", CR_SEAT_PUBLIC, log);
    play(g, s, "P1", CR_SEAT_PUBLIC, log);
    play(g, s, "roll 6 6", CR_SEAT_PUBLIC, log);
    has(log, "P0's Thief roll for X1 (Woot!, a double six, against 7) succeeds whatever the "
             "target: X1 is shuffled into the Deck; Woot! brings the Foreign Merchant");
    log[0] = '\0';
    load_fixture(g, s, "r22_callback_wyvern.txt");
    play(g, s, "callback TS", CR_SEAT_PUBLIC, log);
    play(g, s, "roll 1 1", CR_SEAT_PUBLIC, log);
    has(log, "P0's Callback roll for TS (Wyvern Eyes, a double one, against 7) fails whatever "
             "the target: TS stays in the Front; Wyvern Eyes bring a Dragon Siege");
    cr_free(s);
    cr_game_free(g);
}

/* The other outcome lines say why: who became Dealer and by what roll
 * (r46), what brought the Foreign Merchant and what it gathers (r22:
 * Woot!, r23: a Joker drawn), why a Black Market ceased to exist (r41) and
 * how the game was won (r24: Monopoly). */
static void other_outcomes_say_cause(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_calloc(1, g->state_size);
    static char log[LOG];
    char json[1024];
    log[0] = '\0';
    load_fixture(g, s, "r46_rolloff_woot_stops.txt");
    play(g, s, "roll 2 3", CR_SEAT_PUBLIC, log);
    play(g, s, "roll 6 6", CR_SEAT_PUBLIC, log);
    has(log, "P1 is the Dealer (Woot! in the roll-off wins at once)");
    load_fixture(g, s, "r46_rolloff_woot_stops.txt");
    play(g, s, "roll 2 3", CR_SEAT_PUBLIC, log);
    play(g, s, "roll 4 5", CR_SEAT_PUBLIC, log);
    play(g, s, "roll 1 2", CR_SEAT_PUBLIC, log);
    play_json(g, s, "roll 3 4", DML_E_SETUP, json, sizeof json);
    has(json, "\"seat\":\"P1\",\"total\":9,\"woot\":false");
    has(json, "P1 is the Dealer (the best roll-off total, 9)");

    log[0] = '\0';
    load_fixture(g, s, "r22_thief_woot.txt");
    play(g, s, "power X1", CR_SEAT_PUBLIC, log);
    play(g, s, "done", CR_SEAT_PUBLIC, log);
    play(g, s, "P1", CR_SEAT_PUBLIC, log);
    play(g, s, "roll 6 6", CR_SEAT_PUBLIC, log);
    has(log, "The Foreign Merchant arrives (Woot! was rolled): the Discard Pile and one Dragon "
             "Egg from the Nest, if any, form a new Black Market");
    load_fixture(g, s, "r23_restock_joker.txt");
    play(g, s, "draw 5S", CR_SEAT_PUBLIC, log);
    play(g, s, "draw X2", CR_SEAT_PUBLIC, log);
    has(log, "The Foreign Merchant arrives (X2, a Joker, was drawn): X2, the Discard Pile and "
             "one Dragon Egg from the Nest, if any, form a new Black Market");

    load_fixture(g, s, "r41_visit_empties_market.txt");
    play(g, s, "visit BM1", CR_SEAT_PUBLIC, log);
    play(g, s, "roll 4 5", CR_SEAT_PUBLIC, log);
    play(g, s, "pick 6C", CR_SEAT_PUBLIC, log);
    has(log, "Black Market BM1 ceases to exist: its last card left it");

    load_fixture(g, s, "r24_monopoly.txt");
    play(g, s, "buy", CR_SEAT_PUBLIC, log);
    play(g, s, "9S", CR_SEAT_PUBLIC, log);
    play(g, s, "done", CR_SEAT_PUBLIC, log);
    play(g, s, "roll 6 6", CR_SEAT_PUBLIC, log);
    has(log, "Game over: P0 wins (Monopoly: P0 holds the 2 to 9 of one suit and wins at once)");
    cr_free(s);
    cr_game_free(g);
}

/* r45: the deal and the Setup Restock in the guide's words.  P0 reads its
 * own Merchant King and 2 and 3 by name, the others' as hidden, with no
 * word of the engine's dealing pool; each movement has no verb that agrees
 * with the card, so the summaries' merge stays grammatical ("2H, 3D dealt
 * to P0's Hand"). */
static void moves_in_guide_words(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_calloc(1, g->state_size);
    static char log[LOG];
    log[0] = '\0';
    load_fixture(g, s, "r45_setup_deal_and_restock.txt");
    const char *script[] = {"roll 2 3", "roll 2 4", "roll 6 5", "roll 1 3", "deal KH", "deal KS",
                            "deal KD",  "deal 2S",  "deal 3C",  "deal 2C",  "deal 3S", "deal 2H",
                            "deal 3D",  "draw 4S",  "draw X1",  "egg AC",   "draw QS"};
    for (size_t i = 0; i < sizeof script / sizeof script[0]; i++) play(g, s, script[i], 0, log);
    has(log, "KD dealt to P0 as Merchant King\n");
    has(log, "a Merchant King dealt to P1 (face down)\n");
    has(log, "2H dealt to P0's Hand\n");
    has(log, "3D dealt to P0's Hand\n");
    has(log, "a card dealt to P2's Hand\n");
    has(log, "4S from the Deck to the Iron Stock\n");
    has(log, "X1 from the Deck to BM1\n");
    has(log, "AC from the Nest to BM1\n");
    has(log, "QS from the Deck to the Discard Pile\n");
    assert_null(strstr(log, "pool"));
    assert_null(strstr(log, "moves"));
    assert_null(strstr(log, "KH")); /* P2's King stays hidden from P0 */
    cr_free(s);
    cr_game_free(g);
}

/* Decisions that said only their notation say what they do: the Thief's
 * mode and player (r39), a Power as it resolves, in the help's words
 * (r39, r35), the Value after each commit of the exchange and the pass
 * that ends it (r17), Do Nothing and Substitute (r57), and why an Event
 * affects the seats it does (r10: Hands of 5 or more). */
static void decisions_say_what_they_do(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_calloc(1, g->state_size);
    static char log[LOG];
    log[0] = '\0';
    load_fixture(g, s, "r39_thief_take.txt");
    play(g, s, "power X1", 1, log);
    play(g, s, "done", 1, log);
    has(log, "X1 (played by P0) resolves as Power \xe2\x80\x94 Thief: give a card of P0's Hand to "
             "another player or take a random card from one; then roll against 7 to keep the "
             "Joker in play\n");
    play(g, s, "take", 1, log);
    has(log, "P0: take (the Thief: P0 takes a random card from another player's Hand)\n");
    play(g, s, "P2", 1, log);
    has(log, "P0: P2 (the Thief: P0 takes a random card from P2's Hand)\n");

    log[0] = '\0';
    load_fixture(g, s, "r35_prime_counsellor.txt");
    play(g, s, "power JH", CR_SEAT_PUBLIC, log);
    play(g, s, "done", CR_SEAT_PUBLIC, log);
    has(log, "JH (played by P0) resolves as Power \xe2\x80\x94 Prime Counsellor: look at a Black "
             "Market privately and take one of its cards\n");

    log[0] = '\0';
    load_fixture(g, s, "r17_exchange_order.txt");
    const char *xchg[] = {"buy", "9S", "done", "5D", "done", "2D", "4D", "done", "7D", "done"};
    for (size_t i = 0; i < sizeof xchg / sizeof xchg[0]; i++)
        play(g, s, xchg[i], CR_SEAT_PUBLIC, log);
    has(log, "P0 commits Primary cards worth 6 (lowering D): D 3, P 5, Value 8\n");
    has(log, "P1 commits Primary cards worth 7 (raising P): D 3, P 12, Value 15\n");
    play(g, s, "pass", CR_SEAT_PUBLIC, log);
    has(log, "P0: done (P0 commits nothing more): the exchange ends, the buying roll follows\n");

    log[0] = '\0';
    load_fixture(g, s, "r57_substitute.txt");
    play(g, s, "substitute", CR_SEAT_PUBLIC, log);
    play(g, s, "nothing", CR_SEAT_PUBLIC, log);
    has(log, "P0: substitute (trades an Action for a Minor Action)\n");
    has(log, "P0: nothing (Do Nothing: spends a Minor Action and nothing else happens)\n");

    log[0] = '\0';
    load_fixture(g, s, "r10_affected_boundary.txt");
    play(g, s, "draw 5S", CR_SEAT_PUBLIC, log);
    has(log, "Event 5S: FCCC Regulations 5 (affects P0, P2: a Hand of 5 or more cards at the "
             "Event Phase)\n");
    cr_free(s);
    cr_game_free(g);
}

/* r49 at its last Power Phase: everyone passes, the Event Phase finds the
 * Deck empty and the Victory Point sequence says what makes each total,
 * suit by suit (11.2), as computed by hand from the fixture's position:
 * P0 Iron King, TS 4S 5S in Hand: 19 doubled, +2 per other Iron in Hand;
 * P1 Wood King, TC in the Front, 4C 5C 9H; P2 Slaves King (no Slaves), 6S
 * 4D and TD in the Front; P3 Spice King, 7D and two Dragon Eggs. */
static void vp_says_what_makes_it(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_calloc(1, g->state_size);
    static char log[LOG];
    char json[1024];
    log[0] = '\0';
    load_fixture_edited(g, s, "r49_scoring_details.txt", "\"phase\": \"event\"",
                        "\"phase\": \"power\"", "\"round\": 9", "\"round\": 9");
    assert_false(s->over);
    for (int i = 0; i < 8 && !s->over; i++) play(g, s, "done", CR_SEAT_PUBLIC, log);
    assert_true(s->over);
    has(log, "P0: Iron 4+5+10 = 19, doubled for the Merchant King KS = 38, Guild bonus (TS held: 2 "
             "per other Iron Commodity in Hand) +4 = 42\nP0 scores 42 VP\n");
    has(log, "P1: Wood 4+5+10 = 19, doubled for the Merchant King KC = 38, Guild bonus (TC held: 2 "
             "per other Wood Commodity in Hand) +4 = 42\nP1: Slaves 9 = 9\nP1 scores 51 VP\n");
    has(log, "P2: Iron 6 = 6\nP2: Spice 4+10 = 14, Guild bonus (TD held: 2 per other Spice "
             "Commodity in Hand) +2 = 16\nP2 scores 22 VP\n");
    has(log, "P3: Spice 7 = 7, doubled for the Merchant King KD = 14\nP3 scores 54 VP: 14 from "
             "the suits, +40 for 2 Dragon Eggs\n");
    /* the breakdown is the one dml_vp totals */
    static const int want[4] = {42, 51, 22, 54};
    for (int p = 0; p < 4; p++) {
        dml_vp_parts v;
        assert_int_equal(dml_vp_breakdown(s, p, &v), dml_vp(s, p));
        assert_int_equal(v.total, want[p]);
    }
    /* the JSON carries the same parts */
    load_fixture_edited(g, s, "r49_scoring_details.txt", "\"phase\": \"event\"",
                        "\"phase\": \"power\"", "\"round\": 9", "\"round\": 9");
    play_json(g, s, "done", DML_E_VP_SUIT, json, sizeof json);
    has(json, "\"seat\":\"P3\",\"suit\":\"D\",\"cards\":[\"7D\"],\"sum\":7,\"doubled\":true,"
              "\"king\":\"KD\",\"guild\":0,\"subtotal\":14");
    load_fixture_edited(g, s, "r49_scoring_details.txt", "\"phase\": \"event\"",
                        "\"phase\": \"power\"", "\"round\": 9", "\"round\": 9");
    play_json(g, s, "done", DML_E_VP, json, sizeof json);
    has(json, "\"seat\":\"P3\",\"vp\":54,\"eggs\":2");
    cr_free(s);
    cr_game_free(g);
}

/* r70 with a Jack of Spice in P1's Hand: the Seize help says the Jack is no
 * Commodity and counts 0, and does not blame the Event (JC filters nothing):
 * it said "The Event forbids JD" (found by review). */
static void seize_help_non_commodity(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_calloc(1, g->state_size);
    static char log[LOG], help[4096];
    log[0] = '\0';
    load_fixture_edited(g, s, "r70_public_offers.txt", "\"hand\": [\"2C\", \"3D\"]",
                        "\"hand\": [\"2C\", \"3D\", \"JD\"]", "\"TD\", \"JD\", \"QD\"",
                        "\"TD\", \"QD\"");
    play(g, s, "buy", CR_SEAT_PUBLIC, log);
    play(g, s, "6S", CR_SEAT_PUBLIC, log);
    play(g, s, "done", CR_SEAT_PUBLIC, log);
    help_of(g, s, 1, help, sizeof help);
    has(help, "Your cards that would count: 3D (3), 3 in all");
    has(help, "JD is no Commodity (only the 2 to 10 are): it would count 0.");
    assert_null(strstr(help, "forbids"));
    cr_free(s);
    cr_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seize_offer_help_and_winner),
        cmocka_unit_test(seize_help_non_commodity),
        cmocka_unit_test(siege_without_eggs_says_so),
        cmocka_unit_test(failed_seize_says_why),
        cmocka_unit_test(siege_says_what_and_why),
        cmocka_unit_test(dabo_says_target_and_chance),
        cmocka_unit_test(black_markets_are_bm_everywhere),
        cmocka_unit_test(buying_roll_says_cause),
        cmocka_unit_test(visit_roll_says_cause),
        cmocka_unit_test(forced_seize_pass_says_why),
        cmocka_unit_test(thief_and_callback_rolls_say_cause),
        cmocka_unit_test(other_outcomes_say_cause),
        cmocka_unit_test(moves_in_guide_words),
        cmocka_unit_test(decisions_say_what_they_do),
        cmocka_unit_test(vp_says_what_makes_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
