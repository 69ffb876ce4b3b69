/* position.c — DML positions as JSON (docs/positions.md), and the JSON and
 * text renderings of an observation.
 *
 * A position names every card by its code in the list of the zone holding
 * it; ordered piles are listed bottom..top (the Discard Pile's last entry is
 * its top card, the Nest's "top" part is its known top, the Stack is listed
 * bottom..top).  dml_serialize writes every field of dml_state that is not
 * derived (zone masks and loc[] follow from the lists, zone_count[] is their
 * popcount, obs_seat is 0xff), so serialize -> deserialize reproduces the
 * struct byte for byte, provided the rules keep the invariants listed in
 * docs/positions.md (array entries past their counts are zero, and so on).
 *
 * dml_deserialize accepts the same format written by hand: most keys are
 * optional, "procedure" may be replaced by a "phase" that the rules turn into
 * frames (dml_enter_phase), and "knowledge" may be left out (every seat then
 * knows exactly the public zones and its own cards).  It validates every key
 * and reports the first problem as "key: problem"; it never trusts a value
 * before checking its range.
 *
 * The writers follow snprintf semantics and allocate nothing; the reader
 * allocates only through jansson, and frees it before returning.
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "croupier/text.h"
#include "games/dml/dml_internal.h"

/* ["2S","7S"] in canonical (ascending id) order */
static void tb_json_cards(cr_tbuf *t, uint64_t mask)
{
    cr_tb_printf(t, "[");
    int first = 1;
    for (int c = 0; c < DML_NCARDS; c++)
        if (mask & dml_bit(c)) {
            cr_tb_printf(t, "%s\"%s\"", first ? "" : ",", dml_card_code(c));
            first = 0;
        }
    cr_tb_printf(t, "]");
}

/* "2S 7S", or the dash when empty */
static void tb_text_cards(cr_tbuf *t, uint64_t mask)
{
    int first = 1;
    for (int c = 0; c < DML_NCARDS; c++)
        if (mask & dml_bit(c)) {
            cr_tb_printf(t, "%s%s", first ? "" : " ", dml_card_code(c));
            first = 0;
        }
    if (first) cr_tb_printf(t, "\xe2\x80\x94");
}

static void tb_json_seats(cr_tbuf *t, unsigned mask)
{
    cr_tb_printf(t, "[");
    for (int s = 0, first = 1; s < 4; s++)
        if (mask & (1u << s)) {
            cr_tb_printf(t, "%s\"P%d\"", first ? "" : ",", s);
            first = 0;
        }
    cr_tb_printf(t, "]");
}

static void tb_json_seat_or_null(cr_tbuf *t, int seat)
{
    if (seat >= 0)
        cr_tb_printf(t, "%d", seat);
    else
        cr_tb_printf(t, "null");
}

static int popcount64(uint64_t m)
{
    int n = 0;
    while (m) {
        m &= m - 1;
        n++;
    }
    return n;
}

static int lowest_card(uint64_t m)
{
    for (int c = 0; c < DML_NCARDS; c++)
        if (m & dml_bit(c)) return c;
    return -1;
}

/* ---- names ---- */

/* dml_state.feat bits, by bit (the seats' "feats" key) */
static const char *const feat_names[DML_NFEATS] = {
    "woot-rolloff", "all-wyvern",      "ashes",        "chickens",   "tithes",
    "joker-thief",  "egg-siege",       "full-court",   "full-house", "ten-takeover",
    "reroll-curse", "end-of-thieving", "jokes-on-you",
};

const char *dml_feat_name(int bit) { return bit >= 0 && bit < DML_NFEATS ? feat_names[bit] : ""; }

static const char *const variant_names[DML_NVARIANTS] = {"full", "smackdown", "mayhem", "fire",
                                                         "dml-2015"};
static const int variant_min[DML_NVARIANTS] = {4, 3, 3, 3, 3};
static const int variant_max[DML_NVARIANTS] = {4, 3, 4, 4, 4};

static const char *const proc_names[DML_P_COUNT] = {
    [DML_P_GAME] = "game",         [DML_P_ROLLOFF] = "rolloff",
    [DML_P_DICE] = "dice",         [DML_P_CHECK] = "check",
    [DML_P_ROUND] = "round",       [DML_P_EVENT] = "event",
    [DML_P_TURN] = "turn",         [DML_P_RESTOCK] = "restock",
    [DML_P_SUPPLY] = "supply",     [DML_P_MARKET] = "market",
    [DML_P_BUY] = "buy",           [DML_P_STACK] = "stack",
    [DML_P_POWER] = "power",       [DML_P_FM] = "foreign_merchant",
    [DML_P_SIEGE] = "siege",       [DML_P_VISIT] = "visit",
    [DML_P_CALLBACK] = "callback",
};

static const char *const need_names[] = {"run", "decision", "chance", "over"};

static const char *const decision_names[] = {
    [DML_D_DABO] = "dabo",
    [DML_D_MARKET] = "market",
    [DML_D_DECLARE] = "declare",
    [DML_D_OFFER] = "offer",
    [DML_D_COMMIT_ACT] = "commit_active",
    [DML_D_COMMIT_PAS] = "commit_passive",
    [DML_D_STACK] = "stack",
    [DML_D_VICE] = "vice",
    [DML_D_COUNSEL_BM] = "counsel_bm",
    [DML_D_COUNSEL_CARD] = "counsel_card",
    [DML_D_TITHE] = "tithe",
    [DML_D_HARLOT] = "harlot",
    [DML_D_ARCHDUCHESS] = "archduchess",
    [DML_D_THIEF_MODE] = "thief_mode",
    [DML_D_THIEF_CARD] = "thief_card",
    [DML_D_THIEF_PLAYER] = "thief_player",
    [DML_D_PILE] = "pile",
    [DML_D_WAGER] = "wager",
    [DML_D_LEAVE] = "leave",
    [DML_D_NAME_SUIT] = "name_suit",
};
enum { N_DECISION_NAMES = (int)(sizeof decision_names / sizeof decision_names[0]) };

static const char *const chance_names[] = {
    [DML_C_ROLL] = "roll", [DML_C_DECK] = "deck", [DML_C_POOL] = "pool", [DML_C_HAND] = "hand",
    [DML_C_BM] = "bm",     [DML_C_NEST] = "nest", [DML_C_PILE] = "pile",
};
enum { N_CHANCE_NAMES = (int)(sizeof chance_names / sizeof chance_names[0]) };

static const char *const end_names[] = {"none", "vp", "monopoly", "father", "last"};

const char *dml_proc_name(int proc)
{
    return proc > 0 && proc < DML_P_COUNT ? proc_names[proc] : "?";
}

const char *dml_kind_name(int need, int kind)
{
    if (need == DML_NEED_DECISION && kind > 0 && kind < N_DECISION_NAMES)
        return decision_names[kind];
    if (need == DML_NEED_CHANCE && kind > 0 && kind < N_CHANCE_NAMES) return chance_names[kind];
    return "?";
}

static const char suit_letters[] = "SCHD";

static int bm_live(const dml_state *st, int k)
{
    return st->zone[DML_Z_BM + k] != 0 || st->zone_count[DML_Z_BM + k] != 0;
}

/* The name of zone z in a position: a live Black Market by its label. */
static const char *zone_key(const dml_state *st, int z, char *buf, size_t cap)
{
    if (z >= DML_Z_BM && z < DML_NZONES && bm_live(st, z - DML_Z_BM) &&
        st->bm_label[z - DML_Z_BM]) {
        snprintf(buf, cap, "BM%d", st->bm_label[z - DML_Z_BM]);
        return buf;
    }
    return dml_zone_name(z, buf, cap);
}

/* ======================================================================
 * serialize
 * ====================================================================== */

static void write_knowledge(cr_tbuf *t, const dml_state *st)
{
    cr_tb_printf(t, "  \"knowledge\": {");
    int first_seat = 1;
    for (int s = 0; s < st->n && s < 4; s++) {
        int any = 0;
        for (int z = 0; z < DML_NZONES; z++) any |= st->pin[s][z] != 0 || st->may[s][z] != 0;
        if (!any) continue;
        cr_tb_printf(t, "%s\n    \"P%d\": {", first_seat ? "" : ",", s);
        first_seat = 0;
        for (int which = 0; which < 2; which++) {
            const uint64_t *m = which ? st->may[s] : st->pin[s];
            cr_tb_printf(t, "%s\n      \"%s\": {", which ? "," : "", which ? "may" : "pin");
            int first = 1;
            for (int z = 0; z < DML_NZONES; z++) {
                if (!m[z]) continue;
                char zb[32];
                cr_tb_printf(t, "%s\n        \"%s\": ", first ? "" : ",",
                             zone_key(st, z, zb, sizeof zb));
                tb_json_cards(t, m[z]);
                first = 0;
            }
            cr_tb_printf(t, "%s}", first ? "" : "\n      ");
        }
        cr_tb_printf(t, "\n    }");
    }
    cr_tb_printf(t, "%s}", first_seat ? "" : "\n  ");
}

