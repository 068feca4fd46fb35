import type { Kysely, Selectable } from 'kysely';
import type {
  BlockedMessageStatus,
  KeywordList,
  ModerationAction,
  ModerationCondition,
  ModerationRule,
} from '../../shared/moderation-rules.js';
import type {
  ChatDatabase,
  ModerationBlockedMessageTable,
  ModerationKeywordListTable,
} from '../db/schema.js';
import type { MessageDraft } from './message-writer.js';

type Db = Kysely<ChatDatabase>;

/** CometChat's revision ids: `<appId>_<id>_<revision>`. */
export const revisionIdOf = (appId: string, id: string, revision: number): string =>
  `${appId}_${id}_${revision}`;

const keywordListOf = (row: ModerationKeywordListTable): KeywordList => ({
  id: row.id,
  name: row.name,
  description: row.description,
  category: 'word',
  isCSV: false,
  searchTerms: JSON.parse(row.search_terms) as string[],
  active: true,
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
  revisionId: revisionIdOf(row.app_id, row.id, Number(row.revision)),
});

/** The message a rule held back, as its sender sent it (one receiver). */
export type HeldDraft = Omit<MessageDraft, 'decision'>;

/** A blocked message as stored: what was sent, by whom, and what held it back. */
export interface StoredBlockedMessage {
  id: number;
  sender: string;
  draft: HeldDraft;
  ruleId: string;
  ruleName: string;
  revisionId: string;
  condition: ModerationCondition;
  actions: ModerationAction[];
  status: BlockedMessageStatus;
  deliveredMessageId: number | undefined;
  createdAt: number;
  updatedAt: number;
}

/** What held a message back: the rule's revision and its condition that matched. */
export interface HeldBy {
  rule: Pick<ModerationRule, 'id' | 'name' | 'revisionId' | 'action'>;
  condition: ModerationCondition;
}

