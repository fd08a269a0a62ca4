//! Syntax helpers shared by the analysis and the lowering: small queries on the shape
//! of expressions, and how generated code is built around subexpressions.
//!
//! Generated code is built from templates whose holes ([`hole`]) stand for whole
//! subexpressions, moved into place after the template is parsed ([`fill`]). Pasting a
//! subexpression into `parse_quote!` instead prints it and parses it back: done at
//! every level of a nested expression, that costs the square of its depth, and it
//! panics on tokens that do not parse (a `crate = …` path that is not a plain path).

use proc_macro2::{Group, Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::parse::{Parse, ParseStream};
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{Expr, Ident, Token};

/// Looks through parentheses and invisible groups.
pub fn strip(e: &Expr) -> &Expr {
    match e {
        Expr::Paren(p) => strip(&p.expr),
        Expr::Group(g) => strip(&g.expr),
        other => other,
    }
}

/// The span `syn::spanned::Spanned::span` gives on a stable compiler (that of the first
/// token), found without printing the expression: printing costs the size of the
/// subtree, and spans are taken at every level of the lowering. A loop, not a
/// recursion, as it runs on expressions too deep for the lowering.
pub fn span_of(e: &Expr) -> Span {
    let mut e = e;
    loop {
        if let Some(a) = attrs(e)
            .iter()
            .find(|a| matches!(a.style, syn::AttrStyle::Outer))
        {
            return a.pound_token.span();
        }
        e = match e {
            Expr::Binary(b) => &b.left,
            Expr::Assign(a) => &a.left,
            Expr::Call(c) => &c.func,
            Expr::MethodCall(m) => &m.receiver,
            Expr::Cast(c) => &c.expr,
            Expr::Field(f) => &f.base,
            Expr::Index(i) => &i.expr,
            Expr::Try(t) => &t.expr,
            Expr::Await(a) => &a.base,
            Expr::Range(r) => match &r.start {
                Some(s) => s,
                None => return r.limits.span(),
            },
            Expr::Paren(p) => return p.paren_token.span.join(),
            Expr::Tuple(t) => return t.paren_token.span.join(),
            Expr::Array(a) => return a.bracket_token.span.join(),
            Expr::Repeat(r) => return r.bracket_token.span.join(),
            Expr::Group(g) => return g.group_token.span,
            Expr::Unary(u) => return u.op.span(),
            Expr::Reference(r) => return r.and_token.span(),
            Expr::Path(p) => {
                return match &p.qself {
                    Some(q) => q.lt_token.span(),
                    None => path_span(&p.path),
                };
            }
            Expr::Struct(s) => {
                return match &s.qself {
                    Some(q) => q.lt_token.span(),
                    None => path_span(&s.path),
                };
            }
            Expr::Lit(l) => return l.lit.span(),
            Expr::Macro(m) => return path_span(&m.mac.path),
            Expr::Block(b) => {
                return match &b.label {
                    Some(l) => l.name.apostrophe,
                    None => b.block.brace_token.span.join(),
                };
            }
            Expr::If(i) => return i.if_token.span(),
            Expr::Match(m) => return m.match_token.span(),
            Expr::Return(r) => return r.return_token.span(),
            Expr::Break(b) => return b.break_token.span(),
            Expr::Verbatim(t) => {
                return t
                    .clone()
                    .into_iter()
                    .next()
                    .map_or_else(Span::call_site, |t| t.span());
            }
            other => return other.span(),
        };
    }
}

/// The first token's span of a path.
pub fn path_span(p: &syn::Path) -> Span {
    match (&p.leading_colon, p.segments.first()) {
        (Some(c), _) => c.span(),
        (None, Some(s)) => s.ident.span(),
        (None, None) => Span::call_site(),
    }
}

/// The attributes of an expression.
pub fn attrs(e: &Expr) -> &[syn::Attribute] {
    match e {
        Expr::Array(e) => &e.attrs,
        Expr::Assign(e) => &e.attrs,
        Expr::Async(e) => &e.attrs,
        Expr::Await(e) => &e.attrs,
        Expr::Binary(e) => &e.attrs,
        Expr::Block(e) => &e.attrs,
        Expr::Break(e) => &e.attrs,
        Expr::Call(e) => &e.attrs,
        Expr::Cast(e) => &e.attrs,
        Expr::Closure(e) => &e.attrs,
        Expr::Const(e) => &e.attrs,
        Expr::Continue(e) => &e.attrs,
        Expr::Field(e) => &e.attrs,
        Expr::ForLoop(e) => &e.attrs,
        Expr::Group(e) => &e.attrs,
        Expr::If(e) => &e.attrs,
        Expr::Index(e) => &e.attrs,
        Expr::Infer(e) => &e.attrs,
        Expr::Let(e) => &e.attrs,
        Expr::Lit(e) => &e.attrs,
        Expr::Loop(e) => &e.attrs,
        Expr::Macro(e) => &e.attrs,
        Expr::Match(e) => &e.attrs,
        Expr::MethodCall(e) => &e.attrs,
        Expr::Paren(e) => &e.attrs,
        Expr::Path(e) => &e.attrs,
        Expr::Range(e) => &e.attrs,
        Expr::RawAddr(e) => &e.attrs,
        Expr::Reference(e) => &e.attrs,
        Expr::Repeat(e) => &e.attrs,
        Expr::Return(e) => &e.attrs,
        Expr::Struct(e) => &e.attrs,
        Expr::Try(e) => &e.attrs,
        Expr::TryBlock(e) => &e.attrs,
        Expr::Tuple(e) => &e.attrs,
        Expr::Unary(e) => &e.attrs,
        Expr::Unsafe(e) => &e.attrs,
        Expr::While(e) => &e.attrs,
        Expr::Yield(e) => &e.attrs,
        _ => &[],
    }
}

/// Takes an expression out of its place, leaving an empty one: moving a subtree into
/// generated code costs nothing, where cloning it costs its size.
pub fn take(e: &mut Expr) -> Expr {
    std::mem::replace(e, Expr::Verbatim(TokenStream::new()))
}

/// A path expression naming `id`.
pub fn ident_expr(id: &Ident) -> Expr {
    Expr::Path(syn::ExprPath {
        attrs: Vec::new(),
        qself: None,
        path: id.clone().into(),
    })
}

const HOLE: &str = "__lifted_hole_";

/// The `i`-th hole of a template given to [`fill`]. Its name starts with `__lifted`, as
/// the macro's other names do, which written code leaves to the macro.
pub fn hole(i: usize) -> Ident {
    Ident::new(&format!("{HOLE}{i}"), Span::call_site())
}

/// `n` holes, numbered from 0.
pub fn holes(n: usize) -> Vec<Ident> {
    (0..n).map(hole).collect()
}

fn hole_index(id: &Ident) -> Option<usize> {
    id.to_string().strip_prefix(HOLE)?.parse().ok()
}

/// The expression of `template` with its holes replaced, in order, by `parts`. Only the
/// template is parsed; should it not parse, it is kept as tokens, which the compiler
/// then reports, so this never panics.
pub fn fill(template: TokenStream, parts: impl IntoIterator<Item = Expr>) -> Expr {
    let mut parts: Vec<Option<Expr>> = parts.into_iter().map(Some).collect();
    match syn::parse2::<Expr>(template.clone()) {
        Ok(mut e) => {
            Fill(&mut parts).visit_expr_mut(&mut e);
            e
        }
        Err(_) => Expr::Verbatim(splice(template, &mut parts)),
    }
}

/// `template` parsed as a `T`, or kept as tokens (through `verbatim`) if it does not
/// parse.
pub fn parse_or<T: Parse>(template: TokenStream, verbatim: impl FnOnce(TokenStream) -> T) -> T {
    syn::parse2(template.clone()).unwrap_or_else(|_| verbatim(template))
}

struct Fill<'p>(&'p mut Vec<Option<Expr>>);

