/*
 * test_eval.c — the static evaluation: colour symmetry over every test
 * suite, the pawn hash table against uncached evaluation, the trace against
 * the result (and the tuner's coefficients against the weights), the weight
 * table, what each feature detector counts in hand-made positions, and
 * orderings of positions any chess player would agree on. (Its speed is
 * a benchmark, not a test: `make bench-eval`.)
 */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "movegen.h"
#include "support.h"

TestSuite(eval, .init = board_init, .timeout = 600);

/* ---- helpers ------------------------------------------------------------ */

/* The same position with the board mirrored top to bottom and the colours
 * swapped: side to move, castling rights and e.p. square follow. */
static char swap_case(char c)
{
    return (char)(isupper((unsigned char)c) ? tolower((unsigned char)c) : toupper((unsigned char)c));
}

static void flip_fen(const char *fen, char *out)
{
    char placement[FEN_SIZE], side[8], castling[8], ep[8];
    cr_assert_eq(sscanf(fen, "%127s %7s %7s %7s", placement, side, castling, ep), 4);
    char *ranks[8], *save = NULL;
    int n = 0;
    for (char *r = strtok_r(placement, "/", &save); r && n < 8; r = strtok_r(NULL, "/", &save))
        ranks[n++] = r;
    cr_assert_eq(n, 8);
    out[0] = '\0';
    for (int i = 7; i >= 0; i--) {
        for (char *c = ranks[i]; *c; c++)
            *c = swap_case(*c);
        strcat(out, ranks[i]);
        strcat(out, i ? "/" : " ");
    }
    strcat(out, side[0] == 'w' ? "b " : "w ");
    char rights[8] = "";
    int count = 0;
    for (const char *r = "KQkq"; *r; r++) {
        if (strchr(castling, swap_case(*r)))
            rights[count++] = *r;
    }
    strcat(out, rights[0] ? rights : "-");
    strcat(out, " ");
    if (ep[0] != '-')
        ep[1] = ep[1] == '3' ? '6' : '3';
    strcat(out, ep);
}

static PawnTable *table(void)
{
    static PawnTable *t;
    if (!t)
        t = pawn_table_create();
    cr_assert_not_null(t);
    return t;
}

static int eval_fen(const char *fen)
{
    static Board b;
    board_load(&b, fen);
    return evaluate(&b, table());
}

static EvalTrace *trace_fen(const char *fen)
{
    static Board b;
    static EvalTrace trace;
    board_load(&b, fen);
    evaluate_traced(&b, &trace);
    return &trace;
}

/* How often the named single weight was counted for side c. */
static int uses(const EvalTrace *t, const char *name, Color c)
{
    int i = weight_index(name);
    cr_assert_geq(i, 0, "no weight named %s", name);
    return t->coeff[i][c];
}

/* The same, for entry k of a table. */
static int uses_at(const EvalTrace *t, const char *name, int k, Color c)
{
    int i = weight_index(name);
    cr_assert_geq(i, 0, "no weight named %s", name);
    return t->coeff[i + k][c];
}

/* ---- colour symmetry ---------------------------------------------------- */

static void check_symmetry(Board *b, Board *flipped, const char *fen, const char *what)
{
    char mirrored[FEN_SIZE * 2];
    flip_fen(fen, mirrored);
    board_load(b, fen);
    board_load(flipped, mirrored);
    int a = evaluate(b, table()), z = evaluate(flipped, table());
    cr_assert_eq(a, z, "%s: eval %d of %s but %d of its mirror %s", what, a, fen, z, mirrored);
}

/* Every position of the file and every position one move after it. */
static void symmetry_over(const char *name)
{
    int n;
    char(*fens)[FEN_SIZE] = load_fens(name, &n);
    Board *b = calloc(1, sizeof *b), *flipped = calloc(1, sizeof *flipped);
    int checked = 0;
    for (int i = 0; i < n; i++) {
        check_symmetry(b, flipped, fens[i], name);
        board_load(b, fens[i]);
        MoveList list;
        generate_legal(b, &list);
        for (int m = 0; m < list.count; m++) {
            char child[FEN_SIZE];
            board_load(b, fens[i]);
            board_make_move(b, list.moves[m]);
            board_get_fen(b, child, sizeof child);
            check_symmetry(b, flipped, child, name);
            checked++;
        }
        checked++;
    }
    cr_log_info("%s: %d positions evaluate the same as their mirror images", name, checked);
    free(b);
    free(flipped);
    free(fens);
}

