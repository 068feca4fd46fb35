/**
 * Mastra clients send `messages` in several shapes: a string, an array of strings, or turns whose
 * `content` is a list of parts (`[{type: 'text', text}]`, AI SDK style), including `tool` turns.
 * This turns them into the plain `{role, content}` turns of GenerateRequest before validation;
 * anything else is left as it is for the schema to reject with a clear message.
 */
export function normalizeMastraMessages(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || !('messages' in body)) return body;
  const { messages } = body;
  if (typeof messages === 'string') return { ...body, messages: [{ role: 'user', content: messages }] };
  if (!Array.isArray(messages)) return body;
  const turns = messages.flatMap((message: unknown) => {
    if (typeof message === 'string') return [{ role: 'user', content: message }];
    if (typeof message !== 'object' || message === null) return [message];
    const turn = message as { role?: unknown; content?: unknown };
    if (turn.role === 'tool') return [];
    if (Array.isArray(turn.content)) return [{ ...turn, content: textOfParts(turn.content) }];
    return [message];
  });
  return { ...body, messages: turns };
}

function textOfParts(parts: unknown[]): string {
  return parts
    .map((part) =>
      typeof part === 'string'
        ? part
        : typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'text'
          ? String((part as { text?: unknown }).text ?? '')
          : '',
    )
    .filter(Boolean)
    .join('\n');
}
