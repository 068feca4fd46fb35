import { afterEach, describe, expect, it } from 'vitest';
import type { GenerateRequest, SearchHit } from '../../../shared/agent.js';
import { answerChat, type AnswerSettings, type PassageRetriever } from '../../../knowledge/agent/answer.js';
import { DEFAULT_MENTION_NAMES } from '../../../knowledge/agent/mention.js';
import { sendJson, startRecordingServer, type RecordingServer } from '../../support/http.js';

const passages: SearchHit[] = [
  {
    text: 'Orama keeps one index per namespace. Snapshots are written atomically.',
    score: 4,
    source: { documentId: 'd1', title: 'Index design', path: '/docs/index.md', heading: 'Orama' },
  },
  {
    text: 'The index holds at most one hundred thousand chunks per namespace before restore slows down.',
    score: 3,
    source: { documentId: 'd2', title: 'Limits', path: '/docs/limits.md' },
  },
];

/** The passages an engine would return, recording what it was asked. */
function fixedPassages(): PassageRetriever & { queries: { namespace: string; query: string }[] } {
  const queries: { namespace: string; query: string }[] = [];
  return {
    queries,
    search: (namespace, query) => {
      queries.push({ namespace, query });
      return passages;
    },
  };
}

const offline: AnswerSettings = { mentionNames: DEFAULT_MENTION_NAMES, passages: 6 };
const ask = (content: string, extra: Partial<GenerateRequest> = {}): GenerateRequest => ({
  messages: [{ role: 'user', content }],
  ...extra,
});

function completion(text: string) {
  return {
    choices: [{ message: { role: 'assistant', content: text } }],
    usage: { prompt_tokens: 120, completion_tokens: 30 },
  };
}

