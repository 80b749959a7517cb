/* xboard.c — the XBoard / WinBoard (CECP v2) front end. */
#include "protocol/xboard.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine.h"
#include "movegen.h"
#include "notation.h"
#include "options.h"
#include "protocol/frontend_options.h"
#include "protocol/inbox.h"
#include "protocol/output.h"
#include "protocol/xboard_claims.h"
#include "protocol/xboard_clock.h"
#include "protocol/xboard_pgn.h"
#include "score.h"
#include "timer.h"
#include "tokens.h"
#include "tt.h"
#include "wdl.h"

#define ENGINE_NAME "bachess"

enum {
    RESIGN_MOVES = 3,         /* own moves in a row below the resign threshold */
    DRAW_ACCEPT_SCORE = -150, /* accept a draw offer when at least this much worse */
    MATE_OUTPUT = 100000,     /* CECP's mate score: 100000 + moves to mate */
    ECHO_LIMIT = 64,          /* characters of a refused command echoed back */
    FEN_SIZE = 512,
};

typedef enum { IDLE, THINKING, PONDERING, ANALYZING } Activity;

/* ---- shared with the search thread ---------------------------------------
 * Every search is tagged with the generation current when it started.
 * Bumping the generation disowns the running search: its thinking lines
 * are no longer printed and its best move is dropped. */
static atomic_uint generation;
static atomic_bool post_thinking;  /* post / nopost */
static atomic_bool quiet_search;   /* pondering without a predicted move: say nothing */
static _Atomic int64_t shown_nps;  /* nps mode of the running search; 0: wall time */

/* The last complete principal line of the running search. */
static pthread_mutex_t last_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    bool valid;
    int depth, score;
    Move first;
} last;

/* ---- owned by the front end's thread ------------------------------------- */
static struct {
    bool ready;
    bool force, analyzing, hard;
    Color engine_color;
    bool bad_position;       /* after a refused setboard: every move is refused */
    Activity activity;
    Move predicted;          /* pondering: the expected reply, played on the board */
    int64_t think_start;     /* when the engine's own clock started running */
    int64_t line_read;       /* when the line being handled was read: the GUI
                                starts the engine's clock when it sends it */
    XboardClock clock;
    bool own_score_valid;
    int own_score;           /* the score of the engine's last own move */
    int losing_moves;        /* own moves in a row below the resign threshold */
    Move hint;               /* the reply expected after the engine's move */
    Key hint_key;            /* the position the hint belongs to */
    char **deferred;         /* lines held back until the engine has moved */
    int deferred_count;
} xb;

static bool handle_line(char *line);

/* ---- text helpers ---------------------------------------------------------- */

/* `Error (reason): command`, the command echoed in short. */
static void reply_error(const char *reason, const Tokens *t)
{
    char echo[ECHO_LIMIT + 1];
    tokens_join(t, 0, echo, sizeof echo);
    out_line("Error (%s): %.*s", reason, ECHO_LIMIT, *echo ? echo : t->words[0]);
}

/* Scores as CECP shows them: centipawns normalised to the material
 * (wdl_normalize), or 100000 + N for mate
 * in N moves and -100000 - N for mated in N. */
static int cecp_score(int score, int material)
{
    if (score >= MATE_IN_MAX)
        return MATE_OUTPUT + (MATE - score + 1) / 2;
    if (score <= -MATE_IN_MAX)
        return -MATE_OUTPUT - (MATE + score) / 2;
    return wdl_normalize(score, material);
}

/* A move as XBoard wants it: coordinates, and O-O / O-O-O for castling in
 * Chess960, where the king's step alone can be ambiguous. */
static void move_text(Move m, char *out)
{
    if (move_kind(m) == MOVE_CASTLING && engine_board()->castle.chess960)
        strcpy(out, square_file(move_to(m)) == 6 ? "O-O" : "O-O-O");
    else
        move_to_coordinate(m, out);
}

