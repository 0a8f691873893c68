/* Bases of the PettingZoo environment and of env()'s outer wrapper
 * (kartentisch.interop.pettingzoo). They keep the attributes a step reads and writes in C
 * fields (_envstate.h; Python sees ordinary attributes), and their ``last`` and ``step``
 * take the compiled game's short way (the batch's aec_last and aec_step, _aec.h) without a
 * Python frame between the caller and C.
 *
 * Everything else is handed to the class's Python methods ``_last_python`` and
 * ``_step_python``, the reference: a deal not on the compiled game, an agent that is done,
 * an action that is not an exact legal int, a subclass that overrides what the short way
 * inlines (the environment's ``_short`` is then None). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <structmember.h>

#include "_envstate.h"

static PyObject *N_AEC_LAST, *N_AEC_STEP, *N_LAST_PYTHON, *N_STEP_PYTHON, *N_STEP, *N_OBSERVE,
    *N_ACTION;

/* The one argument ``name`` of a method, given by position or by keyword (borrowed):
 * 1 given, 0 not given, -1 with the error set. */
static int one_arg(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, PyObject *name,
                   const char *method, PyObject **out) {
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (nargs + nkw > 1 ||
        (nkw == 1 && PyUnicode_Compare(PyTuple_GET_ITEM(kwnames, 0), name) != 0)) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError, "%s() takes one argument, %U", method, name);
        return -1;
    }
    if (nargs + nkw == 0) return 0;
    *out = args[0];
    return 1;
}

/* ``observe`` of last(observe=True): 1, 0, or -1 with the error set. */
static int observe_arg(PyObject *const *args, size_t nargsf, PyObject *kwnames, PyObject **out) {
    *out = Py_True;
    if (one_arg(args, PyVectorcall_NARGS(nargsf), kwnames, N_OBSERVE, "last", out) < 0) return -1;
    return PyObject_IsTrue(*out);
}

/* ``action`` of step(action): 0, or -1 with the error set. */
static int action_arg(PyObject *const *args, size_t nargsf, PyObject *kwnames, PyObject **out) {
    int given = one_arg(args, PyVectorcall_NARGS(nargsf), kwnames, N_ACTION, "step", out);
    if (given == 0) PyErr_SetString(PyExc_TypeError, "step() missing its argument, action");
    return given == 1 ? 0 : -1;
}

