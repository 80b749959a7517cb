/*
 * test_tune.c — the Texel tuner: its sparse model against evaluate(), its
 * gradient against finite differences, a fit of a synthetic data set whose
 * true weights are known, the centring of the piece-square tables, the
 * weights written back as C, the choice of quiet positions, and extraction
 * from a small PGN file.
 */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eval.h"
#include "movegen.h"
#include "support.h"
#include "tools/tune.h"

TestSuite(tune, .init = board_init, .timeout = 300);

/* ---- helpers ------------------------------------------------------------ */

/* Positions from random playouts of the perft suite, which is full of odd
 * material, promotions and exposed kings; `result` gives each its label. */
static void add_playouts(TuneData *d, int plies, double (*result)(int index))
{
    int n;
    EpdEntry *entries = epd_load("perft.epd", &n);
    Board *b = malloc(sizeof *b);
    TestRng rng = { 4242 };
    for (int i = 0; i < n; i++) {
        board_load(b, entries[i].fen);
        for (int ply = 0; ply < plies; ply++) {
            cr_assert(tune_data_add(d, b, result(d->count)));
            MoveList list;
            generate_legal(b, &list);
            if (list.count == 0)
                break;
            board_make_move(b, list.moves[rng_below(&rng, list.count)]);
        }
    }
    free(b);
    free(entries);
}

static double mixed_result(int index)
{
    return (index % 3) * 0.5;
}

/* ---- the model ---------------------------------------------------------- */

Test(tune, sparse_model_reproduces_evaluate)
{
    int n;
    EpdEntry *entries = epd_load("perft.epd", &n);
    Board *b = malloc(sizeof *b);
    PawnTable *pawns = pawn_table_create();
    TuneData d;
    tune_data_init(&d);
    TuneParams *p = malloc(sizeof *p);
    tune_params_from_weights(p);
    TestRng rng = { 77 };
    for (int i = 0; i < n; i++) {
        board_load(b, entries[i].fen);
        for (int ply = 0; ply < 30; ply++) {
            int white = evaluate(b, pawns) * (b->side == WHITE ? 1 : -1);
            cr_assert(tune_data_add(&d, b, 0.5));
            cr_assert_eq(tune_model_eval_exact(&d, d.count - 1), white, "sparse %d, evaluate %d in %s",
                         tune_model_eval_exact(&d, d.count - 1), white, entries[i].fen);
            /* The real-valued model differs only by evaluate()'s rounding. */
            if (abs(white) < EVAL_MAX)
                cr_assert_lt(fabs(tune_model_eval(&d, d.count - 1, p) - white), 2.0);
            MoveList list;
            generate_legal(b, &list);
            if (list.count == 0)
                break;
            board_make_move(b, list.moves[rng_below(&rng, list.count)]);
        }
    }
    cr_log_info("%d positions: sparse model = evaluate()", d.count);
    cr_assert_gt(d.count, 1000);
    tune_data_free(&d);
    pawn_table_destroy(pawns);
    free(p);
    free(b);
    free(entries);
}

/* How many Scores the named field holds. */
static int field_size(const char *name)
{
    for (int i = 0; i < weight_info_count; i++)
        if (strcmp(weight_info[i].name, name) == 0)
            return weight_info[i].count;
    cr_assert_fail("no weight %s", name);
    return 0;
}

