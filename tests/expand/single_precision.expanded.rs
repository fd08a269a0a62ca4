fn single(x: f32, y: f32) -> (f32, f32) {
    let n = 3;
    ((x * y).sin() + 2.0 * x.exp(), y / n as f32)
}
#[doc = "Derived forward rule of [`single`](fn@single): `frule` runs it at any reading, `Rule` is its `lifted::FRule` marker for drivers, `CHUNK` its default width."]
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
mod single {
    use super::*;
    use ::lifted::__private::{
        FieldFixed as _, FieldNative as _, FieldView as _, KeepOperand as _, LiftOperand as _,
    };
    #[doc = r" The default chunk width for drivers (the attribute's `chunk`)."]
    pub const CHUNK: usize = 2usize;
    #[doc = r" The derived rule, generic over the reading: at `f64` it reproduces the"]
    #[doc = r" primal function; at `lifted::NDual<f64, N>` it carries N directions."]
    #[inline]
    pub fn frule<LiftedF32: ::lifted::Reading<f32>>(
        x: LiftedF32,
        y: LiftedF32,
    ) -> <(f32, f32) as ::lifted::Param<f32>>::Store<LiftedF32> {
        let n = 3;
        (
            (x * y).sin() + ::lifted::Reading::<f32>::rmul(x.exp(), 2.0),
            y / n as f32,
        )
    }
    #[doc = "The `lifted::FRule` marker of this function: what drivers and `lifted::testing::check_rule` take."]
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Rule;
    impl ::lifted::FRule for Rule {
        type Float = f32;
        type Args = (f32, f32);
        type Output = (f32, f32);
        const CHUNK: usize = 2usize;
        const NAME: &'static str = "single";
        const MUTATES_ARGS: bool = false;
        #[inline]
        fn primal(self, args: &mut Self::Args) -> Self::Output {
            super::single(args.0, args.1)
        }
        #[inline]
        fn at_chunk<V: ::lifted::__private::AtWidth<f32>>(
            visitor: V,
        ) -> ::core::result::Result<V::Output, V> {
            ::core::result::Result::Ok(<f32 as ::lifted::__private::WidthTable>::at_const::<
                2usize,
                V,
            >(visitor))
        }
        #[inline]
        fn frule<LiftedF32: ::lifted::Reading<f32>>(
            self,
            args: &mut <Self::Args as ::lifted::Param<f32>>::Store<LiftedF32>,
        ) -> <Self::Output as ::lifted::Param<f32>>::Store<LiftedF32> {
            frule::<LiftedF32>(args.0, args.1)
        }
    }
}
