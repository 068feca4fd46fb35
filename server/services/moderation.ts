import {
  DEFAULT_FLAG_REASONS,
  type CreateFlagReasonRequest,
  type FlagReason,
  type FlaggedMessage,
  type ReviewStatus,
  type UpdateFlagReasonRequest,
} from '../../shared/moderation.js';
import { ChatError, badRequest } from '../errors.js';
import type { App } from '../repositories/apps.js';
import type { FlagReasonRepository } from '../repositories/flag-reasons.js';
import type { FlagRepository } from '../repositories/flags.js';
import type { MessageRepository } from '../repositories/messages.js';
import { toUserEntity, type UserRepository } from '../repositories/users.js';
import { nowSeconds } from '../time.js';
import type { MessageService } from './messages.js';

/** CometChat's defaults, which every app has from its creation and which do not change. */
function defaultReasonsFor(app: App): FlagReason[] {
  return DEFAULT_FLAG_REASONS.map((reason) => ({
    ...reason,
    default: true,
    createdAt: app.createdAt,
    updatedAt: app.createdAt,
  }));
}

export const reasonNotFound = (id: string): ChatError =>
  new ChatError(404, 'ERR_REASON_NOT_FOUND', `The reason ${id} does not exist.`, { id });

const defaultReasonFixed = (id: string): ChatError =>
  new ChatError(403, 'ERR_DEFAULT_REASON', `The reason ${id} is a default reason: it cannot be changed.`, {
    id,
  });

/**
 * Flagging messages for review: a user flags a message they can see, naming one of the app's
 * reasons; the app (the dashboard, `GET /moderation/flagged-messages`) reads every flag.
 */
export class ModerationService {
  constructor(
    private readonly flags: FlagRepository,
    private readonly customReasons: FlagReasonRepository,
    private readonly messages: MessageRepository,
    private readonly messageService: MessageService,
    private readonly users: UserRepository,
  ) {}

  /** The app's flag reasons: the defaults, then its own, oldest first. */
  async reasons(app: App): Promise<FlagReason[]> {
    return [...defaultReasonsFor(app), ...(await this.customReasons.list(app.appId))];
  }

  async reason(app: App, id: string): Promise<FlagReason> {
    const reason = (await this.reasons(app)).find((candidate) => candidate.id === id);
    if (reason === undefined) throw reasonNotFound(id);
    return reason;
  }

  async createReason(app: App, request: CreateFlagReasonRequest): Promise<FlagReason> {
    const now = nowSeconds();
    const reason = {
      id: request.id,
      name: request.name,
      description: request.description ?? '',
      createdAt: now,
      updatedAt: now,
    };
    const taken = defaultReasonsFor(app).some((candidate) => candidate.id === reason.id);
    if (taken || !(await this.customReasons.create(app.appId, reason))) {
      throw new ChatError(409, 'ERR_REASON_ALREADY_EXISTS', `The reason ${reason.id} already exists.`, {
        id: reason.id,
      });
    }
    return { ...reason, default: false };
  }

  async updateReason(app: App, id: string, changes: UpdateFlagReasonRequest): Promise<FlagReason> {
    const current = await this.reason(app, id);
    if (current.default) throw defaultReasonFixed(id);
    const next = {
      ...current,
      name: changes.name ?? current.name,
      description: changes.description ?? current.description,
      updatedAt: nowSeconds(),
    };
    await this.customReasons.update(app.appId, next);
    return next;
  }

  /** Flags given for a deleted reason keep its id; the flagged-messages list names them by it. */
  async deleteReason(app: App, id: string): Promise<void> {
    if (defaultReasonsFor(app).some((reason) => reason.id === id)) throw defaultReasonFixed(id);
    if (!(await this.customReasons.delete(app.appId, id))) throw reasonNotFound(id);
  }

  /** Flags message `id` for `uid`, who must be able to see it (anyone else's message is "missing"). */
  async flag(app: App, id: string, uid: string, reasonId: string, remark: string | undefined): Promise<void> {
    await this.users.get(app.appId, uid);
    if (!(await this.reasons(app)).some((reason) => reason.id === reasonId)) {
      throw badRequest('reasonId', `no flag reason ${reasonId}; see GET /moderation/reasons`);
    }
    const message = await this.messageService.getVisible(app, id, uid);
    await this.flags.flag(app.appId, Number(message.id), uid, reasonId, remark);
  }

  /**
   * A moderator's verdict on a message with flags waiting for one: `approved` keeps it,
   * `disapproved` deletes it for everyone (as the app, with its `deleted` action). Either way it
   * moves to the reviewed list. A message with no flag waiting answers as missing.
   */
  async review(app: App, id: string, status: ReviewStatus): Promise<void> {
    const messageId = Number(id);
    if (!Number.isSafeInteger(messageId) || !(await this.flags.awaitsReview(app.appId, messageId))) {
      throw new ChatError(
        404,
        'ERR_MESSAGE_NOT_FLAGGED',
        `The message ${id} has no flag waiting for a review.`,
        {
          id,
        },
      );
    }
    // A disapproval's deletion and its verdict commit together: never deleted yet still waiting.
    if (status === 'disapproved')
      await this.messageService.delete(app, id, undefined, false, { uid: undefined }, (trx) =>
        this.flags.review(app.appId, messageId, status, trx),
      );
    else await this.flags.review(app.appId, messageId, status);
  }

  /** The flagged messages waiting for a review, or (`reviewed`) those reviewed, with the review. */
  async listFlagged(
    app: App,
    page: number,
    perPage: number,
    reviewed = false,
  ): Promise<{ rows: FlaggedMessage[]; total: number }> {
    const { messages: flaggedPage, total } = await this.flags.listFlagged(app.appId, page, perPage, reviewed);
    const rows = await this.messages.findMany(
      app.appId,
      flaggedPage.map((item) => item.messageId),
    );
    const stored = flaggedPage.flatMap((item) => {
      const row = rows.get(item.messageId);
      return row === undefined ? [] : [row];
    });
    const presented = new Map(
      (await this.messageService.present(app, stored)).map((message) => [message.id, message]),
    );
    const flaggers = new Set(flaggedPage.flatMap((item) => item.flags.map((flag) => flag.uid)));
    const people = await this.users.findMany(app.appId, flaggers);
    const reasons = new Map((await this.reasons(app)).map((reason) => [reason.id, reason]));
    const flagged = flaggedPage.flatMap((item): FlaggedMessage[] => {
      const message = presented.get(String(item.messageId));
      if (message === undefined) return [];
      const flags = item.flags.flatMap((flag) => {
        const person = people.get(flag.uid);
        const reason = reasons.get(flag.reasonId);
        if (person === undefined) return [];
        return [
          {
            flaggedBy: toUserEntity(person),
            reason: { id: flag.reasonId, name: reason?.name ?? flag.reasonId },
            ...(flag.remark === undefined ? {} : { remark: flag.remark }),
            flaggedAt: flag.flaggedAt,
          },
        ];
      });
      const review = item.review === undefined ? {} : { review: item.review };
      return [{ message, flags, lastFlaggedAt: item.flags[0]?.flaggedAt ?? 0, ...review }];
    });
    return { rows: flagged, total };
  }
}