Test(tune, gradient_matches_finite_differences)
{
    TuneData d;
    tune_data_init(&d);
    add_playouts(&d, 8, mixed_result);
    TuneParams *p = malloc(sizeof *p), *grad = malloc(sizeof *grad);
    tune_params_from_weights(p);
    const double k = 0.006, h = 0.01;
    tune_gradient(&d, p, k, grad);
    const char *names[] = { "material", "bishop_pair", "tempo", "passed_pawn", "knight_mobility", "rook_open_file" };
    int checked = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        for (int offset = 0; offset < 6 && offset < field_size(names[i]); offset++)
            for (int half = 0; half < 2; half++) {
                int w = weight_index(names[i]) + offset;
                if (fabs(grad->v[w][half]) < 1e-9)
                    continue;
                double saved = p->v[w][half];
                p->v[w][half] = saved + h;
                double up = tune_error(&d, p, k);
                p->v[w][half] = saved - h;
                double down = tune_error(&d, p, k);
                p->v[w][half] = saved;
                double numeric = (up - down) / (2 * h);
                cr_assert_lt(fabs(numeric - grad->v[w][half]), 1e-4 * fabs(numeric) + 1e-12,
                             "weight %d half %d: analytic %g, numeric %g", w, half, grad->v[w][half], numeric);
                checked++;
            }
    cr_assert_gt(checked, 20);
    tune_data_free(&d);
    free(p);
    free(grad);
}

/* Labels made by a known evaluation: the starting weights with the knight
 * worth 80 more in the middlegame and the bishop pair 60 more in the
 * endgame. The tuner starts from the plain starting weights. */
static TuneParams truth;
static TuneData synthetic;
static double k_synthetic = 0.006;

static double true_result(int index)
{
    (void)index;
    return 0; /* relabelled once the position is in the data set */
}

/* The mean distance of the model's evaluations from the true ones. */
static double distance_to_truth(const TuneParams *p)
{
    double sum = 0;
    for (int i = 0; i < synthetic.count; i++)
        sum += fabs(tune_model_eval(&synthetic, i, p) - tune_model_eval(&synthetic, i, &truth));
    return sum / synthetic.count;
}

Test(tune, fits_a_synthetic_data_set)
{
    tune_data_init(&synthetic);
    add_playouts(&synthetic, 12, true_result);
    tune_params_from_weights(&truth);
    tune_center_tables(&truth, NULL); /* as the optimiser keeps them */
    truth.v[weight_index("material") + KNIGHT][0] += 80;
    truth.v[weight_index("bishop_pair")][1] += 60;
    for (int i = 0; i < synthetic.count; i++)
        synthetic.positions[i].result = (float)(1 / (1 + exp(-k_synthetic * tune_model_eval(&synthetic, i, &truth))));

    TuneParams *p = malloc(sizeof *p);
    tune_params_from_weights(p);
    tune_center_tables(p, NULL);
    TuneOptions *o = malloc(sizeof *o);
    tune_options_default(o);
    o->epochs = 300;
    o->rate = 1.0;
    double before = tune_error(&synthetic, p, k_synthetic), miss_before = distance_to_truth(p);
    double after = tune_optimise(&synthetic, p, k_synthetic, o), miss_after = distance_to_truth(p);
    cr_log_info("synthetic fit: error %.3g -> %.3g, evaluations %.1f -> %.1f cp from the truth", before, after,
                miss_before, miss_after);
    cr_assert_gt(before, 1e-4);
    cr_assert_lt(after, before / 10, "error %g -> %g", before, after);
    /* What counts is the evaluations, not how they are split among weights
     * that always go together (a knight's value, its square, its mobility). */
    cr_assert_lt(miss_after, miss_before / 3, "%.1f -> %.1f cp from the truth", miss_before, miss_after);
    free(p);
    free(o);
    tune_data_free(&synthetic);
}

Test(tune, frozen_weights_stay_and_the_pawn_anchors_the_scale)
{
    TuneData d;
    tune_data_init(&d);
    add_playouts(&d, 6, mixed_result);
    TuneParams *p = malloc(sizeof *p);
    tune_params_from_weights(p);
    TuneOptions *o = malloc(sizeof *o);
    tune_options_default(o);
    o->epochs = 20;
    tune_optimise(&d, p, 0.006, o);
    int pawn = weight_index("material") + PAWN, attacker = weight_index("king_attacker") + QUEEN;
    cr_assert_eq(p->v[pawn][0], 100);
    cr_assert_eq(p->v[attacker][0], score_mg(eval_weights.king_attacker[QUEEN]));
    cr_assert_eq(p->v[attacker][1], score_eg(eval_weights.king_attacker[QUEEN]));
    cr_assert_neq(p->v[pawn][1], score_eg(eval_weights.material[PAWN]), "the endgame pawn is tuned");
    tune_data_free(&d);
    free(p);
    free(o);
}

