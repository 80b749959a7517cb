/* main.c — dispatches the sub-commands; without one, the engine starts. */
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "perft.h"

static void usage(void)
{
    puts("bachess — a chess engine\n"
         "usage:\n"
         "  bachess                 start the engine\n"
         "  bachess perft DEPTH [FEN]   count leaf nodes of the move tree\n"
         "  bachess divide DEPTH [FEN]  the same, per root move");
}

int main(int argc, char **argv)
{
    chess_init();
    if (argc > 1 && strcmp(argv[1], "perft") == 0)
        return perft_command(argc - 2, argv + 2, false);
    if (argc > 1 && strcmp(argv[1], "divide") == 0)
        return perft_command(argc - 2, argv + 2, true);
    if (argc > 1) {
        usage();
        return strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 ? 0 : 2;
    }
    usage();
    return 0;
}
