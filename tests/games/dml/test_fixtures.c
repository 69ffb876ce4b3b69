/* test_fixtures.c — runs the DML rule fixtures in tests/fixtures/dml/ (*.txt files).
 *
 * A fixture is a position, then actions (in the game's notation, scripted
 * dice and draws included) interleaved with expectations:
 *
 *   # R20: the worked example of spec 7.7
 *   position
 *   { ...JSON position (docs/positions.md)... }
 *   end
 *   buy
 *   5S
 *   ? D 5
 *   2D
 *   done
 *   ? zone committed = 2D
 *
 * Expectations (all must hold; a failure names the file and line):
 *   ? legal A | B | C     the legal actions, exactly (any order; '|' separates)
 *   ? legal+ A | B        these are legal          ? legal- A | B   these are not
 *   ? illegal A           applying A is refused and changes nothing (R65)
 *   ? decision P1 KIND    who decides what (kinds as in docs/positions.md)
 *   ? chance KIND         a chance event of that kind is next
 *   ? zone NAME = CARDS   the zone holds exactly these cards ("-" for none);
 *                         NAME as docs/positions.md: "hand P1", "stock", "BM2"...
 *   ? count NAME N        the zone holds N cards
 *   ? D N / ? P N / ? actions N / ? minors N / ? round N
 *   ? dealer P2 / ? active P1 / ? alive P0 P2 / ? affected P1 P3 (or -)
 *   ? event TYPE-WORD EV  e.g. "? event hated 5", "? event carnival 0"
 *   ? vp P0 N             Victory Points of P0 now
 *   ? top discard 7C / ? top nest AS / ? top stack QS
 *   ? winner P1 / ? winner none / ? end vp|monopoly|father|last / ? over / ? running
 *   ? achievements P0 = KEY KEY   what the achievements part gives P0 now, in
 *                         its order ("-" for none; always none while running)
 *   ? feats P0 = NAME NAME  P0's feat bits, by their position names ("-" none)
 *
 * The achievement fixtures are ach_KEY.txt (earns it) and ach_KEY_near_miss.txt
 * (comes close and does not). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "croupier/alloc.h"
#include "croupier/game.h"
#include "croupier/parts.h"
#include "croupier/record.h"
#include "games/dml/dml_internal.h"

#ifndef CR_TEST_FIXTURES_DIR
#define CR_TEST_FIXTURES_DIR "tests/fixtures"
#endif

typedef struct fixture {
    char path[512];
    char name[128];
} fixture;

static char failure[1024];

static int ffail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(failure, sizeof failure, "%s:%d: ", file, line);
    va_start(ap, fmt);
    vsnprintf(failure + n, sizeof failure - (size_t)n, fmt, ap);
    va_end(ap);
    return 0;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = 0;
    return s;
}

static int parse_seat(const char *w)
{
    if ((w[0] == 'P' || w[0] == 'p') && w[1] >= '0' && w[1] <= '3' && !w[2]) return w[1] - '0';
    return -1;
}

static int zone_by_name(const dml_state *s, const char *name)
{
    char buf[64];
    for (int z = 0; z < DML_NZONES; z++) {
        if (z >= DML_Z_BM) {
            int k = z - DML_Z_BM;
            if (!s->zone_count[z]) continue;
            snprintf(buf, sizeof buf, "BM%d", s->bm_label[k]);
        } else {
            char tmp[64];
            snprintf(buf, sizeof buf, "%s", dml_zone_name(z, tmp, sizeof tmp));
        }
        if (!strcmp(buf, name)) return z;
    }
    return -1;
}

/* cards listed in `list` (space separated codes, "-" for none) */
static int parse_cards(const char *list, uint64_t *out)
{
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s", list);
    *out = 0;
    for (char *w = strtok(tmp, " "); w; w = strtok(NULL, " ")) {
        if (!strcmp(w, "-")) continue;
        int c = dml_parse_card(w);
        if (c < 0) return 0;
        *out |= dml_bit(c);
    }
    return 1;
}

static void cards_str(uint64_t m, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    for (; m && n + 4 < cap; m &= m - 1)
        n += (size_t)snprintf(buf + n, cap - n, "%s ", dml_card_code(__builtin_ctzll(m)));
    if (!n) snprintf(buf, cap, "-");
}

static const char *decision_names[] = {
    "",
    "dabo",
    "market",
    "declare",
    "offer",
    "commit_active",
    "commit_passive",
    "stack",
    "vice",
    "counsel_bm",
    "counsel_card",
    "tithe",
    "harlot",
    "archduchess",
    "thief_mode",
    "thief_card",
    "thief_player",
    "pile",
    "wager",
    "leave",
    "name_suit",
};
_Static_assert(sizeof decision_names / sizeof decision_names[0] == DML_D_NAME_SUIT + 1,
               "a name for every decision kind");
