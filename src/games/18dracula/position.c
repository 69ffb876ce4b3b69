/* position.c — 18Dracula positions (docs/positions.md, "18Dracula"): the
 * whole state as one JSON object, after the generic header.  Every field of
 * d18_state is written under its own name, as a number or an array of
 * numbers (nested arrays flattened in row order), so a position loads back
 * into the same bytes.  The loader reads into a zeroed state, refuses an
 * unknown or missing key, a value outside its field's type, and any state
 * that breaks the game's invariants or indexes outside the board (by key),
 * so a loaded position can be played like one reached by play.
 */
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "croupier/text.h"
#include "games/18dracula/d18_internal.h"

enum { I8, U8, I16, U16, I32, U32 };
static const int tsize[] = {1, 1, 2, 2, 4, 4};

typedef struct field {
    const char *name;
    size_t off;
    int type, count;
} field;

#define FLD(f, T)                                                                                  \
    {                                                                                              \
#f, offsetof(d18_state, f), T,                                                             \
            (int)(sizeof(((d18_state *)0)->f) / ((T) < 2   ? 1                                     \
                                                 : (T) < 4 ? 2                                     \
                                                           : 4))                                   \
    }

static const field fields[] = {
    FLD(np, U8),
    FLD(stage, U8),
    FLD(phase, U8),
    FLD(end_reason, U8),
    FLD(seat_at, I8),
    FLD(pos_of, I8),
    FLD(bank, I32),
    FLD(cash, I32),
    FLD(broke_when, U8),
    FLD(bankrupt, I8),
    FLD(assoc_owner, I8),
    FLD(assoc_closed, U8),
    FLD(assoc_price_now, I16),
    FLD(bid, I16),
    FLD(minor_cash, I32),
    FLD(actor, I8),
    FLD(au_passes, U8),
    FLD(chain_start, I8),
    FLD(ct_assoc, I8),
    FLD(ct_in, U8),
    FLD(au_cycles, U32),
    FLD(pres, I8),
    FLD(held, U8),
    FLD(ipo, U8),
    FLD(pool, U8),
    FLD(par_idx, I8),
    FLD(mrow, I8),
    FLD(mcol, I8),
    FLD(mseq, U32),
    FLD(seq, U32),
    FLD(floated, U8),
    FLD(treasury, I32),
    FLD(sr_no, U16),
    FLD(priority, I8),
    FLD(last_actor, I8),
    FLD(sr_passes, U8),
    FLD(turn_bought, U8),
    FLD(turn_acted, U8),
    FLD(sold_this_sr, U8),
    FLD(declined, U8),
    FLD(offer_assoc, I8),
    FLD(offer_from, I8),
    FLD(assoc_bought_sr, U8),
    FLD(offer_price, I32),
    FLD(cube, U8),
    FLD(slot_at, U8),
    FLD(slots, U32),
    FLD(supply, I16),
    FLD(castle, U8),
    FLD(space_occ, I8),
    FLD(offices_used, U8),
    FLD(bt_offices, U8),
    FLD(mon_at, U8),
    FLD(tracker, U8),
    FLD(mon_fresh, U8),
    FLD(op_front, I8),
    FLD(op_ent, I8),
    FLD(or_step, U8),
    FLD(operated, U8),
    FLD(minors_done, U8),
    FLD(or_no, U8),
    FLD(ors_in_set, U8),
    FLD(or_sets_begun, U16),
    FLD(or_sets_done, U16),
    FLD(end_after_set, U16),
    FLD(build_used, U8),
    FLD(set_earned, U8),
    FLD(idle_sets, U8),
    FLD(ors_played, U16),
    FLD(au_minors, U8),
    FLD(revenue, I32),
    FLD(declined_mon, U32),
    FLD(offer_to, I8),
    FLD(offer_type, I8),
    FLD(castle_in, U8),
    FLD(castle_who, I8),
    FLD(castle_top, I32),
    FLD(declined_af, U8),
    FLD(merge_ent, I8),
    FLD(merge_next, U8),
    FLD(actions, U32),
};
enum { NFIELDS = sizeof fields / sizeof fields[0] };

static long long get(const void *p, int type)
{
    switch (type) {
    case I8: return *(const int8_t *)p;
    case U8: return *(const uint8_t *)p;
    case I16: return *(const int16_t *)p;
    case U16: return *(const uint16_t *)p;
    case I32: return *(const int32_t *)p;
    default: return *(const uint32_t *)p;
    }
}

