/* parts.c — what DML plugs into the game-agnostic layers (croupier/parts.h):
 * its hand-written player, its lab profile, its achievements, the clients'
 * help, the player's guide, the full-screen client's table (panels.c) and the
 * conformance suite's checks (conformance.c).
 *
 * Achievements (spec Appendix A, notes A1-A6, and a few of our own): half of
 * them are read from the final state (how the game ended, what the Hands
 * hold), the other half from dml_state.feat, the bits the rules set as the
 * deeds happen (rules.c).  Both editions share the list; what an edition
 * cannot reach (docs/play-dml.md, "Achievements"): Joke's on you and End of
 * thieving need the 2015 Rogue Jester and Harlot Queen (A1), so only
 * dml-2015 without cards-2015-06 can earn Joke's on you, and dml-2015 End of
 * thieving; One man's scrapings needs the Jack of Spice's tithe, which
 * cards-2015-06's Goods Swindler does not collect; Last merchant standing
 * and Survived the fire are I See Fire's.  3-Player Smackdown awards none
 * (12.2, R52), nor does a 3-player I See Fire game, which is Smackdown plus
 * fire; a 3-player DML-2015 game is a Full Game and awards them (A2, V19). */
#include "croupier/parts.h"
#include "games/dml/dml_internal.h"

/* The order of this list is the lab's column order; keys never change. */
enum {
    ACH_WON_VP,
    ACH_MONOPOLY,
    ACH_FATHER,
    ACH_LAST,
    ACH_SURVIVED,
    ACH_SEIZE,
    ACH_NO_SOUP,
    ACH_ASHES,
    ACH_CHICKENS,
    ACH_SCRAPINGS,
    ACH_THIEVES,
    ACH_RUINS,
    ACH_FULL_COURT,
    ACH_FULL_HOUSE,
    ACH_TAKEOVER,
    ACH_CURSE,
    ACH_MOUNTAIN,
    ACH_MANIPULATOR,
    ACH_SUPREME,
    ACH_ETERNAL,
    ACH_POCKET,
    ACH_WIND,
    ACH_END_THIEVING, /* DML-2015 only */
    ACH_JOKES,        /* DML-2015 only (A1) */
    ACH_COUNT
};

