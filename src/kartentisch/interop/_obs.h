/* What the compiled games' observe_new shares: the keys of the observation dict, the
 * arrays made by the allocator the caller gives (numpy.empty: the modules build without
 * NumPy) and the dict itself. Included by _vecslob.c and _vecdoko.c. */
#ifndef KARTENTISCH_OBS_H
#define KARTENTISCH_OBS_H

#include <Python.h>

static PyObject *KEY_OBSERVATION, *KEY_ACTION_MASK;

/* The dict's keys, interned once at import: 0, or -1 with the error set. */
static int init_observation_keys(void) {
    KEY_OBSERVATION = PyUnicode_InternFromString("observation");
    KEY_ACTION_MASK = PyUnicode_InternFromString("action_mask");
    return KEY_OBSERVATION && KEY_ACTION_MASK ? 0 : -1;
}

/* empty(size, dtype): a new array from the allocator observe_new is given. */
static PyObject *new_array(PyObject *empty, Py_ssize_t size, PyObject *dtype) {
    PyObject *n = PyLong_FromSsize_t(size);
    if (!n) return NULL;
    PyObject *call[2] = {n, dtype};
    PyObject *out = PyObject_Vectorcall(empty, call, 2, NULL);
    Py_DECREF(n);
    return out;
}

/* {"observation": obs, "action_mask": mask} (new references to both). */
static PyObject *observation_dict(PyObject *obs, PyObject *mask) {
    PyObject *out = PyDict_New();
    if (out && (PyDict_SetItem(out, KEY_OBSERVATION, obs) < 0 ||
                PyDict_SetItem(out, KEY_ACTION_MASK, mask) < 0)) {
        Py_CLEAR(out);
    }
    return out;
}

#endif
