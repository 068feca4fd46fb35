import { describe, expect, it } from 'vitest';
import { ALL_MENTION, USER_MENTION, mentionPattern } from '../../shared/mentions.js';

describe('mentions in chat text', () => {
  it('finds the UIDs of CometChat’s user mentions', () => {
    const text = 'ask <@uid:alice> and <@uid:Bob_2>, not <@uid:../x>';
    expect([...text.matchAll(USER_MENTION)].map((match) => match[1])).toEqual(['alice', 'Bob_2']);
  });

  it('is the mention of everyone CometChat writes', () => {
    expect(ALL_MENTION).toBe('<@all:all>');
  });

  it('matches a UID in CometChat’s form and a name as a whole word, in any case', () => {
    const pattern = () => mentionPattern(['helper'], ['helper', 'Help Desk', 'agent']);
    expect(pattern().test('hi <@uid:helper>')).toBe(true);
    expect(pattern().test('@help desk where is it?')).toBe(true);
    expect(pattern().test('@AGENT, please')).toBe(true);
  });

  it('does not match a longer word, an e-mail address or another UID', () => {
    const pattern = () => mentionPattern(['helper'], ['helper', 'agent']);
    expect(pattern().test('@agents are here')).toBe(false);
    expect(pattern().test('mail me@agent.io')).toBe(false);
    expect(pattern().test('<@uid:helpers>')).toBe(false);
  });

  it('takes names with pattern characters literally', () => {
    expect(mentionPattern(['a.b'], ['a.b']).test('@axb')).toBe(false);
    expect(mentionPattern(['a.b'], ['a.b']).test('@a.b')).toBe(true);
  });
});
