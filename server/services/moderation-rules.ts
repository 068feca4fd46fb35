import type { Kysely } from 'kysely';
import type {
  BlockedMessage,
  CreateKeywordListRequest,
  CreateModerationRuleRequest,
  KeywordList,
  ModerationCondition,
  ModerationConditionRequest,
  ModerationRule,
  ReviewBlockedMessageRequest,
  UpdateKeywordListRequest,
  UpdateModerationRuleRequest,
} from '../../shared/moderation-rules.js';
import type { ChatDatabase } from '../db/schema.js';
import { ChatError, badRequest } from '../errors.js';
import type { ChatEvents } from '../events.js';
import type { App } from '../repositories/apps.js';
import {
  revisionIdOf,
  type ModerationRuleRepository,
  type StoredBlockedMessage,
} from '../repositories/moderation-rules.js';
import { nowSeconds } from '../time.js';
import type { ContentRules } from './content-rules.js';
import type { MessageService } from './messages.js';

const ruleNotFound = (id: string): ChatError =>
  new ChatError(404, 'ERR_RULE_NOT_FOUND', `The rule ${id} does not exist.`, { id });

const keywordListNotFound = (id: string): ChatError =>
  new ChatError(404, 'ERR_KEYWORD_NOT_FOUND', `The keyword list ${id} does not exist.`, { id });

const blockedMessageNotFound = (id: string): ChatError =>
  new ChatError(404, 'ERR_BLOCKED_MESSAGE_NOT_FOUND', `No message ${id} was blocked.`, { id });

/**
 * The app's moderation rules and keyword lists (each change forgets the compiled rules in every
 * process, `ContentRules`), and the review of the messages they held back: approving one sends it
 * as its sender sent it, rejecting keeps it back.
 */
export class ModerationRuleService {
  constructor(
    private readonly db: Kysely<ChatDatabase>,
    private readonly repository: ModerationRuleRepository,
    private readonly contentRules: ContentRules,
    private readonly messageService: MessageService,
    private readonly events: ChatEvents,
  ) {}

  rules(app: App): Promise<ModerationRule[]> {
    return this.repository.rules(app.appId);
  }

  async rule(app: App, id: string): Promise<ModerationRule> {
    const found = await this.repository.rule(app.appId, id);
    if (found === undefined) throw ruleNotFound(id);
    return found.rule;
  }

  async createRule(app: App, request: CreateModerationRuleRequest): Promise<ModerationRule> {
    const now = nowSeconds();
    const rule: ModerationRule = {
      id: request.id,
      name: request.name,
      description: request.description ?? '',
      enabled: request.enabled ?? true,
      conditions: await this.conditionsOf(app, request.conditions),
      action: request.action,
      active: true,
      createdAt: now,
      updatedAt: now,
      revisionId: revisionIdOf(app.appId, request.id, 1),
    };
    if (!(await this.repository.writeRule(app.appId, rule, 1)))
      throw new ChatError(409, 'ERR_RULE_ALREADY_EXISTS', `The rule ${rule.id} already exists.`, {
        id: rule.id,
      });
    this.contentRules.changed(app.appId);
    return rule;
  }

  /** Every change is a new revision; a change racing another answers 409 rather than losing one. */
  async updateRule(app: App, id: string, changes: UpdateModerationRuleRequest): Promise<ModerationRule> {
    const current = await this.repository.rule(app.appId, id);
    if (current === undefined) throw ruleNotFound(id);
    const revision = current.revision + 1;
    const rule: ModerationRule = {
      ...current.rule,
      name: changes.name ?? current.rule.name,
      description: changes.description ?? current.rule.description,
      enabled: changes.enabled ?? current.rule.enabled,
      conditions:
        changes.conditions === undefined
          ? current.rule.conditions
          : await this.conditionsOf(app, changes.conditions),
      action: changes.action ?? current.rule.action,
      updatedAt: nowSeconds(),
      revisionId: revisionIdOf(app.appId, id, revision),
    };
    if (!(await this.repository.writeRule(app.appId, rule, revision)))
      throw new ChatError(
        409,
        'ERR_RULE_CHANGED',
        `The rule ${id} changed meanwhile: read it and try again.`,
        {
          id,
        },
      );
    this.contentRules.changed(app.appId);
    return rule;
  }

  async deleteRule(app: App, id: string): Promise<void> {
    if (!(await this.repository.deleteRule(app.appId, id))) throw ruleNotFound(id);
    this.contentRules.changed(app.appId);
  }

  async revisions(app: App, id: string): Promise<ModerationRule[]> {
    const revisions = await this.repository.revisions(app.appId, id);
    if (revisions.length === 0) throw ruleNotFound(id);
    return revisions;
  }

  /** Conditions numbered in order where they have no id; every keyword list they name must exist. */
  private async conditionsOf(
    app: App,
    conditions: ReadonlyArray<ModerationConditionRequest>,
  ): Promise<ModerationCondition[]> {
    const named = new Set(
      conditions.flatMap((condition) =>
        condition.isKeywordsReferencePresent === true ? condition.value : [],
      ),
    );
    const lists = new Set((await this.repository.keywordLists(app.appId, [...named])).map((list) => list.id));
    return conditions.map((condition, index) => {
      const isKeywordsReferencePresent = condition.isKeywordsReferencePresent === true;
      const missing = isKeywordsReferencePresent ? condition.value.find((id) => !lists.has(id)) : undefined;
      if (missing !== undefined)
        throw badRequest(
          `conditions.${index}.value`,
          `no keyword list ${missing}; see GET /moderation/keywords`,
        );
      return {
        ...condition,
        id: condition.id ?? index + 1,
        isKeywordsReferencePresent,
        isMediaPresent: false,
      };
    });
  }

