/* movepick.c — the staged move picker (see movepick.h for the order). */
#include "movepick.h"

#include <limits.h>
#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "movegen.h"
#include "see.h"

static const int MVV_VALUES[PIECE_TYPE_NB + 1] = { 100, 320, 330, 500, 950, 0, 0 };

/* The victim's type of a noisy move by what stands on its target square:
 * PIECE_TYPE_NB for none (a quiet promotion; en passant is told apart). */
static const uint8_t VICTIM_OF[PIECE_NB + 1] = {
    PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PIECE_TYPE_NB
};

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
        Move m = mp->moves[i];
        Piece mover = board_piece_on(b, move_from(m));
        PieceType victim = move_kind(m) == MOVE_EN_PASSANT ? PAWN : (PieceType)VICTIM_OF[board_piece_on(b, move_to(m))];
        int slot = victim == PIECE_TYPE_NB ? PAWN : victim; /* a quiet promotion's history is a pawn's */
        int score = 16 * MVV_VALUES[victim] + mp->history->capture[mover][move_to(m)][slot] / 16;
        if (move_kind(m) == MOVE_PROMOTION)
            score += move_promotion(m) == QUEEN ? 8000 : -8000;
        mp->scores[i] = score;
    }
}

static void score_quiets(MovePicker *mp, int from, int to)
{
    const Board *b = mp->board;
    for (int i = from; i < to; i++) {
        Move m = mp->moves[i];
        Piece p = board_piece_on(b, move_from(m));
        int score = mp->history->butterfly[b->side][move_from(m)][move_to(m)];
        for (int k = 0; k < CONTINUATION_ORDERING; k++)
            if (mp->continuation[k])
                score += (*mp->continuation[k])[p][move_to(m)];
        mp->scores[i] = score;
    }
}

/* Generates moves of a kind into moves[at..], returning the new end. The
 * noisy moves come first and find the pinned pieces; the quiet ones, if
 * asked for, use them again. */
static int generate_into(MovePicker *mp, GenType type, int at)
{
    if (type == GEN_NOISY)
        mp->pinned = pinned_pieces(mp->board);
    return at + generate_moves_pinned(mp->board, type, mp->moves + at, mp->pinned);
}

/* The index of the first of the highest scores in scores[from..end). */
#if defined(__AVX2__)
/* Eight scores at a time: the highest of all, then the first place it is
 * at. Reads up to seven scores past `end`, the padding held at INT_MIN
 * (end_scores()), which, after every real score, is never the one chosen.
 * The first eight start the maximum: no vector of INT_MIN to build. */
static int best_index(const int *scores, int from, int end)
{
    const int *first = scores + from, *stop = scores + end;
    __m256i top = _mm256_loadu_si256((const __m256i *)first);
    for (const int *p = first + 8; p < stop; p += 8)
        top = _mm256_max_epi32(top, _mm256_loadu_si256((const __m256i *)p));
    __m128i half = _mm_max_epi32(_mm256_castsi256_si128(top), _mm256_extracti128_si256(top, 1));
    half = _mm_max_epi32(half, _mm_shuffle_epi32(half, 0x4E));
    half = _mm_max_epi32(half, _mm_shuffle_epi32(half, 0xB1));
    top = _mm256_broadcastd_epi32(half);
    for (const int *p = first;; p += 8) {
        __m256i equal = _mm256_cmpeq_epi32(top, _mm256_loadu_si256((const __m256i *)p));
        unsigned mask = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(equal));
        if (mask)
            return (int)(p - scores) + __builtin_ctz(mask);
    }
}
#else
/* The best score so far stays in a register: each score is read once. */
static int best_index(const int *scores, int from, int end)
{
    int best = from, best_score = scores[from];
    for (int i = from + 1; i < end; i++)
        if (scores[i] > best_score) {
            best = i;
            best_score = scores[i];
        }
    return best;
}
#endif

/* Closes a stage's scores: the padding after them at INT_MIN, for the
 * vector best_index(). */
static void end_scores(MovePicker *mp)
{
    for (int i = 0; i < MOVEPICK_SCORE_PADDING; i++)
        mp->scores[mp->end + i] = INT_MIN;
}

