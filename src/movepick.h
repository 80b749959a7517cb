#pragma once
/*
 * movepick.h — hands the search one move at a time, best guess first, and
 * generates lazily so that an early cut-off saves the rest of the work:
 *   1. the transposition-table move,
 *   2. captures and promotions that do not lose material (by SEE), most
 *      valuable victim first, capture history breaking ties,
 *   3. the two killer moves and the counter move,
 *   4. the other quiet moves by history,
 *   5. the captures that lose material.
 * In check all evasions come at once after the hash move. Quiescence asks
 * only for stages 1–2 (queen promotions, no under-promotions).
 */
#include "board.h"
#include "history.h"
#include "movegen.h"

typedef enum {
    STAGE_TT, STAGE_GEN_NOISY, STAGE_GOOD_NOISY, STAGE_KILLER_1, STAGE_KILLER_2, STAGE_COUNTER,
    STAGE_GEN_QUIET, STAGE_QUIET, STAGE_BAD_NOISY,
    STAGE_EVASION_TT, STAGE_GEN_EVASIONS, STAGE_EVASIONS,
    STAGE_QS_TT, STAGE_QS_GEN, STAGE_QS_NOISY,
    STAGE_DONE
} PickStage;

/* Scores past the end of a stage's moves that the vector search for the
 * best score may read (eight int32 in an AVX2 register): held at INT_MIN. */
enum { MOVEPICK_SCORE_PADDING = 8 };

typedef struct {
    const Board *board;
    const History *history;
    const PieceToHistory *continuation[CONTINUATION_ORDERING]; /* see history.h */
    PickStage stage;
    Move tt_move, killers[2], counter;
    /* Moves and their scores side by side, not interleaved: the search
     * for the best remaining score reads only scores (and moves are
     * generated straight into place). */
    Move moves[MAX_MOVES];
    int scores[MAX_MOVES + MOVEPICK_SCORE_PADDING];
    int current, end;      /* moves[current..end) still to be tried in this stage */
    int bad_end;           /* losing captures are parked at moves[0..bad_end) */
    Bitboard special_from; /* the squares the hash move, killers and counter move start from */
    Bitboard pinned;       /* found for the first generation, used again by the second */
} MovePicker;

void movepick_init(MovePicker *mp, const Board *b, const History *h, Move tt_move,
                   const Move killers[2], Move counter,
                   const PieceToHistory *const continuation[CONTINUATION_ORDERING]);
void movepick_init_qsearch(MovePicker *mp, const Board *b, const History *h, Move tt_move);
Move movepick_next_stage(MovePicker *mp);
Move movepick_next_quiet(MovePicker *mp);
int movepick_skip_quiets(MovePicker *mp, const CheckInfo *ci, Move excluded, int *skipped);

/* The next move to try, or MOVE_NONE when all are done. The quiet stage,
 * where most moves come from, goes straight to its own function. */
static inline Move movepick_next(MovePicker *mp)
{
    return mp->stage == STAGE_QUIET ? movepick_next_quiet(mp) : movepick_next_stage(mp);
}
