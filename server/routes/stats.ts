import { z } from 'zod';
import { badRequest } from '../errors.js';
import { chatRoutes, documented, type ChatRoutes } from '../http/openapi.js';
import { queryOf } from '../http/request.js';
import type { RouteDeps } from './deps.js';

const EpochMs = z.coerce
  .number({ error: 'must be epoch milliseconds' })
  .int('must be an integer')
  .nonnegative();

const UsageQuery = z.looseObject({ fromDate: EpochMs.optional(), toDate: EpochMs.optional() });

const DAY_MS = 86_400_000;
/** `/stats/messages`: the last hour, in slices of five minutes, as CometChat answers it. */
const SLICE_SECONDS = 300;
const SLICES = 12;

/**
 * Usage of the app (server API only): `GET /stats` counts the users who sent a message in
 * `fromDate`-`toDate` (epoch ms; the last 30 days by default) and those online now (Parley has
 * no calls: no audio, video or recorded minutes); `GET /stats/messages` counts messages sent and
 * read and delivery receipts given in each five minutes of the last hour.
 */
export function statsRoutes(deps: RouteDeps): ChatRoutes {
  const { stats } = deps.services;
  const routes = chatRoutes();

  documented(
    routes,
    'get',
    '/stats',
    {
      summary: 'Usage of the app: active users in a time range, users online now',
      only: 'server',
      query: UsageQuery,
    },
    async (c) => {
      const { appId } = c.get('actor').app;
      const query = queryOf(c, UsageQuery);
      const toDate = query.toDate ?? Date.now();
      const fromDate = query.fromDate ?? toDate - 30 * DAY_MS;
      if (fromDate > toDate) throw badRequest('fromDate', 'must not be after toDate');
      const { activeUsers, online } = await stats.usage(
        appId,
        Math.floor(fromDate / 1000),
        Math.floor(toDate / 1000),
      );
      return c.json({
        data: {
          metrics: {
            audio_minutes: 0,
            video_minutes: 0,
            recorded_minutes: 0,
            active_users: activeUsers,
            concurrent_users: online,
          },
          time_range: { fromDate, toDate },
        },
      });
    },
  );

  documented(
    routes,
    'get',
    '/stats/messages',
    { summary: 'Messages sent and receipts given in each five minutes of the last hour', only: 'server' },
    async (c) => {
      const { appId } = c.get('actor').app;
      const end = (Math.floor(Date.now() / 1000 / SLICE_SECONDS) + 1) * SLICE_SECONDS;
      const start = end - SLICES * SLICE_SECONDS;
      const activity = await stats.activity(appId, start, end, SLICE_SECONDS);
      const ms = (seconds: number) => String(seconds * 1000);
      const dataPoints = Array.from({ length: SLICES }, (_, index) => {
        const from = start + index * SLICE_SECONDS;
        const counts = activity.get(from) ?? { messagesSent: 0, readReceipts: 0, deliveryReceipts: 0 };
        return { ...counts, startTime: ms(from), endTime: ms(from + SLICE_SECONDS) };
      });
      return c.json({ data: { startTime: ms(start), endTime: ms(end), dataPoints, appId } });
    },
  );
  return routes;
}
