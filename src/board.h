#pragma once
/*
 * board.h — a chess position and the history that led to it.
 *
 * The position is held twice over: bitboards by piece type and by colour
 * (for fast set operations) and a mailbox (for "what stands on square s").
 * Everything a move destroys — castling rights, en passant square, the
 * fifty-move counter, the captured piece, the key — lives in a BoardState
 * record; a move pushes a new record and unmake pops it, so make/unmake is
 * exact and the records double as the game history for repetition checks.
 *
 * The en passant square is kept only when a legal en passant capture really
 * exists. Two positions that differ only in a useless e.p. square are the
 * same position by the rules of chess, and must have the same key.
 */
#include <stddef.h>

#include "attacks.h"
#include "types.h"

/* Records kept for one line of play: a long game plus a full search. When a
 * game gets longer, board_trim_history() drops the oldest records, keeping
 * more than the fifty-move window that repetition detection needs. */
enum { MAX_HISTORY = 1024 + MAX_PLY, HISTORY_KEEP = 128 };

typedef struct {
    Key key;
    Key pawn_key;        /* the pawns alone: the pawn hash table's key */
    Bitboard checkers;   /* enemy pieces giving check to the side to move */
    Move move;           /* the move that led to this state */
    uint8_t castling;
    uint8_t ep_square;   /* NO_SQUARE unless an e.p. capture is legal */
    uint8_t captured;    /* Piece taken by `move`, or NO_PIECE */
    uint16_t rule50;     /* plies since the last capture or pawn move */
    uint16_t plies_from_null;
} BoardState;

/* Where castling takes king and rook. Chess960 starts the king and the rooks
 * on other files, so the rook of each right, and the squares that castling
 * needs, come from the FEN and stay with the game: no move changes them.
 * Rights are indexed by bit number (castling_right_index). */
typedef struct {
    Square rook[4];             /* the rook's home square */
    Bitboard must_be_empty[4];  /* squares king and rook cross or land on, bar their own */
    Bitboard king_path[4];      /* squares the king crosses or lands on: never attacked */
    uint8_t keep[SQUARE_NB];    /* the rights that survive a move from or to s */
    bool chess960;              /* FEN and castling moves written the Chess960 way */
} CastlingLayout;

typedef struct {
    Bitboard by_type[PIECE_TYPE_NB];
    Bitboard by_color[COLOR_NB];
    uint8_t squares[SQUARE_NB]; /* Piece on each square, or NO_PIECE */
    Color side;
    CastlingLayout castle;
    int game_ply;    /* plies since the start of the game (gives the move number) */
    int state_index; /* current record in states[] */
    BoardState states[MAX_HISTORY];
} Board;

#define START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/* Fills every start-up table (geometry, attacks, keys). Call once. */
void board_init(void);

/* Parses a FEN. On success the board is replaced and true returned; on any
 * error the board is left untouched and `error` says what is wrong.
 * board_set_fen takes normal chess: castling rights need king and rook on
 * their classical squares. board_set_fen_960 also takes Chess960 layouts,
 * with the rights as KQkq (the outermost rook, X-FEN) or as rook files
 * (Shredder-FEN `HAha`, X-FEN's letter for an inner rook), and marks the
 * board for Chess960 text: X-FEN out, castling as king-takes-rook. */
bool board_set_fen(Board *b, const char *fen, char *error, size_t error_size);
bool board_set_fen_960(Board *b, const char *fen, bool chess960, char *error, size_t error_size);
void board_get_fen(const Board *b, char *out, size_t out_size);

/* The right (bit number) of castling for colour c on the king's (g-file)
 * or the queen's (c-file) side. */
static inline int castling_right_index(Color c, bool kingside) { return 2 * (int)c + !kingside; }

/* Castling moves are written internally as the king's step to its
 * destination (g or c file), kind MOVE_CASTLING; in Chess960 the king may
 * not move at all (from == to). These are the four squares involved. */
typedef struct { Square king_from, king_to, rook_from, rook_to; int right; } CastlingMove;
CastlingMove board_castling_move(const Board *b, Move m);

