import type { Kysely } from 'kysely';
import {
  conversationIdFor,
  type Interaction,
  type Message,
  type MessageRequest,
  type UserEntity,
} from '../../shared/message.js';
import { goalCompleted, type FormValues } from '../../shared/interactive-values.js';
import type { ApiAction, ButtonElement, FormElement, InteractiveFormData } from '../../shared/interactive.js';
import type { ChatDatabase } from '../db/schema.js';
import { ChatError, badRequest, messageNotFound, notAMember, uidNotFound } from '../errors.js';
import type { ChatEvents, EventOrigin } from '../events.js';
import { checkFormValues } from '../forms/form-values.js';
import type { App } from '../repositories/apps.js';
import { blockFlags, type BlockRelation, type BlockedUserRepository } from '../repositories/blocked-users.js';
import type { Group, GroupRepository } from '../repositories/groups.js';
import {
  unstoredMessage,
  type MessageDraft,
  type MessageRepository,
  type StoredMessage,
  type WrittenMessage,
} from '../repositories/messages.js';
import type { PinRepository } from '../repositories/pins.js';
import type { ReactionRepository } from '../repositories/reactions.js';
import type { UserRepository } from '../repositories/users.js';
import type { MediaLibrary } from '../media/library.js';
import type { HeldBy, HeldDraft } from '../repositories/moderation-rules.js';
import type { ContentRules } from './content-rules.js';
import { nowSeconds } from '../time.js';
import type { NotifiedChanges, RowOf } from './decisions.js';
import { mentionedUids } from '../../shared/mentions.js';
import { toUserEntity } from '../repositories/users.js';
import {
  APP_SYSTEM_UID,
  EntityLoader,
  actionSnapshot,
  toMessage,
  userEntityOf,
  userRef,
  type EntityLookup,
} from './entities.js';

export interface Receiver {
  receiverType: 'user' | 'group';
  receiver: string;
}

/** One message per receiver when `multipleReceivers` is used, keyed like the request. */
export interface FanOutResult {
  uids: Record<string, Message>;
  guids: Record<string, Message>;
}

export interface MessageEdit {
  text?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
  tags?: string[] | undefined;
}

export interface InteractionRequest {
  elementIds: ReadonlyArray<string>;
  /** The values a form's apiAction sends; checked against the form's fields. */
  formData?: FormValues | undefined;
  /** Origins an apiAction may call. Without them no action is returned: the app's backend reports interactions. */
  actionOrigins?: ReadonlySet<string> | undefined;
}

export interface InteractionOutcome {
  interactions: Interaction[];
  goalCompleted: boolean;
  /** The apiAction of the pressed button, for the caller to run once the interaction is stored. */
  apiAction?: { elementId: string; action: ApiAction };
}

type StoredForm = InteractiveFormData & { interactions?: Interaction[] };

const refused = (code: string, message: string, details: Record<string, unknown>): ChatError =>
  new ChatError(403, code, message, details);

function formOf(row: StoredMessage, id: string): StoredForm {
  if (row.category !== 'interactive') {
    throw new ChatError(
      400,
      'ERR_MESSAGE_ACTION_NOT_ALLOWED',
      `The message ${id} is not an interactive message.`,
      {
        id,
      },
    );
  }
  return row.data as unknown as StoredForm;
}

/** The apiAction among the buttons pressed; a submission presses at most one that acts. */
function apiActionOf(
  buttons: ReadonlyArray<ButtonElement | undefined>,
): { elementId: string; action: ApiAction } | undefined {
  for (const button of buttons) {
    if (button?.action?.actionType === 'apiAction')
      return { elementId: button.elementId, action: button.action };
  }
  return undefined;
}

/**
 * CometChat keeps a message's mentions as `data.mentions`, the mentioned users' entities by UID;
 * the SDK reads them from there. Only the service writes them: mentions a sender puts there are dropped.
 */
function withMentions(
  data: Record<string, unknown>,
  mentions: Record<string, UserEntity> | undefined,
): Record<string, unknown> {
  if (mentions !== undefined) return { ...data, mentions };
  if (!('mentions' in data)) return data;
  const { mentions: _claimed, ...rest } = data;
  return rest;
}

/** A message moderation ruled on carries the verdict as `data.moderation.status`, as CometChat's do. */
function withModeration(
  data: Record<string, unknown>,
  status: 'approved' | 'disapproved' | undefined,
): Record<string, unknown> {
  if (status !== undefined) return { ...data, moderation: { status } };
  // Only the service rules on messages: a verdict a sender claims is dropped.
  if (!('moderation' in data)) return data;
  const { moderation: _claimed, ...rest } = data;
  return rest;
}

