//! The map compiler.
//!
//! * [`text`]: the hand-writable text map format and its compiler,
//!   [`compile_source`], with rustc-style [`Diagnostics`].
//! * [`build`]: from a [`build::SourceMap`] (vertices, sectors as loops,
//!   things) to the engine's compiled bytes, with the map checks.
//! * [`wad`]: reading WAD files and finding their maps.
//! * [`doom`]: DOOM-format levels as editors write them: the binary lumps
//!   and UDMF, read into one in-memory form.
//! * [`import`]: from such a level to compiled bytes (repairs, warnings,
//!   doors, things, textures), through [`build::build_walls`];
//!   [`compile_wad_map`] is the one-call form.
//! * [`texture`]: texture extraction and packing.
//! * [`inspect`]: figures and a JSON dump of any compiled map.
//! * [`load_map_file`]: what a front end calls to get compiled bytes from a
//!   path, whether the file is text source, UDMF, a WAD or already
//!   compiled.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod build;
pub mod diag;
pub mod doom;
pub mod import;
pub mod inspect;
pub mod nodes;
pub mod pack;
pub mod text;
pub mod texture;
pub mod wad;
pub mod walk;

use std::path::Path;

pub use diag::{Diagnostic, Diagnostics};
pub use text::{compile_source, compile_source_with_files};

/// A successfully compiled map.
#[derive(Clone, Debug)]
pub struct Output {
    /// The bytes the engine loads.
    pub bytes: Vec<u8>,
    /// Figures about them.
    pub stats: build::BuildStats,
    /// Warnings, each rendered like rustc's (`warning: ...` with the
    /// source line); empty for a clean map or a compiled input.
    pub warnings: Vec<String>,
}

/// Reads a map from `path`: a compiled map (it starts with
/// [`engine::format::MAGIC`]) is checked with the engine's loader and
/// returned as is; anything else is compiled as text source. Warnings are
/// dropped; use [`load_map`] to see them.
///
/// The error is ready to print: an unreadable file names the path, a bad
/// compiled file gives the loader's reason, a bad text map gives the
/// rendered [`Diagnostics`].
pub fn load_map_file(path: &Path) -> Result<Vec<u8>, String> {
    load_map(path).map(|o| o.bytes)
}

/// What a map input is: decided by its content, with its name's extension
/// saying what it was meant to be.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// An IWAD or a PWAD.
    Wad,
    /// A compiled map ([`engine::format::MAGIC`]).
    Compiled,
    /// UDMF text (a `TEXTMAP`).
    Udmf,
    /// Our text format.
    Text,
}

/// What `bytes`, from the file `name`, are. A file named for one kind
/// (`.wad`, `.spmp`) whose content is not of that kind is an error that
/// says what it is not, and why: an empty `.wad` is not compiled as an
/// empty text map. Content that is no kind at all (not UTF-8 either) is an
/// error too.
pub fn input_kind(name: &str, bytes: &[u8]) -> Result<InputKind, String> {
    if bytes.starts_with(b"IWAD") || bytes.starts_with(b"PWAD") {
        return Ok(InputKind::Wad);
    }
    if bytes.starts_with(&engine::format::MAGIC) {
        return Ok(InputKind::Compiled);
    }
    let ext = std::path::Path::new(name)
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let content = || match bytes.len() {
        0 => "the file is empty".to_string(),
        n => {
            let head: Vec<String> = bytes[..n.min(4)]
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            format!("it starts with bytes {}", head.join(" "))
        }
    };
    match ext.as_deref() {
        Some("wad") => {
            return Err(format!(
                "error: `{name}` is not a WAD: {}, not `IWAD` or `PWAD`",
                content()
            ))
        }
        Some("spmp") => {
            return Err(format!(
                "error: `{name}` is not a compiled map: {}, not `SPMP`",
                content()
            ))
        }
        Some("udmf" | "textmap") => return Ok(InputKind::Udmf),
        _ => {}
    }
    if import::looks_like_udmf(bytes) {
        return Ok(InputKind::Udmf);
    }
    match std::str::from_utf8(bytes) {
        Ok(_) => Ok(InputKind::Text),
        Err(e) => {
            let at = e.valid_up_to();
            let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
            Err(format!(
                "error: `{name}` is neither a WAD, a compiled map nor UTF-8 text: invalid \
                 UTF-8 on line {line} (byte {at})"
            ))
        }
    }
}

/// [`load_map_file`], keeping the figures and the warnings.
pub fn load_map(path: &Path) -> Result<Output, String> {
    let bytes = std::fs::read(path)
        .map_err(|e| format!("error: cannot read map `{}`: {e}", path.display()))?;
    load_map_bytes(
        bytes,
        &path.display().to_string(),
        build::BuildOptions::default(),
    )
}

