import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatClient, ChatClientEvents, Message } from '../../../shared/chat-client/index.js';
import { clientOf, closeClients } from '../support/client.js';
import { NetworkProxy } from '../support/network-proxy.js';
import { ProtocolFake } from '../support/protocol-fake.js';
import { waitFor } from '../support/wait.js';

let fake: ProtocolFake;
beforeEach(async () => {
  fake = await new ProtocolFake().start();
});
afterEach(async () => {
  await closeClients();
  await fake.stop();
});

async function connected(uid: string, options = {}): Promise<ChatClient> {
  const client = clientOf(fake, options);
  await client.login({ uid });
  await waitFor(() => client.connection === 'connected', `${uid}'s socket`);
  return client;
}

function collect<K extends keyof ChatClientEvents>(client: ChatClient, type: K): ChatClientEvents[K][] {
  const seen: ChatClientEvents[K][] = [];
  client.events.on(type, (payload) => seen.push(payload));
  return seen;
}

const text = (value: string) => ({ category: 'message', type: 'text', data: { text: value } }) as const;
const texts = (messages: Message[]) => messages.map((m) => m.data.text);

describe('the realtime channel', () => {
  it('authenticates with the auth frame of the protocol', async () => {
    const client = await connected('alice');
    const frames = fake.requests.filter((r) => r.path === '/v3/me');
    expect(frames).toHaveLength(1);
    expect(client.connection).toBe('connected');
  });

  it("delivers another user's message as it is sent", async () => {
    const alice = await connected('alice');
    const bob = await connected('bob');
    const received = collect(bob, 'message');
    await alice.send({ type: 'user', id: 'bob' }, text('ping'));
    await waitFor(() => received.length === 1, 'the message');
    expect(received[0]).toMatchObject({ sender: 'alice', data: { text: 'ping' } });
  });

  it("does not echo this page's own messages back, but shows them on the user's other devices", async () => {
    const page = await connected('alice');
    const otherTab = await connected('alice');
    const onPage = collect(page, 'message');
    const onOtherTab = collect(otherTab, 'message');
    await page.send({ type: 'user', id: 'bob' }, text('from tab one'));
    await waitFor(() => onOtherTab.length === 1, 'the other tab');
    expect(onPage).toHaveLength(0);
  });

  it('relays typing in a conversation', async () => {
    const alice = await connected('alice');
    const bob = await connected('bob');
    const typing = collect(bob, 'typing');
    alice.sendTyping({ type: 'user', id: 'bob' }, true);
    await waitFor(() => typing.length === 1, 'typing');
    expect(typing[0]).toMatchObject({
      target: { type: 'user', id: 'alice' },
      typing: true,
      user: { uid: 'alice' },
    });
  });

  it('tells the sender when a message was read', async () => {
    const alice = await connected('alice');
    const bob = await connected('bob');
    const receipts = collect(alice, 'receipt');
    const sent = await alice.send({ type: 'user', id: 'bob' }, text('read me'));
    const message = sent.status === 'sent' ? sent.message : undefined;
    expect(bob.sendReceipt(message!, 'read')).toBe(true);
    await waitFor(() => receipts.length === 1, 'the receipt');
    expect(receipts[0]).toMatchObject({
      action: 'read',
      messageId: message!.id,
      target: { type: 'user', id: 'bob' },
    });
  });

  it('never sends the session token or JWT in a frame', async () => {
    const alice = await connected('alice');
    alice.sendTyping({ type: 'group', id: 'support' }, true);
    await waitFor(() => fake.framesReceived.length === 1, 'the frame');
    const frame = JSON.stringify(fake.framesReceived[0]);
    expect(frame).not.toContain(alice.me!.authToken);
    expect(frame).not.toContain(alice.me!.jwt);
  });

  it('reports when an interaction goal was completed on another device', async () => {
    const alice = await connected('alice');
    const bob = await connected('bob');
    const completed = collect(alice, 'interactionCompleted');
    const form = fake.sendAs(
      'alice',
      { type: 'user', id: 'bob' },
      {
        category: 'interactive',
        type: 'form',
        data: {
          interactiveData: {
            title: 'T',
            formFields: [],
            submitElement: { elementType: 'button', elementId: 'go', buttonText: 'Go' },
          },
        },
      },
    );
    await bob.markInteracted(form.id, 'go');
    await waitFor(() => completed.length === 1, 'the interaction');
    expect(completed[0]).toMatchObject({ messageId: form.id, interactions: [{ elementId: 'go' }] });
  });
});

