//! `memcpy` and `memset` in assembly (`mem.s`), doublewords at a time:
//! compiler_builtins' own (weak symbols, which these replace) move a word
//! or a byte at a time, and the program moves kilobytes a frame. The
//! program never calls them by name; the compiler does, for copies and
//! clears.

use core::arch::global_asm;

global_asm!(include_str!("mem.s"));
