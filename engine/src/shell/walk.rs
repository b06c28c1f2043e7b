//! The walk over brush-parser's syntax tree.
//!
//! In: a parsed program (from [`LineAnalysis::script`]). Out: every simple command it contains, handed
//! to the program knowledge ([`LineAnalysis::peel_with_input`]) in the order bash would run them: each
//! element of every pipeline and `&&`/`||` list, subshell, brace group, `if`/`while`/`case`
//! body, function body, coprocess and process substitution. On the way the walk tracks what
//! later commands depend on: a pipe's literal producer (`echo … | sh`), heredocs and
//! here-strings, files written by redirections, assignments and `export`, `cd` scoped to
//! subshells, and a `for` loop's variable bound to each word of a static list.

use brush_parser::ast;

use super::carriers::assignment;
use super::context::{Feed, Input, LineAnalysis, PROCSUB};
use super::emulate::{echo_output, printf_output};
use super::{Arg, MAX_LOOP_WORDS, Redirect, RedirectMode, SimpleCommand};

impl LineAnalysis {
    /// Walk every `&&`/`||` list of a compound list (`a; b & c`).
    pub(super) fn compound_list(&mut self, list: &ast::CompoundList, via: &[String], depth: usize) {
        for item in &list.0 {
            self.and_or(&item.0, via, depth);
        }
    }

    /// Walk every pipeline of an `&&`/`||` list (both branches may run).
    fn and_or(&mut self, l: &ast::AndOrList, via: &[String], depth: usize) {
        self.pipeline(&l.first, via, depth);
        for a in &l.additional {
            match a {
                ast::AndOr::And(p) | ast::AndOr::Or(p) => self.pipeline(p, via, depth),
            }
        }
    }

    /// Walk a pipeline's elements, each fed what the one before writes.
    fn pipeline(&mut self, p: &ast::Pipeline, via: &[String], depth: usize) {
        let n = p.seq.len();
        // Every element but a lone one runs in a subshell: `cd` there does not persist.
        let saved = if n > 1 { Some(self.cwd.clone()) } else { None };
        let mut stdin: Option<Input> = None;
        // The first command recorded for the element before, with this wrapper path.
        let mut producer: Option<usize> = None;
        let first_of = |out: &[SimpleCommand], from: usize| {
            out.get(from..)
                .and_then(|o| o.iter().position(|c| c.via == via))
                .map(|k| from + k)
        };
        for (i, c) in p.seq.iter().enumerate() {
            let before = self.out.len();
            let pipes_before = self.pipes.len();
            self.command(c, via, depth, stdin.take());
            let this = first_of(&self.out, before);
            if let (Some(from), Some(to)) = (producer, this) {
                self.pipes.push((from, to));
            }
            producer = this;
            // `echo 'rm -rf /' | sh`: a literal producer piped into a shell.
            if i + 1 < n {
                stdin = Some(match c {
                    ast::Command::Simple(_) => self.producer(before, via),
                    // `(crontab -l; echo '* * * * * job') | crontab -`: what the group's
                    // commands write, in order.
                    ast::Command::Compound(
                        ast::CompoundCommand::Subshell(_) | ast::CompoundCommand::BraceGroup(_),
                        None,
                    ) => self.group_output(before, pipes_before, via),
                    _ => Input::Unknown(
                        "a pipe that is only known at run time (a compound command)".into(),
                    ),
                });
            }
        }
        if let Some(s) = saved {
            self.cwd = s;
        }
    }

    /// What the simple command recorded from `from` on writes (for `… | sh`, `> x.sh`,
    /// `<(…)`): the text of a literal `echo` / `printf` or of `cat` fed a here-document,
    /// anything else unknown. The command
    /// is the first one recorded with the same wrapper path (substitutions inside its words
    /// are recorded before it, with a longer one).
    fn producer(&self, from: usize, via: &[String]) -> Input {
        match self
            .out
            .get(from..)
            .and_then(|o| o.iter().find(|c| c.via == via))
        {
            Some(c) => output_of(c),
            None => Input::Unknown(
                "a pipe that is only known at run time (a command that writes nothing known)"
                    .into(),
            ),
        }
    }

