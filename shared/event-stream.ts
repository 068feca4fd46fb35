import { createParser } from 'eventsource-parser';

/**
 * Reads a `text/event-stream` body and hands each event's data to `onData`, in order, until the
 * body ends. Browser-safe: uses only the response's web stream.
 */
export async function readEventStream(response: Response, onData: (data: string) => void): Promise<void> {
  if (!response.body) throw new TypeError('the event stream has no body');
  const parser = createParser({ onEvent: (event) => onData(event.data) });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    parser.feed(value);
  }
}
