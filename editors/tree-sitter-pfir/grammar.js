/**
 * @file A tree-sitter grammar for `.pfir`, pfir's textual orchestration IR.
 * @license MIT OR Apache-2.0
 *
 * It follows the language reference (docs/language.md, sections 2-6) and
 * pfir's own LALRPOP grammar (grammar/pfir.lalrpop): every file `pfir`
 * reads parses without an ERROR node (tests/it/tree_sitter_grammar.rs checks the
 * repository's files). Test directives inside comments (`// RUN:`,
 * `// CHECK-NEXT:`, `// expected-error@+1 {{...}}`, `// -----`) get nodes
 * of their own so that editors can highlight them.
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

const PREC = {
  or: 1,
  and: 2,
  not: 3,
  compare: 4,
  add: 5,
  multiply: 6,
  unary: 7,
};

const SCALAR_TYPES = [
  'i8', 'i16', 'i32', 'i64', 'u8', 'u16', 'u32', 'u64', 'index', 'bool',
  'f16', 'bf16', 'f32', 'f64', 'task_id',
];

const IDENT = /[A-Za-z_][A-Za-z0-9_]*/;

/**
 * One or more `rule` separated by commas.
 * @param {RuleOrLiteral} rule
 */
function commaSep1(rule) {
  return seq(rule, repeat(seq(',', rule)));
}

/**
 * One or more `rule` separated by commas, with an optional trailing comma.
 * @param {RuleOrLiteral} rule
 */
function commaSepTrailing(rule) {
  return seq(commaSep1(rule), optional(','));
}

