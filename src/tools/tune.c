/* tune.c — the tuner's data set, its linear model of the evaluation, the
 * error and its gradient, the fit of K and the Adam optimiser (see tune.h). */
#include "tools/tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"

/* ---- The data set -------------------------------------------------------- */

void tune_data_init(TuneData *d)
{
    memset(d, 0, sizeof *d);
}

void tune_data_free(TuneData *d)
{
    free(d->positions);
    free(d->terms);
    tune_data_init(d);
}

static bool reserve_terms(TuneData *d, size_t more)
{
    if (d->term_count + more <= d->term_capacity)
        return true;
    size_t capacity = d->term_capacity ? d->term_capacity * 2 : 1 << 16;
    while (capacity < d->term_count + more)
        capacity *= 2;
    TuneTerm *grown = realloc(d->terms, capacity * sizeof *grown);
    if (!grown)
        return false;
    d->terms = grown;
    d->term_capacity = capacity;
    return true;
}

static bool reserve_position(TuneData *d)
{
    if (d->count < d->capacity)
        return true;
    int capacity = d->capacity ? d->capacity * 2 : 1024;
    TunePosition *grown = realloc(d->positions, (size_t)capacity * sizeof *grown);
    if (!grown)
        return false;
    d->positions = grown;
    d->capacity = capacity;
    return true;
}

static int16_t clamp16(int v)
{
    return (int16_t)(v > INT16_MAX ? INT16_MAX : v < INT16_MIN ? INT16_MIN : v);
}

bool tune_data_add(TuneData *d, const Board *b, double result)
{
    /* The trace is large (a count per weight and side): one per thread of
     * the caller would be wasteful, and the tuner has a single thread. */
    static EvalTrace trace;
    evaluate_traced(b, &trace);
    if (!reserve_position(d) || !reserve_terms(d, WEIGHT_COUNT) || d->term_count > UINT32_MAX - WEIGHT_COUNT)
        return false;

    TunePosition *p = &d->positions[d->count++];
    p->first = (uint32_t)d->term_count;
    for (int w = 0; w < WEIGHT_COUNT; w++) {
        int count = trace.coeff[w][WHITE] - trace.coeff[w][BLACK];
        if (count != 0)
            d->terms[d->term_count++] = (TuneTerm){ (uint16_t)w, clamp16(count) };
    }
    p->count = (uint16_t)(d->term_count - p->first);
    p->phase = (uint8_t)trace.phase;
    p->scale = (uint8_t)trace.scale;
    Score fixed = trace.nonlinear[WHITE] - trace.nonlinear[BLACK];
    p->fixed_mg = clamp16(score_mg(fixed));
    p->fixed_eg = clamp16(score_eg(fixed));
    p->result = (float)result;
    return true;
}

/* ---- The model ------------------------------------------------------------ */

void tune_params_from_weights(TuneParams *p)
{
    for (int w = 0; w < WEIGHT_COUNT; w++) {
        p->v[w][0] = score_mg(weights_array()[w]);
        p->v[w][1] = score_eg(weights_array()[w]);
    }
}

void tune_params_to_weights(const TuneParams *p)
{
    for (int w = 0; w < WEIGHT_COUNT; w++)
        weights_array()[w] = S((int)lround(p->v[w][0]), (int)lround(p->v[w][1]));
}

/* How much one centipawn of middlegame and of endgame value is worth in the
 * final evaluation of a position: the phase blend times the scale. */
static void phase_factors(const TunePosition *p, double *mg, double *eg)
{
    double scale = (double)p->scale / SCALE_NORMAL;
    *mg = scale * p->phase / PHASE_MAX;
    *eg = scale * (PHASE_MAX - p->phase) / PHASE_MAX;
}

