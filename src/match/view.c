/* match/view.c — a seat's view of a match as JSON (view.h): the members
 * of the server's `update`, the result, events as one seat sees them and
 * a finished match's step (`replay`), written into the text kit's growing buffer (croupier/text.h).
 *
 * Invariant: what a view shows comes from the match layer's per-seat calls
 * (cr_match_observe, _prompt, _help, _legal, _action_json, _event_json for
 * that seat); only the result and the achievements read the state, and
 * only once the game is over, and a step of a finished match reads the
 * replay cursor's state (a finished match's record is public).  The same
 * match and seat give the same bytes,
 * so a client may hash a view to tell whether it changed.
 */
#include "match/view.h"

#include <stdlib.h>
#include <string.h>

#include "croupier/alloc.h"
#include "croupier/parts.h"

/* ---- views ---- */

/* Renders into v->tmp, replacing its text, with a snprintf-style call
 * that sees `buf` and `cap`; out of memory leaves it empty (and the next
 * rendering tries afresh: the text's flag is sticky, so it is freed). */
#define VIEW_RENDER(v, call_with_buf_cap)                                                          \
    do {                                                                                           \
        cr_text_reset(&(v)->tmp);                                                                  \
        CR_TEXT_RENDER(&(v)->tmp, call_with_buf_cap);                                              \
        if ((v)->tmp.oom) cr_text_free(&(v)->tmp);                                                 \
    } while (0)

int cr_view_init(cr_view *v, const cr_game *g)
{
    memset(v, 0, sizeof *v);
    v->obs_size = g->obs_size ? g->obs_size : 1;
    v->obs = malloc(v->obs_size);
    v->help_obs = malloc(v->obs_size);
    v->help_seat = -1;
    v->legal = malloc(sizeof(cr_action) * (size_t)g->max_legal);
    return v->obs && v->help_obs && v->legal;
}

void cr_view_fini(cr_view *v)
{
    free(v->obs);
    free(v->help_obs);
    free(v->legal);
    cr_text_free(&v->tmp);
    cr_text_free(&v->help);
    memset(v, 0, sizeof *v);
}

void cr_view_result_json(const cr_match *m, cr_text *b)
{
    const cr_game *gm = cr_match_game(m);
    cr_result res;
    cr_match_result(m, &res);
    cr_text_puts(b, "{\"scores\":[");
    for (int s = 0; s < gm->num_players; s++) cr_text_printf(b, "%s%d", s ? "," : "", res.score[s]);
    cr_text_puts(b, "],\"ranks\":[");
    for (int s = 0; s < gm->num_players; s++) cr_text_printf(b, "%s%d", s ? "," : "", res.rank[s]);
    cr_text_puts(b, "],\"winners\":[");
    int first = 1;
    for (int s = 0; s < gm->num_players; s++)
        if (res.winners & (1u << s)) {
            cr_text_printf(b, "%s%d", first ? "" : ",", s);
            first = 0;
        }
    const char *by = "rules";
    for (int s = 0; s < gm->num_players; s++) {
        int left = cr_match_left(m, s);
        if (left == CR_MARK_RESIGN && strcmp(by, "rules") == 0) by = "resign";
        if (left == CR_MARK_TIMEOUT && strcmp(by, "rules") == 0) by = "timeout";
    }
    cr_text_printf(b, "],\"ended_by\":\"%s\"", by);
    cr_view_achievements_json(b, gm, cr_match_state(m));
    cr_text_puts(b, "}");
}

void cr_view_achievements_json(cr_text *b, const cr_game *g, const void *st)
{
    const cr_game_parts *parts = cr_parts(g);
    cr_text_puts(b, ",\"achievements\":[");
    for (int s = 0; s < g->num_players; s++) {
        const char *keys[64];
        int n = parts->achievements ? parts->achievements(g, st, s, keys, 64) : 0;
        cr_text_puts(b, s ? ",[" : "[");
        for (int i = 0; i < n; i++) {
            const cr_achievement *a =
                cr_achievement_find(parts->achievement_list, parts->n_achievements, keys[i]);
            cr_text_puts(b, i ? ",{\"key\":" : "{\"key\":");
            cr_text_json_utf8(b, keys[i]);
            cr_text_puts(b, ",\"title\":");
            cr_text_json_utf8(b, a ? a->title : keys[i]);
            cr_text_puts(b, ",\"words\":");
            cr_text_json_utf8(b, a ? a->words : "");
            cr_text_puts(b, "}");
        }
        cr_text_puts(b, "]");
    }
    cr_text_puts(b, "]");
}

