//! The engine's policy IR (`seamguard_policy::model`) as Rust constructor tokens.
//!
//! Every struct literal is exhaustive, so a field added to the IR makes this crate fail to
//! build instead of silently dropping it.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use seamguard_policy::matcher::Matcher;
use seamguard_policy::model::{
    Action, EffectTest, Field, Leaf, LoadedPolicy, PathSpec, PolicyError, PolicyMeta, PolicyTest,
    Pred, Redaction, Rewrite, Rule, RunSpec, ShellTest, Source, Test,
};
use serde_json::Value;

/// Generates constructors; `p` is the path of the generated code's private module.
pub(crate) struct Gen {
    pub(crate) p: TokenStream,
}

/// A unit-like enum value as `path::Variant` (its `Debug` name is the variant).
fn variant(path: TokenStream, v: &impl std::fmt::Debug) -> TokenStream {
    let id = format_ident!("{}", format!("{v:?}"));
    quote!(#path::#id)
}

/// A one-field tuple variant (or function) `path` applied to `x`: `path(x)`.
fn call(path: TokenStream, x: TokenStream) -> TokenStream {
    quote!(#path(#x))
}

/// `Option::Some(x)` or `Option::None`.
fn opt(x: Option<TokenStream>) -> TokenStream {
    match x {
        Some(x) => quote!(::core::option::Option::Some(#x)),
        None => quote!(::core::option::Option::None),
    }
}

impl Gen {
    fn string(&self, s: &str) -> TokenStream {
        quote!(::std::string::String::from(#s))
    }

    fn opt_string(&self, s: &Option<String>) -> TokenStream {
        opt(s.as_deref().map(|s| self.string(s)))
    }

    fn strings(&self, v: &[String]) -> TokenStream {
        let items = v.iter().map(|s| self.string(s));
        quote!(::std::vec![#(#items),*])
    }

    /// A shared list of a test (`policy::List`) holding `v`.
    fn list(&self, v: TokenStream) -> TokenStream {
        let p = &self.p;
        quote!(#p::policy::List::from(#v))
    }

    /// A shared list of strings.
    fn string_list(&self, v: &[String]) -> TokenStream {
        self.list(self.strings(v))
    }

    fn arc(&self, s: &str) -> TokenStream {
        quote!(::std::sync::Arc::<str>::from(#s))
    }

    pub(crate) fn value(&self, v: &Value) -> TokenStream {
        let p = &self.p;
        let j = quote!(#p::serde_json);
        match v {
            Value::Null => quote!(#j::Value::Null),
            Value::Bool(b) => quote!(#j::Value::Bool(#b)),
            Value::Number(n) => {
                if let Some(u) = n.as_u64() {
                    quote!(#j::Value::from(#u))
                } else if let Some(i) = n.as_i64() {
                    quote!(#j::Value::from(#i))
                } else {
                    let f = proc_macro2::Literal::f64_suffixed(n.as_f64().unwrap_or(0.0));
                    quote!(#j::Value::from(#f))
                }
            }
            Value::String(s) => call(quote!(#j::Value::String), self.string(s)),
            Value::Array(a) => {
                let items = a.iter().map(|x| self.value(x));
                quote!(#j::Value::Array(::std::vec![#(#items),*]))
            }
            Value::Object(m) => {
                let items = m.iter().map(|(k, x)| {
                    let k = self.string(k);
                    let x = self.value(x);
                    quote!((#k, #x))
                });
                quote!(#j::Value::Object(
                    ::std::iter::IntoIterator::into_iter([#(#items),*]).collect()
                ))
            }
        }
    }

    fn source(&self, s: &Source) -> TokenStream {
        let p = &self.p;
        let file = self.arc(&s.file);
        let (line, column) = (s.line, s.column);
        let scope = variant(quote!(#p::policy::Scope), &s.scope);
        quote!(#p::policy::Source { file: #file, line: #line, column: #column, scope: #scope })
    }

    fn meta(&self, m: &PolicyMeta) -> TokenStream {
        let p = &self.p;
        let pp = quote!(#p::policy);
        let name = self.string(&m.name);
        let description = self.opt_string(&m.description);
        let file = self.arc(&m.file);
        let scope = variant(quote!(#pp::Scope), &m.scope);
        let on_load_error = variant(quote!(#pp::OnLoadError), &m.on_load_error);
        let matcher_mode = variant(quote!(#p::MatcherMode), &m.matcher_mode);
        let codex_ask = variant(quote!(#pp::CodexAsk), &m.codex_ask);
        let on_unsure = variant(quote!(#pp::OnUnsure), &m.on_unsure);
        let mode = variant(quote!(#pp::PolicyMode), &m.mode);
        let trusted = m.trusted;
        let content_hash = self.string(&m.content_hash);
        quote!(#pp::PolicyMeta {
            name: #name, description: #description, file: #file, scope: #scope,
            on_load_error: #on_load_error, matcher_mode: #matcher_mode, codex_ask: #codex_ask,
            on_unsure: #on_unsure, mode: #mode, trusted: #trusted, content_hash: #content_hash,
            lists: ::std::vec::Vec::new(), list_refs: ::std::vec::Vec::new(),
        })
    }

    fn matcher(&self, m: &Matcher) -> TokenStream {
        let p = &self.p;
        match m {
            Matcher::All => quote!(#p::Matcher::All),
            Matcher::Exact(v) => call(quote!(#p::Matcher::Exact), self.strings(v)),
            Matcher::Regex(r) => call(quote!(#p::Matcher::Regex), self.string(r)),
        }
    }

    fn field(&self, f: &Field) -> TokenStream {
        let p = &self.p;
        let name = self.string(&f.name);
        let ptrs = f.pointers.iter().map(|v| self.strings(v));
        quote!(#p::policy::Field { name: #name, pointers: ::std::vec![#(#ptrs),*] })
    }

    fn path_spec(&self, s: &PathSpec) -> TokenStream {
        let p = &self.p;
        match s {
            PathSpec::Project => quote!(#p::policy::PathSpec::Project),
            PathSpec::Home => quote!(#p::policy::PathSpec::Home),
            PathSpec::ProjectRoot => quote!(#p::policy::PathSpec::ProjectRoot),
            PathSpec::Guard => quote!(#p::policy::PathSpec::Guard),
            PathSpec::InProject(g) => call(quote!(#p::policy::PathSpec::InProject), self.string(g)),
            PathSpec::Glob(g) => call(quote!(#p::policy::PathSpec::Glob), self.string(g)),
        }
    }

    fn shell(&self, t: &ShellTest) -> TokenStream {
        let p = &self.p;
        let ShellTest {
            programs,
            subcommands,
            flags_any,
            flags_all,
            flags_none,
            args_any,
            path_inside,
            path_outside,
            push_force,
            push_force_unleased,
            push_delete,
            push_to,
        } = t;
        let programs = self.string_list(programs);
        let subcommands = self.string_list(subcommands);
        let fa = flags_any.iter().map(|v| self.strings(v));
        let fl = flags_all.iter().map(|v| self.strings(v));
        let fnone = flags_none.iter().map(|v| self.strings(v));
        let args_any = self.string_list(args_any);
        let pi = path_inside.iter().map(|s| self.path_spec(s));
        let pi = self.list(quote!(::std::vec![#(#pi),*]));
        let po = path_outside.iter().map(|s| self.path_spec(s));
        let po = self.list(quote!(::std::vec![#(#po),*]));
        let push_to = self.string_list(push_to);
        quote!(#p::policy::ShellTest {
            programs: #programs,
            subcommands: #subcommands,
            flags_any: ::std::vec![#(#fa),*],
            flags_all: ::std::vec![#(#fl),*],
            flags_none: ::std::vec![#(#fnone),*],
            args_any: #args_any,
            path_inside: #pi,
            path_outside: #po,
            push_force: #push_force,
            push_force_unleased: #push_force_unleased,
            push_delete: #push_delete,
            push_to: #push_to,
        })
    }

    fn test(&self, t: &Test) -> TokenStream {
        let p = &self.p;
        let t_ = quote!(#p::policy::Test);
        match t {
            Test::Equals(v) => {
                let v = v.iter().map(|x| self.value(x));
                quote!(#t_::Equals(::std::vec![#(#v),*]))
            }
            Test::Regex(v) => call(quote!(#t_::Regex), self.string_list(v)),
            Test::Glob(v) => call(quote!(#t_::Glob), self.string_list(v)),
            Test::Contains(v) => call(quote!(#t_::Contains), self.string_list(v)),
            Test::Prefix(v) => call(quote!(#t_::Prefix), self.string_list(v)),
            Test::Shell(s) => {
                let s = self.shell(s);
                quote!(#t_::Shell(::std::boxed::Box::new(#s)))
            }
            Test::Effect(e) => {
                let e = self.effect(e);
                quote!(#t_::Effect(::std::sync::Arc::new(#e)))
            }
        }
    }

    fn effect(&self, t: &EffectTest) -> TokenStream {
        let p = &self.p;
        let EffectTest {
            kind,
            shell,
            recursive,
            tightens,
            moved,
            append,
            host_in,
            host_not_in,
            ip_class,
            scheme,
            method,
            body_from,
            body_from_env,
            credential_in_url,
            runs_response,
            targets,
            managers,
            clis,
            services,
            operations,
            source_not_in,
            near_names,
            lenses,
            via,
            content_regex,
            modes,
            body_kinds,
            changes,
            agents,
            grants,
            earlier_read_inside,
            earlier_read_outside,
            earlier_fetch,
            by_pattern,
        } = t;
        let kind = variant(quote!(#p::policy::EffectKind), kind);
        let shell = self.shell(shell);
        let recursive = opt(recursive.map(|b| quote!(#b)));
        let tightens = opt(tightens.map(|b| quote!(#b)));
        let moved = opt(moved.map(|b| quote!(#b)));
        let append = opt(append.map(|b| quote!(#b)));
        let by_pattern = opt(by_pattern.map(|b| quote!(#b)));
        let [body_from, earlier_read_inside, earlier_read_outside] =
            [body_from, earlier_read_inside, earlier_read_outside].map(|v| {
                let specs = v.iter().map(|s| self.path_spec(s));
                self.list(quote!(::std::vec![#(#specs),*]))
            });
        let [
            host_in,
            host_not_in,
            ip_class,
            scheme,
            method,
            body_from_env,
            targets,
            managers,
            source_not_in,
            near_names,
            lenses,
            via,
            content_regex,
            modes,
            body_kinds,
        ] = [
            host_in,
            host_not_in,
            ip_class,
            scheme,
            method,
            body_from_env,
            targets,
            managers,
            source_not_in,
            near_names,
            lenses,
            via,
            content_regex,
            modes,
            body_kinds,
        ]
        .map(|v| self.string_list(v));
        let [clis, services, operations, changes, agents, grants] =
            [clis, services, operations, changes, agents, grants].map(|v| self.strings(v));
        quote!(#p::policy::EffectTest {
            kind: #kind,
            shell: #shell,
            recursive: #recursive,
            tightens: #tightens,
            moved: #moved,
            append: #append,
            by_pattern: #by_pattern,
            host_in: #host_in,
            host_not_in: #host_not_in,
            ip_class: #ip_class,
            scheme: #scheme,
            method: #method,
            body_from: #body_from,
            body_from_env: #body_from_env,
            credential_in_url: #credential_in_url,
            runs_response: #runs_response,
            targets: #targets,
            managers: #managers,
            clis: #clis,
            services: #services,
            operations: #operations,
            source_not_in: #source_not_in,
            near_names: #near_names,
            lenses: #lenses,
            via: #via,
            content_regex: #content_regex,
            modes: #modes,
            body_kinds: #body_kinds,
            changes: #changes,
            agents: #agents,
            grants: #grants,
            earlier_read_inside: #earlier_read_inside,
            earlier_read_outside: #earlier_read_outside,
            earlier_fetch: #earlier_fetch,
        })
    }

    fn pred(&self, pr: &Pred) -> TokenStream {
        let p = &self.p;
        let pp = quote!(#p::policy::Pred);
        // `Pred::<variant>(vec![…])`.
        let list = |variant: TokenStream, v: &[Pred]| {
            let v = v.iter().map(|x| self.pred(x));
            quote!(#pp::#variant(::std::vec![#(#v),*]))
        };
        match pr {
            Pred::All(v) => list(quote!(All), v),
            Pred::Any(v) => list(quote!(Any), v),
            Pred::Not(x) => {
                let x = self.pred(x);
                quote!(#pp::Not(::std::boxed::Box::new(#x)))
            }
            Pred::Sure(x) => {
                let x = self.pred(x);
                quote!(#pp::Sure(::std::boxed::Box::new(#x)))
            }
            Pred::Leaf(Leaf { field, test }) => {
                let field = self.field(field);
                let test = self.test(test);
                quote!(#pp::Leaf(#p::policy::Leaf { field: #field, test: #test }))
            }
        }
    }

    fn opt_pred(&self, pr: &Option<Pred>) -> TokenStream {
        opt(pr.as_ref().map(|x| self.pred(x)))
    }

    fn action(&self, a: &Action) -> TokenStream {
        let p = &self.p;
        let pp = quote!(#p::policy);
        let Action {
            decision,
            reason,
            context,
            rewrite,
            redact,
            feedback,
            continue_with,
            max_continuations,
            halt,
            run,
            suppress_prompt,
            observe,
        } = a;
        let decision = opt(decision
            .as_ref()
            .map(|d| variant(quote!(#pp::DecisionValue), d)));
        let reason = self.opt_string(reason);
        let context = self.opt_string(context);
        let rewrite = opt(rewrite.as_ref().map(|r| match r {
            Rewrite::Prepend(s) => call(quote!(#pp::Rewrite::Prepend), self.string(s)),
            Rewrite::Append(s) => call(quote!(#pp::Rewrite::Append), self.string(s)),
            Rewrite::Replace { regex, replace } => {
                let (regex, replace) = (self.string(regex), self.string(replace));
                quote!(#pp::Rewrite::Replace {
                    regex: #regex, replace: #replace
                })
            }
        }));
        let redact = redact.iter().map(|Redaction { regex, replace }| {
            let (regex, replace) = (self.string(regex), self.string(replace));
            quote!(#pp::Redaction { regex: #regex, replace: #replace })
        });
        let feedback = self.opt_string(feedback);
        let continue_with = self.opt_string(continue_with);
        let halt = self.opt_string(halt);
        let run = opt(run.as_ref().map(
            |RunSpec {
                 command,
                 timeout_ms,
                 on_error,
                 env,
                 detached,
             }| {
                let command = self.string(command);
                let on_error = variant(quote!(#pp::OnError), on_error);
                let env = env.iter().map(|(k, v)| {
                    let (k, v) = (self.string(k), self.string(v));
                    quote!((#k, #v))
                });
                quote!(#pp::RunSpec {
                    command: #command, timeout_ms: #timeout_ms, on_error: #on_error,
                    env: ::std::vec![#(#env),*], detached: #detached,
                })
            },
        ));
        quote!(#pp::Action {
            decision: #decision,
            reason: #reason,
            context: #context,
            rewrite: #rewrite,
            redact: ::std::vec![#(#redact),*],
            feedback: #feedback,
            continue_with: #continue_with,
            max_continuations: #max_continuations,
            halt: #halt,
            run: #run,
            suppress_prompt: #suppress_prompt,
            observe: #observe,
        })
    }

    fn rule(&self, r: &Rule) -> TokenStream {
        let p = &self.p;
        let Rule {
            id,
            kind,
            seam,
            matcher,
            when,
            unless,
            action,
            source,
            policy,
        } = r;
        let id = self.string(id);
        let kind = variant(quote!(#p::policy::RuleKind), kind);
        let seam = variant(quote!(#p::Seam), seam);
        let matcher = self.matcher(matcher);
        let when = self.opt_pred(when);
        let unless = self.opt_pred(unless);
        let action = self.action(action);
        let source = self.source(source);
        quote!(#p::policy::Rule {
            id: #id, kind: #kind, seam: #seam, matcher: #matcher, when: #when,
            unless: #unless, action: #action, source: #source, policy: #policy,
        })
    }

    fn policy_test(&self, t: &PolicyTest) -> TokenStream {
        let p = &self.p;
        let PolicyTest {
            name,
            payload,
            dialect,
            expect,
            reason_contains,
            rules,
            not_rules,
            earlier,
            home,
            project,
            source,
        } = t;
        let name = self.string(name);
        let payload = self.value(payload);
        let dialect = opt(dialect.as_ref().map(|d| variant(quote!(#p::Dialect), d)));
        let expect = self.string(expect);
        let reason_contains = self.opt_string(reason_contains);
        let rules = self.strings(rules);
        let not_rules = self.strings(not_rules);
        let earlier = earlier.iter().map(|v| self.value(v));
        let home = self.opt_string(home);
        let project = self.opt_string(project);
        let source = self.source(source);
        quote!(#p::policy::PolicyTest {
            name: #name, payload: #payload, dialect: #dialect, expect: #expect,
            reason_contains: #reason_contains, rules: #rules, not_rules: #not_rules,
            earlier: ::std::vec![#(#earlier),*], home: #home, project: #project,
            source: #source,
        })
    }

    fn diagnostic(&self, d: &PolicyError) -> TokenStream {
        let p = &self.p;
        let severity = variant(quote!(#p::policy::Severity), &d.severity);
        let file = self.arc(&d.file);
        let (line, column) = (d.line, d.column);
        let message = self.string(&d.message);
        let snippet = self.opt_string(&d.snippet);
        let width = d.width;
        let note = self.opt_string(&d.note);
        quote!(#p::policy::PolicyError {
            severity: #severity, file: #file, line: #line, column: #column,
            message: #message, snippet: #snippet, width: #width, note: #note,
        })
    }

    /// The whole loaded policy.
    pub(crate) fn loaded(&self, lp: &LoadedPolicy) -> TokenStream {
        let p = &self.p;
        let meta = self.meta(&lp.meta);
        // Each rule and example is built in its own function: one expression for a whole
        // folder of policies needs more than a 2 MiB (test thread) stack in debug builds.
        let rules = lp.rules.iter().map(|r| {
            let r = self.rule(r);
            quote!({
                fn __seamguard_rule() -> #p::policy::Rule {
                    #r
                }
                __seamguard_rule()
            })
        });
        let tests = lp.tests.iter().map(|t| {
            let t = self.policy_test(t);
            quote!({
                fn __seamguard_test() -> #p::policy::PolicyTest {
                    #t
                }
                __seamguard_test()
            })
        });
        let diags = lp.diagnostics.iter().map(|d| self.diagnostic(d));
        quote!(#p::policy::LoadedPolicy {
            meta: #meta,
            rules: ::std::vec![#(#rules),*],
            tests: ::std::vec![#(#tests),*],
            diagnostics: ::std::vec![#(#diags),*],
        })
    }
}
