/* Timers and waiting for signals (issue 28's row "alarm(1) + pause()"): alarm and pause, alarm's
 * remaining seconds, an interval timer interrupting a hot loop (delivery inside translated code),
 * getitimer, sigsuspend (the handler runs, the mask comes back), sigtimedwait for a blocked
 * SIGALRM and its timeout, nanosleep interrupted by the timer (EINTR, time left), and SIGALRM's
 * default action, which kills (exit 142). acf runs the timer on the guest's clock
 * (spec/emulator.md, "Signals"), so nothing printed depends on the host's speed. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static volatile int alarms;
static void on_alarm(int sig) { alarms++; }

static void interval(long value_us, long interval_us) {
  struct itimerval it;
  memset(&it, 0, sizeof it);
  it.it_value.tv_sec = value_us / 1000000;
  it.it_value.tv_usec = value_us % 1000000;
  it.it_interval.tv_sec = interval_us / 1000000;
  it.it_interval.tv_usec = interval_us % 1000000;
  setitimer(ITIMER_REAL, &it, NULL);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sigaction(SIGALRM, &sa, NULL);

  printf("alarm(1) -> %u\n", alarm(1));
  int r = pause();
  printf("pause -> %d errno %d, alarms %d\n", r, errno, alarms);

  alarm(5);
  printf("alarm(0) after alarm(5) -> %u\n", alarm(0));

  alarms = 0;
  interval(2000, 2000);
  struct itimerval cur;
  getitimer(ITIMER_REAL, &cur);
  printf("getitimer: interval %ld us, value set %d\n", (long)cur.it_interval.tv_usec,
         cur.it_value.tv_usec > 0);
  volatile unsigned long spins = 0;
  while (alarms < 5) spins++;
  interval(0, 0);
  printf("interval timer: %d alarms in a hot loop, spun %d\n", alarms, spins > 0);

  sigset_t block, empty, now;
  sigemptyset(&block);
  sigaddset(&block, SIGALRM);
  sigemptyset(&empty);
  sigprocmask(SIG_BLOCK, &block, NULL);
  alarms = 0;
  interval(1000, 0);
  r = sigsuspend(&empty);
  sigprocmask(SIG_BLOCK, NULL, &now);
  printf("sigsuspend -> %d errno %d, alarms %d, alrm blocked again %d\n", r, errno, alarms,
         sigismember(&now, SIGALRM));

  interval(1000, 0);
  siginfo_t si;
  r = sigwaitinfo(&block, &si);
  printf("sigwaitinfo -> %d signo %d code %d, alarms %d\n", r, si.si_signo, si.si_code, alarms);

  struct timespec ts = {0, 1000000};
  errno = 0;
  r = sigtimedwait(&block, &si, &ts);
  printf("sigtimedwait with nothing pending -> %d errno %d\n", r, errno);
  sigprocmask(SIG_UNBLOCK, &block, NULL);

  interval(1000, 0);
  struct timespec req = {1, 0}, rem = {0, 0};
  errno = 0;
  r = nanosleep(&req, &rem);
  printf("nanosleep -> %d errno %d, alarms %d, time left 0.9-1 s %d\n", r, errno, alarms,
         rem.tv_sec == 0 && rem.tv_nsec > 900000000);

  signal(SIGALRM, SIG_DFL);
  interval(1000, 0);
  printf("waiting for SIGALRM's default action\n");
  pause();
  printf("not reached\n");
  return 0;
}
