/* perft_cmd.c — the perft and divide sub-commands. */
#include "tools/perft_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "notation.h"
#include "perft.h"
#include "timer.h"

/* Joins argv[from..] into one FEN string. */
static void join_args(int argc, char **argv, int from, char *out, size_t size)
{
    out[0] = '\0';
    for (int i = from; i < argc; i++) {
        if (i > from)
            strncat(out, " ", size - strlen(out) - 1);
        strncat(out, argv[i], size - strlen(out) - 1);
    }
}

int perft_command(int argc, char **argv, bool divide)
{
    if (argc < 1) {
        fprintf(stderr, "usage: bachess %s DEPTH [FEN]\n", divide ? "divide" : "perft");
        return 2;
    }
    char *end;
    long depth = strtol(argv[0], &end, 10);
    if (*end || depth < 1 || depth > 20) {
        fprintf(stderr, "error: depth must be a number from 1 to 20\n");
        return 2;
    }
    char fen[512], error[128];
    join_args(argc, argv, 1, fen, sizeof fen);
    static Board board;
    /* A Chess960 FEN is read as one when normal chess refuses it. */
    if (!board_set_fen(&board, argc > 1 ? fen : START_FEN, error, sizeof error)
        && !board_set_fen_960(&board, fen, true, error, sizeof error)) {
        fprintf(stderr, "error: bad FEN: %s\n", error);
        return 2;
    }

    int64_t start = time_now_ms();
    uint64_t total = 0;
    if (divide) {
        MoveList list;
        generate_legal(&board, &list);
        for (int i = 0; i < list.count; i++) {
            char text[MOVE_TEXT_SIZE];
            move_to_uci(&board, list.moves[i], text);
            board_make_move(&board, list.moves[i]);
            uint64_t n = perft(&board, (int)depth - 1);
            board_unmake_move(&board);
            printf("%s: %llu\n", text, (unsigned long long)n);
            total += n;
        }
    } else {
        total = perft(&board, (int)depth);
    }
    int64_t elapsed = time_now_ms() - start;
    printf("nodes %llu time %lld ms nps %llu\n", (unsigned long long)total, (long long)elapsed,
           (unsigned long long)(total * 1000 / (uint64_t)(elapsed > 0 ? elapsed : 1)));
    return 0;
}
