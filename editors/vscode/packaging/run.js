// `npm run package`: bundles the client with esbuild (src/ and
// vscode-languageclient into dist/extension.js) and writes pfir.vsix with
// the pinned packager of this directory. Publishes nothing.
//
// The packager has its own lockfile so that the test install (`npm ci
// --ignore-scripts`, what CI runs) stays small. A plain `npm ci` in
// editors/vscode installs it too (this script, run by `postinstall` with
// `--install-only`), so that packaging afterwards needs no network: every
// package comes from the two lockfiles, fetched by that one `npm ci`.
'use strict';
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const here = __dirname;
const ext = path.join(here, '..');
const win = process.platform === 'win32';
const bin = (dir, name) => path.join(dir, 'node_modules', '.bin', win ? `${name}.cmd` : name);
const vsce = bin(here, 'vsce');
const npm = win ? 'npm.cmd' : 'npm';

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit', shell: win });
  return r.status === 0;
}

function installPackager(offline) {
  const args = ['ci', '--no-audit', '--no-fund', '--loglevel=error'];
  if (offline) args.push('--offline');
  return run(npm, args, here);
}

if (process.argv.includes('--install-only')) {
  if (!fs.existsSync(vsce) && !installPackager(false)) process.exit(1);
  process.exit(0);
}

if (!fs.existsSync(vsce) && !installPackager(true)) {
  console.error(
    'pfir: the packager (@vscode/vsce) is not installed and not in the npm cache; ' +
      'run `npm ci` in editors/vscode once with network access (it installs it).',
  );
  process.exit(1);
}
if (!run(npm, ['run', 'bundle', '--silent'], ext)) process.exit(1);
if (
  !run(
    vsce,
    ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', 'pfir.vsix'],
    ext,
  )
) {
  process.exit(1);
}
