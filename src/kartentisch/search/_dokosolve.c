/*
 * The exact Doppelkopf card-play solver, compiled.
 *
 * The same algorithm as kartentisch/search/doppelkopf_solver.py, which
 * documents it and remains the reference (and the fallback when this
 * extension is not built). In short: the card types of the game are numbered
 * in trick order (trumps high to low, then each plain suit high to low); a
 * hand is a 64-bit word of 2-bit counts, one field per type. The value of a
 * position is the Re party's points (Augen, plus an optional bonus per trick)
 * from the current trick to the end; Re maximises, Kontra minimises. Search is
 * fail-soft alpha-beta with a transposition table of bounds at trick
 * boundaries (keyed by the four hands and the leader), move ordering, and
 * equivalent cards searched once (adjacent types of the same group and equal
 * points, with no copy of either or of anything between them in another hand
 * or in the trick).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXT 24
#define NSEAT 4
#define LOW 0x5555555555555555ull
#define TT_BITS 20
#define INF 30000

typedef struct {
    uint64_t h[NSEAT];
    int16_t lower, upper;
    uint8_t leader, best;
    uint32_t gen;
} Entry;

typedef struct {
    int T;
    int bonus;
    int re[NSEAT];
    int grp[MAXT];
    int pts[MAXT];
    uint64_t gmask[5];
    uint64_t hands[NSEAT];
    int left; /* card points still in the hands */
    int stop; /* cards per hand at which the greedy playout values a position (0: never) */
    int later; /* the type whose copy played later wins (the second Dulle), -1: none */
    int later_last; /* ... in the last trick too */
    long long nodes;
} Solver;

static Entry *TT = NULL;
static uint32_t GEN = 0;


static inline uint64_t field(int t) { return 1ull << (2 * t); }
static inline uint64_t presence(uint64_t h) { return (h | (h >> 1)) & LOW; }
static inline int cards_in(uint64_t h) {
    return __builtin_popcountll(h & LOW) + 2 * __builtin_popcountll(h & ~LOW);
}
/* The type whose later copy wins a trick played from hand ``h`` (-2: none): none in
 * the last trick (one card in hand) unless the rule holds there too. */
static inline int later_type(const Solver *s, uint64_t h) {
    int last = (h & (h - 1)) == 0 && (h & LOW) != 0;
    return (s->later_last || !last) ? s->later : -2;
}

/* Representative moves among the legal ones, high to low: a type is dropped
 * when it is equivalent to the representative kept before it. */
static int gen_moves(const Solver *s, int seat, uint64_t legal, uint64_t others, int *out) {
    uint64_t p = presence(legal);
    int k = 0, last = -1;
    while (p) {
        int t = __builtin_ctzll(p) >> 1;
        p &= p - 1;
        if (last >= 0 && s->grp[t] == s->grp[last] && s->pts[t] == s->pts[last]) {
            /* fields last..t inclusive */
            uint64_t span = ((field(t) << 2) - 1) & ~(field(last) - 1);
            if ((others & span) == 0) continue;
        }
        out[k++] = t;
        last = t;
    }
    (void)seat;
    return k;
}

static int boundary(Solver *s, int leader, int alpha, int beta);

/* Order moves by a cheap guess of their merit (insertion sort, stable). */
static void order_moves(const Solver *s, int pos, int seat, int led, int best_t, int best_seat,
                        uint64_t others, int tt_best, int *mv, int k) {
    int score[MAXT];
    int maxing = s->re[seat];
    for (int i = 0; i < k; i++) {
        int t = mv[i], sc;
        if (t == tt_best) {
            sc = 100000;
        } else if (pos == 0) {
            /* leads: the top remaining card of its group first, then cheap cards */
            uint64_t above = (field(t) - 1) & s->gmask[s->grp[t]];
            int top = (others & above) == 0;
            sc = top ? 1000 + s->pts[t] : -s->pts[t] - (s->grp[t] == 0 ? 20 : 0);
        } else {
            int wins = (s->grp[t] == 0 || s->grp[t] == led) && t < best_t;
            int ours = s->re[best_seat] == maxing;
            if (ours && !wins) {
                sc = 2000 + s->pts[t];
            } else if (wins) {
                sc = 1000 + (pos == 3 ? s->pts[t] : t);
            } else {
                sc = -s->pts[t];
            }
        }
        score[i] = sc;
    }
    for (int i = 1; i < k; i++) {
        int t = mv[i], sc = score[i], j = i - 1;
        while (j >= 0 && score[j] < sc) {
            mv[j + 1] = mv[j];
            score[j + 1] = score[j];
            j--;
        }
        mv[j + 1] = t;
        score[j + 1] = sc;
    }
}

