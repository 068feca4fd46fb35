import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentStreamFrame, GenerateResponse } from '../../../shared/agent.js';
import { postJson, startTestAgent, userTurn, type TestAgent } from './support.js';

describe('the knowledge agent over HTTP', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent();
    await postJson(`${agent.apiUrl}/tools/ingestSources`, { namespace: 'docs', sources: [agent.docsDir] });
  });
  afterAll(() => agent.close());

  const generate = (body: unknown) => postJson(`${agent.apiUrl}/agents/knowledge/generate`, body);
  const answerTo = async (body: unknown) => GenerateResponse.parse((await generate(body)).body);
  const inDocs = (content: string) => ({ ...userTurn(content), toolParams: { namespace: 'docs' } });

  it('reports its status at /api', async () => {
    const status = await (await fetch(agent.apiUrl)).json();
    expect(status).toMatchObject({
      status: 'ok',
      agents: ['knowledge'],
      tools: ['ingestSources', 'searchDocs'],
    });
  });

  it('lists the knowledge agent with its name, instructions and tools', async () => {
    const agents = (await (await fetch(`${agent.apiUrl}/agents`)).json()) as Record<
      string,
      Record<string, unknown>
    >;
    expect(Object.keys(agents)).toEqual(['knowledge']);
    expect(agents.knowledge).toMatchObject({
      name: 'Knowledge agent',
      instructions: expect.stringMatching(/Sources:/),
    });
    expect(Object.keys(agents.knowledge!.tools as object)).toEqual(['ingestSources', 'searchDocs']);
    const details = await (await fetch(`${agent.apiUrl}/agents/knowledge`)).json();
    expect(details).toEqual(agents.knowledge);
  });

  it('answers 404 agent not found for another agent id, on every route', async () => {
    expect(await (await fetch(`${agent.apiUrl}/agents/helpdesk`)).json()).toEqual({
      error: 'agent not found',
    });
    const generated = await postJson(`${agent.apiUrl}/agents/helpdesk/generate`, inDocs('@agent hi'));
    expect(generated).toMatchObject({ status: 404, body: { error: 'agent not found' } });
    const streamed = await postJson(`${agent.apiUrl}/agents/helpdesk/stream`, inDocs('@agent hi'));
    expect(streamed).toMatchObject({ status: 404, body: { error: 'agent not found' } });
  });

  it('answers 404 route not found for an unknown path', async () => {
    const response = await fetch(`${agent.apiUrl}/workflows`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'route not found' });
  });

  it('answers 405 with an Allow header to a method other than POST on generate and stream', async () => {
    for (const route of ['generate', 'stream']) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const response = await fetch(`${agent.apiUrl}/agents/knowledge/${route}`, { method });
        expect(response.status).toBe(405);
        expect(response.headers.get('allow')).toBe('POST');
        expect(await response.json()).toEqual({ error: `method ${method} not allowed: use POST` });
      }
    }
  });

  it('answers a mention from the namespace with [n] citations and a Sources list', async () => {
    const answer = await answerTo(inDocs('@agent what makes lift grow?'));
    expect(answer.addressed).toBe(true);
    expect(answer.text).toMatch(/Lift grows with the angle of attack until the wing stalls\. \[1\]/);
    expect(answer.text).toMatch(/\n\nSources:\n\[1\] Wing design\n?/);
    expect(answer.sources[0]).toMatchObject({ n: 1, title: 'Wing design', snippet: expect.any(String) });
    expect(answer).toMatchObject({ finishReason: 'stop', response: { modelId: 'extractive' } });
  });

  it('stays silent with addressed false when the latest turn does not mention it', async () => {
    const answer = await answerTo({
      messages: [
        { role: 'user', content: '@agent what makes lift grow?' },
        { role: 'assistant', content: 'Lift grows …' },
        { role: 'user', content: 'thanks, what is for lunch?' },
      ],
      toolParams: { namespace: 'docs' },
    });
    expect(answer).toMatchObject({ text: '', addressed: false, sources: [] });
  });

  it('answers without a mention when requireMention is false', async () => {
    const answer = await answerTo({ ...inDocs('how are turbine blades cooled?'), requireMention: false });
    expect(answer.text).toMatch(/Turbine blades are cooled with air bled from the compressor\. \[1\]/);
  });

  it('resolves a follow-up question with the earlier turn', async () => {
    const answer = await answerTo({
      messages: [
        { role: 'user', content: '@agent how does Orama store each namespace?' },
        { role: 'assistant', content: 'Each namespace keeps its own Orama index [1].' },
        { role: 'user', content: '@agent and what about its limits?' },
      ],
      toolParams: { namespace: 'docs' },
    });
    expect(answer.text).toMatch(/one hundred thousand chunks per namespace/);
    expect(answer.sources[0]?.title).toBe('Orama index');
  });

  it('says it found nothing and names what to ingest when nothing relevant is retrieved', async () => {
    const answer = await answerTo(inDocs('@agent what is the boiling point of mercury?'));
    expect(answer.text).toMatch(
      /^I found nothing about “what is the boiling point of mercury\?” in the knowledge namespace “docs”/,
    );
    expect(answer.text).toMatch(/Ingest documents that cover it into “docs”/);
    expect(answer.sources).toEqual([]);
  });

  it('works with the reference curl commands: ingest sources, then @agent summarize', async () => {
    const ingested = await postJson(`${agent.apiUrl}/tools/ingestSources`, {
      sources: [`${agent.docsDir}/turbine.md`],
      namespace: 'reference',
    });
    expect(ingested.status).toBe(200);
    const generated = await generate({
      messages: [{ role: 'user', content: '@agent summarize Gas turbines' }],
      toolParams: { namespace: 'reference' },
    });
    expect(generated.status).toBe(200);
    expect(GenerateResponse.parse(generated.body).text).toMatch(/\n\nSources:\n\[1\] Gas turbines$/);
  });

  it('rejects a generate body without messages, naming the field', async () => {
    const { status, body } = await generate({ toolParams: { namespace: 'docs' } });
    expect(status).toBe(400);
    expect(body).toEqual({ error: expect.stringMatching(/^messages: /) });
  });

  it('streams the answer as Mastra frames: text deltas, a finish frame with the sources, then [DONE]', async () => {
    const response = await fetch(`${agent.apiUrl}/agents/knowledge/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(inDocs('@agent what makes lift grow?')),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await response.text()).split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    const frames = events
      .slice(0, -1)
      .map((event) => AgentStreamFrame.parse(JSON.parse(event.replace(/^data: /, ''))));
    expect(frames[0]).toMatchObject({ type: 'start', from: 'AGENT' });
    expect(new Set(frames.map((frame) => frame.runId)).size).toBe(1);
    const text = frames
      .filter((f) => f.type === 'text-delta')
      .map((f) => f.payload.text)
      .join('');
    const generated = await answerTo(inDocs('@agent what makes lift grow?'));
    expect(text).toBe(generated.text);
    const finish = frames.at(-1)!;
    expect(finish.type).toBe('finish');
    expect(finish.payload).toMatchObject({
      stepResult: { reason: 'stop' },
      addressed: true,
      sources: generated.sources,
    });
  });
});
