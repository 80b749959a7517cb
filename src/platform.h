#pragma once
/*
 * platform.h — what differs between Linux (POSIX) and Windows (mingw-w64),
 * behind one name each, so that the rest of the engine is written once.
 * platform.c holds both sides. Windows has no fork(): `annotate` and
 * `datagen`, whose workers are processes (tools/workers.h), are Linux-only.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* Where SyzygyPath separates its folders: ';' on Windows (whose paths hold
 * ':' after the drive letter, as Stockfish and Fathom have it), ':' elsewhere. */
#ifdef _WIN32
#define PLATFORM_PATH_SEPARATOR ";"
#define PLATFORM_NULL_DEVICE "NUL"
#else
#define PLATFORM_PATH_SEPARATOR ":"
#define PLATFORM_NULL_DEVICE "/dev/null"
#endif

/* Standard output and error as on Linux: lines end in LF alone. Windows's
 * text mode would end them in CR LF, which GUIs on Windows take either way
 * but programs on Linux that run the engine under wine may not (fastchess
 * reads "e2e4\r" as no move). Input stays in text mode: CR LF or LF. */
void platform_init_stdio(void);

/* A thread's stack of `bytes`, its lowest page a guard; NULL where the
 * platform's threads must allocate their own (Windows). */
void *platform_map_stack(size_t bytes);
void platform_unmap_stack(void *stack, size_t bytes);

/* Memory aligned to `alignment` (a power of two), as huge pages where the
 * system offers them; freed with platform_free_aligned. */
void *platform_alloc_aligned(size_t alignment, size_t bytes);
void platform_free_aligned(void *memory);

/* The machine's physical memory in MiB, 0 if unknown. */
size_t platform_memory_mb(void);

/* An exclusive lock on an open file, between processes that append to it. */
void platform_lock_file(FILE *f, bool lock);

/* Is input waiting on `fd` within `ms` milliseconds? Windows cannot wait
 * on a pipe: it answers true, and the read that follows blocks. */
bool platform_readable(int fd, int ms);

/* Sleeps about `ms` milliseconds (less when a signal comes). */
void platform_sleep_ms(int ms);

/* Memory the processes forked after this call all see (annotate's
 * progress counters); zeroed. Plain memory on Windows, which forks none. */
void *platform_map_shared(size_t bytes);
void platform_unmap_shared(void *memory, size_t bytes);

/* open_memstream(3), which Windows's C library lacks: text written to the
 * stream is had, NUL-terminated, in *text (to be freed) and *size once it
 * is closed with platform_memstream_close (0 then, as fclose). On Windows
 * the text goes through a temporary file, deleted when closed. */
FILE *platform_memstream(char **text, size_t *size);
int platform_memstream_close(FILE *stream);

/* getline(3), which Windows's C library lacks. */
ssize_t platform_getline(char **line, size_t *size, FILE *in);
