/*
 * test_perft.c — the move generator against published perft counts.
 *
 * data/perft.epd (hand-picked edge cases) runs at every depth up to
 * min(5, deepest listed); data/perft_marcel.epd (6,752 random positions)
 * at every depth up to 4. Under BACHESS_TEST_LIGHT (the sanitizer run) the
 * caps are 4 and 3. (Measured on 2 cores: about 15 s for the release run,
 * under 3 s for the light sanitizer run; the full depths under the
 * sanitizer would take about 36 s.)
 * Each file is split into chunks, one Criterion test per chunk, so that
 * `--jobs N` spreads the work. A mismatch is reported with its line, FEN,
 * depth, expected and actual count (the first 25 of a chunk are listed,
 * all are counted) before the test fails.
 *
 * A second group checks the generator's contract beyond the counts: noisy
 * and quiet moves partition the legal moves, noisy means capture or
 * promotion, every generated move leaves the mover's king safe, and
 * move_is_legal agrees with the generator on every possible move value.
 *
 * The suites set no Criterion `.timeout`: with Criterion 2.4.1 a timeout
 * makes the runner leak 48 bytes now and then under --jobs 2, and
 * LeakSanitizer then fails the sanitizer run.
 */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "movegen.h"
#include "notation.h"
#include "perft.h"
#include "support.h"

TestSuite(perft, .init = board_init);
TestSuite(movegen, .init = board_init);

enum { PERFT_DEPTH = 5, PERFT_LIGHT_DEPTH = 4, MARCEL_DEPTH = 4, MARCEL_LIGHT_DEPTH = 3 };
enum { PERFT_CHUNKS = 4, MARCEL_CHUNKS = 12 };
static int perft_depth(void) { return test_light() ? PERFT_LIGHT_DEPTH : PERFT_DEPTH; }
static int marcel_depth(void) { return test_light() ? MARCEL_LIGHT_DEPTH : MARCEL_DEPTH; }

