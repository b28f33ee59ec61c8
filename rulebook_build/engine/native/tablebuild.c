/* Retrograde analysis of one endgame class pair, International or Fries Spel, for rulebook_build.
 *
 * The same tables as the pure-Python builder in ../tables/retrograde.py (same perfect index, same values:
 * distance to the end in plies, odd = win for the side to move, even = loss, -1 draw, -2 unused
 * slot), made 30 to 100 times faster so that 5-piece classes can be built at all.  The rules are
 * those of draughts.h for the variant: men move forward one square, capture forward and
 * backward; kings fly; captured pieces stay on the board as obstacles until the capture is over;
 * the capture of the most pieces (Fries Spel: of the greatest value, with the king's priority,
 * also orthogonally) is compulsory; a man is crowned only when its move ends on the back row.
 * Fries Spel art. 17 (no fourth non-capturing move in a row with one king while its side has
 * men) is in the index as each side's run digit, as in the Python tables: a quiet king move
 * leads to the run it makes, and taking a move back (for_each_parent) gives every run the
 * parent may have had.  tests/checker/test_native_tables.py compares every class this program
 * builds with the Python builder's, slot for slot.
 *
 * Usage: tablebuild DIR A B C D [rules] [frisian] [codes [results|marked]] [slices [JOBS]]
 *   Builds class (A men, B kings to move; C men, D kings of the other side) and its partner
 *   (C, D, A, B).  The tables of every class a capture or promotion leads to must be in DIR as
 *   mAkB-mCkD.bin files in the Python format (two header lines, then int16 little-endian).
 *   Writes DIR/mAkB-mCkD.body (and the partner's): the int16 values only; the caller adds the
 *   header.  Progress goes to stderr; exit status 0 on success, 1 on any error (with a message).
 *   With "frisian" the rules are Fries Spel's.
 *   With "rules" the values are those of the tables with count rules (KNDB art. 9b-d): a capture
 *   or promotion is a conversion, worth 1 (the child's side wins) or 0 (it loses) when the
 *   child's value fits the child's fresh count budget, else a draw; a promotion inside the same
 *   lone-king ending keeps its count, so there the child's distance is carried on.  See
 *   counted_exit in ../tables/retrograde.py, which this follows line by line.  With "slices" the pair
 *   is built one configuration of the men at a time (see SLICES): the same values in far less
 *   memory, for the International classes of six pieces and the largest Fries Spel classes of
 *   five; a pair whose class is its own partner is refused.
 *   JOBS (default 1) processes share the slices of each level (see build_by_slices).
 *   With "codes" the .body files hold one byte a slot, a *build code* (code_of), instead of the
 *   int16 value, and an exit class is read from DIR/mAkB-mCkD.wdl (its results only, two bits
 *   a slot: build codes 0 to 3, see code_of), DIR/mAkB-mCkD.kept (kept codes, pack.c kept, read
 *   as results) or DIR/mAkB-mCkD.code (build codes, one byte a slot,
 *   no header) where there is one, else from its .bin: what a parent needs of a child, in a
 *   half or an eighth of the bytes.  A .wdl serves a pure build, and one with the count rules
 *   in Fries Spel, whose captures and promotions start every count afresh: there a child's
 *   result is all that counts (exit_value), but where art. 18 runs (kings only, 3 pieces).
 *   With "codes results" (pure builds only) the .body files hold the results alone, two bits a
 *   slot as a .wdl file holds them (RESULTS_OUT).  With "codes marked" (with "rules" only) each
 *   position whose side to move must capture has bit 7 of its build code set (MARKED).
 */
#define _DEFAULT_SOURCE /* ftruncate, msync */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "draughts.h"

typedef int16_t val;

#define DRAW (-1)
#define UNUSED (-2)
#define DONE 0xFF
#define WIN_QUEUED 0xFE /* a child is lost: queued once as a win (the first time is the shortest) */
/* The side to move has a capture: a move taken back to this node is no legal quiet move, so the
 * node is nobody's parent.  Marked in the count itself (its capture exits are all counted by
 * initialise, and none is ever taken off), so that a parent's one read of its count, fetched
 * with the others (settle), also tells whether it is one: a separate bit a placement cost a
 * second read from memory in no order for every parent found, a tenth of a Fries Spel build. */
#define CAPTURING 0xFD
#define MAX_DIST 4096

/* ------------------------------------------------------------------ the tables it leads to */
typedef struct {
    int m[4];
    layout l;
    const unsigned char *values; /* int16 little-endian, or build codes, mapped from the file */
    int codes;                   /* 1: a .code file, one build code a slot; 4: a .wdl file, four
                                  * results (build codes 0 to 3) a byte, two bits a slot from the
                                  * lowest (value_at); 2: a .kept file, two kept codes a byte
                                  * (../native/pack.c kept), read for their results alone */
} exit_table;

static int RULES = 0;

/* Build codes ("codes"): one byte a slot of what a parent's build needs of a child, and what the
 * checker keeps (tables/compact.py), so that the largest Fries Spel classes need not be held
 * as int16 on disk while the classes built from them are built:
 *     0 unused   1 draw   2 a win beyond CODE_CAP plies   3 a loss beyond CODE_CAP plies
 *     4 + d / 2  a win in d plies (d odd, d <= CODE_CAP)   36 + d / 2  a loss in d (d even)
 * With the count rules the distance is kept up to CODE_CAP (compact.CAP, past every clock's
 * budget) and only whether it is a win or a loss beyond it; the pure kind keeps only the result
 * (codes 0 to 3), which is all the checker reads of it.  Read back (VALUE_OF_CODE) a distance
 * beyond the cap is CODE_CAP + 2 (a win) or + 1 (a loss): a parent's distance is one more than
 * its child's, so it comes out exact where the true one is within the cap and beyond the cap
 * where the true one is, and its result is always the true one (a win has a lost child, a loss
 * only won ones, whatever their distances).  Of a pure table built from read-back codes only
 * the results are then the true ones, and only they are written. */
#define CODE_CAP 63
#define MARK 0x80 /* bit 7 of a build code: a position that must capture ("marked", MARKED) */
static int CODES = 0;
static val VALUE_OF_CODE[256];

static uint8_t code_of(val v) {
    if (v == UNUSED) return 0;
    if (v == DRAW) return 1;
    if (!RULES || v > CODE_CAP) return v & 1 ? 2 : 3;
    return (uint8_t)(v & 1 ? 4 + v / 2 : 36 + v / 2);
}

static void init_codes(void) {
    for (int c = 0; c < 256; c++) VALUE_OF_CODE[c] = -3; /* no build code */
    VALUE_OF_CODE[0] = UNUSED;
    VALUE_OF_CODE[1] = DRAW;
    VALUE_OF_CODE[2] = CODE_CAP + 2;
    VALUE_OF_CODE[3] = CODE_CAP + 1;
    for (int k = 0; k <= CODE_CAP / 2; k++) {
        VALUE_OF_CODE[4 + k] = (val)(2 * k + 1);
        VALUE_OF_CODE[36 + k] = (val)(2 * k);
    }
}