static void on_info(const SearchInfo *info, void *context)
{
    /* A search stopped in depth 1 has no line to show: XBoard's thinking
     * output has no form without a depth and a score (the move is sent). */
    if ((unsigned)(uintptr_t)context != atomic_load(&generation) || info->pv_length == 0 || info->no_iteration)
        return;
    if (info->multipv == 1 && info->bound == BOUND_EXACT) {
        pthread_mutex_lock(&last_lock);
        last.valid = true;
        last.depth = info->depth;
        last.score = info->score;
        last.first = info->pv[0];
        pthread_mutex_unlock(&last_lock);
    }
    if (!atomic_load(&post_thinking) || atomic_load(&quiet_search))
        return;
    char pv[MAX_PLY * 6 + 2] = "";
    size_t used = 0;
    for (int i = 0; i < info->pv_length && used + 8 < sizeof pv; i++) {
        char move[MOVE_TEXT_SIZE];
        move_text(info->pv[i], move);
        used += (size_t)snprintf(pv + used, sizeof pv - used, "%s%s", i ? " " : "", move);
    }
    /* A PV ending in '?' failed low, in '!' failed high. */
    if (info->bound != BOUND_EXACT)
        snprintf(pv + used, sizeof pv - used, "%s", info->bound == BOUND_UPPER ? "?" : "!");
    if (info->depth == 0) { /* a book move: "(...)" marks a line that is not a search */
        out_line("0 0 0 0 (%s)", pv);
        return;
    }
    int64_t nps_mode = atomic_load(&shown_nps);
    int64_t cs = xboard_clock_shown_cs(nps_mode, info->nodes, info->time_ms);
    uint64_t nps = nps_mode > 0 ? (uint64_t)nps_mode : info->nodes * 1000 / (uint64_t)(info->time_ms > 0 ? info->time_ms : 1);
    /* Seldepth, nps and tbhits follow the nodes; a TAB must then precede the PV. */
    out_line("%d %d %lld %llu %d %llu %llu\t%s", info->depth, cecp_score(info->score, wdl_material(engine_board())), (long long)cs,
             (unsigned long long)info->nodes, info->seldepth, (unsigned long long)nps,
             (unsigned long long)info->tbhits, pv);
}

/* The search thread's last word: the move goes to the input thread, which
 * plays it, or drops it if the search was called off; the turn's account
 * goes to the trace either way. */
static void on_bestmove(Move best, Move ponder, void *context)
{
    out_trace_turn();
    inbox_post_bestmove((unsigned)(uintptr_t)context, best, ponder);
}

/* ---- results --------------------------------------------------------------- */

/* Claims the result if the game is over; true if it is (no move then). */
static bool claim_if_over(void)
{
    const char *claim = claim_game_end(engine_board());
    if (claim)
        out_line("%s", claim);
    return claim != NULL;
}

/* ---- searches ------------------------------------------------------------- */

static void start_search(Activity kind, const SearchLimits *limits, bool quiet)
{
    pthread_mutex_lock(&last_lock);
    last.valid = false;
    last.depth = 0;
    pthread_mutex_unlock(&last_lock);
    atomic_store(&quiet_search, quiet);
    atomic_store(&shown_nps, kind == ANALYZING ? 0 : xb.clock.nps);
    xb.activity = kind;
    xb.think_start = timeman_clock_start(limits);
    engine_go(limits, (SearchReport){ on_info, on_bestmove, (void *)(uintptr_t)atomic_load(&generation) });
}

static void run_deferred(void);

/* Stops whatever the engine is doing without a move being sent, and takes
 * a pondered move back off the board. */
static void cancel_search(void)
{
    if (xb.activity == IDLE)
        return;
    atomic_fetch_add(&generation, 1);
    engine_stop();
    engine_wait();
    if (xb.activity == PONDERING && xb.predicted != MOVE_NONE)
        engine_undo_move();
    xb.predicted = MOVE_NONE;
    xb.activity = IDLE;
    atomic_store(&quiet_search, false);
}

