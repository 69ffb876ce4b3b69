/* notation.c — Dragon's Money Laundering in words: card codes and names,
 * zone names, the action notation (docs/notation.md), event lines and JSON,
 * and the one-line prompt of the decision in progress.
 *
 * Every action id has exactly one printed form in a given state, and the
 * parser maps every printed form back to that id, so a game record (one
 * action per line) replays through dml_str_to_action.  The parser only maps
 * text to an id: it never looks at legality (the caller checks the legal
 * list), and it accepts some synonyms ("pass"/"done", "stock S"/"stock
 * iron", any chance word before a card).  Words are case-insensitive and
 * separated by blanks.
 *
 * All writers follow snprintf: they return the full length the text needs
 * and write at most cap bytes, NUL-terminated when cap > 0.  Nothing here
 * allocates or keeps static mutable state.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "croupier/text.h"
#include "games/dml/dml_internal.h"

/* ---- cards ---- */

const uint64_t dml_rank_mask[15] = {
    [0] = ((uint64_t)1 << DML_X1) | ((uint64_t)1 << DML_X2),
#define DML_RANK_BITS(r)                                                                           \
    (((uint64_t)1 << (r - 2)) | ((uint64_t)1 << (13 + r - 2)) | ((uint64_t)1 << (26 + r - 2)) |    \
     ((uint64_t)1 << (39 + r - 2)))
    [2] = DML_RANK_BITS(2),
    [3] = DML_RANK_BITS(3),
    [4] = DML_RANK_BITS(4),
    [5] = DML_RANK_BITS(5),
    [6] = DML_RANK_BITS(6),
    [7] = DML_RANK_BITS(7),
    [8] = DML_RANK_BITS(8),
    [9] = DML_RANK_BITS(9),
    [10] = DML_RANK_BITS(10),
    [11] = DML_RANK_BITS(11),
    [12] = DML_RANK_BITS(12),
    [13] = DML_RANK_BITS(13),
    [14] = DML_RANK_BITS(14),
#undef DML_RANK_BITS
};

/* rank and suit by card id (dml_rank, dml_suit): a load instead of a
 * division on the hot path */
const int8_t dml_rank_of[DML_NCARDS] = {
    2, 3, 4, 5, 6, 7, 8, 9,  10, 11, 12, 13, 14, 2, 3, 4, 5, 6, 7, 8, 9,  10, 11, 12, 13, 14, 2,
    3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2,  3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0,  0,
};
const int8_t dml_suit_of[DML_NCARDS] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, -1, -1,
};

uint64_t dml_commodity_mask(void)
{
    uint64_t m = 0;
    for (int r = 2; r <= 10; r++) m |= dml_rank_mask[r];
    return m;
}

static const char *const card_codes[DML_NCARDS] = {
    "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS", "2C",
    "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "2H", "3H",
    "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH", "2D", "3D", "4D",
    "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD", "X1", "X2",
};

static const char *const card_names[DML_NCARDS] = {
    "Iron 2",
    "Iron 3",
    "Iron 4",
    "Iron 5",
    "Iron 6",
    "Iron 7",
    "Iron 8",
    "Iron 9",
    "Iron Guild",
    "Grand Inquisitor of Commerce",
    "Dragon Empress of Khitamar Wastelands",
    "Iron King",
    "Black Egg",
    "Wood 2",
    "Wood 3",
    "Wood 4",
    "Wood 5",
    "Wood 6",
    "Wood 7",
    "Wood 8",
    "Wood 9",
    "Wood Guild",
    "Vice Minister of Reclamations",
    "Harlot Queen of Port Sm\xc3\xa5rgon",
    "Wood King",
    "Blue Egg",
    "Slaves 2",
    "Slaves 3",
    "Slaves 4",
    "Slaves 5",
    "Slaves 6",
    "Slaves 7",
    "Slaves 8",
    "Slaves 9",
    "Slave Guild",
    "Prime Counsellor of Confiscations",
    "Pampered Heiress of Silver Sanctum",
    "Slave King",
    "Red Egg",
    "Spice 2",
    "Spice 3",
    "Spice 4",
    "Spice 5",
    "Spice 6",
    "Spice 7",
    "Spice 8",
    "Spice 9",
    "Spice Guild",
    "Supreme Secretary of Tithes",
    "Archduchess of Avarice Provinces",
    "Spice King",
    "Gold Egg",
    "Joker",
    "Joker",
};

const char *dml_card_code(int c) { return c >= 0 && c < DML_NCARDS ? card_codes[c] : "??"; }

const char *dml_card_name(int c)
{
    return c >= 0 && c < DML_NCARDS ? card_names[c] : "unknown card";
}

/* The edition's words (15.1, 15.6, 15.9, Appendix B): the Characters and
 * Guilds DML-2015 names otherwise; every other card keeps its 2016 name. */
int dml_edition(const dml_state *s)
{
    if (!s || s->variant != DML_V_2015) return DML_ED_2016;
    return (s->sw & DML_SW_CARDS_0615) ? DML_ED_2015_06 : DML_ED_2015;
}

int dml_edition_of_game(const cr_game *g)
{
    if (!g || g->variant_index != DML_V_2015) return DML_ED_2016;
    return g->opt[DML_OPT_CARDS_0615] ? DML_ED_2015_06 : DML_ED_2015;
}

const char *dml_card_name_ed(int ed, int c)
{
    if (ed == DML_ED_2016 || c < 0 || c >= DML_NCARDS) return dml_card_name(c);
    int r = dml_rank(c), su = dml_suit(c);
    if (r == DML_T) {
        static const char *const guild[4] = {"Iron Guild House", "Wood Guild House",
                                             "Slave Guild House", "Spice Guild House"};
        return guild[su];
    }
    if (r != DML_J && r != DML_Q) return dml_card_name(c);
    if (ed == DML_ED_2015_06) { /* cards-2015-06 (15.9) */
        static const char *const j06[4] = {"Grand Inquisitor", "Greed Vizier",
                                           "Troublesome Blabbermouth", "Goods Swindler"};
        if (r == DML_J) return j06[su];
        if (su == DML_SUIT_H) return "Mother of Dragons";
    }
    static const char *const j15[4] = {"Grand Inquisitor", "Rogue Jester", "Supreme Confisfactor",
                                       "Tithe Embezzeler"};
    static const char *const q15[4] = {"Dragon Empress of Khitamar", "Harlot Queen of Smorgon",
                                       "Pampered Heiress", "Archduchess of Avarice"};
    return r == DML_J ? j15[su] : q15[su];
}

const char *dml_card_name_in(const dml_state *s, int c)
{
    return dml_card_name_ed(dml_edition(s), c);
}

static int suit_of_char(int ch)
{
    switch (toupper(ch)) {
    case 'S': return DML_SUIT_S;
    case 'C': return DML_SUIT_C;
    case 'H': return DML_SUIT_H;
    case 'D': return DML_SUIT_D;
    default: return -1;
    }
}

/* "7S", "ts", "10S", "X1": exact (no blanks), case-insensitive. */
int dml_parse_card(const char *s)
{
    if (!s) return -1;
    size_t len = strlen(s);
    if (len == 2 && toupper((unsigned char)s[0]) == 'X') {
        if (s[1] == '1') return DML_X1;
        if (s[1] == '2') return DML_X2;
        return -1;
    }
    int rank = -1, suit = -1;
    if (len == 3 && s[0] == '1' && s[1] == '0') {
        rank = DML_T;
        suit = suit_of_char((unsigned char)s[2]);
    } else if (len == 2) {
        static const char ranks[] = "23456789TJQKA";
        const char *p = strchr(ranks, toupper((unsigned char)s[0]));
        if (p && *p) rank = (int)(p - ranks) + 2;
        suit = suit_of_char((unsigned char)s[1]);
    }
    if (rank < 0 || suit < 0) return -1;
    return dml_card(suit, rank);
}

const char *dml_suit_name(int s)
{
    static const char *const names[DML_NSUITS] = {"Iron", "Wood", "Slaves", "Spice"};
    return s >= 0 && s < DML_NSUITS ? names[s] : "none";
}

static const char suit_letters[] = "SCHD";

const char *dml_event_type_name(int t)
{
    switch (t) {
    case DML_EV_FCCC: return "FCCC Regulations";
    case DML_EV_HATED: return "The Hated People";
    case DML_EV_CUSTOMS: return "Customs Crackdown";
    case DML_EV_UNION: return "Merchant Union";
    case DML_EV_CARNIVAL: return "Carnival of Coin";
    case DML_EV_OPENING: return "Grand Opening";
    case DML_EV_ALLBETS: return "All Bets Are Off";
    case DML_EV_FRENZY: return "Buying Frenzy";
    default: return "none";
    }
}

const char *dml_event_type_name_ed(int ed, int t)
{
    static const char *const y2015[] = {
        [DML_EV_FCCC] = "Contraband Crackdown",
        [DML_EV_HATED] = "Marauders",
        [DML_EV_CUSTOMS] = "Decadence",
        [DML_EV_UNION] = "Tax Relief",
    };
    if (ed != DML_ED_2016 && t >= DML_EV_FCCC && t <= DML_EV_UNION) return y2015[t];
    return dml_event_type_name(t);
}

int dml_event_type_of(int card)
{
    if (card < 0 || card >= DML_NCARDS) return DML_EV_NONE;
    if (dml_is_joker(card)) return DML_EV_CARNIVAL;
    int r = dml_rank(card);
    if (r == DML_K || r == DML_A) return DML_EV_NONE;
    if (r == DML_J || r == DML_Q) return DML_EV_CARNIVAL;
    if (r == DML_T) return DML_EV_OPENING;
    return DML_EV_FCCC + dml_suit(card); /* S, C, H, D in enum order */
}

/* ---- zones ---- */

