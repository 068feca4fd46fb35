import { chromium, type Browser } from 'playwright-core';

export interface ChromiumOptions {
  /** Accept the self-signed test certificate (https servers started by the tests). */
  ignoreCertificateErrors?: boolean;
  /** Resolve every host name to this machine, so pages can use real-looking origins. */
  resolveAllHostsToLoopback?: boolean;
  /**
   * Connections to port 443 of any host go to this port of this machine: CometChat's SDK asks its
   * online counts at its chat host with no port.
   */
  httpsPortTo?: number;
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
      ...hostResolverRules(options),
    ],
  });
}

function hostResolverRules(options: ChromiumOptions): string[] {
  const rules = [
    ...(options.httpsPortTo === undefined ? [] : [`MAP *:443 127.0.0.1:${options.httpsPortTo}`]),
    ...(options.resolveAllHostsToLoopback === true ? ['MAP * 127.0.0.1'] : []),
  ];
  return rules.length === 0 ? [] : [`--host-resolver-rules=${rules.join(', ')}`];
}
