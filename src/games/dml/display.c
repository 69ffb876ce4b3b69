/* display.c — Dragon's Money Laundering for clients that show the game:
 * one action as JSON (a control: label, group, objects), the help text of
 * the current decision, and the derived fields of an observation's JSON
 * (each card's Value now, the chance to make a roll, the Event's effects
 * in words).  docs/clients.md describes every key.
 *
 * Nothing here states a rule a second time: a card's Value comes from
 * dml_target_value and dml_commit_filter (rules.c), a roll's success and a
 * Dabo! double from dml_check_eval and dml_dabo_roll (dml_internal.h), the
 * options on offer from dml_legal.  What is written here is words.
 *
 * Seat safety.  action_to_json runs on the true state but for the acting
 * seat only: it names a card only when that seat's observation places it
 * (dml_observe), and otherwise says "a card".  help and the display fields
 * read an observation, so they cannot see more than its seat.
 *
 * Writers follow snprintf (cr_tbuf).  None of this is on the hot path;
 * action_to_json keeps one observation (a dml_state) on its stack.
 */
#include <stdio.h>
#include <string.h>

#include "croupier/text.h"
#include "croupier/parts.h"
#include "games/dml/dml_internal.h"

static const char suit_letters[] = "SCHD";

static int lowest_card(uint64_t m) { return m ? __builtin_ctzll(m) : -1; }
static int popc(uint64_t m) { return __builtin_popcountll(m); }

/* Label of Black Market slot k, 0 if it is not live in st. */
static int bm_label(const dml_state *st, int k)
{
    if (k < 0 || k >= DML_MAX_BM) return 0;
    if (st->zone[DML_Z_BM + k] == 0 && st->zone_count[DML_Z_BM + k] == 0) return 0;
    return st->bm_label[k];
}

/* ======================================================================
 * rolls: exact chances with the engine's dice rules
 * ====================================================================== */

/* Of the 36 equally likely ordered rolls of 2d6: how many make a check
 * against `target` succeed, how many are Dabo! doubles that fail it.
 * Without re-rolls the chance is succ/36.  The best re-roll policy re-rolls
 * exactly the failing Dabo! doubles (a re-roll is worth the same chance
 * again, which is below 1 but above 0), so its chance p solves
 * p = succ/36 + p * dabo_fail/36, i.e. succ / (36 - dabo_fail); the same
 * policy makes (6,6) and (1,1) each come 1 / (36 - dabo_fail). */
typedef struct roll_odds {
    int succ, dabo_fail;
} roll_odds;

void dml_roll_odds(int target, int *succ, int *dabo_fail)
{
    *succ = *dabo_fail = 0;
    for (int a = 1; a <= 6; a++)
        for (int b = 1; b <= 6; b++) {
            int special, ok = dml_check_eval(a, b, target, &special);
            *succ += ok;
            if (!ok && dml_dabo_roll(a, b)) ++*dabo_fail;
        }
}

static roll_odds odds(int target)
{
    roll_odds r;
    dml_roll_odds(target, &r.succ, &r.dabo_fail);
    return r;
}

static double pct(int num, int den) { return den ? 100.0 * num / den : 0.0; }

static void tb_fraction(cr_tbuf *t, const char *key, int num, int den)
{
    cr_tb_printf(t, "\"%s\":{\"num\":%d,\"den\":%d,\"p\":%.6f}", key, num, den,
                 den ? (double)num / den : 0.0);
}

/* {"target":T,"single":{..},"best_reroll":{..},"woot":{..},"wyvern":{..}} */
static void tb_roll_json(cr_tbuf *t, int target)
{
    roll_odds r = odds(target);
    int den = 36 - r.dabo_fail;
    cr_tb_printf(t, "\"target\":%d,", target);
    tb_fraction(t, "single", r.succ, 36);
    cr_tb_printf(t, ",");
    tb_fraction(t, "best_reroll", r.succ, den);
    cr_tb_printf(t, ",\"reroll_matters\":%s,", r.dabo_fail ? "true" : "false");
    tb_fraction(t, "woot_single", 1, 36);
    cr_tb_printf(t, ",");
    tb_fraction(t, "woot_best_reroll", 1, den);
    cr_tb_printf(t, ",");
    tb_fraction(t, "wyvern_single", 1, 36);
    cr_tb_printf(t, ",");
    tb_fraction(t, "wyvern_best_reroll", 1, den);
}

/* "a roll against 7 succeeds 58.3% of the time (21 of 36)" and the re-roll
 * policy when it matters, said of the seat that rolls: `roller` is the
 * reading seat itself (`me`) or another. */
static void tb_roll_words(cr_tbuf *t, int target, int roller, int me)
{
    roll_odds r = odds(target);
    cr_tb_printf(t, "a roll against %d succeeds %.1f%% of the time (%d of 36)", target,
                 pct(r.succ, 36), r.succ);
    if (r.dabo_fail) {
        if (roller == me)
            cr_tb_printf(t, ", or %.1f%% if you re-roll every failing Dabo! double",
                         pct(r.succ, 36 - r.dabo_fail));
        else
            cr_tb_printf(t, ", or %.1f%% if P%d re-rolls every failing Dabo! double",
                         pct(r.succ, 36 - r.dabo_fail), roller);
    }
}

static void tb_specials_words(cr_tbuf *t, const dml_state *o)
{
    if (o->variant == DML_V_MAYHEM)
        cr_tb_printf(t, " (6,6) always succeeds and (1,1) always fails.");
    else
        cr_tb_printf(t, " (6,6) always succeeds and then brings the Foreign Merchant; (1,1) always "
                        "fails and then starts a Dragon Siege.");
}

/* The check waiting on the frame stack: its target, roller and what it is
 * for; 0 when no check is under way. */
static int pending_check(const dml_state *o, int *target, int *roller, const char **what)
{
    for (int i = o->nfr - 1; i >= 0 && i < DML_MAX_FRAMES; i--) {
        if (o->fr[i].proc != DML_P_CHECK) continue;
        *target = o->fr[i].x;
        *roller = o->fr[i].a;
        *what = "check";
        if (i > 0) switch (o->fr[i - 1].proc) {
            case DML_P_BUY: *what = "buying roll"; break;
            case DML_P_CALLBACK: *what = "callback"; break;
            case DML_P_VISIT: *what = "visit"; break;
            case DML_P_POWER: *what = "thief"; break;
            default: break;
            }
        return 1;
    }
    return 0;
}

/* The Value the Buy in progress would be rolled against, if one is: the
 * Declaration being composed (seen only by its composer) or D + P. */
static int buying_target(const dml_state *o, int *target)
{
    if (o->need == DML_NEED_DECISION && o->kind == DML_D_DECLARE) {
        if (o->sel_targets == 0) return 0;
        *target = dml_declaration_value(o);
        return 1;
    }
    if (o->zone_count[DML_Z_TARGET] == 0) return 0;
    *target = o->D + o->P;
    return 1;
}

/* ======================================================================
 * action_to_json
 * ====================================================================== */

typedef struct act_ctx {
    const dml_state *s; /* the true state */
    const dml_state *o; /* the acting seat's observation */
    int seat;           /* the acting seat, -1 at chance and terminal nodes */
} act_ctx;

/* c as the acting seat may name it: its code, or -1 when that seat cannot
 * place it (its observation erased it). */
static int known_card(const act_ctx *x, int c)
{
    if (c < 0 || c >= DML_NCARDS) return -1;
    if (x->seat < 0) return c; /* chance outcomes: for the owner's log only */
    return x->o->loc[c] < DML_NZONES ? c : -1;
}

static const char *code_or_hidden(int c) { return c >= 0 ? dml_card_code(c) : "a card"; }

typedef struct objs {
    char v[4][24];
    int n;
} objs;

static void obj_add(objs *ob, const char *fmt, int arg)
{
    if (ob->n < 4) snprintf(ob->v[ob->n++], sizeof ob->v[0], fmt, arg);
}
static void obj_card(objs *ob, int c)
{
    if (c >= 0 && ob->n < 4) snprintf(ob->v[ob->n++], sizeof ob->v[0], "%s", dml_card_code(c));
}

