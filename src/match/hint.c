/* hint.c — cr_match_hint (croupier/analysis.h): what a tier would play for
 * the seat to act, and why, in one line.  The bot is made for the call from
 * the tier's spec, sees the seat's observation and the legal list only, and
 * is seeded from the record's length: a hint never changes the match, and
 * asking twice gives the same answer.  cr_hint_think and cr_hint_text are
 * its two halves (the thinking, the wording), for a caller that thinks
 * without holding the match (the server). */
#include <stdio.h>
#include <string.h>

#include "croupier/alloc.h"
#include "croupier/analysis.h"
#include "croupier/bot.h"
#include "croupier/parts.h"

static void set_err(char *err, size_t cap, const char *msg)
{
    if (err && cap) snprintf(err, cap, "%s", msg);
}

const char *cr_hint_tier(const cr_game *g, const char *tier)
{
    if (tier != NULL && tier[0] != '\0') return tier;
    const cr_game_parts *parts = cr_parts(g);
    return parts->n_tiers > 0 ? parts->tiers[parts->n_tiers - 1].name : NULL;
}

cr_status cr_hint_think(const cr_game *g, int seat, const char *tier, uint64_t seed,
                        const void *obs, const cr_action *legal, int n, cr_hint *out, char *err,
                        size_t errcap)
{
    memset(out, 0, sizeof *out);
    if (n < 1) {
        set_err(err, errcap, "no legal action");
        return CR_ERR_ILLEGAL;
    }
    cr_bot *b = cr_bot_new(g, tier, seat, seed, err, errcap);
    if (b == NULL) return CR_ERR_INVALID;
    size_t ml = (size_t)(g->max_legal > 0 ? g->max_legal : 1);
    cr_bot_choice *ch = cr_alloc(ml * sizeof *ch);
    if (!ch) {
        cr_bot_free(b);
        set_err(err, errcap, "out of memory");
        return CR_ERR_NOMEM;
    }
    out->action = cr_bot_act(b, obs, legal, n);
    int k = cr_bot_last_choices(b, ch, (int)ml), best = -1, next = -1;
    for (int i = 0; i < k; i++) {
        if (ch[i].action == out->action)
            best = i;
        else if (ch[i].visits > 0 && (next < 0 || ch[i].visits > ch[next].visits))
            next = i;
    }
    if (best >= 0) {
        out->rated = 1;
        out->value = ch[best].value;
        if (next >= 0) {
            out->has_other = 1;
            out->other = ch[next].action;
            out->other_value = ch[next].value;
        }
    }
    cr_free(ch);
    cr_bot_free(b);
    return CR_OK;
}

void cr_hint_text(const cr_match *m, int seat, const char *tier, const cr_hint *h, char *buf,
                  size_t cap)
{
    char text[128];
    cr_match_action_text(m, seat, h->action, text, sizeof text);
    if (!h->rated) {
        snprintf(buf, cap, "%s would play: %s", tier, text);
    } else if (!h->has_other) {
        snprintf(buf, cap, "%s would play: %s (its search rates it %.0f%%)", tier, text,
                 100 * h->value);
    } else {
        char other[128];
        cr_match_action_text(m, seat, h->other, other, sizeof other);
        snprintf(buf, cap, "%s would play: %s (its search rates it %.0f%%, %s %.0f%%)", tier, text,
                 100 * h->value, other, 100 * h->other_value);
    }
}

cr_status cr_match_hint(const cr_match *m, int seat, const char *tier, char *buf, size_t cap,
                        char *err, size_t errcap)
{
    if (cap) buf[0] = '\0';
    const cr_game *g = cr_match_game(m);
    if (seat < 0 || seat >= g->num_players || cr_match_to_act(m) != seat) {
        set_err(err, errcap, "a hint is for the seat to act");
        return CR_ERR_ILLEGAL;
    }
    if (!cr_match_hints_allowed(m)) {
        set_err(err, errcap,
                "no hints in a game with other human players, unless all agreed when the table "
                "was made");
        return CR_ERR_ILLEGAL;
    }
    tier = cr_hint_tier(g, tier);
    if (tier == NULL) {
        set_err(err, errcap, "this game names no tiers: say which bot (hint heuristic)");
        return CR_ERR_INVALID;
    }
    size_t ml = (size_t)(g->max_legal > 0 ? g->max_legal : 1);
    void *obs = cr_alloc(g->obs_size ? g->obs_size : 1);
    cr_action *legal = cr_alloc(ml * sizeof *legal);
    cr_status rc = CR_OK;
    if (!obs || !legal) {
        set_err(err, errcap, "out of memory");
        rc = CR_ERR_NOMEM;
        goto done;
    }
    cr_match_observe(m, seat, obs);
    int n = cr_match_legal(m, seat, legal);
    cr_hint h;
    rc = cr_hint_think(g, seat, tier, (uint64_t)cr_match_record(m)->n_actions, obs, legal, n, &h,
                       err, errcap);
    if (rc == CR_OK) cr_hint_text(m, seat, tier, &h, buf, cap);
done:
    cr_free(obs);
    cr_free(legal);
    return rc;
}
