/* uci.c — the UCI front end. */
#include "protocol/uci.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "build_info.h"
#include "engine.h"
#include "games/gamelog.h"
#include "movegen.h"
#include "notation.h"
#include "options.h"
#include "perft.h"
#include "protocol/frontend_options.h"
#include "protocol/output.h"
#include "score.h"
#include "timer.h"
#include "tokens.h"
#include "tt.h"
#include "wdl.h"

#define ENGINE_NAME "bachess"
#define ENGINE_AUTHOR "the bachess developers"

static void uci_error(const char *format, const char *detail)
{
    char text[512];
    snprintf(text, sizeof text, format, detail);
    out_line("info string error: %s", text);
}

/* Set (before it is printed) when the bestmove of the last `go` goes out:
 * from then on the search is over for the GUI, even if its thread is
 * still winding down. */
static atomic_bool bestmove_sent = true;

/* `debug on`: each finished iteration of a timed search is followed by
 * `info string optimum MS`, the time the search may deepen to, as the time
 * manager scaled it then (scripts/time-iterations.py reads it). Read by the
 * search thread, set by the command reader. */
static atomic_bool debug_mode;

/* Commands strictly in order, one bestmove per go: a command that changes
 * the engine's state (setoption, ucinewgame, position, go) first ends a
 * running search, as `stop` would (setoption SyzygyPath excepted: below), so that its bestmove goes out before
 * the command takes effect. A GUI should not send these during a search,
 * so that case is reported; the moment between the bestmove and the end
 * of the search thread is not. */
static bool search_running(void) { return engine_is_searching() && !atomic_load(&bestmove_sent); }

/* SyzygyPath set during a search does not cut the search short: the path
 * is kept and loaded once the search is over (after its bestmove, before
 * the next command is handled), and a second one replaces the first. */
static char pending_tb_path[256];
static bool tb_path_pending;

static void set_and_report(const char *name, const char *value)
{
    char error[256];
    if (!option_set(name, value, error, sizeof error))
        out_line("info string error: %s", error);
    else if (*error)
        out_line("info string %s", error);
}

static void apply_pending_tb_path(void)
{
    if (!tb_path_pending || search_running())
        return;
    engine_wait();
    tb_path_pending = false;
    set_and_report("SyzygyPath", pending_tb_path);
}

static void finish_search(const char *command)
{
    if (search_running()) {
        uci_error("'%s' during a search: the search is stopped first", command);
        engine_stop();
    }
    engine_wait();
    apply_pending_tb_path();
}

/* "cp 31", "mate 3" or "mate -2": UCI counts mate in moves, not plies;
 * centipawns normalised to the material (wdl_normalize). */
static void format_score(int score, int material, char *out, size_t size)
{
    if (score >= MATE_IN_MAX)
        snprintf(out, size, "mate %d", (MATE - score + 1) / 2);
    else if (score <= -MATE_IN_MAX)
        snprintf(out, size, "mate %d", -(MATE + score) / 2);
    else
        snprintf(out, size, "cp %d", wdl_normalize(score, material));
}

/* The win/draw/loss chances of the score at the root (src/wdl.c); a mate
 * is a certain result. */
static void wdl_of_info(int score, int material, int *win, int *draw, int *loss)
{
    if (is_mate_score(score)) {
        *win = score > 0 ? 1000 : 0;
        *loss = 1000 - *win;
        *draw = 0;
        return;
    }
    wdl_from_score(score, material, win, draw, loss);
}

