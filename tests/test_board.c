/*
 * test_board.c — the Board: FEN in and out, the incremental Zobrist key,
 * exact make/unmake (moves and null moves), and repetition detection.
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "notation.h"
#include "support.h"
#include "zobrist.h"

TestSuite(board, .init = board_init);

/* ---- en passant oracle --------------------------------------------------- */

/* The legal e.p. captures onto `ep` for the side to move, found without the
 * generator's e.p. logic: every pawn beside the double-pushed one plays the
 * capture, and it counts if the mover's king is then not attacked. */
static int legal_ep_captures(Board *b, Square ep, Move *out)
{
    Color us = b->side;
    Square pushed = (Square)(ep - pawn_push(us));
    int n = 0;
    for (int df = -1; df <= 1; df += 2) {
        int file = square_file(pushed) + df;
        if (file < 0 || file > 7)
            continue;
        Square from = make_square(file, square_rank(pushed));
        if (board_piece_on(b, from) != make_piece(us, PAWN))
            continue;
        Move m = make_special(from, ep, MOVE_EN_PASSANT, KNIGHT);
        board_make_move(b, m);
        bool safe = !board_square_attacked(b, board_king(b, us), b->side);
        board_unmake_move(b);
        if (safe)
            out[n++] = m;
    }
    return n;
}

/* The e.p. moves the generator gives with `ep` forced into the state record. */
static int generated_ep_captures(Board *b, Square ep, Move *out)
{
    BoardState *st = &b->states[b->state_index];
    uint8_t saved_ep = st->ep_square;
    Key saved_key = st->key;
    st->ep_square = (uint8_t)ep;
    st->key = board_compute_key(b);
    Move moves[MAX_MOVES];
    int count = generate_moves(b, GEN_ALL, moves), n = 0;
    for (int i = 0; i < count; i++)
        if (move_kind(moves[i]) == MOVE_EN_PASSANT)
            out[n++] = moves[i];
    st->ep_square = saved_ep;
    st->key = saved_key;
    return n;
}

static bool same_move_sets(const Move *a, int na, const Move *b, int nb)
{
    if (na != nb)
        return false;
    for (int i = 0; i < na; i++) {
        bool found = false;
        for (int j = 0; j < nb; j++)
            found |= a[i] == b[j];
        if (!found)
            return false;
    }
    return true;
}

/* Splits a FEN into its space-separated fields; returns the count. */
static int fen_fields(const char *fen, char fields[6][96])
{
    int n = 0;
    const char *p = fen;
    while (*p && n < 6) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        size_t len = strcspn(p, " ");
        snprintf(fields[n], 96, "%.*s", (int)len, p);
        n++;
        p += len;
    }
    return n;
}

/* ---- FEN round trip ------------------------------------------------------- */

/* Parses and writes every FEN of `file`; returns the number of problems. The
 * e.p. field may differ only by being dropped, and only when no e.p.
 * capture is legal. Counts the kept and dropped e.p. squares seen. */
static int round_trip_file(const char *file, int *kept, int *dropped)
{
    int count, problems = 0;
    EpdEntry *entries = epd_load(file, &count);
    Board *b = calloc(1, sizeof *b);
    cr_assert_not_null(b);
    for (int i = 0; i < count; i++) {
        const char *in = entries[i].fen;
        board_load(b, in);
        char out[128];
        board_get_fen(b, out, sizeof out);
        if (strcmp(in, out) == 0) {
            if (board_state(b)->ep_square != NO_SQUARE) {
                Move oracle[2], generated[2];
                Square ep = (Square)board_state(b)->ep_square;
                int n_oracle = legal_ep_captures(b, ep, oracle);
                int n_gen = generated_ep_captures(b, ep, generated);
                if (n_oracle == 0 || !same_move_sets(oracle, n_oracle, generated, n_gen)) {
                    cr_log_error("%s:%d: kept e.p. square in \"%s\": %d legal captures, %d generated", file,
                                 entries[i].line, in, n_oracle, n_gen);
                    problems++;
                }
                (*kept)++;
            }
            continue;
        }
        char fin[6][96], fout[6][96];
        int nin = fen_fields(in, fin), nout = fen_fields(out, fout);
        bool only_ep = nin == 6 && nout == 6 && strcmp(fout[3], "-") == 0 && strcmp(fin[3], "-") != 0;
        for (int f = 0; f < 6 && only_ep; f++)
            only_ep = f == 3 || strcmp(fin[f], fout[f]) == 0;
        if (!only_ep) {
            cr_log_error("%s:%d: FEN round trip: \"%s\" came back as \"%s\"", file, entries[i].line, in, out);
            problems++;
            continue;
        }
        Square ep = make_square(fin[3][0] - 'a', fin[3][1] - '1');
        Move oracle[2], generated[2];
        int n_oracle = legal_ep_captures(b, ep, oracle);
        int n_gen = generated_ep_captures(b, ep, generated);
        if (n_oracle != 0 || n_gen != 0) {
            cr_log_error("%s:%d: e.p. square %s dropped from \"%s\" but %d captures are legal (%d generated)",
                         file, entries[i].line, fin[3], in, n_oracle, n_gen);
            problems++;
        }
        (*dropped)++;
    }
    free(b);
    free(entries);
    return problems;
}

