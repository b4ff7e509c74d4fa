/* syscalls: the Linux system calls glibc programs commonly make, printing
 * only values that are identical on every host:
 *   write/writev (stdout and stderr), read of stdin at EOF (run with
 *   stdin=/dev/null), openat/write/read/lseek/close/unlink of a file in the
 *   current directory, fstat/newfstatat (size and S_IFMT only), error paths
 *   (ENOENT, EBADF, EINVAL), dup/dup3/pipe2/fcntl, brk growth (deltas only)
 *   and malloc of small and large sizes, anonymous mmap/mprotect/munmap,
 *   getpid/getppid/gettid/getuid (success only), uname (sysname, machine),
 *   clock_gettime/gettimeofday (monotonicity/plausibility only), nanosleep,
 *   getrandom (length only), ioctl(TCGETS) on a non-tty stdout (ENOTTY), an
 *   unimplemented syscall number (ENOSYS), and finally exit(42) so that the
 *   exit status propagation is tested.
 * Must run with stdout/stderr redirected (not a tty), stdin at EOF, and a
 * writable current directory. */
#define _GNU_SOURCE
#include "common.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define FNAME "isa_syscalls_tmp.txt"

static void res(const char *what, long r) {
    /* r < 0 means "-1 with errno set" for libc wrappers */
    if (r < 0)
        printf("%-28s -> -1 errno=%d\n", what, errno);
    else
        printf("%-28s -> %ld\n", what, r);
}

static void test_write(void) {
    fflush(stdout);
    const char msg[] = "write(1): hello\n";
    long r = write(1, msg, sizeof msg - 1);
    struct iovec iov[4] = {
        {"writev: ", 8}, {"", 0}, {"part2 ", 6}, {"part3\n", 6},
    };
    long v = writev(1, iov, 4);
    const char err[] = "write(2): to stderr\n";
    long e = write(2, err, sizeof err - 1);
    res("write stdout", r);
    res("writev stdout", v);
    res("write stderr", e);
    fprintf(stderr, "fprintf(stderr): %d %s\n", 7, "ok");
    errno = 0;
    res("write to fd 99", write(99, "x", 1));
    res("write count 0", write(1, msg, 0));
}

static void test_stdin(void) {
    char buf[64];
    long r = read(0, buf, sizeof buf);
    res("read stdin (EOF)", r);
    r = read(0, buf, sizeof buf);
    res("read stdin again", r);
    int c = getchar();
    printf("getchar at EOF = %d feof=%d\n", c, feof(stdin) != 0);
}

static void test_file(void) {
    unlink(FNAME); /* in case of a leftover */
    int fd = openat(AT_FDCWD, FNAME, O_CREAT | O_RDWR | O_TRUNC, 0644);
    res("openat create", fd >= 0 ? 3 : -1); /* the number itself is printed below */
    printf("fd is lowest free (3): %d\n", fd == 3);
    const char data[] = "0123456789abcdefghijklmnopqrstuvwxyz\n";
    res("write file", write(fd, data, sizeof data - 1));
    res("lseek cur", lseek(fd, 0, SEEK_CUR));
    res("lseek set 10", lseek(fd, 10, SEEK_SET));
    char buf[64] = {0};
    res("read 5", read(fd, buf, 5));
    printf("read data: %s\n", buf);
    res("lseek cur -3", lseek(fd, -3, SEEK_CUR));
    res("lseek end -1", lseek(fd, -1, SEEK_END));
    res("lseek set -1 (EINVAL)", lseek(fd, -1, SEEK_SET));
    res("lseek whence 9 (EINVAL)", lseek(fd, 0, 9));
    /* write past the end leaves a hole of zeros */
    res("lseek end +4", lseek(fd, 4, SEEK_END));
    res("write after hole", write(fd, "Z", 1));
    res("pread 8 @33", pread(fd, buf, 8, 33));
    printf("pread bytes:");
    for (int i = 0; i < 8; i++) printf(" %02x", (unsigned char)buf[i]);
    printf("\n");
    res("pwrite 3 @0", pwrite(fd, "ABC", 3, 0));
    res("lseek cur (unchanged)", lseek(fd, 0, SEEK_CUR));

    struct stat st;
    res("fstat", fstat(fd, &st));
    printf("fstat size=%lld type=%06o\n", (long long)st.st_size, st.st_mode & S_IFMT);
    long rs = syscall(SYS_fstat, fd, &st);
    res("raw SYS_fstat", rs);
    printf("raw fstat size=%lld type=%06o nlink=%lu\n", (long long)st.st_size,
           st.st_mode & S_IFMT, (unsigned long)st.st_nlink);
    res("close", close(fd));
    res("close again (EBADF)", close(fd));
    res("read closed fd (EBADF)", read(fd, buf, 1));

    res("newfstatat file", fstatat(AT_FDCWD, FNAME, &st, 0));
    printf("fstatat size=%lld type=%06o\n", (long long)st.st_size, st.st_mode & S_IFMT);
    res("stat dir .", stat(".", &st));
    printf("stat . type=%06o\n", st.st_mode & S_IFMT);
    res("fstat stdin (/dev/null)", fstat(0, &st));
    printf("stdin type=%06o\n", st.st_mode & S_IFMT);

    fd = open(FNAME, O_RDONLY);
    memset(buf, 0, sizeof buf);
    res("open O_RDONLY", fd >= 0 ? 0 : -1);
    res("read all", read(fd, buf, sizeof buf - 1));
    for (int i = 0; i < 42; i++) if (buf[i] == 0 || buf[i] == '\n') buf[i] = '.';
    printf("content: %.42s\n", buf);
    res("read at EOF", read(fd, buf, 8));
    res("write O_RDONLY (EBADF)", write(fd, "x", 1));
    close(fd);

    res("open file O_DIRECTORY (ENOTDIR)", open(FNAME, O_RDONLY | O_DIRECTORY));
    res("open . O_WRONLY (EISDIR)", open(".", O_WRONLY));
    res("open O_CREAT|O_EXCL (EEXIST)", open(FNAME, O_CREAT | O_EXCL | O_WRONLY, 0644));
    res("unlink", unlink(FNAME));
    res("unlink again (ENOENT)", unlink(FNAME));
    res("stat unlinked (ENOENT)", stat(FNAME, &st));
    res("open missing (ENOENT)", open("isa_no_such_file", O_RDONLY));
}

