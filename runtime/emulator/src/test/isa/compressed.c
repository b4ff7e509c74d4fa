/* compressed: an assembly function built almost entirely from RVC (C
 * extension) instructions.  It stores one result per step into an output
 * array; main() prints them with names.  Covers c.addi4spn, c.fld, c.lw,
 * c.ld, c.fsd, c.sw, c.sd, c.nop, c.addi, c.addiw, c.li, c.addi16sp, c.lui,
 * c.srli, c.srai, c.andi, c.sub, c.xor, c.or, c.and, c.subw, c.addw, c.j,
 * c.beqz, c.bnez, c.slli, c.fldsp, c.lwsp, c.ldsp, c.jr, c.mv, c.jalr, c.add,
 * c.fsdsp, c.swsp, c.sdsp (every RV64C instruction except c.ebreak), the
 * immediates at the edges of their ranges, a few RVC HINT encodings (which
 * must execute as no-ops), 32-bit instructions at 2-byte-aligned addresses,
 * and a 32-bit instruction that straddles a 4 KiB page boundary.
 * `objdump -d compressed.elf` shows the c.* encodings (see README.md).
 * Exit status 0. */
#include "common.h"

extern long rvc_run(u64 *out);
extern long rvc_straddle(long x);

__asm__(
    ".text\n"
    ".option push\n"
    ".option rvc\n"
    /* OUT reg: store reg at the output cursor (s1) and advance it */
    ".macro OUT reg\n"
    "  c.sd \\reg, 0(s1)\n"
    "  c.addi s1, 8\n"
    ".endm\n"
    ".globl rvc_run\n"
    ".type rvc_run, @function\n"
    ".balign 4\n"
    "rvc_run:\n"
    "  c.addi16sp sp, -512\n"            /* largest negative c.addi16sp */
    "  c.sdsp ra, 496(sp)\n"
    "  c.sdsp s0, 488(sp)\n"
    "  c.sdsp s1, 480(sp)\n"
    "  c.mv s1, a0\n"
    "  c.mv s0, a0\n"                    /* s0 = start of output */
    /* --- c.li / c.lui / c.addi / c.nop --- */
    "  c.li a0, -32\n"    "  OUT a0\n"   /* 0 */
    "  c.li a0, 31\n"     "  OUT a0\n"   /* 1 */
    "  c.li a0, 0\n"      "  OUT a0\n"   /* 2 */
    "  c.lui a0, 1\n"     "  OUT a0\n"   /* 3 */
    "  c.lui a0, 31\n"    "  OUT a0\n"   /* 4 */
    "  c.lui a0, 0xfffe0\n" "  OUT a0\n" /* 5 */
    "  c.lui a0, 0xfffff\n" "  OUT a0\n" /* 6 */
    "  c.li a0, 5\n"
    "  c.addi a0, -32\n"  "  OUT a0\n"   /* 7 */
    "  c.addi a0, 31\n"   "  OUT a0\n"   /* 8 */
    "  c.nop\n"
    /* RVC HINTs: c.addi x0,1 / c.li x0,1 / c.mv x0,a0 / c.add x0,a0 / c.slli x0,1 */
    "  .hword 0x0005\n  .hword 0x4005\n  .hword 0x802a\n  .hword 0x902a\n  .hword 0x0006\n"
    "  OUT a0\n"                         /* 9: a0 unchanged by the hints */
    /* --- c.addiw --- */
    "  li a0, 0x7fffffff\n"
    "  c.addiw a0, 1\n"   "  OUT a0\n"   /* 10 */
    "  c.li a0, -1\n"
    "  c.srli a0, 31\n"                  /* 0x1ffffffff */
    "  c.addiw a0, 0\n"   "  OUT a0\n"   /* 11: sext.w */
    "  c.li a0, 1\n"
    "  c.slli a0, 32\n"
    "  c.addiw a0, -32\n" "  OUT a0\n"   /* 12 */
    /* --- c.addi4spn / c.addi16sp --- */
    "  c.mv a1, sp\n"
    "  c.addi4spn a0, sp, 4\n"
    "  c.sub a0, a1\n"    "  OUT a0\n"   /* 13 */
    "  c.addi4spn a0, sp, 1020\n"
    "  c.sub a0, a1\n"    "  OUT a0\n"   /* 14 */
    "  c.addi16sp sp, 496\n"
    "  c.mv a0, sp\n"
    "  c.sub a0, a1\n"    "  OUT a0\n"   /* 15 */
    "  c.addi16sp sp, -496\n"
    "  c.addi16sp sp, -16\n"
    "  c.addi16sp sp, 16\n"
    "  c.mv a0, sp\n"
    "  c.sub a0, a1\n"    "  OUT a0\n"   /* 16: back to 0 */
    /* --- shifts and c.andi --- */
    "  c.li a0, -1\n"
    "  c.srli a0, 1\n"    "  OUT a0\n"   /* 17 */
    "  c.li a0, -32\n"
    "  c.srai a0, 2\n"    "  OUT a0\n"   /* 18 */
    "  c.li a0, -1\n"
    "  c.srli a0, 63\n"   "  OUT a0\n"   /* 19 */
    "  c.slli a0, 63\n"   "  OUT a0\n"   /* 20 */
    "  c.srai a0, 63\n"   "  OUT a0\n"   /* 21 */
    "  c.li a0, 1\n"
    "  c.slli a0, 1\n"    "  OUT a0\n"   /* 22 */
    "  c.li a0, -1\n"
    "  c.andi a0, -32\n"  "  OUT a0\n"   /* 23 */
    "  c.li a0, -1\n"
    "  c.andi a0, 21\n"   "  OUT a0\n"   /* 24 */
    "  c.li a0, -9\n"
    "  c.andi a0, 0\n"    "  OUT a0\n"   /* 25 */
    /* --- register-register --- */
    "  c.li a0, 7\n"
    "  c.li a1, -3\n"
    "  c.sub a0, a1\n"    "  OUT a0\n"   /* 26: 10 */
    "  c.xor a0, a1\n"    "  OUT a0\n"   /* 27 */
    "  c.li a2, 12\n"
    "  c.or a2, a1\n"     "  OUT a2\n"   /* 28 */
    "  c.li a3, 30\n"
    "  c.and a3, a1\n"    "  OUT a3\n"   /* 29 */
    "  li a4, 0x7fffffff\n"
    "  c.li a5, 1\n"
    "  c.addw a4, a5\n"   "  OUT a4\n"   /* 30 */
    "  c.li a4, 1\n"
    "  c.slli a4, 63\n"
    "  c.subw a4, a5\n"   "  OUT a4\n"   /* 31 */
    "  li a4, 0x100000005\n"
    "  li a5, 0x200000007\n"
    "  c.subw a4, a5\n"   "  OUT a4\n"   /* 32 */
    "  li a4, 0x180000000\n"
    "  c.addw a4, a4\n"   "  OUT a4\n"   /* 33 */
    /* c.mv / c.add on registers outside x8-x15 */
    "  c.li t0, 13\n"
    "  c.mv t1, t0\n"
    "  c.add t1, t0\n"
    "  c.mv t3, t1\n"
    "  c.add t3, t3\n"
    "  c.mv a0, t3\n"     "  OUT a0\n"   /* 34: 52 */
    /* --- stack-pointer-relative loads/stores at their largest offsets --- */
    "  c.li a0, -2\n"
    "  c.swsp a0, 252(sp)\n"
    "  c.lwsp a2, 252(sp)\n" "  OUT a2\n" /* 35 */
    "  li a0, 0x8000000180000002\n"
    "  c.sdsp a0, 504(sp)\n"
    "  c.ldsp a2, 504(sp)\n" "  OUT a2\n" /* 36 */
    "  c.sdsp a0, 8(sp)\n"
    "  c.lwsp a2, 8(sp)\n"  "  OUT a2\n" /* 37: low word, sign-extended */
    "  c.lwsp a2, 12(sp)\n" "  OUT a2\n" /* 38: high word */
    "  fmv.d.x fa0, a0\n"
    "  c.fsdsp fa0, 16(sp)\n"
    "  c.fldsp fa1, 16(sp)\n"
    "  fmv.x.d a2, fa1\n"   "  OUT a2\n" /* 39 */
    "  li a0, 0x3ff8000000000000\n"
    "  fmv.d.x fa0, a0\n"
    "  c.fsdsp fa0, 504(sp)\n"
    "  c.fldsp fa2, 504(sp)\n"
    "  fmv.x.d a2, fa2\n"   "  OUT a2\n" /* 40 */
    /* --- register-relative (x8-x15) loads/stores at their largest offsets --- */
    "  c.mv a3, sp\n"
    "  li a0, 0xfedcba9876543210\n"
    "  c.sd a0, 248(a3)\n"
    "  c.ld a2, 248(a3)\n" "  OUT a2\n"  /* 41 */
    "  c.sw a0, 124(a3)\n"
    "  c.lw a2, 124(a3)\n" "  OUT a2\n"  /* 42: 0x76543210 */
    "  c.li a0, -1\n"
    "  c.slli a0, 31\n"
    "  c.li a2, -3\n"
    "  c.sd a2, 0(a3)\n"
    "  c.sw a0, 0(a3)\n"
    "  c.lw a2, 0(a3)\n"   "  OUT a2\n"  /* 43: sign-extended 0x80000000 */
    "  c.ld a2, 0(a3)\n"   "  OUT a2\n"  /* 44: mixed with earlier stack data */
    "  c.fsd fa0, 240(a3)\n"
    "  c.fld fa5, 240(a3)\n"
    "  fmv.x.d a2, fa5\n"  "  OUT a2\n"  /* 45 */
    "  c.ld a2, 240(a3)\n" "  OUT a2\n"  /* 46 */
    /* --- control flow --- */
    "  c.li a0, 0\n"
    "  c.j 1f\n"
    "  c.li a0, 1\n"                     /* skipped */
    "1:c.bnez a0, 2f\n"                  /* not taken */
    "  c.addi a0, 2\n"
    "2:c.beqz a0, 3f\n"                  /* not taken */
    "  c.addi a0, 4\n"
    "3:c.bnez a0, 4f\n"                  /* taken */
    "  c.addi a0, 8\n"
    "4:c.li a1, 0\n"
    "  c.beqz a1, 5f\n"                  /* taken */
    "  c.addi a0, 16\n"
    "5:OUT a0\n"                         /* 47: 6 */
    /* backward c.bnez loop and backward c.j */
    "  c.li a0, 10\n"
    "  c.li a2, 0\n"
    "6:c.addi a2, 3\n"
    "  c.addi a0, -1\n"
    "  c.bnez a0, 6b\n"
    "  c.j 8f\n"
    "7:c.addi a2, 1\n"
    "  c.j 9f\n"
    "8:c.j 7b\n"
    "9:OUT a2\n"                         /* 48: 31 */
    /* c.jalr: link = address of the next (2-byte) instruction */
    "  lla t0, 11f\n"
    "  c.jalr t0\n"
    "10:c.j 12f\n"
    "11:lla t1, 10b\n"
    "  sub a0, ra, t1\n"  "  OUT a0\n"   /* 49: 0 */
    "  c.jr ra\n"
    "12:\n"
    /* c.jr / c.jalr to an odd address: bit 0 is cleared */
    "  lla t0, 14f\n"
    "  c.addi t0, 1\n"
    "  c.li a0, 0\n"
    "  c.jr t0\n"
    "13:c.li a0, 1\n"
    "14:c.addi a0, 7\n"   "  OUT a0\n"   /* 50: 7 */
    "  lla t0, 16f\n"
    "  c.addi t0, 1\n"
    "  c.jalr t0\n"
    "15:c.j 17f\n"
    "16:c.li a0, 9\n"     "  OUT a0\n"   /* 51: 9 */
    "  c.jr ra\n"
    "17:\n"
    /* 32-bit instructions at 2-byte-aligned addresses */
    "  .balign 4\n"
    "  c.nop\n"
    ".option push\n.option norvc\n"
    "  addi a0, zero, 1234\n"            /* at 4n+2 */
    "  addi a0, a0, 1\n"                 /* at 4n+6 */
    ".option pop\n"
    "  c.addi a0, 1\n"    "  OUT a0\n"   /* 52: 1236 */
    /* done: return the number of outputs */
    "  c.mv a0, s1\n"
    "  c.sub a0, s0\n"
    "  c.srai a0, 3\n"
    "  c.ldsp ra, 496(sp)\n"
    "  c.ldsp s0, 488(sp)\n"
    "  c.ldsp s1, 480(sp)\n"
    "  c.addi16sp sp, 496\n"            /* largest positive c.addi16sp */
    "  c.addi16sp sp, 16\n"
    "  c.jr ra\n"
    ".size rvc_run, .-rvc_run\n"
    ".purgem OUT\n"
    /* A 4-byte instruction whose halves lie on two pages. */
    ".section .text.straddle, \"ax\", @progbits\n"
    ".balign 4096\n"
    ".skip 4088\n"
    ".globl rvc_straddle\n"
    ".type rvc_straddle, @function\n"
    "rvc_straddle:\n"                    /* page offset 4088 */
    "  c.addi a0, 1\n"                   /* 4088 */
    "  c.addi a0, 2\n"                   /* 4090 */
    "  c.nop\n"                          /* 4092 */
    ".option push\n.option norvc\n"
    "  addi a0, a0, 100\n"               /* 4094..4097: crosses the page */
    ".option pop\n"
    "  c.addi a0, 4\n"
    "  c.jr ra\n"
    ".size rvc_straddle, .-rvc_straddle\n"
    ".option pop\n"
    ".text\n");

