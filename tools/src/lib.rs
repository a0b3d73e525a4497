//! The map compiler.
//!
//! * [`text`]: the hand-writable text map format and its compiler,
//!   [`compile_source`], with rustc-style [`Diagnostics`].
//! * [`build`]: from a [`build::SourceMap`] (vertices, sectors as loops,
//!   things) to the engine's compiled bytes, with the map checks.
//! * [`inspect`]: figures and a JSON dump of any compiled map.
//! * [`load_map_file`]: what a front end calls to get compiled bytes from a
//!   path, whether the file is text source or already compiled.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod build;
pub mod wad;
pub mod diag;
pub mod inspect;
pub mod text;

use std::path::Path;

pub use diag::{Diagnostic, Diagnostics};
pub use text::compile_source;

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
/// `opts` when the bytes are text source.
pub fn load_map_bytes(
    bytes: Vec<u8>,
    name: &str,
    opts: build::BuildOptions,
) -> Result<Output, String> {
    if bytes.starts_with(&engine::format::MAGIC) {
        let stats = inspect::stats(&bytes)
            .map_err(|e| format!("error: `{name}` is not a valid compiled map: {e}"))?;
        return Ok(Output {
            bytes,
            stats,
            warnings: Vec::new(),
        });
    }
    let text = match std::str::from_utf8(&bytes) {
        Ok(t) => t,
        Err(e) => {
            let at = e.valid_up_to();
            let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
            return Err(format!(
                "error: `{name}` is neither a compiled map nor UTF-8 text: invalid UTF-8 on \
                 line {line} (byte {at})"
            ));
        }
    };
    text::compile_source_with(text, name, opts).map_err(|d| d.to_string())
}
