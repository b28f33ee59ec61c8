/* An opinion of a position: an evaluating alpha-beta search, for prover.c's "opinion" request.
 *
 * Not a proof: a score in hundredths of a man, from the real White's point of view, with the
 * depth it was searched to and the principal variation.  Where the search knows the end (the
 * side to move cannot move, a count rule, an endgame table value that fits the clocks, judged as
 * prover.c's evaluate() judges them) the score says so: +-(WIN - plies from the root to the end
 * of the game), or 0 for a draw.
 *
 * The search: iterative deepening of a principal variation search in negamax form, with its own
 * transposition table (best move, depth, bound), moves ordered by the table's move, two killers
 * a ply and the history heuristic.  A node whose side to move must capture is never a leaf
 * (captures are compulsory in draughts, so the position before a capture says little): at the
 * horizon the captures are searched on, and a node without a forced capture stands pat with the
 * evaluation.  A ply with a single legal move uses no depth.  Depth counts the other plies.
 *
 * It shares the node machinery of prover.c (generate, the clocks, the tables) but nothing a
 * proof search reads: its table, counters and order buffer are its own, the children it pushes
 * on prover.c's STACK are popped before it answers, and OVERFLOW_SEEN is put back.  So an
 * opinion asked between two proof searches of a session changes neither.  Its table is cleared
 * for every request and it stops by a count of nodes only, never by the clock: an answer
 * depends on its request alone, the same on every machine and in the browser.
 */
#ifndef RULEBOOK_OPINION_H
#define RULEBOOK_OPINION_H

#define OP_WIN 30000       /* binaries.py WIN_SCORE: a known win at the root, in no ply */
#define OP_KNOWN 29000     /* scores beyond this are known ends (an evaluation never gets there) */
#define OP_INFINITY 32000
#define OP_MAX_PLY 256     /* the recursion's bound (Fries Spel kings may go round for ever) */
#define OP_MAX_DEPTH 64    /* the deepest iteration; deeper ones only repeat known ends */
#define OP_TT_BITS 20      /* 2^20 entries of 16 bytes: 16 MB, allocated once */

/* ------------------------------------------------------------------ evaluation
 * From the side to move, in its frame (it moves towards squares 1-5, row 0).  Each term is
 * computed for one side by op_side, and for the other side by the same function on the
 * mirrored board, so the evaluation is symmetric: a position and its mirror image with the
 * other side to move get opposite scores, apart from the bonus for having the move. */
#define OP_MAN 100
#define OP_KING_INTERNATIONAL 300 /* the usual rating of a king: about three men */
/* Fries Spel kings also move and capture along rows and columns (art. 7), so they reach and
 * threaten more squares: rated higher.  Chosen on the agreement with settled Fries Spel
 * questions (benchmarks/opinion.py --variant frisian, which compiles the search with other
 * values through -DOP_KING_FRISIAN=...); the International value is never overridden. */
#ifndef OP_KING_FRISIAN
#define OP_KING_FRISIAN 400
#endif
/* men that advance gain tempo and come closer to a king; the last rows before the crown are
 * worth most, as a man there ties the opponent down.  Indexed by the rows still to go. */
static const int OP_ADVANCE[10] = {0, 36, 22, 14, 10, 8, 6, 4, 2, 0};
#define OP_CENTRE 5      /* a man on 22-24 or 27-29 controls the middle and keeps the other side apart */
#define OP_BACK_RANK 6   /* a man still on its first row guards the squares where the other crowns */
#define OP_TO_MOVE 4     /* the side to move has the initiative (a small bonus: tempo) */
#define OP_RUNAWAY_ROW 8 /* a runaway man's bonus falls by this for every row it still has to go */

static bb OP_CENTRE_MASK, OP_BACK_MASK;
static bb OP_CONE[64];     /* the squares a man there must find free of the other side's pieces */
static bb OP_PATH[64];     /* the squares it must find free of its own pieces */
static int OP_ROWS_TO_GO[64];
static int OP_KING_VALUE, OP_GEOMETRY = -1;

