/*
 * Many Doppelkopf deals under the house or the DDV preset stepped in one call: the compiled
 * half of kartentisch.interop.vector (DoppelkopfVectorEnv, backend "c").
 *
 * The reference is the same vector API over the scalar tables
 * (kartentisch.interop.encoding.DoppelkopfTable on the engine,
 * kartentisch.games.doppelkopf); the tests compare the two step by step. Only
 * the house preset (DoppelkopfOptions() as it is: 4 players, no nines, Dullen,
 * Scharfe, the sheet's declarations and nine soli with ouvert, Hochzeit by
 * choice within 3 tricks or alone as a Trumpfsolo, stille Hochzeit, Armut with
 * its exchange, five kings thrown in, announcements with all ten cards, the
 * house score with Fuchs, Dulle, Doppelkopf, Karlchen and Rot geht rum) and the
 * DDV preset (DoppelkopfOptions.from_dict({"preset": "ddv"}): 48 cards with the
 * nines dealt 3-3-3-3, gesund or Vorbehalt then the reservation named, the seven
 * DDV soli with the suit in the diamonds' place, each a Pflichtsolo led by its
 * soloist, the Hochzeit's first trick within 3, the silent solo the diamonds
 * solo, no Armut, no Scharfe, no throwing in, the TSR announcement deadlines
 * with replies and the Hochzeit's shift, the DDV score: winning, stages,
 * announcements, Augen against, Fuchs, Doppelkopf, Karlchen, gegen die Alten, a
 * soloist three times) are played here, selected by the Batch's ``ddv``
 * argument; every other option set stays with the engine.
 *
 * Each game keeps its own Mersenne Twister, state for state the generator of
 * the scalar PettingZoo environment (as _vecslob.c): dealer = randrange(4)
 * unless fixed, then the deal of DoppelkopfDeal.from_seed(getrandbits(64)): the
 * deck shuffled as random.shuffle does and dealt 3-4-3 (DDV: 3-3-3-3) from the
 * dealer's left.
 *
 * Cards are the 24 card ids of the encoding (suit * 6 + A K Q J 10 9), hands
 * counts by id; words the ids 24-72 of encoding.DOPPELKOPF_WORDS. The
 * observation of the seat to move is written in the float32 layout of
 * encoding.doppelkopf_layout(4, 10) (DDV: (4, 12), 632 values); the rewards are
 * the sheet's points of a deal on the step that ends it (a deal thrown in
 * scores 0). A finished deal is replaced by the next at once (same-step
 * autoreset). The step releases the GIL and may split the games over threads.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>


#include "_mt.h"
#include "_obs.h"

/* -- the cards, the words, the layout ------------------------------------------------ */

#define NP 4
#define HAND 12 /* the most cards a hand holds (DDV: 12; house: 10) */
#define DECK 48 /* the most cards a deck holds (DDV: 48; house: 40) */
#define NIDS 24
#define NACT 73
#define TRUMP 4

enum { AC = 0, QC = 2, JC = 3, AH = 12, KH = 13, TH = 16, AD = 18 };
enum { W_PASS = 24, W_VORBEHALT = 25, W_REDEAL = 26, W_SCH_A = 27, W_SCH_K = 28, W_SCH_AK = 29,
       W_HZ = 31,
       W_HZ_DDV = 30, W_ARMUT = 34, W_ACCEPT = 35, W_REFUSE = 36, W_SOLO = 37, W_ANN = 57 };
enum { P_DECLARE, P_ANSWER, P_GIVE, P_RETURN, P_PLAY, P_DONE, P_REDEAL };
enum { RE = 0, KONTRA = 1 };
/* Game types: their index in encoding.SEEN_GAME_TYPES (a solo of kind k is 4 + k). */
enum { GT_NORMAL = 1, GT_HOCHZEIT = 2, GT_ARMUT = 3, GT_TRUMP = 4, GT_QUEENS, GT_JACKS, GT_CLUBS,
       GT_SPADES, GT_HEARTS, GT_DIAMONDS, GT_NO_TRUMP, GT_NULL, GT_FLEISCHLOS };
#define NSOLI 9

/* encoding.doppelkopf_layout(4, hand): the blocks up to tricks_done do not depend on the hand
 * size; tricks_done has hand + 1 entries, the selection (24) follows it. */
enum { O_HAND = 0, O_TRICK = 24, O_PLAYED = 120, O_LEADER = 216, O_TO_MOVE = 220, O_DEALER = 224,
       O_PHASE = 228, O_ROUND = 235, O_SAID = 240, O_GAME_TYPE = 436, O_SOLOIST = 455,
       O_OPEN = 459, O_HZ = 483, O_HZ_PARTNER = 487, O_ARMUT = 491, O_ARMUT_PARTNER = 495,
       O_GIVEN = 499, O_RETURNED = 523, O_ARMUT_TRUMPS = 547, O_SCHARFE = 549, O_TRUMPS = 557,
       O_PARTY = 581, O_REVEALED = 583, O_AUGEN = 591, O_DONE = 595 };
static inline int o_selection(int hand) { return O_DONE + hand + 1; }
static inline int obs_size(int hand) { return O_DONE + hand + 1 + NIDS; }
#define NWORDS 49

/* Augen and the plain power (A 10 K Q J 9) by rank position (A K Q J 10 9). */
static const int AUGEN_R[6] = {11, 4, 3, 2, 10, 0};
static const int PLAIN_R[6] = {6, 4, 3, 2, 5, 1};
/* The sheet's solo ranking of the house kinds (trump, queens, jacks, clubs, spades,
 * hearts, diamonds, no_trump, null); ouvert adds 100. */
static const int SOLO_RANK[NSOLI] = {0, -5, -6, -8, -9, -10, -11, -12, -13};
static inline int augen(int id) { return AUGEN_R[id % 6]; }

typedef struct {
    int8_t seat, party, word; /* word: 0 re, 1 kontra, 2 no90 … 5 schwarz */
} Ann;

typedef struct {
    MT rng;
    int8_t ddv, hand; /* the rules (kept across deals) */
    int points[NP];
    int16_t augen[NP], power[NIDS], nsets;
    int8_t dealer, phase, round, to_move, over;
    int8_t hands[NP][NIDS], hand_len[NP], init_qc[NP], kings[NP];
    int8_t asking[NP], nask;
    uint64_t said[NP]; /* word bits (id - 24) each seat said: declarations, announcements */
    int8_t sch_aces, sch_kings, claim_seat, claim_kind, claim_ouvert, hz_by, hz_rule, armut_by;
    int8_t gt, solo, ouvert, silent, soloist, armut_partner, armut_trumps, armut_ret_trumps;
    int8_t given[NIDS], returned[NIDS];
    int8_t re_known, re_mask, hz_partner, hz_trick, vorbehalt;
    int8_t suit_of[NIDS];
    int8_t leader, count, ntricks;
    int8_t trick_cards[NP], trick_seats[NP];
    int8_t t_cards[HAND][NP], t_seats[HAND][NP], t_winner[HAND];
    int8_t played[NP][NIDS];
    int8_t nann;
    Ann ann[16];
    uint8_t party_said[2]; /* word bits (0 re … 5 schwarz) each party said */
    int8_t sel[3], nsel;
    uint8_t legal[NACT + 7];
    int8_t sets[300][3]; /* the exchanges the engine accepts (ascending ids) */
} Game;

