import { z } from 'zod';
import { ChatErrorEnvelope } from './errors.js';
import {
  GroupMember,
  type AddMembersRequest as AddMembers,
  type CreateGroupRequest as CreateGroup,
  type UpdateGroupRequest as UpdateGroup,
} from './groups.js';
import { requestJson, type Fetch, type JsonRequest, type QueryValue } from './http.js';
import {
  GroupEntity,
  MessageEnvelope,
  UserEntity,
  dataEnvelope,
  type Message,
  type MessageRequest,
} from './message.js';
import {
  NotificationSettings,
  type NotificationSettingsPatch,
  type NotificationSettings as Settings,
} from './notification-settings.js';
import {
  AuthToken,
  CreatedUser,
  SuccessEnvelope,
  pageEnvelope,
  type CreateUserRequest,
  type ListUsersQuery,
  type UpdateUserRequest,
} from './users.js';

export interface ChatAppLocation {
  appId: string;
  region: string;
  /** A Parley chat service, e.g. `http://localhost:4000`; overrides the host derived from app id and region. */
  host?: string;
}

export interface ChatServerClientOptions extends ChatAppLocation {
  /** A REST API key with fullAccess scope. Sent as the `apikey` header, never logged. */
  apiKey: string;
  fetch?: Fetch;
}

/** `https://<appId>.api-<region>.cometchat.io/v3`, or `<host>/v3` when a host is given. */
export function chatApiBaseUrl({ appId, region, host }: ChatAppLocation): string {
  if (host !== undefined) return `${host.replace(/\/+$/, '')}/v3`;
  return `https://${encodeURIComponent(appId)}.api-${encodeURIComponent(region)}.cometchat.io/v3`;
}

/** An error answered by the chat service, with CometChat's `code` (`ERR_UID_NOT_FOUND`, …). */
export class ChatApiError extends Error {
  override readonly name = 'ChatApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

function toChatError(status: number, body: unknown): ChatApiError {
  const parsed = ChatErrorEnvelope.safeParse(body);
  if (!parsed.success)
    return new ChatApiError(status, 'ERR_BAD_ERROR_RESPONSE', `chat service answered HTTP ${status}`);
  const { code, message, details } = parsed.data.error;
  return new ChatApiError(status, code, message, details);
}

const UserEnvelope = dataEnvelope(UserEntity);
const CreatedUserEnvelope = dataEnvelope(CreatedUser);
const UserPage = pageEnvelope(UserEntity);
const AuthTokenEnvelope = dataEnvelope(AuthToken);
const AuthTokenPage = pageEnvelope(AuthToken);
const GroupEnvelope = dataEnvelope(GroupEntity);
const GroupPage = pageEnvelope(GroupEntity);
const MemberPage = pageEnvelope(GroupMember);
const SettingsEnvelope = dataEnvelope(NotificationSettings);
const AddedMembersEnvelope = dataEnvelope(z.record(z.string(), z.record(z.string(), z.unknown())));

export interface PageQuery {
  page?: number;
  perPage?: number;
}

const path = (...segments: string[]) => segments.map((s) => `/${encodeURIComponent(s)}`).join('');

/**
 * Typed client of the chat service's server REST API (CometChat v3): works against Parley and,
 * with only the host changed, against CometChat itself. Requests are typed by the shared schemas
 * (the service validates them); answers are validated against the response schemas on arrival.
 */
export class ChatServerClient {
  readonly baseUrl: string;
  readonly #appId: string;
  readonly #apiKey: string;
  readonly #fetch: Fetch;

