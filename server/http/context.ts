import type { Context } from 'hono';
import type { App } from '../repositories/apps.js';
import type { EventOrigin } from '../events.js';

/**
 * Who makes a `/v3` call, resolved once by `resolveActor`: the app's own backend (`server`: a
 * fullAccess `apikey`, acting for the `onBehalfOf` user when it names one) or a user's client
 * (`client`: the session of its `authToken`; no session yet for a login and `GET /v3/settings`).
 */
export interface Actor {
  app: App;
  kind: 'server' | 'client';
  /** The user the call acts as: the `onBehalfOf` UID (server) or the session's user (client). */
  uid: string | undefined;
  /**
   * Where what the call causes comes from: the acting user and, for a client, its device (the
   * SDK's `resource` header), which the frames it causes are stamped with. The server has no device.
   */
  origin: EventOrigin;
  /** The client's session token; `undefined` for the server and before a login. */
  authToken: string | undefined;
}

export interface ChatEnv {
  Variables: { actor: Actor };
}

export type ChatContext = Context<ChatEnv>;
