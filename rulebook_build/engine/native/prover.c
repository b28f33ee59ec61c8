/* Proof that White wins a position, International or Fries Spel: df-pn, compiled, for
 * rulebook_build.
 *
 * The same search as ../search.py (depth-first proof-number search with the 1+epsilon trick, a
 * node being the position with the count clocks of ../../rules/drawrules.py, the same leaves:
 * no legal move, a count rule, the endgame tables; ESTIMATE below may weigh its first estimate
 * of a new node by opinion.h's static evaluation instead of the material, and GUIDE_TIES or
 * GUIDE let that evaluation order the moves), made about a hundred times faster so that
 * problems whose proof needs tens of millions of nodes can be settled.  Its answer is not taken
 * on trust: with "proved" or "refuted" it prints the proof itself, one choice per node where a
 * single move suffices, and the Python checker (native_proof.py) walks that tree with the Python
 * rules engine before it reports anything.  A fault in this program can cost a proof, never make
 * a false one.
 *
 * Usage: prover VARIANT PURE_DIR RULES_DIR SECONDS NODE_LIMIT TABLE_MB WM WK BM BK CLOCKS
 *        prover serve VARIANT PURE_DIR RULES_DIR TABLE_MB
 *        prover moves VARIANT PURE_DIR RULES_DIR WM WK BM BK CLOCKS
 *   VARIANT: international or frisian.  PURE_DIR, RULES_DIR: the cached endgame tables without
 *   and with count rules (mAkB-mCkD.bin files, two header lines then int16 values; a class
 *   without a file is not covered).  A class with no .bin file may have a compact one in
 *   PURE_DIR (mAkB-mCkD.pack, both kinds in one, ../tables/compact.py), read where the program was
 *   compiled with zlib (HAVE_ZLIB).  TABLE_MB: the transposition table's memory; the store of
 *   settled nodes takes half as much.  WM WK BM BK: the pieces as bitboards in the layout of
 *   board.py (hexadecimal).  CLOCKS: who is to move and the state the rules count, as
 *   slash-separated numbers (binaries.py node_fields):
 *     International  W/ENDING/EP/KP: W 1 when White is to move; ENDING (0, 5 or 16), EP, KP the
 *                    clocks DrawClocks.ending, ending_plies, king_only_plies (KNDB art. 9b-d);
 *     Fries Spel     W/WC/WS/BC/BS/STRONG/SM: WC and WS White's run of non-capturing moves with
 *                    one king and that king's square (art. 17; 0/0 when none counts), BC and BS
 *                    Black's; STRONG 1 when White has two kings against one king, 2 when Black
 *                    has, else 0, and SM the moves the strong side has made since (art. 18).
 *   Prints "result proved|refuted|undecided", "nodes N", "seconds S", then for a settled root
 *   every choice of the proof tree as "choice", the node (WM WK BM BK in hexadecimal and its
 *   CLOCKS) and the child chosen (WM WK BM BK), and "end".  An undecided root gets instead the
 *   line the search was working on, one "open WM WK BM BK" per ply.  A tree the search could
 *   not print in the time it had ends "tree incomplete" before "end", a whole one "tree N", the
 *   positions printed or passed as leaves (about what the Python walk checks).  Exit status 0,
 *   or 1 with a message on bad arguments.
 *   "serve" answers one search after another on one table, each asked for by a line on standard
 *   input (see serve below), and "opinion" requests: an evaluating alpha-beta search that
 *   scores a position without proving anything (opinion.h).
 *   "moves" prints what the program knows of one node, for the tests that compare it with the
 *   Python engine: "pure V" and "rules V" (the table values, "none" when not covered), "draw D"
 *   (1 when a count rule ends the game here), "estimate PN DN" (the node's proof and disproof
 *   numbers before it is searched: a leaf's 0 and INF, else the first estimate), then one
 *   "child WM WK BM BK CLOCKS" per move.
 *
 * Fries Spel has no rule that ends a game which goes round in circles, so its positions with
 * their clocks can repeat.  The search keeps no line and never counts a repetition as anything:
 * a node is settled only by settled children, so what it proves or refutes rests, in the order
 * the values were found, on real leaves.  The tree it prints may still come back to a node it
 * has passed (a choice may name a child settled later than its parent): the Python walk refuses
 * such a tree, since a strategy that can go round for ever wins nothing.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, madvise */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifndef PROVER_WASM
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include "draughts.h"
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#define INF 1000000000LL
#define EPSILON_DIVISOR 4
/* search.py SUM_CAP: a sum of proof numbers stops growing here, far below INF; a subtree reached
 * by several lines is counted once per parent, and a sum that reached INF - 1 at the root would
 * end the search early as if it had been settled */
#define SUM_CAP (INF / 2)
#define KING_ONLY_PLIES 50
#define UNLIKELY 32 /* search.py UNLIKELY */
#ifndef MATERIAL_WEIGHT /* benchmarks/refutations.py compiles other weights to compare */
#define MATERIAL_WEIGHT 16 /* search.py MATERIAL_WEIGHT */
#endif
#define KING_MEN 3         /* search.py KING_MEN */
#ifndef WEAK /* benchmarks/refutations.py compiles the other to compare */
/* 1: the numbers of the moves that must all be settled combine as the largest plus one for each
 * other (weak proof numbers, Ueda et al. 2008) instead of their sum, which counts a position
 * reached by several lines once per line */
#define WEAK 0
#endif

/* a small function of the search's innermost loops, always inlined (a call cost as much as
 * its work) */
#if defined(__GNUC__) || defined(__clang__)
#define HOT __attribute__((always_inline)) inline
#else
#define HOT inline
#endif

/* ------------------------------------------------------------------ nodes */
typedef struct {
    bb om, ok, pm, pk; /* the side to move plays as White, towards squares 1-5 */
    int white;         /* the side to move is White */
    int ending, ending_plies, king_plies; /* International: KNDB art. 9b-d */
    /* Fries Spel art. 17: the run of non-capturing moves of each side's king (count, and the
     * king's bit in this node's frame; 0, 0 when none counts), and art. 18: strong is 1 when
     * the side to move has two kings against one, 0 when the other side has, -1 otherwise,
     * strong_moves the moves the strong side has made since the ending arose */
    run own, other;
    int strong, strong_moves;
} node;

#define TWO_KINGS_MOVES 7    /* drawrules.py FRISIAN_TWO_KINGS_MOVES */
#define NO_LIMIT (1 << 30)

/* a run that cannot count is none: its king was captured, or its side has no men left (only
 * the side to move is ever held back by its run, and only while it has men) */
static void normalise(node *n) {
    if (!n->own.count || !n->om || !(n->ok >> n->own.bit & 1)) n->own = NO_RUN;
    if (!n->other.count || !n->pm || !(n->pk >> n->other.bit & 1)) n->other = NO_RUN;
}

/* drawrules.two_kings_against_one, seen from the side to move */
static int strong_of(const node *n) {
    if (n->om || n->pm) return -1;
    int a = __builtin_popcountll(n->ok), b = __builtin_popcountll(n->pk);
    return a == 2 && b == 1 ? 1 : a == 1 && b == 2 ? 0 : -1;
}

/* the king of the side to move that may not make a fourth non-capturing move (art. 17), or -1 */
static int blocked_king(const node *n) {
    return FRISIAN && n->own.count >= RUN_LIMIT && n->om ? n->own.bit : -1;
}

typedef struct {
    int64_t pn, dn;
} values;

static const values PROVED = {0, INF}, REFUTED = {INF, 0};

/* a node's place in the transposition table: the hash that picks its bucket and its signature, worked out
 * once where the node is made and handed on with it (to its lookup, to mid, to expand's stores)
 * instead of again at each of them */
typedef struct place {
    uint64_t hash, sig;
} place;


/* the pieces of a node turned round for its children (``mirror`` of each), turned once for
 * all of them: mirror moves each bit on its own (bit b to 55 - b), so the child's sets are these
 * with the moved and captured pieces' bits turned round alone */
typedef struct {
    bb om, ok, pm, pk;
} turned;

static turned turned_of(const node *n) { return (turned){mirror(n->om), mirror(n->ok), mirror(n->pm), mirror(n->pk)}; }

/* the child of ``n`` after a move, written where ``c`` points: in place on the STACK (a node is
 * 72 bytes, and copying each child on its way there cost a tenth of the search's instructions) */
static HOT void child_of(node *restrict c, const node *restrict n, const turned *t, int origin, int dest,
                            int king, bb captured) {
    bb from = (bb)1 << origin, to = (bb)1 << dest;
    bb turned_from = (bb)1 << mirror_bit(origin), turned_to = (bb)1 << mirror_bit(dest);
    bb nm = n->om; /* the mover's men after the move */
    if (king) {
        c->pm = t->om;
        c->pk = (t->ok & ~turned_from) | turned_to;
    } else {
        nm &= ~from;
        c->pm = t->om & ~turned_from;
        c->pk = t->ok;
        if (to & PROMOTION) {
            c->pk |= turned_to;
        } else {
            nm |= to;
            c->pm |= turned_to;
        }
    }
    bb turned_captured = captured ? mirror(captured) : 0;
    c->om = t->pm & ~turned_captured;
    c->ok = t->pk & ~turned_captured;
    c->white = !n->white;
    if (FRISIAN) {
        /* movegen.make: a non-capturing king move of a side with men extends that king's run
         * (or starts one); any other move ends the mover's run */
        run moved = NO_RUN;
        if (king && !captured && nm)
            moved = (run){n->own.count && n->own.bit == origin ? n->own.count + 1 : 1, mirror_bit(dest)};
        c->own = mirror_run(n->other);
        c->other = moved;
        normalise(c);
        /* drawrules.advance: the strong side's moves count from the move the ending arose */
        c->strong = strong_of(c);
        int same = c->strong >= 0 && n->strong >= 0 && c->strong == 1 - n->strong && !captured;
        c->strong_moves = same ? n->strong_moves + (n->strong == 1) : 0;
        c->ending = c->ending_plies = c->king_plies = 0;
        return;
    }
    c->own = c->other = NO_RUN;
    c->strong_moves = 0;
    c->strong = -1;
    /* drawrules.advance: the count of a lone-king ending runs from the move it arose; a capture
     * starts a new one; the 25-move count runs over non-capturing king moves */
    c->ending = ending_of(__builtin_popcountll(c->om), __builtin_popcountll(c->ok),
                         __builtin_popcountll(c->pm), __builtin_popcountll(c->pk));
    int same = c->ending && c->ending == n->ending && !captured;
    c->ending_plies = same ? n->ending_plies + 1 : 0;
    c->king_plies = king && !captured ? n->king_plies + 1 : 0;
}

