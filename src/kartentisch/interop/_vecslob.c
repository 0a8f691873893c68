/*
 * Many Slobberhannes deals stepped in one call: the compiled half of
 * kartentisch.interop.vector (SlobberhannesVectorEnv).
 *
 * The Python reference is the same vector API over the scalar tables
 * (kartentisch.interop.encoding.SlobberhannesTable); the tests compare the two
 * deal by deal. Each game keeps its own Mersenne Twister, state for state the
 * generator of the scalar PettingZoo environment (CPython's random.Random:
 * the same seeding from an integer, getrandbits, randrange by rejection), so
 * a game deals what the scalar environment deals: dealer = randrange(n) unless
 * fixed, then a deal from Random(getrandbits(64)): the deck shuffled as
 * random.shuffle does and dealt in packets from the dealer's left.
 *
 * Cards are the 32 action ids (suit * 8 + rank, A = 0 … 7 = 7), hands bit
 * masks. Observations are written in the float32 layout of
 * encoding.slobberhannes_layout for the seat to move; rewards are minus the
 * chips each seat pays on the step. A finished deal is replaced by the next at
 * once (same-step autoreset). The step releases the GIL and may split the
 * games over threads.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 7
#define QC_ID 2

#include "_mt.h"
#include "_obs.h"

/* -- the game ------------------------------------------------------------------------ */

typedef struct {
    int n, hand_size, deck_len, npackets, penalty_revokes, all_three, fixed_dealer, obs_size;
    int8_t deck[32];
    int packets[8];
    /* observation offsets */
    int o_trick, o_played, o_leader, o_to_move, o_dealer, o_pen, o_done;
} Rules;

typedef struct {
    MT rng; /* the game's generator: dealers and deal seeds */
    uint32_t hands[MAXP], played[MAXP];
    int8_t trick_cards[MAXP], trick_seats[MAXP];
    int8_t count, leader, to_move, dealer, tricks, first_w, queen_w, pad;
    int penalties[MAXP], revokes[MAXP];
} Game;

