/* bad/x86.elf: a valid static x86-64 Linux program -- the wrong machine for
 * a RISC-V emulator (built with the host gcc). */
#include <stdio.h>
int main(void) { puts("hello from x86-64"); return 0; }
