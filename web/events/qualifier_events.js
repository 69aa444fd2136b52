// The events the package's qualifiers dispatch (docs/reference.md#events). Each is an Event of
// its own class with its facts as read-only fields; listeners get the object as dispatched.

const fields = (event, values) => {
  for (const [name, value] of Object.entries(values)) Object.defineProperty(event, name, { value, enumerable: true });
  return event;
};

/**
 * 'snapshotchange': what the local answers rest on changed, so an answer given before may now
 * differ. reason: 'load' (a snapshot was loaded where none was in hand: the first, or another
 * guest's), 'refresh' (a refresh brought a changed one), 'holds' (what the guest has promised
 * away changed: their orders, the store hub's claims), 'set' (setSnapshot()).
 */
export class SnapshotChangeEvent extends Event {
  constructor(reason) {
    super('snapshotchange');
    fields(this, { reason });
  }
}

/** 'ordersettled': the service decided a pending order; { order, outcome } as onOrderSettled gets them. */
export class OrderSettledEvent extends Event {
  constructor(order, outcome) {
    super('ordersettled');
    fields(this, { order, outcome });
  }
}

/**
 * 'hubreachabilitychange': the store hub answered after it had not (reachable: true), or stopped
 * answering (false: no answer within hub.timeoutMs, or a 5xx; `message` says which), the first
 * call included.
 */
export class HubReachabilityEvent extends Event {
  constructor(reachable, message) {
    super('hubreachabilitychange');
    fields(this, { reachable, message });
  }
}
