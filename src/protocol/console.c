/* console.c — chess at a terminal: the board, moves, commands, game end. */
#include "protocol/console.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platform.h"
#include "chess960.h"
#include "engine.h"
#include "games/gamelog.h"
#include "movegen.h"
#include "notation.h"
#include "options.h"
#include "protocol/output.h"
#include "score.h"
#include "timer.h"
#include "tokens.h"
#include "tt.h"
#include "wdl.h"

#define ENGINE_NAME "bachess"
#define HUMAN_NAME "Human"

enum {
    DEFAULT_MOVE_MS = 1000,
    MAX_MOVE_MS = 24 * 3600 * 1000,
    PATH_SIZE = 1024,
    LIST_WIDTH = 78,   /* the legal-move list is wrapped to this width */
    ECHO_SIZE = 48,    /* how much of a bad input is repeated back */
};

static struct {
    GameLog log;
    bool engine_plays[COLOR_NB]; /* neither: human against human */
    bool engine_moved[COLOR_NB], human_moved[COLOR_NB];
    bool saved;                  /* the game as it stands is in the PGN file */
    bool flipped, unicode, interactive, post, quit;
    int64_t move_ms;
    int depth;
    char pgn_path[PATH_SIZE];    /* empty: no PGN log */
    Board *scratch;              /* for the SAN of a PV while thinking */
} con;

static const Board *board(void) { return gamelog_board(&con.log); }
static const char *color_name(Color c) { return c == WHITE ? "White" : "Black"; }
static bool playing_engine(void) { return con.engine_plays[WHITE] != con.engine_plays[BLACK]; }

/* ---- text helpers ---------------------------------------------------------- */

/* A copy of untrusted input fit to print: printable ASCII only, cut short. */
static void printable(const char *text, char *out, size_t size)
{
    size_t n = 0, len = strlen(text);
    for (const char *c = text; *c && n + 1 < size; c++)
        out[n++] = isprint((unsigned char)*c) ? *c : '?';
    out[n] = '\0';
    if (len >= size && size > 4)
        strcpy(out + size - 4, "...");
}

/* The text after the command word, without surrounding blanks. */
static void rest_of_line(const char *line, char *out, size_t size)
{
    const char *c = line + strspn(line, " \t");
    c += strcspn(c, " \t");
    c += strspn(c, " \t");
    size_t len = strlen(c);
    while (len > 0 && isspace((unsigned char)c[len - 1]))
        len--;
    snprintf(out, size, "%.*s", (int)len, c);
}

static void trim(char *text)
{
    size_t start = strspn(text, " \t"), len = strlen(text);
    while (len > start && isspace((unsigned char)text[len - 1]))
        len--;
    memmove(text, text + start, len - start);
    text[len - start] = '\0';
}

static bool locale_is_utf8(void)
{
    const char *names[] = { "LC_ALL", "LC_CTYPE", "LANG" };
    for (int i = 0; i < 3; i++) {
        const char *value = getenv(names[i]);
        if (value && *value) {
            char lower[64];
            size_t n = 0;
            for (; value[n] && n + 1 < sizeof lower; n++)
                lower[n] = (char)tolower((unsigned char)value[n]);
            lower[n] = '\0';
            return strstr(lower, "utf-8") || strstr(lower, "utf8");
        }
    }
    return false;
}

/* ---- the board --------------------------------------------------------------- */

static const char *const UNICODE_PIECES[PIECE_NB] = {
    "\u2659", "\u2658", "\u2657", "\u2656", "\u2655", "\u2654",
    "\u265f", "\u265e", "\u265d", "\u265c", "\u265b", "\u265a",
};

/* The board, the last move and who is to move (or how the game ended,
 * unless `with_end` is false because the end is announced next). */
