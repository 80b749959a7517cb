#pragma once
/*
 * notation.h — moves as text: coordinate notation (e2e4, e7e8q, castling as
 * the king's two-square step e1g1, or king-takes-rook e1h1 in Chess960),
 * used by both engine protocols, and
 * Standard Algebraic Notation (Nbd2, exd6, O-O, e8=Q+), used for people and
 * PGN. Input is matched against the legal moves, so anything parsed is
 * legal; SAN input also accepts the usual sloppy forms (e8Q, 0-0, Pe4,
 * Ng1f3, exd6e.p., missing or superfluous 'x', '+' and '#').
 */
#include <stddef.h>

#include "board.h"

enum { MOVE_TEXT_SIZE = 16 };

void move_to_coordinate(Move m, char *out);
/* As move_to_coordinate, but in a Chess960 game (b->castle.chess960)
 * castling is written king-takes-own-rook (e1h1), as UCI_Chess960 wants.
 * Any board of the game will do: the rooks' home squares never change. */
void move_to_uci(const Board *b, Move m, char *out);
void move_to_san(Board *b, Move m, char *out);
void square_to_text(Square s, char *out);

/* Each returns MOVE_NONE if the text is not a legal move here. Coordinate
 * castling is read in the game's own form and, where no other move reads
 * the same, in the other one (e1g1 in Chess960, e1h1 in normal chess). */
Move move_from_coordinate(const Board *b, const char *text);
Move move_from_san(const Board *b, const char *text);
/* Accepts either notation: what a person might type. */
Move move_parse(const Board *b, const char *text);