static const cr_achievement dml_achievement_list[ACH_COUNT] = {
    [ACH_WON_VP] = {"won-on-victory-points", "Counting house",
                    "Win when the Deck runs out, on Victory Points."},
    [ACH_MONOPOLY] = {"won-by-monopoly", "Greed is good",
                      "Win at once by holding the 2 to 9 of one suit (Monopoly)."},
    [ACH_FATHER] = {"father-of-dragons", "Father of Dragons",
                    "Win at once by holding all four Dragon Eggs."},
    [ACH_LAST] = {"last-merchant-standing", "Last merchant standing",
                  "Win an I See Fire game as the only merchant the Sieges left."},
    [ACH_SURVIVED] = {"survived-the-fire", "Survived the fire",
                      "Still be in an I See Fire game when it ends."},
    [ACH_SEIZE] = {"seize-the-initiative", "Seize the initiative",
                   "Take the Dealer Token in the roll-off with a Woot!."},
    [ACH_NO_SOUP] = {"no-soup-for-you", "No soup for you!",
                     "Everyone's roll in one roll-off round is Wyvern Eyes (all of you earn it)."},
    [ACH_ASHES] = {"reduce-to-ashes", "Reduce to ashes",
                   "Your Dragon Empress's Siege drives eggs out of two other players' Hands."},
    [ACH_CHICKENS] = {"dont-count-your-chickens", "Don't count your chickens",
                      "Your Harlot Queen exiles another player's Archduchess before she takes a "
                      "Stock."},
    [ACH_SCRAPINGS] = {"one-mans-scrapings", "One man's scrapings",
                       "Win a game in which your Jack of Spice collected its tithe (the Supreme "
                       "Secretary of Tithes; in 2015 the Tithe Embezzeler)."},
    [ACH_THIEVES] = {"no-honor-among-thieves", "No honour among thieves",
                     "Your Thief pulls a Joker out of another player's Hand."},
    [ACH_RUINS] = {"kingdom-in-ruins", "Kingdom in ruins",
                   "Set off a Dragon Siege (Wyvern Eyes or the Empress) with an egg in your own "
                   "Hand."},
    [ACH_FULL_COURT] = {"full-court", "Full court",
                        "Have the Queen, Jack and Ten of your Desired suit as Emblems at once."},
    [ACH_FULL_HOUSE] = {"full-house", "Full house",
                        "Have Emblems worth a Buying Bonus of 5 or more in your Front at once."},
    [ACH_TAKEOVER] = {"hostile-takeover", "Hostile takeover",
                      "Buy or seize a Ten that another player shows as an Emblem."},
    [ACH_CURSE] = {"re-roll-curse", "Re-roll curse",
                   "Re-roll one Buying roll (in 2015 also a Black Market attempt) twice or more "
                   "on Dabo! and fail it all the same."},
    [ACH_MOUNTAIN] = {"mountain-of-gold", "Mountain of gold",
                      "Score more than 150 Victory Points in a four-player game."},
    [ACH_MANIPULATOR] = {"market-manipulator", "Market manipulator",
                         "Win a game of three or four players."},
    [ACH_SUPREME] = {"greed-is-supreme", "Greed is supreme",
                     "Win by Monopoly of your own Desired Commodity."},
    [ACH_ETERNAL] = {"greed-is-eternal", "Greed is eternal",
                     "Win by Monopoly of your Desired Commodity while holding its Guild (Ten)."},
    [ACH_POCKET] = {"pocket-money", "Go home with your pocket money",
                    "End the game with cards in Hand, every one of them a 2 or a 3."},
    [ACH_WIND] = {"wind-rinsed-arse", "Wind-rinsed",
                  "Lose with an empty Hand and no Emblem in your Front."},
    [ACH_END_THIEVING] = {"end-of-thieving", "End of thieving",
                          "Your Harlot Queen sends two Thieves into Exile at once (2015 edition)."},
    [ACH_JOKES] = {"jokes-on-you", "Joke's on you",
                   "Your Rogue Jester turns the Stack so that another player's Harlot Queen, "
                   "Grand Inquisitor or Dragon Empress no longer comes first (2015 edition)."},
};

/* Does this table award achievements?  Not in 3-Player Smackdown (12.2),
 * nor in I See Fire with three players, which is Smackdown plus fire (12.4). */
static int awards(const dml_state *s)
{
    return s->variant != DML_V_SMACKDOWN && !(s->variant == DML_V_FIRE && s->n == 3);
}

/* The suit of seat's Merchant King (its Desired Commodity), -1 if none. */
static int desired_suit(const dml_state *s, int seat)
{
    uint64_t king = s->zone[DML_Z_KING + seat];
    return king ? dml_suit(__builtin_ctzll(king)) : -1;
}

/* The suit whose 2-9 seat's Hand holds (its Monopoly), -1 if none. */
static int monopoly_suit(const dml_state *s, int seat)
{
    for (int su = 0; su < 4; su++) {
        uint64_t need = (uint64_t)0xff << (su * 13);
        if ((s->zone[DML_Z_HAND + seat] & need) == need) return su;
    }
    return -1;
}

/* Every key of a finished game, in list order.  Only the rules' own state
 * is read, so it gives the same answer whichever client asks. */
