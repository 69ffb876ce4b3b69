/* fuzz_position.c — libFuzzer target: bytes -> a game's position loader
 * (g->def->deserialize), the table chosen from the position's header.
 *
 * Promises checked on every position the loader accepts:
 *  - serialize -> deserialize succeeds, gives the same state bytes, and
 *    serializing again gives the same text (the format round-trips);
 *  - the state answers every query a client makes (current player, legal
 *    list or chance outcomes within their bounds, ascending, in range;
 *    prompt; action text that reads back; each seat's observation);
 *  - each legal action (or chance outcome) applied once, on a copy, leaves
 *    a state whose own position reloads.
 * A refused position must come with a message.  ASan and UBSan watch the
 * whole run: a loaded position that lets a legal action write out of
 * bounds (issue 7's first defect) is a crash here. */
#include <stdlib.h>
#include <string.h>

#include "croupier/alloc.h"
#include "croupier/parts.h"
#include "croupier/record.h"
#include "fuzz_common.h"

/* Serializes st into a fresh buffer (caller frees); *len gets the length. */
static char *serialize(const cr_game *g, const void *st, size_t *len)
{
    size_t need = g->def->serialize(g, st, NULL, 0);
    FUZZ_CHECK(need > 0 && need < FUZZ_TEXT_CAP, "serialize needs %zu bytes", need);
    char *buf = malloc(need + 1);
    FUZZ_CHECK(buf != NULL, "out of memory");
    size_t got = g->def->serialize(g, st, buf, need + 1);
    FUZZ_CHECK(got == need, "serialize wrote %zu bytes, announced %zu", got, need);
    FUZZ_CHECK(buf[need] == '\0', "serialize left no NUL");
    *len = need;
    return buf;
}

/* serialize -> deserialize -> serialize: same state, same text. */
static void check_round_trip(const cr_game *g, const void *st, const char *when)
{
    if (cr_parts(g)->check_invariants) { /* every state the fuzzer reaches is sound */
        char why[256];
        FUZZ_CHECK(!cr_parts(g)->check_invariants(g, st, why, sizeof why),
                   "%s: invariant broken: %s", when, why);
    }
    size_t len1, len2;
    char *text1 = serialize(g, st, &len1);
    void *back = calloc(1, g->state_size);
    FUZZ_CHECK(back != NULL, "out of memory");
    char err[512] = "";
    cr_status rc = g->def->deserialize(g, back, text1, len1, err, sizeof err);
    FUZZ_CHECK(rc == CR_OK, "%s: the serialized position does not reload: %s\n%s", when, err,
               text1);
    char *text2 = serialize(g, back, &len2);
    FUZZ_CHECK(len1 == len2 && memcmp(text1, text2, len1) == 0,
               "%s: serialize -> deserialize -> serialize changed the text:\n%s\n---\n%s", when,
               text1, text2);
    FUZZ_CHECK(memcmp(st, back, g->state_size) == 0,
               "%s: serialize -> deserialize changed the state bytes:\n%s", when, text1);
    free(text2);
    free(back);
    free(text1);
}

