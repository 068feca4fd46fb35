/**
 * What one user does with CometChat's SDK in the contract test, written once for both drivers: a
 * Node process with browser shims (node-user.ts) and a page in headless Chromium (bundled into it).
 * Every op answers JSON; what the SDK's listeners hear is reported through `emit`.
 */
import type {
  CometChat as CometChatSdk,
  CometChatNotifications as NotificationsSdk,
  NotificationPreferences,
} from '@cometchat/chat-sdk-javascript';
import { chatFeatureOps } from './chat-feature-ops.js';
import { groupOps, listenToGroups } from './group-ops.js';
import { listenToPins, pinOps } from './pin-ops.js';
import { surfaceOps } from './surface-ops.js';

type Sdk = typeof CometChatSdk;
type Notifications = typeof NotificationsSdk;
export type SdkEvent = Record<string, unknown> & { kind: string };
export type SdkOps = Record<string, (...args: never[]) => Promise<unknown>>;

interface MessageLike {
  getId(): string | number;
  getSender(): { getUid(): string };
  getType(): string;
  getCategory(): string;
  getReceiverType(): string;
  getConversationId(): string;
  getSentAt(): number;
  getMentionedUsers?(): Array<{ getUid(): string; getMetadata(): unknown; getTags(): unknown }>;
  hasMentionedMe?(): boolean;
  getParentMessageId?(): number | undefined;
  getReplyCount?(): number | undefined;
  getReactions?(): Array<{ getReaction(): string; getCount(): number; getReactedByMe(): boolean }>;
}

/** A reaction as the SDK's `Reaction` and `ReactionEvent` give it. */
interface ReactionLike {
  getMessageId(): string | number;
  getReaction(): string;
  getUid(): string;
  getReactedBy(): { getUid(): string; getName(): string };
}

interface AttachmentLike {
  getName(): string;
  getExtension(): string;
  getMimeType(): string;
  getSize(): number;
  getUrl(): string;
}

/** Bytes to base64 and back with what both runtimes have (no Buffer in a page). */
const toBase64 = (bytes: Uint8Array): string => {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
};
const fromBase64 = (base64: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));

const describe = (message: MessageLike): SdkEvent => {
  const text = (message as unknown as { getText?: () => string }).getText?.();
  const custom = (message as unknown as { getCustomData?: () => unknown }).getCustomData?.();
  const interactive = (message as unknown as { getInteractiveData?: () => unknown }).getInteractiveData?.();
  const attachments = (message as unknown as { getAttachments?: () => AttachmentLike[] }).getAttachments?.();
  const mentioned = message.getMentionedUsers?.() ?? [];
  const moderation = (message as unknown as { getModerationStatus?: () => string }).getModerationStatus?.();
  return {
    kind: 'message',
    id: String(message.getId()),
    sender: message.getSender().getUid(),
    category: message.getCategory(),
    type: message.getType(),
    receiverType: message.getReceiverType(),
    conversationId: message.getConversationId(),
    ...(text === undefined ? {} : { text }),
    ...(custom === undefined ? {} : { customData: custom }),
    ...(interactive === undefined ? {} : { interactiveData: interactive }),
    ...(attachments === undefined
      ? {}
      : {
          attachments: attachments.map((attachment) => ({
            name: attachment.getName(),
            extension: attachment.getExtension(),
            mimeType: attachment.getMimeType(),
            size: attachment.getSize(),
            url: attachment.getUrl(),
          })),
        }),
    ...(mentioned.length === 0
      ? {}
      : {
          mentionedUsers: mentioned.map((user) => ({
            uid: user.getUid(),
            metadata: user.getMetadata() ?? null,
            tags: user.getTags() ?? null,
          })),
        }),
    mentionedMe: message.hasMentionedMe?.() ?? false,
    // Only what moderation ruled on: CometChat's SDK says `unmoderated` for every other message.
    ...(moderation === undefined || moderation === 'unmoderated' ? {} : { moderationStatus: moderation }),
    ...(message.getParentMessageId?.() ? { parentMessageId: String(message.getParentMessageId?.()) } : {}),
    replyCount: message.getReplyCount?.() ?? 0,
    reactions: (message.getReactions?.() ?? []).map((count) => ({
      reaction: count.getReaction(),
      count: count.getCount(),
      reactedByMe: count.getReactedByMe(),
    })),
  };
};

