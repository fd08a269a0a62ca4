fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    let [a0, a1, a2] = a;
    [
        a1 * b[2] - a2 * b[1],
        a2 * b[0] - a0 * b[2],
        a0 * b[1] - a1 * b[0],
    ]
}
#[doc = "Derived forward rule of [`cross`](fn@cross): `frule` runs it at any reading, `Rule` is its `lifted::FRule` marker for drivers, `CHUNK` its default width."]
#[allow(
    unused_mut,
    unused_parens,
    unused_braces,
    unused_variables,
    unused_assignments,
    unused_imports,
    dead_code,
    non_snake_case,
    missing_docs,
    private_interfaces,
    private_bounds,
    clippy::all,
    clippy::pedantic,
    clippy::nursery
)]
mod cross {
    use super::*;
    use ::lifted::__private::{
        FieldFixed as _, FieldNative as _, FieldView as _, KeepOperand as _, LiftOperand as _,
    };
    #[doc = r" The default chunk width for drivers (the attribute's `chunk`)."]
    pub const CHUNK: usize = 8usize;
    #[doc = r" The derived rule, generic over the reading: at `f64` it reproduces the"]
    #[doc = r" primal function; at `lifted::NDual<f64, N>` it carries N directions."]
    #[inline]
    pub fn frule<LiftedF64: ::lifted::Reading<f64>>(
        a: <[f64; 3] as ::lifted::Param<f64>>::Store<LiftedF64>,
        b: <[f64; 3] as ::lifted::Param<f64>>::Store<LiftedF64>,
    ) -> <[f64; 3] as ::lifted::Param<f64>>::Store<LiftedF64> {
        let [a0, a1, a2] = a;
        [
            a1 * b[2] - a2 * b[1],
            a2 * b[0] - a0 * b[2],
            a0 * b[1] - a1 * b[0],
        ]
    }
    #[doc = "The `lifted::FRule` marker of this function: what drivers and `lifted::testing::check_rule` take."]
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Rule;
    impl ::lifted::FRule for Rule {
        type Float = f64;
        type Args = ([f64; 3], [f64; 3]);
        type Output = [f64; 3];
        const CHUNK: usize = 8usize;
        const NAME: &'static str = "cross";
        const MUTATES_ARGS: bool = false;
        #[inline]
        fn primal(self, args: &mut Self::Args) -> Self::Output {
            super::cross(args.0, args.1)
        }
        #[inline]
        fn at_chunk<V: ::lifted::__private::AtWidth<f64>>(
            visitor: V,
        ) -> ::core::result::Result<V::Output, V> {
            ::core::result::Result::Ok(<f64 as ::lifted::__private::WidthTable>::at_const::<
                8usize,
                V,
            >(visitor))
        }
        #[inline]
        fn frule<LiftedF64: ::lifted::Reading<f64>>(
            self,
            args: &mut <Self::Args as ::lifted::Param<f64>>::Store<LiftedF64>,
        ) -> <Self::Output as ::lifted::Param<f64>>::Store<LiftedF64> {
            frule::<LiftedF64>(args.0, args.1)
        }
    }
}