static const char *const fixed_zone_names[DML_Z_HAND] = {
    [DML_Z_DECK] = "deck",
    [DML_Z_EVENT] = "event",
    [DML_Z_DISCARD] = "discard",
    [DML_Z_NEST] = "nest",
    [DML_Z_STOCK] = "stock",
    [DML_Z_EXILE] = "exile",
    [DML_Z_XKING] = "exile (face down)",
    [DML_Z_STACK] = "stack",
    [DML_Z_TARGET] = "buying area",
    [DML_Z_COMMIT] = "committed",
    [DML_Z_POOL] = "pool",
};

/* Without a state a Black Market slot has no label: "black market #slot".
 * The fixed zones come back as literals; seat and slot zones are written
 * into buf (and buf is returned).  With buf NULL they get a generic word. */
const char *dml_zone_name(int z, char *buf, size_t cap)
{
    if (z >= 0 && z < DML_Z_HAND) return fixed_zone_names[z];
    static const char *const seat_words[4] = {"hand", "front", "king", "offer"};
    if (z == DML_Z_PILES) return "piles"; /* DML-2015's Setup (V8) */
    if (z >= DML_Z_HAND && z < DML_Z_PILES) {
        int kind = (z - DML_Z_HAND) / 4, seat = (z - DML_Z_HAND) % 4;
        if (!buf || cap == 0) return seat_words[kind];
        snprintf(buf, cap, "%s P%d", seat_words[kind], seat);
        return buf;
    }
    if (z >= DML_Z_BM && z < DML_NZONES) {
        if (!buf || cap == 0) return "black market";
        snprintf(buf, cap, "black market #%d", z - DML_Z_BM);
        return buf;
    }
    return "nowhere";
}

/* The live slot of the Black Market labelled `label`, or -1. */
static int bm_slot_of_label(const dml_state *st, long label)
{
    if (!st || label <= 0) return -1;
    for (int k = 0; k < DML_MAX_BM; k++)
        if (st->bm_label[k] == label &&
            (st->zone[DML_Z_BM + k] != 0 || st->zone_count[DML_Z_BM + k] != 0))
            return k;
    return -1;
}

/* Label of slot k if it is live in st, else 0. */
static int bm_live_label(const dml_state *st, int k)
{
    if (!st || k < 0 || k >= DML_MAX_BM) return 0;
    if (st->zone[DML_Z_BM + k] == 0 && st->zone_count[DML_Z_BM + k] == 0) return 0;
    return st->bm_label[k];
}

/* ---- actions ---- */

static const char *draw_word(const dml_state *st)
{
    if (!st || st->need != DML_NEED_CHANCE) return "draw";
    switch (st->kind) {
    case DML_C_POOL:
    case DML_C_PILE: return "deal";
    case DML_C_HAND:
    case DML_C_BM: return "pick";
    case DML_C_NEST: return "egg";
    default: return "draw";
    }
}

static void roll_of_index(int i, int *a, int *b)
{
    for (int x = 1; x <= 6; x++)
        for (int y = x; y <= 6; y++)
            if (dml_roll_index(x, y) == i) {
                *a = x;
                *b = y;
                return;
            }
    *a = *b = 0;
}

size_t dml_action_to_str(const cr_game *g, const void *vst, cr_action a, char *buf, size_t cap)
{
    (void)g;
    const dml_state *st = vst;
    cr_tbuf t;
    cr_tb_init(&t, buf, cap);
    if (a >= DML_A_CARD && a < DML_A_CARD + DML_NCARDS) {
        cr_tb_printf(&t, "%s", dml_card_code(a - DML_A_CARD));
    } else if (a >= DML_A_POWER && a < DML_A_POWER + DML_NCARDS) {
        cr_tb_printf(&t, "power %s", dml_card_code(a - DML_A_POWER));
    } else if (a >= DML_A_EMBLEM && a < DML_A_EMBLEM + DML_NCARDS) {
        cr_tb_printf(&t, "emblem %s", dml_card_code(a - DML_A_EMBLEM));
    } else if (a >= DML_A_CALLBACK && a < DML_A_CALLBACK + DML_NCARDS) {
        cr_tb_printf(&t, "callback %s", dml_card_code(a - DML_A_CALLBACK));
    } else if ((a >= DML_A_VISIT && a < DML_A_VISIT + DML_MAX_BM) ||
               (a >= DML_A_BMPICK && a < DML_A_BMPICK + DML_MAX_BM)) {
        int visit = a < DML_A_BMPICK;
        int k = a - (visit ? DML_A_VISIT : DML_A_BMPICK);
        int label = bm_live_label(st, k);
        if (label)
            cr_tb_printf(&t, "%s BM%d", visit ? "visit" : "search", label);
        else
            cr_tb_printf(&t, "%s #%d", visit ? "visit" : "search", k);
    } else if (a >= DML_A_PLAYER && a < DML_A_PLAYER + 4) {
        cr_tb_printf(&t, "P%d", a - DML_A_PLAYER);
    } else if (a >= DML_A_STOCK && a < DML_A_STOCK + 4) {
        cr_tb_printf(&t, "stock %c", suit_letters[a - DML_A_STOCK]);
    } else if (a >= DML_A_ROLL && a < DML_A_ROLL + 21) {
        int x, y;
        roll_of_index(a - DML_A_ROLL, &x, &y);
        cr_tb_printf(&t, "roll %d %d", x, y);
    } else if (a >= DML_A_DRAW && a < DML_A_DRAW + DML_NCARDS) {
        cr_tb_printf(&t, "%s %s", draw_word(st), dml_card_code(a - DML_A_DRAW));
    } else if (a >= DML_A_PILE && a < DML_A_PILE + 4) {
        cr_tb_printf(&t, "pile %c", 'A' + (a - DML_A_PILE));
    } else if (a >= DML_A_WAGER && a < DML_A_WAGER + 51) {
        cr_tb_printf(&t, "wager %d", a - DML_A_WAGER);
    } else if (a >= DML_A_SUIT && a < DML_A_SUIT + 4) {
        cr_tb_printf(&t, "name %c", suit_letters[a - DML_A_SUIT]);
    } else {
        switch (a) {
        case DML_A_BUY: cr_tb_printf(&t, "buy"); break;
        case DML_A_PLAY: cr_tb_printf(&t, "play"); break;
        case DML_A_SUBSTITUTE: cr_tb_printf(&t, "substitute"); break;
        case DML_A_NOTHING: cr_tb_printf(&t, "nothing"); break;
        case DML_A_END: cr_tb_printf(&t, "end"); break;
        case DML_A_DONE: cr_tb_printf(&t, "%s", st && st->sel_n == 0 ? "pass" : "done"); break;
        case DML_A_UNDO: cr_tb_printf(&t, "undo"); break;
        case DML_A_REROLL: cr_tb_printf(&t, "reroll"); break;
        case DML_A_KEEP: cr_tb_printf(&t, "keep"); break;
        case DML_A_GIVE: cr_tb_printf(&t, "give"); break;
        case DML_A_TAKE: cr_tb_printf(&t, "take"); break;
        default: cr_tb_printf(&t, "action#%d", (int)a); break;
        }
    }
    return t.len;
}

/* Splits a lowercased copy of s into at most 4 words (blanks and commas
 * separate).  Returns the word count, or -1 when the text is too long or
 * has too many words. */
enum { MAX_WORDS = 4, MAX_TEXT = 64 };
static int split_words(const char *s, char *copy, char *words[MAX_WORDS])
{
    size_t len = strlen(s);
    if (len >= MAX_TEXT) return -1;
    for (size_t i = 0; i <= len; i++) copy[i] = (char)tolower((unsigned char)s[i]);
    int n = 0;
    char *p = copy;
    for (;;) {
        while (*p && (isspace((unsigned char)*p) || *p == ',')) p++;
        if (!*p) break;
        if (n == MAX_WORDS) return -1;
        words[n++] = p;
        while (*p && !isspace((unsigned char)*p) && *p != ',') p++;
        if (*p) *p++ = '\0';
    }
    return n;
}

static int parse_small_int(const char *w, int lo, int hi)
{
    if (!*w) return -1;
    int v = 0;
    for (const char *p = w; *p; p++) {
        if (!isdigit((unsigned char)*p)) return -1;
        v = v * 10 + (*p - '0');
        if (v > 100000) return -1;
    }
    return v >= lo && v <= hi ? v : -1;
}

/* "p2" -> 2 */
static int parse_seat_word(const char *w)
{
    if (w[0] != 'p' || !w[1] || w[2]) return -1;
    return w[1] >= '0' && w[1] <= '3' ? w[1] - '0' : -1;
}

static int parse_suit_word(const char *w)
{
    if (w[0] && !w[1]) return suit_of_char((unsigned char)w[0]);
    if (!strcmp(w, "iron")) return DML_SUIT_S;
    if (!strcmp(w, "wood")) return DML_SUIT_C;
    if (!strcmp(w, "slaves") || !strcmp(w, "slave")) return DML_SUIT_H;
    if (!strcmp(w, "spice")) return DML_SUIT_D;
    return -1;
}

/* "bm3" (a live label in st) or "#7" (a slot). */
static int parse_bm_word(const dml_state *st, const char *w)
{
    if (w[0] == '#') return parse_small_int(w + 1, 0, DML_MAX_BM - 1);
    if (w[0] == 'b' && w[1] == 'm') {
        int label = parse_small_int(w + 2, 1, 65535);
        return label < 0 ? -1 : bm_slot_of_label(st, label);
    }
    return -1;
}

