/* main.c — dispatches the sub-commands; without one, the engine starts and
 * the first line of input decides the protocol. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "board.h"
#include "build_info.h"
#include "engine.h"
#include "engine_options.h"
#include "eval.h"
#include "nnue/default_net.h"
#include "platform.h"
#include "protocol/console.h"
#include "protocol/frontend_options.h"
#include "protocol/uci.h"
#include "protocol/xboard.h"
#include "tokens.h"
#include "tools/annotate.h"
#include "tools/bench.h"
#include "tools/datagen.h"
#include "tools/records_cmd.h"
#include "tools/book_cmd.h"
#include "tools/epd.h"
#include "tools/eval_cmd.h"
#include "tools/lab.h"
#include "tools/perft_cmd.h"
#include "tools/tb_cmd.h"
#include "tools/tune.h"
#include "web/web.h"

static void usage(void)
{
    puts("bachess — a chess engine\n"
         "usage:\n"
         "  bachess                       play at the console, or speak UCI / XBoard when the first line is uci / xboard\n"
         "  bachess perft DEPTH [FEN]     count leaf nodes of the move tree\n"
         "  bachess divide DEPTH [FEN]    the same, per root move\n"
         "  bachess eval [--net FILE] [--tb DIRS] [FEN]  the static evaluation, term by term; the network's (built-in or FILE); the tables'\n"
         "  bachess eval --speed EPD [ROUNDS]  evaluations a second over the positions of EPD (a benchmark)\n"
         "  bachess bench [DEPTH [EVAL]]  search signature: fixed positions, fixed depth (EVAL: Classical or NNUE)\n"
         "  bachess epd FILE [MS] [THREADS]  run an EPD test suite (bm/am)\n"
         "  bachess lab [OPTIONS]         game-tree lab: search algorithms on synthetic trees\n"
         "  bachess book build|probe|key|info|dump|walk|read ...  opening books and PGN files\n"
         "  bachess tune extract|run ...  tune the evaluation weights on positions from games (Texel)\n"
         "  bachess web [--port N] [--bind ADDR] [--open]  play and analyse in the browser (http://127.0.0.1:8088/)\n"
         "  bachess datagen --out FILE ...  self-play training data for the NNUE evaluation (--help)\n"
         "  bachess records GAMES OUT  the quiet positions of stored self-play games as training records\n"
         "  bachess annotate GAMES.pgn [--out FILE] [--nodes N | --depth D | --movetime MS] [--threads N] [--side S]\n"
         "                                evaluations, ?! ? ?? marks, better lines and accuracy for every game (--help)\n"
         "  bachess \"genfens N seed S book None|FILE\"  N openings for OpenBench, as 'info string genfens FEN'\n"
         "  bachess tb probe [--path DIRS] [--no50] FEN|-  Syzygy tablebases: WDL, DTZ and the best moves\n"
         "  bachess --version             version, build (ARCH, compiler) and the built-in network\n"
         "  bachess --help                this list (the manual: man 6 bachess)");
}

/* The version, the build and the network built in (README: install). */
static void version(void)
{
    printf("bachess %s\n", build_version());
    printf("build: ARCH=%s, %s\n", build_arch(), build_compiler());
    printf("net: %s (sha256 %s)\n", default_net_name(), default_net_sha256());
}

/* Is the first word of `line` exactly `word`? (Never a prefix match.) */
static bool first_word_is(const char *line, const char *word)
{
    line += strspn(line, " \t");
    size_t len = strcspn(line, " \t\r\n");
    return len == strlen(word) && strncmp(line, word, len) == 0;
}

/* OpenBench runs `bachess "genfens N seed S book B" quit`: the arguments
 * are split into words, up to a `quit`. */
static int genfens(int argc, char **argv)
{
    enum { MAX_WORDS = 32 };
    char *words[MAX_WORDS];
    int count = 0;
    for (int i = 0; i < argc && strcmp(argv[i], "quit") != 0; i++)
        for (char *w = strtok(argv[i], " \t"); w && count < MAX_WORDS; w = strtok(NULL, " \t"))
            words[count++] = w;
    return datagen_genfens(count, words);
}

static int run_engine(void)
{
    if (isatty(STDIN_FILENO))
        puts("bachess: type a move (e.g. e4) or 'help' to play here; 'uci' or 'xboard' for a GUI protocol");
    char *first = read_line(stdin);
    if (!first)
        return 0;
    if (first_word_is(first, "uci"))
        return uci_loop(first);
    if (first_word_is(first, "xboard"))
        return xboard_loop(first);
    return console_loop(first);
}

int main(int argc, char **argv)
{
    platform_init_stdio();
    if (argc > 1 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0)) {
        version();
        return 0;
    }
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0)) {
        usage();
        return 0;
    }
    board_init();
    if (argc > 1 && (strcmp(argv[1], "perft") == 0 || strcmp(argv[1], "divide") == 0))
        return perft_command(argc - 2, argv + 2, strcmp(argv[1], "divide") == 0);
    if (argc > 1 && strcmp(argv[1], "eval") == 0)
        return eval_command(argc - 2, argv + 2);
    if (argc > 1 && strcmp(argv[1], "lab") == 0)
        return lab_command(argc - 2, argv + 2);
    if (argc > 1 && strcmp(argv[1], "book") == 0)
        return book_command(argc - 2, argv + 2);
    if (argc > 1 && strcmp(argv[1], "tune") == 0)
        return tune_command(argc - 2, argv + 2);
    if (argc > 1 && strcmp(argv[1], "records") == 0)
        return records_command(argc - 2, argv + 2);
    if (argc > 1 && strcmp(argv[1], "tb") == 0)
        return tb_command(argc - 2, argv + 2);
    engine_init();
    engine_register_options();
    frontend_register_options();
    int status;
    if (argc > 1 && strcmp(argv[1], "bench") == 0)
        status = bench_command(argc - 2, argv + 2);
    else if (argc > 1 && strcmp(argv[1], "epd") == 0)
        status = epd_command(argc - 2, argv + 2);
    else if (argc > 1 && strcmp(argv[1], "datagen") == 0)
        status = datagen_command(argc - 2, argv + 2);
    else if (argc > 1 && first_word_is(argv[1], "genfens"))
        status = genfens(argc - 1, argv + 1);
    else if (argc > 1 && strcmp(argv[1], "annotate") == 0)
        status = annotate_command(argc - 2, argv + 2);
    else if (argc > 1 && strcmp(argv[1], "web") == 0)
        status = web_command(argc - 2, argv + 2);
    else if (argc > 1) {
        usage();
        status = 2;
    } else
        status = run_engine();
    engine_quit();
    return status;
}
