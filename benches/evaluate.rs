//! In-process evaluation benchmarks (see BENCHMARKS.md).
//!
//! A `PreToolUse` event is evaluated against generated policies of 10 / 100 / 1,000 / 10,000
//! pre-tool rules by:
//!
//! * `table`: [`DecisionTable::fire`], the indexed evaluator (one multi-pattern scan per
//!   field, anchored rules);
//! * `naive_precompiled`: a fair rule-by-rule baseline written here: every rule's regexes
//!   and globs are compiled once up front (`regex::Regex`, `globset::GlobMatcher`), then each
//!   rule is checked one by one in a loop;
//! * `naive_compiling`: [`DecisionTable::fire_naive`], the engine's reference evaluator,
//!   which compiles patterns on every call (deliberately slow; an upper bound);
//! * `engine_evaluate`: the full [`Engine::evaluate`] path (fire + merge + reasons).
//!
//! All evaluators run in the same process and the same run. After criterion, the bench
//! prints a summary (Instant-based medians, naive/table ratios, growth with the rule
//! count) in Markdown. Under `cargo test --benches` (criterion's test mode) every benchmark
//! runs once and the evaluators are cross-checked on every payload (10 / 100 / 1,000 rules
//! only, to stay quick in a debug build).
//!
//! Useful invocations:
//!
//! ```text
//! cargo bench --bench evaluate -- --quick            # a few minutes on 2 cores
//! cargo bench --bench evaluate -- table              # only the indexed evaluator
//! SEAMGUARD_BENCH_SIZES=10,100 cargo bench --bench evaluate
//! cargo test --benches                               # each benchmark once + cross-check
//! ```

mod common;

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion};
use globset::{GlobBuilder, GlobMatcher};
use regex::Regex;
use serde_json::{Value, json};

use seamguard_engine::policy::{Field, Pred, Test};
use seamguard_engine::{DecisionTable, Dialect, Engine, Matcher, Scope, Seam, load_str};

/// Rule counts measured by `cargo bench`.
const BENCH_SIZES: &[usize] = &[10, 100, 1_000, 10_000];
/// Rule counts in criterion's test mode (`cargo test --benches`, a debug build).
const TEST_SIZES: &[usize] = &[10, 100, 1_000];

fn die(msg: &str) -> ! {
    eprintln!("evaluate bench: {msg}");
    std::process::exit(1)
}

// ---------------------------------------------------------------------------------------
// Rule generation
// ---------------------------------------------------------------------------------------

const PROGRAMS: &str = "git cargo npm docker kubectl terraform rm curl wget ssh psql aws gcloud helm make python3 pip node yarn pnpm go rustup brew apt-get systemctl chmod chown scp rsync sudo";

const VERBS: &str = "push publish deploy delete apply install exec run drop destroy release upload rollout migrate prune reset clean login sync restore";

const DIRS: &str = "secrets credentials private vault infra deploy migrations certs backups keys";

const EXTS: &str = "pem key p12 sqlite env tfstate kdbx jks ovpn gpg";

const MCP_SERVERS: &str = "github slack postgres linear jira notion sentry stripe figma drive";

/// The `i`-th word of a space-separated `list`, cycling.
fn pick(list: &str, i: usize) -> &str {
    let n = list.split(' ').count();
    list.split(' ').nth(i % n).unwrap_or("x")
}

/// Hand-written rules present at every size; they make the payloads below fire something
/// (so the "rules that fire" path is measured, not only the "nothing fires" path).
const FIXED_RULES: &str = include_str!("data/fixed-rules.toml");

/// The rules of [`FIXED_RULES`], each ending in a newline.
fn fixed_rules() -> Vec<String> {
    FIXED_RULES
        .split_terminator("\n\n")
        .map(|r| format!("{r}\n"))
        .collect()
}

