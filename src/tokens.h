#pragma once
/*
 * tokens.h — splits an input line into words, in place, for the protocol
 * front ends. Dispatch compares whole words, never prefixes, so that `uci`
 * and `ucinewgame` cannot be confused.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    char **words;
    int count;
} Tokens;

/* Splits `line` (modified); returns false if memory runs out. */
bool tokens_split(char *line, Tokens *t);
void tokens_free(Tokens *t);
/* Index of `word` in t from `from` on, or -1. */
int tokens_find(const Tokens *t, const char *word, int from);
/* Joins the words from `from` on, one space apart, into out; words that
 * do not fit in `size` are left off. */
void tokens_join(const Tokens *t, int from, char *out, size_t size);
/* A whole decimal number (optional sign), nothing else: false for empty
 * text, trailing junk or a value beyond 64 bits. NULL text is false. */
bool parse_int64(const char *text, int64_t *value);
/* The same, for a value that must lie in [min, max] (command-line numbers). */
bool parse_int_in(const char *text, int min, int max, int *value);
/* Reads a line of any length from `in`; returns NULL at end of input. The
 * buffer is reused between calls. */
char *read_line(FILE *in);
