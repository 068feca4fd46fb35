import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSearchIndex, SearchIndex } from '../../../knowledge/search/chunk-index.js';
import { makeSnippet } from '../../../knowledge/search/index.js';
import { decodeSnapshot, encodeSnapshot, type SectionValue } from '../../../knowledge/search/snapshot.js';
import type { Chunk } from '../../../knowledge/types.js';
import { chunk } from './support.js';

/**
 * Snippets made from the index (forward terms and their offsets in the text) must be exactly the
 * snippets makeSnippet makes by tokenizing the text: pinned here on real abstracts, through the
 * changes that renumber slots, and across snapshots.
 */

let chunks: Chunk[];
let queries: string[];

beforeAll(async () => {
  const cranfield = (name: string) =>
    readFile(fileURLToPath(new URL(`../../../../shared/data/cranfield/${name}`, import.meta.url)), 'utf8');
  const field = (record: string, key: string) =>
    new RegExp(`^\\.${key}\\s*\\n([\\s\\S]*?)(?=^\\.[A-Z]\\s*$|(?![\\s\\S]))`, 'm').exec(record)?.[1] ?? '';
  const records = (raw: string) => raw.split(/^\.I\s+/m).slice(1);
  // The abstracts keep their line breaks, so collapsing whitespace is exercised too.
  chunks = records(await cranfield('cran.all.1400'))
    .slice(0, 200)
    .map((record, i) =>
      chunk(`cran-${i + 1}`, field(record, 'W'), { title: field(record, 'T').replace(/\s+/g, ' ').trim() }),
    );
  // A text that is not ASCII takes the tokenizer's Unicode path.
  chunks.push(
    chunk(
      'unicode',
      `${'Die Strömung über einen gepfeilten Flügel, Müller’s Grenzschicht. '.repeat(8)}東京都 flow`,
    ),
  );
  queries = [
    ...records(await cranfield('cran.qry'))
      .slice(0, 20)
      .map((record) => field(record, 'W')),
    'müller grenzschicht flow 東京',
  ];
});

function expectSnippetsOfTheText(index: SearchIndex): void {
  let compared = 0;
  for (const query of queries) {
    for (const { chunk: found, snippet } of index.search(query, { limit: 20, snippets: true })) {
      expect(snippet, `${query} → ${found.id}`).toBe(makeSnippet(found.text, query));
      compared++;
    }
  }
  expect(compared).toBeGreaterThan(200);
}

describe('snippets from the index', () => {
  it('are the snippets makeSnippet makes from the text, for every result', () => {
    const index = createSearchIndex();
    index.add(chunks);
    expectSnippetsOfTheText(index);
  });

  it('stay the same after documents are removed and the slots renumbered', () => {
    const index = createSearchIndex();
    index.add(chunks);
    // Removing more than a quarter of the chunks compacts the index.
    for (let i = 1; i <= 60; i++) index.removeDocument(`cran-${i * 2}`);
    index.add([chunk('late', chunks[1]?.text ?? '', { title: 'added after the compaction' })]);
    expectSnippetsOfTheText(index);
  });

  it('stay the same through a snapshot, and from a snapshot written before offsets were kept', () => {
    const index = createSearchIndex();
    index.add(chunks);
    const bytes = index.snapshot();
    expectSnippetsOfTheText(SearchIndex.restore(bytes));

    // The same snapshot without the offset sections, as the first format version wrote it.
    const decoded = decodeSnapshot(bytes);
    const header = JSON.parse(
      new TextDecoder().decode(
        bytes.subarray(12, 12 + new DataView(bytes.buffer, bytes.byteOffset).getUint32(8, true)),
      ),
    ) as { sections: { name: string; kind: 'u32' | 'u8' | 'json' }[] };
    const sections: Record<string, SectionValue> = {};
    for (const { name, kind } of header.sections) {
      if (['textTermOffsets', 'slotTextTermFirst', 'slotTextTerms'].includes(name)) continue;
      sections[name] =
        kind === 'json' ? { json: decoded.json(name) } : kind === 'u8' ? decoded.u8(name) : decoded.u32(name);
    }
    const older = encodeSnapshot(decoded.settings, sections);
    expect(decodeSnapshot(older).has('textTermOffsets')).toBe(false);
    expectSnippetsOfTheText(SearchIndex.restore(older));
  });

  it('are made from the text when the index tokenizes otherwise than makeSnippet', () => {
    const index = createSearchIndex({ tokenizer: { stemming: false } });
    index.add(chunks);
    expectSnippetsOfTheText(index);
  });
});