static inline val value_of_code(uint8_t code) {
    val v = VALUE_OF_CODE[code];
    if (v == -3) { fprintf(stderr, "tablebuild: %d is no build code\n", code); exit(1); }
    return v;
}
/* Fries Spel art. 21, with the count rules: one king against one king is drawn at once unless a
 * capture is pending or forced (the class m0k1-m0k1 only) */
static int DRAWN_AT_ONCE = 0;

/* the fresh budget of a child's counts: the lone-king ending's, else the 25 king moves each */
static int fresh_budget(int ending) { return ending == 5 ? 10 : ending == 16 ? 32 : 50; }

static exit_table EXITS[64];
static int EXIT_COUNT = 0;
static const char *DIR;

static void name_of(char *out, size_t size, const int m[4], const char *suffix) {
    snprintf(out, size, "%s/m%dk%d-m%dk%d%s", DIR, m[0], m[1], m[2], m[3], suffix);
}

static exit_table *exit_for(const int m[4]) {
    for (int i = 0; i < EXIT_COUNT; i++)
        if (!memcmp(EXITS[i].m, m, sizeof(int) * 4)) return &EXITS[i];
    exit_table *e = &EXITS[EXIT_COUNT++];
    memcpy(e->m, m, sizeof(int) * 4);
    e->codes = 0;
    make_layout(&e->l, m);
    char path[4096];
    int fd = -1;
    if (CODES) { /* a class already kept as results only, or as build codes */
        name_of(path, sizeof path, m, ".wdl");
        fd = open(path, O_RDONLY);
        e->codes = fd >= 0 ? 4 : 0;
        if (fd < 0) { /* kept codes (pack kept): their results, as a .wdl's */
            name_of(path, sizeof path, m, ".kept");
            fd = open(path, O_RDONLY);
            e->codes = fd >= 0 ? 2 : 0;
        }
        /* with the count rules a child's distance counts in International (its counts may go
         * on) and in Fries Spel art. 18's ending: there results only would be a guess */
        int strong = !m[0] && !m[2] && ((m[1] == 2 && m[3] == 1) || (m[1] == 1 && m[3] == 2));
        if (fd >= 0 && RULES && (!FRISIAN || strong)) {
            fprintf(stderr, "tablebuild: %s: results only, where the count rules need distances\n", path);
            exit(1);
        }
        if (fd < 0) {
            name_of(path, sizeof path, m, ".code");
            fd = open(path, O_RDONLY);
            e->codes = fd >= 0;
        }
    }
    if (fd < 0) {
        name_of(path, sizeof path, m, ".bin");
        /* mapped, not read: the pages are shared by the jobs of a build by slices and by the
         * builds running beside it (a Fries Spel 5-piece pair leads to a class of 7 GB) */
        fd = open(path, O_RDONLY);
    }
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        fprintf(stderr, "tablebuild: %s: %s (build the smaller classes first)\n", path, strerror(errno));
        exit(1);
    }
    size_t bytes = (size_t)st.st_size, at = 0;
    const unsigned char *map = bytes ? mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
    close(fd);
    if (map == MAP_FAILED) { fprintf(stderr, "tablebuild: cannot map %s\n", path); exit(1); }
    for (int newlines = 0; newlines < 2 && at < bytes && !e->codes; at++) /* two header lines */
        if (map[at] == '\n') newlines++;
    uint64_t expected = e->codes == 4   ? (e->l.slots + 3) / 4
                        : e->codes == 2 ? (e->l.slots + 1) / 2
                                        : (e->codes ? 1 : sizeof(val)) * e->l.slots;
    if (bytes - at != expected) {
        fprintf(stderr, "tablebuild: %s: not a table of %llu slots\n", path,
                (unsigned long long)e->l.slots);
        exit(1);
    }
    e->values = map + at;
    return e;
}

/* a slot of a table the pair leads to */
static inline val value_at(const exit_table *e, int64_t slot) {
    if (e->codes == 4) return value_of_code(e->values[slot >> 2] >> 2 * (slot & 3) & 3);
    if (e->codes == 2) { /* a kept code's result: 4 a win, 5 a loss within the cap */
        int kept = e->values[slot >> 1] >> 4 * (slot & 1) & 7;
        return value_of_code((uint8_t)(kept == 4 ? 2 : kept == 5 ? 3 : kept));
    }
    if (e->codes) return value_of_code(e->values[slot] & ~MARK);
    val v;
    memcpy(&v, e->values + sizeof(val) * (uint64_t)slot, sizeof v);
    return v;
}

/* value of the child after a capture or promotion, seen from the child's side to move:
 * (own men, own kings, other men, other kings) already turned round, and the child's side to
 * move's run (Fries Spel art. 17), carried from before the move; the mover's own run ends */
static val exit_value(bb om, bb ok, bb pm, bb pk, run own, int capture, int parent_ending) {
    if (!(om | ok)) return 0; /* the side to move has no pieces: lost at once */
    int m[4] = {__builtin_popcountll(om), __builtin_popcountll(ok), __builtin_popcountll(pm),
                __builtin_popcountll(pk)};
    exit_table *e = exit_for(m);
    int64_t i = slot_of(&e->l, om, ok, pm, pk, own, NO_RUN);
    if (i < 0) { fprintf(stderr, "tablebuild: a child outside its class\n"); exit(1); }
    val v = value_at(e, i);
    if (!RULES || v < 0) return v;
    if (FRISIAN) {
        /* tables/retrograde.py counted_exit: every count starts afresh, and only art. 18 has one (two
         * kings against one king: 13 plies from a fresh start) */
        int strong = !m[0] && !m[2] && ((m[1] == 2 && m[3] == 1) || (m[1] == 1 && m[3] == 2));
        if (strong && v > 13) return DRAW;
        return v & 1 ? 1 : 0;
    }
    int ending = ending_of(m[0], m[1], m[2], m[3]);
    if (!capture && ending && ending == parent_ending) return v; /* the count goes on */
    if (v > fresh_budget(ending)) return DRAW;
    return v & 1 ? 1 : 0;
}

/* ------------------------------------------------------------------ the build */
static val *VALUES;
static uint8_t *REMAINING;
static val *LONGEST;

typedef struct {
    uint32_t *items;
    size_t count, capacity;
} bucket;
static bucket BUCKETS[MAX_DIST];
static int TOP_DISTANCE; /* the largest distance pushed since the buckets were last emptied */

static void push(int distance, uint64_t node) {
    if (distance >= MAX_DIST) { fprintf(stderr, "tablebuild: distance over %d\n", MAX_DIST); exit(1); }
    if (distance > TOP_DISTANCE) TOP_DISTANCE = distance;
    bucket *b = &BUCKETS[distance];
    if (b->count == b->capacity) {
        b->capacity = b->capacity ? 2 * b->capacity : 1024;
        b->items = realloc(b->items, sizeof(uint32_t) * b->capacity);
        if (!b->items) { fprintf(stderr, "tablebuild: out of memory\n"); exit(1); }
    }
    b->items[b->count++] = (uint32_t)node;
}

