import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  forDocument,
  forLabel,
  forLog,
  forMarkdown,
  forMessage,
  forTerminal,
  forTerminalName,
  forTool,
  guardMessage,
  SINK_LIMITS,
} from '../../src/notify/inert';
import { HOSTILE_TEXTS, INVISIBLE, LINE_BREAK } from '../fixtures/hostileText';

const length = (text: string): number => [...text].length;
/** Text in any script, with the characters a hostile server reaches for mixed in. */
const serverText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.string({
    unit: fc.constantFrom(
      '[',
      ']',
      '(',
      ')',
      '$',
      '\n',
      '\r',
      '\u202e',
      '\u2066',
      '\u200b',
      '\ufeff',
      'a',
      ' ',
      '\ud800',
      '<',
      ':',
    ),
    maxLength: 300,
  }),
  fc.constantFrom(...HOSTILE_TEXTS.map((h) => h.text)),
);

/** Markdown escaped: with every `\x` pair taken out, none of the characters Markdown acts on is left. */
function unescapedMarkdown(text: string): string {
  return text.replace(/\\[\s\S]/g, '').replace(/[^\\`*_{}[\]()#+\-.!|<>~$&:]/g, '');
}

describe('the boundary for server text (unit)', () => {
  it('leaves no link, icon, invisible character or line break in a notification, and bounds it', () => {
    fc.assert(
      fc.property(serverText, (text) => {
        const out = forMessage(text);
        assert.ok(!out.includes(']('), out);
        assert.ok(!out.includes('$('), out);
        assert.doesNotMatch(out, INVISIBLE);
        assert.doesNotMatch(out, LINE_BREAK);
        assert.ok(length(out) <= SINK_LIMITS.message, `${length(out)}`);
      }),
    );
  });

  it('leaves no icon syntax, invisible character or line break in a label, a terminal name, a tool answer or a log line', () => {
    fc.assert(
      fc.property(serverText, (text) => {
        for (const [out, max] of [
          [forLabel(text), SINK_LIMITS.label],
          [forTerminalName(text), SINK_LIMITS.terminal],
          [forTool(text), SINK_LIMITS.tool],
          [forLog(text), SINK_LIMITS.log],
        ] as const) {
          assert.doesNotMatch(out, INVISIBLE);
          assert.doesNotMatch(out, LINE_BREAK);
          assert.ok(length(out) <= max);
        }
        assert.ok(!forLabel(text).includes('$('));
        assert.ok(!forTerminalName(text).includes('$('));
      }),
    );
  });

  it("leaves no escape sequence or control character in a task's terminal output, bounded", () => {
    const control = (char: string): boolean => {
      const code = char.codePointAt(0) ?? 0;
      return code < 0x20 || (code >= 0x7f && code < 0xa0);
    };
    fc.assert(
      fc.property(
        fc.oneof(
          serverText,
          fc.string({ unit: fc.constantFrom('\u001b', '[', '3', '1', 'm', ']', '8', ';', '\u0007', '\u009b', 'a') }),
        ),
        (text) => {
          const out = forTerminal(text);
          assert.ok(![...out].some(control), JSON.stringify(out));
          assert.doesNotMatch(out, INVISIBLE);
          assert.ok(length(out) <= SINK_LIMITS.terminal);
        },
      ),
    );
    assert.equal(
      forTerminal('web-01\u001b[2J\u001b]8;;https://evil.example\u0007x'),
      'web-01 [2J ]8;;https://evil.example x',
    );
  });

  it('escapes everything Markdown acts on, on one line', () => {
    fc.assert(
      fc.property(serverText, (text) => {
        const out = forMarkdown(text);
        assert.equal(unescapedMarkdown(out), '', out);
        assert.doesNotMatch(out, LINE_BREAK);
        assert.doesNotMatch(out, INVISIBLE);
      }),
    );
  });

  it('keeps the paragraphs of a whole message, and nothing it quotes can become a link or an icon', () => {
    fc.assert(
      fc.property(serverText, serverText, (a, b) => {
        const out = guardMessage(`Stop ${a}?\n\n${b}`);
        assert.ok(!out.includes(']('));
        assert.ok(!out.includes('$('));
        assert.doesNotMatch(out, INVISIBLE);
        assert.ok(out.startsWith('Stop '));
      }),
    );
    assert.equal(guardMessage('one\n\ntwo'), 'one\n\ntwo');
  });

  it('writes invisible characters of a JSON document as escapes, the same data', () => {
    fc.assert(
      fc.property(fc.jsonValue(), serverText, (value, text) => {
        const json = JSON.stringify({ value, text }, null, 2);
        const out = forDocument(json);
        assert.doesNotMatch(out, INVISIBLE);
        assert.deepEqual(JSON.parse(out), JSON.parse(json));
      }),
    );
  });

  it('reads the same as it was sent where nothing needed changing', () => {
    assert.equal(forLabel('web-01.example.com'), 'web-01.example.com');
    assert.equal(forMessage('staging (203.0.113.5)'), 'staging (203.0.113.5)');
    assert.equal(forLabel('  web   01 '), 'web 01');
    assert.equal(forLabel('x'.repeat(200), 10), `${'x'.repeat(9)}…`);
  });

  for (const { name, text } of HOSTILE_TEXTS) {
    it(`makes "${name}" inert in every sink`, () => {
      // Only notifications render links; every one of these renders icons.
      assert.ok(!forMessage(text).includes(']('));
      for (const out of [forMessage(text), forLabel(text), forTerminalName(text)]) {
        assert.ok(!out.includes('$('));
        assert.doesNotMatch(out, INVISIBLE);
        assert.doesNotMatch(out, LINE_BREAK);
      }
      assert.equal(unescapedMarkdown(forMarkdown(text)), '');
    });
  }
});
