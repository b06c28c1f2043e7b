//! SQL statements: what one does to data, read the same way for every route (an MCP
//! database tool's `sql` argument, `psql -c`, `mysql -e`, `sqlite3 db 'SQL'`, a heredoc fed to a
//! client).
//!
//! In: SQL text. Out: its [`Statement`]s, each with its verb and whether it **destroys** data
//! (`DROP`, `TRUNCATE`, `ALTER … DROP`, a `DELETE` or `UPDATE` without `WHERE`, also inside a
//! `WITH`) or **prints credentials** (`SELECT *` from a credential table such as `auth.users`,
//! `mysql.user`, `pg_shadow`, `api_keys`; a column such as `password_hash`,
//! `encrypted_password`, `api_key`, `token`), as a `run` of the program `sql` whose argv is
//! the verb, `--destructive` / `--credentials`, and the statement: policies test it like any
//! program (`program = "sql"`, `flags_any = ["--destructive"]`).
//!
//! Statements are split and their verbs read by the lexical reading below (literals,
//! quoted names and comments blanked), then parsed with `sqlparser` (generic, PostgreSQL,
//! MySQL and SQLite dialects); the parse decides where it succeeds (a `WHERE` inside a
//! sub-query does not make an `UPDATE` of every row harmless). A statement that no dialect
//! parses keeps the lexical reading, and one whose verb changes data is named as
//! unparsed ([`Statement::unparsed`]): the call is unsure, so rules ask.

use sqlparser::ast::{
    AlterTableOperation, CopySource, Expr, ObjectType, Query, SelectItem, SetExpr,
    Statement as Ast, TableFactor, TableWithJoins,
};
use sqlparser::dialect::{Dialect, GenericDialect, MySqlDialect, PostgreSqlDialect, SQLiteDialect};
use sqlparser::parser::Parser;

use crate::shell::{Arg, SimpleCommand};

/// A statement's first keyword and whether it is a SQL statement the lens knows.
const SQL_VERBS: &[&str] = &[
    "select", "insert", "update", "delete", "drop", "truncate", "alter", "create", "replace",
    "merge", "upsert", "with", "grant", "revoke", "explain", "show", "describe", "desc", "pragma",
    "vacuum", "copy", "call", "exec", "execute", "begin", "commit", "rollback", "set", "use",
    "attach", "detach", "load", "rename", "comment", "analyze", "reindex", "lock", "unlock",
    "values", "table",
];