size_t dml_serialize(const cr_game *g, const void *vst, char *buf, size_t cap)
{
    (void)g;
    const dml_state *st = vst;
    cr_tbuf tb, *t = &tb;
    cr_tb_init(t, buf, cap);
    char zb[32];
    int n = st->n <= 4 ? st->n : 4;

    cr_tb_printf(t,
                 "{\n  \"game\": \"dml\",\n  \"rules\": %d,\n  \"variant\": \"%s\",\n  "
                 "\"players\": %d,\n",
                 DML_RULES_VERSION,
                 st->variant < DML_NVARIANTS ? variant_names[st->variant] : "full", st->n);
    cr_tb_printf(
        t, "  \"first_roller\": %d,\n  \"round\": %d,\n  \"dealer\": %d,\n  \"active\": %d,\n",
        st->first_roller, st->round, st->dealer, st->active);
    cr_tb_printf(t, "  \"alive\": ");
    tb_json_seats(t, st->alive);
    cr_tb_printf(t, ",\n  \"knowledge_tracking\": %s,\n  \"n_applied\": %u,\n",
                 st->knowledge ? "true" : "false", (unsigned)st->n_applied);

    /* event */
    cr_tb_printf(t, "  \"event\": {\"card\": ");
    if (st->zone[DML_Z_EVENT])
        cr_tb_printf(t, "\"%s\"", dml_card_code(lowest_card(st->zone[DML_Z_EVENT])));
    else
        cr_tb_printf(t, "null");
    cr_tb_printf(t, ", \"type\": ");
    if (st->event_type == DML_EV_NONE)
        cr_tb_printf(t, "null");
    else
        cr_tb_json_str(t, dml_event_type_name(st->event_type));
    cr_tb_printf(t, ", \"value\": %d, \"affected\": ", st->ev);
    tb_json_seats(t, st->affected);
    cr_tb_printf(t, "},\n");

    /* table zones */
    cr_tb_printf(t, "  \"deck\": ");
    tb_json_cards(t, st->zone[DML_Z_DECK]);
    uint64_t disc = st->zone[DML_Z_DISCARD];
    int top = st->discard_top;
    int top_natural = top >= 0 && top < DML_NCARDS && (disc & dml_bit(top));
    cr_tb_printf(t, ",\n  \"discard\": [");
    {
        uint64_t below = top_natural ? disc & ~dml_bit(top) : disc;
        int first = 1;
        for (int c = 0; c < DML_NCARDS; c++)
            if (below & dml_bit(c)) {
                cr_tb_printf(t, "%s\"%s\"", first ? "" : ",", dml_card_code(c));
                first = 0;
            }
        if (top_natural) cr_tb_printf(t, "%s\"%s\"", first ? "" : ",", dml_card_code(top));
    }
    cr_tb_printf(t, "]");
    if (!top_natural && !(disc == 0 && top == -1)) {
        /* not the shape a list can express: say it explicitly */
        cr_tb_printf(t, ",\n  \"discard_top\": ");
        if (top >= 0 && top < DML_NCARDS)
            cr_tb_printf(t, "\"%s\"", dml_card_code(top));
        else
            cr_tb_printf(t, "%d", top);
    }

    uint64_t nest_top_mask = 0;
    for (int i = 0; i < st->nest_top_n && i < 4; i++)
        if (st->nest_top[i] < DML_NCARDS) nest_top_mask |= dml_bit(st->nest_top[i]);
    cr_tb_printf(t, ",\n  \"nest\": {\"base\": ");
    tb_json_cards(t, st->zone[DML_Z_NEST] & ~nest_top_mask);
    cr_tb_printf(t, ", \"top\": [");
    for (int i = 0; i < st->nest_top_n && i < 4; i++)
        cr_tb_printf(t, "%s\"%s\"", i ? "," : "", dml_card_code(st->nest_top[i]));
    cr_tb_printf(t, "]},\n  \"stocks\": {");
    for (int s = 0; s < 4; s++) {
        cr_tb_printf(t, "%s\"%c\": ", s ? ", " : "", suit_letters[s]);
        tb_json_cards(t, st->zone[DML_Z_STOCK] & DML_SUIT_MASK(s));
    }
    cr_tb_printf(t, "},\n  \"exile\": ");
    tb_json_cards(t, st->zone[DML_Z_EXILE]);
    cr_tb_printf(t, ",\n  \"exiled_kings\": ");
    tb_json_cards(t, st->zone[DML_Z_XKING]);
    if (st->zone[DML_Z_POOL]) {
        cr_tb_printf(t, ",\n  \"pool\": ");
        tb_json_cards(t, st->zone[DML_Z_POOL]);
    }
    /* DML-2015: the Setup's piles, its switches, the Wheel reversed, the
     * cards a wagered visit took (only when there are any: older files and
     * the 2016 edition have none) */
    if (st->zone[DML_Z_PILES]) { /* each pile: its 2, then its 3 */
        cr_tb_printf(t, ",\n  \"piles\": [");
        for (int k = 0; k < 4; k++) {
            cr_tb_printf(t, "%s[", k ? ", " : "");
            for (int i = 0; i < 2; i++)
                if (st->pile[k][i] && st->pile[k][i] <= DML_NCARDS)
                    cr_tb_printf(t, "%s\"%s\"", i ? ", " : "", dml_card_code(st->pile[k][i] - 1));
            cr_tb_printf(t, "]");
        }
        cr_tb_printf(t, "]");
    }
    if (st->sw) {
        static const char *const keys[5] = {"bm-wager", "turn-2015-06", "events-2015-06",
                                            "buying-frenzy", "cards-2015-06"};
        cr_tb_printf(t, ",\n  \"options\": {");
        for (int b = 0, k = 0; b < 5; b++)
            if (st->sw >> b & 1) cr_tb_printf(t, "%s\"%s\": true", k++ ? ", " : "", keys[b]);
        cr_tb_printf(t, "}");
    }
    if (st->wheel_rev) cr_tb_printf(t, ",\n  \"wheel_reversed\": true");
    if (st->bm_taken) {
        cr_tb_printf(t, ",\n  \"bm_taken\": ");
        tb_json_cards(t, st->bm_taken);
    }

    /* seats */
    cr_tb_printf(t, ",\n  \"seats\": [");
    for (int s = 0; s < n; s++) {
        cr_tb_printf(t, "%s\n    {\"seat\": %d, \"king\": ", s ? "," : "", s);
        if (st->zone[DML_Z_KING + s])
            cr_tb_printf(t, "\"%s\"", dml_card_code(lowest_card(st->zone[DML_Z_KING + s])));
        else
            cr_tb_printf(t, "null");
        cr_tb_printf(t, ", \"hand\": ");
        tb_json_cards(t, st->zone[DML_Z_HAND + s]);
        cr_tb_printf(t, ", \"front\": ");
        tb_json_cards(t, st->zone[DML_Z_FRONT + s]);
        cr_tb_printf(t, ", \"offer\": ");
        tb_json_cards(t, st->zone[DML_Z_OFFER + s]);
        cr_tb_printf(t, ", \"offer_count\": %d", st->offer_count[s]);
        if (st->feat[s]) { /* only when there is one: older files have none */
            cr_tb_printf(t, ", \"feats\": [");
            for (int b = 0, k = 0; b < DML_NFEATS; b++)
                if (st->feat[s] >> b & 1)
                    cr_tb_printf(t, "%s\"%s\"", k++ ? ", " : "", feat_names[b]);
            cr_tb_printf(t, "]");
        }
        cr_tb_printf(t, "}");
    }
    cr_tb_printf(t, "\n  ],\n");

    /* black markets */
    cr_tb_printf(t, "  \"black_markets\": [");
    int first = 1;
    for (int k = 0; k < DML_MAX_BM; k++) {
        if (!st->zone[DML_Z_BM + k]) continue;
        cr_tb_printf(t, "%s\n    {\"label\": %d, \"slot\": %d, \"cards\": ", first ? "" : ",",
                     st->bm_label[k], k);
        tb_json_cards(t, st->zone[DML_Z_BM + k]);
        cr_tb_printf(t, "}");
        first = 0;
    }
    cr_tb_printf(t, "%s],\n  \"bm_next_label\": %d", first ? "" : "\n  ", st->bm_next_label);
    first = 1;
    for (int k = 0; k < DML_MAX_BM; k++) {
        if (st->zone[DML_Z_BM + k] || !st->bm_label[k]) continue;
        cr_tb_printf(t, "%s[%d, %d]", first ? ",\n  \"bm_stale\": [" : ", ", k, st->bm_label[k]);
        first = 0;
    }
    if (!first) cr_tb_printf(t, "]");

    /* stack */
    uint64_t listed = 0;
    cr_tb_printf(t, ",\n  \"stack\": [");
    for (int i = 0; i < st->stack_n && i < DML_MAX_STACK; i++) {
        int c = st->stack_card[i], f = st->stack_flag[i];
        cr_tb_printf(t, "%s{\"card\": \"%s\", \"seat\": %d, \"as\": \"%s\"}", i ? ", " : "",
                     dml_card_code(c), f & DML_SF_SEAT, f & DML_SF_EMBLEM ? "emblem" : "power");
        if (c < DML_NCARDS) listed |= dml_bit(c);
    }
    cr_tb_printf(t, "]");
    if (st->zone[DML_Z_STACK] & ~listed) {
        cr_tb_printf(t, ",\n  \"stack_loose\": ");
        tb_json_cards(t, st->zone[DML_Z_STACK] & ~listed);
    }
    if (st->resolving != -1 || st->resolving_seat != -1) {
        cr_tb_printf(t, ",\n  \"resolving\": {\"card\": ");
        if (st->resolving >= 0 && st->resolving < DML_NCARDS)
            cr_tb_printf(t, "\"%s\"", dml_card_code(st->resolving));
        else
            cr_tb_printf(t, "null");
        cr_tb_printf(t, ", \"seat\": ");
        tb_json_seat_or_null(t, st->resolving_seat);
        cr_tb_printf(t, "}");
    }

    /* buying */
    cr_tb_printf(t, ",\n  \"buying\": {\"targets\": ");
    tb_json_cards(t, st->zone[DML_Z_TARGET]);
    cr_tb_printf(t, ", \"commits\": ");
    tb_json_cards(t, st->zone[DML_Z_COMMIT]);
    cr_tb_printf(t, ", \"suit\": ");
    if (st->buy_suit >= 0 && st->buy_suit < 4)
        cr_tb_printf(t, "\"%c\"", suit_letters[st->buy_suit]);
    else
        cr_tb_printf(t, "null");
    cr_tb_printf(t, ", \"D\": %d, \"P\": %d, \"seizer\": ", st->D, st->P);
    tb_json_seat_or_null(t, st->seizer);
    cr_tb_printf(t, ", \"target_owner\": ");
    tb_json_seat_or_null(t, st->target_owner);
    cr_tb_printf(t, ", \"target_from\": ");
    if (st->target_from >= 0)
        cr_tb_json_str(t, zone_key(st, st->target_from, zb, sizeof zb));
    else
        cr_tb_printf(t, "null");
    cr_tb_printf(t, ", \"exchange_turn\": \"%s\"},\n", st->xchg_turn ? "passive" : "active");

    cr_tb_printf(t, "  \"budget\": {\"actions\": %d, \"minors\": %d},\n", st->actions, st->minors);

    /* procedure and what the state waits for */
    cr_tb_printf(t, "  \"procedure\": [");
    for (int i = 0; i < st->nfr && i < DML_MAX_FRAMES; i++) {
        const dml_frame *f = &st->fr[i];
        cr_tb_printf(t, "%s[", i ? ", " : "");
        if (f->proc > 0 && f->proc < DML_P_COUNT)
            cr_tb_printf(t, "\"%s\"", proc_names[f->proc]);
        else
            cr_tb_printf(t, "%d", f->proc);
        cr_tb_printf(t, ", %d, %d, %d, %d]", f->step, f->a, f->b, f->x);
    }
    cr_tb_printf(
        t, "],\n  \"need\": \"%s\", \"actor\": ", st->need < 4 ? need_names[st->need] : "run");
    tb_json_seat_or_null(t, st->actor);
    cr_tb_printf(t, ", \"kind\": ");
    if (st->need == DML_NEED_DECISION && st->kind > 0 && st->kind < N_DECISION_NAMES)
        cr_tb_printf(t, "\"%s\"", decision_names[st->kind]);
    else if (st->need == DML_NEED_CHANCE && st->kind > 0 && st->kind < N_CHANCE_NAMES)
        cr_tb_printf(t, "\"%s\"", chance_names[st->kind]);
    else
        cr_tb_printf(t, "%d", st->kind);
    cr_tb_printf(t, ", \"karg\": %d,\n", st->karg);

    /* composition */
    cr_tb_printf(t, "  \"sel\": [");
    int any_flag = 0;
    for (int i = 0; i < st->sel_n && i < DML_NCARDS; i++) {
        cr_tb_printf(t, "%s\"%s\"", i ? "," : "", dml_card_code(st->sel[i]));
        any_flag |= dml_sel_flag(st, i) != 0;
    }
    cr_tb_printf(t, "]");
    if (any_flag) {
        cr_tb_printf(t, ", \"sel_flag\": [");
        for (int i = 0; i < st->sel_n && i < DML_NCARDS; i++)
            cr_tb_printf(t, "%s%d", i ? "," : "", dml_sel_flag(st, i));
        cr_tb_printf(t, "]");
    }
    cr_tb_printf(t, ", \"sel_targets\": %d,\n", st->sel_targets);

    /* dice */
    cr_tb_printf(t, "  \"dice\": [%d, %d], \"check\": {\"ok\": %d, \"special\": ", st->die[0],
                 st->die[1], st->check_ok);
    if (st->check_special == 'W' || st->check_special == 'E')
        cr_tb_printf(t, "\"%c\"", st->check_special);
    else if (st->check_special == 0)
        cr_tb_printf(t, "null");
    else
        cr_tb_printf(t, "%d", st->check_special);
    cr_tb_printf(t, "},\n  \"rolloff\": {\"totals\": [");
    for (int s = 0; s < n; s++) cr_tb_printf(t, "%s%d", s ? ", " : "", st->rolloff_total[s]);
    cr_tb_printf(t, "], \"mask\": ");
    tb_json_seats(t, st->rolloff_mask);
    cr_tb_printf(t, "},\n");

    /* result */
    cr_tb_printf(t, "  \"over\": %s, \"winner\": ", st->over ? "true" : "false");
    tb_json_seat_or_null(t, st->winner);
    cr_tb_printf(t, ", \"end_reason\": ");
    if (st->end_reason < 5)
        cr_tb_printf(t, "\"%s\"", end_names[st->end_reason]);
    else
        cr_tb_printf(t, "%d", st->end_reason);
    cr_tb_printf(t, ", \"vp\": [");
    for (int s = 0; s < n; s++) cr_tb_printf(t, "%s%d", s ? ", " : "", st->vp[s]);
    cr_tb_printf(t, "],\n");

    write_knowledge(t, st);
    cr_tb_printf(t, "\n}\n");
    return t->len;
}

/* ======================================================================
 * deserialize
 * ====================================================================== */

