/* _croupier.c — the CPython extension under the `croupier` Python package.
 *
 * A thin layer over the public C API (the headers of include/croupier/) and nothing
 * else: every rule, every text, every legality check comes from the engine.
 * Three types: Game (one table: a cr_game and a context), State (a flat
 * state blob of g->state_size bytes plus the actions applied to it, for
 * records) and Bot (a cr_bot for one seat).  The batched calls
 * (play_random, rollouts) copy what they need out of the Python objects,
 * release the GIL and run on their own POSIX threads, each with its state,
 * legal list and context allocated once: the per-action loop allocates
 * nothing.  Numbers come back as bytearrays that croupier/__init__.py
 * wraps in numpy arrays without copying (so this file needs no numpy).
 *
 * Errors: a wrong type raises TypeError; anything the engine refuses
 * raises croupier.Error (a ValueError) with the engine's message, and
 * leaves the state as it was.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <croupier/alloc.h>
#include <croupier/bot.h>
#include <croupier/game.h>
#include <croupier/parts.h>
#include <croupier/record.h>
#include <croupier/rng.h>

static PyObject *CrError; /* croupier.Error */

enum { ERR_CAP = 512, MAX_THREADS = 256 };

/* Puts a new reference into slot i of a new list; -1 (error set) when v is
 * NULL, so that no list ever holds a NULL. */
static int list_put(PyObject *l, Py_ssize_t i, PyObject *v)
{
    if (v == NULL) return -1;
    PyList_SET_ITEM(l, i, v);
    return 0;
}

/* ---- Game ---------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD cr_game *g;
    cr_ctx *cx;        /* for the calls made under the GIL */
    cr_action *legal;  /* g->max_legal entries */
    cr_action *out;    /* g->max_chance_outcomes entries */
    double *prob;      /* g->max_chance_outcomes entries */
    void *scratch_obs; /* g->obs_size bytes */
} GameObject;

typedef struct {
    PyObject_HEAD GameObject *game; /* strong reference */
    void *st;                       /* g->state_size bytes */
    cr_action *hist;                /* the actions applied since the initial state */
    Py_ssize_t n_hist, cap_hist;
    int rooted; /* hist leads from the initial state here (not a position, not a resample) */
} StateObject;

typedef struct {
    PyObject_HEAD GameObject *game;
    cr_bot *b;
    int busy; /* step() is searching without the GIL: another thread may not enter */
} BotObject;

static PyTypeObject GameType, StateType, BotType;

