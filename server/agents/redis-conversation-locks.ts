import type { Redis } from 'ioredis';
import { Mutex } from 'redis-semaphore';
import type { Logger } from '../log.js';
import type { ConversationLocks } from './conversation-locks.js';

/** How long a lock outlives a process that died holding it. */
const LOCK_TTL_MS = 15_000;

/**
 * A mutex per conversation in Redis (redis-semaphore's, refreshed while the generation runs), so
 * a process that dies mid-answer frees the conversation within LOCK_TTL_MS.
 */
export class RedisConversationLocks implements ConversationLocks {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly logger: Logger,
    /** The longest a question waits for the conversation before it is dropped. */
    private readonly waitMs: number,
  ) {}

  async hold<T>(key: string, work: () => Promise<T>, busy: () => void, signal: AbortSignal): Promise<T> {
    const mutex = (wait: { acquireAttemptsLimit: number } | { acquireTimeout: number }) =>
      new Mutex(this.redis, `${this.prefix}agent-conversation:${key}`, {
        lockTimeout: LOCK_TTL_MS,
        refreshInterval: LOCK_TTL_MS / 3,
        retryInterval: 100,
        ...wait,
        // Redis lost the lock (an outage longer than its TTL): the answer under way still goes out.
        onLockLost: () => this.logger.warn('agent_conversation_lock_lost', {}),
      });
    let lock = mutex({ acquireAttemptsLimit: 1 });
    if (!(await lock.tryAcquire(signal))) {
      busy();
      lock = mutex({ acquireTimeout: this.waitMs });
      await lock.acquire(signal);
    }
    try {
      return await work();
    } finally {
      await lock.release().catch(() => undefined);
    }
  }
}
