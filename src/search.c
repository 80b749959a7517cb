/* search.c — iterative deepening, NegaScout / alpha-beta / MTD(f), and
 * quiescence search (see search.h). */
#include "search.h"

#include <assert.h>
#include <math.h>
#include <string.h>

#include "movegen.h"
#include "movepick.h"
#include "score.h"
#include "search_params.h"
#include "see.h"
#include "syzygy/syzygy.h"
#include "timer.h"
#include "tt.h"

SearchOptions search_options;

void search_options_default(SearchOptions *o)
{
    *o = (SearchOptions){
        .algorithm = ALGO_PVS,
        .null_move = true, .check_extension = false, .singular_extension = true, .lmr = true,
        .futility = true, .reverse_futility = true, .late_move_pruning = true, .see_pruning = true,
        .mate_distance_pruning = true, .aspiration = true, .iir = true, .qsearch_see = true,
        .tt_values = true, .history_pruning = true, .correction_history = true, .selective_deepening = true, .few_moves = 3, .few_budget = 4, .single_budget = 10,
        .report_bounds_after_ms = 2000,
    };
}

/* Everything that makes the searched tree depend on the window or on
 * guesses goes; what stays (extensions, selective deepening, quiescence
 * that skips losing captures) shapes the tree the same way for every
 * algorithm, so all of them must find the same value. */
void search_options_no_pruning(SearchOptions *o)
{
    search_options_default(o);
    o->null_move = o->singular_extension = o->lmr = o->futility = o->reverse_futility = false;
    o->late_move_pruning = o->see_pruning = o->aspiration = o->iir = o->history_pruning = false;
    o->mate_distance_pruning = false;
    o->correction_history = false; /* learnt from earlier nodes, so order-dependent */
    o->tt_values = false; /* stored scores and evaluations (which may come from a
                             key collision) would make the value order-dependent */
}

/* The margins, depths and reductions are in search_params.h (tunable).
 * Null move, for one: depth - (3 + depth / 4 + min(3, (eval - beta) / 200)). */

/* A tablebase verdict is stored as if searched this much deeper. */
enum { TB_DEPTH_BONUS = 6 };

/* How many tried moves of a node are remembered, to be punished when
 * another move refutes the node. */
enum { MAX_QUIETS_TRIED = 64, MAX_CAPTURES_TRIED = 32 };

/* The clock is read once every this many nodes (a power of two, minus one
 * as a mask): often enough for a hard limit of a few ms. */
enum { CLOCK_CHECK_MASK = 1023 };

/* Depths stored with entries that hold no search of their own: a
 * quiescence result, and a bare static evaluation (below any real depth,
 * so that every real result replaces it). */
enum { TT_DEPTH_QSEARCH = -1, TT_DEPTH_EVAL_ONLY = -2 };

/* Late move pruning: at depth d a quiet move is skipped once this many
 * moves were tried, (LMP_BASE + d²) / 2, twice as many when improving. */
enum { LMP_BASE = 3 };

/* The main search stops this many plies short of the stack's end, since a
 * quiescence search and its checks go on beyond it. */
enum { MAIN_SEARCH_PLY_MARGIN = 4 };

/* A PV rebuilt from the table's moves after a search was cut short is at
 * most this long (the table can hold cycles). */
enum { MAX_TT_PV = 32 };

/* Helper threads skip one depth in this many, each a different one, so
 * that they search different trees (lazy SMP). */
enum { HELPER_DEPTH_SKIP_CYCLE = 3 };

static int lmr_table[MAX_PLY][MAX_MOVES];

void search_init(void)
{
    for (int d = 1; d < MAX_PLY; d++)
        for (int m = 1; m < MAX_MOVES; m++)
            lmr_table[d][m] = (int)(LMR_BASE_X100 / 100.0 + log(d) * log(m) / (LMR_DIVISOR_X100 / 100.0));
}

void search_clear_thread(Thread *t)
{
    memset(&t->history, 0, sizeof t->history);
    evaluator_clear(&t->eval);
}

uint64_t search_total_nodes(const SearchShared *shared)
{
    uint64_t total = shared->tb_root_hits;
    for (int i = 0; i < shared->thread_count; i++)
        total += atomic_load_explicit(&shared->threads[i]->nodes, memory_order_relaxed);
    return total;
}

uint64_t search_total_tbhits(const SearchShared *shared)
{
    uint64_t total = shared->tb_root_hits;
    for (int i = 0; i < shared->thread_count; i++)
        total += atomic_load_explicit(&shared->threads[i]->tbhits, memory_order_relaxed);
    return total;
}

/* ---- limits -------------------------------------------------------------- */

/* `go nodes N` counts the nodes of all threads. One thread compares its own
 * count at every node; with more, each thread adds them all up every
 * NODE_LIMIT_INTERVAL of its nodes, so that a helper stops the search by
 * itself when the main thread gets little CPU (under valgrind, or on a
 * loaded machine) instead of running on unchecked. */
enum { NODE_LIMIT_INTERVAL = 64 };

static bool node_limit_reached(const SearchShared *s, uint64_t own_nodes)
{
    if (!s->limits.nodes)
        return false;
    if (s->thread_count == 1)
        return own_nodes >= s->limits.nodes;
    return own_nodes % NODE_LIMIT_INTERVAL == 0 && search_total_nodes(s) >= s->limits.nodes;
}

/* `soft_nodes` ends the deepening between iterations, so that the move
 * played comes from a whole iteration (datagen's searches: a hard limit
 * would cut the last one short, wherever the count fell). */
static bool soft_node_limit_reached(const SearchShared *s)
{
    return s->limits.soft_nodes && !atomic_load(&s->pondering) && search_total_nodes(s) >= s->limits.soft_nodes;
}

/* Every thread watches the stop flag and the node limit; the main thread
 * also watches the clock. Inline: asked at every node. */
static inline __attribute__((always_inline)) bool time_is_up(Thread *t)
{
    SearchShared *s = t->shared;
    if (atomic_load_explicit(&s->stop, memory_order_relaxed))
        return true;
    uint64_t nodes = atomic_load_explicit(&t->nodes, memory_order_relaxed);
    if (node_limit_reached(s, nodes)) {
        atomic_store(&s->stop, true);
        return true;
    }
    if (t->id != 0)
        return false;
    if ((nodes & CLOCK_CHECK_MASK) == 0 && !atomic_load(&s->pondering) && t->completed_depth >= 1
        && s->budget.hard >= 0 && time_now_ms() - atomic_load(&s->clock_start) >= s->budget.hard) {
        atomic_store(&s->stop, true);
        return true;
    }
    return false;
}

/* ---- helpers ------------------------------------------------------------- */

/* Inline: asked at every node. */
static inline __attribute__((always_inline)) bool is_draw(const Thread *t, int ply)
{
    const Board *b = &t->board;
    if (board_is_repetition_draw(b, ply) || board_insufficient_material(b))
        return true;
    if (board_is_fifty_move_draw(b)) {
        /* Mate on the hundredth ply still wins. */
        Move moves[MAX_MOVES];
        return !board_in_check(b) || generate_moves(b, GEN_ALL, moves) > 0;
    }
    return false;
}

