//! `NDualArray` and its views: the element-major layout contract, gather/scatter, lanes,
//! sub-slices, growth, iteration, and the generic array vocabulary at both readings.

use lifted::array::{
    ArrayMut, ArrayOwned, ArrayRead, ArrayRef, ArrayView, ArrayViewMut, ArrayWrite, LaneRef,
    LayoutError,
};
use lifted::{NDual, NDualArray, NDualMut, NDualRef, Reading};

/// A deterministic array of `len` elements: primal `i + 0.5`, partial `k` of element `i`
/// `100 i + k + 1` (every value distinct, so any misplaced read shows).
fn sample<const N: usize>(len: usize) -> NDualArray<f64, N> {
    let primal = (0..len).map(|i| i as f64 + 0.5).collect();
    NDualArray::from_primal_fn(primal, |i, k| (100 * i + k + 1) as f64)
}

/// Value and partials: `NDual`'s own `==` looks at the value only.
fn p<const N: usize>(d: NDual<f64, N>) -> (f64, [f64; N]) {
    (d.value(), *d.partials())
}

/// [`p`] of every element, in order.
fn ps<const N: usize>(it: impl IntoIterator<Item = NDual<f64, N>>) -> Vec<(f64, [f64; N])> {
    it.into_iter().map(p).collect()
}

fn dual<const N: usize>(value: f64, seed: f64) -> NDual<f64, N> {
    NDual::new(value, core::array::from_fn(|k| seed + k as f64))
}

/// The layout contract, checked against every element and lane.
fn assert_layout<const N: usize>(a: NDualRef<'_, f64, N>) {
    assert_eq!(a.partials_block().len(), N * a.len());
    for i in 0..a.len() {
        let e = a.get(i);
        assert_eq!(e.value(), a.as_primal_slice()[i]);
        for k in 0..N {
            assert_eq!(a.partials_block()[i * N + k], e.partial(k));
            assert_eq!(a.lane(k).get(i), e.partial(k));
        }
    }
}

#[test]
fn layout_offset_contract() {
    let a = sample::<3>(5);
    assert_layout(a.view());
    assert_eq!(a.as_primal_slice(), &[0.5, 1.5, 2.5, 3.5, 4.5]);
    for i in 0..5 {
        for k in 0..3 {
            assert_eq!(a.partials_block()[i * 3 + k], a.get(i).partial(k));
            assert_eq!(a.get(i).partial(k), (100 * i + k + 1) as f64);
        }
    }
}

#[test]
fn primal_is_a_genuine_slice_without_copy() {
    let a = sample::<4>(6);
    let p: &[f64] = a.as_primal_slice();
    // The same memory every time, and the views share it.
    assert!(core::ptr::eq(p, a.as_primal_slice()));
    assert!(core::ptr::eq(p, a.view().as_primal_slice()));
    let tail = a.slice(2..);
    assert!(core::ptr::eq(&p[2..], tail.as_primal_slice()));
    assert!(core::ptr::eq(
        &a.partials_block()[8..],
        tail.partials_block()
    ));
    let (primal, block) = a.clone().into_parts();
    assert_eq!(primal, p);
    assert_eq!(block.len(), 24);
}

#[test]
fn gather_scatter_round_trips() {
    let mut a = sample::<4>(5);
    let before = a.clone();
    for i in 0..5 {
        let e = a.get(i);
        a.set(i, e);
    }
    assert_eq!(a, before);

    let v = dual::<4>(-7.0, 0.25);
    a.set(2, v);
    assert_eq!(p(a.get(2)), p(v));
    // Nothing else moved.
    for i in [0, 1, 3, 4] {
        assert_eq!(p(a.get(i)), p(before.get(i)));
    }
    assert_eq!(&a.partials_block()[8..12], v.partials());
    assert_layout(a.view());

    let mut m = a.view_mut();
    m.set(4, v);
    assert_eq!(p(m.get(4)), p(v));
    assert_eq!(p(a.get(4)), p(v));
}

