/*
 * main.c — bachess-train: trains the bachess NNUE network on 32-byte
 * training records, as scripts/nnue/train.py does, in C (docs/nnue.md).
 *
 *   bachess-train RECORDS... --out NET.nnue [--hidden 32] [--epochs 10]
 *       [--batch 16384] [--lr 0.001] [--final-lr 0] [--lambda 0.5] [--k 400]
 *       [--positions N] [--seed 1] [--crelu] [--mirror] [--threads 1..8]
 *       [--init NET.nnue] [--no-bias-correction] [--output-buckets 1..16]
 *       [--final-lambda L] [--king-buckets home4|home8|MAP [--factoriser]]
 *   bachess-train RECORDS... --gradient-check OUT [--batch B] [--check-epoch E] [...]
 *   bachess-train RECORDS... --evaluate NET.nnue [--positions N]
 *
 * Everything it prints, with the command line, goes into NET.nnue.log.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "netfile.h"
#include "options.h"
#include "trainer.h"

enum { ERROR_SIZE = 512 };

/* The run's log: printed as it goes, and kept for NET.nnue.log. */
static char *log_text;
static size_t log_length;

static void say(const char *format, ...)
{
    char line[8192];
    va_list args;
    va_start(args, format);
    vsnprintf(line, sizeof line, format, args);
    va_end(args);
    printf("%s\n", line);
    fflush(stdout);
    size_t add = strlen(line) + 1;
    char *grown = realloc(log_text, log_length + add + 1);
    if (!grown)
        return;
    log_text = grown;
    memcpy(log_text + log_length, line, add - 1);
    log_length += add;
    log_text[log_length - 1] = '\n';
    log_text[log_length] = '\0';
}

static int failure(const char *message)
{
    fprintf(stderr, "bachess-train: %s\n", message);
    return 1;
}

