// @ts-check
/**
 * The pfir VS Code extension: starts `pfir lsp` over stdio through
 * vscode-languageclient and adds three commands.
 *
 * Highlighting, comment toggling, brackets and indentation come from the
 * grammar and `language-configuration.json` and need no server. The commands
 * "Run tests in this file" and "Update CHECK lines" shell out to `pfir test`
 * and also work without it (the user asks for them: consent, as with lit);
 * "Show pass output" asks the server
 * (`pfir/viewOutput`) and, when no server is running, falls back to
 * `pfir opt - --passes=expand-manual-phase-fence` on the buffer's text.
 */

'use strict';

const vscode = require('vscode');
const { spawn } = require('child_process');
const os = require('os');
const path = require('path');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');
const protocol = require('./protocol');

/** @type {LanguageClient | undefined} */
let client;
/** @type {vscode.OutputChannel} */
let output;
/** Texts of `pfir-output:` documents computed without the server. */
const localOutputs = new Map();
const outputChanged = new vscode.EventEmitter();

function config() {
  return vscode.workspace.getConfiguration('pfir');
}

/** The server's settings; consent to run commands only when trusted. */
function currentSettings() {
  return protocol.serverSettings(config(), vscode.workspace.isTrusted);
}

/** Sends the current settings to the running server. */
function sendSettings() {
  if (!client) return;
  client.sendNotification('workspace/didChangeConfiguration', { settings: { pfir: currentSettings() } });
}

function pfirBinary() {
  return protocol.serverCommand(config().get('serverPath'), os.homedir());
}

async function startClient() {
  const command = pfirBinary();
  /** @type {import('vscode-languageclient/node').ServerOptions} */
  const serverOptions = { command, args: ['lsp'], transport: TransportKind.stdio };
  /** @type {import('vscode-languageclient/node').LanguageClientOptions} */
  const clientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'pfir' },
      { scheme: 'untitled', language: 'pfir' },
    ],
    // Settings are sent by this extension (not `synchronize`), so that
    // consent to run commands goes out only in a trusted workspace.
    initializationOptions: currentSettings(),
    outputChannel: output,
  };
  const c = new LanguageClient('pfir', 'pfir language server', serverOptions, clientOptions);
  try {
    await c.start();
    client = c;
  } catch (err) {
    client = undefined;
    output.appendLine(`could not start \`${command} lsp\`: ${err instanceof Error ? err.message : err}`);
    vscode.window.showWarningMessage(
      `pfir: the language server (\`${command} lsp\`) did not start. Highlighting and the ` +
        'test commands still work; set `pfir.serverPath` to a pfir that has `lsp`.',
    );
    try {
      await c.dispose();
    } catch {
      // already stopped
    }
  }
}

async function stopClient() {
  const c = client;
  client = undefined;
  if (c) await c.stop();
}

/** The active pfir editor's document, saved first when it has a file. */
async function activePfirDocument(needFile) {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'pfir') {
    vscode.window.showErrorMessage('pfir: open a .pfir file first.');
    return undefined;
  }
  const doc = editor.document;
  if (needFile) {
    if (doc.isUntitled || doc.uri.scheme !== 'file') {
      vscode.window.showErrorMessage('pfir: save the file first; `pfir test` runs files on disk.');
      return undefined;
    }
    if (doc.isDirty && !(await doc.save())) return undefined;
  }
  return doc;
}

