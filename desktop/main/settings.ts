import { readFile, rename } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { isIP } from 'node:net';
import { z } from 'zod';
import { Namespace } from '../../shared/agent.js';
import { ChatConnectionSettings } from '../../shared/chat-connection.js';
import { issuePath } from '../../shared/errors.js';
import type { SettingsChange } from '../bridge.js';
import { writePrivateFile } from './file-write.js';

const HttpUrl = z.string().refine((value) => /^https?:\/\/[^\s/]+/i.test(value), 'must be an http(s) URL');

const Origin = z
  .string()
  .refine(
    (value) => /^https?:\/\/[^\s/]+$/i.test(value.replace(/\/+$/, '')),
    'must be an origin such as https://chat.example.com',
  );

const BindAddress = z
  .string()
  .trim()
  .refine(
    (value) => value === 'localhost' || isIP(value) !== 0,
    'must be an IP address such as 127.0.0.1, or localhost',
  );

const WatchedFolderSetting = z.object({
  folder: z.string().refine(isAbsolute, 'must be an absolute folder path'),
  namespace: Namespace,
});

/** The desktop app's settings file; secrets are kept apart, in the secret store. */
export const DesktopSettings = z.object({
  port: z.number().int().min(1).max(65_535).default(4111),
  host: BindAddress.default('127.0.0.1'),
  corsOrigins: z.array(Origin).default([]),
  allowPrivateNetwork: z.boolean().default(false),
  languageModel: z
    .object({ baseUrl: HttpUrl, model: z.string().trim().min(1) })
    .nullable()
    .default(null),
  watchedFolders: z.array(WatchedFolderSetting).default([]),
  /** The chat service the Chats section connects to; its auth key or token is in the secret store. */
  chat: ChatConnectionSettings.nullable().default(null),
  /** Chats was filled from the local demo once; the app never fills it again by itself. */
  chatDemoUsed: z.boolean().default(false),
  /** The user agreed to keep secrets in plain text where the OS offers no encryption. */
  plainSecretsAllowed: z.boolean().default(false),
});
export type DesktopSettings = z.infer<typeof DesktopSettings>;

/** A settings change as the window sends it; checked here because it crosses from the window. */
export const SettingsChangeInput = z
  .object({
    port: DesktopSettings.shape.port.unwrap(),
    host: BindAddress,
    corsOrigins: DesktopSettings.shape.corsOrigins.unwrap(),
    allowPrivateNetwork: z.boolean(),
    languageModel: DesktopSettings.shape.languageModel.unwrap(),
    watchedFolders: DesktopSettings.shape.watchedFolders.unwrap(),
    agentApiKey: z.string().trim().min(1, 'must not be empty; remove the key instead').nullable(),
    languageModelKey: z.string().trim().min(1, 'must not be empty; remove the key instead').nullable(),
    chat: DesktopSettings.shape.chat.unwrap(),
    chatAuthKey: z.string().trim().min(1, 'must not be empty; remove the key instead').nullable(),
    chatAuthToken: z.string().trim().min(1, 'must not be empty; remove the token instead').nullable(),
    plainSecretsAllowed: z.boolean(),
  })
  .partial()
  .strict() satisfies z.ZodType<SettingsChange>;

export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

function parseOrExplain<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new SettingsError(`${issuePath(issue?.path ?? [])}: ${issue?.message ?? 'invalid'}`);
}

export function defaultSettings(): DesktopSettings {
  return DesktopSettings.parse({});
}

export interface LoadedSettings {
  settings: DesktopSettings;
  /** Why the file was not used, when it could not be read; the app then starts on the defaults. */
  problem?: string;
}

/**
 * Reads the settings. A missing file gives the defaults; a broken one is kept aside as
 * `<file>.invalid` and the defaults are used, so a bad edit never keeps the app from starting.
 */
export async function loadSettings(file: string): Promise<LoadedSettings> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { settings: defaultSettings() };
    throw error;
  }
  try {
    return { settings: parseOrExplain(DesktopSettings, JSON.parse(text)) };
  } catch (error) {
    await rename(file, `${file}.invalid`);
    const why = error instanceof SettingsError ? error.message : 'not valid JSON';
    return {
      settings: defaultSettings(),
      problem: `The settings file could not be read (${why}); the defaults are used and the old file was kept as settings.json.invalid.`,
    };
  }
}

export async function saveSettings(file: string, settings: DesktopSettings): Promise<void> {
  await writePrivateFile(file, `${JSON.stringify(settings, null, 2)}\n`);
}

/** The settings with a change applied; the change is checked first and its first fault named. */
export function applySettingsChange(current: DesktopSettings, change: unknown): DesktopSettings {
  const checked = parseOrExplain(SettingsChangeInput, change);
  const {
    agentApiKey: _agentApiKey,
    languageModelKey: _languageModelKey,
    chatAuthKey: _chatAuthKey,
    chatAuthToken: _chatAuthToken,
    ...plain
  } = checked;
  return parseOrExplain(DesktopSettings, { ...current, ...plain });
}

/** Whether the running agent must restart for the new settings to take effect (Chats is the window's). */
export function agentNeedsRestart(before: DesktopSettings, after: DesktopSettings): boolean {
  const agentPart = ({
    plainSecretsAllowed: _plain,
    chat: _chat,
    chatDemoUsed: _chatDemoUsed,
    ...rest
  }: DesktopSettings) => JSON.stringify(rest);
  return agentPart(before) !== agentPart(after);
}