Test(tune, centring_the_tables_changes_no_evaluation_but_the_pawns)
{
    TuneData d;
    tune_data_init(&d);
    add_playouts(&d, 10, mixed_result);
    TuneParams *centred = malloc(sizeof *centred), *shifted = malloc(sizeof *shifted);
    tune_params_from_weights(centred);
    tune_center_tables(centred, NULL);
    /* Shift two tables as a whole: the knight's by 7 in the endgame (worth
     * 7 more per knight), the king's by 5 (the same for both kings). */
    int psqt = weight_index("psqt"), knight = weight_index("material") + KNIGHT;
    *shifted = *centred;
    for (int s = 0; s < SQUARE_NB; s++)
        shifted->v[psqt + KNIGHT * SQUARE_NB + s][1] += 7, shifted->v[psqt + KING * SQUARE_NB + s][0] += 5;
    double *before = malloc(sizeof *before * (size_t)d.count);
    for (int i = 0; i < d.count; i++)
        before[i] = tune_model_eval(&d, i, shifted);
    tune_center_tables(shifted, NULL);
    for (int i = 0; i < d.count; i++)
        cr_assert_float_eq(tune_model_eval(&d, i, shifted), before[i], 1e-6);
    cr_assert_float_eq(shifted->v[knight][1], centred->v[knight][1] + 7, 1e-9);
    for (int w = psqt; w < psqt + PIECE_TYPE_NB * SQUARE_NB; w++)
        for (int h = 0; h < 2; h++)
            cr_assert_float_eq(shifted->v[w][h], centred->v[w][h], 1e-9, "psqt entry %d", w - psqt);
    for (PieceType t = PAWN; t <= KING; t++) {
        double mean[2] = { 0, 0 };
        for (int s = 0; s < SQUARE_NB; s++)
            for (int h = 0; h < 2; h++)
                mean[h] += centred->v[psqt + t * SQUARE_NB + s][h];
        cr_assert_float_eq(mean[0], 0, 1e-6, "piece type %d", t);
        cr_assert_float_eq(mean[1], 0, 1e-6, "piece type %d", t);
    }
    free(before);
    tune_data_free(&d);
    free(centred);
    free(shifted);
}

Test(tune, k_is_found_where_the_error_is_least)
{
    tune_data_init(&synthetic);
    add_playouts(&synthetic, 8, true_result);
    TuneParams *p = malloc(sizeof *p);
    tune_params_from_weights(p);
    for (int i = 0; i < synthetic.count; i++)
        synthetic.positions[i].result = (float)(1 / (1 + exp(-0.004 * tune_model_eval(&synthetic, i, p))));
    double k = tune_find_k(&synthetic, p);
    cr_assert_float_eq(k, 0.004, 1e-5);
    cr_assert_lt(tune_error(&synthetic, p, k), tune_error(&synthetic, p, k * 1.1));
    free(p);
    tune_data_free(&synthetic);
}

/* ---- output ------------------------------------------------------------- */

Test(tune, written_weights_read_back_in_struct_order)
{
    weights_array()[weight_index("tempo")] = S(-17, 23); /* a negative value, to be sure */
    eval_weights.material[QUEEN] = S(901, 941);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    tune_write_weights(out);
    fclose(out);
    cr_assert(strncmp(text, "EvalWeights eval_weights = {\n", 29) == 0);
    cr_assert_str_eq(text + size - 3, "};\n");
    int count = 0;
    for (const char *at = strstr(text, "S("); at; at = strstr(at + 2, "S(")) {
        int mg, eg;
        cr_assert_eq(sscanf(at, "S(%d ,%d)", &mg, &eg), 2, "at %.20s", at);
        cr_assert_lt(count, WEIGHT_COUNT);
        cr_assert_eq(S(mg, eg), weights_array()[count], "Score %d", count);
        count++;
    }
    cr_assert_eq(count, WEIGHT_COUNT);
    cr_assert_not_null(strstr(text, "    .tempo = S(-17, 23),\n"));
    cr_assert_not_null(strstr(text, "[QUEEN] = S(901, 941)"));
    free(text);
}

