/* fuzz_fen.c — FEN text into board_set_fen (and the Polyglot key of a FEN).
 *
 * A refused FEN must leave the board untouched and say why; an accepted
 * one must give a consistent board whose FEN reads back to the same
 * position, on which every legal move makes and unmakes exactly and
 * survives the notation round trips. */
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "eval.h"
#include "fuzz_common.h"
#include "games/polyglot.h"
#include "movegen.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { POLYGLOT_EN_PASSANT = 772 }; /* the first e.p. number of polyglot_random */

static Board board, again, untouched;
static PawnTable *pawns;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    board_init();
    pawns = pawn_table_create();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char error[256], tiny[6] = "", fen[128], fen2[128];

    /* A refused FEN changes nothing; the verdict does not depend on the
     * size of the error buffer. */
    char start_error[64];
    FUZZ_CHECK(board_set_fen(&board, START_FEN, start_error, sizeof start_error));
    memcpy(&untouched, &board, sizeof board);
    error[0] = '\0';
    bool ok = board_set_fen(&board, text, error, sizeof error);
    FUZZ_CHECK(ok == board_set_fen(&again, text, tiny, sizeof tiny));
    FUZZ_CHECK(strlen(error) < sizeof error && strlen(tiny) < sizeof tiny);
    Key key;
    char key_error[256];
    bool key_ok = polyglot_key_of_fen(text, &key, key_error, sizeof key_error);
    FUZZ_CHECK(key_ok == ok);
    if (!ok) {
        FUZZ_CHECK(*error != '\0');
        FUZZ_CHECK(fuzz_same_position(&board, &untouched));
        free(text);
        return 0;
    }
    /* The key of the FEN may hold an e.p. file that the board left out:
     * Polyglot counts it whenever an enemy pawn stands beside the pushed
     * pawn, legal capture or not (polyglot.h). */
    Key difference = key ^ polyglot_key(&board);
    bool en_passant_part = false;
    for (int file = 0; file < 8; file++)
        en_passant_part |= difference == polyglot_random[POLYGLOT_EN_PASSANT + file];
    FUZZ_CHECK(difference == 0 || (board_state(&board)->ep_square == NO_SQUARE && en_passant_part));
    fuzz_check_board(&board);

    /* The FEN written reads back to the same position and is stable. */
    board_get_fen(&board, fen, sizeof fen);
    FUZZ_CHECK(board_set_fen(&again, fen, error, sizeof error));
    board_get_fen(&again, fen2, sizeof fen2);
    FUZZ_CHECK(strcmp(fen, fen2) == 0);
    FUZZ_CHECK(board_key(&again) == board_key(&board));
    FUZZ_CHECK(polyglot_key(&again) == polyglot_key(&board));

    /* What the engine does with any position it accepts. */
    (void)game_status(&board);
    (void)board_insufficient_material(&board);
    (void)board_is_fifty_move_draw(&board);
    static EvalTrace trace;
    int score = evaluate(&board, pawns);
    FUZZ_CHECK(score == evaluate_traced(&board, &trace));
    FUZZ_CHECK(score >= -EVAL_MAX && score <= EVAL_MAX);
    fuzz_check_moves(&board);
    free(text);
    return 0;
}
