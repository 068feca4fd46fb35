import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useAttachAssets } from '../../widget/attach-assets.js';
import { ChatStore } from '../../widget/chat-store.js';
import { ChatService } from './support/chat-service.js';
import { Wire, clientOf, closeClients } from './support/client.js';
import { waitFor } from './support/wait.js';

let service: ChatService;
const stores: ChatStore[] = [];
const support = { type: 'group', id: 'support' } as const;

async function storeOf(uid: string, wire = new Wire()): Promise<ChatStore> {
  const store = new ChatStore(clientOf(service, {}, wire));
  stores.push(store);
  await store.signIn({ uid });
  return store;
}

beforeAll(() => {
  useAttachAssets(() => import('../../widget/attach.js'));
});
beforeEach(async () => {
  service = await ChatService.start();
});
afterEach(async () => {
  for (const store of stores.splice(0)) store.dispose();
  await closeClients();
  await service.close();
});

describe('the unread separator', () => {
  it('marks the first message from others after the read pointer when the conversation opens', async () => {
    const seen = await service.sendAs('carol', support, { data: { text: 'seen' } });
    const before = await storeOf('alice');
    await before.open(support);
    expect(before.thread(support)?.unreadFrom).toBe(seen.id);
    const readPointer = async () => (await before.client.conversation(support)).lastReadMessageId === seen.id;
    await waitFor(readPointer, 'the read pointer at the message alice saw');
    before.dispose();
    await closeClients();

    const unread = await service.sendAs('carol', support, { data: { text: 'new one' } });
    await service.sendAs('bob', support, { data: { text: 'another' } });
    const alice = await storeOf('alice');
    await alice.open(support);
    expect(alice.thread(support)?.unreadFrom).toBe(unread.id);
  });
});

describe('attaching files in the store', () => {
  it('keeps chosen files for a look until one is removed', async () => {
    const alice = await storeOf('alice');
    await alice.open(support);
    const notes = new File(['notes'], 'notes.txt', { type: 'text/plain' });
    const photo = new File(['png'], 'photo.png', { type: 'image/png' });
    await alice.attach(support, [notes, photo]);
    expect(alice.thread(support)?.drafts).toEqual([notes, photo]);
    alice.unattach(support, 0);
    expect(alice.thread(support)?.drafts).toEqual([photo]);
  });
});

describe('expired file links', () => {
  it('fetches a message again for fresh links, once', async () => {
    const sent = await service.sendFilesAs('carol', support, 'file', [
      { name: 'agenda.txt', bytes: new TextEncoder().encode('agenda') },
    ]);
    const wire = new Wire();
    const alice = await storeOf('alice', wire);
    await alice.open(support);
    await alice.refresh(sent.id);
    await alice.refresh(sent.id);
    expect(wire.calls('GET', `/v3/messages/${sent.id}`)).toHaveLength(1);
    const shown = alice.thread(support)?.messages.find((m) => m.id === sent.id);
    expect(shown?.data.attachments?.[0]?.name).toBe('agenda.txt');
  });
});
