/* tune_write.c — the weights written back as C: the initializer of
 * eval_weights in the layout of evalweights.c, so that tuned values replace
 * the old ones mechanically (see tune.h).
 *
 * Every Score is written, zeros included, in the order of the struct, so
 * the text reads back as exactly WEIGHT_COUNT values. Tables with one entry
 * per piece type name their entries ([PAWN] = ...), as evalweights.c does.
 */
#include "tools/tune.h"

static const char *const PIECE_NAMES[PIECE_TYPE_NB] = { "PAWN", "KNIGHT", "BISHOP", "ROOK", "QUEEN", "KING" };

enum { PER_LINE = 7 }; /* Scores per line of a long table */

static void write_score(FILE *out, Score s)
{
    fprintf(out, "S(%d, %d)", score_mg(s), score_eg(s));
}

/* One row of a table on one line: "{ S(..), S(..) }". */
static void write_row(FILE *out, const Score *row, int count)
{
    fputs("{ ", out);
    for (int k = 0; k < count; k++) {
        write_score(out, row[k]);
        fputs(k + 1 < count ? ", " : " }", out);
    }
}

/* A table indexed by piece type, "{ [PAWN] = S(..), ... }", three entries
 * a line, continued under the first; `indent` is the column of the brace. */
static void write_by_piece(FILE *out, const Score *row, int indent)
{
    fputs("{ ", out);
    for (int t = 0; t < PIECE_TYPE_NB; t++) {
        if (t > 0 && t % 3 == 0)
            fprintf(out, "\n%*s", indent + 2, "");
        fprintf(out, "[%s] = ", PIECE_NAMES[t]);
        write_score(out, row[t]);
        fputs(t + 1 == PIECE_TYPE_NB ? " }" : t % 3 == 2 ? "," : ", ", out);
    }
}

/* A piece-square table as its 8 x 8 diagram, a8 first. */
static void write_square_table(FILE *out, const Score *table)
{
    fputs("{\n", out);
    for (int s = 0; s < SQUARE_NB; s++) {
        fprintf(out, "%sS(%3d,%3d),", s % 8 == 0 ? "            " : " ", score_mg(table[s]), score_eg(table[s]));
        if (s % 8 == 7)
            fputc('\n', out);
    }
    fputs("        }", out);
}

/* A long one-dimensional table (mobility), PER_LINE Scores a line. */
static void write_long_table(FILE *out, const Score *table, int count)
{
    fputs("{\n", out);
    for (int k = 0; k < count; k++) {
        fputs(k % PER_LINE == 0 ? "        " : " ", out);
        write_score(out, table[k]);
        fputc(',', out);
        if (k % PER_LINE == PER_LINE - 1 || k + 1 == count)
            fputc('\n', out);
    }
    fputs("    }", out);
}

static void write_field(FILE *out, const WeightInfo *w)
{
    const Score *first = weights_array() + w->index;
    int indent = fprintf(out, "    .%s = ", w->name);
    if (w->dims == 0)
        write_score(out, *first);
    else if (w->dims == 1 && w->count == PIECE_TYPE_NB)
        write_by_piece(out, first, indent);
    else if (w->dims == 1 && w->count <= 8)
        write_row(out, first, w->count);
    else if (w->dims == 1)
        write_long_table(out, first, w->count);
    else {
        fputs("{\n", out);
        for (int r = 0; r < w->count / w->row; r++) {
            const Score *row = first + r * w->row;
            if (w->row == SQUARE_NB) {
                fprintf(out, "        [%s] = ", PIECE_NAMES[r]);
                write_square_table(out, row);
            } else {
                fputs("        ", out);
                write_row(out, row, w->row);
            }
            fputs(",\n", out);
        }
        fputs("    }", out);
    }
    fputs(",\n", out);
}

void tune_write_weights(FILE *out)
{
    fputs("EvalWeights eval_weights = {\n", out);
    for (int i = 0; i < weight_info_count; i++)
        write_field(out, &weight_info[i]);
    fputs("};\n", out);
}
