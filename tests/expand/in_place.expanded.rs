fn axpy(a: f64, x: &[f64], y: &mut [f64]) {
    for i in 0..y.len() {
        y[i] += a * x[i];
    }
}
#[doc = "Derived forward rule of [`axpy`](fn@axpy): `frule` runs it at any reading, `Rule` is its `lifted::FRule` marker for drivers, `CHUNK` its default width."]
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
mod axpy {
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
        a: LiftedF64,
        x: impl ::lifted::array::SliceArg<LiftedF64>,
        y: impl ::lifted::array::SliceArgMut<LiftedF64>,
    ) {
        let held = ::lifted::__private::SliceArg::hold(x);
        let x = ::lifted::__private::HeldSlice::view(&held);
        let mut held = ::lifted::__private::SliceArgMut::hold(y);
        let mut y = ::lifted::__private::HeldSliceMut::view_mut(&mut held);
        for i in 0..::lifted::__private::ArrayRead::len(&y) {
            {
                let __lifted_index = i;
                let mut __lifted_element = ::lifted::__private::ArrayRead::get(&y, __lifted_index);
                __lifted_element += a * ::lifted::__private::ArrayRead::get(&x, i);
                ::lifted::__private::ArrayWrite::set(&mut y, __lifted_index, __lifted_element);
            };
        }
    }
    #[doc = "The `lifted::FRule` marker of this function: what drivers and `lifted::testing::check_rule` take."]
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Rule;
    impl ::lifted::FRule for Rule {
        type Float = f64;
        type Args = (
            f64,
            ::lifted::__private::Vec<f64>,
            ::lifted::__private::Vec<f64>,
        );
        type Output = ();
        const CHUNK: usize = 8usize;
        const NAME: &'static str = "axpy";
        const MUTATES_ARGS: bool = true;
        #[inline]
        fn primal(self, args: &mut Self::Args) -> Self::Output {
            super::axpy(args.0, &args.1, &mut args.2)
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
            frule::<LiftedF64>(
                args.0,
                ::lifted::__private::ArrayView::view(&args.1),
                ::lifted::__private::ArrayViewMut::view_mut(&mut args.2),
            )
        }
    }
}
