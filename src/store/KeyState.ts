import { keyFingerprint } from '../api/keyFingerprint';
import { type Account } from '../api/models';

/**
 * Which key the store works with, held only as a fingerprint (never the key), and the account a key was checked
 * with before it was stored, so that adopting that key does not fetch the account again.
 */
export class KeyState {
  private fingerprint?: string;
  /** Whether the key store was read at all: until then, "no key" is not known yet. */
  private known = false;
  private verified?: { fingerprint: string; account: Account };

  get present(): boolean {
    return this.fingerprint !== undefined;
  }

  /** Takes the key now stored; returns whether it differs from the one in use (the same key again changes nothing). */
  take(key: string | undefined): boolean {
    const fingerprint = key ? keyFingerprint(key) : undefined;
    if (this.known && fingerprint === this.fingerprint) return false;
    this.known = true;
    this.fingerprint = fingerprint;
    return true;
  }

  /** A key passed its check with `GET /me`, which returned this account. */
  checked(key: string, account: Account): void {
    this.verified = { fingerprint: keyFingerprint(key), account };
  }

  /** The account read when the key now in use was checked, if it was; asked once per key change. */
  takeCheckedAccount(): Account | undefined {
    const verified = this.verified;
    this.verified = undefined;
    return verified && verified.fingerprint === this.fingerprint ? verified.account : undefined;
  }
}