static void on_info(const SearchInfo *info, void *context)
{
    (void)context;
    char score[64], pv[MAX_PLY * 6 + 1] = "";
    int material = wdl_material(engine_board());
    format_score(info->score, material, score, sizeof score);
    if (frontend_settings.show_wdl) {
        int w, d, l;
        wdl_of_info(info->score, material, &w, &d, &l);
        size_t used_score = strlen(score);
        snprintf(score + used_score, sizeof score - used_score, " wdl %d %d %d", w, d, l);
    }
    size_t used = 0;
    for (int i = 0; i < info->pv_length && used + 7 < sizeof pv; i++) {
        char move[MOVE_TEXT_SIZE];
        move_to_uci(engine_board(), info->pv[i], move);
        used += (size_t)snprintf(pv + used, sizeof pv - used, " %s", move);
    }
    uint64_t nps = info->nodes * 1000 / (uint64_t)(info->time_ms > 0 ? info->time_ms : 1);
    if (info->no_iteration) { /* the move of a search stopped in depth 1: no depth, no score */
        out_line("info nodes %llu nps %llu hashfull %d tbhits %llu time %lld%s%s", (unsigned long long)info->nodes,
                 (unsigned long long)nps, info->hashfull, (unsigned long long)info->tbhits, (long long)info->time_ms,
                 *pv ? " pv" : "", pv);
        return;
    }
    out_line("info depth %d seldepth %d multipv %d score %s%s nodes %llu nps %llu hashfull %d tbhits %llu time %lld%s%s",
             info->depth, info->seldepth, info->multipv, score,
             info->bound == BOUND_LOWER ? " lowerbound" : info->bound == BOUND_UPPER ? " upperbound" : "",
             (unsigned long long)info->nodes, (unsigned long long)nps, info->hashfull, (unsigned long long)info->tbhits,
             (long long)info->time_ms, *pv ? " pv" : "", pv);
    if (info->optimum_ms >= 0 && info->multipv == 1 && atomic_load(&debug_mode))
        out_line("info string optimum %lld", (long long)info->optimum_ms);
}

/* The game log's state (see "the game log" below). */
static GameLog pgn_log;
static bool pgn_logging;
static Move last_bestmove;   /* written by the search thread, read after engine_wait */
static Key last_search_key;

static void on_bestmove(Move best, Move ponder, void *context)
{
    last_bestmove = best;
    (void)context;
    char b[MOVE_TEXT_SIZE], p[MOVE_TEXT_SIZE];
    move_to_uci(engine_board(), best, b);
    atomic_store(&bestmove_sent, true);
    if (ponder != MOVE_NONE) {
        move_to_uci(engine_board(), ponder, p);
        out_line("bestmove %s ponder %s", b, p);
    } else
        out_line("bestmove %s", b);
    out_trace_turn();
}

static void cmd_uci(void)
{
    out_line("id name " ENGINE_NAME " %s", build_version()); /* GUIs show it, as "Stockfish 15.1" */
    out_line("id author " ENGINE_AUTHOR);
    options_describe_uci(out_text_line);
    out_line("uciok");
}

/* setoption name <name words> [value <value words>] */
static void cmd_setoption(const Tokens *t)
{
    int name_at = tokens_find(t, "name", 1);
    if (name_at < 0) {
        out_line("info string error: setoption needs 'name'");
        return;
    }
    int value_at = tokens_find(t, "value", name_at + 1);
    char name[256] = "", value[256] = "";
    int name_end = value_at < 0 ? t->count : value_at;
    for (int i = name_at + 1; i < name_end; i++)
        snprintf(name + strlen(name), sizeof name - strlen(name), "%s%s", i > name_at + 1 ? " " : "", t->words[i]);
    for (int i = value_at < 0 ? t->count : value_at + 1; i < t->count; i++)
        snprintf(value + strlen(value), sizeof value - strlen(value), "%s%s", i > value_at + 1 ? " " : "", t->words[i]);
    if (strcasecmp(name, "SyzygyPath") == 0 && search_running()) {
        snprintf(pending_tb_path, sizeof pending_tb_path, "%s", value);
        tb_path_pending = true;
        out_line("info string SyzygyPath is set when the search has ended; the search goes on");
        return;
    }
    finish_search("setoption");
    set_and_report(name, value);
}

