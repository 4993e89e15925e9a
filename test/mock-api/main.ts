// CLI behind `npm run mock`: node out/test/mock-api/main.js [port] [--transition-ms N] [--rate-limit N]
// [--page-size N] [--shape standard|bare|alt|jsonapi|paged]. The port may also come from MOCK_API_PORT; 0 picks a
// free one.
import { DEMO_API_KEY, type MockApiOptions, startMockApi } from './server';

const USAGE =
  'Usage: node out/test/mock-api/main.js [port] [--transition-ms N] [--rate-limit N (per minute, 0 = off)] ' +
  '[--page-size N] [--shape standard|bare|alt|jsonapi|paged]';
const SHAPES = ['standard', 'bare', 'alt', 'jsonapi', 'paged', 'ids'] as const;

export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv): MockApiOptions | string {
  const options: MockApiOptions = { host: '127.0.0.1', quiet: false };
  let port = env.MOCK_API_PORT ?? '0';
  const args = argv.flatMap((a) => (a.startsWith('--') && a.includes('=') ? a.split(/=(.*)/s, 2) : [a]));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (!arg.startsWith('--')) {
      port = arg;
      continue;
    }
    const value = args[++i];
    if (value === undefined) return `${arg} needs a value`;
    const n = /^\d+$/.test(value) ? Number(value) : NaN;
    switch (arg) {
      case '--transition-ms':
        if (Number.isNaN(n)) return '--transition-ms must be a whole number of milliseconds';
        options.transitionMs = n;
        break;
      case '--rate-limit':
        if (Number.isNaN(n)) return '--rate-limit must be a whole number of requests per minute';
        options.rateLimit = n === 0 ? false : { limit: n, windowMs: 60_000 };
        break;
      case '--page-size':
        if (Number.isNaN(n) || n === 0) return '--page-size must be a positive whole number';
        options.pageSize = n;
        break;
      case '--shape': {
        const shape = SHAPES.find((s) => s === value);
        if (shape === undefined) return `--shape must be one of ${SHAPES.join(', ')}`;
        options.shape = shape;
        break;
      }
      default:
        return `unknown option ${arg}`;
    }
  }
  if (!/^\d+$/.test(port) || Number(port) > 65_535) return `invalid port ${port}`;
  options.port = Number(port);
  return options;
}

async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  const options = parseArgs(process.argv.slice(2), process.env);
  if (typeof options === 'string') {
    console.error(`${options}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const api = await startMockApi(options);
  console.log(`Mock API listening on ${api.url}`);
  console.log(`Demo API key: ${DEMO_API_KEY}`);
  console.log(`Request log: ${api.url}/__mock/log`);
  console.log(`MOCK_API_READY ${JSON.stringify({ url: api.url, key: DEMO_API_KEY })}`);

  const stop = (signal: string): void => {
    console.log(`Received ${signal}, stopping mock API`);
    void api.close().then(() => {
      console.log('Mock API stopped');
      // Exits on its own once the last socket events are flushed; the timer only guards against a stray handle.
      setTimeout(() => process.exit(0), 500).unref();
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

// Guarded so tests can import parseArgs without starting a server.
if (require.main === module) {
  main().catch((err: unknown) => {
    console.error('Mock API failed to start:', err);
    process.exit(1);
  });
}
