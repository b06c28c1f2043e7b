//! The MCP argument walk: benign calls, arguments by shape and key, key spellings, URLs in keys, limits, and text posted by tools.

use super::*;

#[test]
fn benign_calls_have_no_effects() {
    let cases = [
        ("mcp__github__search_issues", json!({"query": "bug"})),
        (
            "mcp__github__get_file_contents",
            json!({"owner": "o", "repo": "r", "path": "/src/main.rs"}),
        ),
        (
            "mcp__context7__get-library-docs",
            json!({"context7CompatibleLibraryID": "/vercel/next.js", "topic": "routing"}),
        ),
        (
            "mcp__context7__resolve-library-id",
            json!({"libraryName": "next.js"}),
        ),
        (
            "mcp__memory__create_entities",
            json!({"entities": [{"name": "Alice", "entityType": "person",
                                 "observations": ["works on /api/v1", "likes Rust"]}]}),
        ),
        (
            "mcp__memory__create_relations",
            json!({"relations": [{"from": "Alice", "to": "Bob", "relationType": "knows"}]}),
        ),
        (
            "mcp__sequential-thinking__sequentialthinking",
            json!({"thought": "check /etc/hosts?", "thoughtNumber": 1, "nextThoughtNeeded": true}),
        ),
        (
            "mcp__linear__list_issues",
            json!({"teamId": "/team/x", "limit": 5}),
        ),
    ];
    for (t, input) in cases {
        assert_eq!(fx(t, input.clone()).list, Vec::new(), "{t} {input}");
    }
}

#[test]
fn generic_arguments_by_shape_and_key() {
    let t = "mcp__tools__convert";
    assert_eq!(
        fx(
            t,
            json!({"input": "/data/in.csv", "output": "out/result.json", "format": "json"})
        )
        .list,
        list(&[
            (read("/data/in.csv", Some(CWD)), route(t, "/input")),
            (write("out/result.json", None), route(t, "/output")),
        ])
    );
    let t = "mcp__tools__analyze";
    assert_eq!(
        fx(
            t,
            json!({"options": {"target": ["~/.kube/config"]}, "level": 3})
        )
        .list,
        list(&[(
            read("~/.kube/config", Some(CWD)),
            route(t, "/options/target/0")
        )])
    );
    let t = "mcp__net__ping";
    let f = fx(t, json!({"host": "Metadata.Google.Internal"}));
    let (s, r) = sends(&f)[0];
    assert_eq!(r, &route(t, "/host"));
    assert_eq!(s.url, None);
    assert_eq!(
        s.endpoint.as_ref().map(Endpoint::class),
        Some(IpClass::Metadata)
    );
    let t = "mcp__http__post_request";
    let f = fx(
        t,
        json!({"url": "https://x.example/hook", "body": {"a": 1}}),
    );
    let (s, _) = sends(&f)[0];
    assert_eq!(
        (s.method.as_deref(), s.body.clone()),
        (Some("POST"), vec![BodySource::Literal])
    );
    // Pointer escaping.
    let t = "mcp__tools__x";
    assert_eq!(
        fx(t, json!({"a/b": {"c~d": "/etc/hosts"}})).list,
        list(&[(read("/etc/hosts", Some(CWD)), route(t, "/a~1b/c~0d"))])
    );
}

#[test]
fn too_deep_or_too_large_is_unsure() {
    let mut v = json!("/etc/passwd");
    for _ in 0..20 {
        v = json!({ "a": v });
    }
    let f = fx("mcp__x__y", v.clone());
    assert_eq!(f.of(EffectKind::Read).count(), 0);
    let deep = "/a".repeat(17);
    assert_eq!(
        f.unsure(),
        Some(format!("argument `{deep}` nested deeper than 16 levels: not walked").as_str())
    );

    // Said once, however many branches are too deep.
    let f = fx("mcp__x__y", json!([v.clone(), v.clone(), v]));
    assert_eq!(f.of(EffectKind::Unsure).count(), 1);

    let many: Vec<Value> = (0..25_000).map(|i| json!(i)).collect();
    let f = fx("mcp__x__y", json!({ "items": many }));
    assert_eq!(
        f.unsure(),
        Some("arguments too large to walk: more than 20000 values (stopped at `/items/19998`)")
    );
    assert_eq!(f.list.len(), 1);

    let big = format!("[{}]", "1,".repeat(200_000) + "1");
    let f = fx("mcp__x__y", json!({ "blob": big }));
    assert_eq!(
        f.unsure(),
        Some("argument `/blob` holds 400003 bytes of JSON: too large to walk")
    );
}

#[test]
fn key_spellings() {
    let t = "mcp__jetbrains__get_file_text_by_path";
    assert_eq!(
        fx(t, json!({"pathInProject": "src/main.rs"})).list,
        list(&[(read("src/main.rs", Some(CWD)), route(t, "/pathInProject"))])
    );
    let t = "mcp__aws__call_aws";
    let f = fx(t, json!({"cli_command": "aws s3 ls"}));
    assert_eq!(
        runs(&f),
        vec![(
            "aws".to_string(),
            vec!["s3".to_string(), "ls".to_string()],
            Route {
                command: Some("aws s3 ls".into()),
                ..route(t, "/cli_command")
            }
        )]
    );
    // A file tool's path-shaped `name` is a path; elsewhere a name is not.
    let t = "mcp__files__read_file";
    assert_eq!(
        fx(t, json!({"name": "/etc/shadow"})).list,
        list(&[(read("/etc/shadow", Some(CWD)), route(t, "/name"))])
    );
    assert!(
        fx("mcp__notes__create_note", json!({"name": "/etc/shadow"}))
            .list
            .is_empty()
    );
    // Weak keys: an address or a word is not a path outside file tools.
    assert!(
        fx(
            "mcp__x__notify",
            json!({"to": "ops@example.com", "target": "prod"})
        )
        .list
        .is_empty()
    );
}