/* a growing stack of children, one frame per level of the search, with their values as last
 * seen by the parent (a settled value never changes; the others only guide the search) */
static node *STACK;
static values *SEEN_VALUES;
static int32_t *COSTS; /* expand's: each child's cost of the evaluation (GUIDE) */
static place *PLACES; /* expand's: each child's place in the transposition table */
static size_t STACK_TOP, STACK_SIZE;
static int OVERFLOW_SEEN; /* a position with more capture routes than draughts.h holds */

static void grow_stack(void) {
    STACK_SIZE = STACK_SIZE ? 2 * STACK_SIZE : 1 << 16;
    STACK = realloc(STACK, sizeof(node) * STACK_SIZE);
    SEEN_VALUES = realloc(SEEN_VALUES, sizeof(values) * STACK_SIZE);
    PLACES = realloc(PLACES, sizeof(*PLACES) * STACK_SIZE);
    COSTS = realloc(COSTS, sizeof(*COSTS) * STACK_SIZE);
    if (!STACK || !SEEN_VALUES || !PLACES || !COSTS) { fprintf(stderr, "prover: out of memory\n"); exit(1); }
}

/* where the next child goes on the STACK (made room for; STACK_TOP moves on once it is kept) */
static inline node *next_child(void) {
    if (STACK_TOP == STACK_SIZE) grow_stack();
    return &STACK[STACK_TOP];
}

static int same_position(const node *a, const node *b) {
    /* two moves to the same pieces are one move (the same origin, destination and captured
     * pieces by two routes), so the clocks are the same too */
    return a->om == b->om && a->ok == b->ok && a->pm == b->pm && a->pk == b->pk;
}

/* International rules, where a step along a diagonal is a shift of the whole board
 * (draughts.h DIAGONAL_SHIFTS): the men of the side to move that can take a piece, found for
 * every man at once */
static int MEN_AT_ONCE;

static bb capturing_men(const node *n, bb empty) {
    bb opponent = n->pm | n->pk, men = 0;
    for (int d = 0; d < 4; d++) men |= shifted(shifted(empty, -DIAGONAL[d]) & opponent, -DIAGONAL[d]);
    return men & n->om;
}

/* draughts.h has_capture and captures, the same answers sooner where MEN_AT_ONCE: most nodes have
 * no capture and no king, and a man that cannot take at all records no route, so the search of
 * routes starts from the men that can (in the same order, so the moves come in the same order) */
static int can_capture(const node *n) {
    if (MEN_AT_ONCE && !n->ok) return capturing_men(n, BOARD & ~(n->om | n->pm | n->pk)) != 0;
    return has_capture(n->om, n->ok, n->pm, n->pk);
}

/* draughts.h man_search where MEN_AT_ONCE: the same routes in the same order, with each step
 * along a diagonal a shift (a step off the board lands on no square a piece or an empty square
 * can be on, DIAGONAL_SHIFTS) instead of a look at the rays */
static void man_routes(int origin, int sq, bb opponent, bb empty, bb captured) {
    int any = 0;
    for (int d = 0; d < 4; d++) {
        int jumped = sq + DIAGONAL[d], landing = jumped + DIAGONAL[d];
        if (landing < 0 || landing > 63) continue;
        if (((opponent & ~captured) >> jumped & 1) && (empty >> landing & 1)) {
            any = 1;
            man_routes(origin, landing, opponent, empty, captured | (bb)1 << jumped);
        }
    }
    if (!any && captured) record(origin, sq, 0, captured);
}

static int node_captures(const node *n) {
    if (!MEN_AT_ONCE) return captures(n->om, n->ok, n->pm, n->pk);
    bb opponent = n->pm | n->pk, empty = BOARD & ~(n->om | n->ok | opponent);
    CAP_COUNT = 0;
    CAP_BEST = 1;
    CAP_KINGS = n->pk;
    for (bb x = capturing_men(n, empty); x; x &= x - 1) {
        int o = __builtin_ctzll(x);
        man_routes(o, o, opponent, empty | (bb)1 << o, 0);
    }
    for (bb x = n->ok; x; x &= x - 1) {
        int o = __builtin_ctzll(x);
        king_search(o, o, opponent, empty | (bb)1 << o, 0);
    }
#ifdef CHECK_GENERATE /* compiled by hand: the same routes as draughts.h's, in the same order */
    int count = CAP_COUNT;
    capture mine[MAX_CAPTURES];
    memcpy(mine, CAPS, sizeof(capture) * (size_t)count);
    if (captures(n->om, n->ok, n->pm, n->pk) != count || memcmp(mine, CAPS, sizeof(capture) * (size_t)count)) {
        fprintf(stderr, "prover: node_captures differs from captures\n");
        exit(2);
    }
#endif
    return CAP_COUNT;
}

/* pushes every move's child (two routes to the same position are one move); returns how many */
static int generate(const node *n) {
    size_t first = STACK_TOP;
    int count = can_capture(n) ? node_captures(n) : 0;
#ifdef CHECK_GENERATE /* compiled by hand: the test agrees with the routes on every node */
    if (!count != !captures(n->om, n->ok, n->pm, n->pk) || can_capture(n) != has_capture(n->om, n->ok, n->pm, n->pk)) {
        fprintf(stderr, "prover: can_capture disagrees with captures\n");
        exit(2);
    }
    if (count) node_captures(n);
#endif
    if (CAP_OVERFLOW) OVERFLOW_SEEN = 1;
    turned t = turned_of(n);
    if (count) {
        for (int i = 0; i < count; i++) {
            const capture *c = &CAPS[i];
            node *child = next_child();
            child_of(child, n, &t, c->origin, c->dest, c->king, c->captured);
            int seen = 0;
            for (size_t j = first; j < STACK_TOP && !seen; j++) seen = same_position(&STACK[j], child);
            if (!seen) STACK_TOP++;
        }
        return (int)(STACK_TOP - first);
    }
    bb empty = BOARD & ~(n->om | n->ok | n->pm | n->pk);
    for (bb x = n->om; x; x &= x - 1) {
        int o = __builtin_ctzll(x);
        for (int d = 0; d < 2; d++) /* men move up only */
            if (RAY_LEN[d][o] && (empty >> RAY[d][o][0] & 1)) {
                child_of(next_child(), n, &t, o, RAY[d][o][0], 0, 0);
                STACK_TOP++;
            }
    }
    int blocked = blocked_king(n);
    for (bb x = n->ok; x; x &= x - 1) {
        int o = __builtin_ctzll(x);
        if (o == blocked) continue;
        for (int d = 0; d < 4; d++)
            for (int i = 0; i < RAY_LEN[d][o] && (empty >> RAY[d][o][i] & 1); i++) {
                child_of(next_child(), n, &t, o, RAY[d][o][i], 1, 0);
                STACK_TOP++;
            }
    }
    return (int)(STACK_TOP - first);
}

/* the non-capturing moves, counted one piece and one square at a time */
static int count_quiet_moves(const node *n, bb empty, int blocked) {
    int count = 0;
    for (bb x = n->om; x; x &= x - 1) {
        int o = __builtin_ctzll(x);
        for (int d = 0; d < 2; d++) count += RAY_LEN[d][o] && (empty >> RAY[d][o][0] & 1);
    }
    for (bb x = n->ok; x; x &= x - 1) {
        int o = __builtin_ctzll(x);
        if (o == blocked) continue;
        for (int d = 0; d < 4; d++)
            for (int i = 0; i < RAY_LEN[d][o] && (empty >> RAY[d][o][i] & 1); i++) count++;
    }
    return count;
}

/* the number of moves, for a first estimate (0 exactly when the side to move cannot move) */
static int count_moves(const node *n) {
    if (can_capture(n)) {
        int count = node_captures(n);
        if (CAP_OVERFLOW) OVERFLOW_SEEN = 1;
        return count;
    }
    bb empty = BOARD & ~(n->om | n->ok | n->pm | n->pk);
    int blocked = blocked_king(n);
    if (!DIAGONAL_SHIFTS) return count_quiet_moves(n, empty, blocked);
    /* every piece at once (draughts.h DIAGONAL_SHIFTS): a man's moves are the free squares one
     * step up, a king's the squares its diagonals reach step by step while they are free (a
     * king's line ends at the first piece, so no square is counted for two kings) */
    int count = __builtin_popcountll(shifted(n->om, DIAGONAL[0]) & empty) +
                __builtin_popcountll(shifted(n->om, DIAGONAL[1]) & empty);
    bb kings = blocked >= 0 ? n->ok & ~((bb)1 << blocked) : n->ok;
    for (int d = 0; d < 4; d++)
        for (bb reach = shifted(kings, DIAGONAL[d]) & empty; reach; reach = shifted(reach, DIAGONAL[d]) & empty)
            count += __builtin_popcountll(reach);
#ifdef CHECK_GENERATE
    if (count != count_quiet_moves(n, empty, blocked)) {
        fprintf(stderr, "prover: the moves counted at once and one by one differ\n");
        exit(2);
    }
#endif
    return count;
}

/* drawrules.draw_by_count and plies_left */
static int draw_by_count(const node *n) {
    if (FRISIAN) {
        if (!n->om && !n->pm && __builtin_popcountll(n->ok) == 1 && __builtin_popcountll(n->pk) == 1 &&
            one_king_each_is_drawn(n->ok, n->pk))
            return 1; /* art. 21 */
        return n->strong >= 0 && n->strong_moves >= TWO_KINGS_MOVES; /* art. 18 */
    }
    return n->king_plies >= KING_ONLY_PLIES || (n->ending == 16 && n->ending_plies >= 32) ||
           (n->ending == 5 && n->ending_plies >= 10);
}