typedef struct {
    int m[4];
    layout l;
    uint64_t offset;
    int partner; /* index of the partner member (itself when symmetric) */
} member;

static member MEMBERS[2];
static int MEMBER_COUNT;

/* Built by slices ("slices"): the men of both sides are fixed and only the kings move, one
 * slice after another, the slices whose men have gone furthest first.  A man's move leaves its
 * slice for one built before, so it is looked up like a capture, and the arrays below hold one
 * slice instead of the whole pair: an International pair of six pieces needs up to 27 GB built
 * whole, the largest Fries Spel pair of five 35 GB.  A slice holds every placement of the kings
 * with every run of Fries Spel art. 17 (a quiet king move stays in its slice; a man's move ends
 * its side's run and carries the other side's into the slice it leads to).  The values are the
 * same, slot for slot (tests/checker/test_native_tables.py). */
static int SLICES = 0;
static bb SLICE_MEN[2][2];  /* [member][0: the men of its side to move, 1: the other side's] */
static uint64_t SLICE_SIZE; /* nodes of one member in a slice: the kings of both sides, the runs */
static val *OUT[2];         /* the members' tables, mapped from their .body files */
static uint8_t *OUT_CODES[2]; /* the same with "codes": build codes */

/* With "results" (a pure build with "codes") the .body files hold the results only, two bits a
 * slot as a .wdl file holds them (value_at): all a pure build's codes keep, in a quarter of the
 * bytes, so that the largest Fries Spel pair's pure kind takes 1.7 GB while it builds, not 7 */
static int RESULTS_OUT = 0;

/* With "marked" (a build with the count rules and "codes") a position whose side to move must
 * capture has bit 7 of its build code set (MARK): what a filled compact file leaves to its
 * readers (../tables/compact.py FILLED), told by the build, which knows, so that packing need
 * not generate every position's captures again ("pack kept" and "pack codes ... fill marked") */
static int MARKED = 0;

/* the build code of a node's value, marked where it must capture */
static inline uint8_t out_code(val v, uint64_t node) {
    return (uint8_t)(code_of(v) | (MARKED && REMAINING[node] == CAPTURING ? MARK : 0));
}

/* the bytes of member k's .body: a value, a build code or (RESULTS_OUT) a quarter of one a slot */
static size_t out_bytes(int k) {
    uint64_t slots = MEMBERS[k].l.slots;
    return RESULTS_OUT ? (slots + 3) / 4 : (CODES ? 1 : sizeof(val)) * slots;
}

static inline val out_value(int k, int64_t slot) {
    if (RESULTS_OUT) return value_of_code(OUT_CODES[k][slot >> 2] >> 2 * (slot & 3) & 3);
    return CODES ? value_of_code(OUT_CODES[k][slot] & ~MARK) : OUT[k][slot];
}

/* RESULTS_OUT: the results of ``count`` values into ``out`` from slot ``slot`` on, four a byte
 * from the lowest bits.  The whole bytes are this run's alone; a byte it shares at either end
 * with the slots before or after (a block of another slice, maybe of another job writing at
 * the same time) is or-ed in atomically: every slot is 0 until it is written, once. */
static void put_results(uint8_t *out, uint64_t slot, const val *from, uint64_t count) {
    uint64_t i = 0;
    for (; i < count && (slot + i) & 3; i++)
        __atomic_fetch_or(&out[(slot + i) >> 2], (uint8_t)(code_of(from[i]) << 2 * ((slot + i) & 3)),
                          __ATOMIC_RELAXED);
    for (; i + 4 <= count; i += 4)
        out[(slot + i) >> 2] = (uint8_t)(code_of(from[i]) | code_of(from[i + 1]) << 2 |
                                         code_of(from[i + 2]) << 4 | code_of(from[i + 3]) << 6);
    for (; i < count; i++)
        __atomic_fetch_or(&out[(slot + i) >> 2], (uint8_t)(code_of(from[i]) << 2 * ((slot + i) & 3)),
                          __ATOMIC_RELAXED);
}

/* built by slices, the node of a position of member k (side to move as White) with its runs,
 * or -1 outside the slice; only for a parent whose men are those of the slice (a king's move
 * taken back: the caller checks the men once), with the rank of the other side's kings
 * (``r3``), the same for every parent of a node, given (a pair built whole: node_of_ranks) */
static int64_t slice_kings_node(int k, bb ok, int64_t r3, bb pk, run own, run other) {
    const member *mb = &MEMBERS[k];
    int64_t r1 = rank_of(1, ok, mb->m[1]);
    if (r1 < 0 || r3 < 0) return -1;
    int64_t kings = r1 * (int64_t)mb->l.count[3] + r3;
    return (int64_t)(k * SLICE_SIZE) + with_runs(&mb->l, kings, ok, pk, own, other);
}

/* node_of for a pair built whole, from the ranks of the four groups (rank_of, -1 for a set
 * outside its domain): the parents of a node share three of the four, so each is ranked once */
static int64_t node_of_ranks(int k, const int64_t r[4], bb ok, bb pk, run own, run other) {
    const member *mb = &MEMBERS[k];
    if (r[0] < 0 || r[1] < 0 || r[2] < 0 || r[3] < 0) return -1;
    const layout *l = &mb->l;
    int64_t i = r[0] * (int64_t)l->mult[0] + r[1] * (int64_t)l->mult[1] + r[2] * (int64_t)l->mult[2] + r[3];
    return (int64_t)mb->offset + with_runs(l, i, ok, pk, own, other);
}

/* the member, position and runs of a node; 0 for an unused slot (two pieces on one square) */
/* the member a node belongs to */
static inline int member_of(uint64_t node) {
    return SLICES ? node >= SLICE_SIZE : MEMBER_COUNT == 2 && node >= MEMBERS[1].offset;
}

static int decode_node(uint64_t node, int *k, bb *om, bb *ok, bb *pm, bb *pk, run *own, run *other) {
    *own = *other = NO_RUN;
    *k = member_of(node);
    if (!SLICES) return decode_slot(&MEMBERS[*k].l, node - MEMBERS[*k].offset, om, ok, pm, pk, own, other);
    uint64_t r = node - (uint64_t)*k * SLICE_SIZE;
    const layout *l = &MEMBERS[*k].l;
    uint64_t kings = quotient(r, l->by_digits);
    uint64_t r1 = quotient(kings, l->by_mult[2]); /* mult[2] is count[3] */
    *om = SLICE_MEN[*k][0];
    *pm = SLICE_MEN[*k][1];
    *ok = l->sets[1][r1];
    *pk = l->sets[3][kings - r1 * l->count[3]];
    if (!disjoint(*om, *ok, *pm, *pk)) return 0;
    runs_of_slot(l, r, *ok, *pk, own, other);
    return 1;
}

/* The nodes of one placement (one for every run of both sides, 1 in International): a node
 * divided by DIGITS is its placement. */
static uint64_t DIGITS;
static divisor BY_DIGITS;

/* one capture or promotion, worth ``v`` for the child's side to move: a draw or a win for the
 * side to move keeps this position from being lost; a win for the child counts towards a loss */
