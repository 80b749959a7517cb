/* movepick.c — the staged move picker (see movepick.h for the order). */
#include "movepick.h"

#include "movegen.h"
#include "see.h"

static const int MVV_VALUES[PIECE_TYPE_NB + 1] = { 100, 320, 330, 500, 950, 0, 0 };

/* Moves that came from tables (TT, killers, counter) may be stale or belong
 * to another position: only a legal move of the right kind is tried. */
static bool usable_quiet(const MovePicker *mp, Move m)
{
    return m != MOVE_NONE && m != mp->tt_move && !move_is_noisy(mp->board, m) && move_is_legal(mp->board, m);
}

static void score_noisy(MovePicker *mp, int from, int to)
{
    const Board *b = mp->board;
    for (int i = from; i < to; i++) {
        Move m = mp->moves[i].move;
        Piece mover = board_piece_on(b, move_from(m));
        PieceType victim = move_kind(m) == MOVE_EN_PASSANT ? PAWN : piece_type(board_piece_on(b, move_to(m)));
        if (board_piece_on(b, move_to(m)) == NO_PIECE && move_kind(m) != MOVE_EN_PASSANT)
            victim = PIECE_TYPE_NB; /* a quiet promotion */
        int score = 16 * MVV_VALUES[victim] + mp->history->capture[mover][move_to(m)][victim % PIECE_TYPE_NB] / 16;
        if (move_kind(m) == MOVE_PROMOTION)
            score += move_promotion(m) == QUEEN ? 8000 : -8000;
        mp->moves[i].score = score;
    }
}

static void score_quiets(MovePicker *mp, int from, int to)
{
    const Board *b = mp->board;
    for (int i = from; i < to; i++) {
        Move m = mp->moves[i].move;
        Piece p = board_piece_on(b, move_from(m));
        int score = mp->history->butterfly[b->side][move_from(m)][move_to(m)];
        for (int k = 0; k < CONTINUATION_ORDERING; k++)
            if (mp->continuation[k])
                score += (*mp->continuation[k])[p][move_to(m)];
        mp->moves[i].score = score;
    }
}

/* Generates moves of a kind into moves[at..], returning the new end. */
static int generate_into(MovePicker *mp, GenType type, int at)
{
    Move list[MAX_MOVES];
    int count = generate_moves(mp->board, type, list);
    for (int i = 0; i < count; i++)
        mp->moves[at + i] = (ScoredMove){ list[i], 0 };
    return at + count;
}

/* Swaps the best remaining move of the stage to the front and returns it. */
static ScoredMove pick_best(MovePicker *mp)
{
    int best = mp->current;
    for (int i = mp->current + 1; i < mp->end; i++)
        if (mp->moves[i].score > mp->moves[best].score)
            best = i;
    ScoredMove chosen = mp->moves[best];
    mp->moves[best] = mp->moves[mp->current];
    mp->moves[mp->current++] = chosen;
    return chosen;
}

void movepick_init(MovePicker *mp, const Board *b, const History *h, Move tt_move,
                   const Move killers[2], Move counter,
                   const PieceToHistory *const continuation[CONTINUATION_ORDERING])
{
    mp->board = b;
    mp->history = h;
    for (int k = 0; k < CONTINUATION_ORDERING; k++)
        mp->continuation[k] = continuation[k];
    mp->tt_move = tt_move != MOVE_NONE && move_is_legal(b, tt_move) ? tt_move : MOVE_NONE;
    mp->killers[0] = killers[0];
    mp->killers[1] = killers[1] != killers[0] ? killers[1] : MOVE_NONE;
    mp->counter = counter != killers[0] && counter != killers[1] ? counter : MOVE_NONE;
    mp->stage = board_in_check(b) ? STAGE_EVASION_TT : STAGE_TT;
    mp->current = mp->end = mp->bad_end = 0;
}