/* ---- making moves ---------------------------------------------------------
 * Every move the search makes goes through play_move() and comes back
 * through undo_move() (the null move through its own pair), so that the
 * evaluation's hooks see every change of the board. */

static void count_node(Thread *t)
{
    /* Only this thread writes its counter: a relaxed load and store (no
     * locked add) keep it cheap while others may read it. */
    atomic_store_explicit(&t->nodes, atomic_load_explicit(&t->nodes, memory_order_relaxed) + 1, memory_order_relaxed);
}

static void play_move(Thread *t, SearchStack *ss, Move m)
{
    ss->move = m;
    ss->moved_piece = board_piece_on(&t->board, move_from(m));
    ss->continuation = &t->history.continuation[ss->moved_piece][move_to(m)];
    tt_prefetch(board_key_after(&t->board, m));
    evaluator_push(&t->eval, &t->board, m);
    board_make_move(&t->board, m);
    /* The accumulator is updated here, before the child probes the table,
     * rather than when it evaluates: the update's arithmetic then runs
     * while the prefetched bucket is still on its way from memory (+6 to
     * +8 % nodes a second, docs/results/speed.md), though a child cut off
     * by the table never needed it. */
    evaluator_update(&t->eval, &t->board);
    count_node(t);
}

static void undo_move(Thread *t)
{
    board_unmake_move(&t->board);
    evaluator_pop(&t->eval);
    assert(t->eval.depth >= 0);
}

static void play_null_move(Thread *t, SearchStack *ss)
{
    ss->move = MOVE_NULL;
    ss->moved_piece = NO_PIECE;
    evaluator_push_null(&t->eval);
    board_make_null(&t->board);
}

static void undo_null_move(Thread *t)
{
    board_unmake_null(&t->board);
    evaluator_pop(&t->eval);
}

/* The static evaluation of the thread's board, through the evaluator. */
static int static_evaluation(Thread *t) { return evaluator_evaluate(&t->eval, &t->board); }

/* The raw evaluation as the search uses it: moved by the correction
 * history, and kept clear of tablebase and mate scores. */
static int corrected_evaluation(const Thread *t, int raw_eval)
{
    if (!search_options.correction_history)
        return raw_eval;
    const Board *b = &t->board;
    int eval = correct_eval(&t->history, b->side, board_pawn_key(b), raw_eval);
    return eval >= SCORE_TB_WIN ? SCORE_TB_WIN - 1 : eval <= -SCORE_TB_WIN ? -SCORE_TB_WIN + 1 : eval;
}

/* After a node's search: when its result is not a mate or a tablebase
 * verdict, was not decided by a capture, and says more than its bound,
 * teach the correction history the static evaluation's error. */
static void learn_eval_error(Thread *t, const SearchStack *ss, int raw_eval, Move best_move, int best, int bound, int depth)
{
    Board *b = &t->board;
    if (!search_options.correction_history || raw_eval == SCORE_NONE || best <= -SCORE_KNOWN_WIN || best >= SCORE_KNOWN_WIN
        || (best_move != MOVE_NONE && move_is_noisy(b, best_move)) || (bound == BOUND_LOWER && best <= ss->static_eval)
        || (bound == BOUND_UPPER && best >= ss->static_eval))
        return;
    update_correction(&t->history, b->side, board_pawn_key(b), depth, best - raw_eval);
}

static void update_pv(Thread *t, int ply, Move m)
{
    t->pv[ply][ply] = m;
    for (int i = ply + 1; i < t->pv_length[ply + 1]; i++)
        t->pv[ply][i] = t->pv[ply + 1][i];
    t->pv_length[ply] = t->pv_length[ply + 1];
}

static const PieceToHistory *continuation_at(const SearchStack *ss, int back)
{
    const SearchStack *prev = ss - back;
    return prev->move != MOVE_NONE && prev->move != MOVE_NULL ? prev->continuation : NULL;
}

/* How many plies back lies the move of each continuation table (history.h). */
static const int CONTINUATION_PLIES_BACK[CONTINUATION_ORDERING] = { 1, 2, 4 };
_Static_assert(STACK_OFFSET >= 4, "the stack reaches back before the root as far as the farthest continuation");

static void continuations_at(const SearchStack *ss, const PieceToHistory *continuation[CONTINUATION_ORDERING])
{
    for (int k = 0; k < CONTINUATION_ORDERING; k++)
        continuation[k] = continuation_at(ss, CONTINUATION_PLIES_BACK[k]);
}

/* A quiet move caused a cut-off: make it a killer and the counter move,
 * reward it and punish the quiet moves tried before it. */
static void update_quiet_history(Thread *t, SearchStack *ss, Move best, int depth, const Move *quiets, int quiet_count)
{
    History *h = &t->history;
    Board *b = &t->board;
    int bonus = history_bonus(depth);
    if (ss->killers[0] != best) {
        ss->killers[1] = ss->killers[0];
        ss->killers[0] = best;
    }
    const SearchStack *prev = ss - 1;
    if (prev->move != MOVE_NONE && prev->move != MOVE_NULL)
        h->counter[prev->moved_piece][move_to(prev->move)] = best;

    const PieceToHistory *continuation[CONTINUATION_ORDERING]; /* the tables are the thread's own, so writable */
    continuations_at(ss, continuation);
    for (int i = 0; i < quiet_count; i++) {
        Move m = quiets[i];
        int delta = m == best ? bonus : -bonus;
        Piece p = board_piece_on(b, move_from(m));
        history_apply(&h->butterfly[b->side][move_from(m)][move_to(m)], delta);
        for (int k = 0; k < CONTINUATION_ORDERING; k++)
            if (continuation[k])
                history_apply(&(*(PieceToHistory *)continuation[k])[p][move_to(m)], delta);
    }
}

static void update_capture_history(Thread *t, Move best, int depth, const Move *captures, int count)
{
    Board *b = &t->board;
    int bonus = history_bonus(depth);
    for (int i = 0; i < count; i++) {
        Move m = captures[i];
        Piece p = board_piece_on(b, move_from(m));
        Piece victim = board_piece_on(b, move_to(m));
        PieceType vt = victim == NO_PIECE ? PAWN : piece_type(victim);
        history_apply(&t->history.capture[p][move_to(m)][vt], m == best ? bonus : -bonus);
    }
}

/* Does a stored bound settle this node's value for the window? */
static bool bound_allows_cutoff(const TTProbe *tt, int alpha, int beta)
{
    return ((tt->bound & BOUND_LOWER) && tt->score >= beta) || ((tt->bound & BOUND_UPPER) && tt->score <= alpha);
}

/* A stored evaluation saves recomputing it, but a 16-bit key match may be
 * another position's: only where stored values are trusted at all. */
