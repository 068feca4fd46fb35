/**
 * The SDK ops for everyday chat features: blocking, unread counts and marking unread, conversation
 * tags and keyword search, each answering plain JSON of what the SDK's own objects say.
 */
import type { CometChat as CometChatSdk } from '@cometchat/chat-sdk-javascript';

type Sdk = typeof CometChatSdk;

interface UserLike {
  getUid(): string;
  getBlockedByMe(): boolean;
  getHasBlockedMe(): boolean;
}

interface ConversationLike {
  getConversationId(): string;
  getUnreadMessageCount(): number;
  getTags(): string[];
}

const userOf = (user: UserLike) => ({
  uid: user.getUid(),
  blockedByMe: user.getBlockedByMe(),
  hasBlockedMe: user.getHasBlockedMe(),
});

const conversationOf = (conversation: ConversationLike) => ({
  conversationId: conversation.getConversationId(),
  unread: conversation.getUnreadMessageCount(),
  tags: conversation.getTags(),
});

/** What a refusal says: the SDK rejects with a CometChatException (not an Error). */
const codeOf = (error: unknown): string =>
  typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : String(error);

export function chatFeatureOps(CometChat: Sdk) {
  return {
    blockUsers: async (uids: string[]) => CometChat.blockUsers(uids),
    unblockUsers: async (uids: string[]) => CometChat.unblockUsers(uids),
    blockedUsers: async (direction?: string) => {
      let builder = new CometChat.BlockedUsersRequestBuilder().setLimit(30);
      if (direction !== undefined) builder = builder.setDirection(direction);
      const users = (await builder.build().fetchNext()) as unknown as UserLike[];
      return users.map(userOf);
    },
    getUser: async (uid: string) => userOf((await CometChat.getUser(uid)) as unknown as UserLike),
    /** A text send that answers the refusal's code instead of failing. */
    trySendText: async (receiver: string, receiverType: string, text: string) => {
      try {
        const sent = await CometChat.sendMessage(new CometChat.TextMessage(receiver, text, receiverType));
        return { id: String(sent.getId()) };
      } catch (error) {
        return { code: codeOf(error) };
      }
    },
    markAsUnread: async (messageId: string) => {
      const message = await CometChat.getMessageDetails(messageId);
      return conversationOf((await CometChat.markMessageAsUnread(message)) as unknown as ConversationLike);
    },
    unreadCounts: async (uid: string, guid: string) => ({
      all: await CometChat.getUnreadMessageCount(),
      forUser: await CometChat.getUnreadMessageCountForUser(uid),
      forGroup: await CometChat.getUnreadMessageCountForGroup(guid),
      allUsers: await CometChat.getUnreadMessageCountForAllUsers(),
      allGroups: await CometChat.getUnreadMessageCountForAllGroups(),
    }),
    tagConversation: async (id: string, type: string, tags: string[]) =>
      conversationOf((await CometChat.tagConversation(id, type, tags)) as unknown as ConversationLike),
    conversationsTagged: async (tags: string[]) => {
      const request = new CometChat.ConversationsRequestBuilder()
        .setLimit(30)
        .setTags(tags)
        .withTags(true)
        .build();
      return ((await request.fetchNext()) as unknown as ConversationLike[]).map(conversationOf);
    },
    /** A keyword search of one conversation, as the UI Kit's search asks, newest page. */
    searchMessages: async (target: { uid?: string; guid?: string }, keyword: string, types?: string[]) => {
      let builder = new CometChat.MessagesRequestBuilder().setLimit(30).setSearchKeyword(keyword);
      builder = target.uid !== undefined ? builder.setUID(target.uid) : builder.setGUID(target.guid ?? '');
      if (types !== undefined) builder = builder.setTypes(types);
      const messages = await builder.build().fetchPrevious();
      return messages.map((message) => ({
        id: String(message.getId()),
        category: message.getCategory(),
        text: (message as unknown as { getText?: () => string }).getText?.(),
      }));
    },
  };
}
