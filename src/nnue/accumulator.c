/* accumulator.c — NNUE accumulators: refresh, update, output (see accumulator.h). */
#include "nnue/accumulator.h"

#include <limits.h>
#include <string.h>

#if defined(__AVX2__)
#include <immintrin.h>
#elif defined(__ARM_NEON)
#include <arm_neon.h>
#endif

/* ---- portable code: the reference ---------------------------------------- */

/* int16 arithmetic that wraps, as the vector instructions do. */
static inline int16_t wrap16(int v) { return (int16_t)(uint16_t)(unsigned)v; }

static void add_portable(int16_t *values, const int16_t *weights, int n)
{
    for (int i = 0; i < n; i++)
        values[i] = wrap16(values[i] + weights[i]);
}

static void sub_portable(int16_t *values, const int16_t *weights, int n)
{
    for (int i = 0; i < n; i++)
        values[i] = wrap16(values[i] - weights[i]);
}

typedef void (*VectorStep)(int16_t *values, const int16_t *weights, int n);

/* The input weights a move's changes add and take away, for one perspective. */
typedef struct {
    const int16_t *added[MAX_PIECE_CHANGES], *removed[MAX_PIECE_CHANGES];
    int added_count, removed_count;
} FeatureDelta;

/* values_to = values_from + the delta, over n values. */
typedef void (*DeltaStep)(int16_t *values_to, const int16_t *values_from, const FeatureDelta *delta, int n);

/* values_to = values_from + the `added` weights - the `removed` ones, one
 * feature at a time: the reference, and the sums of builds without AVX2
 * or NEON (ARCH=x86-64, -v2). Each list holds at most `capacity`: a
 * constant that, for a move's four, lets the compiler unroll the loops
 * over them and keep their pointers in registers (the update's speed). */
static inline void add_sub_portable(int16_t *values_to, const int16_t *values_from, const int16_t *const *added,
                                    int added_count, const int16_t *const *removed, int removed_count,
                                    int capacity, int n)
{
    memcpy(values_to, values_from, sizeof(int16_t) * (size_t)n);
    for (int k = 0; k < added_count && k < capacity; k++)
        add_portable(values_to, added[k], n);
    for (int k = 0; k < removed_count && k < capacity; k++)
        sub_portable(values_to, removed[k], n);
}

static void apply_delta_portable(int16_t *values_to, const int16_t *values_from, const FeatureDelta *delta, int n)
{
    add_sub_portable(values_to, values_from, delta->added, delta->added_count, delta->removed, delta->removed_count,
                     MAX_PIECE_CHANGES, n);
}

void accumulator_apply_features_portable(int16_t *values_to, const int16_t *values_from, const FeatureList *added,
                                         const FeatureList *removed, int n)
{
    add_sub_portable(values_to, values_from, added->weights, added->count, removed->weights, removed->count,
                     SQUARE_NB, n);
}

/* One perspective of `to` = the same of `from` with to's changes. */
static void update_with(Accumulator *to, const Accumulator *from, const Network *net, Color c, DeltaStep apply)
{
    FeatureDelta delta = { .added_count = 0, .removed_count = 0 };
    NnueView view = to->view[c] = from->view[c];
    const int16_t *weights = nnue_view_input_weights(net, view);
    for (int i = 0; i < to->change_count; i++) {
        const PieceChange *change = &to->changes[i];
        int feature = nnue_bucket_feature(c, change->piece, change->square, view);
        const int16_t *w = nnue_feature_weights(net, weights, feature);
        if (change->added)
            delta.added[delta.added_count++] = w;
        else
            delta.removed[delta.removed_count++] = w;
    }
    apply(to->values[c], from->values[c], &delta, net->hidden);
    to->computed[c] = true;
}

static void refresh_with(Accumulator *a, const Network *net, const Board *b, Color c, VectorStep add)
{
    NnueView view = a->view[c] = nnue_view(net, c, board_king(b, c));
    const int16_t *weights = nnue_view_input_weights(net, view);
    memcpy(a->values[c], net->input_bias, sizeof(int16_t) * (size_t)net->hidden);
    for (Bitboard occupied = board_occupied(b); occupied;) {
        Square s = pop_lsb(&occupied);
        int feature = nnue_bucket_feature(c, board_piece_on(b, s), s, view);
        add(a->values[c], nnue_feature_weights(net, weights, feature), net->hidden);
    }
    a->computed[c] = true;
}

