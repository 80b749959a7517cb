#pragma once
/*
 * options.h — the table of settings a GUI or a user can change, knowing
 * nothing of what the settings do.
 *
 * Each owner (the engine, each front end) registers its options once at
 * start-up with option_register(), keeps the handle it gets back, and is
 * told of every change through the option's `changed` callback, which may
 * still refuse a value (memory not available, a file that cannot be read).
 * The table parses and range-checks values, answers with a readable error
 * instead of applying a bad one, and describes itself as UCI `option name …`
 * lines and CECP `feature option="…"` strings.
 *
 * Owners read their settings through their handles (or the variables their
 * callbacks fill), never by name: a misspelt option cannot compile. Lookup
 * by name is for text that comes from outside (setoption, option, set).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { OPTION_SPIN, OPTION_CHECK, OPTION_BUTTON, OPTION_STRING, OPTION_COMBO } OptionType;

/* Which protocols offer an option. CECP has commands of its own for some
 * settings (memory, cores, hard/easy, analyze), and UCI GUIs resign for the
 * engine, so not every option is offered everywhere. */
enum { OFFER_UCI = 1, OFFER_CECP = 2, OFFER_ALL = OFFER_UCI | OFFER_CECP };

enum { OPTION_TEXT_SIZE = 256, MAX_OPTIONS = 128 };

typedef struct Option Option;
/* Called after a value passed the type and range checks, before it is
 * stored: `value` and `text` are the new value. False (with a reason in
 * `error`) keeps the old one; true may still leave a note in `error` for
 * the user (what a new path was found to hold, say). */
typedef bool (*OptionChanged)(const Option *option, int64_t value, const char *text, char *error, size_t error_size);

struct Option {
    const char *name;
    OptionType type;
    int64_t default_value, min, max; /* spin and check (0/1) */
    const char *default_text;        /* string and combo */
    const char *choices;             /* combo: values separated by spaces */
    const char *help;
    unsigned offered;                /* OFFER_UCI | OFFER_CECP */
    OptionChanged changed;           /* NULL: the owner only reads the value */
    void *target;                    /* for the owner's callback (e.g. a field to fill) */
    int64_t value;
    char text[OPTION_TEXT_SIZE];
};

/* Registers an option (copied) at its default value and returns the handle
 * the owner keeps. The default is announced through `changed` too, so an
 * owner's variables start in step with the table. Registering a name twice
 * returns the existing handle. */
Option *option_register(Option spec);

int options_count(void);
Option *option_at(int index);
Option *option_find(const char *name); /* case-insensitive, as UCI asks */
/* False with the reason in `error`; true with `error` empty or holding a
 * note for the user. */
bool option_set(const char *name, const char *value, char *error, size_t error_size);
/* "NAME=VALUE" (or a bare NAME for a button), spaces around either trimmed:
 * CECP's `option` command and datagen's --option. */
bool option_set_assignment(const char *assignment, char *error, size_t error_size);

/* The `option name … type …` lines for UCI, and the `feature option="…"`
 * lines for CECP (with current values), one call of `emit` per line. */
void options_describe_uci(void (*emit)(const char *line));
void options_describe_xboard(void (*emit)(const char *line));

/* Ready-made callbacks that copy the value into `target`: an int, a bool,
 * or a char[OPTION_TEXT_SIZE] ("<empty>", as UCI GUIs send it, is ""). */
bool option_store_int(const Option *o, int64_t value, const char *text, char *error, size_t error_size);
bool option_store_bool(const Option *o, int64_t value, const char *text, char *error, size_t error_size);
bool option_store_text(const Option *o, int64_t value, const char *text, char *error, size_t error_size);
/* The text of a string option, with "<empty>" read as "". */
const char *option_text_value(const char *text);

/* Shorthands for the specs (designated initialisers, so a field cannot slip). */
#define OPTION_SPIN_SPEC(NAME, DEF, LO, HI, HELP) \
    .name = (NAME), .type = OPTION_SPIN, .default_value = (DEF), .min = (LO), .max = (HI), .help = (HELP)
#define OPTION_CHECK_SPEC(NAME, DEF, HELP) \
    .name = (NAME), .type = OPTION_CHECK, .default_value = (DEF), .min = 0, .max = 1, .help = (HELP)
#define OPTION_BUTTON_SPEC(NAME, HELP) .name = (NAME), .type = OPTION_BUTTON, .help = (HELP)
#define OPTION_STRING_SPEC(NAME, DEF, HELP) .name = (NAME), .type = OPTION_STRING, .default_text = (DEF), .help = (HELP)
#define OPTION_COMBO_SPEC(NAME, DEF, CHOICES, HELP) \
    .name = (NAME), .type = OPTION_COMBO, .default_text = (DEF), .choices = (CHOICES), .help = (HELP)
