//! The real window, under a virtual X server: it opens, renders, takes
//! key presses and mouse moves, and closes; what someone plays in it
//! replays headless, tick for tick.
//!
//! Needs `xvfb-run` (Debian package `xvfb`) and, for the real key presses,
//! `xdotool`. CI installs both (scripts/setup); on a machine without them
//! a test says so and passes only when not under CI.

mod common;

use common::{data, s, scratch, BIN};

use std::fs;
use std::process::{Command, Output};

fn available(tool: &str) -> bool {
    let ok = Command::new(tool).arg("--help").output().is_ok();
    if !ok {
        assert!(std::env::var_os("CI").is_none(), "CI must provide {tool}");
        eprintln!("skipped: {tool} is not installed");
    }
    ok
}

/// Runs `desktop` with `args` in a 1280x1024 virtual X server.
fn in_xvfb(args: &[&str]) -> Output {
    Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x1024x24"])
        .arg(BIN)
        .args(args)
        .output()
        .expect("run xvfb-run")
}

/// Runs a shell script in a 1280x1024 virtual X server; `$BIN` is the
/// binary.
fn script_in_xvfb(script: &str) -> Output {
    Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x1024x24", "sh", "-c", script])
        .env("BIN", BIN)
        .output()
        .expect("run xvfb-run")
}

fn check(out: &Output) -> (String, String) {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "exit {:?}\nstdout: {stdout}\nstderr: {stderr}",
        out.status
    );
    (stdout, stderr)
}

