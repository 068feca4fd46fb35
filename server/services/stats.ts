import type { ActivityCounts, StatsRepository } from '../repositories/stats.js';
import type { UserRepository } from '../repositories/users.js';

/** Usage of an app (`/stats`): who sent messages when, who is online, and the last hour's activity. */
export class StatsService {
  constructor(
    private readonly stats: StatsRepository,
    private readonly users: UserRepository,
  ) {}

  /** Users who sent a message from `from` to `to` (epoch seconds), and users online now. */
  async usage(appId: string, from: number, to: number): Promise<{ activeUsers: number; online: number }> {
    const [activeUsers, online] = await Promise.all([
      this.stats.activeUsers(appId, from, to),
      this.users.countOnline(appId),
    ]);
    return { activeUsers, online };
  }

  /** Messages sent and receipts given in each `slice` seconds from `start` to `end`, by slice start. */
  activity(appId: string, start: number, end: number, slice: number): Promise<Map<number, ActivityCounts>> {
    return this.stats.activity(appId, start, end, slice);
  }
}
