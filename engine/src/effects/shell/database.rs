//! Database clients: the SQL a client runs (`psql -c`, `mysql -e`, `sqlite3 DB SQL`, a heredoc
//! or pipe into one, `docker exec db psql -c …` once unwrapped) becomes `run`s of the program
//! `sql`, read by [`crate::effects::sql`] as for an MCP database tool; `-f FILE` is a read of
//! the file. SQL only known at run time is named as such.

use super::out::{Out, read};
use crate::effects::What;
use crate::effects::programs::database::{Sql, client, without_meta};
use crate::effects::sql;
use crate::shell::SimpleCommand;

/// The statements a database client runs.
pub(super) fn database(c: &SimpleCommand, out: &mut Out) {
    let Some(row) = client(c) else {
        return;
    };
    let who = c.basename().to_string();
    for s in row.sql(c) {
        match s {
            Sql::File(f) => read(&f, c, out),
            Sql::Text(t) => {
                let text = if row.meta {
                    without_meta(&t.text)
                } else {
                    t.text.clone()
                };
                if text.trim().is_empty() {
                    continue;
                }
                let statements = sql::statements(&text, false).unwrap_or_default();
                if t.dynamic
                    && statements
                        .iter()
                        .all(|st| !st.destructive && !st.credentials)
                    && text.trim_start().starts_with('$')
                {
                    out.push(What::Unsure(format!(
                        "the SQL given to {who} is only known at run time"
                    )));
                }
                for st in statements {
                    if let Some(why) = st.unparsed(&who) {
                        out.push(What::Unsure(why));
                    }
                    out.push(What::Run(st.run(c.cwd.as_deref())));
                }
            }
        }
    }
}
