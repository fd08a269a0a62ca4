//! The map from primal types to forward values (`Lifted<P, D>`, through `Param` and
//! `ParamElem`): the forward value of each primal type at several readings, nested
//! containers, the accessors of forward values at `NDual` readings, zero-lifting, the
//! size invariants, and drivers running rules whose arguments are nested containers.

use core::mem::size_of;

use lifted::array::{ArrayRead, ArrayReading, LaneRef};
use lifted::{
    DiagJet, FRule, ForwardValue, Lifted, NDual, NDualArray, NDualMut, NDualRef, NoDual, Param,
    Reading, Taylor, ZDual, primal, tangent, tangent_lane, zero_lifted,
};

/// Whether `A` and `B` are the same type.
fn same_type<A: 'static, B: 'static>() -> bool {
    core::any::TypeId::of::<A>() == core::any::TypeId::of::<B>()
}

/// The forward value of `P` at the reading `NDual<f64, N>`.
type V<P, const N: usize> = Lifted<P, NDual<f64, N>>;

/// `p` zero-lifted to `NDual<f64, N>`.
fn zl<P: Param<f64>, const N: usize>(p: P) -> V<P, N> {
    zero_lifted::<f64, NDual<f64, N>, P>(&p)
}

#[test]
fn canonical_forward_values() {
    assert!(same_type::<V<f64, 4>, NDual<f64, 4>>());
    assert!(same_type::<Lifted<f32, NDual<f32, 2>>, NDual<f32, 2>>());
    // Nesting is the reading's: a float at a dual of duals is that dual of duals.
    assert!(same_type::<
        Lifted<f64, NDual<NDual<f64, 1>, 2>>,
        NDual<NDual<f64, 1>, 2>,
    >());
    assert!(same_type::<V<Vec<f64>, 3>, NDualArray<f64, 3>>());
    assert!(same_type::<
        Lifted<Vec<f32>, NDual<f32, 3>>,
        NDualArray<f32, 3>,
    >());
    // Borrowed arrays read as the reading's views inside a rule.
    assert!(same_type::<
        <NDual<f64, 3> as ArrayReading>::Ref<'static>,
        NDualRef<'static, f64, 3>,
    >());
    assert!(same_type::<
        <NDual<f64, 3> as ArrayReading>::Mut<'static>,
        NDualMut<'static, f64, 3>,
    >());
    assert!(same_type::<V<[f64; 3], 4>, [NDual<f64, 4>; 3]>());
    assert!(same_type::<V<[[f64; 2]; 3], 4>, [[NDual<f64, 4>; 2]; 3]>());
    assert!(same_type::<
        V<(f64, i32, bool), 2>,
        (NDual<f64, 2>, i32, bool),
    >());
    assert!(same_type::<V<Option<f64>, 2>, Option<NDual<f64, 2>>>());
    assert!(same_type::<
        V<Result<f64, String>, 2>,
        Result<NDual<f64, 2>, String>,
    >());
    assert!(same_type::<V<usize, 8>, usize>());
    assert!(same_type::<V<String, 8>, String>());
    assert!(same_type::<V<&'static str, 8>, &'static str>());
    assert!(same_type::<V<(), 8>, ()>());
    // Vecs of non-scalars are Vecs of forward values.
    assert!(same_type::<V<Vec<[f64; 2]>, 3>, Vec<[NDual<f64, 3>; 2]>>());
    assert!(same_type::<V<Vec<(f64, u8)>, 3>, Vec<(NDual<f64, 3>, u8)>>());
    assert!(same_type::<V<Vec<Vec<f64>>, 3>, Vec<NDualArray<f64, 3>>>());
    assert!(same_type::<V<Vec<i64>, 3>, Vec<i64>>());
    assert!(same_type::<
        V<Vec<(f64, f64)>, 3>,
        Vec<(NDual<f64, 3>, NDual<f64, 3>)>,
    >());
    assert!(same_type::<
        <f64 as lifted::ParamElem<f64>>::VecStore<NDual<f64, 2>>,
        NDualArray<f64, 2>,
    >());
    // Tuples up to 12 elements.
    type T12 = (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, u8);
    assert!(same_type::<
        V<T12, 1>,
        (
            NDual<f64, 1>,
            NDual<f64, 1>,
            NDual<f64, 1>,
            NDual<f64, 1>,
            NDual<f64, 1>,
            NDual<f64, 1>,
            NDual<f64, 1>,
            NDual<f64, 1>,
            NDual<f64, 1>,
            NDual<f64, 1>,
            NDual<f64, 1>,
            u8,
        ),
    >());
}