bool accumulator_keeps_view(const Accumulator *to, const Network *net, Color perspective)
{
    Piece king = make_piece(perspective, KING);
    int from = -1, to_square = -1; /* the squares the king left and went to, if it moved */
    for (int i = 0; i < to->change_count; i++)
        if (to->changes[i].piece == king)
            *(to->changes[i].added ? &to_square : &from) = to->changes[i].square;
    if (from < 0 && to_square < 0)
        return true;
    return from >= 0 && to_square >= 0
        && nnue_same_view(nnue_view(net, perspective, (Square)from), nnue_view(net, perspective, (Square)to_square));
}

void accumulator_refresh_portable(Accumulator *a, const Network *net, const Board *b)
{
    for (Color c = WHITE; c <= BLACK; c++)
        refresh_with(a, net, b, c, add_portable);
}

void accumulator_update_perspective_portable(Accumulator *to, const Accumulator *from, const Network *net,
                                             Color perspective)
{
    update_with(to, from, net, perspective, apply_delta_portable);
}

/* Sum over one perspective of activation(x) x weight, wrapping in int32 as
 * the vector code does. */
static int32_t dot_portable(const int16_t *values, const int16_t *weights, const Network *net)
{
    uint32_t sum = 0;
    for (int i = 0; i < net->hidden; i++) {
        int x = values[i] < 0 ? 0 : values[i] > net->qa ? net->qa : values[i];
        int product = x * weights[i]; /* fits int16: |w| <= 127, x <= 255 */
        sum += (uint32_t)(net->activation == ACTIVATION_SCRELU ? product * x : product);
    }
    return (int32_t)sum;
}

/* Saturated into an int: a network file may hold any weights in range,
 * and some make values no real position gives (the evaluator holds them
 * below the decisive scores). */
static int scale_output(int64_t sum, const Network *net, int bucket)
{
    /* The trainer's quantisation (scripts/nnue/model.py), which every net so
     * far has: divisions by constants compile to multiplications, where the
     * two divisions by a file's values took a third of the output's time.
     * Both paths truncate alike. */
    enum { TRAINER_QA = 255, TRAINER_QB = 64 };
    bool trainer_quantisation = net->qa == TRAINER_QA && net->qb == TRAINER_QB;
    if (net->activation == ACTIVATION_SCRELU) /* x^2 carries QA twice: one goes here */
        sum = trainer_quantisation ? sum / TRAINER_QA : sum / net->qa;
    int64_t scaled = (sum + net->output_bias[bucket]) * net->scale;
    int64_t value = trainer_quantisation ? scaled / (TRAINER_QA * TRAINER_QB) : scaled / ((int64_t)net->qa * net->qb);
    return value > INT_MAX ? INT_MAX : value < -INT_MAX ? -INT_MAX : (int)value;
}

/* The output weights of a bucket: the side to move's half, then the other's. */
static const int16_t *bucket_weights(const Network *net, int bucket)
{
    return net->output_weights + (size_t)bucket * 2 * (size_t)net->hidden;
}

int accumulator_output_portable(const Accumulator *a, const Network *net, Color us, int bucket)
{
    const int16_t *w = bucket_weights(net, bucket);
    int32_t sum = (int32_t)((uint32_t)dot_portable(a->values[us], w, net)
                            + (uint32_t)dot_portable(a->values[color_flip(us)], w + net->hidden, net));
    return scale_output(sum, net, bucket);
}

/* ---- AVX2 ------------------------------------------------------------------ */
#if defined(__AVX2__)

static void add_avx2(int16_t *values, const int16_t *weights, int n)
{
    for (int i = 0; i < n; i += 16) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(values + i));
        __m256i w = _mm256_loadu_si256((const __m256i *)(weights + i));
        _mm256_storeu_si256((__m256i *)(values + i), _mm256_add_epi16(v, w));
    }
}