static void show_board_status(bool with_end)
{
    const Board *b = board();
    for (int row = 0; row < 8; row++) {
        int rank = con.flipped ? row : 7 - row;
        char line[128];
        int n = snprintf(line, sizeof line, "  %d ", rank + 1);
        for (int col = 0; col < 8; col++) {
            int file = con.flipped ? 7 - col : col;
            Piece p = board_piece_on(b, make_square(file, rank));
            char ascii[2] = { p == NO_PIECE ? '.' : "PNBRQKpnbrqk"[p], '\0' };
            const char *glyph = !con.unicode ? ascii : p == NO_PIECE ? "\u00b7" : UNICODE_PIECES[p];
            n += snprintf(line + n, sizeof line - (size_t)n, " %s", glyph);
        }
        out_line("%s", line);
    }
    out_line("     %s", con.flipped ? "h g f e d c b a" : "a b c d e f g h");
    if (con.log.count > 0) {
        char last[48];
        gamelog_numbered_san(&con.log, con.log.count - 1, last, sizeof last);
        out_line("  Last move: %s", last);
    }
    if (gamelog_is_finished(&con.log)) {
        if (with_end)
            out_line("  Game over: %s (%s)", con.log.reason, gamelog_result_text(con.log.result));
        return;
    }
    Color side = b->side;
    const char *who = con.engine_plays[side] ? " (" ENGINE_NAME ")" : playing_engine() ? " (you)" : "";
    out_line("  %s to move%s%s", color_name(side), who, board_in_check(b) ? ", in check" : "");
}

static void show_board(void) { show_board_status(true); }

static int compare_san(const void *a, const void *b) { return strcmp(a, b); }

/* The legal moves in SAN, sorted, wrapped to the terminal's width. */
static void list_moves(void)
{
    MoveList list;
    generate_legal(board(), &list);
    char san[MAX_MOVES][MOVE_TEXT_SIZE];
    for (int i = 0; i < list.count; i++)
        gamelog_san(&con.log, list.moves[i], san[i]);
    qsort(san, (size_t)list.count, sizeof san[0], compare_san);
    char line[LIST_WIDTH + MOVE_TEXT_SIZE + 2];
    int n = snprintf(line, sizeof line, "Legal moves (%d):", list.count);
    for (int i = 0; i < list.count; i++) {
        if (n + 1 + (int)strlen(san[i]) > LIST_WIDTH) {
            out_line("%s", line);
            n = snprintf(line, sizeof line, "   ");
        }
        n += snprintf(line + n, sizeof line - (size_t)n, " %s", san[i]);
    }
    out_line("%s", line);
}

/* ---- the PGN log ------------------------------------------------------------- */

static const char *player_name(Color c)
{
    bool engine = con.engine_moved[c] || con.engine_plays[c];
    bool human = con.human_moved[c] || !con.engine_plays[c];
    return engine && human ? HUMAN_NAME " and " ENGINE_NAME : engine ? ENGINE_NAME : HUMAN_NAME;
}

/* Appends the game to the PGN log once, if it has moves. */
static void save_game(void)
{
    if (!con.pgn_path[0] || con.log.count == 0 || con.saved)
        return;
    gamelog_set_tag(&con.log, "Event", ENGINE_NAME " console game");
    gamelog_set_tag(&con.log, "White", player_name(WHITE));
    gamelog_set_tag(&con.log, "Black", player_name(BLACK));
    char error[256];
    if (gamelog_append_to_file(&con.log, con.pgn_path, error, sizeof error))
        out_line("%s saved to %s", gamelog_is_finished(&con.log) ? "Game" : "Unfinished game", con.pgn_path);
    else
        out_line("Could not save the game: %s", error);
    con.saved = true;
}

static void announce_end(void)
{
    const char *dash = con.unicode ? "\u2014" : "-";
    const Board *b = board();
    GameResult r = con.log.result;
    if (game_status(b) == GAME_CHECKMATE)
        out_line("Checkmate %s %s wins (%s)", dash, color_name(color_flip(b->side)), gamelog_result_text(r));
    else if (r == RESULT_DRAW)
        out_line("%s (%s)", con.log.reason, gamelog_result_text(r));
    else
        out_line("%s %s %s wins (%s)", con.log.reason, dash, r == RESULT_WHITE_WINS ? "White" : "Black",
                 gamelog_result_text(r));
    save_game();
}

/* ---- the engine's side --------------------------------------------------------- */

