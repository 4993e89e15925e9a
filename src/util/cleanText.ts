// Bidi controls, zero-width characters, the byte-order mark: nothing a name needs, everything a spoof does.
export function isInvisible(code: number): boolean {
  return (
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) ||
    (code >= 0x200b && code <= 0x200f) ||
    code === 0x2060 ||
    code === 0xfeff ||
    code === 0x180e ||
    code === 0x061c
  );
}

// Cut first, so no work grows with the input.
export function clean(text: string, max: number): string {
  const window = text.length > max * 2 + 16 ? text.slice(0, max * 2 + 16) : text;
  const out: string[] = [];
  let space = false;
  let cut = window.length < text.length;
  for (const char of window) {
    const code = char.codePointAt(0) ?? 0;
    if (isInvisible(code)) continue;
    if (code <= 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0) || code === 0x2028 || code === 0x2029) {
      space = out.length > 0;
      continue;
    }
    if (out.length + (space ? 1 : 0) >= max) {
      cut = true;
      break;
    }
    if (space) out.push(' ');
    space = false;
    out.push(code >= 0xd800 && code <= 0xdfff ? '\ufffd' : char);
  }
  if (cut && max > 0) {
    while (out.length >= max) out.pop();
    out.push('…');
  }
  return out.join('');
}