#define PERFT_CHUNK(n) \
    Test(perft, suite_chunk_##n) { perft_suite_chunk("perft.epd", perft_depth(), n, PERFT_CHUNKS, false); }
PERFT_CHUNK(0)
PERFT_CHUNK(1)
PERFT_CHUNK(2)
PERFT_CHUNK(3)

#define MARCEL_CHUNK(n) \
    Test(perft, marcel_chunk_##n) { perft_suite_chunk("perft_marcel.epd", marcel_depth(), n, MARCEL_CHUNKS, false); }
MARCEL_CHUNK(0)
MARCEL_CHUNK(1)
MARCEL_CHUNK(2)
MARCEL_CHUNK(3)
MARCEL_CHUNK(4)
MARCEL_CHUNK(5)
MARCEL_CHUNK(6)
MARCEL_CHUNK(7)
MARCEL_CHUNK(8)
MARCEL_CHUNK(9)
MARCEL_CHUNK(10)
MARCEL_CHUNK(11)

Test(perft, depth_zero_and_one)
{
    Board *b = board_from_fen(START_FEN);
    cr_assert_eq(perft(b, 0), 1);
    cr_assert_eq(perft(b, 1), 20);
    cr_assert_eq(perft(b, 2), 400);
    free(b);
}

/* ---- the generator's contract ------------------------------------------- */

static bool contains(const Move *moves, int count, Move m)
{
    for (int i = 0; i < count; i++)
        if (moves[i] == m)
            return true;
    return false;
}

/* Checks one position; returns the number of problems, each logged. */
static int check_generator(Board *b)
{
    Move all[MAX_MOVES], noisy[MAX_MOVES], quiet[MAX_MOVES];
    int n_all = generate_moves(b, GEN_ALL, all);
    int n_noisy = generate_moves(b, GEN_NOISY, noisy);
    int n_quiet = generate_moves(b, GEN_QUIET, quiet);
    char fen[128];
    board_get_fen(b, fen, sizeof fen);
    int problems = 0;

    if (n_noisy + n_quiet != n_all) {
        cr_log_error("%s: %d noisy + %d quiet != %d legal moves", fen, n_noisy, n_quiet, n_all);
        problems++;
    }
    for (int i = 0; i < n_noisy; i++) {
        char text[MOVE_TEXT_SIZE];
        move_to_coordinate(noisy[i], text);
        if (!contains(all, n_all, noisy[i]) || contains(quiet, n_quiet, noisy[i])) {
            cr_log_error("%s: noisy move %s not in GEN_ALL, or also quiet", fen, text);
            problems++;
        }
        if (!move_is_noisy(b, noisy[i])) {
            cr_log_error("%s: noisy move %s is neither capture nor promotion", fen, text);
            problems++;
        }
    }
    for (int i = 0; i < n_quiet; i++) {
        char text[MOVE_TEXT_SIZE];
        move_to_coordinate(quiet[i], text);
        if (!contains(all, n_all, quiet[i])) {
            cr_log_error("%s: quiet move %s not in GEN_ALL", fen, text);
            problems++;
        }
        if (move_is_noisy(b, quiet[i])) {
            cr_log_error("%s: quiet move %s is a capture or promotion", fen, text);
            problems++;
        }
    }
    for (int i = 0; i < n_all; i++) {
        char text[MOVE_TEXT_SIZE];
        move_to_coordinate(all[i], text);
        for (int j = 0; j < i; j++)
            if (all[j] == all[i]) {
                cr_log_error("%s: move %s generated twice", fen, text);
                problems++;
            }
        if (!move_is_legal(b, all[i])) {
            cr_log_error("%s: move_is_legal rejects generated move %s", fen, text);
            problems++;
        }
        Color us = b->side;
        board_make_move(b, all[i]);
        if (board_square_attacked(b, board_king(b, us), b->side)) {
            cr_log_error("%s: move %s leaves its own king in check", fen, text);
            problems++;
        }
        board_unmake_move(b);
    }
    return problems;
}

/* Walks the tree to `depth` below each perft.epd position. */
static int walk(Board *b, int depth)
{
    int problems = check_generator(b);
    if (depth == 0 || problems)
        return problems;
    MoveList list;
    generate_legal(b, &list);
    for (int i = 0; i < list.count && !problems; i++) {
        board_make_move(b, list.moves[i]);
        problems += walk(b, depth - 1);
        board_unmake_move(b);
    }
    return problems;
}

Test(movegen, noisy_and_quiet_partition_the_legal_moves)
{
    int count;
    EpdEntry *entries = epd_load("perft.epd", &count);
    Board *b = calloc(1, sizeof *b);
    cr_assert_not_null(b);
    int problems = 0;
    for (int i = 0; i < count; i++) {
        board_load(b, entries[i].fen);
        problems += walk(b, test_light() ? 1 : 2);
    }
    free(b);
    free(entries);
    cr_assert_eq(problems, 0, "%d generator problems (see the log above)", problems);
}

/* move_is_legal (which the search uses on moves from its tables) must agree
 * with the generator on every possible 16-bit move of the normal kind —
 * including junk promotion bits — and on every generated special move. */
static int check_move_is_legal(const Board *b, bool every_value)
{
    Move legal[MAX_MOVES];
    int n = generate_moves(b, GEN_ALL, legal), problems = 0;
    bool is_legal[1 << 14] = { false };
    for (int i = 0; i < n; i++) {
        if (move_kind(legal[i]) == MOVE_NORMAL)
            is_legal[legal[i]] = true;
        else if (!move_is_legal(b, legal[i]))
            problems++;
    }
    int limit = every_value ? 1 << 14 : 1 << 12; /* kind MOVE_NORMAL is 0: values below 2^14 */
    for (int v = 0; v < limit; v++)
        if (move_is_legal(b, (Move)v) != is_legal[v]) {
            char fen[128], text[MOVE_TEXT_SIZE];
            board_get_fen(b, fen, sizeof fen);
            move_to_coordinate((Move)v, text);
            cr_log_error("%s: move_is_legal(%s, value %d) is %d, the generator says %d", fen, text, v,
                         !is_legal[v], is_legal[v]);
            if (++problems > 20)
                break;
        }
    if (move_is_legal(b, MOVE_NONE) || move_is_legal(b, MOVE_NULL))
        problems++;
    return problems;
}

Test(movegen, move_is_legal_agrees_with_the_generator)
{
    int count;
    EpdEntry *entries = epd_load("perft.epd", &count);
    Board *b = calloc(1, sizeof *b);
    cr_assert_not_null(b);
    int problems = 0;
    for (int i = 0; i < count && problems <= 20; i++) {
        board_load(b, entries[i].fen);
        problems += check_move_is_legal(b, true);
        if (test_light())
            continue;
        MoveList list;
        generate_legal(b, &list);
        for (int j = 0; j < list.count; j++) {
            board_make_move(b, list.moves[j]);
            problems += check_move_is_legal(b, false);
            board_unmake_move(b);
        }
    }
    free(b);
    free(entries);
    cr_assert_eq(problems, 0, "move_is_legal disagrees with the generator %d times (see the log above)", problems);
}

/* Spot checks of the generator's trickiest rules, each with a count that a
 * wrong rule would change. */
Test(movegen, special_rules)
{
    static const struct { const char *fen; int moves; const char *why; } CASES[] = {
        { "8/8/8/K1pP3r/8/8/8/7k w - c6 0 1", 5, "e.p. that would expose the king along the rank is illegal" },
        { "8/8/8/2k5/2pP4/8/B7/4K3 b - d3 0 1", 8, "e.p. that removes the checking pawn is legal" },
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 26, "both castlings available" },
        { "r3k2r/8/8/8/8/8/8/R3K1r1 w Qkq - 0 1", 3, "in check from g1: no O-O-O, only Kd2 Ke2 Kf2" },
        { "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", 26, "both white castlings" },
        { "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", 22, "f1 attacked stops O-O, not O-O-O" },
        { "4k3/8/8/8/8/8/8/R3K2R w - - 0 1", 24, "no rights, no castling" },
        { "1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1", 16, "b1 attacked does not stop O-O-O" },
        { "2r1k3/8/8/8/8/8/8/R3K3 w Q - 0 1", 15, "c1 attacked stops O-O-O" },
        { "4k3/8/8/8/8/8/8/RN2K3 w Q - 0 1", 15, "b1 occupied stops O-O-O" },
        { "3k4/8/8/8/8/8/8/R3K1r1 w Q - 0 1", 3, "check along the first rank: the king must leave it" },
    };
    Board *b = calloc(1, sizeof *b);
    cr_assert_not_null(b);
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        board_load(b, CASES[i].fen);
        MoveList list;
        generate_legal(b, &list);
        cr_expect_eq(list.count, CASES[i].moves, "%s: %d moves, expected %d (%s)", CASES[i].fen, list.count,
                     CASES[i].moves, CASES[i].why);
    }
    free(b);
}
