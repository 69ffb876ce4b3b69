/* replay_text.c — a recorded game in the line mode's words
 * (replay_text.h), read off a replay cursor: the record's marks and seats,
 * the match's event log, the game's notation and obs_to_text. */
#include "replay_text.h"

#include <string.h>

#include "cli_util.h"
#include "croupier/alloc.h"

static void add_mark(const cr_mark *k, cr_text *out)
{
    switch (k->kind) {
    case CR_MARK_RESIGN: cr_text_printf(out, "      -- P%d resigns\n", k->seat); break;
    case CR_MARK_TIMEOUT: cr_text_printf(out, "      -- P%d runs out of time\n", k->seat); break;
    case CR_MARK_SEAT: {
        char spec[2 * CR_RECORD_SPEC_MAX];
        cli_escape(k->spec, strlen(k->spec), spec, sizeof spec); /* a record's text */
        cr_text_printf(out, "      -- P%d is now played by %s\n", k->seat, spec);
        break;
    }
    case CR_MARK_END: cr_text_printf(out, "      -- the match ends here\n"); break;
    }
}

/* The spec seated at `seat` when move i was made (the header's, then the
 * `! seat` marks before it). */
static const char *spec_at(const cr_record *r, int seat, int i)
{
    const char *spec = r->n_seats > seat ? r->seats[seat] : "human";
    for (int j = 0; j < r->n_marks && r->marks[j].at <= i; j++)
        if (r->marks[j].kind == CR_MARK_SEAT && r->marks[j].seat == seat) spec = r->marks[j].spec;
    return spec;
}

void cli_replay_move(cr_replay *rp, int view, cr_text *out)
{
    int at = cr_replay_at(rp);
    if (at == 0) return;
    int i = at - 1;
    const cr_match *m = cr_replay_match(rp);
    const cr_game *g = cr_match_game(m);
    const cr_record *r = cr_match_record(m);
    for (int j = 0; j < r->n_marks; j++)
        if (r->marks[j].at == i) add_mark(&r->marks[j], out);
    int who = cr_match_actor(m, i);
    /* The notation of the move: in the open view, and for the seat's own decisions. */
    char text[256] = "";
    if (view == CR_SEAT_OMNISCIENT || (who >= 0 && who == view))
        g->def->action_to_str(g, cr_replay_state_before(rp), r->actions[i], text, sizeof text);
    uint32_t from = cr_replay_event_at(rp, i), to = cr_replay_event_at(rp, i + 1);
    char esc[2 * CR_RECORD_SPEC_MAX];
    if (who == CR_CHANCE) {
        cr_text_printf(out, "%4d. chance%s%s\n", i + 1, text[0] ? ": " : "", text);
    } else {
        const char *spec = spec_at(r, who, i);
        cli_escape(spec, strlen(spec), esc, sizeof esc);
        /* a decision hidden from this view that reported nothing yet (a
         * step of a choice built one step at a time) says so */
        const char *hidden = text[0] || from < to ? "" : ": a step this view does not see";
        cr_text_printf(out, "%4d. P%d (%s)%s%s%s\n", i + 1, who, esc, text[0] ? ": " : "", text,
                       hidden);
    }
    /* Its events, one per line, as the view may know them. */
    if (from < to) {
        const cr_match_event *ev;
        cr_match_events_since(m, from, &ev);
        cr_text b = {0};
        for (uint32_t e = 0; e < to - from; e++) {
            const char *s = cli_event_text(g, &ev[e].ev, view, &b);
            if (s[0]) cr_text_printf(out, "        %s\n", s);
        }
        cr_text_free(&b);
    }
}

void cli_replay_tail_marks(const cr_replay *rp, cr_text *out)
{
    const cr_record *r = cr_match_record(cr_replay_match(rp));
    int n = cr_replay_steps(rp);
    if (cr_replay_at(rp) != n) return;
    for (int j = 0; j < r->n_marks; j++)
        if (r->marks[j].at == n) add_mark(&r->marks[j], out);
}

void cli_replay_position(const cr_replay *rp, int view, cr_text *out)
{
    const cr_game *g = cr_match_game(cr_replay_match(rp));
    if (g->def->obs_to_text == NULL) return;
    void *obs = cr_alloc(g->obs_size ? g->obs_size : 1);
    if (obs == NULL) {
        out->oom = 1;
        return;
    }
    g->def->observe(g, cr_replay_state(rp), view, obs);
    cr_text b = {0};
    const char *s = cli_obs_text(g, obs, &b);
    cr_text_add(out, s, strlen(s));
    if (s[0] && s[strlen(s) - 1] != '\n') cr_text_add(out, "\n", 1);
    cr_text_free(&b);
    cr_free(obs);
}
