import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  trustChatCertificate,
  trustsCertificate,
  type TrustedChatCertificate,
} from '../../../desktop/main/certificate-trust.js';
import type { ElectronApp, WebContents } from '../../../desktop/main/electron-api.js';

const fingerprintOf = (text: string) => `sha256/${createHash('sha256').update(text).digest('base64')}`;
const CHAT_FINGERPRINT = fingerprintOf('the chat service certificate');
const OTHER_FINGERPRINT = fingerprintOf('some other certificate');
const trusted: TrustedChatCertificate = { host: 'localhost:4000', fingerprint: CHAT_FINGERPRINT };

describe('trusting the chat host’s self-signed certificate', () => {
  it('trusts the configured fingerprint at the configured host, over https and wss', () => {
    for (const url of ['https://localhost:4000/v3/users', 'wss://localhost:4000/']) {
      expect(trustsCertificate(trusted, { url, fingerprint: CHAT_FINGERPRINT, fromAppWindow: true })).toBe(
        true,
      );
    }
  });

  it('refuses the right certificate at another host or port', () => {
    for (const url of [
      'https://example.com/',
      'https://localhost:4001/',
      'https://localhost/',
      'https://127.0.0.1:4000/',
    ]) {
      expect(trustsCertificate(trusted, { url, fingerprint: CHAT_FINGERPRINT, fromAppWindow: true })).toBe(
        false,
      );
    }
  });

  it('refuses another certificate at the configured host', () => {
    expect(
      trustsCertificate(trusted, {
        url: 'https://localhost:4000/',
        fingerprint: OTHER_FINGERPRINT,
        fromAppWindow: true,
      }),
    ).toBe(false);
  });

  it('refuses the configured certificate for a webContents other than the app’s window', () => {
    expect(
      trustsCertificate(trusted, {
        url: 'https://localhost:4000/',
        fingerprint: CHAT_FINGERPRINT,
        fromAppWindow: false,
      }),
    ).toBe(false);
  });

  it('refuses when the setting, the fingerprint or the address is malformed, or nothing is configured', () => {
    const good = { url: 'https://localhost:4000/', fingerprint: CHAT_FINGERPRINT, fromAppWindow: true };
    expect(trustsCertificate(undefined, good)).toBe(false);
    expect(trustsCertificate({ ...trusted, fingerprint: 'AB:CD' }, { ...good, fingerprint: 'AB:CD' })).toBe(
      false,
    );
    expect(trustsCertificate({ ...trusted, fingerprint: '' }, { ...good, fingerprint: '' })).toBe(false);
    expect(trustsCertificate({ ...trusted, host: 'local host' }, good)).toBe(false);
    expect(trustsCertificate(trusted, { ...good, url: 'not a url' })).toBe(false);
    expect(trustsCertificate(trusted, { ...good, url: 'http://localhost:4000/' })).toBe(false);
  });

  it('answers Electron’s certificate-error: accepts only the window’s chat host certificate', () => {
    let listener: Parameters<ElectronApp['on']>[1] | undefined;
    const app = { on: (_event: string, handler: typeof listener) => void (listener = handler) } as Pick<
      ElectronApp,
      'on'
    >;
    const windowContents = { id: 'window' } as unknown as WebContents;
    const otherContents = { id: 'other' } as unknown as WebContents;
    trustChatCertificate(
      app,
      () => windowContents,
      () => trusted,
    );
    const answer = (webContents: WebContents, url: string, fingerprint: string) => {
      let prevented = false;
      let verdict: boolean | undefined;
      (listener as (...args: unknown[]) => void)(
        { preventDefault: () => (prevented = true) },
        webContents,
        url,
        'net::ERR_CERT_AUTHORITY_INVALID',
        { fingerprint },
        (isTrusted: boolean) => (verdict = isTrusted),
      );
      return { prevented, verdict };
    };
    expect(answer(windowContents, 'wss://localhost:4000/', CHAT_FINGERPRINT)).toEqual({
      prevented: true,
      verdict: true,
    });
    expect(answer(otherContents, 'wss://localhost:4000/', CHAT_FINGERPRINT)).toEqual({
      prevented: false,
      verdict: false,
    });
    expect(answer(windowContents, 'https://evil.example/', CHAT_FINGERPRINT)).toEqual({
      prevented: false,
      verdict: false,
    });
    expect(answer(windowContents, 'https://localhost:4000/', OTHER_FINGERPRINT)).toEqual({
      prevented: false,
      verdict: false,
    });
  });
});