/* the masks of the evaluation for the rules init_geometry set */
static void op_init_geometry(void) {
    if (OP_GEOMETRY == FRISIAN) return;
    OP_GEOMETRY = FRISIAN;
    OP_KING_VALUE = FRISIAN ? OP_KING_FRISIAN : OP_KING_INTERNATIONAL;
    static const int centre[6] = {22, 23, 24, 27, 28, 29};
    OP_CENTRE_MASK = OP_BACK_MASK = 0;
    for (int i = 0; i < 6; i++) OP_CENTRE_MASK |= (bb)1 << bit_of(centre[i]);
    for (int s = 46; s <= 50; s++) OP_BACK_MASK |= (bb)1 << bit_of(s);
    memset(OP_CONE, 0, sizeof OP_CONE);
    memset(OP_PATH, 0, sizeof OP_PATH);
    for (int s = 1; s <= 50; s++) {
        int b = bit_of(s), row = (s - 1) / 5, column = 2 * ((s - 1) % 5) + (row % 2 == 0);
        OP_ROWS_TO_GO[b] = row;
        for (int t = 1; t <= 50; t++) {
            int r = (t - 1) / 5, c = 2 * ((t - 1) % 5) + (r % 2 == 0), dc = abs(c - column);
            if (r > row || t == s) continue;
            /* A runaway man: the squares it may still pass through are the rows above it within
             * the diagonals from its square (the path); an enemy piece two columns beyond that
             * cone could still take it from the side (or, in Fries Spel, along a row or a column)
             * as it passes, so the cone must be free of them two columns wider.  A man outside
             * that wider cone moves away from it, never into it: such a man can never stop it. */
            if (dc <= row - r + 2) OP_CONE[b] |= (bb)1 << bit_of(t);
            if (dc <= row - r) OP_PATH[b] |= (bb)1 << bit_of(t);
        }
    }
}

/* one side's share: ``men``, ``kings`` move towards row 0 against ``their_men``, ``their_kings`` */
static int op_side(bb men, bb kings, bb their_men, bb their_kings) {
    int v = OP_MAN * __builtin_popcountll(men) + OP_KING_VALUE * __builtin_popcountll(kings);
    v += OP_CENTRE * __builtin_popcountll(men & OP_CENTRE_MASK);
    v += OP_BACK_RANK * __builtin_popcountll(men & OP_BACK_MASK);
    bb all = men | kings;
    for (bb x = men; x; x &= x - 1) {
        int b = __builtin_ctzll(x);
        v += OP_ADVANCE[OP_ROWS_TO_GO[b]];
        /* a man with a free way to the crown that nothing of the other side can reach in time
         * (it has no king, which could catch it anywhere) is nearly a king already */
        if (!their_kings && !(OP_CONE[b] & their_men) && !(OP_PATH[b] & all))
            v += (OP_KING_VALUE - OP_MAN) * 3 / 4 - OP_RUNAWAY_ROW * (OP_ROWS_TO_GO[b] - 1);
    }
    return v;
}

static int op_evaluate(const node *n) {
    return op_side(n->om, n->ok, n->pm, n->pk) -
           op_side(mirror(n->pm), mirror(n->pk), mirror(n->om), mirror(n->ok)) + OP_TO_MOVE;
}

/* prover.c first_estimate's balance: the evaluation without the bonus for having the move, so
 * that a position and its mirror image with the other side to move get opposite values */
static int op_balance(const node *n) {
    op_init_geometry();
    return op_evaluate(n) - OP_TO_MOVE;
}

/* ------------------------------------------------------------------ what the search knows
 * The ends prover.c's evaluate() knows, for either side: no legal move loses; a count rule
 * draws; where the table without count rules covers the node, its winner wins only where the
 * table with count rules gives that side a win that fits the clocks (counted_win), a kept win
 * that fits fresh counts but not these clocks is searched on, and anything else is a draw (the
 * count rules end the game before a win the tables cannot vouch for: the search does not go on
 * looking); a class with the counted table only is known
 * where that table gives a win that fits the clocks.  A win is scored WIN less the plies from
 * the root to the end of the game (the table's distance, as kept, included), so the nearer win
 * is better (a table's distance is kept only as whether it fits: prover.c kept_distance).
 * Returns 1 with *score set (from the side to move) where the node is known. */