    /// What a subshell or brace group recorded from `from` on writes to a pipe: the output of
    /// each of its commands run through `via` that writes to its standard output (not into an
    /// inner pipe, recorded from `pipes_from` on, nor into a file), in order. All known: the
    /// text; some known: [`Input::Partial`]; none known: the first unknown one.
    fn group_output(&self, from: usize, pipes_from: usize, via: &[String]) -> Input {
        let inner_producers: Vec<usize> = self
            .pipes
            .get(pipes_from..)
            .unwrap_or(&[])
            .iter()
            .map(|(p, _)| *p)
            .collect();
        let mut known = String::new();
        let mut any_known = false;
        let mut unknown: Option<Input> = None;
        for (k, c) in self.out.iter().enumerate().skip(from) {
            if c.via != via || inner_producers.contains(&k) || writes_stdout_elsewhere(c) {
                continue;
            }
            match output_of(c) {
                Input::Text(t) => {
                    any_known = true;
                    known.push_str(&t);
                }
                other => {
                    unknown.get_or_insert(other);
                }
            }
        }
        match (unknown, any_known) {
            (None, _) => Input::Text(known),
            (Some(Input::Unknown(from) | Input::Listing { from, .. }), true) => {
                Input::Partial { known, from }
            }
            (Some(u), _) => u,
        }
    }

    /// Analyse a process substitution; what it writes when it is one literal `echo` /
    /// `printf`.
    fn procsub(&mut self, sub: &ast::SubshellCommand, via: &[String], depth: usize) -> Input {
        let mut v = via.to_vec();
        v.push(PROCSUB.to_string());
        let before = self.out.len();
        let saved = self.cwd.clone();
        self.compound_list(&sub.list, &v, depth + 1);
        self.cwd = saved;
        let unknown =
            || Input::Unknown("a process substitution that is only known at run time".into());
        let single = match sub.list.0.as_slice() {
            [item] if item.0.additional.is_empty() => {
                matches!(item.0.first.seq.as_slice(), [ast::Command::Simple(_)])
            }
            _ => false,
        };
        if !single {
            return unknown();
        }
        if self.only_generator(before, &v) {
            // `source <(fnm env)`: environment definitions only.
            return Input::Text(String::new());
        }
        match self.producer(before, &v) {
            Input::Text(t) => Input::Text(t),
            Input::Unknown(_) | Input::Listing { .. } | Input::Partial { .. } => unknown(),
        }
    }

    /// Walk one command; `stdin` is what a pipe feeds it.
    fn command(&mut self, c: &ast::Command, via: &[String], depth: usize, stdin: Option<Input>) {
        match c {
            ast::Command::Simple(s) => self.simple(s, via, depth, stdin),
            ast::Command::Compound(cc, redirects) => {
                let before = self.out.len();
                // `find test -name '*.ts' | while read -r f; do grep x "$f"; done`: the
                // variable holds one listed name per pass, the way `-exec` sees `{}`.
                if let (
                    ast::CompoundCommand::WhileClause(w),
                    Some(Input::Listing { found, .. }),
                    None,
                ) = (cc, &stdin, redirects)
                    && !found.dynamic
                    && let Some(name) = read_loop_variable(w)
                {
                    self.compound_list(&w.0, via, depth);
                    self.vars.insert(name.clone(), found.text.clone());
                    self.compound_list(&w.1.list, via, depth);
                    self.vars.remove(&name);
                    return;
                }
                self.compound(cc, via, depth);
                if let Some(r) = redirects {
                    self.compound_redirects(before, r, via, depth);
                }
            }
            ast::Command::Function(f) => {
                // The body runs only when called; analysing it is the safe reading.
                let before = self.out.len();
                self.compound(&f.body.0, via, depth);
                if let Some(r) = &f.body.1 {
                    self.compound_redirects(before, r, via, depth);
                }
            }
            ast::Command::ExtendedTest(_, _) => {}
        }
    }

    /// `while read l; do …; done < .env`, `{ …; } > out`, `f() { …; } > out`: the
    /// redirections of a compound command apply to every command of its body (recorded from
    /// `before` on); a body that records no command keeps them on a command with no program,
    /// the way a bare `> file` is recorded.
    fn compound_redirects(
        &mut self,
        before: usize,
        r: &ast::RedirectList,
        via: &[String],
        depth: usize,
    ) {
        let mut sink = Vec::new();
        for io in &r.0 {
            self.redirect(io, via, depth, &mut sink, None);
        }
        for t in &sink {
            // What the body writes is not visible: a later `bash out` is unsure.
            if matches!(
                t.mode,
                RedirectMode::Write | RedirectMode::Append | RedirectMode::ReadWrite
            ) && !t.target.dynamic
            {
                self.written.insert(t.target.text.clone(), None);
            }
        }
        match self.out.get_mut(before..) {
            Some(body) if !body.is_empty() => {
                for c in body {
                    c.redirects.extend(super::redirect_files(&sink));
                    c.redirections.extend(sink.iter().cloned());
                }
            }
            _ if !sink.is_empty() => self.record_redirections(sink, via),
            _ => {}
        }
    }

