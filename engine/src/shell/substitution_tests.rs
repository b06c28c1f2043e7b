//! Unit tests of the shell analyser: substitutions that name a path (`$(command -v x)`,
//! `$(ls dir | head -n 1)`), while-read loops over a listing, and quotes never closed.

use super::tests::{cmds, unsure};
use super::*;

#[test]
fn locator_substitutions_are_written_out_and_stand_for_a_path_of_their_kind() {
    assert_eq!(
        cmds("strings $(command -v codex)"),
        vec!["command -v codex (via $(…))", "strings $(command -v codex)"]
    );
    // Any other substitution stays `$(…)`.
    assert_eq!(cmds("cat $(echo x)"), vec!["echo x (via $(…))", "cat $(…)"]);
    use super::locators::representative;
    assert_eq!(
        representative("$(command -v codex)", None).as_deref(),
        Some("/usr/bin/codex")
    );
    assert_eq!(
        representative("$(go env GOPATH)/bin", None).as_deref(),
        Some("~/go/bin")
    );
    assert_eq!(
        representative("$(git rev-parse --show-toplevel)/build", Some("/w/p")).as_deref(),
        Some("/w/p/build")
    );
    assert_eq!(
        representative("$(git rev-parse --show-toplevel)/x", None),
        None
    );
    // Another unknown part, or no locator: not a path of a known kind.
    assert_eq!(representative("$(go env GOPATH)/$X", None), None);
    assert_eq!(representative("$(…)/bin", None), None);
    assert_eq!(representative("$(command -v ../../x)", None), None);
    assert_eq!(representative("plain", None), None);
    // A variable set to one locator substitution expands to it; set again, to the new value.
    assert_eq!(
        cmds("T=$(mktemp -d); tar xzf r.tgz -C \"$T\"; rm -rf \"$T\""),
        vec![
            "mktemp -d (via $(…))",
            "tar xzf r.tgz -C $(mktemp -d)",
            "rm -rf $(mktemp -d)"
        ]
    );
    assert_eq!(
        cmds("T=$(mktemp); T=~/.ssh; cat $T/id_rsa; read T; cat $T"),
        vec!["mktemp (via $(…))", "cat ~/.ssh/id_rsa", "read T", "cat $T"]
    );
    // The folder of a command word is a locator: the program is known by its name.
    let a = BrushAnalyzer.analyze("$(npm bin)/eslint .", Some("/p"));
    assert_eq!(a.unsure, None);
    assert_eq!(
        a.commands.last().map(SimpleCommand::basename),
        Some("eslint")
    );
}