typedef struct loader {
    const cr_game *g;
    dml_state *st;
    char *err;
    size_t errcap;
    int failed;
    int n;
    uint8_t placed[DML_NCARDS]; /* zone, or 0xff */
    uint64_t present;           /* the variant's cards */
} loader;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int
fail(loader *L, const char *fmt, ...)
{
    if (!L->failed && L->err && L->errcap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(L->err, L->errcap, fmt, ap);
        va_end(ap);
    }
    L->failed = 1;
    return -1;
}

static int check_keys(loader *L, json_t *obj, const char *path, const char *const *allowed)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v)
    {
        int ok = 0;
        for (const char *const *a = allowed; *a; a++)
            if (!strcmp(*a, key)) ok = 1;
        if (!ok) return fail(L, "%s%s%s: unknown key", path, *path ? "." : "", key);
    }
    return 0;
}

static int want_object(loader *L, json_t *v, const char *path)
{
    if (!json_is_object(v)) return fail(L, "%s: expected an object", path);
    return 0;
}

static int want_array(loader *L, json_t *v, const char *path)
{
    if (!json_is_array(v)) return fail(L, "%s: expected an array", path);
    return 0;
}

/* An integer in [lo, hi]; def when v is NULL (absent). */
static int get_int(loader *L, json_t *v, const char *path, long long lo, long long hi,
                   long long def, long long *out)
{
    if (!v) {
        *out = def;
        return 0;
    }
    if (!json_is_integer(v)) return fail(L, "%s: expected an integer", path);
    long long x = json_integer_value(v);
    if (x < lo || x > hi) return fail(L, "%s: %lld is out of range [%lld, %lld]", path, x, lo, hi);
    *out = x;
    return 0;
}

static int get_bool(loader *L, json_t *v, const char *path, int def, int *out)
{
    if (!v) {
        *out = def;
        return 0;
    }
    if (json_is_boolean(v))
        *out = json_is_true(v);
    else if (json_is_integer(v) && (json_integer_value(v) == 0 || json_integer_value(v) == 1))
        *out = (int)json_integer_value(v);
    else
        return fail(L, "%s: expected true or false", path);
    return 0;
}

/* A seat: 2 or "P2", in [0, n); null gives -1 when allow_null. */
static int get_seat(loader *L, json_t *v, const char *path, int allow_null, int def, int *out)
{
    if (!v) {
        *out = def;
        return 0;
    }
    long long s = -1;
    if (json_is_null(v)) {
        if (!allow_null) return fail(L, "%s: a seat is required", path);
        *out = -1;
        return 0;
    }
    if (json_is_integer(v)) {
        s = json_integer_value(v);
    } else if (json_is_string(v)) {
        const char *str = json_string_value(v);
        if ((str[0] == 'P' || str[0] == 'p') && str[1] >= '0' && str[1] <= '9' && !str[2])
            s = str[1] - '0';
        else
            return fail(L, "%s: \"%s\" is not a seat (P0..P%d)", path, str, L->n - 1);
    } else {
        return fail(L, "%s: expected a seat (P0..P%d)", path, L->n - 1);
    }
    if (s < 0 || s >= L->n)
        return fail(L, "%s: seat %lld is out of range (P0..P%d)", path, s, L->n - 1);
    *out = (int)s;
    return 0;
}

static int get_seat_mask(loader *L, json_t *v, const char *path, unsigned def, unsigned *out)
{
    if (!v) {
        *out = def;
        return 0;
    }
    if (want_array(L, v, path)) return -1;
    unsigned m = 0;
    size_t i;
    json_t *e;
    char p[64];
    json_array_foreach(v, i, e)
    {
        int s = 0;
        snprintf(p, sizeof p, "%s[%zu]", path, i);
        if (get_seat(L, e, p, 0, 0, &s)) return -1;
        if (m & (1u << s)) return fail(L, "%s: P%d is listed twice", p, s);
        m |= 1u << s;
    }
    *out = m;
    return 0;
}

static int get_card(loader *L, json_t *v, const char *path, int *out)
{
    if (!json_is_string(v)) return fail(L, "%s: expected a card code", path);
    int c = dml_parse_card(json_string_value(v));
    if (c < 0) return fail(L, "%s: \"%s\" is not a card code", path, json_string_value(v));
    *out = c;
    return 0;
}

static int place(loader *L, int c, int z, const char *path)
{
    char zb[32];
    if (!(L->present & dml_bit(c)))
        return fail(L, "%s: card %s is not part of the %s variant", path, dml_card_code(c),
                    variant_names[L->st->variant]);
    if (L->placed[c] != 0xff)
        return fail(L, "%s: card %s appears twice (also in %s)", path, dml_card_code(c),
                    zone_key(L->st, L->placed[c], zb, sizeof zb));
    L->placed[c] = (uint8_t)z;
    L->st->loc[c] = (uint8_t)z;
    L->st->zone[z] |= dml_bit(c);
    return 0;
}

/* Places a card list into zone z; absent (NULL) is an empty list. */
static int load_cards(loader *L, json_t *v, int z, const char *path)
{
    if (!v) return 0;
    if (want_array(L, v, path)) return -1;
    size_t i;
    json_t *e;
    char p[80];
    json_array_foreach(v, i, e)
    {
        int c = 0;
        snprintf(p, sizeof p, "%s[%zu]", path, i);
        if (get_card(L, e, p, &c) || place(L, c, z, p)) return -1;
    }
    return 0;
}

/* A zone named as dml_serialize names it; -1 if unknown. */
static int parse_zone_key(const dml_state *st, int n, const char *s)
{
    char zb[32];
    for (int z = 0; z < DML_Z_HAND; z++)
        if (!strcasecmp(s, dml_zone_name(z, zb, sizeof zb))) return z;
    if (!strcasecmp(s, "piles")) return DML_Z_PILES;
    static const char *const words[4] = {"hand", "front", "king", "offer"};
    for (int w = 0; w < 4; w++) {
        size_t len = strlen(words[w]);
        if (!strncasecmp(s, words[w], len) && s[len] == ' ' &&
            (s[len + 1] == 'P' || s[len + 1] == 'p') && s[len + 2] >= '0' && s[len + 2] < '0' + n &&
            !s[len + 3])
            return DML_Z_HAND + 4 * w + (s[len + 2] - '0');
    }
    if ((s[0] == 'B' || s[0] == 'b') && (s[1] == 'M' || s[1] == 'm') && s[2]) {
        char *end;
        long label = strtol(s + 2, &end, 10);
        if (*end || label <= 0) return -1;
        for (int k = 0; k < DML_MAX_BM; k++)
            if (st->zone[DML_Z_BM + k] && st->bm_label[k] == label) return DML_Z_BM + k;
        return -1;
    }
    if (!strncasecmp(s, "black market #", 14) && s[14]) {
        char *end;
        long k = strtol(s + 14, &end, 10);
        if (*end || k < 0 || k >= DML_MAX_BM) return -1;
        return DML_Z_BM + (int)k;
    }
    return -1;
}

static int parse_name(const char *const *names, int count, const char *s)
{
    for (int i = 0; i < count; i++)
        if (names[i] && !strcasecmp(names[i], s)) return i;
    return -1;
}

/* A named enum value (or its number). */
static int get_named(loader *L, json_t *v, const char *path, const char *const *names, int count,
                     int lo, int hi, int def, int *out)
{
    if (!v) {
        *out = def;
        return 0;
    }
    if (json_is_string(v)) {
        int i = parse_name(names, count, json_string_value(v));
        if (i < 0) return fail(L, "%s: unknown name \"%s\"", path, json_string_value(v));
        *out = i;
        return 0;
    }
    long long x = 0;
    if (get_int(L, v, path, lo, hi, def, &x)) return -1;
    *out = (int)x;
    return 0;
}

static int load_event(loader *L, json_t *ev)
{
    dml_state *st = L->st;
    if (!ev || json_is_null(ev)) return 0;
    if (want_object(L, ev, "event")) return -1;
    static const char *const keys[] = {"card", "type", "value", "affected", NULL};
    if (check_keys(L, ev, "event", keys)) return -1;
    json_t *card = json_object_get(ev, "card");
    int c = -1;
    if (card && !json_is_null(card)) {
        if (get_card(L, card, "event.card", &c) || place(L, c, DML_Z_EVENT, "event.card"))
            return -1;
    }
    json_t *type = json_object_get(ev, "type");
    int t = c >= 0 ? dml_event_type_of(c) : DML_EV_NONE;
    if (type && !json_is_null(type)) {
        if (!json_is_string(type)) return fail(L, "event.type: expected an event type name");
        const char *s = json_string_value(type);
        t = -1;
        for (int i = DML_EV_FCCC; i <= DML_EV_FRENZY; i++)
            if (!strcasecmp(s, dml_event_type_name(i))) t = i;
        if (!strcasecmp(s, "Contraband Crackdown")) t = DML_EV_FCCC; /* the 2015 names */
        if (!strcasecmp(s, "Marauders")) t = DML_EV_HATED;
        if (!strcasecmp(s, "Decadence")) t = DML_EV_CUSTOMS;
        if (!strcasecmp(s, "Tax Relief")) t = DML_EV_UNION;
        if (!strcasecmp(s, "none")) t = DML_EV_NONE;
        if (t < 0) return fail(L, "event.type: unknown event type \"%s\"", s);
    } else if (type) {
        t = DML_EV_NONE;
    }
    if (t == DML_EV_FRENZY && !(st->sw & DML_SW_FRENZY))
        return fail(L, "event.type: Buying Frenzy is the event of dml-2015's buying-frenzy");
    if (t == DML_EV_ALLBETS && (!(st->sw & DML_SW_EVENTS_0615) || (st->sw & DML_SW_FRENZY)))
        return fail(L, "event.type: All Bets Are Off is the event of dml-2015's events-2015-06");
    long long value = 0;
    int def_value = (c >= 0 && t >= DML_EV_FCCC && t <= DML_EV_OPENING && t != DML_EV_CARNIVAL)
                        ? dml_rank(c)
                        : 0;
    if (get_int(L, json_object_get(ev, "value"), "event.value", 0, 255, def_value, &value))
        return -1;
    st->event_type = (uint8_t)t;
    st->ev = (uint8_t)value;
    return 0;
}

/* Default affected set (R10) from the current Hands, for hand-written files. */
static unsigned default_affected(const dml_state *st)
{
    if (st->variant == DML_V_MAYHEM || st->event_type == DML_EV_NONE) return 0;
    if (st->event_type >= DML_EV_CARNIVAL) return st->alive; /* the special events */
    unsigned m = 0;
    for (int s = 0; s < st->n; s++)
        if ((st->alive & (1u << s)) && popcount64(st->zone[DML_Z_HAND + s]) >= st->ev) m |= 1u << s;
    return m;
}

