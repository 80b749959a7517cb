/* records.c — reading and decoding training records (see records.h). */
#include "records.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { PIECE_CODES = 12, RESULT_WIN = 2, KING_TYPE = 5 };

static uint64_t read_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Why a record is not one datagen writes, or NULL when it is. */
static const char *record_problem(const unsigned char *r)
{
    uint64_t occupancy = read_u64(r);
    int pieces = __builtin_popcountll(occupancy);
    if (pieces > MAX_FEATURES || pieces < 2)
        return "a board with fewer than 2 or more than 32 pieces";
    for (int i = 0; i < pieces; i++)
        if (((r[8 + i / 2] >> (4 * (i % 2))) & 15) >= PIECE_CODES)
            return "a piece code above 11";
    if (r[26] > RESULT_WIN)
        return "a result other than 0, 1 or 2";
    if (r[27] > 1)
        return "a side to move other than 0 or 1";
    return NULL;
}

static bool fail(char *error, size_t esize, const char *path, const char *why)
{
    snprintf(error, esize, "%s: %s", path, why);
    return false;
}

/* Appends one file's records, up to `room` of them. */
static bool load_file(RecordSet *set, const char *path, size_t room, char *error, size_t esize)
{
    FILE *in = fopen(path, "rb");
    if (!in)
        return fail(error, esize, path, strerror(errno));
    struct stat st;
    if (fstat(fileno(in), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(in);
        return fail(error, esize, path, "not a regular file of records");
    }
    size_t size = (size_t)st.st_size;
    if (size % RECORD_SIZE) {
        fclose(in);
        char why[160];
        snprintf(why, sizeof why, "%zu bytes, not whole %d-byte records (truncated?)", size, RECORD_SIZE);
        return fail(error, esize, path, why);
    }
    size_t count = size / RECORD_SIZE < room ? size / RECORD_SIZE : room;
    if (set->count + count > set->capacity) { /* a file that grew since reserve() looked */
        unsigned char *grown = realloc(set->bytes, (set->count + count) * RECORD_SIZE + 1);
        if (!grown) {
            fclose(in);
            return fail(error, esize, path, "out of memory");
        }
        set->bytes = grown;
        set->capacity = set->count + count;
    }
    unsigned char *at = set->bytes + set->count * RECORD_SIZE;
    size_t got = fread(at, RECORD_SIZE, count, in);
    fclose(in);
    if (got != count)
        return fail(error, esize, path, "read error");
    for (size_t i = 0; i < count; i++) {
        const char *problem = record_problem(at + i * RECORD_SIZE);
        if (problem) {
            char why[200];
            snprintf(why, sizeof why, "record %zu: %s (not a file of training records?)", i, problem);
            return fail(error, esize, path, why);
        }
    }
    set->count += count;
    return true;
}

/* Room for all the files' records at once: growing one block of a
 * gigabyte file by file would copy it again and again. */
static void reserve(RecordSet *set, char **paths, int path_count, size_t limit)
{
    size_t total = 0;
    struct stat st;
    for (int i = 0; i < path_count; i++)
        if (stat(paths[i], &st) == 0 && S_ISREG(st.st_mode))
            total += (size_t)st.st_size / RECORD_SIZE;
    if (limit && total > limit)
        total = limit;
    set->bytes = malloc(total * RECORD_SIZE + 1);
    set->capacity = set->bytes ? total : 0;
}

bool records_load(RecordSet *set, char **paths, int path_count, size_t limit, char *error, size_t esize)
{
    *set = (RecordSet){ 0 };
    reserve(set, paths, path_count, limit);
    for (int i = 0; i < path_count; i++) {
        size_t room = limit ? limit - set->count : SIZE_MAX;
        if (!load_file(set, paths[i], room, error, esize)) {
            records_free(set);
            return false;
        }
    }
    if (set->count == 0) {
        records_free(set);
        return fail(error, esize, path_count ? paths[0] : "records", "no records");
    }
    return true;
}

void records_free(RecordSet *set)
{
    free(set->bytes);
    *set = (RecordSet){ 0 };
}

/* The king bucket of `perspective`, from its own king's square on the
 * board as decoded (rank 1 its own back rank). */
static int king_bucket_of(const KingBuckets *kings, int king_square[2], int perspective)
{
    return kings->bucket[perspective == 0 ? king_square[0] : king_square[1] ^ 56];
}

void records_decode(const RecordSet *set, size_t index, bool mirror, const KingBuckets *kings, Position *out)
{
    const unsigned char *r = set->bytes + index * RECORD_SIZE;
    uint64_t occupancy = read_u64(r);
    int stm = r[27], n = 0;
    int flip = mirror ? 7 : 0;
    int king_square[2] = { 0, 0 };
    while (occupancy) {
        int square = __builtin_ctzll(occupancy) ^ flip;
        occupancy &= occupancy - 1;
        int piece = (r[8 + n / 2] >> (4 * (n % 2))) & 15;
        int colour = piece / 6, type = piece % 6;
        if (type == KING_TYPE)
            king_square[colour] = square;
        for (int side = 0; side < 2; side++) {
            int perspective = side == 0 ? stm : 1 - stm;
            int seen = perspective == 0 ? square : square ^ 56;
            out->features[side][n] = (uint16_t)((colour != perspective) * 384 + type * 64 + seen);
        }
        n++;
    }
    /* The kings are known once the board is read: each perspective's
     * features move into its bucket's block, and with a factoriser into
     * the shared block after the last bucket's too. */
    for (int side = 0; kings->count > 1 && side < 2; side++) {
        int block = king_bucket_of(kings, king_square, side == 0 ? stm : 1 - stm) * INPUTS;
        for (int i = 0; i < n; i++) {
            if (kings->factoriser)
                out->features[side][n + i] = (uint16_t)(out->features[side][i] + kings->count * INPUTS);
            out->features[side][i] = (uint16_t)(out->features[side][i] + block);
        }
    }
    out->count = n;
    out->feature_count = kings->factoriser ? 2 * n : n;
    int16_t score = (int16_t)(uint16_t)(r[24] | r[25] << 8);
    float result = r[26] / 2.0f;
    out->score_stm = stm == 0 ? (float)score : -(float)score;
    out->result_stm = stm == 0 ? result : 1.0f - result;
}
