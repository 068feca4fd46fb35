import type { Context } from 'hono';
import type { EventOrigin } from '../events.js';
import type { App } from '../repositories/apps.js';

/** The logged-in user of a client API call, from its `authToken` header. */
export interface ClientSession {
  uid: string;
  authToken: string;
  /** The SDK's session id (`resource` header): the device frames are stamped with. */
  deviceId: string | undefined;
}

export interface ClientEnv {
  /** `origin`: the session's user and device, the origin of every event the request causes. */
  Variables: { app: App; session: ClientSession; origin: EventOrigin };
}

export type ClientContext = Context<ClientEnv>;
