/* trainer.c — the training loop (see trainer.h). */
#include "trainer.h"

#include <stdlib.h>
#include <string.h>

#include "parallel.h"
#include "rng.h"

enum { HOLD_OUT_SHARE = 50, HOLD_OUT_RUN = 4096, UPDATE_ALIGN = 16, PREFETCH_AHEAD = 8 };

/* train.py's hold_out_games(): one in HOLD_OUT_SHARE runs of HOLD_OUT_RUN
 * consecutive records (fewer for a tiny set) is held out whole: a game's
 * positions follow one another, and a held-out position between training
 * neighbours of its own game would reward remembering games. */
static bool hold_out(Trainer *t, uint64_t *state)
{
    size_t count = t->records->count, run = count / (4 * HOLD_OUT_SHARE);
    run = run < 1 ? 1 : run > HOLD_OUT_RUN ? HOLD_OUT_RUN : run;
    size_t runs = (count + run - 1) / run, held = runs / HOLD_OUT_SHARE ? runs / HOLD_OUT_SHARE : 1;
    uint32_t *order = malloc(runs * sizeof *order);
    bool *is_held = calloc(runs, sizeof *is_held);
    t->held_out = malloc(count * sizeof(uint32_t));
    t->training = malloc(count * sizeof(uint32_t));
    if (!order || !is_held || !t->held_out || !t->training) {
        free(order), free(is_held);
        return false;
    }
    for (size_t r = 0; r < runs; r++)
        order[r] = (uint32_t)r;
    for (size_t r = 0; r < held; r++) { /* the first `held` of a shuffle */
        size_t pick = r + rng_below(state, runs - r);
        uint32_t swap = order[r];
        order[r] = order[pick], order[pick] = swap;
        is_held[order[r]] = true;
    }
    for (size_t i = 0; i < count; i++) {
        if (is_held[i / run])
            t->held_out[t->held_out_count++] = (uint32_t)i;
        else
            t->training[t->training_count++] = (uint32_t)i;
    }
    free(order), free(is_held);
    return true;
}

/* Random weights; with a factoriser the buckets' own blocks start at zero,
 * so that every bucket starts as the shared block, a plain random net. */
static void start_at_random(Trainer *t, uint64_t seed)
{
    weights_randomise(&t->weights, seed ^ 0x5EEDC0FFEEULL);
    if (t->kings.factoriser)
        memset(t->weights.input_weights, 0, (size_t)t->kings.count * INPUTS * (size_t)t->weights.hidden * sizeof(float));
}

bool trainer_init(Trainer *t, const RecordSet *records, const NetShape *shape, const Weights *start, LossShape loss,
                  uint64_t seed, int threads, bool mirror)
{
    *t = (Trainer){ .records = records, .loss = loss, .seed = seed, .shuffle_state = seed, .threads = threads,
                    .mirror = mirror, .kings = shape->kings };
    int kings = king_blocks(&shape->kings);
    bool ok = weights_alloc(&t->weights, shape->hidden, shape->buckets, kings, shape->screlu)
              && adam_alloc(&t->adam, &t->weights);
    for (int s = 0; ok && s < SHARDS; s++)
        ok = weights_alloc(&t->shards[s], shape->hidden, shape->buckets, kings, shape->screlu);
    ok = ok && hold_out(t, &t->shuffle_state);
    if (!ok) {
        trainer_free(t);
        return false;
    }
    if (start)
        memcpy(t->weights.storage, start->storage, t->weights.size * sizeof(float));
    else
        start_at_random(t, seed);
    return true;
}

void trainer_free(Trainer *t)
{
    weights_free(&t->weights);
    for (int s = 0; s < SHARDS; s++)
        weights_free(&t->shards[s]);
    adam_free(&t->adam);
    free(t->held_out);
    free(t->training);
    *t = (Trainer){ 0 };
}

/* What the threads of one pass share: the records of the pass, and each
 * slice's result. */
typedef struct {
    Trainer *trainer;
    const Weights *weights, *other; /* other: the second net of a difference */
    const uint32_t *indices;
    size_t count, first_draw;       /* first_draw: the batch's place in the epoch (--mirror's coin) */
    int epoch;
    bool backward, mirror;
    double sums[SHARDS];
    /* a difference's sums and counts by a's output bucket */
    double bucket_sums[SHARDS][MAX_OUTPUT_BUCKETS];
    size_t bucket_counts[SHARDS][MAX_OUTPUT_BUCKETS];
    AdamStep step;
} Pass;

static void shard_range(size_t count, int shard, size_t *begin, size_t *end)
{
    *begin = count * (size_t)shard / SHARDS;
    *end = count * (size_t)(shard + 1) / SHARDS;
}

