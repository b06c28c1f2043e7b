//! AppleScript and JavaScript for Automation through `osascript`, end to end: the lines
//! `do shell script` (`doShellScript`) runs and the `via` they carry, the escalation of
//! `with administrator privileges`, and what cannot be resolved. Written from osascript(1),
//! the AppleScript Language Guide and Technical Note TN2065.

use crate::effects::What;
use crate::effects::test_support::{bash_effects, check_table};

/// The commands a Bash line runs inside other text (with their `via`), its grants and what
/// it cannot resolve, one compact line each.
fn nested(line: &str) -> Vec<String> {
    bash_effects(line)
        .list
        .iter()
        .filter_map(|e| match &e.what {
            What::Run(c) if !e.route.via.is_empty() => Some(format!(
                "run {} via {}",
                c.display_words(),
                e.route.via.join(", ")
            )),
            What::Grant(g) => Some(format!("grant {}", g.detail)),
            What::Unsure(why) => Some(format!("unsure {why}")),
            _ => None,
        })
        .collect()
}

/// `do shell script` lines: literals with their escapes, `&`, `quoted form of`, names set
/// once, several `-e` lines as one script, comments, standard input.
#[test]
fn do_shell_script_lines_are_run_by_the_shell() {
    let cases: &[(&str, &[&str])] = &[
        (
            r#"osascript -e 'do shell script "rm -rf ~"'"#,
            &["run rm -rf ~ via osascript -e, do shell script"],
        ),
        (
            r#"osascript -e 'do shell script "echo \"a b\" > " & quoted form of "/tmp/it" & space & "2>&1"'"#,
            &["run echo a b via osascript -e, do shell script"],
        ),
        (
            r#"osascript -e 'set d to "/tmp/build"' -e 'do shell script "rm -rf " & quoted form of d'"#,
            &["run rm -rf /tmp/build via osascript -e, do shell script"],
        ),
        (
            "osascript -e '-- do shell script \"rm -rf ~\"' -e '(* do shell script \"id\" *) beep'",
            &[],
        ),
        (
            "osascript <<'EOF'\nproperty cmd : \"make test\"\ndo shell script cmd\nEOF",
            &["run make test via osascript <<stdin, do shell script"],
        ),
        (
            "osascript -l JavaScript /dev/stdin <<'EOF'\nconst app = Application.currentApplication();\napp.includeStandardAdditions = true;\napp.doShellScript('npm test');\nEOF",
            &["run npm test via osascript -l JavaScript <<stdin, doShellScript"],
        ),
        (
            r#"osascript -e 'tell application "Terminal" to do script "npm run dev"'"#,
            &["run npm run dev via osascript -e, do script (terminal)"],
        ),
        (
            r#"osascript -e 'run script "do shell script \"ls\""'"#,
            &["run ls via osascript -e, run script, do shell script"],
        ),
        // `linefeed` ends a line of the shell's text.
        (
            r#"osascript -e 'do shell script "make" & linefeed & "rm -rf dist"'"#,
            &[
                "run make via osascript -e, do shell script",
                "run rm -rf dist via osascript -e, do shell script",
            ],
        ),
        // Everyday AppleScript runs no command.
        (
            r#"osascript -e 'display notification "done" with title "build"'"#,
            &[],
        ),
        (
            r#"osascript -e 'tell application "Safari" to activate'"#,
            &[],
        ),
        // Terminal's `do script` only where the code speaks to Terminal.
        (
            r#"osascript -e 'tell application "Script Editor" to do script "x"'"#,
            &[],
        ),
    ];
    check_table(cases, nested);
}

/// `with administrator privileges` (or an administrator's `user name`) runs the line as
/// root: its `via` names the escalation, and a bare shell there is a root shell.
#[test]
fn administrator_privileges_run_the_line_as_root() {
    let cases: &[(&str, &[&str])] = &[
        (
            r#"osascript -e 'do shell script "bash" with administrator privileges'"#,
            &[
                "run bash via osascript -e, do shell script with administrator privileges",
                "grant an interactive shell through osascript -e, do shell script with administrator privileges (`bash`)",
            ],
        ),
        (
            r#"osascript -e 'do shell script "ls /var/root" user name "admin" password "pw" with administrator privileges'"#,
            &["run ls /var/root via osascript -e, do shell script with administrator privileges"],
        ),
        (
            r#"osascript -e 'do shell script "make" without administrator privileges'"#,
            &["run make via osascript -e, do shell script"],
        ),
        (
            r#"osascript -l JavaScript -e 'var app = Application.currentApplication(); app.includeStandardAdditions = true; app.doShellScript("id -u", {administratorPrivileges: true})'"#,
            &[
                "run id -u via osascript -l JavaScript -e, do shell script with administrator privileges",
            ],
        ),
        (
            r#"osascript -l JavaScript -e 'Application.currentApplication().doShellScript("git status")'"#,
            &["run git status via osascript -l JavaScript -e, doShellScript"],
        ),
        (
            r#"osascript -l JavaScript -e 'ObjC.import("stdlib"); $.system("rm -rf ~")'"#,
            &["run rm -rf ~ via osascript -l JavaScript -e, $.system"],
        ),
    ];
    check_table(cases, nested);
}

/// A command the code computes at run time, a name set twice, and code the shell itself only
/// knows at run time are unsure, with the call named.
#[test]
fn unresolved_commands_are_unsure() {
    let cases: &[(&str, &[&str])] = &[
        (
            r#"osascript -e 'do shell script "rm -rf " & POSIX path of (path to home folder)'"#,
            &["unsure `do shell script` with a command known only at run time"],
        ),
        (
            r#"osascript -e 'set c to "ls"' -e 'set c to c & " -la"' -e 'do shell script c'"#,
            &["unsure `do shell script` with a command known only at run time"],
        ),
        (
            r#"osascript -l JavaScript -e 'app.doShellScript(cmd)'"#,
            &["unsure `doShellScript` with a command known only at run time"],
        ),
        (
            r#"osascript -e "$SCRIPT""#,
            &["unsure `osascript -e` runs AppleScript code that is only known at run time"],
        ),
        (
            r#"osascript -e "do shell script \"$CMD\"""#,
            &[
                "run $CMD via osascript -e, do shell script",
                "unsure the command word `$CMD` comes from an expansion that cannot be resolved before it runs",
                "unsure `osascript -e` runs AppleScript code that is only known at run time",
            ],
        ),
        // A message the shell fills in runs nothing.
        (r#"osascript -e "display notification \"$MSG\"""#, &[]),
    ];
    check_table(cases, nested);
}