typedef struct {
    int fixed_dealer;
    int ddv;           /* 0: the house preset; 1: the DDV preset */
    int hand, ndeck, nids, obs_size;
    int8_t deck[DECK]; /* options.deck() as card ids */
    int8_t ids[NIDS];  /* the deck's distinct ids */
} Rules;

/* The trick order of game type ``gt`` with the Scharfe declared (normal order only). */
static void set_order(Game *g, int gt) {
    int8_t trumps[16];
    int nt = 0;
    int normal = (gt >= GT_NORMAL && gt <= GT_TRUMP) || (g->ddv && gt == GT_DIAMONDS);
    if (normal || (g->ddv && gt >= GT_CLUBS && gt <= GT_HEARTS)) {
        /* The normal order; a DDV suit solo puts its suit in the diamonds' place. */
        if (normal && g->sch_aces >= 0) trumps[nt++] = AH;
        trumps[nt++] = TH;
        if (normal && g->sch_kings >= 0) trumps[nt++] = KH;
        static const int8_t pictures[] = {2, 8, 14, 20, 3, 9, 15, 21};
        for (int i = 0; i < 8; i++) trumps[nt++] = pictures[i];
        int s = normal ? 3 : gt - GT_CLUBS;
        static const int8_t low[] = {0, 4, 1, 5}; /* A 10 K (9) */
        for (int i = 0; i < (g->ddv ? 4 : 3); i++) {
            int8_t id = (int8_t)(s * 6 + low[i]);
            if (id != TH) trumps[nt++] = id;
        }
    } else if (gt == GT_QUEENS || gt == GT_JACKS) {
        for (int s = 0; s < 4; s++) trumps[nt++] = (int8_t)(s * 6 + (gt == GT_QUEENS ? 2 : 3));
    } else if (!g->ddv && gt >= GT_CLUBS && gt <= GT_DIAMONDS) {
        int s = gt - GT_CLUBS;
        static const int8_t ranks[] = {0, 4, 1, 2, 3}; /* A 10 K Q J */
        for (int i = 0; i < 5; i++) trumps[nt++] = (int8_t)(s * 6 + ranks[i]);
    }
    for (int id = 0; id < NIDS; id++) {
        g->suit_of[id] = (int8_t)(id / 6);
        g->power[id] = (int16_t)PLAIN_R[id % 6];
    }
    for (int i = 0; i < nt; i++) {
        g->suit_of[trumps[i]] = TRUMP;
        g->power[trumps[i]] = (int16_t)(100 + nt - i);
    }
}

static inline int trumps_in(const Game *g, const int8_t *counts) {
    int t = 0;
    for (int id = 0; id < NIDS; id++)
        if (g->suit_of[id] == TRUMP) t += counts[id];
    return t;
}

static inline int party_of(const Game *g, int s) {
    if (g->re_known) return (g->re_mask >> s) & 1 ? RE : KONTRA;
    if (g->phase == P_PLAY && g->gt == GT_HOCHZEIT && s == g->hz_by) return RE;
    return -1;
}

static inline int claim_rank(const Game *g) {
    return g->claim_seat < 0 ? -1000 : SOLO_RANK[(int)g->claim_kind] + (g->claim_ouvert ? 100 : 0);
}

static void deal_game(const Rules *r, Game *g);
static void compute_legal(Game *g);

/* -- declarations, the Armut ------------------------------------------------------------- */

static void build_sets(Game *g) {
    int s = g->to_move, give = g->phase == P_GIVE;
    const int8_t *h = g->hands[s];
    int plain = 0;
    for (int id = 0; id < NIDS; id++)
        if (g->suit_of[id] != TRUMP) plain += h[id];
    int allowed = 3 - plain > 0 ? 3 - plain : 0; /* trumps that may go back (plain first) */
    g->nsets = 0;
    int8_t left[NIDS];
    for (int a = 0; a < NIDS; a++) {
        if (!h[a]) continue;
        for (int b = a; b < NIDS; b++) {
            if (!h[b] || (b == a && h[a] < 2)) continue;
            for (int c = b; c < NIDS; c++) {
                if (!h[c]) continue;
                memcpy(left, h, NIDS);
                if (--left[a] < 0 || --left[b] < 0 || --left[c] < 0) continue;
                int ok;
                if (give) {
                    ok = 1;
                    for (int id = 0; id < NIDS && ok; id++)
                        if (g->suit_of[id] == TRUMP && left[id]) ok = 0;
                } else {
                    int t = (g->suit_of[a] == TRUMP) + (g->suit_of[b] == TRUMP) +
                            (g->suit_of[c] == TRUMP);
                    ok = t <= allowed;
                }
                if (ok) {
                    int8_t *set = g->sets[g->nsets++];
                    set[0] = (int8_t)a;
                    set[1] = (int8_t)b;
                    set[2] = (int8_t)c;
                }
            }
        }
    }
}

static void start_play(Game *g) {
    int holders = 0, both = -1;
    for (int s = 0; s < NP; s++) {
        if (g->hands[s][QC]) holders |= 1 << s;
        if (g->hands[s][QC] == 2) both = s;
    }
    g->re_known = 0;
    g->re_mask = 0;
    if (g->claim_seat >= 0) {
        g->gt = (int8_t)(GT_TRUMP + g->claim_kind);
        g->solo = 1;
        g->ouvert = g->claim_ouvert;
        g->soloist = g->claim_seat;
        g->re_known = 1;
        g->re_mask = (int8_t)(1 << g->claim_seat);
    } else if (g->armut_by >= 0) {
        g->gt = GT_ARMUT;
        int re = 0;
        for (int s = 0; s < NP; s++)
            if (g->init_qc[s]) re |= 1 << s;
        if (__builtin_popcount((unsigned)re) == 1) re |= 1 << g->armut_by;
        g->re_known = 1;
        g->re_mask = (int8_t)re;
    } else if (g->hz_by >= 0) {
        g->gt = GT_HOCHZEIT;
    } else if (both >= 0) {
        g->gt = g->ddv ? GT_DIAMONDS : GT_TRUMP; /* DDV: the silent solo is the diamonds solo */
        g->solo = 1;
        g->silent = 1;
        g->soloist = (int8_t)both;
        g->re_known = 1;
        g->re_mask = (int8_t)(1 << both);
    } else {
        g->gt = GT_NORMAL;
        g->re_known = 1;
        g->re_mask = (int8_t)holders;
    }
    set_order(g, g->gt);
    g->phase = P_PLAY;
    g->leader = g->to_move = (int8_t)((g->dealer + 1) % NP);
    /* DDV: every seat owes its Pflichtsolo in a single deal, so a declared solo is one,
     * led by its soloist (TSR 4.2). */
    if (g->ddv && g->claim_seat >= 0) g->leader = g->to_move = g->claim_seat;
    g->count = 0;
}