static const struct {
    const char *word;
    cr_action action;
} single_words[] = {
    {"buy", DML_A_BUY},         {"play", DML_A_PLAY},       {"substitute", DML_A_SUBSTITUTE},
    {"nothing", DML_A_NOTHING}, {"end", DML_A_END},         {"done", DML_A_DONE},
    {"pass", DML_A_DONE},       {"undo", DML_A_UNDO},       {"reroll", DML_A_REROLL},
    {"re-roll", DML_A_REROLL},  {"keep", DML_A_KEEP},       {"give", DML_A_GIVE},
    {"take", DML_A_TAKE},       {"forfeit", DML_A_NOTHING}, /* DML-2015's word */
};

cr_status dml_str_to_action(const cr_game *g, const void *vst, const char *s, cr_action *out)
{
    (void)g;
    const dml_state *st = vst;
    char copy[MAX_TEXT];
    char *w[MAX_WORDS];
    if (!s || !out) return CR_ERR_PARSE;
    int n = split_words(s, copy, w);
    if (n <= 0) return CR_ERR_PARSE;

    if (n == 1) {
        int c = dml_parse_card(w[0]);
        if (c >= 0) {
            *out = DML_A_CARD + c;
            return CR_OK;
        }
        int p = parse_seat_word(w[0]);
        if (p >= 0) {
            *out = DML_A_PLAYER + p;
            return CR_OK;
        }
        for (size_t i = 0; i < sizeof single_words / sizeof single_words[0]; i++)
            if (!strcmp(w[0], single_words[i].word)) {
                *out = single_words[i].action;
                return CR_OK;
            }
        return CR_ERR_PARSE;
    }
    if (n == 2) {
        int c = dml_parse_card(w[1]);
        if (c >= 0) {
            if (!strcmp(w[0], "power")) {
                *out = DML_A_POWER + c;
                return CR_OK;
            }
            if (!strcmp(w[0], "emblem")) {
                *out = DML_A_EMBLEM + c;
                return CR_OK;
            }
            if (!strcmp(w[0], "callback")) {
                *out = DML_A_CALLBACK + c;
                return CR_OK;
            }
            if (!strcmp(w[0], "draw") || !strcmp(w[0], "deal") || !strcmp(w[0], "pick") ||
                !strcmp(w[0], "egg")) {
                *out = DML_A_DRAW + c;
                return CR_OK;
            }
            return CR_ERR_PARSE;
        }
        if (!strcmp(w[0], "visit") || !strcmp(w[0], "search")) {
            int k = parse_bm_word(st, w[1]);
            if (k < 0) return CR_ERR_PARSE;
            *out = (w[0][0] == 'v' ? DML_A_VISIT : DML_A_BMPICK) + k;
            return CR_OK;
        }
        if (!strcmp(w[0], "stock") || !strcmp(w[0], "name")) {
            int su = parse_suit_word(w[1]);
            if (su < 0) return CR_ERR_PARSE;
            *out = (w[0][0] == 's' ? DML_A_STOCK : DML_A_SUIT) + su;
            return CR_OK;
        }
        if (!strcmp(w[0], "pile")) { /* DML-2015's Setup: pile A..D (V-PD1) */
            int k = w[1][0] >= 'a' && w[1][0] <= 'd' && !w[1][1] ? w[1][0] - 'a' : -1;
            if (k < 0) return CR_ERR_PARSE;
            *out = DML_A_PILE + k;
            return CR_OK;
        }
        if (!strcmp(w[0], "wager")) { /* bm-wager (V-PD6) */
            int m = parse_small_int(w[1], 0, 50);
            if (m < 0) return CR_ERR_PARSE;
            *out = DML_A_WAGER + m;
            return CR_OK;
        }
        return CR_ERR_PARSE;
    }
    if (n == 3 && !strcmp(w[0], "roll")) {
        int x = parse_small_int(w[1], 1, 6), y = parse_small_int(w[2], 1, 6);
        if (x < 0 || y < 0) return CR_ERR_PARSE;
        if (x > y) {
            int tmp = x;
            x = y;
            y = tmp;
        }
        *out = DML_A_ROLL + dml_roll_index(x, y);
        return CR_OK;
    }
    return CR_ERR_PARSE;
}

/* ---- prompt ---- */

static void tb_cards_seq(cr_tbuf *t, const dml_state *st, int from, int to, int with_flags)
{
    for (int i = from; i < to; i++) {
        cr_tb_printf(t, "%s%s", i > from ? " " : "", dml_card_code(st->sel[i]));
        if (with_flags)
            cr_tb_printf(t, " (%s)", dml_sel_flag(st, i) & DML_SF_EMBLEM ? "emblem" : "power");
    }
}

static const char *plural(int n, const char *one, const char *many) { return n == 1 ? one : many; }

/* The Declaration value of the targets chosen so far (7.1): the rules'
 * own computation (each edition's events included). */
static int declaration_value(const dml_state *st, int *suit_out)
{
    if (st->sel_targets == 0 || st->sel_n == 0) {
        *suit_out = -1;
        return 0;
    }
    *suit_out = dml_suit(st->sel[0]);
    return dml_declaration_value(st);
}

/* "Dabo! — (3,3) against 8 fails; keep it, or re-roll: 41.7% to succeed" */
static void prompt_dabo(cr_tbuf *t, const dml_state *st)
{
    int d0 = st->die[0], d1 = st->die[1], target = DML_NO_TARGET;
    for (int i = st->nfr - 1; i >= 0 && i < DML_MAX_FRAMES; i--)
        if (st->fr[i].proc == DML_P_CHECK) {
            target = st->fr[i].x;
            break;
        }
    cr_tb_printf(t, "Dabo! \xe2\x80\x94 re-roll or keep (%d,%d)", d0, d1);
    if (target == DML_NO_TARGET) {
        cr_tb_printf(t, " (Dealer roll-off: total %d)", d0 + d1);
        return;
    }
    int sp, ok = dml_check_eval(d0, d1, target, &sp), succ, dabo_fail;
    dml_roll_odds(target, &succ, &dabo_fail);
    cr_tb_printf(t,
                 ": against %d it %s; re-rolling (and again on every failing Dabo! double) "
                 "succeeds %.1f%% of the time",
                 target, ok ? "succeeds" : "fails", 100.0 * succ / (36 - dabo_fail));
}

static void prompt_decision(cr_tbuf *t, const dml_state *st)
{
    int s = st->actor;
    cr_tb_printf(t, "P%d: ", s);
    switch (st->kind) {
    case DML_D_DABO: prompt_dabo(t, st); break;
    case DML_D_MARKET:
        if (st->variant == DML_V_2015) { /* 15.4.2: the Market Actions, then the BM Action */
            cr_tb_printf(t,
                         "Market Phase \xe2\x80\x94 %d Market %s, then %d Black Market %s "
                         "left; the next one to use or forfeit",
                         st->actions, plural(st->actions, "Action", "Actions"), st->minors,
                         plural(st->minors, "Action", "Actions"));
            break;
        }
        cr_tb_printf(t, "Market Phase \xe2\x80\x94 %d %s, %d %s left", st->actions,
                     plural(st->actions, "Action", "Actions"), st->minors,
                     plural(st->minors, "Minor Action", "Minor Actions"));
        break;
    case DML_D_DECLARE: {
        int x;
        int v = declaration_value(st, &x);
        cr_tb_printf(t, "Declaration \xe2\x80\x94 choose target cards, then commits, then done");
        if (st->sel_n > 0) {
            cr_tb_printf(t, "; so far: target ");
            tb_cards_seq(t, st, 0, st->sel_targets, 0);
            if (st->sel_n > st->sel_targets) {
                cr_tb_printf(t, ", commit ");
                tb_cards_seq(t, st, st->sel_targets, st->sel_n, 0);
            }
            cr_tb_printf(t, " (%s, value %d)", dml_suit_name(x), v);
        }
        break;
    }
    case DML_D_OFFER:
        cr_tb_printf(t,
                     "Seize offer on the Declaration (%s, value %d) \xe2\x80\x94 place %s "
                     "face-down or pass",
                     dml_suit_name(st->buy_suit), st->D,
                     st->variant == DML_V_2015 ? "one card" : "cards");
        if (st->sel_n > 0) {
            cr_tb_printf(t, "; so far: ");
            tb_cards_seq(t, st, 0, st->sel_n, 0);
        }
        break;
    case DML_D_COMMIT_ACT:
    case DML_D_COMMIT_PAS: {
        int x = st->buy_suit;
        int prim = x >= 0 && x < 4 ? dml_prim_of(st, x) : -1;
        if (st->kind == DML_D_COMMIT_ACT)
            cr_tb_printf(
                t, "Resolution \xe2\x80\x94 commit %s (primary) or %s (secondary) cards, or pass",
                dml_suit_name(prim), dml_suit_name(x >= 0 && x < 4 ? dml_sec(x) : -1));
        else
            cr_tb_printf(t, "Resolution \xe2\x80\x94 commit %s cards, or pass",
                         dml_suit_name(prim));
        cr_tb_printf(t, " (%s: D %d, P %d, value %d)", dml_suit_name(x), st->D, st->P,
                     st->D + st->P);
        if (st->sel_n > 0) {
            cr_tb_printf(t, "; so far: ");
            tb_cards_seq(t, st, 0, st->sel_n, 0);
        }
        break;
    }
    case DML_D_STACK:
        cr_tb_printf(t,
                     "%sStack priority \xe2\x80\x94 play cards as Power or Emblem, then done; "
                     "or pass",
                     st->variant == DML_V_2015 ? "Character Power Phase: " : "");
        if (st->sel_n > 0) {
            cr_tb_printf(t, "; so far: ");
            tb_cards_seq(t, st, 0, st->sel_n, 1);
        }
        break;
    case DML_D_VICE:
        cr_tb_printf(t,
                     "Vice Minister \xe2\x80\x94 choose an Emblem to return to its owner's Hand");
        break;
    case DML_D_COUNSEL_BM:
        cr_tb_printf(t, "Prime Counsellor \xe2\x80\x94 choose a Black Market to search");
        break;
    case DML_D_COUNSEL_CARD: {
        int label = bm_live_label(st, st->karg);
        if (label)
            cr_tb_printf(t, "Prime Counsellor \xe2\x80\x94 take one card of BM%d", label);
        else
            cr_tb_printf(t, "Prime Counsellor \xe2\x80\x94 take one card of the Black Market");
        break;
    }
    case DML_D_TITHE:
        if (st->resolving_seat >= 0)
            cr_tb_printf(t, "Tithe \xe2\x80\x94 give one card of your Hand to P%d",
                         st->resolving_seat);
        else
            cr_tb_printf(t, "Tithe \xe2\x80\x94 give one card of your Hand");
        break;
    case DML_D_HARLOT:
        cr_tb_printf(t, "Harlot Queen \xe2\x80\x94 choose a card on the Stack to exile");
        break;
    case DML_D_ARCHDUCHESS:
        cr_tb_printf(t, "Archduchess \xe2\x80\x94 choose a Stock to take");
        break;
    case DML_D_THIEF_MODE:
        cr_tb_printf(t, "Thief \xe2\x80\x94 give a card of your Hand, or take a random card");
        break;
    case DML_D_THIEF_CARD: cr_tb_printf(t, "Thief \xe2\x80\x94 choose the card to give"); break;
    case DML_D_THIEF_PLAYER: /* the Thief's frame waits at step 2 to give, 4 to take */
        cr_tb_printf(t, "Thief \xe2\x80\x94 choose the player %s",
                     st->nfr && st->fr[st->nfr - 1].step == 2 ? "to give a card to"
                                                              : "to take a random card from");
        break;
    case DML_D_PILE:
        cr_tb_printf(t, "Setup \xe2\x80\x94 choose a face-down pile (each holds a 2 and a 3)");
        break;
    case DML_D_WAGER:
        cr_tb_printf(t, "Black Market attempt \xe2\x80\x94 wager M cards: the roll is against "
                        "7 - M");
        break;
    case DML_D_LEAVE:
        cr_tb_printf(t, "Black Market \xe2\x80\x94 choose the %d %s you wagered to leave in it",
                     st->karg, plural(st->karg, "card", "cards"));
        if (st->sel_n > 0) {
            cr_tb_printf(t, "; so far: ");
            tb_cards_seq(t, st, 0, st->sel_n, 0);
        }
        break;
    case DML_D_NAME_SUIT:
        cr_tb_printf(t, "Troublesome Blabbermouth \xe2\x80\x94 name a suit: cards are drawn "
                        "until a Commodity of it comes up");
        break;
    default: cr_tb_printf(t, "decision %d", st->kind); break;
    }
}

