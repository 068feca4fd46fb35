/**
 * Which hosts a URL source may reach. A host name is resolved here, every address it resolves to
 * must be a public unicast address (IPv4-mapped IPv6 is judged as the IPv4 it carries), and the
 * connection then goes to exactly those checked addresses, so a second DNS answer cannot swap in
 * an internal one. Loopback, private, link-local (cloud metadata at 169.254.169.254), unique-local,
 * carrier-grade NAT and the other special ranges are refused unless private networks are allowed.
 */
import { lookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { SourceError } from './errors.js';

/** The range name ipaddr.js gives an address, e.g. `loopback`, `private`, `linkLocal`, `unicast`. */
export function addressRange(address: string): string {
  return ipaddr.process(address).range();
}

export function isPublicAddress(address: string): boolean {
  return ipaddr.isValid(address) && addressRange(address) === 'unicast';
}

/** Resolves `hostname` (a name or an IP literal, IPv6 with or without brackets) and checks every address. */
export async function resolveAllowedAddresses(
  hostname: string,
  allowPrivateNetwork: boolean,
): Promise<LookupAddress[]> {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: LookupAddress[];
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch {
    throw new SourceError(`host not found: ${host}`);
  }
  if (addresses.length === 0) throw new SourceError(`host not found: ${host}`);
  if (!allowPrivateNetwork) {
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) {
      const what = `a ${describeRange(refused.address)} address`;
      const where = ipaddr.isValid(host)
        ? `${host} is ${what}`
        : `${host} resolves to ${what} (${refused.address})`;
      throw new SourceError(`refused: ${where}; private networks are not allowed`);
    }
  }
  return addresses;
}

/** A `lookup` for http.request that answers only with addresses already checked. */
export function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const requested = typeof options === 'object' ? options.family : undefined;
    const family = requested === 'IPv4' ? 4 : requested === 'IPv6' ? 6 : requested;
    const matching = addresses.filter((a) => !family || a.family === family);
    const first = matching[0];
    if (!first) {
      callback(
        Object.assign(new Error('no checked address of the requested family'), { code: 'ENOTFOUND' }),
        '',
        0,
      );
      return;
    }
    if (typeof options === 'object' && options.all) {
      (callback as (error: null, addresses: LookupAddress[]) => void)(null, matching);
      return;
    }
    callback(null, first.address, first.family);
  };
}

function describeRange(address: string): string {
  const range = addressRange(address);
  const names: Record<string, string> = {
    loopback: 'loopback',
    private: 'private',
    uniqueLocal: 'private (unique local)',
    linkLocal: 'link-local or metadata',
    carrierGradeNat: 'carrier-grade NAT',
    unspecified: 'unspecified',
  };
  return names[range] ?? `reserved (${range})`;
}
