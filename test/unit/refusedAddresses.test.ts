import assert from 'node:assert/strict';
import fc from 'fast-check';
import { normaliseOrder } from '../../src/api/normalise/order';
import { checkHost } from '../../src/util/hostCheck';
import { plain } from '../../src/util/serverText';

const read = (fields: Record<string, unknown>) => {
  const { address, addresses, refusedAddresses } = normaliseOrder({ id: 1, name: 'web', ...fields });
  return { address, addresses, refusedAddresses };
};

describe('addresses the host rule refuses are told, not dropped (unit)', () => {
  it('keeps an option, shell text, a legacy number or the unspecified address with the reason, and offers none of them', () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ ip: '-oProxyCommand=touch /tmp/x' }, '-oProxyCommand=touch /tmp/x', 'option'],
      [{ main_ip: 'a b;rm -rf x' }, 'a b;rm -rf x', 'notHost'],
      [{ fqdn: '-oProxyCommand.example.com' }, '-oProxyCommand.example.com', 'option'],
      [{ ip: '127.0x1' }, '127.0x1', 'numericForm'],
      [{ ipv4: '010.0.0.1' }, '010.0.0.1', 'numericForm'],
      [{ ip: '0x7f000001' }, '0x7f000001', 'numericForm'],
      [{ ip: '0.0.0.0' }, '0.0.0.0', 'unspecified'],
      [{ ipv6: '::' }, '::', 'unspecified'],
      [{ ipv6: '::ffff:127.0.0.1' }, '::ffff:127.0.0.1', 'embeddedIPv4'],
      [{ ip: '64:ff9b::10.0.0.1' }, '64:ff9b::10.0.0.1', 'embeddedIPv4'],
      [{ ip: 'ехаmple.com' }, 'ехаmple.com', 'notAscii'],
      [{ public_net: { ipv4: { ip: '$(reboot)' } } }, '$(reboot)', 'notHost'],
    ];
    for (const [fields, value, problem] of cases) {
      assert.deepEqual(
        read(fields),
        { address: undefined, addresses: undefined, refusedAddresses: [{ value, problem }] },
        JSON.stringify(fields),
      );
    }
  });

  it('offers what can be used beside what was refused', () => {
    assert.deepEqual(read({ ips: '203.0.113.4 -oProxyCommand=x', ip: '0.0.0.0' }), {
      address: '203.0.113.4',
      addresses: ['203.0.113.4'],
      refusedAddresses: [
        { value: '-oProxyCommand=x', problem: 'option' },
        { value: '0.0.0.0', problem: 'unspecified' },
      ],
    });
    // A host name in a field meant for an address is one; a word alone, or a network, is neither offered nor refused.
    assert.deepEqual(read({ ip: 'web-1.example.com', ipv6: '2001:db8::/64', main_ip: 'pending' }), {
      address: 'web-1.example.com',
      addresses: ['web-1.example.com'],
      refusedAddresses: undefined,
    });
    // Words in fields that only hold other objects (`network: "public"`) are not addresses at all.
    assert.deepEqual(read({ network: 'public', data: 'x y' }).refusedAddresses, undefined);
  });

  it('keeps at most eight refused values, each cut to 120 characters', () => {
    const { refusedAddresses } = read({
      ips: Array.from({ length: 20 }, (_, i) => `-o${i}`),
      ip: `-${'x'.repeat(5_000)}`,
    });
    assert.equal(refusedAddresses?.length, 8);
    const { refusedAddresses: long } = read({ ip: `-${'x'.repeat(5_000)}` });
    assert.equal(plain(long?.[0]?.value ?? '').length, 120);
    assert.equal(long?.[0]?.problem, 'option');
  });

  it('uses the one host rule: every address offered passes it, every value refused fails it with the reason given', () => {
    const text = fc.string({ unit: fc.constantFrom(...'0123456789abcdefx.:-/ ;,%[]@'), maxLength: 40 });
    fc.assert(
      fc.property(text, fc.constantFrom('ip', 'ipv4', 'ipv6', 'main_ip', 'ips', 'fqdn', 'address'), (value, key) => {
        const { addresses = [], refusedAddresses = [] } = read({ [key]: value });
        for (const address of addresses) assert.ok(checkHost(address).ok, `${address} offered from ${value}`);
        for (const { value: sent, problem } of refusedAddresses) {
          const refused = plain(sent);
          const check = checkHost(refused);
          assert.ok(!check.ok || /[\s,;]/.test(refused), `${refused} refused from ${value}`);
          if (!check.ok && !/[\s,;]/.test(refused)) assert.equal(problem, check.problem, refused);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