static const char *end_reason_word(int r)
{
    switch (r) {
    case DML_END_VP: return "Victory Points";
    case DML_END_MONOPOLY: return "Monopoly";
    case DML_END_FATHER: return "Father of Dragons";
    case DML_END_LAST: return "last merchant standing";
    default: return "ended";
    }
}

size_t dml_prompt(const cr_game *g, const void *vst, char *buf, size_t cap)
{
    (void)g;
    const dml_state *st = vst;
    cr_tbuf t;
    cr_tb_init(&t, buf, cap);
    if (st->over || st->need == DML_NEED_OVER) {
        if (st->winner >= 0)
            cr_tb_printf(&t, "Game over \xe2\x80\x94 P%d wins (%s)", st->winner,
                         end_reason_word(st->end_reason));
        else
            cr_tb_printf(&t, "Game over \xe2\x80\x94 no winner (%s)",
                         end_reason_word(st->end_reason));
        return t.len;
    }
    if (st->need == DML_NEED_CHANCE) {
        switch (st->kind) {
        case DML_C_ROLL:
            if (st->actor >= 0)
                cr_tb_printf(&t, "Chance: P%d rolls the dice", st->actor);
            else
                cr_tb_printf(&t, "Chance: roll the dice");
            break;
        case DML_C_DECK: cr_tb_printf(&t, "Chance: draw a card from the Deck"); break;
        case DML_C_POOL: cr_tb_printf(&t, "Chance: deal a card of rank %d", st->karg); break;
        case DML_C_HAND:
            cr_tb_printf(&t, "Chance: pick a random card of hand P%d", st->karg);
            break;
        case DML_C_BM: {
            int label = bm_live_label(st, st->karg);
            if (label)
                cr_tb_printf(&t, "Chance: pick a random card of BM%d", label);
            else
                cr_tb_printf(&t, "Chance: pick a random card of a Black Market");
            break;
        }
        case DML_C_NEST: cr_tb_printf(&t, "Chance: take an egg from the Nest"); break;
        case DML_C_PILE:
            cr_tb_printf(&t, "Chance: deal a %d face-down into pile %c", (st->karg >> 2) ? 3 : 2,
                         'A' + (st->karg & 3));
            break;
        default: cr_tb_printf(&t, "Chance"); break;
        }
        return t.len;
    }
    if (st->need == DML_NEED_DECISION && st->actor >= 0 && st->actor < 4) {
        prompt_decision(&t, st);
        return t.len;
    }
    cr_tb_printf(&t, "(running)");
    return t.len;
}

/* ---- events ---- */

static const char *event_kind_name(int k)
{
    static const char *const names[] = {
        [DML_E_MOVE] = "move",
        [DML_E_ROUND] = "round",
        [DML_E_EVENT] = "event",
        [DML_E_TURN] = "turn",
        [DML_E_BUDGET] = "budget",
        [DML_E_POWER_PHASE] = "power_phase",
        [DML_E_ROLL] = "roll",
        [DML_E_DABO] = "dabo",
        [DML_E_CHECK] = "check",
        [DML_E_DECISION] = "decision",
        [DML_E_DECLARE] = "declare",
        [DML_E_OFFER] = "offer",
        [DML_E_SEIZE] = "seize",
        [DML_E_VALUE] = "value",
        [DML_E_BM_NEW] = "bm_new",
        [DML_E_BM_GONE] = "bm_gone",
        [DML_E_SIEGE] = "siege",
        [DML_E_REVEAL] = "reveal",
        [DML_E_ELIMINATED] = "eliminated",
        [DML_E_FOREIGN] = "foreign_merchant",
        [DML_E_RESOLVE] = "resolve",
        [DML_E_VP] = "vp",
        [DML_E_END] = "end",
        [DML_E_SETUP] = "setup",
        [DML_E_SIEGE_SEAT] = "siege_seat",
        [DML_E_VP_SUIT] = "vp_suit",
    };
    if (k > 0 && k < (int)(sizeof names / sizeof names[0]) && names[k]) return names[k];
    return "unknown";
}

/* The card of e as `seat` knows it (a seat, CR_SEAT_PUBLIC: what every
 * seat sees, CR_SEAT_OMNISCIENT), or -1 when hidden from it. */
static int visible_card(const cr_game *g, const cr_event *e, int seat)
{
    if (e->card < 0 || e->card >= DML_NCARDS) return -1;
    if (seat == CR_SEAT_OMNISCIENT) return e->card;
    if (seat == CR_SEAT_PUBLIC) {
        unsigned all = (1u << (g ? g->num_players : 4)) - 1;
        return (e->seen_by & all) == all ? e->card : -1;
    }
    if (seat >= 0 && seat < 4 && (e->seen_by & (1u << seat))) return e->card;
    return -1;
}

static void tb_seat_list(cr_tbuf *t, unsigned mask)
{
    int first = 1;
    for (int s = 0; s < 4; s++)
        if (mask & (1u << s)) {
            cr_tb_printf(t, "%sP%d", first ? "" : ", ", s);
            first = 0;
        }
    if (first) cr_tb_printf(t, "nobody");
}

/* A zone of an event as the log names it: a Black Market by its label
 * ("BM3", carried in the event) as the menus do, else dml_zone_name. */
static const char *event_zone_name(const cr_event *e, int z, char *buf, size_t cap)
{
    if (z >= DML_Z_BM && z < DML_NZONES && e->a > 0) {
        snprintf(buf, cap, "BM%d", (int)e->a);
        return buf;
    }
    return dml_zone_name(z, buf, cap);
}

/* The action of a DECISION event without a state: a Black Market by the
 * label the event carries in b ("visit BM3"), like the menus. */
static void decision_action_text(const cr_game *g, const cr_event *e, char *buf, size_t cap)
{
    int a = e->a;
    int visit = a >= DML_A_VISIT && a < DML_A_VISIT + DML_MAX_BM;
    int search = a >= DML_A_BMPICK && a < DML_A_BMPICK + DML_MAX_BM;
    if ((visit || search) && e->b > 0)
        snprintf(buf, cap, "%s BM%d", visit ? "visit" : "search", (int)e->b);
    else
        dml_action_to_str(g, NULL, a, buf, cap);
}

/* "P1 holds 2 Dragon Eggs and 1 Shield: ..." (DML_E_SIEGE_SEAT); ed: the
 * edition (DML-2015's Siege takes the eggs only, V3) */
static void tb_siege_seat(cr_tbuf *t, const cr_event *e, int ed)
{
    if (e->seat < 0) {
        cr_tb_printf(t, "Nobody holds a Dragon Egg: the Siege takes nothing");
        return;
    }
    int eggs = e->a, shields = e->b & 0xff, rest = e->other;
    int fire = (e->b & DML_SIEGE_FIRE) != 0;
    cr_tb_printf(t, "P%d holds %d Dragon %s and has %d Shield%s (Iron Emblems in the Front)",
                 e->seat, eggs, plural(eggs, "Egg", "Eggs"), shields, plural(shields, "", "s"));
    if (shields >= eggs)
        cr_tb_printf(t, ": enough Shields, the Siege takes nothing");
    else if (fire)
        cr_tb_printf(t, ": too few Shields, so I See Fire eliminates P%d", e->seat);
    else if (ed != DML_ED_2016)
        cr_tb_printf(t, ": too few Shields, so the %s to the Nest; the rest of the Hand stays",
                     plural(eggs, "Egg goes", "Eggs go"));
    else
        cr_tb_printf(t,
                     ": too few Shields, so the %s to the Nest and %d of the %d other %s "
                     "(half, rounded up) %s to the Discard Pile",
                     plural(eggs, "Egg goes", "Eggs go"), (rest + 1) / 2, rest,
                     plural(rest, "card", "cards"), plural((rest + 1) / 2, "goes", "go"));
}

