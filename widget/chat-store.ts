import {
  messageTarget,
  randomHex,
  sameTarget,
  targetKey,
  type ChatClient,
  type ChatTarget,
  type Conversation,
  type FormValues,
  type GroupEntity,
  type LoginCredentials,
  type Message,
  type MessageCursor,
  type UserEntity,
} from '../shared/chat-client/index.js';
import { Emitter, isAgentRole } from '../shared/chat-client/index.js';
import { changedMessage } from './action-text.js';
import { attachModule } from './attach-assets.js';
import type { AttachBox } from './attach.js';
import type { MentionCandidate } from './mentions.js';
import { conversationTarget, isGroup, type Peer } from './peers.js';
import type { ChatState, PendingMessage, RepliesState, Submission, ThreadState } from './state.js';

export interface ChatStoreEvents {
  change: ChatState;
  unreadCountChanged: number;
  messageReceived: Message;
}

/** How long a typing indicator lasts without a new `started`, and how often this user re-announces typing. */
const TYPING_SHOWN_MS = 6_000;
const TYPING_REPEAT_MS = 3_000;
const TYPING_IDLE_MS = 4_000;

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function byId(a: Message, b: Message): number {
  return Number(a.id) - Number(b.id);
}

function mergeMessages(existing: readonly Message[], incoming: readonly Message[]): Message[] {
  const byKey = new Map(existing.map((message) => [message.id, message]));
  for (const message of incoming) byKey.set(message.id, message);
  return [...byKey.values()].sort(byId);
}

function emptyThread(target: ChatTarget): ThreadState {
  return {
    target,
    messages: [],
    pending: [],
    loading: false,
    loadingOlder: false,
    readUpTo: 0,
    deliveredUpTo: 0,
    typing: [],
    submissions: {},
    mentionCandidates: [],
    reactors: {},
    drafts: [],
    uploads: [],
  };
}

/** A message's reactions after one user gave (`delta` 1) or took back (-1) `reaction`. */
export function withReaction(message: Message, reaction: string, delta: 1 | -1, mine: boolean): Message {
  const counts = [...(message.data.reactions ?? [])];
  const index = counts.findIndex((count) => count.reaction === reaction);
  const current = counts[index];
  const count = (current?.count ?? 0) + delta;
  const reactedByMe = mine ? delta > 0 : current?.reactedByMe === true;
  const next = { reaction, count, ...(reactedByMe ? { reactedByMe } : {}) };
  if (count <= 0) counts.splice(index, index < 0 ? 0 : 1);
  else if (index < 0) counts.push(next);
  else counts[index] = next;
  return { ...message, data: { ...message.data, reactions: counts } };
}

const reactorsKey = (messageId: string, reaction: string): string => `${messageId} ${reaction}`;

/** The other side of a conversation as a message names it. */
function peerOf(message: Message, me: string): UserEntity | GroupEntity | undefined {
  const { sender, receiver } = message.data.entities;
  if (message.receiverType === 'group') return receiver?.entity as GroupEntity | undefined;
  const other = message.sender.toLowerCase() === me.toLowerCase() ? receiver : sender;
  return other?.entity as UserEntity | undefined;
}

/**
 * The widget's state (`state.ts`): conversations, open threads, typing, receipts and form
 * submissions, kept current from the chat client's events. `<parley-chat>` calls its actions for
 * the events its views fire and hands the views their part of the state; it never touches the DOM.
 */