/** A message held back for review, as its sender and moderators see it: under the message id reserved for it. */
function heldMessage(
  app: App,
  id: number,
  draft: MessageDraft,
  status: 'approved' | 'disapproved',
  lookup: EntityLookup,
): Message {
  const row = unstoredMessage(app.appId, { ...draft, data: withModeration(draft.data, status) });
  return toMessage({ ...row, id }, lookup, app);
}

/**
 * A one-to-one message (or a reaction to one) between users where either blocked the other: the
 * sender learns which way.
 */
export function blockedError(sender: string, receiver: string, block: BlockRelation): ChatError {
  return block.blockedByMeAt !== undefined
    ? refused('ERR_BLOCKED_RECEIVER', `The user ${sender} has blocked the user ${receiver}.`, {
        uid: receiver,
      })
    : refused('ERR_BLOCKED_SENDER', `The user ${receiver} has blocked the user ${sender}.`, {
        uid: receiver,
      });
}

/** The request's receivers, lower-cased, each once: its `receiver`, then `multipleReceivers`. */
function receiversOf(request: MessageRequest): Receiver[] {
  const { receiver, receiverType, multipleReceivers } = request;
  const single: Receiver[] =
    receiver === undefined || receiverType === undefined
      ? []
      : [{ receiverType, receiver: receiver.toLowerCase() }];
  // Nearly every send names one receiver: only a fan-out needs its duplicates dropped.
  if (multipleReceivers === undefined) return single;
  const receivers = new Map<string, Receiver>();
  const candidates = [
    ...single,
    ...(multipleReceivers.uids ?? []).map((uid): Receiver => ({
      receiverType: 'user',
      receiver: uid.toLowerCase(),
    })),
    ...(multipleReceivers.guids ?? []).map((guid): Receiver => ({
      receiverType: 'group',
      receiver: guid.toLowerCase(),
    })),
  ];
  for (const candidate of candidates) {
    const key = `${candidate.receiverType}:${candidate.receiver}`;
    if (!receivers.has(key)) receivers.set(key, candidate);
  }
  return [...receivers.values()];
}

/** What a send to users alone reads of groups and of blocks. */
const NO_GROUPS: GroupsToSendTo = { groups: new Map(), memberships: new Map(), counts: new Map() };
const NO_BLOCKS: ReadonlyMap<string, BlockRelation> = new Map();

/** The groups a send goes to, the sender's memberships of them and their member counts. */
interface GroupsToSendTo {
  groups: ReadonlyMap<string, Group>;
  memberships: ReadonlyMap<string, unknown>;
  counts: ReadonlyMap<string, number>;
}

/** Sending, reading, editing and deleting messages; everything a message change implies happens in one transaction. */
export class MessageService {
  private readonly entities: EntityLoader;

  constructor(
    private readonly db: Kysely<ChatDatabase>,
    private readonly users: UserRepository,
    private readonly groups: GroupRepository,
    private readonly messages: MessageRepository,
    private readonly reactions: ReactionRepository,
    private readonly events: ChatEvents,
    private readonly blocks: BlockedUserRepository,
    private readonly pins: PinRepository,
    private readonly notified: NotifiedChanges,
    /** Attachments: signs their URLs for readers and removes a deleted message's files. */
    private readonly media?: MediaLibrary,
    /** The app's moderation rules, which may hold a message back instead of sending it. */
    private readonly contentRules?: ContentRules,
  ) {
    this.entities = new EntityLoader(users, groups);
  }

  private async signedAction<T extends { message: Message; on: Message }>(app: App, action: T): Promise<T> {
    if (this.media === undefined) return action;
    const [on = action.on, message = action.message] = await this.media.signed(app, [
      action.on,
      action.message,
    ]);
    return { ...action, on, message };
  }

  /** Messages as a reader gets them: stored files' URLs signed. */
  private signed(app: App, messages: Message[]): Promise<Message[]> | Message[] {
    return this.media === undefined ? messages : this.media.signed(app, messages);
  }

