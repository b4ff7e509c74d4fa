/* bad/loop_forever.elf: prints one line, then spins forever in a tight
 * loop (a single self-branch), for timeout handling. */
#include "bad.h"
int main(void) {
    static const char msg[] = "looping forever\n";
    SAY(msg);
    for (;;) __asm__ volatile("1: j 1b");
}
