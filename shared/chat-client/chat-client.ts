import { joinUrl, type Fetch } from '../http.js';
import { WEB_PUSH_KEY_PATH, WEB_PUSH_PLATFORM } from '../web-push.js';
import { ChatClientError, isSessionEnded } from './client-error.js';
import { Emitter } from './emitter.js';
import { bootstrapEndpoints, sessionEndpoints, type ChatEndpoints, type ChatLocation } from './hosts.js';
import { newSessionId, randomHex } from './ids.js';
import { Outbox, type QueuedMessage } from './outbox.js';
import {
  DEFAULT_BACKOFF,
  RealtimeChannel,
  reconnectDelay,
  type BackoffOptions,
  type ChannelState,
  type KeepAliveOptions,
  type SocketFactory,
} from './realtime.js';
import { apiPath, RestTransport, type Credential, type Envelope, type RestCall } from './rest.js';
import { SessionStore, browserStorage, sessionKey, type KeyValueStorage } from './session-store.js';
import { messageTarget, targetKey, targetOf } from './targets.js';
import type {
  ChatTarget,
  Conversation,
  FormValues,
  GroupEntity,
  GroupMember,
  InteractedAnswer,
  Interaction,
  InteractionsRequest,
  InteractionCompletedBody,
  Me,
  Message,
  MessageCursor,
  MessagePage,
  OutgoingMessage,
  Pagination,
  PresenceBody,
  Reaction,
  ReactionEventBody,
  ReceiptAction,
  ReceiptBody,
  RealtimeFrame,
  TypingBody,
  UserEntity,
} from './types.js';

export const CLIENT_VERSION = 'parley-chat-client/0.1.0';

/**
 * Roles of AI agent users: CometChat's `@agentic` and the `agent` role Parley's registry gives them.
 * Mention suggestions offer agents beside group members, and their answers render as Markdown.
 */
export const AGENT_ROLES: readonly string[] = ['@agentic', 'agent'];

export function isAgentRole(role: string | undefined): boolean {
  return role !== undefined && AGENT_ROLES.includes(role);
}

export interface ChatClientOptions extends ChatLocation {
  /** The app's auth key (`authOnly` scope): lets `login({uid})` create an auth token. */
  authKey?: string;
  fetch?: Fetch;
  /** Defaults to the browser's WebSocket. */
  createSocket?: SocketFactory;
  /** Where the auth token survives reloads; defaults to localStorage, `null` keeps it in memory only. */
  storage?: KeyValueStorage | null;
  keepAlive?: Partial<KeepAliveOptions>;
  backoff?: Partial<BackoffOptions>;
}

export type LoginCredentials = { uid: string } | { authToken: string };

export type SendOutcome =
  { status: 'sent'; muid: string; message: Message } | { status: 'queued'; muid: string };

export interface ChatClientEvents {
  /** A message from someone else or from another device of this user; also each missed one after a reconnect. */
  message: Message;
  typing: { target: ChatTarget; user: UserEntity; typing: boolean };
  receipt: {
    target: ChatTarget;
    action: ReceiptAction;
    messageId: string;
    user: UserEntity;
    timestamp: number;
  };
  presence: { user: UserEntity; online: boolean };
  interactionCompleted: { messageId: string; user: UserEntity; interactions: Interaction[] };
  /** Someone (another user, or this user on another device) added or removed a reaction. */
  reaction: ReactionEventBody;
  /**
   * A message of a conversation this page has seen, as it is now: changed (edited, deleted, reacted
   * to) while the socket was down, fetched after the reconnect. A message the page does not show is
   * nothing to it.
   */
  updated: Message;
  connection: ChannelState;
  /** A message kept for later because the service was unreachable. */
  queued: QueuedMessage;
  /** A queued message reached the service. */
  sent: { muid: string; message: Message };
  /** A queued message the service refused; it is not retried. */
  sendFailed: { muid: string; error: unknown };
  /** After a reconnect, once missed messages were fetched: conversations may have changed meanwhile. */
  resynced: undefined;
  /** The service ended the session (token revoked or expired); the stored token is gone. */
  sessionEnded: undefined;
}

