//! The UCI-style protocol loop on stdin/stdout. (Skeleton: being written.)

pub mod analyse;

use crate::variant::Variant;

pub fn run_loop(_variant: Variant) {
    log::error!("protocol loop not written yet");
}
