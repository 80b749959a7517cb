/* options.c — parsing bachess-train's command line (see options.h). */
#include "options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "trainer.h"

static bool bad(char *error, size_t esize, const char *name, const char *value, const char *want)
{
    snprintf(error, esize, "%s %s: %s", name, value ? value : "(missing)", want);
    return false;
}

static bool parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = s ? strtod(s, &end) : 0;
    return s && *s && !*end && !errno;
}

static bool parse_long(const char *s, long long *out)
{
    char *end;
    errno = 0;
    *out = s ? strtoll(s, &end, 10) : 0;
    return s && *s && !*end && !errno;
}

/* An integer option within [low, high]. */
static bool take_int(const char *name, const char *value, long long low, long long high, long long *out,
                     char *error, size_t esize)
{
    char want[80];
    snprintf(want, sizeof want, "wants an integer from %lld to %lld", low, high);
    return parse_long(value, out) && *out >= low && *out <= high ? true : bad(error, esize, name, value, want);
}

/* A number option within [low, high] (above low when `open_low`). */
static bool take_double(const char *name, const char *value, double low, double high, bool open_low, double *out,
                        char *error, size_t esize)
{
    char want[80];
    snprintf(want, sizeof want, "wants a number %s %g up to %g", open_low ? "above" : "from", low, high);
    bool ok = parse_double(value, out) && (open_low ? *out > low : *out >= low) && *out <= high;
    return ok ? true : bad(error, esize, name, value, want);
}

static bool parse_value(Options *o, const char *name, const char *value, char *error, size_t esize)
{
    long long n = 0;
    bool ok = true;
    if (!strcmp(name, "--out") || !strcmp(name, "--init") || !strcmp(name, "--gradient-check")
        || !strcmp(name, "--evaluate")) {
        if (!value)
            return bad(error, esize, name, value, "wants a file name");
        *(!strcmp(name, "--out") ? &o->out : !strcmp(name, "--init") ? &o->init
          : !strcmp(name, "--evaluate") ? &o->evaluate : &o->gradient_check) = value;
    } else if (!strcmp(name, "--hidden")) {
        ok = take_int(name, value, HIDDEN_STEP, MAX_HIDDEN, &n, error, esize) && (n % HIDDEN_STEP == 0
             || bad(error, esize, name, value, "wants a multiple of 16"));
        o->hidden = (int)n;
    } else if (!strcmp(name, "--epochs")) {
        ok = take_int(name, value, 0, 100000, &n, error, esize), o->epochs = (int)n;
    } else if (!strcmp(name, "--batch")) {
        ok = take_int(name, value, 1, 1 << 24, &n, error, esize), o->batch = (int)n;
    } else if (!strcmp(name, "--output-buckets")) {
        ok = take_int(name, value, 1, MAX_OUTPUT_BUCKETS, &n, error, esize), o->output_buckets = (int)n;
    } else if (!strcmp(name, "--check-epoch")) {
        ok = take_int(name, value, 1, 100000, &n, error, esize), o->check_epoch = (int)n;
    } else if (!strcmp(name, "--threads")) {
        ok = take_int(name, value, 1, SHARDS, &n, error, esize), o->threads = (int)n;
    } else if (!strcmp(name, "--positions")) {
        ok = take_int(name, value, 0, 1LL << 40, &n, error, esize), o->positions = (size_t)n;
    } else if (!strcmp(name, "--seed")) {
        ok = take_int(name, value, 0, 1LL << 62, &n, error, esize), o->seed = (uint64_t)n;
    } else if (!strcmp(name, "--lr")) {
        ok = take_double(name, value, 0, 10, true, &o->lr, error, esize);
    } else if (!strcmp(name, "--final-lr")) {
        ok = take_double(name, value, 0, 10, false, &o->final_lr, error, esize);
    } else if (!strcmp(name, "--lambda")) {
        ok = take_double(name, value, 0, 1, false, &o->lambda, error, esize);
    } else if (!strcmp(name, "--final-lambda")) {
        ok = take_double(name, value, 0, 1, false, &o->final_lambda, error, esize);
    } else if (!strcmp(name, "--king-buckets")) {
        ok = king_buckets_parse(value, &o->kings, error, esize);
    } else if (!strcmp(name, "--k")) {
        ok = take_double(name, value, 0, 100000, true, &o->k, error, esize);
    } else {
        snprintf(error, esize, "unknown option %s (bachess-train --help lists them)", name);
        return false;
    }
    return ok;
}

static bool is_flag(Options *o, const char *arg)
{
    bool *flag = !strcmp(arg, "--crelu") ? &o->crelu : !strcmp(arg, "--mirror") ? &o->mirror
                 : !strcmp(arg, "--no-bias-correction") ? &o->no_bias_correction
                 : !strcmp(arg, "--factoriser") ? &o->factoriser : NULL;
    if (flag)
        *flag = true;
    return flag != NULL;
}

bool options_parse(Options *o, int argc, char **argv, char *error, size_t esize)
{
    /* train.py's defaults */
    *o = (Options){ .hidden = 32, .epochs = 10, .batch = 16384, .threads = 1, .output_buckets = 1, .check_epoch = 1,
                    .lr = 0.001, .lambda = 0.5, .final_lambda = NO_FINAL_LAMBDA, .k = 400, .seed = 1,
                    .kings = king_buckets_none(),
                    .records = calloc((size_t)argc + 1, sizeof(char *)) };
    bool check_epoch_given = false;
    if (!o->records)
        return snprintf(error, esize, "out of memory"), false;
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--", 2) != 0) {
            o->records[o->record_count++] = argv[i];
        } else if (!is_flag(o, argv[i])) {
            const char *value = i + 1 < argc ? argv[i + 1] : NULL;
            check_epoch_given |= !strcmp(argv[i], "--check-epoch");
            if (!parse_value(o, argv[i], value, error, esize))
                return false;
            i++;
        }
    }
    if (!o->record_count)
        return snprintf(error, esize, "no record files given"), false;
    if (o->factoriser && o->kings.count == 1)
        return snprintf(error, esize, "--factoriser is for a net with --king-buckets"), false;
    o->kings.factoriser = o->factoriser;
    if (!o->out && !o->gradient_check && !o->evaluate)
        return snprintf(error, esize, "--out NET.nnue is required"), false;
    if (check_epoch_given && !o->gradient_check)
        return snprintf(error, esize, "--check-epoch is for --gradient-check only"), false;
    if (o->check_epoch > (o->epochs > 1 ? o->epochs : 1))
        return snprintf(error, esize, "--check-epoch %d: after the last of --epochs %d", o->check_epoch, o->epochs),
               false;
    return true;
}