static int op_known(const node *n, int count, int ply, int *score) {
    if (!count) {
        *score = -(OP_WIN - ply);
        return 1;
    }
    if (draw_by_count(n)) {
        *score = 0;
        return 1;
    }
    int16_t pure = probe(0, n), counted = kept_distance(probe(1, n), n); /* as the search keeps it */
    int fits = counted != NOT_COVERED && counted >= 0 && counted <= plies_left(n);
    /* a kept distance fits fresh counts; where these clocks have run it may not fit them, and
     * the table cannot tell: search on, as the proof search does */
    if (!fits && counted != NOT_COVERED && counted >= 0) return 0;
    if (pure != NOT_COVERED && (pure < 0 || !fits || (counted & 1) != (pure & 1))) {
        *score = 0;
        return 1;
    }
    if (!fits) return 0;
    /* odd: the side to move wins in ``counted`` plies, even: it loses in as many */
    *score = counted & 1 ? OP_WIN - ply - counted : -(OP_WIN - ply - counted);
    return 1;
}

/* ------------------------------------------------------------------ the search's own state */
typedef struct {
    uint64_t sig;   /* prover.c key_sig of the node (its clocks included); 0: empty */
    int16_t score;  /* a known end's score counted from the node, not the root */
    int8_t depth;
    uint8_t bound;  /* OP_EXACT, OP_LOWER (score >= it) or OP_UPPER (score <= it) */
    uint16_t best;  /* the best child's place in generate()'s order, OP_NO_MOVE for none */
    uint16_t unused;
} op_entry;

enum { OP_EXACT = 1, OP_LOWER = 2, OP_UPPER = 3 };
#define OP_NO_MOVE 0xffff
#define OP_MOVE_IDS 4096 /* a move's id: its origin and destination bits, 64 * 64 */

static op_entry *OP_TT;
static uint64_t OP_NODES, OP_LIMIT;
static int OP_ABORTED;
static int *OP_ORDER;     /* the children's order (places in generate's order), by STACK index */
static int *OP_RANK;      /* what they are ordered by */
static size_t OP_ORDER_SIZE;
static int OP_HISTORY[OP_MOVE_IDS];
static int OP_KILLER[OP_MAX_PLY][2];
static uint16_t OP_PV[OP_MAX_PLY][OP_MAX_PLY]; /* triangular: the line found below each ply */
static int OP_PV_LENGTH[OP_MAX_PLY];
static uint64_t OP_PATH_SIG[OP_MAX_PLY]; /* the nodes of the current line, for repetitions */
static bb OP_PATH_MEN[OP_MAX_PLY];

/* the move from ``n`` to its child ``c`` as origin and destination bits, in n's frame (a king
 * that captures round to its own square has the same origin and destination) */
static int op_move_id(const node *n, const node *c) {
    bb before = n->om | n->ok, after = mirror(c->pm | c->pk);
    bb from = before & ~after, to = after & ~before;
    int origin = from ? __builtin_ctzll(from) : 0;
    return origin * 64 + (to ? __builtin_ctzll(to) : origin);
}

/* Fries Spel: the node repeats one of the current line with the same side to move (going round
 * in circles is a draw for this search).  Only kings' moves without a capture can repeat a
 * node, so the walk back stops at the first node with other men.  International needs no
 * walk: its clocks, part of the key, grow with every king move until a count rule ends it. */
static int op_repeats(const node *n, uint64_t sig, int ply) {
    if (!FRISIAN) return 0;
    bb men = n->om | n->pm;
    for (int p = ply - 2; p >= 0 && OP_PATH_MEN[p] == men; p -= 2)
        if (OP_PATH_SIG[p] == sig) return 1;
    return 0;
}

static int op_to_table(int score, int ply) {
    return score > OP_KNOWN ? score + ply : score < -OP_KNOWN ? score - ply : score;
}
static int op_from_table(int score, int ply) {
    return score > OP_KNOWN ? score - ply : score < -OP_KNOWN ? score + ply : score;
}

