#!/usr/bin/env python3
"""Makes our emulator IPL3 pass cen64's CIC check.

cen64 recognises a cartridge's CIC chip by the CRC32 (zlib's) of ROM bytes
0x40..0x1000, the IPL3, and refuses a cartridge whose CRC it does not know.
Our IPL3 (src/hw/ipl3_emu.s, padded to those 4032 bytes) is not Nintendo's,
so this sets its last four bytes, padding that nothing executes or reads,
so that the CRC is CIC-NUS-6102's, the most common chip's.

CRC32 is affine over GF(2): running the register backwards from the CRC we
want through the last four bytes gives the one value they must hold.

Usage: cic_crc.py IPL3_FILE   (rewrites the file's last four bytes)
"""

import sys
import zlib

# The CRC32 cen64's si/cic.c knows as CIC-NUS-6102.
CIC_6102_CRC = 0x90BB6CB5
# The 4032 bytes from ROM 0x40 to 0x1000.
IPL3_SIZE = 0x1000 - 0x40
# zlib's CRC32, bit-reflected.
POLY = 0xEDB88320


def forged_tail(head, want):
    """The four bytes that, after `head`, give the CRC32 `want`."""
    # zlib's register after `head` (its result is the register inverted).
    register = zlib.crc32(head) ^ 0xFFFFFFFF
    # The register we need after the tail, stepped back 32 bits: a step
    # shifts right and xors POLY when the bit shifted out was 1, which
    # leaves POLY's top bit set, so the top bit tells which it was.
    r = want ^ 0xFFFFFFFF
    for _ in range(32):
        if r & 0x80000000:
            r = (((r ^ POLY) << 1) | 1) & 0xFFFFFFFF
        else:
            r = (r << 1) & 0xFFFFFFFF
    # Processing four bytes xors them into the register (little-endian
    # for a reflected CRC) and then steps it 32 times.
    return (r ^ register).to_bytes(4, "little")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    path = sys.argv[1]
    data = bytearray(open(path, "rb").read())
    if len(data) != IPL3_SIZE:
        sys.exit(f"cic_crc.py: {path} is {len(data)} bytes, not the IPL3's {IPL3_SIZE}")
    if any(data[-4:]):
        sys.exit(f"cic_crc.py: {path}'s last four bytes are not padding (not zero)")
    data[-4:] = forged_tail(bytes(data[:-4]), CIC_6102_CRC)
    if zlib.crc32(bytes(data)) != CIC_6102_CRC:
        sys.exit("cic_crc.py: the forged CRC does not check (a bug in this script)")
    open(path, "wb").write(data)


if __name__ == "__main__":
    main()
