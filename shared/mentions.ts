/**
 * How chat text mentions someone: CometChat's rich-text forms `<@uid:alice>` and `<@all:all>`, and
 * a plain `@name`. The chat service's notifications and agent bridge and the knowledge agent all
 * read mentions with these.
 */

/** CometChat's mention of one user; the UID is group 1. Global: use it with `matchAll` or `replace`. */
export const USER_MENTION = /<@uid:([A-Za-z0-9_-]{1,100})>/g;

/** CometChat's mention of everyone in a group. */
export const ALL_MENTION = '<@all:all>';

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A mention of one of `uids` in CometChat's form `<@uid:…>`, or of one of `names` as `@name`, a
 * whole word (so `@agents` or `me@agent.io` do not count). Case-insensitive and global.
 */
export function mentionPattern(uids: readonly string[], names: readonly string[]): RegExp {
  const uidAlternatives = uids.map(escape).join('|');
  const nameAlternatives = names.map(escape).join('|');
  return new RegExp(`<@uid:(?:${uidAlternatives})>|(?<![\\w@.])@(?:${nameAlternatives})(?![\\w-])`, 'giu');
}

/** The UIDs `text` mentions in CometChat's form `<@uid:…>`, lower-cased, each once, in order of appearance. */
export function mentionedUids(text: string): string[] {
  // Most texts mention nobody: they are not scanned with the pattern.
  if (!text.includes('<@uid:')) return [];
  const uids = new Set<string>();
  for (const match of text.matchAll(USER_MENTION))
    if (match[1] !== undefined) uids.add(match[1].toLowerCase());
  return [...uids];
}
