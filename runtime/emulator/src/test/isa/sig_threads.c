/* A signal raised in main after threads have come and gone reaches its handler: glibc's exiting
 * thread blocks every signal for itself before it ends, which must not block them for main (each
 * thread has its own mask). Also a thread that blocks SIGUSR2 while main does not. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>

static volatile int got;
static void handler(int s) { got = s; }

static void *quiet(void *arg) {
    (void)arg;
    return 0;
}

static void *blocker(void *arg) {
    (void)arg;
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGUSR2);
    pthread_sigmask(SIG_BLOCK, &s, 0);
    sigset_t now;
    pthread_sigmask(SIG_BLOCK, 0, &now);
    printf("blocker: SIGUSR2 blocked here %d\n", sigismember(&now, SIGUSR2));
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, quiet, 0);
    for (int i = 0; i < 3; i++) pthread_join(t[i], 0);
    signal(SIGUSR1, handler);
    raise(SIGUSR1);
    printf("main: handler got %d\n", got);
    pthread_t b;
    pthread_create(&b, 0, blocker, 0);
    pthread_join(b, 0);
    sigset_t now;
    pthread_sigmask(SIG_BLOCK, 0, &now);
    printf("main: SIGUSR2 blocked here %d\n", sigismember(&now, SIGUSR2));
    signal(SIGUSR2, handler);
    raise(SIGUSR2);
    printf("main: handler got %d\n", got);
    return 0;
}