#[test]
fn listing_substitutions_stand_for_a_glob_of_what_they_can_print() {
    use super::locators::{listing_pattern, representative};
    // Written out, like a locator, with each element of the pipe.
    assert_eq!(
        cmds("sed -n 1,200p tests/$(ls tests | head -n 1)"),
        vec![
            "ls tests (via $(…))",
            "head -n 1 (via $(…))",
            "sed -n 1,200p tests/$(ls tests | head -n 1)"
        ]
    );
    assert_eq!(
        representative("tests/$(ls tests | head -n 1)", None).as_deref(),
        Some("tests/*")
    );
    assert_eq!(
        representative("/lib/modules/$(uname -r)/build", None).as_deref(),
        Some("/lib/modules/*/build")
    );
    assert_eq!(
        representative("$(ls -t ~/logs/run-*.log | head -1)", None).as_deref(),
        Some("~/logs/run-*.log")
    );
    let p = |pipeline: &[&[&str]]| {
        listing_pattern(&pipeline.iter().map(|e| e.to_vec()).collect::<Vec<_>>())
    };
    assert_eq!(
        p(&[
            &["ls", "-1t", "logs/"],
            &["sort", "-r"],
            &["tail", "-n", "2"]
        ])
        .as_deref(),
        Some("*")
    );
    assert_eq!(
        p(&[&["ls"], &["grep", "-v", "-e", "lock"]]).as_deref(),
        Some("*")
    );
    assert_eq!(p(&[&["id", "-un"]]).as_deref(), Some("*"));
    // Dot files (`-a`), long lines (`-l`), a folder given with a slash that `ls` could
    // print as itself, a filter that rewrites lines: none.
    assert_eq!(p(&[&["ls", "-a"]]), None);
    assert_eq!(p(&[&["ls", "-l", "tests"]]), None);
    assert_eq!(p(&[&["ls", "~/.ssh"]]), None);
    assert_eq!(p(&[&["ls", ".config"]]), None);
    assert_eq!(p(&[&["ls", "~/*/id_rsa"]]).as_deref(), Some("~/*/id_rsa"));
    assert_eq!(p(&[&["ls", "a", "b"]]), None);
    assert_eq!(p(&[&["ls", "tests"], &["sed", "s/x/y/"]]), None);
    assert_eq!(p(&[&["ls", "tests"], &["grep", "-o", "x"]]), None);
    assert_eq!(p(&[&["ls", "tests"], &["grep", "x", "other.txt"]]), None);
    assert_eq!(p(&[&["uname", "-o"]]), None);
    assert_eq!(p(&[&["uname", "-a"]]), None);
    // `git ls-files PATHSPEC`: tracked project files the pathspec matches, at any depth.
    assert_eq!(
        p(&[&["git", "ls-files", "*.py"]]).as_deref(),
        Some("**/*.py")
    );
    assert_eq!(
        p(&[&["git", "ls-files", "--", "src/"]]).as_deref(),
        Some("src/**/*")
    );
    assert_eq!(
        p(&[&["git", "ls-files", "src/*.ts"], &["head", "-5"]]).as_deref(),
        Some("src/*.ts")
    );
    // Every tracked file (start-up files of the project too), a dot file, untracked files,
    // several pathspecs: unknown.
    assert_eq!(p(&[&["git", "ls-files"]]), None);
    assert_eq!(p(&[&["git", "ls-files", ".env*"]]), None);
    assert_eq!(p(&[&["git", "ls-files", "-o", "*.py"]]), None);
    assert_eq!(p(&[&["git", "ls-files", "a", "b"]]), None);
    // A variable set to one keeps it; a listing is no program name.
    assert_eq!(
        cmds("L=$(ls -t logs/*.log | head -1); grep x \"$L\""),
        vec![
            "ls -t logs/*.log (via $(…))",
            "head -1 (via $(…))",
            "grep x $(ls -t logs/*.log | head -1)"
        ]
    );
    assert!(unsure("$(ls bin | head -1) run").is_some());
    // Not piped (`;`), a redirection into a file, an unknown operand: stays `$(…)`.
    assert_eq!(
        cmds("cat $(ls a; ls b)").last().map(String::as_str),
        Some("cat $(…)")
    );
    assert_eq!(
        cmds("cat $(ls a > x | head -1)").last().map(String::as_str),
        Some("cat $(…)")
    );
    assert_eq!(
        cmds("cat $(ls $D | head -1)").last().map(String::as_str),
        Some("cat $(…)")
    );
}

#[test]
fn a_while_read_loop_over_a_listing_binds_its_variable_to_the_listed_names() {
    assert_eq!(
        cmds("find test/ -name '*.ts' | while IFS= read -r f; do grep -l x \"$f\"; done"),
        vec![
            "find test/ -name *.ts",
            "read -r f",
            "grep -l x test/…/*.ts"
        ]
    );
    // Unbound after the loop; a loop reading two names, or fed anything else: unknown.
    assert_eq!(
        cmds("find . -name '*.py' | while read f; do :; done; cat \"$f\"")
            .last()
            .map(String::as_str),
        Some("cat $f")
    );
    assert_eq!(
        cmds("find . -name '*.py' | while read a b; do cat \"$a\"; done")
            .last()
            .map(String::as_str),
        Some("cat $a")
    );
    assert_eq!(
        cmds("cat list.txt | while read f; do cat \"$f\"; done")
            .last()
            .map(String::as_str),
        Some("cat $f")
    );
}