static void game_dealloc(GameObject *self)
{
    cr_free(self->legal);
    cr_free(self->out);
    cr_free(self->prob);
    cr_free(self->scratch_obs);
    cr_ctx_free(self->cx);
    cr_game_free(self->g);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Wraps g (taking ownership); NULL with a Python error set. */
static GameObject *game_wrap(cr_game *g)
{
    GameObject *self = PyObject_New(GameObject, &GameType);
    if (self == NULL) {
        cr_game_free(g);
        return NULL;
    }
    self->g = g;
    self->cx = cr_ctx_new(g);
    size_t nl = (size_t)(g->max_legal > 0 ? g->max_legal : 1);
    size_t nc = (size_t)(g->max_chance_outcomes > 0 ? g->max_chance_outcomes : 1);
    self->legal = cr_alloc(nl * sizeof(cr_action));
    self->out = cr_alloc(nc * sizeof(cr_action));
    self->prob = cr_alloc(nc * sizeof(double));
    self->scratch_obs = cr_alloc(g->obs_size ? g->obs_size : 1);
    if (!self->cx || !self->legal || !self->out || !self->prob || !self->scratch_obs) {
        Py_DECREF(self);
        PyErr_NoMemory();
        return NULL;
    }
    return self;
}

/* Converts one Python value to the option text the engine parses. */
static PyObject *option_text(PyObject *v)
{
    if (v == Py_True) return PyUnicode_FromString("true");
    if (v == Py_False) return PyUnicode_FromString("false");
    if (PyLong_Check(v) || PyUnicode_Check(v)) return PyObject_Str(v);
    PyErr_Format(PyExc_TypeError, "an option value must be str, int or bool, not %s",
                 Py_TYPE(v)->tp_name);
    return NULL;
}

/* load_game(name, params=None): params is a dict of "players", "variant"
 * and the game's options (croupier games lists them). */
static PyObject *mod_load_game(PyObject *mod, PyObject *args, PyObject *kw)
{
    (void)mod;
    static char *kwlist[] = {"name", "params", NULL};
    const char *name;
    PyObject *params = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s|O:load_game", kwlist, &name, &params))
        return NULL;
    if (params == Py_None) params = NULL;
    if (params != NULL && !PyDict_Check(params))
        return PyErr_Format(PyExc_TypeError, "params must be a dict, not %s",
                            Py_TYPE(params)->tp_name);
    const cr_game_def *def = cr_registry_find(name);
    if (def == NULL) return PyErr_Format(CrError, "unknown game '%s'", name);

    cr_params p;
    memset(&p, 0, sizeof p);
    PyObject *keep = PyList_New(0); /* keeps the borrowed option strings alive */
    if (keep == NULL) return NULL;
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    GameObject *res = NULL;
    while (params != NULL && PyDict_Next(params, &pos, &key, &value)) {
        if (!PyUnicode_Check(key)) {
            PyErr_SetString(PyExc_TypeError, "params keys must be str");
            goto out;
        }
        const char *k = PyUnicode_AsUTF8(key);
        if (k == NULL) goto out;
        if (strcmp(k, "players") == 0) {
            if (!PyLong_Check(value) || PyBool_Check(value)) {
                PyErr_SetString(PyExc_TypeError, "players must be an int");
                goto out;
            }
            long n = PyLong_AsLong(value);
            if (n == -1 && PyErr_Occurred()) goto out;
            if (n < 1 || n > CR_MAX_PLAYERS) {
                PyErr_Format(CrError, "players must be in 1..%d, not %ld", CR_MAX_PLAYERS, n);
                goto out;
            }
            p.num_players = (int)n;
            continue;
        }
        PyObject *text = option_text(value);
        if (text == NULL) goto out;
        int rc = PyList_Append(keep, text);
        Py_DECREF(text);
        if (rc < 0) goto out;
        const char *v = PyUnicode_AsUTF8(text);
        if (v == NULL) goto out;
        if (strcmp(k, "variant") == 0) {
            p.variant = v;
        } else if (cr_params_set(&p, k, v) != CR_OK) {
            PyErr_SetString(CrError, "too many options");
            goto out;
        }
    }
    char err[ERR_CAP] = "";
    cr_game *g = cr_game_new(def, &p, err, sizeof err);
    if (g == NULL) {
        PyErr_SetString(CrError, err);
        goto out;
    }
    res = game_wrap(g);
out:
    Py_DECREF(keep);
    return (PyObject *)res;
}

static PyObject *game_num_players(GameObject *self, PyObject *unused)
{
    (void)unused;
    return PyLong_FromLong(self->g->num_players);
}
static PyObject *game_num_distinct_actions(GameObject *self, PyObject *unused)
{
    (void)unused;
    return PyLong_FromLong(self->g->num_actions);
}
static PyObject *game_max_chance_outcomes(GameObject *self, PyObject *unused)
{
    (void)unused;
    return PyLong_FromLong(self->g->max_chance_outcomes);
}
static PyObject *game_max_legal_actions(GameObject *self, PyObject *unused)
{
    (void)unused;
    return PyLong_FromLong(self->g->max_legal);
}

/* The table's parameters: name, title, variant, players, options (text). */
static PyObject *game_params(GameObject *self, PyObject *unused)
{
    (void)unused;
    const cr_game *g = self->g;
    PyObject *opts = PyDict_New();
    if (opts == NULL) return NULL;
    for (int i = 0; i < g->def->n_options; i++) {
        char buf[CR_RECORD_OPT_MAX];
        cr_option_to_str(g, i, buf, sizeof buf);
        PyObject *v = PyUnicode_DecodeUTF8(buf, (Py_ssize_t)strlen(buf), "replace");
        if (v == NULL || PyDict_SetItemString(opts, g->def->options[i].key, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(opts);
            return NULL;
        }
        Py_DECREF(v);
    }
    return Py_BuildValue("{s:s,s:s,s:s,s:i,s:N}", "name", g->def->name, "title", g->def->title,
                         "variant", g->variant->name, "players", g->num_players, "options", opts);
}

static StateObject *state_new_for(GameObject *game)
{
    StateObject *s = PyObject_New(StateObject, &StateType);
    if (s == NULL) return NULL;
    Py_INCREF(game);
    s->game = game;
    s->hist = NULL;
    s->n_hist = s->cap_hist = 0;
    s->rooted = 1;
    s->st = cr_alloc(game->g->state_size);
    if (s->st == NULL) {
        Py_DECREF(s);
        return (StateObject *)PyErr_NoMemory();
    }
    return s;
}

static PyObject *game_new_initial_state(GameObject *self, PyObject *unused)
{
    (void)unused;
    StateObject *s = state_new_for(self);
    if (s == NULL) return NULL;
    self->g->def->init(self->g, s->st);
    return (PyObject *)s;
}

/* deserialize_state(text): a position (docs/positions.md) of this game. */
static PyObject *game_deserialize_state(GameObject *self, PyObject *arg)
{
    Py_ssize_t len;
    const char *text = PyUnicode_Check(arg) ? PyUnicode_AsUTF8AndSize(arg, &len) : NULL;
    if (text == NULL) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a position must be str");
        return NULL;
    }
    StateObject *s = state_new_for(self);
    if (s == NULL) return NULL;
    char err[ERR_CAP] = "";
    if (self->g->def->deserialize(self->g, s->st, text, (size_t)len, err, sizeof err) != CR_OK) {
        Py_DECREF(s);
        return PyErr_Format(CrError, "%s", err[0] ? err : "not a position of this game");
    }
    const cr_game_parts *parts = cr_parts(self->g);
    if (parts->check_invariants && parts->check_invariants(self->g, s->st, err, sizeof err)) {
        Py_DECREF(s);
        return PyErr_Format(CrError, "%s", err);
    }
    s->rooted = 0; /* a position: no actions lead here */
    return (PyObject *)s;
}

/* The size of the game's observation tensor; croupier.Error without one. */
static Py_ssize_t tensor_size(const cr_game *g)
{
    const cr_game_parts *parts = cr_parts(g);
    if (parts->obs_tensor == NULL) {
        PyErr_Format(CrError, "%s has no observation tensor", g->def->name);
        return -1;
    }
    return (Py_ssize_t)parts->obs_tensor(g, NULL, NULL, 0);
}

static PyObject *game_observation_tensor_size(GameObject *self, PyObject *unused)
{
    (void)unused;
    Py_ssize_t n = tensor_size(self->g);
    return n < 0 ? NULL : PyLong_FromSsize_t(n);
}

static PyObject *game_observation_tensor_shape(GameObject *self, PyObject *unused)
{
    (void)unused;
    Py_ssize_t n = tensor_size(self->g);
    return n < 0 ? NULL : Py_BuildValue("[n]", n);
}

static PyObject *game_repr(GameObject *self)
{
    return PyUnicode_FromFormat("<croupier.Game %s variant=%s players=%d>", self->g->def->name,
                                self->g->variant->name, self->g->num_players);
}

static PyMethodDef game_methods[] = {
    {"num_players", (PyCFunction)game_num_players, METH_NOARGS, "Seats at this table."},
    {"num_distinct_actions", (PyCFunction)game_num_distinct_actions, METH_NOARGS,
     "Action ids are in [0, num_distinct_actions())."},
    {"max_chance_outcomes", (PyCFunction)game_max_chance_outcomes, METH_NOARGS,
     "The most outcomes one chance node has."},
    {"max_legal_actions", (PyCFunction)game_max_legal_actions, METH_NOARGS,
     "The most legal actions one decision has."},
    {"params", (PyCFunction)game_params, METH_NOARGS,
     "The table: name, title, variant, players and every option's value as text."},
    {"new_initial_state", (PyCFunction)game_new_initial_state, METH_NOARGS,
     "A new game at its first decision or chance node."},
    {"observation_tensor_size", (PyCFunction)game_observation_tensor_size, METH_NOARGS,
     "The length of State.observation_tensor (croupier.Error: the game has none)."},
    {"observation_tensor_shape", (PyCFunction)game_observation_tensor_shape, METH_NOARGS,
     "[observation_tensor_size()]."},
    {"deserialize_state", (PyCFunction)game_deserialize_state, METH_O,
     "The state a position text (State.serialize()) describes."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject GameType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "croupier._croupier.Game",
    .tp_basicsize = sizeof(GameObject),
    .tp_dealloc = (destructor)game_dealloc,
    .tp_repr = (reprfunc)game_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One table of a game (croupier.load_game).",
    .tp_methods = game_methods,
};

/* ---- State --------------------------------------------------------------- */

static void state_dealloc(StateObject *self)
{
    cr_free(self->st);
    cr_free(self->hist);
    Py_XDECREF(self->game);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Room for one more action in the history; -1 when out of memory. */
static int hist_reserve(StateObject *s)
{
    if (s->n_hist == s->cap_hist) {
        Py_ssize_t cap = s->cap_hist ? 2 * s->cap_hist : 256;
        cr_action *h = cr_realloc(s->hist, (size_t)cap * sizeof *h);
        if (h == NULL) return -1;
        s->hist = h;
        s->cap_hist = cap;
    }
    return 0;
}

static int hist_push(StateObject *s, cr_action a)
{
    if (hist_reserve(s) < 0) return -1;
    s->hist[s->n_hist++] = a;
    return 0;
}

/* Reads a seat argument: a seat 0..n-1, PUBLIC_VIEW or OMNISCIENT_VIEW. */
static int seat_arg(const cr_game *g, PyObject *arg, int allow_views, int *out)
{
    if (!PyLong_Check(arg) || PyBool_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "a seat must be an int, not %s", Py_TYPE(arg)->tp_name);
        return -1;
    }
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(arg, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow) {
        PyErr_Format(CrError, "no seat %S", arg);
        return -1;
    }
    if ((v >= 0 && v < g->num_players) ||
        (allow_views && (v == CR_SEAT_PUBLIC || v == CR_SEAT_OMNISCIENT))) {
        *out = (int)v;
        return 0;
    }
    PyErr_Format(CrError, "no seat %ld", v);
    return -1;
}

/* Reads an action id argument (range-checked, not legality-checked). */
static int action_arg(const cr_game *g, PyObject *arg, cr_action *out)
{
    if (!PyLong_Check(arg) || PyBool_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "an action must be an int, not %s", Py_TYPE(arg)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(arg, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < 0 || v >= g->num_actions) {
        PyErr_Format(CrError, "no action %S in this game (ids are 0..%d)", arg, g->num_actions - 1);
        return -1;
    }
    *out = (cr_action)v;
    return 0;
}

static PyObject *state_current_player(StateObject *self, PyObject *unused)
{
    (void)unused;
    return PyLong_FromLong(cr_current_player(self->game->g, self->st));
}
static PyObject *state_is_terminal(StateObject *self, PyObject *unused)
{
    (void)unused;
    return PyBool_FromLong(cr_is_terminal(self->game->g, self->st));
}
static PyObject *state_is_chance_node(StateObject *self, PyObject *unused)
{
    (void)unused;
    return PyBool_FromLong(cr_current_player(self->game->g, self->st) == CR_CHANCE);
}

static PyObject *action_list(const cr_action *a, int n)
{
    PyObject *l = PyList_New(n);
    if (l == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(a[i]);
        if (v == NULL) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, v);
    }
    return l;
}

/* legal_actions(player=None): the legal actions of the seat to act,
 * ascending; [] for another seat, at chance nodes and at the end
 * (OpenSpiel's meaning; chance_outcomes() lists a chance node's). */
static PyObject *state_legal_actions(StateObject *self, PyObject *args)
{
    PyObject *player = Py_None;
    if (!PyArg_ParseTuple(args, "|O:legal_actions", &player)) return NULL;
    GameObject *G = self->game;
    int who = cr_current_player(G->g, self->st);
    if (player != Py_None) {
        int seat;
        if (seat_arg(G->g, player, 0, &seat) < 0) return NULL;
        if (seat != who) return PyList_New(0);
    }
    if (who < 0) return PyList_New(0);
    int n = G->g->def->legal_actions(G->g, self->st, G->legal, G->cx);
    return action_list(G->legal, n);
}

/* legal_actions_mask(player=None): num_distinct_actions() ints, 1 where
 * legal_actions(player) holds the action. */
static PyObject *state_legal_actions_mask(StateObject *self, PyObject *args)
{
    PyObject *legal = state_legal_actions(self, args);
    if (legal == NULL) return NULL;
    const cr_game *g = self->game->g;
    PyObject *mask = PyList_New(g->num_actions);
    if (mask == NULL) {
        Py_DECREF(legal);
        return NULL;
    }
    PyObject *zero = PyLong_FromLong(0), *one = PyLong_FromLong(1); /* cached: never NULL */
    for (Py_ssize_t i = 0; i < g->num_actions; i++) PyList_SET_ITEM(mask, i, Py_NewRef(zero));
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(legal); i++) {
        long a = PyLong_AsLong(PyList_GET_ITEM(legal, i));
        if (PyList_SetItem(mask, a, Py_NewRef(one)) < 0) break; /* a < num_actions */
    }
    Py_DECREF(zero);
    Py_DECREF(one);
    Py_DECREF(legal);
    return mask;
}

/* chance_outcomes(): [(action, probability), ...] at a chance node, else []. */
static PyObject *state_chance_outcomes(StateObject *self, PyObject *unused)
{
    (void)unused;
    GameObject *G = self->game;
    if (cr_current_player(G->g, self->st) != CR_CHANCE) return PyList_New(0);
    int n = G->g->def->chance_outcomes(G->g, self->st, G->out, G->prob);
    PyObject *l = PyList_New(n);
    if (l == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *t = Py_BuildValue("(id)", (int)G->out[i], G->prob[i]);
        if (t == NULL) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, t);
    }
    return l;
}

