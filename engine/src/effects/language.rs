//! The languages the inline-code lens reads: their names in reasons and their tree-sitter
//! grammars. Program rows name them for `-c CODE` options and standard-input runners.

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
        }
    }

    /// The tree-sitter grammar (`None` for cmd.exe, read without one).
    pub(super) fn grammar(self) -> Option<tree_sitter::Language> {
        Some(match self {
            Language::Python => tree_sitter_python::LANGUAGE.into(),
            Language::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Language::PowerShell => tree_sitter_powershell::LANGUAGE.into(),
            Language::Cmd => return None,
        })
    }
}
