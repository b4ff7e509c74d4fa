/* Default actions as Linux takes them: SIGCHLD, SIGURG, SIGWINCH and SIGCONT are ignored, a
 * signal set to SIG_IGN is discarded, a blocked pending signal is discarded when its action
 * becomes SIG_IGN, and abort() kills with SIGABRT (exit 134) even when a handler returns. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile int aborts;
static void on_abort(int sig) {
  aborts++;
  printf("SIGABRT handler ran, returning\n");
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  int ignored[] = {SIGCHLD, SIGURG, SIGWINCH, SIGCONT};
  for (unsigned i = 0; i < sizeof ignored / sizeof ignored[0]; i++) {
    printf("raise(%d) with the default action -> %d, still running\n", ignored[i],
           raise(ignored[i]));
  }
  signal(SIGUSR1, SIG_IGN);
  printf("raise(SIGUSR1) set to SIG_IGN -> %d\n", raise(SIGUSR1));
  signal(SIGTERM, SIG_DFL);
  sigset_t s, pend;
  sigemptyset(&s);
  sigaddset(&s, SIGTERM);
  sigprocmask(SIG_BLOCK, &s, NULL);
  raise(SIGTERM);
  sigpending(&pend);
  printf("SIGTERM blocked: pending %d\n", sigismember(&pend, SIGTERM));
  signal(SIGTERM, SIG_IGN);
  sigpending(&pend);
  printf("set to SIG_IGN: pending %d\n", sigismember(&pend, SIGTERM));
  sigprocmask(SIG_UNBLOCK, &s, NULL);
  printf("unblocked, still running\n");
  signal(SIGABRT, on_abort);
  abort();
  printf("not reached\n");
  return 0;
}
