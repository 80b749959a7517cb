/* epd.c — the EPD test-suite runner. */
#include "tools/epd.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "notation.h"
#include "options.h"
#include "tokens.h"

/* Reads the SAN moves after `op` (up to ';') into moves[]. */
static int read_moves(const Board *b, const char *ops, const char *op, Move *moves, int max)
{
    const char *at = strstr(ops, op);
    if (!at)
        return 0;
    char list[256];
    size_t len = strcspn(at + strlen(op), ";");
    snprintf(list, sizeof list, "%.*s", (int)(len < sizeof list ? len : sizeof list - 1), at + strlen(op));
    int count = 0;
    for (char *save = NULL, *w = strtok_r(list, " ", &save); w && count < max; w = strtok_r(NULL, " ", &save)) {
        Move m = move_parse(b, w);
        if (m != MOVE_NONE)
            moves[count++] = m;
    }
    return count;
}

/* Splits an EPD line into its FEN (first four fields) and operations. */
static bool parse_epd(const char *line, char *fen, size_t fen_size, const char **ops)
{
    const char *p = line;
    for (int field = 0; field < 4; field++) {
        while (*p == ' ')
            p++;
        if (!*p)
            return false;
        p += strcspn(p, " ");
    }
    snprintf(fen, fen_size, "%.*s 0 1", (int)(p - line), line);
    *ops = p;
    return true;
}

bool epd_parse_line(const char *line, Board *board, EpdLine *out, char *error, size_t error_size)
{
    const char *ops;
    *out = (EpdLine){ .best_count = 0 };
    if (error_size)
        *error = '\0';
    if (!parse_epd(line, out->fen, sizeof out->fen, &ops))
        return false;
    if (!board_set_fen(board, out->fen, error, error_size))
        return false;
    out->best_count = read_moves(board, ops, "bm ", out->best, 8);
    out->avoid_count = read_moves(board, ops, "am ", out->avoid, 8);
    const char *id = strstr(ops, "id ");
    snprintf(out->id, sizeof out->id, "%.*s", id ? (int)strcspn(id + 3, ";") : 0, id ? id + 3 : "");
    return true;
}

static bool contains(const Move *moves, int count, Move m)
{
    for (int i = 0; i < count; i++)
        if (moves[i] == m)
            return true;
    return false;
}

static bool is_solution(const EpdLine *target, Move m)
{
    return (!target->best_count || contains(target->best, target->best_count, m))
        && !contains(target->avoid, target->avoid_count, m);
}

/* What one search of a suite position found: its move, and since when the
 * search's main line has started with a solution (-1: it does not now). */
typedef struct {
    const EpdLine *target;
    Move found;
    int64_t solved_since_ms, last_info_ms;
} EpdRun;

static void track_solution(const SearchInfo *info, void *context)
{
    EpdRun *run = context;
    run->last_info_ms = info->time_ms;
    if (info->pv_length < 1 || info->multipv > 1)
        return;
    if (!is_solution(run->target, info->pv[0]))
        run->solved_since_ms = -1;
    else if (run->solved_since_ms < 0)
        run->solved_since_ms = info->time_ms;
}

static void keep_bestmove(Move best, Move ponder, void *context)
{
    (void)ponder;
    ((EpdRun *)context)->found = best;
}

/* What epd changes in the engine's defaults, as if given on its command
 * line: no book (it is a test of the search), and no GUI or network between
 * the runner and the engine, so the whole time per position is thinking time. */
static const char *const EPD_DEFAULTS[] = { "OwnBook=false", "Move Overhead=0" };

/* "Name=Value" sets an engine option; a bare number is the thread count. */
static bool apply_assignment(const char *arg)
{
    char error[512], name[64];
    const char *equals = strchr(arg, '=');
    snprintf(name, sizeof name, "%.*s", equals ? (int)(equals - arg) : 7, equals ? arg : "Threads");
    if (option_set(name, equals ? equals + 1 : arg, error, sizeof error)) {
        if (*error)
            fprintf(stderr, "note: %s\n", error); /* e.g. what SyzygyPath found */
        return true;
    }
    fprintf(stderr, "error: %s\n", error);
    return false;
}

int epd_command(int argc, char **argv)
{
    if (argc < 1) {
        fprintf(stderr, "usage: bachess epd FILE [movetime-ms | nodes=N] [threads] [Option=Value ...]\n");
        return 2;
    }
    FILE *in = fopen(argv[0], "r");
    if (!in) {
        fprintf(stderr, "error: cannot open %s\n", argv[0]);
        return 2;
    }
    /* "nodes=N" instead of milliseconds: a result that does not depend on
     * the machine's speed or load. */
    bool by_nodes = argc > 1 && strncmp(argv[1], "nodes=", 6) == 0;
    int64_t move_time = argc > 1 ? atoll(argv[1] + (by_nodes ? 6 : 0)) : 1000;
    /* The epd defaults first, then the thread count and any engine option
     * given as Name=Value. */
    for (size_t i = 0; i < sizeof EPD_DEFAULTS / sizeof *EPD_DEFAULTS; i++)
        if (!apply_assignment(EPD_DEFAULTS[i])) {
            fclose(in);
            return 2;
        }
    for (int i = 2; i < argc; i++)
        if (!apply_assignment(argv[i])) {
            fclose(in);
            return 2;
        }
    int solved = 0, total = 0;
    char *line;
    Board *board = malloc(sizeof *board);
    while (board && (line = read_line(in)) != NULL) {
        char error[128];
        EpdLine target;
        if (!*line)
            continue;
        if (!epd_parse_line(line, board, &target, error, sizeof error)) {
            if (*error)
                printf("skipped (%s): %s\n", error, line);
            continue;
        }
        if (!target.best_count && !target.avoid_count)
            continue;
        if (!engine_set_position(target.fen, NULL, 0, error, sizeof error)) {
            printf("skipped (%s): %s\n", error, line);
            continue;
        }

        engine_new_game();
        SearchLimits limits;
        timeman_init_limits(&limits);
        if (by_nodes)
            limits.nodes = (uint64_t)move_time;
        else
            limits.move_time = move_time;
        EpdRun run = { &target, MOVE_NONE, -1, 0 };
        engine_go(&limits, (SearchReport){ track_solution, keep_bestmove, &run });
        engine_wait();
        bool ok = is_solution(&target, run.found);
        char text[MOVE_TEXT_SIZE];
        Board scratch = *engine_board();
        move_to_san(&scratch, run.found, text);
        total++;
        solved += ok;
        /* The time to solution tells how close a miss or a solve was. */
        if (ok && run.solved_since_ms >= 0)
            printf("%-12s %-8s solved at %" PRId64 " ms\n", target.id, text, run.solved_since_ms);
        else
            printf("%-12s %-8s %s\n", target.id, text, ok ? "solved" : "missed");
        fflush(stdout);
    }
    free(board);
    fclose(in);
    printf("solved %d/%d\n", solved, total);
    return 0;
}
