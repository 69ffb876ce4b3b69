/* test_notation.c — DML card codes and the action/event notation
 * (src/games/dml/notation.c, docs/notation.md), in both editions' words.
 *
 * Needs only notation.c: the functions tested take the game pointer but do
 * not use it, so the tests pass NULL and hand-built states. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "games/dml/dml_internal.h"

/* A state where every Black Market slot k is live with label 100 + k. */
static void all_markets(dml_state *st)
{
    memset(st, 0, sizeof *st);
    st->n = 4;
    st->obs_seat = 0xff;
    st->discard_top = -1;
    st->resolving = st->resolving_seat = -1;
    for (int k = 0; k < DML_MAX_BM; k++) {
        st->bm_label[k] = (uint16_t)(100 + k);
        st->zone[DML_Z_BM + k] = dml_bit(k);
        st->zone_count[DML_Z_BM + k] = 1;
    }
}

static void test_card_codes_round_trip(void **unused)
{
    (void)unused;
    for (int c = 0; c < DML_NCARDS; c++) {
        const char *code = dml_card_code(c);
        assert_int_equal(strlen(code), 2);
        assert_int_equal(dml_parse_card(code), c);
        char lower[3] = {(char)(code[0] | 0x20), (char)(code[1] | 0x20), 0};
        assert_int_equal(dml_parse_card(lower), c);
        assert_non_null(dml_card_name(c));
    }
    assert_int_equal(dml_parse_card("10S"), dml_card(DML_SUIT_S, DML_T));
    assert_string_equal(dml_card_code(dml_card(DML_SUIT_S, 7)), "7S");
    assert_string_equal(dml_card_code(DML_X1), "X1");
    assert_string_equal(dml_card_code(DML_X2), "X2");
}

static void test_card_code_errors(void **unused)
{
    (void)unused;
    static const char *const bad[] = {"",  "7",  "7SS", "1S",  "7Z",  "ZS", "X3",
                                      "X", "X0", " 7S", "7S ", "11S", NULL};
    for (int i = 0; bad[i]; i++) assert_int_equal(dml_parse_card(bad[i]), -1);
    assert_int_equal(dml_parse_card(NULL), -1);
}

static void test_card_names(void **unused)
{
    (void)unused;
    assert_string_equal(dml_card_name(dml_card(DML_SUIT_S, 7)), "Iron 7");
    assert_string_equal(dml_card_name(dml_card(DML_SUIT_S, DML_T)), "Iron Guild");
    assert_string_equal(dml_card_name(dml_card(DML_SUIT_H, DML_T)), "Slave Guild");
    assert_string_equal(dml_card_name(dml_card(DML_SUIT_C, DML_Q)),
                        "Harlot Queen of Port Sm\xc3\xa5rgon");
    assert_string_equal(dml_card_name(dml_card(DML_SUIT_S, DML_A)), "Black Egg");
    assert_string_equal(dml_card_name(dml_card(DML_SUIT_D, DML_K)), "Spice King");
    assert_string_equal(dml_card_name(DML_X2), "Joker");
    assert_string_equal(dml_suit_name(DML_SUIT_H), "Slaves");
}

static void test_event_types(void **unused)
{
    (void)unused;
    assert_int_equal(dml_event_type_of(dml_card(DML_SUIT_S, 5)), DML_EV_FCCC);
    assert_int_equal(dml_event_type_of(dml_card(DML_SUIT_C, 5)), DML_EV_HATED);
    assert_int_equal(dml_event_type_of(dml_card(DML_SUIT_H, 9)), DML_EV_CUSTOMS);
    assert_int_equal(dml_event_type_of(dml_card(DML_SUIT_D, 4)), DML_EV_UNION);
    assert_int_equal(dml_event_type_of(dml_card(DML_SUIT_D, DML_J)), DML_EV_CARNIVAL);
    assert_int_equal(dml_event_type_of(DML_X1), DML_EV_CARNIVAL);
    assert_int_equal(dml_event_type_of(dml_card(DML_SUIT_C, DML_T)), DML_EV_OPENING);
    assert_int_equal(dml_event_type_of(dml_card(DML_SUIT_C, DML_K)), DML_EV_NONE);
    assert_int_equal(dml_event_type_of(dml_card(DML_SUIT_C, DML_A)), DML_EV_NONE);
    assert_string_equal(dml_event_type_name(DML_EV_HATED), "The Hated People");
    assert_string_equal(dml_event_type_name(DML_EV_OPENING), "Grand Opening");
}