  /**
   * Rows to message objects, with the users and groups they name loaded in one go, each message's
   * reactions as `data.reactions` (`reactedByMe` for `viewer`), its pin (`pinnedAt`, `pinnedBy`)
   * and when `viewer` saved it (`savedAt`); the SDK reads a missing key as "not pinned/saved".
   */
  async present(
    app: App,
    rows: ReadonlyArray<StoredMessage>,
    options: {
      mentionsWithTags?: boolean;
      mentionsBlockedInfoFor?: string | undefined;
      viewer?: string | undefined;
    } = {},
  ): Promise<Message[]> {
    const ids = rows.filter((row) => row.category !== 'action').map((row) => Number(row.id));
    const [lookup, reactions, pins, saves] = await Promise.all([
      this.entities.forMessages(app.appId, rows),
      this.reactions.countsFor(app.appId, ids, options.viewer),
      this.pins.pinsOf(app.appId, ids),
      options.viewer === undefined
        ? new Map<number, number>()
        : this.pins.savedAtOf(app.appId, options.viewer, ids),
    ]);
    let messages = await this.signed(
      app,
      rows.map((row) => {
        const id = Number(row.id);
        let message = toMessage(row, lookup, app);
        const counts = reactions.get(id);
        if (counts !== undefined) message = { ...message, data: { ...message.data, reactions: counts } };
        const pin = pins.get(id);
        if (pin !== undefined) message = { ...message, ...pin };
        const savedAt = saves.get(id);
        return savedAt === undefined ? message : { ...message, savedAt };
      }),
    );
    if (options.mentionsWithTags === true) messages = await this.withMentionTags(app.appId, messages);
    if (options.mentionsBlockedInfoFor !== undefined)
      messages = await this.withMentionBlocks(app.appId, options.mentionsBlockedInfoFor, messages);
    return messages;
  }

  /** The SDK's `mentionsWithBlockedInfo`: each mentioned user's `blockedByMe`/`hasBlockedMe` for `viewer`. */
  private async withMentionBlocks(appId: string, viewer: string, messages: Message[]): Promise<Message[]> {
    const mentionsOf = (message: Message): Record<string, UserEntity> | undefined =>
      (message.data as { mentions?: Record<string, UserEntity> }).mentions;
    const uids = new Set(messages.flatMap((message) => Object.keys(mentionsOf(message) ?? {})));
    if (uids.size === 0) return messages;
    const relations = await this.blocks.relations(appId, viewer, uids);
    return messages.map((message) => {
      const mentions = mentionsOf(message);
      if (mentions === undefined) return message;
      const flagged = Object.fromEntries(
        Object.entries(mentions).map(([uid, entity]) => [
          uid,
          { ...entity, ...blockFlags(relations.get(uid)) },
        ]),
      );
      return { ...message, data: { ...message.data, mentions: flagged } };
    });
  }

  /** The SDK's `mentionsWithTagInfo`: each mentioned user's entity with the user's current tags. */
  private async withMentionTags(appId: string, messages: Message[]): Promise<Message[]> {
    const mentionsOf = (message: Message): Record<string, UserEntity> | undefined =>
      (message.data as { mentions?: Record<string, UserEntity> }).mentions;
    const uids = new Set(messages.flatMap((message) => Object.keys(mentionsOf(message) ?? {})));
    if (uids.size === 0) return messages;
    const people = await this.users.findMany(appId, uids);
    return messages.map((message) => {
      const mentions = mentionsOf(message);
      if (mentions === undefined) return message;
      const tagged = Object.fromEntries(
        Object.entries(mentions).map(([uid, entity]) => {
          const row = people.get(uid);
          return [
            uid,
            { ...entity, tags: row === undefined ? [] : (toUserEntity(row, { withTags: true }).tags ?? []) },
          ];
        }),
      );
      return { ...message, data: { ...message.data, mentions: tagged } };
    });
  }

  /**
   * Checks that the sender and every receiver exist and that the sender belongs to each group,
   * then stores one message per receiver in a single transaction: all are sent, or none, each with
   * its notifications' decision-queue row when the app has a channel enabled. The checks read
   * cached rows, so a send is usually one write and no reads. A `muid` the sender already used in
   * a conversation answers the message first sent with it, in any process.
   *
   * A message one of the app's moderation rules blocks is held back instead (`holdBack`).
   */
  async send(
    app: App,
    senderUid: string,
    request: MessageRequest,
    origin: EventOrigin,
    parentId?: string,
  ): Promise<{ single: Message } | { fanOut: FanOutResult }> {
    const { drafts, lookup, heldBy } = await this.drafted(app, senderUid, request, parentId, false);
    if (heldBy !== undefined)
      return this.answerOf(request, await this.holdBack(app, drafts, lookup, heldBy, origin));
    const written = await this.messages.insertAll(app.appId, drafts);
    return this.answerOf(request, await this.announced(app, written, lookup, origin));
  }

