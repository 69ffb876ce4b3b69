/* stepper.c — a cursor over a recorded game (stepper.h).
 *
 * The match loaded from the record holds the whole event log, each event
 * tagged with the move that produced it, and who made each move; the
 * cursor keeps its own copy of the state after moves [0, at) (and the one
 * before the last of them, for that move's notation), rebuilt with the
 * core's checked apply.  Invariant: st is the state after the first `at`
 * moves of the record; prev the state after at-1 of them. */
#include "stepper.h"

#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "croupier/alloc.h"

cr_status cli_stepper_init(cli_stepper *sp, const cr_match *m, int view)
{
    memset(sp, 0, sizeof *sp);
    sp->m = m;
    sp->g = cr_match_game(m);
    sp->view = view;
    const cr_record *r = cr_match_record(m);
    sp->n = r->n_actions;
    sp->st = cr_alloc(sp->g->state_size);
    sp->prev = cr_alloc(sp->g->state_size);
    sp->obs = cr_alloc(sp->g->obs_size ? sp->g->obs_size : 1);
    sp->cx = cr_ctx_new(sp->g);
    sp->ev_start = cr_alloc((size_t)(sp->n + 1) * sizeof *sp->ev_start);
    if (!sp->st || !sp->prev || !sp->obs || !sp->cx || !sp->ev_start) {
        cli_stepper_fini(sp);
        return CR_ERR_NOMEM;
    }
    const cr_match_event *ev;
    uint32_t total = cr_match_event_count(m);
    int k = cr_match_events_since(m, 0, &ev), e = 0;
    for (int i = 0; i <= sp->n; i++) {
        while (e < k && ev[e].action_index < i) e++;
        sp->ev_start[i] = i == sp->n ? total : (uint32_t)e;
    }
    sp->g->def->init(sp->g, sp->st);
    sp->at = 0;
    return CR_OK;
}

void cli_stepper_fini(cli_stepper *sp)
{
    cr_free(sp->st);
    cr_free(sp->prev);
    cr_free(sp->obs);
    cr_ctx_free(sp->cx);
    cr_free(sp->ev_start);
    memset(sp, 0, sizeof *sp);
}

void cli_stepper_goto(cli_stepper *sp, int k)
{
    const cr_game *g = sp->g;
    const cr_record *r = cr_match_record(sp->m);
    if (k < 0) k = 0;
    if (k > sp->n) k = sp->n;
    if (k < sp->at) { /* backwards: from the start */
        g->def->init(g, sp->st);
        sp->at = 0;
    }
    while (sp->at < k) {
        memcpy(sp->prev, sp->st, g->state_size);
        /* the record was checked when it was loaded; checked again all the same */
        if (cr_apply_checked(g, sp->st, r->actions[sp->at], sp->cx) != CR_OK) break;
        sp->at++;
    }
}

static void add_mark(const cli_stepper *sp, const cr_mark *k, cr_text *out)
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
    (void)sp;
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

void cli_stepper_move(const cli_stepper *sp, cr_text *out)
{
    if (sp->at == 0) return;
    int i = sp->at - 1;
    const cr_game *g = sp->g;
    const cr_record *r = cr_match_record(sp->m);
    for (int j = 0; j < r->n_marks; j++)
        if (r->marks[j].at == i) add_mark(sp, &r->marks[j], out);
    int who = cr_match_actor(sp->m, i);
    /* The notation of the move: in the open view, and for the seat's own decisions. */
    char text[256] = "";
    if (sp->view == CR_SEAT_OMNISCIENT || (who >= 0 && who == sp->view))
        g->def->action_to_str(g, sp->prev, r->actions[i], text, sizeof text);
    char esc[2 * CR_RECORD_SPEC_MAX];
    if (who == CR_CHANCE) {
        cr_text_printf(out, "%4d. chance%s%s\n", i + 1, text[0] ? ": " : "", text);
    } else {
        const char *spec = spec_at(r, who, i);
        cli_escape(spec, strlen(spec), esc, sizeof esc);
        /* a decision hidden from this view that reported nothing yet (a
         * step of a choice built one step at a time) says so */
        const char *hidden = text[0] || sp->ev_start[i] < sp->ev_start[i + 1]
                                 ? ""
                                 : ": a step this view does not see";
        cr_text_printf(out, "%4d. P%d (%s)%s%s%s\n", i + 1, who, esc, text[0] ? ": " : "", text,
                       hidden);
    }
    /* Its events, one per line, as the view may know them. */
    uint32_t from = sp->ev_start[i], to = sp->ev_start[i + 1];
    if (from < to) {
        const cr_match_event *ev;
        cr_match_events_since(sp->m, from, &ev);
        cr_text b = {0};
        for (uint32_t e = 0; e < to - from; e++) {
            const char *s = cli_event_text(g, &ev[e].ev, sp->view, &b);
            if (s[0]) cr_text_printf(out, "        %s\n", s);
        }
        cr_text_free(&b);
    }
}

void cli_stepper_tail_marks(const cli_stepper *sp, cr_text *out)
{
    const cr_record *r = cr_match_record(sp->m);
    if (sp->at != sp->n) return;
    for (int j = 0; j < r->n_marks; j++)
        if (r->marks[j].at == sp->n) add_mark(sp, &r->marks[j], out);
}

void cli_stepper_position(cli_stepper *sp, cr_text *out)
{
    const cr_game *g = sp->g;
    if (g->def->obs_to_text == NULL) return;
    g->def->observe(g, sp->st, sp->view, sp->obs);
    cr_text b = {0};
    const char *s = cli_obs_text(g, sp->obs, &b);
    cr_text_add(out, s, strlen(s));
    if (s[0] && s[strlen(s) - 1] != '\n') cr_text_add(out, "\n", 1);
    cr_text_free(&b);
}
