import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isAlive } from './lifetime';
import { rigLog } from './log';
import { cacheDir } from './paths';
import { versions } from './versions';

/** What a run needs, all absolute paths. */
export interface RigInstall {
  /** Node 24's binary: code-server is started with it explicitly. */
  readonly nodeBinary: string;
  readonly codeServerEntry: string;
  readonly chromium: string;
}

const markerName = '.rig-installed.json';

const nodeDir = path.join(cacheDir, `node-${versions.node.version}`);
const nodePackageDir = path.join(nodeDir, 'node_modules', versions.node.npmPackage);
const codeServerDir = path.join(cacheDir, `code-server-${versions.codeServer.version}`);
const codeServerPackageDir = path.join(codeServerDir, 'node_modules', 'code-server');

/**
 * Installs on first use, into the git-ignored cache: Node 24 and code-server from the npm registry, Chromium from
 * Debian. Fast when everything is there (a marker file per folder records what was installed).
 */
export async function ensureRig(): Promise<RigInstall> {
  const chromium = await ensureChromium();
  await ensureNpmInstall({
    label: `Node ${versions.node.version}`,
    dir: nodeDir,
    spec: `${versions.node.npmPackage}@${versions.node.version}`,
    marker: { node: versions.node },
    ignoreScripts: true,
  });
  const nodeBinary = path.join(nodePackageDir, 'bin', 'node');
  if (!isInstalled(codeServerDir, { node: versions.node, codeServer: versions.codeServer })) {
    await ensureAptPackage(versions.krb5.aptPackage, 'code-server builds its `kerberos` dependency against it');
  }
  await ensureNpmInstall({
    label: `code-server ${versions.codeServer.version}`,
    note: 'native builds: about two minutes',
    dir: codeServerDir,
    spec: `${versions.codeServer.npmPackage}@${versions.codeServer.version}`,
    // The native modules are built for this Node, so a new Node means a rebuild.
    marker: { node: versions.node, codeServer: versions.codeServer },
    ignoreScripts: false,
    nodeForNpm: path.dirname(nodeBinary),
    nodeHeaders: nodePackageDir,
  });
  return { nodeBinary, codeServerEntry: path.join(codeServerPackageDir, 'out', 'node', 'entry.js'), chromium };
}

function isInstalled(dir: string, marker: object): boolean {
  try {
    return fs.readFileSync(path.join(dir, markerName), 'utf8') === JSON.stringify(marker);
  } catch {
    return false;
  }
}

interface NpmInstall {
  label: string;
  /** Said when the install starts. */
  note?: string;
  dir: string;
  spec: string;
  marker: object;
  ignoreScripts: boolean;
  /** A folder with the `node` that npm (and so node-gyp and install scripts) runs on. */
  nodeForNpm?: string;
  /** The Node package folder whose headers node-gyp builds against. */
  nodeHeaders?: string;
}

