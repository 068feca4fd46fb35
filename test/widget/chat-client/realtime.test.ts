import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type {
  ChatClient,
  ChatClientEvents,
  ChatClientOptions,
  Message,
  SocketLike,
} from '../../../shared/chat-client/index.js';
import { API_KEY, APP_ID, ChatService } from '../support/chat-service.js';
import { clientOf, closeClients, Wire } from '../support/client.js';
import { NetworkProxy } from '../support/network-proxy.js';
import { waitFor } from '../support/wait.js';

let service: ChatService;
let network: NetworkProxy;
beforeEach(async () => {
  service = await ChatService.start();
  network = await new NetworkProxy(service.port).start();
});
afterEach(async () => {
  await closeClients();
  await network.stop();
  await service.close();
});

async function connected(
  uid: string,
  options: Partial<ChatClientOptions> = {},
  wire?: Wire,
): Promise<ChatClient> {
  const client = clientOf(service, options, wire);
  await client.login({ uid });
  await waitFor(() => client.connection === 'connected', `${uid}'s socket`);
  return client;
}

function collect<K extends keyof ChatClientEvents>(client: ChatClient, type: K): ChatClientEvents[K][] {
  const seen: ChatClientEvents[K][] = [];
  client.events.on(type, (payload) => seen.push(payload));
  return seen;
}

const toBob = { type: 'user', id: 'bob' } as const;
const toAlice = { type: 'user', id: 'alice' } as const;
const text = (value: string) => ({ category: 'message', type: 'text', data: { text: value } }) as const;
const texts = (messages: Message[]) => messages.map((m) => m.data.text);

/** Bob's view of his conversation with alice, as the service stored it. */
async function storedTexts(): Promise<unknown[]> {
  const reader = clientOf(service);
  await reader.login({ uid: 'bob' });
  return texts((await reader.messages(toAlice)).messages);
}

describe('the realtime channel', () => {
  it("delivers another user's message as it is sent", async () => {
    const alice = await connected('alice');
    const bob = await connected('bob');
    const received = collect(bob, 'message');
    await alice.send(toBob, text('ping'));
    await waitFor(() => received.length === 1, 'the message');
    expect(received[0]).toMatchObject({ sender: 'alice', data: { text: 'ping' } });
  });

  it("does not echo this page's own messages back, but shows them on the user's other devices", async () => {
    const page = await connected('alice');
    const otherTab = await connected('alice');
    const onPage = collect(page, 'message');
    const onOtherTab = collect(otherTab, 'message');
    await page.send(toBob, text('from tab one'));
    await waitFor(() => onOtherTab.length === 1, 'the other tab');
    await (await connected('bob')).send(toAlice, text('a later message'));
    await waitFor(() => onPage.length === 1, 'the later message');
    expect(texts(onPage)).toEqual(['a later message']);
  });

  it('relays typing in a conversation', async () => {
    const alice = await connected('alice');
    const bob = await connected('bob');
    const typing = collect(bob, 'typing');
    alice.sendTyping(toBob, true);
    await waitFor(() => typing.length === 1, 'typing');
    expect(typing[0]).toMatchObject({ target: toAlice, typing: true, user: { uid: 'alice' } });
  });

  it('tells the sender when a message was read', async () => {
    const alice = await connected('alice');
    const bob = await connected('bob');
    const receipts = collect(alice, 'receipt');
    const sent = await alice.send(toBob, text('read me'));
    const message = sent.status === 'sent' ? sent.message : undefined;
    expect(bob.sendReceipt(message!, 'read')).toBe(true);
    await waitFor(() => receipts.length === 1, 'the receipt');
    expect(receipts[0]).toMatchObject({ action: 'read', messageId: message!.id, target: toBob });
  });

  it('never sends the session token or JWT in a frame', async () => {
    const wire = new Wire();
    const alice = await connected('alice', {}, wire);
    alice.sendTyping({ type: 'group', id: 'support' }, true);
    await waitFor(() => wire.frames.length === 2, 'the typing frame');
    const typingFrame = JSON.stringify(wire.frames[1]);
    expect(typingFrame).not.toContain(alice.me!.authToken);
    expect(typingFrame).not.toContain(alice.me!.jwt);
  });

  it('reports when an interaction goal was completed', async () => {
    const alice = await connected('alice');
    const bob = await connected('bob');
    const completed = collect(alice, 'interactionCompleted');
    const form = await service.sendAs('alice', toBob, {
      category: 'interactive',
      type: 'form',
      data: {
        interactionGoal: { type: 'anyAction', elementIds: [] },
        interactiveData: {
          title: 'T',
          formFields: [],
          submitElement: { elementType: 'button', elementId: 'go', buttonText: 'Go' },
        },
      },
    });
    await bob.markInteracted(form.id, 'go');
    await waitFor(() => completed.length === 1, 'the interaction');
    expect(completed[0]).toMatchObject({ messageId: form.id, interactions: [{ elementId: 'go' }] });
  });
});

