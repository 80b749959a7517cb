/* pawns.c — pawn-structure evaluation and its per-thread hash table. */
#include "pawns.h"

#include <stdlib.h>
#include <string.h>

PawnTable *pawn_table_create(void)
{
    return calloc(1, sizeof(PawnTable));
}

void pawn_table_destroy(PawnTable *table)
{
    free(table);
}

void pawn_table_clear(PawnTable *table)
{
    memset(table, 0, sizeof *table);
}

/* What one pawn's neighbourhood says about it. */
typedef struct {
    bool doubled, isolated, backward, connected, rammed, passed;
} PawnFeatures;

static PawnFeatures pawn_features(Color c, Square s, Bitboard ours, Bitboard theirs, Bitboard their_attacks)
{
    Color them = color_flip(c);
    Bitboard stop = square_bb((Square)(s + pawn_push(c)));
    Bitboard ahead = forward_ranks_bb(c, square_rank(s));
    Bitboard adjacent = adjacent_files_bb(square_file(s));
    Bitboard own_file = file_bb(square_file(s));
    PawnFeatures f;

    f.doubled = (ours & ahead & own_file) != 0;
    f.isolated = !(ours & adjacent);
    f.rammed = (theirs & stop) != 0;
    f.connected = (pawn_attacks[them][s] & ours) || (ours & adjacent & rank_bb(square_rank(s)));
    /* Only the front pawn of a doubled pair counts as passed. */
    f.passed = !(theirs & ahead & (adjacent | own_file)) && !f.doubled;
    /* Behind all its neighbours, so no pawn can ever defend it, and it
     * cannot step up to them because an enemy pawn holds its stop square. */
    f.backward = !f.isolated && !(ours & adjacent & ~ahead) && ((their_attacks | theirs) & stop);
    return f;
}

static void evaluate_side(const Board *b, Color c, PawnEntry *e, EvalSum *sum)
{
    const EvalWeights *w = &eval_weights;
    Color them = color_flip(c);
    Bitboard ours = board_pieces(b, c, PAWN), theirs = board_pieces(b, them, PAWN);
    Bitboard their_attacks = pawn_attacks_bb(them, theirs);

    for (Bitboard left = ours; left;) {
        Square s = pop_lsb(&left);
        int rank = rank_relative(c, square_rank(s));
        PawnFeatures f = pawn_features(c, s, ours, theirs, their_attacks);

        eval_add(sum, TERM_PSQT, c, &w->psqt[PAWN][psqt_index(c, s)], 1);
        if (f.doubled)
            eval_add(sum, TERM_PAWNS, c, &w->pawn_doubled, 1);
        if (f.isolated)
            eval_add(sum, TERM_PAWNS, c, &w->pawn_isolated, 1);
        if (f.backward)
            eval_add(sum, TERM_PAWNS, c, &w->pawn_backward, 1);
        if (f.connected)
            eval_add(sum, TERM_PAWNS, c, &w->pawn_connected[rank], 1);
        if (f.rammed)
            eval_add(sum, TERM_PAWNS, c, &w->pawn_ram[rank], 1);
        if (f.passed) {
            eval_add(sum, TERM_PASSED, c, &w->passed_pawn[rank], 1);
            e->passed |= square_bb(s);
        }
    }
    e->attack_span[c] = fill_forward(c, pawn_attacks_bb(c, ours));
}

void pawns_evaluate(const Board *b, PawnEntry *out, EvalTrace *trace)
{
    EvalSum sum = { .score = { 0, 0 }, .trace = trace };
    memset(out, 0, sizeof *out);
    out->key = board_pawn_key(b);
    evaluate_side(b, WHITE, out, &sum);
    evaluate_side(b, BLACK, out, &sum);
    out->score = sum.score[WHITE] - sum.score[BLACK];
}

PawnEntry *pawn_probe(PawnTable *table, const Board *b)
{
    Key key = board_pawn_key(b);
    PawnEntry *e = &table->entries[key & (PAWN_TABLE_SIZE - 1)];
    if (e->key != key)
        pawns_evaluate(b, e, NULL);
    return e;
}
