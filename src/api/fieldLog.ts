import { type FieldTrace } from './normalise/read';

/** Longer than any honest field map: a hostile body cannot grow the log line. */
const MAX_USES = 24;

/**
 * Which field of a server's answer was read as what, logged once per endpoint and client, so a user can report what
 * their server sends: `orders: id ← data[].id, name ← data[].attributes.hostname, state ← …`.
 */
export class FieldLog {
  private readonly logged = new Set<string>();

  constructor(private readonly write: (line: string) => void) {}

  /** A trace for one read of `endpoint`, or undefined once that endpoint has been described. */
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
