/**
 * Which reverse proxies the API believes about the client's address (Fastify `trustProxy`).
 *
 * TRUST_PROXY_HOPS proxies in front of the API each append the address they saw to
 * X-Forwarded-For; the client is the address that many hops back. Fastify 5.12 refuses a bare
 * hop count (a client that reaches the API directly could then forge the header), so a hop is
 * believed only when the peer that sent it is in TRUST_PROXY_ADDRESSES (IP/CIDR list or the
 * named ranges loopback, linklocal, uniquelocal; default: all three private ranges, which a
 * client on the internet cannot connect from). Addresses a client puts further back in the
 * header are never read.
 */
import proxyAddr from '@fastify/proxy-addr';

export interface TrustedProxies {
  /** Proxies in front of the API; 0: clients connect directly. */
  hops: number;
  /** Where those proxies connect from (IP, CIDR, or loopback / linklocal / uniquelocal). */
  addresses: readonly string[];
}

/** Default TRUST_PROXY_ADDRESSES: private networks, where proxies live and internet clients cannot. */
export const PRIVATE_NETWORKS: readonly string[] = ['loopback', 'linklocal', 'uniquelocal'];

/** Fastify's `trustProxy`: false without proxies, else a hop-limited, address-checked trust function. */
export function trustProxyOption(
  proxies: TrustedProxies | undefined,
): false | ((address: string, hop: number) => boolean) {
  if (!proxies || proxies.hops === 0) return false;
  const isProxyAddress = proxyAddr.compile([...proxies.addresses]);
  // hop 0 is the connection's peer, hop 1 the last X-Forwarded-For entry, and so on.
  return (address, hop) => hop < proxies.hops && isProxyAddress(address, hop);
}
