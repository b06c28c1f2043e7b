//! "Did you mean …?" help for misspelled names: the one helper behind every such hint of the
//! loader, the CLI and the macros.

/// The candidate closest to `word` (Jaro–Winkler similarity above 0.8), if any.
///
/// # Examples
///
/// ```
/// use seamguard_policy::hint::did_you_mean;
///
/// assert_eq!(did_you_mean("pre_tool", ["pre-tool", "post-tool", "stop"]), Some("pre-tool"));
/// assert_eq!(did_you_mean("xyz", ["pre-tool", "stop"]), None);
/// ```
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(word, c), c))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// [`did_you_mean`] as the tail of a message: `; did you mean `X`?`, or empty.
pub fn suffix<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    did_you_mean(word, candidates)
        .map(|c| format!("; did you mean `{c}`?"))
        .unwrap_or_default()
}