/// SQL text with string literals, quoted identifiers and comments blanked out.
fn sql_code(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' | '`' => {
                out.push(' ');
                for d in chars.by_ref() {
                    if d == c {
                        break;
                    }
                }
            }
            '-' if chars.peek() == Some(&'-') => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        break;
                    }
                }
                out.push(' ');
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut prev = ' ';
                for d in chars.by_ref() {
                    if prev == '*' && d == '/' {
                        break;
                    }
                    prev = d;
                }
                out.push(' ');
            }
            _ => out.push(c),
        }
    }
    out
}

/// One SQL statement: its verb, what it does to data, and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Statement {
    /// Its first keyword, lower case (`select`, `drop`).
    pub(crate) verb: String,
    /// It drops or truncates, deletes or updates every row, or drops a column.
    pub(crate) destructive: bool,
    /// It prints credentials: password hashes, tokens, keys.
    pub(crate) credentials: bool,
    /// The parser could not read it (the verb's reading above is all there is).
    pub(crate) parsed: bool,
    /// The database the statement names as its object (`DROP DATABASE app_test`), when it
    /// names exactly one: the statement works on it, whatever the connection's database.
    pub(crate) database: Option<String>,
    /// The statement as written.
    pub(crate) text: String,
}

/// The statements of SQL text, or `None` when it is not SQL. `strict`: the key alone
/// (`query`) does not say SQL, so each verb needs its statement's shape (`SELECT … FROM`,
/// `DELETE FROM`, `UPDATE … SET`, `DROP TABLE`).
pub(crate) fn statements(s: &str, strict: bool) -> Option<Vec<Statement>> {
    // Split at the semicolons that are code (not in a literal or a comment).
    let mut stmts = Vec::new();
    let mut start = 0usize;
    let mut bounds = Vec::new();
    let mut in_q: Option<char> = None;
    let mut line_comment = false;
    let mut block_comment = false;
    let bytes: Vec<(usize, char)> = s.char_indices().collect();
    let mut i = 0;
    while i < bytes.len() {
        let (pos, c) = bytes[i];
        let next = bytes.get(i + 1).map(|x| x.1);
        if let Some(q) = in_q {
            if c == q {
                in_q = None;
            }
        } else if line_comment {
            if c == '\n' {
                line_comment = false;
            }
        } else if block_comment {
            if c == '*' && next == Some('/') {
                block_comment = false;
                i += 1;
            }
        } else {
            match c {
                '\'' | '"' | '`' => in_q = Some(c),
                '-' if next == Some('-') => line_comment = true,
                '/' if next == Some('*') => block_comment = true,
                ';' => {
                    bounds.push((start, pos));
                    start = pos + 1;
                }
                _ => {}
            }
        }
        i += 1;
    }
    bounds.push((start, s.len()));
    for (a, b) in bounds {
        let text = s[a..b].trim();
        let code = sql_code(text);
        let toks: Vec<String> = code
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '*'))
            .filter(|t| !t.is_empty())
            .map(str::to_ascii_lowercase)
            .collect();
        let Some(verb) = toks.first() else {
            continue;
        };
        if !SQL_VERBS.contains(&verb.as_str()) {
            return None;
        }
        let has = |w: &str| toks.iter().any(|t| t == w);
        let second = toks.get(1).map(String::as_str).unwrap_or("");
        const OBJECTS: &[&str] = &[
            "table",
            "database",
            "schema",
            "index",
            "view",
            "user",
            "role",
            "function",
            "procedure",
            "trigger",
            "sequence",
            "extension",
            "type",
            "if",
            "or",
            "temp",
            "temporary",
            "unique",
            "materialized",
            "column",
            "collection",
            "keyspace",
        ];
        let shaped = match verb.as_str() {
            "select" => has("from") || toks.len() <= 3 && code.contains(['(', '*', '1']),
            "insert" | "replace" | "upsert" => has("into"),
            "update" => has("set"),
            "delete" => has("from"),
            "drop" | "create" | "alter" => OBJECTS.contains(&second),
            "truncate" => toks.len() >= 2,
            "with" => has("as") && code.contains('('),
            "merge" => has("into") && has("using"),
            _ => false,
        };
        if strict && !shaped {
            return None;
        }
        let destructive = match verb.as_str() {
            "drop" | "truncate" => true,
            "delete" | "update" => !has("where"),
            "alter" => has("drop"),
            "with" => has("drop") || has("truncate") || (has("delete") && !has("where")),
            _ => false,
        };
        let mut st = Statement {
            verb: verb.clone(),
            destructive,
            credentials: false,
            parsed: false,
            database: None,
            text: text.to_string(),
        };
        st.refine(&toks);
        stmts.push(st);
    }
    (!stmts.is_empty()).then_some(stmts)
}

/// Tables whose rows are credentials: any column printed prints one.
const CREDENTIAL_TABLES: &[&str] = &[
    "auth.users",
    "auth.identities",
    "auth.sessions",
    "auth.refresh_tokens",
    "mysql.user",
    "pg_shadow",
    "pg_authid",
    "pg_catalog.pg_shadow",
    "pg_catalog.pg_authid",
    "pg_user_mappings",
    "auth_user",
    "api_keys",
    "api_tokens",
    "access_tokens",
    "refresh_tokens",
    "personal_access_tokens",
    "oauth_access_tokens",
    "oauth_refresh_tokens",
    "oauth_tokens",
    "user_credentials",
    "credentials",
    "passwords",
    "secrets",
];

/// Column names that hold credentials (compared whole, lower case).
const CREDENTIAL_COLUMNS: &[&str] = &[
    "password",
    "passwd",
    "password_hash",
    "passwordhash",
    "hashed_password",
    "encrypted_password",
    "password_digest",
    "authentication_string",
    "rolpassword",
    "passwd_hash",
    "api_key",
    "apikey",
    "api_secret",
    "secret",
    "secret_key",
    "client_secret",
    "token",
    "access_token",
    "refresh_token",
    "auth_token",
    "session_token",
    "private_key",
    "otp_secret",
    "totp_secret",
    "mfa_secret",
    "recovery_codes",
];

/// The dialects a statement is parsed with, in order.
fn dialects() -> [&'static dyn Dialect; 4] {
    [
        &GenericDialect {},
        &PostgreSqlDialect {},
        &MySqlDialect {},
        &SQLiteDialect {},
    ]
}

/// Whether a table name is a credential table (`auth.users`, `"auth"."users"`, `api_keys`).
fn credential_table(name: &str) -> bool {
    let n = name.replace(['"', '`', '[', ']'], "").to_ascii_lowercase();
    CREDENTIAL_TABLES.iter().any(|t| {
        n == *t
            || (!t.contains('.') && n.rsplit('.').next() == Some(*t))
            || n.ends_with(&format!(".{t}"))
    })
}

