import { realpath, rm, stat } from 'node:fs/promises';
import { basename, extname, relative, resolve, sep } from 'node:path';
import type { IngestedSource, SearchHit } from '../shared/agent.js';
import { ParsePool, defaultPoolSize } from './ingest/pool.js';
import { ingestPlan, type IngestEvent } from './ingest/queue.js';
import { isInside, isSkippedSegment, planSources, type PlanOptions } from './ingest/sources.js';
import { SUPPORTED_EXTENSIONS } from './loaders/index.js';
import { KnowledgeError } from './store/errors.js';
import { isMissing, listNamespaceNames, namespaceLayout, parseNamespace } from './store/layout.js';
import { readManifest, type ManifestEntry } from './store/manifest.js';
import { NamespaceStore } from './store/namespace-store.js';
import type { LoadOptions, SourceInput } from './types.js';
import { FolderWatcher } from './watch.js';

export interface KnowledgeEngineOptions {
  /** The data dir; namespace `ns` lives in `<dataDir>/knowledge/ns/`. */
  dataDir: string;
  /** Let URLs reach loopback, private and link-local addresses (off: a URL could probe the LAN). */
  allowPrivateNetwork?: boolean;
  /** When set, only files and folders inside these may be ingested or watched (set it for an HTTP API). */
  ingestRoots?: string[];
  /** Parser worker threads; default min(2, cores). */
  workers?: number;
  /** Keep every opened namespace folder watched for Markdown files dropped in by hand. */
  watchNamespaceFolders?: boolean;
  /** Quiet time before a watched change is ingested. */
  debounceMs?: number;
  /** Limits applied to URL downloads. */
  load?: Pick<LoadOptions, 'maxBytes' | 'timeoutMs' | 'maxRedirects'>;
}

export interface IngestOptions {
  onProgress?: (event: IngestEvent) => void;
}

export interface SearchOptions {
  /** 1-100, default 6. */
  limit?: number;
  /** At most one passage per document, each page of a PDF counting as one. */
  onePerDocument?: boolean;
  /** Each hit's text is a snippet around the query terms, for showing; else the whole passage, for answering. */
  snippets?: boolean;
}

/** A stored document as callers see it. */
export interface KnowledgeDocument {
  documentId: string;
  source: string;
  kind: ManifestEntry['kind'];
  path?: string;
  url?: string;
  title: string;
  format: ManifestEntry['format'];
  /** Page count, for formats with pages. */
  pages?: number;
  chunks: number;
  size: number;
  ingestedAt: string;
  warnings: string[];
}

export interface NamespaceSummary {
  name: string;
  documents: number;
  chunks: number;
  /** Why the namespace could not be read, if it could not. */
  error?: string;
}

export interface WatchOptions extends IngestOptions {
  /** A change could not be handled (the namespace was busy, the folder vanished). */
  onError?: (error: Error) => void;
}

export interface FolderWatch {
  readonly folder: string;
  readonly namespace: string;
  /** What the first sync of the folder found. */
  readonly initial: IngestedSource[];
  close(): Promise<void>;
}

/** File names kept per namespace folder before the cache starts over. */
const MAX_CACHED_NAMES = 10_000;

/** Hand-dropped files in a namespace folder count as sources when they are Markdown. */
const DROP_IN_EXTENSIONS: ReadonlySet<string> = new Set(['.md', '.mdx']);

/**
 * The knowledge engine: namespaces on disk, ingestion through parser workers, search, watching.
 * One engine per data dir and process; the agent server, the desktop app and the CLI each open one.
 */
export class KnowledgeEngine {
  private readonly stores = new Map<string, Promise<NamespaceStore>>();
  private readonly watches = new Set<FolderWatch & { watcher: FolderWatcher }>();
  private readonly pool: ParsePool;
  private readonly extensions: ReadonlySet<string>;
  /** Namespace folder → file path → its name there, for search hits (path.relative costs about 1 µs a hit). */
  private readonly names = new Map<string, Map<string, string>>();
  private closed = false;

  private constructor(
    private readonly options: KnowledgeEngineOptions,
    private readonly ingestRoots: string[] | undefined,
  ) {
    this.pool = new ParsePool(options.workers ?? defaultPoolSize());
    this.extensions = new Set([...SUPPORTED_EXTENSIONS].map((extension) => extension.toLowerCase()));
  }

