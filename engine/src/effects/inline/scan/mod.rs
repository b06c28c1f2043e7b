//! The token scanner of the inline-code lens: Perl, Ruby, PHP, Lua, awk, R and Julia code,
//! read without a grammar.
//!
//! In: the code text, its [`Language`] and the [`Collect`] of the lens (the argument vector
//! the code sees). Out: into the [`Collect`], the command lines and argument lists the code
//! runs and an `unsure` for each one it only computes at run time ([`calls`]); the lens
//! pushes them through the dispatcher as nested shell lines, so every shell rule judges them.
//!
//! The workspace has no tree-sitter grammar of these languages; rather than five more C
//! grammars to build, one small tokenizer ([`lex`]) that respects each language's strings,
//! quote-like operators, interpolation, regular expressions and comments reads all of them
//! (heredocs inside the code are not read), and one table per language names the calls that
//! run commands or open files ([`calls`], [`files`]). Code longer than [`MAX_CODE`] is `unsure`. File reads and writes in this
//! code are not read here (the policy rules that read the command text still apply).

mod calls;
mod files;
mod lex;
#[cfg(test)]
mod r_julia_indirect_tests;
#[cfg(test)]
mod r_julia_tests;
#[cfg(test)]
mod tests;

use super::collect::Collect;
use super::parse::MAX_CODE;
use crate::effects::language::Language;

/// Whether the scanner reads `lang`: every language without a parser grammar
/// ([`Language::grammar`]) but cmd.exe and AppleScript, which have lenses of their own (one
/// list of the grammar-less languages, not a second one here).
pub(super) fn reads(lang: Language) -> bool {
    lang.grammar().is_none() && !matches!(lang, Language::Cmd | Language::AppleScript)
}

/// Add what `code` in `lang` runs to `cx`; `who` names the command that runs it.
pub(super) fn effects(lang: Language, code: &str, who: &str, cx: &mut Collect<'_>) {
    if code.len() > MAX_CODE {
        cx.unsure(format!(
            "the {} code of `{who}` is longer than {} KiB and is not read",
            lang.name(),
            MAX_CODE / 1024
        ));
        return;
    }
    // A PHP file (or standard input) is output up to its first `<?php` tag.
    let code = match lang {
        Language::Php => code
            .find("<?php")
            .or_else(|| code.find("<?="))
            .map_or(code, |k| &code[k..]),
        _ => code,
    };
    let toks = lex::lex(lang, code);
    calls::read(lang, &toks, cx);
}
