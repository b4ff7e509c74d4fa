/* Signal behaviour where qemu-riscv64 is not the reference (SignalsTest):
 *   signals samask   sa_mask is honoured: a signal in the handler's sa_mask raised inside the
 *                    handler waits until the handler returns (qemu 7.2 ignores riscv64's sa_mask)
 *   signals forever  pause() with no timer armed: nothing can ever wake the guest
 *   signals ticks    counts interval-timer ticks in a hot loop, printing where each landed */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static volatile int in1, nested, ran2;
static void h2(int s) {
  ran2++;
  if (in1) nested = 1;
}
static void h1(int s) {
  in1 = 1;
  raise(SIGUSR2);
  in1 = 0;
}

static volatile unsigned long spins;
static volatile unsigned long at[8];
static volatile int ticks;
static void tick(int s) { at[ticks++] = spins; }

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  if (argc > 1 && strcmp(argv[1], "samask") == 0) {
    sa.sa_handler = h2;
    sigaction(SIGUSR2, &sa, NULL);
    sa.sa_handler = h1;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGUSR2);
    sigaction(SIGUSR1, &sa, NULL);
    raise(SIGUSR1);
    printf("usr2 ran %d, nested inside usr1 %d\n", ran2, nested);
  } else if (argc > 1 && strcmp(argv[1], "forever") == 0) {
    printf("pausing\n");
    pause();
    printf("not reached\n");
  } else if (argc > 1 && strcmp(argv[1], "ticks") == 0) {
    sa.sa_handler = tick;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 100}, {0, 100}};
    setitimer(ITIMER_REAL, &it, NULL);
    while (ticks < 8) spins++;
    for (int i = 0; i < 8; i++) printf("tick %d at spin %lu\n", i, at[i]);
  }
  return 0;
}