static void count_exit(val v, int *remaining, int *longest, int *best_win) {
    if (v == UNUSED) { fprintf(stderr, "tablebuild: a child in an unused slot\n"); exit(1); }
    if (v != DRAW && (v & 1)) {
        if (v + 1 > *longest) *longest = v + 1;
        return;
    }
    (*remaining)++;
    if (v != DRAW && (!*best_win || v + 1 < *best_win)) *best_win = v + 1;
}

/* what a node's forward moves add up to: the moves, those that do not lose (counted down as
 * their children are found won), the longest loss and the shortest win among its exits */
typedef struct {
    int moves, remaining, longest, best_win;
} tally;

/* The forward moves of the nodes of one placement (DIGITS nodes in a row, one for every run of
 * both sides): counts quiet moves that stay in the pair, looks up the rest.  The position is
 * decoded and its captures generated once for all its nodes, and what the moves add up to is
 * worked out once a run: a capture or a man's move depends only on the other side's run (which
 * it carries on), a quiet king move only on the side to move's own (Fries Spel art. 17: the
 * king whose run is at three may not make one).  Decoding and generating for each node again
 * took a quarter of the time of a Fries Spel class with runs. */
static void initialise(uint64_t first) {
    int k;
    bb om, ok, pm, pk;
    run own, other;
    if (!decode_node(first, &k, &om, &ok, &pm, &pk, &own, &other)) {
        for (uint64_t node = first; node < first + DIGITS; node++) {
            VALUES[node] = UNUSED;
            REMAINING[node] = DONE;
        }
        return;
    }
    if (DRAWN_AT_ONCE && one_king_each_is_drawn(ok, pk)) {
        for (uint64_t node = first; node < first + DIGITS; node++) {
            VALUES[node] = DRAW;
            LONGEST[node] = 0;
            REMAINING[node] = DONE; /* a draw now, whatever follows */
        }
        return;
    }
    const layout *l = &MEMBERS[k].l;
    int parent_ending = ending_of(__builtin_popcountll(om), __builtin_popcountll(ok),
                                  __builtin_popcountll(pm), __builtin_popcountll(pk));
    int n = captures(om, ok, pm, pk);
    if (CAP_OVERFLOW) { fprintf(stderr, "tablebuild: more capture routes than %d\n", MAX_CAPTURES); exit(1); }
    bb empty = BOARD & ~(om | ok | pm | pk);
    /* the captures, or else the men's moves, for each run of the other side */
    tally by_other[32];
    for (uint64_t o = 0; o < l->other_digits; o++) {
        tally *t = &by_other[o];
        *t = (tally){0, 0, 0, 0};
        other = l->other_digits > 1 ? run_of_digit(o, pk) : NO_RUN;
        /* after a capture or promotion the other side moves with its run as it was, if it
         * still counts (its king not captured, its men not all gone) */
        run carried = mirror_run(other);
        for (int i = 0; i < n; i++) {
            capture *c = &CAPS[i];
            bb from = (bb)1 << c->origin, to = (bb)1 << c->dest;
            bb nm = om, nk = ok;
            if (c->king) nk = (nk & ~from) | to;
            else {
                nm &= ~from;
                if (to & PROMOTION) nk |= to; else nm |= to;
            }
            bb qm = pm & ~c->captured, qk = pk & ~c->captured;
            t->moves++;
            run kept = qm && (qk >> other.bit & 1) ? carried : NO_RUN;
            val v = exit_value(mirror(qm), mirror(qk), mirror(nm), mirror(nk), kept, 1, parent_ending);
            count_exit(v, &t->remaining, &t->longest, &t->best_win);
        }
        if (n) continue;
        for (bb x = om; x; x &= x - 1) {
            int from = __builtin_ctzll(x);
            for (int d = 0; d < 2; d++) { /* men move up only */
                if (!RAY_LEN[d][from]) continue;
                int square = RAY[d][from][0];
                if (!(empty >> square & 1)) continue;
                t->moves++;
                bb to = (bb)1 << square;
                if (to & PROMOTION) {
                    val v = exit_value(mirror(pm), mirror(pk), mirror(om & ~((bb)1 << from)),
                                       mirror(ok | to), carried, 0, parent_ending);
                    count_exit(v, &t->remaining, &t->longest, &t->best_win);
                } else if (SLICES) { /* into a slice built before: its value is known */
                    const member *pa = &MEMBERS[MEMBERS[k].partner];
                    bb after = mirror((om & ~((bb)1 << from)) | to);
                    /* the mover's run ends with a man's move, the other side's goes on */
                    int64_t i = slot_of(&pa->l, mirror(pm), mirror(pk), after, mirror(ok), carried, NO_RUN);
                    if (i < 0) { fprintf(stderr, "tablebuild: a child outside its class\n"); exit(1); }
                    count_exit(out_value(MEMBERS[k].partner, i), &t->remaining, &t->longest, &t->best_win);
                } else t->remaining++;
            }
        }
    }
    /* the quiet moves of each king (none where the side to move must capture) */
    int king_moves = 0, moves_of[64];
    if (!n)
        for (bb x = ok; x; x &= x - 1) {
            int from = __builtin_ctzll(x), count = 0;
            for (int d = 0; d < 4; d++)
                for (int i = 0; i < RAY_LEN[d][from] && (empty >> RAY[d][from][i] & 1); i++) count++;
            moves_of[from] = count;
            king_moves += count;
        }
    uint64_t node = first;
    for (uint64_t d = 0; d < l->own_digits; d++) {
        own = l->own_digits > 1 ? run_of_digit(d, ok) : NO_RUN;
        int kings = king_moves;
        /* Fries Spel art. 17: the king whose run is at three may not make a quiet move */
        if (!n && FRISIAN && own.count >= RUN_LIMIT && om) kings -= moves_of[own.bit];
        for (uint64_t o = 0; o < l->other_digits; o++, node++) {
            const tally *t = &by_other[o];
            int moves = t->moves + kings, remaining = t->remaining + kings;
            VALUES[node] = DRAW;
            LONGEST[node] = (val)t->longest;
            REMAINING[node] = n ? CAPTURING : (uint8_t)remaining;
            if (!moves) push(0, node);
            else if (t->best_win) push(t->best_win, node);
            else if (!remaining) push(t->longest, node);
            if (remaining > 250) { fprintf(stderr, "tablebuild: too many moves\n"); exit(1); }
        }
    }
}

/* The parents of a group of nodes settled together: one placement, one run of the side that
 * moved last, and each of ``GROUP_COUNT`` runs of the side to move (the nodes ``GROUP``).  The
 * side to move here keeps its run through the move taken back: in the parent it is the other
 * side's, the last digit of the parent's slot (``with_runs``), so the parents of every node of
 * the group are the parents of one of them with that digit changed.  The moves are taken back
 * once for the group, the parents found with no run of that side (``for_each_parent``), and each
 * is visited once for each node, at the node's digit (``OFFSET``): taking the moves back and
 * ranking the parents for every node again was some two thirds of a Fries Spel build. */