/// One generated rule. Every rule carries distinct literals (`{i}`) so that no two rules
/// are the same test; most do not fire on the benchmark payloads, as in a real policy set.
///
/// Mix (per 40 rules): 18 Bash `command` rules (regex / contains / prefix, every fifth with
/// an `unless`), 4 Read, 6 `Edit|Write`, 2 Write, 4 MCP (regex and exact matchers), 2
/// WebFetch `url`, 2 `Grep|Glob` `path`, 1 Bash rule under `any` (not indexable: checked
/// for every Bash event), 1 match-all rule on `tool_name`. Globs are 2 in 40 (5%).
fn generated_rule(i: usize) -> String {
    let prog = pick(PROGRAMS, i * 7);
    let verb = pick(VERBS, i * 3);
    let dir = pick(DIRS, i);
    let ext = pick(EXTS, i / 3);
    let server = pick(MCP_SERVERS, i / 2);
    let decision = if i.is_multiple_of(7) {
        "ask"
    } else if i.is_multiple_of(13) {
        "allow"
    } else {
        "deny"
    };
    let c = i % 40;
    let (tool, when, unless) = match c {
        0..18 => {
            let when = match c % 3 {
                0 => format!(
                    r"when.command = {{ regex = '\b{prog}\s+{verb}\b.*--profile[= ]p{i}\b' }}"
                ),
                1 => format!(r#"when.command = {{ contains = "{prog} {verb} --tag v{i}" }}"#),
                _ => format!(r#"when.command = {{ prefix = "{prog} {verb} job-{i}" }}"#),
            };
            let unless = i
                .is_multiple_of(5)
                .then(|| r#"unless.command = { contains = "--dry-run" }"#.to_string());
            ("Bash".to_string(), when, unless)
        }
        18..22 => {
            let when = if c.is_multiple_of(2) {
                format!(r"when.file_path = {{ regex = '/\.{dir}{i}/' }}")
            } else {
                format!(r#"when.file_path = {{ prefix = "/etc/{dir}{i}/" }}"#)
            };
            ("Read".to_string(), when, None)
        }
        22..28 => {
            let when = match c {
                22 => format!(r#"when.file_path = {{ glob = "**/{dir}-{i}/**" }}"#),
                23 | 24 => format!(r#"when.file_path = {{ contains = "/{dir}{i}/" }}"#),
                25 | 26 => format!(r"when.file_path = {{ regex = '\.{ext}{i}$' }}"),
                _ => format!(r#"when.file_path = {{ prefix = "/opt/{dir}{i}/" }}"#),
            };
            let unless =
                (c == 24).then(|| r#"unless.file_path = { prefix = "/tmp/" }"#.to_string());
            ("Edit|Write".to_string(), when, unless)
        }
        28 => (
            "Write".to_string(),
            format!(r#"when.file_path = {{ glob = "**/*.{ext}{i}" }}"#),
            None,
        ),
        29 => (
            "Write".to_string(),
            format!(r#"when.file_path = {{ equals = "/etc/{dir}{i}.conf" }}"#),
            None,
        ),
        30 | 31 => (
            format!("mcp__{server}__.*"),
            format!(r#"when.query = {{ contains = "repo-{i}" }}"#),
            None,
        ),
        32 => (
            format!("mcp__{server}__execute_sql"),
            format!(r#"when."/tool_input/sql" = {{ regex = '(?i)\bdrop\s+table\s+t{i}\b' }}"#),
            None,
        ),
        33 => (
            format!("mcp__{server}__create_issue"),
            format!(r#"when.query = {{ prefix = "project-{i}" }}"#),
            None,
        ),
        34 | 35 => (
            "WebFetch".to_string(),
            format!(r#"when.url = {{ prefix = "https://h{i}.example.com/" }}"#),
            None,
        ),
        36 | 37 => (
            "Grep|Glob".to_string(),
            format!(r#"when.path = {{ prefix = "/srv/{dir}{i}" }}"#),
            None,
        ),
        38 => (
            "Bash".to_string(),
            format!(
                r#"when.any = [{{ command = {{ contains = "{prog} --x{i}" }} }}, {{ command = {{ regex = '^{prog}\s+{verb}\s+z{i}' }} }}]"#
            ),
            None,
        ),
        _ => (
            "*".to_string(),
            format!(r"when.tool_name = {{ regex = '^mcp__{server}_{i}__' }}"),
            None,
        ),
    };
    let mut s =
        format!("[[rule]]\nid = \"gen-{i}\"\nseam = \"pre-tool\"\ntool = \"{tool}\"\n{when}\n");
    if let Some(u) = unless {
        s.push_str(&u);
        s.push('\n');
    }
    let _ = writeln!(
        s,
        "decision = \"{decision}\"\nreason = \"generated rule {i}\"\n"
    );
    s
}

/// A policy file with `n` pre-tool rules.
fn policy_toml(n: usize) -> String {
    let mut s = String::with_capacity(n * 200);
    s.push_str("[policy]\nname = \"bench\"\n\n");
    let fixed = fixed_rules();
    for r in fixed.iter().take(n) {
        s.push_str(r);
        s.push('\n');
    }
    for i in fixed.len()..n {
        s.push_str(&generated_rule(i));
    }
    s
}

// ---------------------------------------------------------------------------------------
// Payloads (shapes of /work/shared/data/samples/claude-input-1.json and -18.json)
// ---------------------------------------------------------------------------------------

fn bash_payload(command: &str, description: &str) -> Value {
    json!({
        "session_id": "7da73774-862d-4897-94a7-ef847ce65033",
        "transcript_path": "/home/user/.claude/projects/-home-user-project/7da73774-862d-4897-94a7-ef847ce65033.jsonl",
        "cwd": "/home/user/project",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": { "command": command, "description": description },
        "tool_use_id": "toolu_01F6ceCc6HBBz7YdiNVntZGk"
    })
}

fn edit_payload() -> Value {
    json!({
        "session_id": "cc87ee58-2544-4e23-9680-4159bdae6966",
        "transcript_path": "/home/user/.claude/projects/-home-user-project/cc87ee58-2544-4e23-9680-4159bdae6966.jsonl",
        "cwd": "/home/user/project",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Edit",
        "tool_input": {
            "file_path": "/home/user/project/engine/src/table.rs",
            "old_string": "    fn fire(&self, payload: &Value, subjects: &[&str]) -> Vec<u32> {\n        let mut buckets = Vec::with_capacity(4);",
            "new_string": "    fn fire(&self, payload: &Value, subjects: &[&str], kind: Option<RuleKind>) -> Vec<u32> {\n        let mut buckets = Vec::with_capacity(4);"
        },
        "tool_use_id": "toolu_01Lh3WmPZq3bX7kFvRrU9m2c"
    })
}

/// (name, payload) pairs. Each fires one fixed rule.
fn payloads() -> Vec<(&'static str, Value)> {
    vec![
        (
            "bash_git_status",
            bash_payload("git status", "Show working tree status"),
        ),
        (
            "bash_cargo_test",
            bash_payload(
                "cargo test --workspace --all-features -- --nocapture",
                "Run the test suite",
            ),
        ),
        ("edit_source", edit_payload()),
    ]
}

// ---------------------------------------------------------------------------------------
// The fair naive baseline: per-rule pre-compiled patterns, checked one rule at a time
// ---------------------------------------------------------------------------------------

enum NMatcher {
    All,
    Exact(Vec<String>),
    Regex(Regex),
}

enum NTest {
    Equals(Vec<Value>),
    Regex(Vec<Regex>),
    Glob(Vec<GlobMatcher>),
    Contains(Vec<String>),
    Prefix(Vec<String>),
}

enum NPred {
    All(Vec<NPred>),
    Any(Vec<NPred>),
    Not(Box<NPred>),
    Leaf(Field, NTest),
}

struct NaiveRule {
    global: u32,
    matcher: NMatcher,
    when: Option<NPred>,
    unless: Option<NPred>,
}

/// Compile one test; `None` for tests this baseline does not implement (e.g. shell-aware
/// tests; the generated policies do not use them).
fn compile_test(test: &Test) -> Option<NTest> {
    if let Test::Equals(v) = test {
        return Some(NTest::Equals(v.clone()));
    }
    if let Test::Regex(ps) = test {
        return ps
            .iter()
            .map(|p| Regex::new(p).ok())
            .collect::<Option<Vec<_>>>()
            .map(NTest::Regex);
    }
    if let Test::Glob(gs) = test {
        return gs
            .iter()
            .map(|g| {
                GlobBuilder::new(g)
                    .literal_separator(true)
                    .build()
                    .ok()
                    .map(|g| g.compile_matcher())
            })
            .collect::<Option<Vec<_>>>()
            .map(NTest::Glob);
    }
    if let Test::Contains(c) = test {
        return Some(NTest::Contains(c.to_vec()));
    }
    if let Test::Prefix(p) = test {
        return Some(NTest::Prefix(p.to_vec()));
    }
    None
}

fn compile_pred(p: &Pred) -> Option<NPred> {
    Some(match p {
        Pred::All(k) => NPred::All(k.iter().map(compile_pred).collect::<Option<_>>()?),
        Pred::Any(k) => NPred::Any(k.iter().map(compile_pred).collect::<Option<_>>()?),
        Pred::Not(x) => NPred::Not(Box::new(compile_pred(x)?)),
        // The bench's payloads hold no run-time-only part: `sure` is its child.
        Pred::Sure(x) => compile_pred(x)?,
        Pred::Leaf(l) => NPred::Leaf(l.field.clone(), compile_test(&l.test)?),
    })
}

fn compile_naive(table: &DecisionTable, seam: Seam) -> Vec<NaiveRule> {
    let mut out = Vec::new();
    for (g, r) in table.rules().iter().enumerate() {
        if r.seam != seam {
            continue;
        }
        let matcher = match &r.matcher {
            Matcher::All => NMatcher::All,
            Matcher::Exact(names) => NMatcher::Exact(names.clone()),
            Matcher::Regex(src) => match Regex::new(src) {
                Ok(re) => NMatcher::Regex(re),
                Err(e) => die(&format!("matcher `{src}` does not compile: {e}")),
            },
        };
        let compile = |p: Option<&Pred>| match p {
            None => None,
            Some(p) => match compile_pred(p) {
                Some(c) => Some(c),
                None => die(&format!(
                    "rule `{}` uses a test the naive baseline does not implement",
                    r.id
                )),
            },
        };
        let when = compile(r.when.as_ref());
        let unless = compile(r.unless.as_ref());
        out.push(NaiveRule {
            global: g as u32,
            matcher,
            when,
            unless,
        });
    }
    out
}

fn naive_test(field: &Field, test: &NTest, payload: &Value) -> bool {
    if let NTest::Equals(vals) = test
        && !vals.iter().all(Value::is_string)
    {
        let Some(v) = field.resolve(payload) else {
            return false;
        };
        return vals.iter().any(|x| x == v);
    }
    let Some(text) = field.resolve_text(payload) else {
        return false;
    };
    let text = text.as_ref();
    match test {
        NTest::Equals(v) => v.iter().any(|x| x.as_str() == Some(text)),
        NTest::Regex(rs) => rs.iter().any(|r| r.is_match(text)),
        NTest::Glob(gs) => gs.iter().any(|g| g.is_match(text)),
        NTest::Contains(cs) => cs.iter().any(|c| text.contains(c.as_str())),
        NTest::Prefix(ps) => ps.iter().any(|p| text.starts_with(p.as_str())),
    }
}

fn naive_eval(p: &NPred, payload: &Value) -> bool {
    match p {
        NPred::All(k) => k.iter().all(|x| naive_eval(x, payload)),
        NPred::Any(k) => k.iter().any(|x| naive_eval(x, payload)),
        NPred::Not(x) => !naive_eval(x, payload),
        NPred::Leaf(f, t) => naive_test(f, t, payload),
    }
}

/// Rule-by-rule evaluation with pre-compiled patterns (Claude Code dialect, tool-name
/// matchers; `kind = None`).
fn fire_precompiled(rules: &[NaiveRule], payload: &Value) -> Vec<u32> {
    let subject = payload
        .get("tool_name")
        .and_then(Value::as_str)
        .unwrap_or("");
    let mut out = Vec::new();
    for r in rules {
        let m = match &r.matcher {
            NMatcher::All => true,
            NMatcher::Exact(names) => names.iter().any(|n| n == subject),
            NMatcher::Regex(re) => re.is_match(subject),
        };
        if !m {
            continue;
        }
        let when = r.when.as_ref().is_none_or(|p| naive_eval(p, payload));
        if when && !r.unless.as_ref().is_some_and(|p| naive_eval(p, payload)) {
            out.push(r.global);
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------

struct Fixture {
    n: usize,
    engine: Engine,
    naive: Vec<NaiveRule>,
    load: Duration,
    compile: Duration,
}

impl Fixture {
    fn new(n: usize) -> Fixture {
        let src = policy_toml(n);
        let t0 = Instant::now();
        let policy = load_str(&src, "bench.toml", Scope::User, 0);
        let load = t0.elapsed();
        if let Some(d) = policy.diagnostics.first() {
            die(&format!(
                "generated policy ({n} rules) has diagnostics: {d}"
            ));
        }
        if policy.rules.len() != n {
            die(&format!(
                "generated {} rules, wanted {n}",
                policy.rules.len()
            ));
        }
        let table = DecisionTable::new(vec![policy]);
        let t1 = Instant::now();
        let errors = table.compile_all();
        let compile = t1.elapsed();
        if let Some(e) = errors.first() {
            die(&format!("table compile error at {n} rules: {e}"));
        }
        let naive = compile_naive(&table, Seam::PreTool);
        Fixture {
            n,
            engine: Engine::new(table),
            naive,
            load,
            compile,
        }
    }

    fn table(&self) -> &DecisionTable {
        self.engine.table()
    }

    fn fire(&self, p: &Value) -> Vec<u32> {
        self.table()
            .fire(Seam::PreTool, p, Dialect::ClaudeCode, None)
    }

    fn fire_naive_compiling(&self, p: &Value) -> Vec<u32> {
        self.table()
            .fire_naive(Seam::PreTool, p, Dialect::ClaudeCode, None)
    }

    fn fire_precompiled(&self, p: &Value) -> Vec<u32> {
        fire_precompiled(&self.naive, p)
    }

    /// All three evaluators agree, and something fires.
    fn cross_check(&self, name: &str, p: &Value) {
        let a = self.fire(p);
        let b = self.fire_precompiled(p);
        let c = self.fire_naive_compiling(p);
        if a != b || a != c {
            die(&format!(
                "{name} at {} rules: table {a:?}, naive_precompiled {b:?}, naive_compiling {c:?}",
                self.n
            ));
        }
        if a.is_empty() {
            die(&format!("{name} at {} rules: nothing fires", self.n));
        }
    }
}

fn sizes(test_mode: bool) -> Vec<usize> {
    if let Ok(s) = std::env::var("SEAMGUARD_BENCH_SIZES") {
        let v: Vec<usize> = s.split(',').filter_map(|x| x.trim().parse().ok()).collect();
        if !v.is_empty() {
            return v;
        }
    }
    if test_mode {
        TEST_SIZES.to_vec()
    } else {
        BENCH_SIZES.to_vec()
    }
}

// ---------------------------------------------------------------------------------------
// Criterion benchmarks
// ---------------------------------------------------------------------------------------

fn bench_all(c: &mut Criterion, fixtures: &[Fixture]) {
    for (name, payload) in payloads() {
        let mut g = c.benchmark_group(format!("pre_tool/{name}"));
        for f in fixtures {
            g.bench_with_input(BenchmarkId::new("table", f.n), &payload, |b, p| {
                b.iter(|| f.fire(black_box(p)));
            });
            g.bench_with_input(
                BenchmarkId::new("naive_precompiled", f.n),
                &payload,
                |b, p| b.iter(|| f.fire_precompiled(black_box(p))),
            );
            if name == "bash_git_status" {
                g.bench_with_input(
                    BenchmarkId::new("engine_evaluate", f.n),
                    &payload,
                    |b, p| {
                        b.iter(|| {
                            f.engine
                                .evaluate(Seam::PreTool, black_box(p), Dialect::ClaudeCode)
                        });
                    },
                );
            }
        }
        g.finish();
    }
    // The compiling reference evaluator is slow (it builds every regex and glob of every
    // candidate rule per call): its own group with the minimum sample size.
    let mut g = c.benchmark_group("pre_tool/bash_git_status/naive_compiling");
    g.sample_size(10);
    let payload = bash_payload("git status", "Show working tree status");
    for f in fixtures {
        g.bench_with_input(
            BenchmarkId::new("naive_compiling", f.n),
            &payload,
            |b, p| {
                b.iter(|| f.fire_naive_compiling(black_box(p)));
            },
        );
    }
    g.finish();
}

// ---------------------------------------------------------------------------------------
// Summary: same-run medians and ratios
// ---------------------------------------------------------------------------------------

/// Median time per call: batches sized to ~`batch` each, `rounds` batches.
fn median_per_call(mut f: impl FnMut(), batch: Duration, rounds: usize) -> Duration {
    // Calibrate.
    let t0 = Instant::now();
    f();
    let one = t0.elapsed().max(Duration::from_nanos(20));
    let per_batch = ((batch.as_nanos() / one.as_nanos()).max(1) as u32).min(1_000_000);
    for _ in 0..per_batch.min(1000) {
        f();
    }
    let mut samples: Vec<Duration> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..per_batch {
                f();
            }
            t.elapsed() / per_batch
        })
        .collect();
    samples.sort_unstable();
    samples.get(samples.len() / 2).copied().unwrap_or_default()
}

fn fmt_dur(d: Duration) -> String {
    let ns = d.as_nanos() as f64;
    if ns < 1_000.0 {
        format!("{ns:.0} ns")
    } else if ns < 1_000_000.0 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{:.2} ms", ns / 1e6)
    }
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_nanos() as f64 / (b.as_nanos() as f64).max(1.0)
}

fn summary(fixtures: &[Fixture]) {
    let batch = Duration::from_millis(2);
    println!();
    println!("## seamguard evaluate summary (same process; Instant-based medians)");
    println!();
    println!("| rules | load (TOML→IR) | compile pre-tool seam | naive rules precompiled |");
    println!("|---:|---:|---:|---:|");
    for f in fixtures {
        println!(
            "| {} | {} | {} | {} |",
            f.n,
            fmt_dur(f.load),
            fmt_dur(f.compile),
            f.naive.len()
        );
    }
    for (name, payload) in payloads() {
        println!();
        println!("### PreToolUse `{name}`");
        println!();
        println!(
            "| rules | fired | table | naive (precompiled) | naive (compiling) | engine.evaluate | precompiled/table | compiling/table |"
        );
        println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
        let mut first: Option<(usize, Duration, Duration)> = None;
        let mut last: Option<(usize, Duration, Duration)> = None;
        for f in fixtures {
            let fired = f.fire(&payload).len();
            let t = median_per_call(|| drop(black_box(f.fire(black_box(&payload)))), batch, 41);
            let p = median_per_call(
                || drop(black_box(f.fire_precompiled(black_box(&payload)))),
                batch,
                41,
            );
            // Slow: fewer, longer rounds.
            let c = median_per_call(
                || drop(black_box(f.fire_naive_compiling(black_box(&payload)))),
                Duration::from_millis(20),
                if f.n >= 10_000 { 5 } else { 9 },
            );
            let e = median_per_call(
                || {
                    drop(black_box(f.engine.evaluate(
                        Seam::PreTool,
                        black_box(&payload),
                        Dialect::ClaudeCode,
                    )))
                },
                batch,
                41,
            );
            println!(
                "| {} | {fired} | {} | {} | {} | {} | {:.1}× | {:.0}× |",
                f.n,
                fmt_dur(t),
                fmt_dur(p),
                fmt_dur(c),
                fmt_dur(e),
                ratio(p, t),
                ratio(c, t)
            );
            if first.is_none() {
                first = Some((f.n, t, p));
            }
            last = Some((f.n, t, p));
        }
        if let (Some((n0, t0, p0)), Some((n1, t1, p1))) = (first, last)
            && n1 > n0
        {
            let rules = n1 as f64 / n0 as f64;
            println!();
            println!(
                "Growth {n0} → {n1} rules ({rules:.0}× rules): table {:.1}×, naive (precompiled) {:.1}× — table is {}.",
                ratio(t1, t0),
                ratio(p1, p0),
                if ratio(t1, t0) < rules {
                    "sub-linear"
                } else {
                    "NOT sub-linear"
                }
            );
        }
    }
    println!();
}

fn main() {
    let (test_mode, listing) = common::modes();

    let t = Instant::now();
    let fixtures: Vec<Fixture> = sizes(test_mode).into_iter().map(Fixture::new).collect();
    if !listing {
        eprintln!(
            "evaluate bench: built {} fixtures in {:.1?}",
            fixtures.len(),
            t.elapsed()
        );
    }
    for f in &fixtures {
        for (name, p) in payloads() {
            f.cross_check(name, &p);
        }
    }

    let c = common::criterion(Duration::from_secs(2), 50);
    common::run(
        c,
        (test_mode, listing),
        |c| bench_all(c, &fixtures),
        || summary(&fixtures),
    );
}
