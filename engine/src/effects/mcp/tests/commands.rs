//! MCP tools that run commands or code: shell lines, nested shells, interpreters, tools named after programs, searches and processes.

use super::*;

#[test]
fn nested_shell_commands() {
    let t = "mcp__automation__do_task";
    let cat = |arg: &str| {
        vec![(
            "cat".to_string(),
            vec!["~/.aws/credentials".to_string()],
            Route {
                command: Some("cat ~/.aws/credentials".into()),
                ..route(t, arg)
            },
        )]
    };
    let f = fx(
        t,
        json!({"opts": {"run": {"command": "cat ~/.aws/credentials"}}}),
    );
    assert_eq!(runs(&f), cat("/opts/run/command"));
    let f = fx(
        t,
        json!({"payload": "{\"opts\":{\"run\":{\"command\":\"cat ~/.aws/credentials\"}}}"}),
    );
    assert_eq!(runs(&f), cat("/payload/opts/run/command"));
    // JSON in a string in a string.
    let inner = json!({"command": "cat ~/.aws/credentials"}).to_string();
    let outer = json!({"step": inner}).to_string();
    let f = fx(t, json!({"job": outer}));
    assert_eq!(runs(&f), cat("/job/step/command"));
}

#[test]
fn shell_tools() {
    let t = "mcp__desktop-commander__execute_command";
    let f = fx(
        t,
        json!({"command": "cat ~/.aws/credentials", "timeout_ms": 5000}),
    );
    assert_eq!(
        runs(&f),
        vec![(
            "cat".to_string(),
            vec!["~/.aws/credentials".to_string()],
            Route {
                command: Some("cat ~/.aws/credentials".into()),
                ..route(t, "/command")
            }
        )]
    );
    assert!(f.list.iter().all(|e| e.route.lens == Some(Lens::Mcp)));

    let t = "mcp__desktop-commander__interact_with_process";
    let f = fx(t, json!({"pid": 4242, "input": "rm -rf build"}));
    assert_eq!(
        runs(&f),
        vec![(
            "rm".to_string(),
            vec!["-rf".to_string(), "build".to_string()],
            Route {
                command: Some("rm -rf build".into()),
                ..route(t, "/input")
            }
        )]
    );

    // `command` + `args`: one argv, run without a shell.
    let t = "mcp__runner__start_process";
    let f = fx(t, json!({"command": "git", "args": ["push", "--force"]}));
    assert_eq!(
        runs(&f),
        vec![(
            "git".to_string(),
            vec!["push".to_string(), "--force".to_string()],
            Route {
                command: Some("git push --force".into()),
                ..route(t, "/command")
            }
        )]
    );
    // An argv array under `command`.
    let f = fx(t, json!({"command": ["ls", "-la", "/root"]}));
    assert_eq!(
        runs(&f),
        vec![(
            "ls".to_string(),
            vec!["-la".to_string(), "/root".to_string()],
            Route {
                command: Some("ls -la /root".into()),
                ..route(t, "/command")
            }
        )]
    );

    let t = "mcp__desktop-commander__kill_process";
    assert_eq!(
        fx(t, json!({"pid": 1})).list,
        list(&[(
            What::Signal {
                targets: vec![Arg {
                    text: "1".into(),
                    dynamic: false
                }],
                signal: None,
                by_pattern: false
            },
            route(t, "/pid")
        )])
    );
}