static int put(void *p, int type, long long v)
{
    static const long long lo[] = {INT8_MIN, 0, INT16_MIN, 0, INT32_MIN, 0};
    static const long long hi[] = {INT8_MAX,   UINT8_MAX, INT16_MAX,
                                   UINT16_MAX, INT32_MAX, UINT32_MAX};
    if (v < lo[type] || v > hi[type]) return 0;
    switch (type) {
    case I8: *(int8_t *)p = (int8_t)v; break;
    case U8: *(uint8_t *)p = (uint8_t)v; break;
    case I16: *(int16_t *)p = (int16_t)v; break;
    case U16: *(uint16_t *)p = (uint16_t)v; break;
    case I32: *(int32_t *)p = (int32_t)v; break;
    default: *(uint32_t *)p = (uint32_t)v; break;
    }
    return 1;
}

size_t d18_serialize(const cr_game *g, const void *st, char *buf, size_t cap)
{
    cr_tbuf t;
    cr_tb_init(&t, buf, cap);
    cr_tb_printf(&t,
                 "{\"game\":\"18dracula\",\"rules\":%d,\"variant\":\"%s\",\"players\":%d,"
                 "\"data_hash\":\"%016llx\"",
                 g->def->rules_version, g->variant->name, g->num_players,
                 (unsigned long long)g->data_hash);
    for (int i = 0; i < NFIELDS; i++) {
        const field *f = &fields[i];
        const unsigned char *p = (const unsigned char *)st + f->off;
        cr_tb_printf(&t, ",\n\"%s\":", f->name);
        if (f->count == 1) {
            cr_tb_printf(&t, "%lld", get(p, f->type));
            continue;
        }
        cr_tb_printf(&t, "[");
        for (int k = 0; k < f->count; k++)
            cr_tb_printf(&t, "%s%lld", k ? "," : "",
                         get(p + (size_t)k * (size_t)tsize[f->type], f->type));
        cr_tb_printf(&t, "]");
    }
    cr_tb_printf(&t, "}\n");
    return t.len;
}

/* Indexes the rules follow without checking: each must be in range. */
static const char *sane(const cr_game *g, const d18_state *s)
{
    const d18_board *b = d18_brd(g);
    if (s->stage > D18_S_OVER) return "stage";
    if (s->phase < 1 || s->phase > 5) return "phase";
    if (s->stage != D18_S_SEATING) {
        int seen = 0;
        for (int p = 0; p < s->np; p++) {
            int q = s->seat_at[p];
            if (q < 0 || q >= s->np || (seen >> q & 1) || s->pos_of[q] != p) return "seat_at";
            seen |= 1 << q;
        }
    }
    for (int p = s->np; p < D18_MAXP; p++)
        if (s->cash[p] || s->seat_at[p] || s->pos_of[p]) return "cash";
    int need_actor = s->stage == D18_S_AUCTION || s->stage == D18_S_CONTEST ||
                     s->stage == D18_S_SR || s->stage == D18_S_SR_OFFER || s->stage == D18_S_CASTLE;
    if (need_actor && (s->actor < 0 || s->actor >= s->np)) return "actor";
    if (s->priority < -1 || s->priority >= s->np || s->last_actor < -1 || s->last_actor >= s->np)
        return "priority";
    if (s->stage >= D18_S_SR && s->stage != D18_S_OVER && !s->au_minors && s->priority < 0)
        return "priority";
    if (s->chain_start < -1 || s->chain_start >= s->np) return "chain_start";
    if (s->ct_assoc < -1 || s->ct_assoc >= D18_NASSOC) return "ct_assoc";
    if (s->stage == D18_S_CONTEST && (s->ct_assoc < 0 || !(s->ct_in >> s->actor & 1)))
        return "ct_in";
    if (s->offer_assoc < -1 || s->offer_assoc >= D18_NASSOC || s->offer_from < -1 ||
        s->offer_from >= s->np)
        return "offer_assoc";
    if (s->stage == D18_S_SR_OFFER &&
        (s->offer_assoc < 0 || s->offer_from < 0 || s->assoc_owner[s->offer_assoc] != s->actor))
        return "offer_assoc";
    if (s->castle_who < -1 || s->castle_who >= s->np) return "castle_who";
    if (s->stage == D18_S_CASTLE_PLACE && s->castle_who < 0) return "castle_who";
    if (s->op_ent < -1 || s->op_ent >= D18_NENT ||
        s->op_front != (s->op_ent < D18_NFRONTS ? s->op_ent : -1))
        return "op_ent";
    if (s->or_step > D18_OS_BUY) return "or_step";
    if (s->stage == D18_S_OR && (s->op_ent < 0 || d18_owner_of(s, s->op_ent) < 0)) return "op_ent";
    if (s->offer_to < -1 || s->offer_to >= D18_NFRONTS || s->offer_type < -1 ||
        s->offer_type >= b->n_monsters)
        return "offer_to";
    if (s->stage == D18_S_OR_OFFER &&
        (s->offer_to < 0 || s->offer_type < 0 || s->op_front < 0 || s->pres[s->offer_to] < 0))
        return "offer_to";
    if (s->stage == D18_S_DISCARD && d18_owner_of(s, d18_next_discarder(g, s)) < 0) return "stage";
    if (s->stage == D18_S_OR_AOFFER && !d18_is_legal(g, s, d18_encode(D18_K_DECLINE, 0, 0, 0)))
        return "offer_assoc";
    if (s->merge_ent != -1 && s->merge_ent != D18_ENT_LL && s->merge_ent != D18_ENT_BT)
        return "merge_ent";
    if (s->merge_next > 1 || (s->stage == D18_S_MERGE) != (s->merge_ent >= 0)) return "merge_ent";
    if (s->stage == D18_S_MERGE && !d18_is_legal(g, s, d18_encode(D18_K_MERGE_REMOVE, 0, 0, 0)))
        return "merge_ent";
    if (s->bankrupt < -1 || s->bankrupt >= s->np) return "bankrupt";
    for (int r = 0; r < D18_MAX_ROUTES; r++)
        if (s->slot_at[r][0] > 31 || s->slot_at[r][1] > 31 || (r >= b->n_routes && s->cube[r]))
            return "slot_at";
    if (s->build_used > 2 || s->end_reason > D18_END_TECH_BANKRUPTCY ||
        s->broke_when > D18_BRK_IN_AUCTION)
        return "build_used";
    if (s->phase < 5 && s->tracker > b->sales[s->phase - 1]) return "tracker";
    for (int a = 0; a < D18_NASSOC; a++)
        if (s->assoc_price_now[a] < 0 || s->assoc_price_now[a] > b->assoc_price[a])
            return "assoc_price_now";
    return NULL;
}