/// The map is keyed by the reading: the same primal type at the primal reading, at a
/// diagonal jet and at a Taylor polynomial.
#[test]
fn the_map_at_other_readings() {
    assert!(same_type::<Lifted<Vec<Vec<f64>>, f64>, Vec<Vec<f64>>>());
    assert!(same_type::<Lifted<[[f64; 2]; 3], f64>, [[f64; 2]; 3]>());
    assert!(same_type::<
        Lifted<Vec<Vec<f64>>, DiagJet<f64, 2>>,
        Vec<Vec<DiagJet<f64, 2>>>,
    >());
    assert!(same_type::<
        Lifted<Vec<[f64; 3]>, Taylor<f64, 4>>,
        Vec<[Taylor<f64, 4>; 3]>,
    >());
    assert!(same_type::<
        Lifted<Vec<Vec<Vec<f64>>>, NDual<f64, 2>>,
        Vec<Vec<NDualArray<f64, 2>>>,
    >());
}

#[test]
fn invariant_1_sizes() {
    // The primal is not stored twice: a scalar slot is exactly its NDual.
    assert_eq!(size_of::<V<f64, 1>>(), size_of::<[f64; 2]>());
    assert_eq!(size_of::<V<f64, 4>>(), size_of::<[f64; 5]>());
    assert_eq!(size_of::<V<f64, 64>>(), size_of::<[f64; 65]>());
    assert_eq!(
        size_of::<Lifted<f32, NDual<f32, 3>>>(),
        size_of::<[f32; 4]>()
    );
    // Fixed arrays: no allocation, no header.
    assert_eq!(size_of::<V<[f64; 3], 4>>(), size_of::<[[f64; 5]; 3]>());
    assert_eq!(size_of::<V<(f64, f64), 2>>(), size_of::<[f64; 6]>());
    // Inert values carry nothing extra.
    assert_eq!(size_of::<V<u32, 8>>(), size_of::<u32>());
    assert_eq!(size_of::<NoDual>(), 0);
    // A slice view is the two slices (primal and block), nothing else.
    assert_eq!(
        size_of::<<NDual<f64, 4> as ArrayReading>::Ref<'static>>(),
        2 * size_of::<&[f64]>()
    );
}

#[test]
fn scalar_accessors() {
    let x: V<f64, 2> = NDual::new(1.5, [1.0, -2.0]);
    assert_eq!(primal(&x), 1.5);
    assert_eq!(tangent(&x), &[1.0, -2.0]);
    assert_eq!(tangent_lane(&x, 1), -2.0);
    let z = zl::<f64, 3>(2.5);
    assert_eq!(primal(&z), 2.5);
    assert_eq!(tangent(&z), &[0.0; 3]);
}

#[test]
fn array_accessors() {
    let a = NDualArray::<f64, 2>::from_primal_fn(vec![1.0, 2.0, 3.0], |i, k| (10 * i + k) as f64);
    let slot: V<Vec<f64>, 2> = a.clone();
    // The primal is the array's own buffer.
    assert!(core::ptr::eq(primal(&slot), slot.as_primal_slice()));
    assert_eq!(primal(&slot), &[1.0, 2.0, 3.0]);
    assert_eq!(tangent(&slot), &[0.0, 1.0, 10.0, 11.0, 20.0, 21.0]);
    let lane: LaneRef<'_, f64, 2> = tangent_lane(&slot, 1);
    assert_eq!(lane.to_vec(), vec![1.0, 11.0, 21.0]);

    // Invariant 5: a rule reads through the accessors, whatever the view.
    let r: NDualRef<'_, f64, 2> = a.slice(1..);
    assert_eq!(primal(&r), &[2.0, 3.0]);
    assert_eq!(tangent(&r), &[10.0, 11.0, 20.0, 21.0]);
    assert_eq!(tangent_lane(&r, 0).to_vec(), vec![10.0, 20.0]);
    let mut b = a.clone();
    let m: NDualMut<'_, f64, 2> = b.view_mut();
    assert_eq!(primal(&m), &[1.0, 2.0, 3.0]);
    assert_eq!(tangent_lane(&m, 1).get(2), 21.0);

    let z = zl::<Vec<f64>, 4>(vec![1.0, 2.0]);
    assert_eq!(primal(&z), &[1.0, 2.0]);
    assert_eq!(tangent(&z), &[0.0; 8]);
}