/* The queries every client makes of a state, with their promises. */
static int check_queries(const cr_game *g, const void *st, cr_action *list)
{
    char text[1024];
    int who = g->def->current_player(g, st);
    FUZZ_CHECK(who == CR_TERMINAL || who == CR_CHANCE || (who >= 0 && who < g->num_players),
               "current_player is %d", who);
    int n = g->def->legal_actions(g, st, list, NULL);
    if (who == CR_CHANCE) {
        FUZZ_CHECK(n == 0, "%d legal actions at a chance node", n);
        double prob[FUZZ_MAX_LIST], sum = 0;
        n = g->def->chance_outcomes(g, st, list, prob);
        FUZZ_CHECK(n > 0 && n <= g->max_chance_outcomes, "%d chance outcomes", n);
        for (int i = 0; i < n; i++) {
            FUZZ_CHECK(prob[i] > 0.0 && prob[i] <= 1.0, "outcome %d has probability %g",
                       (int)list[i], prob[i]);
            sum += prob[i];
        }
        FUZZ_CHECK(sum > 1 - 1e-9 && sum < 1 + 1e-9, "chance probabilities sum to %.12g", sum);
    } else if (who == CR_TERMINAL) {
        FUZZ_CHECK(n == 0, "%d legal actions at the end of the game", n);
        double out[CR_MAX_PLAYERS];
        cr_result res;
        g->def->returns(g, st, out);
        g->def->result(g, st, &res);
    } else {
        FUZZ_CHECK(n > 0 && n <= g->max_legal, "seat %d has %d legal actions (max %d)", who, n,
                   g->max_legal);
    }
    for (int i = 0; i < n; i++) {
        FUZZ_CHECK(list[i] >= 0 && list[i] < g->num_actions, "action id %d out of range",
                   (int)list[i]);
        FUZZ_CHECK(i == 0 || list[i - 1] < list[i], "actions not strictly ascending at %d", i);
        size_t len = g->def->action_to_str(g, st, list[i], text, sizeof text);
        FUZZ_CHECK(len > 0 && len < sizeof text, "action %d has text of length %zu", (int)list[i],
                   len);
        cr_action back = -1;
        FUZZ_CHECK(g->def->str_to_action(g, st, text, &back) == CR_OK && back == list[i],
                   "action %d prints as '%s', which reads back as %d", (int)list[i], text,
                   (int)back);
    }
    if (g->def->prompt) g->def->prompt(g, st, text, sizeof text);

    void *obs = malloc(g->obs_size);
    FUZZ_CHECK(obs != NULL, "out of memory");
    char *render = malloc(FUZZ_TEXT_CAP);
    FUZZ_CHECK(render != NULL, "out of memory");
    for (int seat = 0; seat < g->num_players; seat++) {
        g->def->observe(g, st, seat, obs);
        if (g->def->obs_to_json) g->def->obs_to_json(g, obs, render, FUZZ_TEXT_CAP);
        if (g->def->obs_to_text) g->def->obs_to_text(g, obs, render, FUZZ_TEXT_CAP);
    }
    free(render);
    free(obs);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The generic header first (cr_position_load), as the program reads
     * positions: a refusal must say why; an accepted one is checked below
     * through the game's own loader too. */
    {
        cr_game *hg = NULL;
        void *hst = NULL;
        char herr[512] = "";
        if (cr_position_load((const char *)data, size, NULL, NULL, &hg, &hst, herr, sizeof herr) ==
            CR_OK) {
            FUZZ_CHECK(hg != NULL && hst != NULL, "an accepted position has no game or state");
            static cr_action hlist[FUZZ_MAX_LIST];
            check_queries(hg, hst, hlist);
        } else {
            FUZZ_CHECK(herr[0] != '\0' && hg == NULL && hst == NULL,
                       "a refused position came without a message");
        }
        cr_free(hst);
        cr_game_free(hg);
    }
    cr_game *g = fuzz_game_for_position(data, size);
    if (g == NULL) return 0;
    void *st = cr_calloc(1, g->state_size);
    void *next = cr_calloc(1, g->state_size);
    FUZZ_CHECK(st != NULL && next != NULL, "out of memory");

    char err[512];
    /* 'x' everywhere but the last byte: a message ends with a NUL earlier
     * (the first 'x' alone is no proof: "xound: unknown key") */
    memset(err, 'x', sizeof err);
    err[sizeof err - 1] = '\0';
    cr_status rc = g->def->deserialize(g, st, (const char *)data, size, err, sizeof err);
    if (rc != CR_OK) {
        FUZZ_CHECK(err[0] != '\0' && memchr(err, '\0', sizeof err - 1) != NULL,
                   "a refused position (%s) came without a message", cr_status_str(rc));
    } else {
        check_round_trip(g, st, "loaded position");
        static cr_action list[FUZZ_MAX_LIST];
        int n = check_queries(g, st, list);
        static cr_event evbuf[FUZZ_MAX_EVENTS];
        cr_action after[FUZZ_MAX_LIST];
        for (int i = 0; i < n; i++) {
            memcpy(next, st, g->state_size);
            cr_events ev = {.buf = evbuf, .cap = FUZZ_MAX_EVENTS};
            g->def->apply(g, next, list[i], &(cr_ctx){.ev = &ev});
            FUZZ_CHECK(ev.dropped == 0, "apply dropped %d events", ev.dropped);
            char line[512];
            for (int e = 0; e < ev.len; e++)
                for (int seat = -1; seat < g->num_players; seat++)
                    g->def->event_to_str(g, &ev.buf[e], seat, line, sizeof line);
            check_round_trip(g, next, "after a legal action");
            check_queries(g, next, after);
        }
    }
    cr_free(next);
    cr_free(st);
    cr_game_free(g);
    return 0;
}
