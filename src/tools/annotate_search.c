/* annotate_search.c — every position of a game searched (see annotate_search.h). */
#include "tools/annotate_search.h"

#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "movegen.h"
#include "score.h"
#include "tools/accuracy.h"
#include "tools/annotate_share.h"
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
    if (info->multipv == 1 && info->bound == BOUND_EXACT && info->pv_length > 0 && !info->no_iteration) {
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

bool annotate_second_look_limits(const SearchLimits *first, SearchLimits *second)
{
    *second = *first;
    if (first->move_time > 0)
        return false;
    if (first->nodes > 0)
        second->nodes = first->nodes * SECOND_LOOK_NODES_FACTOR;
    if (first->depth > 0)
        second->depth = first->depth + SECOND_LOOK_EXTRA_DEPTH < MAX_PLY ? first->depth + SECOND_LOOK_EXTRA_DEPTH
                                                                       : MAX_PLY - 1;
    return first->nodes > 0 || first->depth > 0;
}

/* A fall of many pawns where one side is already far ahead: the winning
 * chances hardly move there, so the band misses it, but such a fall is often
 * a mate that the first search does not see yet, which lichess's mate rule
 * marks (docs/annotate.md, "The second look"). */
static bool falls_far_when_decided(int before, int after, Color mover)
{
    int sign = mover == WHITE ? 1 : -1;
    bool decided = abs(before) >= SECOND_LOOK_DECIDED_CP || abs(after) >= SECOND_LOOK_DECIDED_CP;
    return decided && sign * (before - after) >= SECOND_LOOK_DECIDED_FALL_CP;
}

bool annotate_needs_second_look(int before, int after, Color mover)
{
    if (is_mate_score(before) || is_mate_score(after))
        return false; /* a mate is judged by its own rule, not by the drop */
    double lost = chances_lost(model_centipawns(before), model_centipawns(after), mover);
    return (lost >= SECOND_LOOK_LOW && lost < SECOND_LOOK_HIGH) || falls_far_when_decided(before, after, mover);
}

/* Which positions the second look searches again: both of each move near a
 * mark's line by a side being judged that is not the engine's own choice
 * (such a move is never marked), except a position whose score is not its
 * own search's (a forced move, no legal move). False when there is none. */
static bool choose_second_looks(const PgnGame *g, const PositionVerdict *p, const bool judged[COLOR_NB], bool *again)
{
    bool any = false;
    Color first_mover = annotate_first_mover(g);
    memset(again, 0, sizeof *again * (size_t)(g->move_count + 1));
    for (int k = 1; k <= g->move_count; k++) {
        Color mover = k % 2 == 1 ? first_mover : color_flip(first_mover);
        const PositionVerdict *before = &p[k - 1], *after = &p[k];
        if (!judged[mover] || before->best == MOVE_NONE || before->best == g->moves[k - 1]
            || !annotate_needs_second_look(before->score, after->score, mover))
            continue;
        again[k - 1] |= !before->forced;
        again[k] |= !after->forced && after->best != MOVE_NONE;
        any = true;
    }
    return any;
}

/* Searches position k from an empty hash table into p[k], and tells the hooks. */
static bool search_one_position(const PgnGame *g, int k, const SearchLimits *limits, Look look,
                                const AnnotateHooks *hooks, PositionVerdict *p)
{
    engine_new_game();
    if (workers_should_stop() || !set_game_position(g, k) || !analyse_position(limits, &p[k]))
        return false;
    if (look == LOOK_FIRST && hooks->searched)
        hooks->searched(hooks->context);
    if (look == LOOK_SECOND && hooks->looked_again)
        hooks->looked_again(hooks->context, k);
    return true;
}

/* Searches the positions, the last first: all of them, or those `again`
 * marks, whose verdicts are replaced. This worker searches its turns and
 * gathers the others' verdicts (tools/annotate_share.h). */
static bool search_each_position(const PgnGame *g, const SearchLimits *limits, const bool *again, Look look,
                                 const AnnotateHooks *hooks, const PositionSplit *split, PositionVerdict *p)
{
    int *turns = malloc(sizeof *turns * (size_t)(g->move_count + 1)); /* the positions in turn order */
    bool ok = turns != NULL;
    int count = 0;
    for (int k = g->move_count; ok && k >= 0; k--) {
        if (again && !again[k])
            continue;
        turns[count] = k;
        if (split_takes(split, count++)) {
            ok = search_one_position(g, k, limits, look, hooks, p);
            if (ok)
                split_publish(split, look, k, &p[k]);
        }
    }
    ok = ok && split_gather(split, look, turns, count, p);
    free(turns);
    if (ok)
        score_forced_positions(p, g->move_count);
    return ok;
}

Color annotate_first_mover(const PgnGame *g)
{
    const char *space = strchr(g->fen, ' ');
    return space && space[1] == 'b' ? BLACK : WHITE;
}

/* Each position is searched on its own, from an empty table and history, so
 * that the two positions of a move are judged by two searches of the same
 * kind. One table for the whole game, carried from the later positions to the
 * earlier ones, let what the game showed later into a search, but more into
 * some than into others: measured on two judged sets, the searches on their
 * own found as many of a strong judge's errors and marked fewer moves it does
 * not hold (docs/results/annotate.md, "A million nodes, each position on its
 * own"). */
bool annotate_search_game(const PgnGame *g, const SearchLimits *limits, const SearchLimits *second,
                          const bool judged[COLOR_NB], const AnnotateHooks *hooks, const PositionSplit *split,
                          PositionVerdict *p)
{
    /* Before the position: the FEN is read by the game's castling rules. */
    engine_set_chess960(g->chess960);
    if (!search_each_position(g, limits, NULL, LOOK_FIRST, hooks, split, p))
        return false;
    if (!second)
        return true;
    bool *again = malloc(sizeof *again * (size_t)(g->move_count + 1));
    bool ok = again != NULL;
    if (ok && choose_second_looks(g, p, judged, again))
        ok = search_each_position(g, second, again, LOOK_SECOND, hooks, split, p);
    free(again);
    return ok;
}
