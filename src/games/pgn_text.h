#pragma once
/*
 * pgn_text.h — the text rules of PGN's export format, shared by the game
 * log (gamelog.c) and the PGN tool's writer (pgn.c): how a tag value is
 * quoted, and how movetext is broken into lines.
 */
#include <stdio.h>

/* Movetext lines stay below 80 columns (PGN standard §8.2.6). */
enum { PGN_LINE_MAX = 79 };

/* `[Name "value"]` and a newline; quotes and backslashes in the value are
 * escaped, control characters become spaces. */
void pgn_write_tag(FILE *out, const char *name, const char *value);

/* Movetext written word by word: a space between words, a line break
 * instead when the next word would pass PGN_LINE_MAX. */
typedef struct {
    FILE *out;
    int column;
} PgnLine;

void pgn_write_word(PgnLine *line, const char *word);
