// `npm run package`: installs the pinned packager (once, from the lockfile in
// this directory) and writes pfir.vsix. Needs no network once the npm cache
// holds the packages; publishes nothing.
'use strict';
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const here = __dirname;
const ext = path.join(here, '..');
const win = process.platform === 'win32';
const vsce = path.join(here, 'node_modules', '.bin', win ? 'vsce.cmd' : 'vsce');

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit', shell: win });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (!fs.existsSync(vsce)) {
  run(win ? 'npm.cmd' : 'npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], here);
}
run(vsce, ['package', '--allow-missing-repository', '--skip-license', '--out', 'pfir.vsix'], ext);