/* The deal of SlobberhannesDeal.from_seed(seed) with ``dealer`` dealing. */
static void deal_from(const Rules *r, Game *g, uint64_t seed, int dealer) {
    int n = r->n;
    MT deal_rng;
    mt_seed64(&deal_rng, seed);
    int8_t deck[32];
    memcpy(deck, r->deck, (size_t)r->deck_len);
    for (int i = r->deck_len - 1; i > 0; i--) {
        int j = (int)mt_randbelow(&deal_rng, (uint32_t)(i + 1));
        int8_t t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
    memset(g->hands, 0, sizeof g->hands);
    memset(g->played, 0, sizeof g->played);
    memset(g->penalties, 0, sizeof g->penalties);
    memset(g->revokes, 0, sizeof g->revokes);
    int pos = 0;
    for (int p = 0; p < r->npackets; p++)
        for (int i = 0; i < n; i++) {
            int seat = (dealer + 1 + i) % n;
            for (int c = 0; c < r->packets[p]; c++) g->hands[seat] |= 1U << deck[pos++];
        }
    g->dealer = (int8_t)dealer;
    g->leader = g->to_move = (int8_t)((dealer + 1) % n);
    g->count = 0;
    g->tricks = 0;
    g->first_w = g->queen_w = -1;
}

/* The game's next deal, drawn from its own generator as the scalar environment draws it. */
static void deal_game(const Rules *r, Game *g) {
    int dealer = r->fixed_dealer >= 0 ? r->fixed_dealer : (int)mt_randbelow(&g->rng, (uint32_t)r->n);
    uint64_t lo = mt_next(&g->rng);
    uint64_t hi = mt_next(&g->rng);
    deal_from(r, g, lo | (hi << 32), dealer);
}

static inline uint32_t legal_mask(const Rules *r, const Game *g) {
    uint32_t hand = g->hands[g->to_move];
    if (g->count == 0 || r->penalty_revokes) return hand;
    uint32_t follow = hand & (0xFFU << (8 * (g->trick_cards[0] >> 3)));
    return follow ? follow : hand;
}

/* The observation of seat ``me``; the mask is all 0 unless ``me`` is to move. Once the deal
 * is over (every trick taken) nobody is to move: no leader, no seat to move, no mask. */
static void observe_as(const Rules *r, const Game *g, int me, float *obs, int8_t *mask) {
    int n = r->n, over = g->tricks >= r->hand_size;
    memset(obs, 0, sizeof(float) * (size_t)r->obs_size);
    uint32_t hand = g->hands[me];
    while (hand) {
        obs[__builtin_ctz(hand)] = 1.0f;
        hand &= hand - 1;
    }
    for (int i = 0; i < g->count; i++)
        obs[r->o_trick + 32 * ((g->trick_seats[i] - me + n) % n) + g->trick_cards[i]] = 1.0f;
    for (int s = 0; s < n; s++) {
        int row = (s - me + n) % n;
        uint32_t p = g->played[s];
        float *base = obs + r->o_played + 32 * row;
        while (p) {
            base[__builtin_ctz(p)] = 1.0f;
            p &= p - 1;
        }
        obs[r->o_pen + row] = (float)g->penalties[s];
    }
    if (!over) {
        obs[r->o_leader + (g->leader - me + n) % n] = 1.0f;
        obs[r->o_to_move + (g->to_move - me + n) % n] = 1.0f;
    }
    obs[r->o_dealer + (g->dealer - me + n) % n] = 1.0f;
    obs[r->o_done + g->tricks] = 1.0f;
    uint32_t legal = over || me != g->to_move ? 0U : legal_mask(r, g);
    for (int c = 0; c < 32; c++) mask[c] = (int8_t)((legal >> c) & 1U);
}

static void observe(const Rules *r, const Game *g, float *obs, int8_t *mask, int64_t *to_move) {
    observe_as(r, g, g->to_move, obs, mask);
    *to_move = g->to_move;
}

/* Play card ``a`` (legal) for the seat to move; add the chips paid to ``chips``; 1 if over. */
static int play(const Rules *r, Game *g, int a, int *chips) {
    int n = r->n, s = g->to_move;
    uint32_t bit = 1U << a;
    if (r->penalty_revokes && g->count) {
        uint32_t led = 0xFFU << (8 * (g->trick_cards[0] >> 3));
        if (!(bit & led) && (g->hands[s] & led)) g->revokes[s]++;
    }
    g->hands[s] &= ~bit;
    g->trick_cards[(int)g->count] = (int8_t)a;
    g->trick_seats[(int)g->count] = (int8_t)s;
    g->count++;
    if (g->count < n) {
        g->to_move = (int8_t)((s + 1) % n);
        return 0;
    }
    int suit = g->trick_cards[0] >> 3, best = g->trick_cards[0], w = g->trick_seats[0];
    uint32_t bits = 0;
    for (int i = 0; i < n; i++) {
        int c = g->trick_cards[i];
        bits |= 1U << c;
        g->played[(int)g->trick_seats[i]] |= 1U << c;
        if ((c >> 3) == suit && c < best) {
            best = c;
            w = g->trick_seats[i];
        }
    }
    g->tricks++;
    g->count = 0;
    g->leader = g->to_move = (int8_t)w;
    if (g->tricks == 1) {
        chips[w]++;
        g->first_w = (int8_t)w;
    }
    if (bits & (1U << QC_ID)) {
        chips[w]++;
        g->queen_w = (int8_t)w;
    }
    if (g->tricks < r->hand_size) return 0;
    chips[w]++;
    if (r->all_three && g->first_w == w && g->queen_w == w) chips[w]++;
    for (int i = 0; i < n; i++) chips[i] += g->revokes[i];
    return 1;
}

/* -- the Python type ------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD Rules rules;
    Py_ssize_t num;
    Game *games;
    uint64_t sampler;
    int last_chips[MAXP]; /* the chips paid on the last play_one */
    ObsRing ring;        /* aec_last's observations (_obs.h) */
} Batch;

