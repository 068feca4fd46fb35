/**
 * The SDK ops for pinned and saved messages and pinned conversations, and the pin events the SDK's
 * message and conversation listeners hear, each answering plain JSON of what the SDK's own
 * objects say.
 */
import type { CometChat as CometChatSdk } from '@cometchat/chat-sdk-javascript';
import type { SdkEvent } from './sdk-ops.js';

type Sdk = typeof CometChatSdk;

interface PinnableLike {
  getId(): string | number;
  isPinned(): boolean;
  getPinnedBy(): string | undefined;
  isSystemPinned(): boolean;
  isSaved(): boolean;
}

interface ConversationLike {
  getConversationId(): string;
  isPinned(): boolean;
  getPinnedBy(): string | undefined;
}

const pinOf = (message: PinnableLike) => ({
  id: String(message.getId()),
  pinned: message.isPinned(),
  pinnedBy: message.getPinnedBy() ?? null,
  systemPinned: message.isSystemPinned(),
  saved: message.isSaved(),
});

const conversationPinOf = (conversation: ConversationLike) => ({
  conversationId: conversation.getConversationId(),
  pinned: conversation.isPinned(),
  pinnedBy: conversation.getPinnedBy() ?? null,
});

/** What a refusal says: the SDK rejects with a CometChatException (not an Error). */
const codeOf = (error: unknown): string =>
  typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : String(error);

/** The pin and save events of the SDK's listeners. */
export function listenToPins(CometChat: Sdk, emit: (event: SdkEvent) => void): void {
  const heard = (kind: string) => (message: PinnableLike) => emit({ kind, ...pinOf(message) });
  CometChat.removeMessageListener('contract-pins');
  CometChat.addMessageListener(
    'contract-pins',
    new CometChat.MessageListener({
      onMessagePinned: heard('messagePinned'),
      onMessageUnpinned: heard('messageUnpinned'),
      onMessageSaved: heard('messageSaved'),
      onMessageUnsaved: heard('messageUnsaved'),
    }),
  );
  const heardConversation = (kind: string) => (conversation: ConversationLike) =>
    emit({ kind, ...conversationPinOf(conversation) });
  CometChat.removeConversationListener('contract-pins');
  CometChat.addConversationListener(
    'contract-pins',
    new CometChat.ConversationListener({
      onConversationPinned: heardConversation('conversationPinned'),
      onConversationUnpinned: heardConversation('conversationUnpinned'),
    }),
  );
}

export function pinOps(CometChat: Sdk) {
  const asPin = async (done: Promise<unknown>) => pinOf((await done) as PinnableLike);
  return {
    pinMessage: async (id: string) => asPin(CometChat.pinMessage(id)),
    unpinMessage: async (id: string) => asPin(CometChat.unpinMessage(id)),
    saveMessage: async (id: string) => asPin(CometChat.saveMessage(id)),
    unsaveMessage: async (id: string) => asPin(CometChat.unsaveMessage(id)),
    /** A pin that answers the refusal's code instead of failing. */
    tryPinMessage: async (id: string) => {
      try {
        return await asPin(CometChat.pinMessage(id));
      } catch (error) {
        return { code: codeOf(error) };
      }
    },
    pinMessageDetails: async (id: string) => asPin(CometChat.getMessageDetails(id)),
    /**
     * A conversation's pinned messages (`setPinned`), or the user's saved ones (`setSaved`), as a
     * "pinned messages" panel reads them: one page of up to 100, then the next page the SDK gives.
     */
    pinSaveList: async (which: 'pinned' | 'saved', target: { uid?: string; guid?: string } = {}) => {
      let builder = new CometChat.MessagesRequestBuilder().setLimit(100);
      if (target.uid !== undefined) builder = builder.setUID(target.uid);
      if (target.guid !== undefined) builder = builder.setGUID(target.guid);
      builder = which === 'pinned' ? builder.setPinned(true) : builder.setSaved(true);
      const request = builder.build();
      const first = (await request.fetchPrevious()) as unknown as PinnableLike[];
      const next = await request.fetchPrevious();
      return { first: first.map(pinOf), next: next.length };
    },
    pinConversation: async (id: string, type: string) =>
      conversationPinOf((await CometChat.pinConversation(id, type)) as unknown as ConversationLike),
    unpinConversation: async (id: string, type: string) =>
      conversationPinOf((await CometChat.unpinConversation(id, type)) as unknown as ConversationLike),
    /** The first page of the conversation list, as the UI Kit's list asks, in the order the SDK gives. */
    conversationPins: async (pinnedBy?: string[]) => {
      let builder = new CometChat.ConversationsRequestBuilder().setLimit(30);
      if (pinnedBy !== undefined) builder = builder.setPinnedBy(pinnedBy);
      const page = (await builder.build().fetchNext()) as unknown as ConversationLike[];
      return page.map(conversationPinOf);
    },
    pinFeatures: async () => ({
      pinMessage: await CometChat.isPinMessageEnabled(),
      saveMessage: await CometChat.isSaveMessageEnabled(),
      pinConversation: await CometChat.isPinConversationEnabled(),
      pinnedMessagesLimit: await CometChat.getPinnedMessagesLimit(),
      savedMessagesLimit: await CometChat.getSavedMessagesLimit(),
      pinnedConversationsLimit: await CometChat.getPinnedConversationsLimit(),
    }),
  };
}