double tune_model_eval(const TuneData *d, int i, const TuneParams *p)
{
    const TunePosition *pos = &d->positions[i];
    const TuneTerm *t = d->terms + pos->first;
    double mg = pos->fixed_mg, eg = pos->fixed_eg;
    for (int k = 0; k < pos->count; k++) {
        mg += t[k].count * p->v[t[k].index][0];
        eg += t[k].count * p->v[t[k].index][1];
    }
    double fmg, feg;
    phase_factors(pos, &fmg, &feg);
    return mg * fmg + eg * feg;
}

int tune_model_eval_exact(const TuneData *d, int i)
{
    const TunePosition *pos = &d->positions[i];
    const TuneTerm *t = d->terms + pos->first;
    int mg = pos->fixed_mg, eg = pos->fixed_eg;
    for (int k = 0; k < pos->count; k++) {
        Score w = weights_array()[t[k].index];
        mg += t[k].count * score_mg(w);
        eg += t[k].count * score_eg(w);
    }
    /* The same steps, in the same integer arithmetic, as evaluate_white(). */
    int blended = (mg * pos->phase + eg * (PHASE_MAX - pos->phase)) / PHASE_MAX;
    int result = blended * pos->scale / SCALE_NORMAL;
    return result > EVAL_MAX ? EVAL_MAX : result < -EVAL_MAX ? -EVAL_MAX : result;
}

static double sigmoid(double k, double eval)
{
    return 1.0 / (1.0 + exp(-k * eval));
}

double tune_error(const TuneData *d, const TuneParams *p, double k)
{
    double sum = 0;
    for (int i = 0; i < d->count; i++) {
        double miss = d->positions[i].result - sigmoid(k, tune_model_eval(d, i, p));
        sum += miss * miss;
    }
    return d->count ? sum / d->count : 0;
}

double tune_gradient(const TuneData *d, const TuneParams *p, double k, TuneParams *grad)
{
    memset(grad, 0, sizeof *grad);
    double sum = 0;
    for (int i = 0; i < d->count; i++) {
        const TunePosition *pos = &d->positions[i];
        double s = sigmoid(k, tune_model_eval(d, i, p));
        double miss = pos->result - s;
        sum += miss * miss;
        /* d(miss^2)/d(eval) = -2 miss s (1 - s) k; then through the blend. */
        double slope = -2.0 * miss * s * (1.0 - s) * k / d->count;
        double fmg, feg;
        phase_factors(pos, &fmg, &feg);
        const TuneTerm *t = d->terms + pos->first;
        for (int j = 0; j < pos->count; j++) {
            grad->v[t[j].index][0] += slope * fmg * t[j].count;
            grad->v[t[j].index][1] += slope * feg * t[j].count;
        }
    }
    return d->count ? sum / d->count : 0;
}

/* The error is unimodal in k: a golden-section search finds its minimum. */
double tune_find_k(const TuneData *d, const TuneParams *p)
{
    const double ratio = (sqrt(5.0) - 1) / 2;
    double lo = 0, hi = 0.05; /* sigmoid(0.05 x 100 cp) is already 0.993 */
    double a = hi - ratio * (hi - lo), b = lo + ratio * (hi - lo);
    double ea = tune_error(d, p, a), eb = tune_error(d, p, b);
    while (hi - lo > 1e-7) {
        if (ea < eb) {
            hi = b, b = a, eb = ea;
            a = hi - ratio * (hi - lo);
            ea = tune_error(d, p, a);
        } else {
            lo = a, a = b, ea = eb;
            b = lo + ratio * (hi - lo);
            eb = tune_error(d, p, b);
        }
    }
    return (lo + hi) / 2;
}

/* ---- Optimisation ------------------------------------------------------- */

void tune_options_default(TuneOptions *o)
{
    memset(o, 0, sizeof *o);
    o->rate = 1.0;
    for (int i = 0; i < weight_info_count; i++)
        for (int k = 0; k < weight_info[i].count; k++)
            o->frozen[weight_info[i].index + k][0] = o->frozen[weight_info[i].index + k][1] = !weight_info[i].linear;
    o->frozen[weight_index("material") + PAWN][0] = true;
}

