/* test_glossary.c — every game term the program shows a DML player is
 * defined in the Glossary of the player's guide (docs/play-dml.md).
 *
 * Random games of every variant run through the match layer with every
 * seat human, and the test answers for them at random.  For every seat it
 * collects what a player reads: the prompt, each legal action's label (the
 * action JSON), the help, and every event as each seat and the public view
 * see it.  From each text it takes the terms:
 *   - every word that starts with a capital letter ("Seize", "Emblem",
 *     "Khitamar"), sentence starts included, with a trailing 's / s / es
 *     tried off for plurals;
 *   - the jargon tokens, whatever their case: a lone D, P or V (the two
 *     sides of a Buy's Value), the exclaimed calls (Dabo!, Woot!,
 *     Hustled!), Black Market names (BM1, BM12: looked up as "BMn").
 * Card codes (7S, TD, X1) and seats (P0..P3) are the notation, not terms.
 * A capitalised word of plain English ("Choose", "The", "If") is listed in
 * `plain` below; anything else must be one of the words of a bold term
 * (**Dragon Siege**) of the guide's "## Glossary" section, compared without
 * case.  A term missing from the glossary fails the test, named with a text
 * that used it.
 *
 * The games include DML-2015 and its switches.  A second test checks that
 * each 2015 term of the rules' 15.1 has a Glossary entry giving ours beside
 * it.
 *
 * The guide is read at test time from CR_DOCS_DIR (CMakeLists.txt), the
 * file the program compiles in.  CR_GLOSSARY_GAMES=N sets the number of
 * games (default 200).
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "croupier/game.h"
#include "croupier/match.h"
#include "croupier/parts.h"
#include "croupier/rng.h"
#include "support/glossary.h"

enum { MAX_MISSING = 64, TEXT = 1 << 14 };

/* ---- the terms of a text ---- */

/* Capitalised words of plain English the program starts sentences or
 * labels with: not game terms. */
static const char *const plain[] = {
    "a",      "all",    "an",    "and",    "any",     "as",     "at",      "bring",  "both",
    "by",     "choose", "close", "decide", "declare", "dice",   "do",      "each",   "either",
    "every",  "from",   "give",  "have",   "if",      "in",     "it",      "its",    "keep",
    "look",   "nobody", "none",  "not",    "now",     "of",     "on",      "one",    "only",
    "or",     "pass",   "place", "put",    "remove",  "return", "roll",    "search", "so",
    "take",   "the",    "their", "then",   "these",   "this",   "those",   "to",     "too",
    "trade",  "turn",   "use",   "when",   "while",   "who",    "whoever", "with",   "without",
    "you",    "your",   "game",  "over",   "chance",  "far",    "commit",  "exile",  "rolls",
    "reroll", "begins", "open",  "call",   "back",    "pay",    "hold",    "there",  "they",
    "what",   "which",  "after", "before", "another", "other",  "same",    "no",     "re",
    "card",   "cards",  "that",  "name",
};

static int is_plain(const char *low)
{
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        if (!strcmp(plain[i], low)) return 1;
    return 0;
}

static int is_card_code(const char *w, size_t len)
{
    if (len == 2 && w[0] == 'X' && (w[1] == '1' || w[1] == '2')) return 1;
    return len == 2 && strchr("23456789TJQKA", w[0]) && strchr("SCHD", w[1]);
}

/* A suit letter of the notation ("stock S"); D is also the buyer's side of
 * a Buy, a term (checked as jargon). */
static int is_suit_letter(const char *w, size_t len) { return len == 1 && strchr("SCH", w[0]); }

static int is_seat(const char *w, size_t len)
{
    return len == 2 && w[0] == 'P' && w[1] >= '0' && w[1] <= '3';
}

typedef struct scan {
    const gl_words *glossary;
    const char *text; /* the text being scanned, for the report */
    gl_words missing;
    char example[MAX_MISSING][256];
} scan;

static void check_word(const char *w, size_t len, void *arg)
{
    scan *sc = arg;
    char low[GL_WORD_LEN];
    if (is_card_code(w, len) || is_seat(w, len) || is_suit_letter(w, len)) return;
    if (isdigit((unsigned char)w[0])) return; /* numbers, "3-Player" aside: see below */
    int jargon = 0;
    if (len == 1 && strchr("DPV", w[0])) jargon = 1; /* D 5, P 3, V = D + P */
    if (w[len - 1] == '!') jargon = 1;               /* Dabo!, Woot!, Hustled! */
    if (len >= 3 && w[0] == 'B' && w[1] == 'M' && isdigit((unsigned char)w[2])) {
        if (!gl_defined(sc->glossary, "bmn"))
            fail_msg("Black Market names (BM1) are used but \"BMn\" is not in the glossary");
        return;
    }
    if (!jargon && !isupper((unsigned char)w[0])) return;
    gl_lower(low, w, len);
    if (!jargon && is_plain(low)) return;
    if (gl_defined(sc->glossary, low)) return;
    if (gl_has(&sc->missing, low)) return;
    if (sc->missing.n < MAX_MISSING) {
        snprintf(sc->example[sc->missing.n], sizeof sc->example[0], "%s", sc->text);
        gl_add(&sc->missing, low);
    }
}

