//! The page's TypeScript view types are generated from `src/views.rs`: fail when the committed
//! file differs from what the Rust definitions generate (UPDATE_TS=1 rewrites it).
#[test]
fn generated_typescript_is_up_to_date() {
    let path = format!(
        "{}/../web/src/engine/generated/views.ts",
        env!("CARGO_MANIFEST_DIR")
    );
    let got = reclaim_core::views::typescript();
    if std::env::var_os("UPDATE_TS").is_some() {
        std::fs::create_dir_all(std::path::Path::new(&path).parent().unwrap()).unwrap();
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        got == want,
        "{path} is stale: regenerate with `UPDATE_TS=1 cargo test --manifest-path wasm-core/Cargo.toml --test views_ts`"
    );
}