/// A number from a trace line.
fn field(line: &str, key: &str) -> f64 {
    line.split(&format!("\"{key}\":"))
        .nth(1)
        .and_then(|s| s.split([',', '}']).next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no {key} in {line}"))
}

#[test]
fn the_window_opens_moves_the_player_and_closes() {
    if !available("xvfb-run") {
        return;
    }
    let dir = scratch("window", "demo");
    let demo = dir.join("walk.demo");
    fs::write(&demo, "# walk forward for half a second\n18 100 0 0\n").unwrap();
    let shot = dir.join("window.png");
    let trace = dir.join("trace.jsonl");
    let config = dir.join("desktop.cfg");
    // 18 demo ticks take about 0.5 s at 35 Hz; 300 frames (capped at 250
    // fps) take longer.
    let out = in_xvfb(&[
        "--demo",
        s(&demo),
        "--trace",
        s(&trace),
        "--config",
        s(&config),
        "--frames",
        "300",
        "--scale",
        "2",
        "--screenshot",
        s(&shot),
    ]);
    let (stdout, stderr) = check(&out);
    // The final state: the player walked east from the start (192, 256).
    let last = stdout.lines().last().unwrap_or_default();
    assert!(last.starts_with("{\"tick\":"), "{stdout}");
    assert!(
        field(last, "x") > 192.0 + 100.0,
        "player did not move: {last}"
    );
    assert!(fs::metadata(&shot).map(|m| m.len() > 100).unwrap_or(false));
    // The settings file was written with the defaults on first run.
    assert!(stderr.contains("wrote the default settings"), "{stderr}");
    assert_eq!(
        fs::read_to_string(&config).unwrap(),
        desktop::config::default_text()
    );
}

#[test]
fn scripted_keys_in_the_window_record_a_demo_that_replays_headless() {
    if !available("xvfb-run") {
        return;
    }
    let dir = scratch("window", "record");
    let keys = dir.join("keys.script");
    // Run east, turn left walking (Shift), strafe right with Alt+Right,
    // noclip for a while (the game waits, the recording skips it), show
    // the automap, then quit after 100 steps.
    fs::write(
        &keys,
        "0 W down\n30 W up\n\
         30 Shift down\n30 Left down\n45 Left up\n45 Shift down\n\
         45 Alt down\n45 Right down\n60 Right up\n60 Alt up\n60 Shift up\n\
         60 N down\n61 N up\n62 D down\n70 D up\n70 N down\n71 N up\n\
         75 Tab down\n76 Tab up\n75 W down\n95 W up\n100 quit\n",
    )
    .unwrap();
    let map = data("two_rooms.map");
    let recorded = dir.join("played.demo");
    let window_trace = dir.join("window.jsonl");
    let out = in_xvfb(&[
        "--map",
        s(&map),
        "--script-keys",
        s(&keys),
        "--record",
        s(&recorded),
        "--trace",
        s(&window_trace),
        "--config",
        s(&dir.join("desktop.cfg")),
    ]);
    let (window_stdout, _) = check(&out);

    let demo = fs::read_to_string(&recorded).unwrap();
    assert!(demo.starts_with("# portalcast demo"), "{demo}");
    assert!(
        demo.contains(&format!("# map: {}\n", map.display())),
        "{demo}"
    );
    // 100 steps, 10 of them in noclip: 90 game ticks.
    let window_lines = fs::read_to_string(&window_trace).unwrap();
    assert_eq!(window_lines.lines().count(), 90, "{window_lines}");
    let ticks: u64 = desktop::demo::total_ticks(&desktop::demo::parse_demo(&demo, "d").unwrap());
    assert_eq!(ticks, 90, "{demo}");

    let replay_trace = dir.join("replay.jsonl");
    let out = Command::new(BIN)
        .args(["--headless", "--map", s(&map), "--demo", s(&recorded)])
        .args(["--trace", s(&replay_trace)])
        .output()
        .unwrap();
    let (replay_stdout, _) = check(&out);
    assert_eq!(fs::read_to_string(&replay_trace).unwrap(), window_lines);
    assert_eq!(replay_stdout, window_stdout);
    // And the player did go somewhere: east, then turned left.
    let last = window_stdout.lines().last().unwrap();
    assert!(field(last, "x") > 300.0, "{last}");
    assert_eq!(field(last, "angle"), 45.0, "{last}");
}

#[test]
fn real_key_presses_and_the_mouse_drive_the_window() {
    if !available("xvfb-run") || !available("xdotool") {
        return;
    }
    let dir = scratch("window", "xdotool");
    let map = data("two_rooms.map");
    let trace = dir.join("trace.jsonl");
    let config = dir.join("cfg").join("desktop.cfg");
    // Hold W, move the mouse 100 pixels right (12 degrees at the default
    // sensitivity), press F12 (screenshot), P (where), Tab (automap), then
    // Esc. The window fits the 1280x1024 screen at 3x; 4:3 makes it
    // 960x720.
    let script = format!(
        "$BIN --map '{map}' --trace '{trace}' --config '{config}' --mouse --aspect \
           >'{dir}/out.txt' 2>'{dir}/err.txt' &\n\
         pid=$!\n\
         win=$(xdotool search --sync --name two_rooms | head -n 1)\n\
         xdotool getwindowgeometry \"$win\"\n\
         xdotool windowfocus --sync \"$win\"\n\
         sleep 0.3\n\
         xdotool keydown w; sleep 0.6; xdotool keyup w\n\
         sleep 0.2\n\
         xdotool mousemove_relative 100 0\n\
         sleep 0.3\n\
         xdotool key F12 p Tab\n\
         sleep 0.3\n\
         xdotool key Escape\n\
         wait $pid\n",
        map = map.display(),
        trace = trace.display(),
        config = config.display(),
        dir = dir.display(),
    );
    let out = script_in_xvfb(&script);
    let (geometry, _) = check(&out);
    let stdout = fs::read_to_string(dir.join("out.txt")).unwrap();
    let stderr = fs::read_to_string(dir.join("err.txt")).unwrap();
    assert!(geometry.contains("Geometry: 960x720"), "{geometry}");

    let last = stdout.lines().last().unwrap_or_default();
    assert!(
        field(last, "x") > 200.0,
        "W did not move the player: {last}\n{stderr}"
    );
    // 100 pixels right at 12 degrees per 100: 348 degrees.
    assert_eq!(field(last, "angle"), 348.0, "{last}\n{stderr}");
    assert!(stderr.contains("where: x "), "{stderr}");
    let shots: Vec<_> = fs::read_dir(config.parent().unwrap())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("portalcast-") && n.ends_with(".png"))
        .collect();
    assert_eq!(shots.len(), 1, "{shots:?}\n{stderr}");
    assert!(stderr.contains("screenshot: "), "{stderr}");
}