static void Batch_dealloc(Batch *self) {
    ring_clear(&self->ring);
    PyMem_RawFree(self->games);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Batch_init(Batch *self, PyObject *args, PyObject *kwds) {
    (void)kwds;
    Py_ssize_t num;
    int n, hand_size, penalty, all_three, dealer;
    Py_buffer deck, packets;
    if (!PyArg_ParseTuple(args, "niiy*y*ppi", &num, &n, &hand_size, &deck, &packets, &penalty,
                          &all_three, &dealer))
        return -1;
    Rules *r = &self->rules;
    int ok = num > 0 && n >= 3 && n <= MAXP && deck.len <= 32 && packets.len <= 8 &&
             packets.len > 0 && dealer < n;
    int total = 0;
    if (ok) {
        for (Py_ssize_t i = 0; i < packets.len; i++) total += ((uint8_t *)packets.buf)[i];
        ok = total * n == deck.len && total == hand_size;
        for (Py_ssize_t i = 0; ok && i < deck.len; i++) ok = ((uint8_t *)deck.buf)[i] < 32;
    }
    if (!ok) {
        PyBuffer_Release(&deck);
        PyBuffer_Release(&packets);
        PyErr_SetString(PyExc_ValueError, "inconsistent Slobberhannes rules");
        return -1;
    }
    r->n = n;
    r->hand_size = hand_size;
    r->deck_len = (int)deck.len;
    memcpy(r->deck, deck.buf, (size_t)deck.len);
    r->npackets = (int)packets.len;
    for (int i = 0; i < r->npackets; i++) r->packets[i] = ((uint8_t *)packets.buf)[i];
    PyBuffer_Release(&deck);
    PyBuffer_Release(&packets);
    r->penalty_revokes = penalty;
    r->all_three = all_three;
    r->fixed_dealer = dealer;
    r->o_trick = 32;
    r->o_played = r->o_trick + 32 * n;
    r->o_leader = r->o_played + 32 * n;
    r->o_to_move = r->o_leader + n;
    r->o_dealer = r->o_to_move + n;
    r->o_pen = r->o_dealer + n;
    r->o_done = r->o_pen + n;
    r->obs_size = r->o_done + hand_size + 1;
    PyMem_RawFree(self->games);
    self->games = PyMem_RawCalloc((size_t)num, sizeof(Game));
    if (!self->games) {
        PyErr_NoMemory();
        return -1;
    }
    self->num = num;
    self->sampler = 0x9E3779B97F4A7C15ULL;
    return 0;
}

static int need(Py_buffer *b, Py_ssize_t size, const char *what) {
    if (b->len != size) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes expected, %zd given", what, size, b->len);
        return 0;
    }
    return 1;
}

/* reset(states): each game's generator from (624 words, index) as random.getstate()
 * gives them (a uint32 buffer of num * 625), then a deal each. */
static PyObject *Batch_reset(Batch *self, PyObject *args) {
    Py_buffer st;
    if (!PyArg_ParseTuple(args, "y*", &st)) return NULL;
    if (!need(&st, (Py_ssize_t)sizeof(uint32_t) * 625 * self->num, "states")) {
        PyBuffer_Release(&st);
        return NULL;
    }
    const uint32_t *w = st.buf;
    for (Py_ssize_t i = 0; i < self->num; i++) {
        Game *g = &self->games[i];
        memcpy(g->rng.mt, w + 625 * i, sizeof g->rng.mt);
        uint32_t idx = w[625 * i + 624];
        g->rng.idx = idx > MT_N ? MT_N : (int)idx;
        g->rng.done = MT_N;
    }
    PyBuffer_Release(&st);
    for (Py_ssize_t i = 0; i < self->num; i++) deal_game(&self->rules, &self->games[i]);
    Py_RETURN_NONE;
}

