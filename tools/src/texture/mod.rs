//! Texture extraction and packing: DOOM's graphics (and PNG files) into the
//! engine's texture sections.
//!
//! A [`TextureLibrary`] holds every texture source a map may draw from:
//! the palette (`PLAYPAL`) and light table (`COLORMAP`) of a WAD, its
//! composite wall textures (`PNAMES` + `TEXTURE1`/`TEXTURE2`), its flats
//! (`F_START`..`F_END`), its sprites (`S_START`..`S_END`) and any images
//! added by name (PNG files). Nothing is decoded until a map asks for it.
//!
//! A [`Packer`] then packs the textures one map uses, each once, in the
//! order they are first asked for, and [`Packer::finish`] hands back the
//! [`PackedTextures`] a compiled map carries: [`TextureRecord`]s, the
//! column-major pixels, the names, the palette, the light table and the
//! sky.
//!
//! * Wall textures are composed from their patches as DOOM does (later
//!   patches on top, each clipped to the texture). A texture with pixels
//!   that no patch covers is [`MASKED`]: its transparent index is a palette
//!   index that none of its own pixels use.
//! * Flats are 64x64 and [`FLAT`]. `F_SKY*` names the sky:
//!   [`Packer::flat`] returns [`SKY`] and packs the sky texture (`SKY1`
//!   unless [`Packer::set_sky`] says otherwise, see [`sky_for_map`]).
//! * Sprites keep DOOM's left and top offsets and are always [`MASKED`].
//! * A name the library does not have gives a visible placeholder (a
//!   64x64 checkerboard) for walls and flats, [`NONE`] for sprites, and
//!   one warning per name.
//!
//! Every count, offset and length in the WAD's lumps is checked: a damaged
//! or hostile WAD gives warnings and placeholders, never a panic.
//!
//! [`MASKED`]: engine::format::texture_flag::MASKED
//! [`FLAT`]: engine::format::texture_flag::FLAT

mod doom;
mod picture;
mod pngfile;
mod switch;

pub use switch::{switch_pair, switch_record};

/// DOOM picture encoding, for other modules' tests to build WADs.
#[cfg(test)]
pub(crate) use picture::encode as encode_picture;

use std::collections::{BTreeMap, HashMap, HashSet};

use engine::config::MAX_TEXTURES;
use engine::format::{size, texture_flag, TextureRecord, NONE, SKY};
use engine::render::Palette;

use crate::wad::Wad;

pub use pngfile::{decode_png, encode_png};

pub(crate) fn le_i16(b: &[u8], at: usize) -> Option<i16> {
    let s = b.get(at..at.checked_add(2)?)?;
    Some(i16::from_le_bytes([s[0], s[1]]))
}