/* The engine moves for the side to move, unless the game is over. */
static void think(void)
{
    if (xb.bad_position || claim_if_over())
        return;
    SearchLimits limits;
    xboard_clock_limits(&xb.clock, engine_board(), &limits);
    limits.clock_started = xb.line_read;
    start_search(THINKING, &limits, false);
}

static void start_analysis(void)
{
    if (xb.bad_position)
        return;
    SearchLimits limits;
    timeman_init_limits(&limits);
    limits.infinite = true;
    start_search(ANALYZING, &limits, false);
}

/* After the engine's move, with `hard`: play the expected reply on the
 * board and think on it. Without one, think on the opponent's position
 * (only to fill the table: nothing is shown). */
static void start_ponder(Move predicted)
{
    if (!xb.hard || xb.force || xb.analyzing || xb.bad_position || xb.clock.nps > 0
        || engine_board()->side == xb.engine_color || game_status(engine_board()) != GAME_ONGOING)
        return;
    if (predicted != MOVE_NONE && move_is_legal(engine_board(), predicted)) {
        engine_play_move(predicted);
        if (game_status(engine_board()) != GAME_ONGOING) {
            engine_undo_move();
            predicted = MOVE_NONE;
        }
    } else
        predicted = MOVE_NONE;
    xb.predicted = predicted;
    SearchLimits limits;
    if (predicted != MOVE_NONE) {
        xboard_clock_limits(&xb.clock, engine_board(), &limits);
        limits.ponder = true;
    } else {
        timeman_init_limits(&limits);
        limits.infinite = true;
    }
    start_search(PONDERING, &limits, predicted == MOVE_NONE);
}

/* Resigns when the ResignScore option is set and the score has stayed
 * below minus that many centipawns for RESIGN_MOVES own moves. */
static bool should_resign(void)
{
    int64_t threshold = frontend_settings.resign_score;
    if (threshold <= 0 || !xb.own_score_valid || xb.own_score > -threshold) {
        xb.losing_moves = 0;
        return false;
    }
    return ++xb.losing_moves >= RESIGN_MOVES;
}

static int64_t thinking_time_ms(void)
{
    if (xb.clock.nps > 0)
        return (int64_t)((double)engine_last_nodes() * 1000.0 / (double)xb.clock.nps);
    return time_now_ms() - xb.think_start;
}

/* The engine's search has ended with `best`: send it, play it, claim the
 * result it brings, answer the pings held back, then ponder. */
static void finish_own_move(Move best, Move ponder)
{
    engine_wait();
    xb.activity = IDLE;
    pthread_mutex_lock(&last_lock);
    xb.own_score_valid = last.valid;
    xb.own_score = last.score;
    pthread_mutex_unlock(&last_lock);
    if (best == MOVE_NONE || !move_is_legal(engine_board(), best)) {
        claim_if_over();
        run_deferred();
        return;
    }
    xboard_clock_spent(&xb.clock, engine_board(), thinking_time_ms());
    if (should_resign()) {
        out_line("resign");
        xb.force = true;
        run_deferred();
        return;
    }
    char text[MOVE_TEXT_SIZE];
    move_text(best, text);
    engine_play_move(best);
    xboard_pgn_move(best, true);
    const char *claim = claim_game_end(engine_board());
    /* A draw this move makes claimable is offered before the move, so
     * that xboard can grant it without a race against the opponent. */
    if (claim_is_offerable_draw(claim))
        out_line("offer draw");
    out_line("move %s", text);
    if (claim) {
        out_line("%s", claim);
        run_deferred();
        return;
    }
    xb.hint = ponder;
    xb.hint_key = board_key(engine_board());
    run_deferred();
    start_ponder(ponder);
}

static void on_search_done(const InboxEvent *e)
{
    if (e->tag != atomic_load(&generation) || xb.activity != THINKING)
        return; /* a disowned search, or one that never sends a move */
    finish_own_move(e->best, e->ponder);
}

/* ---- lines held back while the engine thinks on its own time ------------- */

