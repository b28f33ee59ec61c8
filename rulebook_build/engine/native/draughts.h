/* The board, the perfect index of the endgame tables and the capture rules of both rule sets,
 * shared by the compiled table builder (tablebuild.c) and the compiled proof search (prover.c):
 * one rules core, set to a variant by ``init_geometry`` as the Python engine sets its generator
 * to a ``Variant`` (../../rules/variants.py).
 *
 * International (KNDB 2018 art. 4-5): men and kings capture diagonally, the capture of the most
 * pieces is compulsory.  Fries Spel (art. 7-14): pieces also capture orthogonally (the neighbour
 * two columns or two rows away), the capture of the greatest value is compulsory, where k kings
 * are worth less than 2k men and more than 2k-1 men (art. 11, compared exactly as the integer
 * (2k + m) * 32 - k of variants.py), and at equal value a capture with a king goes first
 * (art. 12).  Positions are seen from the side to move, which plays as White towards squares
 * 1-5; ``mirror`` turns a position round for the other side.  Everything here follows
 * ../../rules/board.py and ../../rules/movegen.py; the tests compare the programs built on it
 * with the Python engine.
 */
#ifndef RULEBOOK_DRAUGHTS_H
#define RULEBOOK_DRAUGHTS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lifetime.h" /* die_with_parent */

typedef uint64_t bb;

/* ------------------------------------------------------------------ geometry (board.py) */
static int bit_of(int square) { return square + (square - 1) / 10; }
static bb BOARD;
static bb PROMOTION; /* squares 1-5: where the side to move (seen as White) is crowned */
static int SQUARE_OF[64];
/* directions as (row step, column step), rows counted from Black's side: the four diagonals
 * (up-left, up-right, down-left, down-right: men move along the first two, kings along all
 * four), then the orthogonal steps of Fries Spel art. 7 (up, down, left, right) */
static const int STEPS[8][2] = {{-1, -1}, {-1, 1}, {1, -1}, {1, 1}, {-2, 0}, {2, 0}, {0, -2}, {0, 2}};
static int RAY[8][64][10];
static int RAY_LEN[8][64];
static int FRISIAN;        /* the rules are Fries Spel's */
static int CAPTURE_DIRS;   /* 4 (International) or 8 (Fries Spel): the directions pieces capture in */

/* the bit of the dark square at (row, column), or -1 (board.py square_at) */
static int bit_at(int row, int column) {
    if (row < 0 || row > 9 || column < 0 || column > 9 || (row + column) % 2 == 0) return -1;
    return bit_of(row * 5 + column / 2 + 1);
}

/* One step in a direction as a shift of the whole board: in this layout (a spare bit after every
 * ten squares) a direction's neighbour is always the same number of bits away, so the capture
 * test below moves every piece at once.  STEP_FROM[d]: the squares that have a neighbour in
 * direction d.  init_steps checks the shift against every ray and falls back to walking the rays
 * (FAST_STEPS = 0) should a layout ever break it.  DIAGONAL_SHIFTS: the diagonals are the shifts
 * -6, -5, 5, 6 and need no mask, because a step off the board lands on a spare bit or off the
 * 64 bits (the orthogonal steps of Fries Spel do need one: square 5 and square 6 are one bit
 * apart). */
static bb STEP_FROM[8];
static int STEP_SHIFT[8];
static int FAST_STEPS, DIAGONAL_SHIFTS;
static const int DIAGONAL[4] = {-6, -5, 5, 6};

static void init_steps(void) {
    FAST_STEPS = DIAGONAL_SHIFTS = 1;
    for (int d = 0; d < 8; d++) {
        STEP_FROM[d] = 0;
        STEP_SHIFT[d] = 0;
        for (int b = 0; b < 64; b++) {
            if (!RAY_LEN[d][b]) continue;
            int shift = RAY[d][b][0] - b;
            if (!STEP_FROM[d]) STEP_SHIFT[d] = shift;
            else if (shift != STEP_SHIFT[d]) FAST_STEPS = 0;
            STEP_FROM[d] |= (bb)1 << b;
        }
    }
    for (int d = 0; d < 4; d++)
        for (int b = 0; b < 64; b++) {
            if (!(BOARD >> b & 1)) continue;
            int t = b + DIAGONAL[d];
            int lands = t >= 0 && t < 64 && (BOARD >> t & 1);
            if (lands != (RAY_LEN[d][b] > 0) || (lands && RAY[d][b][0] != t)) DIAGONAL_SHIFTS = 0;
        }
}

