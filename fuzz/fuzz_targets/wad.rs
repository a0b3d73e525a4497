//! The WAD reader: any bytes open or give an error; every lump of a WAD
//! that opens can be read and every map found in it listed.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(wad) = tools::wad::Wad::parse(data) {
        for i in 0..wad.lumps().len() {
            let _ = wad.data(i);
        }
        for map in wad.maps() {
            for name in ["THINGS", "LINEDEFS", "SIDEDEFS", "VERTEXES", "SECTORS", "TEXTMAP"] {
                let _ = wad.map_lump(&map, name);
            }
        }
        let _ = wad.between(&["F_START", "FF_START"], &["F_END", "FF_END"]);
    }
});