static long n_texts;
static size_t max_help; /* the longest help seen (clients size buffers by it) */

static void scan_text(scan *sc, const char *text)
{
    n_texts++;
    sc->text = text;
    gl_each_word(text, check_word, sc);
}

/* ---- the games ---- */

static long n_games(void)
{
    const char *s = getenv("CR_GLOSSARY_GAMES");
    long n = s ? strtol(s, NULL, 10) : 200;
    return n > 0 ? n : 200;
}

/* switches: DML-2015's table options set to yes, comma-separated ("" none) */
static void play_and_scan(const cr_game_def *def, const char *variant, int players,
                          const char *switches, uint64_t seed, scan *sc)
{
    cr_params p = {.num_players = players, .variant = variant};
    char keys[128];
    snprintf(keys, sizeof keys, "%s", switches);
    for (char *k = strtok(keys, ","); k != NULL; k = strtok(NULL, ","))
        assert_int_equal(cr_params_set(&p, k, "yes"), CR_OK);
    char err[256];
    cr_match *m = cr_match_new(def, &p, NULL, seed, err, sizeof err);
    if (m == NULL) fail_msg("cr_match_new %s/%d: %s", variant, players, err);
    const cr_game *g = cr_match_game(m);
    cr_action *legal = malloc(sizeof *legal * (size_t)g->max_legal);
    char *buf = malloc(TEXT);
    assert_non_null(legal);
    assert_non_null(buf);
    cr_rng rng;
    cr_rng_seed(&rng, seed, 7);
    uint32_t seen = 0;
    for (long steps = 0; steps < 20000 && !cr_match_over(m); steps++) {
        int who = cr_match_run(m, 0);
        const cr_match_event *ev;
        int ne = cr_match_events_since(m, seen, &ev);
        for (int i = 0; i < ne; i++) {
            for (int v = -1; v < g->num_players; v++) {
                cr_match_event_text(m, &ev[i], v < 0 ? CR_SEAT_PUBLIC : v, buf, TEXT);
                scan_text(sc, buf);
            }
        }
        seen += (uint32_t)ne;
        if (who < 0) continue;
        cr_match_prompt(m, who, buf, TEXT);
        scan_text(sc, buf);
        size_t hl = cr_match_help(m, who, buf, TEXT);
        assert_true(hl < TEXT);
        if (hl > max_help) max_help = hl;
        scan_text(sc, buf);
        int n = cr_match_legal(m, who, legal);
        assert_true(n > 0);
        for (int i = 0; i < n; i++) {
            cr_match_action_json(m, who, legal[i], buf, TEXT);
            json_t *a = json_loads(buf, 0, NULL);
            assert_non_null(a);
            const char *label = json_string_value(json_object_get(a, "label"));
            assert_non_null(label);
            scan_text(sc, label);
            json_decref(a);
        }
        cr_action pick = cr_policy_random(g, cr_match_state(m), who, legal, n, &rng);
        if (cr_match_submit_action(m, who, pick, err, sizeof err) != CR_OK)
            fail_msg("submit: %s", err);
    }
    if (!cr_match_over(m))
        fail_msg("%s/%d seed %llu: no end", variant, players, (unsigned long long)seed);
    /* the end: results and the last events */
    const cr_match_event *ev;
    int ne = cr_match_events_since(m, seen, &ev);
    for (int i = 0; i < ne; i++) {
        cr_match_event_text(m, &ev[i], CR_SEAT_OMNISCIENT, buf, TEXT);
        scan_text(sc, buf);
    }
    free(buf);
    free(legal);
    cr_match_free(m);
}

static void report(const scan *sc)
{
    for (int i = 0; i < sc->missing.n; i++)
        print_error("not in the glossary of docs/play-dml.md: \"%s\", e.g. in: %s\n",
                    sc->missing.w[i], sc->example[i]);
}

