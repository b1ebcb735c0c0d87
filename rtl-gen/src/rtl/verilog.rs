//! The Verilog-2005 emitter: a walk over a [`Module`] in fixed phases (header, ports, wire,
//! register and memory declarations, continuous assignments, instances, register processes,
//! memory processes), one function per phase, written through [`hdl_util::CodeWriter`] (the
//! indented writer the testbench emitter shares). It never infers a width: every range and
//! literal size comes from the representation. Long expressions and comments break over lines
//! of at most [`super::layout::WIDTH`] columns ([`super::layout`]).
//!
//! Conventions: ANSI port list with the clock and reset first, every data signal declared with
//! an explicit range (`[0:0]` for one bit), every literal sized, chains of one associative
//! operator and of `?:` printed without parentheses (Verilog parses them back to the same
//! tree), one `always` block per register and per memory, with asynchronous active-low reset.

use super::ir::{BinaryOp, Expr, ExprKind, UnaryOp};
use super::layout::Doc;
use super::module::{Direction, Module, PortRole, Target};
use hdl_util::{Bits, CodeWriter};

/// Renders `module` as the text of one Verilog-2005 file.
pub fn emit(module: &Module) -> String {
    let mut w = CodeWriter::new("  ");
    for line in module.header() {
        w.comment("// ", line);
    }
    w.blank();
    ports(&mut w, module);
    {
        let mut body = w.indent();
        declarations(&mut body, module);
        assigns(&mut body, module);
        instances(&mut body, module);
        registers(&mut body, module);
        memories(&mut body, module);
    }
    w.blank();
    w.line("endmodule");
    w.finish()
}

/// `module name (`, the ANSI port list (each port after its doc comment), `);`.
fn ports(w: &mut CodeWriter, module: &Module) {
    w.line(format!("module {} (", module.name()));
    {
        let mut list = w.indent();
        let last = module.ports().len().saturating_sub(1);
        for (i, p) in module.ports().iter().enumerate() {
            if !p.doc().is_empty() {
                list.comment("/// ", p.doc());
            }
            let direction = match p.direction() {
                Direction::Input => "input ",
                Direction::Output => "output",
            };
            let range = match p.role() {
                PortRole::Data => range(p.signal().width()),
                PortRole::Clock | PortRole::ResetLow => String::new(),
            };
            let comma = if i == last { "" } else { "," };
            list.line(format!(
                "{direction} wire {range:<7}{}{comma}",
                p.signal().name()
            ));
        }
    }
    w.line(");");
}

/// The wires, registers and memories, after one blank line when there are any.
fn declarations(w: &mut CodeWriter, module: &Module) {
    if !module.wires().is_empty()
        || !module.registers().is_empty()
        || !module.memories().is_empty()
        || !module.latches().is_empty()
    {
        w.blank();
    }
    for wire in module.wires() {
        w.line(format!("wire {}{};", range(wire.width()), wire.name()));
    }
    for r in module.registers() {
        w.line(format!("reg  {}{};", range(r.q().width()), r.q().name()));
    }
    for l in module.latches() {
        w.line(format!("reg  {}{};", range(l.q().width()), l.q().name()));
    }
    for m in module.memories() {
        let m = m.memory();
        w.line(format!(
            "reg  {}{} [0:{}];",
            range(m.width()),
            m.name(),
            m.depth() - 1
        ));
    }
}

/// The continuous assignments, after one blank line when there are any.
fn assigns(w: &mut CodeWriter, module: &Module) {
    if !module.assigns().is_empty() {
        w.blank();
    }
    for (target, value) in module.assigns() {
        let prefix = format!("assign {} = ", target_text(target));
        statement(w, &prefix, &expr(value), ";");
    }
}

/// Each instance, every port connected by name.
fn instances(w: &mut CodeWriter, module: &Module) {
    for inst in module.instances() {
        w.blank();
        w.line(format!("{} {} (", inst.module(), inst.name()));
        {
            let mut list = w.indent();
            let last = inst.connections().len().saturating_sub(1);
            for (i, (port, value)) in inst.connections().iter().enumerate() {
                let close = if i == last { ")" } else { ")," };
                statement(&mut list, &format!(".{port}("), &expr(value), close);
            }
        }
        w.line(");");
    }
}