/* A zone of a card movement in the guide's words: "the Deck", "P1's Hand",
 * "the Iron Stock" (the suit is the card's, named only when the card is
 * seen), "BM2".  `dest`: the zone the card goes to, with its preposition
 * (" to the Discard Pile", " as the Event", " to P0 as Merchant King");
 * else the zone it leaves, after "from". */
static void tb_move_zone(cr_tbuf *t, const cr_event *e, int z, int card, int dest)
{
    if (dest) cr_tb_printf(t, z == DML_Z_EVENT ? " as" : " to");
    if (z == DML_Z_PILES) {
        cr_tb_printf(t, " the piles");
        return;
    }
    if (z >= DML_Z_HAND && z < DML_Z_PILES) {
        int kind = (z - DML_Z_HAND) / 4, seat = (z - DML_Z_HAND) % 4;
        if (kind == 2 && dest)
            cr_tb_printf(t, " P%d as Merchant King", seat);
        else
            cr_tb_printf(
                t, " P%d's %s", seat,
                (const char *const[]){"Hand", "Front", "Merchant King", "Seize offer"}[kind]);
        return;
    }
    if (z >= DML_Z_BM && z < DML_NZONES) {
        if (e->a > 0)
            cr_tb_printf(t, " BM%d", (int)e->a);
        else
            cr_tb_printf(t, " a Black Market");
        return;
    }
    switch (z) {
    case DML_Z_DECK: cr_tb_printf(t, " the Deck"); break;
    case DML_Z_EVENT: cr_tb_printf(t, " the Event"); break;
    case DML_Z_DISCARD: cr_tb_printf(t, " the Discard Pile"); break;
    case DML_Z_NEST: cr_tb_printf(t, " the Nest"); break;
    case DML_Z_STOCK:
        if (card >= 0 && !dml_is_joker(card))
            cr_tb_printf(t, " the %s Stock", dml_suit_name(dml_suit(card)));
        else
            cr_tb_printf(t, " a Stock");
        break;
    case DML_Z_EXILE: cr_tb_printf(t, " Exile"); break;
    case DML_Z_XKING: cr_tb_printf(t, " Exile (face down)"); break;
    case DML_Z_STACK: cr_tb_printf(t, " the Stack"); break;
    case DML_Z_TARGET: cr_tb_printf(t, " the buying area (target)"); break;
    case DML_Z_COMMIT: cr_tb_printf(t, " the buying area (committed)"); break;
    case DML_Z_POOL: cr_tb_printf(t, " the deal"); break;
    default: cr_tb_printf(t, " somewhere else"); break;
    }
}

/* A card movement (DML_E_MOVE) without a verb that agrees with the card,
 * so that the summaries' merge of lines sharing a tail stays grammatical
 * ("2C, 3D from the Deck to P0's Hand"): "JS from the Deck to the Discard
 * Pile", "a card from BM1 to P2's Hand".  The deal at setup says so: "2S
 * dealt to P0's Hand", "KS dealt to P0 as Merchant King", "a Merchant King
 * dealt to P1 (face down)".  card: as the reader sees it, -1 hidden. */
static void tb_move(cr_tbuf *t, const cr_event *e, int card)
{
    const char *code = card >= 0 ? dml_card_code(card) : "a card";
    int king = e->to >= DML_Z_KING && e->to < DML_Z_KING + 4;
    if (e->from == DML_Z_POOL) {
        if (king && card < 0)
            cr_tb_printf(t, "a Merchant King dealt to P%d (face down)", e->to - DML_Z_KING);
        else {
            cr_tb_printf(t, "%s dealt", code);
            tb_move_zone(t, e, e->to, card, 1);
        }
        return;
    }
    cr_tb_printf(t, "%s from", code);
    tb_move_zone(t, e, e->from, card, 0);
    tb_move_zone(t, e, e->to, card, 1);
}

/* Why an Event affects the seats it does (DML_E_EVENT; 5.1, R7, R10;
 * DML-2015's 15.8 and its switches' special events). */
static void tb_event_why(cr_tbuf *t, const cr_event *e)
{
    int suit_event = e->a >= DML_EV_FCCC && e->a <= DML_EV_UNION;
    if (e->to == 1)
        cr_tb_printf(t, ": Market Mayhem has no Player Effects");
    else if (suit_event && e->other)
        cr_tb_printf(t, ": a Hand of %d or more cards at the Event Phase", (int)e->b);
    else if (suit_event)
        cr_tb_printf(t, ": no Hand holds %d or more cards at the Event Phase", (int)e->b);
    else if (e->a == DML_EV_CARNIVAL || e->a == DML_EV_OPENING || e->a == DML_EV_ALLBETS ||
             e->a == DML_EV_FRENZY)
        cr_tb_printf(t, ": every player, whatever the size of the Hand");
}

/* What a decision the notation alone leaves unsaid does (DML_E_DECISION),
 * after "P0: nothing"; ed: the edition (DML-2015 forfeits, piles, wagers,
 * suits named). */
static void tb_decision_words(cr_tbuf *t, const cr_event *e, int ed)
{
    int a = e->a, p = e->seat;
    if (a == DML_A_NOTHING && ed != DML_ED_2016) {
        cr_tb_printf(t, " (forfeits the next action of the Market Phase: a Market Action while "
                        "one is left, else the Black Market Action)");
    } else if (a == DML_A_END && ed != DML_ED_2016) {
        cr_tb_printf(t, " (forfeits every action left: the Market Phase ends)");
    } else if (a >= DML_A_VISIT && a < DML_A_VISIT + DML_MAX_BM && ed != DML_ED_2016) {
        cr_tb_printf(t, " (a Black Market attempt: a Market Action used this way while one is "
                        "left, else the Black Market Action)");
    } else if (a >= DML_A_PILE && a < DML_A_PILE + 4) {
        cr_tb_printf(t, " (the face-down pile's 2 and 3 go to P%d's Hand)", p);
    } else if (a >= DML_A_WAGER && a < DML_A_WAGER + 51) {
        int m = a - DML_A_WAGER;
        cr_tb_printf(t,
                     " (the roll is against 7 - %d = %d; success: P%d leaves %d %s of the Hand "
                     "there; failure: %d random %s of the Hand go into it)",
                     m, 7 - m, p, m, plural(m, "card", "cards"), m, plural(m, "card", "cards"));
    } else if (a >= DML_A_SUIT && a < DML_A_SUIT + 4) {
        cr_tb_printf(t,
                     " (the Troublesome Blabbermouth: cards are drawn until a %s Commodity comes "
                     "up, and it becomes the Event at once)",
                     dml_suit_name(a - DML_A_SUIT));
    } else if (a == DML_A_NOTHING) {
        cr_tb_printf(t, " (Do Nothing: spends a Minor Action and nothing else happens)");
    } else if (a == DML_A_SUBSTITUTE) {
        cr_tb_printf(t, " (trades an Action for a Minor Action)");
    } else if (a == DML_A_DONE && (e->b & DML_DONE_EXCHANGE)) {
        if (e->b & DML_DONE_FORCED)
            cr_tb_printf(t,
                         " (P%d has no card it may commit): the exchange ends, the buying "
                         "roll follows",
                         p);
        else
            cr_tb_printf(t,
                         " (P%d commits nothing more): the exchange ends, the buying roll "
                         "follows",
                         p);
    } else if (a == DML_A_GIVE) {
        cr_tb_printf(t, " (the Thief: P%d gives a card of the Hand to another player)", p);
    } else if (a == DML_A_TAKE) {
        cr_tb_printf(t, " (the Thief: P%d takes a random card from another player's Hand)", p);
    } else if (a >= DML_A_PLAYER && a < DML_A_PLAYER + 4 && e->b == DML_A_GIVE) {
        cr_tb_printf(t, " (the Thief: P%d gives P%d a card of P%d's Hand)", p, a - DML_A_PLAYER, p);
    } else if (a >= DML_A_PLAYER && a < DML_A_PLAYER + 4 && e->b == DML_A_TAKE) {
        cr_tb_printf(t, " (the Thief: P%d takes a random card from P%d's Hand)", p,
                     a - DML_A_PLAYER);
    }
}

/* The Value after a commit of the exchange (DML_E_VALUE, 7.3). */
static void tb_value(cr_tbuf *t, const cr_event *e)
{
    int prim = e->from, sec = e->to, p = e->seat;
    if (prim < 0 || sec < 0) { /* not said */
        cr_tb_printf(t, "After P%d's commit: D %d, P %d, Value %d", p, e->a, e->b, e->a + e->b);
        return;
    }
    if (e->other == 1) {
        cr_tb_printf(t, "P%d commits Primary cards worth %d (raising P)", p, prim);
    } else {
        cr_tb_printf(t, "P%d commits", p);
        if (prim) cr_tb_printf(t, " Primary cards worth %d (lowering D)", prim);
        if (prim && sec) cr_tb_printf(t, " and");
        if (sec) cr_tb_printf(t, " Secondary cards worth %d (lowering P, never below 0)", sec);
        if (!prim && !sec) cr_tb_printf(t, " nothing");
    }
    cr_tb_printf(t, ": D %d, P %d, Value %d", e->a, e->b, e->a + e->b);
}

