import assert from 'node:assert/strict';
import fc from 'fast-check';
import { type Order } from '../../src/api/models';
import { hostKey } from '../../src/ssh/hostKey';
import { type SshConfig } from '../../src/folder/sshConfig';
import {
  type Candidate,
  folderCandidates,
  type FolderServer,
  folderServersOf,
  suggestServer,
} from '../../src/folder/suggestServer';
import { serverText } from '../../src/util/serverText';

function server(accountId: string, orderId: string, name: string, ...addresses: string[]): FolderServer {
  return { accountId, orderId, name, addresses, state: 'running' };
}

const WEB = server('default', '101', 'web-01', '203.0.113.5', '2001:db8::5');
const STAGING = server('default', '102', 'staging', '198.51.100.7');
const OTHER = server('k3x9', '7', 'Build box', 'build.example.com');
const SERVERS = [WEB, STAGING, OTHER];

/** `Host web` → 203.0.113.5 and `Host hub` → github.com, as the reader would give them. */
const SSH: SshConfig = {
  blocks: [
    { patterns: ['web'], within: [], hostName: '203.0.113.5' },
    { patterns: ['hub'], within: [], hostName: 'github.com' },
  ],
  skipped: [],
};

const remoteWindow = (authority: string): { remoteName: string; authorities: string[] } => ({
  remoteName: 'ssh-remote',
  authorities: [authority],
});

describe('folder sources: candidates and the one suggestion (unit)', () => {
  it('takes the Remote-SSH host and the ssh remotes where ~/.ssh/config sends them, other remotes as they are', () => {
    assert.deepEqual(folderCandidates(remoteWindow('ssh-remote+web'), [], SSH), [
      { source: 'remoteSsh', host: '203.0.113.5' },
    ]);
    assert.deepEqual(
      folderCandidates(
        { remoteName: undefined, authorities: ['ssh-remote+web'] },
        ['git@web:app.git', 'https://web/app.git', 'ssh://staging.example.com/app', 'ext::sh -c x'],
        SSH,
      ),
      [
        { source: 'gitRemote', host: '203.0.113.5' },
        { source: 'gitRemote', host: 'web' },
        { source: 'gitRemote', host: 'staging.example.com' },
      ],
    );
  });

  it('offers nothing to a folder with no git remote, whatever ~/.ssh/config names', () => {
    // Before, the one server named in the ssh config was offered to every folder with no remote of its own.
    const candidates = folderCandidates({ remoteName: undefined, authorities: [] }, [], SSH);
    assert.deepEqual(candidates, []);
    assert.deepEqual(suggestServer(candidates, SERVERS), { kind: 'none', reason: 'noCandidates' });
  });

  it('never suggests a server labelled github.com or localhost for every remote on those hosts', () => {
    const forge = server('default', '201', 'github.com', '203.0.113.20');
    const local = server('default', '202', 'localhost', '203.0.113.21');
    const loop = server('default', '203', 'loop', '127.0.0.1');
    const servers = [forge, local, loop, ...SERVERS];
    for (const host of ['github.com', 'localhost', '127.0.0.1', '::1', hostKey('::ffff:127.0.0.2') ?? '']) {
      assert.deepEqual(
        suggestServer([{ source: 'gitRemote', host }], servers),
        { kind: 'none', reason: 'noCandidates' },
        host,
      );
    }
    const urls = [
      'git@github.com:team/app.git',
      'https://github.com/team/app.git',
      'ssh://localhost/srv/app',
      'git@hub:x.git',
    ];
    const none = suggestServer(folderCandidates(undefined, urls, SSH), servers);
    assert.deepEqual(none, { kind: 'none', reason: 'noCandidates' }, 'shared hosts, an alias of one included');
    const one = suggestServer(folderCandidates(undefined, [...urls, 'git@web:app.git'], SSH), servers);
    assert.equal(one.kind === 'one' && one.server, WEB, "the folder's own server still is");
  });

  it('suggests the one server the folder names, with the sources that named it', () => {
    const candidates: Candidate[] = [
      { source: 'gitRemote', host: 'example.org' },
      { source: 'gitRemote', host: '203.0.113.5' },
      { source: 'remoteSsh', host: 'web-01' },
    ];
    assert.deepEqual(suggestServer(candidates, SERVERS), {
      kind: 'one',
      server: WEB,
      sources: ['remoteSsh', 'gitRemote'],
    });
  });

  it('suggests nothing when several servers match, in one account or across accounts', () => {
    const twin = server('k3x9', '101', 'web-01-copy', '203.0.113.5');
    assert.deepEqual(suggestServer([{ source: 'gitRemote', host: '203.0.113.5' }], [...SERVERS, twin]), {
      kind: 'none',
      reason: 'several',
    });
    const split: Candidate[] = [
      { source: 'remoteSsh', host: '203.0.113.5' },
      { source: 'gitRemote', host: '198.51.100.7' },
    ];
    assert.deepEqual(suggestServer(split, SERVERS), { kind: 'none', reason: 'several' });
  });

  it('matches exactly: IPv6 in any spelling, names in any case, nothing partial', () => {
    const ipv6 = suggestServer([{ source: 'remoteSsh', host: hostKey('2001:DB8:0::5') ?? '' }], SERVERS);
    assert.equal(ipv6.kind === 'one' && ipv6.server, WEB);
    const named = suggestServer([{ source: 'gitRemote', host: 'build.example.com' }], SERVERS);
    assert.equal(named.kind === 'one' && named.server, OTHER);
    for (const host of ['203.0.113', '203.0.113.50', 'web', 'example.com', 'build', 'staging.example.com']) {
      assert.equal(suggestServer([{ source: 'gitRemote', host }], SERVERS).kind, 'none', host);
    }
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
    // A label that is no host name ("Build box") is never matched by name, nor a candidate that is no host.
    assert.equal(suggestServer([{ source: 'gitRemote', host: 'build box' }], SERVERS).kind, 'none');
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

  it('suggests a server exactly when one server has a matching host that is nobody else’s (property)', () => {
    const hosts = ['192.0.2.1', '192.0.2.2', 'a.example', 'github.com', '127.0.0.1'];
    const serverArb = fc.record({
      accountId: fc.constantFrom('default', 'k1'),
      orderId: fc.constantFrom('1', '2', '3'),
      name: fc.constantFrom('a.example', 'web', 'Build box', 'localhost', 'github.com'),
      addresses: fc.subarray(hosts, { maxLength: 3 }),
    });
    const candidateArb = fc.record({
      source: fc.constantFrom('remoteSsh' as const, 'gitRemote' as const),
      host: fc.constantFrom(...hosts, 'web', 'localhost', 'nothing.example'),
    });
    const shared = new Set(['github.com', '127.0.0.1', 'localhost']);
    fc.assert(
      fc.property(fc.array(serverArb, { maxLength: 6 }), fc.array(candidateArb, { maxLength: 6 }), (list, cands) => {
        const suggestion = suggestServer(cands, list);
        const hit = new Set<string>();
        for (const s of list) {
          const keys = [...s.addresses, s.name].map(hostKey);
          if (cands.some((c) => !shared.has(c.host) && keys.includes(c.host))) hit.add(`${s.accountId}/${s.orderId}`);
        }
        if (suggestion.kind === 'one') {
          assert.deepEqual([...hit], [`${suggestion.server.accountId}/${suggestion.server.orderId}`]);
        } else {
          assert.notEqual(hit.size, 1);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