static int load_seats(loader *L, json_t *v)
{
    dml_state *st = L->st;
    if (!v) return 0;
    if (want_array(L, v, "seats")) return -1;
    unsigned seen = 0;
    size_t i;
    json_t *e;
    char p[64];
    static const char *const keys[] = {"seat",  "king",        "hand",  "front",
                                       "offer", "offer_count", "feats", NULL};
    json_array_foreach(v, i, e)
    {
        snprintf(p, sizeof p, "seats[%zu]", i);
        if (want_object(L, e, p) || check_keys(L, e, p, keys)) return -1;
        int s = 0;
        char q[96];
        snprintf(q, sizeof q, "%s.seat", p);
        if (i >= (size_t)L->n && !json_object_get(e, "seat"))
            return fail(L, "%s: more seats than players (%d)", p, L->n);
        if (get_seat(L, json_object_get(e, "seat"), q, 0, (int)i, &s)) return -1;
        if (seen & (1u << s)) return fail(L, "%s: P%d is listed twice", q, s);
        seen |= 1u << s;
        json_t *king = json_object_get(e, "king");
        snprintf(q, sizeof q, "%s.king", p);
        if (king && !json_is_null(king)) {
            int c = 0;
            if (json_is_array(king)) {
                if (json_array_size(king) > 1)
                    return fail(L, "%s: more than one King for P%d", q, s);
                if (load_cards(L, king, DML_Z_KING + s, q)) return -1;
            } else if (get_card(L, king, q, &c) || place(L, c, DML_Z_KING + s, q)) {
                return -1;
            }
        }
        snprintf(q, sizeof q, "%s.hand", p);
        if (load_cards(L, json_object_get(e, "hand"), DML_Z_HAND + s, q)) return -1;
        snprintf(q, sizeof q, "%s.front", p);
        if (load_cards(L, json_object_get(e, "front"), DML_Z_FRONT + s, q)) return -1;
        snprintf(q, sizeof q, "%s.offer", p);
        if (load_cards(L, json_object_get(e, "offer"), DML_Z_OFFER + s, q)) return -1;
        long long oc = 0;
        snprintf(q, sizeof q, "%s.offer_count", p);
        if (get_int(L, json_object_get(e, "offer_count"), q, 0, 54,
                    popcount64(st->zone[DML_Z_OFFER + s]), &oc))
            return -1;
        st->offer_count[s] = (uint8_t)oc;
        json_t *feats = json_object_get(e, "feats");
        snprintf(q, sizeof q, "%s.feats", p);
        if (feats && want_array(L, feats, q)) return -1;
        size_t j;
        json_t *fe;
        json_array_foreach(feats, j, fe)
        {
            int b =
                json_is_string(fe) ? parse_name(feat_names, DML_NFEATS, json_string_value(fe)) : -1;
            if (b < 0)
                return fail(L, "%s[%zu]: not a feat (woot-rolloff, reroll-curse, ...)", q, j);
            st->feat[s] |= (uint16_t)(1u << b);
        }
    }
    return 0;
}

static int load_black_markets(loader *L, json_t *v, json_t *stale)
{
    dml_state *st = L->st;
    if (v) {
        if (want_array(L, v, "black_markets")) return -1;
        if (json_array_size(v) > DML_MAX_BM)
            return fail(L, "black_markets: %zu black markets, at most %d can exist",
                        json_array_size(v), DML_MAX_BM);
        static const char *const keys[] = {"label", "slot", "cards", NULL};
        size_t i;
        json_t *e;
        char p[64], q[96];
        json_array_foreach(v, i, e)
        {
            snprintf(p, sizeof p, "black_markets[%zu]", i);
            if (want_object(L, e, p) || check_keys(L, e, p, keys)) return -1;
            long long label = 0, slot = 0;
            snprintf(q, sizeof q, "%s.label", p);
            if (!json_object_get(e, "label")) return fail(L, "%s: missing", q);
            if (get_int(L, json_object_get(e, "label"), q, 1, 65535, 0, &label)) return -1;
            snprintf(q, sizeof q, "%s.slot", p);
            if (get_int(L, json_object_get(e, "slot"), q, 0, DML_MAX_BM - 1, (long long)i, &slot))
                return -1;
            if (st->bm_label[slot]) return fail(L, "%s: slot %lld is used twice", q, slot);
            for (int k = 0; k < DML_MAX_BM; k++)
                if (st->bm_label[k] == label)
                    return fail(L, "%s.label: BM%lld appears twice", p, label);
            json_t *cards = json_object_get(e, "cards");
            snprintf(q, sizeof q, "%s.cards", p);
            if (!cards || (json_is_array(cards) && json_array_size(cards) == 0))
                return fail(L, "%s: a black market holds at least one card", q);
            st->bm_label[slot] = (uint16_t)label;
            if (load_cards(L, cards, DML_Z_BM + (int)slot, q)) return -1;
        }
    }
    if (stale) {
        /* labels left in slots whose market is gone (kept for exact round trips) */
        if (want_array(L, stale, "bm_stale")) return -1;
        size_t i;
        json_t *e;
        char p[64];
        json_array_foreach(stale, i, e)
        {
            snprintf(p, sizeof p, "bm_stale[%zu]", i);
            long long slot = 0, label = 0;
            if (!json_is_array(e) || json_array_size(e) != 2)
                return fail(L, "%s: expected [slot, label]", p);
            if (get_int(L, json_array_get(e, 0), p, 0, DML_MAX_BM - 1, 0, &slot) ||
                get_int(L, json_array_get(e, 1), p, 1, 65535, 0, &label))
                return -1;
            if (st->bm_label[slot]) return fail(L, "%s: slot %lld is used twice", p, slot);
            st->bm_label[slot] = (uint16_t)label;
        }
    }
    return 0;
}

static int stack_designation_ok(int c, int emblem)
{
    if (dml_is_joker(c)) return !emblem;
    int r = dml_rank(c);
    if (r == DML_J || r == DML_Q) return 1;
    if (r == DML_T) return emblem;
    return 0;
}

static int load_stack(loader *L, json_t *v, json_t *loose, json_t *res)
{
    dml_state *st = L->st;
    if (v) {
        if (want_array(L, v, "stack")) return -1;
        static const char *const keys[] = {"card", "seat", "as", NULL};
        size_t i;
        json_t *e;
        char p[64], q[96];
        json_array_foreach(v, i, e)
        {
            snprintf(p, sizeof p, "stack[%zu]", i);
            if (want_object(L, e, p) || check_keys(L, e, p, keys)) return -1;
            int c = -1, seat = -1;
            snprintf(q, sizeof q, "%s.card", p);
            if (get_card(L, json_object_get(e, "card"), q, &c)) return -1;
            snprintf(q, sizeof q, "%s.seat", p);
            if (get_seat(L, json_object_get(e, "seat"), q, 0, -1, &seat)) return -1;
            if (seat < 0) return fail(L, "%s: missing", q);
            json_t *as = json_object_get(e, "as");
            snprintf(q, sizeof q, "%s.as", p);
            int emblem = 0;
            if (!json_is_string(as)) return fail(L, "%s: expected \"power\" or \"emblem\"", q);
            if (!strcasecmp(json_string_value(as), "power"))
                emblem = 0;
            else if (!strcasecmp(json_string_value(as), "emblem"))
                emblem = 1;
            else
                return fail(L, "%s: expected \"power\" or \"emblem\"", q);
            if (!stack_designation_ok(c, emblem))
                return fail(L, "%s: %s cannot be on the Stack as %s (R31)", p, dml_card_code(c),
                            emblem ? "an Emblem" : "a Power");
            snprintf(q, sizeof q, "%s.card", p);
            if (place(L, c, DML_Z_STACK, q)) return -1;
            st->stack_card[i] = (uint8_t)c;
            st->stack_flag[i] = (uint8_t)(seat | (emblem ? DML_SF_EMBLEM : 0));
            st->stack_n = (uint8_t)(i + 1);
        }
    }
    if (load_cards(L, loose, DML_Z_STACK, "stack_loose")) return -1;
    st->resolving = -1;
    st->resolving_seat = -1;
    if (res && !json_is_null(res)) {
        static const char *const keys[] = {"card", "seat", NULL};
        if (want_object(L, res, "resolving") || check_keys(L, res, "resolving", keys)) return -1;
        json_t *c = json_object_get(res, "card");
        if (c && !json_is_null(c)) {
            int card = 0;
            if (get_card(L, c, "resolving.card", &card)) return -1;
            st->resolving = (int8_t)card;
        }
        int seat = 0;
        if (get_seat(L, json_object_get(res, "seat"), "resolving.seat", 1, -1, &seat)) return -1;
        st->resolving_seat = (int8_t)seat;
    }
    return 0;
}

static int load_buying(loader *L, json_t *v)
{
    dml_state *st = L->st;
    st->buy_suit = st->seizer = st->target_owner = st->target_from = -1;
    if (!v) return 0;
    static const char *const keys[] = {
        "targets",      "commits",     "suit",          "D", "P", "seizer",
        "target_owner", "target_from", "exchange_turn", NULL};
    if (want_object(L, v, "buying") || check_keys(L, v, "buying", keys)) return -1;
    if (load_cards(L, json_object_get(v, "targets"), DML_Z_TARGET, "buying.targets") ||
        load_cards(L, json_object_get(v, "commits"), DML_Z_COMMIT, "buying.commits"))
        return -1;
    json_t *suit = json_object_get(v, "suit");
    int def_suit = st->zone[DML_Z_TARGET] ? dml_suit(lowest_card(st->zone[DML_Z_TARGET])) : -1;
    st->buy_suit = (int8_t)def_suit;
    if (suit && !json_is_null(suit)) {
        const char *s = json_is_string(suit) ? json_string_value(suit) : "";
        int x = -1;
        if (s[0] && !s[1]) {
            const char *p = strchr(suit_letters, s[0] & ~0x20);
            if (p && *p) x = (int)(p - suit_letters);
        }
        for (int i = 0; i < 4; i++)
            if (!strcasecmp(s, dml_suit_name(i))) x = i;
        if (x < 0) return fail(L, "buying.suit: expected S, C, H or D");
        st->buy_suit = (int8_t)x;
    } else if (suit) {
        st->buy_suit = -1;
    }
    long long D = 0, P = 0;
    if (get_int(L, json_object_get(v, "D"), "buying.D", -32768, 32767, 0, &D) ||
        get_int(L, json_object_get(v, "P"), "buying.P", -32768, 32767, 0, &P))
        return -1;
    st->D = (int16_t)D;
    st->P = (int16_t)P;
    int s = 0;
    if (get_seat(L, json_object_get(v, "seizer"), "buying.seizer", 1, -1, &s)) return -1;
    st->seizer = (int8_t)s;
    if (get_seat(L, json_object_get(v, "target_owner"), "buying.target_owner", 1, -1, &s))
        return -1;
    st->target_owner = (int8_t)s;
    json_t *from = json_object_get(v, "target_from");
    if (from && !json_is_null(from)) {
        int z = json_is_string(from) ? parse_zone_key(st, L->n, json_string_value(from)) : -1;
        if (z < 0 || z > 127)
            return fail(
                L, "buying.target_from: expected a zone name (\"stock\", \"front P2\", \"event\")");
        st->target_from = (int8_t)z;
    }
    json_t *xt = json_object_get(v, "exchange_turn");
    if (xt) {
        if (!json_is_string(xt) || (strcasecmp(json_string_value(xt), "active") &&
                                    strcasecmp(json_string_value(xt), "passive")))
            return fail(L, "buying.exchange_turn: expected \"active\" or \"passive\"");
        st->xchg_turn = !strcasecmp(json_string_value(xt), "passive");
    }
    return 0;
}

/* Rules about where each kind of card may lie (section 1.2, section 2). */
static int check_zones(loader *L)
{
    dml_state *st = L->st;
    char zb[32];
    int mayhem = st->variant == DML_V_MAYHEM;
    for (int c = 0; c < DML_NCARDS; c++) {
        if (!(L->present & dml_bit(c))) continue;
        if (L->placed[c] == 0xff)
            return fail(L, "card %s (%s) is missing: every card of the variant must be placed",
                        dml_card_code(c), dml_card_name(c));
        int z = L->placed[c], r = dml_rank(c);
        const char *zn = zone_key(st, z, zb, sizeof zb);
        const char *why = NULL;
        int is_king_zone =
            (z >= DML_Z_KING && z < DML_Z_KING + 4) || z == DML_Z_XKING || z == DML_Z_POOL;
        if (dml_is_king(c) && !is_king_zone)
            why = "a King lies only in a King slot, exiled_kings or the pool";
        else if (!dml_is_king(c) && ((z >= DML_Z_KING && z < DML_Z_KING + 4) || z == DML_Z_XKING))
            why = "only a King can be there";
        else if (z == DML_Z_STOCK && !dml_is_commodity(c))
            why = "a Stock holds only Commodities (2-10)";
        else if (dml_is_egg(c) && !(z == DML_Z_NEST || z == DML_Z_POOL || z >= DML_Z_BM ||
                                    (z >= DML_Z_HAND && z < DML_Z_FRONT) ||
                                    (z >= DML_Z_OFFER && z < DML_Z_OFFER + 4)))
            why =
                "a Dragon Egg lies only in a Hand, a Seize offer, the Nest or a Black Market (R5)";
        else if (z == DML_Z_NEST && !dml_is_egg(c))
            why = "the Nest holds only Dragon Eggs";
        else if (z == DML_Z_DISCARD && dml_is_joker(c))
            why = "a Joker never stays in the Discard Pile (R4)";
        else if (z >= DML_Z_FRONT && z < DML_Z_KING && !(r == DML_T || r == DML_J || r == DML_Q))
            why = "a Front holds only Emblems (T, J, Q)";
        else if (z >= DML_Z_FRONT && z < DML_Z_KING && mayhem)
            why = "there are no Emblems in Market Mayhem";
        else if (z == DML_Z_COMMIT && !dml_is_commodity(c))
            why = "only Commodities can be committed";
        else if (z == DML_Z_TARGET && !(dml_is_commodity(c) || r == DML_J || r == DML_Q))
            why = "a Buying target is a Commodity or an Emblem";
        else if (z == DML_Z_DECK && (dml_is_king(c) || dml_is_egg(c)))
            why = "Kings and Eggs never enter the Deck";
        else if (z == DML_Z_EVENT && (dml_is_king(c) || dml_is_egg(c)))
            why = "Kings and Eggs have no Event type";
        else if (mayhem && z == DML_Z_DISCARD)
            why = "Market Mayhem has no Discard Pile (cards go to exile)";
        if (why) return fail(L, "card %s in %s: %s", dml_card_code(c), zn, why);
    }
    if (popcount64(st->zone[DML_Z_EVENT]) > 1)
        return fail(L, "event.card: at most one Current Event card");
    for (int s = 0; s < 4; s++)
        if (popcount64(st->zone[DML_Z_KING + s]) > 1)
            return fail(L, "seats: more than one King for P%d", s);
    return 0;
}

