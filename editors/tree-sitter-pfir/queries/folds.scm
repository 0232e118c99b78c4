; Every function and every `{ }` body folds.
(function_definition) @fold
(block) @fold
