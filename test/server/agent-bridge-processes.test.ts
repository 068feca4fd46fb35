import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer, type Logger } from '../../server/index.js';
import { APP_ONE, callServerApi, createTestStore, testRedis, type TestStore } from './support.js';

/** A logger that keeps the events it was told, to wait on them. */
function recordingLogger(): Logger & { events: string[] } {
  const events: string[] = [];
  const record = (event: string) => void events.push(event);
  return { events, info: record, warn: record, error: record };
}

/**
 * An agent deployment on this machine that holds each question until the test lets it answer, and
 * counts how many it is answering at once.
 */
class HeldAgent {
  inFlight = 0;
  mostAtOnce = 0;
  calls = 0;
  private readonly held: ServerResponse[] = [];
  private readonly server: Server;
  url = '';

  constructor() {
    this.server = createServer((request: IncomingMessage, response: ServerResponse) => {
      request.resume();
      request.on('end', () => {
        this.calls += 1;
        this.inFlight += 1;
        this.mostAtOnce = Math.max(this.mostAtOnce, this.inFlight);
        this.held.push(response);
      });
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/generate`;
  }

  /** Answers the oldest question held. */
  answerOne(): void {
    const response = this.held.shift();
    if (response === undefined) throw new Error('no question is held');
    this.inFlight -= 1;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ text: 'Visitors park in the north garage.', sources: [] }));
  }

  async close(): Promise<void> {
    for (const response of this.held) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe('the agent bridge with two processes joined by Redis', () => {
  let store: TestStore;
  let first: ChatServer;
  let second: ChatServer;
  const secondLog = recordingLogger();
  const agent = new HeldAgent();

  beforeAll(async () => {
    store = await createTestStore('postgres');
    await agent.start();
    const redis = testRedis();
    const start = (logger: Logger) =>
      startChatServer({
        port: 0,
        dataDir: store.dataDir,
        databaseUrl: store.databaseUrl,
        redisUrl: redis.url,
        redisPrefix: redis.prefix,
        app: APP_ONE,
        rateLimits: false,
        logger,
      });
    first = await start(recordingLogger());
    second = await start(secondLog);
  });
  afterAll(async () => {
    await agent.close();
    await first?.close();
    await second?.close();
    await store?.dispose();
  });

  const call = (server: ChatServer, method: string, path: string, body: unknown, onBehalfOf?: string) =>
    callServerApi(server.url, APP_ONE, method, path, {
      body,
      ...(onBehalfOf === undefined ? {} : { onBehalfOf }),
    });
  const ask = (server: ChatServer, text: string) =>
    call(
      server,
      'POST',
      '/messages',
      { receiver: 'office', receiverType: 'group', category: 'message', type: 'text', data: { text } },
      'alice',
    );

  it('answers the questions of one conversation one at a time, whichever process stored them', async () => {
    for (const uid of ['alice', 'bob']) await call(first, 'POST', '/users', { uid, name: uid });
    const registered = await call(first, 'POST', '/ai-agents', {
      agentId: 'knowledge',
      provider: 'mastra',
      deploymentUrl: agent.url,
      name: 'Knowledge',
      namespace: 'handbook',
      enabled: true,
    });
    expect(registered.status).toBe(200);
    await call(first, 'POST', '/groups', {
      guid: 'office',
      name: 'Office',
      type: 'public',
      owner: 'alice',
      members: { participants: ['bob', 'knowledge'] },
    });
    expect((await ask(first, '@agent where do visitors park?')).status).toBe(200);
    await expect.poll(() => agent.calls, { timeout: 15_000, interval: 20 }).toBe(1);
    expect((await ask(second, '@agent and where do staff park?')).status).toBe(200);
    // The second process finds the conversation busy and waits, rather than asking at once.
    await expect
      .poll(() => secondLog.events.includes('agent_conversation_busy'), { timeout: 15_000, interval: 20 })
      .toBe(true);
    expect(agent.calls).toBe(1);
    agent.answerOne();
    await expect.poll(() => agent.calls, { timeout: 15_000, interval: 20 }).toBe(2);
    agent.answerOne();
    await Promise.all([first.agents.bridge.idle(), second.agents.bridge.idle()]);
    expect(agent.mostAtOnce).toBe(1);
    const history = await call(first, 'GET', '/groups/office/messages?per_page=100', undefined, 'alice');
    const answers = (history.body.data as Array<{ sender: string }>).filter(
      (message) => message.sender === 'knowledge',
    );
    expect(answers).toHaveLength(2);
  });
});