#[test]
fn a_quote_never_closed_runs_nothing_from_its_line_on() {
    // Bash fails on the command with "unexpected EOF while looking for matching `\"'" before
    // running any of it; the complete lines before it have run.
    let rg = "rg -n \"\\b(pixi|pixi\\.toml)\\b|\\[project\\]|torch -n || true";
    assert_eq!(unsure(rg), None);
    assert!(cmds(rg).is_empty());
    assert!(cmds("rm -rf ~; echo \"x").is_empty());
    assert_eq!(cmds("rm -rf ~/x\necho 'it"), vec!["rm -rf ~/x"]);
    assert_eq!(cmds("cd /tmp && ls\nrm -rf ~ \"x"), vec!["cd /tmp", "ls"]);
    // The quote's line continues an unfinished command: the line is read as before.
    assert!(unsure("ls |\ngrep \"x").is_some());
    // What the scan does not model keeps the line undecidable.
    assert!(unsure("echo \"$(rm -rf ~) x").is_some());
    assert!(unsure("echo `rm -rf ~` \"x").is_some());
    use super::parse::unterminated_quote;
    assert_eq!(unterminated_quote("echo \"a\\\"b"), Some(5));
    assert_eq!(unterminated_quote("echo 'a\"b' \"c\" d"), None);
    assert_eq!(unterminated_quote("echo x # it's a comment"), None);
    assert_eq!(unterminated_quote("echo it\\'s"), None);
    assert_eq!(unterminated_quote("echo $'a\\'b"), None);
    assert_eq!(unterminated_quote("cat <<EOF\nit's\nEOF"), None);
}

#[test]
fn a_parenthesis_inside_a_word_runs_nothing_from_its_line_on() {
    // `ls app/(auth)/login`: bash reports "syntax error near unexpected token `('" when it
    // reads the line and runs none of it; the complete lines before it have run.
    assert_eq!(unsure("ls apps/front/app/(protected)"), None);
    assert!(cmds("ls apps/front/app/(protected)").is_empty());
    assert!(cmds("cd /p/frontend && sed -n '1,260p' src/app/(app)/[id]/page.tsx").is_empty());
    assert_eq!(
        cmds("rm -rf ~/x\ncat app/(auth)/login/page.tsx"),
        vec!["rm -rf ~/x"]
    );
    // A Windows host runs the line through PowerShell: still undecided.
    assert!(
        BrushAnalyzer
            .analyze("ls app/(auth)/x", Some("C:\\Users\\me\\app"))
            .unsure
            .is_some()
    );
    use super::parse::paren_in_word;
    assert_eq!(paren_in_word("ls app/(app)/page.tsx"), Some(7));
    // Quoted, or one of the places a `(` may follow a word character, it is no error.
    assert_eq!(paren_in_word("ls 'app/(app)/page.tsx' \"b/(c)\""), None);
    assert_eq!(
        paren_in_word("$t = (Get-Date).ToUniversalTime().ToString('o')"),
        None
    );
    assert_eq!(
        paren_in_word("f() { ls; }; a=(1 2); ls @(x|y); diff <(a) >(b)"),
        None
    );
    assert_eq!(paren_in_word("echo $(date) x # a(b)"), None);
    assert_eq!(paren_in_word("[[ $x =~ ^a(b)$ ]]"), None);
}

#[test]
fn a_syntax_error_leaves_the_lines_before_it_judged_and_its_line_undecided() {
    // Bash reads a script one complete command at a time: the lines before the one it fails
    // on have run. They are walked; the rest stays undecided.
    let broken = "rm -rf ~/x\necho )";
    assert_eq!(cmds(broken), vec!["rm -rf ~/x"]);
    assert_eq!(
        unsure(broken).as_deref(),
        Some("the shell line does not parse (syntax error at line 2 col 6)")
    );
    // One broken line: nothing runs, the line is undecided as before.
    assert!(cmds("echo \"done\" )").is_empty());
    assert_eq!(
        unsure("echo \"done\" )").as_deref(),
        Some("the shell line does not parse (syntax error at line 1 col 13)")
    );
    // A command left unfinished on the broken line runs none of it.
    assert!(cmds("rm -rf ~/x &&\necho )").is_empty());
    // The broken line inside an `if` the lines before open: the commands before the `if`.
    assert_eq!(
        cmds("cd /tmp && ls\nif true; then\necho )\nfi"),
        vec!["cd /tmp", "ls"]
    );
    // A group over several lines is one complete command once closed.
    assert_eq!(
        cmds("{ rm -rf ~/x\n}\nls\necho )"),
        vec!["rm -rf ~/x", "ls"]
    );
    // A line continued by a backslash is not cut: `ls` alone never runs here.
    assert_eq!(cmds("echo a\nls \\\n-la &&\necho )"), vec!["echo a"]);
    // Far from the error (the broken line deep inside a long `if`): found by halves.
    let long = format!("rm -rf ~/x\nif true; then\n{}echo )\nfi", ":\n".repeat(40));
    assert_eq!(cmds(&long), vec!["rm -rf ~/x"]);
    assert_eq!(
        unsure(&long).as_deref(),
        Some("the shell line does not parse (syntax error at line 43 col 6)")
    );
}
