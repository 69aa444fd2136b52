// Types of the snapshot stores (hand-written). web/index.d.ts re-exports them.
import type { Snapshot } from '../../engine/snapshot.js';
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
  /**
   * The keys that start with `prefix`, sorted (the built-in stores have it). A store hub's kept
   * settlements are entries of their own, found this way; a store without it keeps them in the
   * hybrid's memory only (docs/hub.md).
   */
  keys?(prefix: string): string[] | Promise<string[]>;
  readonly kind?: string;
}

/** The built-in stores, which list their keys. */
export interface ListingSnapshotStore extends SnapshotStore {
  keys(prefix: string): string[] | Promise<string[]>;
}

export interface IndexedDbSnapshotStore extends ListingSnapshotStore {
  /** Closes the database connection; it reopens on the next use. */
  close(): Promise<void>;
}

export interface FileSnapshotStore extends ListingSnapshotStore {
  readonly directory: string;
}

/** In memory only: nothing survives the process (HybridQualifier's default). */
export function memorySnapshotStore(): ListingSnapshotStore;
/** Web Storage (default globalThis.localStorage), one JSON string per key under `prefix`. */
export function localStorageSnapshotStore(options?: { storage?: StorageLike; prefix?: string }): ListingSnapshotStore;
/** IndexedDB (default database "loyalty-qualifier", object store "snapshots"). */
export function indexedDbSnapshotStore(options?: {
  indexedDB?: IndexedDbFactoryLike;
  databaseName?: string;
  storeName?: string;
  /** For keys()'s key range; default globalThis.IDBKeyRange (without one, keys() reads every key). */
  IDBKeyRange?: { bound(lower: unknown, upper: unknown): unknown };
}): IndexedDbSnapshotStore;
/** Node: one JSON file per key in `directory`, written to a temporary file, synced, renamed (the directory synced too); node:fs is loaded on first use. */
export function fileSnapshotStore(options: { directory: string }): FileSnapshotStore;
/** IndexedDB, else localStorage, else (Node) files under ~/.cache/loyalty-qualifier, else memory. */
export function defaultSnapshotStore(options?: { directory?: string }): ListingSnapshotStore;
