/* annotate_search.c — every position of a game searched (see annotate_search.h). */
#include "tools/annotate_search.h"

#include <string.h>

#include "engine.h"
#include "movegen.h"
#include "score.h"
#include "tools/workers.h"
#include "tt.h" /* BOUND_EXACT */

typedef struct {
    SearchInfo last; /* the last whole line reported */
    bool have_line;
    Move best;
} SearchOutcome;

static void keep_line(const SearchInfo *info, void *context)
{
    SearchOutcome *o = context;
    if (info->multipv == 1 && info->bound == BOUND_EXACT && info->pv_length > 0) {
        o->last = *info;
        o->have_line = true;
    }
}

static void keep_best(Move best, Move ponder, void *context)
{
    (void)ponder;
    ((SearchOutcome *)context)->best = best;
}

/* One search of the engine's position; false if stopped. A limit so small
 * that not even one iteration ended is met by a depth-1 search. */
static bool search_position(const SearchLimits *limits, SearchOutcome *o)
{
    memset(o, 0, sizeof *o);
    if (!workers_search(limits, (SearchReport){ keep_line, keep_best, o }))
        return false;
    if (!o->have_line) {
        SearchLimits one_ply;
        timeman_init_limits(&one_ply);
        one_ply.depth = 1;
        engine_go(&one_ply, (SearchReport){ keep_line, keep_best, o });
        engine_wait();
    }
    return true;
}

static bool analyse_position(const SearchLimits *limits, PositionVerdict *p)
{
    const Board *b = engine_board();
    int white = b->side == WHITE ? 1 : -1;
    MoveList legal;
    generate_legal(b, &legal);
    memset(p, 0, sizeof *p);
    p->forced = legal.count == 1;
    if (legal.count == 0) {
        p->mated = board_in_check(b);
        p->score = p->mated ? white * -MATE : SCORE_DRAW;
        return true;
    }
    SearchOutcome o;
    if (!search_position(limits, &o))
        return false;
    p->score = white * o.last.score;
    p->best = o.best != MOVE_NONE ? o.best : o.last.pv[0];
    if (o.last.pv[0] == p->best) {
        p->line_length = o.last.pv_length < ANNOTATE_LINE_PLIES ? o.last.pv_length : ANNOTATE_LINE_PLIES;
        memcpy(p->line, o.last.pv, sizeof(Move) * (size_t)p->line_length);
    } else {
        p->line[0] = p->best;
        p->line_length = 1;
    }
    return true;
}

/* A forced move keeps the score: the position before it is worth the one
 * after it, a mate one ply further away. */
static void score_forced_positions(PositionVerdict *p, int moves)
{
    for (int k = moves - 1; k >= 0; k--) {
        if (!p[k].forced)
            continue;
        int next = p[k + 1].score;
        p[k].score = !is_mate_score(next) ? next : next > 0 ? next - 1 : next + 1;
    }
}

/* The engine's position after the first `plies` moves of the game. */
static bool set_game_position(const PgnGame *g, int plies)
{
    char error[128];
    if (!engine_set_position(g->fen, NULL, 0, error, sizeof error))
        return false;
    for (int k = 0; k < plies; k++)
        engine_play_move(g->moves[k]);
    return true;
}

/* The positions are searched from the last to the first, with one hash table
 * for the game. What the later positions showed (a mate, a lost ending) is then
 * in the table when the moves that led to them are searched, so a move is
 * judged with what its consequences revealed. Searched forwards, the table
 * learns that only after the move was judged. */
bool annotate_search_game(const PgnGame *g, const SearchLimits *limits, const AnnotateHooks *hooks, PositionVerdict *p)
{
    /* Before the position: the FEN is read by the game's castling rules. */
    engine_set_chess960(g->chess960);
    engine_new_game(); /* the same analysis whichever games came before */
    for (int k = g->move_count; k >= 0; k--) {
        if (workers_should_stop() || !set_game_position(g, k) || !analyse_position(limits, &p[k]))
            return false;
        if (hooks->searched)
            hooks->searched(hooks->context);
    }
    score_forced_positions(p, g->move_count);
    return true;
}
