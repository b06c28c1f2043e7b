// `seamguard::Event` is both the derive and the trait: one import serves both.
use seamguard::Event;
use seamguard::harness::EventHandler;

#[derive(Event)]
struct Derived;

struct ByHand;

impl Event for ByHand {
    const NAME: &'static str = "by-hand";
    type Decision = u32;
    fn reduce(event: &Self, handlers: &[EventHandler<Self>]) -> Option<u32> {
        seamguard::harness::first_result(event, handlers)
    }
}

fn main() {
    assert_eq!(<Derived as Event>::NAME, "Derived");
    assert_eq!(<ByHand as seamguard::harness::Event>::NAME, "by-hand");
}