static void defer(const Tokens *t)
{
    size_t size = 1;
    for (int i = 0; i < t->count; i++)
        size += strlen(t->words[i]) + 1;
    char *line = malloc(size);
    char **grown = realloc(xb.deferred, sizeof *grown * (size_t)(xb.deferred_count + 1));
    if (grown)
        xb.deferred = grown;
    if (!line || !grown) {
        free(line);
        out_line("Error (out of memory): %.*s", ECHO_LIMIT, t->words[0]);
        return;
    }
    tokens_join(t, 0, line, size);
    xb.deferred[xb.deferred_count++] = line;
}

/* Runs the held-back lines once the engine no longer thinks on its own
 * time: after its move, or after the search was called off. */
static void run_deferred(void)
{
    while (xb.deferred_count > 0 && xb.activity != THINKING) {
        char *line = xb.deferred[0];
        memmove(xb.deferred, xb.deferred + 1, sizeof *xb.deferred * (size_t)--xb.deferred_count);
        xb.line_read = time_now_ms(); /* when it was read is not kept */
        handle_line(line);
        free(line);
    }
}

/* ---- moves from the GUI --------------------------------------------------- */

/* Why `text` is not a legal move here, in a few words. */
static const char *illegal_reason(const Board *b, const char *text)
{
    if (xb.bad_position)
        return "invalid position";
    MoveList list;
    generate_legal(b, &list);
    if (list.count == 0)
        return "game over";
    if (strlen(text) >= 4 && text[0] >= 'a' && text[0] <= 'h' && text[1] >= '1' && text[1] <= '8') {
        Piece p = board_piece_on(b, make_square(text[0] - 'a', text[1] - '1'));
        if (p == NO_PIECE)
            return "no piece there";
        if (piece_color(p) != b->side)
            return "wrong side to move";
    }
    return "not a legal move";
}

/* Does the GUI's text name the move the engine is pondering on? */
static bool is_predicted(const char *text)
{
    char expected[MOVE_TEXT_SIZE];
    move_text(xb.predicted, expected);
    return strlen(text) == strlen(expected) && strncasecmp(text, expected, strlen(expected)) == 0;
}

/* The time and otim that came with the move are the clock now: the search
 * started pondering with the clock after our last move, which the GUI may
 * have charged more than we counted. */
static void ponder_hit(void)
{
    xboard_pgn_move(xb.predicted, false); /* the expected move was played: it is real now */
    SearchLimits limits;
    xboard_clock_limits(&xb.clock, engine_board(), &limits);
    limits.clock_started = xb.line_read;
    engine_ponderhit_with_clock(&limits);
    xb.activity = THINKING;
    xb.predicted = MOVE_NONE;
    xb.think_start = xb.line_read;
}

static void user_move(const char *text)
{
    if (xb.activity == PONDERING && xb.predicted != MOVE_NONE && !xb.force && is_predicted(text)) {
        ponder_hit();
        return;
    }
    cancel_search();
    const Board *b = engine_board();
    Move m = xb.bad_position ? MOVE_NONE : move_parse(b, text);
    if (m == MOVE_NONE) {
        out_line("Illegal move (%s): %.*s", illegal_reason(b, text), ECHO_LIMIT, text);
        if (xb.analyzing)
            start_analysis();
        return;
    }
    engine_play_move(m);
    xboard_pgn_move(m, false);
    xb.hint = MOVE_NONE;
    if (xb.analyzing)
        start_analysis();
    else if (!xb.force && engine_board()->side == xb.engine_color)
        think();
}

/* A word the GUI may send as a bare move (when usermove was not accepted):
 * coordinates, SAN or castling, made of the letters moves are made of. */
static bool looks_like_move(const char *w)
{
    size_t len = strlen(w);
    if (len < 2 || len > 7 || strspn(w, "abcdefghKQRBNPqrbnO0123456789x=+#-") != len)
        return false;
    return strpbrk(w, "12345678") != NULL || w[0] == 'O' || w[0] == '0';
}