/* Knowledge must be sound (the sampler relies on it, observe.c): a seat
 * knows only true facts (each pinned card lies in that zone), and every card
 * it has not pinned may lie, as far as it knows, where it really is. */
static int check_knowledge(loader *L)
{
    const dml_state *st = L->st;
    if (!st->knowledge) return 0; /* rollout states keep no knowledge */
    char zb[32], zb2[32];
    for (int s = 0; s < L->n; s++) {
        uint64_t pinned = 0;
        for (int z = 0; z < DML_NZONES; z++) {
            uint64_t wrong = st->pin[s][z] & ~st->zone[z];
            if (wrong) {
                int c = __builtin_ctzll(wrong);
                return fail(L, "knowledge.P%d.pin.%s: card %s is not there (it lies in %s)", s,
                            zone_key(st, z, zb, sizeof zb), dml_card_code(c),
                            zone_key(st, st->loc[c], zb2, sizeof zb2));
            }
            pinned |= st->pin[s][z];
        }
        for (uint64_t m = L->present & ~pinned; m; m &= m - 1) {
            int c = __builtin_ctzll(m), z = st->loc[c];
            if (z < DML_NZONES && !(st->may[s][z] & dml_bit(c)))
                return fail(L,
                            "knowledge.P%d: card %s lies in %s, but neither its pin nor its may "
                            "puts it there",
                            s, dml_card_code(c), zone_key(st, z, zb, sizeof zb));
        }
    }
    return 0;
}

static int load_knowledge(loader *L, json_t *v)
{
    dml_state *st = L->st;
    if (want_object(L, v, "knowledge")) return -1;
    unsigned given = 0;
    const char *seat_key;
    json_t *sv;
    json_object_foreach(v, seat_key, sv)
    {
        char p[64];
        snprintf(p, sizeof p, "knowledge.%s", seat_key);
        if (!((seat_key[0] == 'P' || seat_key[0] == 'p') && seat_key[1] >= '0' &&
              seat_key[1] < '0' + L->n && !seat_key[2]))
            return fail(L, "%s: not a seat of this game (P0..P%d)", p, L->n - 1);
        int s = seat_key[1] - '0';
        given |= 1u << s;
        static const char *const keys[] = {"pin", "may", NULL};
        if (want_object(L, sv, p) || check_keys(L, sv, p, keys)) return -1;
        for (int which = 0; which < 2; which++) {
            json_t *m = json_object_get(sv, which ? "may" : "pin");
            if (!m) continue;
            char q[96];
            snprintf(q, sizeof q, "%s.%s", p, which ? "may" : "pin");
            if (want_object(L, m, q)) return -1;
            const char *zkey;
            json_t *list;
            json_object_foreach(m, zkey, list)
            {
                char r[160];
                snprintf(r, sizeof r, "%s.%s", q, zkey);
                int z = parse_zone_key(st, 4, zkey) /* lenient: machine-written masks */;
                if (z < 0) return fail(L, "%s: unknown zone name", r);
                if (want_array(L, list, r)) return -1;
                uint64_t mask = 0;
                size_t i;
                json_t *e;
                json_array_foreach(list, i, e)
                {
                    int c = 0;
                    char w[200];
                    snprintf(w, sizeof w, "%s[%zu]", r, i);
                    if (get_card(L, e, w, &c)) return -1;
                    if (!(L->present & dml_bit(c)))
                        return fail(L, "%s: card %s is not part of the variant", w,
                                    dml_card_code(c));
                    mask |= dml_bit(c);
                }
                if (which)
                    st->may[s][z] = mask;
                else
                    st->pin[s][z] = mask;
            }
        }
    }
    for (int q = 0; q < L->n; q++) /* a seat left out knows what is public and its own */
        if (!(given & (1u << q)) && st->knowledge) dml_reset_knowledge(st, q);
    /* The normal form the engine keeps (docs/rulings.md C7): a card known in
     * a zone has no "maybe" anywhere, and a zone whose cards are all known
     * (zone sizes are public) holds nothing else.  Positions written by
     * croupier before that rule may carry such stale "maybe" bits. */
    for (int q = 0; q < L->n; q++) {
        uint64_t pinned = 0;
        for (int z = 0; z < DML_NZONES; z++) pinned |= st->pin[q][z];
        for (int z = 0; z < DML_NZONES; z++) {
            st->may[q][z] &= ~pinned;
            if (__builtin_popcountll(st->pin[q][z]) == st->zone_count[z]) st->may[q][z] = 0;
        }
    }
    return check_knowledge(L);
}

static int load_procedure(loader *L, json_t *v)
{
    dml_state *st = L->st;
    if (want_array(L, v, "procedure")) return -1;
    if (json_array_size(v) > DML_MAX_FRAMES)
        return fail(L, "procedure: %zu frames, at most %d", json_array_size(v), DML_MAX_FRAMES);
    size_t i;
    json_t *e;
    char p[64];
    json_array_foreach(v, i, e)
    {
        snprintf(p, sizeof p, "procedure[%zu]", i);
        if (!json_is_array(e) || json_array_size(e) != 5)
            return fail(L, "%s: expected [proc, step, a, b, x]", p);
        int proc = 0;
        long long step = 0, a = 0, b = 0, x = 0;
        if (get_named(L, json_array_get(e, 0), p, proc_names, DML_P_COUNT, 1, DML_P_COUNT - 1, 0,
                      &proc) ||
            get_int(L, json_array_get(e, 1), p, 0, 255, 0, &step) ||
            get_int(L, json_array_get(e, 2), p, -128, 127, 0, &a) ||
            get_int(L, json_array_get(e, 3), p, -128, 127, 0, &b) ||
            get_int(L, json_array_get(e, 4), p, -32768, 32767, 0, &x))
            return -1;
        if (proc <= 0) return fail(L, "%s: unknown procedure", p);
        st->fr[i].proc = (uint8_t)proc;
        st->fr[i].step = (uint8_t)step;
        st->fr[i].a = (int8_t)a;
        st->fr[i].b = (int8_t)b;
        st->fr[i].x = (int16_t)x;
        st->nfr = (uint8_t)(i + 1);
    }
    return 0;
}

static int load_waiting(loader *L, json_t *root)
{
    dml_state *st = L->st;
    int need = 0, actor = -1, kind = 0;
    long long karg = 0;
    if (get_named(L, json_object_get(root, "need"), "need", need_names, 4, 0, 3, DML_NEED_RUN,
                  &need))
        return -1;
    st->need = (uint8_t)need;
    if (get_seat(L, json_object_get(root, "actor"), "actor", 1, -1, &actor)) return -1;
    st->actor = (int8_t)actor;
    json_t *k = json_object_get(root, "kind");
    if (need == DML_NEED_CHANCE) {
        if (get_named(L, k, "kind", chance_names, N_CHANCE_NAMES, 0, 255, 0, &kind)) return -1;
    } else if (need == DML_NEED_DECISION) {
        if (get_named(L, k, "kind", decision_names, N_DECISION_NAMES, 0, 255, 0, &kind)) return -1;
    } else if (get_int(L, k, "kind", 0, 255, 0, &karg)) {
        return -1;
    } else {
        kind = (int)karg;
    }
    st->kind = (uint8_t)kind;
    if (get_int(L, json_object_get(root, "karg"), "karg", -128, 127, 0, &karg)) return -1;
    st->karg = (int8_t)karg;
    return 0;
}

static int load_composition(loader *L, json_t *root)
{
    dml_state *st = L->st;
    json_t *sel = json_object_get(root, "sel"), *flags = json_object_get(root, "sel_flag");
    if (sel) {
        if (want_array(L, sel, "sel")) return -1;
        if (json_array_size(sel) > DML_NCARDS) return fail(L, "sel: too many cards");
        uint64_t seen = 0;
        size_t i;
        json_t *e;
        char p[32];
        json_array_foreach(sel, i, e)
        {
            int c = 0;
            snprintf(p, sizeof p, "sel[%zu]", i);
            if (get_card(L, e, p, &c)) return -1;
            if (seen & dml_bit(c))
                return fail(L, "%s: card %s is chosen twice", p, dml_card_code(c));
            seen |= dml_bit(c);
            st->sel[i] = (uint8_t)c;
        }
        st->sel_n = (uint8_t)json_array_size(sel);
    }
    if (flags) {
        if (want_array(L, flags, "sel_flag")) return -1;
        if (json_array_size(flags) != st->sel_n)
            return fail(L, "sel_flag: needs one entry per card of sel");
        size_t i;
        json_t *e;
        char p[32];
        json_array_foreach(flags, i, e)
        {
            long long f = 0;
            snprintf(p, sizeof p, "sel_flag[%zu]", i);
            if (get_int(L, e, p, 0, 255, 0, &f)) return -1;
            if (f != 0 && f != DML_SF_EMBLEM)
                return fail(L, "%s: 0, or %d for an Emblem", p, DML_SF_EMBLEM);
            if (f) st->sel_emblem |= 1ull << i;
        }
    }
    long long nt = 0;
    if (get_int(L, json_object_get(root, "sel_targets"), "sel_targets", 0, st->sel_n, 0, &nt))
        return -1;
    st->sel_targets = (uint8_t)nt;
    return 0;
}

static int load_dice(loader *L, json_t *root)
{
    dml_state *st = L->st;
    json_t *dice = json_object_get(root, "dice");
    if (dice) {
        if (!json_is_array(dice) || json_array_size(dice) != 2)
            return fail(L, "dice: expected [a, b]");
        for (int i = 0; i < 2; i++) {
            long long d = 0;
            if (get_int(L, json_array_get(dice, (size_t)i), "dice", 0, 6, 0, &d)) return -1;
            st->die[i] = (uint8_t)d;
        }
    }
    json_t *check = json_object_get(root, "check");
    if (check) {
        static const char *const keys[] = {"ok", "special", NULL};
        if (want_object(L, check, "check") || check_keys(L, check, "check", keys)) return -1;
        long long ok = 0;
        json_t *okv = json_object_get(check, "ok");
        if (json_is_boolean(okv))
            ok = json_is_true(okv);
        else if (get_int(L, okv, "check.ok", 0, 255, 0, &ok))
            return -1;
        st->check_ok = (uint8_t)ok;
        json_t *sp = json_object_get(check, "special");
        if (sp && json_is_string(sp)) {
            const char *s = json_string_value(sp);
            if (!strcmp(s, "W") || !strcasecmp(s, "Woot!"))
                st->check_special = 'W';
            else if (!strcmp(s, "E") || !strcasecmp(s, "Wyvern Eyes"))
                st->check_special = 'E';
            else
                return fail(L, "check.special: expected \"W\", \"E\" or null");
        } else if (sp && !json_is_null(sp)) {
            long long x = 0;
            if (get_int(L, sp, "check.special", 0, 255, 0, &x)) return -1;
            st->check_special = (uint8_t)x;
        }
    }
    json_t *ro = json_object_get(root, "rolloff");
    if (ro) {
        static const char *const keys[] = {"totals", "mask", NULL};
        if (want_object(L, ro, "rolloff") || check_keys(L, ro, "rolloff", keys)) return -1;
        json_t *tot = json_object_get(ro, "totals");
        if (tot) {
            if (want_array(L, tot, "rolloff.totals")) return -1;
            if (json_array_size(tot) > (size_t)L->n)
                return fail(L, "rolloff.totals: more entries than players");
            for (size_t i = 0; i < json_array_size(tot); i++) {
                long long x = 0;
                if (get_int(L, json_array_get(tot, i), "rolloff.totals", -128, 127, 0, &x))
                    return -1;
                st->rolloff_total[i] = (int8_t)x;
            }
        }
        unsigned m;
        if (get_seat_mask(L, json_object_get(ro, "mask"), "rolloff.mask", 0, &m)) return -1;
        st->rolloff_mask = (uint8_t)m;
    }
    return 0;
}