/* The value (Re points from this trick on) when ``seat`` plays the pos-th card. */
static int play(Solver *s, int pos, int seat, int led, int best_t, int best_seat, int tpts,
                uint64_t tp, int alpha, int beta, int only, int tt_best, int *best_move) {
    s->nodes++;
    uint64_t h = s->hands[seat];
    int mv[MAXT], k;
    if (only >= 0) {
        mv[0] = only;
        k = 1;
    } else {
        uint64_t legal = h;
        if (pos > 0 && (h & s->gmask[led])) legal = h & s->gmask[led];
        uint64_t others = tp;
        for (int q = 0; q < NSEAT; q++)
            if (q != seat) others |= presence(s->hands[q]);
        k = gen_moves(s, seat, legal, others, mv);
        if (k > 1) order_moves(s, pos, seat, led, best_t, best_seat, others, tt_best, mv, k);
    }
    int maxing = s->re[seat];
    int v = maxing ? -INF : INF;
    int bm = k > 0 ? mv[0] : -1;
    int next = (seat + 1) & 3;
    int dt = later_type(s, h);
    for (int i = 0; i < k; i++) {
        int t = mv[i];
        s->hands[seat] = h - field(t);
        s->left -= s->pts[t];
        int nled = led, nbest = best_t, nbs = best_seat;
        if (pos == 0) {
            nled = s->grp[t];
            nbest = t;
            nbs = seat;
        } else if ((s->grp[t] == 0 || s->grp[t] == led) && (t < best_t || (t == best_t && t == dt))) {
            nbest = t;
            nbs = seat;
        }
        int np = tpts + s->pts[t];
        int val;
        if (pos < 3) {
            val = play(s, pos + 1, next, nled, nbest, nbs, np, tp | field(t), alpha, beta, -1, -1,
                       NULL);
        } else {
            int tv = s->re[nbs] ? np + s->bonus : 0;
            val = tv + boundary(s, nbs, alpha - tv, beta - tv);
        }
        s->hands[seat] = h;
        s->left += s->pts[t];
        if (maxing) {
            if (val > v) {
                v = val;
                bm = t;
            }
            if (v > alpha) alpha = v;
        } else {
            if (val < v) {
                v = val;
                bm = t;
            }
            if (v < beta) beta = v;
        }
        if (alpha >= beta) break;
    }
    if (best_move) *best_move = bm;
    return v;
}

static int last_trick(Solver *s, int leader) {
    s->nodes++;
    int led = -1, best_t = 0, best_seat = leader, total = 0;
    int dt = s->later_last ? s->later : -2;
    for (int i = 0; i < NSEAT; i++) {
        int seat = (leader + i) & 3;
        int t = __builtin_ctzll(presence(s->hands[seat])) >> 1;
        total += s->pts[t];
        if (i == 0) {
            led = s->grp[t];
            best_t = t;
        } else if ((s->grp[t] == 0 || s->grp[t] == led) && (t < best_t || (t == best_t && t == dt))) {
            best_t = t;
            best_seat = seat;
        }
    }
    return s->re[best_seat] ? total + s->bonus : 0;
}

/* The greedy playout that values a position beyond the horizon: every seat
 * plays by a fixed rule (see greedy_card in doppelkopf_solver.py). */
