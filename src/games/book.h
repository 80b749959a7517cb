#pragma once
/*
 * book.h — opening books in the Polyglot .bin format (a book
 * built from tournament games, several weighted moves per position).
 *
 * A book is an array of 16-byte entries — key, move, weight, learn, each
 * stored highest byte first — sorted by key, so the moves of a position are
 * found by binary search (keys and move codes: polyglot.h). Loading checks
 * the whole file (size, order, move codes) and refuses a damaged one with a
 * message. Probing decodes each move against the legal moves of the real
 * position, so a wrong entry or a key collision can never yield an illegal
 * move. Building replays a PGN collection, adds up for every (position,
 * move) how the games went for the side that played it, keeps the moves
 * played often enough and weighs them by the Polyglot rule, 2 × wins +
 * draws.
 *
 * A pure library: which book the engine plays from, and when, is the
 * engine's business (engine_book.h). The built-in book is the Polyglot file
 * embed/book.bin, made from data/master_games.pgn and built into
 * the binary (book_default.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "board.h"

typedef struct {
    Key key;
    uint16_t move;   /* Polyglot move code */
    uint16_t weight;
    uint32_t learn;
} BookEntry;

typedef struct {
    BookEntry *entries; /* sorted by key */
    size_t count;
    bool owned;         /* entries were allocated (book_free frees them) */
} Book;

/* The built-in book: its Polyglot bytes (book_default.c), and the book read
 * from them. */
const unsigned char *book_default_bytes(size_t *size);
void book_use_default(Book *book);

/* Reads and checks a Polyglot book; false with a message when the file is
 * missing, empty, truncated or not a book. */
bool book_load_file(Book *book, const char *path, char *error, size_t error_size);
bool book_load_bytes(Book *book, const unsigned char *data, size_t size, char *error, size_t error_size);
void book_free(Book *book);
/* Writes the book as a .bin file. */
bool book_write_file(const Book *book, const char *path, char *error, size_t error_size);

/* The entries of one key: their count, and the first one's index. */
size_t book_find(const Book *book, Key key, size_t *first);
/* How many different keys (positions) the book holds. */
size_t book_positions(const Book *book);

typedef struct {
    Move move;
    uint16_t code, weight;
} BookMove;

/* The book's moves for the position, legal moves only, in book order
 * (highest weight first in a well-made book); `rejected`, if not NULL,
 * counts entries of this key that are no legal move here. */
int book_probe(const Book *book, const Board *b, BookMove *out, int max, int *rejected);
/* The same for a key computed elsewhere (polyglot_key_of_fen). */
int book_probe_key(const Book *book, Key key, const Board *b, BookMove *out, int max, int *rejected);
/* Chooses one: at random in proportion to the weights, or the heaviest
 * when `best`. MOVE_NONE if no move has a weight. `rng` is the state of a
 * xorshift generator (not 0). */
Move book_choose(const BookMove *moves, int count, bool best, uint64_t *rng);

/* ---- building ---- */
enum { BOOK_WIN = 1, BOOK_DRAW = 2, BOOK_LOSS = 4, BOOK_UNKNOWN = 8, BOOK_ALL_RESULTS = 15 };

typedef struct {
    int max_ply;        /* positions before this ply of a game are used */
    int min_games;      /* a move must be played in at least this many counted games */
    unsigned results;   /* which games count, seen from the side making the move */
    bool weight_games;  /* weight = number of games instead of 2 × wins + draws */
    FILE *progress;     /* progress and bad-game reports go here (NULL: silent) */
} BookBuildOptions;

typedef struct {
    long games, bad_games, truncated_games, used_games;
    long positions;     /* (game, ply) positions looked at */
    long candidates;    /* different (position, move) pairs before filtering */
    long entries, distinct_positions;
} BookBuildStats;

void book_build_defaults(BookBuildOptions *options);
/* Builds a book from a PGN file into `book` (which must be freed). */
bool book_build(const char *pgn_path, const BookBuildOptions *options, Book *book, BookBuildStats *stats,
                char *error, size_t error_size);
