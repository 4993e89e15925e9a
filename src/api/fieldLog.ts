import { type FieldTrace } from './normalise/read';

// A hostile body cannot grow the log line.
const MAX_USES = 24;

// Once per endpoint, so a user can report what their server sends: `orders: id ← data[].id, name ← …`.
export class FieldLog {
  private readonly logged = new Set<string>();

  constructor(private readonly write: (line: string) => void) {}

  trace(endpoint: string): { trace: FieldTrace; done: () => void } | undefined {
    if (this.logged.has(endpoint)) return undefined;
    const uses: string[] = [];
    return {
      trace: { use: (role, path) => void (uses.length < MAX_USES && uses.push(`${role} ← ${path.slice(0, 80)}`)) },
      done: () => {
        this.logged.add(endpoint);
        this.write(`${endpoint}: ${uses.length ? uses.join(', ') : 'no known field found'}`);
      },
    };
  }
}