typedef struct {
    const Rules *r;
    Game *games;
    const int64_t *actions;
    float *obs;
    int8_t *mask;
    int64_t *to_move;
    float *rewards;
    uint8_t *over;
    Py_ssize_t lo, hi;
} Work;

static void *step_range(void *arg) {
    Work *w = arg;
    const Rules *r = w->r;
    int n = r->n;
    for (Py_ssize_t i = w->lo; i < w->hi; i++) {
        Game *g = &w->games[i];
        int chips[MAXP] = {0};
        int over = play(r, g, (int)w->actions[i], chips);
        float *rew = w->rewards + (size_t)i * n;
        for (int s = 0; s < n; s++) rew[s] = (float)-chips[s];
        if (over) {
            deal_game(r, g);
        } else {
            for (int s = 0; s < n; s++) g->penalties[s] += chips[s];
        }
        w->over[i] = (uint8_t)over;
        observe(r, g, w->obs + (size_t)i * r->obs_size, w->mask + (size_t)i * 32, w->to_move + i);
    }
    return NULL;
}

static void run_split(Work *base, Py_ssize_t num, int threads) {
    if (threads < 1) threads = 1;
    if (threads > 16) threads = 16;
    if (num < 64 * threads) threads = 1;
    Work works[16];
    pthread_t ids[16];
    int started[16] = {0};
    for (int t = 0; t < threads; t++) {
        works[t] = *base;
        works[t].lo = num * t / threads;
        works[t].hi = num * (t + 1) / threads;
    }
    for (int t = 1; t < threads; t++)
        started[t] = pthread_create(&ids[t], NULL, step_range, &works[t]) == 0;
    step_range(&works[0]);
    for (int t = 1; t < threads; t++) {
        if (started[t])
            pthread_join(ids[t], NULL);
        else
            step_range(&works[t]);
    }
}

static PyObject *Batch_step(Batch *self, PyObject *args) {
    Py_buffer act, obs, mask, tm, rew, over;
    int threads = 1;
    if (!PyArg_ParseTuple(args, "y*w*w*w*w*w*|i", &act, &obs, &mask, &tm, &rew, &over, &threads))
        return NULL;
    const Rules *r = &self->rules;
    Py_ssize_t num = self->num;
    PyObject *result = NULL;
    if (!need(&act, 8 * num, "actions") ||
        !need(&obs, (Py_ssize_t)sizeof(float) * r->obs_size * num, "observation") ||
        !need(&mask, 32 * num, "action_mask") || !need(&tm, 8 * num, "to_move") ||
        !need(&rew, (Py_ssize_t)sizeof(float) * r->n * num, "rewards") ||
        !need(&over, num, "terminations"))
        goto done;
    const int64_t *a = act.buf;
    for (Py_ssize_t i = 0; i < num; i++) {
        if (a[i] < 0 || a[i] >= 32 || !((legal_mask(r, &self->games[i]) >> a[i]) & 1U)) {
            PyErr_Format(PyExc_ValueError, "game %zd: action id %lld is not legal now", i,
                         (long long)a[i]);
            goto done;
        }
    }
    Work w = {r, self->games, a, obs.buf, mask.buf, tm.buf, rew.buf, over.buf, 0, num};
    Py_BEGIN_ALLOW_THREADS run_split(&w, num, threads);
    Py_END_ALLOW_THREADS result = Py_None;
    Py_INCREF(result);
done:
    PyBuffer_Release(&act);
    PyBuffer_Release(&obs);
    PyBuffer_Release(&mask);
    PyBuffer_Release(&tm);
    PyBuffer_Release(&rew);
    PyBuffer_Release(&over);
    return result;
}

