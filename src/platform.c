/* platform.c — the Linux and the Windows side of platform.h. */
#include "platform.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#include <malloc.h>
#include <pthread.h>
#include <windows.h>
#else
#include <poll.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#endif

#ifdef _WIN32

void platform_init_stdio(void)
{
    _setmode(_fileno(stdout), _O_BINARY);
    _setmode(_fileno(stderr), _O_BINARY);
}

/* winpthreads takes no stack from the caller: the engine asks for a size. */
void *platform_map_stack(size_t bytes) { return (void)bytes, NULL; }
void platform_unmap_stack(void *stack, size_t bytes) { (void)stack, (void)bytes; }

void *platform_alloc_aligned(size_t alignment, size_t bytes) { return _aligned_malloc(bytes, alignment); }
void platform_free_aligned(void *memory) { _aligned_free(memory); }

size_t platform_memory_mb(void)
{
    MEMORYSTATUSEX status = { .dwLength = sizeof status };
    return GlobalMemoryStatusEx(&status) ? (size_t)(status.ullTotalPhys >> 20) : 0;
}

void platform_lock_file(FILE *f, bool lock)
{
    /* A lock on the first byte, the convention of appending writers. */
    HANDLE file = (HANDLE)_get_osfhandle(_fileno(f));
    OVERLAPPED at = { 0 };
    if (lock)
        LockFileEx(file, LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &at);
    else
        UnlockFileEx(file, 0, 1, 0, &at);
}

bool platform_readable(int fd, int ms) { return (void)fd, (void)ms, true; }

void platform_sleep_ms(int ms) { Sleep((DWORD)ms); }

void *platform_map_shared(size_t bytes) { return calloc(1, bytes); }
void platform_unmap_shared(void *memory, size_t bytes) { (void)bytes, free(memory); }

/* The streams open, with where their text goes when closed. */
enum { MEMSTREAMS_MAX = 16 };
static struct {
    FILE *stream;
    char **text;
    size_t *size;
} memstreams[MEMSTREAMS_MAX];
static pthread_mutex_t memstreams_lock = PTHREAD_MUTEX_INITIALIZER;

FILE *platform_memstream(char **text, size_t *size)
{
    char folder[MAX_PATH], path[MAX_PATH];
    if (!GetTempPathA(sizeof folder, folder) || !GetTempFileNameA(folder, "bac", 0, path))
        return NULL;
    FILE *stream = fopen(path, "w+bD"); /* D: deleted when closed */
    if (!stream)
        return NULL;
    pthread_mutex_lock(&memstreams_lock);
    int slot = 0;
    while (slot < MEMSTREAMS_MAX && memstreams[slot].stream)
        slot++;
    if (slot < MEMSTREAMS_MAX)
        memstreams[slot].stream = stream, memstreams[slot].text = text, memstreams[slot].size = size;
    pthread_mutex_unlock(&memstreams_lock);
    if (slot == MEMSTREAMS_MAX)
        return fclose(stream), NULL;
    return stream;
}

int platform_memstream_close(FILE *stream)
{
    pthread_mutex_lock(&memstreams_lock);
    int slot = 0;
    while (slot < MEMSTREAMS_MAX && memstreams[slot].stream != stream)
        slot++;
    char **text = memstreams[slot].text;
    size_t *size = memstreams[slot].size;
    memstreams[slot].stream = NULL;
    pthread_mutex_unlock(&memstreams_lock);
    long length = fflush(stream) == 0 && fseek(stream, 0, SEEK_END) == 0 ? ftell(stream) : -1;
    char *copy = length >= 0 ? malloc((size_t)length + 1) : NULL;
    bool ok = copy && fseek(stream, 0, SEEK_SET) == 0 && fread(copy, 1, (size_t)length, stream) == (size_t)length;
    fclose(stream);
    if (!ok)
        return free(copy), EOF;
    copy[length] = '\0';
    *text = copy, *size = (size_t)length;
    return 0;
}

ssize_t platform_getline(char **line, size_t *size, FILE *in)
{
    size_t used = 0;
    for (int c; (c = getc(in)) != EOF;) {
        if (used + 2 > *size) {
            size_t grown = *size ? *size * 2 : 128;
            char *bigger = realloc(*line, grown);
            if (!bigger)
                return -1;
            *line = bigger, *size = grown;
        }
        (*line)[used++] = (char)c;
        if (c == '\n')
            break;
    }
    if (used == 0)
        return -1;
    (*line)[used] = '\0';
    return (ssize_t)used;
}

#else

void platform_init_stdio(void) {}

void *platform_map_stack(size_t bytes)
{
    void *memory = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (memory == MAP_FAILED)
        return NULL;
    /* The lowest page is a guard: an overflow faults instead of writing past. */
    mprotect(memory, (size_t)sysconf(_SC_PAGESIZE), PROT_NONE);
    return memory;
}

void platform_unmap_stack(void *stack, size_t bytes) { munmap(stack, bytes); }

void *platform_alloc_aligned(size_t alignment, size_t bytes)
{
    enum { HUGE_PAGE = 2 * 1024 * 1024 };
    void *memory = NULL;
    if (posix_memalign(&memory, alignment, bytes) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    if (bytes >= HUGE_PAGE)
        madvise(memory, bytes, MADV_HUGEPAGE);
#endif
    return memory;
}

void platform_free_aligned(void *memory) { free(memory); }

size_t platform_memory_mb(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page_size > 0 ? (size_t)pages / 1024 * (size_t)page_size / 1024 : 0;
}

void platform_lock_file(FILE *f, bool lock) { flock(fileno(f), lock ? LOCK_EX : LOCK_UN); }

bool platform_readable(int fd, int ms)
{
    struct pollfd p = { .fd = fd, .events = POLLIN };
    int ready = poll(&p, 1, ms);
    return ready > 0 || (ready < 0 && errno != EINTR); /* an error: the read that follows tells it */
}

void platform_sleep_ms(int ms)
{
    struct timespec pause = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&pause, NULL);
}

void *platform_map_shared(size_t bytes)
{
    void *memory = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    return memory == MAP_FAILED ? NULL : memory;
}

void platform_unmap_shared(void *memory, size_t bytes) { munmap(memory, bytes); }

FILE *platform_memstream(char **text, size_t *size) { return open_memstream(text, size); }
int platform_memstream_close(FILE *stream) { return fclose(stream); }

ssize_t platform_getline(char **line, size_t *size, FILE *in) { return getline(line, size, in); }

#endif
