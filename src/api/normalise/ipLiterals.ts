/** IP address literals as servers send them, read without backtracking: this runs for every address of every order. */

/**
 * A dotted quad, read by hand: this runs for every address of every order. Gives its first two parts as
 * `a * 256 + b` (what `isPrivateV4` needs), or -1 when the text is not one.
 */
export function ipv4(text: string): number {
  let parts = 0;
  let digits = 0;
  let value = 0;
  let head = 0;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 46;
    if (code >= 48 && code <= 57) {
      value = value * 10 + code - 48;
      if (++digits > 3) return -1;
    } else if (code === 46 && digits > 0 && value <= 255) {
      if (parts < 2) head = head * 256 + value;
      parts++;
      digits = 0;
      value = 0;
    } else {
      return -1;
    }
  }
  return parts === 4 ? head : -1;
}

export function ipv6(text: string): boolean {
  return text.length <= 45 && text.includes(':') && /^[\da-f:.]+$/i.test(text);
}

export function isPrivateV6(text: string): boolean {
  return /^(?:f[cd]|fe80|::1$)/i.test(text);
}

/** From an IPv4's first two parts, `a * 256 + b`. */
export function isPrivateV4(head: number): boolean {
  const a = head >> 8;
  const b = head & 255;
  return (
    a === 10 ||
    a === 127 ||
    (a === 169 && b === 254) ||
    (a === 192 && b === 168) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 100 && b >= 64 && b <= 127)
  );
}