/* Slices index, index + threads, ...: the loss (and gradient) of their records. */
static void pass_task(void *context, int index, int threads)
{
    Pass *p = context;
    const Trainer *t = p->trainer;
    Position position;
    for (int s = index; s < SHARDS; s += threads) {
        size_t begin, end;
        shard_range(p->count, s, &begin, &end);
        double sum = 0;
        for (size_t i = begin; i < end; i++) {
            if (i + PREFETCH_AHEAD < end) /* the records are read in random order: fetch ahead */
                __builtin_prefetch(t->records->bytes + (size_t)p->indices[i + PREFETCH_AHEAD] * RECORD_SIZE);
            bool mirror = p->mirror && rng_coin(t->seed, (uint64_t)p->epoch, p->first_draw + i);
            records_decode(t->records, p->indices[i], mirror, &t->kings, &position);
            if (p->backward)
                sum += model_backward(p->weights, &position, t->loss, (float)p->count, &p->trainer->shards[s]);
            else if (p->other) {
                double difference = (double)model_output(p->weights, &position) - model_output(p->other, &position);
                int bucket = output_bucket(position.count, p->weights->buckets);
                sum += difference;
                p->bucket_sums[s][bucket] += difference;
                p->bucket_counts[s][bucket]++;
            } else
                sum += model_error(p->weights, &position, t->loss);
        }
        p->sums[s] = sum;
    }
}

/* The weights' block cut into one range a thread, on 16-float bounds. */
static void update_task(void *context, int index, int threads)
{
    Pass *p = context;
    Trainer *t = p->trainer;
    size_t size = t->weights.size, per = (size / (size_t)threads + UPDATE_ALIGN) / UPDATE_ALIGN * UPDATE_ALIGN;
    size_t begin = per * (size_t)index, end = begin + per;
    if (begin > size)
        begin = size;
    if (end > size || index == threads - 1)
        end = size;
    adam_update(&t->adam, p->step, &t->weights, t->shards, SHARDS, begin, end);
}

static double sum_of(const Pass *p)
{
    double total = 0;
    for (int s = 0; s < SHARDS; s++)
        total += p->sums[s];
    return total;
}

static double run_pass(Trainer *t, Pass *p)
{
    p->trainer = t;
    parallel_run(pass_task, p, t->threads);
    return sum_of(p);
}

double trainer_epoch(Trainer *t, int epoch, double lr, int batch)
{
    for (size_t i = t->training_count; i > 1; i--) { /* shuffled afresh: never game order */
        size_t pick = rng_below(&t->shuffle_state, i);
        uint32_t swap = t->training[i - 1];
        t->training[i - 1] = t->training[pick], t->training[pick] = swap;
    }
    double total = 0;
    for (size_t at = 0; at < t->training_count; at += (size_t)batch) {
        size_t count = t->training_count - at < (size_t)batch ? t->training_count - at : (size_t)batch;
        Pass p = { .weights = &t->weights, .indices = t->training + at, .count = count, .first_draw = at,
                   .epoch = epoch, .backward = true, .mirror = t->mirror };
        total += run_pass(t, &p);
        p.step = adam_begin_step(&t->adam, lr);
        parallel_run(update_task, &p, t->threads);
    }
    return t->training_count ? total / (double)t->training_count : 0.0;
}

double trainer_loss(const Trainer *t, const Weights *weights, const uint32_t *indices, size_t count)
{
    Pass p = { .weights = weights, .indices = indices, .count = count };
    return count ? run_pass((Trainer *)t, &p) / (double)count : 0.0;
}

double trainer_mean_difference(const Trainer *t, const Weights *a, const Weights *b, const uint32_t *indices,
                               size_t count, double *bucket_mean, size_t *bucket_count)
{
    Pass p = { .weights = a, .other = b, .indices = indices, .count = count };
    double total = count ? run_pass((Trainer *)t, &p) : 0.0;
    for (int k = 0; k < a->buckets; k++) { /* the slices in order, as sum_of() */
        double sum = 0;
        bucket_count[k] = 0;
        for (int s = 0; s < SHARDS; s++)
            sum += p.bucket_sums[s][k], bucket_count[k] += p.bucket_counts[s][k];
        bucket_mean[k] = bucket_count[k] ? sum / (double)bucket_count[k] : 0.0;
    }
    return count ? total / (double)count : 0.0;
}

double trainer_batch_gradient(Trainer *t, const uint32_t *indices, size_t count)
{
    Pass p = { .weights = &t->weights, .indices = indices, .count = count, .backward = true };
    double loss = run_pass(t, &p) / (double)count;
    for (int s = 1; s < SHARDS; s++)
        for (size_t j = 0; j < t->weights.size; j++) {
            t->shards[0].storage[j] += t->shards[s].storage[j];
            t->shards[s].storage[j] = 0.0f;
        }
    return loss;
}
