import { DEFAULT_FLAG_REASONS, type FlagReason, type FlaggedMessage } from '../../shared/moderation.js';
import { ChatError, badRequest } from '../errors.js';
import type { App } from '../repositories/apps.js';
import type { FlagRepository } from '../repositories/flags.js';
import type { MessageRepository } from '../repositories/messages.js';
import { toUserEntity, type UserRepository } from '../repositories/users.js';
import type { MessageService } from './messages.js';

/** The app's flag reasons: CometChat's defaults, created with the app. */
export function flagReasonsFor(app: App): FlagReason[] {
  return DEFAULT_FLAG_REASONS.map((reason) => ({
    ...reason,
    default: true,
    createdAt: app.createdAt,
    updatedAt: app.createdAt,
  }));
}

export const reasonNotFound = (id: string): ChatError =>
  new ChatError(404, 'ERR_REASON_NOT_FOUND', `The reason ${id} does not exist.`, { id });

/**
 * Flagging messages for review: a user flags a message they can see, naming one of the app's
 * reasons; the app (the dashboard, `GET /moderation/flagged-messages`) reads every flag.
 */
export class ModerationService {
  constructor(
    private readonly flags: FlagRepository,
    private readonly messages: MessageRepository,
    private readonly messageService: MessageService,
    private readonly users: UserRepository,
  ) {}

  /** Flags message `id` for `uid`, who must be able to see it (anyone else's message is "missing"). */
  async flag(app: App, id: string, uid: string, reasonId: string, remark: string | undefined): Promise<void> {
    await this.users.get(app.appId, uid);
    if (!flagReasonsFor(app).some((reason) => reason.id === reasonId)) {
      throw badRequest('reasonId', `no flag reason ${reasonId}; see GET /moderation/reasons`);
    }
    const message = await this.messageService.getVisible(app, id, uid);
    await this.flags.flag(app.appId, Number(message.id), uid, reasonId, remark);
  }

  async listFlagged(
    app: App,
    page: number,
    perPage: number,
  ): Promise<{ flagged: FlaggedMessage[]; total: number }> {
    const { messages: flaggedPage, total } = await this.flags.listFlagged(app.appId, page, perPage);
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
    const reasons = new Map(flagReasonsFor(app).map((reason) => [reason.id, reason]));
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
      return [{ message, flags, lastFlaggedAt: item.flags[0]?.flaggedAt ?? 0 }];
    });
    return { flagged, total };
  }
}