static const char *suit_word(int su) { return dml_suit_name(su); }

/* Label and group of a card chosen in a composition or a Power's choice. */
static void card_label(const act_ctx *x, int card, char *label, size_t cap, const char **group,
                       objs *ob)
{
    const dml_state *s = x->s;
    int c = known_card(x, card);
    const char *code = code_or_hidden(c);
    *group = "card";
    obj_card(ob, c);
    int p = x->seat;
    switch (s->kind) {
    case DML_D_DECLARE:
        if (p >= 0 && s->loc[card] == DML_Z_HAND + p)
            snprintf(label, cap, "Commit %s from your Hand (Value -%d)", code, dml_value(card));
        else
            snprintf(label, cap, "Declare %s as a target (Value %d)", code,
                     dml_target_value(s, card));
        return;
    case DML_D_OFFER:
        if (s->variant == DML_V_2015) /* one card at most (15.5.2) */
            snprintf(label, cap, "Place %s face-down as your one Seize card", code);
        else
            snprintf(label, cap, "Place %s face-down in your Seize offer", code);
        return;
    case DML_D_LEAVE: snprintf(label, cap, "Leave %s in the Black Market", code); return;
    case DML_D_COMMIT_ACT:
        if (s->buy_suit >= 0 && s->buy_suit < 4 && dml_suit(card) == dml_prim_of(s, s->buy_suit))
            snprintf(label, cap, "Commit %s (Primary: D -%d)", code, dml_value(card));
        else
            snprintf(label, cap, "Commit %s (Secondary: P -%d, not below 0)", code,
                     dml_value(card));
        return;
    case DML_D_COMMIT_PAS: snprintf(label, cap, "Commit %s (P +%d)", code, dml_value(card)); return;
    case DML_D_VICE: {
        int owner = s->loc[card] - DML_Z_FRONT;
        if (owner >= 0 && owner < 4) {
            obj_add(ob, "P%d", owner);
            snprintf(label, cap, "Return %s from P%d's Front to P%d's Hand", code, owner, owner);
        } else {
            snprintf(label, cap, "Return %s to its owner's Hand", code);
        }
        return;
    }
    case DML_D_COUNSEL_CARD: {
        int label_k = bm_label(s, s->karg);
        obj_add(ob, "BM%d", label_k);
        snprintf(label, cap, "Take %s from BM%d", code, label_k);
        return;
    }
    case DML_D_TITHE:
    case DML_D_THIEF_CARD: {
        /* the receiver waits in the top frame: b for a Tithe, x for the gift */
        const dml_frame *f = s->nfr ? &s->fr[s->nfr - 1] : NULL;
        int to = f == NULL ? -1 : s->kind == DML_D_TITHE ? f->b : f->x;
        if (to >= 0 && to < 4) {
            obj_add(ob, "P%d", to);
            snprintf(label, cap, "Give %s to P%d", code, to);
        } else {
            snprintf(label, cap, "Give %s", code);
        }
        return;
    }
    case DML_D_HARLOT:
        if (dml_rank(card) == DML_T)
            snprintf(label, cap, "Remove %s from the Stack to the Discard Pile", code);
        else
            snprintf(label, cap, "Exile %s from the Stack", code);
        return;
    default: snprintf(label, cap, "Choose %s", code); return;
    }
}

/* "Done"/"pass" of a composition. */
static const char *done_label(const dml_state *s)
{
    int none = s->sel_n == 0;
    switch (s->kind) {
    case DML_D_DECLARE: return "Declare the chosen cards";
    case DML_D_OFFER:
        return none                       ? "Pass: make no Seize offer"
               : s->variant == DML_V_2015 ? "Place the chosen card"
                                          : "Place the chosen cards";
    case DML_D_LEAVE: return "Leave the chosen cards in the Black Market";
    case DML_D_COMMIT_ACT:
    case DML_D_COMMIT_PAS:
        return none ? "Pass: commit nothing (the exchange ends)" : "Commit the chosen cards";
    case DML_D_STACK: return none ? "Pass priority" : "Put the chosen cards on the Stack";
    default: return none ? "Pass" : "Done";
    }
}

