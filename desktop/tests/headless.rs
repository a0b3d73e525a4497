//! Runs the built `desktop` binary without a window, as tests, benchmarks
//! and other programs do, and checks what it writes.

mod common;

use common::{data, ok, read_png, run, scratch, stderr, BIN};

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

fn stdout_lines(out: &Output) -> Vec<String> {
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

fn distinct_colours(rgb: &[u8]) -> usize {
    let mut colours: Vec<&[u8]> = rgb.chunks(3).collect();
    colours.sort_unstable();
    colours.dedup();
    colours.len()
}

const KEYS: [&str; 7] = ["tick", "x", "y", "z", "view_z", "angle", "sector"];

/// Splits a trace line into its values, checking it is exactly the seven
/// keys in order, with plain decimal numbers, then `world` (eight hex
/// digits) and, on the tick a level ends, `exit`.
fn fields(line: &str) -> Vec<f64> {
    let inner = line
        .strip_prefix('{')
        .and_then(|l| l.strip_suffix('}'))
        .unwrap_or_else(|| panic!("not an object: {line}"));
    let mut pairs: Vec<&str> = inner.split(',').collect();
    if pairs.last().is_some_and(|p| p.starts_with("\"exit\":")) {
        pairs.pop();
    }
    let world = pairs.pop().unwrap_or_default();
    let hex = world
        .strip_prefix("\"world\":\"")
        .and_then(|w| w.strip_suffix('"'))
        .unwrap_or_else(|| panic!("no world hash: {line}"));
    assert!(
        hex.len() == 8 && hex.bytes().all(|b| b.is_ascii_hexdigit()),
        "{line}"
    );
    assert_eq!(pairs.len(), KEYS.len(), "{line}");
    pairs
        .iter()
        .zip(KEYS)
        .map(|(pair, key)| {
            let (k, v) = pair.split_once(':').unwrap();
            assert_eq!(k, format!("\"{key}\""), "{line}");
            assert!(
                v.bytes()
                    .all(|b| b.is_ascii_digit() || b == b'-' || b == b'.'),
                "{line}"
            );
            v.parse().unwrap()
        })
        .collect()
}

#[test]
fn a_screenshot_of_the_default_level_is_a_png_of_the_right_size() {
    let dir = scratch("desktop", "shot-default");
    let shot = dir.join("out.png");
    let out = ok(&[
        "--headless",
        "--frames",
        "3",
        "--screenshot",
        shot.to_str().unwrap(),
    ]);
    let (w, h, rgb) = read_png(&shot);
    assert_eq!((w, h), (320, 200));
    assert!(distinct_colours(&rgb) > 1, "the picture is one flat colour");
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 1);
    assert_eq!(fields(&lines[0])[0], 3.0, "three frames are three ticks");
}

#[test]
fn a_screenshot_at_another_size() {
    let dir = scratch("desktop", "shot-size");
    let shot = dir.join("small.png");
    let map = data("two_rooms.map");
    ok(&[
        "--headless",
        "--map",
        map.to_str().unwrap(),
        "--width",
        "160",
        "--height",
        "100",
        "--screenshot",
        shot.to_str().unwrap(),
    ]);
    let (w, h, rgb) = read_png(&shot);
    assert_eq!((w, h), (160, 100));
    assert!(distinct_colours(&rgb) > 1, "the picture is one flat colour");
}

#[test]
fn headless_without_frames_or_demo_runs_one_tick() {
    let out = ok(&["--headless"]);
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 1);
    assert_eq!(fields(&lines[0])[0], 1.0);
}

#[test]
fn zero_frames_still_gives_a_screenshot_of_the_start() {
    let dir = scratch("desktop", "zero");
    let shot = dir.join("start.png");
    let out = ok(&[
        "--headless",
        "--frames",
        "0",
        "--screenshot",
        shot.to_str().unwrap(),
    ]);
    assert_eq!(fields(&stdout_lines(&out)[0])[0], 0.0);
    assert_eq!(read_png(&shot).0, 320);
}

