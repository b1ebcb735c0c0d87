//! Modules: ports (clock and reset among them, by role), wires, continuous assignments,
//! registers, memories and instances of other modules, built through methods that check every
//! name and width.
//!
//! A module is built, never edited: its fields are private, the builder methods append to them
//! in order (the emitter prints that order), and the accessors hand them to the emitter and the
//! manifest.

use super::ir::{bits_for, Expr, Signal};
use super::keywords::is_keyword;
use hdl_util::Bits;
use std::collections::BTreeMap;
use std::fmt;

/// The direction of a port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Driven from outside.
    Input,
    /// Driven by the module.
    Output,
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::Input => "input",
            Direction::Output => "output",
        })
    }
}

/// What a port is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PortRole {
    /// Data, addresses, configuration: everything but clock and reset.
    Data,
    /// `clk_i`: every register and memory write takes its rising edge.
    Clock,
    /// `rst_ni`: the asynchronous reset, active low, of every register and resettable memory.
    ResetLow,
}

/// A port of a module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Port {
    signal: Signal,
    direction: Direction,
    role: PortRole,
    doc: String,
}

impl Port {
    /// The port as a signal.
    pub fn signal(&self) -> &Signal {
        &self.signal
    }

    /// Its direction.
    pub fn direction(&self) -> Direction {
        self.direction
    }

    /// What it is for.
    pub fn role(&self) -> PortRole {
        self.role
    }

    /// What it carries, for the module header and the manifest.
    pub fn doc(&self) -> &str {
        &self.doc
    }
}

/// The target of a continuous assignment: a whole signal or a constant part of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    signal: Signal,
    range: Option<(u32, u32)>,
}

impl Target {
    /// The signal driven.
    pub fn signal(&self) -> &Signal {
        &self.signal
    }

    /// `Some((msb, lsb))` when only those bits are driven.
    pub fn range(&self) -> Option<(u32, u32)> {
        self.range
    }

    fn width(&self) -> u32 {
        self.range
            .map_or(self.signal.width(), |(msb, lsb)| msb - lsb + 1)
    }
}

/// A flip-flop stage clocked by the module's clock (or a gated clock), reset asynchronously
/// by its reset unless it is storage declared without one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Register {
    q: Signal,
    d: Expr,
    reset: Bits,
    enable: Option<Expr>,
    resettable: bool,
    clock: Option<Signal>,
}

impl Register {
    /// The register's output (`*_q`).
    pub fn q(&self) -> &Signal {
        &self.q
    }

    /// Its next value (`*_d`), of its width.
    pub fn d(&self) -> &Expr {
        &self.d
    }

    /// Its value under reset, of its width (any width).
    pub fn reset(&self) -> &Bits {
        &self.reset
    }

    /// A 1-bit write enable: the register loads `d` only on edges where it is 1 (`None`: every
    /// edge).
    pub fn enable(&self) -> Option<&Expr> {
        self.enable.as_ref()
    }

    /// Whether the module's reset resets it (`false`: storage written before it is read; its
    /// [`Register::reset`] value is then unused).
    pub fn is_resettable(&self) -> bool {
        self.resettable
    }

    /// The gated clock it samples on (a wire of the module, see [`Module::clock_gate`]);
    /// `None` for the module's clock.
    pub fn gated_clock(&self) -> Option<&Signal> {
        self.clock.as_ref()
    }
}

/// A level-sensitive latch: `q` follows `d` while `enable` is 1 (0 when active low) and holds
/// while it is not. Both are named signals, so the emitter can list them as the process's
/// sensitivity. A latch has no reset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Latch {
    q: Signal,
    d: Signal,
    enable: Signal,
    active_low: bool,
}

impl Latch {
    /// The latch's output.
    pub fn q(&self) -> &Signal {
        &self.q
    }

    /// The value it follows while open.
    pub fn d(&self) -> &Signal {
        &self.d
    }

    /// The 1-bit signal that opens it.
    pub fn enable(&self) -> &Signal {
        &self.enable
    }

    /// Whether it is open while `enable` is 0 (a clock gate's enable latch, open while the
    /// clock is low).
    pub fn is_active_low(&self) -> bool {
        self.active_low
    }
}