static const char *const header_keys[] = {"game",      "rules",   "options",
                                          "data_hash", "variant", "players"};

cr_status d18_deserialize(const cr_game *g, void *st, const char *buf, size_t len, char *err,
                          size_t errcap)
{
    d18_state *s = st;
    memset(s, 0, sizeof *s);
    json_error_t jerr;
    json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        snprintf(err, errcap, "line %d: %s", jerr.line, jerr.text);
        return CR_ERR_PARSE;
    }
    cr_status rc = CR_ERR_INVALID;
    const char *key;
    json_t *v;
    if (!json_is_object(root)) {
        snprintf(err, errcap, "position: expected a JSON object");
        rc = CR_ERR_PARSE;
        goto out;
    }
    json_object_foreach(root, key, v)
    {
        int known = 0;
        for (size_t i = 0; i < sizeof header_keys / sizeof header_keys[0]; i++)
            known |= !strcmp(key, header_keys[i]);
        for (int i = 0; i < NFIELDS; i++) known |= !strcmp(key, fields[i].name);
        if (!known) {
            snprintf(err, errcap, "%.40s: not a key of an 18dracula position", key);
            goto out;
        }
    }
    json_t *np = json_object_get(root, "players");
    if (np && (!json_is_integer(np) || json_integer_value(np) != g->num_players)) {
        snprintf(err, errcap, "players: the game was created for %d", g->num_players);
        goto out;
    }
    for (int i = 0; i < NFIELDS; i++) {
        const field *f = &fields[i];
        unsigned char *p = (unsigned char *)s + f->off;
        json_t *x = json_object_get(root, f->name);
        if (!x) {
            snprintf(err, errcap, "%s: missing", f->name);
            goto out;
        }
        if (f->count == 1) {
            if (!json_is_integer(x) || !put(p, f->type, json_integer_value(x))) {
                snprintf(err, errcap, "%s: expected a whole number in the field's range", f->name);
                goto out;
            }
            continue;
        }
        if (!json_is_array(x) || (int)json_array_size(x) != f->count) {
            snprintf(err, errcap, "%s: expected an array of %d numbers", f->name, f->count);
            goto out;
        }
        for (int k = 0; k < f->count; k++) {
            json_t *e = json_array_get(x, (size_t)k);
            if (!json_is_integer(e) ||
                !put(p + (size_t)k * (size_t)tsize[f->type], f->type, json_integer_value(e))) {
                snprintf(err, errcap, "%s[%d]: expected a whole number in the field's range",
                         f->name, k);
                goto out;
            }
        }
    }
    char why[200];
    if (s->np != g->num_players) {
        snprintf(err, errcap, "np: the game was created for %d players", g->num_players);
        goto out;
    }
    if (d18_check_invariants(g, s, why, sizeof why)) {
        snprintf(err, errcap, "position: %s", why);
        goto out;
    }
    const char *bad = sane(g, s);
    if (bad) {
        snprintf(err, errcap, "%s: out of range or inconsistent", bad);
        goto out;
    }
    rc = CR_OK;
out:
    json_decref(root);
    return rc;
}
