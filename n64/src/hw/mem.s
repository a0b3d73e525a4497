# memcpy and memset for the VR4300, replacing compiler_builtins' (a word
# or a byte at a time): doublewords, four a step, where the addresses
# allow. The program copies and clears kilobytes of tables a frame (the
# renderer's per-frame state) and sorts its visible sprites by moving
# them. Both return the destination; both follow the o32 ABI, using only
# a0-a2, v0 and t0-t5.

    .section .text.mem, "ax"
    .set    noreorder
    .set    noat

# memcpy(dst a0, src a1, n a2): the regions do not overlap.
    .global memcpy
    .type   memcpy, @function
memcpy:
    move    $v0, $a0
    or      $t0, $a0, $a1
    andi    $t1, $t0, 7
    bnez    $t1, 4f
    andi    $t1, $t0, 3
    # Both 8-byte aligned: 32 bytes a step, then 8.
1:  sltiu   $t1, $a2, 32
    bnez    $t1, 2f
    nop
    ld      $t2, 0($a1)
    ld      $t3, 8($a1)
    ld      $t4, 16($a1)
    ld      $t5, 24($a1)
    sd      $t2, 0($a0)
    addiu   $a2, $a2, -32
    sd      $t3, 8($a0)
    addiu   $a1, $a1, 32
    sd      $t4, 16($a0)
    addiu   $a0, $a0, 32
    b       1b
    sd      $t5, -8($a0)
2:  sltiu   $t1, $a2, 8
    bnez    $t1, 6f
    nop
3:  ld      $t2, 0($a1)
    addiu   $a2, $a2, -8
    addiu   $a1, $a1, 8
    sltiu   $t1, $a2, 8
    sd      $t2, 0($a0)
    beqz    $t1, 3b
    addiu   $a0, $a0, 8
    b       6f
    nop
    # Both 4-byte aligned (t1 is zero then): 16 bytes a step, then bytes.
4:  bnez    $t1, 6f
    nop
5:  sltiu   $t1, $a2, 16
    bnez    $t1, 6f
    nop
    lw      $t2, 0($a1)
    lw      $t3, 4($a1)
    lw      $t4, 8($a1)
    lw      $t5, 12($a1)
    sw      $t2, 0($a0)
    addiu   $a2, $a2, -16
    sw      $t3, 4($a0)
    addiu   $a1, $a1, 16
    sw      $t4, 8($a0)
    addiu   $a0, $a0, 16
    b       5b
    sw      $t5, -4($a0)
    # What is left, a byte at a time.
6:  beqz    $a2, 8f
    nop
7:  lbu     $t2, 0($a1)
    addiu   $a2, $a2, -1
    addiu   $a1, $a1, 1
    sb      $t2, 0($a0)
    bnez    $a2, 7b
    addiu   $a0, $a0, 1
8:  jr      $ra
    nop
    .size   memcpy, . - memcpy

# memset(dst a0, byte a1, n a2).
    .global memset
    .type   memset, @function
memset:
    move    $v0, $a0
    andi    $a1, $a1, 0xff
    sltiu   $t1, $a2, 16
    bnez    $t1, 5f
    nop
    # The byte eight times over.
    dsll    $t0, $a1, 8
    or      $t0, $t0, $a1
    dsll    $t1, $t0, 16
    or      $t0, $t0, $t1
    dsll32  $t1, $t0, 0
    or      $t0, $t0, $t1
    # Bytes up to an 8-byte boundary (fewer than 8: n stays at least 8).
1:  andi    $t1, $a0, 7
    beqz    $t1, 2f
    nop
    sb      $a1, 0($a0)
    addiu   $a2, $a2, -1
    b       1b
    addiu   $a0, $a0, 1
    # 32 bytes a step, then 8.
2:  sltiu   $t1, $a2, 32
    bnez    $t1, 3f
    nop
    sd      $t0, 0($a0)
    sd      $t0, 8($a0)
    sd      $t0, 16($a0)
    sd      $t0, 24($a0)
    addiu   $a2, $a2, -32
    b       2b
    addiu   $a0, $a0, 32
3:  sltiu   $t1, $a2, 8
    bnez    $t1, 5f
    nop
4:  sd      $t0, 0($a0)
    addiu   $a2, $a2, -8
    sltiu   $t1, $a2, 8
    beqz    $t1, 4b
    addiu   $a0, $a0, 8
    # What is left, a byte at a time.
5:  beqz    $a2, 7f
    nop
6:  sb      $a1, 0($a0)
    addiu   $a2, $a2, -1
    bnez    $a2, 6b
    addiu   $a0, $a0, 1
7:  jr      $ra
    nop
    .size   memset, . - memset

    # Back to the assembler defaults for whatever is assembled next.
    .set    reorder
    .set    at
    .text
