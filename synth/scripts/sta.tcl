# Static timing of the mapped netlist with OpenSTA.
# Filled in and written by the `synth` crate; rerun by hand from this folder with
#   sta -no_splash -exit sta.tcl
# It writes sta.txt: OpenSTA's own reports, each after a line `@<what>` that the synth crate
# reads (times are in the library's time unit, as OpenSTA prints them).

{{READ_LIBERTY}}
read_verilog netlist.v
link_design {{TOP}}
read_sdc constraints.sdc
# Delays from the tables at each net's whole capacitance (pins and wire-load estimate), as
# wire-load-model timing does. OpenSTA's default effective-capacitance calculator (dmp_ceff)
# gives an OpenRAM macro, whose tables are flat (a 322 ps clock-to-output at every load, 1 ps
# slews), a clock-to-output of 78 ps once the net has a wire-load resistance; on the standard
# cells the two agree within a picosecond.
set_delay_calculator lumped_cap

# Re-creates the clock of constraints.sdc at period $p (input and output delays stay).
proc rtl_gen_set_period {p} {
  {{CLOCK_AT_PERIOD}}
}

# The input ports by name (a bus once), without the clock ports.
proc rtl_gen_input_ports {} {
  set clocks [list {{CLOCK_PORTS}}]
  set names {}
  foreach pin [all_inputs] {
    set name [regsub {\[[0-9]+\]$} [get_full_name $pin] {}]
    if {[lsearch -exact $clocks $name] < 0 && [lsearch -exact $names $name] < 0} {
      lappend names $name
    }
  }
  return $names
}

# The clock pins of the registers (flip-flops and latches) and of the macros.
proc rtl_gen_clock_pins {want_macros} {
  set macros [list {{MACRO_CELLS}}]
  set pins {}
  foreach pin [all_registers -clock_pins] {
    set cell [get_property [$pin instance] ref_name]
    if {([lsearch -exact $macros $cell] >= 0) == $want_macros} {
      lappend pins $pin
    }
  }
  return $pins
}

set out [open sta.txt w]
proc rtl_gen_emit {out what text} {
  puts $out "@$what"
  puts $out $text
}
# What `script` prints (run in the caller's frame); an error stays an error.
proc rtl_gen_capture {script} {
  sta::redirect_string_begin
  set code [catch {uplevel 1 $script} message]
  set text [sta::redirect_string_end]
  if {$code} {
    error $message
  }
  return $text
}
proc rtl_gen_checks {args} {
  return [rtl_gen_capture {
    report_checks -path_delay max -format full -digits {{DIGITS}} {*}$args
  }]
}
set static_inputs [list {{STATIC_INPUTS}}]
{{SIZE_REGISTERS}}
# The net each register drives (its name in the RTL, where Yosys kept one; not a port): reports
# name a register by its instance, the synth crate by this net.
set lines {}
set macros [list {{MACRO_CELLS}}]
foreach pin [all_registers -output_pins] {
  set inst [$pin instance]
  set net [$pin net]
  if {$net != "NULL" && [lsearch -exact $macros [get_property $inst ref_name]] < 0
      && [get_ports -quiet [get_full_name $net]] == {}} {
    lappend lines "[get_full_name $inst]\t[get_full_name $net]"
  }
}
rtl_gen_emit $out "registers" [join $lines "\n"]

# The worst path of the design at the clock of constraints.sdc (static inputs false paths).
rtl_gen_emit $out "worst" [rtl_gen_checks]

# The worst path of each group: each input port, the registers, the macros.
foreach port [rtl_gen_input_ports] {
  if {[lsearch -exact $static_inputs $port] < 0} {
    rtl_gen_emit $out "group $port" [rtl_gen_checks -from [get_ports $port]]
  }
}
set registers [rtl_gen_clock_pins 0]
if {$registers != {}} {
  rtl_gen_emit $out "group flip-flops" [rtl_gen_checks -from $registers]
}
set macro_clocks [rtl_gen_clock_pins 1]
if {$macro_clocks != {}} {
  rtl_gen_emit $out "group macros" [rtl_gen_checks -from $macro_clocks]
}

# The clock pins' own checks (a macro's minimum period and pulse width).
rtl_gen_emit $out "clock-pin checks" [rtl_gen_capture {
  report_check_types -min_period -min_pulse_width -verbose -digits {{DIGITS}}
}]

# The smallest period with no negative slack: retimed at the period minus the worst slack
# (then by the secant through the last two tries) until the slack is within the tolerance.
set period {{PERIOD}}
set slack [sta::worst_slack -max]
rtl_gen_emit $out "period" "$period $slack"
set last_period {}
set last_slack {}
for {set i 0} {$i < {{MAX_TRIES}} && abs($slack) > {{TOLERANCE}} && $slack < 1e29} {incr i} {
  if {$last_period != {} && $slack != $last_slack} {
    set next [expr {$period - $slack * ($period - $last_period) / ($slack - $last_slack)}]
  } else {
    set next [expr {$period - $slack}]
  }
  if {$next <= {{TOLERANCE}}} {
    break
  }
  set last_period $period
  set last_slack $slack
  set period $next
  rtl_gen_set_period $period
  set slack [sta::worst_slack -max]
  rtl_gen_emit $out "period" "$period $slack"
}
rtl_gen_set_period {{PERIOD}}

# The static inputs' own paths, with their false paths lifted (reported, never counted).
foreach port $static_inputs {
  unset_path_exceptions -from [get_ports $port]
  rtl_gen_emit $out "static $port" [rtl_gen_checks -from [get_ports $port]]
}
close $out
