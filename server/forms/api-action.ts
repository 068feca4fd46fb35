import type { ApiAction } from '../../shared/interactive.js';
import type { FormValues } from '../../shared/interactive-values.js';

/** Where the form's values go in the action's payload when the button names no `dataKey`. */
export const DEFAULT_DATA_KEY = 'CometChatData';

export interface ActionResult {
  /** `completed` when the receiver answered 2xx. */
  status: 'completed' | 'failed';
  httpStatus?: number;
}

/**
 * Performs a button's apiAction from the server, with the headers as stored (their secret values
 * never reach a client) and the form's values at `dataKey`. Redirects are not followed: they could
 * lead to an origin the app did not allow. The receiver's answer body is not passed on.
 */
export async function performApiAction(
  action: ApiAction,
  values: FormValues,
  options: { timeoutMs: number; fetch?: typeof fetch },
): Promise<ActionResult> {
  const method = action.method.toUpperCase();
  const headers = new Headers(action.headers ?? {});
  const withBody = method !== 'GET';
  if (withBody && !headers.has('content-type')) headers.set('content-type', 'application/json');
  const body = withBody
    ? JSON.stringify({ ...(action.payload ?? {}), [action.dataKey ?? DEFAULT_DATA_KEY]: values })
    : undefined;
  try {
    const response = await (options.fetch ?? fetch)(action.url, {
      method,
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    await response.body?.cancel();
    return { status: response.ok ? 'completed' : 'failed', httpStatus: response.status };
  } catch {
    return { status: 'failed' };
  }
}