typedef struct {
    Move best;
    SearchInfo info; /* the last complete line */
    int material;    /* the root position's, which the score is scaled by */
    bool have_info;
    Color side;
} Thought;

/* Scores for people: from White's side, pawns normalised to the material
 * (docs/wdl.md; a tablebase win's as it is), or #N / #-N for a mate. */
static void format_white_score(int score, Color side, int material, char *out, size_t size)
{
    int shown = wdl_normalize(score, material);
    int white = side == WHITE ? shown : -shown;
    if (white >= MATE_IN_MAX)
        snprintf(out, size, "#%d", (MATE - white + 1) / 2);
    else if (white <= -MATE_IN_MAX)
        snprintf(out, size, "#-%d", (MATE + white + 1) / 2);
    else
        snprintf(out, size, "%+.2f", white / 100.0);
}

/* A book move comes without a search: depth 0, no nodes. */
static bool from_book(const SearchInfo *info) { return info->depth == 0 && info->nodes == 0 && info->pv_length > 0; }

static void on_info(const SearchInfo *info, void *context)
{
    Thought *t = context;
    if (info->multipv != 1 || info->bound != BOUND_EXACT || info->no_iteration)
        return;
    t->info = *info;
    t->material = wdl_material(board());
    t->have_info = true;
    if (!con.post || info->pv_length == 0 || from_book(info))
        return;
    char eval[16], pv[512] = "";
    format_white_score(info->score, t->side, t->material, eval, sizeof eval);
    memcpy(con.scratch, board(), sizeof *con.scratch);
    size_t used = 0;
    for (int i = 0; i < info->pv_length && i < 8 && move_is_legal(con.scratch, info->pv[i]); i++) {
        char san[MOVE_TEXT_SIZE];
        move_to_san(con.scratch, info->pv[i], san);
        used += (size_t)snprintf(pv + used, sizeof pv - used, " %s", san);
        board_make_move(con.scratch, info->pv[i]);
    }
    out_line("  depth %2d  eval %6s  %6.2f s  %10llu nodes %s", info->depth, eval, info->time_ms / 1000.0,
             (unsigned long long)info->nodes, pv);
}

/* "book move" or "depth 9, eval +0.31, 1.00 s". */
static void describe_thought(const Thought *t, char *out, size_t size)
{
    char eval[16];
    if (!t->have_info) {
        snprintf(out, size, "no search");
        return;
    }
    if (from_book(&t->info)) {
        snprintf(out, size, "book move");
        return;
    }
    format_white_score(t->info.score, t->side, t->material, eval, sizeof eval);
    snprintf(out, size, "depth %d, eval %s, %.2f s", t->info.depth, eval, t->info.time_ms / 1000.0);
}

static void on_bestmove(Move best, Move ponder, void *context)
{
    (void)ponder;
    ((Thought *)context)->best = best;
}

/* One search of the current position with the console's limits. */
static Move think(Thought *t)
{
    SearchLimits limits;
    timeman_init_limits(&limits);
    limits.move_time = con.move_ms;
    limits.depth = con.depth;
    *t = (Thought){ .best = MOVE_NONE, .side = board()->side };
    engine_go(&limits, (SearchReport){ on_info, on_bestmove, t });
    engine_wait();
    return move_is_legal(board(), t->best) ? t->best : MOVE_NONE;
}

/* The engine's game follows the log: the start position and every move. */
static void sync_engine(void)
{
    int n = con.log.count;
    char (*text)[MOVE_TEXT_SIZE] = malloc(sizeof *text * (size_t)(n + 1));
    char **moves = malloc(sizeof *moves * (size_t)(n + 1));
    char error[256];
    if (text && moves) {
        for (int i = 0; i < n; i++) {
            move_to_uci(con.log.board, con.log.moves[i].move, text[i]);
            moves[i] = text[i];
        }
        if (!engine_set_position(con.log.start_fen, moves, n, error, sizeof error))
            out_line("Internal error: %s", error);
    } else
        out_line("Out of memory");
    free(text);
    free(moves);
}

/* Plays a legal move in the log and the engine; notes whether the rules
 * end the game. */
