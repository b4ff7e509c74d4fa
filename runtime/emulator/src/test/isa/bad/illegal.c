/* bad/illegal.elf: prints one line, then executes the all-zero instruction
 * word (.word 0 -- defined to be illegal in every RISC-V encoding): SIGILL. */
#include "bad.h"
int main(void) {
    static const char msg[] = "executing .word 0\n";
    SAY(msg);
    __asm__ volatile(".option push\n.option norvc\n.word 0\n.option pop");
    static const char after[] = "survived an illegal instruction (should not happen)\n";
    SAY(after);
    return 0;
}
