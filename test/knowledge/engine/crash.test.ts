import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { useEngines, useTempFolders, writeFiles } from './support.js';
import { readManifest } from '../../../knowledge/store/manifest.js';
import { namespaceLayout } from '../../../knowledge/store/layout.js';
import { parleyCommand } from '../../support/built.js';

const tempFolder = useTempFolders();
const openEngine = useEngines();

const FILES = 300;
const SYLLABLES = ['ba', 'ko', 'mi', 'ru', 'te', 'vo', 'ga', 'lu', 'ne', 'zi'];
/**
 * A word no other file contains: letters only (no tokenizer splits it), a syllable per digit (no
 * two markers are one typo apart) and a final k (no stemmer trims two markers to the same stem).
 */
const marker = (i: number): string =>
  `quill${[...String(i).padStart(3, '0')].map((digit) => SYLLABLES[Number(digit)]).join('')}k`;

describe('an ingest killed with SIGKILL', () => {
  it('leaves a namespace that loads and searches, and running it again completes it', async () => {
    const dataDir = await tempFolder('data');
    const sources = await tempFolder('sources');
    const paragraph = 'The archive keeps letters, ledgers and maps from the harbour office. '.repeat(12);
    const files: Record<string, string> = {};
    for (let i = 0; i < FILES; i++) {
      files[`batch-${Math.floor(i / 50)}/note-${i}.md`] =
        `# Note ${i}\n\n${paragraph}\n\nFiled under ${marker(i)}.\n`;
    }
    await writeFiles(sources, files);

    const child = spawn(
      process.execPath,
      [...(await parleyCommand()), 'ingest', sources, '--namespace', 'bulk', '--data-dir', dataDir],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const exited = once(child, 'exit');
    // Kill it once it has demonstrably made progress, not after a guessed delay: files indexed and
    // a commit of some of them on disk (commits run in the background, later on a busy machine).
    const { manifestFile } = namespaceLayout(dataDir, 'bulk');
    let indexed = 0;
    for await (const line of createInterface({ input: child.stderr })) {
      if (
        line.startsWith('indexed ') &&
        ++indexed >= 20 &&
        (await readManifest(manifestFile)).documents.length > 0
      )
        break;
    }
    child.kill('SIGKILL');
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });

    const engine = await openEngine({ dataDir });
    const survivors = await engine.documents('bulk');
    expect(survivors.length).toBeGreaterThan(0);
    expect(survivors.length).toBeLessThan(FILES);
    for (const document of survivors.slice(0, 5)) {
      const i = Number(/note-(\d+)\.md$/.exec(document.source)?.[1]);
      const [best] = await engine.search('bulk', marker(i));
      expect(best?.source.documentId).toBe(document.documentId);
    }

    const results = await engine.ingest('bulk', [{ kind: 'file', path: sources }]);
    expect(results.filter((result) => result.status === 'failed')).toEqual([]);
    expect(results.filter((result) => result.status === 'unchanged')).toHaveLength(survivors.length);
    const documents = await engine.documents('bulk');
    expect(new Set(documents.map((document) => document.path)).size).toBe(FILES);
    for (let i = 0; i < FILES; i++) {
      const file = join(sources, `batch-${Math.floor(i / 50)}`, `note-${i}.md`);
      const hits = await engine.search('bulk', marker(i), { limit: 20 });
      expect(hits[0]?.source.path).toBe(file);
      expect(hits.filter((hit) => hit.source.path === file)).toHaveLength(1);
    }
  });
});
