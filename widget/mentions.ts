/** The `@` mention being typed: what follows the `@` before the caret, and where it starts. */
export interface MentionQuery {
  query: string;
  start: number;
}

export interface MentionCandidate {
  uid: string;
  name: string;
  agent: boolean;
}

/** The mention at the caret, if the caret is in a word that starts with `@` (at the start or after a space). */
export function mentionAt(text: string, caret: number): MentionQuery | undefined {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([\w.-]{0,50})$/.exec(before);
  if (!match) return undefined;
  return { query: match[2]!, start: caret - match[2]!.length - 1 };
}

/** Candidates whose UID or any word of whose name starts with the query; agents first. */
export function matchCandidates(
  candidates: readonly MentionCandidate[],
  query: string,
  limit = 8,
): MentionCandidate[] {
  const q = query.toLowerCase();
  return candidates
    .filter(
      (c) =>
        c.uid.toLowerCase().startsWith(q) ||
        c.name
          .toLowerCase()
          .split(/\s+/)
          .some((word) => word.startsWith(q)),
    )
    .sort((a, b) => Number(b.agent) - Number(a.agent) || a.name.localeCompare(b.name))
    .slice(0, limit);
}

/** The text with the mention replaced by `@uid `, and where the caret goes after it. */
export function insertMention(
  text: string,
  mention: MentionQuery,
  caret: number,
  uid: string,
): { text: string; caret: number } {
  const inserted = `@${uid} `;
  return {
    text: text.slice(0, mention.start) + inserted + text.slice(caret),
    caret: mention.start + inserted.length,
  };
}
