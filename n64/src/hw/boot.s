# The program's entry point, `_start`, at the very start of the image
# (0x80000400). Both boot loaders jump here: libdragon's IPL3 (console
# ROM) after loading the ELF's PT_LOAD segment, and our emulator IPL3
# (ipl3_emu.s) after DMAing the flat image.

    .section .boot, "ax"
    .set    noreorder
    .set    noat
    .global _start
    .type   _start, @function
_start:
    b       start_after_header
    nop
    # Image size in bytes, from _start to the end of .data: our emulator
    # IPL3 reads this word from the cartridge to know how much to copy.
    .word   __image_end - _start
    .word   0

start_after_header:
    # Status: coprocessors 0 and 1 usable, FR=1 (32 64-bit FPU registers;
    # the o32 fpxx code runs in either mode), kernel mode, interrupts off,
    # BEV/ERL/EXL clear so exceptions go to our vectors in RDRAM.
    lui     $t0, 0x3400
    mtc0    $t0, $12
    # Give the Status write time to take effect before the FPU is used.
    nop
    nop
    nop
    nop
    # FPU control: round to nearest, no traps, flush denormals to zero
    # (the R4300 raises "unimplemented operation" on denormals otherwise).
    lui     $t0, 0x0100
    ctc1    $t0, $31

    # __stack_top is 16 bytes below the end of RAM: the o32 argument save
    # area of rust_entry's caller.
    lui     $sp, %hi(__stack_top)
    addiu   $sp, $sp, %lo(__stack_top)
    lui     $gp, %hi(_gp)
    addiu   $gp, $gp, %lo(_gp)

    # Zero .bss; both ends are 16-byte aligned (link.x).
    lui     $t0, %hi(__bss_start)
    addiu   $t0, $t0, %lo(__bss_start)
    lui     $t1, %hi(__bss_end)
    addiu   $t1, $t1, %lo(__bss_end)
1:
    beq     $t0, $t1, 2f
    nop
    sw      $zero, 0($t0)
    sw      $zero, 4($t0)
    sw      $zero, 8($t0)
    sw      $zero, 12($t0)
    b       1b
    addiu   $t0, $t0, 16
2:
    # TLB: its entries are undefined at power on. Make every entry invalid
    # and give each a distinct VPN in KSEG0 (which is never translated), so
    # that no address ever hits one: a stray pointer into the mapped
    # segments (a null pointer) then raises a TLB miss, which the
    # exception handler reports.
    mtc0    $zero, $5           # PageMask: 4 KiB pages
    mtc0    $zero, $2           # EntryLo0: invalid
    mtc0    $zero, $3           # EntryLo1: invalid
    lui     $t0, 0x8000         # EntryHi: VPN2 in KSEG0, ASID 0
    move    $t1, $zero          # Index
    ori     $t2, $zero, 32      # entries
4:
    mtc0    $t1, $0
    mtc0    $t0, $10
    nop
    nop
    tlbwi
    addiu   $t0, $t0, 0x2000
    addiu   $t1, $t1, 1
    bne     $t1, $t2, 4b
    nop

    jal     rust_entry
    nop
3:
    b       3b
    nop
    .size   _start, . - _start

    # Back to the assembler defaults for whatever is assembled next.
    .set    reorder
    .set    at
    .text