static int pick(const Solver *s, uint64_t legal, int by_points, int sign, int only_winners,
                int led, int best_t) {
    /* the card with the highest sign * points (by_points) or the weakest one;
     * ties go to the weaker card (higher index) */
    uint64_t p = presence(legal);
    int best = -1, key = 0;
    while (p) {
        int t = __builtin_ctzll(p) >> 1;
        p &= p - 1;
        if (only_winners && !((s->grp[t] == 0 || s->grp[t] == led) && t < best_t)) continue;
        int k = by_points ? sign * s->pts[t] : 0;
        if (best < 0 || k >= key) {
            best = t;
            key = k;
        }
    }
    return best;
}

static int greedy_card(const Solver *s, const uint64_t *h, int pos, int seat, int led, int best_t,
                       int best_seat) {
    uint64_t legal = h[seat];
    if (pos > 0 && (legal & s->gmask[led])) legal &= s->gmask[led];
    if (pos == 0) {
        uint64_t others = 0;
        for (int q = 0; q < NSEAT; q++)
            if (q != seat) others |= presence(h[q]);
        uint64_t p = presence(legal), tops = 0;
        while (p) {
            uint64_t b = p & -p;
            int t = __builtin_ctzll(b) >> 1;
            p ^= b;
            if ((others & (field(t) - 1) & s->gmask[s->grp[t]]) == 0) tops |= 3ull << (2 * t);
        }
        if (tops) return pick(s, legal & tops, 1, 1, 0, 0, 0);
        return pick(s, legal, 1, -1, 0, 0, 0);
    }
    if (s->re[best_seat] == s->re[seat]) return pick(s, legal, 1, pos == 3 ? 1 : -1, 0, 0, 0);
    int w = pick(s, legal, pos == 3, 1, 1, led, best_t);
    if (w >= 0) return w;
    return pick(s, legal, 1, -1, 0, 0, 0);
}

static int greedy(Solver *s, int leader) {
    uint64_t h[NSEAT];
    memcpy(h, s->hands, sizeof h);
    int total = 0;
    s->nodes++;
    while (h[leader]) {
        int led = -1, best_t = 0, best_seat = leader, tpts = 0;
        int dt = later_type(s, h[leader]);
        for (int pos = 0; pos < NSEAT; pos++) {
            int seat = (leader + pos) & 3;
            int t = greedy_card(s, h, pos, seat, led, best_t, best_seat);
            h[seat] -= field(t);
            tpts += s->pts[t];
            if (pos == 0) {
                led = s->grp[t];
                best_t = t;
            } else if ((s->grp[t] == 0 || s->grp[t] == led) && (t < best_t || (t == best_t && t == dt))) {
                best_t = t;
                best_seat = seat;
            }
        }
        if (s->re[best_seat]) total += tpts + s->bonus;
        leader = best_seat;
    }
    return total;
}

static int boundary(Solver *s, int leader, int alpha, int beta) {
    uint64_t *hs = s->hands;
    int cards = cards_in(hs[leader]);
    if (cards == 0) return 0;
    if (cards == 1) return last_trick(s, leader);
    if (cards == s->stop) return greedy(s, leader);
    int most = s->left + s->bonus * cards;
    if (alpha >= most) return most;
    if (beta <= 0) return 0;
    uint64_t key = hs[0] * 0x9E3779B97F4A7C15ull;
    key = (key ^ (key >> 31) ^ hs[1]) * 0xBF58476D1CE4E5B9ull;
    key = (key ^ (key >> 29) ^ hs[2]) * 0x94D049BB133111EBull;
    key = (key ^ (key >> 32) ^ hs[3] ^ ((uint64_t)leader << 62)) * 0x9E3779B97F4A7C15ull;
    key ^= key >> 33;
    Entry *e = &TT[key & ((1u << TT_BITS) - 1)];
    int tt_best = -1;
    int lower = 0, upper = most;
    if (e->gen == GEN && e->leader == leader && e->h[0] == hs[0] && e->h[1] == hs[1] &&
        e->h[2] == hs[2] && e->h[3] == hs[3]) {
        lower = e->lower;
        upper = e->upper;
        if (lower >= beta) return lower;
        if (upper <= alpha) return upper;
        if (lower == upper) return lower;
        tt_best = e->best;
    }
    int a = alpha > lower ? alpha : lower;
    int b = beta < upper ? beta : upper;
    int bm = -1;
    int v = play(s, 0, leader, -1, 0, leader, 0, 0, a, b, -1, tt_best, &bm);
    if (v <= a) {
        upper = v;
    } else if (v >= b) {
        lower = v;
    } else {
        lower = upper = v;
    }
    memcpy(e->h, hs, sizeof e->h);
    e->lower = (int16_t)lower;
    e->upper = (int16_t)upper;
    e->leader = (uint8_t)leader;
    e->best = (uint8_t)bm;
    e->gen = GEN;
    return v;
}

