import { describe, expect, it } from 'vitest';
import { plainLoopbackHost, toPlainLoopback } from '../../../desktop/renderer/chats/loopback-transport.js';

const PAGE = { protocol: 'http:', hostname: '127.0.0.1' };

describe('which chat host a page reaches over plain http', () => {
  it('is the loopback chat host of a plain-http loopback page in a browser', () => {
    expect(plainLoopbackHost('localhost:4000', PAGE, false)).toBe('localhost:4000');
    expect(plainLoopbackHost('127.0.0.1:4000', { protocol: 'http:', hostname: 'localhost' }, false)).toBe(
      '127.0.0.1:4000',
    );
  });

  it('spells the host as URLs do: lower case, without the default https port', () => {
    expect(plainLoopbackHost('LocalHost:4000', PAGE, false)).toBe('localhost:4000');
    expect(plainLoopbackHost('localhost:443', PAGE, false)).toBe('localhost');
  });

  it('is none for a chat host that is not on loopback', () => {
    for (const host of [
      'chat.example.com:4000',
      'localhost.example.com:4000',
      '10.0.0.5:4000',
      '127.0.0.2:4000',
    ])
      expect(plainLoopbackHost(host, PAGE, false)).toBeUndefined();
  });

  it("is none without a host (CometChat's cloud)", () => {
    expect(plainLoopbackHost(null, PAGE, false)).toBeUndefined();
  });

  it('is none on an https page, even on loopback', () => {
    expect(
      plainLoopbackHost('localhost:4000', { protocol: 'https:', hostname: 'localhost' }, false),
    ).toBeUndefined();
  });

  it('is none on a page served from elsewhere', () => {
    expect(
      plainLoopbackHost('localhost:4000', { protocol: 'http:', hostname: 'parley.example.com' }, false),
    ).toBeUndefined();
  });

  it('is none in the desktop app, which trusts the certificate by fingerprint', () => {
    expect(plainLoopbackHost('localhost:4000', PAGE, true)).toBeUndefined();
  });
});

describe('the plain-http rewrite of a URL', () => {
  const HOST = 'localhost:4000';

  it('turns https to the host into http, path and query kept', () => {
    expect(toPlainLoopback('https://localhost:4000/v3/users?per_page=30#x', HOST)).toBe(
      'http://localhost:4000/v3/users?per_page=30#x',
    );
  });

  it('turns wss to the host into ws', () => {
    expect(toPlainLoopback('wss://localhost:4000/?appId=a&region=us', HOST)).toBe(
      'ws://localhost:4000/?appId=a&region=us',
    );
  });

  it('leaves the same name on another port untouched', () => {
    expect(toPlainLoopback('https://localhost:4001/v3/users', HOST)).toBe('https://localhost:4001/v3/users');
    expect(toPlainLoopback('https://localhost/v3/users', HOST)).toBe('https://localhost/v3/users');
  });

  it('leaves other hosts untouched, those that merely start with the host name included', () => {
    for (const url of [
      'https://localhost:4000.example.com/v3/users',
      'https://127.0.0.1:4000/v3/users',
      'https://api-us.cometchat.io/v3/users',
      'wss://example.com/?to=https://localhost:4000/',
    ])
      expect(toPlainLoopback(url, HOST)).toBe(url);
  });

  it('leaves other schemes and relative URLs untouched', () => {
    for (const url of [
      'http://localhost:4000/v3/users',
      'ws://localhost:4000/',
      '/api/agents',
      'data:,x',
      'blob:x',
    ])
      expect(toPlainLoopback(url, HOST)).toBe(url);
  });
});
