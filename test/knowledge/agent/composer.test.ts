import { describe, expect, it } from 'vitest';
import type { SearchHit } from '../../../shared/agent.js';
import { composeExtractiveAnswer } from '../../../knowledge/agent/composer.js';

const hits: SearchHit[] = [
  {
    text:
      'The boundary layer thickens along the plate. Heat transfer in the boundary layer was measured with thin-film gauges. ' +
      'The tunnel ran at Mach 6.',
    score: 7.5,
    source: { documentId: 'd1', title: 'Hypersonic heat transfer', path: '/docs/heat.pdf', page: 4 },
  },
  {
    text: 'Skin friction drag dominates at low speed. Heat transfer rates doubled when the flow became turbulent.',
    score: 5.1,
    source: { documentId: 'd2', title: 'Turbulent flow notes', url: 'https://example.org/turbulence' },
  },
  {
    text: 'The cafeteria opens at noon and closes at three.',
    score: 0.4,
    source: { documentId: 'd3', title: 'Office hours' },
  },
];

const compose = (question: string, given: SearchHit[] = hits) =>
  composeExtractiveAnswer({ question, retrievalQuery: question, namespace: 'docs', hits: given });

describe('composeExtractiveAnswer', () => {
  it('quotes the sentences that answer the question, each cited with its passage number', () => {
    const answer = compose('how was heat transfer measured?');
    expect(answer.answered).toBe(true);
    expect(answer.text).toContain(
      'Heat transfer in the boundary layer was measured with thin-film gauges. [1]',
    );
    expect(answer.citations[0]).toMatchObject({
      n: 1,
      documentId: 'd1',
      page: 4,
      title: 'Hypersonic heat transfer',
    });
  });

  it('ends with a Sources list naming only the passages it cites', () => {
    const answer = compose('how was heat transfer measured?');
    const sources = answer.text.slice(answer.text.indexOf('\n\nSources:\n') + 2);
    expect(sources.split('\n')).toEqual([
      'Sources:',
      ...answer.citations.map((c) => expect.stringMatching(`^\\[${c.n}\\] `)),
    ]);
    expect(answer.citations.map((c) => c.documentId)).not.toContain('d3');
  });

  it('uses only text from the retrieved passages', () => {
    const answer = compose('heat transfer turbulent');
    const body = answer.text.slice(0, answer.text.indexOf('\n\nSources:'));
    const passages = hits.map((hit) => hit.text).join(' ');
    for (const sentence of body.split(/ \[\d+\] ?/).filter(Boolean)) expect(passages).toContain(sentence);
  });

  it('says it found nothing and names what to ingest when no passage is relevant', () => {
    const answer = compose('what is the boiling point of mercury?');
    expect(answer.answered).toBe(false);
    expect(answer.citations).toEqual([]);
    expect(answer.text).toMatch(
      /I found nothing about “what is the boiling point of mercury\?” in the knowledge namespace “docs”/,
    );
    expect(answer.text).toMatch(/Ingest documents that cover it into “docs”/);
    expect(answer.text).not.toContain('Sources:');
  });

  it('answers a long question from a passage that holds only a few of its words', () => {
    const answer = compose(
      'which flight experiments measured heat transfer on reentry capsules, rockets and missiles?',
    );
    expect(answer.answered).toBe(true);
    expect(answer.citations[0]?.documentId).toBe('d1');
  });

  it('says it found nothing when retrieval returned no passage', () => {
    expect(compose('lift', []).answered).toBe(false);
  });

  it('retells the best passage in reading order when asked to summarize', () => {
    const answer = compose('summarize the hypersonic heat transfer report');
    expect(answer.text).toMatch(
      /^The boundary layer thickens along the plate\. \[1\] Heat transfer in the boundary layer was measured with thin-film gauges\. \[1\] The tunnel ran at Mach 6\. \[1\]/,
    );
  });

  it('summarizes a document named by its title from its opening sentences', () => {
    const answer = compose('summarize Office hours');
    expect(answer.text).toContain('The cafeteria opens at noon and closes at three. [1]');
  });
});

describe('composeExtractiveAnswer on Markdown passages', () => {
  it('never quotes a heading as part of a sentence', () => {
    const answer = composeExtractiveAnswer({
      question: 'what makes lift grow?',
      retrievalQuery: 'what makes lift grow?',
      namespace: 'docs',
      hits: [
        {
          text: '# Wing design\n\nLift grows with the angle of attack until the wing stalls.',
          score: 3,
          source: { documentId: 'w', title: 'Wing design' },
        },
      ],
    });
    expect(answer.text).toMatch(/^Lift grows with the angle of attack until the wing stalls\. \[1\]/);
  });
});
