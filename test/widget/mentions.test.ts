import { describe, expect, it } from 'vitest';
import { insertMention, matchCandidates, mentionAt } from '../../widget/mentions.js';

const people = [
  { uid: 'bob', name: 'Bob Stone', agent: false },
  { uid: 'carol', name: 'Carol Diaz', agent: false },
  { uid: 'knowledge', name: 'Knowledge Agent', agent: true },
];

describe('mentions', () => {
  it('start at an @ at the beginning or after a space', () => {
    expect(mentionAt('@bo', 3)).toEqual({ query: 'bo', start: 0 });
    expect(mentionAt('hi @ca', 6)).toEqual({ query: 'ca', start: 3 });
  });

  it('are not e-mail addresses', () => {
    expect(mentionAt('mail me at a@b', 14)).toBeUndefined();
  });

  it('match by UID or by any word of the name, agents first', () => {
    expect(matchCandidates(people, 'st').map((c) => c.uid)).toEqual(['bob']);
    expect(matchCandidates(people, '').map((c) => c.uid)).toEqual(['knowledge', 'bob', 'carol']);
  });

  it('insert the UID and move the caret after it', () => {
    expect(insertMention('ask @kn about x', { query: 'kn', start: 4 }, 7, 'knowledge')).toEqual({
      text: 'ask @knowledge  about x',
      caret: 15,
    });
  });
});