  /**
   * A held message a moderator approves (`held`: the id its sender was answered under, and what
   * they sent): sent as they sent it, after a send's checks (the receiver still exists, the sender
   * is still in the group, neither blocked the other), without asking the rules again, marked
   * approved, under that id and at the time it was sent, so it takes its place in the
   * conversation. `store` writes it inside the caller's transaction, which records the verdict
   * beside it; `announce` tells its receivers once that has committed.
   */
  async approvedSend(
    app: App,
    held: { id: number; draft: HeldDraft },
  ): Promise<{
    store(trx: Kysely<ChatDatabase>): Promise<WrittenMessage>;
    announce(written: WrittenMessage, origin: EventOrigin): Promise<Message>;
  }> {
    const { draft } = held;
    const request = {
      receiver: draft.receiver,
      receiverType: draft.receiverType,
      category: draft.category,
      type: draft.type,
      data: draft.data,
      ...(draft.muid === undefined ? {} : { muid: draft.muid }),
      ...(draft.tags === undefined ? {} : { tags: draft.tags }),
    } as MessageRequest;
    const parentId = draft.parentId === undefined ? undefined : String(draft.parentId);
    const { drafts, lookup } = await this.drafted(app, draft.sender, request, parentId, true);
    const [approved] = drafts;
    if (approved === undefined) throw new Error('a held message has one receiver');
    return {
      store: (trx) => this.messages.insert(app.appId, { ...approved, sentAt: draft.sentAt }, trx, held.id),
      announce: async (written, origin) => {
        const [message] = await this.announced(app, [written], lookup, origin);
        if (message === undefined) throw new Error('an approved message was stored');
        return message;
      },
    };
  }

  /** The messages as written, signed, each announced unless a muid replayed it (stored before). */
  private async announced(
    app: App,
    written: ReadonlyArray<WrittenMessage>,
    lookup: EntityLookup,
    origin: EventOrigin,
  ): Promise<Message[]> {
    const sent = await this.signed(
      app,
      written.map(({ message }) => toMessage(message, lookup, app)),
    );
    sent.forEach((message, index) => {
      const stored = written[index];
      if (stored?.replayed === false)
        this.events.emit('message', app.appId, message, origin, stored.decisionId);
    });
    return sent;
  }

  /**
   * A send's checks, and what passing them makes: one draft per receiver, the entities its
   * messages show, and the rule that holds it back, if any (never for one `approved`).
   */
  private async drafted(
    app: App,
    senderUid: string,
    request: MessageRequest,
    parentId: string | undefined,
    approved: boolean,
  ): Promise<{ drafts: MessageDraft[]; lookup: EntityLookup; heldBy: HeldBy | undefined }> {
    const appId = app.appId;
    const receivers = receiversOf(request);
    const userIds: string[] = [];
    const groupIds: string[] = [];
    for (const { receiverType, receiver } of receivers)
      (receiverType === 'user' ? userIds : groupIds).push(receiver);
    // Read together, so their caches' shared change counters are read together too (one HMGET);
    // a send to users alone reads nothing of groups, one to groups alone no blocks.
    const uid = senderUid.toLowerCase();
    const [users, blocks, { groups, memberships, counts }] = await Promise.all([
      this.users.findMany(appId, [uid, ...userIds]),
      userIds.length === 0 ? NO_BLOCKS : this.blocks.relations(appId, uid, userIds),
      groupIds.length === 0 ? NO_GROUPS : this.groupsToSendTo(appId, uid, groupIds),
    ]);
    const sender = users.get(uid);
    if (sender === undefined) throw uidNotFound(uid);
    const parent =
      parentId === undefined ? undefined : await this.threadParent(app, parentId, sender.uid, request);
    const lookup: EntityLookup = {
      users: new Map([[sender.uid, sender]]),
      groups: new Map(),
      memberCounts: new Map(),
    };
    for (const uid of userIds) {
      const user = users.get(uid);
      if (user === undefined) throw this.receiverError(request, 'user', uid);
      const block = blocks.get(uid);
      if (block !== undefined) throw blockedError(sender.uid, uid, block);
      lookup.users.set(uid, user);
    }
    for (const guid of groupIds) {
      const group = groups.get(guid);
      // A private group does not exist for those outside it.
      if (group === undefined || (group.type === 'private' && !memberships.has(guid)))
        throw this.receiverError(request, 'group', guid);
      if (!memberships.has(guid)) throw notAMember(sender.uid, guid);
      lookup.groups.set(guid, group);
      lookup.memberCounts.set(guid, counts.get(guid) ?? 0);
    }
    const sentAt = nowSeconds();
    const text = request.category === 'message' ? (request.data as { text?: unknown }).text : undefined;
    const mentionedIds = typeof text === 'string' ? mentionedUids(text) : [];
    const mentioned = mentionedIds.length === 0 ? [] : await this.mentionsOf(appId, mentionedIds, receivers);
    const heldBy = approved ? undefined : await this.contentRules?.heldBy(appId, request);
    // One row per message, each naming its message: a send's rows say no more than that it was sent.
    // A message a rule holds back is not sent, so it has none.
    const decision =
      heldBy === undefined ? (await this.notified.rowsFor(appId))?.({ kind: 'message' }) : undefined;
    const drafts = receivers.map((receiver, index): MessageDraft => ({
      conversationId: conversationIdFor({ ...receiver, sender: sender.uid }),
      sender: sender.uid,
      ...receiver,
      category: request.category,
      type: request.type,
      data: withModeration(
        withMentions(request.data as Record<string, unknown>, mentioned[index]),
        approved ? 'approved' : undefined,
      ),
      muid: request.muid,
      tags: request.tags,
      parentId: parent === undefined ? undefined : Number(parent.id),
      sentAt,
      decision,
    }));
    return { drafts, lookup, heldBy };
  }

