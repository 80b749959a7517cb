/* test_workers.c — the forked workers of the batch tools (workers.h): a
 * start that fails part-way closes every pipe it opened and stops the
 * workers already started. */
#include <criterion/criterion.h>
#include <dirent.h>
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

/* Room for exactly `free` more descriptors: the lowest free numbers, found by
 * dup(), must be consecutive (a new descriptor takes the lowest free one). */
static bool limit_descriptors_to(int free, struct rlimit *saved)
{
    int probes[8], lowest = -1;
    bool consecutive = true;
    for (int i = 0; i < free; i++) {
        probes[i] = dup(0);
        consecutive = consecutive && probes[i] >= 0 && (i == 0 || probes[i] == probes[i - 1] + 1);
    }
    lowest = probes[0];
    for (int i = 0; i < free; i++)
        if (probes[i] >= 0)
            close(probes[i]);
    getrlimit(RLIMIT_NOFILE, saved);
    struct rlimit tight = { .rlim_cur = (rlim_t)(lowest + free), .rlim_max = saved->rlim_max };
    return consecutive && setrlimit(RLIMIT_NOFILE, &tight) == 0;
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
