// The kiosk's engine worker: the package's worker script (web/worker/qualifier_worker.js),
// started from here so that the worker's URL is inside the service worker's scope (kiosk/page/).
// Browsers give a dedicated worker the service worker whose scope holds the worker's own URL
// (Service Workers, "Handle Fetch": a worker's script request is a non-subresource request,
// matched by its URL): the package's script, at /web/worker/, would run uncontrolled and could
// not start with the network off. Started from here, the worker is a client of the kiosk's
// service worker, which answers its imports and its wasm fetch from the precache.
import '../../web/worker/qualifier_worker.js';
