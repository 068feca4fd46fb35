import { afterEach, beforeEach } from 'vitest';
import { ChatStore } from '../../../widget/chat-store.js';
import { ChatService } from './chat-service.js';
import { clientOf, closeClients, type Wire } from './client.js';
import { waitFor } from './wait.js';

export interface ChatStoreFixture {
  /** This test's chat service, started fresh before each test. */
  readonly service: ChatService;
  /** A store not signed in yet (through `wire` when given, to `host` when given). */
  newStore(wire?: Wire, host?: string): ChatStore;
  /** A store signed in as `uid`, its socket up. */
  storeOf(uid: string, wire?: Wire, host?: string): Promise<ChatStore>;
}

/**
 * A fresh chat service for each test of the calling file, and the stores it signed in: disposed,
 * with their clients, after each test.
 */
export function chatStoreFixture(): ChatStoreFixture {
  const stores: ChatStore[] = [];
  let service: ChatService | undefined;
  beforeEach(async () => {
    service = await ChatService.start();
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) store.dispose();
    await closeClients();
    await service?.close();
  });
  return {
    get service() {
      if (service === undefined) throw new Error('the chat service starts before each test');
      return service;
    },
    newStore(wire, host) {
      const store = new ChatStore(clientOf({ url: host ?? this.service.url }, {}, wire));
      stores.push(store);
      return store;
    },
    async storeOf(uid, wire, host) {
      const store = this.newStore(wire, host);
      await store.signIn({ uid });
      await waitFor(() => store.state.connection === 'connected', `${uid}'s socket`);
      return store;
    },
  };
}