/// A memory as expressions and write ports refer to it: `depth` words of `width` bits, a
/// Verilog array `reg [width-1:0] name [0:depth-1]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Memory {
    name: String,
    width: u32,
    depth: u32,
}

impl Memory {
    /// The memory's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Bits per word.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Words.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Bits of a word address: `bits_for(depth)`.
    pub fn address_width(&self) -> u32 {
        bits_for(u64::from(self.depth))
    }

    /// The word at `address` (of [`Memory::address_width`] bits), read asynchronously: `width`
    /// bits. An address at or above `depth` reads an unspecified value (`x` in simulation), so
    /// a builder keeps such addresses out of its block's contract.
    pub fn read(&self, address: Expr) -> Expr {
        assert_eq!(
            address.width(),
            self.address_width(),
            "address of {} must have {} bits",
            self.name,
            self.address_width()
        );
        Expr::read(&self.name, address, self.width)
    }
}

/// A synchronous write port of a memory: on a rising clock edge with `enable` set, the word at
/// `address` takes `data`; later ports of one memory win over earlier ones at the same address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WritePort {
    enable: Expr,
    address: Expr,
    data: Expr,
}

impl WritePort {
    /// The 1-bit write enable.
    pub fn enable(&self) -> &Expr {
        &self.enable
    }

    /// The word address (of the memory's address width); addresses at or above its depth
    /// write nothing.
    pub fn address(&self) -> &Expr {
        &self.address
    }

    /// The word written (of the memory's width).
    pub fn data(&self) -> &Expr {
        &self.data
    }
}

/// A memory of a module with what it is reset to and its write ports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryDecl {
    memory: Memory,
    reset: Option<Vec<Bits>>,
    writes: Vec<WritePort>,
}

impl MemoryDecl {
    /// The memory.
    pub fn memory(&self) -> &Memory {
        &self.memory
    }

    /// Every word's value under the asynchronous reset, word 0 first (`None`: no reset, the
    /// array a synthesis tool can map to a RAM).
    pub fn reset(&self) -> Option<&[Bits]> {
        self.reset.as_deref()
    }

    /// The write ports, in priority order (the last wins).
    pub fn writes(&self) -> &[WritePort] {
        &self.writes
    }
}

/// An instance of another generated module (its file goes beside the parent's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    module: String,
    name: String,
    connections: Vec<(String, Expr)>,
}

impl Instance {
    /// The instantiated module's name.
    pub fn module(&self) -> &str {
        &self.module
    }

    /// The instance name (`u_<what>`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Every port of the instantiated module, clock and reset included, in its declaration
    /// order, and what drives it (inputs) or the wire it drives (outputs, a whole wire).
    pub fn connections(&self) -> &[(String, Expr)] {
        &self.connections
    }
}

/// One Verilog module under construction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Module {
    name: String,
    header: Vec<String>,
    ports: Vec<Port>,
    wires: Vec<Signal>,
    assigns: Vec<(Target, Expr)>,
    registers: Vec<Register>,
    memories: Vec<MemoryDecl>,
    latches: Vec<Latch>,
    instances: Vec<Instance>,
}

/// The clock port's name, and the reset's.
const CLOCK: &str = "clk_i";
const RESET: &str = "rst_ni";

