//! SQL statements: what destroys data, what prints credentials, what stays quiet.

use super::statements;

/// `verb destructive credentials` of each statement of `sql` (read as a client's SQL).
fn read(sql: &str) -> Vec<(String, bool, bool)> {
    statements(sql, false)
        .unwrap_or_default()
        .into_iter()
        .map(|s| (s.verb, s.destructive, s.credentials))
        .collect()
}

fn destroys(sql: &str) -> bool {
    read(sql).iter().any(|s| s.1)
}

fn credentials(sql: &str) -> bool {
    read(sql).iter().any(|s| s.2)
}

#[test]
fn destroying_statements() {
    for sql in [
        "DROP TABLE users",
        "drop schema public cascade;",
        "DROP DATABASE app",
        "TRUNCATE TABLE audit_log",
        "TRUNCATE orders, payments RESTART IDENTITY",
        "DELETE FROM auth.users",
        "delete from orders;",
        "UPDATE users SET is_admin = true",
        "UPDATE users SET name = (SELECT name FROM t WHERE id = 1)",
        "ALTER TABLE users DROP COLUMN email",
        "WITH gone AS (DELETE FROM sessions RETURNING *) SELECT count(*) FROM gone",
        "SELECT 1; DROP TABLE x",
        "DELETE FROM users WHERE 1=1",
        "delete from users where (1 = 1)",
        "UPDATE users SET role = 'admin' WHERE true",
        "DELETE FROM t WHERE 'a' = 'a'",
    ] {
        assert!(destroys(sql), "{sql}");
    }
}

#[test]
fn everyday_statements_destroy_nothing() {
    for sql in [
        "SELECT count(*) FROM orders",
        "select * from orders where id = 7",
        "CREATE TABLE t (id int primary key)",
        "INSERT INTO log(msg) VALUES ('drop table later')",
        "UPDATE users SET name = 'x' WHERE id = 1",
        "DELETE FROM sessions WHERE expires_at < now()",
        "DELETE FROM t WHERE a = a",
        "UPDATE t SET x = 1 WHERE id = 1",
        "ALTER TABLE users ADD COLUMN bio text",
        "EXPLAIN ANALYZE SELECT * FROM orders",
        "BEGIN; UPDATE accounts SET balance = balance - 1 WHERE id = 2; COMMIT;",
    ] {
        assert!(!destroys(sql), "{sql}");
        assert!(!credentials(sql), "{sql}");
    }
}

#[test]
fn credential_dumps() {
    for sql in [
        "SELECT * FROM auth.users",
        "select email, encrypted_password from auth.users limit 10",
        "SELECT email, password_hash FROM users",
        "SELECT u.email, u.password_hash FROM users u JOIN orgs o ON o.id = u.org_id",
        "SELECT user, authentication_string FROM mysql.user",
        "SELECT usename, passwd FROM pg_shadow",
        "SELECT key FROM api_keys UNION SELECT token FROM sessions",
        "COPY auth.users TO STDOUT WITH CSV",
        "SELECT * FROM \"auth\".\"users\"",
    ] {
        assert!(credentials(sql), "{sql}");
    }
    for sql in [
        "SELECT count(*) FROM auth.users",
        "SELECT id, email FROM users WHERE password_hash IS NULL",
        "SELECT * FROM users LIMIT 5",
        "SELECT id, created_at FROM api_keys_audit",
    ] {
        assert!(!credentials(sql), "{sql}");
    }
}

#[test]
fn an_unparsed_statement_that_may_change_data_is_named() {
    let st = statements("DELETE FROM t WHERE id = = 1", false).unwrap_or_default();
    let why = st.first().and_then(|s| s.unparsed("psql"));
    assert!(why.is_some_and(|w| w.contains("cannot parse") && w.contains("psql")));
    // A reading statement that does not parse is left to the lexical reading.
    let st = statements("SELECT FROM WHERE", false).unwrap_or_default();
    assert!(st.iter().all(|s| s.unparsed("psql").is_none()));
}

#[test]
fn the_database_a_statement_names() {
    let db = |s: &str| statements(s, false).unwrap_or_default()[0].database.clone();
    assert_eq!(db("DROP DATABASE app_test").as_deref(), Some("app_test"));
    assert_eq!(
        db("drop database if exists `shop_dev`").as_deref(),
        Some("shop_dev")
    );
    assert_eq!(db("CREATE DATABASE app_test").as_deref(), Some("app_test"));
    assert_eq!(db("DROP DATABASE a, b"), None);
    assert_eq!(db("DROP TABLE app_test"), None);
    assert_eq!(db("DROP SCHEMA app_test CASCADE"), None);
}
