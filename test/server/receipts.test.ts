import { beforeAll, describe, expect, it } from 'vitest';
import { connectClient } from './client-support.js';
import { APP_ONE, ENGINES, apiFixtures, textMessage, useTestServer } from './support.js';

/**
 * Stored receipts through the REST API (the SDK's side is in the SDK contract): marking a
 * conversation delivered or read on behalf of a user marks everything up to a message, history
 * shows when, the unread count follows, and a message's receipts reach only those who see it.
 */
describe.each(ENGINES)('stored receipts on %s', (engine) => {
  const api = useTestServer(engine);
  let alice: string;
  let bob: string;
  let carol: string;
  let guid: string;
  const direct: string[] = [];

  const { sendMessage } = apiFixtures(api.call);
  const send = async (sender: string, body: unknown) => (await sendMessage(sender, body)).id;
  const mark = (uid: string, path: string, body?: unknown) =>
    api.call('POST', path, { onBehalfOf: uid, ...(body === undefined ? {} : { body }) });
  const history = async () => {
    const response = await api.call('GET', `/users/${bob}/messages`, { onBehalfOf: alice });
    expect(response.status).toBe(200);
    return new Map(
      (response.body.data as { id: string; deliveredAt?: number; readAt?: number }[]).map((message) => [
        message.id,
        message,
      ]),
    );
  };
  const unread = async () =>
    (await api.call('GET', `/users/${alice}/conversation`, { onBehalfOf: bob })).body.data.unreadMessageCount;

  beforeAll(async () => {
    const { createUser, createGroup } = apiFixtures(api.call);
    alice = await createUser('alice');
    bob = await createUser('bob', { metadata: { '@private': { phone: '555-0101' } } });
    carol = await createUser('carol');
    guid = await createGroup(alice, [bob]);
    for (const text of ['one', 'two', 'three']) direct.push(await send(alice, textMessage(bob, text)));
  });

  it('marks every message up to messageId delivered, and shows when in the history', async () => {
    expect(await unread()).toBe('3');
    const response = await mark(bob, `/users/${alice}/conversation/delivered`, {
      messageId: Number(direct[1]),
    });
    expect(response.status).toBe(200);
    expect(response.body.data.success).toBe(true);
    const seen = await history();
    expect(seen.get(direct[0] ?? '')?.deliveredAt).toEqual(expect.any(Number));
    expect(seen.get(direct[1] ?? '')?.deliveredAt).toEqual(expect.any(Number));
    expect(seen.get(direct[2] ?? '')?.deliveredAt).toBeUndefined();
    expect(seen.get(direct[0] ?? '')?.readAt).toBeUndefined();
    expect(await unread()).toBe('3');
  });

  it('marks messages up to messageId read, and the unread count follows', async () => {
    expect((await mark(bob, `/users/${alice}/conversation/read`, { messageId: direct[1] })).status).toBe(200);
    expect(await unread()).toBe('1');
    const seen = await history();
    expect(seen.get(direct[1] ?? '')?.readAt).toEqual(expect.any(Number));
    expect(seen.get(direct[2] ?? '')?.readAt).toBeUndefined();
  });

  it('marks the whole conversation read without a messageId, delivered too', async () => {
    expect((await mark(bob, `/users/${alice}/conversation/read`)).status).toBe(200);
    expect(await unread()).toBe('0');
    const last = (await history()).get(direct[2] ?? '');
    expect(last?.readAt).toEqual(expect.any(Number));
    expect(last?.deliveredAt).toEqual(expect.any(Number));
  });

  it('shows no receipt on the reader’s own messages', async () => {
    const reply = await send(bob, textMessage(alice, 'reply'));
    expect((await history()).get(reply)?.readAt).toBeUndefined();
  });

  it('refuses a messageId of another conversation, naming it, and marks nothing', async () => {
    const elsewhere = await send(alice, textMessage(carol, 'not yours'));
    const response = await mark(bob, `/users/${alice}/conversation/read`, { messageId: elsewhere });
    expect(response.status).toBe(404);
    expect(response.body.error.details.field).toBe('messageId');
    const bad = await mark(bob, `/users/${alice}/conversation/read`, { messageId: 'first' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.error)).toContain('messageId');
  });

  it("lists a group message's receipts per member, without the reader's private metadata", async () => {
    const id = await send(alice, textMessage(guid, 'group news', 'group'));
    expect((await mark(bob, `/groups/${guid}/conversation/delivered`)).status).toBe(200);
    const reader = await connectClient(api.server, APP_ONE, alice, { socket: false });
    const delivered = (await reader.call('GET', `/messages/${id}`)).body.data.receipts.data;
    expect(delivered).toEqual([
      expect.objectContaining({
        recipient: expect.objectContaining({ uid: bob }),
        deliveredAt: expect.any(Number),
      }),
    ]);
    expect(delivered[0].readAt).toBeUndefined();
    expect((await mark(bob, `/groups/${guid}/conversation/read`)).status).toBe(200);
    const { body } = await reader.call('GET', `/messages/${id}`);
    expect(body.data.receipts.data[0].readAt).toEqual(expect.any(Number));
    expect(JSON.stringify(body)).not.toContain('555-0101');
  });

  it('tells the sender in realtime when a one-to-one conversation is marked read through REST, as a client receipt does', async () => {
    const sender = await connectClient(api.server, APP_ONE, alice);
    try {
      const id = await send(alice, textMessage(bob, 'seen it?'));
      expect((await mark(bob, `/users/${alice}/conversation/read`)).status).toBe(200);
      const receipt = await sender.next(
        (frame) => frame.type === 'receipts' && frame.body?.messageId === id,
        'the read receipt',
      );
      expect(receipt).toMatchObject({
        sender: bob,
        messageSender: alice,
        receiverType: 'user',
        body: { action: 'read', messageId: id, user: { uid: bob }, timestamp: expect.any(Number) },
      });
      expect(JSON.stringify(receipt)).not.toContain('555-0101');
    } finally {
      await sender.close();
    }
  });

  it("tells a group message's sender in realtime when a member marks the group delivered through REST", async () => {
    const sender = await connectClient(api.server, APP_ONE, alice);
    try {
      const id = await send(alice, textMessage(guid, 'on its way', 'group'));
      expect((await mark(bob, `/groups/${guid}/conversation/delivered`, { messageId: id })).status).toBe(200);
      const receipt = await sender.next(
        (frame) => frame.type === 'receipts' && frame.body?.messageId === id,
        'the delivery receipt',
      );
      expect(receipt).toMatchObject({
        sender: bob,
        receiver: guid,
        receiverType: 'group',
        body: { action: 'delivered', messageId: id, user: { uid: bob } },
      });
    } finally {
      await sender.close();
    }
  });

  it('answers a user outside the conversation about its receipts as about a missing message', async () => {
    const id = await send(alice, textMessage(guid, 'members only', 'group'));
    const outsider = await connectClient(api.server, APP_ONE, carol, { socket: false });
    const response = await outsider.call('GET', `/messages/${id}`);
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('ERR_MESSAGE_ID_NOT_FOUND');
    const marked = await mark(carol, `/groups/${guid}/conversation/read`);
    expect(marked.status).toBeGreaterThanOrEqual(400);
    expect(marked.status).toBeLessThan(500);
  });
});
