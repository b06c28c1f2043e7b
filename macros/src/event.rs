//! `#[derive(Event)]`: an application's own event with its decision type and reducer
//! (agent-harness seed: each event owns its result type; result-producing events need a
//! reducer, observational ones do not).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, LitStr};

struct Attrs {
    name: Option<LitStr>,
    decision: Option<syn::Type>,
    reducer: Option<syn::Path>,
    krate: Option<syn::Path>,
}

fn parse_attrs(input: &DeriveInput) -> syn::Result<Attrs> {
    let mut a = Attrs {
        name: None,
        decision: None,
        reducer: None,
        krate: None,
    };
    let mut errors: Option<syn::Error> = None;
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("event")) {
        let r = attr.parse_nested_meta(|meta| {
            let key = crate::hook::meta_key(&meta);
            match key.as_str() {
                "name" => a.name = crate::hook::meta_value(&meta)?,
                "decision" => a.decision = crate::hook::meta_value(&meta)?,
                "reducer" => a.reducer = crate::hook::meta_value(&meta)?,
                "crate" => a.krate = crate::hook::meta_value(&meta)?,
                _ => {
                    return Err(meta.error(format!(
                        "unknown key `{key}` in #[event(…)]; expected `name`, `decision`, \
                         `reducer` or `crate`"
                    )));
                }
            }
            Ok(())
        });
        if let Err(e) = r {
            match &mut errors {
                Some(all) => all.combine(e),
                None => errors = Some(e),
            }
        }
    }
    match errors {
        Some(e) => Err(e),
        None => Ok(a),
    }
}

/// The reducer call: `reducer` names an `async fn(&E, &[EventHandler<E>]) ->
/// Option<Decision>`, whose future is boxed; the future's output is checked against the
/// decision type (a reducer with the wrong return type is a type error on its path).
fn typed_reducer(h: &TokenStream, r: &syn::Path) -> TokenStream {
    quote_spanned! {r.span()=>
        let reduced: #h::BoxFuture<'a, ::core::option::Option<Self::Decision>> =
            ::std::boxed::Box::pin(#r(event, handlers));
        reduced
    }
}

pub(crate) fn expand(input: TokenStream) -> TokenStream {
    let input: DeriveInput = match syn::parse2(input) {
        Ok(i) => i,
        Err(e) => return e.to_compile_error(),
    };
    let attrs = match parse_attrs(&input) {
        Ok(a) => a,
        Err(e) => return e.to_compile_error(),
    };
    let krate = crate::hook::crate_path(attrs.krate.as_ref());
    let h = quote!(#krate::harness);
    let ident = &input.ident;
    let (impl_g, ty_g, where_g) = input.generics.split_for_impl();
    let name = attrs
        .name
        .as_ref()
        .map_or_else(|| ident.to_string(), LitStr::value);

    let (decision, body, error) = match (&attrs.decision, &attrs.reducer) {
        (Some(d), Some(r)) => (quote!(#d), typed_reducer(&h, r), None),
        (Some(d), None) => {
            let ty = quote!(#d).to_string().replace(' ', "");
            let e = syn::Error::new(
                d.span(),
                format!(
                    "event `{ident}` returns a decision (`{ty}`) but has no reducer: add \
                     `reducer = path::to::fn` with the signature \
                     `async fn(&{ident}, &[EventHandler<{ident}>]) -> Option<{ty}>` (result-producing \
                     events need a reducer: agent-harness seed, \"Reducers\")"
                ),
            );
            // Stub body so that code using the event reports no follow-on errors.
            (
                quote!(#d),
                quote!(::std::boxed::Box::pin(async {
                    ::core::option::Option::None
                })),
                Some(e.to_compile_error()),
            )
        }
        (None, Some(r)) => (quote!(()), typed_reducer(&h, r), None),
        (None, None) => (
            quote!(()),
            quote!(::std::boxed::Box::pin(#h::notify_all(event, handlers))),
            None,
        ),
    };
    quote! {
        #error
        impl #impl_g #h::Event for #ident #ty_g #where_g {
            const NAME: &'static str = #name;
            type Decision = #decision;
            fn reduce<'a>(
                event: &'a Self,
                handlers: &'a [#h::EventHandler<Self>],
            ) -> #h::BoxFuture<'a, ::core::option::Option<Self::Decision>> {
                #body
            }
        }
    }
}
