//! The levels embedded in the ROM: every `maps/*.map`, compiled at build
//! time by our own map compiler (see `build.rs`), read in place from the
//! ROM image (which the boot loader copied to RDRAM).

/// One compiled level.
#[derive(Copy, Clone, Debug)]
pub struct EmbeddedLevel {
    /// The map's file name without extension, e.g. `e1_hangar`.
    pub name: &'static str,
    /// Where its source is, relative to the repository.
    pub source: &'static str,
    /// The compiled map.
    pub bytes: &'static [u8],
}

include!(concat!(env!("OUT_DIR"), "/levels.rs"));

/// The level the ROM starts on and plays the demo on.
pub fn default_level() -> &'static EmbeddedLevel {
    &LEVELS[0]
}

/// Total size of the compiled levels, in bytes.
pub fn total_bytes() -> usize {
    LEVELS.iter().map(|l| l.bytes.len()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::world::Level;

    #[test]
    fn every_level_loads_and_the_default_is_the_desktops() {
        assert_eq!(default_level().name, "e1_hangar");
        assert!(LEVELS.len() >= 3);
        for level in LEVELS.iter() {
            Level::load(level.bytes).unwrap_or_else(|e| panic!("{}: {e}", level.name));
        }
    }
}
