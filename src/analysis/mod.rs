//! Analyses over the IR.
//!
//! - [`task_graph`](mod@task_graph): the dependency-graph evaluator, which expands a
//!   function into the runtime task DAG its `deps` imply;
//! - [`compare`]: comparing two such graphs, and
//!   [`verify_same_dependencies`], the `--verify-deps` check that a rewrite
//!   (`expand-manual-phase-fence`) kept every task's set of transitive
//!   producers.
//!
//! The semantics are documented in `task_graph` and in
//! `docs/dependency-evaluator.md`.

pub mod compare;
pub mod task_graph;

pub use compare::{
    Comparison, Difference, compare_graphs, first_difference, verify_dependencies,
    verify_dependencies_within, verify_function, verify_same_dependencies,
    verify_same_dependencies_with,
};
pub use task_graph::{
    Approximation, Budget, EntrySources, Limits, Node, NodeKey, NodeKind, RunBudget, TaskGraph,
    function_task_graph, task_graph,
};