static int read_ints(PyObject *obj, int *out, int max, const char *what) {
    PyObject *seq = PySequence_Fast(obj, what);
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > max) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: at most %d items", what, max);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(seq);
    return (int)n;
}

typedef struct {
    int nt, nm, mover, led, best_t, best_seat, tpts;
    uint64_t tp;
    int moves[MAXT];
} Root;

/* Reads the common arguments into a solver and the root's trick state;
 * returns 0, or -1 with an exception set. */
static int setup(Solver *s, Root *r, PyObject *hands_obj, PyObject *groups_obj,
                 PyObject *points_obj, int bonus, int re, int leader, PyObject *trick_obj,
                 PyObject *moves_obj, int stop, int later, int later_last) {
    memset(s, 0, sizeof *s);
    memset(r, 0, sizeof *r);
    PyObject *hs = PySequence_Fast(hands_obj, "hands must be a sequence of ints");
    if (!hs) return -1;
    if (PySequence_Fast_GET_SIZE(hs) != NSEAT) {
        Py_DECREF(hs);
        PyErr_SetString(PyExc_ValueError, "four hands are needed");
        return -1;
    }
    for (int i = 0; i < NSEAT; i++) {
        s->hands[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(hs, i));
        if (PyErr_Occurred()) {
            Py_DECREF(hs);
            return -1;
        }
    }
    Py_DECREF(hs);
    int T = read_ints(groups_obj, s->grp, MAXT, "groups must be a sequence of ints");
    if (T < 0) return -1;
    int T2 = read_ints(points_obj, s->pts, MAXT, "points must be a sequence of ints");
    if (T2 < 0) return -1;
    if (T2 != T || leader < 0 || leader >= NSEAT || bonus < 0 || bonus > 100 || stop < 0) {
        PyErr_SetString(PyExc_ValueError, "bad types, leader, bonus or horizon");
        return -1;
    }
    if (later < -1 || later >= T) {
        PyErr_SetString(PyExc_ValueError, "the type whose later copy wins is out of range");
        return -1;
    }
    s->T = T;
    s->bonus = bonus;
    s->stop = stop;
    s->later = later;
    s->later_last = later_last != 0;
    for (int t = 0; t < T; t++) {
        if (s->grp[t] < 0 || s->grp[t] > 4 || s->pts[t] < 0 || s->pts[t] > 100) {
            PyErr_SetString(PyExc_ValueError, "a group or a point value is out of range");
            return -1;
        }
        s->gmask[s->grp[t]] |= 3ull << (2 * t);
    }
    uint64_t valid = T >= 32 ? ~0ull : (1ull << (2 * T)) - 1;
    for (int i = 0; i < NSEAT; i++) {
        s->re[i] = (re >> i) & 1;
        if (s->hands[i] & ~valid) {
            PyErr_SetString(PyExc_ValueError, "a hand holds a type out of range");
            return -1;
        }
        for (int t = 0; t < T; t++) {
            int c = (int)((s->hands[i] >> (2 * t)) & 3);
            if (c == 3) {
                PyErr_SetString(PyExc_ValueError, "a hand holds a card three times");
                return -1;
            }
            s->left += s->pts[t] * c;
        }
    }
    int trick[NSEAT];
    int nt = read_ints(trick_obj, trick, NSEAT - 1, "trick must be a sequence of ints");
    if (nt < 0) return -1;
    int nm = read_ints(moves_obj, r->moves, MAXT, "moves must be a sequence of ints");
    if (nm < 0) return -1;
    r->nt = nt;
    r->nm = nm;
    r->led = -1;
    r->best_seat = leader;
    int dt = later_type(s, s->hands[(leader + nt) & 3]);
    for (int i = 0; i < nt; i++) {
        int t = trick[i], seat = (leader + i) & 3;
        if (t < 0 || t >= T) {
            PyErr_SetString(PyExc_ValueError, "a trick card is out of range");
            return -1;
        }
        r->tpts += s->pts[t];
        r->tp |= field(t);
        if (i == 0) {
            r->led = s->grp[t];
            r->best_t = t;
        } else if ((s->grp[t] == 0 || s->grp[t] == r->led) &&
                   (t < r->best_t || (t == r->best_t && t == dt))) {
            r->best_t = t;
            r->best_seat = seat;
        }
    }
    r->mover = (leader + nt) & 3;
    int size = cards_in(s->hands[r->mover]);
    for (int i = 0; i < NSEAT; i++) {
        int seat = (leader + i) & 3;
        if (cards_in(s->hands[seat]) + (i < nt) != size) {
            PyErr_SetString(PyExc_ValueError, "the hands do not fit the trick being played");
            return -1;
        }
    }
    for (int i = 0; i < nm; i++) {
        int t = r->moves[i];
        if (t < 0 || t >= T || ((s->hands[r->mover] >> (2 * t)) & 3) == 0) {
            PyErr_SetString(PyExc_ValueError, "a move is not in the mover's hand");
            return -1;
        }
    }
    if (TT == NULL) {
        TT = calloc((size_t)1 << TT_BITS, sizeof(Entry));
        if (TT == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    GEN++;
    if (GEN == 0) {
        memset(TT, 0, ((size_t)1 << TT_BITS) * sizeof(Entry));
        GEN = 1;
    }
    return 0;
}

static int root_value(Solver *s, const Root *r, int move, int alpha, int beta) {
    return play(s, r->nt, r->mover, r->led, r->best_t, r->best_seat, r->tpts, r->tp, alpha, beta,
                move, -1, NULL);
}

/* solve(hands, groups, points, bonus, re, leader, trick, moves, alpha, beta, stop)
 *   -> (list of values, nodes)
 * hands: four 2-bit-count words by position (clockwise, position 0 first);
 * groups/points: per type; re: bit mask of the scoring party's positions;
 * trick: the types played to the current trick from ``leader`` on; moves: the
 * mover's types to value; stop: the cards per hand at which a greedy playout
 * values the rest (0: search to the end). Each value is the scoring party's
 * points from the current trick on, exact when it lies strictly between
 * alpha and beta (else a bound on that side). */
static PyObject *py_solve(PyObject *self, PyObject *args) {
    PyObject *hands_obj, *groups_obj, *points_obj, *trick_obj, *moves_obj;
    int bonus, re, leader, alpha, beta, stop, later = -1, later_last = 1;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOiiiOOiii|ii", &hands_obj, &groups_obj, &points_obj, &bonus,
                          &re, &leader, &trick_obj, &moves_obj, &alpha, &beta, &stop, &later,
                          &later_last))
        return NULL;
    Solver s;
    Root r;
    if (setup(&s, &r, hands_obj, groups_obj, points_obj, bonus, re, leader, trick_obj, moves_obj,
              stop, later, later_last) < 0)
        return NULL;
    PyObject *values = PyList_New(r.nm);
    if (!values) return NULL;
    for (int i = 0; i < r.nm; i++)
        PyList_SET_ITEM(values, i, PyLong_FromLong(root_value(&s, &r, r.moves[i], alpha, beta)));
    return Py_BuildValue("(NL)", values, s.nodes);
}

