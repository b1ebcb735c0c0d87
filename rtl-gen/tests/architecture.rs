//! The shape of the crate, checked from its source (issue 34; docs/DEVELOPING.md, "Rooms and
//! the arrows between them"):
//!
//! - a room is a top-level module of `rtl-gen/src` (a file or a folder); every room the library
//!   has is placed in one layer of [`LAYERS`], and a room uses only rooms of its own layer or
//!   lower ones: no arrow runs back up;
//! - the rooms' graph has no cycle, and neither have the files of one folder among themselves
//!   (`mod.rs` aside: a parent and its children share its items);
//! - a command (`cmd_<verb>.rs`) never uses another command: what two commands share is a
//!   library function, or a flag group of `cli/`.
//!
//! A use is a path through `crate::<room>` or `rtl_gen::<room>` (grouped `use crate::{a, b}`
//! too) or `super::<file>` outside comments; `crate::Error` is the `error` room.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The rooms, by layer, lowest first.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "foundation",
        &[
            "error",
            "limits",
            "json_input",
            "manifest",
            "output",
            "plot",
            "trace",
        ],
    ),
    (
        "representation",
        &["rtl", "block", "fusesoc", "rdl", "sram", "openram"],
    ),
    ("tools on a block folder", &["cosim", "qor", "pnr"]),
    (
        "experiments on any family",
        &["prove", "mutate", "experiments"],
    ),
    (
        "families",
        &["hash", "rap", "smem", "d2ma", "swizzle", "cuda", "conflict"],
    ),
    (
        "the registry, the main job and system flows",
        &["families", "flow", "vortex"],
    ),
    (
        "the binary",
        &["main", "cli", "cli_error", "output_args", "cmd_*"],
    ),
];

/// The source folder.
fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file below `dir`, sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// `path` relative to `src/`, with `/` separators.
fn relative(path: &Path) -> String {
    path.strip_prefix(src())
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/")
}

/// The room of a file: its first component, without `.rs`.
fn room_of(relative: &str) -> String {
    let first = relative.split('/').next().unwrap();
    first.trim_end_matches(".rs").to_string()
}

/// The layer of a room (`cmd_<verb>` matches `cmd_*`).
fn layer_of(room: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, rooms)| {
        rooms
            .iter()
            .any(|&r| r == room || (r == "cmd_*" && room.starts_with("cmd_")))
    })
}

/// The source text without comments (line comments, doc comments, block comments) and without
/// the contents of string literals, so that only code is read.
fn code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == 'r' && matches!(next, Some('"') | Some('#')) && raw_start(&chars, i) {
            // A raw string r"..." or r#"..."#: skip to its closing quote and hashes.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars[j] == '#' {
                hashes += 1;
                j += 1;
            }
            j += 1;
            loop {
                if chars[j] == '"' && (0..hashes).all(|h| chars.get(j + 1 + h) == Some(&'#')) {
                    break;
                }
                j += 1;
            }
            i = j + 1 + hashes;
            out.push_str("\"\"");
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && is_char_literal(&chars, i) {
            while chars[i + 1] != '\'' {
                i += if chars[i + 1] == '\\' { 2 } else { 1 };
            }
            i += 2;
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Whether `r` at `i` starts a raw string (not the end of an identifier like `for`).
fn raw_start(chars: &[char], i: usize) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    if i > 0 && ident(chars[i - 1]) {
        return false;
    }
    let mut j = i + 1;
    while chars.get(j) == Some(&'#') {
        j += 1;
    }
    chars.get(j) == Some(&'"')
}

/// Whether `'` at `i` opens a character literal (`'a'`, `'\n'`), not a lifetime (`'a`).
fn is_char_literal(chars: &[char], i: usize) -> bool {
    matches!(
        (chars.get(i + 1), chars.get(i + 2)),
        (Some('\\'), _) | (Some(_), Some('\''))
    )
}

