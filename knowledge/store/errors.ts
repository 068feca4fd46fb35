/**
 * Why a knowledge operation was refused. `kind` lets callers pick a response without parsing
 * messages: `invalid` is bad input (HTTP 400), `busy` a namespace another process is writing (409),
 * `not-found` a namespace or document that does not exist (404).
 */
export type KnowledgeErrorKind = 'invalid' | 'busy' | 'not-found';

export class KnowledgeError extends Error {
  override readonly name = 'KnowledgeError';

  constructor(
    readonly kind: KnowledgeErrorKind,
    message: string,
  ) {
    super(message);
  }
}
