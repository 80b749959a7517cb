/* fuzz_epd.c — EPD lines through epd_parse_line (the `epd` sub-command's parser).
 *
 * Each input line is parsed; a position accepted must be the one its FEN
 * field describes, the bm and am moves must be legal in it and the id a
 * terminated string. */
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "fuzz_common.h"
#include "tools/epd.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static Board board, check;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    board_init();
    return 0;
}

static bool run_line(char *line, void *context)
{
    (void)context;
    EpdLine epd;
    char error[128];
    if (!epd_parse_line(line, &board, &epd, error, sizeof error)) {
        FUZZ_CHECK(memchr(error, '\0', sizeof error) != NULL);
        return true;
    }
    FUZZ_CHECK(*error == '\0');
    FUZZ_CHECK(memchr(epd.fen, '\0', sizeof epd.fen) && memchr(epd.id, '\0', sizeof epd.id));
    FUZZ_CHECK(board_set_fen(&check, epd.fen, error, sizeof error));
    FUZZ_CHECK(board_key(&check) == board_key(&board));
    fuzz_check_board(&board);
    FUZZ_CHECK(epd.best_count >= 0 && epd.best_count <= 8 && epd.avoid_count >= 0 && epd.avoid_count <= 8);
    for (int i = 0; i < epd.best_count; i++)
        FUZZ_CHECK(fuzz_move_is_legal(&board, epd.best[i]));
    for (int i = 0; i < epd.avoid_count; i++)
        FUZZ_CHECK(fuzz_move_is_legal(&board, epd.avoid[i]));
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_for_each_line(data, size, run_line, NULL);
    return 0;
}
