//! The languages the inline-code lens reads: their names in reasons and their tree-sitter
//! grammars (cmd.exe, Perl, Ruby, PHP, Lua, awk, R, Julia and AppleScript are read without one). Program rows name
//! them for `-c CODE` options and standard-input runners.

/// The language of a piece of inline code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Language {
    /// Python 2 or 3.
    Python,
    /// JavaScript (Node, Bun).
    JavaScript,
    /// TypeScript (Deno, `tsx`, `ts-node`).
    TypeScript,
    /// PowerShell (`pwsh -Command`, `powershell.exe -EncodedCommand`, the `PowerShell`
    /// tool).
    PowerShell,
    /// A cmd.exe line (`cmd /c`): read without a grammar.
    Cmd,
    /// Perl 5 (`perl -e`): read by the token scanner (`inline::scan`).
    Perl,
    /// Ruby (`ruby -e`): read by the token scanner.
    Ruby,
    /// PHP (`php -r`): read by the token scanner.
    Php,
    /// Lua (`lua -e`): read by the token scanner.
    Lua,
    /// An awk program (`awk 'PROG'`, `gawk -e PROG`): read by the token scanner.
    Awk,
    /// R (`Rscript -e`, `R -e`): read by the token scanner.
    R,
    /// Julia (`julia -e`, `julia -E`): read by the token scanner.
    Julia,
    /// AppleScript (`osascript -e`, `osascript <<EOF`): read by its own reader
    /// (`inline::applescript`). JavaScript for Automation (`osascript -l JavaScript`) is
    /// [`Language::JavaScript`].
    AppleScript,
}

impl Language {
    /// The name used in reasons.
    pub(super) fn name(self) -> &'static str {
        match self {
            Language::Python => "Python",
            Language::JavaScript => "JavaScript",
            Language::TypeScript => "TypeScript",
            Language::PowerShell => "PowerShell",
            Language::Cmd => "cmd.exe",
            Language::Perl => "Perl",
            Language::Ruby => "Ruby",
            Language::Php => "PHP",
            Language::Lua => "Lua",
            Language::Awk => "awk",
            Language::R => "R",
            Language::Julia => "Julia",
            Language::AppleScript => "AppleScript",
        }
    }

    /// The tree-sitter grammar (`None` for cmd.exe and the languages of the token scanner,
    /// read without one).
    pub(super) fn grammar(self) -> Option<tree_sitter::Language> {
        Some(match self {
            Language::Python => tree_sitter_python::LANGUAGE.into(),
            Language::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Language::PowerShell => tree_sitter_powershell::LANGUAGE.into(),
            Language::Cmd
            | Language::Perl
            | Language::Ruby
            | Language::Php
            | Language::Lua
            | Language::Awk
            | Language::R
            | Language::Julia
            | Language::AppleScript => return None,
        })
    }
}
