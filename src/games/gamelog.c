/* gamelog.c — a game's record and its PGN text. */
#include "games/gamelog.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "platform.h"
#include "games/pgn_text.h"
#include "movegen.h"


/* Tags written from the game itself, never stored. */
static bool is_derived_tag(const char *name)
{
    return strcmp(name, "Result") == 0 || strcmp(name, "SetUp") == 0 || strcmp(name, "FEN") == 0
        || strcmp(name, "PlyCount") == 0 || strcmp(name, "Variant") == 0;
}

/* A PGN symbol: a letter or digit, then letters, digits and _+#=:- . */
static bool is_tag_name(const char *name)
{
    size_t len = strlen(name);
    if (len == 0 || len >= GAMELOG_TAG_NAME || !isalnum((unsigned char)name[0]))
        return false;
    for (const char *c = name; *c; c++)
        if (!isalnum((unsigned char)*c) && !strchr("_+#=:-", *c))
            return false;
    return true;
}

static int find_tag(const GameLog *g, const char *name)
{
    for (int i = 0; i < g->tag_count; i++)
        if (strcmp(g->tags[i].name, name) == 0)
            return i;
    return -1;
}

static void put_tag(GameTag *t, const char *name, const char *value)
{
    snprintf(t->name, sizeof t->name, "%s", name);
    snprintf(t->value, sizeof t->value, "%s", value);
}

static void reset_tags(GameLog *g)
{
    static const char *const DEFAULTS[] = { "?", "?", "????.??.??", "-", "?", "?", "*" };
    for (int i = 0; i < PGN_ROSTER_SIZE; i++)
        put_tag(&g->tags[i], PGN_ROSTER[i], DEFAULTS[i]);
    g->tag_count = PGN_ROSTER_SIZE;
    time_t now = time(NULL);
    struct tm day;
    if (localtime_r(&now, &day))
        strftime(g->tags[2].value, sizeof g->tags[2].value, "%Y.%m.%d", &day);
}

/* Replays the stored moves on a fresh board from the start position. */
static bool replay(GameLog *g, int count)
{
    char error[128];
    if (!board_set_fen_960(g->board, g->start_fen, g->chess960, error, sizeof error))
        return false;
    for (int i = 0; i < count; i++) {
        board_make_move(g->board, g->moves[i].move);
        board_trim_history(g->board);
    }
    return true;
}

bool gamelog_start(GameLog *g, const char *fen, char *error, size_t error_size)
{
    return gamelog_start_960(g, fen, false, error, error_size);
}

bool gamelog_start_960(GameLog *g, const char *fen, bool chess960, char *error, size_t error_size)
{
    Board *b = g->board ? g->board : malloc(sizeof *b);
    if (!b) {
        snprintf(error, error_size, "out of memory");
        return false;
    }
    /* board_set_fen leaves the board as it was when the FEN is bad. */
    if (!board_set_fen_960(b, fen ? fen : START_FEN, chess960, error, error_size)) {
        if (!g->board)
            free(b);
        return false;
    }
    g->board = b;
    g->chess960 = chess960;
    board_get_fen(b, g->start_fen, sizeof g->start_fen);
    g->start_ply = b->game_ply;
    g->count = 0;
    g->result = RESULT_NONE;
    g->reason[0] = '\0';
    reset_tags(g);
    return true;
}

void gamelog_free(GameLog *g)
{
    free(g->board);
    free(g->moves);
    *g = (GameLog){ 0 };
}

bool gamelog_set_tag(GameLog *g, const char *name, const char *value)
{
    if (!name || !is_tag_name(name) || is_derived_tag(name))
        return false;
    int i = find_tag(g, name);
    bool roster = i >= 0 && i < PGN_ROSTER_SIZE;
    if (!value || !*value) {
        if (roster)
            put_tag(&g->tags[i], name, "?");
        else if (i >= 0)
            memmove(&g->tags[i], &g->tags[i + 1], sizeof *g->tags * (size_t)(--g->tag_count - i));
        return true;
    }
    if (i < 0) {
        if (g->tag_count >= GAMELOG_MAX_TAGS)
            return false;
        i = g->tag_count++;
    }
    put_tag(&g->tags[i], name, value);
    return true;
}

