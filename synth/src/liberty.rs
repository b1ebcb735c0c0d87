//! Liberty files: recognising plain and gzip-compressed ones, reading the library name,
//! and giving Yosys a plain working copy in which the cells real flows keep out of logic
//! synthesis are marked `dont_use`.
//!
//! Those cells are SkyWater's multi-power-domain cells (`*__lpflow_*`: isolation buffers and
//! latches, keep-alive buffers, bleeders) and probe cells (`*__probe*`), the dont-use list of the
//! sky130hd platforms of OpenROAD-flow-scripts and SiliconCompiler. Left in, ABC maps ordinary
//! AND gates to `lpflow_isobufsrc` isolation buffers, which need a second power rail. Yosys 0.23's
//! `abc` has no `-dont_use` option, but ABC skips cells whose liberty group says
//! `dont_use : true`, so the working copy gets that line in each such cell (as
//! OpenROAD-flow-scripts' `markDontUse.py` does).

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;

use crate::error::Error;

/// A liberty file ready for Yosys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Liberty {
    /// The path the caller gave.
    pub given: PathBuf,
    /// The plain (uncompressed) working copy Yosys reads, in the work folder, with the
    /// dont-use cells marked.
    pub plain: PathBuf,
    /// The name in the file's `library (...)` group.
    pub library: String,
}

/// Substrings of the cell names marked `dont_use` in the working copy (see the module docs).
pub(crate) const DONT_USE: [&str; 2] = ["__lpflow_", "__probe"];

/// The first line of a working copy: a copy without it (from an older rtl-gen) is remade.
const COPY_MARK: &str =
    "/* working copy by rtl-gen synth: dont_use marked on __lpflow_ and __probe cells */";

/// The name of the cell a liberty line opens (`cell ("name") {` or `cell (name) {`), if any.
fn cell_name(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix("cell")?.trim_start();
    let rest = rest.strip_prefix('(')?;
    let name = rest.split(')').next()?.trim().trim_matches('"').trim();
    (!name.is_empty()).then_some(name)
}

/// Copies the liberty text of `input` to `out`, the mark line first and `dont_use : true ;`
/// after the opening line of every cell whose name contains a [`DONT_USE`] substring.
fn copy_marked(input: impl BufRead, mut out: impl Write) -> std::io::Result<()> {
    writeln!(out, "{COPY_MARK}")?;
    for line in input.lines() {
        let line = line?;
        writeln!(out, "{line}")?;
        if cell_name(&line).is_some_and(|n| DONT_USE.iter().any(|d| n.contains(d))) {
            writeln!(out, "    dont_use : true ;")?;
        }
    }
    Ok(())
}

/// How many lines to read looking for the `library (...)` group before giving up.
const HEADER_LINES: usize = 10_000;

/// True when the file starts with the gzip magic bytes (1f 8b), whatever its name.
fn is_gzip(path: &Path) -> std::io::Result<bool> {
    let mut magic = [0u8; 2];
    let mut f = File::open(path)?;
    let mut read = 0;
    while read < 2 {
        let n = f.read(&mut magic[read..])?;
        if n == 0 {
            return Ok(false);
        }
        read += n;
    }
    Ok(magic == [0x1f, 0x8b])
}

/// A reader over the file's text, decompressing when it is gzip.
fn open_text(path: &Path) -> std::io::Result<Box<dyn Read>> {
    let f = File::open(path)?;
    Ok(if is_gzip(path)? {
        Box::new(MultiGzDecoder::new(f))
    } else {
        Box::new(f)
    })
}

/// The whole text of a liberty file, decompressed when it is gzip.
pub(crate) fn read_text(path: &Path) -> std::io::Result<String> {
    let mut text = String::new();
    open_text(path)?.read_to_string(&mut text)?;
    Ok(text)
}

/// The picoseconds in a liberty file's time unit (its `time_unit : "1ns"` is 1000), read from
/// its header; the unit OpenSTA's reports and the SDC file use.
pub(crate) fn time_unit_ps(path: &Path) -> Result<f64, Error> {
    let unusable = |reason: String| Error::Liberty {
        path: path.to_path_buf(),
        reason,
    };
    let reader = BufReader::new(open_text(path).map_err(|e| unusable(e.to_string()))?);
    for line in reader.lines().take(HEADER_LINES) {
        let line = line.map_err(|e| unusable(e.to_string()))?;
        let Some(rest) = line.trim_start().strip_prefix("time_unit") else {
            continue;
        };
        let value = rest
            .trim_start()
            .trim_start_matches(':')
            .trim()
            .trim_end_matches(';')
            .trim()
            .trim_matches('"');
        return parse_time_unit(value)
            .ok_or_else(|| unusable(format!("time_unit {value:?} is not 1ps, 1ns, 10ps...")));
    }
    // The liberty default.
    Ok(1000.0)
}

