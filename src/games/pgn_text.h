#pragma once
/*
 * pgn_text.h — the text rules of PGN's export format, shared by the game
 * log (gamelog.c) and the PGN tool's writer (pgn.c): the Seven Tag Roster,
 * how a tag value is quoted, how moves are numbered and how movetext is
 * broken into lines.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The Seven Tag Roster in its order (the PGN standard, section 8.1.1), and the value
 * each tag has when nothing is known. */
enum { PGN_ROSTER_SIZE = 7, PGN_ROSTER_RESULT = 6 };
extern const char *const PGN_ROSTER[PGN_ROSTER_SIZE];
extern const char *const PGN_ROSTER_UNKNOWN[PGN_ROSTER_SIZE];

/* Movetext lines stay below 80 columns (the PGN standard, section 8.2.6). */
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

/* One move of the movetext, played at `ply` (0 for White's first move of
 * a game): White's moves, and the first move written, carry their number
 * ("12. Nf3", "12... Nf6"), in one word with the move so that a line never
 * breaks between them. */
void pgn_write_move(PgnLine *line, int ply, bool first, const char *san);
/* The same word into `out` ("12. Nf3", "12... Nf6" or "Nf6"), for writers
 * that add to it, e.g. the "(" that opens a variation. */
void pgn_format_move(char *out, size_t size, int ply, bool numbered, const char *san);
