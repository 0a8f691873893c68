/* The PettingZoo environment's short way in C (kartentisch.interop.pettingzoo), shared by
 * _vecslob.c and _vecdoko.c: ``last()`` and a legal ``step()`` of an environment whose
 * deal plays on game 0 of this batch, with the bare environment's and, for ``env()``, the
 * wrappers' bookkeeping. The environment and the outer wrapper keep what a step touches in
 * the C fields of their bases (_envstate.h, kartentisch.interop._shortway);
 * TerminateIllegalWrapper's last observation is in its instance dict. Built only with
 * NumPy's headers (KT_NUMPY). The Python methods stay the reference: whatever is not the
 * common case (an agent that is done, an action that is not an exact int, not legal, out
 * of bounds, a mask that is not int8) is handed back to them untouched.
 *
 * Before including it, the game module defines Batch and:
 *   AEC_ACTIONS                      the number of action ids;
 *   int aec_seats(const Batch *)     the number of seats;
 *   Py_ssize_t aec_obs_size(const Batch *)   the observation's length;
 *   void aec_write(void *batch, int seat, float *obs, int8_t *mask)   game 0 as seen by seat;
 *   long aec_play(Batch *, long action)       play_one's code for game 0;
 *   double aec_reward(const Batch *, int seat)   the seat's reward of the last play. */
#ifndef KARTENTISCH_AEC_H
#define KARTENTISCH_AEC_H
#ifdef KT_NUMPY

#include "_envstate.h"

static PyObject *N_AGENT_SELECTION, *N_SEAT_OF, *N_CUMULATIVE, *N_TERMINATIONS, *N_TRUNCATIONS,
    *N_INFOS, *N_NO_REWARDS, *N_ACTIONS, *N_AGENTS, *N_POSSIBLE, *N_PREV_OBS, *N_PREV_INFO,
    *N_TERMINATED;

static int init_aec_names(void) {
    struct {
        PyObject **slot;
        const char *name;
    } names[] = {
        {&N_AGENT_SELECTION, "agent_selection"}, {&N_SEAT_OF, "_seat_of"},
        {&N_CUMULATIVE, "_cumulative_rewards"},  {&N_TERMINATIONS, "terminations"},
        {&N_TRUNCATIONS, "truncations"},         {&N_INFOS, "infos"},
        {&N_NO_REWARDS, "_no_rewards"},          {&N_ACTIONS, "_actions"},
        {&N_AGENTS, "agents"},                   {&N_POSSIBLE, "possible_agents"},
        {&N_PREV_OBS, "_prev_obs"},              {&N_PREV_INFO, "_prev_info"},
        {&N_TERMINATED, "_terminated"},
    };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (!(*names[k].slot = PyUnicode_InternFromString(names[k].name))) return -1;
    return 0;
}

/* The bases from kartentisch.interop._shortway, imported on first use. */
static PyTypeObject *ENV_BASE, *WRAPPER_BASE;

static int ensure_bases(void) {
    if (ENV_BASE) return 0;
    PyObject *m = PyImport_ImportModule("kartentisch.interop._shortway");
    if (!m) return -1;
    PyObject *env = PyObject_GetAttrString(m, "EnvBase");
    PyObject *wrapper = env ? PyObject_GetAttrString(m, "WrapperBase") : NULL;
    Py_DECREF(m);
    if (!wrapper || !PyType_Check(env) || !PyType_Check(wrapper)) {
        Py_XDECREF(env);
        Py_XDECREF(wrapper);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "_shortway's bases are not types");
        return -1;
    }
    ENV_BASE = (PyTypeObject *)env;
    WRAPPER_BASE = (PyTypeObject *)wrapper;
    return 0;
}

/* ``o`` as ``type``'s C fields, or NULL with a TypeError. */
static void *state_of(PyObject *o, PyTypeObject **type, const char *what) {
    if (ensure_bases() < 0) return NULL;
    if (!PyObject_TypeCheck(o, *type)) {
        PyErr_Format(PyExc_TypeError, "%s must be an instance of %s, not %T", what,
                     (*type)->tp_name, o);
        return NULL;
    }
    return o;
}

