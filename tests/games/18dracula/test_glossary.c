/* test_glossary.c — every game term the program shows an 18Dracula player
 * is defined in the Glossary of the player's guide (docs/play-18dracula.md).
 *
 * Games of heuristic seats (two tables) run through the match layer with
 * every seat human, the test choosing for them with the game's heuristic.
 * It collects what a player reads: the prompt, each legal action's label
 * (the action JSON) and its menu section's title, the help, every event
 * as each seat and the public view see it, and the full-screen table (the
 * panels, markup removed).  From
 * each text it takes every word that starts with a capital letter (sentence
 * starts included, a trailing 's / s / es tried off for plurals).  Seats
 * (P0..P5) and numbers are notation.  The board's proper names (its places,
 * fronts and monsters: ids and names, read from the game's board) are the
 * board's, not terms.  A capitalised word of plain English ("Buy", "The")
 * is listed in `plain` below; anything else must be one of the words of a
 * bold term of the guide's "## Glossary" section, compared without case.
 *
 * The guide is read at test time from CR_DOCS_DIR (CMakeLists.txt), the
 * file the program compiles in, and must be the text the game hands out
 * (cr_game_parts.guide).
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
#include "games/18dracula/d18_internal.h"

enum { MAX_MISSING = 64, TEXT = 1 << 14 };

/* ---- the terms of a text ---- */

/* Capitalised words of plain English the program starts sentences or
 * labels with: not game terms. */
static const char *const plain[] = {
    "a",      "all",      "an",     "and",     "any",    "as",      "at",      "both",    "by",
    "choose", "do",       "each",   "either",  "end",    "every",   "from",    "give",    "have",
    "if",     "in",       "it",     "its",     "keep",   "nobody",  "none",    "not",     "now",
    "of",     "on",       "one",    "only",    "or",     "pass",    "place",   "put",     "so",
    "take",   "the",      "their",  "then",    "these",  "this",    "those",   "to",      "too",
    "turn",   "use",      "when",   "while",   "who",    "with",    "without", "you",     "your",
    "game",   "over",     "no",     "buy",     "sell",   "sells",   "start",   "starts",  "bids",
    "now",    "nothing",  "there",  "they",    "what",   "which",   "after",   "before",  "another",
    "other",  "same",     "moves",  "becomes", "passes", "wins",    "winner",  "winners", "was",
    "for",    "players",  "player", "built",   "cities", "map",     "near",    "now",     "is",
    "are",    "can",      "may",    "must",    "will",   "up",      "down",    "rank",    "fronts",
    "here",   "where",    "why",    "how",     "more",   "most",    "less",    "next",    "first",
    "last",   "new",      "old",    "whole",   "yet",    "still",   "already", "also",    "but",
    "cash",   "shares",   "dim",    "ends",    "goes",   "gets",    "makes",   "has",     "stop",
    "buying", "starting", "leaves", "even",    "that",   "highest",
};

static int is_plain(const char *low)
{
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        if (!strcmp(plain[i], low)) return 1;
    return 0;
}

static int is_seat(const char *w, size_t len)
{
    return len == 2 && w[0] == 'P' && w[1] >= '0' && w[1] <= '5';
}

typedef struct scan {
    const gl_words *glossary;
    const char *text; /* the text being scanned, for the report */
    gl_words missing;
    char example[MAX_MISSING][256];
} scan;

static gl_words board_names; /* the board's proper names, lower case */

/* The words of the ids and names of the board's places, fronts and
 * monsters. */
static void read_board(const cr_game *g)
{
    const d18_board *b = d18_brd(g);
    board_names.n = 0;
    for (int l = 0; l < b->n_locations; l++) {
        gl_add_words(&board_names, b->loc[l].id);
        gl_add_words(&board_names, b->loc[l].name);
    }
    for (int f = 0; f < D18_NUM_FRONTS; f++) {
        gl_add_words(&board_names, b->front[f].id);
        gl_add_words(&board_names, b->front[f].name);
    }
    for (int t = 0; t < b->n_monsters; t++) {
        gl_add_words(&board_names, b->monster[t].id);
        gl_add_words(&board_names, b->monster[t].name);
    }
}

static void check_word(const char *w, size_t len, void *arg)
{
    scan *sc = arg;
    char low[GL_WORD_LEN];
    if (is_seat(w, len) || isdigit((unsigned char)w[0])) return;
    if (!isupper((unsigned char)w[0])) return;
    gl_lower(low, w, len);
    if (is_plain(low) || gl_has(&board_names, low)) return;
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

/* Panel text without its markup, scanned line by line. */
static void scan_panels(scan *sc, const cr_game *g, const void *obs, char *buf, char *clean)
{
    size_t n = cr_parts(g)->panels(g, obs, 0, buf, TEXT);
    assert_true(n < TEXT);
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (buf[i] == CR_PANEL_STYLE) {
            i++;
            continue;
        }
        clean[o++] = buf[i] == CR_PANEL_TITLE ? ' ' : buf[i];
    }
    clean[o] = '\0';
    scan_text(sc, clean);
}

