import { describe, expect, it } from 'vitest';
import { APP_ONE, useTestServer } from './support.js';

describe('cross-origin calls to /v3', () => {
  const api = useTestServer();

  it('lets a page on any origin read the answer', async () => {
    const response = await fetch(`${api.url}/v3/users`, {
      headers: { apikey: APP_ONE.apiKey, appId: APP_ONE.appId, origin: 'https://shop.example' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers a preflight with the headers CometChat clients send', async () => {
    const response = await fetch(`${api.url}/v3/messages`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'apikey,onbehalfof,content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-headers')).toContain('onbehalfof');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('adds no CORS headers to a server-to-server call, which sends no Origin', async () => {
    const response = await api.call('GET', '/users');
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});
