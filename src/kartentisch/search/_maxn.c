/*
 * The exact max^n Slobberhannes solver, compiled.
 *
 * The same algorithm as kartentisch/search/slobberhannes_solver.py, which
 * documents it and remains the reference (and the fallback when this
 * extension is not built): hands are 32-bit masks (a suit is a block of 8
 * bits, 7 to A), penalty vectors are packed 3 bits a seat, equivalent cards
 * are searched once, positions at trick boundaries are cached with every suit
 * renumbered among the cards still out, and a seat that can reach 0 further
 * penalties stops looking. Ties go to the first move in low-to-high order.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 7
#define QC ((uint32_t)1 << 5) /* clubs (suit 0), queen (rank 12 - 7 = 5) */
#define TT_BITS 19

typedef struct {
    uint32_t key[MAXP];
    uint32_t value;
    uint32_t gen;
    int8_t leader, first, queen, pad;
} Entry;

typedef struct {
    int n, tricks, bonus;
    long long nodes;
} Solver;

static uint8_t COMPRESS[1 << 16];
static Entry *TT = NULL;
static uint32_t GEN = 0;
static const uint32_t SUIT_MASK[4] = {0xFFu, 0xFFu << 8, 0xFFu << 16, 0xFFu << 24};

static void init_compress(void) {
    for (int rest = 0; rest < 256; rest++) {
        for (int held = 0; held < 256; held++) {
            if (held & ~rest) continue;
            int out = 0, j = 0;
            for (int i = 0; i < 8; i++) {
                if (rest >> i & 1) {
                    if (held >> i & 1) out |= 1 << j;
                    j++;
                }
            }
            COMPRESS[rest << 8 | held] = (uint8_t)out;
        }
    }
}

static inline int suit_of(uint32_t b) { return (31 - __builtin_clz(b)) >> 3; }

static int gen_moves(uint32_t hand, uint32_t ledmask, uint32_t remaining, uint32_t *out) {
    uint32_t mv = hand;
    if (ledmask && (hand & ledmask)) mv = hand & ledmask;
    uint32_t others = remaining & ~hand;
    int k = 0;
    uint32_t last = 0;
    while (mv) {
        uint32_t b = mv & (~mv + 1);
        mv ^= b;
        if (last && b != QC && last != QC && suit_of(b) == suit_of(last)) {
            uint64_t between = ((uint64_t)b - 1) & ~(((uint64_t)last << 1) - 1);
            if ((between & others) == 0) {
                out[k - 1] = b;
                last = b;
                continue;
            }
        }
        out[k++] = b;
        last = b;
    }
    return k;
}

static uint32_t play(Solver *s, uint32_t *hands, int trick_no, int first, int queen, int pos,
                     int seat, uint32_t ledmask, uint32_t bestbit, uint32_t trickbits, int winner,
                     uint32_t remaining, uint32_t only);

static uint32_t last_trick(Solver *s, uint32_t *hands, int leader, int first, int queen) {
    s->nodes++;
    uint32_t led = hands[leader];
    uint32_t ledmask = SUIT_MASK[suit_of(led)];
    int winner = leader;
    uint32_t best = led, all = 0;
    for (int p = 0; p < s->n; p++) {
        uint32_t c = hands[p];
        all |= c;
        if ((c & ledmask) && c > best) {
            winner = p;
            best = c;
        }
    }
    uint32_t one = (uint32_t)1 << (3 * winner);
    uint32_t value = one;
    if (all & QC) {
        value += one;
        queen = winner;
    }
    if (s->bonus && first == winner && queen == winner) value += one;
    return value;
}

