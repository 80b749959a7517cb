#pragma once
/*
 * perft.h — counts the leaf nodes of the legal move tree to a fixed depth,
 * the standard test of a move generator. The last ply is counted in bulk
 * (the length of the legal move list), as Stockfish's `go perft` does.
 */
#include "board.h"

uint64_t perft(Board *b, int depth);