const blockedOf = (row: Selectable<ModerationBlockedMessageTable>): StoredBlockedMessage => ({
  id: Number(row.id),
  sender: row.sender,
  draft: JSON.parse(row.draft) as HeldDraft,
  ruleId: row.rule_id,
  ruleName: row.rule_name,
  revisionId: row.revision_id,
  condition: JSON.parse(row.condition) as ModerationCondition,
  actions: JSON.parse(row.actions) as ModerationAction[],
  status: row.status as BlockedMessageStatus,
  deliveredMessageId: row.delivered_message_id === null ? undefined : Number(row.delivered_message_id),
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

/**
 * An app's moderation rules (each write kept as a revision), its keyword lists, and the messages
 * the rules held back.
 */
export class ModerationRuleRepository {
  constructor(private readonly db: Db) {}

  /** The app's rules, newest first. */
  async rules(appId: string): Promise<ModerationRule[]> {
    const rows = await this.db
      .selectFrom('moderation_rules')
      .select('rule')
      .where('app_id', '=', appId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map((row) => JSON.parse(row.rule) as ModerationRule);
  }

  async rule(appId: string, id: string): Promise<{ rule: ModerationRule; revision: number } | undefined> {
    const row = await this.db
      .selectFrom('moderation_rules')
      .select(['rule', 'revision'])
      .where('app_id', '=', appId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined
      ? undefined
      : { rule: JSON.parse(row.rule) as ModerationRule, revision: Number(row.revision) };
  }

  /**
   * Stores `rule` as revision `revision` (1 creates it). False when another write got there first:
   * the rule exists already (creating) or moved past `revision - 1` (updating).
   */
  async writeRule(appId: string, rule: ModerationRule, revision: number): Promise<boolean> {
    const json = JSON.stringify(rule);
    return this.db.transaction().execute(async (trx) => {
      if (revision === 1) {
        const inserted = await trx
          .insertInto('moderation_rules')
          .values({ app_id: appId, id: rule.id, revision, rule: json, created_at: rule.createdAt })
          .onConflict((oc) => oc.columns(['app_id', 'id']).doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
      } else {
        const updated = await trx
          .updateTable('moderation_rules')
          .set({ revision, rule: json })
          .where('app_id', '=', appId)
          .where('id', '=', rule.id)
          .where('revision', '=', revision - 1)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) return false;
      }
      await trx
        .insertInto('moderation_rule_revisions')
        .values({ app_id: appId, rule_id: rule.id, revision, rule: json })
        .execute();
      return true;
    });
  }

  /** Newest first. */
  async revisions(appId: string, id: string): Promise<ModerationRule[]> {
    const rows = await this.db
      .selectFrom('moderation_rule_revisions')
      .select('rule')
      .where('app_id', '=', appId)
      .where('rule_id', '=', id)
      .orderBy('revision', 'desc')
      .execute();
    return rows.map((row) => JSON.parse(row.rule) as ModerationRule);
  }

  /** The rule and its revisions; false when there was no such rule. */
  async deleteRule(appId: string, id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const deleted = await trx
        .deleteFrom('moderation_rules')
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .executeTakeFirst();
      await trx
        .deleteFrom('moderation_rule_revisions')
        .where('app_id', '=', appId)
        .where('rule_id', '=', id)
        .execute();
      return Number(deleted.numDeletedRows) > 0;
    });
  }

  async keywordLists(appId: string, ids?: ReadonlyArray<string>): Promise<KeywordList[]> {
    if (ids?.length === 0) return [];
    let query = this.db.selectFrom('moderation_keyword_lists').selectAll().where('app_id', '=', appId);
    if (ids !== undefined) query = query.where('id', 'in', ids);
    const rows = await query.orderBy('created_at', 'desc').orderBy('id').execute();
    return rows.map(keywordListOf);
  }

  /** False when the app has a list with this id already. */
  async createKeywordList(appId: string, list: KeywordList): Promise<boolean> {
    const inserted = await this.db
      .insertInto('moderation_keyword_lists')
      .values({
        app_id: appId,
        id: list.id,
        name: list.name,
        description: list.description,
        search_terms: JSON.stringify(list.searchTerms),
        revision: 1,
        created_at: list.createdAt,
        updated_at: list.updatedAt,
      })
      .onConflict((oc) => oc.columns(['app_id', 'id']).doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** The list as changed (its revision counted up), or undefined when there is no such list. */
  async updateKeywordList(
    appId: string,
    id: string,
    changes: Pick<KeywordList, 'name' | 'description' | 'searchTerms' | 'updatedAt'>,
  ): Promise<KeywordList | undefined> {
    const row = await this.db
      .updateTable('moderation_keyword_lists')
      .set((eb) => ({
        name: changes.name,
        description: changes.description,
        search_terms: JSON.stringify(changes.searchTerms),
        updated_at: changes.updatedAt,
        revision: eb('revision', '+', 1),
      }))
      .where('app_id', '=', appId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row === undefined ? undefined : keywordListOf(row);
  }

  async deleteKeywordList(appId: string, id: string): Promise<boolean> {
    const deleted = await this.db
      .deleteFrom('moderation_keyword_lists')
      .where('app_id', '=', appId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  }

  /**
   * Holds back one message per draft, all or none, each under the message id reserved for it
   * (`MessageRepository.reserveIds`): the id its sender is answered with and it is sent under once
   * approved.
   */
  async hold(
    appId: string,
    held: ReadonlyArray<{ id: number; draft: HeldDraft }>,
    heldBy: HeldBy,
    at: number,
  ): Promise<void> {
    const rows = held.map(({ id, draft }) => ({
      id,
      app_id: appId,
      sender: draft.sender,
      draft: JSON.stringify(draft),
      rule_id: heldBy.rule.id,
      rule_name: heldBy.rule.name,
      revision_id: heldBy.rule.revisionId,
      condition: JSON.stringify(heldBy.condition),
      actions: JSON.stringify(heldBy.rule.action),
      status: 'blocked',
      delivered_message_id: null,
      created_at: at,
      updated_at: at,
    }));
    await this.db.insertInto('moderation_blocked_messages').values(rows).execute();
  }

  async blocked(appId: string, id: number): Promise<StoredBlockedMessage | undefined> {
    const row = await this.db
      .selectFrom('moderation_blocked_messages')
      .selectAll()
      .where('app_id', '=', appId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? undefined : blockedOf(row);
  }

  /** Newest first. */
  async listBlocked(
    appId: string,
    page: number,
    perPage: number,
  ): Promise<{ blocked: StoredBlockedMessage[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('moderation_blocked_messages')
        .selectAll()
        .where('app_id', '=', appId)
        .orderBy('id', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute(),
      this.db
        .selectFrom('moderation_blocked_messages')
        .select((eb) => eb.fn.countAll().as('total'))
        .where('app_id', '=', appId)
        .executeTakeFirstOrThrow(),
    ]);
    return { blocked: rows.map(blockedOf), total: Number(count.total) };
  }

  /**
   * Moves a blocked message from `from` to `to` (with the delivered message's id once approved),
   * in the caller's transaction `db` if given, where it stays locked (PostgreSQL) until the end.
   * False when it was not in `from`: another review got there first.
   */
  async review(
    appId: string,
    id: number,
    from: ReadonlyArray<BlockedMessageStatus>,
    to: BlockedMessageStatus,
    at: number,
    deliveredMessageId?: number,
    db: Db = this.db,
  ): Promise<boolean> {
    const updated = await db
      .updateTable('moderation_blocked_messages')
      .set({ status: to, updated_at: at, delivered_message_id: deliveredMessageId ?? null })
      .where('app_id', '=', appId)
      .where('id', '=', id)
      .where('status', 'in', from)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  }
}
