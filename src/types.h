#pragma once
/*
 * types.h — the vocabulary every other file speaks.
 *
 * Squares run a1 = 0 … h8 = 63 (file-major within a rank), so "one rank up"
 * is +8 and the square's file is sq & 7. Pieces are numbered colour * 6 +
 * type, which gives the twelve Zobrist rows directly. A Move packs into
 * sixteen bits: from (6), to (6), promotion type (2) and a kind (2), so a
 * move list is small and a move fits in a transposition-table slot.
 */
#include <stdbool.h>
#include <stdint.h>

typedef uint64_t Bitboard;
typedef uint64_t Key;
typedef uint16_t Move;

enum { MAX_MOVES = 256, MAX_PLY = 128 };

typedef enum { WHITE, BLACK, COLOR_NB } Color;

typedef enum { PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PIECE_TYPE_NB } PieceType;

typedef enum {
    W_PAWN, W_KNIGHT, W_BISHOP, W_ROOK, W_QUEEN, W_KING,
    B_PAWN, B_KNIGHT, B_BISHOP, B_ROOK, B_QUEEN, B_KING,
    PIECE_NB, NO_PIECE = PIECE_NB
} Piece;

typedef enum {
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
    SQUARE_NB, NO_SQUARE = SQUARE_NB
} Square;

/* Castling rights as four bits, so a right set is one small integer. */
enum {
    WHITE_OO = 1, WHITE_OOO = 2, BLACK_OO = 4, BLACK_OOO = 8,
    ALL_CASTLING = 15, CASTLING_NB = 16
};

/* Move kinds: the two high bits of a Move. */
enum { MOVE_NORMAL = 0, MOVE_PROMOTION = 1, MOVE_EN_PASSANT = 2, MOVE_CASTLING = 3 };

enum { MOVE_NONE = 0, MOVE_NULL = 65 /* from b1 to b1: never a real move */ };

static inline Color color_flip(Color c) { return (Color)(c ^ 1); }
static inline Piece make_piece(Color c, PieceType t) { return (Piece)(c * 6 + t); }
/* Looked up rather than divided by six: the type and colour of a piece are
 * read in every hot loop, and a table read is one instruction where the
 * division by a constant takes five. NO_PIECE keeps what the arithmetic
 * gave it (type PAWN, colour COLOR_NB). */
static const uint8_t PIECE_TYPE_OF[PIECE_NB + 1] = { 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0 };
static const uint8_t PIECE_COLOR_OF[PIECE_NB + 1] = { 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2 };
static inline PieceType piece_type(Piece p) { return (PieceType)PIECE_TYPE_OF[p]; }
static inline Color piece_color(Piece p) { return (Color)PIECE_COLOR_OF[p]; }

static inline int square_file(Square s) { return s & 7; }
static inline int square_rank(Square s) { return s >> 3; }
static inline Square make_square(int file, int rank) { return (Square)(rank * 8 + file); }
/* The same square seen from Black's side of the board (a1 <-> a8). */
static inline Square square_relative(Color c, Square s) { return (Square)(s ^ (c * 56)); }
static inline int rank_relative(Color c, int rank) { return c == WHITE ? rank : 7 - rank; }
/* The square one step forward for colour c. */
static inline int pawn_push(Color c) { return c == WHITE ? 8 : -8; }

static inline Square move_from(Move m) { return (Square)(m & 63); }
static inline Square move_to(Move m) { return (Square)((m >> 6) & 63); }
static inline int move_kind(Move m) { return m >> 14; }
/* Promotion piece type: KNIGHT..QUEEN stored as 0..3. */
static inline PieceType move_promotion(Move m) { return (PieceType)(((m >> 12) & 3) + KNIGHT); }

static inline Move make_move(Square from, Square to) { return (Move)(from | (to << 6)); }
static inline Move make_special(Square from, Square to, int kind, PieceType promo)
{
    return (Move)(from | (to << 6) | ((promo - KNIGHT) << 12) | (kind << 14));
}