static int32_t dot_avx2(const int16_t *values, const int16_t *weights, const Network *net)
{
    __m256i zero = _mm256_setzero_si256(), qa = _mm256_set1_epi16((int16_t)net->qa), sum = zero;
    for (int i = 0; i < net->hidden; i += 16) {
        __m256i x = _mm256_min_epi16(_mm256_max_epi16(_mm256_loadu_si256((const __m256i *)(values + i)), zero), qa);
        __m256i w = _mm256_loadu_si256((const __m256i *)(weights + i));
        /* x * w fits int16; SCReLU multiplies by x once more in the madd. */
        __m256i terms = net->activation == ACTIVATION_SCRELU ? _mm256_madd_epi16(_mm256_mullo_epi16(x, w), x)
                                                             : _mm256_madd_epi16(x, w);
        sum = _mm256_add_epi32(sum, terms);
    }
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
}

/* Every feature sixteen values at a time, in registers: one load of the
 * values below, one store, instead of a copy and a pass per feature. The
 * order of the sums does not matter: int16 wraps the same either way. */
static inline void add_sub_avx2(int16_t *values_to, const int16_t *values_from, const int16_t *const *added,
                                int added_count, const int16_t *const *removed, int removed_count,
                                int capacity, int n)
{
    for (int i = 0; i < n; i += 16) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(values_from + i));
        for (int k = 0; k < added_count && k < capacity; k++)
            v = _mm256_add_epi16(v, _mm256_loadu_si256((const __m256i *)(added[k] + i)));
        for (int k = 0; k < removed_count && k < capacity; k++)
            v = _mm256_sub_epi16(v, _mm256_loadu_si256((const __m256i *)(removed[k] + i)));
        _mm256_storeu_si256((__m256i *)(values_to + i), v);
    }
}

/* A move's changes come in two shapes nearly always: one feature added and
 * one taken (a quiet move), or one added and two taken (a capture). Each
 * has its own pass with no loop over the features inside the loop over the
 * values; the loop control of add_sub_avx2() cost more instructions than
 * the sums themselves. */
static void add1_sub1_avx2(int16_t *values_to, const int16_t *values_from, const int16_t *added,
                           const int16_t *removed, int n)
{
    for (int i = 0; i < n; i += 16) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(values_from + i));
        v = _mm256_add_epi16(v, _mm256_loadu_si256((const __m256i *)(added + i)));
        v = _mm256_sub_epi16(v, _mm256_loadu_si256((const __m256i *)(removed + i)));
        _mm256_storeu_si256((__m256i *)(values_to + i), v);
    }
}

static void add1_sub2_avx2(int16_t *values_to, const int16_t *values_from, const int16_t *added,
                           const int16_t *removed_1, const int16_t *removed_2, int n)
{
    for (int i = 0; i < n; i += 16) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(values_from + i));
        v = _mm256_add_epi16(v, _mm256_loadu_si256((const __m256i *)(added + i)));
        v = _mm256_sub_epi16(v, _mm256_loadu_si256((const __m256i *)(removed_1 + i)));
        v = _mm256_sub_epi16(v, _mm256_loadu_si256((const __m256i *)(removed_2 + i)));
        _mm256_storeu_si256((__m256i *)(values_to + i), v);
    }
}

static void apply_move_avx2(int16_t *values_to, const int16_t *values_from, const int16_t *const *added,
                            int added_count, const int16_t *const *removed, int removed_count, int capacity, int n)
{
    if (added_count == 1 && removed_count == 1)
        add1_sub1_avx2(values_to, values_from, added[0], removed[0], n);
    else if (added_count == 1 && removed_count == 2)
        add1_sub2_avx2(values_to, values_from, added[0], removed[0], removed[1], n);
    else
        add_sub_avx2(values_to, values_from, added, added_count, removed, removed_count, capacity, n);
}

static const VectorStep ADD = add_avx2;
#define ADD_SUB add_sub_avx2
#define APPLY_MOVE apply_move_avx2

int accumulator_output(const Accumulator *a, const Network *net, Color us, int bucket)
{
    const int16_t *w = bucket_weights(net, bucket);
    int32_t sum = (int32_t)((uint32_t)dot_avx2(a->values[us], w, net)
                            + (uint32_t)dot_avx2(a->values[color_flip(us)], w + net->hidden, net));
    return scale_output(sum, net, bucket);
}

const char *accumulator_vector_code(void) { return "AVX2"; }

/* ---- NEON (aarch64) ---------------------------------------------------------- */
#elif defined(__ARM_NEON)

