//! A bound on how deeply nested the syntax of an annotated item may be.
//!
//! The analysis and the lowering recurse over the syntax tree, as `syn` does, and a
//! procedural macro runs on the compiler's thread, whose stack it shares with the
//! compiler. Past [`MAX_DEPTH`] nested expressions, types or patterns, expansion stops
//! with an error on the first token too deep, instead of overflowing that stack.
//! Macro bodies the lowering reads (`vec!`, `constant!`, `println!`, …) count too.

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::{Expr, Token};

use crate::errors::Errors;
use crate::syntax::{FORMAT_MACROS, VecMacro, path_span, span_of};

/// The deepest nesting of expressions, types and patterns `#[autodiff]` takes: far
/// beyond hand-written code, and small enough that expansion fits well within the
/// compiler thread's 8 MiB stack with the macro built without optimisation, as debug
/// builds build it. There a sum of 250 terms, the costliest shape to lower, takes about
/// 2 MiB, 8 KiB a level; twice the bound would take half the stack. (Parsing deeply
/// nested groups costs `syn` more than lowering them costs this crate.)
pub const MAX_DEPTH: usize = 256;

fn too_deep() -> String {
    format!("expression nested deeper than {MAX_DEPTH} levels: split it with `let` bindings")
}

/// Checks a function, signature and body; every place nested too deeply is reported.
/// Returns whether all of it is within [`MAX_DEPTH`].
pub fn check_fn(func: &syn::ItemFn, errors: &mut Errors) -> bool {
    let mut d = Depth::new(errors);
    d.visit_item_fn(func);
    d.ok
}

/// Checks an `impl` block, as [`check_fn`] does.
pub fn check_impl(block: &syn::ItemImpl, errors: &mut Errors) -> bool {
    let mut d = Depth::new(errors);
    d.visit_item_impl(block);
    d.ok
}

/// Checks a type, as [`check_fn`] does.
pub fn check_type(ty: &syn::Type, errors: &mut Errors) -> bool {
    let mut d = Depth::new(errors);
    d.visit_type(ty);
    d.ok
}

struct Depth<'e> {
    depth: usize,
    errors: &'e mut Errors,
    ok: bool,
}

impl<'e> Depth<'e> {
    fn new(errors: &'e mut Errors) -> Self {
        Self {
            depth: 0,
            errors,
            ok: true,
        }
    }

    /// Reports the first place too deep; the others are inside it or alike.
    fn fail(&mut self, span: Span) {
        if self.ok {
            self.errors.push(syn::Error::new(span, too_deep()));
        }
        self.ok = false;
    }

    /// Enters one level; `false` (reported) when that is one too many.
    fn enter(&mut self, span: impl FnOnce() -> Span) -> bool {
        if self.depth >= MAX_DEPTH {
            self.fail(span());
            return false;
        }
        self.depth += 1;
        true
    }
}

/// A token that marks where an expression nests (its operator, method or bracket),
/// which unlike its first token differs from one level of a chain to the next.
fn marker(e: &Expr) -> Span {
    match e {
        Expr::Binary(b) => b.op.span(),
        Expr::MethodCall(m) => m.method.span(),
        Expr::Cast(c) => c.as_token.span(),
        Expr::Call(c) => c.paren_token.span.open(),
        Expr::Field(f) => f.member.span(),
        Expr::Index(i) => i.bracket_token.span.open(),
        Expr::Try(t) => t.question_token.span(),
        Expr::Assign(a) => a.eq_token.span(),
        _ => span_of(e),
    }
}

fn type_marker(t: &syn::Type) -> Span {
    match t {
        syn::Type::Path(p) => p
            .path
            .segments
            .last()
            .map_or_else(|| path_span(&p.path), |s| s.ident.span()),
        syn::Type::Tuple(t) => t.paren_token.span.open(),
        syn::Type::Array(a) => a.bracket_token.span.open(),
        syn::Type::Slice(s) => s.bracket_token.span.open(),
        syn::Type::Paren(p) => p.paren_token.span.open(),
        syn::Type::Reference(r) => r.and_token.span(),
        syn::Type::Ptr(p) => p.star_token.span(),
        syn::Type::Group(g) => g.group_token.span,
        _ => Span::call_site(),
    }
}

