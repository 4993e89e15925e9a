import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

export interface FakeBehaviour {
  /** Hosts (as given to `-R`) the fake's known_hosts holds, with the line each is on. */
  readonly known?: Readonly<Record<string, number>>;
  /** `hang`: never exits; `flood`: writes megabytes to stdout; `fail`: exits 1 with a message. */
  readonly mode?: 'normal' | 'hang' | 'flood' | 'fail' | 'noFile';
}

/**
 * A stand-in `ssh-keygen` in a temporary directory, put first on the PATH of the environment it hands out (never on
 * this process's): a node script that records its argv, one JSON line per run, and answers `-R` the way ssh-keygen
 * does. Nothing it is given is ever passed to a shell.
 */
export class FakeSshKeygen {
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
  private readonly callsFile: string;
  private readonly behaviourFile: string;

  /** `base`: where its folder goes (the e2e rig points this process's temp folder at a session's, gone once it ends). */
  constructor(behaviour: FakeBehaviour = {}, base = tmpdir()) {
    this.dir = mkdtempSync(join(base, 'fake-ssh-keygen-'));
    this.callsFile = join(this.dir, 'calls.jsonl');
    this.behaviourFile = join(this.dir, 'behaviour.json');
    this.behave(behaviour);
    const script = join(this.dir, 'ssh-keygen');
    writeFileSync(script, `#!/usr/bin/env node\n${FAKE_SOURCE}`);
    chmodSync(script, 0o755);
    this.env = {
      ...process.env,
      PATH: [this.dir, dirname(process.execPath), process.env.PATH ?? ''].join(delimiter),
      FAKE_SSH_KEYGEN_CALLS: this.callsFile,
      FAKE_SSH_KEYGEN_BEHAVIOUR: this.behaviourFile,
    };
  }

  behave(behaviour: FakeBehaviour): void {
    writeFileSync(
      this.behaviourFile,
      JSON.stringify({ known: behaviour.known ?? {}, mode: behaviour.mode ?? 'normal' }),
    );
  }

  calls(): string[][] {
    let text = '';
    try {
      text = readFileSync(this.callsFile, 'utf8');
    } catch {
      return [];
    }
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as string[]);
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

const FAKE_SOURCE = `
const fs = require('node:fs');
const args = process.argv.slice(2);
fs.appendFileSync(process.env.FAKE_SSH_KEYGEN_CALLS, JSON.stringify(args) + '\\n');
const { known, mode } = JSON.parse(fs.readFileSync(process.env.FAKE_SSH_KEYGEN_BEHAVIOUR, 'utf8'));
if (mode === 'hang') setInterval(() => {}, 1000);
else if (mode === 'flood') {
  const chunk = '# Host x found: line 1\\n'.repeat(4096);
  for (let i = 0; i < 100; i++) process.stdout.write(chunk);
} else if (mode === 'fail') {
  process.stderr.write('ssh-keygen: something went wrong\\n');
  process.exitCode = 1;
} else if (mode === 'noFile') {
  process.stderr.write('Cannot stat /home/u/.ssh/known_hosts: No such file or directory\\n');
  process.exitCode = 255;
} else {
  const file = args.includes('-f') ? args[args.indexOf('-f') + 1] : '/home/u/.ssh/known_hosts';
  const host = args[args.indexOf('-R') + 1];
  if (Object.prototype.hasOwnProperty.call(known, host)) {
    process.stdout.write('# Host ' + host + ' found: line ' + known[host] + '\\n');
    process.stdout.write(file + ' updated.\\nOriginal contents retained as ' + file + '.old\\n');
  } else {
    process.stderr.write('Host ' + host + ' not found in ' + file + '\\n');
  }
}
`;
