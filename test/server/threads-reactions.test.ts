import { beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient } from './client-support.js';
import {
  APP_ONE,
  APP_TWO,
  ENGINES,
  apiFixtures,
  callServerApi,
  textMessage,
  useTestServer,
} from './support.js';

/**
 * Threads and reactions through the server REST API and the client API (the SDK's side is in
 * test/e2e/sdk-threads-reactions.test.ts): replies and their counts, thread pages, reactions with
 * counts and who reacted, their realtime frames, and who is refused.
 */
describe.each(ENGINES)('threads and reactions on %s', (engine) => {
  const api = useTestServer(engine);
  let alice: string;
  let bob: string;
  let mallory: string;
  let guid: string;
  let aliceClient: TestClient;
  let bobClient: TestClient;
  let malloryClient: TestClient;

  const { sendMessage: send } = apiFixtures(api.call);
  const groupText = (text: string) => textMessage(guid, text, 'group');
  const emoji = (reaction: string) => encodeURIComponent(reaction);

  beforeAll(async () => {
    const { createUser, createGroup } = apiFixtures(api.call);
    alice = await createUser('alice');
    bob = await createUser('bob', { metadata: { '@private': { phone: '555-0100' } } });
    mallory = await createUser('mallory');
    guid = await createGroup(alice, [bob]);
    aliceClient = await connectClient(api.server, APP_ONE, alice);
    bobClient = await connectClient(api.server, APP_ONE, bob);
    malloryClient = await connectClient(api.server, APP_ONE, mallory);
  });

  describe('threads', () => {
    it('stores a reply with its parentId and counts it on the parent', async () => {
      const parent = await send(alice, groupText('the question'));
      const reply = await send(bob, groupText('an answer'), `/messages/${parent.id}/thread`);
      expect(reply.parentId).toBe(parent.id);
      const read = await api.call('GET', `/messages/${parent.id}`);
      expect(read.body.data.replyCount).toBe(1);
    });

    it('delivers a reply in realtime with its parentId to the members', async () => {
      const parent = await send(alice, groupText('realtime parent'));
      const { body } = await bobClient.call('POST', `/messages/${parent.id}/thread`, groupText('live reply'));
      const frame = await aliceClient.next(
        (candidate) => candidate.type === 'message' && candidate.body?.id === body.data.id,
        'the reply frame',
      );
      expect(frame.body.parentId).toBe(parent.id);
    });

    it('pages through a thread oldest first, only its replies, for the SDK and the REST API', async () => {
      const parent = await send(alice, groupText('paged parent'));
      const replies: string[] = [];
      for (let index = 0; index < 5; index += 1)
        replies.push((await send(bob, groupText(`reply ${index}`), `/messages/${parent.id}/thread`)).id);
      await send(alice, groupText('not in the thread'));
      const newest = await aliceClient.call('GET', `/messages/${parent.id}/thread?per_page=3&affix=prepend`);
      expect(newest.body.data.map((message: { id: string }) => message.id)).toEqual(replies.slice(2));
      const cursor = newest.body.meta.cursor as { id: string; sentAt: number };
      const older = await aliceClient.call(
        'GET',
        `/messages/${parent.id}/thread?per_page=3&affix=prepend&id=${cursor.id}&sentAt=${cursor.sentAt}`,
      );
      expect(older.body.data.map((message: { id: string }) => message.id)).toEqual(replies.slice(0, 2));
      const rest = await api.call('GET', `/messages/${parent.id}/thread?perPage=2`, { onBehalfOf: alice });
      expect(rest.body.data.map((message: { id: string }) => message.id)).toEqual(replies.slice(0, 2));
      expect(rest.body.meta.next).toMatchObject({ affix: 'append', id: replies[1] });
    });

    it('leaves replies out of a conversation with hideReplies', async () => {
      const parent = await send(alice, groupText('hidden replies parent'));
      const reply = await send(bob, groupText('hidden reply'), `/messages/${parent.id}/thread`);
      const ids = async (query: string) =>
        (
          (await aliceClient.call('GET', `/groups/${guid}/messages?per_page=100${query}`)).body.data as {
            id: string;
          }[]
        ).map((message) => message.id);
      expect(await ids('')).toContain(reply.id);
      expect(await ids('&hideReplies=true')).not.toContain(reply.id);
      expect(await ids('&hideReplies=true')).toContain(parent.id);
    });

    it('refuses a reply to a reply, naming the parent', async () => {
      const parent = await send(alice, groupText('top'));
      const reply = await send(bob, groupText('first level'), `/messages/${parent.id}/thread`);
      const nested = await api.call('POST', `/messages/${reply.id}/thread`, {
        body: groupText('second level'),
        onBehalfOf: alice,
      });
      expect(nested.status).toBe(400);
      expect(nested.body.error).toMatchObject({
        code: 'ERR_MESSAGE_ACTION_NOT_ALLOWED',
        details: { id: reply.id },
      });
    });

    it("refuses a reply addressed to another conversation than its parent's, and stores nothing", async () => {
      const parent = await send(alice, groupText('group parent'));
      const astray = await api.call('POST', `/messages/${parent.id}/thread`, {
        body: textMessage(bob, 'to bob instead'),
        onBehalfOf: alice,
      });
      expect(astray.status).toBe(400);
      expect(astray.body.error.details).toMatchObject({ field: 'receiver' });
      expect((await api.call('GET', `/messages/${parent.id}/thread`)).body.data).toEqual([]);
      expect((await api.call('GET', `/messages/${parent.id}`)).body.data.replyCount).toBeUndefined();
    });

    it('lets a non-member neither read a thread nor reply, as if the message did not exist', async () => {
      const parent = await send(alice, groupText('members only'));
      await send(bob, groupText('members reply'), `/messages/${parent.id}/thread`);
      const read = await malloryClient.call('GET', `/messages/${parent.id}/thread`);
      expect(read.status).toBe(404);
      expect(read.body.error.code).toBe('ERR_MESSAGE_ID_NOT_FOUND');
      const reply = await malloryClient.call('POST', `/messages/${parent.id}/thread`, groupText('intrude'));
      expect(reply.status).toBe(404);
      expect((await api.call('GET', `/messages/${parent.id}`)).body.data.replyCount).toBe(1);
    });

    it('shows nothing of a thread to another app', async () => {
      const parent = await send(alice, groupText('app one only'));
      const other = await callServerApi(api.url, APP_TWO, 'GET', `/messages/${parent.id}/thread`);
      expect(other.status).toBe(404);
    });

    it('takes a reply out of the count when it is deleted for good', async () => {
      const parent = await send(alice, groupText('count me'));
      const reply = await send(bob, groupText('short-lived'), `/messages/${parent.id}/thread`);
      const removed = await api.call('DELETE', `/messages/${reply.id}`, { body: { permanent: true } });
      expect(removed.status).toBe(200);
      expect((await api.call('GET', `/messages/${parent.id}`)).body.data.replyCount).toBeUndefined();
    });
  });

  describe('reactions', () => {
    it('counts reactions per emoji, with reactedByMe for the reader only', async () => {
      const message = await send(alice, groupText('react to me'));
      const added = await bobClient.call('POST', `/messages/${message.id}/reactions/${emoji('👍')}`);
      expect(added.status).toBe(200);
      expect(added.body.data.data.reactions).toEqual([{ reaction: '👍', count: 1, reactedByMe: true }]);
      await aliceClient.call('POST', `/messages/${message.id}/reactions/${emoji('👍')}`);
      await aliceClient.call('POST', `/messages/${message.id}/reactions/${emoji('🎉')}`);
      const seen = await bobClient.call('GET', `/messages/${message.id}`);
      expect(seen.body.data.data.reactions).toEqual([
        { reaction: '👍', count: 2, reactedByMe: true },
        { reaction: '🎉', count: 1 },
      ]);
      const listed = await aliceClient.call('GET', `/groups/${guid}/messages?per_page=100`);
      const inList = listed.body.data.find((item: { id: string }) => item.id === message.id);
      expect(inList.data.reactions).toEqual([
        { reaction: '👍', count: 2, reactedByMe: true },
        { reaction: '🎉', count: 1, reactedByMe: true },
      ]);
    });

    it('counts one reaction once per user, however often it is added', async () => {
      const message = await send(alice, groupText('twice'));
      await bobClient.call('POST', `/messages/${message.id}/reactions/${emoji('❤️')}`);
      const again = await bobClient.call('POST', `/messages/${message.id}/reactions/${emoji('❤️')}`);
      expect(again.status).toBe(200);
      expect(again.body.data.data.reactions).toEqual([{ reaction: '❤️', count: 1, reactedByMe: true }]);
    });

    it('removes a reaction, and the count with it', async () => {
      const message = await send(alice, groupText('take it back'));
      await bobClient.call('POST', `/messages/${message.id}/reactions/${emoji('😮')}`);
      const removed = await bobClient.call('DELETE', `/messages/${message.id}/reactions/${emoji('😮')}`);
      expect(removed.status).toBe(200);
      expect(removed.body.data.data.reactions).toBeUndefined();
    });

    it('lists who reacted, all or with one reaction, without private metadata', async () => {
      const message = await send(alice, groupText('who reacted'));
      await bobClient.call('POST', `/messages/${message.id}/reactions/${emoji('👍')}`);
      await aliceClient.call('POST', `/messages/${message.id}/reactions/${emoji('😂')}`);
      const all = await aliceClient.call('GET', `/messages/${message.id}/reactions`);
      expect(all.status).toBe(200);
      expect(
        all.body.data.map((item: { uid: string; reaction: string }) => [item.uid, item.reaction]),
      ).toEqual([
        [bob, '👍'],
        [alice, '😂'],
      ]);
      expect(all.body.data[0]).toMatchObject({
        messageId: message.id,
        reactedBy: { uid: bob, name: `Name of ${bob}` },
      });
      expect(JSON.stringify(all.body)).not.toContain('555-0100');
      const thumbs = await api.call('GET', `/messages/${message.id}/reactions/${emoji('👍')}`);
      expect(thumbs.body.data.map((item: { uid: string }) => item.uid)).toEqual([bob]);
    });

    it('pages through reactions with the cursor it answers', async () => {
      const message = await send(alice, groupText('many reactions'));
      for (const reaction of ['1️⃣', '2️⃣', '3️⃣'])
        await bobClient.call('POST', `/messages/${message.id}/reactions/${emoji(reaction)}`);
      const first = await bobClient.call('GET', `/messages/${message.id}/reactions?limit=2&affix=append`);
      expect(first.body.data.map((item: { reaction: string }) => item.reaction)).toEqual(['1️⃣', '2️⃣']);
      const next = new URLSearchParams({ limit: '2', ...first.body.meta.next });
      const second = await bobClient.call('GET', `/messages/${message.id}/reactions?${next}`);
      expect(second.body.data.map((item: { reaction: string }) => item.reaction)).toEqual(['3️⃣']);
    });

    it('sends reaction frames the SDK reads to the members, stamped with the reacting device', async () => {
      const message = await send(alice, groupText('live reactions'));
      await bobClient.call('POST', `/messages/${message.id}/reactions/${emoji('🔥')}`);
      const added = await aliceClient.next(
        (frame) => frame.type === 'reaction' && frame.body?.messageId === message.id,
        'the reaction frame',
      );
      expect(added).toMatchObject({
        receiver: guid,
        receiverType: 'group',
        sender: bob,
        deviceId: bobClient.deviceId,
        body: {
          action: 'message_reaction_added',
          reaction: '🔥',
          uid: bob,
          conversationId: `group_${guid}`,
          reactedBy: { uid: bob },
        },
      });
      expect(JSON.stringify(added)).not.toContain('555-0100');
      await bobClient.call('DELETE', `/messages/${message.id}/reactions/${emoji('🔥')}`);
      const removed = await aliceClient.next(
        (frame) =>
          frame.type === 'reaction' &&
          frame.body?.messageId === message.id &&
          frame.body?.action === 'message_reaction_removed',
        'the removal frame',
      );
      expect(removed.body).toMatchObject({ reaction: '🔥', uid: bob });
      expect(malloryClient.frames.some((frame) => frame.type === 'reaction')).toBe(false);
    });

    it('names its thread parent in a reaction frame on a reply', async () => {
      const parent = await send(alice, groupText('parent of a reacted reply'));
      const reply = await send(alice, groupText('reply to react to'), `/messages/${parent.id}/thread`);
      await bobClient.call('POST', `/messages/${reply.id}/reactions/${emoji('👀')}`);
      const frame = await aliceClient.next(
        (candidate) => candidate.type === 'reaction' && candidate.body?.messageId === reply.id,
        'the reaction frame on the reply',
      );
      expect(frame.body.parentId).toBe(parent.id);
    });

    it('lets a non-member neither react nor see reactions, as if the message did not exist', async () => {
      const message = await send(alice, groupText('private reactions'));
      await bobClient.call('POST', `/messages/${message.id}/reactions/${emoji('👍')}`);
      for (const [method, path] of [
        ['POST', `/messages/${message.id}/reactions/${emoji('👎')}`],
        ['DELETE', `/messages/${message.id}/reactions/${emoji('👍')}`],
        ['GET', `/messages/${message.id}/reactions`],
        ['GET', `/messages/${message.id}/reactions/${emoji('👍')}`],
      ] as const) {
        const refused = await malloryClient.call(method, path);
        expect(refused.status, `${method} ${path}`).toBe(404);
        expect(refused.body.error.code).toBe('ERR_MESSAGE_ID_NOT_FOUND');
      }
      const { body } = await api.call('GET', `/messages/${message.id}/reactions`);
      expect(body.data.map((item: { uid: string }) => item.uid)).toEqual([bob]);
    });

    it('shows and takes no reactions from another app', async () => {
      const message = await send(alice, groupText('app one reactions'));
      const react = await callServerApi(api.url, APP_TWO, 'POST', `/messages/${message.id}/reactions/x`, {
        onBehalfOf: alice,
      });
      expect(react.status).toBe(404);
      const list = await callServerApi(api.url, APP_TWO, 'GET', `/messages/${message.id}/reactions`);
      expect(list.status).toBe(404);
    });

    it('needs onBehalfOf to react through the server API', async () => {
      const message = await send(alice, groupText('whose reaction'));
      const refused = await api.call('POST', `/messages/${message.id}/reactions/${emoji('👍')}`);
      expect(refused.status).toBe(400);
      expect(refused.body.error.details).toMatchObject({ field: 'onBehalfOf' });
    });

    it('refuses a reaction with control characters or over 64 characters, naming the field', async () => {
      const message = await send(alice, groupText('bad reactions'));
      for (const bad of ['a\u0007b', 'x'.repeat(65), ' padded ']) {
        const refused = await bobClient.call('POST', `/messages/${message.id}/reactions/${emoji(bad)}`);
        expect(refused.status, bad).toBe(400);
        expect(refused.body.error.details).toMatchObject({ field: 'reaction' });
      }
      expect((await api.call('GET', `/messages/${message.id}/reactions`)).body.data).toEqual([]);
    });

    it('refuses reactions to a deleted message', async () => {
      const message = await send(alice, groupText('soon deleted'));
      await api.call('DELETE', `/messages/${message.id}`, { onBehalfOf: alice });
      const refused = await bobClient.call('POST', `/messages/${message.id}/reactions/${emoji('👍')}`);
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('ERR_MESSAGE_ACTION_NOT_ALLOWED');
    });

    it('removes the reactions of a message deleted for good', async () => {
      const message = await send(alice, groupText('gone for good'));
      await bobClient.call('POST', `/messages/${message.id}/reactions/${emoji('👍')}`);
      await api.call('DELETE', `/messages/${message.id}`, { body: { permanent: true } });
      const listed = await api.call('GET', `/messages/${message.id}/reactions`);
      expect(listed.status).toBe(404);
    });
  });
});
