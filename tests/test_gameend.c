/*
 * test_gameend.c — how a game ends, by game_status(): mate, stalemate, the
 * fifty-move rule, threefold repetition and insufficient material, with the
 * precedence the laws of chess give them.
 */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "movegen.h"
#include "notation.h"
#include "support.h"

TestSuite(gameend, .init = board_init);

static void expect_status(const char *fen, const char *moves, GameStatus want)
{
    Board *b = board_from_fen(fen);
    if (moves)
        board_play(b, moves);
    GameStatus got = game_status(b);
    cr_expect_eq(got, want, "%s after \"%s\": %s, expected %s", fen, moves ? moves : "", game_status_text(got),
                 game_status_text(want));
    free(b);
}

Test(gameend, checkmate)
{
    expect_status("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "Ra8", GAME_CHECKMATE);          /* back rank */
    expect_status(START_FEN, "f3 e5 g4 Qh4", GAME_CHECKMATE);                          /* fool's mate */
    expect_status("7k/8/6KQ/8/8/8/8/8 b - - 0 1", NULL, GAME_ONGOING);                 /* check, Kg8 escapes */
    expect_status("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", NULL, GAME_CHECKMATE);
    expect_status("6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1", NULL, GAME_CHECKMATE);           /* smothered */
    expect_status("4k3/8/8/8/8/8/8/R3K3 b - - 0 1", "Kd7", GAME_ONGOING);
    /* check that can be answered is not mate */
    expect_status("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Ra8", GAME_ONGOING);
    /* mate by the discovered check of an e.p. capture */
    expect_status("8/2N5/8/k2pP2R/8/2N5/8/1R4K1 w - d6 0 2", NULL, GAME_ONGOING);
    expect_status("8/2N5/8/k2pP2R/8/2N5/8/1R4K1 w - d6 0 2", "exd6", GAME_CHECKMATE);
}

Test(gameend, stalemate)
{
    expect_status("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", NULL, GAME_STALEMATE);
    expect_status("k7/8/1Q6/8/8/8/8/7K b - - 0 1", NULL, GAME_STALEMATE);
    expect_status("k7/P7/K7/8/8/8/8/8 b - - 0 1", NULL, GAME_STALEMATE);
    /* the only piece besides the king is pinned across its line of movement */
    expect_status("k1N5/1r6/2Q5/8/8/8/7B/6K1 b - - 0 1", NULL, GAME_STALEMATE);
    /* a pinned rook that can still move along the pin (Rxb6): not stalemate */
    expect_status("1k6/1r6/1Q6/8/8/8/8/K7 b - - 0 1", NULL, GAME_ONGOING);
    /* stalemate on the 100th ply is stalemate, not a fifty-move draw */
    expect_status("7k/5Q2/6K1/8/8/8/8/8 b - - 100 80", NULL, GAME_STALEMATE);
}

Test(gameend, fifty_move_rule)
{
    expect_status("4k3/8/8/8/8/8/8/R3K3 w - - 99 60", NULL, GAME_ONGOING);
    expect_status("4k3/8/8/8/8/8/8/R3K3 w - - 99 60", "Ra2", GAME_FIFTY_MOVES);
    expect_status("4k3/8/8/8/8/8/8/R3K3 w - - 100 60", NULL, GAME_FIFTY_MOVES);
    expect_status("4k3/8/8/8/8/8/8/R3K3 w - - 120 70", NULL, GAME_FIFTY_MOVES);
    /* a pawn move or a capture on the 100th ply resets the count */
    expect_status("4k3/8/8/8/8/8/P7/R3K3 w - - 99 60", "a3", GAME_ONGOING);
    expect_status("4k3/8/8/8/8/8/p7/R3K3 w - - 99 60", "Rxa2", GAME_ONGOING);
    /* mate given on the 100th ply is still mate */
    expect_status("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 60", "Ra8", GAME_CHECKMATE);
    /* and so is a mate standing on the board with the count past 100 */
    expect_status("R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 60", NULL, GAME_CHECKMATE);

    /* counting from the start: 100 quiet plies make the draw, 99 do not */
    Board *b = board_from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    /* (the shuffle also repeats positions; the fifty-move rule is checked first) */
    static const char *SHUFFLE[] = { "Ra2", "Kd7", "Ra1", "Ke8" };
    for (int ply = 0; ply < 99; ply++) {
        board_play(b, SHUFFLE[ply % 4]);
        cr_assert_neq(game_status(b), GAME_FIFTY_MOVES, "fifty-move draw after only %d plies", ply + 1);
    }
    board_play(b, SHUFFLE[99 % 4]);
    cr_assert_eq(board_state(b)->rule50, 100);
    cr_assert_eq(game_status(b), GAME_FIFTY_MOVES, "100 plies without capture or pawn move: %s",
                 game_status_text(game_status(b)));
    free(b);
}

Test(gameend, threefold_repetition)
{
    Board *b = board_from_fen(START_FEN);
    board_play(b, "Nf3 Nf6 Ng1 Ng8");
    cr_assert_eq(game_status(b), GAME_ONGOING, "two occurrences are not threefold");
    board_play(b, "Nf3 Nf6 Ng1");
    cr_assert_eq(game_status(b), GAME_ONGOING);
    board_play(b, "Ng8");
    cr_assert_eq(game_status(b), GAME_THREEFOLD, "start position for the third time: %s",
                 game_status_text(game_status(b)));
    free(b);

    /* a repetition of a position other than the start: after 1. e4 e5 */
    b = board_from_fen(START_FEN);
    board_play(b, "e4 e5 Nf3 Nc6 Ng1 Nb8 Nf3 Nc6 Ng1");
    cr_assert_eq(game_status(b), GAME_ONGOING);
    board_play(b, "Nb8");
    cr_assert_eq(game_status(b), GAME_THREEFOLD);
    free(b);

    /* the same placement with lost castling rights is a different position */
    b = board_from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    board_play(b, "Kf1 Kf8 Ke1 Ke8 Kf1 Kf8 Ke1 Ke8");
    cr_assert_eq(game_status(b), GAME_ONGOING, "castling rights differ from the first occurrence");
    board_play(b, "Kf1 Kf8 Ke1 Ke8");
    cr_assert_eq(game_status(b), GAME_THREEFOLD);
    free(b);

    /* a null move in between cuts the chain (the search's view of history) */
    b = board_from_fen(START_FEN);
    board_play(b, "Nf3 Nf6 Ng1 Ng8");
    board_make_null(b);
    board_make_null(b);
    board_play(b, "Nf3 Nf6 Ng1 Ng8");
    cr_assert_eq(game_status(b), GAME_ONGOING);
    free(b);
}

Test(gameend, insufficient_material)
{
    static const struct { const char *fen; bool insufficient; const char *what; } CASES[] = {
        { "4k3/8/8/8/8/8/8/4K3 w - - 0 1", true, "KK" },
        { "4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true, "KNK" },
        { "4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true, "KBK" },
        { "4kn2/8/8/8/8/8/8/4K3 w - - 0 1", true, "KKN" },
        { "4kb2/8/8/8/8/8/8/4K3 b - - 0 1", true, "KKB" },
        { "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true, "KB vs KB, both bishops on dark squares (c1, f8)" },
        { "5k2/8/8/8/8/8/2b5/4KB2 w - - 0 1", true, "KB vs KB, both on light squares (f1, c2)" },
        { "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", false, "KBB with bishops on both colours" },
        { "4kb2/8/8/8/8/8/8/4KB2 w - - 0 1", false, "KB vs KB on opposite colours (f1 light, f8 dark)" },
        { "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false, "KNN: mate is possible with help" },
        { "4kn2/8/8/8/8/8/8/4KN2 w - - 0 1", false, "KN vs KN" },
        { "4kn2/8/8/8/8/8/8/4KB2 w - - 0 1", false, "KB vs KN" },
        { "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false, "a pawn" },
        { "4k3/4p3/8/8/8/8/8/4K3 w - - 0 1", false, "a black pawn" },
        { "4k3/8/8/8/8/8/8/4KR2 w - - 0 1", false, "a rook" },
        { "4k3/8/8/8/8/8/8/4KQ2 w - - 0 1", false, "a queen" },
        { "4kq2/8/8/8/8/8/8/4K3 w - - 0 1", false, "a black queen" },
        { "4k3/8/8/8/8/8/4P3/4KB2 w - - 0 1", false, "bishop and pawn" },
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        Board *b = board_from_fen(CASES[i].fen);
        GameStatus want = CASES[i].insufficient ? GAME_INSUFFICIENT_MATERIAL : GAME_ONGOING;
        cr_expect_eq(board_insufficient_material(b), CASES[i].insufficient, "%s: %s", CASES[i].what, CASES[i].fen);
        cr_expect_eq(game_status(b), want, "%s: %s gives %s", CASES[i].what, CASES[i].fen,
                     game_status_text(game_status(b)));
        free(b);
    }
    /* reached by a capture in play */
    expect_status("4k3/8/8/r7/8/2B5/8/4K3 w - - 0 1", NULL, GAME_ONGOING);
    expect_status("4k3/8/8/r7/8/2B5/8/4K3 w - - 0 1", "Bxa5", GAME_INSUFFICIENT_MATERIAL);
    expect_status("4k3/8/8/8/8/r1B5/8/4K3 b - - 0 1", "Rxc3", GAME_ONGOING);
    /* a promotion brings material back */
    expect_status("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8=Q", GAME_ONGOING);
    expect_status("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8=N", GAME_INSUFFICIENT_MATERIAL);
}

Test(gameend, status_text)
{
    cr_expect_str_eq(game_status_text(GAME_CHECKMATE), "checkmate");
    cr_expect_str_eq(game_status_text(GAME_STALEMATE), "stalemate");
    cr_expect_str_eq(game_status_text(GAME_FIFTY_MOVES), "fifty-move rule");
    cr_expect_str_eq(game_status_text(GAME_THREEFOLD), "threefold repetition");
    cr_expect_str_eq(game_status_text(GAME_INSUFFICIENT_MATERIAL), "insufficient material");
    cr_expect_str_eq(game_status_text(GAME_ONGOING), "game in progress");
}
