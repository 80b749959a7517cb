/* pgn_text.c — tag quoting and movetext line breaking (see pgn_text.h). */
#include "games/pgn_text.h"

#include <ctype.h>
#include <string.h>

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