static int plies_left(const node *n) {
    if (FRISIAN) /* seven moves of the strong side: at most 14 plies, 13 if the other moves first */
        return n->strong >= 0 ? 2 * (TWO_KINGS_MOVES - n->strong_moves) - 1 : NO_LIMIT;
    int left = KING_ONLY_PLIES - n->king_plies;
    if (n->ending) {
        int e = (n->ending == 5 ? 10 : 32) - n->ending_plies;
        if (e < left) left = e;
    }
    return left;
}

/* ------------------------------------------------------------------ endgame tables */
#define NOT_COVERED (-3)
/* a scout's block not here yet (the WebAssembly build: the host answers -2, prover-host.js
 * scout): the scout guesses instead of searching on (pending_guess) */
#define PENDING (-4)

typedef struct {
    int state; /* 0: not looked for, 1: mapped, 2: no table, 3: a compact file */
    layout l;
    const unsigned char *values;
    uint64_t blocks; /* a compact file: its blocks; values is its index, then the streams */
    uint64_t span;   /* a compact file: the codes of one of its blocks (BLOCK, or FILLED_SPAN) */
    int filled;      /* a compact file in the filled form: its captures are left to us */
    uint64_t length; /* a compact file: the bytes from values on */
    int material[4]; /* the class, as the wasm build's host names it */
} table;

static table TABLES[2][8 * 8 * 8 * 8];
#ifndef PROVER_WASM
static const char *TABLE_DIR[2];
#endif

/* ../tables/compact.py: a code a slot, both kinds in one; what each kind's probe answers for it */
#define BLOCK 4096
#define FILLED_SPAN 16384 /* ../tables/compact.py FILLED_BLOCK */
#define CODES 68
#define FAR_WIN 32767
#define FAR_LOSS 32766
#define DISTANCE_CAP 63 /* compact.CAP: the longest count-rule distance a compact code keeps */
static int16_t VALUE_OF[2][CODES];

static void init_codes(void) {
    static const int16_t first[4] = {-2, -1, FAR_WIN, FAR_LOSS};
    for (int c = 0; c < CODES; c++) {
        int16_t pure = c < 4 ? first[c] : c < 36 ? FAR_WIN : FAR_LOSS;
        /* compact.RULES_VALUE: codes 2 and 3 keep no count-rule win or loss, a draw for a proof
         * (FAR_WIN here would prove in Fries Spel, where no count runs outside art. 18) */
        int16_t rules = c < 2 ? first[c] : c < 4 ? -1 : c < 36 ? 2 * (c - 4) + 1 : 2 * (c - 36);
        VALUE_OF[0][c] = pure;
        VALUE_OF[1][c] = rules;
    }
}

#ifdef PROVER_WASM
/* The WebAssembly build (the check page, ../wasm.py): no files and no zlib.  The host
 * (the page's worker, or a test) holds the compact tables and answers two calls: how many blocks
 * the compact table of a class has (0: none), and the codes of one block, unpacked after its
 * checksum was verified (the count of codes, or -1 when it cannot give them).  Both kinds read
 * the same compact table, as the compact files hold both. */
__attribute__((import_module("env"), import_name("rb_table_blocks"))) int32_t
rb_table_blocks(int32_t own_men, int32_t own_kings, int32_t other_men, int32_t other_kings);
__attribute__((import_module("env"), import_name("rb_table_block"))) int32_t
rb_table_block(int32_t own_men, int32_t own_kings, int32_t other_men, int32_t other_kings,
               uint32_t block, unsigned char *codes);
/* the nodes of the search under way, every 65,536: the page's counter moves while it runs */
__attribute__((import_module("env"), import_name("rb_progress"))) void rb_progress(double nodes);
#define HAVE_BLOCKS
#define CACHED_SETS 8192 /* 64 MB: the page's memory is the reader's */
#elif defined(HAVE_ZLIB)
#define HAVE_BLOCKS
#define CACHED_SETS 16384
#endif

#ifdef HAVE_BLOCKS
/* decompressed blocks, two ways a set, by table and block: 128 MB (the memory is touched only
 * as blocks come in).  Four second keys refuted in 2.7 to 7.7 million nodes took 26.7 s with
 * 64 MB, 24.1 with 128, 23.5 with 256 and 23.1 with 512: unpacking blocks again costs more than
 * the memory */
typedef struct {
    const table *t;
    uint64_t block;
    unsigned char codes[BLOCK];
} cached_block;
static cached_block *BLOCK_CACHE;
static unsigned char *OLDER; /* per set: the way to replace next */

static int allocate_block_cache(void) {
    if (!BLOCK_CACHE) {
        BLOCK_CACHE = calloc(2 * CACHED_SETS, sizeof(cached_block));
        OLDER = calloc(CACHED_SETS, 1);
    }
    return BLOCK_CACHE && OLDER;
}
#endif

#ifdef HAVE_ZLIB
/* a compact file's header says its blocks ("blocks": N) and their size; the Python checker
 * has checked its checksum before this program runs */
static int open_compact(table *t, const unsigned char *map, size_t size, size_t at) {
    char header[4096];
    size_t length = at < sizeof header - 1 ? at : sizeof header - 1;
    memcpy(header, map, length);
    header[length] = 0;
    const char *blocks = strstr(header, "\"blocks\": ");
    /* ../tables/compact.py: FORMAT, blocks of BLOCK codes; FILLED, blocks of FILLED_SPAN codes
     * whose positions that must capture are worked out (resolved_code), not read */
    int plain = strstr(header, "\"format\": \"compact-1\"") && strstr(header, "\"block\": 4096");
    int filled = strstr(header, "\"format\": \"compact-2\"") && strstr(header, "\"block\": 16384") &&
                 strstr(header, "\"captures\": \"search\"");
    if (!(plain || filled) || !blocks) return 0;
    t->span = filled ? FILLED_SPAN : BLOCK;
    t->filled = filled;
    uint64_t count = strtoull(blocks + 10, NULL, 10);
    if (count != (t->l.slots + t->span - 1) / t->span || size - at < 8 * (count + 1)) return 0;
    uint64_t end, previous = 8 * (count + 1);
    memcpy(&end, map + at + 8 * count, 8);
    if (end != size - at) return 0;
    for (uint64_t i = 0; i <= count; i++) { /* the index in order, from its own end */
        uint64_t offset;
        memcpy(&offset, map + at + 8 * i, 8);
        if (i == 0 ? offset != previous : offset < previous) return 0;
        previous = offset;
    }
    t->values = map + at;
    t->blocks = count;
    t->length = end;
    return allocate_block_cache();
}
#endif

#ifdef HAVE_BLOCKS
#ifndef PROVER_WASM
/* the file block of a filled table last unpacked, whole */
static unsigned char SPAN_CODES[FILLED_SPAN];
static const table *SPAN_OF;
static uint64_t SPAN_NUMBER;
#endif

static int compact_code(const table *t, uint64_t slot) {
    const table *key = t; /* what the cache knows a block by */
#ifdef PROVER_WASM
    /* both kinds read one compact table: in the browser a block the host gave for one kind
     * serves the other (each one a call out of the module, and a fetch if not yet fetched) */
    if (t >= TABLES[1] && t < TABLES[1] + 8 * 8 * 8 * 8) key = &TABLES[0][t - TABLES[1]];
#endif
    uint64_t block = slot / BLOCK;
    uint64_t h = ((uint64_t)(uintptr_t)key * 0x9E3779B97F4A7C15ULL) ^ (block * 0xC2B2AE3D27D4EB4FULL);
    uint64_t set = (h >> 40) % CACHED_SETS;
    cached_block *c = &BLOCK_CACHE[2 * set];
    if (c->t == key && c->block == block) OLDER[set] = 1;
    else if (c[1].t == key && c[1].block == block) {
        c++;
        OLDER[set] = 0;
    } else {
        c += OLDER[set];
        OLDER[set] ^= 1;
        uint64_t want = t->l.slots - block * BLOCK < BLOCK ? t->l.slots - block * BLOCK : BLOCK;
        c->t = NULL;
#ifdef PROVER_WASM
        const int *m = t->material;
        int32_t got = rb_table_block(m[0], m[1], m[2], m[3], (uint32_t)block, c->codes);
        if (got == -2) return -2; /* a scout's: not here yet */
        if (got != (int32_t)want) return -1;
#else
        /* a block of the file, and of it the BLOCK codes asked for: a file block of a filled
         * table holds four, unpacked once into SPAN_CODES for the probes nearby */
        uint64_t per = t->span / BLOCK, big = block / per;
        unsigned char *into = per == 1 ? c->codes : SPAN_CODES;
        if (per == 1 || SPAN_OF != t || SPAN_NUMBER != big) {
            uint64_t from, to;
            memcpy(&from, t->values + 8 * big, 8);
            memcpy(&to, t->values + 8 * (big + 1), 8);
            uint64_t whole = t->l.slots - big * t->span < t->span ? t->l.slots - big * t->span : t->span;
            uLongf got = (uLongf)t->span;
            SPAN_OF = NULL;
            /* the Python checker checked the file's checksum; a file changed since is still
             * never read beyond its end */
            if (to < from || to > t->length || from < 8 * (t->blocks + 1)) return -1;
            if (uncompress(into, &got, t->values + from, (uLong)(to - from)) != Z_OK || got != whole)
                return -1;
            if (per > 1) {
                SPAN_OF = t;
                SPAN_NUMBER = big;
            }
        }
        if (per > 1) memcpy(c->codes, SPAN_CODES + (block % per) * BLOCK, want);
#endif
        c->t = key;
        c->block = block;
    }
    return c->codes[slot % BLOCK];
}
#endif

#ifndef PROVER_WASM
static const unsigned char *map_file(const char *path, size_t *size) {
    const unsigned char *map = NULL;
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0) {
        map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
        if (map == MAP_FAILED) map = NULL;
        /* probes jump about: reading ahead around each one only pushes other tables' pages out
         * of memory (A9 from a cold cache: 29 s without this, 20.5 s with) */
        else madvise((void *)map, (size_t)st.st_size, MADV_RANDOM);
        *size = (size_t)st.st_size;
    }
    if (fd >= 0) close(fd);
    return map;
}

static size_t after_header(const unsigned char *map, size_t size) {
    size_t at = 0;
    int lines = 0;
    while (at < size && lines < 2)
        if (map[at++] == '\n') lines++;
    return lines == 2 ? at : 0;
}
#endif

static int16_t probe(int kind, const node *n);
static int16_t kept_distance(int16_t v, const node *n);