static void test_masks(void **unused)
{
    (void)unused;
    uint64_t all = 0;
    for (int r = 0; r <= 14; r++) {
        if (r == 1) {
            assert_int_equal(dml_rank_mask[r], 0);
            continue;
        }
        for (int c = 0; c < DML_NCARDS; c++)
            assert_int_equal(!!(dml_rank_mask[r] & dml_bit(c)), dml_rank(c) == r);
        all |= dml_rank_mask[r];
    }
    assert_true(all == DML_ALL_CARDS);
    for (int c = 0; c < DML_NCARDS; c++)
        assert_int_equal(!!(dml_commodity_mask() & dml_bit(c)), dml_is_commodity(c));
}

static void test_zone_names(void **unused)
{
    (void)unused;
    char buf[32];
    assert_string_equal(dml_zone_name(DML_Z_DECK, buf, sizeof buf), "deck");
    assert_string_equal(dml_zone_name(DML_Z_XKING, buf, sizeof buf), "exile (face down)");
    assert_string_equal(dml_zone_name(DML_Z_TARGET, buf, sizeof buf), "buying area");
    assert_string_equal(dml_zone_name(DML_Z_HAND + 1, buf, sizeof buf), "hand P1");
    assert_string_equal(dml_zone_name(DML_Z_FRONT + 3, buf, sizeof buf), "front P3");
    assert_string_equal(dml_zone_name(DML_Z_KING + 0, buf, sizeof buf), "king P0");
    assert_string_equal(dml_zone_name(DML_Z_OFFER + 2, buf, sizeof buf), "offer P2");
    assert_string_equal(dml_zone_name(DML_Z_BM + 7, buf, sizeof buf), "black market #7");
}

/* Every action id prints to text that parses back to the same id. */
static void round_trip_all(const dml_state *st)
{
    char text[64];
    for (cr_action a = 0; a < DML_NUM_ACTIONS; a++) {
        size_t len = dml_action_to_str(NULL, st, a, text, sizeof text);
        assert_true(len > 0 && len < sizeof text);
        cr_action back = -1;
        assert_int_equal(dml_str_to_action(NULL, st, text, &back), CR_OK);
        assert_int_equal(back, a);
    }
}

static void test_actions_round_trip(void **unused)
{
    (void)unused;
    dml_state st;
    all_markets(&st);
    round_trip_all(&st);
    st.sel_n = 2; /* "done" instead of "pass" */
    round_trip_all(&st);
    st.need = DML_NEED_CHANCE;
    static const int kinds[] = {DML_C_ROLL, DML_C_DECK, DML_C_POOL,
                                DML_C_HAND, DML_C_BM,   DML_C_NEST};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        st.kind = (uint8_t)kinds[i];
        round_trip_all(&st);
    }
}

static void expect(const dml_state *st, cr_action a, const char *text)
{
    char buf[64];
    dml_action_to_str(NULL, st, a, buf, sizeof buf);
    assert_string_equal(buf, text);
}

