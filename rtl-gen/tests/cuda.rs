//! The CUDA headers of `rtl-gen cuda`: pinned by snapshots, and run against the models where a
//! compiler is present (a host C++ compiler with three macros standing in for CUDA's; nvcc
//! compiles them as CUDA where it is on the PATH). Without a compiler the check prints a note.

mod common;

use models::rap::{Permutation, ShiftLayout};
use models::software::SoftwareIndex;
use models::{HashConfig, HashConfigObject, HashKind};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rtl_gen::cuda;
use std::path::Path;
use std::process::Command;

fn config(kind: HashKind, n: u32, banks: u64) -> HashConfig {
    let (_, c) = common::fixed_config(kind, n, banks).validate().unwrap();
    c.unwrap()
}

fn layouts() -> Vec<(&'static str, ShiftLayout)> {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    vec![
        ("rap_w32", ShiftLayout::rap(&Permutation::from_seed(32, 1))),
        ("ras_w32", ShiftLayout::ras_random(32, &mut rng)),
        (
            "rap_wide_w32",
            ShiftLayout::rap(&Permutation::random_wide(32, &mut rng)),
        ),
        ("rap_w12", ShiftLayout::rap(&Permutation::from_seed(12, 3))),
    ]
}

#[test]
fn hash_headers_match_their_snapshots() {
    for kind in HashKind::ALL {
        let c = config(kind, 14, 32);
        let name = format!("hash_{}_n14_b32", kind.tag());
        let text = cuda::hash_header(&c, &name, "rtl-gen cuda hash (test)").unwrap();
        insta::assert_snapshot!(name, text);
    }
    let wide = config(HashKind::XorMatrix, 40, 64);
    let text = cuda::hash_header(&wide, "hash_xormat_n40_b64", "rtl-gen cuda hash (test)").unwrap();
    insta::assert_snapshot!("hash_xormat_n40_b64", text);
}

#[test]
fn layout_headers_match_their_snapshots() {
    for (name, layout) in layouts() {
        insta::assert_snapshot!(
            name,
            cuda::layout_header(&layout, name, "rtl-gen cuda layout (test)")
        );
    }
}

#[test]
fn rank_deficient_hashes_have_no_software_index() {
    let object: HashConfigObject = serde_json::from_str(
        r#"{"kind": "xor-matrix", "addr_bits": 6, "banks": 8, "rows": ["0x3", "0x6", "0x5"]}"#,
    )
    .unwrap();
    let (_, c) = object.validate().unwrap();
    let e = cuda::hash_header(&c.unwrap(), "h", "test").unwrap_err();
    assert!(e.to_string().contains("rank 2"), "{e}");
}

fn tool(name: &str) -> bool {
    Command::new(name).arg("--version").output().is_ok()
}

/// Compiles `main` with the host C++ compiler, CUDA's qualifiers defined away, and returns its
/// standard output.
fn run_host(dir: &Path, main: &str) -> String {
    let src = dir.join("main.cpp");
    std::fs::write(&src, main).unwrap();
    let exe = dir.join("main");
    let out = Command::new("c++")
        .args([
            "-std=c++11",
            "-O1",
            "-Wall",
            "-Werror",
            "-D__device__=",
            "-D__forceinline__=inline",
            "-D__popc=__builtin_popcount",
            "-D__popcll=__builtin_popcountll",
            "-o",
        ])
        .arg(&exe)
        .arg(&src)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "c++ failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).output().unwrap();
    assert!(run.status.success());
    String::from_utf8(run.stdout).unwrap()
}

/// Every header, compiled by the host compiler, gives the models' index and bank for every
/// address (n = 12) or element (w x w).
#[test]
fn headers_compute_what_the_models_compute() {
    if !tool("c++") {
        println!("note: no host C++ compiler (c++) on the PATH: header semantics not checked");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut main = String::from("#include <cstdio>\n");
    let mut expected = String::new();
    let mut body = String::new();
    let mut calls = String::new();
    for kind in HashKind::ALL {
        for (n, banks) in [(12, 32), (40, 64)] {
            let c = config(kind, n, banks);
            let name = format!("h_{}_{n}", kind.tag());
            let header = cuda::hash_header(&c, &name, "test").unwrap();
            std::fs::write(dir.path().join(format!("{name}.h")), header).unwrap();
            main.push_str(&format!("#include \"{name}.h\"\n"));
            let index = SoftwareIndex::new(&c).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(9);
            let addrs: Vec<u64> = if n == 12 {
                (0..4096).collect()
            } else {
                (0..500)
                    .map(|_| rand::Rng::gen::<u64>(&mut rng) & ((1 << n) - 1))
                    .collect()
            };
            let list: Vec<String> = addrs.iter().map(|a| format!("{a}ull")).collect();
            body.push_str(&format!(
                "    {{\n        static const unsigned long long a[] = {{{}}};\n        for (unsigned k = 0; k < {}; ++k)\n            std::printf(\"%llu %llu\\n\", (unsigned long long){name}_index(a[k]), (unsigned long long){name}_bank(a[k]));\n    }}\n",
                list.join(", "),
                addrs.len()
            ));
            calls.push_str(&format!("    o[0] += {name}_index(a) + {name}_bank(a);\n"));
            for a in addrs {
                expected.push_str(&format!("{} {}\n", index.index(a), c.bank(a)));
            }
        }
    }
    for (name, layout) in layouts() {
        let header = cuda::layout_header(&layout, name, "test");
        std::fs::write(dir.path().join(format!("{name}.h")), header).unwrap();
        main.push_str(&format!("#include \"{name}.h\"\n"));
        let w = layout.w();
        body.push_str(&format!(
            "    for (unsigned r = 0; r < {w}u; ++r)\n        for (unsigned c = 0; c < {w}u; ++c)\n            std::printf(\"%u\\n\", {name}_index(r, c));\n"
        ));
        calls.push_str(&format!(
            "    o[0] += {name}_index(a % {w}u, (a / {w}u) % {w}u);\n"
        ));
        for r in 0..w {
            for col in 0..w {
                expected.push_str(&format!("{}\n", layout.address(r, col)));
            }
        }
    }
    let includes = main.clone();
    main.push_str("int main()\n{\n");
    main.push_str(&body);
    main.push_str("    return 0;\n}\n");
    let got = run_host(dir.path(), &main);
    assert!(
        got == expected,
        "host-compiled headers disagree with the models"
    );

    if tool("nvcc") {
        let cu = dir.path().join("all.cu");
        let src = format!(
            "{includes}__global__ void k(unsigned long long *o, unsigned int a)\n{{\n{calls}}}\n"
        );
        std::fs::write(&cu, src).unwrap();
        let out = Command::new("nvcc")
            .args(["-c", "-arch=sm_90", "-o"])
            .arg(dir.path().join("all.o"))
            .arg(&cu)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "nvcc failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    } else {
        println!("note: nvcc not on the PATH: headers compiled by the host compiler only");
    }
}