static void play_and_scan(int players, uint64_t seed, scan *sc)
{
    cr_params p = {.num_players = players};
    char err[256];
    cr_match *m = cr_match_new(&d18_def, &p, NULL, seed, err, sizeof err);
    if (m == NULL) fail_msg("cr_match_new %d: %s", players, err);
    const cr_game *g = cr_match_game(m);
    read_board(g);
    cr_action *legal = malloc(sizeof *legal * (size_t)g->max_legal);
    char *buf = malloc(TEXT), *clean = malloc(TEXT);
    void *obs = malloc(g->obs_size);
    assert_non_null(legal);
    assert_non_null(buf);
    assert_non_null(clean);
    assert_non_null(obs);
    cr_rng rng;
    cr_rng_seed(&rng, seed, 7);
    uint32_t seen = 0;
    long decisions = 0;
    for (long steps = 0; steps < 200000 && !cr_match_over(m); steps++) {
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
        decisions++;
        cr_match_prompt(m, who, buf, TEXT);
        scan_text(sc, buf);
        size_t hl = cr_match_help(m, who, buf, TEXT);
        assert_true(hl < TEXT);
        if (hl > max_help) max_help = hl;
        scan_text(sc, buf);
        if (decisions % 3 == 0) {
            cr_match_observe(m, who, obs);
            scan_panels(sc, g, obs, buf, clean);
        }
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
            char title[128]; /* the menu's section (cr_game_parts.menu_section) */
            cr_match_observe(m, who, obs);
            if (cr_parts(g)->menu_section(g, obs, legal[i], title, sizeof title) >= 0)
                scan_text(sc, title);
        }
        cr_action pick = cr_parts(g)->heuristic(g, cr_match_state(m), who, legal, n, &rng);
        if (cr_match_submit_action(m, who, pick, err, sizeof err) != CR_OK)
            fail_msg("submit: %s", err);
    }
    if (!cr_match_over(m))
        fail_msg("%d players seed %llu: no end", players, (unsigned long long)seed);
    const cr_match_event *ev;
    int ne = cr_match_events_since(m, seen, &ev);
    for (int i = 0; i < ne; i++) {
        cr_match_event_text(m, &ev[i], CR_SEAT_OMNISCIENT, buf, TEXT);
        scan_text(sc, buf);
    }
    cr_match_observe(m, CR_SEAT_PUBLIC, obs);
    scan_panels(sc, g, obs, buf, clean);
    free(obs);
    free(clean);
    free(buf);
    free(legal);
    cr_match_free(m);
}

static void report(const scan *sc)
{
    for (int i = 0; i < sc->missing.n; i++)
        print_error("not in the glossary of docs/play-18dracula.md: \"%s\", e.g. in: %s\n",
                    sc->missing.w[i], sc->example[i]);
}

/* The guide the game hands out is the file. */
static void the_guide_is_compiled_in(void **unused)
{
    (void)unused;
    FILE *f = fopen(CR_DOCS_DIR "/play-18dracula.md", "rb");
    assert_non_null(f);
    static char file[1 << 16];
    size_t n = fread(file, 1, sizeof file - 1, f);
    fclose(f);
    file[n] = '\0';
    assert_non_null(d18_parts.guide);
    assert_string_equal(d18_parts.guide, file);
}

static void every_term_is_in_the_glossary(void **unused)
{
    (void)unused;
    static scan sc;
    static gl_words glossary;
    gl_read_glossary(CR_DOCS_DIR "/play-18dracula.md", &glossary);
    memset(&sc, 0, sizeof sc);
    sc.glossary = &glossary;
    play_and_scan(3, 31, &sc);
    play_and_scan(4, 41, &sc);
    report(&sc);
    print_message("%ld texts, %d glossary words, longest help %zu bytes\n", n_texts, glossary.n,
                  max_help);
    assert_int_equal(sc.missing.n, 0);
}

/* The rule can fail: a text with an undefined term is caught; plain words,
 * seats, numbers and the board's names are not. */
static void the_rule_catches_an_undefined_term(void **unused)
{
    (void)unused;
    static scan sc;
    static gl_words glossary;
    gl_read_glossary(CR_DOCS_DIR "/play-18dracula.md", &glossary);
    cr_params p = {.num_players = 3};
    char err[256];
    cr_game *g = cr_game_new(&d18_def, &p, err, sizeof err);
    assert_non_null(g);
    read_board(g);
    memset(&sc, 0, sizeof sc);
    sc.glossary = &glossary;
    scan_text(&sc, "P1 for NBC: The Gargoyle rampage earns 130 in Ravenspire; IPO shares at Par");
    assert_int_equal(sc.missing.n, 0);
    scan_text(&sc, "Place the Frobnicator, then Kaboom");
    assert_int_equal(sc.missing.n, 2);
    assert_string_equal(sc.missing.w[0], "frobnicator");
    assert_string_equal(sc.missing.w[1], "kaboom");
    cr_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_rule_catches_an_undefined_term),
        cmocka_unit_test(the_guide_is_compiled_in),
        cmocka_unit_test(every_term_is_in_the_glossary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
