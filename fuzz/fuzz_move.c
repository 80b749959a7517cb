/* fuzz_move.c — move text in coordinate notation and SAN.
 *
 * The first byte picks one of a few boards (FUZZ_FENS); the rest is words
 * separated by white space. Each word goes through move_from_coordinate,
 * move_from_san and move_parse. A move that parses must be legal, must
 * make and unmake exactly, and must be what move_parse gives (coordinates
 * first, then SAN). The move move_parse gives is then played, so that a
 * word sequence walks through a game. */
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "fuzz_common.h"
#include "movegen.h"
#include "notation.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { PLY_LIMIT = 400 };

static Board board, before;
static Board *boards;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    board_init();
    boards = calloc((size_t)FUZZ_FEN_COUNT, sizeof *boards);
    FUZZ_CHECK(boards != NULL);
    for (int i = 0; i < FUZZ_FEN_COUNT; i++) {
        char error[256];
        FUZZ_CHECK(board_set_fen(&boards[i], FUZZ_FENS[i], error, sizeof error));
    }
    return 0;
}

/* Makes and unmakes m, which must be legal, and checks its text forms. */
static void check_move(Board *b, Move m)
{
    FUZZ_CHECK(fuzz_move_is_legal(b, m));
    char text[MOVE_TEXT_SIZE];
    memcpy(&before, b, sizeof before);
    move_to_san(b, m, text);
    FUZZ_CHECK(fuzz_same_position(b, &before));
    FUZZ_CHECK(move_from_san(b, text) == m);
    move_to_coordinate(m, text);
    FUZZ_CHECK(move_from_coordinate(b, text) == m);
    board_make_move(b, m);
    fuzz_check_board(b);
    board_unmake_move(b);
    FUZZ_CHECK(fuzz_same_position(b, &before));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    int which = data[0] % FUZZ_FEN_COUNT;
    memcpy(&board, &boards[which], sizeof board);
    char *text = fuzz_text(data + 1, size - 1);
    for (char *save = NULL, *word = strtok_r(text, " \t\r\n", &save); word; word = strtok_r(NULL, " \t\r\n", &save)) {
        if (board.state_index >= PLY_LIMIT)
            memcpy(&board, &boards[which], sizeof board);
        Move coordinate = move_from_coordinate(&board, word);
        Move san = move_from_san(&board, word);
        Move parsed = move_parse(&board, word);
        FUZZ_CHECK(parsed == (coordinate != MOVE_NONE ? coordinate : san));
        if (coordinate != MOVE_NONE)
            check_move(&board, coordinate);
        if (san != MOVE_NONE && san != coordinate)
            check_move(&board, san);
        if (parsed == MOVE_NONE)
            continue;
        board_make_move(&board, parsed);
        fuzz_check_board(&board);
        (void)game_status(&board);
        (void)board_is_repetition_draw(&board, 0);
    }
    free(text);
    return 0;
}