/// The names of a liberty file's `wire_load("name")` models.
pub(crate) fn wire_load_models(path: &Path) -> Result<Vec<String>, Error> {
    let text = read_text(path).map_err(|e| Error::Liberty {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })?;
    Ok(text
        .lines()
        .filter_map(|l| {
            let rest = l.trim_start().strip_prefix("wire_load")?.trim_start();
            let name = rest.strip_prefix('(')?.split(')').next()?;
            Some(name.trim().trim_matches('"').to_string())
        })
        .filter(|n| !n.is_empty())
        .collect())
}

/// `1ns` -> 1000, `10ps` -> 10, `1us` -> 1e6.
fn parse_time_unit(value: &str) -> Option<f64> {
    let digits = value.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let scale = match &value[digits.len()..] {
        "ps" => 1.0,
        "ns" => 1e3,
        "us" => 1e6,
        _ => return None,
    };
    digits.trim().parse::<f64>().ok().map(|n| n * scale)
}

/// The library name of a liberty text: the argument of its first `library (...)` group,
/// with quotes removed. Comments before it are skipped because only a line that starts
/// with `library` counts.
pub(crate) fn library_name(reader: impl BufRead) -> Option<String> {
    for line in reader.lines().take(HEADER_LINES) {
        let line = line.ok()?;
        let Some(rest) = line.trim_start().strip_prefix("library") else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix('(') else {
            continue;
        };
        let name = rest.split(')').next()?.trim().trim_matches('"').trim();
        if !name.is_empty() {
            return Some(name.to_string());
        }
    }
    None
}

/// Checks that `path` is a readable liberty file (plain or gzip) and returns its library name,
/// writing nothing: callers run it before they create any output, so a bad `--liberty` is
/// refused before anything is written.
pub fn check_liberty(path: &Path) -> Result<String, Error> {
    let unusable = |reason: String| Error::Liberty {
        path: path.to_path_buf(),
        reason,
    };
    let meta = std::fs::metadata(path).map_err(|e| unusable(e.to_string()))?;
    if !meta.is_file() {
        return Err(unusable("not a regular file".into()));
    }
    let reader = open_text(path).map_err(|e| unusable(e.to_string()))?;
    library_name(BufReader::new(reader)).ok_or_else(|| {
        unusable("no `library (...)` group found: not a liberty file, or corrupt".into())
    })
}