/* position [startpos | fen <fields>] [moves <m1> …]
 * A bad FEN leaves the position as it was. A move that is illegal ends
 * the list: the moves before it are played, so the GUI's game is kept as
 * far as it is legal. */
/* ---- the game log (option PGNLog) -------------------------------------------
 * UCI never says when a game ends, so the log follows the `position`
 * commands: a position that continues the logged game adds its new moves;
 * any other position, `ucinewgame` or `quit` ends the logged game, which is
 * then appended to the PGNLog file (with the last best move if it still
 * fits, and the result if the rules decide it). */

static const char *pgn_log_path(void)
{
    const char *path = frontend_settings.pgn_log;
    return *path ? path : NULL;
}

static void pgn_log_flush(void)
{
    if (!pgn_logging)
        return;
    engine_wait();
    if (last_bestmove != MOVE_NONE && board_key(gamelog_board(&pgn_log)) == last_search_key)
        gamelog_add(&pgn_log, last_bestmove);
    last_bestmove = MOVE_NONE;
    const char *path = pgn_log_path();
    if (path && gamelog_ply_count(&pgn_log) > 0) {
        gamelog_finish_by_rules(&pgn_log);
        char error[256];
        if (!gamelog_append_to_file(&pgn_log, path, error, sizeof error))
            uci_error("PGNLog: %s", error);
    }
    pgn_logging = false;
}

/* Does the logged game lead to this position command's moves? */
static bool pgn_log_continues(const char *fen, char *const *moves, int count)
{
    if (!pgn_logging || strcmp(pgn_log.start_fen, fen ? fen : START_FEN) != 0 || count < pgn_log.count)
        return false;
    for (int i = 0; i < pgn_log.count; i++) {
        char text[MOVE_TEXT_SIZE];
        move_to_uci(engine_board(), pgn_log.moves[i].move, text);
        if (strcmp(text, moves[i]) != 0)
            return false;
    }
    return true;
}

static void pgn_log_position(const char *fen, char *const *moves, int count)
{
    if (!pgn_log_path())
        return;
    if (!pgn_log_continues(fen, moves, count)) {
        pgn_log_flush();
        char error[256];
        if (!gamelog_start_960(&pgn_log, fen, engine_board()->castle.chess960, error, sizeof error))
            return;
        gamelog_set_tag(&pgn_log, "Event", "bachess UCI game");
        pgn_logging = true;
    }
    for (int i = pgn_log.count; i < count; i++)
        if (!gamelog_add_text(&pgn_log, moves[i]))
            break;
}

static void cmd_position(const Tokens *t)
{
    finish_search("position");
    int moves_at = tokens_find(t, "moves", 1);
    int fen_end = moves_at < 0 ? t->count : moves_at;
    char fen[512] = "";
    if (t->count >= 2 && strcmp(t->words[1], "fen") == 0) {
        for (int i = 2; i < fen_end; i++)
            snprintf(fen + strlen(fen), sizeof fen - strlen(fen), "%s%s", i > 2 ? " " : "", t->words[i]);
    } else if (t->count < 2 || strcmp(t->words[1], "startpos") != 0) {
        out_line("info string error: position needs 'startpos' or 'fen'");
        return;
    }
    if (t->count >= 2 && strcmp(t->words[1], "fen") == 0 && !*fen) {
        out_line("info string error: position fen needs a FEN");
        return;
    }
    int move_count = moves_at < 0 ? 0 : t->count - moves_at - 1;
    char *const *moves = moves_at < 0 ? NULL : t->words + moves_at + 1;
    const char *start = *fen ? fen : NULL;
    char error[256], ignored[256];
    if (engine_set_position(start, moves, move_count, error, sizeof error)) {
        pgn_log_position(start, moves, move_count);
        return;
    }
    if (!engine_set_position(start, NULL, 0, ignored, sizeof ignored)) {
        uci_error("position not set: %s", error);
        return;
    }
    /* The FEN is good but a move is not: play the moves up to it. */
    for (int i = 0; i < move_count; i++) {
        Move m = move_from_coordinate(engine_board(), moves[i]);
        if (m == MOVE_NONE)
            break;
        engine_play_move(m);
    }
    uci_error("position: %s; the moves before it were played", error);
}