/* ---- positions ---------------------------------------------------------- */

static bool quiet(const char *fen)
{
    Board *b = board_from_fen(fen);
    bool q = tune_position_is_quiet(b);
    free(b);
    return q;
}

Test(tune, quiet_positions)
{
    cr_assert(quiet(START_FEN));
    cr_assert(quiet("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"));
    /* An even trade on offer is no reason to skip: exd5 Qxd5 gains nothing. */
    cr_assert(quiet("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"));
    cr_assert_not(quiet("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"), "exd5 wins a pawn");
    cr_assert_not(quiet("rnb1kbnr/pppp1ppp/8/4p3/4P2q/5P2/PPPP2PP/RNBQKBNR w KQkq - 1 3"), "a free queen? no: check");
    cr_assert_not(quiet("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"), "a promotion");
    cr_assert_not(quiet("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), "stalemate");
    cr_assert_not(quiet("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1"), "a hanging queen");
}

Test(tune, position_lines_parse)
{
    Board *b = malloc(sizeof *b);
    double result = -1;
    cr_assert(tune_parse_line("4k3/8/8/8/8/8/8/4K2R w K - 0 1 [1.0]\n", b, &result));
    cr_assert_eq(result, 1.0);
    cr_assert(tune_parse_line("4k3/8/8/8/8/8/8/4K2R b K - 3 40 [0.5]", b, &result));
    cr_assert_eq(result, 0.5);
    cr_assert_eq(b->side, BLACK);
    cr_assert_not(tune_parse_line("4k3/8/8/8/8/8/8/4K2R w K - 0 1 [0.7]", b, &result));
    cr_assert_not(tune_parse_line("4k3/8/8/8/8/8/8/4K2R w K - 0 1", b, &result));
    cr_assert_not(tune_parse_line("4k3/8/8/8 w - - 0 1 [0.0]", b, &result));
    cr_assert_not(tune_parse_line("[0.0]", b, &result));
    free(b);
}

Test(tune, extraction_keeps_quiet_positions_of_finished_games)
{
    static const char pgn[] =
        "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n"
        "[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n"
        "[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 1/2-1/2\n";
    char path[64];
    snprintf(path, sizeof path, "/tmp/bachess-tune-test-XXXXXX");
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, pgn, sizeof pgn - 1), (ssize_t)(sizeof pgn - 1));
    close(fd);

    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    TuneExtractOptions o = { .every = 1, .skip = 2 };
    TuneExtractStats s;
    char error[256];
    cr_assert(tune_extract(path, out, &o, &s, error, sizeof error), "%s", error);
    fclose(out);
    unlink(path);
    cr_assert_eq(s.games, 3);
    cr_assert_eq(s.used_games, 2, "the unfinished game is left out");
    /* Fool's mate: after f3 e5 the position is quiet, after g4 too; the mate is not. */
    cr_assert_not_null(strstr(text, "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2 [0.0]\n"));
    cr_assert_null(strstr(text, "4p3/6Pq/"), "no position in check");
    /* The drawn game: plies 2..12, except after 5. O-O, when Nxe4 wins a
     * pawn (the Open Ruy Lopez); labelled 0.5. */
    int lines = 0, drawn = 0;
    for (const char *at = text; (at = strchr(at, '\n')); at++)
        lines++;
    for (const char *at = text; (at = strstr(at, "[0.5]")); at++)
        drawn++;
    cr_assert_eq(drawn, 10, "%s", text);
    cr_assert_null(strstr(text, "5N2/PPPP1PPP/RNBQ1RK1 b"), "after 5. O-O");
    cr_assert_eq(lines, (int)s.positions);
    free(text);
}
