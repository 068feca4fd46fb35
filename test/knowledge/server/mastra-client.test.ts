import { MastraClient } from '@mastra/client-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestResponse, SearchResponse } from '../../../shared/agent.js';
import { startTestAgent, type TestAgent } from './support.js';

/** The real Mastra client, as a Mastra-speaking chat product would use the agent. */
describe('@mastra/client-js against the agent server', () => {
  let agent: TestAgent;
  let client: MastraClient;
  beforeAll(async () => {
    agent = await startTestAgent();
    client = new MastraClient({ baseUrl: agent.origin, retries: 0 });
    await client.getTool('ingestSources').execute({ data: { namespace: 'docs', sources: [agent.docsDir] } });
  });
  afterAll(() => agent.close());

  const question = {
    messages: [{ role: 'user' as const, content: '@agent what makes lift grow?' }],
    toolParams: { namespace: 'docs' },
  };

  it('lists the knowledge agent', async () => {
    const agents = await client.getAgents();
    expect(Object.keys(agents)).toEqual(['knowledge']);
    expect(agents.knowledge?.name).toBe('Knowledge agent');
  });

  it('reads the agent details with its tools', async () => {
    const details = await client.getAgent('knowledge').details();
    expect(details.instructions).toMatch(/Sources:/);
    expect(Object.keys(details.tools)).toEqual(['ingestSources', 'searchDocs']);
  });

  it('runs generate and gets the cited answer', async () => {
    const answer = (await client.getAgent('knowledge').generate(question)) as unknown as { text: string };
    expect(answer.text).toMatch(/^Lift grows with the angle of attack until the wing stalls\. \[1\]/);
    expect(answer.text).toMatch(/\n\nSources:\n\[1\] Wing design$/);
  });

  it('accepts the message shapes Mastra clients send: a string, and turns with text parts', async () => {
    const agentClient = client.getAgent('knowledge');
    const fromString = (await agentClient.generate({
      messages: '@agent what makes lift grow?',
      toolParams: { namespace: 'docs' },
    } as unknown as Parameters<typeof agentClient.generate>[0])) as unknown as { text: string };
    expect(fromString.text).toMatch(/^Lift grows with the angle of attack/);
    const fromParts = (await agentClient.generate({
      messages: [{ role: 'user', content: [{ type: 'text', text: '@agent what makes lift grow?' }] }],
      toolParams: { namespace: 'docs' },
    } as unknown as Parameters<typeof agentClient.generate>[0])) as unknown as { text: string };
    expect(fromParts.text).toBe(fromString.text);
  });

  it('runs stream and reads the text deltas and the finish frame', async () => {
    const response = await client.getAgent('knowledge').stream(question);
    let text = '';
    let finish: Record<string, unknown> | undefined;
    await response.processDataStream({
      onChunk: async (chunk) => {
        const frame = chunk as unknown as { type: string; payload: Record<string, unknown> };
        if (frame.type === 'text-delta') text += String(frame.payload.text);
        if (frame.type === 'finish') finish = frame.payload;
      },
    });
    expect(text).toMatch(/^Lift grows with the angle of attack until the wing stalls\. \[1\]/);
    expect(text).toMatch(/Sources:\n\[1\] Wing design/);
    expect(finish).toMatchObject({
      stepResult: { reason: 'stop' },
      sources: [expect.objectContaining({ n: 1 })],
    });
  });

  it('executes both tools', async () => {
    const ingested = IngestResponse.parse(
      await client
        .getTool('ingestSources')
        .execute({ data: { namespace: 'notes', texts: [{ text: 'Rotor blades flap.' }] } }),
    );
    expect(ingested.results[0]?.status).toBe('indexed');
    const found = SearchResponse.parse(
      await client.getTool('searchDocs').execute({ data: { query: 'compressor', namespace: 'docs' } }),
    );
    expect(found.results[0]?.source.title).toBe('Gas turbines');
  });
});