const char *gamelog_tag(const GameLog *g, const char *name)
{
    int i = find_tag(g, name);
    return i < 0 ? NULL : g->tags[i].value;
}

const Board *gamelog_board(const GameLog *g) { return g->board; }

void gamelog_san(const GameLog *g, Move m, char *out)
{
    move_to_san(g->board, m, out);
}

bool gamelog_add(GameLog *g, Move m)
{
    if (!g->board || m == MOVE_NONE || !move_is_legal(g->board, m))
        return false;
    if (g->count == g->capacity) {
        int capacity = g->capacity ? 2 * g->capacity : 128;
        GameMove *grown = realloc(g->moves, sizeof *grown * (size_t)capacity);
        if (!grown)
            return false;
        g->moves = grown;
        g->capacity = capacity;
    }
    GameMove *gm = &g->moves[g->count++];
    gm->move = m;
    move_to_san(g->board, m, gm->san);
    board_make_move(g->board, m);
    board_trim_history(g->board);
    g->result = RESULT_NONE;
    g->reason[0] = '\0';
    return true;
}

bool gamelog_add_text(GameLog *g, const char *text)
{
    return g->board && gamelog_add(g, move_parse(g->board, text));
}

bool gamelog_undo(GameLog *g)
{
    if (!g->board || g->count == 0)
        return false;
    g->count--;
    g->result = RESULT_NONE;
    g->reason[0] = '\0';
    replay(g, g->count);
    return true;
}

/* Move numbers follow the start position's full-move number and side. */
void gamelog_numbered_san(const GameLog *g, int index, char *out, size_t size)
{
    int ply = g->start_ply + index;
    snprintf(out, size, "%d.%s %s", ply / 2 + 1, ply % 2 ? ".." : "", g->moves[index].san);
}

void gamelog_finish(GameLog *g, GameResult result, const char *reason)
{
    g->result = result;
    snprintf(g->reason, sizeof g->reason, "%s", reason ? reason : "");
}

bool gamelog_finish_by_rules(GameLog *g)
{
    if (!g->board)
        return false;
    GameStatus status = game_status(g->board);
    switch (status) {
    case GAME_ONGOING:
        return false;
    case GAME_CHECKMATE:
        if (g->board->side == WHITE)
            gamelog_finish(g, RESULT_BLACK_WINS, "Black mates");
        else
            gamelog_finish(g, RESULT_WHITE_WINS, "White mates");
        return true;
    default: {
        char reason[GAMELOG_REASON];
        snprintf(reason, sizeof reason, "Draw by %s", game_status_text(status));
        gamelog_finish(g, RESULT_DRAW, reason);
        return true;
    }
    }
}

const char *gamelog_result_text(GameResult result)
{
    switch (result) {
    case RESULT_WHITE_WINS: return "1-0";
    case RESULT_BLACK_WINS: return "0-1";
    case RESULT_DRAW: return "1/2-1/2";
    default: return "*";
    }
}

/* ---- PGN text ---------------------------------------------------------- */

/* The Termination tag's standard values, guessed from the reason unless a
 * front end set the tag itself. */
static const char *termination(const GameLog *g)
{
    const char *set = gamelog_tag(g, "Termination");
    if (set)
        return set;
    if (g->result == RESULT_NONE)
        return "unterminated";
    char lower[GAMELOG_REASON];
    size_t n = 0;
    for (const char *c = g->reason; *c && n + 1 < sizeof lower; c++)
        lower[n++] = (char)tolower((unsigned char)*c);
    lower[n] = '\0';
    if (strstr(lower, "time") || strstr(lower, "flag"))
        return "time forfeit";
    if (strstr(lower, "adjudicat"))
        return "adjudication";
    if (strstr(lower, "abandon") || strstr(lower, "disconnect"))
        return "abandoned";
    return "normal";
}

