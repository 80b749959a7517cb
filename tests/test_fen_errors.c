/*
 * test_fen_errors.c — board_set_fen refuses every malformed or impossible
 * FEN with a message and leaves the board exactly as it was; well-formed
 * FENs, including the four-field form, are accepted.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "support.h"

TestSuite(fen, .init = board_init);

/* A board in the middle of a game, so that "unchanged" covers history too. */
static Board *board_mid_game(void)
{
    Board *b = board_from_fen(START_FEN);
    board_play(b, "e4 c5 Nf3 d6");
    return b;
}

static void expect_rejected(const char *fen, const char *why)
{
    Board *b = board_mid_game();
    Board *before = malloc(sizeof *before);
    cr_assert_not_null(before);
    memcpy(before, b, sizeof *b);
    char fen_before[128], fen_after[128];
    board_get_fen(b, fen_before, sizeof fen_before);

    char error[256];
    memset(error, 0, sizeof error);
    bool ok = board_set_fen(b, fen, error, sizeof error);
    cr_expect_not(ok, "accepted a FEN with %s: \"%.200s\"", why, fen);
    cr_expect_neq(error[0], '\0', "no error message for %s: \"%.200s\"", why, fen);
    board_get_fen(b, fen_after, sizeof fen_after);
    cr_expect_str_eq(fen_after, fen_before, "board changed by a rejected FEN (%s)", why);
    cr_expect(memcmp(b, before, sizeof *b) == 0, "board memory changed by a rejected FEN (%s)", why);
    free(before);
    free(b);
}

static void expect_accepted(const char *fen, const char *want_out)
{
    Board *b = board_mid_game();
    char error[256] = "";
    cr_assert(board_set_fen(b, fen, error, sizeof error), "rejected \"%s\": %s", fen, error);
    char out[128];
    board_get_fen(b, out, sizeof out);
    cr_expect_str_eq(out, want_out, "\"%s\" read as \"%s\"", fen, out);
    cr_expect_eq(b->state_index, 0, "history not reset");
    cr_expect_eq(board_key(b), board_compute_key(b));
    free(b);
}

Test(fen, field_count)
{
    expect_rejected("", "no fields (empty string)");
    expect_rejected("   ", "only spaces");
    expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "one field");
    expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", "two fields");
    expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "three fields");
    expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "seven fields");
    expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 0 1", "eight fields");
}

