; Highlights for .pfir. Capture names are the common ones of the tree-sitter
; CLI, Neovim and Helix (each falls back to the prefix of a name it does not
; know: `keyword.repeat` is `keyword` in Helix). No two patterns capture the
; same node, so the result does not depend on which of the editors' rules
; (first or last match wins) applies.

; ---- test directives inside comments ----

(comment) @comment
(run_directive) @keyword.directive
(check_directive) @keyword.directive
(expectation) @keyword.directive
(expected_message) @string.special
(split_marker) @keyword.directive

; ---- keywords ----

"func" @keyword.function
(function_kind) @keyword.modifier
(direction) @keyword.modifier
"submit" @keyword
(scope_statement kind: _ @keyword)
["for" "while" "iter"] @keyword.repeat
(for_statement "in" @keyword.repeat)
(loop_kind) @keyword.repeat
[(break_statement) (continue_statement)] @keyword.repeat
["if" "else"] @keyword.conditional
["yield" "return"] @keyword.return
["and" "or" "not"] @keyword.operator

; ---- types ----

(scalar_type) @type.builtin
["array" "tensor"] @type.builtin

; ---- functions and names ----

(function_definition name: (identifier) @function)
(call_expression function: (identifier) @function.call)
(call_expression function: (op_name) @function.builtin)
(submit_expression callee: (identifier) @function.call)
(submit_expression callee: (op_name) @function.builtin)
(parameter name: (identifier) @variable.parameter)
(keyword_argument name: (identifier) @property)
(binding name: (identifier) @variable)
(discard) @variable.builtin
(iter_argument name: (identifier) @variable)
(for_statement variable: (identifier) @variable)

; ---- literals ----

(integer) @constant.numeric
(float) @constant.numeric
[(true) (false)] @constant.builtin.boolean
(none) @constant.builtin
(string) @string
(escape_sequence) @string.escape

; ---- operators and punctuation ----

["=" "->" "+" "-" "*" "/" "%" "==" "!=" "<=" ">="] @operator
(comparison_expression operator: ["<" ">"] @operator)
["(" ")" "[" "]" "{" "}"] @punctuation.bracket
(array_type ["<" ">"] @punctuation.bracket)
(tensor_type ["<" ">"] @punctuation.bracket)
["," ":"] @punctuation.delimiter
