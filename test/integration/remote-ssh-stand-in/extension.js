// A stand-in for the Remote - SSH extension in the extension-host tests: it registers the command Remote - SSH
// provides and records the arguments of every call instead of opening a window. The tests read and clear the record
// through `remoteSshStandIn.calls`.
const vscode = require('vscode');

function activate(context) {
  let calls = [];
  context.subscriptions.push(
    vscode.commands.registerCommand('opensshremotes.openEmptyWindow', (...args) => {
      calls.push(JSON.parse(JSON.stringify(args)));
    }),
    vscode.commands.registerCommand('remoteSshStandIn.calls', (clear) => {
      const recorded = calls;
      if (clear === true) calls = [];
      return recorded;
    }),
  );
}

module.exports = { activate };