/**
 * Runs `pfir ARGS`, echoing everything to the output channel.
 * @param {string[]} args
 * @param {string | undefined} cwd
 * @param {string | undefined} stdin
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
function runPfir(args, cwd, stdin) {
  const bin = pfirBinary();
  return new Promise((resolve) => {
    output.appendLine(`$ ${bin} ${args.join(' ')}`);
    let stdout = '';
    let stderr = '';
    const child = spawn(bin, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', (err) => {
      resolve({ code: null, stdout, stderr: stderr + `could not run ${bin}: ${err.message}\n` });
    });
    child.on('close', (code) => {
      if (stdout) output.append(stdout.endsWith('\n') ? stdout : stdout + '\n');
      if (stderr) output.append(stderr.endsWith('\n') ? stderr : stderr + '\n');
      output.appendLine(`[exit status ${code}]`);
      resolve({ code, stdout, stderr });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(stdin ?? '');
  });
}

async function runTests(update) {
  const doc = await activePfirDocument(true);
  if (!doc) return;
  const file = doc.uri.fsPath;
  output.show(true);
  const r = await runPfir(protocol.cliArgs(update ? 'update' : 'test', file), path.dirname(file), undefined);
  const name = path.basename(file);
  if (r.code === 0) {
    vscode.window.showInformationMessage(update ? `pfir: CHECK lines of ${name} updated.` : `pfir: ${name} passed.`);
  } else {
    vscode.window.showErrorMessage(
      (update ? `pfir: could not update ${name}` : `pfir: ${name} failed`) + ' (see the pfir output).',
    );
  }
}

async function showPassOutput() {
  const doc = await activePfirDocument(false);
  if (!doc) return;
  const parts = protocol.outputUriParts(doc.uri.toString(), doc.uri.path || 'untitled.pfir', undefined);
  const uri = vscode.Uri.from(parts);
  if (!client) {
    // No server: run the pass pipeline on the buffer's text.
    const cwd = doc.uri.scheme === 'file' ? path.dirname(doc.uri.fsPath) : undefined;
    const r = await runPfir(protocol.cliArgs('output', '-'), cwd, doc.getText());
    localOutputs.set(uri.toString(), r.code === 0 ? r.stdout : r.stderr || r.stdout);
    outputChanged.fire(uri);
  }
  const shown = await vscode.workspace.openTextDocument(uri);
  await vscode.languages.setTextDocumentLanguage(shown, 'pfir');
  await vscode.window.showTextDocument(shown, { viewColumn: vscode.ViewColumn.Beside, preview: true });
}

/** @type {vscode.TextDocumentContentProvider} */
const outputProvider = {
  onDidChange: outputChanged.event,
  async provideTextDocumentContent(uri) {
    const local = localOutputs.get(uri.toString());
    if (!client && local !== undefined) return local;
    const params = protocol.viewOutputParams(uri.query);
    if (!params) return `// not a pfir-output URI: ${uri.toString()}\n`;
    if (!client) return local ?? '// the pfir language server is not running\n';
    try {
      return protocol.viewOutputText(await client.sendRequest(protocol.VIEW_OUTPUT_REQUEST, params));
    } catch (err) {
      return `// pfir/viewOutput failed: ${err instanceof Error ? err.message : err}\n`;
    }
  },
};

/** `pfir-explain:E0010`: the explanation of an error code, from the server. */
/** @type {vscode.TextDocumentContentProvider} */
const explainProvider = {
  async provideTextDocumentContent(uri) {
    const params = protocol.explainParams(uri.path);
    if (!params) return `not an error code: ${uri.toString()}\n`;
    if (!client) return `the pfir language server is not running; try \`pfir explain ${params.code}\`\n`;
    try {
      const result = await client.sendRequest(protocol.EXPLAIN_REQUEST, params);
      return result && typeof result.text === 'string' ? result.text : '';
    } catch (err) {
      return `pfir/explain failed: ${err instanceof Error ? err.message : err}\n`;
    }
  },
};

/** @param {vscode.ExtensionContext} context */
async function activate(context) {
  output = vscode.window.createOutputChannel('pfir');
  context.subscriptions.push(
    output,
    outputChanged,
    vscode.workspace.registerTextDocumentContentProvider(protocol.OUTPUT_SCHEME, outputProvider),
    vscode.workspace.registerTextDocumentContentProvider(protocol.EXPLAIN_SCHEME, explainProvider),
    vscode.commands.registerCommand('pfir.showPassOutput', showPassOutput),
    vscode.commands.registerCommand('pfir.runTests', () => runTests(false)),
    vscode.commands.registerCommand('pfir.updateChecks', () => runTests(true)),
    vscode.commands.registerCommand('pfir.restartServer', async () => {
      await stopClient();
      await startClient();
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration('pfir.serverPath')) {
        await stopClient();
        await startClient();
      } else if (e.affectsConfiguration('pfir')) {
        sendSettings();
      }
    }),
    // Trusting the workspace lets `pfir.allowRunningCommands` take effect.
    vscode.workspace.onDidGrantWorkspaceTrust(() => sendSettings()),
  );
  await startClient();
}

async function deactivate() {
  await stopClient();
}

module.exports = { activate, deactivate };