  constructor(options: ChatServerClientOptions) {
    this.baseUrl = chatApiBaseUrl(options);
    this.#appId = options.appId;
    this.#apiKey = options.apiKey;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  // Messages (service interface A1, A2)
  async createMessage(onBehalfOf: string, message: MessageRequest): Promise<Message> {
    const body = { method: 'POST', path: '/messages', body: message, schema: MessageEnvelope } as const;
    return (await this.#send({ ...body, headers: { onBehalfOf } })).data;
  }

  async sendBotMessage(botUid: string, message: MessageRequest): Promise<Message> {
    const request = { method: 'POST', path: `/bots${path(botUid)}/messages`, body: message } as const;
    return (await this.#send({ ...request, schema: MessageEnvelope })).data;
  }

  // Notification settings (A3, A4, A5)
  async getNotificationSettings(): Promise<Settings> {
    return (await this.#send({ method: 'GET', path: '/notifications/v1/settings', schema: SettingsEnvelope }))
      .data;
  }

  async updateNotificationSettings(patch: NotificationSettingsPatch): Promise<boolean> {
    const request = { method: 'PATCH', path: '/notifications/v1/settings', body: patch } as const;
    return (await this.#send({ ...request, schema: SuccessEnvelope })).data.success;
  }

  async resetNotificationSettings(): Promise<boolean> {
    const request = { method: 'DELETE', path: '/notifications/v1/settings' } as const;
    return (await this.#send({ ...request, schema: SuccessEnvelope })).data.success;
  }

  // Users
  async createUser(user: CreateUserRequest): Promise<CreatedUser> {
    return (await this.#send({ method: 'POST', path: '/users', body: user, schema: CreatedUserEnvelope }))
      .data;
  }

  listUsers(query: ListUsersQuery = {}): Promise<z.infer<typeof UserPage>> {
    return this.#send({ method: 'GET', path: '/users', query: { ...query }, schema: UserPage });
  }

  async getUser(uid: string): Promise<UserEntity> {
    return (await this.#send({ method: 'GET', path: `/users${path(uid)}`, schema: UserEnvelope })).data;
  }

  async updateUser(uid: string, changes: UpdateUserRequest): Promise<UserEntity> {
    const request = { method: 'PUT', path: `/users${path(uid)}`, body: changes } as const;
    return (await this.#send({ ...request, schema: UserEnvelope })).data;
  }

  async deleteUser(uid: string, options: { permanent?: boolean } = {}): Promise<boolean> {
    const request = { method: 'DELETE', path: `/users${path(uid)}`, body: options } as const;
    return (await this.#send({ ...request, schema: SuccessEnvelope })).data.success;
  }

  // Auth tokens
  async createAuthToken(uid: string, options: { force?: boolean } = {}): Promise<AuthToken> {
    const request = { method: 'POST', path: `/users${path(uid)}/auth_tokens`, body: options } as const;
    return (await this.#send({ ...request, schema: AuthTokenEnvelope })).data;
  }

  listAuthTokens(uid: string, query: PageQuery = {}): Promise<z.infer<typeof AuthTokenPage>> {
    const request = { method: 'GET', path: `/users${path(uid)}/auth_tokens`, query: { ...query } } as const;
    return this.#send({ ...request, schema: AuthTokenPage });
  }

  async deleteAuthToken(uid: string, authToken: string): Promise<boolean> {
    const request = { method: 'DELETE', path: `/users${path(uid)}/auth_tokens${path(authToken)}` } as const;
    return (await this.#send({ ...request, schema: SuccessEnvelope })).data.success;
  }

  // Groups and members
  async createGroup(group: CreateGroup): Promise<GroupEntity> {
    return (await this.#send({ method: 'POST', path: '/groups', body: group, schema: GroupEnvelope })).data;
  }

  listGroups(query: PageQuery & { searchKey?: string } = {}): Promise<z.infer<typeof GroupPage>> {
    return this.#send({ method: 'GET', path: '/groups', query: { ...query }, schema: GroupPage });
  }

  async getGroup(guid: string): Promise<GroupEntity> {
    return (await this.#send({ method: 'GET', path: `/groups${path(guid)}`, schema: GroupEnvelope })).data;
  }

  async updateGroup(guid: string, changes: UpdateGroup): Promise<GroupEntity> {
    const request = { method: 'PUT', path: `/groups${path(guid)}`, body: changes } as const;
    return (await this.#send({ ...request, schema: GroupEnvelope })).data;
  }

  async deleteGroup(guid: string): Promise<boolean> {
    const request = { method: 'DELETE', path: `/groups${path(guid)}` } as const;
    return (await this.#send({ ...request, schema: SuccessEnvelope })).data.success;
  }

  /** Adds members by scope; the answer reports each UID's outcome under its scope. */
  async addMembers(guid: string, members: AddMembers): Promise<Record<string, Record<string, unknown>>> {
    const request = { method: 'POST', path: `/groups${path(guid)}/members`, body: members } as const;
    return (await this.#send({ ...request, schema: AddedMembersEnvelope })).data;
  }

  listMembers(guid: string, query: PageQuery = {}): Promise<z.infer<typeof MemberPage>> {
    const request = { method: 'GET', path: `/groups${path(guid)}/members`, query: { ...query } } as const;
    return this.#send({ ...request, schema: MemberPage });
  }

  async removeMember(guid: string, uid: string): Promise<boolean> {
    const request = { method: 'DELETE', path: `/groups${path(guid)}/members${path(uid)}` } as const;
    return (await this.#send({ ...request, schema: SuccessEnvelope })).data.success;
  }

  #send<T>(request: JsonRequest<T> & { query?: Record<string, QueryValue> }): Promise<T> {
    const headers = { ...request.headers, apikey: this.#apiKey, appid: this.#appId };
    return requestJson(this.#fetch, this.baseUrl, { ...request, headers }, toChatError);
  }
}