/* The help of `seat`, whose observation v->obs holds: the text kept from
 * the last call when that was for the same seat and observation (the help
 * reads nothing else), else the match's help written afresh. */
static const char *view_help(cr_view *v, const cr_match *m, int seat)
{
    if (v->help_seat == seat && memcmp(v->help_obs, v->obs, v->obs_size) == 0)
        return cr_text_str(&v->help);
    v->help_seat = -1;
    cr_text_reset(&v->help);
    CR_TEXT_RENDER(&v->help, cr_match_help(m, seat, buf, cap));
    if (v->help.oom) {
        cr_text_free(&v->help); /* the next call tries afresh */
        return "";
    }
    memcpy(v->help_obs, v->obs, v->obs_size);
    v->help_seat = seat;
    return cr_text_str(&v->help);
}

/* Appends ,"annals":{...}: the game's annals (parts.h, "Annals") of events
 * [0, upto) as its annals_json writes them; nothing for a game that keeps
 * none.  The annals hold only what every seat may know (the part's
 * contract), so every view gets the same. */
static void annals_json(cr_view *v, const cr_match *m, uint32_t upto, cr_text *b)
{
    const cr_game *gm = cr_match_game(m);
    const cr_game_parts *parts = cr_parts(gm);
    if (parts->annals_json == NULL) return;
    void *a = cr_match_annals(m, upto);
    if (a == NULL) return;
    VIEW_RENDER(v, parts->annals_json(gm, a, buf, cap));
    cr_free(a);
    if (v->tmp.len == 0) return;
    cr_text_puts(b, ",\"annals\":");
    cr_text_puts(b, v->tmp.p);
}

void cr_view_json(cr_view *v, const cr_match *m, int seat, uint32_t taken, cr_text *b)
{
    const cr_game *gm = cr_match_game(m);
    int to_act = cr_match_to_act(m);
    int over = cr_match_over(m);
    int mine = seat >= 0 && to_act == seat && cr_match_is_human(m, seat);
    cr_text_puts(b, "\"game\":");
    cr_text_json_utf8(b, gm->def->name);
    if (seat >= 0)
        cr_text_printf(b, ",\"seat\":%d,\"decision\":%d", seat, cr_match_decision(m, seat));
    else
        cr_text_puts(b, ",\"seat\":null");
    if (to_act >= 0)
        cr_text_printf(b, ",\"to_act\":%d", to_act);
    else
        cr_text_puts(b, ",\"to_act\":null");
    cr_text_printf(b, ",\"your_turn\":%s,\"over\":%s,\"hints\":%s", mine ? "true" : "false",
                   over ? "true" : "false", cr_match_hints_allowed(m) ? "true" : "false");
    cr_match_observe(m, seat, v->obs);
    VIEW_RENDER(v, gm->def->obs_to_json(gm, v->obs, buf, cap));
    cr_text_puts(b, ",\"observation\":");
    cr_text_puts(b, v->tmp.len ? v->tmp.p : "null");
    annals_json(v, m, cr_match_event_count(m), b);
    if (mine) VIEW_RENDER(v, cr_match_prompt(m, seat, buf, cap));
    cr_text_puts(b, ",\"prompt\":");
    cr_text_json_utf8(b, mine ? cr_text_str(&v->tmp) : "");
    cr_text_puts(b, ",\"help\":");
    cr_text_json_utf8(b, mine ? view_help(v, m, seat) : "");
    cr_text_puts(b, ",\"actions\":[");
    int n = mine ? cr_match_legal(m, seat, v->legal) : 0;
    for (int i = 0; i < n; i++) {
        VIEW_RENDER(v, cr_match_action_json(m, seat, v->legal[i], buf, cap));
        if (i) cr_text_puts(b, ",");
        cr_text_puts(b, v->tmp.len ? v->tmp.p : "null");
    }
    cr_text_printf(b, "],\"seq\":%u,\"seats\":[", cr_match_event_count(m));
    for (int s = 0; s < gm->num_players; s++) {
        int human = cr_match_is_human(m, s);
        int left = cr_match_left(m, s);
        cr_text_printf(b, "%s{\"seat\":%d,\"kind\":\"%s\",\"spec\":", s ? "," : "", s,
                       human ? "human" : "bot");
        cr_text_json_utf8(b, cr_match_seat_spec(m, s));
        cr_text_printf(b, ",\"taken\":%s,\"left\":%s}",
                       human && !((taken >> s) & 1) ? "false" : "true",
                       left == CR_MARK_RESIGN    ? "\"resign\""
                       : left == CR_MARK_TIMEOUT ? "\"timeout\""
                                                 : "false");
    }
    cr_text_puts(b, "]");
    if (over) {
        cr_text_puts(b, ",\"result\":");
        cr_view_result_json(m, b);
    }
}

