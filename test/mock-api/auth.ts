/** The token of an `Authorization: Bearer <token>` header; the scheme is case-insensitive as in RFC 7235. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer (\S+)$/i.exec(header ?? '');
  return match?.[1];
}

/** Index of the key the header carries, or null; used where keys must not be echoed. */
export function matchingKeyIndex(header: string | undefined, keys: readonly string[]): number | null {
  const token = bearerToken(header);
  if (token === undefined) return null;
  const index = keys.indexOf(token);
  return index === -1 ? null : index;
}
