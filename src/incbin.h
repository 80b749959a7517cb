#pragma once
/*
 * incbin.h — a file's bytes inside the binary, read by the assembler's
 * .incbin when the including file is compiled: the one way bachess embeds
 * data (the NNUE network, the web page's files).
 *
 * INCBIN(name, "path") defines name_start[] and name_end[]; the bytes lie
 * between them, 64-byte aligned, followed by one NUL byte so that text can
 * be read as a C string. The path is as the compiler sees it: relative to
 * where make runs (the top of the repository), or absolute.
 *
 * Use it in a file compiled outside LTO (the Makefile's OBJECT_FLAGS):
 * link-time assembly would lose a top-level asm's data. Read-only data
 * lives in .rodata on ELF (Linux, x86-64 and aarch64) and in .rdata on
 * PE/COFF (Windows), whose assembler knows neither @progbits nor .previous.
 */
#if defined(_WIN32)
#define INCBIN_SECTION ".section .rdata,\"dr\"\n"
#define INCBIN_BACK ".text\n"
#else
#define INCBIN_SECTION ".section .rodata\n"
#define INCBIN_BACK ".previous\n"
#endif

#define INCBIN(name, path)                                                                                 \
    __asm__(INCBIN_SECTION ".balign 64\n"                                                                  \
                           ".globl " #name "_start\n" #name "_start:\n"                                   \
                           ".incbin \"" path "\"\n"                                                       \
                           ".globl " #name "_end\n" #name "_end:\n"                                       \
                           ".byte 0\n" INCBIN_BACK);                                                       \
    extern const unsigned char name##_start[], name##_end[]