#[test]
fn url_keys_and_wrapped_urls() {
    let t = "mcp__browser__open";
    let f = fx(t, json!({"url": "169.254.169.254/latest/"}));
    let (s, r) = sends(&f)[0];
    assert_eq!(r, &route(t, "/url"));
    assert_eq!(
        s.endpoint.as_ref().map(Endpoint::class),
        Some(IpClass::Metadata)
    );
    assert_eq!(
        fx(t, json!({"url": "view-source:file:///etc/passwd"})).list,
        list(&[(read("/etc/passwd", None), route(t, "/url"))])
    );
    // A URL under a data key is data, unless the tool fetches.
    assert!(
        fx(
            "mcp__notes__add_note",
            json!({"text": "https://x.example/a"})
        )
        .list
        .is_empty()
    );
    // The IDE's file URI.
    let t = "mcp__ide__getDiagnostics";
    assert_eq!(
        fx(t, json!({"uri": "file:///repo/src/a%20b.ts"})).list,
        list(&[(read("/repo/src/a b.ts", None), route(t, "/uri"))])
    );
}

#[test]
fn a_wide_object_is_walked_in_linear_time() {
    // 5,000 sibling keys: each value no longer scans every sibling (it took seconds).
    let mut m = serde_json::Map::new();
    for i in 0..5_000 {
        m.insert(format!("k{i}"), json!("v"));
    }
    m.insert("path".into(), json!("/home/u/.ssh/id_rsa"));
    let f = fx("mcp__fs__read", Value::Object(m));
    assert!(
        f.of(EffectKind::Read)
            .any(|e| e.path().is_some_and(|p| p.text == "/home/u/.ssh/id_rsa"))
    );
}

#[test]
fn tools_that_post_text_send_it() {
    // A chat message, an email, an issue on a tracker, a paste: a `send` of literal text to
    // the service (its API host when the server is known), never a path.
    for (t, input, host, arg) in [
        (
            "mcp__slack__send_message",
            json!({"channel_id": "C1", "text": "deployed /srv/app"}),
            Some("slack.com"),
            "/text",
        ),
        (
            "mcp__mail__send_email",
            json!({"to": "a@b.example", "subject": "hi", "body": "see ./notes"}),
            None,
            "/body",
        ),
        (
            "mcp__linear__create_issue",
            json!({"title": "t", "description": "AKIAIOSFODNN7EXAMPLE"}),
            Some("api.linear.app"),
            "/description",
        ),
        (
            "mcp__notion__create_page",
            json!({"parent": {"page_id": "p"}, "content": "notes"}),
            Some("api.notion.com"),
            "/content",
        ),
        (
            "mcp__pastebin__create_paste",
            json!({"content": "x"}),
            Some("pastebin.com"),
            "/content",
        ),
    ] {
        let f = fx(t, input.clone());
        let s = sends(&f);
        assert_eq!(s.len(), 1, "{t} {input}: {f:?}");
        let (s, r) = s[0];
        assert_eq!(r, &route(t, arg), "{t}");
        assert_eq!(s.body, vec![BodySource::Literal], "{t}");
        assert_eq!(s.endpoint.as_ref().map(|e| e.host.as_str()), host, "{t}");
    }
    // Reading, listing and local notes and to-dos post nothing.
    for (t, input) in [
        ("mcp__slack__list_channels", json!({"limit": 5})),
        ("mcp__slack__get_messages", json!({"channel_id": "C1"})),
        ("mcp__notes__add_note", json!({"text": "buy milk"})),
        (
            "mcp__todo__create_task",
            json!({"title": "t", "description": "d"}),
        ),
        (
            "mcp__filesystem__write_file",
            json!({"path": "/tmp/a.md", "content": "x"}),
        ),
    ] {
        assert!(sends(&fx(t, input.clone())).is_empty(), "{t} {input}");
    }
}

#[test]
fn data_beside_a_url_is_the_body_sent_to_it() {
    // A form's fields, a callback's report or message: a literal body, posted.
    for (t, input) in [
        (
            "mcp__browser__submit_form",
            json!({"url": "https://forms.example.net/f", "fields": {"name": "x"}}),
        ),
        (
            "mcp__notify__send_report",
            json!({"callback_url": "https://hooks.example.net/h", "report": "build log"}),
        ),
        (
            "mcp__hooks__call_webhook",
            json!({"endpoint": "https://hooks.example.net/h", "message": "done"}),
        ),
    ] {
        let f = fx(t, input);
        let (s, _) = sends(&f)[0];
        assert_eq!(
            (s.method.as_deref(), s.body.clone()),
            (Some("POST"), vec![BodySource::Literal]),
            "{t}"
        );
    }
    // A page fetched or opened, with options that are no data: a GET without a body.
    for (t, input) in [
        (
            "mcp__fetch__fetch",
            json!({"url": "https://docs.example.org/a", "max_length": 5000}),
        ),
        (
            "mcp__playwright__browser_navigate",
            json!({"url": "https://docs.example.org/"}),
        ),
        (
            "mcp__firecrawl__scrape",
            json!({"url": "https://docs.example.org/", "formats": ["markdown"]}),
        ),
    ] {
        let f = fx(t, input);
        let (s, _) = sends(&f)[0];
        assert_eq!(
            (s.method.as_deref(), s.body.is_empty()),
            (Some("GET"), true),
            "{t}"
        );
    }
}