impl Module {
    /// An empty module named `name` (also the name of its file).
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            header: Vec::new(),
            ports: Vec::new(),
            wires: Vec::new(),
            assigns: Vec::new(),
            registers: Vec::new(),
            memories: Vec::new(),
            latches: Vec::new(),
            instances: Vec::new(),
        }
    }

    /// The module with `lines` as the comment printed above it (an empty line prints `//`).
    pub fn with_header(mut self, lines: Vec<String>) -> Self {
        self.header = lines;
        self
    }

    /// The module's name (also its file's name).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The comment lines printed above the module.
    pub fn header(&self) -> &[String] {
        &self.header
    }

    /// Ports in declaration order (clock and reset first in a clocked module).
    pub fn ports(&self) -> &[Port] {
        &self.ports
    }

    /// Internal wires in declaration order.
    pub fn wires(&self) -> &[Signal] {
        &self.wires
    }

    /// Continuous assignments in order.
    pub fn assigns(&self) -> &[(Target, Expr)] {
        &self.assigns
    }

    /// Registers in order.
    pub fn registers(&self) -> &[Register] {
        &self.registers
    }

    /// Memories in order.
    pub fn latches(&self) -> &[Latch] {
        &self.latches
    }

    /// Memories in order.
    pub fn memories(&self) -> &[MemoryDecl] {
        &self.memories
    }

    /// Instances of other modules, in order.
    pub fn instances(&self) -> &[Instance] {
        &self.instances
    }

    /// The port with `role`, if the module has one.
    fn port_with(&self, role: PortRole) -> Option<&Signal> {
        self.ports
            .iter()
            .find(|p| p.role == role)
            .map(|p| &p.signal)
    }

    /// The clock port, in a clocked module.
    pub fn clock(&self) -> Option<&Signal> {
        self.port_with(PortRole::Clock)
    }

    /// The active-low asynchronous reset port, in a clocked module.
    pub fn reset(&self) -> Option<&Signal> {
        self.port_with(PortRole::ResetLow)
    }

    /// Whether the module has a clock and reset.
    pub fn is_clocked(&self) -> bool {
        self.clock().is_some()
    }

    fn check_name(&self, name: &str) {
        let fresh = !self.ports.iter().any(|p| p.signal.name() == name)
            && !self.wires.iter().any(|w| w.name() == name)
            && !self.registers.iter().any(|r| r.q.name() == name)
            && !self.memories.iter().any(|m| m.memory.name == name)
            && !self.latches.iter().any(|l| l.q.name() == name);
        assert!(fresh, "{name} declared twice in {}", self.name);
        assert!(!is_keyword(name), "{name} is a keyword");
        assert!(
            name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && name.starts_with(|c: char| c.is_ascii_lowercase()),
            "{name} is not a lower_snake_case identifier"
        );
    }

    /// Adds the clock `clk_i` and the asynchronous active-low reset `rst_ni` in front of the
    /// ports: every register and memory write of the module uses them.
    pub fn add_clock(&mut self) {
        assert!(!self.is_clocked(), "{} has a clock already", self.name);
        let clock = self.port(CLOCK, 1, Direction::Input, PortRole::Clock, "Clock.");
        let reset = self.port(
            RESET,
            1,
            Direction::Input,
            PortRole::ResetLow,
            "Asynchronous reset, active low.",
        );
        let (clock, reset) = (self.ports.remove(clock), self.ports.remove(reset - 1));
        self.ports.splice(0..0, [clock, reset]);
    }

    /// Adds an input data port of `width` bits.
    pub fn input(&mut self, name: &str, width: u32, doc: &str) -> Signal {
        let i = self.port(name, width, Direction::Input, PortRole::Data, doc);
        self.ports[i].signal.clone()
    }

    /// Adds an output data port of `width` bits.
    pub fn output(&mut self, name: &str, width: u32, doc: &str) -> Signal {
        let i = self.port(name, width, Direction::Output, PortRole::Data, doc);
        self.ports[i].signal.clone()
    }

    /// Appends a port and returns its position.
    fn port(
        &mut self,
        name: &str,
        width: u32,
        direction: Direction,
        role: PortRole,
        doc: &str,
    ) -> usize {
        self.check_name(name);
        self.ports.push(Port {
            signal: Signal::new(name, width),
            direction,
            role,
            doc: doc.into(),
        });
        self.ports.len() - 1
    }

    /// Declares a wire of `width` bits.
    pub fn wire(&mut self, name: &str, width: u32) -> Signal {
        self.check_name(name);
        let signal = Signal::new(name, width);
        self.wires.push(signal.clone());
        signal
    }

    /// Declares a wire driven by `value`, of its width.
    pub fn wire_of(&mut self, name: &str, value: Expr) -> Signal {
        let signal = self.wire(name, value.width());
        self.assign(&signal, value);
        signal
    }

    /// `assign signal = value;` (widths must match).
    pub fn assign(&mut self, signal: &Signal, value: Expr) {
        self.assign_target(
            Target {
                signal: signal.clone(),
                range: None,
            },
            value,
        );
    }

    /// `assign signal[bit] = value;` for a 1-bit value.
    pub fn assign_bit(&mut self, signal: &Signal, bit: u32, value: Expr) {
        self.assign_range(signal, bit, bit, value);
    }

    /// `assign signal[msb:lsb] = value;` for a value of `msb - lsb + 1` bits.
    pub fn assign_range(&mut self, signal: &Signal, msb: u32, lsb: u32, value: Expr) {
        assert!(
            lsb <= msb && msb < signal.width(),
            "[{msb}:{lsb}] of {}",
            signal.name()
        );
        let whole = lsb == 0 && msb + 1 == signal.width();
        self.assign_target(
            Target {
                signal: signal.clone(),
                range: (!whole).then_some((msb, lsb)),
            },
            value,
        );
    }

    fn assign_target(&mut self, target: Target, value: Expr) {
        assert_eq!(
            target.width(),
            value.width(),
            "assignment to {} of a {}-bit value",
            target.signal.name(),
            value.width()
        );
        self.assigns.push((target, value));
    }

    /// Declares register `name` (ending in `_q`: the builders name every register so, and a
    /// name without it panics), of `d`'s width, loading `d` on every rising clock edge and
    /// reset to the constant `reset` (of any width up to 64 bits; wider registers are reset to
    /// `reset` zero-extended).
    pub fn register(&mut self, name: &str, d: Expr, reset: u64) -> Signal {
        let reset = Bits::from_u64(reset, d.width() as usize);
        self.register_reset_to(name, d, reset)
    }

    /// Declares register `name` loading `d` on every rising clock edge, reset to `reset` (a
    /// value of `d`'s width, any width).
    pub fn register_reset_to(&mut self, name: &str, d: Expr, reset: Bits) -> Signal {
        assert!(self.is_clocked(), "register {name} in an unclocked module");
        assert_eq!(
            reset.width(),
            d.width() as usize,
            "reset value of {name} of another width"
        );
        self.check_name(name);
        assert!(
            name.ends_with("_q"),
            "register {name} in {}: a register's name ends in _q (lowRISC)",
            self.name
        );
        let q = Signal::new(name, d.width());
        self.registers.push(Register {
            q: q.clone(),
            d,
            reset,
            enable: None,
            resettable: true,
            clock: None,
        });
        q
    }

    /// Declares register `name` without reset, loading `d` on the rising edges of `clock`
    /// (`None`: the module's clock) where `enable` (1 bit; `None`: every edge) is 1: storage
    /// that is written before it is read, whose valid bit is reset elsewhere.
    pub fn register_unreset(
        &mut self,
        name: &str,
        d: Expr,
        enable: Option<Expr>,
        clock: Option<&Signal>,
    ) -> Signal {
        assert!(
            enable.as_ref().is_none_or(|e| e.width() == 1),
            "the enable of {name} must be 1 bit"
        );
        assert!(
            clock.is_none_or(|c| c.width() == 1),
            "the clock of {name} must be 1 bit"
        );
        let q = self.register(name, d, 0);
        if let Some(r) = self.registers.last_mut() {
            r.enable = enable;
            r.resettable = false;
            r.clock = clock.cloned();
        }
        q
    }

    /// Declares latch `name`, open while `enable` is 1 (0 with `active_low`), following the
    /// signal `d`.
    pub fn latch(&mut self, name: &str, d: &Signal, enable: &Signal, active_low: bool) -> Signal {
        assert_eq!(
            enable.width(),
            1,
            "the enable of latch {name} must be 1 bit"
        );
        self.check_name(name);
        let q = Signal::new(name, d.width());
        self.latches.push(Latch {
            q: q.clone(),
            d: d.clone(),
            enable: enable.clone(),
            active_low,
        });
        q
    }

    /// A clock gate: the wire `name`, the module's clock while `enable` was 1 in the clock's
    /// last low phase, else 0. A latch open while the clock is low holds the enable, so the
    /// gated clock has no glitch: the integrated clock-gating cell written as a latch and an
    /// AND gate (lowRISC's generic `prim_clock_gating`).
    pub fn clock_gate(&mut self, name: &str, enable: Expr) -> Signal {
        let clock = self
            .clock()
            .cloned()
            .unwrap_or_else(|| panic!("clock gate {name} in an unclocked module"));
        let en = self.wire_of(&format!("{name}_en"), enable);
        let held = self.latch(&format!("{name}_en_l"), &en, &clock, true);
        self.wire_of(name, clock.expr().and(held.expr()))
    }

    /// Declares register `name` (reset to `reset`) loading `d` on the rising edges where the
    /// 1-bit `enable` is 1 and holding its value otherwise.
    pub fn register_enabled(&mut self, name: &str, d: Expr, reset: u64, enable: Expr) -> Signal {
        assert_eq!(enable.width(), 1, "the enable of {name} must be 1 bit");
        let q = self.register(name, d, reset);
        if let Some(r) = self.registers.last_mut() {
            r.enable = Some(enable);
        }
        q
    }

    /// A register `<base>_q` whose next value is the wire `<base>_d`, returned as
    /// `(q, d)`: assign `d` later, so the next value may depend on `q` itself (feedback).
    pub fn state(&mut self, base: &str, width: u32, reset: u64) -> (Signal, Signal) {
        let d = self.wire(&format!("{base}_d"), width);
        let q = self.register(&format!("{base}_q"), d.expr(), reset);
        (q, d)
    }

    /// Declares memory `name` of `depth` words of `width` bits. With `reset`, every word is
    /// reset asynchronously to its value there (`depth` values of `width` bits, word 0 first):
    /// flip-flops, as an array. Without, the array has no reset and maps to a RAM.
    pub fn memory(
        &mut self,
        name: &str,
        width: u32,
        depth: u32,
        reset: Option<Vec<Bits>>,
    ) -> Memory {
        assert!(width > 0 && depth > 0, "empty memory {name}");
        if let Some(values) = &reset {
            assert!(
                self.is_clocked(),
                "reset memory {name} in an unclocked module"
            );
            assert_eq!(values.len(), depth as usize, "reset values of {name}");
            assert!(
                values.iter().all(|v| v.width() == width as usize),
                "reset value of {name} of another width"
            );
        }
        self.check_name(name);
        let memory = Memory {
            name: name.into(),
            width,
            depth,
        };
        self.memories.push(MemoryDecl {
            memory: memory.clone(),
            reset,
            writes: Vec::new(),
        });
        memory
    }

    /// Adds a write port to `memory`: on a rising clock edge with the 1-bit `enable` set, the
    /// word at `address` takes `data`.
    pub fn write(&mut self, memory: &Memory, enable: Expr, address: Expr, data: Expr) {
        assert!(
            self.is_clocked(),
            "write to {} without a clock",
            memory.name
        );
        assert_eq!(
            enable.width(),
            1,
            "the write enable of {} must be 1 bit",
            memory.name
        );
        assert_eq!(
            address.width(),
            memory.address_width(),
            "write address of {}",
            memory.name
        );
        assert_eq!(data.width(), memory.width, "write data of {}", memory.name);
        let decl = self
            .memories
            .iter_mut()
            .find(|m| m.memory == *memory)
            .unwrap_or_else(|| panic!("{} is not a memory of {}", memory.name, self.name));
        decl.writes.push(WritePort {
            enable,
            address,
            data,
        });
    }

    /// Instantiates `sub` as `u_<prefix>`: `inputs` drive its input data ports (every one, with
    /// matching widths), its clock and reset take this module's, and each output port
    /// `<port>_o` drives a new wire `<prefix>_<port>`; returns those wires by port name. A
    /// clocked `sub` needs a clocked parent.
    pub fn instantiate(
        &mut self,
        sub: &Module,
        prefix: &str,
        inputs: Vec<(&str, Expr)>,
    ) -> BTreeMap<String, Signal> {
        let mut given: BTreeMap<&str, Expr> = inputs.into_iter().collect();
        let mut outputs = BTreeMap::new();
        let mut connections = Vec::new();
        for port in &sub.ports {
            let name = port.signal.name();
            let value = match (port.role, port.direction) {
                (PortRole::Clock | PortRole::ResetLow, _) => self
                    .port_with(port.role)
                    .unwrap_or_else(|| panic!("clocked {} in an unclocked module", sub.name))
                    .expr(),
                (PortRole::Data, Direction::Input) => {
                    let value = given
                        .remove(name)
                        .unwrap_or_else(|| panic!("{}.{name} is not connected", sub.name));
                    assert_eq!(
                        value.width(),
                        port.signal.width(),
                        "{}.{name} connected to a {}-bit value",
                        sub.name,
                        value.width()
                    );
                    value
                }
                (PortRole::Data, Direction::Output) => {
                    let base = name.strip_suffix("_o").unwrap_or(name);
                    let wire = self.wire(&format!("{prefix}_{base}"), port.signal.width());
                    outputs.insert(name.to_string(), wire.clone());
                    wire.expr()
                }
            };
            connections.push((name.to_string(), value));
        }
        assert!(
            given.is_empty(),
            "{} has no ports {:?}",
            sub.name,
            given.keys()
        );
        self.instances.push(Instance {
            module: sub.name.clone(),
            name: format!("u_{prefix}"),
            connections,
        });
        outputs
    }

    /// Sinks `value` into a wire named `unused_<what>`: the lowRISC idiom for inputs a block
    /// ignores, which Verilator's default `--unused-regexp` honours.
    pub fn sink_unused(&mut self, what: &str, value: Expr) {
        self.wire_of(&format!("unused_{what}"), value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ops::Add;

    #[test]
    fn clock_and_reset_are_the_first_ports_with_their_roles() {
        let mut m = Module::new("m");
        m.input("a_i", 8, "");
        m.add_clock();
        let roles: Vec<(&str, PortRole)> = m
            .ports()
            .iter()
            .map(|p| (p.signal().name(), p.role()))
            .collect();
        assert_eq!(
            roles,
            [
                ("clk_i", PortRole::Clock),
                ("rst_ni", PortRole::ResetLow),
                ("a_i", PortRole::Data)
            ]
        );
        assert_eq!(m.clock().map(Signal::name), Some("clk_i"));
        assert_eq!(m.reset().map(Signal::name), Some("rst_ni"));
        let (q, d) = m.state("count", 4, 0);
        m.assign(&d, q.expr().add(Expr::constant(1, 4)));
        assert_eq!(m.registers()[0].q().name(), "count_q");
        assert_eq!(m.wires()[0].name(), "count_d");
    }

    #[test]
    fn registers_reset_to_values_of_any_width() {
        let mut m = Module::new("m");
        m.add_clock();
        let a = m.input("a_i", 8, "");
        let mut reset = Bits::zero(130);
        reset.set_bit(129, true);
        m.register_reset_to("wide_q", a.expr().zext(130), reset.clone());
        m.register("narrow_q", a.expr(), 0xa5);
        assert_eq!(m.registers()[0].reset(), &reset);
        assert_eq!(m.registers()[1].reset().field(0, 8), 0xa5);
    }

    #[test]
    fn memories_have_read_and_write_ports() {
        let mut m = Module::new("m");
        m.add_clock();
        let we = m.input("we_i", 1, "");
        let idx = m.input("idx_i", 3, "");
        let val = m.input("val_i", 4, "");
        let table = m.memory("table_q", 4, 6, None);
        assert_eq!(table.address_width(), 3);
        m.write(&table, we.expr(), idx.expr(), val.expr());
        assert_eq!(table.read(idx.expr()).width(), 4);
        assert_eq!(m.memories()[0].writes().len(), 1);
        assert!(m.memories()[0].reset().is_none());
    }

    #[test]
    #[should_panic(expected = "declared twice")]
    fn duplicate_names_are_refused() {
        let mut m = Module::new("m");
        m.input("a_i", 4, "");
        m.wire("a_i", 4);
    }

    #[test]
    #[should_panic(expected = "is a keyword")]
    fn keywords_are_refused() {
        Module::new("m").wire("always_ff", 1);
    }

    #[test]
    #[should_panic(expected = "clk_i declared twice")]
    fn the_clock_name_is_taken() {
        let mut m = Module::new("m");
        m.add_clock();
        m.input("clk_i", 1, "");
    }
}
