//! PNG files as textures: decoded with the `png` crate and quantised to a
//! palette with [`Palette::nearest`].

use engine::format::size::{MAX_TEXTURE_HEIGHT, MAX_TEXTURE_WIDTH};
use engine::render::Palette;

use super::Image;

/// Decodes a PNG (any colour type and bit depth) into an [`Image`] of
/// `palette` indices. Pixels with alpha below 128 are transparent. The
/// image may be at most 4096x1024 (the engine's largest texture).
pub fn decode_png(bytes: &[u8], palette: &Palette) -> Result<Image, String> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(
        png::Transformations::EXPAND | png::Transformations::STRIP_16 | png::Transformations::ALPHA,
    );
    let mut reader = decoder
        .read_info()
        .map_err(|e| format!("not a readable PNG: {e}"))?;
    let (w, h) = reader.info().size();
    if w == 0 || h == 0 || w > MAX_TEXTURE_WIDTH as u32 || h > MAX_TEXTURE_HEIGHT as u32 {
        return Err(format!(
            "the image is {w}x{h}; a texture is at most {MAX_TEXTURE_WIDTH}x{MAX_TEXTURE_HEIGHT}"
        ));
    }
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| "the image is too large".to_string())?;
    let mut buf = vec![0u8; size];
    let info = reader
        .next_frame(&mut buf)
        .map_err(|e| format!("not a readable PNG: {e}"))?;
    let channels = match info.color_type {
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgba => 4,
        png::ColorType::Rgb => 3,
        png::ColorType::Grayscale => 1,
        png::ColorType::Indexed => {
            return Err("an indexed PNG was not expanded to colours".to_string());
        }
    };
    let (w, h) = (w as usize, h as usize);
    let mut image = Image::new(w as u16, h as u16);
    // Quantising is a search of 256 colours per pixel: remember answers.
    let mut cache = std::collections::HashMap::new();
    for y in 0..h {
        let row = buf.get(y * info.line_size..).unwrap_or(&[]);
        for x in 0..w {
            let Some(px) = row.get(x * channels..(x + 1) * channels) else {
                continue;
            };
            let (rgb, alpha) = match channels {
                1 => ([px[0]; 3], 255),
                2 => ([px[0]; 3], px[1]),
                3 => ([px[0], px[1], px[2]], 255),
                _ => ([px[0], px[1], px[2]], px[3]),
            };
            if alpha < 128 {
                continue;
            }
            let index = *cache.entry(rgb).or_insert_with(|| palette.nearest(rgb));
            image.set(x, y, index);
        }
    }
    Ok(image)
}

/// Encodes RGBA pixels (row-major, 4 bytes each) as a PNG. For tests and
/// for tools that author textures.
pub fn encode_png(width: u32, height: u32, rgba: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
        writer.write_image_data(rgba).map_err(|e| e.to_string())?;
    }
    Ok(out)
}