size_t dml_action_to_json(const cr_game *g, const void *st, cr_action a, char *buf, size_t cap)
{
    const dml_state *s = st;
    dml_state obs;
    act_ctx x = {s, s, -1};
    if (s->need == DML_NEED_DECISION && !s->over && s->actor >= 0 && s->actor < s->n) {
        dml_observe(g, s, s->actor, &obs);
        x.o = &obs;
        x.seat = s->actor;
    }
    char text[64], label[160];
    dml_action_to_str(g, s, a, text, sizeof text);
    const char *group = "other";
    objs ob = {.n = 0};
    label[0] = '\0';

    if (a >= DML_A_CARD && a < DML_A_CARD + DML_NCARDS) {
        card_label(&x, a - DML_A_CARD, label, sizeof label, &group, &ob);
    } else if (a >= DML_A_POWER && a < DML_A_EMBLEM + DML_NCARDS) {
        int power = a < DML_A_EMBLEM;
        int card = a - (power ? DML_A_POWER : DML_A_EMBLEM), c = known_card(&x, card);
        group = power ? "power" : "emblem";
        obj_card(&ob, c);
        if (c >= 0)
            snprintf(label, sizeof label, "Play %s (%s) as %s", dml_card_code(c),
                     dml_is_joker(c) ? "Thief" : dml_card_name_in(s, c),
                     power ? "a Power" : "an Emblem");
        else
            snprintf(label, sizeof label, "Play a card as %s", power ? "a Power" : "an Emblem");
    } else if (a >= DML_A_CALLBACK && a < DML_A_CALLBACK + DML_NCARDS) {
        int c = known_card(&x, a - DML_A_CALLBACK);
        group = "callback";
        obj_card(&ob, c);
        snprintf(label, sizeof label, "Call back %s: roll against 7 to return it to your Hand",
                 code_or_hidden(c));
    } else if (a >= DML_A_VISIT && a < DML_A_BMPICK + DML_MAX_BM) {
        int visit = a < DML_A_BMPICK;
        int k = a - (visit ? DML_A_VISIT : DML_A_BMPICK), l = bm_label(s, k);
        int count = s->zone_count[DML_Z_BM + k];
        group = visit ? "visit" : "counsel-market";
        obj_add(&ob, "BM%d", l);
        if (visit && s->variant == DML_V_2015) /* 15.4.2: which action it uses */
            snprintf(label, sizeof label, "Attempt BM%d (%d %s) with %s: roll against %s", l, count,
                     count == 1 ? "card" : "cards",
                     s->actions ? "a Market Action" : "the Black Market Action",
                     (s->sw & DML_SW_BM_WAGER) ? "7 - your wager" : "7");
        else if (visit)
            snprintf(label, sizeof label, "Visit BM%d (%d %s): roll against 7", l, count,
                     count == 1 ? "card" : "cards");
        else
            snprintf(label, sizeof label, "Search BM%d (%d %s) and take one card", l, count,
                     count == 1 ? "card" : "cards");
    } else if (a >= DML_A_PLAYER && a < DML_A_PLAYER + 4) {
        int q = a - DML_A_PLAYER;
        group = "player";
        obj_add(&ob, "P%d", q);
        int give = s->kind == DML_D_THIEF_PLAYER && s->nfr && s->fr[s->nfr - 1].step == 2;
        if (give)
            snprintf(label, sizeof label, "Give a card of your Hand to P%d", q);
        else
            snprintf(label, sizeof label, "Take a random card from P%d's Hand", q);
    } else if (a >= DML_A_STOCK && a < DML_A_STOCK + 4) {
        int su = a - DML_A_STOCK;
        int count = popc(s->zone[DML_Z_STOCK] & DML_SUIT_MASK(su));
        group = "stock";
        obj_add(&ob, "stock %c", suit_letters[su]);
        snprintf(label, sizeof label, "Take the whole %s Stock (%d %s)", suit_word(su), count,
                 count == 1 ? "card" : "cards");
    } else if (a >= DML_A_ROLL && a < DML_A_ROLL + 21) {
        group = "roll";
        snprintf(label, sizeof label, "Dice: %s", text + 5);
    } else if (a >= DML_A_DRAW && a < DML_A_DRAW + DML_NCARDS) {
        group = "draw";
        obj_card(&ob, a - DML_A_DRAW);
        snprintf(label, sizeof label, "Chance: %s", text);
    } else if (a >= DML_A_PILE && a < DML_A_PILE + 4) {
        group = "pile";
        obj_add(&ob, "pile %c", 'A' + (a - DML_A_PILE));
        snprintf(label, sizeof label, "Take face-down pile %c (a 2 and a 3) into your Hand",
                 'A' + (a - DML_A_PILE));
    } else if (a >= DML_A_WAGER && a < DML_A_WAGER + 51) {
        int m = a - DML_A_WAGER;
        roll_odds r = odds(7 - m);
        group = "wager";
        snprintf(label, sizeof label, "Wager %d %s: roll against %d (%.1f%%)", m,
                 m == 1 ? "card" : "cards", 7 - m, pct(r.succ, 36));
    } else if (a >= DML_A_SUIT && a < DML_A_SUIT + 4) {
        int su = a - DML_A_SUIT;
        group = "suit";
        obj_add(&ob, "stock %c", suit_letters[su]);
        snprintf(label, sizeof label, "Name %s: draw until a Commodity of %s comes up",
                 suit_word(su), suit_word(su));
    } else if (s->variant == DML_V_2015 && a == DML_A_BUY) {
        group = "buy";
        snprintf(label, sizeof label, "Buy: declare a target (a Market Action)");
    } else if (s->variant == DML_V_2015 && (a == DML_A_NOTHING || a == DML_A_END)) {
        /* DML-2015's forfeits (15.4.2): the next action in the order, or all */
        group = a == DML_A_NOTHING ? "nothing" : "end";
        if (a == DML_A_END)
            snprintf(label, sizeof label, "Forfeit every action left and end your Market Phase");
        else if (s->actions)
            snprintf(label, sizeof label, "Forfeit the next Market Action");
        else
            snprintf(label, sizeof label, "Forfeit the Black Market Action");
    } else {
        /* The options that carry no object: a fixed group and label. */
        static const struct {
            cr_action a;
            const char *group, *label;
        } fixed[] = {
            {DML_A_BUY, "buy", "Buy: declare a target (1 Action)"},
            {DML_A_PLAY, "play", "Play cards on a new Stack (1 Action)"},
            {DML_A_SUBSTITUTE, "substitute", "Substitute: trade 1 Action for 1 Minor Action"},
            {DML_A_NOTHING, "nothing", "Do nothing (1 Minor Action)"},
            {DML_A_END, "end", "End your Market Phase"},
            {DML_A_GIVE, "give", "Thief: give a card of your Hand to another player"},
            {DML_A_TAKE, "take", "Thief: take a random card from another player's Hand"},
        };
        snprintf(label, sizeof label, "%s", text);
        for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; k++)
            if (fixed[k].a == a) {
                group = fixed[k].group;
                snprintf(label, sizeof label, "%s", fixed[k].label);
            }
        switch (a) {
        case DML_A_DONE:
            group = "done";
            snprintf(label, sizeof label, "%s", done_label(s));
            break;
        case DML_A_UNDO:
            group = "undo";
            if (s->sel_n > 0) {
                int c = known_card(&x, s->sel[s->sel_n - 1]);
                obj_card(&ob, c);
                snprintf(label, sizeof label, "Take back %s", code_or_hidden(c));
            } else {
                snprintf(label, sizeof label, "Withdraw: choose another option");
            }
            break;
        case DML_A_REROLL:
            group = "reroll";
            snprintf(label, sizeof label, "Re-roll (%d,%d) (Dabo!)", s->die[0], s->die[1]);
            break;
        case DML_A_KEEP:
            group = "keep";
            snprintf(label, sizeof label, "Keep (%d,%d)", s->die[0], s->die[1]);
            break;
        default: break;
        }
    }

    cr_tbuf t;
    cr_tb_init(&t, buf, cap);
    cr_tb_printf(&t, "{\"id\":%d,\"text\":", (int)a);
    cr_tb_json_str(&t, text);
    cr_tb_printf(&t, ",\"label\":");
    cr_tb_json_str(&t, label);
    cr_tb_printf(&t, ",\"group\":\"%s\",\"objects\":[", group);
    for (int i = 0; i < ob.n; i++) {
        if (i) cr_tb_printf(&t, ",");
        cr_tb_json_str(&t, ob.v[i]);
    }
    cr_tb_printf(&t, "]");
    static const struct {
        const char *group;
        char key;
    } keys[] = {
        /* one letter per kind, the same in every menu (q s u l t v n are the
         * client's own keys); kinds that share a letter never share a menu */
        {"card", 'c'},           {"done", 'd'},     {"undo", 'w'},  {"buy", 'b'},
        {"play", 'p'},           {"callback", 'r'}, {"visit", 'i'}, {"substitute", 'x'},
        {"nothing", 'o'},        {"end", 'e'},      {"power", 'p'}, {"emblem", 'm'},
        {"counsel-market", 'j'}, {"player", 'y'},   {"give", 'g'},  {"take", 'k'},
        {"stock", 'h'},          {"reroll", 'r'},   {"keep", 'k'},  {"pile", 'f'},
        {"wager", 'a'},          {"suit", 'z'},
    };
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (strcmp(group, keys[k].group) == 0) cr_tb_printf(&t, ",\"key\":\"%c\"", keys[k].key);
    cr_tb_printf(&t, "}");
    return t.len;
}

/* ======================================================================
 * help
 * ====================================================================== */

/* " Now <what>: a roll against T succeeds ..." for the roll `roller` makes
 * (what: "your buying roll", "P1's buying roll", ...). */
static void help_rolls(cr_tbuf *t, const dml_state *o, int target, int roller, const char *what)
{
    cr_tb_printf(t, " Now %s: ", what);
    tb_roll_words(t, target, roller, o->actor);
    cr_tb_printf(t, ".");
    tb_specials_words(t, o);
}

/* What the seat knows of each Black Market it may visit (both editions). */
static void help_markets_known(cr_tbuf *t, const dml_state *o, const cr_action *legal, int n)
{
    uint64_t known = 0;
    for (int z = 0; z < DML_NZONES; z++) known |= o->zone[z];
    for (int i = 0; i < n; i++) {
        cr_action a = legal[i];
        if (a < DML_A_VISIT || a >= DML_A_VISIT + DML_MAX_BM) continue;
        int k = a - DML_A_VISIT, z = DML_Z_BM + k, cnt = o->zone_count[z];
        cr_tb_printf(t, " BM%d holds %d card%s", bm_label(o, k), cnt, cnt == 1 ? "" : "s");
        if (o->zone[z]) {
            cr_tb_printf(t, "; you know");
            for (uint64_t m = o->zone[z]; m; m &= m - 1)
                cr_tb_printf(t, " %s", dml_card_code(lowest_card(m)));
        } else {
            cr_tb_printf(t, "; you know none of them");
        }
        int nm = __builtin_popcountll(o->may[o->actor][z] & ~known);
        if (nm > 0)
            cr_tb_printf(t, "; %d card%s you know of may be among them", nm, nm == 1 ? "" : "s");
        cr_tb_printf(t, ".");
    }
}

/* DML-2015's Market Phase (15.4.2, V-PD2, V-PD3): the Market Actions in
 * order, then the Black Market Action; any may be forfeited. */
