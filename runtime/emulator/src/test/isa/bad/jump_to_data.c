/* bad/jump_to_data.elf: jumps into a writable, non-executable data array
 * that holds valid RISC-V code (li a0, 7; ret).  Linux and qemu-user refuse
 * to fetch instructions from a page without PROT_EXEC: SIGSEGV. */
#include "bad.h"
static unsigned int code[4] __attribute__((aligned(16))) = {
    0x00700513u, /* addi a0, zero, 7 */
    0x00008067u, /* ret */
};
int main(void) {
    static const char msg[] = "jumping into .data\n";
    SAY(msg);
    int (*fn)(void) = (int (*)(void))(void *)code;
    int r = fn();
    static const char after[] = "returned from .data (should not happen)\n";
    SAY(after);
    return r;
}