/// The first segment of every path that starts with `prefix::` in `code` (`crate::hash::sweep`
/// gives `hash`; `crate::{block, rtl::Module}` gives `block` and `rtl`).
fn uses(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let pattern = format!("{prefix}::");
    let mut rest = code;
    while let Some(at) = rest.find(&pattern) {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + pattern.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        found.insert(first_segment(&item));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                item.push(c);
            }
            found.insert(first_segment(&item));
        } else {
            found.insert(first_segment(rest));
        }
    }
    found.remove("");
    found
}

/// The identifier at the start of `text` (after white space).
fn first_segment(text: &str) -> String {
    text.trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// The rooms a file uses (`crate::Error` and the like: `error`).
fn rooms_used(code: &str) -> BTreeSet<String> {
    let mut rooms = BTreeSet::new();
    for name in uses(code, "crate").into_iter().chain(uses(code, "rtl_gen")) {
        if name == "Error" {
            rooms.insert("error".to_string());
        } else if name.starts_with(|c: char| c.is_ascii_lowercase()) {
            rooms.insert(name);
        }
    }
    rooms
}

/// A cycle of `graph`, if it has one, as the nodes along it.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        marks: &mut BTreeMap<String, Mark>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match marks.get(node) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let from = path.iter().position(|n| n == node).unwrap();
                let mut cycle = path[from..].to_vec();
                cycle.push(node.to_string());
                return Some(cycle);
            }
            None => {}
        }
        marks.insert(node.to_string(), Mark::Open);
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, graph, marks, path) {
                return Some(c);
            }
        }
        path.pop();
        marks.insert(node.to_string(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for node in graph.keys() {
        if let Some(c) = visit(node, graph, &mut marks, &mut Vec::new()) {
            return Some(c);
        }
    }
    None
}

/// Every file: its path relative to `src/` and its code.
fn sources() -> Vec<(String, String)> {
    files(&src())
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (relative(&p), code(&text))
        })
        .collect()
}

/// The rooms' graph: who uses whom (a room's use of itself left out).
fn room_graph(sources: &[(String, String)]) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (file, code) in sources {
        // The crate root only declares the rooms.
        if file == "lib.rs" {
            continue;
        }
        let room = room_of(file);
        let used: Vec<String> = rooms_used(code)
            .into_iter()
            .filter(|r| *r != room)
            .collect();
        graph.entry(room).or_default().extend(used);
    }
    graph
}

#[test]
fn no_command_uses_another() {
    let mut offences = Vec::new();
    for (file, code) in sources() {
        if file == "main.rs" {
            continue;
        }
        for used in rooms_used(&code) {
            if used.starts_with("cmd_") && room_of(&file) != used {
                offences.push(format!("{file} uses {used}"));
            }
        }
    }
    assert!(
        offences.is_empty(),
        "a command uses another (move what they share into the library or cli/): {}",
        offences.join("; ")
    );
}

#[test]
fn every_room_has_a_layer_and_no_arrow_runs_back_up() {
    let graph = room_graph(&sources());
    let mut offences = Vec::new();
    for (room, used) in &graph {
        let Some(layer) = layer_of(room) else {
            offences.push(format!(
                "room `{room}` has no layer: place it in LAYERS (tests/architecture.rs)"
            ));
            continue;
        };
        for u in used {
            match layer_of(u) {
                Some(l) if l > layer => offences.push(format!(
                    "{room} ({}) uses {u} ({}), a higher layer",
                    LAYERS[layer].0, LAYERS[l].0
                )),
                _ => {}
            }
        }
    }
    assert!(offences.is_empty(), "{}", offences.join("\n"));
}

#[test]
fn the_rooms_have_no_cycle() {
    let graph = room_graph(&sources());
    if let Some(c) = cycle(&graph) {
        panic!("the rooms use each other in a circle: {}", c.join(" -> "));
    }
}