static void apply_move(Move m, bool by_engine)
{
    Color us = board()->side;
    if (!gamelog_add(&con.log, m)) {
        out_line("Out of memory");
        return;
    }
    engine_play_move(m);
    if (by_engine)
        con.engine_moved[us] = true;
    else
        con.human_moved[us] = true;
    con.saved = false;
    gamelog_finish_by_rules(&con.log);
}

static void print_last_move(const char *who, const Thought *t)
{
    char text[48], about[64];
    gamelog_numbered_san(&con.log, con.log.count - 1, text, sizeof text);
    if (!t) {
        out_line("%s%s", who, text);
        return;
    }
    describe_thought(t, about, sizeof about);
    out_line("%s%s   (%s)", who, text, about);
}

static bool engine_move(void)
{
    Thought t;
    Move m = think(&t);
    if (m == MOVE_NONE) {
        out_line(ENGINE_NAME " found no move");
        return false;
    }
    apply_move(m, true);
    print_last_move(ENGINE_NAME " plays ", &t);
    return true;
}

/* After the moves of one command: the board, and the end if it came. */
static void after_moves(void)
{
    show_board_status(false);
    if (gamelog_is_finished(&con.log))
        announce_end();
}

static bool game_over_says_so(void)
{
    if (!gamelog_is_finished(&con.log))
        return false;
    out_line("The game is over (%s, %s): type 'new', 'undo' or 'fen FEN'", con.log.reason,
             gamelog_result_text(con.log.result));
    return true;
}

/* ---- commands ------------------------------------------------------------------ */

/* A new game from `fen` (NULL: the start position), Chess960 or not. */
static void new_game(const char *fen, bool chess960)
{
    char error[256];
    Board *probe = malloc(sizeof *probe);
    if (!probe) {
        out_line("Out of memory");
        return;
    }
    bool ok = board_set_fen_960(probe, fen ? fen : START_FEN, chess960, error, sizeof error);
    free(probe);
    if (!ok) {
        out_line("Bad FEN: %s", error);
        return;
    }
    save_game();
    if (!gamelog_start_960(&con.log, fen, chess960, error, sizeof error)) {
        out_line("Cannot start the game: %s", error);
        return;
    }
    engine_set_chess960(chess960);
    engine_new_game();
    sync_engine();
    con.saved = false;
    for (int c = 0; c < COLOR_NB; c++)
        con.engine_moved[c] = con.human_moved[c] = false;
    /* The person plays the side to move (White in a new game). */
    if (fen == NULL || playing_engine()) {
        con.engine_plays[board()->side] = false;
        con.engine_plays[color_flip(board()->side)] = true;
    }
    gamelog_finish_by_rules(&con.log);
    after_moves();
}

static void cmd_undo(void)
{
    if (con.log.count == 0) {
        out_line("Nothing to take back");
        return;
    }
    /* Against the engine, back to the person's turn: usually a full move. */
    int plies = 1;
    Color last_mover = color_flip(board()->side);
    if (playing_engine() && con.engine_plays[last_mover] && con.log.count >= 2)
        plies = 2;
    char taken[96] = "";
    for (int i = 0; i < plies; i++) {
        char text[48];
        gamelog_numbered_san(&con.log, con.log.count - 1, text, sizeof text);
        snprintf(taken + strlen(taken), sizeof taken - strlen(taken), "%s%s", i ? ", " : "", text);
        gamelog_undo(&con.log);
        if (!engine_undo_move())
            sync_engine();
    }
    con.saved = false;
    if (playing_engine() && con.engine_plays[board()->side]) {
        con.engine_plays[board()->side] = false;
        con.engine_plays[color_flip(board()->side)] = true;
    }
    out_line("Took back %s", taken);
    show_board();
}

static void cmd_go(void)
{
    if (game_over_says_so())
        return;
    con.engine_plays[board()->side] = true;
    con.engine_plays[color_flip(board()->side)] = false;
    engine_move();
    after_moves();
}

/* Is a line of input waiting? (Only asked at a terminal, where stdio
 * holds no more than the line already read.) */
static bool input_waiting(void)
{
    return platform_readable(STDIN_FILENO, 0);
}