/* The squares of a piece-square table (a8 first) a piece can stand on. */
static bool square_possible(PieceType t, int s)
{
    return t != PAWN || (s >= 8 && s < 56);
}

void tune_center_tables(TuneParams *p, const bool (*frozen)[2])
{
    int material = weight_index("material"), psqt = weight_index("psqt");
    for (PieceType t = PAWN; t <= KING; t++)
        for (int h = 0; h < 2; h++) {
            bool anchor = t == PAWN && h == 0;
            if (!anchor && t != KING && frozen && frozen[material + t][h])
                continue;
            double sum = 0;
            int squares = 0;
            for (int s = 0; s < SQUARE_NB; s++)
                if (square_possible(t, s))
                    sum += p->v[psqt + t * SQUARE_NB + s][h], squares++;
            double mean = sum / squares;
            for (int s = 0; s < SQUARE_NB; s++)
                if (square_possible(t, s))
                    p->v[psqt + t * SQUARE_NB + s][h] -= mean;
            /* Both sides always have one king: its mean cancels out anyway. */
            if (t != KING && !anchor)
                p->v[material + t][h] += mean;
        }
}

/* Adam (Kingma and Ba): each parameter's step is its averaged gradient
 * divided by its averaged gradient size, so rarely used weights (a king on
 * a8 in the middlegame) move as readily as material does. */
typedef struct {
    TuneParams mean, square;
    int steps;
} Adam;

static void adam_step(Adam *a, TuneParams *p, const TuneParams *grad, const TuneOptions *o)
{
    const double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-12;
    a->steps++;
    double correct1 = 1 - pow(beta1, a->steps), correct2 = 1 - pow(beta2, a->steps);
    for (int w = 0; w < WEIGHT_COUNT; w++)
        for (int h = 0; h < 2; h++) {
            if (o->frozen[w][h])
                continue;
            double g = grad->v[w][h];
            a->mean.v[w][h] = beta1 * a->mean.v[w][h] + (1 - beta1) * g;
            a->square.v[w][h] = beta2 * a->square.v[w][h] + (1 - beta2) * g * g;
            double m = a->mean.v[w][h] / correct1, v = a->square.v[w][h] / correct2;
            p->v[w][h] -= o->rate * m / (sqrt(v) + epsilon);
        }
}

/* The gradient of regularisation x squared distance from the anchor. */
static void add_regularisation(const TuneParams *p, const TuneOptions *o, TuneParams *grad)
{
    for (int w = 0; w < WEIGHT_COUNT; w++)
        for (int h = 0; h < 2; h++)
            grad->v[w][h] += 2 * o->regularisation * (p->v[w][h] - o->anchor->v[w][h]);
}

static void report(const TuneOptions *o, int epoch, double error, const TuneParams *p, double k)
{
    fprintf(o->progress, "epoch %5d  error %.7f", epoch, error);
    if (o->validation)
        fprintf(o->progress, "  held out %.7f", tune_error(o->validation, p, k));
    fputc('\n', o->progress);
    fflush(o->progress);
}

double tune_optimise(const TuneData *d, TuneParams *p, double k, const TuneOptions *o)
{
    Adam *adam = calloc(1, sizeof *adam);
    TuneParams *grad = malloc(sizeof *grad);
    if (!adam || !grad) {
        free(adam);
        free(grad);
        return -1;
    }
    for (int epoch = 1; epoch <= o->epochs; epoch++) {
        double error = tune_gradient(d, p, k, grad);
        if (o->anchor)
            add_regularisation(p, o, grad);
        if (o->progress && o->report_every && (epoch == 1 || epoch % o->report_every == 0))
            report(o, epoch, error, p, k);
        adam_step(adam, p, grad, o);
        tune_center_tables(p, (const bool(*)[2])o->frozen);
    }
    free(adam);
    free(grad);
    return tune_error(d, p, k);
}
