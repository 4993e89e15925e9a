import assert from 'node:assert/strict';
import fc from 'fast-check';
import { type Order } from '../../src/api/models';
import {
  type Candidate,
  folderCandidates,
  gitRemoteCandidates,
  remoteSshCandidates,
  sshConfigCandidates,
} from '../../src/folder/candidates';
import { type FolderServer, folderServersOf } from '../../src/folder/servers';
import { hostKey } from '../../src/ssh/hostKey';
import { readSshConfig, type SshConfig } from '../../src/folder/sshConfig';
import { suggestServer } from '../../src/folder/suggestServer';
import { MemoryFiles } from './helpers/memoryFiles';
import { serverText } from '../../src/util/serverText';

const HOME = '/home/dev';
const hex = (text: string): string => Buffer.from(text, 'utf8').toString('hex');

function server(accountId: string, orderId: string, name: string, ...addresses: string[]): FolderServer {
  return { accountId, orderId, name, addresses, state: 'running' };
}

const WEB = server('default', '101', 'web-01', '203.0.113.5', '2001:db8::5');
const STAGING = server('default', '102', 'staging', '198.51.100.7');
const OTHER = server('k3x9', '7', 'Build box', 'build.example.com');
const SERVERS = [WEB, STAGING, OTHER];

async function sshConfig(text: string): Promise<SshConfig> {
  return readSshConfig({ home: HOME, reader: new MemoryFiles({ [`${HOME}/.ssh/config`]: text }) });
}

const remoteWindow = (authority: string): { remoteName: string; authorities: string[] } => ({
  remoteName: 'ssh-remote',
  authorities: [authority],
});