fn pat_marker(p: &syn::Pat) -> Span {
    match p {
        syn::Pat::Ident(i) => i.ident.span(),
        syn::Pat::Tuple(t) => t.paren_token.span.open(),
        syn::Pat::Slice(s) => s.bracket_token.span.open(),
        syn::Pat::Paren(p) => p.paren_token.span.open(),
        syn::Pat::Reference(r) => r.and_token.span(),
        syn::Pat::TupleStruct(t) => path_span(&t.path),
        syn::Pat::Struct(s) => path_span(&s.path),
        _ => Span::call_site(),
    }
}

/// Macros whose bodies the analysis or the lowering parse as expressions.
fn parsed_macro(name: &str) -> bool {
    name == "vec" || name == "constant" || FORMAT_MACROS.contains(&name)
}

/// How many prefix operators (`-x`, `&x`, `!x`, `*x`, closures' `|…|`), assignments and
/// `return`-like keywords one element of a token list (between commas or semicolons)
/// may hold before `syn` parses it: `syn` reads them by recursion, where it reads infix
/// operators in loops. No written expression comes near.
pub const MAX_OPERATORS: usize = 2 * MAX_DEPTH;

/// Checks tokens before `syn` parses them, which it does by recursion as deep as they
/// nest: groups and angle brackets nested at most [`MAX_DEPTH`] levels below `depth`,
/// at most [`MAX_OPERATORS`] prefix operators in one element. Reports the first token
/// past either bound. Without recursion, as it runs on tokens of any depth.
pub fn check_tokens(tokens: &TokenStream, depth: usize, errors: &mut Errors) -> bool {
    match first_too_deep(tokens, MAX_DEPTH.saturating_sub(depth), MAX_OPERATORS) {
        Some(span) => {
            errors.push(syn::Error::new(span, too_deep()));
            false
        }
        None => true,
    }
}

/// `&&`, `<=`, `+=`, …: one operator in two characters (`--` and `!!` are two).
fn two_char_operator(a: char, b: char) -> bool {
    matches!(
        (a, b),
        ('&', '&')
            | ('|', '|')
            | ('<', '<')
            | ('>', '>')
            | ('-' | '=', '>')
            | ('.', '.')
            | (':', ':')
            | (
                '=' | '!' | '<' | '>' | '+' | '-' | '*' | '/' | '%' | '^' | '&' | '|',
                '='
            )
    )
}

/// One open group of [`first_too_deep`].
struct Open {
    tokens: proc_macro2::token_stream::IntoIter,
    /// Recursive operators of the current element.
    ops: usize,
    /// The previous token, when a punctuation joined to this one.
    joint: Option<char>,
    /// Whether the previous token ends an operand, so an operator here is infix.
    after_operand: bool,
    /// Angle brackets open in this group (generic arguments nest like groups; a
    /// comparison counts too, which only over-estimates), and in the groups around it.
    angles: usize,
    outer_angles: usize,
}

