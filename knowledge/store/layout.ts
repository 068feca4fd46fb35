import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { NAMESPACE_PATTERN, Namespace } from '../../shared/agent.js';
import { KnowledgeError } from './errors.js';

/**
 * Where a namespace lives on disk. The namespace folder belongs to people too: Markdown files
 * dropped into it by hand are sources. The engine keeps its own files apart, in a `.parley/`
 * subfolder that no namespace name and no drop-in scan can reach.
 */
export interface NamespaceLayout {
  name: string;
  /** `<data dir>/knowledge/<namespace>` */
  folder: string;
  /** `<folder>/.parley`: manifest, index snapshots, lock */
  storeFolder: string;
  manifestFile: string;
  /** normalised document text files, one per source version */
  documentsFolder: string;
  lockFile: string;
}

export const STORE_FOLDER_NAME = '.parley';

export function knowledgeFolder(dataDir: string): string {
  return join(dataDir, 'knowledge');
}

/** The namespace name, checked: anything but `^[a-z0-9][a-z0-9._-]{0,63}$` is refused. */
export function parseNamespace(name: unknown): string {
  const parsed = Namespace.safeParse(name);
  if (parsed.success) return parsed.data;
  const shown =
    typeof name === 'string'
      ? JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name)
      : typeof name;
  throw new KnowledgeError(
    'invalid',
    `invalid namespace ${shown}: ${parsed.error.issues[0]?.message ?? 'bad name'}`,
  );
}

export function namespaceLayout(dataDir: string, namespace: string): NamespaceLayout {
  const name = parseNamespace(namespace);
  const folder = join(knowledgeFolder(dataDir), name);
  const storeFolder = join(folder, STORE_FOLDER_NAME);
  return {
    name,
    folder,
    storeFolder,
    manifestFile: join(storeFolder, 'manifest.json'),
    documentsFolder: join(storeFolder, 'documents'),
    lockFile: join(storeFolder, 'lock'),
  };
}

/** Names of the namespace folders under the data dir, sorted; other entries are ignored. */
export async function listNamespaceNames(dataDir: string): Promise<string[]> {
  const entries = await readdir(knowledgeFolder(dataDir), { withFileTypes: true }).catch((error: unknown) => {
    if (isMissing(error)) return [];
    throw error;
  });
  return entries
    .filter((entry) => entry.isDirectory() && NAMESPACE_PATTERN.test(entry.name))
    .map((entry) => entry.name)
    .sort();
}

export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}