  keywordLists(app: App): Promise<KeywordList[]> {
    return this.repository.keywordLists(app.appId);
  }

  async keywordList(app: App, id: string): Promise<KeywordList> {
    const [list] = await this.repository.keywordLists(app.appId, [id]);
    if (list === undefined) throw keywordListNotFound(id);
    return list;
  }

  async createKeywordList(app: App, request: CreateKeywordListRequest): Promise<KeywordList> {
    const now = nowSeconds();
    const list: KeywordList = {
      id: request.id,
      name: request.name,
      description: request.description ?? '',
      category: 'word',
      isCSV: false,
      searchTerms: request.searchTerms,
      active: true,
      createdAt: now,
      updatedAt: now,
      revisionId: revisionIdOf(app.appId, request.id, 1),
    };
    if (!(await this.repository.createKeywordList(app.appId, list)))
      throw new ChatError(409, 'ERR_KEYWORD_ALREADY_EXISTS', `The keyword list ${list.id} already exists.`, {
        id: list.id,
      });
    return list;
  }

  /** Rules naming the list look for its new terms from the next message on. */
  async updateKeywordList(app: App, id: string, changes: UpdateKeywordListRequest): Promise<KeywordList> {
    const current = await this.keywordList(app, id);
    const updated = await this.repository.updateKeywordList(app.appId, id, {
      name: changes.name ?? current.name,
      description: changes.description ?? current.description,
      searchTerms: changes.searchTerms ?? current.searchTerms,
      updatedAt: nowSeconds(),
    });
    if (updated === undefined) throw keywordListNotFound(id);
    this.contentRules.changed(app.appId);
    return updated;
  }

  /** A list a rule looks in stays until no rule names it: a rule never points at nothing. */
  async deleteKeywordList(app: App, id: string): Promise<void> {
    const users = (await this.repository.rules(app.appId)).filter((rule) =>
      rule.conditions.some(
        (condition) => condition.isKeywordsReferencePresent && condition.value.includes(id),
      ),
    );
    if (users.length > 0)
      throw new ChatError(
        409,
        'ERR_KEYWORD_IN_USE',
        `The keyword list ${id} is used by the rules ${users.map((rule) => rule.id).join(', ')}.`,
        { id, rules: users.map((rule) => rule.id) },
      );
    if (!(await this.repository.deleteKeywordList(app.appId, id))) throw keywordListNotFound(id);
  }

  /** The messages the rules held back, newest first, each with its review status. */
  async blockedMessages(
    app: App,
    page: number,
    perPage: number,
  ): Promise<{ rows: BlockedMessage[]; total: number }> {
    const { blocked, total } = await this.repository.listBlocked(app.appId, page, perPage);
    const messages = await this.messageService.presentHeld(
      app,
      blocked.map((entry) => ({
        id: entry.id,
        draft: entry.draft,
        status: entry.status === 'approved' ? 'approved' : 'disapproved',
      })),
    );
    return {
      rows: blocked.flatMap((entry: StoredBlockedMessage, index): BlockedMessage[] => {
        const message = messages[index];
        if (message === undefined) return [];
        return [
          {
            ruleId: entry.ruleId,
            ruleName: entry.ruleName,
            revisionId: entry.revisionId,
            condition: entry.condition,
            message,
            action: entry.actions,
            status: entry.status,
            ...(entry.deliveredMessageId === undefined
              ? {}
              : { deliveredMessageId: String(entry.deliveredMessageId) }),
            createdAt: entry.createdAt,
            updatedAt: entry.updatedAt,
          },
        ];
      }),
      total,
    };
  }

  /**
   * A moderator's verdict. `approved` sends the message as its sender sent it (to a receiver that
   * must still exist, from a sender still in the group), marked approved, under the id its sender
   * was answered with, and tells the sender (`on_moderation_status_changed`); `rejected` keeps it
   * back. An approval and its message commit in one transaction, so a failure (or a process dying)
   * leaves the message blocked, to approve again; two approvals at once send it once (the second
   * waits for the first's row and finds it approved). An approved message stays sent.
   */
  async reviewBlocked(app: App, id: string, { status }: ReviewBlockedMessageRequest): Promise<void> {
    const reviewId = Number(id);
    const entry = Number.isSafeInteger(reviewId)
      ? await this.repository.blocked(app.appId, reviewId)
      : undefined;
    if (entry === undefined) throw blockedMessageNotFound(id);
    const alreadySent = new ChatError(
      409,
      'ERR_ALREADY_APPROVED',
      `The message ${id} was approved and sent.`,
      {
        id,
      },
    );
    const now = nowSeconds();
    const approvable = ['blocked', 'rejected'] as const;
    if (status === 'rejected') {
      if (!(await this.repository.review(app.appId, reviewId, approvable, status, now))) throw alreadySent;
      return;
    }
    const approval = await this.messageService.approvedSend(app, { id: reviewId, draft: entry.draft });
    const written = await this.db.transaction().execute(async (trx) => {
      if (!(await this.repository.review(app.appId, reviewId, approvable, status, now, undefined, trx)))
        throw alreadySent;
      const stored = await approval.store(trx);
      await this.repository.review(app.appId, reviewId, ['approved'], status, now, stored.message.id, trx);
      return stored;
    });
    const origin = { uid: entry.sender };
    this.events.emit('messageModerated', app.appId, await approval.announce(written, origin), origin);
  }
}