/* apply_action(action): a legal action of the seat to act or a chance
 * outcome; anything else raises croupier.Error and changes nothing. */
static PyObject *state_apply_action(StateObject *self, PyObject *arg)
{
    GameObject *G = self->game;
    const cr_game *g = G->g;
    cr_action a;
    if (action_arg(g, arg, &a) < 0) return NULL;
    int who = cr_current_player(g, self->st);
    if (who == CR_TERMINAL) return PyErr_Format(CrError, "the game is over");
    if (hist_reserve(self) < 0) return PyErr_NoMemory();
    if (cr_apply_checked(g, self->st, a, G->cx) != CR_OK) {
        char prompt[200] = "";
        if (who >= 0 && g->def->prompt) g->def->prompt(g, self->st, prompt, sizeof prompt);
        return PyErr_Format(CrError, "action %d is not legal now%s%s%s", (int)a,
                            who == CR_CHANCE ? " (a chance outcome is expected)"
                            : prompt[0]      ? " ("
                                             : "",
                            who != CR_CHANCE && prompt[0] ? prompt : "",
                            who != CR_CHANCE && prompt[0] ? ")" : "");
    }
    self->hist[self->n_hist++] = a; /* room was made above */
    Py_RETURN_NONE;
}

/* Renders with an snprintf-style function into a Python str. */
typedef size_t (*render_fn)(const void *ctx, char *buf, size_t cap);

static PyObject *render_str(render_fn fn, const void *ctx)
{
    char stackbuf[4096];
    size_t n = fn(ctx, stackbuf, sizeof stackbuf);
    if (n < sizeof stackbuf) return PyUnicode_DecodeUTF8(stackbuf, (Py_ssize_t)n, "replace");
    char *buf = PyMem_Malloc(n + 1);
    if (buf == NULL) return PyErr_NoMemory();
    size_t m = fn(ctx, buf, n + 1);
    PyObject *res = PyUnicode_DecodeUTF8(buf, (Py_ssize_t)(m <= n ? m : n), "replace");
    PyMem_Free(buf);
    return res;
}

typedef struct {
    const cr_game *g;
    const void *p; /* a state or an observation */
    cr_action a;
} render_ctx;

static size_t r_action(const void *c, char *buf, size_t cap)
{
    const render_ctx *r = c;
    return r->g->def->action_to_str(r->g, r->p, r->a, buf, cap);
}
static size_t r_obs_text(const void *c, char *buf, size_t cap)
{
    const render_ctx *r = c;
    return r->g->def->obs_to_text(r->g, r->p, buf, cap);
}
static size_t r_obs_json(const void *c, char *buf, size_t cap)
{
    const render_ctx *r = c;
    return r->g->def->obs_to_json(r->g, r->p, buf, cap);
}
static size_t r_serialize(const void *c, char *buf, size_t cap)
{
    const render_ctx *r = c;
    return r->g->def->serialize(r->g, r->p, buf, cap);
}
static size_t r_prompt(const void *c, char *buf, size_t cap)
{
    const render_ctx *r = c;
    if (r->g->def->prompt == NULL) return cap ? (buf[0] = '\0', 0) : 0;
    return r->g->def->prompt(r->g, r->p, buf, cap);
}

/* Whether a player argument is CHANCE_PLAYER_ID (without raising). */
static int is_chance_arg(PyObject *p)
{
    if (!PyLong_Check(p) || PyBool_Check(p)) return 0;
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(p, &overflow);
    if (v == -1 && PyErr_Occurred()) PyErr_Clear();
    return !overflow && v == CR_CHANCE;
}

/* action_to_string(action) or action_to_string(player, action): the
 * action's notation in this state (the player argument is accepted for
 * OpenSpiel's signature; the text depends on the state only). */
