#pragma once
/*
 * support.h — shared helpers for the unit tests: the data directory, the
 * perft EPD files (`FEN ;D1 n ;D2 n ...`), boards made from a FEN, and a
 * small seeded random generator so that random playouts repeat exactly.
 *
 * Criterion runs every test in its own process, so each test file declares
 * its suite with `.init = board_init` and the tables are filled once per test.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"

enum { EPD_MAX_DEPTH = 16, EPD_FEN_SIZE = 256 };

typedef struct {
    char fen[EPD_FEN_SIZE];
    int line;                          /* 1-based line number in the file */
    int max_depth;                     /* deepest depth listed */
    uint64_t nodes[EPD_MAX_DEPTH + 1]; /* nodes[d] for d = 1..max_depth */
    char id[32];                       /* the `;id "..."` field, or "" */
} EpdEntry;

/* True when BACHESS_TEST_LIGHT is set (the sanitizer run): use smaller depths. */
bool test_light(void);

/* Loads data file `name` from $BACHESS_DATA (default "data"). Fails the
 * current test if the file is missing or a line is malformed. The caller
 * frees the returned array. */
EpdEntry *epd_load(const char *name, int *count);

enum { FEN_SIZE = 128 };

/* Loads the FENs of data file `name`: the first four fields of each line,
 * whatever operations follow (WAC, openings, perft files). Fails the current
 * test if the file is missing or empty. The caller frees the array. */
char (*load_fens(const char *name, int *count))[FEN_SIZE];

/* A heap board set to `fen`; fails the current test if the FEN is rejected. */
Board *board_from_fen(const char *fen);

/* Sets an existing board; fails the current test if the FEN is rejected. */
void board_load(Board *b, const char *fen);
/* The same in Chess960 mode (any castling layout, Chess960 move text). */
void board_load_960(Board *b, const char *fen);

/* Plays moves given in SAN or coordinate notation, separated by spaces;
 * fails the current test if one is not legal. */
void board_play(Board *b, const char *moves);

/* Calls `check` for every legal move of every position of a suite file,
 * each with the move not yet played; `check` must leave the board as it
 * found it. Returns how many moves were visited. */
typedef void (*SuiteMoveCheck)(Board *b, Move m, const char *fen, void *context);
int for_each_suite_move(const char *file, SuiteMoveCheck check, void *context);

/* Perft of lines chunk, chunk + chunks, chunk + 2 * chunks, ... of data file
 * `file` at every depth up to min(depth_cap, deepest listed), read as
 * Chess960 FENs if asked; interleaving spreads the deep and the cheap
 * positions evenly over the chunks. A mismatch is logged with its line, FEN,
 * depth and both counts (the first 25), then the test fails. */
void perft_suite_chunk(const char *file, int depth_cap, int chunk, int chunks, bool chess960);

/* splitmix64, for reproducible random playouts. */
typedef struct { uint64_t state; } TestRng;
uint64_t rng_next(TestRng *r);
static inline int rng_below(TestRng *r, int n) { return (int)(rng_next(r) % (uint64_t)n); }