#[test]
fn constructors_and_their_errors() {
    let ok = NDualArray::<f64, 2>::from_parts(vec![1.0, 2.0], vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    assert_eq!(p(ok.get(1)), p(NDual::new(2.0, [3.0, 4.0])));

    let err = NDualArray::<f64, 2>::from_parts(vec![1.0, 2.0], vec![1.0, 2.0, 3.0]).unwrap_err();
    assert_eq!(
        err,
        LayoutError::Block {
            len: 2,
            width: 2,
            found: 3
        }
    );
    let msg = err.to_string();
    assert!(
        msg.contains("3 values") && msg.contains("2 elements"),
        "{msg}"
    );
    let _: &dyn std::error::Error = &err;

    let pr = [1.0, 2.0];
    let b = [0.0; 5];
    assert!(matches!(
        NDualRef::<f64, 2>::from_parts(&pr, &b),
        Err(LayoutError::Block { found: 5, .. })
    ));
    assert_eq!(
        NDualRef::<f64, 2>::from_parts(&pr, &b[..4]).unwrap().len(),
        2
    );
    let mut pm = [1.0, 2.0];
    let mut bm = [0.0; 3];
    assert!(NDualMut::<f64, 2>::from_parts(&mut pm, &mut bm).is_err());
    let mut bm = [0.0; 4];
    let mut m = NDualMut::<f64, 2>::from_parts(&mut pm, &mut bm).unwrap();
    m.set(0, NDual::new(9.0, [1.0, 2.0]));
    assert_eq!(pm, [9.0, 2.0]);
    assert_eq!(bm, [1.0, 2.0, 0.0, 0.0]);

    let c = NDualArray::<f64, 3>::constant(vec![1.0, 2.0]);
    assert_eq!(c.partials_block(), &[0.0; 6]);
    assert_eq!(c.as_primal_slice(), &[1.0, 2.0]);

    let lanes =
        NDualArray::<f64, 2>::from_lanes(vec![1.0, 2.0, 3.0], [&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0]])
            .unwrap();
    assert_eq!(lanes.partials_block(), &[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
    assert_eq!(lanes.lane(1).to_vec(), vec![4.0, 5.0, 6.0]);
    // Width 1: the block is the one lane; a lane of the wrong length is still refused.
    let one = NDualArray::<f64, 1>::from_lanes(vec![1.0, 2.0], [&[7.0, 8.0]]).unwrap();
    assert_eq!(one.partials_block(), &[7.0, 8.0]);
    assert_layout(one.view());
    assert_eq!(
        NDualArray::<f64, 1>::from_lanes(vec![1.0, 2.0], [&[7.0]]).unwrap_err(),
        LayoutError::Lane {
            lane: 0,
            len: 2,
            found: 1
        }
    );
    let bad = NDualArray::<f64, 2>::from_lanes(vec![1.0, 2.0, 3.0], [&[1.0, 2.0, 3.0], &[4.0]]);
    assert_eq!(
        bad.unwrap_err(),
        LayoutError::Lane {
            lane: 1,
            len: 3,
            found: 1
        }
    );

    let s = NDualArray::<f64, 2>::seeded(vec![1.0, 2.0, 3.0, 4.0], 1);
    assert_eq!(
        s.partials_block(),
        &[0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    );
    let s = NDualArray::<f64, 3>::seeded(vec![1.0, 2.0], 1);
    assert_eq!(s.partials_block(), &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0]);

    let e = NDualArray::from_elem(NDual::<f64, 2>::new(1.5, [2.0, 3.0]), 3);
    assert_eq!(e.partials_block(), &[2.0, 3.0, 2.0, 3.0, 2.0, 3.0]);
    assert_eq!(e.as_primal_slice(), &[1.5; 3]);
    // Partials of one value repeated are filled at once; zeros come from fresh pages,
    // and blocks this large ask the kernel for huge pages first.
    let same = NDualArray::from_elem(NDual::<f64, 2>::new(-1.0, [4.0, 4.0]), 2);
    assert_eq!(same.partials_block(), &[4.0; 4]);
    let big = NDualArray::from_elem(NDual::<f64, 2>::constant(0.25), 1 << 20);
    assert_eq!(big.len(), 1 << 20);
    assert!(big.as_primal_slice().iter().all(|&v| v == 0.25));
    assert!(big.partials_block().iter().all(|&v| v == 0.0));
    assert_eq!(big.partials_block().len(), 2 << 20);

    let collected: NDualArray<f64, 2> = (0..3).map(|i| dual(i as f64, 10.0 * i as f64)).collect();
    assert_eq!(p(collected.get(2)), p(dual(2.0, 20.0)));
    assert!(NDualArray::<f64, 2>::new().is_empty());
    assert!(NDualArray::<f64, 2>::with_capacity(10).capacity() >= 10);
}

#[test]
fn lane_views_are_stride_n_reads() {
    let a = sample::<3>(4);
    for k in 0..3 {
        let lane: LaneRef<'_, f64, 3> = a.lane(k);
        assert_eq!(lane.lane(), k);
        assert_eq!(lane.len(), 4);
        let strided: Vec<f64> = a.partials_block()[k..].iter().step_by(3).copied().collect();
        assert_eq!(lane.to_vec(), strided);
        assert_eq!(lane.iter().collect::<Vec<_>>(), strided);
        assert_eq!(
            lane.iter().rev().collect::<Vec<_>>(),
            strided.as_slice().iter().rev().copied().collect::<Vec<_>>()
        );
        assert_eq!(lane, *strided.as_slice());
        for i in 0..4 {
            assert_eq!(lane.get(i), a.get(i).partial(k));
        }
    }
    // Lanes of a sub-slice are lanes of the elements it views.
    let s = a.slice(1..3);
    assert_eq!(
        s.lane(2).to_vec(),
        vec![a.get(1).partial(2), a.get(2).partial(2)]
    );

    let mut b = a.clone();
    let mut lane = b.lane_mut(1);
    lane.set(2, -1.0);
    lane.copy_from_slice(&[10.0, 11.0, 12.0, 13.0]);
    for v in lane.iter_mut() {
        *v += 0.5;
    }
    assert_eq!(lane.to_vec(), vec![10.5, 11.5, 12.5, 13.5]);
    // Only lane 1 changed.
    for i in 0..4 {
        assert_eq!(b.get(i).value(), a.get(i).value());
        assert_eq!(b.get(i).partial(0), a.get(i).partial(0));
        assert_eq!(b.get(i).partial(1), 10.5 + i as f64);
        assert_eq!(b.get(i).partial(2), a.get(i).partial(2));
    }
    b.lane_mut(0).fill(0.0);
    assert!(b.lane(0).iter().all(|x| x == 0.0));
    // An empty array has empty lanes.
    let e = NDualArray::<f64, 3>::new();
    assert!(e.lane(2).is_empty());
    assert_eq!(e.lane(2).iter().count(), 0);
}

#[test]
#[should_panic(expected = "lane 3 out of range for width 3")]
fn lane_out_of_range_panics() {
    let a = sample::<3>(2);
    let _ = a.lane(3);
}

#[test]
#[should_panic]
fn gather_out_of_bounds_panics() {
    let a = sample::<3>(2);
    let _ = a.get(2);
}

#[test]
fn sub_slice_views_alias_the_right_part_of_the_block() {
    let mut a = sample::<2>(6);
    let s = a.slice(2..5);
    assert_eq!(s.len(), 3);
    assert_eq!(s.as_primal_slice(), &a.as_primal_slice()[2..5]);
    assert_eq!(s.partials_block(), &a.partials_block()[4..10]);
    assert_layout(s);
    for i in 0..3 {
        assert_eq!(p(s.get(i)), p(a.get(i + 2)));
    }
    assert_eq!(a.slice(..).len(), 6);
    assert_eq!(p(a.slice(..=1).get(1)), p(a.get(1)));
    assert_eq!(p(a.slice(4..).get(0)), p(a.get(4)));
    assert!(a.slice(3..3).is_empty());
    // Slices of slices.
    assert_eq!(p(s.slice(1..).get(0)), p(a.get(3)));

    let (l, r) = a.split_at(4);
    assert_eq!((l.len(), r.len()), (4, 2));
    assert_eq!(p(r.get(0)), p(a.get(4)));
    assert_eq!(l.partials_block(), &a.partials_block()[..8]);

    // Writes through a mutable sub-slice land in the right part of the block.
    let v = dual::<2>(-1.0, -2.0);
    let before = a.clone();
    {
        let mut m = a.slice_mut(1..4);
        m.set(0, v);
        let mut inner = m.slice_mut(2..);
        inner.set(0, v);
    }
    assert_eq!(p(a.get(1)), p(v));
    assert_eq!(p(a.get(3)), p(v));
    for i in [0, 2, 4, 5] {
        assert_eq!(p(a.get(i)), p(before.get(i)));
    }

    let (mut x, mut y) = a.split_at_mut(3);
    x.set(0, y.get(2));
    y.set(2, dual(42.0, 0.0));
    assert_eq!(p(a.get(0)), p(before.get(5)));
    assert_eq!(p(a.get(5)), p(dual(42.0, 0.0)));
}

#[test]
#[should_panic(expected = "range end index 7 out of range for slice of length 6")]
fn slice_out_of_range_panics() {
    let a = sample::<2>(6);
    let _ = a.slice(2..7);
}

#[test]
fn growth_keeps_the_layout() {
    let mut a = NDualArray::<f64, 3>::new();
    for i in 0..100 {
        a.push(dual(i as f64, i as f64 * 10.0));
        assert_eq!(a.partials_block().len(), 3 * a.len());
    }
    assert_layout(a.view());
    assert_eq!(p(a.get(57)), p(dual(57.0, 570.0)));

    assert_eq!(a.pop().map(p), Some(p(dual(99.0, 990.0))));
    assert_eq!(a.len(), 99);
    assert_layout(a.view());

    let tail = sample::<3>(4);
    a.extend_from_slice(tail.view());
    assert_eq!(a.len(), 103);
    assert_eq!(p(a.get(101)), p(tail.get(2)));
    a.extend(tail.iter());
    assert_eq!(a.len(), 107);
    a.extend([&tail.get(0)]);
    assert_eq!(p(a.get(107)), p(tail.get(0)));
    assert_layout(a.view());

    a.resize(110, dual(-1.0, -5.0));
    assert_eq!(a.len(), 110);
    assert_eq!(p(a.get(109)), p(dual(-1.0, -5.0)));
    assert_layout(a.view());
    a.resize(5, dual(0.0, 0.0));
    assert_eq!(a.len(), 5);
    assert_eq!(a.partials_block().len(), 15);
    a.truncate(10);
    assert_eq!(a.len(), 5);
    a.truncate(3);
    assert_eq!(a.len(), 3);

    a.insert(1, dual(7.0, 70.0));
    assert_eq!(p(a.get(1)), p(dual(7.0, 70.0)));
    assert_eq!(p(a.get(2)), p(dual(1.0, 10.0)));
    assert_layout(a.view());
    assert_eq!(p(a.remove(1)), p(dual(7.0, 70.0)));
    assert_eq!(p(a.get(1)), p(dual(1.0, 10.0)));
    assert_layout(a.view());

    a.clear();
    assert!(a.is_empty());
    assert!(a.partials_block().is_empty());
    assert_eq!(a.pop(), None);
}

#[test]
fn iteration_yields_lifted_elements() {
    let a = sample::<2>(5);
    let gathered: Vec<_> = (0..5).map(|i| a.get(i)).collect();
    assert_eq!(ps(a.iter()), ps(gathered.clone()));
    assert_eq!(a.iter().len(), 5);
    assert_eq!(ps(a.iter().rev()), ps(gathered.iter().rev().copied()));
    assert_eq!(a.iter().nth(3).map(p), Some(p(gathered[3])));
    assert_eq!(a.iter().nth(9), None);
    let mut it = a.iter();
    assert_eq!(it.next().map(p), Some(p(gathered[0])));
    assert_eq!(it.next_back().map(p), Some(p(gathered[4])));
    assert_eq!(it.len(), 3);

    let mut n = 0;
    for (i, v) in (&a).into_iter().enumerate() {
        assert_eq!(p(v), p(gathered[i]));
        n += 1;
    }
    assert_eq!(n, 5);
    for (i, v) in a.view().into_iter().enumerate() {
        assert_eq!(p(v), p(gathered[i]));
    }
    for (i, v) in a.slice(1..).iter().enumerate() {
        assert_eq!(p(v), p(gathered[i + 1]));
    }
    let owned: Vec<_> = a.clone().into_iter().collect();
    assert_eq!(ps(owned), ps(gathered.clone()));
    let back: Vec<_> = a.clone().into_iter().rev().collect();
    assert_eq!(p(back[0]), p(gathered[4]));

    let sum: NDual<f64, 2> = a.iter().sum();
    let expect: NDual<f64, 2> = gathered.iter().copied().sum();
    assert_eq!(p(sum), p(expect));
}

/// Width 0 (a primal with no tangent directions): the block is empty, and gathering,
/// scattering, iterating and constructing still follow the primal.
#[test]
fn width_zero_arrays_follow_the_primal() {
    let mut a = NDualArray::<f64, 0>::from_lanes(vec![1.0, 2.0, 3.0], []).unwrap();
    assert!(a.partials_block().is_empty());
    assert_eq!(p(a.get(1)), (2.0, []));
    a.set(2, NDual::new(7.0, []));
    *a.elem_mut(0) += 1.0;
    assert_eq!(a.as_primal_slice(), &[2.0, 2.0, 7.0]);
    assert_eq!(ps(a.iter()), vec![(2.0, []), (2.0, []), (7.0, [])]);
    assert_eq!(a.iter().len(), 3);
    assert_eq!(
        a.iter().rev().map(|d| d.value()).collect::<Vec<_>>(),
        [7.0, 2.0, 2.0]
    );
    assert_eq!(a.iter().nth(2).map(p), Some((7.0, [])));
    assert_eq!(a.iter().nth(3), None);
    let b: NDualArray<f64, 0> = a.iter().collect();
    assert_eq!(b, a);
    assert_layout(a.view());
}

#[test]
fn iter_mut_and_for_each_mut_scatter() {
    let mut a = sample::<3>(4);
    let before = a.clone();
    for mut v in a.iter_mut() {
        *v *= 2.0;
    }
    for i in 0..4 {
        assert_eq!(p(a.get(i)), p(before.get(i) * 2.0));
    }
    for mut v in &mut a {
        *v += 1.0;
    }
    assert_eq!(p(a.get(0)), p(before.get(0) * 2.0 + 1.0));

    a.for_each_mut(|x| *x = -*x);
    assert_eq!(p(a.get(3)), p(-(before.get(3) * 2.0 + 1.0)));
    assert_layout(a.view());

    *a.elem_mut(1) = NDual::new(0.0, [1.0, 2.0, 3.0]);
    assert_eq!(p(a.get(1)), p(NDual::new(0.0, [1.0, 2.0, 3.0])));
    *a.elem_mut(1) += NDual::new(1.0, [1.0, 1.0, 1.0]);
    assert_eq!(p(a.get(1)), p(NDual::new(1.0, [2.0, 3.0, 4.0])));

    // Through a mutable sub-view, backwards.
    let mut m = a.slice_mut(2..);
    for mut v in m.iter_mut().rev() {
        *v = NDual::constant(5.0);
    }
    m.for_each_mut(|x| *x += 1.0);
    for mut v in &mut m {
        *v *= 2.0;
    }
    assert_eq!(p(a.get(2)), p(NDual::constant(12.0)));
    assert_eq!(p(a.get(3)), p(NDual::constant(12.0)));
    assert_eq!(p(a.get(1)), p(NDual::new(1.0, [2.0, 3.0, 4.0])));
}

#[test]
fn windows_chunks_swap_and_copies() {
    let a = sample::<2>(5);
    let w: Vec<_> = a.windows(2).collect();
    assert_eq!(w.len(), 4);
    for (i, win) in w.iter().enumerate() {
        assert_eq!(win.len(), 2);
        assert_eq!(p(win.get(0)), p(a.get(i)));
        assert_eq!(p(win.get(1)), p(a.get(i + 1)));
        assert_eq!(win.partials_block(), &a.partials_block()[2 * i..2 * i + 4]);
    }
    assert_eq!(a.windows(2).len(), 4);
    assert_eq!(a.windows(5).count(), 1);
    assert_eq!(a.windows(6).count(), 0);
    assert_eq!(p(a.windows(2).next_back().unwrap().get(0)), p(a.get(3)));

    let c: Vec<_> = a.chunks(2).map(|c| c.len()).collect();
    assert_eq!(c, vec![2, 2, 1]);
    assert_eq!(p(a.chunks(2).next_back().unwrap().get(0)), p(a.get(4)));
    assert_eq!(p(a.chunks(2).nth(1).unwrap().get(1)), p(a.get(3)));

    let mut b = a.clone();
    for mut chunk in b.chunks_mut(2) {
        let first = chunk.get(0);
        chunk.set(0, first * 10.0);
    }
    assert_eq!(p(b.get(2)), p(a.get(2) * 10.0));
    assert_eq!(p(b.get(3)), p(a.get(3)));
    assert_eq!(p(b.get(4)), p(a.get(4) * 10.0));

    let mut s = a.clone();
    s.swap(0, 3);
    assert_eq!(p(s.get(0)), p(a.get(3)));
    assert_eq!(p(s.get(3)), p(a.get(0)));
    s.swap(1, 1);
    assert_eq!(p(s.get(1)), p(a.get(1)));
    assert_layout(s.view());
    s.view_mut().slice_mut(3..).swap(0, 1);
    assert_eq!(p(s.get(4)), p(a.get(0)));

    let copy = a.slice(1..3).to_vec();
    assert_eq!(copy.len(), 2);
    assert_eq!(p(copy.get(0)), p(a.get(1)));
    assert_eq!(a.to_vec(), a);

    let mut d = NDualArray::<f64, 2>::constant(vec![0.0; 2]);
    d.copy_from_slice(a.slice(3..));
    assert_eq!(p(d.get(1)), p(a.get(4)));
    d.fill(dual(3.0, 4.0));
    assert_eq!(p(d.get(0)), p(dual(3.0, 4.0)));
    assert_eq!(p(d.get(1)), p(dual(3.0, 4.0)));
}

#[test]
fn reborrow_and_conversions_of_mutable_views() {
    fn bump(mut m: NDualMut<'_, f64, 2>) {
        for mut v in m.iter_mut() {
            *v += 1.0;
        }
    }
    let mut a = sample::<2>(3);
    let before = a.clone();
    let mut m = a.view_mut();
    bump(m.reborrow());
    bump(m.reborrow());
    let r: NDualRef<'_, f64, 2> = m.into_ref();
    assert_eq!(p(r.get(0)), p(before.get(0) + 2.0));
    let (p, b) = r.into_parts();
    assert_eq!((p.len(), b.len()), (3, 6));
    let mut m = NDualMut::from(&mut a);
    m.as_primal_mut_slice()[0] = 100.0;
    m.partials_block_mut()[1] = -1.0;
    let (p, t) = m.as_parts_mut();
    p[1] = 200.0;
    t[2] = -2.0;
    assert_eq!(
        a.get(0),
        NDual::new(100.0, [before.get(0).partial(0), -1.0])
    );
    assert_eq!(a.get(1).value(), 200.0);
    assert_eq!(a.get(1).partial(0), -2.0);
    let owned = NDualArray::from(a.view());
    assert_eq!(owned, a);
}

#[test]
fn width_64_array() {
    let len = 10;
    let a = NDualArray::<f64, 64>::from_primal_fn((0..len).map(f64::from).collect(), |i, k| {
        (i * 64 + k) as f64
    });
    assert_eq!(a.partials_block().len(), 640);
    // The block is 0, 1, 2, … in order: the element-major offsets.
    assert!(
        a.partials_block()
            .iter()
            .enumerate()
            .all(|(o, &x)| x == o as f64)
    );
    assert_layout(a.view());
    assert_eq!(
        a.lane(63).to_vec(),
        (0..10).map(|i| (i * 64 + 63) as f64).collect::<Vec<_>>()
    );
    let mut b = a.clone();
    b.push(NDual::variable(1.0, 63));
    assert_eq!(b.get(10).partial(63), 1.0);
    assert_eq!(b.lane(63).get(10), 1.0);
    b.swap(0, 10);
    assert_eq!(b.get(0).partial(63), 1.0);
    assert_eq!(b.iter().count(), 11);
    let seeded = NDualArray::<f64, 64>::seeded(vec![0.0; 100], 64);
    assert_eq!(seeded.get(64).partial(0), 1.0);
    assert_eq!(seeded.get(99).partial(35), 1.0);
    assert_eq!(seeded.lane(0).iter().sum::<f64>(), 1.0);
}

#[test]
fn nested_readings_have_arrays_too() {
    type D2 = NDual<NDual<f64, 1>, 2>;
    let inner = |v: f64| NDual::<f64, 1>::new(v, [v * 10.0]);
    let a: NDualArray<NDual<f64, 1>, 2> = (0..3)
        .map(|i| D2::new(inner(i as f64), [inner(1.0), inner(2.0)]))
        .collect();
    assert_eq!(a.get(2).value(), inner(2.0));
    assert_eq!(p(a.lane(1).get(0)), p(inner(2.0)));
    assert_eq!(a.as_primal_slice()[1], inner(1.0));
}

/// Every array operation a derived rule needs, written once against a reading `D`,
/// using trait methods only: run at `f64` (the primal reading) and `NDual` it must give
/// the same primal results.
fn generic_ops<D: Reading<f64>>(x: D::Ref<'_>, mut y: D::Mut<'_>, v: &mut D::Vec) -> (D, D, usize) {
    // len / is_empty / get / first / last
    assert!(!x.is_empty());
    let n = x.len();
    let mut acc = x.get(0) + x.last().unwrap_or(D::zero()) + x.first().unwrap_or(D::zero());
    // iter (by value), sum
    let s: D = x.iter().sum();
    acc += s;
    // slice / split_at / windows / chunks, keeping the lifetime of x
    let tail = x.into_slice(1..);
    for w in tail.windows(2) {
        acc += w.get(1) * w.get(0);
    }
    for c in x.chunks(2) {
        acc += c.iter().fold(D::zero(), |a, b| a + b);
    }
    let (l, r) = x.split_at(n / 2);
    acc += l.get(0) - r.get(0);
    acc += x.slice(..2).get(1);
    // writes: set, elem_mut, iter_mut, for_each_mut, swap, slice_mut, copy_from_slice
    y.set(0, acc);
    *y.elem_mut(1) += x.get(1);
    for mut e in y.iter_mut() {
        *e *= 2.0;
        *e = e.powi(2) - *e;
    }
    y.for_each_mut(|e| *e = e.sin());
    y.swap(0, 2);
    {
        let mut part = y.slice_mut(1..3);
        part.set(0, part.get(0) + part.get(1));
    }
    y.slice_mut(3..).copy_from_slice(x.slice(..2));
    {
        // Views of a generic reading may have drop glue, so their borrows last to the
        // end of their scope: split borrows go in a block.
        let (mut a, mut b) = y.split_at_mut(2);
        a.set(0, b.get(0).max(a.get(0)));
        b.fill(D::constant(0.5));
    }
    y.view_mut().reverse();
    // owned: to_vec, push, pop, extend_from_slice, resize, truncate, insert, remove
    let mut w = x.to_vec();
    w.push(acc);
    let popped = w.pop().unwrap_or(D::zero());
    w.extend_from_slice(y.view());
    w.resize(w.len() + 2, D::constant(1.0));
    w.truncate(w.len() - 1);
    w.insert(0, popped);
    let removed = w.remove(1);
    w.extend(core::iter::once(removed));
    for e in w.clone() {
        v.push(e * e);
    }
    let total = v.iter().sum::<D>() + y.into_ref().iter().sum::<D>();
    (acc, total, v.len())
}

#[test]
fn generic_vocabulary_at_both_readings() {
    let x0 = vec![0.3, -1.2, 2.5, 0.7, 1.1];
    let y0 = vec![1.0, 2.0, 3.0, 4.0, 5.0];

    // The primal reading.
    let mut y_p = y0.clone();
    let mut v_p: Vec<f64> = Vec::new();
    let (acc_p, total_p, n_p) = generic_ops::<f64>(&x0[..], &mut y_p[..], &mut v_p);

    // The NDual reading, seeded.
    type D = NDual<f64, 3>;
    let x = NDualArray::<f64, 3>::seeded(x0.clone(), 1);
    let mut y = NDualArray::<f64, 3>::seeded(y0.clone(), 0);
    let mut v = NDualArray::<f64, 3>::new();
    let (acc, total, n) = generic_ops::<D>(x.view(), y.view_mut(), &mut v);

    // Invariant 2: every primal (including the mutated ones) is bitwise the primal run's.
    assert_eq!(acc.value().to_bits(), acc_p.to_bits());
    assert_eq!(total.value().to_bits(), total_p.to_bits());
    assert_eq!(n, n_p);
    assert_eq!(y.as_primal_slice(), y_p.as_slice());
    assert_eq!(v.as_primal_slice(), v_p.as_slice());
    assert_layout(y.view());
    assert_layout(v.view());
    // The tangents moved somewhere: the seeds propagated.
    assert!(v.partials_block().iter().any(|&t| t != 0.0));
}

#[test]
fn generic_vocabulary_at_f32() {
    fn scale<D: Reading<f32>>(mut y: D::Mut<'_>, c: f32) -> D {
        for mut e in y.iter_mut() {
            *e *= c;
        }
        y.view().iter().sum()
    }
    let mut p = vec![1.0f32, 2.0, 3.0];
    let s = scale::<f32>(&mut p, 2.0);
    let mut d = NDualArray::<f32, 2>::seeded(vec![1.0, 2.0, 3.0], 0);
    let t = scale::<NDual<f32, 2>>(d.view_mut(), 2.0);
    assert_eq!(s, t.value());
    assert_eq!(p.as_slice(), d.as_primal_slice());
    assert_eq!(t.partials(), &[2.0, 2.0]);
}

#[test]
fn array_read_for_plain_arrays() {
    let mut k = [NDual::<f64, 1>::constant(1.0), NDual::constant(2.0)];
    assert_eq!(ArrayRead::len(&k), 2);
    assert_eq!(ArrayRead::get(&k, 1).value(), 2.0);
    ArrayWrite::swap(&mut k, 0, 1);
    assert_eq!(k[0].value(), 2.0);
    let v = vec![1.0f64, 2.0];
    assert_eq!(ArrayRead::last(&v), Some(2.0));
    let r: &[f64] = &v;
    assert_eq!(ArrayRead::first(&r), Some(1.0));
    let e: &[f64] = &[];
    assert_eq!(ArrayRead::first(&e), None);
}