static uint64_t GROUP[64];
static int64_t OFFSET[64];
static int GROUP_COUNT;

static void visit_group(uint64_t parent, void (*visit)(uint64_t, int), int distance) {
    for (int j = 0; j < GROUP_COUNT; j++) visit(parent + (uint64_t)OFFSET[j], distance);
}

/* the parent ``first`` (a node of member ``pa`` with no run of either side), and the same
 * position with each run its side to move may have had there (``digits``: 0 no run, 1 every
 * run, 2 every run but one of the king on ``except``; ``kings``: that side's kings): visit
 * each, for every node of the group (``visit_group``) */
static void visit_parents(int pa, uint64_t first, bb kings, int digits, int except,
                          void (*visit)(uint64_t, int), int distance) {
    visit_group(first, visit, distance);
    if (!digits) return;
    const layout *l = &MEMBERS[pa].l;
    for (uint64_t d = 1; d < l->own_digits; d++)
        if (digits == 1 || run_of_digit(d, kings).bit != except)
            visit_group(first + d * l->other_digits, visit, distance);
}

/* every position of the pair with a quiet move (not a promotion) to a node of the group
 * (``GROUP``); calls visit(parent) for each node and each of its parents.
 * Fries Spel art. 17: the side that moved (the other side here) has a run where it has men and
 * kings.  A man's move leaves it none, and it may have had any run before; a king's move leaves
 * that king a run: of one move, if before it had none or one of another king, else of one more
 * than before, with the same king. */
static void for_each_parent(void (*visit)(uint64_t, int), int distance) {
    int k;
    bb om, ok, pm, pk;
    run own, other;
    decode_node(GROUP[0], &k, &om, &ok, &pm, &pk, &own, &other);
    int pa = MEMBERS[k].partner;
    /* each node's run of the side to move (its slot's digit, runs_of_slot: the group shares
     * the placement), as the parent's last digit (with_runs); the parents are found with none
     * (``before``) */
    const layout *l = &MEMBERS[k].l, *pl = &MEMBERS[pa].l;
    for (int j = 0; j < GROUP_COUNT; j++) {
        run mine = j ? run_of_digit(GROUP[j] % DIGITS / l->other_digits, ok) : own;
        OFFSET[j] = pl->slots != pl->size && pl->other_digits > 1
                        ? (int64_t)run_digit(mirror_run(mine), mirror(ok))
                        : 0;
    }
    own = NO_RUN;
    bb empty = BOARD & ~(om | ok | pm | pk);
    int runs = MEMBERS[pa].l.own_digits > 1; /* the side that moved has a run digit */
    const int *pm4 = MEMBERS[pa].l.m;
    /* the parents are turned round so that their side to move is White: the sets turned once,
     * the piece taken back moved in them bit by bit (a square's bit b turns into 55 - b) */
    bb c = mirror(om), e = mirror(ok), mpm = mirror(pm), mpk = mirror(pk);
    /* built whole, the parent's groups ranked once: the side to move here is the parent's
     * other side (groups 2 and 3), whose pieces stand still */
    int64_t r[4] = {0, 0, 0, 0};
    r[3] = rank_of(1, e, pm4[3]);
    if (!SLICES) r[2] = rank_of(2, c, pm4[2]);
    /* by slices, a man's move taken back leads out of the slice (its parent, in a slice built
     * later, looks this node up when it is built: initialise), and a king's leaves the men as
     * they are: the parents in this slice are those of the kings, whose men are checked once */
    if (SLICES && (mpm != SLICE_MEN[pa][0] || c != SLICE_MEN[pa][1])) return;
    /* in the parent the side to move here is the other side, with its run turned round */
    run before = mirror_run(own);
    /* the other side (moving down in this frame) made the last move: take it back */
    if (!other.count && !SLICES) { /* with a run, the last move was that king's */
        r[1] = rank_of(1, mpk, pm4[1]);
        for (bb x = pm; x; x &= x - 1) {
            int t = __builtin_ctzll(x);
            for (int d = 0; d < 2; d++) { /* it came from one square up */
                if (!RAY_LEN[d][t]) continue;
                int f = RAY[d][t][0];
                if (!(empty >> f & 1)) continue;
                /* the parent's men of its side to move: the man back from t to f */
                bb a = (mpm & ~((bb)1 << mirror_bit(t))) | (bb)1 << mirror_bit(f), b = mpk;
                r[0] = rank_of(0, a, pm4[0]);
                int64_t first = node_of_ranks(pa, r, b, e, NO_RUN, before);
                if (first < 0) continue;
                visit_parents(pa, (uint64_t)first, b, runs, -1, visit, distance);
            }
        }
    }
    if (!SLICES) r[0] = rank_of(0, mpm, pm4[0]);
    for (bb x = pk; x; x &= x - 1) {
        int t = __builtin_ctzll(x);
        if (runs && (!other.count || other.bit != t)) continue; /* not the king that moved last */
        for (int d = 0; d < 4; d++)
            for (int i = 0; i < RAY_LEN[d][t] && (empty >> RAY[d][t][i] & 1); i++) {
                int f = RAY[d][t][i];
                bb b = (mpk & ~((bb)1 << mirror_bit(t))) | (bb)1 << mirror_bit(f);
                if (!SLICES) r[1] = rank_of(1, b, pm4[1]);
                if (!runs || other.count == 1) {
                    int64_t first = SLICES ? slice_kings_node(pa, b, r[3], e, NO_RUN, before)
                                           : node_of_ranks(pa, r, b, e, NO_RUN, before);
                    if (first < 0) continue;
                    visit_parents(pa, (uint64_t)first, b, runs ? 2 : 0, mirror_bit(f), visit, distance);
                } else {
                    run moved = {other.count - 1, mirror_bit(f)};
                    int64_t j = SLICES ? slice_kings_node(pa, b, r[3], e, moved, before)
                                       : node_of_ranks(pa, r, b, e, moved, before);
                    if (j >= 0) visit_group((uint64_t)j, visit, distance);
                }
            }
    }
}

static void parent_of_loss(uint64_t parent, int distance) {
    /* the child is lost in ``distance``: the parent wins in one more.  Children are settled by
     * increasing distance, so the first lost child gives the shortest win and the parent is
     * queued once (a capture's win queued by initialise may still be shorter, and comes first) */
    if (REMAINING[parent] >= CAPTURING) return; /* settled (DONE), queued already, or no parent */
    REMAINING[parent] = WIN_QUEUED;
    push(distance + 1, parent);
}