#[test]
fn tool_names_and_words() {
    assert_eq!(split_tool("mcp__fs__read_file"), ("fs", "read_file"));
    assert_eq!(split_tool("MCP:read_file"), ("", "read_file"));
    assert_eq!(
        split_tool("mcp:github:create_issue"),
        ("github", "create_issue")
    );
    assert_eq!(
        words("context7CompatibleLibraryID"),
        vec!["context7", "compatible", "library", "id"]
    );
    assert_eq!(words("file_path"), vec!["file", "path"]);
    assert_eq!(words("HTTPHeaders"), vec!["http", "headers"]);
    assert_eq!(key_kind("context7CompatibleLibraryID"), KeyKind::NotPath);
    assert_eq!(key_kind("notebook_path"), KeyKind::Path(Role::Any));
    assert_eq!(key_kind("fileName"), KeyKind::Path(Role::Any));
    assert_eq!(key_kind("destination"), KeyKind::WeakPath(Role::Dest));
    assert_eq!(key_kind("output_path"), KeyKind::Path(Role::Dest));
    assert_eq!(key_kind("workingDirectory"), KeyKind::Path(Role::Context));
    assert_eq!(key_kind("profile"), KeyKind::Generic);
    assert_eq!(key_kind("jsonPath"), KeyKind::Generic);
    assert_eq!(verb_of(&words("search_and_replace")), Verb::Write);
    assert_eq!(verb_of(&words("directory_tree")), Verb::Read);
    assert_eq!(verb_of(&words("browser_file_upload")), Verb::Upload);
}

#[test]
fn code_run_by_an_interpreter() {
    let t = "mcp__ide__executeCode";
    assert_eq!(
        fx(t, json!({"code": "import os; os.system('id')"})).list,
        list(&[(What::Unsure("runs code".into()), route(t, "/code"))])
    );
    let t = "mcp__e2b__run_code";
    assert_eq!(
        fx(t, json!({"code": "print(1)", "language": "Python"})).list,
        list(&[(What::Unsure("runs python code".into()), route(t, "/code"))])
    );
    let t = "mcp__sandbox__python_repl";
    assert_eq!(
        fx(t, json!({"script": "open('/etc/passwd').read()"})).list,
        list(&[(What::Unsure("runs python code".into()), route(t, "/script"))])
    );
    let t = "mcp__e2b__run_code";
    let f = fx(t, json!({"code": "cat ~/.netrc", "language": "bash"}));
    assert_eq!(
        runs(&f),
        vec![(
            "cat".to_string(),
            vec!["~/.netrc".to_string()],
            Route {
                command: Some("cat ~/.netrc".into()),
                ..route(t, "/code")
            }
        )]
    );
    // Reading code is not running it.
    assert!(
        fx("mcp__figma__get_code", json!({"nodeId": "1:2"}))
            .list
            .is_empty()
    );
}

#[test]
fn a_tool_named_after_a_program_takes_its_arguments() {
    let t = "mcp__kubernetes__kubectl";
    let runs = |command: &str| -> Vec<String> {
        fx(t, json!({ "command": command }))
            .list
            .iter()
            .filter_map(|e| match &e.what {
                What::Run(c) => Some(c.display_words()),
                _ => None,
            })
            .collect()
    };
    assert_eq!(
        runs("delete namespace prod"),
        ["kubectl delete namespace prod"]
    );
    // Already spelled out: kept as it is.
    assert_eq!(runs("kubectl get pods"), ["kubectl get pods"]);
    assert_eq!(program_of_tool("mcp__x__run_git"), Some("git"));
    assert_eq!(program_of_tool("mcp__x__execute_command"), None);
}

#[test]
fn searches_and_processes() {
    // A content search reads below its path; its pattern is text, not a file name.
    let t = "mcp__desktop-commander__search_code";
    assert_eq!(
        fx(t, json!({"path": "/repo", "pattern": "password"})).list,
        list(&[(read("/repo", Some(CWD)), route(t, "/path"))])
    );
    assert_eq!(
        fx(
            t,
            json!({"path": "/repo", "pattern": "key", "filePattern": "*.pem"})
        )
        .list,
        list(&[
            (read("/repo", Some(CWD)), route(t, "/path")),
            (read("/repo/**/*.pem", Some(CWD)), route(t, "/filePattern")),
        ])
    );
    // `process` the verb is not a process tool.
    assert!(
        fx(
            "mcp__nlp__process_text",
            json!({"text": "rm -rf / is a bad idea"})
        )
        .list
        .is_empty()
    );
    // A container network's single-label host is a destination too.
    let t = "mcp__redis__connect";
    let f = fx(t, json!({"host": "cache", "port": 6379}));
    assert_eq!(
        sends(&f)[0]
            .0
            .endpoint
            .as_ref()
            .map(|e| (e.host.as_str(), e.class())),
        Some(("cache", IpClass::Private))
    );
}
