#pragma once
/*
 * network.h — an efficiently updatable neural network (NNUE) for the
 * evaluation: a perspective net (K x 768) -> N x 2 -> 1, with 1 to 16
 * output buckets chosen by the number of pieces on the board and 1 to 32
 * king buckets chosen by where each side's own king stands.
 *
 * The 768 inputs are the (piece, square) pairs of the board seen from one
 * side: for perspective c, a piece counts as "ours" or "theirs" and the
 * board is mirrored vertically for Black (nnue_bucket_feature()). Each side's
 * hidden layer of N int16 values (its accumulator) is the input bias plus
 * the input weights of its active features, so a move changes it by a few
 * additions and subtractions. The output is one neuron over both layers,
 * the side to move's first, through a clipped (CReLU) or squared clipped
 * (SCReLU) activation, scaled back to centipawns. A net may mirror by the
 * king (version 3): a perspective whose own king stands on files e-h sees
 * the board mirrored left to right as well, so that every input weight
 * learns from the positions of both wings. With B output buckets
 * there are B such neurons, and a board with P pieces (kings included) uses
 * bucket (P - 2) * B / 31: the same hidden layer, read differently in the
 * opening, the middlegame and the endings. One bucket is the plain net.
 * With K king buckets (version 4) there are K sets of 768 input weights,
 * and each perspective reads the set that a map of the 64 squares gives
 * for its own king's square as it sees it (after both mirrors): a knight
 * on f3 may weigh differently before a castled king than before one in
 * the centre. What a perspective sees — mirrored or not, which king
 * bucket — is its view (NnueView); only a king move can change it.
 *
 * The file format (little-endian), version 1 to 4:
 *   "BACHNNUE"  8 bytes
 *   u32 version (1 to 4), u32 inputs (768), u32 hidden (N), u32 activation
 *   (0 CReLU, 1 SCReLU), u32 QA, u32 QB, u32 scale, u32 checksum
 *   (FNV-1a of the payload); versions 2 to 4: u32 output buckets (B,
 *   1..16); versions 3 and 4: u32 king mirroring (0 no, 1 yes); version 4:
 *   u32 king buckets (K, 1..32); then the payload: version 4 only, u8 king
 *   bucket map [64] (a1, b1, ... h8, as the perspective sees its king;
 *   each entry below K, each bucket on some square the net reads), then
 *   i16 input weights [K][768][N] (feature by feature), i16 input bias
 *   [N], i16 output weights [B][2N] (each bucket's side to move's half
 *   first), i32 output bias [B]. Version 1 is version 2 with B = 1,
 *   version 2 is version 3 without mirroring, and version 3 is version 4
 *   with K = 1. The map is in the payload so that the checksum covers it.
 * Loading checks all of it and refuses anything else with a message.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "types.h"

enum {
    NNUE_INPUTS = 768,
    NNUE_MAX_HIDDEN = 512, /* accumulators are this wide at most */
    NNUE_HIDDEN_STEP = 16, /* N is a multiple of this (one AVX2 register of int16) */
    NNUE_VERSION = 4,         /* the newest version read; 1 to 3 are read too */
    NNUE_HEADER_SIZE_V1 = 40,
    NNUE_HEADER_SIZE_V2 = 44, /* the bucket count follows the checksum */
    NNUE_HEADER_SIZE_V3 = 48, /* the mirroring flag follows the bucket count */
    NNUE_HEADER_SIZE = 52,    /* version 4: the king bucket count follows the mirroring flag */
    NNUE_MAX_OUTPUT_BUCKETS = 16,
    NNUE_MAX_KING_BUCKETS = 32,
    NNUE_KING_MAP_SIZE = 64,  /* version 4's payload starts with the map, a byte a square */
};

typedef enum { ACTIVATION_CRELU, ACTIVATION_SCRELU } Activation;

