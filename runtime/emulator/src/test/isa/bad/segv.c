/* bad/segv.elf: prints one line, then stores to address 8 (unmapped): SIGSEGV. */
#include "bad.h"
int main(void) {
    static const char msg[] = "storing to address 8\n";
    SAY(msg);
    __asm__ volatile("li t0, 8\n\tsd zero, 0(t0)" ::: "t0", "memory");
    static const char after[] = "survived the store (should not happen)\n";
    SAY(after);
    return 0;
}
