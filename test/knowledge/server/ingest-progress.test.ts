import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestProgress } from '../../../shared/agent.js';
import { buildPdf } from '../support/pdf.js';
import { startTestAgent, type TestAgent } from './support.js';

/** `POST /api/tools/ingestSources` asked with `Accept: text/event-stream` reports each step of each source. */
describe('ingest progress as server-sent events', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent();
  });
  afterAll(() => agent.close());

  async function ingestStreamed(body: FormData | object): Promise<{ status: number; events: string[] }> {
    const form = body instanceof FormData;
    const response = await fetch(`${agent.apiUrl}/tools/ingestSources`, {
      method: 'POST',
      headers: { accept: 'text/event-stream', ...(form ? {} : { 'content-type': 'application/json' }) },
      body: form ? body : JSON.stringify(body),
    });
    const events: string[] = [];
    const parser = createParser({ onEvent: (event) => events.push(event.data) });
    parser.feed(await response.text());
    return { status: response.status, events };
  }
  const frames = (events: string[]) =>
    events.filter((data) => data !== '[DONE]').map((data) => IngestProgress.parse(JSON.parse(data)));

  it('reports queued, each page parsed of the total, and indexed, then the answer and [DONE]', async () => {
    const pdf = await buildPdf([1, 2, 3, 4, 5].map((page) => ({ lines: [`Page ${page} text.`] })));
    const form = new FormData();
    form.set('namespace', 'streamed');
    form.append('files', new File([new Uint8Array(pdf)], 'five.pdf'));
    const { status, events } = await ingestStreamed(form);
    expect(status).toBe(200);
    expect(events.at(-1)).toBe('[DONE]');
    const progress = frames(events);
    expect(progress[0]).toEqual({ type: 'queued', source: 'uploads/streamed/five.pdf' });
    const parsing = progress.filter((frame) => frame.type === 'parsing');
    expect(parsing.at(-1)).toMatchObject({ page: 5, pages: 5, source: 'uploads/streamed/five.pdf' });
    expect(progress.at(-2)).toMatchObject({ type: 'indexed', pages: 5, source: 'uploads/streamed/five.pdf' });
    expect(progress.at(-1)).toMatchObject({
      type: 'done',
      response: { namespace: 'streamed', results: [{ status: 'indexed', title: 'five.pdf' }] },
    });
  });

  it('reports a source that fails with its reason, and still indexes the others', async () => {
    const form = new FormData();
    form.set('namespace', 'partly');
    form.append('files', new File([new Uint8Array(await buildPdf([{ drawing: true }]))], 'scan.pdf'));
    form.append('files', new File(['# Fine\n\nThis one reads.\n'], 'fine.md'));
    const progress = frames((await ingestStreamed(form)).events);
    expect(progress).toContainEqual({
      type: 'failed',
      source: 'uploads/partly/scan.pdf',
      error: expect.stringMatching(/no (extractable )?text/i),
    });
    expect(progress).toContainEqual(
      expect.objectContaining({ type: 'indexed', source: 'uploads/partly/fine.md', title: 'Fine' }),
    );
  });

  it('refuses a bad request with a plain 400 before any event is sent', async () => {
    const response = await fetch(`${agent.apiUrl}/tools/ingestSources`, {
      method: 'POST',
      headers: { accept: 'text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ namespace: 'Bad Name', texts: [{ text: 'x' }] }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: expect.stringMatching(/^namespace: /) });
  });
});