static void every_term_is_in_the_glossary(void **unused)
{
    (void)unused;
    static scan sc;
    static gl_words glossary;
    gl_read_glossary(CR_DOCS_DIR "/play-dml.md", &glossary);
    memset(&sc, 0, sizeof sc);
    sc.glossary = &glossary;
    const cr_game_def *def = cr_registry_find("dml");
    assert_non_null(def);
    /* DML-2015 alone, with 3 players, and with its switches (buying-frenzy
     * replaces events-2015-06's All Bets Are Off: apart). */
    static const struct {
        const char *variant;
        int players;
        const char *switches;
    } tables[] = {
        {"full", 4, ""},
        {"smackdown", 3, ""},
        {"mayhem", 4, ""},
        {"mayhem", 3, ""},
        {"fire", 4, ""},
        {"dml-2015", 4, ""},
        {"dml-2015", 3, ""},
        {"dml-2015", 4, "cards-2015-06,events-2015-06"},
        {"dml-2015", 4, "buying-frenzy,turn-2015-06"},
        {"dml-2015", 4, "bm-wager"},
    };
    long games = n_games();
    for (long i = 0; i < games; i++) {
        size_t t = (size_t)i % (sizeof tables / sizeof tables[0]);
        play_and_scan(def, tables[t].variant, tables[t].players, tables[t].switches,
                      1000 + (uint64_t)i, &sc);
    }
    report(&sc);
    print_message("%ld games, %ld texts, %d glossary words, longest help %zu bytes\n", games,
                  n_texts, glossary.n, max_help);
    assert_int_equal(sc.missing.n, 0);
}

/* The rule can fail: a text with an undefined term is caught, plain words
 * and notation are not. */
static void the_rule_catches_an_undefined_term(void **unused)
{
    (void)unused;
    static scan sc;
    static gl_words glossary;
    gl_read_glossary(CR_DOCS_DIR "/play-dml.md", &glossary);
    memset(&sc, 0, sizeof sc);
    sc.glossary = &glossary;
    scan_text(&sc, "P1: Choose 7S for the Seize offer; D 5, P 3; Dabo! in BM4");
    assert_int_equal(sc.missing.n, 0);
    scan_text(&sc, "Place the card in the Frobnicator, then Kaboom!");
    assert_int_equal(sc.missing.n, 2);
    assert_string_equal(sc.missing.w[0], "frobnicator");
    assert_string_equal(sc.missing.w[1], "kaboom!");
}

/* The 2015 terms of the rules' 15.1 each have a Glossary entry that gives
 * ours beside them (the entry's line names our term). */
static void the_2015_terms_stand_beside_ours(void **unused)
{
    (void)unused;
    static const char *const pairs[][2] = {
        {"Treasury", "Hand"},
        {"Court", "Front"},
        {"Emblem Zone", "Front"},
        {"Merchant King Zone", "King"},
        {"Resource", "Commodity"},
        {"Resource Type", "suit"},
        {"Face Value", "printed value"},
        {"Guild House", "Guild"},
        {"Global Event Deck", "Deck"},
        {"Active Event", "Event"},
        {"Dragon's Hoard", "Discard Pile"},
        {"Initiative Badge", "Dealer"},
        {"Acquisition Attempt", "Buy"},
        {"bid", "commit"},
        {"Seize Attempt", "Seize"},
        {"Emblem Static Bonus", "Buys"},
        {"Emblem Power Bonus", "Shield"},
        {"Character Ultimate Power", "Power"},
        {"Character Power Stack", "Stack"},
        {"Secret Desired Resource", "Desired Commodity"},
        {"Ultimate Victory", "Father of Dragons"},
        {"Market Action", "Action"},
        {"Black Market Action", "Minor Action"},
        {"Rogue Jester", "Stack"},
        {"Harlot Queen of Smorgon", "below her"},
        {"Contraband Crackdown", "FCCC Regulations"},
        {"Marauders", "The Hated People"},
        {"Decadence", "Customs Crackdown"},
        {"Tax Relief", "Merchant Union"},
        {"Character Power Phase", "Stack"},
    };
    FILE *f = fopen(CR_DOCS_DIR "/play-dml.md", "r");
    assert_non_null(f);
    static char line[1024];
    int found[sizeof pairs / sizeof pairs[0]] = {0}, in_glossary = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "## ", 3)) in_glossary = !strncmp(line, "## Glossary", 11);
        if (!in_glossary || strncmp(line, "- **", 4) != 0) continue;
        for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
            char bold[96];
            snprintf(bold, sizeof bold, "**%s**", pairs[i][0]);
            const char *b = strstr(line, bold), *colon = strstr(line, "**: ");
            if (b && strstr(colon ? colon : line, pairs[i][1])) found[i] = 1;
        }
    }
    fclose(f);
    int missing = 0;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (!found[i]) {
            print_error("the Glossary has no entry for %s naming %s\n", pairs[i][0], pairs[i][1]);
            missing++;
        }
    assert_int_equal(missing, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_rule_catches_an_undefined_term),
        cmocka_unit_test(the_2015_terms_stand_beside_ours),
        cmocka_unit_test(every_term_is_in_the_glossary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
