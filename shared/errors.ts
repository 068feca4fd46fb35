import { z } from 'zod';

/** CometChat's error envelope: `{"error": {"code", "message", "details"}}`. */
export const ChatErrorEnvelope = z.object({
  error: z.object({
    code: z.string().min(1),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).default({}),
  }),
});
export type ChatErrorEnvelope = z.infer<typeof ChatErrorEnvelope>;

/** One field that failed validation, by its dotted path in the request (`data.interactionGoal.elementIds.0`). */
export interface FieldProblem {
  field: string;
  message: string;
}

/** Dotted path of a zod issue; the empty path (the whole body) is named `body`. */
export function issuePath(path: ReadonlyArray<PropertyKey>): string {
  return path.length === 0 ? 'body' : path.map(String).join('.');
}

export function fieldProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => ({ field: issuePath(issue.path), message: issue.message }));
}

/**
 * Turns a zod failure into CometChat's error envelope. The message names the first field at fault
 * (`data.text: Invalid input: expected string, received number`); `details.fields` lists them all.
 */
export function zodErrorToEnvelope(error: z.ZodError, code = 'ERR_BAD_REQUEST'): ChatErrorEnvelope {
  const problems = fieldProblems(error);
  const first = problems[0] ?? { field: 'body', message: 'invalid input' };
  return {
    error: {
      code,
      message: `${first.field}: ${first.message}`,
      details: { field: first.field, fields: problems },
    },
  };
}