/* `go perft N`, as Stockfish has it: each root move's count, then the total. */
static void go_perft(const Tokens *t)
{
    int64_t depth;
    if (t->count < 3 || !parse_int64(t->words[2], &depth) || depth < 1 || depth > 10) {
        uci_error("go perft: %s", "the depth must be a number from 1 to 10");
        return;
    }
    Board *b = malloc(sizeof *b);
    if (!b) {
        uci_error("go perft: %s", "out of memory");
        return;
    }
    memcpy(b, engine_board(), sizeof *b);
    MoveList list;
    generate_legal(b, &list);
    uint64_t total = 0;
    for (int i = 0; i < list.count; i++) {
        char text[MOVE_TEXT_SIZE];
        move_to_uci(b, list.moves[i], text);
        board_make_move(b, list.moves[i]);
        uint64_t n = perft(b, (int)depth - 1);
        board_unmake_move(b);
        out_line("%s: %llu", text, (unsigned long long)n);
        total += n;
    }
    out_line("\nNodes searched: %llu", (unsigned long long)total);
    free(b);
}

static void cmd_go(const Tokens *t)
{
    /* The GUI's clock runs from here, through the end of a search still running. */
    int64_t clock_started = time_now_ms();
    finish_search("go");
    if (t->count >= 2 && strcmp(t->words[1], "perft") == 0) {
        go_perft(t);
        return;
    }
    SearchLimits limits;
    timeman_init_limits(&limits);
    limits.clock_started = clock_started;
    const Board *b = engine_board();
    bool bad_limit = false;
    static const char *NUMERIC[] = { "wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth", "nodes", "mate" };
    for (int i = 1; i < t->count; i++) {
        const char *w = t->words[i];
        if (strcmp(w, "infinite") == 0) {
            limits.infinite = true;
            continue;
        }
        if (strcmp(w, "ponder") == 0) {
            limits.ponder = true;
            continue;
        }
        if (strcmp(w, "searchmoves") == 0) {
            for (i++; i < t->count; i++) {
                Move m = move_from_coordinate(b, t->words[i]);
                if (m == MOVE_NONE)
                    break;
                if (limits.search_move_count < MAX_MOVES)
                    limits.search_moves[limits.search_move_count++] = m;
            }
            i--;
            continue;
        }
        int k = 0;
        while (k < 9 && strcmp(w, NUMERIC[k]) != 0)
            k++;
        int64_t v;
        if (k == 9) {
            uci_error("go: unknown word '%.32s'", w);
            continue;
        }
        if (i + 1 >= t->count || !parse_int64(t->words[i + 1], &v)) {
            uci_error("go: '%s' needs a number", w);
            bad_limit = true;
            continue;
        }
        i++;
        if (v < 0) {
            uci_error("go: negative '%s' taken as 0", w);
            v = 0;
        }
        /* A limit of 0 for the move time, depth, nodes or mate still
         * limits: the least search there is, never an endless one. */
        if (k >= 5 && v < 1)
            v = 1;
        switch (k) {
        case 0: limits.time[WHITE] = v; break;
        case 1: limits.time[BLACK] = v; break;
        case 2: limits.inc[WHITE] = v; break;
        case 3: limits.inc[BLACK] = v; break;
        case 4: limits.moves_to_go = v > 10000 ? 10000 : (int)v; break;
        case 5: limits.move_time = v; break;
        case 6: limits.depth = v > MAX_PLY - 1 ? MAX_PLY - 1 : (int)v; break;
        case 7: limits.nodes = (uint64_t)v; break;
        case 8: limits.mate = v > MAX_PLY / 2 ? MAX_PLY / 2 : (int)v; break;
        }
    }
    /* A search with no limit at all is an infinite one; but one whose
     * limits were all malformed is the least search, not an endless one. */
    if (!limits.infinite && limits.time[WHITE] < 0 && limits.time[BLACK] < 0 && !limits.move_time
        && !limits.depth && !limits.nodes && !limits.mate) {
        if (bad_limit && !limits.ponder)
            limits.depth = 1;
        else
            limits.infinite = true;
    }
    atomic_store(&bestmove_sent, false);
    last_search_key = board_key(engine_board());
    if (pgn_logging)
        gamelog_set_tag(&pgn_log, engine_board()->side == WHITE ? "White" : "Black", "bachess");
    engine_go(&limits, (SearchReport){ on_info, on_bestmove, NULL });
}

