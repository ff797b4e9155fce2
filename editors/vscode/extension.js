// The rulelang extension: .cardrules files are highlighted by syntaxes/cardrules.tmLanguage.json
// and served by `rulelang lsp` (diagnostics, hover, completion, definition, references, outline,
// rename), started over stdio through vscode-languageclient.  Install the dependency with
// `npm install` in this folder; the command is the setting `rulelang.server.command`.
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const settings = vscode.workspace.getConfiguration("rulelang");
  const [command, ...args] = settings.get("server.command", ["rulelang", "lsp"]);
  const serverOptions = { command, args };
  const clientOptions = {
    documentSelector: [{ scheme: "file", language: "cardrules" }],
  };
  client = new LanguageClient("rulelang", "rulelang", serverOptions, clientOptions);
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
