; Scopes for names (docs/language.md, "Names and scopes"): a function, the
; body of a loop or `while` (with its variable and iter-args), and each
; branch of an `if`. `manual { }` and `auto { }` are not scopes for names:
; what they define stays visible after them.
(function_definition) @local.scope
(for_statement) @local.scope
(while_statement) @local.scope
(if_statement consequence: (block) @local.scope)
(if_statement alternative: (block) @local.scope)

(parameter name: (identifier) @local.definition)
(binding name: (identifier) @local.definition)
(for_statement variable: (identifier) @local.definition)
(iter_argument name: (identifier) @local.definition)

(identifier) @local.reference
