/* test_workers.c — the forked workers of the batch tools (workers.h): a
 * start that fails part-way closes every pipe it opened and stops the
 * workers already started. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "tools/workers.h"

/* The descriptors this process has open (its own /proc entry's listing
 * holds one more while it is read). */
static int open_descriptors(void)
{
    DIR *dir = opendir("/proc/self/fd");
    cr_assert_not_null(dir);
    int count = -1;
    while (readdir(dir))
        count++;
    closedir(dir);
    return count - 2; /* "." and ".." */
}

static void wait_for_stop(int worker, int fd, void *context)
{
    (void)worker, (void)fd, (void)context;
    while (!workers_should_stop())
        usleep(1000);
}

static bool descriptor_is_free(int fd)
{
    return fcntl(fd, F_GETFD) == -1 && errno == EBADF;
}

/* Room for exactly `free` more descriptors: the limit is set just above the
 * `free`-th unused number. The unused numbers need not be consecutive (CI may
 * start the tests with standard input closed, or with gaps left by the test
 * runner), and a new descriptor always takes the lowest unused one. */
static bool limit_descriptors_to(int free, struct rlimit *saved)
{
    if (getrlimit(RLIMIT_NOFILE, saved) != 0)
        return false;
    int unused = 0, fd = 0;
    for (; unused < free && (rlim_t)fd < saved->rlim_cur; fd++)
        unused += descriptor_is_free(fd);
    struct rlimit tight = { .rlim_cur = (rlim_t)fd, .rlim_max = saved->rlim_max };
    return unused == free && setrlimit(RLIMIT_NOFILE, &tight) == 0;
}

Test(workers, a_start_that_fails_part_way_closes_every_pipe)
{
    int before = open_descriptors();
    /* Three free descriptors: worker 0's pipe takes two and gives one back
     * (its write end goes to the worker), so does worker 1's, and worker
     * 2's pipe() fails. */
    struct rlimit saved;
    cr_assert(limit_descriptors_to(3, &saved), "could not leave exactly 3 descriptors free");
    int fds[4];
    bool started = workers_start(4, wait_for_stop, NULL, fds);
    setrlimit(RLIMIT_NOFILE, &saved);
    cr_assert_not(started, "4 workers started with room for the pipes of 2");
    cr_assert(workers_wait(), "the 2 workers started were not stopped cleanly");
    int after = open_descriptors();
    cr_assert_eq(after, before, "%d descriptors open before the failed start, %d after", before, after);
}