/// The clock edge and the reset of a clocked module: `always @(posedge clk_i or negedge
/// rst_ni) begin` and `if (!rst_ni) begin`.
fn edge(module: &Module) -> (String, String) {
    let (clock, reset) = module
        .clock()
        .zip(module.reset())
        .unwrap_or_else(|| unreachable!("{}: state without a clock", module.name()));
    (
        format!(
            "always @(posedge {} or negedge {}) begin",
            clock.name(),
            reset.name()
        ),
        format!("if (!{}) begin", reset.name()),
    )
}

/// One `always` block per register: the reset value, then the next value (when enabled).
/// Registers without reset come first, each on its clock, then the latches (an explicit
/// sensitivity list and a non-blocking assignment: the form Verilator `-Wall`, Icarus and Yosys
/// all read as an intended latch), then the reset registers.
fn registers(w: &mut CodeWriter, module: &Module) {
    for r in module.registers().iter().filter(|r| !r.is_resettable()) {
        let clock = r
            .gated_clock()
            .or(module.clock())
            .unwrap_or_else(|| unreachable!("{}: state without a clock", module.name()));
        let q = r.q().name();
        w.blank();
        w.block(
            format!("always @(posedge {}) begin", clock.name()),
            "end",
            |w| match r.enable() {
                None => statement(w, &format!("{q} <= "), &expr(r.d()), ";"),
                Some(e) => {
                    statement(w, "if (", &expr(e), ") begin");
                    statement(&mut w.indent(), &format!("{q} <= "), &expr(r.d()), ";");
                    w.line("end");
                }
            },
        );
    }
    for l in module.latches() {
        let (en, d, q) = (l.enable().name(), l.d().name(), l.q().name());
        let open = if l.is_active_low() {
            format!("!{en}")
        } else {
            en.to_string()
        };
        w.blank();
        w.block(format!("always @({en} or {d}) begin"), "end", |w| {
            w.block(format!("if ({open}) begin"), "end", |w| {
                w.line(format!("{q} <= {d};"));
            });
        });
    }
    for r in module.registers().iter().filter(|r| r.is_resettable()) {
        let (always, if_reset) = edge(module);
        let q = r.q().name();
        w.blank();
        w.block(always, "end", |w| {
            w.line(if_reset);
            statement(
                &mut w.indent(),
                &format!("{q} <= "),
                &literal(r.reset()),
                ";",
            );
            match r.enable() {
                None => w.line("end else begin"),
                Some(e) => statement(w, "end else if (", &expr(e), ") begin"),
            }
            statement(&mut w.indent(), &format!("{q} <= "), &expr(r.d()), ";");
            w.line("end");
        });
    }
}

/// One `always` block per memory: its reset values when it has them, then its write ports.
fn memories(w: &mut CodeWriter, module: &Module) {
    for decl in module.memories() {
        let name = decl.memory().name();
        let writes = |w: &mut CodeWriter| {
            for port in decl.writes() {
                statement(w, "if (", &expr(port.enable()), ") begin");
                let lhs = format!("{name}[{}] <= ", expr(port.address()).flat());
                statement(&mut w.indent(), &lhs, &expr(port.data()), ";");
                w.line("end");
            }
        };
        w.blank();
        match decl.reset() {
            Some(values) => {
                let (always, if_reset) = edge(module);
                w.block(always, "end", |w| {
                    w.block(if_reset, "end else begin", |w| {
                        for (k, value) in values.iter().enumerate() {
                            statement(w, &format!("{name}[{k}] <= "), &literal(value), ";");
                        }
                    });
                    writes(&mut w.indent());
                    w.line("end");
                });
            }
            None => {
                let clock = module.clock().unwrap_or_else(|| unreachable!("no clock"));
                let always = format!("always @(posedge {}) begin", clock.name());
                w.block(always, "end", writes);
            }
        }
    }
}

/// Writes `prefix`, `value` broken over lines as needed, and `suffix`. [`Doc::lines`] aligns
/// continuation lines in absolute columns; the writer adds its own indentation, so they are
/// written without it.
fn statement(w: &mut CodeWriter, prefix: &str, value: &Doc, suffix: &str) {
    let margin = w.indentation();
    let mut lines = value.lines(margin + prefix.len(), suffix.len());
    lines[0].insert_str(0, prefix);
    if let Some(last) = lines.last_mut() {
        last.push_str(suffix);
    }
    for (i, line) in lines.iter().enumerate() {
        w.line(if i == 0 { line } else { &line[margin..] });
    }
}