static int load_result(loader *L, json_t *root)
{
    dml_state *st = L->st;
    int over = 0, winner = -1, reason = 0;
    if (get_bool(L, json_object_get(root, "over"), "over", 0, &over)) return -1;
    st->over = (uint8_t)over;
    if (get_seat(L, json_object_get(root, "winner"), "winner", 1, -1, &winner)) return -1;
    st->winner = (int8_t)winner;
    if (get_named(L, json_object_get(root, "end_reason"), "end_reason", end_names, 5, 0, 255, 0,
                  &reason))
        return -1;
    st->end_reason = (uint8_t)reason;
    json_t *vp = json_object_get(root, "vp");
    if (vp) {
        if (want_array(L, vp, "vp")) return -1;
        if (json_array_size(vp) > (size_t)L->n) return fail(L, "vp: more entries than players");
        for (size_t i = 0; i < json_array_size(vp); i++) {
            long long x = 0;
            if (get_int(L, json_array_get(vp, i), "vp", -32768, 32767, 0, &x)) return -1;
            st->vp[i] = (int16_t)x;
        }
    }
    return 0;
}

/* DML-2015's Setup piles (15.2): four lists, each one 2 and one 3, or
 * fewer while the piles are made or after one was chosen. */
static int load_piles(loader *L, json_t *piles)
{
    if (!piles) return 0;
    if (L->st->variant != DML_V_2015) return fail(L, "piles: only DML-2015's Setup has piles");
    if (!json_is_array(piles) || json_array_size(piles) != 4)
        return fail(L, "piles: expected a list of 4 piles (A-D)");
    for (int k = 0; k < 4; k++) {
        char p[24];
        snprintf(p, sizeof p, "piles[%d]", k);
        uint64_t before = L->st->zone[DML_Z_PILES];
        if (load_cards(L, json_array_get(piles, (size_t)k), DML_Z_PILES, p)) return -1;
        uint64_t m = L->st->zone[DML_Z_PILES] & ~before;
        if ((m & ~(dml_rank_mask[2] | dml_rank_mask[3])) ||
            __builtin_popcountll(m & dml_rank_mask[2]) > 1 ||
            __builtin_popcountll(m & dml_rank_mask[3]) > 1 || (m && !(m & dml_rank_mask[2])))
            return fail(L, "%s: a pile is one 2 and one 3 (its 2 alone while the piles are made)",
                        p);
        for (int i = 0; i < 2; i++) {
            uint64_t r = m & dml_rank_mask[2 + i];
            L->st->pile[k][i] = (uint8_t)(r ? __builtin_ctzll(r) + 1 : 0);
        }
    }
    return 0;
}

static const char *const top_keys[] = {
    "game",
    "rules",   /* the generic header (cr_position_load) */
    "options", /* checked there: table options */
    "data_hash",
    "variant",
    "players",
    "first_roller",
    "round",
    "dealer",
    "active",
    "alive",
    "knowledge_tracking",
    "n_applied",
    "event",
    "deck",
    "discard",
    "discard_top",
    "nest",
    "stocks",
    "exile",
    "exiled_kings",
    "pool",
    "piles",
    "wheel_reversed",
    "bm_taken",
    "seats",
    "black_markets",
    "bm_next_label",
    "bm_stale",
    "stack",
    "stack_loose",
    "resolving",
    "buying",
    "budget",
    "phase",
    "procedure",
    "need",
    "actor",
    "kind",
    "karg",
    "sel",
    "sel_flag",
    "sel_targets",
    "dice",
    "check",
    "rolloff",
    "over",
    "winner",
    "end_reason",
    "vp",
    "knowledge",
    NULL,
};

static int load_root(loader *L, json_t *root)
{
    dml_state *st = L->st;
    const cr_game *g = L->g;
    if (want_object(L, root, "position") || check_keys(L, root, "", top_keys)) return -1;

    json_t *game = json_object_get(root, "game");
    if (game && (!json_is_string(game) || strcmp(json_string_value(game), "dml")))
        return fail(L, "game: expected \"dml\"");
    int variant = g->variant_index;
    json_t *vv = json_object_get(root, "variant");
    if (vv) {
        variant = json_is_string(vv)
                      ? parse_name(variant_names, DML_NVARIANTS, json_string_value(vv))
                      : -1;
        if (variant < 0)
            return fail(L, "variant: expected full, smackdown, mayhem, fire or dml-2015");
        if (variant != g->variant_index)
            return fail(L, "variant: the position is \"%s\" but the game was created as \"%s\"",
                        variant_names[variant], variant_names[g->variant_index]);
    }
    long long players = 0;
    if (get_int(L, json_object_get(root, "players"), "players", 3, 4, g->num_players, &players))
        return -1;
    if (players != g->num_players)
        return fail(L, "players: the position has %lld players but the game was created for %d",
                    players, g->num_players);
    if (players < variant_min[variant] || players > variant_max[variant])
        return fail(L, "players: %s needs %d-%d players", variant_names[variant],
                    variant_min[variant], variant_max[variant]);
    L->n = (int)players;
    st->n = (uint8_t)players;
    st->variant = (uint8_t)variant;
    L->present = DML_ALL_CARDS;
    if (variant == DML_V_MAYHEM)
        L->present &= ~(dml_rank_mask[DML_J] | dml_rank_mask[DML_Q] | dml_rank_mask[DML_A] |
                        dml_rank_mask[0]);
    for (int c = 0; c < DML_NCARDS; c++) st->loc[c] = 0xff;

    long long x = 0;
    int seat = 0;
    if (get_int(L, json_object_get(root, "first_roller"), "first_roller", 0, players - 1,
                g->opt[DML_OPT_FIRST_ROLLER] < players ? g->opt[DML_OPT_FIRST_ROLLER] : 0, &x))
        return -1;
    st->first_roller = (uint8_t)x;
    /* the DML-2015 switches are table options (cr_position_load gave them
     * to the game); the state keeps them as bits */
    st->sw = 0;
    for (int i = 0; i < 5; i++)
        if (g->opt[DML_OPT_BM_WAGER + i]) st->sw |= (uint8_t)(1u << i);
    json_t *wr = json_object_get(root, "wheel_reversed");
    if (wr && !json_is_boolean(wr)) return fail(L, "wheel_reversed: expected true or false");
    if (wr && json_is_true(wr) && !(st->sw & DML_SW_CARDS_0615))
        return fail(L, "wheel_reversed: only cards-2015-06's Greed Vizier reverses the Wheel");
    st->wheel_rev = wr && json_is_true(wr);
    if (get_int(L, json_object_get(root, "round"), "round", 0, 65535, 1, &x)) return -1;
    st->round = (uint16_t)x;
    if (get_seat(L, json_object_get(root, "dealer"), "dealer", 0, 0, &seat)) return -1;
    st->dealer = (uint8_t)seat;
    if (get_seat(L, json_object_get(root, "active"), "active", 0, st->dealer, &seat)) return -1;
    st->active = (uint8_t)seat;
    unsigned alive;
    if (get_seat_mask(L, json_object_get(root, "alive"), "alive", (1u << players) - 1, &alive))
        return -1;
    st->alive = (uint8_t)alive;
    int kt = 0;
    if (get_bool(L, json_object_get(root, "knowledge_tracking"), "knowledge_tracking", 1, &kt))
        return -1;
    st->knowledge = (uint8_t)kt;
    if (get_int(L, json_object_get(root, "n_applied"), "n_applied", 0, 0xffffffffLL, 0, &x))
        return -1;
    st->n_applied = (uint32_t)x;

    /* zones */
    if (load_event(L, json_object_get(root, "event"))) return -1;
    if (load_cards(L, json_object_get(root, "deck"), DML_Z_DECK, "deck")) return -1;
    json_t *disc = json_object_get(root, "discard");
    if (load_cards(L, disc, DML_Z_DISCARD, "discard")) return -1;
    st->discard_top = -1;
    if (disc && json_array_size(disc) > 0) {
        int c = 0;
        if (get_card(L, json_array_get(disc, json_array_size(disc) - 1), "discard", &c)) return -1;
        st->discard_top = (int8_t)c;
    }
    /* discard_top: a card of the Discard Pile that overrides the list's
     * order, or null for an empty Pile (checked once the zones are placed) */
    json_t *dtop = json_object_get(root, "discard_top");
    if (dtop) {
        if (json_is_null(dtop)) {
            st->discard_top = -1;
        } else {
            int c = 0;
            if (get_card(L, dtop, "discard_top", &c)) return -1;
            st->discard_top = (int8_t)c;
        }
    }
    json_t *nest = json_object_get(root, "nest");
    if (nest) {
        if (json_is_array(nest)) {
            if (load_cards(L, nest, DML_Z_NEST, "nest")) return -1;
        } else {
            static const char *const keys[] = {"base", "top", NULL};
            if (want_object(L, nest, "nest") || check_keys(L, nest, "nest", keys)) return -1;
            if (load_cards(L, json_object_get(nest, "base"), DML_Z_NEST, "nest.base")) return -1;
            json_t *top = json_object_get(nest, "top");
            if (top) {
                if (want_array(L, top, "nest.top")) return -1;
                if (json_array_size(top) > 4) return fail(L, "nest.top: at most 4 eggs");
                if (load_cards(L, top, DML_Z_NEST, "nest.top")) return -1;
                for (size_t i = 0; i < json_array_size(top); i++) {
                    int c = 0;
                    if (get_card(L, json_array_get(top, i), "nest.top", &c)) return -1;
                    st->nest_top[i] = (uint8_t)c;
                }
                st->nest_top_n = (uint8_t)json_array_size(top);
            }
        }
    }
    json_t *stocks = json_object_get(root, "stocks");
    if (stocks) {
        static const char *const keys[] = {"S", "C", "H", "D", NULL};
        if (want_object(L, stocks, "stocks") || check_keys(L, stocks, "stocks", keys)) return -1;
        for (int s = 0; s < 4; s++) {
            char key[2] = {suit_letters[s], 0}, p[16];
            snprintf(p, sizeof p, "stocks.%s", key);
            json_t *list = json_object_get(stocks, key);
            if (load_cards(L, list, DML_Z_STOCK, p)) return -1;
            if (list)
                for (size_t i = 0; i < json_array_size(list); i++) {
                    int c = dml_parse_card(json_string_value(json_array_get(list, i)));
                    if (dml_suit(c) != s)
                        return fail(L, "%s[%zu]: card %s is not of suit %s", p, i, dml_card_code(c),
                                    key);
                }
        }
    }
    if (load_cards(L, json_object_get(root, "exile"), DML_Z_EXILE, "exile") ||
        load_cards(L, json_object_get(root, "exiled_kings"), DML_Z_XKING, "exiled_kings") ||
        load_cards(L, json_object_get(root, "pool"), DML_Z_POOL, "pool") ||
        load_piles(L, json_object_get(root, "piles")) ||
        load_seats(L, json_object_get(root, "seats")) ||
        load_black_markets(L, json_object_get(root, "black_markets"),
                           json_object_get(root, "bm_stale")) ||
        load_stack(L, json_object_get(root, "stack"), json_object_get(root, "stack_loose"),
                   json_object_get(root, "resolving")) ||
        load_buying(L, json_object_get(root, "buying")))
        return -1;
    if (check_zones(L)) return -1;
    json_t *taken = json_object_get(root, "bm_taken");
    if (taken) {
        if (!(st->sw & DML_SW_BM_WAGER)) return fail(L, "bm_taken: only bm-wager's visits take");
        if (!json_is_array(taken)) return fail(L, "bm_taken: expected a list of cards");
        for (size_t i = 0; i < json_array_size(taken); i++) {
            int c = dml_parse_card(json_string_value(json_array_get(taken, i)));
            if (c < 0 || st->loc[c] != DML_Z_HAND + st->active)
                return fail(L, "bm_taken[%zu]: expected a card of the Active Player's Hand", i);
            st->bm_taken |= dml_bit(c);
        }
    }
    if (st->variant == DML_V_MAYHEM) {
        if (st->stack_n || st->zone[DML_Z_STACK])
            return fail(L, "stack: Market Mayhem has no Stack");
    }
    if (st->discard_top >= 0 && st->loc[st->discard_top] != DML_Z_DISCARD) {
        char zb[32];
        return fail(L, "discard_top: card %s is not in the Discard Pile (it lies in %s)",
                    dml_card_code(st->discard_top),
                    zone_key(st, st->loc[st->discard_top], zb, sizeof zb));
    }
    if (st->discard_top < 0 && st->zone[DML_Z_DISCARD])
        return fail(L, "discard_top: null, but the Discard Pile is not empty");

    /* Black Market labels */
    int max_label = 0;
    for (int k = 0; k < DML_MAX_BM; k++)
        if (st->bm_label[k] > max_label) max_label = st->bm_label[k];
    if (get_int(L, json_object_get(root, "bm_next_label"), "bm_next_label", max_label, 65535,
                max_label, &x))
        return -1;
    st->bm_next_label = (uint16_t)x;

    /* event's affected set needs the Hands */
    json_t *ev = json_object_get(root, "event");
    unsigned aff;
    if (get_seat_mask(L, ev && json_is_object(ev) ? json_object_get(ev, "affected") : NULL,
                      "event.affected", default_affected(st), &aff))
        return -1;
    st->affected = (uint8_t)aff;

    json_t *budget = json_object_get(root, "budget");
    if (budget) {
        static const char *const keys[] = {"actions", "minors", NULL};
        if (want_object(L, budget, "budget") || check_keys(L, budget, "budget", keys)) return -1;
        if (get_int(L, json_object_get(budget, "actions"), "budget.actions", 0, 255, 0, &x))
            return -1;
        st->actions = (uint8_t)x;
        if (get_int(L, json_object_get(budget, "minors"), "budget.minors", 0, 255, 0, &x))
            return -1;
        st->minors = (uint8_t)x;
    }

    if (load_composition(L, root) || load_dice(L, root) || load_result(L, root)) return -1;

    for (int z = 0; z < DML_NZONES; z++) st->zone_count[z] = (uint8_t)popcount64(st->zone[z]);
    dml_derive(st);
    st->obs_seat = 0xff;

    json_t *know = json_object_get(root, "knowledge");
    if (know) {
        if (load_knowledge(L, know)) return -1;
    } else if (st->knowledge) {
        for (int q = 0; q < st->n; q++) dml_reset_knowledge(st, q);
    }

    json_t *proc = json_object_get(root, "procedure"), *phase = json_object_get(root, "phase");
    if (proc && phase) return fail(L, "phase: give either \"phase\" or \"procedure\", not both");
    char msg[200] = "";
    if (!proc && st->over)
        return fail(L, "over: a finished game has no phase to start from (give \"procedure\" "
                       "with need \"over\")");
    if (!proc && dml_check_state(g, st, msg, sizeof msg)) /* before the rules run on it */
        return fail(L, "%s", msg);
    if (proc) {
        if (load_procedure(L, proc) || load_waiting(L, root)) return -1;
        /* A saved state rests at a decision, a chance event or the end;
         * "run" is only a transient inside apply. */
        if (st->need == DML_NEED_RUN && st->nfr && !st->over)
            return fail(L, "need: \"run\" is not a resting state: give decision, chance or over");
    } else {
        if (json_object_get(root, "need") || json_object_get(root, "actor") ||
            json_object_get(root, "kind") || json_object_get(root, "karg"))
            return fail(L, "need: the waiting fields need a \"procedure\"");
        const char *ph = "event";
        if (phase) {
            if (!json_is_string(phase))
                return fail(L, "phase: expected event, turn, market or power");
            ph = json_string_value(phase);
        }
        if (strcmp(ph, "event") && strcmp(ph, "turn") && strcmp(ph, "market") &&
            strcmp(ph, "power"))
            return fail(L, "phase: unknown phase \"%s\" (event, turn, market or power)", ph);
        if (dml_enter_phase(g, st, ph) != CR_OK)
            return fail(L, "phase: cannot start at \"%s\" here", ph);
        if (st->need == DML_NEED_RUN) dml_run(g, st, NULL);
    }
    /* a position is one that play can reach: the invariants play keeps,
     * then what the rules need of the waiting decision (messages name the key) */
    if (dml_check_invariants(g, st, msg, sizeof msg) ||
        dml_validate_procedure(st, msg, sizeof msg) != CR_OK)
        return fail(L, "%s", msg);
    return 0;
}