/* A field's value (borrowed): AttributeError(name) where it is not set. */
static PyObject *field(PyObject *value, PyObject *name) {
    if (!value) PyErr_SetObject(PyExc_AttributeError, name);
    return value;
}

/* A field set to a new reference of ``value``. */
static void set_field(PyObject **slot, PyObject *value) { Py_XSETREF(*slot, Py_NewRef(value)); }

/* An instance attribute, from the instance dict ``d`` (borrowed): AttributeError if absent. */
static PyObject *attr(PyObject *d, PyObject *name) {
    PyObject *v = PyDict_GetItemWithError(d, name);
    if (!v && !PyErr_Occurred()) PyErr_SetObject(PyExc_AttributeError, name);
    return v;
}

/* mapping[key] for a dict (borrowed): KeyError if absent. */
static PyObject *entry(PyObject *mapping, PyObject *key) {
    if (!PyDict_Check(mapping)) {
        PyErr_SetString(PyExc_TypeError, "the environment's bookkeeping must be dicts");
        return NULL;
    }
    PyObject *v = PyDict_GetItemWithError(mapping, key);
    if (!v && !PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, key);
    return v;
}

/* The field ``mapping`` (named ``name``) [agent] (borrowed). */
static PyObject *of_agent(PyObject *mapping, PyObject *name, PyObject *agent) {
    return field(mapping, name) ? entry(mapping, agent) : NULL;
}

static void write_game0(void *self, int seat, float *obs, int8_t *mask) {
    aec_write(self, seat, obs, mask);
}

/* aec_last(env, illegal) -> env.last(): (observation, reward, termination, truncation,
 * info) of the agent to act, the observation new arrays; with ``illegal`` (the wrapper
 * TerminateIllegalWrapper), its last observation and info noted as its observe() does. */
static PyObject *Batch_aec_last(Batch *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "aec_last(env, illegal) takes 2 arguments");
        return NULL;
    }
    EnvState *st = state_of(args[0], &ENV_BASE, "env");
    if (!st) return NULL;
    PyObject *agent = field(st->agent_selection, N_AGENT_SELECTION);
    PyObject *seat_o = agent ? of_agent(st->seat_of, N_SEAT_OF, agent) : NULL;
    long seat = seat_o ? PyLong_AsLong(seat_o) : -1;
    if (!seat_o || PyErr_Occurred()) return NULL;
    if (seat < 0 || seat >= aec_seats(self)) {
        PyErr_Format(PyExc_ValueError, "seat %ld is not a seat", seat);
        return NULL;
    }
    Py_INCREF(agent);
    PyObject *result = NULL;
    PyObject *obs = numpy_observation(&self->ring, self, (int)seat, aec_obs_size(self),
                                      AEC_ACTIONS, write_game0);
    if (!obs) goto done;
    PyObject *reward = of_agent(st->cumulative, N_CUMULATIVE, agent);
    PyObject *term = reward ? of_agent(st->terminations, N_TERMINATIONS, agent) : NULL;
    PyObject *trunc = term ? of_agent(st->truncations, N_TRUNCATIONS, agent) : NULL;
    PyObject *info = trunc ? of_agent(st->infos, N_INFOS, agent) : NULL;
    if (!info) goto done;
    result = PyTuple_Pack(5, obs, reward, term, trunc, info);
    if (result && args[1] != Py_None) {
        PyObject *id = PyObject_GenericGetDict(args[1], NULL);
        int bad = !id || PyDict_SetItem(id, N_PREV_OBS, obs) < 0 ||
                  PyDict_SetItem(id, N_PREV_INFO, info) < 0;
        Py_XDECREF(id);
        if (bad) Py_CLEAR(result);
    }
done:
    Py_XDECREF(obs);
    Py_DECREF(agent);
    return result;
}

/* mask[a] != 0 for a one-dimensional int8 array: 1 or 0; -1 where the mask is something
 * else (the wrappers judge it themselves); -2 with an error set. */