static inline bb step(bb x, int d) {
    x &= STEP_FROM[d];
    return STEP_SHIFT[d] > 0 ? x << STEP_SHIFT[d] : x >> -STEP_SHIFT[d];
}

static inline bb shifted(bb x, int s) { return s > 0 ? x << s : x >> -s; }

/* a capture along the diagonal of shift ``s`` (a constant once inlined): a man's, or a king's
 * that flies over empty squares first (the squares a king reaches are filled in doubling steps) */
static inline int diagonal_capture(bb om, bb ok, bb opponent, bb empty, int s) {
    if (shifted(shifted(om, s) & opponent, s) & empty) return 1;
    bb reach = ok, pass = empty;
    reach |= pass & shifted(reach, s);
    pass &= shifted(pass, s);
    reach |= pass & shifted(reach, 2 * s);
    pass &= shifted(pass, 2 * s);
    reach |= pass & shifted(reach, 4 * s);
    pass &= shifted(pass, 4 * s);
    reach |= pass & shifted(reach, 8 * s);
    return (shifted(shifted(reach & ~om, s) & opponent, s) & empty) != 0;
}

/* frisian: 0 for International rules, 1 for Fries Spel */
static void init_geometry(int frisian) {
    FRISIAN = frisian != 0;
    CAPTURE_DIRS = FRISIAN ? 8 : 4;
    BOARD = 0;
    PROMOTION = 0;
    memset(SQUARE_OF, 0, sizeof SQUARE_OF);
    memset(RAY_LEN, 0, sizeof RAY_LEN);
    for (int s = 1; s <= 50; s++) {
        BOARD |= (bb)1 << bit_of(s);
        SQUARE_OF[bit_of(s)] = s;
        if (s <= 5) PROMOTION |= (bb)1 << bit_of(s);
    }
    for (int s = 1; s <= 50; s++) {
        int b = bit_of(s), row = (s - 1) / 5, column = 2 * ((s - 1) % 5) + (row % 2 == 0);
        for (int d = 0; d < 8; d++) {
            int r = row + STEPS[d][0], c = column + STEPS[d][1], t;
            while ((t = bit_at(r, c)) >= 0) {
                RAY[d][b][RAY_LEN[d][b]++] = t;
                r += STEPS[d][0];
                c += STEPS[d][1];
            }
        }
    }
    init_steps();
}

static bb mirror(bb x) { /* square s -> 51 - s, bit b -> 55 - b: the bits reversed, moved down 8 */
    x = (x >> 1 & 0x5555555555555555ull) | (x & 0x5555555555555555ull) << 1;
    x = (x >> 2 & 0x3333333333333333ull) | (x & 0x3333333333333333ull) << 2;
    x = (x >> 4 & 0x0F0F0F0F0F0F0F0Full) | (x & 0x0F0F0F0F0F0F0F0Full) << 4;
    return __builtin_bswap64(x) >> 8;
}

/* ------------------------------------------------------------------ combinatorial index */
static uint64_t BINOM[64][8];

/* Division of a number below 2^32 by a fixed divisor below 2^32, by one multiplication instead
 * of a division instruction (a third of a table build's time went into the divisions that
 * decode a slot): with c = ceil(2^64 / d), n / d is the high half of c * n (Lemire, Kaser and
 * Kurz, "Faster remainder by direct computation", 2019, theorem 1 with N = 32, F = 64).  A
 * divisor of 2^32 or more gives the quotient 0 the same way.  Every node and slot divided is
 * below 2^32 (tablebuild.c refuses a larger pair unless built by slices, and a slice is smaller). */
typedef struct {
    uint64_t d, c;
} divisor;

static divisor divisor_of(uint64_t d) { return (divisor){d, d > 1 ? UINT64_MAX / d + 1 : 0}; }

static inline uint64_t quotient(uint64_t n, divisor v) {
#ifdef __SIZEOF_INT128__
    __extension__ typedef unsigned __int128 wide;
    return v.d == 1 ? n : (uint64_t)(((wide)v.c * n) >> 64);
#else
    return n / v.d;
#endif
}

