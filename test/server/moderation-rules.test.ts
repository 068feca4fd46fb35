import { beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient } from './client-support.js';
import {
  APP_ONE,
  APP_TWO,
  ENGINES,
  apiFixtures,
  callServerApi,
  injectFailure,
  moderationOf,
  textMessage,
  uniqueId,
  useTestServer,
} from './support.js';

/**
 * Moderation rules that act: a message matching an enabled blocking rule is held back on both send
 * paths (the sender learns it was disapproved, nobody else hears of it), listed for review, and
 * sent once a moderator approves it.
 */
describe.each(ENGINES)('moderation rules on %s', (engine) => {
  const api = useTestServer(engine);
  let alice: TestClient;
  let bob: TestClient;

  beforeAll(async () => {
    const { createUser } = apiFixtures(api.call);
    alice = await connectClient(api.server, APP_ONE, await createUser('alice'));
    bob = await connectClient(api.server, APP_ONE, await createUser('bob'));
  });

  /** A word no other test uses, so the rules of one test never hold another's messages. */
  const word = (): string => uniqueId('w').replaceAll('-', '');

  const addRule = async (condition: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const id = uniqueId('rule');
    const created = await api.call('POST', '/moderation/rules', {
      body: {
        id,
        name: `Rule ${id}`,
        conditions: [
          { entity: 'message', operand: 'text', category: 'word', operator: 'contains', ...condition },
        ],
        action: ['blockMessage'],
        ...extra,
      },
    });
    expect(created.status).toBe(200);
    return created.body.data as { id: string; revisionId: string; conditions: Array<{ id: number }> };
  };

  const addKeywords = async (searchTerms: string[]) => {
    const id = uniqueId('list');
    const created = await api.call('POST', '/moderation/keywords', {
      body: { id, name: `List ${id}`, searchTerms },
    });
    expect(created.status).toBe(200);
    return id;
  };

  const sendAsAlice = (text: string) =>
    api.call('POST', '/messages', { body: textMessage(bob.uid, text), onBehalfOf: alice.uid });

  const historyOfBob = async (): Promise<string[]> =>
    (await bob.call('GET', `/users/${alice.uid}/messages?per_page=100`)).body.data.map(
      (message: { data: { text?: string } }) => message.data.text,
    );

  const blockedList = async () =>
    (await api.call('GET', '/moderation/blocked-messages')).body.data as Array<{
      ruleId: string;
      status: string;
      condition: { id: number; value: string[] };
      message: { id: string; data: { text: string; moderation?: { status: string } } };
      deliveredMessageId?: string;
    }>;

  it('holds back a server API message with a word of a keyword list and lists it for review', async () => {
    const bad = word();
    const list = await addKeywords([bad, 'another term']);
    const rule = await addRule({ isKeywordsReferencePresent: true, value: [list] });
    const text = `this has ${bad.toUpperCase()} in it`;
    const sent = await sendAsAlice(text);
    expect(sent.status).toBe(200);
    expect(moderationOf(sent)).toEqual({ status: 'disapproved' });
    expect(await historyOfBob()).not.toContain(text);
    const entry = (await blockedList()).find((item) => item.message.id === sent.body.data.id);
    expect(entry).toMatchObject({
      ruleId: rule.id,
      status: 'blocked',
      condition: { id: 1, value: [list] },
      message: { data: { text, moderation: { status: 'disapproved' } } },
    });
  });

  it('holds back a message sent through the client API: the receiver hears nothing, the sender the verdict', async () => {
    const bad = word();
    await addRule({ value: [bad] });
    const text = `client says ${bad}`;
    const sent = await alice.call('POST', '/messages', textMessage(bob.uid, text));
    expect(sent.status).toBe(200);
    expect(moderationOf(sent)?.status).toBe('disapproved');
    const verdict = await alice.next(
      (frame) => frame.type === 'on_moderation_status_changed' && frame.body?.data?.text === text,
      'the moderation verdict',
    );
    expect(verdict.body.data.moderation.status).toBe('disapproved');
    // A later message reaches Bob; the held one never did before it.
    const later = `after ${word()}`;
    await alice.call('POST', '/messages', textMessage(bob.uid, later));
    await bob.next(
      (frame) => frame.type === 'message' && frame.body?.data?.text === later,
      'the later message',
    );
    expect(bob.frames.some((frame) => frame.body?.data?.text === text)).toBe(false);
  });

  it('sends an approved message to its receiver, marked approved, and tells the sender', async () => {
    const bad = word();
    await addRule({ value: [bad] });
    const text = `borderline ${bad}`;
    const held = (await sendAsAlice(text)).body.data.id as string;
    const approved = await api.call('PATCH', `/moderation/blocked-messages/${held}`, {
      body: { status: 'approved' },
    });
    expect(approved.status).toBe(200);
    const delivered = await bob.next(
      (frame) => frame.type === 'message' && frame.body?.data?.text === text,
      'the approved message',
    );
    expect(delivered.body.data.moderation).toEqual({ status: 'approved' });
    const told = await alice.next(
      (frame) =>
        frame.type === 'on_moderation_status_changed' &&
        frame.body?.data?.text === text &&
        frame.body?.data?.moderation?.status === 'approved',
      'the approval',
    );
    expect(told.body.id).toBe(delivered.body.id);
    expect(await historyOfBob()).toContain(text);
    const entry = (await blockedList()).find((item) => item.message.id === held);
    expect(entry).toMatchObject({ status: 'approved', deliveredMessageId: delivered.body.id });
    const again = await api.call('PATCH', `/moderation/blocked-messages/${held}`, {
      body: { status: 'approved' },
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('ERR_ALREADY_APPROVED');
  });

  it('delivers an approved message under the id and time its sender was answered with, in its place', async () => {
    const bad = word();
    await addRule({ value: [bad] });
    const text = `in place ${bad}`;
    const held = (await sendAsAlice(text)).body.data as { id: string; sentAt: number };
    const later = `later ${word()}`;
    const newer = (await sendAsAlice(later)).body.data as { id: string };
    expect(Number(newer.id)).toBeGreaterThan(Number(held.id));
    const approved = await api.call('PATCH', `/moderation/blocked-messages/${held.id}`, {
      body: { status: 'approved' },
    });
    expect(approved.status).toBe(200);
    const delivered = await bob.next(
      (frame) => frame.type === 'message' && frame.body?.data?.text === text,
      'the approved message',
    );
    expect(delivered.body).toMatchObject({ id: held.id, sentAt: held.sentAt });
    const told = await alice.next(
      (frame) =>
        frame.type === 'on_moderation_status_changed' &&
        frame.body?.data?.text === text &&
        frame.body?.data?.moderation?.status === 'approved',
      'the approval',
    );
    expect(told.body.id).toBe(held.id);
    const history = await historyOfBob();
    expect(history.indexOf(text)).toBeLessThan(history.indexOf(later));
    // The conversation's last message stays the newest one.
    const conversation = await bob.call('GET', `/users/${alice.uid}/conversation`);
    expect(conversation.body.data.lastMessage.id).toBe(newer.id);
    const entry = (await blockedList()).find((item) => item.message.id === held.id);
    expect(entry).toMatchObject({ status: 'approved', deliveredMessageId: held.id });
  });

  it('approves a message with its send or not at all: a failed send leaves it to approve again', async () => {
    const bad = word();
    await addRule({ value: [bad] });
    const text = `retried ${bad}`;
    const held = (await sendAsAlice(text)).body.data.id as string;
    const { store } = api.server.core;
    // The send fails, and so does any write that would put the message back to blocked: what a
    // process that dies after the verdict leaves behind.
    const allowSends = await injectFailure(store, 'messages', 'insert', undefined, 'failed_send');
    const allowUndo = await injectFailure(
      store,
      'moderation_blocked_messages',
      'update',
      "new.status = 'blocked'",
      'failed_undo',
    );
    const failed = await api.call('PATCH', `/moderation/blocked-messages/${held}`, {
      body: { status: 'approved' },
    });
    await allowSends();
    await allowUndo();
    expect(failed.status).toBe(500);
    expect((await blockedList()).find((item) => item.message.id === held)?.status).toBe('blocked');
    const approved = await api.call('PATCH', `/moderation/blocked-messages/${held}`, {
      body: { status: 'approved' },
    });
    expect(approved.status).toBe(200);
    await bob.next((frame) => frame.type === 'message' && frame.body?.data?.text === text, 'the message');
    expect(await historyOfBob()).toContain(text);
  });

  it('sends a message two moderators approve at once only once', async () => {
    const bad = word();
    await addRule({ value: [bad] });
    const text = `twice ${bad}`;
    const held = (await sendAsAlice(text)).body.data.id as string;
    const approve = () =>
      api.call('PATCH', `/moderation/blocked-messages/${held}`, { body: { status: 'approved' } });
    const answers = await Promise.all([approve(), approve()]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect((await historyOfBob()).filter((seen) => seen === text)).toHaveLength(1);
  });

  it('keeps a rejected message back', async () => {
    const bad = word();
    await addRule({ value: [bad] });
    const text = `really ${bad}`;
    const held = (await sendAsAlice(text)).body.data.id as string;
    const rejected = await api.call('PATCH', `/moderation/blocked-messages/${held}`, {
      body: { status: 'rejected', reviewed: true },
    });
    expect(rejected.status).toBe(200);
    expect((await blockedList()).find((item) => item.message.id === held)?.status).toBe('rejected');
    expect(await historyOfBob()).not.toContain(text);
  });

  it('matches whole words only, and equals only the whole text', async () => {
    const bad = word();
    await addRule({ value: [bad] });
    const exact = word();
    await addRule({ operator: 'equals', value: [exact] });
    for (const text of [`${bad}ish is not the word`, `say ${exact} and more`]) {
      const sent = await sendAsAlice(text);
      expect(moderationOf(sent)).toBeUndefined();
    }
    expect(moderationOf(await sendAsAlice(`  ${exact.toUpperCase()} `))?.status).toBe('disapproved');
  });

  it('lets a disabled rule, and a custom message’s text, through or not as the operand says', async () => {
    const bad = word();
    const rule = await addRule({ value: [bad] }, { enabled: false });
    expect(moderationOf(await sendAsAlice(`quiet ${bad}`))).toBeUndefined();
    await api.call('PUT', `/moderation/rules/${rule.id}`, { body: { enabled: true } });
    expect(moderationOf(await sendAsAlice(`loud ${bad}`))?.status).toBe('disapproved');
    const custom = {
      receiver: bob.uid,
      receiverType: 'user',
      category: 'custom',
      type: 'poll',
      data: { customData: { options: [`a ${bad}`] } },
    };
    // The rule looks at text messages only; one on custom messages holds this back.
    expect(
      (await api.call('POST', '/messages', { body: custom, onBehalfOf: alice.uid })).body.data.data
        .moderation,
    ).toBeUndefined();
    await addRule({ operand: 'custom', value: [bad] });
    const held = await api.call('POST', '/messages', { body: custom, onBehalfOf: alice.uid });
    expect(moderationOf(held)?.status).toBe('disapproved');
  });

  it('acts on a keyword list’s new terms from the next message on', async () => {
    const first = word();
    const later = word();
    const list = await addKeywords([first]);
    await addRule({ isKeywordsReferencePresent: true, value: [list] });
    expect(moderationOf(await sendAsAlice(`say ${later}`))).toBeUndefined();
    const changed = await api.call('PUT', `/moderation/keywords/${list}`, { body: { searchTerms: [later] } });
    expect(changed.body.data).toMatchObject({
      searchTerms: [later],
      revisionId: `${APP_ONE.appId}_${list}_2`,
    });
    expect(moderationOf(await sendAsAlice(`say ${later}`))?.status).toBe('disapproved');
    expect(moderationOf(await sendAsAlice(`say ${first}`))).toBeUndefined();
  });

  it('keeps every revision of a rule, newest first, and forgets them with the rule', async () => {
    const rule = await addRule({ value: [word()] });
    const renamed = await api.call('PUT', `/moderation/rules/${rule.id}`, { body: { name: 'Renamed' } });
    expect(renamed.body.data).toMatchObject({ name: 'Renamed', revisionId: `${APP_ONE.appId}_${rule.id}_2` });
    const revisions = await api.call('GET', `/moderation/rules/${rule.id}/revisions`);
    expect(revisions.body.data.map((item: { revisionId: string }) => item.revisionId)).toEqual([
      `${APP_ONE.appId}_${rule.id}_2`,
      rule.revisionId,
    ]);
    expect(revisions.body.data[1].name).toBe(`Rule ${rule.id}`);
    expect((await api.call('GET', `/moderation/rules/${rule.id}`)).body.data.name).toBe('Renamed');
    expect((await api.call('DELETE', `/moderation/rules/${rule.id}`)).body.data.success).toBe(true);
    for (const path of [`/moderation/rules/${rule.id}`, `/moderation/rules/${rule.id}/revisions`]) {
      const gone = await api.call('GET', path);
      expect(gone.status).toBe(404);
      expect(gone.body.error.code).toBe('ERR_RULE_NOT_FOUND');
    }
  });

  it('sends again once the blocking rule is deleted', async () => {
    const bad = word();
    const rule = await addRule({ value: [bad] });
    expect(moderationOf(await sendAsAlice(`one ${bad}`))?.status).toBe('disapproved');
    await api.call('DELETE', `/moderation/rules/${rule.id}`);
    const sent = await sendAsAlice(`two ${bad}`);
    expect(moderationOf(sent)).toBeUndefined();
    expect(await historyOfBob()).toContain(`two ${bad}`);
  });

  it('keeps a keyword list a rule names', async () => {
    const list = await addKeywords([word()]);
    const rule = await addRule({ isKeywordsReferencePresent: true, value: [list] });
    const refused = await api.call('DELETE', `/moderation/keywords/${list}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('ERR_KEYWORD_IN_USE');
    await api.call('DELETE', `/moderation/rules/${rule.id}`);
    expect((await api.call('DELETE', `/moderation/keywords/${list}`)).status).toBe(200);
    const gone = await api.call('GET', `/moderation/keywords/${list}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('ERR_KEYWORD_NOT_FOUND');
  });

  it('answers unknown rules, lists and blocked messages as missing', async () => {
    for (const [method, path, body, code] of [
      ['GET', '/moderation/rules/nothing-here', undefined, 'ERR_RULE_NOT_FOUND'],
      ['PUT', '/moderation/rules/nothing-here', { name: 'x' }, 'ERR_RULE_NOT_FOUND'],
      ['DELETE', '/moderation/rules/nothing-here', undefined, 'ERR_RULE_NOT_FOUND'],
      ['GET', '/moderation/keywords/nothing-here', undefined, 'ERR_KEYWORD_NOT_FOUND'],
      ['PUT', '/moderation/keywords/nothing-here', { searchTerms: ['x'] }, 'ERR_KEYWORD_NOT_FOUND'],
      ['DELETE', '/moderation/keywords/nothing-here', undefined, 'ERR_KEYWORD_NOT_FOUND'],
      [
        'PATCH',
        '/moderation/blocked-messages/999999999',
        { status: 'approved' },
        'ERR_BLOCKED_MESSAGE_NOT_FOUND',
      ],
      [
        'PATCH',
        '/moderation/blocked-messages/not-a-number',
        { status: 'rejected' },
        'ERR_BLOCKED_MESSAGE_NOT_FOUND',
      ],
    ] as const) {
      const answer = await api.call(method, path, body === undefined ? {} : { body });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.error.code).toBe(code);
    }
  });

  it("keeps an app's rules, lists and blocked messages from other apps, authOnly keys and clients", async () => {
    const bad = word();
    const list = await addKeywords([bad]);
    const rule = await addRule({ isKeywordsReferencePresent: true, value: [list] });
    const held = (await sendAsAlice(`secret ${bad}`)).body.data.id as string;
    for (const [method, path, body] of [
      ['GET', `/moderation/rules/${rule.id}`, undefined],
      ['PUT', `/moderation/rules/${rule.id}`, { enabled: false }],
      ['DELETE', `/moderation/rules/${rule.id}`, undefined],
      ['GET', `/moderation/rules/${rule.id}/revisions`, undefined],
      ['GET', `/moderation/keywords/${list}`, undefined],
      ['DELETE', `/moderation/keywords/${list}`, undefined],
      ['PATCH', `/moderation/blocked-messages/${held}`, { status: 'approved' }],
    ] as const) {
      const other = await callServerApi(api.url, APP_TWO, method, path, body === undefined ? {} : { body });
      expect(other.status, `${method} ${path}`).toBe(404);
    }
    const otherList = await callServerApi(api.url, APP_TWO, 'GET', '/moderation/blocked-messages');
    expect(otherList.body.data.some((item: { message: { id: string } }) => item.message.id === held)).toBe(
      false,
    );
    // Another app's messages are not held by this app's rules.
    const { createUser } = apiFixtures((method, path, options) =>
      callServerApi(api.url, APP_TWO, method, path, options),
    );
    const [carol, dave] = [await createUser('carol'), await createUser('dave')];
    const elsewhere = await callServerApi(api.url, APP_TWO, 'POST', '/messages', {
      body: textMessage(dave, `fine ${bad}`),
      onBehalfOf: carol,
    });
    expect(moderationOf(elsewhere)).toBeUndefined();
    const authOnly = await api.call('POST', '/moderation/rules', { apikey: APP_ONE.authKey, body: {} });
    expect(authOnly.status).toBe(403);
    for (const path of ['/moderation/rules', '/moderation/keywords', '/moderation/blocked-messages']) {
      const asClient = await alice.call('GET', path);
      expect(asClient.status).toBe(404);
      expect(asClient.body.error.code).toBe('ERR_API_NOT_FOUND');
    }
    expect((await api.call('GET', `/moderation/rules/${rule.id}`)).status).toBe(200);
  });

  it('drops a moderation verdict a sender claims', async () => {
    const body = {
      ...textMessage(bob.uid, `claims ${word()}`),
      data: { text: 'x', moderation: { status: 'approved' } },
    };
    const sent = await api.call('POST', '/messages', { body, onBehalfOf: alice.uid });
    expect(moderationOf(sent)).toBeUndefined();
  });

  const condition = {
    entity: 'message',
    operand: 'text',
    category: 'word',
    operator: 'contains',
    value: ['x'],
  };
  it.each([
    [{}, 'id'],
    [{ id: 'has space', name: 'x', conditions: [condition], action: ['blockMessage'] }, 'id'],
    [{ id: 'ok', name: ' ', conditions: [condition], action: ['blockMessage'] }, 'name'],
    [{ id: 'ok', name: 'x', conditions: [], action: ['blockMessage'] }, 'conditions'],
    [
      { id: 'ok', name: 'x', conditions: [{ ...condition, operand: 'image' }], action: ['blockMessage'] },
      'operand',
    ],
    [
      { id: 'ok', name: 'x', conditions: [{ ...condition, category: 'pattern' }], action: ['blockMessage'] },
      'category',
    ],
    [{ id: 'ok', name: 'x', conditions: [{ ...condition, value: [] }], action: ['blockMessage'] }, 'value'],
    [
      { id: 'ok', name: 'x', conditions: [{ ...condition, operator: 'near' }], action: ['blockMessage'] },
      'operator',
    ],
    [{ id: 'ok', name: 'x', conditions: [condition], action: ['flagMessage'] }, 'action'],
    [
      { id: 'ok', name: 'x', conditions: [condition], action: ['blockMessage'], webhookURL: 'x' },
      'webhookURL',
    ],
    [
      {
        id: 'ok',
        name: 'x',
        conditions: [{ ...condition, isKeywordsReferencePresent: true, value: ['no-such-list'] }],
        action: ['blockMessage'],
      },
      'conditions.0.value',
    ],
  ])('answers a rule %j by a 400 naming %s', async (body, field) => {
    const answer = await api.call('POST', '/moderation/rules', { body });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body.error)).toContain(field);
    expect((await api.call('GET', '/moderation/rules/ok')).status).toBe(404);
  });

  it.each([
    ['POST', '/moderation/keywords', { id: 'ok', name: 'x', searchTerms: [] }, 'searchTerms'],
    ['POST', '/moderation/keywords', { id: 'ok', name: 'x', searchTerms: ['a'.repeat(101)] }, 'searchTerms'],
    ['POST', '/moderation/keywords', { id: 'ok', name: 'x' }, 'searchTerms'],
    ['PUT', '/moderation/keywords/any', {}, 'searchTerms'],
    ['PUT', '/moderation/rules/any', {}, 'name'],
    ['PUT', '/moderation/rules/any', { enabled: 'yes' }, 'enabled'],
    ['PATCH', '/moderation/blocked-messages/1', { status: 'maybe' }, 'status'],
    ['PATCH', '/moderation/blocked-messages/1', {}, 'status'],
  ])('answers %s %s with %j by a 400 naming %s', async (method, path, body, field) => {
    const answer = await api.call(method, path, { body });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body.error)).toContain(field);
  });
});
