/* lab.c — the lab's profile of Dragon's Money Laundering
 * (cr_game_parts.lab, `croupier sim`): the rule-level counts designers ask
 * about, taken from the omniscient event stream (dml_internal.h, DML_E_*),
 * the end reasons, and each seat's Merchant King read from the final state. */
#include <string.h>

#include "croupier/parts.h"
#include "games/dml/dml_internal.h"

enum {
    C_WOOT,
    C_WYVERN,
    C_SIEGE,
    C_BM_NEW,
    C_SEIZE_OFFERS,
    C_SEIZE_WON,
    C_EMBLEMS,
    C_POWER0, /* + index in power_cards[] */
    C_COUNT = C_POWER0 + 10
};

static const char *const dml_counter_names[C_COUNT] = {
    "woot",
    "wyvern_eyes",
    "dragon_sieges",
    "black_markets_established",
    "seize_offers",
    "seizes_won",
    "emblems_resolved",
    "power_JS_grand_inquisitor",
    "power_JC_vice_minister",
    "power_JH_prime_counsellor",
    "power_JD_secretary_of_tithes",
    "power_QS_dragon_empress",
    "power_QC_harlot_queen",
    "power_QH_pampered_heiress",
    "power_QD_archduchess",
    "power_X1_thief",
    "power_X2_thief",
};

static int power_index(int card)
{
    if (card == DML_X1) return 8;
    if (card == DML_X2) return 9;
    int r = dml_rank(card), s = dml_suit(card);
    if (s < 0 || (r != DML_J && r != DML_Q)) return -1;
    return (r == DML_J ? 0 : 4) + s;
}

static void dml_count(const cr_event *e, uint64_t *c)
{
    switch (e->kind) {
    case DML_E_CHECK:
        if (e->other == 'W')
            c[C_WOOT]++;
        else if (e->other == 'E')
            c[C_WYVERN]++;
        break;
    case DML_E_SIEGE: c[C_SIEGE]++; break;
    case DML_E_BM_NEW: c[C_BM_NEW]++; break;
    case DML_E_OFFER:
        if (e->a > 0) c[C_SEIZE_OFFERS]++;
        break;
    case DML_E_SEIZE:
        if (e->seat >= 0) c[C_SEIZE_WON]++;
        break;
    case DML_E_RESOLVE:
        if (e->a == 1)
            c[C_EMBLEMS]++;
        else if (e->card >= 0) {
            int k = power_index(e->card);
            if (k >= 0) c[C_POWER0 + k]++;
        }
        break;
    default: break;
    }
}

static uint32_t dml_rounds(const cr_game *g, const void *st)
{
    (void)g;
    return ((const dml_state *)st)->round;
}

enum { E_VP, E_TIE, E_MONOPOLY, E_FATHER, E_LAST, E_NOBODY, E_N };
static const char *const dml_end_names[E_N] = {
    "deck exhausted: VP winner", "deck exhausted: tie, no winner", "Monopoly",
    "Father of Dragons",         "last merchant standing",         "last Siege: nobody left",
};

static int dml_end(const cr_game *g, const void *st)
{
    (void)g;
    const dml_state *s = st;
    switch (s->end_reason) {
    case DML_END_MONOPOLY: return E_MONOPOLY;
    case DML_END_FATHER: return E_FATHER;
    case DML_END_LAST: return s->winner >= 0 ? E_LAST : E_NOBODY;
    default: return s->winner >= 0 ? E_VP : E_TIE;
    }
}

static const char *const dml_king_names[4] = {"Iron King", "Wood King", "Slave King", "Spice King"};

static int dml_label(const cr_game *g, const void *st, int seat)
{
    (void)g;
    const dml_state *s = st;
    uint64_t k = s->zone[DML_Z_KING + seat];
    /* An eliminated seat (I See Fire) has no King left in its Front: -1. */
    return k ? dml_suit(__builtin_ctzll(k)) : -1;
}

/* ---- DML-2015 (spec 15) ----
 * The same counts under the same keys where they mean the same thing, the
 * Powers under their 2015 names (15.6; cards-2015-06's older cards, 15.9),
 * and what only the 2015 Market and Round have: the Character Power Phases
 * (15.3.2) and the cards played in them, the actions forfeited (Nothing:
 * the next one, End: all that remain; an action with nothing else to do is
 * forfeited too), the Black Market attempts and Buys with their successes
 * (15.4.2, 15.5), and bm-wager's wagers (V-PD6). */
enum {
    C15_CPP = C_COUNT,
    C15_CPP_PLAYS,
    C15_BUYS,
    C15_BUYS_WON,
    C15_BM_ATTEMPTS,
    C15_BM_WON,
    C15_FORFEIT_NOTHING,
    C15_FORFEIT_END,
    C15_WAGERS,
    C15_WAGER_CARDS,
    C15_COUNT
};

static const char *const dml_counter_names_2015[C15_COUNT] = {
    "woot",
    "wyvern_eyes",
    "dragon_sieges",
    "black_markets_established",
    "seize_offers",
    "seizes_won",
    "emblems_resolved",
    "power_JS_grand_inquisitor",
    "power_JC_rogue_jester",
    "power_JH_supreme_confisfactor",
    "power_JD_tithe_embezzeler",
    "power_QS_dragon_empress",
    "power_QC_harlot_queen",
    "power_QH_pampered_heiress",
    "power_QD_archduchess_of_avarice",
    "power_X1_thief",
    "power_X2_thief",
    "character_power_phases",
    "cpp_cards_played",
    "buys",
    "buys_succeeded",
    "bm_attempts",
    "bm_attempts_succeeded",
    "forfeits_nothing",
    "forfeits_end",
    "bm_wagers_nonzero",
    "bm_wager_cards",
};