static void offer_armut(Game *g) {
    int poor = g->armut_by, partner = -1, both = -1;
    for (int s = 0; s < NP; s++)
        if (g->hands[s][QC] == 2) both = s;
    if (both >= 0) {
        partner = both;
    } else if (g->hands[poor][QC]) {
        for (int s = 0; s < NP; s++)
            if (s != poor && g->hands[s][QC]) partner = s;
    } else {
        for (int i = 0; i < NP && partner < 0; i++) {
            int s = (g->dealer + 1 + i) % NP;
            if (s != poor && !g->hands[s][QC]) partner = s;
        }
    }
    g->armut_partner = (int8_t)partner;
    g->armut_trumps = (int8_t)trumps_in(g, g->hands[poor]);
    g->phase = P_ANSWER;
    g->to_move = (int8_t)partner;
}

static void end_declarations(Game *g) {
    if (g->claim_seat < 0 && g->armut_by >= 0)
        offer_armut(g);
    else
        start_play(g);
}

static int may_declare_armut(const Game *g, int s) {
    return g->armut_by < 0 && g->hands[s][QC] < 2 && trumps_in(g, g->hands[s]) <= 3;
}

static void declaration_legal(const Game *g, int s, uint8_t *legal) {
    const int8_t *h = g->hands[s];
    if (g->round == 0) {
        int aces = h[AH] == 2, kings = h[KH] == 2;
        if (aces) legal[W_SCH_A] = 1;
        if (kings) legal[W_SCH_K] = 1;
        if (aces && kings) legal[W_SCH_AK] = 1;
        legal[W_PASS] = 1;
    } else if (g->round == 1) {
        legal[W_PASS] = 1;
        int floor = claim_rank(g);
        for (int k = 0; k < NSOLI; k++)
            for (int o = 0; o < 2; o++)
                if (SOLO_RANK[k] + 100 * o > floor) legal[W_SOLO + 2 * k + o] = 1;
    } else {
        legal[W_PASS] = 1;
        if (h[QC] == 2) {
            legal[W_HZ] = legal[W_HZ + 1] = legal[W_HZ + 2] = 1;
        } else if (may_declare_armut(g, s)) {
            legal[W_ARMUT] = 1;
        }
    }
    if (g->kings[s] >= 5) legal[W_REDEAL] = 1;
}

/* DDV (TSR 4.1): "gesund" or Vorbehalt (round 3), then those with a Vorbehalt name it
 * (round 4): a solo (every seat owes its Pflichtsolo: the first solo named stands) or a
 * Hochzeit. A Vorbehalt is always possible (a solo is). */
static void ddv_declaration_legal(const Game *g, int s, uint8_t *legal) {
    if (g->round == 3) {
        legal[W_PASS] = legal[W_VORBEHALT] = 1;
        return;
    }
    if (g->claim_seat >= 0 || g->hz_by >= 0) legal[W_PASS] = 1;
    if (g->claim_seat < 0) {
        static const int kinds[] = {1, 2, 3, 4, 5, 6, 9}; /* DDV_SOLI */
        for (int i = 0; i < 7; i++) legal[W_SOLO + 2 * kinds[i]] = 1;
        if (g->hands[s][QC] == 2) legal[W_HZ_DDV] = 1;
    }
}

static int ddv_declare(Game *g, int a) {
    int s = g->asking[0];
    g->said[s] |= 1ULL << (a - 24);
    if (a == W_VORBEHALT) {
        g->vorbehalt |= (int8_t)(1 << s);
    } else if (a >= W_SOLO && a < W_SOLO + 2 * 10) {
        g->claim_seat = (int8_t)s;
        g->claim_kind = (int8_t)((a - W_SOLO) / 2);
        g->claim_ouvert = 0;
    } else if (a == W_HZ_DDV) {
        g->hz_by = (int8_t)s;
        g->hz_rule = 0; /* first_trick */
    }
    for (int i = 1; i < g->nask; i++) g->asking[i - 1] = g->asking[i];
    g->nask--;
    if (g->round == 4 && g->claim_seat >= 0) g->nask = 0; /* nobody outranks it */
    while (!g->nask) {
        g->round++;
        if (g->round == 4) {
            for (int i = 0; i < NP; i++) {
                int seat = (g->dealer + 1 + i) % NP;
                if ((g->vorbehalt >> seat) & 1) g->asking[(int)g->nask++] = (int8_t)seat;
            }
        } else {
            start_play(g);
            break;
        }
    }
    if (g->phase == P_DECLARE) g->to_move = g->asking[0];
    return 0;
}

static int declare(Game *g, int a) {
    if (g->ddv) return ddv_declare(g, a);
    int s = g->asking[0];
    g->said[s] |= 1ULL << (a - 24);
    if (a == W_REDEAL) {
        g->phase = P_REDEAL;
        return 1;
    }
    if (a >= W_SCH_A && a <= W_SCH_AK) {
        if (a != W_SCH_K) g->sch_aces = (int8_t)s;
        if (a != W_SCH_A) g->sch_kings = (int8_t)s;
        set_order(g, GT_NORMAL);
    } else if (a >= W_SOLO && a < W_SOLO + 2 * NSOLI) {
        g->claim_seat = (int8_t)s;
        g->claim_kind = (int8_t)((a - W_SOLO) / 2);
        g->claim_ouvert = (int8_t)((a - W_SOLO) % 2);
    } else if (a >= W_HZ && a < W_HZ + 3) {
        g->hz_by = (int8_t)s;
        g->hz_rule = (int8_t)(a - W_HZ);
    } else if (a == W_ARMUT) {
        g->armut_by = (int8_t)s;
    }
    for (int i = 1; i < g->nask; i++) g->asking[i - 1] = g->asking[i];
    g->nask--;
    /* Nothing can outrank the solo declared: the round ends. */
    if (g->round == 1 && g->nask && claim_rank(g) >= 100) g->nask = 0;
    while (!g->nask) {
        g->round++;
        if (g->round < 3) {
            if (g->round == 2 && g->claim_seat >= 0) {
                g->round = 3;
                end_declarations(g);
            } else {
                for (int i = 0; i < NP; i++) g->asking[i] = (int8_t)((g->dealer + 1 + i) % NP);
                g->nask = NP;
            }
        } else {
            end_declarations(g);
        }
        if (g->phase != P_DECLARE) break;
    }
    if (g->phase == P_DECLARE) g->to_move = g->asking[0];
    return 0;
}