/* ---- commands -------------------------------------------------------------- */

static void cmd_protover(const Tokens *t)
{
    (void)t;
    out_line("feature done=0");
    out_line("feature myname=\"" ENGINE_NAME "\" ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=1");
    out_line("feature sigint=0 sigterm=0 reuse=1 analyze=1 colors=0 variants=\"normal,fischerandom\" name=1 ics=0");
    out_line("feature nps=1 memory=1 smp=1 debug=1 exclude=0 pause=0 egt=\"syzygy\"");
    options_describe_xboard(out_text_line);
    out_line("feature done=1");
}

static void reset_game_state(void)
{
    xb.bad_position = false;
    xb.hint = MOVE_NONE;
    xb.own_score_valid = false;
    xb.losing_moves = 0;
}

static void cmd_new(const Tokens *t)
{
    (void)t;
    cancel_search();
    char error[128];
    engine_set_chess960(false);
    engine_set_position(NULL, NULL, 0, error, sizeof error);
    engine_new_game();
    xboard_pgn_finish(NULL, NULL, xb.engine_color); /* a game left without a result */
    xboard_pgn_start(NULL);
    xb.force = false;
    xb.engine_color = BLACK;
    xboard_clock_new_game(&xb.clock);
    reset_game_state();
    if (xb.analyzing)
        start_analysis();
}

/* `variant fischerandom` follows `new` (which means normal chess) and comes
 * before the position (setboard) and the first move. */
static void cmd_variant(const Tokens *t)
{
    bool normal = t->count >= 2 && strcmp(t->words[1], "normal") == 0;
    bool chess960 = t->count >= 2 && strcmp(t->words[1], "fischerandom") == 0;
    if (!normal && !chess960) {
        out_line("Error (unsupported variant): %.*s", ECHO_LIMIT, t->count > 1 ? t->words[1] : "");
        return;
    }
    cancel_search();
    engine_set_chess960(chess960);
    xboard_pgn_finish(NULL, NULL, xb.engine_color);
    xboard_pgn_start(NULL);
}

static void cmd_force(const Tokens *t)
{
    (void)t;
    if (!xb.analyzing)
        cancel_search();
    xb.force = true;
}

static void cmd_go(const Tokens *t)
{
    (void)t;
    if (xb.activity == THINKING)
        return;
    cancel_search();
    xb.analyzing = false;
    xb.force = false;
    xb.engine_color = engine_board()->side;
    think();
}

static void cmd_playother(const Tokens *t)
{
    (void)t;
    cancel_search();
    xb.analyzing = false;
    xb.force = false;
    xb.engine_color = color_flip(engine_board()->side);
    start_ponder(MOVE_NONE);
}

/* `white` / `black`: obsolete, sent only with colors=1. The engine takes
 * the other colour; the side to move is left as the board has it. */
static void cmd_colour(const Tokens *t)
{
    cancel_search();
    xb.engine_color = strcmp(t->words[0], "white") == 0 ? BLACK : WHITE;
}

static void cmd_usermove(const Tokens *t)
{
    if (t->count < 2)
        reply_error("no move given", t);
    else
        user_move(t->words[1]);
}

static void cmd_move_now(const Tokens *t)
{
    (void)t;
    if (xb.activity == THINKING)
        engine_stop();
}

static void cmd_ping(const Tokens *t)
{
    /* While the engine thinks on its own time the answer waits for the
     * move, so that a stale move can never follow the pong. */
    if (xb.activity == THINKING)
        defer(t);
    else
        out_line("pong %.*s", ECHO_LIMIT, t->count > 1 ? t->words[1] : "");
}

static void cmd_draw(const Tokens *t)
{
    (void)t;
    const Board *b = engine_board();
    if (claim_game_end(b) || claim_dead_material(b) || (xb.own_score_valid && xb.own_score <= DRAW_ACCEPT_SCORE))
        out_line("offer draw");
}