pub(crate) fn le_i32(b: &[u8], at: usize) -> Option<i32> {
    let s = b.get(at..at.checked_add(4)?)?;
    Some(i32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

pub(crate) fn le_u32(b: &[u8], at: usize) -> Option<u32> {
    le_i32(b, at).map(|v| v as u32)
}

/// A decoded picture: palette indices with per-pixel opacity, column-major
/// like the engine's textures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    width: u16,
    height: u16,
    /// Sprite origin: columns left of the centre (DOOM's left offset).
    pub left: i16,
    /// Sprite origin: rows above the feet (DOOM's top offset).
    pub top: i16,
    /// `width * height` palette indices; pixel (x, y) at `x * height + y`.
    pixels: Vec<u8>,
    /// Opacity, in the same layout.
    opaque: Vec<bool>,
}

impl Image {
    /// A fully transparent image.
    pub fn new(width: u16, height: u16) -> Image {
        let n = width as usize * height as usize;
        Image {
            width,
            height,
            left: 0,
            top: 0,
            pixels: vec![0; n],
            opaque: vec![false; n],
        }
    }

    /// Columns.
    pub fn width(&self) -> u16 {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> u16 {
        self.height
    }

    /// The palette index at (x, y), or `None` where transparent or outside.
    pub fn get(&self, x: usize, y: usize) -> Option<u8> {
        if x >= self.width as usize || y >= self.height as usize {
            return None;
        }
        let i = x * self.height as usize + y;
        self.opaque[i].then_some(self.pixels[i])
    }

    /// Sets (x, y) to an opaque palette index; ignored outside the image.
    pub fn set(&mut self, x: usize, y: usize, index: u8) {
        if x < self.width as usize && y < self.height as usize {
            let i = x * self.height as usize + y;
            self.pixels[i] = index;
            self.opaque[i] = true;
        }
    }

    /// True when every pixel is opaque.
    pub fn is_opaque(&self) -> bool {
        self.opaque.iter().all(|&o| o)
    }

    /// True when no pixel is opaque.
    pub fn is_empty(&self) -> bool {
        !self.opaque.iter().any(|&o| o)
    }

    /// The image mirrored left to right (the origin mirrored with it).
    pub fn mirrored(&self) -> Image {
        let h = self.height as usize;
        let mut out = Image::new(self.width, self.height);
        out.left =
            (self.width as i32 - self.left as i32).clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        out.top = self.top;
        for (x, col) in self.pixels.chunks(h.max(1)).enumerate() {
            let to = (self.width as usize - 1 - x) * h;
            out.pixels[to..to + h].copy_from_slice(col);
            out.opaque[to..to + h].copy_from_slice(&self.opaque[x * h..x * h + h]);
        }
        out
    }

    /// The top-left `width` x `height` of the image (no larger than it).
    pub fn cropped(&self, width: u16, height: u16) -> Image {
        let (width, height) = (width.min(self.width), height.min(self.height));
        let mut out = Image::new(width, height);
        out.left = self.left;
        out.top = self.top;
        for x in 0..width as usize {
            for y in 0..height as usize {
                if let Some(c) = self.get(x, y) {
                    out.set(x, y, c);
                }
            }
        }
        out
    }

    /// The image resampled (nearest pixel) to `width` x `height`.
    pub fn resized(&self, width: u16, height: u16) -> Image {
        let mut out = Image::new(width, height);
        if self.width == 0 || self.height == 0 {
            return out;
        }
        for x in 0..width as usize {
            let sx = x * self.width as usize / width as usize;
            for y in 0..height as usize {
                let sy = y * self.height as usize / height as usize;
                if let Some(c) = self.get(sx, sy) {
                    out.set(x, y, c);
                }
            }
        }
        out
    }
}

/// The name `name` as the library keys it: upper-cased, without the
/// trailing NULs and spaces some editors leave.
fn key(name: &str) -> String {
    name.trim_end_matches(['\0', ' '])
        .trim_start()
        .to_ascii_uppercase()
}

/// A WAD lump kept for decoding later (owned, so the library outlives the
/// WAD's bytes).
type Lumps = BTreeMap<String, Vec<u8>>;

/// Every texture source a map can draw from: see the [module docs](self).
#[derive(Clone, Debug, Default)]
pub struct TextureLibrary {
    palette: Option<[u8; size::PALETTE]>,
    colormap: Option<Box<[u8; size::COLORMAP]>>,
    textures: BTreeMap<String, doom::TextureDef>,
    patches: HashMap<String, Vec<u8>>,
    flats: Lumps,
    sprites: Lumps,
    images: BTreeMap<String, Image>,
}

const FLAT_START: [&str; 2] = ["F_START", "FF_START"];
const FLAT_END: [&str; 2] = ["F_END", "FF_END"];
const SPRITE_START: [&str; 2] = ["S_START", "SS_START"];
const SPRITE_END: [&str; 2] = ["S_END", "SS_END"];
const PATCH_START: [&str; 2] = ["P_START", "PP_START"];
const PATCH_END: [&str; 2] = ["P_END", "PP_END"];

impl TextureLibrary {
    /// A library with nothing in it (textures can still be added with
    /// [`TextureLibrary::add_image`] and [`TextureLibrary::add_png`]); maps
    /// packed from it use the built-in palette.
    pub fn empty() -> TextureLibrary {
        TextureLibrary::default()
    }

    /// Reads every texture source of a WAD. The warnings name whatever was
    /// damaged or missing (no palette, a truncated `TEXTURE1`, ...); the
    /// library keeps everything that was readable.
    pub fn from_wad(wad: &Wad) -> (TextureLibrary, Vec<String>) {
        TextureLibrary::from_wads(&[wad])
    }

    /// [`TextureLibrary::from_wad`] for an IWAD and PWADs loaded on top of
    /// it, in load order: later WADs replace palettes, textures, flats,
    /// sprites and patches of the same name.
    pub fn from_wads(wads: &[&Wad]) -> (TextureLibrary, Vec<String>) {
        let mut lib = TextureLibrary::default();
        let mut warnings = Vec::new();
        let mut any_textures = false;
        let mut pnames: Option<Vec<String>> = None;
        for wad in wads {
            if let Some(b) = wad.lump("PLAYPAL") {
                match b.get(..size::PALETTE) {
                    Some(p) => {
                        let mut pal = [0u8; size::PALETTE];
                        pal.copy_from_slice(p);
                        lib.palette = Some(pal);
                    }
                    None => warnings.push(format!(
                        "PLAYPAL is {} bytes, shorter than one palette (768); ignored",
                        b.len()
                    )),
                }
            }
            if let Some(b) = wad.lump("COLORMAP") {
                match b.get(..size::COLORMAP) {
                    Some(c) => {
                        let mut map = Box::new([0u8; size::COLORMAP]);
                        map.copy_from_slice(c);
                        lib.colormap = Some(map);
                    }
                    None => warnings.push(format!(
                        "COLORMAP is {} bytes, shorter than 32 light levels (8192); ignored",
                        b.len()
                    )),
                }
            }
            // The latest PNAMES so far: a PWAD's TEXTURE1 may index the
            // IWAD's (DOOM reads the last PNAMES loaded).
            if let Some(b) = wad.lump("PNAMES") {
                pnames = Some(doom::parse_pnames(b, &mut warnings));
            }
            // Within one WAD the first definition of a name wins (as in
            // DOOM's texture lookup); a later WAD's replaces an earlier's.
            let mut defs: BTreeMap<String, doom::TextureDef> = BTreeMap::new();
            for source in ["TEXTURE1", "TEXTURE2"] {
                let Some(bytes) = wad.lump(source) else {
                    continue;
                };
                any_textures = true;
                if pnames.is_none() {
                    warnings.push(format!(
                        "{source} has no PNAMES to go with it; its textures have no patches"
                    ));
                }
                let names = pnames.as_deref().unwrap_or_default();
                for def in doom::parse_textures(source, bytes, names, &mut warnings) {
                    defs.entry(def.name.clone()).or_insert(def);
                }
            }
            lib.textures.extend(defs);
            for i in wad.between(&FLAT_START, &FLAT_END) {
                let name = wad.lumps()[i].name.clone();
                lib.flats.insert(name, wad.data(i).to_vec());
            }
            for i in wad.between(&SPRITE_START, &SPRITE_END) {
                let name = wad.lumps()[i].name.clone();
                lib.sprites.insert(name, wad.data(i).to_vec());
            }
        }
        if !any_textures {
            warnings.push("no TEXTURE1 or TEXTURE2: no wall textures".to_string());
        }
        if lib.palette.is_none() {
            warnings.push("no PLAYPAL: textures keep their palette indices but the map uses the built-in palette".to_string());
        }
        // Patches: only those some texture uses. DOOM finds them by name
        // anywhere in the WAD; prefer the patch namespace, last WAD first.
        let wanted: HashSet<&str> = lib
            .textures
            .values()
            .flat_map(|d| d.patches.iter().filter_map(|p| p.name.as_deref()))
            .collect();
        let in_patch_ns: Vec<HashMap<&str, usize>> = wads
            .iter()
            .map(|w| {
                w.between(&PATCH_START, &PATCH_END)
                    .into_iter()
                    .map(|i| (w.lumps()[i].name.as_str(), i))
                    .collect()
            })
            .collect();
        for name in wanted {
            let found = wads
                .iter()
                .zip(&in_patch_ns)
                .rev()
                .find_map(|(w, ns)| ns.get(name).map(|&i| w.data(i)))
                .or_else(|| wads.iter().rev().find_map(|w| w.lump(name)));
            if let Some(bytes) = found {
                lib.patches.insert(name.to_string(), bytes.to_vec());
            }
        }
        (lib, warnings)
    }

    /// The palette (768 bytes of RGB) from `PLAYPAL`, if any.
    pub fn palette(&self) -> Option<&[u8; size::PALETTE]> {
        self.palette.as_ref()
    }

    /// The palette textures are quantised to and averaged in: the WAD's,
    /// else [`Palette::builtin`].
    pub fn palette_or_builtin(&self) -> Palette {
        self.palette
            .as_ref()
            .and_then(|p| Palette::from_rgb_bytes(p))
            .unwrap_or_else(Palette::builtin)
    }

    /// The light table from `COLORMAP` (its first 32 maps), if any.
    pub fn colormap(&self) -> Option<&[u8; size::COLORMAP]> {
        self.colormap.as_deref()
    }

    /// Adds (or replaces) an image under `name`: it can then be used as a
    /// wall texture, a flat (resized to 64x64 if it is another size) or a
    /// sprite, ahead of any WAD texture of that name.
    pub fn add_image(&mut self, name: &str, image: Image) {
        self.images.insert(key(name), image);
    }

    /// Decodes a PNG, quantises it to [`TextureLibrary::palette_or_builtin`]
    /// and adds it under `name` (see [`TextureLibrary::add_image`]). Pixels
    /// with alpha below 128 are transparent.
    pub fn add_png(&mut self, name: &str, png: &[u8]) -> Result<(), String> {
        let image = decode_png(png, &self.palette_or_builtin())?;
        self.add_image(name, image);
        Ok(())
    }

    /// Names of the composite wall textures, sorted.
    pub fn wall_names(&self) -> impl Iterator<Item = &str> {
        self.textures.keys().map(String::as_str)
    }

    /// Names of the flats, sorted.
    pub fn flat_names(&self) -> impl Iterator<Item = &str> {
        self.flats.keys().map(String::as_str)
    }

    /// Names of the sprite lumps, sorted.
    pub fn sprite_names(&self) -> impl Iterator<Item = &str> {
        self.sprites.keys().map(String::as_str)
    }

    /// Names of the images added by name, sorted.
    pub fn image_names(&self) -> impl Iterator<Item = &str> {
        self.images.keys().map(String::as_str)
    }

    /// Whether `name` would pack as a wall texture (rather than as a
    /// placeholder).
    pub fn has_wall(&self, name: &str) -> bool {
        let k = key(name);
        self.images.contains_key(&k)
            || self.textures.contains_key(&k)
            || self.flats.contains_key(&k)
    }

    /// Whether `name` would pack as a flat (rather than as a placeholder);
    /// `F_SKY*` names are the sky, not flats.
    pub fn has_flat(&self, name: &str) -> bool {
        let k = key(name);
        self.images.contains_key(&k)
            || self.flats.contains_key(&k)
            || self.textures.contains_key(&k)
    }

    /// Whether `name` would pack as a sprite (exactly, or as one of the
    /// fallbacks of [`TextureLibrary::sprite_image`]).
    pub fn has_sprite(&self, name: &str) -> bool {
        let k = key(name);
        if self.images.contains_key(&k) || self.sprites.contains_key(&k) {
            return true;
        }
        let (Some(base), Some(frame_rot)) = (k.get(..4), k.get(4..6)) else {
            return false;
        };
        k.len() == 6
            && (frame_rot
                .strip_suffix('0')
                .is_some_and(|f| self.sprites.contains_key(&format!("{base}{f}1")))
                || self
                    .sprites
                    .range(base.to_string()..)
                    .take_while(|(n, _)| n.starts_with(base))
                    .any(|(n, _)| n.len() == 8 && n.get(6..8) == Some(frame_rot)))
    }

    /// The wall texture `name` (case-insensitive): an added image, else a
    /// composite texture, else a flat of that name (as ZDoom allows).
    /// `None` without a new warning means there is no such texture; `None`
    /// with warnings means it could not be built.
    pub fn wall_image(&self, name: &str, warnings: &mut Vec<String>) -> Option<Image> {
        let k = key(name);
        if let Some(img) = self.images.get(&k) {
            return Some(img.clone());
        }
        if let Some(def) = self.textures.get(&k) {
            return doom::compose(def, |p| self.patches.get(p).map(Vec::as_slice), warnings);
        }
        let flat = self.flats.get(&k)?;
        doom::decode_flat(&k, flat, warnings)
    }

    /// The flat `name` (case-insensitive): an added image (resized to 64x64
    /// if needed), else a flat, else a wall texture of that name, of its
    /// own size (ZDoom's merged namespaces: maps made for it put wall
    /// textures on floors; the renderer maps a flat of any size).
    /// `None` as for [`TextureLibrary::wall_image`].
    pub fn flat_image(&self, name: &str, warnings: &mut Vec<String>) -> Option<Image> {
        let k = key(name);
        if let Some(img) = self.images.get(&k) {
            if (img.width, img.height) == (64, 64) {
                return Some(img.clone());
            }
            warnings.push(format!(
                "image `{k}` is {}x{}; resized to 64x64 for use as a flat",
                img.width, img.height
            ));
            return Some(img.resized(64, 64));
        }
        if let Some(flat) = self.flats.get(&k) {
            return doom::decode_flat(&k, flat, warnings);
        }
        match self.textures.get(&k) {
            Some(_) => self.wall_image(&k, warnings),
            None => None,
        }
    }

    /// The sprite lump `name` (case-insensitive), e.g. `BAR1A0`. A frame
    /// asked for without rotations (`POSSA0`) falls back to its front view
    /// (`POSSA1`), and a rotation stored as the mirrored half of a pair
    /// (`TROOA8` in `TROOA2A8`) is mirrored. An added image of that name
    /// comes first (origin at its bottom centre unless it says otherwise).
    /// `None` as for [`TextureLibrary::wall_image`].
    pub fn sprite_image(&self, name: &str, warnings: &mut Vec<String>) -> Option<Image> {
        let k = key(name);
        if let Some(img) = self.images.get(&k) {
            let mut img = img.clone();
            if img.left == 0 && img.top == 0 {
                img.left = (img.width / 2) as i16;
                img.top = img.height.min(i16::MAX as u16) as i16;
            }
            return Some(img);
        }
        let decode = |lump: &str, bytes: &[u8], warnings: &mut Vec<String>| {
            picture::decode(&format!("sprite `{lump}`"), bytes, warnings)
        };
        if let Some(bytes) = self.sprites.get(&k) {
            return decode(&k, bytes, warnings);
        }
        let (Some(base), Some(frame_rot)) = (k.get(..4), k.get(4..6)) else {
            return None;
        };
        if k.len() != 6 {
            return None;
        }
        if let Some(frame) = frame_rot.strip_suffix('0') {
            let front = format!("{base}{frame}1");
            if let Some(bytes) = self.sprites.get(&front) {
                return decode(&front, bytes, warnings);
            }
        }
        let (lump, bytes) = self
            .sprites
            .range(base.to_string()..)
            .take_while(|(n, _)| n.starts_with(base))
            .find(|(n, _)| n.len() == 8 && n.get(6..8) == Some(frame_rot))?;
        decode(lump, bytes, warnings).map(|img| img.mirrored())
    }

    /// Number of composite wall textures.
    pub fn texture_count(&self) -> usize {
        self.textures.len()
    }

    /// Number of flats.
    pub fn flat_count(&self) -> usize {
        self.flats.len()
    }

    /// Number of sprite lumps.
    pub fn sprite_count(&self) -> usize {
        self.sprites.len()
    }
}

/// The sky texture DOOM uses for a map: `SKY1`..`SKY4` by episode for
/// `ExMy`, `SKY1` (MAP01-11), `SKY2` (MAP12-20), `SKY3` (MAP21 on) for
/// `MAPxx`, else `SKY1`.
pub fn sky_for_map(map: &str) -> &'static str {
    let m = map.to_ascii_uppercase();
    let b = m.as_bytes();
    if b.len() >= 4 && b[0] == b'E' && b[2] == b'M' {
        return match b[1] {
            b'2' => "SKY2",
            b'3' => "SKY3",
            b'4' => "SKY4",
            _ => "SKY1",
        };
    }
    if let Some(n) = m.strip_prefix("MAP").and_then(|n| n.parse::<u32>().ok()) {
        return match n {
            0..=11 => "SKY1",
            12..=20 => "SKY2",
            _ => "SKY3",
        };
    }
    "SKY1"
}

/// What the packer was asked for: the namespaces are separate, as in DOOM.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Kind {
    Wall,
    Flat,
    Sprite,
}