fn first_too_deep(tokens: &TokenStream, max_depth: usize, max_ops: usize) -> Option<Span> {
    let open = |tokens: TokenStream, outer_angles| Open {
        tokens: tokens.into_iter(),
        ops: 0,
        joint: None,
        after_operand: false,
        angles: 0,
        outer_angles,
    };
    let mut stack = vec![open(tokens.clone(), 0)];
    while let Some(top) = stack.last_mut() {
        let Some(tt) = top.tokens.next() else {
            stack.pop();
            continue;
        };
        let previous = top.joint.take();
        let counts = match &tt {
            TokenTree::Punct(p) => {
                let c = p.as_char();
                let continued = previous.is_some_and(|a| two_char_operator(a, c));
                if p.spacing() == proc_macro2::Spacing::Joint && !continued {
                    top.joint = Some(c);
                }
                let prefix = !top.after_operand;
                top.after_operand = c == '?';
                match c {
                    ',' => {
                        top.ops = 0;
                        false
                    }
                    ';' => {
                        (top.ops, top.angles) = (0, 0);
                        false
                    }
                    '>' if previous == Some('=') => {
                        (top.ops, top.angles) = (0, 0);
                        false
                    }
                    '>' if previous == Some('-') => false,
                    '<' => {
                        top.angles += 1;
                        !continued && prefix
                    }
                    '>' => {
                        top.angles = top.angles.saturating_sub(1);
                        false
                    }
                    _ if continued => false,
                    // Assignments associate to the right, by recursion.
                    '=' => p.spacing() == proc_macro2::Spacing::Alone,
                    // Paths, fields, method calls and `?` are read in loops.
                    '.' | ':' | '?' | '\'' | '#' => false,
                    _ => prefix,
                }
            }
            TokenTree::Ident(i) => {
                let s = i.to_string();
                let keyword = matches!(
                    s.as_str(),
                    "return" | "break" | "yield" | "move" | "let" | "static" | "async"
                );
                top.after_operand = !keyword
                    && !matches!(s.as_str(), "as" | "if" | "match" | "while" | "in" | "else");
                keyword
            }
            TokenTree::Literal(_) | TokenTree::Group(_) => {
                top.after_operand = true;
                false
            }
        };
        if counts {
            top.ops += 1;
            if top.ops > max_ops {
                return Some(tt.span());
            }
        }
        let angles = top.outer_angles + top.angles;
        let depth = stack.len() - 1 + angles;
        if depth > max_depth {
            return Some(tt.span());
        }
        if let TokenTree::Group(g) = tt {
            if depth + 1 > max_depth {
                return Some(g.span_open());
            }
            stack.push(open(g.stream(), angles));
        }
    }
    None
}

impl<'ast> Visit<'ast> for Depth<'_> {
    fn visit_expr(&mut self, e: &'ast Expr) {
        if !self.enter(|| marker(e)) {
            return;
        }
        syn::visit::visit_expr(self, e);
        self.depth -= 1;
    }

    fn visit_type(&mut self, t: &'ast syn::Type) {
        if !self.enter(|| type_marker(t)) {
            return;
        }
        syn::visit::visit_type(self, t);
        self.depth -= 1;
    }

    fn visit_pat(&mut self, p: &'ast syn::Pat) {
        if !self.enter(|| pat_marker(p)) {
            return;
        }
        syn::visit::visit_pat(self, p);
        self.depth -= 1;
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        syn::visit::visit_macro(self, m);
        let name = m.path.segments.last().map(|s| s.ident.to_string());
        let parsed = name.as_deref().is_some_and(parsed_macro);
        // Groups bound every recursion over a body's tokens, parsed or not; operators
        // matter only to bodies `syn` parses. A body that is not an expression list
        // (a DSL macro's) may hold any number of them.
        let max_ops = if parsed { MAX_OPERATORS } else { usize::MAX };
        let max_groups = MAX_DEPTH.saturating_sub(self.depth);
        if let Some(span) = first_too_deep(&m.tokens, max_groups, max_ops) {
            self.fail(span);
            return;
        }
        if !parsed {
            return;
        }
        let exprs: Vec<Expr> = match m.parse_body::<VecMacro>() {
            Ok(VecMacro::Repeat(a, b)) => vec![*a, *b],
            Ok(VecMacro::List(items)) => items,
            Err(_) => match m.parse_body_with(Punctuated::<Expr, Token![,]>::parse_terminated) {
                Ok(args) => args.into_iter().collect(),
                Err(_) => return,
            },
        };
        self.depth += 1;
        for e in &exprs {
            Visit::visit_expr(self, e);
        }
        self.depth -= 1;
    }
}
