use lifted::autodiff;

fn main() {
    // The rule is a sibling module of the function, and a module cannot see the items
    // of a function body: annotated functions live at module level.
    #[autodiff(forward)]
    fn cube(x: f64) -> f64 {
        x * x * x
    }

    let _ = lifted::gradient(cube::Rule, 2.0);
}
