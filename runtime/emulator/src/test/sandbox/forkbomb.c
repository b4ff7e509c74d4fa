/* A fork bomb: every process forks until fork fails, then reaps its children
 * and exits with the number of processes below it. Under acf's process limit
 * (--limit nproc, default 32) fork ends in EAGAIN and the tree unwinds. */
#include <errno.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
    pid_t root = getpid();
    int made = 0, err = 0;
    for (;;) {
        pid_t p = fork();
        if (p < 0) {
            err = errno;
            break;
        }
        if (p == 0) {
            made = 0; /* a child forks on too */
            continue;
        }
        made++;
    }
    int below = made, st;
    while (wait(&st) > 0)
        below += WEXITSTATUS(st);
    if (getpid() == root)
        printf("processes=%d error=%s\n", below + 1, err == EAGAIN ? "EAGAIN" : "other");
    return below > 255 ? 255 : below;
}
