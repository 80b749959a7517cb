/* netfile.c — quantising, writing and reading network files (see netfile.h). */
#include "netfile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* HEADER_SIZE: version 1's; version 2 adds the output bucket count (field
 * 8), version 3 the mirroring flag, version 4 the king bucket count, whose
 * map then opens the payload. */
enum {
    HEADER_FIELDS = 8, HEADER_SIZE = 8 + 4 * HEADER_FIELDS, BUCKETS_OFFSET = HEADER_SIZE,
    MIRRORING_OFFSET = BUCKETS_OFFSET + 4, KING_BUCKETS_OFFSET = MIRRORING_OFFSET + 4, KING_MAP_SIZE = 64,
    KING_BUCKETS_VERSION = 4, MAX_OUTPUT_WEIGHT = 127
};

static size_t input_rows(int king_buckets) { return (size_t)king_buckets * INPUTS; }

/* The int16 values of a net, which are one block in memory and in the file. */
static size_t int16_count(int hidden, int buckets, int king_buckets)
{
    return input_rows(king_buckets) * (size_t)hidden + (size_t)hidden + 2 * (size_t)hidden * (size_t)buckets;
}

static bool quantised_alloc(QuantisedNet *q, int hidden, int buckets, const KingBuckets *kings, bool screlu)
{
    size_t n = (size_t)hidden, rows = input_rows(kings->count);
    int16_t *block = calloc(int16_count(hidden, buckets, kings->count), sizeof(int16_t));
    *q = (QuantisedNet){ .hidden = hidden, .buckets = buckets, .kings = *kings, .screlu = screlu,
                         .input_weights = block, .input_bias = block ? block + rows * n : NULL,
                         .output_weights = block ? block + rows * n + n : NULL };
    return block != NULL;
}

void netfile_free(QuantisedNet *q)
{
    free(q->input_weights);
    *q = (QuantisedNet){ 0 };
}

/* Round half to even (the default rounding mode), in float as numpy's
 * float32 arrays are. */
static int16_t quantise_value(float weight, float scale, int limit)
{
    float x = rintf(weight * scale);
    return (int16_t)fminf(fmaxf(x, (float)-limit), (float)limit);
}

/* Input weight i of the file (bucket by bucket): the trainer's, with the
 * shared block's added under a factoriser. */
static float folded_input_weight(const Weights *w, const KingBuckets *kings, size_t i)
{
    size_t block = INPUTS * (size_t)w->hidden;
    float own = w->input_weights[i];
    return kings->factoriser ? own + w->input_weights[(size_t)kings->count * block + i % block] : own;
}

bool netfile_quantise(const Weights *w, const KingBuckets *kings, QuantisedNet *q)
{
    KingBuckets in_file = *kings;
    in_file.factoriser = false;
    if (king_blocks(kings) != w->input_blocks || !quantised_alloc(q, w->hidden, w->buckets, &in_file, w->screlu))
        return false;
    size_t n = (size_t)w->hidden, b = (size_t)w->buckets;
    for (size_t i = 0; i < input_rows(kings->count) * n; i++)
        q->input_weights[i] = quantise_value(folded_input_weight(w, kings, i), QA, INT16_MAX);
    for (size_t i = 0; i < n; i++)
        q->input_bias[i] = quantise_value(w->input_bias[i], QA, INT16_MAX);
    for (size_t i = 0; i < 2 * n * b; i++)
        q->output_weights[i] = quantise_value(w->output_weights[i], QB, MAX_OUTPUT_WEIGHT);
    for (size_t i = 0; i < b; i++)
        q->output_bias[i] = (int32_t)rint((double)w->output_bias[i] * QA * QB); /* Python's float: double */
    return true;
}