  private async groupsToSendTo(appId: string, uid: string, guids: string[]): Promise<GroupsToSendTo> {
    const [groups, memberships, counts] = await Promise.all([
      this.groups.findMany(appId, guids),
      this.groups.membershipsOf(appId, uid, guids),
      this.groups.memberCounts(appId, guids),
    ]);
    return { groups, memberships, counts };
  }

  /** A send's answer: its one message, or one per receiver keyed like `multipleReceivers`. */
  private answerOf(
    request: MessageRequest,
    sent: ReadonlyArray<Message>,
  ): { single: Message } | { fanOut: FanOutResult } {
    if (request.multipleReceivers === undefined && sent.length === 1 && sent[0] !== undefined)
      return { single: sent[0] };
    const fanOut: FanOutResult = { uids: {}, guids: {} };
    for (const message of sent)
      (message.receiverType === 'user' ? fanOut.uids : fanOut.guids)[message.receiver] = message;
    return { fanOut };
  }

  /**
   * Keeps messages a rule blocked for review instead of sending them: nobody hears of them, and the
   * sender's answer is each message under a message id reserved for it (the id it is sent under
   * once approved) with `data.moderation.status` `disapproved`, which the SDK reads as
   * `getModerationStatus()`.
   */
  private async holdBack(
    app: App,
    drafts: ReadonlyArray<MessageDraft>,
    lookup: EntityLookup,
    heldBy: HeldBy,
    origin: EventOrigin,
  ): Promise<Message[]> {
    const ids = await this.messages.reserveIds(drafts.length);
    await this.contentRules?.hold(
      app.appId,
      drafts.map((draft, index) => ({ id: ids[index] ?? 0, draft })),
      heldBy,
    );
    const held = await this.signed(
      app,
      drafts.map((draft, index) => heldMessage(app, ids[index] ?? 0, draft, 'disapproved', lookup)),
    );
    for (const message of held) this.events.emit('messageModerated', app.appId, message, origin);
    return held;
  }

  /**
   * Messages held back for review as the moderation API lists them: under the message id reserved
   * for each, with the verdict so far. Not stored as messages (until approved), they have no
   * reactions or pins.
   */
  async presentHeld(
    app: App,
    held: ReadonlyArray<{ id: number; draft: MessageDraft; status: 'approved' | 'disapproved' }>,
  ): Promise<Message[]> {
    const lookup = await this.entities.forMessages(
      app.appId,
      held.map(({ draft }) => unstoredMessage(app.appId, draft)),
    );
    return this.signed(
      app,
      held.map(({ id, draft, status }) => heldMessage(app, id, draft, status, lookup)),
    );
  }