static bool use_tt_eval(const TTProbe *tt)
{
    return tt->hit && tt->eval != SCORE_NONE && search_options.tt_values;
}

/* Does a stored bound say the true value lies beyond the static eval? */
static bool bound_improves(const TTProbe *tt, int eval)
{
    return ((tt->bound & BOUND_LOWER) && tt->score > eval) || ((tt->bound & BOUND_UPPER) && tt->score < eval);
}

/* ---- quiescence ---------------------------------------------------------- */

static int qsearch(Thread *t, SearchStack *ss, int alpha, int beta, int ply)
{
    Board *b = &t->board;
    bool pv_node = beta - alpha > 1;
    t->stats.qnodes++;
    if (ply > t->seldepth)
        t->seldepth = ply;
    if (time_is_up(t))
        return 0;
    if (is_draw(t, ply))
        return SCORE_DRAW;
    bool in_check = board_in_check(b);
    if (ply >= MAX_PLY - 1)
        return in_check ? SCORE_DRAW : static_evaluation(t);

    TTProbe tt;
    tt_probe(board_key(b), ply, &tt);
    if (!pv_node && tt.hit && search_options.tt_values && bound_allows_cutoff(&tt, alpha, beta))
        return tt.score;

    int best, raw_eval = SCORE_NONE, static_eval = SCORE_NONE;
    if (in_check)
        best = mated_in(ply);
    else {
        raw_eval = use_tt_eval(&tt) ? tt.eval : static_evaluation(t);
        best = static_eval = corrected_evaluation(t, raw_eval);
        /* A bound from the table can sharpen the stand-pat score. */
        if (tt.hit && search_options.tt_values && bound_improves(&tt, best))
            best = tt.score;
        if (best >= beta) {
            if (!tt.hit)
                tt_store(board_key(b), ply, MOVE_NONE, best, raw_eval, TT_DEPTH_QSEARCH, BOUND_LOWER);
            return best;
        }
        if (best > alpha)
            alpha = best;
    }

    int old_alpha = alpha;
    Move best_move = MOVE_NONE;
    MovePicker mp;
    movepick_init_qsearch(&mp, b, &t->history, tt.move);
    Move m;
    while ((m = movepick_next(&mp)) != MOVE_NONE) {
        /* Delta pruning is asked first: it is cheaper than the SEE, and
         * either test alone skips the move. */
        if (!in_check && best > -MATE_IN_MAX) {
            if (search_options.futility && move_kind(m) != MOVE_PROMOTION) {
                Piece victim = board_piece_on(b, move_to(m));
                int gain = victim == NO_PIECE ? SEE_VALUES[PAWN] : SEE_VALUES[piece_type(victim)];
                if (static_eval + gain + QS_DELTA_MARGIN <= alpha)
                    continue; /* delta pruning: even winning the piece stays below alpha */
            }
            if (search_options.qsearch_see && !see_ge(b, m, 0))
                continue; /* a losing capture cannot raise the stand-pat score */
        }
        assert(move_is_legal(b, m));
        play_move(t, ss, m);
        int score = -qsearch(t, ss + 1, -beta, -alpha, ply + 1);
        undo_move(t);
        if (atomic_load_explicit(&t->shared->stop, memory_order_relaxed))
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                alpha = score;
                if (score >= beta)
                    break;
            }
        }
    }
    int bound = best >= beta ? BOUND_LOWER : best > old_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(board_key(b), ply, best_move, best, raw_eval, TT_DEPTH_QSEARCH, bound);
    return best;
}

/* ---- tablebases ------------------------------------------------------------ */

/* Is this node one to probe the tables at: few enough pieces, just after
 * a capture or pawn move (the WDL tables know nothing of the fifty-move
 * count), no castling rights, and deep enough (or fewer pieces than the
 * limit, where a probe is cheap)? */
static bool tb_probe_wanted(const Thread *t, int depth)
{
    const SearchShared *s = t->shared;
    const Board *b = &t->board;
    int pieces = popcount(board_occupied(b));
    return s->tb_probe_limit > 0 && pieces <= s->tb_probe_limit && board_state(b)->rule50 == 0
        && (depth >= s->tb_probe_depth || pieces < s->tb_probe_limit) && syzygy_covers(b);
}

/* The tables' verdict as a score and bound: a win is at least a tablebase
 * win (a mate may be better), a loss at most a tablebase loss; a win or
 * loss the fifty-move rule spoils is a draw, nudged by one so that the
 * search still prefers the better side of it. */
static int tb_score(const Thread *t, Wdl wdl, int ply, int *bound)
{
    bool fifty = t->shared->tb_fifty_move_rule;
    if (wdl == WDL_WIN || (!fifty && wdl == WDL_CURSED_WIN)) {
        *bound = BOUND_LOWER;
        return SCORE_TB_WIN - ply;
    }
    if (wdl == WDL_LOSS || (!fifty && wdl == WDL_BLESSED_LOSS)) {
        *bound = BOUND_UPPER;
        return -SCORE_TB_WIN + ply;
    }
    *bound = BOUND_EXACT;
    return wdl == WDL_CURSED_WIN ? SCORE_DRAW + 1 : wdl == WDL_BLESSED_LOSS ? SCORE_DRAW - 1 : SCORE_DRAW;
}

/* Step 3b of a node: the tables' verdict settles the node when its bound
 * meets the window (stored, and returned); in a PV node a win raises the
 * floor, a loss lowers the ceiling, and the search goes on to find the
 * actual line. SCORE_NONE when the search goes on. */
static int tablebase_verdict(Thread *t, int depth, int ply, bool pv_node, int *alpha, int beta, int *floor,
                             int *ceiling)
{
    const Board *b = &t->board;
    Wdl wdl;
    if (!tb_probe_wanted(t, depth) || !syzygy_probe_wdl(b, &wdl))
        return SCORE_NONE;
    atomic_store_explicit(&t->tbhits, atomic_load_explicit(&t->tbhits, memory_order_relaxed) + 1, memory_order_relaxed);
    int bound, score = tb_score(t, wdl, ply, &bound);
    if (bound == BOUND_EXACT || (bound == BOUND_LOWER ? score >= beta : score <= *alpha)) {
        int stored_depth = depth + TB_DEPTH_BONUS < MAX_PLY - 1 ? depth + TB_DEPTH_BONUS : MAX_PLY - 1;
        tt_store(board_key(b), ply, MOVE_NONE, score, SCORE_NONE, stored_depth, bound);
        return score;
    }
    if (pv_node && bound == BOUND_LOWER) {
        *floor = score;
        *alpha = *alpha > score ? *alpha : score;
    } else if (pv_node && bound == BOUND_UPPER)
        *ceiling = score;
    return SCORE_NONE;
}

/* ---- the main search ----------------------------------------------------- */

static int search(Thread *t, SearchStack *ss, int alpha, int beta, int depth, int ply, bool cut_node);