#[test]
fn the_files_of_a_folder_have_no_cycle() {
    let sources = sources();
    let mut folders: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (file, code) in &sources {
        let Some((folder, name)) = file.rsplit_once('/') else {
            continue;
        };
        let name = name.trim_end_matches(".rs");
        if name == "mod" {
            continue;
        }
        // Siblings by `super::<file>`, or by `crate::<folder path>::<file>`.
        let mut used = uses(code, "super");
        let path = format!("crate::{}", folder.replace('/', "::"));
        used.extend(uses(code, &path));
        used.remove(name);
        folders
            .entry(folder.to_string())
            .or_default()
            .insert(name.to_string(), used);
    }
    for (folder, mut graph) in folders {
        let names: BTreeSet<String> = graph.keys().cloned().collect();
        for used in graph.values_mut() {
            used.retain(|u| names.contains(u));
        }
        if let Some(c) = cycle(&graph) {
            panic!(
                "the files of {folder}/ use each other in a circle: {}",
                c.join(" -> ")
            );
        }
    }
}

#[test]
fn the_scanner_reads_paths_and_skips_comments_and_strings() {
    let text = "use crate::{block::{self, Block}, rtl::Module};\n\
                // crate::flow in a comment\n\
                /// [`crate::prove`] in a doc comment\n\
                let s = \"crate::mutate in a string\";\n\
                let c = '\"'; let t = crate::hash::sweep::run();\n\
                fn f<'a>(x: &'a str) -> rtl_gen::Error { todo!() }\n\
                let r = r#\"crate::qor\"#; crate::Error::Io";
    let code = code(text);
    assert_eq!(
        rooms_used(&code),
        BTreeSet::from(["block", "rtl", "hash", "error"].map(String::from))
    );
    let mut graph = BTreeMap::new();
    graph.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    graph.insert("b".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(cycle(&graph).unwrap(), ["a", "b", "a"]);
    graph.insert("b".to_string(), BTreeSet::new());
    assert_eq!(cycle(&graph), None);
}

/// The paths `src/...`, `tests/...`, `rtl-gen/...` and `models/src/...` that `text` names
/// (patterns with `<` or `*` aside), each resolved from the workspace root.
fn named_paths(text: &str) -> BTreeSet<String> {
    let is_path_char = |c: char| c.is_ascii_alphanumeric() || "_/.-".contains(c);
    let mut out = BTreeSet::new();
    for (start, _) in text.match_indices(['s', 't', 'r', 'm']) {
        let before = text[..start].chars().next_back();
        if before.is_some_and(|c| is_path_char(c) || c == '<' || c == '*') {
            continue;
        }
        let word: String = text[start..]
            .chars()
            .take_while(|&c| is_path_char(c))
            .collect();
        let next = text[start + word.len()..].chars().next();
        if next.is_some_and(|c| c == '<' || c == '*') {
            continue;
        }
        let word = word.trim_end_matches('.');
        let resolved = if word.starts_with("rtl-gen/") || word.starts_with("models/src/") {
            word.to_string()
        } else if word.starts_with("src/") || word.starts_with("tests/") {
            format!("rtl-gen/{word}")
        } else {
            continue;
        };
        out.insert(resolved);
    }
    out
}

#[test]
fn every_path_developing_md_names_is_in_the_tree() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join("docs/DEVELOPING.md")).unwrap();
    let paths = named_paths(&text);
    for wanted in [
        "rtl-gen/src/conflict/logic.rs",
        "rtl-gen/src/cmd_conflict.rs",
    ] {
        assert!(
            paths.contains(wanted),
            "the scan misses {wanted}: {paths:?}"
        );
    }
    let missing: Vec<&String> = paths.iter().filter(|p| !root.join(p).exists()).collect();
    assert!(
        missing.is_empty(),
        "docs/DEVELOPING.md names paths that are not in the tree: {missing:?}"
    );
    assert_eq!(
        named_paths("`src/a.rs`, tests/<family>_*.rs, (models/src/b/) and src/c.rs."),
        BTreeSet::from(["rtl-gen/src/a.rs", "models/src/b/", "rtl-gen/src/c.rs"].map(String::from))
    );
}
