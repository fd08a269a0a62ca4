//! Expands representative functions and checks the output parses as Rust items.

use quote::quote;

fn expand(item: proc_macro2::TokenStream) -> String {
    let out = lifted_derive_core::autodiff(quote!(forward, chunk = 4), item);
    let file: syn::File = match syn::parse2(out.clone()) {
        Ok(f) => f,
        Err(e) => panic!("expansion does not parse: {e}\n{out}"),
    };
    quote!(#file).to_string()
}

#[test]
fn rosenbrock_expands() {
    let s = expand(quote! {
        pub fn rosenbrock(x: &[f64]) -> f64 {
            let mut s = 0.0;
            for i in 0..x.len() - 1 {
                s += (1.0 - x[i]).powi(2) + 100.0 * (x[i + 1] - x[i] * x[i]).powi(2);
            }
            s
        }
    });
    println!("{s}");
    assert!(s.contains("frule"));
    assert!(s.contains("rsub"));
}
