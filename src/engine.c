/* engine.c — the protocol-free engine core: game, threads, go/stop. */
#include "engine.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platform.h"
#include "engine_book.h"
#include "engine_settings.h"
#include "movegen.h"
#include "notation.h"
#include "score.h"
#include "strength.h"
#include "syzygy/syzygy.h"
#include "timer.h"
#include "tt.h"

EngineSettings engine_settings;

static struct {
    Board *game;
    Thread **threads;
    int thread_count;
    SearchShared shared;
    pthread_t main_thread;
    pthread_mutex_t lock;
    pthread_cond_t changed; /* signalled on stop, ponderhit and search end */
    bool searching, thread_started;
    SearchReport client;    /* the front end's callbacks */
    Move last_pv_move;      /* first move of the last PV reported */
    int64_t turn_cpu_start; /* process_cpu_ms() when the clock began to run (set before the search thread starts, or under lock) */
    TurnAccount last_turn;  /* of the last search that ended (under lock) */
    void *stacks[MAX_THREADS]; /* each search thread slot's stack, kept from search to search */
} engine;

/* ---- search threads on stacks of their own ------------------------------------- */

/* Every go starts its search threads anew. On exit, glibc hands the pages
 * of a stack it allocated back to the kernel (madvise), so the next thread
 * faults them in again, and each handback flushes the TLBs of the other
 * cores: at datagen's 5,000 nodes a move that was about a tenth of the
 * time. A stack we provide is left alone, so each thread slot keeps one. */
enum { THREAD_STACK_BYTES = 8 << 20 };

static void *thread_stack(int slot)
{
    if (engine.stacks[slot])
        return engine.stacks[slot];
    return engine.stacks[slot] = platform_map_stack(THREAD_STACK_BYTES);
}

/* The slot's stack must be free: its last thread has been joined. Without
 * one (the mapping failed, or Windows), the thread gets one of the same size
 * from the threads library. */
static void start_thread(pthread_t *thread, int slot, void *(*run)(void *), void *arg)
{
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    void *stack = thread_stack(slot);
    if (stack)
        pthread_attr_setstack(&attributes, stack, THREAD_STACK_BYTES);
    else
        pthread_attr_setstacksize(&attributes, THREAD_STACK_BYTES);
    pthread_create(thread, &attributes, run, arg);
    pthread_attr_destroy(&attributes);
}

static void free_thread_stacks(void)
{
    for (int slot = 0; slot < MAX_THREADS; slot++) {
        if (engine.stacks[slot])
            platform_unmap_stack(engine.stacks[slot], THREAD_STACK_BYTES);
        engine.stacks[slot] = NULL;
    }
}

void engine_init(void)
{
    search_init();
    search_options_default(&search_options);
    engine.game = calloc(1, sizeof *engine.game);
    char error[64];
    board_set_fen(engine.game, START_FEN, error, sizeof error);
    pthread_mutex_init(&engine.lock, NULL);
    pthread_cond_init(&engine.changed, NULL);
    atomic_init(&engine.shared.stop, false);
    _Static_assert(ATOMIC_BOOL_LOCK_FREE == 2, "engine_stop_from_signal needs a lock-free stop flag");
    atomic_init(&engine.shared.pondering, false);
    atomic_init(&engine.shared.clock_start, 0);
    tt_resize(16);
    engine_set_threads(1);
}

void engine_quit(void)
{
    engine_stop();
    engine_wait();
    for (int i = 0; i < engine.thread_count; i++)
        free(engine.threads[i]);
    free(engine.threads);
    free(engine.game);
    free_thread_stacks();
    tt_free();
}

const Board *engine_board(void) { return engine.game; }
int engine_thread_count(void) { return engine.thread_count; }

