import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/**
 * Which URLs a provider configuration may make the service call. A host must resolve to public
 * unicast addresses only: loopback, private, link-local (cloud metadata), unique-local and the
 * other special ranges are refused unless the app lists the URL's origin among the origins it
 * allows its server to call (`apiActionOrigins` of `/v3/client-settings`, the list form actions
 * use). The check runs when the configuration is saved.
 */

const isPublic = (address: string): boolean =>
  ipaddr.isValid(address) && ipaddr.process(address).range() === 'unicast';

/** Why `url` may not be called, or undefined when it may. */
export async function refusedDestination(
  url: string,
  allowedOrigins: readonly string[],
): Promise<string | undefined> {
  const parsed = new URL(url);
  if (allowedOrigins.includes(parsed.origin)) return undefined;
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const refusal = (what: string) =>
    `${what}: a loopback or private address is refused unless its origin is in the app's apiActionOrigins`;
  if (host === 'localhost' || host.endsWith('.localhost')) return refusal(`${host} is this machine`);
  if (ipaddr.isValid(host)) return isPublic(host) ? undefined : refusal(`${host} is not a public address`);
  let addresses: string[];
  try {
    addresses = (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch {
    return `host not found: ${host}`;
  }
  const inner = addresses.find((address) => !isPublic(address));
  return inner === undefined ? undefined : refusal(`${host} resolves to ${inner}`);
}