static void test_action_texts(void **unused)
{
    (void)unused;
    dml_state st;
    all_markets(&st);
    expect(&st, DML_A_CARD + dml_card(DML_SUIT_S, 7), "7S");
    expect(&st, DML_A_POWER + dml_card(DML_SUIT_S, DML_Q), "power QS");
    expect(&st, DML_A_EMBLEM + dml_card(DML_SUIT_D, DML_T), "emblem TD");
    expect(&st, DML_A_CALLBACK + dml_card(DML_SUIT_S, DML_J), "callback JS");
    expect(&st, DML_A_VISIT + 3, "visit BM103");
    expect(&st, DML_A_BMPICK + 0, "search BM100");
    expect(&st, DML_A_PLAYER + 2, "P2");
    expect(&st, DML_A_STOCK + DML_SUIT_S, "stock S");
    expect(&st, DML_A_DONE, "pass");
    expect(&st, DML_A_ROLL + dml_roll_index(3, 4), "roll 3 4");
    expect(&st, DML_A_ROLL + dml_roll_index(6, 6), "roll 6 6");
    expect(&st, DML_A_DRAW + dml_card(DML_SUIT_S, 7), "draw 7S");
    st.need = DML_NEED_CHANCE;
    st.kind = DML_C_POOL;
    expect(&st, DML_A_DRAW + dml_card(DML_SUIT_S, 2), "deal 2S");
    st.kind = DML_C_BM;
    expect(&st, DML_A_DRAW + dml_card(DML_SUIT_S, 7), "pick 7S");
    st.kind = DML_C_NEST;
    expect(&st, DML_A_DRAW + dml_card(DML_SUIT_S, DML_A), "egg AS");
    st.sel_n = 1;
    expect(&st, DML_A_DONE, "done");
    /* a dead slot has no label: it prints (and parses) by slot */
    st.zone[DML_Z_BM + 5] = 0;
    st.zone_count[DML_Z_BM + 5] = 0;
    expect(&st, DML_A_VISIT + 5, "visit #5");
}

static cr_action parse_ok(const dml_state *st, const char *text)
{
    cr_action a = -1;
    assert_int_equal(dml_str_to_action(NULL, st, text, &a), CR_OK);
    return a;
}

static void test_parse_synonyms(void **unused)
{
    (void)unused;
    dml_state st;
    all_markets(&st);
    assert_int_equal(parse_ok(&st, "  POWER   qs "), DML_A_POWER + dml_card(DML_SUIT_S, DML_Q));
    assert_int_equal(parse_ok(&st, "Roll 4 3"), DML_A_ROLL + dml_roll_index(3, 4));
    assert_int_equal(parse_ok(&st, "roll 4,3"), DML_A_ROLL + dml_roll_index(3, 4));
    assert_int_equal(parse_ok(&st, "stock iron"), DML_A_STOCK + DML_SUIT_S);
    assert_int_equal(parse_ok(&st, "stock Slaves"), DML_A_STOCK + DML_SUIT_H);
    assert_int_equal(parse_ok(&st, "pass"), DML_A_DONE);
    assert_int_equal(parse_ok(&st, "DONE"), DML_A_DONE);
    assert_int_equal(parse_ok(&st, "egg 7s"), DML_A_DRAW + dml_card(DML_SUIT_S, 7));
    assert_int_equal(parse_ok(&st, "deal 7s"), DML_A_DRAW + dml_card(DML_SUIT_S, 7));
    assert_int_equal(parse_ok(&st, "visit bm142"), DML_A_VISIT + 42);
    assert_int_equal(parse_ok(&st, "p3"), DML_A_PLAYER + 3);
    assert_int_equal(parse_ok(&st, "\t7s\n"), DML_A_CARD + dml_card(DML_SUIT_S, 7));
}

static void test_parse_errors(void **unused)
{
    (void)unused;
    dml_state st;
    all_markets(&st);
    static const char *const bad[] = {
        "",
        "   ",
        "7Z",
        "power",
        "power 7Z",
        "power 7S 8S",
        "roll 0 3",
        "roll 3 7",
        "roll 3",
        "roll a b",
        "visit BM99",
        "visit BM0",
        "visit #50",
        "visit",
        "search 3",
        "stock Q",
        "stock",
        "P4",
        "P",
        "draw",
        "draw X3",
        "buy now",
        "hello",
        "a b c d e",
        "callback",
        "emblem emblem",
        "7S 8S",
        "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        NULL,
    };
    for (int i = 0; bad[i]; i++) {
        cr_action a = 12345;
        assert_int_equal(dml_str_to_action(NULL, &st, bad[i], &a), CR_ERR_PARSE);
        assert_int_equal(a, 12345); /* nothing changed */
    }
    cr_action a = 12345;
    assert_int_equal(dml_str_to_action(NULL, &st, NULL, &a), CR_ERR_PARSE);
    /* a label that names no live market */
    st.zone[DML_Z_BM + 3] = 0;
    st.zone_count[DML_Z_BM + 3] = 0;
    assert_int_equal(dml_str_to_action(NULL, &st, "visit BM103", &a), CR_ERR_PARSE);
}

