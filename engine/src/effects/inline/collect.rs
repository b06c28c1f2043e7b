//! What the inline-code walkers collect: the effects of the code and the commands and code it
//! runs ([`Found`]), kept by [`Collect`], which also makes paths against the code's working
//! directory.
//!
//! In: resolved values ([`Res`]) from a walker. Out: a list of [`Found`] in source order.

use super::resolve::{Res, path_text};
use crate::effects::{BodySource, PathRef, Route, Send, What, url};
use crate::shell::Arg;

/// How many effects and commands one piece of code may yield.
pub(super) const MAX_FOUND: usize = 2_000;

/// What a walker found: an effect of the code itself, or a command it runs.
#[derive(Debug, PartialEq)]
pub(super) enum Found {
    /// An effect.
    What(Box<What>),
    /// An effect with a step added to its route's `via` (`a secret variable printed ($X)`).
    Via(Box<What>, String),
    /// A shell command line (`os.system(…)`, `execSync(…)`, `shell=True`).
    Shell {
        /// The call that runs it (`os.system`).
        who: String,
        /// The command line.
        text: String,
        /// The folder it runs in.
        dir: Option<String>,
    },
    /// Code of the same language run by the code (`exec('…')`, `eval('…')`).
    Code {
        /// The call that runs it (`exec`).
        who: String,
        /// The code.
        text: String,
    },
    /// A program run with its words, without a shell: an argument vector
    /// (`subprocess.run([…])`), or a PowerShell or cmd.exe command whose words may be known
    /// only at run time, with a file as its standard input (`type x | prog`).
    Words {
        /// The call that runs it (empty: the code itself).
        who: String,
        /// The words.
        words: Vec<Arg>,
        /// The file piped into it.
        stdin: Option<Arg>,
        /// The folder it runs in.
        dir: Option<String>,
    },
}

/// What the walkers collect, and how they make paths.
pub(super) struct Collect<'c> {
    /// The working directory of the code at the call being read (`os.chdir` moves it).
    pub(super) cwd: Option<String>,
    /// Part of the code text is only known at run time.
    pub(super) dynamic: bool,
    /// `sys.argv` / `process.argv` as the code sees it.
    pub(super) argv: &'c [Option<String>],
    /// A leading `~` in a string is the home folder: the code went through the shell, which
    /// turns `"$HOME"` inside it into `~` before the text is read here.
    pub(super) tilde_is_home: bool,
    /// What was found, in source order.
    pub(super) found: Vec<Found>,
    /// [`MAX_FOUND`] was reached.
    pub(super) full: bool,
    /// The code is being read again (once per element of a loop over a literal sequence):
    /// what was found before is not added twice.
    pub(super) rereading: bool,
    /// The code puts a descriptor on its standard input or output (`os.dup2(s.fileno(), 0)`,
    /// Perl's `open(STDIN, ">&S")`, Ruby's `$stdin.reopen(c)`): with a connection to another
    /// machine, what it runs then talks to that machine ([`Collect::streams_route`]).
    pub(super) streams_on_socket: bool,
}

/// The `via` step of what code runs once its standard streams are on a socket connected to
/// another machine: a shell there is a reverse shell.
pub(super) const STREAMS_ON_SOCKET: &str = "standard streams on a socket";

impl<'c> Collect<'c> {
    /// A collector with nothing found yet, for code run in `cwd` with `argv` as its argument
    /// vector; `dynamic` when part of the code is only known at run time, `tilde_is_home` when
    /// the code went through the shell.
    pub(super) fn new(
        cwd: Option<&str>,
        dynamic: bool,
        argv: &'c [Option<String>],
        tilde_is_home: bool,
    ) -> Self {
        Collect {
            cwd: cwd.map(str::to_string),
            dynamic,
            argv,
            tilde_is_home,
            found: Vec::new(),
            full: false,
            rereading: false,
            streams_on_socket: false,
        }
    }

    /// The route of what the code found: `route`, with [`STREAMS_ON_SOCKET`] added when the
    /// code put a descriptor on its standard streams and connects to another machine (a
    /// `send` to a host), so the commands it runs carry it in their `via`.
    pub(super) fn streams_route(&self, route: &Route) -> Route {
        let mut r = route.clone();
        let connects = self.found.iter().any(|f| {
            matches!(f, Found::What(w) | Found::Via(w, _)
                if matches!(&**w, What::Send(s) if s.endpoint.is_some() || s.dynamic))
        });
        if self.streams_on_socket && connects {
            r.via.push(STREAMS_ON_SOCKET.to_string());
        }
        r
    }