    /// Walk every body of a compound command.
    fn compound(&mut self, c: &ast::CompoundCommand, via: &[String], depth: usize) {
        match c {
            ast::CompoundCommand::BraceGroup(b) => self.compound_list(&b.list, via, depth),
            ast::CompoundCommand::Subshell(s) => {
                let saved = self.cwd.clone();
                self.compound_list(&s.list, via, depth);
                self.cwd = saved;
            }
            ast::CompoundCommand::ForClause(f) => self.for_clause(f, via, depth),
            ast::CompoundCommand::CaseClause(cc) => {
                for item in &cc.cases {
                    if let Some(l) = &item.cmd {
                        self.compound_list(l, via, depth);
                    }
                }
            }
            ast::CompoundCommand::IfClause(i) => {
                self.compound_list(&i.condition, via, depth);
                self.compound_list(&i.then, via, depth);
                for e in i.elses.iter().flatten() {
                    if let Some(c) = &e.condition {
                        self.compound_list(c, via, depth);
                    }
                    self.compound_list(&e.body, via, depth);
                }
            }
            ast::CompoundCommand::WhileClause(w) | ast::CompoundCommand::UntilClause(w) => {
                self.compound_list(&w.0, via, depth);
                self.compound_list(&w.1.list, via, depth);
            }
            ast::CompoundCommand::Coprocess(cp) => self.command(&cp.body, via, depth, None),
            ast::CompoundCommand::Arithmetic(a) => {
                // `( ( rm -rf / ) )` can be read as `((…))`; bash runs it as nested
                // subshells. Reading the text as commands too is the safe over-approximation.
                let saved = self.cwd.clone();
                let before = self.unsure.clone();
                self.script(&a.expr.value, via, depth + 1);
                self.unsure = before;
                self.cwd = saved;
            }
            ast::CompoundCommand::ArithmeticForClause(f) => {
                self.compound_list(&f.body.list, via, depth)
            }
        }
    }

    /// `for NAME in WORDS; do BODY; done`: with every word static (a glob is static: path
    /// tests read it), the body is analysed once per word with NAME bound to it, within
    /// [`MAX_LOOP_WORDS`] and the line's
    /// [`MAX_LOOP_UNROLL_BYTES`](super::MAX_LOOP_UNROLL_BYTES); the words are the fields
    /// the shell makes (brace expansion, values split at IFS). Otherwise (an expansion only
    /// known at run time, `for NAME; do` over the positional parameters) the body is analysed
    /// once with NAME only known at run time. After the loop NAME is unknown (the body may `break`).
    fn for_clause(&mut self, f: &ast::ForClauseCommand, via: &[String], depth: usize) {
        let name = f.variable_name.clone();
        let mut bound: Option<Vec<String>> = f.values.as_ref().map(|_| Vec::new());
        for w in f.values.iter().flatten() {
            for a in self.fields(w, via, depth).0 {
                if a.dynamic {
                    bound = None;
                }
                if let Some(b) = &mut bound {
                    b.push(a.text);
                }
            }
        }
        let body_len = f.body.loc.length().max(1);
        let bound = bound.filter(|b| {
            !b.is_empty()
                && b.len() <= MAX_LOOP_WORDS
                && body_len.saturating_mul(b.len() - 1) <= self.loop_budget
        });
        match bound {
            Some(values) => {
                self.loop_budget -= body_len.saturating_mul(values.len() - 1);
                for v in values {
                    self.vars.insert(name.clone(), v);
                    self.compound_list(&f.body.list, via, depth);
                }
            }
            None => {
                self.vars.remove(&name);
                self.compound_list(&f.body.list, via, depth);
            }
        }
        self.vars.remove(&name);
        self.located.remove(&name);
    }

