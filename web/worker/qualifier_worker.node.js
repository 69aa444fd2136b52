// The script a qualifier worker thread runs in Node (worker_threads); the same host as the Web
// Worker's (qualifier_worker.js).
import { parentPort } from 'node:worker_threads';

import * as engine from '../engine/qualifier.js';
import { hostQualifiers } from './qualifier_host.js';

hostQualifiers(
  engine,
  (handle) => parentPort.on('message', handle),
  (message) => parentPort.postMessage(message),
);
