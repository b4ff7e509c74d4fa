/* A blocked call counts one instruction (issue 28): the instructions retired across a read() of a
 * pipe are the same whether the data was already there or the read blocked until a child wrote it.
 * acf only: rdinstret is the hart's retired-instruction count there (qemu reads the host's TSC). */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static inline unsigned long instret(void) {
    unsigned long v;
    __asm__ volatile("rdinstret %0" : "=r"(v));
    return v;
}

static unsigned long timed_read(int fd) {
    char c;
    unsigned long a = instret();
    long n = read(fd, &c, 1);
    unsigned long b = instret();
    return n == 1 ? b - a : 0;
}

int main(void) {
    int p[2];
    if (pipe(p)) return 2;
    if (write(p[1], "x", 1) != 1) return 3;
    unsigned long ready = timed_read(p[0]);
    pid_t pid = fork();
    if (pid == 0) {
        for (volatile int i = 0; i < 100000; i++) {
        }
        if (write(p[1], "y", 1) != 1) _exit(4);
        _exit(0);
    }
    unsigned long blocked = timed_read(p[0]);
    int st;
    waitpid(pid, &st, 0);
    printf("read with data ready: %lu instructions, read that blocked: %lu\n", ready, blocked);
    return ready == blocked && ready > 0 ? 0 : 1;
}
