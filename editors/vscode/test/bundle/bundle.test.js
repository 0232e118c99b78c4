// The bundle `npm run bundle` writes (dist/extension.js, what the .vsix
// runs): it holds the client and vscode-languageclient, so it requires
// nothing but Node's own modules and the `vscode` API, and it loads and
// exports the extension's entry points.
'use strict';
const assert = require('node:assert');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const test = require('node:test');

const root = path.join(__dirname, '..', '..');
const bundle = path.join(root, 'dist', 'extension.js');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

test('the manifest runs the bundle', () => {
  assert.strictEqual(path.normalize(path.join(root, pkg.main)), bundle);
});

test('the bundle requires only Node modules and vscode', () => {
  const text = fs.readFileSync(bundle, 'utf8');
  const required = new Set([...text.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]));
  assert.ok(required.has('vscode'), 'the bundle does not use the vscode API');
  for (const name of required) {
    const builtin = Module.isBuiltin(name);
    assert.ok(builtin || name === 'vscode', `the bundle requires \`${name}\`, which the .vsix does not carry`);
  }
});

test('the bundle loads and exports activate and deactivate', () => {
  // A stand-in for the `vscode` module: every member is a class, enough for
  // the client library's top-level code (which subclasses some of them).
  const members = {};
  const vscode = new Proxy(members, {
    get: (target, key) => {
      if (key === '__esModule') return false;
      if (!(key in target)) target[key] = class {};
      return target[key];
    },
  });
  const load = Module._load;
  Module._load = function (request, ...rest) {
    return request === 'vscode' ? vscode : load.call(this, request, ...rest);
  };
  try {
    const ext = require(bundle);
    assert.strictEqual(typeof ext.activate, 'function');
    assert.strictEqual(typeof ext.deactivate, 'function');
  } finally {
    Module._load = load;
  }
});