/* result RES {COMMENT}: no more moves; the game goes to the PGN log. */
static void cmd_result(const Tokens *t)
{
    cancel_search();
    xb.analyzing = false;
    xb.force = true;
    char comment[256];
    tokens_join(t, 2, comment, sizeof comment);
    size_t len = strlen(comment);
    if (len >= 2 && comment[0] == '{' && comment[len - 1] == '}') {
        comment[len - 1] = '\0';
        memmove(comment, comment + 1, len - 1);
    }
    xboard_pgn_finish(t->count > 1 ? t->words[1] : NULL, comment, xb.engine_color);
}

static void cmd_setboard(const Tokens *t)
{
    char fen[FEN_SIZE];
    tokens_join(t, 1, fen, sizeof fen);
    cancel_search();
    char error[256];
    if (!engine_set_position(fen, NULL, 0, error, sizeof error)) {
        out_line("tellusererror Illegal position: %s", error);
        xb.bad_position = true;
        return;
    }
    xboard_pgn_finish(NULL, NULL, xb.engine_color);
    xboard_pgn_start(fen);
    reset_game_state();
    if (xb.analyzing)
        start_analysis();
}

static void cmd_undo(const Tokens *t)
{
    int plies = strcmp(t->words[0], "remove") == 0 ? 2 : 1;
    cancel_search();
    if (xb.bad_position || engine_board()->state_index < plies)
        reply_error("no move to undo", t);
    else {
        for (int i = 0; i < plies; i++) {
            engine_undo_move();
            xboard_pgn_undo();
        }
        xb.hint = MOVE_NONE;
    }
    if (xb.analyzing)
        start_analysis();
}

static void cmd_hard(const Tokens *t)
{
    xb.hard = strcmp(t->words[0], "hard") == 0;
    if (!xb.hard && xb.activity == PONDERING)
        cancel_search();
}

static void cmd_post(const Tokens *t)
{
    atomic_store(&post_thinking, strcmp(t->words[0], "post") == 0);
}

static void cmd_analyze(const Tokens *t)
{
    (void)t;
    cancel_search();
    xb.analyzing = true;
    xb.force = true;
    start_analysis();
}

static void cmd_exit(const Tokens *t)
{
    (void)t;
    if (xb.analyzing) {
        cancel_search();
        xb.analyzing = false;
    }
}

/* `.` in analysis: one status line, time in centiseconds. */
static void cmd_status(const Tokens *t)
{
    (void)t;
    if (xb.activity != ANALYZING)
        return;
    pthread_mutex_lock(&last_lock);
    int depth = last.depth;
    pthread_mutex_unlock(&last_lock);
    MoveList list;
    generate_legal(engine_board(), &list);
    out_line("stat01: %lld %llu %d %d %d", (long long)(time_now_ms() - xb.think_start) / 10,
             (unsigned long long)engine_last_nodes(), depth, 0, list.count);
}

static void cmd_hint(const Tokens *t)
{
    (void)t;
    Move m = MOVE_NONE;
    const Board *b = engine_board();
    if (xb.activity == PONDERING && xb.predicted != MOVE_NONE)
        m = xb.predicted; /* already on the board: the reply the engine expects */
    else if (xb.hint != MOVE_NONE && xb.hint_key == board_key(b) && move_is_legal(b, xb.hint))
        m = xb.hint;
    else if (xb.activity == ANALYZING) {
        pthread_mutex_lock(&last_lock);
        m = last.valid && move_is_legal(b, last.first) ? last.first : MOVE_NONE;
        pthread_mutex_unlock(&last_lock);
    }
    if (m != MOVE_NONE) {
        char text[MOVE_TEXT_SIZE];
        move_text(m, text);
        out_line("Hint: %s", text);
    }
}

static void cmd_book(const Tokens *t)
{
    (void)t;
    out_line("%s", ""); /* no book: only the closing empty line */
}

/* Options, hash size and threads need an idle engine. While it thinks on
 * its own time they wait for the move; pondering or analysis is stopped
 * for them (and analysis started again). */
