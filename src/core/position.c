/* position.c — the generic header of a position file (record.h,
 * docs/positions.md): which game, rules version, table and options a
 * position belongs to.  cr_position_load reads the header, creates the game,
 * and hands the whole text to the game's deserialize, which checks the
 * game's own keys and invariants.  Like records, a position made under
 * another rules version or with other game data is refused by key. */
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"
#include "croupier/alloc.h"
#include "croupier/record.h"

/* A refusal of the header: the message is in err already. */
static cr_status refuse(json_t *root, cr_status rc)
{
    json_decref(root);
    return rc;
}

cr_status cr_position_load(const char *text, size_t len, const char *game,
                           const cr_params *overrides, cr_game **g_out, void **st_out, char *err,
                           size_t errcap)
{
    *g_out = NULL;
    *st_out = NULL;
    if (err && errcap) err[0] = '\0';
    const char *nul = memchr(text, '\0', len);
    if (nul != NULL) {
        cr_errf(err, errcap, "NUL byte at offset %zu", (size_t)(nul - text));
        return CR_ERR_PARSE;
    }
    json_error_t jerr;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (root == NULL) {
        cr_errf(err, errcap, "line %d: %s", jerr.line, jerr.text);
        return CR_ERR_PARSE;
    }
    if (!json_is_object(root)) {
        cr_errf(err, errcap, "position: expected a JSON object");
        return refuse(root, CR_ERR_PARSE);
    }
    /* game */
    json_t *jg = json_object_get(root, "game");
    if (jg != NULL && !json_is_string(jg)) {
        cr_errf(err, errcap, "game: expected a game name");
        return refuse(root, CR_ERR_PARSE);
    }
    const char *name = jg ? json_string_value(jg) : game;
    if (name == NULL) {
        cr_errf(err, errcap, "game: missing (which game is this position of?)");
        return refuse(root, CR_ERR_PARSE);
    }
    if (game != NULL && strcmp(name, game) != 0) {
        cr_errf(err, errcap, "game: the position is of %.40s, not %.40s", name, game);
        return refuse(root, CR_ERR_INVALID);
    }
    const cr_game_def *def = cr_registry_find(name);
    if (def == NULL) {
        cr_errf(err, errcap, "game: unknown game '%.40s'", name);
        return refuse(root, CR_ERR_INVALID);
    }
    /* rules: absent in hand-written positions, which then mean the current rules */
    json_t *jr = json_object_get(root, "rules");
    if (jr != NULL && (!json_is_integer(jr) || json_integer_value(jr) != def->rules_version)) {
        if (json_is_integer(jr))
            cr_errf(err, errcap,
                    "rules: the position was made under %s rules version %" JSON_INTEGER_FORMAT
                    "; this croupier plays version %d",
                    def->name, json_integer_value(jr), def->rules_version);
        else
            cr_errf(err, errcap, "rules: expected the rules version, an integer");
        return refuse(root, CR_ERR_INVALID);
    }
    cr_params p = {0};
    json_t *jv = json_object_get(root, "variant");
    if (jv != NULL && !json_is_string(jv)) {
        cr_errf(err, errcap, "variant: expected a variant name");
        return refuse(root, CR_ERR_PARSE);
    }
    p.variant = jv ? json_string_value(jv) : NULL;
    json_t *jp = json_object_get(root, "players");
    if (json_is_integer(jp) && json_integer_value(jp) >= 1 &&
        json_integer_value(jp) <= CR_MAX_PLAYERS)
        p.num_players = (int)json_integer_value(jp);
    else if (json_is_array(jp) && json_array_size(jp) >= 1 && json_array_size(jp) <= CR_MAX_PLAYERS)
        p.num_players = (int)json_array_size(jp);
    else if (jp != NULL) {
        cr_errf(err, errcap, "players: expected a player count from 1 to %d", CR_MAX_PLAYERS);
        return refuse(root, CR_ERR_PARSE);
    }
    /* options: strings, integers or booleans, as text for cr_game_new */
    char optbuf[CR_MAX_OPTIONS][64];
    json_t *jo = json_object_get(root, "options");
    if (jo != NULL) {
        if (!json_is_object(jo)) {
            cr_errf(err, errcap, "options: expected an object of option values");
            return refuse(root, CR_ERR_PARSE);
        }
        const char *key;
        json_t *val;
        int k = 0;
        json_object_foreach(jo, key, val)
        {
            const char *text_val = NULL;
            if (k >= CR_MAX_OPTIONS) {
                cr_errf(err, errcap, "options: more than %d options", CR_MAX_OPTIONS);
                return refuse(root, CR_ERR_INVALID);
            }
            if (json_is_string(val))
                text_val = json_string_value(val);
            else if (json_is_integer(val))
                snprintf(optbuf[k], sizeof optbuf[k], "%" JSON_INTEGER_FORMAT,
                         json_integer_value(val)),
                    text_val = optbuf[k];
            else if (json_is_boolean(val))
                text_val = json_is_true(val) ? "yes" : "no";
            if (text_val == NULL) {
                cr_errf(err, errcap, "options.%.40s: expected a string, an integer or a boolean",
                        key);
                return refuse(root, CR_ERR_PARSE);
            }
            (void)cr_params_set(&p, key, text_val);
            k++;
        }
    }
    if (overrides != NULL)
        for (int i = 0; i < overrides->n_options; i++)
            if (cr_params_set(&p, overrides->options[i].key, overrides->options[i].value) !=
                CR_OK) {
                cr_errf(err, errcap, "options: too many");
                return refuse(root, CR_ERR_INVALID);
            }
    if (overrides != NULL && overrides->variant != NULL) p.variant = overrides->variant;
    if (overrides != NULL && overrides->num_players > 0) p.num_players = overrides->num_players;

    char why[256];
    cr_game *g = cr_game_new(def, &p, why, sizeof why);
    if (g == NULL) {
        cr_errf(err, errcap, "%s", why);
        return refuse(root, CR_ERR_INVALID);
    }
    /* data_hash */
    json_t *jh = json_object_get(root, "data_hash");
    if (jh != NULL) {
        const char *h = json_is_string(jh) ? json_string_value(jh) : "";
        char mine[17];
        snprintf(mine, sizeof mine, "%016" PRIx64, g->data_hash);
        if (strlen(h) != 16 || strspn(h, "0123456789abcdef") != 16) {
            cr_errf(err, errcap, "data_hash: expected 16 lowercase hexadecimal digits");
            cr_game_free(g);
            return refuse(root, CR_ERR_PARSE);
        }
        /* The game's data is the file given, else the data the game bundles
         * (whose hash cr_game_new set), else none (hash 0). */
        if (g->data_hash == 0 || strcmp(h, mine) != 0) {
            const char *which = g->data_text != NULL ? "the data given has hash "
                                : g->data_hash != 0  ? "the bundled data has hash "
                                                     : "the game takes no data file";
            cr_errf(err, errcap,
                    "data_hash: the position was made with game data of hash %s, but %s%s", h,
                    which, g->data_hash != 0 ? mine : "");
            cr_game_free(g);
            return refuse(root, CR_ERR_INVALID);
        }
    }
    json_decref(root);

    void *st = cr_alloc(g->state_size);
    if (st == NULL) {
        cr_errf(err, errcap, "out of memory");
        cr_game_free(g);
        return CR_ERR_NOMEM;
    }
    why[0] = '\0';
    cr_status rc = g->def->deserialize(g, st, text, len, why, sizeof why);
    if (rc != CR_OK) {
        cr_errf(err, errcap, "%s", why[0] ? why : "not a valid position");
        cr_free(st);
        cr_game_free(g);
        return rc;
    }
    *g_out = g;
    *st_out = st;
    return CR_OK;
}
