import { keyFingerprint } from '../api/keyFingerprint';
import { type Account } from '../api/models';

/** Never the key: its fingerprint. */
export class KeyState {
  private fingerprint?: string;
  /** Until the key store was read, "no key" is not known. */
  private known = false;
  private verified?: { fingerprint: string; account: Account };

  get present(): boolean {
    return this.fingerprint !== undefined;
  }

  take(key: string | undefined): boolean {
    const fingerprint = key ? keyFingerprint(key) : undefined;
    if (this.known && fingerprint === this.fingerprint) return false;
    this.known = true;
    this.fingerprint = fingerprint;
    return true;
  }

  checked(key: string, account: Account): void {
    this.verified = { fingerprint: keyFingerprint(key), account };
  }

  takeCheckedAccount(): Account | undefined {
    const verified = this.verified;
    this.verified = undefined;
    return verified && verified.fingerprint === this.fingerprint ? verified.account : undefined;
  }
}
