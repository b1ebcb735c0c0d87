
# Register drive (the timing-driven flow; filled in by the synth crate's drive module): ABC
# sizes the logic between registers, never a register, and a register wired straight to other
# registers (a latch table's write data) reaches ABC not at all. A register whose output drives
# more than {{FANOUT_LIMIT}} pins takes the library's next drive strength of its cell; each change is
# listed after `@resized`, and the netlist timed below is written to {{SIZED_NETLIST}}.
set stronger [dict create {{STRONGER}}]
set resized {}
foreach inst [all_registers -cells] {
  set cell [get_property $inst ref_name]
  if {![dict exists $stronger $cell]} {
    continue
  }
  set fanout 0
  foreach pin [get_pins -of_objects $inst -filter "direction == output"] {
    set net [get_nets -quiet -of_objects $pin]
    if {$net != {}} {
      set loads [llength [get_pins -of_objects $net -filter "direction == input"]]
      set fanout [expr {max($fanout, $loads)}]
    }
  }
  if {$fanout > {{FANOUT_LIMIT}}} {
    set to [dict get $stronger $cell]
    replace_cell $inst $to
    lappend resized "[get_full_name $inst]\t$cell\t$to"
  }
}
rtl_gen_emit $out "resized" [join $resized "\n"]
write_verilog {{SIZED_NETLIST}}