export interface ConversationPage {
  conversations: Conversation[];
  pagination?: Pagination;
}

interface Session {
  me: Me;
  endpoints: ChatEndpoints;
  channel: RealtimeChannel | undefined;
  /**
   * Per conversation seen, after a reconnect: its newest message (`cursor`), where missed messages
   * are fetched from, and the latest service time it showed (`since`), where changes are read from.
   */
  newest: Map<string, { target: ChatTarget; cursor: MessageCursor; since: number }>;
  everConnected: boolean;
  /** Reconnected and not yet caught up with what was missed. */
  behind: boolean;
  resyncAttempt: number;
  resyncTimer: ReturnType<typeof setTimeout> | undefined;
}

const HISTORY_PAGE = 30;
const CATCH_UP_PAGE = 100;

const noop = (): void => {};

function cursorOf(message: MessageCursor): MessageCursor {
  return { id: message.id, sentAt: message.sentAt };
}

/** Where a forward read of a conversation starts: after a message, or from a time its changes. */
type ReadFrom = { id?: string; sentAt?: number; onlyUpdates?: 1; updatedAt?: number };

function newer(a: MessageCursor, b: ReadFrom): boolean {
  return Number(a.id) > Number(b.id);
}

/** The user as others may see it: never the session's token or JWT. */
export function publicUser(me: UserEntity): UserEntity {
  const { uid, name, avatar, role, status } = me;
  return { uid, name, role, status, ...(avatar !== undefined ? { avatar } : {}) };
}

function conversationPath(target: ChatTarget): string {
  return apiPath(target.type === 'user' ? 'users' : 'groups', target.id);
}

/**
 * A browser-safe client of CometChat's client protocol (REST + WebSocket), the widget's only way to
 * talk to the chat service: login by UID or auth token, conversations, history, sending with an
 * offline queue, receipts, typing, form interactions, and a socket that reconnects by itself and
 * fetches what was missed meanwhile.
 */
export class ChatClient {
  readonly events = new Emitter<ChatClientEvents>();
  /** This page's session id: the REST `resource` header and the socket `deviceId`. */
  readonly sessionId = newSessionId();
  readonly #options: ChatClientOptions;
  readonly #rest: RestTransport;
  readonly #store: SessionStore;
  readonly #outbox = new Outbox();
  #session: Session | undefined;
  #login: Promise<Me> | undefined;

  constructor(options: ChatClientOptions) {
    bootstrapEndpoints(options); // fails early on a missing app id or region or a bad host
    this.#options = options;
    const fetchImpl: Fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#rest = new RestTransport(options.appId, this.sessionId, fetchImpl);
    const storage = options.storage === null ? undefined : (options.storage ?? browserStorage());
    this.#store = new SessionStore(storage, sessionKey(options.appId));
  }

  get me(): Me | undefined {
    return this.#session?.me;
  }

  get connection(): ChannelState {
    return this.#session?.channel?.state ?? 'stopped';
  }

  get queued(): readonly QueuedMessage[] {
    return this.#outbox.items;
  }

