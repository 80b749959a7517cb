/* options.c — the option table: registration, checks, and how it is shown. */
#include "options.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tokens.h"

static Option options[MAX_OPTIONS];
static int option_count;

/* Puts an option's default in place through its owner's callback, which
 * must accept it (a default that its own owner refuses is a bug). */
static void apply_default(Option *o)
{
    o->value = o->default_value;
    snprintf(o->text, sizeof o->text, "%s", o->default_text ? o->default_text : "");
    if (o->changed && o->type != OPTION_BUTTON) {
        char error[256];
        bool accepted = o->changed(o, o->value, o->text, error, sizeof error);
        (void)accepted;
#ifndef NDEBUG
        if (!accepted)
            fprintf(stderr, "option %s: default refused: %s\n", o->name, error);
#endif
    }
}

Option *option_register(Option spec)
{
    Option *existing = option_find(spec.name);
    if (existing)
        return existing;
    if (option_count == MAX_OPTIONS) {
        /* A build with more options than the table holds would offer a
         * quietly incomplete list: a defect to stop at, not to run with. */
        fprintf(stderr, "options: table full (MAX_OPTIONS %d), cannot register %s\n", MAX_OPTIONS, spec.name);
        abort();
    }
    if (!spec.offered)
        spec.offered = OFFER_ALL;
    Option *o = &options[option_count++];
    *o = spec;
    apply_default(o);
    return o;
}

int options_count(void) { return option_count; }
Option *option_at(int index) { return index >= 0 && index < option_count ? &options[index] : NULL; }

Option *option_find(const char *name)
{
    for (int i = 0; i < option_count; i++)
        if (strcasecmp(options[i].name, name) == 0)
            return &options[i];
    return NULL;
}

/* ---- setting a value ------------------------------------------------------- */

static bool parse_bool(const char *text, int64_t *value)
{
    if (strcasecmp(text, "true") == 0 || strcmp(text, "1") == 0 || strcasecmp(text, "on") == 0)
        return (*value = 1), true;
    if (strcasecmp(text, "false") == 0 || strcmp(text, "0") == 0 || strcasecmp(text, "off") == 0)
        return (*value = 0), true;
    return false;
}

/* A combo's choices are words separated by spaces: the one starting at
 * `word` is `*len` characters long; returns where the next one starts. */
static const char *next_choice(const char *word, size_t *len)
{
    *len = strcspn(word, " ");
    return word + *len + (word[*len] == ' ');
}

static bool combo_has(const char *choices, const char *value)
{
    size_t len;
    for (const char *word = choices, *next; *word; word = next) {
        next = next_choice(word, &len);
        if (len == strlen(value) && strncasecmp(word, value, len) == 0)
            return true;
    }
    return false;
}

/* Checks `text` against the option's type and range; the number it means in `value`. */
static bool check_value(const Option *o, const char *text, int64_t *value, char *error, size_t esize)
{
    *value = 0;
    switch (o->type) {
    case OPTION_SPIN:
        if (!parse_int64(text, value)) {
            snprintf(error, esize, "option %s needs a whole number, not '%.32s'", o->name, text);
            return false;
        }
        if (*value < o->min || *value > o->max) {
            snprintf(error, esize, "option %s must be from %lld to %lld, not %lld", o->name,
                     (long long)o->min, (long long)o->max, (long long)*value);
            return false;
        }
        return true;
    case OPTION_CHECK:
        if (!parse_bool(text, value)) {
            snprintf(error, esize, "option %s needs true or false, not '%.32s'", o->name, text);
            return false;
        }
        return true;
    case OPTION_COMBO:
        if (!combo_has(o->choices, text)) {
            snprintf(error, esize, "option %s must be one of: %s", o->name, o->choices);
            return false;
        }
        return true;
    case OPTION_STRING:
        if (strlen(text) >= sizeof o->text) {
            snprintf(error, esize, "option %s: value too long", o->name);
            return false;
        }
        return true;
    case OPTION_BUTTON:
        return true;
    }
    return false;
}

bool option_set(const char *name, const char *value, char *error, size_t esize)
{
    if (esize)
        error[0] = '\0'; /* a change may leave a note here even when it succeeds */
    Option *o = option_find(name);
    if (!o) {
        snprintf(error, esize, "no such option '%.64s'", name);
        return false;
    }
    value = value ? value : "";
    int64_t v;
    if (!check_value(o, value, &v, error, esize))
        return false;
    if (o->changed && !o->changed(o, v, value, error, esize))
        return false;
    o->value = v;
    if (o->type == OPTION_STRING || o->type == OPTION_COMBO)
        snprintf(o->text, sizeof o->text, "%s", value);
    return true;
}

