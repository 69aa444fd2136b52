// The Host names the kiosk server answers for. A page on another site can make a browser send it
// requests under the attacker's own name (DNS rebinding: evil.example resolved to 127.0.0.1), and
// read the answers as same-origin; such a request names evil.example in its Host header, so the
// server answers only the names it is reached by: its bound address (every address of the machine
// when bound to a wildcard), `localhost`, and the names given with --allow-host.
import net from 'node:net';

import { reachableAddresses } from './bind_address.mjs';

// A host and an optional port, nothing else: no user info, path or zone id.
const HOST_SYNTAX = /^(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(:\d{1,5})?$/i;

/**
 * The host part of a Host header value in canonical form (lower case, an IPv6 literal in brackets
 * and compressed, an IPv4 address in dotted decimal, no trailing dot), or null when it is not a
 * host with an optional port.
 */
export function hostName(text) {
  if (typeof text !== 'string') return null;
  const value = text.trim();
  if (!HOST_SYNTAX.test(value)) return null;
  let hostname;
  try {
    hostname = new URL(`http://${value}/`).hostname;
  } catch {
    return null;
  }
  return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
}

/** A name or an address (an IPv6 one with or without brackets) as hostName() gives it, or null. */
export function canonicalName(name) {
  return hostName(net.isIPv6(name) ? `[${name}]` : name);
}

/** The allowlist of a server bound to `boundAddress`, with `extraNames` (--allow-host) added. */
export function createHostAllowlist(boundAddress, extraNames = []) {
  const names = new Set(['localhost']);
  for (const name of [...reachableAddresses(boundAddress), ...extraNames]) {
    const canonical = canonicalName(name);
    if (canonical !== null) names.add(canonical);
  }
  return {
    names: [...names],
    /** True when the request's Host header (host, optional port) names this server. */
    allows(hostHeader) {
      const name = hostName(hostHeader);
      return name !== null && names.has(name);
    },
  };
}
