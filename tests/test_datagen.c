/* test_datagen.c — the training-data record and `bachess datagen`: the
 * 32-byte record round trip, the same data for a seed whatever the number
 * of workers, and the filters on what is kept. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "movegen.h"
#include "score.h"
#include "support.h"
#include "tools/datagen.h"
#include "tools/packed_position.h"

static void setup(void)
{
    board_init();
    engine_init();
}
TestSuite(datagen, .init = setup, .fini = engine_quit, .timeout = 180);

Test(datagen, record_round_trip_over_the_perft_suite)
{
    int count;
    EpdEntry *suite = epd_load("perft.epd", &count);
    for (int i = 0; i < count; i++) {
        Board *b = board_from_fen(suite[i].fen);
        PackedPosition p;
        packed_position_write(&p, b, -123 + i, i % 3);
        UnpackedPosition u;
        packed_position_read(&p, &u);
        cr_assert_eq(u.occupied, board_occupied(b), "%s", suite[i].fen);
        int n = 0;
        for (Bitboard rest = board_occupied(b); rest; n++)
            cr_assert_eq(u.pieces[n], board_piece_on(b, pop_lsb(&rest)), "%s: piece %d", suite[i].fen, n);
        cr_assert_eq(u.score, -123 + i);
        cr_assert_eq(u.result, i % 3);
        cr_assert_eq(u.side, b->side);
        cr_assert_eq(u.ply, b->game_ply);
        free(b);
    }
    free(suite);
}

/* Runs datagen into a fresh temporary file, with an engine option if one is
 * given; returns its bytes and size. */
static unsigned char *generate_with(const char *games, const char *seed, const char *workers, const char *option,
                                    size_t *size)
{
    char path[] = "/tmp/bachess-datagen-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    char *argv[] = { "--out", path, "--games", (char *)games, "--nodes", "400", "--seed", (char *)seed,
                     "--threads", (char *)workers, "--opening-max-cp", "2000", "--option", (char *)option };
    int argc = sizeof argv / sizeof *argv - (option ? 0 : 2);
    cr_assert_eq(datagen_command(argc, argv), 0);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    rewind(f);
    unsigned char *data = malloc(*size + 1);
    cr_assert_eq(fread(data, 1, *size, f), *size);
    fclose(f);
    unlink(path);
    return data;
}

static unsigned char *generate(const char *games, const char *seed, const char *workers, size_t *size)
{
    return generate_with(games, seed, workers, NULL, size);
}

Test(datagen, same_data_for_a_seed_whatever_the_workers)
{
    size_t one, two, other;
    unsigned char *a = generate("6", "11", "1", &one);
    unsigned char *b = generate("6", "11", "2", &two);
    unsigned char *c = generate("6", "12", "1", &other);
    cr_assert_gt(one, 0);
    cr_assert_eq(one % PACKED_POSITION_SIZE, 0);
    cr_assert_eq(one, two, "1 and 2 workers wrote %zu and %zu bytes", one, two);
    cr_assert(memcmp(a, b, one) == 0, "1 and 2 workers wrote different data");
    cr_assert(other != one || memcmp(a, c, one) != 0, "another seed gave the same data");
    free(a), free(b), free(c);
}

/* A full disk is an error, not a run that looks finished. */
Test(datagen, a_failed_write_is_an_error)
{
    char *argv[] = { "--out", "/dev/full", "--games", "2", "--nodes", "400", "--threads", "2" };
    cr_assert_eq(datagen_command(sizeof argv / sizeof *argv, argv), 1);
}

/* --option reaches the games: the same seed searched with the network makes
 * other data, and an option the engine refuses stops the run before a game. */
Test(datagen, engine_options_reach_every_game)
{
    size_t classical_size, nnue_size;
    unsigned char *classical = generate_with("4", "5", "2", "Evaluation=Classical", &classical_size);
    unsigned char *nnue = generate_with("4", "5", "2", "Evaluation=NNUE", &nnue_size);
    cr_assert_gt(nnue_size, 0);
    cr_assert(nnue_size != classical_size || memcmp(classical, nnue, nnue_size) != 0,
              "Evaluation=NNUE made the same data as Evaluation=Classical");
    free(classical), free(nnue);
    const char *refused[] = { "Evaluation=Sideways", "NoSuchOption=1", "Evaluation", "=NNUE" };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        char *argv[] = { "--out", "/dev/null", "--games", "1", "--option", (char *)refused[i] };
        cr_assert_eq(datagen_command(sizeof argv / sizeof *argv, argv), 2, "--option %s was taken", refused[i]);
    }
}

/* Every record: a legal position, not in check, no mate score, a result. */
Test(datagen, kept_positions_are_quiet_and_labelled)
{
    size_t size;
    unsigned char *data = generate("6", "3", "1", &size);
    int records = (int)(size / PACKED_POSITION_SIZE), results[3] = { 0 };
    Board *b = malloc(sizeof *b);
    for (int i = 0; i < records; i++) {
        UnpackedPosition u;
        packed_position_read((const PackedPosition *)(data + (size_t)i * PACKED_POSITION_SIZE), &u);
        char fen[128] = "";
        for (int rank = 7; rank >= 0; rank--) {
            int empty = 0;
            for (int file = 0; file < 8; file++) {
                Square s = make_square(file, rank);
                if (!(u.occupied & square_bb(s))) {
                    empty++;
                    continue;
                }
                if (empty)
                    snprintf(fen + strlen(fen), sizeof fen - strlen(fen), "%d", empty), empty = 0;
                int index = popcount(u.occupied & (square_bb(s) - 1));
                snprintf(fen + strlen(fen), sizeof fen - strlen(fen), "%c", "PNBRQKpnbrqk"[u.pieces[index]]);
            }
            if (empty)
                snprintf(fen + strlen(fen), sizeof fen - strlen(fen), "%d", empty);
            if (rank)
                strcat(fen, "/");
        }
        strcat(fen, u.side == WHITE ? " w - - 0 1" : " b - - 0 1");
        char error[128];
        cr_assert(board_set_fen(b, fen, error, sizeof error), "record %d: %s (%s)", i, fen, error);
        cr_assert_not(board_in_check(b), "record %d is in check: %s", i, fen);
        cr_assert(!is_mate_score(u.score), "record %d has a mate score", i);
        cr_assert(u.result >= 0 && u.result <= 2);
        results[u.result]++;
    }
    cr_log_info("%d records: %d losses, %d draws, %d wins for White", records, results[0], results[1], results[2]);
    cr_assert_gt(records, 50);
    free(b);
    free(data);
}
