# Our emulator boot loader (IPL3): what runs after the PIF boot ROM, from
# SP DMEM at 0xA4000040, in ROMs built with `nust64 --ipl3`.
#
# It exists because Debian's mupen64plus cannot boot libdragon's IPL3 (its
# RDRAM initialisation is not emulated correctly before mupen64plus-core
# b4d028ae). It is unsigned, so a real console's CIC check rejects it, and
# it skips RDRAM initialisation: it is for emulators only. The console ROM
# uses libdragon's signed IPL3 instead; both carry the same program.
#
# It lives in the non-allocated ELF section `.ipl3_emu` of the program's
# ELF; build.sh cuts it out and pads it to the 4032 bytes nust64 expects.
# It must be position independent (assembled at address 0, run at
# 0xA4000040): PC-relative branches only, and no symbol references.
#
# Steps:
#  1. Status as the program expects it; boot flags in DMEM 0..15 laid out
#     as libdragon's IPL3 leaves them (RDRAM size, TV type, reset type), so
#     the program reads one layout whichever loader ran.
#  2. Invalidate both caches (their contents are undefined at power on).
#  3. PI DMA the image from cartridge 0x10001000 to the entry point's
#     physical address; its length is the word at image offset 8
#     (`__image_end - _start`, see boot.s).
#  4. Tell the PIF the boot is over, and jump to the header's entry point.

    .section .ipl3_emu, ""
    .set    noreorder
    .set    noat

ipl3_emu:
    lui     $t0, 0x3400
    mtc0    $t0, $12

    # 1. Boot flags. The PIF leaves the TV type in s4 and the reset type
    # in s5. RDRAM: 8 MiB if a word written 4 MiB up reads back (an
# Expansion Pak; both emulators have one unless told not to), else 4.
    lui     $t0, 0xA400
    lui     $t1, 0x0040
    lui     $t2, 0xA040
    lui     $t3, 0x5AFE
    ori     $t3, $t3, 0xC0DE
    sw      $t3, 0($t2)
    lw      $t6, 0($t2)
    bne     $t6, $t3, 9f
    nop
    lui     $t1, 0x0080
9:
    sw      $t1, 0($t0)
    sw      $zero, 4($t0)
    sw      $zero, 8($t0)
    sw      $zero, 12($t0)
    sb      $s4, 9($t0)
    sb      $s5, 10($t0)

    # 2. Caches: store an invalid tag into every line. I-cache 16 KiB of
    # 32-byte lines, D-cache 8 KiB of 16-byte lines.
    mtc0    $zero, $28
    mtc0    $zero, $29
    lui     $t0, 0x8000
    ori     $t1, $t0, 0x4000
1:
    cache   0x08, 0($t0)
    addiu   $t0, $t0, 32
    bne     $t0, $t1, 1b
    nop
    lui     $t0, 0x8000
    ori     $t1, $t0, 0x2000
2:
    cache   0x09, 0($t0)
    addiu   $t0, $t0, 16
    bne     $t0, $t1, 2b
    nop

    # 3. Entry point from the ROM header, image length from the image.
    lui     $t2, 0xB000
    lw      $t3, 0x0008($t2)
    lw      $t4, 0x1008($t2)

    lui     $t5, 0xA460
3:
    lw      $t6, 0x10($t5)
    andi    $t6, $t6, 3
    bnez    $t6, 3b
    nop
    lui     $at, 0x1FFF
    ori     $at, $at, 0xFFFF
    and     $t7, $t3, $at
    sw      $t7, 0x00($t5)
    lui     $t8, 0x1000
    ori     $t8, $t8, 0x1000
    sw      $t8, 0x04($t5)
    addiu   $t4, $t4, -1
    sw      $t4, 0x0C($t5)
4:
    lw      $t6, 0x10($t5)
    andi    $t6, $t6, 3
    bnez    $t6, 4b
    nop
    ori     $t6, $zero, 2
    sw      $t6, 0x10($t5)

    # 4. PIF RAM 0x7FC bit 3: boot done (otherwise the PIF resets a real
    # console after a few seconds).
    lui     $t0, 0xBFC0
    lw      $t1, 0x7FC($t0)
    ori     $t1, $t1, 8
    sw      $t1, 0x7FC($t0)

    jr      $t3
    nop

    # Back to the assembler defaults for whatever is assembled next.
    .set    reorder
    .set    at
    .text
