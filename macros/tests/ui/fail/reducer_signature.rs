use seamguard::Event;
use seamguard::harness::EventHandler;

// A reducer must return `Option<Decision>`.
async fn count(_e: &Tally, hs: &[EventHandler<Tally>]) -> u32 {
    hs.len() as u32
}

#[derive(Event)]
#[event(decision = u32, reducer = count)]
struct Tally;

fn main() {}
