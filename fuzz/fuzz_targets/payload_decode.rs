//! Fuzz hook payload decoding: whatever a host (or an attacker controlling stdin) writes,
//! `HookEvent::from_slice` returns an event or an error, never panics; a decoded event
//! re-encodes to JSON and its seam is known.
#![no_main]

use libfuzzer_sys::fuzz_target;
use seamguard_engine::HookEvent;

fuzz_target!(|data: &[u8]| {
    if let Ok(ev) = HookEvent::from_slice(data) {
        let _ = ev.seam();
        let v = ev.to_value();
        let _ = HookEvent::from_value(&v);
    }
});
