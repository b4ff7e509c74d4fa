/* Synchronous signals from guest faults delivered to the guest's handler, and leaving handlers
 * with siglongjmp: a SIGSEGV handler that recovers by longjmp (NULL store: SEGV_MAPERR, si_addr
 * 0), one that recovers by mprotect and returns so the store is retried (SEGV_ACCERR, si_addr
 * the faulting byte), SIGILL from an illegal instruction (ILL_ILLOPC, si_addr the pc), SIGBUS
 * from a misaligned AMO, siglongjmp restoring the mask so the same handler runs again, a fault
 * inside a hot (translated) loop, and a fault with the signal blocked, which kills the process
 * as Linux does (exit 139). */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static sigjmp_buf env;
static volatile int last_sig, last_code;
static volatile uintptr_t last_addr;

static void jump_handler(int sig, siginfo_t *si, void *uc) {
  last_sig = sig;
  last_code = si->si_code;
  last_addr = (uintptr_t)si->si_addr;
  siglongjmp(env, sig);
}

static char *page;
static volatile int fixes;
static void fix_handler(int sig, siginfo_t *si, void *uc) {
  last_code = si->si_code;
  last_addr = (uintptr_t)si->si_addr;
  fixes++;
  mprotect(page, 4096, PROT_READ | PROT_WRITE); /* returning retries the store */
}

static void install(int sig, void (*h)(int, siginfo_t *, void *)) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = h;
  sa.sa_flags = SA_SIGINFO;
  sigaction(sig, &sa, NULL);
}

static int blocked(int sig) {
  sigset_t s;
  sigprocmask(SIG_BLOCK, NULL, &s);
  return sigismember(&s, sig);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  install(SIGSEGV, jump_handler);
  install(SIGILL, jump_handler);
  install(SIGBUS, jump_handler);

  for (int round = 0; round < 2; round++) {
    int r = sigsetjmp(env, 1);
    if (r == 0) {
      *(volatile int *)0 = 1;
      printf("not reached\n");
    } else {
      printf("round %d: caught %d code %d addr0 %d, segv blocked after longjmp %d\n", round, r,
             last_code, last_addr == 0, blocked(SIGSEGV));
    }
  }

  page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  install(SIGSEGV, fix_handler);
  ((volatile char *)page)[100] = 42;
  printf("mprotect fix: handler ran %d, code %d, addr is the byte %d, value %d\n", fixes,
         last_code, last_addr == (uintptr_t)(page + 100), ((volatile char *)page)[100]);

  install(SIGSEGV, jump_handler);
  if (sigsetjmp(env, 1) == 0) {
    __asm__ volatile(".word 0" ::: "memory"); /* an all-zero word: illegal */
  } else {
    printf("illegal instruction: sig %d code %d\n", last_sig, last_code);
  }

  if (sigsetjmp(env, 1) == 0) {
    static uint64_t words[2];
    uint64_t v = 1, old;
    char *p = (char *)words + 1;
    __asm__ volatile("amoadd.d %0, %2, (%1)" : "=r"(old) : "r"(p), "r"(v) : "memory");
    printf("not reached %lu\n", (unsigned long)old);
  } else {
    printf("misaligned amo: sig %d code %d\n", last_sig, last_code);
  }

  /* A fault at the end of a hot loop: translated code reports the precise state. */
  static volatile long *ptrs[2000];
  static long cells[2000];
  for (int i = 0; i < 2000; i++) ptrs[i] = &cells[i];
  ptrs[1999] = (long *)8;
  volatile long sum = 0;
  volatile int i = 0;
  if (sigsetjmp(env, 1) == 0) {
    for (i = 0; i < 2000; i++) sum += *ptrs[i] + i;
  } else {
    printf("hot loop fault at i %d, sum %ld, addr %lu\n", i, sum, (unsigned long)last_addr);
  }

  /* A fault while its signal is blocked kills the process (SIGSEGV: 139). */
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGSEGV);
  sigprocmask(SIG_BLOCK, &s, NULL);
  printf("faulting with SIGSEGV blocked\n");
  *(volatile int *)(uintptr_t)blocked(SIGSEGV) = 2; /* address 1 */
  printf("not reached\n");
  return 0;
}
