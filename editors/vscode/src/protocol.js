// @ts-check
/**
 * The editor-side half of the contract between this extension and
 * `pfir lsp`, kept free of the `vscode` module so that it can be unit-tested
 * with plain Node (`npm run test:unit`).
 *
 * - Settings: the `pfir.*` configuration becomes the server's
 *   `initializationOptions` (and the payload of
 *   `workspace/didChangeConfiguration`, under the `pfir` key); consent to
 *   run commands only in a trusted workspace.
 * - Pass output: the custom request `pfir/viewOutput` takes
 *   `{ textDocument: { uri }, run?: number }` (`run`: the 0-based index of a
 *   RUN line; absent: the file's pass pipeline) and answers `{ text: string }`.
 *   Its result is shown as a virtual document whose URI has the scheme
 *   `pfir-output`, the source path plus `.out`, and the query
 *   `source=<encoded source URI>[&run=N]`; the server may hand out such URIs
 *   itself (go to definition on a CHECK line).
 * - Error codes: a diagnostic's `codeDescription.href` is
 *   `pfir-explain:<code>`; the request `pfir/explain` takes `{ code }` and
 *   answers `{ text }` (what `pfir explain <code>` prints).
 */

'use strict';

const OUTPUT_SCHEME = 'pfir-output';
const VIEW_OUTPUT_REQUEST = 'pfir/viewOutput';
/** Diagnostics link their error code to `pfir-explain:E0010`. */
const EXPLAIN_SCHEME = 'pfir-explain';
const EXPLAIN_REQUEST = 'pfir/explain';

/**
 * The server's settings from the `pfir` section. `allowRunningCommands`
 * (consent to run RUN-line programs other than pfir's own) is sent as
 * `true` only when `trusted` (the workspace is trusted) and the setting is
 * exactly `true`; everything else is the server's safe default.
 * @param {{ get: (key: string) => unknown }} config the `pfir` section
 * @param {boolean} trusted whether the workspace is trusted
 * @returns {{ diagnostics: { onType: boolean }, remarks: boolean, testsOnSave: boolean,
 *   allowRunningCommands: boolean, testTimeout: number }}
 */
function serverSettings(config, trusted) {
  const bool = (/** @type {string} */ key, /** @type {boolean} */ fallback) => {
    const v = config.get(key);
    return typeof v === 'boolean' ? v : fallback;
  };
  const timeout = config.get('testTimeout');
  return {
    diagnostics: { onType: bool('diagnostics.onType', true) },
    remarks: bool('remarks', false),
    testsOnSave: bool('testsOnSave', true),
    allowRunningCommands: trusted === true && config.get('allowRunningCommands') === true,
    testTimeout:
      typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0 && timeout <= 3600 ? timeout : 10,
  };
}

/**
 * The `pfir` binary to run: the setting when it is a non-empty string, else
 * `pfir` from PATH. A leading `~/` is the home directory.
 * @param {unknown} setting
 * @param {string} home
 */
function serverCommand(setting, home) {
  if (typeof setting !== 'string' || setting.trim() === '') return 'pfir';
  const s = setting.trim();
  if (s === '~' || s.startsWith('~/')) return home + s.slice(1);
  return s;
}

/**
 * The parts of a `pfir-output:` URI for a source document.
 * @param {string} sourceUri the source document's URI, as a string
 * @param {string} sourcePath its path (for the title of the virtual document)
 * @param {number | undefined} run
 * @returns {{ scheme: string, path: string, query: string }}
 */
function outputUriParts(sourceUri, sourcePath, run) {
  let query = 'source=' + encodeURIComponent(sourceUri);
  if (run !== undefined) {
    if (!Number.isInteger(run) || run < 0) throw new RangeError(`bad RUN line index ${run}`);
    query += '&run=' + run;
  }
  return { scheme: OUTPUT_SCHEME, path: sourcePath + '.out', query };
}

/**
 * The `pfir/viewOutput` parameters a `pfir-output:` URI's query stands for,
 * or `undefined` when the query is not one.
 * @param {string} query
 * @returns {{ textDocument: { uri: string }, run?: number } | undefined}
 */
function viewOutputParams(query) {
  /** @type {Map<string, string>} */
  const fields = new Map();
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0) return undefined;
    let value;
    try {
      value = decodeURIComponent(part.slice(eq + 1));
    } catch {
      return undefined;
    }
    fields.set(part.slice(0, eq), value);
  }
  const source = fields.get('source');
  if (!source) return undefined;
  /** @type {{ textDocument: { uri: string }, run?: number }} */
  const params = { textDocument: { uri: source } };
  const run = fields.get('run');
  if (run !== undefined) {
    if (!/^[0-9]+$/.test(run)) return undefined;
    params.run = Number(run);
  }
  return params;
}

/**
 * The text of a `pfir/viewOutput` answer; throws on a malformed one.
 * @param {unknown} result
 */
function viewOutputText(result) {
  if (result && typeof result === 'object' && typeof (/** @type {any} */ (result).text) === 'string') {
    return /** @type {any} */ (result).text;
  }
  throw new Error('pfir/viewOutput: the server answered without a `text` string');
}

/**
 * The `pfir/explain` parameters of a `pfir-explain:` URI's path
 * (`E0010`), or `undefined` when it is not an error code.
 * @param {string} uriPath
 * @returns {{ code: string } | undefined}
 */
function explainParams(uriPath) {
  const code = uriPath.replace(/^\//, '');
  return /^E[0-9]{4}$/.test(code) ? { code } : undefined;
}

/**
 * Arguments of the commands that shell out to `pfir` (no server needed).
 * @param {'test' | 'update' | 'output'} what
 * @param {string} file a path, or `-` for standard input
 */
function cliArgs(what, file) {
  switch (what) {
    case 'test':
      return ['test', '-v', file];
    case 'update':
      return ['test', '--update', file];
    case 'output':
      return ['opt', file, '--passes=expand-manual-phase-fence'];
    default:
      throw new Error(`unknown command ${what}`);
  }
}

module.exports = {
  OUTPUT_SCHEME,
  VIEW_OUTPUT_REQUEST,
  EXPLAIN_SCHEME,
  EXPLAIN_REQUEST,
  explainParams,
  serverSettings,
  serverCommand,
  outputUriParts,
  viewOutputParams,
  viewOutputText,
  cliArgs,
};
