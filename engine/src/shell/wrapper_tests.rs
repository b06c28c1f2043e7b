//! Unit tests of the shell analyser: the wrappers of the program table (`sudo`, `timeout`,
//! `setsid`, `ip netns exec`, `wsl`, package runners) unwrapped to the command they run.

use super::tests::cmds;

#[test]
fn table_wrappers_unwrap_their_command() {
    // Options with a value, a leading operand, environment words after `--`.
    assert_eq!(
        cmds("timeout -k 1 5 FOO=1 rm x"),
        vec!["timeout -k 1 5 FOO=1 rm x", "rm x (via timeout)"]
    );
    assert_eq!(
        cmds("sudo -- FOO=1 rm x"),
        vec!["sudo -- FOO=1 rm x", "rm x (via sudo)"]
    );
    assert_eq!(
        cmds("ionice -c 3 rm x"),
        vec!["ionice -c 3 rm x", "rm x (via ionice)"]
    );
    assert_eq!(
        cmds("/usr/bin/sudo rm x"),
        vec!["/usr/bin/sudo rm x", "rm x (via sudo)"]
    );
    // Wrappers inside wrappers, each adding itself to the path.
    assert_eq!(
        cmds("sudo timeout 5 nice -n 1 env A=1 rm -rf /").last(),
        Some(&"rm -rf / (via sudo, timeout, nice, env)".to_string())
    );
    // `wsl` (Windows Subsystem for Linux) runs its command in the distribution, a lone
    // word as a shell line; its own verbs run nothing.
    assert_eq!(
        cmds("wsl -d Ubuntu -u root --cd ~ -- rm -rf x"),
        vec![
            "wsl -d Ubuntu -u root --cd ~ -- rm -rf x",
            "rm -rf x (via wsl)"
        ]
    );
    assert_eq!(
        cmds("wsl.exe -e rm x"),
        vec!["wsl.exe -e rm x", "rm x (via wsl)"]
    );
    assert_eq!(
        cmds("wsl 'rm -rf x'"),
        vec!["wsl rm -rf x", "rm -rf x (via wsl)"]
    );
    assert_eq!(cmds("wsl --list --verbose"), vec!["wsl --list --verbose"]);
    // `setsid -f` forks: its options take no value (they did in a row shared with `time`).
    assert_eq!(
        cmds("setsid -f rm -rf x"),
        vec!["setsid -f rm -rf x", "rm -rf x (via setsid)"]
    );
    // (GNU time's program; bash's `time` keyword takes only `-p`.)
    assert_eq!(
        cmds("/usr/bin/time -f %e -o t.txt rm x"),
        vec!["/usr/bin/time -f %e -o t.txt rm x", "rm x (via time)"]
    );
    // `ip netns exec NAME CMD`, after ip's global options; `-all` takes no name.
    assert_eq!(
        cmds("ip -n red netns exec blue rm -rf x"),
        vec![
            "ip -n red netns exec blue rm -rf x",
            "rm -rf x (via ip netns exec)"
        ]
    );
    assert_eq!(
        cmds("ip -all netns exec rm -rf x"),
        vec![
            "ip -all netns exec rm -rf x",
            "rm -rf x (via ip netns exec)"
        ]
    );
    assert_eq!(cmds("ip netns list"), vec!["ip netns list"]);
    assert_eq!(cmds("ip -n blue link show"), vec!["ip -n blue link show"]);
    assert_eq!(cmds("wsl --shutdown"), vec!["wsl --shutdown"]);
    // A query runs nothing; a lone word for `watch` is a shell line.
    assert_eq!(cmds("command -v rm"), vec!["command -v rm"]);
    assert_eq!(
        cmds("watch -n 1 'rm -rf /'"),
        vec!["watch -n 1 rm -rf /", "rm -rf / (via watch)"]
    );
    assert_eq!(cmds("timeout 5"), vec!["timeout 5"]);
    // `env` reads its own words: `-S` splits a line, `-` is an option.
    assert_eq!(
        cmds("env -S 'rm -rf /'"),
        vec!["env -S rm -rf /", "rm -rf / (via env -S)"]
    );
    assert_eq!(cmds("env - rm x"), vec!["env - rm x", "rm x (via env)"]);
    // `pnpm exec` / `yarn exec` run a command the project installed, after their options.
    assert_eq!(
        cmds("pnpm -C web exec playwright test e2e/a.spec.ts"),
        vec![
            "pnpm -C web exec playwright test e2e/a.spec.ts",
            "playwright test e2e/a.spec.ts (via pnpm exec)"
        ]
    );
    assert_eq!(
        cmds("yarn exec rm -rf dist"),
        vec!["yarn exec rm -rf dist", "rm -rf dist (via yarn exec)"]
    );
    // Package runners run the package's command: the spec without scope, version or extras.
    for (line, inner) in [
        ("npx -y rimraf@5 dist", "rimraf dist (via npx)"),
        ("npx --yes -p typescript tsc -v", "tsc -v (via npx)"),
        (
            "bunx @biomejs/biome@1.9 check .",
            "biome check . (via bunx)",
        ),
        (
            "pnpm dlx create-vite@latest app",
            "create-vite app (via pnpm dlx)",
        ),
        ("npm exec -- rm -rf out", "rm -rf out (via npm exec)"),
        ("npm x --package=cowsay cowsay hi", "cowsay hi (via npm x)"),
        ("bun x prettier --check .", "prettier --check . (via bun x)"),
        (
            "uvx --python 3.12 ruff==0.6.0 check .",
            "ruff check . (via uvx)",
        ),
        (
            "uvx --from httpie http GET https://x.example",
            "http GET https://x.example (via uvx)",
        ),
        ("uv run --with rich pytest -q", "pytest -q (via uv run)"),
        ("uv tool run black@24.1 .", "black . (via uv tool run)"),
        (
            "pipx run --spec httpie[socks] http :8000",
            "http :8000 (via pipx run)",
        ),
        ("shx rm -rf build", "rm -rf build (via shx)"),
    ] {
        assert_eq!(
            cmds(line),
            vec![line.to_string(), inner.to_string()],
            "{line}"
        );
    }
    // `-c` is the runner's own shell line (its program row's, judged with the effects), not
    // a package.
    assert_eq!(cmds("npx -c 'eslint .'"), vec!["npx -c eslint ."]);
    assert_eq!(cmds("npx -y $TOOL build"), vec!["npx -y $TOOL build"]);
    assert_eq!(cmds("npm install"), vec!["npm install"]);
    assert_eq!(cmds("uv sync"), vec!["uv sync"]);
}
