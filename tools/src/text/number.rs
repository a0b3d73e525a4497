//! Decimal numbers to exact 16.16 fixed point, by integer arithmetic only.
//!
//! `-12.5` becomes exactly `-12.5`; `0.1` becomes the nearest multiple of
//! 1/65536 (6554/65536), the same on every machine. Going through `f32`
//! or `f64` would round twice and could land one step off.

use std::fmt;

/// Why a word is not a number.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NumberError {
    /// Not digits at all (or digits mixed with other characters).
    Invalid,
    /// `1e5`, `2E-3`: scientific notation.
    Exponent,
    /// `nan`, `inf`, `infinity`.
    NotFinite,
    /// `0x10`.
    Hex,
    /// `.5` or `5.`: a decimal point needs digits on both sides.
    BarePoint,
    /// Larger in magnitude than any map value (more than 2^31 units).
    TooLarge,
}

impl fmt::Display for NumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NumberError::Invalid => "not a number",
            NumberError::Exponent => "exponents are not supported; write the digits out",
            NumberError::NotFinite => "only finite numbers are allowed",
            NumberError::Hex => "hexadecimal numbers are not supported; write it in decimal",
            NumberError::BarePoint => "a decimal point needs digits on both sides (`0.5`, `5.0`)",
            NumberError::TooLarge => "number is far too large",
        })
    }
}

/// Most fraction digits used exactly; later digits only decide rounding
/// (they cannot reach 1/65536, see [`parse_raw`]).
const FRACTION_DIGITS: usize = 30;

/// Parses `[+-]digits[.digits]` to 16.16 raw bits (value x 65536), rounded
/// to the nearest 1/65536, ties away from zero. The result may exceed the
/// `i32` range (up to ±2^47); callers check their own range.
pub fn parse_raw(word: &str) -> Result<i64, NumberError> {
    let (negative, body) = match word.as_bytes().first() {
        Some(b'-') => (true, &word[1..]),
        Some(b'+') => (false, &word[1..]),
        _ => (false, word),
    };
    let lower = body.to_ascii_lowercase();
    if matches!(lower.as_str(), "nan" | "inf" | "infinity") {
        return Err(NumberError::NotFinite);
    }
    if lower.starts_with("0x") && lower.len() > 2 {
        return Err(NumberError::Hex);
    }
    let (int_part, frac_part) = match body.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (body, None),
    };
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let ok = all_digits(int_part) && frac_part.is_none_or(all_digits);
    if !ok {
        // Name the most likely mistake.
        let exponent = body
            .find(['e', 'E'])
            .is_some_and(|e| e > 0 && body[..e].bytes().any(|b| b.is_ascii_digit()));
        if exponent
            && body
                .bytes()
                .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
        {
            return Err(NumberError::Exponent);
        }
        let digits_or_point = body.bytes().all(|b| b.is_ascii_digit() || b == b'.');
        if digits_or_point && body.matches('.').count() == 1 && body.len() > 1 {
            return Err(NumberError::BarePoint);
        }
        return Err(NumberError::Invalid);
    }
    let int_digits = int_part.trim_start_matches('0');
    // 2^31 units is past every range a caller accepts; stopping here keeps
    // the arithmetic below far from overflow.
    if int_digits.len() > 10 {
        return Err(NumberError::TooLarge);
    }
    let int: i64 = int_digits
        .bytes()
        .fold(0, |v, d| v * 10 + (d - b'0') as i64);
    if int > i32::MAX as i64 {
        return Err(NumberError::TooLarge);
    }
    let mut frac_raw: i64 = 0;
    if let Some(frac) = frac_part {
        let kept = &frac[..frac.len().min(FRACTION_DIGITS)];
        let digits: u128 = kept.bytes().fold(0, |v, d| v * 10 + (d - b'0') as u128);
        let scale: u128 = 10u128.pow(kept.len() as u32);
        // digits / scale in units of 1/65536: q whole steps and r/scale of
        // a step. Round half up: the dropped digits (past the 30th) are
        // worth less than one unit of `r`, so they can only matter at an
        // exact tie, where rounding up is already the answer.
        let scaled = digits * 65536;
        let (q, r) = (scaled / scale, scaled % scale);
        frac_raw = q as i64 + i64::from(2 * r >= scale);
    }
    let magnitude = (int << 16) + frac_raw;
    Ok(if negative { -magnitude } else { magnitude })
}

/// Parses a whole number `[+-]digits` (no decimal point).
pub fn parse_int(word: &str) -> Result<i64, NumberError> {
    if word.contains('.') {
        return Err(NumberError::Invalid);
    }
    parse_raw(word).map(|raw| raw >> 16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_values() {
        assert_eq!(parse_raw("0"), Ok(0));
        assert_eq!(parse_raw("-0"), Ok(0));
        assert_eq!(parse_raw("12"), Ok(12 << 16));
        assert_eq!(parse_raw("-12.5"), Ok(-(25 << 15)));
        assert_eq!(parse_raw("+1.25"), Ok(81920));
        assert_eq!(parse_raw("32767"), Ok(32767 << 16));
        assert_eq!(parse_raw("0032767.000"), Ok(32767 << 16));
        assert_eq!(parse_raw("0.0000152587890625"), Ok(1));
    }

    #[test]
    fn rounds_to_nearest_step_ties_away_from_zero() {
        // 0.1 * 65536 = 6553.6 -> 6554
        assert_eq!(parse_raw("0.1"), Ok(6554));
        assert_eq!(parse_raw("-0.1"), Ok(-6554));
        // Exactly half a step: 2^-17 = 0.00000762939453125 -> 1 step.
        assert_eq!(parse_raw("0.00000762939453125"), Ok(1));
        // Just below half a step, with a long tail: 0.
        assert_eq!(parse_raw("0.00000762939453124999999999999999999999"), Ok(0));
        // Just above half a step, beyond the 30 digits used exactly: 1.
        assert_eq!(parse_raw("0.000007629394531250000000000000001"), Ok(1));
        // Rounding up carries into the whole part.
        assert_eq!(parse_raw("0.99999999"), Ok(65536));
        // Thousands of digits are fine.
        let long = format!("1.{}", "9".repeat(10_000));
        assert_eq!(parse_raw(&long), Ok(2 << 16));
    }

    #[test]
    fn refuses_non_numbers_with_reasons() {
        use NumberError::*;
        for (w, e) in [
            ("nan", NotFinite),
            ("-inf", NotFinite),
            ("Infinity", NotFinite),
            ("1e5", Exponent),
            ("2.5E-3", Exponent),
            ("0x10", Hex),
            (".5", BarePoint),
            ("5.", BarePoint),
            ("", Invalid),
            ("-", Invalid),
            ("--1", Invalid),
            ("1.2.3", Invalid),
            ("12abc", Invalid),
            ("1_000", Invalid),
            ("e", Invalid),
            ("١٢", Invalid),
            ("99999999999", TooLarge),
            ("2147483648", TooLarge),
        ] {
            assert_eq!(parse_raw(w), Err(e), "{w:?}");
        }
        assert_eq!(parse_int("7"), Ok(7));
        assert_eq!(parse_int("7.0"), Err(Invalid));
    }
}
