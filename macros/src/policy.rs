//! `policy!("file.toml")`: load and validate a policy file at compile time with the engine's
//! own loader, and expand to a `&'static PolicyTable` built from constructors.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use seamguard_policy::model::{Scope, Severity};
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
    // A folder means its `*.toml` files in name order (as `--policy DIR` does).
    let files: Vec<(std::path::PathBuf, String)> = if abs.is_dir() {
        let mut v: Vec<std::path::PathBuf> = std::fs::read_dir(&abs)
            .map_err(|e| {
                syn::Error::new(
                    path.span(),
                    format!("policy!: cannot read `{}`: {e}", abs.display()),
                )
            })?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "toml") && p.is_file())
            .collect();
        v.sort();
        v.into_iter()
            .map(|f| {
                let name = f
                    .file_name()
                    .map(|n| n.to_string_lossy().to_string())
                    .unwrap_or_default();
                let r = format!("{}/{name}", rel.trim_end_matches('/'));
                (f, r)
            })
            .collect()
    } else {
        vec![(abs.clone(), rel.clone())]
    };
    let mut policies = Vec::new();
    let mut tracks = Vec::new();
    let mut errors: Option<syn::Error> = None;
    let g = Gen {
        p: quote!(#krate::harness::__private),
    };
    let mut loaded_all = Vec::new();
    for (i, (file, file_rel)) in files.iter().enumerate() {
        let src = std::fs::read_to_string(file).map_err(|e| {
            syn::Error::new(
                path.span(),
                format!("policy!: cannot read `{}`: {e}", file.display()),
            )
        })?;
        // The rules' provenance names the file as written in the macro call.
        loaded_all.push(seamguard_policy::load_str(
            &src,
            file_rel,
            Scope::Embedded,
            i,
        ));
        tracks.push(LitStr::new(&file.display().to_string(), Span::call_site()));
    }
    // Named lists (`"@name"`) resolve across the files of the call, at compile time.
    seamguard_policy::lists::resolve(&mut loaded_all);
    for loaded in &loaded_all {
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
        // One function per policy (see `Gen::loaded`: bounded stack in debug builds).
        let policy = g.loaded(loaded);
        let p = &g.p;
        policies.push(quote!({
            fn __seamguard_policy() -> #p::policy::LoadedPolicy {
                #policy
            }
            __seamguard_policy()
        }));
    }
    if let Some(e) = errors {
        return Err(e);
    }
    Ok(quote! {{
        // Recompile when a file changes.
        #( const _: &[u8] = ::core::include_bytes!(#tracks); )*
        static TABLE: ::std::sync::LazyLock<#krate::harness::PolicyTable> =
            ::std::sync::LazyLock::new(|| {
                #krate::harness::PolicyTable::from_policies(::std::vec![#(#policies),*])
            });
        let table: &'static #krate::harness::PolicyTable = &TABLE;
        table
    }})
}