/// Packs the textures one map uses: see the [module docs](self).
#[derive(Debug)]
pub struct Packer<'l> {
    lib: &'l TextureLibrary,
    palette: Palette,
    records: Vec<TextureRecord>,
    pixels: Vec<u8>,
    names: Vec<[u8; 8]>,
    /// Average colour of each packed texture.
    colors: Vec<u8>,
    packed: HashMap<(Kind, String), u16>,
    warnings: Vec<String>,
    sky_name: String,
    sky_used: bool,
    sky: Option<u16>,
    full: bool,
}

impl<'l> Packer<'l> {
    /// A packer with nothing packed yet; the sky is `SKY1`.
    pub fn new(lib: &'l TextureLibrary) -> Self {
        Packer {
            lib,
            palette: lib.palette_or_builtin(),
            records: Vec::new(),
            pixels: Vec::new(),
            names: Vec::new(),
            colors: Vec::new(),
            packed: HashMap::new(),
            warnings: Vec::new(),
            sky_name: "SKY1".to_string(),
            sky_used: false,
            sky: None,
            full: false,
        }
    }

    /// The wall texture `name` (case-insensitive): its index, packing it
    /// on first use. `"-"` or `""` give [`NONE`]; a name the library does
    /// not have (or cannot build) gives a 64x64 checkerboard and one
    /// warning.
    pub fn wall(&mut self, name: &str) -> u16 {
        self.get(Kind::Wall, name)
    }

