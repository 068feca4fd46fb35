import { describe, expect, it } from 'vitest';
import { bootstrapEndpoints, ChatClientError, sessionEndpoints } from '../../../shared/chat-client/index.js';

describe('chat endpoints', () => {
  it("derive CometChat's client and admin hosts from app id and region", () => {
    expect(bootstrapEndpoints({ appId: 'abc123', region: 'eu' })).toEqual({
      clientApi: 'https://abc123.apiclient-eu.cometchat.io/v3',
      adminApi: 'https://abc123.api-eu.cometchat.io/v3',
    });
  });

  it('use a given Parley host for both APIs and its origin for the WebSocket', () => {
    expect(bootstrapEndpoints({ appId: 'a', region: 'eu', host: 'https://chat.example.com/' })).toEqual({
      clientApi: 'https://chat.example.com/v3',
      adminApi: 'https://chat.example.com/v3',
      socket: 'wss://chat.example.com/',
    });
  });

  it('keep a path prefix of the host in every URL', () => {
    const endpoints = bootstrapEndpoints({ appId: 'a', region: 'eu', host: 'https://example.com/chat' });
    expect(endpoints.clientApi).toBe('https://example.com/chat/v3');
    expect(endpoints.socket).toBe('wss://example.com/chat');
  });

  it('allow plain http and ws for localhost', () => {
    const endpoints = bootstrapEndpoints({ appId: 'a', region: 'eu', host: 'http://localhost:4000' });
    expect(endpoints.socket).toBe('ws://localhost:4000/');
  });

  it('refuse plain http for any other host, naming the host', () => {
    expect(() => bootstrapEndpoints({ appId: 'a', region: 'eu', host: 'http://chat.example.com' })).toThrow(
      /host "http:\/\/chat.example.com" must use https/,
    );
  });

  it('refuse a host that is not a URL', () => {
    expect(() => bootstrapEndpoints({ appId: 'a', region: 'eu', host: 'chat.example.com' })).toThrow(
      ChatClientError,
    );
  });

  it('refuse a missing app id', () => {
    expect(() => bootstrapEndpoints({ appId: ' ', region: 'eu' })).toThrow('appId is required');
  });

  it("follow the service's settings after login when the hosts were derived", () => {
    const settings = {
      CLIENT_API_HOST: 'chat.example.com:8443',
      CHAT_API_VERSION: 'v3',
      CHAT_HOST: 'chat.example.com',
      CHAT_WSS_PORT: '8443',
    };
    expect(sessionEndpoints({ appId: 'a', region: 'eu' }, settings)).toMatchObject({
      clientApi: 'https://chat.example.com:8443/v3',
      socket: 'wss://chat.example.com:8443',
    });
  });

  it('keep an explicitly given host even when the settings name another', () => {
    const settings = { CLIENT_API_HOST: 'internal:9000', CHAT_HOST: 'internal', CHAT_WSS_PORT: '9000' };
    expect(
      sessionEndpoints({ appId: 'a', region: 'eu', host: 'https://chat.example.com' }, settings),
    ).toMatchObject({
      clientApi: 'https://chat.example.com/v3',
      socket: 'wss://chat.example.com/',
    });
  });
});