typedef struct {
    int hidden;
    Activation activation;
    int qa, qb, scale;
    int16_t *input_weights;  /* [king_buckets][NNUE_INPUTS][hidden] */
    int16_t *input_bias;     /* [hidden] */
    bool king_mirroring;     /* a perspective with its king on files e-h mirrors */
    int king_buckets;        /* K: sets of input weights, 1 for versions 1 to 3 */
    uint8_t king_bucket_map[64]; /* by the king's square as its perspective sees it */
    int output_buckets;
    int16_t *output_weights; /* [output_buckets][2][hidden] */
    int32_t output_bias[NNUE_MAX_OUTPUT_BUCKETS];
    void *storage;           /* one aligned block holding the arrays */
} Network;

/* Reads a network from a file's bytes; false with a reason (and `net`
 * untouched) when the data is not a valid network of version 1 to 4. */
bool network_load_bytes(Network *net, const unsigned char *data, size_t size, char *error, size_t error_size);
bool network_load_file(Network *net, const char *path, char *error, size_t error_size);
void network_free(Network *net);
/* The FNV-1a checksum the file format uses. */
uint32_t network_checksum(const unsigned char *data, size_t size);

/* What one perspective sees of the board: mirrored left to right or not,
 * and which king bucket's input weights it reads. Both follow from its own
 * king's square alone, so an accumulator can be updated move by move
 * while the view stays, and must be computed afresh when it changes. */
typedef struct {
    bool mirrored;
    uint8_t king_bucket;
} NnueView;

static inline bool nnue_same_view(NnueView a, NnueView b)
{
    return a.mirrored == b.mirrored && a.king_bucket == b.king_bucket;
}

/* Whether a king move can change a perspective's view with this net: not
 * with one king bucket and no mirroring (versions 1 and 2). */
static inline bool nnue_view_follows_king(const Network *net)
{
    return net->king_mirroring || net->king_buckets > 1;
}

/* Whether a perspective whose own king stands on `king` sees the board
 * mirrored left to right: with a mirroring net, when the king is on the
 * e- to h-files. */
static inline bool nnue_mirrored(const Network *net, Square king)
{
    return net->king_mirroring && square_file(king) >= 4;
}

/* The view of `perspective`, whose own king stands on `king`: the king
 * bucket is the map's entry for the king's square seen from that side
 * (vertically mirrored for Black, and left to right when mirrored). */
static inline NnueView nnue_view(const Network *net, Color perspective, Square king)
{
    bool mirrored = nnue_mirrored(net, king);
    int seen = (perspective == WHITE ? (int)king : (int)king ^ 56) ^ (mirrored ? 7 : 0);
    return (NnueView){ .mirrored = mirrored, .king_bucket = net->king_bucket_map[seen] };
}

/* The index of piece p on square s within a king bucket's 768 inputs,
 * seen from `perspective` with view `view`: (ours, type, square). */
static inline int nnue_bucket_feature(Color perspective, Piece p, Square s, NnueView view)
{
    int ours = piece_color(p) == perspective ? 0 : 1;
    int square = (perspective == WHITE ? (int)s : (int)s ^ 56) ^ (view.mirrored ? 7 : 0);
    return ours * 384 + (int)piece_type(p) * 64 + square;
}

/* The input weights a view reads, its king bucket's: 768 features of N
 * weights each, indexed by nnue_bucket_feature(). */
static inline const int16_t *nnue_view_input_weights(const Network *net, NnueView view)
{
    return net->input_weights + (size_t)view.king_bucket * NNUE_INPUTS * (size_t)net->hidden;
}

/* The N input weights of one feature among a view's. */
static inline const int16_t *nnue_feature_weights(const Network *net, const int16_t *view_weights, int feature)
{
    return view_weights + (size_t)feature * (size_t)net->hidden;
}

/* The output bucket of a board with `pieces` pieces, kings included: 2 to
 * 32 in a game, but a set-up position may hold more (ten knights). */
static inline int nnue_output_bucket(const Network *net, int pieces)
{
    int held = pieces < 2 ? 2 : pieces > 32 ? 32 : pieces;
    return (held - 2) * net->output_buckets / 31;
}