static int answer(Game *g, int a) {
    if (a == W_REFUSE) {
        g->phase = P_REDEAL;
        return 1;
    }
    if (g->sch_aces == g->armut_by || g->sch_aces == g->armut_partner) g->sch_aces = -1;
    if (g->sch_kings == g->armut_by || g->sch_kings == g->armut_partner) g->sch_kings = -1;
    set_order(g, GT_NORMAL);
    g->phase = P_GIVE;
    g->to_move = g->armut_by;
    g->nsel = 0;
    build_sets(g);
    return 0;
}

static void pick(Game *g, int a) {
    g->sel[(int)g->nsel++] = (int8_t)a;
    if (g->nsel < 3) return;
    int s = g->to_move, give = g->phase == P_GIVE;
    int to = give ? g->armut_partner : g->armut_by;
    int8_t *into = give ? g->given : g->returned;
    for (int i = 0; i < 3; i++) {
        g->hands[s][(int)g->sel[i]]--;
        g->hands[to][(int)g->sel[i]]++;
        into[(int)g->sel[i]]++;
    }
    g->nsel = 0;
    if (give) {
        g->phase = P_RETURN;
        g->to_move = (int8_t)to;
        build_sets(g);
    } else {
        g->armut_ret_trumps = (int8_t)trumps_in(g, g->returned);
        start_play(g);
    }
}

/* -- play, announcements, the score --------------------------------------------------------- */

static void announcement_legal(const Game *g, int s, uint8_t *legal) {
    int p = party_of(g, s);
    if (p < 0) return;
    if (g->gt == GT_ARMUT && (s == g->armut_by || s == g->armut_partner)) return;
    uint8_t said = g->party_said[p];
    if (g->solo && !g->silent) { /* a house solo: the opponents' Kontra only */
        if (s != g->soloist && !(said & 2)) legal[W_ANN + 1] = 1;
        return;
    }
    if (!(said & (1 << p))) legal[W_ANN + p] = 1;
    for (int w = 2; w < 6; w++)
        if (!(said & (1 << w))) legal[W_ANN + w] = 1;
}

/* DDV timing (TSR 6): a word needs size - 1 - its stage cards in hand, and so does every
 * lower word of the party it implies; Re or Kontra alone answers the other party one card
 * later than that party's highest word needed; a Hochzeit waits for its deciding trick and
 * then the deadlines drop by that trick's number minus one. */
static void ddv_announcement_legal(const Game *g, int s, uint8_t *legal) {
    int p = party_of(g, s);
    if (p < 0) return;
    if (g->gt == GT_HOCHZEIT && g->hz_partner < 0) return;
    int shift = g->gt == GT_HOCHZEIT && g->hz_trick > 0 ? g->hz_trick - 1 : 0;
    int size = g->hand, cards = g->hand_len[s];
    uint8_t said = g->party_said[p], theirs = g->party_said[1 - p];
    int top = -1;
    for (int x = 0; x < 6; x++)
        if ((theirs & (1 << x)) && (x < 2 ? 0 : x - 1) > top) top = x < 2 ? 0 : x - 1;
    int chain[5] = {p, 2, 3, 4, 5};
    int first = -1; /* the stage of the party's lowest word not said yet */
    for (int i = 0; i < 5; i++) {
        int w = chain[i];
        if (said & (1 << w)) continue;
        int stage = i;
        if (first < 0) first = stage;
        int need = size - 1 - first - shift;
        if (i == 0 && top >= 0) {
            int reply = size - 1 - top - shift - 1;
            if (reply < need) need = reply;
        }
        if (cards >= need) legal[W_ANN + w] = 1;
    }
}

static void announce(Game *g, int a) {
    int s = g->to_move, w = a - W_ANN, p = party_of(g, s);
    int chain[5] = {p, 2, 3, 4, 5};
    for (int i = 0; i < 5; i++) {
        int x = chain[i];
        if (g->party_said[p] & (1 << x)) continue;
        g->party_said[p] |= (uint8_t)(1 << x);
        g->said[s] |= 1ULL << (W_ANN - 24 + x);
        Ann *n = &g->ann[(int)g->nann++];
        n->seat = (int8_t)s;
        n->party = (int8_t)p;
        n->word = (int8_t)x;
        if (x == w) break;
    }
}

static void clarify_hochzeit(Game *g) {
    int holder = g->hz_by;
    for (int t = 0; t < g->ntricks && t < 3; t++) {
        int w = g->t_winner[t];
        if (w == holder) continue;
        int led_trump = g->suit_of[(int)g->t_cards[t][0]] == TRUMP;
        int rule = g->hz_rule;
        if (rule == 0 || (rule == 1) == led_trump) {
            g->hz_partner = (int8_t)w;
            g->hz_trick = (int8_t)(t + 1);
            g->re_known = 1;
            g->re_mask = (int8_t)((1 << holder) | (1 << w));
            return;
        }
    }
    if (g->ntricks >= 3) {
        g->hz_trick = 3;
        g->re_known = 1;
        g->re_mask = (int8_t)(1 << holder);
    }
}

/* The DDV score (TSR 7, scoring_ddv.score_ddv): a party wins by its goal (the Augen its
 * own highest stage announced needs, else the Augen that defeat the other party's), or
 * nobody; the game value adds 1 for winning, 1 for each stage the loser is below, 2 for
 * Re or Kontra announced, 1 for each stage announced, 1 for Augen reached against each
 * announced stage, and the extra points (not in a solo); a soloist counts it three times. */
static int ddv_wins(int p, const int *top, const int *aug, const int *won) {
    static const int target[4] = {0, 151, 181, 211}, defence[4] = {0, 90, 60, 30};
    int o = 1 - p;
    int own = top[p] > 0 ? top[p] : 0, their = top[o] > 0 ? top[o] : 0;
    if (own == 4) return won[o] == 0;
    if (own > 0) return aug[p] >= target[own];
    if (their == 4) return won[p] > 0;
    if (their > 0) return aug[p] >= defence[their];
    int said_own = top[p] >= 0, said_their = top[o] >= 0, need;
    if (p == RE)
        need = said_their && !said_own ? 120 : 121;
    else
        need = said_own && !said_their ? 121 : 120;
    return aug[p] >= need;
}

static inline int stages_below(int augen, int tricks) {
    return (augen < 90) + (augen < 60) + (augen < 30) + (tricks == 0);
}