static void test_snprintf_semantics(void **unused)
{
    (void)unused;
    dml_state st;
    all_markets(&st);
    char buf[4] = "zzz";
    size_t len =
        dml_action_to_str(NULL, &st, DML_A_POWER + dml_card(DML_SUIT_S, DML_Q), buf, sizeof buf);
    assert_int_equal(len, strlen("power QS"));
    assert_string_equal(buf, "pow");
    assert_int_equal(dml_action_to_str(NULL, &st, DML_A_SUBSTITUTE, NULL, 0), strlen("substitute"));
}

static void test_event_visibility(void **unused)
{
    (void)unused;
    cr_event e = {.kind = DML_E_MOVE,
                  .seat = 1,
                  .other = -1,
                  .card = (int16_t)dml_card(DML_SUIT_S, 7),
                  .from = DML_Z_HAND + 1,
                  .to = DML_Z_BM + 2,
                  .seen_by = 1u << 1};
    char buf[256];
    dml_event_to_str(NULL, &e, 1, buf, sizeof buf);
    assert_string_equal(buf, "7S from P1's Hand to a Black Market");
    dml_event_to_str(NULL, &e, CR_SEAT_OMNISCIENT, buf, sizeof buf);
    assert_string_equal(buf, "7S from P1's Hand to a Black Market");
    dml_event_to_str(NULL, &e, 0, buf, sizeof buf);
    assert_string_equal(buf, "a card from P1's Hand to a Black Market");
    dml_event_to_str(NULL, &e, CR_SEAT_PUBLIC, buf, sizeof buf);
    assert_string_equal(buf, "a card from P1's Hand to a Black Market");
    e.seen_by = 0xf; /* every seat of four sees it: public */
    dml_event_to_str(NULL, &e, CR_SEAT_PUBLIC, buf, sizeof buf);
    assert_string_equal(buf, "7S from P1's Hand to a Black Market");
    dml_event_to_str(NULL, &e, -1, buf, sizeof buf); /* not a view: nothing shown */
    assert_string_equal(buf, "a card from P1's Hand to a Black Market");
    e.seen_by = 1u << 1;
    dml_event_to_json(NULL, &e, 0, buf, sizeof buf);
    assert_non_null(strstr(buf, "\"card\":null"));
    assert_non_null(strstr(buf, "\"from\":\"hand P1\""));
    assert_null(strstr(buf, "7S"));
    dml_event_to_json(NULL, &e, 1, buf, sizeof buf);
    assert_non_null(strstr(buf, "\"card\":\"7S\""));
    assert_int_equal(dml_event_to_json(NULL, &e, 1, NULL, 0), strlen(buf));
}

static void test_prompts(void **unused)
{
    (void)unused;
    dml_state st;
    all_markets(&st);
    char buf[256];
    st.need = DML_NEED_DECISION;
    st.actor = 1;
    st.kind = DML_D_MARKET;
    st.actions = 2;
    st.minors = 1;
    dml_prompt(NULL, &st, buf, sizeof buf);
    assert_string_equal(buf, "P1: Market Phase \xe2\x80\x94 2 Actions, 1 Minor Action left");
    st.actor = 0;
    st.kind = DML_D_DABO;
    st.die[0] = st.die[1] = 3;
    dml_prompt(NULL, &st, buf, sizeof buf);
    assert_string_equal(buf,
                        "P0: Dabo! \xe2\x80\x94 re-roll or keep (3,3) (Dealer roll-off: total 6)");
    st.actor = 2;
    st.kind = DML_D_OFFER;
    st.buy_suit = DML_SUIT_S;
    st.D = 7;
    dml_prompt(NULL, &st, buf, sizeof buf);
    assert_string_equal(buf, "P2: Seize offer on the Declaration (Iron, value 7) \xe2\x80\x94 "
                             "place cards face-down or pass");
    st.sel[0] = (uint8_t)dml_card(DML_SUIT_D, 3);
    st.sel_n = 1;
    dml_prompt(NULL, &st, buf, sizeof buf);
    assert_non_null(strstr(buf, "so far: 3D"));
}

