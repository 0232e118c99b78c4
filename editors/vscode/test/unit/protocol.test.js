'use strict';
// Unit tests of src/protocol.js (run with `node --test test/unit/`).
const test = require('node:test');
const assert = require('node:assert/strict');
const p = require('../../src/protocol.js');

const cfg = (o) => ({ get: (k) => o[k] });

test('settings: defaults when unset', () => {
  assert.deepEqual(p.serverSettings(cfg({}), true), {
    diagnostics: { onType: true },
    remarks: false,
    testsOnSave: true,
    allowRunningCommands: false,
    testTimeout: 10,
  });
});

test('settings: values are passed through, non-booleans ignored', () => {
  assert.deepEqual(
    p.serverSettings(cfg({ 'diagnostics.onType': false, remarks: true, testsOnSave: 'yes', testTimeout: 2.5 }), true),
    { diagnostics: { onType: false }, remarks: true, testsOnSave: true, allowRunningCommands: false, testTimeout: 2.5 },
  );
});

test('settings: consent to run commands only in a trusted workspace, only for `true`', () => {
  assert.equal(p.serverSettings(cfg({ allowRunningCommands: true }), true).allowRunningCommands, true);
  assert.equal(p.serverSettings(cfg({ allowRunningCommands: true }), false).allowRunningCommands, false);
  assert.equal(p.serverSettings(cfg({ allowRunningCommands: true }), undefined).allowRunningCommands, false);
  for (const v of ['true', 1, null, 'on', {}]) {
    assert.equal(p.serverSettings(cfg({ allowRunningCommands: v }), true).allowRunningCommands, false, String(v));
  }
  for (const v of [0, -1, '10', 1e9, NaN]) {
    assert.equal(p.serverSettings(cfg({ testTimeout: v }), true).testTimeout, 10, String(v));
  }
});

test('server command: setting, PATH default, home expansion', () => {
  assert.equal(p.serverCommand(undefined, '/h'), 'pfir');
  assert.equal(p.serverCommand('   ', '/h'), 'pfir');
  assert.equal(p.serverCommand('/opt/pfir/bin/pfir', '/h'), '/opt/pfir/bin/pfir');
  assert.equal(p.serverCommand('~/bin/pfir', '/home/me'), '/home/me/bin/pfir');
  assert.equal(p.serverCommand('~user/pfir', '/home/me'), '~user/pfir');
});

test('output URI round-trips to viewOutput parameters', () => {
  const src = 'file:///w/a%20b/t.pfir';
  const u = p.outputUriParts(src, '/w/a b/t.pfir', 2);
  assert.equal(u.scheme, 'pfir-output');
  assert.equal(u.path, '/w/a b/t.pfir.out');
  assert.deepEqual(p.viewOutputParams(u.query), { textDocument: { uri: src }, run: 2 });
  const whole = p.outputUriParts(src, '/w/t.pfir', undefined);
  assert.deepEqual(p.viewOutputParams(whole.query), { textDocument: { uri: src } });
});

test('output URI: bad RUN index is refused', () => {
  assert.throws(() => p.outputUriParts('file:///t.pfir', '/t.pfir', -1), RangeError);
  assert.throws(() => p.outputUriParts('file:///t.pfir', '/t.pfir', 1.5), RangeError);
});

test('viewOutput parameters: malformed queries are rejected', () => {
  assert.equal(p.viewOutputParams(''), undefined);
  assert.equal(p.viewOutputParams('run=1'), undefined);
  assert.equal(p.viewOutputParams('source=file%3A%2F%2F%2Ft&run=x'), undefined);
  assert.equal(p.viewOutputParams('source=%E0%A4%A'), undefined);
  assert.equal(p.viewOutputParams('=x'), undefined);
});

test('viewOutput answer: text extracted, malformed answer is an error', () => {
  assert.equal(p.viewOutputText({ text: 'func f() {}\n' }), 'func f() {}\n');
  assert.throws(() => p.viewOutputText(null), /without a `text`/);
  assert.throws(() => p.viewOutputText({ text: 3 }), /without a `text`/);
});

test('CLI arguments of the shell-out commands', () => {
  assert.deepEqual(p.cliArgs('test', '/t/a.pfir'), ['test', '-v', '/t/a.pfir']);
  assert.deepEqual(p.cliArgs('update', '/t/a.pfir'), ['test', '--update', '/t/a.pfir']);
  assert.deepEqual(p.cliArgs('output', '-'), ['opt', '-', '--passes=expand-manual-phase-fence']);
  assert.throws(() => p.cliArgs('nope', 'x'), /unknown command/);
});

test('explainParams reads the error code of a pfir-explain: URI', () => {
  assert.deepEqual(p.explainParams('E0010'), { code: 'E0010' });
  assert.deepEqual(p.explainParams('/E0003'), { code: 'E0003' });
  assert.equal(p.explainParams('E10'), undefined);
  assert.equal(p.explainParams('rm -rf'), undefined);
});
