import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentConfigFromEnv, openAgentEngine, startAgentServer } from '../../knowledge/server/index.js';
import type { KnowledgeEngine } from '../../knowledge/index.js';
import { silentLogger, startChatServer, type ChatServer } from '../../server/index.js';
import { connectClient, type Frame, type TestClient } from '../server/client-support.js';
import { callServerApi } from '../server/support.js';

const APP = { appId: 'bridge-app', apiKey: 'bridge-full-key', authKey: 'bridge-auth-key' };
const NAMESPACE = 'handbook';
const HANDBOOK = `# Office handbook

## Parking
Visitors park in the north garage on level two. The garage opens at seven in the morning.

## Coffee
The espresso machine on the third floor is descaled every Friday afternoon.`;

const isAnswer = (frame: Frame) =>
  frame.type === 'message' && frame.sender === 'knowledge' && frame.body?.category === 'message';

describe('the agent bridge with a real knowledge agent', () => {
  let dataDir: string;
  let engine: KnowledgeEngine;
  let agent: Awaited<ReturnType<typeof startAgentServer>>;
  let chat: ChatServer;
  let alice: TestClient;
  let bob: TestClient;
  const guid = 'office';

  const serverApi = (method: string, path: string, body?: unknown) =>
    callServerApi(chat.url, APP, method, path, { body });

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'parley-bridge-'));
    const config = agentConfigFromEnv({}, join(dataDir, 'agent'));
    engine = await openAgentEngine(join(dataDir, 'agent'), config);
    await engine.ingest(NAMESPACE, [{ kind: 'text', title: 'Office handbook', text: HANDBOOK }]);
    agent = await startAgentServer({ config, backend: engine, host: '127.0.0.1', port: 0 });
    chat = await startChatServer({
      port: 0,
      dataDir: join(dataDir, 'chat'),
      app: APP,
      rateLimits: false,
      logger: silentLogger,
    });
    for (const uid of ['alice', 'bob']) await serverApi('POST', '/users', { uid, name: uid });
    const registered = await serverApi('POST', '/ai-agents', {
      agentId: 'knowledge',
      provider: 'mastra',
      deploymentUrl: `${agent.apiUrl}/agents/knowledge/generate`,
      name: 'Knowledge',
      namespace: NAMESPACE,
      enabled: true,
    });
    expect(registered.status).toBe(200);
    await serverApi('POST', '/groups', {
      guid,
      name: 'Office',
      type: 'public',
      owner: 'alice',
      members: { participants: ['bob', 'knowledge'] },
    });
    alice = await connectClient(chat, APP, 'alice');
    bob = await connectClient(chat, APP, 'bob');
  });

  afterAll(async () => {
    await alice?.close();
    await bob?.close();
    await chat?.close();
    await agent?.close();
    await engine?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('makes the registered agent a chat user', async () => {
    const user = await serverApi('GET', '/users/knowledge');
    expect(user.body.data).toMatchObject({ uid: 'knowledge', name: 'Knowledge', role: 'agent' });
  });

  it('answers "@agent <question>" in a group over the WebSocket, with the sources in data.metadata', async () => {
    const asked = await alice.call('POST', '/messages', {
      receiver: guid,
      receiverType: 'group',
      category: 'message',
      type: 'text',
      data: { text: '@agent where do visitors park?' },
    });
    expect(asked.status).toBe(200);
    for (const member of [alice, bob]) {
      const answer = await member.next(isAnswer, 'the agent answer');
      expect(answer.body.receiver).toBe(guid);
      expect(answer.body.data.text).toMatch(/north garage/i);
      const sources = answer.body.data.metadata.sources as { title: string; snippet: string }[];
      expect(sources.length).toBeGreaterThan(0);
      expect(sources[0]).toMatchObject({ title: 'Office handbook' });
      expect(sources.some((source) => /garage/i.test(source.snippet))).toBe(true);
    }
  });

  it('sends a group message without a mention nowhere: no answer is posted', async () => {
    const said = await bob.call('POST', '/messages', {
      receiver: guid,
      receiverType: 'group',
      category: 'message',
      type: 'text',
      data: { text: 'where do visitors park?' },
    });
    expect(said.status).toBe(200);
    await chat.agents.bridge.idle();
    const history = await serverApi('GET', `/groups/${guid}/messages?limit=100`);
    const fromAgent = (history.body.data as { sender: string; id: string }[]).filter(
      (m) => m.sender === 'knowledge',
    );
    expect(fromAgent).toHaveLength(1);
    expect(Number(fromAgent[0]?.id)).toBeLessThan(Number(said.body.data.id));
  });

  it('answers every message in a one-on-one chat with the agent, no mention needed', async () => {
    await bob.call('POST', '/messages', {
      receiver: 'knowledge',
      receiverType: 'user',
      category: 'message',
      type: 'text',
      data: { text: 'When is the espresso machine descaled?' },
    });
    const answer = await bob.next(
      (frame) => isAnswer(frame) && frame.body.receiverType === 'user',
      'the one-on-one answer',
    );
    expect(answer.body.receiver).toBe('bob');
    expect(answer.body.data.text).toMatch(/friday/i);
  });

  /** Messages the agent sent in the group after the message with this id. */
  const agentMessagesAfter = async (messageId: string) => {
    await chat.agents.bridge.idle();
    const history = await serverApi('GET', `/groups/${guid}/messages?limit=100`);
    return (history.body.data as { sender: string; id: string }[]).filter(
      (m) => m.sender === 'knowledge' && Number(m.id) > Number(messageId),
    );
  };
  const mention = (client: TestClient) =>
    client.call('POST', '/messages', {
      receiver: guid,
      receiverType: 'group',
      category: 'message',
      type: 'text',
      data: { text: '@agent where do visitors park?' },
    });
  const takeoverPath = `/ai-agents/knowledge/conversations/group_${guid}/takeover`;

  it('keeps the agent silent on a mention in a group an admin took over, and answers again once given back', async () => {
    const taken = await alice.call('PUT', takeoverPath);
    expect(taken.status).toBe(200);
    expect(taken.body.data).toMatchObject({
      agentId: 'knowledge',
      conversationId: `group_${guid}`,
      takenOver: true,
      takenOverBy: 'alice',
    });
    const silent = await mention(bob);
    expect(await agentMessagesAfter(silent.body.data.id)).toHaveLength(0);

    const given = await alice.call('DELETE', takeoverPath);
    expect(given.body.data).toMatchObject({ takenOver: false });
    const asked = await mention(bob);
    const answer = await bob.next(
      (frame) => isAnswer(frame) && Number(frame.body.id) > Number(asked.body.data.id),
      'the answer after giving back',
    );
    expect(answer.body.data.text).toMatch(/north garage/i);
  });

  it('refuses a take-over by a participant of the group (only admins and moderators)', async () => {
    const refused = await bob.call('PUT', takeoverPath);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('ERR_TAKEOVER_NOT_ALLOWED');
    expect((await alice.call('GET', takeoverPath)).body.data.takenOver).toBe(false);
  });

  it('takes a one-on-one chat over through the server API and lists it among the take-overs', async () => {
    const path = '/ai-agents/knowledge/conversations/bob_user_knowledge/takeover';
    expect((await serverApi('PUT', path)).body.data).toMatchObject({ takenOver: true });
    expect((await serverApi('GET', '/ai-agents/knowledge/takeovers')).body.data).toEqual([
      expect.objectContaining({ conversationId: 'bob_user_knowledge', takenOver: true }),
    ]);
    const asked = await bob.call('POST', '/messages', {
      receiver: 'knowledge',
      receiverType: 'user',
      category: 'message',
      type: 'text',
      data: { text: 'When is the espresso machine descaled?' },
    });
    expect(asked.status).toBe(200);
    await chat.agents.bridge.idle();
    const messages = await bob.call('GET', '/users/knowledge/messages?limit=100');
    const replies = (messages.body.data as { sender: string; id: string }[]).filter(
      (m) => m.sender === 'knowledge' && Number(m.id) > Number(asked.body.data.id),
    );
    expect(replies).toHaveLength(0);
    expect((await serverApi('DELETE', path)).body.data).toMatchObject({ takenOver: false });
  });

  it('names the conversationId when it is not a conversation id', async () => {
    const bad = await serverApi('PUT', '/ai-agents/knowledge/conversations/not%20one/takeover');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual({ field: 'conversationId' });
  });
});