impl VisitMut for Fill<'_> {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if let Expr::Path(p) = e
            && p.qself.is_none()
            && p.attrs.is_empty()
            && let Some(i) = p.path.get_ident().and_then(hole_index)
        {
            if let Some(part) = self.0.get_mut(i).and_then(Option::take) {
                *e = part;
            }
            // A hole's part is never visited: it is not the template's.
            return;
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }
}

fn splice(tokens: TokenStream, parts: &mut Vec<Option<Expr>>) -> TokenStream {
    let mut out = TokenStream::new();
    for tt in tokens {
        match tt {
            TokenTree::Ident(id) => match hole_index(&id).and_then(|i| parts.get_mut(i)?.take()) {
                Some(part) => part.to_tokens(&mut out),
                None => out.extend([TokenTree::Ident(id)]),
            },
            TokenTree::Group(g) => {
                let mut inner = Group::new(g.delimiter(), splice(g.stream(), parts));
                inner.set_span(g.span());
                out.extend([TokenTree::Group(inner)]);
            }
            other => out.extend([other]),
        }
    }
    out
}

/// The values of the `break`s that leave the loop with body `body` (labelled `label`),
/// not those of nested loops or closures.
pub fn loop_breaks<'b>(body: &'b syn::Block, label: Option<&syn::Label>) -> Vec<&'b Expr> {
    struct Find<'b, 'l> {
        label: Option<&'l syn::Label>,
        depth: usize,
        out: Vec<&'b Expr>,
    }
    impl<'b> Visit<'b> for Find<'b, '_> {
        fn visit_expr_break(&mut self, b: &'b syn::ExprBreak) {
            let ours = match &b.label {
                Some(l) => self.label.is_some_and(|own| own.name.ident == l.ident),
                None => self.depth == 0,
            };
            if ours && let Some(v) = &b.expr {
                self.out.push(v);
            }
            syn::visit::visit_expr_break(self, b);
        }
        fn visit_expr_loop(&mut self, l: &'b syn::ExprLoop) {
            self.depth += 1;
            syn::visit::visit_expr_loop(self, l);
            self.depth -= 1;
        }
        fn visit_expr_while(&mut self, l: &'b syn::ExprWhile) {
            self.depth += 1;
            syn::visit::visit_expr_while(self, l);
            self.depth -= 1;
        }
        fn visit_expr_for_loop(&mut self, l: &'b syn::ExprForLoop) {
            self.depth += 1;
            syn::visit::visit_expr_for_loop(self, l);
            self.depth -= 1;
        }
        fn visit_expr_closure(&mut self, _: &'b syn::ExprClosure) {}
        fn visit_item(&mut self, _: &'b syn::Item) {}
    }
    let mut f = Find {
        label,
        depth: 0,
        out: Vec::new(),
    };
    f.visit_block(body);
    f.out
}

/// The local written by `t.0 = …` or `a[i] = …` (through any chain of fields and
/// indices); `None` for other places.
pub fn place_root(target: &Expr) -> Option<&Ident> {
    fn root(e: &Expr) -> Option<&Ident> {
        match strip(e) {
            Expr::Path(p) => p.path.get_ident(),
            Expr::Field(f) => root(&f.base),
            Expr::Index(i) => root(&i.expr),
            _ => None,
        }
    }
    match strip(target) {
        Expr::Field(f) => root(&f.base),
        Expr::Index(i) => root(&i.expr),
        _ => None,
    }
}

/// `Vec::new()`, `Vec::with_capacity(n)` or `vec![]`: an empty vector whose element type
/// the primal infers from later uses.
pub fn is_empty_vec(e: &Expr) -> bool {
    match strip(e) {
        Expr::Call(c) => match &*c.func {
            Expr::Path(p) => {
                let segs: Vec<String> = p
                    .path
                    .segments
                    .iter()
                    .map(|s| s.ident.to_string())
                    .collect();
                matches!(
                    segs.iter()
                        .rev()
                        .take(2)
                        .map(String::as_str)
                        .collect::<Vec<_>>()
                        .as_slice(),
                    ["new" | "with_capacity", "Vec"]
                )
            }
            _ => false,
        },
        Expr::Macro(m) => m.mac.path.is_ident("vec") && m.mac.tokens.is_empty(),
        _ => false,
    }
}

/// Whether a method chain (`x.iter().enumerate().map(…)`) calls `method` anywhere.
pub fn chain_has(e: &Expr, method: &str) -> bool {
    match strip(e) {
        Expr::MethodCall(m) => m.method == method || chain_has(&m.receiver, method),
        _ => false,
    }
}

/// `vec![elem; n]` or `vec![a, b, …]`.
pub enum VecMacro {
    /// `vec![elem; n]`
    Repeat(Box<Expr>, Box<Expr>),
    /// `vec![a, b, …]`
    List(Vec<Expr>),
}

impl Parse for VecMacro {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        if input.is_empty() {
            return Ok(VecMacro::List(Vec::new()));
        }
        let first: Expr = input.parse()?;
        if input.peek(Token![;]) {
            input.parse::<Token![;]>()?;
            let n: Expr = input.parse()?;
            return Ok(VecMacro::Repeat(Box::new(first), Box::new(n)));
        }
        let mut items = vec![first];
        while input.peek(Token![,]) {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            items.push(input.parse()?);
        }
        Ok(VecMacro::List(items))
    }
}

/// Macros whose arguments are ordinary expressions and that only read values.
pub const FORMAT_MACROS: &[&str] = &[
    "println",
    "print",
    "eprintln",
    "eprint",
    "format",
    "write",
    "writeln",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "panic",
    "unreachable",
    "dbg",
];

/// `tokens` with every span set to `span`: a type written by the macro from the
/// user's tokens, placed where a diagnostic about it should point.
pub fn respan(tokens: TokenStream, span: proc_macro2::Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut tt| {
            if let TokenTree::Group(g) = &tt {
                let mut inner = Group::new(g.delimiter(), respan(g.stream(), span));
                inner.set_span(span);
                tt = TokenTree::Group(inner);
            } else {
                tt.set_span(span);
            }
            tt
        })
        .collect()
}