static PyObject *Batch_observe(Batch *self, PyObject *args) {
    Py_buffer obs, mask, tm;
    if (!PyArg_ParseTuple(args, "w*w*w*", &obs, &mask, &tm)) return NULL;
    const Rules *r = &self->rules;
    Py_ssize_t num = self->num;
    PyObject *result = NULL;
    if (need(&obs, (Py_ssize_t)sizeof(float) * r->obs_size * num, "observation") &&
        need(&mask, 32 * num, "action_mask") && need(&tm, 8 * num, "to_move")) {
        for (Py_ssize_t i = 0; i < num; i++)
            observe(r, &self->games[i], (float *)obs.buf + (size_t)i * r->obs_size,
                    (int8_t *)mask.buf + 32 * i, (int64_t *)tm.buf + i);
        result = Py_None;
        Py_INCREF(result);
    }
    PyBuffer_Release(&obs);
    PyBuffer_Release(&mask);
    PyBuffer_Release(&tm);
    return result;
}

/* scores(out): each seat's score of the deal under way (minus the chips paid so far). */
static PyObject *Batch_scores(Batch *self, PyObject *args) {
    Py_buffer out;
    if (!PyArg_ParseTuple(args, "w*", &out)) return NULL;
    const Rules *r = &self->rules;
    if (!need(&out, (Py_ssize_t)sizeof(float) * r->n * self->num, "scores")) {
        PyBuffer_Release(&out);
        return NULL;
    }
    float *o = out.buf;
    for (Py_ssize_t i = 0; i < self->num; i++)
        for (int s = 0; s < r->n; s++) o[i * r->n + s] = (float)-self->games[i].penalties[s];
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

static inline uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static PyObject *Batch_seed_sampler(Batch *self, PyObject *args) {
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "K", &seed)) return NULL;
    self->sampler = seed;
    Py_RETURN_NONE;
}

/* sample(out): a legal action id per game, uniformly at random (splitmix64). */
static PyObject *Batch_sample(Batch *self, PyObject *args) {
    Py_buffer out;
    if (!PyArg_ParseTuple(args, "w*", &out)) return NULL;
    if (!need(&out, 8 * self->num, "actions")) {
        PyBuffer_Release(&out);
        return NULL;
    }
    int64_t *o = out.buf;
    for (Py_ssize_t i = 0; i < self->num; i++) {
        uint32_t legal = legal_mask(&self->rules, &self->games[i]);
        uint32_t k = (uint32_t)(((splitmix(&self->sampler) >> 32) * __builtin_popcount(legal)) >> 32);
        while (k--) legal &= legal - 1;
        o[i] = __builtin_ctz(legal);
    }
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

/* -- one game at a time, no autoreset (the PettingZoo AEC environment) ---------------- */

static int game_index(Batch *self, Py_ssize_t i) {
    if (i < 0 || i >= self->num) {
        PyErr_Format(PyExc_IndexError, "game %zd: there are %zd games", i, self->num);
        return 0;
    }
    return 1;
}

/* deal_one(i, seed, dealer) -> the seat to move: game ``i`` dealt as
 * SlobberhannesDeal.from_seed(seed) with ``dealer`` dealing (0 <= seed < 2**64). */
static PyObject *Batch_deal_one(Batch *self, PyObject *args) {
    Py_ssize_t i;
    unsigned long long seed;
    int dealer;
    if (!PyArg_ParseTuple(args, "nKi", &i, &seed, &dealer)) return NULL;
    if (!game_index(self, i)) return NULL;
    if (dealer < 0 || dealer >= self->rules.n) {
        PyErr_Format(PyExc_ValueError, "dealer %d is not a seat", dealer);
        return NULL;
    }
    Game *g = &self->games[i];
    deal_from(&self->rules, g, (uint64_t)seed, dealer);
    return PyLong_FromLong(g->to_move);
}

/* play_one(i, action) -> code: game ``i``'s seat to move plays ``action``, and the deal is
 * not replaced when it ends. The code is -1 for an action that is not legal now (nothing
 * changes), else the next seat to move, or the number of players once the deal is over,
 * plus 256 when somebody paid chips on the step (last_rewards() gives them). */
/* play_one's code for game ``g`` and action ``a``. */
static long play_code(Batch *self, Game *g, long a) {
    const Rules *r = &self->rules;
    if (g->tricks >= r->hand_size || a < 0 || a >= 32 || !((legal_mask(r, g) >> a) & 1U))
        return -1;
    int *chips = self->last_chips;
    memset(chips, 0, sizeof self->last_chips);
    int over = play(r, g, (int)a, chips);
    int scored = 0;
    for (int s = 0; s < r->n; s++) {
        g->penalties[s] += chips[s];
        scored |= chips[s] != 0;
    }
    return (over ? r->n : g->to_move) + (scored ? 256 : 0);
}

static PyObject *Batch_play_one(Batch *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "play_one(i, action) takes 2 arguments");
        return NULL;
    }
    Py_ssize_t i = PyLong_AsSsize_t(args[0]);
    long a = PyLong_AsLong(args[1]);
    if (PyErr_Occurred() || !game_index(self, i)) return NULL;
    return PyLong_FromLong(play_code(self, &self->games[i], a));
}