/// Plays walk_east.demo on two_rooms.map; returns the trace text and
/// stdout lines.
fn walk(dir: &Path, extra: &[&str]) -> (String, Vec<String>) {
    let trace = dir.join("trace.jsonl");
    let map = data("two_rooms.map");
    let demo = data("walk_east.demo");
    let mut args = vec![
        "--headless",
        "--map",
        map.to_str().unwrap(),
        "--demo",
        demo.to_str().unwrap(),
        "--trace",
        trace.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let out = ok(&args);
    (fs::read_to_string(&trace).unwrap(), stdout_lines(&out))
}

/// walk_east.demo: 35 + 10 + 18 + 20 ticks.
const WALK_TICKS: usize = 83;

#[test]
fn a_trace_has_one_line_per_tick_with_the_keys_in_order() {
    let (trace, _) = walk(&scratch("desktop", "trace"), &[]);
    assert!(trace.ends_with('\n'));
    let lines: Vec<&str> = trace.lines().collect();
    assert_eq!(lines.len(), WALK_TICKS);
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(fields(line)[0], (i + 1) as f64, "ticks count from 1");
    }
}

#[test]
fn walking_forward_changes_x() {
    let (trace, _) = walk(&scratch("desktop", "forward"), &[]);
    let lines: Vec<Vec<f64>> = trace.lines().map(fields).collect();
    let start_x = 128.0;
    // After 35 ticks running east (angle 0), well east of the start and
    // no further north or south.
    let after_run = &lines[34];
    assert!(after_run[1] > start_x + 100.0, "{after_run:?}");
    assert_eq!(after_run[2], 192.0);
    assert_eq!(after_run[5], 0.0, "no turning yet");
    // The 18 ticks of 5-degree turns face north.
    assert_eq!(lines[62][5], 90.0);
}

#[test]
fn the_final_stdout_line_is_the_last_trace_line() {
    let (trace, stdout) = walk(&scratch("desktop", "final"), &[]);
    assert_eq!(stdout.len(), 1);
    assert_eq!(Some(stdout[0].as_str()), trace.lines().last());
}

#[test]
fn the_same_demo_twice_gives_the_same_bytes() {
    let (a, out_a) = walk(&scratch("desktop", "twice-a"), &[]);
    let (b, out_b) = walk(&scratch("desktop", "twice-b"), &[]);
    assert_eq!(a, b);
    assert_eq!(out_a, out_b);
}

#[test]
fn frames_with_a_demo_idles_after_it_ends() {
    let (long, _) = walk(&scratch("desktop", "long"), &["--frames", "100"]);
    let (short, _) = walk(&scratch("desktop", "short"), &[]);
    let long: Vec<&str> = long.lines().collect();
    assert_eq!(long.len(), 100);
    // The demo part is the same run; the rest is idle, so no turning.
    assert_eq!(long[..WALK_TICKS].join("\n"), short.trim_end());
    assert_eq!(fields(long[99])[5], fields(long[WALK_TICKS - 1])[5]);
    // And --frames can also cut a demo short.
    let (cut, _) = walk(&scratch("desktop", "cut"), &["--frames", "10"]);
    assert_eq!(cut.lines().count(), 10);
}

#[test]
fn a_compiled_map_plays_like_its_source() {
    let dir = scratch("desktop", "compiled");
    let source = fs::read_to_string(data("two_rooms.map")).unwrap();
    let compiled = tools::compile_source(&source, "two_rooms.map").unwrap();
    let bin = dir.join("two_rooms.bin");
    fs::write(&bin, &compiled.bytes).unwrap();
    let demo = data("walk_east.demo");
    let out = ok(&[
        "--headless",
        "--map",
        bin.to_str().unwrap(),
        "--demo",
        demo.to_str().unwrap(),
    ]);
    let (_, from_source) = walk(&dir, &[]);
    assert_eq!(stdout_lines(&out), from_source);
}

