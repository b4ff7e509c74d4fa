/* The timing microbenchmarks' frame: no libc on RISC-V (a few dozen instructions before the
 * kernel, so that its behaviour is all the model sees), an ordinary main on the host (cachegrind).
 * Each program's kernel(argc, argv) returns a checksum that becomes the exit status's low byte,
 * so that the compiler cannot drop the work. */
#ifndef MICRO_H
#define MICRO_H

typedef unsigned long u64;

static long kernel(int argc, char **argv);

static long num(const char *s) {
  long v = 0;
  while (*s >= '0' && *s <= '9') {
    v = v * 10 + (*s++ - '0');
  }
  if (*s == 'K') v <<= 10;
  if (*s == 'M') v <<= 20;
  return v;
}

#ifdef __riscv
static void sys_exit(long status) {
  register long a0 __asm__("a0") = status;
  register long a7 __asm__("a7") = 93;
  __asm__ volatile("ecall" : : "r"(a0), "r"(a7));
  for (;;) {
  }
}

__attribute__((used)) static void start_c(long *sp) {
  int argc = (int)sp[0];
  char **argv = (char **)(sp + 1);
  sys_exit(kernel(argc, argv) & 0x7f);
}

__asm__(".globl _start\n_start:\n  mv a0, sp\n  .option push\n  .option norelax\n"
        "  lla gp, __global_pointer$\n  .option pop\n  call start_c\n");
#else
int main(int argc, char **argv) { return (int)(kernel(argc, argv) & 0x7f); }
#endif

#endif