/* receiver.name(*args) for 1 to 4 arguments, through a vectorcall with a free slot in front. */
static PyObject *call_method(PyObject *name, PyObject *receiver, int n, PyObject *a, PyObject *b,
                             PyObject *c, PyObject *e) {
    PyObject *slots[6] = {NULL, receiver, a, b, c, e};
    return PyObject_VectorcallMethod(name, slots + 1,
                                     (size_t)(n + 1) | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
}

/* The environment's batch when its deal takes the short way (a new reference), else NULL. */
static PyObject *short_batch(PyObject *env) {
    PyObject *batch = ((EnvState *)env)->short_way;
    if (!batch || batch == Py_None || batch == Py_False) return NULL;
    return Py_NewRef(batch);
}

/* -- the environment ------------------------------------------------------------------ */

static PyObject *Env_last(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    PyObject *observe;
    int want = observe_arg(args, nargsf, kwnames, &observe);
    if (want < 0) return NULL;
    PyObject *batch = want ? short_batch(self) : NULL;
    if (!batch) return call_method(N_LAST_PYTHON, self, 1, observe, NULL, NULL, NULL);
    PyObject *out = call_method(N_AEC_LAST, batch, 2, self, Py_None, NULL, NULL);
    Py_DECREF(batch);
    return out;
}

static PyObject *Env_step(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    PyObject *action;
    if (action_arg(args, nargsf, kwnames, &action) < 0) return NULL;
    PyObject *batch = short_batch(self);
    if (batch) {
        PyObject *taken = call_method(N_AEC_STEP, batch, 4, self, action, Py_None, Py_None);
        Py_DECREF(batch);
        if (!taken) return NULL;
        int done = PyObject_IsTrue(taken);
        Py_DECREF(taken);
        if (done < 0) return NULL;
        if (done) Py_RETURN_NONE;
    }
    return call_method(N_STEP_PYTHON, self, 1, action, NULL, NULL, NULL);
}

static int Env_traverse(EnvState *self, visitproc visit, void *arg) {
#define VISIT(name, field) Py_VISIT(self->field);
    ENV_FIELDS(VISIT)
#undef VISIT
    return 0;
}

static int Env_clear(EnvState *self) {
#define CLEAR(name, field) Py_CLEAR(self->field);
    ENV_FIELDS(CLEAR)
#undef CLEAR
    return 0;
}

static void Env_dealloc(EnvState *self) {
    PyObject_GC_UnTrack(self);
    Env_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef Env_methods[] = {
    {"last", (PyCFunction)(void (*)(void))Env_last, METH_FASTCALL | METH_KEYWORDS,
     "AECEnv.last(): the agent to act's observation, reward, termination, truncation, info."},
    {"step", (PyCFunction)(void (*)(void))Env_step, METH_FASTCALL | METH_KEYWORDS,
     "AECEnv.step(action): the agent to act acts."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef Env_members[] = {
#define MEMBER(name, field) {name, T_OBJECT_EX, offsetof(EnvState, field), 0, NULL},
    ENV_FIELDS(MEMBER)
#undef MEMBER
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject EnvBaseType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "kartentisch.interop._shortway.EnvBase",
    .tp_basicsize = sizeof(EnvState),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "last() and step() of the PettingZoo environment, the compiled game's short way.",
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)Env_dealloc,
    .tp_traverse = (traverseproc)Env_traverse,
    .tp_clear = (inquiry)Env_clear,
    .tp_methods = Env_methods,
    .tp_members = Env_members,
};

/* -- the outer wrapper ---------------------------------------------------------------- */

/* The wrapper's bare environment, TerminateIllegalWrapper and batch (new references) where
 * the short way may be taken (after a reset, on a short-way deal): 1, else 0. */
static int wrapped(PyObject *self, PyObject **bare, PyObject **illegal, PyObject **batch) {
    WrapperState *w = (WrapperState *)self;
    if (!w->bare || !w->illegal || w->illegal == Py_None || w->has_reset != Py_True) return 0;
    if (!PyObject_TypeCheck(w->bare, &EnvBaseType)) return 0;
    *batch = short_batch(w->bare);
    if (!*batch) return 0;
    *bare = Py_NewRef(w->bare);
    *illegal = Py_NewRef(w->illegal);
    return 1;
}

static PyObject *Wrapper_last(PyObject *self, PyObject *const *args, size_t nargsf,
                              PyObject *kwnames) {
    PyObject *observe, *bare, *illegal, *batch;
    int want = observe_arg(args, nargsf, kwnames, &observe);
    if (want < 0) return NULL;
    if (!want || !wrapped(self, &bare, &illegal, &batch))
        return call_method(N_LAST_PYTHON, self, 1, observe, NULL, NULL, NULL);
    PyObject *out = call_method(N_AEC_LAST, batch, 2, bare, illegal, NULL, NULL);
    Py_DECREF(bare);
    Py_DECREF(illegal);
    Py_DECREF(batch);
    return out;
}

static PyObject *Wrapper_step(PyObject *self, PyObject *const *args, size_t nargsf,
                              PyObject *kwnames) {
    PyObject *action, *bare, *illegal, *batch;
    if (action_arg(args, nargsf, kwnames, &action) < 0) return NULL;
    if (!wrapped(self, &bare, &illegal, &batch))
        return call_method(N_STEP_PYTHON, self, 1, action, NULL, NULL, NULL);
    PyObject *taken = call_method(N_AEC_STEP, batch, 4, bare, action, self, illegal);
    long code = taken ? PyLong_AsLong(taken) : -1;
    Py_XDECREF(taken);
    PyObject *out;
    if (code == -1 && PyErr_Occurred()) {
        out = NULL;
    } else if (code == 1) {
        out = Py_NewRef(Py_None);
    } else if (code == 2) { /* the wrappers' bookkeeping done: the bare step takes it */
        out = call_method(N_STEP, bare, 1, action, NULL, NULL, NULL);
        if (out) Py_SETREF(out, Py_NewRef(Py_None));
    } else {
        out = call_method(N_STEP_PYTHON, self, 1, action, NULL, NULL, NULL);
    }
    Py_DECREF(bare);
    Py_DECREF(illegal);
    Py_DECREF(batch);
    return out;
}

static int Wrapper_traverse(WrapperState *self, visitproc visit, void *arg) {
#define VISIT(name, field) Py_VISIT(self->field);
    WRAPPER_FIELDS(VISIT)
#undef VISIT
    return 0;
}

static int Wrapper_clear(WrapperState *self) {
#define CLEAR(name, field) Py_CLEAR(self->field);
    WRAPPER_FIELDS(CLEAR)
#undef CLEAR
    return 0;
}

static void Wrapper_dealloc(WrapperState *self) {
    PyObject_GC_UnTrack(self);
    Wrapper_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef Wrapper_methods[] = {
    {"last", (PyCFunction)(void (*)(void))Wrapper_last, METH_FASTCALL | METH_KEYWORDS,
     "AECEnv.last() through the wrappers."},
    {"step", (PyCFunction)(void (*)(void))Wrapper_step, METH_FASTCALL | METH_KEYWORDS,
     "AECEnv.step(action) through the wrappers."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef Wrapper_members[] = {
#define MEMBER(name, field) {name, T_OBJECT_EX, offsetof(WrapperState, field), 0, NULL},
    WRAPPER_FIELDS(MEMBER)
#undef MEMBER
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject WrapperBaseType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "kartentisch.interop._shortway.WrapperBase",
    .tp_basicsize = sizeof(WrapperState),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "last() and step() of env()'s outer wrapper, the compiled game's short way.",
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)Wrapper_dealloc,
    .tp_traverse = (traverseproc)Wrapper_traverse,
    .tp_clear = (inquiry)Wrapper_clear,
    .tp_methods = Wrapper_methods,
    .tp_members = Wrapper_members,
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_shortway",
    "The PettingZoo environment's and wrapper's last() and step(), short way in C.", -1,
    NULL, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__shortway(void) {
    struct {
        PyObject **slot;
        const char *name;
    } names[] = {
        {&N_AEC_LAST, "aec_last"},         {&N_AEC_STEP, "aec_step"},
        {&N_LAST_PYTHON, "_last_python"},  {&N_STEP_PYTHON, "_step_python"},
        {&N_STEP, "step"},                 {&N_OBSERVE, "observe"},
        {&N_ACTION, "action"},
    };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (!(*names[k].slot = PyUnicode_InternFromString(names[k].name))) return NULL;
    if (PyType_Ready(&EnvBaseType) < 0 || PyType_Ready(&WrapperBaseType) < 0) return NULL;
    PyObject *m = PyModule_Create(&MODULE);
    if (!m) return NULL;
    if (PyModule_AddObjectRef(m, "EnvBase", (PyObject *)&EnvBaseType) < 0 ||
        PyModule_AddObjectRef(m, "WrapperBase", (PyObject *)&WrapperBaseType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