#[test]
fn fixed_array_tuple_option_accessors() {
    // [f64; K]: element-wise, no allocation.
    let arr: V<[f64; 3], 2> = [
        NDual::new(1.0, [1.0, 0.0]),
        NDual::new(2.0, [0.0, 1.0]),
        NDual::new(3.0, [5.0, 6.0]),
    ];
    assert_eq!(primal(&arr), [1.0, 2.0, 3.0]);
    assert_eq!(tangent_lane(&arr, 1), [0.0, 1.0, 6.0]);
    assert_eq!(tangent(&arr)[2], &[5.0, 6.0]);
    let [a, b, _] = arr;
    assert_eq!((a + b).value(), 3.0);
    let z = zl::<[f64; 2], 3>([4.0, 5.0]);
    assert_eq!(primal(&z), [4.0, 5.0]);
    assert_eq!(tangent_lane(&z, 2), [0.0, 0.0]);

    // Tuples: element-wise, inert members keep their value and a NoDual tangent.
    let t = zl::<(f64, usize, bool), 2>((1.5, 7, true));
    assert_eq!(primal(&t), (1.5, &7, &true));
    assert_eq!(tangent_lane(&t, 0), (0.0, NoDual, NoDual));
    let t: V<(f64, Vec<f64>), 1> = (
        NDual::new(1.0, [2.0]),
        NDualArray::from_primal_fn(vec![3.0, 4.0], |i, _| i as f64),
    );
    let (p0, p1) = primal(&t);
    assert_eq!((p0, p1), (1.0, &[3.0, 4.0][..]));
    assert_eq!(tangent_lane(&t, 0).1.to_vec(), vec![0.0, 1.0]);
    let big = zl::<(f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64), 1>((
        1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0,
    ));
    assert_eq!(primal(&big).11, 12.0);

    // Option and Result: element-wise.
    let o: V<Option<f64>, 2> = Some(NDual::new(1.0, [2.0, 3.0]));
    assert_eq!(primal(&o), Some(1.0));
    assert_eq!(tangent_lane(&o, 1), Some(3.0));
    let n = zl::<Option<f64>, 2>(None);
    assert_eq!(primal(&n), None);
    let r = zl::<Result<f64, String>, 2>(Err("no".to_string()));
    assert_eq!(primal(&r), Err(&"no".to_string()));
    assert_eq!(tangent(&r), Err(NoDual));

    // Vec of non-scalars: a Vec of forward values.
    let v = zl::<Vec<[f64; 2]>, 2>(vec![[1.0, 2.0], [3.0, 4.0]]);
    assert_eq!(primal(&v), vec![[1.0, 2.0], [3.0, 4.0]]);
    assert_eq!(tangent_lane(&v, 1), vec![[0.0, 0.0], [0.0, 0.0]]);
}

#[test]
fn inert_accessors() {
    let i = zl::<i32, 4>(-3);
    assert_eq!(primal(&i), &-3);
    assert_eq!(tangent(&i), NoDual);
    assert_eq!(tangent_lane(&i, 0), NoDual);
    let s = zl::<String, 4>("x".into());
    assert_eq!(primal(&s), "x");
    let c = zl::<char, 1>('c');
    assert_eq!(primal(&c), &'c');
    let u: &() = &zl::<(), 1>(());
    assert_eq!(tangent(u), NoDual);
    let st = zl::<&'static str, 2>("borrowed");
    assert_eq!(*primal(&st), "borrowed");
}

#[test]
fn forward_value_of_width_64() {
    let a = NDualArray::<f64, 64>::seeded(vec![1.0; 70], 3);
    assert_eq!(ForwardValue::tangent(&a).len(), 64 * 70);
    assert_eq!(ForwardValue::tangent_lane(&a, 63).get(66), 1.0);
    assert_eq!(ForwardValue::tangent_lane(&a, 63).iter().sum::<f64>(), 1.0);
    let x = zl::<[f64; 2], 64>([1.0, 2.0]);
    assert_eq!(tangent_lane(&x, 63), [0.0, 0.0]);
}

#[test]
#[should_panic]
fn lane_past_the_width_panics() {
    let a = NDualArray::<f64, 2>::constant(vec![1.0]);
    let _ = tangent_lane(&a, 2);
}

