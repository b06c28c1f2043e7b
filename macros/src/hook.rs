//! `#[hook]` and `#[guard]`: parse the arguments, validate seam, matcher and signature,
//! expand to the unchanged fn plus its descriptor.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use seamguard_policy::matcher::{Matcher, MatcherMode};
use seamguard_policy::seam::Seam;
use syn::spanned::Spanned;
use syn::{FnArg, ItemFn, LitStr, ReturnType, Type};

/// Which attribute.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Hook,
    Guard,
}

/// The seam name of result observers (not a hook seam of the hosts).
const TOOL_RESULT: &str = "tool-result";

struct Args {
    seam: Option<LitStr>,
    matcher: Option<LitStr>,
    name: Option<LitStr>,
    cleanup: Option<syn::Path>,
    krate: Option<syn::Path>,
}

/// What the macro knows about a seam's handler shape.
struct Shape {
    seam: &'static str,
    variant: &'static str,
    input: &'static str,
    output: TokenStream,
    output_text: &'static str,
    sync_only: bool,
}

/// The key of one `key = value` item of an attribute (empty when it is not a plain name).
pub(crate) fn meta_key(meta: &syn::meta::ParseNestedMeta<'_>) -> String {
    meta.path
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_default()
}

/// The value of one `key = value` item of an attribute.
pub(crate) fn meta_value<T: syn::parse::Parse>(
    meta: &syn::meta::ParseNestedMeta<'_>,
) -> syn::Result<Option<T>> {
    Ok(Some(meta.value()?.parse()?))
}

/// The path of the `seamguard` crate: a `crate = …` argument, else `::seamguard`.
pub(crate) fn crate_path(krate: Option<&syn::Path>) -> TokenStream {
    krate.map_or_else(|| quote!(::seamguard), |p| quote!(#p))
}

fn did_you_mean<'a>(got: &str, candidates: impl Iterator<Item = &'a str>) -> String {
    seamguard_policy::hint::suffix(got, candidates)
}

fn seam_names() -> impl Iterator<Item = &'static str> {
    Seam::ALL
        .into_iter()
        .map(Seam::name)
        .chain(std::iter::once(TOOL_RESULT))
}