static void parent_of_win(uint64_t parent, int distance) {
    /* a node queued as a win is no loss: its moves need no more counting */
    if (REMAINING[parent] >= CAPTURING) return;
    if (distance + 1 > LONGEST[parent]) LONGEST[parent] = (val)(distance + 1);
    if (--REMAINING[parent] == 0) push(LONGEST[parent], parent);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* the parents of the node being settled, gathered first so that their counts can be fetched from
 * memory together (the counts are read in no order: most of the time goes in waiting for them) */
static uint64_t *FOUND;
static size_t FOUND_COUNT, FOUND_CAPACITY;

/* With -DCOUNT_WORK (benchmarks/builder_work.py only) the builder counts its work and says it on
 * standard error at the end: the nodes settled, the parents visited (one read and write of a
 * count each), and the seconds of the forward pass and of settling.  Built without it, as the
 * package builds it, none of this is compiled. */
#ifdef COUNT_WORK
static uint64_t WORK_SETTLED, WORK_VISITS;
static double WORK_FORWARD, WORK_SETTLE;
#define COUNT(counter, amount) ((counter) += (amount))
static double work_clock(void) { return now(); }
static void report_work(void) {
    fprintf(stderr, "work: settled %llu visits %llu forward %.3f settle %.3f\n",
            (unsigned long long)WORK_SETTLED, (unsigned long long)WORK_VISITS, WORK_FORWARD, WORK_SETTLE);
}
#else
#define COUNT(counter, amount) ((void)(amount))
static double work_clock(void) { return 0; } /* no clock read where nothing is counted */
static void report_work(void) {}
#endif

static void found(uint64_t parent, int distance) {
    (void)distance;
    if (FOUND_COUNT == FOUND_CAPACITY) {
        FOUND_CAPACITY = FOUND_CAPACITY ? 2 * FOUND_CAPACITY : 1024;
        FOUND = realloc(FOUND, sizeof(uint64_t) * FOUND_CAPACITY);
        if (!FOUND) { fprintf(stderr, "tablebuild: out of memory\n"); exit(1); }
    }
    FOUND[FOUND_COUNT++] = parent;
}

#define AHEAD 16 /* nodes of a bucket whose counts and values are fetched ahead of their turn */
#define BATCH 32 /* nodes of a bucket settled before their parents are updated */

/* A bucket's nodes in increasing order (radix sort, two passes of 16 bits), so that the nodes of
 * one placement come together and their parents are found once (``for_each_parent``), and the
 * counts are read in order.  The values are the same in any order: a node's settling pushes
 * only into later buckets, and a parent's update never settles a node of this one.  Fries Spel
 * only (9 % faster even where a placement has one node, from the counts read in order): the
 * International builds keep their order and their memory (the sort needs a second array as
 * long as the bucket, and their largest pairs are built whole). */
static uint32_t *SORTED;
static size_t SORTED_CAPACITY;

static void sort_bucket(bucket *b) {
    if (b->count < 2) return;
    if (SORTED_CAPACITY < b->count) {
        free(SORTED);
        SORTED_CAPACITY = b->count;
        SORTED = malloc(sizeof(uint32_t) * SORTED_CAPACITY);
        if (!SORTED) { fprintf(stderr, "tablebuild: out of memory\n"); exit(1); }
    }
    static size_t count[1 << 16];
    uint32_t *from = b->items, *to = SORTED;
    for (int shift = 0; shift < 32; shift += 16) {
        memset(count, 0, sizeof count);
        for (size_t i = 0; i < b->count; i++) count[from[i] >> shift & 0xFFFF]++;
        size_t at = 0;
        for (size_t v = 0; v < (1 << 16); v++) {
            size_t n = count[v];
            count[v] = at;
            at += n;
        }
        for (size_t i = 0; i < b->count; i++) to[count[from[i] >> shift & 0xFFFF]++] = from[i];
        uint32_t *t = from;
        from = to;
        to = t;
    }
    /* two passes: the sorted nodes are back in the bucket's own array */
}

/* whether a node of the bucket being emptied is still to be settled (a node is pushed again
 * where a shorter win was found for it, and settled by the first) */
static inline int unsettled(uint64_t node) { return REMAINING[node] != DONE && VALUES[node] == DRAW; }

/* a node given its value: DONE, but a position that must capture stays CAPTURING (nobody's
 * parent either way, and settled by its value), so that its slot can be marked (MARKED) */
static inline void settled(uint64_t node) {
    if (REMAINING[node] != CAPTURING) REMAINING[node] = DONE;
}

/* values by increasing distance from the buckets; keeps their memory for the next slice */
static void settle(int keep) {
    for (int distance = 0; distance <= TOP_DISTANCE; distance++) {
        bucket *b = &BUCKETS[distance];
        if (FRISIAN) sort_bucket(b);
        /* BATCH nodes settled, then all their parents' counts fetched and updated: the fetches
         * of one node's few parents had too little to overlap with.  The same values as node by
         * node: a parent's update never settles a node nor changes whether it is settled when
         * its turn comes, and pushes only into later buckets */
        for (size_t i = 0; i < b->count;) {
            FOUND_COUNT = 0;
            for (size_t end = i + BATCH < b->count ? i + BATCH : b->count; i < end;) {
                uint64_t node = b->items[i++];
                if (i + AHEAD < b->count) { /* the bucket's nodes are far apart: fetch early */
                    __builtin_prefetch(&REMAINING[b->items[i + AHEAD]], 1);
                    __builtin_prefetch(&VALUES[b->items[i + AHEAD]], 1);
                }
                if (!unsettled(node)) continue;
                /* the group: the nodes of this placement settled now whose side that moved last
                 * has the same run (the same last digit of the slot), one for each run of the
                 * side to move (the bucket is sorted: they follow it, among the placement's
                 * other nodes) */
                VALUES[node] = (val)distance;
                settled(node);
                GROUP[0] = node;
                GROUP_COUNT = 1;
                if (FRISIAN && DIGITS > 1) { /* (International: a placement is one node) */
                    uint64_t first = quotient(node, BY_DIGITS) * DIGITS, end = first + DIGITS;
                    uint64_t other_digits = MEMBERS[member_of(node)].l.other_digits;
                    uint64_t last = (node - first) % other_digits;
                    for (size_t j = i; j < b->count && b->items[j] < end; j++) {
                        uint64_t next = b->items[j];
                        if ((next - first) % other_digits != last || !unsettled(next)) continue;
                        VALUES[next] = (val)distance;
                        settled(next);
                        GROUP[GROUP_COUNT++] = next;
                    }
                }
                COUNT(WORK_SETTLED, (uint64_t)GROUP_COUNT);
                for_each_parent(found, distance);
            }
            COUNT(WORK_VISITS, FOUND_COUNT);
            for (size_t j = 0; j < FOUND_COUNT; j++) __builtin_prefetch(&REMAINING[FOUND[j]], 1);
            if (distance & 1) {
                for (size_t j = 0; j < FOUND_COUNT; j++) __builtin_prefetch(&LONGEST[FOUND[j]], 1);
                for (size_t j = 0; j < FOUND_COUNT; j++) parent_of_win(FOUND[j], distance);
            } else
                for (size_t j = 0; j < FOUND_COUNT; j++) parent_of_loss(FOUND[j], distance);
        }
        b->count = 0;
        if (!keep) {
            free(b->items);
            b->items = NULL;
            b->capacity = 0;
        }
    }
    TOP_DISTANCE = 0;
}

/* men of one slice, with how far they have gone (the sum of their rows towards promotion) */
typedef struct {
    bb own, other;
    int advance;
} slice;

static int further_first(const void *a, const void *b) {
    return ((const slice *)b)->advance - ((const slice *)a)->advance;
}

static int rows_gone(bb men, int up) {
    int sum = 0;
    for (bb x = men; x; x &= x - 1) {
        int row = (SQUARE_OF[__builtin_ctzll(x)] - 1) / 5; /* 0: squares 1-5 */
        sum += up ? 9 - row : row;
    }
    return sum;
}

/* the members' tables are written as .body.part files, renamed to .body only when complete and
 * removed on any failure, so no half-built table is ever left behind */
static char PART[2][4096];
static int COMPLETE;

static void remove_parts(void) {
    if (COMPLETE) return;
    for (int k = 0; k < 2; k++)
        if (PART[k][0]) unlink(PART[k]);
}

/* the members' .body.part files, every slot unused at first, mapped for the slices to fill */
static void map_outputs(void) {
    atexit(remove_parts);
    for (int k = 0; k < MEMBER_COUNT; k++) {
        char *path = PART[k];
        name_of(path, sizeof PART[k], MEMBERS[k].m, ".body.part");
        size_t bytes = out_bytes(k);
        int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || ftruncate(fd, (off_t)bytes) != 0) {
            fprintf(stderr, "tablebuild: cannot write %s\n", path);
            exit(1);
        }
        void *map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        close(fd);
        if (map == MAP_FAILED) { fprintf(stderr, "tablebuild: cannot map %s\n", path); exit(1); }
        if (CODES) {
            OUT_CODES[k] = map; /* all unused (code 0) as the file is made */
            continue;
        }
        OUT[k] = map;
        for (uint64_t i = 0; i < MEMBERS[k].l.slots; i++) OUT[k][i] = UNUSED;
    }
}

