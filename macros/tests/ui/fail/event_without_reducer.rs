use seamguard::Event;

pub enum InputResult {
    Continue,
    Transform(String),
}

#[derive(Event)]
#[event(name = "input", decision = InputResult)]
pub struct InputEvent {
    pub text: String,
}

fn main() {}
