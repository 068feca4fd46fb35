import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type Frame, type TestClient } from '../server/client-support.js';
import {
  APP_ONE,
  ENGINES,
  createTestStore,
  startTestServer,
  textMessage,
  uniqueId,
  type TestServer,
  type TestStore,
} from '../server/support.js';

/**
 * The attack: mallory, an ordinary user, walks every client route and every realtime frame kind
 * looking for what alice and a bot keep in `metadata["@private"]` (CometChat apps keep e-mail
 * addresses and phone numbers there). Only the user themself and the server API may read it.
 */
describe.each(ENGINES)('private metadata on %s', (engine) => {
  const MARKER = `pii-${randomBytes(6).toString('hex')}`;
  let store: TestStore;
  let api: TestServer;
  let alice: TestClient;
  let mallory: TestClient;
  const ids = { alice: '', mallory: '', bot: '', dave: '', group: '' };
  /** Everything mallory's client was answered, by route. */
  const answers = new Map<string, unknown>();

  const text = (receiver: string, body: string, receiverType: 'user' | 'group' = 'user') => ({
    ...textMessage(receiver, body, receiverType),
    text: body,
  });
  const messageFrame = (id: string) => (frame: Frame) => frame.type === 'message' && frame.body?.id === id;

  beforeAll(async () => {
    store = await createTestStore(engine);
    api = await startTestServer(store);
    ids.alice = uniqueId('alice');
    ids.mallory = uniqueId('mallory');
    ids.bot = uniqueId('bot');
    ids.dave = uniqueId('dave');
    ids.group = uniqueId('group');
    const privately = (who: string) => ({ '@private': { email: `${who}@${MARKER}.example` }, team: 'blue' });
    for (const [uid, metadata] of [
      [ids.alice, privately('alice')],
      [ids.bot, privately('bot')],
      [ids.mallory, { '@private': { email: 'mallory-own@example' } }],
      [ids.dave, undefined],
    ] as const) {
      const created = await api.call('POST', '/users', { body: { uid, name: uid, metadata } });
      expect(created.status).toBe(200);
    }
    const group = await api.call('POST', '/groups', {
      body: {
        guid: ids.group,
        name: 'Open group',
        type: 'public',
        members: { participants: [ids.mallory, ids.bot] },
      },
      onBehalfOf: ids.alice,
    });
    expect(group.status).toBe(200);
    // A row as the service stored action messages before snapshots left private metadata out.
    const aliceEntity = (await api.call('GET', `/users/${ids.alice}`)).body.data;
    await api.server.core.messages.insert(
      APP_ONE.appId,
      {
        conversationId: `group_${ids.group}`,
        sender: ids.alice,
        receiverType: 'group',
        receiver: ids.group,
        category: 'action',
        type: 'groupMember',
        data: {
          action: 'joined',
          entities: {
            by: { entity: aliceEntity, entityType: 'user' },
            on: { entity: aliceEntity, entityType: 'user' },
          },
        },
        sentAt: Math.floor(Date.now() / 1000),
      },
      api.server.core.store.db,
    );
    mallory = await connectClient(api.server, APP_ONE, ids.mallory);
    alice = await connectClient(api.server, APP_ONE, ids.alice);
  });
  afterAll(async () => {
    await alice?.close();
    await mallory?.close();
    await api?.close();
    await store?.dispose();
  });

  it('never reaches another user in any realtime frame kind', async () => {
    await mallory.next(
      (frame) => frame.type === 'presence' && frame.sender === ids.alice,
      "alice's presence",
    );
    const toMallory = await alice.call('POST', '/messages', text(ids.mallory, 'hello mallory'));
    const inGroup = await alice.call('POST', '/messages', text(ids.group, 'hello group', 'group'));
    const fromBot = await api.call('POST', `/bots/${ids.bot}/messages`, {
      body: textMessage(ids.group, 'beep', 'group'),
    });
    const fromMallory = await mallory.call('POST', '/messages', text(ids.alice, 'hi alice'));
    const edited = await alice.call('PUT', `/messages/${toMallory.body.data.id}`, {
      text: 'hello again',
      data: { text: 'hello again' },
    });
    const deleted = await alice.call('DELETE', `/messages/${inGroup.body.data.id}`);
    const added = await api.call('POST', `/groups/${ids.group}/members`, {
      body: { participants: [ids.dave] },
      onBehalfOf: ids.alice,
    });
    const form = await mallory.call('POST', '/messages', {
      receiver: ids.alice,
      receiverType: 'user',
      category: 'interactive',
      type: 'form',
      data: {
        interactionGoal: { type: 'anyAction', elementIds: [] },
        interactiveData: {
          title: 'Tell me',
          formFields: [{ elementType: 'textInput', elementId: 'answer', label: 'Answer' }],
          submitElement: {
            elementType: 'button',
            elementId: 'submit',
            buttonText: 'Send',
            action: { actionType: 'urlNavigation', url: 'https://example.com/thanks' },
          },
        },
      },
    });
    const submitted = await alice.call('PATCH', `/messages/${form.body.data.id}/interacted`, {
      interactions: ['submit'],
      formData: { answer: 'yes' },
    });
    for (const response of [
      toMallory,
      inGroup,
      fromBot,
      fromMallory,
      edited,
      deleted,
      added,
      form,
      submitted,
    ])
      expect(response.status).toBe(200);
    alice.send({
      type: 'typing_indicator',
      receiver: ids.mallory,
      receiverType: 'user',
      body: { action: 'started' },
    });
    alice.send({
      type: 'typing_indicator',
      receiver: ids.group,
      receiverType: 'group',
      body: { action: 'ended' },
    });
    alice.send({
      type: 'transient_message',
      receiver: ids.mallory,
      receiverType: 'user',
      body: { data: { x: 1 } },
    });
    alice.send({ type: 'receipts', body: { action: 'read', messageId: fromMallory.body.data.id } });

    const groupAction = added.body.data.participants[ids.dave].data as { id: string };
    for (const [id, what] of [
      [toMallory.body.data.id, 'the text to mallory'],
      [inGroup.body.data.id, 'the group text'],
      [fromBot.body.data.id, 'the bot message'],
      [edited.body.data.id, 'the edited action'],
      [deleted.body.data.id, 'the deleted action'],
      [groupAction.id, 'the added action'],
    ] as const)
      await mallory.next(messageFrame(id), what);
    for (const kind of ['typing_indicator', 'transient_message', 'receipts', 'interaction_completed'])
      await mallory.next((frame) => frame.type === kind && frame.sender === ids.alice, kind);
    // Every frame kind the service sends reached mallory carrying alice or the bot.
    expect([...new Set(mallory.frames.map((frame) => frame.type))]).toEqual(
      expect.arrayContaining([
        'presence',
        'message',
        'typing_indicator',
        'transient_message',
        'receipts',
        'interaction_completed',
      ]),
    );
    expect(JSON.stringify(mallory.frames)).not.toContain(MARKER);
  });

  it('never reaches another user in any client API answer', async () => {
    const sent = await alice.call('POST', '/messages', text(ids.mallory, 'for the walk'));
    const groupMessage = await api.call('POST', `/bots/${ids.bot}/messages`, {
      body: textMessage(ids.group, 'bot in the group', 'group'),
    });
    const routes = [
      ['POST', '/messages', text(ids.alice, 'walking')],
      ['GET', '/users'],
      [`GET`, `/users?searchKey=${ids.alice}`],
      ['GET', `/users/${ids.alice}`],
      ['GET', `/users/${ids.bot}`],
      ['GET', `/users/${ids.alice}/messages`],
      ['GET', `/users/${ids.alice}/conversation`],
      ['GET', `/groups/${ids.group}/messages`],
      ['GET', `/groups/${ids.group}/conversation`],
      ['GET', `/groups/${ids.group}/members`],
      ['GET', `/groups/${ids.group}`],
      ['GET', '/groups'],
      ['GET', '/messages'],
      ['GET', '/conversations'],
      ['GET', `/messages/${sent.body.data.id}`],
      ['GET', `/messages/${groupMessage.body.data.id}`],
    ] as const;
    for (const [method, path, body] of routes) {
      const answer = await mallory.call(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(200);
      answers.set(`${method} ${path}`, answer.body);
    }
    const seen = JSON.stringify([...answers.values()]);
    // The walk did meet alice and the bot, with what they share with everyone.
    expect(seen).toContain(ids.alice);
    expect(seen).toContain(ids.bot);
    expect(seen).toContain('"team":"blue"');
    expect(seen).not.toContain(MARKER);
  });

  it('still reaches the user themself and the server API', async () => {
    expect(JSON.stringify((await alice.call('GET', '/me')).body)).toContain(MARKER);
    expect(JSON.stringify((await alice.call('GET', `/users/${ids.alice}`)).body)).toContain(MARKER);
    expect(JSON.stringify((await mallory.call('GET', '/me')).body)).toContain('mallory-own@example');
    expect(JSON.stringify((await api.call('GET', `/users/${ids.alice}`)).body)).toContain(MARKER);
    expect(JSON.stringify((await api.call('GET', '/users')).body)).toContain(MARKER);
  });

  it('is not kept in stored action messages, so history does not carry it', async () => {
    const history = await api.call('GET', `/groups/${ids.group}/messages?perPage=100`, {
      onBehalfOf: ids.alice,
    });
    const actions = (history.body.data as { category: string }[]).filter((m) => m.category === 'action');
    expect(actions.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(actions)).toContain(ids.alice);
    expect(JSON.stringify(actions)).not.toContain(MARKER);
    const rows = await api.server.core.store.db
      .selectFrom('messages')
      .select('data')
      .where('category', '=', 'action')
      .where('app_id', '=', APP_ONE.appId)
      .execute();
    // Only the row planted as an older version wrote it still holds the value.
    expect(rows.filter((row) => row.data.includes(MARKER))).toHaveLength(1);
  });
});
