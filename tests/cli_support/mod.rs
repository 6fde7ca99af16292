//! What the command-line tests share: `tinh` run as a process from the repository root,
//! with its exit status and both output streams.

use std::process::Command;

/// Run `tinh` with `args`: (exit code, stdout, stderr); the code is `None` when a signal
/// ended it.
pub fn tinh(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tinh"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run tinh");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
