// The ACF extension: starts `acf lsp` and hands .acf documents to it. Plain JavaScript, no
// build step: `npm install` (for vscode-languageclient) is all it needs.
'use strict';

const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

/** The command that runs the server: the setting, the workspace's ./acf launcher, or `acf`. */
function serverCommand() {
  const configured = vscode.workspace.getConfiguration('acf').get('command') || [];
  if (configured.length > 0) {
    return { command: configured[0], args: configured.slice(1) };
  }
  for (const folder of vscode.workspace.workspaceFolders || []) {
    const launcher = path.join(folder.uri.fsPath, 'acf');
    if (fs.existsSync(launcher)) {
      return { command: launcher, args: ['lsp'], options: { cwd: folder.uri.fsPath } };
    }
  }
  return { command: 'acf', args: ['lsp'] };
}

/** The settings the server reads: program and lib, with paths made absolute. */
function settings() {
  const config = vscode.workspace.getConfiguration('acf');
  const root = (vscode.workspace.workspaceFolders || [])[0];
  const absolute = (p) => (root && p && !path.isAbsolute(p) ? path.join(root.uri.fsPath, p) : p);
  return {
    program: absolute(config.get('program') || ''),
    lib: (config.get('lib') || []).map(absolute),
  };
}

function activate(context) {
  const run = serverCommand();
  const serverOptions = { run: { ...run, transport: TransportKind.stdio },
                          debug: { ...run, transport: TransportKind.stdio } };
  const clientOptions = {
    documentSelector: [{ scheme: 'file', language: 'acf' }, { scheme: 'untitled', language: 'acf' }],
    initializationOptions: settings(),
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/*.acf') },
  };
  client = new LanguageClient('acf', 'ACF language server', serverOptions, clientOptions);
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('acf') && client) {
      client.sendNotification('workspace/didChangeConfiguration', { settings: { acf: settings() } });
    }
  }));
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