/// [`load_map`] for bytes already read; `name` is used in messages and
/// `opts` when the bytes are source.
///
/// A WAD gives its first map (a note among the warnings says so when it
/// has several; [`compile_wad_map`] picks one), with the WAD's textures.
/// UDMF text (detected by [`import::looks_like_udmf`]) compiles with
/// placeholder textures.
pub fn load_map_bytes(
    bytes: Vec<u8>,
    name: &str,
    opts: build::BuildOptions,
) -> Result<Output, String> {
    let import_opts = import::ImportOptions {
        build: opts,
        ..import::ImportOptions::default()
    };
    let kind = input_kind(name, &bytes)?;
    if kind == InputKind::Wad {
        let source =
            import::WadSource::new(&bytes, None).map_err(|e| format!("error: `{name}`: {e}"))?;
        let maps = source.maps();
        let Some(first) = maps.first() else {
            return Err(format!("error: `{name}` has no maps in it"));
        };
        let mut out = compile_wad_map(&bytes, name, &first.name, None, &import_opts)?;
        if maps.len() > 1 {
            out.warnings.insert(
                0,
                format!(
                    "note: `{name}` has {} maps; compiled the first, {}",
                    maps.len(),
                    first.name
                ),
            );
        }
        return Ok(out);
    }
    if kind == InputKind::Udmf {
        return compile_udmf_map(&bytes, name, None, &import_opts);
    }
    if kind == InputKind::Compiled {
        let stats = inspect::stats(&bytes)
            .map_err(|e| format!("error: `{name}` is not a valid compiled map: {e}"))?;
        return Ok(Output {
            bytes,
            stats,
            warnings: Vec::new(),
        });
    }
    // Text: input_kind checked that it is UTF-8.
    let text = String::from_utf8_lossy(&bytes);
    text::compile_source_with(&text, name, opts).map_err(|d| d.to_string())
}

/// Compiles a standalone UDMF map (`name` in messages) with the textures
/// of `iwad` if given (else placeholders, with one warning).
pub fn compile_udmf_map(
    bytes: &[u8],
    name: &str,
    iwad: Option<&[u8]>,
    opts: &import::ImportOptions,
) -> Result<Output, String> {
    let i = import::compile_udmf(bytes, name, iwad, opts)?;
    Ok(Output {
        bytes: i.compiled.bytes,
        stats: i.compiled.stats,
        warnings: i.warnings,
    })
}

/// Compiles map `map` (`E1M1`, `MAP01`, any marker name; case does not
/// matter) of the WAD `wad` (named `wad_name` in messages), binary or
/// UDMF, with textures from the WAD on top of `iwad`'s if given. The
/// warnings include the WAD's texture problems. The error is ready to
/// print (an unknown map lists the maps there are).
pub fn compile_wad_map(
    wad: &[u8],
    wad_name: &str,
    map: &str,
    iwad: Option<&[u8]>,
    opts: &import::ImportOptions,
) -> Result<Output, String> {
    let source =
        import::WadSource::new(wad, iwad).map_err(|e| format!("error: `{wad_name}`: {e}"))?;
    let entry = source
        .map(map)
        .map_err(|e| format!("error: `{wad_name}`: {e}"))?;
    let imported = source.compile(&entry, opts)?;
    let mut warnings: Vec<String> = source
        .warnings
        .iter()
        .map(|w| format!("warning: {wad_name}: {w}"))
        .collect();
    warnings.extend(imported.warnings);
    Ok(Output {
        bytes: imported.compiled.bytes,
        stats: imported.compiled.stats,
        warnings,
    })
}

/// Where a WAD given by bare name (no directory, such as `freedoom2.wad`)
/// is, as the source ports look: the current directory, `$DOOMWADDIR`,
/// then the directories distributions install IWADs in
/// ([`text::WAD_DIRS`]). Paths with a directory are returned as they are.
pub fn find_wad(path: &Path) -> std::path::PathBuf {
    let name = path.to_string_lossy();
    if path.is_file() || name.contains(['/', '\\']) {
        return path.to_path_buf();
    }
    let env = std::env::var_os("DOOMWADDIR").map(std::path::PathBuf::from);
    env.into_iter()
        .chain(text::WAD_DIRS.iter().map(std::path::PathBuf::from))
        .map(|dir| dir.join(path))
        .find(|p| p.is_file())
        .unwrap_or_else(|| path.to_path_buf())
}
