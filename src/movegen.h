#pragma once
/*
 * movegen.h — legal move generation.
 *
 * Every generated move is legal: pins and checks are resolved while
 * generating (a check mask of squares that stop the check, the pin ray of
 * each pinned piece, the enemy attack map for the king), so no move needs a
 * make/unmake test afterwards. The search asks for noisy moves (captures
 * and promotions, for quiescence) and quiet moves separately; together they
 * are exactly all legal moves.
 */
#include "board.h"

typedef enum { GEN_NOISY = 1, GEN_QUIET = 2, GEN_ALL = GEN_NOISY | GEN_QUIET } GenType;

/* Is m of the kind GEN_NOISY generates (a capture or a promotion)? The
 * search and the move picker draw their line between tactical and quiet
 * moves here, the same line as the generator's. */
static inline bool move_is_noisy(const Board *b, Move m)
{
    return board_is_capture(b, m) || move_kind(m) == MOVE_PROMOTION;
}

typedef struct {
    Move moves[MAX_MOVES];
    int count;
} MoveList;

/* Writes the legal moves of the kind asked for to `out`; returns how many. */
int generate_moves(const Board *b, GenType type, Move *out);

/* The side to move's pieces pinned to its king; and generate_moves() given
 * them, for a caller that generates a position's moves in two calls (noisy,
 * then quiet) and finds the pins once. */
Bitboard pinned_pieces(const Board *b);
int generate_moves_pinned(const Board *b, GenType type, Move *out, Bitboard pinned);

static inline void generate_legal(const Board *b, MoveList *list)
{
    list->count = generate_moves(b, GEN_ALL, list->moves);
}

/* The number of legal moves when it is at most `cap`; otherwise some
 * number above `cap` (found more cheaply than by generating them all). */
int legal_move_count_capped(const Board *b, int cap);

/* Is m one of the legal moves here? (For moves from outside: TT, book, input.) */
bool move_is_legal(const Board *b, Move m);

/* Does the legal move m give check? Computed without playing it. */
bool move_gives_check(const Board *b, Move m);

/* What a node works out once to answer "does this move give check?" for
 * many moves cheaply: where each piece type would attack the enemy king,
 * and which of our pieces would uncover a slider on it by moving away. */
typedef struct {
    Bitboard check_squares[PIECE_TYPE_NB];
    Bitboard discoverers;
    Square enemy_king;
} CheckInfo;

void check_info_init(const Board *b, CheckInfo *ci);
/* The same answer as move_gives_check(), faster for normal moves: a normal
 * move checks if it lands where its piece attacks the king, or if it
 * leaves a discovery line; the rare kinds take the thorough way. Inline:
 * the search asks it for every move it prunes, most of them quiet. */
static inline bool move_gives_check_quick(const Board *b, const CheckInfo *ci, Move m)
{
    if (move_kind(m) != MOVE_NORMAL)
        return move_gives_check(b, m);
    Square from = move_from(m), to = move_to(m);
    if (ci->check_squares[piece_type(board_piece_on(b, from))] & square_bb(to))
        return true;
    return (ci->discoverers & square_bb(from)) && !aligned(ci->enemy_king, from, to);
}

typedef enum {
    GAME_ONGOING, GAME_CHECKMATE, GAME_STALEMATE, GAME_FIFTY_MOVES,
    GAME_THREEFOLD, GAME_INSUFFICIENT_MATERIAL
} GameStatus;

/* How the game stands by the rules; mate and stalemate take precedence over
 * the fifty-move rule, as in the laws of chess. */
GameStatus game_status(const Board *b);
const char *game_status_text(GameStatus status);
