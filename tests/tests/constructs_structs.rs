//! User structs in rules — `#[derive(lifted::Lift)]` structs as parameters (by value,
//! `&`, `&mut`) and results, `#[constant]` fields, field reads on either side of an
//! operator, field assignment, struct literals (shorthand, `Self`), tuple structs,
//! nested structs, fixed-array fields, `impl` blocks whose `&self` / `&mut self`
//! methods are annotated — each written once for a float type `$t` and derived for
//! both `f64` and `f32`; every rule is checked by `check_rule` at widths 1, 2, 3 and 8
//! at several points (finite differences, the primal reading bit for bit).

#![allow(clippy::float_cmp, clippy::assign_op_pattern)]

use lifted_tests::alloc_counter::CountingAllocator;
use lifted_tests::constructs::check_at;

/// Counts allocations, so that `check_rule` also checks that these rules allocate
/// nothing.
#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// The types, functions and checks, for the float type `$t`.
macro_rules! constructs {
    ($t:ident) => {
        /// A point mass: position and velocity are differentiated, the mass and the
        /// step count are not.
        #[derive(Clone, Debug, PartialEq, lifted::Lift)]
        pub struct Particle {
            /// Position.
            pub x: $t,
            /// Velocity.
            pub v: $t,
            /// Mass (a constant: no tangent).
            #[constant]
            pub m: $t,
            /// Steps taken (a constant integer).
            #[constant]
            pub steps: usize,
        }

        /// A plane vector as a tuple struct.
        #[derive(Clone, Copy, Debug, PartialEq, lifted::Lift)]
        pub struct Vec2(pub $t, pub $t);

        /// Two particles joined by a spring: nested lifted structs.
        #[derive(Clone, Debug, PartialEq, lifted::Lift)]
        pub struct Spring {
            /// One end.
            pub a: Particle,
            /// The other end.
            pub b: Particle,
            /// Stiffness (differentiated).
            pub k: $t,
            /// Rest length (a constant).
            #[constant]
            pub rest: $t,
        }

        /// A small state vector with a constant length in use.
        #[derive(Clone, Debug, PartialEq, lifted::Lift)]
        pub struct State {
            /// Coordinates.
            pub q: [$t; 3],
            /// How many of them count.
            #[constant]
            pub used: usize,
        }

        /// A chain of masses: a growable lifted array and a constant table.
        #[derive(Clone, Debug, PartialEq, lifted::Lift)]
        pub struct Chain {
            /// Positions (differentiated).
            pub pos: Vec<$t>,
            /// Weights (a constant table).
            #[constant]
            pub weights: Vec<$t>,
        }

        #[autodiff(forward)]
        impl Particle {
            /// Kinetic energy: a constant field on the left of lifted ones.
            pub fn kinetic(&self) -> $t {
                0.5 * self.m * self.v * self.v
            }

            /// A step of size `dt` under force `f`: `&mut self` with field writes.
            pub fn advance(&mut self, f: $t, dt: $t) {
                self.v += f / self.m * dt;
                self.x = self.x + self.v * dt;
                self.steps += 1;
            }

            /// A moved copy: `Self` literal with shorthand and constant fields.
            pub fn moved(&self, dx: $t) -> Self {
                let x = self.x + dx;
                Self {
                    x,
                    v: self.v,
                    m: self.m,
                    steps: self.steps,
                }
            }
        }

        /// Field reads in every position: left and right of operators, a `let` of a
        /// constant field, a float method on a constant field, comparisons.
        #[autodiff(forward)]
        pub fn energy(p: &Particle, k: $t) -> $t {
            let m = p.m;
            let spring = 0.5 * k * p.x * p.x;
            let mut e = m * p.v * p.v / 2.0 + spring + p.m.sqrt() * p.x;
            if p.m > p.x {
                e += p.x * p.steps as $t;
            }
            e + p.x.sin() * p.m
        }

        /// A struct result built by a literal (shorthand, a literal, a constant field).
        #[autodiff(forward)]
        pub fn step(p: Particle, dt: $t) -> Particle {
            let v = p.v - p.x * dt / p.m;
            let x = p.x + v * dt;
            Particle {
                x,
                v,
                m: p.m,
                steps: p.steps + 1,
            }
        }

        /// A struct result whose literal starts from constants.
        #[autodiff(forward)]
        pub fn at_rest(x: $t) -> Particle {
            Particle {
                x: x * 2.0,
                v: 0.0,
                m: 1.5,
                steps: 0,
            }
        }

        /// `&mut` struct parameter (in/out), field assignment of lifted and constant
        /// values.
        #[autodiff(forward)]
        pub fn kick(p: &mut Particle, f: $t) {
            p.v += f / p.m;
            if p.v > 10.0 {
                p.v = 10.0;
            }
            p.x = p.x * 0.5 + p.v;
        }

        /// A tuple struct.
        #[autodiff(forward)]
        pub fn norm(v: Vec2, s: $t) -> $t {
            (v.0 * v.0 + v.1 * v.1 * s).sqrt()
        }

        /// Nested structs: fields of fields, a constant field of the outer struct.
        #[autodiff(forward)]
        pub fn spring_energy(s: &Spring) -> $t {
            let stretch = s.b.x - s.a.x - s.rest;
            0.5 * s.k * stretch * stretch + s.a.kinetic() + s.b.kinetic()
        }

        /// A fixed-array field indexed in a loop bounded by a constant field.
        #[autodiff(forward)]
        pub fn state_norm(s: &State) -> $t {
            let mut acc = 0.0;
            for i in 0..s.used {
                acc += s.q[i] * s.q[i];
            }
            acc + s.q[2]
        }

        /// `Vec` fields: index reads, writes and compound assignments, lifted and constant.
        #[autodiff(forward)]
        pub fn chain_energy(c: &mut Chain, s: $t) -> $t {
            let n = c.weights.len();
            let mut e = 0.0;
            for i in 1..n {
                let d = c.pos[i] - c.pos[i - 1];
                e += c.weights[i] * d * d;
            }
            c.pos[0] = c.pos[0] * s;
            c.pos[1] += s * c.weights[0];
            e + c.pos[0]
        }

        /// Methods of the dual struct called from a rule: `&self`, `&mut self`, `Self`.
        #[autodiff(forward)]
        pub fn through_methods(p: &Particle, dt: $t) -> $t {
            let mut q = p.moved(dt);
            q.advance(2.0, dt);
            q.kinetic() + p.kinetic() * q.x
        }

        fn particle(x: $t, v: $t, m: $t) -> Particle {
            Particle { x, v, m, steps: 3 }
        }

        #[test]
        fn field_reads() {
            check_at(
                energy::Rule,
                &[
                    (particle(0.7, -1.2, 2.0), 3.0),
                    (particle(2.5, 0.3, 1.5), 0.5),
                ],
            );
        }

        #[test]
        fn struct_results() {
            check_at(
                step::Rule,
                &[
                    (particle(0.7, -1.2, 2.0), 0.1),
                    (particle(-1.5, 0.4, 0.5), 0.3),
                ],
            );
            check_at(at_rest::Rule, &[(0.7,), (-1.5,)]);
        }

        #[test]
        fn in_out_struct() {
            check_at(
                kick::Rule,
                &[
                    (particle(0.7, -1.2, 2.0), 3.0),
                    (particle(0.2, 9.0, 0.5), 2.0),
                ],
            );
        }

        #[test]
        fn tuple_struct() {
            check_at(
                norm::Rule,
                &[(Vec2(0.7, -1.2), 2.0), (Vec2(3.0, 0.5), 0.25)],
            );
        }

        #[test]
        fn nested_structs() {
            let spring = |xa: $t, xb: $t| Spring {
                a: particle(xa, 0.5, 2.0),
                b: particle(xb, -0.25, 1.0),
                k: 3.0,
                rest: 1.0,
            };
            check_at(
                spring_energy::Rule,
                &[(spring(0.2, 1.7),), (spring(-0.5, 0.1),)],
            );
        }

        #[test]
        fn fixed_array_field() {
            let state = |used: usize| State {
                q: [0.7, -1.2, 2.0],
                used,
            };
            check_at(state_norm::Rule, &[(state(3),), (state(1),)]);
        }

        #[test]
        fn vec_fields() {
            let chain = |a: $t| Chain {
                pos: vec![a, 0.5, -1.25, 2.0],
                weights: vec![1.0, 2.0, 0.5, 1.5],
            };
            check_at(
                chain_energy::Rule,
                &[(chain(0.7), 1.5), (chain(-1.5), 0.25)],
            );
        }

        #[test]
        fn methods() {
            check_at(
                through_methods::Rule,
                &[
                    (particle(0.7, -1.2, 2.0), 0.1),
                    (particle(-1.5, 0.4, 0.5), 0.3),
                ],
            );
        }
    };
}

/// The constructs in `f64`.
mod f64s {
    use super::check_at;
    use lifted::autodiff;
    constructs!(f64);
}

/// The constructs in `f32`.
mod f32s {
    use super::check_at;
    use lifted::autodiff;
    constructs!(f32);
}
