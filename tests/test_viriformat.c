/* test_viriformat.c — the stored form of a self-play game: the start board
 * and every move round-trip over the perft suite and Chess960 positions,
 * the bytes follow the viriformat specification, and `bachess records`
 * refuses a game that is cut off or plays an illegal move. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "support.h"
#include "tools/records_cmd.h"
#include "tools/viriformat.h"

TestSuite(viriformat, .init = board_init);

static void same_position(const Board *a, const Board *b, const char *fen)
{
    char fa[128], fb[128];
    board_get_fen(a, fa, sizeof fa);
    board_get_fen(b, fb, sizeof fb);
    cr_assert_str_eq(fa, fb, "%s", fen);
    cr_assert_eq(board_key(a), board_key(b), "%s: another key (castling rights or en passant)", fen);
}

static void board_round_trip(const char *file, bool chess960)
{
    int count;
    char(*fens)[FEN_SIZE] = load_fens(file, &count);
    Board *b = malloc(sizeof *b), *back = malloc(sizeof *back);
    for (int i = 0; i < count; i++) {
        chess960 ? board_load_960(b, fens[i]) : board_load(b, fens[i]);
        ViriBoard stored;
        viri_board_write(&stored, b, i % 3);
        int result = -1;
        char error[128];
        cr_assert(viri_board_read(&stored, back, &result, error, sizeof error), "%s: %s", fens[i], error);
        same_position(b, back, fens[i]);
        cr_assert_eq(result, i % 3);
    }
    free(b), free(back), free(fens);
}

Test(viriformat, start_boards_round_trip_over_the_perft_suite)
{
    board_round_trip("perft.epd", false);
}

Test(viriformat, start_boards_round_trip_in_chess960)
{
    board_round_trip("chess960/midgame.epd", true);
}

static void encode_and_decode(Board *b, Move m, const char *fen, void *context)
{
    (void)context;
    uint16_t stored = viri_move_encode(b, m);
    cr_assert_eq(viri_move_decode(b, stored), m, "%s: move %#06x stored as %#06x", fen, m, stored);
    if (move_kind(m) == MOVE_CASTLING)
        cr_assert_eq((stored >> 6) & 63, board_castling_move(b, m).rook_from, "%s: castling is king takes rook", fen);
}

Test(viriformat, every_legal_move_round_trips)
{
    cr_assert_gt(for_each_suite_move("perft.epd", encode_and_decode, NULL), 1000);
}

/* The layout of the specification: the start position, White to move, a
 * draw; then 1. e4 scored +10 and the terminator. */
Test(viriformat, bytes_follow_the_specification)
{
    Board *b = board_from_fen(START_FEN);
    ViriBoard stored;
    viri_board_write(&stored, b, 1);
    static const uint8_t expected[VIRI_BOARD_SIZE] = {
        0xff, 0xff, 0, 0, 0, 0, 0xff, 0xff,                 /* occupancy */
        0x16, 0x42, 0x25, 0x61, 0, 0, 0, 0,                 /* RNBQKBNR (rooks that castle: 6), pawns */
        0x88, 0x88, 0x88, 0x88, 0x9e, 0xca, 0xad, 0xe9,     /* black pawns and pieces (+8) */
        64, 0, 1, 0, 0, 0, 1, 0,                            /* no e.p., White; clocks; score; draw */
    };
    cr_assert(memcmp(stored.bytes, expected, sizeof expected) == 0, "the start board's bytes");
    Move e4 = make_move(E2, E4);
    uint8_t ply[VIRI_PLY_SIZE];
    viri_ply_bytes((ViriPly){ viri_move_encode(b, e4), 10 }, ply);
    cr_assert(ply[0] == 0x0c && ply[1] == 0x07 && ply[2] == 10 && ply[3] == 0, "1. e4 +10");
    viri_ply_bytes((ViriPly){ 0, -2 }, ply);
    cr_assert(ply[2] == 0xfe && ply[3] == 0xff, "a negative score, little-endian");
    cr_assert_eq(viri_ply_from_bytes(ply).white_score, -2);
    free(b);
}

/* A game of `plies` moves from the start position (1. e4 e5 2. Nf3 ...), terminated unless `cut`. */
static size_t write_game(uint8_t *out, const Move *moves, int plies, bool cut)
{
    Board *b = board_from_fen(START_FEN);
    ViriBoard start;
    viri_board_write(&start, b, 2);
    memcpy(out, start.bytes, sizeof start.bytes);
    size_t n = sizeof start.bytes;
    for (int i = 0; i < plies; i++) {
        viri_ply_bytes((ViriPly){ viri_move_encode(b, moves[i]), (int16_t)(i * 7) }, out + n);
        n += VIRI_PLY_SIZE;
        board_make_move(b, moves[i]);
    }
    if (!cut) {
        memset(out + n, 0, VIRI_PLY_SIZE);
        n += VIRI_PLY_SIZE;
    }
    free(b);
    return n;
}

static int expand(const uint8_t *bytes, size_t size, RecordsCount *count, char *error, size_t error_size)
{
    FILE *in = fmemopen((void *)bytes, size, "rb"), *out = fopen("/dev/null", "wb");
    cr_assert(in && out);
    int status = records_from_games(in, out, count, error, error_size);
    fclose(in), fclose(out);
    return status;
}

Test(viriformat, records_refuse_a_cut_or_illegal_game)
{
    const Move moves[] = { make_move(E2, E4), make_move(E7, E5), make_move(G1, F3) };
    uint8_t bytes[256];
    RecordsCount count;
    char error[256] = "";
    size_t size = write_game(bytes, moves, 3, false);
    size += write_game(bytes + size, moves, 2, false);
    cr_assert_eq(expand(bytes, size, &count, error, sizeof error), 0, "%s", error);
    cr_assert(count.games == 2 && count.plies == 5 && count.records == 5, "%lld games, %lld plies, %lld records",
              (long long)count.games, (long long)count.plies, (long long)count.records);

    size = write_game(bytes, moves, 3, true);
    cr_assert_eq(expand(bytes, size, &count, error, sizeof error), 1);
    cr_assert(strstr(error, "game 1: cut off at ply 3"), "%s", error);

    size = write_game(bytes, moves, 3, false);
    bytes[VIRI_BOARD_SIZE + VIRI_PLY_SIZE] ^= 1; /* 1... e5 becomes a move from another square */
    cr_assert_eq(expand(bytes, size, &count, error, sizeof error), 1);
    cr_assert(strstr(error, "game 1, ply 1: move"), "%s", error);

    size = write_game(bytes, moves, 1, false);
    bytes[8] = 0x77; /* a piece code of 7 */
    cr_assert_eq(expand(bytes, size, &count, error, sizeof error), 1);
    cr_assert(strstr(error, "game 1: not a board"), "%s", error);

    /* Rooks that may castle off their back rank, or more than two of a
     * colour (once an overflow of the castling field, found by fuzzing). */
    size = write_game(bytes, moves, 1, false);
    bytes[12] = 0x06; /* a2: a white rook that may castle */
    cr_assert_eq(expand(bytes, size, &count, error, sizeof error), 1);
    cr_assert(strstr(error, "castling rook astray"), "%s", error);
    size = write_game(bytes, moves, 1, false);
    bytes[9] = 0x46; /* c1: a third white rook that may castle */
    cr_assert_eq(expand(bytes, size, &count, error, sizeof error), 1);
    cr_assert(strstr(error, "castling rook astray"), "%s", error);
}
