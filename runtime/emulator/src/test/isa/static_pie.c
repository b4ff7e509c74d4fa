/*
 * A static position-independent executable (ET_DYN without an interpreter), which the
 * emulator loads at a bias. No libc: Debian's cross toolchain has no rcrt1.o, so the
 * program makes its system calls itself. Checks PC-relative data access, a writable
 * global and the exit status.
 */
static const char msg[] = "hello from a static PIE\n";
static long counter = 40;

void _start(void) {
  register long a0 asm("a0") = 1;
  register long a1 asm("a1") = (long) msg;
  register long a2 asm("a2") = sizeof msg - 1;
  register long a7 asm("a7") = 64; /* write */
  asm volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
  counter += 2;
  register long e0 asm("a0") = counter;
  register long e7 asm("a7") = 93; /* exit */
  asm volatile("ecall" ::"r"(e0), "r"(e7));
  for (;;) {
  }
}
