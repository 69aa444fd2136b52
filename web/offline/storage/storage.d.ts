// Types of what the device's storage must offer the stores and outboxes (hand-written).
// web/index.d.ts re-exports them.

/** The Web Storage methods the localStorage store uses. */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The IndexedDB factory the IndexedDB store uses (globalThis.indexedDB). */
export interface IndexedDbFactoryLike {
  open(name: string, version?: number): unknown;
}