/* Seed selective deepening: how much depth this node's move costs. */
static int selective_extension(SearchStack *ss, int legal_moves)
{
    const SearchOptions *o = &search_options;
    if (legal_moves == 1 && ss->single_budget > 0) {
        ss->single_budget--;
        return 1;
    }
    if (legal_moves <= o->few_moves && ss->few_budget > 0) {
        ss->few_budget--;
        return 1;
    }
    return 0;
}

/* A root move is searched if it is one of the root moves (all legal ones,
 * or the GUI's searchmoves) and no earlier multi-PV line starts with it. */
static bool root_move_allowed(const Thread *t, Move m)
{
    const SearchShared *s = t->shared;
    for (int i = 0; i < t->pv_index; i++)
        if (t->lines[i].pv[0] == m)
            return false;
    for (int i = 0; i < s->root_move_count; i++)
        if (s->root_moves[i] == m)
            return true;
    return false;
}

/* Singular extension: is the hash move much better than every other?
 * Searched at reduced depth with the hash move excluded. Returns the
 * extension for the hash move, or -1 to signal a multi-cut (even without
 * the hash move the node fails high: *cut_score holds the value). */
static int singular_test(Thread *t, SearchStack *ss, const TTProbe *tt, int beta, int depth, int ply, bool cut_node, int *cut_score)
{
    int singular_beta = tt->score - SINGULAR_MARGIN_PER_DEPTH * depth;
    ss->excluded = tt->move;
    int score = search(t, ss, singular_beta - 1, singular_beta, (depth - 1) / 2, ply, cut_node);
    ss->excluded = MOVE_NONE;
    if (score < singular_beta)
        return 1;
    if (singular_beta >= beta) {
        *cut_score = singular_beta;
        return -1;
    }
    return 0;
}

/* How a quiet move has done after the previous two moves of the line: the
 * history the pruning and reduction thresholds read. */
static int continuation_score(const Board *b, Move m, const PieceToHistory *const continuation[CONTINUATION_ORDERING])
{
    Piece p = board_piece_on(b, move_from(m));
    int score = 0;
    for (int k = 0; k < CONTINUATION_PRUNING; k++)
        if (continuation[k])
            score += (*continuation[k])[p][move_to(m)];
    return score;
}

/* What the pruning and reduction decisions of a node read about it. */
typedef struct {
    int depth, ply;
    bool pv_node, cut_node, root, in_check, improving;
    int eval;                               /* static eval, sharpened by the table */
    Move counter;                           /* the counter move to the previous move */
    const PieceToHistory *continuation[CONTINUATION_ORDERING]; /* history.h */
} NodeInfo;

/* ... and about the move in hand. */
typedef struct {
    Move move;
    bool noisy;           /* a capture or promotion */
    int move_count;       /* 1 for the first move searched */
    int continuation;     /* continuation history of a quiet move (0 for noisy ones) */
} MoveInfo;

/* The late move reduction of the table for a move: grows with the depth
 * and with how late the move comes. Shared by pruning (which judges a move
 * at the depth it would be searched to) and by the reduction itself. */
static int base_reduction(int depth, int move_count)
{
    return lmr_table[depth < MAX_PLY ? depth : MAX_PLY - 1][move_count < MAX_MOVES ? move_count : MAX_MOVES - 1];
}

/* History pruning: near the leaves, a quiet move that has kept failing
 * after these previous moves is not tried (nor is the first move or the
 * hash move). */
static bool history_prunes(const NodeInfo *node, const MoveInfo *mi, bool is_tt_move)
{
    return search_options.history_pruning && !mi->noisy && !node->in_check && node->depth <= HISTORY_PRUNING_MAX_DEPTH
        && mi->move_count > 1 && !is_tt_move && mi->continuation < -HISTORY_PRUNING_MARGIN * node->depth;
}

/* Late-move pruning: a quiet move this late in the count is not searched.
 * Asked before the history, which it does not need: once it prunes, it
 * prunes every quiet move after. */
static inline bool late_move_prunes(const NodeInfo *node, const MoveInfo *mi)
{
    int depth = node->depth;
    /* move_count > (LMP_BASE + d²) / (2 - improving), multiplied out: a
     * division here cost 2 % of the search's time. */
    return !mi->noisy && search_options.late_move_pruning && depth <= LMP_MAX_DEPTH
        && mi->move_count * (2 - node->improving) > LMP_BASE + depth * depth;
}

/* The rest of the forward pruning of one move at shallow depth, once
 * late-move pruning has declined: quiet moves that cannot lift a hopeless
 * eval to alpha (futility), and moves that lose material (SEE). The caller
 * spares moves that give check: a late quiet mate must still be found.
 * *futile says that futility pruned the move: like late-move pruning, it
 * then prunes every quiet move after it (the reduced depth only falls as
 * the count grows, alpha only rises). */
static inline __attribute__((always_inline)) bool futility_or_see_prunes(const Board *b, const NodeInfo *node,
                                                                         const MoveInfo *mi, int alpha, bool *futile)
{
    const SearchOptions *o = &search_options;
    int depth = node->depth;
    int reduction = base_reduction(depth, mi->move_count);
    int lmr_depth = depth - 1 - reduction > 0 ? depth - 1 - reduction : 0;
    if (!mi->noisy && o->futility && !node->in_check && lmr_depth <= FUTILITY_MAX_DEPTH
        && node->eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * lmr_depth <= alpha)
        return *futile = true;
    return o->see_pruning && depth <= SEE_PRUNING_MAX_DEPTH
        && !see_ge(b, mi->move, mi->noisy ? -SEE_NOISY_MARGIN * depth * depth : -SEE_QUIET_MARGIN * lmr_depth);
}

/* How many plies less a late move is searched: the table's reduction, less
 * in PV nodes, for checks, killers, the counter move and moves with a good
 * history; more when the position is not improving and at expected cut
 * nodes. Called after the move is made (b is the position after it). */
static int late_move_reduction(const Thread *t, const SearchStack *ss, const NodeInfo *node, const MoveInfo *mi,
                               bool gives_check)
{
    const Board *b = &t->board;
    Move m = mi->move;
    int r = base_reduction(node->depth, mi->move_count);
    r += !node->improving + node->cut_node - node->pv_node - gives_check;
    if (!mi->noisy) {
        if (m == ss->killers[0] || m == ss->killers[1] || m == node->counter)
            r--;
        int hist = t->history.butterfly[color_flip(b->side)][move_from(m)][move_to(m)];
        r -= (hist + mi->continuation) / LMR_HISTORY_DIVISOR;
    }
    return r > 0 ? r : 0;
}

/* Step 10 of a node for one move: is it pruned at shallow depth (the
 * caller still spares a move that gives check)? Late-move pruning is asked
 * first: it needs no history, and once it prunes, it prunes every quiet
 * move after, so the history is then read only for a move that gives
 * check. Otherwise the move's continuation history is read into mi
 * (*continuation_read) for history pruning. *rest_pruned: late-move or
 * futility pruning took the move, and so takes every quiet move after. */
