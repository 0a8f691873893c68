/* What the compiled games' observe_new shares: the keys of the observation dict, the
 * arrays and the dict itself. Included by _vecslob.c and _vecdoko.c.
 *
 * Built with NumPy's headers (KT_NUMPY, setup.py defines it where NumPy is installed at
 * build time), the arrays are made by NumPy's C API, imported on first use (the modules
 * import without NumPy); otherwise by the allocator the caller gives (numpy.empty). */
#ifndef KARTENTISCH_OBS_H
#define KARTENTISCH_OBS_H

#include <Python.h>
#include <stdint.h>

#ifdef KT_NUMPY
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

static int numpy_ready = 0;

/* NumPy's C API, imported once: 0, or -1 with the error set. */
static int ensure_numpy(void) {
    if (numpy_ready) return 0;
    if (_import_array() < 0) return -1;
    numpy_ready = 1;
    return 0;
}
#endif

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

/* The last few observation dicts made for a batch, kept to be written again once no one
 * else holds them (see numpy_observation). */
#define RING 3
typedef struct {
    PyObject *dict[RING], *obs[RING], *mask[RING];
    int next;
} ObsRing;

static void ring_clear(ObsRing *ring) {
    for (int k = 0; k < RING; k++) {
        Py_CLEAR(ring->dict[k]);
        Py_CLEAR(ring->obs[k]);
        Py_CLEAR(ring->mask[k]);
    }
}

#ifdef KT_NUMPY
/* Whether the array is still as made: one dimension of ``size``, the dtype, its own
 * writable C-contiguous data, and no weak reference to it. */
static int as_made(PyObject *a, Py_ssize_t size, int type) {
    PyArrayObject *x = (PyArrayObject *)a;
    int flags = NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_WRITEABLE | NPY_ARRAY_OWNDATA;
    return PyArray_NDIM(x) == 1 && PyArray_DIM(x, 0) == size && PyArray_TYPE(x) == type &&
           (PyArray_FLAGS(x) & flags) == flags && ((PyArrayObject_fields *)x)->weakreflist == NULL;
}

/* Slot k of the ring, when no one but the ring holds its dict and arrays (so no one can
 * tell it from new ones) and they are as made: the dict, else NULL. */
static PyObject *ring_free(ObsRing *ring, int k, Py_ssize_t size, Py_ssize_t actions) {
    PyObject *d = ring->dict[k], *obs = ring->obs[k], *mask = ring->mask[k];
    if (!d || Py_REFCNT(d) != 1 || Py_REFCNT(obs) != 2 || Py_REFCNT(mask) != 2) return NULL;
    if (PyDict_GET_SIZE(d) != 2 || PyDict_GetItem(d, KEY_OBSERVATION) != obs ||
        PyDict_GetItem(d, KEY_ACTION_MASK) != mask)
        return NULL;
    return as_made(obs, size, NPY_FLOAT32) && as_made(mask, actions, NPY_INT8) ? d : NULL;
}

/* A new observation dict: a float32 array of ``size`` and an int8 array of ``actions``,
 * filled by ``write(self, seat, obs, mask)``. A dict of the ring that no one else holds
 * any more is written again instead of making new arrays: to its caller it is new (no
 * other reference to it or its arrays exists), and it saves making and freeing them at
 * every step of a loop that drops each observation before the next but one. */
static PyObject *numpy_observation(ObsRing *ring, void *self, int seat, Py_ssize_t size,
                                   Py_ssize_t actions,
                                   void (*write)(void *, int, float *, int8_t *)) {
    if (ensure_numpy() < 0) return NULL;
    for (int k = 0; k < RING; k++) {
        PyObject *d = ring_free(ring, k, size, actions);
        if (d) {
            write(self, seat, (float *)PyArray_DATA((PyArrayObject *)ring->obs[k]),
                  (int8_t *)PyArray_DATA((PyArrayObject *)ring->mask[k]));
            Py_INCREF(d);
            return d;
        }
    }
    npy_intp dims[1] = {(npy_intp)size};
    PyObject *obs = PyArray_SimpleNew(1, dims, NPY_FLOAT32);
    if (!obs) return NULL;
    dims[0] = (npy_intp)actions;
    PyObject *mask = PyArray_SimpleNew(1, dims, NPY_INT8);
    PyObject *out = NULL;
    if (mask) {
        write(self, seat, (float *)PyArray_DATA((PyArrayObject *)obs),
              (int8_t *)PyArray_DATA((PyArrayObject *)mask));
        out = observation_dict(obs, mask);
    }
    if (!out) {
        Py_DECREF(obs);
        Py_XDECREF(mask);
        return NULL;
    }
    int k = ring->next;
    ring->next = (k + 1) % RING;
    Py_XSETREF(ring->dict[k], out);
    Py_XSETREF(ring->obs[k], obs);
    Py_XSETREF(ring->mask[k], mask);
    Py_INCREF(out);
    return out;
}
#endif
#endif
