import type { AttachModule } from './attach.js';

/**
 * Where the code for sending files comes from: `parley-attach.js` beside the script build, a chunk of
 * the ES module build. Loaded the first time a user attaches a file, not by every page.
 */
let load: (() => Promise<AttachModule>) | undefined;
let loading: Promise<AttachModule> | undefined;

export function useAttachAssets(loader: () => Promise<AttachModule>): void {
  load = loader;
}

/** The attachment code, loaded once (a failed load is tried again next time). */
export function attachModule(): Promise<AttachModule> {
  loading ??= (load?.() ?? Promise.reject(new Error('ParleyWidget: sending files is not set up'))).catch(
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
