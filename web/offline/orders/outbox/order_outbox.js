// Where HybridQualifier keeps the orders whose billing is not decided yet (the service could not
// be reached, or its answer was lost), so that they survive page reloads and process restarts
// and are re-sent with the same basket id until the service decides them. An outbox holds order
// records by (owner, basketId); list() gives them in the order they were queued (`sequence`).
// An entry that cannot be read as an order is moved to quarantine and reported by damaged(),
// never returned, never dropped, never in the way of the other orders. exclusive(fn) runs the
// replay under the outbox's lock (outbox_lock.js); get(key) reads one order (a checkout costs the
// same however many orders wait). Every method may return a value or a Promise. One module per
// kind of outbox beside this one (memory, IndexedDB, files); this one picks the platform's.

import { platformStorage } from '../../storage/platform_storage.js';
import { fileOrderOutbox } from './file_outbox.js';
import { indexedDbOrderOutbox } from './indexed_db_outbox.js';
import { memoryOrderOutbox } from './memory_outbox.js';

/**
 * The platform's durable outbox: IndexedDB (browsers and workers), else files under
 * $XDG_STATE_HOME/loyalty-qualifier/orders or ~/.local/state/loyalty-qualifier/orders (Node),
 * else memory.
 */
export function defaultOrderOutbox({ directory } = {}) {
  return platformStorage({
    directory,
    userFolder: { kind: 'state', subfolder: 'loyalty-qualifier/orders' },
    indexedDb: () => indexedDbOrderOutbox(),
    files: (folder) => fileOrderOutbox({ directory: folder }),
    memory: () => memoryOrderOutbox(),
  });
}
