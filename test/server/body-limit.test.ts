import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { APP_ONE, useTestServer } from './support.js';

const OVER_LIMIT = 256 * 1024 + 1;

/** POSTs `chunks` to `/v3/users` with chunked transfer encoding: no length is declared up front. */
function postChunked(url: string, chunks: string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      `${url}/v3/users`,
      {
        method: 'POST',
        headers: { apikey: APP_ONE.apiKey, appId: APP_ONE.appId, 'content-type': 'application/json' },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    outgoing.on('error', reject);
    for (const chunk of chunks) outgoing.write(chunk);
    outgoing.end();
  });
}

describe('request body limit', () => {
  const api = useTestServer();

  it('refuses a declared body over 256 KB with 413, naming the body', async () => {
    const response = await api.call('POST', '/users', { rawBody: 'x'.repeat(OVER_LIMIT) });
    expect(response.status).toBe(413);
    expect(response.body.error).toMatchObject({ code: 'ERR_BAD_REQUEST', details: { field: 'body' } });
  });

  it('refuses a streamed body once it passes 256 KB', async () => {
    const response = await postChunked(api.url, [
      '{"uid": "streamed", "name": "',
      'x'.repeat(OVER_LIMIT),
      '"}',
    ]);
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body).error.details.field).toBe('body');
  });

  it('reads a streamed body within the limit', async () => {
    const response = await postChunked(api.url, ['{"uid": "streamed-ok", ', '"name": "Streamed"}']);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body).data.uid).toBe('streamed-ok');
  });
});
