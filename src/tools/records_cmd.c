/* records_cmd.c — the training records of stored games (see records_cmd.h). */
#include "tools/records_cmd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "tools/datagen.h"
#include "tools/packed_position.h"
#include "tools/viriformat.h"

typedef enum { READ_GAME, READ_END, READ_BAD } ReadStatus;

/* Replays the plies of the game that starts on `b`, writing a record of
 * each quiet position; stops at the four zero bytes. */
static ReadStatus replay_game(FILE *in, FILE *out, Board *b, int result, RecordsCount *count, char *error,
                              size_t error_size)
{
    uint8_t bytes[VIRI_PLY_SIZE];
    for (int ply = 0;; ply++) {
        if (fread(bytes, 1, sizeof bytes, in) != sizeof bytes) {
            snprintf(error, error_size, "game %lld: cut off at ply %d", (long long)count->games + 1, ply);
            return READ_BAD;
        }
        ViriPly stored = viri_ply_from_bytes(bytes);
        if (stored.move == 0 && stored.white_score == 0)
            return READ_GAME;
        Move m = viri_move_decode(b, stored.move);
        if (m == MOVE_NONE) {
            snprintf(error, error_size, "game %lld, ply %d: move %#06x is not legal here", (long long)count->games + 1,
                     ply, stored.move);
            return READ_BAD;
        }
        int side_score = b->side == WHITE ? stored.white_score : -stored.white_score;
        if (datagen_keeps_position(b, m, side_score)) {
            PackedPosition p;
            packed_position_write(&p, b, stored.white_score, result);
            if (fwrite(&p, sizeof p, 1, out) != 1) {
                snprintf(error, error_size, "cannot write: %s", strerror(errno));
                return READ_BAD;
            }
            count->records++;
        }
        count->plies++;
        board_make_move(b, m);
        board_trim_history(b);
    }
}

static ReadStatus read_game(FILE *in, FILE *out, Board *b, RecordsCount *count, char *error, size_t error_size)
{
    ViriBoard start;
    size_t got = fread(start.bytes, 1, sizeof start.bytes, in);
    if (got == 0)
        return READ_END;
    int result;
    char why[128];
    if (got != sizeof start.bytes) {
        snprintf(error, error_size, "game %lld: the start board is cut off", (long long)count->games + 1);
        return READ_BAD;
    }
    if (!viri_board_read(&start, b, &result, why, sizeof why)) {
        snprintf(error, error_size, "game %lld: %s", (long long)count->games + 1, why);
        return READ_BAD;
    }
    return replay_game(in, out, b, result, count, error, error_size);
}

int records_from_games(FILE *games, FILE *records, RecordsCount *count, char *error, size_t error_size)
{
    *count = (RecordsCount){ 0 };
    Board *b = malloc(sizeof *b);
    if (!b) {
        snprintf(error, error_size, "out of memory");
        return 1;
    }
    ReadStatus status;
    while ((status = read_game(games, records, b, count, error, error_size)) == READ_GAME)
        count->games++;
    free(b);
    return status == READ_BAD;
}

int records_command(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: bachess records GAMES OUT\n"
                        "  the quiet positions of stored self-play games (GAMES, viriformat; - for standard\n"
                        "  input) as 32-byte training records, appended to OUT (docs/datagen.md)\n");
        return 2;
    }
    FILE *in = strcmp(argv[0], "-") == 0 ? stdin : fopen(argv[0], "rb");
    FILE *out = fopen(argv[1], "ab");
    if (!in || !out) {
        fprintf(stderr, "records: cannot open %s: %s\n", !in ? argv[0] : argv[1], strerror(errno));
        if (in && in != stdin)
            fclose(in);
        return 2;
    }
    RecordsCount count;
    char error[256];
    int status = records_from_games(in, out, &count, error, sizeof error);
    if (fclose(out) != 0 && status == 0)
        snprintf(error, sizeof error, "cannot write %s: %s", argv[1], strerror(errno)), status = 1;
    if (in != stdin)
        fclose(in);
    if (status)
        fprintf(stderr, "records: %s\n", error);
    printf("records: %lld games, %lld plies, %lld records\n", (long long)count.games, (long long)count.plies,
           (long long)count.records);
    return status;
}
