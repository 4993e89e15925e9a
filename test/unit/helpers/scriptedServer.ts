import * as http from 'node:http';
import { type AddressInfo } from 'node:net';

export interface ScriptedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

export interface ScriptedAnswer {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  /** Never answer (the socket stays open until the client gives up or the server closes). */
  readonly hang?: boolean;
}

/**
 * A loopback HTTP server whose every answer a test writes, for servers the mock API does not play: hostile headers,
 * poisonous bodies, hung reads. Records every request it receives.
 */
export class ScriptedServer {
  readonly requests: ScriptedRequest[] = [];
  private readonly server: http.Server;
  private readonly hung = new Set<http.ServerResponse>();

  private constructor(private answer: (request: ScriptedRequest) => ScriptedAnswer) {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        };
        this.requests.push(request);
        const {
          status = 200,
          headers = { 'content-type': 'application/json' },
          body = '',
          hang,
        } = this.answer(request);
        if (hang) {
          this.hung.add(res);
          return;
        }
        res.writeHead(status, headers);
        res.end(body);
      });
    });
  }

  static async start(answer: (request: ScriptedRequest) => ScriptedAnswer): Promise<ScriptedServer> {
    const scripted = new ScriptedServer(answer);
    await new Promise<void>((resolve) => scripted.server.listen(0, '127.0.0.1', resolve));
    return scripted;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Replaces the script for the requests still to come. */
  script(answer: (request: ScriptedRequest) => ScriptedAnswer): void {
    this.answer = answer;
  }

  requestsTo(pathStart: string): ScriptedRequest[] {
    return this.requests.filter((r) => r.url.startsWith(pathStart));
  }

  async close(): Promise<void> {
    for (const res of this.hung) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export const json = (value: unknown, status = 200, headers: Record<string, string> = {}): ScriptedAnswer => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(value),
});
