//! Every refusal as one line: clap's errors, negative numbers given to counts, and rtl-gen's own
//! errors, with long values shortened and control bytes escaped.

use clap::error::ErrorKind;

/// The longest run of non-blank characters printed whole; longer ones are shortened.
const LONGEST_TOKEN: usize = 80;

/// `text` as one printable line: control characters escaped (`\n` as a line break only where
/// the caller joins lines), and every token longer than [`LONGEST_TOKEN`] characters shortened
/// to its start and end with its length between (`abcd...(1048576 bytes)...wxyz`).
pub fn printable(text: &str) -> String {
    let escaped: String = text
        .chars()
        .flat_map(|c| {
            if c.is_control() {
                c.escape_debug().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect();
    escaped
        .split(' ')
        .map(|token| {
            let chars: Vec<char> = token.chars().collect();
            if chars.len() <= LONGEST_TOKEN {
                token.to_string()
            } else {
                let head: String = chars[..40].iter().collect();
                let tail: String = chars[chars.len() - 16..].iter().collect();
                format!("{head}...({} bytes)...{tail}", token.len())
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// rtl-gen's own error as one line: its first line, and when that ends with `:` (a tool's
/// failure, whose full output is in the log the line names) the first line of what follows.
pub fn error_line(message: &str) -> String {
    let mut lines = message.lines();
    let first = lines.next().unwrap_or_default();
    let line = match first.strip_suffix(':') {
        Some(head) => match lines.map(str::trim).find(|l| !l.is_empty()) {
            Some(detail) => format!("{head}: {detail}"),
            None => head.to_string(),
        },
        None => first.to_string(),
    };
    printable(&line)
}

/// The message of rtl-gen's error `e` for a run given `args`
/// ([`rtl_gen::Error::message_given`]: a model's out-of-range value named by its flag when
/// `args` has that flag).
pub fn message(e: &rtl_gen::Error, args: &[String]) -> String {
    e.message_given(|flag| {
        args.iter()
            .any(|a| a == flag || a.strip_prefix(flag).is_some_and(|v| v.starts_with('=')))
    })
}

/// A command-line error as one line, or `None` for help and version output (printed by clap
/// as they are). A negative number given to a flag is named with the flag; otherwise clap's
/// first line, then the allowed values of an enum flag (`[possible values: ...]`), with its
/// `tip:` when the first line and the tip fit in 160 characters.
pub fn clap_line(err: &clap::Error, args: &[String]) -> Option<String> {
    if matches!(
        err.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        return None;
    }
    if err.kind() == ErrorKind::UnknownArgument {
        let negative = args.iter().enumerate().skip(1).find(|(_, a)| {
            a.len() > 1
                && a.starts_with('-')
                && a[1..].bytes().all(|b| b.is_ascii_digit() || b == b'.')
        });
        if let Some((i, value)) = negative {
            if let Some(flag) = args.get(i - 1).filter(|f| f.starts_with("--")) {
                return Some(printable(&format!(
                    "error: {flag} {value}: negative numbers are not allowed; give a whole number \
                     from 0 (see rtl-gen ... --help)"
                )));
            }
        }
    }
    let rendered = err.render().to_string();
    let mut lines = rendered.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines
        .next()
        .unwrap_or("error: invalid command line")
        .to_string();
    let rest: Vec<&str> = lines.collect();
    // A first line ending in `:` (missing required arguments, conflicts) is followed by the
    // arguments it is about, one per line, up to the usage.
    let first = if first.ends_with(':') {
        let named: Vec<&str> = rest
            .iter()
            .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more"))
            .copied()
            .collect();
        format!("{first} {}", named.join(", "))
    } else {
        first
    };
    let allowed = rest.iter().find(|l| l.starts_with("[possible values:"));
    let tip = rest.iter().find(|l| l.starts_with("tip:"));
    let mut line = match allowed {
        Some(allowed) => format!("{first} {allowed}"),
        None => first.clone(),
    };
    if let Some(tip) = tip.filter(|tip| first.len() + tip.len() + 3 <= 160) {
        line = format!("{line} ({tip})");
    }
    Some(printable(&line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_tokens_are_shortened_and_controls_escaped() {
        let long = "x".repeat(1 << 20);
        let line = printable(&format!("--kind {long}: unknown"));
        assert!(
            line.len() < 120 && line.contains("(1048577 bytes)"),
            "{line}"
        );
        assert_eq!(printable("a\u{1b}[31mb\tc"), "a\\u{1b}[31mb\\tc");
    }

    #[test]
    fn out_of_range_values_are_named_by_their_flag_when_given_by_one() {
        let e = rtl_gen::Error::Model(models::Error::OutOfRange {
            name: "segment_bytes".into(),
            value: "100".into(),
            allowed: "32, 64 or 128".into(),
        });
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            message(
                &e,
                &args(&["rtl-gen", "d2ma", "agen", "--segment-bytes=100"])
            ),
            "--segment-bytes 100: out of range: allowed 32, 64 or 128"
        );
        assert_eq!(
            message(&e, &args(&["rtl-gen", "hash", "--config", "c.json"])),
            "segment_bytes = 100 is out of range: allowed 32, 64 or 128"
        );
    }

    #[test]
    fn missing_required_arguments_are_named_on_the_one_line() {
        let command = clap::Command::new("rtl-gen")
            .arg(clap::Arg::new("target").long("target-ps").value_name("PS"))
            .arg(
                clap::Arg::new("closure")
                    .long("closure")
                    .action(clap::ArgAction::SetTrue)
                    .requires("target"),
            );
        let args = ["rtl-gen", "--closure"];
        let err = command.try_get_matches_from(args).unwrap_err();
        let line = clap_line(&err, &args.map(String::from)).unwrap();
        assert_eq!(
            line,
            "error: the following required arguments were not provided: --target-ps <PS>"
        );
    }

    #[test]
    fn tool_failures_keep_their_first_detail() {
        let msg = "verilator failed (exit status: 1) for build of tb_x (log: /b/build.log):\n%Error: x.v:3: bad\nmore";
        assert_eq!(
            error_line(msg),
            "verilator failed (exit status: 1) for build of tb_x (log: /b/build.log): %Error: x.v:3: bad"
        );
        assert_eq!(
            error_line("no summary; log: /r.log\ntail 1\ntail 2"),
            "no summary; log: /r.log"
        );
    }
}
