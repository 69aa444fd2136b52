// The script a qualifier Web Worker runs (loyalty-qualifier/worker starts it with
// `new Worker(new URL('./qualifier_worker.js', import.meta.url), { type: 'module' })`; exported
// as loyalty-qualifier/worker/script for bundlers that need it as an entry point of its own).
import createModule from '../dist/loyalty_qualifier.mjs';

import { hostQualifiers } from './qualifier_host.js';

// The engine imports its glue on first use (import()); imported here too, the glue is part of
// this script, so that a bundler emits the worker as one chunk: Vite's default worker format
// (iife) allows no second chunk, and webpack then has no chunk to load from the worker.
if (typeof createModule !== 'function') throw new TypeError('the engine glue did not load');

hostQualifiers(
  (handle) => self.addEventListener('message', (event) => handle(event.data)),
  (message) => self.postMessage(message),
);