static const char *chance_names[] = {"", "roll", "deck", "pool", "hand", "bm", "nest", "pile"};
_Static_assert(sizeof chance_names / sizeof chance_names[0] == DML_C_PILE + 1,
               "a name for every chance kind");

/* The legal actions' texts, '|'-separated in `list`, against the state's list. */
static int check_legal(const cr_game *g, const dml_state *s, char *list, int mode, const char *file,
                       int line)
{
    cr_action legal[DML_MAX_LEGAL];
    int n = g->def->legal_actions(g, s, legal, NULL);
    char names[DML_MAX_LEGAL][32];
    for (int i = 0; i < n; i++) g->def->action_to_str(g, s, legal[i], names[i], sizeof names[i]);
    int want = 0;
    char *save = NULL;
    for (char *w = strtok_r(list, "|", &save); w; w = strtok_r(NULL, "|", &save)) {
        w = trim(w);
        if (!*w) continue;
        want++;
        int found = 0;
        for (int i = 0; i < n; i++)
            if (!strcmp(names[i], w)) found = 1;
        if (mode >= 0 && !found) {
            char all[1024] = "";
            for (int i = 0; i < n; i++) {
                strncat(all, names[i], sizeof all - strlen(all) - 4);
                strncat(all, i + 1 < n ? " | " : "", sizeof all - strlen(all) - 1);
            }
            return ffail(file, line, "'%s' is not legal (legal: %s)", w, all);
        }
        if (mode < 0 && found) return ffail(file, line, "'%s' is legal", w);
    }
    if (mode == 0 && want != n) {
        char all[1024] = "";
        for (int i = 0; i < n; i++) {
            strncat(all, names[i], sizeof all - strlen(all) - 4);
            strncat(all, " | ", sizeof all - strlen(all) - 1);
        }
        return ffail(file, line, "legal actions are: %s", all);
    }
    return 1;
}

