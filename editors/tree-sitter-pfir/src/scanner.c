// The external scanner of the .pfir grammar: one zero-width token that ends
// a comment where its line ends (at a newline or at the end of the input),
// so that a comment, whose parts after `//` are all optional, has an
// unambiguous end. It keeps no state.

#include "tree_sitter/parser.h"

enum TokenType {
  COMMENT_END,
};

void *tree_sitter_pfir_external_scanner_create(void) { return NULL; }

void tree_sitter_pfir_external_scanner_destroy(void *payload) { (void)payload; }

unsigned tree_sitter_pfir_external_scanner_serialize(void *payload, char *buffer) {
  (void)payload;
  (void)buffer;
  return 0;
}

void tree_sitter_pfir_external_scanner_deserialize(void *payload, const char *buffer,
                                                    unsigned length) {
  (void)payload;
  (void)buffer;
  (void)length;
}

bool tree_sitter_pfir_external_scanner_scan(void *payload, TSLexer *lexer,
                                            const bool *valid_symbols) {
  (void)payload;
  if (!valid_symbols[COMMENT_END]) {
    return false;
  }
  if (lexer->eof(lexer) || lexer->lookahead == '\n' || lexer->lookahead == '\r') {
    lexer->result_symbol = COMMENT_END;
    lexer->mark_end(lexer);
    return true;
  }
  return false;
}
