import type { ApiAction, ButtonElement, FormElement, InteractiveFormData } from '../../shared/interactive.js';
import { goalCompleted, type FormValues } from '../../shared/interactive-values.js';
import type { Interaction } from '../../shared/message.js';
import type { ClientSettingsRepository } from '../client-api/client-settings.js';
import { ChatError, badRequest } from '../errors.js';
import type { Logger } from '../log.js';
import type { App } from '../repositories/apps.js';
import type { ChatServices } from '../services/registry.js';
import { nowSeconds } from '../time.js';
import { performApiAction, type ActionResult } from './api-action.js';
import { checkFormValues } from './form-values.js';

export interface FormOutcome {
  interactions: Interaction[];
  goalCompleted: boolean;
  /** The apiAction the submission ran, without anything the receiver answered. */
  action?: ActionResult & { elementId: string };
}

/** The answer to `PATCH /messages/{id}/interacted`, the same in the server and client APIs. */
export interface InteractedAnswer {
  data: {
    success: true;
    message: string;
    interactions: Interaction[];
    interactionGoalCompleted: boolean;
    action?: FormOutcome['action'];
  };
}

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

type StoredForm = InteractiveFormData & { interactions?: Interaction[] };

const refused = (code: string, message: string, details: Record<string, unknown>): ChatError =>
  new ChatError(403, code, message, details);

/**
 * Interactions with form messages, enforced here rather than trusted to clients: each element
 * must exist, a `disableAfterInteracted` button acts once per user, a met `interactionGoal` closes
 * the form, and an apiAction runs on the server, only towards allowed origins, once per accepted
 * submission.
 */
export class FormSubmissions {
  constructor(
    private readonly services: ChatServices,
    private readonly clientSettings: ClientSettingsRepository,
    private readonly options: FormSubmissionOptions,
  ) {}

  async submit(
    app: App,
    messageId: string,
    uid: string,
    elementIds: ReadonlyArray<string>,
    formData: FormValues | undefined,
    options: { performAction: boolean } = { performAction: true },
  ): Promise<FormOutcome> {
    const { messageService, store } = this.services;
    const row = await messageService.getVisible(app, messageId, uid);
    if (row.category !== 'interactive') {
      throw new ChatError(
        400,
        'ERR_MESSAGE_ACTION_NOT_ALLOWED',
        `The message ${messageId} is not an interactive message.`,
        {
          id: messageId,
        },
      );
    }
    const form = JSON.parse(row.data) as StoredForm;
    if (row.sender === uid && form.allowSenderInteraction !== true) {
      throw refused(
        'ERR_MESSAGE_ACTION_NOT_ALLOWED',
        `The sender may not interact with the message ${messageId}.`,
        {
          id: messageId,
        },
      );
    }
    const elements = new Map<string, FormElement>(
      [...form.interactiveData.formFields, form.interactiveData.submitElement].map((element) => [
        element.elementId,
        element,
      ]),
    );
    const buttons = elementIds.map((elementId, index) => {
      const element = elements.get(elementId);
      if (element === undefined)
        throw badRequest(`interactions.${index}`, `the message has no element ${elementId}`);
      return element.elementType === 'button' ? element : undefined;
    });
    if (goalCompleted(form.interactionGoal, form.interactions ?? [])) {
      throw refused(
        'ERR_INTERACTION_GOAL_COMPLETED',
        `The form of message ${messageId} is complete; it takes no more input.`,
        {
          id: messageId,
        },
      );
    }
    const action = options.performAction ? this.actionOf(buttons) : undefined;
    if (action !== undefined) {
      await this.checkOrigin(app, action.action, messageId);
      checkFormValues(form, formData ?? {});
    } else if (formData !== undefined) {
      checkFormValues(form, formData);
    }
    const onceOnly = new Set(
      buttons
        .filter((button): button is ButtonElement => button?.disableAfterInteracted === true)
        .map((b) => b.elementId),
    );
    const numericId = Number(row.id);
    await store.db.transaction().execute(async (trx) => {
      for (const elementId of new Set(elementIds)) {
        const inserted = await trx
          .insertInto('form_submissions')
          .values({
            app_id: app.appId,
            message_id: numericId,
            uid,
            element_id: elementId,
            submitted_at: nowSeconds(),
          })
          .onConflict((oc) => oc.columns(['app_id', 'message_id', 'uid', 'element_id']).doNothing())
          .executeTakeFirst();
        if (onceOnly.has(elementId) && Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
          throw refused(
            'ERR_ALREADY_INTERACTED',
            `The element ${elementId} acts once and was already used.`,
            {
              id: messageId,
              elementId,
            },
          );
        }
      }
    });
    const recorded = await messageService.markInteracted(app, messageId, uid, elementIds);
    if (action === undefined) return recorded;
    const result = await performApiAction(action.action, formData ?? {}, {
      timeoutMs: this.options.actionTimeoutMs ?? 10_000,
      ...(this.options.fetch === undefined ? {} : { fetch: this.options.fetch }),
    });
    this.options.logger.info('form_action', {
      appId: app.appId,
      messageId,
      elementId: action.elementId,
      origin: new URL(action.action.url).origin,
      status: result.status,
      httpStatus: result.httpStatus,
    });
    return { ...recorded, action: { ...result, elementId: action.elementId } };
  }

  /** The apiAction among the buttons pressed; a submission presses at most one that acts. */
  private actionOf(
    buttons: ReadonlyArray<ButtonElement | undefined>,
  ): { elementId: string; action: ApiAction } | undefined {
    for (const button of buttons) {
      if (button?.action?.actionType === 'apiAction')
        return { elementId: button.elementId, action: button.action };
    }
    return undefined;
  }

  private async checkOrigin(app: App, action: ApiAction, messageId: string): Promise<void> {
    const origin = new URL(action.url).origin;
    const allowed = new Set([
      ...this.options.selfOrigins(),
      ...(await this.clientSettings.get(app.appId)).apiActionOrigins,
    ]);
    if (!allowed.has(origin)) {
      throw refused(
        'ERR_ACTION_ORIGIN_NOT_ALLOWED',
        `The app does not allow form actions towards ${origin}.`,
        {
          id: messageId,
          origin,
        },
      );
    }
  }
}
