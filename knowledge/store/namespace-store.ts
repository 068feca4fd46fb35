import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chunkDocument } from '../chunker.js';
import { createChunkIndex, DEFAULT_SETTINGS, restoreChunkIndex } from '../search/index.js';
import {
  PAGE_SEPARATOR,
  type Chunk,
  type ChunkIndex,
  type LoadedDocument,
  type RankedChunk,
} from '../types.js';
import { TEMP_SUFFIX, writeFileAtomic } from './atomic.js';
import { isMissing, type NamespaceLayout } from './layout.js';
import { NamespaceLock } from './lock.js';
import {
  readManifest,
  snapshotFileName,
  writeManifest,
  type Manifest,
  type ManifestEntry,
} from './manifest.js';

/** One version of a source, ready to be stored: its manifest fields, normalised text and chunks. */
export interface DocumentVersion {
  entry: Omit<ManifestEntry, 'documentFile'>;
  text: string;
  chunks: Chunk[];
}

/** Background commits leave at least this long between them… */
const MIN_COMMIT_GAP_MS = 1000;
/** …and at least this multiple of the last commit's duration, so commits take ≤ 1/5 of the time. */
const COMMIT_GAP_FACTOR = 4;

interface CommittedState {
  manifest: Manifest;
  index: ChunkIndex;
  /** True when the index had to be rebuilt from the document files: the next commit rewrites it. */
  rebuilt: boolean;
}

/**
 * One namespace in memory (its index and manifest) and on disk. Reading needs nothing; the first
 * write takes the namespace's lock. Changes go to the index at once and are committed (snapshot,
 * then manifest) in the background during an ingest and on `flush()`.
 */
export class NamespaceStore {
  private lock: NamespaceLock | undefined;
  private locking: Promise<void> | undefined;
  private dirty: boolean;
  private commitChain: Promise<void> = Promise.resolve();
  private commitTimer: NodeJS.Timeout | undefined;
  private committing = false;
  /** A commit was requested while one was running: schedule it, gap included, once that ends. */
  private commitRequested = false;
  private readonly documentTasks = new Map<string, Promise<unknown>>();
  private lastCommitMs = 0;
  private lastCommitEnd = 0;
  private closed = false;
  private entries = new Map<string, ManifestEntry>();
  /** Document files that may need deleting once no commit and no live entry refers to them. */
  private documentFiles = new Set<string>();
  private generation = 0;
  private snapshot: string | null = null;

  private constructor(
    readonly layout: NamespaceLayout,
    private index: ChunkIndex,
    state: CommittedState,
  ) {
    this.adopt(state);
    this.dirty = state.rebuilt;
  }

  static async open(layout: NamespaceLayout): Promise<NamespaceStore> {
    const state = await loadCommitted(layout);
    return new NamespaceStore(layout, state.index, state);
  }

  get name(): string {
    return this.layout.name;
  }

  get documentCount(): number {
    return this.entries.size;
  }

  get chunkCount(): number {
    let chunks = 0;
    for (const entry of this.entries.values()) chunks += entry.chunks;
    return chunks;
  }

  entry(documentId: string): ManifestEntry | undefined {
    return this.entries.get(documentId);
  }

  documents(): ManifestEntry[] {
    return [...this.entries.values()];
  }

  search(
    query: string,
    options: { limit?: number; onePerDocument?: boolean; snippets?: boolean },
  ): RankedChunk[] {
    return this.index.search(query, options);
  }

  /** The stored normalised text of a document (pages joined by PAGE_SEPARATOR). */
  async documentText(documentId: string): Promise<string | undefined> {
    const entry = this.entries.get(documentId);
    if (!entry) return undefined;
    return readFile(join(this.layout.documentsFolder, entry.documentFile), 'utf8');
  }

  /** Stores a new version of a document, replacing the chunks of the previous one. */
  async put(version: DocumentVersion): Promise<void> {
    await this.openForWriting();
    const { entry } = version;
    const documentFile = `${entry.documentId}.${entry.contentHash.slice(0, 16)}.txt`;
    await writeFileAtomic(join(this.layout.documentsFolder, documentFile), version.text);
    if (this.entries.has(entry.documentId)) this.index.removeDocument(entry.documentId);
    this.index.add(version.chunks);
    this.entries.set(entry.documentId, { ...entry, documentFile });
    this.documentFiles.add(documentFile);
    this.dirty = true;
  }