static double seconds_of(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double now(void) { return seconds_of(CLOCK_MONOTONIC); }

/* The CPU time of all the process's threads: on a shared machine the wall
 * clock's rate depends on the other jobs, this one on the trainer alone. */
static double cpu_now(void) { return seconds_of(CLOCK_PROCESS_CPUTIME_ID); }

/* train.py's learning_rate(): --lr, 0.3 times it in the last quarter of
 * the epochs; with --final-lr a geometric fall from --lr to it instead. */
static double learning_rate(const Options *o, int epoch)
{
    if (o->final_lr <= 0)
        return o->lr * (epoch > 0.75 * o->epochs ? 0.3 : 1.0);
    if (o->epochs == 1)
        return o->lr;
    return o->lr * pow(o->final_lr / o->lr, (double)(epoch - 1) / (o->epochs - 1));
}

/* The weight of the game result in an epoch's target: --lambda, or with
 * --final-lambda a straight line from --lambda in the first epoch to it in
 * the last (more weight on the result late in training). */
static double lambda_of(const Options *o, int epoch)
{
    if (o->final_lambda == NO_FINAL_LAMBDA || o->epochs <= 1)
        return o->lambda;
    return o->lambda + (o->final_lambda - o->lambda) * (double)(epoch - 1) / (o->epochs - 1);
}

static bool lambda_varies(const Options *o)
{
    return o->final_lambda != NO_FINAL_LAMBDA && o->final_lambda != o->lambda && o->epochs > 1;
}

static void say_command(int argc, char **argv)
{
    size_t size = 64;
    for (int i = 1; i < argc; i++)
        size += strlen(argv[i]) + 1;
    char *line = malloc(size);
    if (!line)
        return;
    strcpy(line, "command: bachess-train");
    for (int i = 1; i < argc; i++)
        strcat(strcat(line, " "), argv[i]);
    say("%s", line);
    free(line);
}

/* Whether a net's king buckets can start a net of --king-buckets: one
 * bucket fills every bucket, else the same layout. */
static bool king_buckets_fit(const KingBuckets *file, const KingBuckets *wanted)
{
    return file->count == 1 || (file->count == wanted->count && !memcmp(file->bucket, wanted->bucket, 64));
}

/* The starting weights of --init, checked against --hidden, --crelu,
 * --output-buckets and --king-buckets (a one-bucket net fills every bucket
 * of each kind). */
static bool load_start(const Options *o, Weights *start, char *error, size_t esize)
{
    QuantisedNet q;
    if (!netfile_read(&q, o->init, error, esize))
        return false;
    bool fits = q.hidden == o->hidden && q.screlu == !o->crelu;
    if (!fits)
        snprintf(error, esize, "--init %s: its width or activation differs from --hidden/--crelu", o->init);
    else if (q.buckets != 1 && q.buckets != o->output_buckets) {
        snprintf(error, esize, "--init %s: %d output buckets, not 1 or --output-buckets", o->init, q.buckets);
        fits = false;
    } else if (!king_buckets_fit(&q.kings, &o->kings)) {
        snprintf(error, esize, "--init %s: %d king buckets, not 1 or the layout of --king-buckets", o->init,
                 q.kings.count);
        fits = false;
    }
    bool ok = fits && netfile_dequantise(&q, o->output_buckets, &o->kings, start);
    netfile_free(&q);
    return ok;
}

/* The float network's weights quantised, each output bucket's bias moved
 * by the mean rounding error over its held-out records (unless told not
 * to; a bucket without one keeps its bias, as model.correct_output_bias()),
 * written. */
static int write_net(const Options *o, const Trainer *t)
{
    char error[ERROR_SIZE];
    QuantisedNet q;
    Weights rounded;
    /* rounded: the file's weights in the trainer's layout, for its positions */
    if (!netfile_quantise(&t->weights, &t->kings, &q) || !netfile_dequantise(&q, q.buckets, &t->kings, &rounded))
        return failure("out of memory");
    if (!o->no_bias_correction) {
        double bucket_shift[MAX_OUTPUT_BUCKETS];
        size_t bucket_count[MAX_OUTPUT_BUCKETS];
        double shift = trainer_mean_difference(t, &t->weights, &rounded, t->held_out, t->held_out_count,
                                               bucket_shift, bucket_count);
        for (int b = 0; b < q.buckets; b++)
            if (bucket_count[b])
                q.output_bias[b] += (int32_t)rint(bucket_shift[b] * QA * QB);
        say("output bias corrected by %+.2f cp, the mean rounding error over the held-out positions", shift * SCALE);
    }
    weights_free(&rounded);
    bool ok = netfile_write(&q, o->out, error, sizeof error);
    netfile_free(&q);
    if (!ok)
        return failure(error);
    FILE *f = fopen(o->out, "rb");
    long size = f && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (f)
        fclose(f);
    say("wrote %s (%ld bytes)", o->out, size);
    char log_path[4096];
    snprintf(log_path, sizeof log_path, "%s.log", o->out);
    FILE *log = fopen(log_path, "w");
    if (!log || fputs(log_text, log) < 0 || fclose(log) != 0)
        return failure("cannot write the log beside the net");
    return 0;
}

static int train(const Options *o, Trainer *t, const char *records_named)
{
    say("data: %zu positions from %s; %zu for training, %zu held out in whole runs of records",
        t->records->count, records_named, t->training_count, t->held_out_count);
    char schedule[64] = "", buckets[128] = "", lambdas[64] = "";
    if (o->final_lr > 0)
        snprintf(schedule, sizeof schedule, " falling to %g", o->final_lr);
    if (o->output_buckets > 1)
        snprintf(buckets, sizeof buckets, ", %d output buckets by piece count", o->output_buckets);
    if (o->kings.count > 1)
        snprintf(buckets + strlen(buckets), sizeof buckets - strlen(buckets), ", %d king buckets%s", o->kings.count,
                 o->factoriser ? " with a factoriser" : "");
    if (lambda_varies(o))
        snprintf(lambdas, sizeof lambdas, " moving to %g", o->final_lambda);
    say("net: %d -> %d x 2 -> 1, %s%s; K %g, lambda %g%s, lr %g%s, batch %d, seed %llu, bachess-train (C), "
        "%d thread(s), %d slices a batch%s", king_blocks(&o->kings) * INPUTS, o->hidden, o->crelu ? "CReLU" : "SCReLU", buckets, o->k, o->lambda,
        lambdas, o->lr, schedule, o->batch, (unsigned long long)o->seed, o->threads, SHARDS,
        o->mirror ? ", mirrored left to right at random" : "");
    say("epoch 0: held-out loss %.6f", trainer_loss(t, &t->weights, t->held_out, t->held_out_count));
    double started = now();
    for (int epoch = 1; epoch <= o->epochs; epoch++) {
        /* the held-out loss too is the epoch's: against the target it trained for */
        t->loss.lambda = (float)lambda_of(o, epoch);
        double start = now(), cpu_start = cpu_now();
        double trained = trainer_epoch(t, epoch, learning_rate(o, epoch), o->batch);
        double seconds = now() - start, cpu_seconds = cpu_now() - cpu_start;
        double held = trainer_loss(t, &t->weights, t->held_out, t->held_out_count);
        double positions = (double)t->training_count;
        char lambda[48] = "";
        if (lambda_varies(o))
            snprintf(lambda, sizeof lambda, ", lambda %.6f", lambda_of(o, epoch));
        say("epoch %d: training loss %.6f, held-out loss %.6f, %.0f positions/s, %.0f a CPU-second%s", epoch, trained,
            held, positions / (seconds > 1e-9 ? seconds : 1e-9), positions / (cpu_seconds > 1e-9 ? cpu_seconds : 1e-9),
            lambda);
    }
    say("trained in %.1f s", now() - started);
    return write_net(o, t);
}

/* --gradient-check: the width, the record count, the output buckets and
 * the blocks of input weights (int32: the king buckets, and the shared one
 * of a factoriser), then the weights, the outputs and the mean loss of the first
 * --batch records, and that batch's gradient, as float32 in one file; the
 * loss is that of the lambda of epoch --check-epoch. */
static int gradient_check(const Options *o, Trainer *t)
{
    size_t count = t->records->count < (size_t)o->batch ? t->records->count : (size_t)o->batch;
    uint32_t *indices = malloc(count * sizeof *indices);
    float *outputs = malloc(count * sizeof *outputs);
    if (!indices || !outputs)
        return free(indices), free(outputs), failure("out of memory");
    for (size_t i = 0; i < count; i++) {
        Position p;
        indices[i] = (uint32_t)i;
        records_decode(t->records, i, false, &t->kings, &p);
        outputs[i] = model_output(&t->weights, &p);
    }
    t->loss.lambda = (float)lambda_of(o, o->check_epoch);
    float loss = (float)trainer_batch_gradient(t, indices, count);
    FILE *out = fopen(o->gradient_check, "wb");
    int32_t head[4] = { o->hidden, (int32_t)count, o->output_buckets, king_blocks(&o->kings) };
    bool ok = out && fwrite(head, sizeof head, 1, out) == 1
              && fwrite(t->weights.storage, sizeof(float), t->weights.size, out) == t->weights.size
              && fwrite(outputs, sizeof(float), count, out) == count && fwrite(&loss, sizeof loss, 1, out) == 1
              && fwrite(t->shards[0].storage, sizeof(float), t->weights.size, out) == t->weights.size;
    if (out && fclose(out) != 0)
        ok = false;
    free(indices), free(outputs);
    return ok ? 0 : failure("cannot write the gradient check's file");
}

/* --evaluate: the float network of a file's own weights on each record:
 * "index centipawns" a line, the side to move's view. */
static int evaluate(const Options *o, const RecordSet *records)
{
    char error[ERROR_SIZE];
    QuantisedNet q;
    Weights w;
    if (!netfile_read(&q, o->evaluate, error, sizeof error))
        return failure(error);
    KingBuckets kings = q.kings;
    bool ok = netfile_dequantise(&q, q.buckets, &kings, &w);
    netfile_free(&q);
    if (!ok)
        return failure("out of memory");
    for (size_t i = 0; i < records->count; i++) {
        Position p;
        records_decode(records, i, false, &kings, &p);
        printf("%zu %.4f\n", i, model_output(&w, &p) * SCALE);
    }
    weights_free(&w);
    return 0;
}

static const char *USAGE =
    "usage: bachess-train RECORDS... --out NET.nnue [--hidden 32] [--epochs 10] [--batch 16384]\n"
    "       [--lr 0.001] [--final-lr LR] [--lambda 0.5] [--k 400] [--positions N] [--seed 1]\n"
    "       [--crelu] [--mirror] [--threads 1..8] [--init NET.nnue] [--no-bias-correction]\n"
    "       [--output-buckets 1..16] [--final-lambda L] [--king-buckets home4|home8|MAP [--factoriser]]\n"
    "       bachess-train RECORDS... --gradient-check OUT [--check-epoch E] | --evaluate NET.nnue\n"
    "RECORDS are files of 32-byte training records (docs/datagen.md; the store's through\n"
    "scripts/selfplay/store.py records). See docs/nnue.md.\n";

/* Trains, or makes the gradient check, on the records loaded. */
static int run(const Options *o, const RecordSet *records, int argc, char **argv)
{
    char error[ERROR_SIZE];
    say_command(argc, argv);
    Weights start = { 0 };
    if (o->init && !load_start(o, &start, error, sizeof error))
        return failure(error);
    Trainer t;
    NetShape shape = { .hidden = o->hidden, .buckets = o->output_buckets, .kings = o->kings, .screlu = !o->crelu };
    bool ready = trainer_init(&t, records, &shape, o->init ? &start : NULL, (LossShape){ (float)o->lambda, (float)o->k },
                              o->seed, o->threads, o->mirror);
    weights_free(&start);
    if (!ready)
        return failure("out of memory");
    if (o->init)
        say("init: the weights of %s", o->init);
    char named[160];
    snprintf(named, sizeof named, "%d record file(s)", o->record_count);
    int status = o->gradient_check ? gradient_check(o, &t) : train(o, &t, named);
    trainer_free(&t);
    return status;
}

int main(int argc, char **argv)
{
    char error[ERROR_SIZE];
    Options o;
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
        return fputs(USAGE, stdout), 0;
    int status = 2;
    RecordSet records = { 0 };
    if (!options_parse(&o, argc, argv, error, sizeof error))
        fprintf(stderr, "bachess-train: %s\n%s", error, USAGE);
    else if (!records_load(&records, o.records, o.record_count, o.positions, error, sizeof error))
        status = failure(error);
    else
        status = o.evaluate ? evaluate(&o, &records) : run(&o, &records, argc, argv);
    records_free(&records);
    free(o.records);
    free(log_text);
    return status;
}