/// Whether text (an expression, a column list) names a credential column.
fn names_credential_column(text: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| CREDENTIAL_COLUMNS.contains(&w.to_ascii_lowercase().as_str()))
}

/// The tables of a `FROM` list, joins included.
fn tables(from: &[TableWithJoins]) -> Vec<String> {
    let mut out = Vec::new();
    for t in from {
        for f in std::iter::once(&t.relation).chain(t.joins.iter().map(|j| &j.relation)) {
            if let TableFactor::Table { name, .. } = f {
                out.push(name.to_string());
            }
        }
    }
    out
}

/// What a query prints: whether it prints credentials.
fn query_credentials(q: &Query) -> bool {
    q.with
        .as_ref()
        .is_some_and(|w| w.cte_tables.iter().any(|c| query_credentials(&c.query)))
        || set_credentials(&q.body)
}

fn set_credentials(s: &SetExpr) -> bool {
    match s {
        SetExpr::Select(sel) => {
            let from = tables(&sel.from);
            sel.projection.iter().any(|item| match item {
                SelectItem::Wildcard(_) | SelectItem::QualifiedWildcard(..) => {
                    from.iter().any(|t| credential_table(t))
                }
                SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
                    expr_credentials(e, &from)
                }
            })
        }
        SetExpr::Query(q) => query_credentials(q),
        SetExpr::SetOperation { left, right, .. } => {
            set_credentials(left) || set_credentials(right)
        }
        SetExpr::Table(t) => t.table_name.as_deref().is_some_and(credential_table),
        _ => false,
    }
}

/// A printed expression: a credential column, or a whole row of a credential table
/// (`row_to_json(u)`, `to_jsonb(users.*)`).
fn expr_credentials(e: &Expr, from: &[String]) -> bool {
    let text = e.to_string();
    if let Expr::Subquery(q) = e {
        return query_credentials(q);
    }
    // Functions that turn whole rows into text (`count(*)` does not).
    const ROW_FUNCTIONS: &[&str] = &[
        "row_to_json",
        "to_json",
        "to_jsonb",
        "json_agg",
        "jsonb_agg",
        "array_agg",
        "string_agg",
        "group_concat",
        "json_arrayagg",
        "json_object",
    ];
    let row_function = match e {
        Expr::Function(f) => {
            ROW_FUNCTIONS.contains(&f.name.to_string().to_ascii_lowercase().as_str())
        }
        _ => false,
    };
    names_credential_column(&text) || (row_function && from.iter().any(|t| credential_table(t)))
}

/// The database a statement names as its object: `DROP DATABASE name` or
/// `CREATE DATABASE name` (one name, unqualified, quotes removed).
fn named_database(st: &Ast) -> Option<String> {
    let name = match st {
        Ast::Drop {
            object_type: ObjectType::Database,
            names,
            ..
        } => match names.as_slice() {
            [n] => n,
            _ => return None,
        },
        Ast::CreateDatabase { db_name, .. } => db_name,
        _ => return None,
    };
    match name.0.as_slice() {
        [part] => part.as_ident().map(|i| i.value.clone()),
        _ => None,
    }
}

/// Whether a parsed statement destroys data.
fn ast_destroys(st: &Ast) -> bool {
    match st {
        Ast::Drop { .. }
        | Ast::DropFunction { .. }
        | Ast::DropProcedure { .. }
        | Ast::DropTrigger { .. }
        | Ast::DropPolicy { .. }
        | Ast::DropExtension { .. }
        | Ast::DropSecret { .. }
        | Ast::DropDomain(..)
        | Ast::Truncate { .. } => true,
        Ast::Delete(d) => every_row(d.selection.as_ref()) && d.limit.is_none(),
        Ast::Update {
            selection, limit, ..
        } => every_row(selection.as_ref()) && limit.is_none(),
        Ast::AlterTable { operations, .. } => operations.iter().any(|op| {
            matches!(
                op,
                AlterTableOperation::DropColumn { .. } | AlterTableOperation::DropPartitions { .. }
            )
        }),
        Ast::Query(q) => query_destroys(q),
        _ => false,
    }
}