/* domains: 0 = the mover's men (squares 6-50), 1 = kings (1-50), 2 = the other side's men (1-45) */
static int DOMAIN_SIZE[3] = {45, 50, 45};
static int POS_IN[3][64];
/* RANK_TERM[domain][i][bit]: what a piece on ``bit`` takes off the rank when i pieces of the set
 * are on it or above (BINOM[n - 1 - p][i], p its place in the domain), or OUTSIDE, which makes
 * any rank negative, for a bit outside the domain */
#define OUTSIDE ((int64_t)1 << 40)
static int64_t RANK_TERM[3][8][64];

static void init_index(void) {
    for (int n = 0; n < 64; n++)
        for (int k = 0; k < 8; k++)
            BINOM[n][k] = k == 0 ? 1 : (n == 0 ? 0 : BINOM[n - 1][k - 1] + BINOM[n - 1][k]);
    for (int d = 0; d < 3; d++)
        for (int b = 0; b < 64; b++) POS_IN[d][b] = -1;
    for (int s = 1; s <= 50; s++) {
        int b = bit_of(s);
        if (s >= 6) POS_IN[0][b] = s - 6;
        POS_IN[1][b] = s - 1;
        if (s <= 45) POS_IN[2][b] = s - 1;
    }
    for (int d = 0; d < 3; d++)
        for (int i = 0; i < 8; i++)
            for (int b = 0; b < 64; b++)
                RANK_TERM[d][i][b] = POS_IN[d][b] < 0 ? OUTSIDE : (int64_t)BINOM[DOMAIN_SIZE[d] - 1 - POS_IN[d][b]][i];
}

/* the rank of a set among itertools.combinations(domain, k), or -1 if not in the domain */
static int64_t rank_of(int domain, bb set, int k) {
    int64_t rank = (int64_t)BINOM[DOMAIN_SIZE[domain]][k] - 1;
    for (int i = k; set; i--, set &= set - 1) rank -= RANK_TERM[domain][i][__builtin_ctzll(set)];
    return rank < 0 ? -1 : rank;
}

typedef struct {
    int m[4];           /* material: own men, own kings, other men, other kings */
    uint64_t count[4];  /* sets per group */
    uint64_t mult[4];   /* multiplier of each group's rank */
    uint64_t size;      /* placements of the pieces */
    /* Fries Spel art. 17: a side with kings and men has a digit for its run of non-capturing
     * moves with one king (1 + RUN_LIMIT * its kings values, tables/index.py Layout), the other
     * side's digit the faster one; 1 where a side has none, and always in International */
    uint64_t own_digits, other_digits;
    uint64_t slots;     /* size * own_digits * other_digits: the values of the table */
    bb *sets[4];        /* every set of each group, in rank order (list_sets; else NULL) */
    divisor by_mult[4], by_digits, by_other; /* mult[g], own * other digits, other_digits */
} layout;

#define RUN_LIMIT 3 /* variants.py FRISIAN.max_consecutive_king_moves */

/* a side's run of non-capturing moves with one king (art. 17): 0 moves, or 1 to 3 with the
 * king's bit in the frame of the side to move */
typedef struct {
    int count, bit;
} run;

static const run NO_RUN = {0, 0};

/* a bit seen from the other side (``mirror`` of one square), and a run so turned */
static int mirror_bit(int b) { return 55 - b; }
static run mirror_run(run r) { return r.count ? (run){r.count, mirror_bit(r.bit)} : NO_RUN; }

static const int GROUP_DOMAIN[4] = {0, 1, 2, 1};

static void enumerate_sets(int domain, int k, bb *out) {
    int n = DOMAIN_SIZE[domain];
    int bits[50], pos[8];
    int count = 0;
    for (int s = 1; s <= 50; s++) {
        int b = bit_of(s);
        if (POS_IN[domain][b] >= 0) bits[POS_IN[domain][b]] = b;
    }
    for (int i = 0; i < k; i++) pos[i] = i;
    uint64_t total = BINOM[n][k];
    for (uint64_t r = 0; r < total; r++) {
        bb set = 0;
        for (int i = 0; i < k; i++) set |= (bb)1 << bits[pos[i]];
        out[count++] = set;
        /* next combination in lexicographic order */
        int i = k - 1;
        while (i >= 0 && pos[i] == n - k + i) i--;
        if (i < 0) break;
        pos[i]++;
        for (int j = i + 1; j < k; j++) pos[j] = pos[j - 1] + 1;
    }
}