bool engine_set_threads(int count)
{
    if (count < 1 || count > MAX_THREADS)
        return false;
    engine_wait();
    Thread **fresh = calloc((size_t)count, sizeof *fresh);
    if (!fresh)
        return false;
    for (int i = 0; i < count; i++) {
        fresh[i] = i < engine.thread_count ? engine.threads[i] : calloc(1, sizeof(Thread));
        if (!fresh[i]) {
            for (int j = engine.thread_count; j < i; j++)
                free(fresh[j]);
            free(fresh);
            return false;
        }
        fresh[i]->id = i;
        fresh[i]->shared = &engine.shared;
        if (i >= engine.thread_count)
            search_clear_thread(fresh[i]);
    }
    for (int i = count; i < engine.thread_count; i++)
        free(engine.threads[i]);
    free(engine.threads);
    engine.threads = fresh;
    engine.thread_count = count;
    return true;
}

bool engine_set_hash(size_t megabytes)
{
    engine_wait();
    return megabytes >= 1 && megabytes <= MAX_HASH_MB && tt_resize(megabytes);
}

void engine_new_game(void)
{
    engine_wait();
    tt_clear();
    for (int i = 0; i < engine.thread_count; i++)
        search_clear_thread(engine.threads[i]);
}

bool engine_set_position(const char *fen, char *const *moves, int move_count, char *error, size_t error_size)
{
    engine_wait();
    Board *b = malloc(sizeof *b);
    if (!b) {
        snprintf(error, error_size, "out of memory");
        return false;
    }
    if (!board_set_fen_960(b, fen ? fen : START_FEN, engine_settings.chess960, error, error_size)) {
        free(b);
        return false;
    }
    for (int i = 0; i < move_count; i++) {
        Move m = move_from_coordinate(b, moves[i]);
        if (m == MOVE_NONE) {
            snprintf(error, error_size, "illegal move '%.16s' (move %d)", moves[i], i + 1);
            free(b);
            return false;
        }
        board_make_move(b, m);
        board_trim_history(b);
    }
    free(engine.game);
    engine.game = b;
    return true;
}

void engine_set_chess960(bool on)
{
    engine_wait();
    engine_settings.chess960 = on;
    engine.game->castle.chess960 = on;
}

void engine_play_move(Move m)
{
    engine_wait();
    board_make_move(engine.game, m);
    board_trim_history(engine.game);
}

bool engine_undo_move(void)
{
    engine_wait();
    if (engine.game->state_index == 0)
        return false;
    board_unmake_move(engine.game);
    return true;
}

/* ---- running a search ------------------------------------------------------ */

static void forward_info(const SearchInfo *info, void *context)
{
    (void)context;
    if (info->pv_length > 0 && info->bound == BOUND_EXACT && info->multipv == 1)
        engine.last_pv_move = info->pv[0];
    if (engine.client.on_info)
        engine.client.on_info(info, engine.client.context);
}

static void *helper_main(void *arg)
{
    search_iterate((Thread *)arg);
    return NULL;
}

/* After `go ponder` or `go infinite` the best move waits for the GUI. */
static void wait_while_pondering_or_infinite(void)
{
    pthread_mutex_lock(&engine.lock);
    while (!atomic_load(&engine.shared.stop)
           && (atomic_load(&engine.shared.pondering) || engine.shared.limits.infinite))
        pthread_cond_wait(&engine.changed, &engine.lock);
    pthread_mutex_unlock(&engine.lock);
}

/* A legal reply to the best move, for pondering: from the PV or the table. */
static Move find_ponder_move(Thread *t, Move best)
{
    Board *b = &t->board;
    const RootLine *line = &t->lines[0];
    Move ponder = line->pv_length > 1 && line->pv[0] == best ? line->pv[1] : t->ponder_move;
    board_make_move(b, best);
    if (!move_is_legal(b, ponder)) {
        TTProbe tt;
        ponder = tt_probe(board_key(b), 0, &tt) && move_is_legal(b, tt.move) ? tt.move : MOVE_NONE;
    }
    board_unmake_move(b);
    return ponder;
}

/* ---- strength limit (UCI_LimitStrength / UCI_Elo; strength.h) ---------- */

