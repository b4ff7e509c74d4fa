/* bad/misaligned_amo.elf: prints one line, then performs amoadd.w on an
 * address that is 2 mod 4.  Unlike plain loads/stores, misaligned AMOs are
 * not emulated: qemu-user delivers SIGBUS (and so does Linux on hardware
 * without misaligned-atomic support). */
#include "bad.h"
static unsigned int words[4] __attribute__((aligned(16)));
int main(void) {
    static const char msg[] = "amoadd.w on a misaligned address\n";
    SAY(msg);
    long r;
    __asm__ volatile("amoadd.w %0, %2, (%1)" : "=r"(r) : "r"((char *)words + 2), "r"(1L) : "memory");
    static const char after[] = "misaligned AMO completed (should not happen)\n";
    SAY(after);
    return (int)r;
}
