/**
 * Server-supplied text shown in VS Code's UI must stay text. Labels of status bar items and quick picks render
 * `$(name)` as icons, and notification messages render `[label](command:…)` as clickable command links.
 */

/** For labels that render `$(icon)`: a zero-width space stops the pattern. */
export function noIcons(text: string): string {
  return text.replace(/\$\(/g, '$\u200b(');
}

/** For notification messages, which turn `[label](target)` into a link: a space stops the pattern. */
export function noLinks(text: string): string {
  return text.replace(/\]\(/g, '] (');
}

/** Server text in Markdown (tooltips): escaped so it cannot inject links or markup, on one line. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~$]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');
}

export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