    /// Read one redirection: the file it opens, with its direction, goes to `sink` (a
    /// descriptor duplicated from one opened on a file earlier — `exec 4< key; cat <&4` —
    /// counts as that file); what it feeds to standard input (a heredoc, a here-string, a
    /// file written earlier on the line, `< <(…)`) goes to `stdin` when given.
    fn redirect(
        &mut self,
        io: &ast::IoRedirect,
        via: &[String],
        depth: usize,
        sink: &mut Vec<Redirect>,
        stdin: Option<&mut Option<Input>>,
    ) {
        match io {
            ast::IoRedirect::File(fd, kind, target) => {
                let reads_stdin =
                    matches!(kind, ast::IoFileRedirectKind::Read) && fd.is_none_or(|fd| fd == 0);
                let mode = match kind {
                    ast::IoFileRedirectKind::Read | ast::IoFileRedirectKind::DuplicateInput => {
                        RedirectMode::Read
                    }
                    ast::IoFileRedirectKind::Write
                    | ast::IoFileRedirectKind::Clobber
                    | ast::IoFileRedirectKind::DuplicateOutput => RedirectMode::Write,
                    ast::IoFileRedirectKind::Append => RedirectMode::Append,
                    ast::IoFileRedirectKind::ReadAndWrite => RedirectMode::ReadWrite,
                };
                let duplicates = matches!(
                    kind,
                    ast::IoFileRedirectKind::DuplicateInput
                        | ast::IoFileRedirectKind::DuplicateOutput
                );
                match target {
                    ast::IoFileRedirectTarget::Filename(w) if !duplicates => {
                        let a = self.word(w, via, depth);
                        // `bash < x.sh` with x.sh written earlier on the line.
                        if reads_stdin
                            && !a.dynamic
                            && let Some(content) = self.written.get(&a.text)
                            && let Some(slot) = stdin
                        {
                            *slot = Some(match content {
                                Some(t) => Input::Text(t.clone()),
                                None => Input::Unknown(format!(
                                    "a file written earlier on the same line whose content is not visible (`{}`)",
                                    a.text
                                )),
                            });
                        }
                        sink.push(Redirect {
                            fd: *fd,
                            mode,
                            target: a,
                        });
                    }
                    ast::IoFileRedirectTarget::Filename(w)
                    | ast::IoFileRedirectTarget::Duplicate(w) => {
                        let a = self.word(w, via, depth);
                        self.duplicate(*fd, mode, a, sink);
                    }
                    ast::IoFileRedirectTarget::Fd(n) => {
                        let a = Arg {
                            text: n.to_string(),
                            dynamic: false,
                        };
                        self.duplicate(*fd, mode, a, sink);
                    }
                    ast::IoFileRedirectTarget::ProcessSubstitution(_, sub) => {
                        let input = self.procsub(sub, via, depth);
                        if reads_stdin && let Some(slot) = stdin {
                            *slot = Some(input);
                        }
                    }
                }
            }
            ast::IoRedirect::OutputAndError(w, append) => {
                let a = self.word(w, via, depth);
                sink.push(Redirect {
                    fd: None,
                    mode: if *append {
                        RedirectMode::Append
                    } else {
                        RedirectMode::Write
                    },
                    target: a,
                });
            }
            ast::IoRedirect::HereDocument(fd, doc) => {
                if let Some(h) = stdin {
                    *h = Some(Input::Text(doc.doc.value.clone()));
                }
                // Unquoted delimiters expand `$…` and `` `…` `` in the text at run time, as
                // inside double quotes: the commands substituted there run (`cat <<EOF` with
                // `$(cat ~/.ssh/id_rsa)` in its body reads the key).
                // Only a heredoc of the line itself is expanded so, and it is paid from the
                // line's unrolling budget: a heredoc inside a substitution inside a heredoc
                // body (noise can nest them to the depth limit) would otherwise be analysed
                // once per level it is reached from.
                let expands = doc.requires_expansion && doc.doc.value.contains(['$', '`']);
                let cost = doc.doc.value.len();
                if expands && depth == 0 && cost <= self.loop_budget {
                    self.loop_budget -= cost;
                    let quoted = format!("\"{}\"", doc.doc.value.replace('"', "\\\""));
                    self.word(&ast::Word::new(&quoted), via, depth);
                }
                sink.push(Redirect {
                    fd: *fd,
                    mode: RedirectMode::Text,
                    target: Arg {
                        text: doc.doc.value.clone(),
                        dynamic: expands,
                    },
                });
            }
            ast::IoRedirect::HereString(fd, w) => {
                let a = self.word(w, via, depth);
                sink.push(Redirect {
                    fd: *fd,
                    mode: RedirectMode::Text,
                    target: Arg {
                        text: format!("{}\n", a.text),
                        dynamic: a.dynamic,
                    },
                });
                if let Some(h) = stdin {
                    *h = Some(Input::Text(a.text));
                }
            }
        }
    }

