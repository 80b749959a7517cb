/* default_net.c — nets/default.nnue inside the binary (see default_net.h).
 * The assembler's .incbin reads the file when this is compiled; the path is
 * relative to the directory make runs in, the top of the repository. */
#include "nnue/default_net.h"

__asm__(".section .rodata\n"
        ".balign 64\n"
        ".globl bachess_default_net_start\n"
        "bachess_default_net_start:\n"
        ".incbin \"nets/default.nnue\"\n"
        ".globl bachess_default_net_end\n"
        "bachess_default_net_end:\n"
        ".previous\n");

extern const unsigned char bachess_default_net_start[];
extern const unsigned char bachess_default_net_end[];

const unsigned char *default_net_bytes(size_t *size)
{
    *size = (size_t)(bachess_default_net_end - bachess_default_net_start);
    return bachess_default_net_start;
}
