//! Environment variables that code exposes, one walk for Python and JavaScript: a variable
//! printed into the session (`print(os.environ["GITHUB_TOKEN"])`,
//! `console.log(process.env.NPM_TOKEN)`), the whole environment printed (`print(dict(os.environ))`,
//! `console.log(process.env)`), a variable written into a file
//! (`open("t.txt", "w").write(os.getenv("AWS_SECRET_ACCESS_KEY"))`,
//! `fs.writeFileSync("t", process.env.NPM_TOKEN)`).
//!
//! In: a language's reader ([`Exposes`]) and a call node. Out, added to [`Collect`]: the same
//! effects the shell lens has for the same act, so one rule judges every route: a read of the
//! environment ([`ENVIRON`]) marked `via "a secret variable printed ($NAME)"`
//! (`echo $GITHUB_TOKEN`: `secret-variable-print-needs-approval`), `via "the whole environment
//! printed"` (`env`: `env-dump-needs-approval`) or `via "a secret variable written into a file
//! ($NAME)"` (`echo $NPM_TOKEN > t`: `secret-copied-into-file-needs-approval`). Names are
//! resolved with the reader's constant folding (`os.environ["GITHUB_" + "TOKEN"]`, a name
//! bound to a constant) and judged by [`secret_variable`]; a variable read whose name does not
//! resolve and is printed or written is `unsure` with that cause.
//!
//! Using a variable is not exposing it: what a call prints is followed through values that
//! carry it (concatenations, f-strings, templates, `str(…)`, `.upper()`, `JSON.stringify`) but
//! not through calls that only use it (`requests.get(u, headers={…})`, `new Octokit({auth})`,
//! `len(…)`) nor tests of it (`os.getenv("X") is None`, `process.env.X ? "set" : "unset"`).

use tree_sitter::Node;

use super::collect::Collect;
use super::sources::Reader;
use crate::audit::secret_variable;
use crate::effects::copies::{ENVIRON, SECRET_PRINTED, SECRET_WRITTEN};
use crate::effects::model::{BodySource, PathRef, What};

/// The `via` of a read of the environment by a call that prints all of it.
pub(crate) const ENVIRONMENT_PRINTED: &str = "the whole environment printed";

/// Where a call puts the values it is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sink {
    /// Into the session: standard output or error (`print`, `console.log`, a logger).
    Printed,
    /// Into a file (`f.write`, `Path.write_text`, `fs.writeFileSync`).
    Written,
}

/// The environment an expression's value carries.
#[derive(Debug, Default)]
pub(super) struct Exposure {
    /// Variables by name.
    names: Vec<String>,
    /// The whole environment.
    whole: bool,
    /// A variable whose name is known only at run time.
    unknown: bool,
}

/// What the exposure walk needs from a language's reader, beyond [`Reader`].
pub(super) trait Exposes<'t>: Reader<'t> {
    /// Whether node `m` reads an environment variable whose name does not resolve here
    /// (`os.environ[k]`, `process.env[name]`).
    fn env_unresolved(&self, m: Node<'t>, depth: usize) -> bool;

    /// Whether the value of `m` carries the value of its child `c` (`a + b`, `str(x)`,
    /// `x.upper()`), not only uses it (`len(x)`, `x is None`, `client(auth=x)`).
    fn carries(&self, m: Node<'t>, c: Node<'t>) -> bool;

    /// What a call does with the values it is given: where they go, the call's name, and the
    /// value nodes (`print(a, b)`: printed, `print`, `[a, b]`).
    fn exposed_by(&self, call: Node<'t>) -> Option<(Sink, String, Vec<Node<'t>>)>;

    /// The environment the value of `n` carries, through names bound once.
    fn exposure_at(&self, n: Node<'t>, depth: usize, out: &mut Exposure) {
        if !self.budget().step(depth) {
            return;
        }
        if self.env_unresolved(n, depth) {
            out.unknown = true;
            return;
        }
        let mut found = Vec::new();
        if self.reads(n, depth, &mut found) && !found.is_empty() {
            for b in found {
                match b {
                    BodySource::Env(name) if !out.names.contains(&name) => out.names.push(name),
                    BodySource::Environment => out.whole = true,
                    _ => {}
                }
            }
            return;
        }
        if let Some(name) = self.name_ref(n) {
            if let Some(v) = self.bound().once(name) {
                self.exposure_at(v, depth + 1, out);
            }
            return;
        }
        let mut walk = n.walk();
        let children: Vec<Node<'t>> = n.named_children(&mut walk).collect();
        for c in children {
            if self.carries(n, c) {
                self.exposure_at(c, depth, out);
            }
        }
    }

    /// The reads of the environment a call that prints or writes values adds (see the module
    /// docs).
    fn expose(&self, call: Node<'t>, cx: &mut Collect<'_>) {
        let Some((sink, who, values)) = self.exposed_by(call) else {
            return;
        };
        let mut e = Exposure::default();
        for v in values {
            self.exposure_at(v, 0, &mut e);
        }
        let secret: Vec<&str> = e
            .names
            .iter()
            .map(String::as_str)
            .filter(|n| secret_variable(n))
            .collect();
        let environ = || What::Read(PathRef::new(ENVIRON, None));
        if !secret.is_empty() {
            let via = match sink {
                Sink::Printed => SECRET_PRINTED,
                Sink::Written => SECRET_WRITTEN,
            };
            cx.push_via(environ(), format!("{via} (${})", secret.join(", $")));
        }
        if e.whole && sink == Sink::Printed {
            cx.push_via(environ(), ENVIRONMENT_PRINTED.to_string());
        }
        if e.unknown {
            let verb = match sink {
                Sink::Printed => "prints",
                Sink::Written => "writes into a file",
            };
            cx.unsure(format!(
                "`{who}` {verb} an environment variable whose name is known only at run time"
            ));
        }
    }
}