/* one slice: the men fixed, both members' positions of them settled among themselves, then
 * copied into the members' tables */
static void build_slice(const slice *one) {
    SLICE_MEN[0][0] = one->own;
    SLICE_MEN[0][1] = one->other;
    SLICE_MEN[1][0] = mirror(one->other);
    SLICE_MEN[1][1] = mirror(one->own);
    double started = work_clock();
    for (uint64_t node = 0; node < 2 * SLICE_SIZE; node += DIGITS) initialise(node);
    double settling = work_clock();
    settle(1);
    COUNT(WORK_FORWARD, settling - started);
    COUNT(WORK_SETTLE, work_clock() - settling);
    /* A slice's nodes of one placement of the kings to move lie in a member's table in the
     * same order, one after another: the placements of the other kings, each with its runs
     * (slot_of).  Copied so, a block at a time, instead of each node decoded and its slot
     * worked out again; an unused node is UNUSED in both. */
    for (int k = 0; k < 2; k++) {
        const layout *l = &MEMBERS[k].l;
        uint64_t r0 = (uint64_t)rank_of(0, SLICE_MEN[k][0], l->m[0]);
        uint64_t r2 = (uint64_t)rank_of(2, SLICE_MEN[k][1], l->m[2]);
        uint64_t block = l->count[3] * DIGITS;
        for (uint64_t r1 = 0; r1 < l->count[1]; r1++) {
            uint64_t slot = (r0 * l->mult[0] + r1 * l->mult[1] + r2 * l->mult[2]) * DIGITS;
            const val *from = &VALUES[k * SLICE_SIZE + r1 * block];
            if (!CODES) memcpy(&OUT[k][slot], from, sizeof(val) * block);
            else if (RESULTS_OUT) put_results(OUT_CODES[k], slot, from, block);
            else
                for (uint64_t i = 0; i < block; i++)
                    OUT_CODES[k][slot + i] = out_code(from[i], k * SLICE_SIZE + r1 * block + i);
        }
    }
}

/* every table a capture or promotion of the pair may lead to (tables/index.py successor_classes),
 * read before any job starts, so that the jobs share one copy of them */
static void load_exits(void) {
    for (int k = 0; k < MEMBER_COUNT; k++) {
        const int *m = MEMBERS[k].m;
        for (int promoted = 0; promoted <= (m[0] ? 1 : 0); promoted++)
            for (int men = 0; men <= m[2]; men++)
                for (int kings = 0; kings <= m[3]; kings++) {
                    int target[4] = {men, kings, m[0] - promoted, m[1] + promoted};
                    int member = 0;
                    for (int j = 0; j < MEMBER_COUNT; j++)
                        if (!memcmp(target, MEMBERS[j].m, sizeof target)) member = 1;
                    if (men + kings && !member) exit_for(target);
                }
    }
}

/* Slices are built by levels of advance, most advanced first: a man's move advances its side
 * one row, so it leads into the next level, already built, and the slices of one level do not
 * read each other.  With JOBS > 1 the slices of a level are shared out to JOBS processes (the
 * outputs are shared mappings), and the next level starts when all of them are done. */
static int build_by_slices(double started, int jobs) {
    if (MEMBER_COUNT != 2) {
        fprintf(stderr, "tablebuild: slices: a class that is its own partner is built whole\n");
        return 1;
    }
    const layout *l = &MEMBERS[0].l;
    /* the partner's kings and digits are this member's the other way round: the same size */
    SLICE_SIZE = l->count[1] * l->count[3] * l->own_digits * l->other_digits;
    if (2 * SLICE_SIZE >= 0xFFFFFFFFull) { fprintf(stderr, "tablebuild: slice too large\n"); return 1; }
    VALUES = malloc(sizeof(val) * 2 * SLICE_SIZE);
    REMAINING = malloc(2 * SLICE_SIZE);
    LONGEST = malloc(sizeof(val) * 2 * SLICE_SIZE);
    slice *slices = malloc(sizeof(slice) * l->count[0] * l->count[2]);
    if (!VALUES || !REMAINING || !LONGEST || !slices) { fprintf(stderr, "tablebuild: out of memory\n"); return 1; }
    size_t count = 0;
    for (uint64_t r0 = 0; r0 < l->count[0]; r0++)
        for (uint64_t r2 = 0; r2 < l->count[2]; r2++) {
            bb own = l->sets[0][r0], other = l->sets[2][r2];
            if (own & other) continue;
            slices[count++] = (slice){own, other, rows_gone(own, 1) + rows_gone(other, 0)};
        }
    qsort(slices, count, sizeof(slice), further_first);
    load_exits();
    map_outputs();
    fflush(stderr);
    double next_report = now() + 10;
    for (size_t first = 0, end; first < count; first = end) {
        for (end = first; end < count && slices[end].advance == slices[first].advance; end++) {}
        size_t width = end - first;
        int procs = (size_t)jobs < width ? jobs : (int)width;
        pid_t helper[64];
        int job = 0; /* this process takes the slices first + job, + procs, ... of the level */
        for (int j = 1; j < procs && !job; j++) {
            pid_t pid = fork();
            if (pid < 0) { fprintf(stderr, "tablebuild: cannot start a job\n"); exit(1); }
            if (pid == 0) {
                COMPLETE = 1; /* a helper leaves the files to the main process */
                job = j;
            } else {
                helper[j] = pid;
            }
        }
        size_t step = (size_t)procs;
        for (size_t s = first + (size_t)job; s < end; s += step) {
            build_slice(&slices[s]);
            if (!job && now() >= next_report) { /* at most every 10 s, between slices */
                fprintf(stderr, "tablebuild: slice %zu of %zu, %.0f s\n", s + 1, count, now() - started);
                next_report = now() + 10;
            }
        }
        if (job) _exit(0);
        int failed = 0;
        for (int j = 1; j < procs; j++) {
            int status;
            if (waitpid(helper[j], &status, 0) != helper[j] || !WIFEXITED(status) || WEXITSTATUS(status))
                failed = 1;
        }
        if (failed) { fprintf(stderr, "tablebuild: a job failed\n"); return 1; }
    }
    for (int k = 0; k < 2; k++) {
        char done[4096];
        name_of(done, sizeof done, MEMBERS[k].m, ".body");
        void *out = CODES ? (void *)OUT_CODES[k] : (void *)OUT[k];
        size_t bytes = out_bytes(k);
        if (msync(out, bytes, MS_SYNC) != 0 || rename(PART[k], done) != 0) {
            fprintf(stderr, "tablebuild: cannot write %s\n", done);
            return 1;
        }
    }
    COMPLETE = 1;
    fprintf(stderr, "tablebuild: %zu slices done in %.1f s\n", count, now() - started);
    report_work();
    return 0;
}

