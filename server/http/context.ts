import type { Context } from 'hono';
import type { App } from '../repositories/apps.js';

/** What the middleware puts on every authenticated `/v3` request. */
export interface ChatEnv {
  Variables: { app: App };
}

export type ChatContext = Context<ChatEnv>;
