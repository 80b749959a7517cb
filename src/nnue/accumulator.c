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

/* The input weights to's recorded changes add and take for one
 * perspective, in the view of the ply below (which to's takes). Filled in
 * place: returned by value, the counts were read back from memory, and
 * every update took about a fifth longer. */
static inline void move_delta(FeatureDelta *delta, Accumulator *to, const Accumulator *from, const Network *net,
                              Color c)
{
    delta->added_count = delta->removed_count = 0;
    NnueView view = to->view[c] = from->view[c];
    const int16_t *weights = nnue_view_input_weights(net, view);
    for (int i = 0; i < to->change_count; i++) {
        const PieceChange *change = &to->changes[i];
        int feature = nnue_bucket_feature(c, change->piece, change->square, view);
        const int16_t *w = nnue_feature_weights(net, weights, feature);
        if (change->added)
            delta->added[delta->added_count++] = w;
        else
            delta->removed[delta->removed_count++] = w;
    }
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
    FeatureDelta delta;
    move_delta(&delta, to, from, net, perspective);
    apply_delta_portable(to->values[perspective], from->values[perspective], &delta, net->hidden);
    to->computed[perspective] = true;
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

/* ---- AVX2, and AVX-512 where the build has it ------------------------------ */
#if defined(__AVX2__)

/* The AVX2 kernels work on the values from `begin` to n: all of them in an
 * AVX2 build; in an AVX-512 one only the last sixteen of an N that is not a
 * multiple of 32 (N is one of 16). */

static inline __m256i load256(const int16_t *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline void store256(int16_t *p, __m256i v) { _mm256_storeu_si256((__m256i *)p, v); }

static void add_avx2(int16_t *values, const int16_t *weights, int begin, int n)
{
    for (int i = begin; i < n; i += 16)
        store256(values + i, _mm256_add_epi16(load256(values + i), load256(weights + i)));
}

/* sum + activation(v) x w, in int32 pairs. x * w fits int16; SCReLU
 * multiplies by x once more in the madd. The int32 sums wrap, so the order
 * of the additions does not matter. */
static inline __m256i activated_dot_avx2(__m256i sum, __m256i v, __m256i w, __m256i limit, bool screlu)
{
    __m256i x = _mm256_min_epi16(_mm256_max_epi16(v, _mm256_setzero_si256()), limit);
    return _mm256_add_epi32(sum, screlu ? _mm256_madd_epi16(_mm256_mullo_epi16(x, w), x) : _mm256_madd_epi16(x, w));
}

static inline __m256i dot_avx2(__m256i sum, const int16_t *values, const int16_t *weights, int begin, int n,
                               __m256i limit, bool screlu)
{
    for (int i = begin; i < n; i += 16)
        sum = activated_dot_avx2(sum, load256(values + i), load256(weights + i), limit, screlu);
    return sum;
}

static inline int32_t sum_avx2(__m256i sum)
{
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
                                int capacity, int begin, int n)
{
    for (int i = begin; i < n; i += 16) {
        __m256i v = load256(values_from + i);
        for (int k = 0; k < added_count && k < capacity; k++)
            v = _mm256_add_epi16(v, load256(added[k] + i));
        for (int k = 0; k < removed_count && k < capacity; k++)
            v = _mm256_sub_epi16(v, load256(removed[k] + i));
        store256(values_to + i, v);
    }
}

/* A move's changes come in two shapes nearly always: one feature added and
 * one taken (a quiet move), or one added and two taken (a capture). Each
 * has its own pass with no loop over the features inside the loop over the
 * values; the loop control of add_sub_avx2() cost more instructions than
 * the sums themselves. The evaluation's last step also takes the output's
 * sum over the new values while they are in registers (update_dot_avx2):
 * reading them back from memory just after storing them cost more than
 * the sums. */
static inline __m256i update_dot_avx2(__m256i sum, int16_t *to, const int16_t *from, const FeatureDelta *d,
                                      const int16_t *w, int begin, int n, __m256i limit, bool screlu)
{
    if (d->added_count == 1 && d->removed_count == 1) {
        const int16_t *added = d->added[0], *removed = d->removed[0];
        for (int i = begin; i < n; i += 16) {
            __m256i v = _mm256_sub_epi16(_mm256_add_epi16(load256(from + i), load256(added + i)), load256(removed + i));
            store256(to + i, v);
            sum = activated_dot_avx2(sum, v, load256(w + i), limit, screlu);
        }
    } else if (d->added_count == 1 && d->removed_count == 2) {
        const int16_t *added = d->added[0], *removed_1 = d->removed[0], *removed_2 = d->removed[1];
        for (int i = begin; i < n; i += 16) {
            __m256i v = _mm256_add_epi16(load256(from + i), load256(added + i));
            v = _mm256_sub_epi16(_mm256_sub_epi16(v, load256(removed_1 + i)), load256(removed_2 + i));
            store256(to + i, v);
            sum = activated_dot_avx2(sum, v, load256(w + i), limit, screlu);
        }
    } else {
        add_sub_avx2(to, from, d->added, d->added_count, d->removed, d->removed_count, MAX_PIECE_CHANGES, begin, n);
        sum = dot_avx2(sum, to, w, begin, n, limit, screlu);
    }
    return sum;
}

/* The same without the sum, for the steps below the evaluated ply. */
static inline void update_avx2(int16_t *to, const int16_t *from, const FeatureDelta *d, int begin, int n)
{
    if (d->added_count == 1 && d->removed_count == 1)
        for (int i = begin; i < n; i += 16)
            store256(to + i, _mm256_sub_epi16(_mm256_add_epi16(load256(from + i), load256(d->added[0] + i)),
                                              load256(d->removed[0] + i)));
    else if (d->added_count == 1 && d->removed_count == 2)
        for (int i = begin; i < n; i += 16) {
            __m256i v = _mm256_add_epi16(load256(from + i), load256(d->added[0] + i));
            store256(to + i, _mm256_sub_epi16(_mm256_sub_epi16(v, load256(d->removed[0] + i)), load256(d->removed[1] + i)));
        }
    else
        add_sub_avx2(to, from, d->added, d->added_count, d->removed, d->removed_count, MAX_PIECE_CHANGES, begin, n);
}

#if defined(__AVX512BW__)
/* AVX-512: thirty-two values a register, half the instructions of AVX2 for
 * the same sums. Each kernel leaves a last sixteen, when N has them, to
 * its AVX2 twin. */

static inline __m512i load512(const int16_t *p) { return _mm512_loadu_si512((const void *)p); }
static inline void store512(int16_t *p, __m512i v) { _mm512_storeu_si512((void *)p, v); }

/* Where the AVX2 tail of an N begins: past the last whole 32. */
static inline int wide_end(int n) { return n & ~31; }

static void add_avx512(int16_t *values, const int16_t *weights, int n)
{
    int wide = wide_end(n);
    for (int i = 0; i < wide; i += 32)
        store512(values + i, _mm512_add_epi16(load512(values + i), load512(weights + i)));
    add_avx2(values, weights, wide, n);
}

/* As activated_dot_avx2(): with VNNI the multiply and the sum are one
 * instruction. */
static inline __m512i activated_dot_avx512(__m512i sum, __m512i v, __m512i w, __m512i limit, bool screlu)
{
    __m512i x = _mm512_min_epi16(_mm512_max_epi16(v, _mm512_setzero_si512()), limit);
    __m512i factor = screlu ? _mm512_mullo_epi16(x, w) : w;
#if defined(__AVX512VNNI__)
    return _mm512_dpwssd_epi32(sum, factor, x);
#else
    return _mm512_add_epi32(sum, _mm512_madd_epi16(factor, x));
#endif
}

static inline void add_sub_avx512(int16_t *values_to, const int16_t *values_from, const int16_t *const *added,
                                  int added_count, const int16_t *const *removed, int removed_count, int capacity,
                                  int n)
{
    int wide = wide_end(n);
    for (int i = 0; i < wide; i += 32) {
        __m512i v = load512(values_from + i);
        for (int k = 0; k < added_count && k < capacity; k++)
            v = _mm512_add_epi16(v, load512(added[k] + i));
        for (int k = 0; k < removed_count && k < capacity; k++)
            v = _mm512_sub_epi16(v, load512(removed[k] + i));
        store512(values_to + i, v);
    }
    add_sub_avx2(values_to, values_from, added, added_count, removed, removed_count, capacity, wide, n);
}

static inline int32_t dot_avx512(const int16_t *values, const int16_t *weights, const Network *net, bool screlu)
{
    int n = net->hidden, wide = wide_end(n);
    __m512i sum = _mm512_setzero_si512(), limit = _mm512_set1_epi16((int16_t)net->qa);
    for (int i = 0; i < wide; i += 32)
        sum = activated_dot_avx512(sum, load512(values + i), load512(weights + i), limit, screlu);
    __m256i tail = dot_avx2(_mm256_setzero_si256(), values, weights, wide, n, _mm256_set1_epi16((int16_t)net->qa), screlu);
    return (int32_t)((uint32_t)_mm512_reduce_add_epi32(sum) + (uint32_t)sum_avx2(tail));
}

static inline int32_t update_dot_avx512(int16_t *to, const int16_t *from, const FeatureDelta *d, const int16_t *w,
                                        const Network *net, bool screlu)
{
    int n = net->hidden, wide = wide_end(n);
    __m512i sum = _mm512_setzero_si512(), limit = _mm512_set1_epi16((int16_t)net->qa);
    if (d->added_count == 1 && d->removed_count == 1) {
        const int16_t *added = d->added[0], *removed = d->removed[0];
        for (int i = 0; i < wide; i += 32) {
            __m512i v = _mm512_sub_epi16(_mm512_add_epi16(load512(from + i), load512(added + i)), load512(removed + i));
            store512(to + i, v);
            sum = activated_dot_avx512(sum, v, load512(w + i), limit, screlu);
        }
    } else if (d->added_count == 1 && d->removed_count == 2) {
        const int16_t *added = d->added[0], *removed_1 = d->removed[0], *removed_2 = d->removed[1];
        for (int i = 0; i < wide; i += 32) {
            __m512i v = _mm512_add_epi16(load512(from + i), load512(added + i));
            v = _mm512_sub_epi16(_mm512_sub_epi16(v, load512(removed_1 + i)), load512(removed_2 + i));
            store512(to + i, v);
            sum = activated_dot_avx512(sum, v, load512(w + i), limit, screlu);
        }
    } else {
        add_sub_avx512(to, from, d->added, d->added_count, d->removed, d->removed_count, MAX_PIECE_CHANGES, wide);
        for (int i = 0; i < wide; i += 32)
            sum = activated_dot_avx512(sum, load512(to + i), load512(w + i), limit, screlu);
    }
    __m256i tail = update_dot_avx2(_mm256_setzero_si256(), to, from, d, w, wide, n,
                                   _mm256_set1_epi16((int16_t)net->qa), screlu);
    return (int32_t)((uint32_t)_mm512_reduce_add_epi32(sum) + (uint32_t)sum_avx2(tail));
}

static void apply_move_avx512(int16_t *to, const int16_t *from, const FeatureDelta *d, int n)
{
    int wide = wide_end(n);
    if (d->added_count == 1 && d->removed_count == 1)
        for (int i = 0; i < wide; i += 32)
            store512(to + i, _mm512_sub_epi16(_mm512_add_epi16(load512(from + i), load512(d->added[0] + i)),
                                              load512(d->removed[0] + i)));
    else if (d->added_count == 1 && d->removed_count == 2)
        for (int i = 0; i < wide; i += 32) {
            __m512i v = _mm512_add_epi16(load512(from + i), load512(d->added[0] + i));
            store512(to + i, _mm512_sub_epi16(_mm512_sub_epi16(v, load512(d->removed[0] + i)), load512(d->removed[1] + i)));
        }
    else
        add_sub_avx512(to, from, d->added, d->added_count, d->removed, d->removed_count, MAX_PIECE_CHANGES, wide);
    update_avx2(to, from, d, wide, n);
}

static inline int32_t half_dot(const int16_t *values, const int16_t *weights, const Network *net)
{
    return net->activation == ACTIVATION_SCRELU ? dot_avx512(values, weights, net, true)
                                                : dot_avx512(values, weights, net, false);
}

static inline int32_t update_dot(int16_t *to, const int16_t *from, const FeatureDelta *d, const int16_t *w, const Network *net)
{
    return net->activation == ACTIVATION_SCRELU ? update_dot_avx512(to, from, d, w, net, true)
                                                : update_dot_avx512(to, from, d, w, net, false);
}

static const VectorStep ADD = add_avx512;
#define ADD_SUB add_sub_avx512
#define APPLY_MOVE apply_move_avx512
#define HALF_DOT half_dot
#define UPDATE_DOT update_dot

const char *accumulator_vector_code(void) { return "AVX-512"; }

#else /* AVX2 only */

static void add_all_avx2(int16_t *values, const int16_t *weights, int n) { add_avx2(values, weights, 0, n); }

static inline void add_sub_all_avx2(int16_t *values_to, const int16_t *values_from, const int16_t *const *added,
                                    int added_count, const int16_t *const *removed, int removed_count, int capacity,
                                    int n)
{
    add_sub_avx2(values_to, values_from, added, added_count, removed, removed_count, capacity, 0, n);
}

static void apply_move_avx2(int16_t *to, const int16_t *from, const FeatureDelta *d, int n)
{
    update_avx2(to, from, d, 0, n);
}

static inline int32_t half_dot(const int16_t *values, const int16_t *weights, const Network *net)
{
    __m256i limit = _mm256_set1_epi16((int16_t)net->qa), zero = _mm256_setzero_si256();
    return sum_avx2(net->activation == ACTIVATION_SCRELU ? dot_avx2(zero, values, weights, 0, net->hidden, limit, true)
                                                         : dot_avx2(zero, values, weights, 0, net->hidden, limit, false));
}

static inline int32_t update_dot(int16_t *to, const int16_t *from, const FeatureDelta *d, const int16_t *w, const Network *net)
{
    __m256i limit = _mm256_set1_epi16((int16_t)net->qa), zero = _mm256_setzero_si256();
    return sum_avx2(net->activation == ACTIVATION_SCRELU ? update_dot_avx2(zero, to, from, d, w, 0, net->hidden, limit, true)
                                                         : update_dot_avx2(zero, to, from, d, w, 0, net->hidden, limit, false));
}

static const VectorStep ADD = add_all_avx2;
#define ADD_SUB add_sub_all_avx2
#define APPLY_MOVE apply_move_avx2
#define HALF_DOT half_dot
#define UPDATE_DOT update_dot

const char *accumulator_vector_code(void) { return "AVX2"; }

#endif

/* ---- NEON (aarch64) ---------------------------------------------------------- */
#elif defined(__ARM_NEON)

static void add_neon(int16_t *values, const int16_t *weights, int n)
{
    for (int i = 0; i < n; i += 8)
        vst1q_s16(values + i, vaddq_s16(vld1q_s16(values + i), vld1q_s16(weights + i)));
}

/* As the AVX2 sum, eight values at a time: the multiply-accumulate into
 * int32 wraps as the portable sum does. */
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

static void apply_move_neon(int16_t *to, const int16_t *from, const FeatureDelta *d, int n)
{
    add_sub_neon(to, from, d->added, d->added_count, d->removed, d->removed_count, MAX_PIECE_CHANGES, n);
}

static const VectorStep ADD = add_neon;
#define ADD_SUB add_sub_neon
#define APPLY_MOVE apply_move_neon
#define HALF_DOT dot_neon

const char *accumulator_vector_code(void) { return "NEON"; }

#else

static const VectorStep ADD = add_portable;
#define ADD_SUB add_sub_portable
#define APPLY_MOVE apply_delta_portable
#define HALF_DOT dot_portable

const char *accumulator_vector_code(void) { return "none"; }

#endif

/* ---- the build's choice: vector code where there is some ------------------ */

/* This build's kernels: for a move's changes (APPLY_MOVE: with AVX2 the
 * common shapes on their own), for the differences of a refresh from a
 * cached accumulator (ADD_SUB), for one perspective's half of the output
 * (HALF_DOT), and for a move's changes and that half at once (UPDATE_DOT,
 * where there is a fused kernel; elsewhere one after the other). Each
 * list has a constant bound: for a move's four the compiler unrolls the
 * loops. */
#ifndef UPDATE_DOT
static int32_t update_then_dot(int16_t *to, const int16_t *from, const FeatureDelta *d, const int16_t *w,
                               const Network *net)
{
    APPLY_MOVE(to, from, d, net->hidden);
    return HALF_DOT(to, w, net);
}
#define UPDATE_DOT update_then_dot
#endif

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
    FeatureDelta delta;
    move_delta(&delta, to, from, net, perspective);
    APPLY_MOVE(to->values[perspective], from->values[perspective], &delta, net->hidden);
    to->computed[perspective] = true;
}

int32_t accumulator_perspective_sum(const Accumulator *a, const Network *net, Color perspective,
                                    const int16_t *weights)
{
    return HALF_DOT(a->values[perspective], weights, net);
}

int32_t accumulator_update_perspective_sum(Accumulator *to, const Accumulator *from, const Network *net,
                                           Color perspective, const int16_t *weights)
{
    FeatureDelta delta;
    move_delta(&delta, to, from, net, perspective);
    to->computed[perspective] = true;
    return UPDATE_DOT(to->values[perspective], from->values[perspective], &delta, weights, net);
}

int accumulator_output(const Accumulator *a, const Network *net, Color us, int bucket)
{
    const int16_t *w = bucket_weights(net, bucket);
    uint32_t sum = (uint32_t)HALF_DOT(a->values[us], w, net) + (uint32_t)HALF_DOT(a->values[color_flip(us)], w + net->hidden, net);
    return scale_output((int32_t)sum, net, bucket);
}

int accumulator_output_of_sum(int32_t sum, const Network *net, int bucket)
{
    return scale_output(sum, net, bucket);
}
