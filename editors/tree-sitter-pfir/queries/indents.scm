; Indentation, in the capture names of both Helix (`@indent`, `@outdent`)
; and Neovim (`@indent.begin`, `@indent.branch`, `@indent.end`); each editor
; ignores the other's names.
[
  (block)
  (parameter_list)
  (argument_list)
  (iter_arguments)
  (list)
] @indent @indent.begin

[
  "}"
  ")"
  "]"
] @outdent @indent.branch @indent.end