describe('answerChat', () => {
  let provider: RecordingServer | undefined;
  afterEach(async () => {
    await provider?.close();
    provider = undefined;
  });

  const withModel = (timeoutMs = 5_000): AnswerSettings => ({
    ...offline,
    languageModel: {
      baseUrl: `${provider!.url}/v1`,
      model: 'test-model',
      apiKey: 'sk-test-secret',
      timeoutMs,
    },
  });

  it('stays silent when the latest turn does not mention the agent', async () => {
    const retriever = fixedPassages();
    const answer = await answerChat(ask('what is orama?'), retriever, offline);
    expect(answer).toMatchObject({ addressed: false, text: '', citations: [] });
    expect(retriever.queries).toEqual([]);
  });

  it('answers without a mention when requireMention is false', async () => {
    const answer = await answerChat(
      ask('how does orama keep namespaces?', { requireMention: false }),
      fixedPassages(),
      offline,
    );
    expect(answer.addressed).toBe(true);
    expect(answer.text).toMatch(/Orama keeps one index per namespace\. \[1\]/);
  });

  it('retrieves on the namespace of toolParams, the default one otherwise', async () => {
    const retriever = fixedPassages();
    await answerChat(ask('@agent orama?', { toolParams: { namespace: 'docs' } }), retriever, offline);
    await answerChat(ask('@agent orama?'), retriever, offline);
    expect(retriever.queries.map((q) => q.namespace)).toEqual(['docs', 'default']);
  });

  it('sends the numbered passages to the language model with its key and returns its cited answer', async () => {
    provider = await startRecordingServer((_req, res) =>
      sendJson(
        res,
        200,
        completion('Each namespace has its own Orama index [1] and holds up to 100k chunks [2].'),
      ),
    );
    const answer = await answerChat(ask('@agent how are namespaces indexed?'), fixedPassages(), withModel());
    expect(answer.text).toBe(
      'Each namespace has its own Orama index [1] and holds up to 100k chunks [2].\n\nSources:\n[1] Index design\n[2] Limits',
    );
    expect(answer).toMatchObject({ modelId: 'test-model', inputTokens: 120, outputTokens: 30 });
    const sent = provider.requests[0]!;
    expect(sent.url).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-test-secret');
    const body = JSON.parse(sent.body) as { model: string; messages: { content: string }[] };
    expect(body.model).toBe('test-model');
    expect(body.messages[1]!.content).toContain(
      '[1] (Index design › Orama)\nOrama keeps one index per namespace.',
    );
    expect(body.messages[1]!.content).toContain('[2] (Limits)\nThe index holds');
  });

  it('gives the model the structured passages: heading path, page, row labels and terms', async () => {
    provider = await startRecordingServer((_req, res) =>
      sendJson(res, 200, completion('WARNING is 30 [1].')),
    );
    const structured: SearchHit[] = [
      {
        text: 'Level: WARNING | Numeric value: 30\n\nlogging.basicConfig(**kwargs)\n: Does basic configuration.',
        score: 2,
        source: {
          documentId: 'logging',
          title: 'logging',
          page: 12,
          heading: 'Logging Levels',
          headingPath: ['logging', 'Module-Level Functions', 'Logging Levels'],
        },
      },
    ];
    await answerChat(ask('@agent value of WARNING'), { search: () => structured }, withModel());
    const body = JSON.parse(provider.requests[0]!.body) as { messages: { content: string }[] };
    expect(body.messages[0]!.content).toContain('A table row reads "Column: value | Column: value"');
    expect(body.messages[1]!.content).toContain(
      '[1] (logging › Module-Level Functions › Logging Levels, p. 12)\n' +
        'Level: WARNING | Numeric value: 30\n\nlogging.basicConfig(**kwargs)\n: Does basic configuration.',
    );
  });

  it('removes a citation of a passage the model was not given', async () => {
    provider = await startRecordingServer((_req, res) =>
      sendJson(res, 200, completion('Orama keeps one index per namespace [1]. It runs on Mars [5].')),
    );
    const answer = await answerChat(ask('@agent orama namespaces'), fixedPassages(), withModel());
    expect(answer.text).toBe(
      'Orama keeps one index per namespace [1]. It runs on Mars.\n\nSources:\n[1] Index design',
    );
    expect(answer.citations.map((c) => c.n)).toEqual([1]);
  });

  it('falls back to the extractive answer with a note when the provider answers 500', async () => {
    provider = await startRecordingServer((_req, res) =>
      sendJson(res, 500, { error: 'overloaded sk-test-secret' }),
    );
    const answer = await answerChat(ask('@agent orama namespaces'), fixedPassages(), withModel());
    expect(answer.text).toMatch(
      /^Note: the language model answered HTTP 500, so this answer quotes the documents directly\./,
    );
    expect(answer.text).toContain('Orama keeps one index per namespace. [1]');
    expect(answer.text).not.toContain('sk-test-secret');
    expect(answer.modelId).toBe('extractive');
  });

  it('falls back to the extractive answer with a note when the provider times out', async () => {
    provider = await startRecordingServer(() => {
      /* never answers */
    });
    const answer = await answerChat(ask('@agent orama namespaces'), fixedPassages(), withModel(300));
    expect(answer.text).toMatch(
      /^Note: the language model timed out after 0\.3 s, so this answer quotes the documents/,
    );
    expect(answer.text).toMatch(/Sources:\n\[1\] Index design/);
  });

  it('falls back when the model cites none of the passages', async () => {
    provider = await startRecordingServer((_req, res) => sendJson(res, 200, completion('Orama is great.')));
    const answer = await answerChat(ask('@agent orama namespaces'), fixedPassages(), withModel());
    expect(answer.text).toMatch(/^Note: the language model cited none of the passages it was given/);
  });

  it('does not ask the model when nothing relevant was retrieved', async () => {
    provider = await startRecordingServer((_req, res) => sendJson(res, 200, completion('Invented [1].')));
    const answer = await answerChat(ask('@agent boiling point of mercury'), fixedPassages(), withModel());
    expect(answer.answered).toBe(false);
    expect(answer.text).toMatch(/^I found nothing about/);
    expect(provider.requests).toEqual([]);
  });

  it('reads the lower-ranked chunk of a retrieved page that holds the default asked for', async () => {
    const chunk = (text: string, documentId: string, score: number): SearchHit => ({
      text,
      score,
      source: { documentId, title: `${documentId} manual`, path: `/docs/${documentId}.html` },
    });
    const ranked = [
      chunk('log.retention\n: How long the server keeps rotated log files.', 'config', 9),
      chunk('Log files are rotated daily by the server.', 'logging', 8),
      chunk('Log retention on the archive host is set by the archive team.', 'archive', 3),
      chunk('log.retention\n: The default retention is 14 days.', 'config', 2),
    ];
    const asked: number[] = [];
    const retriever: PassageRetriever = {
      search: (_namespace, _query, { limit }) => {
        asked.push(limit);
        return ranked.slice(0, limit);
      },
    };
    const answer = await answerChat(
      ask('What is the default log retention?', { requireMention: false }),
      retriever,
      { ...offline, passages: 2 },
    );
    expect(asked[0]).toBeGreaterThan(2);
    expect(answer.text).toContain('The default retention is 14 days.');
    expect(answer.text).not.toContain('archive team');
  });

  it('also searches for "limit" when the question asks for a maximum, and only then', async () => {
    const retriever = fixedPassages();
    await answerChat(
      ask('What is the maximum number of chunks per namespace?', { requireMention: false }),
      retriever,
      offline,
    );
    await answerChat(ask('How are snapshots written?', { requireMention: false }), retriever, offline);
    expect(retriever.queries.map(({ query }) => query)).toEqual([
      'What is the maximum number of chunks per namespace? limit',
      'How are snapshots written?',
    ]);
  });

  it('searches for what a question asking for a unit is about, without the words asking for a unit', async () => {
    const retriever = fixedPassages();
    await answerChat(ask('In what unit is MAILCHECK given?', { requireMention: false }), retriever, offline);
    await answerChat(
      ask('Which units does the sleep command take?', { requireMention: false }),
      retriever,
      offline,
    );
    expect(retriever.queries.map(({ query }) => query)).toEqual([
      'In what is MAILCHECK ?',
      'Which does the sleep command take?',
    ]);
  });

  it('refuses a chat that holds no user turn', async () => {
    await expect(
      answerChat({ messages: [{ role: 'assistant', content: 'hi' }] }, fixedPassages(), offline),
    ).rejects.toThrow('messages: there is no user turn to answer');
  });
});
