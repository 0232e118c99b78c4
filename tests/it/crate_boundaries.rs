//! The layers Cargo enforces (ARCHITECTURE.md, "Crates"): the test tooling
//! in `crates/` knows nothing of pfir's compiler, so no crate there may
//! depend on the `pfir` package, directly or through another crate, as a
//! normal, build or dev dependency. The dependency graph is Cargo's own
//! (`cargo metadata --no-deps`: the members' manifests as Cargo reads
//! them), so a new edge in any manifest shows up here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// The crates that must never reach the `pfir` package.
const TOOLING: [&str; 4] = ["filecheck", "lit", "fsutil", "tree-sitter-pfir"];

/// Member name -> the members it depends on (every kind), and name -> key
/// for the workspace's own packages.
struct Graph {
    edges: BTreeMap<String, Vec<String>>,
    local: BTreeMap<String, String>,
}

/// `cargo metadata --format-version 1 --no-deps --offline EXTRA` of the
/// workspace. `--no-deps`: the workspace's own manifests, as Cargo reads
/// them.
fn cargo_metadata(extra: &[&str]) -> serde_json::Value {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .args(extra)
        .current_dir(root)
        .output()
        .expect("running cargo metadata");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("metadata is JSON")
}

fn workspace_graph() -> Graph {
    // A registry crate cannot depend on a path crate, so the edges between
    // workspace members are every edge that could ever reach `pfir`; and
    // no package of another platform has to be downloaded to list them.
    let meta = cargo_metadata(&[]);
    let packages = meta["packages"].as_array().expect("packages");
    // Every workspace member, by the directory of its manifest.
    let mut local = BTreeMap::new();
    let mut by_dir = BTreeMap::new();
    for p in packages {
        let name = p["name"].as_str().unwrap().to_string();
        let manifest = Path::new(p["manifest_path"].as_str().unwrap());
        let dir = manifest.parent().unwrap().canonicalize().unwrap();
        by_dir.insert(dir, name.clone());
        local.insert(name.clone(), name);
    }
    // Edges: each path dependency (normal, build or dev) on another member.
    let mut edges = BTreeMap::new();
    for p in packages {
        let deps = p["dependencies"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|d| d["path"].as_str())
            .filter_map(|dir| by_dir.get(&Path::new(dir).canonicalize().ok()?).cloned())
            .collect();
        edges.insert(p["name"].as_str().unwrap().to_string(), deps);
    }
    Graph { edges, local }
}

/// The chain of package ids from `from` to `to`, if `to` is reachable.
fn path_to(edges: &BTreeMap<String, Vec<String>>, from: &str, to: &str) -> Option<Vec<String>> {
    let mut parent: BTreeMap<&str, &str> = BTreeMap::new();
    let mut seen = BTreeSet::from([from]);
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(id) = queue.pop_front() {
        if id == to {
            let mut chain = vec![id.to_string()];
            let mut at = id;
            while let Some(&p) = parent.get(at) {
                chain.push(p.to_string());
                at = p;
            }
            chain.reverse();
            return Some(chain);
        }
        for next in edges.get(id).into_iter().flatten() {
            if seen.insert(next) {
                parent.insert(next, id);
                queue.push_back(next);
            }
        }
    }
    None
}

#[test]
fn test_tooling_crates_never_depend_on_the_pfir_package() {
    let graph = workspace_graph();
    let pfir = graph.local.get("pfir").expect("the root package is pfir");
    for name in TOOLING {
        let id = graph
            .local
            .get(name)
            .unwrap_or_else(|| panic!("crates/{name} is a workspace member"));
        assert!(
            graph.edges.contains_key(id),
            "{name} is in Cargo's workspace graph"
        );
        if let Some(chain) = path_to(&graph.edges, id, pfir) {
            panic!(
                "crates/{name} depends on the pfir package: {}",
                chain.join(" -> ")
            );
        }
    }
    // The other direction is how the layers are meant to be used.
    assert!(path_to(&graph.edges, pfir, &graph.local["lit"]).is_some());
    assert!(path_to(&graph.edges, pfir, &graph.local["filecheck"]).is_some());
}

/// The rejection path of the check above, on a made-up graph: an indirect
/// dependency on pfir (lit -> helper -> pfir) is found and named.
#[test]
fn an_indirect_dependency_on_pfir_is_found() {
    let edges: BTreeMap<String, Vec<String>> = [
        ("lit", vec!["fsutil", "regex"]),
        ("fsutil", vec!["helper"]),
        ("helper", vec!["pfir"]),
        ("pfir", vec!["lit"]),
        ("regex", vec![]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(
        path_to(&edges, "lit", "pfir"),
        Some(vec![
            "lit".to_string(),
            "fsutil".into(),
            "helper".into(),
            "pfir".into()
        ])
    );
    assert_eq!(path_to(&edges, "regex", "pfir"), None);
}

/// Test-only code (`test-drop-deps`, `passes::synth`) is behind the
/// `testkit` feature, which no default build turns on: it is not a default
/// feature, and only a dev-dependency (what `cargo test` and `cargo bench`
/// build) enables it.
#[test]
fn testkit_is_off_in_default_builds() {
    let meta = cargo_metadata(&["--locked"]);
    let pfir = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "pfir")
        .expect("the pfir package");
    assert!(
        pfir["features"]["testkit"].is_array(),
        "pfir has a testkit feature"
    );
    let default = pfir["features"]["default"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        !default.iter().any(|f| f == "testkit"),
        "testkit must not be a default feature: {default:?}"
    );
    for dep in pfir["dependencies"].as_array().unwrap() {
        let enables = dep["features"]
            .as_array()
            .is_some_and(|fs| fs.iter().any(|f| f == "testkit"));
        if dep["name"] == "pfir" || enables {
            assert_eq!(
                dep["kind"], "dev",
                "only a dev-dependency may enable testkit: {dep}"
            );
        }
    }
    // This test binary is built by `cargo test`, so the feature is on and
    // the testing pass is registered.
    assert!(pfir::passes::known_passes().contains(&"test-drop-deps"));
}
