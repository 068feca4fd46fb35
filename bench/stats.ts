/** The middle value of a sample (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The chat benches' create-message request: one ordinary text from bench-sender to bench-receiver. */
export const createMessageRequest = (headers: Record<string, string>) => ({
  method: 'POST' as const,
  headers: { ...headers, onBehalfOf: 'bench-sender' },
  body: JSON.stringify({
    receiver: 'bench-receiver',
    receiverType: 'user',
    category: 'message',
    type: 'text',
    data: { text: 'A benchmark message of ordinary length, about sixty characters.' },
  }),
});
