import { z } from 'zod';
import { callApi, refusedBy } from './http.js';
import { providerKind, type ProviderDelivery, type SendContext, type SendOutcome } from './provider.js';

/**
 * SendGrid's v3 mail send with a dynamic template: the rendered subject and the batch's messages
 * are the template's data, the unsubscribe group is SendGrid's own (so recipients can opt out).
 * SendGrid answers 202 when it accepted the message.
 */

const SendGridProvider = z.strictObject({
  sendGridApiKey: z.string({ error: 'required' }).min(1, 'required').max(512),
  sendGridTemplateID: z
    .string({ error: 'required' })
    .regex(/^d-[0-9a-f]{32}$/, 'a dynamic template id such as d-0123…'),
  sendGridUnsubscribeGroupID: z
    .string({ error: 'required' })
    .regex(/^\d{1,12}$/, 'a numeric unsubscribe group id'),
  senderName: z.string({ error: 'required' }).min(1, 'required').max(128),
  senderEmail: z.email({ error: 'must be an e-mail address' }),
  allowEmailReplies: z.boolean({ error: 'must be true or false' }).default(false),
  senderEmailForReplies: z.email({ error: 'must be an e-mail address' }).nullable().optional(),
  isEnabled: z.boolean({ error: 'must be true or false' }).default(true),
});
type SendGridConfig = z.infer<typeof SendGridProvider>;

async function send(
  config: SendGridConfig,
  delivery: ProviderDelivery,
  context: SendContext,
): Promise<SendOutcome> {
  const { recipient, payload } = delivery;
  if (recipient.email === undefined)
    return { ok: false, retry: false, error: 'the recipient has no stored e-mail address' };
  const { to: _to, ...templateData } = payload.data;
  const message = {
    from: { email: config.senderEmail, name: config.senderName },
    personalizations: [
      {
        to: [{ email: recipient.email, ...(recipient.name === undefined ? {} : { name: recipient.name }) }],
        dynamic_template_data: { ...templateData, to: { uid: recipient.uid, name: recipient.name } },
      },
    ],
    template_id: config.sendGridTemplateID,
    asm: { group_id: Number(config.sendGridUnsubscribeGroupID) },
    ...(config.allowEmailReplies && config.senderEmailForReplies != null
      ? { reply_to: { email: config.senderEmailForReplies } }
      : {}),
    custom_args: { notificationId: delivery.idempotencyKey },
  };
  const answer = await callApi(
    `${context.baseUrls.sendgrid}/v3/mail/send`,
    {
      headers: { authorization: `Bearer ${config.sendGridApiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(message),
    },
    context.timeoutMs,
  );
  if ('failure' in answer) return { ok: false, retry: true, error: `SendGrid: ${answer.failure}` };
  return answer.status >= 200 && answer.status < 300 ? { ok: true } : refusedBy('SendGrid', answer.status);
}

export const sendgrid = providerKind({
  name: 'sendgrid',
  channel: 'email',
  title: 'SendGrid',
  multiple: false,
  schema: SendGridProvider,
  secrets: ['sendGridApiKey'],
  enabled: (config) => config.isEnabled,
  refine: (config) =>
    config.allowEmailReplies && (config.senderEmailForReplies ?? null) === null
      ? { field: 'senderEmailForReplies', message: 'required with allowEmailReplies' }
      : undefined,
  send,
});