void movepick_init_qsearch(MovePicker *mp, const Board *b, const History *h, Move tt_move)
{
    static const Move no_killers[2] = { MOVE_NONE, MOVE_NONE };
    static const PieceToHistory *const no_continuation[CONTINUATION_ORDERING] = { NULL };
    movepick_init(mp, b, h, tt_move, no_killers, MOVE_NONE, no_continuation);
    if (mp->stage == STAGE_TT) {
        mp->stage = STAGE_QS_TT;
        if (mp->tt_move != MOVE_NONE && !move_is_noisy(b, mp->tt_move))
            mp->tt_move = MOVE_NONE;
    }
}

Move movepick_next(MovePicker *mp)
{
    for (;;) {
        switch (mp->stage) {
        case STAGE_TT:
        case STAGE_EVASION_TT:
        case STAGE_QS_TT:
            mp->stage++;
            if (mp->tt_move != MOVE_NONE)
                return mp->tt_move;
            break;

        case STAGE_GEN_NOISY:
        case STAGE_QS_GEN:
            mp->current = mp->bad_end = 0;
            mp->end = generate_into(mp, GEN_NOISY, 0);
            score_noisy(mp, 0, mp->end);
            mp->stage++;
            break;

        case STAGE_GOOD_NOISY:
            while (mp->current < mp->end) {
                ScoredMove sm = pick_best(mp);
                if (sm.move == mp->tt_move)
                    continue;
                /* Losing captures wait until after the quiet moves. */
                if (!see_ge(mp->board, sm.move, -sm.score / 32)) {
                    mp->moves[mp->bad_end++] = sm;
                    continue;
                }
                return sm.move;
            }
            mp->stage++;
            break;

        case STAGE_KILLER_1:
        case STAGE_KILLER_2:
        case STAGE_COUNTER: {
            Move m = mp->stage == STAGE_COUNTER ? mp->counter : mp->killers[mp->stage - STAGE_KILLER_1];
            mp->stage++;
            if (usable_quiet(mp, m))
                return m;
            break;
        }

        case STAGE_GEN_QUIET:
            mp->current = mp->bad_end;
            mp->end = generate_into(mp, GEN_QUIET, mp->bad_end);
            score_quiets(mp, mp->current, mp->end);
            mp->stage++;
            break;

        case STAGE_QUIET:
            while (mp->current < mp->end) {
                Move m = pick_best(mp).move;
                if (m != mp->tt_move && m != mp->killers[0] && m != mp->killers[1] && m != mp->counter)
                    return m;
            }
            mp->current = 0;
            mp->end = mp->bad_end;
            mp->stage++;
            break;

        case STAGE_BAD_NOISY:
            while (mp->current < mp->end) {
                Move m = mp->moves[mp->current++].move;
                if (m != mp->tt_move)
                    return m;
            }
            mp->stage = STAGE_DONE;
            break;

        case STAGE_GEN_EVASIONS:
            mp->current = 0;
            mp->end = generate_into(mp, GEN_NOISY, 0);
            score_noisy(mp, 0, mp->end);
            for (int i = 0; i < mp->end; i++)
                mp->moves[i].score += 1 << 20; /* captures of the checker first */
            {
                int quiet_start = mp->end;
                mp->end = generate_into(mp, GEN_QUIET, quiet_start);
                score_quiets(mp, quiet_start, mp->end);
            }
            mp->stage++;
            break;

        case STAGE_EVASIONS:
            while (mp->current < mp->end) {
                Move m = pick_best(mp).move;
                if (m != mp->tt_move)
                    return m;
            }
            mp->stage = STAGE_DONE;
            break;

        case STAGE_QS_NOISY:
            while (mp->current < mp->end) {
                Move m = pick_best(mp).move;
                if (m == mp->tt_move)
                    continue;
                if (move_kind(m) == MOVE_PROMOTION && move_promotion(m) != QUEEN)
                    continue;
                return m;
            }
            mp->stage = STAGE_DONE;
            break;

        case STAGE_DONE:
            return MOVE_NONE;
        }
    }
}
