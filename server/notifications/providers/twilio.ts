import { z } from 'zod';
import { callApi, refusedBy } from './http.js';
import { providerKind, type ProviderDelivery, type SendContext, type SendOutcome } from './provider.js';

/** Twilio's Messages API: the rendered SMS text from the app's sender number, HTTP basic auth. */

const Phone = z
  .string({ error: 'required' })
  .regex(/^\+[1-9][0-9]{6,14}$/, 'a phone number with country code (E.164)');

const TwilioProvider = z.strictObject({
  twilioAccountSID: z.string({ error: 'required' }).regex(/^AC[0-9a-fA-F]{32}$/, 'an account SID (AC…)'),
  twilioAuthToken: z.string({ error: 'required' }).min(1, 'required').max(256),
  twilioSenderPhoneNumber: Phone,
  isEnabled: z.boolean({ error: 'must be true or false' }).default(true),
});
type TwilioConfig = z.infer<typeof TwilioProvider>;

/** Twilio's codes for a number that cannot take messages: repeating will not help. */
const UNREACHABLE_NUMBER = new Set([21211, 21214, 21408, 21610, 21614]);

async function send(
  config: TwilioConfig,
  delivery: ProviderDelivery,
  context: SendContext,
): Promise<SendOutcome> {
  const { recipient, payload } = delivery;
  if (recipient.phone === undefined)
    return { ok: false, retry: false, error: 'the recipient has no stored phone number' };
  const answer = await callApi(
    `${context.baseUrls.twilio}/2010-04-01/Accounts/${config.twilioAccountSID}/Messages.json`,
    {
      headers: {
        authorization: `Basic ${Buffer.from(`${config.twilioAccountSID}:${config.twilioAuthToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        To: recipient.phone,
        From: config.twilioSenderPhoneNumber,
        Body: payload.data.smsContent ?? '',
      }).toString(),
    },
    context.timeoutMs,
  );
  if ('failure' in answer) return { ok: false, retry: true, error: `Twilio: ${answer.failure}` };
  if (answer.status >= 200 && answer.status < 300) return { ok: true };
  const code = (answer.json as { code?: unknown } | undefined)?.code;
  if (typeof code === 'number' && UNREACHABLE_NUMBER.has(code))
    return { ok: false, retry: false, error: `Twilio refused the recipient's number (code ${code})` };
  return refusedBy('Twilio', answer.status);
}

export const twilio = providerKind({
  name: 'twilio',
  channel: 'sms',
  title: 'Twilio',
  multiple: false,
  schema: TwilioProvider,
  secrets: ['twilioAuthToken'],
  enabled: (config) => config.isEnabled,
  send,
});
