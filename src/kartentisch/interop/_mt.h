/* CPython's Mersenne Twister in C, shared by the compiled games of the vector
 * environments (_vecslob.c, _vecdoko.c): random.Random(seed) for a 64-bit seed,
 * getrandbits and _randbelow_with_getrandbits word for word, so that dealing in C
 * gives the deals the Python engine gives. Included by each; nothing exported. */
#ifndef KARTENTISCH_MT_H
#define KARTENTISCH_MT_H

#include <stdint.h>
#include <string.h>

#define MT_N 624
#define MT_M 397

/* -- CPython's Mersenne Twister, generated lazily one word at a time ------------- */

typedef struct {
    uint32_t mt[MT_N];
    int idx;  /* the next word to hand out */
    int done; /* words of the current block already twisted */
} MT;

static uint32_t SEED_BASE[MT_N]; /* init_genrand(19650218), the start of every seeding */

static void init_seed_base(void) {
    SEED_BASE[0] = 19650218U;
    for (int i = 1; i < MT_N; i++)
        SEED_BASE[i] = 1812433253U * (SEED_BASE[i - 1] ^ (SEED_BASE[i - 1] >> 30)) + (uint32_t)i;
}

/* random.Random(seed) for 0 <= seed < 2**64 (the key: its 32-bit words, low first). */
static void mt_seed64(MT *m, uint64_t seed) {
    uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    int keylen = (seed >> 32) ? 2 : 1;
    uint32_t *mt = m->mt;
    memcpy(mt, SEED_BASE, sizeof SEED_BASE);
    int i = 1, j = 0;
    for (int k = MT_N; k; k--) { /* MT_N > keylen */
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
        if (j >= keylen) j = 0;
    }
    for (int k = MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000U;
    m->idx = MT_N;
    m->done = MT_N;
}

static inline uint32_t mt_next(MT *m) {
    if (m->idx >= MT_N) {
        m->idx = 0;
        m->done = 0;
    }
    uint32_t *mt = m->mt;
    while (m->done <= m->idx) {
        int kk = m->done++;
        uint32_t y = (mt[kk] & 0x80000000U) | (mt[(kk + 1) % MT_N] & 0x7fffffffU);
        mt[kk] = mt[(kk + MT_M) % MT_N] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
    }
    uint32_t y = mt[m->idx++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

static inline int bit_length(uint32_t n) { return n ? 32 - __builtin_clz(n) : 0; }

/* getrandbits(k) for 1 <= k <= 32; randbelow(n) as random._randbelow_with_getrandbits. */
static inline uint32_t mt_randbelow(MT *m, uint32_t n) {
    int k = bit_length(n);
    uint32_t r = mt_next(m) >> (32 - k);
    while (r >= n) r = mt_next(m) >> (32 - k);
    return r;
}

#endif
