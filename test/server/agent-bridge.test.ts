import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_FAILURE_NOTICE, silentLogger, startChatServer, type ChatServer } from '../../server/index.js';
import { connectClient } from './client-support.js';
import { APP_ONE, callServerApi, createTestStore, type TestStore } from './support.js';

interface Call {
  body: {
    messages: { role: string; content: string }[];
    toolParams?: { namespace?: string };
    requireMention?: boolean;
  };
  respond(status: number, body: unknown): void;
}

/** A stand-in deployment URL on this machine: each call waits until the test answers it. */
async function startDeployment() {
  const calls: Call[] = [];
  const waiting: ((call: Call) => void)[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const server: Server = createServer((request, response: ServerResponse) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      const call: Call = {
        body: JSON.parse(text) as Call['body'],
        respond: (status, body) => {
          inFlight -= 1;
          if (!response.destroyed)
            response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        },
      };
      response.on('close', () => {
        if (!response.writableEnded) inFlight -= 1;
      });
      calls.push(call);
      waiting.shift()?.(call);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/agents/knowledge/generate`,
    calls,
    mostInFlight: () => mostInFlight,
    /** The next call that arrives (or the one already waiting at `index`). */
    call: (index: number) =>
      calls[index] !== undefined
        ? Promise.resolve(calls[index])
        : new Promise<Call>((resolve) => waiting.push(resolve)),
    reset: () => {
      calls.length = 0;
      mostInFlight = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const answer = (text: string, addressed = true) => ({
  text,
  finishReason: 'stop',
  sources:
    text === ''
      ? []
      : [{ n: 1, documentId: 'd1', title: 'Handbook', snippet: 'The garage is north.', score: 1 }],
  addressed,
});

describe('the agent bridge', () => {
  let store: TestStore;
  let chat: ChatServer;
  let deployment: Awaited<ReturnType<typeof startDeployment>>;

  const serverApi = async (method: string, path: string, body?: unknown, onBehalfOf?: string) =>
    (await callServerApi(chat.url, APP_ONE, method, path, { body, onBehalfOf })).body;
  const say = (sender: string, receiver: string, receiverType: 'user' | 'group', text: string) =>
    serverApi(
      'POST',
      '/messages',
      { receiver, receiverType, category: 'message', type: 'text', data: { text } },
      sender,
    );
  type Posted = {
    sender: string;
    data: { text: string; metadata: Record<string, unknown> & { sources?: unknown } };
  };
  const fromAgent = async (path: string): Promise<Posted[]> => {
    const page = await serverApi('GET', `${path}?limit=100`, undefined, 'alice');
    return (page.data as Posted[]).filter((message) => message.sender === 'helper');
  };

  beforeAll(async () => {
    store = await createTestStore('sqlite');
    deployment = await startDeployment();
    chat = await startChatServer({
      port: 0,
      dataDir: store.dataDir,
      app: APP_ONE,
      rateLimits: false,
      logger: silentLogger,
      agentBridge: { timeoutMs: 3_000, retries: 2, backoffMs: 10 },
    });
    for (const uid of ['alice', 'bob']) await serverApi('POST', '/users', { uid, name: uid });
    await serverApi('POST', '/ai-agents', {
      agentId: 'helper',
      provider: 'mastra',
      deploymentUrl: deployment.url,
      name: 'Help Desk',
      namespace: 'handbook',
    });
    await serverApi('POST', '/groups', {
      guid: 'crew',
      name: 'Crew',
      type: 'public',
      owner: 'alice',
      members: { participants: ['bob', 'helper'] },
    });
    await serverApi('POST', '/groups', {
      guid: 'lounge',
      name: 'Lounge',
      type: 'public',
      owner: 'alice',
      members: { participants: ['bob'] },
    });
  });
  afterAll(async () => {
    await chat?.close();
    await deployment?.close();
    await store?.dispose();
  });
  beforeEach(async () => {
    await chat.agents.bridge.idle();
    deployment.reset();
  });

  it('sends a mention by display name with the recent turns, mentions written as @agent, and the namespace', async () => {
    await say('bob', 'crew', 'group', 'the garage question again');
    await say('alice', 'crew', 'group', '@Help Desk where is the garage?');
    const call = await deployment.call(0);
    expect(call.body.toolParams).toEqual({ namespace: 'handbook' });
    expect(call.body.requireMention).toBeUndefined();
    expect(call.body.messages.at(-2)).toEqual({ role: 'user', content: 'the garage question again' });
    expect(call.body.messages.at(-1)).toEqual({ role: 'user', content: '@agent where is the garage?' });
    call.respond(200, answer('North, level two.'));
    await chat.agents.bridge.idle();
    const [reply] = (await fromAgent('/groups/crew/messages')).slice(-1);
    expect(reply?.data.text).toBe('North, level two.');
    expect(reply?.data.metadata.sources).toEqual([
      expect.objectContaining({ title: 'Handbook', snippet: 'The garage is north.' }),
    ]);
  });

  it("delivers the answer to the asker's socket without the asker's device id, so the SDK does not drop it as its own echo", async () => {
    const asker = await connectClient(chat, APP_ONE, 'alice');
    try {
      const asked = await asker.call('POST', '/messages', {
        receiver: 'crew',
        receiverType: 'group',
        category: 'message',
        type: 'text',
        data: { text: '@helper who asked?' },
      });
      expect(asked.status).toBe(200);
      (await deployment.call(0)).respond(200, answer('You did.'));
      const answerFrame = await asker.next(
        (frame) => frame.type === 'message' && frame.sender === 'helper',
        'the agent answer',
      );
      expect(answerFrame.body.data.text).toBe('You did.');
      expect(answerFrame.deviceId).not.toBe(asker.deviceId);
    } finally {
      await asker.close();
    }
  });

  it('sends its earlier answers as assistant turns', async () => {
    await say('alice', 'crew', 'group', '@helper and on weekends?');
    const call = await deployment.call(0);
    expect(call.body.messages).toContainEqual({ role: 'assistant', content: 'North, level two.' });
    call.respond(200, answer('Same place.'));
  });

  it('asks with requireMention false in a one-on-one chat, and answers there', async () => {
    await say('bob', 'helper', 'user', 'is the canteen open?');
    const call = await deployment.call(0);
    expect(call.body.requireMention).toBe(false);
    call.respond(200, answer('Until two.'));
    await chat.agents.bridge.idle();
    const replies = (await serverApi('GET', '/users/helper/messages?limit=10', undefined, 'bob')).data as {
      sender: string;
      receiver: string;
      data: { text: string };
    }[];
    expect(replies.at(-1)).toMatchObject({ sender: 'helper', receiver: 'bob', data: { text: 'Until two.' } });
  });

  it('does not ask for messages without a mention, in groups it is not in, or while it is disabled', async () => {
    await say('alice', 'crew', 'group', 'just chatting');
    await say('alice', 'lounge', 'group', '@helper are you here?');
    await serverApi('PUT', '/ai-agents/helper', { enabled: false });
    await say('alice', 'crew', 'group', '@helper hello?');
    await serverApi('PUT', '/ai-agents/helper', { enabled: true });
    await chat.agents.bridge.idle();
    expect(deployment.calls).toHaveLength(0);
  });

  it('posts nothing when the agent was not addressed or answers empty', async () => {
    const before = (await fromAgent('/groups/crew/messages')).length;
    await say('alice', 'crew', 'group', '@agent first');
    (await deployment.call(0)).respond(200, answer('', false));
    await say('alice', 'crew', 'group', '@agent second');
    (await deployment.call(1)).respond(200, answer('   '));
    await chat.agents.bridge.idle();
    expect(await fromAgent('/groups/crew/messages')).toHaveLength(before);
  });

  it('retries a failing deployment with backoff and posts the answer once it succeeds', async () => {
    await say('alice', 'crew', 'group', '@helper retry me');
    (await deployment.call(0)).respond(503, { error: 'busy' });
    (await deployment.call(1)).respond(429, { error: 'slow down' });
    (await deployment.call(2)).respond(200, answer('Third time lucky.'));
    await chat.agents.bridge.idle();
    expect(deployment.calls).toHaveLength(3);
    expect((await fromAgent('/groups/crew/messages')).at(-1)?.data.text).toBe('Third time lucky.');
  });

  it('gives up on a refusal without retrying and posts a short notice that says nothing about the cause', async () => {
    await say('alice', 'crew', 'group', '@helper break please');
    (await deployment.call(0)).respond(400, { error: 'secret internal detail at /srv/agent.ts:12' });
    await chat.agents.bridge.idle();
    expect(deployment.calls).toHaveLength(1);
    const notice = (await fromAgent('/groups/crew/messages')).at(-1);
    expect(notice?.data.text).toBe(AGENT_FAILURE_NOTICE);
    expect(notice?.data.metadata).toMatchObject({ agentError: true });
    expect(JSON.stringify(notice)).not.toContain('secret internal detail');
  });

  it('gives up after the timeout on every attempt and posts the notice', async () => {
    await say('alice', 'crew', 'group', '@helper are you asleep?');
    await chat.agents.bridge.idle();
    expect(deployment.calls).toHaveLength(3);
    expect((await fromAgent('/groups/crew/messages')).at(-1)?.data.text).toBe(AGENT_FAILURE_NOTICE);
  });

  it('answers one question per conversation at a time, in the order asked', async () => {
    for (const question of ['one', 'two', 'three'])
      await say('alice', 'crew', 'group', `@helper ${question}`);
    for (let index = 0; index < 3; index += 1) {
      const call = await deployment.call(index);
      expect(call.body.messages.at(-1)?.content).toBe(`@agent ${['one', 'two', 'three'][index]}`);
      call.respond(200, answer(`answer ${index + 1}`));
    }
    await chat.agents.bridge.idle();
    expect(deployment.mostInFlight()).toBe(1);
    const texts = (await fromAgent('/groups/crew/messages')).slice(-3).map((message) => message.data.text);
    expect(texts).toEqual(['answer 1', 'answer 2', 'answer 3']);
  });
});
