//! The video interface: scans a 16-bit framebuffer in RDRAM out to the TV.
//!
//! Mode: 320x240, RGBA5551, progressive (240p), no anti-aliasing or
//! filtering (each framebuffer pixel is replicated, so pixels stay
//! crisp). Timings per TV standard are libdragon's 320x240 presets.

use super::Register;

// SAFETY (all): VI and MI register addresses from the N64 memory map.
const VI_CTRL: Register = unsafe { Register::at(0x0440_0000) };
const VI_ORIGIN: Register = unsafe { Register::at(0x0440_0004) };
const VI_WIDTH: Register = unsafe { Register::at(0x0440_0008) };
const VI_V_INTR: Register = unsafe { Register::at(0x0440_000C) };
const VI_V_CURRENT: Register = unsafe { Register::at(0x0440_0010) };
const VI_BURST: Register = unsafe { Register::at(0x0440_0014) };
const VI_V_SYNC: Register = unsafe { Register::at(0x0440_0018) };
const VI_H_SYNC: Register = unsafe { Register::at(0x0440_001C) };
const VI_H_SYNC_LEAP: Register = unsafe { Register::at(0x0440_0020) };
const VI_H_VIDEO: Register = unsafe { Register::at(0x0440_0024) };
const VI_V_VIDEO: Register = unsafe { Register::at(0x0440_0028) };
const VI_V_BURST: Register = unsafe { Register::at(0x0440_002C) };
const VI_X_SCALE: Register = unsafe { Register::at(0x0440_0030) };
const VI_Y_SCALE: Register = unsafe { Register::at(0x0440_0034) };
const MI_INTR: Register = unsafe { Register::at(0x0430_0008) };

/// MI_INTR bit for the VI. It is set at the VI_V_INTR line of every
/// field even while the CPU interrupt is masked, which is what the frame
/// loop polls.
const MI_INTR_VI: u32 = 1 << 3;

/// VI_CTRL: 16-bit pixels (2), "replicate pixels" anti-alias mode (3 << 8:
/// no AA, no resampling), pixel advance 3 (the value every console uses).
const CTRL_RGBA5551_NO_FILTER: u32 = 0x0000_3302;

/// X scale 0x200 = 0.5 framebuffer pixels per output pixel: 320 → 640.
const X_SCALE_320: u32 = 0x200;
/// Y scale 0x400 = 1.0 framebuffer line per scanline: 240 lines.
const Y_SCALE_240: u32 = 0x400;

/// The TV standard, as the boot loader reports it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TvType {
    /// 50 Hz, 625 lines.
    Pal,
    /// 60 Hz, 525 lines.
    Ntsc,
    /// Brazil's 60 Hz PAL-M.
    Mpal,
}

impl TvType {
    /// From the boot flags' TV byte (0 PAL, 1 NTSC, 2 MPAL); anything
    /// else is taken as NTSC.
    pub(super) fn from_boot_flag(flag: u8) -> TvType {
        match flag {
            0 => TvType::Pal,
            2 => TvType::Mpal,
            _ => TvType::Ntsc,
        }
    }

    /// Short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            TvType::Pal => "PAL",
            TvType::Ntsc => "NTSC",
            TvType::Mpal => "MPAL",
        }
    }
}

/// Sync and video-window timings of one TV standard.
struct Timing {
    burst: u32,
    v_sync: u32,
    h_sync: u32,
    h_sync_leap: u32,
    h_video: u32,
    v_video: u32,
    v_burst: u32,
    /// The half-line of the vertical-blank interrupt: just after the last
    /// visible line (the end of V_VIDEO), so a buffer swap there is not
    /// seen mid-picture.
    v_intr: u32,
}

fn timing(tv: TvType) -> Timing {
    match tv {
        TvType::Ntsc => Timing {
            burst: 0x03E5_2239,
            v_sync: 0x0000_020D,
            h_sync: 0x0000_0C15,
            h_sync_leap: 0x0C15_0C15,
            h_video: 0x006C_02EC,
            v_video: 0x0025_01FF,
            v_burst: 0x000E_0204,
            v_intr: 0x200,
        },
        TvType::Pal => Timing {
            burst: 0x0404_233A,
            v_sync: 0x0000_0271,
            h_sync: 0x0015_0C69,
            h_sync_leap: 0x0C6F_0C6E,
            h_video: 0x0080_0300,
            v_video: 0x005F_0239,
            v_burst: 0x0009_026B,
            v_intr: 0x23A,
        },
        TvType::Mpal => Timing {
            burst: 0x0465_1E39,
            v_sync: 0x0000_020D,
            h_sync: 0x0004_0C11,
            h_sync_leap: 0x0C19_0C1A,
            h_video: 0x006C_02EC,
            v_video: 0x0025_01FF,
            v_burst: 0x000E_0204,
            v_intr: 0x200,
        },
    }
}

/// Programs the VI for 320x240 RGBA5551 showing the framebuffer at
/// physical address `origin`.
pub(super) fn init(tv: TvType, origin: u32) {
    let t = timing(tv);
    // Blank while the timings change.
    VI_CTRL.write(0);
    VI_ORIGIN.write(origin);
    // WIDTH is the framebuffer's row stride in pixels; X_SCALE makes 320
    // of each row the picture.
    VI_WIDTH.write(super::video::STRIDE as u32);
    VI_V_INTR.write(t.v_intr);
    VI_V_CURRENT.write(0);
    VI_BURST.write(t.burst);
    VI_V_SYNC.write(t.v_sync);
    VI_H_SYNC.write(t.h_sync);
    VI_H_SYNC_LEAP.write(t.h_sync_leap);
    VI_H_VIDEO.write(t.h_video);
    VI_V_VIDEO.write(t.v_video);
    VI_V_BURST.write(t.v_burst);
    VI_X_SCALE.write(X_SCALE_320);
    VI_Y_SCALE.write(Y_SCALE_240);
    VI_CTRL.write(CTRL_RGBA5551_NO_FILTER);
}

/// Shows the framebuffer at physical address `origin` from the next field.
pub(super) fn set_origin(origin: u32) {
    VI_ORIGIN.write(origin);
}

/// Waits for the start of the next vertical blank.
///
/// A VI interrupt already pending may be from a blank that ended long ago
/// (the frame took longer than a field), so it is acknowledged first and
/// the wait is for a fresh one: on return the beam is just past the last
/// visible line, and a new origin takes effect before anything of the
/// next field is shown.
///
/// Never inlined: the profile (tools/tour_profile.py) tells waiting from
/// work by this function's name.
#[inline(never)]
pub(super) fn wait_for_vertical_blank() {
    VI_V_CURRENT.write(0);
    while MI_INTR.read() & MI_INTR_VI == 0 {}
    // Writing V_CURRENT acknowledges the VI interrupt.
    VI_V_CURRENT.write(0);
}