/// Checks `path`, reads its library name and writes its working copy (decompressed when it is
/// gzip, dont-use cells marked) to `<work_dir>/<name without .gz>` (kept there so that
/// `synth.ys` can be rerun by hand; reused while it is newer than the source).
pub(crate) fn prepare(path: &Path, work_dir: &Path) -> Result<Liberty, Error> {
    let unusable = |reason: String| Error::Liberty {
        path: path.to_path_buf(),
        reason,
    };
    let library = check_liberty(path)?;
    let meta = std::fs::metadata(path).map_err(|e| unusable(e.to_string()))?;

    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "liberty.lib.gz".into());
    let stem = file_name.strip_suffix(".gz").unwrap_or(&file_name);
    let stem = if stem.ends_with(".lib") {
        stem.to_string()
    } else {
        format!("{stem}.lib")
    };
    let plain = work_dir.join(stem);
    let marked = || -> Option<bool> {
        let first = BufReader::new(File::open(&plain).ok()?)
            .lines()
            .next()?
            .ok()?;
        Some(first == COPY_MARK)
    };
    let fresh = std::fs::metadata(&plain)
        .ok()
        .zip(meta.modified().ok())
        .and_then(|(m, src)| Some(m.len() > 0 && m.modified().ok()? >= src))
        .unwrap_or(false)
        && marked().unwrap_or(false);
    if !fresh {
        // Write next to the target and rename, so an interrupted run never leaves a truncated
        // library that a later run would take as fresh.
        let tmp = work_dir.join(format!(
            ".{}.partial",
            plain.file_name().unwrap().to_string_lossy()
        ));
        let write_err = |source| Error::WorkDir {
            path: tmp.clone(),
            source,
        };
        let mut out = std::io::BufWriter::new(File::create(&tmp).map_err(write_err)?);
        let input = open_text(path).map_err(|e| unusable(e.to_string()))?;
        copy_marked(BufReader::new(input), &mut out)
            .map_err(|e| unusable(format!("copying failed: {e}")))?;
        out.flush().map_err(write_err)?;
        drop(out);
        std::fs::rename(&tmp, &plain).map_err(|source| Error::WorkDir {
            path: plain.clone(),
            source,
        })?;
    }
    Ok(Liberty {
        given: path.to_path_buf(),
        plain,
        library,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::{write::GzEncoder, Compression};

    const TINY: &str = "/* a comment naming library (nope) */\n\
                        library (\"tiny_lib\") {\n  time_unit : \"1ns\";\n}\n";

    #[test]
    fn time_units() {
        assert_eq!(parse_time_unit("1ns"), Some(1000.0));
        assert_eq!(parse_time_unit("10ps"), Some(10.0));
        assert_eq!(parse_time_unit("1us"), Some(1e6));
        assert_eq!(parse_time_unit("1s"), None);
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("tiny.lib");
        std::fs::write(&p, TINY).unwrap();
        assert_eq!(time_unit_ps(&p).unwrap(), 1000.0);
    }

    #[test]
    fn name_from_quoted_and_plain_groups() {
        assert_eq!(library_name(TINY.as_bytes()).as_deref(), Some("tiny_lib"));
        assert_eq!(
            library_name("library (NangateOpenCellLibrary) {\n".as_bytes()).as_deref(),
            Some("NangateOpenCellLibrary")
        );
        assert_eq!(library_name("cell (X) {}\n".as_bytes()), None);
        assert_eq!(library_name("library_features (x);\n".as_bytes()), None);
    }

    #[test]
    fn gzip_is_decompressed_into_work_dir() {
        let dir = tempfile::tempdir().unwrap();
        let gz = dir.path().join("tiny.lib.gz");
        let mut enc = GzEncoder::new(File::create(&gz).unwrap(), Compression::fast());
        enc.write_all(TINY.as_bytes()).unwrap();
        enc.finish().unwrap();
        let work = dir.path().join("work");
        std::fs::create_dir(&work).unwrap();

        let lib = prepare(&gz, &work).unwrap();
        assert_eq!(lib.library, "tiny_lib");
        assert_eq!(lib.given, gz);
        assert_eq!(lib.plain, work.join("tiny.lib"));
        assert_eq!(
            std::fs::read_to_string(&lib.plain).unwrap(),
            format!("{COPY_MARK}\n{TINY}")
        );
        // A second call reuses the copy.
        assert_eq!(prepare(&gz, &work).unwrap(), lib);
    }

    #[test]
    fn plain_file_is_copied_and_an_unmarked_copy_remade() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("tiny.lib");
        std::fs::write(&p, TINY).unwrap();
        let work = dir.path().join("work");
        std::fs::create_dir(&work).unwrap();
        // A copy an older version left, newer than the source but without the mark.
        std::fs::write(work.join("tiny.lib"), TINY).unwrap();
        let lib = prepare(&p, &work).unwrap();
        assert_eq!(lib.plain, work.join("tiny.lib"));
        assert_eq!(lib.library, "tiny_lib");
        assert!(std::fs::read_to_string(&lib.plain)
            .unwrap()
            .starts_with(COPY_MARK));
    }

    #[test]
    fn lpflow_and_probe_cells_are_marked_dont_use() {
        let text = "library (sky) {\n  cell (\"sky130_fd_sc_hd__and2_1\") {\n    area : 6.2;\n  }\n  \
                    cell (\"sky130_fd_sc_hd__lpflow_isobufsrc_1\") {\n  }\n  cell (sky130_fd_sc_hd__probe_p_8) {\n  }\n}\n";
        let mut out = Vec::new();
        copy_marked(text.as_bytes(), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        let after = |cell: &str| {
            let i = lines.iter().position(|l| l.contains(cell)).unwrap();
            lines[i + 1].trim()
        };
        assert_eq!(after("and2_1"), "area : 6.2;");
        assert_eq!(after("lpflow_isobufsrc_1"), "dont_use : true ;");
        assert_eq!(after("probe_p_8"), "dont_use : true ;");
        assert_eq!(out.matches("dont_use : true").count(), 2);
    }

    #[test]
    fn unreadable_or_foreign_files_name_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope.lib");
        let e = prepare(&missing, dir.path()).unwrap_err();
        assert!(matches!(&e, Error::Liberty { path, .. } if *path == missing));
        assert!(e.to_string().contains("nope.lib"), "{e}");

        let text = dir.path().join("x.v");
        std::fs::write(&text, "module x; endmodule\n").unwrap();
        let e = prepare(&text, dir.path()).unwrap_err();
        assert!(e.to_string().contains("x.v"), "{e}");
        assert!(e.to_string().contains("not a liberty file"), "{e}");
    }
}