static void make_layout(layout *l, const int m[4]) {
    for (int g = 0; g < 4; g++) {
        l->m[g] = m[g];
        l->count[g] = BINOM[DOMAIN_SIZE[GROUP_DOMAIN[g]]][m[g]];
    }
    l->mult[3] = 1;
    for (int g = 2; g >= 0; g--) l->mult[g] = l->mult[g + 1] * l->count[g + 1];
    l->size = l->mult[0] * l->count[0];
    l->own_digits = FRISIAN && m[0] && m[1] ? 1 + RUN_LIMIT * (uint64_t)m[1] : 1;
    l->other_digits = FRISIAN && m[2] && m[3] ? 1 + RUN_LIMIT * (uint64_t)m[3] : 1;
    l->slots = l->size * l->own_digits * l->other_digits;
    for (int g = 0; g < 4; g++) l->by_mult[g] = divisor_of(l->mult[g]);
    l->by_digits = divisor_of(l->own_digits * l->other_digits);
    l->by_other = divisor_of(l->other_digits);
    for (int g = 0; g < 4; g++) l->sets[g] = NULL; /* list_sets, for decode only */
}

/* every set of each group, which ``decode`` reads: only the builder's own pair needs them (a
 * probe or a child's slot needs the ranks alone, and listing them took the compiled search
 * more time than its nodes on a short search) */
static inline void list_sets(layout *l) {
    for (int g = 0; g < 4; g++) {
        l->sets[g] = malloc(sizeof(bb) * l->count[g]);
        if (!l->sets[g]) { fprintf(stderr, "out of memory\n"); exit(1); }
        enumerate_sets(GROUP_DOMAIN[g], l->m[g], l->sets[g]);
    }
}

/* index of a position with the side to move seen as White (moving towards squares 1-5) */
static int64_t index_of(const layout *l, bb om, bb ok, bb pm, bb pk) {
    int64_t r0 = rank_of(0, om, l->m[0]);
    int64_t r1 = rank_of(1, ok, l->m[1]);
    int64_t r2 = rank_of(2, pm, l->m[2]);
    int64_t r3 = rank_of(1, pk, l->m[3]);
    if (r0 < 0 || r1 < 0 || r2 < 0 || r3 < 0) return -1;
    return r0 * (int64_t)l->mult[0] + r1 * (int64_t)l->mult[1] + r2 * (int64_t)l->mult[2] + r3;
}

/* tables/index.py streak_part: 0 for no run, else 1 + (count - 1) * kings + the rank of the run's
 * king among its side's kings, counted from the low bits of the side to move's frame */
static uint64_t run_digit(run r, bb kings) {
    if (!r.count || !(kings >> r.bit & 1)) return 0;
    int number = __builtin_popcountll(kings), rank = __builtin_popcountll(kings & (((bb)1 << r.bit) - 1));
    return 1 + (uint64_t)((r.count < RUN_LIMIT ? r.count : RUN_LIMIT) - 1) * number + rank;
}

/* the run a digit stands for, given its side's kings */
static run run_of_digit(uint64_t digit, bb kings) {
    if (!digit || !kings) return NO_RUN; /* a digit counts only where its side has kings */
    int number = __builtin_popcountll(kings);
    uint64_t s = digit - 1;
    int count = 1; /* s / number and s % number by subtraction: s < RUN_LIMIT * number */
    while (s >= (uint64_t)number) {
        s -= (uint64_t)number;
        count++;
    }
    bb x = kings;
    for (uint64_t r = s; r; r--) x &= x - 1;
    return (run){count, __builtin_ctzll(x)};
}

/* the slot of the position numbered ``i`` with its runs: the runs are the last digits (a run of
 * a side without a digit is not counted); -1 stays -1 */
static int64_t with_runs(const layout *l, int64_t i, bb ok, bb pk, run own, run other) {
    if (i < 0 || l->slots == l->size) return i;
    i = i * (int64_t)(l->own_digits * l->other_digits);
    if (l->own_digits > 1) i += (int64_t)(run_digit(own, ok) * l->other_digits);
    if (l->other_digits > 1) i += (int64_t)run_digit(other, pk);
    return i;
}