static void add_neon(int16_t *values, const int16_t *weights, int n)
{
    for (int i = 0; i < n; i += 8)
        vst1q_s16(values + i, vaddq_s16(vld1q_s16(values + i), vld1q_s16(weights + i)));
}

/* As dot_avx2, eight values at a time: the multiply-accumulate into int32
 * wraps as the portable sum does. */
static int32_t dot_neon(const int16_t *values, const int16_t *weights, const Network *net)
{
    int16x8_t zero = vdupq_n_s16(0), qa = vdupq_n_s16((int16_t)net->qa);
    int32x4_t sum = vdupq_n_s32(0);
    for (int i = 0; i < net->hidden; i += 8) {
        int16x8_t x = vminq_s16(vmaxq_s16(vld1q_s16(values + i), zero), qa);
        int16x8_t w = vld1q_s16(weights + i);
        /* x * w fits int16; SCReLU multiplies by x once more in the accumulate. */
        int16x8_t factor = net->activation == ACTIVATION_SCRELU ? vmulq_s16(x, w) : w;
        sum = vmlal_s16(sum, vget_low_s16(factor), vget_low_s16(x));
        sum = vmlal_high_s16(sum, factor, x);
    }
    return vaddvq_s32(sum);
}

static inline void add_sub_neon(int16_t *values_to, const int16_t *values_from, const int16_t *const *added,
                                int added_count, const int16_t *const *removed, int removed_count,
                                int capacity, int n)
{
    for (int i = 0; i < n; i += 8) {
        int16x8_t v = vld1q_s16(values_from + i);
        for (int k = 0; k < added_count && k < capacity; k++)
            v = vaddq_s16(v, vld1q_s16(added[k] + i));
        for (int k = 0; k < removed_count && k < capacity; k++)
            v = vsubq_s16(v, vld1q_s16(removed[k] + i));
        vst1q_s16(values_to + i, v);
    }
}

static const VectorStep ADD = add_neon;
#define ADD_SUB add_sub_neon
#define APPLY_MOVE add_sub_neon

int accumulator_output(const Accumulator *a, const Network *net, Color us, int bucket)
{
    const int16_t *w = bucket_weights(net, bucket);
    int32_t sum = (int32_t)((uint32_t)dot_neon(a->values[us], w, net)
                            + (uint32_t)dot_neon(a->values[color_flip(us)], w + net->hidden, net));
    return scale_output(sum, net, bucket);
}

const char *accumulator_vector_code(void) { return "NEON"; }

#else

static const VectorStep ADD = add_portable;
#define ADD_SUB add_sub_portable
#define APPLY_MOVE add_sub_portable
int accumulator_output(const Accumulator *a, const Network *net, Color us, int bucket)
{
    return accumulator_output_portable(a, net, us, bucket);
}
const char *accumulator_vector_code(void) { return "none"; }

#endif

/* ---- the build's choice: vector code where there is some ------------------ */

/* This build's kernels: for a move's changes (APPLY_MOVE: with AVX2 the
 * common shapes on their own), and for the differences of a refresh from a
 * cached accumulator (ADD_SUB). Each list has a constant bound: for a
 * move's four the compiler unrolls the loops. */
static void apply_delta(int16_t *values_to, const int16_t *values_from, const FeatureDelta *delta, int n)
{
    APPLY_MOVE(values_to, values_from, delta->added, delta->added_count, delta->removed, delta->removed_count,
            MAX_PIECE_CHANGES, n);
}

void accumulator_apply_features(int16_t *values_to, const int16_t *values_from, const FeatureList *added,
                                const FeatureList *removed, int n)
{
    ADD_SUB(values_to, values_from, added->weights, added->count, removed->weights, removed->count, SQUARE_NB, n);
}

void accumulator_refresh_perspective(Accumulator *a, const Network *net, const Board *b, Color perspective)
{
    refresh_with(a, net, b, perspective, ADD);
}

void accumulator_refresh(Accumulator *a, const Network *net, const Board *b)
{
    for (Color c = WHITE; c <= BLACK; c++)
        refresh_with(a, net, b, c, ADD);
}

void accumulator_update_perspective(Accumulator *to, const Accumulator *from, const Network *net, Color perspective)
{
    update_with(to, from, net, perspective, apply_delta);
}
