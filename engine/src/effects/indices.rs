//! The search-index HTTP API (Elasticsearch, OpenSearch): which `DELETE` requests drop whole
//! indices on a live data server, on this machine too (`curl -X DELETE localhost:9200/_all`,
//! `curl -XDELETE http://127.0.0.1:9200/logs-*`).
//!
//! In: the requests the lenses found. Out: a [`What::Destroy`] beside each `DELETE` that
//! names every index (`_all`), several (`logs-*`, `a,b`), or one index of a server on the
//! search engines' port (9200, 9201: `DELETE :9200/orders`). A `DELETE` of one document
//! (`/orders/_doc/3`) or of one item of an application's API (`localhost:8080/api/items/3`)
//! is routine development: no destroy. The development exemption of a `DELETE` to this
//! machine does not hold for an index: the index is the data, wherever the server runs, as
//! `redis-cli FLUSHALL` is judged wherever the server is.

use super::model::{Effects, What};
use crate::shell::Arg;

/// The search engines' HTTP ports (Elasticsearch and OpenSearch listen on 9200; 9201 is the
/// next node of a local cluster).
const SEARCH_PORTS: &[u16] = &[9200, 9201];

/// What a `DELETE` to `port` with URL path `path` drops, if it drops whole indices.
pub(crate) fn dropped_indices(port: Option<u16>, path: &str) -> Option<&'static str> {
    let path = path.split(['?', '#']).next().unwrap_or_default();
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let first = *segments.first()?;
    if first == "_all" || first == "*" {
        return Some("every index of the server");
    }
    if first.starts_with('_') && first != "_data_stream" {
        // `_snapshot`, `_security`, `_cluster`: other APIs.
        return None;
    }
    if first.contains('*') || first.contains(',') {
        return Some("every index the pattern names");
    }
    let search_port = port.is_some_and(|p| SEARCH_PORTS.contains(&p));
    match segments.as_slice() {
        [_] if search_port => Some("the index"),
        ["_data_stream", _] if search_port => Some("the data stream"),
        _ => None,
    }
}

/// Add a destroy beside each `DELETE` request that drops whole indices.
pub(crate) fn index_deletes(fx: &mut Effects) {
    let mut found = Vec::new();
    for e in &fx.list {
        let What::Send(s) = &e.what else { continue };
        if s.method.as_deref() != Some("DELETE") || s.dynamic {
            continue;
        }
        let Some(endpoint) = &s.endpoint else {
            continue;
        };
        if !matches!(endpoint.scheme.as_str(), "http" | "https") {
            continue;
        }
        if let Some(object) = dropped_indices(endpoint.port, &endpoint.path) {
            found.push((
                What::Destroy {
                    cli: "search index API".to_string(),
                    service: object.to_string(),
                    operation: "DELETE".to_string(),
                    targets: vec![Arg {
                        text: endpoint.path.clone(),
                        dynamic: false,
                    }],
                },
                e.route.clone(),
            ));
        }
    }
    for (w, r) in found {
        fx.push(w, r);
    }
}

#[cfg(test)]
mod tests {
    use super::dropped_indices;

    #[test]
    fn deletes_that_drop_whole_indices() {
        assert_eq!(
            dropped_indices(Some(9200), "/_all"),
            Some("every index of the server")
        );
        assert_eq!(
            dropped_indices(Some(443), "/logs-*"),
            Some("every index the pattern names")
        );
        assert_eq!(
            dropped_indices(Some(9200), "/a,b?pretty"),
            Some("every index the pattern names")
        );
        assert_eq!(dropped_indices(Some(9200), "/orders"), Some("the index"));
        assert_eq!(
            dropped_indices(Some(9201), "/_data_stream/logs"),
            Some("the data stream")
        );
    }

    #[test]
    fn routine_deletes_drop_no_index() {
        for (port, path) in [
            (Some(8080), "/api/items/3"),
            (Some(3000), "/users"),
            (Some(9200), "/orders/_doc/3"),
            (Some(9200), "/_snapshot/repo/snap-1"),
            (Some(9200), "/"),
            (Some(9200), "/_search/scroll"),
        ] {
            assert_eq!(dropped_indices(port, path), None, "{port:?} {path}");
        }
    }
}