static int expect(const cr_game *g, dml_state *s, char *e, const char *file, int line)
{
    char word[32] = "";
    int off = 0;
    sscanf(e, "%31s %n", word, &off);
    char *rest = e + off;
    char a1[64] = "", a2[64] = "";
    sscanf(rest, "%63s %63s", a1, a2);
    if (!strcmp(word, "legal")) return check_legal(g, s, rest, 0, file, line);
    if (!strcmp(word, "legal+")) return check_legal(g, s, rest, 1, file, line);
    if (!strcmp(word, "legal-")) return check_legal(g, s, rest, -1, file, line);
    if (!strcmp(word, "illegal")) {
        dml_state before;
        memcpy(&before, s, sizeof before);
        char err[256];
        if (cr_apply_text(g, s, rest, NULL, err, sizeof err) == CR_OK)
            return ffail(file, line, "'%s' was accepted", rest);
        if (memcmp(&before, s, sizeof before))
            return ffail(file, line, "refusing '%s' changed the state", rest);
        return 1;
    }
    if (!strcmp(word, "decision")) {
        if (s->need != DML_NEED_DECISION)
            return ffail(file, line, "no decision is pending (need %d)", s->need);
        if (parse_seat(a1) != s->actor || strcmp(decision_names[s->kind], a2))
            return ffail(file, line, "decision is P%d %s", s->actor, decision_names[s->kind]);
        return 1;
    }
    if (!strcmp(word, "chance")) {
        if (s->need != DML_NEED_CHANCE || strcmp(chance_names[s->kind], a1))
            return ffail(file, line, "not a '%s' chance event (need %d kind %d)", a1, s->need,
                         s->kind);
        return 1;
    }
    if (!strcmp(word, "zone") || !strcmp(word, "count")) {
        /* the zone name may have a space ("hand P1"): split at " = " or the last word */
        char name[64];
        char *eq = strstr(rest, " = ");
        const char *arg;
        if (!strcmp(word, "zone")) {
            if (!eq) return ffail(file, line, "zone: expected 'NAME = CARDS'");
            snprintf(name, sizeof name, "%.*s", (int)(eq - rest), rest);
            arg = eq + 3;
        } else {
            char *sp = strrchr(rest, ' ');
            if (!sp) return ffail(file, line, "count: expected 'NAME N'");
            snprintf(name, sizeof name, "%.*s", (int)(sp - rest), rest);
            arg = sp + 1;
        }
        int z = zone_by_name(s, trim(name));
        uint64_t have = z >= 0 ? s->zone[z] : 0;
        if (!strcmp(word, "count")) {
            if (__builtin_popcountll(have) != atoi(arg))
                return ffail(file, line, "%s holds %d cards", name, __builtin_popcountll(have));
            return 1;
        }
        uint64_t want;
        if (!parse_cards(arg, &want)) return ffail(file, line, "bad card list '%s'", arg);
        if (z < 0 && want) return ffail(file, line, "no zone named '%s'", name);
        if (have != want) {
            char buf[256];
            cards_str(have, buf, sizeof buf);
            return ffail(file, line, "%s holds %s", name, buf);
        }
        return 1;
    }
    struct {
        const char *name;
        int value;
    } nums[] = {{"D", s->need == DML_NEED_DECISION && s->kind == DML_D_DECLARE
                          ? dml_declaration_value(s)
                          : s->D},
                {"P", s->P},
                {"actions", s->actions},
                {"minors", s->minors},
                {"round", s->round}};
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
        if (!strcmp(word, nums[i].name)) {
            if (nums[i].value != atoi(a1))
                return ffail(file, line, "%s is %d", word, nums[i].value);
            return 1;
        }
    if (!strcmp(word, "dealer") || !strcmp(word, "active")) {
        int v = !strcmp(word, "dealer") ? s->dealer : s->active;
        if (parse_seat(a1) != v) return ffail(file, line, "%s is P%d", word, v);
        return 1;
    }
    if (!strcmp(word, "alive") || !strcmp(word, "affected")) {
        int want = 0;
        char tmp[128];
        snprintf(tmp, sizeof tmp, "%s", rest);
        for (char *w = strtok(tmp, " "); w; w = strtok(NULL, " ")) {
            if (!strcmp(w, "-")) continue;
            int p = parse_seat(w);
            if (p < 0 || p >= s->n)
                return ffail(file, line, "%s: '%s' is not a seat of the game", word, w);
            want |= 1 << p;
        }
        int have = !strcmp(word, "alive") ? s->alive : s->affected;
        if (want != have) return ffail(file, line, "%s mask is 0x%x", word, have);
        return 1;
    }
    if (!strcmp(word, "event")) {
        static const char *words[] = {"none",     "fccc",    "hated",   "customs", "union",
                                      "carnival", "opening", "allbets", "frenzy"};
        if (strcmp(words[s->event_type], a1) || s->ev != atoi(a2))
            return ffail(file, line, "event is %s %d", words[s->event_type], s->ev);
        return 1;
    }
    if (!strcmp(word, "vp")) {
        int p = parse_seat(a1);
        if (p < 0 || p >= s->n) return ffail(file, line, "vp: '%s' is not a seat of the game", a1);
        int v = s->over ? s->vp[p] : dml_vp(s, p);
        if (v != atoi(a2)) return ffail(file, line, "vp of %s is %d", a1, v);
        return 1;
    }
    if (!strcmp(word, "top")) {
        int card = -1;
        if (!strcmp(a1, "discard")) card = s->discard_top;
        if (!strcmp(a1, "nest") && s->nest_top_n) card = s->nest_top[s->nest_top_n - 1];
        if (!strcmp(a1, "stack") && s->stack_n) card = s->stack_card[s->stack_n - 1];
        if (card != dml_parse_card(a2))
            return ffail(file, line, "top of %s is %s", a1, card >= 0 ? dml_card_code(card) : "-");
        return 1;
    }
    if (!strcmp(word, "winner")) {
        int want = !strcmp(a1, "none") ? -1 : parse_seat(a1);
        if (!s->over || s->winner != want)
            return ffail(file, line, "over %d winner %d", s->over, s->winner);
        return 1;
    }
    if (!strcmp(word, "end")) {
        static const char *words[] = {"none", "vp", "monopoly", "father", "last"};
        if (!s->over || strcmp(words[s->end_reason], a1))
            return ffail(file, line, "over %d, end reason %s", s->over, words[s->end_reason]);
        return 1;
    }
    if (!strcmp(word, "achievements") || !strcmp(word, "feats")) {
        /* "achievements P0 = key key" (the hook's keys, in its order) or
         * "feats P0 = name name" (dml_state.feat); "-" for none */
        int p = parse_seat(a1);
        char *eq = strstr(rest, " = ");
        if (p < 0 || p >= s->n || !eq) return ffail(file, line, "%s: expected 'Pn = ...'", word);
        char have[512] = "";
        size_t len = 0;
        if (!strcmp(word, "feats")) {
            for (int b = 0; b < DML_NFEATS; b++)
                if (s->feat[p] >> b & 1)
                    len += (size_t)snprintf(have + len, sizeof have - len, "%s%s", len ? " " : "",
                                            dml_feat_name(b));
        } else {
            const char *keys[64];
            int n = g->def->parts->achievements(g, s, p, keys, 64);
            for (int i = 0; i < n && len < sizeof have; i++)
                len +=
                    (size_t)snprintf(have + len, sizeof have - len, "%s%s", i ? " " : "", keys[i]);
        }
        const char *want = trim(eq + 3);
        if (!strcmp(want, "-")) want = "";
        if (strcmp(have, want)) return ffail(file, line, "%s of %s: '%s'", word, a1, have);
        return 1;
    }
    if (!strcmp(word, "over")) return s->over ? 1 : ffail(file, line, "the game is not over");
    if (!strcmp(word, "running")) return !s->over ? 1 : ffail(file, line, "the game is over");
    return ffail(file, line, "unknown expectation '%s'", word);
}