static void cmd_auto(const char *count_text)
{
    char *end;
    long limit = *count_text ? strtol(count_text, &end, 10) : 0;
    if (*count_text && (*end || limit < 1 || limit > 100000)) {
        out_line("auto takes the number of moves to play, e.g. 'auto 10', or nothing to play to the end");
        return;
    }
    if (game_over_says_so())
        return;
    if (con.interactive)
        out_line("Engine against engine%s (press Enter to stop)", limit > 0 ? " for a while" : "");
    con.engine_plays[WHITE] = con.engine_plays[BLACK] = true;
    for (long played = 0; !gamelog_is_finished(&con.log) && (limit <= 0 || played < limit); played++) {
        if (!engine_move())
            break;
        if (con.interactive && input_waiting()) {
            if (!read_line(stdin))
                con.quit = true;
            break;
        }
    }
    if (!gamelog_is_finished(&con.log)) {
        /* The person takes over the side to move. */
        con.engine_plays[board()->side] = false;
        out_line("You play %s", color_name(board()->side));
    }
    after_moves();
}

static void cmd_hint(void)
{
    if (game_over_says_so())
        return;
    Thought t;
    Move m = think(&t);
    if (m == MOVE_NONE)
        return;
    char san[MOVE_TEXT_SIZE], about[64];
    gamelog_san(&con.log, m, san);
    describe_thought(&t, about, sizeof about);
    out_line("Hint: %s   (%s)", san, about);
}

static void cmd_level(const char *text)
{
    char *end;
    double seconds = strtod(text, &end);
    if (end == text || *end || !(seconds > 0) || seconds * 1000 > MAX_MOVE_MS) {
        out_line("level needs the seconds per engine move, e.g. 'level 2' or 'level 0.5' (now %.2f)",
                 con.move_ms / 1000.0);
        return;
    }
    con.move_ms = (int64_t)(seconds * 1000 + 0.5);
    if (con.move_ms < 1)
        con.move_ms = 1;
    out_line("The engine thinks %.2f s per move", con.move_ms / 1000.0);
}

static void cmd_depth(const char *text)
{
    char *end;
    long depth = strtol(text, &end, 10);
    if (end == text || *end || depth < 0 || depth >= MAX_PLY) {
        out_line("depth needs a number from 0 (no limit) to %d", MAX_PLY - 1);
        return;
    }
    con.depth = (int)depth;
    if (depth)
        out_line("The engine searches at most %ld plies deep", depth);
    else
        out_line("No depth limit");
}

static void cmd_set(const char *text)
{
    if (!*text) {
        for (int i = 0; i < options_count(); i++) {
            const Option *o = option_at(i);
            if (o->type == OPTION_STRING || o->type == OPTION_COMBO)
                out_line("  %s=%s", o->name, o->text);
            else if (o->type != OPTION_BUTTON)
                out_line("  %s=%lld", o->name, (long long)o->value);
        }
        return;
    }
    char name[1024], *value;
    snprintf(name, sizeof name, "%.1000s", text);
    value = strchr(name, '=');
    if (!value) {
        out_line("set needs NAME=VALUE, e.g. 'set UCI_LimitStrength=true' ('set' lists the options)");
        return;
    }
    *value++ = '\0';
    trim(name);
    trim(value);
    char error[256];
    if (option_set(name, value, error, sizeof error))
        out_line("%s set to %s%s%s", name, value, *error ? ": " : "", error);
    else
        out_line("%s", error);
}

static void cmd_save(const char *path)
{
    if (!*path) {
        out_line("save needs a file name");
        return;
    }
    gamelog_set_tag(&con.log, "Event", ENGINE_NAME " console game");
    gamelog_set_tag(&con.log, "White", player_name(WHITE));
    gamelog_set_tag(&con.log, "Black", player_name(BLACK));
    char error[256];
    if (gamelog_append_to_file(&con.log, path, error, sizeof error))
        out_line("Game appended to %s", path);
    else
        out_line("Could not save the game: %s", error);
}

static void cmd_pgn(const char *path)
{
    if (*path)
        snprintf(con.pgn_path, sizeof con.pgn_path, "%s", path);
    if (con.pgn_path[0])
        out_line("Games are saved to %s", con.pgn_path);
    else
        out_line("Games are not saved ('pgn FILE' to save them)");
}