    /// The flat `name` (case-insensitive): its index, packing it on first
    /// use. `F_SKY*` gives [`SKY`] (and packs the sky texture, see
    /// [`Packer::set_sky`]); `"-"` or `""` give [`NONE`]; an unknown name
    /// gives a checkerboard flat and one warning.
    pub fn flat(&mut self, name: &str) -> u16 {
        let k = key(name);
        if k.starts_with("F_SKY") {
            if !self.sky_used {
                self.sky_used = true;
                self.pack_sky();
            }
            return SKY;
        }
        self.get(Kind::Flat, name)
    }

    /// The sprite lump `name` (case-insensitive, e.g. `BAR1A0`): its index,
    /// packing it on first use, with its left and top offsets. An unknown
    /// name gives [`NONE`] and one warning.
    pub fn sprite(&mut self, name: &str) -> u16 {
        self.get(Kind::Sprite, name)
    }

    /// Chooses the sky texture (a wall texture; DOOM's is `SKY1`..`SKY4`,
    /// see [`sky_for_map`]). If the sky is already in use, the new one is
    /// packed and replaces it.
    pub fn set_sky(&mut self, name: &str) {
        self.sky_name = key(name);
        if self.sky_used {
            self.pack_sky();
        }
    }

    /// Packs the sky texture now, even if no flat is `F_SKY*`, and returns
    /// its index ([`NONE`] if it cannot be packed).
    pub fn sky(&mut self) -> u16 {
        if !self.sky_used {
            self.sky_used = true;
            self.pack_sky();
        }
        self.sky.unwrap_or(NONE)
    }

