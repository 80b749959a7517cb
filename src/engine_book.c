/* engine_book.c — the book the engine plays from, and when it does. */
#include "engine_book.h"

#include <unistd.h>

#include "engine_settings.h"
#include "movegen.h"
#include "timer.h"

static struct {
    Book book;
    bool selected;  /* engine_book_select() has been called */
    bool none;      /* the selected file was refused: no book */
    uint64_t rng;
} current;

bool engine_book_select(const char *path, char *error, size_t error_size)
{
    Book fresh = { 0 };
    bool ok = true;
    if (!path || !*path)
        book_use_default(&fresh);
    else
        ok = book_load_file(&fresh, path, error, error_size);
    book_free(&current.book);
    current.selected = true;
    current.none = !ok;
    if (ok)
        current.book = fresh;
    return ok;
}

const Book *engine_book(void)
{
    if (!current.selected) {
        book_use_default(&current.book);
        current.selected = true;
    }
    return current.none ? NULL : &current.book;
}

void engine_book_seed(uint64_t seed) { current.rng = seed ? seed : 1; }

/* Is this `go` one that a book move may answer? Only a game move under a
 * clock: analysis, pondering, mate searches, searchmoves and fixed depth or
 * nodes ask the engine to think. */
static bool book_may_answer(const Board *b, const SearchLimits *limits)
{
    const EngineSettings *e = &engine_settings;
    if (!e->own_book || e->analyse_mode || b->castle.chess960 || b->game_ply >= e->book_depth)
        return false;
    if (limits->infinite || limits->ponder || limits->mate || limits->search_move_count > 0)
        return false;
    return limits->time[b->side] >= 0 || limits->move_time > 0;
}

Move engine_book_move(const Board *b, const SearchLimits *limits)
{
    if (!book_may_answer(b, limits))
        return MOVE_NONE;
    const Book *book = engine_book();
    if (!book)
        return MOVE_NONE;
    BookMove moves[MAX_MOVES];
    int count = book_probe(book, b, moves, MAX_MOVES, NULL);
    if (!current.rng)
        engine_book_seed((uint64_t)time_now_ms() * 0x9E3779B97F4A7C15ULL ^ (uint64_t)getpid());
    Move m = book_choose(moves, count, engine_settings.book_best_move, &current.rng);
    return m != MOVE_NONE && move_is_legal(b, m) ? m : MOVE_NONE;
}
