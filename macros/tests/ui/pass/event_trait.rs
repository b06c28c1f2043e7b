// `seamguard::Event` is both the derive and the trait: one import serves both.
use seamguard::Event;
use seamguard::harness::EventHandler;

#[derive(Event)]
struct Derived;

struct ByHand;

impl Event for ByHand {
    const NAME: &'static str = "by-hand";
    type Decision = u32;
    fn reduce<'a>(
        event: &'a Self,
        handlers: &'a [EventHandler<Self>],
    ) -> seamguard::harness::BoxFuture<'a, Option<u32>> {
        Box::pin(seamguard::harness::first_result(event, handlers))
    }
}

fn main() {
    assert_eq!(<Derived as Event>::NAME, "Derived");
    assert_eq!(<ByHand as seamguard::harness::Event>::NAME, "by-hand");
}