Test(eval, symmetric_perft) { symmetry_over("perft.epd"); }
Test(eval, symmetric_wac) { symmetry_over("wac.epd"); }
Test(eval, symmetric_bk_and_openings)
{
    symmetry_over("bk.epd");
    symmetry_over("openings.epd");
}
Test(eval, symmetric_random_positions) { symmetry_over("perft_marcel.epd"); }

Test(eval, flip_fen_is_an_involution)
{
    char once[FEN_SIZE * 2], twice[FEN_SIZE * 2];
    const char *fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w Kq - 0 1";
    flip_fen(fen, once);
    cr_assert_str_eq(once, "r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b Qk -");
    flip_fen(once, twice);
    cr_assert_str_eq(twice, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w Kq -");
}

/* ---- pawn table, pawn key, trace ---------------------------------------- */

/* Random games from the WAC positions: at every ply the incremental pawn
 * key matches a recount, and the cached evaluation matches the uncached,
 * traced one, whose terms and coefficients add up to its result. */
Test(eval, pawn_table_and_trace_agree_with_uncached_evaluation)
{
    int n;
    char(*fens)[FEN_SIZE] = load_fens("wac.epd", &n);
    Board *b = calloc(1, sizeof *b);
    static EvalTrace trace;
    TestRng rng = { 20261122 };
    pawn_table_clear(table());
    int evaluated = 0;
    for (int i = 0; i < n; i++) {
        board_load(b, fens[i]);
        for (int ply = 0; ply < 40; ply++) {
            cr_assert_eq(board_pawn_key(b), board_compute_pawn_key(b), "pawn key, %d plies from %s", ply, fens[i]);
            int cached = evaluate(b, table());
            int again = evaluate(b, table()); /* now certainly a hit */
            int traced = evaluate_traced(b, &trace);
            cr_assert_eq(cached, traced, "cached %d, uncached %d, %d plies from %s", cached, traced, ply,
                         fens[i]);
            cr_assert_eq(again, traced);

            Score terms = 0, linear = 0;
            for (int t = 0; t < TERM_NB; t++)
                terms += trace.term[t][WHITE] - trace.term[t][BLACK];
            for (int w = 0; w < WEIGHT_COUNT; w++)
                linear += weights_array()[w] * (trace.coeff[w][WHITE] - trace.coeff[w][BLACK]);
            linear += trace.nonlinear[WHITE] - trace.nonlinear[BLACK];
            cr_assert_eq(terms, S(trace.mg, trace.eg));
            cr_assert_eq(linear, S(trace.mg, trace.eg), "coefficients do not add up in %s", fens[i]);
            cr_assert_eq(b->side == WHITE ? trace.white_score : -trace.white_score, traced);
            evaluated++;

            MoveList list;
            generate_legal(b, &list);
            if (list.count == 0)
                break;
            board_make_move(b, list.moves[rng_below(&rng, list.count)]);
        }
    }
    cr_log_info("%d positions: cached = uncached = traced", evaluated);
    free(b);
    free(fens);
}

Test(eval, pawn_key_survives_unmake_and_null_moves)
{
    Board *b = board_from_fen("r3k2r/1P4P1/8/2pP4/8/8/p5p1/R3K2R w KQkq c6 0 2");
    Key start = board_pawn_key(b);
    MoveList list;
    generate_legal(b, &list);
    for (int i = 0; i < list.count; i++) {
        board_make_move(b, list.moves[i]);
        cr_assert_eq(board_pawn_key(b), board_compute_pawn_key(b));
        board_make_null(b);
        cr_assert_eq(board_pawn_key(b), board_compute_pawn_key(b));
        board_unmake_null(b);
        board_unmake_move(b);
        cr_assert_eq(board_pawn_key(b), start);
    }
    free(b);
}

Test(eval, zeroed_table_is_right_for_pawnless_positions)
{
    PawnTable *t = pawn_table_create();
    Board *b = board_from_fen("4k3/8/8/3q4/8/8/8/R3K2R w - - 0 1");
    static EvalTrace trace;
    cr_assert_eq(board_pawn_key(b), 0);
    cr_assert_eq(evaluate(b, t), evaluate_traced(b, &trace));
    pawn_table_destroy(t);
    free(b);
}

/* ---- the weight table --------------------------------------------------- */

Test(eval, weight_names_tile_the_weights)
{
    int next = 0;
    for (int i = 0; i < weight_info_count; i++) {
        const WeightInfo *w = &weight_info[i];
        cr_assert_eq(w->index, next, "%s starts at %d, expected %d", w->name, w->index, next);
        cr_assert_eq(weight_index(w->name), w->index, "name %s is not unique", w->name);
        next += w->count;
    }
    cr_assert_eq(next, WEIGHT_COUNT, "the names cover %d of %d weights", next, WEIGHT_COUNT);

    char name[64];
    weight_describe(weight_index("psqt") + KNIGHT * 64 + 27, name, sizeof name);
    cr_assert_str_eq(name, "psqt[1][27]");
    weight_describe(weight_index("tempo"), name, sizeof name);
    cr_assert_str_eq(name, "tempo");
    cr_assert_eq(&eval_weights.passed_pawn[6], &weights_array()[weight_index("passed_pawn") + 6]);
}

Test(eval, scores_pack_and_unpack)
{
    int values[] = { 0, 1, -1, 123, -123, 32000, -32000 };
    for (int i = 0; i < 7; i++)
        for (int j = 0; j < 7; j++) {
            Score s = S(values[i], values[j]);
            cr_assert_eq(score_mg(s), values[i]);
            cr_assert_eq(score_eg(s), values[j]);
            cr_assert_eq(score_mg(s * 2 - s), values[i]);
        }
    cr_assert_eq(S(3, -4) + S(-5, 6), S(-2, 2));
}

Test(eval, changing_a_weight_changes_the_evaluation)
{
    const char *fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    int before = eval_fen(fen);
    Score saved = eval_weights.material[PAWN];
    weights_array()[weight_index("material") + PAWN] = saved + S(100, 100);
    static EvalTrace trace;
    static Board b;
    board_load(&b, fen);
    int after = evaluate_traced(&b, &trace);
    eval_weights.material[PAWN] = saved;
    cr_assert_eq(after - before, 100, "before %d after %d", before, after);
}

/* ---- feature detectors -------------------------------------------------- */

Test(eval, pawn_structure_features)
{
    /* White: a2 a3 doubled and isolated, c4 isolated, e4 f4 side by side,
     * g5 defended by f4; f4 and g5 are passed. Black: b7 and d5 isolated,
     * neither passed. */
    EvalTrace *t = trace_fen("4k3/1p6/8/3p2P1/2P1PP2/P7/P7/4K3 w - - 0 1");
    cr_assert_eq(uses(t, "pawn_doubled", WHITE), 1);      /* a2 behind a3 */
    cr_assert_eq(uses(t, "pawn_isolated", WHITE), 3);     /* a2, a3, c4 */
    cr_assert_eq(uses(t, "pawn_isolated", BLACK), 2);     /* b7, d5 */
    cr_assert_eq(uses_at(t, "pawn_connected", 3, WHITE), 2); /* e4 f4 side by side */
    cr_assert_eq(uses_at(t, "pawn_connected", 4, WHITE), 1); /* g5 defended by f4 */
    cr_assert_eq(uses_at(t, "passed_pawn", 4, WHITE), 1);    /* g5 */
    cr_assert_eq(uses_at(t, "passed_pawn", 3, WHITE), 1);    /* f4: d5 is two files away */
    cr_assert_eq(uses_at(t, "passed_pawn", 2, WHITE), 0);    /* a3: b7 can take it on its way */
    cr_assert_eq(uses_at(t, "passed_pawn", 1, WHITE), 0);    /* a2: behind a3 */
    for (int rank = 0; rank < 8; rank++)
        cr_assert_eq(uses_at(t, "passed_pawn", rank, BLACK), 0);
    cr_assert_eq(uses(t, "pawn_backward", WHITE), 0);

    /* Backward: d3 has its neighbours c4 e4 ahead and d4 is attacked by e5. */
    t = trace_fen("4k3/8/8/4p3/2P1P3/3P4/8/4K3 w - - 0 1");
    cr_assert_eq(uses(t, "pawn_backward", WHITE), 1);
    cr_assert_eq(uses_at(t, "pawn_ram", 3, WHITE), 1); /* e4 against e5 */
    cr_assert_eq(uses_at(t, "pawn_ram", 3, BLACK), 1);
}

Test(eval, passed_pawn_features)
{
    /* Rook behind the passer, the enemy king outside its square, the path free. */
    EvalTrace *t = trace_fen("7k/8/8/3P4/8/8/8/3RK3 w - - 0 1");
    cr_assert_eq(uses_at(t, "passed_pawn", 4, WHITE), 1);
    cr_assert_eq(uses(t, "rook_behind_passer", WHITE), 1);
    cr_assert_eq(uses_at(t, "passer_free", 4, WHITE), 1);
    cr_assert_eq(uses(t, "passer_enemy_king_distance", WHITE), 4 * 2); /* h8 to d6, rank 5 weight 2 */
    cr_assert_eq(uses(t, "passer_unstoppable", WHITE), 1); /* Kh8-d8 takes 4 moves, the pawn needs 3 */

    /* The rule of the square: a7-pawn runs alone against a king on h1. */
    t = trace_fen("8/P7/8/8/8/8/8/4K2k b - - 0 1");
    cr_assert_eq(uses(t, "passer_unstoppable", WHITE), 1);
    t = trace_fen("8/8/8/8/P7/8/8/4K2k w - - 0 1");   /* 4 moves; king needs 6 */
    cr_assert_eq(uses(t, "passer_unstoppable", WHITE), 1);
    t = trace_fen("8/8/8/8/P7/8/8/2k1K3 b - - 0 1");  /* c1 to a8 is 7 moves, 6 counting the move */
    cr_assert_eq(uses(t, "passer_unstoppable", WHITE), 1);
    t = trace_fen("8/8/8/1k6/P7/8/8/4K3 b - - 0 1");  /* king in the square */
    cr_assert_eq(uses(t, "passer_unstoppable", WHITE), 0);
    /* An enemy rook behind our passer. */
    t = trace_fen("4k3/8/8/8/8/3P4/8/3rK3 w - - 0 1");
    cr_assert_eq(uses(t, "rook_behind_enemy_passer", BLACK), 1);
}

Test(eval, piece_features)
{
    /* Na4 on the rim; Ne5 on an outpost (d4 supports it, no black pawn on
     * the d- or f-file can chase it); Rc1 on a semi-open file (c6), Rh7 on
     * the seventh with a pawn there; Bd3 on light squares, its pawn on dark. */
    EvalTrace *t = trace_fen("6k1/p6R/2p5/4N3/N2P4/3B4/8/2R3K1 w - - 0 1");
    cr_assert_eq(uses(t, "knight_on_rim", WHITE), 1);
    cr_assert_eq(uses(t, "knight_outpost", WHITE), 1);
    cr_assert_eq(uses(t, "rook_semi_open_file", WHITE), 1);
    cr_assert_eq(uses(t, "rook_open_file", WHITE), 1); /* h-file */
    cr_assert_eq(uses(t, "rook_on_seventh", WHITE), 1);
    cr_assert_eq(uses(t, "bad_bishop_pawn", WHITE), 0); /* d4 is dark, Bd3 light */
    cr_assert_eq(uses(t, "bishop_pair", WHITE), 0);
}

Test(eval, development_features)
{
    EvalTrace *t = trace_fen(START_FEN);
    cr_assert_eq(uses(t, "minor_on_back_rank", WHITE), 4);
    cr_assert_eq(uses(t, "castling_right", BLACK), 2);
    cr_assert_eq(uses(t, "king_lost_castling", WHITE), 0);
    /* Bd3 blocks the d-pawn; White's king walked to e2 and lost its rights. */
    t = trace_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/3B4/PPPPKPPP/RNBQ2NR b kq - 2 3");
    cr_assert_eq(uses(t, "blocked_center_pawn", WHITE), 1);
    cr_assert_eq(uses(t, "king_lost_castling", WHITE), 1);
    cr_assert_eq(uses(t, "castling_right", WHITE), 0);
    cr_assert_eq(uses(t, "minor_on_back_rank", WHITE), 3);
}

Test(eval, king_safety_features)
{
    /* Black's king on g8 behind f7 g7 h7; White's on g1 behind f2 g3 h4. */
    EvalTrace *t = trace_fen("6k1/5ppp/8/8/7P/6P1/5P2/6K1 w - - 0 1");
    cr_assert_eq(uses_at(t, "king_shelter", 8 + 1, BLACK), 1); /* g7 on the king's file, own rank 2 */
    cr_assert_eq(uses_at(t, "king_shelter", 1, BLACK), 2);     /* f7, h7 */
    cr_assert_eq(uses_at(t, "king_shelter", 8 + 2, WHITE), 1); /* g3 */
    cr_assert_eq(uses_at(t, "king_shelter", 3, WHITE), 1);     /* h4 */
    /* A queen and a knight on the king: danger counts, and costs. */
    t = trace_fen("6k1/5ppp/7Q/6N1/8/8/5PPP/6K1 b - - 0 1");
    cr_assert_gt(score_mg(t->king_danger[BLACK]), 0);
    cr_assert_lt(score_mg(t->nonlinear[BLACK]), 0);
}

/* ---- orderings any player would agree with ------------------------------ */

Test(eval, start_position_is_about_even)
{
    int v = eval_fen(START_FEN);
    cr_assert(v >= -30 && v <= 30, "start position %d", v);
    cr_assert_eq(v, eval_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"));
}

Test(eval, a_queen_up_is_winning)
{
    int v = eval_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    cr_assert_gt(v, 700, "queen up: %d", v);
    v = eval_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    cr_assert_lt(v, -700, "queen down, to move: %d", v);
}

/* The h-pawns keep both kings' distance to the nearest pawn the same. On
 * the seventh the black rook controls the queening square, so the pawn
 * there loses the bonus of a free path: it only has to beat the fifth. */
Test(eval, a_passed_pawn_gains_as_it_advances)
{
    const char *ranks[] = { "3r2k1/7p/8/8/8/1P6/7P/3R2K1 w - - 0 1", "3r2k1/7p/8/8/1P6/8/7P/3R2K1 w - - 0 1",
                            "3r2k1/7p/8/1P6/8/8/7P/3R2K1 w - - 0 1", "3r2k1/7p/1P6/8/8/8/7P/3R2K1 w - - 0 1",
                            "3r2k1/1P5p/8/8/8/8/7P/3R2K1 w - - 0 1" };
    int v[5];
    for (int i = 0; i < 5; i++)
        v[i] = eval_fen(ranks[i]);
    for (int i = 1; i < 4; i++)
        cr_assert_gt(v[i], v[i - 1], "%s: %d, one rank lower: %d", ranks[i], v[i], v[i - 1]);
    cr_assert_gt(v[4], v[2], "seventh %d, fifth %d", v[4], v[2]);
    cr_assert_gt(v[4], v[0] + 100, "seventh %d, third %d", v[4], v[0]);
}

Test(eval, healthy_pawns_beat_doubled_isolated_ones)
{
    int healthy = eval_fen("6k1/pppp4/8/8/8/8/PPPP4/6K1 w - - 0 1");
    int broken = eval_fen("6k1/pppp4/8/8/8/P1P5/P1P5/6K1 w - - 0 1");
    cr_assert_gt(healthy, broken + 30, "healthy %d, doubled and isolated %d", healthy, broken);
}

Test(eval, drawn_material_is_zero)
{
    const char *draws[] = {
        "8/8/4k3/8/8/3NK3/8/8 w - - 0 1",  /* KNK */
        "8/8/4k3/8/8/3BK3/8/8 b - - 0 1",  /* KBK */
        "8/8/4k3/8/8/3NK1N1/8/8 w - - 0 1", /* KNNK */
        "8/8/4k3/8/8/4K3/8/8 w - - 0 1",   /* KK */
        "8/3b4/4k3/8/8/3BK3/8/8 w - - 0 1", /* KBKB */
    };
    for (int i = 0; i < 5; i++)
        cr_assert_eq(eval_fen(draws[i]), 0, "%s: %d", draws[i], eval_fen(draws[i]));
}

Test(eval, a_minor_up_without_pawns_is_drawish)
{
    int rook_vs_knight = eval_fen("8/8/2n1k3/8/8/4K3/3R4/8 w - - 0 1");
    int rook_alone = eval_fen("8/8/4k3/8/8/4K3/3R4/8 w - - 0 1");
    cr_assert(rook_vs_knight > 0 && rook_vs_knight < 100, "KRKN %d", rook_vs_knight);
    cr_assert_gt(rook_alone, 400, "KRK %d", rook_alone);
    int bishop_and_knight = eval_fen("8/8/4k3/8/8/4K3/3BN3/8 w - - 0 1");
    cr_assert_gt(bishop_and_knight, 400, "KBNK %d", bishop_and_knight);
}

Test(eval, opposite_bishops_are_drawish)
{
    int opposite = eval_fen("8/4k3/8/1b6/3PP3/4K3/3B4/8 w - - 0 1");
    int same = eval_fen("8/4k3/8/2b5/3PP3/4K3/3B4/8 w - - 0 1");
    cr_assert(opposite > 0 && opposite * 2 < same, "opposite %d, same colour %d", opposite, same);
}

Test(eval, centralised_knight_beats_knight_on_the_rim)
{
    int centre = eval_fen("4k3/pppp4/8/8/3N4/8/PPPP4/4K3 w - - 0 1");
    int rim = eval_fen("4k3/pppp4/8/8/N7/8/PPPP4/4K3 w - - 0 1");
    cr_assert_gt(centre, rim + 20, "centre %d, rim %d", centre, rim);
}

Test(eval, rook_prefers_the_open_file)
{
    int open = eval_fen("3r2k1/ppp2ppp/8/8/8/8/PPP2PPP/3R2K1 w - - 0 1");
    int closed = eval_fen("3r2k1/ppp2ppp/8/8/8/8/PPP2PPP/1R4K1 w - - 0 1");
    cr_assert_gt(open, closed + 15, "open %d, closed %d", open, closed);
}

Test(eval, intact_shelter_beats_a_broken_one)
{
    int intact = eval_fen("r4rk1/ppp1qppp/8/8/8/8/PPP1QPPP/R4RK1 w - - 0 1");
    int broken = eval_fen("r4rk1/ppp1qppp/8/8/6PP/5P2/PPP1Q3/R4RK1 w - - 0 1");
    cr_assert_gt(intact, broken + 10, "intact %d, broken %d", intact, broken);
}

Test(eval, development_and_castling_pay)
{
    int start = eval_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    int knights_out = eval_fen("rnbqkbnr/pppppppp/8/8/8/2N2N2/PPPPPPPP/R1BQKB1R w KQkq - 0 1");
    cr_assert_gt(knights_out, start + 20, "knights out %d, start %d", knights_out, start);
    int castled = eval_fen("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPBPPP/RNBQ1RK1 w kq - 0 1");
    int walked = eval_fen("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPBPPP/RNBQ1KR1 w kq - 0 1");
    cr_assert_gt(castled, walked + 20, "castled %d, king walked to f1 %d", castled, walked);
    int rights = eval_fen(START_FEN);
    int no_rights = eval_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w kq - 0 1");
    cr_assert_gt(rights, no_rights + 10, "with rights %d, without %d", rights, no_rights);
}

Test(eval, bishop_pair_counts)
{
    int pair = eval_fen("4k3/pppp4/2n1b3/8/8/2BB4/PPPP4/4K3 w - - 0 1");
    int no_pair = eval_fen("4k3/pppp4/2n1b3/8/8/2NB4/PPPP4/4K3 w - - 0 1");
    cr_assert_gt(pair, no_pair + 20, "pair %d, bishop and knight %d", pair, no_pair);
}

Test(eval, a_piece_attacked_by_a_pawn_is_a_threat)
{
    int threat = eval_fen("4k3/ppp5/3n4/2P5/8/8/PP6/4K3 w - - 0 1");
    int quiet = eval_fen("4k3/ppp5/4n3/8/2P5/8/PP6/4K3 w - - 0 1");
    cr_assert_gt(threat, quiet, "threat %d, quiet %d", threat, quiet);
}

Test(eval, endgame_king_belongs_in_the_centre)
{
    int centre = eval_fen("8/5k2/8/8/3K4/8/3P4/8 w - - 0 1");
    int corner = eval_fen("8/5k2/8/8/8/8/3P4/K7 w - - 0 1");
    cr_assert_gt(centre, corner + 20, "centre %d, corner %d", centre, corner);
}

Test(eval, values_stay_within_bounds)
{
    int v = eval_fen("QQQQQQQQ/QQQQQQQ1/8/8/8/8/8/K6k b - - 0 1");
    cr_assert_eq(v, -EVAL_MAX, "%d", v);
}