static PyObject *state_action_to_string(StateObject *self, PyObject *args)
{
    PyObject *p1 = NULL, *p2 = NULL;
    if (!PyArg_ParseTuple(args, "O|O:action_to_string", &p1, &p2)) return NULL;
    const cr_game *g = self->game->g;
    PyObject *act = p2 ? p2 : p1;
    if (p2) {
        int seat;
        if (p1 != Py_None && !is_chance_arg(p1) && seat_arg(g, p1, 0, &seat) < 0) return NULL;
    }
    render_ctx r = {g, self->st, 0};
    if (action_arg(g, act, &r.a) < 0) return NULL;
    return render_str(r_action, &r);
}

/* string_to_action(text) or string_to_action(player, text): the id of the
 * legal action (or chance outcome) the notation names; croupier.Error with
 * the engine's message when it names none. */
static PyObject *state_string_to_action(StateObject *self, PyObject *args)
{
    PyObject *p1 = NULL, *p2 = NULL;
    if (!PyArg_ParseTuple(args, "O|O:string_to_action", &p1, &p2)) return NULL;
    GameObject *G = self->game;
    const cr_game *g = G->g;
    PyObject *text_obj = p2 ? p2 : p1;
    if (!PyUnicode_Check(text_obj))
        return PyErr_Format(PyExc_TypeError, "an action's text must be str, not %s",
                            Py_TYPE(text_obj)->tp_name);
    Py_ssize_t len;
    const char *text = PyUnicode_AsUTF8AndSize(text_obj, &len);
    if (text == NULL) return NULL;
    if ((Py_ssize_t)strlen(text) != len) return PyErr_Format(CrError, "NUL byte in action text");
    char err[ERR_CAP] = "";
    cr_action a;
    int who = cr_current_player(g, self->st);
    int seat = who;
    if (p2 && p1 != Py_None && !is_chance_arg(p1) && seat_arg(g, p1, 0, &seat) < 0) return NULL;
    if (seat >= 0) {
        /* A seat's text: refused before parsing when it is not to act. */
        if (cr_seat_parse(g, self->st, seat, text, &a, G->cx, err, sizeof err) != CR_OK)
            return PyErr_Format(CrError, "%s", err);
        return PyLong_FromLong(a);
    }
    if (who == CR_TERMINAL) return PyErr_Format(CrError, "the game is over");
    /* A chance outcome: the engine's parse and message through
     * cr_apply_text on a scratch copy, then the id from the game. */
    void *tmp = cr_alloc(g->state_size);
    if (tmp == NULL) return PyErr_NoMemory();
    memcpy(tmp, self->st, g->state_size);
    cr_status rc = cr_apply_text(g, tmp, text, G->cx, err, sizeof err);
    cr_free(tmp);
    if (rc != CR_OK) return PyErr_Format(CrError, "%s", err);
    char buf[256];
    while (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r') text++;
    size_t n = strlen(text);
    while (n > 0 && strchr(" \t\n\r", text[n - 1])) n--;
    if (n >= sizeof buf) return PyErr_Format(CrError, "action text too long");
    memcpy(buf, text, n);
    buf[n] = '\0';
    if (g->def->str_to_action(g, self->st, buf, &a) != CR_OK)
        return PyErr_Format(CrError, "unknown action '%s'", buf);
    return PyLong_FromLong(a);
}

/* The observation of seat (or a view) into the game's scratch blob. */
static void observe(StateObject *self, int seat)
{
    const cr_game *g = self->game->g;
    g->def->observe(g, self->st, seat, self->game->scratch_obs);
}

static PyObject *state_observation_string(StateObject *self, PyObject *arg)
{
    int seat;
    if (seat_arg(self->game->g, arg, 1, &seat) < 0) return NULL;
    observe(self, seat);
    render_ctx r = {self->game->g, self->game->scratch_obs, 0};
    return render_str(r_obs_text, &r);
}

static PyObject *state_observation_json(StateObject *self, PyObject *arg)
{
    int seat;
    if (seat_arg(self->game->g, arg, 1, &seat) < 0) return NULL;
    observe(self, seat);
    render_ctx r = {self->game->g, self->game->scratch_obs, 0};
    return render_str(r_obs_json, &r);
}

/* observation_tensor(seat): the game's tensor of the seat's observation
 * (cr_game_parts.obs_tensor), a numpy float32 array. */
static PyObject *state_observation_tensor(StateObject *self, PyObject *arg)
{
    const cr_game *g = self->game->g;
    int seat;
    if (seat_arg(g, arg, 1, &seat) < 0) return NULL;
    Py_ssize_t n = tensor_size(g);
    if (n < 0) return NULL;
    PyObject *numpy = PyImport_ImportModule("numpy");
    if (numpy == NULL) return NULL;
    PyObject *buf = PyByteArray_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(float));
    PyObject *res = NULL;
    if (buf != NULL) {
        observe(self, seat);
        cr_parts(g)->obs_tensor(g, self->game->scratch_obs,
                                (float *)(void *)PyByteArray_AS_STRING(buf), (size_t)n);
        res = PyObject_CallMethod(numpy, "frombuffer", "Os", buf, "float32");
    }
    Py_XDECREF(buf);
    Py_DECREF(numpy);
    return res;
}

/* resample_from_infostate(player, seed=0): a full state drawn from what
 * the seat knows (the game's determinization, g->def->sample): the seat's
 * observation of it equals its observation of this state.  Its history
 * is empty (it has no record). */
static PyObject *state_resample_from_infostate(StateObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"player", "seed", NULL};
    PyObject *player;
    unsigned long long seed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|K:resample_from_infostate", kwlist, &player,
                                     &seed))
        return NULL;
    GameObject *G = self->game;
    const cr_game *g = G->g;
    int seat;
    if (seat_arg(g, player, 0, &seat) < 0) return NULL;
    if (g->def->sample == NULL) return PyErr_Format(CrError, "%s has no sampler", g->def->name);
    StateObject *r = state_new_for(G);
    if (r == NULL) return NULL;
    observe(self, seat);
    cr_rng rng;
    cr_rng_seed(&rng, (uint64_t)seed, 0);
    if (g->def->sample(g, G->scratch_obs, &rng, r->st, G->cx) != CR_OK) {
        Py_DECREF(r);
        return PyErr_Format(CrError, "no state is consistent with P%d's observation", seat);
    }
    r->rooted = 0;
    return (PyObject *)r;
}

static PyObject *state_serialize(StateObject *self, PyObject *unused)
{
    (void)unused;
    render_ctx r = {self->game->g, self->st, 0};
    return render_str(r_serialize, &r);
}

static PyObject *state_prompt(StateObject *self, PyObject *unused)
{
    (void)unused;
    render_ctx r = {self->game->g, self->st, 0};
    return render_str(r_prompt, &r);
}

static PyObject *state_str(StateObject *self)
{
    observe(self, CR_SEAT_OMNISCIENT);
    render_ctx r = {self->game->g, self->game->scratch_obs, 0};
    return render_str(r_obs_text, &r);
}

/* returns(): each seat's utility (1 to a sole winner, 1/k to k shared
 * winners, 0 else) at a terminal state; zeros before (OpenSpiel's meaning
 * for a game with terminal rewards only). */
static PyObject *state_returns(StateObject *self, PyObject *unused)
{
    (void)unused;
    const cr_game *g = self->game->g;
    double r[CR_MAX_PLAYERS] = {0};
    if (cr_is_terminal(g, self->st)) g->def->returns(g, self->st, r);
    PyObject *l = PyList_New(g->num_players);
    if (l == NULL) return NULL;
    for (int i = 0; i < g->num_players; i++) {
        PyObject *v = PyFloat_FromDouble(r[i]);
        if (v == NULL) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, v);
    }
    return l;
}