static inline __attribute__((always_inline)) bool shallow_prunes(const Board *b, const NodeInfo *node, MoveInfo *mi,
                                                                 int alpha, Move tt_move, bool *rest_pruned,
                                                                 bool *continuation_read)
{
    bool non_pawn = board_has_non_pawn_material(b, b->side);
    if (non_pawn && late_move_prunes(node, mi))
        return *rest_pruned = true;
    if (!mi->noisy)
        mi->continuation = continuation_score(b, mi->move, node->continuation);
    *continuation_read = true;
    return history_prunes(node, mi, mi->move == tt_move)
        || (non_pawn && futility_or_see_prunes(b, node, mi, alpha, rest_pruned));
}

/* Searches the move just made, NegaScout's way: the first move of a PV
 * node with the full window; any other with a null window — first at a
 * reduced depth when LMR applies, then at full depth if the reduced search
 * beat alpha — and once more with the full window if it surprised inside a
 * PV node. Plain alpha-beta searches every move with the full window.
 * Inline: its one caller passes it ten values for every move searched. */
static inline __attribute__((always_inline)) int search_move(Thread *t, SearchStack *ss, const NodeInfo *node,
                                                             const MoveInfo *mi, int alpha, int beta, int new_depth,
                                                             bool gives_check)
{
    int ply = node->ply, score = 0;
    if (search_options.algorithm == ALGO_ALPHABETA)
        return -search(t, ss + 1, -beta, -alpha, new_depth, ply + 1, false);

    bool full_window_first = node->pv_node && mi->move_count == 1;
    bool need_full_depth = !full_window_first;
    if (!full_window_first && search_options.lmr && node->depth >= LMR_MIN_DEPTH && mi->move_count > 1 + node->root
        && (!mi->noisy || node->cut_node)) {
        int reduced = new_depth - late_move_reduction(t, ss, node, mi, gives_check);
        reduced = reduced < 1 ? 1 : reduced > new_depth ? new_depth : reduced;
        score = -search(t, ss + 1, -alpha - 1, -alpha, reduced, ply + 1, true);
        need_full_depth = score > alpha && reduced < new_depth;
    }
    if (need_full_depth)
        score = -search(t, ss + 1, -alpha - 1, -alpha, new_depth, ply + 1, !node->cut_node);
    if (full_window_first || (node->pv_node && score > alpha && (node->root || score < beta)))
        score = -search(t, ss + 1, -beta, -alpha, new_depth, ply + 1, false);
    return score;
}

/* Null move: if passing still keeps the side to move above beta, a real
 * move will too. Not in check, not without pieces (zugzwang), not twice in
 * a row. Returns a score to cut with, or SCORE_NONE. */
static int null_move_cut(Thread *t, SearchStack *ss, const NodeInfo *node, int beta)
{
    Board *b = &t->board;
    int depth = node->depth, eval = node->eval;
    if (!search_options.null_move || depth < NMP_MIN_DEPTH || eval < beta || ss[-1].move == MOVE_NULL
        || !board_has_non_pawn_material(b, b->side) || beta <= -MATE_IN_MAX)
        return SCORE_NONE;
    int surplus = (eval - beta) / NMP_EVAL_DIVISOR;
    int reduction = NMP_BASE_REDUCTION + depth / NMP_DEPTH_DIVISOR + (surplus < NMP_MAX_EVAL_BONUS ? surplus : NMP_MAX_EVAL_BONUS);
    play_null_move(t, ss);
    (ss + 1)->few_budget = ss->few_budget;
    (ss + 1)->single_budget = ss->single_budget;
    int score = -search(t, ss + 1, -beta, -beta + 1, depth - reduction, node->ply + 1, !node->cut_node);
    undo_null_move(t);
    if (atomic_load_explicit(&t->shared->stop, memory_order_relaxed))
        return 0;
    if (score >= beta)
        return score >= MATE_IN_MAX ? beta : score; /* an unproven mate is only a cut-off */
    return SCORE_NONE;
}

/* Rewards the best move of a node that failed high and punishes the moves
 * tried before it, quiet and noisy alike. */
static void update_histories(Thread *t, SearchStack *ss, Move best_move, int depth, Move *quiets, int quiet_count,
                             Move *captures, int capture_count)
{
    if (!move_is_noisy(&t->board, best_move)) {
        if (quiet_count < MAX_QUIETS_TRIED)
            quiets[quiet_count++] = best_move;
        update_quiet_history(t, ss, best_move, depth, quiets, quiet_count);
    } else if (capture_count < MAX_CAPTURES_TRIED)
        captures[capture_count++] = best_move;
    update_capture_history(t, best_move, depth, captures, capture_count);
}

/* Step 4 of a node: the static evaluation, the evaluator's own from the
 * table if stored (*raw_eval, which the table keeps), moved by the
 * correction history into ss->static_eval, and returned sharpened by a
 * stored bound. In a singular test the node was evaluated already; in
 * check there is none. */
static inline __attribute__((always_inline)) int node_evaluation(Thread *t, SearchStack *ss, const TTProbe *tt,
                                                                 bool in_check, Move excluded, int ply, int *raw_eval)
{
    if (in_check)
        return ss->static_eval = SCORE_NONE;
    if (excluded)
        return ss->static_eval; /* same node, already evaluated */
    *raw_eval = use_tt_eval(tt) ? tt->eval : static_evaluation(t);
    int eval = ss->static_eval = corrected_evaluation(t, *raw_eval);
    if (!tt->hit)
        tt_store(board_key(&t->board), ply, MOVE_NONE, SCORE_NONE, *raw_eval, TT_DEPTH_EVAL_ONLY, BOUND_NONE);
    if (tt->hit && bound_improves(tt, eval))
        eval = tt->score;
    return eval;
}

