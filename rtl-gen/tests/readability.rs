//! Every emitted module of every family reads like hand-written Verilog: at representative
//! sizes of each (the hash matrix of `common::all_designs`, RAP, wide RAP, RAS and 3P converters
//! baked, loadable, packed and pipelined from `w = 3` to `w = 1024`, every D²MA block at three
//! sizes and three address widths) no line is longer than 100 characters and no operator has
//! an operand its constant already decides (`1'b0 &`, `& 1'b1`, `| 1'b0`, `^ 4'h0`, a
//! constant select `1'b1 ?`), which the builders fold instead. The testbenches of the largest
//! of them fit the same width.

mod common;

use models::rap::{LayoutKind, Permutation};
use models::HashKind;
use rtl_gen::block::{self, Block, Header};
use rtl_gen::d2ma::vectors::D2maPlan;
use rtl_gen::d2ma::{D2maDesign, Unit};
use rtl_gen::hash::vectors::VectorPlan as HashPlan;
use rtl_gen::rap::vectors::VectorPlan as RapPlan;
use rtl_gen::rap::RapDesign;
use rtl_gen::rtl::layout::WIDTH;
use rtl_gen::rtl::verilog::emit;
use rtl_gen::rtl::Module;

/// A sized literal's value bits: `Some(("0", 'b'))` for `1'b0`; `None` for anything else.
fn literal(token: &str) -> Option<(&str, char)> {
    let (size, rest) = token.split_once('\'')?;
    if size.is_empty() || !size.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let mut chars = rest.chars();
    let base = chars.next()?;
    let digits = chars.as_str();
    (matches!(base, 'b' | 'h')
        && !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_hexdigit()))
    .then_some((digits, base))
}

/// Whether `token` is a literal that decides `operator` applied to it: zero for `&`, `|`,
/// `^`; one (`1'b1`) for `&` and `|`.
fn decides(token: &str, operator: &str) -> bool {
    let Some((digits, base)) = literal(token) else {
        return false;
    };
    let zero = digits.chars().all(|c| c == '0');
    let one = base == 'b' && digits == "1";
    match operator {
        "&" | "|" => zero || one,
        "^" => zero,
        _ => false,
    }
}

/// The problems of one line of Verilog: too long, or an unfolded constant.
fn problems(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    if line.len() > WIDTH {
        found.push(format!("{} characters", line.len()));
    }
    if line.trim_start().starts_with("//") {
        return found;
    }
    // Brackets and commas are tokens of their own: a literal and an operator side by side
    // are operand and operator (the emitter parenthesises every operand that is an operation,
    // except in a chain of one operator).
    let spaced: String = line
        .chars()
        .flat_map(|c| {
            if "(){},;~".contains(c) {
                vec![' ', c, ' ']
            } else {
                vec![c]
            }
        })
        .collect();
    let tokens: Vec<&str> = spaced.split_whitespace().collect();
    for pair in tokens.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if decides(a, b) || decides(b, a) {
            found.push(format!("unfolded constant `{a} {b}`"));
        }
        if b == "?" && literal(a).is_some() {
            found.push(format!("constant select `{a} ?`"));
        }
    }
    found
}

/// Every problem of `module`'s text, with its line.
fn check(module: &Module) -> Vec<String> {
    let text = emit(module);
    text.lines()
        .enumerate()
        .flat_map(|(i, line)| {
            problems(line).into_iter().map(move |p| {
                let shown: String = line.chars().take(100).collect();
                format!("{}:{}: {p}: {shown}", module.name(), i + 1)
            })
        })
        .collect()
}

fn assert_readable(modules: impl IntoIterator<Item = Module>) {
    let mut failures = Vec::new();
    let mut count = 0;
    for module in modules {
        failures.extend(check(&module));
        count += 1;
    }
    assert!(count > 0, "no modules checked");
    let shown: Vec<&String> = failures.iter().take(20).collect();
    assert!(
        failures.is_empty(),
        "{} problems in {count} modules:\n{shown:#?}",
        failures.len()
    );
}

