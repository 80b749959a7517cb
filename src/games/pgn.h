#pragma once
/*
 * pgn.h — reading and writing games in Portable Game Notation.
 *
 * The reader streams a file of any size game by game. It takes what real
 * files contain: tag pairs with escaped strings, SAN in all its legal and
 * sloppy forms (notation.h), move numbers written any way ("1.", "1...",
 * "1.e4"), brace and semicolon comments, recursive variations, NAGs and
 * "!?" suffixes, "%" escape lines, FEN/SetUp tags, CRLF line ends, Latin-1
 * or UTF-8 bytes, and games cut off without a result (they end at the next
 * tag section or the end of the file and are marked `truncated`). Only the
 * main line is kept, and every move in it has been checked to be legal.
 *
 * Standard chess always; Chess960 (a Variant tag "Chess960", "Chess 960",
 * "Fischerandom", any case; the FEN's castling field in X-FEN or
 * Shredder-FEN) when the tool asks for it with pgn_allow_chess960: a tool
 * that knows only standard chess (an opening book) gets such a game as
 * unreadable, like any other variant.
 *
 * A game that cannot be read — an illegal move, a bad tag, a broken FEN,
 * an unclosed comment or variation — is reported with its number in the
 * file and the line of the fault, and skipped; reading goes on with the
 * next game.
 *
 * The writer produces export-format PGN (Seven Tag Roster first, SAN from
 * notation.c, lines under 80 columns) for the game log and the tools.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "board.h"

typedef struct {
    char *name, *value;
} PgnTag;

typedef struct {
    int number;            /* 1-based position in the file, bad games counted too */
    int line;              /* line where the game starts */
    PgnTag *tags;
    int tag_count;
    char fen[128];         /* the start position: START_FEN unless a FEN tag gives one */
    bool has_fen;
    bool chess960;         /* a Chess960 game: the board and moves follow its castling rules */
    Move *moves;           /* the main line, every move legal */
    int move_count;
    int plies;             /* main-line plies in the file (more than move_count past a move limit) */
    char result[8];        /* "1-0", "0-1", "1/2-1/2" or "*": the game's end marker, else its Result tag */
    bool truncated;        /* ended without an end marker */
    int comments, variations, nags;
} PgnGame;

typedef struct {
    int game;              /* the game's number in the file */
    int line;              /* the line of the fault */
    char message[200];
} PgnError;

typedef enum { PGN_END, PGN_GAME, PGN_BAD_GAME } PgnStatus;

typedef struct PgnReader PgnReader;

/* NULL with `error` set when the file cannot be opened. */
PgnReader *pgn_open(const char *path, char *error, size_t error_size);
/* Reads PGN text held in memory (copied). */
PgnReader *pgn_open_text(const char *text, size_t size);
void pgn_close(PgnReader *r);

/* Only the first `plies` main-line moves are parsed and checked (the rest
 * is read over); 0, the default, means all. For building books. */
void pgn_set_move_limit(PgnReader *r, int plies);
/* Chess960 games are read too (false, the default: reported as unreadable). */
void pgn_allow_chess960(PgnReader *r, bool allowed);

/* The next game: PGN_GAME and *game (valid until the next call), or
 * PGN_BAD_GAME and *error (the game is skipped), or PGN_END. */
PgnStatus pgn_next(PgnReader *r, const PgnGame **game, PgnError *error);

/* For progress reports: bytes read so far and the file's size (0 if not known). */
long long pgn_bytes_read(const PgnReader *r);
long long pgn_file_size(const PgnReader *r);

/* The value of a tag, or NULL. */
const char *pgn_tag(const PgnGame *g, const char *name);

/* Writes one game in export format. `tags` may hold any tags; the Seven Tag
 * Roster comes first (missing ones as "?"), then the others in their order.
 * `fen` NULL or the start position means the standard start; any other
 * position adds SetUp and FEN tags (standard chess only). `result` NULL means "*". Returns false
 * if a move is not legal (nothing is written then). */
bool pgn_write_game(FILE *out, const PgnTag *tags, int tag_count, const char *fen,
                    const Move *moves, int move_count, const char *result);
