import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GenerateResponse } from '../../../shared/agent.js';
import { sendJson, startRecordingServer, type RecordingServer } from '../../support/http.js';
import { postJson, startTestAgent, type TestAgent } from './support.js';

type Reply = (respond: (status: number, body: unknown) => void) => void;

/** A local OpenAI-compatible chat-completions server whose answer each test sets. */
describe('generate with an OpenAI-compatible language model', () => {
  let provider: RecordingServer;
  let agent: TestAgent;
  let reply: Reply = () => undefined;
  beforeAll(async () => {
    provider = await startRecordingServer((_req, res) =>
      reply((status, body) => sendJson(res, status, body)),
    );
    agent = await startTestAgent({
      env: {
        LLM_BASE_URL: `${provider.url}/v1`,
        LLM_MODEL: 'local-test-model',
        LLM_PROVIDER_API_KEY: 'sk-provider-secret-123',
        LLM_TIMEOUT_MS: '500',
      },
    });
    await postJson(`${agent.apiUrl}/tools/ingestSources`, { namespace: 'docs', sources: [agent.docsDir] });
  });
  afterEach(() => {
    provider.requests.length = 0;
  });
  afterAll(async () => {
    await agent.close();
    await provider.close();
  });

  const completion = (text: string) => ({
    choices: [{ message: { role: 'assistant', content: text } }],
    usage: { prompt_tokens: 200, completion_tokens: 20 },
  });
  const ask = async (content: string) => {
    const { status, body } = await postJson(`${agent.apiUrl}/agents/knowledge/generate`, {
      messages: [{ role: 'user', content }],
      toolParams: { namespace: 'docs' },
    });
    expect(status).toBe(200);
    return GenerateResponse.parse(body);
  };

  it('answers with the model, its citations checked and its sources listed', async () => {
    reply = (respond) => respond(200, completion('Lift grows with the angle of attack [1].'));
    const answer = await ask('@agent what makes lift grow?');
    expect(answer.text).toMatch(
      /^Lift grows with the angle of attack \[1\]\.\n\nSources:\n\[1\] Wing design$/,
    );
    expect(answer).toMatchObject({
      response: { modelId: 'local-test-model' },
      usage: { inputTokens: 200, outputTokens: 20, totalTokens: 220 },
    });
    const sent = JSON.parse(provider.requests[0]!.body) as { model: string; messages: { content: string }[] };
    expect(sent.model).toBe('local-test-model');
    expect(sent.messages[1]!.content).toMatch(/\[1\] \(Wing design\)\n/);
    expect(provider.requests[0]!.headers.authorization).toBe('Bearer sk-provider-secret-123');
  });

  it('removes a citation of a passage the model was not given', async () => {
    reply = (respond) =>
      respond(200, completion('Lift grows with the angle of attack [1]. Wings are blue [42].'));
    const answer = await ask('@agent what makes lift grow?');
    expect(answer.text).toMatch(
      /^Lift grows with the angle of attack \[1\]\. Wings are blue\.\n\nSources:\n\[1\] /,
    );
    expect(answer.sources.map((source) => source.n)).toEqual([1]);
  });

  it('falls back to the extractive answer with a note when the provider answers 500', async () => {
    reply = (respond) => respond(500, { error: { message: 'model crashed' } });
    const answer = await ask('@agent what makes lift grow?');
    expect(answer.text).toMatch(
      /^Note: the language model answered HTTP 500, so this answer quotes the documents directly\./,
    );
    expect(answer.text).toMatch(/Lift grows with the angle of attack until the wing stalls\. \[1\]/);
    expect(answer.response.modelId).toBe('extractive');
  });

  it('falls back to the extractive answer with a note when the provider times out', async () => {
    reply = () => undefined;
    const answer = await ask('@agent what makes lift grow?');
    expect(answer.text).toMatch(
      /^Note: the language model timed out after 0\.5 s, so this answer quotes the documents/,
    );
    expect(answer.text).toMatch(/\n\nSources:\n\[1\] Wing design/);
  });

  it('never shows the provider key in an answer or the agent description', async () => {
    reply = (respond) => respond(401, { error: 'invalid key sk-provider-secret-123' });
    const answer = await postJson(`${agent.apiUrl}/agents/knowledge/generate`, {
      messages: [{ role: 'user', content: '@agent what makes lift grow?' }],
      toolParams: { namespace: 'docs' },
    });
    const description = await (await fetch(`${agent.apiUrl}/agents/knowledge`)).text();
    expect(JSON.stringify(answer.body)).not.toContain('sk-provider-secret-123');
    expect(description).not.toContain('sk-provider-secret-123');
    expect(description).not.toContain(provider.url);
  });
});
