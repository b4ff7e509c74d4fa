/* Ordinary and hostile system-call arguments that Linux answers with an errno (or a signal).
 *
 *   hostile errnos        raw calls with bad lengths, sizes, ranges and descriptors
 *   hostile pipe-stdio    stdio on a pipe (fstat of a pipe: fdopen, fprintf, fflush)
 *   hostile sigpipe       write to a pipe whose reader is closed: dies of SIGPIPE (141)
 *   hostile sigpipe-ign   the same with SIGPIPE ignored: EPIPE
 *   hostile fill-pipe     fills a pipe nobody reads (non-blocking: EAGAIN at 64 KiB)
 *   hostile nofile        opens descriptors until EMFILE; prints how many and getrlimit
 *   hostile malloc N      mallocs and touches N MiB; prints whether it got it
 *   hostile rlimits       prints RLIMIT_NOFILE and RLIMIT_AS
 *   hostile spin N        N iterations of a loop without system calls, then prints a sum
 *   hostile yes           prints lines for ever (for `acf run ... | head`: must die of SIGPIPE)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

static void show(const char *name, long r) {
  if (r == -1) printf("%s: -1 errno=%d\n", name, errno);
  else printf("%s: %ld\n", name, r);
}

static void errnos(void) {
  char buf[16];
  show("read-neg", syscall(SYS_read, 0, buf, -1L));
  show("write-neg", syscall(SYS_write, 1, buf, -5L));
  show("write-badfd", syscall(SYS_write, 99, buf, 1L));
  show("getrandom-neg", syscall(SYS_getrandom, buf, -1L, 0) > 0 ? 0 : -1);
  show("getrandom-flags", syscall(SYS_getrandom, buf, 4L, 0x100));
  struct iovec iov[2] = {{buf, 4}, {buf, (size_t) -1}};
  show("writev-neg", syscall(SYS_writev, 1, iov, 2));
  show("writev-cnt-neg", syscall(SYS_writev, 1, iov, -1));
  show("writev-cnt-huge", syscall(SYS_writev, 1, iov, 5000));
  show("readv-neg", syscall(SYS_readv, 0, iov, -1));
  show("sigprocmask-size-neg", syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, buf, -1L));
  show("sigprocmask-size-4", syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, buf, 4L));
  show("sigaction-size", syscall(SYS_rt_sigaction, SIGINT, NULL, buf, 16L));
  show("mprotect-huge", syscall(SYS_mprotect, 0x10000L, -4096L, PROT_READ));
  show("mprotect-unaligned", syscall(SYS_mprotect, 0x10001L, 4096L, PROT_READ));
  show("munmap-huge", syscall(SYS_munmap, 0x10000L, -4096L));
  show("mmap-len-0", syscall(SYS_mmap, 0L, 0L, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0L));
  show("mmap-len-neg", syscall(SYS_mmap, 0L, -4096L, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0L));
  show("mmap-badfd", syscall(SYS_mmap, 0L, 4096L, PROT_READ, MAP_PRIVATE, 77, 0L));
  show("mmap-off-unaligned", syscall(SYS_mmap, 0L, 4096L, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 5L));
  long cur = syscall(SYS_brk, 0L);
  show("brk-huge-moves", syscall(SYS_brk, -4096L) == cur ? 0 : 1);
  show("brk-1t-moves", syscall(SYS_brk, cur + (1L << 40)) == cur ? 0 : 1);
  show("dup3-neg", syscall(SYS_dup3, 1, -1, 0));
  show("dup3-same", syscall(SYS_dup3, 1, 1, 0));
  show("dup3-flags", syscall(SYS_dup3, 1, 9, 0x1));
  show("dup3-huge", syscall(SYS_dup3, 1, 1 << 30, 0));
  show("fcntl-dupfd-neg", syscall(SYS_fcntl, 1, F_DUPFD, -1L));
  show("close-neg", syscall(SYS_close, -1));
  show("lseek-pipe", (long) (lseek(0, 0, SEEK_CUR) < 0 ? -1 : 0));
  static char lp[5000];
  memset(lp, 'a', 4500);
  lp[4500] = 0;
  show("open-long", syscall(SYS_openat, AT_FDCWD, lp, O_RDONLY));
  show("open-fault", syscall(SYS_openat, AT_FDCWD, (char *) 8, O_RDONLY));
  show("open-empty", syscall(SYS_openat, AT_FDCWD, "", O_RDONLY));
  show("readlink-size-0", syscall(SYS_readlinkat, AT_FDCWD, "/proc/self/exe", buf, 0L));
  show("fstat-badfd", syscall(SYS_fstat, 55, buf));
  /* A 3 GiB file mapping: a sparse file of that size. */
  int fd = open("big.bin", O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    ftruncate(fd, 3L << 30);
    void *p = mmap(NULL, 3L << 30, PROT_READ, MAP_PRIVATE, fd, 0);
    printf("mmap-3g: %s\n", p == MAP_FAILED ? (errno == ENOMEM ? "ENOMEM" : "other") : "mapped");
    close(fd);
    unlink("big.bin");
  }
}

