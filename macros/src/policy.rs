//! `policy!("file.toml")`: load and validate a policy file at compile time with the engine's
//! own loader, and expand to a `&'static PolicyTable` built from constructors.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use seamguard_engine::policy::{Scope, Severity};
use syn::parse::{Parse, ParseStream};
use syn::{LitStr, Token};

use crate::ir::Gen;

struct Input {
    path: LitStr,
    krate: Option<syn::Path>,
}

impl Parse for Input {
    fn parse(input: ParseStream<'_>) -> syn::Result<Input> {
        let path: LitStr = input.parse()?;
        let mut krate = None;
        if input.parse::<Option<Token![,]>>()?.is_some() && !input.is_empty() {
            input.parse::<Token![crate]>()?;
            input.parse::<Token![=]>()?;
            krate = Some(input.parse()?);
            input.parse::<Option<Token![,]>>()?;
        }
        Ok(Input { path, krate })
    }
}

pub(crate) fn expand(input: TokenStream) -> TokenStream {
    match expand_inner(input) {
        Ok(t) => t,
        Err(e) => {
            // Several errors are several `compile_error!`s: keep them one expression.
            let errors = e.to_compile_error();
            quote!({ #errors ::core::unreachable!() })
        }
    }
}

fn expand_inner(input: TokenStream) -> syn::Result<TokenStream> {
    let Input { path, krate } = syn::parse2(input)?;
    let krate = krate.map_or_else(|| quote!(::seamguard), |p| quote!(#p));
    let rel = path.value();
    let dir = std::env::var("CARGO_MANIFEST_DIR").map_err(|_| {
        syn::Error::new(
            path.span(),
            "policy!: CARGO_MANIFEST_DIR is not set (build with cargo)",
        )
    })?;
    let mut abs = std::path::Path::new(&dir).join(&rel);
    if !abs.exists() {
        // Like `include_str!`: relative to the file that invokes the macro.
        if let Some(here) = proc_macro::Span::call_site()
            .local_file()
            .and_then(|f| f.parent().map(|d| d.join(&rel)))
            .filter(|p| p.exists())
        {
            abs = here;
        }
    }
    let src = std::fs::read_to_string(&abs).map_err(|e| {
        syn::Error::new(
            path.span(),
            format!("policy!: cannot read `{}`: {e}", abs.display()),
        )
    })?;
    // The rules' provenance names the file as written in the macro call.
    let loaded = seamguard_engine::load_str(&src, &rel, Scope::Embedded, 0);
    let mut errors: Option<syn::Error> = None;
    for d in loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
    {
        let e = syn::Error::new(path.span(), format!("policy!: {}", d.render()));
        match &mut errors {
            Some(all) => all.combine(e),
            None => errors = Some(e),
        }
    }
    if let Some(e) = errors {
        return Err(e);
    }
    let g = Gen {
        p: quote!(#krate::harness::__private),
    };
    let policy = g.loaded(&loaded);
    let abs_s = abs.display().to_string();
    let track = LitStr::new(&abs_s, Span::call_site());
    Ok(quote! {{
        // Recompile when the file changes.
        const _: &[u8] = ::core::include_bytes!(#track);
        static TABLE: ::std::sync::LazyLock<#krate::harness::PolicyTable> =
            ::std::sync::LazyLock::new(|| {
                #krate::harness::PolicyTable::from_policies(::std::vec![#policy])
            });
        let table: &'static #krate::harness::PolicyTable = &TABLE;
        table
    }})
}