    fn pack_sky(&mut self) {
        let name = self.sky_name.clone();
        let i = self.wall(&name);
        self.sky = (i != NONE).then_some(i);
    }

    /// The average colour of packed texture `index`, as a palette index
    /// (for drawing it untextured). [`SKY`] gives the sky's; [`NONE`] and
    /// unknown indices give 0.
    pub fn flat_color(&self, index: u16) -> u8 {
        let index = match (index, self.sky) {
            (SKY, Some(sky)) => sky,
            _ => index,
        };
        self.colors.get(index as usize).copied().unwrap_or(0)
    }

    /// Textures packed so far.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// True when nothing has been packed.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Everything packed, ready for the compiled map.
    pub fn finish(self) -> PackedTextures {
        PackedTextures {
            records: self.records,
            pixels: self.pixels,
            names: self.names,
            palette: self.lib.palette,
            colormap: self.lib.colormap.clone(),
            sky: self.sky,
            warnings: self.warnings,
        }
    }

    fn get(&mut self, kind: Kind, name: &str) -> u16 {
        let k = key(name);
        if k.is_empty() || k == "-" {
            return NONE;
        }
        if let Some(&i) = self.packed.get(&(kind, k.clone())) {
            return i;
        }
        let mut warnings = Vec::new();
        let image = match kind {
            Kind::Wall => self.lib.wall_image(&k, &mut warnings),
            Kind::Flat => self.lib.flat_image(&k, &mut warnings),
            Kind::Sprite => self.lib.sprite_image(&k, &mut warnings),
        };
        let what = match kind {
            Kind::Wall => "wall texture",
            Kind::Flat => "flat",
            Kind::Sprite => "sprite",
        };
        let flags = match kind {
            Kind::Wall => 0,
            Kind::Flat => texture_flag::FLAT,
            Kind::Sprite => texture_flag::MASKED,
        };
        let index = match image {
            Some(mut img) if !img.is_empty() => {
                let (w, h) = (img.width, img.height);
                if w > size::MAX_TEXTURE_WIDTH || h > size::MAX_TEXTURE_HEIGHT {
                    let (cw, ch) = (
                        w.min(size::MAX_TEXTURE_WIDTH),
                        h.min(size::MAX_TEXTURE_HEIGHT),
                    );
                    warnings.push(format!(
                        "{what} `{k}` is {w}x{h}, larger than the engine's {}x{}; cropped",
                        size::MAX_TEXTURE_WIDTH,
                        size::MAX_TEXTURE_HEIGHT
                    ));
                    img = img.cropped(cw, ch);
                }
                self.pack(&k, &img, flags)
            }
            broken => {
                let fallback = if kind == Kind::Sprite {
                    "the thing is drawn without a sprite"
                } else {
                    "drawn as a checkerboard"
                };
                match warnings.last_mut() {
                    // The library said why: say what happens instead.
                    Some(last) if broken.is_none() => {
                        last.push_str("; ");
                        last.push_str(fallback);
                    }
                    _ => {
                        let why = if broken.is_some() {
                            format!("{what} `{k}` has no visible pixels")
                        } else {
                            format!("unknown {what} `{k}`")
                        };
                        warnings.push(format!("{why}; {fallback}"));
                    }
                }
                if kind == Kind::Sprite {
                    NONE
                } else {
                    let placeholder = self.placeholder();
                    self.pack(&k, &placeholder, flags)
                }
            }
        };
        self.warnings.extend(warnings);
        self.packed.insert((kind, k), index);
        index
    }

