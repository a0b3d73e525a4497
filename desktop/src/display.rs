//! Getting the picture onto the screen: the window scale, the 4:3 aspect
//! mode, and (on X11) the screen size and the pointer for mouse turning.
//!
//! The frontend scales the picture itself, by a whole number whenever the
//! window is at least the picture's size, so pixels stay square-edged and
//! even; `minifb` then centres it in the window (black around it). In the
//! aspect mode the picture's rows are stretched by 6/5 first, so 320x200
//! shows as 320x240, 4:3, as DOOM's did on a monitor.

/// Picture height on screen for a render `height` rows high: 6/5 of it in
/// the aspect mode (200 rows show as 240), else the same.
pub fn display_height(height: usize, aspect: bool) -> usize {
    if aspect {
        (height * 6).div_ceil(5)
    } else {
        height
    }
}

/// The largest whole scale (1 to `max`) at which a `width` x `height`
/// picture fits on a `screen`, leaving room for window decorations and
/// panels (90% of the width, 85% of the height).
pub fn fit_scale(width: usize, height: usize, screen: (usize, usize), max: usize) -> usize {
    let room_w = screen.0 * 9 / 10;
    let room_h = screen.1 * 85 / 100;
    let by_w = room_w / width.max(1);
    let by_h = room_h / height.max(1);
    by_w.min(by_h).clamp(1, max.max(1))
}

/// The size to show a `width` x `height` picture at in a window of
/// `window` pixels: the largest whole multiple that fits, or when even
/// 1x does not fit, the largest size of the same shape that does.
pub fn fit_in_window(width: usize, height: usize, window: (usize, usize)) -> (usize, usize) {
    let (ww, wh) = (window.0.max(1), window.1.max(1));
    let (w, h) = (width.max(1), height.max(1));
    let scale = (ww / w).min(wh / h);
    if scale >= 1 {
        return (w * scale, h * scale);
    }
    // Smaller than the picture: shrink, keeping the shape.
    if ww * h <= wh * w {
        (ww, (h * ww / w).max(1))
    } else {
        ((w * wh / h).max(1), wh)
    }
}

/// Scales the `width` x `height` picture `src` into `dst`, `out_w` x
/// `out_h`, nearest pixel (exact whole-number scaling when the sizes are
/// multiples). `dst` is resized to fit.
pub fn scale_into(
    src: &[u32],
    width: usize,
    height: usize,
    dst: &mut Vec<u32>,
    out_w: usize,
    out_h: usize,
) {
    dst.resize(out_w * out_h, 0);
    if width == 0 || height == 0 || out_w == 0 || out_h == 0 || src.len() < width * height {
        dst.fill(0);
        return;
    }
    let columns: Vec<usize> = (0..out_w).map(|x| x * width / out_w).collect();
    let mut previous: Option<usize> = None;
    for y in 0..out_h {
        let sy = y * height / out_h;
        let (done, rest) = dst.split_at_mut(y * out_w);
        let row = &mut rest[..out_w];
        match previous {
            // The same source row as the last: copy the finished row.
            Some(p) if p == sy => row.copy_from_slice(&done[(y - 1) * out_w..]),
            _ => {
                let line = &src[sy * width..(sy + 1) * width];
                for (px, &sx) in row.iter_mut().zip(&columns) {
                    *px = line[sx];
                }
            }
        }
        previous = Some(sy);
    }
}

#[cfg(all(unix, not(target_os = "macos")))]
pub use x11::X11;

#[cfg(all(unix, not(target_os = "macos")))]
mod x11 {
    use x11rb::connection::Connection;
    use x11rb::protocol::randr::ConnectionExt as _;
    use x11rb::protocol::xproto::ConnectionExt as _;
    use x11rb::rust_connection::RustConnection;

    /// A second connection to the X server `minifb` uses, for what
    /// `minifb` cannot do: measure the screen and move the pointer.
    pub struct X11 {
        conn: RustConnection,
        root: u32,
        screen: (usize, usize),
    }

