import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { IngestProgress, IngestResponse } from '../../shared/agent.js';
import type { IngestEvent } from '../ingest/queue.js';
import { errorReply } from './http-errors.js';

/** Whether the client asked for the ingest as server-sent progress events. */
export function acceptsEventStream(c: Context): boolean {
  return c.req.header('accept')?.toLowerCase().includes('text/event-stream') ?? false;
}

/**
 * Runs an ingest and streams its progress: one `data: <IngestProgress>` event per step of each
 * source, then `done` with the whole answer (or `error`), then `data: [DONE]`.
 */
export function streamIngest(
  c: Context,
  secrets: readonly string[],
  ingest: (onProgress: (event: IngestEvent) => void) => Promise<IngestResponse>,
): Response {
  return streamSSE(c, async (stream) => {
    let sent = Promise.resolve();
    const send = (frame: IngestProgress | '[DONE]') => {
      const data = frame === '[DONE]' ? frame : JSON.stringify(frame);
      // A client that went away must not stop the ingest, which goes on and commits.
      sent = sent.then(() => stream.writeSSE({ data })).catch(() => undefined);
      return sent;
    };
    try {
      const response = await ingest((event) => void send(event));
      await send({ type: 'done', response });
    } catch (error) {
      await send({ type: 'error', error: errorReply(error, secrets).message });
    }
    await send('[DONE]');
  });
}
