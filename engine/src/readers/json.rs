//! One recorded JSON value parsed the way the hook parses a payload.

use serde_json::Value;

/// Parse one JSON value as the hook does ([`crate::event::parse_json`]): a lone UTF-16
/// surrogate escape (`"\udc90"`, written by hosts on Windows) reads as U+FFFD instead of
/// failing the record. The strict parser's error when it still does not parse.
pub(crate) fn json_value(bytes: &[u8]) -> Result<Value, serde_json::Error> {
    serde_json::from_slice::<Value>(bytes).or_else(|e| {
        if e.is_eof() {
            return Err(e);
        }
        crate::event::parse_json(bytes).map_err(|_| e)
    })
}