Test(fen, placement)
{
    expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "bad piece letter X");
    expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1R w - - 0 1", "nine squares on a rank");
    expect_rejected("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "digit 9");
    expect_rejected("rnbqkbnr/pppppppp/0/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "digit 0");
    expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w Qkq - 0 1", "seven squares on rank 1");
    expect_rejected("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "seven squares on rank 7");
    expect_rejected("rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR3 w KQkq - 0 1", "eleven squares on rank 1");
    expect_rejected("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "seven ranks");
    expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "nine ranks");
    expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1", "a trailing slash");
    expect_rejected("rnbqkbnr//pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "an empty rank");
    expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR-w KQkq - 0 1", "garbage in the placement");
}

Test(fen, kings_and_pawns)
{
    expect_rejected("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "no black king");
    expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", "no white king");
    expect_rejected("8/8/8/8/8/8/8/8 w - - 0 1", "an empty board");
    expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1", "two white kings");
    expect_rejected("k6k/8/8/8/8/8/8/4K3 w - - 0 1", "two black kings");
    expect_rejected("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "a white pawn on rank 1");
    expect_rejected("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "a white pawn on rank 8");
    expect_rejected("4k2p/8/8/8/8/8/8/4K3 w - - 0 1", "a black pawn on rank 8");
    expect_rejected("4k3/8/8/8/8/8/8/4K2p w - - 0 1", "a black pawn on rank 1");
    expect_rejected("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", "nine white pawns");
    expect_rejected("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "nine black pawns");
    expect_rejected("4k3/8/8/8/QQQQQQQQ/QQQQQQQQ/8/4K3 w - - 0 1", "seventeen white pieces");
}

Test(fen, side_to_move)
{
    expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side x");
    expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", "side W");
    expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR wb KQkq - 0 1", "side wb");
    expect_rejected("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", "black in check by a rook, white to move");
    expect_rejected("4k3/8/8/8/8/8/3p4/4K3 b - - 0 1", "white in check by a pawn, black to move");
    expect_rejected("4k3/8/8/8/8/5n2/8/4K3 b - - 0 1", "white in check by a knight, black to move");
    expect_rejected("8/8/8/8/8/8/3k4/3K4 w - - 0 1", "kings side by side");
}

Test(fen, castling_rights)
{
    expect_rejected("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "K without a rook on h1");
    expect_rejected("4k3/8/8/8/8/8/8/R3K3 w K - 0 1", "K with the rook on a1 only");
    expect_rejected("4k3/8/8/8/8/8/8/4K2R w Q - 0 1", "Q without a rook on a1");
    expect_rejected("r3k2r/8/8/8/8/8/8/R2K3R w K - 0 1", "K with the king on d1");
    expect_rejected("r2k3r/8/8/8/8/8/8/R3K2R w k - 0 1", "k with the king on d8");
    expect_rejected("r3k1r1/8/8/8/8/8/8/R3K2R w k - 0 1", "k with the rook on g8");
    expect_rejected("r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1", "a repeated letter");
    expect_rejected("r3k2r/8/8/8/8/8/8/R3K2R w KQkqK - 0 1", "a letter repeated at the end");
    expect_rejected("r3k2r/8/8/8/8/8/8/R3K2R w KX - 0 1", "bad letter X");
    expect_rejected("r3k2r/8/8/8/8/8/8/R3K2R w kqKQ- - 0 1", "a dash after letters");
    expect_rejected("r3k2r/8/8/8/8/8/8/R3K2R w -- - 0 1", "a double dash");
    expect_rejected("r3k2r/8/8/8/8/8/8/R3K2R w AH - 0 1", "Shredder-FEN letters (no Chess960)");
    expect_rejected("r3k2r/8/8/8/8/8/8/r3K2R w Q - 0 1", "Q with a black rook on a1");
}

Test(fen, en_passant_square)
{
    /* the good one for reference: black just played d7-d5 */
    expect_accepted("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    expect_rejected("4k3/8/8/3pP3/8/8/8/4K3 w - d5 0 2", "e.p. square on the pawn (wrong rank)");
    expect_rejected("4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 2", "e.p. square on rank 3 with white to move");
    expect_rejected("4k3/8/8/3pP3/8/8/8/4K3 w - e6 0 2", "no black pawn in front of e6");
    expect_rejected("4k3/8/3n4/3pP3/8/8/8/4K3 w - d6 0 2", "e.p. square occupied");
    expect_rejected("4k3/3n4/8/3pP3/8/8/8/4K3 w - d6 0 2", "pawn's origin square occupied");
    expect_rejected("4k3/8/8/3PP3/8/8/8/4K3 w - d6 0 2", "own pawn in front of the e.p. square");
    expect_rejected("4k3/8/8/8/3Pp3/8/8/4K3 b - d6 0 1", "rank 6 with black to move");
    expect_rejected("4k3/8/8/3pP3/8/8/8/4K3 w - d 0 2", "e.p. square without a rank");
    expect_rejected("4k3/8/8/3pP3/8/8/8/4K3 w - d66 0 2", "e.p. square too long");
    expect_rejected("4k3/8/8/3pP3/8/8/8/4K3 w - i6 0 2", "e.p. file i");
    expect_rejected("4k3/8/8/3pP3/8/8/8/4K3 w - D6 0 2", "capital e.p. file");
    expect_rejected("4k3/8/8/3pP3/8/8/8/4K3 w - 6d 0 2", "e.p. square backwards");
}

Test(fen, move_counters)
{
    const char *base = "4k3/8/8/8/8/8/8/4K2R w K -";
    static const struct { const char *counters, *why; } BAD[] = {
        { "-1 1", "negative halfmove clock" },
        { "0 -1", "negative move number" },
        { "0 0", "move number 0" },
        { "x 1", "non-numeric halfmove clock" },
        { "0 y", "non-numeric move number" },
        { "5a 1", "trailing letter in the halfmove clock" },
        { "0 1.5", "fractional move number" },
        { "+3 1", "plus sign" },
        { "1000 1", "absurd halfmove clock" },
        { "0 99999999999999999999999", "move number overflowing a long" },
        { "99999999999999999999999 1", "halfmove clock overflowing a long" },
        { "0 1000000", "absurd move number" },
        { "151 1", "halfmove clock past 150" },
        { "z", "five fields, non-numeric halfmove clock" },
        { "-", "five fields, a dash for the halfmove clock" },
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        char fen[256];
        snprintf(fen, sizeof fen, "%s %s", base, BAD[i].counters);
        expect_rejected(fen, BAD[i].why);
    }
}

Test(fen, huge_and_odd_strings)
{
    size_t size = 1 << 20;
    char *huge = malloc(size + 1);
    cr_assert_not_null(huge);
    memset(huge, '8', size);
    huge[size] = '\0';
    expect_rejected(huge, "a 1 MB string of digits");
    /* a valid FEN followed by 1 MB of spaces and then garbage */
    memset(huge, ' ', size);
    memcpy(huge, START_FEN, strlen(START_FEN));
    huge[size - 1] = 'x';
    expect_rejected(huge, "a 1 MB string: a FEN, spaces and garbage");
    /* 1 MB of slashes */
    memset(huge, '/', size);
    expect_rejected(huge, "a 1 MB string of slashes");
    free(huge);
    expect_rejected("\n", "a newline");
    expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw\tKQkq\t-\t0\t1\tx", "tab-separated with an extra field");
}

Test(fen, tiny_error_buffer)
{
    Board *b = board_mid_game();
    char error[8];
    memset(error, 'Z', sizeof error);
    cr_expect_not(board_set_fen(b, "nonsense", error, sizeof error));
    cr_expect(memchr(error, '\0', sizeof error) != NULL, "error message not terminated in a small buffer");
    cr_expect_neq(error[0], '\0');
    free(b);
}

Test(fen, good_fens_accepted)
{
    expect_accepted(START_FEN, START_FEN);
    /* four fields: counters default to 0 and 1 */
    expect_accepted("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", START_FEN);
    expect_accepted("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
                    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    expect_accepted("4k3/8/8/8/3Pp3/8/8/4K3 b - d3", "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1");
    /* five fields: the halfmove clock only */
    expect_accepted("4k3/8/8/8/8/8/8/4K2R w K - 7", "4k3/8/8/8/8/8/8/4K2R w K - 7 1");
    /* black to move: the move number gives the game ply */
    expect_accepted("4k3/8/8/8/8/8/8/4K2R b K - 12 40", "4k3/8/8/8/8/8/8/4K2R b K - 12 40");
    /* extra spaces and a trailing newline are fine */
    expect_accepted("  4k3/8/8/8/8/8/8/4K2R   w  K  -  3  9 \n", "4k3/8/8/8/8/8/8/4K2R w K - 3 9");
    /* the side to move may be in check */
    expect_accepted("4k3/8/8/8/8/8/8/4K2r w - - 0 1", "4k3/8/8/8/8/8/8/4K2r w - - 0 1");
    /* castling letters in any order are written in KQkq order */
    expect_accepted("r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    /* a useless e.p. square is dropped */
    expect_accepted("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 2", "4k3/8/8/3p4/8/8/8/4K3 w - - 0 2");
    /* the largest allowed counters */
    expect_accepted("4k3/8/8/8/8/8/8/4K2R w K - 150 9999", "4k3/8/8/8/8/8/8/4K2R w K - 150 9999");
    /* promoted pieces: ten queens are possible */
    expect_accepted("7k/6p1/8/8/8/8/QQQQQQ2/QQQQK1NB w - - 0 60", "7k/6p1/8/8/8/8/QQQQQQ2/QQQQK1NB w - - 0 60");
}
