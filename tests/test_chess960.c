/*
 * test_chess960.c — Chess960 rules against Stockfish 15.1's counts and by
 * construction.
 *
 * data/chess960/startpos_even.epd (480 start positions, perft to depth 5)
 * and midgame.epd (200 positions with castling rights after random plies,
 * depth 4) run at every depth (4 and 3 under BACHESS_TEST_LIGHT). Every
 * position of both files then goes through FEN out and in, in X-FEN and in
 * Shredder-FEN; every legal move through coordinates (king-takes-rook, and
 * the king's step where nothing else reads the same) and SAN; and random
 * playouts from every start position check the incremental key against a
 * recomputed one after each move. Hand-made positions cover the castling
 * cases that classical chess never has, and the FENs that must be refused.
 */
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess960.h"
#include "movegen.h"
#include "notation.h"
#include "support.h"

TestSuite(chess960, .init = board_init);

enum { START_CHUNKS = 6, MID_CHUNKS = 2 };

static int start_depth(void) { return test_light() ? 4 : 5; }
static int mid_depth(void) { return test_light() ? 3 : 4; }

#define START_CHUNK(n) \
    Test(chess960, perft_start_chunk_##n) { perft_suite_chunk("chess960/startpos_even.epd", start_depth(), n, START_CHUNKS, true); }
START_CHUNK(0)
START_CHUNK(1)
START_CHUNK(2)
START_CHUNK(3)
START_CHUNK(4)
START_CHUNK(5)

#define MID_CHUNK(n) \
    Test(chess960, perft_midgame_chunk_##n) { perft_suite_chunk("chess960/midgame.epd", mid_depth(), n, MID_CHUNKS, true); }
MID_CHUNK(0)
MID_CHUNK(1)

/* ---- FEN in and out ------------------------------------------------------- */

/* The castling field in Shredder-FEN: each right as its rook's file. */
static void shredder_fen(const Board *b, char *out, size_t size)
{
    char fen[128], rights[8] = "";
    board_get_fen(b, fen, sizeof fen);
    int n = 0;
    for (int right = 0; right < 4; right++)
        if (board_state(b)->castling & (1 << right)) {
            char file = (char)('A' + square_file(b->castle.rook[right]));
            rights[n++] = right < 2 ? file : (char)tolower((unsigned char)file);
        }
    rights[n] = '\0';
    char placement[80], side[2], castling[8], rest[32];
    cr_assert_eq(sscanf(fen, "%79s %1s %7s %31[^\n]", placement, side, castling, rest), 4);
    snprintf(out, size, "%s %s %s %s", placement, side, n ? rights : "-", rest);
}

static void same_position(const Board *a, const Board *b, const char *what)
{
    cr_assert_eq(board_key(a), board_key(b), "%s: keys differ", what);
    cr_assert_eq(board_state(a)->castling, board_state(b)->castling, "%s: rights differ", what);
    for (int right = 0; right < 4; right++)
        if (board_state(a)->castling & (1 << right))
            cr_assert_eq(a->castle.rook[right], b->castle.rook[right], "%s: rook of right %d differs", what, right);
}

static void fen_round_trips(const char *file)
{
    int count;
    EpdEntry *suite = epd_load(file, &count);
    Board *b = calloc(1, sizeof *b), *again = calloc(1, sizeof *again);
    for (int i = 0; i < count; i++) {
        board_load_960(b, suite[i].fen);
        char xfen[128], xfen_again[128], shredder[128];
        board_get_fen(b, xfen, sizeof xfen);
        board_load_960(again, xfen);
        same_position(b, again, xfen);
        board_get_fen(again, xfen_again, sizeof xfen_again);
        cr_assert_str_eq(xfen, xfen_again, "X-FEN out, in and out again changed");
        shredder_fen(b, shredder, sizeof shredder);
        board_load_960(again, shredder);
        same_position(b, again, shredder);
        /* The file's own text is Shredder-FEN: the same up to the counters. */
        cr_assert(strncmp(shredder, suite[i].fen, strlen(suite[i].fen)) == 0, "%s: Shredder-FEN out is %s",
                  suite[i].fen, shredder);
    }
    free(b);
    free(again);
    free(suite);
}

Test(chess960, fen_round_trip_start) { fen_round_trips("chess960/startpos_even.epd"); }
Test(chess960, fen_round_trip_midgame) { fen_round_trips("chess960/midgame.epd"); }

Test(chess960, xfen_names_an_inner_rook_by_its_file)
{
    Board *b = calloc(1, sizeof *b);
    board_load_960(b, "2k5/8/8/8/8/8/8/2K2R1R w F - 0 1");
    char fen[128];
    board_get_fen(b, fen, sizeof fen);
    cr_assert_str_eq(fen, "2k5/8/8/8/8/8/8/2K2R1R w F - 0 1");
    board_load_960(b, "2k5/8/8/8/8/8/8/2K2R1R w K - 0 1");
    cr_assert_eq(b->castle.rook[0], H1, "K must name the outermost rook");
    board_get_fen(b, fen, sizeof fen);
    cr_assert_str_eq(fen, "2k5/8/8/8/8/8/8/2K2R1R w K - 0 1");
    free(b);
}

/* ---- moves as text -------------------------------------------------------- */

typedef struct {
    int castles, classical_forms;
} MoveTextCount;

static void check_move_texts(Board *b, Move m, MoveTextCount *n)
{
    char uci[MOVE_TEXT_SIZE], san[MOVE_TEXT_SIZE];
    move_to_uci(b, m, uci);
    cr_assert_eq(move_from_coordinate(b, uci), m, "%s does not read back", uci);
    move_to_san(b, m, san);
    cr_assert_eq(move_from_san(b, san), m, "SAN %s does not read back", san);
    cr_assert_eq(move_parse(b, san), m, "move_parse(%s)", san);
    if (move_kind(m) != MOVE_CASTLING)
        return;
    n->castles++;
    CastlingMove c = board_castling_move(b, m);
    cr_assert_eq(board_piece_on(b, c.rook_from), make_piece(b->side, ROOK), "%s: no rook on the rook's square", uci);
    char rook_square[3];
    square_to_text(c.rook_from, rook_square);
    cr_assert_str_eq(uci + 2, rook_square, "Chess960 castling %s is not king-takes-rook", uci);
    cr_assert(strncmp(san, square_file(c.king_to) == 6 ? "O-O" : "O-O-O", square_file(c.king_to) == 6 ? 3 : 5) == 0,
              "castling SAN %s", san);
    /* The king's step (e1g1), where no other legal move reads the same. */
    char step[MOVE_TEXT_SIZE];
    move_to_coordinate(m, step);
    MoveList list;
    generate_legal(b, &list);
    bool clash = false;
    for (int i = 0; i < list.count; i++) {
        char other[MOVE_TEXT_SIZE];
        move_to_uci(b, list.moves[i], other);
        clash |= list.moves[i] != m && strcmp(other, step) == 0;
    }
    if (!clash) {
        cr_assert_eq(move_from_coordinate(b, step), m, "the king's step %s for %s", step, uci);
        n->classical_forms++;
    }
}

static void move_texts(const char *file, int want_castles)
{
    int count;
    EpdEntry *suite = epd_load(file, &count);
    Board *b = calloc(1, sizeof *b);
    MoveTextCount n = { 0 };
    int moves = 0;
    for (int i = 0; i < count; i++) {
        board_load_960(b, suite[i].fen);
        MoveList list;
        generate_legal(b, &list);
        for (int k = 0; k < list.count; k++, moves++)
            check_move_texts(b, list.moves[k], &n);
    }
    cr_log_info("%s: %d moves, %d castling moves, %d read in the king's-step form", file, moves, n.castles,
                n.classical_forms);
    cr_assert_geq(n.castles, want_castles, "%s: only %d castling moves", file, n.castles);
    free(b);
    free(suite);
}

/* Start positions have no castling move at once; after a few plies they do. */
Test(chess960, move_texts_midgame) { move_texts("chess960/midgame.epd", 20); }
Test(chess960, move_texts_start) { move_texts("chess960/startpos_even.epd", 0); }

Test(chess960, classical_castling_text_is_unchanged_in_normal_chess)
{
    Board *b = board_from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    char text[MOVE_TEXT_SIZE];
    Move oo = move_from_coordinate(b, "e1g1");
    cr_assert_eq(move_kind(oo), MOVE_CASTLING);
    move_to_uci(b, oo, text);
    cr_assert_str_eq(text, "e1g1");
    cr_assert_eq(move_from_coordinate(b, "e1h1"), oo, "king-takes-rook is read in normal chess too");
    free(b);
}

/* ---- keys over random playouts ------------------------------------------- */

Test(chess960, zobrist_keys_over_random_playouts)
{
    int count;
    EpdEntry *suite = epd_load("chess960/startpos_even.epd", &count);
    Board *b = calloc(1, sizeof *b);
    TestRng rng = { 960 };
    int castles = 0, plies_total = 0;
    int plies = test_light() ? 40 : 120;
    for (int i = 0; i < count; i++) {
        board_load_960(b, suite[i].fen);
        Key start = board_key(b);
        int played = 0;
        for (; played < plies; played++) {
            MoveList list;
            generate_legal(b, &list);
            if (list.count == 0)
                break;
            /* Castle whenever possible: the rare moves are the point. */
            Move m = list.moves[rng_below(&rng, list.count)];
            for (int k = 0; k < list.count; k++)
                if (move_kind(list.moves[k]) == MOVE_CASTLING)
                    m = list.moves[k];
            castles += move_kind(m) == MOVE_CASTLING;
            board_make_move(b, m);
            cr_assert_eq(board_key(b), board_compute_key(b), "%s: key after %d plies", suite[i].fen, played + 1);
            cr_assert(board_is_consistent(b), "%s: board after %d plies", suite[i].fen, played + 1);
        }
        plies_total += played;
        while (played--)
            board_unmake_move(b);
        cr_assert_eq(board_key(b), start, "%s: unmaking every move did not restore the key", suite[i].fen);
    }
    cr_log_info("%d playouts, %d plies, %d castling moves", count, plies_total, castles);
    cr_assert_gt(castles, count / 2, "only %d castling moves in the playouts", castles);
    free(b);
    free(suite);
}

/* ---- the start positions -------------------------------------------------- */

Test(chess960, start_positions_by_number)
{
    int count;
    EpdEntry *suite = epd_load("chess960/startpos_even.epd", &count);
    Board *ours = calloc(1, sizeof *ours), *theirs = calloc(1, sizeof *theirs);
    char fen[128];
    for (int i = 0; i < count; i++) {
        int number;
        cr_assert_eq(sscanf(suite[i].id, "SP %d", &number), 1, "line %d: id '%s'", suite[i].line, suite[i].id);
        cr_assert(chess960_start_fen(number, fen, sizeof fen));
        board_load_960(ours, fen);
        board_load_960(theirs, suite[i].fen);
        same_position(ours, theirs, suite[i].id);
    }
    cr_assert(chess960_start_fen(CHESS960_CLASSICAL, fen, sizeof fen));
    cr_assert_str_eq(fen, START_FEN);
    cr_assert_not(chess960_start_fen(960, fen, sizeof fen));
    cr_assert_not(chess960_start_fen(-1, fen, sizeof fen));
    /* All 960 differ. */
    Key *keys = calloc(CHESS960_POSITIONS, sizeof *keys);
    for (int n = 0; n < CHESS960_POSITIONS; n++) {
        cr_assert(chess960_start_fen(n, fen, sizeof fen));
        board_load_960(ours, fen);
        keys[n] = board_key(ours);
        for (int k = 0; k < n; k++)
            cr_assert_neq(keys[k], keys[n], "start positions %d and %d are the same", k, n);
    }
    free(keys);
    free(ours);
    free(theirs);
    free(suite);
}

/* ---- castling cases normal chess never has -------------------------------- */

static Move castling_move(Board *b, bool kingside)
{
    MoveList list;
    generate_legal(b, &list);
    for (int i = 0; i < list.count; i++)
        if (move_kind(list.moves[i]) == MOVE_CASTLING && (square_file(move_to(list.moves[i])) == 6) == kingside)
            return list.moves[i];
    return MOVE_NONE;
}

/* Castles on `fen`, checks where king and rook stand, and takes it back. */
static void castle_and_check(const char *fen, bool kingside, Square king, Square rook, const char *uci)
{
    Board *b = calloc(1, sizeof *b);
    board_load_960(b, fen);
    Key before = board_key(b);
    Move m = castling_move(b, kingside);
    cr_assert_neq(m, MOVE_NONE, "%s: no %s castling", fen, kingside ? "king's side" : "queen's side");
    char text[MOVE_TEXT_SIZE];
    move_to_uci(b, m, text);
    cr_assert_str_eq(text, uci);
    board_make_move(b, m);
    Color us = color_flip(b->side);
    cr_assert_eq(board_piece_on(b, king), make_piece(us, KING), "%s: king not on its square", fen);
    cr_assert_eq(board_piece_on(b, rook), make_piece(us, ROOK), "%s: rook not on its square", fen);
    cr_assert(board_is_consistent(b));
    cr_assert_eq(board_state(b)->castling & (us == WHITE ? 3 : 12), 0, "rights kept after castling");
    board_unmake_move(b);
    cr_assert_eq(board_key(b), before);
    cr_assert(board_is_consistent(b));
    free(b);
}

Test(chess960, the_king_does_not_move)
{
    castle_and_check("4k3/8/8/8/8/8/8/1R4KR w H - 0 1", true, G1, F1, "g1h1");
}

Test(chess960, the_rook_does_not_move)
{
    castle_and_check("4k3/8/8/8/8/8/8/3RK3 w D - 0 1", false, C1, D1, "e1d1");
}

Test(chess960, king_and_rook_swap_squares)
{
    castle_and_check("4k3/8/8/8/8/8/8/2RK4 w C - 0 1", false, C1, D1, "d1c1");
    castle_and_check("4k3/8/8/8/8/8/8/5KR1 w G - 0 1", true, G1, F1, "f1g1");
}

Test(chess960, the_king_lands_where_the_rook_stood)
{
    castle_and_check("2r1k3/8/8/8/8/8/8/4K3 b c - 0 1", false, C8, D8, "e8c8");
}

Test(chess960, black_castles_too)
{
    castle_and_check("rk5r/8/8/8/8/8/8/4K3 b ha - 0 1", true, G8, F8, "b8h8");
    castle_and_check("rk5r/8/8/8/8/8/8/4K3 b ha - 0 1", false, C8, D8, "b8a8");
}

Test(chess960, castling_refused_through_attack_or_blocked)
{
    Board *b = calloc(1, sizeof *b);
    /* The king's path (c1..f1 on the way to g1) crosses the rook's file d. */
    board_load_960(b, "3r2k1/8/8/8/8/8/8/1K5R w H - 0 1");
    cr_assert_eq(castling_move(b, true), MOVE_NONE, "castled across an attacked square");
    /* Its own rook shields the king's new square from the queen on a1. */
    board_load_960(b, "6k1/8/8/8/8/8/8/qR1K4 w B - 0 1");
    cr_assert_eq(castling_move(b, false), MOVE_NONE, "castled into the queen's line behind the rook");
    /* A piece between the rook and its destination. */
    board_load_960(b, "6k1/8/8/8/8/8/8/R1NK4 w A - 0 1");
    cr_assert_eq(castling_move(b, false), MOVE_NONE, "castled through a knight");
    /* Without those, the same castles are legal. */
    board_load_960(b, "6k1/8/8/8/8/8/8/RR1K4 w A - 0 1");
    cr_assert_eq(castling_move(b, false), MOVE_NONE, "castled through its own other rook");
    board_load_960(b, "6k1/8/8/8/8/8/8/R2K4 w A - 0 1");
    cr_assert_neq(castling_move(b, false), MOVE_NONE);
    free(b);
}

Test(chess960, castling_gives_check_with_the_rook)
{
    Board *b = calloc(1, sizeof *b);
    board_load_960(b, "5k2/8/8/8/8/8/8/1K5R w H - 0 1");
    Move m = castling_move(b, true);
    cr_assert_neq(m, MOVE_NONE);
    cr_assert(move_gives_check(b, m), "O-O puts the rook on f1, checking the king on f8");
    char san[MOVE_TEXT_SIZE];
    move_to_san(b, m, san);
    cr_assert_str_eq(san, "O-O+");
    free(b);
}

/* Each of the FENs is refused with an error that says `why`, and the board
 * (set up before from a good Chess960 position) is left as it was. */
static void assert_refused_and_kept(Board *b, const char *const *fens, size_t count, const char *why)
{
    board_load_960(b, "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1");
    Key before = board_key(b);
    char error[256];
    for (size_t i = 0; i < count; i++) {
        error[0] = '\0';
        cr_assert_not(board_set_fen_960(b, fens[i], true, error, sizeof error), "accepted %s", fens[i]);
        cr_assert(strstr(error, why) != NULL, "%s: unclear error '%s'", fens[i], error);
        cr_assert_eq(board_key(b), before, "%s changed the board", fens[i]);
    }
}

/* ---- FENs to refuse ------------------------------------------------------- */

Test(chess960, bad_castling_rights_are_refused_and_the_board_kept)
{
    static const char *BAD[] = {
        "4k3/8/8/8/8/8/8/4K2R w Q - 0 1",     /* no rook on the king's left */
        "4k3/8/8/8/8/8/8/4K2R w A - 0 1",     /* no rook on the a-file */
        "4k3/8/8/8/8/8/8/R3K3 w K - 0 1",     /* no rook on the king's right */
        "4k3/8/8/8/8/8/8/4KR2 w E - 0 1",     /* the king's own file */
        "4k3/8/8/8/8/8/4K3/7R w H - 0 1",     /* the king off its first rank */
        "4k3/8/8/8/8/8/8/R3K2R w KH - 0 1",   /* one right twice */
        "4k3/8/8/8/8/8/8/R3K2R w KX - 0 1",   /* not a file */
        "4k3/8/8/8/8/8/8/RK5R w KQA - 0 1",   /* the a-rook's right twice, as Q and as A */
    };
    Board *b = calloc(1, sizeof *b);
    assert_refused_and_kept(b, BAD, sizeof BAD / sizeof *BAD, "castling");
    char error[256];
    /* Normal chess refuses a Chess960 layout and says what would read it. */
    cr_assert_not(board_set_fen(b, "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", error, sizeof error));
    cr_assert(strstr(error, "Chess960") != NULL, "error: %s", error);
    free(b);
}

/* Both castling rooks on one side of the king (the king outside its rooks),
 * in either notation: refused with a reason that says so, the board kept. */
Test(chess960, king_outside_its_rooks_is_refused_and_the_board_kept)
{
    static const char *BAD[] = {
        "k7/8/8/8/8/8/8/K2R3R w DH - 0 1",    /* both rooks right of the king */
        "7k/8/8/8/8/8/8/RR5K w AB - 0 1",     /* both left of it */
        "r5rk/8/8/8/8/8/8/1K6 b ga - 0 1",    /* Black's, both left */
    };
    Board *b = calloc(1, sizeof *b);
    assert_refused_and_kept(b, BAD, sizeof BAD / sizeof *BAD, "between its castling rooks");
    char error[256];
    cr_assert_not(board_set_fen_960(b, BAD[0], true, error, sizeof error));
    cr_assert(strstr(error, "d1 and h1") != NULL, "the rooks are not named: '%s'", error);
    /* One right alone on a king in the corner is fine: the rook is on its side. */
    cr_assert(board_set_fen_960(b, "k7/8/8/8/8/8/8/K2R3R w D - 0 1", true, error, sizeof error), "%s", error);
    free(b);
}