fn shape(seam: &str, h: &TokenStream) -> Option<Shape> {
    let p = quote!(#h::__private);
    let opt = |t: TokenStream| quote!(::core::option::Option<#t>);
    let (variant, input, output, output_text, sync_only, seam_v) = match seam {
        "pre-tool" => (
            "PreTool",
            "ToolCall",
            opt(quote!(#p::PreToolDecision)),
            "Option<PreToolDecision>",
            false,
            "PreTool",
        ),
        "permission-request" => (
            "Permission",
            "ToolCall",
            opt(quote!(#p::PermissionDecision)),
            "Option<PermissionDecision>",
            false,
            "PermissionRequest",
        ),
        "post-tool" => (
            "PostTool",
            "ToolOutput",
            opt(quote!(#p::PostToolDecision)),
            "Option<PostToolDecision>",
            false,
            "PostTool",
        ),
        "prompt-submit" => (
            "Prompt",
            "SeamEvent",
            opt(quote!(#p::PromptDecision)),
            "Option<PromptDecision>",
            false,
            "PromptSubmit",
        ),
        "session-start" | "subagent-start" => (
            "Context",
            "SeamEvent",
            opt(quote!(::std::string::String)),
            "Option<String>",
            false,
            if seam == "session-start" {
                "SessionStart"
            } else {
                "SubagentStart"
            },
        ),
        "stop" | "subagent-stop" => (
            "Continuation",
            "SeamEvent",
            opt(quote!(#p::ContinuationDecision)),
            "Option<ContinuationDecision>",
            false,
            if seam == "stop" {
                "Stop"
            } else {
                "SubagentStop"
            },
        ),
        "notification" | "session-end" | "pre-compact" | "post-compact" | "post-tool-failure" => (
            "Observe",
            "SeamEvent",
            quote!(()),
            "()",
            false,
            match seam {
                "notification" => "Notification",
                "session-end" => "SessionEnd",
                "pre-compact" => "PreCompact",
                "post-compact" => "PostCompact",
                _ => "PostToolFailure",
            },
        ),
        TOOL_RESULT => (
            "ToolResult",
            "ToolExecution",
            quote!(()),
            "()",
            true,
            "PostTool",
        ),
        _ => return None,
    };
    Some(Shape {
        seam: seam_v,
        variant,
        input,
        output,
        output_text,
        sync_only,
    })
}

fn parse_args(args: TokenStream, kind: Kind) -> syn::Result<Args> {
    let mut a = Args {
        seam: None,
        matcher: None,
        name: None,
        cleanup: None,
        krate: None,
    };
    let keys: &[&str] = match kind {
        Kind::Hook => &["seam", "tool", "matcher", "name", "cleanup", "crate"],
        Kind::Guard => &["tool", "matcher", "name", "cleanup", "crate"],
    };
    let parser = syn::meta::parser(|meta| {
        let key = meta_key(&meta);
        match key.as_str() {
            "seam" if kind == Kind::Hook => a.seam = meta_value(&meta)?,
            "seam" => {
                return Err(meta
                    .error("a guard always runs at `pre-tool`, after every hook: remove `seam`"));
            }
            "tool" | "matcher" => a.matcher = meta_value(&meta)?,
            "name" => a.name = meta_value(&meta)?,
            "cleanup" => a.cleanup = meta_value(&meta)?,
            "crate" => a.krate = meta_value(&meta)?,
            _ => {
                let hint = did_you_mean(&key, keys.iter().copied());
                return Err(meta.error(format!(
                    "unknown key `{key}`; expected one of {}{hint}",
                    keys.iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
        }
        Ok(())
    });
    syn::parse::Parser::parse2(parser, args)?;
    Ok(a)
}

/// Idents of a type that can produce an allow.
const CAN_ALLOW: &[&str] = &[
    "PreToolDecision",
    "PermissionDecision",
    "PromptDecision",
    "Verdict",
    "bool",
    "Contribution",
];

fn type_idents(ty: &Type, out: &mut Vec<String>) {
    match ty {
        Type::Path(p) => {
            for seg in &p.path.segments {
                out.push(seg.ident.to_string());
                if let syn::PathArguments::AngleBracketed(ab) = &seg.arguments {
                    for arg in &ab.args {
                        if let syn::GenericArgument::Type(t) = arg {
                            type_idents(t, out);
                        }
                    }
                }
            }
        }
        Type::Reference(r) => type_idents(&r.elem, out),
        Type::Paren(p) => type_idents(&p.elem, out),
        Type::Group(g) => type_idents(&g.elem, out),
        Type::Tuple(t) => t.elems.iter().for_each(|e| type_idents(e, out)),
        _ => {}
    }
}

fn check_matcher(seam: &str, lit: &LitStr) -> syn::Result<()> {
    let s = lit.value();
    if let Some(subject_less) = Seam::from_name(seam)
        .filter(|s| s.matcher_subject().field().is_none())
        .map(Seam::name)
    {
        return Err(syn::Error::new(
            lit.span(),
            format!("seam `{subject_less}` has no matcher (hosts ignore one): remove `tool`"),
        ));
    }
    let m = Matcher::classify(&s, MatcherMode::ClaudeCode);
    if let Err(e) = m.validate() {
        return Err(syn::Error::new(
            lit.span(),
            format!("invalid matcher regex `{s}`: {e}"),
        ));
    }
    if let Some(lint) = Matcher::permission_rule_lint(&s) {
        return Err(syn::Error::new(lit.span(), lint));
    }
    Ok(())
}

/// The last path segment of a type, through references and parentheses.
fn last_ident(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        Type::Paren(p) => last_ident(&p.elem),
        Type::Group(g) => last_ident(&g.elem),
        _ => None,
    }
}

/// The parameter must be `&<input>`: anything else is an error, in the user's terms, naming
/// the parameter to write (rather than a type mismatch inside the generated adapter).
fn check_param(what: &str, input: &str, ty: &Type, sig: &syn::Signature) -> syn::Result<()> {
    let fits = matches!(ty, Type::Reference(r) if r.mutability.is_none()
        && last_ident(&r.elem).as_deref() == Some(input));
    if fits {
        return Ok(());
    }
    let found = quote!(#ty).to_string().replace(" ", "");
    let name = match sig.inputs.first() {
        Some(FnArg::Typed(pt)) => match &*pt.pat {
            syn::Pat::Ident(i) => i.ident.to_string(),
            _ => "event".to_string(),
        },
        _ => "event".to_string(),
    };
    Err(syn::Error::new(
        ty.span(),
        format!(
            "{what} receives `&{input}`, not `{found}`: write the parameter as \
             `{name}: &{input}` (`seamguard::harness::{input}`; a type alias is not accepted)"
        ),
    ))
}

pub(crate) fn expand(args: TokenStream, item: TokenStream, kind: Kind) -> TokenStream {
    let func: ItemFn = match syn::parse2(item.clone()) {
        Ok(f) => f,
        Err(_) => {
            let attr = if kind == Kind::Hook { "hook" } else { "guard" };
            let e = syn::Error::new(
                Span::call_site(),
                format!("#[{attr}] goes on a plain fn (sync or async)"),
            )
            .to_compile_error();
            return quote!(#item #e);
        }
    };
    match expand_fn(args, &func, kind) {
        Ok(t) => t,
        Err(e) => {
            let e = e.to_compile_error();
            quote!(#func #e)
        }
    }
}

fn expand_fn(args: TokenStream, func: &ItemFn, kind: Kind) -> syn::Result<TokenStream> {
    let args = parse_args(args, kind)?;
    let krate = crate_path(args.krate.as_ref());
    let h = quote!(#krate::harness);
    let sig = &func.sig;
    let fn_name = &sig.ident;

    // Seam.
    let seam_name = match (kind, &args.seam) {
        (Kind::Guard, _) => "pre-tool".to_string(),
        (Kind::Hook, Some(l)) => l.value(),
        (Kind::Hook, None) => {
            return Err(syn::Error::new(
                Span::call_site(),
                format!(
                    "#[hook] needs a seam: #[hook(seam = \"pre-tool\")]; seams: {}",
                    seam_names().collect::<Vec<_>>().join(", ")
                ),
            ));
        }
    };
    let Some(shape) = (match kind {
        Kind::Hook => shape(&seam_name, &h),
        Kind::Guard => Some(Shape {
            seam: "PreTool",
            variant: "Guard",
            input: "ToolCall",
            output: quote!(::core::option::Option<#h::__private::GuardDeny>),
            output_text: "Option<GuardDeny>",
            sync_only: false,
        }),
    }) else {
        let span = args.seam.as_ref().map_or(Span::call_site(), LitStr::span);
        let hint = did_you_mean(&seam_name, seam_names());
        return Err(syn::Error::new(
            span,
            format!(
                "unknown seam `{seam_name}`{hint}\nseams: {}",
                seam_names().collect::<Vec<_>>().join(", ")
            ),
        ));
    };

    // Matcher.
    if let Some(m) = &args.matcher {
        check_matcher(&seam_name, m)?;
    }

    // Signature.
    let what = match kind {
        Kind::Guard => "a #[guard]".to_string(),
        Kind::Hook => format!("a `{seam_name}` hook"),
    };
    if let Some(r) = sig.receiver() {
        return Err(syn::Error::new(
            r.span(),
            format!("{what} is a free fn: remove `self`"),
        ));
    }
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        return Err(syn::Error::new(
            sig.generics.span(),
            format!("{what} cannot be generic"),
        ));
    }
    if shape.sync_only && sig.asyncness.is_some() {
        return Err(syn::Error::new(
            sig.asyncness.span(),
            "a `tool-result` observer is synchronous (it sees an immutable snapshot after the \
             pipeline): remove `async`",
        ));
    }
    let input_ty = format_ident!("{}", shape.input);
    let (param_ty, with_cx) = match sig.inputs.iter().collect::<Vec<_>>().as_slice() {
        [FnArg::Typed(pt)] => (pt.ty.clone(), false),
        [FnArg::Typed(pt), FnArg::Typed(cx)] if !shape.sync_only => {
            let is_cx = matches!(&*cx.ty, Type::Reference(r) if r.mutability.is_none()
                && last_ident(&r.elem).as_deref() == Some("HookContext"));
            if !is_cx {
                let found = quote!(#cx).to_string().replace(" : ", ": ");
                return Err(syn::Error::new(
                    cx.ty.span(),
                    format!(
                        "the second parameter of {what} is the run's context: write \
                         `cx: &HookContext` (`seamguard::harness::HookContext`), not `{found}`"
                    ),
                ));
            }
            (pt.ty.clone(), true)
        }
        _ => {
            let also = if shape.sync_only {
                String::new()
            } else {
                " (and optionally the run's context, `cx: &HookContext`)".to_string()
            };
            return Err(syn::Error::new(
                if sig.inputs.is_empty() {
                    sig.paren_token.span.join()
                } else {
                    sig.inputs.span()
                },
                format!(
                    "{what} takes exactly one parameter: `&{}`{also}",
                    shape.input
                ),
            ));
        }
    };
    check_param(&what, shape.input, &param_ty, sig)?;
    let ret_span = match &sig.output {
        ReturnType::Default => {
            if shape.output_text != "()" {
                return Err(syn::Error::new(
                    sig.paren_token.span.join(),
                    format!(
                        "{what} must return `{}` (or the bare decision, or a `Result` of either)",
                        shape.output_text
                    ),
                ));
            }
            sig.span()
        }
        ReturnType::Type(_, ty) => {
            if kind == Kind::Guard {
                let mut ids = Vec::new();
                type_idents(ty, &mut ids);
                if let Some(bad) = ids.iter().find(|i| CAN_ALLOW.contains(&i.as_str())) {
                    return Err(syn::Error::new(
                        ty.span(),
                        format!(
                            "a guard can only deny or abstain, but `{bad}` can allow: return \
                             `Option<GuardDeny>` (or `Result<Option<GuardDeny>, E>`); guards run \
                             after every hook and nothing can override them, so they must not \
                             be able to allow (interception-seams seed)"
                        ),
                    ));
                }
            }
            ty.span()
        }
    };

    // Adapter: the conversion is a trait call spanned on the user's return type, so a
    // mismatch is the `IntoReply` error at the user's fn (not a bound inside the crate).
    let output = &shape.output;
    let event = quote_spanned!(param_ty.span()=> __seamguard_event);
    // With a context parameter, the run's context is read when the handler is called.
    let (get_cx, arg) = if with_cx {
        (
            quote!(let __seamguard_cx = #h::__private::context();),
            quote!(#event, &__seamguard_cx),
        )
    } else {
        (quote!(), event)
    };
    let body = if shape.variant == "ToolResult" {
        quote!()
    } else if sig.asyncness.is_some() {
        quote_spanned!(ret_span=> #h::Reply::Pending(::std::boxed::Box::pin(async move {
            #get_cx
            <_ as #h::IntoReply<#output>>::into_reply(#fn_name(#arg).await)
        })))
    } else if with_cx {
        quote_spanned!(ret_span=> {
            #get_cx
            #h::Reply::Ready(<_ as #h::IntoReply<#output>>::into_reply(#fn_name(#arg)))
        })
    } else {
        quote_spanned!(ret_span=> #h::Reply::Ready(<_ as #h::IntoReply<#output>>::into_reply(#fn_name(#arg))))
    };
    let variant = format_ident!("{}", shape.variant);
    let handler = if shape.variant == "ToolResult" {
        quote_spanned!(param_ty.span()=> #h::HandlerFn::ToolResult(#h::__private::observer(#fn_name)))
    } else {
        quote! {
            #h::HandlerFn::#variant({
                fn __seamguard_adapter<'a>(
                    __seamguard_event: &'a #h::#input_ty,
                ) -> #h::Reply<'a, #output> {
                    #body
                }
                __seamguard_adapter
            })
        }
    };
    let name = args
        .name
        .as_ref()
        .map_or_else(|| fn_name.to_string(), LitStr::value);
    let matcher = match &args.matcher {
        Some(m) => quote!(::core::option::Option::Some(#m)),
        None => quote!(::core::option::Option::None),
    };
    let cleanup = match &args.cleanup {
        Some(p) => quote_spanned! {p.span()=>
            ::core::option::Option::Some({
                fn __seamguard_cleanup() -> ::core::result::Result<(), ::std::string::String> {
                    #h::__private::IntoCleanup::into_cleanup(#p())
                }
                __seamguard_cleanup
            })
        },
        None => quote!(::core::option::Option::None),
    };
    let seam_v = format_ident!("{}", shape.seam);
    let vis = &func.vis;
    let line = quote_spanned!(fn_name.span()=> ::core::line!());
    let doc = format!("Registration descriptor of the `{name}` handler (see `hooks!`).");
    Ok(quote! {
        #func

        #[doc = #doc]
        #[allow(non_camel_case_types)]
        #vis struct #fn_name {}

        impl #h::Registered for #fn_name {
            const DESCRIPTOR: #h::HookDescriptor = #h::HookDescriptor {
                name: #name,
                seam: #h::__private::Seam::#seam_v,
                matcher: #matcher,
                provenance: #h::Provenance {
                    module_path: ::core::module_path!(),
                    file: ::core::file!(),
                    line: #line,
                },
                handler: #handler,
                cleanup: #cleanup,
            };
        }
    })
}