/* DML-2015's words (15.1, 15.6, 15.8, 15.9): names by edition, the log of
 * its decisions and events, the prompts of its decisions.  A table of the
 * variant is a cr_game with its variant index and options set (the words
 * read nothing else of it). */
static void test_2015_names(void **unused)
{
    (void)unused;
    int jc = dml_card(DML_SUIT_C, DML_J), jh = dml_card(DML_SUIT_H, DML_J);
    int qc = dml_card(DML_SUIT_C, DML_Q), qh = dml_card(DML_SUIT_H, DML_Q);
    int td = dml_card(DML_SUIT_D, DML_T), seven = dml_card(DML_SUIT_S, 7);
    assert_string_equal(dml_card_name_ed(DML_ED_2016, jc), "Vice Minister of Reclamations");
    assert_string_equal(dml_card_name_ed(DML_ED_2015, jc), "Rogue Jester");
    assert_string_equal(dml_card_name_ed(DML_ED_2015_06, jc), "Greed Vizier");
    assert_string_equal(dml_card_name_ed(DML_ED_2015, jh), "Supreme Confisfactor");
    assert_string_equal(dml_card_name_ed(DML_ED_2015_06, jh), "Troublesome Blabbermouth");
    assert_string_equal(dml_card_name_ed(DML_ED_2015, qc), "Harlot Queen of Smorgon");
    assert_string_equal(dml_card_name_ed(DML_ED_2015_06, qh), "Mother of Dragons");
    assert_string_equal(dml_card_name_ed(DML_ED_2015, td), "Spice Guild House");
    assert_string_equal(dml_card_name_ed(DML_ED_2015, seven), dml_card_name(seven));
    assert_string_equal(dml_card_name(jc), "Vice Minister of Reclamations"); /* 2016 kept */
    dml_state st;
    all_markets(&st);
    assert_int_equal(dml_edition(&st), DML_ED_2016);
    st.variant = DML_V_2015;
    assert_string_equal(dml_card_name_in(&st, jc), "Rogue Jester");
    st.sw = DML_SW_CARDS_0615;
    assert_string_equal(dml_card_name_in(&st, jc), "Greed Vizier");
    assert_string_equal(dml_event_type_name_ed(DML_ED_2015, DML_EV_HATED), "Marauders");
    assert_string_equal(dml_event_type_name_ed(DML_ED_2015, DML_EV_UNION), "Tax Relief");
    assert_string_equal(dml_event_type_name_ed(DML_ED_2016, DML_EV_HATED), "The Hated People");
    assert_string_equal(dml_event_type_name_ed(DML_ED_2015, DML_EV_FRENZY), "Buying Frenzy");
}