void board_make_move(Board *b, Move m);

/* What a move does to the pieces, for evaluations kept up to date move by
 * move: each piece that leaves a square (removed) or arrives on one, at
 * most four (castling: king and rook). Takes the board before the move. */
enum { MAX_PIECE_CHANGES = 4 };
typedef struct {
    Piece piece;
    Square square;
    bool added;
} PieceChange;
int board_move_changes(const Board *b, Move m, PieceChange changes[MAX_PIECE_CHANGES]);
/* The key board_make_move() will give for m, without castling-right
 * changes, a new en-passant square and the details of special moves:
 * exact for most moves, and
 * early enough to fetch the move's table entry while the move is made. */
Key board_key_after(const Board *b, Move m);
void board_unmake_move(Board *b);
void board_make_null(Board *b);
void board_unmake_null(Board *b);
void board_trim_history(Board *b);

Key board_compute_key(const Board *b);
/* Mailbox, bitboards, keys and checkers agree (asserted in debug builds). */
bool board_is_consistent(const Board *b);
Key board_compute_pawn_key(const Board *b);
bool board_square_attacked(const Board *b, Square s, Color by);
/* Would the side to move's pawn on `from` taking en passant on `ep` leave its
 * own king safe? The one test of it: the e.p. square a position records and
 * the e.p. moves the generator gives both follow it. */
bool board_en_passant_is_legal(const Board *b, Square from, Square ep);

/* Draw rules (the game-ending ones needing move generation are in movegen). */
int board_repetitions(const Board *b); /* earlier occurrences of this position */
bool board_is_repetition_draw(const Board *b, int ply_from_root);
bool board_is_fifty_move_draw(const Board *b);
bool board_insufficient_material(const Board *b);

static inline const BoardState *board_state(const Board *b) { return &b->states[b->state_index]; }
static inline Piece board_piece_on(const Board *b, Square s) { return (Piece)b->squares[s]; }
static inline Bitboard board_occupied(const Board *b) { return b->by_color[WHITE] | b->by_color[BLACK]; }
static inline Bitboard board_pieces(const Board *b, Color c, PieceType t) { return b->by_color[c] & b->by_type[t]; }
/* Has colour c anything but its king and pawns? */
static inline bool board_has_non_pawn_material(const Board *b, Color c)
{
    return (b->by_color[c] & ~(b->by_type[PAWN] | b->by_type[KING])) != 0;
}
static inline Square board_king(const Board *b, Color c) { return lsb(board_pieces(b, c, KING)); }
/* The pieces of both colours that attack s, sliders seen through
 * `occupied`. Inline: make move, SEE and the king's move generation ask
 * it in their inner loops. */
static inline Bitboard board_attackers_to(const Board *b, Square s, Bitboard occupied)
{
    Bitboard rooks = b->by_type[ROOK] | b->by_type[QUEEN];
    Bitboard bishops = b->by_type[BISHOP] | b->by_type[QUEEN];
    return (pawn_attacks[BLACK][s] & board_pieces(b, WHITE, PAWN))
         | (pawn_attacks[WHITE][s] & board_pieces(b, BLACK, PAWN))
         | (knight_attacks[s] & b->by_type[KNIGHT])
         | (king_attacks[s] & b->by_type[KING])
         | (rook_attacks(s, occupied) & rooks)
         | (bishop_attacks(s, occupied) & bishops);
}
static inline Key board_key(const Board *b) { return board_state(b)->key; }
static inline Key board_pawn_key(const Board *b) { return board_state(b)->pawn_key; }
static inline Bitboard board_checkers(const Board *b) { return board_state(b)->checkers; }
static inline bool board_in_check(const Board *b) { return board_checkers(b) != 0; }
static inline int board_fullmove(const Board *b) { return b->game_ply / 2 + 1; }
static inline bool board_is_capture(const Board *b, Move m)
{
    /* A Chess960 king may castle onto its own rook's square. */
    return (board_piece_on(b, move_to(m)) != NO_PIECE && move_kind(m) != MOVE_CASTLING) || move_kind(m) == MOVE_EN_PASSANT;
}