static const char *const NAMES[] = {
    "c.li -32", "c.li 31", "c.li 0", "c.lui 1", "c.lui 31", "c.lui 0xfffe0", "c.lui 0xfffff",
    "c.addi -32", "c.addi 31", "hints keep a0", "c.addiw 0x7fffffff+1", "c.addiw sext.w",
    "c.addiw (1<<32)-32", "c.addi4spn 4", "c.addi4spn 1020", "c.addi16sp 496", "c.addi16sp back",
    "c.srli 1", "c.srai 2", "c.srli 63", "c.slli 63", "c.srai 63", "c.slli 1", "c.andi -32",
    "c.andi 21", "c.andi 0", "c.sub", "c.xor", "c.or", "c.and", "c.addw ovf", "c.subw",
    "c.subw hi-junk", "c.addw self", "c.mv/c.add", "c.swsp/lwsp 252", "c.sdsp/ldsp 504",
    "c.lwsp lo", "c.lwsp hi", "c.fsdsp/fldsp 16", "c.fsdsp/fldsp 504", "c.sd/ld 248",
    "c.sw/lw 124", "c.sw/lw sext", "c.ld 0", "c.fsd/fld 240", "c.ld of fsd", "c.j/beqz/bnez",
    "c.bnez loop/c.j back", "c.jalr link", "c.jr odd", "c.jalr odd", "32-bit at 4n+2",
};

int main(void) {
    u64 out[64];
    long n = rvc_run(out);
    if (n != (long)NELEM(NAMES)) printf("output count mismatch: %ld vs %d\n", n, (int)NELEM(NAMES));
    for (long i = 0; i < n && i < (long)NELEM(NAMES); i++) {
        printf("%2ld %-22s %016llx\n", i, NAMES[i], (unsigned long long)out[i]);
        mix(out[i]);
    }
    long s = rvc_straddle(1000);
    printf("page-straddling insn: %ld (page offset of entry %03lx)\n", s,
           (unsigned long)rvc_straddle & 0xfff);
    mix(s);
    psum("compressed");
    return 0;
}