static void pipe_stdio(void) {
  int p[2];
  if (pipe(p) != 0) { perror("pipe"); exit(1); }
  FILE *w = fdopen(p[1], "w");
  FILE *r = fdopen(p[0], "r");
  fprintf(w, "through a pipe %d\n", 42);
  fflush(w);
  fclose(w);
  char line[64];
  if (fgets(line, sizeof line, r)) fputs(line, stdout);
  struct stat st;
  fstat(p[0], &st);
  printf("fifo: %d\n", S_ISFIFO(st.st_mode));
}

static void sigpipe(int ignore) {
  if (ignore) signal(SIGPIPE, SIG_IGN);
  int p[2];
  if (pipe(p) != 0) { perror("pipe"); exit(1); }
  close(p[0]);
  printf("before\n");
  fflush(stdout);
  long r = write(p[1], "x", 1);
  printf("write returned %ld errno %d\n", r, errno);
}

static void fill_pipe(void) {
  int p[2];
  if (pipe2(p, O_NONBLOCK) != 0) { perror("pipe"); exit(1); }
  static char chunk[4096];
  long total = 0;
  for (int i = 0; i < 100000; i++) {
    long n = write(p[1], chunk, sizeof chunk);
    if (n < 0) {
      printf("full after %ld bytes: errno %d\n", total, errno);
      return;
    }
    total += n;
  }
  printf("never full: %ld\n", total);
}

static void nofile(void) {
  struct rlimit rl;
  getrlimit(RLIMIT_NOFILE, &rl);
  printf("soft %ld hard %ld\n", (long) rl.rlim_cur, (long) rl.rlim_max);
  int n = 0;
  int last = -1;
  for (;;) {
    int fd = open("/dev/null", O_RDONLY);
    if (fd < 0) {
      printf("opened %d, then errno %d, last fd %d\n", n, errno, last);
      break;
    }
    last = fd;
    n++;
  }
}

static void big_malloc(long mib) {
  char *p = malloc(mib << 20);
  if (!p) {
    printf("malloc %ld MiB: NULL errno %d\n", mib, errno);
    return;
  }
  for (long i = 0; i < (mib << 20); i += 4096) p[i] = 1;
  printf("malloc %ld MiB: ok\n", mib);
}

static void rlimits(void) {
  struct rlimit rl;
  getrlimit(RLIMIT_NOFILE, &rl);
  printf("nofile %ld %ld\n", (long) rl.rlim_cur, (long) rl.rlim_max);
  getrlimit(RLIMIT_AS, &rl);
  printf("as %ld %ld\n", (long) rl.rlim_cur, (long) rl.rlim_max);
}

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  setvbuf(stdout, NULL, _IONBF, 0);
  const char *m = argv[1];
  if (!strcmp(m, "errnos")) errnos();
  else if (!strcmp(m, "pipe-stdio")) pipe_stdio();
  else if (!strcmp(m, "sigpipe")) sigpipe(0);
  else if (!strcmp(m, "sigpipe-ign")) sigpipe(1);
  else if (!strcmp(m, "fill-pipe")) fill_pipe();
  else if (!strcmp(m, "nofile")) nofile();
  else if (!strcmp(m, "malloc") && argc == 3) big_malloc(atol(argv[2]));
  else if (!strcmp(m, "rlimits")) rlimits();
  else if (!strcmp(m, "yes")) for (;;) puts("y");
  else if (!strcmp(m, "spin") && argc == 3) {
    volatile unsigned long sum = 0;
    for (long i = atol(argv[2]); i > 0; i--) sum += i;
    printf("%lu\n", (unsigned long) sum);
  }
  else return 2;
  return 0;
}
