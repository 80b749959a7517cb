/* test_datagen.c — the training-data record and `bachess datagen`: the
 * 32-byte record round trip, the same data for a seed whatever the number
 * of workers, the filters on what is kept, adjudication, openings from EPD
 * and PGN files, appending, the --help text, stopping a run by a signal or
 * by the parent's death, and the soft node limit of its searches. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "engine.h"
#include "engine_options.h"
#include "movegen.h"
#include "notation.h"
#include "score.h"
#include "support.h"
#include "tt.h"
#include "tools/datagen.h"
#include "tools/packed_position.h"
#include "tools/records_cmd.h"
#include "tools/workers.h"

static void setup(void)
{
    board_init();
    engine_init();
    engine_register_options();
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
    char *argv[] = { "--records", path, "--out", "/dev/null", "--games", (char *)games, "--nodes", "400", "--seed",
                     (char *)seed, "--threads", (char *)workers, "--opening-max-cp", "2000", "--option", (char *)option };
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

/* ---- helpers for the tests below ----------------------------------------------- */

/* A fresh temporary path (the file exists, empty). */
static void temp_path(char *path, size_t size, const char *suffix)
{
    snprintf(path, size, "/tmp/bachess-datagen-XXXXXX%s", suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    cr_assert(fd >= 0, "mkstemps: %s", strerror(errno));
    close(fd);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

/* What `bachess records` finds in the stored games of a file: fails the
 * test if they do not decode. */
static RecordsCount stored_games(const char *path)
{
    FILE *in = fopen(path, "rb"), *out = fopen("/dev/null", "wb");
    cr_assert(in && out, "%s", path);
    RecordsCount count;
    char error[256];
    cr_assert_eq(records_from_games(in, out, &count, error, sizeof error), 0, "%s: %s", path, error);
    fclose(in), fclose(out);
    return count;
}

/* The whole file; its size in *size. */
static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    rewind(f);
    unsigned char *data = malloc(*size + 1);
    cr_assert_eq(fread(data, 1, *size, f), *size);
    fclose(f);
    return data;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* datagen_command with standard error caught in `err` (NUL-terminated). */
static int datagen_catching_stderr(int argc, char **argv, char *err, size_t err_size)
{
    char path[64];
    temp_path(path, sizeof path, "");
    fflush(stderr);
    int saved = dup(2), fd = open(path, O_WRONLY | O_TRUNC);
    dup2(fd, 2);
    close(fd);
    int status = datagen_command(argc, argv);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    size_t size;
    char *text = (char *)read_file(path, &size);
    snprintf(err, err_size, "%.*s", (int)size, text);
    free(text);
    unlink(path);
    return status;
}

static UnpackedPosition record(const unsigned char *data, int i)
{
    UnpackedPosition u;
    packed_position_read((const PackedPosition *)(data + (size_t)i * PACKED_POSITION_SIZE), &u);
    return u;
}

/* Black without queen and rooks while White has all sixteen pieces: the
 * unbalanced opening below, not a game from the start position (it would
 * take black giving away 23 points of material for nothing). */
static bool from_unbalanced_opening(const UnpackedPosition *u)
{
    int white = 0, black_heavy = 0;
    for (int i = 0; i < popcount(u->occupied); i++) {
        white += u->pieces[i] < 6;
        black_heavy += u->pieces[i] == 9 || u->pieces[i] == 10; /* black rook, queen */
    }
    return white == 16 && black_heavy == 0;
}

/* Does the record hold the position of `fen` (pieces and side to move)? */
static bool record_is(const UnpackedPosition *u, const char *fen)
{
    Board *b = board_from_fen(fen);
    bool same = u->occupied == board_occupied(b) && u->side == b->side;
    int n = 0;
    for (Bitboard rest = board_occupied(b); same && rest; n++)
        same = u->pieces[n] == board_piece_on(b, pop_lsb(&rest));
    free(b);
    return same;
}

/* ---- what is kept ----------------------------------------------------------------- */

static bool keeps(const char *fen, const char *move, int score)
{
    Board *b = board_from_fen(fen);
    Move m = move_from_coordinate(b, move);
    cr_assert_neq(m, MOVE_NONE, "%s in %s", move, fen);
    bool kept = datagen_keeps_position(b, m, score);
    free(b);
    return kept;
}

/* The records do not store the move, so the filter is asked directly. */
Test(datagen, captures_promotions_checks_and_mates_are_not_kept)
{
    const char *pawns = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
    cr_assert(keeps(pawns, "e4e5", 35), "a quiet move was dropped");
    cr_assert_not(keeps(pawns, "e4d5", 35), "a capture was kept");
    cr_assert_not(keeps("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 0), "an en-passant capture was kept");
    cr_assert_not(keeps("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", 900), "a promotion was kept");
    cr_assert_not(keeps("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n", 300), "an under-promotion was kept");
    cr_assert_not(keeps("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "e1f1", -500), "a position in check was kept");
    cr_assert_not(keeps(pawns, "e4e5", mate_in(5)), "a mate score was kept");
    cr_assert_not(keeps(pawns, "e4e5", mated_in(6)), "a mated score was kept");
}

/* ---- adjudication --------------------------------------------------------------- */

/* Feeds White-view scores from `first_ply` on; the ply of the verdict's
 * score (its index in `scores`) and the verdict, or -1 and -1. */
static int adjudicate_all(const int *scores, int count, int first_ply, int *verdict)
{
    const AdjudicationRules rules = { .win_cp = 1000, .win_plies = 6, .draw_cp = 10, .draw_plies = 12,
                                      .draw_after_ply = 80 };
    Adjudicator a = { 0, 0, 0 };
    for (int i = 0; i < count; i++)
        if ((*verdict = datagen_adjudicate(&a, &rules, scores[i], first_ply + i)) >= 0)
            return i;
    return -1;
}

Test(datagen, adjudication_of_wins_and_draws)
{
    int verdict, s[40];
    for (int i = 0; i < 6; i++)
        s[i] = 1000 + 50 * i;
    cr_assert_eq(adjudicate_all(s, 6, 30, &verdict), 5, "six plies at +1000 or more are a White win");
    cr_assert_eq(verdict, 2);
    for (int i = 0; i < 6; i++)
        s[i] = -s[i];
    cr_assert_eq(adjudicate_all(s, 6, 30, &verdict), 5);
    cr_assert_eq(verdict, 0, "six plies at -1000 or less are a Black win");
    int broken[] = { 1200, 1200, 1200, 1200, 1200, 999, 1200, 1200, 1200, 1200, 1200 };
    cr_assert_eq(adjudicate_all(broken, 11, 30, &verdict), -1, "the run starts again after a ply below the bound");
    int swinging[] = { 1500, -1500, 1500, -1500, 1500, -1500, 1500, -1500 };
    cr_assert_eq(adjudicate_all(swinging, 8, 30, &verdict), -1, "a win run belongs to one side");

    for (int i = 0; i < 40; i++)
        s[i] = i % 2 ? 10 : -10;
    cr_assert_eq(adjudicate_all(s, 12, 90, &verdict), 11, "twelve plies within 10 cp after ply 80 are a draw");
    cr_assert_eq(verdict, 1);
    cr_assert_eq(adjudicate_all(s, 12, 40, &verdict), -1, "no draw before ply 80");
    cr_assert_eq(adjudicate_all(s, 40, 60, &verdict), 20, "the draw comes at ply 80");
    s[5] = 11;
    cr_assert_eq(adjudicate_all(s, 18, 90, &verdict), 17, "a score past 10 cp starts the count again");
}

/* ---- runs into files ----------------------------------------------------------- */

/* datagen's records into `path` with the common settings of these tests and `extra`
 * arguments (NULL-terminated); the exit status. */
static int run_datagen(const char *path, const char *const *extra)
{
    char *argv[32] = { "--records", (char *)path, "--out", "/dev/null", "--nodes", "300", "--opening-max-cp", "2000" };
    int argc = 8;
    while (*extra && argc < 32)
        argv[argc++] = (char *)*extra++;
    return datagen_command(argc, argv);
}

/* The file is opened for appending: a second run adds its records after
 * the first's, which stay as they were. */
Test(datagen, a_second_run_appends)
{
    char path[64];
    temp_path(path, sizeof path, "");
    const char *const args[] = { "--games", "3", "--seed", "21", NULL };
    cr_assert_eq(run_datagen(path, args), 0);
    size_t first_size, both_size;
    unsigned char *first = read_file(path, &first_size);
    cr_assert_gt(first_size, 0);
    cr_assert_eq(run_datagen(path, args), 0);
    unsigned char *both = read_file(path, &both_size);
    unlink(path);
    cr_assert_eq(both_size, 2 * first_size, "%zu bytes after two runs of %zu", both_size, first_size);
    cr_assert(memcmp(both, first, first_size) == 0, "the first run's records changed");
    cr_assert(memcmp(both + first_size, first, first_size) == 0, "the same seed appended other data");
    free(first), free(both);
}

/* An opening the short search scores beyond --opening-max-cp is drawn
 * again: Black without queen and rooks is beyond 1000 cp. With the bound
 * lifted the same seed does play from it, which shows the test has teeth. */
Test(datagen, an_unbalanced_opening_is_drawn_again)
{
    char openings[64], out[64];
    temp_path(openings, sizeof openings, ".epd");
    write_text(openings, "# openings, the lines that are no position passed over\n"
                         "1nb1kbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - c0 \"no queen, no rooks\";\n"
                         "\n"
                         "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c0 \"start\";\n");
    int unbalanced[2] = { 0, 0 }, records[2] = { 0, 0 };
    const char *bounds[2] = { "1000", "100000" };
    for (int run = 0; run < 2; run++) {
        temp_path(out, sizeof out, "");
        char *argv[] = { "--records", out, "--out", "/dev/null", "--nodes", "300", "--games", "6", "--seed", "4",
                         "--random-plies", "2", "--openings", openings, "--opening-max-cp", (char *)bounds[run] };
        cr_assert_eq(datagen_command(sizeof argv / sizeof *argv, argv), 0);
        size_t size;
        unsigned char *data = read_file(out, &size);
        unlink(out);
        records[run] = (int)(size / PACKED_POSITION_SIZE);
        for (int i = 0; i < records[run]; i++) {
            UnpackedPosition u = record(data, i);
            unbalanced[run] += from_unbalanced_opening(&u);
        }
        free(data);
    }
    unlink(openings);
    cr_assert_gt(records[0], 0);
    cr_assert_eq(unbalanced[0], 0, "%d of %d records come from the unbalanced opening", unbalanced[0], records[0]);
    cr_assert_gt(unbalanced[1], 0, "with the bound lifted no game started from the unbalanced opening: "
                                   "the test proves nothing");
}

/* ---- openings from PGN ----------------------------------------------------------- */

static const char *const PGN_OPENINGS =
    "[Event \"Ruy Lopez\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n"
    "[Event \"Queen's Gambit Declined\"]\n[Result \"*\"]\n\n1. d4 d5 2. c4 e6 *\n";
static const char *const PGN_POSITIONS[] = {
    "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4",
    "rnbqkbnr/ppp2ppp/4p3/3p4/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - 0 3",
};

/* Each game of a PGN file is an opening: the position after its moves,
 * with its move number (so no record comes before ply 4), and the first
 * quiet position of a game without random plies is the opening itself.
 * The file is known as PGN by its name or by a first tag. */
Test(datagen, openings_from_a_pgn_file)
{
    const char *suffixes[] = { ".pgn", ".txt" };
    for (int k = 0; k < 2; k++) {
        char openings[64], out[64];
        temp_path(openings, sizeof openings, suffixes[k]);
        temp_path(out, sizeof out, "");
        write_text(openings, PGN_OPENINGS);
        const char *const args[] = { "--games", "4", "--seed", "8", "--random-plies", "0", "--openings", openings,
                                     NULL };
        cr_assert_eq(run_datagen(out, args), 0, "%s openings refused", suffixes[k]);
        size_t size;
        unsigned char *data = read_file(out, &size);
        unlink(out), unlink(openings);
        int records = (int)(size / PACKED_POSITION_SIZE), seen[2] = { 0, 0 };
        cr_assert_gt(records, 0);
        for (int i = 0; i < records; i++) {
            UnpackedPosition u = record(data, i);
            cr_assert_geq(u.ply, 4, "record %d at ply %d: not from a PGN opening", i, u.ply);
            for (int p = 0; p < 2; p++)
                seen[p] += record_is(&u, PGN_POSITIONS[p]) && u.ply == (p == 0 ? 6 : 4);
        }
        cr_assert_gt(seen[0] + seen[1], 0, "no record is an opening's position (%s)", suffixes[k]);
        free(data);
    }
}

/* datagen's exit status with an openings file of this text (one game to
 * /dev/null); what it printed on stderr goes to err. */
static int datagen_with_openings(const char *suffix, const char *text, char *err, size_t size)
{
    char openings[64];
    temp_path(openings, sizeof openings, suffix);
    write_text(openings, text);
    char *argv[] = { "--out", "/dev/null", "--games", "1", "--openings", openings };
    int status = datagen_catching_stderr(sizeof argv / sizeof *argv, argv, err, size);
    unlink(openings);
    return status;
}

/* A PGN file with a game that cannot be read is refused, saying where. */
Test(datagen, a_bad_pgn_is_refused)
{
    char err[2048];
    int status = datagen_with_openings(".pgn", "[Event \"fine\"]\n\n1. e4 e5 *\n\n[Event \"broken\"]\n\n1. e4 e5 2. Ke3 *\n",
                                       err, sizeof err);
    cr_assert_eq(status, 2, "a PGN with an illegal move was taken");
    cr_assert(strstr(err, ".pgn") && strstr(err, "game 2"), "the message does not say where: %s", err);
    status = datagen_with_openings(".pgn", "", err, sizeof err);
    cr_assert_eq(status, 2, "a PGN without games was taken");
    cr_assert(strstr(err, "no usable position"), "%s", err);
}

/* An EPD line that is not a position refuses the file, naming the line;
 * blank lines and comments do not. */
Test(datagen, a_bad_epd_line_is_refused)
{
    char err[2048];
    int status = datagen_with_openings(".epd",
                                       "# openings\n\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n"
                                       "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq -\n",
                                       err, sizeof err);
    cr_assert_eq(status, 2, "an EPD line with a bad side to move was taken");
    cr_assert(strstr(err, ".epd") && strstr(err, "line 4"), "the message does not say where: %s", err);
    status = datagen_with_openings(".epd", "e4 e5 Nf3\n", err, sizeof err);
    cr_assert_eq(status, 2, "a line of moves was taken as a position");
    cr_assert(strstr(err, "line 1"), "%s", err);
}

/* ---- --help ------------------------------------------------------------------------ */

/* The text of `datagen --help`, from a child (it exits). */
static char *help_text(void)
{
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        char *argv[] = { "--help" };
        _exit(datagen_command(1, argv) == 0 ? 9 : 8); /* --help exits by itself, with 0 */
    }
    close(fds[1]);
    size_t size = 0, capacity = 1 << 16;
    char *text = malloc(capacity);
    ssize_t n;
    while ((n = read(fds[0], text + size, capacity - 1 - size)) > 0)
        size += (size_t)n;
    text[size] = '\0';
    close(fds[0]);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "datagen --help did not exit with 0");
    return text;
}

static bool is_listed(const char *flag)
{
    for (int i = 0; DATAGEN_FLAGS[i]; i++)
        if (strcmp(flag, DATAGEN_FLAGS[i]) == 0)
            return true;
    return false;
}

/* --help names every flag the parser takes, and no other; each one is
 * known to the parser (given no value, it asks for one). */
Test(datagen, help_lists_every_flag)
{
    char *help = help_text();
    for (int i = 0; DATAGEN_FLAGS[i]; i++) {
        char word[64];
        snprintf(word, sizeof word, " %s ", DATAGEN_FLAGS[i]);
        char *at = strstr(help, word);
        if (!at) {
            snprintf(word, sizeof word, " %s\n", DATAGEN_FLAGS[i]);
            at = strstr(help, word);
        }
        cr_assert_not_null(at, "--help does not list %s:\n%s", DATAGEN_FLAGS[i], help);
        if (strcmp(DATAGEN_FLAGS[i], "--help") == 0)
            continue;
        char err[1024], *argv[] = { (char *)DATAGEN_FLAGS[i] };
        cr_assert_eq(datagen_catching_stderr(1, argv, err, sizeof err), 2);
        cr_assert(strstr(err, "needs"), "%s alone: %s", DATAGEN_FLAGS[i], err);
    }
    for (char *p = strstr(help, "--"); p; p = strstr(p + 2, "--")) {
        char flag[64];
        int length = 2;
        while (p[length] == '-' || (p[length] >= 'a' && p[length] <= 'z'))
            length++;
        snprintf(flag, sizeof flag, "%.*s", length, p);
        cr_assert(is_listed(flag), "--help lists %s, which the parser does not take", flag);
    }
    free(help);
}

/* ---- stopping ---------------------------------------------------------------------- */

static int64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Starts a datagen run until stopped at `nodes` a move, in a child process
 * that leads its own process group (so that the test can clean everything
 * up if the run does not stop), and waits until `records` records are in
 * the file `path`, or with `records` 0 for `ms` milliseconds. The games go
 * to `games_path`. */
static pid_t start_run(const char *path, const char *games_path, const char *nodes, int records, int ms)
{
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        setpgid(0, 0);
        char *argv[] = { "--records", (char *)path, "--out", (char *)games_path, "--nodes", (char *)nodes,
                         "--threads", "2", "--seed", "9" };
        _exit(datagen_command(sizeof argv / sizeof *argv, argv));
    }
    setpgid(pid, pid);
    if (records == 0) {
        usleep((useconds_t)ms * 1000);
        return pid;
    }
    int64_t deadline = now_ms() + 30000;
    while (file_size(path) < (long)records * PACKED_POSITION_SIZE && now_ms() < deadline)
        usleep(20000);
    if (file_size(path) < (long)records * PACKED_POSITION_SIZE) {
        kill(-pid, SIGKILL);
        cr_assert_fail("no %d records after 30 s", records);
    }
    return pid;
}

/* Waits up to `ms` for `pid` (-1: any child); false if it is still running. */
static bool reaped_within(pid_t pid, int64_t ms, int *status)
{
    int64_t deadline = now_ms() + ms;
    do {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid || (pid == -1 && r > 0) || (r < 0 && errno == ECHILD))
            return true;
        usleep(10000);
    } while (now_ms() < deadline);
    return false;
}

/* A supervisor signals the parent alone: it passes the stop on, the run
 * ends within a few seconds with status 0, and the file holds whole
 * records. Before, the parent set a flag nothing read and the workers
 * played on. */
Test(datagen, sigterm_to_the_parent_alone_stops_the_run)
{
    char path[64], games_path[64];
    temp_path(path, sizeof path, "");
    temp_path(games_path, sizeof games_path, ".vf");
    pid_t pid = start_run(path, games_path, "300", 100, 0);
    cr_assert_eq(kill(pid, SIGTERM), 0);
    int status = 0;
    bool ended = reaped_within(pid, 5000, &status);
    if (!ended)
        kill(-pid, SIGKILL);
    long size = file_size(path);
    RecordsCount stored = stored_games(games_path);
    unlink(path);
    unlink(games_path);
    cr_assert(ended, "datagen runs on 5 s after SIGTERM");
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "datagen ended with status %#x", status);
    cr_assert_eq(size % PACKED_POSITION_SIZE, 0, "%ld bytes: a record cut short", size);
    cr_assert_geq(size, 100 * PACKED_POSITION_SIZE);
    cr_assert_eq(stored.records * PACKED_POSITION_SIZE, size, "the stored games hold %lld records, the file %ld bytes",
                 (long long)stored.records, size);
}

/* Outside a run of workers (genfens, OpenBench's openings) only a signal
 * stops a search. The check for a dead parent, meant for workers, once took
 * every such process for an orphaned worker, so genfens's searches of its
 * openings stopped as soon as they started. */
Test(datagen, a_process_without_workers_is_not_told_to_stop)
{
    cr_assert_not(workers_should_stop());
}

#ifdef __linux__
/* The parent killed outright can pass nothing on: the death signal its
 * workers asked for stops the search under way at once, and they exit
 * normally. The moves here are long (a soft limit of 50 M nodes, some 25 s
 * of the optimised build), so a worker that finished its move first (as it
 * did before) fails the bound by far. The test process adopts the orphans
 * (a subreaper) to see them end. The bound: the workers ended 10-20 ms after
 * their parent in 8 runs, the sanitizer build with both cores loaded by
 * `stress-ng --cpu 2` included (docs/flakes.md); 5 s is a margin of over
 * 100 times. */
Test(datagen, workers_stop_when_the_parent_dies)
{
    cr_assert_eq(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
    char path[64];
    temp_path(path, sizeof path, "");
    pid_t pid = start_run(path, "/dev/null", "50000000", 0, 1000);
    cr_assert_eq(kill(pid, SIGKILL), 0);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    int64_t killed = now_ms();
    bool all_ended = true, all_normal = true;
    for (int worker = 0; worker < 2 && all_ended; worker++) {
        status = 0;
        all_ended = reaped_within(-1, 5000, &status);
        all_normal = all_normal && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    if (!all_ended)
        kill(-pid, SIGKILL);
    unlink(path);
    cr_assert(all_ended, "the workers play on 5 s after their parent died");
    cr_assert(all_normal, "a worker did not exit normally: status %#x", status);
    cr_assert_eq(waitpid(-1, &status, WNOHANG), -1, "a worker is left");
    cr_log_info("the workers ended %lld ms after their parent", (long long)(now_ms() - killed));
}
#endif

/* ---- the soft node limit of datagen's searches ----------------------------------- */

typedef struct {
    uint64_t nodes_at[MAX_PLY]; /* total nodes when each iteration ended */
    int depth;                  /* the last whole iteration reported */
    Move best;
    uint64_t nodes;
} Iterations;

static void keep_iteration(const SearchInfo *info, void *context)
{
    Iterations *it = context;
    if (info->bound == BOUND_EXACT && info->multipv == 1 && info->depth < MAX_PLY) {
        it->nodes_at[info->depth] = info->nodes;
        it->depth = info->depth;
        it->nodes = info->nodes;
    }
}

static void keep_iteration_best(Move best, Move ponder, void *context)
{
    (void)ponder;
    ((Iterations *)context)->best = best;
}

static Iterations search_from(const char *fen, uint64_t soft_nodes, int depth)
{
    char error[128];
    cr_assert(engine_set_position(fen, NULL, 0, error, sizeof error), "%s", error);
    engine_new_game();
    SearchLimits limits;
    timeman_init_limits(&limits);
    limits.soft_nodes = soft_nodes;
    limits.nodes = 100 * soft_nodes; /* a safety net: never reached with the soft limit working */
    limits.depth = depth;
    Iterations it = { .depth = 0, .best = MOVE_NONE };
    engine_go(&limits, (SearchReport){ keep_iteration, keep_iteration_best, &it });
    engine_wait();
    return it;
}

/* A soft limit of N ends the search with the first iteration that reaches
 * N: the one before stayed below it, and the move is the one a search to
 * that depth plays, with the same count (the same tree). */
Test(datagen, soft_node_limit_ends_with_a_whole_iteration)
{
    const char *fens[] = { START_FEN, "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4",
                           "8/5pk1/6p1/8/3R4/6P1/5PK1/3r4 b - - 0 40" };
    const uint64_t limits[] = { 5000, 20000, 3000 };
    for (int i = 0; i < 3; i++) {
        Iterations soft = search_from(fens[i], limits[i], 0);
        int d = soft.depth;
        cr_assert_geq(d, 2, "%s", fens[i]);
        cr_assert_geq(soft.nodes, limits[i], "%s: stopped at %llu nodes, depth %d", fens[i],
                      (unsigned long long)soft.nodes, d);
        cr_assert_lt(soft.nodes_at[d - 1], limits[i], "%s: depth %d had already reached the limit", fens[i], d - 1);
        Iterations fixed = search_from(fens[i], 0, d);
        cr_assert_eq(fixed.depth, d);
        cr_assert_eq(soft.best, fixed.best, "%s: another move than the depth-%d search's", fens[i], d);
        cr_assert_eq(soft.nodes, fixed.nodes, "%s: another tree than the depth-%d search's", fens[i], d);
    }
}

/* The run's cost line: its parts and its counts. */
typedef struct {
    long long nodes, kept, passed, openings;
    double per_position, kept_share, passed_share, opening_share, past_soft_share;
} CostLine;

static CostLine cost_of_run(const char *workers, long *records)
{
    char path[64], err[4096];
    temp_path(path, sizeof path, "");
    char *argv[] = { "--records", path, "--out", "/dev/null", "--games", "4", "--nodes", "400", "--seed", "11",
                     "--threads", (char *)workers };
    cr_assert_eq(datagen_catching_stderr(sizeof argv / sizeof *argv, argv, err, sizeof err), 0, "%s", err);
    *records = file_size(path) / PACKED_POSITION_SIZE;
    unlink(path);
    CostLine c = { 0 };
    for (const char *line = strstr(err, "datagen: "); line; line = strstr(line + 1, "datagen: "))
        if (sscanf(line,
                   "datagen: %lld nodes, %lf a position written: %lf %% in %lld positions written, "
                   "%lf %% in %lld passed over, %lf %% in %lld opening checks; %lf %% past the soft limit",
                   &c.nodes, &c.per_position, &c.kept_share, &c.kept, &c.passed_share, &c.passed,
                   &c.opening_share, &c.openings, &c.past_soft_share) == 9)
            return c;
    cr_assert_fail("no cost line in: %s", err);
    return c;
}

Test(datagen, the_cost_line_adds_up_and_is_the_same_for_any_workers)
{
    long records, records_two;
    CostLine one = cost_of_run("1", &records), two = cost_of_run("2", &records_two);
    cr_assert_eq(one.kept, records, "%lld positions written by the cost line, %ld in the file", one.kept, records);
    cr_assert_gt(one.passed, 0, "four games without a capture, check or promotion");
    cr_assert_geq(one.openings, 4, "one opening check a game at least");
    cr_assert_geq(one.nodes, one.kept + one.passed + one.openings, "a search visits one node at least");
    double parts = one.kept_share + one.passed_share + one.opening_share;
    cr_assert(parts > 99.8 && parts < 100.2, "the shares add up to %.1f %%", parts);
    cr_assert(one.past_soft_share > 0 && one.past_soft_share < one.kept_share + one.passed_share);
    cr_assert(fabs(one.per_position * (double)one.kept - (double)one.nodes) <= (double)one.kept,
              "%.0f nodes a position, %lld positions, %lld nodes", one.per_position, one.kept, one.nodes);
    /* The same games, whichever worker played them: the parent adds up every game's cost. */
    cr_assert_eq(one.nodes, two.nodes, "1 and 2 workers searched %lld and %lld nodes", one.nodes, two.nodes);
    cr_assert_eq(one.kept, two.kept);
    cr_assert_eq(one.passed, two.passed);
    cr_assert_eq(one.openings, two.openings);
    cr_assert_eq(records, records_two);
}

/* The store's round trip: the games datagen stores, replayed by `bachess
 * records`, give the very records datagen writes of the same games while it
 * plays them (the labels, the filter and the result included), for one and
 * two workers; and every ply is stored, the ones the filter passes over too. */
Test(datagen, stored_games_give_the_records_of_the_same_run)
{
    for (int run = 0; run < 2; run++) {
        char games[64], records[64], replayed[64];
        temp_path(games, sizeof games, ".vf");
        temp_path(records, sizeof records, "");
        temp_path(replayed, sizeof replayed, "");
        char *argv[] = { "--out", games, "--records", records, "--games", "6", "--nodes", "400", "--seed", "31",
                         "--threads", run ? "2" : "1", "--opening-max-cp", "2000" };
        cr_assert_eq(datagen_command(sizeof argv / sizeof *argv, argv), 0);
        FILE *in = fopen(games, "rb"), *out = fopen(replayed, "wb");
        RecordsCount count;
        char error[256];
        cr_assert_eq(records_from_games(in, out, &count, error, sizeof error), 0, "%s", error);
        fclose(in), fclose(out);
        size_t written_size, replayed_size;
        unsigned char *written = read_file(records, &written_size), *again = read_file(replayed, &replayed_size);
        unlink(games), unlink(records), unlink(replayed);
        cr_assert_eq(count.games, 6);
        cr_assert_gt(count.plies, count.records, "no ply passed over: the filter is not tested");
        cr_assert_eq((size_t)count.records * PACKED_POSITION_SIZE, written_size);
        cr_assert_eq(replayed_size, written_size);
        cr_assert(memcmp(written, again, written_size) == 0, "the replayed records differ from datagen's");
        free(written), free(again);
    }
}
