/**
 * A source that cannot be loaded, for a reason the user can act on. The message is shown as is
 * (in ingest results, the CLI and the desktop window), so it names the problem in plain words and
 * never carries a stack, a credential or a server's answer body.
 */
export class SourceError extends Error {
  override readonly name = 'SourceError';
}
