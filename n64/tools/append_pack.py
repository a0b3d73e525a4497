#!/usr/bin/env python3
"""Appends a level pack to a ROM: append_pack.py ROM PACK

The pack goes at the first 1 MiB boundary at or past both the ROM's end
and 0x101000 (the boot checksum covers ROM 0x1000..0x101000, which must
stay as nust64 made it), where the program looks for it
(src/cartridge.rs). The ROM is padded with zeros to there, and past the
pack to a multiple of 16 bytes with at least 8 to spare: a DMA reads
whole doublewords. A ROM over 64 MiB is refused.
"""
import sys

MIB = 1 << 20
ROM_MAX = 64 * MIB


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: append_pack.py ROM PACK")
    rom_path, pack_path = sys.argv[1:]
    rom = bytearray(open(rom_path, "rb").read())
    pack = open(pack_path, "rb").read()
    if pack[:4] != b"SPCK":
        sys.exit(f"append_pack.py: {pack_path} is not a level pack")
    base = -(-max(len(rom), 0x101000) // MIB) * MIB
    end = base + len(pack)
    total = -(-(end + 8) // 16) * 16
    if total > ROM_MAX:
        sys.exit(f"append_pack.py: the ROM would be {total} bytes, over the 64 MiB a cartridge holds")
    rom.extend(bytes(base - len(rom)))
    rom.extend(pack)
    rom.extend(bytes(total - len(rom)))
    open(rom_path, "wb").write(rom)
    print(f"{rom_path}: {len(rom)} bytes, the level pack ({len(pack)} bytes) at 0x{base:x}")


if __name__ == "__main__":
    main()
