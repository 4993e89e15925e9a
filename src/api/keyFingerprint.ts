import { createHash } from 'node:crypto';

/**
 * A stable stand-in for the key wherever a key must be told apart from another (the limiter per key, shared reads,
 * noticing a new key) without holding the key itself in a map or a field.
 */
export function keyFingerprint(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 32);
}