/* the negamax value of ``n`` from its side to move, ``depth`` non-forced plies deep */
static int op_search(const node *n, int depth, int alpha, int beta, int ply) {
    OP_PV_LENGTH[ply] = ply;
    if (OP_ABORTED) return 0;
    if (OP_NODES >= OP_LIMIT) { /* the budget is spent: this iteration is given up */
        OP_ABORTED = 1;
        return 0;
    }
    OP_NODES++;
#ifdef PROVER_WASM
    if ((OP_NODES & 65535) == 0) rb_progress((double)OP_NODES);
#endif
    key k = key_of(n);
    uint64_t sig = key_sig(&k);
    if (ply > 0 && op_repeats(n, sig, ply)) return 0;
    OP_PATH_SIG[ply] = sig;
    OP_PATH_MEN[ply] = n->om | n->pm;
    int pv_node = beta - alpha > 1, alpha_before = alpha;
    op_entry *e = &OP_TT[key_hash(&k) & (((uint64_t)1 << OP_TT_BITS) - 1)];
    int table_move = -1;
    if (e->sig == sig) {
        table_move = e->best == OP_NO_MOVE ? -1 : e->best;
        int s = op_from_table(e->score, ply);
        /* no cut in a PV node, so that the line found is whole */
        if (!pv_node && e->depth >= depth &&
            (e->bound == OP_EXACT || (e->bound == OP_LOWER && s >= beta) ||
             (e->bound == OP_UPPER && s <= alpha)))
            return s;
    }
    size_t first = STACK_TOP;
    int count = generate(n), known;
    if (op_known(n, count, ply, &known)) {
        STACK_TOP = first;
        return known;
    }
    int capture = __builtin_popcountll(STACK[first].om | STACK[first].ok) <
                  __builtin_popcountll(n->pm | n->pk);
    /* the horizon: stand pat where no capture is forced, search on where one is */
    if ((depth <= 0 && !capture) || ply >= OP_MAX_PLY - 1) {
        STACK_TOP = first;
        return op_evaluate(n);
    }
    /* a forced move (the only one) uses no depth, on the first half of the plies allowed */
    int child_depth = count == 1 && ply < OP_MAX_PLY / 2 ? depth : depth - 1;
    if (child_depth < 0) child_depth = 0;
    if (OP_ORDER_SIZE < STACK_SIZE) {
        OP_ORDER_SIZE = STACK_SIZE;
        OP_ORDER = realloc(OP_ORDER, sizeof(int) * OP_ORDER_SIZE);
        OP_RANK = realloc(OP_RANK, sizeof(int) * OP_ORDER_SIZE);
        if (!OP_ORDER || !OP_RANK) { fprintf(stderr, "prover: out of memory\n"); exit(1); }
    }
    /* the order: the table's move, the killers, then by history (insertion sort, stable, so
     * equal moves keep generate's order) */
    int *order = OP_ORDER + first, *rank = OP_RANK + first;
    for (int i = 0; i < count; i++) {
        int id = op_move_id(n, &STACK[first + i]);
        int r = i == table_move ? 1 << 30
              : id == OP_KILLER[ply][0] ? (1 << 29) + 1
              : id == OP_KILLER[ply][1] ? 1 << 29
              : OP_HISTORY[id];
        int j = i;
        for (; j > 0 && rank[j - 1] < r; j--) {
            rank[j] = rank[j - 1];
            order[j] = order[j - 1];
        }
        rank[j] = r;
        order[j] = i;
    }
    int best = -OP_INFINITY, best_move = -1;
    for (int j = 0; j < count; j++) {
        int i = order[j];
        node child = STACK[first + i]; /* the stack may move while the child is searched */
        int s;
        if (j == 0) s = -op_search(&child, child_depth, -beta, -alpha, ply + 1);
        else {
            s = -op_search(&child, child_depth, -alpha - 1, -alpha, ply + 1);
            if (s > alpha && s < beta && !OP_ABORTED)
                s = -op_search(&child, child_depth, -beta, -alpha, ply + 1);
        }
        if (OP_ABORTED) break;
        if (s > best) {
            best = s;
            best_move = i;
        }
        if (s > alpha) {
            alpha = s;
            OP_PV[ply][ply] = (uint16_t)i;
            for (int p = ply + 1; p < OP_PV_LENGTH[ply + 1]; p++) OP_PV[ply][p] = OP_PV[ply + 1][p];
            OP_PV_LENGTH[ply] = OP_PV_LENGTH[ply + 1] > ply + 1 ? OP_PV_LENGTH[ply + 1] : ply + 1;
        }
        if (s >= beta) {
            int id = op_move_id(n, &child);
            if (id != OP_KILLER[ply][0]) {
                OP_KILLER[ply][1] = OP_KILLER[ply][0];
                OP_KILLER[ply][0] = id;
            }
            OP_HISTORY[id] += (depth + 1) * (depth + 1);
            if (OP_HISTORY[id] > (1 << 28)) /* kept below the killers' ranks */
                for (int h = 0; h < OP_MOVE_IDS; h++) OP_HISTORY[h] /= 2;
            break;
        }
    }
    STACK_TOP = first;
    if (OP_ABORTED) return 0;
    e->sig = sig;
    e->score = (int16_t)op_to_table(best, ply);
    e->depth = (int8_t)(depth < 0 ? 0 : depth > 127 ? 127 : depth);
    e->bound = best <= alpha_before ? OP_UPPER : best >= beta ? OP_LOWER : OP_EXACT;
    e->best = best_move < 0 || best_move >= OP_NO_MOVE ? OP_NO_MOVE : (uint16_t)best_move;
    return best;
}

