import { createHash } from 'node:crypto';

// Tells keys apart without holding a key in a map or a field.
export function keyFingerprint(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 32);
}