/* player_return(player): returns()[player]. */
static PyObject *state_player_return(StateObject *self, PyObject *arg)
{
    const cr_game *g = self->game->g;
    int seat;
    if (seat_arg(g, arg, 0, &seat) < 0) return NULL;
    double r[CR_MAX_PLAYERS] = {0};
    if (cr_is_terminal(g, self->st)) g->def->returns(g, self->st, r);
    return PyFloat_FromDouble(r[seat]);
}

/* result(): {"scores": [...], "ranks": [...] (terminal only), "winners": [...]}. */
static PyObject *state_result(StateObject *self, PyObject *unused)
{
    (void)unused;
    const cr_game *g = self->game->g;
    cr_result res;
    memset(&res, 0, sizeof res);
    g->def->result(g, self->st, &res);
    int term = cr_is_terminal(g, self->st);
    PyObject *scores = PyList_New(g->num_players), *ranks = PyList_New(0), *winners = PyList_New(0);
    if (!scores || !ranks || !winners) goto fail;
    for (int i = 0; i < g->num_players; i++) {
        if (list_put(scores, i, PyLong_FromLong(res.score[i])) < 0) goto fail;
        if (term) {
            PyObject *v = PyLong_FromLong(res.rank[i]);
            if (v == NULL || PyList_Append(ranks, v) < 0) {
                Py_XDECREF(v);
                goto fail;
            }
            Py_DECREF(v);
            if (res.winners & (1u << i)) {
                v = PyLong_FromLong(i);
                if (v == NULL || PyList_Append(winners, v) < 0) {
                    Py_XDECREF(v);
                    goto fail;
                }
                Py_DECREF(v);
            }
        }
    }
    return Py_BuildValue("{s:N,s:N,s:N}", "scores", scores, "ranks", ranks, "winners", winners);
fail:
    Py_XDECREF(scores);
    Py_XDECREF(ranks);
    Py_XDECREF(winners);
    return NULL;
}

static PyObject *state_clone(StateObject *self, PyObject *unused)
{
    (void)unused;
    StateObject *c = state_new_for(self->game);
    if (c == NULL) return NULL;
    memcpy(c->st, self->st, self->game->g->state_size);
    c->rooted = self->rooted;
    if (self->n_hist) {
        c->hist = cr_alloc((size_t)self->n_hist * sizeof *c->hist);
        if (c->hist == NULL) {
            Py_DECREF(c);
            return PyErr_NoMemory();
        }
        memcpy(c->hist, self->hist, (size_t)self->n_hist * sizeof *c->hist);
        c->n_hist = c->cap_hist = self->n_hist;
    }
    return (PyObject *)c;
}

static PyObject *state_history(StateObject *self, PyObject *unused)
{
    (void)unused;
    return action_list(self->hist, (int)self->n_hist);
}

static PyObject *state_move_number(StateObject *self, PyObject *unused)
{
    (void)unused;
    return PyLong_FromSsize_t(self->n_hist);
}

static PyObject *state_get_game(StateObject *self, PyObject *unused)
{
    (void)unused;
    Py_INCREF(self->game);
    return (PyObject *)self->game;
}

/* to_record(seats=None, seed=None): the game record (docs/records.md) of
 * the actions applied since the initial state.  Only a state that grew
 * from new_initial_state() or load_record() has one. */
static PyObject *state_to_record(StateObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"seats", "seed", NULL};
    PyObject *seats = Py_None, *seed = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OO:to_record", kwlist, &seats, &seed)) return NULL;
    const cr_game *g = self->game->g;
    if (!self->rooted)
        return PyErr_Format(CrError, "this state has no record: it was made from a position or "
                                     "drawn from an observation (serialize() gives it)");
    cr_record r;
    cr_record_init(&r);
    cr_record_set_game(&r, g);
    PyObject *res = NULL;
    char *text = NULL;
    size_t len = 0;
    if (seed != Py_None) {
        unsigned long long s = PyLong_AsUnsignedLongLong(seed);
        if (s == (unsigned long long)-1 && PyErr_Occurred()) goto out;
        r.seed = s;
        r.has_seed = 1;
    }
    if (seats != Py_None) {
        PyObject *seq = PySequence_Fast(seats, "seats must be a list of str");
        if (seq == NULL) goto out;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
        if (n != g->num_players) {
            Py_DECREF(seq);
            PyErr_Format(CrError, "seats: %zd given for %d players", n, g->num_players);
            goto out;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *it = PySequence_Fast_GET_ITEM(seq, i);
            const char *s = PyUnicode_Check(it) ? PyUnicode_AsUTF8(it) : NULL;
            if (s == NULL || strlen(s) >= CR_RECORD_SPEC_MAX || strchr(s, '\n')) {
                Py_DECREF(seq);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "bad seat spec");
                goto out;
            }
            strcpy(r.seats[i], s);
        }
        r.n_seats = (int)n;
        Py_DECREF(seq);
    }
    for (Py_ssize_t i = 0; i < self->n_hist; i++)
        if (cr_record_push(&r, self->hist[i]) != CR_OK) {
            PyErr_NoMemory();
            goto out;
        }
    FILE *f = open_memstream(&text, &len);
    if (f == NULL) {
        PyErr_NoMemory();
        goto out;
    }
    char err[ERR_CAP] = "";
    cr_status rc = cr_record_write(&r, f, err, sizeof err);
    if (fclose(f) != 0 && rc == CR_OK) rc = CR_ERR_IO;
    if (rc != CR_OK)
        PyErr_Format(CrError, "%s", err[0] ? err : "cannot write the record");
    else
        res = PyUnicode_DecodeUTF8(text, (Py_ssize_t)len, "replace");
out:
    free(text);
    cr_record_fini(&r);
    return res;
}

static PyObject *state_repr(StateObject *self)
{
    return PyUnicode_FromFormat("<croupier.State %s move %zd, to act: %d>",
                                self->game->g->def->name, self->n_hist,
                                cr_current_player(self->game->g, self->st));
}

