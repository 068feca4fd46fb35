import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SdkUser } from './drivers.js';
import type { SdkEvent } from './sdk-ops.js';
import { CONTRACT_APP, LUNCH_SURVEY, startContractServer, type ContractServer } from './fixtures.js';
import { startSdkRuntime, type SdkRuntime, type SdkRuntimeHost } from './sessions.js';

/**
 * The SDK contract: what CometChat's official JavaScript SDK 4.2.0 does against Parley over TLS,
 * the same scenario for every way of running it (Node with shims, headless Chromium), on SQLite.
 */
export function describeSdkContract(runtime: SdkRuntime): void {
  describe(`CometChat SDK 4.2.0 in ${runtime} against Parley`, () => {
    let harness: { server: ContractServer } & SdkRuntimeHost;
    let alice: SdkUser;
    let bob: SdkUser;
    const isOnline = (uid: string) => harness.server.server.client.fanOut.isOnline(CONTRACT_APP.appId, uid);
    const until = async (condition: () => boolean | Promise<boolean>, what: string) => {
      for (let attempt = 0; attempt < 200 && !(await condition()); attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      if (!(await condition())) throw new Error(`never became true: ${what}`);
    };
    const message = (id: string) => (event: SdkEvent) => event.kind === 'message' && event.id === id;

    beforeAll(async () => {
      const server = await startContractServer();
      const host = await startSdkRuntime(runtime, server);
      harness = {
        server,
        user: (storage) => host.user(storage),
        close: async () => {
          await host.close();
          await server.close();
        },
      };
      alice = await harness.user('alice');
      bob = await harness.user('bob');
      for (const user of [alice, bob]) {
        expect(await user.call('init', CONTRACT_APP.appId, harness.server.sdkHost)).toBeNull();
      }
    });
    afterAll(async () => {
      await harness?.close();
    });

    it('logs two users in by UID and auth key, and connects their sockets', async () => {
      expect(await alice.call('login', 'alice', CONTRACT_APP.authKey)).toEqual({
        uid: 'alice',
        name: 'Alice',
      });
      expect(await bob.call('login', 'bob', CONTRACT_APP.authKey)).toEqual({ uid: 'bob', name: 'Bob' });
      await until(
        async () => (await isOnline('alice')) && (await isOnline('bob')),
        'both sockets authenticated',
      );
    });

    it('delivers a text message to the receiver in realtime, and not back to the sending device', async () => {
      const sent = await alice.call<SdkEvent>('sendText', 'bob', 'user', 'hello bob');
      expect(sent).toMatchObject({ sender: 'alice', conversationId: 'alice_user_bob', text: 'hello bob' });
      expect(await bob.next(message(sent.id as string), 'the text message')).toMatchObject({
        text: 'hello bob',
      });
      // Alice's own socket got the frame before this typing indicator; the SDK dropped it as an echo.
      await bob.call('typing', 'alice', 'start');
      await alice.next((event) => event.kind === 'typingStarted', 'the typing indicator');
      expect(alice.events().some(message(sent.id as string))).toBe(false);
    });

    it('delivers custom and interactive messages in realtime', async () => {
      const custom = await alice.call<SdkEvent>('sendCustom', 'bob', 'poll', { question: 'lunch?' });
      expect(await bob.next(message(custom.id as string), 'the custom message')).toMatchObject({
        category: 'custom',
        type: 'poll',
        customData: { question: 'lunch?' },
      });
      const form = await alice.call<SdkEvent>('sendForm', 'bob', LUNCH_SURVEY);
      const received = await bob.next(message(form.id as string), 'the form');
      expect(received).toMatchObject({ category: 'interactive', type: 'form' });
      expect(received.interactiveData).toMatchObject({ title: 'Lunch survey' });
    });

    it('relays typing started and ended', async () => {
      await alice.call('typing', 'bob', 'start');
      expect(await bob.next((event) => event.kind === 'typingStarted', 'typing started')).toMatchObject({
        sender: 'alice',
      });
      await alice.call('typing', 'bob', 'end');
      expect(await bob.next((event) => event.kind === 'typingEnded', 'typing ended')).toMatchObject({
        sender: 'alice',
      });
    });

    it('tells the sender when the receiver has read a message', async () => {
      const sent = await alice.call<SdkEvent>('sendText', 'bob', 'user', 'read me');
      await bob.next(message(sent.id as string), 'the message to read');
      await bob.call('markAsRead', sent.id);
      expect(await alice.next((event) => event.kind === 'read', 'the read receipt')).toEqual({
        kind: 'read',
        messageId: sent.id,
        by: 'bob',
      });
    });

    it('stores receipts: the sender pages her history and sees each message received and read, and everything before it', async () => {
      const first = await alice.call<SdkEvent>('sendText', 'bob', 'user', 'first of two');
      const second = await alice.call<SdkEvent>('sendText', 'bob', 'user', 'second of two');
      await bob.next(message(second.id as string), 'the second message');
      await bob.call('markAsDelivered', second.id);
      expect(await alice.next((event) => event.kind === 'delivered', 'the delivery receipt')).toMatchObject({
        messageId: second.id,
        by: 'bob',
      });
      let history = await alice.call<{ id: string; deliveredAt: number; readAt: number }[]>(
        'receiptsInHistory',
        'bob',
      );
      const of = (id: unknown) => history.find((entry) => entry.id === id);
      expect(of(first.id)?.deliveredAt).toBeGreaterThan(0);
      expect(of(second.id)).toMatchObject({ readAt: 0 });
      await bob.call('markAsRead', second.id);
      await alice.next((event) => event.kind === 'read' && event.messageId === second.id, 'the read receipt');
      history = await alice.call('receiptsInHistory', 'bob');
      expect(of(first.id)?.readAt).toBeGreaterThan(0);
      expect(of(second.id)?.readAt).toBeGreaterThan(0);
    });

    it('marks an interactive message as interacted and tells its sender the goal is met', async () => {
      const form = await alice.call<SdkEvent>('sendForm', 'bob', LUNCH_SURVEY);
      await bob.next(message(form.id as string), 'the form');
      expect(await bob.call('markAsInteracted', form.id, 'submit')).toMatch(/interacted/);
      expect(await alice.next((event) => event.kind === 'goalCompleted', 'goal completed')).toMatchObject({
        messageId: form.id,
      });
    });

    it('pages back through the history, several pages, each oldest first, until it is empty', async () => {
      for (let index = 0; index < 5; index += 1)
        await alice.call('sendText', 'bob', 'user', `filler ${index}`);
      const pages = await bob.call<string[][]>('history', 'alice', 3);
      const ids = pages.flat().map(Number);
      expect(pages.length).toBeGreaterThanOrEqual(4);
      expect(pages.slice(0, -1).every((page) => page.length === 3)).toBe(true);
      for (const page of pages) expect(page.map(Number)).toEqual([...page.map(Number)].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(ids.length);
      expect(Math.max(...ids)).toBe(Number(pages[0]?.at(-1)));
    });

    it('lists conversations with the unread count after the last read message', async () => {
      const [conversation] =
        await bob.call<{ conversationId: string; unread: number; lastMessageId: string }[]>('conversations');
      // Bob read "read me"; the second form and the five fillers came after it.
      expect(conversation).toMatchObject({ conversationId: 'alice_user_bob', unread: 6 });
    });

    describe('mentions in a group', () => {
      let mention: SdkEvent;
      beforeAll(async () => {
        const api = harness.server.serverApi;
        const secret = { '@private': { email: 'bob@example.com' }, team: 'blue' };
        expect((await api('PUT', '/users/bob', { metadata: secret, tags: ['ranger'] })).status).toBe(200);
        expect((await api('POST', '/users', { uid: 'carol', name: 'Carol' })).status).toBe(200);
        const group = { guid: 'hikers', name: 'Hikers', type: 'public', owner: 'alice' };
        expect((await api('POST', '/groups', { ...group, members: { participants: ['bob'] } })).status).toBe(
          200,
        );
        mention = await alice.call<SdkEvent>(
          'sendText',
          'hikers',
          'group',
          'hi <@uid:bob>, <@uid:carol> and <@uid:nobody>',
        );
        await alice.call('sendText', 'hikers', 'group', 'no mention here');
      });

      it("names only the members it mentions, with no one's private metadata, for the sender", () => {
        expect(mention.mentionedUsers).toEqual([{ uid: 'bob', metadata: { team: 'blue' }, tags: null }]);
        expect(mention.mentionedMe).toBe(false);
      });

      it('tells the mentioned reader the message mentions them', async () => {
        const received = await bob.next(message(mention.id as string), 'the mention');
        expect(received).toMatchObject({ mentionedMe: true, mentionedUsers: [{ uid: 'bob' }] });
      });

      it('filters the history to messages with mentions, or mentioning a given user', async () => {
        const withMentions = await bob.call<SdkEvent[]>('groupHistory', 'hikers', { hasMentions: true });
        expect(withMentions.map((event) => event.id)).toEqual([mention.id]);
        const ofBob = await bob.call<SdkEvent[]>('groupHistory', 'hikers', { mentionedUids: ['bob'] });
        expect(ofBob.map((event) => event.id)).toEqual([mention.id]);
        const ofCarol = await bob.call<SdkEvent[]>('groupHistory', 'hikers', { mentionedUids: ['carol'] });
        expect(ofCarol).toEqual([]);
      });

      it("adds the mentioned users' tags when asked with mentionsWithTagInfo", async () => {
        const [tagged] = await alice.call<SdkEvent[]>('groupHistory', 'hikers', {
          hasMentions: true,
          withTagInfo: true,
        });
        expect(tagged?.mentionedUsers).toEqual([
          { uid: 'bob', metadata: { team: 'blue' }, tags: ['ranger'] },
        ]);
      });

      it("answers getMessageReceipts for a group message with each member's receipt", async () => {
        // Bob received the mention in the test before.
        await bob.call('markAsRead', mention.id);
        await alice.next(
          (event) => event.kind === 'read' && event.messageId === mention.id,
          'the read receipt',
        );
        expect(await alice.call('messageReceipts', mention.id)).toEqual([
          { by: 'bob', type: 'read', delivered: true, read: true },
        ]);
      });

      it('suggests only the members whose name or UID has the search keyword', async () => {
        expect(await alice.call('searchMembers', 'hikers', 'BO')).toEqual(['bob']);
        expect(await alice.call('searchMembers', 'hikers', 'car')).toEqual([]);
        expect(await alice.call('searchMembers', 'hikers', 'alic')).toEqual(['alice']);
      });
    });

    it('sends an image and a file with sendMediaMessage (multipart), delivers them, and both download back byte for byte', async () => {
      const image = await sharp({
        create: { width: 64, height: 48, channels: 3, background: { r: 20, g: 120, b: 200 } },
      })
        .png()
        .toBuffer();
      const pdf = Buffer.concat([
        Buffer.from('%PDF-1.4\n'),
        Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251)),
      ]);
      for (const [type, name, bytes, mimeType, disposition] of [
        ['image', 'photo.png', image, 'image/png', 'inline'],
        ['file', 'notes.pdf', pdf, 'application/pdf', 'attachment'],
      ] as const) {
        const sent = await alice.call<SdkEvent>('sendMedia', 'bob', type, name, bytes.toString('base64'));
        expect(sent).toMatchObject({ category: 'message', type, sender: 'alice' });
        const received = await bob.next(message(sent.id as string), `the ${type} message`);
        const [attachment] = received.attachments as Array<Record<string, unknown>>;
        expect(attachment).toMatchObject({
          name,
          mimeType,
          extension: name.split('.')[1],
          size: bytes.length,
        });
        const download = await bob.call<{
          status: number;
          contentType: string;
          disposition: string;
          base64: string;
        }>('download', attachment?.url);
        expect(download).toMatchObject({ status: 200, contentType: mimeType });
        expect(download.disposition.startsWith(disposition)).toBe(true);
        expect(Buffer.from(download.base64, 'base64').equals(bytes)).toBe(true);
      }
    });

    it('resumes the stored session after a reload, with no new login, and receives again', async () => {
      await bob.close();
      bob = await harness.user('bob');
      expect(await bob.call('init', CONTRACT_APP.appId, harness.server.sdkHost)).toBe('bob');
      await until(() => isOnline('bob'), 'the resumed socket authenticated');
      const sent = await alice.call<SdkEvent>('sendText', 'bob', 'user', 'after the reload');
      expect(await bob.next(message(sent.id as string), 'the message after the reload')).toMatchObject({
        text: 'after the reload',
      });
    });

    it('logs out: the session ends on the server and its socket closes', async () => {
      const authToken = await alice.call<string>('authToken');
      expect(await alice.call('logout')).toBe(true);
      await until(async () => !(await isOnline('alice')), 'the logged-out socket closed');
      const refused = await harness.server.clientApi('GET', '/me', authToken);
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ error: { code: 'AUTH_ERR_AUTH_TOKEN_NOT_FOUND' } });
    });
  });
}
