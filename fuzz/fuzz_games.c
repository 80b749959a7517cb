/* fuzz_games.c — stored self-play games (viriformat, the self-play store)
 * through `bachess records`: the start board is checked by the board's own
 * FEN parser and every move for legality, so any input either is refused
 * with a message or gives whole 32-byte records of legal, quiet positions,
 * no more than the plies it read. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_common.h"
#include "tools/packed_position.h"
#include "tools/records_cmd.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    board_init();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    FILE *in = fmemopen((void *)data, size, "rb");
    char *written = NULL;
    size_t written_size = 0;
    FILE *out = open_memstream(&written, &written_size);
    FUZZ_CHECK(in && out);
    RecordsCount count;
    char error[256] = "";
    int status = records_from_games(in, out, &count, error, sizeof error);
    fclose(in);
    fclose(out);
    FUZZ_CHECK(status == 0 || error[0] != '\0');
    FUZZ_CHECK(written_size == (size_t)count.records * PACKED_POSITION_SIZE);
    FUZZ_CHECK(count.records <= count.plies);
    for (int64_t i = 0; i < count.records; i++) {
        UnpackedPosition u;
        packed_position_read((const PackedPosition *)(written + i * PACKED_POSITION_SIZE), &u);
        FUZZ_CHECK(u.result >= 0 && u.result <= 2 && u.piece_count >= 2 && u.piece_count <= 32);
    }
    free(written);
    return 0;
}