static void cmd_resign(void)
{
    if (game_over_says_so())
        return;
    Color loser = board()->side;
    char reason[32];
    snprintf(reason, sizeof reason, "%s resigns", color_name(loser));
    gamelog_finish(&con.log, loser == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS, reason);
    announce_end();
}

/* `new960 [N]`: Chess960 start position N (Scharnagl, 0..959; 518 is the
 * classical one), or a random one. */
static void cmd_new960(const Tokens *t)
{
    char *end = NULL;
    long number = t->count > 1 ? strtol(t->words[1], &end, 10) : (long)(time_now_ms() % CHESS960_POSITIONS);
    char fen[128];
    if ((end && *end) || !chess960_start_fen((int)number, fen, sizeof fen)) {
        out_line("new960 takes a start position number from 0 to %d", CHESS960_POSITIONS - 1);
        return;
    }
    out_line("Chess960 start position %ld", number);
    new_game(fen, true);
}

/* `fen FEN`: a normal position, or a Chess960 one when only Chess960's
 * castling rules can read it. */
static void cmd_fen(const char *fen)
{
    char error[256];
    Board *probe = malloc(sizeof *probe);
    if (!probe) {
        out_line("Out of memory");
        return;
    }
    bool normal = board_set_fen(probe, fen, error, sizeof error);
    bool chess960 = !normal && board_set_fen_960(probe, fen, true, error, sizeof error);
    free(probe);
    new_game(fen, chess960);
}

static void help(void)
{
    out_line("Type moves in SAN (e4, Nf3, O-O, exd5, e8=Q) or coordinates (e2e4, e7e8q).");
    out_line("Commands:");
    out_line("  new              a new game; you play White against the engine");
    out_line("  undo             take back your last move (and the engine's answer)");
    out_line("  go               the engine plays the side to move (new, go: you play Black)");
    out_line("  human            human against human: the engine makes no moves");
    out_line("  auto [N]         engine against engine until the game ends (or N moves)");
    out_line("  hint             the engine suggests a move");
    out_line("  level S, time S  seconds per engine move (now %.2f)", con.move_ms / 1000.0);
    out_line("  depth N          plies per engine move, 0 for no limit (now %d)", con.depth);
    out_line("  new960 [N]       a Chess960 game from start position N (0-959), or a random one");
    out_line("  fen FEN          set up a position, normal or Chess960 (also: setboard FEN)");
    out_line("  flip             turn the board round");
    out_line("  board, moves     show the board, list the legal moves");
    out_line("  post, nopost     show or hide the engine's thinking");
    out_line("  resign           give up the game");
    out_line("  save FILE        append this game to FILE as PGN");
    out_line("  pgn FILE, nopgn  the PGN log of every game (now %s)", con.pgn_path[0] ? con.pgn_path : "off");
    out_line("  set NAME=VALUE   an engine option, e.g. set UCI_LimitStrength=true; set: list");
    out_line("  help, quit       this text; leave (end of input leaves too)");
}

/* A word that is not a command is a move. */
static void human_move(const char *text)
{
    if (game_over_says_so())
        return;
    Move m = move_parse(board(), text);
    if (m == MOVE_NONE) {
        char shown[ECHO_SIZE];
        printable(text, shown, sizeof shown);
        out_line("Illegal move: %s", shown);
        list_moves();
        out_line("(Type 'help' for the commands.)");
        return;
    }
    apply_move(m, false);
    print_last_move("", NULL);
    if (!gamelog_is_finished(&con.log) && con.engine_plays[board()->side])
        engine_move();
    after_moves();
}

