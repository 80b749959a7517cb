/* fuzz_pgn.c — PGN text through the game reader.
 *
 * Every game the reader accepts must replay legally from its start
 * position, and what pgn_write_game makes of it must read back as the same
 * game (same start, same moves, same result). A game it refuses must come
 * with a message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "fuzz_common.h"
#include "games/pgn.h"
#include "movegen.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { GAME_LIMIT = 100000 };

static Board board, reread;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    board_init();
    return 0;
}

static void check_game(const PgnGame *g)
{
    char error[256];
    FUZZ_CHECK(g->move_count >= 0 && g->move_count <= g->plies);
    FUZZ_CHECK(g->tag_count >= 0 && (g->tag_count == 0 || g->tags != NULL));
    for (int i = 0; i < g->tag_count; i++)
        FUZZ_CHECK(g->tags[i].name && g->tags[i].value && pgn_tag(g, g->tags[i].name) != NULL);
    FUZZ_CHECK(memchr(g->fen, '\0', sizeof g->fen) && memchr(g->result, '\0', sizeof g->result));
    FUZZ_CHECK(board_set_fen(&board, g->fen, error, sizeof error));
    for (int i = 0; i < g->move_count; i++) {
        FUZZ_CHECK(fuzz_move_is_legal(&board, g->moves[i]));
        board_make_move(&board, g->moves[i]);
        board_trim_history(&board);
    }
    fuzz_check_board(&board);

    /* Written out and read back: the same game. */
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    FUZZ_CHECK(out != NULL);
    FUZZ_CHECK(pgn_write_game(out, g->tags, g->tag_count, g->fen, g->moves, g->move_count, g->result));
    FUZZ_CHECK(fclose(out) == 0);
    PgnReader *r = pgn_open_text(text, size);
    FUZZ_CHECK(r != NULL);
    const PgnGame *back = NULL;
    PgnError why;
    PgnStatus status = pgn_next(r, &back, &why);
    if (status != PGN_GAME)
        fprintf(stderr, "written game not read back (%s):\n%s\n", status == PGN_BAD_GAME ? why.message : "end", text);
    FUZZ_CHECK(status == PGN_GAME);
    FUZZ_CHECK(back->move_count == g->move_count);
    for (int i = 0; i < g->move_count; i++)
        FUZZ_CHECK(back->moves[i] == g->moves[i]);
    FUZZ_CHECK(board_set_fen(&board, g->fen, error, sizeof error));
    FUZZ_CHECK(board_set_fen(&reread, back->fen, error, sizeof error));
    FUZZ_CHECK(board_key(&board) == board_key(&reread));
    bool decided = strcmp(g->result, "1-0") == 0 || strcmp(g->result, "0-1") == 0 || strcmp(g->result, "1/2-1/2") == 0;
    FUZZ_CHECK(strcmp(back->result, decided ? g->result : "*") == 0);
    FUZZ_CHECK(pgn_next(r, &back, &why) == PGN_END);
    pgn_close(r);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    PgnReader *r = pgn_open_text((const char *)data, size);
    FUZZ_CHECK(r != NULL);
    /* Book building reads only the first plies of each game. */
    if (size > 0 && data[size - 1] == '\v')
        pgn_set_move_limit(r, 8);
    const PgnGame *g = NULL;
    PgnError error;
    PgnStatus status;
    int games = 0;
    while ((status = pgn_next(r, &g, &error)) != PGN_END) {
        FUZZ_CHECK(++games < GAME_LIMIT);
        if (status == PGN_GAME)
            check_game(g);
        else
            FUZZ_CHECK(status == PGN_BAD_GAME && error.message[0] != '\0' && memchr(error.message, '\0', sizeof error.message));
    }
    FUZZ_CHECK(pgn_bytes_read(r) >= 0);
    pgn_close(r);
    return 0;
}
