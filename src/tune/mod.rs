//! Strength from data: `tinh datagen` plays self-play games and records every position
//! with its search score and the game's result (`data.rs` holds the file format),
//! `tinh tune` fits a game's evaluation weights to them (Texel's method, `texel.rs`) and
//! writes the weights as a weights text (the `EvalFile` option loads it) and as the Rust
//! source of the compiled-in set (`source.rs`).

pub mod data;
pub mod datagen;
pub mod source;
pub mod texel;

/// The command line this process was started with, for the record a tuned set keeps.
pub fn command_line() -> String {
    let mut words: Vec<String> = std::env::args().collect();
    if let Some(first) = words.first_mut()
        && let Some(name) = std::path::Path::new(first.as_str()).file_name()
    {
        *first = name.to_string_lossy().into_owned();
    }
    words.join(" ")
}