/* the slot of a position with its runs */
static int64_t slot_of(const layout *l, bb om, bb ok, bb pm, bb pk, run own, run other) {
    return with_runs(l, index_of(l, om, ok, pm, pk), ok, pk, own, other);
}

/* whether the four sets of a placement share no square (else the slot is unused) */
static inline int disjoint(bb om, bb ok, bb pm, bb pk) {
    return !(om & ok) && !((om | ok) & (pm | pk)) && !(pm & pk);
}

static inline int decode(const layout *l, uint64_t index, bb *om, bb *ok, bb *pm, bb *pk) {
    uint64_t r[4];
    for (int g = 0; g < 4; g++) {
        r[g] = quotient(index, l->by_mult[g]);
        index -= r[g] * l->mult[g];
    }
    *om = l->sets[0][r[0]];
    *ok = l->sets[1][r[1]];
    *pm = l->sets[2][r[2]];
    *pk = l->sets[3][r[3]];
    return disjoint(*om, *ok, *pm, *pk);
}

/* the runs of the last digits of a slot (``with_runs``), given the kings of both sides */
static inline void runs_of_slot(const layout *l, uint64_t slot, bb ok, bb pk, run *own, run *other) {
    if (l->by_digits.d == 1) {
        *own = *other = NO_RUN;
        return;
    }
    uint64_t d = slot - quotient(slot, l->by_digits) * l->by_digits.d;
    uint64_t o = quotient(d, l->by_other);
    *own = run_of_digit(o, ok);
    *other = run_of_digit(d - o * l->other_digits, pk);
}

/* a slot's position and runs; 0 for an unused slot (two pieces on one square) */
static inline int decode_slot(const layout *l, uint64_t slot, bb *om, bb *ok, bb *pm, bb *pk, run *own,
                              run *other) {
    if (!decode(l, quotient(slot, l->by_digits), om, ok, pm, pk)) return 0;
    runs_of_slot(l, slot, *ok, *pk, own, other);
    return 1;
}

/* KNDB art. 9b-c: 5 for one king against at most two pieces with a king, 16 against three */
static int ending_of(int a, int b, int c, int d) {
    if (a == 0 && b == 1 && d >= 1) {
        if (c + d <= 2) return 5;
        if (c + d == 3) return 16;
    }
    if (c == 0 && d == 1 && b >= 1) {
        if (a + b <= 2) return 5;
        if (a + b == 3) return 16;
    }
    return 0;
}


/* ------------------------------------------------------------------ captures */
typedef struct {
    int origin, dest, king;
    bb captured;
} capture;

#define MAX_CAPTURES 4096
static capture CAPS[MAX_CAPTURES];
static int CAP_COUNT, CAP_BEST;
static int CAP_OVERFLOW; /* set when a position had more capture routes than CAPS holds */
static bb CAP_KINGS;     /* the other side's kings, for the value of a Frisian capture */

/* variants.py capture_value: the number of pieces, or (2k + m) * 32 - k in Fries Spel */
static int capture_value(bb captured) {
    int n = __builtin_popcountll(captured);
    if (!FRISIAN) return n;
    int k = __builtin_popcountll(captured & CAP_KINGS);
    return (2 * k + (n - k)) * 32 - k;
}

static void record(int origin, int dest, int king, bb captured) {
    int n = capture_value(captured);
    if (n < CAP_BEST) return;
    if (n > CAP_BEST) { CAP_BEST = n; CAP_COUNT = 0; }
    if (CAP_COUNT < MAX_CAPTURES) CAPS[CAP_COUNT++] = (capture){origin, dest, king, captured};
    else CAP_OVERFLOW = 1;
}

static void man_search(int origin, int sq, bb opponent, bb empty, bb captured) {
    int any = 0;
    for (int d = 0; d < CAPTURE_DIRS; d++) {
        if (RAY_LEN[d][sq] < 2) continue;
        int j = RAY[d][sq][0], l = RAY[d][sq][1];
        bb jb = (bb)1 << j, lb = (bb)1 << l;
        if ((opponent & ~captured & jb) && (empty & lb)) {
            any = 1;
            man_search(origin, l, opponent, empty, captured | jb);
        }
    }
    if (!any && captured) record(origin, sq, 0, captured);
}