static void help_market_2015(cr_tbuf *t, const dml_state *o, const cr_action *legal, int n)
{
    int visit = 0, buy = 0, wager = (o->sw & DML_SW_BM_WAGER) != 0;
    for (int i = 0; i < n; i++) {
        visit |= legal[i] >= DML_A_VISIT && legal[i] < DML_A_VISIT + DML_MAX_BM;
        buy |= legal[i] == DML_A_BUY;
    }
    cr_tb_printf(t,
                 "Your Market Phase (DML-2015): %d Market Action%s, then %d Black Market "
                 "Action%s, taken in that order.",
                 o->actions, o->actions == 1 ? "" : "s", o->minors, o->minors == 1 ? "" : "s");
    if (o->actions)
        cr_tb_printf(t, " A Market Action is a Buy, or an attempt on a Black Market instead; "
                        "after the Market Actions comes the Black Market Action, one attempt on "
                        "a Black Market.");
    else
        cr_tb_printf(t, " Your Market Actions are spent: what is left is the Black Market "
                        "Action, one attempt on a Black Market.");
    if (buy)
        cr_tb_printf(t, " Buy: name target cards of one Stock, one Emblem of another player, or "
                        "the Grand Opening Ten; bring the Value to 12 or less with your own "
                        "Emblems and commits, let the others each offer one card to seize it "
                        "(only a Buy from a Stock can be seized), then roll against the final "
                        "Value.");
    if (visit) {
        cr_tb_printf(t, " Black Market attempt: ");
        if (wager)
            cr_tb_printf(t, "wager M cards first (bm-wager), then roll against 7 - M; success "
                            "takes one random card, plus one per Slaves Emblem in your Front, "
                            "and you leave M cards of your Hand in that Black Market; failure "
                            "puts M random cards of your Hand into it.");
        else
            cr_tb_printf(t, "roll against 7 (nothing changes that target); success takes one "
                            "random card, plus one per Slaves Emblem in your Front.");
    }
    cr_tb_printf(t, " Forfeit (nothing): give up the next action in the order. End: forfeit "
                    "all that is left.");
    if (visit && !wager) help_rolls(t, o, 7, o->actor, "a Black Market roll");
    if (visit) help_markets_known(t, o, legal, n);
}

static void help_market(cr_tbuf *t, const cr_game *g, const dml_state *o)
{
    cr_action legal[DML_MAX_LEGAL];
    int n = dml_legal(g, o, legal, NULL);
    if (o->variant == DML_V_2015) {
        help_market_2015(t, o, legal, n);
        return;
    }
    int callback = 0, visit = 0, buy = 0, play = 0, sub = 0, nothing = 0;
    for (int i = 0; i < n; i++) {
        cr_action a = legal[i];
        callback |= a >= DML_A_CALLBACK && a < DML_A_CALLBACK + DML_NCARDS;
        visit |= a >= DML_A_VISIT && a < DML_A_VISIT + DML_MAX_BM;
        buy |= a == DML_A_BUY;
        play |= a == DML_A_PLAY;
        sub |= a == DML_A_SUBSTITUTE;
        nothing |= a == DML_A_NOTHING;
    }
    cr_tb_printf(t,
                 "Your Market Phase: %d Action%s and %d Minor Action%s left; choose options one "
                 "at a time until you end it or run out.",
                 o->actions, o->actions == 1 ? "" : "s", o->minors, o->minors == 1 ? "" : "s");
    if (buy)
        cr_tb_printf(t, " Buy (1 Action): name target cards of one Stock, one Emblem of another "
                        "player, or the Grand Opening Ten; bring the Value to 12 or less with your "
                        "own Emblems and commits, let the others try to seize, then roll against "
                        "the final Value to take the targets.");
    if (play)
        cr_tb_printf(t, " Play (1 Action): open a Stack with cards of your Hand played first.");
    if (callback)
        cr_tb_printf(t, " Callback (1 Action): roll against 7 to take one of your Emblems back "
                        "into your Hand.");
    if (sub) cr_tb_printf(t, " Substitute (1 Action): turn an Action into a Minor Action.");
    if (visit) {
        cr_tb_printf(t, " Visit (1 Minor Action): roll against 7 to take random cards of a Black "
                        "Market (one, plus one per Slaves Emblem in your Front)");
        if (o->variant == DML_V_FIRE)
            cr_tb_printf(t, "; a failure loses a random card of your Hand into it (Hustled!)");
        cr_tb_printf(t, ".");
    }
    if (nothing) cr_tb_printf(t, " Do nothing (1 Minor Action): spend it.");
    cr_tb_printf(t, " End: finish your Turn; what is left is lost.");
    if (callback || visit)
        help_rolls(t, o, 7, o->actor,
                   callback && visit ? "a Visit or Callback roll"
                   : visit           ? "a Visit roll"
                                     : "a Callback roll");
    if (visit) help_markets_known(t, o, legal, n); /* what the seat knows of each */
}

/* The seat's own cards that would count in its Seize offer now, and why
 * the others do not. */
/* "is"/"are" and "it"/"they" for a set of cards. */
static const char *verb_for(uint64_t m) { return (m & (m - 1)) ? "are" : "is"; }
static const char *pronoun_for(uint64_t m) { return (m & (m - 1)) ? "they" : "it"; }

static void help_offer_count(cr_tbuf *t, const dml_state *o, int x)
{
    int me = o->actor, prim = dml_prim_of(o, x);
    if (o->event_type == DML_EV_FCCC && (o->affected >> me & 1)) {
        cr_tb_printf(t, " %s affects you this Round: you must pass.",
                     dml_event_type_name_ed(dml_edition(o), DML_EV_FCCC));
        return;
    }
    uint64_t hand = o->zone[DML_Z_HAND + me];
    /* only Commodities (2-10) count; an Ace, Jack or Queen of the suit is
     * no Commodity, whatever the Event */
    uint64_t of_suit = hand & DML_SUIT_MASK(prim) & dml_commodity_mask();
    uint64_t not_commodity = hand & DML_SUIT_MASK(prim) & ~dml_commodity_mask();
    uint64_t counting = of_suit & dml_commit_filter(o, prim);
    if (not_commodity) {
        cr_tb_printf(t, " Of your %s cards,", suit_word(prim));
        for (uint64_t m = not_commodity; m; m &= m - 1)
            cr_tb_printf(t, " %s", dml_card_code(lowest_card(m)));
        cr_tb_printf(t, " %s no Commodity (only the 2 to 10 are): %s would count 0.",
                     verb_for(not_commodity), pronoun_for(not_commodity));
    }
    int total = 0;
    for (uint64_t m = counting; m; m &= m - 1) total += dml_value(lowest_card(m));
    if (counting && o->variant == DML_V_2015) {    /* one card: the best alone (15.5.2) */
        int best = 63 - __builtin_clzll(counting); /* ids ascend with value within a suit */
        total = dml_value(best);
        cr_tb_printf(t,
                     " Your best card for it is %s (%d): if it is the highest %s Commodity "
                     "placed, the Value becomes %d + %d = %d and P%d rolls against that: ",
                     dml_card_code(best), total, suit_word(prim), o->D, total, o->D + total,
                     o->active);
        tb_roll_words(t, o->D + total, o->active, me);
        cr_tb_printf(t, "; when it fails, the targets are yours.");
        return;
    }
    if (!counting) {
        cr_tb_printf(t, " None of your cards would count: you hold no %s Commodity",
                     suit_word(prim));
        if (of_suit)
            cr_tb_printf(t, " that the Event (%s) lets you commit",
                         dml_event_type_name_ed(dml_edition(o), o->event_type));
        cr_tb_printf(t, ". Cards that do not count still go back to your Hand.");
        return;
    }
    cr_tb_printf(t, " Your cards that would count:");
    for (uint64_t m = counting; m; m &= m - 1)
        cr_tb_printf(t, " %s (%d)", dml_card_code(lowest_card(m)), dml_value(lowest_card(m)));
    cr_tb_printf(t, ", %d in all; offering all of them makes the Value %d + %d = %d.", total, o->D,
                 total, o->D + total);
    cr_tb_printf(t, " If your offer wins, P%d's buying roll is against %d: ", o->active,
                 o->D + total);
    tb_roll_words(t, o->D + total, o->active, me);
    cr_tb_printf(t, "; when it fails, the targets are yours.");
    if (of_suit & ~counting) {
        cr_tb_printf(t, " The Event (%s) forbids",
                     dml_event_type_name_ed(dml_edition(o), o->event_type));
        for (uint64_t m = of_suit & ~counting; m; m &= m - 1)
            cr_tb_printf(t, " %s", dml_card_code(lowest_card(m)));
        cr_tb_printf(t, ": they would count 0.");
    }
}

