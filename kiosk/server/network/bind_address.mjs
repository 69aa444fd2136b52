// What the kiosk server's bind address reaches: this machine only (a loopback address) or the
// network (any other address; a wildcard, 0.0.0.0 or ::, is every address of the machine).
import net from 'node:net';
import os from 'node:os';

/** An address without the brackets of an IPv6 literal, lower case. */
function bare(address) {
  return String(address).replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

/** True for `localhost`, 127.0.0.0/8 and ::1 (also IPv4-mapped): reachable from this machine only. */
export function isLoopback(address) {
  const text = bare(address);
  if (text === 'localhost') return true;
  const v4 = text.startsWith('::ffff:') && net.isIPv4(text.slice(7)) ? text.slice(7) : text;
  if (net.isIPv4(v4)) return v4.split('.')[0] === '127';
  return net.isIPv6(text) && new URL(`http://[${text}]`).hostname === '[::1]';
}

/** True for 0.0.0.0 and ::, which bind every address of the machine. */
export function isWildcard(address) {
  const text = bare(address);
  return text === '0.0.0.0' || (net.isIPv6(text) && new URL(`http://[${text}]`).hostname === '[::]');
}

/** The addresses a server bound to `address` is reached at: the machine's own for a wildcard. */
export function reachableAddresses(address) {
  if (!isWildcard(address)) return [address];
  const mine = Object.values(os.networkInterfaces()).flat().map((each) => each.address);
  return [address, ...mine];
}
