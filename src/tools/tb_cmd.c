/* tb_cmd.c — the `bachess tb` sub-command (see tb_cmd.h). */
#include "tools/tb_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "notation.h"
#include "syzygy/syzygy.h"

static const char *wdl_name(Wdl w)
{
    static const char *NAMES[] = { "loss", "blessed loss", "draw", "cursed win", "win" };
    return NAMES[w + 2];
}

static int usage(void)
{
    fputs("usage: bachess tb probe [--path DIR[:DIR...]] [--no50] FEN|-\n"
          "  WDL and DTZ of the position for the side to move, and each legal move's result\n"
          "  (FEN \"-\" reads one FEN a line from standard input, a blank line after each answer)\n"
          "  (--path defaults to $BACHESS_SYZYGY, else data/syzygy; --no50 ignores the fifty-move rule)\n",
          stderr);
    return 2;
}

int tb_describe_position(const char *fen, bool fifty)
{
    static Board board;
    static SyzygyRoot root;
    char error[256];
    if (!board_set_fen(&board, fen, error, sizeof error)) {
        printf("error: bad FEN: %s\n", error);
        return 2;
    }
    if (legal_move_count_capped(&board, 1) == 0) {
        bool mated = board_in_check(&board);
        printf("WDL %s\nDTZ 0\n%s\n", mated ? "loss" : "draw", mated ? "checkmate" : "stalemate");
        return 0;
    }
    Wdl wdl;
    if (!syzygy_rank_root(&board, fifty, &root)) {
        if (board_state(&board)->rule50 == 0 && syzygy_probe_wdl(&board, &wdl)) {
            printf("WDL %s\nDTZ unknown\n", wdl_name(wdl));
            return 0;
        }
        printf("not in the tables (%d pieces, or castling rights)\n",
               popcount(board_occupied(&board)));
        return 1;
    }
    printf("WDL %s\nDTZ %d\nbest:", wdl_name(root.wdl), root.dtz);
    for (int i = 0; i < root.keep_count; i++) {
        char san[MOVE_TEXT_SIZE];
        move_to_san(&board, root.keep[i], san);
        printf(" %s", san);
    }
    printf("\nmoves:");
    for (int i = 0; i < root.move_count; i++) {
        char san[MOVE_TEXT_SIZE];
        move_to_san(&board, root.moves[i], san);
        printf(" %s=%s", san, wdl_name(root.move_wdl[i]));
    }
    printf("\n");
    return 0;
}

/* With FEN "-", one FEN a line from standard input, each answer followed by
   a blank line: the tables are opened once for a whole file of positions. */
static int probe_stream(bool fifty)
{
    char line[1024];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (*line == '\0')
            continue;
        tb_describe_position(line, fifty);
        printf("\n");
        fflush(stdout);
    }
    return 0;
}

int tb_command(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[0], "probe") != 0)
        return usage();
    const char *path = getenv("BACHESS_SYZYGY") ? getenv("BACHESS_SYZYGY") : "data/syzygy";
    bool fifty = true;
    char fen[512] = "";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--path") == 0 && i + 1 < argc)
            path = argv[++i];
        else if (strcmp(argv[i], "--no50") == 0)
            fifty = false;
        else
            snprintf(fen + strlen(fen), sizeof fen - strlen(fen), "%s%s", *fen ? " " : "", argv[i]);
    }
    char message[512];
    if (syzygy_init(path, message, sizeof message) == 0) {
        fprintf(stderr, "error: %s\n", message);
        return 2;
    }
    if (strcmp(fen, "-") == 0)
        return probe_stream(fifty);
    return tb_describe_position(fen, fifty);
}