static uint32_t trick(Solver *s, uint32_t *hands, int leader, int trick_no, int first, int queen) {
    uint32_t remaining = 0;
    for (int p = 0; p < s->n; p++) remaining |= hands[p];
    if (trick_no == s->tricks) return last_trick(s, hands, leader, first, queen);
    uint32_t key[MAXP] = {0};
    int keep_clubs = (remaining & QC) != 0;
    uint64_t h = 1469598103934665603ull;
    for (int p = 0; p < s->n; p++) {
        uint32_t hand = hands[p], k = 0;
        for (int suit = 0; suit < 4; suit++) {
            uint32_t rest = (remaining >> (8 * suit)) & 0xFF;
            uint32_t held = (hand >> (8 * suit)) & 0xFF;
            uint32_t part = (suit == 0 && keep_clubs) ? held : COMPRESS[rest << 8 | held];
            k |= part << (8 * suit);
        }
        key[p] = k;
        h = (h ^ k) * 1099511628211ull;
    }
    h = (h ^ (uint64_t)(leader + 8 * (first + 1) + 64 * (queen + 1))) * 1099511628211ull;
    h ^= h >> 29;
    Entry *e = &TT[h & ((1u << TT_BITS) - 1)];
    if (e->gen == GEN && e->leader == leader && e->first == first && e->queen == queen &&
        memcmp(e->key, key, sizeof key) == 0)
        return e->value;
    uint32_t value = play(s, hands, trick_no, first, queen, 0, leader, 0, 0, 0, -1, remaining, 0);
    memcpy(e->key, key, sizeof key);
    e->value = value;
    e->gen = GEN;
    e->leader = (int8_t)leader;
    e->first = (int8_t)first;
    e->queen = (int8_t)queen;
    return value;
}

static uint32_t play(Solver *s, uint32_t *hands, int trick_no, int first, int queen, int pos,
                     int seat, uint32_t ledmask, uint32_t bestbit, uint32_t trickbits, int winner,
                     uint32_t remaining, uint32_t only) {
    s->nodes++;
    uint32_t moves[16];
    int count;
    if (only) {
        moves[0] = only;
        count = 1;
    } else {
        count = gen_moves(hands[seat], ledmask, remaining, moves);
    }
    uint32_t hand = hands[seat];
    uint32_t best = 0;
    unsigned best_own = 99;
    int shift = 3 * seat;
    int last_to_play = pos + 1 == s->n;
    int next_seat = (seat + 1) % s->n;
    for (int i = 0; i < count; i++) {
        uint32_t b = moves[i];
        uint32_t lm = ledmask, bb = bestbit;
        int w = winner;
        hands[seat] = hand ^ b;
        if (pos == 0) {
            lm = SUIT_MASK[suit_of(b)];
            bb = b;
            w = seat;
        } else if ((b & ledmask) && b > bestbit) {
            bb = b;
            w = seat;
        }
        uint32_t tb = trickbits | b;
        uint32_t value;
        if (!last_to_play) {
            value = play(s, hands, trick_no, first, queen, pos + 1, next_seat, lm, bb, tb, w,
                         remaining, 0);
        } else {
            uint32_t one = (uint32_t)1 << (3 * w);
            int f = first, q = queen;
            value = 0;
            if (trick_no == 1) {
                value += one;
                f = w;
            }
            if (tb & QC) {
                value += one;
                q = w;
            }
            if (trick_no < s->tricks) {
                value += trick(s, hands, w, trick_no + 1, f, q);
            } else {
                value += one;
                if (s->bonus && f == w && q == w) value += one;
            }
        }
        hands[seat] = hand;
        unsigned own = (value >> shift) & 7;
        if (own < best_own) {
            best = value;
            best_own = own;
            if (own == 0) break;
        }
    }
    return best;
}

/* solve(hands, tricks, bonus, trick_no, first, queen, pos, seat, ledmask, bestbit,
 *       trickbits, winner, moves, stop_at_zero) -> (list of values, nodes)
 * Values the given root moves in order; with stop_at_zero, stops after the
 * first move that costs the mover nothing more. */