static void test_2015_log(void **unused)
{
    (void)unused;
    cr_game y2015, y0615;
    memset(&y2015, 0, sizeof y2015);
    y2015.variant_index = DML_V_2015;
    y2015.num_players = 4;
    y0615 = y2015;
    y0615.opt[DML_OPT_CARDS_0615] = 1;
    char buf[512];
    cr_event e = {.kind = DML_E_DECISION, .seat = 2, .card = -1, .a = DML_A_PILE + 1};
    dml_event_to_str(&y2015, &e, CR_SEAT_PUBLIC, buf, sizeof buf);
    assert_non_null(strstr(buf, "P2: pile B"));
    assert_non_null(strstr(buf, "2 and 3 go to P2's Hand"));
    e.a = DML_A_NOTHING; /* a forfeit in 2015, Do Nothing in 2016 */
    dml_event_to_str(&y2015, &e, CR_SEAT_PUBLIC, buf, sizeof buf);
    assert_non_null(strstr(buf, "forfeits the next action"));
    dml_event_to_str(NULL, &e, CR_SEAT_PUBLIC, buf, sizeof buf);
    assert_non_null(strstr(buf, "Do Nothing"));
    e.a = DML_A_WAGER + 3;
    dml_event_to_str(&y2015, &e, CR_SEAT_PUBLIC, buf, sizeof buf);
    assert_non_null(strstr(buf, "P2: wager 3 (the roll is against 7 - 3 = 4"));
    e.a = DML_A_SUIT + DML_SUIT_H;
    dml_event_to_str(&y0615, &e, CR_SEAT_PUBLIC, buf, sizeof buf);
    assert_non_null(strstr(buf, "P2: name H (the Troublesome Blabbermouth"));
    assert_non_null(strstr(buf, "Slaves Commodity"));
    /* the Rogue Jester's and the Harlot Queen's Powers, as they resolve */
    cr_event r = {
        .kind = DML_E_RESOLVE, .seat = 1, .card = dml_card(DML_SUIT_C, DML_J), .seen_by = 0xf};
    dml_event_to_str(&y2015, &r, CR_SEAT_PUBLIC, buf, sizeof buf);
    assert_non_null(strstr(buf, "Rogue Jester: the cards still on the Stack are turned over"));
    dml_event_to_str(&y0615, &r, CR_SEAT_PUBLIC, buf, sizeof buf);
    assert_non_null(strstr(buf, "Greed Vizier"));
    dml_event_to_str(NULL, &r, CR_SEAT_PUBLIC, buf, sizeof buf);
    assert_non_null(strstr(buf, "Vice Minister"));
    r.card = dml_card(DML_SUIT_C, DML_Q);
    dml_event_to_str(&y2015, &r, CR_SEAT_PUBLIC, buf, sizeof buf);
    assert_non_null(strstr(buf, "every card below her on the Stack leaves without resolving"));
    dml_event_to_str(NULL, &r, CR_SEAT_PUBLIC, buf, sizeof buf);
    assert_non_null(strstr(buf, "a card below her"));
    /* the 2015 events: their names; All Bets Are Off and Buying Frenzy
     * affect every player */
    cr_event ev = {.kind = DML_E_EVENT,
                   .seat = -1,
                   .card = dml_card(DML_SUIT_C, 6),
                   .seen_by = 0xf,
                   .a = DML_EV_HATED,
                   .b = 6,
                   .other = 0x3};
    dml_event_to_str(&y2015, &ev, CR_SEAT_PUBLIC, buf, sizeof buf);
    assert_non_null(strstr(buf, "Event 6C: Marauders 6 (affects P0, P1"));
    ev.a = DML_EV_ALLBETS;
    ev.b = 0;
    ev.other = 0xf;
    ev.card = dml_card(DML_SUIT_S, DML_J);
    dml_event_to_str(&y2015, &ev, CR_SEAT_PUBLIC, buf, sizeof buf);
    assert_non_null(strstr(buf, "All Bets Are Off (affects P0, P1, P2, P3: every player"));
    /* the CPP, the budget, the Siege and a tie at the end */
    cr_event pp = {.kind = DML_E_POWER_PHASE, .seat = 3, .card = -1};
    dml_event_to_str(&y2015, &pp, CR_SEAT_PUBLIC, buf, sizeof buf);
    assert_string_equal(buf, "Character Power Phase: a Stack opens, P3 first");
    dml_event_to_str(NULL, &pp, CR_SEAT_PUBLIC, buf, sizeof buf);
    assert_string_equal(buf, "Power Phase");
    cr_event bu = {.kind = DML_E_BUDGET, .seat = 0, .card = -1, .a = 2, .b = 1};
    dml_event_to_str(&y2015, &bu, CR_SEAT_PUBLIC, buf, sizeof buf);
    assert_string_equal(buf, "P0 has 2 Market Actions and 1 Black Market Action");
    cr_event ss = {.kind = DML_E_SIEGE_SEAT, .seat = 1, .card = -1, .a = 2, .b = 0, .other = 5};
    dml_event_to_str(&y2015, &ss, CR_SEAT_PUBLIC, buf, sizeof buf);
    assert_non_null(strstr(buf, "the rest of the Hand stays"));
    dml_event_to_str(NULL, &ss, CR_SEAT_PUBLIC, buf, sizeof buf);
    assert_non_null(strstr(buf, "to the Discard Pile"));
    cr_event end = {.kind = DML_E_END, .seat = -1, .card = -1, .a = DML_END_VP};
    dml_event_to_str(&y2015, &end, CR_SEAT_PUBLIC, buf, sizeof buf);
    assert_non_null(strstr(buf, "nobody wins (DML-2015)"));
    assert_null(strstr(buf, "Dragon Eggs included"));
}

