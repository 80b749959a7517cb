/* tokens.c — line reading and word splitting for the front ends. */
#include "tokens.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"

bool tokens_split(char *line, Tokens *t)
{
    size_t capacity = 1;
    for (const char *c = line; *c; c++)
        capacity += *c == ' ' || *c == '\t' || *c == '\r' || *c == '\n'; /* every separator strtok_r uses */
    t->words = malloc(capacity * sizeof *t->words);
    t->count = 0;
    if (!t->words)
        return false;
    for (char *save = NULL, *w = strtok_r(line, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save))
        t->words[t->count++] = w;
    return true;
}

void tokens_free(Tokens *t)
{
    free(t->words);
    t->words = NULL;
    t->count = 0;
}

int tokens_find(const Tokens *t, const char *word, int from)
{
    for (int i = from; i < t->count; i++)
        if (strcmp(t->words[i], word) == 0)
            return i;
    return -1;
}

char *read_line(FILE *in)
{
    static char *buffer;
    static size_t size;
    ssize_t n = platform_getline(&buffer, &size, in);
    if (n < 0)
        return NULL;
    while (n > 0 && (buffer[n - 1] == '\n' || buffer[n - 1] == '\r'))
        buffer[--n] = '\0';
    return buffer;
}

bool parse_int64(const char *text, int64_t *value)
{
    if (!text)
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (end == text || *end || errno)
        return false;
    *value = v;
    return true;
}

void tokens_join(const Tokens *t, int from, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = from; i < t->count; i++) {
        size_t len = strlen(t->words[i]);
        if (used + len + 2 > size)
            break;
        if (i > from)
            out[used++] = ' ';
        memcpy(out + used, t->words[i], len + 1);
        used += len;
    }
}

bool parse_int_in(const char *text, int min, int max, int *value)
{
    int64_t v;
    if (!parse_int64(text, &v) || v < min || v > max)
        return false;
    *value = (int)v;
    return true;
}