    /// A 64x64 checkerboard of 8-pixel squares, magenta and black.
    fn placeholder(&self) -> Image {
        let a = self.palette.nearest([255, 0, 255]);
        let b = self.palette.nearest([0, 0, 0]);
        let mut img = Image::new(64, 64);
        for x in 0..64 {
            for y in 0..64 {
                img.set(x, y, if (x / 8 + y / 8) % 2 == 0 { a } else { b });
            }
        }
        img
    }

    fn pack(&mut self, name: &str, img: &Image, flags: u8) -> u16 {
        if self.records.len() >= MAX_TEXTURES {
            if !self.full {
                self.full = true;
                self.warnings.push(format!(
                    "the map uses more than {MAX_TEXTURES} textures; `{name}` and later ones are left out"
                ));
            }
            return NONE;
        }
        let len = img.pixels.len();
        let offset = self.pixels.len();
        if offset + len > u32::MAX as usize {
            self.warnings
                .push(format!("texture pixels pass 4 GiB; `{name}` is left out"));
            return NONE;
        }
        let mut flags = flags;
        let mut transparent = 0;
        let mut remap = None;
        if !img.is_opaque() || flags & texture_flag::MASKED != 0 {
            flags |= texture_flag::MASKED;
            let (t, r) = choose_transparent(img, &self.palette);
            transparent = t;
            remap = r;
        }
        self.pixels.extend(
            img.pixels
                .iter()
                .zip(&img.opaque)
                .map(|(&c, &o)| match (o, remap) {
                    (false, _) => transparent,
                    (true, Some((from, to))) if c == from => to,
                    (true, _) => c,
                }),
        );
        self.records.push(TextureRecord {
            width: img.width,
            height: img.height,
            offset: offset as u32,
            flags,
            transparent,
            left: img.left,
            top: img.top,
        });
        let mut n = [0u8; 8];
        for (d, s) in n.iter_mut().zip(name.bytes()) {
            *d = if s.is_ascii_graphic() { s } else { b'?' };
        }
        self.names.push(n);
        self.colors.push(average_color(img, &self.palette));
        (self.records.len() - 1) as u16
    }
}

