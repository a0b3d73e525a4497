//! Text without a heap: a fixed-capacity line that implements
//! `core::fmt::Write`.

use core::fmt;

/// Up to `N` bytes of text; writes past the end are dropped (the text is
/// cut at a character boundary).
#[derive(Clone)]
pub struct LineBuffer<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> LineBuffer<N> {
    /// An empty line.
    pub const fn new() -> Self {
        LineBuffer {
            bytes: [0; N],
            len: 0,
        }
    }

    /// The text so far.
    pub fn as_str(&self) -> &str {
        // Only whole UTF-8 characters are ever appended.
        core::str::from_utf8(&self.bytes[..self.len]).unwrap_or("")
    }

    /// The text so far, as bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// Number of bytes held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Cuts the text to at most `len` bytes (at a character boundary).
    pub fn truncate(&mut self, len: usize) {
        let mut cut = len.min(self.len);
        while cut > 0 && !self.as_str_unchecked_boundary(cut) {
            cut -= 1;
        }
        self.len = cut;
    }

    fn as_str_unchecked_boundary(&self, at: usize) -> bool {
        at >= self.len || (self.bytes[at] & 0xC0) != 0x80
    }

    /// Appends one ASCII byte, if there is room (other bytes are ignored).
    pub fn push_byte(&mut self, byte: u8) {
        if byte.is_ascii() && self.len < N {
            self.bytes[self.len] = byte;
            self.len += 1;
        }
    }
}

impl<const N: usize> Default for LineBuffer<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> fmt::Write for LineBuffer<N> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for c in s.chars() {
            let mut utf8 = [0u8; 4];
            let encoded = c.encode_utf8(&mut utf8).as_bytes();
            if self.len + encoded.len() > N {
                // Full: keep what fits, drop the rest quietly (a report cut
                // short beats a report lost).
                return Ok(());
            }
            self.bytes[self.len..self.len + encoded.len()].copy_from_slice(encoded);
            self.len += encoded.len();
        }
        Ok(())
    }
}

impl<const N: usize> fmt::Debug for LineBuffer<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::fmt::Write;

    #[test]
    fn formats_and_truncates_at_capacity() {
        let mut line = LineBuffer::<8>::new();
        write!(line, "{}-{}", 1234, 56789).unwrap();
        assert_eq!(line.as_str(), "1234-567");
        line.truncate(3);
        assert_eq!(line.as_str(), "123");
        line.push_byte(b'\n');
        assert_eq!(line.as_bytes(), b"123\n");
        line.clear();
        assert!(line.is_empty());
    }

    #[test]
    fn never_splits_a_character() {
        let mut line = LineBuffer::<4>::new();
        write!(line, "ab\u{e9}\u{e9}").unwrap();
        assert_eq!(line.as_str(), "ab\u{e9}");
        line.truncate(3);
        assert_eq!(line.as_str(), "ab");
    }
}
