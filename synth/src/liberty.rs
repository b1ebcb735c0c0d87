//! Liberty files: recognising plain and gzip-compressed ones, reading the library name,
//! and giving Yosys a plain file it can read.

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
    /// A plain (uncompressed) file Yosys reads: `given` itself, or its decompressed copy
    /// in the work folder.
    pub plain: PathBuf,
    /// The name in the file's `library (...)` group.
    pub library: String,
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

/// Checks `path`, reads its library name and, when it is gzip-compressed, decompresses
/// it to `<work_dir>/<name without .gz>` (kept there so that `synth.ys` can be rerun by
/// hand; reused while it is newer than the source).
pub(crate) fn prepare(path: &Path, work_dir: &Path) -> Result<Liberty, Error> {
    let unusable = |reason: String| Error::Liberty {
        path: path.to_path_buf(),
        reason,
    };
    let meta = std::fs::metadata(path).map_err(|e| unusable(e.to_string()))?;
    if !meta.is_file() {
        return Err(unusable("not a regular file".into()));
    }
    let reader = open_text(path).map_err(|e| unusable(e.to_string()))?;
    let library = library_name(BufReader::new(reader)).ok_or_else(|| {
        unusable("no `library (...)` group found: not a liberty file, or corrupt".into())
    })?;
    let gz = is_gzip(path).map_err(|e| unusable(e.to_string()))?;
    let given_abs = std::path::absolute(path).map_err(|e| unusable(e.to_string()))?;
    if !gz {
        return Ok(Liberty {
            given: path.to_path_buf(),
            plain: given_abs,
            library,
        });
    }

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
    let fresh = std::fs::metadata(&plain)
        .ok()
        .zip(meta.modified().ok())
        .and_then(|(m, src)| Some(m.len() > 0 && m.modified().ok()? >= src))
        .unwrap_or(false);
    if !fresh {
        // Decompress next to the target and rename, so an interrupted run never leaves
        // a truncated library that a later run would take as fresh.
        let tmp = work_dir.join(format!(
            ".{}.partial",
            plain.file_name().unwrap().to_string_lossy()
        ));
        let write_err = |source| Error::WorkDir {
            path: tmp.clone(),
            source,
        };
        let mut out = File::create(&tmp).map_err(write_err)?;
        let mut input = open_text(path).map_err(|e| unusable(e.to_string()))?;
        std::io::copy(&mut input, &mut out)
            .map_err(|e| unusable(format!("decompressing failed: {e}")))?;
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
        assert_eq!(std::fs::read_to_string(&lib.plain).unwrap(), TINY);
        // A second call reuses the copy.
        assert_eq!(prepare(&gz, &work).unwrap(), lib);
    }

    #[test]
    fn plain_file_is_used_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("tiny.lib");
        std::fs::write(&p, TINY).unwrap();
        let lib = prepare(&p, dir.path()).unwrap();
        assert_eq!(lib.plain, std::path::absolute(&p).unwrap());
        assert_eq!(lib.library, "tiny_lib");
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