module.exports = grammar({
  name: 'pfir',

  extras: $ => [/\s/, $.comment],

  // A zero-width token where a comment's line ends (src/scanner.c).
  externals: $ => [$._comment_end],

  word: $ => $.identifier,

  rules: {
    source_file: $ => repeat($.function_definition),

    // ---- functions ----

    function_definition: $ => seq(
      optional(field('kind', $.function_kind)),
      'func',
      field('name', $.identifier),
      field('parameters', $.parameter_list),
      optional(seq('->', field('result', $._type))),
      field('body', $.block),
    ),

    function_kind: _ => choice('orchestration', 'incore', 'aic', 'aiv', 'group', 'opaque'),

    parameter_list: $ => seq('(', optional(commaSepTrailing($.parameter)), ')'),

    parameter: $ => seq(
      optional(field('direction', $.direction)),
      field('name', $.identifier),
      ':',
      field('type', $._type),
    ),

    direction: _ => choice('in', 'out', 'inout'),

    // ---- types ----

    _type: $ => choice($.scalar_type, $.array_type, $.tensor_type, $.tuple_type),

    scalar_type: _ => choice(...SCALAR_TYPES),

    array_type: $ => seq(
      'array', '<', field('element', $.scalar_type), ',', field('extent', $._extent), '>',
    ),

    tensor_type: $ => seq(
      'tensor', '<', '[', optional(commaSep1(field('dimension', $._extent))), ']', ',',
      field('element', $.scalar_type), '>',
    ),

    tuple_type: $ => seq('(', commaSep1($._type), ')'),

    _extent: $ => choice($.integer, $.identifier),

    // ---- statements ----

    block: $ => seq('{', repeat($._statement), '}'),

    _statement: $ => choice(
      $.assignment,
      $.call_statement,
      $.for_statement,
      $.while_statement,
      $.if_statement,
      $.scope_statement,
      $.yield_statement,
      $.return_statement,
      $.break_statement,
      $.continue_statement,
    ),

    assignment: $ => seq(
      commaSep1(field('binding', $.binding)),
      '=',
      field('value', choice(
        $._expression,
        $.submit_expression,
        $.for_statement,
        $.while_statement,
        $.if_statement,
      )),
    ),

    binding: $ => choice(
      seq(field('name', $.identifier), optional(seq(':', field('type', $._type)))),
      $.discard,
    ),

    discard: _ => '_',

    // Only a call may stand alone.
    call_statement: $ => $.call_expression,

    submit_expression: $ => seq(
      'submit',
      field('callee', choice($.identifier, $.op_name)),
      field('arguments', $.argument_list),
    ),

    for_statement: $ => seq(
      'for',
      field('variable', $.identifier),
      'in',
      field('kind', $.loop_kind),
      '(', commaSep1(field('bound', $._expression)), ')',
      optional(field('iter', $.iter_arguments)),
      field('body', $.block),
    ),

    loop_kind: _ => choice('range', 'parallel', 'unroll'),

    iter_arguments: $ => seq('iter', '(', commaSep1($.iter_argument), ')'),

    iter_argument: $ => seq(
      field('name', $.identifier),
      optional(seq(':', field('type', $._type))),
      '=',
      field('init', $._expression),
    ),

    while_statement: $ => seq(
      'while',
      field('condition', $._expression),
      optional(field('iter', $.iter_arguments)),
      field('body', $.block),
    ),

    if_statement: $ => seq(
      'if',
      field('condition', $._expression),
      field('consequence', $.block),
      optional(seq('else', field('alternative', choice($.block, $.if_statement)))),
    ),

    scope_statement: $ => seq(
      field('kind', choice('manual', 'auto')),
      optional(field('name', $.string)),
      field('body', $.block),
    ),

    // Without values, `yield` and `return` end their block (as in pfir: a
    // value on the next line would be read as theirs).
    yield_statement: $ => prec.right(seq('yield', optional(commaSep1($._expression)))),

    return_statement: $ => prec.right(seq('return', optional(commaSep1($._expression)))),

    break_statement: _ => 'break',

    continue_statement: _ => 'continue',

    // ---- expressions ----

    // The levels of pfir's grammar: `or`, `and`, `not` and comparisons
    // take any expression; arithmetic and unary minus take operands only,
    // so a comparison never chains (`a < b < c` is a syntax error, as in
    // pfir) and `not a < b` is `not (a < b)`.
    _expression: $ => choice(
      $.boolean_expression,
      $.not_expression,
      $.comparison_expression,
      $._operand,
    ),

    _operand: $ => choice(
      $.binary_expression,
      $.unary_expression,
      $.parenthesized_expression,
      $.call_expression,
      $.identifier,
      $.integer,
      $.float,
      $.true,
      $.false,
      $.none,
      $.scalar_type,
    ),

    boolean_expression: $ => choice(
      prec.left(PREC.or, seq(field('left', $._expression), field('operator', 'or'), field('right', $._expression))),
      prec.left(PREC.and, seq(field('left', $._expression), field('operator', 'and'), field('right', $._expression))),
    ),

    not_expression: $ => prec(PREC.not, seq(field('operator', 'not'), field('operand', $._expression))),

    comparison_expression: $ => prec.left(PREC.compare, seq(
      field('left', $._operand),
      field('operator', choice('==', '!=', '<', '<=', '>', '>=')),
      field('right', $._operand),
    )),

    binary_expression: $ => choice(
      ...[
        ['+', PREC.add],
        ['-', PREC.add],
        ['*', PREC.multiply],
        ['/', PREC.multiply],
        ['%', PREC.multiply],
      ].map(([op, p]) => prec.left(/** @type {number} */ (p), seq(
        field('left', $._operand),
        field('operator', /** @type {string} */ (op)),
        field('right', $._operand),
      ))),
    ),

    unary_expression: $ => prec(PREC.unary, seq(field('operator', '-'), field('operand', $._operand))),

    parenthesized_expression: $ => seq('(', $._expression, ')'),

    call_expression: $ => seq(
      field('function', choice($.identifier, $.op_name)),
      field('arguments', $.argument_list),
    ),

    argument_list: $ => seq(
      '(',
      optional(commaSepTrailing(choice($._expression, $.list, $.keyword_argument))),
      ')',
    ),

    keyword_argument: $ => seq(
      field('name', $.identifier),
      '=',
      field('value', choice($._expression, $.list)),
    ),

    list: $ => seq('[', optional(commaSepTrailing($._expression)), ']'),

    // ---- tokens ----

    identifier: _ => IDENT,

    // Two or more identifiers joined by dots (`array.create`); a single
    // token, whose parts may be reserved words.
    op_name: _ => token(seq(IDENT, repeat1(seq('.', IDENT)))),

    integer: _ => /[0-9]+/,

    float: _ => token(choice(
      /[0-9]+\.[0-9]+([eE][+-]?[0-9]+)?/,
      /[0-9]+[eE][+-]?[0-9]+/,
    )),

    true: _ => 'true',
    false: _ => 'false',
    none: _ => 'none',

    string: $ => seq(
      '"',
      repeat(choice(token.immediate(prec(1, /[^"\\\n]+/)), $.escape_sequence)),
      token.immediate('"'),
    ),

    escape_sequence: _ => token.immediate(/\\["\\]/),

    // `//` to the end of the line. A comment that starts with a test
    // directive has it as a child: `RUN:`, a FileCheck directive (`CHECK:`,
    // `CHECK-NEXT:`, a custom prefix such as `ERR-NEXT:`), an
    // `expected-error@+1` expectation with its `{{message}}`, or the
    // `// -----` split marker.
    comment: $ => seq(
      '//',
      optional(choice(
        seq($.run_directive, optional($.run_command)),
        seq($.check_directive, optional($.check_pattern)),
        seq($.expectation, optional($.expected_message), optional($._comment_text)),
        $.split_marker,
        $._comment_text,
      )),
      $._comment_end,
    ),

    run_directive: _ => token.immediate(prec(3, /[ \t]*RUN:/)),

    check_directive: _ => token.immediate(prec(2, /[ \t]*[A-Z][A-Z0-9_]*(-[A-Z0-9_]+)*:/)),

    expectation: _ => token.immediate(prec(2,
      /[ \t]*expected-(error|warning|note|remark)(@([+-]?[0-9]+|above|below))?/)),

    // `{{text}}`, up to the first `}}` (the text cannot hold one).
    expected_message: _ => token.immediate(prec(2, /[ \t]*\{\{([^}\n]|\}[^}\n])*\}\}/)),

    // No precedence: it wins over plain text only when it is the whole
    // rest of the line (same length, declared first), so `// ------` is
    // an ordinary comment.
    split_marker: _ => token.immediate(/[ \t]*-----[ \t]*/),

    run_command: _ => token.immediate(/[^\n]+/),

    check_pattern: _ => token.immediate(/[^\n]+/),

    _comment_text: _ => token.immediate(/[^\n]+/),
  },
});