/// A transparent index for a masked image: the highest palette index none
/// of its opaque pixels use. If it uses all 256, the least used index is
/// taken and its pixels are redrawn in the nearest other colour (returned
/// as `(from, to)`).
fn choose_transparent(img: &Image, palette: &Palette) -> (u8, Option<(u8, u8)>) {
    let mut counts = [0usize; 256];
    for (&c, &o) in img.pixels.iter().zip(&img.opaque) {
        if o {
            counts[c as usize] += 1;
        }
    }
    if let Some(t) = (0..=255u8).rev().find(|&t| counts[t as usize] == 0) {
        return (t, None);
    }
    let t = (0..=255u8)
        .rev()
        .min_by_key(|&t| counts[t as usize])
        .unwrap_or(255);
    let [r, g, b] = palette.0[t as usize];
    let to = (0..=255u8)
        .filter(|&i| i != t)
        .min_by_key(|&i| {
            let [r2, g2, b2] = palette.0[i as usize];
            let d = |a: u8, b: u8| (a as i32 - b as i32).pow(2);
            d(r, r2) + d(g, g2) + d(b, b2)
        })
        .unwrap_or(if t == 0 { 1 } else { 0 });
    (t, Some((t, to)))
}

/// The average colour of an image's opaque pixels, as a palette index.
fn average_color(img: &Image, palette: &Palette) -> u8 {
    let (mut sum, mut n) = ([0u64; 3], 0u64);
    for (&c, &o) in img.pixels.iter().zip(&img.opaque) {
        if o {
            let rgb = palette.0[c as usize];
            for (s, v) in sum.iter_mut().zip(rgb) {
                *s += v as u64;
            }
            n += 1;
        }
    }
    if n == 0 {
        return 0;
    }
    palette.nearest(sum.map(|s| (s / n) as u8))
}

/// The textures of one map, ready for [`engine::format::MapRepr`]:
/// `records` index into `pixels` (each texture column-major), `names` has
/// one entry per record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PackedTextures {
    /// The texture directory (`TXDR`).
    pub records: Vec<TextureRecord>,
    /// Every texture's pixels (`TXPX`).
    pub pixels: Vec<u8>,
    /// One NUL-padded upper-case name per record (`TXNM`).
    pub names: Vec<[u8; 8]>,
    /// The WAD's palette (`PALT`), or `None` for the built-in one.
    pub palette: Option<[u8; size::PALETTE]>,
    /// The WAD's light table (`CMAP`), if it has one.
    pub colormap: Option<Box<[u8; size::COLORMAP]>>,
    /// The sky texture (`SKYT`), if the map shows the sky.
    pub sky: Option<u16>,
    /// One line per problem: unknown names, damaged lumps.
    pub warnings: Vec<String>,
}

#[cfg(test)]
mod tests;
