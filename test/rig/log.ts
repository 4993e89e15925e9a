/** Brief progress lines on stderr, so stdout stays the tests' own output. */
export function rigLog(message: string): void {
  process.stderr.write(`[rig] ${message}\n`);
}
