//! Tags this build of the library with its build-script output folder, which Cargo makes
//! unique to the build unit (package, profile, features, target), so that `rtl-gen`, which
//! links the same unit as a Rust library, can tell its own static library from the other
//! `libgolden_dpi-<hash>.a` in the target folder (see `golden_dpi::BUILD_TAG`).

fn main() {
    let out = std::env::var("OUT_DIR").expect("Cargo sets OUT_DIR for build scripts");
    println!("cargo:rustc-env=GOLDEN_DPI_BUILD_TAG=golden-dpi build {out}");
}
