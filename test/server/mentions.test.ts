import { beforeAll, describe, expect, it } from 'vitest';
import { connectClient } from './client-support.js';
import { APP_ONE, ENGINES, apiFixtures, textMessage, useTestServer } from './support.js';

/**
 * Mentions through the REST API (the SDK's side is in the SDK contract): what `<@uid:…>` in a text
 * becomes, the mention filters of message lists, and the members search the @-suggestions use.
 */
describe.each(ENGINES)('mentions on %s', (engine) => {
  const api = useTestServer(engine);
  let alice: string;
  let bob: string;
  let carol: string;
  let guid: string;
  let mentionId: string;

  const send = (sender: string, body: unknown) => api.call('POST', '/messages', { body, onBehalfOf: sender });
  const idsOf = async (query: string, onBehalfOf: string): Promise<string[]> => {
    const response = await api.call('GET', `/groups/${guid}/messages?${query}`, { onBehalfOf });
    expect(response.status).toBe(200);
    return (response.body.data as { id: string }[]).map((message) => message.id);
  };

  beforeAll(async () => {
    const { createUser, createGroup } = apiFixtures(api.call);
    alice = await createUser('alice');
    bob = await createUser('bob', { metadata: { '@private': { phone: '555-0100' }, team: 'blue' } });
    carol = await createUser('carol');
    guid = await createGroup(alice, [bob]);
    const sent = await send(
      alice,
      textMessage(guid, `hi <@uid:${bob}>, <@uid:${carol}>, <@uid:nobody>`, 'group'),
    );
    expect(sent.status).toBe(200);
    mentionId = sent.body.data.id as string;
    expect((await send(alice, textMessage(guid, 'nobody named', 'group'))).status).toBe(200);
  });

  it('keeps as mentions only the users who exist and belong to the group', async () => {
    const { body } = await api.call('GET', `/messages/${mentionId}`);
    expect(Object.keys(body.data.data.mentions as object)).toEqual([bob]);
    expect(body.data.data.mentions[bob]).toMatchObject({ uid: bob, name: `Name of ${bob}` });
  });

  it('stores no private metadata of a mentioned user, so no reader gets it', async () => {
    const reader = await connectClient(api.server, APP_ONE, alice, { socket: false });
    const { body } = await reader.call('GET', `/groups/${guid}/messages?hasMentions=1`);
    expect(body.data[0].data.mentions[bob].metadata).toEqual({ team: 'blue' });
    expect(JSON.stringify(body)).not.toContain('555-0100');
    expect(JSON.stringify((await api.call('GET', `/messages/${mentionId}`)).body)).not.toContain('555-0100');
  });

  it('drops mentions a sender writes into data itself', async () => {
    const forged = {
      ...textMessage(guid, 'plain', 'group'),
      data: { text: 'plain', mentions: { [carol]: { uid: carol } } },
    };
    const sent = await send(alice, forged);
    expect(sent.status).toBe(200);
    expect(sent.body.data.data.mentions).toBeUndefined();
    expect(await idsOf(`mentionedUids=${carol}`, alice)).toEqual([]);
  });

  it('lists only messages with mentions for hasMentions', async () => {
    expect(await idsOf('hasMentions=true', alice)).toEqual([mentionId]);
  });

  it('lists messages mentioning any of mentionedUids, whatever their case', async () => {
    expect(await idsOf(`mentionedUids=${carol},${bob.toUpperCase()}`, alice)).toEqual([mentionId]);
    expect(await idsOf(`mentionedUids=${alice}`, alice)).toEqual([]);
  });

  it('lists the messages that mention the onBehalfOf user for myMentionsOnly', async () => {
    expect(await idsOf('myMentionsOnly=true', bob)).toEqual([mentionId]);
    expect(await idsOf('myMentionsOnly=true', alice)).toEqual([]);
  });

  it('refuses a mention filter that is not a boolean, naming it', async () => {
    const response = await api.call('GET', `/groups/${guid}/messages?hasMentions=maybe`, {
      onBehalfOf: alice,
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body.error)).toContain('hasMentions');
  });

  it('recomputes the mentions when the text is edited: a new mention counts, a removed one no longer does', async () => {
    const id = (await send(alice, textMessage(guid, 'see you there', 'group'))).body.data.id as string;
    const edit = (text: string) => api.call('PUT', `/messages/${id}`, { body: { text }, onBehalfOf: alice });
    expect((await edit(`see you there, <@uid:${bob}>`)).status).toBe(200);
    const mentions = async () => (await api.call('GET', `/messages/${id}`)).body.data.data.mentions;
    expect(Object.keys((await mentions()) as object)).toEqual([bob]);
    expect(await idsOf('myMentionsOnly=true', bob)).toContain(id);
    expect(JSON.stringify(await mentions())).not.toContain('555-0100');
    expect((await edit('see you there, everyone')).status).toBe(200);
    expect(await mentions()).toBeUndefined();
    expect(await idsOf('myMentionsOnly=true', bob)).not.toContain(id);
  });

  it('lists the group members whose name or UID contains the searchKey, literally', async () => {
    const uidsOf = async (searchKey: string) => {
      const response = await api.call(
        'GET',
        `/groups/${guid}/members?searchKey=${encodeURIComponent(searchKey)}`,
      );
      expect(response.status).toBe(200);
      return (response.body.data as { uid: string }[]).map((member) => member.uid);
    };
    expect(await uidsOf('NAME OF BOB')).toEqual([bob]);
    expect(await uidsOf('carol')).toEqual([]);
    expect(await uidsOf('%')).toEqual([]);
    expect((await uidsOf('')).sort()).toEqual([alice, bob].sort());
  });
});