  /**
   * For each receiver, which of `uids` (those a text mentions with `<@uid:…>`) exist and, in a
   * group, are its members, as entities without private metadata; a mention of anyone else stays text.
   */
  private async mentionsOf(
    appId: string,
    uids: ReadonlyArray<string>,
    receivers: ReadonlyArray<Receiver>,
  ): Promise<Array<Record<string, UserEntity> | undefined>> {
    const people = await this.users.findMany(appId, uids);
    return Promise.all(
      receivers.map(async (receiver) => {
        const mentions: Record<string, UserEntity> = {};
        for (const uid of uids) {
          const user = people.get(uid);
          if (user === undefined) continue;
          if (
            receiver.receiverType === 'group' &&
            (await this.groups.member(appId, receiver.receiver, uid)) === undefined
          )
            continue;
          mentions[uid] = actionSnapshot(toUserEntity(user));
        }
        return Object.keys(mentions).length === 0 ? undefined : mentions;
      }),
    );
  }

  /**
   * The message a thread reply answers: one the sender can see (anyone else's is a missing id), not
   * itself a reply, an action or deleted; the reply goes to that message's conversation only.
   */
  private async threadParent(
    app: App,
    parentId: string,
    senderUid: string,
    request: MessageRequest,
  ): Promise<StoredMessage> {
    const parent = await this.getVisible(app, parentId, senderUid);
    const refuse = (why: string): ChatError =>
      new ChatError(400, 'ERR_MESSAGE_ACTION_NOT_ALLOWED', `The message ${parentId} ${why}.`, {
        id: parentId,
      });
    if (parent.parentId !== undefined) throw refuse('is a thread reply; reply to its parent instead');
    if (parent.category === 'action') throw refuse('is an action message and has no thread');
    if (parent.deletedAt !== undefined) throw refuse('is deleted and takes no replies');
    if (request.multipleReceivers !== undefined)
      throw badRequest('multipleReceivers', "a thread reply goes only to its parent's conversation");
    const conversationId =
      request.receiver === undefined || request.receiverType === undefined
        ? undefined
        : conversationIdFor({
            receiverType: request.receiverType,
            receiver: request.receiver,
            sender: senderUid,
          });
    if (conversationId !== parent.conversationId)
      throw badRequest('receiver', `must name the conversation of message ${parentId}`);
    return parent;
  }

  private receiverError(request: MessageRequest, type: 'user' | 'group', id: string): ChatError {
    const named = request.receiver?.toLowerCase() === id && request.receiverType === type;
    const field = named ? 'receiver' : `multipleReceivers.${type === 'user' ? 'uids' : 'guids'}`;
    const code = type === 'user' ? 'ERR_UID_NOT_FOUND' : 'ERR_GUID_NOT_FOUND';
    return new ChatError(
      404,
      code,
      `${field}: the ${type === 'user' ? 'UID' : 'GUID'} ${id} does not exist.`,
      {
        field,
        [type === 'user' ? 'uid' : 'guid']: id,
      },
    );
  }

  /**
   * A message the acting user may see: their one-to-one chats and groups they belong to. Anyone
   * else's message is answered exactly as a missing id is, so ids tell nothing about others' chats.
   */
  async getVisible(app: App, id: string, onBehalfOf: string | undefined): Promise<StoredMessage> {
    const row = await this.messages.get(app.appId, id);
    if (onBehalfOf !== undefined && !(await this.canSee(app, row, onBehalfOf))) throw messageNotFound(id);
    return row;
  }

  private async canSee(app: App, row: StoredMessage, uid: string): Promise<boolean> {
    return row.receiverType === 'group'
      ? (await this.groups.member(app.appId, row.receiver, uid)) !== undefined
      : row.sender === uid || row.receiver === uid;
  }

  /** Edits text, metadata or tags; answers with the `edited` action message. */
  async edit(
    app: App,
    id: string,
    onBehalfOf: string | undefined,
    edit: MessageEdit,
    origin: EventOrigin,
  ): Promise<Message> {
    const appId = app.appId;
    const original = await this.getVisible(app, id, onBehalfOf);
    const actor = await this.actorFor(app, original, onBehalfOf);
    const lookup = await this.entities.forMessages(appId, [original, { ...original, sender: actor }]);
    const now = nowSeconds();
    const editedBy = onBehalfOf ?? APP_SYSTEM_UID;
    // An edited text mentions whom it now names (read before the lock: the receiver never changes).
    const [mentioned] =
      edit.text === undefined
        ? [undefined]
        : await this.mentionsOf(appId, mentionedUids(edit.text), [
            { receiverType: original.receiverType, receiver: original.receiver },
          ]);
    const rowOf = await this.notified.rowsFor(appId);
    // Who may edit rests on fields that never change; the data is read again under the lock, so a
    // concurrent edit, deletion or interaction is never overwritten with what was read before it.
    const action = await this.db.transaction().execute(async (trx) => {
      const current = await this.messages.getForChange(appId, id, trx);
      if (current.deletedAt !== undefined) {
        throw new ChatError(
          400,
          'ERR_MESSAGE_ACTION_NOT_ALLOWED',
          `The message ${id} is deleted and cannot be edited.`,
          { id },
        );
      }
      let data = { ...current.data };
      if (edit.text !== undefined) {
        if (typeof data.text !== 'string')
          throw badRequest('data.text', `the message ${id} has no text to edit`);
        data = withMentions({ ...data, text: edit.text }, mentioned);
      }
      if (edit.metadata !== undefined) data.metadata = edit.metadata;
      const changes = {
        data,
        tags: edit.tags ?? current.tags,
        updatedAt: now,
        editedAt: now,
        editedBy,
      };
      await this.messages.update(appId, Number(current.id), changes, trx);
      const changed = { ...current, ...changes };
      return this.writeMessageAction(app, changed, actor, 'edited', lookup, trx, rowOf);
    });
    const { on, message } = await this.signedAction(app, action);
    this.events.emit('messageEdited', appId, on, origin, action.decisionId);
    this.events.emit('message', appId, message, origin);
    return message;
  }