    impl std::fmt::Debug for X11 {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("X11").field("screen", &self.screen).finish()
        }
    }

    impl X11 {
        /// Connects to `$DISPLAY`; `None` without an X server (Wayland
        /// without XWayland, a console).
        pub fn connect() -> Option<X11> {
            let (conn, screen_index) = x11rb::connect(None).ok()?;
            let screen = conn.setup().roots.get(screen_index)?;
            let root = screen.root;
            let whole = (
                usize::from(screen.width_in_pixels),
                usize::from(screen.height_in_pixels),
            );
            // With several monitors the root spans them all: prefer the
            // primary monitor's size, when RandR says.
            let primary = conn
                .randr_get_monitors(root, true)
                .ok()
                .and_then(|c| c.reply().ok())
                .and_then(|r| {
                    let monitors = r.monitors;
                    monitors
                        .iter()
                        .find(|m| m.primary)
                        .or_else(|| monitors.first())
                        .map(|m| (usize::from(m.width), usize::from(m.height)))
                })
                .filter(|&(w, h)| w > 0 && h > 0);
            Some(X11 {
                root,
                screen: primary.unwrap_or(whole),
                conn,
            })
        }

        /// The screen's (primary monitor's) size in pixels.
        pub fn screen_size(&self) -> (usize, usize) {
            self.screen
        }

        /// True if `window` is a window on this server (`minifb` may have
        /// opened a Wayland window instead, whose handle is no X id).
        pub fn is_window(&self, window: u32) -> bool {
            self.conn
                .get_geometry(window)
                .ok()
                .and_then(|c| c.reply().ok())
                .is_some_and(|g| g.root == self.root)
        }

        /// The pointer's position relative to `window`, wherever it is.
        pub fn pointer(&self, window: u32) -> Option<(i32, i32)> {
            let r = self.conn.query_pointer(window).ok()?.reply().ok()?;
            r.same_screen
                .then_some((i32::from(r.win_x), i32::from(r.win_y)))
        }

        /// Moves the pointer by `(dx, dy)` from wherever it is. Relative,
        /// so a movement the user makes meanwhile is kept, not lost.
        pub fn warp_by(&self, dx: i32, dy: i32) {
            let clamp = |v: i32| v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
            if self
                .conn
                .warp_pointer(x11rb::NONE, x11rb::NONE, 0, 0, 0, 0, clamp(dx), clamp(dy))
                .is_ok()
            {
                let _ = self.conn.flush();
            }
        }
    }
}

/// Elsewhere there is no X server to ask: the window opens at the default
/// scale and mouse turning follows the pointer within the window.
#[cfg(not(all(unix, not(target_os = "macos"))))]
#[derive(Debug)]
pub struct X11;

#[cfg(not(all(unix, not(target_os = "macos"))))]
impl X11 {
    /// Never connects.
    pub fn connect() -> Option<X11> {
        None
    }
    /// Unknown.
    pub fn screen_size(&self) -> (usize, usize) {
        (0, 0)
    }
    /// Never.
    pub fn is_window(&self, _window: u32) -> bool {
        false
    }
    /// Unknown.
    pub fn pointer(&self, _window: u32) -> Option<(i32, i32)> {
        None
    }
    /// Does nothing.
    pub fn warp_by(&self, _dx: i32, _dy: i32) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_aspect_mode_shows_200_rows_as_240() {
        assert_eq!(display_height(200, true), 240);
        assert_eq!(display_height(200, false), 200);
        assert_eq!(display_height(400, true), 480);
        assert_eq!(display_height(1, true), 2);
    }

    #[test]
    fn the_scale_fits_the_screen() {
        // 1920x1080: 4x 320x200 (1280x800) fits, 5x (1000 rows) does not.
        assert_eq!(fit_scale(320, 200, (1920, 1080), 8), 4);
        // 4:3: 240 rows, 3x is 720.
        assert_eq!(fit_scale(320, 240, (1920, 1080), 8), 3);
        assert_eq!(fit_scale(320, 200, (2560, 1440), 8), 6);
        assert_eq!(fit_scale(320, 200, (7680, 4320), 8), 8);
        // A tiny screen still gets 1x.
        assert_eq!(fit_scale(320, 200, (300, 200), 8), 1);
    }

    #[test]
    fn the_window_gets_a_whole_multiple_or_a_shrunk_copy() {
        assert_eq!(fit_in_window(320, 200, (1000, 700)), (960, 600));
        assert_eq!(fit_in_window(320, 240, (1000, 700)), (640, 480));
        assert_eq!(fit_in_window(320, 200, (320, 200)), (320, 200));
        assert_eq!(fit_in_window(320, 200, (160, 400)), (160, 100));
        assert_eq!(fit_in_window(320, 200, (640, 100)), (160, 100));
        assert_eq!(fit_in_window(320, 200, (0, 0)), (1, 1));
    }

    #[test]
    fn scaling_repeats_pixels_and_rows() {
        let src = [1, 2, 3, 4];
        let mut dst = Vec::new();
        scale_into(&src, 2, 2, &mut dst, 4, 4);
        assert_eq!(dst, [1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4]);
        // 5 rows shown as 6: one row is doubled.
        let src: Vec<u32> = (0..5).collect();
        scale_into(&src, 1, 5, &mut dst, 1, 6);
        assert_eq!(dst, [0, 0, 1, 2, 3, 4]);
        // Shrinking picks every other pixel.
        let src: Vec<u32> = (0..16).collect();
        scale_into(&src, 4, 4, &mut dst, 2, 2);
        assert_eq!(dst, [0, 2, 8, 10]);
        scale_into(&[], 0, 0, &mut dst, 2, 1);
        assert_eq!(dst, [0, 0]);
    }
}