/* One suit of a Victory Point total (DML_E_VP_SUIT, 11.2; cards-2015-06's
 * Guild gives 1 per card, 15.9): "P1: Spice
 * 2+5+10 = 17, doubled for the Merchant King KD = 34, Guild bonus (TD held:
 * 2 per other Spice Commodity in Hand) +4 = 38".  card: the King as seen. */
static void tb_vp_suit(cr_tbuf *t, const cr_event *e, int card, int ed)
{
    int su = e->a & 3, sum = 0, n = 0;
    cr_tb_printf(t, "P%d: %s ", e->seat, dml_suit_name(su));
    for (int r = 2; r <= 10; r++)
        if (e->from & (1 << (r - 2))) {
            cr_tb_printf(t, "%s%d", n++ ? "+" : "", r);
            sum += r;
        }
    cr_tb_printf(t, " = %d", sum);
    if (e->card >= 0) {
        cr_tb_printf(t, ", doubled for the Merchant King");
        if (card >= 0) cr_tb_printf(t, " %s", dml_card_code(card));
        cr_tb_printf(t, " = %d", 2 * sum);
    }
    if (e->to > 0)
        cr_tb_printf(t, ", Guild bonus (%s held: %d per other %s Commodity in Hand) +%d = %d",
                     dml_card_code(dml_card(su, DML_T)), ed == DML_ED_2015_06 ? 1 : 2,
                     dml_suit_name(su), (int)e->to, (int)e->b);
}

static const char *special_word(int sp)
{
    return sp == 'W' ? "Woot!" : sp == 'E' ? "Wyvern Eyes" : NULL;
}

/* What a check is for (DML_E_CHECK, DML_E_DABO: dml_internal.h). */
static int check_purpose(const cr_event *e) { return e->from >= 100 ? e->from / 100 : 0; }
static int check_buy_seizer(const cr_event *e) { return ((e->to & DML_CHECK_DETAIL) >> 2) - 1; }
static int check_label(const cr_event *e) { return e->to & DML_CHECK_DETAIL; }

/* "P1's buying roll for Spice", "P3's roll to visit BM2", "P0's Callback
 * roll for JS", "P2's Thief roll for X1": whose check (or "the" when not
 * whose) and what for.  code is the event's card as the reader sees it. */
static void tb_check_name(cr_tbuf *t, const cr_event *e, const char *code, int whose)
{
    if (whose)
        cr_tb_printf(t, "P%d's ", e->seat);
    else
        cr_tb_printf(t, "the ");
    switch (check_purpose(e)) {
    case DML_CHECK_BUY: cr_tb_printf(t, "buying roll for %s", dml_suit_name(e->to & 3)); break;
    case DML_CHECK_VISIT:
        if (check_label(e) > 0)
            cr_tb_printf(t, "roll to visit BM%d", check_label(e));
        else
            cr_tb_printf(t, "roll to visit a Black Market");
        break;
    case DML_CHECK_CALLBACK: cr_tb_printf(t, "Callback roll for %s", code); break;
    case DML_CHECK_THIEF: cr_tb_printf(t, "Thief roll for %s", code); break;
    default: cr_tb_printf(t, "check"); break;
    }
}

/* What the check's result does (3.1 step 4: the check's own consequence,
 * then the Woot!/Wyvern Eyes follow-up of step 5). */
static void tb_check_consequence(cr_tbuf *t, const cr_event *e, const char *code)
{
    int ok = e->b != 0, p = e->seat;
    switch (check_purpose(e)) {
    case DML_CHECK_BUY: {
        int seizer = check_buy_seizer(e);
        if (ok)
            cr_tb_printf(t, ": P%d takes the targets", p);
        else if (seizer >= 0)
            cr_tb_printf(t, ": P%d, who won the Seize, takes the targets", seizer);
        else
            cr_tb_printf(t, ": the targets go back where they came from");
        cr_tb_printf(t, "; every committed card goes to its Stock");
        break;
    }
    case DML_CHECK_VISIT:
        if (ok)
            cr_tb_printf(t, ": P%d takes 1 card at random from it, and 1 more per Permission", p);
        else if (e->to & DML_CHECK_HUSTLE)
            cr_tb_printf(t,
                         ": Hustled! P%d loses a random card from the Hand into it (a Dragon "
                         "Egg goes to the Nest instead)",
                         p);
        else
            cr_tb_printf(t, ": P%d takes nothing", p);
        break;
    case DML_CHECK_CALLBACK:
        if (ok)
            cr_tb_printf(t, ": %s goes back from the Front to P%d's Hand", code, p);
        else
            cr_tb_printf(t, ": %s stays in the Front", code);
        break;
    case DML_CHECK_THIEF:
        if (ok)
            cr_tb_printf(t, ": %s is shuffled into the Deck", code);
        else
            cr_tb_printf(t, ": %s goes to Exile", code);
        break;
    default: break;
    }
    if (e->to & DML_CHECK_NO_FOLLOW) return;
    if (e->other == 'W')
        cr_tb_printf(t, "; Woot! brings the Foreign Merchant");
    else if (e->other == 'E')
        cr_tb_printf(t, "; Wyvern Eyes bring a Dragon Siege");
}

/* Why the game ended (DML_E_END), after the reason's name; ed: the
 * edition (DML-2015's VP ties have no winner, V4). */
static void tb_end_cause(cr_tbuf *t, int reason, int winner, int ed)
{
    switch (reason) {
    case DML_END_VP:
        if (winner >= 0 && ed != DML_ED_2016)
            cr_tb_printf(t, ": the Deck ran out at the Event Phase and P%d has the most", winner);
        else if (winner >= 0)
            cr_tb_printf(t,
                         ": the Deck ran out at the Event Phase and P%d has the most (a tie "
                         "goes to more Dragon Eggs in Hand)",
                         winner);
        else if (ed != DML_ED_2016)
            cr_tb_printf(t, ": the Deck ran out at the Event Phase and the best scores tie: "
                            "nobody wins (DML-2015)");
        else
            cr_tb_printf(t, ": the Deck ran out at the Event Phase and the best scores tie, "
                            "Dragon Eggs included");
        break;
    case DML_END_MONOPOLY:
        cr_tb_printf(t, ": P%d holds the 2 to 9 of one suit and wins at once", winner);
        break;
    case DML_END_FATHER:
        cr_tb_printf(t, ": P%d holds all four Dragon Eggs and wins at once", winner);
        break;
    case DML_END_LAST:
        if (winner >= 0)
            cr_tb_printf(t, ": every other player is eliminated");
        else
            cr_tb_printf(t, ": every player is eliminated");
        break;
    default: break;
    }
}