    /// A path from a resolved value: a literal `~` is a folder named `~` (the file
    /// functions do not expand it); text from a run-time expansion of the command line is
    /// dynamic.
    pub(super) fn path(&self, r: &Res) -> PathRef {
        let text = path_text(r, self.tilde_is_home);
        PathRef {
            dynamic: self.dynamic && text.contains('$'),
            text,
            cwd: self.cwd.clone(),
        }
    }

    /// `os.chdir(dir)`, `process.chdir(dir)`, a `cwd` option: later relative paths are
    /// relative to `dir`; a folder known only at run time leaves every later relative path
    /// unknown, so the code is unsure.
    pub(super) fn chdir(&mut self, dir: Option<Res>, call: &str) {
        let Some(d) = dir else {
            self.unsure(format!("`{call}` to a folder known only at run time"));
            return;
        };
        let d = path_text(&d, self.tilde_is_home);
        self.cwd = Some(match &self.cwd {
            _ if d.starts_with(['/', '~']) => d,
            Some(c) => format!("{}/{d}", c.trim_end_matches('/')),
            None => d,
        });
    }

    /// A path known only at run time, shown as the expression that computes it.
    pub(super) fn computed_path(&self, expr: &str) -> PathRef {
        let shown: String = expr.chars().take(80).collect();
        PathRef {
            text: shown,
            dynamic: true,
            cwd: self.cwd.clone(),
        }
    }

    /// Add an effect unless the same one is there already (every `send` is kept); its index
    /// in `found`.
    pub(super) fn push(&mut self, w: What) -> usize {
        if !matches!(w, What::Send(_))
            && let Some(k) = self
                .found
                .iter()
                .position(|f| matches!(f, Found::What(x) if **x == w))
        {
            return k;
        }
        self.add(Found::What(Box::new(w)))
    }

    /// Add an effect with `via` added to its route, unless the same one is there already.
    pub(super) fn push_via(&mut self, w: What, via: String) {
        let f = Found::Via(Box::new(w), via);
        if !self.found.contains(&f) {
            self.add(f);
        }
    }

    /// Add what was found, up to [`MAX_FOUND`] items; then one `unsure` says the rest was not
    /// kept. The index of the item (of the last one kept when full).
    fn add(&mut self, f: Found) -> usize {
        if self.rereading
            && let Some(k) = self.found.iter().position(|x| *x == f)
        {
            return k;
        }
        if self.found.len() < MAX_FOUND {
            self.found.push(f);
        } else if !self.full {
            self.full = true;
            self.found.push(Found::What(Box::new(What::Unsure(format!(
                "the code has more than {MAX_FOUND} effects; the rest were not read"
            )))));
        }
        self.found.len() - 1
    }

    /// Add an `unsure` with its cause (once per cause).
    pub(super) fn unsure(&mut self, why: String) {
        let w = What::Unsure(why);
        if !self
            .found
            .iter()
            .any(|f| matches!(f, Found::What(x) if **x == w))
        {
            self.add(Found::What(Box::new(w)));
        }
    }

    /// `{call}` with a {what} known only at run time.
    pub(super) fn unknown(&mut self, call: &str, what: &str) {
        self.unsure(format!("`{call}` with {what} known only at run time"));
    }

    /// A command line the code runs. A line whose standard input comes from a descriptor
    /// past 2 (`sh <&3 >&3`: one the code opened, PHP's `fsockopen` socket) puts it on the
    /// standard streams ([`Collect::streams_on_socket`]).
    pub(super) fn shell(&mut self, who: &str, text: String) {
        if reads_code_descriptor(&text) {
            self.streams_on_socket = true;
        }
        let dir = self.cwd.clone();
        self.add(Found::Shell {
            who: who.to_string(),
            text,
            dir,
        });
    }

    /// Code of the same language the code runs.
    pub(super) fn code(&mut self, who: &str, text: String) {
        self.add(Found::Code {
            who: who.to_string(),
            text,
        });
    }

    /// An argument vector the code runs (`subprocess.run([…])`): words known as written.
    pub(super) fn argv(&mut self, who: &str, argv: Vec<String>) {
        let words = argv
            .into_iter()
            .map(|text| Arg {
                text,
                dynamic: false,
            })
            .collect();
        self.words(who, words, None);
    }

    /// A program the code runs with its words, some perhaps known only at run time
    /// (PowerShell and cmd.exe commands), and the file it reads as standard input.
    pub(super) fn words(&mut self, who: &str, words: Vec<Arg>, stdin: Option<Arg>) {
        if words.is_empty() {
            return;
        }
        let dir = self.cwd.clone();
        self.add(Found::Words {
            who: who.to_string(),
            words,
            stdin,
            dir,
        });
    }