static void run_fixture(void **state)
{
    const fixture *fx = *state;
    FILE *f = fopen(fx->path, "r");
    assert_non_null(f);
    static char json[1 << 16];
    size_t jn = 0;
    char line[1024];
    int ln = 0, in_pos = 0, ok = 1;
    cr_game *g = NULL;
    dml_state *s = NULL;
    failure[0] = 0;
    while (ok && fgets(line, sizeof line, f)) {
        ln++;
        char *t = trim(line);
        if (in_pos) {
            if (!strcmp(t, "end")) {
                in_pos = 0;
                json[jn] = 0;
                /* the table (variant, players, the 2015 switches) comes from
                 * the position's header, as `croupier play --position` reads it */
                char err[512];
                void *st = NULL;
                if (cr_position_load(json, jn, "dml", NULL, &g, &st, err, sizeof err) != CR_OK) {
                    ok = ffail(fx->path, ln, "position: %s", err);
                    break;
                }
                s = st;
                continue;
            }
            size_t len = strlen(t);
            if (jn + len + 2 < sizeof json) {
                memcpy(json + jn, t, len);
                jn += len;
                json[jn++] = '\n';
            }
            continue;
        }
        if (!*t || t[0] == '#') continue;
        if (!strcmp(t, "position")) {
            in_pos = 1;
            continue;
        }
        if (!s) {
            ok = ffail(fx->path, ln, "an action or expectation before the position");
            break;
        }
        if (t[0] == '?') {
            ok = expect(g, s, trim(t + 1), fx->path, ln);
            continue;
        }
        char err[256];
        if (cr_apply_text(g, s, t, NULL, err, sizeof err) != CR_OK)
            ok = ffail(fx->path, ln, "'%s': %s", t, err);
    }
    fclose(f);
    if (in_pos) ok = ffail(fx->path, ln, "position without 'end'");
    if (!s && ok) ok = ffail(fx->path, ln, "no position");
    cr_free(s);
    cr_game_free(g);
    if (!ok) fail_msg("%s", failure);
}

/* A seat in an expectation that is no seat of the game ("P7", or P3 of a
 * 3-player game) is a clear failure; it used to index vp[] with -1 or 3
 * (and the Release build refused to compile it: -Werror=array-bounds). */
static void bad_seat_in_expectation_fails(void **unused)
{
    (void)unused;
    cr_params p = {.num_players = 3, .variant = "smackdown"};
    char err[256];
    cr_game *g = cr_game_new(cr_registry_find("dml"), &p, err, sizeof err);
    assert_non_null(g);
    dml_state *s = cr_alloc(g->state_size);
    g->def->init(g, s);
    static const char *const bad[] = {"vp P7 0", "vp P3 0", "vp x 0", "alive P0 P9", "affected P3"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char line[64];
        snprintf(line, sizeof line, "%s", bad[i]);
        failure[0] = 0;
        assert_int_equal(expect(g, s, line, "test", 1), 0);
        if (!strstr(failure, "is not a seat of the game"))
            fail_msg("'%s' gave '%s'", bad[i], failure);
    }
    char ok[] = "vp P2 0";
    assert_int_equal(expect(g, s, ok, "test", 1), 1);
    cr_free(s);
    cr_game_free(g);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const fixture *)a)->name, ((const fixture *)b)->name);
}

int main(void)
{
    static fixture fx[512];
    static struct CMUnitTest tests[512];
    int n = 0;
    const char *dir = CR_TEST_FIXTURES_DIR "/dml";
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "no fixture folder %s\n", dir);
        return 1;
    }
    struct dirent *de;
    while ((de = readdir(d)) && n < 511) {
        size_t len = strlen(de->d_name);
        if (len < 5 || strcmp(de->d_name + len - 4, ".txt")) continue;
        snprintf(fx[n].path, sizeof fx[n].path, "%s/%s", dir, de->d_name);
        snprintf(fx[n].name, sizeof fx[n].name, "%.*s", (int)(len - 4), de->d_name);
        n++;
    }
    closedir(d);
    qsort(fx, (size_t)n, sizeof fx[0], by_name);
    for (int i = 0; i < n; i++) {
        tests[i] = (struct CMUnitTest){fx[i].name, run_fixture, NULL, NULL, &fx[i]};
    }
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(bad_seat_in_expectation_fails);
    return _cmocka_run_group_tests("dml_fixtures", tests, (size_t)n, NULL, NULL);
}
