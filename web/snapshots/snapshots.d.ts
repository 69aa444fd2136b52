// Types of the snapshot stores (hand-written). web/index.d.ts re-exports them.
import type { Snapshot } from '../index.js';
import type { IndexedDbFactoryLike, StorageLike } from '../storage/storage.js';

// ---------------------------------------------------------------------------------------------
// Snapshot stores

/** A stored snapshot; `savedAt` is epoch milliseconds; `etag` the service's ETag for it. */
export interface StoredSnapshot {
  snapshot: Snapshot;
  savedAt: number;
  etag?: string;
}

/** Where HybridQualifier keeps snapshots; every method may be synchronous or return a Promise. */
export interface SnapshotStore {
  load(key: string): StoredSnapshot | null | undefined | Promise<StoredSnapshot | null | undefined>;
  save(key: string, entry: StoredSnapshot): void | Promise<void>;
  remove(key: string): void | Promise<void>;
  readonly kind?: string;
}

export interface IndexedDbSnapshotStore extends SnapshotStore {
  /** Closes the database connection; it reopens on the next use. */
  close(): Promise<void>;
}

export interface FileSnapshotStore extends SnapshotStore {
  readonly directory: string;
}

/** In memory only: nothing survives the process (HybridQualifier's default). */
export function memorySnapshotStore(): SnapshotStore;
/** Web Storage (default globalThis.localStorage), one JSON string per key under `prefix`. */
export function localStorageSnapshotStore(options?: { storage?: StorageLike; prefix?: string }): SnapshotStore;
/** IndexedDB (default database "loyalty-qualifier", object store "snapshots"). */
export function indexedDbSnapshotStore(options?: {
  indexedDB?: IndexedDbFactoryLike;
  databaseName?: string;
  storeName?: string;
}): IndexedDbSnapshotStore;
/** Node: one JSON file per key in `directory`, written to a temporary file, synced, renamed (the directory synced too); node:fs is loaded on first use. */
export function fileSnapshotStore(options: { directory: string }): FileSnapshotStore;
/** IndexedDB, else localStorage, else (Node) files under ~/.cache/loyalty-qualifier, else memory. */
export function defaultSnapshotStore(options?: { directory?: string }): SnapshotStore;
