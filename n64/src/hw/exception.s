# Exception entry. The CPU jumps to fixed vectors in RDRAM (TLB refill
# 0x80000000, XTLB refill 0x80000080, cache error 0xA0000100, general
# 0x80000180); exception.rs copies `exception_vector_stub` to each. The
# stub jumps to `exception_entry`, which saves the general registers for
# the report, switches to a stack of its own (the program's may be what
# failed) and calls `exception_report` in exception.rs, which never
# returns. The handler never resumes the program, so it saves only what
# the report prints.

    .section .text.exception, "ax"
    .set    noreorder
    .set    noat

    .global exception_vector_stub
    .global exception_vector_stub_end
exception_vector_stub:
    lui     $k0, %hi(exception_entry)
    addiu   $k0, $k0, %lo(exception_entry)
    jr      $k0
    nop
exception_vector_stub_end:

    .global exception_entry
    .type   exception_entry, @function
exception_entry:
    lui     $k0, %hi(exception_saved_registers)
    addiu   $k0, $k0, %lo(exception_saved_registers)
    sw      $zero, 0($k0)
    sw      $1, 4($k0)
    sw      $2, 8($k0)
    sw      $3, 12($k0)
    sw      $4, 16($k0)
    sw      $5, 20($k0)
    sw      $6, 24($k0)
    sw      $7, 28($k0)
    sw      $8, 32($k0)
    sw      $9, 36($k0)
    sw      $10, 40($k0)
    sw      $11, 44($k0)
    sw      $12, 48($k0)
    sw      $13, 52($k0)
    sw      $14, 56($k0)
    sw      $15, 60($k0)
    sw      $16, 64($k0)
    sw      $17, 68($k0)
    sw      $18, 72($k0)
    sw      $19, 76($k0)
    sw      $20, 80($k0)
    sw      $21, 84($k0)
    sw      $22, 88($k0)
    sw      $23, 92($k0)
    sw      $24, 96($k0)
    sw      $25, 100($k0)
    sw      $zero, 104($k0)
    sw      $zero, 108($k0)
    sw      $28, 112($k0)
    sw      $29, 116($k0)
    sw      $30, 120($k0)
    sw      $31, 124($k0)

    # The o32 ABI lets the callee store its four argument registers in the
    # 16 bytes above sp: leave them (and keep sp 8-byte aligned).
    lui     $sp, %hi(exception_stack_top)
    addiu   $sp, $sp, %lo(exception_stack_top)
    addiu   $sp, $sp, -32
    lui     $gp, %hi(_gp)
    addiu   $gp, $gp, %lo(_gp)
    mfc0    $a0, $13        # Cause
    mfc0    $a1, $14        # EPC
    mfc0    $a2, $8         # BadVAddr
    mfc0    $a3, $12        # Status
    jal     exception_report
    nop
1:
    b       1b
    nop
    .size   exception_entry, . - exception_entry

    .section .bss.exception, "aw", @nobits
    .balign 16
    .global exception_saved_registers
exception_saved_registers:
    .space  128
    .balign 16
exception_stack:
    .space  16384
exception_stack_top:

    # Back to the assembler defaults for whatever is assembled next.
    .set    reorder
    .set    at
    .text