  /** Updates manifest fields that do not touch the text or chunks (a file's new mtime, say). */
  async touch(documentId: string, fields: Pick<ManifestEntry, 'mtimeMs'>): Promise<void> {
    const entry = this.entries.get(documentId);
    if (!entry) return;
    await this.openForWriting();
    this.entries.set(documentId, { ...entry, ...fields });
    this.dirty = true;
  }

  async remove(documentId: string): Promise<boolean> {
    if (!this.entries.has(documentId)) return false;
    await this.openForWriting();
    if (!this.entries.delete(documentId)) return false;
    this.index.removeDocument(documentId);
    this.dirty = true;
    return true;
  }

  /** Runs tasks on the same document one after the other (two ingests may name the same source). */
  async exclusive<T>(documentId: string, task: () => Promise<T>): Promise<T> {
    const run = (this.documentTasks.get(documentId) ?? Promise.resolve()).catch(() => undefined).then(task);
    this.documentTasks.set(documentId, run);
    try {
      return await run;
    } finally {
      if (this.documentTasks.get(documentId) === run) this.documentTasks.delete(documentId);
    }
  }

  /** Commits soon, throttled: used while an ingest is running so a kill loses little work. */
  requestCommit(): void {
    if (this.commitTimer || this.closed) return;
    if (this.committing) {
      this.commitRequested = true;
      return;
    }
    const gap = Math.max(MIN_COMMIT_GAP_MS, COMMIT_GAP_FACTOR * this.lastCommitMs);
    const wait = Math.max(0, this.lastCommitEnd + gap - performance.now());
    this.commitTimer = setTimeout(() => {
      this.commitTimer = undefined;
      // A failed background commit leaves the store dirty; the next flush retries and reports it.
      this.flush().catch(() => undefined);
    }, wait);
    this.commitTimer.unref();
  }

  /** Commits every change made so far; resolves once they are durable. */
  flush(): Promise<void> {
    clearTimeout(this.commitTimer);
    this.commitTimer = undefined;
    const run = this.commitChain.catch(() => undefined).then(() => this.commitIfDirty());
    this.commitChain = run;
    return run;
  }

  async close(): Promise<void> {
    this.closed = true;
    try {
      await this.flush();
    } finally {
      await this.lock?.release();
      this.lock = undefined;
    }
  }

  private adopt(state: CommittedState): void {
    this.index = state.index;
    this.generation = state.manifest.generation;
    this.snapshot = state.manifest.snapshot;
    this.entries = new Map(state.manifest.documents.map((entry) => [entry.documentId, entry]));
    this.documentFiles = new Set(state.manifest.documents.map((entry) => entry.documentFile));
  }

  /**
   * Takes the namespace's writer lock (once; it is held until close). Throws a `busy`
   * KnowledgeError while another live process holds it.
   */
  async openForWriting(): Promise<void> {
    if (this.closed) throw new Error(`namespace "${this.name}" is closed`);
    if (this.lock) return;
    this.locking ??= this.takeLock().catch((error: unknown) => {
      this.locking = undefined;
      throw error;
    });
    await this.locking;
  }

  private async takeLock(): Promise<void> {
    await mkdir(this.layout.documentsFolder, { recursive: true });
    const lock = await NamespaceLock.acquire(this.layout.lockFile, this.name);
    try {
      // Another process may have committed since this store was read.
      const onDisk = await readManifest(this.layout.manifestFile);
      if (onDisk.generation !== this.generation) {
        const state = await loadCommitted(this.layout);
        this.adopt(state);
        this.dirty = state.rebuilt;
      }
      await this.removeGarbage();
    } catch (error) {
      await lock.release();
      throw error;
    }
    this.lock = lock;
  }

  /** Deletes what a killed writer left behind: temp files, uncommitted snapshots and documents. */
  private async removeGarbage(): Promise<void> {
    const referenced = new Set([...this.entries.values()].map((entry) => entry.documentFile));
    for (const name of await readdir(this.layout.documentsFolder)) {
      if (!referenced.has(name)) await rm(join(this.layout.documentsFolder, name), { force: true });
    }
    for (const name of await readdir(this.layout.storeFolder)) {
      const staleSnapshot = /^index\.\d+\.snapshot$/.test(name) && name !== this.snapshot;
      if (staleSnapshot || name.endsWith(TEMP_SUFFIX))
        await rm(join(this.layout.storeFolder, name), { force: true });
    }
  }