/* What a card does as a Power (8.3; DML-2015: 15.6, and 15.9 with
 * cards-2015-06) in edition ed, in the help's words: written to t (when
 * not NULL) as said to the seat that plays it (seat -1: "you", "your
 * Hand") or of seat ("P2", "P2's Hand"), as the log says it.  Returns 0,
 * writing nothing, for a card without a Power. */
int dml_power_words(cr_tbuf *t, int ed, int c, int seat)
{
    char you[8], your[8];
    snprintf(you, sizeof you, seat >= 0 && seat < 4 ? "P%d" : "you", seat);
    snprintf(your, sizeof your, seat >= 0 && seat < 4 ? "P%d's" : "your", seat);
    /* the words, the seat where it is named (else NULL), the words after it */
    const char *w = NULL, *who = NULL, *rest = "";
    int y2015 = ed != DML_ED_2016, y0615 = ed == DML_ED_2015_06;
    if (dml_is_joker(c)) {
        w = "Thief: give a card of ";
        who = your;
        rest = y0615 ? " Hand to another player or take a random card from one; then the Joker "
                       "goes back into the Deck, with no roll"
                     : " Hand to another player or take a random card from one; then roll "
                       "against 7 to keep the Joker in play";
    } else {
        switch (dml_rank(c) * 4 + dml_suit(c)) {
        case DML_J * 4 + DML_SUIT_S:
            w = "Grand Inquisitor: every card of the Stocks and Black Markets goes to the "
                "Discard Pile, then the Stocks are refilled";
            break;
        case DML_J * 4 + DML_SUIT_C:
            w = y0615   ? "Greed Vizier: the Wheel of Profit turns the other way until the Round "
                          "ends (each suit is bought with its other neighbour)"
                : y2015 ? "Rogue Jester: the cards still on the Stack are turned over, so the "
                          "lowest resolves next and the highest last"
                        : "Vice Minister: an Emblem of any Front goes back to its owner's Hand";
            break;
        case DML_J * 4 + DML_SUIT_H:
            w = y0615   ? "Troublesome Blabbermouth: name a suit; cards are drawn until a "
                          "Commodity of it comes up (the others go to the Discard Pile) and it "
                          "becomes the Event at once"
                : y2015 ? "Supreme Confisfactor: look at a Black Market privately and take one "
                          "of its cards"
                        : "Prime Counsellor: look at a Black Market privately and take one of "
                          "its cards";
            break;
        case DML_J * 4 + DML_SUIT_D:
            if (y0615) {
                w = "Goods Swindler: look at a Black Market privately and take one of its cards";
                break;
            }
            w = y2015 ? "Tithe Embezzeler: each other player gives "
                      : "Supreme Secretary of Tithes: each other player gives ";
            who = you;
            rest = " a card of their choice";
            break;
        case DML_Q * 4 + DML_SUIT_S:
            w = y2015 ? "Dragon Empress: a Dragon Siege (only the Dragon Eggs are lost)"
                      : "Dragon Empress: a Dragon Siege";
            break;
        case DML_Q * 4 + DML_SUIT_C:
            w = y0615   ? "Harlot Queen: every Jack, Queen and Joker below her on the Stack goes "
                          "to Exile without resolving (a Ten below her stays and resolves)"
                : y2015 ? "Harlot Queen: every card below her on the Stack leaves without "
                          "resolving (Jacks, Queens and Jokers to Exile, Tens to the Discard "
                          "Pile)"
                        : "Harlot Queen: a card below her on the Stack leaves without resolving";
            break;
        case DML_Q * 4 + DML_SUIT_H:
            w = y0615 ? "Mother of Dragons: take the top Dragon Egg of the Nest"
                      : "Pampered Heiress: take the top Dragon Egg of the Nest";
            break;
        case DML_Q * 4 + DML_SUIT_D:
            w = "Archduchess: take a whole Stock into ";
            who = your;
            rest = " Hand";
            break;
        default: return 0;
        }
    }
    if (t) cr_tb_printf(t, "%s%s%s", w, who ? who : "", rest);
    return 1;
}

static void help_stack_cards(cr_tbuf *t, const dml_state *o)
{
    uint64_t hand = o->zone[DML_Z_HAND + o->actor];
    int any = 0;
    for (uint64_t m = hand; m; m &= m - 1) {
        int c = lowest_card(m), r = dml_rank(c);
        int pw = dml_power_words(NULL, dml_edition(o), c, -1);
        int emblem = !dml_is_joker(c) && (r == DML_T || r == DML_J || r == DML_Q);
        if (!pw && !emblem) continue;
        cr_tb_printf(t, "%s %s:", any ? ";" : " Your playable cards:", dml_card_code(c));
        if (pw) {
            cr_tb_printf(t, " as a Power, ");
            dml_power_words(t, dml_edition(o), c, -1);
        }
        if (emblem)
            cr_tb_printf(
                t, "%s as an Emblem, -%d on your Buys of %s and a %s bonus", pw ? "," : "",
                r == DML_Q ? 2 : 1, suit_word(dml_suit(c)),
                (const char *[]){"Shield", "Tribute", "Permission", "Fortune"}[dml_suit(c)]);
        any = 1;
    }
    cr_tb_printf(t, any ? "." : " You hold no card that can be played.");
}

/* The name of the Power resolving now (the Jack of Slaves searches in
 * 2016 and 2015, the Jack of Spice as cards-2015-06's Goods Swindler), or
 * card's name in the observation's edition when none resolves. */
static const char *power_name(const dml_state *o, int card)
{
    if (o->resolving >= 0 && o->resolving < DML_NCARDS) return dml_card_name_in(o, o->resolving);
    return dml_card_name_in(o, card);
}

/* DML-2015's Character Power Phase (15.3.2, V-PD5): a Stack episode. */
static void help_stack_2015(cr_tbuf *t, const dml_state *o)
{
    cr_tb_printf(t, "Character Power Phase (DML-2015): you have priority on the Stack. Play "
                    "cards of your Hand, each as a Power (a Jack, Queen or Joker) or an Emblem "
                    "(a Jack, Queen or Ten); plays cost nothing, and the last card played "
                    "resolves first. Or pass: the Stack resolves once everyone else has passed "
                    "in a row. A Rogue Jester turns over what is still on the Stack when it "
                    "resolves; the Harlot Queen stops everything below her.");
    if (o->sw & DML_SW_CARDS_0615)
        cr_tb_printf(t, " (cards-2015-06: the Jacks and Queens of your Front may be played as "
                        "Powers too.)");
    if (o->event_type == DML_EV_CUSTOMS && (o->affected >> o->actor & 1))
        cr_tb_printf(t, " Decadence affects you this Round: no Powers, but Emblems are allowed.");
    help_stack_cards(t, o);
    if (o->stack_n > 0) {
        cr_tb_printf(t, " On the Stack now, the top first:");
        for (int i = o->stack_n - 1; i >= 0 && i < DML_MAX_STACK; i--)
            cr_tb_printf(t, "%s %s (P%d's %s)", i == o->stack_n - 1 ? "" : ",",
                         dml_card_code(o->stack_card[i]), o->stack_flag[i] & DML_SF_SEAT,
                         o->stack_flag[i] & DML_SF_EMBLEM ? "Emblem" : "Power");
        cr_tb_printf(t, ".");
        int top = o->stack_n - 1;
        if (top >= 1 && o->stack_card[top] == dml_card(DML_SUIT_C, DML_J) &&
            !(o->stack_flag[top] & DML_SF_EMBLEM) && !(o->sw & DML_SW_CARDS_0615))
            cr_tb_printf(t,
                         " If nobody plays on it, the Rogue Jester resolves first and turns the "
                         "rest over: %s, at the bottom now, comes to the top and resolves next.",
                         dml_card_code(o->stack_card[0]));
    }
}

/* V-PD1: the blind choice of a starting pile. */
static void help_pile(cr_tbuf *t, const dml_state *o)
{
    cr_tb_printf(t, "Setup (DML-2015): the four 2s and the four 3s lie face-down in four piles, "
                    "each one 2 and one 3. From the Dealer on, each player takes a pile without "
                    "seeing it; its two cards go to the Hand. Nobody can tell the piles apart, "
                    "so no choice is better than another. Piles left:");
    for (int k = 0; k < 4; k++)
        if (o->pile[k][0]) cr_tb_printf(t, " %c", 'A' + k);
    cr_tb_printf(t, ".");
}

