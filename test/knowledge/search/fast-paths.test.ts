import { describe, expect, it } from 'vitest';
import {
  bestOf,
  bestSlots,
  ScoreAccumulator,
  TermMarks,
  topSlots,
} from '../../../knowledge/search/accumulator.js';
import { Bm25fScorer } from '../../../knowledge/search/bm25f.js';
import { FieldNorms } from '../../../knowledge/search/field-norms.js';
import { InvertedIndex } from '../../../knowledge/search/inverted-index.js';
import { PostingLists, packTf } from '../../../knowledge/search/postings.js';
import { ClosenessMemo, rerankByProximity } from '../../../knowledge/search/proximity.js';
import { DEFAULT_SETTINGS } from '../../../knowledge/search/settings.js';

/** A deterministic pseudo-random sequence, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe('bestSlots', () => {
  it('returns the same slots in the same order as sorting every touched slot (ties: the earlier slot)', () => {
    const next = random(7);
    const accumulator = new ScoreAccumulator();
    accumulator.prepare(5000);
    for (let i = 0; i < 3000; i++) {
      // Few distinct scores, so many ties.
      accumulator.add(Math.floor(next() * 5000), 1 + Math.floor(next() * 20));
    }
    const touched = Array.from(accumulator.touched.subarray(0, accumulator.count));
    const reference = touched.sort((a, b) => accumulator.score(b) - accumulator.score(a) || a - b);
    for (const k of [1, 2, 7, 100, 999, accumulator.count, accumulator.count + 5]) {
      expect(bestSlots(accumulator, k)).toEqual(reference.slice(0, k));
    }
  });

  it('returns the same slots when a floor is taken from likely slots whose scores grew since', () => {
    const next = random(9);
    const accumulator = new ScoreAccumulator();
    accumulator.prepare(5000);
    for (let i = 0; i < 3000; i++) accumulator.add(Math.floor(next() * 5000), 1 + Math.floor(next() * 20));
    const touched = Array.from(accumulator.touched.subarray(0, accumulator.count));
    const likely = bestSlots(accumulator, 100);
    // A second pass adds to touched slots only, so other slots can overtake the likely ones.
    for (const slot of touched) if (next() < 0.3) accumulator.addToTouched(slot, Math.floor(next() * 30));
    const reference = touched.sort((a, b) => accumulator.score(b) - accumulator.score(a) || a - b);
    for (const k of [1, 10, 100]) expect(bestSlots(accumulator, k, likely)).toEqual(reference.slice(0, k));
  });
});

describe('bestSlots among a few times k slots (a floor read from a sample of them)', () => {
  const sorted = (accumulator: ScoreAccumulator) =>
    Array.from(accumulator.touched.subarray(0, accumulator.count)).sort(
      (a, b) => accumulator.score(b) - accumulator.score(a) || a - b,
    );

  it('returns what sorting returns, ties at the floor included', () => {
    const next = random(17);
    for (const distinct of [3, 40, 100000]) {
      const accumulator = new ScoreAccumulator();
      accumulator.prepare(4000);
      for (let i = 0; i < 1500; i++)
        accumulator.add(Math.floor(next() * 4000), 1 + Math.floor(next() * distinct) + next() * next());
      const reference = sorted(accumulator);
      for (const k of [20, 100, 300]) expect(bestSlots(accumulator, k)).toEqual(reference.slice(0, k));
    }
  });

  it('returns what sorting returns when fewer than k slots reach the sampled floor', () => {
    // Every fourth touched slot, the ones a sample reads, scores high; the others low.
    const accumulator = new ScoreAccumulator();
    accumulator.prepare(1000);
    for (let slot = 0; slot < 800; slot++)
      accumulator.add(slot, slot % 4 === 0 ? 100 + slot : 1 + slot / 1000);
    expect(bestSlots(accumulator, 100)).toEqual(sorted(accumulator).slice(0, 100));
    expect([...topSlots(accumulator, 100)].sort((a, b) => a - b)).toEqual(
      sorted(accumulator)
        .slice(0, 100)
        .sort((a, b) => a - b),
    );
  });
});

describe('bestOf', () => {
  it('returns the k best of a list of touched slots in the order sorting the whole list gives (ties: the earlier slot)', () => {
    const next = random(11);
    const accumulator = new ScoreAccumulator();
    accumulator.prepare(5000);
    // Few distinct scores, so many ties.
    for (let i = 0; i < 3000; i++) accumulator.add(Math.floor(next() * 5000), 1 + Math.floor(next() * 20));
    const touched = Array.from(accumulator.touched.subarray(0, accumulator.count));
    // A list in no order, as the feedback candidates are after their scores grew.
    const list = touched.filter(() => next() < 0.4);
    const reference = [...list].sort((a, b) => accumulator.score(b) - accumulator.score(a) || a - b);
    for (const k of [1, 7, 100, list.length, list.length + 3]) {
      expect(bestOf(accumulator, list, k)).toEqual(reference.slice(0, k));
    }
    expect(bestOf(accumulator, [], 5)).toEqual([]);
  });
});

describe('topSlots', () => {
  it('chooses the same slots as bestSlots, ties included, whatever their order', () => {
    const next = random(13);
    const accumulator = new ScoreAccumulator();
    accumulator.prepare(5000);
    for (let i = 0; i < 3000; i++) accumulator.add(Math.floor(next() * 5000), 1 + Math.floor(next() * 20));
    const likely = bestSlots(accumulator, 100);
    for (const slot of accumulator.touched.subarray(0, accumulator.count))
      if (next() < 0.3) accumulator.addToTouched(slot, Math.floor(next() * 30));
    const ascending = (slots: number[]) => [...slots].sort((a, b) => a - b);
    for (const k of [1, 10, 100, 999]) {
      expect(ascending(topSlots(accumulator, k))).toEqual(ascending(bestSlots(accumulator, k)));
      expect(ascending(topSlots(accumulator, 100, likely))).toEqual(
        ascending(bestSlots(accumulator, 100, likely)),
      );
    }
  });
});

describe('rerankByProximity with a closeness memo', () => {
  const words = ['wing', 'flutter', 'panel', 'layer', 'boundary', 'shock', 'wave', 'heat', 'jet', 'nozzle'];
  const next = random(11);
  const index = new InvertedIndex();
  for (let slot = 0; slot < 300; slot++) {
    const length = 5 + Math.floor(next() * 60);
    const terms = Array.from({ length }, () => words[Math.floor(next() * words.length)] as string);
    index.addSlot(terms.slice(0, 3), terms.slice(3));
  }
  const termId = (word: string) => index.termId(word) as number;
  const candidates = Array.from({ length: 120 }, (_, i) => i * 2);
  const scores = new Float64Array(index.slotCount);
  for (const slot of candidates) scores[slot] = 1 + next() * 10;
  const query = ['wing', 'panel', 'shock', 'nozzle'].map((word) => ({ termId: termId(word), weight: 1 }));
  // After feedback the same terms come back with other weights.
  const reweighted = query.map(({ termId }, at) => ({ termId, weight: 1 + at * 0.37 }));

  it('scores the reweighted terms exactly as a fresh re-rank does, for candidates it had seen and new ones', () => {
    const memo = new ClosenessMemo();
    rerankByProximity(
      index,
      candidates.slice(0, 80),
      scores,
      query,
      DEFAULT_SETTINGS.ranking,
      new TermMarks(),
      memo,
    );
    const reused = rerankByProximity(
      index,
      candidates,
      scores,
      reweighted,
      DEFAULT_SETTINGS.ranking,
      new TermMarks(),
      memo,
    );
    const fresh = rerankByProximity(
      index,
      candidates,
      scores,
      reweighted,
      DEFAULT_SETTINGS.ranking,
      new TermMarks(),
      new ClosenessMemo(),
    );
    expect(reused).toEqual(fresh);
    expect(fresh.some(({ slot, score }) => score !== scores[slot])).toBe(true);
  });

  it('does not reuse sums kept for other terms', () => {
    const memo = new ClosenessMemo();
    const others = ['flutter', 'layer', 'heat'].map((word) => ({ termId: termId(word), weight: 1 }));
    rerankByProximity(index, candidates, scores, others, DEFAULT_SETTINGS.ranking, new TermMarks(), memo);
    const after = rerankByProximity(
      index,
      candidates,
      scores,
      query,
      DEFAULT_SETTINGS.ranking,
      new TermMarks(),
      memo,
    );
    expect(after).toEqual(
      rerankByProximity(
        index,
        candidates,
        scores,
        query,
        DEFAULT_SETTINGS.ranking,
        new TermMarks(),
        new ClosenessMemo(),
      ),
    );
  });

  describe('when only the best few are wanted', () => {
    const ranking = DEFAULT_SETTINGS.ranking;
    // A larger vocabulary than above, so chunks hold few of the query's terms and scores spread.
    const vocabulary = Array.from({ length: 80 }, (_, i) =>
      i < words.length ? (words[i] as string) : `w${i}`,
    );
    const spread = new InvertedIndex();
    for (let slot = 0; slot < 600; slot++) {
      const length = 5 + Math.floor(next() * 60);
      const terms = Array.from(
        { length },
        () => vocabulary[Math.floor(next() * vocabulary.length)] as string,
      );
      spread.addSlot(terms.slice(0, 3), terms.slice(3));
    }
    const spreadQuery = ['wing', 'panel', 'shock', 'nozzle'].map((word) => ({
      termId: spread.termId(word) as number,
      weight: 1,
    }));
    const accumulator = new ScoreAccumulator();
    accumulator.prepare(spread.slotCount);
    const norms = new FieldNorms(ranking);
    new Bm25fScorer(spread, ranking, norms).accumulate(spreadQuery, accumulator);
    const scored = bestSlots(accumulator, 150);
    const rerank = (wanted?: Parameters<typeof rerankByProximity>[7]) =>
      rerankByProximity(
        spread,
        scored,
        accumulator.scores,
        spreadQuery,
        ranking,
        new TermMarks(),
        new ClosenessMemo(),
        wanted,
      );

    it('ranks the wanted best exactly as a full re-rank does, and leaves candidates out that cannot reach them', () => {
      const partial = rerank({ count: 10, heldTerms: accumulator.bits });
      expect(partial.slice(0, 10)).toEqual(rerank().slice(0, 10));
      expect(partial.length).toBeLessThan(scored.length);
    });

    it('marks each slot with the query terms that scored it', () => {
      for (const slot of scored) {
        const { terms } = spread.slotTerms(slot);
        const held = spreadQuery.reduce(
          (bits, { termId }, position) => (terms.includes(termId) ? bits | (1 << position) : bits),
          0,
        );
        expect(accumulator.bits[slot]).toBe(held);
      }
    });

    it('ranks the wanted best the same whatever order the candidates come in', () => {
      const shuffled = [...scored].sort((x, y) => ((x * 7919) % 151) - ((y * 7919) % 151) || x - y);
      const fromShuffled = rerankByProximity(
        spread,
        shuffled,
        accumulator.scores,
        spreadQuery,
        ranking,
        new TermMarks(),
        new ClosenessMemo(),
        { count: 10, heldTerms: accumulator.bits },
      );
      expect(fromShuffled.slice(0, 10)).toEqual(rerank().slice(0, 10));
    });

    it('leaves more candidates out knowing which terms each holds, and ranks the wanted best the same', () => {
      const knowing = rerank({ count: 10, heldTerms: accumulator.bits });
      const blind = rerank({ count: 10 });
      expect(knowing.slice(0, 10)).toEqual(blind.slice(0, 10));
      expect(knowing.length).toBeLessThan(blind.length);
    });

    it('leaves still more candidates out bounding the bonus by the score through the field norms, and ranks the wanted best the same', () => {
      const knowing = rerank({ count: 10, heldTerms: accumulator.bits });
      const bounded = rerank({ count: 10, heldTerms: accumulator.bits, norms });
      expect(bounded.slice(0, 10)).toEqual(knowing.slice(0, 10));
      expect(bounded.length).toBeLessThan(knowing.length);
    });

    it('never bounds the bonus below what a chunk earns, however densely and often the query terms occur in it', () => {
      // Few words, repeated in titles and bodies of every length: closeness sums as large as they get.
      for (const [seed, wordCount, titleWeight] of [
        [3, 2, 2],
        [5, 4, 2],
        [8, 6, 0.5],
        [13, 12, 5],
        [21, 4, 1],
      ] as const) {
        const draw = random(seed);
        const settings = { ...ranking, titleWeight };
        const dense = new InvertedIndex();
        for (let slot = 0; slot < 400; slot++) {
          const titleLength = Math.floor(draw() * 8);
          const length = titleLength + 1 + Math.floor(draw() * (draw() < 0.5 ? 12 : 200));
          const terms = Array.from({ length }, () => words[Math.floor(draw() * wordCount)] as string);
          dense.addSlot(terms.slice(0, titleLength), terms.slice(titleLength));
        }
        const denseQuery = words
          .slice(0, Math.min(wordCount, 4))
          .map((word, at) => ({ termId: dense.termId(word) as number, weight: 1 + at }));
        const denseScores = new ScoreAccumulator();
        denseScores.prepare(dense.slotCount);
        const denseNorms = new FieldNorms(settings);
        new Bm25fScorer(dense, settings, denseNorms).accumulate(denseQuery, denseScores);
        const denseCandidates = bestSlots(denseScores, 200);
        const denseRerank = (wanted?: Parameters<typeof rerankByProximity>[7]) =>
          rerankByProximity(
            dense,
            denseCandidates,
            denseScores.scores,
            denseQuery,
            settings,
            new TermMarks(),
            new ClosenessMemo(),
            wanted,
          );
        const full = denseRerank();
        for (const count of [1, 3, 10]) {
          expect(
            denseRerank({ count, heldTerms: denseScores.bits, norms: denseNorms }).slice(0, count),
          ).toEqual(full.slice(0, count));
        }
      }
    });

    it('counts the wanted best one per document when given documents', () => {
      // Ten slots per document.
      const documentOf = (slot: number) => Math.floor(slot / 10);
      const firstPerDocument = (ranked: readonly { slot: number; score: number }[]) =>
        ranked
          .filter(
            ({ slot }, at) => ranked.findIndex((other) => documentOf(other.slot) === documentOf(slot)) === at,
          )
          .slice(0, 6);
      const partial = rerank({ count: 6, documentOf, heldTerms: accumulator.bits });
      expect(firstPerDocument(partial)).toEqual(firstPerDocument(rerank()));
      expect(partial.length).toBeLessThan(scored.length);
    });
  });
});

describe('PostingLists read after appends', () => {
  /** Each term's postings as blocks() gives them: (slot, packed tf) pairs in order. */
  const read = (lists: PostingLists, term: number) => {
    const { pool, ranges, count } = lists.blocks(term);
    const postings: number[] = [];
    for (let block = 0; block < count; block++)
      postings.push(...pool.subarray(ranges[2 * block] as number, ranges[2 * block + 1] as number));
    return postings;
  };

  it('gives every term its postings in the order added, in one block once read, through many rounds of appends', () => {
    const next = random(5);
    const lists = new PostingLists();
    const added: number[][] = Array.from({ length: 40 }, () => []);
    let layouts = 0;
    let layout = lists.blocks(0).layout;
    for (let round = 0; round < 30; round++) {
      for (let i = 0; i < 200; i++) {
        const term = Math.floor(next() * next() * 40);
        const slot = round * 200 + i;
        const tf = packTf(Math.floor(next() * 3), 1 + Math.floor(next() * 5));
        lists.add(term, slot, tf);
        added[term]?.push(slot, tf);
      }
      for (let term = 0; term < 40; term++) {
        expect(read(lists, term)).toEqual(added[term]);
        expect(lists.blocks(term).count).toBeLessThanOrEqual(1);
      }
      if (lists.blocks(0).layout !== layout) layouts++;
      layout = lists.blocks(0).layout;
    }
    // The garbage left by gathering was cleared by laying the pool out again at least once.
    expect(layouts).toBeGreaterThan(0);
  });
});