describe('staying connected', () => {
  it('gives up a socket on a frozen network, where nothing closes, and connects again once it thaws', async () => {
    const network = await new NetworkProxy(Number(new URL(fake.url).port)).start();
    try {
      const alice = await connected('alice', {
        host: network.url,
        keepAlive: { intervalMs: 30, pongTimeoutMs: 30 },
      });
      const states = collect(alice, 'connection');
      network.freeze();
      await waitFor(() => states.includes('waiting'), 'the socket to be given up');
      network.thaw();
      await waitFor(() => alice.connection === 'connected', 'the reconnect');
    } finally {
      await network.stop();
    }
  });

  it('reconnects after the service restarts and fetches the messages sent meanwhile', async () => {
    const alice = await connected('alice');
    const received = collect(alice, 'message');
    await alice.messages({ type: 'user', id: 'bob' }); // the page has seen this conversation
    await fake.stop();
    await waitFor(() => alice.connection === 'waiting', 'the lost connection');
    await fake.start(Number(new URL(fake.url).port));
    fake.sendAs('bob', { type: 'user', id: 'alice' }, { data: { text: 'while you were away' } });
    await waitFor(() => received.length === 1, 'the missed message');
    expect(texts(received)).toEqual(['while you were away']);
  });

  it('asks for a fresh JWT when the service refuses the old one', async () => {
    const alice = await connected('alice');
    const meCalls = () => fake.requests.filter((r) => r.path === '/v3/me').length;
    const before = meCalls();
    fake.forgetJwts();
    fake.dropSockets();
    await waitFor(() => alice.connection === 'connected' && meCalls() > before, 'a fresh JWT');
    expect(fake.requests.filter((r) => r.path === '/v3/me').at(-1)?.method).toBe('GET');
  });
});

describe('the offline queue', () => {
  it('keeps messages written while the service is down and sends them in order once it is back', async () => {
    const alice = await connected('alice');
    const bob = await connected('bob');
    const sent = collect(alice, 'sent');
    const atBob = collect(bob, 'message');
    const port = Number(new URL(fake.url).port);
    await fake.stop();
    const first = await alice.send({ type: 'user', id: 'bob' }, text('one'));
    const second = await alice.send({ type: 'user', id: 'bob' }, text('two'));
    expect([first.status, second.status]).toEqual(['queued', 'queued']);
    expect(alice.queued.map((q) => q.muid)).toEqual([first.muid, second.muid]);
    await fake.start(port);
    await waitFor(() => sent.length === 2, 'the queued messages');
    expect(sent.map((s) => s.muid)).toEqual([first.muid, second.muid]);
    expect(texts(fake.messages as unknown as Message[])).toEqual(['one', 'two']);
    expect(alice.queued).toHaveLength(0);
    await waitFor(() => texts(atBob).length === 2, "bob's copies");
  });

  it('sends a new message after the queued ones, never before', async () => {
    const alice = await connected('alice');
    const port = Number(new URL(fake.url).port);
    await fake.stop();
    await alice.send({ type: 'user', id: 'bob' }, text('first'));
    await fake.start(port);
    await alice.send({ type: 'user', id: 'bob' }, text('second'));
    await waitFor(() => fake.messages.length === 2, 'both messages');
    expect(texts(fake.messages as unknown as Message[])).toEqual(['first', 'second']);
  });

  it('sends the queue only after fetching what was missed, so nothing missed is skipped', async () => {
    const alice = await connected('alice');
    const received = collect(alice, 'message');
    await alice.messages({ type: 'user', id: 'bob' });
    const port = Number(new URL(fake.url).port);
    await fake.stop();
    await alice.send({ type: 'user', id: 'bob' }, text('queued'));
    await fake.start(port);
    fake.sendAs('bob', { type: 'user', id: 'alice' }, { data: { text: 'missed' } });
    await waitFor(() => fake.messages.length === 2 && alice.queued.length === 0, 'the queue to be sent');
    await waitFor(() => texts(received).includes('missed'), 'the missed message');
  });

  it('is emptied on logout', async () => {
    const alice = await connected('alice');
    await fake.stop();
    await alice.send({ type: 'user', id: 'bob' }, text('never mind'));
    await alice.logout();
    expect(alice.queued).toHaveLength(0);
  });
});