static void ddv_finish(Game *g, int solo) {
    static const int against[5] = {0, 120, 90, 60, 30};
    int top[2] = {-1, -1};
    for (int i = 0; i < g->nann; i++) {
        const Ann *n = &g->ann[i];
        int level = n->word < 2 ? 0 : n->word - 1;
        if (level > top[(int)n->party]) top[(int)n->party] = level;
    }
    int party[NP], aug[2] = {0, 0}, won[2] = {0, 0}, tricks_augen[HAND];
    for (int s = 0; s < NP; s++) party[s] = (g->re_mask >> s) & 1 ? RE : KONTRA;
    for (int t = 0; t < g->hand; t++) {
        int sum = 0;
        for (int i = 0; i < NP; i++) sum += augen(g->t_cards[t][i]);
        tricks_augen[t] = sum;
        aug[party[(int)g->t_winner[t]]] += sum;
        won[party[(int)g->t_winner[t]]]++;
    }
    int winner = ddv_wins(RE, top, aug, won) ? RE : ddv_wins(KONTRA, top, aug, won) ? KONTRA : -1;
    int value[2] = {0, 0}; /* points won by each party */
    if (winner >= 0) {
        int loser = 1 - winner;
        value[winner] += 1 + stages_below(aug[loser], won[loser]);
        for (int p = 0; p < 2; p++)
            for (int level = 0; level <= top[p]; level++) value[winner] += level ? 1 : 2;
    } else {
        for (int p = 0; p < 2; p++) value[p] += stages_below(aug[1 - p], won[1 - p]);
    }
    for (int p = 0; p < 2; p++)
        for (int level = 1; level <= top[1 - p]; level++)
            if (aug[p] >= against[level]) value[p]++;
    if (!solo) {
        for (int t = 0; t < g->hand; t++) {
            int wp = party[(int)g->t_winner[t]];
            for (int i = 0; i < NP; i++) /* Fuchs gefangen */
                if (g->t_cards[t][i] == AD && party[(int)g->t_seats[t][i]] != wp) value[wp]++;
            if (tricks_augen[t] >= 40) value[wp]++; /* Doppelkopf */
            if (t == g->hand - 1) /* Karlchen */
                for (int i = 0; i < NP; i++)
                    if (g->t_seats[t][i] == g->t_winner[t] && g->t_cards[t][i] == JC) value[wp]++;
        }
        if (winner == KONTRA) value[KONTRA]++; /* gegen die Alten */
    }
    int re_value = value[RE] - value[KONTRA];
    for (int s = 0; s < NP; s++)
        g->points[s] = party[s] == RE ? (solo ? 3 * re_value : re_value) : -re_value;
}

static void finish(Game *g) {
    if (g->gt == GT_HOCHZEIT && g->hz_partner < 0 && !g->re_known) {
        g->re_known = 1;
        g->re_mask = (int8_t)(1 << g->hz_by);
    }
    int solo = g->solo, gt = g->gt;
    if (gt == GT_HOCHZEIT && g->hz_partner < 0) {
        gt = GT_TRUMP;
        solo = 1;
    }
    if (g->ddv) {
        ddv_finish(g, solo);
        return;
    }
    int top[2] = {-1, -1};
    for (int i = 0; i < g->nann; i++) {
        const Ann *n = &g->ann[i];
        if (solo && n->word != 1) continue; /* a house solo counts the Kontra only */
        int level = n->word < 2 ? 0 : n->word - 1;
        if (level > top[(int)n->party]) top[(int)n->party] = level;
    }
    int doublings = top[RE] + 1 + top[KONTRA] + 1;
    if (solo && top[RE] >= 0) doublings--;
    int party[NP], aug[2] = {0, 0}, won[2] = {0, 0}, tricks_augen[HAND];
    for (int s = 0; s < NP; s++) party[s] = (g->re_mask >> s) & 1 ? RE : KONTRA;
    for (int t = 0; t < g->hand; t++) {
        int sum = 0;
        for (int i = 0; i < NP; i++) sum += augen(g->t_cards[t][i]);
        tricks_augen[t] = sum;
        aug[party[(int)g->t_winner[t]]] += sum;
        won[party[(int)g->t_winner[t]]]++;
    }
    memset(g->points, 0, sizeof g->points);
    if (solo) {
        int soloist = __builtin_ctz((unsigned)(uint8_t)g->re_mask);
        int win;
        if (gt == GT_NULL)
            win = won[RE] == 0;
        else if (g->ouvert)
            win = won[KONTRA] == 0;
        else
            win = aug[RE] >= 121;
        int trump = gt == GT_TRUMP;
        int base = win ? (trump ? 500 : 250) : (trump ? -1000 : -500);
        g->points[soloist] = base * (g->ouvert ? 2 : 1) * (1 << doublings);
        return;
    }
    int missed[2];
    for (int p = 0; p < 2; p++) {
        int o = 1 - p, lv = top[p];
        if (lv <= 0) {
            missed[p] = 0;
            continue;
        }
        int below = lv == 4 ? won[o] == 0 : aug[o] < (lv == 1 ? 90 : lv == 2 ? 60 : 30);
        missed[p] = !below;
    }
    int winner;
    if (missed[RE] != missed[KONTRA])
        winner = missed[RE] ? KONTRA : RE;
    else
        winner = aug[RE] >= 121 ? RE : KONTRA;
    int loser = 1 - winner;
    int stages = (aug[loser] < 90) + (aug[loser] < 60) + (aug[loser] < 30) + (won[loser] == 0);
    int extras[2] = {0, 0};
    int dulle = g->sch_aces < 0; /* Dulle gefangen: not with scharfe Herz-Asse */
    for (int t = 0; t < g->hand; t++) {
        int wp = party[(int)g->t_winner[t]], hearts = 1;
        for (int i = 0; i < NP; i++) {
            int c = g->t_cards[t][i], seat = g->t_seats[t][i];
            if (c / 6 != 2 || g->suit_of[c] == TRUMP) hearts = 0;
            if (party[seat] == wp || g->suit_of[c] != TRUMP) continue;
            if (c == AD)
                extras[wp]++;
            else if (c == TH && dulle)
                extras[wp]++;
        }
        if (tricks_augen[t] >= 40) extras[wp]++;
        if (hearts) extras[wp]++;
        if (t == g->hand - 1)
            for (int i = 0; i < NP; i++)
                if (g->t_seats[t][i] == g->t_winner[t] && g->t_cards[t][i] == JC) extras[wp]++;
    }
    int base = (winner == RE ? 10 : 20) + 10 * stages + 10 * (extras[winner] - extras[loser]);
    int value = base * (1 << doublings);
    for (int s = 0; s < NP; s++)
        if (party[s] == winner) g->points[s] = value;
}

