/**
 * Text a server sent: a name, a status word, an address, a message. Its type is opaque, so it cannot reach a string
 * sink (a label, a message, a template) by accident: the UI shows it only through `notify/inert.ts`, which makes it
 * inert for the sink at hand, and logic that needs the characters themselves (comparing, sorting, matching what the
 * user typed) asks for them with `plain`, visibly.
 */
declare const serverTextBrand: unique symbol;

export interface ServerText {
  readonly [serverTextBrand]: true;
}

/** Marks a string read from a server (the readers do this, after bounding it). */
export function serverText(text: string): ServerText {
  return text as unknown as ServerText;
}

/** The characters of server text, for logic; never for display. */
export function plain(text: ServerText | string): string {
  return text as unknown as string;
}

/** `serverText` for a field that may be absent. */
export function optional(text: string | undefined): ServerText | undefined {
  return text === undefined ? undefined : serverText(text);
}