static int compare_tags(const void *a, const void *b)
{
    return strcmp(((const GameTag *)a)->name, ((const GameTag *)b)->name);
}

static bool from_start_position(const GameLog *g)
{
    return strcmp(g->start_fen, START_FEN) == 0;
}

static void write_tags(const GameLog *g, FILE *out)
{
    for (int i = 0; i < PGN_ROSTER_SIZE; i++)
        pgn_write_tag(out, PGN_ROSTER[i], i == PGN_ROSTER_RESULT ? gamelog_result_text(g->result) : g->tags[i].value);
    /* The others in ASCII order, the derived ones among them. */
    GameTag others[GAMELOG_MAX_TAGS + 5]; /* + the derived SetUp, FEN, Variant, PlyCount, Termination */
    int n = 0;
    for (int i = PGN_ROSTER_SIZE; i < g->tag_count; i++)
        if (strcmp(g->tags[i].name, "Termination") != 0)
            others[n++] = g->tags[i];
    if (!from_start_position(g) || g->chess960) {
        put_tag(&others[n++], "SetUp", "1");
        put_tag(&others[n++], "FEN", g->start_fen);
    }
    if (g->chess960)
        put_tag(&others[n++], "Variant", "chess960");
    char plies[16];
    snprintf(plies, sizeof plies, "%d", g->count);
    put_tag(&others[n++], "PlyCount", plies);
    put_tag(&others[n++], "Termination", termination(g));
    qsort(others, (size_t)n, sizeof *others, compare_tags);
    for (int i = 0; i < n; i++)
        pgn_write_tag(out, others[i].name, others[i].value);
}

static void write_movetext(const GameLog *g, FILE *out)
{
    PgnLine w = { out, 0 };
    for (int i = 0; i < g->count; i++)
        pgn_write_move(&w, g->start_ply + i, i == 0, g->moves[i].san);
    if (g->reason[0]) {
        /* The reason as a comment, word by word; braces cannot nest. */
        char comment[GAMELOG_REASON + 2];
        size_t n = 0;
        comment[n++] = '{';
        for (const char *c = g->reason; *c && n + 2 < sizeof comment; c++)
            comment[n++] = *c == '}' ? ')' : *c == '{' ? '(' : iscntrl((unsigned char)*c) ? ' ' : *c;
        comment[n++] = '}';
        comment[n] = '\0';
        for (char *save = NULL, *part = strtok_r(comment, " ", &save); part; part = strtok_r(NULL, " ", &save))
            pgn_write_word(&w, part);
    }
    pgn_write_word(&w, gamelog_result_text(g->result));
    fputs("\n\n", out);
}

char *gamelog_pgn(const GameLog *g)
{
    if (!g->board)
        return NULL;
    char *text = NULL;
    size_t size = 0;
    FILE *out = platform_memstream(&text, &size);
    if (!out)
        return NULL;
    write_tags(g, out);
    fputc('\n', out);
    write_movetext(g, out);
    if (platform_memstream_close(out) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

bool gamelog_append_to_file(const GameLog *g, const char *path, char *error, size_t error_size)
{
    char *text = gamelog_pgn(g);
    if (!text) {
        snprintf(error, error_size, "out of memory");
        return false;
    }
    FILE *f = fopen(path, "a");
    if (!f) {
        snprintf(error, error_size, "cannot open %s: %s", path, strerror(errno));
        free(text);
        return false;
    }
    platform_lock_file(f, true);
    bool ok = fputs(text, f) >= 0 && fflush(f) == 0;
    if (!ok)
        snprintf(error, error_size, "cannot write %s: %s", path, strerror(errno));
    platform_lock_file(f, false);
    if (fclose(f) != 0 && ok) {
        snprintf(error, error_size, "cannot write %s: %s", path, strerror(errno));
        ok = false;
    }
    free(text);
    return ok;
}