static int play_card(Game *g, int c) {
    int s = g->to_move;
    g->hands[s][c]--;
    g->hand_len[s]--;
    g->trick_cards[(int)g->count] = (int8_t)c;
    g->trick_seats[(int)g->count] = (int8_t)s;
    if (++g->count < NP) {
        g->to_move = (int8_t)((s + 1) % NP);
        return 0;
    }
    int led = g->suit_of[(int)g->trick_cards[0]], best = -2, first = 0, sum = 0;
    for (int i = 0; i < NP; i++) {
        int x = g->trick_cards[i];
        int st = (g->suit_of[x] == led || g->suit_of[x] == TRUMP) ? g->power[x] : -1;
        if (st > best) {
            best = st;
            first = i;
        }
        sum += augen(x);
    }
    int w = g->trick_seats[first], t = g->ntricks;
    for (int i = 0; i < NP; i++) {
        g->t_cards[t][i] = g->trick_cards[i];
        g->t_seats[t][i] = g->trick_seats[i];
        g->played[(int)g->trick_seats[i]][(int)g->trick_cards[i]]++;
    }
    g->t_winner[t] = (int8_t)w;
    g->augen[w] = (int16_t)(g->augen[w] + sum);
    g->ntricks++;
    g->count = 0;
    g->leader = g->to_move = (int8_t)w;
    if (g->gt == GT_HOCHZEIT && g->hz_trick < 0) clarify_hochzeit(g);
    if (g->ntricks < g->hand) return 0;
    finish(g);
    g->phase = P_DONE;
    return 1;
}

/* Take action ``a`` (legal) for the seat to move; 1 if it ended the deal (points set). */
static int apply(Game *g, int a) {
    int over = 0;
    switch (g->phase) {
    case P_DECLARE:
        over = declare(g, a);
        break;
    case P_ANSWER:
        over = answer(g, a);
        break;
    case P_GIVE:
    case P_RETURN:
        pick(g, a);
        break;
    default:
        if (a >= W_ANN)
            announce(g, a);
        else
            over = play_card(g, a);
    }
    if (over) {
        if (g->phase == P_REDEAL) memset(g->points, 0, sizeof g->points);
        return 1;
    }
    compute_legal(g);
    return 0;
}

static void compute_legal(Game *g) {
    uint8_t *legal = g->legal;
    memset(legal, 0, NACT);
    int s = g->to_move;
    switch (g->phase) {
    case P_DECLARE:
        if (g->ddv)
            ddv_declaration_legal(g, s, legal);
        else
            declaration_legal(g, s, legal);
        break;
    case P_ANSWER:
        legal[W_ACCEPT] = legal[W_REFUSE] = 1;
        break;
    case P_GIVE:
    case P_RETURN:
        for (int i = 0; i < g->nsets; i++) {
            const int8_t *set = g->sets[i];
            int k = g->nsel, match = 1;
            for (int j = 0; j < k && match; j++) match = set[j] == g->sel[j];
            if (match) legal[(int)set[k]] = 1;
        }
        break;
    case P_PLAY: {
        const int8_t *h = g->hands[s];
        int any = 0;
        if (g->count) {
            int led = g->suit_of[(int)g->trick_cards[0]];
            for (int id = 0; id < NIDS; id++)
                if (h[id] && g->suit_of[id] == led) legal[id] = 1, any = 1;
        }
        if (!any)
            for (int id = 0; id < NIDS; id++)
                if (h[id]) legal[id] = 1;
        if (g->ddv)
            ddv_announcement_legal(g, s, legal);
        else if (g->hand_len[s] == g->hand)
            announcement_legal(g, s, legal);
        break;
    }
    default:
        break;
    }
}