size_t dml_event_to_str(const cr_game *g, const cr_event *e, int seat, char *buf, size_t cap)
{
    cr_tbuf t;
    cr_tb_init(&t, buf, cap);
    char z1[32];
    int card = visible_card(g, e, seat);
    int ed = dml_edition_of_game(g);
    const char *code = card >= 0 ? dml_card_code(card) : "a card";
    switch (e->kind) {
    case DML_E_MOVE: tb_move(&t, e, card); break;
    case DML_E_ROUND: cr_tb_printf(&t, "Round %d begins; Dealer P%d", e->a, e->seat); break;
    case DML_E_EVENT:
        cr_tb_printf(&t, "Event");
        if (card >= 0) cr_tb_printf(&t, " %s", dml_card_code(card));
        cr_tb_printf(&t, ": %s", dml_event_type_name_ed(ed, e->a));
        if (e->b > 0) cr_tb_printf(&t, " %d", e->b);
        cr_tb_printf(&t, " (affects ");
        tb_seat_list(&t, (unsigned)(uint8_t)e->other);
        tb_event_why(&t, e);
        cr_tb_printf(&t, ")");
        break;
    case DML_E_TURN: cr_tb_printf(&t, "P%d's Turn", e->seat); break;
    case DML_E_BUDGET:
        if (ed != DML_ED_2016) { /* 15.4.2 */
            cr_tb_printf(&t, "P%d has %d Market %s and %d Black Market %s", e->seat, e->a,
                         plural(e->a, "Action", "Actions"), e->b,
                         plural(e->b, "Action", "Actions"));
            break;
        }
        cr_tb_printf(&t, "P%d has %d %s and %d %s", e->seat, e->a,
                     plural(e->a, "Action", "Actions"), e->b,
                     plural(e->b, "Minor Action", "Minor Actions"));
        break;
    case DML_E_POWER_PHASE:
        if (ed != DML_ED_2016 && e->seat >= 0)
            cr_tb_printf(&t, "Character Power Phase: a Stack opens, P%d first", e->seat);
        else
            cr_tb_printf(&t, "Power Phase");
        break;
    case DML_E_ROLL: cr_tb_printf(&t, "P%d rolls (%d,%d)", e->seat, e->a, e->b); break;
    case DML_E_DABO: {
        int d0 = e->other / 10, d1 = e->other % 10;
        cr_tb_printf(&t, "P%d %s the Dabo! double (%d,%d)", e->seat, e->a ? "re-rolls" : "keeps",
                     d0, d1);
        if (check_purpose(e)) {
            cr_tb_printf(&t, " of ");
            tb_check_name(&t, e, code, 0);
        }
        if (e->b == DML_NO_TARGET) {
            cr_tb_printf(&t, " in the Dealer roll-off");
        } else {
            int sp, ok = dml_check_eval(d0, d1, e->b, &sp);
            cr_tb_printf(&t, ": against %d it %s", e->b, ok ? "succeeds" : "fails");
        }
        break;
    }
    case DML_E_CHECK: {
        int d0 = (e->from % 100) / 10, d1 = e->from % 10;
        const char *sp = special_word(e->other);
        tb_check_name(&t, e, code, 1);
        if (d0 < 1 || d0 > 6 || d1 < 1 || d1 > 6) /* no roll at hand */
            cr_tb_printf(&t, " against %d %s", e->a, e->b ? "succeeds" : "fails");
        else if (sp)
            cr_tb_printf(&t, " (%s, a double %s, against %d) %s whatever the target", sp,
                         d0 == 6 ? "six" : "one", e->a, e->b ? "succeeds" : "fails");
        else
            cr_tb_printf(&t, " (%d against %d) %s", d0 + d1, e->a, e->b ? "succeeds" : "fails");
        tb_check_consequence(&t, e, code);
        break;
    }
    case DML_E_DECISION: {
        char act[48];
        int a = e->a;
        int is_card_action = a >= DML_A_CARD && a < DML_A_CALLBACK + DML_NCARDS;
        if (is_card_action && e->card >= 0 && card < 0) {
            /* the seat does not see which card: keep the word, hide the card */
            if (a < DML_A_POWER)
                snprintf(act, sizeof act, "a card");
            else if (a < DML_A_EMBLEM)
                snprintf(act, sizeof act, "power (a card)");
            else if (a < DML_A_CALLBACK)
                snprintf(act, sizeof act, "emblem (a card)");
            else
                snprintf(act, sizeof act, "callback (a card)");
        } else {
            decision_action_text(g, e, act, sizeof act);
        }
        if (a == DML_A_DONE && (e->b & DML_DONE_STACK)) {
            /* the seat alone before the words: the summaries merge a round of
             * passes ("P1, P2, P3 \xe2\x80\x94 Stack priority passed ...") */
            cr_tb_printf(&t, "P%d \xe2\x80\x94 Stack priority passed%s", e->seat,
                         (e->b & DML_DONE_FORCED) ? " (no card to play)" : "");
            break;
        }
        cr_tb_printf(&t, "P%d: %s", e->seat, act);
        tb_decision_words(&t, e, ed);
        break;
    }
    case DML_E_DECLARE:
        cr_tb_printf(&t, "P%d declares %s, value %d", e->seat, dml_suit_name(e->b), e->a);
        break;
    case DML_E_OFFER:
        if (e->a == 0 && e->b == DML_PASS_EMPTY)
            cr_tb_printf(&t, "P%d passes the Seize (no cards in Hand, so nothing to offer)",
                         e->seat);
        else if (e->a == 0 && e->b == DML_PASS_FCCC)
            cr_tb_printf(&t,
                         "P%d passes the Seize (%s: an affected player may not make a Seize "
                         "offer)",
                         e->seat, dml_event_type_name_ed(ed, DML_EV_FCCC));
        else if (e->a == 0)
            cr_tb_printf(&t, "P%d passes the Seize", e->seat);
        else
            cr_tb_printf(&t, "P%d places %d %s face-down", e->seat, e->a,
                         plural(e->a, "card", "cards"));
        break;
    case DML_E_SEIZE:
        if (e->seat >= 0)
            cr_tb_printf(&t,
                         "P%d wins the Seize with %d (the %s Commodities offered that may be "
                         "committed)",
                         e->seat, e->a, dml_suit_name(e->b));
        else if (e->other <= 0)
            cr_tb_printf(&t, "Nobody seizes: every other player passed");
        else
            cr_tb_printf(&t,
                         "Nobody seizes: of the %d %s offered, none is a %s Commodity that may "
                         "be committed, so none counts",
                         e->other, plural(e->other, "card", "cards"), dml_suit_name(e->b));
        break;
    case DML_E_VALUE: tb_value(&t, e); break;
    case DML_E_BM_NEW:
        cr_tb_printf(&t, "Black Market BM%d is established with %d %s", e->a, e->b,
                     plural(e->b, "card", "cards"));
        break;
    case DML_E_BM_GONE:
        cr_tb_printf(&t, "Black Market BM%d ceases to exist: its last card left it", e->a);
        break;
    case DML_E_SIEGE:
        cr_tb_printf(&t, "Dragon Siege!");
        if (e->a == DML_SIEGE_WYVERN)
            cr_tb_printf(&t, " (Wyvern Eyes were rolled)");
        else if (e->a == DML_SIEGE_EMPRESS)
            cr_tb_printf(&t, " (the Dragon Empress's Power)");
        cr_tb_printf(&t, ": every Hand is shown; whoever holds more Dragon Eggs than Shields %s",
                     e->b                ? "is eliminated (I See Fire)"
                     : ed != DML_ED_2016 ? "returns the Eggs to the Nest (DML-2015: nothing else "
                                           "is lost)"
                                         : "loses the Eggs to the Nest and half the other cards "
                                           "of the Hand, rounded up, to the Discard Pile");
        break;
    case DML_E_SIEGE_SEAT: tb_siege_seat(&t, e, ed); break;
    case DML_E_REVEAL:
        if (e->from >= DML_Z_BM && e->from < DML_NZONES)
            cr_tb_printf(&t, "P%d looks privately at %s in %s", e->seat, code,
                         event_zone_name(e, e->from, z1, sizeof z1));
        else
            cr_tb_printf(&t, "P%d reveals %s", e->seat, code);
        break;
    case DML_E_ELIMINATED: cr_tb_printf(&t, "P%d is eliminated", e->seat); break;
    case DML_E_FOREIGN:
        if (card >= 0)
            cr_tb_printf(&t,
                         "The Foreign Merchant arrives (%s, a Joker, was drawn): %s, the Discard "
                         "Pile and one Dragon Egg from the Nest, if any, form a new Black Market",
                         code, code);
        else
            cr_tb_printf(&t, "The Foreign Merchant arrives (Woot! was rolled): the Discard Pile "
                             "and one Dragon Egg from the Nest, if any, form a new Black Market");
        break;
    case DML_E_RESOLVE:
        cr_tb_printf(&t, "%s (played by P%d) resolves as %s", code, e->seat,
                     e->a ? "Emblem" : "Power");
        if (!e->a && card >= 0 && dml_power_words(NULL, ed, card, e->seat)) {
            cr_tb_printf(&t, " \xe2\x80\x94 ");
            dml_power_words(&t, ed, card, e->seat);
        }
        break;
    case DML_E_VP:
        cr_tb_printf(&t, "P%d scores %d VP", e->seat, e->a);
        if (e->b > 0)
            cr_tb_printf(&t, ": %d from the suits, +%d for %d Dragon %s", e->a - 20 * e->b,
                         20 * e->b, e->b, plural(e->b, "Egg", "Eggs"));
        break;
    case DML_E_VP_SUIT: tb_vp_suit(&t, e, card, ed); break;
    case DML_E_END:
        if (e->seat >= 0)
            cr_tb_printf(&t, "Game over: P%d wins (%s", e->seat, end_reason_word(e->a));
        else
            cr_tb_printf(&t, "Game over: no winner (%s", end_reason_word(e->a));
        tb_end_cause(&t, e->a, e->seat, ed);
        cr_tb_printf(&t, ")");
        break;
    case DML_E_SETUP:
        if (e->b)
            cr_tb_printf(&t, "P%d is the Dealer (Woot! in the roll-off wins at once)", e->seat);
        else if (e->a > 0)
            cr_tb_printf(&t, "P%d is the Dealer (the best roll-off total, %d)", e->seat, e->a);
        else
            cr_tb_printf(&t, "P%d is the Dealer", e->seat);
        break;
    default: cr_tb_printf(&t, "event %d", e->kind); break;
    }
    return t.len;
}

static void tb_json_seat(cr_tbuf *t, const char *key, int seat)
{
    if (seat >= 0 && seat < 4)
        cr_tb_printf(t, ",\"%s\":\"P%d\"", key, seat);
    else
        cr_tb_printf(t, ",\"%s\":null", key);
}

static void tb_json_zone(cr_tbuf *t, const char *key, const cr_event *e, int z)
{
    char zb[32];
    if (z < 0) {
        cr_tb_printf(t, ",\"%s\":null", key);
        return;
    }
    cr_tb_printf(t, ",\"%s\":", key);
    cr_tb_json_str(t, event_zone_name(e, z, zb, sizeof zb));
}

/* A check's cause (DML_E_CHECK, DML_E_DABO) as JSON: "purpose" (buy,
 * visit, callback, thief; null in the roll-off) and what it is for: the
 * suit and the seizing seat of a Buy, the label of a visited Black Market,
 * the card called back or the Thief's Joker. */
static void tb_json_check_cause(cr_tbuf *t, const cr_event *e, int card)
{
    static const char *const names[] = {NULL, "buy", "visit", "callback", "thief"};
    int pu = check_purpose(e);
    cr_tb_printf(t, ",\"purpose\":");
    if (pu < 1 || pu > DML_CHECK_THIEF) {
        cr_tb_printf(t, "null");
        return;
    }
    cr_tb_printf(t, "\"%s\"", names[pu]);
    if (pu == DML_CHECK_BUY) {
        cr_tb_printf(t, ",\"suit\":\"%c\"", suit_letters[e->to & 3]);
        tb_json_seat(t, "seizer", check_buy_seizer(e));
    } else if (pu == DML_CHECK_VISIT) {
        if (check_label(e) > 0)
            cr_tb_printf(t, ",\"label\":%d", check_label(e));
        else
            cr_tb_printf(t, ",\"label\":null");
    } else if (card >= 0) {
        cr_tb_printf(t, ",\"card\":\"%s\"", dml_card_code(card));
    } else {
        cr_tb_printf(t, ",\"card\":null");
    }
}