static PyMethodDef state_methods[] = {
    {"current_player", (PyCFunction)state_current_player, METH_NOARGS,
     "The seat to act, CHANCE_PLAYER_ID or TERMINAL_PLAYER_ID."},
    {"is_terminal", (PyCFunction)state_is_terminal, METH_NOARGS, "Whether the game is over."},
    {"is_chance_node", (PyCFunction)state_is_chance_node, METH_NOARGS, "Whether chance acts next."},
    {"legal_actions", (PyCFunction)state_legal_actions, METH_VARARGS,
     "legal_actions(player=None): the legal actions of the seat to act, ascending."},
    {"legal_actions_mask", (PyCFunction)state_legal_actions_mask, METH_VARARGS,
     "legal_actions_mask(player=None): 1 for each legal action id, 0 for the others."},
    {"chance_outcomes", (PyCFunction)state_chance_outcomes, METH_NOARGS,
     "[(outcome, probability)] at a chance node, else []."},
    {"apply_action", (PyCFunction)state_apply_action, METH_O,
     "Applies a legal action or chance outcome; croupier.Error otherwise."},
    {"action_to_string", (PyCFunction)state_action_to_string, METH_VARARGS,
     "action_to_string([player,] action): the action's notation in this state."},
    {"string_to_action", (PyCFunction)state_string_to_action, METH_VARARGS,
     "string_to_action([player,] text): the id of the legal action the notation names."},
    {"observation_string", (PyCFunction)state_observation_string, METH_O,
     "What a seat (or PUBLIC_VIEW, OMNISCIENT_VIEW) knows, as text."},
    {"observation_json", (PyCFunction)state_observation_json, METH_O,
     "What a seat (or PUBLIC_VIEW, OMNISCIENT_VIEW) knows, as JSON text (docs/clients.md)."},
    {"observation_tensor", (PyCFunction)state_observation_tensor, METH_O,
     "What a seat knows as a numpy float32 vector (layout: docs/clients.md)."},
    {"resample_from_infostate", (PyCFunction)(void (*)(void))state_resample_from_infostate,
     METH_VARARGS | METH_KEYWORDS,
     "resample_from_infostate(player, seed=0): a state drawn from what the seat knows."},
    {"serialize", (PyCFunction)state_serialize, METH_NOARGS,
     "The whole state as a position (docs/positions.md)."},
    {"prompt", (PyCFunction)state_prompt, METH_NOARGS,
     "The decision the seat to act faces, in words."},
    {"returns", (PyCFunction)state_returns, METH_NOARGS,
     "Each seat's utility at the end (zeros before)."},
    {"player_return", (PyCFunction)state_player_return, METH_O, "returns()[player]."},
    {"result", (PyCFunction)state_result, METH_NOARGS,
     "The game's scores, and at the end the ranks and the winners."},
    {"clone", (PyCFunction)state_clone, METH_NOARGS, "An independent copy."},
    {"history", (PyCFunction)state_history, METH_NOARGS,
     "The actions applied since the initial state, chance outcomes included."},
    {"move_number", (PyCFunction)state_move_number, METH_NOARGS, "len(history())."},
    {"get_game", (PyCFunction)state_get_game, METH_NOARGS, "The state's Game."},
    {"to_record", (PyCFunction)(void (*)(void))state_to_record, METH_VARARGS | METH_KEYWORDS,
     "to_record(seats=None, seed=None): the game record text (docs/records.md)."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject StateType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "croupier._croupier.State",
    .tp_basicsize = sizeof(StateObject),
    .tp_dealloc = (destructor)state_dealloc,
    .tp_repr = (reprfunc)state_repr,
    .tp_str = (reprfunc)state_str,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A game state (Game.new_initial_state).",
    .tp_methods = state_methods,
};

/* load_record(text): (the record's state, its seats, its seed or None). */
static PyObject *mod_load_record(PyObject *mod, PyObject *arg)
{
    (void)mod;
    Py_ssize_t len;
    const char *text = PyUnicode_Check(arg) ? PyUnicode_AsUTF8AndSize(arg, &len) : NULL;
    if (text == NULL) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a record must be str");
        return NULL;
    }
    if ((Py_ssize_t)strlen(text) != len) return PyErr_Format(CrError, "NUL byte in the record");
    cr_record r;
    cr_record_init(&r);
    cr_game *g = NULL;
    void *st = NULL;
    char err[ERR_CAP] = "";
    if (cr_record_load(text, (size_t)len, NULL, &r, &g, &st, err, sizeof err) != CR_OK) {
        cr_record_fini(&r);
        return PyErr_Format(CrError, "%s", err);
    }
    PyObject *res = NULL;
    GameObject *G = game_wrap(g); /* owns g now */
    StateObject *s = G ? PyObject_New(StateObject, &StateType) : NULL;
    if (s == NULL) {
        cr_free(st);
        Py_XDECREF(G);
        cr_record_fini(&r);
        return NULL;
    }
    s->game = G; /* the new reference */
    s->st = st;
    s->hist = NULL;
    s->n_hist = s->cap_hist = 0;
    s->rooted = 1;
    for (int i = 0; i < r.n_actions; i++)
        if (hist_push(s, r.actions[i]) < 0) {
            PyErr_NoMemory();
            goto out;
        }
    PyObject *seats = PyList_New(r.n_seats);
    if (seats == NULL) goto out;
    for (int i = 0; i < r.n_seats; i++)
        if (list_put(seats, i,
                     PyUnicode_DecodeUTF8(r.seats[i], (Py_ssize_t)strlen(r.seats[i]), "replace")) <
            0) {
            Py_DECREF(seats);
            goto out;
        }
    PyObject *seed = r.has_seed ? PyLong_FromUnsignedLongLong(r.seed) : Py_NewRef(Py_None);
    res = Py_BuildValue("(ONN)", s, seats, seed);
out:
    Py_DECREF(s);
    cr_record_fini(&r);
    return res;
}

/* ---- Bot ----------------------------------------------------------------- */

static void bot_dealloc(BotObject *self)
{
    cr_bot_free(self->b);
    Py_XDECREF(self->game);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* make_bot(game, spec, seat, seed=0): the bot of bot.h's spec for a seat. */
static PyObject *mod_make_bot(PyObject *mod, PyObject *args, PyObject *kw)
{
    (void)mod;
    static char *kwlist[] = {"game", "spec", "seat", "seed", NULL};
    GameObject *game;
    const char *spec;
    PyObject *seat_obj;
    unsigned long long seed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!sO|K:make_bot", kwlist, &GameType, &game, &spec,
                                     &seat_obj, &seed))
        return NULL;
    int seat;
    if (seat_arg(game->g, seat_obj, 0, &seat) < 0) return NULL;
    char err[ERR_CAP] = "";
    cr_bot *b = cr_bot_new(game->g, spec, seat, (uint64_t)seed, err, sizeof err);
    if (b == NULL) return PyErr_Format(CrError, "%s", err);
    BotObject *self = PyObject_New(BotObject, &BotType);
    if (self == NULL) {
        cr_bot_free(b);
        return NULL;
    }
    Py_INCREF(game);
    self->game = game;
    self->b = b;
    self->busy = 0;
    return (PyObject *)self;
}

/* step(state): the bot's choice for its seat, from the seat's observation
 * only (the bot is never handed the true state).  Does not apply it. */
static PyObject *bot_step(BotObject *self, PyObject *arg)
{
    if (!PyObject_TypeCheck(arg, &StateType))
        return PyErr_Format(PyExc_TypeError, "step() takes a croupier State, not %s",
                            Py_TYPE(arg)->tp_name);
    StateObject *s = (StateObject *)arg;
    if (s->game->g != self->game->g)
        return PyErr_Format(CrError, "the state is not of the bot's game");
    if (self->busy) return PyErr_Format(CrError, "the bot is already choosing (another thread)");
    GameObject *G = self->game;
    const cr_game *g = G->g;
    int seat = cr_bot_seat(self->b);
    char err[ERR_CAP] = "";
    if (cr_seat_may_act(g, s->st, seat, err, sizeof err) != CR_OK)
        return PyErr_Format(CrError, "%s", err);
    int n = g->def->legal_actions(g, s->st, G->legal, G->cx);
    const void *obs = NULL;
    if (cr_bot_wants_obs(self->b)) {
        g->def->observe(g, s->st, seat, G->scratch_obs);
        obs = G->scratch_obs;
    }
    cr_action a;
    /* A search may think for a while: other Python threads run meanwhile.
     * The game's buffers are only touched under the GIL, so the bot gets
     * private copies of the legal list and the observation. */
    cr_action *legal = cr_alloc((size_t)n * sizeof *legal);
    void *obs_copy = obs ? cr_alloc(g->obs_size) : NULL;
    if (legal == NULL || (obs && obs_copy == NULL)) {
        cr_free(legal);
        cr_free(obs_copy);
        return PyErr_NoMemory();
    }
    memcpy(legal, G->legal, (size_t)n * sizeof *legal);
    if (obs) memcpy(obs_copy, obs, g->obs_size);
    self->busy = 1;
    PyThreadState *ts = PyEval_SaveThread();
    a = cr_bot_act(self->b, obs_copy, legal, n);
    PyEval_RestoreThread(ts);
    self->busy = 0;
    cr_free(legal);
    cr_free(obs_copy);
    return PyLong_FromLong(a);
}

