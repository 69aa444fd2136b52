// The script a qualifier Web Worker runs (loyalty-qualifier/worker starts it with
// `new Worker(new URL('./qualifier_worker.js', import.meta.url), { type: 'module' })`; exported
// as loyalty-qualifier/worker/script for bundlers that need it as an entry point of its own).
import * as engine from '../dist/loyalty_qualifier.browser.mjs';

import { hostQualifiers } from './qualifier_host.js';

// The engine is its browser bundle (web/engine/qualifier.js with its glue inlined, one module):
// a bundler emits the worker as one chunk. Vite's default worker format (iife) allows no second
// chunk; and webpack would otherwise move the glue, which the page imports lazily too
// (web/engine/qualifier.js), into a chunk shared with the page that the worker loads with
// importScripts. The bundle is a module of the worker's own, shared with nothing.
hostQualifiers(
  engine,
  (handle) => self.addEventListener('message', (event) => handle(event.data)),
  (message) => self.postMessage(message),
);
