#pragma once
/*
 * gamelog.h — the record of one game and its PGN.
 *
 * A GameLog holds what a PGN needs: the start position, the moves played
 * (each with its SAN, computed when it is added), the tags, and the result
 * with the reason for it. It keeps its own board, so it checks every move
 * it is given, knows the position for SAN and for the rules' game end, and
 * needs nothing from the engine: every front end (console, UCI, XBoard)
 * can keep one beside the engine's game.
 *
 * Use:
 *     GameLog log = { 0 };                  zeroed once; gamelog_free() at the end
 *     gamelog_start(&log, fen, err, n);     NULL fen: the standard start position
 *     gamelog_set_tag(&log, "White", "bachess");
 *     gamelog_add(&log, move);              after each move played (false if illegal)
 *     gamelog_finish_by_rules(&log);        mate, stalemate, 50 moves, threefold,
 *                                           dead position: sets result and reason
 *     gamelog_finish(&log, RESULT_WHITE_WINS, "Black resigns");   any other ending
 *     gamelog_append_to_file(&log, "games.pgn", err, n);
 *
 * The PGN follows the standard's export format: the Seven Tag Roster (Event,
 * Site, Date, Round, White, Black, Result) in its order, then the other tags
 * in ASCII order (SetUp and FEN for a game not from the start position,
 * PlyCount, Termination, and any a front end adds, e.g. TimeControl); a
 * blank line; the movetext with move numbers ("1. e4 e5", "12... Nf6" where
 * Black begins), wrapped to lines shorter than 80 columns; the reason as a
 * comment before the result ("{White mates} 1-0"); a blank line.
 */
#include <stdbool.h>
#include <stddef.h>

#include "board.h"
#include "notation.h"

typedef enum { RESULT_NONE, RESULT_WHITE_WINS, RESULT_BLACK_WINS, RESULT_DRAW } GameResult;

enum {
    GAMELOG_MAX_TAGS = 24,    /* the Seven Tag Roster and up to 17 more */
    GAMELOG_TAG_NAME = 32,
    GAMELOG_TAG_VALUE = 256,  /* the standard's limit for a tag value */
    GAMELOG_REASON = 128,
};

#define GAMELOG_DEFAULT_FILE "games.pgn"

typedef struct {
    Move move;
    char san[MOVE_TEXT_SIZE];
} GameMove;

typedef struct {
    char name[GAMELOG_TAG_NAME];
    char value[GAMELOG_TAG_VALUE];
} GameTag;

typedef struct {
    char start_fen[128];
    int start_ply;           /* of the start position, from its FEN */
    Board *board;            /* the position after the moves */
    GameMove *moves;
    int count, capacity;
    GameTag tags[GAMELOG_MAX_TAGS]; /* the first seven are the roster */
    int tag_count;
    GameResult result;
    char reason[GAMELOG_REASON];
    bool chess960;           /* a Chess960 game: Variant tag, FEN always */
} GameLog;

/* Begins a new game from `fen` (NULL: the start position), forgetting any
 * moves, result and extra tags. The roster starts as Event "?", Site "?",
 * today's Date, Round "-", White "?", Black "?", Result "*". On a bad FEN
 * (or no memory) the log is left as it was and `error` says why. */
bool gamelog_start(GameLog *g, const char *fen, char *error, size_t error_size);
/* The same for a Chess960 game when `chess960`: any castling layout, and
 * the PGN carries [Variant "chess960"] with SetUp and FEN. */
bool gamelog_start_960(GameLog *g, const char *fen, bool chess960, char *error, size_t error_size);
void gamelog_free(GameLog *g);

/* Sets a tag (a roster tag or any other); a NULL or empty value removes a
 * tag outside the roster. Result, SetUp, FEN and PlyCount are written from
 * the game itself and cannot be set. False if the name is not a PGN symbol
 * or there is no room. */
bool gamelog_set_tag(GameLog *g, const char *name, const char *value);
const char *gamelog_tag(const GameLog *g, const char *name); /* NULL if unset */

/* Appends a move legal in the current position; false (and nothing
 * changes) if it is not legal. Adding a move clears a result. */
bool gamelog_add(GameLog *g, Move m);
/* The same for a move in coordinate notation or SAN. */
bool gamelog_add_text(GameLog *g, const char *text);
/* Takes back the last move (and clears a result); false if there is none. */
bool gamelog_undo(GameLog *g);

const Board *gamelog_board(const GameLog *g);
static inline int gamelog_ply_count(const GameLog *g) { return g->count; }
/* The SAN a legal move m would have in the current position. */
void gamelog_san(const GameLog *g, Move m, char *out);
/* "12. Nf3" or "12... Nf6" for move `index` (0-based) of the game. */
void gamelog_numbered_san(const GameLog *g, int index, char *out, size_t size);

/* Records the result and why (the reason may be NULL or ""). */
void gamelog_finish(GameLog *g, GameResult result, const char *reason);
/* If the rules end the game in the current position, records the result
 * and the reason ("White mates", "Draw by stalemate", ...) and returns
 * true; otherwise changes nothing and returns false. */
bool gamelog_finish_by_rules(GameLog *g);
static inline bool gamelog_is_finished(const GameLog *g) { return g->result != RESULT_NONE; }

/* "1-0", "0-1", "1/2-1/2" or "*". */
const char *gamelog_result_text(GameResult result);

/* The whole game as PGN text, ending with a blank line; the caller frees
 * it. NULL if memory runs out. */
char *gamelog_pgn(const GameLog *g);
/* Appends the PGN to the file at `path` (created if missing), under an
 * exclusive lock so that engines sharing a file do not mix their games. */
bool gamelog_append_to_file(const GameLog *g, const char *path, char *error, size_t error_size);
