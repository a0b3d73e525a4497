//! Writing a frame as a PNG, and naming screenshots by date and time.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// A screenshot's file name for the time `now`, in UTC:
/// `portalcast-YYYY-MM-DD-HHMMSS.png`.
pub fn dated_name(now: SystemTime) -> String {
    let secs = now
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "portalcast-{y:04}-{m:02}-{d:02}-{:02}{:02}{:02}.png",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// A path in `dir` for a screenshot taken at `now` that does not exist
/// yet: the dated name, or with `-2`, `-3`... before `.png` when several
/// are taken in one second.
pub fn free_path(dir: &Path, now: SystemTime) -> PathBuf {
    let name = dated_name(now);
    let stem = name.trim_end_matches(".png");
    let mut path = dir.join(&name);
    let mut n = 2;
    while path.exists() {
        path = dir.join(format!("{stem}-{n}.png"));
        n += 1;
    }
    path
}

/// Year, month, day of the `days`-th day after 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Writes a `width` x `height` buffer of `0x00RRGGBB` pixels (rows
/// `width` apart) to `path` as an 8-bit RGB PNG.
pub fn write_png(path: &Path, pixels: &[u32], width: usize, height: usize) -> Result<(), String> {
    let fail =
        |e: &dyn std::fmt::Display| format!("cannot write screenshot {}: {e}", path.display());
    let count = width
        .checked_mul(height)
        .filter(|&n| n <= pixels.len())
        .ok_or_else(|| fail(&"the frame is smaller than its size says"))?;
    let (w, h) = match (u32::try_from(width), u32::try_from(height)) {
        (Ok(w), Ok(h)) => (w, h),
        _ => return Err(fail(&"the frame is too large")),
    };
    let rgb: Vec<u8> = pixels[..count]
        .iter()
        .flat_map(|&p| [(p >> 16) as u8, (p >> 8) as u8, p as u8])
        .collect();
    let file = File::create(path).map_err(|e| fail(&e))?;
    let mut encoder = png::Encoder::new(BufWriter::new(file), w, h);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| fail(&e))?;
    writer.write_image_data(&rgb).map_err(|e| fail(&e))?;
    // finish() flushes and reports errors that drop would swallow.
    writer.finish().map_err(|e| fail(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_png_round_trips() {
        let dir = std::env::temp_dir().join(format!("desktop-shot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.png");
        let pixels = [
            0x00FF_0000,
            0x0000_FF00,
            0x0000_00FF,
            0x0012_3456,
            0,
            0x00FF_FFFF,
        ];
        write_png(&path, &pixels, 3, 2).unwrap();

        let decoder = png::Decoder::new(std::io::BufReader::new(File::open(&path).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (3, 2));
        assert_eq!(info.color_type, png::ColorType::Rgb);
        assert_eq!(
            &buf[..info.buffer_size()],
            &[255, 0, 0, 0, 255, 0, 0, 0, 255, 0x12, 0x34, 0x56, 0, 0, 0, 255, 255, 255]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn screenshots_are_named_by_utc_date_and_time() {
        let at = |secs: u64| dated_name(UNIX_EPOCH + std::time::Duration::from_secs(secs));
        assert_eq!(at(0), "portalcast-1970-01-01-000000.png");
        // 2000-02-29 23:59:59 (a leap day).
        assert_eq!(at(951_868_799), "portalcast-2000-02-29-235959.png");
        // 2024-12-31 12:34:56.
        assert_eq!(at(1_735_648_496), "portalcast-2024-12-31-123456.png");
        assert_eq!(at(1_709_251_200), "portalcast-2024-03-01-000000.png");
    }

    #[test]
    fn a_second_screenshot_in_the_same_second_gets_a_number() {
        let dir = std::env::temp_dir().join(format!("desktop-free-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let now = UNIX_EPOCH;
        let first = free_path(&dir, now);
        assert!(first.ends_with("portalcast-1970-01-01-000000.png"));
        std::fs::write(&first, b"x").unwrap();
        let second = free_path(&dir, now);
        assert!(second.ends_with("portalcast-1970-01-01-000000-2.png"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_short_buffer_is_an_error_not_a_panic() {
        let path = std::env::temp_dir().join("never-written.png");
        let e = write_png(&path, &[0; 5], 3, 2).unwrap_err();
        assert!(e.contains("smaller"), "{e}");
    }
}