static int dml_achievements(const cr_game *g, const void *st, int seat, const char **out, int max)
{
    const dml_state *s = st;
    if (!s->over || seat < 0 || seat >= g->num_players || max <= 0 || !awards(s)) return 0;
    int won = s->winner == seat, alive = dml_is_alive(s, seat);
    unsigned feat = s->feat[seat];
    uint64_t h = s->zone[DML_Z_HAND + seat];
    int got[ACH_COUNT] = {0};
    got[ACH_WON_VP] = won && s->end_reason == DML_END_VP;
    got[ACH_MONOPOLY] = won && s->end_reason == DML_END_MONOPOLY;
    got[ACH_FATHER] = won && s->end_reason == DML_END_FATHER;
    got[ACH_LAST] = won && s->end_reason == DML_END_LAST;
    got[ACH_SURVIVED] = s->variant == DML_V_FIRE && alive;
    got[ACH_SEIZE] = (feat & DML_FEAT_WOOT_ROLLOFF) != 0;
    got[ACH_NO_SOUP] = (feat & DML_FEAT_ALL_WYVERN) != 0;
    got[ACH_ASHES] = (feat & DML_FEAT_ASHES) != 0;
    got[ACH_CHICKENS] = (feat & DML_FEAT_CHICKENS) != 0;
    got[ACH_SCRAPINGS] = won && (feat & DML_FEAT_TITHES);
    got[ACH_THIEVES] = (feat & DML_FEAT_JOKER_THIEF) != 0;
    got[ACH_RUINS] = (feat & DML_FEAT_EGG_SIEGE) != 0;
    got[ACH_FULL_COURT] = (feat & DML_FEAT_FULL_COURT) != 0;
    got[ACH_FULL_HOUSE] = (feat & DML_FEAT_FULL_HOUSE) != 0;
    got[ACH_TAKEOVER] = (feat & DML_FEAT_TEN_TAKEOVER) != 0;
    got[ACH_CURSE] = (feat & DML_FEAT_REROLL_CURSE) != 0;
    /* Victory Points are scored only when the Deck runs out (11.2) */
    got[ACH_MOUNTAIN] = s->n == 4 && s->end_reason == DML_END_VP && alive && s->vp[seat] > 150;
    got[ACH_MANIPULATOR] = won;
    if (won && s->end_reason == DML_END_MONOPOLY) {
        int su = monopoly_suit(s, seat);
        got[ACH_SUPREME] = su >= 0 && su == desired_suit(s, seat);
        /* "holds" its Ten: in Hand or Front, as for the Guild bonus (11.2) */
        got[ACH_ETERNAL] =
            got[ACH_SUPREME] && ((h | s->zone[DML_Z_FRONT + seat]) & dml_bit(dml_card(su, DML_T)));
    }
    got[ACH_POCKET] = alive && h && !(h & ~(dml_rank_mask[2] | dml_rank_mask[3]));
    got[ACH_WIND] = !won && !h && !s->zone[DML_Z_FRONT + seat];
    got[ACH_END_THIEVING] = (feat & DML_FEAT_END_THIEVING) != 0;
    got[ACH_JOKES] = (feat & DML_FEAT_JOKES_ON_YOU) != 0;
    int n = 0;
    for (int i = 0; i < ACH_COUNT && n < max; i++)
        if (got[i]) out[n++] = dml_achievement_list[i].key;
    return n;
}

/* The levels of play, weakest first (bot.h, "Tiers"); their ratings and
 * the command that measured them: docs/bots.md. */
static const cr_tier dml_tiers[] = {
    {"beginner", "random", "plays any legal move"},
    {"casual", "heuristic:noise=0.5", "the club player's ideas, half of the time"},
    {"club", "heuristic", "a hand-written player: sound buying, seizing and visiting"},
    {"expert", "ismcts:iters=300", "searches 300 imagined games a move, guided by the club player"},
    {"master", "ismcts:iters=2000", "searches 2,000 imagined games a move (about 0.05 s)"},
};

const cr_game_parts dml_parts = {
    .heuristic = dml_heuristic,
    .lab = &dml_lab,
    .check_invariants = dml_check_invariants, /* invariants.c */
    .achievements = dml_achievements,
    .achievement_list = dml_achievement_list,
    .n_achievements = ACH_COUNT,
    .help = dml_help,      /* display.c */
    .bench = dml_bench,    /* bench.c */
    .guide = cr_guide_dml, /* docs/play-dml.md, compiled in */
    .panels = dml_panels,  /* panels.c */
    .obs_tensor = dml_obs_tensor,
    .conformance = &dml_conformance, /* conformance.c */
    .tiers = dml_tiers,
    .n_tiers = (int)(sizeof dml_tiers / sizeof dml_tiers[0]),
};
