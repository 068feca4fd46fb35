import { describe, expect, it } from 'vitest';
import { mentionsAgent, withoutMention } from '../../../knowledge/agent/mention.js';

describe('mention gating', () => {
  it('recognises @agent and @knowledge in any case', () => {
    expect(mentionsAgent('@Agent what is lift?')).toBe(true);
    expect(mentionsAgent('hey @KNOWLEDGE, what is drag?')).toBe(true);
  });

  it('ignores turns that do not mention the agent', () => {
    expect(mentionsAgent('what is lift?')).toBe(false);
    expect(mentionsAgent('ask the agent about it')).toBe(false);
  });

  it('does not take a longer word or an e-mail address for a mention', () => {
    expect(mentionsAgent('@agents please')).toBe(false);
    expect(mentionsAgent('@knowledgebase')).toBe(false);
    expect(mentionsAgent('write to me@agent.io')).toBe(false);
  });

  it('recognises a configured name and CometChat rich mentions', () => {
    expect(mentionsAgent('@Docbot how?', ['docbot'])).toBe(true);
    expect(mentionsAgent('<@uid:knowledge> how?', ['knowledge'])).toBe(true);
    expect(mentionsAgent('@agent how?', ['docbot'])).toBe(false);
  });

  it('strips the mention and the punctuation that joined it from the question', () => {
    expect(withoutMention('@agent, summarize the wing report')).toBe('summarize the wing report');
    expect(withoutMention('what does @Knowledge say about drag?')).toBe('what does say about drag?');
  });
});