    /// `<&N` / `>&N` / `>& file`: a descriptor opened on a file earlier in this command
    /// (`cat 4< key <&4`) or by a bare `exec` earlier on the line counts as that file, opened
    /// the way it was opened; `>& file` writes the file; `<&-` closes and a standard
    /// descriptor (`2>&1`) opens nothing. A descriptor only known at run time (`<&$fd`) is
    /// kept as a dynamic target.
    fn duplicate(&mut self, fd: Option<i32>, mode: RedirectMode, a: Arg, sink: &mut Vec<Redirect>) {
        let t = a.text.trim_end_matches('-');
        if a.dynamic {
            sink.push(Redirect {
                fd,
                mode,
                target: a,
            });
            return;
        }
        if t.is_empty() {
            return;
        }
        match t.parse::<i32>() {
            Ok(n) => {
                let opened = sink
                    .iter()
                    .rev()
                    .find(|r| r.fd == Some(n))
                    .or_else(|| self.fds.get(&n))
                    .cloned();
                if let Some(o) = opened {
                    sink.push(Redirect {
                        fd,
                        mode: o.mode,
                        target: o.target,
                    });
                }
            }
            // `>& file` is `&> file`; `<& file` is an error in bash, read as a read.
            Err(_) => sink.push(Redirect {
                fd,
                mode,
                target: a,
            }),
        }
    }

    /// Record a command with no program that only carries redirections (`> file`, the
    /// redirections of a compound command).
    fn record_redirections(&mut self, redirections: Vec<Redirect>, via: &[String]) {
        if redirections.iter().all(|r| r.mode == RedirectMode::Text) {
            return;
        }
        self.out.push(SimpleCommand {
            program: String::new(),
            dynamic_program: false,
            args: Vec::new(),
            redirects: super::redirect_files(&redirections),
            redirections,
            via: via.to_vec(),
            cwd: self.cwd.clone(),
            folded: None,
        });
    }

