/* The interval timer runs while every thread of the process is blocked (issue 28): alarm()
 * interrupts a read on a pipe that nobody writes (EINTR without SA_RESTART); an interval timer
 * with SA_RESTART ticks while a read waits, the read restarting after each tick, until the third
 * tick's handler writes the byte it waits for; a thread blocked in pthread_join is woken by the
 * same kind of tick (whichever thread takes it). Nothing depends on timing: each step waits for the timer alone. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static int p[2];
static volatile int ticks;

static void on_alarm(int s) {
    (void)s;
    ticks++;
    if (ticks == 3) {
        char c = 'x';
        if (write(p[1], &c, 1) != 1) _exit(9);
    }
}

static void set_handler(int restart) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sa.sa_flags = restart ? SA_RESTART : 0;
    sigaction(SIGALRM, &sa, 0);
}

static void *reader(void *arg) {
    (void)arg;
    char c = 0;
    ssize_t n = read(p[0], &c, 1);
    printf("thread read -> %zd '%c' after %d ticks\n", n, n == 1 ? c : '?', ticks);
    return 0;
}

int main(void) {
    if (pipe(p)) return 2;
    set_handler(0);
    alarm(1);
    char c = 0;
    ssize_t n = read(p[0], &c, 1);
    printf("alarm: read -> %zd %s, ticks %d\n", n, n < 0 && errno == EINTR ? "EINTR" : "?", ticks);

    ticks = 0;
    set_handler(1);
    struct itimerval it = {{0, 20000}, {0, 20000}};
    setitimer(ITIMER_REAL, &it, 0);
    n = read(p[0], &c, 1);
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, 0);
    printf("interval: read -> %zd '%c' after %d ticks\n", n, n == 1 ? c : '?', ticks);

    /* The main thread waits in pthread_join for a thread that waits in read: both blocked. */
    ticks = 0;
    pthread_t t;
    setitimer(ITIMER_REAL, &it, 0);
    pthread_create(&t, 0, reader, 0);
    pthread_join(t, 0);
    setitimer(ITIMER_REAL, &off, 0);
    printf("join: done, ticks %d\n", ticks);
    return 0;
}