  private async commitIfDirty(): Promise<void> {
    // A store that never took the lock has nothing of its own to commit (a rebuilt index stays in memory).
    if (!this.dirty || !this.lock) return;
    this.committing = true;
    const started = performance.now();
    try {
      await this.commit();
    } finally {
      this.lastCommitEnd = performance.now();
      this.lastCommitMs = this.lastCommitEnd - started;
      this.committing = false;
      if (this.commitRequested) {
        this.commitRequested = false;
        this.requestCommit();
      }
    }
  }

  private async commit(): Promise<void> {
    this.dirty = false;
    const generation = this.generation + 1;
    const snapshot = snapshotFileName(generation);
    // Captured together, synchronously, so the snapshot holds exactly the manifest's documents.
    const documents = [...this.entries.values()];
    const bytes = this.index.snapshot();
    const candidates = [...this.documentFiles];
    try {
      await writeFileAtomic(join(this.layout.storeFolder, snapshot), bytes);
      await writeManifest(this.layout.manifestFile, { version: 1, generation, snapshot, documents });
    } catch (error) {
      this.dirty = true;
      await rm(join(this.layout.storeFolder, snapshot), { force: true }).catch(() => undefined);
      throw error;
    }
    const previous = this.snapshot;
    this.generation = generation;
    this.snapshot = snapshot;
    if (previous) await rm(join(this.layout.storeFolder, previous), { force: true });
    const committed = new Set(documents.map((entry) => entry.documentFile));
    const live = new Set([...this.entries.values()].map((entry) => entry.documentFile));
    for (const file of candidates) {
      if (committed.has(file) || live.has(file)) continue;
      await rm(join(this.layout.documentsFolder, file), { force: true });
      this.documentFiles.delete(file);
    }
  }
}

/**
 * Reads the committed manifest and its snapshot. A writer in another process may replace both
 * between the two reads, so a vanished snapshot means "read the manifest again". A snapshot that is
 * missing for good or cannot be restored is rebuilt from the stored document files.
 */
async function loadCommitted(layout: NamespaceLayout): Promise<CommittedState> {
  for (let attempt = 0; ; attempt++) {
    const manifest = await readManifest(layout.manifestFile);
    if (manifest.snapshot === null) return { manifest, index: createChunkIndex(), rebuilt: false };
    let bytes: Uint8Array;
    try {
      bytes = await readFile(join(layout.storeFolder, manifest.snapshot));
    } catch (error) {
      if (!isMissing(error)) throw error;
      const current = await readManifest(layout.manifestFile);
      if (current.generation !== manifest.generation && attempt < 5) continue;
      return rebuildFromDocuments(layout, manifest);
    }
    try {
      // Namespaces are made with the default settings. Ranking is chosen per query, so one written
      // by an earlier version ranks as this version does; its tokenizer and fields stay the
      // snapshot's, since they decide the terms it holds.
      return { manifest, index: restoreChunkIndex(bytes, DEFAULT_SETTINGS.ranking), rebuilt: false };
    } catch {
      return rebuildFromDocuments(layout, manifest);
    }
  }
}

async function rebuildFromDocuments(layout: NamespaceLayout, manifest: Manifest): Promise<CommittedState> {
  const index = createChunkIndex();
  const documents: ManifestEntry[] = [];
  for (const entry of manifest.documents) {
    let text: string;
    try {
      text = await readFile(join(layout.documentsFolder, entry.documentFile), 'utf8');
    } catch (error) {
      if (isMissing(error)) continue; // nothing left to index: the source must be ingested again
      throw error;
    }
    const chunks = chunkDocument(storedDocument(entry, text), entry.documentId);
    index.add(chunks);
    documents.push({ ...entry, chunks: chunks.length });
  }
  return { manifest: { ...manifest, documents }, index, rebuilt: true };
}

/** The loaded document a stored text file came from, as the chunker needs it. */
function storedDocument(entry: ManifestEntry, text: string): LoadedDocument {
  const pageTexts = text.split(PAGE_SEPARATOR);
  const numbered = entry.pageNumbers?.length === pageTexts.length ? entry.pageNumbers : undefined;
  const origin: LoadedDocument['origin'] =
    entry.kind === 'file' && entry.path
      ? { kind: 'file', path: entry.path }
      : entry.kind === 'url' && entry.url
        ? { kind: 'url', url: entry.url }
        : { kind: 'text' };
  return {
    title: entry.title,
    origin,
    format: entry.format,
    pages: pageTexts.map((pageText, i) =>
      numbered ? { page: numbered[i], text: pageText } : { text: pageText },
    ),
    warnings: entry.warnings,
  };
}
