//! The one place that knows the byte order of a compiled map: big-endian,
//! the N64's own, so the console reads the file in place.
//!
//! Reads take a slice and an offset and return 0 for any byte outside the
//! slice: they cannot panic. The loader proves every offset in range once,
//! so after a successful load the 0 fallback is never taken.

/// Reads a big-endian `u16` at `at` (0 if out of range).
#[inline]
pub fn u16_at(bytes: &[u8], at: usize) -> u16 {
    match bytes.get(at..at.wrapping_add(2)) {
        Some(&[a, b]) => u16::from_be_bytes([a, b]),
        _ => 0,
    }
}

/// Reads a big-endian `u32` at `at` (0 if out of range).
#[inline]
pub fn u32_at(bytes: &[u8], at: usize) -> u32 {
    match bytes.get(at..at.wrapping_add(4)) {
        Some(&[a, b, c, d]) => u32::from_be_bytes([a, b, c, d]),
        _ => 0,
    }
}

/// Reads a big-endian `i32` at `at` (0 if out of range).
#[inline]
pub fn i32_at(bytes: &[u8], at: usize) -> i32 {
    u32_at(bytes, at) as i32
}

/// Reads one byte at `at` (0 if out of range).
#[inline]
pub fn u8_at(bytes: &[u8], at: usize) -> u8 {
    bytes.get(at).copied().unwrap_or(0)
}

/// A cursor that writes big-endian values into a caller-owned buffer.
/// Writes past the end are dropped and remembered, so the emitter can
/// report a short buffer instead of panicking.
pub struct Writer<'a> {
    buf: &'a mut [u8],
    pos: usize,
    overflowed: bool,
}

impl<'a> Writer<'a> {
    /// A writer at the start of `buf`.
    pub fn new(buf: &'a mut [u8]) -> Self {
        Writer {
            buf,
            pos: 0,
            overflowed: false,
        }
    }

    /// Bytes written so far.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// True if any write fell outside the buffer.
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// Writes raw bytes.
    pub fn bytes(&mut self, data: &[u8]) {
        let end = self.pos.saturating_add(data.len());
        match self.buf.get_mut(self.pos..end) {
            Some(dst) => dst.copy_from_slice(data),
            None => self.overflowed = true,
        }
        self.pos = end;
    }

    /// Writes a big-endian `u16`.
    pub fn u16(&mut self, v: u16) {
        self.bytes(&v.to_be_bytes());
    }

    /// Writes a big-endian `u32`.
    pub fn u32(&mut self, v: u32) {
        self.bytes(&v.to_be_bytes());
    }

    /// Writes a big-endian `i32`.
    pub fn i32(&mut self, v: i32) {
        self.bytes(&v.to_be_bytes());
    }

    /// Writes one byte.
    pub fn u8(&mut self, v: u8) {
        self.bytes(&[v]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_big_endian_and_total() {
        let b = [0x12, 0x34, 0x56, 0x78];
        assert_eq!(u16_at(&b, 0), 0x1234);
        assert_eq!(u32_at(&b, 0), 0x1234_5678);
        assert_eq!(u16_at(&b, 3), 0);
        assert_eq!(u32_at(&b, usize::MAX), 0);
        assert_eq!(u8_at(&b, 4), 0);
    }

    #[test]
    fn writer_reports_overflow_instead_of_panicking() {
        let mut buf = [0u8; 3];
        let mut w = Writer::new(&mut buf);
        w.u16(0xABCD);
        assert!(!w.overflowed());
        w.u16(1);
        assert!(w.overflowed());
        assert_eq!(buf, [0xAB, 0xCD, 0]);
    }
}