export class ChatStore {
  readonly events = new Emitter<ChatStoreEvents>();
  #state: ChatState = {
    phase: 'idle',
    connection: 'stopped',
    reconnecting: false,
    conversations: [],
    conversationsLoaded: false,
    threads: new Map(),
    unread: 0,
  };
  #visible = true;
  #typingTimers = new Map<string, ReturnType<typeof setTimeout>>();
  #ownTyping = new Map<string, { announcedAt: number; idle: ReturnType<typeof setTimeout> }>();
  #mentionCandidates = new Map<string, Promise<MentionCandidate[]>>();
  /** Replies already counted on their parent, so one seen twice (answer and frame) counts once. */
  #countedReplies = new Set<string>();
  #unsubscribe: Array<() => void> = [];
  /**
   * Messages fetched again for fresh file URLs, by id and ten minutes (the service's expiry step): a
   * file that is gone is asked for at most that often, a link that expired again gets fresh ones.
   */
  #refreshed = new Set<string>();

  constructor(readonly client: ChatClient) {
    const on = client.events.on.bind(client.events);
    this.#unsubscribe = [
      on('message', (message) => this.#onMessage(message)),
      on('typing', ({ target, user, typing }) => this.#onTyping(target, user, typing)),
      on('receipt', ({ target, action, messageId }) => this.#onReceipt(target, action, messageId)),
      on('interactionCompleted', ({ messageId, interactions }) =>
        this.#patchMessage(messageId, (message) => ({ ...message, data: { ...message.data, interactions } })),
      ),
      on('reaction', ({ action, messageId, reaction, uid }) => {
        const mine = uid.toLowerCase() === this.#state.me?.uid.toLowerCase();
        const delta = action === 'message_reaction_added' ? 1 : -1;
        this.#patchMessage(messageId, (message) => withReaction(message, reaction, delta, mine));
        this.#forgetReactors(messageId, reaction);
      }),
      // Changed while the socket was down: replaced whole, as a live edit or delete replaces it.
      on('updated', (message) => this.#patchMessage(message.id, () => message)),
      on('presence', ({ user, online }) => this.#onPresence(user.uid, online ? 'online' : 'offline')),
      on('connection', (connection) =>
        this.#set({
          connection,
          reconnecting:
            connection === 'connected' || connection === 'stopped'
              ? false
              : this.#state.reconnecting || this.#state.connection === 'connected',
        }),
      ),
      on('sent', ({ muid, message }) => this.#onSent(muid, message)),
      on('sendFailed', ({ muid }) => this.#setPendingStatus(muid, 'failed')),
      on('resynced', () => {
        void this.#loadConversations();
        void this.#reloadOpenReplies();
      }),
      on('sessionEnded', () => this.#set({ phase: 'signed-out', me: undefined })),
    ];
  }

  get state(): ChatState {
    return this.#state;
  }

  thread(target: ChatTarget | undefined): ThreadState | undefined {
    return target ? this.#state.threads.get(targetKey(target)) : undefined;
  }

  /** Detaches from the client (the client itself stays logged in). */
  dispose(): void {
    for (const stop of this.#unsubscribe) stop();
    for (const timer of this.#typingTimers.values()) clearTimeout(timer);
    for (const { idle } of this.#ownTyping.values()) clearTimeout(idle);
  }

  async signIn(credentials: LoginCredentials): Promise<void> {
    this.#set({ phase: 'signing-in', error: undefined });
    try {
      const me = await this.client.login(credentials);
      this.#set({ phase: 'ready', me, connection: this.client.connection });
    } catch (error) {
      this.#set({ phase: 'error', error: errorText(error) });
      throw error;
    }
    await this.#loadConversations();
  }

  async signOut(): Promise<void> {
    await this.client.logout();
    this.#mentionCandidates.clear();
    this.#set({
      phase: 'signed-out',
      me: undefined,
      conversations: [],
      threads: new Map(),
      active: undefined,
    });
  }

  async #loadConversations(): Promise<void> {
    try {
      const { conversations } = await this.client.conversations();
      this.#set({ conversations, conversationsLoaded: true });
    } catch (error) {
      if (!this.#state.conversationsLoaded) this.#set({ error: errorText(error), conversationsLoaded: true });
    }
  }

  /** Whether the user can see the widget (a docked window may be closed); decides what counts as read. */
  setVisible(visible: boolean): void {
    this.#visible = visible;
    if (visible && this.#state.active) void this.#markRead(this.#state.active);
  }

  /** Opens a conversation: loads its newest messages once, and marks it read. */
  async open(target: ChatTarget): Promise<void> {
    this.#set({ active: target });
    const existing = this.thread(target);
    if (existing && !existing.error) {
      this.#markUnreadFrom(target);
      void this.#markRead(target);
      return;
    }
    const conversation = this.#conversationOf(target);
    this.#setThread(target, () => ({
      ...emptyThread(target),
      ...(conversation ? { peer: conversation.conversationWith } : {}),
      loading: true,
    }));
    try {
      const [page, peer] = await Promise.all([
        this.client.messages(target),
        conversation
          ? conversation.conversationWith
          : target.type === 'user'
            ? this.client.user(target.id)
            : this.client.group(target.id),
      ]);
      this.#setThread(target, (thread) => ({
        ...thread,
        peer,
        messages: mergeMessages(thread.messages, page.messages),
        older: page.older,
        loading: false,
        readUpTo: Math.max(thread.readUpTo, ...this.#receiptIds(page.messages, 'readAt')),
        deliveredUpTo: Math.max(thread.deliveredUpTo, ...this.#receiptIds(page.messages, 'deliveredAt')),
      }));
      this.#markUnreadFrom(target);
      void this.#markRead(target);
    } catch (error) {
      this.#setThread(target, (thread) => ({ ...thread, loading: false, error: errorText(error) }));
    }
  }

  /**
   * Puts "New messages" above the first message from others after this user's read pointer. With
   * nothing unread (opened again, or twice at once) the separator stays where it was.
   */
  #markUnreadFrom(target: ChatTarget): void {
    const me = this.#state.me?.uid.toLowerCase();
    const conversation = this.#conversationOf(target);
    const lastRead = Number(conversation?.lastReadMessageId);
    const first = this.thread(target)?.messages.find(
      (m) => Number(m.id) > lastRead && m.sender.toLowerCase() !== me,
    );
    if (first) this.#setThread(target, (t) => ({ ...t, unreadFrom: first.id }));
  }

  /** Back to the conversation list. */
  close(): void {
    this.#set({ active: undefined });
  }

  async loadOlder(target: ChatTarget): Promise<void> {
    const thread = this.thread(target);
    if (!thread?.older || thread.loadingOlder) return;
    this.#setThread(target, (t) => ({ ...t, loadingOlder: true }));
    try {
      const page = await this.client.messages(target, { before: thread.older });
      this.#setThread(target, (t) => ({
        ...t,
        messages: mergeMessages(t.messages, page.messages),
        older: page.older,
        loadingOlder: false,
      }));
    } catch (error) {
      this.#setThread(target, (t) => ({ ...t, loadingOlder: false, error: errorText(error) }));
    }
  }

  async send(target: ChatTarget, text: string): Promise<void> {
    const body = text.trim();
    if (body === '') return;
    this.#stopTyping(target);
    const muid = `parley-${randomHex(12)}`;
    const pending: PendingMessage = {
      muid,
      text: body,
      createdAt: Math.floor(Date.now() / 1000),
      status: 'sending',
    };
    this.#setThread(target, (t) => ({ ...t, pending: [...t.pending, pending] }));
    try {
      const outcome = await this.client.send(
        target,
        { category: 'message', type: 'text', data: { text: body } },
        { muid },
      );
      if (outcome.status === 'sent') this.#onSent(muid, outcome.message);
      else this.#setPendingStatus(muid, 'queued');
    } catch {
      this.#setPendingStatus(muid, 'failed');
    }
  }

  /**
   * Reports a form interaction. Where the message is shown, its thread's `submissions` say how the
   * report stands (pending, failed with the reason, done), and a recorded one is added to the
   * message's interactions so the form shows it at once. A report already under way is not repeated.
   */
  async interact(message: Message, elementId: string, values?: FormValues): Promise<void> {
    const id = message.id;
    if (this.#submissionOf(id)?.state === 'pending') return;
    this.#setSubmission(id, { state: 'pending', elementId });
    try {
      await this.client.markInteracted(id, elementId, values);
    } catch (error) {
      this.#setSubmission(id, { state: 'failed', elementId, message: errorText(error) });
      return;
    }
    const interactedAt = Math.floor(Date.now() / 1000);
    this.#patchMessage(id, (current) => {
      const others = (current.data.interactions ?? []).filter((i) => i.elementId !== elementId);
      return {
        ...current,
        data: { ...current.data, interactions: [...others, { elementId, interactedAt }] },
      };
    });
    this.#setSubmission(id, { state: 'done', elementId });
  }

  /**
   * Where files wait: the conversation's composer, or (`replies`) the composer of its open thread
   * of replies, whose files are sent as a reply.
   */
  #box(target: ChatTarget, replies?: boolean): AttachBox {
    const parent = replies ? this.thread(target)?.replies?.parent : undefined;
    return {
      target,
      ...(parent ? { parent } : {}),
      get: () => (parent ? this.thread(target)?.replies : this.thread(target)),
      set: (change) =>
        this.#setThread(target, (t) =>
          !parent
            ? { ...t, ...change(t) }
            : t.replies?.parent.id === parent.id
              ? { ...t, replies: { ...t.replies, ...change(t.replies) } }
              : t,
        ),
      // A reply joins its thread; a message, its conversation.
      sent: (muid, message) => (parent ? this.#onMessage(message) : this.#onSent(muid, message)),
    };
  }

  /** Adds files to send, for a look first; loads the code for sending files. */
  async attach(target: ChatTarget, files: readonly File[], replies?: boolean): Promise<void> {
    if (files.length === 0) return;
    try {
      await attachModule();
    } catch (error) {
      this.#setThread(target, (t) => ({ ...t, error: errorText(error) }));
      return;
    }
    this.#box(target, replies).set((b) => ({ drafts: [...b.drafts, ...files] }));
  }

  unattach(target: ChatTarget, index: number, replies?: boolean): void {
    this.#box(target, replies).set((b) => ({ drafts: b.drafts.filter((_, i) => i !== index) }));
  }

  /** Sends the attached files as one media message (`attach.ts`), a reply in the open thread with `replies`. */
  async sendAttached(target: ChatTarget, replies?: boolean): Promise<void> {
    try {
      await (await attachModule()).sendAttached(this.client, this.#box(target, replies));
    } catch (error) {
      this.#setThread(target, (t) => ({ ...t, error: errorText(error) }));
    }
  }

  /** Stops an upload (a message the service had already made of it is deleted), or dismisses a failed one. */
  async cancelUpload(target: ChatTarget, muid: string, replies?: boolean): Promise<void> {
    try {
      await (await attachModule()).cancelUpload(this.client, this.#box(target, replies), muid);
    } catch (error) {
      this.#setThread(target, (t) => ({ ...t, error: errorText(error) }));
    }
  }

  /** A message's file URLs failed (signed URLs expire): fetches the message for fresh ones, at most once in ten minutes. */
  async refresh(messageId: string): Promise<void> {
    const key = `${messageId} ${Math.floor(Date.now() / 6e5)}`;
    if (this.#refreshed.has(key)) return;
    this.#refreshed.add(key);
    try {
      const fresh = await this.client.message(messageId);
      this.#patchMessage(messageId, (m) => ({ ...m, data: { ...m.data, ...fresh.data } }));
    } catch {
      // The files stay as they were; the message may have been deleted meanwhile.
    }
  }

  /** Gives this user's `reaction` to a message, or takes it back when they had given it. */
  async react(messageId: string, reaction: string): Promise<void> {
    const message = this.#findMessage(messageId);
    if (!message) return;
    const on = !message.data.reactions?.some((count) => count.reaction === reaction && count.reactedByMe);
    try {
      const answer = await this.client.react(messageId, reaction, on);
      this.#patchMessage(messageId, (m) => ({
        ...m,
        data: { ...m.data, reactions: answer.data.reactions ?? [] },
      }));
      this.#forgetReactors(messageId, reaction);
    } catch (error) {
      this.#patchThreadsShowing(messageId, (t) => ({ ...t, error: errorText(error) }));
    }
  }

  /** Fetches who reacted to a message with `reaction` into its thread's `reactors`, once. */
  async reactors(messageId: string, reaction: string): Promise<void> {
    const key = reactorsKey(messageId, reaction);
    if ([...this.#state.threads.values()].some((t) => t.reactors[key])) return;
    try {
      const names = (await this.client.reactors(messageId, reaction)).map((r) => r.reactedBy.name);
      this.#patchThreadsShowing(messageId, (t) => ({ ...t, reactors: { ...t.reactors, [key]: names } }));
    } catch {
      // Names stay unknown; the count is still shown, and the next focus asks again.
    }
  }

  /** Opens the thread of replies to a message of the conversation and loads its newest replies. */
  async openReplies(target: ChatTarget, messageId: string): Promise<void> {
    const parent = this.thread(target)?.messages.find((m) => m.id === messageId);
    if (!parent) return;
    this.#setThread(target, (t) => ({
      ...t,
      replies: { parent, messages: [], loading: true, drafts: [], uploads: [] },
    }));
    await this.#loadReplies(target, parent.id);
  }

  closeReplies(target: ChatTarget): void {
    this.#setThread(target, ({ replies: _closed, ...thread }) => thread);
  }

  async loadOlderReplies(target: ChatTarget): Promise<void> {
    const replies = this.thread(target)?.replies;
    if (!replies?.older || replies.loading) return;
    this.#setReplies(target, replies.parent.id, (r) => ({ ...r, loading: true }));
    await this.#loadReplies(target, replies.parent.id, replies.older);
  }

  /** After missing realtime for a while, the open thread fetches its newest replies again. */
  async #reloadOpenReplies(): Promise<void> {
    const target = this.#state.active;
    const parentId = this.thread(target)?.replies?.parent.id;
    if (target && parentId !== undefined) await this.#loadReplies(target, parentId);
  }

  async #loadReplies(target: ChatTarget, parentId: string, before?: MessageCursor): Promise<void> {
    try {
      const page = await this.client.replies(parentId, before ? { before } : {});
      for (const message of page.messages) this.#countedReplies.add(message.id);
      this.#setReplies(target, parentId, ({ older: _older, ...r }) => ({
        ...r,
        messages: mergeMessages(r.messages, page.messages),
        ...(page.older ? { older: page.older } : {}),
        loading: false,
      }));
    } catch (error) {
      this.#setReplies(target, parentId, (r) => ({ ...r, loading: false, error: errorText(error) }));
    }
  }

  /** Replies in the open thread of the conversation. */
  async reply(target: ChatTarget, text: string): Promise<void> {
    const replies = this.thread(target)?.replies;
    const body = text.trim();
    if (!replies || body === '') return;
    try {
      this.#onReply(await this.client.reply(replies.parent, body));
    } catch (error) {
      this.#setReplies(target, replies.parent.id, (r) => ({ ...r, error: errorText(error) }));
    }
  }

  async #markRead(target: ChatTarget): Promise<void> {
    const me = this.#state.me?.uid;
    const thread = this.thread(target);
    if (!me || !thread || !this.#visible || !sameTarget(target, this.#state.active ?? target)) return;
    const lastFromOthers = [...thread.messages]
      .reverse()
      .find((m) => m.sender.toLowerCase() !== me.toLowerCase());
    this.#updateConversation(target, (c) => ({
      ...c,
      unreadMessageCount: 0,
      ...(lastFromOthers ? { lastReadMessageId: lastFromOthers.id } : {}),
    }));
    if (!lastFromOthers) return;
    this.client.sendReceipt(lastFromOthers, 'read');
    try {
      await this.client.markConversationRead(target);
    } catch {
      // The count is fixed again by the next conversation list load.
    }
  }

  /** Announces typing, at most every few seconds, and its end after a pause. */
  typing(target: ChatTarget): void {
    const key = targetKey(target);
    const own = this.#ownTyping.get(key);
    const now = Date.now();
    if (own) clearTimeout(own.idle);
    const announcedAt = !own || now - own.announcedAt > TYPING_REPEAT_MS ? now : own.announcedAt;
    if (announcedAt === now) this.client.sendTyping(target, true);
    this.#ownTyping.set(key, {
      announcedAt,
      idle: setTimeout(() => this.#stopTyping(target), TYPING_IDLE_MS),
    });
  }

  /**
   * Group members and agents a message in this conversation can mention (never this user), also
   * kept in its thread's `mentionCandidates`. Fetched once per conversation; none while they cannot
   * be fetched (the next call asks again).
   */
  mentionCandidates(target: ChatTarget): Promise<MentionCandidate[]> {
    if (target.type !== 'group') return Promise.resolve([]);
    const key = targetKey(target);
    let found = this.#mentionCandidates.get(key);
    if (!found) {
      found = this.#fetchMentionCandidates(target.id).catch(() => {
        this.#mentionCandidates.delete(key);
        return [];
      });
      this.#mentionCandidates.set(key, found);
    }
    return found.then((candidates) => {
      const thread = this.thread(target);
      if (thread && thread.mentionCandidates !== candidates)
        this.#setThread(target, (t) => ({ ...t, mentionCandidates: candidates }));
      return candidates;
    });
  }

  async #fetchMentionCandidates(guid: string): Promise<MentionCandidate[]> {
    const me = this.#state.me?.uid.toLowerCase();
    const [members, agents] = await Promise.all([
      this.client.groupMembers(guid),
      this.client.agents().catch(() => []),
    ]);
    const byUid = new Map<string, MentionCandidate>();
    for (const user of [...members, ...agents]) {
      if (user.uid.toLowerCase() === me) continue;
      byUid.set(user.uid, { uid: user.uid, name: user.name, agent: isAgentRole(user.role) });
    }
    return [...byUid.values()];
  }

  // Event handling

  #onMessage(message: Message): void {
    const me = this.#state.me?.uid;
    if (!me) return;
    const changed = changedMessage(message);
    if (changed) {
      this.#patchMessage(changed.id, () => changed);
      return;
    }
    if (message.parentId !== undefined) {
      this.#onReply(message);
      return;
    }
    const target = messageTarget(message, me);
    const mine = message.sender.toLowerCase() === me.toLowerCase();
    const seen = this.#visible && this.#state.active !== undefined && sameTarget(this.#state.active, target);
    if (this.thread(target)) {
      this.#setThread(target, (t) => ({
        ...t,
        messages: mergeMessages(t.messages, [message]),
        typing: t.typing.filter((user) => user.uid !== message.sender),
      }));
    }
    const known = this.#conversationOf(target);
    const isNew = !known?.lastMessage || Number(message.id) > Number(known.lastMessage.id);
    if (isNew) {
      const peer = known?.conversationWith ?? peerOf(message, me);
      if (peer) {
        const conversation: Conversation = {
          conversationId: message.conversationId,
          conversationType: target.type,
          ...known,
          conversationWith: peer,
          lastMessage: message,
          updatedAt: message.sentAt,
          unreadMessageCount: (known?.unreadMessageCount ?? 0) + (mine || seen ? 0 : 1),
        };
        const others = this.#state.conversations.filter((c) => c !== known);
        this.#set({ conversations: [conversation, ...others] });
      }
    }
    if (mine) return;
    if (seen) void this.#markRead(target);
    else this.client.sendReceipt(message, 'delivered');
    this.events.emit('messageReceived', message);
  }

  /** A reply counts on its parent (once) and joins the thread when it is open. */
  #onReply(message: Message): void {
    const me = this.#state.me?.uid;
    const parentId = message.parentId;
    if (!me || parentId === undefined) return;
    const first = !this.#countedReplies.has(message.id);
    this.#countedReplies.add(message.id);
    const counted = (m: Message): Message =>
      first && m.id === parentId ? { ...m, replyCount: (m.replyCount ?? 0) + 1 } : m;
    const target = messageTarget(message, me);
    if (!this.thread(target)) return;
    this.#setThread(target, (t) => ({
      ...t,
      messages: t.messages.map(counted),
      ...(t.replies?.parent.id === parentId
        ? {
            replies: {
              ...t.replies,
              parent: counted(t.replies.parent),
              messages: mergeMessages(t.replies.messages, [message]),
            },
          }
        : {}),
    }));
  }

  #onSent(muid: string, message: Message): void {
    const me = this.#state.me?.uid;
    if (!me) return;
    const target = messageTarget(message, me);
    this.#setThread(target, (t) => ({
      ...t,
      messages: mergeMessages(t.messages, [message]),
      pending: t.pending.filter((p) => p.muid !== muid),
    }));
    this.#onMessage(message);
  }

  #onTyping(target: ChatTarget, user: UserEntity, typing: boolean): void {
    const key = `${targetKey(target)}|${user.uid}`;
    clearTimeout(this.#typingTimers.get(key));
    this.#typingTimers.delete(key);
    const without = (t: ThreadState) => t.typing.filter((u) => u.uid !== user.uid);
    if (!this.thread(target)) return;
    if (typing) {
      this.#setThread(target, (t) => ({ ...t, typing: [...without(t), user] }));
      // A lost "ended" must not leave the indicator on forever.
      this.#typingTimers.set(
        key,
        setTimeout(() => this.#onTyping(target, user, false), TYPING_SHOWN_MS),
      );
    } else this.#setThread(target, (t) => ({ ...t, typing: without(t) }));
  }

  /** Keeps the online state of one-to-one peers current in the list and the open threads. */
  #onPresence(uid: string, status: string): void {
    const same = (peer: Peer | undefined) =>
      peer !== undefined && !isGroup(peer) && peer.uid.toLowerCase() === uid.toLowerCase();
    const conversations = this.#state.conversations.map((c) =>
      same(c.conversationWith) ? { ...c, conversationWith: { ...c.conversationWith, status } } : c,
    );
    const threads = new Map(
      [...this.#state.threads].map(([key, t]) => [
        key,
        same(t.peer) ? { ...t, peer: { ...t.peer!, status } } : t,
      ]),
    );
    this.#set({ conversations, threads });
  }

  #onReceipt(target: ChatTarget, action: string, messageId: string): void {
    const id = Number(messageId);
    if (!this.thread(target)) return;
    if (action === 'read' || action === 'readByAll') {
      this.#setThread(target, (t) => ({
        ...t,
        readUpTo: Math.max(t.readUpTo, id),
        deliveredUpTo: Math.max(t.deliveredUpTo, id),
      }));
    } else this.#setThread(target, (t) => ({ ...t, deliveredUpTo: Math.max(t.deliveredUpTo, id) }));
  }

  #stopTyping(target: ChatTarget): void {
    const key = targetKey(target);
    const own = this.#ownTyping.get(key);
    if (!own) return;
    clearTimeout(own.idle);
    this.#ownTyping.delete(key);
    this.client.sendTyping(target, false);
  }

  // State updates

  #receiptIds(messages: readonly Message[], field: 'readAt' | 'deliveredAt'): number[] {
    const me = this.#state.me?.uid.toLowerCase();
    return messages
      .filter((m) => m.sender.toLowerCase() === me && m[field] !== undefined)
      .map((m) => Number(m.id));
  }

  #conversationOf(target: ChatTarget): Conversation | undefined {
    return this.#state.conversations.find((c) => sameTarget(conversationTarget(c), target));
  }

  #updateConversation(target: ChatTarget, change: (c: Conversation) => Conversation): void {
    const known = this.#conversationOf(target);
    if (!known) return;
    this.#set({ conversations: this.#state.conversations.map((c) => (c === known ? change(c) : c)) });
  }

  #setThread(target: ChatTarget, change: (thread: ThreadState) => ThreadState): void {
    const key = targetKey(target);
    const current = this.#state.threads.get(key);
    const next = change(current ?? emptyThread(target));
    const threads = new Map(this.#state.threads);
    threads.set(key, next);
    this.#set({ threads });
  }

  #setPendingStatus(muid: string, status: PendingMessage['status']): void {
    for (const thread of this.#state.threads.values()) {
      if (thread.pending.some((p) => p.muid === muid)) {
        this.#setThread(thread.target, (t) => ({
          ...t,
          pending: t.pending.map((p) => (p.muid === muid ? { ...p, status } : p)),
        }));
      }
    }
  }

  #patchMessage(messageId: string, change: (message: Message) => Message): void {
    const patch = (m: Message) => (m.id === messageId ? change(m) : m);
    this.#patchThreadsShowing(messageId, (t) => ({
      ...t,
      messages: t.messages.map(patch),
      ...(t.replies
        ? {
            replies: {
              ...t.replies,
              parent: patch(t.replies.parent),
              messages: t.replies.messages.map(patch),
            },
          }
        : {}),
    }));
  }

  #findMessage(messageId: string): Message | undefined {
    for (const thread of this.#state.threads.values()) {
      const found = [...thread.messages, ...(thread.replies?.messages ?? [])].find((m) => m.id === messageId);
      if (found) return found;
    }
    return undefined;
  }

  #forgetReactors(messageId: string, reaction: string): void {
    const key = reactorsKey(messageId, reaction);
    this.#patchThreadsShowing(messageId, ({ reactors: { [key]: _gone, ...reactors }, ...t }) => ({
      ...t,
      reactors,
    }));
  }

  #setReplies(target: ChatTarget, parentId: string, change: (replies: RepliesState) => RepliesState): void {
    this.#setThread(target, (t) =>
      t.replies?.parent.id === parentId ? { ...t, replies: change(t.replies) } : t,
    );
  }

  #submissionOf(messageId: string): Submission | undefined {
    for (const thread of this.#state.threads.values()) {
      const submission = thread.submissions[messageId];
      if (submission) return submission;
    }
    return undefined;
  }

  #setSubmission(messageId: string, submission: Submission): void {
    this.#patchThreadsShowing(messageId, (t) => ({
      ...t,
      submissions: { ...t.submissions, [messageId]: submission },
    }));
  }

  #patchThreadsShowing(messageId: string, change: (thread: ThreadState) => ThreadState): void {
    for (const thread of this.#state.threads.values()) {
      const shown = [thread.replies?.parent, ...thread.messages, ...(thread.replies?.messages ?? [])];
      if (shown.some((m) => m?.id === messageId)) this.#setThread(thread.target, change);
    }
  }

  #set(change: Partial<ChatState>): void {
    const next = { ...this.#state, ...change };
    next.unread = next.conversations.reduce((sum, c) => sum + (c.unreadMessageCount ?? 0), 0);
    const unreadChanged = next.unread !== this.#state.unread;
    this.#state = next;
    this.events.emit('change', next);
    if (unreadChanged) this.events.emit('unreadCountChanged', next.unread);
  }
}