    /// Set the content of the write at `idx` (found by [`Collect::push`]).
    pub(super) fn set_content(&mut self, idx: usize, content: Option<String>) {
        if let Some(Found::What(w)) = self.found.get_mut(idx)
            && let What::Write { content: c, .. } = w.as_mut()
        {
            *c = content;
        }
    }

    /// A `send` to a URL.
    pub(super) fn send_url(&mut self, url: &Res, method: Option<String>, body: Vec<BodySource>) {
        let dynamic = self.dynamic && url.text.contains('$');
        // Read already as a download whose response runs (`exec(urlopen(u).read())`).
        if body.is_empty()
            && method.as_deref().is_none_or(|m| m == "GET")
            && self.found.iter().any(|f| {
                matches!(f, Found::What(w) if matches!(&**w, What::Send(s)
                    if s.runs_response && s.url.as_deref() == Some(url.text.as_str())))
            })
        {
            return;
        }
        self.push(What::Send(Send {
            url: Some(url.text.clone()),
            endpoint: if dynamic { None } else { url::parse(&url.text) },
            method,
            body,
            dynamic,
            runs_response: false,
        }));
    }

    /// Code downloaded from `url` (`None`: a URL known only at run time) and run: a `send`
    /// whose response runs.
    pub(super) fn fetch_and_run(&mut self, url: Option<&Res>) {
        let dynamic = url.is_none_or(|u| self.dynamic && u.text.contains('$'));
        // The download itself, read already as a plain send, now runs; read again, it is the
        // same effect.
        let same = |s: &Send| s.url.as_deref() == url.map(|u| u.text.as_str());
        for f in &mut self.found {
            if let Found::What(w) = f
                && let What::Send(s) = &mut **w
                && same(s)
            {
                if s.runs_response {
                    return;
                }
                if s.body.is_empty() && s.method.as_deref().is_none_or(|m| m == "GET") {
                    s.runs_response = true;
                    return;
                }
            }
        }
        self.push(What::Send(Send {
            url: url.map(|u| u.text.clone()),
            endpoint: if dynamic {
                None
            } else {
                url.and_then(|u| url::parse(&u.text))
            },
            method: Some("GET".into()),
            body: Vec::new(),
            dynamic,
            runs_response: true,
        }));
    }

    /// A module loaded by its specifier (`import("https://…/x.js")`, `import x from
    /// "npm:pkg"`): a URL is fetched and run (a `send` whose response runs), a registry
    /// specifier (`npm:`, `jsr:`) installed and run; a path or a built-in module adds nothing.
    pub(super) fn module(&mut self, spec: &Res) {
        let lower = spec.text.to_ascii_lowercase();
        if lower.starts_with("https://") || lower.starts_with("http://") {
            let dynamic = self.dynamic && spec.text.contains('$');
            self.push(What::Send(Send {
                url: Some(spec.text.clone()),
                endpoint: if dynamic {
                    None
                } else {
                    url::parse(&spec.text)
                },
                method: Some("GET".into()),
                body: Vec::new(),
                dynamic,
                runs_response: true,
            }));
        } else if lower.starts_with("npm:") || lower.starts_with("jsr:") {
            self.push(What::Install {
                manager: "deno".into(),
                packages: vec![Arg {
                    text: spec.text.clone(),
                    dynamic: self.dynamic && spec.text.contains('$'),
                }],
                source: None,
            });
        }
    }

    /// A `send` to `host` (and `port`), no URL.
    pub(super) fn send_host(&mut self, host: &Res, port: Option<&str>, body: Vec<BodySource>) {
        let dynamic = self.dynamic && host.text.contains('$');
        self.push(url::send_host(&host.text, port, dynamic, body));
    }
}

/// Whether shell line `text` takes its standard input from a descriptor past 2 (`<&3`,
/// `0<&5`, bash(1) "Duplicating File Descriptors").
fn reads_code_descriptor(text: &str) -> bool {
    text.match_indices("<&").any(|(k, _)| {
        let before = text[..k].chars().next_back();
        let fd: String = text[k + 2..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        before.is_none_or(|c| c == '0' || c.is_whitespace())
            && fd.parse::<u32>().is_ok_and(|n| n > 2)
    })
}

/// Add `more` body sources to `body`, without repeats.
pub(super) fn add_body(body: &mut Vec<BodySource>, more: Vec<BodySource>) {
    for b in more {
        if !body.contains(&b) {
            body.push(b);
        }
    }
}