/// Lifting, visiting, reading back, flattening: the degrees of freedom of nested
/// containers in one order, whatever the container, at every reading.
#[test]
fn nested_containers_lift_in_one_order() {
    let m = vec![vec![1.0, 2.0, 3.0], vec![], vec![4.0]];
    let arrays: Vec<[f64; 2]> = vec![[5.0, 6.0], [7.0, 8.0]];
    let grid = [[9.0, 10.0], [11.0, 12.0], [13.0, 14.0]];
    let args = (m.clone(), arrays.clone(), grid);
    assert_eq!(args.dim(), 4 + 4 + 6);
    let mut flat = Vec::new();
    args.flatten(&mut flat);
    assert_eq!(flat, (1..=14).map(f64::from).collect::<Vec<_>>());

    // Seed degree of freedom k with tangent k in lane 0: visiting returns them in order.
    let mut k = 0.0;
    let lifted = args.lift::<NDual<f64, 1>>(&mut |p| {
        k += 1.0;
        NDual::new(p, [k])
    });
    assert_eq!(lifted.0.len(), 3);
    assert_eq!(lifted.0[0].get(2).partial(0), 3.0);
    assert_eq!(lifted.0[2].get(0).value(), 4.0);
    assert_eq!(lifted.1[1][0].partial(0), 7.0);
    assert_eq!(lifted.2[2][1].partial(0), 14.0);
    let mut seen = Vec::new();
    <(Vec<Vec<f64>>, Vec<[f64; 2]>, [[f64; 2]; 3])>::visit(&lifted, &mut |d: NDual<f64, 1>| {
        seen.push((d.value(), d.partial(0)))
    });
    assert_eq!(
        seen,
        (1..=14)
            .map(|i| (f64::from(i), f64::from(i)))
            .collect::<Vec<_>>()
    );
    let back = <(Vec<Vec<f64>>, Vec<[f64; 2]>, [[f64; 2]; 3])>::primal_of(&lifted);
    assert_eq!(back, args);

    // Relifting into an earlier lift gives what a fresh lift gives.
    let mut store = lifted;
    let other = (vec![vec![0.5, 0.25], vec![2.0]], arrays, grid);
    other.relift(&mut store, &mut NDual::constant);
    let fresh = other.lift::<NDual<f64, 1>>(&mut NDual::constant);
    assert_eq!(store.0.len(), fresh.0.len());
    assert_eq!(store.0[0].as_primal_slice(), fresh.0[0].as_primal_slice());
    assert_eq!(store.0[1].as_primal_slice(), &[2.0]);

    // Unflatten writes the degrees of freedom back in the same order.
    let mut copy = (
        vec![vec![0.0; 3], vec![], vec![0.0]],
        vec![[0.0; 2]; 2],
        [[0.0; 2]; 3],
    );
    copy.unflatten(&mut flat.into_iter());
    assert_eq!(copy, args);
}

/// A lifted struct whose fields are nested containers, and a `Vec` of lifted structs.
#[derive(Clone, Debug, PartialEq, lifted::Lift)]
struct Mlp {
    weights: Vec<Vec<f64>>,
    biases: Vec<f64>,
    layers: [[f64; 2]; 1],
}

#[test]
fn lift_structs_hold_nested_containers() {
    assert!(same_type::<
        <Mlp as Param<f64>>::Store<NDual<f64, 2>>,
        MlpDual<NDual<f64, 2>>,
    >());
    let net = Mlp {
        weights: vec![vec![1.0, 2.0], vec![3.0]],
        biases: vec![0.5],
        layers: [[7.0, 8.0]],
    };
    assert_eq!(net.dim(), 6);
    let nets = vec![net.clone(), net.clone()];
    assert_eq!(nets.dim(), 12);
    let lifted = nets.lift::<NDual<f64, 2>>(&mut |p| NDual::new(p, [p, 0.0]));
    assert!(same_type::<
        Lifted<Vec<Mlp>, NDual<f64, 2>>,
        Vec<MlpDual<NDual<f64, 2>>>,
    >());
    assert_eq!(lifted[1].weights[0].get(1).partial(0), 2.0);
    assert_eq!(lifted[1].layers[0][1].value(), 8.0);
    assert_eq!(<Vec<Mlp>>::primal_of(&lifted), nets);
}

/// `Σᵢⱼ wᵢⱼ² xⱼ` over a matrix held as rows (`Vec<Vec<f64>>`) and a fixed-size
/// vector, written by hand against the map: drivers lift both arguments through it.
#[derive(Clone, Copy)]
struct RowsRule;

