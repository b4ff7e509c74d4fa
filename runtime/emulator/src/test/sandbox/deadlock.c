/* Two threads take two mutexes in opposite orders after meeting at a barrier:
 * a deadlock on every schedule. acf must stop with a report naming the
 * blocked threads, not hang. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t bar;

static void *other(void *arg) {
    (void)arg;
    pthread_mutex_lock(&b);
    pthread_barrier_wait(&bar);
    pthread_mutex_lock(&a);
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_barrier_init(&bar, NULL, 2);
    pthread_create(&t, NULL, other, NULL);
    pthread_mutex_lock(&a);
    pthread_barrier_wait(&bar);
    puts("both hold one lock");
    fflush(stdout);
    pthread_mutex_lock(&b);
    pthread_join(t, NULL);
    puts("not reached");
    return 0;
}