/* ../tables/remote.py CAPTURES: the site's tables leave the positions whose side to move must
 * capture to the reader (their slots hold the code before them, which compresses to
 * almost nothing).  Such a position's code, made from the values of the positions its captures
 * lead to as the builder made it (tablebuild.c exit_value; endgame.py EndgameTables._from_captures
 * for the Python engine): the pure result by the best capture; with the count rules each capture
 * a conversion, so a win in 1 where a capture leads to a loss within the child's fresh budget
 * (plies_left of the child: its counts start afresh), a loss in 2 where every capture leads to
 * such a win, else the pure result with no count-rule distance.  -1 where a position a capture
 * leads to is not covered (a block the host could not give), -2 where a scout's block is not
 * here yet (PENDING). */
static int resolved_code(const node *n) {
    int count = node_captures(n);
    if (count <= 0 || CAP_OVERFLOW) return -1;
    capture *moves = malloc(sizeof(capture) * (size_t)count); /* the probes below use CAPS */
    if (!moves) return -1;
    memcpy(moves, CAPS, sizeof(capture) * (size_t)count);
    turned t = turned_of(n);
    int losses = 0, draws = 0, counted_loss = 0, counted_wins = 1;
    for (int i = 0; i < count; i++) {
        node c;
        child_of(&c, n, &t, moves[i].origin, moves[i].dest, moves[i].king, moves[i].captured);
        /* no pieces left to move: lost at once; else the child's distance as kept, and where
         * that keeps no result (a draw with the count rules), the pure one */
        int16_t v = c.om | c.ok ? kept_distance(probe(1, &c), &c) : 0;
        int16_t pure = v < 0 && v != NOT_COVERED && v != PENDING ? probe(0, &c) : v;
        if (pure == NOT_COVERED || pure == PENDING) { /* v's own, or the pure probe's */
            free(moves);
            return pure == PENDING ? -2 : -1;
        }
        if (pure < 0) draws++;
        else if (!(pure & 1)) losses++;
        /* a conversion: the child's fresh counts allow it (a kept distance past them is a draw,
         * and so is one past CAP in Fries Spel where no count runs: the compact code keeps no
         * more, and the tests and benchmarks/site_captures.py find no such child) */
        if (v >= 0 && v <= plies_left(&c)) {
            if (!(v & 1)) counted_loss = 1;
        } else counted_wins = 0;
    }
    free(moves);
    if (counted_loss) return 4;  /* a win in 1 ply with the count rules */
    if (counted_wins) return 37; /* a loss in 2 */
    return losses ? 2 : draws ? 1 : 3;
}

static int16_t probe(int kind, const node *n) {
    int m[4] = {__builtin_popcountll(n->om), __builtin_popcountll(n->ok), __builtin_popcountll(n->pm),
                __builtin_popcountll(n->pk)};
    if (m[0] + m[1] + m[2] + m[3] > 7 || !(m[0] + m[1]) || !(m[2] + m[3])) return NOT_COVERED;
    table *t = &TABLES[kind][((m[0] * 8 + m[1]) * 8 + m[2]) * 8 + m[3]];
    if (t->state == 0) {
        t->state = 2;
        make_layout(&t->l, m);
        memcpy(t->material, m, sizeof t->material);
#ifdef PROVER_WASM
        int32_t blocks = rb_table_blocks(m[0], m[1], m[2], m[3]);
        if (blocks > 0 && (uint64_t)blocks == (t->l.slots + BLOCK - 1) / BLOCK &&
            allocate_block_cache()) {
            t->blocks = (uint64_t)blocks;
            t->state = 3;
        }
#else
        char path[4096];
        size_t size = 0;
        snprintf(path, sizeof path, "%s/m%dk%d-m%dk%d.bin", TABLE_DIR[kind], m[0], m[1], m[2], m[3]);
        const unsigned char *map = map_file(path, &size);
        if (map) {
            size_t at = after_header(map, size);
            if (at && size - at == 2 * t->l.slots) {
                t->values = map + at;
                t->state = 1;
            } else fprintf(stderr, "prover: %s: not a table of %llu slots, not used\n", path,
                           (unsigned long long)t->l.slots);
        }
#ifdef HAVE_ZLIB
        else {
            snprintf(path, sizeof path, "%s/m%dk%d-m%dk%d.pack", TABLE_DIR[0], m[0], m[1], m[2],
                     m[3]);
            map = map_file(path, &size);
            if (map) {
                size_t at = after_header(map, size);
                if (at && open_compact(t, map, size, at)) t->state = 3;
                else fprintf(stderr, "prover: %s: not a compact table of %llu slots, not used\n",
                             path, (unsigned long long)t->l.slots);
            }
        }
#endif
#endif
    }
    if (t->state != 1 && t->state != 3) return NOT_COVERED;
    int64_t i = slot_of(&t->l, n->om, n->ok, n->pm, n->pk, n->own, n->other);
    if (i < 0) return NOT_COVERED;
#ifdef PROVER_WASM
    int left = 1; /* a class the site publishes, its captures left to us */
#else
    int left = t->state == 3 && t->filled; /* a compact file in the filled form */
#endif
    if (left && can_capture(n)) {
        int code = resolved_code(n);
        return code == -2 ? PENDING : code < 0 ? NOT_COVERED : VALUE_OF[kind][code];
    }
#ifdef HAVE_BLOCKS
    if (t->state == 3) {
        int code = compact_code(t, (uint64_t)i);
        if (code == -2) return PENDING;
        if (code < 0 || code >= CODES) return NOT_COVERED; /* a block that does not unpack */
        return VALUE_OF[kind][code];
    }
#endif
    int16_t v;
    memcpy(&v, t->values + 2 * i, 2);
    return v;
}

/* distance to the end in plies, odd: the side to move wins, even: it loses, -1 a draw */
static int white_wins(int16_t v, int white_to_move) { return v >= 0 && (v & 1) == white_to_move; }

/* ------------------------------------------------------------------ transposition table */
/* a node as the tables key it: the pieces of each side, the kings, and the side to move with
 * the clocks (meta, never 0) */
typedef struct {
    bb own, opp, kings;
    uint32_t meta;
} key;

/* an entry: the key's 64-bit signature (a hash independent of the bucket's), never 0 when used;
 * three entries and padding make a 64-byte bucket, one cache line.  Half the size of an entry
 * holding the whole key, so a table holds twice the nodes.  Two keys with one signature (about
 * once in 10^19 pairs) would at worst mislead the search: the walk of the printed tree checks
 * every node again in Python. */
typedef struct {
    uint32_t sig_lo, sig_hi;
    uint32_t work;
    int32_t pn, dn;
} entry;

#define WAYS 3
typedef struct {
    entry e[WAYS];
    uint32_t pad;
} bucket;
static bucket *TT;
static uint64_t TT_MASK; /* buckets - 1 */

static HOT uint32_t meta_of(const node *n) {
    if (FRISIAN)
        return 1u | (uint32_t)n->white << 1 | (uint32_t)n->own.count << 2 | (uint32_t)n->own.bit << 4 |
               (uint32_t)n->other.count << 10 | (uint32_t)n->other.bit << 12 |
               (uint32_t)(n->strong + 1) << 18 | (uint32_t)n->strong_moves << 20;
    int e = n->ending == 5 ? 1 : n->ending == 16 ? 2 : 0;
    return 1u | (uint32_t)n->white << 1 | (uint32_t)e << 2 | (uint32_t)n->ending_plies << 4 |
           (uint32_t)n->king_plies << 11;
}

static uint64_t mix(uint64_t x) {
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ull;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dull;
    return x ^ (x >> 33);
}

static HOT key key_of(const node *n) {
    return (key){n->om | n->ok, n->pm | n->pk, n->ok | n->pk, meta_of(n)};
}

static uint64_t key_hash(const key *k) {
    return mix(k->own * 0x9e3779b97f4a7c15ull ^ k->opp * 0xc2b2ae3d27d4eb4full ^
               k->kings * 0x165667b19e3779f9ull ^ k->meta);
}

static uint64_t key_sig(const key *k) {
    uint64_t s = mix(k->own * 0xd6e8feb86659fd93ull ^ k->opp * 0xa0761d6478bd642full ^
                     k->kings * 0xe7037ed1a0b428dbull ^ (uint64_t)k->meta * 0x8ebc6af09c88c6e3ull);
    return s ? s : 1;
}

/* fields compared one by one: a key's padding bytes are not part of it */
static int same_key(const key *a, bb own, bb opp, bb kings, uint32_t meta) {
    return a->meta == meta && a->own == own && a->opp == opp && a->kings == kings;
}

static HOT place place_of(const node *n) {
    key k = key_of(n);
    return (place){key_hash(&k), key_sig(&k)};
}

static bucket *bucket_at(place p) { return &TT[p.hash & TT_MASK]; }

static entry *match(bucket *b, uint64_t sig) {
    for (int i = 0; i < WAYS; i++)
        if (b->e[i].sig_lo == (uint32_t)sig && b->e[i].sig_hi == (uint32_t)(sig >> 32)) return &b->e[i];
    return NULL;
}


/* Every node the search has settled (proved or refuted after expanding it), kept apart from the
 * transposition table, which drops entries when full.  A settled value never changes, and the
 * printer of the tree would otherwise search again every node of the proof that the table has
 * dropped: with a 1 GB table the tree of A9 (PWCP-2) could not be printed in two minutes.  The search
 * itself does not ask it: one more memory access for every child halved its speed.  Open
 * addressing on the signature, whose lowest bit is replaced by the result (1: proved); half as
 * large as the transposition table, allocated once (growing it by doubling cost A9 a fifth of
 * its time in moving entries), and it takes no more when half full. */
static uint64_t *SETTLED;
static int PRINTING; /* the search is over: the tree is being printed */
static size_t SETTLED_COUNT, SETTLED_SIZE; /* SETTLED_SIZE a power of two */

static int settled_find(uint64_t sig) { /* 1 proved, 0 refuted, -1 not kept */
    sig |= 1;
    for (size_t j = (sig >> 1) & (SETTLED_SIZE - 1); SETTLED[j]; j = (j + 1) & (SETTLED_SIZE - 1))
        if ((SETTLED[j] | 1) == sig) return (int)(SETTLED[j] & 1);
    return -1;
}