/// Whether a `WHERE` clause keeps every row: none, or one that is always true (`WHERE 1=1`,
/// `WHERE true`, `WHERE 'a' = 'a'`).
fn every_row(selection: Option<&Expr>) -> bool {
    let Some(e) = selection else {
        return true;
    };
    let t: String = e
        .to_string()
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '(' && *c != ')')
        .collect::<String>()
        .to_ascii_lowercase();
    if t == "true" || t == "1" {
        return true;
    }
    t.split_once('=').is_some_and(|(a, b)| {
        a == b && !a.is_empty() && !a.chars().any(|c| c.is_alphabetic() && !b.starts_with('\''))
    })
}

fn query_destroys(q: &Query) -> bool {
    q.with
        .as_ref()
        .is_some_and(|w| w.cte_tables.iter().any(|c| query_destroys(&c.query)))
        || set_destroys(&q.body)
}

fn set_destroys(s: &SetExpr) -> bool {
    match s {
        SetExpr::Insert(st) | SetExpr::Update(st) | SetExpr::Delete(st) | SetExpr::Merge(st) => {
            ast_destroys(st)
        }
        SetExpr::Query(q) => query_destroys(q),
        SetExpr::SetOperation { left, right, .. } => set_destroys(left) || set_destroys(right),
        _ => false,
    }
}

/// Whether a parsed statement prints credentials.
fn ast_credentials(st: &Ast) -> bool {
    match st {
        Ast::Query(q) => query_credentials(q),
        Ast::Copy { source, to, .. } => {
            *to && match source {
                CopySource::Table {
                    table_name,
                    columns,
                } => {
                    credential_table(&table_name.to_string())
                        || columns.iter().any(|c| names_credential_column(&c.value))
                }
                CopySource::Query(q) => query_credentials(q),
            }
        }
        _ => false,
    }
}

/// Verbs whose statements only read or set up a session: one that does not parse is left
/// to the lexical reading.
const READING_VERBS: &[&str] = &[
    "select", "explain", "show", "describe", "desc", "pragma", "begin", "commit", "rollback",
    "set", "use", "values", "table", "analyze", "create", "insert", "comment", "vacuum", "reindex",
    "lock", "unlock", "attach", "detach", "load", "call", "exec", "execute",
];

impl Statement {
    /// Decide by the parser where a dialect parses the statement; else keep the lexical
    /// reading (`toks`: its lower-case words, literals and comments left out).
    fn refine(&mut self, toks: &[String]) {
        for d in dialects() {
            let Ok(parsed) = Parser::parse_sql(d, &self.text) else {
                continue;
            };
            if parsed.is_empty() {
                continue;
            }
            self.parsed = true;
            self.destructive = parsed.iter().any(ast_destroys);
            self.credentials = parsed.iter().any(ast_credentials);
            self.database = match parsed.as_slice() {
                [st] => named_database(st),
                _ => None,
            };
            return;
        }
        // Unparsed: a credential column or table named in a reading statement.
        if matches!(self.verb.as_str(), "select" | "copy" | "with" | "table") {
            let from = toks.iter().skip_while(|t| t.as_str() != "from").nth(1);
            self.credentials = toks
                .iter()
                .take_while(|t| t.as_str() != "from")
                .any(|t| CREDENTIAL_COLUMNS.contains(&t.as_str()))
                || from.is_some_and(|t| credential_table(t));
        }
    }

    /// Why the statement is unsure: no dialect parses it and its verb may change data (a
    /// destroying one already says so). `who`: the tool or client that runs it.
    pub(crate) fn unparsed(&self, who: &str) -> Option<String> {
        (!self.parsed && !self.destructive && !READING_VERBS.contains(&self.verb.as_str())).then(
            || {
                let mut shown: String = self.text.chars().take(80).collect();
                if shown.len() < self.text.len() {
                    shown.push('…');
                }
                format!("cannot parse the SQL statement `{shown}` given to {who}")
            },
        )
    }

    /// The statement as a `run` of the program `sql`: the verb, `--destructive`,
    /// `--credentials`, `--local-dev` when `local_dev` (a development or test database on
    /// this machine, see [`local_dev`](crate::effects::programs::database::local_dev)), the
    /// text; `cwd`: the folder the call runs in.
    pub(crate) fn run(&self, cwd: Option<&str>, local_dev: bool) -> SimpleCommand {
        let arg = |t: &str| Arg {
            text: t.to_string(),
            dynamic: false,
        };
        let mut args = vec![arg(&self.verb)];
        if self.destructive {
            args.push(arg("--destructive"));
        }
        if self.credentials {
            args.push(arg("--credentials"));
        }
        if local_dev {
            args.push(arg("--local-dev"));
        }
        args.push(arg(&self.text));
        SimpleCommand::plain("sql", args, cwd)
    }
}

#[cfg(test)]
#[path = "sql_tests.rs"]
mod tests;
