import type { FormSubmissions } from '../forms/submissions.js';
import type { ChatServices } from '../services/registry.js';
import type { ClientSettingsRepository } from './client-settings.js';
import type { ReadStateRepository } from './read-state.js';
import type { SocketTokens } from './socket-token.js';

/** What the client API works with besides the chat services. */
export interface ClientApiDeps {
  services: ChatServices;
  clientSettings: ClientSettingsRepository;
  readState: ReadStateRepository;
  socketTokens: SocketTokens;
  forms: FormSubmissions;
  /** `host[:port]` clients reach this server at, when it differs from the Host they send. */
  publicHost: string | undefined;
}
