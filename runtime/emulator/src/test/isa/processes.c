/* Guest processes: fork, wait4/waitpid and waitid, exit statuses and deaths by
 * signal reported to the parent, pipes between parent and child, getppid,
 * vfork + _exit, a small tree of processes, and memory that fork copies.
 * Output comes only from the parent, after the children it depends on ended,
 * so it is the same under any scheduling. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int global = 1;

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0); /* no buffered output duplicated into children */
    pid_t me = getpid();

    /* fork + exit status + copied memory. */
    pid_t c = fork();
    if (c == 0) {
        global = 2;
        _exit(getppid() == me ? 42 : 1);
    }
    int st = 0;
    pid_t w = waitpid(c, &st, 0);
    printf("fork: waited=%d exited=%d status=%d parent_global=%d\n", w == c, WIFEXITED(st),
           WEXITSTATUS(st), global);

    /* A pipe from child to parent: the child writes more than one read takes. */
    int fds[2];
    if (pipe(fds) != 0)
        return 1;
    c = fork();
    if (c == 0) {
        close(fds[0]);
        char buf[1000];
        for (int i = 0; i < 200; i++) {
            memset(buf, 'a' + i % 26, sizeof buf);
            if (write(fds[1], buf, sizeof buf) != sizeof buf)
                _exit(3);
        }
        _exit(0);
    }
    close(fds[1]);
    long total = 0, sum = 0;
    char buf[4096];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof buf)) > 0) {
        total += n;
        for (ssize_t i = 0; i < n; i++)
            sum += buf[i];
    }
    close(fds[0]);
    waitpid(c, &st, 0);
    printf("pipe: bytes=%ld sum=%ld eof=%d child=%d\n", total, sum, n == 0, WEXITSTATUS(st));

    /* A pipe from parent to child and back (a filter). */
    int down[2], up[2];
    pipe(down);
    pipe(up);
    c = fork();
    if (c == 0) {
        close(down[1]);
        close(up[0]);
        char b[256];
        ssize_t k;
        while ((k = read(down[0], b, sizeof b)) > 0) {
            for (ssize_t i = 0; i < k; i++)
                if (b[i] >= 'a' && b[i] <= 'z')
                    b[i] -= 32;
            write(up[1], b, k);
        }
        _exit(0);
    }
    close(down[0]);
    close(up[1]);
    const char *msg = "hello from the parent";
    write(down[1], msg, strlen(msg));
    close(down[1]);
    char reply[64] = {0};
    ssize_t got = 0, k2;
    while ((k2 = read(up[0], reply + got, sizeof reply - 1 - got)) > 0)
        got += k2;
    waitpid(c, NULL, 0);
    printf("filter: %s\n", reply);

    /* Death by a signal, seen by the parent. */
    c = fork();
    if (c == 0) {
        raise(SIGKILL);
        _exit(0);
    }
    waitpid(c, &st, 0);
    printf("signal: signaled=%d sig=%d\n", WIFSIGNALED(st), WIFSIGNALED(st) ? WTERMSIG(st) : 0);

    /* A tree: three children, each with a child; statuses add up. */
    int statuses = 0;
    for (int i = 1; i <= 3; i++) {
        c = fork();
        if (c == 0) {
            pid_t g = fork();
            if (g == 0)
                _exit(i * 10);
            int gs;
            waitpid(g, &gs, 0);
            _exit(WEXITSTATUS(gs) + i);
        }
    }
    int reaped = 0;
    while ((w = wait(&st)) > 0) {
        reaped++;
        statuses += WEXITSTATUS(st);
    }
    printf("tree: reaped=%d statuses=%d then=%s\n", reaped, statuses,
           errno == ECHILD ? "ECHILD" : "other");

    /* waitid with WNOHANG, then for real. */
    c = fork();
    if (c == 0) {
        for (volatile int i = 0; i < 300000; i++) {
        }
        _exit(5);
    }
    siginfo_t si;
    memset(&si, 0, sizeof si);
    int r = waitid(P_PID, c, &si, WEXITED | WNOHANG);
    int early = r == 0 && si.si_pid == 0;
    r = waitid(P_PID, c, &si, WEXITED);
    printf("waitid: early_none=%d rc=%d pid_ok=%d code=%d status=%d\n", early, r, si.si_pid == c,
           si.si_code == CLD_EXITED, si.si_status);

    /* vfork: the parent continues once the child has gone. */
    c = vfork();
    if (c == 0)
        _exit(9);
    waitpid(c, &st, 0);
    printf("vfork: status=%d\n", WEXITSTATUS(st));

    printf("nochild: %d\n", waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD);
    return 0;
}