static bool strength_limited(void) { return engine_settings.limit_strength; }

static Move weakened_choice(const Thread *t, Move best)
{
    int lines = engine.shared.multipv;
    if (lines > engine.shared.root_move_count)
        lines = engine.shared.root_move_count;
    return strength_choose_move(t->lines, lines, engine_settings.elo, best);
}

static void report_best(Thread *main_thread)
{
    SearchShared *s = &engine.shared;
    Move best = main_thread->best_move;
    if (strength_limited() && !s->limits.infinite)
        best = weakened_choice(main_thread, best);
    if (best == MOVE_NONE || !move_is_legal(&main_thread->board, best))
        best = s->root_move_count ? s->root_moves[0] : MOVE_NONE;
    Move ponder = best != MOVE_NONE ? find_ponder_move(main_thread, best) : MOVE_NONE;
    /* The best move must be the first move of the last PV shown. Before a
     * whole iteration there is no depth or score to show with it. */
    if (best != MOVE_NONE && best != engine.last_pv_move && engine.client.on_info) {
        bool searched = main_thread->completed_depth > 0;
        SearchInfo info = { .depth = main_thread->completed_depth, .seldepth = searched ? main_thread->seldepth : 0,
                            .multipv = 1, .score = searched ? main_thread->best_score : 0, .bound = BOUND_EXACT,
                            .nodes = search_total_nodes(s), .time_ms = time_now_ms() - s->budget.start,
                            .hashfull = tt_hashfull(), .tbhits = search_total_tbhits(s), .optimum_ms = -1,
                            .no_iteration = !searched };
        info.pv[0] = best;
        info.pv_length = 1;
        if (ponder != MOVE_NONE && searched)
            info.pv[info.pv_length++] = ponder;
        engine.client.on_info(&info, engine.client.context);
    }
    if (engine.client.on_bestmove)
        engine.client.on_bestmove(best, ponder, engine.client.context);
}

/* No legal move at the root: say why (mate or stalemate) in the info. */
static void report_no_moves(void)
{
    SearchShared *s = &engine.shared;
    if (!engine.client.on_info)
        return;
    SearchInfo info = { .depth = 0, .multipv = 1, .bound = BOUND_EXACT,
                        .score = board_in_check(engine.game) ? -MATE : SCORE_DRAW,
                        .time_ms = time_now_ms() - s->budget.start, .optimum_ms = -1 };
    engine.client.on_info(&info, engine.client.context);
}

/* The turn's own account (engine_turn_account), taken as the search ends:
 * a ponder search stopped without a ponderhit was no turn. */
static TurnAccount account_of_turn(void)
{
    const SearchShared *s = &engine.shared;
    bool on_clock = s->budget.hard >= 0 && !s->limits.infinite && !atomic_load(&s->pondering);
    return (TurnAccount){ .on_clock = on_clock, .cpu_ms = process_cpu_ms() - engine.turn_cpu_start,
                          .hard_limit_ms = s->budget.hard };
}

static void *search_main(void *arg)
{
    (void)arg;
    SearchShared *s = &engine.shared;
    pthread_t helpers[MAX_THREADS];
    for (int i = 1; i < engine.thread_count; i++)
        start_thread(&helpers[i], i, helper_main, engine.threads[i]);
    if (s->root_move_count > 0)
        search_iterate(engine.threads[0]);
    else
        report_no_moves();
    wait_while_pondering_or_infinite();
    atomic_store(&s->stop, true);
    for (int i = 1; i < engine.thread_count; i++)
        pthread_join(helpers[i], NULL);
    /* No longer "searching" before the best move is out: a GUI answers it at
     * once with position/go, which must not find the engine busy. Anything
     * that needs this thread gone still joins it (engine_wait). */
    pthread_mutex_lock(&engine.lock);
    engine.searching = false;
    engine.last_turn = account_of_turn();
    pthread_cond_broadcast(&engine.changed);
    pthread_mutex_unlock(&engine.lock);
    report_best(engine.threads[0]);
    return NULL;
}

