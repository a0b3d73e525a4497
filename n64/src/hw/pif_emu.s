# A stand-in PIF boot ROM, for emulators that run one (cen64): the code a
# console runs at reset from 0xBFC00000, before any cartridge code.
# Nintendo's is not ours to ship, so this one does what mupen64plus's
# high-level boot does in its place (notes/n64.md, "How mupen64plus
# boots"), and no more: no CIC handshake, no lock-out, no RDRAM set-up.
#
# It lives in the non-allocated ELF section `.pif_emu` of the program's
# ELF; build.sh cuts it out and pads it to the 2048 bytes of a PIF ROM.
# It runs uncached from 0xBFC00000: PC-relative branches only, no symbol
# references.
#
# Steps:
#  1. Status and Config as the PIF leaves them.
#  2. The boot registers the IPL3 expects, from the CIC word the emulator
#     puts in PIF RAM at 0x24: s3 ROM type, s4 TV type (NTSC: this stand-in
#     is for measuring, on NTSC timings), s5 reset type, s6 the IPL3 seed,
#     s7 the version.
#  3. The cartridge's PI domain 1 timings, from ROM word 0.
#  4. The IPL3, ROM 0x40..0x1000, into SP DMEM at 0xA4000040, and a jump
#     there with t3, sp and ra as the PIF leaves them.

    .section .pif_emu, ""
    .set    noreorder
    .set    noat

pif_emu:
    # 1. CU0, CU1, FR; the PIF's Config (big endian, kseg0 cached).
    lui     $t0, 0x3400
    mtc0    $t0, $12
    lui     $t0, 0x0006
    ori     $t0, $t0, 0xE463
    mtc0    $t0, $16

    # 2. The CIC word: bit 19 ROM type, 18 version, 17 reset type, 15..8
    # the IPL3 seed.
    lui     $t0, 0xBFC0
    lw      $t1, 0x7E4($t0)
    srl     $s3, $t1, 19
    andi    $s3, $s3, 1
    srl     $s7, $t1, 18
    andi    $s7, $s7, 1
    srl     $s5, $t1, 17
    andi    $s5, $s5, 1
    srl     $s6, $t1, 8
    andi    $s6, $s6, 0xFF
    ori     $s4, $zero, 1

    # 3. ROM word 0 holds the timings: latency in bits 0..7, pulse width
    # 8..15, page size 16..19, release 20..21 (0x80371240: 0x40, 0x12, 7, 3).
    lui     $t0, 0xB000
    lw      $t1, 0($t0)
    lui     $t2, 0xA460
    andi    $t3, $t1, 0xFF
    sw      $t3, 0x14($t2)
    srl     $t3, $t1, 8
    andi    $t3, $t3, 0xFF
    sw      $t3, 0x18($t2)
    srl     $t3, $t1, 16
    andi    $t3, $t3, 0x0F
    sw      $t3, 0x1C($t2)
    srl     $t3, $t1, 20
    andi    $t3, $t3, 0x03
    sw      $t3, 0x20($t2)

    # 4. Copy 0xFC0 bytes, a word at a time, from the cartridge (uncached
    # 0xB0000040) to DMEM (0xA4000040).
    lui     $t0, 0xB000
    ori     $t0, $t0, 0x0040
    lui     $t1, 0xA400
    ori     $t1, $t1, 0x0040
    lui     $t2, 0xA400
    ori     $t2, $t2, 0x1000
1:
    lw      $t4, 0($t0)
    sw      $t4, 0($t1)
    addiu   $t0, $t0, 4
    addiu   $t1, $t1, 4
    bne     $t1, $t2, 1b
    nop

    lui     $t3, 0xA400
    ori     $t3, $t3, 0x0040
    lui     $sp, 0xA400
    ori     $sp, $sp, 0x1FF0
    lui     $ra, 0xA400
    ori     $ra, $ra, 0x1550
    jr      $t3
    nop

    # Back to the assembler defaults for whatever is assembled next.
    .set    reorder
    .set    at
    .text
