import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import type { IngestedSource, SearchHit } from '../../shared/agent.js';
import type { KnowledgeBackend } from './backend.js';

/** A file name safe to keep on disk: no folders, no control or shell characters, bounded length. */
export function safeFileName(name: string): string {
  const cleaned = basename(name.replace(/\\/g, '/'))
    .replace(/[^\p{L}\p{N}._ -]/gu, '_')
    .replace(/^\.+/, '')
    .slice(-120);
  return cleaned || 'upload';
}

/**
 * Files of one upload, named apart: a dropped folder can hold several files of the same name
 * (two `README.md`), and a browser sends only the base name. Later ones become `README (2).md`.
 */
function distinctFileNames(files: readonly File[]): string[] {
  const taken = new Set<string>();
  return files.map((file) => {
    const name = safeFileName(file.name);
    const dot = name.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let candidate = name;
    for (let n = 2; taken.has(candidate); n++) candidate = `${stem} (${n})${extension}`;
    taken.add(candidate);
    return candidate;
  });
}

/**
 * Saves uploaded files under `<uploadDir>/<namespace>/`, returning their paths. A file uploaded
 * again under the same name replaces the earlier one, so its document is re-indexed.
 */
export async function saveUploads(
  uploadDir: string,
  namespace: string,
  files: readonly File[],
): Promise<string[]> {
  const folder = join(uploadDir, namespace);
  await mkdir(folder, { recursive: true });
  const real = await realpath(folder);
  const names = distinctFileNames(files);
  return Promise.all(
    files.map(async (file, i) => {
      const path = join(real, names[i] as string);
      await writeFile(path, new Uint8Array(await file.arrayBuffer()));
      return path;
    }),
  );
}

/**
 * How the API names a path: one under the upload folder as `uploads/<namespace>/<file>`, others as
 * given. The folder's real path (it may be reached through a symlink) is looked up once; from then
 * on a path is named without waiting, so a search's hits are named in one pass.
 */
function uploadPathNames(uploadDir: string): () => Promise<(path: string) => string> {
  let naming: Promise<(path: string) => string> | undefined;
  return () =>
    (naming ??= realpath(uploadDir)
      .catch(() => uploadDir)
      .then((realUploadDir) => {
        const roots = [...new Set([uploadDir, realUploadDir])].map((root) => ({ root, prefix: root + sep }));
        return (path) => {
          const upload = roots.find(({ prefix }) => path.startsWith(prefix));
          return upload ? ['uploads', ...relative(upload.root, path).split(sep)].join('/') : path;
        };
      }));
}

/**
 * The backend as the API shows it: uploaded files are named `uploads/<namespace>/<file>` instead of
 * by their absolute path on the server.
 */
export function withPublicUploadPaths(backend: KnowledgeBackend, uploadDir: string): KnowledgeBackend {
  const naming = uploadPathNames(uploadDir);
  return {
    async ingest(namespace, sources, options = {}) {
      const { onProgress } = options;
      const name = await naming();
      const results = await backend.ingest(
        namespace,
        sources,
        onProgress ? { onProgress: (event) => onProgress({ ...event, source: name(event.source) }) } : {},
      );
      return results.map((result): IngestedSource => ({ ...result, source: name(result.source) }));
    },
    async search(namespace, query, options) {
      const hits = await backend.search(namespace, query, options);
      const name = await naming();
      // A hit whose path is not an upload's goes out as the engine made it, not copied.
      return hits.map((hit): SearchHit => {
        const path = hit.source.path;
        const named = path === undefined ? path : name(path);
        return named === path ? hit : { ...hit, source: { ...hit.source, path: named } };
      });
    },
    async documents(namespace) {
      const documents = await backend.documents(namespace);
      const name = await naming();
      return documents.map((document) => ({
        ...document,
        source: name(document.source),
        ...(document.path ? { path: name(document.path) } : {}),
      }));
    },
    namespaces: () => backend.namespaces(),
    documentText: (namespace, documentId) => backend.documentText(namespace, documentId),
    removeDocument: (namespace, documentId) => backend.removeDocument(namespace, documentId),
    deleteNamespace: (namespace) => backend.deleteNamespace(namespace),
  };
}