static void settled_add(uint64_t sig, int proved) {
    if (2 * (SETTLED_COUNT + 1) > SETTLED_SIZE) return;
    uint64_t word = (sig & ~1ull) | (uint64_t)(proved != 0);
    if (!word) word = 2; /* 0 marks an empty slot */
    size_t j = (sig >> 1) & (SETTLED_SIZE - 1);
    while (SETTLED[j]) {
        if ((SETTLED[j] | 1) == (word | 1)) return;
        j = (j + 1) & (SETTLED_SIZE - 1);
    }
    SETTLED[j] = word;
    SETTLED_COUNT++;
}

/* a node's values into its bucket: its own slot, else an empty one, else the slot whose subtree
 * cost least; a first estimate (leaf, work 0) only takes an empty slot or one that cost nothing,
 * so the estimates of a node's many children never push out the results of searches */
static void store_at(bucket *b, entry *own, uint64_t sig, values v, uint32_t work) {
    entry *slot = own; /* match(b, sig), which the caller has already looked for */
    if (slot) work += slot->work;
    else {
        for (int i = 0; i < WAYS && !slot; i++)
            if (!b->e[i].sig_lo && !b->e[i].sig_hi) slot = &b->e[i];
        if (!slot) {
            for (int i = 0; i < WAYS; i++)
                if (!slot || b->e[i].work < slot->work) slot = &b->e[i];
            if (!work && slot->work) return;
        }
    }
    slot->sig_lo = (uint32_t)sig;
    slot->sig_hi = (uint32_t)(sig >> 32);
    slot->work = work;
    slot->pn = (int32_t)v.pn;
    slot->dn = (int32_t)v.dn;
}

static void store(bucket *b, uint64_t sig, values v, uint32_t work) { store_at(b, match(b, sig), sig, v, work); }

/* ------------------------------------------------------------------ the search */
static uint64_t NODES, NODE_LIMIT;
static double DEADLINE;
static int ABORTED;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* drawrules.fresh_plies: the plies a position of the node's material has when its counts start
 * afresh, the most any of its positions has */
static int fresh_plies(const node *n) {
    if (FRISIAN) return strong_of(n) >= 0 ? 2 * TWO_KINGS_MOVES - 1 : NO_LIMIT;
    int e = ending_of(__builtin_popcountll(n->om), __builtin_popcountll(n->ok), __builtin_popcountll(n->pm),
                      __builtin_popcountll(n->pk));
    return e == 5 ? 10 : e == 16 ? 32 : KING_ONLY_PLIES;
}

/* compact.kept_distance: of a count-rule distance the checker keeps only whether it fits the
 * fresh budget (the site's tables keep no more; CAP where no count runs), as the longest
 * distance of its result that does, or a draw */
static int16_t kept_distance(int16_t v, const node *n) {
    if (v < 0) return v;
    int fresh = fresh_plies(n);
    int limit = fresh < DISTANCE_CAP ? fresh : DISTANCE_CAP;
    if (v > limit) return -1;
    return (int16_t)((limit - v) % 2 ? limit - 1 : limit);
}

/* search.py _counted_win with kinds.py CheckerTables.probe_rules: a value of a table with count
 * rules (probe(1, ...)), as kept, that is a win fitting the node's clocks */
static int counted_win(int16_t counted, const node *n) {
    counted = kept_distance(counted, n);
    return counted != NOT_COVERED && white_wins(counted, n->white) && counted <= plies_left(n);
}

/* The balance of the first estimate.  0: the material, as search.py counts it; 1: opinion.h's
 * static evaluation (df-pn+: at 5 million nodes it settles 13 of the 48 second keys of
 * benchmarks/data/open-keys.json in 216.9 million nodes, the material 12 in 219.1 million, but
 * the stored verdicts judged with it lose a correct grade, Cat.D1 44, for the one they gain,
 * PWCP-2 A12); +2: after the captures the side to move must make (QUIET_PLIES deep: 9 of the 12
 * the material settles).  benchmarks/README.md, "Refutations". */
#ifndef ESTIMATE /* benchmarks/refutations.py compiles the others to compare */
#define ESTIMATE 0
#endif
#define QUIET_PLIES 6
static int op_balance(const node *n); /* opinion.h */

/* the side to move's material less the other side's: in men (a king KING_MEN), or with
 * ESTIMATE 1 opinion.h's static evaluation in hundredths of a man */
static int static_balance(const node *n) {
    if (ESTIMATE & 1) return op_balance(n);
    int own = __builtin_popcountll(n->om) + KING_MEN * __builtin_popcountll(n->ok);
    int opp = __builtin_popcountll(n->pm) + KING_MEN * __builtin_popcountll(n->pk);
    return own - opp;
}

/* the balance once the captures are made: a side that must capture takes the capture best for
 * it, up to ``plies`` captures deep (draughts captures are compulsory, so a man given away for
 * a shot is not simply lost).  Its children go on the STACK above ``n``, popped before it
 * returns; the STACK may move, so ``n`` must not point into it. */
static int quiet_balance(const node *n, int plies) {
    if (!plies || !has_capture(n->om, n->ok, n->pm, n->pk)) return static_balance(n);
    size_t first = STACK_TOP;
    int count = generate(n), best = -(1 << 30);
    for (int i = 0; i < count; i++) {
        node child = STACK[first + i];
        int v = -quiet_balance(&child, plies - 1);
        if (v > best) best = v;
    }
    STACK_TOP = first;
    return count ? best : static_balance(n);
}

/* search.py _first_estimate: the moves the side to move may choose from or must answer, each
 * number made harder by the material the side it favours is behind (MATERIAL_WEIGHT a man).
 * ESTIMATE (above) may count the balance otherwise, with the same weight a man.  Either way it
 * orders the search only: every value a proof rests on is a leaf's.  ``n`` must not point into
 * the STACK. */
static values first_estimate(const node *n, int moves) {
    int scale = ESTIMATE & 1 ? 100 : 1, e;
    if (ESTIMATE & 2) {
        int overflow = OVERFLOW_SEEN; /* a position looked at here is not one of the search */
        e = quiet_balance(n, QUIET_PLIES);
        OVERFLOW_SEEN = overflow;
    } else e = static_balance(n);
    int balance = n->white ? e : -e; /* White's less Black's */
    int64_t harder_to_prove = balance < 0 ? 1 + (int64_t)MATERIAL_WEIGHT * -balance / scale : 1;
    int64_t harder_to_refute = balance > 0 ? 1 + (int64_t)MATERIAL_WEIGHT * balance / scale : 1;
    return n->white ? (values){harder_to_prove, moves * harder_to_refute}
                    : (values){moves * harder_to_prove, harder_to_refute};
}

/* A scout's position whose table block is not here yet (PENDING): searching on below it, as
 * below a position no table covers, would ask for blocks of positions the judgement never
 * reaches (it takes the table's answer there), so the scout takes it as settled, for the side
 * the material favours, and goes on elsewhere; the rounds after the block came read its value.
 * Only a scout meets this (its answer is thrown away): a judgement's host answers a block or
 * -1. */
static values pending_guess(const node *n) {
    int e = static_balance(n);
    return (n->white ? e : -e) > 0 ? PROVED : REFUTED;
}

/* search.py _evaluate: terminal, count rule, table, or a first estimate */
static values evaluate(const node *given) {
    node self = *given; /* given may point into the STACK, which first_estimate may move */
    const node *n = &self;
    int moves = count_moves(n);
    if (!moves) return n->white ? REFUTED : PROVED; /* the side to move cannot move: lost */
    if (draw_by_count(n)) return REFUTED;
    /* no table has more than seven pieces (probe's first test, made here without the call) */
    int few = __builtin_popcountll(n->om | n->ok | n->pm | n->pk) <= 7;
    int16_t pure = few ? probe(0, n) : NOT_COVERED;
    if (pure == PENDING) return pending_guess(n);
    if (pure != NOT_COVERED) {
        if (!white_wins(pure, n->white)) return REFUTED; /* the count rules only add draws */
        return counted_win(probe(1, n), n) ? PROVED : (values){1, 1};
    }
    values v = first_estimate(n, moves);
    int16_t counted = few ? probe(1, n) : NOT_COVERED;
    if (counted != NOT_COVERED) { /* a class with a table with count rules only: 6 pieces */
        if (counted_win(counted, n)) return PROVED;
        /* no win the table vouches for: seldom won, so searched last (search.py UNLIKELY) */
        v.pn *= UNLIKELY;
    }
    return v;
}

/* the node's values: the table's, else (stored there) its first estimate or a leaf's value */
static values lookup_at(const node *n, place p) {
    bucket *b = bucket_at(p);
    entry *e = match(b, p.sig);
    if (e) return (values){e->pn, e->dn};
    if (PRINTING) {
        int kept = settled_find(p.sig);
        if (kept >= 0) return kept ? PROVED : REFUTED;
    }
    values v = evaluate(n);
    store_at(b, NULL, p.sig, v, 0); /* evaluate leaves the table as it was: still no match */
    return v;
}

static values lookup(const node *n) { return lookup_at(n, place_of(n)); }

static int64_t widened(int64_t second) {
    if (second >= INF - 1) return INF - 1;
    return second + 1 + second / EPSILON_DIVISOR;
}

static values expand(const node *n, place p, values known, int64_t pn_limit, int64_t dn_limit);

/* The evaluation as a guide to the search (df-pn+, Nagai 2002), never as a value: opinion.h's
 * static evaluation of each child, from the mover's side, taken as how far the mover's score is
 * behind its best sibling's (in hundredths of a man).
 *   GUIDE_TIES 1: among the children with the same least number (the proof number at White's
 *   nodes, the disproof number at Black's), the search goes on with the best evaluated one
 *   instead of the first generated.  The numbers are those of plain df-pn.
 *   GUIDE N: instead a cost of N a man behind is added to that least number for as long as the
 *   child is open, and taken off the threshold the child is searched with; a settled child costs
 *   nothing, so a node is settled exactly when plain df-pn settles it.
 *   GUIDE_SIDES: at whose nodes, 1 White's, 2 Black's, 3 both.
 * benchmarks/README.md, "Guided search", has what each did to the nodes of a refutation. */