/* The root moves: all legal moves, or those of `searchmoves` that are legal. */
static void collect_root_moves(const SearchLimits *limits)
{
    SearchShared *s = &engine.shared;
    MoveList list;
    generate_legal(engine.game, &list);
    s->root_move_count = 0;
    for (int i = 0; i < list.count; i++) {
        bool wanted = limits->search_move_count == 0;
        for (int j = 0; j < limits->search_move_count && !wanted; j++)
            wanted = limits->search_moves[j] == list.moves[i];
        if (wanted)
            s->root_moves[s->root_move_count++] = list.moves[i];
    }
    /* searchmoves naming no legal move: search them all rather than none. */
    if (s->root_move_count == 0)
        for (int i = 0; i < list.count; i++)
            s->root_moves[s->root_move_count++] = list.moves[i];
}

/* At a root in the tablebases only the moves that keep the best result are
 * searched (ranked by DTZ, so that a win is converted within the fifty-move
 * rule), and the search itself probes from SyzygyProbeLimit pieces down. */
static void restrict_root_moves_by_tablebases(void)
{
    SearchShared *s = &engine.shared;
    const EngineSettings *e = &engine_settings;
    s->tb_root_score = SCORE_NONE;
    s->tb_root_hits = 0;
    s->tb_probe_limit = e->syzygy_probe_limit < syzygy_largest() ? e->syzygy_probe_limit : syzygy_largest();
    s->tb_probe_depth = e->syzygy_probe_depth;
    s->tb_fifty_move_rule = e->syzygy_fifty_move_rule;
    if (s->tb_probe_limit == 0 || popcount(board_occupied(engine.game)) > s->tb_probe_limit)
        return;
    static SyzygyRoot root; /* large: only the input thread starts searches */
    if (!syzygy_rank_root(engine.game, e->syzygy_fifty_move_rule, &root))
        return;
    int kept = 0;
    for (int i = 0; i < s->root_move_count; i++)
        for (int k = 0; k < root.keep_count; k++)
            if (s->root_moves[i] == root.keep[k]) {
                s->root_moves[kept++] = s->root_moves[i];
                break;
            }
    if (kept == 0)
        return; /* searchmoves named none of the preserving moves: search what was asked */
    s->root_move_count = kept;
    s->tb_root_hits = (uint64_t)root.move_count;
    bool fifty = e->syzygy_fifty_move_rule;
    s->tb_root_score = root.wdl == WDL_WIN || (!fifty && root.wdl == WDL_CURSED_WIN) ? SCORE_TB_WIN - 1
                     : root.wdl == WDL_LOSS || (!fifty && root.wdl == WDL_BLESSED_LOSS) ? -SCORE_TB_WIN + 1
                     : SCORE_DRAW;
}

/* ---- opening book ----------------------------------------------------------
 * A game move found in the book is answered at once, without a search, through
 * the same callbacks: one info line with the move, then the move. */
static Move book_move_to_play;

static void *book_main(void *arg)
{
    (void)arg;
    if (engine.client.on_info) {
        SearchInfo info = { .depth = 0, .multipv = 1, .bound = BOUND_EXACT, .optimum_ms = -1,
                            .pv = { book_move_to_play }, .pv_length = 1 };
        engine.client.on_info(&info, engine.client.context);
    }
    if (engine.client.on_bestmove)
        engine.client.on_bestmove(book_move_to_play, MOVE_NONE, engine.client.context);
    pthread_mutex_lock(&engine.lock);
    engine.searching = false;
    pthread_cond_broadcast(&engine.changed);
    pthread_mutex_unlock(&engine.lock);
    return NULL;
}