#[test]
fn a_bad_demo_line_names_the_file_and_line() {
    let demo = data("bad_range.demo");
    let out = run(&["--headless", "--demo", demo.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    let expected = format!("{}:4: ", demo.display());
    assert!(err.starts_with(&expected), "{err}");
    assert!(err.contains("150"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_missing_map_says_so() {
    let out = run(&["--headless", "--map", "no/such/level.map"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("no/such/level.map"), "{err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_missing_demo_says_so() {
    let out = run(&["--headless", "--demo", "no/such/walk.demo"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("no/such/walk.demo"), "{err}");
}

#[test]
fn a_broken_map_prints_the_compiler_diagnostics() {
    let map = data("broken.map");
    let out = run(&["--headless", "--map", map.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains(&format!("{}:4:", map.display())), "{err}");
    assert!(!err.contains("error: error"), "{err}");
}

#[test]
fn help_prints_the_usage() {
    let out = ok(&["--help"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text, desktop::args::USAGE);
}

#[test]
fn a_bad_option_fails_with_a_hint() {
    let out = run(&["--headless", "--frame", "3"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("--help"), "{}", stderr(&out));
}

// Elsewhere (macOS, Windows) there is always a display: a window opens.
#[cfg(all(unix, not(target_os = "macos")))]
#[test]
fn without_a_display_the_window_suggests_headless() {
    let out = Command::new(BIN)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("--headless"), "{err}");
}

#[test]
fn a_timedemo_prints_its_runs_and_a_summary_without_a_display() {
    let out = Command::new(BIN)
        .args([
            "--timedemo",
            "--map",
            data("two_rooms.map").to_str().unwrap(),
            "--frames",
            "20",
            "--runs",
            "3",
            "--width",
            "160",
            "--height",
            "100",
        ])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = stdout_lines(&out);
    // The CPU time line where the system tells it (Unix).
    let cpu_line = usize::from(cfg!(unix));
    assert_eq!(lines.len(), 6 + cpu_line, "{lines:?}");
    assert_eq!(
        lines[0],
        "timedemo: two_rooms 160x100: 64 viewpoints (1 player start, 63 sampled; seed 1), \
         20 frames x 3 runs"
    );
    for (i, line) in lines[1..4].iter().enumerate() {
        let head = format!("timedemo: run {}/3: 20 frames in ", i + 1);
        assert!(line.starts_with(&head) && line.ends_with(" fps"), "{line}");
    }
    assert!(
        lines[4].starts_with("timedemo: per frame: "),
        "{}",
        lines[4]
    );
    if cpu_line == 1 {
        assert!(
            lines[5].starts_with("timedemo: CPU time: median ")
                && lines[5].ends_with(" over 3 runs)"),
            "{}",
            lines[5]
        );
    }
    // The summary: `timedemo: MAP WxH: N frames, median X µs/frame (min A,
    // max B over R runs), Y fps`.
    let summary = lines.last().unwrap();
    let rest = summary
        .strip_prefix("timedemo: two_rooms 160x100: 20 frames, median ")
        .unwrap_or_else(|| panic!("{summary}"));
    let (median, rest) = rest.split_once(" µs/frame (min ").unwrap();
    let (min, rest) = rest.split_once(", max ").unwrap();
    let (max, rest) = rest.split_once(" over 3 runs), ").unwrap();
    let fps = rest.strip_suffix(" fps").unwrap();
    let [median, min, max, fps]: [f64; 4] =
        [median, min, max, fps].map(|v| v.parse().unwrap_or_else(|_| panic!("{summary}")));
    assert!(min <= median && median <= max && min > 0.0, "{summary}");
    // (fps from the unrounded median.)
    assert!((fps * median / 1e6 - 1.0).abs() < 1e-3, "{summary}");
    // Nothing is written: no screenshot, no trace; on stderr, one line:
    // the way of dividing timed at start-up and kept.
    let err = stderr(&out);
    assert!(
        err.lines().count() == 1
            && (err.starts_with("timedemo: divisions: integer (timed: ")
                || err.starts_with("timedemo: divisions: doubles (timed: ")),
        "{err}"
    );
}

#[test]
fn a_timedemo_with_a_seed_renders_the_same_frames() {
    let args = |seed: &str| {
        let out = ok(&[
            "--timedemo",
            "--map",
            data("two_rooms.map").to_str().unwrap(),
            "--frames",
            "64",
            "--runs",
            "1",
            "--seed",
            seed,
        ]);
        // The renderer's figures depend only on the frames drawn.
        stdout_lines(&out)[2].clone()
    };
    assert_eq!(args("5"), args("5"));
    assert_ne!(args("5"), args("6"));
}

const STAIRS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../maps/stairs.map");

#[test]
fn start_puts_the_player_there_on_the_floor() {
    // The landing of maps/stairs.map, floor 96, facing south.
    let out = ok(&["--headless", "--map", STAIRS, "--start", "128,600,-90"]);
    let lines = stdout_lines(&out);
    let v = fields(lines.last().unwrap());
    assert_eq!(
        (v[1], v[2], v[3], v[5]),
        (128.0, 600.0, 96.0, 270.0),
        "{lines:?}"
    );
    // Outside every sector: a clear error, and no state printed.
    let out = run(&["--headless", "--map", STAIRS, "--start", "5000,5000,0"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.starts_with("error: --start 5000,5000: the point is outside every sector"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn a_run_ends_at_an_exit_and_its_last_line_says_so() {
    let dir = scratch("desktop", "exit");
    let map = dir.join("exit.map");
    fs::write(
        &map,
        "vertex a 0 0\nvertex b 256 0\nvertex c 256 128\nvertex d 0 128\n\
         vertex e 512 0\nvertex f 512 128\n\
         sector hall floor 0 ceiling 128\nsector far floor 0 ceiling 128\n\
         loop hall a b c d a\nloop far b e f c b\n\
         player 64 64 0\nexit b c walk\n",
    )
    .unwrap();
    let demo = dir.join("run.demo");
    fs::write(&demo, "100 100 0 0\n").unwrap();
    let trace = dir.join("trace.jsonl");
    let out = ok(&[
        "--headless",
        "--map",
        map.to_str().unwrap(),
        "--demo",
        demo.to_str().unwrap(),
        "--trace",
        trace.to_str().unwrap(),
    ]);
    let last = stdout_lines(&out).pop().unwrap();
    assert!(last.ends_with(",\"exit\":\"normal\"}"), "{last}");
    let lines: Vec<String> = fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    // It stopped on the tick the centre crossed x = 256, well before the
    // demo's 100 ticks, and only that line has the `exit` key.
    assert!(lines.len() < 40, "{} ticks", lines.len());
    assert_eq!(lines.last(), Some(&last));
    assert!(lines[..lines.len() - 1].iter().all(|l| !l.contains("exit")));
    let fields: Vec<f64> = fields(&lines[0]);
    assert_eq!(fields.len(), 7);
}

#[test]
fn the_default_level_ends_at_its_exit_switch() {
    // In the control room facing its west wall, 36 units away: one press.
    let dir = scratch("desktop", "default-exit");
    let demo = dir.join("use.demo");
    fs::write(&demo, "2 0 0 0 1\n10 0 0 0\n").unwrap();
    let out = ok(&[
        "--headless",
        "--start",
        "100,1150,180",
        "--demo",
        demo.to_str().unwrap(),
    ]);
    let last = stdout_lines(&out).pop().unwrap();
    assert!(last.starts_with("{\"tick\":1,"), "{last}");
    assert!(last.ends_with(",\"exit\":\"normal\"}"), "{last}");
    // Facing away, the press does nothing and the demo plays out.
    let out = ok(&[
        "--headless",
        "--start",
        "100,1150,0",
        "--demo",
        demo.to_str().unwrap(),
    ]);
    let last = stdout_lines(&out).pop().unwrap();
    assert!(
        last.starts_with("{\"tick\":12,") && !last.contains("exit"),
        "{last}"
    );
}