#ifndef GUIDE /* benchmarks/refutations.py compiles the others to compare */
#define GUIDE 0
#endif
#ifndef GUIDE_SIDES
#define GUIDE_SIDES 2
#endif
#ifndef GUIDE_TIES
#define GUIDE_TIES 0
#endif
/* whether the moves of ``n`` are guided (GUIDE_SIDES) */
static HOT int guided_here(const node *n, int count) {
    return (GUIDE || GUIDE_TIES) && count > 1 && (GUIDE_SIDES & (n->white ? 1 : 2));
}

/* GUIDE: each child's cost into COSTS, GUIDE a man its mover's score is behind the best one's */
static void guide_costs(size_t first, int count) {
    int best = -(1 << 30);
    for (int i = 0; i < count; i++) {
        int score = -op_balance(&STACK[first + i]); /* the child's balance is its mover's opponent's */
        COSTS[first + i] = score;
        if (score > best) best = score;
    }
    for (int i = 0; i < count; i++) COSTS[first + i] = (int32_t)((int64_t)GUIDE * (best - COSTS[first + i]) / 100);
}

/* GUIDE_TIES: the child's balance (from its side to move, so the lower the better for the
 * mover), worked out the first time a tie needs it: an expansion without a tie at its least
 * number evaluates nothing (evaluating every child at once made the same nodes in more
 * instructions) */
#define UNSCORED INT32_MIN
static HOT int32_t tie_score(size_t at) {
    if (COSTS[at] == UNSCORED) COSTS[at] = op_balance(&STACK[at]);
    return COSTS[at];
}

/* how deep the search may go: Fries Spel kings can go round in circles, and a search that
 * follows one for ever would overflow the machine's stack; it stops, undecided, instead */
#define MAX_DEPTH 8000
static int DEPTH;

static values mid(const node *n, place p, int64_t pn_limit, int64_t dn_limit) {
    NODES++;
    if ((NODES & 1023) == 0 && (now() > DEADLINE || NODES > NODE_LIMIT)) ABORTED = 1;
#ifdef PROVER_WASM
    if ((NODES & 65535) == 0) rb_progress((double)NODES);
#endif
    if (DEPTH >= MAX_DEPTH) ABORTED = 1;
    values known = lookup_at(n, p);
    if (ABORTED || known.pn == 0 || known.dn == 0) return known;
    DEPTH++;
    values v = expand(n, p, known, pn_limit, dn_limit);
    DEPTH--;
    return v;
}

/* the search below an open node: its children until its values pass a limit or settle */
static values expand(const node *n, place p, values known, int64_t pn_limit, int64_t dn_limit) {
    uint64_t nodes_before = NODES;
    uint64_t sig = p.sig; /* the node's signature and bucket, for every store below */
    bucket *b = bucket_at(p);
    size_t first = STACK_TOP;
    int count = generate(n);
    for (int i = 0; i < count; i++) { /* ask the memory for every child's bucket at once */
        PLACES[first + i] = place_of(&STACK[first + i]);
        __builtin_prefetch(bucket_at(PLACES[first + i]));
    }
    for (int i = 0; i < count; i++) SEEN_VALUES[first + i] = lookup_at(&STACK[first + i], PLACES[first + i]);
    int guided = guided_here(n, count);
    if (guided && GUIDE) guide_costs(first, count);
    else if (guided)
        for (int i = 0; i < count; i++) COSTS[first + i] = UNSCORED;
    values v = known;
    for (;;) {
        /* at an OR node (White to move) pn is the least of the children's and dn combines
         * them all; at an AND node the other way round */
        int64_t best_value = INF, second_value = INF, total = 0, largest = 0, open = 0;
        int best = -1, infinite = 0;
        for (int i = 0; i < count; i++) {
            values c = SEEN_VALUES[first + i];
            int64_t least = n->white ? c.pn : c.dn, combined = n->white ? c.dn : c.pn;
            if (GUIDE && guided && least && least < INF) least += COSTS[first + i];
            /* the sum stops at SUM_CAP and is INF once a number is: the numbers are never
             * negative, so that is the whole sum capped once, the same as capped at each step */
            total += combined;
            infinite |= combined >= INF;
            if (WEAK && combined) {
                open++;
                if (combined > largest) largest = combined;
            }
            if (least < best_value || (GUIDE_TIES && !GUIDE && guided && least == best_value && best >= 0 &&
                                       tie_score(first + i) < tie_score(first + best))) {
                second_value = best_value;
                best_value = least;
                best = i;
            } else if (least < second_value) second_value = least;
        }
        total = infinite ? INF : total < SUM_CAP ? total : SUM_CAP;
        if (WEAK && total < INF && open) total = largest + open - 1;
        v.pn = n->white ? best_value : total;
        v.dn = n->white ? total : best_value;
        store(b, sig, v, (uint32_t)(NODES - nodes_before));
        if (v.pn == 0 || v.dn == 0) settled_add(sig, v.pn == 0);
        nodes_before = NODES;
        if (v.pn >= pn_limit || v.dn >= dn_limit || v.pn == 0 || v.dn == 0 || best < 0 || ABORTED) break;
        node child = STACK[first + best];
        place child_place = PLACES[first + best];
        values c = SEEN_VALUES[first + best];
        int64_t child_pn_limit, child_dn_limit, cost = GUIDE && guided ? COSTS[first + best] : 0;
        if (n->white) {
            child_pn_limit = (pn_limit < widened(second_value) ? pn_limit : widened(second_value)) - cost;
            child_dn_limit = dn_limit - v.dn + c.dn;
        } else {
            child_dn_limit = (dn_limit < widened(second_value) ? dn_limit : widened(second_value)) - cost;
            child_pn_limit = pn_limit - v.pn + c.pn;
        }
        SEEN_VALUES[first + best] =
            mid(&child, child_place, child_pn_limit, child_dn_limit < INF - 1 ? child_dn_limit : INF - 1);
    }
    STACK_TOP = first;
    return v;
}

/* ------------------------------------------------------------------ the proof, printed */
/* the nodes already printed or known to be closed by a leaf */
static key *SEEN;
static size_t SEEN_COUNT, SEEN_SIZE; /* SEEN_SIZE a power of two */

/* whether the tree printed so far holds ``n`` (nothing added) */
static int seen_already(const node *n) {
    if (!SEEN_COUNT) return 0;
    key k = key_of(n);
    for (size_t j = key_hash(&k) & (SEEN_SIZE - 1); SEEN[j].meta; j = (j + 1) & (SEEN_SIZE - 1))
        if (same_key(&SEEN[j], k.own, k.opp, k.kings, k.meta)) return 1;
    return 0;
}

static int seen_before(const node *n) {
    key k = key_of(n);
    if (2 * (SEEN_COUNT + 1) > SEEN_SIZE) {
        size_t old_size = SEEN_SIZE;
        key *old = SEEN;
        SEEN_SIZE = old_size ? 2 * old_size : 1 << 16;
        SEEN = calloc(SEEN_SIZE, sizeof(key));
        if (!SEEN) { fprintf(stderr, "prover: out of memory\n"); exit(1); }
        SEEN_COUNT = 0;
        for (size_t i = 0; i < old_size; i++)
            if (old[i].meta) {
                size_t j = key_hash(&old[i]) & (SEEN_SIZE - 1);
                while (SEEN[j].meta) j = (j + 1) & (SEEN_SIZE - 1);
                SEEN[j] = old[i];
                SEEN_COUNT++;
            }
        free(old);
    }
    size_t j = key_hash(&k) & (SEEN_SIZE - 1);
    while (SEEN[j].meta) {
        if (same_key(&SEEN[j], k.own, k.opp, k.kings, k.meta)) return 1;
        j = (j + 1) & (SEEN_SIZE - 1);
    }
    SEEN[j] = k;
    SEEN_COUNT++;
    return 0;
}

static void print_position(const node *n) {
    bb wm = n->white ? n->om : mirror(n->pm), wk = n->white ? n->ok : mirror(n->pk);
    bb xm = n->white ? n->pm : mirror(n->om), xk = n->white ? n->pk : mirror(n->ok);
    printf(" %llx %llx %llx %llx", (unsigned long long)wm, (unsigned long long)wk, (unsigned long long)xm,
           (unsigned long long)xk);
}

/* the node's CLOCKS field, as binaries.py node_fields writes it (see the usage above) */
static void print_clocks(const node *n) {
    if (!FRISIAN) {
        printf(" %d/%d/%d/%d", n->white, n->ending, n->ending_plies, n->king_plies);
        return;
    }
    int own_square = n->own.count ? (n->white ? SQUARE_OF[n->own.bit] : 51 - SQUARE_OF[n->own.bit]) : 0;
    int other_square = n->other.count ? (n->white ? SQUARE_OF[n->other.bit] : 51 - SQUARE_OF[n->other.bit]) : 0;
    int strong = n->strong < 0 ? 0 : (n->strong == 1) == (n->white != 0) ? 1 : 2;
    if (n->white)
        printf(" 1/%d/%d/%d/%d/%d/%d", n->own.count, own_square, n->other.count, other_square, strong, n->strong_moves);
    else
        printf(" 0/%d/%d/%d/%d/%d/%d", n->other.count, other_square, n->own.count, own_square, strong, n->strong_moves);
}

static int settled(values v, int proof) { return proof ? v.pn == 0 : v.dn == 0; }

/* Where one move suffices, which of the settled children the tree goes on with.  TREE_CHOICE
 * 0: the first in the order of the moves.  1: the one whose tree should cost the Python walk
 * least: one already printed or closed by a leaf (nothing more to walk), else the one whose
 * search cost fewest nodes (its entry's work: a subtree settled in few nodes has a small proof),
 * one known only to the store of settled nodes last.  -1 if none is known settled. */
#ifndef TREE_CHOICE
#define TREE_CHOICE 0
#endif
static int cheapest_settled(size_t first, int count, int proof) {
    int chosen = -1;
    uint64_t least = UINT64_MAX;
    for (int i = 0; i < count && least; i++) {
        node child = STACK[first + i]; /* a copy: a lookup may move the STACK */
        const node *c = &child;
        place p = place_of(c);
        entry *e = match(bucket_at(p), p.sig);
        uint64_t cost;
        if (e) {
            if (!settled((values){e->pn, e->dn}, proof)) continue;
            cost = e->work ? (uint64_t)e->work + 1 : 1;
        } else {
            int kept = settled_find(p.sig);
            if (kept >= 0) {
                if (kept != proof) continue;
                cost = (uint64_t)1 << 40;
            } else {
                if (!settled(lookup(c), proof)) continue;
                cost = 1; /* a leaf: lookup evaluated it */
            }
        }
        if (seen_already(c)) cost = 0;
        if (cost < least) {
            least = cost;
            chosen = i;
        }
    }
    return chosen;
}

