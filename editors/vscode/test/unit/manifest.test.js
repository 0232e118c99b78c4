'use strict';
// The manifest, the language configuration and the client agree.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const langConf = JSON.parse(fs.readFileSync(path.join(root, 'language-configuration.json'), 'utf8'));
const extension = fs.readFileSync(path.join(root, 'src', 'extension.js'), 'utf8');

test('every contributed command is registered by the client, and back', () => {
  const contributed = pkg.contributes.commands.map((c) => c.command).sort();
  const registered = [...extension.matchAll(/registerCommand\('([^']+)'/g)].map((m) => m[1]).sort();
  assert.deepEqual(registered, contributed);
  for (const title of ['Show pass output', 'Run tests in this file', 'Update CHECK lines']) {
    assert.ok(pkg.contributes.commands.some((c) => c.category === 'pfir' && c.title === title), title);
  }
});

test('the .pfir language, its grammar and configuration files exist', () => {
  const [lang] = pkg.contributes.languages;
  assert.deepEqual(lang.extensions, ['.pfir']);
  assert.ok(fs.existsSync(path.join(root, lang.configuration)));
  const [grammar] = pkg.contributes.grammars;
  assert.equal(grammar.language, lang.id);
  const g = JSON.parse(fs.readFileSync(path.join(root, grammar.path), 'utf8'));
  assert.equal(g.scopeName, grammar.scopeName);
});

test('the settings are declared with their defaults', () => {
  const props = pkg.contributes.configuration.properties;
  assert.equal(props['pfir.serverPath'].default, 'pfir');
  assert.equal(props['pfir.diagnostics.onType'].default, true);
  assert.equal(props['pfir.remarks'].default, false);
  assert.equal(props['pfir.testsOnSave'].default, true);
  assert.equal(props['pfir.allowRunningCommands'].default, false);
  assert.equal(props['pfir.testTimeout'].default, 10);
});

test('untrusted workspaces: limited, with the binary and consent restricted', () => {
  const u = pkg.capabilities.untrustedWorkspaces;
  assert.equal(u.supported, 'limited');
  assert.deepEqual([...u.restrictedConfigurations].sort(), ['pfir.allowRunningCommands', 'pfir.serverPath']);
  // Settings reach the server only through the trust-aware helper.
  assert.ok(!/configurationSection/.test(extension));
  assert.ok(/serverSettings\(config\(\), vscode\.workspace\.isTrusted\)/.test(extension));
});

test('indentation rules: indent after a trailing `{`, outdent on `}`', () => {
  const inc = new RegExp(langConf.indentationRules.increaseIndentPattern);
  const dec = new RegExp(langConf.indentationRules.decreaseIndentPattern);
  assert.ok(inc.test('orchestration func main(n: i64) -> task_id {'));
  assert.ok(inc.test('  for i in range(n) { // loop'));
  assert.ok(inc.test('  } else {'));
  assert.ok(inc.test('  manual "a{" {'));
  assert.ok(!inc.test('  x = 1 // {'));
  assert.ok(!inc.test('  manual "a{"'));
  assert.ok(!inc.test('  x = f(1)'));
  assert.ok(dec.test('  }'));
  assert.ok(dec.test('} else {'));
  assert.ok(!dec.test('  x = 1'));
});

test('comments, brackets and the RUN continuation rule', () => {
  assert.equal(langConf.comments.lineComment, '//');
  assert.deepEqual(langConf.brackets, [['{', '}'], ['[', ']'], ['(', ')']]);
  const run = new RegExp(langConf.onEnterRules[0].beforeText);
  assert.ok(run.test('// RUN: pfir opt %s \\'));
  assert.ok(!run.test('// RUN: pfir opt %s'));
  const word = new RegExp(langConf.wordPattern, 'g');
  assert.deepEqual('t = array.create(4, task_id) 1.5e3'.match(word), ['t', 'array.create', '4', 'task_id', '1.5e3']);
});
