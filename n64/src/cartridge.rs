//! The levels on the cartridge: a level pack ([`engine::format::pack`])
//! that `build.sh` appends to the ROM at a 1 MiB boundary, past the
//! program. The program is loaded into RDRAM at boot; the levels are not.
//! [`Levels::find`] looks for the pack and reads its index once; each
//! level is copied into the level memory when it starts ([`Levels::load`]),
//! over the one before, and loaded there with the engine's checks, as on
//! the desktop. So a ROM holds as many levels as the cartridge holds bytes
//! (64 MiB), and the largest level, not the sum, is what must fit in RDRAM.
//!
//! The hardware is behind [`Rom`], so all of this is tested on the host
//! against a ROM in a `Vec`.

use core::fmt;

use engine::format::pack::{self, PackError, PackIndex, PackLevel, PackSource};
use engine::format::LoadError;
use engine::game::Exit;
use engine::world::Level;

/// The pack starts at a multiple of this in the ROM (the first past the
/// program, and never inside the first 1 MiB + 4 KiB that the boot
/// checksum covers).
pub const PACK_ALIGN: u32 = 1 << 20;
/// The largest cartridge ROM: 64 MiB.
pub const ROM_MAX: u32 = 64 << 20;

/// Cartridge ROM, as the levels read it.
pub trait Rom {
    /// The big-endian word at `at` (4-byte aligned), or `None` past the
    /// largest ROM.
    fn word(&mut self, at: u32) -> Option<u32>;
    /// Fills `into` from offset `at`; false if that cannot be done.
    fn read(&mut self, at: u32, into: &mut [u8]) -> bool;
}

/// Why the levels, or one level, could not be had.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CartError {
    /// No pack at any 1 MiB boundary of the ROM.
    NoPack,
    /// The pack (or the level's pieces in it) is damaged, or the level
    /// does not fit in the memory given.
    Pack(PackError),
    /// The level's bytes are not a map the engine loads.
    Load(LoadError),
}

impl fmt::Display for CartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CartError::NoPack => write!(f, "no level pack on the cartridge"),
            CartError::Pack(e) => write!(f, "{e}"),
            CartError::Load(e) => write!(f, "the level does not load: {e}"),
        }
    }
}

impl From<PackError> for CartError {
    fn from(e: PackError) -> CartError {
        CartError::Pack(e)
    }
}

/// The pack on a cartridge: where it is and its checked index.
pub struct Levels<R> {
    rom: R,
    base: u32,
    index: [u8; pack::MAX_INDEX_LEN],
    count: usize,
}

/// The pack's bytes, seen from the ROM.
struct InRom<'r, R> {
    rom: &'r mut R,
    base: u32,
}

impl<R: Rom> PackSource for InRom<'_, R> {
    fn read(&mut self, at: u32, into: &mut [u8]) -> Result<(), PackError> {
        let rom_at = self.base.checked_add(at).ok_or(PackError::Read(at))?;
        let end = u64::from(rom_at) + into.len() as u64;
        if end > u64::from(ROM_MAX) || !self.rom.read(rom_at, into) {
            return Err(PackError::Read(at));
        }
        Ok(())
    }
}

impl<R: Rom> Levels<R> {
    /// Finds the pack (the first 1 MiB boundary whose bytes are a pack's
    /// header) and checks its index.
    pub fn find(mut rom: R) -> Result<Levels<R>, CartError> {
        let magic = u32::from_be_bytes(pack::MAGIC);
        let mut base = PACK_ALIGN;
        while base < ROM_MAX {
            if rom.word(base) == Some(magic) {
                return Levels::at(rom, base);
            }
            base += PACK_ALIGN;
        }
        Err(CartError::NoPack)
    }

    fn at(mut rom: R, base: u32) -> Result<Levels<R>, CartError> {
        let mut index = [0u8; pack::MAX_INDEX_LEN];
        let mut source = InRom {
            rom: &mut rom,
            base,
        };
        source.read(0, &mut index[..pack::HEADER_LEN])?;
        let len = pack::index_len(&index[..pack::HEADER_LEN])?;
        source.read(0, &mut index[..len])?;
        let checked = PackIndex::new_checked(&index)?;
        if u64::from(base) + u64::from(checked.pack_len()) > u64::from(ROM_MAX) {
            return Err(CartError::Pack(PackError::Truncated {
                needed: (base as usize).saturating_add(checked.pack_len() as usize),
                len: ROM_MAX as usize,
            }));
        }
        let count = checked.len();
        Ok(Levels {
            rom,
            base,
            index,
            count,
        })
    }