/* last_rewards() -> each seat's reward of the last play_one: minus the chips it paid. */
static PyObject *Batch_last_rewards(Batch *self, PyObject *unused) {
    (void)unused;
    PyObject *out = PyTuple_New(self->rules.n);
    if (!out) return NULL;
    for (int s = 0; s < self->rules.n; s++) {
        PyObject *x = PyFloat_FromDouble(-(double)self->last_chips[s]);
        if (!x) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, s, x);
    }
    return out;
}

/* The game index and seat of observe_seat's and observe_new's first two arguments: 0,
 * or -1 with the error set. */
static int game_and_seat(Batch *self, PyObject *const *args, Py_ssize_t *i, long *seat) {
    *i = PyLong_AsSsize_t(args[0]);
    *seat = PyLong_AsLong(args[1]);
    if (PyErr_Occurred() || !game_index(self, *i)) return -1;
    if (*seat < 0 || *seat >= self->rules.n) {
        PyErr_Format(PyExc_ValueError, "seat %ld is not a seat", *seat);
        return -1;
    }
    return 0;
}

/* Game ``i`` as ``seat`` sees it, written into the writable arrays ``obs`` and ``mask``:
 * 0, or -1 with the error set. */
static int write_observation(Batch *self, Py_ssize_t i, long seat, PyObject *obs, PyObject *mask) {
    Py_buffer ob, mb;
    if (PyObject_GetBuffer(obs, &ob, PyBUF_WRITABLE) < 0) return -1;
    if (PyObject_GetBuffer(mask, &mb, PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&ob);
        return -1;
    }
    int ok = need(&ob, (Py_ssize_t)sizeof(float) * self->rules.obs_size, "observation") &&
             need(&mb, 32, "action_mask");
    if (ok) observe_as(&self->rules, &self->games[i], (int)seat, ob.buf, mb.buf);
    PyBuffer_Release(&ob);
    PyBuffer_Release(&mb);
    return ok ? 0 : -1;
}

/* observe_seat(i, seat, observation, action_mask): game ``i`` as ``seat`` sees it (the
 * mask all 0 unless ``seat`` is to move), also after the deal is over. */
