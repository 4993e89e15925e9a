// The one boundary (glossary: "Inert"; the inventory of sinks is in ARCHITECTURE.md). Cut first, then made inert:
// notifications run `[label](command:…)` links, labels and terminal names render `$(icon)`, Markdown renders all.
import { clean, isInvisible } from '../util/cleanText';
import { plain, type ServerText } from '../util/serverText';

/** Code points of server text. */
export const SINK_LIMITS = {
  message: 200,
  label: 120,
  markdown: 300,
  terminal: 60,
  tool: 200,
  log: 300,
} as const;

type Text = ServerText | string;

export function forMessage(text: Text, max: number = SINK_LIMITS.message): string {
  return fit(breakLinks(breakIcons(clean(plain(text), max))), max);
}

export function forLabel(text: Text, max: number = SINK_LIMITS.label): string {
  return fit(breakIcons(clean(plain(text), max)), max);
}

export function forMarkdown(text: Text, max: number = SINK_LIMITS.markdown): string {
  return escapeMarkdown(clean(plain(text), max));
}

export function forTerminalName(text: Text, max: number = SINK_LIMITS.terminal): string {
  return fit(breakIcons(clean(plain(text), max)), max);
}

/** A task's terminal: no escape sequence survives to move or recolour it. */
export function forTerminal(text: Text, max: number = SINK_LIMITS.terminal): string {
  return clean(plain(text), max);
}

export function forTool(text: Text, max: number = SINK_LIMITS.tool): string {
  return clean(plain(text), max);
}

/** On one line, so it cannot forge a log line of its own. */
export function forLog(text: Text, max: number = SINK_LIMITS.log): string {
  return clean(plain(text), max);
}

/** A whole notification, whatever its parts; line breaks are kept (a modal's detail has paragraphs). */
export function guardMessage(text: string, max = 2_000): string {
  const cut = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  let out = '';
  for (const char of cut) {
    const code = char.codePointAt(0) ?? 0;
    if (isInvisible(code)) continue;
    out += code >= 0xd800 && code <= 0xdfff ? '\ufffd' : char;
  }
  return breakLinks(breakIcons(out));
}

/** Bidi and invisible characters are written as escapes, so they show as such. */
export function forDocument(json: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < json.length; i++) {
    const code = json.charCodeAt(i);
    if (!isInvisible(code)) continue;
    out += `${json.slice(from, i)}\\u${code.toString(16).padStart(4, '0')}`;
    from = i + 1;
  }
  return from === 0 ? json : out + json.slice(from);
}

/** Breaking links and icons adds characters: cut again. */
function fit(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

function breakIcons(text: string): string {
  return text.includes('$(') ? text.split('$(').join('$\u200b(') : text;
}

function breakLinks(text: string): string {
  return text.includes('](') ? text.split('](').join('] (') : text;
}

function escapeMarkdown(text: string): string {
  let out = '';
  for (const char of text) out += MARKDOWN_SPECIALS.has(char) ? `\\${char}` : char;
  return out;
}

const MARKDOWN_SPECIALS = new Set('\\`*_{}[]()#+-.!|<>~$&:'.split(''));
