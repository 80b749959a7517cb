/* book_default.c — the built-in opening book: embed/book.bin, a
 * Polyglot file, inside the binary (incbin.h). Made by
 *   bachess book build data/master_games.pgn --max-ply 20 --min-games 3 \
 *       -o embed/book.bin
 * (12902 games, 7628 entries for 5877 positions; docs/book.md). */
#include "games/book.h"

#include "incbin.h"

INCBIN(bachess_default_book, "embed/book.bin");

const unsigned char *book_default_bytes(size_t *size)
{
    *size = (size_t)(bachess_default_book_end - bachess_default_book_start);
    return bachess_default_book_start;
}