Test(board, fen_round_trip_perft_suite)
{
    int kept = 0, dropped = 0;
    int problems = round_trip_file("perft.epd", &kept, &dropped);
    cr_assert_eq(problems, 0, "%d FEN round-trip problems (see the log above)", problems);
    /* Every e.p. square in the suite is capturable; dropped ones are tested
     * by en_passant_field_kept_only_when_capturable. */
    cr_assert_gt(kept, 0, "no kept e.p. square was checked");
}

Test(board, fen_round_trip_marcel)
{
    int kept = 0, dropped = 0;
    int problems = round_trip_file("perft_marcel.epd", &kept, &dropped);
    cr_assert_eq(problems, 0, "%d FEN round-trip problems (see the log above)", problems);
    cr_assert_gt(kept + dropped, 0, "no e.p. square was checked");
}

/* Hand-made e.p. cases, each with the field expected after parsing. */
Test(board, en_passant_field_kept_only_when_capturable)
{
    static const struct { const char *fen, *ep; } CASES[] = {
        { "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "d6" },          /* plain capture */
        { "4k3/8/8/3p4/8/8/8/4K3 w - d6 0 2", "-" },            /* no white pawn beside */
        { "4k3/8/8/3p3P/8/8/8/4K3 w - d6 0 2", "-" },           /* a pawn, but not beside */
        { "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2", "-" },            /* capture would expose the king on the rank */
        { "8/8/8/K2pPP1r/8/8/8/7k w - d6 0 2", "d6" },          /* another piece still shields it */
        { "7k/8/8/3pP3/8/8/8/K7 w - d6 0 2", "d6" },
        { "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1", "d3" },          /* black captures */
        { "4k3/4r3/8/3pP3/8/8/8/4K3 w - d6 0 2", "-" },          /* e5 pawn pinned on the file */
        { "4k3/8/8/2bpP3/8/8/8/K7 w - d6 0 2", "d6" },          /* a diagonal pin elsewhere does not matter */
        { "4k3/8/8/3pP3/8/8/8/K2q4 w - d6 0 2", "-" },          /* in check from d1: e.p. does not help */
        { "4k3/8/8/3pP3/8/5n2/8/4K3 w - d6 0 2", "-" },         /* in check by a knight: e.p. does not help */
        { "4k3/8/8/3pP3/8/8/5p2/4K3 w - d6 0 2", "-" },         /* in check by another pawn */
        { "4k3/8/8/3pP3/2K5/8/8/8 w - d6 0 2", "d6" },          /* the pushed pawn checks: e.p. removes it */
    };
    Board *b = calloc(1, sizeof *b);
    cr_assert_not_null(b);
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        board_load(b, CASES[i].fen);
        char out[128], fields[6][96];
        board_get_fen(b, out, sizeof out);
        fen_fields(out, fields);
        cr_expect_str_eq(fields[3], CASES[i].ep, "%s: e.p. field became %s", CASES[i].fen, fields[3]);
        /* the generator's e.p. captures, with the square forced in, are the
         * legal ones: the field and the moves follow one rule */
        char given[6][96];
        fen_fields(CASES[i].fen, given);
        Square ep = make_square(given[3][0] - 'a', given[3][1] - '1');
        Move oracle[2], generated[2];
        int n_oracle = legal_ep_captures(b, ep, oracle), n_generated = generated_ep_captures(b, ep, generated);
        cr_expect(same_move_sets(oracle, n_oracle, generated, n_generated),
                  "%s: %d legal e.p. captures, %d generated", CASES[i].fen, n_oracle, n_generated);
        cr_expect_eq(n_oracle > 0, strcmp(CASES[i].ep, "-") != 0, "%s: kept field and legal captures disagree",
                     CASES[i].fen);
        /* a useless e.p. square must not change the key */
        char stripped[128];
        snprintf(stripped, sizeof stripped, "%s", CASES[i].fen);
        char *ep_field = strstr(stripped, " - ") + 3;
        ep_field[0] = '-';
        memmove(ep_field + 1, ep_field + 2, strlen(ep_field + 2) + 1);
        Board *plain = board_from_fen(stripped);
        if (strcmp(CASES[i].ep, "-") == 0)
            cr_expect_eq(board_key(b), board_key(plain), "%s: useless e.p. square changed the key", CASES[i].fen);
        else
            cr_expect_neq(board_key(b), board_key(plain), "%s: e.p. square not in the key", CASES[i].fen);
        free(plain);
    }
    free(b);
}

