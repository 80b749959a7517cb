#pragma once
/*
 * options.h — every engine option in one table: name, type, default,
 * range and what setting it does. The UCI front end prints it as
 * `option name … type …` lines, the XBoard one as `feature option="…"`
 * strings, and both set options through option_set(), which checks the
 * value and answers with a readable error instead of applying a bad one.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum { OPTION_SPIN, OPTION_CHECK, OPTION_BUTTON, OPTION_STRING, OPTION_COMBO } OptionType;

typedef struct Option {
    const char *name;
    OptionType type;
    int64_t default_value, min, max;   /* spin and check (0/1) */
    const char *default_text;           /* string and combo */
    const char *choices;                /* combo: values separated by spaces */
    const char *help;
    /* Applies a value already checked against type and range; may still
     * refuse (e.g. memory not available) and say why. */
    bool (*apply)(const struct Option *option, int64_t value, const char *text, char *error, size_t error_size);
    int64_t value;
    char text[256];
} Option;

void options_init(void);
int options_count(void);
Option *option_at(int index);
Option *option_find(const char *name); /* case-insensitive, as UCI asks */
bool option_set(const char *name, const char *value, char *error, size_t error_size);

void options_print_uci(FILE *out);
/* `feature option="NAME -spin V MIN MAX"` (-check, -button, -string,
 * -combo A /// *B) lines with the current values, for CECP. */
void options_print_xboard(FILE *out);
/* CECP's `option NAME=VALUE`, or `option NAME` for a button. */
bool option_set_xboard(const char *assignment, char *error, size_t error_size);

int option_move_overhead(void);
int64_t option_int(const char *name);
const char *option_text(const char *name); /* string and combo options */