  static async open(options: KnowledgeEngineOptions): Promise<KnowledgeEngine> {
    // Symlink-free, as the paths checked against them are; a root that does not exist yet is kept as given.
    const roots =
      options.ingestRoots &&
      (await Promise.all(
        options.ingestRoots.map((root) => realpath(resolve(root)).catch(() => resolve(root))),
      ));
    return new KnowledgeEngine({ ...options, dataDir: resolve(options.dataDir) }, roots);
  }

  get dataDir(): string {
    return this.options.dataDir;
  }

  /** The folder of a namespace, where Markdown dropped in by hand is indexed too. */
  namespaceFolder(namespace: string): string {
    return namespaceLayout(this.dataDir, namespace).folder;
  }

  /**
   * Ingests sources into a namespace. Folders are expanded recursively; an unchanged source is a
   * no-op; a changed one replaces its chunks; files gone from an ingested folder are removed.
   * Resolves with one result per source once everything is committed to disk.
   */
  async ingest(
    namespace: string,
    sources: readonly SourceInput[],
    options: IngestOptions = {},
  ): Promise<IngestedSource[]> {
    const store = await this.writableStore(namespace);
    const results = await this.ingestInto(store, sources, this.planOptions(), options);
    await this.watchNamespaceFolder(store);
    return results;
  }