bool netfile_dequantise(const QuantisedNet *q, int buckets, const KingBuckets *kings, Weights *w)
{
    if ((q->buckets != 1 && q->buckets != buckets) || (q->kings.count != 1 && q->kings.count != kings->count)
        || !weights_alloc(w, q->hidden, buckets, king_blocks(kings), q->screlu))
        return false;
    size_t n = (size_t)q->hidden, block = input_rows(q->kings.count) * n;
    for (size_t i = 0; i < input_rows(kings->count) * n; i++) /* one block fills every king bucket's */
        w->input_weights[i] = (float)q->input_weights[i % block] / QA;
    /* a factoriser's shared block stays zero: the buckets hold the file's sums */
    for (size_t i = 0; i < n; i++)
        w->input_bias[i] = (float)q->input_bias[i] / QA;
    for (int b = 0; b < buckets; b++) {
        int from = q->buckets == 1 ? 0 : b;
        for (size_t i = 0; i < 2 * n; i++)
            w->output_weights[(size_t)b * 2 * n + i] = (float)q->output_weights[(size_t)from * 2 * n + i] / QB;
        /* divided in double, then stored, as model.load_quantised() */
        w->output_bias[b] = (float)((double)q->output_bias[from] / (QA * QB));
    }
    return true;
}

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get_u32(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* FNV-1a, the file's checksum (network_checksum() in src/nnue/network.c). */
static uint32_t checksum(const unsigned char *data, size_t size)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 16777619u;
    return h;
}

/* The bytes after the header: the king bucket map (version 4), the int16
 * values and the output biases. */
static size_t payload_size(int hidden, int buckets, int king_buckets, bool has_map)
{
    return (has_map ? KING_MAP_SIZE : 0) + 2 * int16_count(hidden, buckets, king_buckets) + 4 * (size_t)buckets;
}

/* The header's size by version (src/nnue/network.h). */
static const size_t HEADER_SIZES[] = { 0, HEADER_SIZE, HEADER_SIZE + 4, HEADER_SIZE + 8, HEADER_SIZE + 12 };

/* model.py's file_version(): 4 with king buckets, else 2 with output
 * buckets, else 1 (every net before output buckets). */
static uint32_t version_of(const QuantisedNet *q)
{
    return q->kings.count > 1 ? KING_BUCKETS_VERSION : q->buckets > 1 ? 2 : 1;
}

bool netfile_write(const QuantisedNet *q, const char *path, char *error, size_t esize)
{
    uint32_t version = version_of(q);
    size_t header = HEADER_SIZES[version];
    size_t values = int16_count(q->hidden, q->buckets, q->kings.count);
    size_t payload = payload_size(q->hidden, q->buckets, q->kings.count, version == KING_BUCKETS_VERSION);
    unsigned char *bytes = malloc(header + payload);
    if (!bytes)
        return snprintf(error, esize, "out of memory"), false;
    unsigned char *p = bytes + header;
    if (version == KING_BUCKETS_VERSION) { /* the map opens the payload, so that the checksum covers it */
        memcpy(p, q->kings.bucket, KING_MAP_SIZE);
        p += KING_MAP_SIZE;
    }
    for (size_t i = 0; i < values; i++) { /* the three int16 arrays are one block */
        uint16_t v = (uint16_t)q->input_weights[i];
        p[2 * i] = (unsigned char)v, p[2 * i + 1] = (unsigned char)(v >> 8);
    }
    for (int b = 0; b < q->buckets; b++)
        put_u32(p + 2 * values + 4 * (size_t)b, (uint32_t)q->output_bias[b]);
    memcpy(bytes, "BACHNNUE", 8);
    uint32_t fields[HEADER_FIELDS] = { version, INPUTS, (uint32_t)q->hidden, q->screlu ? 1 : 0, QA, QB,
                                       SCALE, checksum(bytes + header, payload) };
    for (int i = 0; i < HEADER_FIELDS; i++)
        put_u32(bytes + 8 + 4 * i, fields[i]);
    if (version >= 2)
        put_u32(bytes + BUCKETS_OFFSET, (uint32_t)q->buckets);
    if (version == KING_BUCKETS_VERSION) {
        put_u32(bytes + MIRRORING_OFFSET, 0);
        put_u32(bytes + KING_BUCKETS_OFFSET, (uint32_t)q->kings.count);
    }
    FILE *out = fopen(path, "wb");
    bool ok = out && fwrite(bytes, 1, header + payload, out) == header + payload;
    if (out && fclose(out) != 0)
        ok = false;
    if (!ok)
        snprintf(error, esize, "cannot write %s: %s", path, strerror(errno));
    free(bytes);
    return ok;
}