static int search(Thread *t, SearchStack *ss, int alpha, int beta, int depth, int ply, bool cut_node)
{
    const SearchOptions *o = &search_options;
    Board *b = &t->board;
    bool root = ply == 0;
    bool pv_node = beta - alpha > 1;
    Move excluded = ss->excluded;

    /* Step 1: at the horizon, quiescence search decides. */
    t->pv_length[ply] = ply;
    if (depth <= 0)
        return qsearch(t, ss, alpha, beta, ply);
    if (ply > t->seldepth)
        t->seldepth = ply;

    /* Step 2: stop, draws, the ply limit, and mate distance pruning (no line
     * from here can beat a mate already found closer to the root). */
    if (!root) {
        if (time_is_up(t))
            return 0;
        if (is_draw(t, ply))
            return SCORE_DRAW;
        if (ply >= MAX_PLY - MAIN_SEARCH_PLY_MARGIN)
            return board_in_check(b) ? SCORE_DRAW : static_evaluation(t);
        if (o->mate_distance_pruning) {
            alpha = alpha > mated_in(ply) ? alpha : mated_in(ply);
            beta = beta < mate_in(ply + 1) ? beta : mate_in(ply + 1);
            if (alpha >= beta)
                return alpha;
        }
    }

    /* Step 3: the transposition table: a hash move, and outside PV nodes a
     * cut-off when a deep enough stored bound settles the window. */
    TTProbe tt = { .hit = false, .move = MOVE_NONE, .depth = -1 };
    if (!excluded)
        tt_probe(board_key(b), ply, &tt);
    if (root && t->lines[t->pv_index].pv_length > 0)
        tt.move = t->lines[t->pv_index].pv[0]; /* the line's move from the last iteration */
    if (!pv_node && !excluded && tt.hit && tt.depth >= depth && o->tt_values && bound_allows_cutoff(&tt, alpha, beta))
        return tt.score;

    /* Step 3b: the tablebases. */
    int tb_floor = -SCORE_INFINITE, tb_ceiling = SCORE_INFINITE;
    if (!root && !excluded) {
        int verdict = tablebase_verdict(t, depth, ply, pv_node, &alpha, beta, &tb_floor, &tb_ceiling);
        if (verdict != SCORE_NONE)
            return verdict;
    }

    /* Step 4: the static evaluation; none in check. */
    bool in_check = board_in_check(b);
    int raw_eval = SCORE_NONE; /* the evaluator's, stored in the table; eval is corrected */
    int eval = node_evaluation(t, ss, &tt, in_check, excluded, ply, &raw_eval);
    NodeInfo node = {
        .depth = depth, .ply = ply, .pv_node = pv_node, .cut_node = cut_node, .root = root, .in_check = in_check,
        .improving = !in_check && ply >= 2 && ss[-2].static_eval != SCORE_NONE && ss->static_eval > ss[-2].static_eval,
        .eval = eval,
    };
    (ss + 1)->killers[0] = (ss + 1)->killers[1] = MOVE_NONE;

    if (!pv_node && !in_check && !excluded && !root) {
        /* Step 5: reverse futility: far above beta with little depth left.
         * Not when beta is a mated score: a good evaluation does not prove
         * that the side to move escapes that mate, and the cut would hide a
         * shorter mate one ply up. */
        if (o->reverse_futility && depth <= RFP_MAX_DEPTH && eval < SCORE_KNOWN_WIN && beta > -MATE_IN_MAX
            && eval - RFP_MARGIN * (depth - node.improving) >= beta)
            return eval;

        /* Step 6: null move pruning. */
        int null_score = null_move_cut(t, ss, &node, beta);
        if (null_score != SCORE_NONE)
            return null_score;
    }

    /* Step 7: internal iterative reduction: without a hash move, ordering
     * is poor, so search a little shallower. */
    if (o->iir && !excluded && depth >= IIR_MIN_DEPTH && tt.move == MOVE_NONE && (pv_node || cut_node))
        node.depth = --depth;

    /* Step 8: selective deepening (nodes with few legal moves
     * cost no depth while the path's budget lasts), or the check extension. */
    int extension = 0;
    if (o->selective_deepening && !excluded && (ss->few_budget > 0 || ss->single_budget > 0)) {
        int legal = legal_move_count_capped(b, ss->few_budget > 0 ? o->few_moves : 1);
        if (legal > 0)
            extension = selective_extension(ss, legal);
    }
    if (!extension && in_check && o->check_extension)
        extension = 1;

    /* Step 9: the moves, in the order the move picker finds best. */
    continuations_at(ss, node.continuation);
    node.counter = ss[-1].move != MOVE_NONE && ss[-1].move != MOVE_NULL
        ? t->history.counter[ss[-1].moved_piece][move_to(ss[-1].move)] : MOVE_NONE;
    MovePicker mp;
    movepick_init(&mp, b, &t->history, tt.move, ss->killers, node.counter, node.continuation);

    int best = -SCORE_INFINITE, old_alpha = alpha, move_count = 0;
    Move best_move = MOVE_NONE, m;
    Move quiets[MAX_QUIETS_TRIED], captures[MAX_CAPTURES_TRIED];
    int quiet_count = 0, capture_count = 0;
    /* Worked out when the first move is up for pruning; zeroed only because
     * gcc's profile-guided build cannot see that it is never read before. */
    CheckInfo check_info = {0};
    bool check_info_ready = false;
    int late_checks = -1; /* quiet moves left that give check once late-move or futility pruning began; -1: not counted */

    while ((m = movepick_next(&mp)) != MOVE_NONE) {
        if (m == excluded || (root && !root_move_allowed(t, m)))
            continue;
        assert(move_is_legal(b, m)); /* the picker checks the hash move, killers and counter move */
        bool noisy = move_is_noisy(b, m);
        MoveInfo mi = { .move = m, .noisy = noisy, .move_count = ++move_count, .continuation = 0 };

        /* Step 10: shallow pruning of this move, unless it gives check.
         * rest_pruned: late-move or futility pruning took this move, and
         * so takes every quiet move after it. */
        bool rest_pruned = false, continuation_read = noisy;
        bool prune = !root && best > -MATE_IN_MAX
                  && shallow_prunes(b, &node, &mi, alpha, tt.move, &rest_pruned, &continuation_read);
        if (prune) {
            if (!check_info_ready) {
                check_info_init(b, &check_info);
                check_info_ready = true;
            }
            if (!move_gives_check_quick(b, &check_info, m)) {
                /* Every quiet move after this one is pruned too unless it
                 * gives check: once none of them does, the picker skips
                 * them all at once. */
                if (rest_pruned && late_checks <= 0 && mp.stage == STAGE_QUIET) {
                    int skipped;
                    late_checks = movepick_skip_quiets(&mp, &check_info, excluded, &skipped);
                    move_count += skipped;
                }
                continue;
            }
            if (!noisy && late_checks > 0)
                late_checks--; /* one of those counted, now searched */
        }
        if (!continuation_read)
            mi.continuation = continuation_score(b, m, node.continuation);

        /* Step 11: singular extension of the hash move, or a multi-cut. */
        int move_extension = extension;
        if (o->singular_extension && !root && m == tt.move && !excluded && depth >= SINGULAR_MIN_DEPTH
            && tt.depth >= depth - SINGULAR_TT_DEPTH_SLACK && tt.bound == BOUND_LOWER && tt.score > -SCORE_KNOWN_WIN && tt.score < SCORE_KNOWN_WIN
            && !move_extension) {
            int cut_score;
            int se = singular_test(t, ss, &tt, beta, depth, ply, cut_node, &cut_score);
            if (se < 0)
                return cut_score;
            move_extension = se;
        }

        /* Step 12: make the move and search it (LMR and PVS re-searches). */
        uint64_t nodes_before = atomic_load_explicit(&t->nodes, memory_order_relaxed);
        play_move(t, ss, m);
        (ss + 1)->few_budget = ss->few_budget;
        (ss + 1)->single_budget = ss->single_budget;
        (ss + 1)->excluded = MOVE_NONE;
        int score = search_move(t, ss, &node, &mi, alpha, beta, depth - 1 + move_extension, board_in_check(b));
        undo_move(t);
        if (root) /* for the time manager: how hard this move was to judge */
            t->root_move_nodes[move_from(m)][move_to(m)] += atomic_load_explicit(&t->nodes, memory_order_relaxed) - nodes_before;

        if (atomic_load_explicit(&t->shared->stop, memory_order_relaxed))
            return 0;

        /* Step 13: a better move: a new PV, and at the root a new best move;
         * at beta the node is refuted and the other moves are not needed. */
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                if (pv_node || root)
                    update_pv(t, ply, m);
                if (root && t->pv_index == 0) {
                    t->best_move = m;
                    t->best_score = score;
                    t->ponder_move = t->pv_length[0] > 1 ? t->pv[0][1] : MOVE_NONE;
                }
                if (score >= beta) {
                    t->stats.cutoffs++;
                    t->stats.first_move_cutoffs += move_count == 1;
                    break;
                }
                alpha = score;
            }
        }
        if (m != best_move) {
            if (!noisy && quiet_count < MAX_QUIETS_TRIED)
                quiets[quiet_count++] = m;
            else if (noisy && capture_count < MAX_CAPTURES_TRIED)
                captures[capture_count++] = m;
        }
    }

    /* Step 14: no move: mate or stalemate (or, in a singular test, no other move). */
    if (move_count == 0)
        return excluded ? alpha : in_check ? mated_in(ply) : SCORE_DRAW;

    /* Step 15: learn from a cut-off, and store the result (within what the
     * tables allow). */
    best = best < tb_floor ? tb_floor : best > tb_ceiling ? tb_ceiling : best;
    if (best >= beta)
        update_histories(t, ss, best_move, depth, quiets, quiet_count, captures, capture_count);
    if (!excluded) {
        int bound = best >= beta ? BOUND_LOWER : (pv_node && best > old_alpha) ? BOUND_EXACT : BOUND_UPPER;
        tt_store(board_key(b), ply, bound == BOUND_UPPER ? tt.move : best_move, best, raw_eval, depth, bound);
        if (!in_check)
            learn_eval_error(t, ss, raw_eval, best_move, best, bound, depth);
    }
    return best;
}

