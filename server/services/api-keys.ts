import type { ApiKeyScope } from '../../shared/api-keys.js';
import type { ApiKeyInfo, AppRepository } from '../repositories/apps.js';

/**
 * The app's API keys (`/apikeys`), kept as their hashes: a new key is answered once, in full; the
 * app's last `fullAccess` key can be neither revoked nor narrowed (checked in the change's
 * transaction); a revoked key is refused by every process at its next request.
 */
export class ApiKeyService {
  constructor(private readonly apps: AppRepository) {}

  create(appId: string, name: string, scope: ApiKeyScope): Promise<ApiKeyInfo & { apiKey: string }> {
    return this.apps.createKey(appId, name, scope);
  }

  list(appId: string, filter: { scope?: ApiKeyScope; searchKey?: string }): Promise<ApiKeyInfo[]> {
    return this.apps.listKeys(appId, filter);
  }

  /** A key named by itself or by its id. */
  get(appId: string, apiKey: string): Promise<ApiKeyInfo> {
    return this.apps.findKey(appId, apiKey);
  }

  update(
    appId: string,
    apiKey: string,
    change: { name?: string | undefined; scope?: ApiKeyScope | undefined },
  ): Promise<ApiKeyInfo> {
    return this.apps.updateKey(appId, apiKey, change);
  }

  /** Revokes a key; answers what it was. */
  revoke(appId: string, apiKey: string): Promise<ApiKeyInfo> {
    return this.apps.deleteKey(appId, apiKey);
  }
}
