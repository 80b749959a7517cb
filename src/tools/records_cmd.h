#pragma once
/*
 * records_cmd.h — `bachess records GAMES OUT`: the training records of
 * stored self-play games. Each game of GAMES (viriformat, tools/viriformat.h;
 * `-` reads standard input) is replayed move by move, every move checked for
 * legality, and its quiet positions — the filter of datagen_keeps_position:
 * not in check, the move played neither a capture nor a promotion, no mate
 * score — are appended to OUT as 32-byte records (tools/packed_position.h),
 * labelled with the stored score and the game's result. The trainer reads
 * the self-play store this way (scripts/selfplay/store.py), so the store keeps
 * every ply and the filter can change without new games.
 */
#include <stdint.h>
#include <stdio.h>

typedef struct {
    int64_t games, plies, records;
} RecordsCount;

/* Reads every game of `games` and writes the records of their quiet
 * positions to `records`. Returns 0, or 1 with `error` naming the game and
 * the ply that is not a legal game (`count` then holds the games before). */
int records_from_games(FILE *games, FILE *records, RecordsCount *count, char *error, size_t error_size);

/* argv holds what follows `records`; returns the process exit status. */
int records_command(int argc, char **argv);
