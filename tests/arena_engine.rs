//! The match runner's engine-process layer on its own: handshake, option discovery,
//! isready, and the two ways an engine fails (it exits; it stays silent past a deadline).

use std::path::PathBuf;
use std::time::{Duration, Instant};
use tinh::arena::args::EngineSpec;
use tinh::arena::engine::{Engine, EngineError};

fn spec(cmd: &str, args: &[&str]) -> EngineSpec {
    EngineSpec {
        cmd: cmd.into(),
        args: args.iter().map(|s| s.to_string()).collect(),
        ..Default::default()
    }
}

fn fake() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake_engines/fake_engine.py")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn handshake_options_and_sync() {
    let s = spec(
        "python3",
        &[
            &fake(),
            "--tinh",
            env!("CARGO_BIN_EXE_tinh"),
            "--name",
            "Fakey",
        ],
    );
    let mut e = Engine::spawn(&s, "fake").unwrap();
    e.handshake(Duration::from_secs(20)).unwrap();
    assert_eq!(e.id_name.as_deref(), Some("Fakey"));
    assert!(e.advertises("uci_variant"));
    assert!(e.advertises("PointTarget"));
    assert!(!e.advertises("Hash"));
    e.sync(Duration::from_secs(20)).unwrap();
    e.quit();
}

#[test]
fn exit_is_a_disconnect_and_silence_a_timeout() {
    // `true` exits at once: reading fails with Disconnected, not a timeout.
    let mut e = Engine::spawn(&spec("true", &[]), "true").unwrap();
    let r = e.handshake(Duration::from_secs(20));
    assert_eq!(r, Err(EngineError::Disconnected));
    // `sleep` reads nothing and says nothing: a timeout at the deadline.
    let mut e = Engine::spawn(&spec("sleep", &["30"]), "sleep").unwrap();
    let t0 = Instant::now();
    let r = e.recv(Instant::now() + Duration::from_millis(200));
    assert_eq!(r, Err(EngineError::Timeout));
    assert!(t0.elapsed() >= Duration::from_millis(200));
    assert!(t0.elapsed() < Duration::from_secs(5));
    // Dropping kills the process at once (the test would otherwise wait 30 s on it).
    drop(e);
    // A program that does not exist cannot start.
    assert!(Engine::spawn(&spec("/nonexistent/engine", &[]), "none").is_err());
}