static void test_fds(void) {
    int p[2];
    res("pipe2", pipe2(p, O_CLOEXEC));
    res("fcntl F_GETFD", fcntl(p[0], F_GETFD));
    res("fcntl F_GETFL wr & O_ACCMODE", fcntl(p[1], F_GETFL) & O_ACCMODE);
    res("write pipe", write(p[1], "pipe!", 5));
    int d = dup(p[0]);
    res("dup is lowest free", d == p[1] + 1);
    char buf[16] = {0};
    res("read dup", read(d, buf, sizeof buf));
    printf("pipe data: %s\n", buf);
    res("dup3 to 10", dup3(p[1], 10, 0));
    res("write via 10", write(10, "x", 1));
    res("read 1 byte", read(p[0], buf, 1));
    close(p[1]);
    close(10);
    res("read closed pipe (EOF)", read(p[0], buf, 1));
    close(p[0]);
    close(d);
    res("dup bad fd (EBADF)", dup(77));
}

static void test_memory(void) {
    void *b0 = sbrk(0);
    long r = syscall(SYS_brk, 0);
    printf("sbrk(0)==brk(0): %d\n", (long)b0 == r);
    long r2 = syscall(SYS_brk, r + 65536);
    printf("brk +64K delta: %ld\n", r2 - r);
    memset((void *)r, 0x5a, 65536); /* new memory is usable */
    long r3 = syscall(SYS_brk, r + 4096);
    printf("brk shrink delta: %ld\n", r3 - r);
    long r4 = syscall(SYS_brk, 1); /* invalid: returns current break */
    printf("brk(1) returns current: %d\n", r4 == r3);

    /* small allocations grow the heap via brk */
    void *start = sbrk(0);
    unsigned long sum = 0;
    char *ptrs[200];
    for (int i = 0; i < 200; i++) {
        ptrs[i] = malloc(1000 + i);
        memset(ptrs[i], i, 1000 + i);
    }
    for (int i = 0; i < 200; i++) sum += (unsigned char)ptrs[i][999] + ptrs[i][0];
    void *end = sbrk(0);
    printf("small mallocs ok, sum=%lu, heap grew: %d\n", sum, end > start);
    for (int i = 0; i < 200; i++) free(ptrs[i]);
    /* large allocations (above the mmap threshold) */
    char *big = malloc(8 << 20);
    printf("malloc 8MiB: %s\n", big ? "ok" : "NULL");
    big[0] = 1;
    big[(8 << 20) - 1] = 2;
    printf("big ends: %d %d\n", big[0], big[(8 << 20) - 1]);
    free(big);
    char *c = calloc(1 << 20, 4);
    long nz = 0;
    for (long i = 0; i < (4L << 20); i += 4093) nz += c[i] != 0;
    printf("calloc 4MiB zero: %d\n", nz == 0);
    char *g = realloc(NULL, 10);
    strcpy(g, "realloc");
    g = realloc(g, 300000);
    printf("realloc grow keeps data: %s\n", g);
    free(g);

    /* anonymous mmap / mprotect / munmap */
    char *m = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("mmap anon: %s, page aligned: %d\n", m == MAP_FAILED ? "failed" : "ok",
           ((unsigned long)m & 4095) == 0);
    int zero = 1;
    for (int i = 0; i < 3 * 4096; i++) if (m[i]) zero = 0;
    printf("mmap zero-filled: %d\n", zero);
    m[0] = 'a'; m[4096] = 'b'; m[8192] = 'c';
    res("mprotect middle RO", mprotect(m + 4096, 4096, PROT_READ));
    printf("read RO page: %c\n", m[4096]);
    res("mprotect unaligned (EINVAL)", mprotect(m + 1, 4096, PROT_READ));
    res("munmap first page", munmap(m, 4096));
    res("munmap rest", munmap(m + 4096, 2 * 4096));
    res("munmap len 0 (EINVAL)", munmap(m, 0));
    errno = 0;
    void *bad = mmap(NULL, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    res("mmap len 0 (EINVAL)", bad == MAP_FAILED ? -1 : 0);
    /* file-less MAP_FIXED over a region we own */
    char *f = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    f[4096] = 'x';
    char *f2 = mmap(f + 4096, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    printf("MAP_FIXED same address: %d, replaced page zero: %d\n", f2 == f + 4096, f[4096] == 0);
    munmap(f, 2 * 4096);
}

static void test_ids_time(void) {
    printf("getpid ok: %d\n", getpid() > 0);
    printf("getppid ok: %d\n", getppid() >= 0);
    printf("gettid==getpid: %d\n", (long)syscall(SYS_gettid) == (long)getpid());
    printf("getuid/geteuid consistent: %d\n", getuid() == getuid() && geteuid() == geteuid());
    struct utsname u;
    res("uname", uname(&u));
    printf("sysname=%s machine=%s\n", u.sysname, u.machine);

    struct timespec a, b, rt;
    clock_gettime(CLOCK_MONOTONIC, &a);
    struct timespec req = {0, 2000000}; /* 2 ms */
    res("nanosleep 2ms", nanosleep(&req, NULL));
    clock_gettime(CLOCK_MONOTONIC, &b);
    long long ns = (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec);
    printf("monotonic advanced >= 2ms: %d\n", ns >= 2000000);
    res("clock_gettime REALTIME", clock_gettime(CLOCK_REALTIME, &rt));
    printf("realtime after 2020: %d, nsec in range: %d\n", rt.tv_sec > 1577836800,
           rt.tv_nsec >= 0 && rt.tv_nsec < 1000000000);
    struct timeval tv;
    res("gettimeofday", gettimeofday(&tv, NULL));
    printf("gettimeofday close to realtime: %d\n", tv.tv_sec - rt.tv_sec < 5 && tv.tv_sec >= rt.tv_sec);
    res("clock_getres MONOTONIC", clock_getres(CLOCK_MONOTONIC, &a));
    res("clock_gettime bad clock", clock_gettime((clockid_t)1234, &a));
    res("time() > 2020", time(NULL) > 1577836800);

    unsigned char rnd[16];
    res("getrandom 16", getrandom(rnd, sizeof rnd, 0));
    res("getrandom 0", getrandom(rnd, 0, 0));
}

static void test_misc(void) {
    struct termios t;
    errno = 0;
    res("ioctl TCGETS stdout", ioctl(1, TCGETS, &t));
    res("isatty(1)", isatty(1));
    errno = 0;
    res("syscall 999 (ENOSYS)", syscall(999));
    res("syscall 500 (ENOSYS)", syscall(500));
    res("sched_yield", syscall(SYS_sched_yield));
    char cwd[4096];
    printf("getcwd ok: %d\n", getcwd(cwd, sizeof cwd) != NULL && cwd[0] == '/');
    res("getcwd size 1 (ERANGE)", getcwd(cwd, 1) ? 0 : -1);
    res("access . W_OK", access(".", W_OK));
    res("chdir missing (ENOENT)", chdir("isa_no_such_dir"));
}

int main(void) {
    printf("syscalls start\n");
    test_write();
    test_stdin();
    test_file();
    test_fds();
    test_memory();
    test_ids_time();
    test_misc();
    printf("exiting with 42\n");
    exit(42);
}