static void cmd_display(void)
{
    const Board *b = engine_board();
    char fen[128];
    board_get_fen(b, fen, sizeof fen);
    for (int rank = 7; rank >= 0; rank--) {
        char row[32];
        for (int file = 0; file < 8; file++) {
            Piece p = board_piece_on(b, make_square(file, rank));
            row[2 * file] = p == NO_PIECE ? '.' : "PNBRQKpnbrqk"[p];
            row[2 * file + 1] = ' ';
        }
        row[15] = '\0';
        out_line("%d  %s", rank + 1, row);
    }
    out_line("   a b c d e f g h");
    out_line("Fen: %s", fen);
    out_line("Key: %016llx", (unsigned long long)board_key(b));
}

static void cmd_debug(const Tokens *t)
{
    const char *mode = t->count > 1 ? t->words[1] : "";
    if (strcmp(mode, "on") == 0 || strcmp(mode, "off") == 0)
        atomic_store(&debug_mode, strcmp(mode, "on") == 0);
    else
        uci_error("debug takes on or off, not '%.64s'", mode);
}

bool uci_command(char *line)
{
    out_trace_input(line);
    Tokens t;
    if (!tokens_split(line, &t)) {
        out_line("info string error: out of memory");
        return true;
    }
    bool keep_going = true;
    const char *cmd = t.count ? t.words[0] : "";
    apply_pending_tb_path(); /* a SyzygyPath set during the search that has ended */
    if (t.count == 0)
        ;
    else if (strcmp(cmd, "uci") == 0)
        cmd_uci();
    else if (strcmp(cmd, "isready") == 0)
        out_line("readyok");
    else if (strcmp(cmd, "setoption") == 0)
        cmd_setoption(&t);
    else if (strcmp(cmd, "ucinewgame") == 0) {
        finish_search("ucinewgame");
        pgn_log_flush();
        engine_new_game();
    } else if (strcmp(cmd, "position") == 0)
        cmd_position(&t);
    else if (strcmp(cmd, "go") == 0)
        cmd_go(&t);
    else if (strcmp(cmd, "stop") == 0) {
        /* The bestmove is out before the next command is read. */
        engine_stop();
        engine_wait();
        apply_pending_tb_path();
    } else if (strcmp(cmd, "ponderhit") == 0)
        engine_ponderhit();
    else if (strcmp(cmd, "quit") == 0)
        keep_going = false;
    else if (strcmp(cmd, "d") == 0)
        cmd_display();
    else if (strcmp(cmd, "debug") == 0)
        cmd_debug(&t);
    else if (strcmp(cmd, "register") == 0)
        ;
    else
        uci_error("unknown command '%.64s'", cmd);
    tokens_free(&t);
    return keep_going;
}

int uci_loop(const char *first_line)
{
    char *first = strdup(first_line);
    bool running = first && uci_command(first);
    free(first);
    char *line;
    while (running && (line = read_line(stdin)) != NULL)
        running = uci_command(line);
    engine_stop();
    engine_wait();
    pgn_log_flush();
    gamelog_free(&pgn_log);
    return 0;
}