/* buckets(hands, groups, points, bonus, re, leader, trick, moves, thresholds, stop)
 *   -> (list of bucket numbers, nodes)
 * For each move, the number of (ascending) thresholds its value reaches,
 * found by binary search with null-window tests sharing one table. */
static PyObject *py_buckets(PyObject *self, PyObject *args) {
    PyObject *hands_obj, *groups_obj, *points_obj, *trick_obj, *moves_obj, *thr_obj;
    int bonus, re, leader, stop, later = -1, later_last = 1;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOiiiOOOi|ii", &hands_obj, &groups_obj, &points_obj, &bonus,
                          &re, &leader, &trick_obj, &moves_obj, &thr_obj, &stop, &later,
                          &later_last))
        return NULL;
    int thr[32];
    int m = read_ints(thr_obj, thr, 32, "thresholds must be a sequence of ints");
    if (m < 0) return NULL;
    for (int i = 1; i < m; i++) {
        if (thr[i] <= thr[i - 1]) {
            PyErr_SetString(PyExc_ValueError, "thresholds must ascend");
            return NULL;
        }
    }
    Solver s;
    Root r;
    if (setup(&s, &r, hands_obj, groups_obj, points_obj, bonus, re, leader, trick_obj, moves_obj,
              stop, later, later_last) < 0)
        return NULL;
    PyObject *out = PyList_New(r.nm);
    if (!out) return NULL;
    for (int i = 0; i < r.nm; i++) {
        int lo = 0, hi = m; /* the answer lies in [lo, hi] */
        while (lo < hi) {
            int mid = (lo + hi) / 2; /* is value >= thr[mid]? */
            int v = root_value(&s, &r, r.moves[i], thr[mid] - 1, thr[mid]);
            if (v >= thr[mid]) {
                lo = mid + 1;
                /* fail-soft: the value may be known to reach further thresholds */
                while (lo < hi && v >= thr[lo]) lo++;
            } else {
                hi = mid;
                while (hi > lo && v < thr[hi - 1]) hi--;
            }
        }
        PyList_SET_ITEM(out, i, PyLong_FromLong(lo));
    }
    return Py_BuildValue("(NL)", out, s.nodes);
}

