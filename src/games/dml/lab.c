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
};