/* Swaps the best remaining move of the stage to the front, moves past it
 * and returns its index. The swap decides the order among equal scores
 * (the bench's node count depends on it). */
static inline int pick_best(MovePicker *mp)
{
    int best = best_index(mp->scores, mp->current, mp->end), front = mp->current++;
    Move move = mp->moves[best];
    int score = mp->scores[best];
    mp->moves[best] = mp->moves[front];
    mp->scores[best] = mp->scores[front];
    mp->moves[front] = move;
    mp->scores[front] = score;
    return front;
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

/* Is m the hash move, a killer or the counter move (handed out by their
 * own stages), or `excluded`? `from` holds the squares they start from: a
 * move from elsewhere is none of them, one bit test for most moves (a
 * missing one, MOVE_NONE, starts from a1: at worst a false alarm). */
static inline bool is_special(const MovePicker *mp, Bitboard from, Move m, Move excluded)
{
    return (from & square_bb(move_from(m)))
        && (m == mp->tt_move || m == mp->killers[0] || m == mp->killers[1] || m == mp->counter || m == excluded);
}

/* The losing captures, last; then the picker is done. */
static Move next_bad_noisy(MovePicker *mp)
{
    while (mp->current < mp->end) {
        Move m = mp->moves[mp->current++];
        if (m != mp->tt_move)
            return m;
    }
    mp->stage = STAGE_DONE;
    return MOVE_NONE;
}

/* The quiet moves by history, after the killers and the counter move. Its
 * own small function: most moves handed out are quiet ones, and this needs
 * no stack frame where the whole stage machine saves six registers. */
Move movepick_next_quiet(MovePicker *mp)
{
    while (mp->current < mp->end) {
        Move m = mp->moves[pick_best(mp)];
        if (!is_special(mp, mp->special_from, m, MOVE_NONE))
            return m;
    }
    mp->current = 0;
    mp->end = mp->bad_end;
    mp->stage = STAGE_BAD_NOISY;
    return next_bad_noisy(mp);
}

/* Late-move and futility pruning, once they prune a quiet move, prune
 * every quiet move after it, and the search then tries only those that
 * give check. Counts the quiet moves left that give check; when there are
 * none, the stage ends here, without picking the moves one by one in order,
 * and *skipped says how many the search would have counted (all but the
 * ones the picker hands out elsewhere and the search's excluded move). */
int movepick_skip_quiets(MovePicker *mp, const CheckInfo *ci, Move excluded, int *skipped)
{
    Bitboard special_from = mp->special_from | square_bb(move_from(excluded));
    int count = 0, checks = 0;
    for (int i = mp->current; i < mp->end; i++) {
        Move m = mp->moves[i];
        if (is_special(mp, special_from, m, excluded))
            continue;
        checks += move_gives_check_quick(mp->board, ci, m);
        count++;
    }
    *skipped = 0;
    if (checks)
        return checks;
    *skipped = count;
    mp->current = 0;
    mp->end = mp->bad_end;
    mp->stage = STAGE_BAD_NOISY;
    return 0;
}

/* The captures and promotions of the first stage, best first. */
static void start_noisy(MovePicker *mp)
{
    mp->current = mp->bad_end = 0;
    mp->end = generate_into(mp, GEN_NOISY, 0);
    score_noisy(mp, 0, mp->end);
    end_scores(mp);
}

/* The stages come in three sequences, each run in order: the main
 * search's, the evasions' and quiescence's. Each runs on into its next
 * stage, and a call resumes where the last one left off by testing the
 * stage sequence's stages in order: conditional branches, which the
 * processor predicts from the ones before, where a jump table's indirect
 * jump (once a stage, or once a call) was mostly mispredicted. */
static Move next_main(MovePicker *mp)
{
    Move m;
    if (mp->stage == STAGE_TT) {
        mp->stage = STAGE_GEN_NOISY;
        if (mp->tt_move != MOVE_NONE)
            return mp->tt_move;
    }
    if (mp->stage == STAGE_GEN_NOISY) {
        start_noisy(mp);
        mp->stage = STAGE_GOOD_NOISY;
    }
    if (mp->stage == STAGE_GOOD_NOISY) {
        while (mp->current < mp->end) {
            int i = pick_best(mp);
            m = mp->moves[i];
            if (m == mp->tt_move)
                continue;
            /* Losing captures wait until after the quiet moves. */
            if (!see_ge(mp->board, m, -mp->scores[i] / 32)) {
                mp->moves[mp->bad_end++] = m;
                continue;
            }
            return m;
        }
        mp->stage = STAGE_KILLER_1;
    }
    if (mp->stage == STAGE_KILLER_1) {
        mp->stage = STAGE_KILLER_2;
        if (usable_quiet(mp, mp->killers[0]))
            return mp->killers[0];
    }
    if (mp->stage == STAGE_KILLER_2) {
        mp->stage = STAGE_COUNTER;
        if (usable_quiet(mp, mp->killers[1]))
            return mp->killers[1];
    }
    if (mp->stage == STAGE_COUNTER) {
        mp->stage = STAGE_GEN_QUIET;
        if (usable_quiet(mp, mp->counter))
            return mp->counter;
    }
    if (mp->stage == STAGE_GEN_QUIET) {
        mp->special_from = square_bb(move_from(mp->tt_move)) | square_bb(move_from(mp->killers[0]))
                         | square_bb(move_from(mp->killers[1])) | square_bb(move_from(mp->counter));
        mp->current = mp->bad_end;
        mp->end = generate_into(mp, GEN_QUIET, mp->bad_end);
        score_quiets(mp, mp->current, mp->end);
        end_scores(mp);
        mp->stage = STAGE_QUIET;
    }
    if (mp->stage == STAGE_QUIET)
        return movepick_next_quiet(mp);
    if (mp->stage == STAGE_BAD_NOISY)
        return next_bad_noisy(mp);
    return MOVE_NONE;
}

/* In check: the hash move, then all evasions, captures of the checker first. */
static Move next_evasion(MovePicker *mp)
{
    if (mp->stage == STAGE_EVASION_TT) {
        mp->stage = STAGE_GEN_EVASIONS;
        if (mp->tt_move != MOVE_NONE)
            return mp->tt_move;
    }
    if (mp->stage == STAGE_GEN_EVASIONS) {
        mp->current = 0;
        mp->end = generate_into(mp, GEN_NOISY, 0);
        score_noisy(mp, 0, mp->end);
        for (int i = 0; i < mp->end; i++)
            mp->scores[i] += 1 << 20; /* captures of the checker first */
        int quiet_start = mp->end;
        mp->end = generate_into(mp, GEN_QUIET, quiet_start);
        score_quiets(mp, quiet_start, mp->end);
        end_scores(mp);
        mp->stage = STAGE_EVASIONS;
    }
    if (mp->stage == STAGE_EVASIONS) {
        while (mp->current < mp->end) {
            Move m = mp->moves[pick_best(mp)];
            if (m != mp->tt_move)
                return m;
        }
        mp->stage = STAGE_DONE;
    }
    return MOVE_NONE;
}

/* Quiescence: the hash move, then captures and queen promotions. */
static Move next_qsearch(MovePicker *mp)
{
    if (mp->stage == STAGE_QS_TT) {
        mp->stage = STAGE_QS_GEN;
        if (mp->tt_move != MOVE_NONE)
            return mp->tt_move;
    }
    if (mp->stage == STAGE_QS_GEN) {
        start_noisy(mp);
        mp->stage = STAGE_QS_NOISY;
    }
    if (mp->stage == STAGE_QS_NOISY) {
        while (mp->current < mp->end) {
            Move m = mp->moves[pick_best(mp)];
            if (m == mp->tt_move)
                continue;
            if (move_kind(m) == MOVE_PROMOTION && move_promotion(m) != QUEEN)
                continue;
            return m;
        }
        mp->stage = STAGE_DONE;
    }
    return MOVE_NONE;
}

Move movepick_next_stage(MovePicker *mp)
{
    if (mp->stage < STAGE_EVASION_TT)
        return next_main(mp);
    if (mp->stage < STAGE_QS_TT)
        return next_evasion(mp);
    return next_qsearch(mp); /* or STAGE_DONE */
}