fn target_text(target: &Target) -> String {
    let name = target.signal().name();
    match target.range() {
        None => name.to_string(),
        Some((msb, lsb)) => select(name, msb, lsb),
    }
}

/// `[msb:0] ` for a declaration.
fn range(width: u32) -> String {
    format!("[{}:0] ", width - 1)
}

fn select(name: &str, msb: u32, lsb: u32) -> String {
    if msb == lsb {
        format!("{name}[{msb}]")
    } else {
        format!("{name}[{msb}:{lsb}]")
    }
}

/// Bits of a literal printed as one hex number; wider non-zero constants print as a
/// concatenation of such pieces, most significant first, so a long one can break over lines.
const PIECE: usize = 64;

/// A sized literal: `1'b0`, `5'h07` (every hex digit of the width); `173'h0` for a wide zero.
fn literal(value: &Bits) -> Doc {
    let width = value.width();
    if width == 1 {
        return Doc::Text(format!("1'b{}", u8::from(value.bit(0))));
    }
    if width <= PIECE {
        return Doc::Text(format!("{width}'h{}", value.to_hex()));
    }
    if (0..width).all(|i| !value.bit(i)) {
        return Doc::Text(format!("{width}'h0"));
    }
    let top = (width - 1) % PIECE + 1;
    let mut items = Vec::new();
    let mut lsb = width - top;
    let mut piece = top;
    loop {
        let mut part = Bits::zero(piece);
        for i in 0..piece {
            part.set_bit(i, value.bit(lsb + i));
        }
        items.push((Doc::Text(format!("{piece}'h{}", part.to_hex())), ","));
        if lsb == 0 {
            break;
        }
        lsb -= PIECE;
        piece = PIECE;
    }
    Doc::List {
        open: "{".into(),
        items,
        close: "}".into(),
        fill: true,
    }
}

/// An operand of a binary operator or `?:`: operators and selects in parentheses.
fn operand(e: &Expr) -> Doc {
    match e.kind() {
        ExprKind::Binary(..) | ExprKind::Mux { .. } | ExprKind::Select { .. } => Doc::List {
            open: "(".into(),
            items: vec![(expr(e), "")],
            close: ")".into(),
            fill: false,
        },
        _ => expr(e),
    }
}

fn operator(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::And => " &",
        BinaryOp::Or => " |",
        BinaryOp::Xor => " ^",
        BinaryOp::Ne => " !=",
        BinaryOp::Shr => " >>",
        BinaryOp::Shl => " <<",
        BinaryOp::Add => " +",
        BinaryOp::Sub => " -",
        BinaryOp::Mul => " *",
        BinaryOp::Eq => " ==",
        BinaryOp::Lt => " <",
        BinaryOp::Ge => " >=",
    }
}

/// The operands of the left-nested chain `((a op b) op c) op d`, which Verilog's left
/// associativity lets print as `a op b op c op d`.
fn chain<'a>(op: BinaryOp, a: &'a Expr, b: &'a Expr, out: &mut Vec<&'a Expr>) {
    match a.kind() {
        ExprKind::Binary(inner, x, y)
            if *inner == op && (op.is_associative() || op == BinaryOp::Sub) =>
        {
            chain(op, x, y, out)
        }
        _ => out.push(a),
    }
    out.push(b);
}

/// The arms of a `?:` chain: right-nested muxes and selects, which Verilog's right
/// associativity lets print as `c0 ? v0 : c1 ? v1 : default`.
fn arms<'a>(e: &'a Expr, out: &mut Vec<(&'a Expr, &'a Expr)>) -> &'a Expr {
    match e.kind() {
        ExprKind::Mux {
            sel,
            then,
            otherwise,
        } => {
            out.push((sel, then));
            arms(otherwise, out)
        }
        ExprKind::Select {
            arms: list,
            default,
        } => {
            out.extend(list.iter().map(|(c, v)| (c, v)));
            arms(default, out)
        }
        _ => e,
    }
}

