/* pthread_cancel (issue 28): a thread blocked in read() on a pipe (a cancellation point: the
 * cancel signal interrupts the call), one in a pthread_testcancel loop, and one that disables
 * cancellation for a while; cleanup handlers run, pthread_join sees PTHREAD_CANCELED. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int fds[2];
static volatile int cleaned[3];
static volatile int started[3];
static volatile int reached_enable;

static void cleanup(void *arg) { cleaned[(long)arg] = 1; }

static void *blocked_reader(void *arg) {
    (void)arg;
    pthread_cleanup_push(cleanup, (void *)0);
    started[0] = 1;
    char c;
    (void)!read(fds[0], &c, 1); /* never gets data */
    pthread_cleanup_pop(0);
    return (void *)1;
}

static void *spinner(void *arg) {
    (void)arg;
    pthread_cleanup_push(cleanup, (void *)1);
    started[1] = 1;
    for (;;) pthread_testcancel();
    pthread_cleanup_pop(0);
    return (void *)1;
}

static void *deferred(void *arg) {
    (void)arg;
    int old;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
    pthread_cleanup_push(cleanup, (void *)2);
    started[2] = 1;
    while (!reached_enable) sched_yield(); /* main has cancelled us by now */
    pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old);
    pthread_testcancel();
    pthread_cleanup_pop(0);
    return (void *)1;
}

static void run(const char *name, void *(*fn)(void *), int i) {
    pthread_t t;
    pthread_create(&t, 0, fn, 0);
    while (!started[i]) usleep(1000);
    usleep(50000); /* let it block or spin */
    int rc = pthread_cancel(t);
    if (i == 2) reached_enable = 1;
    void *ret = 0;
    pthread_join(t, &ret);
    printf("%s: cancel rc %d, joined %s, cleanup ran %d\n", name, rc,
           ret == PTHREAD_CANCELED ? "PTHREAD_CANCELED" : "a value", cleaned[i]);
}

int main(void) {
    if (pipe(fds)) return 2;
    run("blocked in read", blocked_reader, 0);
    run("testcancel loop", spinner, 1);
    run("cancel disabled, then enabled", deferred, 2);
    return 0;
}
