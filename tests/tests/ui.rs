//! trybuild cases: every supported construct compiles (`ui/pass`), every diagnostic
//! reads as written (`ui/fail`, with `.stderr`), and so does what a user reads for each
//! corpus function the macro rejects (`corpus_rejected`).

/// Every supported construct compiles and runs at the primal and dual readings.
#[test]
fn ui_pass() {
    trybuild::TestCases::new().pass("ui/pass/*.rs");
}

/// Diagnostics, compared against `.stderr` files written by this compiler version.
#[rustversion::stable(1.95)]
#[test]
fn ui_fail() {
    trybuild::TestCases::new().compile_fail("ui/fail/*.rs");
}

/// The `.stderr` files are tied to one compiler's wording: on another compiler the
/// fail cases are not compared, and this says so instead of passing silently.
#[rustversion::not(stable(1.95))]
#[test]
#[ignore = "ui/fail .stderr files are written for rustc 1.95"]
fn ui_fail() {
    eprintln!("skipped: ui/fail cases compare rustc 1.95 diagnostics");
}

/// The corpus functions the macro rejects (`corpus_rejected/`, with `REPORT.md`), each
/// a fail case: what a user who writes them reads.
#[rustversion::stable(1.95)]
#[test]
fn corpus_rejected() {
    trybuild::TestCases::new().compile_fail("corpus_rejected/*.rs");
}

/// See [`ui_fail`] on another compiler.
#[rustversion::not(stable(1.95))]
#[test]
#[ignore = "corpus_rejected .stderr files are written for rustc 1.95"]
fn corpus_rejected() {
    eprintln!("skipped: corpus_rejected cases compare rustc 1.95 diagnostics");
}

/// No diagnostic a user can reach names the macro's generated machinery: every
/// `ui/fail` `.stderr` is read for the names of generated items and hidden paths.
#[test]
fn diagnostics_name_no_generated_item() {
    const GENERATED: &[&str] = &[
        "__Lifted",
        "__lifted",
        "__private",
        "ArrayRead",
        "ArrayWrite",
        "ArrayView",
        "ArrayReading",
        "ArrayOwned",
        "::Ref<",
        "::Mut<",
        "LiftOperand",
        "KeepOperand",
        "Operand::<",
        "FieldArray",
        "IntoReading",
    ];
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    let mut found = Vec::new();
    for dir in ["ui/fail", "corpus_rejected"] {
        let dir = root.join(dir);
        for entry in std::fs::read_dir(&dir).expect("the fail cases' folder exists") {
            let path = entry.expect("readable entry").path();
            if path.extension().is_none_or(|e| e != "stderr") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("readable .stderr");
            checked += 1;
            for name in GENERATED {
                if text.contains(name) {
                    found.push(format!("{}: {name}", path.display()));
                }
            }
            // A dual struct (`ParticleDual<…>`): the derive's name for a lifted struct.
            if dual_struct_named(&text) {
                found.push(format!("{}: a dual struct", path.display()));
            }
        }
    }
    assert!(checked > 25, "only {checked} .stderr files");
    assert!(
        found.is_empty(),
        "diagnostics name generated items:\n{}",
        found.join("\n")
    );
}

/// Whether `text` names a generated dual struct: an identifier `…Dual` followed by its
/// reading argument, other than lifted's public readings (`NDual`, `ZDual`,
/// `HyperDual`, `DeviceDual`).
fn dual_struct_named(text: &str) -> bool {
    const PUBLIC: &[&str] = &["NDual", "ZDual", "HyperDual", "DeviceDual"];
    text.match_indices("Dual<").any(|(at, _)| {
        let start = text[..at]
            .rfind(|c: char| !c.is_alphanumeric() && c != '_')
            .map_or(0, |i| i + 1);
        let name = &text[start..at + 4];
        start < at && !PUBLIC.contains(&name)
    })
}

#[test]
fn dual_struct_names_are_recognised() {
    assert!(dual_struct_named(
        "cannot multiply `CplxDual<LiftedF64>` by"
    ));
    assert!(!dual_struct_named(
        "expected `NDual<f64, 2>`, found `ZDual<f64, 2>`"
    ));
    assert!(!dual_struct_named("a Dual<f64> in prose"));
}
