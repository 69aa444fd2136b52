// Fairness between the kiosk server's clients (peers, told apart by their remote address): each may
// hold at most PEER_LIMITS.connections open connections (more are closed at once) and have at most
// PEER_LIMITS.apiRequests /api requests in progress (more are answered 429), and all peers together
// at most PEER_LIMITS.apiRequestsInAll (more: 503). So one client that opens hundreds of slow
// uploads takes its own share, never the service's every connection: the others are still served.
// docs/kiosk.md ("The server's limits") lists every limit.

export const PEER_LIMITS = {
  /** Open connections per peer (a browser opens at most 6 per origin). */
  connections: 64,
  /** /api requests in progress per peer, body upload included. */
  apiRequests: 16,
  /** /api requests in progress from all peers: well under the service's own 256 connections. */
  apiRequestsInAll: 64,
};

/** The peer a socket belongs to: its remote address (an IPv4-mapped IPv6 one as IPv4). */
export function peerOf(socket) {
  const address = socket.remoteAddress ?? '';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/** Closes, as soon as it is accepted, every connection of a peer beyond `max` open ones. */
export function capConnectionsPerPeer(server, max = PEER_LIMITS.connections) {
  const open = new Map();
  server.on('connection', (socket) => {
    const peer = peerOf(socket);
    const count = (open.get(peer) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(peer, count);
    socket.once('close', () => {
      const left = open.get(peer) - 1;
      if (left === 0) open.delete(peer);
      else open.set(peer, left);
    });
  });
}

/**
 * Counts requests in progress per peer and in all. enter(peer) answers { release } (call it once
 * the request is over; again is harmless) or, when a limit is reached, { refused: 'peer' | 'all' }.
 */
export function createRequestGate({ perPeer = PEER_LIMITS.apiRequests, inAll = PEER_LIMITS.apiRequestsInAll } = {}) {
  const inProgress = new Map();
  let total = 0;
  return {
    perPeer,
    inAll,
    enter(peer) {
      const mine = inProgress.get(peer) ?? 0;
      if (mine >= perPeer) return { refused: 'peer' };
      if (total >= inAll) return { refused: 'all' };
      inProgress.set(peer, mine + 1);
      total += 1;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        total -= 1;
        const left = inProgress.get(peer) - 1;
        if (left === 0) inProgress.delete(peer);
        else inProgress.set(peer, left);
      };
      return { release };
    },
  };
}
