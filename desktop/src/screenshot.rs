//! Writing a frame as a PNG.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

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
    fn a_short_buffer_is_an_error_not_a_panic() {
        let path = std::env::temp_dir().join("never-written.png");
        let e = write_png(&path, &[0; 5], 3, 2).unwrap_err();
        assert!(e.contains("smaller"), "{e}");
    }
}
