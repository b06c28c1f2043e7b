fn main() {
    let _table = seamguard::policy!("syntax.toml");
}
