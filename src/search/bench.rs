//! `tinh bench`: fixed positions of all three games searched to a fixed depth.

pub fn run(_depth: Option<u32>) -> Result<(), String> {
    Err("bench is not written yet".into())
}