/* ---- iterative deepening --------------------------------------------------- */

/* Reports `line` as multi-PV line `index`. */
static void report_line(Thread *t, const RootLine *line, int index, int depth, int bound)
{
    SearchShared *s = t->shared;
    if (!s->report.on_info)
        return;
    SearchInfo info = {
        .depth = depth, .seldepth = line->seldepth, .multipv = index + 1, .score = line->score,
        .bound = bound, .nodes = search_total_nodes(s), .time_ms = time_now_ms() - s->budget.start,
        .hashfull = tt_hashfull(), .pv_length = line->pv_length, .tbhits = search_total_tbhits(s),
        .optimum_ms = t->optimum_ms,
    };
    /* At a root in the tables the score is the tables' verdict, unless the
     * search has found the mate itself. */
    if (s->tb_root_score != SCORE_NONE && !is_mate_score(line->score))
        info.score = s->tb_root_score;
    memcpy(info.pv, line->pv, sizeof(Move) * (size_t)line->pv_length);
    s->report.on_info(&info, s->report.context);
}

/* The PV and score just found for the current line, into `line`. */
static void fill_line(const Thread *t, RootLine *line, int score)
{
    line->score = score;
    line->seldepth = t->seldepth;
    if (t->pv_length[0] > 0) {
        line->pv_length = t->pv_length[0];
        memcpy(line->pv, t->pv[0], sizeof(Move) * (size_t)line->pv_length);
    } else if (t->pv_index == 0 && t->best_move != MOVE_NONE) {
        line->pv[0] = t->best_move;
        line->pv_length = 1;
    }
}

/* Stores the PV and score just found for the current line. */
static void save_line(Thread *t, int score)
{
    fill_line(t, &t->lines[t->pv_index], score);
}

/* Shows a failed aspiration window once the search has run long enough
 * (SearchOptions.report_bounds_after_ms). The stored line stays as it was: what the search reads from it (the root's
 * first move, the next window) and the final report must not depend on the
 * clock, or a node-limited search would differ between a fast build and a
 * slow one. */
static void report_bound(Thread *t, int depth, int score, int bound)
{
    if (t->id != 0 || time_now_ms() - t->shared->budget.start <= search_options.report_bounds_after_ms)
        return;
    RootLine shown = t->lines[t->pv_index];
    fill_line(t, &shown, score);
    report_line(t, &shown, t->pv_index, depth, bound);
}

static SearchStack *root_stack(Thread *t)
{
    SearchStack *ss = &t->stack[STACK_OFFSET];
    memset(t->stack, 0, sizeof t->stack);
    for (int i = 0; i < STACK_SIZE; i++) {
        t->stack[i].static_eval = SCORE_NONE;
        t->stack[i].few_budget = search_options.few_budget;
        t->stack[i].single_budget = search_options.single_budget;
    }
    /* Selective deepening stays out of mate searches. */
    if (!search_options.selective_deepening || t->shared->limits.mate > 0)
        for (int i = 0; i < STACK_SIZE; i++)
            t->stack[i].few_budget = t->stack[i].single_budget = 0;
    return ss;
}

/* One iteration with PVS or alpha-beta: aspiration windows around the last
 * score, widened on a fail until the score lands inside. */
static int aspiration_search(Thread *t, int depth, int previous)
{
    int window = ASPIRATION_WINDOW, alpha = -SCORE_INFINITE, beta = SCORE_INFINITE;
    if (search_options.aspiration && depth >= ASPIRATION_MIN_DEPTH && search_options.algorithm == ALGO_PVS) {
        alpha = previous - window > -SCORE_INFINITE ? previous - window : -SCORE_INFINITE;
        beta = previous + window < SCORE_INFINITE ? previous + window : SCORE_INFINITE;
    }
    for (;;) {
        t->seldepth = 0;
        int score = search(t, root_stack(t), alpha, beta, depth, 0, false);
        if (atomic_load(&t->shared->stop))
            return score;
        if (score <= alpha) {
            report_bound(t, depth, score, BOUND_UPPER);
            beta = (alpha + beta) / 2;
            alpha = score - window > -SCORE_INFINITE ? score - window : -SCORE_INFINITE;
        } else if (score >= beta) {
            report_bound(t, depth, score, BOUND_LOWER);
            beta = score + window < SCORE_INFINITE ? score + window : SCORE_INFINITE;
        } else
            return score;
        window += window / 2;
    }
}

/* One iteration with MTD(f): null-window probes move the bounds towards the
 * value, starting from the last iteration's score as the guess. */
