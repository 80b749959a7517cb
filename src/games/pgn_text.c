/* pgn_text.c — tag quoting and movetext line breaking (see pgn_text.h). */
#include "games/pgn_text.h"

#include <ctype.h>
#include <string.h>

const char *const PGN_ROSTER[PGN_ROSTER_SIZE] = { "Event", "Site", "Date", "Round", "White", "Black", "Result" };
const char *const PGN_ROSTER_UNKNOWN[PGN_ROSTER_SIZE] = { "?", "?", "????.??.??", "?", "?", "?", "*" };

void pgn_write_tag(FILE *out, const char *name, const char *value)
{
    fprintf(out, "[%s \"", name);
    for (const char *c = value; *c; c++) {
        if (*c == '"' || *c == '\\')
            fputc('\\', out);
        fputc(iscntrl((unsigned char)*c) ? ' ' : *c, out);
    }
    fputs("\"]\n", out);
}

void pgn_write_word(PgnLine *line, const char *word)
{
    int length = (int)strlen(word);
    if (line->column > 0 && line->column + 1 + length > PGN_LINE_MAX) {
        fputc('\n', line->out);
        line->column = 0;
    } else if (line->column > 0) {
        fputc(' ', line->out);
        line->column++;
    }
    fputs(word, line->out);
    line->column += length;
}

void pgn_format_move(char *out, size_t size, int ply, bool numbered, const char *san)
{
    if (ply % 2 == 0 || numbered)
        snprintf(out, size, "%d.%s %.40s", ply / 2 + 1, ply % 2 ? ".." : "", san);
    else
        snprintf(out, size, "%.40s", san);
}

void pgn_write_move(PgnLine *line, int ply, bool first, const char *san)
{
    char word[64];
    pgn_format_move(word, sizeof word, ply, first, san);
    pgn_write_word(line, word);
}