size_t dml_event_to_json(const cr_game *g, const cr_event *e, int seat, char *buf, size_t cap)
{
    cr_tbuf t;
    cr_tb_init(&t, buf, cap);
    int card = visible_card(g, e, seat);
    cr_tb_printf(&t, "{\"kind\":\"%s\"", event_kind_name(e->kind));
    switch (e->kind) {
    case DML_E_MOVE:
    case DML_E_REVEAL:
    case DML_E_RESOLVE:
    case DML_E_DECISION:
    case DML_E_EVENT:
        if (card >= 0)
            cr_tb_printf(&t, ",\"card\":\"%s\"", dml_card_code(card));
        else
            cr_tb_printf(&t, ",\"card\":null");
        break;
    default: break;
    }
    switch (e->kind) {
    case DML_E_MOVE:
        tb_json_zone(&t, "from", e, e->from);
        tb_json_zone(&t, "to", e, e->to);
        cr_tb_printf(&t, ",\"from_id\":%d,\"to_id\":%d", e->from, e->to);
        if (e->seat >= 0) tb_json_seat(&t, "seat", e->seat);
        break;
    case DML_E_ROUND:
        cr_tb_printf(&t, ",\"round\":%d", e->a);
        tb_json_seat(&t, "dealer", e->seat);
        break;
    case DML_E_EVENT:
        cr_tb_printf(&t, ",\"type\":");
        cr_tb_json_str(&t, dml_event_type_name(e->a));
        cr_tb_printf(&t, ",\"value\":%d,\"affected\":[", e->b);
        for (int s = 0, first = 1; s < 4; s++)
            if ((uint8_t)e->other & (1u << s)) {
                cr_tb_printf(&t, "%s\"P%d\"", first ? "" : ",", s);
                first = 0;
            }
        cr_tb_printf(&t, "],\"mayhem\":%s", e->to == 1 ? "true" : "false");
        break;
    case DML_E_TURN:
    case DML_E_ELIMINATED: tb_json_seat(&t, "seat", e->seat); break;
    case DML_E_SETUP:
        tb_json_seat(&t, "seat", e->seat);
        cr_tb_printf(&t, ",\"total\":%d,\"woot\":%s", e->a, e->b ? "true" : "false");
        break;
    case DML_E_FOREIGN:
        if (card >= 0)
            cr_tb_printf(&t, ",\"cause\":\"joker\",\"card\":\"%s\"", dml_card_code(card));
        else
            cr_tb_printf(&t, ",\"cause\":\"woot\"");
        break;
    case DML_E_BUDGET:
        tb_json_seat(&t, "seat", e->seat);
        cr_tb_printf(&t, ",\"actions\":%d,\"minors\":%d", e->a, e->b);
        break;
    case DML_E_ROLL:
        tb_json_seat(&t, "seat", e->seat);
        cr_tb_printf(&t, ",\"dice\":[%d,%d]", e->a, e->b);
        break;
    case DML_E_DABO:
        tb_json_seat(&t, "seat", e->seat);
        cr_tb_printf(&t, ",\"reroll\":%s,\"dice\":[%d,%d],\"target\":", e->a ? "true" : "false",
                     e->other / 10, e->other % 10);
        if (e->b == DML_NO_TARGET)
            cr_tb_printf(&t, "null");
        else
            cr_tb_printf(&t, "%d", e->b);
        tb_json_check_cause(&t, e, card);
        break;
    case DML_E_CHECK: {
        tb_json_seat(&t, "seat", e->seat);
        const char *sp = special_word(e->other);
        cr_tb_printf(&t, ",\"target\":%d,\"success\":%s,\"special\":", e->a,
                     e->b ? "true" : "false");
        if (sp)
            cr_tb_json_str(&t, sp);
        else
            cr_tb_printf(&t, "null");
        int d0 = (e->from % 100) / 10, d1 = e->from % 10;
        if (d0 >= 1 && d0 <= 6 && d1 >= 1 && d1 <= 6)
            cr_tb_printf(&t, ",\"dice\":[%d,%d],\"total\":%d", d0, d1, d0 + d1);
        tb_json_check_cause(&t, e, card);
        if (check_purpose(e) == DML_CHECK_VISIT)
            cr_tb_printf(&t, ",\"hustle\":%s", (e->to & DML_CHECK_HUSTLE) ? "true" : "false");
        break;
    }
    case DML_E_DECISION: {
        char act[48];
        tb_json_seat(&t, "seat", e->seat);
        int a = e->a;
        int is_card_action = a >= DML_A_CARD && a < DML_A_CALLBACK + DML_NCARDS;
        if (is_card_action && e->card >= 0 && card < 0) {
            cr_tb_printf(&t, ",\"action\":null");
        } else {
            decision_action_text(g, e, act, sizeof act);
            cr_tb_printf(&t, ",\"action\":");
            cr_tb_json_str(&t, act);
            cr_tb_printf(&t, ",\"action_id\":%d", a);
        }
        if (a == DML_A_DONE && (e->b & (DML_DONE_EXCHANGE | DML_DONE_STACK)))
            cr_tb_printf(&t, ",\"pass\":\"%s\",\"forced\":%s",
                         (e->b & DML_DONE_EXCHANGE) ? "exchange" : "stack",
                         (e->b & DML_DONE_FORCED) ? "true" : "false");
        if (a >= DML_A_PLAYER && a < DML_A_PLAYER + 4 && (e->b == DML_A_GIVE || e->b == DML_A_TAKE))
            cr_tb_printf(&t, ",\"thief\":\"%s\"", e->b == DML_A_GIVE ? "give" : "take");
        break;
    }
    case DML_E_DECLARE:
        tb_json_seat(&t, "seat", e->seat);
        cr_tb_printf(&t, ",\"suit\":");
        if (e->b >= 0 && e->b < 4)
            cr_tb_printf(&t, "\"%c\"", suit_letters[e->b]);
        else
            cr_tb_printf(&t, "null");
        cr_tb_printf(&t, ",\"value\":%d", e->a);
        break;
    case DML_E_OFFER:
        tb_json_seat(&t, "seat", e->seat);
        cr_tb_printf(&t, ",\"count\":%d,\"forced\":%s", e->a,
                     e->a == 0 && e->b == DML_PASS_EMPTY  ? "\"empty hand\""
                     : e->a == 0 && e->b == DML_PASS_FCCC ? "\"fccc regulations\""
                                                          : "null");
        break;
    case DML_E_SEIZE:
        tb_json_seat(&t, "seat", e->seat);
        cr_tb_printf(&t, ",\"total\":%d,\"counts\":\"%c\",\"placed\":%d", e->a,
                     e->b >= 0 && e->b < 4 ? suit_letters[e->b] : '?', e->other);
        break;
    case DML_E_SIEGE:
        cr_tb_printf(&t, ",\"cause\":%s",
                     e->a == DML_SIEGE_WYVERN    ? "\"wyvern eyes\""
                     : e->a == DML_SIEGE_EMPRESS ? "\"dragon empress\""
                                                 : "null");
        break;
    case DML_E_SIEGE_SEAT: /* seat null: nobody holds an egg */
        tb_json_seat(&t, "seat", e->seat);
        cr_tb_printf(&t, ",\"eggs\":%d,\"shields\":%d,\"other_cards\":%d,\"fire\":%s", e->a,
                     e->b & 0xff, e->other, (e->b & DML_SIEGE_FIRE) ? "true" : "false");
        break;
    case DML_E_VALUE:
        cr_tb_printf(&t, ",\"D\":%d,\"P\":%d", e->a, e->b);
        if (e->from >= 0 && e->to >= 0) {
            tb_json_seat(&t, "seat", e->seat);
            cr_tb_printf(&t, ",\"primary\":%d,\"secondary\":%d,\"passive\":%s", e->from, e->to,
                         e->other == 1 ? "true" : "false");
        }
        break;
    case DML_E_BM_NEW: cr_tb_printf(&t, ",\"label\":%d,\"count\":%d", e->a, e->b); break;
    case DML_E_BM_GONE: cr_tb_printf(&t, ",\"label\":%d", e->a); break;
    case DML_E_REVEAL:
        tb_json_seat(&t, "seat", e->seat);
        if (e->from >= DML_Z_BM && e->from < DML_NZONES) {
            cr_tb_printf(&t, ",\"private\":true");
            tb_json_zone(&t, "from", e, e->from);
        }
        break;
    case DML_E_RESOLVE:
        tb_json_seat(&t, "seat", e->seat);
        cr_tb_printf(&t, ",\"as\":\"%s\"", e->a ? "emblem" : "power");
        break;
    case DML_E_VP:
        tb_json_seat(&t, "seat", e->seat);
        cr_tb_printf(&t, ",\"vp\":%d,\"eggs\":%d", e->a, e->b);
        break;
    case DML_E_VP_SUIT: {
        int su = e->a & 3, sum = 0;
        tb_json_seat(&t, "seat", e->seat);
        cr_tb_printf(&t, ",\"suit\":\"%c\",\"cards\":[", suit_letters[su]);
        for (int r = 2, first = 1; r <= 10; r++)
            if (e->from & (1 << (r - 2))) {
                cr_tb_printf(&t, "%s\"%s\"", first ? "" : ",", dml_card_code(dml_card(su, r)));
                sum += r;
                first = 0;
            }
        cr_tb_printf(&t, "],\"sum\":%d,\"doubled\":%s,\"king\":", sum,
                     e->card >= 0 ? "true" : "false");
        if (card >= 0)
            cr_tb_printf(&t, "\"%s\"", dml_card_code(card));
        else
            cr_tb_printf(&t, "null");
        cr_tb_printf(&t, ",\"guild\":%d,\"subtotal\":%d", e->to, e->b);
        break;
    }
    case DML_E_END:
        tb_json_seat(&t, "winner", e->seat);
        cr_tb_printf(&t, ",\"reason\":");
        cr_tb_json_str(&t, end_reason_word(e->a));
        break;
    default: break;
    }
    char text[400];
    dml_event_to_str(g, e, seat, text, sizeof text);
    cr_tb_printf(&t, ",\"text\":");
    cr_tb_json_str(&t, text);
    cr_tb_printf(&t, "}");
    return t.len;
}
