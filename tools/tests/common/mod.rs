//! Helpers shared by the tests that run the `tools` binary or read the
//! Freedoom WADs.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh, empty directory for one test, named `PREFIX-NAME`.
pub fn scratch(prefix: &str, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{prefix}-{name}"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the `tools` binary with `args`.
pub fn tools(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tools"))
        .args(args)
        .output()
        .expect("run tools")
}

/// Runs `tools compile SRC -o OUT`.
pub fn compile(src: &Path, out: &Path) -> Output {
    tools(&[
        "compile",
        src.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ])
}

/// Output bytes as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Where the Freedoom WAD `name` is (`FREEDOOM_DIR`, else Debian's
/// directory).
pub fn wad_path(name: &str) -> PathBuf {
    let dir = std::env::var_os("FREEDOOM_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/share/games/doom"));
    dir.join(name)
}

/// The bytes of the Freedoom WAD `name`, or a panic that says how to
/// install it.
pub fn read_wad(name: &str) -> Vec<u8> {
    let path = wad_path(name);
    fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {} ({e}): install Freedoom with `scripts/setup` (Debian package \
             `freedoom`), or point FREEDOOM_DIR at a directory holding {name}",
            path.display()
        )
    })
}
