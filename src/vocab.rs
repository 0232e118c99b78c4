//! The vocabulary shared by the lexer, the AST and the IR: scalar types,
//! operators, function kinds, parameter directions, loop kinds and the
//! reserved words. It depends on nothing else in the crate, so the front end
//! can name these without importing the IR (the IR re-exports them).

/// A scalar element type: `i8` ... `f64`, `bool`, `index`, `task_id`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ScalarType {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    Index,
    Bool,
    F16,
    BF16,
    F32,
    F64,
    TaskId,
}

impl ScalarType {
    pub const ALL: [ScalarType; 15] = [
        ScalarType::I8,
        ScalarType::I16,
        ScalarType::I32,
        ScalarType::I64,
        ScalarType::U8,
        ScalarType::U16,
        ScalarType::U32,
        ScalarType::U64,
        ScalarType::Index,
        ScalarType::Bool,
        ScalarType::F16,
        ScalarType::BF16,
        ScalarType::F32,
        ScalarType::F64,
        ScalarType::TaskId,
    ];

    /// The keyword that spells this type.
    pub fn name(self) -> &'static str {
        match self {
            ScalarType::I8 => "i8",
            ScalarType::I16 => "i16",
            ScalarType::I32 => "i32",
            ScalarType::I64 => "i64",
            ScalarType::U8 => "u8",
            ScalarType::U16 => "u16",
            ScalarType::U32 => "u32",
            ScalarType::U64 => "u64",
            ScalarType::Index => "index",
            ScalarType::Bool => "bool",
            ScalarType::F16 => "f16",
            ScalarType::BF16 => "bf16",
            ScalarType::F32 => "f32",
            ScalarType::F64 => "f64",
            ScalarType::TaskId => "task_id",
        }
    }

    pub fn from_name(name: &str) -> Option<ScalarType> {
        ScalarType::ALL.into_iter().find(|s| s.name() == name)
    }

    pub fn is_integer(self) -> bool {
        matches!(
            self,
            ScalarType::I8
                | ScalarType::I16
                | ScalarType::I32
                | ScalarType::I64
                | ScalarType::U8
                | ScalarType::U16
                | ScalarType::U32
                | ScalarType::U64
                | ScalarType::Index
        )
    }

    pub fn is_float(self) -> bool {
        matches!(
            self,
            ScalarType::F16 | ScalarType::BF16 | ScalarType::F32 | ScalarType::F64
        )
    }
}

/// `orchestration`, `incore`, ...; `opaque` when none is written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FuncKind {
    Orchestration,
    InCore,
    Aic,
    Aiv,
    Group,
    Opaque,
}

impl FuncKind {
    pub fn keyword(self) -> &'static str {
        match self {
            FuncKind::Orchestration => "orchestration",
            FuncKind::InCore => "incore",
            FuncKind::Aic => "aic",
            FuncKind::Aiv => "aiv",
            FuncKind::Group => "group",
            FuncKind::Opaque => "opaque",
        }
    }
}

/// A parameter's (and so a call argument's) direction.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    In,
    Out,
    InOut,
}

impl Direction {
    pub fn keyword(self) -> &'static str {
        match self {
            Direction::In => "in",
            Direction::Out => "out",
            Direction::InOut => "inout",
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Neg,
    Not,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "or",
            BinaryOp::And => "and",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
        }
    }

    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
        )
    }
}

/// `for NAME in KIND(start, stop, step)`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LoopKind {
    Range,
    Parallel,
    Unroll,
}

impl LoopKind {
    pub fn keyword(self) -> &'static str {
        match self {
            LoopKind::Range => "range",
            LoopKind::Parallel => "parallel",
            LoopKind::Unroll => "unroll",
        }
    }
}

/// Keywords that start statements or function headers, and the literals.
pub const KEYWORDS: [&str; 26] = [
    "func",
    "orchestration",
    "incore",
    "aic",
    "aiv",
    "group",
    "opaque",
    "in",
    "out",
    "inout",
    "for",
    "iter",
    "while",
    "if",
    "else",
    "manual",
    "auto",
    "yield",
    "return",
    "break",
    "continue",
    "submit",
    "true",
    "false",
    "none",
    "not",
];

/// Binary keyword operators.
pub const KEYWORD_OPERATORS: [&str; 2] = ["and", "or"];

/// Type names: the scalars, `array`, `tensor`.
pub fn type_names() -> impl Iterator<Item = &'static str> {
    ScalarType::ALL
        .into_iter()
        .map(|s| s.name())
        .chain(["array", "tensor"])
}

pub const LOOP_KINDS: [LoopKind; 3] = [LoopKind::Range, LoopKind::Parallel, LoopKind::Unroll];

/// Whether `name` is a reserved word (a keyword or a type name).
pub fn is_reserved(name: &str) -> bool {
    KEYWORDS.contains(&name)
        || KEYWORD_OPERATORS.contains(&name)
        || type_names().any(|t| t == name)
        || LOOP_KINDS.iter().any(|k| k.keyword() == name)
}

/// Every reserved word: the keywords, the keyword operators, the type names
/// and the loop kinds (the table of `docs/language.md`, "Reserved words").
pub fn reserved_words() -> impl Iterator<Item = &'static str> {
    KEYWORDS
        .into_iter()
        .chain(KEYWORD_OPERATORS)
        .chain(type_names())
        .chain(LOOP_KINDS.iter().map(|k| k.keyword()))
}
