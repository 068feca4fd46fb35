import { describe, expect, it } from 'vitest';
import { resolveQuestion } from '../../../knowledge/agent/question.js';
import { DEFAULT_MENTION_NAMES } from '../../../knowledge/agent/mention.js';

const names = DEFAULT_MENTION_NAMES;

describe('resolveQuestion', () => {
  it('answers the latest user turn without its mention', () => {
    const resolved = resolveQuestion(
      [
        { role: 'user', content: '@agent what is a boundary layer?' },
        { role: 'assistant', content: 'A boundary layer is …' },
        { role: 'user', content: '@agent how is heat transfer measured?' },
      ],
      names,
    );
    expect(resolved).toEqual({
      question: 'how is heat transfer measured?',
      retrievalQuery: 'how is heat transfer measured?',
    });
  });

  it('joins a follow-up that points back to the earlier question it continues', () => {
    const resolved = resolveQuestion(
      [
        { role: 'user', content: '@agent what is the Orama index?' },
        { role: 'assistant', content: 'Orama is …' },
        { role: 'user', content: '@agent and what about its limits?' },
      ],
      names,
    );
    expect(resolved?.question).toBe('and what about its limits?');
    expect(resolved?.followsUp).toBe('what is the Orama index?');
    expect(resolved?.retrievalQuery).toBe('what is the Orama index? and what about its limits?');
  });

  it('keeps a self-contained question on its own even after earlier turns', () => {
    const resolved = resolveQuestion(
      [
        { role: 'user', content: '@agent what is the Orama index?' },
        { role: 'user', content: '@agent how fast is PDF parsing?' },
      ],
      names,
    );
    expect(resolved?.followsUp).toBeUndefined();
  });

  it('finds no question in a chat without a user turn', () => {
    expect(resolveQuestion([{ role: 'system', content: 'be brief' }], names)).toBeUndefined();
  });
});
