//! IAM-style policy documents: the JSON `{"Statement": [...]}` that AWS IAM, S3 bucket
//! policies, SNS/SQS access policies and their kin share. A statement has an `Effect`
//! (`Allow` or `Deny`), an `Action`, a `Resource` (each a string or a list of strings) and
//! maybe a `Principal` (`"*"`, or a map such as `{"AWS": ["arn:…", "*"]}`). One reader serves
//! every lens that asks what a document allows, so they read the same statements the same way.

use serde_json::Value;

/// One statement of a policy document.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Statement(Value);

impl Statement {
    /// Whether the statement denies (`"Effect": "Deny"`, in any case). The grammar requires
    /// `Effect`; one left out is not read as a deny.
    fn denies(&self) -> bool {
        self.0
            .get("Effect")
            .and_then(Value::as_str)
            .is_some_and(|e| e.eq_ignore_ascii_case("deny"))
    }

    /// The strings of field `key` (`Action`, `Resource`, `NotAction`): one string alone or
    /// the strings of a list; nothing when the field is missing or of another kind.
    pub(crate) fn strings(&self, key: &str) -> Vec<&str> {
        strings_of(self.0.get(key))
    }

    /// The principals the statement names: `"*"` alone, a list, or every value of a map by
    /// kind (`{"AWS": ["arn:…", "*"], "Service": "s3.amazonaws.com"}`).
    pub(crate) fn principals(&self) -> Vec<&str> {
        match self.0.get("Principal") {
            Some(Value::Object(kinds)) => {
                kinds.values().flat_map(|v| strings_of(Some(v))).collect()
            }
            other => strings_of(other),
        }
    }
}

/// A string alone or the strings of a list.
fn strings_of(v: Option<&Value>) -> Vec<&str> {
    match v {
        Some(Value::String(s)) => vec![s.as_str()],
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// The statements of policy document `doc` that allow (`Deny` statements are left out):
/// `Statement` as one object or a list of them. `None`: `doc` is no JSON object with a
/// `Statement` (not JSON at all, or some other value).
pub(crate) fn allowing(doc: &str) -> Option<Vec<Statement>> {
    let doc: Value = serde_json::from_str(doc.trim()).ok()?;
    let list = match doc.get("Statement")? {
        Value::Array(items) => items.iter().filter(|s| s.is_object()).cloned().collect(),
        s @ Value::Object(_) => vec![s.clone()],
        _ => Vec::new(),
    };
    Some(
        list.into_iter()
            .map(Statement)
            .filter(|s| !s.denies())
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `Action` strings of each allowing statement of `doc`.
    fn actions(doc: &str) -> Option<Vec<Vec<String>>> {
        allowing(doc).map(|list| {
            list.iter()
                .map(|s| s.strings("Action").into_iter().map(String::from).collect())
                .collect()
        })
    }

    #[test]
    fn one_statement_object_or_a_list() {
        assert_eq!(
            actions(r#"{"Statement":{"Effect":"Allow","Action":"*","Resource":"*"}}"#),
            Some(vec![vec!["*".to_string()]])
        );
        assert_eq!(
            actions(
                r#" {"Statement":[{"Effect":"Allow","Action":"s3:GetObject"},{"Action":["iam:*","ec2:*"]}]} "#
            ),
            Some(vec![
                vec!["s3:GetObject".to_string()],
                vec!["iam:*".to_string(), "ec2:*".to_string()]
            ])
        );
    }

    #[test]
    fn fields_are_a_string_or_a_list() {
        let list = allowing(
            r#"{"Statement":[{"Effect":"Allow","Action":["s3:GetObject",7],"Resource":"arn:aws:s3:::b/*","Principal":{"AWS":["arn:aws:iam::1:root","*"],"Service":"s3.amazonaws.com"}}]}"#,
        )
        .unwrap_or_default();
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].strings("Action"), vec!["s3:GetObject"]);
        assert_eq!(list[0].strings("Resource"), vec!["arn:aws:s3:::b/*"]);
        assert_eq!(list[0].strings("NotAction"), Vec::<&str>::new());
        assert_eq!(
            list[0].principals(),
            vec!["arn:aws:iam::1:root", "*", "s3.amazonaws.com"]
        );
        let star =
            allowing(r#"{"Statement":{"Principal":"*","Action":{"x":1}}}"#).unwrap_or_default();
        assert_eq!(star.len(), 1);
        assert_eq!(star[0].principals(), vec!["*"]);
        assert_eq!(star[0].strings("Action"), Vec::<&str>::new());
    }

    #[test]
    fn deny_statements_are_left_out() {
        assert_eq!(
            actions(
                r#"{"Statement":[{"Effect":"Deny","Action":"*"},{"Effect":"deny","Action":"iam:*"},{"Effect":"Allow","Action":"s3:ListBucket"}]}"#
            ),
            Some(vec![vec!["s3:ListBucket".to_string()]])
        );
        assert_eq!(
            actions(r#"{"Statement":{"Effect":"Deny","Principal":"*","Action":"*"}}"#),
            Some(vec![])
        );
    }

    #[test]
    fn not_a_policy_document_is_none() {
        assert_eq!(allowing(r#"{"Statement":[{"Effect":"Allow""#), None);
        assert_eq!(allowing("0.0.0.0/0"), None);
        assert_eq!(allowing(r#""*""#), None);
        assert_eq!(allowing(r#"{"Version":"2012-10-17"}"#), None);
        // A `Statement` of another kind is a document with no statements.
        assert_eq!(allowing(r#"{"Statement":"*"}"#), Some(vec![]));
        assert_eq!(allowing(r#"{"Statement":["*",3]}"#), Some(vec![]));
    }
}