    /// Expand a simple command's words, apply its assignments, then record and unwrap it;
    /// afterwards remember what its redirections wrote.
    fn simple(
        &mut self,
        s: &ast::SimpleCommand,
        via: &[String],
        depth: usize,
        piped: Option<Input>,
    ) {
        let mut words: Vec<Arg> = Vec::new();
        let mut redirects: Vec<Redirect> = Vec::new();
        let mut assignments: Vec<(String, Option<String>)> = Vec::new();
        // Assignments of one locator substitution (`TMP=$(mktemp)`), by name.
        let mut located: Vec<(String, String)> = Vec::new();
        let mut stdin: Option<Input> = None;
        let mut procsubs: Vec<Input> = Vec::new();
        for item in s.prefix.iter().flat_map(|p| p.0.iter()) {
            match item {
                ast::CommandPrefixOrSuffixItem::AssignmentWord(a, _) => {
                    let mut locator = None;
                    let value = match &a.value {
                        ast::AssignmentValue::Scalar(w) => {
                            let v = self.word(w, via, depth);
                            if v.dynamic && is_locator_text(&v.text) {
                                locator = Some(v.text.clone());
                            }
                            (!v.dynamic).then_some(v.text)
                        }
                        ast::AssignmentValue::Array(_) => None,
                    };
                    let name = match &a.name {
                        ast::AssignmentName::VariableName(n) => n.clone(),
                        ast::AssignmentName::ArrayElementName(n, _) => n.clone(),
                    };
                    if let Some(l) = locator {
                        located.push((name.clone(), l));
                    }
                    assignments.push((name, value));
                }
                ast::CommandPrefixOrSuffixItem::IoRedirect(io) => {
                    self.redirect(io, via, depth, &mut redirects, Some(&mut stdin));
                }
                ast::CommandPrefixOrSuffixItem::Word(w) => {
                    words.push(self.word(w, via, depth));
                }
                ast::CommandPrefixOrSuffixItem::ProcessSubstitution(_, sub) => {
                    self.procsub(sub, via, depth);
                }
            }
        }
        if let Some(w) = &s.word_or_name {
            // `${EDITOR:-vi} file` runs vi unless the environment says otherwise: the
            // command word is known by its default.
            let (mut fields, defaulted) = self.fields(w, via, depth);
            if let [a] = fields.as_mut_slice()
                && defaulted
                && !a.text.is_empty()
            {
                a.dynamic = false;
            }
            words.extend(fields);
        }
        for item in s.suffix.iter().flat_map(|p| p.0.iter()) {
            match item {
                ast::CommandPrefixOrSuffixItem::IoRedirect(io) => {
                    self.redirect(io, via, depth, &mut redirects, Some(&mut stdin));
                }
                ast::CommandPrefixOrSuffixItem::Word(w) => {
                    words.extend(self.fields(w, via, depth).0);
                }
                ast::CommandPrefixOrSuffixItem::AssignmentWord(_, w) => {
                    // `export R=rm`, `declare X=1`: the word as written.
                    words.push(self.word(w, via, depth));
                }
                ast::CommandPrefixOrSuffixItem::ProcessSubstitution(_, sub) => {
                    procsubs.push(self.procsub(sub, via, depth));
                    words.push(Arg {
                        text: PROCSUB.into(),
                        dynamic: true,
                    });
                }
            }
        }
        if !words.is_empty() {
            // `GIT_SSH_COMMAND='…' git fetch`, `LD_PRELOAD=x.so ls`: what the variables carry.
            self.carried(&assignments, Some(&words), via, depth);
        }
        if words.is_empty() {
            // A bare assignment persists in the shell: `R=rm; $R -rf /`.
            for (n, v) in assignments {
                self.located.remove(&n);
                match v {
                    Some(v) => {
                        self.vars.insert(n, v);
                    }
                    None => {
                        self.vars.remove(&n);
                    }
                }
            }
            for (n, l) in located {
                self.located.insert(n, l);
            }
            if !redirects.is_empty() {
                self.record_redirections(redirects, via);
            }
            return;
        }
        // `exec 4< key`: the descriptors stay open for the rest of the line.
        if words.len() == 1
            && words
                .first()
                .is_some_and(|w| w.text == "exec" && !w.dynamic)
        {
            for r in &redirects {
                if let Some(fd) = r.fd {
                    self.fds.insert(fd, r.clone());
                }
            }
        }
        // `export NAME=value` also persists.
        if words
            .first()
            .is_some_and(|w| w.text == "export" || w.text == "declare" || w.text == "readonly")
        {
            for w in words.iter().skip(1) {
                if let Some((n, v)) = w.text.split_once('=')
                    && !w.dynamic
                {
                    self.vars.insert(n.to_string(), v.to_string());
                }
            }
            // `export LD_PRELOAD=/tmp/x.so`: every later command carries it.
            if words.first().is_some_and(|w| w.text == "export") {
                let exported: Vec<_> = words.iter().skip(1).filter_map(assignment).collect();
                self.carried(&exported, None, via, depth);
            }
        }
        let feed = Feed {
            stdin: stdin.or(piped),
            procsub: match procsubs.len() {
                1 => procsubs.pop(),
                0 => None,
                _ => Some(Input::Unknown(
                    "a process substitution that is only known at run time".into(),
                )),
            },
        };
        let before = self.out.len();
        self.peel_with_input(words, redirects, via.to_vec(), depth, feed);
        // The command itself, not a substitution recorded before it (`echo $(…) > x.sh`).
        let targets: Vec<String> = self
            .out
            .get(before..)
            .and_then(|o| o.iter().find(|c| c.via == via))
            .map(|c| {
                c.redirections
                    .iter()
                    .filter(|r| {
                        !r.target.dynamic
                            && matches!(
                                r.mode,
                                RedirectMode::Write
                                    | RedirectMode::Append
                                    | RedirectMode::ReadWrite
                            )
                    })
                    .map(|r| r.target.text.clone())
                    .collect()
            })
            .unwrap_or_default();
        if targets.is_empty() {
            return;
        }
        let content = match self.producer(before, via) {
            Input::Text(t) => Some(t),
            Input::Unknown(_) | Input::Listing { .. } | Input::Partial { .. } => None,
        };
        for t in targets {
            self.written.insert(t, content.clone());
        }
    }
}