/* a member's values into its .body (its nodes from ``first``): as int16, or with "codes" as
 * build codes (with "results" their results, four a byte) */
static int write_values(FILE *f, uint64_t first, uint64_t count) {
    const val *values = VALUES + first;
    if (!CODES) return fwrite(values, sizeof(val), count, f) == count;
    static uint8_t chunk[1 << 16];
    for (uint64_t at = 0; at < count;) {
        size_t n = count - at < sizeof chunk ? (size_t)(count - at) : sizeof chunk;
        size_t bytes = n;
        if (RESULTS_OUT) { /* sizeof chunk is a multiple of 4: only the last chunk is short */
            memset(chunk, 0, (n + 3) / 4);
            put_results(chunk, 0, values + at, n);
            bytes = (n + 3) / 4;
        } else
            for (size_t i = 0; i < n; i++) chunk[i] = out_code(values[at + i], first + at + i);
        if (fwrite(chunk, 1, bytes, f) != bytes) return 0;
        at += n;
    }
    return 1;
}

int main(int argc, char **argv) {
    die_with_parent();
    int jobs = 1, frisian = 0;
    for (int i = 6; i < argc; i++) {
        if (!strcmp(argv[i], "rules")) RULES = 1;
        else if (!strcmp(argv[i], "frisian") && !SLICES) frisian = 1;
        else if (!strcmp(argv[i], "codes") && !SLICES) CODES = 1;
        else if (!strcmp(argv[i], "results") && CODES && !RULES && !SLICES) RESULTS_OUT = 1;
        else if (!strcmp(argv[i], "marked") && CODES && RULES && !SLICES) MARKED = 1;
        else if (!strcmp(argv[i], "slices")) SLICES = 1;
        else if (SLICES && jobs == 1 && atoi(argv[i]) >= 1 && atoi(argv[i]) <= 64) jobs = atoi(argv[i]);
        else argc = 0;
    }
    if (argc < 6) {
        fprintf(stderr, "usage: tablebuild DIR A B C D [rules] [frisian] [codes [results|marked]] [slices [JOBS]]\n");
        return 1;
    }
    DIR = argv[1];
    int m[4];
    for (int i = 0; i < 4; i++) {
        m[i] = atoi(argv[2 + i]);
        if (m[i] < 0 || m[i] > 7) { fprintf(stderr, "tablebuild: bad material\n"); return 1; }
    }
    init_geometry(frisian);
    init_codes();
    DRAWN_AT_ONCE = frisian && RULES && m[0] == 0 && m[1] == 1 && m[2] == 0 && m[3] == 1;
    init_index();
    int partner[4] = {m[2], m[3], m[0], m[1]};
    MEMBER_COUNT = memcmp(m, partner, sizeof m) ? 2 : 1;
    memcpy(MEMBERS[0].m, m, sizeof m);
    make_layout(&MEMBERS[0].l, m);
    list_sets(&MEMBERS[0].l);
    MEMBERS[0].offset = 0;
    MEMBERS[0].partner = MEMBER_COUNT == 2 ? 1 : 0;
    uint64_t total = MEMBERS[0].l.slots;
    if (MEMBER_COUNT == 2) {
        memcpy(MEMBERS[1].m, partner, sizeof m);
        make_layout(&MEMBERS[1].l, partner);
        list_sets(&MEMBERS[1].l);
        MEMBERS[1].offset = total;
        MEMBERS[1].partner = 0;
        total += MEMBERS[1].l.slots;
    }
    double started = now();
    /* the partner's digits are this class's the other way round: the same number a placement */
    DIGITS = MEMBERS[0].l.own_digits * MEMBERS[0].l.other_digits;
    BY_DIGITS = divisor_of(DIGITS);
    if (SLICES) return build_by_slices(started, jobs);
    if (total >= 0xFFFFFFFFull) { fprintf(stderr, "tablebuild: class pair too large (build it by slices)\n"); return 1; }
    VALUES = malloc(sizeof(val) * total);
    REMAINING = malloc(total);
    LONGEST = malloc(sizeof(val) * total);
    if (!VALUES || !REMAINING || !LONGEST) { fprintf(stderr, "tablebuild: out of memory\n"); return 1; }
    for (int k = 0; k < MEMBER_COUNT; k++) {
        uint64_t size = MEMBERS[k].l.slots;
        for (uint64_t i = 0; i < size; i += DIGITS) {
            initialise(MEMBERS[k].offset + i);
            if (i / DIGITS % 0x100000 == 0 && i)
                fprintf(stderr, "tablebuild: forward pass %.0f%%\n", 100.0 * (MEMBERS[k].offset + i) / total);
        }
    }
    double settling = now();
    fprintf(stderr, "tablebuild: forward pass done in %.1f s\n", settling - started);
    settle(0);
    fprintf(stderr, "tablebuild: done in %.1f s\n", now() - started);
    COUNT(WORK_FORWARD, settling - started);
    COUNT(WORK_SETTLE, work_clock() - settling);
    report_work();
    for (int k = 0; k < MEMBER_COUNT; k++) { /* written beside, then renamed: whole or not at all */
        char path[4096], done[4096];
        name_of(path, sizeof path, MEMBERS[k].m, ".body.part");
        name_of(done, sizeof done, MEMBERS[k].m, ".body");
        FILE *f = fopen(path, "wb");
        if (!f || !write_values(f, MEMBERS[k].offset, MEMBERS[k].l.slots) || fclose(f) != 0 ||
            rename(path, done) != 0) {
            fprintf(stderr, "tablebuild: cannot write %s\n", done);
            unlink(path);
            return 1;
        }
    }
    return 0;
}
