import { z } from 'zod';
import { EpochSeconds, GroupEntity, Message, ReceiverType, UserEntity } from './message.js';

/** What both APIs say of a conversation: whom it is with and its latest message. */
const ConversationBase = z.object({
  conversationId: z.string(),
  conversationType: ReceiverType,
  conversationWith: z.union([UserEntity, GroupEntity]),
  lastMessage: Message.optional(),
  createdAt: EpochSeconds.optional(),
  updatedAt: EpochSeconds.optional(),
  /** The viewer's own tags on the conversation (`tagConversation`), when it has any. */
  tags: z.array(z.string()).optional(),
  /** The viewer pinned the conversation to the top of their list: when, and the viewer's UID. */
  pinnedAt: EpochSeconds.optional(),
  pinnedBy: z.string().optional(),
});

/** A conversation as the server API answers it: the unread count is a string, as CometChat sends it. */
export const Conversation = ConversationBase.extend({
  unreadMessageCount: z.string(),
  createdAt: EpochSeconds,
  updatedAt: EpochSeconds,
});
export type Conversation = z.infer<typeof Conversation>;

/**
 * A conversation as the client API answers it: counts as numbers and the read pointer the SDK
 * shows. What a client learns over time is optional: a client also keeps conversations it has only
 * seen a message of over the socket.
 */
export const ClientConversation = ConversationBase.extend({
  unreadMessageCount: z.number().optional(),
  unreadMentionsCount: z.number().optional(),
  lastReadMessageId: z.string().optional(),
  latestMessageId: z.string().optional(),
});
export type ClientConversation = z.infer<typeof ClientConversation>;