/* The shape a file's header gives: its size by version, the output bucket
 * count (field 8 from version 2 on, 1 to MAX_OUTPUT_BUCKETS) and the king
 * buckets (version 4: their count and the map that opens the payload).
 * False for mirroring by the king (version 3 or 4), which the trainer does
 * not write, and for a map the count does not fit. */
static bool read_shape(const unsigned char *data, size_t size, size_t *header, int *buckets, KingBuckets *kings)
{
    uint32_t version = size >= HEADER_SIZE ? get_u32(data + 8) : 0;
    if (version < 1 || version > KING_BUCKETS_VERSION || size < HEADER_SIZES[version])
        return false;
    *header = HEADER_SIZES[version];
    uint32_t count = version >= 2 ? get_u32(data + BUCKETS_OFFSET) : 1;
    *buckets = (int)count;
    *kings = king_buckets_none();
    if (count < 1 || count > MAX_OUTPUT_BUCKETS || (version >= 3 && get_u32(data + MIRRORING_OFFSET) != 0))
        return false;
    if (version < KING_BUCKETS_VERSION)
        return true;
    uint32_t king_count = get_u32(data + KING_BUCKETS_OFFSET);
    if (king_count < 1 || king_count > MAX_KING_BUCKETS || size < *header + KING_MAP_SIZE)
        return false;
    kings->count = (int)king_count;
    memcpy(kings->bucket, data + *header, KING_MAP_SIZE);
    return king_buckets_check(kings->bucket, kings->count);
}

static bool has_map(size_t header) { return header == HEADER_SIZES[KING_BUCKETS_VERSION]; }

bool netfile_read(QuantisedNet *q, const char *path, char *error, size_t esize)
{
    FILE *in = fopen(path, "rb");
    if (!in)
        return snprintf(error, esize, "cannot open %s: %s", path, strerror(errno)), false;
    enum { MAX_SIZE = 32 << 20 }; /* 32 king buckets of 512 */
    unsigned char *data = malloc(MAX_SIZE);
    size_t size = data ? fread(data, 1, MAX_SIZE, in) : 0;
    fclose(in);
    size_t header = 0;
    int buckets = 1;
    KingBuckets kings = king_buckets_none();
    uint32_t hidden = size >= HEADER_SIZE ? get_u32(data + 16) : 0;
    bool ok = data && size >= HEADER_SIZE && memcmp(data, "BACHNNUE", 8) == 0
              && read_shape(data, size, &header, &buckets, &kings) && get_u32(data + 12) == INPUTS
              && hidden >= HIDDEN_STEP && hidden <= MAX_HIDDEN && hidden % HIDDEN_STEP == 0
              && get_u32(data + 20) <= 1 && get_u32(data + 24) == QA && get_u32(data + 28) == QB
              && get_u32(data + 32) == SCALE
              && size == header + payload_size((int)hidden, buckets, kings.count, has_map(header))
              && checksum(data + header, size - header) == get_u32(data + 36);
    if (!ok)
        snprintf(error, esize, "%s: not a network this trainer reads (1 to %d output buckets, 1 to %d king buckets, "
                 "no mirroring, QA %d, QB %d, whole and unchanged)", path, MAX_OUTPUT_BUCKETS, MAX_KING_BUCKETS, QA,
                 QB);
    if (ok && !quantised_alloc(q, (int)hidden, buckets, &kings, get_u32(data + 20) == 1)) {
        snprintf(error, esize, "out of memory");
        ok = false;
    }
    if (ok) {
        const unsigned char *p = data + header + (has_map(header) ? KING_MAP_SIZE : 0);
        size_t values = int16_count((int)hidden, buckets, kings.count);
        for (size_t i = 0; i < values; i++)
            q->input_weights[i] = (int16_t)(uint16_t)(p[2 * i] | p[2 * i + 1] << 8);
        for (int b = 0; b < buckets; b++)
            q->output_bias[b] = (int32_t)get_u32(p + 2 * values + 4 * (size_t)b);
    }
    free(data);
    return ok;
}
