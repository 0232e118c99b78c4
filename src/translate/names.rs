//! The words of PyPTO's DSL that stand for `.pfir` words: data types,
//! function kinds, loop kinds, the Python keywords no name may be. The one
//! table both directions read, so `pfir translate --to=pypto` and
//! `--from=pypto` cannot disagree.

use crate::vocab::{FuncKind, LoopKind, ScalarType};

/// The module alias the DSL is written with (`import pypto.language as pl`).
pub const PL: &str = "pl";

/// Each `.pfir` scalar type with PyPTO's `DataType` name (`pl.INT64`).
/// `f64` has none: PyPTO has no 64-bit float.
const DTYPES: [(ScalarType, &str); 14] = [
    (ScalarType::I8, "INT8"),
    (ScalarType::I16, "INT16"),
    (ScalarType::I32, "INT32"),
    (ScalarType::I64, "INT64"),
    (ScalarType::U8, "UINT8"),
    (ScalarType::U16, "UINT16"),
    (ScalarType::U32, "UINT32"),
    (ScalarType::U64, "UINT64"),
    (ScalarType::Index, "INDEX"),
    (ScalarType::Bool, "BOOL"),
    (ScalarType::F16, "FP16"),
    (ScalarType::BF16, "BF16"),
    (ScalarType::F32, "FP32"),
    (ScalarType::TaskId, "TASK_ID"),
];

/// PyPTO's name of a scalar type (`None`: PyPTO has no such type).
pub fn dtype_name(s: ScalarType) -> Option<&'static str> {
    DTYPES.iter().find(|(t, _)| *t == s).map(|(_, n)| *n)
}

/// The scalar type PyPTO's `DataType` name stands for.
pub fn dtype_from_name(name: &str) -> Option<ScalarType> {
    DTYPES.iter().find(|(_, n)| *n == name).map(|(t, _)| *t)
}

/// Each function kind with PyPTO's `pl.FunctionType` name.
const KINDS: [(FuncKind, &str); 6] = [
    (FuncKind::Opaque, "Opaque"),
    (FuncKind::Orchestration, "Orchestration"),
    (FuncKind::InCore, "InCore"),
    (FuncKind::Aic, "AIC"),
    (FuncKind::Aiv, "AIV"),
    (FuncKind::Group, "Group"),
];

pub fn kind_name(k: FuncKind) -> &'static str {
    KINDS
        .iter()
        .find(|(t, _)| *t == k)
        .map_or("Opaque", |(_, n)| n)
}

pub fn kind_from_name(name: &str) -> Option<FuncKind> {
    KINDS.iter().find(|(_, n)| *n == name).map(|(t, _)| *t)
}

/// The `pl.Level` and `pl.Role` PyPTO derives from a function's type
/// (`FunctionTypeToLevel` and the `Function` constructor), which its
/// printer writes on every non-opaque function
/// (`level=pl.Level.CHIP, role=pl.Role.Orchestrator`). Any other level or
/// role PyPTO itself refuses for that type; an opaque function has none.
pub fn derived_level_role(k: FuncKind) -> Option<(&'static str, &'static str)> {
    match k {
        FuncKind::Opaque => None,
        FuncKind::Orchestration => Some(("CHIP", "Orchestrator")),
        FuncKind::InCore => Some(("CHIP_DIE", "SubWorker")),
        FuncKind::Aic => Some(("AIC", "SubWorker")),
        FuncKind::Aiv => Some(("AIV", "SubWorker")),
        FuncKind::Group => Some(("CORE_GROUP", "SubWorker")),
    }
}

/// The keyword arguments PyPTO's printer writes for a positional argument
/// of a `.pfir` op: (op, keyword, position). `pl.array.create(4,
/// dtype=pl.TASK_ID)` is `array.create(4, task_id)`.
pub const POSITIONAL_KEYWORDS: [(&str, &str, usize); 1] = [("array.create", "dtype", 1)];

/// The position of `keyword` among the positional arguments of `op`, when
/// PyPTO's printer writes that argument as a keyword.
pub fn positional_keyword(op: &str, keyword: &str) -> Option<usize> {
    POSITIONAL_KEYWORDS
        .iter()
        .find(|(o, k, _)| *o == op && *k == keyword)
        .map(|(_, _, i)| *i)
}

/// The loop iterators of the DSL (`pl.range`, `pl.parallel`, `pl.unroll`)
/// are spelt as the `.pfir` loop kinds are.
pub fn loop_kind_from_name(name: &str) -> Option<LoopKind> {
    crate::vocab::LOOP_KINDS
        .into_iter()
        .find(|k| k.keyword() == name)
}

/// Python's keywords: no variable, function or op-name part may be one
/// (a last op-name part gets PyPTO's `_` suffix instead: `pl.tensor.not_`).
pub const PYTHON_KEYWORDS: [&str; 35] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

pub fn is_python_keyword(name: &str) -> bool {
    PYTHON_KEYWORDS.contains(&name)
}

/// The temporary that holds the tuple of a `pl.submit` whose kernel has no
/// results (`_submit_tmp = pl.submit(...)`, `t = _submit_tmp[0]`), the name
/// PyPTO's printer uses.
pub const SUBMIT_TMP: &str = "_submit_tmp";

/// Names a `.pfir` variable cannot keep in the DSL: Python keywords, the
/// two names a program's methods need (`self`, `pl`) and the temporary of a
/// `pl.submit` without results (`_submit_tmp`).
pub fn is_reserved_in_dsl(name: &str) -> bool {
    is_python_keyword(name) || name == "self" || name == PL || name == SUBMIT_TMP
}

/// PyPTO's spelling of one op-name part: a Python keyword takes a `_`.
pub fn op_part_to_dsl(part: &str) -> String {
    if is_python_keyword(part) {
        format!("{part}_")
    } else {
        part.to_string()
    }
}

/// The `.pfir` op-name part of a DSL attribute (`not_` -> `not`).
pub fn op_part_from_dsl(part: &str) -> &str {
    match part.strip_suffix('_') {
        Some(bare) if is_python_keyword(bare) => bare,
        _ => part,
    }
}