cr_status dml_deserialize(const cr_game *g, void *vst, const char *buf, size_t len, char *err,
                          size_t errcap)
{
    /* built aside and copied out only when sound: a refused position leaves
     * the caller's state as it was */
    dml_state tmp, *st = &tmp;
    memset(st, 0, sizeof *st);
    if (err && errcap) err[0] = '\0';
    const char *nul = memchr(buf, '\0', len); /* jansson would read the text up to it */
    if (nul) {
        if (err && errcap) snprintf(err, errcap, "NUL byte at offset %zu", (size_t)(nul - buf));
        return CR_ERR_PARSE;
    }
    json_error_t jerr;
    json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        if (err && errcap)
            snprintf(err, errcap, "line %d, column %d: %s", jerr.line, jerr.column, jerr.text);
        return CR_ERR_PARSE;
    }
    loader L;
    memset(&L, 0, sizeof L);
    L.g = g;
    L.st = st;
    L.err = err;
    L.errcap = errcap;
    L.n = g->num_players;
    memset(L.placed, 0xff, sizeof L.placed);
    int rc = load_root(&L, root);
    json_decref(root);
    if (rc) return CR_ERR_INVALID;
    memcpy(vst, st, sizeof *st);
    return CR_OK;
}

/* ======================================================================
 * observations
 * ====================================================================== */

/* Cards the observing seat knows the place of (an observation's masks hold
 * only those); a card known elsewhere is not a candidate of a hidden zone. */
static uint64_t obs_known(const dml_state *o)
{
    uint64_t m = 0;
    for (int z = 0; z < DML_NZONES; z++) m |= o->zone[z];
    return m;
}

static void obs_event_text(cr_tbuf *t, const dml_state *o)
{
    cr_tb_printf(t, "Event: ");
    if (o->zone[DML_Z_EVENT])
        cr_tb_printf(t, "%s ", dml_card_code(lowest_card(o->zone[DML_Z_EVENT])));
    if (o->event_type == DML_EV_NONE) {
        cr_tb_printf(t, "none");
        return;
    }
    cr_tb_printf(t, "%s", dml_event_type_name_ed(dml_edition(o), o->event_type));
    if (o->ev) cr_tb_printf(t, " %d", o->ev);
    cr_tb_printf(t, " (affects ");
    int first = 1;
    for (int s = 0; s < o->n; s++)
        if (o->affected & (1u << s)) {
            cr_tb_printf(t, "%sP%d", first ? "" : ", ", s);
            first = 0;
        }
    cr_tb_printf(t, "%s)", first ? "nobody" : "");
}

