import { chromium, type Browser } from 'playwright-core';

export interface ChromiumOptions {
  /** Accept the self-signed test certificate (https servers started by the tests). */
  ignoreCertificateErrors?: boolean;
  /** Resolve every host name to this machine, so pages can use real-looking origins. */
  resolveAllHostsToLoopback?: boolean;
}

/** Debian's Chromium, headless; never a downloaded browser. */
export function launchChromium(options: ChromiumOptions = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      ...(options.ignoreCertificateErrors === true ? ['--ignore-certificate-errors'] : []),
      ...(options.resolveAllHostsToLoopback === true ? ['--host-resolver-rules=MAP * 127.0.0.1'] : []),
    ],
  });
}
