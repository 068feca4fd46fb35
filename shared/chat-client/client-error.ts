/**
 * A failure of the chat client. `code` is the service's CometChat code (`AUTH_ERR_AUTH_TOKEN_NOT_FOUND`,
 * `ERR_UID_NOT_FOUND`, …) or one of the client's own: `ERR_NETWORK` when the service could not be
 * reached (the only retryable kind), `ERR_BAD_RESPONSE`, `ERR_NOT_LOGGED_IN`, `ERR_INVALID_OPTION`, `ERR_CANCELLED` (an upload
 * the user cancelled).
 */
export class ChatClientError extends Error {
  override readonly name = 'ChatClientError';
  constructor(
    readonly code: string,
    message: string,
    readonly status?: number,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  get retryable(): boolean {
    return this.code === 'ERR_NETWORK';
  }
}

/** Codes with which the service says the session is gone; the client then forgets it. */
export const SESSION_ENDED_CODES: ReadonlySet<string> = new Set([
  'AUTH_ERR_AUTH_TOKEN_NOT_FOUND',
  'AUTH_ERR_TOKEN_INVALID',
  'ERR_AUTH_TOKEN_NOT_FOUND',
]);

export function isSessionEnded(error: unknown): boolean {
  return error instanceof ChatClientError && SESSION_ENDED_CODES.has(error.code);
}
