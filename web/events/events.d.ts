// Types of the events the package's qualifiers dispatch (web/events/qualifier_events.js;
// docs/reference.md#events). Written without the DOM's Event types, so that they compile with
// lib ES2022 alone as with DOM or WebWorker: each event has the fields a listener reads.
import type { CheckoutOutcome, PendingOrder } from '../offline/orders/orders.js';

/** Why the snapshot a qualifier answers from changed (SnapshotChangeEvent.reason). */
export type SnapshotChangeReason = 'load' | 'refresh' | 'holds' | 'set';

/**
 * 'snapshotchange': what the local answers rest on changed; an answer given before may differ now.
 * `reason`: 'load' (a snapshot loaded where none was in hand: the first, or another guest's),
 * 'refresh' (a refresh brought a changed one), 'holds' (the guest's orders or the store hub's
 * claims changed what is taken off it), 'set' (setSnapshot() of a Qualifier or worker qualifier).
 */
export declare class SnapshotChangeEvent {
  constructor(reason: SnapshotChangeReason);
  readonly type: 'snapshotchange';
  readonly reason: SnapshotChangeReason;
  readonly timeStamp: number;
}

/** 'ordersettled': the service decided a pending order (also on replays); as onOrderSettled is told. */
export declare class OrderSettledEvent {
  constructor(order: PendingOrder, outcome: CheckoutOutcome);
  readonly type: 'ordersettled';
  readonly order: PendingOrder;
  readonly outcome: CheckoutOutcome;
  readonly timeStamp: number;
}

/**
 * 'hubreachabilitychange': a call found the store hub answering after it did not, or not
 * answering (no answer within hub.timeoutMs, or a 5xx: `message` says which) after it did; the
 * first call too.
 */
export declare class HubReachabilityEvent {
  constructor(reachable: boolean, message: string | null);
  readonly type: 'hubreachabilitychange';
  readonly reachable: boolean;
  readonly message: string | null;
  readonly timeStamp: number;
}

/** The events of a Qualifier and of a worker qualifier. */
export interface QualifierEventMap {
  snapshotchange: SnapshotChangeEvent;
}

/** The events of a HybridQualifier. */
export interface HybridQualifierEventMap extends QualifierEventMap {
  ordersettled: OrderSettledEvent;
  hubreachabilitychange: HubReachabilityEvent;
}

/** A listener: a function or an object with handleEvent(). */
export type QualifierEventListener<E> = ((event: E) => void) | { handleEvent(event: E): void };

/** addEventListener's options, as the platform takes them. */
export interface QualifierListenerOptions {
  once?: boolean;
  passive?: boolean;
  capture?: boolean;
  /** Removes the listener when it aborts. */
  signal?: AbortSignal;
}

/** The EventTarget methods of a qualifier, typed by its event map `M`. */
export interface QualifierEvents<M> {
  addEventListener<K extends keyof M & string>(
    type: K,
    listener: QualifierEventListener<M[K]> | null,
    options?: boolean | QualifierListenerOptions,
  ): void;
  removeEventListener<K extends keyof M & string>(
    type: K,
    listener: QualifierEventListener<M[K]> | null,
    options?: boolean | { capture?: boolean },
  ): void;
  dispatchEvent(event: { readonly type: string }): boolean;
}