static int mask_allows(PyObject *mask, long a) {
    if (ensure_numpy() < 0) return -2;
    if (!PyArray_Check(mask)) return -1;
    PyArrayObject *m = (PyArrayObject *)mask;
    if (PyArray_NDIM(m) != 1 || PyArray_TYPE(m) != NPY_INT8 || a >= PyArray_DIM(m, 0)) return -1;
    return *(int8_t *)PyArray_GETPTR1(m, a) != 0;
}

/* Whether ``d`` is a copy of ``none`` (the same keys and value objects, in order) that no
 * one but the environment holds: then it serves as the step's fresh copy. */
static int unseen_copy(PyObject *d, PyObject *none) {
    if (!PyDict_CheckExact(d) || !PyDict_CheckExact(none) || Py_REFCNT(d) != 1 ||
        PyDict_GET_SIZE(d) != PyDict_GET_SIZE(none))
        return 0;
    Py_ssize_t i = 0, j = 0;
    PyObject *k1, *v1, *k2, *v2;
    while (PyDict_Next(none, &i, &k1, &v1)) {
        if (!PyDict_Next(d, &j, &k2, &v2) || k1 != k2 || v1 != v2) return 0;
    }
    return 1;
}

/* The bare environment's step of a legal action of the agent to act: 1 when played, 0
 * when game 0 refuses it (nothing changed), -1 with the error set. */
static int play_step(Batch *self, EnvState *st, PyObject *agent, PyObject *action, long a) {
    int n = aec_seats(self);
    PyObject *agents = field(st->agents, N_AGENTS);
    PyObject *cumulative = agents ? field(st->cumulative, N_CUMULATIVE) : NULL;
    PyObject *actions = cumulative ? field(st->actions, N_ACTIONS) : NULL;
    PyObject *none = actions ? field(st->no_rewards, N_NO_REWARDS) : NULL;
    PyObject *possible = none ? field(st->possible, N_POSSIBLE) : NULL;
    if (!possible) return -1;
    if (!PyList_CheckExact(agents) || PyList_GET_SIZE(agents) != n ||
        !PyDict_Check(cumulative) || !PyList_Check(actions) || !PyList_Check(possible))
        return 0; /* not as the environment made them: the Python way */
    long code = aec_play(self, a);
    if (code < 0) return 0;
    PyObject *zero = PyFloat_FromDouble(0.0);
    if (!zero) return -1;
    int bad = PyDict_SetItem(cumulative, agent, zero) < 0 || PyList_Append(actions, action) < 0;
    Py_DECREF(zero);
    if (bad) return -1;
    if (code < 256) {
        if (!st->rewards || !unseen_copy(st->rewards, none)) {
            PyObject *rewards = PyDict_Copy(none);
            if (!rewards) return -1;
            Py_XSETREF(st->rewards, rewards);
        } /* else the dict of zeros no one else holds: as good as a new copy */
    } else {
        code -= 256;
        PyObject *rewards = PyDict_New();
        for (int s = 0; rewards && s < n; s++) {
            PyObject *name = PyList_GET_ITEM(agents, s);
            PyObject *r = PyFloat_FromDouble(aec_reward(self, s));
            PyObject *before = r ? entry(cumulative, name) : NULL;
            PyObject *sum = before ? PyNumber_Add(before, r) : NULL;
            if (!sum || PyDict_SetItem(rewards, name, r) < 0 ||
                PyDict_SetItem(cumulative, name, sum) < 0)
                Py_CLEAR(rewards);
            Py_XDECREF(r);
            Py_XDECREF(sum);
        }
        if (!rewards) return -1;
        Py_XSETREF(st->rewards, rewards);
    }
    if (code == n) {
        PyObject *done = PyDict_New();
        for (int s = 0; done && s < n; s++)
            if (PyDict_SetItem(done, PyList_GET_ITEM(agents, s), Py_True) < 0) Py_CLEAR(done);
        if (!done) return -1;
        Py_XSETREF(st->terminations, done);
        return 1;
    }
    if (code >= PyList_GET_SIZE(possible)) {
        PyErr_SetString(PyExc_ValueError, "possible_agents must name every seat");
        return -1;
    }
    set_field(&st->agent_selection, PyList_GET_ITEM(possible, code));
    return 1;
}