void cr_view_events_json(cr_view *v, const cr_match *m, int seat, uint32_t since, int max,
                         cr_text *b)
{
    const cr_match_event *ev = NULL;
    int ne = since < cr_match_event_count(m) ? cr_match_events_since(m, since, &ev) : 0;
    if (ne > max) ne = max;
    for (int i = 0; i < ne; i++) {
        VIEW_RENDER(v, cr_match_event_json(m, &ev[i], seat, buf, cap));
        const char *j = cr_text_str(&v->tmp)[0] == '{' ? v->tmp.p : NULL;
        cr_text_printf(b, "%s{\"seq\":%u", i ? "," : "", ev[i].seq);
        if (j && j[1] != '}') {
            cr_text_puts(b, ",");
            cr_text_puts(b, j + 1);
        } else {
            cr_text_puts(b, "}");
        }
    }
}

void cr_view_step_json(cr_view *v, cr_replay *cur, int step, int seat, cr_text *b)
{
    const cr_match *m = cr_replay_match(cur);
    const cr_game *g = cr_match_game(m);
    int n = cr_match_record(m)->n_actions;
    cr_replay_seek(cur, step);
    const void *st = cr_replay_state(cur);
    cr_text_printf(b, "\"step\":%d,\"steps\":%d,\"players\":%d", step, n, g->num_players);
    int actor = step > 0 ? cr_match_actor(m, step - 1) : CR_TERMINAL;
    if (actor >= 0)
        cr_text_printf(b, ",\"actor\":%d", actor);
    else
        cr_text_puts(b, ",\"actor\":null");
    int to_act = g->def->current_player(g, st);
    if (to_act >= 0 && step < n)
        cr_text_printf(b, ",\"to_act\":%d", to_act);
    else
        cr_text_puts(b, ",\"to_act\":null");
    g->def->observe(g, st, seat, v->obs);
    VIEW_RENDER(v, g->def->obs_to_json(g, v->obs, buf, cap));
    cr_text_printf(b, ",\"observation\":%s", v->tmp.len ? v->tmp.p : "null");
    /* the events of action step-1, numbered from 0 in the log */
    const cr_match_event *ev = NULL;
    int ne = cr_match_events_since(m, 0, &ev);
    int end = (int)cr_replay_event_at(cur, step);
    annals_json(v, m, (uint32_t)end, b); /* the history up to this step */
    int first = step > 0 ? (int)cr_replay_event_at(cur, step - 1) : end;
    cr_text_puts(b, ",\"events\":[");
    for (int i = first; i < end; i++) {
        VIEW_RENDER(v, cr_match_event_json(m, &ev[i], seat, buf, cap));
        const char *j = cr_text_str(&v->tmp)[0] == '{' ? v->tmp.p : NULL;
        cr_text_printf(b, "%s{\"seq\":%u", i > first ? "," : "", ev[i].seq);
        if (j && j[1] != '}')
            cr_text_printf(b, ",%s", j + 1);
        else
            cr_text_puts(b, "}");
    }
    /* the event count after this step */
    cr_text_printf(b, "],\"seq\":%u", end < ne ? ev[end].seq : cr_match_event_count(m));
    /* the last step of a game ended by its rules: what each seat earned, as
     * in the update's result (docs/protocol.md) */
    if (step == n) cr_view_achievements_json(b, g, st);
}