static void test_2015_prompts(void **unused)
{
    (void)unused;
    dml_state st;
    all_markets(&st);
    st.variant = DML_V_2015;
    char buf[256];
    st.need = DML_NEED_DECISION;
    st.actor = 1;
    st.kind = DML_D_PILE;
    dml_prompt(NULL, &st, buf, sizeof buf);
    assert_string_equal(buf, "P1: Setup \xe2\x80\x94 choose a face-down pile (each holds a 2 and a "
                             "3)");
    st.kind = DML_D_MARKET;
    st.actions = 2;
    st.minors = 1;
    dml_prompt(NULL, &st, buf, sizeof buf);
    assert_non_null(strstr(buf, "2 Market Actions, then 1 Black Market Action left"));
    st.kind = DML_D_OFFER;
    st.buy_suit = DML_SUIT_S;
    st.D = 7;
    dml_prompt(NULL, &st, buf, sizeof buf);
    assert_non_null(strstr(buf, "place one card face-down or pass"));
    st.kind = DML_D_STACK;
    dml_prompt(NULL, &st, buf, sizeof buf);
    assert_non_null(strstr(buf, "P1: Character Power Phase: Stack priority"));
    st.kind = DML_D_WAGER;
    dml_prompt(NULL, &st, buf, sizeof buf);
    assert_non_null(strstr(buf, "7 - M"));
    st.kind = DML_D_LEAVE;
    st.karg = 2;
    st.sel[0] = (uint8_t)dml_card(DML_SUIT_D, 4);
    st.sel_n = 1;
    dml_prompt(NULL, &st, buf, sizeof buf);
    assert_non_null(strstr(buf, "choose the 2 cards you wagered to leave in it; so far: 4D"));
    st.kind = DML_D_NAME_SUIT;
    dml_prompt(NULL, &st, buf, sizeof buf);
    assert_non_null(strstr(buf, "Troublesome Blabbermouth"));
    st.need = DML_NEED_CHANCE;
    st.kind = DML_C_PILE;
    st.karg = 2 | 1 << 2;
    dml_prompt(NULL, &st, buf, sizeof buf);
    assert_string_equal(buf, "Chance: deal a 3 face-down into pile C");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_card_codes_round_trip),
        cmocka_unit_test(test_card_code_errors),
        cmocka_unit_test(test_card_names),
        cmocka_unit_test(test_event_types),
        cmocka_unit_test(test_masks),
        cmocka_unit_test(test_zone_names),
        cmocka_unit_test(test_actions_round_trip),
        cmocka_unit_test(test_action_texts),
        cmocka_unit_test(test_parse_synonyms),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_snprintf_semantics),
        cmocka_unit_test(test_event_visibility),
        cmocka_unit_test(test_prompts),
        cmocka_unit_test(test_2015_names),
        cmocka_unit_test(test_2015_log),
        cmocka_unit_test(test_2015_prompts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