/* aec_step(env, action, wrapper, illegal) -> 1 when the step was taken here; 0 when
 * nothing was done (the Python methods take the step); 2 (only with the wrappers) when the
 * wrappers' bookkeeping was done and the bare environment's step() must take the action.
 * With ``wrapper`` and ``illegal`` (OrderEnforcingWrapper and TerminateIllegalWrapper)
 * the action must be in bounds and legal by the mask last given to the agent to act, as
 * those wrappers judge it. */
static PyObject *Batch_aec_step(Batch *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "aec_step(env, action, wrapper, illegal) takes 4 arguments");
        return NULL;
    }
    PyObject *action = args[1];
    if (!PyLong_CheckExact(action)) return PyLong_FromLong(0);
    int overflow = 0;
    long a = PyLong_AsLongAndOverflow(action, &overflow);
    if (overflow) return PyLong_FromLong(0);
    if (a == -1 && PyErr_Occurred()) return NULL;
    EnvState *st = state_of(args[0], &ENV_BASE, "env");
    WrapperState *ws = NULL;
    if (!st || (args[2] != Py_None && !(ws = state_of(args[2], &WRAPPER_BASE, "wrapper"))))
        return NULL;
    PyObject *agent = field(st->agent_selection, N_AGENT_SELECTION);
    PyObject *term = agent ? of_agent(st->terminations, N_TERMINATIONS, agent) : NULL;
    PyObject *trunc = term ? of_agent(st->truncations, N_TRUNCATIONS, agent) : NULL;
    int dead = trunc ? PyObject_IsTrue(term) : -1;
    if (dead == 0) dead = PyObject_IsTrue(trunc);
    if (dead < 0) return NULL;
    if (dead) return PyLong_FromLong(0);
    Py_INCREF(agent);
    long result = -1;
    PyObject *id = NULL;
    if (ws) {
        /* As TerminateIllegalWrapper.step: a noted observation, not terminated, agents
         * left, the action in bounds (AssertOutOfBoundsWrapper) and legal by its mask. */
        id = PyObject_GenericGetDict(args[3], NULL);
        PyObject *prev = id ? attr(id, N_PREV_OBS) : NULL;
        PyObject *ended = prev ? attr(id, N_TERMINATED) : NULL;
        PyObject *agents = ended ? field(st->agents, N_AGENTS) : NULL;
        int stop = agents ? PyObject_IsTrue(ended) : -1;
        if (stop == 0) stop = !PyObject_IsTrue(agents);
        if (stop < 0 || PyErr_Occurred()) goto done;
        result = 0;
        if (stop || !PyDict_CheckExact(prev) || a < 0 || a >= AEC_ACTIONS) goto done;
        PyObject *mask = PyDict_GetItemWithError(prev, KEY_ACTION_MASK);
        int allowed = mask ? mask_allows(mask, a) : (PyErr_Occurred() ? -2 : -1);
        if (allowed == -2) {
            result = -1;
            goto done;
        }
        if (allowed <= 0) goto done;
        if (PyDict_SetItem(id, N_PREV_OBS, Py_None) < 0 ||
            PyDict_SetItem(id, N_PREV_INFO, Py_None) < 0) {
            result = -1;
            goto done;
        }
        set_field(&ws->has_updated, Py_True);
        result = 2;
    } else {
        result = 0;
    }
    int played = play_step(self, st, agent, action, a);
    if (played < 0)
        result = -1;
    else if (played)
        result = 1;
done:
    Py_XDECREF(id);
    Py_DECREF(agent);
    return result < 0 ? NULL : PyLong_FromLong(result);
}

#define AEC_METHODS                                                                          \
    {"aec_last", (PyCFunction)(void (*)(void))Batch_aec_last, METH_FASTCALL,                 \
     "The PettingZoo environment's last() on game 0."},                                      \
        {"aec_step", (PyCFunction)(void (*)(void))Batch_aec_step, METH_FASTCALL,             \
         "The PettingZoo environment's step() of a legal action on game 0."},

#else
#define AEC_METHODS
static int init_aec_names(void) { return 0; }
#endif
#endif
