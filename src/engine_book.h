#pragma once
/*
 * engine_book.h — the engine's opening book: which Polyglot book is in use
 * (the built-in one unless BookFile names another), and whether a `go` is
 * answered from it at once instead of searching.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "games/book.h"
#include "timeman.h"

/* Selects the book: "" or NULL for the built-in one. A file that cannot be
 * used is refused with a message, and the engine then plays without a book
 * until another is selected. */
bool engine_book_select(const char *path, char *error, size_t error_size);
const Book *engine_book(void); /* NULL when no book is in use */
/* Seeds the weighted random choice (tests; otherwise seeded from the clock). */
void engine_book_seed(uint64_t seed);

/* The move to play at once from the book, or MOVE_NONE. Used only for moves
 * of a game under a clock (not for infinite, ponder, mate, searchmoves or
 * clock-less depth/nodes searches), with OwnBook on, within BookDepth plies
 * and not in UCI_AnalyseMode. */
Move engine_book_move(const Board *b, const SearchLimits *limits);
