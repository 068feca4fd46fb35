import { beforeAll, describe, expect, it } from 'vitest';
import {
  abstractChunks,
  meanMetrics,
  measure,
  readCranfield,
  type Cranfield,
} from '../../../bench/knowledge/retrieval.js';
import { createChunkIndex } from '../../../knowledge/search/index.js';
import type { ChunkIndex } from '../../../knowledge/types.js';

describe('Cranfield sanity', () => {
  let cranfield: Cranfield;
  let index: ChunkIndex;

  beforeAll(async () => {
    cranfield = await readCranfield();
    index = createChunkIndex();
    index.add(abstractChunks(cranfield.abstracts));
  });

  it('puts judged-relevant abstracts in the top three for query 1', () => {
    // "what similarity laws must be obeyed when constructing aeroelastic models of heated high speed aircraft"
    const top = index
      .search(cranfield.queries[0] as string, { limit: 3 })
      .map(({ chunk }) => chunk.documentId);
    expect(top.filter((id) => cranfield.judgements[0]?.has(id)).length).toBeGreaterThanOrEqual(2);
  });

  it('ranks all 225 queries at least as well as plain BM25 does (nDCG@10 0.361)', () => {
    const metrics = meanMetrics(
      cranfield.queries.map((query, i) =>
        measure(
          index.search(query, { limit: 10 }).map(({ chunk }) => chunk.documentId),
          cranfield.judgements[i] as Map<string, number>,
        ),
      ),
    );
    expect(metrics.ndcg10).toBeGreaterThanOrEqual(0.361);
  });
});

describe('Cranfield evaluation measures', () => {
  const grades = new Map([
    ['a', 1],
    ['b', 3],
  ]);

  it('scores a perfect ranking 1 on every measure', () => {
    expect(measure(['a', 'b', 'x'], grades)).toEqual({ ndcg10: 1, map100: 1, recall100: 1, mrr10: 1 });
  });

  it('scores a ranking without relevant documents 0', () => {
    expect(measure(['x', 'y'], grades)).toEqual({ ndcg10: 0, map100: 0, recall100: 0, mrr10: 0 });
  });

  it('computes nDCG with gains 2^(5 - grade) - 1 and MAP over all judged documents', () => {
    const metrics = measure(['x', 'b'], grades);
    const idcg = 15 + 3 / Math.log2(3);
    expect(metrics.ndcg10).toBeCloseTo(3 / Math.log2(3) / idcg, 10);
    expect(metrics.map100).toBeCloseTo(0.5 / 2, 10);
    expect(metrics.recall100).toBe(0.5);
    expect(metrics.mrr10).toBe(0.5);
  });
});