size_t dml_obs_to_json(const cr_game *g, const void *vobs, char *buf, size_t cap)
{
    const dml_state *o = vobs;
    cr_tbuf tb, *t = &tb;
    cr_tb_init(t, buf, cap);
    int me = o->obs_seat < 4 ? o->obs_seat : -1;
    int n = o->n <= 4 ? o->n : 4;
    char zb[32];

    cr_tb_printf(t, "{\"seat\":");
    if (me >= 0)
        cr_tb_printf(t, "\"P%d\"", me);
    else
        cr_tb_printf(t, "null");
    cr_tb_printf(t,
                 ",\"variant\":\"%s\",\"players\":%d,\"round\":%d,\"dealer\":\"P%d\",\"active\":"
                 "\"P%d\",\"alive\":",
                 o->variant < DML_NVARIANTS ? variant_names[o->variant] : "full", o->n, o->round,
                 o->dealer, o->active);
    tb_json_seats(t, o->alive);

    cr_tb_printf(t, ",\"event\":{\"card\":");
    if (o->zone[DML_Z_EVENT])
        cr_tb_printf(t, "\"%s\"", dml_card_code(lowest_card(o->zone[DML_Z_EVENT])));
    else
        cr_tb_printf(t, "null");
    cr_tb_printf(t, ",\"type\":");
    if (o->event_type)
        cr_tb_json_str(t, dml_event_type_name(o->event_type));
    else
        cr_tb_printf(t, "null");
    cr_tb_printf(t, ",\"value\":%d,\"affected\":", o->ev);
    tb_json_seats(t, o->affected);
    cr_tb_printf(t, "},\"budget\":{\"actions\":%d,\"minors\":%d}", o->actions, o->minors);

    if (me >= 0) {
        cr_tb_printf(t, ",\"hand\":");
        tb_json_cards(t, o->zone[DML_Z_HAND + me]);
        cr_tb_printf(t, ",\"king\":");
        if (o->zone[DML_Z_KING + me])
            cr_tb_printf(t, "\"%s\"", dml_card_code(lowest_card(o->zone[DML_Z_KING + me])));
        else
            cr_tb_printf(t, "null");
        cr_tb_printf(t, ",\"offer\":");
        tb_json_cards(t, o->zone[DML_Z_OFFER + me]);
    }
    cr_tb_printf(t, ",\"seats\":["); /* "players" is the count, written above */
    for (int s = 0, first = 1; s < n; s++) {
        cr_tb_printf(t, "%s{\"seat\":\"P%d\",\"alive\":%s,\"hand_count\":%d,\"hand_known\":",
                     first ? "" : ",", s, o->alive & (1u << s) ? "true" : "false",
                     o->zone_count[DML_Z_HAND + s]);
        first = 0;
        tb_json_cards(t, o->zone[DML_Z_HAND + s]);
        cr_tb_printf(t, ",\"front\":");
        tb_json_cards(t, o->zone[DML_Z_FRONT + s]);
        cr_tb_printf(t, ",\"king\":");
        if (o->zone[DML_Z_KING + s])
            cr_tb_printf(t, "\"%s\"", dml_card_code(lowest_card(o->zone[DML_Z_KING + s])));
        else
            cr_tb_printf(t, "null");
        cr_tb_printf(t, ",\"offer_count\":%d,\"offer_known\":", o->zone_count[DML_Z_OFFER + s]);
        tb_json_cards(t, o->zone[DML_Z_OFFER + s]);
        cr_tb_printf(t, "}");
    }
    cr_tb_printf(t, "],\"stocks\":{");
    for (int s = 0; s < 4; s++) {
        cr_tb_printf(t, "%s\"%c\":", s ? "," : "", suit_letters[s]);
        tb_json_cards(t, o->zone[DML_Z_STOCK] & DML_SUIT_MASK(s));
    }
    cr_tb_printf(t, "},\"deck_count\":%d", o->zone_count[DML_Z_DECK]);
    cr_tb_printf(t, ",\"discard\":{\"count\":%d,\"top\":", o->zone_count[DML_Z_DISCARD]);
    if (o->discard_top >= 0 && o->discard_top < DML_NCARDS)
        cr_tb_printf(t, "\"%s\"", dml_card_code(o->discard_top));
    else
        cr_tb_printf(t, "null");
    cr_tb_printf(t, ",\"known\":");
    tb_json_cards(t, o->zone[DML_Z_DISCARD]);
    cr_tb_printf(t, "},\"nest\":{\"count\":%d,\"known\":", o->zone_count[DML_Z_NEST]);
    tb_json_cards(t, o->zone[DML_Z_NEST]);
    cr_tb_printf(t, "},\"black_markets\":[");
    for (int k = 0, first = 1; k < DML_MAX_BM; k++) {
        int z = DML_Z_BM + k;
        if (!bm_live(o, k)) continue;
        cr_tb_printf(t, "%s{\"label\":%d,\"count\":%d,\"known\":", first ? "" : ",", o->bm_label[k],
                     o->zone_count[z]);
        first = 0;
        tb_json_cards(t, o->zone[z]);
        cr_tb_printf(t, ",\"may_contain\":");
        tb_json_cards(t, me >= 0 ? o->may[me][z] & ~obs_known(o) : 0);
        cr_tb_printf(t, "}");
    }
    cr_tb_printf(t, "],\"exile\":{\"count\":%d,\"known\":", o->zone_count[DML_Z_EXILE]);
    tb_json_cards(t, o->zone[DML_Z_EXILE]);
    cr_tb_printf(t, "},\"exiled_kings\":{\"count\":%d,\"known\":", o->zone_count[DML_Z_XKING]);
    tb_json_cards(t, o->zone[DML_Z_XKING]);
    cr_tb_printf(t, "},\"stack\":[");
    for (int i = 0; i < o->stack_n && i < DML_MAX_STACK; i++)
        cr_tb_printf(t, "%s{\"card\":\"%s\",\"seat\":\"P%d\",\"as\":\"%s\"}", i ? "," : "",
                     dml_card_code(o->stack_card[i]), o->stack_flag[i] & DML_SF_SEAT,
                     o->stack_flag[i] & DML_SF_EMBLEM ? "emblem" : "power");
    cr_tb_printf(t, "],\"buying\":{\"targets\":");
    tb_json_cards(t, o->zone[DML_Z_TARGET]);
    cr_tb_printf(t, ",\"commits\":");
    tb_json_cards(t, o->zone[DML_Z_COMMIT]);
    cr_tb_printf(t, ",\"suit\":");
    if (o->buy_suit >= 0 && o->buy_suit < 4)
        cr_tb_printf(t, "\"%c\"", suit_letters[o->buy_suit]);
    else
        cr_tb_printf(t, "null");
    cr_tb_printf(t, ",\"D\":%d,\"P\":%d,\"value\":%d,\"seizer\":", o->D, o->P, o->D + o->P);
    if (o->seizer >= 0)
        cr_tb_printf(t, "\"P%d\"", o->seizer);
    else
        cr_tb_printf(t, "null");
    cr_tb_printf(t, ",\"target_from\":");
    if (o->target_from >= 0 && o->zone_count[DML_Z_TARGET])
        cr_tb_json_str(t, zone_key(o, o->target_from, zb, sizeof zb));
    else
        cr_tb_printf(t, "null");
    cr_tb_printf(
        t, "},\"decision\":{\"need\":\"%s\",\"actor\":", o->need < 4 ? need_names[o->need] : "run");
    if (o->actor >= 0)
        cr_tb_printf(t, "\"P%d\"", o->actor);
    else
        cr_tb_printf(t, "null");
    cr_tb_printf(t, ",\"kind\":");
    if (o->need == DML_NEED_DECISION && o->kind > 0 && o->kind < N_DECISION_NAMES)
        cr_tb_printf(t, "\"%s\"", decision_names[o->kind]);
    else if (o->need == DML_NEED_CHANCE && o->kind > 0 && o->kind < N_CHANCE_NAMES)
        cr_tb_printf(t, "\"%s\"", chance_names[o->kind]);
    else
        cr_tb_printf(t, "null");
    char prompt[256];
    dml_prompt(g, o, prompt, sizeof prompt);
    cr_tb_printf(t, ",\"prompt\":");
    cr_tb_json_str(t, prompt);
    cr_tb_printf(t, "},\"over\":%s,\"winner\":", o->over ? "true" : "false");
    if (o->winner >= 0)
        cr_tb_printf(t, "\"P%d\"", o->winner);
    else
        cr_tb_printf(t, "null");
    cr_tb_printf(t, ",\"end_reason\":\"%s\",\"vp\":[",
                 o->end_reason < 5 ? end_names[o->end_reason] : "none");
    for (int s = 0; s < n; s++) cr_tb_printf(t, "%s%d", s ? "," : "", o->vp[s]);
    cr_tb_printf(t, "]");
    dml_display_json(g, t, o); /* derived fields for clients (display.c) */
    cr_tb_printf(t, "}");
    return t->len;
}

size_t dml_obs_to_text(const cr_game *g, const void *vobs, char *buf, size_t cap)
{
    const dml_state *o = vobs;
    cr_tbuf tb, *t = &tb;
    cr_tb_init(t, buf, cap);
    int me = o->obs_seat < 4 ? o->obs_seat : -1;
    int n = o->n <= 4 ? o->n : 4;

    cr_tb_printf(t, "Round %d \xc2\xb7 Dealer P%d \xc2\xb7 Active P%d \xc2\xb7 ", o->round,
                 o->dealer, o->active);
    obs_event_text(t, o);
    if (o->variant == DML_V_2015) /* 15.4.2's words */
        cr_tb_printf(t, "\nP%d has %d Market %s, %d Black Market %s left\n", o->active, o->actions,
                     o->actions == 1 ? "Action" : "Actions", o->minors,
                     o->minors == 1 ? "Action" : "Actions");
    else
        cr_tb_printf(t, "\nP%d has %d %s, %d %s left\n", o->active, o->actions,
                     o->actions == 1 ? "Action" : "Actions", o->minors,
                     o->minors == 1 ? "Minor Action" : "Minor Actions");
    cr_tb_printf(t, "Stocks (card=Value now)");
    for (int s = 0; s < 4; s++) {
        cr_tb_printf(t, " %s: ", dml_suit_name(s));
        uint64_t m = o->zone[DML_Z_STOCK] & DML_SUIT_MASK(s);
        if (m == 0) cr_tb_printf(t, "\xe2\x80\x94");
        for (int first = 1; m; m &= m - 1, first = 0) {
            int c = lowest_card(m);
            cr_tb_printf(t, "%s%s=%d", first ? "" : " ", dml_card_code(c), dml_target_value(o, c));
        }
    }
    cr_tb_printf(t, "\n");
    if (me >= 0) {
        cr_tb_printf(t, "Your hand (P%d): ", me);
        tb_text_cards(t, o->zone[DML_Z_HAND + me]);
        if (o->zone[DML_Z_KING + me])
            cr_tb_printf(t, "  King: %s", dml_card_code(lowest_card(o->zone[DML_Z_KING + me])));
        cr_tb_printf(t, "  Front: ");
        tb_text_cards(t, o->zone[DML_Z_FRONT + me]);
        if (o->zone[DML_Z_OFFER + me]) {
            cr_tb_printf(t, "  Offer: ");
            tb_text_cards(t, o->zone[DML_Z_OFFER + me]);
        }
        cr_tb_printf(t, "\n");
    }
    for (int s = 0; s < n; s++) {
        if (s == me) continue;
        int hc = o->zone_count[DML_Z_HAND + s];
        cr_tb_printf(t, "P%d%s: %d %s, front ", s, o->alive & (1u << s) ? "" : " (out)", hc,
                     hc == 1 ? "card" : "cards");
        tb_text_cards(t, o->zone[DML_Z_FRONT + s]);
        if (o->zone[DML_Z_HAND + s]) {
            cr_tb_printf(t, " (known in hand: ");
            tb_text_cards(t, o->zone[DML_Z_HAND + s]);
            cr_tb_printf(t, ")");
        }
        if (o->zone_count[DML_Z_OFFER + s])
            cr_tb_printf(t, ", offer %d", o->zone_count[DML_Z_OFFER + s]);
        if (o->zone[DML_Z_KING + s])
            cr_tb_printf(t, ", king %s", dml_card_code(lowest_card(o->zone[DML_Z_KING + s])));
        cr_tb_printf(t, "\n");
    }
    int any_bm = 0;
    for (int k = 0; k < DML_MAX_BM; k++) {
        if (!bm_live(o, k)) continue;
        int z = DML_Z_BM + k, c = o->zone_count[z];
        cr_tb_printf(t, "%s BM%d (%d %s", any_bm ? "," : "Black Markets:", o->bm_label[k], c,
                     c == 1 ? "card" : "cards");
        if (o->zone[z]) {
            cr_tb_printf(t, ": ");
            tb_text_cards(t, o->zone[z]);
        }
        uint64_t may = me >= 0 ? o->may[me][z] & ~obs_known(o) : 0;
        if (may && (size_t)popcount64(may) <= 12) {
            cr_tb_printf(t, "; may hold ");
            tb_text_cards(t, may);
        }
        cr_tb_printf(t, ")");
        any_bm = 1;
    }
    if (any_bm) cr_tb_printf(t, "\n");
    cr_tb_printf(t, "Deck %d \xc2\xb7 Discard %d", o->zone_count[DML_Z_DECK],
                 o->zone_count[DML_Z_DISCARD]);
    if (o->discard_top >= 0 && o->discard_top < DML_NCARDS)
        cr_tb_printf(t, " (top %s)", dml_card_code(o->discard_top));
    cr_tb_printf(t, " \xc2\xb7 Nest %d \xc2\xb7 Exile %d", o->zone_count[DML_Z_NEST],
                 o->zone_count[DML_Z_EXILE] + o->zone_count[DML_Z_XKING]);
    cr_tb_printf(t, "\n");
    if (o->zone_count[DML_Z_PILES]) { /* DML-2015's Setup (V-PD1) */
        cr_tb_printf(t, "Setup piles left (face down, a 2 and a 3 each):");
        for (int k = 0; k < 4; k++)
            if (o->pile[k][0]) cr_tb_printf(t, " %c", 'A' + k);
        cr_tb_printf(t, "\n");
    }
    if (o->stack_n) {
        cr_tb_printf(t, "Stack (bottom to top):");
        for (int i = 0; i < o->stack_n && i < DML_MAX_STACK; i++) {
            int c = o->stack_card[i], emblem = o->stack_flag[i] & DML_SF_EMBLEM;
            cr_tb_printf(t, " %s (P%d, %s", dml_card_code(c), o->stack_flag[i] & DML_SF_SEAT,
                         emblem ? "emblem" : "power");
            if (o->variant == DML_V_2015 && !emblem) /* the 2015 names (15.6) */
                cr_tb_printf(t, ": %s", dml_is_joker(c) ? "Thief" : dml_card_name_in(o, c));
            cr_tb_printf(t, ")");
        }
        cr_tb_printf(t, "\n");
    }
    if (o->zone[DML_Z_TARGET] || o->zone[DML_Z_COMMIT]) {
        cr_tb_printf(t, "Buying %s: targets ", dml_suit_name(o->buy_suit));
        tb_text_cards(t, o->zone[DML_Z_TARGET]);
        cr_tb_printf(t, ", committed ");
        tb_text_cards(t, o->zone[DML_Z_COMMIT]);
        cr_tb_printf(t, "; D %d, P %d, value %d", o->D, o->P, o->D + o->P);
        if (o->seizer >= 0) cr_tb_printf(t, "; seized by P%d", o->seizer);
        cr_tb_printf(t, "\n");
    }
    if (o->over) {
        if (o->winner >= 0)
            cr_tb_printf(t, "Game over: P%d wins", o->winner);
        else
            cr_tb_printf(t, "Game over: no winner");
        cr_tb_printf(t, " \xc2\xb7 VP");
        for (int s = 0; s < n; s++) cr_tb_printf(t, " P%d %d", s, o->vp[s]);
        cr_tb_printf(t, "\n");
    } else {
        char prompt[256];
        dml_prompt(g, o, prompt, sizeof prompt);
        cr_tb_printf(t, "%s\n", prompt);
    }
    return t->len;
}