/** Installs into a staging folder renamed into place at the end, so an interrupted install leaves nothing half-done. */
async function ensureNpmInstall(install: NpmInstall): Promise<void> {
  if (isInstalled(install.dir, install.marker)) return;
  const started = Date.now();
  const where = path.relative(process.cwd(), install.dir) || install.dir;
  rigLog(`installing ${install.label} into ${where}${install.note === undefined ? '' : ` (${install.note})`} …`);
  fs.mkdirSync(cacheDir, { recursive: true });
  removeStaleStaging();
  const staging = fs.mkdtempSync(path.join(cacheDir, `.staging-${process.pid}-`));
  try {
    const prefix = path.join(staging, 'pkg');
    const scratch = path.join(staging, 'scratch');
    for (const dir of [prefix, path.join(scratch, 'tmp'), path.join(scratch, 'home')]) {
      fs.mkdirSync(dir, { recursive: true });
    }
    fs.writeFileSync(path.join(prefix, 'package.json'), '{ "private": true }\n');
    const args = [
      'install',
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--loglevel=warn',
      '--prefix',
      prefix,
    ];
    if (install.ignoreScripts) args.push('--ignore-scripts');
    args.push(install.spec);
    await runCommand('npm', args, { cwd: prefix, env: npmEnv(scratch, install) });
    fs.writeFileSync(path.join(prefix, markerName), JSON.stringify(install.marker));
    fs.rmSync(install.dir, { recursive: true, force: true });
    fs.renameSync(prefix, install.dir);
    rigLog(`installed ${install.label} in ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** A staging folder whose process is gone is what an interrupted install left: delete it. */
function removeStaleStaging(): void {
  for (const name of fs.readdirSync(cacheDir)) {
    const pid = /^\.staging-(\d+)-/.exec(name)?.[1];
    if (pid !== undefined && !isAlive(Number(pid))) {
      fs.rmSync(path.join(cacheDir, name), { recursive: true, force: true });
    }
  }
}

/**
 * npm's environment: our own cache, home and temp folders (nothing lands in the home folder or /tmp), none of the
 * `npm run` variables of the outer project, and for code-server Node 24 first on PATH with its headers for node-gyp.
 */
function npmEnv(scratch: string, install: NpmInstall): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // An outer `npm run` passes its settings down, among them `user-agent` naming its Node (code-server's install
    // script reads the Node version from it), its prefix and its node-gyp: keep only how to reach the registry.
    if (
      /^npm_/i.test(key) &&
      !/^npm_config_(?:.*registry|.*proxy|cafile|ca|cert|key|strict_ssl|userconfig|globalconfig)$/i.test(key)
    ) {
      continue;
    }
    if (key === 'NODE' || key === 'INIT_CWD') continue;
    env[key] = value;
  }
  Object.assign(env, {
    // Keep reading the user's npm settings (registry, CA) even though HOME moves.
    npm_config_userconfig: process.env.npm_config_userconfig ?? path.join(os.homedir(), '.npmrc'),
    npm_config_cache: path.join(scratch, 'npm-cache'),
    npm_config_update_notifier: 'false',
    HOME: path.join(scratch, 'home'),
    TMPDIR: path.join(scratch, 'tmp'),
    XDG_CACHE_HOME: path.join(scratch, 'cache'),
    XDG_CONFIG_HOME: path.join(scratch, 'config'),
    XDG_DATA_HOME: path.join(scratch, 'data'),
    XDG_STATE_HOME: path.join(scratch, 'state'),
  });
  if (install.nodeForNpm !== undefined) env.PATH = `${install.nodeForNpm}${path.delimiter}${env.PATH ?? ''}`;
  // Overrides a user-level `nodedir` meant for the system Node.
  if (install.nodeHeaders !== undefined) env.npm_config_nodedir = install.nodeHeaders;
  return env;
}

async function ensureChromium(): Promise<string> {
  const executable = versions.chromium.executablePath;
  if (fs.existsSync(executable)) return executable;
  await ensureAptPackage(versions.chromium.aptPackage, 'the tests drive VS Code in it');
  if (!fs.existsSync(executable)) {
    throw new Error(`${versions.chromium.aptPackage} is installed but ${executable} is missing`);
  }
  return executable;
}

/** The screenshots of a language written in CJK characters are read by people: they need the glyphs. */
export async function ensureCjkFonts(): Promise<void> {
  await ensureAptPackage(versions.cjkFonts.aptPackage, 'screenshots in Japanese, Chinese or Korean need its glyphs');
}

let aptUpdated = false;

async function ensureAptPackage(name: string, why: string): Promise<void> {
  if (await isAptInstalled(name)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `The real-VS Code tests need Debian's "${name}" (${why}). Install it with: sudo apt-get install -y ${name}`,
    );
  }
  const started = Date.now();
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    rigLog('apt-get update …');
    await runCommand('apt-get', ['update'], { env });
    aptUpdated = true;
  }
  rigLog(`apt-get install -y ${name} (${why}) …`);
  await runCommand('apt-get', ['install', '-y', name], { env });
  rigLog(`installed ${name} in ${Math.round((Date.now() - started) / 1000)} s`);
}

async function isAptInstalled(name: string): Promise<boolean> {
  try {
    const status = await runCommand('dpkg-query', ['-W', '-f=${Status}', name], {});
    return status.includes('install ok installed');
  } catch {
    return false;
  }
}

/** Runs a command quietly; on failure the error carries the end of its output. */
function runCommand(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(output);
      else {
        reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`}):\n${output.slice(-4000)}`));
      }
    });
  });
}
