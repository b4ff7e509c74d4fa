/* Minimal freestanding runtime for the bad-input fixtures: they are linked
 * with -nostdlib so that they are small and their behaviour does not depend
 * on libc start-up code. */
#ifndef BAD_H
#define BAD_H
static inline long sys3(long n, long a, long b, long c) {
    register long a0 __asm__("a0") = a;
    register long a1 __asm__("a1") = b;
    register long a2 __asm__("a2") = c;
    register long a7 __asm__("a7") = n;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
    return a0;
}
#define SAY(s) sys3(64 /* write */, 1, (long)(s), sizeof(s) - 1)
static inline void __attribute__((noreturn)) sys_exit(long code) {
    sys3(93 /* exit */, code, 0, 0);
    for (;;) {}
}
/* _start: the kernel/qemu leaves sp 16-byte aligned; just call main. */
int main(void);
void __attribute__((noreturn, used)) _start_c(void) { sys_exit(main()); }
__asm__(".text\n.globl _start\n_start:\n"
        ".option push\n.option norelax\n  lla gp, __global_pointer$\n.option pop\n"
        "  call _start_c\n");
#endif