/* prints the choices of the proof (proof=1) or refutation (0) below ``n``; 0 if it fails */
static int print_tree(const node *n, int proof) {
    if (seen_before(n)) return 1;
    values leaf = evaluate(n);
    if (settled(leaf, proof)) return 1;
    if (leaf.pn == 0 || leaf.dn == 0) return 0; /* closed the other way: not a proof */
    size_t first = STACK_TOP;
    int count = generate(n);
    int ok = 1;
    if (n->white == proof) { /* one child suffices: the first settled one (TREE_CHOICE: the cheapest), searched again if lost */
        int chosen = TREE_CHOICE ? cheapest_settled(first, count, proof) : -1;
        for (int i = 0; i < count && chosen < 0; i++)
            if (settled(lookup(&STACK[first + i]), proof)) chosen = i;
        if (chosen < 0 && !ABORTED) {
            /* the table has lost the child that settled this node: settle the node again, which
             * searches its most promising children first, then look again */
            node again = *n;
            expand(&again, place_of(&again), (values){1, 1}, INF - 1, INF - 1);
            for (int i = 0; i < count && chosen < 0; i++)
                if (settled(lookup(&STACK[first + i]), proof)) chosen = i;
        }
        for (int i = 0; i < count && chosen < 0 && !ABORTED; i++) {
            node child = STACK[first + i]; /* the stack may move while the child is searched */
            if (settled(mid(&child, place_of(&child), INF - 1, INF - 1), proof)) chosen = i;
        }
        if (chosen < 0) ok = 0;
        else {
            printf("choice");
            print_position(n);
            print_clocks(n);
            print_position(&STACK[first + chosen]);
            printf("\n");
            node child = STACK[first + chosen];
            ok = print_tree(&child, proof);
        }
    } else {
        for (int i = 0; i < count && ok; i++) {
            node child = STACK[first + i];
            if (!settled(lookup(&child), proof) && !settled(mid(&child, place_of(&child), INF - 1, INF - 1), proof))
                ok = 0;
            else ok = print_tree(&child, proof);
        }
    }
    STACK_TOP = first;
    return ok && !ABORTED;
}

/* the line the search was working on when it stopped: from the root, the child df-pn would
 * search next (least proof number where White moves, least disproof number where Black does),
 * as long as the nodes are open; shown to the composer as where the proof is hardest */
#define OPEN_LINE_PLIES 16
static void print_open_line(const node *root) {
    node n = *root;
    for (int ply = 0; ply < OPEN_LINE_PLIES; ply++) {
        values v = lookup(&n);
        if (v.pn == 0 || v.dn == 0) break;
        size_t first = STACK_TOP;
        int count = generate(&n), best = -1;
        int64_t best_value = INF;
        for (int i = 0; i < count; i++) {
            values c = lookup(&STACK[first + i]);
            int64_t value = n.white ? c.pn : c.dn;
            if (value < best_value) {
                best_value = value;
                best = i;
            }
        }
        STACK_TOP = first;
        if (best < 0) break; /* no move: the node would have been settled */
        node child = STACK[first + best];
        printf("open");
        print_position(&child);
        printf("\n");
        n = child;
    }
}

/* ------------------------------------------------------------------ main */
static int parse_hex(const char *text, bb *out) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 16);
    if (errno || *end || end == text || (v & ~BOARD)) return 0;
    *out = v;
    return 1;
}

/* Zeroed memory for a table read at random, on huge pages where the kernel has them (fewer misses
 * of the processor's address cache; an older kernel or a machine without them refuses the
 * request, harmlessly).  A huge page is cleared whole when first touched, so a short search pays
 * for the whole table: with 320 MB (a judgement of 20 s) a search of 9,000 nodes took 0.2 s
 * instead of 0.08, with 1 GB 0.5 s.  A longer one gains: four second keys refuted in 2.7 to 7.7
 * million nodes took 26.6 s instead of 29.5 with 320 MB, and a million nodes of each 4.2 s
 * instead of 6.2.  (Until 26 November the tables started on ordinary pages and were gathered
 * into huge ones after a million nodes, MADV_COLLAPSE: the copying took a tenth of a long
 * search, with tables then four times as large.) */
static void *table_memory(size_t bytes, uint64_t megabytes) {
#ifdef PROVER_WASM
    void *memory = calloc(1, bytes); /* WebAssembly memory grows zeroed, page by page */
    if (!memory) {
        fprintf(stderr, "prover: cannot allocate %llu MB\n", (unsigned long long)megabytes);
        exit(1);
    }
    return memory;
#else
    void *memory = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) {
        fprintf(stderr, "prover: cannot allocate %llu MB\n", (unsigned long long)megabytes);
        exit(1);
    }
#ifdef MADV_HUGEPAGE
    madvise(memory, bytes, MADV_HUGEPAGE);
#endif
    return memory;
#endif
}

#ifndef PROVER_WASM
/* the variant argument: 0 International, 1 Fries Spel, -1 unknown */
static int variant_of(const char *name) {
    return !strcmp(name, "international") ? 0 : !strcmp(name, "frisian") ? 1 : -1;
}

#endif

/* a node from its pieces (WM WK BM BK, hexadecimal) and its CLOCKS field; 0 if they are bad */
static int parse_node(char **field, node *out) {
    bb wm, wk, xm, xk;
    if (!parse_hex(field[0], &wm) || !parse_hex(field[1], &wk) || !parse_hex(field[2], &xm) ||
        !parse_hex(field[3], &xk) || (wm & wk) || ((wm | wk) & (xm | xk)) || (xm & xk))
        return 0;
    int c[7], count = 0;
    const char *at = field[4];
    while (count < 7) {
        char *end;
        errno = 0;
        long v = strtol(at, &end, 10);
        if (errno || end == at || v < 0 || v > 64) return 0;
        c[count++] = (int)v;
        if (*end == 0) break;
        if (*end != '/') return 0;
        at = end + 1;
    }
    node n;
    memset(&n, 0, sizeof n);
    n.white = c[0] != 0;
    n.om = n.white ? wm : mirror(xm);
    n.ok = n.white ? wk : mirror(xk);
    n.pm = n.white ? xm : mirror(wm);
    n.pk = n.white ? xk : mirror(wk);
    n.strong = -1;
    if (!FRISIAN) {
        if (count != 4 || c[0] > 1 || (c[1] != 0 && c[1] != 5 && c[1] != 16) || c[2] > 40 ||
            c[3] > KING_ONLY_PLIES)
            return 0;
        n.ending = c[1];
        n.ending_plies = c[2];
        n.king_plies = c[3];
    } else {
        if (count != 7 || c[0] > 1 || c[1] > RUN_LIMIT || c[3] > RUN_LIMIT || c[2] > 50 || c[4] > 50 ||
            c[5] > 2 || c[6] > TWO_KINGS_MOVES)
            return 0;
        /* a run is given by its square (none without one): turned to this node's frame, a bit */
        if ((c[1] && !c[2]) || (c[3] && !c[4])) return 0;
        run white_run = c[1] ? (run){c[1], bit_of(c[2])} : NO_RUN;
        run black_run = c[3] ? (run){c[3], bit_of(c[4])} : NO_RUN;
        n.own = n.white ? white_run : mirror_run(black_run);
        n.other = n.white ? black_run : mirror_run(white_run);
        normalise(&n);
        n.strong = c[5] == 0 ? -1 : (c[5] == 1) == n.white ? 1 : 0;
        n.strong_moves = c[6];
    }
    *out = n;
    return 1;
}

/* what the tables say of a node, both kinds: "pure V" and "rules V" (its distance as kept), or
 * "none" ("probe", "moves") */
static void print_probes(const node *n) {
    int16_t v[2] = {probe(0, n), kept_distance(probe(1, n), n)};
    const char *names[2] = {"pure", "rules"};
    for (int k = 0; k < 2; k++) {
        if (v[k] == NOT_COVERED) printf("%s none\n", names[k]);
        else printf("%s %d\n", names[k], v[k]);
    }
}

#ifndef PROVER_WASM
/* "captures": every position of a class whose side to move must capture, its stored values
 * against those resolved_code works out from its captures (as the browser's build does where the
 * site's tables leave them out), the count-rule distances as kept (what every reader reads: a
 * file packed with kept codes holds the longest distance that fits where resolved_code gives the
 * capture's own): how many there are, and how many differ or are not covered */
static void check_captures(const int m[4]) {
    layout l;
    make_layout(&l, m);
    list_sets(&l);
    unsigned long long checked = 0, differ = 0, uncovered = 0;
    for (uint64_t slot = 0; slot < l.slots; slot++) {
        node n;
        memset(&n, 0, sizeof n);
        if (!decode_slot(&l, slot, &n.om, &n.ok, &n.pm, &n.pk, &n.own, &n.other)) continue;
        n.white = 1;
        if (!can_capture(&n)) continue;
        checked++;
        int16_t v[2] = {probe(0, &n), kept_distance(probe(1, &n), &n)};
        int code = resolved_code(&n);
        int16_t kept = code < 0 ? NOT_COVERED : kept_distance(VALUE_OF[1][code], &n);
        if (code < 0 || v[0] == NOT_COVERED || v[1] == NOT_COVERED) uncovered++;
        else if (VALUE_OF[0][code] != v[0] || kept != v[1]) {
            if (!differ)
                printf("first %llu stored %d %d resolved %d %d\n", (unsigned long long)slot, v[0], v[1],
                       VALUE_OF[0][code], kept);
            differ++;
        }
    }
    for (int g = 0; g < 4; g++) free(l.sets[g]);
    printf("captures %llu differ %llu uncovered %llu\nend\n", checked, differ, uncovered);
}

#endif

/* "moves": what this program makes of one node, for the tests against the Python engine, and
 * for the check page's scouts before Python is there (early-scouts.js: the positions after
 * each first move, clocks included, as the judgement's first searches are written) */
