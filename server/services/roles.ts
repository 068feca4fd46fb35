import type { CreateRoleRequest, Role, UpdateRoleRequest } from '../../shared/roles.js';
import type { RoleRepository } from '../repositories/roles.js';

/**
 * The app's roles (`/roles`): the built-in ones (`default`, the role of users created without one,
 * `@agentic` and `agent`, which the agent registry gives its agents) cannot be deleted, nor can a
 * role some user has (checked with the role's row locked, in the delete's transaction).
 */
export class RoleService {
  constructor(private readonly roles: RoleRepository) {}

  create(appId: string, request: CreateRoleRequest): Promise<Role> {
    return this.roles.create(appId, request);
  }

  list(appId: string, page: number, perPage: number): Promise<{ rows: Role[]; total: number }> {
    return this.roles.list(appId, page, perPage);
  }

  get(appId: string, role: string): Promise<Role> {
    return this.roles.get(appId, role);
  }

  update(appId: string, role: string, changes: UpdateRoleRequest): Promise<Role> {
    return this.roles.update(appId, role, changes);
  }

  delete(appId: string, role: string): Promise<void> {
    return this.roles.delete(appId, role);
  }
}
