/* Guest threads: pthread_create/join, mutex, condition variable, barrier,
 * thread-local storage, a thread that exits while others run, detached
 * threads, atomics under contention, sched_yield and thread ids.
 * Only invariants are printed (sums, counts, orders a program enforces), so
 * the output is the same under any scheduling: qemu's host threads and acf's
 * deterministic one-core scheduler alike. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NT 4

/* The row: 4 threads adding to a shared counter under a mutex. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;

static void *add_locked(void *arg) {
    (void)arg;
    for (int i = 0; i < 1000; i++) {
        pthread_mutex_lock(&lock);
        counter++;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

/* Atomics under contention: no lock, long loops so that preemption lands
 * inside LR/SC sequences and between the AMOs. */
static atomic_long aadd;
static atomic_int acas;
static void *add_atomic(void *arg) {
    (void)arg;
    for (int i = 0; i < 20000; i++) {
        atomic_fetch_add_explicit(&aadd, 1, memory_order_relaxed);
        int old = atomic_load(&acas);
        while (!atomic_compare_exchange_weak(&acas, &old, old + 2)) {
        }
    }
    return NULL;
}

/* Condition variable: a bounded queue, one producer, NT consumers. */
#define QCAP 4
#define ITEMS 200
static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t notempty = PTHREAD_COND_INITIALIZER;
static pthread_cond_t notfull = PTHREAD_COND_INITIALIZER;
static int queue[QCAP], qhead, qlen, produced_done;
static long consumed_sum, consumed_count;

static void *producer(void *arg) {
    (void)arg;
    for (int i = 1; i <= ITEMS; i++) {
        pthread_mutex_lock(&qlock);
        while (qlen == QCAP)
            pthread_cond_wait(&notfull, &qlock);
        queue[(qhead + qlen++) % QCAP] = i;
        pthread_cond_signal(&notempty);
        pthread_mutex_unlock(&qlock);
    }
    pthread_mutex_lock(&qlock);
    produced_done = 1;
    pthread_cond_broadcast(&notempty);
    pthread_mutex_unlock(&qlock);
    return NULL;
}

static void *consumer(void *arg) {
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&qlock);
        while (qlen == 0 && !produced_done)
            pthread_cond_wait(&notempty, &qlock);
        if (qlen == 0) {
            pthread_mutex_unlock(&qlock);
            return NULL;
        }
        int v = queue[qhead];
        qhead = (qhead + 1) % QCAP;
        qlen--;
        consumed_sum += v;
        consumed_count++;
        pthread_cond_signal(&notfull);
        pthread_mutex_unlock(&qlock);
    }
}

/* Barrier: every thread writes its slot, waits, then checks all slots. */
static pthread_barrier_t barrier;
static int slots[NT];
static atomic_int barrier_ok, serial_count;
static void *at_barrier(void *arg) {
    long id = (long)arg;
    for (int round = 1; round <= 3; round++) {
        slots[id] = round;
        int r = pthread_barrier_wait(&barrier);
        if (r == PTHREAD_BARRIER_SERIAL_THREAD)
            atomic_fetch_add(&serial_count, 1);
        int all = 1;
        for (int k = 0; k < NT; k++)
            all &= slots[k] == round;
        if (all)
            atomic_fetch_add(&barrier_ok, 1);
        pthread_barrier_wait(&barrier);
    }
    return NULL;
}

/* Thread-local storage: each thread's copy starts at the initial value. */
static __thread long tls_value = 42;
static __thread char tls_name[16];
static void *use_tls(void *arg) {
    long id = (long)arg;
    long ok = tls_value == 42;
    tls_value = id * 100;
    snprintf(tls_name, sizeof tls_name, "t%ld", id);
    sched_yield();
    ok &= tls_value == id * 100;
    char want[16];
    snprintf(want, sizeof want, "t%ld", id);
    ok &= strcmp(tls_name, want) == 0;
    return (void *)ok;
}

/* A thread that ends with pthread_exit while the others still run; its
 * value reaches the joiner. */
