import type { Kysely, Selectable } from 'kysely';
import type { ChatDatabase, ConversationTable } from '../db/schema.js';
import { nowSeconds } from '../time.js';
import { nameOrIdContains } from './search.js';

/** A conversation as the service works with it: who is in it and its latest message. */
export interface StoredConversation {
  conversationId: string;
  conversationType: 'user' | 'group';
  /** The two users of a one-to-one conversation, in sorted order; none for a group's. */
  uids: [string, string] | undefined;
  guid: string | undefined;
  lastMessageId: number;
  createdAt: number;
  updatedAt: number;
}

const stored = (row: Selectable<ConversationTable>): StoredConversation => ({
  conversationId: row.conversation_id,
  conversationType: row.conversation_type,
  uids: row.first_uid === null || row.second_uid === null ? undefined : [row.first_uid, row.second_uid],
  guid: row.guid ?? undefined,
  lastMessageId: Number(row.last_message_id),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** Conversation rows, maintained by `MessageRepository.insert`; read here per participant. */
export class ConversationRepository {
  constructor(private readonly db: Kysely<ChatDatabase>) {}

  /** The user's conversations, less those they deleted and nobody wrote in since. */
  private ofParticipant(appId: string, uid: string, guids: string[]) {
    return this.db
      .selectFrom('conversations')
      .where('app_id', '=', appId)
      .where((eb) => {
        const own = eb.or([eb('first_uid', '=', uid), eb('second_uid', '=', uid)]);
        return guids.length === 0 ? own : eb.or([own, eb('guid', 'in', guids)]);
      })
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('conversation_deletions as deleted')
              .select('deleted.uid')
              .whereRef('deleted.app_id', '=', 'conversations.app_id')
              .whereRef('deleted.conversation_id', '=', 'conversations.conversation_id')
              .where('deleted.uid', '=', uid)
              .whereRef('deleted.up_to_message_id', '>=', 'conversations.last_message_id'),
          ),
        ),
      );
  }

  /**
   * The user's conversations, those they pinned first (the latest pin first), then the most
   * recently active: one-to-one ones and those of their groups.
   */
  async listFor(
    appId: string,
    uid: string,
    guids: string[],
    query: {
      conversationType?: 'user' | 'group' | undefined;
      /** Only conversations the user tagged with any of these. */
      tags?: ReadonlyArray<string> | undefined;
      /** Only conversations with a user or group whose name or id contains this (any case). */
      searchKey?: string | undefined;
      /** Only the conversations the user pinned. */
      pinnedOnly?: boolean | undefined;
      page: number;
      perPage: number;
    },
  ): Promise<{ conversations: StoredConversation[]; total: number }> {
    let base = this.ofParticipant(appId, uid, guids);
    if (query.conversationType !== undefined)
      base = base.where('conversation_type', '=', query.conversationType);
    const tags = query.tags;
    if (tags !== undefined && tags.length > 0) {
      base = base.where('conversation_id', 'in', (eb) =>
        eb
          .selectFrom('conversation_tags')
          .select('conversation_tags.conversation_id')
          .where('conversation_tags.app_id', '=', appId)
          .where('conversation_tags.uid', '=', uid)
          .where('conversation_tags.tag', 'in', [...tags]),
      );
    }
    const searchKey = query.searchKey;
    if (searchKey !== undefined && searchKey !== '') {
      const users = this.db
        .selectFrom('users')
        .select('users.uid')
        .where('users.app_id', '=', appId)
        .where('users.uid', '!=', uid)
        .where(nameOrIdContains('users.name', 'users.uid', searchKey));
      const groups = this.db
        .selectFrom('groups')
        .select('groups.guid')
        .where('groups.app_id', '=', appId)
        .where(nameOrIdContains('groups.name', 'groups.guid', searchKey));
      base = base.where((eb) =>
        eb.or([eb('first_uid', 'in', users), eb('second_uid', 'in', users), eb('guid', 'in', groups)]),
      );
    }
    if (query.pinnedOnly === true) {
      base = base.where('conversation_id', 'in', (eb) =>
        eb
          .selectFrom('conversation_pins')
          .select('conversation_pins.conversation_id')
          .where('conversation_pins.app_id', '=', appId)
          .where('conversation_pins.uid', '=', uid),
      );
    }
    const counted = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirst();
    const rows = await base
      .selectAll()
      // The user's pinned conversations first, the latest pin first (0 for the rest: both engines
      // would order a null differently).
      .orderBy(
        (eb) =>
          eb.fn.coalesce(
            eb
              .selectFrom('conversation_pins as pin')
              .select('pin.pinned_at_ms')
              .whereRef('pin.app_id', '=', 'conversations.app_id')
              .whereRef('pin.conversation_id', '=', 'conversations.conversation_id')
              .where('pin.uid', '=', uid),
            eb.lit(0),
          ),
        'desc',
      )
      .orderBy('updated_at', 'desc')
      .orderBy('last_message_id', 'desc')
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage)
      .execute();
    return { conversations: rows.map(stored), total: Number(counted?.total ?? 0) };
  }

  async find(appId: string, conversationId: string): Promise<StoredConversation | undefined> {
    const row = await this.db
      .selectFrom('conversations')
      .selectAll()
      .where('app_id', '=', appId)
      .where('conversation_id', '=', conversationId)
      .executeTakeFirst();
    return row === undefined ? undefined : stored(row);
  }

  /**
   * The conversation as `uid` has it: undefined when it has no message yet, or when `uid` deleted it
   * and nobody wrote in it since.
   */
  async findFor(appId: string, conversationId: string, uid: string): Promise<StoredConversation | undefined> {
    const found = await this.find(appId, conversationId);
    if (found === undefined) return undefined;
    const deleted = await this.db
      .selectFrom('conversation_deletions')
      .select('up_to_message_id')
      .where('app_id', '=', appId)
      .where('conversation_id', '=', conversationId)
      .where('uid', '=', uid)
      .executeTakeFirst();
    return deleted !== undefined && Number(deleted.up_to_message_id) >= found.lastMessageId
      ? undefined
      : found;
  }

  /**
   * Deletes the conversation for `uid` alone (CometChat's `deleteConversation`): it leaves their list
   * up to its current last message and comes back with the next one; the history stays, and the
   * other side keeps the conversation. False when there is nothing to delete.
   */
  async deleteFor(appId: string, conversationId: string, uid: string): Promise<boolean> {
    const found = await this.findFor(appId, conversationId, uid);
    if (found === undefined) return false;
    const row = {
      app_id: appId,
      conversation_id: conversationId,
      uid,
      up_to_message_id: found.lastMessageId,
      deleted_at: nowSeconds(),
    };
    await this.db
      .insertInto('conversation_deletions')
      .values(row)
      .onConflict((conflict) =>
        conflict
          .columns(['app_id', 'conversation_id', 'uid'])
          .doUpdateSet({ up_to_message_id: row.up_to_message_id, deleted_at: row.deleted_at }),
      )
      .execute();
    return true;
  }
}
