// An invalid regex and an unknown key: one compile error each, naming file:line:column.
fn main() {
    let _table = seamguard::policy!("invalid.toml");
}
