// Opaque, so server text cannot reach a string sink by accident: the UI shows it only through `notify/inert.ts`.
declare const serverTextBrand: unique symbol;

export interface ServerText {
  readonly [serverTextBrand]: true;
}

export function serverText(text: string): ServerText {
  return text as unknown as ServerText;
}

// For logic; never for display.
export function plain(text: ServerText | string): string {
  return text as unknown as string;
}

export function optional(text: string | undefined): ServerText | undefined {
  return text === undefined ? undefined : serverText(text);
}
