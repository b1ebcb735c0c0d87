//! Every node of the RTL representation emits Verilog the three tools accept, including the
//! ones no block family uses yet: a module with memories (with and without reset, two write
//! ports), priority selects and cases, reductions, wide constants, a register reset to a wide
//! value and an instance passes `verilator --lint-only -Wall` (nothing suppressed),
//! `iverilog -g2005` and Yosys `check -assert`, and Yosys proves its memory equal to the same
//! table written as registers.

use rtl_gen::rtl::verilog::emit;
use rtl_gen::rtl::{Expr, Module};
use std::ops::{Add, Not};
use std::path::PathBuf;
use testbenches::Bits;

/// A leaf module the demo instantiates.
fn leaf() -> Module {
    let mut m = Module::new("ir_leaf");
    m.add_clock();
    let a = m.input("a_i", 8, "A byte.");
    let y = m.output("y_o", 8, "The byte a cycle later.");
    let q = m.register("a_q", a.expr(), 0x5a);
    m.assign(&y, q.expr());
    m
}

/// A module with every kind of node, `table_q` a memory when `memory`, else `depth` registers
/// holding the same table.
fn demo(memory: bool) -> Module {
    let mut m = Module::new("ir_demo").with_header(vec!["Every node of the IR.".into()]);
    m.add_clock();
    let we = m.input("we_i", 1, "Write the table.");
    let idx = m.input("idx_i", 2, "Entry written and read.");
    let val = m.input("val_i", 5, "Value written.");
    let wide = m.input("wide_i", 100, "A wide operand.");
    let y = m.output("y_o", 5, "The entry at idx_i.");
    let flags = m.output("flags_o", 3, "Any, all and parity of wide_i.");
    let pick = m.output("pick_o", 4, "A case over idx_i.");
    let big = m.output("big_o", 100, "A register reset to a wide constant.");
    let leaf_y = m.output("leaf_o", 8, "The leaf's output.");
    let reset: Vec<Bits> = (0..4).map(|k| Bits::from_u64(k * 7 % 32, 5)).collect();
    let read = if memory {
        let table = m.memory("table_q", 5, 4, Some(reset));
        m.write(&table, we.expr(), idx.expr(), val.expr());
        // A second port writing the entry above, later ports win.
        let above = idx.expr().add(Expr::constant(1, 2));
        m.write(&table, we.expr().and(val.bit(4)), above, val.expr().not());
        table.read(idx.expr())
    } else {
        let entries: Vec<_> = (0..4u64)
            .map(|k| {
                let at = |i: Expr| i.eq(Expr::constant(k, 2));
                let above = idx.expr().add(Expr::constant(1, 2));
                let next = m.wire(&format!("entry{k}_d"), 5);
                let q = m.register(&format!("entry{k}_q"), next.expr(), k * 7 % 32);
                let value = Expr::select(
                    vec![
                        (we.expr().and(val.bit(4)).and(at(above)), val.expr().not()),
                        (we.expr().and(at(idx.expr())), val.expr()),
                    ],
                    q.expr(),
                );
                m.assign(&next, value);
                (k, q.expr())
            })
            .collect();
        Expr::case(&idx.expr(), entries, Expr::zeros(5))
    };
    m.assign(&y, read);
    let any = wide.expr().reduce_or();
    let all = wide.expr().reduce_and();
    let parity = wide.expr().reduce_xor();
    m.assign(&flags, Expr::concat(vec![any, all, parity]));
    let v = |k| Expr::constant(k, 4);
    m.assign(
        &pick,
        Expr::case(&idx.expr(), vec![(0, v(1)), (1, v(2)), (2, v(4))], v(8)),
    );
    let mut init = Bits::zero(100);
    init.set_bit(99, true);
    init.set_bit(0, true);
    let big_q = m.register_reset_to("big_q", wide.expr(), init);
    m.assign(&big, big_q.expr());
    let sub = leaf();
    let outs = m.instantiate(&sub, "leaf", vec![("a_i", wide.slice(7, 0))]);
    m.assign(&leaf_y, outs["y_o"].expr());
    m
}

fn write(dir: &std::path::Path, modules: &[Module]) -> Vec<PathBuf> {
    modules
        .iter()
        .map(|m| {
            let path = dir.join(format!("{}.v", m.name()));
            std::fs::write(&path, emit(m)).unwrap();
            path
        })
        .collect()
}

#[test]
fn every_node_passes_the_three_tools() {
    let dir = tempfile::tempdir().unwrap();
    for memory in [true, false] {
        let files = write(dir.path(), &[demo(memory), leaf()]);
        testbenches::lint::verilator_lint(&files, "ir_demo").unwrap();
        testbenches::lint::iverilog_compile(&files, "ir_demo").unwrap();
        synth::check(&files, "ir_demo").unwrap();
    }
    let text = emit(&demo(true));
    assert!(text.contains("  reg  [4:0] table_q [0:3];"), "{text}");
    assert!(text.contains("  assign y_o = table_q[idx_i];"), "{text}");
}

#[test]
fn a_memory_is_the_table_of_registers_it_replaces() {
    // The memory and the registers hold the same table under different names, so the proof is
    // a bounded one: both from reset, every input sequence of 6 cycles.
    let dir = tempfile::tempdir().unwrap();
    let gold = dir.path().join("gold");
    let gate = dir.path().join("gate");
    std::fs::create_dir_all(&gold).unwrap();
    std::fs::create_dir_all(&gate).unwrap();
    let gold = write(&gold, &[demo(false), leaf()]);
    let gate = write(&gate, &[demo(true), leaf()]);
    let six = synth::EquivMethod::Bounded { cycles: 6 };
    synth::prove_equivalent(&gold, &gate, "ir_demo", six).unwrap();
    // A memory reset to another value differs in the cycle after reset, and is caught.
    let text = std::fs::read_to_string(&gate[0]).unwrap();
    assert_eq!(text.matches("table_q[2] <= 5'h0e;").count(), 1, "{text}");
    std::fs::write(
        &gate[0],
        text.replace("table_q[2] <= 5'h0e;", "table_q[2] <= 5'h0f;"),
    )
    .unwrap();
    let e = synth::prove_equivalent(&gold, &gate, "ir_demo", six).unwrap_err();
    assert!(e.to_string().contains("in_idx_i"), "{e}");
    // Induction matches registers by name and cannot see through the re-encoding.
    let induction = synth::EquivMethod::Induction { seq: 2 };
    assert!(synth::prove_equivalent(&gold, &gate, "ir_demo", induction).is_err());
}
