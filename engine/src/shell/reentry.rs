//! Shell re-entry: programs that run text as a shell script.
//!
//! In: the words after a shell's name (`bash -c '…'`, `sh x.sh`, `bash` reading a pipe or a
//! heredoc), after `eval`, `ssh HOST`, `source`/`.`, and what the command may read a script
//! from ([`Feed`]). Out: the script analysed one level deeper with the re-entry added to the
//! wrapper path (`bash -c`, `sh <<stdin`, `source x.sh`), or the line marked unsure when the
//! script is only known at run time (`curl … | sh`, `source <(…)`, `eval "$X"`).

use super::Arg;
use super::context::{Feed, Input, LineAnalysis, PROCSUB};
use super::wrappers::skip_options;

/// A shell's options that take a value.
const SHELL_VALUED: &[&str] = &["-o", "+o", "-O", "+O", "--rcfile", "--init-file"];

/// `ssh`'s options that take a value.
const SSH_VALUED: &[&str] = &[
    "-p", "-i", "-l", "-o", "-F", "-J", "-L", "-R", "-D", "-b", "-c", "-E", "-e", "-I", "-m", "-O",
    "-Q", "-S", "-W", "-w", "-B",
];

/// Paths that name the reading process's own standard input.
const STDIN_PATHS: &[&str] = &["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"];

impl LineAnalysis {
    /// `bash [-opts] -c 'script'`, `bash FILE`, `bash` reading standard input (a pipe, a
    /// heredoc, `bash -s`).
    pub(super) fn shell(
        &mut self,
        b: &str,
        rest: &[Arg],
        via: &[String],
        depth: usize,
        mut input: Feed,
    ) {
        let mut i = 0;
        let mut script: Option<String> = None;
        let mut reads_file = false;
        let mut reads_stdin = false;
        while let Some(a) = rest.get(i) {
            let t = a.text.as_str();
            if t == "--" {
                i += 1;
                continue;
            }
            if t.starts_with('-') && t.len() > 1 && !t.starts_with("--") && t.contains('c') {
                script = rest.get(i + 1).map(|s| {
                    if s.dynamic {
                        self.mark_unsure(format!("`{b} -c` runs text known only at run time"));
                    }
                    s.text.clone()
                });
                break;
            }
            if SHELL_VALUED.contains(&t) {
                i += 2;
                continue;
            }
            if t.starts_with('-') || t.starts_with('+') {
                // `bash -s -- args`: the script is read from stdin.
                reads_stdin |= t.starts_with('-') && !t.starts_with("--") && t.contains('s');
                i += 1;
                continue;
            }
            reads_file = true;
            break;
        }
        if let Some(s) = script {
            let mut nested = via.to_vec();
            nested.push(format!("{b} -c"));
            self.script(&s, &nested, depth + 1);
        } else if reads_stdin || !reads_file {
            if let Some(inp) = input.stdin.take() {
                self.run_input(b, inp, via, depth);
            }
        } else if let Some(f) = rest.get(i) {
            self.run_file(b, f, &mut input, via, depth);
        }
    }

    /// `eval WORDS`: the words joined by spaces are a script.
    pub(super) fn eval(&mut self, rest: &[Arg], via: &[String], depth: usize) {
        let s: Vec<&str> = rest.iter().map(|a| a.text.as_str()).collect();
        let mut nested = via.to_vec();
        nested.push("eval".into());
        // `eval "$(pyenv init -)"`: what it runs only defines the environment.
        if !rest.is_empty() && rest.iter().all(|a| self.generated.contains(&a.text)) {
            return;
        }
        if rest.iter().any(|a| a.dynamic) {
            self.mark_unsure("`eval` of text that is only known at run time".into());
        }
        self.script(&s.join(" "), &nested, depth + 1);
    }

    /// `ssh [options] HOST COMMAND…`: the command words joined by spaces are a script run in
    /// the remote user's home folder.
    pub(super) fn ssh(&mut self, rest: &[Arg], via: &[String], depth: usize) {
        let after = skip_options(rest, SSH_VALUED, false);
        if let Some((host, cmd)) = after.split_first()
            && !cmd.is_empty()
        {
            let s: Vec<&str> = cmd.iter().map(|a| a.text.as_str()).collect();
            let mut nested = via.to_vec();
            nested.push(format!("ssh {}", host.text));
            // The remote command runs in the remote user's home folder: nothing it
            // touches is inside this project.
            let saved = self.cwd.replace("~".to_string());
            self.script(&s.join(" "), &nested, depth + 1);
            self.cwd = saved;
        }
    }

    /// `source FILE`, `. FILE`.
    pub(super) fn source(
        &mut self,
        who: &str,
        rest: &[Arg],
        via: &[String],
        depth: usize,
        mut input: Feed,
    ) {
        let file = match rest.first() {
            Some(a) if a.text == "--" => rest.get(1),
            other => other,
        };
        if let Some(f) = file {
            self.run_file(who, f, &mut input, via, depth);
        }
    }

    /// A shell (or `source`) reading its script from standard input.
    fn run_input(&mut self, who: &str, input: Input, via: &[String], depth: usize) {
        match input {
            Input::Text(t) => {
                let mut v = via.to_vec();
                v.push(format!("{who} <<stdin"));
                self.script(&t, &v, depth + 1);
            }
            Input::Unknown(from) | Input::Listing { from, .. } => {
                self.mark_unsure(format!("`{who}` runs text from {from}"))
            }
            // The part known now is judged; the rest cannot be.
            Input::Partial { known, from } => {
                let mut v = via.to_vec();
                v.push(format!("{who} <<stdin"));
                self.script(&known, &v, depth + 1);
                self.mark_unsure(format!("`{who}` runs text from {from}"));
            }
        }
    }

    /// `bash FILE`, `source FILE`: a script written earlier on the line is analysed, a
    /// process substitution or standard input is read as such.
    fn run_file(&mut self, who: &str, f: &Arg, input: &mut Feed, via: &[String], depth: usize) {
        if f.dynamic && f.text == PROCSUB {
            let who = format!("{who} {PROCSUB}");
            match input.procsub.take() {
                Some(Input::Text(t)) => {
                    let mut v = via.to_vec();
                    v.push(who);
                    self.script(&t, &v, depth + 1);
                }
                _ => self.mark_unsure(format!(
                    "`{who}` runs text from a process substitution that is only known at run time"
                )),
            }
            return;
        }
        if !f.dynamic && STDIN_PATHS.contains(&f.text.as_str()) {
            match input.stdin.take() {
                Some(inp) => self.run_input(who, inp, via, depth),
                None => self.mark_unsure(format!(
                    "`{who} {}` runs text from standard input that is only known at run time",
                    f.text
                )),
            }
            return;
        }
        // A script written earlier on this line: analyse what was written.
        match self.written.get(&f.text).cloned() {
            Some(Some(content)) => {
                let mut v = via.to_vec();
                v.push(format!("{who} {}", f.text));
                self.script(&content, &v, depth + 1);
            }
            Some(None) => self.mark_unsure(format!(
                "`{who} {}` runs a script written earlier on the same line whose content is not visible",
                f.text
            )),
            None => {}
        }
    }
}