/* The deal of DoppelkopfDeal.from_seed(seed) with ``dealer`` dealing. */
static void deal_from(const Rules *r, Game *g, uint64_t seed, int dealer) {
    MT deal_rng;
    mt_seed64(&deal_rng, seed);
    int8_t deck[DECK];
    memcpy(deck, r->deck, (size_t)r->ndeck);
    for (int i = r->ndeck - 1; i > 0; i--) {
        int j = (int)mt_randbelow(&deal_rng, (uint32_t)(i + 1));
        int8_t t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
    /* Everything but the generator from zero. */
    memset((char *)g + offsetof(Game, points), 0, offsetof(Game, sets) - offsetof(Game, points));
    static const int house_packets[3] = {3, 4, 3}, ddv_packets[4] = {3, 3, 3, 3};
    const int *packets = r->ddv ? ddv_packets : house_packets;
    int pos = 0;
    g->ddv = (int8_t)r->ddv;
    g->hand = (int8_t)r->hand;
    for (int p = 0; p < (r->ddv ? 4 : 3); p++)
        for (int i = 0; i < NP; i++) {
            int seat = (dealer + 1 + i) % NP;
            for (int c = 0; c < packets[p]; c++) g->hands[seat][(int)deck[pos++]]++;
        }
    for (int s = 0; s < NP; s++) {
        g->hand_len[s] = (int8_t)r->hand;
        g->init_qc[s] = g->hands[s][QC];
        int k = 0;
        for (int su = 0; su < 4; su++) k += g->hands[s][su * 6 + 1];
        g->kings[s] = (int8_t)k;
        g->asking[s] = (int8_t)((dealer + 1 + s) % NP);
    }
    g->dealer = (int8_t)dealer;
    g->phase = P_DECLARE;
    g->round = r->ddv ? 3 : 0; /* DDV: gesund or Vorbehalt, then the reservations */
    g->nask = NP;
    g->to_move = g->asking[0];
    g->sch_aces = g->sch_kings = g->claim_seat = g->hz_by = g->armut_by = -1;
    g->soloist = g->armut_partner = g->hz_partner = g->hz_trick = -1;
    g->gt = GT_NORMAL;
    set_order(g, GT_NORMAL);
    compute_legal(g);
}

/* The game's next deal, drawn from its own generator as the scalar environment draws it. */
static void deal_game(const Rules *r, Game *g) {
    int dealer = r->fixed_dealer >= 0 ? r->fixed_dealer : (int)mt_randbelow(&g->rng, NP);
    uint64_t lo = mt_next(&g->rng);
    uint64_t hi = mt_next(&g->rng);
    deal_from(r, g, lo | (hi << 32), dealer);
}

static inline int deal_over(const Game *g) { return g->phase == P_DONE || g->phase == P_REDEAL; }

/* -- the observation --------------------------------------------------------------------- */

/* The observation of seat ``me``; the mask is all 0 unless ``me`` is to move. Once the deal
 * is over (played out or thrown in) nobody is to move: no seat to move, no mask. */
static void observe_as(const Rules *r, const Game *g, int me, float *obs, int8_t *mask) {
    int over = deal_over(g), moving = !over && me == g->to_move;
#define REL(seat) (((seat) - me + NP) % NP)
    memset(obs, 0, sizeof(float) * (size_t)r->obs_size);
    int phase = g->phase, started = phase == P_PLAY || phase == P_DONE;
    /* A silent solo is known to its soloist only, until the deal is over. */
    int silent_hidden = g->silent && !over && me != g->soloist;
    for (int id = 0; id < NIDS; id++) obs[O_HAND + id] = g->hands[me][id];
    for (int i = 0; i < g->count; i++)
        obs[O_TRICK + NIDS * REL(g->trick_seats[i]) + g->trick_cards[i]] = 1.0f;
    for (int s = 0; s < NP; s++) {
        int row = REL(s);
        for (int id = 0; id < NIDS; id++) obs[O_PLAYED + NIDS * row + id] = g->played[s][id];
        obs[O_AUGEN + row] = g->augen[s];
        uint64_t said = g->said[s];
        while (said) {
            obs[O_SAID + NWORDS * row + __builtin_ctzll(said)] = 1.0f;
            said &= said - 1;
        }
    }
    if (!over) obs[O_TO_MOVE + REL(g->to_move)] = 1.0f;
    if (phase == P_PLAY) obs[O_LEADER + REL(g->leader)] = 1.0f;
    obs[O_DEALER + REL(g->dealer)] = 1.0f;
    obs[O_PHASE + phase] = 1.0f;
    if (phase == P_DECLARE) obs[O_ROUND + g->round] = 1.0f;
    int gt = phase < P_PLAY ? 0 : silent_hidden ? GT_NORMAL : g->gt;
    obs[O_GAME_TYPE + gt] = 1.0f;
    if (g->solo && !silent_hidden && started && g->soloist >= 0)
        obs[O_SOLOIST + REL(g->soloist)] = 1.0f;
    if (g->ouvert && started && g->soloist >= 0)
        for (int id = 0; id < NIDS; id++) obs[O_OPEN + id] = g->hands[(int)g->soloist][id];
    if (g->hz_by >= 0) obs[O_HZ + REL(g->hz_by)] = 1.0f;
    if (g->hz_partner >= 0) obs[O_HZ_PARTNER + REL(g->hz_partner)] = 1.0f;
    if (g->armut_by >= 0) {
        obs[O_ARMUT + REL(g->armut_by)] = 1.0f;
        obs[O_ARMUT_TRUMPS] = g->armut_trumps;
        obs[O_ARMUT_TRUMPS + 1] = g->armut_ret_trumps;
    }
    if (g->armut_partner >= 0) obs[O_ARMUT_PARTNER + REL(g->armut_partner)] = 1.0f;
    if (me == g->armut_by || me == g->armut_partner)
        for (int id = 0; id < NIDS; id++) {
            obs[O_GIVEN + id] = g->given[id];
            obs[O_RETURNED + id] = g->returned[id];
        }
    if (moving && (phase == P_GIVE || phase == P_RETURN))
        for (int i = 0; i < g->nsel; i++) obs[o_selection(r->hand) + g->sel[i]] += 1.0f;
    if (g->sch_aces >= 0) obs[O_SCHARFE + 2 * REL(g->sch_aces)] = 1.0f;
    if (g->sch_kings >= 0) obs[O_SCHARFE + 2 * REL(g->sch_kings) + 1] = 1.0f;
    for (int i = 0; i < r->nids; i++)
        if (g->suit_of[(int)r->ids[i]] == TRUMP) obs[O_TRUMPS + r->ids[i]] = 1.0f;
    if (started) {
        int p = party_of(g, me);
        if (silent_hidden && p < 0) p = KONTRA;
        if (p >= 0) obs[O_PARTY + p] = 1.0f;
        int shown[NP] = {-1, -1, -1, -1};
        /* Every party is known in a declared solo, an Armut, a Hochzeit decided, and
         * once the deal has been played out. */
        int known_all = (g->solo && !g->silent) || g->gt == GT_ARMUT ||
                        (g->gt == GT_HOCHZEIT && g->re_known) || phase == P_DONE;
        if (known_all) {
            for (int s = 0; s < NP; s++) {
                int q = party_of(g, s);
                shown[s] = q < 0 ? KONTRA : q;
            }
        } else {
            if (g->gt == GT_HOCHZEIT && g->hz_by >= 0) shown[(int)g->hz_by] = RE;
            for (int i = 0; i < g->nann; i++) {
                const Ann *n = &g->ann[i];
                if (n->word < 2)
                    shown[(int)n->seat] = n->word;
                else if (shown[(int)n->seat] < 0)
                    shown[(int)n->seat] = n->party;
            }
            for (int t = 0; t < g->ntricks; t++)
                for (int i = 0; i < NP; i++)
                    if (g->t_cards[t][i] == QC) shown[(int)g->t_seats[t][i]] = RE;
            for (int i = 0; i < g->count; i++)
                if (g->trick_cards[i] == QC) shown[(int)g->trick_seats[i]] = RE;
        }
        for (int s = 0; s < NP; s++)
            if (shown[s] >= 0) obs[O_REVEALED + 2 * REL(s) + shown[s]] = 1.0f;
    }
    obs[O_DONE + g->ntricks] = 1.0f;
    for (int a = 0; a < NACT; a++) mask[a] = moving ? (int8_t)g->legal[a] : 0;
#undef REL
}

static void observe(const Rules *r, const Game *g, float *obs, int8_t *mask, int64_t *to_move) {
    observe_as(r, g, g->to_move, obs, mask);
    *to_move = g->to_move;
}

/* -- the Python type ------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD Rules rules;
    Py_ssize_t num;
    Game *games;
    uint64_t sampler;
    int last_points[NP]; /* the points scored on the last play_one */
    ObsRing ring;        /* aec_last's observations (_obs.h) */
} Batch;