/// The variable of a `while read [-r] NAME` loop condition (with `IFS=` before `read` or
/// not): the condition is that one simple command and nothing else.
fn read_loop_variable(w: &ast::WhileOrUntilClauseCommand) -> Option<String> {
    let [item] = w.0.0.as_slice() else {
        return None;
    };
    if !item.0.additional.is_empty() || item.0.first.bang {
        return None;
    }
    let [ast::Command::Simple(s)] = item.0.first.seq.as_slice() else {
        return None;
    };
    if s.word_or_name.as_ref()?.value != "read" {
        return None;
    }
    let prefix_ok = s.prefix.iter().flat_map(|p| p.0.iter()).all(|i| {
        matches!(i, ast::CommandPrefixOrSuffixItem::AssignmentWord(a, _)
            if matches!(&a.name, ast::AssignmentName::VariableName(n) if n == "IFS"))
    });
    let mut names = Vec::new();
    for i in s.suffix.iter().flat_map(|p| p.0.iter()) {
        let ast::CommandPrefixOrSuffixItem::Word(word) = i else {
            return None;
        };
        match word.value.as_str() {
            "-r" => {}
            n if !n.is_empty()
                && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !n.starts_with(|c: char| c.is_ascii_digit()) =>
            {
                names.push(n.to_string())
            }
            _ => return None,
        }
    }
    match (prefix_ok, names.as_slice()) {
        (true, [one]) => Some(one.clone()),
        _ => None,
    }
}

/// Whether an expanded word is exactly one locator substitution written out
/// (`$(mktemp -d)`, `$(go env GOPATH)`): see [`super::locators`].
fn is_locator_text(text: &str) -> bool {
    text.starts_with("$(")
        && text.find(')') == Some(text.len() - 1)
        && super::locators::representative(text, Some("")).is_some()
}

/// What one simple command writes to its standard output: the text of a literal `echo` /
/// `printf` or of `cat` fed a here-document, the names `find` / `fd` list, anything else
/// unknown.
fn output_of(c: &SimpleCommand) -> Input {
    let unknown =
        |what: String| Input::Unknown(format!("a pipe that is only known at run time ({what})"));
    let shown = format!("`{}`", c.display());
    if super::generators::env_generator(c) {
        // `pyenv init - | source /dev/stdin`: environment definitions only.
        return Input::Text(String::new());
    }
    if c.dynamic_program || c.args.iter().any(|a| a.dynamic) {
        return unknown(shown);
    }
    let args: Vec<String> = c.args.iter().map(|a| a.text.clone()).collect();
    match c.basename() {
        "echo" => Input::Text(echo_output(&args)),
        "printf" => match printf_output(&args) {
            Ok(t) => Input::Text(t),
            Err(why) => unknown(format!("{shown}: {why}")),
        },
        // `cat <<EOF`: the here-document, as is.
        "cat" if args.is_empty() => match c.stdin_text() {
            Some(t) => Input::Text(t.to_string()),
            None => unknown(shown),
        },
        // `find ~ | xargs rm -rf`: the names it lists, as `-exec` sees them.
        "find" | "gfind" if super::find::find_lists_names(&c.args) => Input::Listing {
            found: super::find::find_found(&c.args),
            from: format!("a pipe that is only known at run time ({shown})"),
        },
        // `locate .env | xargs cat`: the files of the database whose path holds the pattern.
        "locate" | "plocate" | "mlocate" | "slocate"
            if super::find::locate_lists_names(&c.args) =>
        {
            Input::Listing {
                found: super::find::locate_found(&c.args),
                from: format!("a pipe that is only known at run time ({shown})"),
            }
        }
        // `fd . ~ | xargs rm -rf`: the same for the names `fd` lists.
        "fd" | "fdfind" if super::runners::fd_lists_names(&c.args) => Input::Listing {
            found: super::runners::fd_listing(&c.args),
            from: format!("a pipe that is only known at run time ({shown})"),
        },
        _ => unknown(shown),
    }
}

/// Whether a command's standard output goes to a file, not down the pipe (`echo x > f`).
fn writes_stdout_elsewhere(c: &SimpleCommand) -> bool {
    c.redirections.iter().any(|r| {
        matches!(r.mode, RedirectMode::Write | RedirectMode::Append)
            && r.fd.is_none_or(|fd| fd == 1)
    })
}