static PyObject *bot_seat(BotObject *self, PyObject *unused)
{
    (void)unused;
    return PyLong_FromLong(cr_bot_seat(self->b));
}
static PyObject *bot_spec(BotObject *self, PyObject *unused)
{
    (void)unused;
    return PyUnicode_FromString(cr_bot_spec(self->b));
}
static PyObject *bot_kind(BotObject *self, PyObject *unused)
{
    (void)unused;
    return PyUnicode_FromString(cr_bot_kind(self->b));
}
static PyObject *bot_reseed(BotObject *self, PyObject *arg)
{
    unsigned long long seed = PyLong_AsUnsignedLongLong(arg);
    if (seed == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    if (self->busy) return PyErr_Format(CrError, "the bot is already choosing (another thread)");
    cr_bot_reseed(self->b, (uint64_t)seed);
    Py_RETURN_NONE;
}

static PyMethodDef bot_methods[] = {
    {"step", (PyCFunction)bot_step, METH_O,
     "step(state): the bot's action for its seat (not applied)."},
    {"seat", (PyCFunction)bot_seat, METH_NOARGS, "The seat the bot plays."},
    {"spec", (PyCFunction)bot_spec, METH_NOARGS, "The spec it was made from."},
    {"kind", (PyCFunction)bot_kind, METH_NOARGS, "random, heuristic or ismcts."},
    {"reseed", (PyCFunction)bot_reseed, METH_O,
     "reseed(seed): restarts the bot's generator as make_bot(..., seed) would."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject BotType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "croupier._croupier.Bot",
    .tp_basicsize = sizeof(BotObject),
    .tp_dealloc = (destructor)bot_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A bot playing one seat (croupier.make_bot).",
    .tp_methods = bot_methods,
};

/* ---- The registry -------------------------------------------------------- */

static const char *option_type_name(cr_option_type t)
{
    switch (t) {
    case CR_OPT_INT: return "int";
    case CR_OPT_BOOL: return "bool";
    case CR_OPT_CHOICE: return "choice";
    case CR_OPT_SEAT: return "seat";
    case CR_OPT_FILE: return "file";
    }
    return "?";
}

static PyObject *game_info(const cr_game_def *d)
{
    PyObject *variants = PyList_New(d->n_variants), *options = PyList_New(d->n_options);
    if (!variants || !options) goto fail;
    for (int i = 0; i < d->n_variants; i++) {
        const cr_variant *v = &d->variants[i];
        PyObject *o = Py_BuildValue("{s:s,s:s,s:i,s:i}", "name", v->name, "summary", v->summary,
                                    "min_players", v->min_players, "max_players", v->max_players);
        if (o == NULL) goto fail;
        PyList_SET_ITEM(variants, i, o);
    }
    for (int i = 0; i < d->n_options; i++) {
        const cr_option_def *o = &d->options[i];
        PyObject *choices;
        if (o->type == CR_OPT_CHOICE && o->choices) {
            choices = PyList_New(o->max + 1);
            if (choices == NULL) goto fail;
            for (int k = 0; k <= o->max; k++)
                if (list_put(choices, k, PyUnicode_FromString(o->choices[k])) < 0) {
                    Py_DECREF(choices);
                    goto fail;
                }
        } else {
            choices = Py_NewRef(Py_None);
        }
        PyObject *x = Py_BuildValue("{s:s,s:s,s:i,s:i,s:i,s:N,s:s}", "key", o->key, "type",
                                    option_type_name(o->type), "min", (int)o->min, "max",
                                    (int)o->max, "default", (int)o->def, "choices", choices, "help",
                                    o->help ? o->help : "");
        if (x == NULL) goto fail;
        PyList_SET_ITEM(options, i, x);
    }
    return Py_BuildValue("{s:s,s:s,s:i,s:N,s:N}", "name", d->name, "title", d->title,
                         "rules_version", d->rules_version, "variants", variants, "options",
                         options);
fail:
    Py_XDECREF(variants);
    Py_XDECREF(options);
    return NULL;
}

static PyObject *mod_registered_games(PyObject *mod, PyObject *unused)
{
    (void)mod;
    (void)unused;
    int n = cr_registry_count();
    PyObject *l = PyList_New(n);
    if (l == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *o = game_info(cr_registry_get(i));
        if (o == NULL) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, o);
    }
    return l;
}

/* ---- Batches: random games and rollouts, off the GIL ---------------------- */

typedef struct batch_job {
    const cr_game *g;
    uint64_t seed;
    int threads, index; /* this job takes items index, index+threads, ... */
    long items;
    /* play_random: item i is game i, seeded (seed, i).
     * rollouts: item i is state i (starts + i * state_size), n_rollouts
     * games from it seeded (seed, i). */
    const unsigned char *starts;
    long n_rollouts;
    double *returns;  /* items x num_players */
    int64_t *actions; /* play_random: apply calls per game */
    int failed;
} batch_job;

/* Plays st to the end with the uniform policy (withdraw actions skipped),
 * drawing chance with rng; returns the number of apply calls. */
static int64_t play_out(const cr_game *g, void *st, cr_action *legal, cr_rng *rng, cr_ctx *cx)
{
    int64_t n_act = 0;
    for (;;) {
        int p = g->def->current_player(g, st);
        if (p == CR_TERMINAL) break;
        cr_action a;
        if (p == CR_CHANCE) {
            a = cr_sample_chance(g, st, rng);
        } else {
            int n = g->def->legal_actions(g, st, legal, cx);
            a = cr_policy_random(g, st, p, legal, n, rng);
        }
        g->def->apply(g, st, a, cx);
        n_act++;
    }
    return n_act;
}

static void *batch_main(void *arg)
{
    batch_job *j = arg;
    const cr_game *g = j->g;
    int np = g->num_players;
    void *st = cr_alloc(g->state_size);
    cr_action *legal = cr_alloc((size_t)g->max_legal * sizeof *legal);
    cr_ctx *cx = cr_ctx_new(g);
    if (!st || !legal || !cx) {
        j->failed = 1;
        goto out;
    }
    double r[CR_MAX_PLAYERS];
    for (long i = j->index; i < j->items; i += j->threads) {
        cr_rng rng;
        cr_rng_seed(&rng, j->seed, (uint64_t)i);
        double *acc = &j->returns[i * np];
        if (j->starts == NULL) {
            g->def->init(g, st);
            cr_for_search(g, st);
            j->actions[i] = play_out(g, st, legal, &rng, cx);
            g->def->returns(g, st, acc);
            continue;
        }
        for (int s = 0; s < np; s++) acc[s] = 0;
        for (long k = 0; k < j->n_rollouts; k++) {
            memcpy(st, j->starts + (size_t)i * g->state_size, g->state_size);
            cr_for_search(g, st);
            play_out(g, st, legal, &rng, cx);
            g->def->returns(g, st, r);
            for (int s = 0; s < np; s++) acc[s] += r[s];
        }
        for (int s = 0; s < np; s++) acc[s] /= (double)j->n_rollouts;
    }
out:
    cr_free(st);
    cr_free(legal);
    cr_ctx_free(cx);
    return NULL;
}

/* Runs the jobs on `threads` threads (the caller's one of them), without
 * the GIL.  0, or -1 when a thread could not get its memory. */
static int run_batch(batch_job *proto, int threads)
{
    batch_job jobs[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    int started[MAX_THREADS] = {0};
    int failed = 0;
    PyThreadState *ts = PyEval_SaveThread(); /* from here on, no Python object is touched */
    for (int t = 0; t < threads; t++) {
        jobs[t] = *proto;
        jobs[t].threads = threads;
        jobs[t].index = t;
    }
    for (int t = 1; t < threads; t++)
        started[t] = pthread_create(&tid[t], NULL, batch_main, &jobs[t]) == 0;
    batch_main(&jobs[0]);
    for (int t = 1; t < threads; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        else /* no thread: this one plays its share */
            batch_main(&jobs[t]);
    }
    for (int t = 0; t < threads; t++) failed |= jobs[t].failed;
    PyEval_RestoreThread(ts);
    return failed ? -1 : 0;
}

static int threads_arg(long threads)
{
    if (threads < 1 || threads > MAX_THREADS) {
        PyErr_Format(CrError, "threads must be in 1..%d, not %ld", MAX_THREADS, threads);
        return -1;
    }
    return 0;
}

/* _play_random(game, n, seed, threads) -> (returns bytes, actions bytes). */
static PyObject *mod_play_random(PyObject *mod, PyObject *args)
{
    (void)mod;
    GameObject *game;
    long n, threads;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "O!lKl:play_random", &GameType, &game, &n, &seed, &threads))
        return NULL;
    if (n < 0) return PyErr_Format(CrError, "n must be >= 0, not %ld", n);
    if (threads_arg(threads) < 0) return NULL;
    int np = game->g->num_players;
    PyObject *ret = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)n * np * 8);
    PyObject *act = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)n * 8);
    if (ret == NULL || act == NULL) goto fail;
    batch_job proto = {.g = game->g,
                       .seed = (uint64_t)seed,
                       .items = n,
                       .returns = (double *)(void *)PyByteArray_AS_STRING(ret),
                       .actions = (int64_t *)(void *)PyByteArray_AS_STRING(act)};
    if (run_batch(&proto, threads) < 0) {
        PyErr_NoMemory();
        goto fail;
    }
    return Py_BuildValue("(NN)", ret, act);
