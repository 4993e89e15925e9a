/**
 * One scenario's world: the mock API (in this process), code-server with the packaged extension installed into a fresh
 * profile whose settings point at the mock, and a Chromium page on the workbench. `useSession()` starts it before a
 * `describe` block's tests, saves a screenshot and the logs of any failing test, and stops it all afterwards.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type BrowserContext, type Page } from 'playwright-core';
import { launchBrowser, setDisplayLanguage } from '../rig/browser';
import { type CodeServer, startCodeServer } from '../rig/codeServer';
import { ensureCjkFonts, ensureRig } from '../rig/install';
import { track } from '../rig/lifetime';
import { vsixPath } from '../rig/paths';
import { RunScratch } from '../rig/scratch';
import { DEMO_API_KEY, type MockApi, type MockApiOptions, startMockApi } from '../mock-api/server';
import { artifactsDir, slug, timeouts, Workbench } from './workbench';

export interface SessionOptions {
  /** User settings besides `hostingAccount.baseUrl` (which points at the mock). */
  readonly settings?: Readonly<Record<string, unknown>>;
  readonly mock?: MockApiOptions;
  /** Files to put in the workspace folder before it opens, by relative path. */
  readonly workspaceFiles?: Readonly<Record<string, string>>;
  /** Open the workspace with workspace trust on and untrusted (Restricted Mode). */
  readonly untrusted?: boolean;
  /** Other packaged extensions to install beside ours (the benchmarks' empty extension). */
  readonly otherExtensions?: readonly string[];
  /** Extra environment for code-server and its extension host (a stand-in program first on PATH). */
  readonly env?: Readonly<Record<string, string>>;
  /** The display language, set as the pseudo-locale run sets it (`--locale` and the page's NLS language). */
  readonly locale?: string;
}

export interface Session {
  readonly mock: MockApi;
  readonly apiKey: string;
  readonly server: CodeServer;
  readonly context: BrowserContext;
  readonly page: Page;
  readonly workbench: Workbench;
  readonly scratch: RunScratch;
  readonly workspace: string;
}

export async function startSession(options: SessionOptions = {}): Promise<Session> {
  if (!fs.existsSync(vsixPath)) {
    throw new Error(`${vsixPath} is missing: run \`npm run package\` (npm run test:e2e does)`);
  }
  const rig = await ensureRig();
  if (options.locale !== undefined && /^(?:ja|ko|zh)/.test(options.locale)) await ensureCjkFonts();
  const scratch = new RunScratch();
  const started: { mock?: MockApi; server?: CodeServer; context?: BrowserContext } = {};
  try {
    const mock = (started.mock = await startMockApi({ quiet: true, ...options.mock }));
    track({ name: 'mock API', stop: () => mock.close(), killNow: () => undefined });
    const workspace = scratch.path('workspace');
    fs.mkdirSync(workspace);
    for (const [file, text] of Object.entries(options.workspaceFiles ?? {})) {
      fs.mkdirSync(path.dirname(path.join(workspace, file)), { recursive: true });
      fs.writeFileSync(path.join(workspace, file), text);
    }
    const trust =
      options.untrusted === true
        ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' }
        : {};
    const server = (started.server = await startCodeServer({
      rig,
      scratch,
      installExtensions: [vsixPath, ...(options.otherExtensions ?? [])],
      workspaceTrust: options.untrusted === true,
      env: options.env,
      locale: options.locale,
      settings: { 'hostingAccount.baseUrl': mock.url, ...trust, ...options.settings },
    }));
    const context = (started.context = await launchBrowser(rig, scratch));
    if (options.locale !== undefined) await setDisplayLanguage(context, options.locale);
    context.setDefaultTimeout(timeouts.ui);
    const page = context.pages()[0] ?? (await context.newPage());
    const consoleLog = scratch.path('browser-console.log');
    page.on('console', (message) => fs.appendFileSync(consoleLog, `[${message.type()}] ${message.text()}\n`));
    await page.goto(`${server.url}?folder=${encodeURIComponent(workspace)}`);
    const workbench = new Workbench(page);
    await workbench.ready();
    return { mock, apiKey: DEMO_API_KEY, server, context, page, workbench, scratch, workspace };
  } catch (error) {
    if (started.server !== undefined) {
      scratch.keep(started.server.logFile, path.join(artifactsDir, 'session-start.code-server.log'));
    }
    await started.context?.close().catch(() => undefined);
    await started.server?.stop();
    await started.mock?.close();
    scratch.dispose();
    throw error;
  }
}

export async function stopSession(session: Session): Promise<void> {
  await session.context.close().catch(() => undefined);
  await session.server.stop();
  await session.mock.close();
  session.scratch.dispose();
}

/** What a failing test leaves in `test/e2e/artifacts/`: a screenshot, code-server's log and the browser console. */
export async function saveFailureArtifacts(session: Session, testTitle: string): Promise<void> {
  const name = slug(testTitle);
  fs.mkdirSync(artifactsDir, { recursive: true });
  await session.page
    .screenshot({ path: path.join(artifactsDir, `${name}.png`), timeout: 10_000, animations: 'disabled' })
    .catch(() => undefined);
  session.scratch.keep(session.server.logFile, path.join(artifactsDir, `${name}.code-server.log`));
  session.scratch.keep(
    session.scratch.path('browser-console.log'),
    path.join(artifactsDir, `${name}.browser-console.log`),
  );
}

/**
 * Registers the hooks of a `describe` block and returns a getter for its session. The block's tests are the steps of
 * one scenario, run in order: once one fails, the rest are skipped.
 */
export function useSession(options: SessionOptions | (() => Promise<SessionOptions>) = {}): () => Session {
  let session: Session | undefined;
  before(async function () {
    this.timeout(5 * 60_000);
    session = await startSession(typeof options === 'function' ? await options() : options);
  });
  // The tests of a block are the steps of one scenario: after a failed step the rest would only time out.
  let failedStep: string | undefined;
  beforeEach(function () {
    if (failedStep !== undefined) this.skip();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') failedStep ??= this.currentTest.title;
    if (session !== undefined && this.currentTest?.state === 'failed') {
      await saveFailureArtifacts(session, this.currentTest.fullTitle());
      console.error(`    artifacts of the failure: ${path.relative(process.cwd(), artifactsDir)}`);
    }
  });
  after(async function () {
    this.timeout(60_000);
    if (session !== undefined) await stopSession(session);
    session = undefined;
  });
  return () => {
    if (session === undefined) throw new Error('the e2e session has not started');
    return session;
  };
}
