import { describe, expect, it } from 'vitest';
import {
  GenerateRequest,
  IngestRequest,
  Namespace,
  SearchRequest,
  GenerateResponse,
} from '../../shared/agent.js';
import { zodErrorToEnvelope } from '../../shared/errors.js';
import type { z } from 'zod';

function fieldAtFault(schema: z.ZodType, input: unknown): string {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected the input to be rejected');
  return zodErrorToEnvelope(result.error).error.details.field as string;
}

describe('agent contracts', () => {
  it('accepts the reference curl bodies of ingest and generate', () => {
    expect(IngestRequest.parse({ sources: ['https://example.com/guide'], namespace: 'docs' })).toEqual({
      sources: ['https://example.com/guide'],
      namespace: 'docs',
    });
    const generate = GenerateRequest.parse({
      messages: [{ role: 'user', content: '@agent summarize X' }],
      toolParams: { namespace: 'docs' },
    });
    expect(generate.toolParams?.namespace).toBe('docs');
  });

  it('keeps unknown members of a generate body that Mastra clients send', () => {
    const parsed = GenerateRequest.parse({ messages: [{ role: 'user', content: 'hi' }], threadId: 't1' });
    expect(parsed).toMatchObject({ threadId: 't1' });
  });

  it('fills the search defaults: namespace "default" and 6 results', () => {
    expect(SearchRequest.parse({ query: 'lift' })).toEqual({
      query: 'lift',
      namespace: 'default',
      maxResults: 6,
    });
  });

  it.each(['docs', 'a', 'team-1.notes_v2', '0'.repeat(64)])('accepts the namespace %s', (name) => {
    expect(Namespace.parse(name)).toBe(name);
  });

  it.each(['', 'Docs', '../etc', 'a/b', '.hidden', '-x', 'a'.repeat(65), 'white space'])(
    'refuses the namespace %j',
    (name) => {
      expect(Namespace.safeParse(name).success).toBe(false);
    },
  );

  it.each([
    [GenerateRequest, { messages: [] }, 'messages'],
    [GenerateRequest, { messages: [{ role: 'robot', content: 'x' }] }, 'messages.0.role'],
    [GenerateRequest, { messages: [{ role: 'user' }] }, 'messages.0.content'],
    [
      GenerateRequest,
      { messages: [{ role: 'user', content: 'x' }], toolParams: { namespace: '../x' } },
      'toolParams.namespace',
    ],
    [GenerateRequest, { messages: [{ role: 'user', content: 'x' }], requireMention: 'no' }, 'requireMention'],
    [IngestRequest, { namespace: 'docs' }, 'sources'],
    [IngestRequest, { namespace: 'Docs', sources: ['a.md'] }, 'namespace'],
    [IngestRequest, { texts: [{ title: 'empty', text: '' }] }, 'texts.0.text'],
    [SearchRequest, { query: '   ' }, 'query'],
    [SearchRequest, { query: 'lift', maxResults: 0 }, 'maxResults'],
    [SearchRequest, { query: 'lift', maxResults: 101 }, 'maxResults'],
    [SearchRequest, { query: 'lift', maxResults: 2.5 }, 'maxResults'],
  ] as const)('rejects %# naming the field at fault', (schema, input, field) => {
    expect(fieldAtFault(schema, input)).toBe(field);
  });

  it('accepts a generate answer with sources and the addressed flag', () => {
    const answer = {
      text: 'Lift grows with angle of attack [1].\n\nSources:\n[1] wing.pdf, p. 3',
      finishReason: 'stop',
      usage: { inputTokens: 10, outputTokens: 9, totalTokens: 19 },
      sources: [
        {
          n: 1,
          documentId: 'd1',
          title: 'wing.pdf',
          path: 'wing.pdf',
          page: 3,
          snippet: 'Lift…',
          score: 4.2,
        },
      ],
      addressed: true,
      response: { id: 'r1', timestamp: '2026-11-21T00:00:00.000Z', modelId: 'extractive', messages: [] },
    };
    expect(GenerateResponse.parse(answer)).toEqual(answer);
  });
});