  async search(namespace: string, query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const text = typeof query === 'string' ? query.trim() : '';
    if (!text) throw new KnowledgeError('invalid', 'the query must not be empty');
    const limit = options.limit ?? 6;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      throw new KnowledgeError(
        'invalid',
        `the limit must be a whole number from 1 to 100, not ${String(limit)}`,
      );
    }
    const store = await this.existingStore(namespace);
    if (!store) return [];
    const ranked = store.search(text, {
      limit,
      onePerDocument: options.onePerDocument,
      snippets: options.snippets,
    });
    // Each hit's chunk is the store's copy, its heading path included: handed on as it is.
    return ranked.map(({ chunk, score, snippet }) => ({
      text: snippet ?? chunk.text,
      score,
      source: {
        documentId: chunk.documentId,
        title: chunk.title,
        ...(chunk.path
          ? { path: chunk.path, name: this.nameInNamespace(chunk.path, store.layout.folder) }
          : {}),
        ...(chunk.url ? { url: chunk.url } : {}),
        ...(chunk.page ? { page: chunk.page } : {}),
        ...(chunk.headingPath.length > 0
          ? { heading: chunk.headingPath.at(-1), headingPath: chunk.headingPath }
          : {}),
      },
    }));
  }

  async documents(namespace: string): Promise<KnowledgeDocument[]> {
    const store = await this.existingStore(namespace);
    return store ? store.documents().map(publicDocument) : [];
  }

  /** The stored normalised text of a document (PDF pages joined by a form feed), for showing a citation. */
  async documentText(namespace: string, documentId: string): Promise<string> {
    const text = await (await this.existingStore(namespace))?.documentText(documentId);
    if (text === undefined)
      throw new KnowledgeError('not-found', `namespace "${namespace}" has no document ${documentId}`);
    return text;
  }

  /** Removes a document and its chunks; false when the namespace has no such document. */
  async removeDocument(namespace: string, documentId: string): Promise<boolean> {
    const store = await this.existingStore(namespace);
    if (!store?.entry(documentId)) return false;
    await store.openForWriting();
    const removed = await store.exclusive(documentId, () => store.remove(documentId));
    await store.flush();
    return removed;
  }

  async namespaces(): Promise<NamespaceSummary[]> {
    const names = await listNamespaceNames(this.dataDir);
    return Promise.all(names.map((name) => this.summarise(name)));
  }

  /** Deletes a namespace folder, with everything in it (Markdown dropped in by hand too). */
  async deleteNamespace(namespace: string): Promise<boolean> {
    const layout = namespaceLayout(this.dataDir, namespace);
    const store = await this.existingStore(layout.name);
    if (!store) return false;
    await store.openForWriting();
    for (const watch of [...this.watches]) if (watch.namespace === layout.name) await watch.close();
    this.stores.delete(layout.name);
    await store.close();
    await rm(layout.folder, { recursive: true, force: true });
    return true;
  }

  /**
   * Keeps a folder in sync with a namespace: ingests it now, then ingests added and changed files
   * and removes deleted ones as they happen, each after the debounce time.
   */
  async watch(folder: string, namespace: string, options: WatchOptions = {}): Promise<FolderWatch> {
    const store = await this.writableStore(namespace);
    const planOptions = this.planOptions();
    const initialPlan = await planSources([{ kind: 'file', path: folder }], planOptions);
    const root = initialPlan.folders[0];
    if (!root) {
      const problem = initialPlan.refused[0]?.error ?? 'not a folder';
      throw new KnowledgeError('invalid', `cannot watch ${folder}: ${problem}`);
    }
    return this.startWatch(store, root, planOptions, options);
  }

  /** Stops watching, commits every namespace and ends the parser workers. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.watches].map((watch) => watch.close()));
    const stores = await Promise.allSettled(this.stores.values());
    this.stores.clear();
    await Promise.all(
      stores.map((opened) => (opened.status === 'fulfilled' ? opened.value.close() : undefined)),
    );
    await this.pool.close();
  }

  private planOptions(extensions: ReadonlySet<string> = this.extensions): PlanOptions {
    return { extensions, ...(this.ingestRoots ? { ingestRoots: this.ingestRoots } : {}) };
  }

  private async ingestInto(
    store: NamespaceStore,
    sources: readonly SourceInput[],
    planOptions: PlanOptions,
    options: IngestOptions,
  ): Promise<IngestedSource[]> {
    const plan = await planSources(sources, planOptions);
    const load = { ...this.options.load, allowPrivateNetwork: this.options.allowPrivateNetwork ?? false };
    return ingestPlan(
      { store, pool: this.pool, load, onProgress: options.onProgress ?? (() => undefined) },
      plan,
    );
  }

  private async store(namespace: string): Promise<NamespaceStore> {
    if (this.closed) throw new Error('the knowledge engine is closed');
    const name = parseNamespace(namespace);
    let opened = this.stores.get(name);
    if (!opened) {
      opened = this.openStore(name);
      this.stores.set(name, opened);
      opened.catch(() => this.stores.delete(name));
    }
    return opened;
  }

  /**
   * The store of a namespace that exists, or undefined: reading a namespace that was never written
   * creates nothing, not even an entry in this engine's cache.
   */
  private async existingStore(namespace: string): Promise<NamespaceStore | undefined> {
    const name = parseNamespace(namespace);
    if (!this.stores.has(name) && !(await isFolder(namespaceLayout(this.dataDir, name).folder)))
      return undefined;
    return this.store(name);
  }

  private async writableStore(namespace: string): Promise<NamespaceStore> {
    const store = await this.store(namespace);
    await store.openForWriting();
    return store;
  }

  /** Opens a namespace and picks up Markdown dropped into its folder since it was last open. */
  private async openStore(name: string): Promise<NamespaceStore> {
    const store = await NamespaceStore.open(namespaceLayout(this.dataDir, name));
    if (!(await isFolder(store.layout.folder))) return store;
    try {
      await store.openForWriting();
    } catch (error) {
      // Another process writes this namespace and keeps its drop-ins in sync; read what it committed.
      if (error instanceof KnowledgeError && error.kind === 'busy') return store;
      throw error;
    }
    await this.ingestInto(
      store,
      [{ kind: 'file', path: store.layout.folder }],
      { extensions: DROP_IN_EXTENSIONS },
      {},
    );
    await this.watchNamespaceFolder(store);
    return store;
  }

  /**
   * Starts watching a namespace's folder for drop-ins, and resolves once the watch is set up: a
   * file dropped after an ingest has returned is seen (when the watch was started in the
   * background, a file written at once could land before it and never be picked up).
   */
  private async watchNamespaceFolder(store: NamespaceStore): Promise<void> {
    if (!this.options.watchNamespaceFolders || this.closed) return;
    const folder = store.layout.folder;
    if ([...this.watches].some((watch) => watch.folder === folder)) return;
    await realpath(folder)
      .then((root) => this.startWatch(store, root, { extensions: DROP_IN_EXTENSIONS }, {}, false))
      .catch(() => undefined);
  }

  private async startWatch(
    store: NamespaceStore,
    root: string,
    planOptions: PlanOptions,
    options: WatchOptions,
    initialSync = true,
  ): Promise<FolderWatch> {
    const onProgress = options.onProgress ?? (() => undefined);
    const onError = options.onError ?? (() => undefined);
    const ingest = (inputs: SourceInput[]): Promise<IngestedSource[]> =>
      this.ingestInto(store, inputs, planOptions, { onProgress });
    const watcher = new FolderWatcher(root, {
      debounceMs: this.options.debounceMs,
      ignore: (relativePath) => relativePath.split(/[\\/]/).some(isSkippedSegment),
      onError,
      onSettled: async (paths) => {
        await store.openForWriting();
        await ingest(await this.changesToInputs(store, paths, planOptions.extensions, onProgress));
      },
    });
    const initial = initialSync ? await ingest([{ kind: 'file', path: root }]) : [];
    const watch = {
      folder: root,
      namespace: store.name,
      initial,
      watcher,
      close: async () => {
        this.watches.delete(watch);
        await watcher.close();
      },
    };
    this.watches.add(watch);
    return watch;
  }

  /**
   * What to ingest for paths that changed: folders (re-walked, so files created with them are not
   * missed) and files with a supported extension. Paths that no longer exist have their documents
   * removed here.
   */
  private async changesToInputs(
    store: NamespaceStore,
    paths: string[],
    extensions: ReadonlySet<string>,
    onProgress: (event: IngestEvent) => void,
  ): Promise<SourceInput[]> {
    const inputs: SourceInput[] = [];
    for (const path of paths) {
      const stats = await stat(path).catch((error: unknown) => {
        if (isMissing(error)) return undefined;
        throw error;
      });
      if (stats?.isDirectory() || (stats?.isFile() && extensions.has(extname(path).toLowerCase()))) {
        inputs.push({ kind: 'file', path });
      } else if (!stats) {
        for (const entry of store.documents()) {
          if (entry.path === undefined || !isInside(path, entry.path)) continue;
          if (await store.exclusive(entry.documentId, () => store.remove(entry.documentId))) {
            onProgress({ type: 'removed', source: entry.source, documentId: entry.documentId });
          }
        }
      }
    }
    return inputs;
  }

  /**
   * What a file is called inside its namespace, for people who may not see the server's folders:
   * its path under the namespace folder (dropped-in files), else its file name.
   */
  private nameInNamespace(path: string, namespaceFolder: string): string {
    let names = this.names.get(namespaceFolder);
    if (!names) this.names.set(namespaceFolder, (names = new Map()));
    let name = names.get(path);
    if (name === undefined) {
      // Paths of removed documents are forgotten only here: the cache stays small.
      if (names.size >= MAX_CACHED_NAMES) names.clear();
      name = isInside(namespaceFolder, path)
        ? relative(namespaceFolder, path).split(sep).join('/')
        : basename(path);
      names.set(path, name);
    }
    return name;
  }

  private async summarise(name: string): Promise<NamespaceSummary> {
    const opened = this.stores.get(name);
    if (opened) {
      const store = await opened;
      return { name, documents: store.documentCount, chunks: store.chunkCount };
    }
    try {
      const manifest = await readManifest(namespaceLayout(this.dataDir, name).manifestFile);
      const chunks = manifest.documents.reduce((sum, entry) => sum + entry.chunks, 0);
      return { name, documents: manifest.documents.length, chunks };
    } catch (error) {
      return { name, documents: 0, chunks: 0, error: error instanceof Error ? error.message : String(error) };
    }
  }
}

const isFolder = (path: string): Promise<boolean> =>
  stat(path).then(
    (stats) => stats.isDirectory(),
    () => false,
  );

function publicDocument(entry: ManifestEntry): KnowledgeDocument {
  return {
    documentId: entry.documentId,
    source: entry.source,
    kind: entry.kind,
    ...(entry.path ? { path: entry.path } : {}),
    ...(entry.url ? { url: entry.url } : {}),
    title: entry.title,
    format: entry.format,
    ...(entry.pageNumbers ? { pages: entry.pageNumbers.length } : {}),
    chunks: entry.chunks,
    size: entry.size,
    ingestedAt: entry.ingestedAt,
    warnings: entry.warnings,
  };
}
