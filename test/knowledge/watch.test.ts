import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KnowledgeEngine, type FolderWatch, type IngestEvent } from '../../knowledge/index.js';
import { FolderWatcher } from '../../knowledge/watch.js';

/** Resolves once `predicate` holds for some element pushed into `seen` (now or later). */
function eventually<T>(seen: T[], predicate: (item: T) => boolean): Promise<T> {
  return new Promise((resolve) => {
    const check = (): void => {
      const found = seen.find(predicate);
      if (found) resolve(found);
      else setTimeout(check, 20);
    };
    check();
  });
}

describe('FolderWatcher', () => {
  let folder: string;
  let watcher: FolderWatcher | undefined;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'parley-watcher-'));
  });
  afterEach(async () => {
    await watcher?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('handles a burst of writes to one file once, after the burst', async () => {
    const settled: string[] = [];
    watcher = new FolderWatcher(folder, {
      debounceMs: 500,
      onSettled: async (paths) => void settled.push(...paths),
      onError: (error) => {
        throw error;
      },
    });
    const burst = join(folder, 'notes.md');
    for (let i = 0; i < 20; i++) await writeFile(burst, `version ${i}`);
    // Written after the burst, so its quiet time ends after the burst's.
    const sentinel = join(folder, 'sentinel.md');
    await writeFile(sentinel, 'done');
    await eventually(settled, (path) => path === sentinel);
    expect(settled.filter((path) => path === burst)).toHaveLength(1);
  });

  it('ignores the paths its filter names', async () => {
    const settled: string[] = [];
    watcher = new FolderWatcher(folder, {
      debounceMs: 50,
      ignore: (relative) => relative.startsWith('.hidden'),
      onSettled: async (paths) => void settled.push(...paths),
      onError: (error) => {
        throw error;
      },
    });
    await mkdir(join(folder, '.hidden'));
    await writeFile(join(folder, '.hidden', 'a.md'), 'x');
    const visible = join(folder, 'b.md');
    await writeFile(visible, 'y');
    await eventually(settled, (path) => path === visible);
    expect(settled.filter((path) => path.includes('.hidden'))).toEqual([]);
  });
});

describe('KnowledgeEngine.watch', () => {
  let dataDir: string;
  let folder: string;
  let engine: KnowledgeEngine;
  let watch: FolderWatch;
  const events: IngestEvent[] = [];
  const onError = (error: Error): void => {
    throw error;
  };

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'parley-watch-data-'));
    folder = await mkdtemp(join(tmpdir(), 'parley-watch-src-'));
    events.length = 0;
    await writeFile(join(folder, 'start.md'), '# Start\n\nThe lighthouse keeper logs every passing ship.');
    engine = await KnowledgeEngine.open({ dataDir, debounceMs: 50, workers: 1 });
    watch = await engine.watch(folder, 'docs', { onProgress: (event) => events.push(event), onError });
    // Only what happens after the first sync.
    events.length = 0;
  });
  afterEach(async () => {
    await watch.close();
    await engine.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(folder, { recursive: true, force: true });
  });

  const titles = async (query: string): Promise<string[]> =>
    (await engine.search('docs', query)).map((hit) => hit.source.title);

  it('ingests the folder when watching starts', async () => {
    expect(watch.initial).toMatchObject([{ status: 'indexed', title: 'Start' }]);
    expect(await titles('lighthouse keeper')).toEqual(['Start']);
  });

  it('indexes a file added to the folder', async () => {
    const added = join(folder, 'added.md');
    await writeFile(added, '# Added\n\nAlbatross sightings are rare in the harbour.');
    await eventually(events, (event) => event.type === 'indexed' && event.source === added);
    expect(await titles('albatross sightings')).toEqual(['Added']);
  });

  it('replaces the chunks of a file that changed', async () => {
    const changed = join(folder, 'start.md');
    await writeFile(changed, '# Start\n\nThe foghorn sounds twice at dawn.');
    await eventually(events, (event) => event.type === 'indexed' && event.source === changed);
    expect(await titles('foghorn dawn')).toEqual(['Start']);
    expect(await titles('lighthouse keeper')).toEqual([]);
  });

  it('removes the document of a deleted file', async () => {
    const deleted = join(folder, 'start.md');
    await rm(deleted);
    await eventually(events, (event) => event.type === 'removed' && event.source === deleted);
    expect(await titles('lighthouse keeper')).toEqual([]);
    expect(await engine.documents('docs')).toEqual([]);
  });

  it('indexes files in a folder created inside the watched one', async () => {
    const nested = join(folder, 'logs', '1998');
    await mkdir(nested, { recursive: true });
    const file = join(nested, 'storm.md');
    await writeFile(file, '# Storm\n\nA gale tore the weathervane from the roof.');
    await eventually(events, (event) => event.type === 'indexed' && event.source === file);
    expect(await titles('weathervane gale')).toEqual(['Storm']);
  });
});
