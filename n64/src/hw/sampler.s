# The sampling profiler's interrupt handler (sampler.rs): on each timer
# interrupt (Count reached Compare), one more sample for the 32 bytes of
# code the interrupted instruction is in, then the next interrupt
# INTERVAL Count ticks on, and back to the program. Any other exception
# goes on to `exception_entry` (exception.s), the crash report.
#
# sampler.rs copies `sampler_vector_stub` over the general exception
# vector (0x80000180) when the profiler is built in. It uses only k0 and
# k1 (the ABI leaves them to the kernel) and saves t0 and t1 whole (the
# program keeps 64-bit values in registers), so the program resumes
# exactly where it was.

    .section .text.sampler, "ax"
    .set    noreorder
    .set    noat

    .global sampler_vector_stub
sampler_vector_stub:
    lui     $k0, %hi(sampler_entry)
    addiu   $k0, $k0, %lo(sampler_entry)
    jr      $k0
    nop

    .type   sampler_entry, @function
sampler_entry:
    # A timer interrupt is ExcCode 0 (bits 2..6) with IP7 (bit 15) set.
    mfc0    $k0, $13
    andi    $k0, $k0, 0x807C
    ori     $k1, $zero, 0x8000
    bne     $k0, $k1, 2f
    nop

    lui     $k0, %hi(sampler_scratch)
    addiu   $k0, $k0, %lo(sampler_scratch)
    sd      $t0, 0($k0)
    sd      $t1, 8($k0)
    # Bucket (EPC - 0x80000000) / 32, when it is inside the counts; a
    # count stops at 65535.
    mfc0    $t0, $14
    lui     $t1, 0x8000
    subu    $t0, $t0, $t1
    srl     $t0, $t0, 5
    sltiu   $t1, $t0, {buckets}
    beqz    $t1, 1f
    sll     $t0, $t0, 1
    lui     $t1, %hi(sampler_counts)
    addiu   $t1, $t1, %lo(sampler_counts)
    addu    $t0, $t0, $t1
    lhu     $t1, 0($t0)
    addiu   $t1, $t1, 1
    andi    $k1, $t1, 0xFFFF
    beqz    $k1, 1f
    nop
    sh      $t1, 0($t0)
1:
    # Writing Compare acknowledges the interrupt.
    mfc0    $t0, $9
    addiu   $t0, $t0, {interval}
    mtc0    $t0, $11
    ld      $t0, 0($k0)
    ld      $t1, 8($k0)
    eret
2:
    lui     $k0, %hi(exception_entry)
    addiu   $k0, $k0, %lo(exception_entry)
    jr      $k0
    nop
    .size   sampler_entry, . - sampler_entry

    .section .bss.sampler, "aw", @nobits
    .balign 16
sampler_scratch:
    .space  16

    # Back to the assembler defaults for whatever is assembled next.
    .set    reorder
    .set    at
    .text