static PyObject *py_solve(PyObject *self, PyObject *args) {
    PyObject *hands_obj, *moves_obj;
    int tricks, bonus, trick_no, first, queen, pos, seat, winner, stop_at_zero;
    unsigned long ledmask, bestbit, trickbits;
    if (!PyArg_ParseTuple(args, "OiiiiiiikkkiOp", &hands_obj, &tricks, &bonus, &trick_no, &first,
                          &queen, &pos, &seat, &ledmask, &bestbit, &trickbits, &winner,
                          &moves_obj, &stop_at_zero))
        return NULL;
    PyObject *hands_seq = PySequence_Fast(hands_obj, "hands must be a sequence of ints");
    if (!hands_seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(hands_seq);
    if (n < 3 || n > MAXP) {
        Py_DECREF(hands_seq);
        PyErr_SetString(PyExc_ValueError, "3 to 7 hands are needed");
        return NULL;
    }
    uint32_t hands[MAXP] = {0};
    uint32_t remaining = (uint32_t)trickbits;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long v = PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(hands_seq, i));
        if (PyErr_Occurred()) {
            Py_DECREF(hands_seq);
            return NULL;
        }
        hands[i] = (uint32_t)v;
        remaining |= hands[i];
    }
    Py_DECREF(hands_seq);
    if (seat < 0 || seat >= n || tricks < 1 || trick_no < 1 || trick_no > tricks) {
        PyErr_SetString(PyExc_ValueError, "seat or trick number out of range");
        return NULL;
    }
    PyObject *moves_seq = PySequence_Fast(moves_obj, "moves must be a sequence of ints");
    if (!moves_seq) return NULL;
    if (TT == NULL) {
        TT = calloc((size_t)1 << TT_BITS, sizeof(Entry));
        if (TT == NULL) {
            Py_DECREF(moves_seq);
            return PyErr_NoMemory();
        }
    }
    GEN++;
    if (GEN == 0) { /* wrapped: forget everything */
        memset(TT, 0, ((size_t)1 << TT_BITS) * sizeof(Entry));
        GEN = 1;
    }
    Solver s = {(int)n, tricks, bonus, 0};
    Py_ssize_t m = PySequence_Fast_GET_SIZE(moves_seq);
    PyObject *values = PyList_New(0);
    if (!values) {
        Py_DECREF(moves_seq);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < m; i++) {
        unsigned long b = PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(moves_seq, i));
        if (PyErr_Occurred() || b == 0 || (b & ~(unsigned long)hands[seat])) {
            Py_DECREF(moves_seq);
            Py_DECREF(values);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a move is not in the hand");
            return NULL;
        }
        uint32_t value = play(&s, hands, trick_no, first, queen, pos, seat, (uint32_t)ledmask,
                              (uint32_t)bestbit, (uint32_t)trickbits, winner, remaining,
                              (uint32_t)b);
        PyObject *item = PyLong_FromUnsignedLong(value);
        if (!item || PyList_Append(values, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(moves_seq);
            Py_DECREF(values);
            return NULL;
        }
        Py_DECREF(item);
        if (stop_at_zero && ((value >> (3 * seat)) & 7) == 0) break;
    }
    Py_DECREF(moves_seq);
    return Py_BuildValue("(NL)", values, s.nodes);
}

/* moves(hand, ledmask, remaining) -> list of representative cards (bits) */
static PyObject *py_moves(PyObject *self, PyObject *args) {
    unsigned long hand, ledmask, remaining;
    if (!PyArg_ParseTuple(args, "kkk", &hand, &ledmask, &remaining)) return NULL;
    uint32_t out[32];
    int k = gen_moves((uint32_t)hand, (uint32_t)ledmask, (uint32_t)remaining, out);
    PyObject *list = PyList_New(k);
    if (!list) return NULL;
    for (int i = 0; i < k; i++) PyList_SET_ITEM(list, i, PyLong_FromUnsignedLong(out[i]));
    return list;
}

static PyMethodDef METHODS[] = {
    {"solve", py_solve, METH_VARARGS, "Value root moves of a Slobberhannes position (max^n)."},
    {"moves", py_moves, METH_VARARGS, "Representative moves of a hand."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_maxn",
                                    "Compiled max^n solver for Slobberhannes.", -1, METHODS};

PyMODINIT_FUNC PyInit__maxn(void) {
    init_compress();
    return PyModule_Create(&MODULE);
}
