/* network.c — reading and checking NNUE network files (see network.h). */
#include "nnue/network.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"

/* Output weights are kept within int8 range so that a clipped activation
 * (at most QA <= 255) times a weight fits an int16, which the vectorised
 * output relies on. */
enum { MAX_OUTPUT_WEIGHT = 127, MAX_QA = 255, MAX_FILE_SIZE = 64 << 20 };

uint32_t network_checksum(const unsigned char *data, size_t size)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 16777619u;
    return h;
}

static uint32_t read_u32(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static int16_t read_i16(const unsigned char *p) { return (int16_t)(uint16_t)(p[0] | p[1] << 8); }

static bool fail(char *error, size_t esize, const char *why)
{
    snprintf(error, esize, "not a usable network: %s", why);
    return false;
}

typedef struct {
    uint32_t version, inputs, hidden, activation, qa, qb, scale, checksum, buckets, king_mirroring, king_buckets;
} Header;

/* The header's size by its version. */
static size_t header_size(uint32_t version)
{
    static const size_t sizes[] = { NNUE_HEADER_SIZE_V1, NNUE_HEADER_SIZE_V1, NNUE_HEADER_SIZE_V2,
                                    NNUE_HEADER_SIZE_V3, NNUE_HEADER_SIZE };
    return version < sizeof sizes / sizeof *sizes ? sizes[version] : NNUE_HEADER_SIZE;
}

/* The king bucket map's bytes at the payload's start: version 4 only. */
static size_t map_size(const Header *h)
{
    return h->version >= 4 ? NNUE_KING_MAP_SIZE : 0;
}

/* The int16 values of a network of this shape: input weights, input bias,
 * output weights. */
static size_t int16_count(const Header *h)
{
    size_t n = h->hidden;
    return (size_t)h->king_buckets * NNUE_INPUTS * n + n + 2 * n * h->buckets;
}

/* The map, weights and biases of a network of this shape, in bytes. */
static size_t payload_size(const Header *h)
{
    return map_size(h) + 2 * int16_count(h) + 4 * (size_t)h->buckets;
}

static bool check_header(const Header *h, size_t payload, char *error, size_t esize)
{
    char why[160];
    if (h->version < 1 || h->version > NNUE_VERSION)
        return snprintf(why, sizeof why, "version %u, this engine reads 1 to %d", h->version, NNUE_VERSION),
               fail(error, esize, why);
    if (h->buckets < 1 || h->buckets > NNUE_MAX_OUTPUT_BUCKETS)
        return snprintf(why, sizeof why, "%u output buckets (1 to %d)", h->buckets, NNUE_MAX_OUTPUT_BUCKETS),
               fail(error, esize, why);
    if (h->inputs != NNUE_INPUTS)
        return snprintf(why, sizeof why, "%u inputs, the architecture has %d", h->inputs, NNUE_INPUTS), fail(error, esize, why);
    if (h->hidden == 0 || h->hidden > NNUE_MAX_HIDDEN || h->hidden % NNUE_HIDDEN_STEP)
        return snprintf(why, sizeof why, "hidden size %u (a multiple of %d up to %d)", h->hidden, NNUE_HIDDEN_STEP,
                        NNUE_MAX_HIDDEN), fail(error, esize, why);
    if (h->activation > ACTIVATION_SCRELU)
        return fail(error, esize, "unknown activation");
    if (h->king_mirroring > 1)
        return snprintf(why, sizeof why, "king mirroring %u (0 or 1)", h->king_mirroring), fail(error, esize, why);
    if (h->king_buckets < 1 || h->king_buckets > NNUE_MAX_KING_BUCKETS)
        return snprintf(why, sizeof why, "%u king buckets (1 to %d)", h->king_buckets, NNUE_MAX_KING_BUCKETS),
               fail(error, esize, why);
    if (h->qa == 0 || h->qa > MAX_QA || h->qb == 0 || h->qb > 4096 || h->scale == 0 || h->scale > 4096)
        return fail(error, esize, "quantisation constants out of range");
    size_t want = payload_size(h);
    if (payload != want)
        return snprintf(why, sizeof why, "%zu bytes of weights, the header asks for %zu (truncated or wrong architecture)",
                        payload, want), fail(error, esize, why);
    return true;
}

/* The king bucket map: every entry a bucket of the net, and every bucket
 * on some square the net reads (a mirroring net reads files a-d only),
 * so that no set of input weights is dead. */
static bool check_king_map(const Header *h, const uint8_t map[64], char *error, size_t esize)
{
    char why[160];
    bool used[NNUE_MAX_KING_BUCKETS] = { false };
    for (int s = 0; s < 64; s++) {
        if (map[s] >= h->king_buckets)
            return snprintf(why, sizeof why, "king bucket map: square %d has bucket %u, the net has %u", s,
                            map[s], h->king_buckets), fail(error, esize, why);
        if (!h->king_mirroring || s % 8 < 4)
            used[map[s]] = true;
    }
    for (uint32_t k = 0; k < h->king_buckets; k++)
        if (!used[k])
            return snprintf(why, sizeof why, "king bucket map: bucket %u is on no square the net reads%s", k,
                            h->king_mirroring ? " (files a-d, as it mirrors)" : ""), fail(error, esize, why);
    return true;
}

bool network_load_bytes(Network *net, const unsigned char *data, size_t size, char *error, size_t esize)
{
    if (size < NNUE_HEADER_SIZE_V1 || memcmp(data, "BACHNNUE", 8) != 0)
        return fail(error, esize, "no BACHNNUE header");
    Header h;
    uint32_t *fields = &h.version;
    for (int i = 0; i < 8; i++)
        fields[i] = read_u32(data + 8 + 4 * i);
    size_t header_bytes = header_size(h.version);
    if (size < header_bytes)
        return fail(error, esize, "the header is truncated");
    h.buckets = h.version >= 2 ? read_u32(data + NNUE_HEADER_SIZE_V1) : 1;
    h.king_mirroring = h.version >= 3 ? read_u32(data + NNUE_HEADER_SIZE_V2) : 0;
    h.king_buckets = h.version >= 4 ? read_u32(data + NNUE_HEADER_SIZE_V3) : 1;
    const unsigned char *payload = data + header_bytes;
    size_t payload_bytes = size - header_bytes;
    if (!check_header(&h, payload_bytes, error, esize))
        return false;
    if (network_checksum(payload, payload_bytes) != h.checksum)
        return fail(error, esize, "checksum mismatch (the file is damaged)");
    uint8_t map[64] = { 0 }; /* one bucket: every square reads bucket 0 */
    memcpy(map, payload, map_size(&h));
    if (!check_king_map(&h, map, error, esize))
        return false;

    int n = (int)h.hidden, buckets = (int)h.buckets;
    size_t count = int16_count(&h), inputs = (size_t)h.king_buckets * NNUE_INPUTS * (size_t)n;
    const unsigned char *values = payload + map_size(&h);
    int16_t *block = platform_alloc_aligned(64, (count * sizeof(int16_t) + 63) / 64 * 64);
    if (!block)
        return fail(error, esize, "out of memory");
    for (size_t i = 0; i < count; i++)
        block[i] = read_i16(values + 2 * i);
    int16_t *output = block + inputs + n;
    for (int i = 0; i < 2 * n * buckets; i++)
        if (output[i] < -MAX_OUTPUT_WEIGHT || output[i] > MAX_OUTPUT_WEIGHT) {
            platform_free_aligned(block);
            return fail(error, esize, "an output weight outside -127..127");
        }
    network_free(net);
    *net = (Network){
        .hidden = n, .activation = (Activation)h.activation, .qa = (int)h.qa, .qb = (int)h.qb, .scale = (int)h.scale,
        .input_weights = block, .input_bias = block + inputs, .king_mirroring = h.king_mirroring,
        .king_buckets = (int)h.king_buckets, .output_buckets = buckets,
        .output_weights = output, .storage = block,
    };
    memcpy(net->king_bucket_map, map, sizeof map);
    for (int k = 0; k < buckets; k++)
        net->output_bias[k] = (int32_t)read_u32(values + 2 * count + 4 * (size_t)k);
    return true;
}

bool network_load_file(Network *net, const char *path, char *error, size_t esize)
{
    FILE *in = fopen(path, "rb");
    if (!in) {
        snprintf(error, esize, "cannot open %.200s: %s", path, strerror(errno));
        return false;
    }
    unsigned char *data = malloc(MAX_FILE_SIZE);
    size_t size = data ? fread(data, 1, MAX_FILE_SIZE, in) : 0;
    bool too_big = data && size == MAX_FILE_SIZE && fgetc(in) != EOF;
    fclose(in);
    bool ok = data && !too_big && network_load_bytes(net, data, size, error, esize);
    if (!data)
        snprintf(error, esize, "out of memory");
    else if (too_big)
        snprintf(error, esize, "not a usable network: over %d MB", MAX_FILE_SIZE >> 20);
    free(data);
    return ok;
}

void network_free(Network *net)
{
    platform_free_aligned(net->storage);
    *net = (Network){ 0 };
}
