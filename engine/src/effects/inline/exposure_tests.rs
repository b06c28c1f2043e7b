//! The exposure walk: command lines running inline code to the reads of the environment
//! (with their `via`) and the `unsure` causes it adds.

use crate::effects::dispatch::shell_value;
use crate::effects::{Effects, What};
use crate::shell_env::ShellEnv;

/// The exposure steps of a Bash command line run in `/home/u/p`: the last `via` of each read
/// of the environment, and each `unsure` cause.
fn exposed(line: &str) -> Vec<String> {
    let env = ShellEnv::new(Some("/home/u/p".into()), "/home/u");
    let mut fx = Effects::default();
    shell_value(
        "Bash",
        "",
        &serde_json::Value::String(line.to_string()),
        Some("/home/u/p"),
        &env,
        &mut fx,
    );
    fx.list
        .iter()
        .filter_map(|e| match &e.what {
            What::Read(p) if p.text == "/proc/self/environ" => e.route.via.last().cloned(),
            What::Unsure(u) => Some(format!("unsure: {u}")),
            _ => None,
        })
        .collect()
}

#[test]
fn secret_variables_printed_or_written_are_reads_of_the_environment() {
    let cases: &[(&str, &[&str])] = &[
        (
            r#"python3 -c 'import os;print(os.environ["GITHUB_"+"TOKEN"])'"#,
            &["a secret variable printed ($GITHUB_TOKEN)"],
        ),
        (
            r#"python3 -c 'import os;k="STRIPE_SECRET_KEY";v=os.getenv(k);print(f"k={v}".upper())'"#,
            &["a secret variable printed ($STRIPE_SECRET_KEY)"],
        ),
        (
            r#"python3 -c 'import os,sys;sys.stderr.write("".join([os.environ.get("NPM_TOKEN")]))'"#,
            &["a secret variable printed ($NPM_TOKEN)"],
        ),
        (
            r#"node -e 'console.log(process.env.NPM_TOKEN)'"#,
            &["a secret variable printed ($NPM_TOKEN)"],
        ),
        (
            r#"node -e 'const p="OPENAI_";console.log(`${process.env[p+"API_KEY"]}`)'"#,
            &["a secret variable printed ($OPENAI_API_KEY)"],
        ),
        (
            r#"deno eval 'console.log(Deno.env.get("GITHUB_TOKEN"))'"#,
            &["a secret variable printed ($GITHUB_TOKEN)"],
        ),
        (
            r#"python3 -c 'import os; print(dict(os.environ))'"#,
            &["the whole environment printed"],
        ),
        (
            r#"node -e 'console.log(JSON.stringify(process.env))'"#,
            &["the whole environment printed"],
        ),
        (
            r#"python3 -c 'import os;open("t.txt","w").write(os.getenv("AWS_SECRET_ACCESS_KEY"))'"#,
            &["a secret variable written into a file ($AWS_SECRET_ACCESS_KEY)"],
        ),
        (
            r#"python3 -c 'import os;f=open("t.txt","a");print(os.environ["DB_PASSWORD"], file=f)'"#,
            &["a secret variable written into a file ($DB_PASSWORD)"],
        ),
        (
            r#"node -e 'require("fs").writeFileSync("t", process.env.GITHUB_TOKEN)'"#,
            &["a secret variable written into a file ($GITHUB_TOKEN)"],
        ),
        (
            r#"python3 -c 'import os;print(os.environ[input()])'"#,
            &[
                "unsure: `print` prints an environment variable whose name is known only at run time",
            ],
        ),
        (
            r#"node -e 'const k=require("fs").readFileSync("k","utf8");console.log(process.env[k])'"#,
            &[
                "unsure: `console.log` prints an environment variable whose name is known only at run time",
            ],
        ),
    ];
    for (line, want) in cases {
        assert_eq!(exposed(line), *want, "{line}");
    }
}

#[test]
fn ordinary_variables_and_secrets_only_used_expose_nothing() {
    for line in [
        r#"python3 -c 'import os;print(os.environ.get("HOME"), os.environ["PATH"], os.getenv("DEBUG"))'"#,
        r#"python3 -c 'import os;print(os.environ["TOKENIZERS_PARALLELISM"], os.getenv("SSH_AUTH_SOCK"))'"#,
        r#"python3 -c 'import os,requests;print(requests.get("https://api.github.com/user", headers={"Authorization": os.environ["GITHUB_TOKEN"]}).json())'"#,
        r#"python3 -c 'import os;print("set" if os.getenv("GITHUB_TOKEN") else "unset", len(os.environ["NPM_TOKEN"]), "X_TOKEN" in os.environ, os.getenv("A_TOKEN") is None)'"#,
        r#"python3 -c 'import os;print(os.environ.keys())'"#,
        r#"node -e 'const {Octokit}=require("@octokit/rest");const o=new Octokit({auth: process.env.GITHUB_TOKEN});o.rest.users.getAuthenticated().then(r=>console.log(r.data))'"#,
        r#"node -e 'console.log(process.env.NPM_TOKEN ? "set" : "unset", process.env.NPM_TOKEN.length, process.env.X_TOKEN === undefined, !!process.env.Y_TOKEN)'"#,
        r#"node -e 'console.log(process.env.NODE_ENV, Object.keys(process.env))'"#,
    ] {
        assert_eq!(exposed(line), Vec::<String>::new(), "{line}");
    }
}
