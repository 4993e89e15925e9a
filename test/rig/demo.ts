/**
 * `npm run demo`: the extension in a real VS Code (code-server) against the mock API, for a machine without a real
 * account. It prints the address to open and the demo key, and runs until Ctrl-C, then stops everything it started.
 * DEMO_PORT (default 8080) sets the port; it binds 127.0.0.1 only.
 */
import * as fs from 'node:fs';
import { startCodeServer, tail } from './codeServer';
import { ensureRig } from './install';
import { guardRun, isStopping, stopAll, track } from './lifetime';
import { vsixPath } from './paths';
import { RunScratch } from './scratch';
import { DEMO_API_KEY, startMockApi } from '../mock-api/server';

async function main(): Promise<void> {
  const port = Number(process.env.DEMO_PORT ?? 8080);
  if (!Number.isInteger(port) || port <= 0 || port > 65_535) {
    throw new Error(`DEMO_PORT must be a port number, got ${process.env.DEMO_PORT}`);
  }
  if (!fs.existsSync(vsixPath)) throw new Error(`${vsixPath} is missing: run \`npm run package\` (npm run demo does)`);
  guardRun({ what: 'the demo', exitOnUncaught: true, signalExitCode: 0 });

  const rig = await ensureRig();
  const scratch = new RunScratch();
  const mock = await startMockApi({ host: '127.0.0.1', quiet: true });
  track({ name: 'mock API', stop: () => mock.close(), killNow: () => undefined });
  // The seed has one order mid-start forever (tests rely on it); in the demo it finishes starting after a while.
  setTimeout(() => {
    if (mock.state.getOrder(1006)?.status === 'starting') mock.state.setOrderStatus(1006, 'running');
  }, 20_000).unref();
  const workspace = scratch.path('workspace');
  fs.mkdirSync(workspace);
  const server = await startCodeServer({
    rig,
    scratch,
    port,
    installExtensions: [vsixPath],
    settings: { 'hostingAccount.baseUrl': mock.url },
    folder: workspace,
  });
  console.log(
    [
      '',
      'Hosting Account demo: VS Code in the browser, the extension installed, talking to the mock API.',
      '',
      `  Open         ${server.url}`,
      `  API key      ${DEMO_API_KEY}   (Hosting: Set API Key, from the Hosting view or F1)`,
      `  Mock API     ${mock.url}   (requests it saw: ${mock.url}/__mock/log)`,
      '',
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  const code = await server.exited;
  if (isStopping()) return;
  console.error(`code-server stopped on its own (exit ${code}); its log ended with:\n${tail(server.logFile, 20)}`);
  throw new Error('code-server exited');
}

main().catch(async (error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  await stopAll();
  process.exit(1);
});
