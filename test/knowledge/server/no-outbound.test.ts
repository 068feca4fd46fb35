import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { isIP, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, startTestAgent, userTurn, type TestAgent } from './support.js';

/** Every client socket this process opens, with the address it went to once connected. */
function recordConnections() {
  const sockets: Socket[] = [];
  const onSocket = (message: unknown) => sockets.push((message as { socket: Socket }).socket);
  subscribe('net.client.socket', onSocket);
  return {
    addresses: () =>
      sockets.map((socket) => socket.remoteAddress ?? (socket as { _host?: string })._host ?? 'unknown'),
    stop: () => unsubscribe('net.client.socket', onSocket),
  };
}

const isLoopback = (address: string): boolean =>
  address === 'localhost' ||
  address === '::1' ||
  (isIP(address) === 4 && address.startsWith('127.')) ||
  address === '::ffff:127.0.0.1';

describe('no outbound connection without a URL or a language model', () => {
  let agent: TestAgent;
  let connections: ReturnType<typeof recordConnections>;
  beforeAll(async () => {
    connections = recordConnections();
    agent = await startTestAgent();
  });
  afterAll(async () => {
    connections.stop();
    await agent.close();
  });

  it('ingests files, searches and answers opening sockets to loopback only', async () => {
    const ingested = await postJson(`${agent.apiUrl}/tools/ingestSources`, {
      namespace: 'docs',
      sources: [agent.docsDir],
    });
    const searched = await postJson(`${agent.apiUrl}/tools/searchDocs`, { query: 'lift', namespace: 'docs' });
    const generated = await postJson(`${agent.apiUrl}/agents/knowledge/generate`, {
      ...userTurn('@agent what makes lift grow?'),
      toolParams: { namespace: 'docs' },
    });
    const streamed = await fetch(`${agent.apiUrl}/agents/knowledge/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...userTurn('@agent drag?'), toolParams: { namespace: 'docs' } }),
    });
    await streamed.text();
    expect([ingested.status, searched.status, generated.status, streamed.status]).toEqual([
      200, 200, 200, 200,
    ]);
    const addresses = connections.addresses();
    // The test's own (pooled) connections to the server are recorded too: the recorder sees sockets.
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.filter((address) => !isLoopback(address))).toEqual([]);
  });
});