static void king_search(int origin, int sq, bb opponent, bb empty, bb captured) {
    int any = 0;
    for (int d = 0; d < CAPTURE_DIRS; d++) {
        int len = RAY_LEN[d][sq], i = 0;
        const int *ray = RAY[d][sq];
        while (i < len && (empty >> ray[i] & 1)) i++;
        if (i >= len || !((opponent & ~captured) >> ray[i] & 1)) continue;
        bb after = captured | (bb)1 << ray[i];
        i++;
        while (i < len && (empty >> ray[i] & 1)) {
            any = 1;
            king_search(origin, ray[i], opponent, empty, after);
            i++;
        }
    }
    if (!any && captured) record(origin, sq, 1, captured);
}

/* every highest capture of the side to move (White, moving up); duplicates do no harm here */
static int captures(bb om, bb ok, bb pm, bb pk) {
    bb opponent = pm | pk;
    bb empty = BOARD & ~(om | ok | pm | pk);
    CAP_COUNT = 0;
    CAP_BEST = 1;
    CAP_KINGS = pk;
    for (bb x = om; x; x &= x - 1) {
        int o = __builtin_ctzll(x);
        man_search(o, o, opponent, empty | (bb)1 << o, 0);
    }
    for (bb x = ok; x; x &= x - 1) {
        int o = __builtin_ctzll(x);
        king_search(o, o, opponent, empty | (bb)1 << o, 0);
    }
    if (FRISIAN) { /* Fries Spel art. 12: at equal value the king's capture goes first */
        int kings = 0;
        for (int i = 0; i < CAP_COUNT; i++) kings |= CAPS[i].king;
        if (kings) {
            int kept = 0;
            for (int i = 0; i < CAP_COUNT; i++)
                if (CAPS[i].king) CAPS[kept++] = CAPS[i];
            CAP_COUNT = kept;
        }
    }
    return CAP_COUNT;
}

static int has_capture(bb om, bb ok, bb pm, bb pk) {
    bb opponent = pm | pk;
    bb empty = BOARD & ~(om | ok | pm | pk);
    if (DIAGONAL_SHIFTS && (!FRISIAN || FAST_STEPS)) { /* every piece at once */
        if (diagonal_capture(om, ok, opponent, empty, -6) || diagonal_capture(om, ok, opponent, empty, -5) ||
            diagonal_capture(om, ok, opponent, empty, 5) || diagonal_capture(om, ok, opponent, empty, 6))
            return 1;
        for (int d = 4; d < CAPTURE_DIRS; d++) { /* Fries Spel: the orthogonal steps */
            if (step(step(om, d) & opponent, d) & empty) return 1;
            bb reach = step(ok, d), first = 0; /* a king flies over empty squares */
            while (reach) {
                first |= reach & opponent;
                reach = step(reach & empty, d);
            }
            if (step(first, d) & empty) return 1;
        }
        return 0;
    }
    for (bb x = om; x; x &= x - 1) {
        int o = __builtin_ctzll(x);
        for (int d = 0; d < CAPTURE_DIRS; d++)
            if (RAY_LEN[d][o] >= 2 && (opponent >> RAY[d][o][0] & 1) && (empty >> RAY[d][o][1] & 1))
                return 1;
    }
    for (bb x = ok; x; x &= x - 1) {
        int o = __builtin_ctzll(x);
        for (int d = 0; d < CAPTURE_DIRS; d++) {
            int len = RAY_LEN[d][o], i = 0;
            const int *ray = RAY[d][o];
            while (i < len && (empty >> ray[i] & 1)) i++;
            if (i + 1 < len && (opponent >> ray[i] & 1) && (empty >> ray[i + 1] & 1)) return 1;
        }
    }
    return 0;
}

/* drawrules.one_king_each_is_drawn (Fries Spel art. 21.1), one king (``own``, to move) against
 * one king: no capture pending, and the side to move has a move after which none is forced */
static int one_king_each_is_drawn(bb own, bb other) {
    if (has_capture(0, own, 0, other)) return 0;
    bb empty = BOARD & ~(own | other);
    int o = __builtin_ctzll(own);
    for (int d = 0; d < 4; d++)
        for (int i = 0; i < RAY_LEN[d][o] && (empty >> RAY[d][o][i] & 1); i++)
            if (!has_capture(0, mirror(other), 0, mirror((bb)1 << RAY[d][o][i]))) return 1;
    return 0;
}

#endif