/* cards-2015-06: the Greed Vizier, the Troublesome Blabbermouth, the Goods
 * Swindler and the Mother of Dragons in their places. */
static const char *const dml_counter_names_2015_cards[C15_COUNT] = {
    "woot",
    "wyvern_eyes",
    "dragon_sieges",
    "black_markets_established",
    "seize_offers",
    "seizes_won",
    "emblems_resolved",
    "power_JS_grand_inquisitor",
    "power_JC_greed_vizier",
    "power_JH_troublesome_blabbermouth",
    "power_JD_goods_swindler",
    "power_QS_dragon_empress",
    "power_QC_harlot_queen",
    "power_QH_mother_of_dragons",
    "power_QD_archduchess_of_avarice",
    "power_X1_thief",
    "power_X2_thief",
    "character_power_phases",
    "cpp_cards_played",
    "buys",
    "buys_succeeded",
    "bm_attempts",
    "bm_attempts_succeeded",
    "forfeits_nothing",
    "forfeits_end",
    "bm_wagers_nonzero",
    "bm_wager_cards",
};

static void dml_count_2015(const cr_event *e, uint64_t *c)
{
    dml_count(e, c);
    switch (e->kind) {
    case DML_E_POWER_PHASE: c[C15_CPP]++; break;
    case DML_E_CHECK:
        if (e->b == 1 && e->from / 100 == DML_CHECK_BUY) c[C15_BUYS_WON]++;
        if (e->b == 1 && e->from / 100 == DML_CHECK_VISIT) c[C15_BM_WON]++;
        break;
    case DML_E_DECISION: {
        int a = e->a;
        if (a >= DML_A_POWER && a < DML_A_EMBLEM + DML_NCARDS)
            c[C15_CPP_PLAYS]++;
        else if (a == DML_A_BUY)
            c[C15_BUYS]++;
        else if (a >= DML_A_VISIT && a < DML_A_VISIT + DML_MAX_BM)
            c[C15_BM_ATTEMPTS]++;
        else if (a == DML_A_NOTHING)
            c[C15_FORFEIT_NOTHING]++;
        else if (a == DML_A_END)
            c[C15_FORFEIT_END]++;
        else if (a > DML_A_WAGER && a < DML_A_WAGER + 51) {
            c[C15_WAGERS]++;
            c[C15_WAGER_CARDS] += (uint64_t)(a - DML_A_WAGER);
        }
        break;
    }
    default: break;
    }
}

/* The lab's states keep the memory (pin/may) of the observed seats only:
 * the others' masks are cleared and left alone by the rules (know_off). */
static void dml_observed_seats(const cr_game *g, void *st, uint32_t observed)
{
    (void)g;
    dml_state *s = st;
    s->know_off = (uint8_t)(~observed & ((1u << s->n) - 1));
    for (int q = 0; q < s->n; q++)
        if (s->know_off >> q & 1) {
            memset(s->pin[q], 0, sizeof s->pin[q]);
            memset(s->may[q], 0, sizeof s->may[q]);
        }
}

static const cr_lab_profile dml_lab_2015 = {
    .n_counters = C15_COUNT,
    .counter_names = dml_counter_names_2015,
    .count = dml_count_2015,
    .rounds = dml_rounds,
    .n_ends = E_N,
    .end_names = dml_end_names,
    .end = dml_end,
    .label_title = "Merchant King",
    .n_labels = 4,
    .label_names = dml_king_names,
    .label = dml_label,
    .max_actions = 200000,
    .observed_seats = dml_observed_seats,
};

static const cr_lab_profile dml_lab_2015_cards = {
    .n_counters = C15_COUNT,
    .counter_names = dml_counter_names_2015_cards,
    .count = dml_count_2015,
    .rounds = dml_rounds,
    .n_ends = E_N,
    .end_names = dml_end_names,
    .end = dml_end,
    .label_title = "Merchant King",
    .n_labels = 4,
    .label_names = dml_king_names,
    .label = dml_label,
    .max_actions = 200000,
    .observed_seats = dml_observed_seats,
};

static const cr_lab_profile *dml_lab_for_table(const cr_game *g)
{
    if (g->variant_index != DML_V_2015) return NULL; /* the 2016 profile, dml_lab */
    return g->opt[DML_OPT_CARDS_0615] ? &dml_lab_2015_cards : &dml_lab_2015;
}

const cr_lab_profile dml_lab = {
    .n_counters = C_COUNT,
    .counter_names = dml_counter_names,
    .count = dml_count,
    .rounds = dml_rounds,
    .n_ends = E_N,
    .end_names = dml_end_names,
    .end = dml_end,
    .label_title = "Merchant King",
    .n_labels = 4,
    .label_names = dml_king_names,
    .label = dml_label,
    /* A random 4-player game takes about 200 actions; a game 1,000 times as
     * long is a bug worth reporting as "aborted". */
    .max_actions = 200000,
    .for_table = dml_lab_for_table,
    .observed_seats = dml_observed_seats,
};