    fn view(&self) -> PackIndex<'_> {
        // Checked in `at`; the bytes have not changed since. The menu and
        // the readout ask for names every frame, so not checked again.
        PackIndex::new_unchecked(&self.index)
    }

    /// Number of levels (at least one).
    pub fn len(&self) -> usize {
        self.count
    }

    /// Always false: a pack has at least one level.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Where the pack starts in the ROM.
    pub fn base(&self) -> u32 {
        self.base
    }

    /// The pack's length in bytes.
    pub fn pack_len(&self) -> u32 {
        self.view().pack_len()
    }

    /// The largest level's length in bytes.
    pub fn largest(&self) -> u32 {
        self.view().largest()
    }

    /// Level `i`'s name, title and length.
    pub fn level(&self, i: usize) -> Option<PackLevel<'_>> {
        self.view().level(i)
    }

    /// The name of level `i` (empty past the last).
    pub fn name(&self, i: usize) -> &str {
        self.level(i).map_or("", |l| l.name)
    }

    /// The first level called `name`.
    pub fn find_level(&self, name: &str) -> Option<usize> {
        self.view().find(name)
    }

    /// The level an exit from level `i` goes on to: the map DOOM's order
    /// names ([`engine::episode`]: a secret exit to E1M9, E1M9 back to
    /// E1M4) when the cartridge has it, else the next on the cartridge
    /// (our own maps, the end of an episode), round to the first.
    pub fn after_exit(&self, i: usize, exit: Exit) -> usize {
        let view = self.view();
        let find = |name: &str| {
            (0..self.count).find(|&k| {
                view.level(k)
                    .is_some_and(|l| l.name.eq_ignore_ascii_case(name))
            })
        };
        engine::episode::next_map(self.name(i), exit, |name| find(name).is_some())
            .and_then(|name| find(&name))
            .unwrap_or((i + 1) % self.count.max(1))
    }

    /// Copies level `i` into `memory` (over whatever was there) and loads
    /// it. A level larger than `memory` is refused before anything is
    /// copied ([`PackError::TooLarge`]).
    pub fn load<'m>(&mut self, i: usize, memory: &'m mut [u8]) -> Result<Level<'m>, CartError> {
        let index = PackIndex::new_unchecked(&self.index);
        let mut source = InRom {
            rom: &mut self.rom,
            base: self.base,
        };
        let len = pack::copy_level(&index, i, &mut source, memory)?;
        let memory: &'m [u8] = memory;
        Level::load(&memory[..len]).map_err(CartError::Load)
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec::Vec;

    /// A ROM in memory; past its end it reads as a console's open bus
    /// might, never as a pack.
    struct VecRom(Vec<u8>);

    impl Rom for VecRom {
        fn word(&mut self, at: u32) -> Option<u32> {
            let at = at as usize;
            Some(match self.0.get(at..at + 4) {
                Some(b) => u32::from_be_bytes([b[0], b[1], b[2], b[3]]),
                None => at as u32 & 0xFFFF,
            })
        }

        fn read(&mut self, at: u32, into: &mut [u8]) -> bool {
            let at = at as usize;
            match self.0.get(at..at + into.len()) {
                Some(b) => {
                    into.copy_from_slice(b);
                    true
                }
                None => false,
            }
        }
    }

    /// Our maps, compiled, and a ROM with their pack 2 MiB in (past a
    /// pretend program that holds the magic at an odd place).
    fn rom_with_pack() -> (Vec<Vec<u8>>, Vec<u8>) {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let names = ["e1_hangar", "textured", "corners"];
        let mut builder = tools::pack::PackBuilder::new();
        let mut maps = Vec::new();
        for name in names {
            let out = tools::load_map(&root.join(std::format!("maps/{name}.map"))).unwrap();
            builder.add(name, "", &out.bytes).unwrap();
            maps.push(out.bytes);
        }
        let mut rom = std::vec![0u8; 2 << 20];
        rom[0x1234..0x1238].copy_from_slice(&pack::MAGIC);
        rom.extend_from_slice(&builder.finish().unwrap());
        (maps, rom)
    }

    #[test]
    fn the_pack_is_found_and_every_level_loads_as_compiled() {
        let (maps, rom) = rom_with_pack();
        let mut levels = Levels::find(VecRom(rom)).unwrap();
        assert_eq!(levels.base(), 2 << 20);
        assert_eq!(levels.len(), 3);
        assert_eq!(levels.name(1), "textured");
        assert_eq!(levels.find_level("corners"), Some(2));
        assert_eq!(
            levels.largest() as usize,
            maps.iter().map(Vec::len).max().unwrap()
        );
        let mut memory = std::vec![0xEEu8; 256 * 1024];
        for (i, want) in maps.iter().enumerate() {
            let level = levels.load(i, &mut memory).unwrap();
            assert_eq!(
                level.map().title(),
                Level::load(want).unwrap().map().title()
            );
            assert_eq!(&memory[..want.len()], &want[..], "level {i}");
        }
    }

    #[test]
    fn a_level_too_large_is_refused_and_no_pack_is_an_error() {
        let (maps, rom) = rom_with_pack();
        let mut levels = Levels::find(VecRom(rom)).unwrap();
        let mut small = std::vec![0u8; maps[1].len() - 1];
        assert_eq!(
            levels.load(1, &mut small).err(),
            Some(CartError::Pack(PackError::TooLarge {
                needed: maps[1].len(),
                room: maps[1].len() - 1
            }))
        );
        assert!(matches!(
            Levels::find(VecRom(std::vec![0u8; 3 << 20])),
            Err(CartError::NoPack)
        ));
    }

    #[test]
    fn exits_go_on_in_dooms_order_or_the_cartridges() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let map = tools::load_map(&root.join("maps/corners.map"))
            .unwrap()
            .bytes;
        let names = [
            "e1_hangar",
            "E1M1",
            "E1M2",
            "E1M3",
            "E1M4",
            "E1M8",
            "E1M9",
            "MAP15",
            "map31",
        ];
        let mut builder = tools::pack::PackBuilder::new();
        for name in names {
            builder.add(name, "", &map).unwrap();
        }
        let mut rom = std::vec![0u8; 1 << 20];
        rom.extend_from_slice(&builder.finish().unwrap());
        let levels = Levels::find(VecRom(rom)).unwrap();
        let after =
            |name: &str, exit| names[levels.after_exit(levels.find_level(name).unwrap(), exit)];
        assert_eq!(after("E1M1", Exit::Normal), "E1M2");
        assert_eq!(after("E1M3", Exit::Secret), "E1M9");
        assert_eq!(after("E1M9", Exit::Normal), "E1M4");
        // A secret exit goes to the episode's 9th map from any map.
        assert_eq!(after("E1M2", Exit::Secret), "E1M9");
        // E1M4's next (E1M5) is not on the cartridge, E1M8 ends the
        // episode, e1_hangar is no DOOM name: the next on the cartridge.
        assert_eq!(after("E1M4", Exit::Normal), "E1M8");
        assert_eq!(after("E1M8", Exit::Normal), "E1M9");
        assert_eq!(after("e1_hangar", Exit::Secret), "E1M1");
        assert_eq!(after("MAP15", Exit::Secret), "map31");
        // MAP31's secret map (MAP32) and its normal exit's (MAP16) are
        // missing: round to the first.
        assert_eq!(after("map31", Exit::Secret), "e1_hangar");
        assert_eq!(after("map31", Exit::Normal), "e1_hangar");
    }

    #[test]
    fn a_truncated_or_damaged_rom_never_panics() {
        let (_, rom) = rom_with_pack();
        let pack_len = rom.len() - (2 << 20);
        let mut memory = std::vec![0u8; 256 * 1024];
        // Cut through the index, the piece table and the data.
        for cut in [8, 30, 200, pack_len / 3, pack_len / 2, pack_len - 1] {
            let short = rom[..(2 << 20) + cut].to_vec();
            if let Ok(mut levels) = Levels::find(VecRom(short)) {
                for i in 0..levels.len() {
                    let _ = levels.load(i, &mut memory);
                }
                assert!(
                    (0..levels.len()).any(|i| levels.load(i, &mut memory).is_err()),
                    "cut at {cut}: some level must be lost"
                );
            }
        }
        // Flip bytes all over the index and the piece table.
        for at in (0..2000).step_by(7) {
            let mut bad = rom.clone();
            bad[(2 << 20) + at] ^= 0x5A;
            if let Ok(mut levels) = Levels::find(VecRom(bad)) {
                for i in 0..levels.len() {
                    let _ = levels.load(i, &mut memory);
                }
            }
        }
    }
}