  /** Logs in and opens the realtime channel. With a UID, a stored token of that user is reused if still valid. */
  login(credentials: LoginCredentials): Promise<Me> {
    // One login at a time: a second call waits for the first, then is judged against its outcome.
    if (this.#login) return this.#login.then(noop, noop).then(() => this.login(credentials));
    const current = this.#session?.me;
    if (current && this.#isCurrent(current, credentials)) return Promise.resolve(current);
    const attempt = (async () => {
      if (this.#session) await this.logout();
      const me = await this.#authenticate(credentials);
      this.#store.write({ uid: me.uid, authToken: me.authToken });
      this.#start(me);
      return me;
    })();
    this.#login = attempt;
    attempt.then(noop, noop).finally(() => {
      if (this.#login === attempt) this.#login = undefined;
    });
    return attempt;
  }

  /** Resumes the stored session, if there is one the service still accepts. */
  async resume(): Promise<Me | undefined> {
    const stored = this.#store.read();
    if (!stored) return undefined;
    try {
      return await this.login({ authToken: stored.authToken });
    } catch (error) {
      if (isSessionEnded(error)) return undefined;
      throw error;
    }
  }

  /** Ends the session on the service (best effort), closes the socket and forgets the stored token. */
  async logout(): Promise<void> {
    const session = this.#session;
    this.#session = undefined;
    this.#store.clear();
    this.#outbox.clear();
    if (!session) return;
    session.channel?.stop();
    clearTimeout(session.resyncTimer);
    try {
      await this.#rest.call({
        method: 'DELETE',
        base: session.endpoints.clientApi,
        path: '/me',
        ...this.#auth(session),
      });
    } catch {
      // The token is forgotten here either way; a service that is down expires it on its own.
    }
  }

  /** Closes the socket but keeps the session (and its stored token) for a later `login` or `resume`. */
  disconnect(): void {
    const session = this.#session;
    this.#session = undefined;
    session?.channel?.stop();
    if (session) clearTimeout(session.resyncTimer);
  }

  /** Skips the wait before the next reconnect attempt, e.g. when the browser reports being online again. */
  reconnectNow(): void {
    this.#session?.channel?.reconnectNow();
  }

  // Conversations and history

  async conversations(page = 1, perPage = 30): Promise<ConversationPage> {
    const envelope = await this.#call<Conversation[]>({
      method: 'GET',
      path: '/conversations',
      query: { per_page: perPage, page },
    });
    const pagination = envelope.meta?.pagination as Pagination | undefined;
    return { conversations: envelope.data, ...(pagination ? { pagination } : {}) };
  }

  async conversation(target: ChatTarget): Promise<Conversation> {
    return (
      await this.#call<Conversation>({ method: 'GET', path: `${conversationPath(target)}/conversation` })
    ).data;
  }

