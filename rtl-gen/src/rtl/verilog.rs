//! The Verilog-2005 emitter: a walk over a [`Module`] in fixed phases (header, ports, wire and
//! register declarations, continuous assignments, register processes). It never infers a width:
//! every range and literal size comes from the representation.
//!
//! Conventions: ANSI port list with `clk_i`/`rst_ni` first, every data signal declared with an
//! explicit range (`[0:0]` for one bit), every literal sized, one `always` block per register
//! with asynchronous active-low reset.

use super::ir::{BinaryOp, Direction, Expr, ExprKind, Module, Signal, UnaryOp};
use std::fmt::Write;

/// Renders `module` as the text of one Verilog-2005 file.
pub fn emit(module: &Module) -> String {
    let mut out = String::new();
    for line in &module.header {
        if line.is_empty() {
            out.push_str("//\n");
        } else {
            let _ = writeln!(out, "// {line}");
        }
    }
    let _ = writeln!(out, "\nmodule {} (", module.name);
    let mut ports: Vec<(String, String)> = Vec::new();
    if module.clocked {
        ports.push(("input  wire        clk_i".into(), "Clock.".into()));
        ports.push((
            "input  wire        rst_ni".into(),
            "Asynchronous reset, active low.".into(),
        ));
    }
    for p in &module.ports {
        let dir = match p.direction {
            Direction::Input => "input ",
            Direction::Output => "output",
        };
        ports.push((
            format!(
                "{dir} wire {:<7}{}",
                range(p.signal.width()),
                p.signal.name()
            ),
            p.doc.clone(),
        ));
    }
    let last = ports.len().saturating_sub(1);
    for (i, (decl, doc)) in ports.iter().enumerate() {
        if !doc.is_empty() {
            let _ = writeln!(out, "  /// {doc}");
        }
        let _ = writeln!(out, "  {decl}{}", if i == last { "" } else { "," });
    }
    out.push_str(");\n");

    if !module.wires.is_empty() || !module.registers.is_empty() {
        out.push('\n');
    }
    for w in &module.wires {
        let _ = writeln!(out, "  wire {}{};", range(w.width()), w.name());
    }
    for r in &module.registers {
        let _ = writeln!(out, "  reg  {}{};", range(r.q.width()), r.q.name());
    }

    if !module.assigns.is_empty() {
        out.push('\n');
    }
    for (target, value) in &module.assigns {
        let lhs = match target.range {
            None => target.signal.name().to_string(),
            Some((msb, lsb)) => select(&target.signal, msb, lsb),
        };
        let _ = writeln!(out, "  assign {lhs} = {};", expr(value));
    }

    for inst in &module.instances {
        let mut conns = Vec::new();
        if inst.clocked {
            conns.push(".clk_i(clk_i)".to_string());
            conns.push(".rst_ni(rst_ni)".to_string());
        }
        conns.extend(
            inst.connections
                .iter()
                .map(|(port, value)| format!(".{port}({})", expr(value))),
        );
        let _ = write!(
            out,
            "\n  {} {} (\n    {}\n  );\n",
            inst.module,
            inst.name,
            conns.join(",\n    ")
        );
    }

    for r in &module.registers {
        let q = r.q.name();
        let condition = match &r.enable {
            None => String::new(),
            Some(e) => format!(" if ({})", expr(e)),
        };
        let _ = write!(
            out,
            "\n  always @(posedge clk_i or negedge rst_ni) begin\n    if (!rst_ni) begin\n      {q} <= {};\n    end else{condition} begin\n      {q} <= {};\n    end\n  end\n",
            r.wide_reset
                .as_ref()
                .map_or_else(|| literal(r.reset, r.q.width()), expr),
            expr(&r.d)
        );
    }
    out.push_str("\nendmodule\n");
    out
}

/// `[msb:0] ` for a declaration.
fn range(width: u32) -> String {
    format!("[{}:0] ", width - 1)
}

fn select(signal: &Signal, msb: u32, lsb: u32) -> String {
    if msb == lsb {
        format!("{}[{msb}]", signal.name())
    } else {
        format!("{}[{msb}:{lsb}]", signal.name())
    }
}