fail:
    Py_XDECREF(ret);
    Py_XDECREF(act);
    return NULL;
}

/* _rollouts(states, n, seed, threads) -> mean returns bytes (len x players). */
static PyObject *mod_rollouts(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *states;
    long n, threads;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OlKl:rollouts", &states, &n, &seed, &threads)) return NULL;
    if (n < 1) return PyErr_Format(CrError, "n must be >= 1, not %ld", n);
    if (threads_arg(threads) < 0) return NULL;
    PyObject *seq = PySequence_Fast(states, "rollouts() takes a list of States");
    if (seq == NULL) return NULL;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    PyObject *ret = NULL;
    unsigned char *starts = NULL;
    const cr_game *g = NULL;
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *it = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyObject_TypeCheck(it, &StateType)) {
            PyErr_Format(PyExc_TypeError, "rollouts() takes States, not %s", Py_TYPE(it)->tp_name);
            goto out;
        }
        const cr_game *gi = ((StateObject *)it)->game->g;
        if (g != NULL && gi != g) {
            PyErr_SetString(CrError, "rollouts(): the states are of different games");
            goto out;
        }
        g = gi;
    }
    if (k == 0) {
        ret = PyByteArray_FromStringAndSize(NULL, 0);
        goto out;
    }
    starts = cr_alloc((size_t)k * g->state_size);
    ret = PyByteArray_FromStringAndSize(NULL, k * g->num_players * 8);
    if (starts == NULL || ret == NULL) {
        Py_CLEAR(ret);
        PyErr_NoMemory();
        goto out;
    }
    for (Py_ssize_t i = 0; i < k; i++)
        memcpy(starts + (size_t)i * g->state_size,
               ((StateObject *)PySequence_Fast_GET_ITEM(seq, i))->st, g->state_size);
    batch_job proto = {.g = g,
                       .seed = (uint64_t)seed,
                       .items = (long)k,
                       .starts = starts,
                       .n_rollouts = n,
                       .returns = (double *)(void *)PyByteArray_AS_STRING(ret)};
    if (run_batch(&proto, threads) < 0) {
        Py_CLEAR(ret);
        PyErr_NoMemory();
    }
out:
    cr_free(starts);
    Py_DECREF(seq);
    return ret;
}

/* alloc_count(): the library's allocation counter (alloc.h), for tests. */
static PyObject *mod_alloc_count(PyObject *mod, PyObject *unused)
{
    (void)mod;
    (void)unused;
    return PyLong_FromUnsignedLongLong(cr_alloc_count());
}

static PyMethodDef mod_methods[] = {
    {"registered_games", mod_registered_games, METH_NOARGS,
     "Every game: name, title, rules_version, variants, options."},
    {"load_game", (PyCFunction)(void (*)(void))mod_load_game, METH_VARARGS | METH_KEYWORDS,
     "load_game(name, params=None): a table; params: players, variant, options."},
    {"make_bot", (PyCFunction)(void (*)(void))mod_make_bot, METH_VARARGS | METH_KEYWORDS,
     "make_bot(game, spec, seat, seed=0): random, heuristic, ismcts:... (docs/bots.md)."},
    {"load_record", mod_load_record, METH_O,
     "load_record(text): (state, seats, seed) of a game record (docs/records.md)."},
    {"_play_random", mod_play_random, METH_VARARGS, "See croupier.play_random."},
    {"_rollouts", mod_rollouts, METH_VARARGS, "See croupier.rollouts."},
    {"alloc_count", mod_alloc_count, METH_NOARGS, "The engine's allocation counter."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moddef = {
    PyModuleDef_HEAD_INIT, .m_name = "_croupier",    .m_doc = "The C core of the croupier package.",
    .m_size = -1,          .m_methods = mod_methods,
};

PyMODINIT_FUNC PyInit__croupier(void);
PyMODINIT_FUNC PyInit__croupier(void)
{
    if (PyType_Ready(&GameType) < 0 || PyType_Ready(&StateType) < 0 || PyType_Ready(&BotType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&moddef);
    if (m == NULL) return NULL;
    CrError = PyErr_NewExceptionWithDoc(
        "croupier.Error", "The engine refused: its message says why.", PyExc_ValueError, NULL);
    if (CrError == NULL || PyModule_AddObjectRef(m, "Error", CrError) < 0 ||
        PyModule_AddObjectRef(m, "Game", (PyObject *)&GameType) < 0 ||
        PyModule_AddObjectRef(m, "State", (PyObject *)&StateType) < 0 ||
        PyModule_AddObjectRef(m, "Bot", (PyObject *)&BotType) < 0 ||
        PyModule_AddIntConstant(m, "CHANCE_PLAYER_ID", CR_CHANCE) < 0 ||
        PyModule_AddIntConstant(m, "TERMINAL_PLAYER_ID", CR_TERMINAL) < 0 ||
        PyModule_AddIntConstant(m, "PUBLIC_VIEW", CR_SEAT_PUBLIC) < 0 ||
        PyModule_AddIntConstant(m, "OMNISCIENT_VIEW", CR_SEAT_OMNISCIENT) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