  /** Marks the message deleted (or removes it with `permanent`); answers with the `deleted` action message. */
  async delete(
    app: App,
    id: string,
    onBehalfOf: string | undefined,
    permanent: boolean,
    origin: EventOrigin,
    /** A write that commits with the deletion or not at all (a moderator's verdict). */
    alongside?: (trx: Kysely<ChatDatabase>) => Promise<unknown>,
  ): Promise<Message> {
    const appId = app.appId;
    const original = await this.getVisible(app, id, onBehalfOf);
    const actor = await this.actorFor(app, original, onBehalfOf);
    const now = nowSeconds();
    const lookup = await this.entities.forMessages(appId, [original, { ...original, sender: actor }]);
    const rowOf = await this.notified.rowsFor(appId);
    const action = await this.db.transaction().execute(async (trx) => {
      const current = await this.messages.getForChange(appId, id, trx);
      const changes = { updatedAt: now, deletedAt: now, deletedBy: onBehalfOf ?? APP_SYSTEM_UID };
      if (permanent) await this.messages.deletePermanently(appId, current, trx);
      else await this.messages.update(appId, Number(current.id), changes, trx);
      const changed = { ...current, ...changes };
      const written = await this.writeMessageAction(app, changed, actor, 'deleted', lookup, trx, rowOf);
      await alongside?.(trx);
      return { ...written, data: current.data };
    });
    // Once the deletion is committed, its files go: a deleted message's attachments are not served.
    await this.media?.discard(this.media.foldersOf(appId, original.conversationId, action.data));
    const { on, message } = await this.signedAction(app, action);
    this.events.emit('messageDeleted', appId, on, origin, action.decisionId);
    this.events.emit('message', appId, message, origin);
    return message;
  }

  /** Only the sender may edit or delete on their own behalf; the app (no onBehalfOf) may always. */
  private async actorFor(app: App, message: StoredMessage, onBehalfOf: string | undefined): Promise<string> {
    if (onBehalfOf === undefined) return message.sender;
    const actor = await this.users.get(app.appId, onBehalfOf);
    if (actor.uid !== message.sender) {
      throw new ChatError(
        403,
        'ERR_MESSAGE_NOT_A_SENDER',
        `The user ${actor.uid} is not the sender of the message ${message.id}.`,
        {
          id: String(message.id),
        },
      );
    }
    return actor.uid;
  }

  /**
   * The action message recording an edit or a deletion; with `rowOf`, the change's decision-queue
   * row names it (its `on` is the message as the change left it).
   */
  private async writeMessageAction(
    app: App,
    changed: StoredMessage,
    actorUid: string,
    action: 'edited' | 'deleted',
    lookup: EntityLookup,
    trx: Kysely<ChatDatabase>,
    rowOf: RowOf | undefined,
  ): Promise<{ message: Message; on: Message; decisionId: number | undefined }> {
    const on = toMessage(changed, lookup, app);
    const receiverEntity = on.data.entities.receiver;
    const draft: MessageDraft = {
      conversationId: changed.conversationId,
      sender: actorUid,
      receiverType: changed.receiverType,
      receiver: changed.receiver,
      category: 'action',
      type: 'message',
      data: actionSnapshot({
        action,
        entities: {
          by: userRef(userEntityOf(lookup, actorUid, app)),
          ...(receiverEntity === undefined ? {} : { for: receiverEntity }),
          on: { entity: on, entityType: 'message' },
        },
      }),
      sentAt: changed.updatedAt,
      decision: rowOf?.({ kind: action }),
    };
    const { message, decisionId } = await this.messages.insert(app.appId, draft, trx);
    return { message: toMessage(message, lookup, app), on, decisionId };
  }

