import { readFile, rm, writeFile } from 'node:fs/promises';
import { KnowledgeError } from './errors.js';
import { isMissing } from './layout.js';

/**
 * One writer per namespace. Two processes committing their own view of a namespace would each
 * overwrite the other's manifest and lose documents, so the first write takes this lock (a file
 * holding the writer's pid) and keeps it until the engine closes. A lock whose process is gone
 * (killed with -9, say) is stale and taken over.
 */
export class NamespaceLock {
  private constructor(private readonly file: string) {}

  static async acquire(file: string, namespace: string): Promise<NamespaceLock> {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await writeFile(file, `${process.pid}\n`, { flag: 'wx' });
        return new NamespaceLock(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = await lockHolder(file);
      if (holder !== undefined && isRunning(holder)) {
        throw new KnowledgeError(
          'busy',
          `namespace "${namespace}" is being written by another Parley process (pid ${holder}); ` +
            'ingest through that process or stop it first',
        );
      }
      await rm(file, { force: true });
    }
    throw new KnowledgeError('busy', `namespace "${namespace}" is locked: could not take over a stale lock`);
  }

  async release(): Promise<void> {
    await rm(this.file, { force: true });
  }
}

async function lockHolder(file: string): Promise<number | undefined> {
  try {
    const pid = Number.parseInt(await readFile(file, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
