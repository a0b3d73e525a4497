//! Seeded random walks: input that runs at walls and into corners, for the
//! collision soak test and the collision benchmark (one generator, so both
//! exercise the same kind of play).

use engine::game::Input;

/// `ticks` ticks of input from `seed`: runs of 5 to 64 ticks, mostly at full
/// speed with some strafing and slow turns, with sharp turns on the spot and
/// backing off between them.
pub fn seeded(seed: u64, ticks: usize) -> Vec<Input> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        // xorshift64: tiny, deterministic, good enough for variety.
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut out = Vec::with_capacity(ticks);
    while out.len() < ticks {
        let r = next();
        let run = 5 + (r % 60) as usize;
        let input = match r >> 8 & 7 {
            0 => Input::new(0, 0, ((r >> 16) % 91) as i32 - 45),
            1 => Input::new(-100, ((r >> 16) % 201) as i32 - 100, 0),
            2 => Input::new(100, 100, ((r >> 24) % 7) as i32 - 3),
            3 => Input::new(100, -100, ((r >> 24) % 7) as i32 - 3),
            _ => Input::new(
                100,
                ((r >> 16) % 61) as i32 - 30,
                ((r >> 24) % 5) as i32 - 2,
            ),
        };
        out.extend(std::iter::repeat_n(input, run));
    }
    out.truncate(ticks);
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn same_seed_same_walk_and_exact_length() {
        assert_eq!(super::seeded(3, 500), super::seeded(3, 500));
        assert_ne!(super::seeded(3, 500), super::seeded(4, 500));
        assert_eq!(super::seeded(9, 1234).len(), 1234);
    }
}
