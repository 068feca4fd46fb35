import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, restoreChunkIndex } from '../../../knowledge/search/index.js';
import { readCommittedManifest, useEngines, useTempFolders, writeFiles } from './support.js';

const tempFolder = useTempFolders();
const openEngine = useEngines();

const TEXTS = [
  { kind: 'text', title: 'Tides', text: 'Spring tides follow the full and the new moon.' },
  { kind: 'text', title: 'Currents', text: 'Rip currents pull swimmers away from the shore.' },
  { kind: 'text', title: 'Waves', text: 'Rogue waves can reach twice the height of their neighbours.' },
] as const;

describe('a namespace on disk', () => {
  it('is searched from its restored snapshot after the engine reopens', async () => {
    const dataDir = await tempFolder('data');
    const writer = await openEngine({ dataDir });
    await writer.ingest('sea', TEXTS);
    const before = await writer.search('sea', 'moon tides', { limit: 3 });
    await writer.close();
    const reader = await openEngine({ dataDir });
    expect(await reader.search('sea', 'moon tides', { limit: 3 })).toEqual(before);
    expect(await reader.documents('sea')).toHaveLength(3);
  });

  it('keeps exactly one committed snapshot, the one its manifest names', async () => {
    const dataDir = await tempFolder('data');
    const engine = await openEngine({ dataDir });
    for (const text of TEXTS) await engine.ingest('sea', [text]);
    const manifest = await readCommittedManifest(dataDir, 'sea');
    const storeFiles = await readdir(join(dataDir, 'knowledge', 'sea', '.parley'));
    expect(storeFiles.filter((name) => name.endsWith('.snapshot'))).toEqual([manifest.snapshot]);
  });

  it('ranks with the current ranking settings when its snapshot was written with others', async () => {
    const dataDir = await tempFolder('data');
    const writer = await openEngine({ dataDir });
    await writer.ingest('sea', [{ kind: 'text', title: 'Almanac', text: 'Spring tides follow the moon.' }]);
    await writer.close();
    // As an earlier version would have written it: ranking settings that score no title term.
    const { snapshot } = await readCommittedManifest(dataDir, 'sea');
    const file = join(dataDir, 'knowledge', 'sea', '.parley', snapshot ?? '');
    const earlier = restoreChunkIndex(await readFile(file), { ...DEFAULT_SETTINGS.ranking, titleWeight: 0 });
    await writeFile(file, earlier.snapshot());
    const reader = await openEngine({ dataDir });
    expect((await reader.search('sea', 'almanac')).map((hit) => hit.source.title)).toEqual(['Almanac']);
  });

  it('rebuilds its index from the stored documents when the snapshot is lost', async () => {
    const dataDir = await tempFolder('data');
    const writer = await openEngine({ dataDir });
    await writer.ingest('sea', TEXTS);
    await writer.close();
    const manifest = await readCommittedManifest(dataDir, 'sea');
    await rm(join(dataDir, 'knowledge', 'sea', '.parley', manifest.snapshot ?? ''));
    const reader = await openEngine({ dataDir });
    expect((await reader.search('sea', 'rip currents swimmers')).map((hit) => hit.source.title)).toEqual([
      'Currents',
    ]);
  });

  it('rebuilds its index from the stored documents when the snapshot is unreadable', async () => {
    const dataDir = await tempFolder('data');
    const writer = await openEngine({ dataDir });
    await writer.ingest('sea', TEXTS);
    await writer.close();
    const manifest = await readCommittedManifest(dataDir, 'sea');
    await writeFile(join(dataDir, 'knowledge', 'sea', '.parley', manifest.snapshot ?? ''), 'garbage');
    const reader = await openEngine({ dataDir });
    expect((await reader.search('sea', 'rogue waves')).map((hit) => hit.source.title)).toEqual(['Waves']);
  });

  it('sweeps away what a killed writer left half done when it is next written', async () => {
    const dataDir = await tempFolder('data');
    const writer = await openEngine({ dataDir });
    await writer.ingest('sea', [TEXTS[0]]);
    await writer.close();
    const store = join(dataDir, 'knowledge', 'sea', '.parley');
    await writeFiles(store, {
      'manifest.json.4242-abcd.tmp': '{"half',
      'index.99.snapshot': 'an uncommitted snapshot',
      'documents/0123456789abcdef01234567.0123456789abcdef.txt': 'an uncommitted document',
    });
    const next = await openEngine({ dataDir });
    await next.ingest('sea', [TEXTS[1]]);
    const manifest = await readCommittedManifest(dataDir, 'sea');
    expect((await readdir(store)).sort()).toEqual(
      ['documents', 'lock', 'manifest.json', manifest.snapshot].sort(),
    );
    expect((await readdir(join(store, 'documents'))).sort()).toEqual(
      manifest.documents.map((entry) => entry.documentFile).sort(),
    );
  });

  it('refuses a second writer while another engine writes the namespace, and lets it read', async () => {
    const dataDir = await tempFolder('data');
    const writer = await openEngine({ dataDir });
    await writer.ingest('sea', TEXTS);
    const other = await openEngine({ dataDir });
    await expect(other.ingest('sea', [{ kind: 'text', text: 'Another view.' }])).rejects.toMatchObject({
      kind: 'busy',
      message: expect.stringContaining(`pid ${process.pid}`),
    });
    expect((await other.search('sea', 'rogue waves')).map((hit) => hit.source.title)).toEqual(['Waves']);
    await writer.close();
    expect(await other.ingest('sea', [{ kind: 'text', text: 'Another view.' }])).toMatchObject([
      { status: 'indexed' },
    ]);
    expect(await other.documents('sea')).toHaveLength(4);
  });
});