  async user(uid: string): Promise<UserEntity> {
    return (await this.#call<UserEntity>({ method: 'GET', path: apiPath('users', uid) })).data;
  }

  async group(guid: string): Promise<GroupEntity> {
    return (await this.#call<GroupEntity>({ method: 'GET', path: apiPath('groups', guid) })).data;
  }

  /**
   * One page of history, oldest first: the newest messages, or those before `before`. `older` is the
   * cursor of the page before, absent when the conversation has nothing older.
   */
  async messages(
    target: ChatTarget,
    options: { before?: MessageCursor; perPage?: number } = {},
  ): Promise<MessagePage> {
    const page = await this.#page(`${conversationPath(target)}/messages`, { hideReplies: 1 }, options);
    // From now on this page follows the conversation: after a reconnect, what came meanwhile is fetched.
    if (!options.before) this.#noteNewest(target, page.messages.at(-1) ?? { id: '0', sentAt: 0 });
    return page;
  }

  /** One page of the replies in a message's thread, oldest first, like `messages`. */
  replies(
    parentId: string,
    options: { before?: MessageCursor; perPage?: number } = {},
  ): Promise<MessagePage> {
    return this.#page(`${apiPath('messages', parentId)}/thread`, {}, options);
  }

  async #page(
    path: string,
    filter: Record<string, string | number>,
    options: { before?: MessageCursor; perPage?: number },
  ): Promise<MessagePage> {
    const perPage = options.perPage ?? HISTORY_PAGE;
    const envelope = await this.#call<Message[]>({
      method: 'GET',
      path,
      query: {
        per_page: perPage,
        affix: 'prepend',
        ...filter,
        ...(options.before ? { id: options.before.id, sentAt: options.before.sentAt } : {}),
      },
    });
    const messages = envelope.data;
    const oldest = messages[0];
    const hasCursor = envelope.meta?.cursor !== undefined;
    const older = oldest && hasCursor && messages.length >= perPage ? cursorOf(oldest) : undefined;
    return { messages, ...(older ? { older } : {}) };
  }

  /** Replies in the thread of `parent`, in its conversation. */
  async reply(parent: Message, text: string): Promise<Message> {
    const target = messageTarget(parent, this.#session?.me.uid ?? '');
    const body = {
      receiver: target.id,
      receiverType: target.type,
      category: 'message',
      type: 'text',
      data: { text },
    };
    return (
      await this.#call<Message>({ method: 'POST', path: `${apiPath('messages', parent.id)}/thread`, body })
    ).data;
  }

  /** Adds (`on`) or removes this user's reaction; answers with the message and its reactions. */
  async react(messageId: string, reaction: string, on: boolean): Promise<Message> {
    const path = apiPath('messages', messageId, 'reactions', reaction);
    return (await this.#call<Message>({ method: on ? 'POST' : 'DELETE', path })).data;
  }

  /** Who reacted to a message with `reaction` (the first 100). */
  async reactors(messageId: string, reaction: string): Promise<Reaction[]> {
    const path = apiPath('messages', messageId, 'reactions', reaction);
    return (await this.#call<Reaction[]>({ method: 'GET', path, query: { limit: 100 } })).data;
  }

  /** One message as the service has it now, e.g. with fresh signed URLs for its attachments. */
  async message(id: string): Promise<Message> {
    return (await this.#call<Message>({ method: 'GET', path: apiPath('messages', id) })).data;
  }

  /** A client API call as this session, for what is loaded beside this class (`upload.ts`). */
  request<T>(call: Omit<RestCall, 'base' | 'credential'>): Promise<Envelope<T>> {
    return this.#call<T>(call);
  }

  /** The URL and headers of a client API call as this session, for a transport other than fetch. */
  endpoint(path: string): { url: string; headers: Record<string, string> } {
    const session = this.#session;
    if (!session) throw new ChatClientError('ERR_NOT_LOGGED_IN', 'log in first');
    return {
      url: joinUrl(session.endpoints.clientApi, path),
      headers: this.#rest.headers(this.#auth(session).credential),
    };
  }

  /**
   * A conversation's messages read forward from `from`, oldest first (changes: in the order they
   * changed), each next page from where `next` puts the last message kept, until a page is short or
   * keeps nothing.
   */
  async #readOn(
    target: ChatTarget,
    from: ReadFrom,
    next: (last: Message) => ReadFrom,
    keep: (message: Message, from: ReadFrom) => boolean = () => true,
  ): Promise<Message[]> {
    const found: Message[] = [];
    for (;;) {
      const envelope = await this.#call<Message[]>({
        method: 'GET',
        path: `${conversationPath(target)}/messages`,
        // As `messages` reads a conversation: replies count on their parent, which a page already has.
        query: { per_page: CATCH_UP_PAGE, affix: 'append', ...from, hideReplies: 1 },
      });
      const page = envelope.data.filter((message) => keep(message, from));
      found.push(...page);
      const last = page.at(-1);
      if (!last || envelope.data.length < CATCH_UP_PAGE || envelope.meta?.cursor === undefined) return found;
      from = next(last);
    }
  }

  async groupMembers(guid: string): Promise<GroupMember[]> {
    const path = `${apiPath('groups', guid)}/members`;
    return (await this.#call<GroupMember[]>({ method: 'GET', path, query: { per_page: 100, page: 1 } })).data;
  }

  /** AI agent users (see `AGENT_ROLES`), whom a group conversation can mention. */
  async agents(): Promise<UserEntity[]> {
    const envelope = await this.#call<UserEntity[]>({
      method: 'GET',
      path: '/users',
      query: { per_page: 100, page: 1, roles: AGENT_ROLES.join(',') },
    });
    // A service that ignores the `roles` filter answers with everyone; only agents are wanted.
    return envelope.data.filter((user) => isAgentRole(user.role));
  }

  // Sending

  /**
   * Sends a message. When the service is unreachable (or earlier messages still wait), the message
   * is queued and sent once the connection is back, in order; `sent` then reports it. `muid` lets a
   * caller show the message before the service has it and match it afterwards.
   */
  async send(
    target: ChatTarget,
    message: OutgoingMessage,
    options: { muid?: string } = {},
  ): Promise<SendOutcome> {
    const muid = options.muid ?? `parley-${randomHex(12)}`;
    const item: QueuedMessage = { muid, target, message, queuedAt: Date.now() };
    if (this.#outbox.size > 0) return this.#queue(item);
    try {
      return { status: 'sent', muid: item.muid, message: await this.#post(item) };
    } catch (error) {
      if (error instanceof ChatClientError && error.retryable) return this.#queue(item);
      throw error;
    }
  }

  /** Sends every queued message now, if the service is reachable. */
  flushQueue(): Promise<void> {
    return this.#outbox.flush(
      (item) => this.#post(item),
      (error) => error instanceof ChatClientError && error.retryable,
      (item, outcome) => {
        if ('message' in outcome) this.events.emit('sent', { muid: item.muid, message: outcome.message });
        else this.events.emit('sendFailed', { muid: item.muid, error: outcome.error });
      },
    );
  }

  /**
   * Reports a form interaction; with `formData` the service runs the element's apiAction with the
   * values. Answers the message's interactions now, whether its goal is met, and the action's outcome.
   */
  async markInteracted(
    messageId: string,
    elementId: string,
    formData?: FormValues,
  ): Promise<InteractedAnswer['data']> {
    const body: InteractionsRequest = { interactions: [elementId], ...(formData ? { formData } : {}) };
    const path = `${apiPath('messages', messageId)}/interacted`;
    return (await this.#call<InteractedAnswer['data']>({ method: 'PATCH', path, body })).data;
  }

  // Web Push

  /** The app's VAPID public key (base64url), for `PushManager.subscribe`. */
  async webPushPublicKey(): Promise<string> {
    const { data } = await this.#call<{ publicKey: string }>({ method: 'GET', path: WEB_PUSH_KEY_PATH });
    return data.publicKey;
  }

  /** Registers this browser's push subscription as the session's push token. */
  async registerWebPush(subscription: PushSubscriptionJSON, timezone: string): Promise<void> {
    await this.#call({
      method: 'POST',
      path: '/notifications/push/v1/tokens',
      // The token is the subscription as JSON text: push tokens are strings.
      body: { platform: WEB_PUSH_PLATFORM, timezone, webPushSubscription: JSON.stringify(subscription) },
    });
  }

  /** Unregisters the push tokens this session registered. */
  async unregisterPushTokens(): Promise<void> {
    await this.#call({ method: 'DELETE', path: '/notifications/push/v1/tokens', body: {} });
  }

  // Read state, receipts and typing

  async markConversationRead(target: ChatTarget): Promise<void> {
    await this.#call({ method: 'POST', path: `${conversationPath(target)}/conversation/read`, body: {} });
  }

  /** Tells the sender over the socket that a message was delivered or read; false while offline. */
  sendReceipt(message: Message, action: 'delivered' | 'read'): boolean {
    const session = this.#session;
    if (!session) return false;
    const target = messageTarget(message, session.me.uid);
    return (
      session.channel?.send({
        ...this.#frameBase(session, 'receipts', target),
        messageSender: message.sender,
        body: { action, messageId: message.id, user: publicUser(session.me) },
      }) ?? false
    );
  }

  /** Relays that this user started or stopped typing in a conversation; false while offline. */
  sendTyping(target: ChatTarget, typing: boolean): boolean {
    const session = this.#session;
    if (!session) return false;
    const body: TypingBody = { action: typing ? 'started' : 'ended', user: publicUser(session.me) };
    return session.channel?.send({ ...this.#frameBase(session, 'typing_indicator', target), body }) ?? false;
  }

  // Internals

  #isCurrent(me: Me, credentials: LoginCredentials): boolean {
    if ('authToken' in credentials) return me.authToken === credentials.authToken;
    return me.uid.toLowerCase() === credentials.uid.toLowerCase();
  }

  async #authenticate(credentials: LoginCredentials): Promise<Me> {
    const bootstrap = bootstrapEndpoints(this.#options);
    if ('authToken' in credentials) return this.#putMe(bootstrap, credentials.authToken);
    const uid = credentials.uid;
    if (typeof uid !== 'string' || uid.trim() === '') {
      throw new ChatClientError('ERR_INVALID_OPTION', 'uid is required to log in');
    }
    const stored = this.#store.read();
    if (stored && stored.uid.toLowerCase() === uid.toLowerCase()) {
      try {
        return await this.#putMe(bootstrap, stored.authToken);
      } catch (error) {
        if (!isSessionEnded(error)) throw error;
        this.#store.clear();
      }
    }
    if (!this.#options.authKey) {
      throw new ChatClientError('ERR_INVALID_OPTION', 'authKey is required to log in by UID');
    }
    const issued = await this.#rest.call<{ authToken?: unknown }>({
      method: 'POST',
      base: bootstrap.adminApi,
      path: `${apiPath('users', uid)}/auth_tokens`,
      credential: { apiKey: this.#options.authKey },
      body: this.#deviceInfo(),
    });
    if (typeof issued.data.authToken !== 'string') {
      throw new ChatClientError('ERR_BAD_RESPONSE', 'the auth token answer carries no authToken');
    }
    return this.#putMe(bootstrap, issued.data.authToken);
  }

  async #putMe(endpoints: ChatEndpoints, authToken: string): Promise<Me> {
    const envelope = await this.#rest.call<Me>({
      method: 'PUT',
      base: endpoints.clientApi,
      path: '/me',
      credential: { authToken },
      body: this.#deviceInfo(),
    });
    return this.#checkMe(envelope.data, authToken);
  }

  #checkMe(me: Partial<Me>, authToken: string): Me {
    for (const field of ['uid', 'name', 'jwt'] as const) {
      if (typeof me[field] !== 'string') {
        throw new ChatClientError('ERR_BAD_RESPONSE', `the /me answer carries no ${field}`);
      }
    }
    return { ...(me as Me), authToken: typeof me.authToken === 'string' ? me.authToken : authToken };
  }

  #deviceInfo(): Record<string, unknown> {
    return {
      platform: 'WEB',
      deviceId: this.sessionId,
      appInfo: { version: CLIENT_VERSION, apiVersion: 'v3.0' },
    };
  }

  #start(me: Me): void {
    const endpoints = sessionEndpoints(this.#options, me.settings);
    const session: Session = {
      me,
      endpoints,
      channel: undefined,
      newest: new Map(),
      everConnected: false,
      behind: false,
      resyncAttempt: 0,
      resyncTimer: undefined,
    };
    this.#session = session;
    if (!endpoints.socket) return;
    const createSocket: SocketFactory =
      this.#options.createSocket ??
      ((url) => new (globalThis as unknown as { WebSocket: new (url: string) => never }).WebSocket(url));
    session.channel = new RealtimeChannel({
      url: endpoints.socket,
      createSocket,
      authFrame: (fresh) => this.#authFrame(session, fresh),
      onFrame: (frame) => this.#onFrame(session, frame),
      onState: (state) => this.#onChannelState(session, state),
      ...(this.#options.keepAlive ? { keepAlive: this.#options.keepAlive } : {}),
      ...(this.#options.backoff ? { backoff: this.#options.backoff } : {}),
    });
    session.channel.start();
  }

  async #authFrame(session: Session, fresh: boolean): Promise<RealtimeFrame> {
    if (fresh) {
      const envelope = await this.#call<Me>({ method: 'GET', path: '/me' }, session);
      session.me = this.#checkMe(envelope.data, session.me.authToken);
    }
    const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
    return {
      appId: this.#options.appId,
      deviceId: this.sessionId,
      type: 'auth',
      sender: session.me.uid,
      body: {
        auth: session.me.jwt,
        deviceId: this.sessionId,
        presenceSubscription: 'ALL_USERS',
        params: {
          appInfo: {
            version: CLIENT_VERSION,
            apiVersion: 'v3',
            ...(origin ? { origin } : {}),
            uts: Date.now(),
          },
          platform: 'javascript',
        },
      },
    };
  }

  #onChannelState(session: Session, state: ChannelState): void {
    if (this.#session !== session) return;
    this.events.emit('connection', state);
    if (state !== 'connected') return;
    // Behind after a reconnect, and on the first connect too when a conversation was loaded before
    // the socket was up: what was sent in between came on no socket.
    if (session.everConnected || session.newest.size > 0) session.behind = true;
    session.everConnected = true;
    void this.#resync(session);
  }

  /**
   * Sends what waits in the outbox and, after a reconnect, fetches what was missed. The first calls
   * after a service restart can still fail (stale pooled connections), so failures retry with
   * backoff for as long as the socket stays up; a new reconnect starts over anyway.
   */
  async #resync(session: Session): Promise<void> {
    clearTimeout(session.resyncTimer);
    let settled = false;
    try {
      // Catch up first: a queued message sent now would move the cursor past what was missed.
      if (session.behind) {
        await this.#catchUp(session);
        session.behind = false;
        this.events.emit('resynced', undefined);
      }
      await this.flushQueue();
      settled = this.#outbox.size === 0;
    } catch {
      // Retried below.
    }
    if (settled) {
      session.resyncAttempt = 0;
      return;
    }
    if (this.#session !== session || session.channel?.state !== 'connected') return;
    const delay = reconnectDelay(session.resyncAttempt++, { ...DEFAULT_BACKOFF, ...this.#options.backoff });
    session.resyncTimer = setTimeout(() => void this.#resync(session), delay);
  }

  /**
   * Fetches what was missed in the conversations this page has seen: the messages after the newest
   * seen (never one the page had, whatever the service answers), then those changed (edited, deleted,
   * reacted to) at or after `since`.
   */
  async #catchUp(session: Session): Promise<void> {
    for (const { target, cursor, since } of [...session.newest.values()]) {
      const missed = await this.#readOn(target, cursor, cursorOf, newer);
      const changed = await this.#readOn(target, { onlyUpdates: 1, updatedAt: since }, (last) => ({
        onlyUpdates: 1,
        updatedAt: last.updatedAt ?? since,
        id: last.id,
      }));
      if (this.#session !== session) return;
      for (const message of missed) {
        this.#noteNewest(target, message, true);
        this.events.emit('message', message);
      }
      for (const message of changed) {
        this.#noteNewest(target, message, true);
        this.events.emit('updated', message);
      }
    }
  }

  #onFrame(session: Session, frame: RealtimeFrame): void {
    if (this.#session !== session) return;
    const me = session.me.uid;
    // The SDK's echo suppression (§3.3): this session already knows what it caused itself. Only
    // frames of this user are echoes: another sender's frame stamped with this device (an agent's
    // answer the service produced while handling this page's question) is news.
    if (frame.deviceId === this.sessionId && frame.sender?.toLowerCase() === me.toLowerCase()) return;
    switch (frame.type) {
      case 'message': {
        const message = frame.body as Message;
        if (!message || typeof message.id !== 'string') return;
        this.#noteNewest(messageTarget(message, me), message);
        this.events.emit('message', message);
        return;
      }
      case 'typing_indicator': {
        const body = frame.body as TypingBody;
        const target = targetOf(frame, me);
        if (!target || !body?.user) return;
        this.events.emit('typing', { target, user: body.user, typing: body.action === 'started' });
        return;
      }
      case 'receipts': {
        const body = frame.body as ReceiptBody;
        const target = targetOf(frame, me);
        if (!target || !body?.messageId) return;
        const timestamp = body.timestamp ?? Math.floor(Date.now() / 1000);
        this.events.emit('receipt', {
          target,
          action: body.action,
          messageId: body.messageId,
          user: body.user,
          timestamp,
        });
        return;
      }
      case 'presence': {
        const body = frame.body as PresenceBody;
        if (!body?.user) return;
        this.events.emit('presence', { user: body.user, online: body.action !== 'offline' });
        return;
      }
      case 'interaction_completed': {
        const body = frame.body as InteractionCompletedBody;
        if (!body?.messageId) return;
        this.events.emit('interactionCompleted', {
          messageId: String(body.messageId),
          user: body.user,
          interactions: body.interactions ?? [],
        });
        return;
      }
      case 'reaction': {
        const body = frame.body as ReactionEventBody;
        if (!body?.messageId || !body.reaction) return;
        this.events.emit('reaction', body);
        return;
      }
      default:
        return;
    }
  }

  /**
   * Notes a message of the conversation as seen. While behind, only what the catch-up fetched moves
   * `since`: a live frame's time may be later than a change still to fetch.
   */
  #noteNewest(target: ChatTarget, message: MessageCursor & { updatedAt?: number }, fetched = false): void {
    const session = this.#session;
    if (!session) return;
    const key = targetKey(target);
    const known = session.newest.get(key);
    const cursor = known && !newer(message, known.cursor) ? known.cursor : cursorOf(message);
    const since = known?.since ?? 0;
    const seenAt = Math.max(message.sentAt, message.updatedAt ?? 0);
    session.newest.set(key, {
      target,
      cursor,
      since: session.behind && !fetched ? since : Math.max(since, seenAt),
    });
  }

  #queue(item: QueuedMessage): SendOutcome {
    this.#outbox.add(item);
    this.events.emit('queued', item);
    // Earlier messages may still wait for a reachable service; try them (and this one) now.
    const session = this.#session;
    if (session && this.connection === 'connected') void this.#resync(session);
    return { status: 'queued', muid: item.muid };
  }

  async #post(item: QueuedMessage): Promise<Message> {
    const { target, message, muid } = item;
    const body = { receiver: target.id, receiverType: target.type, muid, ...message };
    const session = this.#session;
    const sent = (await this.#call<Message>({ method: 'POST', path: '/messages', body })).data;
    // Only a live socket guarantees nothing older was missed; otherwise the catch-up must start earlier.
    if (session && session.channel?.state === 'connected' && !session.behind) this.#noteNewest(target, sent);
    return sent;
  }

  #frameBase(session: Session, type: string, target: ChatTarget): RealtimeFrame<string, undefined> {
    return {
      appId: this.#options.appId,
      receiver: target.id,
      receiverType: target.type,
      deviceId: this.sessionId,
      type,
      sender: session.me.uid,
      body: undefined,
    };
  }

  #auth(session: Session): { credential: Credential } {
    return { credential: { authToken: session.me.authToken } };
  }

  /** A client API call with the session's token; a call the service answers with "session gone" ends the session. */
  async #call<T>(call: Omit<RestCall, 'base' | 'credential'>, session = this.#session): Promise<Envelope<T>> {
    if (!session) throw new ChatClientError('ERR_NOT_LOGGED_IN', 'log in first');
    try {
      return await this.#rest.call<T>({ ...call, base: session.endpoints.clientApi, ...this.#auth(session) });
    } catch (error) {
      if (isSessionEnded(error) && this.#session === session) this.#endSession(session);
      throw error;
    }
  }

  #endSession(session: Session): void {
    if (this.#session !== session) return;
    this.#session = undefined;
    session.channel?.stop();
    clearTimeout(session.resyncTimer);
    this.#store.clear();
    this.#outbox.clear();
    this.events.emit('sessionEnded', undefined);
  }
}