/** What the contract reads of the SDK's NotificationPreferences. */
const preferencesOf = (preferences: NotificationPreferences) => ({
  groupMessages: preferences.getGroupPreferences().getMessagesPreference(),
  oneOnOneMessages: preferences.getOneOnOnePreferences().getMessagesPreference(),
  dnd: preferences.getMutePreferences().getDNDPreference(),
  usePrivacyTemplate: preferences.getUsePrivacyTemplate(),
});

const describeReaction = (reaction: ReactionLike) => ({
  messageId: String(reaction.getMessageId()),
  reaction: reaction.getReaction(),
  uid: reaction.getUid(),
  reactedBy: reaction.getReactedBy().getUid(),
});

/** Each page a request gives, described, until it gives an empty one (at most 50). */
const everyPage = async (fetchPage: () => Promise<unknown>): Promise<SdkEvent[][]> => {
  const pages: SdkEvent[][] = [];
  for (let page = 0; page < 50; page += 1) {
    const messages = (await fetchPage()) as MessageLike[];
    if (messages.length === 0) break;
    pages.push(messages.map(describe));
  }
  return pages;
};

export function sdkOps(
  CometChat: Sdk,
  emit: (event: SdkEvent) => void,
  Notifications: Notifications,
): SdkOps {
  const received = new Map<string, MessageLike>();
  const onMessage = (message: MessageLike) => {
    received.set(String(message.getId()), message);
    emit(describe(message));
  };
  const listen = () => {
    listenToGroups(CometChat, emit);
    listenToPins(CometChat, emit);
    CometChat.removeMessageListener('contract');
    CometChat.addMessageListener(
      'contract',
      new CometChat.MessageListener({
        onTextMessageReceived: onMessage,
        onCustomMessageReceived: onMessage,
        onInteractiveMessageReceived: onMessage,
        onMediaMessageReceived: onMessage,
        onMessageModerated: (message: MessageLike) => emit({ ...describe(message), kind: 'moderated' }),
        onTypingStarted: (typing: { getSender(): { getUid(): string } }) =>
          emit({ kind: 'typingStarted', sender: typing.getSender().getUid() }),
        onTypingEnded: (typing: { getSender(): { getUid(): string } }) =>
          emit({ kind: 'typingEnded', sender: typing.getSender().getUid() }),
        onMessagesRead: (receipt: { getMessageId(): string; getSender(): { getUid(): string } }) =>
          emit({ kind: 'read', messageId: String(receipt.getMessageId()), by: receipt.getSender().getUid() }),
        onMessagesDelivered: (receipt: { getMessageId(): string; getSender(): { getUid(): string } }) =>
          emit({
            kind: 'delivered',
            messageId: String(receipt.getMessageId()),
            by: receipt.getSender().getUid(),
          }),
        onMessageReactionAdded: (event: { getReaction(): ReactionLike; getParentMessageId(): unknown }) =>
          emit({ kind: 'reactionAdded', ...describeReaction(event.getReaction()) }),
        onMessageReactionRemoved: (event: { getReaction(): ReactionLike }) =>
          emit({ kind: 'reactionRemoved', ...describeReaction(event.getReaction()) }),
        onInteractionGoalCompleted: (receipt: {
          getMessageId(): string;
          getSender(): { getUid(): string };
        }) =>
          emit({
            kind: 'goalCompleted',
            messageId: String(receipt.getMessageId()),
            by: receipt.getSender().getUid(),
          }),
      }),
    );
    CometChat.removeUserListener('contract');
    CometChat.addUserListener(
      'contract',
      new CometChat.UserListener({
        onUserOnline: (user: { getUid(): string }) => emit({ kind: 'online', uid: user.getUid() }),
        onUserOffline: (user: { getUid(): string }) => emit({ kind: 'offline', uid: user.getUid() }),
      }),
    );
    CometChat.removeConnectionListener('contract');
    CometChat.addConnectionListener(
      'contract',
      new CometChat.ConnectionListener({
        onConnected: () => emit({ kind: 'connected' }),
        onDisconnected: () => emit({ kind: 'disconnected' }),
      }),
    );
  };

  return {
    ...groupOps(CometChat),
    ...chatFeatureOps(CometChat),
    ...surfaceOps(CometChat),
    ...pinOps(CometChat),
    /** `presence: true` subscribes to every user's online/offline events. */
    init: async (appId: string, host: string, presence = false) => {
      let builder = new CometChat.AppSettingsBuilder()
        .setRegion('us')
        .overrideClientHost(host)
        .overrideAdminHost(host)
        .autoEstablishSocketConnection(true);
      if (presence) builder = builder.subscribePresenceForAllUsers();
      const settings = builder.build();
      await CometChat.init(appId, settings);
      listen();
      const user = await CometChat.getLoggedinUser();
      return user === null ? null : user.getUid();
    },
    login: async (uid: string, authKey: string) => {
      const user = await CometChat.login(uid, authKey);
      return { uid: user.getUid(), name: user.getName() };
    },
    sendText: async (receiver: string, receiverType: string, text: string) => {
      const sent = (await CometChat.sendMessage(
        new CometChat.TextMessage(receiver, text, receiverType),
      )) as unknown as MessageLike;
      return describe(sent);
    },
    sendInThread: async (receiver: string, receiverType: string, parentId: string, text: string) => {
      const message = new CometChat.TextMessage(receiver, text, receiverType);
      message.setParentMessageId(Number(parentId));
      return describe((await CometChat.sendMessage(message)) as unknown as MessageLike);
    },
    /** Pages back through a thread, as the UI Kit's thread view does, until the SDK returns an empty page. */
    threadHistory: async (parentId: string, perPage: number) => {
      const request = new CometChat.MessagesRequestBuilder()
        .setParentMessageId(Number(parentId))
        .setLimit(perPage)
        .build();
      return everyPage(() => request.fetchPrevious());
    },
    /**
     * The messages of a conversation changed since `updatedAt`, as the UI Kit reads them after a
     * reconnect (`setUpdatedAfter` with `updatesOnly`), page by page until the SDK returns an empty one.
     */
    updatesSince: async (uid: string, updatedAt: number, perPage: number) => {
      const request = new CometChat.MessagesRequestBuilder()
        .setUID(uid)
        .setLimit(perPage)
        .setUpdatedAfter(String(updatedAt))
        .updatesOnly(true)
        .build();
      return everyPage(() => request.fetchNext());
    },
    /** The ids of a group's newest messages whose thread the user follows, as the SDK reads `isThreadSubscribed()`. */
    followedInGroup: async (guid: string) => {
      const request = new CometChat.MessagesRequestBuilder().setGUID(guid).setLimit(100).build();
      const messages = await request.fetchPrevious();
      return messages
        .filter((message) => message.isThreadSubscribed())
        .map((message) => String(message.getId()));
    },
    subscribeToThread: async (parentId: string) => CometChat.subscribeToThread(Number(parentId)),
    unsubscribeFromThread: async (parentId: string) => CometChat.unsubscribeFromThread(Number(parentId)),
    /** Every page of a `ThreadsRequest` until the SDK says it is exhausted: each thread's root, count and last reply. */
    threads: async (options: { guid?: string; uid?: string; participatedByMe?: boolean; limit?: number }) => {
      let builder = new CometChat.ThreadsRequestBuilder().setLimit(options.limit ?? 30);
      if (options.guid !== undefined) builder = builder.setGuid(options.guid);
      if (options.uid !== undefined) builder = builder.setUid(options.uid);
      if (options.participatedByMe !== undefined)
        builder = builder.setParticipatedByMe(options.participatedByMe);
      const request = builder.build();
      const threads: Array<{ parentMessageId: string; replyCount: number; lastReply: string | null }> = [];
      for (let page = 0; page < 50 && request.hasMore(); page += 1) {
        for (const thread of await request.fetchNext()) {
          threads.push({
            parentMessageId: String(thread.getParentMessageId()),
            replyCount: thread.getReplyCount(),
            lastReply: thread.getLastReply() === null ? null : String(thread.getLastReply()?.getId()),
          });
        }
      }
      return threads;
    },
    /** The newest page of a group without thread replies, as the UI Kit's message list asks. */
    groupWithoutReplies: async (guid: string) => {
      const request = new CometChat.MessagesRequestBuilder()
        .setGUID(guid)
        .setLimit(30)
        .hideReplies(true)
        .build();
      return ((await request.fetchPrevious()) as unknown as MessageLike[]).map(describe);
    },
    messageDetails: async (id: string) =>
      describe((await CometChat.getMessageDetails(id)) as unknown as MessageLike),
    addReaction: async (id: string, reaction: string) =>
      describe((await CometChat.addReaction(id, reaction)) as unknown as MessageLike),
    removeReaction: async (id: string, reaction: string) =>
      describe((await CometChat.removeReaction(id, reaction)) as unknown as MessageLike),
    /** The first page of who reacted, as the UI Kit's reaction list asks for it. */
    reactions: async (id: string, reaction?: string) => {
      let builder = new CometChat.ReactionsRequestBuilder().setMessageId(Number(id)).setLimit(10);
      if (reaction !== undefined) builder = builder.setReaction(reaction);
      const page = (await builder.build().fetchNext()) as unknown as ReactionLike[];
      return page.map(describeReaction);
    },
    sendCustom: async (receiver: string, type: string, customData: Record<string, unknown>) => {
      const message = new CometChat.CustomMessage(receiver, 'user', type, customData);
      return describe((await CometChat.sendCustomMessage(message)) as unknown as MessageLike);
    },
    sendForm: async (receiver: string, interactiveData: Record<string, unknown>) => {
      const message = new CometChat.InteractiveMessage(receiver, 'user', 'form', interactiveData);
      message.setInteractionGoal(new CometChat.InteractionGoal(CometChat.GoalType.ANY_ACTION, []));
      return describe((await CometChat.sendInteractiveMessage(message)) as unknown as MessageLike);
    },
    /** `sendMediaMessage` with a File, as the UI Kit's composer sends a picked file. */
    sendMedia: async (receiver: string, type: string, name: string, base64: string) => {
      const file = new File([fromBase64(base64)], name);
      const message = new CometChat.MediaMessage(receiver, file, type, 'user');
      return describe((await CometChat.sendMediaMessage(message)) as unknown as MessageLike);
    },
    /** Fetches an attachment's URL as the page would (an <img>, a download link). */
    download: async (url: string) => {
      const response = await fetch(url);
      return {
        status: response.status,
        contentType: response.headers.get('content-type'),
        disposition: response.headers.get('content-disposition'),
        base64: toBase64(new Uint8Array(await response.arrayBuffer())),
      };
    },
    /** Pages back through a one-on-one history until the SDK returns an empty page. */
    history: async (uid: string, perPage: number) => {
      const request = new CometChat.MessagesRequestBuilder().setUID(uid).setLimit(perPage).build();
      const pages: string[][] = [];
      for (let page = 0; page < 50; page += 1) {
        const messages = (await request.fetchPrevious()) as unknown as MessageLike[];
        if (messages.length === 0) break;
        pages.push(messages.map((message) => String(message.getId())));
      }
      return pages;
    },
    /** A one-on-one conversation's messages after `messageId`, oldest first: what a client missed. */
    historyAfter: async (uid: string, messageId: string) => {
      const request = new CometChat.MessagesRequestBuilder()
        .setUID(uid)
        .setMessageId(Number(messageId))
        .setLimit(100)
        .build();
      const messages: MessageLike[] = [];
      for (let page = 0; page < 50; page += 1) {
        const next = (await request.fetchNext()) as unknown as MessageLike[];
        if (next.length === 0) break;
        messages.push(...next);
      }
      return messages.map(describe);
    },
    /** The newest page of a one-on-one history with when each message was received and read. */
    receiptsInHistory: async (uid: string) => {
      const request = new CometChat.MessagesRequestBuilder().setUID(uid).setLimit(30).build();
      const messages = (await request.fetchPrevious()) as unknown as Array<
        MessageLike & { getDeliveredAt(): number; getReadAt(): number }
      >;
      return messages.map((message) => ({
        id: String(message.getId()),
        deliveredAt: message.getDeliveredAt() ?? 0,
        readAt: message.getReadAt() ?? 0,
      }));
    },
    markAsDelivered: async (messageId: string) => {
      const message = received.get(messageId);
      if (message === undefined) throw new Error(`message ${messageId} was not received`);
      await CometChat.markAsDelivered(message);
      return true;
    },
    messageReceipts: async (messageId: string) => {
      const receipts = (await CometChat.getMessageReceipts(messageId)) as Array<{
        getSender(): { getUid(): string };
        getReceiptType(): string;
        getDeliveredAt(): number | null;
        getReadAt(): number | null;
      }>;
      return receipts.map((receipt) => ({
        by: receipt.getSender().getUid(),
        type: receipt.getReceiptType(),
        delivered: (receipt.getDeliveredAt() ?? 0) > 0,
        read: (receipt.getReadAt() ?? 0) > 0,
      }));
    },
    /** One page of a group's history as the UI Kit's mention filters ask for it. */
    groupHistory: async (
      guid: string,
      filters: { hasMentions?: boolean; mentionedUids?: string[]; withTagInfo?: boolean },
    ) => {
      let builder = new CometChat.MessagesRequestBuilder().setGUID(guid).setLimit(30);
      if (filters.hasMentions === true) builder = builder.hasMentions(true);
      if (filters.mentionedUids !== undefined) builder = builder.setMentionedUIDs(filters.mentionedUids);
      if (filters.withTagInfo === true) builder = builder.mentionsWithTagInfo(true);
      const messages = (await builder.build().fetchPrevious()) as unknown as MessageLike[];
      return messages.map(describe);
    },
    /** The UI Kit's @-mention suggestions: the group's members whose name or UID has the keyword. */
    searchMembers: async (guid: string, keyword: string) => {
      const request = new CometChat.GroupMembersRequestBuilder(guid)
        .setLimit(30)
        .setSearchKeyword(keyword)
        .build();
      return (await request.fetchNext()).map((member) => member.getUid());
    },
    conversations: async () => {
      const request = new CometChat.ConversationsRequestBuilder().setLimit(30).build();
      const conversations = await request.fetchNext();
      return conversations.map((conversation) => ({
        conversationId: conversation.getConversationId(),
        type: conversation.getConversationType(),
        unread: conversation.getUnreadMessageCount(),
        lastMessageId: String(
          (conversation.getLastMessage() as unknown as MessageLike | undefined)?.getId() ?? '',
        ),
      }));
    },
    typing: async (receiver: string, action: 'start' | 'end') => {
      const indicator = new CometChat.TypingIndicator(receiver, 'user');
      if (action === 'start') CometChat.startTyping(indicator);
      else CometChat.endTyping(indicator);
      return true;
    },
    markAsRead: async (messageId: string) => {
      const message = received.get(messageId);
      if (message === undefined) throw new Error(`message ${messageId} was not received`);
      await CometChat.markAsRead(message);
      return true;
    },
    markAsInteracted: async (messageId: string, elementId: string) =>
      CometChat.markAsInteracted(messageId, elementId),
    authToken: async () => (await CometChat.getLoggedinUser())?.getAuthToken() ?? null,
    fetchNotificationPreferences: async () => preferencesOf(await Notifications.fetchPreferences()),
    /** Group messages to `groupMessages` (MessagesOptions' value) and do-not-disturb on or off. */
    updateNotificationPreferences: async (groupMessages: number, dnd: boolean) => {
      const preferences = new Notifications.NotificationPreferences();
      const group = new Notifications.GroupPreferences();
      group.setMessagesPreference(groupMessages);
      preferences.setGroupPreferences(group);
      const mute = new Notifications.MutePreferences();
      mute.setDNDPreference(dnd ? Notifications.DNDOptions.ENABLED : Notifications.DNDOptions.DISABLED);
      preferences.setMutePreferences(mute);
      return preferencesOf(await Notifications.updatePreferences(preferences));
    },
    resetNotificationPreferences: async () => preferencesOf(await Notifications.resetPreferences()),
    registerPushToken: async (token: string, providerId: string) =>
      Notifications.registerPushToken(token, Notifications.PushPlatforms.FCM_WEB, providerId),
    unregisterPushToken: async () => Notifications.unregisterPushToken(),
    muteConversations: async (conversations: Array<{ id: string; type: string; until?: number }>) =>
      Notifications.muteConversations(
        conversations.map(({ id, type, until }) => {
          const muted = new Notifications.MutedConversation();
          muted.setId(id);
          muted.setType(type as never);
          if (until !== undefined) muted.setUntil(until);
          return muted;
        }),
      ),
    unmuteConversations: async (conversations: Array<{ id: string; type: string }>) =>
      Notifications.unmuteConversations(
        conversations.map(({ id, type }) => {
          const unmuted = new Notifications.UnmutedConversation();
          unmuted.setId(id);
          unmuted.setType(type as never);
          return unmuted;
        }),
      ),
    mutedConversations: async () =>
      (await Notifications.getMutedConversations()).map((muted) => ({
        id: muted.getId(),
        type: muted.getType(),
        until: muted.getUntil() ?? null,
      })),
    updateTimezone: async (timezone: string) => Notifications.updateTimezone(timezone),
    getTimezone: async () => Notifications.getTimezone(),
    logout: async () => {
      await CometChat.logout();
      return true;
    },
  } as unknown as SdkOps;
}
