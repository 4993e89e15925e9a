import { execFile } from 'node:child_process';

export interface RunOptions {
  readonly timeoutMs: number;
  // Per stream.
  readonly maxOutputBytes: number;
  readonly env?: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
}

export const RUN_DEFAULTS: RunOptions = { timeoutMs: 10_000, maxOutputBytes: 64 * 1024 };

export interface RunResult {
  readonly ok: true;
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly outputCut: boolean;
  readonly cancelled: boolean;
}

export type RunRefusal = { readonly ok: false; readonly problem: 'notFound' | 'notAllowed' | 'failedToStart' };

export type RunOutcome = RunResult | RunRefusal;

export function runArgv(
  file: string,
  args: readonly string[],
  options: RunOptions = RUN_DEFAULTS,
): Promise<RunOutcome> {
  return new Promise((resolve) => {
    if (options.signal?.aborted) {
      resolve({ ok: true, exitCode: null, stdout: '', stderr: '', timedOut: false, outputCut: false, cancelled: true });
      return;
    }
    execFile(
      file,
      [...args],
      {
        shell: false,
        timeout: options.timeoutMs,
        maxBuffer: options.maxOutputBytes,
        killSignal: 'SIGKILL',
        windowsHide: true,
        encoding: 'utf8',
        env: options.env,
        signal: options.signal,
      },
      (error, stdout, stderr) => {
        const failure = error as (NodeJS.ErrnoException & { killed?: boolean; code?: unknown }) | null;
        if (failure && typeof failure.code === 'string' && failure.syscall?.startsWith('spawn')) {
          const problem =
            failure.code === 'ENOENT' ? 'notFound' : failure.code === 'EACCES' ? 'notAllowed' : 'failedToStart';
          resolve({ ok: false, problem });
          return;
        }
        const outputCut = failure?.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER';
        const cancelled = options.signal?.aborted === true;
        resolve({
          ok: true,
          exitCode: failure ? (typeof failure.code === 'number' ? failure.code : null) : 0,
          stdout: String(stdout),
          stderr: String(stderr),
          timedOut: failure?.killed === true && !outputCut && !cancelled,
          outputCut,
          cancelled,
        });
      },
    );
  });
}
