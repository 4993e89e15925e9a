#!/bin/sh
# Stands in for a desktop VS Code executable (`vscodeExecutablePath` of @vscode/test-electron's runTests): runs the
# extension tests in code-server's real extension host instead. Needs `npm run compile-tests` first.
exec node "$(dirname "$0")/../../out/test/rig/launcher.js" "$@"
