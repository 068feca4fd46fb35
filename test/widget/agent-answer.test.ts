import { describe, expect, it } from 'vitest';
import type { Message } from '../../shared/chat-client/index.js';
import { answerBody, answerSources } from '../../widget/agent-answer.js';

const answer = (metadata: Record<string, unknown>) =>
  ({ data: { text: 'x', metadata, entities: {} } }) as unknown as Message;

describe('agent answers', () => {
  it('list their sources with title, page and link', () => {
    const sources = answerSources(
      answer({
        sources: [
          { n: 1, title: 'Guide', page: 4, url: 'https://d.example/guide.pdf', snippet: '…', score: 1 },
        ],
      }),
    );
    expect(sources).toEqual([{ n: 1, title: 'Guide', page: 4, url: 'https://d.example/guide.pdf' }]);
  });

  it('never link a source to anything but http(s)', () => {
    expect(answerSources(answer({ sources: [{ title: 'Evil', url: 'javascript:alert(1)' }] }))).toEqual([
      { title: 'Evil' },
    ]);
  });

  it('skip malformed sources', () => {
    expect(answerSources(answer({ sources: [null, 'x', { title: '' }] }))).toEqual([]);
  });

  it('drop the plain-text Sources list from the text when the sources are shown beside it', () => {
    const text = 'Reset it in settings [1].\n\nSources:\n[1] Guide, p. 4, https://d.example\n';
    expect(answerBody(text, true)).toBe('Reset it in settings [1].');
    expect(answerBody(text, false)).toBe(text);
  });
});
