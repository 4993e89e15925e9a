/**
 * The one boundary between text a server sent and VS Code's UI. Every sink gets server text only through the function
 * named for it, which cuts it to the sink's length first and then makes it inert there:
 *
 * - everywhere: control characters and line breaks become a space; bidi controls (U+202A–U+202E, U+2066–U+2069,
 *   U+200E/U+200F, U+061C) and zero-width characters (U+200B–U+200D, U+2060, U+FEFF, U+180E) go, so a name cannot
 *   read backwards or hide characters; a lone surrogate becomes U+FFFD;
 * - notifications and modal dialogs render `[label](command:…)` as a link they run: `](` is broken;
 * - labels, descriptions, quick picks, status bar text and terminal names render `$(icon)`: `$(` is broken;
 * - Markdown (tooltips, the assistant's confirmation) is escaped, so no link, image, HTML or icon survives.
 *
 * The inventory of sinks, with the test that covers each, is in ARCHITECTURE.md ("Server text and ids").
 */
import { clean, isInvisible } from '../util/cleanText';
import { plain, type ServerText } from '../util/serverText';

/** What each sink shows at most, in characters (code points) of server text. */
export const SINK_LIMITS = {
  message: 200,
  label: 120,
  markdown: 300,
  terminal: 60,
  tool: 200,
  log: 300,
} as const;

type Text = ServerText | string;

/** Server text in a notification or a modal dialog (message or detail). */
export function forMessage(text: Text, max: number = SINK_LIMITS.message): string {
  return fit(breakLinks(breakIcons(clean(plain(text), max))), max);
}

/** Server text in a tree item's label or description, a quick pick, an input box, or the status bar. */
export function forLabel(text: Text, max: number = SINK_LIMITS.label): string {
  return fit(breakIcons(clean(plain(text), max)), max);
}

/** Server text in Markdown (tooltips, the assistant's confirmation): escaped, on one line. */
export function forMarkdown(text: Text, max: number = SINK_LIMITS.markdown): string {
  return escapeMarkdown(clean(plain(text), max));
}

/** Server text in a terminal's name (its tab renders `$(icon)`). */
export function forTerminalName(text: Text, max: number = SINK_LIMITS.terminal): string {
  return fit(breakIcons(clean(plain(text), max)), max);
}

/** Server text in a task's terminal: no escape sequence or control character survives, so it cannot move or recolour. */
export function forTerminal(text: Text, max: number = SINK_LIMITS.terminal): string {
  return clean(plain(text), max);
}

/** Server text in a language model tool's result: bounded, printable, on one line. */
export function forTool(text: Text, max: number = SINK_LIMITS.tool): string {
  return clean(plain(text), max);
}

/** Server text in a log line: bounded, on one line, so it cannot forge a line of its own. */
export function forLog(text: Text, max: number = SINK_LIMITS.log): string {
  return clean(plain(text), max);
}

/**
 * A whole notification as `notify/` shows it: whatever its parts, no link, icon syntax or invisible character gets
 * through. Line breaks are kept (a modal's detail has paragraphs), and the text is bounded.
 */
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

/** A JSON document of server data: bidi and invisible characters are written as escapes, so they show as such. */
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

/** What breaking links and icons added can make a text longer than its sink takes: cut again, with "…". */
function fit(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** A zero-width space after `$` stops `$(name)` from rendering as an icon, and reads the same. */
function breakIcons(text: string): string {
  return text.includes('$(') ? text.split('$(').join('$\u200b(') : text;
}

/** A space between `]` and `(` stops `[label](target)` from becoming a link. */
function breakLinks(text: string): string {
  return text.includes('](') ? text.split('](').join('] (') : text;
}

function escapeMarkdown(text: string): string {
  let out = '';
  for (const char of text) out += MARKDOWN_SPECIALS.has(char) ? `\\${char}` : char;
  return out;
}

const MARKDOWN_SPECIALS = new Set('\\`*_{}[]()#+-.!|<>~$&:'.split(''));