static bool settle_for_setting(const Tokens *t)
{
    if (xb.activity == THINKING) {
        defer(t);
        return false;
    }
    cancel_search();
    return true;
}

static void set_option(const Tokens *t, const char *name, const char *value)
{
    char error[256];
    if (!option_set(name, value, error, sizeof error))
        reply_error(error, t);
    else if (*error)
        out_line("# %s", error);
}

/* memory N / cores N: a positive number, clamped to what the engine has. */
static void cmd_resource(const Tokens *t)
{
    bool memory = strcmp(t->words[0], "memory") == 0;
    char *end;
    errno = 0;
    long long n = t->count > 1 ? strtoll(t->words[1], &end, 10) : 0;
    if (t->count < 2 || *end || errno || n < 1) {
        reply_error("needs a positive number", t);
        return;
    }
    if (!settle_for_setting(t))
        return;
    long long most = memory ? MAX_HASH_MB : MAX_THREADS;
    char value[32];
    snprintf(value, sizeof value, "%lld", n > most ? most : n);
    set_option(t, memory ? "Hash" : "Threads", value);
    if (xb.analyzing && xb.activity == IDLE)
        start_analysis();
}

/* egtpath syzygy DIR[:DIR...]: the Syzygy tables (other kinds are not read).
 * As for every setting, while the engine thinks on its move the command
 * waits for the move (the search is not cut short); in analysis mode the
 * analysis starts again with the new tables. */
static void cmd_egtpath(const Tokens *t)
{
    if (t->count < 3 || strcmp(t->words[1], "syzygy") != 0) {
        reply_error(t->count < 3 ? "egtpath needs a kind and a path" : "only syzygy tablebases are supported", t);
        return;
    }
    if (!settle_for_setting(t))
        return;
    char path[512];
    tokens_join(t, 2, path, sizeof path);
    set_option(t, "SyzygyPath", path);
    if (xb.analyzing && xb.activity == IDLE)
        start_analysis();
}

static void cmd_option(const Tokens *t)
{
    if (t->count < 2) {
        reply_error("no option given", t);
        return;
    }
    if (!settle_for_setting(t))
        return;
    char assignment[512];
    tokens_join(t, 1, assignment, sizeof assignment);
    char error[256];
    if (!option_set_assignment(assignment, error, sizeof error))
        reply_error(error, t);
    else if (*error)
        out_line("# %s", error);
    if (xb.analyzing && xb.activity == IDLE)
        start_analysis();
}

/* level, st, sd, nps, time, otim: parsed by the clock; refused with the
 * reason, the engine keeping the old setting. */
static void cmd_clock(const Tokens *t)
{
    const char *w = t->words[0], *a1 = t->count > 1 ? t->words[1] : NULL;
    char why[128];
    bool ok;
    if (strcmp(w, "level") == 0)
        ok = xboard_clock_level(&xb.clock, a1, t->count > 2 ? t->words[2] : NULL, t->count > 3 ? t->words[3] : NULL, why, sizeof why);
    else if (strcmp(w, "st") == 0)
        ok = xboard_clock_st(&xb.clock, a1, why, sizeof why);
    else if (strcmp(w, "sd") == 0)
        ok = xboard_clock_sd(&xb.clock, a1, why, sizeof why);
    else if (strcmp(w, "nps") == 0)
        ok = xboard_clock_nps(&xb.clock, a1, why, sizeof why);
    else
        ok = xboard_clock_time(&xb.clock, strcmp(w, "time") == 0, a1, why, sizeof why);
    if (!ok)
        reply_error(why, t);
}

static void cmd_ignore(const Tokens *t) { (void)t; }

static void cmd_name(const Tokens *t)
{
    char name[128];
    tokens_join(t, 1, name, sizeof name);
    xboard_pgn_opponent(name);
}

typedef struct {
    const char *name;
    void (*run)(const Tokens *t);
} Command;