/* V-PD6 (bm-wager): the wager M and its chance, for the wagers that matter. */
static void help_wager(cr_tbuf *t, const dml_state *o)
{
    int hand = o->zone_count[DML_Z_HAND + o->actor];
    cr_tb_printf(t,
                 "Black Market attempt with a wager (bm-wager): choose M, from 0 to the %d "
                 "card%s of your Hand. The roll is against 7 - M. Success: you take one random "
                 "card of it (plus one per Slaves Emblem in your Front), then leave M cards of "
                 "your Hand of your choice in it. Failure: M random cards of your Hand go into "
                 "it.",
                 hand, hand == 1 ? "" : "s");
    cr_tb_printf(t, " Chances:");
    for (int m = 0; m <= hand && m <= 5; m++) {
        roll_odds r = odds(7 - m);
        cr_tb_printf(t, "%s M %d: %.1f%%", m ? "," : "", m, pct(r.succ, 36));
    }
    cr_tb_printf(t, " (a wager above 5 cannot do better: (1,1) always fails).");
}

/* V18: what the seat knows of the Deck, suit by suit. */
static void help_name_suit(cr_tbuf *t, const dml_state *o)
{
    uint64_t known = 0;
    for (int z = 0; z < DML_NZONES; z++)
        if (z != DML_Z_DECK) known |= o->zone[z];
    cr_tb_printf(t, " The Deck holds %d card%s; Commodities you have not seen elsewhere:",
                 o->zone_count[DML_Z_DECK], o->zone_count[DML_Z_DECK] == 1 ? "" : "s");
    for (int su = 0; su < 4; su++)
        cr_tb_printf(t, "%s %s %d", su ? "," : "", suit_word(su),
                     popc(DML_SUIT_MASK(su) & dml_commodity_mask() & ~known));
    cr_tb_printf(t, ".");
}

size_t dml_help(const cr_game *g, const void *vobs, char *buf, size_t cap)
{
    const dml_state *o = vobs;
    cr_tbuf tb, *t = &tb;
    cr_tb_init(t, buf, cap);
    if (o->over || o->need != DML_NEED_DECISION || o->actor < 0 || o->actor >= o->n) return t->len;
    if (o->obs_seat != DML_OBS_ALL && o->obs_seat != o->actor) return t->len; /* not its turn */
    int x = o->buy_suit >= 0 && o->buy_suit < 4 ? o->buy_suit : -1;
    int target, roller;
    const char *what;
    switch (o->kind) {
    case DML_D_DABO: {
        cr_tb_printf(t,
                     "Dabo! You rolled the double (%d,%d): keep it, or re-roll and throw it away "
                     "(another Dabo! double may be re-rolled again).",
                     o->die[0], o->die[1]);
        if (pending_check(o, &target, &roller, &what)) {
            int sp, ok = dml_check_eval(o->die[0], o->die[1], target, &sp);
            cr_tb_printf(t, " This is a %s against %d: keeping (%d,%d) %s.", what, target,
                         o->die[0], o->die[1], ok ? "succeeds" : "fails");
            help_rolls(t, o, target, roller, "a re-roll");
        } else {
            cr_tb_printf(t, " This roll is for the Dealer roll-off: the highest total deals; "
                            "(6,6) wins at once.");
        }
        break;
    }
    case DML_D_MARKET: help_market(t, g, o); break;
    case DML_D_DECLARE:
        cr_tb_printf(t,
                     "Declaration: choose the targets first: any cards of one Stock (each at "
                     "its Value now), or one Emblem of another player (Value 10), or the Grand "
                     "Opening Ten (Value 10). Your own Emblems of that suit lower the total once "
                     "(Queen 2, Jack or Ten 1). Then you may commit Commodities of the suit "
                     "that buys it from your Hand, each lowering the Value by its printed "
                     "value. Done needs a Value of 12 or less; Take back removes the last card, "
                     "and Withdraw gives up the Buy while nothing is chosen.");
        if (buying_target(o, &target)) {
            int su = o->sel_n ? dml_suit(o->sel[0]) : -1;
            cr_tb_printf(t, " So far: %s, Value %d.", suit_word(su), target);
            if (su >= 0 && su < 4) { /* what buys it: the cards that matter now */
                int prim = dml_prim_of(o, su);
                uint64_t mine = o->zone[DML_Z_HAND + o->actor] & DML_SUIT_MASK(prim) &
                                dml_commodity_mask() & dml_commit_filter(o, prim);
                for (int i = 0; i < o->sel_n && i < DML_NCARDS; i++) mine &= ~dml_bit(o->sel[i]);
                cr_tb_printf(t,
                             " %s is bought with %s: the others may try to seize it with "
                             "their %s Commodities.",
                             suit_word(su), suit_word(prim), suit_word(prim));
                if (mine) {
                    cr_tb_printf(t, " You may commit");
                    for (uint64_t m = mine; m; m &= m - 1)
                        cr_tb_printf(t, " %s (%d)", dml_card_code(lowest_card(m)),
                                     dml_value(lowest_card(m)));
                    cr_tb_printf(t, " to lower the Value.");
                } else {
                    cr_tb_printf(t, " You hold no %s Commodity you may commit.", suit_word(prim));
                }
            }
            help_rolls(t, o, target, o->actor, "your buying roll");
        }
        break;
    case DML_D_OFFER:
        if (o->variant == DML_V_2015) {
            cr_tb_printf(t,
                         "Seize (DML-2015): P%d is buying %s at Value %d. Place one card of your "
                         "Hand face-down, or pass. The cards are shown together: the highest %s "
                         "Commodity that the Event lets one commit wins (no tie is possible, "
                         "they are all of one suit); its card is committed at once and raises "
                         "the Value. Any other card, a bluff too, goes back to its Hand. If the "
                         "buying roll fails, the winner takes the targets.",
                         o->active, suit_word(x), o->D,
                         x >= 0 ? suit_word(dml_prim_of(o, x)) : "none");
            if (x >= 0) help_offer_count(t, o, x);
            break;
        }
        cr_tb_printf(t,
                     "Seize: P%d is buying %s at Value %d. Place any cards of your Hand face-down, "
                     "or pass. When everyone has acted the offers are shown; only %s Commodities "
                     "that may be committed under the Event count, and the largest total above 0 "
                     "wins (a tie goes to whoever acted first). The winner's counting cards are "
                     "committed and raise the Value the buyer must roll; if the roll fails, the "
                     "winner takes the targets. Every other card goes back to its Hand.",
                     o->active, suit_word(x), o->D, x >= 0 ? suit_word(dml_prim_of(o, x)) : "none");
        if (x >= 0) help_offer_count(t, o, x);
        if (x >= 0) {
            cr_tb_printf(t, " If nobody seizes, P%d rolls against %d: ", o->active, o->D);
            tb_roll_words(t, o->D, o->active, o->actor);
            cr_tb_printf(t, ".");
        }
        break;
    case DML_D_COMMIT_ACT:
        cr_tb_printf(t,
                     "Resolution: the Value is D %d + P %d = %d. Commit %s cards to lower D by "
                     "their printed values, and/or %s cards to cut P (never below 0). Committed "
                     "cards go to the Stocks. Committing nothing ends the exchange and you roll "
                     "against the Value.",
                     o->D, o->P, o->D + o->P, x >= 0 ? suit_word(dml_prim_of(o, x)) : "none",
                     x >= 0 ? suit_word(dml_sec(x)) : "none");
        help_rolls(t, o, o->D + o->P, o->actor, "your buying roll");
        break;
    case DML_D_COMMIT_PAS:
        cr_tb_printf(t,
                     "Resolution: you won the Seize. The Value is D %d + P %d = %d. Commit %s "
                     "cards to raise P by their printed values, or commit nothing and P%d rolls "
                     "against the Value; if that roll fails, the targets come to you.",
                     o->D, o->P, o->D + o->P, x >= 0 ? suit_word(dml_prim_of(o, x)) : "none",
                     o->active);
        {
            char who[32];
            snprintf(who, sizeof who, "P%d's buying roll", o->active);
            help_rolls(t, o, o->D + o->P, o->active, who);
        }
        break;
    case DML_D_STACK:
        if (o->variant == DML_V_2015) {
            help_stack_2015(t, o);
            break;
        }
        cr_tb_printf(t, "Stack: you have priority. Play cards of your Hand, each as a Power (a "
                        "Jack, Queen or Joker) or an Emblem (a Jack, Queen or Ten); the last card "
                        "played resolves first. Or pass: the Stack resolves once everyone else "
                        "has passed in a row.");
        if (o->event_type == DML_EV_CUSTOMS && (o->affected >> o->actor & 1))
            cr_tb_printf(t, " Customs Crackdown affects you this Round: you may only pass.");
        else
            help_stack_cards(t, o);
        break;
    case DML_D_VICE:
        cr_tb_printf(t, "Vice Minister: choose an Emblem in any Front; it goes back to its "
                        "owner's Hand.");
        break;
    case DML_D_COUNSEL_BM:
        cr_tb_printf(t,
                     "%s: choose a Black Market; you will see all of its cards and take one of "
                     "them into your Hand.",
                     power_name(o, dml_card(DML_SUIT_H, DML_J)));
        break;
    case DML_D_COUNSEL_CARD:
        cr_tb_printf(t, "%s: you see the cards of BM%d; take one into your Hand.",
                     power_name(o, dml_card(DML_SUIT_H, DML_J)), bm_label(o, o->karg));
        break;
    case DML_D_TITHE:
        cr_tb_printf(t, "%s: give one card of your Hand, of your choice, to P%d.",
                     dml_card_name_in(o, dml_card(DML_SUIT_D, DML_J)),
                     o->nfr ? o->fr[o->nfr - 1].b : -1);
        break;
    case DML_D_PILE: help_pile(t, o); break;
    case DML_D_WAGER: help_wager(t, o); break;
    case DML_D_LEAVE:
        cr_tb_printf(t,
                     "Your Black Market attempt succeeded (bm-wager): now leave the %d card%s "
                     "you wagered in that Black Market, chosen from your Hand; the cards you "
                     "just took may not be among them. Take back removes the last card chosen.",
                     o->karg, o->karg == 1 ? "" : "s");
        break;
    case DML_D_NAME_SUIT:
        cr_tb_printf(t, "Troublesome Blabbermouth: name a suit. Cards are drawn from the Deck one "
                        "at a time until a Commodity of that suit (a Ten too) comes up; the "
                        "others go to the Discard Pile (a Joker brings the Foreign Merchant). "
                        "That card becomes the Event at once, in place of the old one, for the "
                        "rest of the Round. If the Deck runs out first, the old Event stays.");
        help_name_suit(t, o);
        break;
    case DML_D_HARLOT:
        cr_tb_printf(t, "Harlot Queen: choose a card still on the Stack; it leaves without "
                        "resolving, to Exile (a Ten to the Discard Pile).");
        break;
    case DML_D_ARCHDUCHESS:
        cr_tb_printf(t, "Archduchess: choose a Stock that holds cards; all of them go into your "
                        "Hand.");
        break;
    case DML_D_THIEF_MODE:
    case DML_D_THIEF_CARD:
    case DML_D_THIEF_PLAYER:
        if (o->sw & DML_SW_CARDS_0615) { /* cards-2015-06: no roll (15.9) */
            cr_tb_printf(t, "Thief: %s Then the Joker goes back into the Deck, with no roll.",
                         o->kind == DML_D_THIEF_MODE
                             ? "either give a card of your choice from your Hand to another "
                               "player, or take a random card from another player's Hand."
                         : o->kind == DML_D_THIEF_CARD ? "choose the card of your Hand to give."
                         : o->nfr && o->fr[o->nfr - 1].step == 2
                             ? "choose the player to give a card to."
                             : "choose the player to take a random card from.");
            break;
        }
        if (o->kind == DML_D_THIEF_MODE)
            cr_tb_printf(t, "Thief: either give a card of your choice from your Hand to another "
                            "player, or take a random card from another player's Hand.");
        else if (o->kind == DML_D_THIEF_CARD)
            cr_tb_printf(t, "Thief: choose the card of your Hand to give.");
        else
            cr_tb_printf(t, "Thief: choose the player to %s.",
                         o->nfr && o->fr[o->nfr - 1].step == 2 ? "give a card to"
                                                               : "take a random card from");
        cr_tb_printf(t, " Then you roll against 7: success shuffles the Joker into the Deck, "
                        "failure exiles it.");
        help_rolls(t, o, 7, o->actor, "your roll for the Joker");
        break;
    default: cr_tb_printf(t, "Decision %d.", o->kind); break;
    }
    return t->len;
}

