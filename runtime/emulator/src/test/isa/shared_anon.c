/* MAP_SHARED | MAP_ANONYMOUS memory made before fork is shared between parent and child (issue
 * 28): they communicate through it both ways, a grandchild shares it too, while a MAP_PRIVATE
 * mapping and the rest of memory stay copies. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static int global = 1;

int main(void) {
    setvbuf(stdout, 0, _IONBF, 0);
    volatile int *shared = mmap(0, 8192, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    volatile int *private = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED || private == MAP_FAILED) return 2;
    shared[0] = 0;      /* the parent's go signal */
    shared[1] = 0;      /* the child's answer */
    shared[1024] = 5;   /* the second page, touched before the fork */
    private[0] = 7;
    pid_t pid = fork();
    if (pid == 0) {
        while (__atomic_load_n(&shared[0], __ATOMIC_SEQ_CST) == 0) sched_yield();
        shared[1] = shared[0] * 2;       /* reply to the parent through the shared page */
        shared[1024] += 1;
        shared[2000] = 99;              /* second page, past what the parent touched */
        private[0] = 70;                /* the child's copy only */
        global = 10;
        pid_t g = fork();
        if (g == 0) {                   /* a grandchild shares it too */
            shared[3] = 3;
            _exit(0);
        }
        int st;
        waitpid(g, &st, 0);
        _exit(0);
    }
    __atomic_store_n(&shared[0], 21, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&shared[1], __ATOMIC_SEQ_CST) == 0) sched_yield();
    printf("child answered %d through the shared page\n", shared[1]);
    int st;
    waitpid(pid, &st, 0);
    printf("shared: second page %d, untouched word %d, grandchild wrote %d\n", shared[1024],
           shared[2000], shared[3]);
    printf("private mapping %d, global %d (copies)\n", private[0], global);
    munmap((void *)shared, 8192);
    return 0;
}