  /**
   * A user's interaction with a form message, under the form's rules: each element must exist,
   * the sender interacts only when the form allows it, a met `interactionGoal` closes the form, a
   * `disableAfterInteracted` button acts once per user, and values must fit their fields. The
   * checks, the once-only records and the interactions are read and written in one transaction:
   * all are stored, or nothing. With `actionOrigins`, the apiAction of the pressed button is
   * checked against them and returned for the caller to run; without, no action is returned.
   */
  async interact(
    app: App,
    id: string,
    uid: string,
    request: InteractionRequest,
    origin: EventOrigin,
  ): Promise<InteractionOutcome> {
    const appId = app.appId;
    const user = await this.users.get(appId, uid);
    const visible = await this.getVisible(app, id, user.uid);
    const outcome = await this.db.transaction().execute(async (trx) => {
      const row = await this.messages.getForChange(appId, id, trx);
      const form = formOf(row, id);
      if (row.sender === user.uid && form.allowSenderInteraction !== true) {
        throw refused(
          'ERR_MESSAGE_ACTION_NOT_ALLOWED',
          `The sender may not interact with the message ${id}.`,
          {
            id,
          },
        );
      }
      const elements = new Map<string, FormElement>(
        [...form.interactiveData.formFields, form.interactiveData.submitElement].map((element) => [
          element.elementId,
          element,
        ]),
      );
      const buttons = request.elementIds.map((elementId, index) => {
        const element = elements.get(elementId);
        if (element === undefined)
          throw badRequest(`interactions.${index}`, `the message has no element ${elementId}`);
        return element.elementType === 'button' ? element : undefined;
      });
      if (goalCompleted(form.interactionGoal, form.interactions ?? [])) {
        throw refused(
          'ERR_INTERACTION_GOAL_COMPLETED',
          `The form of message ${id} is complete; it takes no more input.`,
          {
            id,
          },
        );
      }
      const apiAction = request.actionOrigins === undefined ? undefined : apiActionOf(buttons);
      if (apiAction !== undefined) {
        const origin = new URL(apiAction.action.url).origin;
        if (request.actionOrigins?.has(origin) !== true) {
          throw refused(
            'ERR_ACTION_ORIGIN_NOT_ALLOWED',
            `The app does not allow form actions towards ${origin}.`,
            {
              id,
              origin,
            },
          );
        }
      }
      if (apiAction !== undefined || request.formData !== undefined)
        checkFormValues(form, request.formData ?? {});
      const onceOnly = new Set(
        buttons
          .filter((button) => button?.disableAfterInteracted === true)
          .map((button) => button?.elementId),
      );
      const interactedAt = nowSeconds();
      for (const elementId of new Set(request.elementIds)) {
        const first = await this.messages.recordSubmission(
          appId,
          Number(row.id),
          user.uid,
          elementId,
          interactedAt,
          trx,
        );
        if (!first && onceOnly.has(elementId)) {
          throw refused(
            'ERR_ALREADY_INTERACTED',
            `The element ${elementId} acts once and was already used.`,
            {
              id,
              elementId,
            },
          );
        }
      }
      const byElement = new Map(
        (form.interactions ?? []).map((interaction) => [interaction.elementId, interaction]),
      );
      for (const elementId of request.elementIds) byElement.set(elementId, { elementId, interactedAt });
      const interactions = [...byElement.values()];
      await this.messages.update(
        appId,
        Number(row.id),
        { data: { ...form, interactions }, updatedAt: interactedAt },
        trx,
      );
      const completed = goalCompleted(form.interactionGoal, interactions);
      return {
        interactions,
        goalCompleted: completed,
        ...(apiAction === undefined ? {} : { apiAction }),
      };
    });
    this.events.emit(
      'interaction',
      appId,
      {
        messageId: String(visible.id),
        uid: user.uid,
        interactions: outcome.interactions,
        goalCompleted: outcome.goalCompleted,
      },
      origin,
    );
    return outcome;
  }

  /** The groups a user belongs to, for listing what they can see. */
  async groupsOf(appId: string, uid: string): Promise<string[]> {
    return this.groups.guidsOf(appId, uid);
  }
}