/* ======================================================================
 * display fields of the observation JSON
 * ====================================================================== */

/* Whether the Market decision offers a Callback or a Visit (both roll
 * against 7).  Their legality reads only public fields, so the legal list
 * of any view's observation tells it. */
static int market_rolls(const cr_game *g, const dml_state *o)
{
    cr_action legal[DML_MAX_LEGAL];
    int n = dml_legal(g, o, legal, NULL);
    for (int i = 0; i < n; i++)
        if (legal[i] >= DML_A_CALLBACK && legal[i] < DML_A_VISIT + DML_MAX_BM) return 1;
    return 0;
}

/* DML-2015's events (15.8) and the texts of events-2015-06 and
 * buying-frenzy (V12, V13), in the same words. */
static void event_words_2015(const dml_state *o, const char **player, const char **market,
                             char *mbuf, size_t mcap)
{
    int ev = o->ev, old = (o->sw & DML_SW_EVENTS_0615) != 0;
    switch (o->event_type) {
    case DML_EV_FCCC:
        *player = "Affected players must pass every Seize.";
        if (old)
            snprintf(mbuf, mcap,
                     "Commodities of printed value %d or more committed in a Buy go to the "
                     "Discard Pile, not to their Stock.",
                     ev);
        else
            snprintf(mbuf, mcap,
                     "Only Commodities of printed value %d or less may be committed or count in "
                     "a Seize.",
                     ev);
        *market = mbuf;
        break;
    case DML_EV_HATED:
        *player = "Each affected player discarded a random card of their Hand when the Event "
                  "came.";
        snprintf(mbuf, mcap,
                 "Stock Commodities of printed value %d or more are worth 2 more as targets.", ev);
        *market = mbuf;
        break;
    case DML_EV_CUSTOMS:
        *player = "Affected players may not play Powers (Emblems are still allowed).";
        if (old)
            snprintf(mbuf, mcap, "Commodities of printed value %d or more may not be committed.",
                     ev);
        else
            snprintf(mbuf, mcap,
                     "Only Commodities of printed value %d or more may be committed or count in "
                     "a Seize.",
                     ev);
        *market = mbuf;
        break;
    case DML_EV_UNION:
        *player = old ? "Players whose Hand was below the Event's value have one more Market "
                        "Action; nobody loses the Black Market Action."
                      : "Affected players have no Black Market Action (a Market Action may "
                        "still be an attempt on a Black Market).";
        snprintf(mbuf, mcap,
                 "Stock Commodities of printed value %d or more are worth 2 less as targets.", ev);
        *market = mbuf;
        break;
    case DML_EV_CARNIVAL:
        *player = "Every player has one more Market Action in their Market Phase.";
        break;
    case DML_EV_OPENING:
        *player = "Every player has one more Market Action in their Market Phase.";
        *market = "The Ten of the Event may be bought as a target of Value 10.";
        break;
    case DML_EV_ALLBETS:
        *market = "Commodities committed in a Buy of another player's Emblem go to the Discard "
                  "Pile, not to their Stock.";
        break;
    case DML_EV_FRENZY:
        *player = "Every player has one more Market Action in their Market Phase.";
        break;
    default: break;
    }
}