#[test]
fn an_exit_in_the_window_goes_on_to_the_wads_next_map() {
    if !available("xvfb-run") {
        return;
    }
    let dir = std::env::var_os("FREEDOOM_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| "/usr/share/games/doom".into());
    let wad = dir.join("freedoom1.wad");
    assert!(
        wad.is_file(),
        "{} is missing: run scripts/setup",
        wad.display()
    );
    let demo =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../demos/freedoom1-e1m1.demo");
    let config = scratch("window", "next-map").join("desktop.cfg");
    // The demo's 1,140 ticks take 32.6 s at 35 Hz, the exit shows for
    // 1.5 s; 2,400 frames at 60 a second at most take longer.
    let out = in_xvfb(&[
        "--map",
        s(&wad),
        "--warp",
        "E1M1",
        "--demo",
        s(&demo),
        "--frames",
        "2400",
        "--fps-cap",
        "60",
        "--trace",
        s(&config.with_file_name("trace.jsonl")),
        "--config",
        s(&config),
        "--width",
        "160",
        "--height",
        "100",
    ]);
    let (stdout, stderr) = check(&out);
    assert!(
        stderr.contains("E1M1: level complete: on to e1m2"),
        "{stderr}"
    );
    // The run ended on E1M2, the player standing at its start.
    let last = stdout.lines().last().unwrap_or_default();
    let start = Command::new(BIN)
        .args([
            "--headless",
            "--map",
            s(&wad),
            "--warp",
            "E1M2",
            "--frames",
            "0",
        ])
        .output()
        .unwrap();
    let start = String::from_utf8_lossy(&start.stdout).into_owned();
    let start = start.lines().last().unwrap_or_default();
    assert_eq!(field(last, "x"), field(start, "x"), "{last} / {start}");
    assert_eq!(field(last, "y"), field(start, "y"), "{last} / {start}");
    assert!(!last.contains("exit"), "{last}");
}

#[test]
fn watch_reloads_the_map_where_the_player_stands_and_keeps_it_on_errors() {
    if !available("xvfb-run") {
        return;
    }
    let dir = scratch("window", "watch");
    let map = dir.join("room.map");
    let room = |floor: i32| {
        format!(
            "vertex a 0 0\nvertex b 512 0\nvertex c 512 512\nvertex d 0 512\n\
             sector room floor {floor} ceiling 256\nloop room a b c d a\nplayer 64 256 0\n"
        )
    };
    fs::write(&map, room(0)).unwrap();
    let demo = dir.join("walk.demo");
    // Walk east for a second, then stand.
    fs::write(&demo, "35 100 0 0\n").unwrap();
    let config = dir.join("desktop.cfg");
    let trace = dir.join("trace.jsonl");
    // 4 s of frames at 60 a second at most; the file breaks after 1.5 s
    // and is mended (floor 32) after 2.5 s.
    let script = format!(
        "\"$BIN\" --map {map} --watch --demo {demo} --frames 240 --fps-cap 60 --width 160 \
         --height 100 --config {config} --trace {trace} & \
         sleep 1.5; printf 'vertex a 0 0\\nsector broken\\n' > {map}; \
         sleep 1; printf '{good}' > {map}; wait",
        map = s(&map),
        demo = s(&demo),
        config = s(&config),
        trace = s(&trace),
        good = room(32).replace('\n', "\\n"),
    );
    let (stdout, stderr) = check(&script_in_xvfb(&script));
    assert!(
        stderr.contains("error"),
        "the broken file is reported: {stderr}"
    );
    assert!(stderr.contains("compiled again"), "{stderr}");
    let last = stdout.lines().last().unwrap_or_default();
    // On the new floor, where the walk had taken the player (well east of
    // the start), not back at the start.
    assert_eq!(field(last, "z"), 32.0, "{last}");
    assert!(field(last, "x") > 200.0, "{last}");
}