static int mtdf_search(Thread *t, int depth, int guess)
{
    int lower = -SCORE_INFINITE, upper = SCORE_INFINITE, g = guess;
    /* The root records its best move only on a fail high, which proves
     * that move reaches g; a fail low leaves the previous one standing. */
    while (lower < upper) {
        int beta = g == lower ? g + 1 : g;
        t->seldepth = 0;
        g = search(t, root_stack(t), beta - 1, beta, depth, 0, false);
        if (atomic_load(&t->shared->stop))
            break;
        if (g < beta)
            upper = g;
        else
            lower = g;
    }
    return g;
}

/* A PV rebuilt from the table, for MTD(f), whose null-window searches
 * collect none: follow the stored moves while they are legal. (Nothing is
 * evaluated on the way, so the board is moved directly, not through
 * play_move.) */
static void pv_from_tt(Thread *t)
{
    Board *b = &t->board;
    int n = 0;
    for (Move m = t->best_move; m != MOVE_NONE && n < MAX_TT_PV && move_is_legal(b, m);) {
        t->pv[0][n++] = m;
        board_make_move(b, m);
        TTProbe tt;
        m = board_repetitions(b) == 0 && tt_probe(board_key(b), 0, &tt) ? tt.move : MOVE_NONE;
    }
    t->pv_length[0] = n;
    while (n-- > 0)
        board_unmake_move(b);
}

static bool mate_limit_reached(const SearchLimits *l, int score)
{
    return l->mate > 0 && score >= MATE_IN_MAX && (mate_in(0) - score + 1) / 2 <= l->mate;
}

/* One depth of the deepening loop: each multi-PV line in turn. Returns
 * false if the search was stopped before the first line was complete. */
static bool search_depth(Thread *t, int depth)
{
    SearchShared *s = t->shared;
    int lines = s->multipv < s->root_move_count ? s->multipv : s->root_move_count;
    for (t->pv_index = 0; t->pv_index < lines; t->pv_index++) {
        RootLine *line = &t->lines[t->pv_index];
        int previous = line->pv_length ? line->score : 0;
        int score = search_options.algorithm == ALGO_MTDF ? mtdf_search(t, depth, previous)
                                                          : aspiration_search(t, depth, previous);
        if (atomic_load(&s->stop) && t->completed_depth >= 1)
            return t->pv_index > 0;
        if (search_options.algorithm == ALGO_MTDF)
            pv_from_tt(t);
        save_line(t, score);
    }
    t->pv_index = 0;
    return true;
}

/* A search stopped inside an iteration ends with one more report of the
 * line it will play, so that the GUI's last info has the final time and
 * node count. The line is the last whole iteration's, unless the stopped
 * iteration had already found a new best move: then that move with its
 * score, followed by the line searched below it when the window pass that
 * found it is the one under way (else the move alone). The line depends
 * only on where the search stopped, never on the clock, so a node limit
 * gives the same final PV on every build. */
static void report_final(Thread *t)
{
    RootLine *line = &t->lines[0];
    if (t->best_move != MOVE_NONE && (line->pv_length == 0 || line->pv[0] != t->best_move)) {
        bool with_line = t->pv_index == 0 && t->pv_length[0] > 0 && t->pv[0][0] == t->best_move;
        line->pv_length = with_line ? t->pv_length[0] : 1;
        memcpy(line->pv, with_line ? t->pv[0] : &t->best_move, sizeof(Move) * (size_t)line->pv_length);
        line->score = t->best_score;
    }
    if (line->pv_length > 0)
        report_line(t, line, 0, t->completed_depth, BOUND_EXACT);
}

/* What the time manager reads after an iteration: how long the best move
 * has stood, its share of the nodes, and the score's fall. */
static void update_progress(const Thread *t, SearchProgress *p, Move previous_best, int score_drop, int lines)
{
    p->lines = lines;
    p->stable_iterations = t->best_move == previous_best ? p->stable_iterations + 1 : 0;
    uint64_t total = atomic_load_explicit(&t->nodes, memory_order_relaxed);
    Move best = t->best_move;
    p->best_move_share = total && best != MOVE_NONE
        ? (double)t->root_move_nodes[move_from(best)][move_to(best)] / (double)total : 1.0;
    p->score_drop = score_drop;
}

void search_iterate(Thread *t)
{
    SearchShared *s = t->shared;
    int max_depth = s->limits.depth > 0 && s->limits.depth < MAX_PLY ? s->limits.depth : MAX_PLY - 1;
    int previous_score = 0;
    SearchProgress progress = { .stable_iterations = 0 };
    Move previous_best = MOVE_NONE;
    memset(t->root_move_nodes, 0, sizeof t->root_move_nodes);
    t->best_move = t->ponder_move = MOVE_NONE;
    t->completed_depth = 0;
    t->pv_index = 0;
    t->optimum_ms = -1;
    memset(&t->stats, 0, sizeof t->stats);
    evaluator_start(&t->eval, &t->board);
    for (int i = 0; i < MAX_MULTIPV; i++)
        t->lines[i].pv_length = 0;

    for (int depth = 1; depth <= max_depth; depth++) {
        /* Helper threads spread over depths so that they search different
         * trees and fill the shared table with complementary results. */
        if (t->id > 0 && depth > 1 && (depth + t->id) % HELPER_DEPTH_SKIP_CYCLE == 0)
            continue;
        t->root_depth = depth;
        bool complete = search_depth(t, depth);
        int lines = t->pv_index > 0 ? t->pv_index : (s->multipv < s->root_move_count ? s->multipv : s->root_move_count);
        if (!complete) {
            if (t->id == 0 && t->completed_depth > 0)
                report_final(t);
            break;
        }
        /* Depth 1 stopped before its end (by `stop` or a node limit) keeps
         * its lines, the moves the strength limit chooses from, but it is
         * no whole iteration: nothing of it is shown, and the move goes out
         * without a depth or a score (engine.c, report_best). */
        if (t->completed_depth == 0 && atomic_load(&s->stop))
            break;
        int score = t->lines[0].score;
        t->completed_depth = depth;
        t->best_score = score;
        if (t->id != 0)
            continue;

        update_progress(t, &progress, previous_best, depth > 1 ? previous_score - score : 0, lines);
        previous_best = t->best_move;
        /* After `pondering`: a ponder hit stores the clock's start and
         * budget before it clears the flag, so both are the new ones. */
        t->optimum_ms = atomic_load(&s->pondering) ? -1 : timeman_scaled_soft(&s->budget, &progress);
        for (int i = 0; i < lines; i++)
            report_line(t, &t->lines[i], i, depth, BOUND_EXACT);
        t->optimum_ms = -1; /* reports inside the next iteration have none */
        if (atomic_load(&s->stop))
            break;
        if (mate_limit_reached(&s->limits, score))
            break;
        if (soft_node_limit_reached(s))
            break;
        if (!atomic_load(&s->pondering)
            && timeman_soft_stop(&s->budget, time_now_ms() - atomic_load(&s->clock_start), &progress))
            break;
        previous_score = score;
    }
    assert(t->eval.depth == 0); /* every push had its pop */
}