static void event_words(const dml_state *o, const char **player, const char **market, char *mbuf,
                        size_t mcap)
{
    int mayhem = o->variant == DML_V_MAYHEM, ev = o->ev;
    *player = *market = NULL;
    if (o->variant == DML_V_2015) {
        event_words_2015(o, player, market, mbuf, mcap);
        return;
    }
    switch (o->event_type) {
    case DML_EV_FCCC:
        *player = "Affected players must pass every Seize.";
        snprintf(mbuf, mcap,
                 "Only Commodities of printed value %d or less may be committed or count in a "
                 "Seize; Tens never.",
                 ev);
        *market = mbuf;
        break;
    case DML_EV_HATED:
        *player = "Each affected player discarded a random card of their Hand when the Event "
                  "came.";
        snprintf(mbuf, mcap,
                 "Stock Commodities of printed value %d or less are worth 2 more as "
                 "targets.",
                 ev);
        *market = mbuf;
        break;
    case DML_EV_CUSTOMS:
        *player = "Affected players may not play cards on any Stack.";
        snprintf(mbuf, mcap,
                 "Only Commodities of printed value %d or more may be committed or count in a "
                 "Seize.",
                 ev);
        *market = mbuf;
        break;
    case DML_EV_UNION:
        *player = "Affected players may not visit a Black Market.";
        snprintf(mbuf, mcap,
                 "Stock Commodities of printed value %d or more are worth 2 less as "
                 "targets.",
                 ev);
        *market = mbuf;
        break;
    case DML_EV_CARNIVAL:
        *player = "Every player has one more Action in their Market Phase.";
        break;
    case DML_EV_OPENING:
        *player = "Every player has one more Action in their Market Phase.";
        *market = "The Ten of the Event may be bought as a target of Value 10.";
        break;
    default: break;
    }
    if (mayhem) {
        *player = NULL; /* Market Mayhem: no Player Effects, a Ten as Event does nothing */
        if (o->event_type == DML_EV_OPENING) *market = NULL;
    }
}

/* DML-2015's words for a client (docs/clients.md, "display"): the edition,
 * the names of its Tens, Jacks and Queens, the budget's two kinds of
 * action, the Setup piles left, and whether a Character Power Phase is
 * under way. */
static void display_json_2015(cr_tbuf *t, const dml_state *o)
{
    int ed = dml_edition(o);
    cr_tb_printf(t, ",\"edition\":\"%s\",\"names\":{", ed == DML_ED_2015_06 ? "2015-06" : "2015");
    int first = 1;
    for (int c = 0; c < DML_NCARDS; c++) {
        int r = dml_rank(c);
        if (r != DML_T && r != DML_J && r != DML_Q) continue;
        cr_tb_printf(t, "%s\"%s\":", first ? "" : ",", dml_card_code(c));
        cr_tb_json_str(t, dml_card_name_in(o, c));
        first = 0;
    }
    cr_tb_printf(t, "},\"budget_names\":[\"Market Action\",\"Black Market Action\"],\"piles\":[");
    first = 1;
    for (int k = 0; k < 4; k++)
        if (o->pile[k][0]) {
            cr_tb_printf(t, "%s\"%c\"", first ? "" : ",", 'A' + k);
            first = 0;
        }
    int cpp = 0; /* a Stack episode that no Play Action opened (15.3.2, V11) */
    for (int i = 0; i < o->nfr && i < DML_MAX_FRAMES; i++)
        if (o->fr[i].proc == DML_P_STACK && o->fr[i].a != 1) cpp = 1;
    cr_tb_printf(t, "],\"cpp\":%s", cpp ? "true" : "false");
}

void dml_display_json(const cr_game *g, cr_tbuf *t, const dml_state *o)
{
    char mbuf[160];
    const char *player, *market;
    event_words(o, &player, &market, mbuf, sizeof mbuf);
    int extra = o->variant != DML_V_MAYHEM &&
                (o->event_type == DML_EV_CARNIVAL || o->event_type == DML_EV_OPENING ||
                 o->event_type == DML_EV_FRENZY);
    cr_tb_printf(t, ",\"display\":{\"event\":{\"name\":");
    if (o->event_type)
        cr_tb_json_str(t, dml_event_type_name_ed(dml_edition(o), o->event_type));
    else
        cr_tb_printf(t, "null");
    cr_tb_printf(t, ",\"player_effect\":");
    if (player)
        cr_tb_json_str(t, player);
    else
        cr_tb_printf(t, "null");
    cr_tb_printf(t, ",\"market_effect\":");
    if (market)
        cr_tb_json_str(t, market);
    else
        cr_tb_printf(t, "null");
    cr_tb_printf(t, ",\"extra_actions\":%d}", extra);
    if (o->variant == DML_V_2015) display_json_2015(t, o);
    /* the observing seat's Victory Points as things stand (its Hand and King
     * are its own, its Front public); the others' stay hidden until the
     * end reveals them ("vp") */
    if (o->obs_seat < o->n && dml_is_alive(o, o->obs_seat))
        cr_tb_printf(t, ",\"my_vp\":%d", dml_vp(o, o->obs_seat));

    /* every card this view can place that has a Value */
    uint64_t visible = 0;
    for (int z = 0; z < DML_NZONES; z++) visible |= o->zone[z];
    cr_tb_printf(t, ",\"values\":{");
    int first = 1;
    for (uint64_t m = visible; m; m &= m - 1) {
        int c = lowest_card(m), z = o->loc[c];
        int in_front = z >= DML_Z_FRONT && z < DML_Z_FRONT + 4;
        int opening = z == DML_Z_EVENT && o->event_type == DML_EV_OPENING;
        int as_target = z == DML_Z_STOCK || z == DML_Z_TARGET || in_front || opening;
        if (!dml_is_commodity(c) && !in_front && z != DML_Z_TARGET) continue;
        int value = as_target ? dml_target_value(o, c) : dml_value(c);
        cr_tb_printf(t, "%s\"%s\":{\"value\":%d,\"printed\":", first ? "" : ",", dml_card_code(c),
                     value);
        first = 0;
        if (dml_is_commodity(c))
            cr_tb_printf(t, "%d", dml_value(c));
        else
            cr_tb_printf(t, "null");
        cr_tb_printf(t, ",\"as\":\"%s\"", as_target ? "target" : "printed");
        if (dml_is_commodity(c))
            cr_tb_printf(t, ",\"commit_ok\":%s",
                         (dml_commit_filter(o, dml_suit(c)) & dml_bit(c)) ? "true" : "false");
        cr_tb_printf(t, "}");
    }
    cr_tb_printf(t, "},\"rolls\":[");
    first = 1;
    int target, roller;
    const char *what;
    if (pending_check(o, &target, &roller, &what)) {
        cr_tb_printf(t, "{\"what\":\"%s\",\"pending\":true,\"roller\":\"P%d\",", what, roller);
        tb_roll_json(t, target);
        cr_tb_printf(t, "}");
        first = 0;
    } else if (buying_target(o, &target)) {
        cr_tb_printf(t, "{\"what\":\"buying roll\",\"pending\":false,\"roller\":\"P%d\",",
                     o->active);
        tb_roll_json(t, target);
        cr_tb_printf(t, "}");
        first = 0;
    }
    /* bm-wager's attempts roll against 7 - the wager, not yet chosen here */
    if (o->need == DML_NEED_DECISION && o->kind == DML_D_MARKET && market_rolls(g, o) &&
        !(o->sw & DML_SW_BM_WAGER)) {
        cr_tb_printf(
            t, "%s{\"what\":\"%s\",\"pending\":false,\"roller\":\"P%d\",", first ? "" : ",",
            o->variant == DML_V_2015 ? "black market attempt" : "callback or visit", o->actor);
        tb_roll_json(t, 7);
        cr_tb_printf(t, "}");
        first = 0;
    }
    if (o->need == DML_NEED_DECISION && o->kind >= DML_D_THIEF_MODE &&
        o->kind <= DML_D_THIEF_PLAYER) {
        cr_tb_printf(t, "%s{\"what\":\"thief\",\"pending\":false,\"roller\":\"P%d\",",
                     first ? "" : ",", o->actor);
        tb_roll_json(t, 7);
        cr_tb_printf(t, "}");
    }
    cr_tb_printf(t, "]}");
}