/// One expression as text that may break over lines.
fn expr(e: &Expr) -> Doc {
    match e.kind() {
        ExprKind::Ref(name) => Doc::Text(name.clone()),
        ExprKind::Slice { signal, msb, lsb } => Doc::Text(select(signal, *msb, *lsb)),
        ExprKind::Index { signal, index } => Doc::Text(format!("{signal}[{}]", expr(index).flat())),
        ExprKind::Read { memory, address } => {
            Doc::Text(format!("{memory}[{}]", expr(address).flat()))
        }
        ExprKind::Const(bits) => literal(bits),
        ExprKind::Concat(parts) => Doc::List {
            open: "{".into(),
            items: parts.iter().map(|p| (expr(p), ",")).collect(),
            close: "}".into(),
            fill: true,
        },
        ExprKind::Unary(op, a) => {
            let sym = match op {
                UnaryOp::Not => "~",
                UnaryOp::ReduceXor => "^",
                UnaryOp::ReduceOr => "|",
                UnaryOp::ReduceAnd => "&",
            };
            match a.kind() {
                ExprKind::Ref(_) | ExprKind::Slice { .. } | ExprKind::Concat(_) => {
                    expr(a).prefixed(sym)
                }
                _ => Doc::List {
                    open: format!("{sym}("),
                    items: vec![(expr(a), "")],
                    close: ")".into(),
                    fill: false,
                },
            }
        }
        ExprKind::Binary(op, a, b) => {
            let mut operands = Vec::new();
            chain(*op, a, b, &mut operands);
            let sep = operator(*op);
            Doc::List {
                open: String::new(),
                items: operands.into_iter().map(|o| (operand(o), sep)).collect(),
                close: String::new(),
                fill: true,
            }
        }
        ExprKind::Mux { .. } | ExprKind::Select { .. } => {
            let mut list = Vec::new();
            let default = arms(e, &mut list);
            let mut items: Vec<(Doc, &'static str)> = list
                .into_iter()
                .map(|(c, v)| {
                    let arm = Doc::List {
                        open: String::new(),
                        items: vec![(operand(c), " ?"), (operand(v), "")],
                        close: String::new(),
                        fill: true,
                    };
                    (arm, " :")
                })
                .collect();
            items.push((operand(default), ""));
            Doc::List {
                open: String::new(),
                items,
                close: String::new(),
                fill: false,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ops::{Add, Mul, Shl, Sub};

    #[test]
    fn instances_connect_every_port_by_name() {
        let mut sub = Module::new("leaf");
        sub.add_clock();
        sub.input("a_i", 4, "");
        sub.output("y_o", 4, "");
        let mut top = Module::new("top");
        top.add_clock();
        let a = top.input("a_i", 4, "");
        let y = top.output("y_o", 4, "");
        let outs = top.instantiate(&sub, "leaf", vec![("a_i", !a.expr())]);
        top.assign(&y, outs["y_o"].expr());
        let text = emit(&top);
        assert!(
            text.contains("  leaf u_leaf (\n    .clk_i(clk_i),\n    .rst_ni(rst_ni),\n    .a_i(~a_i),\n    .y_o(leaf_y)\n  );"),
            "{text}"
        );
    }

    #[test]
    fn literals_are_sized() {
        let lit = |v, w| literal(&Bits::from_u64(v, w)).flat();
        assert_eq!(lit(0, 1), "1'b0");
        assert_eq!(lit(7, 5), "5'h07");
        assert_eq!(lit(0xffff, 16), "16'hffff");
        assert_eq!(lit(0, 173), "173'h0");
        assert_eq!(lit(1, 72), "{8'h00, 64'h0000000000000001}");
    }

    #[test]
    fn emits_a_small_module() {
        let mut m = Module::new("demo").with_header(vec!["demo".into(), String::new()]);
        m.add_clock();
        let a = m.input("a_i", 4, "Input.");
        let y = m.output("y_o", 1, "Parity of the low bits.");
        let d = m.wire_of("y_d", Expr::xor_all(vec![a.bit(0), a.bit(1), a.bit(2)]));
        m.sink_unused("a", a.bit(3));
        let q = m.register("y_q", d.expr(), 0);
        m.assign(&y, q.expr());
        let text = emit(&m);
        assert!(text.starts_with("// demo\n//\n\nmodule demo (\n"), "{text}");
        assert!(
            text.contains("  assign y_d = a_i[0] ^ a_i[1] ^ a_i[2];\n"),
            "{text}"
        );
        assert!(text.contains("  input  wire        clk_i,\n"), "{text}");
        assert!(text.contains("  output wire [0:0]  y_o\n);"), "{text}");
        assert!(text.contains("      y_q <= 1'b0;"), "{text}");
    }

    #[test]
    fn emits_arithmetic_muxes_and_enabled_registers() {
        let mut m = Module::new("demo");
        m.add_clock();
        let a = m.input("a_i", 4, "");
        let b = m.input("b_i", 4, "");
        let we = m.input("we_i", 1, "");
        let y = m.output("y_o", 4, "");
        let sum = a.expr().zext(5).add(b.expr().zext(5));
        let s = m.wire_of("sum", sum);
        let wrap = s.expr().ge(Expr::constant(12, 5));
        let fixed = Expr::mux(wrap, s.expr().sub(Expr::constant(12, 5)), s.expr());
        let r = m.wire_of("res", fixed);
        m.sink_unused("res", r.bit(4));
        let q = m.register_enabled(
            "y_q",
            r.slice(3, 0),
            5,
            we.expr().and(a.expr().eq(b.expr())),
        );
        let mut reset = Bits::zero(72);
        reset.set_field(0, 64, u64::MAX);
        reset.set_bit(64, true);
        let wide = m.register_reset_to(
            "wide_q",
            Expr::concat(vec![a.expr(), Expr::zeros(64), b.expr()]).shl(b.expr()),
            reset,
        );
        m.sink_unused("wide", wide.expr().reduce_xor());
        m.assign(&y, q.expr().mul(Expr::constant(3, 4)));
        let text = emit(&m);
        for needle in [
            "  assign sum = {1'b0, a_i} + {1'b0, b_i};\n",
            "  assign res = (sum >= 5'h0c) ? (sum - 5'h0c) : sum;\n",
            "    end else if (we_i & (a_i == b_i)) begin\n      y_q <= res[3:0];\n",
            "      y_q <= 4'h5;\n",
            "  assign y_o = y_q * 4'h3;\n",
            "      wide_q <= {8'h01, 64'hffffffffffffffff};\n",
            "      wide_q <= {a_i, 64'h0000000000000000, b_i} << b_i;\n",
        ] {
            assert!(text.contains(needle), "missing {needle:?} in\n{text}");
        }
    }

    #[test]
    fn chains_and_selects_print_without_parentheses_and_break_long_lines() {
        let mut m = Module::new("demo");
        let a = m.input("a_i", 64, "");
        let s = m.input("s_i", 2, "");
        let y = m.output("y_o", 1, "");
        let z = m.output("z_o", 4, "");
        let any = (0..64).map(|i| a.bit(i)).reduce(|x, b| x.or(b)).unwrap();
        m.assign(&y, any);
        let v = |k| Expr::constant(k, 4);
        m.assign(
            &z,
            Expr::case(&s.expr(), vec![(0, v(1)), (1, v(2)), (2, v(4))], v(8)),
        );
        let text = emit(&m);
        assert!(
            text.lines().all(|l| l.len() <= super::super::layout::WIDTH),
            "{text}"
        );
        assert!(
            text.contains("  assign y_o = a_i[0] | a_i[1] | a_i[2] |"),
            "{text}"
        );
        assert!(
            text.contains(
                "  assign z_o = (s_i == 2'h0) ? 4'h1 : (s_i == 2'h1) ? 4'h2 : (s_i == 2'h2) ? 4'h4 : 4'h8;"
            ),
            "{text}"
        );
    }

    #[test]
    fn memories_print_as_arrays_with_ports() {
        let mut m = Module::new("demo");
        m.add_clock();
        let we = m.input("we_i", 1, "");
        let idx = m.input("idx_i", 2, "");
        let val = m.input("val_i", 3, "");
        let y = m.output("y_o", 3, "");
        let reset = (0..4).map(|k| Bits::from_u64(k, 3)).collect();
        let table = m.memory("table_q", 3, 4, Some(reset));
        m.write(&table, we.expr(), idx.expr(), val.expr());
        m.assign(&y, table.read(idx.expr()));
        let text = emit(&m);
        for needle in [
            "  reg  [2:0] table_q [0:3];\n",
            "  assign y_o = table_q[idx_i];\n",
            "      table_q[3] <= 3'h3;\n    end else begin\n      if (we_i) begin\n        table_q[idx_i] <= val_i;\n      end\n    end\n",
        ] {
            assert!(text.contains(needle), "missing {needle:?} in\n{text}");
        }
    }
}