static atomic_int spinners_go;
static void *exits_early(void *arg) {
    (void)arg;
    pthread_exit((void *)7);
}
static void *spins(void *arg) {
    (void)arg;
    long n = 0;
    while (!atomic_load(&spinners_go))
        n++, sched_yield();
    return (void *)1;
}

/* Detached threads signal completion through a semaphore-like counter. */
static atomic_int detached_done;
static void *detached(void *arg) {
    (void)arg;
    atomic_fetch_add(&detached_done, 1);
    return NULL;
}

/* Thread ids: distinct, and the main thread's equals the pid. */
static atomic_long tids[NT];
static void *record_tid(void *arg) {
    tids[(long)arg] = syscall(SYS_gettid);
    return NULL;
}

int main(void) {
    pthread_t t[NT];

    for (long i = 0; i < NT; i++)
        pthread_create(&t[i], NULL, add_locked, NULL);
    for (int i = 0; i < NT; i++)
        pthread_join(t[i], NULL);
    printf("mutex sum=%ld\n", counter);

    for (long i = 0; i < NT; i++)
        pthread_create(&t[i], NULL, add_atomic, NULL);
    for (int i = 0; i < NT; i++)
        pthread_join(t[i], NULL);
    printf("atomic add=%ld cas=%d\n", (long)aadd, (int)acas);

    pthread_t prod;
    pthread_create(&prod, NULL, producer, NULL);
    for (long i = 0; i < NT; i++)
        pthread_create(&t[i], NULL, consumer, NULL);
    pthread_join(prod, NULL);
    for (int i = 0; i < NT; i++)
        pthread_join(t[i], NULL);
    printf("condvar consumed=%ld sum=%ld\n", consumed_count, consumed_sum);

    pthread_barrier_init(&barrier, NULL, NT);
    for (long i = 0; i < NT; i++)
        pthread_create(&t[i], NULL, at_barrier, (void *)i);
    for (int i = 0; i < NT; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&barrier);
    printf("barrier ok=%d serial=%d\n", (int)barrier_ok, (int)serial_count);

    long tls_ok = 1;
    for (long i = 0; i < NT; i++)
        pthread_create(&t[i], NULL, use_tls, (void *)(i + 1));
    for (int i = 0; i < NT; i++) {
        void *r;
        pthread_join(t[i], &r);
        tls_ok &= (long)r;
    }
    printf("tls ok=%ld main=%ld\n", tls_ok, tls_value);

    pthread_t early, spinner[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&spinner[i], NULL, spins, NULL);
    pthread_create(&early, NULL, exits_early, NULL);
    void *ev;
    pthread_join(early, &ev);
    atomic_store(&spinners_go, 1);
    long spun = 0;
    for (int i = 0; i < 2; i++) {
        void *r;
        pthread_join(spinner[i], &r);
        spun += (long)r;
    }
    printf("pthread_exit value=%ld others=%ld\n", (long)ev, spun);

    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    for (int i = 0; i < NT; i++) {
        pthread_t d;
        pthread_create(&d, &attr, detached, NULL);
    }
    while (atomic_load(&detached_done) < NT)
        sched_yield();
    printf("detached done=%d\n", (int)detached_done);

    for (long i = 0; i < NT; i++)
        pthread_create(&t[i], NULL, record_tid, (void *)i);
    for (int i = 0; i < NT; i++)
        pthread_join(t[i], NULL);
    int distinct = 1;
    for (int i = 0; i < NT; i++)
        for (int j = 0; j < i; j++)
            distinct &= tids[i] != tids[j];
    for (int i = 0; i < NT; i++)
        distinct &= tids[i] != getpid();
    printf("tids distinct=%d main=pid:%d\n", distinct, (int)(syscall(SYS_gettid) == getpid()));

    cpu_set_t set;
    CPU_ZERO(&set);
    int aff = sched_getaffinity(0, sizeof set, &set);
    printf("affinity rc=%d cpus>=1:%d\n", aff, CPU_COUNT(&set) >= 1);
    return 0;
}
