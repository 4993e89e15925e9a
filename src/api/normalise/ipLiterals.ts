/** Which IP addresses are private. Which texts are addresses at all is the host rule's (util/hostCheck.ts). */

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
