/* packed_position.c — the datagen record (see packed_position.h). */
#include "tools/packed_position.h"

#include <string.h>

void packed_position_write(PackedPosition *out, const Board *b, int score, int result)
{
    memset(out->bytes, 0, sizeof out->bytes);
    Bitboard occupied = board_occupied(b);
    for (int i = 0; i < 8; i++)
        out->bytes[i] = (uint8_t)(occupied >> (8 * i));
    int n = 0;
    for (Bitboard rest = occupied; rest; n++) {
        Piece p = board_piece_on(b, pop_lsb(&rest));
        out->bytes[8 + n / 2] |= (uint8_t)(n % 2 ? p << 4 : p);
    }
    int16_t s = (int16_t)(score > 32767 ? 32767 : score < -32767 ? -32767 : score);
    out->bytes[24] = (uint8_t)((uint16_t)s & 0xff);
    out->bytes[25] = (uint8_t)((uint16_t)s >> 8);
    out->bytes[26] = (uint8_t)result;
    out->bytes[27] = (uint8_t)b->side;
    out->bytes[28] = (uint8_t)(b->game_ply & 0xff);
    out->bytes[29] = (uint8_t)((b->game_ply >> 8) & 0xff);
}

void packed_position_read(const PackedPosition *in, UnpackedPosition *out)
{
    out->occupied = 0;
    for (int i = 0; i < 8; i++)
        out->occupied |= (Bitboard)in->bytes[i] << (8 * i);
    out->piece_count = popcount(out->occupied);
    for (int n = 0; n < out->piece_count && n < 32; n++) {
        uint8_t pair = in->bytes[8 + n / 2];
        out->pieces[n] = (Piece)(n % 2 ? pair >> 4 : pair & 15);
    }
    out->score = (int16_t)(uint16_t)(in->bytes[24] | in->bytes[25] << 8);
    out->result = in->bytes[26];
    out->side = (Color)in->bytes[27];
    out->ply = in->bytes[28] | in->bytes[29] << 8;
}