static PyObject *Batch_observe_seat(Batch *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError,
                        "observe_seat(i, seat, observation, action_mask) takes 4 arguments");
        return NULL;
    }
    Py_ssize_t i;
    long seat;
    if (game_and_seat(self, args, &i, &seat) < 0 || write_observation(self, i, seat, args[2], args[3]) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* observe_new(i, seat, empty, float32, int8) -> {"observation": ..., "action_mask": ...}:
 * observe_seat into two new arrays, empty(obs_size, float32) and empty(actions, int8)
 * (numpy.empty and numpy's dtypes from the caller: the module builds without NumPy). */
static PyObject *Batch_observe_new(Batch *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError,
                        "observe_new(i, seat, empty, float32, int8) takes 5 arguments");
        return NULL;
    }
    Py_ssize_t i;
    long seat;
    if (game_and_seat(self, args, &i, &seat) < 0) return NULL;
    PyObject *obs = new_array(args[2], self->rules.obs_size, args[3]);
    if (!obs) return NULL;
    PyObject *mask = new_array(args[2], 32, args[4]);
    PyObject *result = NULL;
    if (mask && write_observation(self, i, seat, obs, mask) == 0) result = observation_dict(obs, mask);
    Py_DECREF(obs);
    Py_XDECREF(mask);
    return result;
}

static PyObject *Batch_obs_size(Batch *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->rules.obs_size);
}

/* The PettingZoo environment's short way (_aec.h) on game 0. */
#define AEC_ACTIONS 32
static int aec_seats(const Batch *self) { return self->rules.n; }
static Py_ssize_t aec_obs_size(const Batch *self) { return self->rules.obs_size; }
static void aec_write(void *batch, int seat, float *obs, int8_t *mask) {
    Batch *self = batch;
    observe_as(&self->rules, &self->games[0], seat, obs, mask);
}
static long aec_play(Batch *self, long a) { return play_code(self, &self->games[0], a); }
static double aec_reward(const Batch *self, int seat) { return -(double)self->last_chips[seat]; }
#include "_aec.h"

static PyMethodDef Batch_methods[] = {
    {"reset", (PyCFunction)Batch_reset, METH_VARARGS, "Seed every game's generator and deal."},
    {"step", (PyCFunction)Batch_step, METH_VARARGS, "Play one action in every game."},
    {"observe", (PyCFunction)Batch_observe, METH_VARARGS, "Write every game's observation."},
    {"scores", (PyCFunction)Batch_scores, METH_VARARGS, "Write every game's scores so far."},
    {"seed_sampler", (PyCFunction)Batch_seed_sampler, METH_VARARGS, "Seed sample()."},
    {"sample", (PyCFunction)Batch_sample, METH_VARARGS, "A random legal action per game."},
    {"deal_one", (PyCFunction)Batch_deal_one, METH_VARARGS, "Deal one game from a seed."},
    {"play_one", (PyCFunction)(void (*)(void))Batch_play_one, METH_FASTCALL,
     "Play one action in one game, no autoreset."},
    {"last_rewards", (PyCFunction)Batch_last_rewards, METH_NOARGS, "The last play_one's rewards."},
    {"observe_seat", (PyCFunction)(void (*)(void))Batch_observe_seat, METH_FASTCALL,
     "One seat's observation."},
    {"observe_new", (PyCFunction)(void (*)(void))Batch_observe_new, METH_FASTCALL,
     "One seat's observation in new arrays, as a dict."},
    AEC_METHODS
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Batch_getset[] = {
    {"obs_size", (getter)Batch_obs_size, NULL, "The observation vector's length.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "kartentisch.interop._vecslob.Batch",
    .tp_basicsize = sizeof(Batch),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Slobberhannes deals stepped together.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Batch_init,
    .tp_dealloc = (destructor)Batch_dealloc,
    .tp_methods = Batch_methods,
    .tp_getset = Batch_getset,
};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_vecslob",
                                    "Slobberhannes deals stepped in batches.", -1, NULL, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__vecslob(void) {
    init_seed_base();
    if (init_observation_keys() < 0 || init_aec_names() < 0) return NULL;
    if (PyType_Ready(&BatchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&MODULE);
    if (!m) return NULL;
    Py_INCREF(&BatchType);
    if (PyModule_AddObject(m, "Batch", (PyObject *)&BatchType) < 0) {
        Py_DECREF(&BatchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