#[test]
fn the_check_finds_what_it_looks_for() {
    assert!(problems(&"x".repeat(WIDTH)).is_empty());
    assert_eq!(problems(&"x".repeat(WIDTH + 1)).len(), 1);
    for bad in [
        "  assign a = (1'b0 & cfg_k2[0]);",
        "  assign a = b & 1'b1;",
        "  assign a = b | 1'b0;",
        "  assign a = b ^ 4'h0;",
        "  assign a = {b, c} | 8'h00;",
        "  assign a = 1'b1 ? b : c;",
    ] {
        assert!(!problems(bad).is_empty(), "{bad}");
    }
    for good in [
        "  assign a = mask0_q & 3'h6;",
        "  assign a = (b == 2'h0) ? 3'h1 : 3'h0;",
        "  assign a = b ^ c;",
        "// a comment with 1'b0 & in it",
    ] {
        assert!(problems(good).is_empty(), "{good}");
    }
}

/// The modules a block emits, top first.
fn of<B: Block>(block: &B) -> Vec<Module> {
    block.modules(&Header::new("rtl-gen test"))
}

#[test]
fn hashers_are_readable() {
    assert_readable(common::all_designs().iter().flat_map(of));
}

#[test]
fn rap_converters_are_readable() {
    let mut designs = Vec::new();
    for w in [3, 4, 6, 12, 16, 32, 64, 1024] {
        for (loadable, pipeline) in [(false, false), (true, false), (true, true)] {
            let d = RapDesign::from_seed(LayoutKind::Rap, w, 1, loadable, pipeline).unwrap();
            if loadable {
                designs.push(d.clone().with_packed().unwrap());
            }
            designs.push(d);
        }
        let reversed: Vec<u64> = (0..u64::from(w)).rev().collect();
        let perm = Permutation::new(w, &reversed).unwrap();
        if w % 2 == 0 {
            designs.push(RapDesign::rap_wide(&perm, false, false).unwrap());
        }
        designs.push(RapDesign::ras((0..w).map(|i| i % 2).collect(), true, false).unwrap());
        if w <= 32 {
            designs.push(RapDesign::three_p([&perm, &perm, &perm], true, true).unwrap());
        }
    }
    assert_readable(designs.iter().flat_map(of));
}

#[test]
fn d2ma_blocks_are_readable() {
    let mut modules = Vec::new();
    for (ctas, buffers, segment) in [(8, 4, 128), (2, 1, 32), (16, 2, 64)] {
        for unit in [Unit::Agen, Unit::Controller, Unit::RawCheck, Unit::Engine] {
            for bits in [64, 40, 24] {
                let d = D2maDesign::new(unit, ctas, buffers, segment).unwrap();
                let d = if bits == 64 {
                    d
                } else {
                    d.with_global_bits(bits).unwrap()
                };
                modules.extend(of(&d));
            }
        }
    }
    assert_readable(modules);
}

/// The testbench of each family's largest representative block: no line over the width (long
/// port lists in the header and in the compared concatenation wrap).
#[test]
fn testbenches_fit_the_line_width() {
    let hash = common::design(HashKind::BitwiseXor, 64, 65536, true, true);
    let rap = RapDesign::from_seed(LayoutKind::Rap, 1024, 1, true, false)
        .unwrap()
        .with_packed()
        .unwrap();
    let mut sources = vec![
        block::render(&hash, &HashPlan::default(), "rtl-gen test").testbench_source(),
        block::render(&rap, &RapPlan::default(), "rtl-gen test").testbench_source(),
    ];
    for unit in [Unit::Agen, Unit::Controller, Unit::RawCheck, Unit::Engine] {
        let d = D2maDesign::new(unit, 8, 4, 128).unwrap();
        let plan = D2maPlan {
            random: 1,
            ..D2maPlan::default()
        };
        sources.push(block::render(&d, &plan, "rtl-gen test").testbench_source());
    }
    for source in sources {
        let long: Vec<&str> = source.lines().filter(|l| l.len() > WIDTH).collect();
        assert!(long.is_empty(), "{long:#?}");
    }
}