void engine_go(const SearchLimits *limits, SearchReport report)
{
    engine_wait();
    SearchShared *s = &engine.shared;
    s->limits = *limits;
    s->report = (SearchReport){ forward_info, NULL, NULL };
    s->threads = engine.threads;
    s->thread_count = engine.thread_count;
    engine.client = report;
    engine.last_pv_move = MOVE_NONE;
    collect_root_moves(limits);
    restrict_root_moves_by_tablebases();
    s->multipv = engine_settings.multipv;
    if (strength_limited()) {
        uint64_t cap = strength_node_limit(engine_settings.elo);
        if (!s->limits.nodes || s->limits.nodes > cap)
            s->limits.nodes = cap;
        int candidates = strength_candidates(engine_settings.elo);
        if (s->multipv < candidates)
            s->multipv = candidates;
    }
    timeman_init(&s->budget, limits, engine.game->side, engine_settings.move_overhead_ms);
    /* A forced move is played at once when the clock is running. */
    if (s->root_move_count == 1 && !limits->infinite && !limits->ponder && s->budget.hard >= 0)
        s->limits.depth = 1;
    atomic_store(&s->stop, false);
    atomic_store(&s->pondering, limits->ponder);
    atomic_store(&s->clock_start, s->budget.start);
    tt_new_search();
    for (int i = 0; i < engine.thread_count; i++) {
        Thread *t = engine.threads[i];
        memcpy(&t->board, engine.game, offsetof(Board, states) + sizeof(BoardState) * (size_t)(engine.game->state_index + 1));
        atomic_store(&t->nodes, 0);
        atomic_store(&t->tbhits, 0);
        t->best_move = MOVE_NONE;
        t->completed_depth = 0;
    }
    engine.searching = true;
    engine.thread_started = true;
    engine.turn_cpu_start = process_cpu_ms();
    engine.last_turn.on_clock = false; /* a book move has no account */
    book_move_to_play = engine_book_move(engine.game, limits);
    start_thread(&engine.main_thread, 0, book_move_to_play != MOVE_NONE ? book_main : search_main, NULL);
}

void engine_stop(void)
{
    pthread_mutex_lock(&engine.lock);
    atomic_store(&engine.shared.stop, true);
    pthread_cond_broadcast(&engine.changed);
    pthread_mutex_unlock(&engine.lock);
}

void engine_stop_from_signal(void)
{
    atomic_store(&engine.shared.stop, true);
}

void engine_ponderhit(void)
{
    pthread_mutex_lock(&engine.lock);
    atomic_store(&engine.shared.clock_start, time_now_ms());
    engine.turn_cpu_start = process_cpu_ms();
    atomic_store(&engine.shared.pondering, false);
    pthread_cond_broadcast(&engine.changed);
    pthread_mutex_unlock(&engine.lock);
}

void engine_ponderhit_with_clock(const SearchLimits *limits)
{
    pthread_mutex_lock(&engine.lock);
    SearchShared *s = &engine.shared;
    TimeBudget now;
    timeman_init(&now, limits, engine.game->side, engine_settings.move_overhead_ms);
    /* The search reads the limits only once `pondering` is false (stored
     * after them), and the start stays that of the `go`, for the info times. */
    s->budget.soft = now.soft;
    s->budget.hard = now.hard;
    atomic_store(&s->clock_start, now.start);
    engine.turn_cpu_start = process_cpu_ms();
    atomic_store(&s->pondering, false);
    pthread_cond_broadcast(&engine.changed);
    pthread_mutex_unlock(&engine.lock);
}

void engine_wait(void)
{
    if (!engine.thread_started)
        return;
    pthread_join(engine.main_thread, NULL);
    engine.thread_started = false;
}

bool engine_is_searching(void)
{
    pthread_mutex_lock(&engine.lock);
    bool searching = engine.searching;
    pthread_mutex_unlock(&engine.lock);
    return searching;
}

SearchStats engine_last_stats(void) { return engine.threads[0]->stats; }
uint64_t engine_last_nodes(void) { return search_total_nodes(&engine.shared); }

TurnAccount engine_turn_account(void)
{
    pthread_mutex_lock(&engine.lock);
    TurnAccount account = engine.last_turn;
    pthread_mutex_unlock(&engine.lock);
    return account;
}
