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
