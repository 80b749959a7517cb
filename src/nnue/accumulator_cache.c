/* accumulator_cache.c — refreshes from the last accumulator of the same view (see accumulator_cache.h). */
#include "nnue/accumulator_cache.h"

#include <string.h>

typedef void ApplyFeatures(int16_t *values_to, const int16_t *values_from, const FeatureList *added,
                           const FeatureList *removed, int n);

void accumulator_cache_clear(AccumulatorCache *cache)
{
    memset(cache->filled, 0, sizeof cache->filled);
}

/* The entry of `perspective` for `view`, made to hold the input bias over
 * no pieces if it held nothing: the refresh then adds every piece, as one
 * from scratch does. */
static AccumulatorCacheEntry *entry_for(AccumulatorCache *cache, const Network *net, Color perspective, NnueView view)
{
    AccumulatorCacheEntry *entry = &cache->entries[perspective][view.mirrored][view.king_bucket];
    bool *filled = &cache->filled[perspective][view.mirrored][view.king_bucket];
    if (!*filled) {
        memcpy(entry->values, net->input_bias, sizeof(int16_t) * (size_t)net->hidden);
        memset(entry->by_type, 0, sizeof entry->by_type);
        memset(entry->by_color, 0, sizeof entry->by_color);
        *filled = true;
    }
    return entry;
}

/* Appends the input weights of piece p on each of `squares` to `list`. */
static void list_features(FeatureList *list, Bitboard squares, Piece p, const Network *net, Color perspective,
                          NnueView view)
{
    const int16_t *weights = nnue_view_input_weights(net, view);
    while (squares) {
        Square s = pop_lsb(&squares);
        list->weights[list->count++] = nnue_feature_weights(net, weights, nnue_bucket_feature(perspective, p, s, view));
    }
}

/* The features that take the entry's pieces to b's: each piece of b that
 * the entry lacks is added, each piece of the entry that b lacks removed. */
static void list_differences(FeatureList *added, FeatureList *removed, const AccumulatorCacheEntry *entry,
                             const Board *b, const Network *net, Color perspective, NnueView view)
{
    added->count = removed->count = 0; /* not `= { 0 }`: no need to zero 64 pointers each */
    for (Color c = WHITE; c <= BLACK; c++)
        for (PieceType t = PAWN; t <= KING; t++) {
            Bitboard now = board_pieces(b, c, t), cached = entry->by_color[c] & entry->by_type[t];
            Piece p = make_piece(c, t);
            list_features(added, now & ~cached, p, net, perspective, view);
            list_features(removed, cached & ~now, p, net, perspective, view);
        }
}

static void refresh_with(AccumulatorCache *cache, Accumulator *a, const Network *net, const Board *b,
                         Color perspective, ApplyFeatures *apply)
{
    NnueView view = nnue_view(net, perspective, board_king(b, perspective));
    AccumulatorCacheEntry *entry = entry_for(cache, net, perspective, view);
    FeatureList added, removed;
    list_differences(&added, &removed, entry, b, net, perspective, view);
    apply(a->values[perspective], entry->values, &added, &removed, net->hidden);
    /* The entry now stands for b: the next refresh in this view starts here. */
    memcpy(entry->values, a->values[perspective], sizeof(int16_t) * (size_t)net->hidden);
    memcpy(entry->by_type, b->by_type, sizeof entry->by_type);
    memcpy(entry->by_color, b->by_color, sizeof entry->by_color);
    a->view[perspective] = view;
    a->computed[perspective] = true;
}

void accumulator_cache_refresh(AccumulatorCache *cache, Accumulator *a, const Network *net, const Board *b,
                               Color perspective)
{
    refresh_with(cache, a, net, b, perspective, accumulator_apply_features);
}

void accumulator_cache_refresh_portable(AccumulatorCache *cache, Accumulator *a, const Network *net, const Board *b,
                                        Color perspective)
{
    refresh_with(cache, a, net, b, perspective, accumulator_apply_features_portable);
}