/* The same e.p. rule after a real double push. */
Test(board, en_passant_after_double_push)
{
    Board *b = board_from_fen("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    board_play(b, "d5");
    cr_assert_eq(board_state(b)->ep_square, D6);
    cr_assert_eq(board_key(b), board_compute_key(b));
    board_unmake_move(b);
    board_play(b, "Kd8 e6 d5"); /* no white pawn beside d5: e.p. square not kept */
    cr_assert_eq(board_state(b)->ep_square, NO_SQUARE);
    cr_assert_eq(board_key(b), board_compute_key(b));
    free(b);
}

/* ---- incremental key and exact make/unmake ------------------------------- */

typedef struct {
    Bitboard by_type[PIECE_TYPE_NB];
    Bitboard by_color[COLOR_NB];
    uint8_t squares[SQUARE_NB];
    Color side;
    int game_ply, state_index;
    BoardState state;
    char fen[128];
} Snapshot;

static void snapshot_take(const Board *b, Snapshot *s)
{
    memcpy(s->by_type, b->by_type, sizeof s->by_type);
    memcpy(s->by_color, b->by_color, sizeof s->by_color);
    memcpy(s->squares, b->squares, sizeof s->squares);
    s->side = b->side;
    s->game_ply = b->game_ply;
    s->state_index = b->state_index;
    s->state = *board_state(b);
    board_get_fen(b, s->fen, sizeof s->fen);
}

static bool same_state(const BoardState *a, const BoardState *b)
{
    return a->key == b->key && a->pawn_key == b->pawn_key && a->checkers == b->checkers && a->move == b->move
        && a->castling == b->castling && a->ep_square == b->ep_square && a->captured == b->captured && a->rule50 == b->rule50
        && a->plies_from_null == b->plies_from_null;
}

/* Fails the test, naming `what`, if the board differs from the snapshot. */
static void snapshot_expect(const Board *b, const Snapshot *s, const char *what)
{
    char fen[128];
    board_get_fen(b, fen, sizeof fen);
    cr_assert_str_eq(fen, s->fen, "%s: FEN %s, expected %s", what, fen, s->fen);
    cr_assert(memcmp(b->by_type, s->by_type, sizeof s->by_type) == 0, "%s: type bitboards differ (%s)", what, fen);
    cr_assert(memcmp(b->by_color, s->by_color, sizeof s->by_color) == 0, "%s: colour bitboards differ (%s)", what, fen);
    cr_assert(memcmp(b->squares, s->squares, sizeof s->squares) == 0, "%s: mailbox differs (%s)", what, fen);
    cr_assert_eq(b->side, s->side, "%s: side differs (%s)", what, fen);
    cr_assert_eq(b->game_ply, s->game_ply, "%s: game_ply %d, expected %d", what, b->game_ply, s->game_ply);
    cr_assert_eq(b->state_index, s->state_index, "%s: state_index %d, expected %d", what, b->state_index,
                 s->state_index);
    cr_assert(same_state(board_state(b), &s->state), "%s: state record differs (%s)", what, fen);
}

/* The redundant parts of the board agree with each other and with a board
 * parsed afresh from its own FEN. */
static void expect_consistent(const Board *b, const char *what)
{
    char fen[128];
    board_get_fen(b, fen, sizeof fen);
    cr_assert_eq(board_key(b), board_compute_key(b), "%s: incremental key differs from computed key in %s", what,
                 fen);
    cr_assert_eq(board_pawn_key(b), board_compute_pawn_key(b), "%s: incremental pawn key differs from computed in %s",
                 what, fen);
    Bitboard by_type[PIECE_TYPE_NB] = { 0 }, by_color[COLOR_NB] = { 0 };
    for (Square s = A1; s < SQUARE_NB; s++) {
        Piece p = board_piece_on(b, s);
        if (p == NO_PIECE)
            continue;
        cr_assert_lt(p, PIECE_NB, "%s: bad piece %d on square %d", what, p, s);
        by_type[piece_type(p)] |= square_bb(s);
        by_color[piece_color(p)] |= square_bb(s);
    }
    cr_assert(memcmp(by_type, b->by_type, sizeof by_type) == 0, "%s: type bitboards disagree with mailbox in %s",
              what, fen);
    cr_assert(memcmp(by_color, b->by_color, sizeof by_color) == 0, "%s: colour bitboards disagree with mailbox in %s",
              what, fen);
    Color us = b->side;
    Bitboard checkers = board_attackers_to(b, board_king(b, us), board_occupied(b)) & b->by_color[color_flip(us)];
    cr_assert_eq(board_checkers(b), checkers, "%s: stale checkers in %s", what, fen);

    Board *fresh = board_from_fen(fen);
    cr_assert_eq(board_key(fresh), board_key(b), "%s: key differs from the key of its own FEN %s", what, fen);
    cr_assert_eq(board_pawn_key(fresh), board_pawn_key(b), "%s: pawn key differs from its own FEN %s", what, fen);
    cr_assert_eq(board_checkers(fresh), board_checkers(b), "%s: checkers differ from its own FEN %s", what, fen);
    cr_assert_eq(board_state(fresh)->castling, board_state(b)->castling);
    cr_assert_eq(board_state(fresh)->ep_square, board_state(b)->ep_square);
    free(fresh);
}

enum { PLAYOUTS = 200, LIGHT_PLAYOUTS = 60, PLAYOUT_PLIES = 300 };

Test(board, random_playouts_keep_key_and_unmake_exact)
{
    int n_suite, n_marcel;
    EpdEntry *suite = epd_load("perft.epd", &n_suite);
    EpdEntry *marcel = epd_load("perft_marcel.epd", &n_marcel);
    Board *b = calloc(1, sizeof *b);
    Snapshot *history = calloc(PLAYOUT_PLIES + 1, sizeof *history);
    cr_assert(b && history);
    TestRng rng = { 20261122 };
    int playouts = test_light() ? LIGHT_PLAYOUTS : PLAYOUTS;
    long plies = 0, nulls = 0;

    for (int game = 0; game < playouts; game++) {
        /* start from the suite's edge cases and marcel's middlegames in turn */
        const char *start = game == 0      ? START_FEN
                          : game % 2 == 1 ? suite[rng_below(&rng, n_suite)].fen
                                          : marcel[rng_below(&rng, n_marcel)].fen;
        board_load(b, start);
        Snapshot initial;
        snapshot_take(b, &initial);
        int ply = 0;
        for (; ply < PLAYOUT_PLIES; ply++) {
            char what[64];
            snprintf(what, sizeof what, "game %d ply %d", game, ply);
            expect_consistent(b, what);
            snapshot_take(b, &history[ply]);

            /* A null move where legal, undone at once. */
            if (!board_in_check(b) && rng_below(&rng, 4) == 0) {
                board_make_null(b);
                expect_consistent(b, "after null move");
                cr_assert_eq(board_state(b)->ep_square, NO_SQUARE, "null move kept an e.p. square");
                board_unmake_null(b);
                snapshot_expect(b, &history[ply], "after null move undone");
                nulls++;
            }

            /* the game ends at mate, stalemate or the fifty-move rule */
            MoveList list;
            generate_legal(b, &list);
            if (list.count == 0 || board_is_fifty_move_draw(b))
                break;
            board_make_move(b, list.moves[rng_below(&rng, list.count)]);
            plies++;
        }
        for (int back = ply - 1; back >= 0; back--) {
            board_unmake_move(b);
            char what[64];
            snprintf(what, sizeof what, "game %d unmaking to ply %d", game, back);
            snapshot_expect(b, &history[back], what);
        }
        snapshot_expect(b, &initial, "after unwinding the whole game");
    }
    free(history);
    free(b);
    free(suite);
    free(marcel);
    cr_log_info("%d playouts, %ld plies, %ld null moves", playouts, plies, nulls);
    cr_assert_gt(plies, 1000, "playouts too short to test anything");
    cr_assert_gt(nulls, 100, "too few null moves tried");
}

/* A null move in the middle of a game: keys stay right through moves made
 * after it, and unmaking the whole line restores the start. */
Test(board, null_move_inside_a_line)
{
    Board *b = board_from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    Snapshot start;
    snapshot_take(b, &start);
    board_play(b, "a4"); /* b4 pawn may take e.p. on a3 */
    cr_assert_eq(board_state(b)->ep_square, A3);
    board_make_null(b);
    cr_assert_eq(board_state(b)->ep_square, NO_SQUARE);
    cr_assert_eq(board_key(b), board_compute_key(b));
    board_play(b, "O-O O-O Kh1");
    cr_assert_eq(board_key(b), board_compute_key(b));
    char fen[128];
    board_get_fen(b, fen, sizeof fen);
    cr_assert_str_eq(fen, "r4rk1/p1ppqpb1/bn2pnp1/3PN3/Pp2P3/2N2Q1p/1PPBBPPP/R4R1K b - - 4 3");
    board_unmake_move(b);
    board_unmake_move(b);
    board_unmake_move(b);
    board_unmake_null(b);
    board_unmake_move(b);
    snapshot_expect(b, &start, "after unwinding a line with a null move");
    free(b);
}

/* ---- repetition ----------------------------------------------------------- */

Test(board, repetition_counts_earlier_occurrences)
{
    Board *b = board_from_fen(START_FEN);
    cr_assert_eq(board_repetitions(b), 0);
    board_play(b, "Nf3 Nf6 Ng1");
    cr_assert_eq(board_repetitions(b), 0, "the same placement with the other side to move is not a repetition");
    board_play(b, "Ng8");
    cr_assert_eq(board_repetitions(b), 1);
    board_play(b, "Nf3");
    cr_assert_eq(board_repetitions(b), 1, "the position after 1. Nf3 occurred once before");
    board_play(b, "Nf6 Ng1 Ng8");
    cr_assert_eq(board_repetitions(b), 2);
    board_play(b, "e4");
    cr_assert_eq(board_repetitions(b), 0, "a pawn move makes the position new");
    free(b);
}

Test(board, repetition_needs_same_castling_rights)
{
    Board *b = board_from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    board_play(b, "Ke2 Ke7 Ke1 Ke8");
    cr_assert_eq(board_repetitions(b), 0, "castling rights were lost: not the same position");
    board_play(b, "Ke2 Ke7 Ke1 Ke8");
    cr_assert_eq(board_repetitions(b), 1);
    free(b);
}

Test(board, repetition_and_en_passant)
{
    /* After ...d5 white can take e.p.: that position cannot recur. */
    Board *b = board_from_fen("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    board_play(b, "d5 Ke2 Kd7 Ke1 Ke8");
    cr_assert_eq(board_repetitions(b), 0, "the position after ...d5 had an e.p. right");
    board_play(b, "Ke2 Kd7 Ke1 Ke8");
    cr_assert_eq(board_repetitions(b), 1);
    free(b);
    /* Here the e.p. capture would be illegal (pin on the rank), so the
     * position after ...d5 is the same as one without the e.p. right. */
    b = board_from_fen("4k3/3p4/8/K3P2r/8/8/8/8 b - - 0 1");
    board_play(b, "d5");
    cr_assert_eq(board_state(b)->ep_square, NO_SQUARE);
    board_play(b, "Ka4 Kd8 Ka5 Ke8");
    cr_assert_eq(board_repetitions(b), 1, "a useless e.p. right does not make a position different");
    free(b);
}

Test(board, null_move_cuts_repetition_history)
{
    Board *b = board_from_fen(START_FEN);
    board_play(b, "Nf3 Nf6 Ng1 Ng8");
    cr_assert_eq(board_repetitions(b), 1);
    board_make_null(b);
    board_make_null(b);
    cr_assert_eq(board_repetitions(b), 0, "no repetition across a null move");
    board_play(b, "Nf3 Nf6 Ng1 Ng8");
    cr_assert_eq(board_repetitions(b), 1, "repetitions after the null move still count");
    free(b);
}

Test(board, repetition_draw_in_search)
{
    Board *b = board_from_fen(START_FEN);
    board_play(b, "Nf3 Nf6 Ng1 Ng8");
    /* root before the shuffle: one repetition inside the tree is a draw */
    cr_assert(board_is_repetition_draw(b, 5));
    /* root after it: a single earlier occurrence in the game is not */
    cr_assert_not(board_is_repetition_draw(b, 0));
    board_play(b, "Nf3 Nf6 Ng1 Ng8");
    cr_assert(board_is_repetition_draw(b, 0), "third occurrence");
    board_play(b, "Nc3");
    cr_assert_not(board_is_repetition_draw(b, 0));
    free(b);
}

Test(board, long_game_trims_history)
{
    Board *b = board_from_fen(START_FEN);
    for (int i = 0; i < 600; i++) { /* 2,400 plies of knight shuffles */
        board_play(b, "Nf3 Nf6 Ng1 Ng8");
        board_trim_history(b);
        cr_assert_lt(b->state_index, MAX_HISTORY - MAX_PLY, "history not trimmed at game ply %d", b->game_ply);
    }
    cr_assert_eq(b->game_ply, 2400);
    cr_assert_eq(board_key(b), board_compute_key(b));
    cr_assert_geq(board_repetitions(b), 2, "repetitions still seen after trimming");
    char fen[128];
    board_get_fen(b, fen, sizeof fen);
    cr_assert(strncmp(fen, START_FEN, strlen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -")) == 0,
              "position after the shuffles: %s", fen);
    cr_assert_eq(board_fullmove(b), 1201);
    free(b);
}

/* The key predicted for prefetching must be the real one for every normal
 * move that changes no castling right and leaves no en-passant square
 * (castling, promotions, en passant, right-changing moves and double
 * pushes next to an enemy pawn are allowed to differ). */
static void check_key_after(Board *b, Move m, const char *fen, void *context)
{
    Key predicted = board_key_after(b, m);
    int rights = board_state(b)->castling;
    board_make_move(b, m);
    if (move_kind(m) == MOVE_NORMAL && board_state(b)->castling == rights
        && board_state(b)->ep_square == NO_SQUARE) {
        cr_assert_eq(predicted, board_key(b), "%s: move %04x", fen, m);
        (*(int *)context)++;
    }
    board_unmake_move(b);
}

Test(board, key_after_predicts_normal_moves)
{
    int checked = 0;
    for_each_suite_move("perft.epd", check_key_after, &checked);
    cr_assert_gt(checked, 1000);
}

/* ---- the debug build's assertions ------------------------------------------ */

Test(board, consistency_check_sees_a_corrupted_board)
{
    Board *b = board_from_fen(START_FEN);
    cr_assert(board_is_consistent(b));
    b->squares[E4] = W_KNIGHT; /* the mailbox disagrees with the bitboards */
    cr_assert_not(board_is_consistent(b));
    b->squares[E4] = NO_PIECE;
    cr_assert(board_is_consistent(b));
    b->states[b->state_index].key ^= 1; /* a stale key */
    cr_assert_not(board_is_consistent(b));
    free(b);
}

/* In a build with assertions (make debug, run by make debug-tests), a move
 * made on a corrupted board stops the program at once instead of searching
 * on with wrong keys. Optimised builds have no assertions to test. */
#ifndef NDEBUG
Test(board, debug_build_asserts_consistency_after_a_move, .signal = SIGABRT)
{
    Board *b = board_from_fen(START_FEN);
    b->states[b->state_index].key ^= 1;
    board_make_move(b, move_from_coordinate(b, "e2e4"));
    free(b);
}
#endif