describe('folder sources: candidates and the one suggestion (unit)', () => {
  it('compares hosts in one form: names in lower case, IPv6 canonical, nothing checkHost refuses', () => {
    assert.equal(hostKey('Web-01.Example.COM'), 'web-01.example.com');
    assert.equal(hostKey('2001:0DB8:0:0:0:0:0:5'), '2001:db8::5');
    assert.equal(hostKey('203.0.113.5'), '203.0.113.5');
    for (const bad of ['010.0.0.1', '-oProxyCommand=x', 'a b', 'ехаmple.com', '[::1]', '', 42]) {
      assert.equal(hostKey(bad), undefined, String(bad));
    }
  });

  it('takes the Remote-SSH host of the window, and the host its ssh alias stands for', async () => {
    const config = await sshConfig('Host web\n  HostName 203.0.113.5\n');
    assert.deepEqual(remoteSshCandidates(remoteWindow('ssh-remote+web'), config), [
      { source: 'remoteSsh', host: 'web' },
      { source: 'remoteSsh', host: '203.0.113.5', alias: 'web' },
    ]);
    const json = hex(JSON.stringify({ hostName: 'root@2001:DB8::5' }));
    assert.deepEqual(remoteSshCandidates(remoteWindow(`ssh-remote+${json}`)), [
      { source: 'remoteSsh', host: '2001:db8::5' },
    ]);
    assert.deepEqual(remoteSshCandidates({ remoteName: undefined, authorities: ['ssh-remote+web'] }), []);
  });

  it('takes the hosts of git remotes, through the ssh config for ssh remotes only', async () => {
    const config = await sshConfig('Host deploy-box\n  HostName 198.51.100.7\nHost github.com\n  HostName 192.0.2.1\n');
    const candidates = gitRemoteCandidates(
      {
        remotes: [
          { name: 'origin', url: 'https://github.com/team/app.git' },
          { name: 'deploy', url: 'git@deploy-box:app.git' },
          { url: 'ext::sh -c touch% /tmp/pwned' },
          { name: 'x', url: '--upload-pack=touch /tmp/pwned' },
        ],
        limited: false,
      },
      config,
    );
    assert.deepEqual(candidates, [
      { source: 'gitRemote', host: 'github.com', remote: 'origin' },
      { source: 'gitRemote', host: 'deploy-box', remote: 'deploy' },
      { source: 'gitRemote', host: '198.51.100.7', alias: 'deploy-box', remote: 'deploy' },
    ]);
  });

  it('suggests the one server the folder names, with the sources that named it', () => {
    const candidates: Candidate[] = [
      { source: 'gitRemote', host: 'github.com', remote: 'origin' },
      { source: 'gitRemote', host: '203.0.113.5', remote: 'deploy' },
      { source: 'remoteSsh', host: 'web-01' },
    ];
    const suggestion = suggestServer(candidates, SERVERS);
    assert.equal(suggestion.kind, 'one');
    if (suggestion.kind !== 'one') return;
    assert.equal(suggestion.server, WEB);
    assert.deepEqual(suggestion.sources, ['remoteSsh', 'gitRemote']);
    assert.deepEqual(
      suggestion.matches.map((m) => [m.candidate.host, m.by]),
      [
        ['203.0.113.5', 'address'],
        ['web-01', 'name'],
      ],
    );
  });

  it('suggests nothing when several servers match, in one account or across accounts', () => {
    const twin = server('k3x9', '101', 'web-01-copy', '203.0.113.5');
    assert.deepEqual(suggestServer([{ source: 'gitRemote', host: '203.0.113.5' }], [...SERVERS, twin]), {
      kind: 'none',
      reason: 'several',
      servers: 2,
    });
    const split: Candidate[] = [
      { source: 'remoteSsh', host: '203.0.113.5' },
      { source: 'gitRemote', host: '198.51.100.7' },
    ];
    assert.deepEqual(suggestServer(split, SERVERS), { kind: 'none', reason: 'several', servers: 2 });
  });

  it('hears the ssh config only when the folder names no server, and never over an ambiguity', () => {
    const machine: Candidate[] = [
      { source: 'sshConfig', host: 'staging' },
      { source: 'sshConfig', host: '198.51.100.7', alias: 'staging' },
    ];
    const fromConfig = suggestServer([{ source: 'gitRemote', host: 'github.com' }, ...machine], SERVERS);
    assert.equal(fromConfig.kind === 'one' && fromConfig.server, STAGING);
    assert.deepEqual(fromConfig.kind === 'one' && fromConfig.sources, ['sshConfig']);
    const folderWins = suggestServer([{ source: 'gitRemote', host: '203.0.113.5' }, ...machine], SERVERS);
    assert.equal(folderWins.kind === 'one' && folderWins.server, WEB);
    const ambiguous = suggestServer(
      [{ source: 'gitRemote', host: '203.0.113.5' }, { source: 'gitRemote', host: 'staging' }, ...machine],
      SERVERS,
    );
    assert.deepEqual(ambiguous, { kind: 'none', reason: 'several', servers: 2 });
    assert.deepEqual(suggestServer([{ source: 'sshConfig', host: 'web-01' }, ...machine], SERVERS), {
      kind: 'none',
      reason: 'several',
      servers: 2,
    });
  });

  it('matches exactly: IPv6 in any spelling, names in any case, nothing partial', () => {
    const ipv6 = suggestServer([{ source: 'remoteSsh', host: hostKey('2001:DB8:0::5') ?? '' }], SERVERS);
    assert.equal(ipv6.kind === 'one' && ipv6.server, WEB);
    const named = suggestServer([{ source: 'gitRemote', host: 'build.example.com' }], SERVERS);
    assert.equal(named.kind === 'one' && named.server, OTHER);
    for (const host of ['203.0.113', '203.0.113.50', 'web', 'example.com', 'build', 'staging.example.com']) {
      assert.deepEqual(suggestServer([{ source: 'gitRemote', host }], SERVERS), { kind: 'none', reason: 'noMatch' });
    }
    // However the server spells its address.
    const spelled = [server('k1', '9', 'x', '2001:0DB8:0:0::5'), server('k1', '10', 'y', 'Mixed.Example.COM')];
    const dotted = server('k1', '11', 'z', '2001:db8::192.0.2.1');
    for (const [host, expected] of [
      ['2001:db8::5', spelled[0]],
      ['mixed.example.com', spelled[1]],
      [hostKey('2001:DB8::c000:201') ?? '', dotted],
    ] as const) {
      const found = suggestServer([{ source: 'gitRemote', host }], [...spelled, dotted]);
      assert.equal(found.kind === 'one' && found.server, expected, host);
    }
    assert.deepEqual(suggestServer([], SERVERS), { kind: 'none', reason: 'noCandidates' });
    // A label that is no host name ("Build box") is never matched by name.
    assert.deepEqual(suggestServer([{ source: 'gitRemote', host: 'build box' }], SERVERS), {
      kind: 'none',
      reason: 'noMatch',
    });
  });

  it('reads servers from orders of every account, ids exact', () => {
    const orders: Order[] = [
      { id: ' 7', label: serverText('web'), state: 'running', address: '192.0.2.1', raw: {} },
      { id: '8', label: serverText('db'), state: 'stopped', addresses: ['192.0.2.2', '192.0.2.3'], raw: {} },
      { id: '9', label: serverText('none'), state: 'unknown', raw: {} },
    ];
    assert.deepEqual(folderServersOf('a1', orders), [
      { accountId: 'a1', orderId: ' 7', name: 'web', addresses: ['192.0.2.1'], state: 'running' },
      { accountId: 'a1', orderId: '8', name: 'db', addresses: ['192.0.2.2', '192.0.2.3'], state: 'stopped' },
      { accountId: 'a1', orderId: '9', name: 'none', addresses: [], state: 'unknown' },
    ]);
  });

  it('suggests a server exactly when one server has a matching host (property)', () => {
    const hosts = ['192.0.2.1', '192.0.2.2', '192.0.2.3', 'a.example', 'b.example'];
    const serverArb = fc.record({
      accountId: fc.constantFrom('default', 'k1'),
      orderId: fc.constantFrom('1', '2', '3'),
      name: fc.constantFrom('a.example', 'web', 'Build box'),
      addresses: fc.subarray(hosts, { maxLength: 3 }),
    });
    const candidateArb = fc.record({
      source: fc.constantFrom('remoteSsh' as const, 'gitRemote' as const, 'sshConfig' as const),
      host: fc.constantFrom(...hosts, 'web', 'nothing.example'),
    });
    fc.assert(
      fc.property(fc.array(serverArb, { maxLength: 6 }), fc.array(candidateArb, { maxLength: 6 }), (list, cands) => {
        const suggestion = suggestServer(cands, list);
        const named = (tier: readonly string[]): Set<string> => {
          const hit = new Set<string>();
          for (const s of list) {
            const keys = [...s.addresses, s.name].map(hostKey);
            if (cands.some((c) => tier.includes(c.source) && keys.includes(c.host))) {
              hit.add(`${s.accountId}/${s.orderId}`);
            }
          }
          return hit;
        };
        const folder = named(['remoteSsh', 'gitRemote']);
        const decisive = folder.size > 0 ? folder : named(['sshConfig']);
        if (suggestion.kind === 'one') {
          assert.deepEqual([...decisive], [`${suggestion.server.accountId}/${suggestion.server.orderId}`]);
        } else {
          assert.notEqual(decisive.size, 1);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('gathers every source of a folder in one call, bounded', async () => {
    const files = new MemoryFiles({
      [`${HOME}/.ssh/config`]: 'Host deploy\n  HostName 198.51.100.7\nHost build\n  HostName build.example.com\n',
      '/w/app/.git/config': '[remote "prod"]\n\turl = root@deploy:/srv/app.git\n',
    });
    const found = await folderCandidates({
      folder: '/w/app',
      home: HOME,
      reader: files,
      window: { remoteName: undefined, authorities: [] },
    });
    assert.deepEqual(found.limited, []);
    assert.deepEqual(found.candidates, [
      { source: 'gitRemote', host: 'deploy', remote: 'prod' },
      { source: 'gitRemote', host: '198.51.100.7', alias: 'deploy', remote: 'prod' },
      { source: 'sshConfig', host: 'deploy' },
      { source: 'sshConfig', host: '198.51.100.7', alias: 'deploy' },
      { source: 'sshConfig', host: 'build' },
      { source: 'sshConfig', host: 'build.example.com', alias: 'build' },
    ]);
    const suggestion = suggestServer(found.candidates, SERVERS);
    assert.equal(suggestion.kind === 'one' && suggestion.server, STAGING);
    assert.deepEqual(suggestion.kind === 'one' && suggestion.sources, ['gitRemote']);
    assert.deepEqual(sshConfigCandidates(await sshConfig('Host *\n  HostName 192.0.2.9\n')), []);
  });
});