/* ------------------------------------------------------------------ the request */
/* "opinion NODE_LIMIT WM WK BM BK CLOCKS": iterations one ply deeper each, until a known end
 * is found within the depth searched (no deeper search finds a nearer one), OP_MAX_DEPTH, or
 * the nodes run out; the answer is the last iteration completed.  Answered as
 * "score S" (real White's view), "depth D", "nodes N", one "line WM WK BM BK" per ply of the
 * principal variation (the pieces after each move), "end". */
static void opinion(const node *root, uint64_t node_limit) {
    if (!OP_TT) {
        OP_TT = calloc((size_t)1 << OP_TT_BITS, sizeof(op_entry));
        if (!OP_TT) { fprintf(stderr, "prover: out of memory\n"); exit(1); }
    } else memset(OP_TT, 0, sizeof(op_entry) << OP_TT_BITS);
    op_init_geometry();
    memset(OP_HISTORY, 0, sizeof OP_HISTORY);
    for (int p = 0; p < OP_MAX_PLY; p++) OP_KILLER[p][0] = OP_KILLER[p][1] = -1;
    size_t top = STACK_TOP;
    int overflow = OVERFLOW_SEEN;
    OP_NODES = 0;
    OP_LIMIT = node_limit;
    OP_ABORTED = 0;
    /* before any iteration completes: what the root itself says */
    size_t first = STACK_TOP;
    int count = generate(root), score, depth = 0, length = 0;
    if (!op_known(root, count, 0, &score)) score = op_evaluate(root);
    STACK_TOP = first;
    static uint16_t line[OP_MAX_PLY];
    for (int d = 1; d <= OP_MAX_DEPTH; d++) {
        int s = op_search(root, d, -OP_INFINITY, OP_INFINITY, 0);
        if (OP_ABORTED) break;
        score = s;
        depth = d;
        length = OP_PV_LENGTH[0];
        memcpy(line, OP_PV[0], sizeof(uint16_t) * (size_t)length);
        if ((s > OP_KNOWN || s < -OP_KNOWN) && OP_WIN - abs(s) <= d) break;
    }
    printf("score %d\ndepth %d\nnodes %llu\n", root->white ? score : -score, depth,
           (unsigned long long)OP_NODES);
    node n = *root;
    for (int p = 0; p < length; p++) { /* the line replayed: each move by its place in generate */
        first = STACK_TOP;
        count = generate(&n);
        if (line[p] >= count) break;
        n = STACK[first + line[p]];
        STACK_TOP = first;
        printf("line");
        print_position(&n);
        printf("\n");
    }
    printf("end\n");
    fflush(stdout);
    STACK_TOP = top;
    OVERFLOW_SEEN = overflow;
}

/* the request's fields (the first "opinion"); an error answer when they are not one */
static void opinion_request(char **field, int count) {
    node root;
    char *end = NULL;
    unsigned long long limit = 0;
    if (count == 7 && field[1][0] >= '0' && field[1][0] <= '9') {
        errno = 0;
        limit = strtoull(field[1], &end, 10);
    }
    if (count != 7 || !end || *end || errno || !parse_node(field + 2, &root)) {
        printf("error expected: opinion NODE_LIMIT WM WK BM BK CLOCKS\nend\n");
        fflush(stdout);
        return;
    }
    opinion(&root, limit);
}

#endif