/* "NAME=VALUE", as XBoard's `option` sends it and datagen's --option takes
 * it (buttons come as a bare NAME). */
bool option_set_assignment(const char *assignment, char *error, size_t esize)
{
    char name[256];
    const char *equals = strchr(assignment, '=');
    size_t len = equals ? (size_t)(equals - assignment) : strlen(assignment);
    while (len > 0 && isspace((unsigned char)assignment[len - 1]))
        len--;
    if (len >= sizeof name) {
        snprintf(error, esize, "option name too long");
        return false;
    }
    memcpy(name, assignment, len);
    name[len] = '\0';
    const char *value = equals ? equals + 1 : "";
    while (isspace((unsigned char)*value))
        value++;
    return option_set(name, value, error, esize);
}

/* ---- the owners' ready-made callbacks --------------------------------------- */

bool option_store_int(const Option *o, int64_t value, const char *text, char *error, size_t esize)
{
    (void)text, (void)error, (void)esize;
    *(int *)o->target = (int)value;
    return true;
}

bool option_store_bool(const Option *o, int64_t value, const char *text, char *error, size_t esize)
{
    (void)text, (void)error, (void)esize;
    *(bool *)o->target = value != 0;
    return true;
}

const char *option_text_value(const char *text) { return strcmp(text, "<empty>") == 0 ? "" : text; }

bool option_store_text(const Option *o, int64_t value, const char *text, char *error, size_t esize)
{
    (void)value, (void)error, (void)esize;
    snprintf((char *)o->target, OPTION_TEXT_SIZE, "%s", option_text_value(text));
    return true;
}

/* ---- describing the table ---------------------------------------------------- */

typedef struct {
    char text[1024];
    size_t length;
} LineBuffer;

static void append(LineBuffer *line, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void append(LineBuffer *line, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    if (line->length < sizeof line->text) {
        int n = vsnprintf(line->text + line->length, sizeof line->text - line->length, format, args);
        line->length += n > 0 ? (size_t)n : 0;
    }
    va_end(args);
}

static void describe_uci(const Option *o, LineBuffer *line)
{
    static const char *TYPES[] = { "spin", "check", "button", "string", "combo" };
    append(line, "option name %s type %s", o->name, TYPES[o->type]);
    switch (o->type) {
    case OPTION_SPIN:
        append(line, " default %lld min %lld max %lld", (long long)o->default_value, (long long)o->min, (long long)o->max);
        break;
    case OPTION_CHECK:
        append(line, " default %s", o->default_value ? "true" : "false");
        break;
    case OPTION_STRING:
        append(line, " default %s", *o->default_text ? o->default_text : "<empty>");
        break;
    case OPTION_COMBO:
        append(line, " default %s", o->default_text);
        size_t len;
        for (const char *word = o->choices, *next; *word; word = next) {
            next = next_choice(word, &len);
            append(line, " var %.*s", (int)len, word);
        }
        break;
    case OPTION_BUTTON:
        break;
    }
}

/* feature option="NAME -TYPE ..." for XBoard, showing current values. */
static void describe_xboard(const Option *o, LineBuffer *line)
{
    append(line, "feature option=\"%s", o->name);
    switch (o->type) {
    case OPTION_SPIN:
        append(line, " -spin %lld %lld %lld", (long long)o->value, (long long)o->min, (long long)o->max);
        break;
    case OPTION_CHECK:
        append(line, " -check %d", o->value != 0);
        break;
    case OPTION_BUTTON:
        append(line, " -button");
        break;
    case OPTION_STRING:
        append(line, " -string %s", o->text);
        break;
    case OPTION_COMBO:
        append(line, " -combo");
        size_t len;
        for (const char *word = o->choices, *next; *word; word = next) {
            next = next_choice(word, &len);
            bool current = strlen(o->text) == len && strncasecmp(word, o->text, len) == 0;
            append(line, "%s %s%.*s", word == o->choices ? "" : " ///", current ? "*" : "", (int)len, word);
        }
        break;
    }
    append(line, "\"");
}

static void describe(unsigned protocol, void (*format)(const Option *, LineBuffer *), void (*emit)(const char *))
{
    for (int i = 0; i < option_count; i++) {
        if (!(options[i].offered & protocol))
            continue;
        LineBuffer line = { .length = 0 };
        format(&options[i], &line);
        emit(line.text);
    }
}

void options_describe_uci(void (*emit)(const char *line)) { describe(OFFER_UCI, describe_uci, emit); }
void options_describe_xboard(void (*emit)(const char *line)) { describe(OFFER_CECP, describe_xboard, emit); }