static void Batch_dealloc(Batch *self) {
    ring_clear(&self->ring);
    PyMem_RawFree(self->games);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Batch(num, deck, dealer, ddv=0): ``deck`` the card ids of options.deck() in order (the
 * house preset: 40 cards, no nines; ``ddv`` 1, the DDV preset: 48). */
static int Batch_init(Batch *self, PyObject *args, PyObject *kwds) {
    (void)kwds;
    Py_ssize_t num;
    int dealer, ddv = 0;
    Py_buffer deck;
    if (!PyArg_ParseTuple(args, "ny*i|p", &num, &deck, &dealer, &ddv)) return -1;
    Rules *r = &self->rules;
    int ok = num > 0 && deck.len == (ddv ? 48 : 40) && dealer < NP;
    int counts[NIDS] = {0};
    for (Py_ssize_t i = 0; ok && i < deck.len; i++) {
        int id = ((uint8_t *)deck.buf)[i];
        ok = id < NIDS && (ddv || id % 6 != 5) && ++counts[id] <= 2;
    }
    if (!ok) {
        PyBuffer_Release(&deck);
        PyErr_SetString(PyExc_ValueError, "inconsistent Doppelkopf deck");
        return -1;
    }
    r->ddv = ddv;
    r->ndeck = (int)deck.len;
    r->hand = r->ndeck / NP;
    r->obs_size = obs_size(r->hand);
    memcpy(r->deck, deck.buf, (size_t)r->ndeck);
    PyBuffer_Release(&deck);
    int k = 0;
    for (int i = 0; i < r->ndeck; i++) {
        int seen = 0;
        for (int j = 0; j < k; j++) seen |= r->ids[j] == r->deck[i];
        if (!seen) r->ids[k++] = r->deck[i];
    }
    r->nids = k;
    r->fixed_dealer = dealer;
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
    for (Py_ssize_t i = w->lo; i < w->hi; i++) {
        Game *g = &w->games[i];
        int over = apply(g, (int)w->actions[i]);
        float *rew = w->rewards + (size_t)i * NP;
        for (int s = 0; s < NP; s++) rew[s] = over ? (float)g->points[s] : 0.0f;
        if (over) deal_game(r, g);
        w->over[i] = (uint8_t)over;
        observe(r, g, w->obs + (size_t)i * (size_t)r->obs_size, w->mask + (size_t)i * NACT,
                w->to_move + i);
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
        !need(&mask, NACT * num, "action_mask") || !need(&tm, 8 * num, "to_move") ||
        !need(&rew, (Py_ssize_t)sizeof(float) * NP * num, "rewards") ||
        !need(&over, num, "terminations"))
        goto done;
    const int64_t *a = act.buf;
    for (Py_ssize_t i = 0; i < num; i++) {
        if (a[i] < 0 || a[i] >= NACT || !self->games[i].legal[a[i]]) {
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
    Py_ssize_t num = self->num;
    PyObject *result = NULL;
    int size = self->rules.obs_size;
    if (need(&obs, (Py_ssize_t)sizeof(float) * size * num, "observation") &&
        need(&mask, NACT * num, "action_mask") && need(&tm, 8 * num, "to_move")) {
        for (Py_ssize_t i = 0; i < num; i++)
            observe(&self->rules, &self->games[i], (float *)obs.buf + (size_t)i * (size_t)size,
                    (int8_t *)mask.buf + NACT * i, (int64_t *)tm.buf + i);
        result = Py_None;
        Py_INCREF(result);
    }
    PyBuffer_Release(&obs);
    PyBuffer_Release(&mask);
    PyBuffer_Release(&tm);
    return result;
}

/* scores(out): each seat's score of the deal under way: 0 until a deal ends (and an
 * ended deal is replaced at once). */
static PyObject *Batch_scores(Batch *self, PyObject *args) {
    Py_buffer out;
    if (!PyArg_ParseTuple(args, "w*", &out)) return NULL;
    if (!need(&out, (Py_ssize_t)sizeof(float) * NP * self->num, "scores")) {
        PyBuffer_Release(&out);
        return NULL;
    }
    memset(out.buf, 0, (size_t)out.len);
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
        const uint8_t *legal = self->games[i].legal;
        uint32_t n = 0;
        for (int a = 0; a < NACT; a++) n += legal[a];
        uint32_t k = (uint32_t)(((splitmix(&self->sampler) >> 32) * n) >> 32);
        int a = 0;
        for (; a < NACT; a++)
            if (legal[a] && !k--) break;
        o[i] = a;
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
 * DoppelkopfDeal.from_seed(seed) with ``dealer`` dealing (0 <= seed < 2**64). */
static PyObject *Batch_deal_one(Batch *self, PyObject *args) {
    Py_ssize_t i;
    unsigned long long seed;
    int dealer;
    if (!PyArg_ParseTuple(args, "nKi", &i, &seed, &dealer)) return NULL;
    if (!game_index(self, i)) return NULL;
    if (dealer < 0 || dealer >= NP) {
        PyErr_Format(PyExc_ValueError, "dealer %d is not a seat", dealer);
        return NULL;
    }
    Game *g = &self->games[i];
    deal_from(&self->rules, g, (uint64_t)seed, dealer);
    return PyLong_FromLong(g->to_move);
}

/* play_one(i, action) -> code: game ``i``'s seat to move takes ``action``, and the deal is
 * not replaced when it ends. The code is -1 for an action that is not legal now (nothing
 * changes), else the next seat to move, or 4 once the deal is over, plus 256 when the step
 * scored points (last_rewards() gives them: the sheet's points of the deal). */
/* play_one's code for game ``g`` and action ``a``. */
static long play_code(Batch *self, Game *g, long a) {
    if (deal_over(g) || a < 0 || a >= NACT || !g->legal[a]) return -1;
    int over = apply(g, (int)a), scored = 0;
    for (int s = 0; s < NP; s++) {
        self->last_points[s] = over ? g->points[s] : 0;
        scored |= self->last_points[s] != 0;
    }
    return (over ? NP : g->to_move) + (scored ? 256 : 0);
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

/* last_rewards() -> each seat's reward of the last play_one. */
static PyObject *Batch_last_rewards(Batch *self, PyObject *unused) {
    (void)unused;
    PyObject *out = PyTuple_New(NP);
    if (!out) return NULL;
    for (int s = 0; s < NP; s++) {
        PyObject *x = PyFloat_FromDouble((double)self->last_points[s]);
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
    if (*seat < 0 || *seat >= NP) {
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
             need(&mb, NACT, "action_mask");
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
    PyObject *mask = new_array(args[2], NACT, args[4]);
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
#define AEC_ACTIONS NACT
static int aec_seats(const Batch *self) {
    (void)self;
    return NP;
}
static Py_ssize_t aec_obs_size(const Batch *self) { return self->rules.obs_size; }
static void aec_write(void *batch, int seat, float *obs, int8_t *mask) {
    Batch *self = batch;
    observe_as(&self->rules, &self->games[0], seat, obs, mask);
}
static long aec_play(Batch *self, long a) { return play_code(self, &self->games[0], a); }
static double aec_reward(const Batch *self, int seat) { return (double)self->last_points[seat]; }
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
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "kartentisch.interop._vecdoko.Batch",
    .tp_basicsize = sizeof(Batch),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Doppelkopf deals (house rules) stepped together.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Batch_init,
    .tp_dealloc = (destructor)Batch_dealloc,
    .tp_methods = Batch_methods,
    .tp_getset = Batch_getset,
};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_vecdoko",
                                    "Doppelkopf deals (house rules) stepped in batches.", -1, NULL,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__vecdoko(void) {
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