describe('staying connected', () => {
  it('gives up a socket on a frozen network, where nothing closes, and connects again once it thaws', async () => {
    const alice = await connected('alice', {
      host: network.url,
      keepAlive: { intervalMs: 30, pongTimeoutMs: 30 },
    });
    const states = collect(alice, 'connection');
    network.freeze();
    await waitFor(() => states.includes('waiting'), 'the socket to be given up');
    network.thaw();
    await waitFor(() => alice.connection === 'connected', 'the reconnect');
  });

  it('reconnects after the service restarts and fetches the messages sent meanwhile', async () => {
    const alice = await connected('alice');
    const received = collect(alice, 'message');
    await alice.messages(toBob); // the page has seen this conversation
    await service.stop();
    await waitFor(() => alice.connection === 'waiting', 'the lost connection');
    await service.start();
    await service.sendAs('bob', toAlice, { data: { text: 'while you were away' } });
    await waitFor(() => received.length === 1, 'the missed message');
    expect(texts(received)).toEqual(['while you were away']);
  });

  it('fetches what was missed while the network was down', async () => {
    const alice = await connected('alice', { host: network.url });
    const received = collect(alice, 'message');
    await alice.messages(toBob);
    network.freeze();
    network.cut();
    await service.sendAs('bob', toAlice, { data: { text: 'sent into the void' } });
    network.thaw();
    await waitFor(() => texts(received).includes('sent into the void'), 'the missed message');
  });

  it('fetches what was sent between loading a conversation and its first socket', async () => {
    let socketsReachTheService = false;
    // Until then every socket goes to a closed port, as on a page whose socket is slow to come up.
    const alice = clientOf(service, {
      createSocket: (url) =>
        new WebSocket(socketsReachTheService ? url : url.replace(/:\d+\//, ':1/')) as unknown as SocketLike,
    });
    const received = collect(alice, 'message');
    await alice.login({ uid: 'alice' });
    await alice.messages(toBob);
    await service.sendAs('bob', toAlice, { data: { text: 'before the socket was up' } });
    socketsReachTheService = true;
    await waitFor(() => texts(received).includes('before the socket was up'), 'the message sent meanwhile');
  });

  it('does not repeat, when catching up, a reply that its parent already counts', async () => {
    let socketsReachTheService = false;
    const alice = clientOf(service, {
      createSocket: (url) =>
        new WebSocket(socketsReachTheService ? url : url.replace(/:\d+\//, ':1/')) as unknown as SocketLike,
    });
    const received = collect(alice, 'message');
    await alice.login({ uid: 'alice' });
    const parent = await service.sendAs('bob', toAlice, { data: { text: 'a question' } });
    const reply = await fetch(`${service.url}/v3/messages/${parent.id}/thread`, {
      method: 'POST',
      headers: { apikey: API_KEY, appid: APP_ID, onBehalfOf: 'bob', 'content-type': 'application/json' },
      body: JSON.stringify({
        receiver: 'alice',
        receiverType: 'user',
        category: 'message',
        type: 'text',
        data: { text: 'a reply' },
      }),
    });
    expect(reply.status).toBe(200);
    await alice.messages(toBob); // the parent, its reply counted on it
    await service.sendAs('bob', toAlice, { data: { text: 'after the reply' } });
    socketsReachTheService = true;
    await waitFor(() => texts(received).includes('after the reply'), 'the message sent meanwhile');
    expect(texts(received)).toEqual(['after the reply']);
  });

  it('ends the session when the service refuses the socket because the token was revoked', async () => {
    const alice = await connected('alice', { host: network.url });
    const ended = new Promise((resolve) => alice.events.on('sessionEnded', resolve));
    await service.admin.deleteAuthToken('alice', alice.me!.authToken);
    network.cut();
    await ended;
    expect(alice.me).toBeUndefined();
    expect(alice.connection).toBe('stopped');
  });
});

describe('the offline queue', () => {
  it('keeps messages written while the service is down and sends them in order once it is back', async () => {
    const alice = await connected('alice');
    const sent = collect(alice, 'sent');
    await service.stop();
    const first = await alice.send(toBob, text('one'));
    const second = await alice.send(toBob, text('two'));
    expect([first.status, second.status]).toEqual(['queued', 'queued']);
    expect(alice.queued.map((q) => q.muid)).toEqual([first.muid, second.muid]);
    await service.start();
    await waitFor(() => sent.length === 2, 'the queued messages');
    expect(sent.map((s) => s.muid)).toEqual([first.muid, second.muid]);
    expect(alice.queued).toHaveLength(0);
    expect(await storedTexts()).toEqual(['one', 'two']);
  });

  it('sends a new message after the queued ones, never before', async () => {
    const alice = await connected('alice');
    await service.stop();
    await alice.send(toBob, text('first'));
    await service.start();
    await alice.send(toBob, text('second'));
    await waitFor(() => alice.queued.length === 0, 'the queue to empty');
    expect(await storedTexts()).toEqual(['first', 'second']);
  });

  it('sends the queue only after fetching what was missed, so nothing missed is skipped', async () => {
    const alice = await connected('alice');
    const received = collect(alice, 'message');
    await alice.messages(toBob);
    await service.stop();
    await alice.send(toBob, text('queued'));
    await service.start();
    await service.sendAs('bob', toAlice, { data: { text: 'missed' } });
    await waitFor(() => alice.queued.length === 0, 'the queue to be sent');
    await waitFor(() => texts(received).includes('missed'), 'the missed message');
  });

  it('is emptied on logout', async () => {
    const alice = await connected('alice');
    await service.stop();
    await alice.send(toBob, text('never mind'));
    await alice.logout();
    expect(alice.queued).toHaveLength(0);
  });
});
