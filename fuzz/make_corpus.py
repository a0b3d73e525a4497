#!/usr/bin/env python3
"""Regenerates the seed corpora under fuzz/corpus/ from the repository's own
inputs: our text maps and their compiled forms, the desktop's test demos, one
Freedoom map extracted into a small PWAD, plus truncated and bit-flipped
copies of each. Deterministic (fixed random seed).

Usage: python3 fuzz/make_corpus.py   (after `cargo build --release -p tools`)
"""
import os, random, struct, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")
TOOLS = os.path.join(ROOT, "target", "release", "tools")
FREEDOOM1 = "/usr/share/games/doom/freedoom1.wad"
rng = random.Random(20261121)


def put(target, name, data):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def variants(target, name, data, count=4):
    """The input, a few truncations and a few bit flips."""
    put(target, name, data)
    for i in range(count):
        if len(data) > 1:
            cut = rng.randrange(1, len(data))
            put(target, f"{name}.cut{i}", data[:cut])
            flipped = bytearray(data)
            for _ in range(1 + i):
                at = rng.randrange(len(flipped))
                flipped[at] ^= 1 << rng.randrange(8)
            put(target, f"{name}.flip{i}", bytes(flipped))


def extract_map(wad_path, map_name):
    """A PWAD holding one map's lumps from an IWAD."""
    data = open(wad_path, "rb").read()
    n, diro = struct.unpack_from("<ii", data, 4)
    entries = [struct.unpack_from("<ii8s", data, diro + 16 * i) for i in range(n)]
    names = [e[2].rstrip(b"\0").decode("ascii", "replace") for e in entries]
    start = names.index(map_name)
    lumps = [(names[start], b"")]
    for i in range(start + 1, min(start + 12, n)):
        if names[i] not in ("THINGS", "LINEDEFS", "SIDEDEFS", "VERTEXES", "SEGS", "SSECTORS",
                            "NODES", "SECTORS", "REJECT", "BLOCKMAP"):
            break
        pos, size, _ = entries[i]
        lumps.append((names[i], data[pos:pos + size]))
    body, directory = b"", b""
    for name, lump in lumps:
        directory += struct.pack("<ii8s", 12 + len(body), len(lump), name.encode())
        body += lump
    return b"PWAD" + struct.pack("<ii", len(lumps), 12 + len(body)) + body + directory


def main():
    maps = sorted(f for f in os.listdir(os.path.join(ROOT, "maps")) if f.endswith(".map"))
    for m in maps:
        text = open(os.path.join(ROOT, "maps", m), "rb").read()
        variants("text_map", m, text)
        variants("compile_pipeline", m, text, 2)
        if os.path.exists(TOOLS):
            out = os.path.join("/tmp", m + ".spmp")
            subprocess.run([TOOLS, "compile", os.path.join(ROOT, "maps", m), "-o", out], check=True)
            compiled = open(out, "rb").read()
            variants("map_loader", m + ".spmp", compiled, 6)
            variants("compile_pipeline", m + ".spmp", compiled, 2)
    demos = os.path.join(ROOT, "desktop", "tests", "data")
    for f in sorted(os.listdir(demos)):
        if f.endswith(".demo"):
            variants("demo", f, open(os.path.join(demos, f), "rb").read(), 2)
    put("demo", "comments.demo", b"# c\n\n 3 100 -100 5 # x\r\n0 0 0 -360\n")
    put("demo", "use.demo", b"3 100 0 0 1\n2 0 0 0 0\n1 0 0 0\n")
    if os.path.exists(FREEDOOM1):
        variants("wad", "freedoom1_E1M1.wad", extract_map(FREEDOOM1, "E1M1"), 3)
    else:
        print("note: freedoom not installed; no WAD seeds", file=sys.stderr)


if __name__ == "__main__":
    main()
