import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatErrorEnvelope, zodErrorToEnvelope } from '../../shared/errors.js';

describe('CometChat error envelope', () => {
  const Body = z.object({ receiver: z.string(), data: z.object({ text: z.string() }) });

  it('names the first field at fault in the message and in details.field', () => {
    const result = Body.safeParse({ receiver: 'bob', data: { text: 42 } });
    if (result.success) throw new Error('expected failure');
    const envelope = zodErrorToEnvelope(result.error);
    expect(envelope.error.code).toBe('ERR_BAD_REQUEST');
    expect(envelope.error.details.field).toBe('data.text');
    expect(envelope.error.message).toMatch(/^data\.text: /);
  });

  it('lists every failing field in details.fields', () => {
    const result = Body.safeParse({});
    if (result.success) throw new Error('expected failure');
    const fields = (zodErrorToEnvelope(result.error).error.details.fields as { field: string }[]).map(
      (f) => f.field,
    );
    expect(fields).toEqual(['receiver', 'data']);
  });

  it('calls a failure of the whole body "body"', () => {
    const result = Body.safeParse('not an object');
    if (result.success) throw new Error('expected failure');
    expect(zodErrorToEnvelope(result.error).error.details.field).toBe('body');
  });

  it('takes a specific error code', () => {
    const result = Body.safeParse({});
    if (result.success) throw new Error('expected failure');
    expect(zodErrorToEnvelope(result.error, 'ERR_INVALID_MESSAGE_DATA').error.code).toBe(
      'ERR_INVALID_MESSAGE_DATA',
    );
  });

  it('parses the envelope the SDK reacts to, defaulting details to {}', () => {
    const parsed = ChatErrorEnvelope.parse({
      error: { code: 'AUTH_ERR_AUTH_TOKEN_NOT_FOUND', message: 'gone' },
    });
    expect(parsed.error.details).toEqual({});
  });
});
