import type { ClientSettingsRepository } from '../repositories/client-settings.js';
import type { Receipts } from '../client-api/receipts.js';
import type { SocketTokens } from '../client-api/socket-token.js';
import type { FormSubmissions } from '../forms/submissions.js';
import type { ChatServices } from '../services/registry.js';

/** What the `/v3` routes work with: the chat services and the client protocol's parts. */
export interface RouteDeps {
  services: ChatServices;
  /** The app's settings for the SDK: upload caps, apiAction origins. */
  clientSettings: ClientSettingsRepository;
  receipts: Receipts;
  socketTokens: SocketTokens;
  forms: FormSubmissions;
  /** `host[:port]` clients reach this server at, when it differs from the Host they send. */
  publicHost: string | undefined;
}
