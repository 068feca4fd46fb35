import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_QUERY_BYTES, GenerateResponse, SearchResponse } from '../../../shared/agent.js';
import { agentConfigFromEnv } from '../../../knowledge/server/index.js';
import { postJson, startTestAgent, userTurn, type TestAgent } from './support.js';

/** A pasted paragraph of about `bytes` bytes: words the namespace has never seen, then the real question. */
function pastedParagraph(bytes: number, question: string): string {
  const sentence = 'Our quarterly offsite minutes mention catering, parking, badges and whiteboards. ';
  return `${sentence.repeat(Math.ceil((bytes - question.length) / sentence.length))}${question}`.slice(
    -bytes,
  );
}

describe('long queries', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent();
    await postJson(`${agent.apiUrl}/tools/ingestSources`, { namespace: 'docs', sources: [agent.docsDir] });
  });
  afterAll(() => agent.close());

  const search = (query: string) =>
    postJson(`${agent.apiUrl}/tools/searchDocs`, { query, namespace: 'docs' });
  const generate = (content: string) =>
    postJson(`${agent.apiUrl}/agents/knowledge/generate`, {
      ...userTurn(content),
      toolParams: { namespace: 'docs' },
    });

  it('searches a 30 KB pasted query by its informative terms', async () => {
    const query = pastedParagraph(30_000, ' Why does induced drag fall as the aspect ratio grows?');
    const { status, body } = await search(query);
    expect(status).toBe(200);
    expect(SearchResponse.parse(body).results[0]?.source.title).toBe('Wing design');
  });

  it('searches a query of exactly the cap', async () => {
    const query = pastedParagraph(DEFAULT_MAX_QUERY_BYTES, ' compressor combustor turbine blades');
    expect(Buffer.byteLength(query)).toBe(DEFAULT_MAX_QUERY_BYTES);
    const { status, body } = await search(query);
    expect(status).toBe(200);
    expect(SearchResponse.parse(body).results[0]?.source.title).toBe('Gas turbines');
  });

  it('refuses a query one byte over the cap with a 400 naming the cap', async () => {
    const { status, body } = await search(pastedParagraph(DEFAULT_MAX_QUERY_BYTES + 1, ' lift'));
    expect(status).toBe(400);
    expect(body).toEqual({
      error: expect.stringMatching(
        /^query: 32769 bytes is over the 32768-byte limit .*AGENT_MAX_QUERY_BYTES/,
      ),
    });
  });

  it('answers a 30 KB question through generate, citing the passage it found', async () => {
    const { status, body } = await generate(
      pastedParagraph(30_000, ' @agent why does induced drag fall as the aspect ratio grows?'),
    );
    expect(status).toBe(200);
    const answer = GenerateResponse.parse(body);
    expect(answer.sources[0]?.title).toBe('Wing design');
    expect(answer.text).toMatch(/aspect ratio/);
  });

  it('refuses a generate question over the cap naming the turn and the cap', async () => {
    const { status, body } = await generate(pastedParagraph(DEFAULT_MAX_QUERY_BYTES + 10, ' @agent lift?'));
    expect(status).toBe(400);
    expect(body).toEqual({
      error: expect.stringMatching(/^messages\[0\]\.content: .* over the 32768-byte limit/),
    });
  });
});

describe('AGENT_MAX_QUERY_BYTES', () => {
  it('sets the cap searchDocs refuses beyond', async () => {
    const agent = await startTestAgent({ env: { AGENT_MAX_QUERY_BYTES: '1000' } });
    try {
      const post = (query: string) =>
        postJson(`${agent.apiUrl}/tools/searchDocs`, { query, namespace: 'docs' });
      expect((await post(pastedParagraph(1000, ' lift'))).status).toBe(200);
      const { status, body } = await post(pastedParagraph(1001, ' lift'));
      expect(status).toBe(400);
      expect(body).toEqual({ error: expect.stringMatching(/over the 1000-byte limit/) });
    } finally {
      await agent.close();
    }
  });

  it('is refused when it is not a whole number from 1 to 262144', () => {
    for (const value of ['0', 'lots', '262145']) {
      expect(() => agentConfigFromEnv({ AGENT_MAX_QUERY_BYTES: value }, '/tmp/parley')).toThrow(
        /AGENT_MAX_QUERY_BYTES must be/,
      );
    }
  });
});