static int describe(const node *n) {
    print_probes(n);
    int moves = count_moves(n);
    printf("draw %d\n", moves && draw_by_count(n));
    values first = evaluate(n); /* a leaf's value, else the first estimate */
    printf("estimate %lld %lld\n", (long long)first.pn, (long long)first.dn);
    size_t top = STACK_TOP;
    int count = generate(n);
    if (!count != !moves) { /* count_moves may count two routes of one capture twice */
        fprintf(stderr, "prover: %d moves generated, %d counted\n", count, moves);
        printf("error %d moves generated, %d counted\nend\n", count, moves);
        STACK_TOP = top;
        return 1;
    }
    for (int i = 0; i < count; i++) {
        printf("child");
        print_position(&STACK[top + i]);
        print_clocks(&STACK[top + i]);
        printf("\n");
    }
    STACK_TOP = top;
    printf("end\n");
    return OVERFLOW_SEEN;
}

/* the TT and the store of settled nodes, sized for a search given TABLE_MB megabytes */
static void allocate_tables(uint64_t megabytes) {
    uint64_t buckets = 1;
    while (buckets * 2 * sizeof(bucket) <= megabytes << 20) buckets *= 2;
    TT = table_memory(buckets * sizeof(bucket), megabytes);
    TT_MASK = buckets - 1;
    /* half the table's memory (A9's proof, 51.8 M nodes: 21.1 M settled nodes, a 512 MB store
     * a third full); this machine's memory costs about 1.7 s a GB when first touched.  A table
     * of 0 MB still keeps its proofs. */
    SETTLED_SIZE = 1 << 16;
    while (SETTLED_SIZE * 2 * sizeof(uint64_t) <= megabytes << 19) SETTLED_SIZE *= 2;
    SETTLED = table_memory(SETTLED_SIZE * sizeof(uint64_t), megabytes);
}

/* one search from ``root``, its answer printed (see the usage above).  The transposition table
 * and the store of settled nodes stay as they are for the next search of a session: a value
 * settled is settled whatever the root, and the open values are where df-pn would go on. */
static void solve(const node *root, double seconds, uint64_t node_limit) {
    NODES = 0;
    NODE_LIMIT = node_limit;
    ABORTED = 0;
    DEPTH = 0;
    STACK_TOP = 0;
    PRINTING = 0;
    if (SEEN_SIZE > (1 << 16)) { /* a large tree's: given back, not cleared, for the next */
        free(SEEN);
        SEEN = NULL;
        SEEN_SIZE = 0;
    } else if (SEEN_COUNT)
        memset(SEEN, 0, SEEN_SIZE * sizeof(key));
    SEEN_COUNT = 0;
    double started = now();
    DEADLINE = started + seconds;
    values v = mid(root, place_of(root), INF - 1, INF - 1);
    const char *result = ABORTED || OVERFLOW_SEEN ? "undecided" : v.pn == 0 ? "proved" : v.dn == 0 ? "refuted" : "undecided";
    printf("result %s\nnodes %llu\nseconds %.3f\n", result, (unsigned long long)NODES, now() - started);
    if (!strcmp(result, "undecided")) print_open_line(root);
    else {
        /* the tree gets the time that is left, and a little more so a found proof is not lost */
        DEADLINE = (DEADLINE > now() ? DEADLINE : now()) + 0.25 * seconds;
        NODE_LIMIT = NODES + NODE_LIMIT;
        PRINTING = 1;
        if (!print_tree(root, result[0] == 'p')) printf("tree incomplete\n");
        else printf("tree %llu\n", (unsigned long long)SEEN_COUNT);
        PRINTING = 0;
    }
    printf("end\n");
    fflush(stdout);
}

#include "opinion.h" /* the "opinion" request: an evaluating search, not a proof */

/* "serve": searches one after another in one process, each asked for by a line on standard
 * input, "solve SECONDS NODE_LIMIT WM WK BM BK CLOCKS", and answered as a single search is,
 * up to its "end" line; the process ends with its input.  What one search settles or leaves
 * open is where the next one starts: the searches of one judgement (the keys, the alternatives
 * of criterion C, later rounds) share their positions.  A bad line is answered "error MESSAGE"
 * and "end".  "opinion NODE_LIMIT WM WK BM BK CLOCKS" asks for opinion.h's evaluating search
 * instead, which leaves the proof search's tables as they were; "moves WM WK BM BK CLOCKS"
 * answers as "prover moves" does, so that the tests against the Python engine ask many nodes of
 * one process (and the check page's scouts before Python the positions after each first
 * move); "probe WM WK BM BK CLOCKS" answers what the
 * tables say of the node ("pure V" and "rules V", or "none"), for the tests that the browser's
 * build works out the captures the site's tables leave to it as the native one reads them. */
/* one request line of a session, answered on standard output */
static void answer(char *line) {
    char *field[9];
    int count = 0;
    for (char *at = strtok(line, " \t\r\n"); at && count < 9; at = strtok(NULL, " \t\r\n"))
        field[count++] = at;
    if (count && !strcmp(field[0], "opinion")) {
        opinion_request(field, count);
        return;
    }
    node root;
    if (count && !strcmp(field[0], "probe")) { /* the tests': what the tables say of one node */
        if (count != 6 || !parse_node(field + 1, &root))
            printf("error expected: probe WM WK BM BK CLOCKS\nend\n");
        else {
            print_probes(&root);
            printf("end\n");
        }
        fflush(stdout);
        return;
    }
#ifndef PROVER_WASM
    if (count && !strcmp(field[0], "captures")) { /* the tests': resolved_code on a whole class */
        int m[4];
        for (int g = 0; g < 4 && count == 5; g++) m[g] = atoi(field[1 + g]);
        if (count != 5 || m[0] + m[1] + m[2] + m[3] > 7 || m[0] < 0 || m[1] < 0 || m[2] < 0 || m[3] < 0)
            printf("error expected: captures OWN_MEN OWN_KINGS OTHER_MEN OTHER_KINGS\nend\n");
        else
            check_captures(m);
        fflush(stdout);
        return;
    }
    if (count && !strcmp(field[0], "resolve")) { /* the tests': resolved_code of one node */
        if (count != 6 || !parse_node(field + 1, &root))
            printf("error expected: resolve WM WK BM BK CLOCKS\nend\n");
        else {
            int code = can_capture(&root) ? resolved_code(&root) : -1;
            if (code < 0) printf("code none\nend\n");
            else printf("code %d\nend\n", code);
        }
        fflush(stdout);
        return;
    }
#endif
    if (count && !strcmp(field[0], "moves")) { /* the tests' nodes, one process; early scouts */
        if (count != 6 || !parse_node(field + 1, &root))
            printf("error expected: moves WM WK BM BK CLOCKS\nend\n");
        else
            describe(&root);
        fflush(stdout);
        return;
    }
    if (count != 8 || strcmp(field[0], "solve") || !parse_node(field + 3, &root)) {
        printf("error expected: solve SECONDS NODE_LIMIT WM WK BM BK CLOCKS\nend\n");
        fflush(stdout);
        return;
    }
    solve(&root, atof(field[1]), strtoull(field[2], NULL, 10));
}

#ifdef PROVER_WASM
/* The WebAssembly build is a library (a WASI "reactor"): the host opens a session with
 * rb_open, writes each request line (as "serve" reads them) into rb_request_buffer and calls
 * rb_request; the answer comes on standard output, as from "serve".  A new session is a new
 * instance of the module. */
static char REQUEST[512];

__attribute__((export_name("rb_request_buffer"))) char *rb_request_buffer(void) { return REQUEST; }

__attribute__((export_name("rb_open"))) int32_t rb_open(int32_t variant, uint32_t table_mb) {
    (void)die_with_parent; /* draughts.h's, for the programs run as processes */
    if (variant != 0 && variant != 1) return 0;
    init_geometry(variant);
    MEN_AT_ONCE = !FRISIAN && DIAGONAL_SHIFTS;
    init_codes();
    init_index();
    allocate_tables(table_mb);
    return 1;
}

__attribute__((export_name("rb_request"))) void rb_request(void) {
    REQUEST[sizeof REQUEST - 1] = 0;
    answer(REQUEST);
    fflush(stdout);
}
#else
static int serve(void) {
    char line[512];
    while (fgets(line, sizeof line, stdin)) {
        if (!strchr(line, '\n') && !feof(stdin)) { /* too long for a request: skip it whole */
            int c;
            while ((c = getchar()) != EOF && c != '\n') {}
            line[0] = 0;
        }
        answer(line);
    }
    return 0;
}

int main(int argc, char **argv) {
    die_with_parent();
    const char *usage =
        "usage: prover VARIANT PURE_DIR RULES_DIR SECONDS NODE_LIMIT TABLE_MB WM WK BM BK CLOCKS\n"
        "       prover serve VARIANT PURE_DIR RULES_DIR TABLE_MB\n"
        "       prover moves VARIANT PURE_DIR RULES_DIR WM WK BM BK CLOCKS\n";
    int moves_only = argc == 10 && !strcmp(argv[1], "moves");
    int serving = argc == 6 && !strcmp(argv[1], "serve");
    if (argc != 12 && !moves_only && !serving) {
        fputs(usage, stderr);
        return 1;
    }
    int shift = moves_only || serving;
    int variant = variant_of(argv[1 + shift]);
    if (variant < 0) {
        fprintf(stderr, "prover: unknown variant %s\n", argv[1 + shift]);
        return 1;
    }
    init_geometry(variant);
    MEN_AT_ONCE = !FRISIAN && DIAGONAL_SHIFTS;
    init_codes();
    init_index();
    TABLE_DIR[0] = argv[2 + shift];
    TABLE_DIR[1] = argv[3 + shift];
    if (serving) {
        allocate_tables(strtoull(argv[5], NULL, 10));
        return serve();
    }
    node root;
    if (!parse_node(argv + (moves_only ? 5 : 7), &root)) {
        fprintf(stderr, "prover: bad position or clocks\n");
        return 1;
    }
    if (moves_only) return describe(&root);
    allocate_tables(strtoull(argv[6], NULL, 10));
    solve(&root, atof(argv[4]), strtoull(argv[5], NULL, 10));
    return 0;
}
#endif
