//! The web-tool lens: `WebFetch` (a `send` to its URL) and `WebSearch` (a `send` to the
//! search provider, whose destination the call does not name).
//!
//! In: the tool name and its `tool_input`. Out: `send` effects, the URL parsed by
//! [`super::url::parse`].

use serde_json::Value;

use super::model::{Effects, Lens, Route};

/// Whether `tool` is a web tool.
pub(crate) fn handles(tool: &str) -> bool {
    matches!(tool, "WebFetch" | "WebSearch" | "web_fetch" | "web_search")
}

/// The effects of one web-tool call.
pub(crate) fn lens(tool: &str, input: &Value, fx: &mut Effects) {
    let route = |argument: String| Route {
        tool: tool.to_string(),
        lens: Some(Lens::Web),
        argument,
        command: None,
        via: Vec::new(),
    };
    if let Some(url) = input.get("url").and_then(Value::as_str) {
        super::url::push_url(
            url,
            Some("GET".to_string()),
            Vec::new(),
            route("/url".into()),
            fx,
        );
    }
    // A fetch of several URLs (Gemini CLI `web_fetch`, read by `host_tools`).
    for (i, url) in input
        .get("urls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        if let Some(u) = url.as_str() {
            super::url::push_url(
                u,
                Some("GET".to_string()),
                Vec::new(),
                route(format!("/urls/{i}")),
                fx,
            );
        }
    }
}