/// A sized literal: `1'b0`, `5'h07`.
fn literal(value: u64, width: u32) -> String {
    if width == 1 {
        format!("1'b{value}")
    } else {
        format!(
            "{width}'h{value:0digits$x}",
            digits = width.div_ceil(4) as usize
        )
    }
}

fn operand(e: &Expr) -> String {
    match e.kind() {
        ExprKind::Binary(..) | ExprKind::Mux { .. } => format!("({})", expr(e)),
        _ => expr(e),
    }
}

/// Renders one expression; binary operands that are themselves binary are parenthesised.
fn expr(e: &Expr) -> String {
    match e.kind() {
        ExprKind::Ref(name) => name.clone(),
        ExprKind::Slice { signal, msb, lsb } => {
            if msb == lsb {
                format!("{signal}[{msb}]")
            } else {
                format!("{signal}[{msb}:{lsb}]")
            }
        }
        ExprKind::Index { signal, index } => format!("{signal}[{}]", expr(index)),
        ExprKind::Const(v) => literal(*v, e.width()),
        ExprKind::Concat(parts) => {
            let parts: Vec<String> = parts.iter().map(expr).collect();
            format!("{{{}}}", parts.join(", "))
        }
        ExprKind::Unary(op, a) => {
            let sym = match op {
                UnaryOp::Not => "~",
                UnaryOp::ReduceXor => "^",
            };
            match a.kind() {
                ExprKind::Ref(_) | ExprKind::Slice { .. } | ExprKind::Concat(_) => {
                    format!("{sym}{}", expr(a))
                }
                _ => format!("{sym}({})", expr(a)),
            }
        }
        ExprKind::Binary(op, a, b) => {
            let sym = match op {
                BinaryOp::And => "&",
                BinaryOp::Or => "|",
                BinaryOp::Xor => "^",
                BinaryOp::Ne => "!=",
                BinaryOp::Shr => ">>",
                BinaryOp::Shl => "<<",
                BinaryOp::Add => "+",
                BinaryOp::Sub => "-",
                BinaryOp::Mul => "*",
                BinaryOp::Eq => "==",
                BinaryOp::Lt => "<",
                BinaryOp::Ge => ">=",
            };
            // XOR chains print flat: `a ^ b ^ c`.
            let lhs = match (op, a.kind()) {
                (BinaryOp::Xor, ExprKind::Binary(BinaryOp::Xor, ..)) => expr(a),
                _ => operand(a),
            };
            format!("{lhs} {sym} {}", operand(b))
        }
        ExprKind::Mux {
            sel,
            then,
            otherwise,
        } => format!(
            "{} ? {} : {}",
            operand(sel),
            operand(then),
            operand(otherwise)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    use std::ops::{Add, Mul, Shl, Sub};

    #[test]
    fn literals_are_sized() {
        assert_eq!(literal(0, 1), "1'b0");
        assert_eq!(literal(7, 5), "5'h07");
        assert_eq!(literal(0xffff, 16), "16'hffff");
    }

    #[test]
    fn emits_a_small_module() {
        let mut m = Module::new("demo");
        m.header.push("demo".into());
        m.add_clock();
        let a = m.input("a_i", 4, "Input.");
        let y = m.output("y_o", 1, "Parity of the low bits.");
        let d = m.wire_of("y_d", Expr::xor_all(vec![a.bit(0), a.bit(1), a.bit(2)]));
        m.sink_unused("a", a.bit(3));
        let q = m.register("y_q", d.expr(), 0);
        m.assign(&y, q.expr());
        let text = emit(&m);
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
        let wide = m.register_wide(
            "wide_q",
            Expr::concat(vec![a.expr(), Expr::constant(0, 64), Expr::constant(0, 4)]).shl(b.expr()),
            Expr::concat(vec![Expr::constant(1, 8), Expr::constant(u64::MAX, 64)]),
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
            "      wide_q <= {a_i, 64'h0000000000000000, 4'h0} << b_i;\n",
        ] {
            assert!(text.contains(needle), "missing {needle:?} in\n{text}");
        }
    }
}