/* moves(hand, legal_mask, others) -> representative types (for tests) */
static PyObject *py_moves(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *groups_obj, *points_obj;
    unsigned long long legal, others;
    if (!PyArg_ParseTuple(args, "OOKK", &groups_obj, &points_obj, &legal, &others)) return NULL;
    Solver s;
    memset(&s, 0, sizeof s);
    int T = read_ints(groups_obj, s.grp, MAXT, "groups must be a sequence of ints");
    if (T < 0) return NULL;
    if (read_ints(points_obj, s.pts, MAXT, "points must be a sequence of ints") != T) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "groups and points differ");
        return NULL;
    }
    s.T = T;
    int out[MAXT];
    int k = gen_moves(&s, 0, legal, others, out);
    PyObject *list = PyList_New(k);
    if (!list) return NULL;
    for (int i = 0; i < k; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(out[i]));
    return list;
}

static PyMethodDef METHODS[] = {
    {"solve", py_solve, METH_VARARGS, "Value root moves of a Doppelkopf position (alpha-beta)."},
    {"buckets", py_buckets, METH_VARARGS, "How many thresholds each root move reaches."},
    {"moves", py_moves, METH_VARARGS, "Representative moves among legal types."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_dokosolve",
                                    "Compiled exact card-play solver for Doppelkopf.", -1,
                                    METHODS, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__dokosolve(void) {
    PyObject *m = PyModule_Create(&MODULE);
    /* solve() and buckets() take the type whose later copy wins (the second Dulle). */
    if (m && PyModule_AddIntConstant(m, "LATER_WINS", 1) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