static const Command COMMANDS[] = {
    { "protover", cmd_protover }, { "new", cmd_new }, { "variant", cmd_variant }, { "force", cmd_force },
    { "go", cmd_go }, { "playother", cmd_playother }, { "white", cmd_colour }, { "black", cmd_colour },
    { "usermove", cmd_usermove }, { "?", cmd_move_now }, { "ping", cmd_ping }, { "draw", cmd_draw },
    { "result", cmd_result }, { "setboard", cmd_setboard }, { "undo", cmd_undo }, { "remove", cmd_undo },
    { "hard", cmd_hard }, { "easy", cmd_hard }, { "post", cmd_post }, { "nopost", cmd_post },
    { "analyze", cmd_analyze }, { "exit", cmd_exit }, { ".", cmd_status }, { "hint", cmd_hint },
    { "bk", cmd_book }, { "memory", cmd_resource }, { "cores", cmd_resource }, { "option", cmd_option },
    { "level", cmd_clock }, { "st", cmd_clock }, { "sd", cmd_clock }, { "nps", cmd_clock },
    { "time", cmd_clock }, { "otim", cmd_clock },
    /* Information only, or toggles with no meaning here. */
    { "xboard", cmd_ignore }, { "accepted", cmd_ignore }, { "rejected", cmd_ignore }, { "random", cmd_ignore },
    { "computer", cmd_ignore }, { "name", cmd_name }, { "rating", cmd_ignore }, { "ics", cmd_ignore },
    { "egtpath", cmd_egtpath },
};

static void setup(void)
{
    if (xb.ready)
        return;
    xb.ready = true;
    xb.engine_color = BLACK;
    xboard_clock_init(&xb.clock);
}

static bool handle_line(char *line)
{
    out_trace_input(line);
    Tokens t;
    if (!tokens_split(line, &t)) {
        out_line("Error (out of memory): line dropped");
        return true;
    }
    bool keep_going = true;
    if (t.count == 0)
        ;
    else if (strcmp(t.words[0], "quit") == 0) {
        cancel_search();
        keep_going = false;
    } else {
        size_t i = 0, n = sizeof COMMANDS / sizeof *COMMANDS;
        while (i < n && strcmp(COMMANDS[i].name, t.words[0]) != 0)
            i++;
        if (i < n)
            COMMANDS[i].run(&t);
        else if (looks_like_move(t.words[0]))
            user_move(t.words[0]);
        else
            out_line("Error (unknown command): %.*s", ECHO_LIMIT, t.words[0]);
    }
    tokens_free(&t);
    return keep_going;
}

bool xboard_command(char *line)
{
    setup();
    InboxEvent e;
    while (inbox_take(&e, false)) {
        if (e.kind == INBOX_BESTMOVE)
            on_search_done(&e);
        inbox_event_free(&e);
    }
    xb.line_read = time_now_ms();
    bool keep_going = handle_line(line);
    run_deferred();
    return keep_going;
}

int xboard_loop(const char *first_line)
{
    /* xboard may interrupt engines with SIGINT; sigint=0 asks it not to,
     * and this makes sure a stray one cannot kill the engine. */
    signal(SIGINT, SIG_IGN);
    setup();
    char *first = strdup(first_line);
    xb.line_read = time_now_ms();
    bool running = first && handle_line(first);
    free(first);
    if (running && !inbox_start_reader(stdin)) {
        out_line("tellusererror " ENGINE_NAME ": cannot start the input thread");
        running = false;
    }
    while (running) {
        InboxEvent e = {0}; /* inbox_take fills it; zeroed for gcc's flow analysis */
        inbox_take(&e, true);
        xb.line_read = e.kind == INBOX_LINE ? e.read_ms : time_now_ms();
        if (e.kind == INBOX_LINE)
            running = handle_line(e.line);
        else if (e.kind == INBOX_BESTMOVE)
            on_search_done(&e);
        else
            running = false;
        inbox_event_free(&e);
        if (running)
            run_deferred();
    }
    cancel_search();
    xboard_pgn_finish(NULL, NULL, xb.engine_color);
    xboard_pgn_free();
    return 0;
}
