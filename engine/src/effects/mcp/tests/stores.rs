//! MCP tools over data stores and services: SQL statements, git and GitHub, remote stores, hosts and URIs.

use super::*;

fn sql(verb: &str, destructive: bool, stmt: &str) -> (String, Vec<String>) {
    let mut args = vec![verb.to_string()];
    if destructive {
        args.push("--destructive".into());
    }
    args.push(stmt.into());
    ("sql".into(), args)
}

fn sqls(f: &Effects) -> Vec<(String, Vec<String>)> {
    runs(f).into_iter().map(|(p, a, _)| (p, a)).collect()
}

#[test]
fn sql_statements_are_runs_of_sql() {
    let t = "mcp__postgres__query";
    assert_eq!(
        sqls(&fx(
            t,
            json!({"sql": "SELECT * FROM users; DROP TABLE users"})
        )),
        vec![
            sql("select", false, "SELECT * FROM users"),
            sql("drop", true, "DROP TABLE users"),
        ]
    );
    let f = fx(t, json!({"sql": "select 1"}));
    assert_eq!(runs(&f)[0].2, route(t, "/sql"));
    let t = "mcp__sqlite__write_query";
    assert_eq!(
        sqls(&fx(t, json!({"query": "DELETE FROM sessions"}))),
        vec![sql("delete", true, "DELETE FROM sessions")]
    );
    assert_eq!(
        sqls(&fx(
            t,
            json!({"query": "delete from sessions where id = 3"})
        )),
        vec![sql("delete", false, "delete from sessions where id = 3")]
    );
    assert_eq!(
        sqls(&fx(t, json!({"query": "UPDATE users SET admin = true"}))),
        vec![sql("update", true, "UPDATE users SET admin = true")]
    );
    assert_eq!(
        sqls(&fx(t, json!({"query": "TRUNCATE audit_log"}))),
        vec![sql("truncate", true, "TRUNCATE audit_log")]
    );
    // `;` and keywords inside literals and comments do not count.
    assert_eq!(
        sqls(&fx(
            "mcp__db__execute",
            json!({"sql": "INSERT INTO notes VALUES ('a; DROP TABLE x') -- drop;"})
        )),
        vec![sql(
            "insert",
            false,
            "INSERT INTO notes VALUES ('a; DROP TABLE x') -- drop;"
        )]
    );
    assert_eq!(
        sqls(&fx(
            "mcp__supabase__run_sql",
            json!({"statement": "alter table t drop column secret"})
        )),
        vec![sql("alter", true, "alter table t drop column secret")]
    );
    // `query` outside a database tool is SQL only with a statement's shape.
    assert!(
        fx("mcp__docs__search", json!({"query": "update readme"}))
            .list
            .is_empty()
    );
    assert!(
        fx("mcp__docs__search", json!({"query": "drop shadow css"}))
            .list
            .is_empty()
    );
}

#[test]
fn git_and_github() {
    let t = "mcp__git__git_diff";
    assert_eq!(
        fx(t, json!({"repo_path": "/repo", "target": "origin/main"})).list,
        list(&[(read("/repo", Some(CWD)), route(t, "/repo_path"))])
    );
    let t = "mcp__git__git_add";
    assert_eq!(
        fx(t, json!({"repo_path": "/repo", "files": ["src/a.rs"]})).list,
        list(&[
            (read("/repo", Some(CWD)), route(t, "/repo_path")),
            (read("src/a.rs", Some("/repo")), route(t, "/files/0")),
        ])
    );

    let t = "mcp__github__create_or_update_file";
    let f = fx(
        t,
        json!({"owner": "o", "repo": "r", "path": ".github/workflows/x.yml",
               "content": "on: push", "message": "ci", "branch": "main"}),
    );
    let [(s, r)] = sends(&f)[..] else {
        panic!("one send: {f:?}")
    };
    assert_eq!(f.list.len(), 1);
    assert_eq!(r, &route(t, "/content"));
    assert_eq!(s.method.as_deref(), Some("PUT"));
    assert_eq!(s.body, vec![BodySource::Literal]);
    let e = s
        .endpoint
        .as_ref()
        .map(|e| (e.host.as_str(), e.path.as_str()));
    assert_eq!(
        e,
        Some((
            "api.github.com",
            "/repos/o/r/contents/.github/workflows/x.yml"
        ))
    );
    assert!(
        s.endpoint
            .as_ref()
            .is_some_and(|e| e.host_matches("github.com"))
    );

    let t = "mcp__github__push_files";
    let f = fx(
        t,
        json!({"owner": "o", "repo": "r", "branch": "main", "message": "m",
               "files": [{"path": "/etc/passwd", "content": "x"}]}),
    );
    assert_eq!(f.list.len(), 1);
    let (s, r) = sends(&f)[0];
    assert_eq!(
        (s.method.as_deref(), s.body.clone(), r.argument.as_str()),
        (Some("POST"), vec![BodySource::Literal], "/files")
    );
}

#[test]
fn remote_stores_hosts_and_uris() {
    // A local file put to a remote store is read and sent.
    let t = "mcp__s3__put_object";
    let creds = PathRef::new("~/.aws/credentials", Some(CWD));
    assert_eq!(
        fx(
            t,
            json!({"bucket": "b", "key": "k", "localPath": "~/.aws/credentials"})
        )
        .list,
        list(&[
            (What::Read(creds.clone()), route(t, "/localPath")),
            (
                What::Send(Send {
                    url: None,
                    endpoint: None,
                    method: Some("POST".into()),
                    body: vec![BodySource::File(creds)],
                    dynamic: true,
                    runs_response: false,
                }),
                route(t, "/localPath")
            ),
        ])
    );
    // A host key: no protocol, the port beside it.
    let t = "mcp__ssh__exec";
    let f = fx(
        t,
        json!({"host": "10.0.0.5", "port": 2222, "command": "uptime"}),
    );
    let (s, r) = sends(&f)[0];
    assert_eq!(r, &route(t, "/host"));
    let e = s.endpoint.clone();
    assert_eq!(
        e.map(|e| (e.class(), e.scheme, e.host, e.port, e.path)),
        Some((
            IpClass::Private,
            String::new(),
            "10.0.0.5".to_string(),
            Some(2222),
            String::new()
        ))
    );
    // A URI key holding a local path.
    let t = "mcp__vscode__open_file";
    assert_eq!(
        fx(t, json!({"uri": "/repo/src/x.ts", "line": 3})).list,
        list(&[(read("/repo/src/x.ts", Some(CWD)), route(t, "/uri"))])
    );
    // Standard input fed to a command is data; `cwd` is read and is the command's directory.
    let t = "mcp__mcp-server-commands__run_command";
    let f = fx(
        t,
        json!({"command": "ls", "stdin": "rm -rf /", "cwd": "/tmp"}),
    );
    assert_eq!(
        runs(&f),
        vec![(
            "ls".to_string(),
            Vec::new(),
            Route {
                command: Some("ls".into()),
                ..route(t, "/command")
            }
        )]
    );
    assert_eq!(
        f.of(EffectKind::Read).cloned().collect::<Vec<_>>(),
        list(&[(read("/tmp", Some(CWD)), route(t, "/cwd"))])
    );
}