static void console_command(const char *line)
{
    char *copy = strdup(line);
    Tokens t;
    if (!copy || !tokens_split(copy, &t)) {
        free(copy);
        out_line("Out of memory");
        return;
    }
    char rest[1024];
    rest_of_line(line, rest, sizeof rest);
    const char *cmd = t.count ? t.words[0] : "";
    if (t.count == 0)
        ;
    else if (strcmp(cmd, "quit") == 0 || strcmp(cmd, "exit") == 0)
        con.quit = true;
    else if (strcmp(cmd, "help") == 0 || strcmp(cmd, "?") == 0)
        help();
    else if (strcmp(cmd, "new") == 0)
        new_game(NULL, false);
    else if (strcmp(cmd, "new960") == 0)
        cmd_new960(&t);
    else if (strcmp(cmd, "fen") == 0 || strcmp(cmd, "setboard") == 0)
        cmd_fen(rest);
    else if (strcmp(cmd, "undo") == 0 || strcmp(cmd, "takeback") == 0)
        cmd_undo();
    else if (strcmp(cmd, "flip") == 0) {
        con.flipped = !con.flipped;
        show_board();
    } else if (strcmp(cmd, "board") == 0 || strcmp(cmd, "d") == 0)
        show_board();
    else if (strcmp(cmd, "moves") == 0)
        list_moves();
    else if (strcmp(cmd, "go") == 0)
        cmd_go();
    else if (strcmp(cmd, "auto") == 0 || strcmp(cmd, "self") == 0)
        cmd_auto(rest);
    else if (strcmp(cmd, "human") == 0) {
        con.engine_plays[WHITE] = con.engine_plays[BLACK] = false;
        out_line("Human against human: the engine makes no moves ('go' hands it the side to move)");
    } else if (strcmp(cmd, "hint") == 0)
        cmd_hint();
    else if (strcmp(cmd, "level") == 0 || strcmp(cmd, "time") == 0)
        cmd_level(rest);
    else if (strcmp(cmd, "depth") == 0)
        cmd_depth(rest);
    else if (strcmp(cmd, "post") == 0 || strcmp(cmd, "nopost") == 0) {
        con.post = strcmp(cmd, "post") == 0;
        out_line("Thinking output %s", con.post ? "on" : "off");
    } else if (strcmp(cmd, "resign") == 0)
        cmd_resign();
    else if (strcmp(cmd, "save") == 0)
        cmd_save(rest);
    else if (strcmp(cmd, "pgn") == 0)
        cmd_pgn(rest);
    else if (strcmp(cmd, "nopgn") == 0) {
        con.pgn_path[0] = '\0';
        cmd_pgn("");
    } else if (strcmp(cmd, "set") == 0)
        cmd_set(rest);
    else {
        char move[256];
        snprintf(move, sizeof move, "%s", line);
        trim(move);
        human_move(move);
    }
    tokens_free(&t);
    free(copy);
}

static void prompt(void)
{
    if (!con.interactive)
        return;
    fputs(color_name(board()->side), stdout);
    fputs("> ", stdout);
    fflush(stdout);
}

int console_loop(const char *first_line)
{
    con.interactive = isatty(STDIN_FILENO);
    con.unicode = isatty(STDOUT_FILENO) && locale_is_utf8();
    con.move_ms = DEFAULT_MOVE_MS;
    con.depth = 0;
    snprintf(con.pgn_path, sizeof con.pgn_path, "%s", GAMELOG_DEFAULT_FILE);
    con.engine_plays[WHITE] = false;
    con.engine_plays[BLACK] = true;
    con.scratch = malloc(sizeof *con.scratch);
    char error[256];
    if (!con.scratch || !gamelog_start(&con.log, NULL, error, sizeof error)) {
        out_line("Out of memory");
        free(con.scratch);
        return 1;
    }
    sync_engine();

    char *line = strdup(first_line ? first_line : "");
    if (line && line[strspn(line, " \t\r\n")] == '\0') {
        show_board();
        out_line("Type a move to play White, or 'help' for the commands.");
    }
    while (line && !con.quit) {
        out_trace_input(line);
        console_command(line);
        free(line);
        line = NULL;
        if (con.quit)
            break;
        prompt();
        const char *next = read_line(stdin);
        if (!next) {
            if (con.interactive)
                putchar('\n');
            break;
        }
        line = strdup(next);
    }
    free(line);
    save_game();
    engine_stop();
    engine_wait();
    gamelog_free(&con.log);
    free(con.scratch);
    con.scratch = NULL;
    return 0;
}
