import type { FormValues } from '../../shared/interactive-values.js';
import type { InteractedAnswer, Interaction } from '../../shared/message.js';
import type { ClientSettingsRepository } from '../repositories/client-settings.js';
import type { EventOrigin } from '../events.js';
import type { Logger } from '../log.js';
import type { App } from '../repositories/apps.js';
import type { MessageService } from '../services/messages.js';
import { performApiAction, type ActionResult } from './api-action.js';

export interface FormOutcome {
  interactions: Interaction[];
  goalCompleted: boolean;
  /** The apiAction the submission ran, without anything the receiver answered. */
  action?: ActionResult & { elementId: string };
}

/** The answer to `PATCH /messages/{id}/interacted` (`shared/message.ts`). */
export function interactedAnswer(messageId: string, outcome: FormOutcome): InteractedAnswer {
  return {
    data: {
      success: true,
      message: `The message ${messageId} is marked as interacted.`,
      interactions: outcome.interactions,
      interactionGoalCompleted: outcome.goalCompleted,
      ...(outcome.action === undefined ? {} : { action: outcome.action }),
    },
  };
}

export interface FormSubmissionOptions {
  /** This server's own origins: apiActions may always call them. */
  selfOrigins: () => string[];
  logger: Logger;
  actionTimeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * Form submissions from clients. The message service enforces the form's rules and stores the
 * interaction in one transaction; this runs the pressed button's apiAction afterwards, on the
 * server, only towards allowed origins, once per accepted submission.
 */
export class FormSubmissions {
  constructor(
    private readonly messages: MessageService,
    private readonly clientSettings: ClientSettingsRepository,
    private readonly options: FormSubmissionOptions,
  ) {}

  async submit(
    app: App,
    messageId: string,
    uid: string,
    elementIds: ReadonlyArray<string>,
    formData: FormValues | undefined,
    origin: EventOrigin,
  ): Promise<FormOutcome> {
    const actionOrigins = new Set([
      ...this.options.selfOrigins(),
      ...(await this.clientSettings.get(app.appId)).apiActionOrigins,
    ]);
    const { apiAction, ...recorded } = await this.messages.interact(
      app,
      messageId,
      uid,
      { elementIds, formData, actionOrigins },
      origin,
    );
    if (apiAction === undefined) return recorded;
    const result = await performApiAction(apiAction.action, formData ?? {}, {
      timeoutMs: this.options.actionTimeoutMs ?? 10_000,
      ...(this.options.fetch === undefined ? {} : { fetch: this.options.fetch }),
    });
    this.options.logger.info('form_action', {
      appId: app.appId,
      messageId,
      elementId: apiAction.elementId,
      origin: new URL(apiAction.action.url).origin,
      status: result.status,
      httpStatus: result.httpStatus,
    });
    return { ...recorded, action: { ...result, elementId: apiAction.elementId } };
  }
}