impl FRule for RowsRule {
    type Float = f64;
    type Args = (Vec<Vec<f64>>, [f64; 2]);
    type Output = f64;
    const CHUNK: usize = 4;
    const NAME: &'static str = "rows";
    fn primal(self, args: &mut Self::Args) -> f64 {
        let (w, x) = args;
        w.iter()
            .map(|row| {
                row.iter()
                    .zip(x.iter())
                    .map(|(a, b)| a * a * b)
                    .sum::<f64>()
            })
            .sum()
    }
    fn frule<D: Reading<f64>>(self, args: &mut Lifted<Self::Args, D>) -> D {
        let (w, x) = args;
        let mut s = D::constant(0.0);
        for row in w.iter() {
            for (j, xj) in x.iter().enumerate() {
                let a = ArrayRead::get(row, j);
                s += a * a * *xj;
            }
        }
        s
    }
}

#[test]
fn drivers_differentiate_nested_containers() {
    let w = vec![vec![1.0, 2.0], vec![3.0, -1.0]];
    let x = [0.5, 4.0];
    let (value, grad) = lifted::gradient(RowsRule, (w.clone(), x)).unwrap();
    assert_eq!(value, 1.0 * 0.5 + 4.0 * 4.0 + 9.0 * 0.5 + 1.0 * 4.0);
    // ∂/∂wᵢⱼ = 2 wᵢⱼ xⱼ in row order, then ∂/∂xⱼ = Σᵢ wᵢⱼ².
    let expected = [1.0, 16.0, 3.0, -8.0, 1.0 + 9.0, 4.0 + 1.0];
    assert_eq!(grad.len(), expected.len());
    for (g, e) in grad.iter().zip(expected) {
        assert!((g - e).abs() <= 1e-12, "{grad:?}");
    }
    // At every width the drivers run, the same gradient.
    for chunk in [1, 2, 3, 64] {
        let (_, g) = lifted::gradient_with_chunk(RowsRule, (w.clone(), x), chunk).unwrap();
        assert_eq!(g, grad, "chunk {chunk}");
    }
}

/// Lifting again only a range of degrees of freedom (what column passes do between
/// passes) leaves the store as lifting everything again would, for scalars, `Vec`s,
/// nested containers and tuples of them, at the dense and the zero-skipping readings,
/// whatever the range (empty, inside one argument, across several, past the end).
#[test]
fn relifting_a_range_equals_relifting_everything() {
    fn check<D: Reading<f64>>(
        seeded: impl Fn(usize, f64) -> D,
        flat: impl Fn(f64) -> D,
        parts: impl Fn(&D) -> Vec<f64>,
    ) {
        type Args = (f64, Vec<f64>, Vec<Vec<f64>>, [f64; 2]);
        let args: Args = (
            1.5,
            vec![1.0, 2.0, 3.0, 4.0],
            vec![vec![5.0, 6.0], vec![7.0]],
            [8.0, 9.0],
        );
        let dim = args.dim();
        let dofs = |store: &<Args as Param<f64>>::Store<D>| {
            let mut out = Vec::new();
            Args::visit(store, &mut |d: D| out.push(parts(&d)));
            out
        };
        for (start, end) in [
            (0, 0),
            (0, 1),
            (1, 3),
            (2, 7),
            (4, 8),
            (6, 10),
            (9, 12),
            (0, dim),
        ] {
            let seed = |k: usize, x: f64| {
                if (start..end).contains(&k) {
                    seeded(k, x)
                } else {
                    flat(x)
                }
            };
            // Every degree of freedom flat first, as a previous pass leaves those
            // outside its own range.
            let mut full = args.lift(&mut |x| flat(x));
            let mut ranged = args.lift(&mut |x| flat(x));
            let mut k = 0;
            args.relift(&mut full, &mut |x| {
                k += 1;
                seed(k - 1, x)
            });
            args.relift_range(&mut ranged, start..end, &mut |k, x| seed(k, x));
            assert_eq!(dofs(&ranged), dofs(&full), "range {start}..{end}");
        }
    }
    check(
        |k, x| NDual::<f64, 3>::new(x, [k as f64, 1.0, -(k as f64)]),
        NDual::constant,
        |d| [&[d.value()][..], d.partials()].concat(),
    );
    check(
        |k, x| ZDual::<f64, 3>::new(x, [k as f64, 1.0, -(k as f64)]),
        ZDual::constant,
        |d| {
            let flag = if d.is_flat() { 0.0 } else { 1.0 };
            [&[d.value(), flag][..], &d.partials()].concat()
        },
    );
}
