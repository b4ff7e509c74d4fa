/* System calls acf refuses on purpose, numbers riscv64 does not have, and a call acf does not
 * implement (io_setup), for UnsupportedSyscallTest: `--on-unsupported` decides whether the run
 * stops at io_setup (fail) or the guest sees ENOSYS (enosys, warn). */
#include <errno.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

static void show(const char *what, long r) {
  printf("%-10s -> %ld errno %d\n", what, r, r < 0 ? errno : 0);
  fflush(stdout);
}

int main(void) {
  long ctx = 0;
  errno = 0;
  show("rseq", syscall(SYS_rseq, 0L, 0L, 0L, 0L));
  errno = 0;
  show("nr 500", syscall(500, 1L, 2L));
  errno = 0;
  show("io_setup", syscall(SYS_io_setup, 1L, &ctx));
  errno = 0;
  show("io_setup", syscall(SYS_io_setup, 2L, &ctx));
  return 3;
}
