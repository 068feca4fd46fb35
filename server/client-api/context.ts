import type { Context } from 'hono';
import type { App } from '../repositories/apps.js';

/** The logged-in user of a client API call, from its `authToken` header. */
export interface ClientSession {
  uid: string;
  authToken: string;
  /** The SDK's session id (`resource` header): the device frames are stamped with. */
  deviceId: string | undefined;
}

export interface ClientEnv {
  Variables: { app: App; session: ClientSession };
}

export type ClientContext = Context<ClientEnv>;
