/* Signal handlers, masks, nesting and the alternate stack (issue 28's row "sigaction +
 * raise(SIGUSR1)"): what a handler sees (signo, si_code, the ucontext's saved mask), that the
 * interrupted code's integer and FP registers survive, blocked signals staying pending until
 * unblocked, a signal raised inside a handler running nested, SA_NODEFER, SA_RESETHAND, SIG_IGN,
 * SA_ONSTACK on a sigaltstack, kill() to the process itself. Nothing printed depends on pids or
 * addresses. sa_mask is stored and read back but its effect is not printed: qemu-riscv64 7.2
 * reads riscv64's struct sigaction with an sa_restorer field Linux does not have, so it ignores
 * the mask (SignalsTest checks Linux's behaviour). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

static volatile int depth;
static volatile int order[16];
static volatile int norder;
static char altstack[64 * 1024];

static void note(int v) { order[norder++] = v; }

static void info_handler(int sig, siginfo_t *si, void *ucv) {
  ucontext_t *uc = ucv;
  sigset_t now;
  sigprocmask(SIG_BLOCK, NULL, &now);
  printf("handler: sig %d signo %d code %d self-blocked %d saved-usr1 %d\n", sig, si->si_signo,
         si->si_code, sigismember(&now, sig), sigismember(&uc->uc_sigmask, SIGUSR1));
}

static void nest_outer(int sig) {
  note(sig);
  depth++;
  raise(SIGUSR2); /* not blocked in this handler: runs now, nested */
  note(-sig);
  depth--;
}

static void nest_inner(int sig) { note(sig * 100 + depth); }

static volatile int nodefer_count;
static void nodefer_handler(int sig) {
  nodefer_count++;
  if (nodefer_count < 3) raise(sig); /* SA_NODEFER: re-enters at once */
  note(nodefer_count);
}

static volatile int reset_count;
static void reset_handler(int sig) { reset_count++; }

static volatile int on_alt;
static void alt_handler(int sig) {
  char local;
  on_alt = &local >= altstack && &local < altstack + sizeof altstack;
  stack_t ss;
  sigaltstack(NULL, &ss);
  printf("alt handler: on the alternate stack %d, ss_flags onstack %d\n", on_alt,
         (ss.ss_flags & SS_ONSTACK) != 0);
}

static volatile double fp_in_handler;
static void fp_handler(int sig) {
  volatile double a = 3.0;
  fp_in_handler = a * a + 1.5; /* uses FP registers the interrupted code holds */
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  struct sigaction sa;

  /* The row of issue 28: sigaction + raise(SIGUSR1). */
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = info_handler;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGUSR2);
  printf("sigaction -> %d\n", sigaction(SIGUSR1, &sa, NULL));
  printf("raise -> %d\n", raise(SIGUSR1));
  printf("kill self -> %d\n", kill(getpid(), SIGUSR1));
  printf("kill 0 (probe) -> %d\n", kill(getpid(), 0));

  struct sigaction old;
  sigaction(SIGUSR1, NULL, &old);
  printf("old action: siginfo %d usr2 in mask %d\n", (old.sa_flags & SA_SIGINFO) != 0,
         sigismember(&old.sa_mask, SIGUSR2));

  /* Blocked: pending until unblocked, then delivered once. */
  sigset_t set, pend;
  sigemptyset(&set);
  sigaddset(&set, SIGUSR1);
  sigprocmask(SIG_BLOCK, &set, NULL);
  raise(SIGUSR1);
  raise(SIGUSR1);
  sigpending(&pend);
  printf("blocked: pending usr1 %d\n", sigismember(&pend, SIGUSR1));
  printf("unblocking\n");
  sigprocmask(SIG_UNBLOCK, &set, NULL);
  sigpending(&pend);
  printf("after unblock: pending usr1 %d\n", sigismember(&pend, SIGUSR1));

  /* Nested: SIGUSR2 raised inside the SIGUSR1 handler. */
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = nest_outer;
  sigaction(SIGUSR1, &sa, NULL);
  sa.sa_handler = nest_inner;
  sigaction(SIGUSR2, &sa, NULL);
  norder = 0;
  raise(SIGUSR1);
  printf("nested order:");
  for (int i = 0; i < norder; i++) printf(" %d", order[i]);
  printf("\n");

  /* SA_NODEFER lets the handler be re-entered. */
  sa.sa_handler = nodefer_handler;
  sa.sa_flags = SA_NODEFER;
  sigaction(SIGUSR1, &sa, NULL);
  norder = 0;
  raise(SIGUSR1);
  printf("nodefer order:");
  for (int i = 0; i < norder; i++) printf(" %d", order[i]);
  printf("\n");

  /* SA_RESETHAND: the second raise finds the default again (SIGWINCH's: ignore). */
  sa.sa_handler = reset_handler;
  sa.sa_flags = SA_RESETHAND;
  sigaction(SIGWINCH, &sa, NULL);
  raise(SIGWINCH);
  raise(SIGWINCH);
  sigaction(SIGWINCH, NULL, &old);
  printf("resethand: ran %d, now default %d\n", reset_count, old.sa_handler == SIG_DFL);

  /* SIG_IGN: a raised signal is discarded. */
  signal(SIGUSR2, SIG_IGN);
  printf("ignored usr2 -> %d\n", raise(SIGUSR2));

  /* The alternate stack. */
  stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0};
  printf("sigaltstack -> %d\n", sigaltstack(&ss, NULL));
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = alt_handler;
  sa.sa_flags = SA_ONSTACK;
  sigaction(SIGUSR1, &sa, NULL);
  raise(SIGUSR1);
  stack_t cur;
  sigaltstack(NULL, &cur);
  printf("after: ss_flags onstack %d disabled %d\n", (cur.ss_flags & SS_ONSTACK) != 0,
         (cur.ss_flags & SS_DISABLE) != 0);

  /* Registers survive a handler. */
  signal(SIGUSR1, fp_handler);
  volatile double x = 1.25;
  double y = x * 2.0;
  long r = 0x1234;
  for (int i = 0; i < 3; i++) {
    raise(SIGUSR1);
    y = y * 1.5 + (double)i;
    r = r * 3 + i;
  }
  printf("fp after handlers: %.4f %.1f int %ld\n", y, fp_in_handler, r);

  /* Bad arguments. */
  errno = 0;
  printf("sigaction(SIGKILL) -> %d errno %d\n", sigaction(SIGKILL, &sa, NULL), errno);
  errno = 0;
  printf("sigaction(65) -> %d errno %d\n", sigaction(65, &sa, NULL), errno);
  errno = 0;
  printf("kill(sig 99) -> %d errno %d\n", kill(getpid(), 99), errno);
  return 0;
}
